//! Vector ALU, 16-bit floating point and packed math (GCN 1.2+ f16 rows,
//! GCN 1.4 VOP3P).
//!
//! Semantics follow `GcnInstrsVop2.md`, `GcnInstrsVop1.md`,
//! `GcnInstrsVop3.md` and `GcnInstrsVop3p.md`; f16 arithmetic goes through
//! the `half` crate.

use gcn_asm::isa::InstrRow;
use gcn_asm::GcnVersion;

use super::Handler;

/// The handler of a 16-bit or packed vector ALU row.
pub fn handler(_row: &InstrRow, _version: GcnVersion) -> Option<Handler> {
    None
}
