//! Scalar memory: SMRD (GCN 1.0/1.1) and SMEM (GCN 1.2/1.4).
//!
//! Semantics follow `GcnInstrsSmrd.md` and `GcnInstrsSmem.md`. Loads
//! complete at once (a functional model); the address is
//! `SBASE + OFFSET` with the low two bits cleared. On GCN 1.0/1.1 an
//! immediate offset counts dwords, on GCN 1.2/1.4 bytes.

use gcn_asm::decode::Operand;
use gcn_asm::isa::InstrRow;
use gcn_asm::GcnVersion;

use super::{Env, Fault, Handler, Op, Step, Wave};

/// Coerces a closure to a [`Handler`].
const fn h(f: Handler) -> Option<Handler> {
    Some(f)
}

/// The byte offset operand 2 gives.
fn offset(w: &Wave, op: &Op, env: &Env<'_>) -> u64 {
    match op.operand(2) {
        Operand::Imm(v) if !env.version.is_gcn12_or_later() => u64::from(v) * 4,
        Operand::Literal(v) => u64::from(v) * 4,
        _ => u64::from(w.read_s32(op.src(2))),
    }
}

/// `s_load_dword*`: `count` dwords from SBASE + OFFSET into SDATA.
fn load(w: &mut Wave, op: &Op, env: &mut Env<'_>, count: u16) -> Result<Step, Fault> {
    let base = w.s64(op.reg(1)) & 0xffff_ffff_ffff;
    let addr = (base + offset(w, op, env)) & !3;
    let dst = op.reg(0);
    for i in 0..count {
        let v = env.mem.read_u32(addr + 4 * u64::from(i))?;
        w.set_s32(dst + i, v);
    }
    Ok(Step::Next)
}

/// The handler of a scalar memory row.
pub fn handler(row: &InstrRow, _version: GcnVersion) -> Option<Handler> {
    match row.mnemonic {
        "s_load_dword" => h(|w, op, env| load(w, op, env, 1)),
        "s_load_dwordx2" => h(|w, op, env| load(w, op, env, 2)),
        "s_load_dwordx4" => h(|w, op, env| load(w, op, env, 4)),
        "s_load_dwordx8" => h(|w, op, env| load(w, op, env, 8)),
        "s_load_dwordx16" => h(|w, op, env| load(w, op, env, 16)),
        "s_dcache_inv" | "s_dcache_inv_vol" | "s_dcache_wb" | "s_dcache_wb_vol" => {
            h(|_, _, _| Ok(Step::Next))
        }
        _ => None,
    }
}
