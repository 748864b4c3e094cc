//! The invariant that keeps the emulator's semantics and the instruction
//! facts together: for every scalar ALU, vector ALU, scalar memory and DS
//! row, on every version it
//! exists on, with random operands and modifiers (random instruction words
//! that decode to the row), a handler
//!
//! - changes no register outside the declared writes of
//!   [`gcn_asm::decode::Instruction::accesses`], and
//! - computes the same declared writes (and the same fault or none) when
//!   every register outside the declared reads is given another random
//!   value: what it reads is among what it declares;
//! - makes each declared plain register write (role `Write`, not partial)
//!   in at least one of a row's samples: a declared write that never
//!   happens would give the checks false alarms.
//!
//! On GCN 1.5 and later every sample runs again in wave32 (the words
//! decoded for a 32-lane wave, whose lane masks are one SGPR): the first
//! two rules hold there too, EXEC is EXEC_LO alone, and no VGPR lane 32-63
//! changes.
//!
//! A write that keeps part of the old value (`partial`) counts as a read of
//! that register. EXEC (the lane mask) is an input of every vector
//! instruction and MODE (rounding and denormals) of every vector ALU
//! instruction by its unit, and they are not perturbed for those; the PC
//! is not compared.
//!
//! DS runs too, with its address registers inside the LDS and no LDS limit,
//! and SMEM with every SGPR pair pointing into a 4 MiB test buffer (so that
//! the access happens); their atomics are left out (they change the memory
//! between the two runs). MUBUF/MTBUF, MIMG and FLAT are not run here: they
//! would need valid descriptors and addresses in VGPRs; their own tests
//! cover their registers.

use gcn_asm::decode::{self, Access, Location};
use gcn_asm::isa::Role;
use gcn_asm::isa::{flags, Encoding, ImplicitReg, Unit, INSTRUCTIONS};
use gcn_asm::GcnVersion;

use super::{handler, make_op, Env, Op, Wave, WAVE_SIZE};
use crate::memory::Memory;

use super::testing::Rng;

/// Instruction words of one family on `version`: (family, fixed bits, mask
/// of the fixed bits, mask of the opcode field) of the first word, after
/// the decoder's `family` prefixes and the CLRX encoding tables. Opcodes
/// are drawn uniformly and the other fields often sparse, so that rows
/// whose unused fields must be zero decode too.
fn prefixes(version: GcnVersion) -> Vec<(Encoding, u32, u32, u32)> {
    let top6 = 0xfc00_0000;
    let mut p = vec![
        (Encoding::Sop2, 0b10 << 30, 0xc000_0000, 0x3f80_0000),
        (Encoding::Sopk, 0b1011 << 28, 0xf000_0000, 0x0f80_0000),
        (Encoding::Sop1, 0x17d << 23, 0xff80_0000, 0xff00),
        (Encoding::Sopc, 0x17e << 23, 0xff80_0000, 0x7f_0000),
        (Encoding::Sopp, 0x17f << 23, 0xff80_0000, 0x7f_0000),
        (Encoding::Vop2, 0, 0x8000_0000, 0x7e00_0000),
        (Encoding::Vop1, 0x3f << 25, 0xfe00_0000, 0x1_fe00),
        (Encoding::Vopc, 0x3e << 25, 0xfe00_0000, 0x1fe_0000),
    ];
    if version.is_gcn15() {
        // GCN 1.5: VOP3 0b110101, VINTRP 0b110010, VOP3P 0x198 in bits
        // 31:23.
        p.push((Encoding::Vop3, 0b110101 << 26, top6, 0x3ff_0000));
        p.push((Encoding::Vintrp, 0b110010 << 26, top6, 0x3_0000));
        p.push((Encoding::Vop3p, 0x198 << 23, 0xff80_0000, 0x7f_0000));
    } else if version.is_gcn12_or_later() {
        p.push((Encoding::Vop3, 0b110100 << 26, top6, 0x3ff_0000));
        p.push((Encoding::Vintrp, 0b110101 << 26, top6, 0x3_0000));
    } else {
        p.push((Encoding::Vop3, 0b110100 << 26, top6, 0x3fe_0000));
        p.push((Encoding::Vintrp, 0b110010 << 26, top6, 0x3_0000));
    }
    if version.is_gcn14() {
        p.push((Encoding::Vop3p, 0x1a7 << 23, 0xff80_0000, 0x7f_0000));
    }
    // SMRD (GCN 1.0/1.1): OP in bits 26:22; SMEM (GCN 1.2+): bits 25:18
    // (GCN 1.5: prefix 0b111101).
    if version.is_gcn15() {
        p.push((Encoding::Smem, 0b111101 << 26, top6, 0x3fc_0000));
    } else if version.is_gcn12_or_later() {
        p.push((Encoding::Smem, 0b110000 << 26, top6, 0x3fc_0000));
    } else {
        p.push((Encoding::Smrd, 0b11000 << 27, 0xf800_0000, 0x7c0_0000));
    }
    // DS: OP in bits 25:18 (GCN 1.0/1.1) or 24:17 (GCN 1.2+).
    if version.is_gcn12_or_later() {
        p.push((Encoding::Ds, 0b110110 << 26, top6, 0x1fe_0000));
    } else {
        p.push((Encoding::Ds, 0b110110 << 26, top6, 0x3fc_0000));
    }
    p
}

/// The whole register state the invariant compares.
#[derive(Clone, PartialEq)]
struct State {
    sgpr: [u32; 128],
    vgpr: Vec<[u32; WAVE_SIZE]>,
    scc: bool,
    mode: u32,
    trapsts: u32,
}

impl State {
    fn of(w: &Wave) -> State {
        State {
            sgpr: w.sgpr,
            vgpr: w.vgpr.clone(),
            scc: w.scc,
            mode: w.mode,
            trapsts: w.trapsts,
        }
    }

    fn load(&self, w: &mut Wave) {
        w.sgpr = self.sgpr;
        w.vgpr.clone_from(&self.vgpr);
        w.scc = self.scc;
        w.mode = self.mode;
        w.trapsts = self.trapsts;
        w.pc = 0;
    }
}

/// One comparable location of [`State`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    Sgpr(u16),
    Vgpr(u16),
    Scc,
    Mode,
    Trapsts,
}

fn cells(loc: Location) -> Vec<Cell> {
    match loc {
        Location::Sgprs { code, count } => {
            (code..(code + count).min(128)).map(Cell::Sgpr).collect()
        }
        Location::Vgprs { index, count } => {
            (index..(index + count).min(256)).map(Cell::Vgpr).collect()
        }
        Location::State(ImplicitReg::Scc) => vec![Cell::Scc],
        Location::State(ImplicitReg::Mode) => vec![Cell::Mode],
        Location::State(ImplicitReg::Trapsts) => vec![Cell::Trapsts],
        Location::State(_) => vec![],
    }
}

fn all_cells() -> impl Iterator<Item = Cell> {
    (0..128)
        .map(Cell::Sgpr)
        .chain((0..256).map(Cell::Vgpr))
        .chain([Cell::Scc, Cell::Mode, Cell::Trapsts])
}

fn same(a: &State, b: &State, c: Cell) -> bool {
    match c {
        Cell::Sgpr(i) => a.sgpr[usize::from(i)] == b.sgpr[usize::from(i)],
        Cell::Vgpr(i) => a.vgpr[usize::from(i)] == b.vgpr[usize::from(i)],
        Cell::Scc => a.scc == b.scc,
        Cell::Mode => a.mode == b.mode,
        Cell::Trapsts => a.trapsts == b.trapsts,
    }
}

fn randomise(s: &mut State, c: Cell, rng: &mut Rng) {
    match c {
        Cell::Sgpr(i) => s.sgpr[usize::from(i)] = rng.word(),
        Cell::Vgpr(i) => s.vgpr[usize::from(i)] = std::array::from_fn(|_| rng.word()),
        Cell::Scc => s.scc = !s.scc,
        Cell::Mode => s.mode ^= rng.word() & 0xff,
        Cell::Trapsts => s.trapsts ^= rng.word() & 0xff,
    }
}

/// A random starting state: M0 small (an index), EXEC random.
fn random_state(rng: &mut Rng) -> State {
    let mut s = State {
        sgpr: std::array::from_fn(|_| rng.word()),
        vgpr: (0..256)
            .map(|_| std::array::from_fn(|_| rng.word()))
            .collect(),
        scc: rng.next() & 1 != 0,
        // Round to nearest, denormals kept (other modes are inputs too).
        mode: 0xf0,
        trapsts: 0,
    };
    s.sgpr[usize::from(super::sreg::M0)] = rng.word() & 7;
    s
}

/// Runs `op` on `state`; the state after, or the fault's text.
fn execute(op: &Op, state: &State, version: GcnVersion, mem: &Memory) -> Result<State, String> {
    let mut wave = Wave::new(256, 104);
    state.load(&mut wave);
    wave.set_wave32(op.instr.wave32);
    let mut lds = vec![0u8; 64 * 1024];
    let view = mem.view();
    let mut env = Env {
        mem: &view,
        lds: &mut lds,
        version,
        code_base: 0x1000,
        scratch: (0, 0),
        log: None,
        hostcall: None,
        tier: super::tier::TierMode::Off,
    };
    match (op.handler)(&mut wave, op, &mut env) {
        Ok(_) => Ok(State::of(&wave)),
        Err(f) => Err(f.kind.to_string()),
    }
}

/// What one random state showed of an instruction.
struct Sample {
    /// Violations of the declared reads and writes.
    problems: Vec<String>,
    /// A declared plain write (role Write, not partial) of registers none
    /// of which changed, if any.
    unwritten: Option<Location>,
}

/// Checks one decoded instruction on one random state, or `None` when the
/// instruction faulted on that state (nothing to compare).
fn check(op: &Op, version: GcnVersion, mem: &Memory, base: u64, rng: &mut Rng) -> Option<Sample> {
    let accesses = op.instr.accesses();
    let wave32 = op.instr.wave32;
    let valu = op.instr.row.unit() == Unit::Valu;
    // Vector instructions (ALU and memory) take EXEC as their lane mask.
    let vector = matches!(op.instr.row.unit(), Unit::Valu | Unit::Ds | Unit::Vmem);
    let declared = |f: &dyn Fn(&Access) -> bool| -> Vec<Cell> {
        accesses
            .iter()
            .filter(|a| f(a))
            .flat_map(|a| cells(a.location))
            .collect()
    };
    let mut writes = declared(&|a| a.role.writes());
    let mut reads = declared(&|a| a.role.reads() || a.partial);
    if op.instr.row.has(flags::INDEXED) {
        // Registers chosen at run time: only the implicit state is checked.
        let files: Vec<Cell> = all_cells()
            .filter(|c| matches!(c, Cell::Sgpr(_) | Cell::Vgpr(_)))
            .collect();
        writes.extend(&files);
        reads.extend(&files);
    }
    let mut before = random_state(rng);
    if op.instr.row.unit() == Unit::Ds {
        // Addresses inside the 64 KiB LDS, and no LDS limit (M0 on GCN
        // 1.0-1.2): the registers that matter must let the access happen.
        for row in before.vgpr.iter_mut() {
            for lane in row.iter_mut() {
                *lane &= 0x7ff8;
            }
        }
        before.sgpr[usize::from(super::sreg::M0)] = u32::MAX;
    }
    if op.instr.row.unit() == Unit::Smem {
        // Every SGPR pair a base address into the test buffer (at `base`,
        // 4 MiB), every single SGPR a small offset: the access happens.
        for pair in before.sgpr[..104].chunks_mut(2) {
            let a = base + u64::from(rng.word() & 0xf_fff0);
            pair[0] = a as u32;
            pair[1] = (a >> 32) as u32;
        }
        for s in before.sgpr[..104].iter_mut().skip(2).step_by(4) {
            *s &= 0xf_fff0;
        }
    }
    let after = execute(op, &before, version, mem).ok()?;
    let mut problems = Vec::new();
    // GCN 1.5's NULL is no register (every read of it is 0): a 32-bit
    // write lands in its slot, which nothing reads.
    let null_sink = |c: Cell| version.is_gcn15() && c == Cell::Sgpr(super::sreg::NULL);
    for c in all_cells() {
        if !writes.contains(&c) && !null_sink(c) && !same(&before, &after, c) {
            problems.push(format!("writes {c:?}, which it does not declare"));
        }
    }
    if wave32 {
        // A wave32 has no lanes 32-63: nothing writes them.
        for (i, (b, a)) in before.vgpr.iter().zip(&after.vgpr).enumerate() {
            if b[32..] != a[32..] {
                problems.push(format!("writes lanes 32-63 of v{i} in wave32"));
            }
        }
    }
    // Every register outside the declared reads gets another value.
    let mut other = before.clone();
    for c in all_cells() {
        // (A wave32's EXEC is EXEC_LO alone.)
        let implied = (valu && c == Cell::Mode)
            || (vector
                && (c == Cell::Sgpr(super::sreg::EXEC)
                    || (!wave32 && c == Cell::Sgpr(super::sreg::EXEC + 1))));
        if !reads.contains(&c) && !implied {
            randomise(&mut other, c, rng);
        }
    }
    match execute(op, &other, version, mem) {
        Ok(after2) => {
            // A vector instruction writes VGPRs in the EXEC lanes only: the
            // others keep their (here perturbed) old values.
            let exec = if wave32 {
                u64::from(before.sgpr[usize::from(super::sreg::EXEC)])
            } else {
                before.sgpr[usize::from(super::sreg::EXEC)] as u64
                    | (before.sgpr[usize::from(super::sreg::EXEC) + 1] as u64) << 32
            };
            for &c in &writes {
                let equal = match c {
                    Cell::Vgpr(i) if vector => (0..WAVE_SIZE).all(|l| {
                        exec >> l & 1 == 0
                            || after.vgpr[usize::from(i)][l] == after2.vgpr[usize::from(i)][l]
                    }),
                    _ => same(&after, &after2, c),
                };
                if !equal {
                    problems.push(format!(
                        "its write of {c:?} depends on a register it does not declare as read"
                    ));
                }
            }
        }
        Err(f) => problems.push(format!(
            "faults ({f}) only when undeclared registers change"
        )),
    }
    // A declared write that the instruction never makes would have the
    // checks wait for (or forbid touching) a register nothing writes.
    let unwritten = accesses
        .iter()
        // Explicit operands: an implicit EXEC write (v_cmpx) keeps EXEC
        // whenever the compare is true in every active lane.
        .filter(|a| a.role == Role::Write && !a.partial && a.operand.is_some())
        .map(|a| a.location)
        .filter(|l| matches!(l, Location::Sgprs { .. } | Location::Vgprs { .. }))
        .find(|&l| cells(l).iter().all(|&c| same(&before, &after, c)));
    Some(Sample {
        problems,
        unwritten,
    })
}

#[test]
fn handlers_touch_only_the_registers_their_rows_declare() {
    let mem = Memory::default();
    // Scalar loads read this (random bytes); stores write it.
    let mut fill = Rng(7);
    let bytes: Vec<u32> = (0..(4 << 20) / 4).map(|_| fill.word()).collect();
    let buffer = mem.buffer_from_slice(&bytes).expect("4 MiB test buffer");
    let base = buffer.ptr().0;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut failures = Vec::new();
    let mut covered = 0usize;
    let mut uncovered = Vec::new();
    // Per unit: (samples that ran without a fault, samples).
    let mut ran = [(0usize, 0usize); 6];
    // Samples run again in wave32 (GCN 1.5+).
    let mut wave32_samples = 0usize;
    for version in crate::exec::EMULATED_VERSIONS {
        // Samples per row, by row index.
        let mut samples = vec![0u8; INSTRUCTIONS.len()];
        // Per row: (samples that ran, one of them made every declared plain
        // write, an example of one that did not).
        let mut writes_seen: Vec<(u32, bool, Option<String>)> =
            vec![(0, false, None); INSTRUCTIONS.len()];
        for (family, fixed, mask, opcode) in prefixes(version) {
            // DS words decode less often (unused data fields must be zero).
            let per_opcode = if family == Encoding::Ds { 256 } else { 64 };
            let draws = per_opcode * (opcode >> opcode.trailing_zeros()).max(64);
            for _ in 0..draws {
                // Half the draws sparse (most bits clear): fields that must
                // be zero or small (unused sources, SOPP immediates) decode.
                let sparse = rng.next() & 1 != 0;
                let opcode_bits = rng.word() & opcode;
                let mut draw = || match sparse {
                    false => rng.word(),
                    true => rng.word() & rng.word() & rng.word(),
                };
                let first = (draw() & !opcode) | opcode_bits;
                let words = [(first & !mask) | fixed, draw(), draw()];
                if decode::family(words[0], version) != Some(family) {
                    continue;
                }
                let Ok(instr) = decode::decode(&words, 0, version) else {
                    continue;
                };
                let index = (instr.row as *const _ as usize - INSTRUCTIONS.as_ptr() as usize)
                    / std::mem::size_of::<gcn_asm::isa::InstrRow>();
                // Atomics change the memory between the two runs.
                let atomic = instr.row.atomic.is_some();
                if samples[index] >= 6 || handler(instr.row, version).is_none() || atomic {
                    continue;
                }
                samples[index] += 1;
                let op = make_op(instr, version);
                let unit = op.instr.row.unit() as usize;
                ran[unit].1 += 1;
                if let Some(sample) = check(&op, version, &mem, base, &mut rng) {
                    ran[unit].0 += 1;
                    for p in sample.problems {
                        failures.push(format!("{version} `{}`: {p}", op.instr));
                    }
                    let seen = &mut writes_seen[index];
                    seen.0 += 1;
                    match sample.unwritten {
                        None => seen.1 = true,
                        Some(l) => seen.2 = Some(format!("`{}` leaves {l:?} alone", op.instr)),
                    }
                }
                // GCN 1.5+: the same words in a wave32 (lane masks are one
                // SGPR; lanes 32-63 do not exist).
                let options = decode::DecodeOptions { wave32: true };
                if let (true, Ok(instr)) = (
                    version.is_gcn15(),
                    decode::decode_with(&words, 0, version, options),
                ) {
                    // (Not counted in `ran`: the same words as above.)
                    let op = make_op(instr, version);
                    if let Some(sample) = check(&op, version, &mem, base, &mut rng) {
                        wave32_samples += 1;
                        for p in sample.problems {
                            failures.push(format!("{version} wave32 `{}`: {p}", op.instr));
                        }
                    }
                }
            }
        }
        // Every declared plain write happens in at least one of a row's
        // samples (random registers make an unchanged value all but
        // impossible; a register nothing writes would give the checks false
        // alarms).
        for (seen, row) in writes_seen.iter().zip(INSTRUCTIONS.iter()) {
            if let (n, false, Some(example)) = seen {
                if *n >= 3 && !row.has(flags::INDEXED) {
                    failures.push(format!(
                        "{version} {}: a declared write never happens in {n} samples ({example})",
                        row.mnemonic
                    ));
                }
            }
        }
        for (i, row) in INSTRUCTIONS.iter().enumerate() {
            let emulated = handler(row, version).is_some();
            let alu = matches!(row.unit(), Unit::Salu | Unit::Valu | Unit::Ds | Unit::Smem)
                && row.atomic.is_none();
            // The row the decoder yields for its opcode (aliases are
            // assembled, never decoded).
            let picked = row.opcode(version).is_some_and(|opcode| {
                decode::lookup(row.encoding, u32::from(opcode), version)
                    .is_some_and(|r| std::ptr::eq(r, row))
            });
            if alu && emulated && picked {
                if samples[i] > 0 {
                    covered += 1;
                } else {
                    uncovered.push(format!("{version} {}", row.mnemonic));
                }
            }
        }
    }
    // The states are built so that the accesses happen: most samples of
    // every unit must run (a fault leaves nothing to compare; DS with `gds`
    // and GWS rows stop as not emulated).
    println!("samples run without a fault, per unit (SALU, VALU, SMEM, DS): {ran:?}");
    assert!(wave32_samples > 1000, "{wave32_samples} wave32 samples");
    for (unit, &(ok, all)) in ran.iter().enumerate() {
        assert!(
            all == 0 || ok * 3 >= all * 2,
            "unit {unit}: only {ok} of {all} samples ran without a fault"
        );
    }
    failures.sort();
    failures.dedup();
    assert!(
        failures.is_empty(),
        "{} violations:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        uncovered.len() * 50 < covered,
        "rows never sampled ({} of {}): {}",
        uncovered.len(),
        covered + uncovered.len(),
        uncovered.join(", ")
    );
}
