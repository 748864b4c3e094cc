//! Scalar memory: SMRD (GCN 1.0/1.1) and SMEM (GCN 1.2-1.5, RDNA 2).
//!
//! Semantics follow `GcnInstrsSmrd.md` and `GcnInstrsSmem.md`. Memory
//! operations complete at once (a functional model, so `s_waitcnt` has
//! nothing to wait for).
//!
//! Addresses: `SBASE + OFFSET` with the low two bits of the sum cleared
//! (scalar memory is dword-granular). The offset:
//! - SMRD (GCN 1.0/1.1): an immediate counts dwords, an SGPR bytes, the
//!   GCN 1.1 32-bit literal dwords;
//! - SMEM GCN 1.2: an unsigned 20-bit immediate or an SGPR, in bytes;
//! - SMEM GCN 1.4, 1.5 and RDNA 2: a signed 21-bit immediate or an SGPR,
//!   in bytes, or both (SOE on GCN 1.4, SOFFSET beside the immediate on
//!   GCN 1.5: the SGPR operand plus `offset:`); a NULL SOFFSET reads 0.
//!
//! `s_load_*`/`s_store_*`/`s_atomic_*`: SBASE is a 64-bit address (bits
//! 48-63 ignored). `s_buffer_*`: SBASE is a 4-SGPR buffer resource: base
//! = bits 0-47, stride = word 1 bits 16-29, num_records = word 2; the
//! offset is relative to the base and each dword whose offset is not below
//! `num_records` (bytes; `num_records * stride` when the stride is not 0)
//! is out of range: loads give 0, stores and atomics are dropped (an
//! out-of-range atomic returns 0).
//!
//! GCN 1.5 `s_get_waveid_in_workgroup` returns the wave's index in its
//! work-group; `s_gl1_inv` (and the `dlc` bit) are cache control.
//!
//! `s_memtime`/`s_memrealtime` return the wave's executed-instruction count
//! (`Wave::steps`, including the instruction itself): monotonically
//! increasing, not a clock. Cache control (`s_dcache_*`, `s_atc_probe*`)
//! does nothing: there are no caches.
//!
//! GCN 1.4 `s_scratch_*`: the CLRX address `SBASE + (OFFSET & ~3) +
//! (SGPR & ~3) * 64`, with OFFSET the immediate (or `offset:`) and SGPR the
//! register operand.
//!
//! Atomics (GCN 1.4 and 1.5; CLRX also encodes the buffer atomics on GCN 1.2, where
//! the hardware has none: those rows have no handler there) are host
//! atomics through [`crate::memory::Allocation`]; a 64-bit atomic must be
//! 8-byte aligned. With `glc` the old value goes to the first SDATA
//! register(s).

use gcn_asm::decode::{MemFlags, Operand};
use gcn_asm::isa::Mnemonic as M;
use gcn_asm::isa::{Encoding, InstrRow};
use gcn_asm::GcnVersion;

// Scalar atomics share the operation codes and semantics of DS, FLAT and MUBUF.
use super::atomic::{atomic32, atomic64, atomic_op as atom, dispatch_atomic};
use super::{h, Env, Fault, Handler, Op, Src, Step, Wave};

/// Sign-extends the 21-bit GCN 1.4 SMEM offset.
#[inline]
fn sext21(v: u32) -> i64 {
    i64::from(((v << 11) as i32) >> 11)
}

/// The byte offset of operand 2 (see the module text), as code reads it:
/// a constant, or a register's value plus a constant.
#[derive(Debug, Clone, Copy)]
pub(crate) enum OffsetForm {
    Const(i64),
    Register(Src, i64),
}

/// The form of `op`'s offset (see the module text).
#[inline]
pub(crate) fn offset_form(op: &Op) -> OffsetForm {
    let version = op.instr.version;
    let smrd = op.instr.row.encoding == Encoding::Smrd;
    let gcn14 = version.is_gcn14_or_later();
    match op.operand(2) {
        Operand::Imm(v) if smrd => OffsetForm::Const(i64::from(v) * 4),
        Operand::Literal(v) => OffsetForm::Const(i64::from(v) * 4),
        Operand::Imm(v) if gcn14 => OffsetForm::Const(sext21(v)),
        Operand::Imm(v) => OffsetForm::Const(i64::from(v)),
        _ => {
            let m = &op.instr.mods.mem;
            let extra = if m.flags.contains(MemFlags::SMEM_OFFSET) {
                sext21(m.offset as u32)
            } else {
                0
            };
            OffsetForm::Register(op.src(2), extra)
        }
    }
}

/// The byte offset of operand 2.
#[inline]
fn offset(w: &Wave, op: &Op) -> i64 {
    match offset_form(op) {
        OffsetForm::Const(c) => c,
        OffsetForm::Register(src, extra) => i64::from(w.read_s32(src)) + extra,
    }
}

/// The dwords an `s_load_dword*` row loads (`load`); `None` for every
/// other row. The handler table and the compiled tier's inline loads
/// both read it.
pub(crate) fn load_dwords(op: M) -> Option<u16> {
    Some(match op {
        M::SLoadDword => 1,
        M::SLoadDwordx2 => 2,
        M::SLoadDwordx4 => 4,
        M::SLoadDwordx8 => 8,
        M::SLoadDwordx16 => 16,
        _ => return None,
    })
}

/// The 64-bit address of `s_load_*`/`s_store_*`/`s_atomic_*`.
#[inline]
fn address(w: &Wave, op: &Op) -> u64 {
    let base = w.s64(op.reg(1)) & 0xffff_ffff_ffff;
    base.wrapping_add(offset(w, op) as u64) & !3
}

/// A buffer resource: base address and the byte range of valid offsets.
#[derive(Clone, Copy)]
struct Resource {
    base: u64,
    limit: u64,
}

impl Resource {
    #[inline]
    fn of(w: &Wave, op: &Op) -> Self {
        let r = usize::from(op.reg(1));
        let w0 = w.sgpr[r & 127];
        let w1 = w.sgpr[(r + 1) & 127];
        let w2 = w.sgpr[(r + 2) & 127];
        let stride = u64::from((w1 >> 16) & 0x3fff);
        let records = u64::from(w2);
        Resource {
            base: u64::from(w0) | (u64::from(w1 & 0xffff) << 32),
            limit: if stride == 0 {
                records
            } else {
                records * stride
            },
        }
    }

    /// The address of the dword at byte `offset`, or `None` out of range.
    #[inline]
    fn dword(self, offset: u64) -> Option<u64> {
        (offset < self.limit).then(|| self.base.wrapping_add(offset))
    }
}

/// The buffer offset (dword-aligned; a negative offset wraps and is out of
/// range).
#[inline]
fn buffer_offset(w: &Wave, op: &Op) -> u64 {
    (offset(w, op) as u64) & !3
}

/// `s_load_dword*`: `count` dwords from SBASE + OFFSET into SDATA.
#[inline(always)]
fn load(w: &mut Wave, op: &Op, env: &mut Env<'_>, count: u16) -> Result<Step, Fault> {
    let addr = address(w, op);
    let dst = op.reg(0);
    env.log_mem(0, addr, 4 * u32::from(count), 0);
    // One range check for all the dwords when they lie in one allocation.
    if let Some(words) = env.mem.dense_words(addr, usize::from(count)) {
        for (i, word) in (0..count).zip(words) {
            w.set_s32(dst + i, word.load(std::sync::atomic::Ordering::Relaxed));
        }
        return Ok(Step::Next);
    }
    for i in 0..count {
        let v = env.mem.read_u32(addr.wrapping_add(4 * u64::from(i)))?;
        w.set_s32(dst + i, v);
    }
    Ok(Step::Next)
}

/// `s_buffer_load_dword*`.
fn buffer_load(w: &mut Wave, op: &Op, env: &mut Env<'_>, count: u16) -> Result<Step, Fault> {
    let res = Resource::of(w, op);
    let off = buffer_offset(w, op);
    let dst = op.reg(0);
    let mut v = [0u32; 16];
    for (i, slot) in v.iter_mut().enumerate().take(usize::from(count)) {
        if let Some(a) = res.dword(off.wrapping_add(4 * i as u64)) {
            env.log_mem(0, a, 4, 4 * i as u32);
            *slot = env.mem.read_u32(a)?;
        }
    }
    // Written after every read: SDATA may overlap the resource.
    for i in 0..count {
        w.set_s32(dst + i, v[usize::from(i)]);
    }
    Ok(Step::Next)
}

/// `s_store_dword*`.
fn store(w: &mut Wave, op: &Op, env: &mut Env<'_>, count: u16) -> Result<Step, Fault> {
    let addr = address(w, op);
    let src = op.reg(0);
    for i in 0..count {
        let v = w.read_s32(Src::Sgpr(src + i));
        let a = addr.wrapping_add(4 * u64::from(i));
        env.log_mem(0, a, 4, 4 * u32::from(i));
        env.mem.write_u32(a, v)?;
    }
    Ok(Step::Next)
}

/// `s_buffer_store_dword*`.
fn buffer_store(w: &mut Wave, op: &Op, env: &mut Env<'_>, count: u16) -> Result<Step, Fault> {
    let res = Resource::of(w, op);
    let off = buffer_offset(w, op);
    let src = op.reg(0);
    for i in 0..count {
        if let Some(a) = res.dword(off.wrapping_add(4 * u64::from(i))) {
            env.log_mem(0, a, 4, 4 * u32::from(i));
            env.mem.write_u32(a, w.read_s32(Src::Sgpr(src + i)))?;
        }
    }
    Ok(Step::Next)
}

/// GCN 1.4 `s_scratch_load_dword*`/`s_scratch_store_dword*` address.
fn scratch_address(w: &Wave, op: &Op) -> u64 {
    let base = w.s64(op.reg(1)) & 0xffff_ffff_ffff;
    let (imm, sgpr) = match op.operand(2) {
        Operand::Imm(v) => (sext21(v), 0),
        _ => {
            let m = &op.instr.mods.mem;
            let imm = if m.flags.contains(MemFlags::SMEM_OFFSET) {
                sext21(m.offset as u32)
            } else {
                0
            };
            (imm, u64::from(w.read_s32(op.src(2)) & !3) * 64)
        }
    };
    base.wrapping_add((imm as u64) & !3).wrapping_add(sgpr) & !3
}

fn scratch_load(w: &mut Wave, op: &Op, env: &mut Env<'_>, count: u16) -> Result<Step, Fault> {
    let addr = scratch_address(w, op);
    let dst = op.reg(0);
    env.log_mem(0, addr, 4 * u32::from(count), 0);
    for i in 0..count {
        let v = env.mem.read_u32(addr.wrapping_add(4 * u64::from(i)))?;
        w.set_s32(dst + i, v);
    }
    Ok(Step::Next)
}

fn scratch_store(w: &mut Wave, op: &Op, env: &mut Env<'_>, count: u16) -> Result<Step, Fault> {
    let addr = scratch_address(w, op);
    let src = op.reg(0);
    for i in 0..count {
        let v = w.read_s32(Src::Sgpr(src + i));
        let a = addr.wrapping_add(4 * u64::from(i));
        env.log_mem(0, a, 4, 4 * u32::from(i));
        env.mem.write_u32(a, v)?;
    }
    Ok(Step::Next)
}

/// `s_atomic_*` (`BUF = false`) and `s_buffer_atomic_*`.
fn atomic<const K: u8, const BUF: bool, const X2: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Step, Fault> {
    let addr = if BUF {
        Resource::of(w, op).dword(buffer_offset(w, op))
    } else {
        Some(address(w, op))
    };
    let d = op.reg(0);
    let (data, cmp) = match (K == atom::CMPSWAP, X2) {
        (false, false) => (u64::from(w.read_s32(Src::Sgpr(d))), 0),
        (false, true) => (w.s64(d), 0),
        (true, false) => (
            u64::from(w.read_s32(Src::Sgpr(d))),
            u64::from(w.read_s32(Src::Sgpr(d + 1))),
        ),
        (true, true) => (w.s64(d), w.s64(d + 2)),
    };
    let old = match addr {
        None => 0,
        Some(a) if X2 => {
            env.log_mem(0, a, 8, 0);
            let (alloc, off) = env.mem.find(a, 8)?;
            if off & 7 != 0 {
                return Err(Fault::unsupported(format!(
                    "{} at {a:#x}: a 64-bit atomic must be 8-byte aligned",
                    op.mnemonic()
                )));
            }
            alloc.atomic_u64(off, |old| atomic64(K, old, data, cmp))
        }
        Some(a) => {
            env.log_mem(0, a, 4, 0);
            let (alloc, off) = env.mem.find(a, 4)?;
            u64::from(alloc.atomic_u32(off, |old| atomic32(K, old, data as u32, cmp as u32)))
        }
    };
    if op.instr.mods.glc {
        if X2 {
            w.set_s64(d, old);
        } else {
            w.set_s32(d, old as u32);
        }
    }
    Ok(Step::Next)
}

/// `s_memtime`/`s_memrealtime`: the wave's instruction count.
fn memtime(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Step, Fault> {
    let t = w.steps;
    w.set_s64(op.reg(0), t);
    Ok(Step::Next)
}

/// The handler of a scalar memory row.
pub fn handler(row: &InstrRow, version: GcnVersion) -> Option<Handler> {
    if let Some(rmw) = row.atomic {
        // The hardware has scalar atomics from GCN 1.4 on only (GCN 1.5
        // too; RDNA 2 dropped them: its rows have no opcode there).
        if !version.is_gcn14_or_later() {
            return None;
        }
        // `s_buffer_atomic_*` address through a buffer descriptor (a
        // four-register SBASE).
        let buffer = row
            .operand(gcn_asm::isa::Field::Sbase)
            .is_some_and(|o| o.registers() == 4);
        let code = rmw.op as u8;
        return match (buffer, rmw.wide) {
            (false, false) => dispatch_atomic!(code, atomic, false, false),
            (false, true) => dispatch_atomic!(code, atomic, false, true),
            (true, false) => dispatch_atomic!(code, atomic, true, false),
            (true, true) => dispatch_atomic!(code, atomic, true, true),
        };
    }
    if let Some(count) = load_dwords(row.op) {
        return match count {
            1 => h(|w, op, env| load(w, op, env, 1)),
            2 => h(|w, op, env| load(w, op, env, 2)),
            4 => h(|w, op, env| load(w, op, env, 4)),
            8 => h(|w, op, env| load(w, op, env, 8)),
            16 => h(|w, op, env| load(w, op, env, 16)),
            _ => None,
        };
    }
    match row.op {
        M::SBufferLoadDword => h(|w, op, env| buffer_load(w, op, env, 1)),
        M::SBufferLoadDwordx2 => h(|w, op, env| buffer_load(w, op, env, 2)),
        M::SBufferLoadDwordx4 => h(|w, op, env| buffer_load(w, op, env, 4)),
        M::SBufferLoadDwordx8 => h(|w, op, env| buffer_load(w, op, env, 8)),
        M::SBufferLoadDwordx16 => h(|w, op, env| buffer_load(w, op, env, 16)),
        M::SStoreDword => h(|w, op, env| store(w, op, env, 1)),
        M::SStoreDwordx2 => h(|w, op, env| store(w, op, env, 2)),
        M::SStoreDwordx4 => h(|w, op, env| store(w, op, env, 4)),
        M::SBufferStoreDword => h(|w, op, env| buffer_store(w, op, env, 1)),
        M::SBufferStoreDwordx2 => h(|w, op, env| buffer_store(w, op, env, 2)),
        M::SBufferStoreDwordx4 => h(|w, op, env| buffer_store(w, op, env, 4)),
        M::SScratchLoadDword => h(|w, op, env| scratch_load(w, op, env, 1)),
        M::SScratchLoadDwordx2 => h(|w, op, env| scratch_load(w, op, env, 2)),
        M::SScratchLoadDwordx4 => h(|w, op, env| scratch_load(w, op, env, 4)),
        M::SScratchStoreDword => h(|w, op, env| scratch_store(w, op, env, 1)),
        M::SScratchStoreDwordx2 => h(|w, op, env| scratch_store(w, op, env, 2)),
        M::SScratchStoreDwordx4 => h(|w, op, env| scratch_store(w, op, env, 4)),
        M::SMemtime | M::SMemrealtime => h(memtime),
        // GCN 1.5: the wave's index in its work-group.
        M::SGetWaveidInWorkgroup => h(|w, op, _| {
            let id = w.id;
            w.set_s32(op.reg(0), id);
            Ok(Step::Next)
        }),
        M::SDcacheInv
        | M::SDcacheInvVol
        | M::SDcacheWb
        | M::SDcacheWbVol
        | M::SDcacheDiscard
        | M::SDcacheDiscardX2
        | M::SAtcProbe
        | M::SAtcProbeBuffer
        | M::SGl1Inv => h(|_, _, _| Ok(Step::Next)),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
