//! Local data share: the DS instructions.
//!
//! Semantics follow the `Operation:` text of `GcnInstrsDs.md`. The address
//! of a lane is `ADDR + OFFSET` in bytes within the work-group's LDS
//! (`env.lds`), aligned down where the hardware aligns it:
//! - GCN 1.4 (gfx9) honours SH_MEM_CONFIG.ALIGNMENT_MODE = UNALIGNED, which
//!   every Linux driver programs (Mesa's and ROCm's queues alike) and LLVM
//!   relies on (`ds_read_b128 v[8:11], v16 offset:2`): plain reads and
//!   writes of every size and the 2-address forms use the address as it
//!   is ([`unaligned_ds`]);
//! - GCN 1.0–1.2 align 16/32/64-bit accesses to their size (the elements
//!   of the 2-address forms to theirs) and B96/B128 to 16 bytes;
//! - atomics always align to their size.
//!
//! Range rules:
//! - The work-group's LDS allocation is the kernel's size rounded up to the
//!   generation's granule (`launch::lds_granule`). An access that reaches
//!   past it is dropped as on hardware — a read returns 0, a write or
//!   atomic does nothing (an atomic returns 0) — and logged as
//!   [`super::MemAccess::outside`] for the `oob` check, which reports it.
//! - On GCN 1.0–1.2, M0 is the LDS size limit of the wave: an access that
//!   lies inside the allocation but not below M0 (its last byte at or past
//!   M0) behaves as the hardware does: reads return 0, writes and atomics
//!   are dropped (an atomic returns 0). Kernels set M0 to `-1` before DS
//!   instructions, as LLVM does. GCN 1.4 and later have no M0 limit.
//! - Lanes access LDS one after another in lane order, each lane's whole
//!   operation (both addresses of the 2-address forms, the read-modify-write
//!   of an atomic) before the next lane's: for writes of several lanes to one
//!   address the highest lane wins, and atomics of several lanes to one
//!   address all apply, in lane order.
//!
//! Interpretations where the docs are terse:
//! - `ds_permute_b32`/`ds_bpermute_b32`: the lane a lane's ADDR selects is
//!   `((ADDR + OFFSET) / 4) & 63` (AMD's definition; the CLRX text writes the
//!   same as `ADDR[(LANEID + (OFFSET>>2)) & 63]`). Only active lanes push
//!   (`permute`: several pushes to one lane: the highest lane wins; a lane
//!   nobody pushes to gets 0); `bpermute` reads 0 from inactive lanes.
//! - `ds_append`/`ds_consume` update the dword at `(M0[15:0] + OFFSET) & ~3`
//!   (M0 holds the LDS base, as LLVM's lowering sets it; the docs write
//!   `DS + (OFFSET & ~3)`, the same when M0 is 0) by the number of active
//!   lanes and return the old value to every active lane; M0 is not a limit
//!   for them.
//! - GDS (`gds` flag) and the GWS/ordered-count rows are not emulated: the
//!   `gds` flag stops with an Unsupported fault "GDS/GWS is not emulated";
//!   the `gds_only` rows and `ds_ordered_count` have no handler (the
//!   dispatch stops naming the instruction), as do `ds_condxchg32_rtn_*`,
//!   which the docs do not describe.
//! - Float atomics (`min/max/cmpst/add` on f32/f64) use IEEE semantics in
//!   round-to-nearest: min/max return the non-NaN operand and order -0
//!   below +0; the compare-and-store compares as floats (+0 == -0, NaN
//!   never equal).
//!
//! The helpers shared with `flat` and `buffer` (sub-dword load/store
//! conversions, LDS range checks) live here too; the atomic operations of
//! every family are [`super::atomic`].

use gcn_asm::decode::MemFlags;
use gcn_asm::isa::InstrRow;
use gcn_asm::isa::Mnemonic as M;
use gcn_asm::GcnVersion;

use super::atomic::{atomic32, atomic64, atomic_op::*, dispatch_atomic, uses_b};
use super::vector::{active, steps_by, unpack_mask, write_vgpr, Lanes};
use super::{h, Env, Fault, Handler, Op, Step, Wave, WAVE_SIZE};

// ---------------------------------------------------------------------------
// Shared helpers (DS, FLAT, MUBUF).

/// Sub-dword load conversions (the const parameter of the narrow loads).
pub(crate) mod narrow {
    /// Zero-extended byte.
    pub const U8: u8 = 0;
    /// Sign-extended byte.
    pub const S8: u8 = 1;
    /// Zero-extended short.
    pub const U16: u8 = 2;
    /// Sign-extended short.
    pub const S16: u8 = 3;
    /// Byte zero-extended into the low half (the high half kept).
    pub const U8_D16: u8 = 4;
    /// Byte zero-extended into the high half (the low half kept).
    pub const U8_D16_HI: u8 = 5;
    /// Byte sign-extended to 16 bits into the low half.
    pub const S8_D16: u8 = 6;
    /// Byte sign-extended to 16 bits into the high half.
    pub const S8_D16_HI: u8 = 7;
    /// Short into the low half.
    pub const U16_D16: u8 = 8;
    /// Short into the high half.
    pub const U16_D16_HI: u8 = 9;
}

/// Bytes a narrow load reads.
pub(crate) const fn narrow_size(mode: u8) -> u32 {
    use narrow::*;
    match mode {
        U8 | S8 | U8_D16 | U8_D16_HI | S8_D16 | S8_D16_HI => 1,
        _ => 2,
    }
}

/// The register value of a narrow load of `raw` (the loaded bytes,
/// zero-extended) into a register holding `old`.
#[inline]
pub(crate) fn narrow_value(mode: u8, raw: u32, old: u32) -> u32 {
    use narrow::*;
    let sext8 = raw as u8 as i8 as i32 as u32;
    match mode {
        U8 => raw & 0xff,
        S8 => sext8,
        U16 => raw & 0xffff,
        S16 => raw as u16 as i16 as i32 as u32,
        U8_D16 => (old & 0xffff_0000) | (raw & 0xff),
        U8_D16_HI => (old & 0xffff) | ((raw & 0xff) << 16),
        S8_D16 => (old & 0xffff_0000) | (sext8 & 0xffff),
        S8_D16_HI => (old & 0xffff) | (sext8 << 16),
        U16_D16 => (old & 0xffff_0000) | (raw & 0xffff),
        _ => (old & 0xffff) | (raw << 16),
    }
}

/// Sub-dword store selections (the const parameter of the narrow stores).
pub(crate) mod narrow_store {
    /// Bits 0-7.
    pub const B8: u8 = 0;
    /// Bits 0-15.
    pub const B16: u8 = 1;
    /// Bits 16-23 (`*_d16_hi`).
    pub const B8_HI: u8 = 2;
    /// Bits 16-31 (`*_d16_hi`).
    pub const B16_HI: u8 = 3;
}

/// Bytes a narrow store writes.
pub(crate) const fn store_size(mode: u8) -> u32 {
    match mode {
        narrow_store::B8 | narrow_store::B8_HI => 1,
        _ => 2,
    }
}

/// The bytes (low bits) a narrow store writes from register value `v`.
#[inline]
pub(crate) const fn store_value(mode: u8, v: u32) -> u32 {
    match mode {
        narrow_store::B8_HI | narrow_store::B16_HI => v >> 16,
        _ => v,
    }
}

/// Whether the DS instructions take unaligned addresses on `version`
/// (the UNALIGNED alignment mode of SH_MEM_CONFIG, honoured by the LDS
/// from GCN 1.4 on).
#[inline]
pub(crate) const fn unaligned_ds(version: GcnVersion) -> bool {
    version.is_gcn14_or_later()
}

/// The index in `env.lds` of `[address, address + len)`, or `None` when it
/// reaches past the allocation: the hardware drops such an access (a read
/// returns 0, a write does nothing); while checks run it is logged as
/// outside for the `oob` check.
#[inline]
pub(crate) fn lds_index(env: &Env<'_>, address: u32, len: u32, lane: usize) -> Option<usize> {
    let outside = u64::from(address) + u64::from(len) > env.lds.len() as u64;
    if let Some(log) = env.log {
        // The checks (race, definedness, barrier, oob) see every LDS
        // access here.
        log.borrow_mut().push(super::MemAccess {
            outside,
            ..super::MemAccess::one(
                lane,
                true,
                u64::from(address),
                len,
                u32::from(super::MemAccess::SEQUENTIAL),
            )
        });
    }
    (!outside).then_some(address as usize)
}

/// Little-endian load of `len` (≤ 8) bytes at `i` (inside).
#[inline]
pub(crate) fn lds_load(lds: &[u8], i: usize, len: u32) -> u64 {
    let mut b = [0u8; 8];
    let n = len as usize;
    b[..n].copy_from_slice(&lds[i..i + n]);
    u64::from_le_bytes(b)
}

/// Little-endian store of the low `len` (≤ 8) bytes of `v` at `i` (inside).
#[inline]
pub(crate) fn lds_store(lds: &mut [u8], i: usize, len: u32, v: u64) {
    let n = len as usize;
    lds[i..i + n].copy_from_slice(&v.to_le_bytes()[..n]);
}

/// A register's 64 lanes as one 64-bit value per lane (`r`, `r + 1`).
#[inline]
pub(crate) fn pair(w: &Wave, r: usize) -> [u64; WAVE_SIZE] {
    let lo = &w.vgpr[r];
    let hi = &w.vgpr[r + 1];
    std::array::from_fn(|l| u64::from(lo[l]) | (u64::from(hi[l]) << 32))
}

/// Writes 64-bit lanes to VGPRs `r`, `r + 1` under `mask`.
#[inline]
pub(crate) fn write_pair(w: &mut Wave, r: usize, v: &[u64; WAVE_SIZE], mask: u64) {
    let lo: Lanes = v.map(|x| x as u32);
    let hi: Lanes = v.map(|x| (x >> 32) as u32);
    write_vgpr(w, r, &lo, mask);
    write_vgpr(w, r + 1, &hi, mask);
}

// ---------------------------------------------------------------------------
// DS.

/// The VGPR index of operand `i`.
#[inline]
fn vreg(op: &Op, i: usize) -> usize {
    usize::from(op.reg(i))
}

/// Faults for the `gds` flag.
#[inline]
fn no_gds(op: &Op) -> Result<(), Fault> {
    if op.instr.mods.mem.flags.contains(MemFlags::GDS) {
        return Err(gds_fault(op));
    }
    Ok(())
}

#[cold]
fn gds_fault(op: &Op) -> Fault {
    Fault::unsupported(format!(
        "GDS/GWS is not emulated ({} with gds)",
        op.mnemonic()
    ))
}

/// The M0 limit of LDS addresses (GCN 1.0–1.2; none from GCN 1.4 on).
#[inline]
fn m0_limit(w: &Wave, env: &Env<'_>) -> u64 {
    if env.version.is_gcn14_or_later() {
        u64::MAX
    } else {
        u64::from(w.m0())
    }
}

/// The LDS index of a DS access: `Some` inside, `None` when it leaves the
/// allocation or the M0 limit drops it.
#[inline]
fn ds_at(env: &Env<'_>, limit: u64, addr: u32, len: u32, lane: usize) -> Option<usize> {
    let i = lds_index(env, addr, len, lane)?;
    (u64::from(addr) + u64::from(len) <= limit).then_some(i)
}

/// The instruction offset (the 16-bit OFFSET field).
#[inline]
fn offset16(op: &Op) -> u32 {
    op.instr.mods.mem.offset as u32 & 0xffff
}

/// `ds_read_{u8,i8,u16,i16}` and the d16 forms.
fn read_narrow<const MODE: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    no_gds(op)?;
    let size = narrow_size(MODE);
    // 16-bit reads align on GCN 1.0-1.2 (docs); the d16 forms (1.4) never.
    let align = if size == 2 && !unaligned_ds(env.version) {
        !1
    } else {
        !0
    };
    let dst = vreg(op, 0);
    let addr = w.vgpr[vreg(op, 1)];
    let old = w.vgpr[dst];
    let offset = offset16(op);
    let exec = w.exec();
    let limit = m0_limit(w, env);
    let mut out = [0u32; WAVE_SIZE];
    for lane in 0..WAVE_SIZE {
        if active(exec, lane) {
            let a = addr[lane].wrapping_add(offset) & align;
            let raw = match ds_at(env, limit, a, size, lane) {
                Some(i) => lds_load(env.lds, i, size) as u32,
                None => 0,
            };
            out[lane] = narrow_value(MODE, raw, old[lane]);
        }
    }
    write_vgpr(w, dst, &out, exec);
    Ok(Step::Next)
}

/// The address alignment mask of an `n`-dword plain read or write.
#[inline]
fn dword_align(n: usize, version: GcnVersion) -> u32 {
    match n {
        _ if unaligned_ds(version) => !0,
        1 => !3,
        2 => !7,
        _ => !15,
    }
}

/// The per-lane LDS indices `(addr + offset) & align` of a `len`-byte
/// access, inactive lanes at 0, when every active lane is inside the
/// allocation and under the M0 limit: the access then needs no per-lane
/// test (while checks run, the lanes' accesses are logged here at once). `None` sends it down the per-lane
/// path, which drops or faults lane by lane.
#[inline(always)]
fn lds_indices(
    env: &Env<'_>,
    limit: u64,
    addr: &Lanes,
    offset: u32,
    align: u32,
    exec: u64,
    len: u32,
) -> Option<Lanes> {
    let mut indices: Lanes = std::array::from_fn(|lane| addr[lane].wrapping_add(offset) & align);
    if exec != u64::MAX {
        let on = unpack_mask(exec);
        for (i, &f) in indices.iter_mut().zip(&on) {
            *i &= 0u32.wrapping_sub(f);
        }
    }
    // Every index at most `bound - len`: a compare per lane folded with
    // OR (a max would need SSE4.1).
    let bound = (env.lds.len() as u64).min(limit);
    let last = u32::try_from(bound.checked_sub(u64::from(len))?).unwrap_or(u32::MAX);
    let outside = indices.iter().fold(0u32, |m, &x| m | u32::from(x > last));
    if outside != 0 {
        return None;
    }
    if let Some(log) = env.log {
        log_indices(log, &indices, exec, len);
    }
    Some(indices)
}

/// Logs the lanes' accesses of a wave-wide LDS access for the checks (kept
/// out of line: the unchecked interpreter never calls it).
#[cold]
#[inline(never)]
fn log_indices(
    log: &std::cell::RefCell<Vec<super::MemAccess>>,
    indices: &Lanes,
    exec: u64,
    len: u32,
) {
    if exec == u64::MAX && steps_by(indices, len) {
        // A dense access: one run.
        log.borrow_mut().push(super::MemAccess {
            count: WAVE_SIZE as u8,
            ..super::MemAccess::one(
                0,
                true,
                u64::from(indices[0]),
                len,
                u32::from(super::MemAccess::SEQUENTIAL),
            )
        });
        return;
    }
    let addresses: [u64; WAVE_SIZE] = std::array::from_fn(|l| u64::from(indices[l]));
    super::log_runs(
        &mut log.borrow_mut(),
        &addresses,
        exec,
        len,
        u32::from(super::MemAccess::SEQUENTIAL),
        true,
    );
}

/// The LDS bytes of a dense access — EXEC full, lane `l` at `indices[0] +
/// l * len` — as one slice, lane `l` owning its `l`-th `len` bytes (the
/// indices come from [`lds_indices`], so the run is inside).
#[inline]
fn dense_bytes<'a>(
    lds: &'a mut [u8],
    indices: &Lanes,
    exec: u64,
    len: usize,
) -> Option<&'a mut [u8]> {
    if exec != u64::MAX {
        return None;
    }
    let first = indices[0] as usize;
    steps_by(indices, len as u32)
        .then(|| lds.get_mut(first..first + WAVE_SIZE * len))
        .flatten()
}

/// `ds_read_b32/b64/b96/b128`.
fn read_dwords<const N: usize>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    no_gds(op)?;
    let align = dword_align(N, env.version);
    let dst = vreg(op, 0);
    let addr = w.vgpr[vreg(op, 1)];
    let offset = offset16(op);
    let exec = w.exec();
    let limit = m0_limit(w, env);
    let mut out = [[0u32; WAVE_SIZE]; N];
    if let Some(indices) = lds_indices(env, limit, &addr, offset, align, exec, 4 * N as u32) {
        if let Some(bytes) = dense_bytes(env.lds, &indices, exec, 4 * N) {
            for (lane, group) in bytes.chunks_exact(4 * N).enumerate() {
                for (o, word) in out.iter_mut().zip(group.chunks_exact(4)) {
                    o[lane] = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
                }
            }
            for (k, o) in out.iter().enumerate() {
                w.vgpr[dst + k] = *o;
            }
            return Ok(Step::Next);
        }
        // Inactive lanes read index 0 (inside) and are not written.
        for (lane, &i) in indices.iter().enumerate() {
            for (k, o) in out.iter_mut().enumerate() {
                o[lane] = lds_load(env.lds, i as usize + 4 * k, 4) as u32;
            }
        }
        for (k, o) in out.iter().enumerate() {
            write_vgpr(w, dst + k, o, exec);
        }
        return Ok(Step::Next);
    }
    for lane in 0..WAVE_SIZE {
        if active(exec, lane) {
            let a = addr[lane].wrapping_add(offset) & align;
            if let Some(i) = ds_at(env, limit, a, 4 * N as u32, lane) {
                for (k, o) in out.iter_mut().enumerate() {
                    o[lane] = lds_load(env.lds, i + 4 * k, 4) as u32;
                }
            }
        }
    }
    for (k, o) in out.iter().enumerate() {
        write_vgpr(w, dst + k, o, exec);
    }
    Ok(Step::Next)
}

/// `ds_write_b8/b16` and the `_d16_hi` forms.
fn write_narrow<const MODE: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    no_gds(op)?;
    let size = store_size(MODE);
    let align = if MODE == narrow_store::B16 && !unaligned_ds(env.version) {
        !1
    } else {
        !0
    };
    let addr = w.vgpr[vreg(op, 0)];
    let data = w.vgpr[vreg(op, 1)];
    let offset = offset16(op);
    let exec = w.exec();
    let limit = m0_limit(w, env);
    for lane in 0..WAVE_SIZE {
        if active(exec, lane) {
            let a = addr[lane].wrapping_add(offset) & align;
            if let Some(i) = ds_at(env, limit, a, size, lane) {
                lds_store(env.lds, i, size, u64::from(store_value(MODE, data[lane])));
            }
        }
    }
    Ok(Step::Next)
}

/// `ds_write_b32/b64/b96/b128`.
fn write_dwords<const N: usize>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    no_gds(op)?;
    let align = dword_align(N, env.version);
    let addr = w.vgpr[vreg(op, 0)];
    let data = vreg(op, 1);
    let offset = offset16(op);
    let exec = w.exec();
    let limit = m0_limit(w, env);
    let mark = env.log.map(|l| l.borrow().len());
    if let Some(indices) = lds_indices(env, limit, &addr, offset, align, exec, 4 * N as u32) {
        let before = mark.map(|m| logged_lds_bytes(env, m));
        let result = write_dwords_at::<N>(w, env, &indices, exec, data);
        if let (Some(m), Some(before)) = (mark, before) {
            mark_unchanged(env, m, &before);
        }
        return result;
    }
    for (lane, &x) in addr.iter().enumerate() {
        if active(exec, lane) {
            let a = x.wrapping_add(offset) & align;
            if let Some(i) = ds_at(env, limit, a, 4 * N as u32, lane) {
                for k in 0..N {
                    lds_store(env.lds, i + 4 * k, 4, u64::from(w.vgpr[data + k][lane]));
                }
            }
        }
    }
    Ok(Step::Next)
}

/// The LDS bytes the accesses logged since `mark` cover, in log order
/// (before a write, for [`mark_unchanged`]).
#[cold]
fn logged_lds_bytes(env: &Env<'_>, mark: usize) -> Vec<u8> {
    let Some(log) = env.log else {
        return Vec::new();
    };
    let log = log.borrow();
    let mut out = Vec::new();
    for a in log.iter().skip(mark).filter(|a| a.in_lds()) {
        let start = (a.address as usize).min(env.lds.len());
        let end = (start + a.span() as usize).min(env.lds.len());
        out.extend_from_slice(&env.lds[start..end]);
    }
    out
}

/// Marks the LDS accesses logged since `mark` as [`super::MemAccess::unchanged`]
/// when the bytes they cover are still `before` (a write of the values
/// that were there).
#[cold]
fn mark_unchanged(env: &Env<'_>, mark: usize, before: &[u8]) {
    if logged_lds_bytes(env, mark) != before {
        return;
    }
    if let Some(log) = env.log {
        for a in log.borrow_mut().iter_mut().skip(mark).filter(|a| a.lds) {
            a.unchanged = true;
        }
    }
}

/// The write of `ds_write_b32…b128` at the lanes' LDS `indices`, all inside
/// the allocation ([`lds_indices`]).
#[inline(always)]
fn write_dwords_at<const N: usize>(
    w: &Wave,
    env: &mut Env<'_>,
    indices: &Lanes,
    exec: u64,
    data: usize,
) -> Result<Step, Fault> {
    {
        if let Some(bytes) = dense_bytes(env.lds, indices, exec, 4 * N) {
            for (lane, group) in bytes.chunks_exact_mut(4 * N).enumerate() {
                for (k, word) in group.chunks_exact_mut(4).enumerate() {
                    word.copy_from_slice(&w.vgpr[data + k][lane].to_le_bytes());
                }
            }
            return Ok(Step::Next);
        }
        for (lane, &i) in indices.iter().enumerate() {
            if active(exec, lane) {
                for k in 0..N {
                    lds_store(
                        env.lds,
                        i as usize + 4 * k,
                        4,
                        u64::from(w.vgpr[data + k][lane]),
                    );
                }
            }
        }
    }
    Ok(Step::Next)
}

/// The two addresses of a 2-address form: OFFSET0/OFFSET1 in units of the
/// element size (×64 for `st64`), aligned to the element size except in
/// the unaligned mode ([`unaligned_ds`]).
#[inline]
fn two_addresses<const W64: bool, const ST64: bool>(
    op: &Op,
    addr: u32,
    version: GcnVersion,
) -> (u32, u32) {
    let elem: u32 = if W64 { 8 } else { 4 };
    let unit = if ST64 { elem * 64 } else { elem };
    let m = &op.instr.mods.mem;
    let o0 = (m.offset as u32 & 0xff) * unit;
    let o1 = u32::from(m.offset1) * unit;
    let align = if unaligned_ds(version) {
        !0
    } else {
        !(elem - 1)
    };
    (addr.wrapping_add(o0) & align, addr.wrapping_add(o1) & align)
}

/// `ds_read2_b32/b64`, `ds_read2st64_b32/b64`.
fn read2<const W64: bool, const ST64: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Step, Fault> {
    no_gds(op)?;
    let elem: u32 = if W64 { 8 } else { 4 };
    let dst = vreg(op, 0);
    let addr = w.vgpr[vreg(op, 1)];
    let exec = w.exec();
    let limit = m0_limit(w, env);
    let mut out = [[0u64; WAVE_SIZE]; 2];
    for lane in 0..WAVE_SIZE {
        if active(exec, lane) {
            let (a0, a1) = two_addresses::<W64, ST64>(op, addr[lane], env.version);
            for (o, a) in out.iter_mut().zip([a0, a1]) {
                if let Some(i) = ds_at(env, limit, a, elem, lane) {
                    o[lane] = lds_load(env.lds, i, elem);
                }
            }
        }
    }
    write_elems::<W64>(w, dst, &out, exec);
    Ok(Step::Next)
}

/// Writes two elements per lane (dwords or qwords) from VGPR `dst` on.
fn write_elems<const W64: bool>(w: &mut Wave, dst: usize, v: &[[u64; WAVE_SIZE]; 2], mask: u64) {
    if W64 {
        write_pair(w, dst, &v[0], mask);
        write_pair(w, dst + 2, &v[1], mask);
    } else {
        write_vgpr(w, dst, &v[0].map(|x| x as u32), mask);
        write_vgpr(w, dst + 1, &v[1].map(|x| x as u32), mask);
    }
}

/// The data of VGPR `r` as elements (a dword or a pair).
#[inline]
fn elems<const W64: bool>(w: &Wave, r: usize) -> [u64; WAVE_SIZE] {
    if W64 {
        pair(w, r)
    } else {
        w.vgpr[r].map(u64::from)
    }
}

/// `ds_write2_b32/b64`, `ds_write2st64_b32/b64`, and with `RTN` the
/// `ds_wrxchg2*_rtn` forms (which return both old values).
fn write2<const W64: bool, const ST64: bool, const RTN: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Step, Fault> {
    no_gds(op)?;
    let elem: u32 = if W64 { 8 } else { 4 };
    let base = usize::from(RTN);
    let addr = w.vgpr[vreg(op, base)];
    let d0 = elems::<W64>(w, vreg(op, base + 1));
    let d1 = elems::<W64>(w, vreg(op, base + 2));
    let exec = w.exec();
    let limit = m0_limit(w, env);
    let mut old = [[0u64; WAVE_SIZE]; 2];
    for lane in 0..WAVE_SIZE {
        if active(exec, lane) {
            let (a0, a1) = two_addresses::<W64, ST64>(op, addr[lane], env.version);
            for (k, (a, d)) in [(a0, d0[lane]), (a1, d1[lane])].into_iter().enumerate() {
                if let Some(i) = ds_at(env, limit, a, elem, lane) {
                    old[k][lane] = lds_load(env.lds, i, elem);
                    lds_store(env.lds, i, elem, d);
                }
            }
        }
    }
    if RTN {
        write_elems::<W64>(w, vreg(op, 0), &old, exec);
    }
    Ok(Step::Next)
}

/// The DS atomics with and without return (`OP` from [`atomic_op`]).
/// `cmpst` takes the compare value in DATA0 and the new value in DATA1.
fn ds_atomic<const OP: u8, const W64: bool, const RTN: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Step, Fault> {
    no_gds(op)?;
    let elem: u32 = if W64 { 8 } else { 4 };
    let base = usize::from(RTN);
    let addr = w.vgpr[vreg(op, base)];
    let d0 = elems::<W64>(w, vreg(op, base + 1));
    let d1 = if uses_b(OP) {
        elems::<W64>(w, vreg(op, base + 2))
    } else {
        [0; WAVE_SIZE]
    };
    // (a, b) of `atomic32`: for the compare-and-store, a is the new value
    // (DATA1) and b the compare value (DATA0).
    let (a, b) = if OP == CMPSWAP || OP == FCMPSWAP {
        (d1, d0)
    } else {
        (d0, d1)
    };
    let offset = offset16(op);
    let exec = w.exec();
    let limit = m0_limit(w, env);
    let mut ret = [0u64; WAVE_SIZE];
    for lane in 0..WAVE_SIZE {
        if active(exec, lane) {
            let at = addr[lane].wrapping_add(offset) & !(elem - 1);
            if let Some(i) = ds_at(env, limit, at, elem, lane) {
                let old = lds_load(env.lds, i, elem);
                let new = if W64 {
                    atomic64(OP, old, a[lane], b[lane])
                } else {
                    u64::from(atomic32(OP, old as u32, a[lane] as u32, b[lane] as u32))
                };
                lds_store(env.lds, i, elem, new);
                ret[lane] = old;
            }
        }
    }
    if RTN {
        let dst = vreg(op, 0);
        if W64 {
            write_pair(w, dst, &ret, exec);
        } else {
            write_vgpr(w, dst, &ret.map(|x| x as u32), exec);
        }
    }
    Ok(Step::Next)
}

/// The `*_src2_*` forms: `LDS[A] = op(LDS[A], LDS[B])` with A and B from
/// ADDR and OFFSET as the docs give them.
fn ds_src2<const OP: u8, const W64: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Step, Fault> {
    no_gds(op)?;
    let elem: u32 = if W64 { 8 } else { 4 };
    let addr = w.vgpr[vreg(op, 0)];
    let offset = offset16(op);
    let exec = w.exec();
    let limit = m0_limit(w, env);
    for (lane, &x) in addr.iter().enumerate() {
        if active(exec, lane) {
            let (a, step) = if offset & 0x8000 != 0 {
                (
                    x & (0x1_ffff & !(elem - 1)),
                    (x >> 17) | ((x >> 16) & 0x8000),
                )
            } else {
                (
                    x & !(elem - 1),
                    (offset & 0x7fff) | ((offset << 1) & 0x8000),
                )
            };
            let b = a.wrapping_add(step.wrapping_mul(4)) & !(elem - 1);
            let (Some(ia), Some(ib)) = (
                ds_at(env, limit, a, elem, lane),
                ds_at(env, limit, b, elem, lane),
            ) else {
                continue;
            };
            let old = lds_load(env.lds, ia, elem);
            let data = lds_load(env.lds, ib, elem);
            let new = if W64 {
                atomic64(OP, old, data, 0)
            } else {
                u64::from(atomic32(OP, old as u32, data as u32, 0))
            };
            lds_store(env.lds, ia, elem, new);
        }
    }
    Ok(Step::Next)
}

/// `ds_swizzle_b32`: quad-permute mode (OFFSET bit 15) or bit-mask mode
/// (and/or/xor masks on the lane id within each half of 32 lanes).
fn swizzle(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Step, Fault> {
    no_gds(op)?;
    let offset = offset16(op) as usize;
    let src = w.vgpr[vreg(op, 1)];
    let exec = w.exec();
    let out: Lanes = std::array::from_fn(|lane| {
        let from = if offset & 0x8000 != 0 {
            (lane & 0x3c) + ((offset >> (2 * (lane & 3))) & 3)
        } else {
            let and = offset & 31;
            let or = (offset >> 5) & 31;
            let xor = (offset >> 10) & 31;
            (lane & 32) + ((((lane & 31) & and) | or) ^ xor)
        };
        if active(exec, from) {
            src[from]
        } else {
            0
        }
    });
    write_vgpr(w, vreg(op, 0), &out, exec);
    Ok(Step::Next)
}

/// The lane `((ADDR + OFFSET) / 4) & 63` of the permutes (`& 31` in
/// wave32).
#[inline]
fn permute_lane(w: &Wave, addr: u32, offset: u32) -> usize {
    (addr.wrapping_add(offset) >> 2) as usize & (w.lanes() - 1)
}

/// `ds_permute_b32`: each active lane pushes DATA0 to the lane its ADDR
/// names.
fn permute(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Step, Fault> {
    no_gds(op)?;
    let offset = offset16(op);
    let addr = w.vgpr[vreg(op, 1)];
    let data = w.vgpr[vreg(op, 2)];
    let exec = w.exec();
    let mut tmp = [0u32; WAVE_SIZE];
    for lane in 0..WAVE_SIZE {
        if active(exec, lane) {
            tmp[permute_lane(w, addr[lane], offset)] = data[lane];
        }
    }
    write_vgpr(w, vreg(op, 0), &tmp, exec);
    Ok(Step::Next)
}

/// `ds_bpermute_b32`: each active lane reads DATA0 of the lane its ADDR
/// names (0 from an inactive lane).
fn bpermute(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Step, Fault> {
    no_gds(op)?;
    let offset = offset16(op);
    let addr = w.vgpr[vreg(op, 1)];
    let data = w.vgpr[vreg(op, 2)];
    let exec = w.exec();
    let out: Lanes = std::array::from_fn(|lane| {
        let from = permute_lane(w, addr[lane], offset);
        if active(exec, from) {
            data[from]
        } else {
            0
        }
    });
    write_vgpr(w, vreg(op, 0), &out, exec);
    Ok(Step::Next)
}

/// `ds_append` (`CONSUME` false) / `ds_consume`: one update of the wave's
/// counter by the number of active lanes.
fn append<const CONSUME: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    no_gds(op)?;
    let exec = w.exec();
    if exec == 0 {
        return Ok(Step::Next);
    }
    let at = ((w.m0() & 0xffff) + offset16(op)) & !3;
    let lane = exec.trailing_zeros() as usize;
    // Outside the allocation the update is dropped and returns 0.
    let mut old = 0;
    if let Some(i) = lds_index(env, at, 4, lane) {
        old = lds_load(env.lds, i, 4) as u32;
        let n = exec.count_ones();
        let new = if CONSUME {
            old.wrapping_sub(n)
        } else {
            old.wrapping_add(n)
        };
        lds_store(env.lds, i, 4, u64::from(new));
    }
    write_vgpr(w, vreg(op, 0), &[old; WAVE_SIZE], exec);
    Ok(Step::Next)
}

/// The address `(M0 & 0xffff) + OFFSET + LANEID * 4` of the addtid forms.
#[inline]
fn addtid_address(w: &Wave, op: &Op, lane: usize) -> u32 {
    (w.m0() & 0xffff) + offset16(op) + 4 * lane as u32
}

/// `ds_read_addtid_b32` (GCN 1.4).
fn read_addtid(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    no_gds(op)?;
    let exec = w.exec();
    let mut out = [0u32; WAVE_SIZE];
    for (lane, o) in out.iter_mut().enumerate() {
        if active(exec, lane) {
            if let Some(i) = lds_index(env, addtid_address(w, op, lane), 4, lane) {
                *o = lds_load(env.lds, i, 4) as u32;
            }
        }
    }
    write_vgpr(w, vreg(op, 0), &out, exec);
    Ok(Step::Next)
}

/// `ds_write_addtid_b32` (GCN 1.4).
fn write_addtid(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    no_gds(op)?;
    let exec = w.exec();
    let data = w.vgpr[vreg(op, 0)];
    for (lane, &d) in data.iter().enumerate() {
        if active(exec, lane) {
            if let Some(i) = lds_index(env, addtid_address(w, op, lane), 4, lane) {
                lds_store(env.lds, i, 4, u64::from(d));
            }
        }
    }
    Ok(Step::Next)
}

/// `ds_nop`.
fn nop(_: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Step, Fault> {
    no_gds(op)?;
    Ok(Step::Next)
}

/// The handler of a DS row.
pub fn handler(row: &InstrRow, _version: GcnVersion) -> Option<Handler> {
    use narrow::*;
    use narrow_store::*;
    match row.op {
        M::DsNop => return h(nop),
        M::DsReadU8 => return h(read_narrow::<U8>),
        M::DsReadI8 => return h(read_narrow::<S8>),
        M::DsReadU16 => return h(read_narrow::<U16>),
        M::DsReadI16 => return h(read_narrow::<S16>),
        M::DsReadU8D16 => return h(read_narrow::<U8_D16>),
        M::DsReadU8D16Hi => return h(read_narrow::<U8_D16_HI>),
        M::DsReadI8D16 => return h(read_narrow::<S8_D16>),
        M::DsReadI8D16Hi => return h(read_narrow::<S8_D16_HI>),
        M::DsReadU16D16 => return h(read_narrow::<U16_D16>),
        M::DsReadU16D16Hi => return h(read_narrow::<U16_D16_HI>),
        M::DsReadB32 => return h(read_dwords::<1>),
        M::DsReadB64 => return h(read_dwords::<2>),
        M::DsReadB96 => return h(read_dwords::<3>),
        M::DsReadB128 => return h(read_dwords::<4>),
        M::DsWriteB8 => return h(write_narrow::<B8>),
        M::DsWriteB16 => return h(write_narrow::<B16>),
        M::DsWriteB8D16Hi => return h(write_narrow::<B8_HI>),
        M::DsWriteB16D16Hi => return h(write_narrow::<B16_HI>),
        M::DsWriteB32 => return h(write_dwords::<1>),
        M::DsWriteB64 => return h(write_dwords::<2>),
        M::DsWriteB96 => return h(write_dwords::<3>),
        M::DsWriteB128 => return h(write_dwords::<4>),
        M::DsRead2B32 => return h(read2::<false, false>),
        M::DsRead2st64B32 => return h(read2::<false, true>),
        M::DsRead2B64 => return h(read2::<true, false>),
        M::DsRead2st64B64 => return h(read2::<true, true>),
        M::DsWrite2B32 => return h(write2::<false, false, false>),
        M::DsWrite2st64B32 => return h(write2::<false, true, false>),
        M::DsWrite2B64 => return h(write2::<true, false, false>),
        M::DsWrite2st64B64 => return h(write2::<true, true, false>),
        M::DsWrxchg2RtnB32 => return h(write2::<false, false, true>),
        M::DsWrxchg2st64RtnB32 => return h(write2::<false, true, true>),
        M::DsWrxchg2RtnB64 => return h(write2::<true, false, true>),
        M::DsWrxchg2st64RtnB64 => return h(write2::<true, true, true>),
        M::DsSwizzleB32 => return h(swizzle),
        M::DsPermuteB32 => return h(permute),
        M::DsBpermuteB32 => return h(bpermute),
        M::DsAppend => return h(append::<false>),
        M::DsConsume => return h(append::<true>),
        M::DsReadAddtidB32 => return h(read_addtid),
        M::DsWriteAddtidB32 => return h(write_addtid),
        _ => {}
    }
    let atomic = row.atomic?;
    let code = atomic.op as u8;
    // The `_src2_` forms name no data register: the data is in LDS.
    if row.operand(gcn_asm::isa::Field::Vdata).is_none() {
        return if atomic.wide {
            dispatch_atomic!(code, ds_src2, true)
        } else {
            dispatch_atomic!(code, ds_src2, false)
        };
    }
    // Only the read-modify-write rows remain; the `_rtn_` ones return into
    // VDST (ds_wrxchg is return-only).
    let rtn = row.operand(gcn_asm::isa::Field::Vdst).is_some();
    if code == SWAP && !rtn {
        return None;
    }
    match (atomic.wide, rtn) {
        (false, false) => dispatch_atomic!(code, ds_atomic, false, false),
        (false, true) => dispatch_atomic!(code, ds_atomic, false, true),
        (true, false) => dispatch_atomic!(code, ds_atomic, true, false),
        (true, true) => dispatch_atomic!(code, ds_atomic, true, true),
    }
}

#[cfg(test)]
pub(crate) mod tests;
