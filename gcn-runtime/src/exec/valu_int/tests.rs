//! Table-driven tests of the integer VALU rows: each case occupies one
//! lane (inputs in v1, v2, v3, result in v0), and expected values are
//! worked out by hand from the `Operation:` text of the docs.

use gcn_asm::isa::{DataType, Encoding, INSTRUCTIONS};
use gcn_asm::GcnVersion;

use super::super::testing::{run, run_wave32, run_with, versions_with};
use super::super::{FaultKind, Wave, WAVE_SIZE};

const V10: GcnVersion = GcnVersion::Gcn1_0;
const V11: GcnVersion = GcnVersion::Gcn1_1;
const V12: GcnVersion = GcnVersion::Gcn1_2;
const V14: GcnVersion = GcnVersion::Gcn1_4;

/// Runs `asm` on `version` with case `i`'s inputs in lane `i` of v1, v2,
/// v3 (v0 preset to 0xdead_beef) and returns the wave.
fn lanes(version: GcnVersion, asm: &str, inputs: &[[u32; 3]]) -> Wave {
    assert!(inputs.len() <= WAVE_SIZE);
    run(version, asm, |w| {
        w.vgpr[0] = [0xdead_beef; WAVE_SIZE];
        for (i, c) in inputs.iter().enumerate() {
            w.vgpr[1][i] = c[0];
            w.vgpr[2][i] = c[1];
            w.vgpr[3][i] = c[2];
        }
    })
}

/// Checks `asm` (with `{}` not used: the line as written) on every version
/// in `versions`: lane `i` of v0 must be `cases[i].3`.
fn check(versions: &[GcnVersion], asm: &str, cases: &[(u32, u32, u32, u32)]) {
    assert!(!versions.is_empty(), "no version for {asm}");
    let inputs: Vec<[u32; 3]> = cases.iter().map(|c| [c.0, c.1, c.2]).collect();
    for &v in versions {
        let w = lanes(v, asm, &inputs);
        for (i, c) in cases.iter().enumerate() {
            assert_eq!(
                w.vgpr[0][i], c.3,
                "{v}: `{asm}` with {:#x}, {:#x}, {:#x}: got {:#x}, want {:#x}",
                c.0, c.1, c.2, w.vgpr[0][i], c.3
            );
        }
    }
}

/// [`check`] on every version where the line's mnemonic exists.
fn check_all(asm: &str, cases: &[(u32, u32, u32, u32)]) {
    let mnemonic = asm.split_whitespace().next().unwrap();
    check(&versions_with(mnemonic), asm, cases);
}

/// The lane mask of the cases for which `pred` holds.
fn mask(n: usize, pred: impl Fn(usize) -> bool) -> u64 {
    (0..n).fold(0, |m, i| m | (u64::from(pred(i)) << i))
}

// ---------------------------------------------------------------------------
// Row walk
// ---------------------------------------------------------------------------

/// Rows of the integer scope that have no handler, and why.
const OUT_OF_SCOPE: &[(&str, &str)] = &[
    (
        "v_mov_prsv_b32",
        "GCN 1.4 opcode named by CLRX without an Operation: in the docs",
    ),
    (
        "v_writelane_regwr_b32",
        "GCN 1.4 opcode named by CLRX without an Operation: in the docs",
    ),
    (
        "v_readlane_regrd_b32",
        "GCN 1.2/1.4 opcode named by CLRX without an Operation: in the docs",
    ),
];

fn is_float(t: DataType) -> bool {
    matches!(
        t,
        DataType::F16 | DataType::F32 | DataType::F64 | DataType::PkF16
    )
}

#[test]
fn every_integer_row_has_a_handler() {
    let versions = [V10, V11, V12, V14, GcnVersion::Gcn1_4_1];
    let mut missing = Vec::new();
    for row in INSTRUCTIONS.iter() {
        if !matches!(
            row.encoding,
            Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc | Encoding::Vop3
        ) || row.operands.iter().any(|o| is_float(o.ty))
            || OUT_OF_SCOPE.iter().any(|(m, _)| *m == row.mnemonic)
        {
            continue;
        }
        for v in versions {
            if row.opcode(v).is_some() && super::handler(row, v).is_none() {
                missing.push(format!("{} ({v})", row.mnemonic));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "integer rows without a handler: {missing:?}"
    );
}

#[test]
fn float_rows_are_left_to_the_float_modules() {
    for m in [
        "v_add_f32",
        "v_cvt_pk_u8_f32",
        "v_trig_preop_f64",
        "v_cmp_lt_f32",
    ] {
        for v in versions_with(m) {
            let row = gcn_asm::isa::lookup(m, v).unwrap();
            assert!(super::handler(row, v).is_none(), "{m} on {v}");
        }
    }
}

// ---------------------------------------------------------------------------
// Add/sub with carry
// ---------------------------------------------------------------------------

const ADD_CASES: &[(u32, u32, u32, u32)] = &[
    (1, 2, 0, 3),
    (0xffff_ffff, 1, 0, 0),
    (0x8000_0000, 0x8000_0000, 0, 0),
    (0x7fff_ffff, 1, 0, 0x8000_0000),
    (0, 0, 0, 0),
];

#[test]
fn add_with_carry_out() {
    // The carry-out writes VCC (32-bit form) or SDST (VOP3B).
    let carry = mask(ADD_CASES.len(), |i| i == 1 || i == 2);
    let forms: &[(GcnVersion, &str, u16)] = &[
        (V10, "v_add_i32 v0, vcc, v1, v2", 106),
        (V11, "v_add_u32 v0, vcc, v1, v2", 106),
        (V12, "v_add_u32 v0, vcc, v1, v2", 106),
        (V14, "v_add_co_u32 v0, vcc, v1, v2", 106),
        (V10, "v_add_i32 v0, s[4:5], v1, v2", 4),
        (V12, "v_add_u32 v0, s[4:5], v1, v2", 4),
        (V14, "v_add_co_u32 v0, s[6:7], v1, v2", 6),
    ];
    for &(v, asm, sd) in forms {
        check(&[v], asm, ADD_CASES);
        let w = lanes(
            v,
            asm,
            &ADD_CASES
                .iter()
                .map(|c| [c.0, c.1, c.2])
                .collect::<Vec<_>>(),
        );
        assert_eq!(w.s64(sd), carry, "{v}: {asm}");
    }
}

#[test]
fn sub_and_subrev_with_borrow() {
    let cases = &[
        (5, 3, 0, 2),
        (3, 5, 0, 0xffff_fffe),
        (0, 0, 0, 0),
        (0, 1, 0, u32::MAX),
    ];
    let rev = &[
        (3, 5, 0, 2),
        (5, 3, 0, 0xffff_fffe),
        (0, 0, 0, 0),
        (1, 0, 0, u32::MAX),
    ];
    let borrow = mask(4, |i| i == 1 || i == 3);
    for (v, sub, subrev) in [
        (V10, "v_sub_i32", "v_subrev_i32"),
        (V11, "v_sub_u32", "v_subrev_u32"),
        (V12, "v_sub_u32", "v_subrev_u32"),
        (V14, "v_sub_co_u32", "v_subrev_co_u32"),
    ] {
        for (m, c) in [(sub, cases), (subrev, rev)] {
            let asm = format!("{m} v0, vcc, v1, v2");
            check(&[v], &asm, c);
            let w = lanes(
                v,
                &asm,
                &c.iter().map(|c| [c.0, c.1, 0]).collect::<Vec<_>>(),
            );
            assert_eq!(w.vcc(), borrow, "{v}: {asm}");
        }
    }
}

#[test]
fn addc_subb_use_the_carry_in() {
    // Carry-in from VCC: set for odd lanes.
    let cin = 0xaaaa_aaaa_aaaa_aaaa_u64;
    let a = [0xffff_ffffu32, 0xffff_fffe, 5, 5, 0, 0];
    let b = [0u32, 1, 7, 7, 0, 0];
    for (v, addc, subb, subbrev) in [
        (V10, "v_addc_u32", "v_subb_u32", "v_subbrev_u32"),
        (V12, "v_addc_u32", "v_subb_u32", "v_subbrev_u32"),
        (V14, "v_addc_co_u32", "v_subb_co_u32", "v_subbrev_co_u32"),
    ] {
        let setup = |w: &mut Wave| {
            w.set_exec(0x3f);
            w.set_vcc(cin);
            w.vgpr[1][..6].copy_from_slice(&a);
            w.vgpr[2][..6].copy_from_slice(&b);
        };
        // addc: lane0 0xffffffff+0+0 = 0xffffffff c0; lane1 0xfffffffe+1+1 = 0 c1;
        // lane2 12 c0; lane3 13 c0; lane4 0; lane5 1.
        let w = run(v, &format!("{addc} v0, vcc, v1, v2, vcc"), setup);
        assert_eq!(
            &w.vgpr[0][..6],
            &[0xffff_ffff, 0, 12, 13, 0, 1],
            "{v} {addc}"
        );
        assert_eq!(w.vcc(), 0b10, "{v} {addc}");
        // subb: lane0 0xffffffff; lane1 0xfffffffe-1-1 = 0xfffffffc; lane2 5-7 = -2 b1;
        // lane3 5-7-1 = -3 b1; lane4 0; lane5 0-0-1 = -1 b1.
        let w = run(v, &format!("{subb} v0, vcc, v1, v2, vcc"), setup);
        assert_eq!(
            &w.vgpr[0][..6],
            &[
                0xffff_ffff,
                0xffff_fffc,
                0xffff_fffe,
                0xffff_fffd,
                0,
                0xffff_ffff
            ],
            "{v} {subb}"
        );
        assert_eq!(w.vcc(), 0b101100, "{v} {subb}");
        // subbrev: lane0 0-0xffffffff = 1 b1; lane1 1-0xfffffffe-1 = 2 b1;
        // lane2 2; lane3 1; lane4 0; lane5 -1 b1.
        let w = run(v, &format!("{subbrev} v0, s[8:9], v1, v2, vcc"), setup);
        assert_eq!(
            &w.vgpr[0][..6],
            &[1, 2, 2, 1, 0, 0xffff_ffff],
            "{v} {subbrev}"
        );
        assert_eq!(w.s64(8), 0b100011, "{v} {subbrev}");
    }
}

#[test]
fn carry_out_is_zero_for_inactive_lanes() {
    for v in versions_with("v_addc_u32") {
        let w = run(v, "v_addc_u32 v0, vcc, v1, v2, vcc", |w| {
            w.set_exec(0x0f);
            w.set_vcc(u64::MAX);
            w.vgpr[0] = [7; WAVE_SIZE];
            w.vgpr[1] = [0xffff_ffff; WAVE_SIZE];
        });
        // Active lanes: 0xffffffff + 0 + 1 = 0 with carry; the rest keep v0.
        assert_eq!(w.vcc(), 0x0f);
        assert_eq!(w.vgpr[0][3], 0);
        assert_eq!(w.vgpr[0][4], 7);
    }
}

#[test]
fn integer_clamp_saturates() {
    // GCN 1.2+: VOP3 clamp on the add/sub family.
    let add = &[(0xffff_fff0, 0x20, 0, u32::MAX), (1, 2, 0, 3)];
    let sub = &[(1, 2, 0, 0), (5, 2, 0, 3)];
    check(&[V12], "v_add_u32 v0, s[4:5], v1, v2 clamp", add);
    check(&[V14], "v_add_co_u32 v0, s[4:5], v1, v2 clamp", add);
    check(&[V14], "v_add_u32 v0, v1, v2 clamp", add);
    check(&[V12], "v_sub_u32 v0, s[4:5], v1, v2 clamp", sub);
    check(&[V14], "v_sub_u32 v0, v1, v2 clamp", sub);
    check(&[V14], "v_subrev_u32 v0, v2, v1 clamp", sub);
    // Signed clamp (GCN 1.4 VOP3 v_add_i32/v_sub_i32).
    check(
        &[V14],
        "v_add_i32 v0, v1, v2 clamp",
        &[
            (0x7fff_ffff, 1, 0, 0x7fff_ffff),
            (0x8000_0000, 0xffff_ffff, 0, 0x8000_0000),
            (5, 0xffff_fffe, 0, 3),
        ],
    );
    check(
        &[V14],
        "v_add_i32 v0, v1, v2",
        &[(0x7fff_ffff, 1, 0, 0x8000_0000)],
    );
    check(
        &[V14],
        "v_sub_i32 v0, v1, v2 clamp",
        &[
            (0x8000_0000, 1, 0, 0x8000_0000),
            (0x7fff_ffff, 0xffff_ffff, 0, 0x7fff_ffff),
            (3, 5, 0, 0xffff_fffe),
        ],
    );
    // 16-bit.
    check(
        &[V12, V14],
        "v_add_u16 v0, v1, v2 clamp",
        &[(0xfff0, 0x20, 0, 0xffff), (1, 2, 0, 3)],
    );
    check(
        &[V12, V14],
        "v_sub_u16 v0, v1, v2 clamp",
        &[(1, 2, 0, 0), (7, 2, 0, 5)],
    );
    check(
        &[V12, V14],
        "v_subrev_u16 v0, v1, v2 clamp",
        &[(2, 1, 0, 0), (2, 7, 0, 5)],
    );
    check(
        &[V14],
        "v_add_i16 v0, v1, v2 clamp",
        // The high half of VDST (0xdeadbeef) is kept.
        &[
            (0x7fff, 1, 0, 0xdead_7fff),
            (0x8000, 0xffff, 0, 0xdead_8000),
            (5, 0xfffe, 0, 0xdead_0003),
        ],
    );
}

#[test]
fn add_u32_without_carry_on_gcn14() {
    check(&[V14], "v_add_u32 v0, v1, v2", ADD_CASES);
    check(&[V14], "v_sub_u32 v0, v1, v2", &[(3, 5, 0, 0xffff_fffe)]);
    check(&[V14], "v_subrev_u32 v0, v1, v2", &[(3, 5, 0, 2)]);
    // VCC untouched.
    let w = run(V14, "v_add_u32 v0, v1, v2", |w| {
        w.set_vcc(0x1234);
        w.vgpr[1] = [u32::MAX; WAVE_SIZE];
        w.vgpr[2] = [1; WAVE_SIZE];
    });
    assert_eq!(w.vcc(), 0x1234);
    check_all(
        "v_add3_u32 v0, v1, v2, v3",
        &[(1, 2, 3, 6), (u32::MAX, 1, 5, 5)],
    );
}

// ---------------------------------------------------------------------------
// Multiplies
// ---------------------------------------------------------------------------

#[test]
fn multiplies() {
    check_all(
        "v_mul_i32_i24 v0, v1, v2",
        &[
            (3, 4, 0, 12),
            // 0x800000 is -2^23; the high byte is ignored.
            (0xff80_0000, 2, 0, 0xff00_0000),
            (0x00ff_ffff, 0x00ff_ffff, 0, 1),
            (0x7f_ffff, 0x7f_ffff, 0, 0xff00_0001),
        ],
    );
    check_all(
        "v_mul_hi_i32_i24 v0, v1, v2",
        &[
            // (2^23-1)^2 = 0x3fff_ff00_0001 -> high 0x3fff.
            (0x7f_ffff, 0x7f_ffff, 0, 0x3fff),
            // -1 * 1 -> high -1.
            (0xff_ffff, 1, 0, 0xffff_ffff),
        ],
    );
    check_all(
        "v_mul_u32_u24 v0, v1, v2",
        &[
            (0xff00_0003, 0x0100_0004, 0, 12),
            (0xff_ffff, 0xff_ffff, 0, 0xfe00_0001),
        ],
    );
    check_all(
        "v_mul_hi_u32_u24 v0, v1, v2",
        &[(0xff_ffff, 0xff_ffff, 0, 0xffff), (0x10_0000, 0x1000, 0, 1)],
    );
    for m in ["v_mul_lo_u32", "v_mul_lo_i32"] {
        check_all(
            &format!("{m} v0, v1, v2"),
            &[
                (0x1_0001, 0x1_0001, 0, 0x2_0001),
                (u32::MAX, u32::MAX, 0, 1),
            ],
        );
    }
    check_all(
        "v_mul_hi_u32 v0, v1, v2",
        &[(u32::MAX, u32::MAX, 0, 0xffff_fffe), (0x8000_0000, 4, 0, 2)],
    );
    check_all(
        "v_mul_hi_i32 v0, v1, v2",
        &[
            (u32::MAX, u32::MAX, 0, 0),
            (0x8000_0000, 4, 0, 0xffff_fffe),
            (u32::MAX, 1, 0, u32::MAX),
        ],
    );
    check_all(
        "v_mad_i32_i24 v0, v1, v2, v3",
        &[(0xff_ffff, 5, 10, 5), (0x7f_ffff, 2, 1, 0xff_ffff)],
    );
    check_all(
        "v_mad_u32_u24 v0, v1, v2, v3",
        &[
            (0xff00_0002, 3, 4, 10),
            (0xff_ffff, 0xff_ffff, 0x1ff_ffff, 0),
        ],
    );
}

#[test]
fn mad_64_bit_with_carry() {
    for v in versions_with("v_mad_u64_u32") {
        let w = run(v, "v_mad_u64_u32 v[4:5], s[8:9], v1, v2, v[6:7]", |w| {
            // lane 0: 0xffffffff^2 + 0 = 0xfffffffe_00000001
            w.vgpr[1][0] = u32::MAX;
            w.vgpr[2][0] = u32::MAX;
            // lane 1: 0xffffffff^2 + 0x1_ffffffff = 0x1_00000000_00000000 -> carry
            w.vgpr[1][1] = u32::MAX;
            w.vgpr[2][1] = u32::MAX;
            w.vgpr[6][1] = u32::MAX;
            w.vgpr[7][1] = 1;
            // lane 2: 3*4 + 5
            w.vgpr[1][2] = 3;
            w.vgpr[2][2] = 4;
            w.vgpr[6][2] = 5;
        });
        assert_eq!((w.vgpr[4][0], w.vgpr[5][0]), (1, 0xffff_fffe), "{v}");
        assert_eq!((w.vgpr[4][1], w.vgpr[5][1]), (0, 0), "{v}");
        assert_eq!((w.vgpr[4][2], w.vgpr[5][2]), (17, 0), "{v}");
        assert_eq!(w.s64(8), 0b10, "{v}");

        let w = run(v, "v_mad_i64_i32 v[4:5], s[8:9], v1, v2, v[6:7]", |w| {
            // lane 0: -1 * 5 + 0 = -5
            w.vgpr[1][0] = u32::MAX;
            w.vgpr[2][0] = 5;
            // lane 1: -2 * 3 + 10 = 4
            w.vgpr[1][1] = 0xffff_fffe;
            w.vgpr[2][1] = 3;
            w.vgpr[6][1] = 10;
        });
        assert_eq!((w.vgpr[4][0], w.vgpr[5][0]), (0xffff_fffb, u32::MAX), "{v}");
        assert_eq!((w.vgpr[4][1], w.vgpr[5][1]), (4, 0), "{v}");
        // Bit 64 of the 65-bit signed sum: set for the negative result.
        assert_eq!(w.s64(8) & 3, 0b01, "{v}");
    }
}

// ---------------------------------------------------------------------------
// Min/max, logic, shifts
// ---------------------------------------------------------------------------

#[test]
fn min_max_and_three_operand_forms() {
    let m = 0xffff_fff6; // -10
    check_all("v_min_i32 v0, v1, v2", &[(m, 3, 0, m), (5, 3, 0, 3)]);
    check_all("v_max_i32 v0, v1, v2", &[(m, 3, 0, 3), (5, 3, 0, 5)]);
    check_all("v_min_u32 v0, v1, v2", &[(m, 3, 0, 3)]);
    check_all("v_max_u32 v0, v1, v2", &[(m, 3, 0, m)]);
    check_all(
        "v_min3_i32 v0, v1, v2, v3",
        &[(1, m, 3, m), (4, 2, 3, 2), (4, 5, 0x8000_0000, 0x8000_0000)],
    );
    check_all(
        "v_max3_i32 v0, v1, v2, v3",
        &[(1, m, 3, 3), (4, 2, 3, 4), (m, m, m, m)],
    );
    check_all(
        "v_med3_i32 v0, v1, v2, v3",
        &[(1, m, 3, 1), (4, 2, 3, 3), (5, 5, 1, 5), (m, 7, 0, 0)],
    );
    // Two equal: the median is theirs (the docs' pseudo-code would give
    // S0): the clamp `med3(x, lo, hi)` with lo = hi, and -1 against two
    // INT_MIN.
    check_all(
        "v_med3_i32 v0, v1, v2, v3",
        &[
            (9, 5, 5, 5),
            (m, 0x8000_0000, 0x8000_0000, 0x8000_0000),
            (5, 9, 5, 5),
        ],
    );
    check_all("v_med3_u32 v0, v1, v2, v3", &[(9, 5, 5, 5), (1, 5, 5, 5)]);
    check_all("v_min3_u32 v0, v1, v2, v3", &[(1, m, 3, 1)]);
    check_all("v_max3_u32 v0, v1, v2, v3", &[(1, m, 3, m)]);
    check_all("v_med3_u32 v0, v1, v2, v3", &[(1, m, 3, 3), (9, 2, 5, 5)]);
}

#[test]
fn logic() {
    let c = &[(0xf0f0_1234, 0xff00_ff00, 0, 0)];
    let with = |r: u32| [(c[0].0, c[0].1, 0, r)];
    check_all("v_and_b32 v0, v1, v2", &with(0xf000_1200));
    check_all("v_or_b32 v0, v1, v2", &with(0xfff0_ff34));
    check_all("v_xor_b32 v0, v1, v2", &with(0x0ff0_ed34));
    check(
        &[GcnVersion::Gcn1_4_1],
        "v_xnor_b32 v0, v1, v2",
        &with(0xf00f_12cb),
    );
    check_all("v_not_b32 v0, v1", &[(0xf0f0_1234, 0, 0, 0x0f0f_edcb)]);
    check_all(
        "v_bfi_b32 v0, v1, v2, v3",
        &[(0xffff_0000, 0x1234_5678, 0x9abc_def0, 0x1234_def0)],
    );
    check_all(
        "v_and_or_b32 v0, v1, v2, v3",
        &[(0xff00, 0x1234, 0x1, 0x1201)],
    );
    check_all("v_or3_b32 v0, v1, v2, v3", &[(1, 2, 4, 7)]);
    check_all("v_xad_u32 v0, v1, v2, v3", &[(0xff, 0x0f, 1, 0xf1)]);
}

#[test]
fn shifts_mask_their_counts() {
    let x = 0x8000_0001u32;
    // Shift counts 1, 33 (& 31 = 1), 31, 0.
    check_all(
        "v_lshlrev_b32 v0, v1, v2",
        &[
            (1, x, 0, 2),
            (33, x, 0, 2),
            (31, x, 0, 0x8000_0000),
            (0, x, 0, x),
        ],
    );
    check_all(
        "v_lshrrev_b32 v0, v1, v2",
        &[
            (1, x, 0, 0x4000_0000),
            (33, x, 0, 0x4000_0000),
            (31, x, 0, 1),
        ],
    );
    check_all(
        "v_ashrrev_i32 v0, v1, v2",
        &[
            (1, x, 0, 0xc000_0000),
            (63, x, 0, u32::MAX),
            (4, 0x7000_0000, 0, 0x0700_0000),
        ],
    );
    check_all("v_lshl_b32 v0, v1, v2", &[(x, 33, 0, 2)]);
    check_all("v_lshr_b32 v0, v1, v2", &[(x, 33, 0, 0x4000_0000)]);
    check_all("v_ashr_i32 v0, v1, v2", &[(x, 33, 0, 0xc000_0000)]);
    check_all("v_lshl_add_u32 v0, v1, v2, v3", &[(3, 36, 1, 49)]);
    check_all("v_add_lshl_u32 v0, v1, v2, v3", &[(1, 2, 33, 6)]);
    check_all("v_lshl_or_b32 v0, v1, v2, v3", &[(1, 4, 1, 17)]);
    check_all(
        "v_bfm_b32 v0, v1, v2",
        &[
            (4, 8, 0, 0xf00),
            (0, 5, 0, 0),
            (31, 1, 0, 0xffff_fffe),
            (36, 33, 0, 0x1e),
        ],
    );
}

#[test]
fn shifts_64_bit() {
    let x = 0x8000_0000_0000_0003u64;
    let run64 = |v: GcnVersion, asm: &str, counts: &[u32]| -> Vec<u64> {
        let w = run(v, asm, |w| {
            for (i, &c) in counts.iter().enumerate() {
                w.vgpr[1][i] = c;
                w.vgpr[2][i] = x as u32;
                w.vgpr[3][i] = (x >> 32) as u32;
            }
        });
        (0..counts.len())
            .map(|i| u64::from(w.vgpr[4][i]) | (u64::from(w.vgpr[5][i]) << 32))
            .collect()
    };
    let counts = [1u32, 65, 63, 0];
    let shl = [6u64, 6, 0x8000_0000_0000_0000, x];
    let shr = [0x4000_0000_0000_0001u64, 0x4000_0000_0000_0001, 1, x];
    let sar = [0xc000_0000_0000_0001u64, 0xc000_0000_0000_0001, u64::MAX, x];
    for v in versions_with("v_lshl_b64") {
        assert_eq!(run64(v, "v_lshl_b64 v[4:5], v[2:3], v1", &counts), shl);
        assert_eq!(run64(v, "v_lshr_b64 v[4:5], v[2:3], v1", &counts), shr);
        assert_eq!(run64(v, "v_ashr_i64 v[4:5], v[2:3], v1", &counts), sar);
    }
    for v in versions_with("v_lshlrev_b64") {
        assert_eq!(run64(v, "v_lshlrev_b64 v[4:5], v1, v[2:3]", &counts), shl);
        assert_eq!(run64(v, "v_lshrrev_b64 v[4:5], v1, v[2:3]", &counts), shr);
        assert_eq!(run64(v, "v_ashrrev_i64 v[4:5], v1, v[2:3]", &counts), sar);
    }
}

// ---------------------------------------------------------------------------
// Bit fields, counts, bytes
// ---------------------------------------------------------------------------

#[test]
fn bit_fields_and_counts() {
    let x = 0xf0f0_8765u32;
    check_all(
        "v_bfe_u32 v0, v1, v2, v3",
        &[
            (x, 4, 8, 0x76),
            (x, 0, 0, 0),
            (x, 28, 8, 0xf),
            (x, 36, 4, 0x6), // offset & 31 = 4
            (x, 8, 33, 1),   // length & 31 = 1 -> bit 8 of 0x8765
        ],
    );
    check_all(
        "v_bfe_i32 v0, v1, v2, v3",
        &[
            (x, 12, 4, 0xffff_fff8),
            (x, 4, 8, 0x76),
            (x, 0, 0, 0),
            (x, 28, 8, u32::MAX),
        ],
    );
    check_all(
        "v_bfrev_b32 v0, v1",
        &[(1, 0, 0, 0x8000_0000), (0x0000_00f0, 0, 0, 0x0f00_0000)],
    );
    check_all(
        "v_bcnt_u32_b32 v0, v1, v2",
        &[(0xff, 1, 0, 9), (u32::MAX, 0, 0, 32)],
    );
    check_all(
        "v_ffbh_u32 v0, v1",
        &[(0, 0, 0, u32::MAX), (1, 0, 0, 31), (0x8000_0000, 0, 0, 0)],
    );
    check_all(
        "v_ffbl_b32 v0, v1",
        &[(0, 0, 0, u32::MAX), (0x8000_0000, 0, 0, 31), (6, 0, 0, 1)],
    );
    check_all(
        "v_ffbh_i32 v0, v1",
        &[
            (0, 0, 0, u32::MAX),
            (u32::MAX, 0, 0, u32::MAX),
            (1, 0, 0, 31),
            (0xffff_fffe, 0, 0, 31),
            (0x4000_0000, 0, 0, 1),
            (0x8000_0000, 0, 0, 1),
        ],
    );
    check_all(
        "v_alignbit_b32 v0, v1, v2, v3",
        &[
            (0x1234_5678, 0x9abc_def0, 8, 0x789a_bcde),
            (1, 2, 32, 2),
            (1, 2, 0, 2),
        ],
    );
    check_all(
        "v_alignbyte_b32 v0, v1, v2, v3",
        &[
            (0x1234_5678, 0x9abc_def0, 1, 0x789a_bcde),
            (0x1234_5678, 0x9abc_def0, 7, 0x3456_789a),
        ],
    );
    check_all(
        "v_perm_b32 v0, v1, v2, v3",
        &[
            // Bytes of (S0:S1) = 0x11223344_55667788; selectors 0,7,12,13.
            (0x1122_3344, 0x5566_7788, 0x0d0c_0700, 0xff00_1188),
            // 8: bit 15 (0x77 -> 0), 9: bit 31 (0x55 -> 0), 11: bit 63 (0x11 -> 0).
            (0x8122_3344, 0x5566_f788, 0x0b0a_0908, 0xff00_00ff),
        ],
    );
    check_all(
        "v_lerp_u8 v0, v1, v2, v3",
        &[(0x0102_ff00, 0x0202_ff01, 0x0001_0101, 0x0102_ff01)],
    );
}

#[test]
fn sum_of_absolute_differences() {
    check_all(
        "v_sad_u8 v0, v1, v2, v3",
        &[(0x0a00_ff05, 0x0500_0007, 100, 100 + 5 + 255 + 2)],
    );
    check_all(
        "v_sad_hi_u8 v0, v1, v2, v3",
        &[(0x0a00_ff05, 0x0500_0007, 100, 100 + (262 << 16))],
    );
    check_all(
        "v_sad_u16 v0, v1, v2, v3",
        &[(0x0001_ffff, 0x0003_0001, 10, 10 + 0xfffe + 2)],
    );
    check_all(
        "v_sad_u32 v0, v1, v2, v3",
        &[(1, u32::MAX, 3, 1), (10, 4, 1, 7)],
    );
    // MSAD skips the bytes where S1 is 0.
    check_all(
        "v_msad_u8 v0, v1, v2, v3",
        &[(0x0a00_ff05, 0x0500_0007, 100, 100 + 5 + 2)],
    );
}

#[test]
fn quad_sads() {
    let s0 = 0x0807_0605_0403_0201u64;
    let s1 = 0x0001_0203u32;
    // Windows of S0 bytes: n=0: 04 03 02 01; n=1: 05 04 03 02; n=2: 06 05 04 03;
    // n=3: 07 06 05 04. S1 bytes (low first): 03 02 01 00.
    // SAD: n=0: |1-3|+|2-2|+|3-1|+|4-0| = 8; n=1: 1+1+3+5 = 10; n=2: 0+2+4+6 = 12;
    // n=3: 1+3+5+7 = 16. MSAD skips byte 3 (S1 = 0): 4, 5, 6, 9.
    let acc = 0x0003_0002_0001_fffe_u64;
    let setup = |w: &mut Wave| {
        w.vgpr[2] = [s0 as u32; WAVE_SIZE];
        w.vgpr[3] = [(s0 >> 32) as u32; WAVE_SIZE];
        w.vgpr[1] = [s1; WAVE_SIZE];
        w.vgpr[6] = [acc as u32; WAVE_SIZE];
        w.vgpr[7] = [(acc >> 32) as u32; WAVE_SIZE];
    };
    let get = |w: &Wave| u64::from(w.vgpr[4][0]) | (u64::from(w.vgpr[5][0]) << 32);
    for (m, want) in [
        // 0xfffe + 8 wraps to 6 in its 16-bit field.
        ("v_qsad_u8", 0x0013_000e_000b_0006_u64),
        ("v_qsad_pk_u16_u8", 0x0013_000e_000b_0006),
        ("v_mqsad_u8", 0x000c_0008_0006_0002),
        ("v_mqsad_pk_u16_u8", 0x000c_0008_0006_0002),
    ] {
        for v in versions_with(m) {
            let w = run(v, &format!("{m} v[4:5], v[2:3], v1, v[6:7]"), setup);
            assert_eq!(get(&w), want, "{v}: {m}");
        }
    }
    for v in versions_with("v_mqsad_u32_u8") {
        let w = run(v, "v_mqsad_u32_u8 v[8:11], v[2:3], v1, v[12:15]", |w| {
            setup(w);
            w.vgpr[12] = [u32::MAX; WAVE_SIZE];
            w.vgpr[13] = [1; WAVE_SIZE];
            w.vgpr[14] = [2; WAVE_SIZE];
            w.vgpr[15] = [3; WAVE_SIZE];
        });
        let got: Vec<u32> = (8..12).map(|r| w.vgpr[r][0]).collect();
        // Saturated to 32 bits for the first dword.
        assert_eq!(got, [u32::MAX, 6, 8, 12], "{v}");
    }
}

#[test]
fn packing() {
    check_all(
        "v_cvt_pk_u16_u32 v0, v1, v2",
        &[
            (0x1_0000, 5, 0, 0x0005_ffff),
            (0x1234, 0xffff_ffff, 0, 0xffff_1234),
        ],
    );
    check_all(
        "v_cvt_pk_i16_i32 v0, v1, v2",
        &[
            (0x8000, 0xffff_0000, 0, 0x8000_7fff),
            (0xffff_ffff, 2, 0, 0x0002_ffff),
        ],
    );
    check(
        &[V14],
        "v_sat_pk_u8_i16 v0, v1",
        &[(0x8000_0100, 0, 0, 0x00ff), (0x007f_0005, 0, 0, 0x7f05)],
    );
    check(
        &[V14],
        "v_screen_partition_4se_b32 v0, v1",
        &[
            (0, 0, 0, 1),
            (0x103, 0, 0, 0xf),
            (0x11, 0, 0, 2),
            (0xff, 0, 0, 1),
        ],
    );
}

// ---------------------------------------------------------------------------
// 16-bit integer operations
// ---------------------------------------------------------------------------

#[test]
fn sixteen_bit_operations_zero_the_high_half() {
    let vs = [V12, V14];
    check(
        &vs,
        "v_add_u16 v0, v1, v2",
        &[(0x1_ffff, 0x2_0002, 0, 1), (0x8000, 0x8000, 0, 0)],
    );
    check(
        &vs,
        "v_sub_u16 v0, v1, v2",
        &[(1, 2, 0, 0xffff), (0xa_0007, 2, 0, 5)],
    );
    check(&vs, "v_subrev_u16 v0, v1, v2", &[(2, 1, 0, 0xffff)]);
    check(
        &vs,
        "v_mul_lo_u16 v0, v1, v2",
        &[(0x100, 0x101, 0, 0x100), (0xffff, 0xffff, 0, 1)],
    );
    check(
        &vs,
        "v_lshlrev_b16 v0, v1, v2",
        &[(17, 0x8001, 0, 2), (15, 1, 0, 0x8000)],
    );
    check(
        &vs,
        "v_lshrrev_b16 v0, v1, v2",
        &[(17, 0x8001_8000, 0, 0x4000)],
    );
    check(
        &vs,
        "v_ashrrev_i16 v0, v1, v2",
        &[(1, 0x8000, 0, 0xc000), (15, 0x8000, 0, 0xffff)],
    );
    check(&vs, "v_max_u16 v0, v1, v2", &[(0x8000, 0x7fff, 0, 0x8000)]);
    check(
        &vs,
        "v_min_u16 v0, v1, v2",
        &[(0x1_8000, 0x7fff, 0, 0x7fff)],
    );
    check(&vs, "v_max_i16 v0, v1, v2", &[(0x8000, 0x7fff, 0, 0x7fff)]);
    check(&vs, "v_min_i16 v0, v1, v2", &[(0x8000, 0x7fff, 0, 0x8000)]);
    // VOP3-only mads on GCN 1.2, and the legacy opcodes on GCN 1.4.
    check(
        &[V12],
        "v_mad_u16 v0, v1, v2, v3",
        &[(0x100, 0x100, 5, 5), (3, 4, 5, 17)],
    );
    check(
        &[V12],
        "v_mad_u16 v0, v1, v2, v3 clamp",
        &[(0x100, 0x100, 5, 0xffff)],
    );
    check(
        &[V12],
        "v_mad_i16 v0, v1, v2, v3",
        &[(0xffff, 3, 1, 0xfffe)],
    );
    check(
        &[V12],
        "v_mad_i16 v0, v1, v2, v3 clamp",
        &[(0x4000, 4, 0, 0x7fff), (0xc000, 4, 0, 0x8000)],
    );
    check(&[V14], "v_mad_legacy_u16 v0, v1, v2, v3", &[(3, 4, 5, 17)]);
    check(
        &[V14],
        "v_mad_legacy_i16 v0, v1, v2, v3",
        &[(0xffff, 3, 1, 0xfffe)],
    );
}

#[test]
fn sixteen_bit_op_sel_on_gcn14() {
    // VOP3-only GCN 1.4 rows keep the other half of VDST (0xdeadbeef).
    check(
        &[V14],
        "v_mad_u16 v0, v1, v2, v3",
        &[(3, 4, 5, 0xdead_0011)],
    );
    check(
        &[V14],
        "v_add_i16 v0, v1, v2",
        &[(0x7fff, 1, 0, 0xdead_8000)],
    );
    check(&[V14], "v_sub_i16 v0, v1, v2", &[(0, 1, 0, 0xdead_ffff)]);
    check(
        &[V14],
        "v_min3_u16 v0, v1, v2, v3",
        &[(5, 0x1_0003, 4, 0xdead_0003)],
    );
    check(
        &[V14],
        "v_max3_i16 v0, v1, v2, v3",
        &[(0xffff, 0x8000, 2, 0xdead_0002)],
    );
    check(
        &[V14],
        "v_med3_i16 v0, v1, v2, v3",
        &[(0xffff, 0x8000, 2, 0xdead_ffff)],
    );
    check(
        &[V14],
        "v_min3_i16 v0, v1, v2, v3",
        &[(0xffff, 0x8000, 2, 0xdead_8000)],
    );
    check(
        &[V14],
        "v_max3_u16 v0, v1, v2, v3",
        &[(0xffff, 0x8000, 2, 0xdead_ffff)],
    );
    check(
        &[V14],
        "v_med3_u16 v0, v1, v2, v3",
        &[(0xffff, 0x8000, 2, 0xdead_8000)],
    );
    // Source halves and the destination half.
    check(
        &[V14],
        "v_mad_u16 v0, v1, v2, v3 op_sel:[1,0,1,1]",
        &[(0x0003_0009, 0x0000_0004, 0x0005_0000, 0x0011_beef)],
    );
    check(
        &[V14],
        "v_add_u16 v0, v1, v2 op_sel:[1,1,0]",
        &[(0x0002_0001, 0x0003_0001, 0, 5)],
    );
    check(
        &[V14],
        "v_add_u16 v0, v1, v2 op_sel:[0,0,1]",
        &[(1, 2, 0, 0x0003_beef)],
    );
    check(
        &[V14],
        "v_mad_u32_u16 v0, v1, v2, v3 op_sel:[1,0,0,0]",
        &[(0xffff_0001, 2, 0x1_0000, 0x2_fffe)],
    );
    check(
        &[V14],
        "v_mad_i32_i16 v0, v1, v2, v3",
        &[(0xffff, 2, 10, 8), (0x8000, 0x8000, 0, 0x4000_0000)],
    );
    check(
        &[V14],
        "v_mad_u32_u16 v0, v1, v2, v3",
        &[(0xffff, 0xffff, 1, 0xfffe_0002)],
    );
}

// ---------------------------------------------------------------------------
// Compares
// ---------------------------------------------------------------------------

#[test]
fn compares_32_and_16_bit() {
    let pairs: [(u32, u32); 4] = [(1, 2), (2, 2), (0xffff_ffff, 1), (3, 0)];
    let setup = |w: &mut Wave| {
        for (i, p) in pairs.iter().enumerate() {
            w.vgpr[1][i] = p.0;
            w.vgpr[2][i] = p.1;
        }
        w.set_exec(0xf);
    };
    // Signed: -1 < 1; unsigned: 0xffffffff > 1.
    let table: &[(&str, u64, u64)] = &[
        ("f", 0, 0),
        ("lt", 0b0101, 0b0001),
        ("eq", 0b0010, 0b0010),
        ("le", 0b0111, 0b0011),
        ("gt", 0b1000, 0b1100),
        ("lg", 0b1101, 0b1101),
        ("ne", 0b1101, 0b1101),
        ("ge", 0b1010, 0b1110),
        ("t", 0b1111, 0b1111),
        ("tru", 0b1111, 0b1111),
    ];
    for &(op, signed, unsigned) in table {
        for (t, want) in [("i32", signed), ("u32", unsigned)] {
            let m = format!("v_cmp_{op}_{t}");
            for v in versions_with(&m) {
                let w = run(v, &format!("{m} vcc, v1, v2"), setup);
                assert_eq!(w.vcc(), want, "{v}: {m}");
                let w = run(v, &format!("{m} s[10:11], v1, v2"), setup);
                assert_eq!(w.s64(10), want, "{v}: {m} (VOP3)");
                let mx = format!("v_cmpx_{op}_{t}");
                let w = run(v, &format!("{mx} vcc, v1, v2"), setup);
                assert_eq!((w.vcc(), w.exec()), (want, want), "{v}: {mx}");
            }
        }
        // 16-bit: the high halves are ignored (0xffff_ffff is -1 / 0xffff).
        for (t, want) in [("i16", signed), ("u16", unsigned)] {
            let m = format!("v_cmp_{op}_{t}");
            for v in versions_with(&m) {
                let w = run(v, &format!("{m} vcc, v1, v2"), |w| {
                    setup(w);
                    w.vgpr[2][0] |= 0x5555_0000;
                });
                assert_eq!(w.vcc(), want, "{v}: {m}");
            }
        }
    }
}

#[test]
fn compares_64_bit_and_inactive_lanes() {
    let pairs: [(u64, u64); 3] = [(1 << 40, 1 << 33), (u64::MAX, 0), (5, 5)];
    let setup = |w: &mut Wave| {
        for (i, p) in pairs.iter().enumerate() {
            w.vgpr[2][i] = p.0 as u32;
            w.vgpr[3][i] = (p.0 >> 32) as u32;
            w.vgpr[4][i] = p.1 as u32;
            w.vgpr[5][i] = (p.1 >> 32) as u32;
        }
        // Lane 3 inactive; it compares 0 == 0 but must read 0.
        w.set_exec(0b0111);
    };
    for (m, want) in [
        ("v_cmp_gt_u64", 0b011),
        ("v_cmp_gt_i64", 0b001),
        ("v_cmp_eq_u64", 0b100),
        ("v_cmp_le_i64", 0b110),
        ("v_cmpx_ne_i64", 0b011),
        ("v_cmpx_eq_u64", 0b100),
    ] {
        for v in versions_with(m) {
            let w = run(v, &format!("{m} vcc, v[2:3], v[4:5]"), setup);
            assert_eq!(w.vcc(), want, "{v}: {m}");
            if m.starts_with("v_cmpx") {
                assert_eq!(w.exec(), want, "{v}: {m}");
            }
        }
    }
}

#[test]
fn cmpx_with_an_sgpr_destination_writes_both() {
    for v in versions_with("v_cmpx_lt_u32") {
        let w = run(v, "v_cmpx_lt_u32 s[20:21], v1, 5", |w| {
            w.vgpr[1] = std::array::from_fn(|l| l as u32);
        });
        assert_eq!(w.s64(20), 0x1f, "{v}");
        assert_eq!(w.exec(), 0x1f, "{v}");
    }
}

// ---------------------------------------------------------------------------
// Moves and lane operations
// ---------------------------------------------------------------------------

#[test]
fn cndmask_and_moves() {
    for v in versions_with("v_cndmask_b32") {
        let w = run(
            v,
            "v_cndmask_b32 v0, v1, v2, vcc\nv_cndmask_b32 v3, 7, v2, s[4:5]",
            |w| {
                w.set_vcc(0b10);
                w.set_s64(4, 0b01);
                w.vgpr[1] = [11; WAVE_SIZE];
                w.vgpr[2] = [22; WAVE_SIZE];
            },
        );
        assert_eq!(&w.vgpr[0][..3], &[11, 22, 11], "{v}");
        assert_eq!(&w.vgpr[3][..3], &[22, 7, 7], "{v}");
        // Float modifiers on the untyped select act on the sign bit.
        let w = run(v, "v_cndmask_b32 v0, -v1, |v2|, s[4:5]", |w| {
            w.set_s64(4, 0b10);
            w.vgpr[1] = [0x3f80_0000; WAVE_SIZE];
            w.vgpr[2] = [0xc000_0000; WAVE_SIZE];
        });
        assert_eq!(&w.vgpr[0][..2], &[0xbf80_0000, 0x4000_0000], "{v}");
    }
    for v in versions_with("v_mov_b32") {
        let w = run(
            v,
            "v_mov_b32 v0, -1\nv_mov_b32 v1, s3\nv_mov_fed_b32 v2, 0x12345",
            |w| {
                w.sgpr[3] = 77;
                w.set_exec(0xff);
            },
        );
        assert_eq!((w.vgpr[0][7], w.vgpr[0][8]), (u32::MAX, 0), "{v}");
        assert_eq!(w.vgpr[1][0], 77, "{v}");
        assert_eq!(w.vgpr[2][0], 0x12345, "{v}");
    }
    for v in versions_with("v_nop") {
        run(v, "v_nop\nv_clrexcp", |_| {});
    }
    let w = run(V14, "v_swap_b32 v0, v1", |w| {
        w.set_exec(1);
        w.vgpr[0] = [1; WAVE_SIZE];
        w.vgpr[1] = [2; WAVE_SIZE];
    });
    assert_eq!(
        (w.vgpr[0][0], w.vgpr[1][0], w.vgpr[0][1], w.vgpr[1][1]),
        (2, 1, 1, 2)
    );
}

#[test]
fn readlane_writelane_readfirstlane() {
    for v in versions_with("v_readlane_b32") {
        let w = run(
            v,
            "v_readlane_b32 s0, v1, s2\nv_readlane_b32 s1, v1, 5\n\
             v_writelane_b32 v3, 7, m0\nv_readfirstlane_b32 s4, v1",
            |w| {
                w.vgpr[1] = std::array::from_fn(|l| 100 + l as u32);
                w.sgpr[2] = 64 + 9; // & 63 = 9
                w.sgpr[124] = 40;
                // EXEC off for lane 40: writelane ignores it.
                w.set_exec(0xff00);
            },
        );
        assert_eq!(w.sgpr[0], 109, "{v}");
        assert_eq!(w.sgpr[1], 105, "{v}");
        assert_eq!(w.vgpr[3][40], 7, "{v}");
        assert_eq!(w.vgpr[3][41], 0, "{v}");
        assert_eq!(w.sgpr[4], 108, "{v}");
        // With EXEC = 0, v_readfirstlane reads lane 0.
        let w = run(v, "v_readfirstlane_b32 s4, v1", |w| {
            w.vgpr[1] = std::array::from_fn(|l| 100 + l as u32);
            w.set_exec(0);
        });
        assert_eq!(w.sgpr[4], 100, "{v}");
    }
}

#[test]
fn mbcnt_counts_lanes_below() {
    for v in versions_with("v_mbcnt_lo_u32_b32") {
        let w = run(
            v,
            "v_mbcnt_lo_u32_b32 v0, -1, 0\nv_mbcnt_hi_u32_b32 v0, -1, v0\n\
             v_mbcnt_lo_u32_b32 v1, s2, 10",
            |w| w.sgpr[2] = 0b1010,
        );
        for l in 0..WAVE_SIZE {
            assert_eq!(w.vgpr[0][l], l as u32, "{v} lane {l}");
        }
        assert_eq!(&w.vgpr[1][..5], &[10, 10, 11, 11, 12], "{v}");
        assert_eq!(w.vgpr[1][40], 12, "{v}");
    }
}

#[test]
fn movrel_indexes_by_m0() {
    for v in versions_with("v_movrels_b32") {
        let w = run(
            v,
            "v_movrels_b32 v0, v10\nv_movreld_b32 v20, v1\nv_movrelsd_b32 v30, v11",
            |w| {
                w.sgpr[124] = 3;
                w.vgpr[13] = [1313; WAVE_SIZE];
                w.vgpr[14] = [1414; WAVE_SIZE];
                w.vgpr[1] = [11; WAVE_SIZE];
            },
        );
        assert_eq!(w.vgpr[0][0], 1313, "{v}");
        assert_eq!(w.vgpr[23][0], 11, "{v}");
        assert_eq!(w.vgpr[20][0], 0, "{v}");
        assert_eq!(w.vgpr[33][0], 1414, "{v}");
        // Past the allocation (256 VGPRs in the snippets): a fault.
        let memory = crate::memory::Memory::default();
        let s = run_with(v, "v_movrels_b32 v0, v10", &memory, |w| w.sgpr[124] = 246);
        assert!(
            matches!(s.fault.as_ref().map(|f| &f.kind), Some(FaultKind::Register(m)) if m.contains("v256")),
            "{v}: {:?}",
            s.fault
        );
    }
}

#[test]
fn float_modifiers_on_integer_operations_fault() {
    let memory = crate::memory::Memory::default();
    for v in versions_with("v_mul_lo_u32") {
        let s = run_with(v, "v_mul_lo_u32 v0, -v1, v2", &memory, |_| {});
        assert!(
            matches!(s.fault.as_ref().map(|f| &f.kind), Some(FaultKind::NotEmulated(m)) if m.contains("v_mul_lo_u32")),
            "{v}: {:?}",
            s.fault
        );
    }
}

// ---------------------------------------------------------------------------
// SDWA and DPP forms
// ---------------------------------------------------------------------------

#[test]
fn dpp_moves() {
    for v in versions_with("v_mov_b32")
        .into_iter()
        .filter(|v| v.is_gcn12_or_later())
    {
        let setup = |w: &mut Wave| {
            w.vgpr[1] = std::array::from_fn(|l| 100 + l as u32);
            w.vgpr[0] = [7; WAVE_SIZE];
        };
        let w = run(v, "v_mov_b32 v0, v1 quad_perm:[3,2,1,0]", setup);
        assert_eq!(
            &w.vgpr[0][..8],
            &[103, 102, 101, 100, 107, 106, 105, 104],
            "{v}"
        );
        // row_shl:1 without bound_ctrl: lane 15 has no source, keeps v0.
        let w = run(v, "v_mov_b32 v0, v1 row_shl:1", setup);
        assert_eq!(
            (w.vgpr[0][14], w.vgpr[0][15], w.vgpr[0][16]),
            (115, 7, 117),
            "{v}"
        );
        // With bound_ctrl the invalid lane reads 0.
        let w = run(v, "v_mov_b32 v0, v1 row_shl:1 bound_ctrl:0", setup);
        assert_eq!((w.vgpr[0][14], w.vgpr[0][15]), (115, 0), "{v}");
        // row_mask: rows 1-3 disabled keep v0.
        let w = run(v, "v_mov_b32 v0, v1 row_shr:1 row_mask:1", setup);
        assert_eq!(
            (w.vgpr[0][0], w.vgpr[0][1], w.vgpr[0][17]),
            (7, 100, 7),
            "{v}"
        );
        // bank_mask:1 writes lanes 0-3 of each row; EXEC off for lane 1.
        let w = run(v, "v_mov_b32 v0, v1 row_ror:1 bank_mask:1", |w| {
            setup(w);
            w.set_exec(!0b10);
        });
        assert_eq!(
            (
                w.vgpr[0][0],
                w.vgpr[0][1],
                w.vgpr[0][2],
                w.vgpr[0][4],
                w.vgpr[0][16]
            ),
            (115, 7, 7, 7, 131),
            "{v}"
        );
        // A DPP add permutes only SRC0.
        let w = run(
            v,
            if v == V14 {
                "v_add_u32 v0, v1, v1 row_ror:1"
            } else {
                "v_add_u32 v0, vcc, v1, v1 row_ror:1"
            },
            setup,
        );
        assert_eq!((w.vgpr[0][0], w.vgpr[0][1]), (115 + 100, 100 + 101), "{v}");
    }
}

#[test]
fn sdwa_selections() {
    for v in [V12, V14] {
        let add = if v == V14 {
            "v_add_u32"
        } else {
            "v_add_u32 v0, vcc,"
        };
        let setup = |w: &mut Wave| {
            w.vgpr[1] = [0x8844_2211; WAVE_SIZE];
            w.vgpr[2] = [0x0102_f0ff; WAVE_SIZE];
            w.vgpr[0] = [0xaabb_ccdd; WAVE_SIZE];
        };
        let line = |mods: &str| {
            if v == V14 {
                format!("{add} v0, v1, v2 {mods}")
            } else {
                format!("{add} v1, v2 {mods}")
            }
        };
        // byte1 of v1 (0x22) + word1 of v2 (0x0102) = 0x124, placed in byte 1
        // (low 8 bits 0x24) with the rest preserved.
        let w = run(
            v,
            &line("dst_sel:byte_1 src0_sel:byte1 src1_sel:word1 dst_unused:preserve"),
            setup,
        );
        assert_eq!(w.vgpr[0][0], 0xaabb_24dd, "{v}");
        // Same with padding.
        let w = run(
            v,
            &line("dst_sel:byte_1 src0_sel:byte1 src1_sel:word1"),
            setup,
        );
        assert_eq!(w.vgpr[0][0], 0x0000_2400, "{v}");
        // Sign extension of the sources: sext(byte3 0x88) = -120, sext(byte1 0xf0) = -16;
        // sum -136 = 0xffffff78, word 0 with sext: 0xffffff78.
        let srcs = if v == V14 {
            "v_add_u32 v0, sext(v1), sext(v2)"
        } else {
            "v_add_u32 v0, vcc, sext(v1), sext(v2)"
        };
        let w = run(
            v,
            &format!("{srcs} dst_sel:word_0 dst_unused:sext src0_sel:byte3 src1_sel:byte1"),
            setup,
        );
        assert_eq!(w.vgpr[0][0], 0xffff_ff78, "{v}");
        // A 16-bit op in SDWA form writes its 16-bit result into word 1.
        let w = run(
            v,
            "v_add_u16 v0, v1, v2 dst_sel:word_1 dst_unused:preserve src0_sel:byte0 src1_sel:byte0",
            setup,
        );
        assert_eq!(w.vgpr[0][0], 0x0110_ccdd, "{v}");
    }
}

#[test]
fn sdwa_compare_with_sgpr_destination_on_gcn14() {
    let w = run(
        V14,
        "v_cmp_eq_u32 s[8:9], v1, v2 src0_sel:byte1 src1_sel:byte0",
        |w| {
            w.vgpr[1] = std::array::from_fn(|l| (l as u32) << 8);
            w.vgpr[2] = [5; WAVE_SIZE];
        },
    );
    assert_eq!(w.s64(8), 1 << 5);
    let w = run(
        V12,
        "v_cmp_eq_u32 vcc, v1, v2 src0_sel:byte1 src1_sel:byte0",
        |w| {
            w.vgpr[1] = std::array::from_fn(|l| (l as u32) << 8);
            w.vgpr[2] = [5; WAVE_SIZE];
        },
    );
    assert_eq!(w.vcc(), 1 << 5);
}

#[test]
fn sixteen_bit_compare_op_sel_on_gcn14() {
    let w = run(V14, "v_cmp_eq_u16 s[4:5], v1, v2 op_sel:[1,0]", |w| {
        w.vgpr[1][0] = 0x0005_0007;
        w.vgpr[2][0] = 5;
        w.vgpr[1][1] = 0x0007_0005;
        w.vgpr[2][1] = 5;
        w.set_exec(0b11);
    });
    assert_eq!(w.s64(4), 0b01);
}

// ---------------------------------------------------------------------------
// GCN 1.5 / RDNA 2
// ---------------------------------------------------------------------------

const V15: GcnVersion = GcnVersion::Gcn1_5;
const RDNA2: GcnVersion = GcnVersion::Rdna2;
const GFX10: [GcnVersion; 3] = [V15, GcnVersion::Gcn1_5_1, RDNA2];

#[test]
fn gfx10_adds_without_carry() {
    let big = 0xffff_fff0;
    check(
        &GFX10,
        "v_add_nc_u32 v0, v1, v2",
        &[(big, 0x20, 0, 0x10), (1, 2, 0, 3)],
    );
    check(
        &GFX10,
        "v_add_nc_u32 v0, v1, v2 clamp",
        &[(big, 0x20, 0, u32::MAX), (1, 2, 0, 3)],
    );
    check(&GFX10, "v_sub_nc_u32 v0, v1, v2", &[(1, 2, 0, u32::MAX)]);
    check(
        &GFX10,
        "v_sub_nc_u32 v0, v1, v2 clamp",
        &[(1, 2, 0, 0), (7, 2, 0, 5)],
    );
    check(
        &GFX10,
        "v_subrev_nc_u32 v0, v1, v2",
        &[(1, 7, 0, 6), (7, 1, 0, 0xffff_fffa)],
    );
    check(&GFX10, "v_subrev_nc_u32 v0, v1, v2 clamp", &[(7, 1, 0, 0)]);
    let (max, min) = (i32::MAX as u32, i32::MIN as u32);
    check(
        &GFX10,
        "v_add_nc_i32 v0, v1, v2",
        &[(max, 1, 0, min), (5, (-7i32) as u32, 0, (-2i32) as u32)],
    );
    check(
        &GFX10,
        "v_add_nc_i32 v0, v1, v2 clamp",
        &[(max, 1, 0, max), (min, u32::MAX, 0, min), (5, 6, 0, 11)],
    );
    check(
        &GFX10,
        "v_sub_nc_i32 v0, v1, v2 clamp",
        &[(min, 1, 0, min), (max, u32::MAX, 0, max)],
    );
    check(&GFX10, "v_sub_nc_i32 v0, v1, v2", &[(min, 1, 0, max)]);
}

#[test]
fn gfx10_16_bit_adds_keep_the_other_half() {
    // VOP3-only on GCN 1.5; the high half of v0 (0xdead) is kept, op_sel
    // picks source halves and writes the high half keeping the low one.
    check(
        &GFX10,
        "v_add_nc_u16 v0, v1, v2",
        &[(0x1_fff0, 0x2_0020, 0, 0xdead_0010)],
    );
    check(
        &GFX10,
        "v_add_nc_u16 v0, v1, v2 clamp",
        &[(0xfff0, 0x20, 0, 0xdead_ffff)],
    );
    check(
        &GFX10,
        "v_sub_nc_u16 v0, v1, v2 clamp",
        &[(1, 2, 0, 0xdead_0000), (0x30, 0x10, 0, 0xdead_0020)],
    );
    check(&GFX10, "v_sub_nc_u16 v0, v1, v2", &[(1, 2, 0, 0xdead_ffff)]);
    check(
        &GFX10,
        "v_add_nc_i16 v0, v1, v2 clamp",
        &[
            (0x7fff, 1, 0, 0xdead_7fff),
            (0x8000, 0xffff, 0, 0xdead_8000),
        ],
    );
    check(
        &GFX10,
        "v_add_nc_i16 v0, v1, v2",
        &[(0x7fff, 1, 0, 0xdead_8000)],
    );
    check(
        &GFX10,
        "v_sub_nc_i16 v0, v1, v2 clamp",
        &[(0x8000, 1, 0, 0xdead_8000), (3, 5, 0, 0xdead_fffe)],
    );
    check(
        &GFX10,
        "v_add_nc_u16 v0, v1, v2 op_sel:[1,0,1]",
        &[(0x0003_0000, 0x0004_0005, 0, 0x0008_beef)],
    );
    // The GCN 1.4 rows that GCN 1.5 keeps: the VOP2 form keeps the high half too.
    check(
        &GFX10,
        "v_mul_lo_u16 v0, v1, v2",
        &[(0x1_0003, 5, 0, 0xdead_000f)],
    );
    check(&[V14], "v_mul_lo_u16 v0, v1, v2", &[(0x1_0003, 5, 0, 0xf)]);
}

#[test]
fn gfx10_vop3_literal() {
    check(
        &GFX10,
        "v_add3_u32 v0, v1, 0x12345678, v2",
        &[(1, 2, 0, 0x1234_567b)],
    );
}

#[test]
fn gfx10_xor3() {
    check(
        &GFX10,
        "v_xor3_b32 v0, v1, v2, v3",
        &[(
            0xff00_ff00,
            0x0ff0_0ff0,
            0x1234_5678,
            0xff00_ff00 ^ 0x0ff0_0ff0 ^ 0x1234_5678,
        )],
    );
}

/// v1 + v2 + carry-in per lane, carry-out per lane, for the carry tests.
fn carry_inputs(w: &mut Wave) {
    for l in 0..WAVE_SIZE {
        // Lane l: carry out of the add when l is odd.
        w.vgpr[1][l] = if l % 2 == 1 { 0xffff_ffff } else { l as u32 };
        w.vgpr[2][l] = 1;
        w.vgpr[0][l] = 0xdead_beef;
    }
}

#[test]
fn gfx10_add_with_carry_in_and_out_wave64() {
    let cin = 0x8000_0000_0000_000fu64;
    for v in GFX10 {
        for asm in [
            "v_add_co_ci_u32 v0, vcc, v1, v2, vcc",
            "v_add_co_ci_u32 v0, s[10:11], v1, v2, s[20:21]",
        ] {
            let w = run(v, asm, |w| {
                carry_inputs(w);
                w.set_vcc(cin);
                w.sgpr[20] = cin as u32;
                w.sgpr[21] = (cin >> 32) as u32;
            });
            let out = if asm.contains("s[10:11]") {
                w.s64(10)
            } else {
                w.vcc()
            };
            let mut want_out = 0u64;
            for l in 0..WAVE_SIZE {
                let c = cin >> l & 1;
                let sum = u64::from(w.vgpr[1][l]) + 1 + c;
                assert_eq!(w.vgpr[0][l], sum as u32, "{v} `{asm}` lane {l}");
                want_out |= (sum >> 32) << l;
            }
            assert_eq!(out, want_out, "{v} `{asm}` carry-out");
        }
        // Borrows: v_sub_co_ci (S0 - S1 - cin), v_subrev_co_ci (S1 - S0 - cin).
        let w = run(v, "v_sub_co_ci_u32 v0, vcc, v1, v2, vcc", |w| {
            w.vgpr[1] = [1; WAVE_SIZE];
            w.vgpr[2][0] = 1;
            w.vgpr[2][1] = 0;
            w.vgpr[2][2] = 2;
            w.set_vcc(0b011);
        });
        assert_eq!(&w.vgpr[0][..3], &[u32::MAX, 0, u32::MAX]);
        assert_eq!(w.vcc() & 7, 0b101);
        let w = run(v, "v_subrev_co_ci_u32 v0, vcc, v1, v2, vcc", |w| {
            w.vgpr[1] = [1; WAVE_SIZE];
            w.vgpr[2][0] = 1;
            w.vgpr[2][1] = 5;
            w.set_vcc(0b11);
        });
        assert_eq!(&w.vgpr[0][..2], &[u32::MAX, 3]);
        assert_eq!(w.vcc() & 3, 0b01);
    }
}

#[test]
fn gfx10_add_with_carry_wave32_uses_one_sgpr() {
    for v in GFX10 {
        // The carry-in is s20 alone (s21 holds noise); the carry-out is s10
        // alone (s11 keeps its value); lanes 32-63 are not written.
        let w = run_wave32(v, "v_add_co_ci_u32 v0, s10, v1, v2, s20", |w| {
            carry_inputs(w);
            w.sgpr[20] = 0x8000_000f;
            w.sgpr[21] = 0xffff_ffff;
            w.sgpr[11] = 0x1234_5678;
        });
        let mut want = 0u32;
        for l in 0..32 {
            let c = u64::from(0x8000_000fu32 >> l & 1);
            let sum = u64::from(w.vgpr[1][l]) + 1 + c;
            assert_eq!(w.vgpr[0][l], sum as u32, "{v} lane {l}");
            want |= ((sum >> 32) as u32) << l;
        }
        assert_eq!(w.sgpr[10], want, "{v}: carry-out");
        assert_eq!(
            w.sgpr[11], 0x1234_5678,
            "{v}: s11 is not part of a wave32 lane mask"
        );
        assert!(
            w.vgpr[0][32..].iter().all(|&x| x == 0xdead_beef),
            "{v}: lanes 32-63"
        );
        // The VOP2 form: VCC_LO in and out, VCC_HI kept.
        let w = run_wave32(v, "v_add_co_ci_u32 v0, vcc_lo, v1, v2, vcc_lo", |w| {
            carry_inputs(w);
            w.sgpr[106] = 0;
            w.sgpr[107] = 0xffff_ffff;
        });
        assert_eq!(w.sgpr[106], 0xaaaa_aaaa, "{v}: odd lanes carry");
        assert_eq!(w.sgpr[107], 0xffff_ffff, "{v}: VCC_HI");
    }
}

#[test]
fn gfx10_compares_and_cndmask_in_wave32() {
    for v in GFX10 {
        // A compare's lane mask is one SGPR: s5 keeps its value.
        let w = run_wave32(v, "v_cmp_gt_u32 s4, v1, v2", |w| {
            w.vgpr[1] = std::array::from_fn(|l| l as u32);
            w.vgpr[2] = [15; WAVE_SIZE];
            w.sgpr[5] = 0x5555_5555;
        });
        assert_eq!(w.sgpr[4], 0xffff_0000, "{v}");
        assert_eq!(w.sgpr[5], 0x5555_5555, "{v}: s5");
        let w = run_wave32(v, "v_cmp_gt_u32 vcc_lo, v1, v2", |w| {
            w.vgpr[1] = std::array::from_fn(|l| l as u32);
            w.vgpr[2] = [15; WAVE_SIZE];
            w.sgpr[107] = 0x5555_5555;
        });
        assert_eq!(w.sgpr[106], 0xffff_0000, "{v}");
        assert_eq!(w.sgpr[107], 0x5555_5555, "{v}: VCC_HI");
        // v_cndmask with an SGPR condition: s6 only (s7 is noise).
        let w = run_wave32(v, "v_cndmask_b32 v0, v1, v2, s6", |w| {
            w.vgpr[1] = [1; WAVE_SIZE];
            w.vgpr[2] = [2; WAVE_SIZE];
            w.vgpr[0] = [0xdead_beef; WAVE_SIZE];
            w.sgpr[6] = 0x0000_00f0;
            w.sgpr[7] = 0xffff_ffff;
        });
        for l in 0..32 {
            let want = if (4..8).contains(&l) { 2 } else { 1 };
            assert_eq!(w.vgpr[0][l], want, "{v} lane {l}");
        }
        assert!(
            w.vgpr[0][32..].iter().all(|&x| x == 0xdead_beef),
            "{v}: lanes 32-63"
        );
    }
}

#[test]
fn gfx10_cmpx_writes_exec_only() {
    for v in GFX10 {
        // wave64: no SDST, VCC untouched.
        for asm in ["v_cmpx_gt_u32 v1, v2", "v_cmpx_gt_u32_e64 v1, v2"] {
            let w = run(v, asm, |w| {
                w.vgpr[1] = std::array::from_fn(|l| l as u32);
                w.vgpr[2] = [40; WAVE_SIZE];
                w.set_vcc(0x0123_4567_89ab_cdef);
                w.set_exec(0xffff_ffff_0000_ffff);
            });
            assert_eq!(w.exec(), 0xffff_fe00_0000_0000, "{v} `{asm}`");
            assert_eq!(w.vcc(), 0x0123_4567_89ab_cdef, "{v} `{asm}`: VCC");
        }
        // wave32: EXEC_LO alone.
        let w = run_wave32(v, "v_cmpx_gt_u32 v1, v2", |w| {
            w.vgpr[1] = std::array::from_fn(|l| l as u32);
            w.vgpr[2] = [20; WAVE_SIZE];
            w.sgpr[106] = 0x1111_1111;
            w.sgpr[107] = 0x2222_2222;
            w.sgpr[127] = 0x3333_3333;
        });
        assert_eq!(w.sgpr[126], 0xffe0_0000, "{v}: EXEC_LO");
        assert_eq!(w.sgpr[127], 0x3333_3333, "{v}: EXEC_HI");
        assert_eq!(
            (w.sgpr[106], w.sgpr[107]),
            (0x1111_1111, 0x2222_2222),
            "{v}: VCC"
        );
    }
}

#[test]
fn gfx10_lane_reads_and_writes_in_wave32() {
    for v in GFX10 {
        let w = run_wave32(
            v,
            "v_readlane_b32 s4, v1, 35\nv_readfirstlane_b32 s5, v1\nv_writelane_b32 v2, s6, 33",
            |w| {
                w.vgpr[1] = std::array::from_fn(|l| 100 + l as u32);
                w.vgpr[2] = [7; WAVE_SIZE];
                w.sgpr[6] = 0xabcd;
                w.sgpr[126] = 0xffff_fff8;
            },
        );
        // Lane indices wrap at 32; the first active lane is 3.
        assert_eq!(w.sgpr[4], 103, "{v}: readlane 35 is lane 3");
        assert_eq!(w.sgpr[5], 103, "{v}: readfirstlane");
        assert_eq!(w.vgpr[2][1], 0xabcd, "{v}: writelane 33 is lane 1");
        assert_eq!(w.vgpr[2][33], 7, "{v}: lane 33 untouched");
    }
}

/// v_permlane16 lane selects: lane `i` of a row reads lane `15 - i`.
const REVERSE: (u32, u32) = (0x89ab_cdef, 0x0123_4567);

#[test]
fn gfx10_permlane16_wave64() {
    for v in GFX10 {
        let w = run(v, "v_permlane16_b32 v0, v1, s4, s5", |w| {
            w.vgpr[1] = std::array::from_fn(|l| 1000 + l as u32);
            w.sgpr[4] = 0xfedc_ba98;
            w.sgpr[5] = 0x7654_3210;
        });
        // Lanes 0-7 take the nibbles of s4 (8, 9, …), lanes 8-15 those of s5.
        for l in 0..WAVE_SIZE {
            let i = l % 16;
            let sel = if i < 8 {
                0xfedc_ba98u32 >> (4 * i) & 15
            } else {
                0x7654_3210u32 >> (4 * (i - 8)) & 15
            };
            assert_eq!(w.vgpr[0][l], 1000 + (l - i) as u32 + sel, "{v} lane {l}");
        }
        let w = run(v, "v_permlanex16_b32 v0, v1, s4, s5", |w| {
            w.vgpr[1] = std::array::from_fn(|l| 1000 + l as u32);
            w.sgpr[4] = REVERSE.0;
            w.sgpr[5] = REVERSE.1;
        });
        for l in 0..WAVE_SIZE {
            let other = (l & !15) ^ 16;
            assert_eq!(
                w.vgpr[0][l],
                1000 + (other + 15 - l % 16) as u32,
                "{v} lane {l}"
            );
        }
    }
}

#[test]
fn gfx10_permlane16_inactive_sources() {
    let setup = |w: &mut Wave| {
        w.vgpr[1] = std::array::from_fn(|l| 1000 + l as u32);
        w.vgpr[0] = [0xdead_beef; WAVE_SIZE];
        w.sgpr[4] = REVERSE.0;
        w.sgpr[5] = REVERSE.1;
        // Lanes 0-7 active in each row of 16 (lane 15 - i for i < 8 is inactive).
        w.set_exec(0x00ff_00ff_00ff_00ff);
    };
    for v in GFX10 {
        // Neither FI nor BOUND_CTRL: an inactive source leaves the lane.
        let w = run(v, "v_permlane16_b32 v0, v1, s4, s5", setup);
        assert_eq!(w.vgpr[0][0], 0xdead_beef, "{v}");
        // FI: the inactive lane's value is read.
        let w = run(v, "v_permlane16_b32 v0, v1, s4, s5 op_sel:[1,0]", setup);
        assert_eq!(w.vgpr[0][0], 1015, "{v}: fi");
        assert_eq!(w.vgpr[0][8], 0xdead_beef, "{v}: inactive destination");
        // BOUND_CTRL: 0.
        let w = run(v, "v_permlane16_b32 v0, v1, s4, s5 op_sel:[0,1]", setup);
        assert_eq!(w.vgpr[0][16], 0, "{v}: bound_ctrl");
    }
}

#[test]
fn gfx10_permlane16_wave32() {
    for v in GFX10 {
        let w = run_wave32(v, "v_permlanex16_b32 v0, v1, s4, s5", |w| {
            w.vgpr[1] = std::array::from_fn(|l| 1000 + l as u32);
            w.vgpr[0] = [0xdead_beef; WAVE_SIZE];
            w.sgpr[4] = REVERSE.0;
            w.sgpr[5] = REVERSE.1;
        });
        for l in 0..32 {
            let other = (l & !15) ^ 16;
            assert_eq!(
                w.vgpr[0][l],
                1000 + (other + 15 - l % 16) as u32,
                "{v} lane {l}"
            );
        }
        assert!(
            w.vgpr[0][32..].iter().all(|&x| x == 0xdead_beef),
            "{v}: lanes 32-63"
        );
    }
}

#[test]
fn gfx10_relative_moves() {
    for v in GFX10 {
        // M0[9:0] offsets the source, M0[25:16] the destination.
        let w = run(v, "s_mov_b32 m0, 0x30002\nv_movrelsd_2_b32 v1, v4", |w| {
            w.vgpr[6] = [66; WAVE_SIZE];
            w.set_exec(0xff);
        });
        assert_eq!(w.vgpr[4][0], 66, "{v}: v1 + 3 = v6");
        assert_eq!(w.vgpr[4][8], 0, "{v}: inactive lane");
        let w = run(v, "s_mov_b32 m0, 0x10001\nv_swaprel_b32 v1, v4", |w| {
            w.vgpr[5] = [5; WAVE_SIZE];
            w.vgpr[2] = [2; WAVE_SIZE];
        });
        assert_eq!((w.vgpr[2][0], w.vgpr[5][0]), (5, 2), "{v}: swap v2, v5");
        // Past the allocation: a register fault.
        let memory = crate::memory::Memory::default();
        let s = run_with(
            v,
            "s_mov_b32 m0, 0x3ff\nv_movrelsd_2_b32 v1, v4",
            &memory,
            |_| {},
        );
        assert!(
            matches!(s.fault.map(|f| f.kind), Some(FaultKind::Register(_))),
            "{v}"
        );
        run(v, "v_pipeflush", |_| {});
    }
}

#[test]
fn gfx10_dpp16_share_xmask_and_fetch_inactive() {
    let setup = |w: &mut Wave| {
        w.vgpr[1] = std::array::from_fn(|l| 100 + l as u32);
        w.vgpr[0] = [0xdead_beef; WAVE_SIZE];
    };
    for v in GFX10 {
        let w = run(
            v,
            "v_mov_b32_dpp v0, v1 row_share:3 row_mask:0xf bank_mask:0xf",
            setup,
        );
        for l in 0..WAVE_SIZE {
            assert_eq!(
                w.vgpr[0][l],
                100 + ((l & !15) | 3) as u32,
                "{v} row_share lane {l}"
            );
        }
        let w = run(
            v,
            "v_mov_b32_dpp v0, v1 row_xmask:5 row_mask:0xf bank_mask:0xf",
            setup,
        );
        for l in 0..WAVE_SIZE {
            assert_eq!(w.vgpr[0][l], 100 + (l ^ 5) as u32, "{v} row_xmask lane {l}");
        }
        // An inactive source lane: not written without fi, read with fi.
        let inactive = |w: &mut Wave| {
            setup(w);
            w.set_exec(!1);
        };
        let w = run(
            v,
            "v_mov_b32_dpp v0, v1 row_share:0 row_mask:0xf bank_mask:0xf",
            inactive,
        );
        assert_eq!(w.vgpr[0][1], 0xdead_beef, "{v}: no fi");
        let w = run(
            v,
            "v_mov_b32_dpp v0, v1 row_share:0 row_mask:0xf bank_mask:0xf fi:1",
            inactive,
        );
        assert_eq!(w.vgpr[0][1], 100, "{v}: fi");
        assert_eq!(w.vgpr[0][0], 0xdead_beef, "{v}: lane 0 inactive");
        // wave32: rows 0 and 1 only.
        let w = run_wave32(
            v,
            "v_mov_b32_dpp v0, v1 row_xmask:1 row_mask:0xf bank_mask:0xf",
            setup,
        );
        assert_eq!(w.vgpr[0][17], 116, "{v}: wave32");
        assert_eq!(w.vgpr[0][33], 0xdead_beef, "{v}: wave32 lane 33");
    }
}

#[test]
fn gfx10_dpp8() {
    let setup = |w: &mut Wave| {
        w.vgpr[1] = std::array::from_fn(|l| 100 + l as u32);
        w.vgpr[0] = [0xdead_beef; WAVE_SIZE];
    };
    for v in GFX10 {
        let w = run(v, "v_mov_b32_dpp v0, v1 dpp8:[7,6,5,4,3,2,1,0]", setup);
        for l in 0..WAVE_SIZE {
            assert_eq!(
                w.vgpr[0][l],
                100 + ((l & !7) | (7 - l % 8)) as u32,
                "{v} lane {l}"
            );
        }
        let w = run(
            v,
            "v_add_nc_u32_dpp v0, v1, v1 dpp8:[1,1,1,1,1,1,1,1]",
            setup,
        );
        assert_eq!(w.vgpr[0][10], 109 + 110, "{v}: dpp8 on src0 only");
        // An inactive source: 0 without fi, its value with fi.
        let inactive = |w: &mut Wave| {
            setup(w);
            w.set_exec(!2);
        };
        let w = run(v, "v_mov_b32_dpp v0, v1 dpp8:[1,1,1,1,1,1,1,1]", inactive);
        assert_eq!(w.vgpr[0][0], 0, "{v}: no fi");
        let w = run(
            v,
            "v_mov_b32_dpp v0, v1 dpp8:[1,1,1,1,1,1,1,1] fi:1",
            inactive,
        );
        assert_eq!(w.vgpr[0][0], 101, "{v}: fi");
    }
}
