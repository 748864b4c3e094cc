//! Vector ALU, integer and bit operations (VOP2, VOP1, VOPC, VOP3 rows of
//! integer types), lane operations (`v_readlane`, `v_writelane`,
//! `v_readfirstlane`, `v_mbcnt`) and `v_cndmask`.
//!
//! Semantics follow `GcnInstrsVop2.md`, `GcnInstrsVop1.md`,
//! `GcnInstrsVopc.md` and `GcnInstrsVop3.md`; sources and destinations go
//! through [`super::vector`] (SDWA, DPP, EXEC).

use gcn_asm::isa::InstrRow;
use gcn_asm::GcnVersion;

use super::vector::{binary_u32, src_u32, unary_u32, write_sdst_mask, write_u32, Lanes};
use super::{Fault, Handler, Op, Step, Wave};

/// Coerces a closure to a [`Handler`].
const fn h(f: Handler) -> Option<Handler> {
    Some(f)
}

/// `D = S0 + S1` with the carry-out to VCC/SDST.
fn add_co(w: &mut Wave, op: &Op) -> Result<Step, Fault> {
    let a = src_u32(w, op, 0);
    let b = src_u32(w, op, 1);
    let mut carry = 0u64;
    let r: Lanes = std::array::from_fn(|l| {
        let (s, c) = a[l].overflowing_add(b[l]);
        carry |= u64::from(c) << l;
        s
    });
    write_u32(w, op, &r);
    write_sdst_mask(w, op, carry);
    Ok(Step::Next)
}

/// `D = S0 + S1 + carry-in (SSRC2/VCC)` with the carry-out.
fn addc(w: &mut Wave, op: &Op) -> Result<Step, Fault> {
    let a = src_u32(w, op, 0);
    let b = src_u32(w, op, 1);
    let cin = w.read_s64(op.slot_src(2));
    let mut carry = 0u64;
    let r: Lanes = std::array::from_fn(|l| {
        let s = u64::from(a[l]) + u64::from(b[l]) + (cin >> l & 1);
        carry |= (s >> 32) << l;
        s as u32
    });
    write_u32(w, op, &r);
    write_sdst_mask(w, op, carry);
    Ok(Step::Next)
}

/// The handler of an integer vector ALU row.
pub fn handler(row: &InstrRow, _version: GcnVersion) -> Option<Handler> {
    match row.mnemonic {
        "v_mov_b32" => h(|w, op, _| {
            unary_u32(w, op, |a| a);
            Ok(Step::Next)
        }),
        "v_add_i32" | "v_add_u32" | "v_add_co_u32" => h(|w, op, _| add_co(w, op)),
        "v_addc_u32" | "v_addc_co_u32" => h(|w, op, _| addc(w, op)),
        "v_lshlrev_b32" => h(|w, op, _| {
            binary_u32(w, op, |a, b| b << (a & 31));
            Ok(Step::Next)
        }),
        "v_and_b32" => h(|w, op, _| {
            binary_u32(w, op, |a, b| a & b);
            Ok(Step::Next)
        }),
        "v_mul_lo_u32" | "v_mul_lo_i32" => h(|w, op, _| {
            binary_u32(w, op, |a, b| a.wrapping_mul(b));
            Ok(Step::Next)
        }),
        "v_cndmask_b32" => h(|w, op, _| {
            let a = src_u32(w, op, 0);
            let b = src_u32(w, op, 1);
            let m = w.read_s64(op.slot_src(2));
            let r: Lanes = std::array::from_fn(|l| if m >> l & 1 != 0 { b[l] } else { a[l] });
            write_u32(w, op, &r);
            Ok(Step::Next)
        }),
        _ => None,
    }
}
