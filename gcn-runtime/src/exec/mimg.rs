//! Image memory: the MIMG instructions, addressed through an image resource
//! (T#) and, for sampling, a sampler resource (S#).
//!
//! One set of semantics for every GCN version; GCN 1.5 / 1.5.1 and RDNA 2
//! (gfx10) differ only where the hardware does (the section below).
//!
//! Semantics follow `GcnInstrsMimg.md` and the image seeds
//! (`GcnMemHandling.md`: resource fields, formats, addressing). The layout
//! is the linear one of [`crate::image`]; any other tiling index, the MSAA
//! types, FMASK and `32_AS_*` formats and `a16` stop with a "not supported"
//! fault naming the thing.
//!
//! # Addresses
//!
//! VADDR holds, in this order (seed): `{offset} {bias} {z-compare}
//! {derivatives} {body} {clamp} {lod}`. The body is X (1-D), X and the
//! slice (1-D array), X, Y (2-D), X, Y and the slice (2-D array), X, Y, Z
//! (3-D), X, Y and the face (cube) — by the T#'s type. Loads, stores,
//! atomics and `image_get_resinfo` take unsigned integers (`_mip` adds the
//! mip level, relative to BASE_LEVEL, after the body); sample and gather4
//! take floats.
//!
//! # Loads, stores, atomics (integer coordinates)
//!
//! - Slices are relative to BASE_ARRAY (chosen: the slice of a view); a
//!   coordinate past the level's size, a slice past LAST_ARRAY or a level
//!   past LAST_LEVEL reads 0 in every component and is not written (chosen:
//!   the hardware's out-of-bounds rule for buffers).
//! - `image_load*` converts by the T#'s formats (shared conversion
//!   module), applies DST_SEL and writes the DMASK-enabled components to
//!   consecutive VGPRs. `_pck` writes each component's raw bits
//!   zero-extended, `_pck_sgn` sign-extended (plain layouts only).
//! - `image_store*` takes the DMASK-enabled components from consecutive
//!   VGPRs; the bits of the other components keep their value in memory;
//!   DST_SEL is not applied (the seed's table: stores convert only). `_pck`
//!   stores raw bits. The format must be writable (seed's ImgW columns).
//! - `d16` (GCN 1.2+): a load converts each component to 16 bits
//!   (`format::to_d16`), a store widens 16 bits (`format::from_d16`); on
//!   GCN 1.2 each component has its own VGPR (low half), on GCN 1.4 two
//!   components share one (low half first).
//! - `tfe`: one more VGPR after the data receives 0 (no fault: every texel
//!   the emulator has is resident); `lwe` alone adds no register (as the
//!   assembler counts) and never warns. `glc` on loads, and `slc`, are
//!   cache hints with nothing to do here; `da` is accepted as written: the
//!   T#'s type decides the address layout.
//! - Atomics work on the 32-bit single-component formats (DATA_FORMAT 32)
//!   as 32-bit operations and on 32_32 as 64-bit ones; VDATA holds the
//!   source (and, for `cmpswap`, the compare value after it); with `glc`
//!   the old value is written back to VDATA. Other formats are a "not
//!   supported" fault.
//! - `image_get_resinfo`: VADDR holds the mip level (relative to
//!   BASE_LEVEL); X = width, Y = height (1-D array: slices), Z = depth
//!   (3-D) or slices (2-D array) or cubes (cube: slices / 6), W = number of
//!   levels (LAST_LEVEL - BASE_LEVEL + 1), as unsigned integers, DMASK
//!   selecting; a level past LAST_LEVEL gives 0s in X-Z.
//!
//! # Sampling
//!
//! - Coordinates are normalised (texel = coordinate * size of the level)
//!   unless `unorm` or the sampler's FORCE_UNNORMALIZED is set (then they
//!   are texels of the base level, and the LOD is 0: the seed's "sampling of
//!   the mipmaps requires normalised coordinates"). `_o` adds the 6-bit
//!   signed offsets of its dword (bits 0-5 X, 8-13 Y, 16-21 Z) in texels.
//! - Array slices: `round_ne(slice)` clamped to `0 ..= LAST_ARRAY -
//!   BASE_ARRAY`, plus BASE_ARRAY. Cube: the face coordinate F selects cube
//!   `floor(F / 8)` and face `round_ne(F) mod 8` clamped to 0-5 (the
//!   `v_cubeid` numbering, 8 per cube as the hardware's cube arrays use),
//!   slice `6 * cube + face`; X and Y are normalised face coordinates.
//!   Crossing a face edge clamps to the face (chosen; DISABLE_CUBE_WRAP has
//!   no further effect).
//! - LOD: `_l` gives it, `_lz` is 0; otherwise it is computed from
//!   derivatives in texels of the base level: `_d`/`_cd` take them from
//!   VADDR; the others take them from the 2x2 lane quad like the hardware
//!   (lanes 4q .. 4q+3 are top-left, top-right, bottom-left, bottom-right;
//!   d/dx = top-right - top-left, d/dy = bottom-left - top-left, the same
//!   for all four lanes — coarse derivatives; inactive lanes of the quad
//!   still supply their coordinates, as helper lanes would). `LOD = log2(max(|d/dx|,
//!   |d/dy|))` (Euclidean lengths), plus the sampler's LOD_BIAS and, for
//!   `_b`, the VADDR bias. The LOD is then clamped to `[max(sampler
//!   MIN_LOD, T# MIN_LOD), sampler MAX_LOD]` and, for `_cl`, to at most the
//!   VADDR clamp.
//! - Filters: LOD <= 0 uses XY_MAG_FILTER, else XY_MIN_FILTER. Point takes
//!   the texel under the coordinate; bilinear the four around `t - 0.5`,
//!   with weights from the fraction truncated to 1/256 (seed: "threshold of
//!   coordinates ... 1/256 of distance between pixels"), blended in f32.
//!   Z_FILTER linear blends two slices of a 3-D image the same way (None
//!   and Point: the nearest slice). MIP_FILTER: None → BASE_LEVEL, Point →
//!   the level `round(LOD)`, Linear → the two levels around the LOD,
//!   blended by its fraction (truncated to 1/256); levels clamp to
//!   BASE_LEVEL ..= LAST_LEVEL. FILTER_MODE min/max take the per-component
//!   minimum/maximum of the texels with a non-zero weight. Integer formats
//!   (UINT/SINT) are never blended: they take the nearest texel.
//! - Clamp modes per axis (seed codes): wrap, mirror, clamp to the last
//!   texel, mirror once then clamp, and the half-border / border forms,
//!   where texels outside the image are the border colour (half border
//!   first clamps the coordinate to `[0, size]` in texels, so bilinear
//!   blends the edge texel and the border 50/50 at most). Border colours:
//!   transparent black, opaque black, opaque white (1.0 or integer 1); the
//!   border colour table type is a "not supported" fault. The border colour
//!   is not swizzled by DST_SEL; texels are, before filtering.
//! - `_c`: each texel's X is compared with the VADDR reference (`reference
//!   OP texel`, the sampler's DEPTH_COMPARE_FUNC) giving 1.0 or 0.0, which
//!   is then filtered; the result goes to all four components. Images with
//!   UINT/SINT number formats are a "not supported" fault (the CLRX text:
//!   "working only with floating point images").
//! - `image_gather4*`: the four texels of the bilinear footprint at the
//!   selected level (point mip selection), component = the lowest DMASK bit;
//!   `VDATA[0] = (X, Y+1)`, `[1] = (X+1, Y+1)`, `[2] = (X+1, Y)`, `[3] = (X, Y)`
//!   (`GcnInstrsMimg.md`); with `_c` each is the compare result.
//! - `image_get_lod`: X = the clamped LOD, Y = the unclamped one.
//! - Other sampler fields: FORCE_DEGAMMA puts R, G and B of float formats
//!   (not SRGB, which already does) through the sRGB curve before
//!   filtering. TRUNC_COORD changes nothing here (point sampling already
//!   takes the texel whose cell holds the coordinate). MC_COORD_TRUNC and a
//!   non-zero LOD_BIAS_SEC are "not supported" faults (the documents give no
//!   rule). DISABLE_CUBE_WRAP = 0 asks for seamless cube filtering, which
//!   the emulator does not do: a bilinear footprint that crosses a face edge
//!   is a "not supported" fault (with DISABLE_CUBE_WRAP = 1 the face's clamp
//!   modes apply). PERF_MIP, PERF_Z (and the T#'s PERF_MOD) let hardware
//!   trade blend precision for speed, and MIP_POINT_PRECLAMP,
//!   DISABLE_LSB_CEIL and FILTER_PREC_FIX tune rounding: the emulator
//!   computes at full precision whatever they say. The T#'s MIN_LOD_WARN
//!   never triggers (`lwe` returns nothing); INTERLACED and POW2PAD T#s are
//!   "not supported" faults.
//!
//! The filtering arithmetic is IEEE f32 where the documents say nothing
//! more (weights and blends); the 1/256 steps are the seed's.
//!
//! # GCN 1.5 / 1.5.1 and RDNA 2
//!
//! - The T# is the gfx10 one ([`crate::descriptor::image10`], AMD's
//!   `SQ_IMG_RSRC_WORD0..7`), read from 8 SGPRs (4 with `r128`), and the
//!   memory layout the gfx10 linear one ([`crate::image`]: SW_MODE 0 as
//!   addrlib lays it out). Other swizzle modes, DCC (COMPRESSION_ENABLE),
//!   a non-zero ARRAY_PITCH, LAST_LEVEL past MAX_MIP and FORMAT codes
//!   outside the table shared with buffers (1-77) are "not supported"
//!   faults naming the field and value.
//! - Arrays: the view is BASE_ARRAY ..= DEPTH (gfx10's DEPTH of an array is
//!   its last slice); `image_get_resinfo` gives DEPTH + 1 slices.
//! - The address layout is the instruction's `dim` (1d: X; 2d: X Y; 3d:
//!   X Y Z; cube: X Y face; 1d_array: X slice; 2d_array: X Y slice; the
//!   derivatives of `_d` follow the same dimensions), in the order of the
//!   first section. `dim` must match the T#'s TYPE; loads, stores, atomics
//!   and `image_get_resinfo` also take `cube` on a 2-D array T# and
//!   `2d_array` on a cube T# (the same slices: Mesa's storage cube images).
//!   Any other pair, and the MSAA dims, are "not supported" faults.
//! - NSA: the addresses are VADDR and then the instruction's NSA list, one
//!   VGPR each.
//! - `d16` packs two components per VGPR as on GCN 1.4; `dlc` is a cache
//!   hint. `a16` (word 1 bit 30 on gfx10) is not decoded: such words are
//!   not instructions to the decoder yet.
//! - The S# has the GCN layout ([`crate::descriptor::sampler`]); gfx10's
//!   SKIP_DEGAMMA and DERIV_ADJUST_EN change results in ways no document
//!   here gives, so either set is a "not supported" fault, as is a T#
//!   BC_SWIZZLE other than XYZW with the opaque-black border colour (the
//!   only one a swizzle changes).
//! - `image_msaa_load` and the BVH instructions stay gaps
//!   ([`super::gaps::gap_reason`]).

use gcn_asm::decode::MemFlags;
use gcn_asm::isa::Mnemonic as M;
use gcn_asm::isa::{flags as row_flags, Encoding, InstrRow, SampleVariant};
use gcn_asm::GcnVersion;

use super::atomic::{atomic32, atomic64, dispatch_atomic};
use super::{h, Env, Fault, FaultKind, Handler, MemAccess, Op, Src, Step, Wave, WAVE_SIZE};
use crate::descriptor::{
    BorderColor, ClampMode, DepthCompare, FilterMode, Gfx10ImageResource, ImageResource, ImageType,
    MipFilter, SamplerResource, XyFilter,
};
use crate::format::image::srgb_to_linear;
use crate::format::{apply_dst_sel, from_d16, to_d16, DataFormat, NumFormat};
use crate::image::Surface;
use crate::memory::Allocation;

#[cold]
fn unsupported(op: &Op, what: impl std::fmt::Display) -> Fault {
    Fault::unsupported(format!("{}: {what}", op.mnemonic()))
}

fn sgpr_words<const N: usize>(w: &Wave, src: Src) -> [u32; N] {
    let r = match src {
        Src::Sgpr(r) => usize::from(r),
        _ => 0,
    };
    std::array::from_fn(|i| w.sgpr[(r + i) & 127])
}

/// The surface of an instruction's T# (4 words with `r128`, except on
/// GCN 1.4 where that bit is `a16`): the GCN 1.0-1.4 T# and layout, or on
/// GCN 1.5 / RDNA 2 the gfx10 ones, checked against the `dim` field.
fn surface(w: &Wave, op: &Op, env: &Env<'_>) -> Result<Surface, Fault> {
    let f = op.instr.mods.mem.flags;
    if f.contains(MemFlags::A16) {
        return Err(unsupported(op, "a16 (16-bit addresses) is not supported"));
    }
    let words: [u32; 8] = sgpr_words(w, op.src(2));
    let r128 = f.contains(MemFlags::R128) && !env.version.is_gcn14();
    let words = if r128 { &words[..4] } else { &words[..] };
    if env.version.is_gcn15() {
        let t = Gfx10ImageResource::from_words(words)
            .map_err(|e| unsupported(op, format!("bad T#: {e}")))?;
        let s = Surface::gfx10(&t, env.version.is_rdna2()).map_err(|e| unsupported(op, e))?;
        check_dim(op, &s)?;
        return Ok(s);
    }
    let t =
        ImageResource::from_words(words).map_err(|e| unsupported(op, format!("bad T#: {e}")))?;
    Surface::new(&t).map_err(|e| unsupported(op, e))
}

/// The GCN 1.5 `dim` names, by code (LLVM's `SQ_RSRC_IMG_*` order).
const DIM_NAMES: [&str; 8] = [
    "1d",
    "2d",
    "3d",
    "cube",
    "1d_array",
    "2d_array",
    "2d_msaa",
    "2d_msaa_array",
];

/// GCN 1.5 / RDNA 2: the instruction's `dim` gives the address layout,
/// the T#'s TYPE the image; they must agree (a cube and a 2-D array store
/// their faces and slices alike, so loads, stores, atomics and
/// `image_get_resinfo` may address one as the other, as Mesa's storage
/// cube images do; sampling needs the exact type). Anything else, and
/// the MSAA dimensions, is a "not supported" fault naming both.
fn check_dim(op: &Op, s: &Surface) -> Result<(), Fault> {
    let dim = op.instr.mods.mem.dim & 7;
    let row = op.instr.row;
    let sampled = row.sample.is_some() || row.op == M::ImageGetLod;
    let ty = s.ty;
    let ok = match dim {
        0 => ty == ImageType::Image1d,
        1 => ty == ImageType::Image2d,
        2 => ty == ImageType::Image3d,
        3 => ty == ImageType::Cube || !sampled && ty == ImageType::Image2dArray,
        4 => ty == ImageType::Image1dArray,
        5 => ty == ImageType::Image2dArray || !sampled && ty == ImageType::Cube,
        _ => {
            return Err(unsupported(
                op,
                format!(
                    "dim:{} (multisampled images) is not supported",
                    DIM_NAMES[usize::from(dim)]
                ),
            ))
        }
    };
    if ok {
        Ok(())
    } else {
        Err(unsupported(
            op,
            format!(
                "dim:{} does not address a T# of type {} (not supported)",
                DIM_NAMES[usize::from(dim)],
                ty
            ),
        ))
    }
}

fn sampler(w: &Wave, op: &Op, env: &Env<'_>) -> Result<SamplerResource, Fault> {
    let words: [u32; 4] = sgpr_words(w, op.src(3));
    if env.version.is_gcn15() {
        // The gfx10 S# is the GCN one in every field read here (module
        // docs); two of its new bits change results the emulator does not
        // model.
        if words[0] >> 31 != 0 {
            return Err(unsupported(
                op,
                "the sampler's SKIP_DEGAMMA (gfx10) is not supported",
            ));
        }
        if words[2] >> 31 != 0 {
            return Err(unsupported(
                op,
                "the sampler's DERIV_ADJUST_EN (gfx10) is not supported",
            ));
        }
    }
    SamplerResource::from_words(&words).map_err(|e| unsupported(op, format!("bad S#: {e}")))
}

/// The VADDR registers of an instruction: `n` VGPRs, consecutive from
/// VADDR, or on GCN 1.5 / RDNA 2 with NSA VADDR and then the NSA list;
/// each checked against the allocation.
struct Addrs<'w> {
    vgpr: &'w [[u32; WAVE_SIZE]],
    regs: [u16; 16],
}

impl Addrs<'_> {
    /// Address `i` of `lane`.
    #[inline]
    fn at(&self, i: usize, lane: usize) -> u32 {
        self.vgpr[usize::from(self.regs[i & 15])][lane]
    }
}

fn vaddr<'w>(w: &'w Wave, op: &Op, n: usize) -> Result<Addrs<'w>, Fault> {
    let first = usize::from(op.reg(1));
    let mem = &op.instr.mods.mem;
    let nsa = mem.flags.contains(MemFlags::NSA);
    if n > 16 || nsa && n > mem.nsa.len() + 1 {
        return Err(unsupported(op, format!("{n} address registers")));
    }
    let mut regs = [0u16; 16];
    for (i, r) in regs.iter_mut().enumerate().take(n) {
        let reg = if nsa && i > 0 {
            usize::from(mem.nsa[i - 1])
        } else {
            first + i
        };
        check_vgprs(w, reg, 1)?;
        *r = reg as u16;
    }
    Ok(Addrs {
        vgpr: &w.vgpr,
        regs,
    })
}

fn check_vgprs(w: &Wave, r: usize, n: usize) -> Result<(), Fault> {
    if r + n > usize::from(w.vgpr_limit) || r + n > w.vgpr.len() {
        return Err(Fault::new(FaultKind::Register(format!(
            "the instruction uses v{} but the kernel allocates {} VGPRs",
            r + n - 1,
            w.vgpr_limit
        ))));
    }
    Ok(())
}

/// Number of body coordinates of an image type (with slice/face).
fn body_len(ty: ImageType) -> usize {
    match ty {
        ImageType::Image1d => 1,
        ImageType::Image2d | ImageType::Image1dArray => 2,
        _ => 3,
    }
}

/// The data registers of an instruction's components: how many VGPRs
/// `n` components take, with `d16` packing on GCN 1.4.
fn data_regs(op: &Op, env: &Env<'_>, n: usize) -> usize {
    if op.instr.mods.mem.flags.contains(MemFlags::D16) && env.version.is_gcn14_or_later() {
        n.div_ceil(2)
    } else {
        n
    }
}

/// Writes `values[lane][c]` of the DMASK-enabled components (`comps`
/// of them, already selected) to VDATA, with d16 and tfe.
fn write_result(
    w: &mut Wave,
    op: &Op,
    env: &Env<'_>,
    values: &[[u32; 4]; WAVE_SIZE],
    comps: usize,
    num: NumFormat,
) -> Result<(), Fault> {
    let f = op.instr.mods.mem.flags;
    let d16 = f.contains(MemFlags::D16);
    let packed = d16 && env.version.is_gcn14_or_later();
    let regs = data_regs(op, env, comps);
    // The status dword exists with `tfe` (the assembler and decoder count
    // no register for `lwe` alone).
    let status = f.contains(MemFlags::TFE);
    let dst = usize::from(op.reg(0));
    check_vgprs(w, dst, regs + usize::from(status))?;
    let exec = w.exec();
    for (lane, v) in values.iter().enumerate() {
        if exec >> lane & 1 == 0 {
            continue;
        }
        for r in 0..regs {
            w.vgpr[dst + r][lane] = if packed {
                let lo = u32::from(to_d16(num, v[2 * r]));
                let hi = if 2 * r + 1 < comps {
                    u32::from(to_d16(num, v[2 * r + 1]))
                } else {
                    0
                };
                lo | hi << 16
            } else if d16 {
                u32::from(to_d16(num, v[r]))
            } else {
                v[r]
            };
        }
        if status {
            w.vgpr[dst + regs][lane] = 0;
        }
    }
    Ok(())
}

/// Selects the DMASK-enabled components of a texel, in order.
#[inline]
fn select(dmask: u8, t: [u32; 4]) -> [u32; 4] {
    let mut out = [0; 4];
    let mut n = 0;
    for (c, &v) in t.iter().enumerate() {
        if dmask >> c & 1 != 0 {
            out[n] = v;
            n += 1;
        }
    }
    out
}

/// Where an integer-addressed texel lives: its level and coordinates, or
/// `None` when out of range.
#[derive(Clone, Copy)]
struct Texel {
    level: u32,
    level_offset: u64,
    x: u32,
    y: u32,
    z: u32,
}

/// The texel of lane `lane` for integer addressing.
fn int_texel(s: &Surface, a: &Addrs<'_>, lane: usize, mip: bool) -> Option<Texel> {
    let n = body_len(s.ty);
    let c = |i: usize| a.at(i, lane);
    let level = s.levels.0.checked_add(if mip { c(n) } else { 0 })?;
    if level > s.levels.1 {
        return None;
    }
    let [w, h, d] = s.level_size(level);
    let (x, y, z) = match s.ty {
        ImageType::Image1d => (c(0), 0, 0),
        ImageType::Image1dArray => (c(0), 0, c(1)),
        ImageType::Image2d => (c(0), c(1), 0),
        _ => (c(0), c(1), c(2)),
    };
    let z = if s.ty == ImageType::Image3d {
        (z < d).then_some(z)?
    } else if s.ty.is_array() {
        let z = s.slices.0.checked_add(z)?;
        (z <= s.slices.1 && z < d).then_some(z)?
    } else {
        z
    };
    (x < w && y < h).then_some(Texel {
        level,
        level_offset: s.level_offset(level),
        x,
        y,
        z,
    })
}

/// Reads elements of one image for one instruction: when the image's
/// levels lie in one allocation (the usual case) the allocation is found
/// once and elements are read as dwords; otherwise each read goes through
/// the address space (and faults where it should).
struct Reader<'a> {
    fast: Option<(&'a Allocation, u64)>,
}

impl<'a> Reader<'a> {
    fn new(env: &'a Env<'_>, s: &Surface) -> Reader<'a> {
        let fast = env.mem.find(s.base, s.total_bytes(s.levels.1)).ok();
        Reader { fast }
    }

    /// The element of a texel and the texel's position in it.
    #[inline]
    fn element(
        &self,
        env: &Env<'_>,
        s: &Surface,
        t: &Texel,
        lane: usize,
    ) -> Result<([u8; 16], u32, u32), Fault> {
        let (addr, sx, sy) = s.element_address(t.level_offset, t.level, t.x, t.y, t.z);
        let n = s.element.bytes() as usize;
        let mut b = [0u8; 16];
        // Texels are logged without their place in the data registers: a
        // sampled value mixes texels and converts their formats.
        env.log_mem(lane, addr, n as u32, u32::from(MemAccess::SEQUENTIAL));
        match self.fast {
            Some((a, off))
                if addr >= s.base
                    && (off + (addr - s.base)).saturating_add(n as u64) <= a.size() =>
            {
                let at = off + (addr - s.base);
                let start = at & !3;
                let mut tmp = [0u8; 20];
                let mut k = 0;
                while start + (k as u64) < at + n as u64 {
                    tmp[k..k + 4].copy_from_slice(&a.load_u32(start + k as u64).to_le_bytes());
                    k += 4;
                }
                let skip = (at - start) as usize;
                b[..n].copy_from_slice(&tmp[skip..skip + n]);
            }
            _ => env
                .mem
                .read(addr, &mut b[..n])
                .map_err(|m| Fault::memory(m, lane))?,
        }
        Ok((b, sx, sy))
    }
}

/// `image_load`, `_mip`, `_pck`, `_pck_sgn`, `_mip_pck`, `_mip_pck_sgn`.
fn load<const MIP: bool, const PCK: bool, const SGN: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Step, Fault> {
    let s = surface(w, op, env)?;
    let layout = if PCK {
        Some(s.codec.data.layout().ok_or_else(|| {
            unsupported(
                op,
                format!(
                    "raw access to data format {} is not supported",
                    s.codec.data
                ),
            )
        })?)
    } else {
        None
    };
    let dmask = op.instr.mods.mem.dmask;
    let comps = dmask.count_ones() as usize;
    let a = vaddr(w, op, body_len(s.ty) + usize::from(MIP))?;
    let exec = w.exec();
    let reader = Reader::new(env, &s);
    let mut out = [[0u32; 4]; WAVE_SIZE];
    for (lane, o) in out.iter_mut().enumerate() {
        if exec >> lane & 1 == 0 {
            continue;
        }
        let Some(t) = int_texel(&s, &a, lane, MIP) else {
            continue;
        };
        let (b, sx, sy) = reader.element(env, &s, &t, lane)?;
        let v = if let Some(l) = layout {
            let e = u128::from_le_bytes(b);
            let mut v = [0u32; 4];
            let mut shift = 0;
            for (i, x) in v.iter_mut().enumerate().take(usize::from(l.count)) {
                let bits = u32::from(l.bits[i]);
                let m = if bits >= 32 {
                    u32::MAX
                } else {
                    (1 << bits) - 1
                };
                let raw = (e >> shift) as u32 & m;
                *x = if SGN && bits < 32 {
                    ((raw << (32 - bits)) as i32 >> (32 - bits)) as u32
                } else {
                    raw
                };
                shift += bits;
            }
            v
        } else {
            let v = s.codec.decode(&b, sx, sy);
            apply_dst_sel(v, s.dst_sel, s.codec.num).map_err(|e| unsupported(op, e))?
        };
        *o = select(dmask, v);
    }
    let num = if PCK { NumFormat::Uint } else { s.codec.num };
    write_result(w, op, env, &out, comps, num)?;
    Ok(Step::Next)
}

/// The VDATA components of a store for one lane (d16 widened).
fn store_values(
    w: &Wave,
    op: &Op,
    env: &Env<'_>,
    lane: usize,
    comps: usize,
    num: NumFormat,
) -> [u32; 4] {
    let d16 = op.instr.mods.mem.flags.contains(MemFlags::D16);
    let packed = d16 && env.version.is_gcn14_or_later();
    let dst = usize::from(op.reg(0));
    let mut v = [0u32; 4];
    for (c, x) in v.iter_mut().enumerate().take(comps) {
        *x = if packed {
            let r = w.vgpr[dst + c / 2][lane];
            from_d16(num, (r >> (16 * (c % 2))) as u16)
        } else if d16 {
            from_d16(num, w.vgpr[dst + c][lane] as u16)
        } else {
            w.vgpr[dst + c][lane]
        };
    }
    v
}

/// `image_store`, `_mip`, `_pck`, `_mip_pck`.
fn store<const MIP: bool, const PCK: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Step, Fault> {
    let s = surface(w, op, env)?;
    let layout = s.codec.data.layout().ok_or_else(|| {
        unsupported(
            op,
            format!("data format {} cannot be written", s.codec.data),
        )
    })?;
    let codec = if PCK {
        None
    } else {
        Some(s.codec.writer().map_err(|e| {
            unsupported(
                op,
                format!("{}/{} cannot be written: {e}", s.codec.data, s.codec.num),
            )
        })?)
    };
    let dmask = op.instr.mods.mem.dmask;
    let comps = dmask.count_ones() as usize;
    check_vgprs(w, usize::from(op.reg(0)), data_regs(op, env, comps))?;
    let a = vaddr(w, op, body_len(s.ty) + usize::from(MIP))?;
    let bytes = s.element.bytes() as usize;
    // The bits of the components DMASK enables.
    let mut keep = u128::MAX;
    let mut shift = 0;
    for c in 0..usize::from(layout.count) {
        let bits = u32::from(layout.bits[c]);
        if dmask >> c & 1 != 0 {
            let m = if bits >= 128 {
                u128::MAX
            } else {
                (1u128 << bits) - 1
            };
            keep &= !(m << shift);
        }
        shift += bits;
    }
    let exec = w.exec();
    for lane in 0..WAVE_SIZE {
        if exec >> lane & 1 == 0 {
            continue;
        }
        let Some(t) = int_texel(&s, &a, lane, MIP) else {
            continue;
        };
        // Spread the VDATA components over the enabled components.
        let vals = store_values(w, op, env, lane, comps, s.codec.num);
        let mut full = [0u32; 4];
        let mut k = 0;
        for (c, f) in full.iter_mut().enumerate() {
            if dmask >> c & 1 != 0 {
                *f = vals[k];
                k += 1;
            }
        }
        let new = match &codec {
            Some(c) => c.encode_bits(&full),
            None => {
                let mut e = 0u128;
                let mut shift = 0;
                for (c, &v) in full.iter().enumerate().take(usize::from(layout.count)) {
                    let bits = u32::from(layout.bits[c]);
                    let m = if bits >= 32 {
                        u32::MAX
                    } else {
                        (1 << bits) - 1
                    };
                    e |= u128::from(v & m) << shift;
                    shift += bits;
                }
                e
            }
        };
        let (addr, _, _) = s.element_address(t.level_offset, t.level, t.x, t.y, t.z);
        let mut b = [0u8; 16];
        env.log_mem(lane, addr, bytes as u32, u32::from(MemAccess::SEQUENTIAL));
        env.mem
            .read(addr, &mut b[..bytes])
            .map_err(|m| Fault::memory(m, lane))?;
        let old = u128::from_le_bytes(b);
        let e = (old & keep) | (new & !keep);
        env.mem
            .write(addr, &e.to_le_bytes()[..bytes])
            .map_err(|m| Fault::memory(m, lane))?;
    }
    Ok(Step::Next)
}

/// `image_get_resinfo`.
fn resinfo(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    let s = surface(w, op, env)?;
    let dmask = op.instr.mods.mem.dmask;
    let comps = dmask.count_ones() as usize;
    let a = vaddr(w, op, 1)?;
    let exec = w.exec();
    let levels = s.levels.1.saturating_sub(s.levels.0) + 1;
    let mut out = [[0u32; 4]; WAVE_SIZE];
    for (lane, o) in out.iter_mut().enumerate() {
        if exec >> lane & 1 == 0 {
            continue;
        }
        let level = s.levels.0.saturating_add(a.at(0, lane));
        let v = if level > s.levels.1 {
            [0, 0, 0, levels]
        } else {
            let [x, y, z] = s.level_size(level);
            match s.ty {
                ImageType::Image1d => [x, 0, 0, levels],
                ImageType::Image1dArray => [x, z, 0, levels],
                ImageType::Image2d => [x, y, 0, levels],
                ImageType::Cube => [x, y, z / 6, levels],
                _ => [x, y, z, levels],
            }
        };
        *o = select(dmask, v);
    }
    write_result(w, op, env, &out, comps, NumFormat::Uint)?;
    Ok(Step::Next)
}

/// The image atomics (`OP` from `lds::atomic_op`).
fn atomic<const OP: u8>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    use super::atomic::atomic_op::{CMPSWAP, FCMPSWAP};
    let s = surface(w, op, env)?;
    let w64 = match s.codec.data {
        DataFormat::D32 => false,
        DataFormat::D32_32 => true,
        d => {
            return Err(unsupported(
                op,
                format!("atomics on data format {d} are not supported (32 and 32_32 are)"),
            ))
        }
    };
    let words = if w64 { 2 } else { 1 };
    let cmp = OP == CMPSWAP || OP == FCMPSWAP;
    let data = usize::from(op.reg(0));
    check_vgprs(w, data, words * (1 + usize::from(cmp)))?;
    let a = vaddr(w, op, body_len(s.ty))?;
    let exec = w.exec();
    let read = |r: usize, lane: usize| -> u64 {
        if w64 {
            u64::from(w.vgpr[r][lane]) | u64::from(w.vgpr[r + 1][lane]) << 32
        } else {
            u64::from(w.vgpr[r][lane])
        }
    };
    let mut ret = [0u64; WAVE_SIZE];
    for (lane, r) in ret.iter_mut().enumerate() {
        if exec >> lane & 1 == 0 {
            continue;
        }
        let Some(t) = int_texel(&s, &a, lane, false) else {
            continue;
        };
        let (addr, _, _) = s.element_address(t.level_offset, t.level, t.x, t.y, t.z);
        let (x, y) = (
            read(data, lane),
            if cmp { read(data + words, lane) } else { 0 },
        );
        let (alloc, offset) = env
            .mem
            .find(addr, 4 * words as u64)
            .map_err(|m| Fault::memory(m, lane))?;
        *r = if w64 {
            if addr & 7 != 0 {
                return Err(unsupported(
                    op,
                    format!("64-bit atomic at misaligned {addr:#x}"),
                ));
            }
            alloc.atomic_u64(offset, |old| atomic64(OP, old, x, y))
        } else {
            u64::from(alloc.atomic_u32(offset, |old| atomic32(OP, old, x as u32, y as u32)))
        };
    }
    if op.instr.mods.glc {
        for (lane, &r) in ret.iter().enumerate() {
            if exec >> lane & 1 != 0 {
                w.vgpr[data][lane] = r as u32;
                if w64 {
                    w.vgpr[data + 1][lane] = (r >> 32) as u32;
                }
            }
        }
    }
    Ok(Step::Next)
}

/// Sample/gather variant flags (the const parameter of [`sample`]).
mod sflag {
    /// `_c`: depth compare.
    pub const C: u16 = 1;
    /// `_d` or `_cd`: user derivatives.
    pub const D: u16 = 2;
    /// `_l`: explicit LOD.
    pub const L: u16 = 4;
    /// `_b`: LOD bias.
    pub const B: u16 = 8;
    /// `_lz`: LOD 0.
    pub const LZ: u16 = 16;
    /// `_cl`: LOD clamp.
    pub const CL: u16 = 32;
    /// `_o`: texel offsets.
    pub const O: u16 = 64;
    /// `image_gather4*`.
    pub const GATHER: u16 = 128;
    /// `image_get_lod`.
    pub const GET_LOD: u16 = 256;
}

/// The handler's flags of a sample/gather row's addressing variant (user
/// and coarse derivatives are one case here).
fn sample_flags(v: SampleVariant) -> u16 {
    [
        (SampleVariant::C, sflag::C),
        (SampleVariant::D, sflag::D),
        (SampleVariant::CD, sflag::D),
        (SampleVariant::L, sflag::L),
        (SampleVariant::B, sflag::B),
        (SampleVariant::LZ, sflag::LZ),
        (SampleVariant::CL, sflag::CL),
        (SampleVariant::O, sflag::O),
    ]
    .iter()
    .filter(|(part, _)| v.has(*part))
    .fold(0, |f, (_, flag)| f | flag)
}

/// Maps a texel index on one axis of `n` texels under a clamp mode: the
/// index to read, or `None` for the border colour.
#[inline]
fn wrap(i: i64, n: u32, mode: ClampMode) -> Option<u32> {
    let n64 = i64::from(n);
    let mirror_once = |i: i64| if i < 0 { -1 - i } else { i };
    match mode {
        ClampMode::Wrap => Some(i.rem_euclid(n64) as u32),
        ClampMode::Mirror => {
            let m = i.rem_euclid(2 * n64);
            Some(if m < n64 { m } else { 2 * n64 - 1 - m } as u32)
        }
        ClampMode::ClampLastTexel => Some(i.clamp(0, n64 - 1) as u32),
        ClampMode::MirrorOnceLastTexel => Some(mirror_once(i).clamp(0, n64 - 1) as u32),
        ClampMode::ClampHalfBorder | ClampMode::ClampBorder => {
            (0..n64).contains(&i).then_some(i as u32)
        }
        ClampMode::MirrorOnceHalfBorder | ClampMode::MirrorOnceBorder => {
            let i = mirror_once(i);
            (i < n64).then_some(i as u32)
        }
    }
}

/// The continuous texel coordinate after the half-border clamp (the
/// mirror-once forms mirror texel indices, in [`wrap`], so their
/// coordinate clamps to `[-n, n]`).
#[inline]
fn pre_clamp(t: f32, n: u32, mode: ClampMode) -> f32 {
    match mode {
        ClampMode::ClampHalfBorder => t.clamp(0.0, n as f32),
        ClampMode::MirrorOnceHalfBorder => t.clamp(-(n as f32), n as f32),
        _ => t,
    }
}

/// Per-axis footprint: texel indices (or border) and the weight of the
/// second one (1/256 steps).
#[derive(Clone, Copy)]
struct Axis {
    i: [Option<u32>; 2],
    frac: f32,
}

#[inline]
fn axis(t: f32, n: u32, mode: ClampMode, linear: bool) -> Axis {
    // Far-away coordinates (and infinities) are clamped to +-2^40 texels,
    // which keeps the index arithmetic in range.
    let far = (1u64 << 40) as f32;
    let t = pre_clamp(t, n, mode).clamp(-far, far);
    if linear {
        let u = t - 0.5;
        let f = u.floor();
        let frac = ((u - f) * 256.0).floor() / 256.0;
        let i0 = f as i64;
        Axis {
            i: [wrap(i0, n, mode), wrap(i0 + 1, n, mode)],
            frac,
        }
    } else {
        // Point sampling under the half-border modes never reaches the
        // border: the coordinate is clamped to [0, n] and index n is the
        // last texel.
        let mode = match mode {
            ClampMode::ClampHalfBorder => ClampMode::ClampLastTexel,
            ClampMode::MirrorOnceHalfBorder => ClampMode::MirrorOnceLastTexel,
            m => m,
        };
        let i = t.floor() as i64;
        Axis {
            i: [wrap(i, n, mode), None],
            frac: 0.0,
        }
    }
}

/// Everything a sample needs besides the lane's coordinates.
struct SampleCtx<'a> {
    s: &'a Surface,
    reader: Reader<'a>,
    /// FORCE_DEGAMMA on a float format that is not already SRGB.
    degamma: bool,
    samp: SamplerResource,
    border: [u32; 4],
    unnorm: bool,
    blend: bool,
    compare: Option<DepthCompare>,
}

impl SampleCtx<'_> {
    /// A coordinate in texels along an axis of `n` texels: normalised
    /// coordinates are scaled, unnormalised ones already are texels.
    fn texels(&self, c: f32, n: u32) -> f32 {
        if self.unnorm {
            c
        } else {
            c * n as f32
        }
    }

    /// The texel at integer indices of a level (already wrapped), or the
    /// border colour; with compare, the compare result instead.
    #[allow(clippy::too_many_arguments)]
    fn fetch(
        &self,
        env: &Env<'_>,
        op: &Op,
        level: u32,
        level_offset: u64,
        x: Option<u32>,
        y: Option<u32>,
        z: Option<u32>,
        reference: f32,
        lane: usize,
    ) -> Result<[f32; 4], Fault> {
        let raw = match (x, y, z) {
            (Some(x), Some(y), Some(z)) => {
                let t = Texel {
                    level,
                    level_offset,
                    x,
                    y,
                    z,
                };
                let (b, sx, sy) = self.reader.element(env, self.s, &t, lane)?;
                let mut v = self.s.codec.decode(&b, sx, sy);
                if self.degamma {
                    for c in &mut v[..3] {
                        *c = (srgb_to_linear(f64::from(f32::from_bits(*c))) as f32).to_bits();
                    }
                }
                apply_dst_sel(v, self.s.dst_sel, self.s.codec.num)
                    .map_err(|e| unsupported(op, e))?
            }
            _ => self.border,
        };
        Ok(match self.compare {
            Some(func) => {
                let texel = f32::from_bits(raw[0]);
                let r = f32::from(compare(func, reference, texel));
                [r; 4]
            }
            None => raw.map(f32::from_bits),
        })
    }
}

fn compare(func: DepthCompare, r: f32, t: f32) -> bool {
    match func {
        DepthCompare::Never => false,
        DepthCompare::Less => r < t,
        DepthCompare::Equal => r == t,
        DepthCompare::LessEqual => r <= t,
        DepthCompare::Greater => r > t,
        DepthCompare::NotEqual => r != t,
        DepthCompare::GreaterEqual => r >= t,
        DepthCompare::Always => true,
    }
}

/// The slice of an array or cube image at slice/face coordinate `c`
/// (rounded to nearest even; cubes: face `round(c) mod 8` clamped to 0-5
/// of cube `floor(c / 8)`), relative to BASE_ARRAY and clamped to
/// LAST_ARRAY and the image's slices.
fn slice_index(s: &Surface, c: f32, slices: u32) -> u32 {
    let last = s.slices.1.min(slices.saturating_sub(1));
    let rel = if s.ty == ImageType::Cube {
        let cube = (c / 8.0).floor().clamp(0.0, 8192.0) as u32;
        let face = ((c.round_ties_even().max(0.0) as u32) % 8).min(5);
        6 * cube + face
    } else {
        c.round_ties_even().clamp(0.0, 8192.0) as u32
    };
    (s.slices.0 + rel).min(last)
}

/// Coordinates of one lane, in the body order, plus offsets.
#[derive(Clone, Copy, Default)]
struct Coords {
    c: [f32; 3],
    off: [i32; 3],
}

/// Filters one level at `coords`; returns the blended texel (f32 bits for
/// float formats, the nearest texel's raw values for integer ones).
#[allow(clippy::too_many_arguments)]
fn filter_level(
    ctx: &SampleCtx<'_>,
    env: &Env<'_>,
    op: &Op,
    level: u32,
    co: &Coords,
    linear_xy: bool,
    reference: f32,
    lane: usize,
) -> Result<[f32; 4], Fault> {
    let s = ctx.s;
    let [lw, lh, ld] = s.level_size(level);
    let lo = s.level_offset(level);
    let dims = s.ty.dims();
    let samp = &ctx.samp;
    let linear = linear_xy && ctx.blend;
    let ax = axis(
        ctx.texels(co.c[0], lw) + co.off[0] as f32,
        lw,
        samp.clamp_x,
        linear,
    );
    let ay = if dims >= 2 {
        axis(
            ctx.texels(co.c[1], lh) + co.off[1] as f32,
            lh,
            samp.clamp_y,
            linear,
        )
    } else {
        Axis {
            i: [Some(0), None],
            frac: 0.0,
        }
    };
    // Seamless cube filtering (DISABLE_CUBE_WRAP = 0) would take texels
    // of the neighbouring face; the emulator does not, so a footprint
    // that crosses a face edge is a fault rather than a wrong value.
    if s.ty == ImageType::Cube && linear && !samp.disable_cube_wrap {
        let crosses = |t: f32, n: u32| {
            let u = t - 0.5;
            u < 0.0 || u.floor() + 1.0 >= n as f32 && u.fract() != 0.0
        };
        if crosses(ctx.texels(co.c[0], lw) + co.off[0] as f32, lw)
            || crosses(ctx.texels(co.c[1], lh) + co.off[1] as f32, lh)
        {
            return Err(unsupported(
                op,
                "bilinear filtering across cube faces (DISABLE_CUBE_WRAP = 0) is not supported",
            ));
        }
    }
    // The third axis: 3-D depth (filtered by Z_FILTER) or a slice.
    let az = match s.ty {
        ImageType::Image3d => {
            let zl = samp.z_filter == MipFilter::Linear && ctx.blend;
            axis(
                ctx.texels(co.c[2], ld) + co.off[2] as f32,
                ld,
                samp.clamp_z,
                zl,
            )
        }
        ImageType::Image1dArray | ImageType::Image2dArray | ImageType::Cube => {
            let v = co.c[if s.ty == ImageType::Image1dArray {
                1
            } else {
                2
            }];
            Axis {
                i: [Some(slice_index(s, v, ld)), None],
                frac: 0.0,
            }
        }
        _ => Axis {
            i: [Some(0), None],
            frac: 0.0,
        },
    };
    let mut acc = [0f32; 4];
    let mut best: Option<[f32; 4]> = None;
    let mut best_w = -1.0f32;
    let mut mm: Option<[f32; 4]> = None;
    let nz = if az.i[1].is_some() || az.frac != 0.0 {
        2
    } else {
        1
    };
    let ny = if linear && dims >= 2 { 2 } else { 1 };
    let nx = if linear { 2 } else { 1 };
    for kz in 0..nz {
        let wz = if kz == 0 { 1.0 - az.frac } else { az.frac };
        for ky in 0..ny {
            let wy = if ky == 0 { 1.0 - ay.frac } else { ay.frac };
            for kx in 0..nx {
                let wx = if kx == 0 { 1.0 - ax.frac } else { ax.frac };
                let wgt = wx * wy * wz;
                if nx * ny * nz > 1 && wgt == 0.0 {
                    continue;
                }
                let t = ctx.fetch(
                    env, op, level, lo, ax.i[kx], ay.i[ky], az.i[kz], reference, lane,
                )?;
                if wgt > best_w {
                    best_w = wgt;
                    best = Some(t);
                }
                match samp.filter_mode {
                    FilterMode::Blend => {
                        for c in 0..4 {
                            acc[c] += wgt * t[c];
                        }
                    }
                    FilterMode::Min | FilterMode::Max => {
                        let m = mm.get_or_insert(t);
                        for c in 0..4 {
                            m[c] = if samp.filter_mode == FilterMode::Min {
                                m[c].min(t[c])
                            } else {
                                m[c].max(t[c])
                            };
                        }
                    }
                }
            }
        }
    }
    if nx * ny * nz == 1 {
        return Ok(best.unwrap_or([0.0; 4]));
    }
    Ok(match samp.filter_mode {
        FilterMode::Blend => acc,
        _ => mm.unwrap_or([0.0; 4]),
    })
}

/// The LOD of one lane from derivatives in texels: log2 of the larger
/// Euclidean length.
fn lod_from_derivs(dx: [f32; 3], dy: [f32; 3]) -> f32 {
    let len = |d: [f32; 3]| (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    len(dx).max(len(dy)).log2()
}

/// `image_sample*`, `image_gather4*`, `image_get_lod`.
fn sample<const F: u16>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    use sflag::*;
    let s = surface(w, op, env)?;
    let samp = sampler(w, op, env)?;
    if samp.mc_coord_trunc {
        return Err(unsupported(
            op,
            "the sampler's MC_COORD_TRUNC is not supported",
        ));
    }
    if samp.lod_bias_sec != 0.0 {
        return Err(unsupported(
            op,
            "the sampler's LOD_BIAS_SEC is not supported",
        ));
    }
    let num = s.codec.num;
    let one = num.one();
    if s.bc_swizzle != 0 && samp.border_color == BorderColor::OpaqueBlack {
        // The other border colours are the same in every order.
        return Err(unsupported(
            op,
            format!(
                "the T#'s BC_SWIZZLE {} (a swizzled opaque-black border colour) is not supported",
                s.bc_swizzle
            ),
        ));
    }
    let border = match samp.border_color {
        BorderColor::TransparentBlack => [0, 0, 0, 0],
        BorderColor::OpaqueBlack => [0, 0, 0, one],
        BorderColor::OpaqueWhite => [one; 4],
        BorderColor::Register => {
            return Err(unsupported(
                op,
                "the border colour table (TEX_BORDER_COLOR_REGISTER) is not supported",
            ))
        }
    };
    let flags = op.instr.mods.mem.flags;
    let unnorm = flags.contains(MemFlags::UNORM) || samp.force_unnormalized;
    let dims = s.ty.dims();
    let body = body_len(s.ty);
    // Cube derivatives are 2-D (face coordinates).
    let nderiv = if F & D != 0 { 2 * dims } else { 0 };
    let n = usize::from(F & O != 0)
        + usize::from(F & B != 0)
        + usize::from(F & C != 0)
        + nderiv
        + body
        + usize::from(F & CL != 0)
        + usize::from(F & L != 0);
    let a = vaddr(w, op, n)?;
    let mut k = 0;
    let mut next = |present: bool, count: usize| {
        let i = k;
        if present {
            k += count;
        }
        i
    };
    let i_off = next(F & O != 0, 1);
    let i_bias = next(F & B != 0, 1);
    let i_ref = next(F & C != 0, 1);
    let i_der = next(nderiv > 0, nderiv);
    let i_body = next(true, body);
    let i_clamp = next(F & CL != 0, 1);
    let i_lod = next(F & L != 0, 1);
    let fv = |i: usize, lane: usize| f32::from_bits(a.at(i, lane));
    let compare = (F & C != 0).then_some(samp.depth_compare);
    if compare.is_some() && !num.is_float_register() {
        // "Working only with floating point images" (GcnInstrsMimg.md).
        return Err(unsupported(
            op,
            format!("depth compare needs a float image, not number format {num}"),
        ));
    }
    let ctx = SampleCtx {
        s: &s,
        reader: Reader::new(env, &s),
        degamma: samp.force_degamma && num.is_float_register() && num != NumFormat::Srgb,
        samp,
        border,
        unnorm,
        blend: num.is_float_register(),
        compare,
    };
    // Derivatives count texels of BASE_LEVEL (the LOD is relative to it).
    let [w0, h0, d0] = s.level_size(s.levels.0.min(s.levels.1));
    let size0 = [w0 as f32, h0 as f32, d0 as f32];
    let min_lod = samp.min_lod.max(s.min_lod);
    let exec = w.exec();
    let dmask = op.instr.mods.mem.dmask;
    let mut out = [[0u32; 4]; WAVE_SIZE];
    for (lane, slot) in out.iter_mut().enumerate() {
        if exec >> lane & 1 == 0 {
            continue;
        }
        let mut co = Coords::default();
        for (j, c) in co.c.iter_mut().enumerate().take(body) {
            *c = fv(i_body + j, lane);
        }
        if F & O != 0 {
            let o = a.at(i_off, lane);
            for (j, x) in co.off.iter_mut().enumerate() {
                *x = ((o >> (8 * j)) as i32) << 26 >> 26;
            }
        }
        // The LOD, unclamped.
        let raw_lod = if unnorm || F & LZ != 0 {
            0.0
        } else if F & L != 0 {
            fv(i_lod, lane)
        } else {
            let (mut dx, mut dy) = ([0f32; 3], [0f32; 3]);
            if F & D != 0 {
                for j in 0..dims {
                    dx[j] = fv(i_der + j, lane) * size0[j];
                    dy[j] = fv(i_der + dims + j, lane) * size0[j];
                }
            } else {
                let q = lane & !3;
                let cx = |l: usize, j: usize| fv(i_body + j, l);
                for j in 0..dims.min(body) {
                    dx[j] = (cx(q + 1, j) - cx(q, j)) * size0[j];
                    dy[j] = (cx(q + 2, j) - cx(q, j)) * size0[j];
                }
            }
            let mut l = lod_from_derivs(dx, dy) + samp.lod_bias;
            if F & B != 0 {
                l += fv(i_bias, lane);
            }
            l
        };
        let mut lod = raw_lod.max(min_lod).min(samp.max_lod);
        if F & CL != 0 {
            lod = lod.min(fv(i_clamp, lane));
        }
        if F & GET_LOD != 0 {
            *slot = select(dmask, [lod.to_bits(), raw_lod.to_bits(), 0, 0]);
            continue;
        }
        let reference = if F & C != 0 { fv(i_ref, lane) } else { 0.0 };
        let (base, last) = (s.levels.0.min(s.levels.1), s.levels.1);
        let level_of = |l: f32| -> u32 { ((base as f32 + l.max(0.0)) as u32).min(last) };
        // Gather4: the footprint at one level, one component.
        if F & GATHER != 0 {
            let level = if samp.mip_filter == MipFilter::None {
                base
            } else {
                level_of((lod + 0.5).floor())
            };
            *slot = gather(&ctx, env, op, level, &co, dmask, reference, lane)?;
            continue;
        }
        let linear_xy = if lod <= 0.0 {
            samp.xy_mag_filter == XyFilter::Bilinear
        } else {
            samp.xy_min_filter == XyFilter::Bilinear
        };
        let v = match samp.mip_filter {
            MipFilter::None => filter_level(&ctx, env, op, base, &co, linear_xy, reference, lane)?,
            MipFilter::Point => {
                let level = level_of((lod + 0.5).floor());
                filter_level(&ctx, env, op, level, &co, linear_xy, reference, lane)?
            }
            MipFilter::Linear => {
                let l0 = level_of(lod.floor());
                let frac = (lod.max(0.0).fract() * 256.0).floor() / 256.0;
                let l1 = level_of(lod.floor() + 1.0);
                let t0 = filter_level(&ctx, env, op, l0, &co, linear_xy, reference, lane)?;
                if l1 == l0 || frac == 0.0 || !ctx.blend {
                    t0
                } else {
                    let t1 = filter_level(&ctx, env, op, l1, &co, linear_xy, reference, lane)?;
                    std::array::from_fn(|c| t0[c] * (1.0 - frac) + t1[c] * frac)
                }
            }
        };
        // Integer formats come back as the nearest texel's bits.
        *slot = select(dmask, v.map(f32::to_bits));
    }
    let comps = if F & GATHER != 0 {
        4
    } else {
        dmask.count_ones() as usize
    };
    let num = if F & GET_LOD != 0 {
        NumFormat::Float
    } else {
        num
    };
    write_result(w, op, env, &out, comps, num)?;
    Ok(Step::Next)
}

/// The gather4 result of one lane.
#[allow(clippy::too_many_arguments)]
fn gather(
    ctx: &SampleCtx<'_>,
    env: &Env<'_>,
    op: &Op,
    level: u32,
    co: &Coords,
    dmask: u8,
    reference: f32,
    lane: usize,
) -> Result<[u32; 4], Fault> {
    let s = ctx.s;
    let [lw, lh, _] = s.level_size(level);
    let lo = s.level_offset(level);
    let ax = axis(
        ctx.texels(co.c[0], lw) + co.off[0] as f32,
        lw,
        ctx.samp.clamp_x,
        true,
    );
    let ay = axis(
        ctx.texels(co.c[1], lh) + co.off[1] as f32,
        lh,
        ctx.samp.clamp_y,
        true,
    );
    let z = match s.ty {
        ImageType::Image2dArray | ImageType::Cube => {
            Some(slice_index(s, co.c[2], s.level_size(level)[2]))
        }
        _ => Some(0),
    };
    let comp = (dmask.trailing_zeros() as usize).min(3);
    let t = |x: usize, y: usize| -> Result<u32, Fault> {
        let v = ctx.fetch(env, op, level, lo, ax.i[x], ay.i[y], z, reference, lane)?;
        Ok(v[comp].to_bits())
    };
    Ok([t(0, 1)?, t(1, 1)?, t(1, 0)?, t(0, 0)?])
}

/// The handler of a MIMG row. `image_gather4h`, `image_gather4h_pck` and
/// `image_gather8h_pck` (GCN 1.4) have none: no document describes them.
pub(crate) fn handler(row: &InstrRow, _version: GcnVersion) -> Option<Handler> {
    use sflag::*;
    if row.encoding != Encoding::Mimg {
        return None;
    }
    // RDNA 2's ray tracing and MSAA sample loads stay gaps
    // (`gaps::gap_reason`).
    if row.has(row_flags::BVH) || row.op == M::ImageMsaaLoad {
        return None;
    }
    if let Some(a) = row.atomic {
        return dispatch_atomic!(a.op as u8, atomic);
    }
    match row.op {
        M::ImageLoad => return h(load::<false, false, false>),
        M::ImageLoadMip => return h(load::<true, false, false>),
        M::ImageLoadPck => return h(load::<false, true, false>),
        M::ImageLoadPckSgn => return h(load::<false, true, true>),
        M::ImageLoadMipPck => return h(load::<true, true, false>),
        M::ImageLoadMipPckSgn => return h(load::<true, true, true>),
        M::ImageStore => return h(store::<false, false>),
        M::ImageStoreMip => return h(store::<true, false>),
        M::ImageStorePck => return h(store::<false, true>),
        M::ImageStoreMipPck => return h(store::<true, true>),
        M::ImageGetResinfo => return h(resinfo),
        M::ImageGetLod => return h(sample::<GET_LOD>),
        _ => {}
    }
    let variant = row.sample?;
    let base = if row.has(row_flags::GATHER4) {
        GATHER
    } else {
        0
    };
    let f = base | sample_flags(variant);
    macro_rules! each {
        ($($v:expr),*) => {
            match f {
                $(x if x == $v => h(sample::<{ $v }>),)*
                _ => None,
            }
        };
    }
    const G: u16 = GATHER;
    each!(
        0,
        CL,
        D,
        D | CL,
        L,
        B,
        B | CL,
        LZ,
        C,
        C | CL,
        C | D,
        C | D | CL,
        C | L,
        C | B,
        C | B | CL,
        C | LZ,
        O,
        CL | O,
        D | O,
        D | CL | O,
        L | O,
        B | O,
        B | CL | O,
        LZ | O,
        C | O,
        C | CL | O,
        C | D | O,
        C | D | CL | O,
        C | L | O,
        C | B | O,
        C | B | CL | O,
        C | LZ | O,
        G,
        G | CL,
        G | L,
        G | B,
        G | B | CL,
        G | LZ,
        G | C,
        G | C | CL,
        G | C | L,
        G | C | B,
        G | C | B | CL,
        G | C | LZ,
        G | O,
        G | CL | O,
        G | L | O,
        G | B | O,
        G | B | CL | O,
        G | LZ | O,
        G | C | O,
        G | C | CL | O,
        G | C | L | O,
        G | C | B | O,
        G | C | B | CL | O,
        G | C | LZ | O
    )
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_gfx10;
