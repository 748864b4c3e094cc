//! Tests of the f32/f64 vector ALU handlers: table-driven cases with
//! expected bits worked out by hand from the docs, run on every version
//! where the row exists, and a walk over every row of the family.

use gcn_asm::isa::{DataType, Encoding, INSTRUCTIONS};
use gcn_asm::GcnVersion;

use super::super::testing::{run, versions_with};
use super::super::WAVE_SIZE;

/// Default MODE of the snippets: round to nearest, denormals kept.
const M: u32 = 0xf0;

/// One f32 case: `asm` reads v2, v3, v4 (and v1 as the accumulator) and
/// writes v1; `want` is lane 0 of v1 (`None`: any NaN).
struct Case32 {
    asm: &'static str,
    mode: u32,
    a: u32,
    b: u32,
    c: u32,
    want: Option<u32>,
}

const fn c32(asm: &'static str, mode: u32, a: u32, b: u32, c: u32, want: u32) -> Case32 {
    Case32 {
        asm,
        mode,
        a,
        b,
        c,
        want: Some(want),
    }
}

const fn nan32(asm: &'static str, a: u32, b: u32) -> Case32 {
    Case32 {
        asm,
        mode: M,
        a,
        b,
        c: 0,
        want: None,
    }
}

fn mnemonic(asm: &str) -> &str {
    asm.split_whitespace().next().unwrap()
}

fn check32(cases: &[Case32]) {
    for case in cases {
        let versions = versions_with(mnemonic(case.asm));
        assert!(!versions.is_empty(), "{} exists nowhere", case.asm);
        for v in versions {
            let w = run(v, case.asm, |w| {
                w.mode = case.mode;
                w.vgpr[1] = [case.c; WAVE_SIZE];
                w.vgpr[2] = [case.a; WAVE_SIZE];
                w.vgpr[3] = [case.b; WAVE_SIZE];
                w.vgpr[4] = [case.c; WAVE_SIZE];
            });
            let got = w.vgpr[1][0];
            match case.want {
                Some(want) => assert_eq!(
                    got, want,
                    "{} on {v} (mode {:#x}, {:#x} {:#x} {:#x}): got {got:#010x} want {want:#010x}",
                    case.asm, case.mode, case.a, case.b, case.c
                ),
                None => assert!(
                    f32::from_bits(got).is_nan(),
                    "{} on {v}: {got:#x}",
                    case.asm
                ),
            }
            assert_eq!(w.vgpr[1][63], got, "{} on {v}: lanes differ", case.asm);
        }
    }
}

#[test]
fn f32_arithmetic() {
    const ONE: u32 = 0x3f80_0000;
    const TINY: u32 = 0x3380_0000; // 2^-24
    const ONE_ULP: u32 = 0x3f80_0001; // 1 + 2^-23
    #[rustfmt::skip]
    let cases = [
        c32("v_add_f32 v1, v2, v3", M, ONE, 0x4000_0000, 0, 0x4040_0000),
        // 1 + 2^-24: a tie; even is down, +inf up, -inf/zero down.
        c32("v_add_f32 v1, v2, v3", 0xf0, ONE, TINY, 0, ONE),
        c32("v_add_f32 v1, v2, v3", 0xf1, ONE, TINY, 0, ONE_ULP),
        c32("v_add_f32 v1, v2, v3", 0xf2, ONE, TINY, 0, ONE),
        c32("v_add_f32 v1, v2, v3", 0xf3, ONE, TINY, 0, ONE),
        c32("v_add_f32 v1, v2, v3", 0xf2, 0xbf80_0000, 0xb380_0000, 0, 0xbf80_0001),
        c32("v_add_f32 v1, v2, v3", 0xf1, 0xbf80_0000, 0xb380_0000, 0, 0xbf80_0000),
        // x + (-x): -0 rounding down only.
        c32("v_add_f32 v1, v2, v3", 0xf2, ONE, 0xbf80_0000, 0, 0x8000_0000),
        c32("v_add_f32 v1, v2, v3", M, ONE, 0xbf80_0000, 0, 0),
        c32("v_add_f32 v1, v2, v3", M, 0x8000_0000, 0x8000_0000, 0, 0x8000_0000),
        c32("v_add_f32 v1, v2, v3", M, 0x8000_0000, 0, 0, 0),
        c32("v_add_f32 v1, v2, v3", M, 0x7f80_0000, 0x3f80_0000, 0, 0x7f80_0000),
        nan32("v_add_f32 v1, v2, v3", 0x7f80_0000, 0xff80_0000),
        // Denormals: mode 0x00 flushes the input, 0x10 the output only.
        c32("v_add_f32 v1, v2, v3", 0x00, 1, 0, 0, 0),
        c32("v_add_f32 v1, v2, v3", 0xf0, 1, 0, 0, 1),
        c32("v_add_f32 v1, v2, v3", 0x10, 1, 1, 0, 0),
        c32("v_add_f32 v1, v2, v3", 0x20, 1, 1, 0, 0),
        c32("v_add_f32 v1, v2, v3", 0x30, 1, 1, 0, 2),
        c32("v_sub_f32 v1, v2, v3", M, ONE, 0x4040_0000, 0, 0xc000_0000),
        c32("v_subrev_f32 v1, v2, v3", M, ONE, 0x4040_0000, 0, 0x4000_0000),
        c32("v_mul_f32 v1, v2, v3", M, 0x4040_0000, 0x3f00_0000, 0, 0x3fc0_0000),
        // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46.
        c32("v_mul_f32 v1, v2, v3", 0xf0, ONE_ULP, ONE_ULP, 0, 0x3f80_0002),
        c32("v_mul_f32 v1, v2, v3", 0xf1, ONE_ULP, ONE_ULP, 0, 0x3f80_0003),
        c32("v_mul_f32 v1, v2, v3", 0xf3, ONE_ULP, ONE_ULP, 0, 0x3f80_0002),
        // 2^-126 * 0.5 is a denormal: kept with 0x20, flushed (signed) with 0x10.
        c32("v_mul_f32 v1, v2, v3", 0x20, 0x0080_0000, 0x3f00_0000, 0, 0x0040_0000),
        c32("v_mul_f32 v1, v2, v3", 0x10, 0x0080_0000, 0x3f00_0000, 0, 0),
        c32("v_mul_f32 v1, v2, v3", 0x10, 0x8080_0000, 0x3f00_0000, 0, 0x8000_0000),
        c32("v_mul_f32 v1, v2, v3", 0xf3, 0x7f7f_ffff, 0x4000_0000, 0, 0x7f7f_ffff),
        c32("v_mul_legacy_f32 v1, v2, v3", M, 0, 0x7f80_0000, 0, 0),
        c32("v_mul_legacy_f32 v1, v2, v3", M, 0x7fc0_0000, 0x8000_0000, 0, 0),
        c32("v_mul_legacy_f32 v1, v2, v3", M, 0x4000_0000, 0x4040_0000, 0, 0x40c0_0000),
        // fma rounds once; mad rounds the product first.
        c32("v_fma_f32 v1, v2, v3, v4", 0xf0, ONE_ULP, ONE_ULP, 0xbf80_0002, 0x2880_0000),
        c32("v_mad_f32 v1, v2, v3, v4", 0xf0, ONE_ULP, ONE_ULP, 0xbf80_0002, 0),
        c32("v_fma_f32 v1, v2, v3, v4", 0xf0, ONE_ULP, ONE_ULP, 0, 0x3f80_0002),
        c32("v_fma_f32 v1, v2, v3, v4", 0xf1, ONE_ULP, ONE_ULP, 0, 0x3f80_0003),
        c32("v_fma_f32 v1, v2, v3, v4", 0xf2, ONE_ULP, ONE_ULP, 0, 0x3f80_0002),
        c32("v_fma_f32 v1, v2, v3, v4", 0xf0, 0x0080_0000, 0x3f00_0000, 0, 0x0040_0000),
        c32("v_fma_f32 v1, v2, v3, v4", 0x00, 0x0080_0000, 0x3f00_0000, 0, 0),
        // mad/mac flush denormals whatever the mode.
        c32("v_mad_f32 v1, v2, v3, v4", 0xf0, 0x0080_0000, 0x3f00_0000, 0, 0),
        c32("v_mad_f32 v1, v2, v3, v4", M, 0x4000_0000, 0x4040_0000, ONE, 0x40e0_0000),
        c32("v_mac_f32 v1, v2, v3", M, 0x4000_0000, 0x4040_0000, ONE, 0x40e0_0000),
        c32("v_mac_f32 v1, v2, v3", 0xf0, 0x0080_0000, 0x3f00_0000, 0, 0),
        c32("v_mad_legacy_f32 v1, v2, v3, v4", M, 0, 0x7f80_0000, ONE, ONE),
        c32("v_mad_legacy_f32 v1, v2, v3, v4", M, 0x4000_0000, 0x4040_0000, ONE, 0x40e0_0000),
        c32("v_mac_legacy_f32 v1, v2, v3", M, 0x7fc0_0000, 0, 0x4000_0000, 0x4000_0000),
        c32("v_mac_legacy_f32 v1, v2, v3", M, 0x4000_0000, 0x4040_0000, ONE, 0x40e0_0000),
        // madak: 2 * 4 + 3; madmk: 2 * 3 + 4.
        c32("v_madak_f32 v1, v2, v3, 0x40400000", M, 0x4000_0000, 0x4080_0000, 0, 0x4130_0000),
        c32("v_madmk_f32 v1, v2, 0x40400000, v3", M, 0x4000_0000, 0x4080_0000, 0, 0x4120_0000),
        // min/max: -0 < +0; a quiet NaN gives the other operand; a
        // signalling NaN gives its quiet form only with MODE.IEEE.
        c32("v_min_f32 v1, v2, v3", M, ONE, 0x4000_0000, 0, ONE),
        c32("v_max_f32 v1, v2, v3", M, ONE, 0x4000_0000, 0, 0x4000_0000),
        c32("v_min_f32 v1, v2, v3", M, 0, 0x8000_0000, 0, 0x8000_0000),
        c32("v_min_f32 v1, v2, v3", M, 0x8000_0000, 0, 0, 0x8000_0000),
        c32("v_max_f32 v1, v2, v3", M, 0x8000_0000, 0, 0, 0),
        c32("v_min_f32 v1, v2, v3", M, 0x7fc0_0000, ONE, 0, ONE),
        c32("v_max_f32 v1, v2, v3", M, ONE, 0x7fc0_0000, 0, ONE),
        c32("v_min_f32 v1, v2, v3", M, 0x7f80_0001, ONE, 0, ONE),
        c32("v_min_f32 v1, v2, v3", M | 0x200, 0x7f80_0001, ONE, 0, 0x7fc0_0001),
        c32("v_max_f32 v1, v2, v3", M | 0x200, ONE, 0x7f80_0001, 0, 0x7fc0_0001),
        c32("v_max_f32 v1, v2, v3", M | 0x200, ONE, 0x7fc0_0000, 0, ONE),
        c32("v_min_legacy_f32 v1, v2, v3", M, ONE, 0x7fc0_0000, 0, 0x7fc0_0000),
        c32("v_min_legacy_f32 v1, v2, v3", M, 0x7fc0_0000, ONE, 0, ONE),
        c32("v_max_legacy_f32 v1, v2, v3", M, 0x4000_0000, ONE, 0, 0x4000_0000),
        c32("v_max_legacy_f32 v1, v2, v3", M, 0x4000_0000, 0xffc0_0000, 0, 0xffc0_0000),
        c32("v_min3_f32 v1, v2, v3, v4", M, 0x4040_0000, ONE, 0x4000_0000, ONE),
        c32("v_max3_f32 v1, v2, v3, v4", M, 0x4040_0000, ONE, 0x4000_0000, 0x4040_0000),
        c32("v_med3_f32 v1, v2, v3, v4", M, 0x4040_0000, ONE, 0x4000_0000, 0x4000_0000),
        c32("v_med3_f32 v1, v2, v3, v4", M, ONE, 0x4040_0000, 0x4000_0000, 0x4000_0000),
        c32("v_med3_f32 v1, v2, v3, v4", M, 0x7fc0_0000, 0x4040_0000, 0x4000_0000, 0x4000_0000),
        // Two equal: theirs is the median (the docs' pseudo-code gives S0);
        // -0 orders below +0.
        c32("v_med3_f32 v1, v2, v3, v4", M, 0x4040_0000, 0x4000_0000, 0x4000_0000, 0x4000_0000),
        c32("v_med3_f32 v1, v2, v3, v4", M, 0x8000_0000, 0, 0x40a0_0000, 0),
        c32("v_min3_f32 v1, v2, v3, v4", M, 0x4040_0000, 0x7fc0_0000, 0x4000_0000, 0x4000_0000),
        // ldexp
        c32("v_ldexp_f32 v1, v2, v3", M, 0x3fc0_0000, 3, 0, 0x4140_0000),
        c32("v_ldexp_f32 v1, v2, v3", M, ONE, (-149i32) as u32, 0, 1),
        c32("v_ldexp_f32 v1, v2, v3", 0x00, ONE, (-149i32) as u32, 0, 0),
        c32("v_ldexp_f32 v1, v2, v3", M, ONE, 200, 0, 0x7f80_0000),
        c32("v_ldexp_f32 v1, v2, v3", M, 0xbf80_0000, (-200i32) as u32, 0, 0x8000_0000),
        // mullit: S2 > 0 gives S0 * S1 (legacy zero), else -MAX.
        c32("v_mullit_f32 v1, v2, v3, v4", M, 0x4000_0000, 0x4040_0000, ONE, 0x40c0_0000),
        c32("v_mullit_f32 v1, v2, v3, v4", M, 0x4000_0000, 0x4040_0000, 0xbf80_0000, 0xff7f_ffff),
        c32("v_mullit_f32 v1, v2, v3, v4", M, 0, 0x7f80_0000, ONE, 0),
    ];
    check32(&cases);
}

#[test]
fn f32_cube_and_division_helpers() {
    const ONE: u32 = 0x3f80_0000;
    #[rustfmt::skip]
    let cases = [
        // (1, 2, -3): z major, negative.
        c32("v_cubeid_f32 v1, v2, v3, v4", M, ONE, 0x4000_0000, 0xc040_0000, 0x40a0_0000),
        c32("v_cubema_f32 v1, v2, v3, v4", M, ONE, 0x4000_0000, 0xc040_0000, 0xc0c0_0000),
        c32("v_cubesc_f32 v1, v2, v3, v4", M, ONE, 0x4000_0000, 0xc040_0000, 0xbf80_0000),
        c32("v_cubetc_f32 v1, v2, v3, v4", M, ONE, 0x4000_0000, 0xc040_0000, 0xc000_0000),
        // (1, -5, 2): y major, negative.
        c32("v_cubeid_f32 v1, v2, v3, v4", M, ONE, 0xc0a0_0000, 0x4000_0000, 0x4040_0000),
        c32("v_cubesc_f32 v1, v2, v3, v4", M, ONE, 0xc0a0_0000, 0x4000_0000, ONE),
        c32("v_cubetc_f32 v1, v2, v3, v4", M, ONE, 0xc0a0_0000, 0x4000_0000, 0xc000_0000),
        c32("v_cubema_f32 v1, v2, v3, v4", M, ONE, 0xc0a0_0000, 0x4000_0000, 0xc120_0000),
        // (-7, 1, 2): x major, negative.
        c32("v_cubeid_f32 v1, v2, v3, v4", M, 0xc0e0_0000, ONE, 0x4000_0000, ONE),
        c32("v_cubesc_f32 v1, v2, v3, v4", M, 0xc0e0_0000, ONE, 0x4000_0000, 0x4000_0000),
        c32("v_cubetc_f32 v1, v2, v3, v4", M, 0xc0e0_0000, ONE, 0x4000_0000, 0xbf80_0000),
        c32("v_cubema_f32 v1, v2, v3, v4", M, 0xc0e0_0000, ONE, 0x4000_0000, 0xc160_0000),
        // div_fixup(q, d, n)
        c32("v_div_fixup_f32 v1, v2, v3, v4", M, 0x40a0_0000, 0x4000_0000, 0x4120_0000, 0x40a0_0000),
        c32("v_div_fixup_f32 v1, v2, v3, v4", M, 0x4000_0000, 0, ONE, 0x7f80_0000),
        c32("v_div_fixup_f32 v1, v2, v3, v4", M, 0x4000_0000, 0x8000_0000, ONE, 0xff80_0000),
        c32("v_div_fixup_f32 v1, v2, v3, v4", M, 0x4000_0000, 0, 0, 0x7fc0_0000),
        c32("v_div_fixup_f32 v1, v2, v3, v4", M, 0, 0x7f80_0000, 0xff80_0000, 0xffc0_0000),
        c32("v_div_fixup_f32 v1, v2, v3, v4", M, 0, 0xff80_0000, ONE, 0x8000_0000),
        c32("v_div_fixup_f32 v1, v2, v3, v4", M, 0, ONE, 0x7f80_0001, 0x7fc0_0001),
        c32("v_div_fixup_f32 v1, v2, v3, v4", M, 0x7fc0_0000, 0xc000_0000, ONE, 0xff80_0000),
    ];
    check32(&cases);
}

#[test]
fn f32_conversions() {
    const ONE: u32 = 0x3f80_0000;
    let i = |x: i32| x as u32;
    #[rustfmt::skip]
    let cases = [
        c32("v_cvt_i32_f32 v1, v2", M, 0xc06c_cccd, 0, 0, i(-3)), // -3.7
        c32("v_cvt_i32_f32 v1, v2", M, 0x4f32_d05e, 0, 0, i(i32::MAX)), // 3e9
        c32("v_cvt_i32_f32 v1, v2", M, 0xcf32_d05e, 0, 0, i(i32::MIN)),
        c32("v_cvt_i32_f32 v1, v2", M, 0x7fc0_0000, 0, 0, 0),
        c32("v_cvt_u32_f32 v1, v2", M, 0xbf80_0000, 0, 0, 0),
        c32("v_cvt_u32_f32 v1, v2", M, 0x4f95_02f9, 0, 0, u32::MAX), // 5e9
        c32("v_cvt_u32_f32 v1, v2", M, 0x4079_999a, 0, 0, 3), // 3.9
        c32("v_cvt_flr_i32_f32 v1, v2", M, 0xc060_0000, 0, 0, i(-4)), // -3.5
        c32("v_cvt_flr_i32_f32 v1, v2", M, 0x7fc0_0000, 0, 0, i(i32::MAX)),
        c32("v_cvt_flr_i32_f32 v1, v2", M, 0xffc0_0000, 0, 0, i(i32::MIN)),
        c32("v_cvt_rpi_i32_f32 v1, v2", M, 0x4020_0000, 0, 0, 3), // 2.5
        c32("v_cvt_rpi_i32_f32 v1, v2", M, 0xc020_0000, 0, 0, i(-2)),
        c32("v_cvt_f32_i32 v1, v2", M, i(-5), 0, 0, 0xc0a0_0000),
        c32("v_cvt_f32_i32 v1, v2", 0xf0, 16_777_217, 0, 0, 0x4b80_0000),
        c32("v_cvt_f32_i32 v1, v2", 0xf1, 16_777_217, 0, 0, 0x4b80_0001),
        c32("v_cvt_f32_i32 v1, v2", 0xf2, i(-16_777_217), 0, 0, 0xcb80_0001),
        c32("v_cvt_f32_u32 v1, v2", M, u32::MAX, 0, 0, 0x4f80_0000),
        c32("v_cvt_f32_u32 v1, v2", 0xf3, u32::MAX, 0, 0, 0x4f7f_ffff),
        c32("v_cvt_off_f32_i4 v1, v2", M, 0, 0, 0, 0),
        c32("v_cvt_off_f32_i4 v1, v2", M, 7, 0, 0, 0x3ee0_0000),
        c32("v_cvt_off_f32_i4 v1, v2", M, 0x18, 0, 0, 0xbf00_0000),
        c32("v_cvt_off_f32_i4 v1, v2", M, 0xf, 0, 0, 0xbd80_0000),
        c32("v_cvt_f32_ubyte0 v1, v2", M, 0x0403_0201, 0, 0, ONE),
        c32("v_cvt_f32_ubyte1 v1, v2", M, 0x0403_0201, 0, 0, 0x4000_0000),
        c32("v_cvt_f32_ubyte2 v1, v2", M, 0x0403_0201, 0, 0, 0x4040_0000),
        c32("v_cvt_f32_ubyte3 v1, v2", M, 0xff03_0201, 0, 0, 0x437f_0000),
        // pk_u8: 200.6 rounds to 201 (even) or 200 (down) into byte 2.
        c32("v_cvt_pk_u8_f32 v1, v2, v3, v4", M, 0x4348_999a, 2, 0x1122_3344, 0x11c9_3344),
        c32("v_cvt_pk_u8_f32 v1, v2, v3, v4", 0xf2, 0x4348_999a, 2, 0x1122_3344, 0x11c8_3344),
        c32("v_cvt_pk_u8_f32 v1, v2, v3, v4", M, 0x7fc0_0000, 0, 0x1122_3344, 0x1122_3300),
        c32("v_cvt_pk_u8_f32 v1, v2, v3, v4", M, 0x4396_0000, 7, 0x1122_3344, 0xff22_3344),
        c32("v_cvt_pk_u8_f32 v1, v2, v3, v4", M, 0xc0a0_0000, 1, 0x1122_3344, 0x1122_0044),
        c32("v_cvt_pkaccum_u8_f32 v1, v2, v3", M, 0x40e0_0000, 0, 0x1122_3344, 0x1122_3307),
        c32("v_cvt_pkaccum_u8_f32 v1, v2, v3", M, 0x40e0_0000, 3, 0x1122_3344, 0x0722_3344),
        // pknorm: 0.5 * 32767 = 16383.5 -> 16384; -1 -> -32767.
        c32("v_cvt_pknorm_i16_f32 v1, v2, v3", M, 0x3f00_0000, 0xbf80_0000, 0, 0x8001_4000),
        c32("v_cvt_pknorm_i16_f32 v1, v2, v3", M, 0x7fc0_0000, 0x4000_0000, 0, 0x7fff_0000),
        c32("v_cvt_pknorm_u16_f32 v1, v2, v3", M, 0x3f00_0000, 0x4000_0000, 0, 0xffff_8000),
        c32("v_cvt_pknorm_u16_f32 v1, v2, v3", M, 0xbf80_0000, 0x7fc0_0000, 0, 0),
        // pkrtz: 1 + 2^-11 truncates to 1; overflow gives the max half.
        c32("v_cvt_pkrtz_f16_f32 v1, v2, v3", M, ONE, 0xc000_0000, 0, 0xc000_3c00),
        c32("v_cvt_pkrtz_f16_f32 v1, v2, v3", M, 0x3f80_1000, 0x4974_2400, 0, 0x7bff_3c00),
        c32("v_cvt_pkrtz_f16_f32 v1, v2, v3", M, 0x3380_0000, 0xff80_0000, 0, 0xfc00_0001),
        // Exponents below 0 (|x| in [2^-14, 1)): 0.5 is 0x3800, 1/3
        // truncates to 0x3555.
        c32("v_cvt_pkrtz_f16_f32 v1, v2, v3", M, 0x3f00_0000, 0x3eaa_aaab, 0, 0x3555_3800),
        // rounding to integral values
        c32("v_fract_f32 v1, v2", M, 0x4030_0000, 0, 0, 0x3f40_0000), // 2.75
        c32("v_fract_f32 v1, v2", M, 0xbe80_0000, 0, 0, 0x3f40_0000), // -0.25
        c32("v_fract_f32 v1, v2", M, 0x7f80_0000, 0, 0, 0x7fc0_0000),
        c32("v_fract_f32 v1, v2", M, 0xff80_0000, 0, 0, 0xffc0_0000),
        c32("v_trunc_f32 v1, v2", M, 0xc02c_cccd, 0, 0, 0xc000_0000), // -2.7
        c32("v_ceil_f32 v1, v2", M, 0xbf00_0000, 0, 0, 0x8000_0000), // -0.5
        c32("v_ceil_f32 v1, v2", M, 0x3f99_999a, 0, 0, 0x4000_0000), // 1.2
        c32("v_floor_f32 v1, v2", M, 0xbf00_0000, 0, 0, 0xbf80_0000),
        c32("v_rndne_f32 v1, v2", M, 0x4020_0000, 0, 0, 0x4000_0000), // 2.5
        c32("v_rndne_f32 v1, v2", M, 0x4060_0000, 0, 0, 0x4080_0000), // 3.5
        c32("v_rndne_f32 v1, v2", M, 0xbf00_0000, 0, 0, 0x8000_0000),
        c32("v_floor_f32 v1, v2", M, 0x7f80_0000, 0, 0, 0x7f80_0000),
        // A signalling NaN comes back quieted (Rust's rounding functions
        // would return it as it is).
        c32("v_floor_f32 v1, v2", M, 0x7f80_0001, 0, 0, 0x7fc0_0001),
        c32("v_trunc_f32 v1, v2", M, 0xff80_0002, 0, 0, 0xffc0_0002),
        c32("v_ceil_f32 v1, v2", M, 0x7f80_0001, 0, 0, 0x7fc0_0001),
        c32("v_rndne_f32 v1, v2", M, 0x7f80_0001, 0, 0, 0x7fc0_0001),
        // frexp
        c32("v_frexp_exp_i32_f32 v1, v2", M, 0x4100_0000, 0, 0, 4),
        c32("v_frexp_exp_i32_f32 v1, v2", M, 1, 0, 0, i(-148)),
        c32("v_frexp_mant_f32 v1, v2", M, 0x4100_0000, 0, 0, 0x3f00_0000),
        c32("v_frexp_mant_f32 v1, v2", M, 0xc040_0000, 0, 0, 0xbf40_0000),
        c32("v_frexp_mant_f32 v1, v2", M, 0, 0, 0, 0),
    ];
    check32(&cases);
}

#[test]
fn frexp_infinity_depends_on_version() {
    for v in versions_with("v_frexp_mant_f32") {
        let w = run(
            v,
            "v_frexp_mant_f32 v1, v2\nv_frexp_exp_i32_f32 v3, v2\n\
             v_frexp_mant_f64 v[4:5], v[6:7]\nv_frexp_exp_i32_f64 v8, v[6:7]",
            |w| {
                w.vgpr[2] = [0x7f80_0000; WAVE_SIZE];
                w.vgpr[6] = [0; WAVE_SIZE];
                w.vgpr[7] = [0x7ff0_0000; WAVE_SIZE];
            },
        );
        let gcn10 = v == GcnVersion::Gcn1_0;
        assert_eq!(w.vgpr[1][0], if gcn10 { 0xffc0_0000 } else { 0x7f80_0000 });
        assert_eq!(w.vgpr[3][0], if gcn10 { u32::MAX } else { 0 });
        assert_eq!(w.vgpr[5][0], if gcn10 { 0xfff8_0000 } else { 0x7ff0_0000 });
        assert_eq!(w.vgpr[8][0], if gcn10 { u32::MAX } else { 0 });
    }
}

/// Approximate f32 results: `(asm, input, expected, tolerance)` with the
/// tolerance in ULPs of the expected value (`Err(abs)`: absolute error).
#[test]
fn f32_transcendentals_within_documented_accuracy() {
    type Tol = Result<u32, f64>;
    #[rustfmt::skip]
    let cases: [(&str, f32, f32, Tol); 16] = [
        ("v_rcp_f32 v1, v2", 3.0, 1.0 / 3.0, Ok(1)),
        ("v_rcp_iflag_f32 v1, v2", -0.25, -4.0, Ok(1)),
        ("v_rsq_f32 v1, v2", 4.0, 0.5, Ok(1)),
        ("v_rsq_f32 v1, v2", 2.0, std::f32::consts::FRAC_1_SQRT_2, Ok(1)),
        ("v_sqrt_f32 v1, v2", 2.0, std::f32::consts::SQRT_2, Ok(1)),
        ("v_exp_f32 v1, v2", 3.0, 8.0, Ok(1)),
        ("v_exp_f32 v1, v2", 0.5, std::f32::consts::SQRT_2, Ok(1)),
        ("v_log_f32 v1, v2", 8.0, 3.0, Ok(1)),
        ("v_log_f32 v1, v2", 10.0, std::f32::consts::LOG2_10, Ok(1)),
        ("v_exp_legacy_f32 v1, v2", -1.0, 0.5, Ok(1)),
        ("v_log_legacy_f32 v1, v2", 0.25, -2.0, Ok(1)),
        // sin/cos take revolutions.
        ("v_sin_f32 v1, v2", 0.25, 1.0, Err(1e-6)),
        ("v_sin_f32 v1, v2", 0.5, 0.0, Err(1e-6)),
        ("v_cos_f32 v1, v2", 0.5, -1.0, Err(1e-6)),
        ("v_cos_f32 v1, v2", -1.0 / 6.0, 0.5, Err(1e-6)),
        ("v_sin_f32 v1, v2", 1.0 / 12.0, 0.5, Err(1e-6)),
    ];
    for (asm, x, want, tol) in cases {
        for v in versions_with(mnemonic(asm)) {
            let w = run(v, asm, |w| w.vgpr[2] = [x.to_bits(); WAVE_SIZE]);
            let got = f32::from_bits(w.vgpr[1][0]);
            match tol {
                Ok(ulps) => {
                    let d = (got.to_bits() as i64 - want.to_bits() as i64).unsigned_abs();
                    assert!(d <= u64::from(ulps), "{asm} ({x}) on {v}: {got} vs {want}");
                }
                Err(abs) => assert!(
                    (f64::from(got) - f64::from(want)).abs() <= abs,
                    "{asm} ({x}) on {v}: {got} vs {want}"
                ),
            }
        }
    }
}

#[test]
fn f32_transcendental_special_values() {
    #[rustfmt::skip]
    let cases = [
        c32("v_exp_f32 v1, v2", M, 0xc2fe_0000, 0, 0, 0), // -127
        c32("v_exp_f32 v1, v2", M, 0xff80_0000, 0, 0, 0),
        c32("v_exp_f32 v1, v2", M, 0x7f80_0000, 0, 0, 0x7f80_0000),
        c32("v_log_f32 v1, v2", M, 0xbf80_0000, 0, 0, 0xffc0_0000),
        c32("v_log_f32 v1, v2", M, 0, 0, 0, 0xff80_0000),
        c32("v_log_f32 v1, v2", M, 0x3f80_0000, 0, 0, 0),
        // denormal inputs are flushed whatever the mode
        c32("v_log_f32 v1, v2", M, 1, 0, 0, 0xff80_0000),
        c32("v_rsq_f32 v1, v2", M, 1, 0, 0, 0x7f80_0000),
        c32("v_rsq_f32 v1, v2", M, 0xbf80_0000, 0, 0, 0xffc0_0000),
        c32("v_rcp_f32 v1, v2", M, 0x8000_0000, 0, 0, 0xff80_0000),
        c32("v_rcp_f32 v1, v2", M, 0x7f80_0000, 0, 0, 0),
        c32("v_sqrt_f32 v1, v2", M, 0xbf80_0000, 0, 0, 0xffc0_0000),
        c32("v_sqrt_f32 v1, v2", M, 0x8000_0000, 0, 0, 0x8000_0000),
        c32("v_sqrt_f32 v1, v2", 0xf1, 0x4000_0000, 0, 0, 0x3fb5_04f4),
        c32("v_sin_f32 v1, v2", M, 0x7f80_0000, 0, 0, 0xffc0_0000),
        c32("v_cos_f32 v1, v2", M, 0xff80_0000, 0, 0, 0xffc0_0000),
        c32("v_sin_f32 v1, v2", M, 0x7fc0_0001, 0, 0, 0x7fc0_0001),
        c32("v_rcp_clamp_f32 v1, v2", M, 0, 0, 0, 0x7f7f_ffff),
        c32("v_rcp_clamp_f32 v1, v2", M, 0x8000_0000, 0, 0, 0xff7f_ffff),
        c32("v_rcp_legacy_f32 v1, v2", M, 0x8000_0000, 0, 0, 0x8000_0000),
        c32("v_rcp_legacy_f32 v1, v2", M, 0x4000_0000, 0, 0, 0x3f00_0000),
        c32("v_rsq_clamp_f32 v1, v2", M, 0, 0, 0, 0x7f7f_ffff),
        c32("v_rsq_legacy_f32 v1, v2", M, 0, 0, 0, 0),
        c32("v_log_clamp_f32 v1, v2", M, 0, 0, 0, 0xff7f_ffff),
    ];
    check32(&cases);
    // Out of range: 2 revolutions is outside GCN 1.0-1.2's range (sin 0,
    // cos 1) and inside GCN 1.4's (sin(4π) = 0, cos(4π) = 1); 2.25
    // separates them.
    for v in versions_with("v_sin_f32") {
        let w = run(v, "v_sin_f32 v1, v2\nv_cos_f32 v3, v2", |w| {
            w.vgpr[2] = [2.25f32.to_bits(); WAVE_SIZE]
        });
        let (s, c) = (f32::from_bits(w.vgpr[1][0]), f32::from_bits(w.vgpr[3][0]));
        if v >= GcnVersion::Gcn1_4 {
            assert!((s - 1.0).abs() < 1e-6 && c.abs() < 1e-6, "{v}: {s} {c}");
        } else {
            assert_eq!((s, c), (0.0, 1.0), "{v}");
        }
    }
}

/// One f64 case: sources v[2:3], v[4:5], v[6:7]; result v[10:11]
/// (`want` lane 0; `None` any NaN).
struct Case64 {
    asm: &'static str,
    mode: u32,
    a: u64,
    b: u64,
    c: u64,
    want: u64,
}

const fn c64(asm: &'static str, mode: u32, a: u64, b: u64, c: u64, want: u64) -> Case64 {
    Case64 {
        asm,
        mode,
        a,
        b,
        c,
        want,
    }
}

fn set64(w: &mut super::super::Wave, r: usize, v: u64) {
    w.vgpr[r] = [v as u32; WAVE_SIZE];
    w.vgpr[r + 1] = [(v >> 32) as u32; WAVE_SIZE];
}

fn get64(w: &super::super::Wave, r: usize, lane: usize) -> u64 {
    u64::from(w.vgpr[r][lane]) | (u64::from(w.vgpr[r + 1][lane]) << 32)
}

fn check64(cases: &[Case64], result_reg: usize, lo_only: bool) {
    for case in cases {
        let versions = versions_with(mnemonic(case.asm));
        assert!(!versions.is_empty(), "{} exists nowhere", case.asm);
        for v in versions {
            let w = run(v, case.asm, |w| {
                w.mode = case.mode;
                set64(w, 2, case.a);
                set64(w, 4, case.b);
                set64(w, 6, case.c);
            });
            let got = if lo_only {
                u64::from(w.vgpr[result_reg][0])
            } else {
                get64(&w, result_reg, 0)
            };
            assert_eq!(
                got, case.want,
                "{} on {v} (mode {:#x}): got {got:#018x} want {:#018x}",
                case.asm, case.mode, case.want
            );
        }
    }
}

#[test]
fn f64_arithmetic() {
    const ONE: u64 = 0x3ff0_0000_0000_0000;
    const ONE_ULP: u64 = 0x3ff0_0000_0000_0001;
    const HALF_ULP: u64 = 0x3ca0_0000_0000_0000; // 2^-53
    const TWO: u64 = 0x4000_0000_0000_0000;
    const THREE: u64 = 0x4008_0000_0000_0000;
    #[rustfmt::skip]
    let cases = [
        c64("v_add_f64 v[10:11], v[2:3], v[4:5]", M, ONE, TWO, 0, THREE),
        // f64 round mode is MODE bits 2-3.
        c64("v_add_f64 v[10:11], v[2:3], v[4:5]", 0xf0, ONE, HALF_ULP, 0, ONE),
        c64("v_add_f64 v[10:11], v[2:3], v[4:5]", 0xf4, ONE, HALF_ULP, 0, ONE_ULP),
        c64("v_add_f64 v[10:11], v[2:3], v[4:5]", 0xf1, ONE, HALF_ULP, 0, ONE),
        c64("v_add_f64 v[10:11], v[2:3], v[4:5]", 0xf8, ONE, 0xbff0_0000_0000_0000, 0, 1 << 63),
        // f64 denormals: MODE bits 6-7.
        c64("v_add_f64 v[10:11], v[2:3], v[4:5]", 0x30, 1, 0, 0, 0),
        c64("v_add_f64 v[10:11], v[2:3], v[4:5]", 0xf0, 1, 0, 0, 1),
        c64("v_add_f64 v[10:11], v[2:3], v[4:5]", 0x70, 1, 1, 0, 0),
        c64("v_add_f64 v[10:11], v[2:3], v[4:5]", 0xb0, 1, 1, 0, 0),
        c64("v_add_f64 v[10:11], v[2:3], v[4:5]", 0xb0, 0x0020_0000_0000_0000, 0x8018_0000_0000_0000, 0, 0x0008_0000_0000_0000),
        c64("v_mul_f64 v[10:11], v[2:3], v[4:5]", M, THREE, 0x3fe0_0000_0000_0000, 0, 0x3ff8_0000_0000_0000),
        c64("v_mul_f64 v[10:11], v[2:3], v[4:5]", 0xf0, ONE_ULP, ONE_ULP, 0, 0x3ff0_0000_0000_0002),
        c64("v_mul_f64 v[10:11], v[2:3], v[4:5]", 0xf4, ONE_ULP, ONE_ULP, 0, 0x3ff0_0000_0000_0003),
        c64("v_mul_f64 v[10:11], v[2:3], v[4:5]", 0xfc, 0x7fef_ffff_ffff_ffff, TWO, 0, 0x7fef_ffff_ffff_ffff),
        // fma: (1 + 2^-52)^2 - (1 + 2^-51) = 2^-104.
        c64("v_fma_f64 v[10:11], v[2:3], v[4:5], v[6:7]", M, ONE_ULP, ONE_ULP, 0xbff0_0000_0000_0002, 0x3970_0000_0000_0000),
        c64("v_fma_f64 v[10:11], v[2:3], v[4:5], v[6:7]", 0xf4, ONE_ULP, ONE_ULP, 0, 0x3ff0_0000_0000_0003),
        c64("v_fma_f64 v[10:11], v[2:3], v[4:5], v[6:7]", 0xfc, ONE_ULP, ONE_ULP, 0, 0x3ff0_0000_0000_0002),
        c64("v_min_f64 v[10:11], v[2:3], v[4:5]", M, 0x7ff8_0000_0000_0000, TWO, 0, TWO),
        c64("v_max_f64 v[10:11], v[2:3], v[4:5]", M, ONE, TWO, 0, TWO),
        c64("v_min_f64 v[10:11], v[2:3], v[4:5]", M, 0, 1 << 63, 0, 1 << 63),
        c64("v_max_f64 v[10:11], v[2:3], v[4:5]", M | 0x200, 0x7ff0_0000_0000_0001, ONE, 0, 0x7ff8_0000_0000_0001),
        c64("v_ldexp_f64 v[10:11], v[2:3], v4", M, ONE, (-1074i64) as u64, 0, 1),
        c64("v_ldexp_f64 v[10:11], v[2:3], v4", 0x30, ONE, (-1074i64) as u64, 0, 0),
        c64("v_ldexp_f64 v[10:11], v[2:3], v4", M, 0x3ff8_0000_0000_0000, 10, 0, 0x4098_0000_0000_0000),
        c64("v_div_fixup_f64 v[10:11], v[2:3], v[4:5], v[6:7]", M, TWO, 0, ONE, 0x7ff0_0000_0000_0000),
        c64("v_div_fixup_f64 v[10:11], v[2:3], v[4:5], v[6:7]", M, TWO, 0, 0, 0x7ff8_0000_0000_0000),
        c64("v_div_fixup_f64 v[10:11], v[2:3], v[4:5], v[6:7]", M, THREE, TWO, 0x4018_0000_0000_0000, THREE),
        // trig_preop: 53-bit segments of 2/π (bits from an independent
        // big-integer computation of π).
        c64("v_trig_preop_f64 v[10:11], v[2:3], v4", M, ONE, 0, 0, 0x3fe4_5f30_6dc9_c882),
        c64("v_trig_preop_f64 v[10:11], v[2:3], v4", M, ONE, 1, 0, 0x3c94_a7f0_9d5f_47d4),
        c64("v_trig_preop_f64 v[10:11], v[2:3], v4", M, 0x43b0_0000_0000_0000, 0, 0, 0x3f87_cc1b_7272_20a9),
        // f64 transcendentals: exact here (the docs allow ~1e-8 relative).
        c64("v_rcp_f64 v[10:11], v[2:3]", M, 0x4010_0000_0000_0000, 0, 0, 0x3fd0_0000_0000_0000),
        c64("v_rsq_f64 v[10:11], v[2:3]", M, 0x4030_0000_0000_0000, 0, 0, 0x3fd0_0000_0000_0000),
        c64("v_sqrt_f64 v[10:11], v[2:3]", M, TWO, 0, 0, 0x3ff6_a09e_667f_3bcd),
        c64("v_sqrt_f64 v[10:11], v[2:3]", 0xfc, TWO, 0, 0, 0x3ff6_a09e_667f_3bcc),
        c64("v_sqrt_f64 v[10:11], v[2:3]", M, 0xbff0_0000_0000_0000, 0, 0, 0xfff8_0000_0000_0000),
        c64("v_rcp_clamp_f64 v[10:11], v[2:3]", M, 0, 0, 0, 0x7fef_ffff_ffff_ffff),
        c64("v_rsq_clamp_f64 v[10:11], v[2:3]", M, 0, 0, 0, 0x7fef_ffff_ffff_ffff),
        c64("v_fract_f64 v[10:11], v[2:3]", M, 0x4006_0000_0000_0000, 0, 0, 0x3fe8_0000_0000_0000),
        c64("v_fract_f64 v[10:11], v[2:3]", M, 0xfff0_0000_0000_0000, 0, 0, 0xfff8_0000_0000_0000),
        c64("v_trunc_f64 v[10:11], v[2:3]", M, 0xc005_9999_9999_999a, 0, 0, 0xc000_0000_0000_0000),
        c64("v_ceil_f64 v[10:11], v[2:3]", M, 0xbfe0_0000_0000_0000, 0, 0, 1 << 63),
        c64("v_floor_f64 v[10:11], v[2:3]", M, 0xbfe0_0000_0000_0000, 0, 0, 0xbff0_0000_0000_0000),
        c64("v_floor_f64 v[10:11], v[2:3]", M, 0x7ff0_0000_0000_0001, 0, 0, 0x7ff8_0000_0000_0001),
        c64("v_rndne_f64 v[10:11], v[2:3]", M, 0x4004_0000_0000_0000, 0, 0, TWO),
        c64("v_frexp_mant_f64 v[10:11], v[2:3]", M, 0xc008_0000_0000_0000, 0, 0, 0xbfe8_0000_0000_0000),
        // conversions to f64 (exact)
        c64("v_cvt_f64_i32 v[10:11], v2", M, 0xffff_ffff, 0, 0, 0xbff0_0000_0000_0000),
        c64("v_cvt_f64_u32 v[10:11], v2", M, 0xffff_ffff, 0, 0, 0x41ef_ffff_ffe0_0000),
        c64("v_cvt_f64_f32 v[10:11], v2", M, 0x3fc0_0000, 0, 0, 0x3ff8_0000_0000_0000),
        c64("v_cvt_f64_f32 v[10:11], v2", 0xe0, 1, 0, 0, 0),
    ];
    check64(&cases, 10, false);
    // f64 sources, 32-bit results (v10)
    #[rustfmt::skip]
    let narrow = [
        c64("v_frexp_exp_i32_f64 v10, v[2:3]", M, 0x4020_0000_0000_0000, 0, 0, 4),
        c64("v_cvt_i32_f64 v10, v[2:3]", M, 0xc004_0000_0000_0000, 0, 0, 0xffff_fffe),
        c64("v_cvt_i32_f64 v10, v[2:3]", M, 0x4202_a05f_2000_0000, 0, 0, 0x7fff_ffff),
        c64("v_cvt_i32_f64 v10, v[2:3]", M, 0x7ff8_0000_0000_0000, 0, 0, 0),
        c64("v_cvt_u32_f64 v10, v[2:3]", M, 0x4202_a05f_2000_0000, 0, 0, 0xffff_ffff),
        c64("v_cvt_u32_f64 v10, v[2:3]", M, 0xbff0_0000_0000_0000, 0, 0, 0),
        // f64 to f32 rounds per the f32 mode (1 + 2^-30).
        c64("v_cvt_f32_f64 v10, v[2:3]", 0xf0, 0x3ff0_0000_0400_0000, 0, 0, 0x3f80_0000),
        c64("v_cvt_f32_f64 v10, v[2:3]", 0xf1, 0x3ff0_0000_0400_0000, 0, 0, 0x3f80_0001),
        c64("v_cvt_f32_f64 v10, v[2:3]", M, 0x7e37_e43c_8800_759c, 0, 0, 0x7f80_0000),
        c64("v_cvt_f32_f64 v10, v[2:3]", 0xf3, 0x7e37_e43c_8800_759c, 0, 0, 0x7f7f_ffff),
        c64("v_cvt_f32_f64 v10, v[2:3]", 0xf2, 0xbff0_0000_0400_0000, 0, 0, 0xbf80_0001),
    ];
    check64(&narrow, 10, true);
}

#[test]
fn div_scale_and_fmas() {
    for v in versions_with("v_div_scale_f32") {
        // lane 0: 1 / 2^100 scales the numerator; lane 1: 1 / 3 does not;
        // lane 2: NaN numerator flags; lane 3 is inactive.
        let w = run(v, "v_div_scale_f32 v1, s[10:11], v2, v3, v4", |w| {
            w.set_exec(0b0111);
            w.vgpr[2][..3].copy_from_slice(&[0x3f80_0000, 0x3f80_0000, 0x7fc0_0000]);
            w.vgpr[3][..4].copy_from_slice(&[0x7180_0000, 0x4040_0000, 0x4040_0000, 0x7180_0000]);
            w.vgpr[4][..3].copy_from_slice(&[0x3f80_0000, 0x3f80_0000, 0x7fc0_0000]);
            w.vgpr[2][3] = 0x3f80_0000;
            w.vgpr[4][3] = 0x3f80_0000;
        });
        assert_eq!(
            &w.vgpr[1][..4],
            &[0x5f80_0000, 0x3f80_0000, 0x7fc0_0000, 0],
            "{v}"
        );
        assert_eq!(w.s64(10), 0b101, "{v}");

        let w = run(
            v,
            "v_div_scale_f64 v[10:11], vcc, v[2:3], v[4:5], v[6:7]",
            |w| {
                set64(w, 2, 0x3ff0_0000_0000_0000);
                set64(w, 4, 0x7000_0000_0000_0000); // 2^769
                set64(w, 6, 0x3ff0_0000_0000_0000);
            },
        );
        assert_eq!(get64(&w, 10, 0), 0x47f0_0000_0000_0000, "{v}");
        assert_eq!(w.vcc(), u64::MAX, "{v}");

        // div_fmas: VCC set in even lanes scales by 2^-64 (|S2| < 2) or
        // 2^64 (|S2| >= 2).
        let w = run(
            v,
            "v_div_fmas_f32 v1, v2, v3, v4\nv_div_fmas_f32 v5, v2, v3, v6",
            |w| {
                w.set_vcc(0x5555_5555_5555_5555);
                w.vgpr[2] = [0x4000_0000; WAVE_SIZE];
                w.vgpr[3] = [0x4040_0000; WAVE_SIZE];
                w.vgpr[4] = [0x3f80_0000; WAVE_SIZE];
                w.vgpr[6] = [0x4080_0000; WAVE_SIZE];
            },
        );
        assert_eq!(&w.vgpr[1][..2], &[0x20e0_0000, 0x40e0_0000], "{v}");
        assert_eq!(&w.vgpr[5][..2], &[0x6120_0000, 0x4120_0000], "{v}");

        let w = run(v, "v_div_fmas_f64 v[10:11], v[2:3], v[4:5], v[6:7]", |w| {
            w.set_vcc(1);
            set64(w, 2, 0x4000_0000_0000_0000);
            set64(w, 4, 0x4008_0000_0000_0000);
            set64(w, 6, 0x3ff0_0000_0000_0000);
        });
        assert_eq!(get64(&w, 10, 0), 0x381c_0000_0000_0000, "{v}");
        assert_eq!(get64(&w, 10, 1), 0x401c_0000_0000_0000, "{v}");
    }
}

/// The f32 division sequence LLVM emits (div_scale, rcp, fmas, fixup)
/// gives the correctly rounded quotient, scaled cases included.
#[test]
fn division_sequence() {
    let src = "v_div_scale_f32 v3, vcc, v1, v1, v0\n\
               v_div_scale_f32 v4, s[10:11], v0, v1, v0\n\
               v_rcp_f32 v5, v3\n\
               v_fma_f32 v6, -v3, v5, 1.0\n\
               v_fma_f32 v5, v6, v5, v5\n\
               v_mul_f32 v6, v4, v5\n\
               v_fma_f32 v7, -v3, v6, v4\n\
               v_fma_f32 v6, v7, v5, v6\n\
               v_fma_f32 v4, -v3, v6, v4\n\
               s_mov_b64 vcc, s[10:11]\n\
               v_div_fmas_f32 v4, v4, v5, v6\n\
               v_div_fixup_f32 v2, v4, v1, v0";
    let pairs: [(f32, f32); 6] = [
        (1.0, 3.0),
        (10.0, 7.0),
        (-2.5, 0.1),
        (1.0, 1.0e30),
        (3.0e-30, 7.0e20),
        (1.0, 0.0),
    ];
    for v in versions_with("v_div_scale_f32") {
        let w = run(v, src, |w| {
            for (l, (n, d)) in pairs.iter().enumerate() {
                w.vgpr[0][l] = n.to_bits();
                w.vgpr[1][l] = d.to_bits();
            }
        });
        for (l, (n, d)) in pairs.iter().enumerate() {
            let got = f32::from_bits(w.vgpr[2][l]);
            let want = n / d;
            let ulps = (got.to_bits() as i64 - want.to_bits() as i64).unsigned_abs();
            assert!(ulps <= 1, "{v}: {n} / {d} = {got}, want {want}");
        }
    }
}

/// Expected compare results for the pairs (1, 2), (2, 2), (2, 1),
/// (NaN, 1) in lanes 0-3, per OP16.
const PRED: [(&str, u64); 17] = [
    ("f", 0b0000),
    ("lt", 0b0001),
    ("eq", 0b0010),
    ("le", 0b0011),
    ("gt", 0b0100),
    ("lg", 0b0101),
    ("ge", 0b0110),
    ("o", 0b0111),
    ("u", 0b1000),
    ("nge", 0b1001),
    ("nlg", 0b1010),
    ("ngt", 0b1011),
    ("nle", 0b1100),
    ("neq", 0b1101),
    ("nlt", 0b1110),
    ("t", 0b1111),
    ("tru", 0b1111),
];

#[test]
fn float_compares() {
    let a32 = [1.0f32, 2.0, 2.0, f32::NAN];
    let b32 = [2.0f32, 2.0, 1.0, 1.0];
    for (pred, want) in PRED {
        for kind in ["cmp", "cmpx", "cmps", "cmpsx"] {
            for ty in ["f32", "f64"] {
                let name = format!("v_{kind}_{pred}_{ty}");
                let src = if ty == "f32" {
                    format!("{name} vcc, v2, v3")
                } else {
                    format!("{name} vcc, v[2:3], v[4:5]")
                };
                for v in versions_with(&name) {
                    let w = run(v, &src, |w| {
                        // Lanes 4.. inactive; their results must be 0.
                        w.set_exec(0b1111 | (1 << 40));
                        w.vgpr[2][40] = 0;
                        for l in 0..4 {
                            if ty == "f32" {
                                w.vgpr[2][l] = a32[l].to_bits();
                                w.vgpr[3][l] = b32[l].to_bits();
                            } else {
                                let (x, y) = (f64::from(a32[l]), f64::from(b32[l]));
                                w.vgpr[2][l] = x.to_bits() as u32;
                                w.vgpr[3][l] = (x.to_bits() >> 32) as u32;
                                w.vgpr[4][l] = y.to_bits() as u32;
                                w.vgpr[5][l] = (y.to_bits() >> 32) as u32;
                            }
                        }
                        // lane 40: 0 vs 0 (f64: 0 vs 0 too)
                        w.vgpr[3][40] = 0;
                    });
                    // Lane 40 compares 0 with 0: the "equal" column.
                    let eq_bit = (want >> 1) & 1;
                    let full = want | (eq_bit << 40);
                    assert_eq!(w.vcc(), full, "{src} on {v}");
                    let exec = if kind.ends_with('x') {
                        full
                    } else {
                        0b1111 | (1 << 40)
                    };
                    assert_eq!(w.exec(), exec, "{src} on {v}: EXEC");
                }
            }
        }
    }
}

#[test]
fn compare_vop3_with_modifiers_and_signed_zero() {
    for v in versions_with("v_cmp_lt_f32") {
        // -|v2| < v3 with v2 = -3, v3 = -2: -3 < -2.
        let w = run(v, "v_cmp_lt_f32 s[10:11], -|v2|, v3", |w| {
            w.vgpr[2] = [(-3.0f32).to_bits(); WAVE_SIZE];
            w.vgpr[3] = [(-2.0f32).to_bits(); WAVE_SIZE];
        });
        assert_eq!(w.s64(10), u64::MAX, "{v}");
        let w = run(v, "v_cmp_eq_f32 vcc, v2, v3", |w| {
            w.vgpr[2] = [0x8000_0000; WAVE_SIZE];
            w.vgpr[3] = [0; WAVE_SIZE];
        });
        assert_eq!(w.vcc(), u64::MAX, "{v}: -0 == +0");
    }
}

#[test]
fn class_compares() {
    let classes32: [u32; 10] = [
        0x7f80_0001, // sNaN
        0x7fc0_0000, // qNaN
        0xff80_0000,
        0xbf80_0000,
        0x8000_0001,
        0x8000_0000,
        0,
        1,
        0x3f80_0000,
        0x7f80_0000,
    ];
    let classes64: [u64; 10] = [
        0x7ff0_0000_0000_0001,
        0x7ff8_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0xbff0_0000_0000_0000,
        0x8000_0000_0000_0001,
        0x8000_0000_0000_0000,
        0,
        1,
        0x3ff0_0000_0000_0000,
        0x7ff0_0000_0000_0000,
    ];
    // Lanes 0-9: value k with mask 1 << k (true); lanes 10-19: value k
    // with every other class bit (false).
    for x in ["", "x"] {
        let name32 = format!("v_cmp{x}_class_f32");
        for v in versions_with(&name32) {
            let w = run(v, &format!("{name32} vcc, v2, v3"), |w| {
                for (k, &x) in classes32.iter().enumerate() {
                    w.vgpr[2][k] = x;
                    w.vgpr[3][k] = 1 << k;
                    w.vgpr[2][k + 10] = x;
                    w.vgpr[3][k + 10] = 0x3ff & !(1 << k);
                }
            });
            assert_eq!(w.vcc(), 0x3ff, "{name32} on {v}");
            if x == "x" {
                assert_eq!(w.exec(), 0x3ff, "{name32} on {v}");
            }
        }
        let name64 = format!("v_cmp{x}_class_f64");
        for v in versions_with(&name64) {
            let w = run(v, &format!("{name64} vcc, v[2:3], v[4:5]"), |w| {
                for (k, &x) in classes64.iter().enumerate() {
                    for (lane, mask) in [(k, 1u32 << k), (k + 10, 0x3ff & !(1 << k))] {
                        w.vgpr[2][lane] = x as u32;
                        w.vgpr[3][lane] = (x >> 32) as u32;
                        w.vgpr[4][lane] = mask;
                    }
                }
            });
            assert_eq!(w.vcc(), 0x3ff, "{name64} on {v}");
        }
    }
}

#[test]
fn modifiers_exec_sdwa_and_dpp() {
    for v in versions_with("v_add_f32") {
        // VOP3 abs/neg: -v2 + |v3| = -1 + 2.
        let w = run(v, "v_add_f32 v1, -v2, |v3|", |w| {
            w.vgpr[2] = [1.0f32.to_bits(); WAVE_SIZE];
            w.vgpr[3] = [(-2.0f32).to_bits(); WAVE_SIZE];
        });
        assert_eq!(f32::from_bits(w.vgpr[1][0]), 1.0, "{v}");
        // omod and clamp.
        let w = run(
            v,
            "v_add_f32 v1, v2, v3 mul:2\nv_add_f32 v4, v2, v3 clamp\n\
             v_add_f32 v5, v2, v3 div:2\nv_mul_f64 v[6:7], v[8:9], v[8:9] mul:4",
            |w| {
                w.vgpr[2] = [0.5f32.to_bits(); WAVE_SIZE];
                w.vgpr[3] = [1.0f32.to_bits(); WAVE_SIZE];
                set64(w, 8, 3.0f64.to_bits());
            },
        );
        assert_eq!(f32::from_bits(w.vgpr[1][0]), 3.0, "{v}");
        assert_eq!(f32::from_bits(w.vgpr[4][0]), 1.0, "{v}");
        assert_eq!(f32::from_bits(w.vgpr[5][0]), 0.75, "{v}");
        assert_eq!(f64::from_bits(get64(&w, 6, 0)), 36.0, "{v}");
        // EXEC partly off: inactive lanes keep their value.
        let w = run(v, "v_mul_f32 v1, v2, v3", |w| {
            w.set_exec(0b101);
            w.vgpr[1] = [7; WAVE_SIZE];
            w.vgpr[2] = [2.0f32.to_bits(); WAVE_SIZE];
            w.vgpr[3] = [3.0f32.to_bits(); WAVE_SIZE];
        });
        assert_eq!(
            &w.vgpr[1][..3],
            &[6.0f32.to_bits(), 7, 6.0f32.to_bits()],
            "{v}"
        );
        assert_eq!(w.vgpr[1][3], 7, "{v}");
    }
    for v in versions_with("v_add_f32")
        .into_iter()
        .filter(|&v| v >= GcnVersion::Gcn1_2)
    {
        // SDWA with neg/abs on the sources and a word destination.
        let w = run(
            v,
            "v_add_f32 v1, -v2, |v3| dst_sel:dword src0_sel:dword src1_sel:dword\n\
             v_cvt_f32_ubyte0 v4, v5 src0_sel:byte2",
            |w| {
                w.vgpr[2] = [1.0f32.to_bits(); WAVE_SIZE];
                w.vgpr[3] = [(-4.0f32).to_bits(); WAVE_SIZE];
                w.vgpr[5] = [0x0011_2233; WAVE_SIZE];
            },
        );
        assert_eq!(f32::from_bits(w.vgpr[1][0]), 3.0, "{v}");
        assert_eq!(f32::from_bits(w.vgpr[4][0]), 17.0, "{v}");
        // DPP quad_perm:[1,0,3,2]: lane 0 reads lane 1's v2.
        let w = run(
            v,
            "v_add_f32 v1, -v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
            |w| {
                for l in 0..WAVE_SIZE {
                    w.vgpr[2][l] = (l as f32).to_bits();
                }
                w.vgpr[3] = [0.5f32.to_bits(); WAVE_SIZE];
            },
        );
        assert_eq!(f32::from_bits(w.vgpr[1][0]), -0.5, "{v}");
        assert_eq!(f32::from_bits(w.vgpr[1][1]), 0.5, "{v}");
        assert_eq!(f32::from_bits(w.vgpr[1][2]), -2.5, "{v}");
    }
}

/// Rows outside this module although they have f32 operands.
const OUT_OF_SCOPE: &[(&str, &str)] = &[
    (
        "v_interp_p1ll_f16",
        "VOP3-encoded interpolation (attribute data from LDS/M0): interpolation module",
    ),
    (
        "v_interp_p1lv_f16",
        "VOP3-encoded interpolation (attribute data from LDS/M0): interpolation module",
    ),
];

#[test]
fn every_float_row_has_a_handler() {
    let mut missing = Vec::new();
    for version in crate::exec::EMULATED_VERSIONS {
        for row in INSTRUCTIONS.iter() {
            if !matches!(
                row.encoding,
                Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc | Encoding::Vop3
            ) || row.opcode(version).is_none()
            {
                continue;
            }
            let tys = || row.operands.iter().map(|o| o.ty);
            let float = tys().any(|t| matches!(t, DataType::F32 | DataType::F64));
            let half = tys().any(|t| matches!(t, DataType::F16 | DataType::PkF16));
            if !float || half || OUT_OF_SCOPE.iter().any(|(m, _)| *m == row.mnemonic) {
                continue;
            }
            if super::handler(row, version).is_none() {
                missing.push(format!("{} ({version})", row.mnemonic));
            }
        }
    }
    assert!(missing.is_empty(), "rows without a handler: {missing:?}");
}

/// `v_fma_f32`'s one-pass path per lane: abs/neg, SGPR and inline-constant
/// sources, denormal flushing of inputs and outputs by MODE, and EXEC.
#[test]
fn fma_f32_one_pass_lanes() {
    // Lane l: v2 = l - 8 (as f32), v3 = a denormal on lane 1, else 1.5.
    const DENORMAL: u32 = 0x0000_0400;
    for (mode, flushes) in [(0xf0u32, false), (0x00, true)] {
        for v in versions_with("v_fma_f32") {
            let w = run(
                v,
                "v_fma_f32 v1, -|v2|, v3, s10\nv_fma_f32 v4, v3, 0.5, -v3",
                |w| {
                    w.mode = mode;
                    w.sgpr[10] = 0.25f32.to_bits();
                    for l in 0..WAVE_SIZE {
                        w.vgpr[2][l] = (l as f32 - 8.0).to_bits();
                        w.vgpr[3][l] = if l == 1 { DENORMAL } else { 1.5f32.to_bits() };
                        w.vgpr[1][l] = 7;
                        w.vgpr[4][l] = 7;
                    }
                    w.set_exec(!(1u64 << 5));
                },
            );
            for l in 0..WAVE_SIZE {
                let b = if l == 1 {
                    f32::from_bits(DENORMAL)
                } else {
                    1.5
                };
                let b_in = if flushes && l == 1 { 0.0 } else { b };
                let want1 = if l == 5 {
                    7
                } else {
                    (-(l as f32 - 8.0).abs()).mul_add(b_in, 0.25).to_bits()
                };
                assert_eq!(w.vgpr[1][l], want1, "{v:?} mode {mode:#x} v1 lane {l}");
                // b * 0.5 - b: exactly -b/2, a denormal on lane 1; when the
                // mode flushes, the inputs are +0 and -0: +0 * 0.5 + -0 = +0.
                let want4 = match (l, flushes) {
                    (5, _) => 7,
                    (1, true) => 0,
                    _ => (b * 0.5 - b).to_bits(),
                };
                assert_eq!(w.vgpr[4][l], want4, "{v:?} mode {mode:#x} v4 lane {l}");
            }
        }
    }
}

/// [`check32`] on the given versions (GCN 1.5 and RDNA 2 rows).
fn check32_on(versions: &[GcnVersion], cases: &[Case32]) {
    for case in cases {
        for &v in versions {
            assert!(
                gcn_asm::isa::lookup(mnemonic(case.asm), v).is_some(),
                "{} is not on {v}",
                case.asm
            );
            let w = run(v, case.asm, |w| {
                w.mode = case.mode;
                w.vgpr[1] = [case.c; WAVE_SIZE];
                w.vgpr[2] = [case.a; WAVE_SIZE];
                w.vgpr[3] = [case.b; WAVE_SIZE];
                w.vgpr[4] = [case.c; WAVE_SIZE];
            });
            let got = w.vgpr[1][0];
            assert_eq!(
                Some(got),
                case.want,
                "{} on {v} ({:#x} {:#x} {:#x}): got {got:#010x}",
                case.asm,
                case.a,
                case.b,
                case.c
            );
            assert_eq!(w.vgpr[1][63], got, "{} on {v}: lanes differ", case.asm);
        }
    }
}

/// 1 + 2^-12: its square minus 1 is 2^-11 + 2^-24 fused (0x3a000400) and
/// 2^-11 when the product is rounded first.
const ONE_PLUS: u32 = 0x3f80_0800;

#[test]
fn gfx10_fused_multiply_adds() {
    let gfx10 = [GcnVersion::Gcn1_5, GcnVersion::Gcn1_5_1, GcnVersion::Rdna2];
    let (two, three, four, one, m_one) = (
        0x4000_0000,
        0x4040_0000,
        0x4080_0000,
        0x3f80_0000,
        0xbf80_0000,
    );
    check32_on(
        &gfx10,
        &[
            // D = S0 * K + S1; D = S0 * S1 + K; D = S0 * S1 + D.
            c32(
                "v_fmamk_f32 v1, v2, 0x40400000, v3",
                M,
                two,
                four,
                0,
                0x4120_0000,
            ),
            c32(
                "v_fmaak_f32 v1, v2, v3, 0x40400000",
                M,
                two,
                four,
                0,
                0x4130_0000,
            ),
            c32("v_fmac_f32 v1, v2, v3", M, two, three, one, 0x40e0_0000),
            // VOP3 takes a 32-bit literal on GCN 1.5.
            c32(
                "v_fma_f32 v1, v2, 0x40400000, v4",
                M,
                two,
                0,
                one,
                0x40e0_0000,
            ),
            // One rounding.
            c32(
                "v_fmaak_f32 v1, v2, v3, 0xbf800000",
                M,
                ONE_PLUS,
                ONE_PLUS,
                0,
                0x3a00_0400,
            ),
            c32(
                "v_fmamk_f32 v1, v2, 0x3f800800, v4",
                M,
                ONE_PLUS,
                0,
                m_one,
                0x3a00_0400,
            ),
            c32(
                "v_fmac_f32 v1, v2, v3",
                M,
                ONE_PLUS,
                ONE_PLUS,
                m_one,
                0x3a00_0400,
            ),
            // Denormal inputs flushed when MODE says so (f32 bits 4-5 clear).
            c32("v_fmaak_f32 v1, v2, v3, 0x0", 0xc0, 0x0000_0001, one, 0, 0),
            c32("v_fmaak_f32 v1, v2, v3, 0x0", M, 0x0000_0001, one, 0, 1),
        ],
    );
    // The GCN 1.2-1.4 mads are unfused: the same inputs round twice.
    check32_on(
        &[GcnVersion::Gcn1_4],
        &[c32(
            "v_madak_f32 v1, v2, v3, 0xbf800000",
            M,
            ONE_PLUS,
            ONE_PLUS,
            0,
            0x3a00_0000,
        )],
    );
}

#[test]
fn rdna2_legacy_fma() {
    let rdna2 = [GcnVersion::Rdna2];
    let (inf, nan, two, three, one, five) = (
        0x7f80_0000,
        0x7fc0_0000,
        0x4000_0000,
        0x4040_0000,
        0x3f80_0000,
        0x40a0_0000,
    );
    check32_on(
        &rdna2,
        &[
            c32(
                "v_fma_legacy_f32 v1, v2, v3, v4",
                M,
                two,
                three,
                one,
                0x40e0_0000,
            ),
            // 0 * anything is +0.
            c32("v_fma_legacy_f32 v1, v2, v3, v4", M, 0, inf, two, two),
            c32(
                "v_fma_legacy_f32 v1, v2, v3, v4",
                M,
                nan,
                0x8000_0000,
                one,
                one,
            ),
            // +0 + -0 is +0.
            c32(
                "v_fma_legacy_f32 v1, v2, v3, v4",
                M,
                0x8000_0000,
                two,
                0x8000_0000,
                0,
            ),
            // Fused.
            c32(
                "v_fma_legacy_f32 v1, v2, v3, v4",
                M,
                ONE_PLUS,
                ONE_PLUS,
                0xbf80_0000,
                0x3a00_0400,
            ),
            // Not zero: the usual rules (inf * 2 + 1).
            c32("v_fma_legacy_f32 v1, v2, v3, v4", M, inf, two, one, inf),
            // The accumulating VOP2 form: D = S0 * S1 + D.
            c32("v_fmac_legacy_f32 v1, v2, v3", M, 0, inf, five, five),
            c32(
                "v_fmac_legacy_f32 v1, v2, v3",
                M,
                two,
                three,
                one,
                0x40e0_0000,
            ),
            c32(
                "v_fmac_legacy_f32 v1, v2, v3",
                M,
                ONE_PLUS,
                ONE_PLUS,
                0xbf80_0000,
                0x3a00_0400,
            ),
        ],
    );
}
