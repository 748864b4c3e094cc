//! Vector ALU, 16-bit floating point and packed math (GCN 1.2+ f16 rows,
//! GCN 1.4 VOP3P, GCN 1.4.1 dot products).
//!
//! Semantics follow `GcnInstrsVop2.md`, `GcnInstrsVop1.md`,
//! `GcnInstrsVopc.md`, `GcnInstrsVop3.md` and `GcnInstrsVop3p.md`; the dot
//! products (not in the CLRX docs) follow AMD's "Vega 7nm" ISA manual
//! (`D = sum of the element products + S2`, clamp saturates).
//!
//! # Floating point
//!
//! f16 shares MODE bits 2-3 (rounding) and 6-7 (denormals: bit 6 keeps
//! input denormals, bit 7 output denormals) with f64 (`GcnState.md`).
//! Every rounding mode is exact: an f16 is an integer multiple of 2^-24
//! below 2^16, so `a + b`, `a * b` and `a * b + c` are computed exactly as
//! `i128` fixed-point numbers and rounded once (`round_to`); f32 → f16
//! conversions round the exact f32 value; mixed-precision results round an
//! `f64` value plus the sign of its exact residual (TwoSum), which is again
//! a single correct rounding. The transcendental approximations (`v_rcp`,
//! `v_sqrt`, `v_rsq`, `v_log`, `v_exp`, `v_sin`, `v_cos`) are computed in
//! f64 and rounded in the MODE's direction; the docs only promise about
//! 1 ulp for them.
//!
//! `v_mad_f16`/`v_mac_f16`/`v_madmk_f16`/`v_madak_f16` are unfused (the
//! product is rounded, as LLVM's FMAD that selects them) and flush
//! denormals whatever MODE says ("It applies OMOD modifier to result and it
//! flush denormals", `GcnInstrsVop3.md`). NaN results: a NaN input comes
//! back quieted (the first NaN source), an invalid operation gives
//! 0x7e00. OMOD is ignored when output denormals are kept (the VOP2 doc's
//! note); CLAMP clamps to [0, 1] with NaN → 0 like [`vector::omod_clamp_f32`].
//!
//! # The 16-bit destination
//!
//! GCN 1.2 writes a 16-bit result zero-extended (the upper half cleared).
//! On GCN 1.4 the VOP3 OP_SEL bit 3 writes the upper half and keeps the
//! lower one (`GcnInstrsVop3.md`, OP_SEL table; `v_interp_p2_f16` "other
//! part is preserved"); without it most instructions still zero the upper
//! half, but the GCN 1.4 opcodes of `v_mad_f16`, `v_fma_f16` and
//! `v_div_fixup_f16` preserve it (their `_legacy` twins at the GCN 1.2
//! opcodes zero it): AMD's Vega ISA manual, V_MAD_F16 vs V_MAD_LEGACY_F16
//! ("hi 16 bits are preserved" / "zeroed"), the rule LLVM encodes in
//! `GCNSubtarget::zeroesHigh16BitsOfDest` ("in gfx9 … most instructions
//! maintain the legacy behavior of 0ing"; the CLRX docs do not say). SDWA
//! forms place the result per `dst_sel` ([`vector::write_u32`]). GCN 1.5
//! keeps the other half in every form but SDWA (LLVM: "on gfx10, all
//! 16-bit instructions preserve the high bits").
//!
//! GCN 1.5's `v_fmac_f16`, `v_fmamk_f16`, `v_fmaak_f16`, `v_pk_fmac_f16`
//! and `v_fma_mix*` are fused (one rounding, denormals per MODE), as GCN
//! 1.4.1's `v_fma_mix*`; GCN 1.5.1's `v_dot2c_f32_f16` and
//! `v_dot4c_i32_i8` accumulate into VDST (the VOP2 forms read both halves
//! of their packed sources; the integer sum wraps).
//!
//! `v_dot2_f32_f16` sums two exact f16 products and an f32 with TwoSum
//! residuals before one rounding; the hardware's internal precision is
//! undocumented, so only that ordinary sums are correctly rounded is
//! claimed (a residual lost to extreme cancellation between terms over
//! ~100 bits apart is the one inexact case).
//!
//! # Sources
//!
//! A 16-bit source is the 32-bit source value (SDWA selection and DPP
//! applied by [`vector::src_u32`]) of which OP_SEL picks a half (VOP3 on
//! GCN 1.4; zero elsewhere). VOP3P reads the low lane from the half OP_SEL
//! picks and the high lane from the half OP_SEL_HI picks, of the same
//! 32-bit value: an inline constant is a 32-bit value whose f16 constant
//! sits in the low half (the high half is 0 for float constants and the
//! sign extension for integer ones), as in LLVM's
//! `isInlinableLiteralV216`. NEG/NEG_HI negate the low/high lane of f16
//! operands; on packed integer instructions they have no meaning and fault.

use std::cmp::Ordering;

use gcn_asm::decode::Form;
use gcn_asm::isa::InstrRow;
use gcn_asm::isa::Mnemonic as M;
use gcn_asm::GcnVersion;

use super::float::MODE_IEEE;
use super::vector::{self, write_sdst_mask, write_u32, Lanes};
use super::{h, Env, Fault, FaultKind, Handler, Op, Step, Wave, WAVE_SIZE};

// ---------------------------------------------------------------------------
// Rounding

/// A rounding mode of the MODE register (0 nearest even, 1 towards +inf,
/// 2 towards -inf, 3 towards zero).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Round {
    /// To nearest, ties to even.
    Nearest,
    /// Towards +infinity.
    Up,
    /// Towards -infinity.
    Down,
    /// Towards zero.
    Zero,
}

impl Round {
    fn from_bits(b: u32) -> Round {
        match b & 3 {
            0 => Round::Nearest,
            1 => Round::Up,
            2 => Round::Down,
            _ => Round::Zero,
        }
    }
}

/// The MODE register's rules for one precision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FpMode {
    /// Rounding.
    pub round: Round,
    /// Input denormals are kept (else read as zero of the same sign).
    pub keep_in: bool,
    /// Output denormals are kept (else written as zero of the same sign).
    pub keep_out: bool,
    /// MODE.IEEE: min/max quiet signalling NaNs.
    pub ieee: bool,
}

impl FpMode {
    /// The f16 (and f64) rules: round bits 2-3, denormal bits 6-7.
    pub fn f16(mode: u32) -> Self {
        FpMode {
            round: Round::from_bits(mode >> 2),
            keep_in: mode >> 6 & 1 != 0,
            keep_out: mode >> 7 & 1 != 0,
            ieee: mode & MODE_IEEE != 0,
        }
    }

    /// The f32 rules: round bits 0-1, denormal bits 4-5.
    pub fn f32(mode: u32) -> Self {
        FpMode {
            round: Round::from_bits(mode),
            keep_in: mode >> 4 & 1 != 0,
            keep_out: mode >> 5 & 1 != 0,
            ieee: mode & MODE_IEEE != 0,
        }
    }

    /// The same rules with denormals flushed (the mad family).
    fn flushing(self) -> Self {
        FpMode {
            keep_in: false,
            keep_out: false,
            ..self
        }
    }
}

/// An IEEE binary format: fraction and exponent widths.
#[derive(Debug, Clone, Copy)]
struct Fmt {
    man: u32,
    ebits: u32,
}

const HALF: Fmt = Fmt { man: 10, ebits: 5 };
const SINGLE: Fmt = Fmt { man: 23, ebits: 8 };

impl Fmt {
    /// Exponent of the smallest denormal (2^-24 for f16, 2^-149 for f32).
    fn qmin(self) -> i32 {
        2 - (1 << (self.ebits - 1)) - self.man as i32
    }
    fn sign(self) -> u32 {
        1 << (self.man + self.ebits)
    }
    fn max_biased(self) -> i32 {
        (1 << self.ebits) - 2
    }
    fn inf(self) -> u32 {
        ((1 << self.ebits) - 1) << self.man
    }
}

/// Whether rounding moves the kept magnitude up by one unit.
fn rounds_up(rm: Round, neg: bool, odd: bool, rem: Ordering, inexact: bool) -> bool {
    match rm {
        Round::Nearest => rem == Ordering::Greater || (rem == Ordering::Equal && odd),
        Round::Zero => false,
        Round::Up => inexact && !neg,
        Round::Down => inexact && neg,
    }
}

/// Rounds the exact value `(-1)^neg * mag * 2^exp` once to format `f`
/// (bits), denormals kept, overflow per the rounding direction.
fn round_to(f: Fmt, neg: bool, mag: u128, exp: i32, rm: Round) -> u32 {
    let sign = if neg { f.sign() } else { 0 };
    if mag == 0 {
        return sign;
    }
    let nbits = 128 - mag.leading_zeros() as i32;
    let top = exp + nbits - 1;
    let mut q = (top - f.man as i32).max(f.qmin());
    let shift = q - exp;
    let mut kept = if shift <= 0 {
        // Exact: the value has no bits below the quantum.
        mag << (-shift) as u32
    } else if shift >= 128 {
        // Far below half a quantum.
        u128::from(rounds_up(rm, neg, false, Ordering::Less, true))
    } else {
        let k = mag >> shift;
        let rem = mag & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        k + u128::from(rounds_up(rm, neg, k & 1 == 1, rem.cmp(&half), rem != 0))
    };
    if kept >> (f.man + 1) != 0 {
        kept >>= 1;
        q += 1;
    }
    if kept >> f.man == 0 {
        return sign | kept as u32;
    }
    let biased = q - f.qmin() + 1;
    if biased > f.max_biased() {
        let to_inf = match rm {
            Round::Nearest => true,
            Round::Zero => false,
            Round::Up => !neg,
            Round::Down => neg,
        };
        return if to_inf {
            sign | f.inf()
        } else {
            sign | (f.inf() - 1)
        };
    }
    sign | ((biased as u32) << f.man) | (kept as u32 & ((1 << f.man) - 1))
}

/// Sign, magnitude and exponent of a finite f16.
fn parts16(x: u16) -> (bool, u128, i32) {
    let e = i32::from(x >> 10 & 31);
    let m = u128::from(x & 0x3ff);
    let neg = x & 0x8000 != 0;
    if e == 0 {
        (neg, m, -24)
    } else {
        (neg, m | 0x400, e - 25)
    }
}

/// Sign, magnitude and exponent of a finite f32.
fn parts32(x: u32) -> (bool, u128, i32) {
    let e = (x >> 23 & 0xff) as i32;
    let m = u128::from(x & 0x7f_ffff);
    let neg = x >> 31 != 0;
    if e == 0 {
        (neg, m, -149)
    } else {
        (neg, m | 0x80_0000, e - 150)
    }
}

/// Sign, magnitude and exponent of a finite f64.
fn parts64(x: f64) -> (bool, u128, i32) {
    let b = x.to_bits();
    let e = (b >> 52 & 0x7ff) as i32;
    let m = u128::from(b & ((1 << 52) - 1));
    let neg = b >> 63 != 0;
    if e == 0 {
        (neg, m, -1074)
    } else {
        (neg, m | (1 << 52), e - 1075)
    }
}

/// `a + b` and its exact rounding error (Knuth's TwoSum; finite inputs).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// Rounds the exact value `r + e` (|e| at most half an ulp of `r`, `r`
/// finite) to format `f`: the residual only matters through its sign, so
/// `r` is nudged by an eighth of its ulp, which lies strictly between the
/// same format boundaries as `r + e` (every boundary of a narrower format
/// is an f64 value).
fn round_sticky(f: Fmt, r: f64, e: f64, rm: Round) -> u32 {
    let (neg, mag, exp) = parts64(r);
    if e == 0.0 || mag == 0 {
        return round_to(f, neg, mag, exp, rm);
    }
    let grows = (e < 0.0) == neg;
    let mag8 = if grows {
        (mag << 3) + 1
    } else {
        (mag << 3) - 1
    };
    round_to(f, neg, mag8, exp - 3, rm)
}

// ---------------------------------------------------------------------------
// f16 values

/// The default quiet NaN.
const NAN16: u16 = 0x7e00;
/// The negative default NaN ("-NAN_H" of the docs).
const NEG_NAN16: u16 = 0xfe00;
const ONE16: u16 = 0x3c00;
const INF16: u16 = 0x7c00;

fn is_nan16(x: u16) -> bool {
    x & 0x7fff > 0x7c00
}
fn is_snan16(x: u16) -> bool {
    is_nan16(x) && x & 0x200 == 0
}
fn is_inf16(x: u16) -> bool {
    x & 0x7fff == 0x7c00
}
fn is_zero16(x: u16) -> bool {
    x & 0x7fff == 0
}
fn is_denorm16(x: u16) -> bool {
    x & 0x7c00 == 0 && x & 0x3ff != 0
}
fn quiet16(x: u16) -> u16 {
    x | 0x200
}
fn neg16(x: u16) -> bool {
    x & 0x8000 != 0
}

/// Reads a denormal input as zero unless MODE keeps input denormals.
fn flush_in16(x: u16, fp: FpMode) -> u16 {
    if !fp.keep_in && is_denorm16(x) {
        x & 0x8000
    } else {
        x
    }
}

/// Writes a denormal result as zero unless MODE keeps output denormals.
fn flush_out16(x: u16, fp: FpMode) -> u16 {
    if !fp.keep_out && is_denorm16(x) {
        x & 0x8000
    } else {
        x
    }
}

/// The exact value of an f16 (finite or not; NaN stays NaN).
fn to_f64(x: u16) -> f64 {
    half::f16::from_bits(x).to_f64()
}

/// Rounds an exact `(-1)^neg * mag * 2^exp` to f16 per `fp`.
fn round16(neg: bool, mag: u128, exp: i32, fp: FpMode) -> u16 {
    flush_out16(round_to(HALF, neg, mag, exp, fp.round) as u16, fp)
}

/// Rounds an f64 (taken as exact) to f16 per `fp`.
fn from_f64(x: f64, fp: FpMode) -> u16 {
    if x.is_nan() {
        return if x.is_sign_negative() {
            NEG_NAN16
        } else {
            NAN16
        };
    }
    if x.is_infinite() {
        return if x < 0.0 { 0xfc00 } else { INF16 };
    }
    let (neg, mag, exp) = parts64(x);
    round16(neg, mag, exp, fp)
}

/// A finite f16 as an integer multiple of 2^-24.
fn fixed16(x: u16) -> i128 {
    let (neg, mag, exp) = parts16(x);
    let v = (mag << (exp + 24) as u32) as i128;
    if neg {
        -v
    } else {
        v
    }
}

/// Rounds `v * 2^scale`; an exact zero takes the sign `zero_neg`.
fn from_fixed(v: i128, scale: i32, zero_neg: bool, fp: FpMode) -> u16 {
    if v == 0 {
        return if zero_neg { 0x8000 } else { 0 };
    }
    round16(v < 0, v.unsigned_abs(), scale, fp)
}

/// The sign of an exact zero sum of terms with signs `a` and `b` (IEEE:
/// +0 unless both are negative, or rounding down).
fn zero_sign(a: bool, b: bool, rm: Round) -> bool {
    if a == b {
        a
    } else {
        rm == Round::Down
    }
}

/// The first NaN among `xs`, quieted.
fn first_nan(xs: &[u16]) -> Option<u16> {
    xs.iter().find(|&&x| is_nan16(x)).map(|&x| quiet16(x))
}

/// `a + b`, rounded once.
pub fn add16(a: u16, b: u16, fp: FpMode) -> u16 {
    if let Some(n) = first_nan(&[a, b]) {
        return n;
    }
    match (is_inf16(a), is_inf16(b)) {
        (true, true) if (a ^ b) & 0x8000 != 0 => NAN16,
        (true, _) => a,
        (false, true) => b,
        _ => from_fixed(
            fixed16(a) + fixed16(b),
            -24,
            zero_sign(neg16(a), neg16(b), fp.round),
            fp,
        ),
    }
}

/// `a - b`, rounded once (a NaN `b` propagates unnegated).
pub fn sub16(a: u16, b: u16, fp: FpMode) -> u16 {
    match first_nan(&[a, b]) {
        Some(n) => n,
        None => add16(a, b ^ 0x8000, fp),
    }
}

/// `a * b`, rounded once.
pub fn mul16(a: u16, b: u16, fp: FpMode) -> u16 {
    if let Some(n) = first_nan(&[a, b]) {
        return n;
    }
    let sign = (a ^ b) & 0x8000;
    if is_inf16(a) || is_inf16(b) {
        return if is_zero16(a) || is_zero16(b) {
            NAN16
        } else {
            INF16 | sign
        };
    }
    from_fixed(fixed16(a) * fixed16(b), -48, sign != 0, fp)
}

/// `a * b + c`, fused (rounded once).
pub fn fma16(a: u16, b: u16, c: u16, fp: FpMode) -> u16 {
    if let Some(n) = first_nan(&[a, b, c]) {
        return n;
    }
    let sp = (a ^ b) & 0x8000;
    if is_inf16(a) || is_inf16(b) {
        if is_zero16(a) || is_zero16(b) {
            return NAN16;
        }
        if is_inf16(c) && c & 0x8000 != sp {
            return NAN16;
        }
        return INF16 | sp;
    }
    if is_inf16(c) {
        return c;
    }
    let v = fixed16(a) * fixed16(b) + (fixed16(c) << 24);
    from_fixed(v, -48, zero_sign(sp != 0, neg16(c), fp.round), fp)
}

/// `a * b + c`, unfused: the product is rounded, denormals flushed.
pub fn mad16(a: u16, b: u16, c: u16, fp: FpMode) -> u16 {
    let fp = fp.flushing();
    let (a, b, c) = (flush_in16(a, fp), flush_in16(b, fp), flush_in16(c, fp));
    add16(mul16(a, b, fp), c, fp)
}

/// IEEE minNum/maxNum: a NaN operand yields the other one; in IEEE mode
/// a signalling NaN yields itself quieted; -0 is below +0.
fn minmax16(a: u16, b: u16, fp: FpMode, max: bool) -> u16 {
    if fp.ieee {
        if is_snan16(a) {
            return quiet16(a);
        }
        if is_snan16(b) {
            return quiet16(b);
        }
    }
    match (is_nan16(a), is_nan16(b)) {
        (true, true) => quiet16(a),
        (true, false) => b,
        (false, true) => a,
        _ => {
            let (x, y) = (to_f64(a), to_f64(b));
            if x == y {
                // Equal values differ only for ±0: max takes +0, min -0.
                if neg16(a) != max {
                    a
                } else {
                    b
                }
            } else if (x > y) == max {
                a
            } else {
                b
            }
        }
    }
}

/// `max(a, b)` (IEEE maxNum).
pub fn max16(a: u16, b: u16, fp: FpMode) -> u16 {
    minmax16(a, b, fp, true)
}

/// `min(a, b)` (IEEE minNum).
pub fn min16(a: u16, b: u16, fp: FpMode) -> u16 {
    minmax16(a, b, fp, false)
}

/// `a * 2^k`, rounded once.
pub fn ldexp16(a: u16, k: i32, fp: FpMode) -> u16 {
    if is_nan16(a) {
        return quiet16(a);
    }
    if is_inf16(a) || is_zero16(a) {
        return a;
    }
    let (neg, mag, exp) = parts16(a);
    // Past ±64 the result is an overflow or an underflow anyway.
    round16(neg, mag, exp + k.clamp(-64, 64), fp)
}

/// OMOD (unless output denormals are kept) then CLAMP on an f16 result.
fn omod_clamp16(x: u16, omod: u8, clamp: bool, fp: FpMode) -> u16 {
    let mut x = x;
    if omod != 0 && !fp.keep_out && !is_nan16(x) && !is_inf16(x) && !is_zero16(x) {
        let k = match omod {
            1 => 1,
            2 => 2,
            _ => -1,
        };
        let (neg, mag, exp) = parts16(x);
        x = round16(neg, mag, exp + k, fp);
    }
    if clamp {
        if is_nan16(x) {
            0
        } else if neg16(x) {
            // -0 stays, as in vector::omod_clamp_f32.
            if is_zero16(x) {
                x
            } else {
                0
            }
        } else if x > ONE16 {
            ONE16
        } else {
            x
        }
    } else {
        x
    }
}

/// `v_div_fixup_f16` (`GcnInstrsVop3.md`): `q` quotient, `d` denominator,
/// `n` numerator.
pub fn div_fixup16(q: u16, d: u16, n: u16) -> u16 {
    let sign = (d ^ n) & 0x8000;
    if is_nan16(d) && !is_nan16(n) {
        quiet16(d)
    } else if is_nan16(n) {
        quiet16(n)
    } else if is_zero16(d) && is_zero16(n) {
        NAN16
    } else if is_inf16(d) && is_inf16(n) {
        NEG_NAN16
    } else if is_zero16(d) {
        INF16 | sign
    } else if is_inf16(d) {
        sign
    } else if is_nan16(q) {
        INF16 | sign
    } else {
        q
    }
}

/// `v_cmp_class_f16`: the class bit of `x` (`GcnInstrsVopc.md` list).
pub fn class_bit16(x: u16) -> u32 {
    let neg = neg16(x);
    let bit = if is_nan16(x) {
        if is_snan16(x) {
            0
        } else {
            1
        }
    } else if is_inf16(x) {
        if neg {
            2
        } else {
            9
        }
    } else if is_zero16(x) {
        if neg {
            5
        } else {
            6
        }
    } else if is_denorm16(x) {
        if neg {
            4
        } else {
            7
        }
    } else if neg {
        3
    } else {
        8
    };
    1 << bit
}

/// The f16 compare predicates in opcode order (`GcnInstrsVopc.md`:
/// F, LT, EQ, LE, GT, LG, GE, O, U, NGE, NLG, NGT, NLE, NEQ, NLT, TRU).
fn compare(p: u8, a: f64, b: f64) -> bool {
    use Ordering::{Equal, Greater, Less};
    // None: unordered (a NaN operand).
    let o = a.partial_cmp(&b);
    match p {
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

/// The unary f16 operations (`GcnInstrsVop1.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Un {
    Rcp,
    Sqrt,
    Rsq,
    Log,
    Exp,
    Sin,
    Cos,
    FrexpMant,
    Floor,
    Ceil,
    Trunc,
    Rndne,
    Fract,
}

/// A unary f16 operation on a (flushed) input.
fn unary16(op: Un, x: u16, fp: FpMode) -> u16 {
    let v = to_f64(x);
    let neg = neg16(x);
    if is_nan16(x) {
        return quiet16(x);
    }
    match op {
        Un::Rcp => {
            if is_zero16(x) {
                INF16 | (x & 0x8000)
            } else if is_inf16(x) {
                x & 0x8000
            } else {
                from_f64(1.0 / v, fp)
            }
        }
        Un::Sqrt => {
            if neg && !is_zero16(x) {
                NEG_NAN16
            } else {
                from_f64(v.sqrt(), fp)
            }
        }
        Un::Rsq => {
            if neg && !is_zero16(x) {
                NEG_NAN16
            } else if is_zero16(x) {
                INF16 | (x & 0x8000)
            } else {
                from_f64(1.0 / v.sqrt(), fp)
            }
        }
        Un::Log => {
            if is_zero16(x) {
                0xfc00
            } else if neg {
                NEG_NAN16
            } else {
                from_f64(v.log2(), fp)
            }
        }
        Un::Exp => from_f64(v.exp2(), fp),
        Un::Sin | Un::Cos => {
            // The input is in revolutions, valid in [-1, 1] (out of range:
            // sin 0, cos 1; infinity: -NaN).
            if is_inf16(x) {
                NEG_NAN16
            } else if v.abs() > 1.0 {
                if op == Un::Sin {
                    0
                } else {
                    ONE16
                }
            } else {
                let t = v * std::f64::consts::TAU;
                from_f64(if op == Un::Sin { t.sin() } else { t.cos() }, fp)
            }
        }
        Un::FrexpMant => {
            if is_inf16(x) || is_zero16(x) {
                x
            } else {
                // Mantissa in [0.5, 1) with the input's sign.
                let (neg, mag, _) = parts16(x);
                let n = 128 - mag.leading_zeros() as i32;
                round16(neg, mag, -n, fp)
            }
        }
        Un::Floor | Un::Ceil | Un::Trunc | Un::Rndne => {
            if is_inf16(x) {
                return x;
            }
            let r = match op {
                Un::Floor => v.floor(),
                Un::Ceil => v.ceil(),
                Un::Trunc => v.trunc(),
                _ => v.round_ties_even(),
            };
            // Integers below 2^16 and ±0 are exact f16 values; the sign of
            // a zero result follows the input (ceil(-0.5) = -0).
            let r = if r == 0.0 {
                if neg {
                    -0.0
                } else {
                    0.0
                }
            } else {
                r
            };
            from_f64(r, fp)
        }
        Un::Fract => {
            if is_inf16(x) {
                return if neg { NEG_NAN16 } else { NAN16 };
            }
            // Exact in f64; rounded once, then kept below 1.0 (like
            // v_fract_f32's clamp to the largest value below 1).
            let r = from_f64(v - v.floor(), fp);
            if r > 0x3bff {
                0x3bff
            } else {
                r
            }
        }
    }
}

/// `v_frexp_exp_i16_f16`: the exponent of the frexp mantissa in [0.5, 1).
fn frexp_exp16(x: u16) -> u16 {
    if is_nan16(x) || is_inf16(x) || is_zero16(x) {
        return 0;
    }
    let (_, mag, exp) = parts16(x);
    let n = 128 - mag.leading_zeros() as i32;
    (exp + n) as i16 as u16
}

/// Float → integer with truncation, NaN → 0, saturated to `[lo, hi]`.
fn to_int16(x: u16, lo: f64, hi: f64) -> u16 {
    if is_nan16(x) {
        return 0;
    }
    to_f64(x).trunc().clamp(lo, hi) as i32 as u16
}

/// Normalised conversions: `clamp(x, lo, 1) * scale`, rounded to nearest
/// even (AMD's f16 → snorm/unorm), NaN → 0.
fn norm16(x: u16, lo: f64, scale: f64) -> u16 {
    if is_nan16(x) {
        return 0;
    }
    (to_f64(x).clamp(lo, 1.0) * scale).round_ties_even() as i32 as u16
}

// ---------------------------------------------------------------------------
// Operands

/// The half OP_SEL bit `s` selects of 64 32-bit lanes.
#[inline]
fn half_of(v: &Lanes, hi: bool) -> [u16; WAVE_SIZE] {
    let sh = if hi { 16 } else { 0 };
    v.map(|x| (x >> sh) as u16)
}

/// Source slot `s` as 16 raw bits: DPP/SDWA applied, then the half
/// OP_SEL picks (VOP3 on GCN 1.4); no modifiers.
#[inline]
fn src16(w: &Wave, op: &Op, s: usize) -> [u16; WAVE_SIZE] {
    let v = vector::src_u32(w, op, s);
    half_of(&v, op.instr.mods.op_sel >> s & 1 != 0)
}

/// Source slot `s` as f16: [`src16`], abs and neg, input denormals per
/// `fp`.
#[inline]
fn src_h(w: &Wave, op: &Op, s: usize, fp: FpMode) -> [u16; WAVE_SIZE] {
    let m = &op.instr.mods;
    let and = if m.abs >> s & 1 != 0 { 0x7fff } else { 0xffff };
    let xor = if m.neg >> s & 1 != 0 { 0x8000 } else { 0 };
    src16(w, op, s).map(|x| flush_in16((x & and) ^ xor, fp))
}

/// Writes 16-bit results: SDWA places them per `dst_sel`; OP_SEL bit 3
/// (GCN 1.4 VOP3) writes the upper half keeping the lower; else the upper
/// half is kept when `keep_hi` or on GCN 1.5 (every form), zeroed
/// otherwise.
fn write16(w: &mut Wave, op: &Op, v: &[u16; WAVE_SIZE], keep_hi: bool) {
    let keep_hi = keep_hi || op.instr.version.is_gcn15();
    let dst = op.vdst_row();
    let old = w.vgpr[dst];
    let r: Lanes = if op.instr.form == Form::Sdwa {
        v.map(u32::from)
    } else if op.instr.mods.op_sel & 8 != 0 {
        std::array::from_fn(|l| (old[l] & 0xffff) | (u32::from(v[l]) << 16))
    } else if keep_hi {
        std::array::from_fn(|l| (old[l] & 0xffff_0000) | u32::from(v[l]))
    } else {
        v.map(u32::from)
    };
    write_u32(w, op, &r);
}

/// Writes f16 results with OMOD and CLAMP.
fn write_h(w: &mut Wave, op: &Op, v: &[u16; WAVE_SIZE], fp: FpMode, keep_hi: bool) {
    let m = op.instr.mods;
    if m.omod != 0 || m.clamp {
        let v = v.map(|x| omod_clamp16(x, m.omod, m.clamp, fp));
        write16(w, op, &v, keep_hi);
    } else {
        write16(w, op, v, keep_hi);
    }
}

fn fp16(w: &Wave) -> FpMode {
    FpMode::f16(w.mode)
}

fn ok() -> Result<Step, Fault> {
    Ok(Step::Next)
}

fn not_emulated(op: &Op, what: &str) -> Fault {
    Fault::new(FaultKind::NotEmulated(format!(
        "instruction {} with {what}",
        op.mnemonic()
    )))
}

/// `D = f(S0)` on f16.
fn h1(w: &mut Wave, op: &Op, f: impl Fn(u16, FpMode) -> u16) -> Result<Step, Fault> {
    let fp = fp16(w);
    let a = src_h(w, op, 0, fp);
    write_h(w, op, &a.map(|x| f(x, fp)), fp, false);
    ok()
}

/// `D = f(S0, S1)` on f16.
fn h2(w: &mut Wave, op: &Op, f: impl Fn(u16, u16, FpMode) -> u16) -> Result<Step, Fault> {
    let fp = fp16(w);
    let a = src_h(w, op, 0, fp);
    let b = src_h(w, op, 1, fp);
    let r = std::array::from_fn(|l| f(a[l], b[l], fp));
    write_h(w, op, &r, fp, false);
    ok()
}

/// `D = f(S0, S1, S2)` on f16 (VOP3 only).
fn h3(
    w: &mut Wave,
    op: &Op,
    keep_hi: bool,
    f: impl Fn(u16, u16, u16, FpMode) -> u16,
) -> Result<Step, Fault> {
    let fp = fp16(w);
    let a = src_h(w, op, 0, fp);
    let b = src_h(w, op, 1, fp);
    let c = src_h(w, op, 2, fp);
    let r = std::array::from_fn(|l| f(a[l], b[l], c[l], fp));
    write_h(w, op, &r, fp, keep_hi);
    ok()
}

/// `v_mac_f16`: `D = S0 * S1 + D` (unfused), the accumulator read from
/// the half that is written; `fused`: GCN 1.5's `v_fmac_f16`, `D =
/// fma(S0, S1, D)` with denormals per MODE.
fn mac16(w: &mut Wave, op: &Op, fused: bool) -> Result<Step, Fault> {
    let fp = if fused { fp16(w) } else { fp16(w).flushing() };
    let hi = if op.instr.form == Form::Sdwa {
        match op.instr.mods.sdwa.dst_sel {
            4 | 6 => false,
            5 => true,
            _ => return Err(not_emulated(op, "a byte dst_sel")),
        }
    } else {
        op.instr.mods.op_sel & 8 != 0
    };
    let a = src_h(w, op, 0, fp);
    let b = src_h(w, op, 1, fp);
    let d = vector::lanes_u32(w, op.src(usize::from(op.vdst)));
    let c = half_of(&d, hi).map(|x| flush_in16(x, fp));
    let f = if fused { fma16 } else { mad16 };
    let r = std::array::from_fn(|l| f(a[l], b[l], c[l], fp));
    write_h(w, op, &r, fp, false);
    ok()
}

/// GCN 1.5 `v_pk_fmac_f16` (VOP2): `D.lo = fma(S0.lo, S1.lo, D.lo)`,
/// `D.hi = fma(S0.hi, S1.hi, D.hi)`, denormals per MODE.
fn pk_fmac16(w: &mut Wave, op: &Op) -> Result<Step, Fault> {
    let m = &op.instr.mods;
    if m.abs | m.neg != 0 || m.omod != 0 {
        return Err(not_emulated(op, "abs/neg/omod on packed halves"));
    }
    let fp = fp16(w);
    let halves = |v: Lanes| {
        (
            half_of(&v, false).map(|x| flush_in16(x, fp)),
            half_of(&v, true).map(|x| flush_in16(x, fp)),
        )
    };
    let (a0, a1) = halves(vector::src_u32(w, op, 0));
    let (b0, b1) = halves(vector::src_u32(w, op, 1));
    let (c0, c1) = halves(vector::lanes_u32(w, op.src(usize::from(op.vdst))));
    let fin = |x: u16| omod_clamp16(x, 0, m.clamp, fp);
    let lo = std::array::from_fn(|l| fin(fma16(a0[l], b0[l], c0[l], fp)));
    let hi = std::array::from_fn(|l| fin(fma16(a1[l], b1[l], c1[l], fp)));
    write_u32(w, op, &pack(&lo, &hi));
    ok()
}

/// `v_madmk_f16` (`D = S0 * K + S1`) and `v_madak_f16` (`D = S0 * S1 +
/// K`); `k` is the literal's operand index. `fused`: GCN 1.5's
/// `v_fmamk_f16`/`v_fmaak_f16` (one rounding, denormals per MODE).
fn madk16(w: &mut Wave, op: &Op, k_is_addend: bool, fused: bool) -> Result<Step, Fault> {
    let fp = if fused { fp16(w) } else { fp16(w).flushing() };
    let f = if fused { fma16 } else { mad16 };
    let a = src_h(w, op, 0, fp);
    let b = src_h(w, op, 1, fp);
    let k_index = if k_is_addend { 3 } else { 2 };
    let k = flush_in16(w.read_s32(op.src(k_index)) as u16, fp);
    let r = std::array::from_fn(|l| {
        if k_is_addend {
            f(a[l], b[l], k, fp)
        } else {
            f(a[l], k, b[l], fp)
        }
    });
    write_h(w, op, &r, fp, false);
    ok()
}

/// `v_cmp*_f16` (predicate `P`) and `v_cmpx*_f16` (`X`).
fn cmp16<const P: u8, const X: bool>(
    w: &mut Wave,
    op: &Op,
    _: &mut Env<'_>,
) -> Result<Step, Fault> {
    let fp = fp16(w);
    let a = src_h(w, op, 0, fp);
    let b = src_h(w, op, 1, fp);
    let bits = vector::mask_of(|l| compare(P, to_f64(a[l]), to_f64(b[l])));
    finish_cmp(w, op, bits, X);
    ok()
}

/// Writes a compare result to VCC/SDST and, for v_cmpx, to EXEC.
fn finish_cmp(w: &mut Wave, op: &Op, bits: u64, x: bool) {
    let mask = vector::write_mask(w, op);
    write_sdst_mask(w, op, bits);
    if x {
        w.set_exec(bits & mask);
    }
}

/// `v_cmp_class_f16`/`v_cmpx_class_f16`: no denormal flushing.
fn class16(w: &mut Wave, op: &Op, x: bool) -> Result<Step, Fault> {
    let m = &op.instr.mods;
    let and = if m.abs & 1 != 0 { 0x7fff } else { 0xffff };
    let xor = if m.neg & 1 != 0 { 0x8000 } else { 0 };
    let a = src16(w, op, 0).map(|v| (v & and) ^ xor);
    let mask = vector::src_u32(w, op, 1);
    let bits = vector::mask_of(|l| class_bit16(a[l]) & mask[l] != 0);
    finish_cmp(w, op, bits, x);
    ok()
}

// ---------------------------------------------------------------------------
// VOP3P

/// Packed source slot `s`: (low lane, high lane) halves per OP_SEL and
/// OP_SEL_HI, no modifiers.
fn pk_src(w: &Wave, op: &Op, s: usize) -> ([u16; WAVE_SIZE], [u16; WAVE_SIZE]) {
    let v = vector::src_u32(w, op, s);
    let m = &op.instr.mods;
    (
        half_of(&v, m.op_sel >> s & 1 != 0),
        half_of(&v, m.op_sel_hi >> s & 1 != 0),
    )
}

/// Packed f16 source slot `s` with NEG (low lane) and NEG_HI (high lane)
/// and input denormals per `fp`.
fn pk_src_h(w: &Wave, op: &Op, s: usize, fp: FpMode) -> ([u16; WAVE_SIZE], [u16; WAVE_SIZE]) {
    let (lo, hi) = pk_src(w, op, s);
    let m = &op.instr.mods;
    let xl = if m.neg >> s & 1 != 0 { 0x8000 } else { 0 };
    let xh = if m.neg_hi >> s & 1 != 0 { 0x8000 } else { 0 };
    (
        lo.map(|x| flush_in16(x ^ xl, fp)),
        hi.map(|x| flush_in16(x ^ xh, fp)),
    )
}

/// Packed integer instructions take no NEG/NEG_HI.
fn no_neg(op: &Op) -> Result<(), Fault> {
    let m = &op.instr.mods;
    if m.neg != 0 || m.neg_hi != 0 {
        return Err(not_emulated(op, "neg_lo/neg_hi on integer operands"));
    }
    Ok(())
}

fn pack(lo: &[u16; WAVE_SIZE], hi: &[u16; WAVE_SIZE]) -> Lanes {
    std::array::from_fn(|l| u32::from(lo[l]) | (u32::from(hi[l]) << 16))
}

/// `D = f(S0, S1, S2)` per lane of packed f16 (`S2` absent for two-source
/// rows), CLAMP per lane.
fn pk_h(
    w: &mut Wave,
    op: &Op,
    n: usize,
    f: fn(u16, u16, u16, FpMode) -> u16,
) -> Result<Step, Fault> {
    let fp = fp16(w);
    let (a0, a1) = pk_src_h(w, op, 0, fp);
    let (b0, b1) = pk_src_h(w, op, 1, fp);
    let (c0, c1) = if n == 3 {
        pk_src_h(w, op, 2, fp)
    } else {
        ([0; WAVE_SIZE], [0; WAVE_SIZE])
    };
    let clamp = op.instr.mods.clamp;
    let fin = |x: u16| omod_clamp16(x, 0, clamp, fp);
    let lo = std::array::from_fn(|l| fin(f(a0[l], b0[l], c0[l], fp)));
    let hi = std::array::from_fn(|l| fin(f(a1[l], b1[l], c1[l], fp)));
    write_u32(w, op, &pack(&lo, &hi));
    ok()
}

/// `D = f(S0, S1, S2, clamp)` per lane of packed 16-bit integers.
fn pk_i(w: &mut Wave, op: &Op, n: usize, f: fn(u16, u16, u16, bool) -> u16) -> Result<Step, Fault> {
    no_neg(op)?;
    let (a0, a1) = pk_src(w, op, 0);
    let (b0, b1) = pk_src(w, op, 1);
    let (c0, c1) = if n == 3 {
        pk_src(w, op, 2)
    } else {
        ([0; WAVE_SIZE], [0; WAVE_SIZE])
    };
    let clamp = op.instr.mods.clamp;
    let lo = std::array::from_fn(|l| f(a0[l], b0[l], c0[l], clamp));
    let hi = std::array::from_fn(|l| f(a1[l], b1[l], c1[l], clamp));
    write_u32(w, op, &pack(&lo, &hi));
    ok()
}

fn sat_i16(v: i32, clamp: bool) -> u16 {
    if clamp {
        v.clamp(-32768, 32767) as u16
    } else {
        v as u16
    }
}

fn sat_u16(v: i32, clamp: bool) -> u16 {
    if clamp {
        v.clamp(0, 65535) as u16
    } else {
        v as u16
    }
}

/// A mixed-precision source (`GcnInstrsVop3p.md`, `v_mad_mix_f32`):
/// OP_SEL_HI clear: the f32 value; set: the f16 half OP_SEL picks. NEG_HI
/// is an absolute value, NEG a negation applied after it. Input denormals
/// follow the source's own precision.
fn mix_src(w: &Wave, op: &Op, s: usize, f16m: FpMode, f32m: FpMode) -> [f64; WAVE_SIZE] {
    let v = vector::src_u32(w, op, s);
    let m = &op.instr.mods;
    let abs = m.neg_hi >> s & 1 != 0;
    let neg = m.neg >> s & 1 != 0;
    let fix = |x: f64| {
        let x = if abs { x.abs() } else { x };
        if neg {
            -x
        } else {
            x
        }
    };
    if m.op_sel_hi >> s & 1 == 0 {
        v.map(|x| {
            let x = if !f32m.keep_in && x & 0x7f80_0000 == 0 {
                x & 0x8000_0000
            } else {
                x
            };
            fix(f64::from(f32::from_bits(x)))
        })
    } else {
        let hi = m.op_sel >> s & 1 != 0;
        half_of(&v, hi).map(|x| fix(to_f64(flush_in16(x, f16m))))
    }
}

/// Rounds an exact-up-to-residual f64 `r + e` to f32 bits per `fp`.
fn to32(r: f64, e: f64, fp: FpMode) -> u32 {
    if r.is_nan() {
        return 0x7fc0_0000;
    }
    if r.is_infinite() {
        return if r < 0.0 { 0xff80_0000 } else { 0x7f80_0000 };
    }
    let b = round_sticky(SINGLE, r, e, fp.round);
    if !fp.keep_out && b & 0x7f80_0000 == 0 {
        b & 0x8000_0000
    } else {
        b
    }
}

/// Rounds `r + e` to f16 bits per `fp`.
fn to16(r: f64, e: f64, fp: FpMode) -> u16 {
    if !r.is_finite() {
        return from_f64(r, fp);
    }
    flush_out16(round_sticky(HALF, r, e, fp.round) as u16, fp)
}

/// Mixed-precision multiply-add: 0 `mix_f32`, 1 `mixlo_f16`, 2
/// `mixhi_f16`. `fused`: GCN 1.4.1's `v_fma_mix*` (one rounding);
/// otherwise GCN 1.4's `v_mad_mix*`, which LLVM selects for FMAD: the
/// product and the sum each rounded to f32, denormals flushed, then (mixlo
/// and mixhi) rounded to f16.
fn mix(w: &mut Wave, op: &Op, kind: u8, fused: bool) -> Result<Step, Fault> {
    let (mut f16m, mut f32m) = (FpMode::f16(w.mode), FpMode::f32(w.mode));
    if !fused {
        f16m = f16m.flushing();
        f32m = f32m.flushing();
    }
    let a = mix_src(w, op, 0, f16m, f32m);
    let b = mix_src(w, op, 1, f16m, f32m);
    let c = mix_src(w, op, 2, f16m, f32m);
    let clamp = op.instr.mods.clamp;
    // The sum as r + e (e the exact residual; the product of two values
    // of at most 24 bits is exact in f64).
    let sum = |l: usize| -> (f64, f64) {
        if fused {
            let p = a[l] * b[l];
            if !p.is_finite() || !c[l].is_finite() {
                return (p + c[l], 0.0);
            }
            two_sum(p, c[l])
        } else {
            let p = f64::from(f32::from_bits(to32(a[l] * b[l], 0.0, f32m)));
            if !p.is_finite() || !c[l].is_finite() {
                return (p + c[l], 0.0);
            }
            let (r, e) = two_sum(p, c[l]);
            (f64::from(f32::from_bits(to32(r, e, f32m))), 0.0)
        }
    };
    if kind == 0 {
        let r: Lanes = std::array::from_fn(|l| {
            let (r, e) = sum(l);
            let x = f32::from_bits(to32(r, e, f32m));
            vector::omod_clamp_f32(x, 0, clamp).to_bits()
        });
        write_u32(w, op, &r);
    } else {
        let h: [u16; WAVE_SIZE] = std::array::from_fn(|l| {
            let (r, e) = sum(l);
            omod_clamp16(to16(r, e, f16m), 0, clamp, f16m)
        });
        let dst = op.vdst_row();
        let old = w.vgpr[dst];
        let r: Lanes = std::array::from_fn(|l| {
            if kind == 1 {
                (old[l] & 0xffff_0000) | u32::from(h[l])
            } else {
                (old[l] & 0xffff) | (u32::from(h[l]) << 16)
            }
        });
        write_u32(w, op, &r);
    }
    ok()
}

/// `v_dot2_f32_f16`: `D = S0.lo * S1.lo + S0.hi * S1.hi + S2` (f32).
fn dot2_f32_f16(w: &mut Wave, op: &Op) -> Result<Step, Fault> {
    let m = op.instr.mods;
    if m.neg_hi & 4 != 0 {
        return Err(not_emulated(op, "neg_hi on the f32 addend"));
    }
    let f16m = fp16(w);
    let (a0, a1) = pk_src_h(w, op, 0, f16m);
    let (b0, b1) = pk_src_h(w, op, 1, f16m);
    let c = vector::src_u32(w, op, 2);
    let r = dot2_core(w, [a0, a1, b0, b1], &c, m.neg & 4 != 0, m.clamp);
    write_u32(w, op, &r);
    ok()
}

/// GCN 1.5.1 `v_dot2c_f32_f16` (VOP2): `D = S0.lo * S1.lo + S0.hi *
/// S1.hi + D`, as [`dot2_f32_f16`] with the accumulator in VDST.
fn dot2c_f32_f16(w: &mut Wave, op: &Op) -> Result<Step, Fault> {
    let m = op.instr.mods;
    if m.abs | m.neg != 0 || m.omod != 0 {
        return Err(not_emulated(op, "abs/neg/omod on packed halves"));
    }
    let f16m = fp16(w);
    let halves = |v: Lanes| {
        (
            half_of(&v, false).map(|x| flush_in16(x, f16m)),
            half_of(&v, true).map(|x| flush_in16(x, f16m)),
        )
    };
    let (a0, a1) = halves(vector::src_u32(w, op, 0));
    let (b0, b1) = halves(vector::src_u32(w, op, 1));
    let c = vector::lanes_u32(w, op.src(usize::from(op.vdst)));
    let r = dot2_core(w, [a0, a1, b0, b1], &c, false, m.clamp);
    write_u32(w, op, &r);
    ok()
}

/// The f32 result of the f16 dot product `a0 * b0 + a1 * b1 + c` per lane
/// (`neg_c` negates the addend), rounded once per MODE.
fn dot2_core(w: &Wave, ab: [[u16; WAVE_SIZE]; 4], c: &Lanes, neg_c: bool, clamp: bool) -> Lanes {
    let [a0, a1, b0, b1] = ab;
    let f32m = FpMode::f32(w.mode);
    std::array::from_fn(|l| {
        let mut cb = c[l];
        if !f32m.keep_in && cb & 0x7f80_0000 == 0 {
            cb &= 0x8000_0000;
        }
        let mut cv = f64::from(f32::from_bits(cb));
        if neg_c {
            cv = -cv;
        }
        // Each product of two f16 is exact in f64; the two sums carry
        // their residuals so that the final rounding sees their sign.
        let p0 = to_f64(a0[l]) * to_f64(b0[l]);
        let p1 = to_f64(a1[l]) * to_f64(b1[l]);
        let x = if !(p0.is_finite() && p1.is_finite() && cv.is_finite()) {
            let s = p0 + p1 + cv;
            if s.is_nan() {
                0x7fc0_0000
            } else {
                (s as f32).to_bits()
            }
        } else {
            let (s, e1) = two_sum(p0, p1);
            let (r, e2) = two_sum(s, cv);
            let (r, e3) = two_sum(r, e1 + e2);
            to32(r, e3, f32m)
        };
        vector::omod_clamp_f32(f32::from_bits(x), 0, clamp).to_bits()
    })
}

/// GCN 1.5.1 `v_dot4c_i32_i8` (VOP2): `D = D + the sum of the products
/// of the four signed bytes of S0 and S1`, wrapping.
fn dot4c_i32_i8(w: &mut Wave, op: &Op) -> Result<Step, Fault> {
    let m = op.instr.mods;
    if m.abs | m.neg != 0 {
        return Err(not_emulated(op, "abs/neg on integer operands"));
    }
    let a = vector::src_u32(w, op, 0);
    let b = vector::src_u32(w, op, 1);
    let c = vector::lanes_u32(w, op.src(usize::from(op.vdst)));
    let byte = |x: u32, i: u32| i32::from((x >> (8 * i)) as u8 as i8);
    let r: Lanes = std::array::from_fn(|l| {
        (0..4).fold(c[l], |acc, i| {
            acc.wrapping_add((byte(a[l], i) * byte(b[l], i)) as u32)
        })
    });
    write_u32(w, op, &r);
    ok()
}

/// Integer dot products: `n` elements of `bits` each, signed or not;
/// CLAMP saturates the 32-bit result.
fn dot_int(w: &mut Wave, op: &Op, n: u32, signed: bool) -> Result<Step, Fault> {
    no_neg(op)?;
    let bits = 32 / n;
    let (a, b) = if n == 2 {
        // 16-bit elements follow OP_SEL/OP_SEL_HI like the packed rows.
        let (a0, a1) = pk_src(w, op, 0);
        let (b0, b1) = pk_src(w, op, 1);
        (pack(&a0, &a1), pack(&b0, &b1))
    } else {
        (vector::src_u32(w, op, 0), vector::src_u32(w, op, 1))
    };
    let c = vector::src_u32(w, op, 2);
    let clamp = op.instr.mods.clamp;
    let elem = |x: u32, i: u32| -> i64 {
        let v = (x >> (i * bits)) & ((1u64 << bits) - 1) as u32;
        if signed {
            // Sign-extend the element.
            (i64::from(v) << (64 - bits)) >> (64 - bits)
        } else {
            i64::from(v)
        }
    };
    let r: Lanes = std::array::from_fn(|l| {
        let mut s = if signed {
            i64::from(c[l] as i32)
        } else {
            i64::from(c[l])
        };
        for i in 0..n {
            s += elem(a[l], i) * elem(b[l], i);
        }
        match (clamp, signed) {
            (true, true) => s.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as u32,
            (true, false) => s.clamp(0, i64::from(u32::MAX)) as u32,
            _ => s as u32,
        }
    });
    write_u32(w, op, &r);
    ok()
}

// ---------------------------------------------------------------------------
// Conversions

/// `v_cvt_f16_f32`: GCN 1.2+ rounds per the f16 MODE bits with its
/// denormal rules; GCN 1.0/1.1 per the f32 round mode with denormals
/// kept (`GcnInstrsVop1.md`).
fn cvt_f16_f32(w: &mut Wave, op: &Op, env: &Env<'_>) -> Result<Step, Fault> {
    let f32m = FpMode::f32(w.mode);
    let fp = if env.version.is_gcn12_or_later() {
        fp16(w)
    } else {
        FpMode {
            round: f32m.round,
            keep_in: true,
            keep_out: true,
            ieee: f32m.ieee,
        }
    };
    let keep_in = f32m.keep_in || !env.version.is_gcn12_or_later();
    let a = vector::src_f32(w, op, 0);
    let r = a.map(|x| {
        let b = x.to_bits();
        let b = if !keep_in && b & 0x7f80_0000 == 0 {
            b & 0x8000_0000
        } else {
            b
        };
        let sign = (b >> 16 & 0x8000) as u16;
        if x.is_nan() {
            sign | 0x7e00 | ((b >> 13) & 0x3ff) as u16
        } else if x.is_infinite() {
            sign | INF16
        } else {
            let (neg, mag, exp) = parts32(b);
            round16(neg, mag, exp, fp)
        }
    });
    write_h(w, op, &r, fp, false);
    ok()
}

/// `v_cvt_f32_f16` (exact; NaNs quieted with their payload).
fn cvt_f32_f16(w: &mut Wave, op: &Op, env: &Env<'_>) -> Result<Step, Fault> {
    let mut fp = fp16(w);
    if !env.version.is_gcn12_or_later() {
        fp.keep_in = true;
    }
    let a = src_h(w, op, 0, fp);
    let r = a.map(|x| {
        if is_nan16(x) {
            f32::from_bits(
                (u32::from(x & 0x8000) << 16) | 0x7fc0_0000 | (u32::from(x & 0x3ff) << 13),
            )
        } else {
            to_f64(x) as f32
        }
    });
    vector::write_f32(w, op, &r);
    ok()
}

/// Writes 16-bit integer results (no OMOD/CLAMP).
fn int_out(w: &mut Wave, op: &Op, f: impl Fn(u16) -> u16) -> Result<Step, Fault> {
    let fp = fp16(w);
    let a = src_h(w, op, 0, fp);
    write16(w, op, &a.map(f), false);
    ok()
}

/// Integer → f16 conversions: `signed` sign-extends the 16-bit source.
fn cvt_from_int(w: &mut Wave, op: &Op, signed: bool) -> Result<Step, Fault> {
    let fp = fp16(w);
    let a = src16(w, op, 0);
    let r = a.map(|x| {
        let v = if signed {
            i32::from(x as i16)
        } else {
            i32::from(x)
        };
        round16(v < 0, u128::from(v.unsigned_abs()), 0, fp)
    });
    write_h(w, op, &r, fp, false);
    ok()
}

/// `v_cvt_pknorm_{i,u}16_f16`: two normalised conversions packed.
fn pknorm(w: &mut Wave, op: &Op, signed: bool) -> Result<Step, Fault> {
    let fp = fp16(w);
    let a = src_h(w, op, 0, fp);
    let b = src_h(w, op, 1, fp);
    let f = |x: u16| {
        if signed {
            norm16(x, -1.0, 32767.0)
        } else {
            norm16(x, 0.0, 65535.0)
        }
    };
    write_u32(w, op, &pack(&a.map(f), &b.map(f)));
    ok()
}

// ---------------------------------------------------------------------------
// The table

/// The compare handlers by predicate, `v_cmp` then `v_cmpx`.
const CMP: [[Handler; 16]; 2] = {
    macro_rules! row {
        ($x:expr) => {
            [
                cmp16::<0, $x>,
                cmp16::<1, $x>,
                cmp16::<2, $x>,
                cmp16::<3, $x>,
                cmp16::<4, $x>,
                cmp16::<5, $x>,
                cmp16::<6, $x>,
                cmp16::<7, $x>,
                cmp16::<8, $x>,
                cmp16::<9, $x>,
                cmp16::<10, $x>,
                cmp16::<11, $x>,
                cmp16::<12, $x>,
                cmp16::<13, $x>,
                cmp16::<14, $x>,
                cmp16::<15, $x>,
            ]
        };
    }
    [row!(false), row!(true)]
};

/// The handler of a half-precision compare row (`cmp:PRED` in the table;
/// `v_cmpx`, the EXEC write, from its implicit registers).
fn cmp_handler(row: &InstrRow, version: GcnVersion) -> Option<Handler> {
    use gcn_asm::isa::{DataType, Field, ImplicitReg};
    let pred = row.compare?;
    if row.operand(Field::Src0)?.ty != DataType::F16 {
        return None;
    }
    let x = usize::from(row.writes_implicit(ImplicitReg::Exec, version));
    CMP[x].get(pred as usize).copied()
}

/// The handler of a 16-bit float, packed or dot-product vector ALU row.
pub fn handler(row: &InstrRow, version: GcnVersion) -> Option<Handler> {
    if let Some(f) = cmp_handler(row, version) {
        return Some(f);
    }
    // The fused mixed-precision rows: GCN 1.4.1 and GCN 1.5.
    let gfx906 = version == GcnVersion::Gcn1_4_1 || version.is_gcn15();
    match row.op {
        // VOP2
        M::VAddF16 => h(|w, op, _| h2(w, op, add16)),
        M::VSubF16 => h(|w, op, _| h2(w, op, sub16)),
        M::VSubrevF16 => h(|w, op, _| h2(w, op, |a, b, fp| sub16(b, a, fp))),
        M::VMulF16 => h(|w, op, _| h2(w, op, mul16)),
        M::VMaxF16 => h(|w, op, _| h2(w, op, max16)),
        M::VMinF16 => h(|w, op, _| h2(w, op, min16)),
        M::VMacF16 => h(|w, op, _| mac16(w, op, false)),
        M::VFmacF16 => h(|w, op, _| mac16(w, op, true)),
        M::VFmamkF16 => h(|w, op, _| madk16(w, op, false, true)),
        M::VFmaakF16 => h(|w, op, _| madk16(w, op, true, true)),
        M::VPkFmacF16 => h(|w, op, _| pk_fmac16(w, op)),
        M::VDot2cF32F16 => h(|w, op, _| dot2c_f32_f16(w, op)),
        M::VMadmkF16 => h(|w, op, _| madk16(w, op, false, false)),
        M::VMadakF16 => h(|w, op, _| madk16(w, op, true, false)),
        M::VLdexpF16 => h(|w, op, _| {
            let fp = fp16(w);
            let a = src_h(w, op, 0, fp);
            let k = src16(w, op, 1);
            let r = std::array::from_fn(|l| ldexp16(a[l], i32::from(k[l] as i16), fp));
            write_h(w, op, &r, fp, false);
            ok()
        }),
        // VOP1
        M::VCvtF16F32 => h(|w, op, env| cvt_f16_f32(w, op, env)),
        M::VCvtF32F16 => h(|w, op, env| cvt_f32_f16(w, op, env)),
        M::VCvtF16U16 => h(|w, op, _| cvt_from_int(w, op, false)),
        M::VCvtF16I16 => h(|w, op, _| cvt_from_int(w, op, true)),
        M::VCvtU16F16 => h(|w, op, _| int_out(w, op, |x| to_int16(x, 0.0, 65535.0))),
        M::VCvtI16F16 => h(|w, op, _| int_out(w, op, |x| to_int16(x, -32768.0, 32767.0))),
        M::VCvtNormI16F16 => h(|w, op, _| int_out(w, op, |x| norm16(x, -1.0, 32767.0))),
        M::VCvtNormU16F16 => h(|w, op, _| int_out(w, op, |x| norm16(x, 0.0, 65535.0))),
        M::VFrexpExpI16F16 => h(|w, op, _| int_out(w, op, frexp_exp16)),
        M::VRcpF16 => h(|w, op, _| h1(w, op, |x, fp| unary16(Un::Rcp, x, fp))),
        M::VSqrtF16 => h(|w, op, _| h1(w, op, |x, fp| unary16(Un::Sqrt, x, fp))),
        M::VRsqF16 => h(|w, op, _| h1(w, op, |x, fp| unary16(Un::Rsq, x, fp))),
        M::VLogF16 => h(|w, op, _| h1(w, op, |x, fp| unary16(Un::Log, x, fp))),
        M::VExpF16 => h(|w, op, _| h1(w, op, |x, fp| unary16(Un::Exp, x, fp))),
        M::VSinF16 => h(|w, op, _| h1(w, op, |x, fp| unary16(Un::Sin, x, fp))),
        M::VCosF16 => h(|w, op, _| h1(w, op, |x, fp| unary16(Un::Cos, x, fp))),
        M::VFrexpMantF16 => h(|w, op, _| h1(w, op, |x, fp| unary16(Un::FrexpMant, x, fp))),
        M::VFloorF16 => h(|w, op, _| h1(w, op, |x, fp| unary16(Un::Floor, x, fp))),
        M::VCeilF16 => h(|w, op, _| h1(w, op, |x, fp| unary16(Un::Ceil, x, fp))),
        M::VTruncF16 => h(|w, op, _| h1(w, op, |x, fp| unary16(Un::Trunc, x, fp))),
        M::VRndneF16 => h(|w, op, _| h1(w, op, |x, fp| unary16(Un::Rndne, x, fp))),
        M::VFractF16 => h(|w, op, _| h1(w, op, |x, fp| unary16(Un::Fract, x, fp))),
        M::VSatPkU8I16 => h(|w, op, _| {
            // The whole 32-bit source holds the two i16 values.
            let a = vector::src_u32(w, op, 0);
            let sat = |v: u32| (v as u16 as i16).clamp(0, 255) as u16;
            let r = a.map(|x| sat(x) | (sat(x >> 16) << 8));
            write16(w, op, &r, false);
            ok()
        }),
        // VOPC
        M::VCmpClassF16 => h(|w, op, _| class16(w, op, false)),
        M::VCmpxClassF16 => h(|w, op, _| class16(w, op, true)),
        // VOP3
        M::VMadF16 => h(|w, op, env| h3(w, op, env.version.is_gcn14(), mad16)),
        M::VFmaF16 => h(|w, op, env| h3(w, op, env.version.is_gcn14(), fma16)),
        M::VDivFixupF16 => h(|w, op, env| {
            h3(w, op, env.version.is_gcn14(), |a, b, c, _| {
                div_fixup16(a, b, c)
            })
        }),
        M::VMadLegacyF16 => h(|w, op, _| h3(w, op, false, mad16)),
        M::VFmaLegacyF16 => h(|w, op, _| h3(w, op, false, fma16)),
        M::VDivFixupLegacyF16 => h(|w, op, _| h3(w, op, false, |a, b, c, _| div_fixup16(a, b, c))),
        M::VMin3F16 => h(|w, op, _| h3(w, op, false, min3_16)),
        M::VMax3F16 => h(|w, op, _| h3(w, op, false, max3_16)),
        M::VMed3F16 => h(|w, op, _| h3(w, op, false, med3_16)),
        M::VCvtPknormI16F16 => h(|w, op, _| pknorm(w, op, true)),
        M::VCvtPknormU16F16 => h(|w, op, _| pknorm(w, op, false)),
        M::VPackB32F16 => h(|w, op, _| {
            // A bit move of the two (modified) halves; no flushing.
            let fp = FpMode {
                keep_in: true,
                ..fp16(w)
            };
            let a = src_h(w, op, 0, fp);
            let b = src_h(w, op, 1, fp);
            write_u32(w, op, &pack(&a, &b));
            ok()
        }),
        // VOP3P
        M::VPkMadI16 => h(|w, op, _| {
            pk_i(w, op, 3, |a, b, c, cl| {
                sat_i16(
                    i32::from(a as i16) * i32::from(b as i16) + i32::from(c as i16),
                    cl,
                )
            })
        }),
        M::VPkMadU16 => h(|w, op, _| {
            pk_i(w, op, 3, |a, b, c, cl| {
                let v = u32::from(a) * u32::from(b) + u32::from(c);
                if cl {
                    v.min(0xffff) as u16
                } else {
                    v as u16
                }
            })
        }),
        M::VPkMulLoU16 => h(|w, op, _| pk_i(w, op, 2, |a, b, _, _| a.wrapping_mul(b))),
        M::VPkAddI16 => h(|w, op, _| {
            pk_i(w, op, 2, |a, b, _, cl| {
                sat_i16(i32::from(a as i16) + i32::from(b as i16), cl)
            })
        }),
        M::VPkSubI16 => h(|w, op, _| {
            pk_i(w, op, 2, |a, b, _, cl| {
                sat_i16(i32::from(a as i16) - i32::from(b as i16), cl)
            })
        }),
        M::VPkAddU16 => h(|w, op, _| {
            pk_i(w, op, 2, |a, b, _, cl| {
                sat_u16(i32::from(a) + i32::from(b), cl)
            })
        }),
        M::VPkSubU16 => h(|w, op, _| {
            pk_i(w, op, 2, |a, b, _, cl| {
                sat_u16(i32::from(a) - i32::from(b), cl)
            })
        }),
        M::VPkLshlrevB16 => h(|w, op, _| pk_i(w, op, 2, |a, b, _, _| b << (a & 15))),
        M::VPkLshrrevB16 => h(|w, op, _| pk_i(w, op, 2, |a, b, _, _| b >> (a & 15))),
        M::VPkAshrrevI16 => {
            h(|w, op, _| pk_i(w, op, 2, |a, b, _, _| ((b as i16) >> (a & 15)) as u16))
        }
        M::VPkMaxI16 => h(|w, op, _| pk_i(w, op, 2, |a, b, _, _| (a as i16).max(b as i16) as u16)),
        M::VPkMinI16 => h(|w, op, _| pk_i(w, op, 2, |a, b, _, _| (a as i16).min(b as i16) as u16)),
        M::VPkMaxU16 => h(|w, op, _| pk_i(w, op, 2, |a, b, _, _| a.max(b))),
        M::VPkMinU16 => h(|w, op, _| pk_i(w, op, 2, |a, b, _, _| a.min(b))),
        M::VPkFmaF16 => h(|w, op, _| pk_h(w, op, 3, fma16)),
        M::VPkAddF16 => h(|w, op, _| pk_h(w, op, 2, |a, b, _, fp| add16(a, b, fp))),
        M::VPkMulF16 => h(|w, op, _| pk_h(w, op, 2, |a, b, _, fp| mul16(a, b, fp))),
        M::VPkMinF16 => h(|w, op, _| pk_h(w, op, 2, |a, b, _, fp| min16(a, b, fp))),
        M::VPkMaxF16 => h(|w, op, _| pk_h(w, op, 2, |a, b, _, fp| max16(a, b, fp))),
        M::VMadMixF32 | M::VFmaMixF32 if gfx906 => h(|w, op, _| mix(w, op, 0, true)),
        M::VMadMixloF16 | M::VFmaMixloF16 if gfx906 => h(|w, op, _| mix(w, op, 1, true)),
        M::VMadMixhiF16 | M::VFmaMixhiF16 if gfx906 => h(|w, op, _| mix(w, op, 2, true)),
        M::VMadMixF32 => h(|w, op, _| mix(w, op, 0, false)),
        M::VMadMixloF16 => h(|w, op, _| mix(w, op, 1, false)),
        M::VMadMixhiF16 => h(|w, op, _| mix(w, op, 2, false)),
        M::VDot2F32F16 => h(|w, op, _| dot2_f32_f16(w, op)),
        M::VDot2I32I16 => h(|w, op, _| dot_int(w, op, 2, true)),
        M::VDot2U32U16 => h(|w, op, _| dot_int(w, op, 2, false)),
        M::VDot4I32I8 => h(|w, op, _| dot_int(w, op, 4, true)),
        M::VDot4cI32I8 => h(|w, op, _| dot4c_i32_i8(w, op)),
        M::VDot4U32U8 => h(|w, op, _| dot_int(w, op, 4, false)),
        M::VDot8I32I4 => h(|w, op, _| dot_int(w, op, 8, true)),
        M::VDot8U32U4 => h(|w, op, _| dot_int(w, op, 8, false)),
        _ => None,
    }
}

/// `v_min3_f16` (`GcnInstrsVop3.md`).
fn min3_16(a: u16, b: u16, c: u16, fp: FpMode) -> u16 {
    min16(min16(a, b, fp), c, fp)
}

/// `v_max3_f16`.
fn max3_16(a: u16, b: u16, c: u16, fp: FpMode) -> u16 {
    max16(max16(a, b, fp), c, fp)
}

/// `v_med3_f16`: with a NaN operand the minimum of the other two (as the
/// doc's pseudo-code), else the median. (The doc's pseudo-code returns
/// SRC0 when SRC1 equals SRC2, which is not the median it describes; the
/// median is what the hardware's name and LLVM's fmed3 folding assume.)
fn med3_16(a: u16, b: u16, c: u16, fp: FpMode) -> u16 {
    if is_nan16(a) {
        return min16(b, c, fp);
    }
    if is_nan16(b) {
        return min16(a, c, fp);
    }
    if is_nan16(c) {
        return min16(a, b, fp);
    }
    max16(min16(a, b, fp), min16(max16(a, b, fp), c, fp), fp)
}

#[cfg(test)]
mod tests;

/// The accuracy of the f16 transcendental rows (see
/// [`super::valu_float::accuracy`]), for the fidelity table.
pub fn accuracy(row: &InstrRow) -> Option<&'static str> {
    let transcendental = matches!(
        row.op,
        M::VCosF16 | M::VExpF16 | M::VLogF16 | M::VRcpF16 | M::VRsqF16 | M::VSinF16 | M::VSqrtF16
    );
    transcendental.then_some(
        "ISA: about 1 ULP; emulator: the f64 result rounded in MODE's direction (a GPU may differ by 1 ULP)",
    )
}
