//! The MODE register's floating-point rules: round modes and denormal
//! handling for f32 and for f64/f16.
//!
//! MODE bits 0-1 round f32, bits 2-3 round f64 and f16 (0 nearest even,
//! 1 towards +inf, 2 towards -inf, 3 towards zero); bits 4-5 are the f32
//! denormal mode, bits 6-7 the f64/f16 one (bit 0 of a mode: input
//! denormals are kept, bit 1: output denormals are kept; flushed to a zero
//! of the same sign otherwise). Bit 8 is DX10_CLAMP, bit 9 IEEE.
//!
//! Round to nearest even is native Rust arithmetic (the fast path); the
//! directed modes go through `rustc_apfloat`, a soft-float that rounds
//! every operation in any IEEE mode. Handlers read the mode once per
//! instruction ([`FpMode::f32`], [`FpMode::f64`]) and choose the path for
//! all 64 lanes.

use rustc_apfloat::ieee::{Double, Single};
use rustc_apfloat::{Float, FloatConvert, Round};

/// MODE.IEEE.
pub const MODE_IEEE: u32 = 1 << 9;

/// A MODE round mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundMode {
    /// Round to nearest, ties to even (0).
    NearestEven,
    /// Towards +infinity (1).
    Up,
    /// Towards -infinity (2).
    Down,
    /// Towards zero (3).
    Zero,
}

impl RoundMode {
    /// The mode of a 2-bit MODE field.
    #[inline]
    pub const fn from_bits(bits: u32) -> Self {
        match bits & 3 {
            0 => RoundMode::NearestEven,
            1 => RoundMode::Up,
            2 => RoundMode::Down,
            _ => RoundMode::Zero,
        }
    }

    fn ap(self) -> Round {
        match self {
            RoundMode::NearestEven => Round::NearestTiesToEven,
            RoundMode::Up => Round::TowardPositive,
            RoundMode::Down => Round::TowardNegative,
            RoundMode::Zero => Round::TowardZero,
        }
    }
}

/// The rules MODE sets for one precision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FpMode {
    /// Round mode.
    pub round: RoundMode,
    /// Input denormals are kept (else flushed to signed zero).
    pub keep_in: bool,
    /// Output denormals are kept (else flushed to signed zero).
    pub keep_out: bool,
}

impl FpMode {
    /// The f32 rules of `mode` (bits 0-1 and 4-5).
    #[inline]
    pub const fn f32(mode: u32) -> Self {
        FpMode {
            round: RoundMode::from_bits(mode),
            keep_in: mode >> 4 & 1 != 0,
            keep_out: mode >> 5 & 1 != 0,
        }
    }

    /// The f64 (and f16) rules of `mode` (bits 2-3 and 6-7).
    #[inline]
    pub const fn f64(mode: u32) -> Self {
        FpMode {
            round: RoundMode::from_bits(mode >> 2),
            keep_in: mode >> 6 & 1 != 0,
            keep_out: mode >> 7 & 1 != 0,
        }
    }

    /// Round to nearest even with every denormal flushed: what `v_mad_f32`,
    /// `v_mac_f32` and the legacy multiplies do whatever MODE says.
    pub const FLUSH_ALL: FpMode = FpMode {
        round: RoundMode::NearestEven,
        keep_in: false,
        keep_out: false,
    };

    /// Flushes the input denormals of 64 f32 lanes when the mode says so.
    #[inline]
    pub fn inputs_f32(self, v: &mut [f32]) {
        if !self.keep_in {
            v.iter_mut().for_each(|x| *x = flush_f32(*x));
        }
    }

    /// Flushes the output denormals of f32 lanes when the mode says so.
    #[inline]
    pub fn outputs_f32(self, v: &mut [f32]) {
        if !self.keep_out {
            v.iter_mut().for_each(|x| *x = flush_f32(*x));
        }
    }

    /// Flushes the input denormals of f64 lanes when the mode says so.
    #[inline]
    pub fn inputs_f64(self, v: &mut [f64]) {
        if !self.keep_in {
            v.iter_mut().for_each(|x| *x = flush_f64(*x));
        }
    }

    /// Flushes the output denormals of f64 lanes when the mode says so.
    #[inline]
    pub fn outputs_f64(self, v: &mut [f64]) {
        if !self.keep_out {
            v.iter_mut().for_each(|x| *x = flush_f64(*x));
        }
    }
}

/// A denormal becomes a zero of its sign; anything else is kept.
#[inline]
pub fn flush_f32(x: f32) -> f32 {
    f32::from_bits(flush_f32_bits(x.to_bits(), 0))
}

/// The bits of [`flush_f32`] of `b`, unless bit 0 of `keep` is set (the
/// mode keeps denormals): a denormal's or zero's exponent field is 0, and
/// keeping only the sign maps both right. Written as a bit select (not
/// `is_subnormal`'s classification, and with the mode folded into the
/// test rather than a branch) so lane loops compile to vector code.
#[inline]
pub fn flush_f32_bits(b: u32, keep: u32) -> u32 {
    if (b & 0x7f80_0000) | (keep & 1) == 0 {
        b & 0x8000_0000
    } else {
        b
    }
}

/// A denormal becomes a zero of its sign; anything else is kept.
#[inline]
pub fn flush_f64(x: f64) -> f64 {
    // See `flush_f32`.
    let b = x.to_bits();
    f64::from_bits(if b & 0x7ff0_0000_0000_0000 == 0 {
        b & (1 << 63)
    } else {
        b
    })
}

/// The result of an f32 operation on `a`, `b` whose host result is `r`:
/// when `r` is NaN and an operand is, the first NaN operand in source
/// order, quieted. Hosts differ in which NaN operand propagates (x86 takes
/// the first in its instruction's encoding, and a compiler may commute the
/// operands of an addition or a multiply-add), so the emulator fixes the
/// choice: the interpreter and the compiled tier both apply it.
#[inline(always)]
pub fn nan2_f32(a: f32, b: f32, r: f32) -> f32 {
    if !r.is_nan() {
        r
    } else if a.is_nan() {
        quiet_f32(a)
    } else if b.is_nan() {
        quiet_f32(b)
    } else {
        r
    }
}

/// [`nan2_f32`] for three operands.
#[inline(always)]
pub fn nan3_f32(a: f32, b: f32, c: f32, r: f32) -> f32 {
    if r.is_nan() && !a.is_nan() && !b.is_nan() && c.is_nan() {
        quiet_f32(c)
    } else {
        nan2_f32(a, b, r)
    }
}

/// The quiet form of a NaN (quiet bit set, payload and sign kept).
#[inline]
pub fn quiet_f32(x: f32) -> f32 {
    f32::from_bits(x.to_bits() | 0x0040_0000)
}

/// The quiet form of a NaN (quiet bit set, payload and sign kept).
#[inline]
pub fn quiet_f64(x: f64) -> f64 {
    f64::from_bits(x.to_bits() | 0x0008_0000_0000_0000)
}

/// True for a signalling NaN.
#[inline]
pub fn is_snan_f32(x: f32) -> bool {
    x.is_nan() && x.to_bits() & 0x0040_0000 == 0
}

/// True for a signalling NaN.
#[inline]
pub fn is_snan_f64(x: f64) -> bool {
    x.is_nan() && x.to_bits() & 0x0008_0000_0000_0000 == 0
}

#[inline]
fn s(x: f32) -> Single {
    Single::from_bits(u128::from(x.to_bits()))
}

#[inline]
fn s_out(x: Single) -> f32 {
    f32::from_bits(x.to_bits() as u32)
}

#[inline]
fn d(x: f64) -> Double {
    Double::from_bits(u128::from(x.to_bits()))
}

#[inline]
fn d_out(x: Double) -> f64 {
    f64::from_bits(x.to_bits() as u64)
}

// The soft-float functions below take the directed modes; a NaN operand
// falls back to native arithmetic so NaN propagation (which operand's
// payload survives) is the same on both paths.

/// `a + b` rounded per `r`.
#[inline]
pub fn add_f32(a: f32, b: f32, r: RoundMode) -> f32 {
    if r == RoundMode::NearestEven || a.is_nan() || b.is_nan() {
        return a + b;
    }
    s_out(s(a).add_r(s(b), r.ap()).value)
}

/// `a * b` rounded per `r`.
#[inline]
pub fn mul_f32(a: f32, b: f32, r: RoundMode) -> f32 {
    if r == RoundMode::NearestEven || a.is_nan() || b.is_nan() {
        return a * b;
    }
    s_out(s(a).mul_r(s(b), r.ap()).value)
}

/// `a * b + c` with one rounding per `r`.
#[inline]
pub fn fma_f32(a: f32, b: f32, c: f32, r: RoundMode) -> f32 {
    if r == RoundMode::NearestEven || a.is_nan() || b.is_nan() || c.is_nan() {
        return a.mul_add(b, c);
    }
    s_out(s(a).mul_add_r(s(b), s(c), r.ap()).value)
}

/// `a + b` rounded per `r`.
#[inline]
pub fn add_f64(a: f64, b: f64, r: RoundMode) -> f64 {
    if r == RoundMode::NearestEven || a.is_nan() || b.is_nan() {
        return a + b;
    }
    d_out(d(a).add_r(d(b), r.ap()).value)
}

/// `a * b` rounded per `r`.
#[inline]
pub fn mul_f64(a: f64, b: f64, r: RoundMode) -> f64 {
    if r == RoundMode::NearestEven || a.is_nan() || b.is_nan() {
        return a * b;
    }
    d_out(d(a).mul_r(d(b), r.ap()).value)
}

/// `a * b + c` with one rounding per `r`.
#[inline]
pub fn fma_f64(a: f64, b: f64, c: f64, r: RoundMode) -> f64 {
    if r == RoundMode::NearestEven || a.is_nan() || b.is_nan() || c.is_nan() {
        return a.mul_add(b, c);
    }
    d_out(d(a).mul_add_r(d(b), d(c), r.ap()).value)
}

/// `a / b` rounded per `r`.
#[inline]
#[cfg(test)]
pub fn div_f64(a: f64, b: f64, r: RoundMode) -> f64 {
    if r == RoundMode::NearestEven || a.is_nan() || b.is_nan() {
        return a / b;
    }
    d_out(d(a).div_r(d(b), r.ap()).value)
}

/// The square root rounded per `r` (the correctly rounded root, stepped
/// one ulp where its square shows the exact root lies on the other side).
#[inline]
pub fn sqrt_f64(x: f64, r: RoundMode) -> f64 {
    let y = x.sqrt();
    if r == RoundMode::NearestEven || !y.is_finite() || y == 0.0 {
        return y;
    }
    // x - y*y, exact with one fma: its sign says where the true root is.
    let rem = (-y).mul_add(y, x);
    match r {
        RoundMode::Up if rem > 0.0 => next_up_f64(y),
        RoundMode::Down | RoundMode::Zero if rem < 0.0 => next_down_f64(y),
        _ => y,
    }
}

/// The square root of an f32 rounded per `r`.
#[inline]
pub fn sqrt_f32(x: f32, r: RoundMode) -> f32 {
    // The f64 root rounded once more to f32 is the correctly rounded
    // f32 root (53 >= 2 * 24 + 2 bits).
    let y = (f64::from(x)).sqrt() as f32;
    if r == RoundMode::NearestEven || !y.is_finite() || y == 0.0 {
        return y;
    }
    // y*y is exact in f64.
    let sq = f64::from(y) * f64::from(y);
    let x = f64::from(x);
    match r {
        RoundMode::Up if sq < x => next_up_f32(y),
        RoundMode::Down | RoundMode::Zero if sq > x => next_down_f32(y),
        _ => y,
    }
}

/// The next f32 towards +inf (for finite, positive `x`).
fn next_up_f32(x: f32) -> f32 {
    f32::from_bits(x.to_bits() + 1)
}

/// The next f32 towards zero (for finite, positive, non-zero `x`).
fn next_down_f32(x: f32) -> f32 {
    f32::from_bits(x.to_bits() - 1)
}

fn next_up_f64(x: f64) -> f64 {
    f64::from_bits(x.to_bits() + 1)
}

fn next_down_f64(x: f64) -> f64 {
    f64::from_bits(x.to_bits() - 1)
}

/// An f64 narrowed to f32, rounded per `r`.
#[inline]
pub fn f64_to_f32(x: f64, r: RoundMode) -> f32 {
    if r == RoundMode::NearestEven || x.is_nan() {
        return x as f32;
    }
    let mut loses = false;
    let v: Single = d(x).convert_r(r.ap(), &mut loses).value;
    s_out(v)
}

/// A (32-bit) integer to f32, rounded per `r`.
#[inline]
pub fn int_to_f32(i: i64, r: RoundMode) -> f32 {
    if r == RoundMode::NearestEven {
        return i as f32;
    }
    s_out(Single::from_i128_r(i128::from(i), r.ap()).value)
}

/// `x` rounded to an integral value per `r` (RNDINT of the docs).
#[inline]
pub fn round_int_f32(x: f32, r: RoundMode) -> f32 {
    match r {
        RoundMode::NearestEven => x.round_ties_even(),
        RoundMode::Up => x.ceil(),
        RoundMode::Down => x.floor(),
        RoundMode::Zero => x.trunc(),
    }
}

/// `x * 2^n` with one rounding (to nearest even), as C's `scalbn`: the
/// scaling is split so no intermediate over- or underflows early.
pub fn ldexp_f64(x: f64, n: i32) -> f64 {
    let mut y = x;
    let mut n = n;
    let p1023 = f64::from_bits(0x7fe0_0000_0000_0000); // 2^1023
    let m969 = f64::from_bits(0x0360_0000_0000_0000); // 2^-1022 * 2^53
    if n > 1023 {
        y *= p1023;
        n -= 1023;
        if n > 1023 {
            y *= p1023;
            n -= 1023;
            n = n.min(1023);
        }
    } else if n < -1022 {
        // Keep the intermediate normal (scale by 2^-969, not 2^-1022) so
        // the final multiply rounds once.
        y *= m969;
        n += 1022 - 53;
        if n < -1022 {
            y *= m969;
            n += 1022 - 53;
            n = n.max(-1022);
        }
    }
    y * f64::from_bits(((0x3ff + i64::from(n)) as u64) << 52)
}

/// `x * 2^n` for f32, rounded once to nearest even.
pub fn ldexp_f32(x: f32, n: i32) -> f32 {
    // Exact in f64 for any |n| <= 400, and past that the f32 result is
    // already 0 or infinity.
    let n = n.clamp(-400, 400);
    (f64::from(x) * f64::from_bits(((0x3ff + i64::from(n)) as u64) << 52)) as f32
}

/// frexp: (mantissa in [0.5, 1) with the sign of `x`, exponent) for a
/// finite `x`; zero gives (x, 0).
pub fn frexp_f32(x: f32) -> (f32, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let b = x.to_bits();
    let e = (b >> 23 & 0xff) as i32;
    if e == 0 {
        // Denormal: normalise by 2^32 first.
        let (m, e) = frexp_f32(x * f32::from_bits(0x4f80_0000));
        return (m, e - 32);
    }
    (f32::from_bits((b & 0x807f_ffff) | 0x3f00_0000), e - 126)
}

/// frexp for f64 (see [`frexp_f32`]).
pub fn frexp_f64(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let b = x.to_bits();
    let e = (b >> 52 & 0x7ff) as i32;
    if e == 0 {
        let (m, e) = frexp_f64(x * f64::from_bits(0x43f0_0000_0000_0000)); // 2^64
        return (m, e - 64);
    }
    (
        f64::from_bits((b & 0x800f_ffff_ffff_ffff) | 0x3fe0_0000_0000_0000),
        e - 1022,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mode_fields() {
        let m = FpMode::f32(0b10_01_01_10);
        assert_eq!(m.round, RoundMode::Down);
        assert!(m.keep_in && !m.keep_out);
        let m = FpMode::f64(0b10_01_01_10);
        assert_eq!(m.round, RoundMode::Up);
        assert!(!m.keep_in && m.keep_out);
    }

    #[test]
    fn directed_rounding_by_hand() {
        // 1 + 2^-24 lies halfway between 1 and 1 + 2^-23.
        let (a, b) = (1.0f32, f32::from_bits(0x3380_0000));
        assert_eq!(add_f32(a, b, RoundMode::NearestEven).to_bits(), 0x3f80_0000);
        assert_eq!(add_f32(a, b, RoundMode::Up).to_bits(), 0x3f80_0001);
        assert_eq!(add_f32(a, b, RoundMode::Down).to_bits(), 0x3f80_0000);
        assert_eq!(add_f32(-a, -b, RoundMode::Down).to_bits(), 0xbf80_0001);
        assert_eq!(add_f32(-a, -b, RoundMode::Zero).to_bits(), 0xbf80_0000);
        // x + (-x) is -0 rounding down, +0 otherwise.
        assert_eq!(add_f32(1.0, -1.0, RoundMode::Down).to_bits(), 0x8000_0000);
        assert_eq!(add_f32(1.0, -1.0, RoundMode::Up).to_bits(), 0);
        // 1/3 in f64: ...5555 truncated, ...5556 rounded up.
        assert_eq!(
            div_f64(1.0, 3.0, RoundMode::Zero).to_bits(),
            0x3fd5_5555_5555_5555
        );
        assert_eq!(
            div_f64(1.0, 3.0, RoundMode::Up).to_bits(),
            0x3fd5_5555_5555_5556
        );
        // MAX * 2 overflows to MAX toward zero, to inf up.
        assert_eq!(mul_f32(f32::MAX, 2.0, RoundMode::Zero), f32::MAX);
        assert_eq!(mul_f32(f32::MAX, 2.0, RoundMode::Up), f32::INFINITY);
        // sqrt(2) = 1.41421353816986083984375 (0x3fb504f3) rounded to
        // nearest is below the root; up is the next one.
        assert_eq!(sqrt_f32(2.0, RoundMode::NearestEven).to_bits(), 0x3fb5_04f3);
        assert_eq!(sqrt_f32(2.0, RoundMode::Up).to_bits(), 0x3fb5_04f4);
        assert_eq!(sqrt_f32(2.0, RoundMode::Zero).to_bits(), 0x3fb5_04f3);
        assert_eq!(sqrt_f64(4.0, RoundMode::Up), 2.0);
        // 2^24 + 1 is not an f32.
        assert_eq!(int_to_f32(16_777_217, RoundMode::Up), 16_777_218.0);
        assert_eq!(int_to_f32(16_777_217, RoundMode::NearestEven), 16_777_216.0);
        assert_eq!(int_to_f32(-16_777_217, RoundMode::Down), -16_777_218.0);
        // 1 + 2^-30 narrows to 1 or 1 + 2^-23.
        let x = 1.0 + f64::from_bits(0x3e10_0000_0000_0000);
        assert_eq!(f64_to_f32(x, RoundMode::NearestEven), 1.0);
        assert_eq!(f64_to_f32(x, RoundMode::Up).to_bits(), 0x3f80_0001);
    }

    #[test]
    fn ldexp_and_frexp() {
        assert_eq!(ldexp_f64(1.0, -1074), f64::from_bits(1));
        assert_eq!(ldexp_f64(1.0, -1075), 0.0);
        assert_eq!(ldexp_f64(1.5, -1075), f64::from_bits(1));
        assert_eq!(ldexp_f64(1.0, 1024), f64::INFINITY);
        assert_eq!(ldexp_f64(0.5, 1024), f64::from_bits(0x7fe0_0000_0000_0000));
        assert_eq!(ldexp_f32(1.0, -149), f32::from_bits(1));
        assert_eq!(ldexp_f32(3.0, i32::MIN), 0.0);
        assert_eq!(frexp_f32(8.0), (0.5, 4));
        assert_eq!(frexp_f32(-0.75), (-0.75, 0));
        assert_eq!(frexp_f32(f32::from_bits(1)), (0.5, -148));
        assert_eq!(frexp_f64(f64::from_bits(1)), (0.5, -1073));
        assert_eq!(frexp_f64(-3.0), (-0.75, 2));
    }
}
