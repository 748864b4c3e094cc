//! The MODE register's floating-point rules: round modes and denormal
//! handling for f32 and for f64/f16.
//!
//! MODE bits 0-1 round f32, bits 2-3 round f64 and f16 (0 nearest even,
//! 1 towards +inf, 2 towards -inf, 3 towards zero); bits 4-5 are the f32
//! denormal mode, bits 6-7 the f64/f16 one (bit 0 of a mode: input
//! denormals are kept, bit 1: output denormals are kept; flushed
//! otherwise). Bit 8 is DX10_CLAMP, bit 9 IEEE.

/// MODE.DX10_CLAMP.
pub const MODE_DX10_CLAMP: u32 = 1 << 8;
/// MODE.IEEE.
pub const MODE_IEEE: u32 = 1 << 9;
