//! Tests of the f16, packed and dot-product rows. Expected values are bit
//! patterns worked out by hand (f16: sign, 5-bit exponent biased by 15,
//! 10-bit fraction) or, for the exhaustive checks, an independent oracle
//! (`half`'s own f64 → f16 conversion, or the definition of directed
//! rounding checked by comparison).

use super::*;
use crate::exec::testing::{run, versions_with};
use crate::exec::{self as exec, Encoding};
use gcn_asm::isa::{DataType, INSTRUCTIONS};

/// MODE with f16 round mode `rm` and denormal mode `dn` (the f32 fields
/// keep denormals, round to nearest).
fn mode(rm: u32, dn: u32) -> u32 {
    (rm << 2) | 0x30 | (dn << 6)
}

fn fpm(rm: u32, dn: u32) -> FpMode {
    FpMode::f16(mode(rm, dn))
}

const RNE: u32 = 0;
const RU: u32 = 1;
const RD: u32 = 2;
const RZ: u32 = 3;

#[test]
fn add_sub_mul_fma_bits() {
    let n = fpm(RNE, 3);
    // (a, b, rm, a + b)
    let adds: &[(u16, u16, u32, u16)] = &[
        (0x3c00, 0x4000, RNE, 0x4200), // 1 + 2 = 3
        (0x7bff, 0x4c00, RNE, 0x7c00), // 65504 + 16 = 65520: tie to even = overflow
        (0x7bff, 0x4c00, RZ, 0x7bff),  // ... towards zero: max
        (0x7bff, 0x4c00, RD, 0x7bff),  // ... down: max
        (0xfbff, 0xcc00, RD, 0xfc00),  // -65520 down: -inf
        (0x3c00, 0x1000, RNE, 0x3c00), // 1 + 2^-11: tie, even
        (0x3c00, 0x1000, RU, 0x3c01),  // ... up
        (0x3c00, 0x1200, RNE, 0x3c01), // 1 + 1.5*2^-11: above the tie
        (0x3c00, 0x1200, RZ, 0x3c00),  // ... towards zero
        (0xbc00, 0x9200, RD, 0xbc01),  // -1 - 1.5*2^-11 down
        (0x0001, 0x0001, RNE, 0x0002), // denormals add exactly
        (0x3c00, 0xbc00, RNE, 0x0000), // 1 - 1 = +0
        (0x3c00, 0xbc00, RD, 0x8000),  // ... -0 rounding down
        (0x8000, 0x8000, RNE, 0x8000), // -0 + -0
        (0x0000, 0x8000, RNE, 0x0000), // +0 + -0
        (0x7c00, 0xfc00, RNE, 0x7e00), // inf - inf: default NaN
        (0x7c00, 0x3c00, RNE, 0x7c00),
        (0x7d00, 0x3c00, RNE, 0x7f00), // sNaN comes back quieted
        (0x3c00, 0xfe01, RNE, 0xfe01), // a NaN's sign and payload stay
    ];
    for &(a, b, rm, want) in adds {
        assert_eq!(add16(a, b, fpm(rm, 3)), want, "{a:#06x} + {b:#06x} rm {rm}");
    }
    assert_eq!(sub16(0x4200, 0x3c00, n), 0x4000);
    assert_eq!(sub16(0x3c00, 0x7d00, n), 0x7f00);
    // (a, b, a * b)
    let muls: &[(u16, u16, u16)] = &[
        (0x3e00, 0x3e00, 0x4080), // 1.5 * 1.5 = 2.25
        (0x7c00, 0x0000, 0x7e00), // inf * 0
        (0xfc00, 0x4000, 0xfc00),
        (0x0400, 0x3800, 0x0200), // 2^-14 * 0.5 = 2^-15, a denormal
        (0x0001, 0x3800, 0x0000), // 2^-25: tie to even zero
        (0x0003, 0x3800, 0x0002), // 1.5 * 2^-24: tie to even 2
        (0x8000, 0x3c00, 0x8000),
        (0x5bff, 0x5bff, 0x7bfe), // 255.875^2 = 65472
        (0x5c00, 0x5c00, 0x7c00), // 256^2 overflows
    ];
    for &(a, b, want) in muls {
        assert_eq!(mul16(a, b, n), want, "{a:#06x} * {b:#06x}");
    }
    // Fused vs unfused: (1 + 3*2^-10)^2 - 1 = 6*2^-10 + 9*2^-20.
    assert_eq!(fma16(0x3c03, 0x3c03, 0xbc00, n), 0x1e02);
    assert_eq!(mad16(0x3c03, 0x3c03, 0xbc00, n), 0x1e00);
    assert_eq!(fma16(0x7c00, 0x0000, 0x3c00, n), 0x7e00);
    assert_eq!(fma16(0x7c00, 0x3c00, 0xfc00, n), 0x7e00);
    assert_eq!(fma16(0x3c00, 0x3c00, 0xfc00, n), 0xfc00);
    // 1 * -0 + +0 = +0; rounding down -0.
    assert_eq!(fma16(0x3c00, 0x8000, 0x0000, n), 0x0000);
    assert_eq!(fma16(0x3c00, 0x8000, 0x0000, fpm(RD, 3)), 0x8000);
    assert_eq!(fma16(0x3c00, 0x8000, 0x8000, n), 0x8000);
    // Output denormals flushed (mode bit 7 clear), inputs flushed (bit 6).
    assert_eq!(add16(0x0001, 0x0001, fpm(RNE, 1)), 0x0000);
    assert_eq!(mul16(0x8400, 0x3800, fpm(RNE, 1)), 0x8000);
    // mad flushes whatever MODE says: 2^-14 * 0.5 -> 0.
    assert_eq!(mad16(0x0400, 0x3800, 0x0000, n), 0x0000);
}

/// Exhaustive-ish: every sum/product of a sample of f16 pairs rounds like
/// `half`'s f64 → f16 conversion (sums and products of two f16 are exact
/// in f64), and the directed modes bracket the exact value.
#[test]
fn rounding_matches_independent_oracles() {
    let mut xs: Vec<u16> = (0u32..0x10000).step_by(97).map(|x| x as u16).collect();
    xs.extend([
        0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x7bff, 0x3c00, 0x3c01, 0xbbff,
    ]);
    let finite = |x: u16| x & 0x7c00 != 0x7c00;
    let next_up = |x: u16| -> f64 {
        // The f16 after x towards +inf, as f64.
        let b = if x == 0x8000 {
            0x0001
        } else if x & 0x8000 != 0 {
            x - 1
        } else {
            x + 1
        };
        half::f16::from_bits(b).to_f64()
    };
    for &a in &xs {
        for &b in xs.iter().step_by(7) {
            if !finite(a) || !finite(b) {
                continue;
            }
            let fa = half::f16::from_bits(a).to_f64();
            let fb = half::f16::from_bits(b).to_f64();
            for (name, exact, got) in [
                ("add", fa + fb, add16(a, b, fpm(RNE, 3))),
                ("mul", fa * fb, mul16(a, b, fpm(RNE, 3))),
            ] {
                let want = half::f16::from_f64(exact).to_bits();
                // half gives +0 for exact zeros; the sign rule is tested above.
                if exact != 0.0 {
                    assert_eq!(got, want, "{name} {a:#06x} {b:#06x}");
                }
            }
            let exact = fa + fb;
            let up = add16(a, b, fpm(RU, 3));
            let down = add16(a, b, fpm(RD, 3));
            let fu = half::f16::from_bits(up).to_f64();
            let fd = half::f16::from_bits(down).to_f64();
            assert!(fu >= exact && fd <= exact, "{a:#06x} + {b:#06x}");
            if finite(down) && exact != 0.0 {
                // Nothing representable lies between down and the exact sum.
                assert!(next_up(down) > exact || fd == exact, "{a:#06x} + {b:#06x}");
            }
        }
    }
}

#[test]
fn unary_bits() {
    let n = fpm(RNE, 3);
    let cases: &[(Un, u16, u16)] = &[
        (Un::Rcp, 0x4000, 0x3800), // 1/2
        (Un::Rcp, 0x0000, 0x7c00),
        (Un::Rcp, 0x8000, 0xfc00),
        (Un::Rcp, 0xfc00, 0x8000),
        (Un::Sqrt, 0x4400, 0x4000), // sqrt 4 = 2
        (Un::Sqrt, 0xbc00, 0xfe00),
        (Un::Sqrt, 0x8000, 0x8000),
        (Un::Rsq, 0x4400, 0x3800), // 1/sqrt 4
        (Un::Rsq, 0x0000, 0x7c00),
        (Un::Log, 0x4800, 0x4200), // log2 8 = 3
        (Un::Log, 0x0000, 0xfc00),
        (Un::Log, 0xbc00, 0xfe00),
        (Un::Exp, 0x4200, 0x4800), // 2^3
        (Un::Exp, 0xfc00, 0x0000),
        (Un::Sin, 0x3400, 0x3c00), // sin(0.25 rev) = 1
        (Un::Cos, 0x3800, 0xbc00), // cos(0.5 rev) = -1
        (Un::Sin, 0x4000, 0x0000), // out of range
        (Un::Cos, 0x4000, 0x3c00),
        (Un::Sin, 0x7c00, 0xfe00),
        (Un::FrexpMant, 0x4600, 0x3a00), // 6 = 0.75 * 2^3
        (Un::FrexpMant, 0x8001, 0xb800), // -2^-24 = -0.5 * 2^-23
        (Un::FrexpMant, 0xfc00, 0xfc00),
        (Un::Floor, 0xbe00, 0xc000), // floor -1.5 = -2
        (Un::Ceil, 0x3e00, 0x4000),
        (Un::Ceil, 0xb800, 0x8000), // ceil -0.5 = -0
        (Un::Trunc, 0xbe00, 0xbc00),
        (Un::Rndne, 0x4100, 0x4000), // 2.5 -> 2
        (Un::Rndne, 0x4300, 0x4400), // 3.5 -> 4
        (Un::Fract, 0xb400, 0x3a00), // fract -0.25 = 0.75
        (Un::Fract, 0x8001, 0x3bff), // 1 - 2^-24 stays below 1
        (Un::Fract, 0x7c00, 0x7e00),
        (Un::Floor, 0x7d00, 0x7f00),
    ];
    for &(u, x, want) in cases {
        assert_eq!(unary16(u, x, n), want, "{u:?} {x:#06x}");
    }
    assert_eq!(frexp_exp16(0x4600), 3);
    assert_eq!(frexp_exp16(0x0001), (-23i16) as u16);
    assert_eq!(frexp_exp16(0x7c00), 0);
    assert_eq!(ldexp16(0x3c00, 3, n), 0x4800);
    assert_eq!(ldexp16(0x3c00, -24, n), 0x0001);
    assert_eq!(ldexp16(0x3c00, -25, n), 0x0000);
    assert_eq!(ldexp16(0x3c00, -25, fpm(RU, 3)), 0x0001);
    assert_eq!(ldexp16(0x3c00, 16, n), 0x7c00);
    assert_eq!(ldexp16(0x3c00, i32::MAX, n), 0x7c00);
    assert_eq!(div_fixup16(0x4000, 0x0000, 0x3c00), 0x7c00);
    assert_eq!(div_fixup16(0x4000, 0x8000, 0x3c00), 0xfc00);
    assert_eq!(div_fixup16(0x4000, 0x0000, 0x0000), 0x7e00);
    assert_eq!(div_fixup16(0x4000, 0x7c00, 0xfc00), 0xfe00);
    assert_eq!(div_fixup16(0x4000, 0xfc00, 0x3c00), 0x8000);
    assert_eq!(div_fixup16(0x7e00, 0x3c00, 0x3c00), 0x7c00);
    assert_eq!(div_fixup16(0x4000, 0x7d00, 0x3c00), 0x7f00);
    assert_eq!(div_fixup16(0x3555, 0x4200, 0x3c00), 0x3555);
    assert_eq!(max16(0x3c00, 0x7e00, n), 0x3c00);
    assert_eq!(min16(0x7e00, 0xbc00, n), 0xbc00);
    assert_eq!(min16(0x0000, 0x8000, n), 0x8000);
    assert_eq!(max16(0x8000, 0x0000, n), 0x0000);
    let ieee = FpMode { ieee: true, ..n };
    assert_eq!(max16(0x3c00, 0x7d00, ieee), 0x7f00);
    assert_eq!(med3_16(0x3c00, 0x4200, 0x4000, n), 0x4000);
    assert_eq!(med3_16(0x3c00, 0x4000, 0x4000, n), 0x4000);
    assert_eq!(med3_16(0x7e00, 0x4200, 0x4000, n), 0x4000);
    assert_eq!(class_bit16(0x7c00), 1 << 9);
    assert_eq!(class_bit16(0x7d00), 1 << 0);
    assert_eq!(class_bit16(0x7e00), 1 << 1);
    assert_eq!(class_bit16(0x8001), 1 << 4);
    assert_eq!(class_bit16(0x8000), 1 << 5);
    assert_eq!(class_bit16(0x3c00), 1 << 8);
}

/// Sets `v1` (`v2`, `v3`) of every lane.
fn regs(vals: &[(usize, u32)]) -> impl FnOnce(&mut Wave) + '_ {
    move |w| {
        for &(r, v) in vals {
            w.vgpr[r] = [v; WAVE_SIZE];
        }
    }
}

/// Runs `src` on `version` with the registers and MODE set; returns lane 0
/// of `out`.
fn lane0(version: GcnVersion, src: &str, vals: &[(usize, u32)], md: u32, out: usize) -> u32 {
    let w = run(version, src, |w| {
        regs(vals)(w);
        w.mode = md;
    });
    w.vgpr[out][0]
}

#[test]
fn vop2_vop1_rows_in_the_emulator() {
    // (source, v1, v2, mode, v3 after); v3 starts as 0xdead_beef: on GCN
    // 1.2 and 1.4 the upper half of a 16-bit result is zeroed.
    let cases: &[(&str, u32, u32, u32, u32)] = &[
        ("v_add_f16 v3, v1, v2", 0x3c00, 0x4000, 0xf0, 0x4200),
        ("v_sub_f16 v3, v1, v2", 0x3c00, 0x4000, 0xf0, 0xbc00),
        ("v_subrev_f16 v3, v1, v2", 0x3c00, 0x4000, 0xf0, 0x3c00),
        ("v_mul_f16 v3, v1, v2", 0x3e00, 0x3e00, 0xf0, 0x4080),
        ("v_max_f16 v3, v1, v2", 0x7e00, 0xc000, 0xf0, 0xc000),
        ("v_min_f16 v3, v1, v2", 0x3c00, 0xc000, 0xf0, 0xc000),
        ("v_ldexp_f16 v3, v1, v2", 0x3c00, 0xfffd, 0xf0, 0x3000), // 2^-3
        ("v_add_f16 v3, 1.0, v2", 0, 0x3c00, 0xf0, 0x4000),       // inline constant
        ("v_add_f16 v3, 0x3800, v2", 0, 0x3c00, 0xf0, 0x3e00),    // literal 0.5
        ("v_add_f16 v3, v1, v2", 0x0001, 0x0001, 0x70, 0x0000),   // output flush
        ("v_add_f16 v3, v1, v2", 0x3c00, 0x1200, 0xf4, 0x3c01),   // round up
        ("v_add_f16 v3, v1, v2 clamp", 0x4000, 0x4000, 0xf0, 0x3c00),
        (
            "v_add_f16 v3, v1, v2 clamp",
            0xc000,
            0x4000 | 0x8000,
            0xf0,
            0,
        ),
        ("v_add_f16 v3, v1, v2 mul:2", 0x3c00, 0x3c00, 0x70, 0x4400),
        ("v_add_f16 v3, v1, v2 mul:2", 0x3c00, 0x3c00, 0xf0, 0x4000), // omod off
        ("v_add_f16 v3, -v1, |v2|", 0x3c00, 0xc000, 0xf0, 0x3c00),
        ("v_cvt_f16_f32 v3, v1", 0x3f80_0000, 0, 0xf0, 0x3c00),
        ("v_cvt_f16_f32 v3, v1", 0x477f_f000, 0, 0xf0, 0x7c00), // 65520
        ("v_cvt_f16_f32 v3, v1", 0x477f_f000, 0, 0xff, 0x7bff), // ... RZ
        ("v_cvt_f16_f32 v3, v1", 0x3f80_1001, 0, 0xf0, 0x3c01),
        ("v_cvt_f16_f32 v3, v1", 0x3300_0000, 0, 0xf0, 0x0000), // 2^-25 tie
        ("v_cvt_f16_f32 v3, v1", 0x3340_0000, 0, 0xf0, 0x0001), // 1.5*2^-25
        ("v_cvt_f16_f32 v3, v1", 0x7fc0_0000, 0, 0xf0, 0x7e00),
        ("v_cvt_f32_f16 v3, v1", 0x3c00, 0, 0xf0, 0x3f80_0000),
        ("v_cvt_f32_f16 v3, v1", 0x0001, 0, 0xf0, 0x3380_0000),
        ("v_cvt_f32_f16 v3, v1", 0xfc00, 0, 0xf0, 0xff80_0000),
        ("v_cvt_f16_u16 v3, v1", 0xffff, 0, 0xf0, 0x7c00),
        ("v_cvt_f16_u16 v3, v1", 2049, 0, 0xf0, 0x6800),
        ("v_cvt_f16_i16 v3, v1", 0xffff, 0, 0xf0, 0xbc00),
        ("v_cvt_u16_f16 v3, v1", 0x4100, 0, 0xf0, 2),
        ("v_cvt_u16_f16 v3, v1", 0x7c00, 0, 0xf0, 0xffff),
        ("v_cvt_u16_f16 v3, v1", 0x7e00, 0, 0xf0, 0),
        ("v_cvt_i16_f16 v3, v1", 0xc100, 0, 0xf0, 0xfffe),
        ("v_cvt_i16_f16 v3, v1", 0xfc00, 0, 0xf0, 0x8000),
        ("v_rcp_f16 v3, v1", 0x4000, 0, 0xf0, 0x3800),
        ("v_sqrt_f16 v3, v1", 0x4400, 0, 0xf0, 0x4000),
        ("v_rsq_f16 v3, v1", 0x4400, 0, 0xf0, 0x3800),
        ("v_log_f16 v3, v1", 0x4800, 0, 0xf0, 0x4200),
        ("v_exp_f16 v3, v1", 0x4200, 0, 0xf0, 0x4800),
        ("v_sin_f16 v3, v1", 0x3400, 0, 0xf0, 0x3c00),
        ("v_cos_f16 v3, v1", 0x3800, 0, 0xf0, 0xbc00),
        ("v_frexp_mant_f16 v3, v1", 0x4600, 0, 0xf0, 0x3a00),
        ("v_frexp_exp_i16_f16 v3, v1", 0x4600, 0, 0xf0, 3),
        ("v_floor_f16 v3, v1", 0xbe00, 0, 0xf0, 0xc000),
        ("v_ceil_f16 v3, v1", 0xb800, 0, 0xf0, 0x8000),
        ("v_trunc_f16 v3, v1", 0xbe00, 0, 0xf0, 0xbc00),
        ("v_rndne_f16 v3, v1", 0x4100, 0, 0xf0, 0x4000),
        ("v_fract_f16 v3, v1", 0xb400, 0, 0xf0, 0x3a00),
        ("v_mac_f16 v3, v1, v2", 0x4000, 0x4200, 0xf0, 0x4800), // 2*3 + 2 (v3 = 0x4000)
        (
            "v_madmk_f16 v3, v1, 0x4200, v2",
            0x4000,
            0x3c00,
            0xf0,
            0x4700,
        ), // 2*3 + 1
        (
            "v_madak_f16 v3, v1, v2, 0x4200",
            0x4000,
            0x3c00,
            0xf0,
            0x4500,
        ), // 2*1 + 3
    ];
    for &(src, a, b, md, want) in cases {
        let mnemonic = src.split_whitespace().next().unwrap();
        for v in versions_with(mnemonic) {
            let init = if mnemonic == "v_mac_f16" {
                0xdead_4000
            } else {
                0xdead_beef
            };
            let got = lane0(v, src, &[(1, a), (2, b), (3, init)], md, 3);
            assert_eq!(got, want, "{src} on {v}: {got:#x}");
        }
    }
}

#[test]
fn gcn10_cvt_f16_f32_rounds_per_the_f32_mode() {
    for v in [GcnVersion::Gcn1_0, GcnVersion::Gcn1_1] {
        // f32 round mode towards zero (bits 0-1), f16 field nearest.
        let got = lane0(v, "v_cvt_f16_f32 v3, v1", &[(1, 0x477f_f000)], 0x03, 3);
        assert_eq!(got, 0x7bff);
        // Denormals kept whatever bits 6-7 say.
        let got = lane0(v, "v_cvt_f32_f16 v3, v1", &[(1, 0x0001)], 0x00, 3);
        assert_eq!(got, 0x3380_0000);
    }
    let got = lane0(
        GcnVersion::Gcn1_2,
        "v_cvt_f32_f16 v3, v1",
        &[(1, 0x0001)],
        0x30,
        3,
    );
    assert_eq!(got, 0);
}

#[test]
fn op_sel_and_the_upper_half() {
    let v = GcnVersion::Gcn1_4;
    let vals = [(1, 0x4000_3c00), (2, 0x4200_3800), (3, 0xdead_beef)];
    // hi(v1) + lo(v2) = 2 + 0.5 into the upper half; the lower is kept.
    let got = lane0(v, "v_add_f16 v3, v1, v2 op_sel:[1,0,1]", &vals, 0xf0, 3);
    assert_eq!(got, 0x4100_beef);
    // No op_sel on GCN 1.4: the upper half is zeroed ...
    let got = lane0(v, "v_add_f16_e64 v3, v1, v2", &vals, 0xf0, 3);
    assert_eq!(got, 0x0000_3e00);
    // ... except by the GCN 1.4 v_fma_f16/v_mad_f16/v_div_fixup_f16:
    // 1 * 0.5 + 1 = 1.5 into the lower half, the upper kept.
    for (src, want) in [
        ("v_fma_f16 v3, v1, v2, v1", 0xdead_3e00),
        ("v_mad_f16 v3, v1, v2, v1", 0xdead_3e00),
        ("v_fma_legacy_f16 v3, v1, v2, v1", 0x0000_3e00),
        ("v_mad_legacy_f16 v3, v1, v2, v1", 0x0000_3e00),
        ("v_div_fixup_f16 v3, v2, v1, v1", 0xdead_3800),
        ("v_div_fixup_legacy_f16 v3, v2, v1, v1", 0x0000_3800),
        // Three-source op_sel: hi(v1) * lo(v2) + hi(v2) = 2*0.5 + 3 = 4.
        ("v_fma_f16 v3, v1, v2, v2 op_sel:[1,0,1,1]", 0x4400_beef),
        ("v_max3_f16 v3, v1, v2, v2 op_sel:[0,1,0,0]", 0x0000_4200),
        ("v_min3_f16 v3, v1, v2, v2 op_sel:[1,0,0,0]", 0x0000_3800),
        ("v_med3_f16 v3, v1, v2, v2 op_sel:[1,1,0,0]", 0x0000_4000),
        ("v_pack_b32_f16 v3, v1, -v2 op_sel:[1,1]", 0xc200_4000),
        // v_mac_f16 accumulates into the half it writes: 0xdead as f16 is
        // -427.25 (2^8 * (1 + 0x2ad/1024)), + 1 * 0.5 = -426.75 = 0xdeab.
        ("v_mac_f16_e64 v3, v1, v2 op_sel:[0,0,1]", 0xdeab_beef),
        ("v_cvt_pknorm_i16_f16 v3, v1, -v1", 0x8001_7fff),
        ("v_cvt_pknorm_u16_f16 v3, v2, v1", 0xffff_8000),
        ("v_cvt_f32_f16 v3, v1 op_sel:[1,0]", 0x4000_0000),
        ("v_cvt_f16_f32 v3, v2 op_sel:[0,1]", 0x4200_beef), // 3.0 from 0x4040_0000
    ] {
        let vals = [(1, 0x4000_3c00), (2, 0x4200_3800), (3, 0xdead_beef)];
        let vals2 = [(1, 0x4000_3c00), (2, 0x4040_0000), (3, 0xdead_beef)];
        let vals = if src.starts_with("v_cvt_f16_f32") {
            &vals2[..]
        } else {
            &vals[..]
        };
        let got = lane0(v, src, vals, 0xf0, 3);
        assert_eq!(got, want, "{src}: {got:#x}");
    }
    // GCN 1.2 zeroes the upper half of v_fma_f16 and v_mad_f16 too.
    for src in ["v_fma_f16 v3, v1, v2, v1", "v_mad_f16 v3, v1, v2, v1"] {
        let vals = [(1, 0x4000_3c00), (2, 0x4200_3800), (3, 0xdead_beef)];
        assert_eq!(
            lane0(GcnVersion::Gcn1_2, src, &vals, 0xf0, 3),
            0x3e00,
            "{src}"
        );
    }
}

#[test]
fn sdwa_dpp_and_exec() {
    for v in [GcnVersion::Gcn1_2, GcnVersion::Gcn1_4] {
        let vals = [(1, 0x4000_3c00), (2, 0x4200_3800), (3, 0xdead_beef)];
        // hi(v1) + hi(v2) = 5 into the upper word, the lower preserved.
        let src = "v_add_f16_sdwa v3, v1, v2 dst_sel:word1 dst_unused:preserve src0_sel:word1 src1_sel:word1";
        assert_eq!(lane0(v, src, &vals, 0xf0, 3), 0x4500_beef, "{v}");
        // Padding with zeros into the low word.
        let src = "v_mul_f16_sdwa v3, v1, v2 dst_sel:word0 src0_sel:word1 src1_sel:word0";
        assert_eq!(lane0(v, src, &vals, 0xf0, 3), 0x3c00, "{v}");
        // DPP: each lane reads src0 of its quad neighbour (quad_perm 1,0,3,2).
        let w = run(
            v,
            "v_add_f16_dpp v3, v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
            |w| {
                for l in 0..WAVE_SIZE {
                    w.vgpr[1][l] = if l % 2 == 0 { 0x3c00 } else { 0x4000 };
                    w.vgpr[2][l] = 0x3800;
                }
            },
        );
        assert_eq!(w.vgpr[3][0], 0x4100); // 2 + 0.5
        assert_eq!(w.vgpr[3][1], 0x3e00); // 1 + 0.5
                                          // EXEC partly off: inactive lanes keep their value.
        let w = run(v, "v_add_f16 v3, v1, v2", |w| {
            regs(&vals)(w);
            w.set_exec(0x0000_0000_0000_00f0);
        });
        assert_eq!(w.vgpr[3][3], 0xdead_beef);
        assert_eq!(w.vgpr[3][4], 0x3e00);
        assert_eq!(w.vgpr[3][8], 0xdead_beef);
    }
}

#[test]
fn compares_and_class() {
    // (predicate, a, b, result)
    let cases: &[(&str, u16, u16, bool)] = &[
        ("lt", 0x3c00, 0x4000, true),
        ("lt", 0x4000, 0x3c00, false),
        ("lt", 0x7e00, 0x3c00, false),
        ("nge", 0x7e00, 0x3c00, true),
        ("nge", 0x4000, 0x3c00, false),
        ("eq", 0x0000, 0x8000, true),
        ("neq", 0x7e00, 0x7e00, true),
        ("lg", 0x7e00, 0x3c00, false),
        ("lg", 0x4000, 0x3c00, true),
        ("nlg", 0x7e00, 0x3c00, true),
        ("o", 0x7e00, 0x3c00, false),
        ("u", 0x7e00, 0x3c00, true),
        ("le", 0x3c00, 0x3c00, true),
        ("gt", 0x3c00, 0x3c00, false),
        ("ge", 0xfc00, 0xfc00, true),
        ("ngt", 0x3c00, 0x3c00, true),
        ("nle", 0x4000, 0x3c00, true),
        ("nlt", 0x3c00, 0x3c00, true),
        ("f", 0x3c00, 0x3c00, false),
        ("tru", 0x3c00, 0x3c00, true),
        ("t", 0x7e00, 0x3c00, true),
    ];
    for &(p, a, b, want) in cases {
        for x in ["cmp", "cmpx"] {
            let m = format!("v_{x}_{p}_f16");
            for v in versions_with(&m) {
                // Lanes 0-31 active; lane 1 gets swapped operands.
                let w = run(
                    v,
                    &format!("{m} vcc, v1, v2\n{m}_e64 s[8:9], v1, v2"),
                    |w| {
                        w.vgpr[1] = [u32::from(a); WAVE_SIZE];
                        w.vgpr[2] = [u32::from(b); WAVE_SIZE];
                        w.set_exec(0xffff_ffff);
                    },
                );
                let lanes = if want { 0xffff_ffffu64 } else { 0 };
                assert_eq!(w.vcc(), lanes, "{m} {a:#x} {b:#x} on {v}");
                if x == "cmpx" {
                    // The second compare ran on the narrowed EXEC.
                    assert_eq!(w.exec(), lanes, "{m} on {v}");
                    assert_eq!(w.s64(8), lanes, "{m} on {v}");
                } else {
                    assert_eq!(w.s64(8), lanes, "{m} on {v}");
                }
            }
        }
    }
    // Denormal inputs flushed for compares (mode bit 6 clear), not for class.
    let w = run(
        GcnVersion::Gcn1_2,
        "v_cmp_eq_f16 vcc, v1, v2\nv_cmp_class_f16 s[8:9], v1, v3",
        |w| {
            w.vgpr[1] = [0x0001; WAVE_SIZE];
            w.vgpr[3] = [1 << 7; WAVE_SIZE];
            w.mode = 0x30;
        },
    );
    assert_eq!(w.vcc(), u64::MAX);
    assert_eq!(w.s64(8), u64::MAX);
    for v in versions_with("v_cmpx_class_f16") {
        let w = run(v, "v_cmpx_class_f16 vcc, v1, v2", |w| {
            for l in 0..WAVE_SIZE {
                w.vgpr[1][l] = if l < 3 { 0x7c00 } else { 0xfc00 };
            }
            w.vgpr[2] = [(1 << 9) | (1 << 1); WAVE_SIZE];
        });
        assert_eq!(w.exec(), 0b111, "{v}");
        assert_eq!(w.vcc(), 0b111, "{v}");
    }
}

#[test]
fn integer_16bit_results() {
    for v in versions_with("v_cvt_norm_i16_f16") {
        for (src, a, want) in [
            ("v_cvt_norm_i16_f16 v3, v1", 0x3800, 0x4000), // 0.5 * 32767 = 16383.5 -> even 16384
            ("v_cvt_norm_i16_f16 v3, v1", 0xc000, 0x8001), // clamped to -1
            ("v_cvt_norm_u16_f16 v3, v1", 0x3800, 0x8000), // 32767.5 -> 32768
            ("v_cvt_norm_u16_f16 v3, v1", 0xbc00, 0),
            ("v_cvt_norm_u16_f16 v3, v1", 0x7e00, 0),
            ("v_sat_pk_u8_i16 v3, v1", 0x0100_ffff, 0xff00),
            ("v_sat_pk_u8_i16 v3, v1", 0x8000_007f, 0x007f),
        ] {
            assert_eq!(
                lane0(v, src, &[(1, a), (3, 0xdead_beef)], 0xf0, 3),
                want,
                "{src}"
            );
        }
    }
}

#[test]
fn packed_rows() {
    let v = GcnVersion::Gcn1_4;
    // v1 = (lo 1.0, hi 2.0), v2 = (lo 0.5, hi 3.0), v4 = (lo -1, hi 4).
    let f = [
        (1, 0x4000_3c00),
        (2, 0x4200_3800),
        (4, 0x4400_bc00),
        (3, 0xdead_beef),
    ];
    let cases: &[(&str, u32)] = &[
        ("v_pk_add_f16 v3, v1, v2", 0x4500_3e00),
        ("v_pk_mul_f16 v3, v1, v2", 0x4600_3800),
        ("v_pk_fma_f16 v3, v1, v2, v4", 0x4900_b800), // 2*3+4 = 10, 1*0.5-1 = -0.5
        ("v_pk_max_f16 v3, v1, v2", 0x4200_3c00),
        ("v_pk_min_f16 v3, v1, v2", 0x4000_3800),
        // lo = hi(v1) + lo(v2) = 2.5; hi = lo(v1) + hi(v2) = 4
        (
            "v_pk_add_f16 v3, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]",
            0x4400_4100,
        ),
        // neg_lo on src1, neg_hi on src0: lo = 1 - 0.5, hi = -2 + 3
        (
            "v_pk_add_f16 v3, v1, v2 neg_lo:[0,1] neg_hi:[1,0]",
            0x3c00_3800,
        ),
        ("v_pk_add_f16 v3, v1, v2 clamp", 0x3c00_3c00),
        // An inline constant: 1.0 in the low half, 0 in the high half.
        ("v_pk_add_f16 v3, 1.0, v2", 0x4200_3e00),
        ("v_pk_add_f16 v3, 1.0, v2 op_sel_hi:[0,1]", 0x4400_3e00),
    ];
    for &(src, want) in cases {
        assert_eq!(lane0(v, src, &f, 0xf0, 3), want, "{src}");
    }
    let i = [
        (1, 0x8000_7fff),
        (2, 0x0001_0002),
        (4, 0x0003_fffe),
        (3, 0xdead_beef),
    ];
    let cases: &[(&str, u32)] = &[
        ("v_pk_add_u16 v3, v1, v2", 0x8001_8001),
        ("v_pk_add_i16 v3, v1, v2", 0x8001_8001),
        ("v_pk_add_i16 v3, v1, v2 clamp", 0x8001_7fff), // 32767 + 2 saturates
        ("v_pk_add_u16 v3, v1, v1 clamp", 0xffff_fffe),
        ("v_pk_sub_u16 v3, v2, v1 clamp", 0x0000_0000),
        ("v_pk_sub_u16 v3, v2, v1", 0x8001_8003),
        ("v_pk_sub_i16 v3, v1, v2 clamp", 0x8000_7ffd), // -32768 - 1 saturates
        ("v_pk_mul_lo_u16 v3, v1, v2", 0x8000_fffe),
        ("v_pk_mad_u16 v3, v1, v2, v4", 0x8003_fffc),
        ("v_pk_mad_u16 v3, v1, v2, v4 clamp", 0x8003_ffff),
        ("v_pk_mad_i16 v3, v1, v2, v4", 0x8003_fffc),
        ("v_pk_mad_i16 v3, v1, v2, v4 clamp", 0x8003_7fff), // 65534 - 2 -> 32767
        ("v_pk_lshlrev_b16 v3, v2, v1", 0x0000_fffc),
        ("v_pk_lshrrev_b16 v3, v2, v1", 0x4000_1fff),
        ("v_pk_ashrrev_i16 v3, v2, v1", 0xc000_1fff),
        ("v_pk_lshlrev_b16 v3, 17, v2", 0x0001_0004), // shift 17 & 15 = 1; hi shift 0
        ("v_pk_max_i16 v3, v1, v2", 0x0001_7fff),
        ("v_pk_min_i16 v3, v1, v2", 0x8000_0002),
        ("v_pk_max_u16 v3, v1, v2", 0x8000_7fff),
        ("v_pk_min_u16 v3, v1, v2", 0x0001_0002),
        (
            "v_pk_add_u16 v3, v1, v2 op_sel:[1,1] op_sel_hi:[0,0]",
            0x8001_8001,
        ),
    ];
    for &(src, want) in cases {
        assert_eq!(lane0(v, src, &i, 0xf0, 3), want, "{src}");
    }
}

#[test]
fn mix_rows() {
    // v1 = f16 (lo 2.0, hi 3.0), v2 = f32 1.5, v4 = f32 0.25.
    let vals = [
        (1, 0x4200_4000),
        (2, 0x3fc0_0000),
        (4, 0x3e80_0000),
        (3, 0xdead_beef),
    ];
    for v in [GcnVersion::Gcn1_4, GcnVersion::Gcn1_4_1] {
        let mad = if v == GcnVersion::Gcn1_4 {
            "v_mad"
        } else {
            "v_fma"
        };
        let cases: Vec<(String, u32)> = vec![
            // 2.0 * 1.5 + 0.25 = 3.25
            (
                format!("{mad}_mix_f32 v3, v1, v2, v4 op_sel_hi:[1,0,0]"),
                0x4050_0000,
            ),
            // hi: 3.0 * 1.5 + 0.25 = 4.75
            (
                format!("{mad}_mix_f32 v3, v1, v2, v4 op_sel:[1,0,0] op_sel_hi:[1,0,0]"),
                0x4098_0000,
            ),
            // neg_hi is abs: |-1.5| with neg_lo: -(|v2|) -> 2 * -1.5 + 0.25 = -2.75
            (
                format!(
                    "{mad}_mix_f32 v3, v1, v2, v4 op_sel_hi:[1,0,0] neg_lo:[0,1,0] neg_hi:[0,1,0]"
                ),
                0xc030_0000,
            ),
            (
                format!("{mad}_mix_f32 v3, v1, v2, v4 op_sel_hi:[1,0,0] clamp"),
                0x3f80_0000,
            ),
            // mixlo: 4.75 as f16 = 0x44c0 into the low half.
            (
                format!("{mad}_mixlo_f16 v3, v1, v2, v4 op_sel:[1,0,0] op_sel_hi:[1,0,0]"),
                0xdead_44c0,
            ),
            (
                format!("{mad}_mixhi_f16 v3, v1, v2, v4 op_sel:[1,0,0] op_sel_hi:[1,0,0]"),
                0x44c0_beef,
            ),
        ];
        for (src, want) in cases {
            assert_eq!(lane0(v, &src, &vals, 0xf0, 3), want, "{src} on {v}");
        }
    }
    // Fused vs unfused, f32 round to nearest: a = b = 1 + 2^-12 (f32),
    // c = -1: a*b - 1 = 2^-11 + 2^-24; the unfused product rounds to
    // 1 + 2^-11, losing the 2^-24 (the mixlo result differs by one ulp).
    let vals = [(1, 0x3f80_0800), (4, 0xbf80_0000), (3, 0)];
    let fused = lane0(
        GcnVersion::Gcn1_4_1,
        "v_fma_mix_f32 v3, v1, v1, v4 op_sel_hi:[0,0,0]",
        &vals,
        0xf0,
        3,
    );
    let unfused = lane0(
        GcnVersion::Gcn1_4,
        "v_mad_mix_f32 v3, v1, v1, v4 op_sel_hi:[0,0,0]",
        &vals,
        0xf0,
        3,
    );
    assert_eq!(fused, 0x3a00_0400); // 2^-11 * (1 + 2^-13)
    assert_eq!(unfused, 0x3a00_0000); // 2^-11
}

#[test]
fn dot_products_with_clamp() {
    let v = GcnVersion::Gcn1_4_1;
    let cases: &[(&str, u32, u32, u32, u32)] = &[
        // f16: 1*0.5 + 2*3 + 0.25 = 6.75
        (
            "v_dot2_f32_f16 v3, v1, v2, v4",
            0x4000_3c00,
            0x4200_3800,
            0x3e80_0000,
            0x40d8_0000,
        ),
        (
            "v_dot2_f32_f16 v3, v1, v2, v4 clamp",
            0x4000_3c00,
            0x4200_3800,
            0x3e80_0000,
            0x3f80_0000,
        ),
        // neg_lo on src0: -1*0.5 + 2*3 + 0.25 = 5.75
        (
            "v_dot2_f32_f16 v3, v1, v2, v4 neg_lo:[1,0,0]",
            0x4000_3c00,
            0x4200_3800,
            0x3e80_0000,
            0x40b8_0000,
        ),
        // i16: (-2)*3 + 5*7 + 100 = 129
        (
            "v_dot2_i32_i16 v3, v1, v2, v4",
            0x0005_fffe,
            0x0007_0003,
            100,
            129,
        ),
        (
            "v_dot2_i32_i16 v3, v1, v2, v4 clamp",
            0x7fff_7fff,
            0x7fff_7fff,
            0x7fff_ffff,
            0x7fff_ffff,
        ),
        (
            "v_dot2_i32_i16 v3, v1, v2, v4",
            0x7fff_7fff,
            0x7fff_7fff,
            0x7fff_ffff,
            0x7fff_ffffu32.wrapping_add(2 * 0x3fff_0001),
        ),
        (
            "v_dot2_u32_u16 v3, v1, v2, v4",
            0xffff_0002,
            0x0002_0003,
            1,
            0x2_0000 - 2 + 6 + 1,
        ),
        (
            "v_dot2_u32_u16 v3, v1, v2, v4 clamp",
            0xffff_ffff,
            0xffff_ffff,
            0xffff_ffff,
            0xffff_ffff,
        ),
        // i8: (-1)*2 + 3*(-4) + 127*127 + (-128)*(-128) + 0 = 32499
        (
            "v_dot4_i32_i8 v3, v1, v2, v4",
            0x807f_03ff,
            0x807f_fc02,
            0,
            32499,
        ),
        (
            "v_dot4_u32_u8 v3, v1, v2, v4",
            0x0102_0304,
            0x0101_0101,
            10,
            20,
        ),
        (
            "v_dot4_i32_i8 v3, v1, v2, v4 clamp",
            0x8080_8080,
            0x8080_8080,
            0x7fff_0000,
            0x7fff_ffff,
        ),
        // i4: nibbles of 0xf1f1f1f1 are 1, -1, ...; times 0x22222222 (2s): 0
        (
            "v_dot8_i32_i4 v3, v1, v2, v4",
            0xf1f1_f1f1,
            0x2222_2222,
            7,
            7,
        ),
        (
            "v_dot8_i32_i4 v3, v1, v2, v4",
            0x8888_8888,
            0x8888_8888,
            0,
            8 * 64,
        ),
        (
            "v_dot8_u32_u4 v3, v1, v2, v4",
            0x8888_8888,
            0xffff_ffff,
            1,
            8 * 120 + 1,
        ),
        (
            "v_dot8_u32_u4 v3, v1, v2, v4 clamp",
            0xffff_ffff,
            0xffff_ffff,
            0xffff_ff00,
            0xffff_ffff,
        ),
        (
            "v_dot8_i32_i4 v3, v1, v2, v4 clamp",
            0x8888_8888,
            0x7777_7777,
            0x8000_0000,
            0x8000_0000,
        ),
    ];
    for &(src, a, b, c, want) in cases {
        let got = lane0(v, src, &[(1, a), (2, b), (4, c)], 0xf0, 3);
        assert_eq!(got, want, "{src}: {got:#x}");
    }
}

#[test]
fn packed_integer_negation_faults() {
    let memory = crate::memory::Memory::default();
    let s = crate::exec::testing::run_with(
        GcnVersion::Gcn1_4,
        "v_pk_add_u16 v3, v1, v2 neg_lo:[1,0]",
        &memory,
        |_| {},
    );
    assert!(matches!(
        s.fault.map(|f| f.kind),
        Some(FaultKind::NotEmulated(m)) if m.contains("v_pk_add_u16")
    ));
}

/// Rows that have a 16-bit float or packed operand but are not this
/// module's: the VOP3-encoded interpolation rows read attributes (VINTRP
/// semantics, graphics only).
const OUT_OF_SCOPE: &[(&str, &str)] = &[
    ("v_interp_p1ll_f16", "VINTRP (attribute interpolation)"),
    ("v_interp_p1lv_f16", "VINTRP (attribute interpolation)"),
    ("v_interp_p2_f16", "VINTRP (attribute interpolation)"),
    ("v_interp_p2_f16_legacy", "VINTRP (attribute interpolation)"),
    ("v_interp_p2_legacy_f16", "VINTRP (attribute interpolation)"),
];

#[test]
fn every_f16_and_packed_row_has_a_handler() {
    let mut missing = Vec::new();
    for version in crate::exec::EMULATED_VERSIONS {
        for row in INSTRUCTIONS.iter() {
            if row.opcode(version).is_none()
                || !gcn_asm::isa::lookup(row.mnemonic, version)
                    .is_some_and(|r| std::ptr::eq(r, row))
            {
                continue;
            }
            let vector = matches!(
                row.encoding,
                Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc | Encoding::Vop3 | Encoding::Vop3p
            );
            let typed = row.operands.iter().any(|o| {
                matches!(
                    o.ty,
                    DataType::F16 | DataType::PkF16 | DataType::PkI16 | DataType::PkU16
                )
            });
            if !vector || !(typed || row.encoding == Encoding::Vop3p) {
                continue;
            }
            if OUT_OF_SCOPE.iter().any(|(m, _)| *m == row.mnemonic) {
                continue;
            }
            if handler(row, version).is_none() {
                missing.push(format!("{} on {version}", row.mnemonic));
            }
        }
    }
    assert!(missing.is_empty(), "rows without semantics: {missing:?}");
    // The chain in exec::handler reaches them too.
    let c = exec::coverage(GcnVersion::Gcn1_4_1);
    assert!(c.emulated.contains(&"v_dot8_u32_u4"));
}

const GFX10: [GcnVersion; 3] = [GcnVersion::Gcn1_5, GcnVersion::Gcn1_5_1, GcnVersion::Rdna2];

#[test]
fn gfx10_16_bit_results_keep_the_high_half() {
    // v3 starts as 0xdead_beef; 1 + 2 = 3 (0x4200).
    let vals = [(1, 0x3c00), (2, 0x4000), (3, 0xdead_beef)];
    for v in GFX10 {
        let cases: &[(&str, u32)] = &[
            ("v_add_f16 v3, v1, v2", 0xdead_4200),
            ("v_add_f16_e64 v3, v1, v2", 0xdead_4200),
            ("v_add_f16 v3, v1, v2 op_sel:[0,0,1]", 0x4200_beef),
            (
                "v_add_f16_dpp v3, v1, v2 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
                0xdead_4200,
            ),
            // SDWA places the result per dst_sel (UNUSED_PAD zeroes).
            (
                "v_add_f16_sdwa v3, v1, v2 dst_sel:WORD_0 dst_unused:UNUSED_PAD",
                0x4200,
            ),
            ("v_fma_f16 v3, v1, v2, v2", 0xdead_4400),
            ("v_cvt_f16_f32 v3, 1.0", 0xdead_3c00),
        ];
        for &(src, want) in cases {
            assert_eq!(lane0(v, src, &vals, 0xf0, 3), want, "{src} on {v}");
        }
    }
    // GCN 1.4 zeroes it.
    assert_eq!(
        lane0(GcnVersion::Gcn1_4, "v_add_f16 v3, v1, v2", &vals, 0xf0, 3),
        0x4200
    );
}

#[test]
fn gfx10_fused_f16_rows() {
    // v1 = 2.0, v2 = 3.0; v3 = 1.0 in the low half.
    let vals = [(1, 0x4000), (2, 0x4200), (3, 0xdead_3c00)];
    for v in GFX10 {
        let cases: &[(&str, u32)] = &[
            ("v_fmac_f16 v3, v1, v2", 0xdead_4700),
            ("v_fmac_f16_e64 v3, v1, v2", 0xdead_4700),
            ("v_fmamk_f16 v3, v1, 0x4200, v3", 0xdead_4700),
            ("v_fmaak_f16 v3, v1, v2, 0x3c00", 0xdead_4700),
        ];
        for &(src, want) in cases {
            assert_eq!(lane0(v, src, &vals, 0xf0, 3), want, "{src} on {v}");
        }
        // One rounding: (1 + 3*2^-10)^2 - 1 (see `add_sub_mul_fma_bits`).
        let vals = [(1, 0x3c03), (2, 0xbc00), (3, 0xbc00)];
        let cases: &[(&str, u32)] = &[
            ("v_fmac_f16 v3, v1, v1", 0x1e02),
            ("v_fmaak_f16 v3, v1, v1, 0xbc00", 0x1e02),
            ("v_fmamk_f16 v3, v1, 0x3c03, v2", 0x1e02),
        ];
        for &(src, want) in cases {
            assert_eq!(lane0(v, src, &vals, 0xf0, 3) & 0xffff, want, "{src} on {v}");
        }
        // Packed: lo 2*3 + 1, hi 3*2 + 0.5.
        let vals = [(1, 0x4200_4000), (2, 0x4000_4200), (3, 0x3800_3c00)];
        assert_eq!(
            lane0(v, "v_pk_fmac_f16 v3, v1, v2", &vals, 0xf0, 3),
            0x4680_4700,
            "v_pk_fmac_f16 on {v}"
        );
    }
}

#[test]
fn gfx10_mix_rows_are_fused() {
    // As `mix_rows`: v1 = f16 (lo 2.0, hi 3.0), v2 = f32 1.5, v4 = f32 0.25.
    let vals = [
        (1, 0x4200_4000),
        (2, 0x3fc0_0000),
        (4, 0x3e80_0000),
        (3, 0xdead_beef),
    ];
    for v in GFX10 {
        let cases: &[(&str, u32)] = &[
            (
                "v_fma_mix_f32 v3, v1, v2, v4 op_sel_hi:[1,0,0]",
                0x4050_0000,
            ),
            (
                "v_fma_mix_f32 v3, v1, v2, v4 op_sel:[1,0,0] op_sel_hi:[1,0,0]",
                0x4098_0000,
            ),
            (
                "v_fma_mixlo_f16 v3, v1, v2, v4 op_sel:[1,0,0] op_sel_hi:[1,0,0]",
                0xdead_44c0,
            ),
            (
                "v_fma_mixhi_f16 v3, v1, v2, v4 op_sel:[1,0,0] op_sel_hi:[1,0,0]",
                0x44c0_beef,
            ),
        ];
        for &(src, want) in cases {
            assert_eq!(lane0(v, src, &vals, 0xf0, 3), want, "{src} on {v}");
        }
        let vals = [(1, 0x3f80_0800), (4, 0xbf80_0000), (3, 0)];
        assert_eq!(
            lane0(
                v,
                "v_fma_mix_f32 v3, v1, v1, v4 op_sel_hi:[0,0,0]",
                &vals,
                0xf0,
                3
            ),
            0x3a00_0400,
            "{v}: one rounding"
        );
    }
}

#[test]
fn gfx1011_accumulating_dot_products() {
    for v in [GcnVersion::Gcn1_5_1, GcnVersion::Rdna2] {
        // 1*0.5 + 2*3 + 0.25 = 6.75, the accumulator in v3.
        let vals = [(1, 0x4000_3c00), (2, 0x4200_3800), (3, 0x3e80_0000)];
        assert_eq!(
            lane0(v, "v_dot2c_f32_f16 v3, v1, v2", &vals, 0xf0, 3),
            0x40d8_0000,
            "v_dot2c_f32_f16 on {v}"
        );
        // Signed bytes [1, -2, 3, -4] . [5, 6, -7, 8] = -60, plus 100.
        let vals = [(1, 0xfc03_fe01), (2, 0x08f9_0605), (3, 100)];
        assert_eq!(
            lane0(v, "v_dot4c_i32_i8 v3, v1, v2", &vals, 0xf0, 3),
            40,
            "{v}"
        );
        // The sum wraps (no clamp in VOP2).
        let vals = [(1, 0x7f), (2, 0x7f), (3, 0x7fff_ffff)];
        assert_eq!(
            lane0(v, "v_dot4c_i32_i8 v3, v1, v2", &vals, 0xf0, 3),
            0x7fff_ffffu32.wrapping_add(127 * 127),
            "{v}"
        );
    }
    // GCN 1.5 (gfx1010) has no dot instructions.
    assert!(gcn_asm::isa::lookup("v_dot2c_f32_f16", GcnVersion::Gcn1_5).is_none());
}
