//! Vector ALU, 32- and 64-bit floating point: arithmetic, conversions,
//! transcendental approximations, class tests and float compares (every
//! VOP2, VOP1, VOPC and VOP3 row with f32/f64 operands and no f16 operand;
//! rows with an f16 operand belong to [`super::valu_f16`]).
//!
//! Semantics follow the `Operation:` text of `GcnInstrsVop2.md`,
//! `GcnInstrsVop1.md`, `GcnInstrsVopc.md` and `GcnInstrsVop3.md`; the MODE
//! register's rounding and denormal rules come from [`super::float`]: each
//! handler reads MODE once and runs all 64 lanes on the native path (round
//! to nearest even) or the soft-float path (directed rounding). Where an
//! `Operation:` text is evidently garbled (a condition inverted, a NaN
//! falling into a numeric branch) the handler's doc comment says what it
//! does instead.
//!
//! Approximate instructions (`v_rcp`, `v_rsq`, `v_sqrt`, `v_exp`, `v_log`,
//! `v_sin`, `v_cos` and their variants) are computed in f64 (or exactly)
//! and rounded once, so they are well within the accuracy the ISA
//! documents for each (stated in each handler's comment).

use std::array::from_fn;

use gcn_asm::isa::InstrRow;
use gcn_asm::isa::Mnemonic as M;
use gcn_asm::GcnVersion;

use super::float::{
    self, flush_f32, flush_f32_bits, frexp_f32, frexp_f64, is_snan_f32, is_snan_f64, ldexp_f32,
    ldexp_f64, quiet_f32, quiet_f64, FpMode, RoundMode, MODE_IEEE,
};
use super::vector::{
    mask_of, src_f32, src_f64, src_u32, stream2, streams, write_f32, write_f64, write_mask,
    write_sdst_mask, write_u32, Lanes, Stream, CHUNK,
};
use super::{h, Env, Fault, Handler, Op, Step, Wave, WAVE_SIZE};

type F32s = [f32; WAVE_SIZE];
type F64s = [f64; WAVE_SIZE];
type HResult = Result<Step, Fault>;

/// The canonical quiet NaN and its negative (`NAN`, `-NAN` of the docs).
const NAN32: u32 = 0x7fc0_0000;
const NEG_NAN32: u32 = 0xffc0_0000;
const NAN64: u64 = 0x7ff8_0000_0000_0000;
const NEG_NAN64: u64 = 0xfff8_0000_0000_0000;

/// A quiet NaN with the sign of `x` (`NAN * SIGN(x)`).
fn signed_nan32(x: f32) -> f32 {
    f32::from_bits(NAN32 | (x.to_bits() & 0x8000_0000))
}

fn signed_nan64(x: f64) -> f64 {
    f64::from_bits(NAN64 | (x.to_bits() & (1 << 63)))
}

/// The VGPR destination's current 32-bit lanes (the accumulator of
/// `v_mac*`, the bytes `v_cvt_pkaccum_u8_f32` keeps).
fn old_vdst(w: &Wave, op: &Op) -> Lanes {
    w.vgpr[op.vdst_row()]
}

// ---------------------------------------------------------------------------
// Lane loops honouring MODE.

/// `D = f(S0, S1)` on f32 with input/output denormals per `m` and the
/// round mode chosen once for all lanes.
#[inline]
fn arith2_f32(w: &mut Wave, op: &Op, m: FpMode, f: impl Fn(f32, f32, RoundMode) -> f32) {
    if m.round == RoundMode::NearestEven && streams(op) {
        let (a, b) = (Stream::of(w, op, 0), Stream::of(w, op, 1));
        let dst = op.vdst_row();
        let exec = w.exec();
        let (keep_in, keep_out) = (u32::from(m.keep_in), u32::from(m.keep_out));
        let lane = |x: u32, y: u32| {
            let x = f32::from_bits(flush_f32_bits(x, keep_in));
            let y = f32::from_bits(flush_f32_bits(y, keep_in));
            let r = float::nan2_f32(x, y, f(x, y, RoundMode::NearestEven));
            flush_f32_bits(r.to_bits(), keep_out)
        };
        stream2(w, dst, a, b, exec, |_, a, b| {
            (from_fn(|l| lane(a[l], b[l])), [0; CHUNK])
        });
        return;
    }
    let mut a = src_f32(w, op, 0);
    let mut b = src_f32(w, op, 1);
    m.inputs_f32(&mut a);
    m.inputs_f32(&mut b);
    let mut r: F32s = if m.round == RoundMode::NearestEven {
        from_fn(|l| float::nan2_f32(a[l], b[l], f(a[l], b[l], RoundMode::NearestEven)))
    } else {
        from_fn(|l| float::nan2_f32(a[l], b[l], f(a[l], b[l], m.round)))
    };
    m.outputs_f32(&mut r);
    write_f32(w, op, &r);
}

/// `D = f(S0, S1, S2)` on f32 (see [`arith2_f32`]); `c` is S2's lanes.
#[inline]
fn arith3_f32(
    w: &mut Wave,
    op: &Op,
    m: FpMode,
    mut c: F32s,
    f: impl Fn(f32, f32, f32, RoundMode) -> f32,
) {
    let mut a = src_f32(w, op, 0);
    let mut b = src_f32(w, op, 1);
    m.inputs_f32(&mut a);
    m.inputs_f32(&mut b);
    m.inputs_f32(&mut c);
    let nan = float::nan3_f32;
    let mut r: F32s = if m.round == RoundMode::NearestEven {
        from_fn(|l| {
            nan(
                a[l],
                b[l],
                c[l],
                f(a[l], b[l], c[l], RoundMode::NearestEven),
            )
        })
    } else {
        from_fn(|l| nan(a[l], b[l], c[l], f(a[l], b[l], c[l], m.round)))
    };
    m.outputs_f32(&mut r);
    write_f32(w, op, &r);
}

/// `D = fma(S0, S1, c)` on f32: the host's FMA instructions in round to
/// nearest (see [`super::vector::fma_f32_lanes_into`]), soft-float otherwise.
#[inline]
fn fused_f32(w: &mut Wave, op: &Op, m: FpMode, c: &mut F32s) {
    if m.round != RoundMode::NearestEven {
        return arith3_f32(w, op, m, *c, float::fma_f32);
    }
    // Operands are filled in place: 256-byte arrays returned by value cost
    // more than the arithmetic.
    let mut a = [0f32; WAVE_SIZE];
    let mut b = [0f32; WAVE_SIZE];
    super::vector::src_f32_into(w, op, 0, &mut a);
    super::vector::src_f32_into(w, op, 1, &mut b);
    m.inputs_f32(&mut a);
    m.inputs_f32(&mut b);
    m.inputs_f32(c);
    let mut r = [0f32; WAVE_SIZE];
    super::vector::fma_f32_lanes_into(&a, &b, c, &mut r);
    m.outputs_f32(&mut r);
    write_f32(w, op, &r);
}

/// `D = fma(S0, S1, S2)` on f64 (see [`fused_f32`]).
#[inline]
fn fused_f64(w: &mut Wave, op: &Op) {
    let m = FpMode::f64(w.mode);
    if m.round != RoundMode::NearestEven {
        return arith3_f64(w, op, float::fma_f64);
    }
    let mut a = src_f64(w, op, 0);
    let mut b = src_f64(w, op, 1);
    let mut c = src_f64(w, op, 2);
    m.inputs_f64(&mut a);
    m.inputs_f64(&mut b);
    m.inputs_f64(&mut c);
    let mut r = super::vector::fma_f64_lanes(&a, &b, &c);
    m.outputs_f64(&mut r);
    write_f64(w, op, &r);
}

/// `round` for the rounding-to-integral rows: a NaN comes back quieted, as
/// the hardware's (and the host's rounding instructions) give it; Rust's
/// `floor`, `ceil`, `trunc` and `round_ties_even` return it as it is.
fn integral_f32(round: fn(f32) -> f32) -> impl Fn(f32) -> f32 {
    move |x| if x.is_nan() { quiet_f32(x) } else { round(x) }
}

/// [`integral_f32`] on f64.
fn integral_f64(round: fn(f64) -> f64) -> impl Fn(f64) -> f64 {
    move |x| if x.is_nan() { quiet_f64(x) } else { round(x) }
}

/// `D = f(S0)` on f32: inputs flushed when `flush_in` or the mode says so,
/// outputs per the mode.
#[inline]
fn unary_f32(w: &mut Wave, op: &Op, flush_in: bool, f: impl Fn(f32) -> f32) {
    let m = FpMode::f32(w.mode);
    let mut a = src_f32(w, op, 0);
    if flush_in || !m.keep_in {
        a.iter_mut().for_each(|x| *x = flush_f32(*x));
    }
    let mut r: F32s = a.map(f);
    m.outputs_f32(&mut r);
    write_f32(w, op, &r);
}

/// `D = f(S0, S1)` on f64 (see [`arith2_f32`]).
#[inline]
fn arith2_f64(w: &mut Wave, op: &Op, f: impl Fn(f64, f64, RoundMode) -> f64) {
    let m = FpMode::f64(w.mode);
    let mut a = src_f64(w, op, 0);
    let mut b = src_f64(w, op, 1);
    m.inputs_f64(&mut a);
    m.inputs_f64(&mut b);
    let mut r: F64s = if m.round == RoundMode::NearestEven {
        from_fn(|l| f(a[l], b[l], RoundMode::NearestEven))
    } else {
        from_fn(|l| f(a[l], b[l], m.round))
    };
    m.outputs_f64(&mut r);
    write_f64(w, op, &r);
}

/// `D = f(S0, S1, S2)` on f64.
#[inline]
fn arith3_f64(w: &mut Wave, op: &Op, f: impl Fn(f64, f64, f64, RoundMode) -> f64) {
    let m = FpMode::f64(w.mode);
    let mut a = src_f64(w, op, 0);
    let mut b = src_f64(w, op, 1);
    let mut c = src_f64(w, op, 2);
    m.inputs_f64(&mut a);
    m.inputs_f64(&mut b);
    m.inputs_f64(&mut c);
    let mut r: F64s = if m.round == RoundMode::NearestEven {
        from_fn(|l| f(a[l], b[l], c[l], RoundMode::NearestEven))
    } else {
        from_fn(|l| f(a[l], b[l], c[l], m.round))
    };
    m.outputs_f64(&mut r);
    write_f64(w, op, &r);
}

/// `D = f(S0)` on f64 with denormals per the mode.
#[inline]
fn unary_f64(w: &mut Wave, op: &Op, f: impl Fn(f64) -> f64) {
    let m = FpMode::f64(w.mode);
    let mut a = src_f64(w, op, 0);
    m.inputs_f64(&mut a);
    let mut r: F64s = a.map(f);
    m.outputs_f64(&mut r);
    write_f64(w, op, &r);
}

/// An f32 source converted to an integer result.
#[inline]
fn f32_to_int(w: &mut Wave, op: &Op, f: impl Fn(f32) -> u32) {
    let m = FpMode::f32(w.mode);
    let mut a = src_f32(w, op, 0);
    m.inputs_f32(&mut a);
    write_u32(w, op, &a.map(f));
}

/// An f64 source converted to a 32-bit integer result.
#[inline]
fn f64_to_int(w: &mut Wave, op: &Op, f: impl Fn(f64) -> u32) {
    let m = FpMode::f64(w.mode);
    let mut a = src_f64(w, op, 0);
    m.inputs_f64(&mut a);
    write_u32(w, op, &a.map(f));
}

// ---------------------------------------------------------------------------
// Shared scalar semantics.

/// `MIN` of the docs: the smaller value, -0 below +0; a NaN operand gives
/// the other one, except that with MODE.IEEE a signalling NaN gives its
/// quiet form.
#[inline]
fn min32(a: f32, b: f32, ieee: bool) -> f32 {
    if a.is_nan() || b.is_nan() {
        return nan_pick32(a, b, ieee);
    }
    if a < b {
        a
    } else if b < a {
        b
    } else {
        f32::from_bits(a.to_bits() | b.to_bits())
    }
}

/// `MAX` of the docs (see [`min32`]); +0 above -0.
#[inline]
fn max32(a: f32, b: f32, ieee: bool) -> f32 {
    if a.is_nan() || b.is_nan() {
        return nan_pick32(a, b, ieee);
    }
    if a > b {
        a
    } else if b > a {
        b
    } else {
        f32::from_bits(a.to_bits() & b.to_bits())
    }
}

#[cold]
fn nan_pick32(a: f32, b: f32, ieee: bool) -> f32 {
    if ieee && is_snan_f32(a) {
        quiet_f32(a)
    } else if ieee && is_snan_f32(b) {
        quiet_f32(b)
    } else if a.is_nan() && b.is_nan() {
        quiet_f32(a)
    } else if a.is_nan() {
        b
    } else {
        a
    }
}

#[inline]
fn min64(a: f64, b: f64, ieee: bool) -> f64 {
    if a.is_nan() || b.is_nan() {
        return nan_pick64(a, b, ieee);
    }
    if a < b {
        a
    } else if b < a {
        b
    } else {
        f64::from_bits(a.to_bits() | b.to_bits())
    }
}

#[inline]
fn max64(a: f64, b: f64, ieee: bool) -> f64 {
    if a.is_nan() || b.is_nan() {
        return nan_pick64(a, b, ieee);
    }
    if a > b {
        a
    } else if b > a {
        b
    } else {
        f64::from_bits(a.to_bits() & b.to_bits())
    }
}

#[cold]
fn nan_pick64(a: f64, b: f64, ieee: bool) -> f64 {
    if ieee && is_snan_f64(a) {
        quiet_f64(a)
    } else if ieee && is_snan_f64(b) {
        quiet_f64(b)
    } else if a.is_nan() && b.is_nan() {
        quiet_f64(a)
    } else if a.is_nan() {
        b
    } else {
        a
    }
}

/// `v_med3_f32` per the docs: a NaN operand makes it the MIN of the other
/// two, else the median (with -0 below +0, as MIN and MAX order them; the
/// docs' pseudo-code returns S0 when S1 equals S2, which is not the median
/// the hardware computes through MAX3).
fn med3(a: f32, b: f32, c: f32, ieee: bool) -> f32 {
    if ieee {
        for x in [a, b, c] {
            if is_snan_f32(x) {
                return quiet_f32(x);
            }
        }
    }
    if a.is_nan() {
        min32(b, c, ieee)
    } else if b.is_nan() {
        min32(a, c, ieee)
    } else if c.is_nan() {
        min32(a, b, ieee)
    } else {
        max32(min32(a, b, ieee), min32(max32(a, b, ieee), c, ieee), ieee)
    }
}

/// The non-fused multiply-add of `v_mad_f32`/`v_mac_f32`/`v_madak_f32`/
/// `v_madmk_f32`: the product is rounded (and a denormal product
/// flushed) before the add.
#[inline]
fn mad32(a: f32, b: f32, c: f32, r: RoundMode) -> f32 {
    float::add_f32(flush_f32(float::mul_f32(a, b, r)), c, r)
}

/// The legacy multiply: 0 times anything (NaN, infinity) is +0.
#[inline]
fn mul_legacy(a: f32, b: f32, r: RoundMode) -> f32 {
    if a == 0.0 || b == 0.0 {
        0.0
    } else {
        float::mul_f32(a, b, r)
    }
}

/// The legacy fused multiply-add (RDNA 2 `v_fma_legacy_f32`): a zero
/// factor makes the product +0 whatever the other is (NaN, infinity), as
/// [`mul_legacy`]; otherwise `fma(a, b, c)`, rounded once.
#[inline]
fn fma_legacy(a: f32, b: f32, c: f32, r: RoundMode) -> f32 {
    if a == 0.0 || b == 0.0 {
        float::add_f32(0.0, c, r)
    } else {
        float::fma_f32(a, b, c, r)
    }
}

/// Saturating float to i32 where a NaN takes the extreme of its sign
/// (`v_cvt_flr_i32_f32`, `v_cvt_rpi_i32_f32`).
fn sat_i32_signed_nan(x: f32) -> u32 {
    if x.is_nan() {
        if x.is_sign_negative() {
            i32::MIN as u32
        } else {
            i32::MAX as u32
        }
    } else {
        x as i32 as u32
    }
}

/// A byte from an integral f32: NaN gives 0, else clamped to 0..255.
fn byte_of(f: f32) -> u32 {
    if f.is_nan() {
        0
    } else {
        f.clamp(0.0, 255.0) as u32
    }
}

/// f32 to f16 bits, rounding toward zero (`CVT_HALF_RTZ`): an overflow
/// gives the largest finite half, a NaN stays a quiet NaN.
fn f32_to_f16_rtz(x: f32) -> u32 {
    let b = x.to_bits();
    let sign = (b >> 16) & 0x8000;
    if x.is_nan() {
        return sign | 0x7e00 | ((b >> 13) & 0x3ff);
    }
    if x.is_infinite() {
        return sign | 0x7c00;
    }
    let a = x.abs();
    if a >= 65504.0 {
        return sign | 0x7bff;
    }
    if a < f32::from_bits(0x3880_0000) {
        // Below 2^-14: a half denormal, a multiple of 2^-24.
        return sign | (a * f32::from_bits(0x4b80_0000)) as u32;
    }
    let e = (b >> 23 & 0xff) + 15 - 127;
    sign | (e << 10) | ((b >> 13) & 0x3ff)
}

/// The class bit (`v_cmp_class`) of an f32: 0 sNaN, 1 qNaN, 2 -inf,
/// 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
fn class32(x: f32) -> u32 {
    let neg = x.is_sign_negative();
    if x.is_nan() {
        u32::from(!is_snan_f32(x))
    } else if x.is_infinite() {
        if neg {
            2
        } else {
            9
        }
    } else if x == 0.0 {
        if neg {
            5
        } else {
            6
        }
    } else if x.is_subnormal() {
        if neg {
            4
        } else {
            7
        }
    } else if neg {
        3
    } else {
        8
    }
}

fn class64(x: f64) -> u32 {
    let neg = x.is_sign_negative();
    if x.is_nan() {
        u32::from(!is_snan_f64(x))
    } else if x.is_infinite() {
        if neg {
            2
        } else {
            9
        }
    } else if x == 0.0 {
        if neg {
            5
        } else {
            6
        }
    } else if x.is_subnormal() {
        if neg {
            4
        } else {
            7
        }
    } else if neg {
        3
    } else {
        8
    }
}

/// `SIGN(x)` of the cube instructions: -1 below zero, +1 otherwise.
fn sgn(x: f32) -> f32 {
    if x < 0.0 {
        -1.0
    } else {
        1.0
    }
}

/// Which axis is major for the cube instructions (2 = z, 1 = y, 0 = x).
fn cube_axis(x: f32, y: f32, z: f32) -> u8 {
    if z.abs() >= y.abs() && z.abs() >= x.abs() {
        2
    } else if y.abs() >= x.abs() {
        1
    } else {
        0
    }
}

/// `v_div_fixup` per the docs (`q` quotient, `d` denominator, `n`
/// numerator), generic over the width through bit accessors.
macro_rules! div_fixup {
    ($name:ident, $t:ty, $nan:expr, $neg_nan:expr, $quiet:path) => {
        fn $name(q: $t, d: $t, n: $t) -> $t {
            let sign_neg = d.is_sign_negative() != n.is_sign_negative();
            let inf = if sign_neg {
                <$t>::NEG_INFINITY
            } else {
                <$t>::INFINITY
            };
            if d.is_nan() && !n.is_nan() {
                $quiet(d)
            } else if n.is_nan() {
                $quiet(n)
            } else if d == 0.0 && n == 0.0 {
                <$t>::from_bits($nan)
            } else if d.is_infinite() && n.is_infinite() {
                <$t>::from_bits($neg_nan)
            } else if d == 0.0 {
                inf
            } else if d.is_infinite() {
                if sign_neg {
                    -0.0
                } else {
                    0.0
                }
            } else if q.is_nan() {
                inf
            } else {
                q
            }
        }
    };
}
div_fixup!(div_fixup32, f32, NAN32, NEG_NAN32, quiet_f32);
div_fixup!(div_fixup64, f64, NAN64, NEG_NAN64, quiet_f64);

/// 2/π as 1201 fraction bits (b_1200 .. b_0, most significant first),
/// padded with zeros to 19 words; computed from π with exact integer
/// arithmetic (Machin's formula), checked against the bits every libm
/// carries for argument reduction.
const TWO_OVER_PI: [u64; 19] = [
    0xa2f9836e4e441529,
    0xfc2757d1f534ddc0,
    0xdb6295993c439041,
    0xfe5163abdebbc561,
    0xb7246e3a424dd2e0,
    0x06492eea09d1921c,
    0xfe1deb1cb129a73e,
    0xe88235f52ebb4484,
    0xe99c7026b45f7e41,
    0x3991d639835339f4,
    0x9c845f8bbdf9283b,
    0x1ff897ffde05980f,
    0xef2f118b5a0a6d1f,
    0x6d367ecf27cb09b7,
    0x4f463f669e5fea2d,
    0x7527bac7ebe5f17b,
    0x3d0739f78a5292ea,
    0x6bfb5fb11f8d5d08,
    0x56033046fc7b0000,
];

/// The 53 bits of 2/π starting `shift` bits below its binary point
/// (bits past the table read as 0).
fn two_over_pi_bits(shift: usize) -> u64 {
    let bit = |i: usize| -> u64 {
        TWO_OVER_PI
            .get(i / 64)
            .map_or(0, |w| (w >> (63 - (i % 64))) & 1)
    };
    (shift..shift + 53).fold(0, |acc, i| (acc << 1) | bit(i))
}

/// `v_trig_preop_f64`, as the GCN3/Vega ISA states it (the CLRX text is
/// garbled here): segment `S1[4:0]` of 53 bits of 2/π, shifted further
/// right for large `S0` (biased exponent > 1077), scaled by `2^(-53 -
/// shift)` (plus 128 when the exponent is >= 1968).
fn trig_preop(x: f64, seg: u32) -> f64 {
    let exp = (x.to_bits() >> 52 & 0x7ff) as i32;
    let mut shift = (seg & 31) as i32 * 53;
    if exp > 1077 {
        shift += exp - 1077;
    }
    let bits = two_over_pi_bits(shift as usize);
    let mut scale = -53 - shift;
    if exp >= 1968 {
        scale += 128;
    }
    ldexp_f64(bits as f64, scale)
}

// ---------------------------------------------------------------------------
// Compares.

/// One of the 16 float compare predicates (OP16 of `GcnInstrsVopc.md`):
/// the ordered ones are false with a NaN operand, their negations true.
/// (The docs' `U` row reads `!ISNAN || !ISNAN`, a typo for "unordered".)
#[inline]
fn cmp_pred<const OP: u8>(a: f64, b: f64) -> bool {
    use std::cmp::Ordering::{Equal, Greater, Less};
    // None: unordered (a NaN operand).
    let o = a.partial_cmp(&b);
    match OP {
        0 => false,
        1 => o == Some(Less),
        2 => o == Some(Equal),
        3 => matches!(o, Some(Less | Equal)),
        4 => o == Some(Greater),
        5 => matches!(o, Some(Less | Greater)),
        6 => matches!(o, Some(Greater | Equal)),
        7 => o.is_some(),
        8 => o.is_none(),
        9 => !matches!(o, Some(Greater | Equal)),
        10 => !matches!(o, Some(Less | Greater)),
        11 => o != Some(Greater),
        12 => !matches!(o, Some(Less | Equal)),
        13 => o != Some(Equal),
        14 => o != Some(Less),
        _ => true,
    }
}

/// Writes a compare result to VCC/SDST (inactive lanes 0) and, for the
/// `v_cmpx*` forms, to EXEC as well.
#[inline]
fn finish_cmp<const X: bool>(w: &mut Wave, op: &Op, bits: u64) -> HResult {
    let mask = write_mask(w, op);
    write_sdst_mask(w, op, bits);
    if X {
        w.set_exec(bits & mask);
    }
    Ok(Step::Next)
}

/// `v_cmp{,x,s,sx}_OP_f32`: the signalling forms (`v_cmps*`) differ only
/// in which NaN raises an exception, which the emulator does not model.
fn vopc_f32<const OP: u8, const X: bool>(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> HResult {
    let a = src_f32(w, op, 0);
    let b = src_f32(w, op, 1);
    let bits = mask_of(|l| cmp_pred::<OP>(f64::from(a[l]), f64::from(b[l])));
    finish_cmp::<X>(w, op, bits)
}

/// `v_cmp{,x,s,sx}_OP_f64`.
fn vopc_f64<const OP: u8, const X: bool>(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> HResult {
    let a = src_f64(w, op, 0);
    let b = src_f64(w, op, 1);
    let bits = mask_of(|l| cmp_pred::<OP>(a[l], b[l]));
    finish_cmp::<X>(w, op, bits)
}

/// `v_cmp{,x}_class_f32`: lane bit set when S1 has the bit of S0's class
/// (no denormal flushing).
fn class_f32<const X: bool>(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> HResult {
    let a = src_f32(w, op, 0);
    let m = src_u32(w, op, 1);
    let bits = mask_of(|l| m[l] >> class32(a[l]) & 1 != 0);
    finish_cmp::<X>(w, op, bits)
}

/// `v_cmp{,x}_class_f64` (the class mask is the low dword of S1).
fn class_f64<const X: bool>(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> HResult {
    let a = src_f64(w, op, 0);
    let m = src_u32(w, op, 1);
    let bits = mask_of(|l| m[l] >> class64(a[l]) & 1 != 0);
    finish_cmp::<X>(w, op, bits)
}

macro_rules! cmp_table {
    ($f:ident, $x:expr) => {
        [
            $f::<0, $x>,
            $f::<1, $x>,
            $f::<2, $x>,
            $f::<3, $x>,
            $f::<4, $x>,
            $f::<5, $x>,
            $f::<6, $x>,
            $f::<7, $x>,
            $f::<8, $x>,
            $f::<9, $x>,
            $f::<10, $x>,
            $f::<11, $x>,
            $f::<12, $x>,
            $f::<13, $x>,
            $f::<14, $x>,
            $f::<15, $x>,
        ]
    };
}

const CMP_F32: [Handler; 16] = cmp_table!(vopc_f32, false);
const CMPX_F32: [Handler; 16] = cmp_table!(vopc_f32, true);
const CMP_F64: [Handler; 16] = cmp_table!(vopc_f64, false);
const CMPX_F64: [Handler; 16] = cmp_table!(vopc_f64, true);

/// The handler of a float compare row (`cmp:PRED` in the table: the
/// predicate; the type from its first source; `v_cmpx`, the EXEC write,
/// from its implicit registers).
fn compare_handler(row: &InstrRow, version: GcnVersion) -> Option<Handler> {
    use gcn_asm::isa::{CompareOp, DataType, Field, ImplicitReg};
    let x = row.writes_implicit(ImplicitReg::Exec, version);
    let pred = row.compare?;
    let ty = row.operand(Field::Src0)?.ty;
    if pred == CompareOp::Class {
        return match (ty, x) {
            (DataType::F32, false) => Some(class_f32::<false>),
            (DataType::F32, true) => Some(class_f32::<true>),
            (DataType::F64, false) => Some(class_f64::<false>),
            (DataType::F64, true) => Some(class_f64::<true>),
            _ => None,
        };
    }
    let table = match (ty, x) {
        (DataType::F32, false) => &CMP_F32,
        (DataType::F32, true) => &CMPX_F32,
        (DataType::F64, false) => &CMP_F64,
        (DataType::F64, true) => &CMPX_F64,
        _ => return None,
    };
    table.get(pred as usize).copied()
}

// ---------------------------------------------------------------------------
// Handlers with more than a line of their own.

/// `v_div_scale_f32`/`_f64` (VOP3B): S0 scaled by 2^64 (f64: 2^128) when
/// the other operand (S1 unless S0 equals it, else S2) is at least
/// 2^(96+e) (f64: 2^(768+e), e the frexp exponent of S0 minus one) or NaN;
/// the lane's SDST bit says it was scaled, or that S0 is NaN/infinite.
fn div_scale_f32(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> HResult {
    let a = src_f32(w, op, 0);
    let b = src_f32(w, op, 1);
    let c = src_f32(w, op, 2);
    let mut flags = 0u64;
    let r: F32s = from_fn(|l| {
        let (s0, s1, s2) = (a[l], b[l], c[l]);
        let other = if s0.to_bits() != s1.to_bits() { s1 } else { s2 };
        if s0.is_nan() || s0.is_infinite() {
            flags |= 1 << l;
            return s0;
        }
        let t = ldexp_f64(1.0, 96 + frexp_f32(s0).1 - 1);
        if f64::from(other.abs()) >= t || other.is_nan() {
            flags |= 1 << l;
            ldexp_f32(s0, 64)
        } else {
            s0
        }
    });
    write_f32(w, op, &r);
    write_sdst_mask(w, op, flags);
    Ok(Step::Next)
}

/// See [`div_scale_f32`].
fn div_scale_f64(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> HResult {
    let a = src_f64(w, op, 0);
    let b = src_f64(w, op, 1);
    let c = src_f64(w, op, 2);
    let mut flags = 0u64;
    let r: F64s = from_fn(|l| {
        let (s0, s1, s2) = (a[l], b[l], c[l]);
        let other = if s0.to_bits() != s1.to_bits() { s1 } else { s2 };
        if s0.is_nan() || s0.is_infinite() {
            flags |= 1 << l;
            return s0;
        }
        let t = ldexp_f64(1.0, 768 + frexp_f64(s0).1 - 1);
        if other.abs() >= t || other.is_nan() {
            flags |= 1 << l;
            ldexp_f64(s0, 128)
        } else {
            s0
        }
    });
    write_f64(w, op, &r);
    write_sdst_mask(w, op, flags);
    Ok(Step::Next)
}

/// `v_div_fmas_f32`: `fma(S0, S1, S2)` (MODE rounding); in lanes whose
/// VCC bit is set (the flag of `v_div_scale`) the result is scaled back
/// by 2^64 when |S2| >= 2.0 and by 2^-64 otherwise (the scale and the
/// threshold of the docs).
fn div_fmas_f32(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> HResult {
    let vcc = w.vcc();
    let m = FpMode::f32(w.mode);
    let mut a = src_f32(w, op, 0);
    let mut b = src_f32(w, op, 1);
    let mut c = src_f32(w, op, 2);
    m.inputs_f32(&mut a);
    m.inputs_f32(&mut b);
    m.inputs_f32(&mut c);
    let mut r: F32s = from_fn(|l| {
        let v = float::fma_f32(a[l], b[l], c[l], m.round);
        if vcc >> l & 1 == 0 {
            v
        } else if c[l].abs() >= 2.0 {
            ldexp_f32(v, 64)
        } else {
            ldexp_f32(v, -64)
        }
    });
    m.outputs_f32(&mut r);
    write_f32(w, op, &r);
    Ok(Step::Next)
}

/// `v_div_fmas_f64`: as [`div_fmas_f32`] with 2^±128.
fn div_fmas_f64(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> HResult {
    let vcc = w.vcc();
    let m = FpMode::f64(w.mode);
    let mut a = src_f64(w, op, 0);
    let mut b = src_f64(w, op, 1);
    let mut c = src_f64(w, op, 2);
    m.inputs_f64(&mut a);
    m.inputs_f64(&mut b);
    m.inputs_f64(&mut c);
    let mut r: F64s = from_fn(|l| {
        let v = float::fma_f64(a[l], b[l], c[l], m.round);
        if vcc >> l & 1 == 0 {
            v
        } else if c[l].abs() >= 2.0 {
            ldexp_f64(v, 128)
        } else {
            ldexp_f64(v, -128)
        }
    });
    m.outputs_f64(&mut r);
    write_f64(w, op, &r);
    Ok(Step::Next)
}

/// `v_cvt_pkaccum_u8_f32` and `v_cvt_pk_u8_f32`: S0 rounded per the f32
/// round mode (NaN gives 0; the docs' `if (ISNAN(f))` is inverted),
/// clamped to 0..255, placed in byte `S1 & 3` of `base` (VDST or S2).
fn pack_u8(w: &mut Wave, op: &Op, base: Lanes) {
    let r = FpMode::f32(w.mode).round;
    let a = src_f32(w, op, 0);
    let sel = src_u32(w, op, 1);
    let out: Lanes = from_fn(|l| {
        let shift = (sel[l] & 3) * 8;
        let byte = byte_of(float::round_int_f32(a[l], r));
        (base[l] & !(0xff << shift)) | (byte << shift)
    });
    write_u32(w, op, &out);
}

/// `v_frexp_exp_i32_f32`/`_f64` result for infinity or NaN: -1 on GCN 1.0,
/// 0 later.
fn frexp_special_exp(v: GcnVersion) -> u32 {
    if v == GcnVersion::Gcn1_0 {
        u32::MAX
    } else {
        0
    }
}

/// The mac accumulator (VDST) as f32 lanes.
fn acc_f32(w: &Wave, op: &Op) -> F32s {
    old_vdst(w, op).map(f32::from_bits)
}

/// The handler of a floating-point vector ALU row.
pub fn handler(row: &InstrRow, version: GcnVersion) -> Option<Handler> {
    // Rows with an f16 operand are valu_f16's.
    if row.operands.iter().any(|o| {
        matches!(
            o.ty,
            gcn_asm::isa::DataType::F16 | gcn_asm::isa::DataType::PkF16
        )
    }) {
        return None;
    }
    if row.compare.is_some() {
        return compare_handler(row, version);
    }
    let gcn10 = version == GcnVersion::Gcn1_0;
    // v_sin/v_cos take |x| <= 1 revolution on GCN 1.0-1.2 (the docs) and
    // |x| <= 256 on GCN 1.4 (Vega ISA).
    let vega = version >= GcnVersion::Gcn1_4;
    match row.op {
        // ---- VOP2 / VOP3 arithmetic, f32
        M::VAddF32 => h(|w, op, _| {
            arith2_f32(w, op, FpMode::f32(w.mode), float::add_f32);
            Ok(Step::Next)
        }),
        M::VSubF32 => h(|w, op, _| {
            arith2_f32(w, op, FpMode::f32(w.mode), |a, b, r| {
                float::add_f32(a, -b, r)
            });
            Ok(Step::Next)
        }),
        M::VSubrevF32 => h(|w, op, _| {
            arith2_f32(w, op, FpMode::f32(w.mode), |a, b, r| {
                float::add_f32(b, -a, r)
            });
            Ok(Step::Next)
        }),
        M::VMulF32 => h(|w, op, _| {
            arith2_f32(w, op, FpMode::f32(w.mode), float::mul_f32);
            Ok(Step::Next)
        }),
        // `0 * anything = 0`; denormals per MODE.
        M::VMulLegacyF32 => h(|w, op, _| {
            arith2_f32(w, op, FpMode::f32(w.mode), mul_legacy);
            Ok(Step::Next)
        }),
        // D = S0 * S1 + D unless a factor is 0 (then D is kept); flushes
        // denormals (docs), rounds per MODE.
        M::VMacLegacyF32 => h(|w, op, _| {
            let m = FpMode {
                round: FpMode::f32(w.mode).round,
                ..FpMode::FLUSH_ALL
            };
            let acc = acc_f32(w, op);
            arith3_f32(w, op, m, acc, |a, b, c, r| {
                if a == 0.0 || b == 0.0 {
                    c
                } else {
                    mad32(a, b, c, r)
                }
            });
            Ok(Step::Next)
        }),
        M::VMadLegacyF32 => h(|w, op, _| {
            let m = FpMode {
                round: FpMode::f32(w.mode).round,
                ..FpMode::FLUSH_ALL
            };
            let c = src_f32(w, op, 2);
            arith3_f32(w, op, m, c, |a, b, c, r| {
                if a == 0.0 || b == 0.0 {
                    c
                } else {
                    mad32(a, b, c, r)
                }
            });
            Ok(Step::Next)
        }),
        // Non-fused multiply-add, denormals always flushed (docs).
        M::VMacF32 => h(|w, op, _| {
            let m = FpMode {
                round: FpMode::f32(w.mode).round,
                ..FpMode::FLUSH_ALL
            };
            let acc = acc_f32(w, op);
            arith3_f32(w, op, m, acc, mad32);
            Ok(Step::Next)
        }),
        M::VMadF32 => h(|w, op, _| {
            let m = FpMode {
                round: FpMode::f32(w.mode).round,
                ..FpMode::FLUSH_ALL
            };
            let c = src_f32(w, op, 2);
            arith3_f32(w, op, m, c, mad32);
            Ok(Step::Next)
        }),
        // D = S0 * K + S1 (K the literal, operand 2).
        M::VMadmkF32 => h(|w, op, _| {
            let m = FpMode {
                round: FpMode::f32(w.mode).round,
                ..FpMode::FLUSH_ALL
            };
            let k = f32::from_bits(w.read_s32(op.src(2)));
            let c = src_f32(w, op, 1);
            let mut a = src_f32(w, op, 0);
            m.inputs_f32(&mut a);
            let mut r: F32s = from_fn(|l| mad32(a[l], flush_f32(k), flush_f32(c[l]), m.round));
            m.outputs_f32(&mut r);
            write_f32(w, op, &r);
            Ok(Step::Next)
        }),
        // D = S0 * S1 + K (K the literal, operand 3).
        M::VMadakF32 => h(|w, op, _| {
            let m = FpMode {
                round: FpMode::f32(w.mode).round,
                ..FpMode::FLUSH_ALL
            };
            let k = f32::from_bits(w.read_s32(op.src(3)));
            arith3_f32(w, op, m, [k; WAVE_SIZE], mad32);
            Ok(Step::Next)
        }),
        M::VFmaF32 => h(|w, op, _| {
            let m = FpMode::f32(w.mode);
            if m.round == RoundMode::NearestEven {
                let mut r = [0f32; WAVE_SIZE];
                if super::vector::fma_f32_one_pass(w, op, !m.keep_in, !m.keep_out, &mut r).is_some()
                {
                    write_f32(w, op, &r);
                    return Ok(Step::Next);
                }
            }
            let mut c = [0f32; WAVE_SIZE];
            super::vector::src_f32_into(w, op, 2, &mut c);
            fused_f32(w, op, FpMode::f32(w.mode), &mut c);
            Ok(Step::Next)
        }),
        // D = fma(S0, S1, D) (GCN 1.4.1, GCN 1.5).
        M::VFmacF32 => h(|w, op, _| {
            let mut acc = acc_f32(w, op);
            fused_f32(w, op, FpMode::f32(w.mode), &mut acc);
            Ok(Step::Next)
        }),
        // GCN 1.5: D = fma(S0, K, S1) (K the literal, operand 2), one
        // rounding, denormals per MODE.
        M::VFmamkF32 => h(|w, op, _| {
            let m = FpMode::f32(w.mode);
            let mut k = [f32::from_bits(w.read_s32(op.src(2))); WAVE_SIZE];
            let mut a = src_f32(w, op, 0);
            let mut c = src_f32(w, op, 1);
            m.inputs_f32(&mut a);
            m.inputs_f32(&mut k);
            m.inputs_f32(&mut c);
            let mut r: F32s = from_fn(|l| float::fma_f32(a[l], k[l], c[l], m.round));
            m.outputs_f32(&mut r);
            write_f32(w, op, &r);
            Ok(Step::Next)
        }),
        // GCN 1.5: D = fma(S0, S1, K) (K the literal, operand 3).
        M::VFmaakF32 => h(|w, op, _| {
            let mut k = [f32::from_bits(w.read_s32(op.src(3))); WAVE_SIZE];
            fused_f32(w, op, FpMode::f32(w.mode), &mut k);
            Ok(Step::Next)
        }),
        // RDNA 2: the fused multiply-add with the legacy multiply's rule,
        // `0 * anything = +0` (then + S2); denormals per MODE.
        M::VFmaLegacyF32 => h(|w, op, _| {
            let c = src_f32(w, op, 2);
            arith3_f32(w, op, FpMode::f32(w.mode), c, fma_legacy);
            Ok(Step::Next)
        }),
        // RDNA 2: D = fma_legacy(S0, S1, D).
        M::VFmacLegacyF32 => h(|w, op, _| {
            let acc = acc_f32(w, op);
            arith3_f32(w, op, FpMode::f32(w.mode), acc, fma_legacy);
            Ok(Step::Next)
        }),
        M::VMinF32 => h(|w, op, _| {
            let ieee = w.mode & MODE_IEEE != 0;
            arith2_f32(w, op, FpMode::f32(w.mode), move |a, b, _| min32(a, b, ieee));
            Ok(Step::Next)
        }),
        M::VMaxF32 => h(|w, op, _| {
            let ieee = w.mode & MODE_IEEE != 0;
            arith2_f32(w, op, FpMode::f32(w.mode), move |a, b, _| max32(a, b, ieee));
            Ok(Step::Next)
        }),
        // Legacy (DX9) rules: a NaN S1 gives NaN, else `S0 < S1 ? S0 : S1`.
        M::VMinLegacyF32 => h(|w, op, _| {
            arith2_f32(w, op, FpMode::f32(w.mode), |a, b, _| {
                if b.is_nan() {
                    quiet_f32(b)
                } else if a < b {
                    a
                } else {
                    b
                }
            });
            Ok(Step::Next)
        }),
        M::VMaxLegacyF32 => h(|w, op, _| {
            arith2_f32(w, op, FpMode::f32(w.mode), |a, b, _| {
                if b.is_nan() {
                    quiet_f32(b)
                } else if a > b {
                    a
                } else {
                    b
                }
            });
            Ok(Step::Next)
        }),
        M::VMin3F32 => h(|w, op, _| {
            let ieee = w.mode & MODE_IEEE != 0;
            let c = src_f32(w, op, 2);
            arith3_f32(w, op, FpMode::f32(w.mode), c, move |a, b, c, _| {
                min32(min32(a, b, ieee), c, ieee)
            });
            Ok(Step::Next)
        }),
        M::VMax3F32 => h(|w, op, _| {
            let ieee = w.mode & MODE_IEEE != 0;
            let c = src_f32(w, op, 2);
            arith3_f32(w, op, FpMode::f32(w.mode), c, move |a, b, c, _| {
                max32(max32(a, b, ieee), c, ieee)
            });
            Ok(Step::Next)
        }),
        M::VMed3F32 => h(|w, op, _| {
            let ieee = w.mode & MODE_IEEE != 0;
            let c = src_f32(w, op, 2);
            arith3_f32(w, op, FpMode::f32(w.mode), c, move |a, b, c, _| {
                med3(a, b, c, ieee)
            });
            Ok(Step::Next)
        }),
        // S2 > 0 (not NaN): S0 * S1 with 0 * anything = 0; else -MAX_FLOAT.
        M::VMullitF32 => h(|w, op, _| {
            let c = src_f32(w, op, 2);
            arith3_f32(w, op, FpMode::f32(w.mode), c, |a, b, c, r| {
                if c > 0.0 {
                    mul_legacy(a, b, r)
                } else {
                    -f32::MAX
                }
            });
            Ok(Step::Next)
        }),
        // ldexp: exact but for over/underflow (rounded to nearest even).
        M::VLdexpF32 => h(|w, op, _| {
            let m = FpMode::f32(w.mode);
            let mut a = src_f32(w, op, 0);
            m.inputs_f32(&mut a);
            let n = src_u32(w, op, 1);
            let mut r: F32s = from_fn(|l| ldexp_f32(a[l], n[l] as i32));
            m.outputs_f32(&mut r);
            write_f32(w, op, &r);
            Ok(Step::Next)
        }),
        // ---- cube map
        M::VCubeidF32 => h(|w, op, _| {
            let c = src_f32(w, op, 2);
            arith3_f32(
                w,
                op,
                FpMode::f32(w.mode),
                c,
                |x, y, z, _| match cube_axis(x, y, z) {
                    2 => {
                        if z >= 0.0 {
                            4.0
                        } else {
                            5.0
                        }
                    }
                    1 => {
                        if y >= 0.0 {
                            2.0
                        } else {
                            3.0
                        }
                    }
                    _ => {
                        if x >= 0.0 {
                            0.0
                        } else {
                            1.0
                        }
                    }
                },
            );
            Ok(Step::Next)
        }),
        M::VCubescF32 => h(|w, op, _| {
            let c = src_f32(w, op, 2);
            arith3_f32(
                w,
                op,
                FpMode::f32(w.mode),
                c,
                |x, y, z, _| match cube_axis(x, y, z) {
                    2 => sgn(z) * x,
                    1 => x,
                    _ => -sgn(x) * z,
                },
            );
            Ok(Step::Next)
        }),
        M::VCubetcF32 => h(|w, op, _| {
            let c = src_f32(w, op, 2);
            arith3_f32(
                w,
                op,
                FpMode::f32(w.mode),
                c,
                |x, y, z, _| match cube_axis(x, y, z) {
                    1 => sgn(y) * z,
                    _ => -y,
                },
            );
            Ok(Step::Next)
        }),
        M::VCubemaF32 => h(|w, op, _| {
            let c = src_f32(w, op, 2);
            arith3_f32(w, op, FpMode::f32(w.mode), c, |x, y, z, _| {
                2.0 * match cube_axis(x, y, z) {
                    2 => z,
                    1 => y,
                    _ => x,
                }
            });
            Ok(Step::Next)
        }),
        // ---- division helpers
        M::VDivScaleF32 => h(div_scale_f32),
        M::VDivScaleF64 => h(div_scale_f64),
        M::VDivFmasF32 => h(div_fmas_f32),
        M::VDivFmasF64 => h(div_fmas_f64),
        M::VDivFixupF32 => h(|w, op, _| {
            let c = src_f32(w, op, 2);
            arith3_f32(w, op, FpMode::f32(w.mode), c, |q, d, n, _| {
                div_fixup32(q, d, n)
            });
            Ok(Step::Next)
        }),
        M::VDivFixupF64 => h(|w, op, _| {
            arith3_f64(w, op, |q, d, n, _| div_fixup64(q, d, n));
            Ok(Step::Next)
        }),
        M::VTrigPreopF64 => h(|w, op, _| {
            let a = src_f64(w, op, 0);
            let s = src_u32(w, op, 1);
            let r: F64s = from_fn(|l| trig_preop(a[l], s[l]));
            write_f64(w, op, &r);
            Ok(Step::Next)
        }),
        // ---- f64 arithmetic
        M::VAddF64 => h(|w, op, _| {
            arith2_f64(w, op, float::add_f64);
            Ok(Step::Next)
        }),
        M::VMulF64 => h(|w, op, _| {
            arith2_f64(w, op, float::mul_f64);
            Ok(Step::Next)
        }),
        M::VFmaF64 => h(|w, op, _| {
            fused_f64(w, op);
            Ok(Step::Next)
        }),
        M::VMinF64 => h(|w, op, _| {
            let ieee = w.mode & MODE_IEEE != 0;
            arith2_f64(w, op, move |a, b, _| min64(a, b, ieee));
            Ok(Step::Next)
        }),
        M::VMaxF64 => h(|w, op, _| {
            let ieee = w.mode & MODE_IEEE != 0;
            arith2_f64(w, op, move |a, b, _| max64(a, b, ieee));
            Ok(Step::Next)
        }),
        M::VLdexpF64 => h(|w, op, _| {
            let m = FpMode::f64(w.mode);
            let mut a = src_f64(w, op, 0);
            m.inputs_f64(&mut a);
            let n = src_u32(w, op, 1);
            let mut r: F64s = from_fn(|l| ldexp_f64(a[l], n[l] as i32));
            m.outputs_f64(&mut r);
            write_f64(w, op, &r);
            Ok(Step::Next)
        }),
        // ---- packing conversions
        M::VCvtPkaccumU8F32 => h(|w, op, _| {
            let base = old_vdst(w, op);
            pack_u8(w, op, base);
            Ok(Step::Next)
        }),
        M::VCvtPkU8F32 => h(|w, op, _| {
            let base = src_u32(w, op, 2);
            pack_u8(w, op, base);
            Ok(Step::Next)
        }),
        // roundNorm: RNDNE(S * 32767) clamped to ±32767, NaN 0; S0 low half.
        M::VCvtPknormI16F32 => h(|w, op, _| {
            let a = src_f32(w, op, 0);
            let b = src_f32(w, op, 1);
            let norm = |s: f32| -> u32 {
                let f = (s * 32767.0).round_ties_even();
                if f.is_nan() {
                    0
                } else {
                    u32::from(f.clamp(-32767.0, 32767.0) as i16 as u16)
                }
            };
            let r: Lanes = from_fn(|l| norm(a[l]) | (norm(b[l]) << 16));
            write_u32(w, op, &r);
            Ok(Step::Next)
        }),
        M::VCvtPknormU16F32 => h(|w, op, _| {
            let a = src_f32(w, op, 0);
            let b = src_f32(w, op, 1);
            let norm = |s: f32| -> u32 {
                let f = (s * 65535.0).round_ties_even();
                if f.is_nan() {
                    0
                } else {
                    f.clamp(0.0, 65535.0) as u32
                }
            };
            let r: Lanes = from_fn(|l| norm(a[l]) | (norm(b[l]) << 16));
            write_u32(w, op, &r);
            Ok(Step::Next)
        }),
        M::VCvtPkrtzF16F32 => h(|w, op, _| {
            let a = src_f32(w, op, 0);
            let b = src_f32(w, op, 1);
            let r: Lanes = from_fn(|l| f32_to_f16_rtz(a[l]) | (f32_to_f16_rtz(b[l]) << 16));
            write_u32(w, op, &r);
            Ok(Step::Next)
        }),
        // ---- VOP1 conversions
        // Float to integer: toward zero, saturating, NaN 0 (Rust's `as`).
        M::VCvtI32F32 => h(|w, op, _| {
            f32_to_int(w, op, |x| x as i32 as u32);
            Ok(Step::Next)
        }),
        M::VCvtU32F32 => h(|w, op, _| {
            f32_to_int(w, op, |x| x as u32);
            Ok(Step::Next)
        }),
        M::VCvtI32F64 => h(|w, op, _| {
            f64_to_int(w, op, |x| x as i32 as u32);
            Ok(Step::Next)
        }),
        M::VCvtU32F64 => h(|w, op, _| {
            f64_to_int(w, op, |x| x as u32);
            Ok(Step::Next)
        }),
        // floor, saturating; NaN gives the extreme of its sign (docs).
        M::VCvtFlrI32F32 => h(|w, op, _| {
            f32_to_int(w, op, |x| sat_i32_signed_nan(x.floor()));
            Ok(Step::Next)
        }),
        // floor(S0 + 0.5) with the add in f32, as the docs write it.
        M::VCvtRpiI32F32 => h(|w, op, _| {
            f32_to_int(w, op, |x| sat_i32_signed_nan((x + 0.5).floor()));
            Ok(Step::Next)
        }),
        // Integer to f32: rounded per the f32 round mode.
        M::VCvtF32I32 => h(|w, op, _| {
            let r = FpMode::f32(w.mode).round;
            let a = src_u32(w, op, 0);
            let out: F32s = a.map(|x| float::int_to_f32(i64::from(x as i32), r));
            write_f32(w, op, &out);
            Ok(Step::Next)
        }),
        M::VCvtF32U32 => h(|w, op, _| {
            let r = FpMode::f32(w.mode).round;
            let a = src_u32(w, op, 0);
            let out: F32s = a.map(|x| float::int_to_f32(i64::from(x), r));
            write_f32(w, op, &out);
            Ok(Step::Next)
        }),
        // Exact conversions.
        M::VCvtF64I32 => h(|w, op, _| {
            let a = src_u32(w, op, 0);
            write_f64(w, op, &a.map(|x| f64::from(x as i32)));
            Ok(Step::Next)
        }),
        M::VCvtF64U32 => h(|w, op, _| {
            let a = src_u32(w, op, 0);
            write_f64(w, op, &a.map(f64::from));
            Ok(Step::Next)
        }),
        M::VCvtF64F32 => h(|w, op, _| {
            let m = FpMode::f32(w.mode);
            let mut a = src_f32(w, op, 0);
            m.inputs_f32(&mut a);
            write_f64(w, op, &a.map(f64::from));
            Ok(Step::Next)
        }),
        // f64 to f32: input denormals per the f64 mode, rounding and output
        // denormals per the f32 mode (the docs: "single FP rounding mode").
        M::VCvtF32F64 => h(|w, op, _| {
            let m64 = FpMode::f64(w.mode);
            let m = FpMode::f32(w.mode);
            let mut a = src_f64(w, op, 0);
            m64.inputs_f64(&mut a);
            let mut r: F32s = if m.round == RoundMode::NearestEven {
                a.map(|x| x as f32)
            } else {
                a.map(|x| float::f64_to_f32(x, m.round))
            };
            m.outputs_f32(&mut r);
            write_f32(w, op, &r);
            Ok(Step::Next)
        }),
        M::VCvtF32Ubyte0 => h(|w, op, _| {
            let a = src_u32(w, op, 0);
            write_f32(w, op, &a.map(|x| (x & 0xff) as f32));
            Ok(Step::Next)
        }),
        M::VCvtF32Ubyte1 => h(|w, op, _| {
            let a = src_u32(w, op, 0);
            write_f32(w, op, &a.map(|x| (x >> 8 & 0xff) as f32));
            Ok(Step::Next)
        }),
        M::VCvtF32Ubyte2 => h(|w, op, _| {
            let a = src_u32(w, op, 0);
            write_f32(w, op, &a.map(|x| (x >> 16 & 0xff) as f32));
            Ok(Step::Next)
        }),
        M::VCvtF32Ubyte3 => h(|w, op, _| {
            let a = src_u32(w, op, 0);
            write_f32(w, op, &a.map(|x| (x >> 24) as f32));
            Ok(Step::Next)
        }),
        // ((S0 & 15) ^ 8) / 16 - 0.5: -0.5 .. 0.4375, exact.
        M::VCvtOffF32I4 => h(|w, op, _| {
            let a = src_u32(w, op, 0);
            write_f32(w, op, &a.map(|x| ((x & 15) ^ 8) as f32 / 16.0 - 0.5));
            Ok(Step::Next)
        }),
        // ---- rounding to integral values (infinity copied, a NaN quieted)
        // S0 - floor(S0); infinity or NaN gives a NaN of its sign.
        M::VFractF32 => h(|w, op, _| {
            unary_f32(w, op, false, |x| {
                if x.is_finite() {
                    x - x.floor()
                } else {
                    signed_nan32(x)
                }
            });
            Ok(Step::Next)
        }),
        M::VTruncF32 => h(|w, op, _| {
            unary_f32(w, op, false, integral_f32(f32::trunc));
            Ok(Step::Next)
        }),
        // A true ceiling (the docs' floor-based text gives -1 for -0.5).
        M::VCeilF32 => h(|w, op, _| {
            unary_f32(w, op, false, integral_f32(f32::ceil));
            Ok(Step::Next)
        }),
        M::VRndneF32 => h(|w, op, _| {
            unary_f32(w, op, false, integral_f32(f32::round_ties_even));
            Ok(Step::Next)
        }),
        M::VFloorF32 => h(|w, op, _| {
            unary_f32(w, op, false, integral_f32(f32::floor));
            Ok(Step::Next)
        }),
        M::VFractF64 => h(|w, op, _| {
            unary_f64(w, op, |x| {
                if x.is_finite() {
                    x - x.floor()
                } else {
                    signed_nan64(x)
                }
            });
            Ok(Step::Next)
        }),
        M::VTruncF64 => h(|w, op, _| {
            unary_f64(w, op, integral_f64(f64::trunc));
            Ok(Step::Next)
        }),
        M::VCeilF64 => h(|w, op, _| {
            unary_f64(w, op, integral_f64(f64::ceil));
            Ok(Step::Next)
        }),
        M::VRndneF64 => h(|w, op, _| {
            unary_f64(w, op, integral_f64(f64::round_ties_even));
            Ok(Step::Next)
        }),
        M::VFloorF64 => h(|w, op, _| {
            unary_f64(w, op, integral_f64(f64::floor));
            Ok(Step::Next)
        }),
        // ---- frexp
        M::VFrexpExpI32F32 if gcn10 => h(|w, op, _| {
            f32_to_int(w, op, |x| {
                if x.is_finite() {
                    frexp_f32(x).1 as u32
                } else {
                    frexp_special_exp(GcnVersion::Gcn1_0)
                }
            });
            Ok(Step::Next)
        }),
        M::VFrexpExpI32F32 => h(|w, op, _| {
            f32_to_int(w, op, |x| {
                if x.is_finite() {
                    frexp_f32(x).1 as u32
                } else {
                    0
                }
            });
            Ok(Step::Next)
        }),
        M::VFrexpExpI32F64 if gcn10 => h(|w, op, _| {
            f64_to_int(w, op, |x| {
                if x.is_finite() {
                    frexp_f64(x).1 as u32
                } else {
                    frexp_special_exp(GcnVersion::Gcn1_0)
                }
            });
            Ok(Step::Next)
        }),
        M::VFrexpExpI32F64 => h(|w, op, _| {
            f64_to_int(w, op, |x| {
                if x.is_finite() {
                    frexp_f64(x).1 as u32
                } else {
                    0
                }
            });
            Ok(Step::Next)
        }),
        // Mantissa in [0.5, 1) with the sign of S0; infinity gives -NaN on
        // GCN 1.0 and itself later; NaN a quiet NaN of its sign.
        M::VFrexpMantF32 if gcn10 => h(|w, op, _| {
            unary_f32(w, op, false, |x| {
                if x.is_infinite() {
                    f32::from_bits(NEG_NAN32)
                } else if x.is_nan() {
                    signed_nan32(x)
                } else {
                    frexp_f32(x).0
                }
            });
            Ok(Step::Next)
        }),
        M::VFrexpMantF32 => h(|w, op, _| {
            unary_f32(w, op, false, |x| {
                if x.is_nan() {
                    signed_nan32(x)
                } else {
                    frexp_f32(x).0
                }
            });
            Ok(Step::Next)
        }),
        M::VFrexpMantF64 if gcn10 => h(|w, op, _| {
            unary_f64(w, op, |x| {
                if x.is_infinite() {
                    f64::from_bits(NEG_NAN64)
                } else if x.is_nan() {
                    signed_nan64(x)
                } else {
                    frexp_f64(x).0
                }
            });
            Ok(Step::Next)
        }),
        M::VFrexpMantF64 => h(|w, op, _| {
            unary_f64(w, op, |x| {
                if x.is_nan() {
                    signed_nan64(x)
                } else {
                    frexp_f64(x).0
                }
            });
            Ok(Step::Next)
        }),
        // ---- transcendental approximations, f32
        // 2^S0; below -126 gives 0 (docs); a NaN stays NaN (the docs'
        // comparison would send it to 0). ISA accuracy 1 ULP; here the f64
        // exp2 rounded once (< 1 ULP).
        M::VExpF32 | M::VExpLegacyF32 => h(|w, op, _| {
            unary_f32(w, op, false, |x| {
                if x.is_nan() {
                    quiet_f32(x)
                } else if x < -126.0 {
                    0.0
                } else {
                    f64::from(x).exp2() as f32
                }
            });
            Ok(Step::Next)
        }),
        // log2(S0); S0 < 0 gives -NaN, 1 gives 0; input denormals always
        // flushed (docs). ISA accuracy 1 ULP; here f64 log2 rounded once.
        M::VLogF32 | M::VLogLegacyF32 => h(|w, op, _| {
            unary_f32(w, op, true, log2_32);
            Ok(Step::Next)
        }),
        // As v_log_f32 with -inf clamped to -MAX_FLOAT.
        M::VLogClampF32 => h(|w, op, _| {
            unary_f32(w, op, true, |x| {
                let r = log2_32(x);
                if r == f32::NEG_INFINITY {
                    -f32::MAX
                } else {
                    r
                }
            });
            Ok(Step::Next)
        }),
        // 1/S0. ISA accuracy: error below 1 ULP; here correctly rounded.
        M::VRcpF32 | M::VRcpIflagF32 => h(|w, op, _| {
            unary_f32(w, op, false, |x| 1.0 / x);
            Ok(Step::Next)
        }),
        // 1/S0 with an infinite result clamped to ±MAX_FLOAT.
        M::VRcpClampF32 => h(|w, op, _| {
            unary_f32(w, op, false, |x| {
                let r = 1.0 / x;
                if r.is_infinite() {
                    f32::MAX.copysign(r)
                } else {
                    r
                }
            });
            Ok(Step::Next)
        }),
        // 1/S0, but a zero input or an infinite result gives a zero of
        // S0's sign.
        M::VRcpLegacyF32 => h(|w, op, _| {
            unary_f32(w, op, false, |x| {
                let r = 1.0 / x;
                if x == 0.0 || r.is_infinite() {
                    0.0f32.copysign(x)
                } else {
                    r
                }
            });
            Ok(Step::Next)
        }),
        // 1/sqrt(S0); negative gives -NaN; input denormals always flushed.
        // ISA accuracy 1 ULP; here the f64 value rounded once.
        M::VRsqF32 => h(|w, op, _| {
            unary_f32(w, op, true, rsq32);
            Ok(Step::Next)
        }),
        // +inf clamped to MAX_FLOAT.
        M::VRsqClampF32 => h(|w, op, _| {
            unary_f32(w, op, true, |x| {
                let r = rsq32(x);
                if r == f32::INFINITY {
                    f32::MAX
                } else {
                    r
                }
            });
            Ok(Step::Next)
        }),
        // +inf becomes 0.
        M::VRsqLegacyF32 => h(|w, op, _| {
            unary_f32(w, op, true, |x| {
                let r = rsq32(x);
                if r == f32::INFINITY {
                    0.0
                } else {
                    r
                }
            });
            Ok(Step::Next)
        }),
        // sqrt(S0); negative gives -NaN, NaN stays NaN. ISA accuracy 1 ULP;
        // here correctly rounded per the f32 round mode.
        M::VSqrtF32 => h(|w, op, _| {
            let r = FpMode::f32(w.mode).round;
            unary_f32(w, op, false, move |x| {
                if x.is_nan() {
                    quiet_f32(x)
                } else if x < 0.0 {
                    f32::from_bits(NEG_NAN32)
                } else {
                    float::sqrt_f32(x, r)
                }
            });
            Ok(Step::Next)
        }),
        // sin(S0 * 2π), S0 in revolutions: |S0| <= 1 (GCN 1.0-1.2, docs)
        // or <= 256 (GCN 1.4); larger finite inputs give 0, infinity -NaN.
        // The ISA gives an absolute error bound (about 2^-20 on its range);
        // here the f64 value rounded once.
        M::VSinF32 if vega => h(|w, op, _| {
            unary_f32(w, op, false, |x| trig32(x, 256.0, f64::sin, 0.0));
            Ok(Step::Next)
        }),
        M::VSinF32 => h(|w, op, _| {
            unary_f32(w, op, false, |x| trig32(x, 1.0, f64::sin, 0.0));
            Ok(Step::Next)
        }),
        // cos(S0 * 2π); out of range gives 1.
        M::VCosF32 if vega => h(|w, op, _| {
            unary_f32(w, op, false, |x| trig32(x, 256.0, f64::cos, 1.0));
            Ok(Step::Next)
        }),
        M::VCosF32 => h(|w, op, _| {
            unary_f32(w, op, false, |x| trig32(x, 1.0, f64::cos, 1.0));
            Ok(Step::Next)
        }),
        // ---- transcendental approximations, f64 (the docs give a relative
        // error of about 1e-8; these are correctly rounded)
        M::VRcpF64 => h(|w, op, _| {
            unary_f64(w, op, |x| 1.0 / x);
            Ok(Step::Next)
        }),
        M::VRcpClampF64 => h(|w, op, _| {
            unary_f64(w, op, |x| {
                let r = 1.0 / x;
                if r.is_infinite() {
                    f64::MAX.copysign(r)
                } else {
                    r
                }
            });
            Ok(Step::Next)
        }),
        M::VRsqF64 => h(|w, op, _| {
            unary_f64(w, op, rsq64);
            Ok(Step::Next)
        }),
        M::VRsqClampF64 => h(|w, op, _| {
            unary_f64(w, op, |x| {
                let r = rsq64(x);
                if r == f64::INFINITY {
                    f64::MAX
                } else {
                    r
                }
            });
            Ok(Step::Next)
        }),
        M::VSqrtF64 => h(|w, op, _| {
            let r = FpMode::f64(w.mode).round;
            unary_f64(w, op, move |x| {
                if x.is_nan() {
                    quiet_f64(x)
                } else if x < 0.0 {
                    f64::from_bits(NEG_NAN64)
                } else {
                    float::sqrt_f64(x, r)
                }
            });
            Ok(Step::Next)
        }),
        _ => None,
    }
}

/// log2 for `v_log_f32` (input already flushed).
fn log2_32(x: f32) -> f32 {
    if x.is_nan() {
        quiet_f32(x)
    } else if x < 0.0 {
        f32::from_bits(NEG_NAN32)
    } else if x == 1.0 {
        0.0
    } else {
        f64::from(x).log2() as f32
    }
}

/// 1/sqrt for `v_rsq_f32` (input already flushed): negative gives -NaN,
/// -0 gives -inf.
fn rsq32(x: f32) -> f32 {
    if x.is_nan() {
        quiet_f32(x)
    } else if x < 0.0 {
        f32::from_bits(NEG_NAN32)
    } else {
        (1.0 / f64::from(x).sqrt()) as f32
    }
}

fn rsq64(x: f64) -> f64 {
    if x.is_nan() {
        quiet_f64(x)
    } else if x < 0.0 {
        f64::from_bits(NEG_NAN64)
    } else {
        1.0 / x.sqrt()
    }
}

/// `v_sin_f32`/`v_cos_f32`: `f(x * 2π)` for |x| <= `range`, NaN kept,
/// infinity -NaN, other inputs `outside`.
fn trig32(x: f32, range: f32, f: fn(f64) -> f64, outside: f32) -> f32 {
    if x.is_nan() {
        x
    } else if x.is_infinite() {
        f32::from_bits(NEG_NAN32)
    } else if x.abs() <= range {
        f(f64::from(x) * std::f64::consts::TAU) as f32
    } else {
        outside
    }
}

#[cfg(test)]
mod tests;

/// The accuracy of the rows this module computes approximately (the
/// transcendental instructions: the hardware is only documented to within
/// 1 ULP, the emulator computes in f64 or exactly and rounds once), for the
/// fidelity table ([`super::fidelity`]); `None` for exact rows.
pub fn accuracy(row: &InstrRow) -> Option<&'static str> {
    let transcendental = matches!(
        row.op,
        M::VCosF32
            | M::VExpF32
            | M::VExpLegacyF32
            | M::VLogClampF32
            | M::VLogF32
            | M::VLogLegacyF32
            | M::VRcpClampF32
            | M::VRcpClampF64
            | M::VRcpF32
            | M::VRcpF64
            | M::VRcpIflagF32
            | M::VRcpLegacyF32
            | M::VRsqClampF32
            | M::VRsqClampF64
            | M::VRsqF32
            | M::VRsqF64
            | M::VRsqLegacyF32
            | M::VSinF32
            | M::VSqrtF32
            | M::VSqrtF64
    );
    transcendental.then_some(
        "ISA: within 1 ULP; emulator: computed in f64 (or exactly) and rounded once (a GPU may differ by 1 ULP)",
    )
}
