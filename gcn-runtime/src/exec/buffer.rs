//! Buffer memory: the untyped MUBUF instructions, addressed through a
//! buffer resource (V#).
//!
//! Semantics follow `GcnInstrsMubuf.md` and the buffer seeds
//! (`GcnMemHandling.md`: resource fields, addressing, range checking):
//!
//! - Resource: BASE bits 0-47, STRIDE bits 48-61 (14 bits), swizzle
//!   enable bit 63, NUM_RECORDS bits 64-95, ELEMSIZE bits 115-116
//!   (`2 << field`), INDEXSTRIDE bits 117-118 (`8 << field`), ADD_TID_ENABLE
//!   bit 119.
//! - `AOFFSET = OFFSET + (offen ? VGPR offset : 0)`, `AINDEX = (idxen ?
//!   VGPR index : 0) + (add_tid ? lane : 0)` (32-bit wrapping; with both
//!   `idxen` and `offen` VADDR holds the index, VADDR+1 the offset);
//!   `BUFOFFSET = (u32)(AINDEX * STRIDE) + AOFFSET`, or in swizzle mode
//!   `AOFFSET % ES + ES * (AINDEX % IS) + IS * ((AINDEX / IS) * STRIDE +
//!   (AOFFSET / ES) * ES)`; the address is `BASE + SOFFSET + BUFOFFSET`.
//! - `addr64` (GCN 1.0/1.1): `BASE + VADDR(64) + OFFSET + SOFFSET`, no
//!   range check.
//! - Range check: STRIDE == 0: out of range when `BUFOFFSET >= NUM_RECORDS -
//!   SOFFSET` (the subtraction saturates at 0); STRIDE != 0: when `AINDEX >=
//!   NUM_RECORDS`, or `AOFFSET >= STRIDE` with `idxen` or add_tid. Each
//!   dword of a multi-dword access is checked on its own (its AOFFSET is the
//!   lane's plus 4 per dword): out-of-range dwords read 0 and are not
//!   written; an out-of-range atomic does nothing and returns 0.
//! - Addresses of 32-bit and wider accesses are aligned down to 4 bytes,
//!   of 16-bit accesses to 2 (seed); a 64-bit atomic whose aligned address
//!   is not a multiple of 8 is a fault (the host atomic needs it).
//! - An in-range address outside every allocation is a memory fault naming
//!   the lane.
//! - `lds` (loads of ubyte/sbyte/ushort/sshort/dword): the value, zero
//!   extended to a dword (seed), goes to LDS at `(M0 & 0xffff) + OFFSET +
//!   lane * 4` instead of VGPRs (the OFFSET term as in the
//!   `buffer_store_lds_dword` text and AMD's ISA; the seed's formula omits
//!   it); past the LDS allocation: an LDS fault. `buffer_store_lds_dword`
//!   stores the dword at that LDS address.
//! - `tfe`: loads write 0 (success) to the VGPR after the data; stores
//!   ignore it; atomics with `tfe`, and `lds` on anything but the loads
//!   above, stop with an Unsupported fault.
//! - Atomics return the old value to VDATA with `glc`; `cmpswap` takes the
//!   new value in the low half of VDATA and the compare value in the high
//!   half (docs). 64-bit atomics use the host's striped-lock 64-bit atomic.
//! - `buffer_wbinvl1*` are no-ops (there are no caches to invalidate).
//!
//! The typed forms (`buffer_*_format_*`, MTBUF `tbuffer_*`) have no handler
//! yet: they come with the buffer-resource (format conversion) issue, and
//! the dispatch stops naming the instruction.

use gcn_asm::decode::{MemFlags, Operand};
use gcn_asm::isa::{Encoding, InstrRow};
use gcn_asm::GcnVersion;

use super::lds::{
    atomic32, atomic64, dispatch_atomic, lds_index, lds_load, lds_store, narrow, narrow_size,
    narrow_store, narrow_value, pair, store_size, store_value, uses_b, vm_atomic_code, write_pair,
};
use super::vector::{lanes_u64, write_vgpr, Lanes};
use super::{h, Env, Fault, Handler, Op, Src, Step, Wave, WAVE_SIZE};

/// The fields of a buffer resource the addressing uses.
#[derive(Debug, Clone, Copy)]
struct Resource {
    base: u64,
    stride: u32,
    num_records: u32,
    swizzle: bool,
    elem_size: u32,
    index_stride: u32,
    add_tid: bool,
}

impl Resource {
    fn read(w: &Wave, src: Src) -> Resource {
        let r = match src {
            Src::Sgpr(r) => usize::from(r),
            _ => 0,
        };
        let word = |i: usize| w.sgpr[(r + i) & 127];
        let (w0, w1, w2, w3) = (word(0), word(1), word(2), word(3));
        Resource {
            base: u64::from(w0) | (u64::from(w1 & 0xffff) << 32),
            stride: (w1 >> 16) & 0x3fff,
            num_records: w2,
            swizzle: w1 >> 31 != 0,
            elem_size: 2 << ((w3 >> 19) & 3),
            index_stride: 8 << ((w3 >> 21) & 3),
            add_tid: (w3 >> 23) & 1 != 0,
        }
    }
}

/// The addressing of one instruction for every lane.
struct Addressing {
    res: Resource,
    soffset: u32,
    index: [u32; WAVE_SIZE],
    offset: [u32; WAVE_SIZE],
    /// VADDR(64) with `addr64`.
    addr64: Option<[u64; WAVE_SIZE]>,
    /// The offset is range-checked against STRIDE (idxen or add_tid).
    check_offset: bool,
}

impl Addressing {
    fn new(w: &Wave, op: &Op, vaddr: Src, srsrc: Src, soffset: Src) -> Addressing {
        let m = &op.instr.mods.mem;
        let f = m.flags;
        let (offen, idxen) = (f.contains(MemFlags::OFFEN), f.contains(MemFlags::IDXEN));
        let res = Resource::read(w, srsrc);
        let soffset = w.read_s32(soffset);
        let inst = m.offset as u32 & 0xfff;
        let vgpr = |k: usize| {
            match vaddr {
                Src::Vgpr(r) => w.vgpr.get(usize::from(r) + k).copied(),
                _ => None,
            }
            .unwrap_or([0; WAVE_SIZE])
        };
        if f.contains(MemFlags::ADDR64) {
            return Addressing {
                res,
                soffset,
                index: [0; WAVE_SIZE],
                offset: [inst; WAVE_SIZE],
                addr64: Some(match vaddr {
                    Src::Vgpr(_) => lanes_u64(w, vaddr),
                    _ => [0; WAVE_SIZE],
                }),
                check_offset: false,
            };
        }
        let v0 = vgpr(0);
        let v1 = if idxen && offen { vgpr(1) } else { v0 };
        let index = std::array::from_fn(|l| {
            let i = if idxen { v0[l] } else { 0 };
            i.wrapping_add(if res.add_tid { l as u32 } else { 0 })
        });
        let offset = std::array::from_fn(|l| inst.wrapping_add(if offen { v1[l] } else { 0 }));
        Addressing {
            res,
            soffset,
            index,
            offset,
            addr64: None,
            check_offset: idxen || res.add_tid,
        }
    }

    /// The addressing of a row `vdata vaddr srsrc soffset`.
    fn of(w: &Wave, op: &Op) -> Addressing {
        Addressing::new(w, op, op.src(1), op.src(2), op.src(3))
    }

    /// The device address of the bytes `extra` past the lane's AOFFSET, or
    /// `None` when they are out of range.
    #[inline]
    fn at(&self, lane: usize, extra: u32) -> Option<u64> {
        let r = &self.res;
        if let Some(v) = &self.addr64 {
            return Some(
                r.base
                    .wrapping_add(v[lane])
                    .wrapping_add(u64::from(self.offset[lane]) + u64::from(self.soffset))
                    .wrapping_add(u64::from(extra)),
            );
        }
        let off = self.offset[lane].wrapping_add(extra);
        let idx = self.index[lane];
        let buf = if r.swizzle {
            let (is, es) = (u64::from(r.index_stride), u64::from(r.elem_size));
            let (idx, off) = (u64::from(idx), u64::from(off));
            off % es + es * (idx % is) + is * ((idx / is) * u64::from(r.stride) + (off / es) * es)
        } else {
            u64::from(idx.wrapping_mul(r.stride)) + u64::from(off)
        };
        let out_of_range = if r.stride == 0 {
            buf >= u64::from(r.num_records.saturating_sub(self.soffset))
        } else {
            idx >= r.num_records || (self.check_offset && off >= r.stride)
        };
        if out_of_range {
            return None;
        }
        Some(
            r.base
                .wrapping_add(u64::from(self.soffset))
                .wrapping_add(buf),
        )
    }
}

#[inline]
fn active(exec: u64, lane: usize) -> bool {
    exec >> lane & 1 != 0
}

#[cold]
fn unsupported_flag(op: &Op, flag: &str) -> Fault {
    Fault::unsupported(format!("{} with {flag} is not emulated", op.mnemonic()))
}

/// Writes 0 to the `tfe` VGPR after `n` data registers at `dst`.
#[inline]
fn tfe_zero(w: &mut Wave, op: &Op, dst: usize, n: usize, exec: u64) {
    if op.instr.mods.mem.flags.contains(MemFlags::TFE) {
        write_vgpr(w, dst + n, &[0; WAVE_SIZE], exec);
    }
}

/// The LDS address of lane `lane` for the `lds` forms.
#[inline]
fn lds_address(w: &Wave, op: &Op, lane: usize) -> u32 {
    (w.m0() & 0xffff) + (op.instr.mods.mem.offset as u32 & 0xfff) + 4 * lane as u32
}

/// A load of `size` bytes with `lds`: the zero-extended value goes to LDS.
fn load_to_lds(w: &mut Wave, op: &Op, env: &mut Env<'_>, size: u32) -> Result<Step, Fault> {
    let ad = Addressing::of(w, op);
    let exec = w.exec();
    for lane in 0..WAVE_SIZE {
        if active(exec, lane) {
            let mut b = [0u8; 4];
            if let Some(a) = ad.at(lane, 0) {
                let a = a & !u64::from(size - 1);
                env.mem
                    .read(a, &mut b[..size as usize])
                    .map_err(|m| Fault::memory(m, lane))?;
            }
            let i = lds_index(env, lds_address(w, op, lane), 4, lane)?;
            lds_store(env.lds, i, 4, u64::from(u32::from_le_bytes(b)));
        }
    }
    Ok(Step::Next)
}

/// `buffer_load_dword`, `_dwordx2/x3/x4`.
fn load_dwords<const N: usize>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    if op.instr.mods.mem.flags.contains(MemFlags::LDS) {
        if N == 1 {
            return load_to_lds(w, op, env, 4);
        }
        return Err(unsupported_flag(op, "lds"));
    }
    let ad = Addressing::of(w, op);
    let exec = w.exec();
    let mut out = [[0u32; WAVE_SIZE]; N];
    for lane in 0..WAVE_SIZE {
        if active(exec, lane) {
            for (k, o) in out.iter_mut().enumerate() {
                if let Some(a) = ad.at(lane, 4 * k as u32) {
                    o[lane] = env
                        .mem
                        .read_u32(a & !3)
                        .map_err(|m| Fault::memory(m, lane))?;
                }
            }
        }
    }
    let dst = usize::from(op.reg(0));
    for (k, o) in out.iter().enumerate() {
        write_vgpr(w, dst + k, o, exec);
    }
    tfe_zero(w, op, dst, N, exec);
    Ok(Step::Next)
}

/// Byte and short loads, with the d16 forms.
fn load_narrow<const MODE: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    let size = narrow_size(MODE);
    if op.instr.mods.mem.flags.contains(MemFlags::LDS) {
        if MODE <= narrow::S16 {
            return load_to_lds(w, op, env, size);
        }
        return Err(unsupported_flag(op, "lds"));
    }
    let ad = Addressing::of(w, op);
    let exec = w.exec();
    let dst = usize::from(op.reg(0));
    let old = w.vgpr[dst];
    let mut out = [0u32; WAVE_SIZE];
    for lane in 0..WAVE_SIZE {
        if active(exec, lane) {
            let mut b = [0u8; 4];
            if let Some(a) = ad.at(lane, 0) {
                let a = a & !u64::from(size - 1);
                env.mem
                    .read(a, &mut b[..size as usize])
                    .map_err(|m| Fault::memory(m, lane))?;
            }
            out[lane] = narrow_value(MODE, u32::from_le_bytes(b), old[lane]);
        }
    }
    write_vgpr(w, dst, &out, exec);
    tfe_zero(w, op, dst, 1, exec);
    Ok(Step::Next)
}

/// `buffer_store_dword`, `_dwordx2/x3/x4`.
fn store_dwords<const N: usize>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    if op.instr.mods.mem.flags.contains(MemFlags::LDS) {
        return Err(unsupported_flag(op, "lds"));
    }
    let ad = Addressing::of(w, op);
    let exec = w.exec();
    let data = usize::from(op.reg(0));
    for lane in 0..WAVE_SIZE {
        if active(exec, lane) {
            for k in 0..N {
                if let Some(a) = ad.at(lane, 4 * k as u32) {
                    env.mem
                        .write_u32(a & !3, w.vgpr[data + k][lane])
                        .map_err(|m| Fault::memory(m, lane))?;
                }
            }
        }
    }
    Ok(Step::Next)
}

/// Byte and short stores, with the d16_hi forms.
fn store_narrow<const MODE: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    if op.instr.mods.mem.flags.contains(MemFlags::LDS) {
        return Err(unsupported_flag(op, "lds"));
    }
    let size = store_size(MODE);
    let ad = Addressing::of(w, op);
    let exec = w.exec();
    let data = w.vgpr[usize::from(op.reg(0))];
    for (lane, &d) in data.iter().enumerate() {
        if active(exec, lane) {
            if let Some(a) = ad.at(lane, 0) {
                let a = a & !u64::from(size - 1);
                let b = store_value(MODE, d).to_le_bytes();
                env.mem
                    .write(a, &b[..size as usize])
                    .map_err(|m| Fault::memory(m, lane))?;
            }
        }
    }
    Ok(Step::Next)
}

/// `buffer_store_lds_dword`: each lane's dword at its LDS address goes to
/// its buffer address.
fn store_lds_dword(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    // The optional VADDR sits after the row's two operands (see the
    // decoder).
    let vaddr = match op.instr.operand_array.get(2) {
        Some(&Operand::Reg { code, .. }) if code >= 256 => Src::Vgpr(code - 256),
        _ => Src::None,
    };
    let ad = Addressing::new(w, op, vaddr, op.src(0), op.src(1));
    let exec = w.exec();
    for lane in 0..WAVE_SIZE {
        if active(exec, lane) {
            let i = lds_index(env, lds_address(w, op, lane), 4, lane)?;
            let v = lds_load(env.lds, i, 4) as u32;
            if let Some(a) = ad.at(lane, 0) {
                env.mem
                    .write_u32(a & !3, v)
                    .map_err(|m| Fault::memory(m, lane))?;
            }
        }
    }
    Ok(Step::Next)
}

#[cold]
fn misaligned(op: &Op, a: u64, lane: usize) -> Fault {
    Fault {
        kind: super::FaultKind::Unsupported(format!(
            "{} at the misaligned address {a:#x}",
            op.mnemonic()
        )),
        lane: Some(lane as u8),
    }
}

/// The buffer atomics (`OP` from `lds::atomic_op`).
fn buffer_atomic<const OP: u8, const W64: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Step, Fault> {
    let f = op.instr.mods.mem.flags;
    if f.contains(MemFlags::TFE) {
        return Err(unsupported_flag(op, "tfe"));
    }
    if f.contains(MemFlags::LDS) {
        return Err(unsupported_flag(op, "lds"));
    }
    let ad = Addressing::of(w, op);
    let exec = w.exec();
    let data = usize::from(op.reg(0));
    let words: usize = if W64 { 2 } else { 1 };
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
        if !active(exec, lane) {
            continue;
        }
        // Every dword of the element must be in range.
        let (Some(addr), true) = (ad.at(lane, 0), !W64 || ad.at(lane, 4).is_some()) else {
            continue;
        };
        let addr = addr & !3;
        if W64 && addr & 7 != 0 {
            return Err(misaligned(op, addr, lane));
        }
        let (alloc, offset) = env
            .mem
            .find(addr, 4 * words as u64)
            .map_err(|m| Fault::memory(m, lane))?;
        let (x, y) = (a[lane], b[lane]);
        ret[lane] = if W64 {
            alloc.atomic_u64(offset, |old| atomic64(OP, old, x, y))
        } else {
            u64::from(alloc.atomic_u32(offset, |old| atomic32(OP, old, x as u32, y as u32)))
        };
    }
    if op.instr.mods.glc {
        if W64 {
            write_pair(w, data, &ret, exec);
        } else {
            let v: Lanes = ret.map(|x| x as u32);
            write_vgpr(w, data, &v, exec);
        }
    }
    Ok(Step::Next)
}

/// `buffer_wbinvl1*`: nothing to invalidate.
fn nop(_: &mut Wave, _: &Op, _: &mut Env<'_>) -> Result<Step, Fault> {
    Ok(Step::Next)
}

/// The handler of a MUBUF or MTBUF row (the typed forms have none yet).
pub fn handler(row: &InstrRow, _version: GcnVersion) -> Option<Handler> {
    use narrow::*;
    use narrow_store::*;
    if row.encoding != Encoding::Mubuf {
        return None;
    }
    let name = row.mnemonic.strip_prefix("buffer_")?;
    if let Some(atomic) = name.strip_prefix("atomic_") {
        let (base, w64) = match atomic.strip_suffix("_x2") {
            Some(b) => (b, true),
            None => (atomic, false),
        };
        let code = vm_atomic_code(base)?;
        return if w64 {
            dispatch_atomic!(code, buffer_atomic, true)
        } else {
            dispatch_atomic!(code, buffer_atomic, false)
        };
    }
    match name {
        "load_ubyte" => h(load_narrow::<U8>),
        "load_sbyte" => h(load_narrow::<S8>),
        "load_ushort" => h(load_narrow::<U16>),
        "load_sshort" => h(load_narrow::<S16>),
        "load_ubyte_d16" => h(load_narrow::<U8_D16>),
        "load_ubyte_d16_hi" => h(load_narrow::<U8_D16_HI>),
        "load_sbyte_d16" => h(load_narrow::<S8_D16>),
        "load_sbyte_d16_hi" => h(load_narrow::<S8_D16_HI>),
        "load_short_d16" => h(load_narrow::<U16_D16>),
        "load_short_d16_hi" => h(load_narrow::<U16_D16_HI>),
        "load_dword" => h(load_dwords::<1>),
        "load_dwordx2" => h(load_dwords::<2>),
        "load_dwordx3" => h(load_dwords::<3>),
        "load_dwordx4" => h(load_dwords::<4>),
        "store_byte" => h(store_narrow::<B8>),
        "store_short" => h(store_narrow::<B16>),
        "store_byte_d16_hi" => h(store_narrow::<B8_HI>),
        "store_short_d16_hi" => h(store_narrow::<B16_HI>),
        "store_dword" => h(store_dwords::<1>),
        "store_dwordx2" => h(store_dwords::<2>),
        "store_dwordx3" => h(store_dwords::<3>),
        "store_dwordx4" => h(store_dwords::<4>),
        "store_lds_dword" => h(store_lds_dword),
        "wbinvl1" | "wbinvl1_sc" | "wbinvl1_vol" => h(nop),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
