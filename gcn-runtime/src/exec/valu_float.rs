//! Vector ALU, 32- and 64-bit floating point: arithmetic, conversions,
//! transcendental approximations, class tests and float compares.
//!
//! Semantics follow the `Operation:` text of `GcnInstrsVop2.md`,
//! `GcnInstrsVop1.md`, `GcnInstrsVopc.md` and `GcnInstrsVop3.md`; the MODE
//! register's rounding and denormal rules come from [`super::float`].

use gcn_asm::isa::InstrRow;
use gcn_asm::GcnVersion;

use super::vector::binary_f32;
use super::{Handler, Step};

/// Coerces a closure to a [`Handler`].
const fn h(f: Handler) -> Option<Handler> {
    Some(f)
}

/// The handler of a floating-point vector ALU row.
pub fn handler(row: &InstrRow, _version: GcnVersion) -> Option<Handler> {
    match row.mnemonic {
        "v_add_f32" => h(|w, op, _| {
            binary_f32(w, op, |a, b| a + b);
            Ok(Step::Next)
        }),
        "v_mul_f32" => h(|w, op, _| {
            binary_f32(w, op, |a, b| a * b);
            Ok(Step::Next)
        }),
        "v_fma_f32" => h(|w, op, _| {
            super::vector::fma_f32(w, op);
            Ok(Step::Next)
        }),
        _ => None,
    }
}
