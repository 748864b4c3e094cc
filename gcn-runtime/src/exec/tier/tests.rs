//! The compiled tier against the interpreter: random blocks.

use gcn_asm::isa::Unit;
use gcn_asm::GcnVersion;

use crate::exec::testing::{ops_of_waves, run_ops, snippet_wave};
use crate::exec::tier::TierMode;
use crate::exec::Wave;
use crate::memory::Memory;

/// Runs `source` (an `s_endpgm` is appended) through the interpreter and
/// through the tier (every block compiled), from the wave `setup` makes;
/// panics unless both leave the same wave. Returns the instructions that
/// ran compiled.
fn same(version: GcnVersion, wave32: bool, source: &str, setup: impl Fn(&mut Wave)) -> u64 {
    let ops = ops_of_waves(version, wave32, source);
    let mut wave = snippet_wave(version, wave32);
    setup(&mut wave);
    let memory = Memory::default();
    let run = |tier| run_ops(&ops, version, wave.clone(), &memory, 1024, (0, 0), tier);
    let interpreted = run(TierMode::Off);
    let compiled = run(TierMode::Eager);
    assert!(
        interpreted.fault.is_none(),
        "{source}: {:?}",
        interpreted.fault
    );
    assert!(compiled.fault.is_none(), "{source}: {:?}", compiled.fault);
    super::assert_same(source, &interpreted.wave, &compiled.wave);
    compiled.wave.compiled_steps
}

#[test]
fn a_loop_runs_compiled_with_the_interpreters_results() {
    let source = "
    s_movk_i32 s8, 5
    v_mov_b32 v3, 0.5
loop:
    v_fma_f32 v1, v1, v3, v2
    v_fma_f32 v2, v2, v3, v1
    v_add_u32 v4, vcc, s8, v0
    v_addc_u32 v5, vcc, v5, 0, vcc
    s_sub_u32 s8, s8, 1
    s_cmp_lg_u32 s8, 0
    s_cbranch_scc1 loop";
    let compiled = same(GcnVersion::Gcn1_2, false, source, |w| {
        for l in 0..64 {
            w.vgpr[0][l] = (l as u32).wrapping_mul(0x0400_0001) | 0xf000_0000;
            w.vgpr[1][l] = (l as f32 * 0.25).to_bits();
            w.vgpr[2][l] = (1.0f32 - l as f32).to_bits();
        }
        w.sgpr[126] = 0x0f0f_f0f0; // EXEC with lanes off
        w.sgpr[127] = 0x8000_0001;
    });
    assert!(
        compiled >= 5 * 7,
        "the loop ran compiled ({compiled} instructions)"
    );
}

use crate::exec::testing::Rng;

/// The dialect of the random blocks: GCN 1.2 (VOP2 carries into VCC), or
/// RDNA 2 in wave32 or wave64.
#[derive(Clone, Copy, PartialEq)]
enum Dialect {
    Gcn12,
    Gcn14,
    Rdna2(bool),
}

impl Dialect {
    fn version(self) -> GcnVersion {
        match self {
            Dialect::Gcn12 => GcnVersion::Gcn1_2,
            Dialect::Gcn14 => GcnVersion::Gcn1_4,
            Dialect::Rdna2(_) => GcnVersion::Rdna2,
        }
    }

    fn wave32(self) -> bool {
        self == Dialect::Rdna2(true)
    }

    /// VCC as the assembler spells a lane mask of the wave size.
    fn vcc(self) -> &'static str {
        if self.wave32() {
            "vcc_lo"
        } else {
            "vcc"
        }
    }

    /// A lane-mask SGPR (pair) `s[n:n+1]` or `sN`.
    fn mask(self, n: u32) -> String {
        if self.wave32() {
            format!("s{n}")
        } else {
            format!("s[{n}:{}]", n + 1)
        }
    }
}

/// Values that exercise the float rules: zeros, denormals, NaNs (quiet
/// and signalling, either sign), infinities, numbers near the limits.
const SPECIAL: [u32; 16] = [
    0x0000_0000,
    0x8000_0000,
    0x0000_0001,
    0x807f_ffff,
    0x0080_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0001,
    0xffa0_0002,
    0x7f80_0005,
    0x3f80_0000,
    0xbf00_0000,
    0x7f7f_ffff,
    0x4b80_0000,
    0xffff_ffff,
    0x8000_0001,
];

fn random_value(rng: &mut Rng) -> u32 {
    match rng.below(3) {
        0 => SPECIAL[rng.below(SPECIAL.len() as u64)],
        1 => (rng.word() & 0x807f_ffff) | (rng.below(40) as u32 + 100) << 23,
        _ => rng.word(),
    }
}

/// A random source operand: a VGPR, an SGPR, an inline constant or (when
/// `literal`) a literal.
fn operand(rng: &mut Rng, literal: bool) -> String {
    match rng.below(if literal { 10 } else { 8 }) {
        0..=3 => format!("v{}", rng.below(8)),
        4 | 5 => format!("s{}", rng.below(14)),
        6 => ["0", "1", "-1", "0.5", "-4.0", "64", "1.0"][rng.below(7)].to_string(),
        7 => format!("s{}", 10 + rng.below(4)),
        _ => format!("{:#x}", random_value(rng)),
    }
}

fn vgpr(rng: &mut Rng) -> String {
    format!("v{}", rng.below(8))
}

/// A float source with random abs/neg (VOP3 forms).
fn float_operand(rng: &mut Rng, literal: bool) -> String {
    let x = operand(rng, literal);
    match rng.below(6) {
        0 => format!("-{x}"),
        1 if !x.starts_with('-') && !x.starts_with(|c: char| c.is_ascii_digit()) => {
            format!("|{x}|")
        }
        _ => x,
    }
}

/// One random instruction of `d`'s dialect.
fn instruction(rng: &mut Rng, d: Dialect) -> String {
    let lit = d != Dialect::Gcn12 && d != Dialect::Gcn14;
    let (a, b, c) = (operand(rng, lit), vgpr(rng), operand(rng, false));
    let dst = vgpr(rng);
    let vcc = d.vcc();
    let m = d.mask(10 + 2 * rng.below(2) as u32);
    let m2 = d.mask(10 + 2 * rng.below(2) as u32);
    let f = |rng: &mut Rng| float_operand(rng, lit);
    let int_cc = ["f", "lt", "eq", "le", "gt", "ne", "ge", "t"][rng.below(8)];
    let f_cc = [
        "f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq",
        "nlt", "tru",
    ][rng.below(16)];
    let int_ty = ["u32", "i32"][rng.below(2)];
    let (add_co, addc, sub_co, subb) = match d {
        Dialect::Gcn12 => ("v_add_u32", "v_addc_u32", "v_sub_u32", "v_subb_u32"),
        Dialect::Gcn14 => (
            "v_add_co_u32",
            "v_addc_co_u32",
            "v_sub_co_u32",
            "v_subb_co_u32",
        ),
        Dialect::Rdna2(_) => (
            "v_add_co_u32",
            "v_add_co_ci_u32",
            "v_sub_co_u32",
            "v_sub_co_ci_u32",
        ),
    };
    match rng.below(44) {
        0 => format!("{add_co} {dst}, {vcc}, {a}, {b}"),
        1 => format!("{add_co} {dst}, {m}, {a}, {c}"),
        2 => format!("{addc} {dst}, {vcc}, {a}, {b}, {vcc}"),
        3 => format!("{addc} {dst}, {m}, {a}, {c}, {m2}"),
        4 => format!("{sub_co} {dst}, {vcc}, {a}, {b}"),
        5 => format!("{subb} {dst}, {m}, {c}, {b}, {m2}"),
        6 => format!("v_cndmask_b32 {dst}, {a}, {b}, {vcc}"),
        7 => format!("v_cndmask_b32 {dst}, {c}, {b}, {m}"),
        8 => format!("v_cmp_{int_cc}_{int_ty} {vcc}, {a}, {b}"),
        9 => format!("v_cmp_{int_cc}_{int_ty} {m}, {c}, {b}"),
        10 => format!("v_cmp_{f_cc}_f32 {vcc}, {a}, {b}"),
        11 => format!("v_cmp_{f_cc}_f32 {m}, {}, {}", f(rng), b),
        12 => format!("v_add_f32 {dst}, {}, {}", f(rng), f(rng)),
        13 => format!("v_sub_f32 {dst}, {}, {b}", f(rng)),
        14 => format!("v_subrev_f32 {dst}, {a}, {b}"),
        15 => format!("v_mul_f32 {dst}, {}, {}", f(rng), f(rng)),
        16 => format!("v_fma_f32 {dst}, {}, {}, {}", f(rng), f(rng), f(rng)),
        17 if d == Dialect::Gcn12 => format!("v_mac_f32 {dst}, {a}, {b}"),
        17 => format!("v_fmac_f32 {dst}, {a}, {b}"),
        18 if d == Dialect::Gcn12 => format!("v_mad_f32 {dst}, {}, {}, {}", f(rng), f(rng), f(rng)),
        18 => format!("v_mul_f32 {dst}, {a}, {b}"),
        19 => format!(
            "{} {dst}, {a}, {b}",
            [
                "v_and_b32",
                "v_or_b32",
                "v_xor_b32",
                "v_mul_u32_u24",
                "v_mul_i32_i24",
                "v_min_u32",
                "v_max_i32",
                "v_min_i32",
                "v_max_u32"
            ][rng.below(9)]
        ),
        20 => format!("v_mul_lo_u32 {dst}, {c}, {b}"),
        21 => format!(
            "{} {dst}, {}, {b}",
            ["v_lshlrev_b32", "v_lshrrev_b32", "v_ashrrev_i32"][rng.below(3)],
            ["s3", "5", "31", "0", "s12", "v1"][rng.below(6)]
        ),
        22 => format!("v_cvt_f32_{int_ty} {dst}, {a}"),
        23 => format!("v_mov_b32 {dst}, {a}"),
        24 => format!(
            "{} s{}, s{}, {}",
            [
                "s_add_u32",
                "s_sub_u32",
                "s_add_i32",
                "s_sub_i32",
                "s_and_b32",
                "s_or_b32",
                "s_xor_b32",
                "s_lshl_b32",
                "s_lshr_b32",
                "s_ashr_i32",
                "s_mul_i32"
            ][rng.below(11)],
            rng.below(14),
            rng.below(14),
            ["s5", "7", "-3", "0x80000001", "s11", "31"][rng.below(6)]
        ),
        25 => format!(
            "s_cmp_{}_{} s{}, {}",
            ["eq", "lg", "gt", "ge", "lt", "le"][rng.below(6)],
            int_ty,
            rng.below(14),
            ["s5", "7", "-3", "0x80000001"][rng.below(4)]
        ),
        26 => format!("s_movk_i32 s{}, {:#x}", rng.below(14), rng.word() & 0xffff),
        27 => format!(
            "s_mov_b32 s{}, {}",
            rng.below(14),
            ["s3", "0x7fc00000", "-1", "s12"][rng.below(4)]
        ),
        28 if lit => format!("v_add_nc_u32 {dst}, {a}, {b}"),
        28 => format!("v_add_f32 {dst}, {a}, {b}"),
        30 => format!(
            "{} {dst}, {}, {}",
            ["v_max_f32", "v_min_f32"][rng.below(2)],
            f(rng),
            f(rng)
        ),
        31 => format!("v_max_f32 {dst}, {a}, {b}"),
        32 => format!(
            "{} {dst}, {}, {}, {}",
            ["v_max3_f32", "v_min3_f32", "v_med3_f32"][rng.below(3)],
            f(rng),
            f(rng),
            f(rng)
        ),
        33 | 34 => {
            let ops = [
                "v_add3_u32",
                "v_or3_b32",
                "v_xor3_b32",
                "v_and_or_b32",
                "v_xad_u32",
                "v_bfi_b32",
                "v_mad_u32_u24",
                "v_mad_i32_i24",
                "v_min3_u32",
                "v_max3_u32",
                "v_med3_u32",
                "v_min3_i32",
                "v_max3_i32",
                "v_med3_i32",
                "v_lshl_add_u32",
                "v_add_lshl_u32",
                "v_lshl_or_b32",
                "v_bfe_u32",
                "v_bfe_i32",
                "v_alignbit_b32",
                "v_alignbyte_b32",
            ];
            let small = ["0", "1", "5", "31", "32", "s3", "v2", "17"];
            let x = if rng.below(2) == 0 {
                small[rng.below(small.len() as u64)].to_string()
            } else {
                operand(rng, false)
            };
            let y = if rng.below(2) == 0 {
                small[rng.below(small.len() as u64)].to_string()
            } else {
                vgpr(rng)
            };
            format!("{} {dst}, {a}, {x}, {y}", ops[rng.below(ops.len() as u64)])
        }
        35 => format!(
            "{} {dst}, {a}, {b}",
            ["v_mul_hi_u32", "v_mul_hi_i32", "v_bcnt_u32_b32"][rng.below(3)]
        ),
        36 => format!("v_not_b32 {dst}, {a}"),
        37 => format!(
            "{} {dst}, {b}, {}",
            ["v_lshlrev_b32", "v_lshrrev_b32", "v_ashrrev_i32"][rng.below(3)],
            operand(rng, lit)
        ),
        38 | 39 => format!(
            "{} {dst}, {}",
            [
                "v_floor_f32",
                "v_ceil_f32",
                "v_trunc_f32",
                "v_rndne_f32",
                "v_sqrt_f32",
                "v_rcp_f32",
                "v_rcp_iflag_f32",
                "v_cvt_i32_f32",
                "v_cvt_u32_f32"
            ][rng.below(9)],
            f(rng)
        ),
        40 => format!("v_min_f32 {dst}, {a}, {b}"),
        41 => format!("v_cvt_f32_ubyte{} {dst}, {a}", rng.below(4)),
        _ => "s_nop 0".to_string(),
    }
}

/// The dialects the random blocks cycle through.
const DIALECTS: [Dialect; 4] = [
    Dialect::Gcn12,
    Dialect::Gcn14,
    Dialect::Rdna2(true),
    Dialect::Rdna2(false),
];

/// Rounds of a random test: `TIER_ROUNDS` if set, else `default`.
fn rounds(default: usize) -> usize {
    std::env::var("TIER_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(default)
}

/// The unit of the instruction `line` assembles to in `d`'s dialect (from
/// the ISA table), or `None` when it does not assemble (an operand the form
/// cannot take).
fn unit_of(line: &str, d: Dialect) -> Option<Unit> {
    let options = gcn_asm::AssembleOptions {
        version: Some(d.version()),
        wave32: d.wave32(),
        ..gcn_asm::AssembleOptions::default()
    };
    let assembly = gcn_asm::assemble(line, &options).ok()?;
    let words = gcn_asm::decode::words_from_bytes(assembly.text());
    let instr = gcn_asm::decode::decode(&words, 0, d.version()).ok()?;
    Some(instr.row.unit())
}

/// MODE values: round to nearest with each denormal rule, with and
/// without MODE.IEEE (and one directed rounding, which the tier declines
/// to compile).
const MODES: [u32; 9] = [0xf0, 0x00, 0x30, 0x10, 0x20, 0xf1, 0x2f0, 0x200, 0x230];

/// A random wave state for the random blocks: VGPRs v0-v7 and SGPRs
/// s0-s13 (float specials among them), EXEC, VCC, SCC and MODE.
struct RandomState {
    values: Vec<u32>,
    scalars: Vec<u32>,
    exec: u64,
    vcc: u64,
    scc: bool,
    mode: u32,
}

impl RandomState {
    fn new(rng: &mut Rng) -> RandomState {
        let values = (0..8 * 64).map(|_| random_value(rng)).collect();
        let scalars = (0..14).map(|_| random_value(rng)).collect();
        let exec = match rng.below(3) {
            0 => u64::MAX,
            1 => rng.next(),
            _ => rng.next() & rng.next(),
        };
        RandomState {
            values,
            scalars,
            exec,
            vcc: rng.next(),
            scc: rng.below(2) == 1,
            mode: MODES[rng.below(MODES.len() as u64)],
        }
    }

    fn apply(&self, w: &mut Wave) {
        for (i, v) in self.values.iter().enumerate() {
            w.vgpr[i / 64][i % 64] = *v;
        }
        w.sgpr[..14].copy_from_slice(&self.scalars);
        w.set_exec(self.exec);
        w.sgpr[106] = self.vcc as u32;
        w.sgpr[107] = (self.vcc >> 32) as u32;
        w.scc = self.scc;
        w.mode = self.mode;
    }
}

#[test]
fn random_blocks_run_compiled_as_interpreted() {
    let mut rng = Rng(0x005e_ed0f_7e12);
    let mut compiled = 0;
    let rounds = rounds(400);
    for round in 0..rounds {
        let d = DIALECTS[round % DIALECTS.len()];
        // Lines that do not assemble (an operand the form cannot take) are
        // dropped; a block of what remains runs.
        let lines: Vec<String> = (0..4 + rng.below(10))
            .map(|_| instruction(&mut rng, d))
            .filter(|line| unit_of(line, d).is_some())
            .collect();
        let source = lines.join("\n");
        let state = RandomState::new(&mut rng);
        let setup = |w: &mut Wave| state.apply(w);
        let run = |source: &str| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                same(d.version(), d.wave32(), source, setup)
            }))
        };
        match run(&source) {
            Ok(n) => compiled += n,
            Err(_) => {
                // The failing block without the lines it fails without,
                // then its failure again, for the report.
                let mut lines = lines;
                let mut i = 0;
                while i < lines.len() {
                    let mut fewer = lines.clone();
                    fewer.remove(i);
                    if run(&fewer.join("\n")).is_err() {
                        lines = fewer;
                    } else {
                        i += 1;
                    }
                }
                eprintln!("round {round}: the smallest failing block follows");
                same(d.version(), d.wave32(), &lines.join("\n"), setup);
                unreachable!("the block failed before");
            }
        }
    }
    assert!(compiled > 1000, "only {compiled} instructions ran compiled");
}

/// Random blocks that loop on themselves (a scalar counter, 1 to 6
/// iterations) run compiled as interpreted; most of them as resident loops
/// (`lower::resident`: every iteration on four lanes before the next four),
/// with random EXEC, MODE, lane masks and float specials.
#[test]
fn random_loops_run_compiled_as_interpreted() {
    let mut rng = Rng(0x100b_5eed_0001);
    let resident_before = super::lower::resident::BUILT.with(|n| n.get());
    let rounds = rounds(300);
    for round in 0..rounds {
        let d = DIALECTS[round % DIALECTS.len()];
        // Mostly vector instructions only (a scalar one that a vector one
        // reads makes the block an ordinary loop).
        let scalars_too = rng.below(4) == 0;
        let lines: Vec<String> = (0..2 + rng.below(8))
            .map(|_| instruction(&mut rng, d))
            .filter(|line| match unit_of(line, d) {
                Some(Unit::Salu) => scalars_too,
                unit => unit.is_some(),
            })
            .chain(
                // A third of the loops on sixteen rows (fewer chunks side by
                // side: `lower::resident::chunk_count`).
                (8..16)
                    .filter(|_| round % 3 == 2)
                    .map(|r| format!("v_add_f32 v{r}, v{}, v{r}", r - 8)),
            )
            .collect();
        let source = format!(
            "    s_movk_i32 s20, {}\nloop:\n{}\n    s_sub_u32 s20, s20, 1\n    \
             s_cmp_lg_u32 s20, 0\n    s_cbranch_scc1 loop",
            1 + rng.below(6),
            lines.join("\n")
        );
        let state = RandomState::new(&mut rng);
        same(d.version(), d.wave32(), &source, |w: &mut Wave| {
            state.apply(w)
        });
    }
    let resident = super::lower::resident::BUILT.with(|n| n.get()) - resident_before;
    assert!(
        resident as usize > rounds / 4,
        "only {resident} of {rounds} loops were built as resident loops"
    );
}

/// A block that loops on itself stops where the interpreter stops when the
/// step budget runs out: the same fault, PC and registers.
#[test]
fn a_self_loop_spends_the_step_budget_as_the_interpreter() {
    let source = "
    s_movk_i32 s8, 100
loop:
    v_add_f32 v1, v1, 1.0
    v_mul_f32 v2, v1, v1
    s_sub_u32 s8, s8, 1
    s_cmp_lg_u32 s8, 0
    s_cbranch_scc1 loop";
    let version = GcnVersion::Gcn1_2;
    let ops = ops_of_waves(version, false, source);
    let memory = Memory::default();
    for budget in [3, 37, 38, 39, 40, 41, 250, 501, 502, 503] {
        let mut wave = Wave::new(256, 104);
        wave.set_exec(u64::MAX);
        wave.budget = budget;
        let run = |tier| run_ops(&ops, version, wave.clone(), &memory, 1024, (0, 0), tier);
        let (a, b) = (run(TierMode::Off), run(TierMode::Eager));
        assert_eq!(
            a.fault.as_ref().map(|f| format!("{f:?}")),
            b.fault.as_ref().map(|f| format!("{f:?}")),
            "budget {budget}"
        );
        super::assert_same(&format!("budget {budget}\n{source}"), &a.wave, &b.wave);
    }
}

/// The common ALU forms are translated, not run through their handlers:
/// each line that assembles in a dialect has a kind other than `Call`.
#[test]
fn common_alu_forms_are_translated() {
    use super::lower::{kind_of, Kind};
    let lines = [
        "v_max_f32 v1, v2, v3",
        "v_min_f32 v1, -v2, |v3|",
        "v_max3_f32 v1, v2, s3, 1.0",
        "v_min3_f32 v1, v2, v3, v4",
        "v_med3_f32 v1, -v2, v3, 0.5",
        "v_add3_u32 v1, v2, v3, v4",
        "v_or3_b32 v1, v2, s3, v4",
        "v_xor3_b32 v1, v2, v3, v4",
        "v_and_or_b32 v1, v2, 0xff, v4",
        "v_xad_u32 v1, v2, v3, v4",
        "v_bfi_b32 v1, v2, v3, v4",
        "v_mad_u32_u24 v1, v2, v3, v4",
        "v_mad_i32_i24 v1, v2, v3, v4",
        "v_mul_u32_u24 v1, v2, v3",
        "v_mul_i32_i24 v1, v2, v3",
        "v_max3_i32 v1, v2, v3, v4",
        "v_min3_u32 v1, v2, v3, v4",
        "v_med3_i32 v1, v2, v3, v4",
        "v_med3_u32 v1, v2, v3, v4",
        "v_lshl_add_u32 v1, v2, 2, v4",
        "v_lshl_add_u32 v1, v2, v3, v4",
        "v_add_lshl_u32 v1, v2, v3, 4",
        "v_lshl_or_b32 v1, v2, v3, v4",
        "v_bfe_u32 v1, v2, 8, 8",
        "v_bfe_i32 v1, v2, v3, v4",
        "v_alignbit_b32 v1, v2, v3, 7",
        "v_alignbyte_b32 v1, v2, v3, v4",
        "v_mul_hi_u32 v1, v2, v3",
        "v_mul_hi_i32 v1, v2, v3",
        "v_bcnt_u32_b32 v1, v2, 0",
        "v_not_b32 v1, v2",
        "v_lshlrev_b32 v1, 5, v3",
        "v_lshrrev_b32 v1, s2, v3",
        "v_ashrrev_i32 v1, 31, v3",
        "v_floor_f32 v1, v2",
        "v_ceil_f32 v1, -v2",
        "v_trunc_f32 v1, v2",
        "v_rndne_f32 v1, v2",
        "v_sqrt_f32 v1, v2",
        "v_rcp_f32 v1, v2",
        "v_cvt_i32_f32 v1, v2",
        "v_cvt_f32_ubyte0 v1, v2",
        "v_cvt_f32_ubyte3 v1, s2",
        "v_cvt_u32_f32 v1, |v2|",
    ];
    let mut checked = 0;
    for d in [Dialect::Gcn12, Dialect::Gcn14, Dialect::Rdna2(true)] {
        let options = gcn_asm::AssembleOptions {
            version: Some(d.version()),
            wave32: d.wave32(),
            ..gcn_asm::AssembleOptions::default()
        };
        for line in lines {
            if gcn_asm::assemble(line, &options).is_err() {
                continue;
            }
            let ops = ops_of_waves(d.version(), d.wave32(), line);
            let kind = kind_of(&ops.ops()[0], d.version());
            assert!(
                kind.is_some_and(|k| k != Kind::Call),
                "{line} ({}): {kind:?}",
                d.version()
            );
            checked += 1;
        }
    }
    eprintln!("{checked} forms checked");
    assert!(checked >= 100, "only {checked} forms assemble");
}

/// A lane mask a segment writes and the rest of the block overwrites
/// before reading is not built (`lower::dead_masks`); one the rest reads
/// first, writes only in part, or leaves to the block's end is, with the
/// interpreter's value in every case.
#[test]
fn lane_masks_the_block_overwrites_are_skipped_and_the_others_kept() {
    let setup = |w: &mut Wave| {
        for l in 0..64 {
            w.vgpr[2][l] = (l as u32).wrapping_mul(0x0900_0001) | 0x8000_0000;
            w.vgpr[3][l] = (l as u32).wrapping_mul(0x0700_0003) ^ 0xc000_0000;
        }
    };
    for source in [
        // Overwritten whole by a compare after a scalar instruction.
        "v_add_u32 v1, vcc, v2, v3
         s_add_u32 s5, s5, 1
         v_cmp_lt_u32 vcc, v1, v2
         v_cndmask_b32 v4, v2, v3, vcc",
        // Read by a scalar instruction first.
        "v_add_u32 v1, vcc, v2, v3
         s_mov_b32 s6, vcc_hi
         v_cmp_lt_u32 vcc, v1, v2",
        // Read as a carry first.
        "v_add_u32 v1, vcc, v2, v3
         s_add_u32 s5, s5, 1
         v_addc_u32 v4, vcc, v2, v3, vcc",
        // Overwritten in part (the high half stays the segment's).
        "v_add_u32 v1, vcc, v2, v3
         s_mov_b32 vcc_lo, 5",
        // Left to the block's end.
        "v_add_u32 v1, vcc, v2, v3
         s_add_u32 s5, s5, 1",
        // Overwritten by a 64-bit scalar move, another mask kept.
        "v_cmp_gt_u32 s[10:11], v2, v3
         v_add_u32 v1, vcc, v2, v3
         s_add_u32 s5, s5, 1
         s_mov_b64 vcc, s[10:11]",
    ] {
        same(GcnVersion::Gcn1_2, false, source, setup);
    }
}

/// Every instruction the tier's entry ends a wave with after a block
/// (`ends_wave`: no successor, no operand; the table's `s_endpgm` rows)
/// ends the wave in the interpreter too: its handler is what `enter`
/// does in its place.
#[test]
fn every_instruction_that_ends_a_wave_after_a_block_ends_it_in_the_interpreter() {
    use gcn_asm::isa::{flags, INSTRUCTIONS};
    let mut checked = 0;
    for row in INSTRUCTIONS
        .iter()
        .filter(|r| r.has(flags::ENDS) && r.operands.is_empty())
    {
        for version in crate::exec::testing::versions_with(row.mnemonic) {
            let ops = crate::exec::testing::ops_of(version, row.mnemonic);
            let op = ops.at(0).expect("decodes");
            assert!(
                super::enabled::ends_wave(op),
                "{} on {version}",
                row.mnemonic
            );
            // The snippet appends an `s_endpgm`: one step means the
            // instruction itself ended the wave.
            let wave = crate::exec::testing::run(version, row.mnemonic, |_| {});
            assert_eq!(wave.steps, 1, "{} on {version}", row.mnemonic);
            checked += 1;
        }
    }
    assert!(checked >= 3, "the s_endpgm rows were found");
}
