//! Flat memory: FLAT (GCN 1.1+), GLOBAL and SCRATCH (GCN 1.4+).
//!
//! Semantics follow `GcnInstrsFlat.md`.
//!
//! Addresses:
//! - FLAT: `VADDR(64) + INST_OFFSET` (the 12-bit unsigned offset of GCN 1.4;
//!   none before). An address inside the shared aperture
//!   (`[SHARED_APERTURE, +4 GiB)`) reaches the work-group's LDS at
//!   `address - SHARED_APERTURE` (no M0 limit; past the allocation: an LDS
//!   fault); one inside the private aperture reaches the lane's private
//!   memory at offset `address - PRIVATE_APERTURE`; any other address is
//!   global memory. The apertures are what `src_shared_base` /
//!   `src_private_base` (GCN 1.4) return.
//! - GLOBAL: `SADDR(64) + VADDR(32, zero-extended) + INST_OFFSET`, or with
//!   `saddr: off` `VADDR(64) + INST_OFFSET`; the offset is 13-bit signed.
//! - SCRATCH: the private offset `SADDR(32) + VADDR(32) + INST_OFFSET`
//!   (either may be `off`).
//! - GCN 1.5 and RDNA 2: the same forms, with the offset the decoder gives
//!   (12-bit signed for GLOBAL/SCRATCH), `off` being the NULL SADDR, and
//!   RDNA 2's `global_load/store_dword_addtid`: `SADDR(64) + INST_OFFSET +
//!   4 * lane` (the lane's id within the wave; no VADDR). `dlc` is cache
//!   control. Wave32 waves touch lanes 0-31 only.
//!
//! Private memory layout: swizzled, as the hardware lays out scratch
//! (element size 4, index stride 64): lane L's private byte O of the wave's
//! scratch (`env.scratch`, `size` bytes) is at
//! `scratch base + (O / 4) * 4 * N + L * 4 + O % 4`, N the wave's lanes (64,
//! or 32 in wave32, as gfx10's scratch descriptor has INDEX_STRIDE 32 for
//! wave32 kernels), so the lanes' dwords interleave. This is the layout the launcher's scratch buffer descriptor
//! gives buffer accesses (swizzle enabled; LLVM's scratch words 2–3 add
//! the lane id with index stride 64 and element size 4), so
//! SCRATCH/FLAT-private and buffer scratch accesses of one wave see the
//! same bytes, and a stack pointer that counts 64 bytes per lane byte (as
//! LLVM's function-call code does) lands where the hardware would put it.
//! Each lane has `size / N` private bytes; an access that reaches past
//! them is a fault naming the lane.
//! FLAT_SCRATCH and the scratch SGPRs play no part: `env.scratch` is
//! already the wave's own private memory.
//!
//! Global accesses outside every allocation's mapped pages are memory
//! faults naming the lane (inside a page, past an allocation's end, they
//! complete: the `oob` check reports them). Atomics on global memory are host atomics (64-bit ones through
//! [`crate::memory::Allocation::atomic_u64`]); a misaligned atomic address is
//! a fault (the docs do not say what the hardware does). Atomics return the
//! old value only with `glc`. `cmpswap` takes the new value in the low half
//! of VDATA and the compare value in the high half (docs). Loads with `tfe`
//! (GCN 1.1/1.2) write 0 to the extra VGPR (the access succeeded); `tfe` on
//! an atomic and the GCN 1.4 `lds` flag stop with an Unsupported fault.

use gcn_asm::decode::MemFlags;
use gcn_asm::isa::Mnemonic as M;
use gcn_asm::isa::{Encoding, InstrRow};
use gcn_asm::GcnVersion;

use super::atomic::{atomic32, atomic64, dispatch_atomic, uses_b};
use super::buffer::tfe_zero;
use super::ds::{
    self, lds_index, narrow, narrow_size, narrow_store, narrow_value, pair, store_size,
    store_value, write_pair,
};
use super::vector::{active, dense_rows, lanes_u32, lanes_u64, write_vgpr, Lanes};
use super::{h, Env, Fault, Handler, Op, Src, Step, Wave, WAVE_SIZE};
use crate::memory::{load_rows, store_rows};

/// Start of the shared (LDS) aperture of flat addresses. Like the
/// private one, a multiple of 2^48, as GCN 1.4's SH_MEM_BASES register
/// gives the apertures by their bits 48-63 (LLVM's HSA code reads them
/// there, with `s_getreg`, to cast pointers to the generic address space).
pub const SHARED_APERTURE: u64 = 1 << 48;
/// Start of the private (scratch) aperture of flat addresses.
pub const PRIVATE_APERTURE: u64 = 2 << 48;
/// Size of each aperture.
pub const APERTURE_SIZE: u64 = 1 << 32;

/// Where a lane's address points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// A global (device) address.
    Global(u64),
    /// A byte offset in the work-group's LDS.
    Lds(u32),
    /// A byte offset in the lane's private memory.
    Private(u32),
}

/// A resolved, range-checked location.
#[derive(Debug, Clone, Copy)]
enum Target {
    /// A device address in global memory.
    Mem(u64),
    /// An index in `env.lds`.
    Lds(usize),
    /// An LDS access past the work-group's allocation, which the hardware
    /// drops (reads 0; the `oob` check reports it).
    Dropped,
    /// Byte `offset` of a lane's private memory, whose dword 0 is at
    /// device address `lane_base` (see the module documentation: the
    /// lane's dwords are 256 bytes apart).
    Private {
        /// Device address of the lane's first private dword.
        lane_base: u64,
        /// Bytes between the lane's consecutive private dwords (4 per lane
        /// of the wave).
        stride: u64,
        /// Byte offset in the lane's private memory.
        offset: u32,
    },
}

/// The device address of private byte `offset` of the lane whose first
/// private dword is at `lane_base`, its dwords `stride` bytes apart (the
/// swizzled scratch layout: element size 4, index stride the wave's lanes).
#[inline]
fn private_address(lane_base: u64, stride: u64, offset: u32) -> u64 {
    lane_base + u64::from(offset / 4) * stride + u64::from(offset % 4)
}

/// Splits a private access of `len` bytes at `offset` into its pieces
/// that are contiguous in device memory (at most one dword each):
/// (device address, range in the access's bytes).
fn private_pieces(
    lane_base: u64,
    stride: u64,
    offset: u32,
    len: usize,
) -> impl Iterator<Item = (u64, std::ops::Range<usize>)> {
    let mut done = 0usize;
    std::iter::from_fn(move || {
        if done >= len {
            return None;
        }
        let o = offset + done as u32;
        let n = (4 - (o % 4) as usize).min(len - done);
        let piece = (private_address(lane_base, stride, o), done..done + n);
        done += n;
        Some(piece)
    })
}

/// True when a FLAT address lies in the shared or the private aperture.
#[inline]
fn in_an_aperture(a: u64) -> bool {
    (a.wrapping_sub(SHARED_APERTURE) < APERTURE_SIZE)
        | (a.wrapping_sub(PRIVATE_APERTURE) < APERTURE_SIZE)
}

/// The place of a FLAT address.
#[inline]
fn classify(a: u64) -> Place {
    if a.wrapping_sub(SHARED_APERTURE) < APERTURE_SIZE {
        Place::Lds((a - SHARED_APERTURE) as u32)
    } else if a.wrapping_sub(PRIVATE_APERTURE) < APERTURE_SIZE {
        Place::Private((a - PRIVATE_APERTURE) as u32)
    } else {
        Place::Global(a)
    }
}

/// The 64-bit addresses of every lane of a FLAT or GLOBAL instruction:
/// `SADDR + VADDR(32)` or `VADDR(64)`, plus the instruction offset.
#[inline]
fn lane_addresses(w: &Wave, op: &Op, vaddr: usize, saddr: usize) -> [u64; WAVE_SIZE] {
    let offset = inst_offset(op);
    match saddr_base(w, op, saddr) {
        Some(base) => {
            let base = base.wrapping_add(offset);
            lanes_u32(w, op.src(vaddr)).map(|x| base.wrapping_add(u64::from(x)))
        }
        None => lanes_u64(w, op.src(vaddr)).map(|a| a.wrapping_add(offset)),
    }
}

/// The instruction offset, sign-extended.
#[inline]
fn inst_offset(op: &Op) -> u64 {
    op.instr.mods.mem.offset as i64 as u64
}

/// GLOBAL's `SADDR(64)` when the instruction has one (VADDR is then a
/// 32-bit offset from it); `None` when VADDR is the whole 64-bit address.
#[inline]
fn saddr_base(w: &Wave, op: &Op, saddr: usize) -> Option<u64> {
    match (op.instr.row.encoding, op.src(saddr)) {
        (Encoding::Global, s @ Src::Sgpr(_)) => Some(w.read_s64(s)),
        _ => None,
    }
}

/// The first address of a dense FLAT or GLOBAL access of `len` bytes per
/// lane — EXEC full and lane `l` at `first + l * len` — whose range is
/// global memory (no aperture), told from the 32-bit address registers
/// without building per-lane 64-bit addresses: the coalesced access of
/// nearly every kernel then costs one range check and one word-run copy.
#[inline]
fn dense_address(w: &Wave, op: &Op, vaddr: usize, saddr: usize, len: u32) -> Option<u64> {
    // SCRATCH addresses are private offsets, never global addresses.
    if w.exec() != u64::MAX || op.instr.row.encoding == Encoding::Scratch {
        return None;
    }
    // Lane `l`'s low address word must be the first lane's plus `l * len`
    // with no carry out of 32 bits, so that the 64-bit addresses are
    // consecutive too.
    let Src::Vgpr(v) = op.src(vaddr) else {
        return None;
    };
    let v = usize::from(v);
    let lo = w.vgpr.get(v)?;
    lo[0].checked_add(63 * len)?;
    let first = match saddr_base(w, op, saddr) {
        Some(base) => {
            if !dense_rows(lo, None, len) {
                return None;
            }
            base.wrapping_add(u64::from(lo[0]))
        }
        None => {
            let hi = w.vgpr.get(v + 1)?;
            if !dense_rows(lo, Some(hi), len) {
                return None;
            }
            (u64::from(hi[0]) << 32) | u64::from(lo[0])
        }
    }
    .wrapping_add(inst_offset(op));
    let last = first.checked_add(64 * u64::from(len) - 1)?;
    // The range (at most 1 KiB) meets a 4 GiB aperture only if one of its
    // ends lies in it.
    if op.instr.row.encoding == Encoding::Flat && (in_an_aperture(first) || in_an_aperture(last)) {
        return None;
    }
    Some(first)
}

/// The places of every lane (operand `vaddr`, and `saddr` for GLOBAL and
/// SCRATCH).
fn places(w: &Wave, op: &Op, vaddr: usize, saddr: usize) -> [Place; WAVE_SIZE] {
    match op.instr.row.encoding {
        Encoding::Global => lane_addresses(w, op, vaddr, saddr).map(Place::Global),
        Encoding::Scratch => {
            let offset = inst_offset(op);
            let s = match op.src(saddr) {
                s @ Src::Sgpr(_) => w.read_s32(s),
                _ => 0,
            };
            let base = s.wrapping_add(offset as u32);
            match op.src(vaddr) {
                v @ Src::Vgpr(_) => lanes_u32(w, v).map(|x| Place::Private(base.wrapping_add(x))),
                _ => [Place::Private(base); WAVE_SIZE],
            }
        }
        _ => lane_addresses(w, op, vaddr, saddr).map(classify),
    }
}

/// The global addresses of every lane when no lane of the instruction
/// reaches LDS or private memory (the common case: one search-free gather
/// or scatter then serves the whole wave); `None` sends the instruction
/// down the per-lane path of [`places`].
#[inline]
fn global_addresses(w: &Wave, op: &Op, vaddr: usize, saddr: usize) -> Option<[u64; WAVE_SIZE]> {
    match op.instr.row.encoding {
        Encoding::Global => Some(lane_addresses(w, op, vaddr, saddr)),
        Encoding::Scratch => None,
        _ => {
            let a = lane_addresses(w, op, vaddr, saddr);
            // Inactive lanes are tested too: a stray aperture address there
            // only costs the slower path.
            let in_aperture = a.iter().fold(false, |any, &x| any | in_an_aperture(x));
            (!in_aperture).then_some(a)
        }
    }
}

#[cold]
fn private_fault(slice: u64, offset: u32, len: u32, lane: usize) -> Fault {
    Fault {
        kind: super::FaultKind::Unsupported(format!(
            "private (scratch) access of {len} bytes at offset {offset:#x} is outside \
             the lane's {slice} bytes of private memory"
        )),
        lane: Some(lane as u8),
    }
}

/// Range-checks an access of `len` bytes of `lane` at `place`.
#[inline]
fn resolve(
    env: &Env<'_>,
    place: Place,
    len: u32,
    lane: usize,
    lanes: usize,
) -> Result<Target, Fault> {
    match place {
        Place::Global(a) => Ok(Target::Mem(a)),
        Place::Lds(o) => Ok(lds_index(env, o, len, lane).map_or(Target::Dropped, Target::Lds)),
        Place::Private(o) => {
            let slice = env.scratch.1 / lanes as u64;
            if u64::from(o) + u64::from(len) > slice {
                return Err(private_fault(slice, o, len, lane));
            }
            Ok(Target::Private {
                lane_base: env.scratch.0 + 4 * lane as u64,
                stride: 4 * lanes as u64,
                offset: o,
            })
        }
    }
}

/// Reads `out.len()` bytes at `t`.
#[inline]
fn read(env: &Env<'_>, t: Target, out: &mut [u8], lane: usize) -> Result<(), Fault> {
    match t {
        Target::Mem(a) => {
            env.log_mem(lane, a, out.len() as u32, 0);
            env.mem.read(a, out).map_err(|m| Fault::memory(m, lane))
        }
        Target::Lds(i) => {
            out.copy_from_slice(&env.lds[i..i + out.len()]);
            Ok(())
        }
        Target::Dropped => {
            out.fill(0);
            Ok(())
        }
        Target::Private {
            lane_base,
            stride,
            offset,
        } => {
            for (a, range) in private_pieces(lane_base, stride, offset, out.len()) {
                env.log_mem(lane, a, range.len() as u32, range.start as u32);
                env.mem
                    .read(a, &mut out[range])
                    .map_err(|m| Fault::memory(m, lane))?;
            }
            Ok(())
        }
    }
}

/// Writes `data` at `t`.
#[inline]
fn write(env: &mut Env<'_>, t: Target, data: &[u8], lane: usize) -> Result<(), Fault> {
    match t {
        Target::Mem(a) => {
            env.log_mem(lane, a, data.len() as u32, 0);
            env.mem.write(a, data).map_err(|m| Fault::memory(m, lane))
        }
        Target::Lds(i) => {
            env.lds[i..i + data.len()].copy_from_slice(data);
            Ok(())
        }
        Target::Dropped => Ok(()),
        Target::Private {
            lane_base,
            stride,
            offset,
        } => {
            for (a, range) in private_pieces(lane_base, stride, offset, data.len()) {
                env.log_mem(lane, a, range.len() as u32, range.start as u32);
                env.mem
                    .write(a, &data[range])
                    .map_err(|m| Fault::memory(m, lane))?;
            }
            Ok(())
        }
    }
}

/// Applies `f` atomically to the element (4 or 8 bytes) at `t`; returns the
/// old value.
#[inline]
fn atomic_at(
    env: &mut Env<'_>,
    op: &Op,
    t: Target,
    w64: bool,
    lane: usize,
    f: impl Fn(u64) -> u64,
) -> Result<u64, Fault> {
    let len: u32 = if w64 { 8 } else { 4 };
    match t {
        Target::Mem(a) => {
            if a & u64::from(len - 1) != 0 {
                return Err(Fault::misaligned(op, a, lane));
            }
            env.log_mem(lane, a, len, 0);
            let (alloc, offset) = env
                .mem
                .find(a, u64::from(len))
                .map_err(|m| Fault::memory(m, lane))?;
            Ok(if w64 {
                alloc.atomic_u64(offset, f)
            } else {
                u64::from(alloc.atomic_u32(offset, |x| f(u64::from(x)) as u32))
            })
        }
        Target::Lds(i) => {
            let old = ds::lds_load(env.lds, i, len);
            ds::lds_store(env.lds, i, len, f(old));
            Ok(old)
        }
        Target::Dropped => Ok(0),
        Target::Private { offset, .. } => {
            // Private memory belongs to the lane alone: read, modify, write.
            if offset % len != 0 {
                return Err(Fault::misaligned(op, u64::from(offset), lane));
            }
            let mut bytes = [0u8; 8];
            let n = len as usize;
            read(env, t, &mut bytes[..n], lane)?;
            let old = u64::from_le_bytes(bytes);
            write(env, t, &f(old).to_le_bytes()[..n], lane)?;
            Ok(old)
        }
    }
}

/// Faults for the GCN 1.4 `lds` flag.
#[inline]
fn no_lds(op: &Op) -> Result<(), Fault> {
    if op.instr.mods.mem.flags.contains(MemFlags::LDS) {
        return Err(Fault::unsupported(format!(
            "{} with lds (loading into LDS) is not emulated",
            op.mnemonic()
        )));
    }
    Ok(())
}

/// Loads of 1-4 dwords.
fn load_dwords<const N: usize>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    no_lds(op)?;
    let exec = w.exec();
    let lanes = w.lanes();
    let dst = usize::from(op.reg(0));
    if let Some((first, words)) = dense_address(w, op, 1, 2, 4 * N as u32)
        .and_then(|first| Some((first, env.mem.dense_words(first, WAVE_SIZE * N)?)))
    {
        env.log_dense(first, 4 * N as u32);
        if let Some(rows) = w
            .vgpr
            .get_mut(dst..dst + N)
            .and_then(|r| <&mut [Lanes; N]>::try_from(r).ok())
        {
            load_rows(words, rows);
            tfe_zero(w, op, dst, N, exec);
            return Ok(Step::Next);
        }
    }
    let mut out = [[0u32; WAVE_SIZE]; N];
    if let Some(addresses) = global_addresses(w, op, 1, 2) {
        env.log_lanes(&addresses, exec, 4 * N as u32, 0);
        env.mem
            .gather_dwords(&addresses, exec, &mut out)
            .map_err(|(lane, m)| Fault::memory(m, lane))?;
        return finish_load(w, op, &out, exec);
    }
    let at = places(w, op, 1, 2);
    for (lane, &place) in at.iter().enumerate() {
        if active(exec, lane) {
            let t = resolve(env, place, 4 * N as u32, lane, lanes)?;
            let mut b = [0u8; 16];
            read(env, t, &mut b[..4 * N], lane)?;
            for (k, o) in out.iter_mut().enumerate() {
                o[lane] = u32::from_le_bytes([b[4 * k], b[4 * k + 1], b[4 * k + 2], b[4 * k + 3]]);
            }
        }
    }
    finish_load(w, op, &out, exec)
}

/// Writes the loaded dwords (and the `tfe` VGPR) under `exec`.
#[inline]
fn finish_load<const N: usize>(
    w: &mut Wave,
    op: &Op,
    out: &[[u32; WAVE_SIZE]; N],
    exec: u64,
) -> Result<Step, Fault> {
    let dst = usize::from(op.reg(0));
    for (k, o) in out.iter().enumerate() {
        write_vgpr(w, dst + k, o, exec);
    }
    tfe_zero(w, op, dst, N, exec);
    Ok(Step::Next)
}

/// Byte and short loads, with the d16 forms.
fn load_narrow<const MODE: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    no_lds(op)?;
    let size = narrow_size(MODE);
    let at = places(w, op, 1, 2);
    let exec = w.exec();
    let lanes = w.lanes();
    let dst = usize::from(op.reg(0));
    let old = w.vgpr[dst];
    let mut out = [0u32; WAVE_SIZE];
    for lane in 0..WAVE_SIZE {
        if active(exec, lane) {
            let t = resolve(env, at[lane], size, lane, lanes)?;
            let mut b = [0u8; 4];
            read(env, t, &mut b[..size as usize], lane)?;
            out[lane] = narrow_value(MODE, u32::from_le_bytes(b), old[lane]);
        }
    }
    write_vgpr(w, dst, &out, exec);
    tfe_zero(w, op, dst, 1, exec);
    Ok(Step::Next)
}

/// Stores of 1-4 dwords.
fn store_dwords<const N: usize>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    no_lds(op)?;
    let exec = w.exec();
    let lanes = w.lanes();
    let data = usize::from(op.reg(1));
    if let Some((first, words)) = dense_address(w, op, 0, 2, 4 * N as u32)
        .and_then(|first| Some((first, env.mem.dense_words(first, WAVE_SIZE * N)?)))
    {
        env.log_dense(first, 4 * N as u32);
        if let Some(rows) = w
            .vgpr
            .get(data..data + N)
            .and_then(|r| <&[Lanes; N]>::try_from(r).ok())
        {
            store_rows(rows, words);
            return Ok(Step::Next);
        }
    }
    if let Some(addresses) = global_addresses(w, op, 0, 2) {
        let values: &[[u32; WAVE_SIZE]; N] = w.vgpr[data..data + N]
            .try_into()
            .map_err(|_| Fault::unsupported(format!("{}: data registers", op.mnemonic())))?;
        env.log_lanes(&addresses, exec, 4 * N as u32, 0);
        env.mem
            .scatter_dwords(&addresses, exec, values)
            .map_err(|(lane, m)| Fault::memory(m, lane))?;
        return Ok(Step::Next);
    }
    let at = places(w, op, 0, 2);
    for (lane, &place) in at.iter().enumerate() {
        if active(exec, lane) {
            let t = resolve(env, place, 4 * N as u32, lane, lanes)?;
            let mut b = [0u8; 16];
            for k in 0..N {
                b[4 * k..4 * k + 4].copy_from_slice(&w.vgpr[data + k][lane].to_le_bytes());
            }
            write(env, t, &b[..4 * N], lane)?;
        }
    }
    Ok(Step::Next)
}

/// Byte and short stores, with the d16_hi forms.
fn store_narrow<const MODE: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    no_lds(op)?;
    let size = store_size(MODE);
    let at = places(w, op, 0, 2);
    let exec = w.exec();
    let lanes = w.lanes();
    let data = w.vgpr[usize::from(op.reg(1))];
    for lane in 0..WAVE_SIZE {
        if active(exec, lane) {
            let t = resolve(env, at[lane], size, lane, lanes)?;
            let b = store_value(MODE, data[lane]).to_le_bytes();
            write(env, t, &b[..size as usize], lane)?;
        }
    }
    Ok(Step::Next)
}

/// The addresses of `global_load/store_dword_addtid` (RDNA 2): `SADDR +
/// INST_OFFSET + 4 * lane` (the lane id within the wave), SADDR 0 when
/// it is `off`.
#[inline]
fn addtid_addresses(w: &Wave, op: &Op) -> [u64; WAVE_SIZE] {
    let base = w.read_s64(op.src(1)).wrapping_add(inst_offset(op));
    std::array::from_fn(|l| base.wrapping_add(4 * l as u64))
}

/// `global_load_dword_addtid`.
fn load_addtid(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    no_lds(op)?;
    let exec = w.exec();
    let addresses = addtid_addresses(w, op);
    let mut out = [0u32; WAVE_SIZE];
    env.log_lanes(&addresses, exec, 4, 0);
    env.mem
        .gather_u32(&addresses, exec, &mut out)
        .map_err(|(lane, m)| Fault::memory(m, lane))?;
    finish_load(w, op, &[out], exec)
}

/// `global_store_dword_addtid`.
fn store_addtid(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    no_lds(op)?;
    let exec = w.exec();
    let addresses = addtid_addresses(w, op);
    env.log_lanes(&addresses, exec, 4, 0);
    env.mem
        .scatter_u32(&addresses, exec, &w.vgpr[usize::from(op.reg(0))])
        .map_err(|(lane, m)| Fault::memory(m, lane))?;
    Ok(Step::Next)
}

/// The atomics (`OP` from [`lds::atomic_op`]); the old value goes to VDST
/// with `glc`.
fn flat_atomic<const OP: u8, const W64: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Step, Fault> {
    no_lds(op)?;
    if op.instr.mods.mem.flags.contains(MemFlags::TFE) {
        return Err(Fault::unsupported(format!(
            "{} with tfe is not emulated",
            op.mnemonic()
        )));
    }
    let at = places(w, op, 1, 3);
    let exec = w.exec();
    let lanes = w.lanes();
    let data = usize::from(op.reg(2));
    // VDATA: the operand, then (cmpswap) the compare value.
    let words = if W64 { 2 } else { 1 };
    let read = |r: usize| -> [u64; WAVE_SIZE] {
        if W64 {
            pair(w, r)
        } else {
            w.vgpr[r].map(u64::from)
        }
    };
    let a = read(data);
    let b = if uses_b(OP) {
        read(data + words)
    } else {
        [0; WAVE_SIZE]
    };
    let mut ret = [0u64; WAVE_SIZE];
    for lane in 0..WAVE_SIZE {
        if active(exec, lane) {
            let t = resolve(env, at[lane], 4 * words as u32, lane, lanes)?;
            let (x, y) = (a[lane], b[lane]);
            ret[lane] = atomic_at(env, op, t, W64, lane, |old| {
                if W64 {
                    atomic64(OP, old, x, y)
                } else {
                    u64::from(atomic32(OP, old as u32, x as u32, y as u32))
                }
            })?;
        }
    }
    if op.instr.mods.glc {
        if let Src::Vgpr(dst) = op.src(0) {
            let dst = usize::from(dst);
            if W64 {
                write_pair(w, dst, &ret, exec);
            } else {
                let v: Lanes = ret.map(|x| x as u32);
                write_vgpr(w, dst, &v, exec);
            }
        }
    }
    Ok(Step::Next)
}

/// For a FLAT, GLOBAL or SCRATCH row that moves whole dwords between
/// memory and VGPRs (`load_dwords`, `store_dwords`): whether it stores,
/// and the dwords per lane. The handler table and the compiled tier's
/// inline accesses both read it.
pub(crate) fn dword_access(op: M) -> Option<(bool, usize)> {
    Some(match op {
        M::FlatLoadDword | M::GlobalLoadDword | M::ScratchLoadDword => (false, 1),
        M::FlatLoadDwordx2 | M::GlobalLoadDwordx2 | M::ScratchLoadDwordx2 => (false, 2),
        M::FlatLoadDwordx3 | M::GlobalLoadDwordx3 | M::ScratchLoadDwordx3 => (false, 3),
        M::FlatLoadDwordx4 | M::GlobalLoadDwordx4 | M::ScratchLoadDwordx4 => (false, 4),
        M::FlatStoreDword | M::GlobalStoreDword | M::ScratchStoreDword => (true, 1),
        M::FlatStoreDwordx2 | M::GlobalStoreDwordx2 | M::ScratchStoreDwordx2 => (true, 2),
        M::FlatStoreDwordx3 | M::GlobalStoreDwordx3 | M::ScratchStoreDwordx3 => (true, 3),
        M::FlatStoreDwordx4 | M::GlobalStoreDwordx4 | M::ScratchStoreDwordx4 => (true, 4),
        _ => return None,
    })
}

/// The handler of a FLAT, GLOBAL or SCRATCH row.
pub fn handler(row: &InstrRow, _version: GcnVersion) -> Option<Handler> {
    use narrow::*;
    use narrow_store::*;
    if let Some(atomic) = row.atomic {
        return if atomic.wide {
            dispatch_atomic!(atomic.op as u8, flat_atomic, true)
        } else {
            dispatch_atomic!(atomic.op as u8, flat_atomic, false)
        };
    }
    if let Some((store, dwords)) = dword_access(row.op) {
        return match (store, dwords) {
            (false, 1) => h(load_dwords::<1>),
            (false, 2) => h(load_dwords::<2>),
            (false, 3) => h(load_dwords::<3>),
            (false, 4) => h(load_dwords::<4>),
            (true, 1) => h(store_dwords::<1>),
            (true, 2) => h(store_dwords::<2>),
            (true, 3) => h(store_dwords::<3>),
            (true, 4) => h(store_dwords::<4>),
            _ => None,
        };
    }
    match row.op {
        M::FlatLoadUbyte | M::GlobalLoadUbyte | M::ScratchLoadUbyte => h(load_narrow::<U8>),
        M::FlatLoadSbyte | M::GlobalLoadSbyte | M::ScratchLoadSbyte => h(load_narrow::<S8>),
        M::FlatLoadUshort | M::GlobalLoadUshort | M::ScratchLoadUshort => h(load_narrow::<U16>),
        M::FlatLoadSshort | M::GlobalLoadSshort | M::ScratchLoadSshort => h(load_narrow::<S16>),
        M::FlatLoadUbyteD16 | M::GlobalLoadUbyteD16 | M::ScratchLoadUbyteD16 => {
            h(load_narrow::<U8_D16>)
        }
        M::FlatLoadUbyteD16Hi | M::GlobalLoadUbyteD16Hi | M::ScratchLoadUbyteD16Hi => {
            h(load_narrow::<U8_D16_HI>)
        }
        M::FlatLoadSbyteD16 | M::GlobalLoadSbyteD16 | M::ScratchLoadSbyteD16 => {
            h(load_narrow::<S8_D16>)
        }
        M::FlatLoadSbyteD16Hi | M::GlobalLoadSbyteD16Hi | M::ScratchLoadSbyteD16Hi => {
            h(load_narrow::<S8_D16_HI>)
        }
        M::FlatLoadShortD16 | M::GlobalLoadShortD16 | M::ScratchLoadShortD16 => {
            h(load_narrow::<U16_D16>)
        }
        M::FlatLoadShortD16Hi | M::GlobalLoadShortD16Hi | M::ScratchLoadShortD16Hi => {
            h(load_narrow::<U16_D16_HI>)
        }
        M::GlobalLoadDwordAddtid => h(load_addtid),
        M::GlobalStoreDwordAddtid => h(store_addtid),
        M::FlatStoreByte | M::GlobalStoreByte | M::ScratchStoreByte => h(store_narrow::<B8>),
        M::FlatStoreShort | M::GlobalStoreShort | M::ScratchStoreShort => h(store_narrow::<B16>),
        M::FlatStoreByteD16Hi | M::GlobalStoreByteD16Hi | M::ScratchStoreByteD16Hi => {
            h(store_narrow::<B8_HI>)
        }
        M::FlatStoreShortD16Hi | M::GlobalStoreShortD16Hi | M::ScratchStoreShortD16Hi => {
            h(store_narrow::<B16_HI>)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
