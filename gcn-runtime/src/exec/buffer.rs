//! Buffer memory: the MUBUF and MTBUF instructions, addressed through a
//! buffer resource (V#, decoded by [`crate::descriptor::BufferResource`]).
//!
//! Semantics follow `GcnInstrsMubuf.md`, `GcnInstrsMtbuf.md` and the buffer
//! seeds (`GcnMemHandling.md`: resource fields, format conversion,
//! addressing, range checking):
//!
//! - Resource: BASE, STRIDE (14 bits), swizzle enable, NUM_RECORDS,
//!   DST_SEL, NUMFORMAT, DATAFORMAT, ELEMSIZE (`2 << field`; fixed at 4
//!   bytes on GCN 1.4, whose bits 115-116 are USER_VM), INDEXSTRIDE
//!   (`8 << field`), ADD_TID_ENABLE.
//! - `AOFFSET = OFFSET + (offen ? VGPR offset : 0)`, `AINDEX = (idxen ?
//!   VGPR index : 0) + (add_tid ? lane : 0)` (32-bit wrapping; with both
//!   `idxen` and `offen` VADDR holds the index, VADDR+1 the offset; the
//!   lane is the id within the wave, 0-63);
//!   `BUFOFFSET = (u32)(AINDEX * STRIDE) + AOFFSET`, or in swizzle mode
//!   `AOFFSET % ES + ES * (AINDEX % IS) + IS * ((AINDEX / IS) * STRIDE +
//!   (AOFFSET / ES) * ES)`; the address is `BASE + SOFFSET + BUFOFFSET`.
//! - GCN 1.5 and RDNA 2 read the gfx10 V# ([`crate::descriptor::Gfx10BufferResource`]):
//!   the element size is 4 bytes, the unified 7-bit FORMAT (the gfx10
//!   table, [`crate::descriptor::gfx10_format`]) replaces DATAFORMAT and
//!   NUMFORMAT for the `*_format_*` forms, MTBUF's `format:` field is a
//!   code of the same table, and OOB_SELECT chooses the range check in
//!   place of the rules below: 0 `AINDEX >= NUM_RECORDS || AOFFSET >=
//!   STRIDE`, 1 `AINDEX >= NUM_RECORDS`, 2 `NUM_RECORDS == 0`, 3 the raw
//!   rule (the buffer offset, swizzled when swizzling is on, against
//!   `NUM_RECORDS - SOFFSET`). An INVALID or reserved FORMAT in a format
//!   access stops with a fault naming it. `dlc`, `buffer_gl0_inv` and
//!   `buffer_gl1_inv` are cache control (nothing to do). The lane id of
//!   ADD_TID is 0-31 in wave32 (lanes 32-63 take no part).
//! - `addr64` (GCN 1.0/1.1): `BASE + VADDR(64) + OFFSET + SOFFSET`, no
//!   range check.
//! - Range check: STRIDE == 0: out of range when `BUFOFFSET >= NUM_RECORDS -
//!   SOFFSET` (the subtraction saturates at 0); STRIDE != 0: when `AINDEX >=
//!   NUM_RECORDS`, or `AOFFSET >= STRIDE` with `idxen` or add_tid. Each
//!   dword of a multi-dword access is checked on its own (its AOFFSET is the
//!   lane's plus 4 per dword): out-of-range dwords read 0 and are not
//!   written; an out-of-range atomic does nothing and returns 0.
//! - Addresses of 32-bit and wider accesses are aligned down to 4 bytes,
//!   of 16-bit accesses to 2 (seed) on GCN 1.0. From GCN 1.1 on, Linux's
//!   drivers (radeon, amdgpu, amdkfd) run every queue in the UNALIGNED
//!   alignment mode of SH_MEM_CONFIG, in which the untyped loads and stores
//!   of a linear (unswizzled) buffer use the address as it is
//!   ([`Addressing::align`]); swizzled buffers (scratch), the typed forms
//!   and atomics keep the seed's alignment. A 64-bit atomic whose aligned
//!   address is not a multiple of 8 is a fault (the host atomic needs it).
//! - An in-range address outside every allocation's mapped pages is a
//!   memory fault naming the lane (inside a page, past an allocation's end,
//!   it completes and the `oob` check reports it; out-of-range accesses
//!   are never logged, so never reported).
//! - Typed forms, per the seed's table: `buffer_load/store_format_*` take
//!   the data format, number format and DST_SEL from the resource;
//!   `tbuffer_*` take the formats from the instruction (DFMT/NFMT) with
//!   identity selects; the untyped loads, stores and atomics ignore the
//!   resource's format ("derived"). Conversions are [`crate::format`]'s
//!   (its rustdoc has the table of what is documented and what is chosen).
//!   An element of up to 4 bytes is read and range-checked as one piece,
//!   a wider one per dword (so `32_32_32_32` behaves like `dwordx4`), and
//!   is aligned down to its piece size (1, 2 or 4 bytes). A format
//!   component out of range reads 0; the components the data format lacks
//!   still read 0 (Y, Z) and one (W), and DST_SEL's constants still apply.
//!   A store encodes the register components (0 and one for those the
//!   instruction does not supply: chosen), memory component `i` taking the
//!   component DST_SEL_`i` selects (the seed's "resource" column for
//!   `buffer_store_format_*`), and writes the in-range pieces. Invalid (0)
//!   and reserved (15) data formats, FLOAT on 8- or 2-bit components, the
//!   undefined DST_SEL codes 2 and 3, and SNORM_OGL on GCN 1.2 and later
//!   (reserved there in AMD's register specifications and LLVM) stop with a
//!   fault naming the instruction and the reason.
//! - d16 forms (GCN 1.2+): 16-bit components (half for the float number
//!   formats, the low 16 bits for UINT/SINT), one per VGPR in the low half
//!   on GCN 1.2 (the high half written 0), two per VGPR on GCN 1.4+ (an odd
//!   last component and `_d16_hi_x`'s other half keep the register's bits,
//!   as gfx9 preserves them).
//! - `lds` (loads of ubyte/sbyte/ushort/sshort/dword and
//!   `buffer_load_format_x`): the value, zero extended to a dword (seed;
//!   the converted X for the format load), goes to LDS at `(M0 & 0xffff) +
//!   OFFSET + lane * 4` instead of VGPRs (the OFFSET term as in the
//!   `buffer_store_lds_dword` text and AMD's ISA; the seed's formula omits
//!   it); past the LDS allocation: an LDS fault. `buffer_store_lds_dword`
//!   stores the dword at that LDS address. `lds` on any other instruction
//!   (the seed defines it for those six only) stops with a fault.
//! - `tfe`: loads and atomics write the fail flag to the VGPR after all
//!   VDATA registers; stores ignore it. The flag is 0 on every access that
//!   completes: the hardware's failure (a NACK) comes from non-resident
//!   (PRT) pages, which the emulator does not model, and out-of-range
//!   accesses are not failures (they read 0); an access outside every
//!   allocation is a fault, not a flag (chosen).
//! - Atomics return the old value to VDATA with `glc`; `cmpswap` takes the
//!   new value in the low half of VDATA and the compare value in the high
//!   half (docs). 64-bit atomics use the host's striped-lock 64-bit atomic;
//!   all are host atomics, so they are atomic across work-groups.
//! - `buffer_wbinvl1*` are no-ops (there are no caches to invalidate).
//! - Dword paths (untyped dwords, 4-byte format pieces) use
//!   [`crate::memory::MemView::gather_u32`]/`scatter_u32`: one allocation
//!   lookup per instruction in the common case.

use gcn_asm::decode::{MemFlags, Operand};
use gcn_asm::isa::Mnemonic as M;
use gcn_asm::isa::{flags, Encoding, InstrRow};
use gcn_asm::GcnVersion;

use super::atomic::{atomic32, atomic64, dispatch_atomic, uses_b};
use super::ds::{
    lds_index, lds_load, lds_store, narrow, narrow_size, narrow_store, narrow_value, pair,
    store_size, store_value, write_pair,
};
use super::vector::{active, lanes_u64, write_vgpr, Lanes};
use super::{h, Env, Fault, Handler, Op, Src, Step, Wave, WAVE_SIZE};
use crate::descriptor::{gfx10_format, BufferResource, Gfx10BufferResource, OobSelect};
use crate::format::{
    decode_lanes, encode_lanes, from_d16, to_d16, Codec, DataFormat, DstSel, NumFormat,
};

/// The fields of a buffer resource the addressing uses, decoded by
/// [`BufferResource::from_words`] (the one place that knows the bits).
#[derive(Debug, Clone, Copy)]
struct Resource {
    base: u64,
    stride: u32,
    num_records: u32,
    swizzle: bool,
    elem_size: u32,
    index_stride: u32,
    add_tid: bool,
    /// GCN 1.5+: the range check OOB_SELECT chooses (`None`: the GCN
    /// 1.0-1.4 rules).
    oob: Option<OobSelect>,
    /// The whole descriptor, for the format fields.
    desc: Desc,
}

/// A V# as its version lays it out.
#[derive(Debug, Clone, Copy)]
enum Desc {
    /// GCN 1.0-1.4.
    Gcn(BufferResource),
    /// GCN 1.5 and RDNA 2.
    Gfx10(Gfx10BufferResource),
}

impl Resource {
    fn read(w: &Wave, src: Src, version: GcnVersion) -> Resource {
        let r = match src {
            Src::Sgpr(r) => usize::from(r),
            _ => 0,
        };
        let word = |i: usize| w.sgpr[(r + i) & 127];
        let words = [word(0), word(1), word(2), word(3)];
        if version.is_gcn15() {
            let desc = Gfx10BufferResource::from_words(words);
            return Resource {
                base: desc.base(),
                stride: desc.stride(),
                num_records: desc.num_records(),
                swizzle: desc.swizzle_enable(),
                // No ELEMENT_SIZE field: 4-byte elements (as GCN 1.4).
                elem_size: 4,
                index_stride: desc.index_stride().records(),
                add_tid: desc.add_tid(),
                oob: Some(desc.oob_select()),
                desc: Desc::Gfx10(desc),
            };
        }
        let desc = BufferResource::from_words(words);
        Resource {
            base: desc.base(),
            stride: desc.stride(),
            num_records: desc.num_records(),
            swizzle: desc.swizzle_enable(),
            elem_size: desc.element_size_bytes(version),
            index_stride: desc.index_stride().records(),
            add_tid: desc.tid_enable(),
            oob: None,
            desc: Desc::Gcn(desc),
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
    fn new(
        w: &Wave,
        op: &Op,
        version: GcnVersion,
        vaddr: Src,
        srsrc: Src,
        soffset: Src,
    ) -> Addressing {
        let m = &op.instr.mods.mem;
        let f = m.flags;
        let (offen, idxen) = (f.contains(MemFlags::OFFEN), f.contains(MemFlags::IDXEN));
        let res = Resource::read(w, srsrc, version);
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
    fn of(w: &Wave, op: &Op, version: GcnVersion) -> Addressing {
        Addressing::new(w, op, version, op.src(1), op.src(2), op.src(3))
    }

    /// The device address of the bytes `extra` past the lane's AOFFSET, or
    /// `None` when they are out of range.
    #[inline]
    /// The alignment an untyped access of `size` bytes (1, 2 or 4 per
    /// piece) gets: none in the UNALIGNED alignment mode (GCN 1.1 on, a
    /// linear buffer), else the seed's (its size, at most 4).
    fn align(&self, version: GcnVersion, size: u32) -> u64 {
        if version != GcnVersion::Gcn1_0 && !self.res.swizzle {
            1
        } else {
            u64::from(size.min(4))
        }
    }

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
        let out_of_range = match r.oob {
            None if r.stride == 0 => buf >= u64::from(r.num_records.saturating_sub(self.soffset)),
            None => idx >= r.num_records || (self.check_offset && off >= r.stride),
            Some(OobSelect::StructuredWithOffset) => idx >= r.num_records || off >= r.stride,
            Some(OobSelect::Structured) => idx >= r.num_records,
            Some(OobSelect::Disabled) => r.num_records == 0,
            Some(OobSelect::Raw) => buf >= u64::from(r.num_records.saturating_sub(self.soffset)),
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

#[cold]
fn unsupported_flag(op: &Op, flag: &str) -> Fault {
    Fault::unsupported(format!("{} with {flag} is not emulated", op.mnemonic()))
}

/// Writes 0 to the `tfe` VGPR after `n` data registers at `dst` (MUBUF,
/// MTBUF and FLAT loads).
#[inline]
pub(super) fn tfe_zero(w: &mut Wave, op: &Op, dst: usize, n: usize, exec: u64) {
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
    let ad = Addressing::of(w, op, env.version);
    let align = ad.align(env.version, size);
    let exec = w.exec();
    for lane in 0..WAVE_SIZE {
        if active(exec, lane) {
            let mut b = [0u8; 4];
            if let Some(a) = ad.at(lane, 0) {
                let a = a & !(align - 1);
                env.log_mem(lane, a, size, 0);
                env.mem
                    .read(a, &mut b[..size as usize])
                    .map_err(|m| Fault::memory(m, lane))?;
            }
            if let Some(i) = lds_index(env, lds_address(w, op, lane), 4, lane) {
                lds_store(env.lds, i, 4, u64::from(u32::from_le_bytes(b)));
            }
        }
    }
    Ok(Step::Next)
}

/// The addresses of the bytes `extra` past each active lane's AOFFSET,
/// aligned down to `align`, and the mask of the lanes in range.
#[inline]
fn lane_addresses(ad: &Addressing, exec: u64, extra: u32, align: u64) -> ([u64; WAVE_SIZE], u64) {
    let mut addrs = [0u64; WAVE_SIZE];
    let mut mask = 0u64;
    for (lane, a) in addrs.iter_mut().enumerate() {
        if active(exec, lane) {
            if let Some(x) = ad.at(lane, extra) {
                *a = x & !(align - 1);
                mask |= 1 << lane;
            }
        }
    }
    (addrs, mask)
}

/// `buffer_load_dword`, `_dwordx2/x3/x4`: one gather per dword.
fn load_dwords<const N: usize>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    if op.instr.mods.mem.flags.contains(MemFlags::LDS) {
        if N == 1 {
            return load_to_lds(w, op, env, 4);
        }
        return Err(unsupported_flag(op, "lds"));
    }
    let ad = Addressing::of(w, op, env.version);
    let align = ad.align(env.version, 4);
    let exec = w.exec();
    let dst = usize::from(op.reg(0));
    for k in 0..N {
        let (addrs, mask) = lane_addresses(&ad, exec, 4 * k as u32, align);
        // Out-of-range lanes read 0.
        let mut out = [0u32; WAVE_SIZE];
        env.log_lanes(&addrs, mask, 4, 4 * k as u32);
        env.mem
            .gather_u32(&addrs, mask, &mut out)
            .map_err(|(lane, m)| Fault::memory(m, lane))?;
        write_vgpr(w, dst + k, &out, exec);
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
    let ad = Addressing::of(w, op, env.version);
    let align = ad.align(env.version, size);
    let exec = w.exec();
    let dst = usize::from(op.reg(0));
    let old = w.vgpr[dst];
    let mut out = [0u32; WAVE_SIZE];
    for lane in 0..WAVE_SIZE {
        if active(exec, lane) {
            let mut b = [0u8; 4];
            if let Some(a) = ad.at(lane, 0) {
                let a = a & !(align - 1);
                env.log_mem(lane, a, size, 0);
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

/// `buffer_store_dword`, `_dwordx2/x3/x4`: one scatter per dword
/// (out-of-range dwords are dropped).
fn store_dwords<const N: usize>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    if op.instr.mods.mem.flags.contains(MemFlags::LDS) {
        return Err(unsupported_flag(op, "lds"));
    }
    let ad = Addressing::of(w, op, env.version);
    let align = ad.align(env.version, 4);
    let exec = w.exec();
    let data = usize::from(op.reg(0));
    for k in 0..N {
        let (addrs, mask) = lane_addresses(&ad, exec, 4 * k as u32, align);
        env.log_lanes(&addrs, mask, 4, 4 * k as u32);
        env.mem
            .scatter_u32(&addrs, mask, &w.vgpr[data + k])
            .map_err(|(lane, m)| Fault::memory(m, lane))?;
    }
    Ok(Step::Next)
}

/// Byte and short stores, with the d16_hi forms.
fn store_narrow<const MODE: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    if op.instr.mods.mem.flags.contains(MemFlags::LDS) {
        return Err(unsupported_flag(op, "lds"));
    }
    let size = store_size(MODE);
    let ad = Addressing::of(w, op, env.version);
    let align = ad.align(env.version, size);
    let exec = w.exec();
    let data = w.vgpr[usize::from(op.reg(0))];
    for (lane, &d) in data.iter().enumerate() {
        if active(exec, lane) {
            if let Some(a) = ad.at(lane, 0) {
                let a = a & !(align - 1);
                let b = store_value(MODE, d).to_le_bytes();
                // The `_d16_hi` forms store the register's high half.
                let hi = matches!(MODE, narrow_store::B8_HI | narrow_store::B16_HI);
                env.log_mem(lane, a, size, if hi { 2 } else { 0 });
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
    let ad = Addressing::new(w, op, env.version, vaddr, op.src(0), op.src(1));
    let exec = w.exec();
    for lane in 0..WAVE_SIZE {
        if active(exec, lane) {
            let v = lds_index(env, lds_address(w, op, lane), 4, lane)
                .map_or(0, |i| lds_load(env.lds, i, 4) as u32);
            if let Some(a) = ad.at(lane, 0) {
                env.log_mem(lane, a & !3, 4, 0);
                env.mem
                    .write_u32(a & !3, v)
                    .map_err(|m| Fault::memory(m, lane))?;
            }
        }
    }
    Ok(Step::Next)
}

/// The buffer atomics (`OP` from `lds::atomic_op`).
fn buffer_atomic<const OP: u8, const W64: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Step, Fault> {
    let f = op.instr.mods.mem.flags;
    if f.contains(MemFlags::LDS) {
        return Err(unsupported_flag(op, "lds"));
    }
    let ad = Addressing::of(w, op, env.version);
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
            return Err(Fault::misaligned(op, addr, lane));
        }
        env.log_mem(lane, addr, 4 * words as u32, 0);
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
    // The `tfe` flag follows all VDATA registers (data and compare value).
    let regs = words * if uses_b(OP) { 2 } else { 1 };
    tfe_zero(w, op, data, regs, exec);
    Ok(Step::Next)
}

/// The d16 kind of a format access (the const parameter of the format
/// handlers).
mod d16 {
    /// 32-bit register components.
    pub const NONE: u8 = 0;
    /// 16-bit components: one per register (GCN 1.2) or two (GCN 1.4).
    pub const LO: u8 = 1;
    /// GCN 1.4 `_d16_hi_x`: the high half of one register.
    pub const HI: u8 = 2;
}

/// What a format access converts with: the codec, the DST_SEL as indices
/// into `[X, Y, Z, W, 0, one]`, and how the element is read: `units`
/// pieces of `unit_bytes` (4-byte pieces for elements of 4 bytes and more,
/// so wide elements are range-checked per dword like the untyped loads),
/// component `i` lying in piece `comp_unit[i]`.
struct FormatAccess {
    codec: Codec,
    sel: [usize; 4],
    units: usize,
    unit_bytes: u32,
    comp_unit: [usize; 4],
}

impl FormatAccess {
    /// The format and DST_SEL per the seed's table: `typed` (MTBUF) takes
    /// them from the instruction with identity selects, the MUBUF
    /// `*_format_*` forms from the resource.
    fn new(
        op: &Op,
        res: &Resource,
        typed: bool,
        version: GcnVersion,
    ) -> Result<FormatAccess, Fault> {
        let unified = |code: u8, whose: &str| {
            gfx10_format(code).ok_or_else(|| {
                format_fault(
                    op,
                    &format!(
                        "{whose} FORMAT code {code} is not a GCN 1.5 buffer format (INVALID or \
                         reserved: the table has codes 1-77)"
                    ),
                )
            })
        };
        let (data, num, sel) = match (typed, &res.desc) {
            (true, Desc::Gfx10(_)) => {
                let (d, n) = unified(op.instr.mods.mem.dfmt, "the instruction's")?;
                (d, n, DstSel::IDENTITY)
            }
            (true, Desc::Gcn(_)) => {
                let m = &op.instr.mods.mem;
                (
                    DataFormat::from_code(m.dfmt).unwrap_or(DataFormat::Invalid),
                    NumFormat::from_code(m.nfmt).unwrap_or(NumFormat::Reserved8),
                    DstSel::IDENTITY,
                )
            }
            (false, Desc::Gfx10(d)) => {
                let (data, num) = unified(d.format_code(), "the resource's")?;
                (data, num, d.dst_sel())
            }
            (false, Desc::Gcn(d)) => (d.data_format(), d.num_format(), d.dst_sel()),
        };
        if num == NumFormat::SnormOgl && version >= GcnVersion::Gcn1_2 {
            // AMD's VI and Vega register specifications (and LLVM) list
            // number format 6 as reserved from GCN 1.2 on.
            return Err(format_fault(
                op,
                "number format 6 (SNORM_OGL) is reserved on GCN 1.2 and later",
            ));
        }
        let codec = Codec::new(data, num).map_err(|e| format_fault(op, &e.to_string()))?;
        let mut idx = [0usize; 4];
        for (i, s) in idx.iter_mut().zip(sel) {
            *i = match s {
                DstSel::X => 0,
                DstSel::Y => 1,
                DstSel::Z => 2,
                DstSel::W => 3,
                DstSel::Zero => 4,
                DstSel::One => 5,
                DstSel::Reserved2 | DstSel::Reserved3 => {
                    return Err(format_fault(
                        op,
                        &format!("the resource's DST_SEL code {} is not defined", s.code()),
                    ))
                }
            };
        }
        let bytes = codec.bytes();
        let unit_bytes = bytes.min(4);
        let layout = codec.layout();
        let comp_unit = std::array::from_fn(|i| {
            if i < codec.components() {
                layout.shift(i) as usize / 32
            } else {
                0
            }
        });
        Ok(FormatAccess {
            codec,
            sel: idx,
            units: (bytes / unit_bytes) as usize,
            unit_bytes,
            comp_unit,
        })
    }
}

#[cold]
fn format_fault(op: &Op, why: &str) -> Fault {
    Fault::unsupported(format!("{}: {why}", op.mnemonic()))
}

/// Whether 16-bit data is packed two to a register (GCN 1.4 and later)
/// rather than one per register (GCN 1.2).
#[inline]
fn packed_d16(version: GcnVersion) -> bool {
    version.is_gcn14_or_later()
}

/// VGPRs the data of an `n`-component access takes.
#[inline]
fn data_registers(n: usize, d16_kind: u8, version: GcnVersion) -> usize {
    match d16_kind {
        d16::NONE => n,
        d16::HI => 1,
        _ if packed_d16(version) => n.div_ceil(2),
        _ => n,
    }
}

/// Reads the element pieces of every active lane: `pieces[u][lane]` and the
/// in-range lane mask of each piece (out-of-range pieces read 0).
fn read_elements(
    ad: &Addressing,
    fa: &FormatAccess,
    exec: u64,
    env: &Env<'_>,
) -> Result<([[u32; WAVE_SIZE]; 4], [u64; 4]), Fault> {
    let mut pieces = [[0u32; WAVE_SIZE]; 4];
    let mut masks = [0u64; 4];
    let ub = fa.unit_bytes;
    for u in 0..fa.units {
        let (addrs, mask) = lane_addresses(ad, exec, ub * u as u32, u64::from(ub));
        masks[u] = mask;
        env.log_lanes(&addrs, mask, ub, ub * u as u32);
        if ub == 4 {
            env.mem
                .gather_u32(&addrs, mask, &mut pieces[u])
                .map_err(|(lane, m)| Fault::memory(m, lane))?;
        } else {
            for lane in 0..WAVE_SIZE {
                if mask >> lane & 1 != 0 {
                    let mut b = [0u8; 4];
                    env.mem
                        .read(addrs[lane], &mut b[..ub as usize])
                        .map_err(|m| Fault::memory(m, lane))?;
                    pieces[u][lane] = u32::from_le_bytes(b);
                }
            }
        }
    }
    Ok((pieces, masks))
}

/// `buffer_load_format_*`, `tbuffer_load_format_*` and their d16 forms:
/// `N` components, the format from the instruction (`TYPED`) or the
/// resource, 16-bit results per `D16`.
fn load_format<const N: usize, const TYPED: bool, const D16: u8>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Step, Fault> {
    let lds = op.instr.mods.mem.flags.contains(MemFlags::LDS);
    if lds && (N != 1 || TYPED || D16 != d16::NONE) {
        return Err(unsupported_flag(op, "lds"));
    }
    let ad = Addressing::of(w, op, env.version);
    let fa = FormatAccess::new(op, &ad.res, TYPED, env.version)?;
    let exec = w.exec();
    let (pieces, masks) = read_elements(&ad, &fa, exec, env)?;
    // Component-major: each component's bits for all lanes, converted in
    // one loop (the number format matched once), out-of-range lanes 0.
    let num = fa.codec.num;
    let layout = fa.codec.layout();
    let mut comps = [[0u32; WAVE_SIZE]; 6];
    comps[3] = [num.one(); WAVE_SIZE];
    comps[5] = [num.one(); WAVE_SIZE];
    for (i, c) in comps.iter_mut().enumerate().take(fa.codec.components()) {
        let u = fa.comp_unit[i];
        let shift = layout.shift(i) % 32;
        let raw: Lanes = pieces[u].map(|p| p >> shift);
        decode_lanes(num, layout.bits[i], &raw, c);
        let in_range = masks[u];
        for (lane, x) in c.iter_mut().enumerate() {
            if in_range >> lane & 1 == 0 {
                *x = 0;
            }
        }
    }
    let out: [Lanes; N] = std::array::from_fn(|k| comps[fa.sel[k]]);
    if lds {
        for (lane, &x) in out[0].iter().enumerate() {
            if active(exec, lane) {
                if let Some(i) = lds_index(env, lds_address(w, op, lane), 4, lane) {
                    lds_store(env.lds, i, 4, u64::from(x));
                }
            }
        }
        return Ok(Step::Next);
    }
    let dst = usize::from(op.reg(0));
    let regs = data_registers(N, D16, env.version);
    match D16 {
        d16::NONE => {
            for (k, o) in out.iter().enumerate() {
                write_vgpr(w, dst + k, o, exec);
            }
        }
        d16::HI => {
            let old = w.vgpr[dst];
            let v: Lanes =
                std::array::from_fn(|l| old[l] & 0xffff | u32::from(to_d16(num, out[0][l])) << 16);
            write_vgpr(w, dst, &v, exec);
        }
        _ if packed_d16(env.version) => {
            // Two halves per register; an odd last component keeps the
            // register's high half (GCN 1.4 preserves the unused bits).
            for r in 0..regs {
                let old = w.vgpr[dst + r];
                let v: Lanes = std::array::from_fn(|l| {
                    let lo = u32::from(to_d16(num, out[2 * r][l]));
                    let hi = if 2 * r + 1 < N {
                        u32::from(to_d16(num, out[2 * r + 1][l])) << 16
                    } else {
                        old[l] & 0xffff_0000
                    };
                    lo | hi
                });
                write_vgpr(w, dst + r, &v, exec);
            }
        }
        _ => {
            // GCN 1.2: one component per register, in the low half.
            for (k, o) in out.iter().enumerate() {
                let v: Lanes = o.map(|x| u32::from(to_d16(num, x)));
                write_vgpr(w, dst + k, &v, exec);
            }
        }
    }
    tfe_zero(w, op, dst, regs, exec);
    Ok(Step::Next)
}

/// `buffer_store_format_*`, `tbuffer_store_format_*` and their d16 forms.
/// Components the instruction does not supply are 0 (Y, Z) and one (W);
/// memory component `i` takes the register component DST_SEL_`i` selects
/// (identity for MTBUF).
fn store_format<const N: usize, const TYPED: bool, const D16: u8>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Step, Fault> {
    if op.instr.mods.mem.flags.contains(MemFlags::LDS) {
        return Err(unsupported_flag(op, "lds"));
    }
    let ad = Addressing::of(w, op, env.version);
    let fa = FormatAccess::new(op, &ad.res, TYPED, env.version)?;
    let exec = w.exec();
    let data = usize::from(op.reg(0));
    let num = fa.codec.num;
    let packed = packed_d16(env.version);
    // Component-major: the register components (0 and one for those not
    // supplied, then `[0, one]` for DST_SEL's constants), each memory
    // component encoded for all lanes in one loop and placed in its piece.
    let mut comps = [[0u32; WAVE_SIZE]; 6];
    comps[3] = [num.one(); WAVE_SIZE];
    comps[5] = [num.one(); WAVE_SIZE];
    for (k, c) in comps.iter_mut().enumerate().take(N) {
        *c = match D16 {
            d16::NONE => w.vgpr[data + k],
            d16::HI => w.vgpr[data].map(|x| from_d16(num, (x >> 16) as u16)),
            _ if packed => {
                w.vgpr[data + k / 2].map(|x| from_d16(num, (x >> (16 * (k % 2))) as u16))
            }
            _ => w.vgpr[data + k].map(|x| from_d16(num, x as u16)),
        };
    }
    let layout = fa.codec.layout();
    let mut pieces = [[0u32; WAVE_SIZE]; 4];
    let mut enc = [0u32; WAVE_SIZE];
    for i in 0..fa.codec.components() {
        encode_lanes(num, layout.bits[i], &comps[fa.sel[i]], &mut enc);
        let shift = layout.shift(i) % 32;
        for (p, &e) in pieces[fa.comp_unit[i]].iter_mut().zip(&enc) {
            *p |= e << shift;
        }
    }
    let ub = fa.unit_bytes;
    for (u, p) in pieces.iter().enumerate().take(fa.units) {
        let (addrs, mask) = lane_addresses(&ad, exec, ub * u as u32, u64::from(ub));
        env.log_lanes(&addrs, mask, ub, ub * u as u32);
        if ub == 4 {
            env.mem
                .scatter_u32(&addrs, mask, p)
                .map_err(|(lane, m)| Fault::memory(m, lane))?;
        } else {
            for lane in 0..WAVE_SIZE {
                if mask >> lane & 1 != 0 {
                    env.mem
                        .write(addrs[lane], &p[lane].to_le_bytes()[..ub as usize])
                        .map_err(|m| Fault::memory(m, lane))?;
                }
            }
        }
    }
    Ok(Step::Next)
}

/// The handler of a format row: load or store, 16-bit halves (`d16`,
/// `hi`) and the component count (its data registers) from the row.
fn format_handler(row: &InstrRow, typed: bool) -> Option<Handler> {
    macro_rules! pick {
        ($f:ident, $d16:expr, $n:expr) => {
            match ($n, typed) {
                (1, false) => h($f::<1, false, { $d16 }>),
                (2, false) => h($f::<2, false, { $d16 }>),
                (3, false) => h($f::<3, false, { $d16 }>),
                (4, false) => h($f::<4, false, { $d16 }>),
                (1, true) => h($f::<1, true, { $d16 }>),
                (2, true) => h($f::<2, true, { $d16 }>),
                (3, true) => h($f::<3, true, { $d16 }>),
                (4, true) => h($f::<4, true, { $d16 }>),
                _ => None,
            }
        };
    }
    let store = row.has(flags::STORE);
    let kind = match (row.has(flags::D16), row.has(flags::HI)) {
        (false, _) => d16::NONE,
        (true, false) => d16::LO,
        (true, true) => d16::HI,
    };
    let n = row.operand(gcn_asm::isa::Field::Vdata)?.registers();
    match (store, kind) {
        (false, d16::NONE) => pick!(load_format, d16::NONE, n),
        (false, d16::LO) => pick!(load_format, d16::LO, n),
        (false, _) => pick!(load_format, d16::HI, n),
        (true, d16::NONE) => pick!(store_format, d16::NONE, n),
        (true, d16::LO) => pick!(store_format, d16::LO, n),
        (true, _) => pick!(store_format, d16::HI, n),
    }
}

/// `buffer_wbinvl1*`, `buffer_gl0_inv`, `buffer_gl1_inv`: nothing to
/// invalidate.
fn nop(_: &mut Wave, _: &Op, _: &mut Env<'_>) -> Result<Step, Fault> {
    Ok(Step::Next)
}

/// The handler of a MUBUF or MTBUF row (the typed forms have none yet).
pub fn handler(row: &InstrRow, _version: GcnVersion) -> Option<Handler> {
    use narrow::*;
    use narrow_store::*;
    if row.has(flags::FORMAT) {
        return format_handler(row, row.encoding == Encoding::Mtbuf);
    }
    if row.encoding != Encoding::Mubuf {
        return None;
    }
    if let Some(atomic) = row.atomic {
        return if atomic.wide {
            dispatch_atomic!(atomic.op as u8, buffer_atomic, true)
        } else {
            dispatch_atomic!(atomic.op as u8, buffer_atomic, false)
        };
    }
    match row.op {
        M::BufferLoadUbyte => h(load_narrow::<U8>),
        M::BufferLoadSbyte => h(load_narrow::<S8>),
        M::BufferLoadUshort => h(load_narrow::<U16>),
        M::BufferLoadSshort => h(load_narrow::<S16>),
        M::BufferLoadUbyteD16 => h(load_narrow::<U8_D16>),
        M::BufferLoadUbyteD16Hi => h(load_narrow::<U8_D16_HI>),
        M::BufferLoadSbyteD16 => h(load_narrow::<S8_D16>),
        M::BufferLoadSbyteD16Hi => h(load_narrow::<S8_D16_HI>),
        M::BufferLoadShortD16 => h(load_narrow::<U16_D16>),
        M::BufferLoadShortD16Hi => h(load_narrow::<U16_D16_HI>),
        M::BufferLoadDword => h(load_dwords::<1>),
        M::BufferLoadDwordx2 => h(load_dwords::<2>),
        M::BufferLoadDwordx3 => h(load_dwords::<3>),
        M::BufferLoadDwordx4 => h(load_dwords::<4>),
        M::BufferStoreByte => h(store_narrow::<B8>),
        M::BufferStoreShort => h(store_narrow::<B16>),
        M::BufferStoreByteD16Hi => h(store_narrow::<B8_HI>),
        M::BufferStoreShortD16Hi => h(store_narrow::<B16_HI>),
        M::BufferStoreDword => h(store_dwords::<1>),
        M::BufferStoreDwordx2 => h(store_dwords::<2>),
        M::BufferStoreDwordx3 => h(store_dwords::<3>),
        M::BufferStoreDwordx4 => h(store_dwords::<4>),
        M::BufferStoreLdsDword => h(store_lds_dword),
        M::BufferWbinvl1
        | M::BufferWbinvl1Sc
        | M::BufferWbinvl1Vol
        | M::BufferGl0Inv
        | M::BufferGl1Inv => h(nop),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
