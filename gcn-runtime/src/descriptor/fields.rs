//! What the image and sampler descriptors share: their error type and the
//! bit-field and fixed-point helpers their words are built with.

use std::fmt;

/// Why a descriptor could not be built or read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescriptorError {
    /// The descriptor (`image resource`, `sampler resource`).
    pub descriptor: &'static str,
    /// The field at fault.
    pub field: &'static str,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for DescriptorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} field {}: {}",
            self.descriptor, self.field, self.message
        )
    }
}

impl std::error::Error for DescriptorError {}

/// Reads bits `lo..lo+len` (`len` <= 64) of a little-endian word array
/// (words past the end read as 0).
pub(crate) fn bits(words: &[u32], lo: u32, len: u32) -> u64 {
    let i = (lo / 32) as usize;
    let w = |k: usize| u128::from(words.get(i + k).copied().unwrap_or(0));
    let window = w(0) | w(1) << 32 | w(2) << 64;
    let v = (window >> (lo % 32)) as u64;
    if len >= 64 {
        v
    } else {
        v & ((1u64 << len) - 1)
    }
}

/// Writes `v` into bits `lo..lo+len` (the caller has range-checked `v`).
pub(crate) fn set_bits(words: &mut [u32], lo: u32, len: u32, v: u64) {
    for i in 0..len {
        let b = lo + i;
        let w = &mut words[(b / 32) as usize];
        let m = 1u32 << (b % 32);
        if v >> i & 1 != 0 {
            *w |= m;
        } else {
            *w &= !m;
        }
    }
}

/// An unsigned fixed-point value with `frac` fraction bits in `width`
/// bits, from `x` (rounded to the nearest step); `None` when outside the
/// range.
pub(crate) fn to_ufixed(x: f32, width: u32, frac: u32) -> Option<u64> {
    let scaled = (f64::from(x) * f64::from(1u32 << frac)).round();
    (scaled >= 0.0 && scaled < (1u64 << width) as f64).then_some(scaled as u64)
}

/// A signed (two's complement) fixed-point value, as [`to_ufixed`].
pub(crate) fn to_sfixed(x: f32, width: u32, frac: u32) -> Option<u64> {
    let scaled = (f64::from(x) * f64::from(1u32 << frac)).round();
    let half = (1i64 << (width - 1)) as f64;
    (scaled >= -half && scaled < half).then_some((scaled as i64 as u64) & ((1u64 << width) - 1))
}

/// The value of an unsigned fixed-point field.
pub(crate) fn from_ufixed(v: u64, frac: u32) -> f32 {
    (v as f64 / f64::from(1u32 << frac)) as f32
}

/// The value of a signed fixed-point field of `width` bits.
pub(crate) fn from_sfixed(v: u64, width: u32, frac: u32) -> f32 {
    let s = ((v << (64 - width)) as i64) >> (64 - width);
    (s as f64 / f64::from(1u32 << frac)) as f32
}

/// Checks a T#'s MIN_LOD and MIN_LOD_WARN: unsigned 4.8 fixed point (the
/// same fields on every generation).
pub(crate) fn lod_fields(
    descriptor: &'static str,
    min_lod: f32,
    min_lod_warn: f32,
) -> Result<(), DescriptorError> {
    for (field, v) in [("MIN_LOD", min_lod), ("MIN_LOD_WARN", min_lod_warn)] {
        if to_ufixed(v, 12, 8).is_none() {
            return Err(DescriptorError {
                descriptor,
                field,
                message: format!("{v} does not fit a 4.8 fixed-point field"),
            });
        }
    }
    Ok(())
}
