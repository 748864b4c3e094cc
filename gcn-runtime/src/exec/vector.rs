//! The vector ALU machinery every VALU family shares: reading a source as
//! 64 lanes (scalar operands broadcast, SDWA selections and DPP lane
//! permutations applied, float abs/neg), and writing a destination under
//! EXEC (SDWA destination selection, DPP row/bank masks, output modifiers
//! and clamp).
//!
//! Values are lane-major `[T; 64]` arrays, computed for every lane and
//! written under a mask, so each operation is one loop the compiler
//! vectorises. The plain forms of the most frequent instructions (add/sub
//! with carry, `v_mov_b32`, two-source f32 arithmetic, and on hosts with
//! AVX2 the two-source integer operations) take a streaming path instead
//! ([`Stream`], [`stream1`], [`stream2`]): eight lanes at a time read from
//! the source rows in place and written to the destination row at once,
//! with no 256-byte temporaries; it has an AVX2 build chosen at run time.
//!
//! DPP on GCN 1.5: DPP16 adds `row_share` and `row_xmask` and the FI bit
//! (an inactive source lane gives its value instead of being invalid);
//! DPP8 selects one of eight lanes per group of eight, has no row/bank
//! masks, and reads 0 from an inactive source lane unless FI is set.

use std::mem::MaybeUninit;

use gcn_asm::decode::Form;

use super::{Op, Src, Wave, WAVE_SIZE};

/// 64 lanes of 32-bit values.
pub type Lanes = [u32; WAVE_SIZE];

/// The 64 lanes of a source as 32-bit values (no modifiers).
#[inline(always)]
pub fn lanes_u32(w: &Wave, src: Src) -> Lanes {
    match src {
        Src::Vgpr(r) => w.vgpr[usize::from(r)],
        Src::Special(super::sreg::LDS_DIRECT) => [0; WAVE_SIZE],
        other => [w.read_s32(other); WAVE_SIZE],
    }
}

/// The 64 lanes of a 64-bit source (a VGPR pair, an SGPR pair or a
/// constant).
#[inline]
pub fn lanes_u64(w: &Wave, src: Src) -> [u64; WAVE_SIZE] {
    match src {
        Src::Vgpr(r) => {
            let lo = &w.vgpr[usize::from(r)];
            let hi = &w.vgpr[usize::from(r) + 1];
            std::array::from_fn(|l| u64::from(lo[l]) | (u64::from(hi[l]) << 32))
        }
        other => [w.read_s64(other); WAVE_SIZE],
    }
}

/// The source lane DPP control `ctrl` reads for `lane`, or `None` when it
/// is out of range.
pub fn dpp_source_lane(ctrl: u16, lane: usize) -> Option<usize> {
    let row = lane & !15;
    let in_row = lane & 15;
    let n = usize::from(ctrl & 15);
    match ctrl {
        0x000..=0x0ff => Some((lane & !3) | usize::from((ctrl >> (2 * (lane & 3))) & 3)),
        0x101..=0x10f => (in_row + n < 16).then_some(lane + n),
        0x111..=0x11f => (in_row >= n).then(|| lane - n),
        0x121..=0x12f => Some(row | ((in_row + 16 - n) & 15)),
        0x130 => (lane < 63).then_some(lane + 1),
        0x134 => Some((lane + 1) % 64),
        0x138 => lane.checked_sub(1),
        0x13c => Some((lane + 63) % 64),
        0x140 => Some(row | (15 - in_row)),
        0x141 => Some((lane & !7) | (7 - (lane & 7))),
        0x142 => (row > 0).then(|| row - 1),
        0x143 => (row >= 32).then_some(31),
        // GCN 1.5: row_share (every lane reads lane n of its row) and
        // row_xmask (lane i reads lane i ^ n of its row).
        0x150..=0x15f => Some(row | n),
        0x160..=0x16f => Some(row | (in_row ^ n)),
        _ => None,
    }
}

/// The source lane of `lane` under the instruction's DPP fields, or `None`
/// when it is out of range: DPP8's eight lane selects (GCN 1.5, per group
/// of eight lanes), else DPP16's control ([`dpp_source_lane`]).
#[inline]
pub fn dpp_lane(d: &gcn_asm::decode::Dpp, lane: usize) -> Option<usize> {
    match d.dpp8 {
        Some(sel) => Some((lane & !7) | (sel >> (3 * (lane & 7)) & 7) as usize),
        None => dpp_source_lane(d.ctrl, lane),
    }
}

/// Whether DPP source lane `src` gives its value: it is active, or `fi`
/// (GCN 1.5 "fetch inactive") reads inactive lanes too (the wave's own
/// lanes only: lanes 32-63 of a wave32 are not there to fetch).
#[inline]
fn dpp_fetches(d: &gcn_asm::decode::Dpp, w: &Wave, exec: u64, src: usize) -> bool {
    if d.fi {
        w.lane_mask >> src & 1 != 0
    } else {
        exec >> src & 1 != 0
    }
}

/// Lanes whose DPP source is out of range or inactive (read as 0 with
/// `bound_ctrl`, else not written) and the row/bank write masks. DPP8 has
/// no masks and reads 0 from an invalid lane (GCN 1.5).
fn dpp_masks(w: &Wave, op: &Op) -> (u64, u64) {
    let d = op.instr.mods.dpp;
    let exec = w.exec();
    let mut invalid = 0u64;
    let mut allowed = 0u64;
    for lane in 0..WAVE_SIZE {
        match dpp_lane(&d, lane) {
            Some(s) if dpp_fetches(&d, w, exec, s) => {}
            _ => invalid |= 1 << lane,
        }
        let row_ok = d.row_mask >> (lane / 16) & 1 != 0;
        let bank_ok = d.bank_mask >> ((lane & 15) / 4) & 1 != 0;
        if d.dpp8.is_some() || (row_ok && bank_ok) {
            allowed |= 1 << lane;
        }
    }
    (invalid, allowed)
}

/// The lanes an instruction writes: EXEC, narrowed by DPP's row and bank
/// masks and (without `bound_ctrl`) its invalid source lanes.
#[inline]
pub fn write_mask(w: &Wave, op: &Op) -> u64 {
    let exec = w.exec();
    if op.instr.form != Form::Dpp {
        return exec;
    }
    let (invalid, allowed) = dpp_masks(w, op);
    let d = op.instr.mods.dpp;
    let mut mask = exec & allowed;
    if !d.bound_ctrl && d.dpp8.is_none() {
        mask &= !invalid;
    }
    mask
}

/// Applies an SDWA source selection (0-3 bytes, 4-5 words, 6 dword).
#[inline]
pub fn sdwa_select(v: u32, sel: u8, sext: bool) -> u32 {
    match sel {
        0..=3 => {
            let b = (v >> (8 * sel)) & 0xff;
            if sext {
                b as u8 as i8 as i32 as u32
            } else {
                b
            }
        }
        4 | 5 => {
            let h = (v >> (16 * (sel - 4))) & 0xffff;
            if sext {
                h as u16 as i16 as i32 as u32
            } else {
                h
            }
        }
        _ => v,
    }
}

/// Source slot `s` as 64 lanes of 32 bits, with DPP (slot 0) and SDWA
/// selection and sign extension applied; no float modifiers.
#[inline(always)]
pub fn src_u32(w: &Wave, op: &Op, s: usize) -> Lanes {
    if plain_form(op) {
        return lanes_u32(w, op.slot_src(s));
    }
    src_u32_selected(w, op, s)
}

/// [`src_u32`] for the DPP and SDWA forms (out of line: the plain forms'
/// inlined path stays small).
#[inline(never)]
fn src_u32_selected(w: &Wave, op: &Op, s: usize) -> Lanes {
    let mut v = lanes_u32(w, op.slot_src(s));
    match op.instr.form {
        Form::Dpp if s == 0 => {
            let d = op.instr.mods.dpp;
            let exec = w.exec();
            let orig = v;
            for (lane, out) in v.iter_mut().enumerate() {
                *out = match dpp_lane(&d, lane) {
                    Some(src) if dpp_fetches(&d, w, exec, src) => orig[src],
                    _ => 0,
                };
            }
        }
        Form::Sdwa if s < 2 => {
            let m = &op.instr.mods;
            let sel = if s == 0 {
                m.sdwa.src0_sel
            } else {
                m.sdwa.src1_sel
            };
            let sext = m.sext >> s & 1 != 0;
            if sel != 6 || sext {
                for x in v.iter_mut() {
                    *x = sdwa_select(*x, sel, sext);
                }
            }
        }
        _ => {}
    }
    v
}

/// True when the form has no lane permutation or selection (the fast
/// paths read and write registers directly).
#[inline]
pub(super) fn plain_form(op: &Op) -> bool {
    matches!(op.instr.form, Form::Native | Form::Vop3)
}

/// Source slot `s` as 64 lanes of f32 with abs and neg applied.
#[inline(always)]
pub fn src_f32(w: &Wave, op: &Op, s: usize) -> [f32; WAVE_SIZE] {
    let mut out = [0f32; WAVE_SIZE];
    src_f32_into(w, op, s, &mut out);
    out
}

/// [`src_f32`] into `out`.
#[inline(always)]
pub fn src_f32_into(w: &Wave, op: &Op, s: usize, out: &mut [f32; WAVE_SIZE]) {
    let m = &op.instr.mods;
    let abs = m.abs >> s & 1 != 0;
    let neg = m.neg >> s & 1 != 0;
    let and = if abs { 0x7fff_ffff } else { u32::MAX };
    let xor = if neg { 0x8000_0000 } else { 0 };
    if plain_form(op) {
        match op.slot_src(s) {
            Src::Vgpr(r) => {
                let row = &w.vgpr[usize::from(r)];
                for (o, &x) in out.iter_mut().zip(row) {
                    *o = f32::from_bits((x & and) ^ xor);
                }
            }
            Src::Special(super::sreg::LDS_DIRECT) => out.fill(0.0),
            other => out.fill(f32::from_bits((w.read_s32(other) & and) ^ xor)),
        }
        return;
    }
    let v = src_u32(w, op, s);
    for (o, &x) in out.iter_mut().zip(&v) {
        *o = f32::from_bits((x & and) ^ xor);
    }
}

/// Source slot `s` as 64 lanes of 64 bits (no modifiers).
#[inline]
pub fn src_u64(w: &Wave, op: &Op, s: usize) -> [u64; WAVE_SIZE] {
    lanes_u64(w, op.slot_src(s))
}

/// Source slot `s` as 64 lanes of f64 with abs and neg applied.
#[inline]
pub fn src_f64(w: &Wave, op: &Op, s: usize) -> [f64; WAVE_SIZE] {
    let v = src_u64(w, op, s);
    let m = &op.instr.mods;
    let abs = m.abs >> s & 1 != 0;
    let neg = m.neg >> s & 1 != 0;
    let and = if abs { !(1u64 << 63) } else { u64::MAX };
    let xor = if neg { 1u64 << 63 } else { 0 };
    v.map(|x| f64::from_bits((x & and) ^ xor))
}

/// Places a 32-bit result per the SDWA destination selection.
#[inline]
pub fn sdwa_place(result: u32, old: u32, dst_sel: u8, dst_unused: u8) -> u32 {
    let (shift, width) = match dst_sel {
        0..=3 => (8 * u32::from(dst_sel), 8),
        4 | 5 => (16 * u32::from(dst_sel - 4), 16),
        _ => return result,
    };
    let field_mask = ((1u64 << width) - 1) as u32;
    let field = (result & field_mask) << shift;
    let mask = field_mask << shift;
    match dst_unused {
        // UNUSED_PRESERVE
        2 => (old & !mask) | field,
        // UNUSED_SEXT: the bits above the field copy its sign bit.
        1 => {
            let top = shift + width;
            let sign = (field >> (top - 1)) & 1;
            if sign != 0 && top < 32 {
                field | (u32::MAX << top)
            } else {
                field
            }
        }
        _ => field,
    }
}

/// Writes 32-bit results to the instruction's VGPR destination for the
/// lanes of [`write_mask`] (SDWA destination selection applied).
#[inline]
pub fn write_u32(w: &mut Wave, op: &Op, values: &Lanes) {
    let mask = write_mask(w, op);
    let dst = op.vdst_row();
    write_vgpr_masked(w, dst, values, mask, op);
}

/// Writes `values` to VGPR `dst` for the lanes of `mask`.
#[inline]
fn write_vgpr_masked(w: &mut Wave, dst: usize, values: &Lanes, mask: u64, op: &Op) {
    let sdwa = op.instr.form == Form::Sdwa && op.instr.mods.sdwa.dst_sel != 6;
    let row = &mut w.vgpr[dst];
    if sdwa {
        let s = op.instr.mods.sdwa;
        for lane in 0..WAVE_SIZE {
            if mask >> lane & 1 != 0 {
                row[lane] = sdwa_place(values[lane], row[lane], s.dst_sel, s.dst_unused);
            }
        }
    } else {
        blend_into(row, values, mask);
    }
}

/// `row[lane] = values[lane]` for the lanes of `mask`, the others kept: a
/// select per lane through unpacked flags (no branch, no variable 64-bit
/// shift), so the loop vectorises.
#[inline]
pub fn blend_into(row: &mut Lanes, values: &Lanes, mask: u64) {
    // A wave32's lanes (or a wave64's low half): the upper 32 keep their
    // values, so only the low half is read and written.
    if mask >> 32 == 0 {
        blend_first::<32>(row, values, mask);
    } else {
        blend_first::<WAVE_SIZE>(row, values, mask);
    }
}

/// [`blend_into`] for a mask within lanes `0..N`.
#[inline(always)]
fn blend_first<const N: usize>(row: &mut Lanes, values: &Lanes, mask: u64) {
    if mask == u64::MAX >> (WAVE_SIZE - N) {
        row[..N].copy_from_slice(&values[..N]);
        return;
    }
    let flags = unpack_mask(mask);
    for lane in 0..N {
        let keep = flags[lane].wrapping_sub(1);
        row[lane] = (values[lane] & !keep) | (row[lane] & keep);
    }
}

/// Writes raw 32-bit lanes to VGPR `dst` under EXEC (for handlers that
/// write several registers).
#[inline]
pub fn write_vgpr(w: &mut Wave, dst: usize, values: &Lanes, mask: u64) {
    blend_into(&mut w.vgpr[dst], values, mask);
}

/// Applies the output modifier and clamp to an f32 result.
#[inline]
pub fn omod_clamp_f32(x: f32, omod: u8, clamp: bool) -> f32 {
    let x = match omod {
        1 => x * 2.0,
        2 => x * 4.0,
        3 => x * 0.5,
        _ => x,
    };
    if clamp {
        // NaN clamps to 0 (DX10 clamp); -0.0 stays.
        if x.is_nan() {
            0.0
        } else {
            x.clamp(0.0, 1.0)
        }
    } else {
        x
    }
}

/// Applies the output modifier and clamp to an f64 result.
#[inline]
pub fn omod_clamp_f64(x: f64, omod: u8, clamp: bool) -> f64 {
    let x = match omod {
        1 => x * 2.0,
        2 => x * 4.0,
        3 => x * 0.5,
        _ => x,
    };
    if clamp {
        if x.is_nan() {
            0.0
        } else {
            x.clamp(0.0, 1.0)
        }
    } else {
        x
    }
}

/// Writes f32 results (output modifier and clamp applied).
#[inline]
pub fn write_f32(w: &mut Wave, op: &Op, values: &[f32; WAVE_SIZE]) {
    let m = &op.instr.mods;
    let (omod, clamp) = (m.omod, m.clamp);
    if plain_form(op) {
        let mask = w.exec();
        let dst = op.vdst_row();
        let row = &mut w.vgpr[dst];
        // Every lane of a wave64, or of a wave32 (the low half).
        let whole = match mask {
            u64::MAX => WAVE_SIZE,
            0xffff_ffff => 32,
            _ => 0,
        };
        if omod == 0 && !clamp && whole != 0 {
            // Straight into the row: no lane array in between, whose copy
            // (a `memcpy` call) costs as much as the loop and more when the
            // stack places the array badly.
            for (r, v) in row[..whole].iter_mut().zip(values) {
                *r = v.to_bits();
            }
            return;
        }
        let bits: Lanes = if omod == 0 && !clamp {
            std::array::from_fn(|lane| values[lane].to_bits())
        } else {
            std::array::from_fn(|lane| omod_clamp_f32(values[lane], omod, clamp).to_bits())
        };
        blend_into(row, &bits, mask);
        return;
    }
    let mut bits = [0u32; WAVE_SIZE];
    for (b, &v) in bits.iter_mut().zip(values) {
        *b = omod_clamp_f32(v, omod, clamp).to_bits();
    }
    write_u32(w, op, &bits);
}

/// Writes 64-bit results to the VGPR pair destination under EXEC.
#[inline]
pub fn write_u64(w: &mut Wave, op: &Op, values: &[u64; WAVE_SIZE]) {
    let mask = write_mask(w, op);
    let dst = op.vdst_row();
    let lo: Lanes = values.map(|v| v as u32);
    let hi: Lanes = values.map(|v| (v >> 32) as u32);
    write_vgpr(w, dst, &lo, mask);
    write_vgpr(w, dst + 1, &hi, mask);
}

/// Writes f64 results (output modifier and clamp applied).
#[inline]
pub fn write_f64(w: &mut Wave, op: &Op, values: &[f64; WAVE_SIZE]) {
    let m = &op.instr.mods;
    let bits = values.map(|x| omod_clamp_f64(x, m.omod, m.clamp).to_bits());
    write_u64(w, op, &bits);
}

/// The scalar destination's operand code: VCC for the 32-bit forms, SDST
/// for VOP3.
#[inline]
pub fn sdst_code(op: &Op) -> u16 {
    if op.sdst == u8::MAX {
        super::sreg::VCC
    } else {
        op.reg(usize::from(op.sdst))
    }
}

/// Writes a per-lane bit mask (a compare result or carry-out) to the
/// scalar destination ([`sdst_code`]). Inactive lanes get 0; returns the
/// mask written. A row with no scalar destination at all (GCN 1.5's
/// `v_cmpx_*`, which write EXEC alone) writes nothing here.
#[inline(always)]
pub fn write_sdst_mask(w: &mut Wave, op: &Op, bits: u64) -> u64 {
    let written = bits & write_mask(w, op);
    if op.sdst != u8::MAX || has_sdst(op) {
        w.set_lane_mask(sdst_code(op), written);
    }
    written
}

/// Whether the row has a scalar destination (VCC in its 32-bit forms).
fn has_sdst(op: &Op) -> bool {
    op.instr.row.operand(gcn_asm::isa::Field::Sdst).is_some()
}

/// Whether each lane is `step` past the one before (wrapping): the
/// addresses of a dense (coalesced) access.
#[inline]
pub fn steps_by(lanes: &Lanes, step: u32) -> bool {
    dense_rows(lanes, None, step)
}

/// Whether each lane of `lo` is `step` past the one before (wrapping) and
/// every lane of `hi`, when given, holds lane 0's value: the address rows
/// of a dense access, checked in one pass. No loop-carried value but the
/// OR, so the loops compile to vector code (AVX2 where the CPU has it).
#[inline]
pub fn dense_rows(lo: &Lanes, hi: Option<&Lanes>, step: u32) -> bool {
    #[cfg(target_arch = "x86_64")]
    if wide_vectors() {
        // SAFETY: the CPU has AVX2, the only requirement of the function.
        return unsafe { dense_rows_avx2(lo, hi, step) };
    }
    dense_rows_portable(lo, hi, step)
}

#[inline(always)]
fn dense_rows_portable(lo: &Lanes, hi: Option<&Lanes>, step: u32) -> bool {
    // Lane `l` against lane 0 plus `l * step` (the same as each lane
    // against the one before, wrapping): aligned whole-row loads, no
    // shifted view of the row with a scalar tail.
    let (lo0, hi0) = (lo[0], hi.map_or(0, |h| h[0]));
    let mut off = 0u32;
    for (l, &x) in lo.iter().enumerate() {
        off |= x ^ lo0.wrapping_add((l as u32).wrapping_mul(step));
    }
    if let Some(hi) = hi {
        for &h in hi {
            off |= h ^ hi0;
        }
    }
    off == 0
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dense_rows_avx2(lo: &Lanes, hi: Option<&Lanes>, step: u32) -> bool {
    dense_rows_portable(lo, hi, step)
}

/// Whether `lane` is on in the lane mask `exec`.
#[inline]
pub fn active(exec: u64, lane: usize) -> bool {
    exec >> lane & 1 != 0
}

/// Packs a per-lane predicate into a lane mask.
#[inline]
pub fn mask_of(pred: impl Fn(usize) -> bool) -> u64 {
    let flags: [u32; WAVE_SIZE] = std::array::from_fn(|lane| u32::from(pred(lane)));
    pack_mask(&flags)
}

/// Packs 64 lane flags (bit 0 of each) into a lane mask, a chunk at a
/// time ([`chunk_bits`]).
#[inline]
pub fn pack_mask(flags: &[u32; WAVE_SIZE]) -> u64 {
    let mut mask = 0u64;
    for (c, chunk) in flags.chunks_exact(CHUNK).enumerate() {
        let mut lanes = [0u32; CHUNK];
        lanes.copy_from_slice(chunk);
        mask |= chunk_bits(lanes) << (CHUNK * c);
    }
    mask
}

/// The lane flags (0 or 1) of each 4-bit group of a mask.
const NIBBLE_FLAGS: [[u32; 4]; 16] = {
    let mut table = [[0u32; 4]; 16];
    let mut n = 0;
    while n < 16 {
        let mut j = 0;
        while j < 4 {
            table[n][j] = (n as u32 >> j) & 1;
            j += 1;
        }
        n += 1;
    }
    table
};

/// Unpacks a lane mask into 64 lane flags (0 or 1), the inverse of
/// [`pack_mask`]: one 16-byte table copy per four lanes.
#[inline]
pub fn unpack_mask(mask: u64) -> [u32; WAVE_SIZE] {
    let mut flags = [0u32; WAVE_SIZE];
    for (g, chunk) in flags.chunks_exact_mut(4).enumerate() {
        chunk.copy_from_slice(&NIBBLE_FLAGS[(mask >> (4 * g)) as usize & 15]);
    }
    flags
}

/// Lanes per chunk of the streaming path: two 128-bit host vectors (one
/// 256-bit vector where the compiler may use one), a multiple of four.
pub const CHUNK: usize = 8;

/// One chunk of lanes of 32-bit values.
pub type Chunk = [u32; CHUNK];

/// A 32-bit source of the streaming path: a VGPR row, read chunk by chunk
/// in place, or one value every lane reads. The streaming path computes
/// and writes a chunk of lanes at a time, so a plain-form instruction never
/// copies its sources into 256-byte temporaries (which, fully unrolled,
/// spill the host's vector registers).
#[derive(Clone, Copy, Debug)]
pub enum Stream {
    /// VGPR `r`.
    Row(usize),
    /// A scalar, constant or literal, the same in every lane.
    Splat(u32),
}

impl Stream {
    /// Source slot `s` of a plain-form instruction (no DPP, no SDWA, no
    /// float modifiers).
    #[inline(always)]
    pub fn of(w: &Wave, op: &Op, s: usize) -> Stream {
        match op.slot_src(s) {
            Src::Vgpr(r) => Stream::Row(usize::from(r)),
            Src::Special(super::sreg::LDS_DIRECT) => Stream::Splat(0),
            other => Stream::Splat(w.read_s32(other)),
        }
    }
}

/// Whether `op` can take the streaming path: a plain form (no lane
/// permutation or selection) without abs/neg, clamp or omod.
#[inline(always)]
pub fn streams(op: &Op) -> bool {
    op.plain
}

/// Packs bit 0 of a chunk's lane flags into `CHUNK` mask bits: four lanes
/// per SSE2 `movmskps` on x86-64 (a loop of `flag << lane` would need
/// variable 64-bit shifts, which the baseline target cannot vectorise),
/// constant shifts elsewhere.
#[inline(always)]
pub fn chunk_bits(flags: Chunk) -> u64 {
    let mut bits = 0u64;
    for (g, four) in flags.chunks_exact(4).enumerate() {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{
                __m128i, _mm_castsi128_ps, _mm_loadu_si128, _mm_movemask_ps, _mm_slli_epi32,
            };
            // SAFETY: these intrinsics only need SSE2, which every x86-64
            // CPU has (it is in the target's baseline); the unaligned load
            // reads the 16 bytes of `four`, which `chunks_exact(4)` of `u32`
            // guarantees exist. `vector::tests::masks_pack_and_unpack` and
            // `streaming_matches_the_lane_loops` check the masks.
            let nibble = unsafe {
                let v = _mm_loadu_si128(four.as_ptr().cast::<__m128i>());
                _mm_movemask_ps(_mm_castsi128_ps(_mm_slli_epi32::<31>(v)))
            };
            bits |= (nibble as u64) << (4 * g);
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let nibble =
                (four[0] & 1) | (four[1] & 1) << 1 | (four[2] & 1) << 2 | (four[3] & 1) << 3;
            bits |= u64::from(nibble) << (4 * g);
        }
    }
    bits
}

/// The lane flags (0 or 1) of chunk `c` of `mask`.
#[inline(always)]
pub fn flags_of(mask: u64, c: usize) -> Chunk {
    let mut out = [0u32; CHUNK];
    for (g, four) in out.chunks_exact_mut(4).enumerate() {
        four.copy_from_slice(&NIBBLE_FLAGS[(mask >> (CHUNK * c + 4 * g)) as usize & 15]);
    }
    out
}

/// A chunk reader: a pointer to 64 lanes, a VGPR row or a row of copies
/// of a splat. Both advance one chunk per chunk: with a step known at
/// compile time, each read is one load at a constant offset in the
/// unrolled loops (a splat that stayed put would cost address arithmetic
/// per chunk and source, more than filling its 256-byte row once).
pub(super) struct Reader {
    ptr: *const u32,
}

impl Reader {
    /// # Safety
    /// `ptr .. ptr + WAVE_SIZE` must be readable and `c < WAVE_SIZE / CHUNK`.
    #[inline(always)]
    pub(super) unsafe fn chunk(&self, c: usize) -> Chunk {
        std::ptr::read_unaligned(self.ptr.add(CHUNK * c).cast::<Chunk>())
    }
}

/// The streaming path of a two-source operation: for each chunk `c` (lanes
/// `CHUNK * c ..` of the wave), `f(c, a, b)` gives the chunk's results and
/// lane flags (0 or 1); the results go to VGPR `dst` under `exec` as they
/// are made. Returns the flags as a lane mask, inactive lanes included.
#[inline(always)]
pub fn stream2(
    w: &mut Wave,
    dst: usize,
    a: Stream,
    b: Stream,
    exec: u64,
    f: impl Fn(usize, Chunk, Chunk) -> (Chunk, Chunk),
) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if wide_vectors() {
        // SAFETY: the CPU has AVX2, the only requirement of this function.
        return unsafe { stream2_avx2(w, dst, a, b, exec, f) };
    }
    stream2_portable(w, dst, a, b, exec, f)
}

/// [`stream2`] for the baseline target (two 128-bit vectors per chunk on
/// x86-64).
#[inline(always)]
fn stream2_portable(
    w: &mut Wave,
    dst: usize,
    a: Stream,
    b: Stream,
    exec: u64,
    f: impl Fn(usize, Chunk, Chunk) -> (Chunk, Chunk),
) -> u64 {
    const ALL: usize = WAVE_SIZE / CHUNK;
    const HALF: usize = ALL / 2;
    if exec == u64::MAX {
        // All lanes on (the common case): plain stores, no blend.
        stream_loop::<true, ALL>(w, dst, a, b, exec, f)
    } else if !w.wave32() {
        stream_loop::<false, ALL>(w, dst, a, b, exec, f)
    } else if exec == u64::from(u32::MAX) {
        // A wave32's lanes only: as many chunks per lane as in wave64.
        stream_loop::<true, HALF>(w, dst, a, b, exec, f)
    } else {
        stream_loop::<false, HALF>(w, dst, a, b, exec, f)
    }
}

/// [`stream2`] compiled for AVX2: a chunk is one host vector, and the
/// unsigned compares of carries and flags are single instructions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn stream2_avx2(
    w: &mut Wave,
    dst: usize,
    a: Stream,
    b: Stream,
    exec: u64,
    f: impl Fn(usize, Chunk, Chunk) -> (Chunk, Chunk),
) -> u64 {
    stream2_portable(w, dst, a, b, exec, f)
}

/// Whether [`stream2`] runs on 256-bit host vectors (AVX2), where every
/// 32-bit lane operation, variable shifts included, is one instruction.
#[inline(always)]
pub fn wide_vectors() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The streaming path of a one-source operation (see [`stream2`]).
#[inline(always)]
pub fn stream1(w: &mut Wave, dst: usize, a: Stream, exec: u64, f: impl Fn(Chunk) -> Chunk) {
    // The second source is never read: the compiler drops its loads.
    stream2(w, dst, a, Stream::Splat(0), exec, |_, a, _| {
        (f(a), [0; CHUNK])
    });
}

/// [`stream2`]'s loop; `FULL`: `exec` is all ones, so stores need no blend.
#[inline(always)]
fn stream_loop<const FULL: bool, const CHUNKS: usize>(
    w: &mut Wave,
    dst: usize,
    a: Stream,
    b: Stream,
    exec: u64,
    f: impl Fn(usize, Chunk, Chunk) -> (Chunk, Chunk),
) -> u64 {
    let rows = w.vgpr.len();
    assert!(
        dst < rows && a.row_below(rows) && b.row_below(rows),
        "the run loop's register check bounds every VGPR operand"
    );
    let base = w.vgpr.as_mut_ptr().cast::<u32>();
    let (mut splat_a, mut splat_b) = (MaybeUninit::uninit(), MaybeUninit::uninit());
    let (ra, rb) = (a.reader(base, &mut splat_a), b.reader(base, &mut splat_b));
    let mut mask = 0u64;
    for c in 0..CHUNKS.min(WAVE_SIZE / CHUNK) {
        // SAFETY: every pointer comes from `base` (the VGPR rows, one
        // allocation of `rows * 64` u32, with the row indices checked above)
        // or from the splats on this frame; no reference into the rows
        // lives during the loop. Lane `l` of the result depends only on
        // lane `l` of the sources, and each chunk is read before it is
        // written, so `dst` may be a source. `vector::tests::
        // streaming_matches_the_lane_loops` covers aliasing and every EXEC
        // nibble.
        unsafe {
            let (values, flags) = f(c, ra.chunk(c), rb.chunk(c));
            write_chunk::<FULL>(base, dst, c, values, exec);
            mask |= chunk_bits(flags) << (CHUNK * c);
        }
    }
    mask
}

impl Stream {
    /// Whether a row source is a VGPR below `rows` (a splat always is).
    #[inline(always)]
    fn row_below(self, rows: usize) -> bool {
        match self {
            Stream::Row(r) => r < rows,
            Stream::Splat(_) => true,
        }
    }

    /// The reader of this source over the rows at `base`; a splat's row
    /// of copies is written to `splat` (left untouched for a row).
    #[inline(always)]
    pub(super) fn reader(self, base: *mut u32, splat: &mut MaybeUninit<Lanes>) -> Reader {
        match self {
            Stream::Row(r) => Reader {
                ptr: base.wrapping_add(r * WAVE_SIZE),
            },
            Stream::Splat(v) => Reader {
                ptr: splat.write([v; WAVE_SIZE]).as_ptr(),
            },
        }
    }
}

/// Writes `values` to chunk `c` of row `dst` of the VGPR rows at `base`:
/// every lane when `FULL` (EXEC is all ones), else the lanes of `exec`.
///
/// # Safety
/// Row `dst` of `base` must be valid for reads and writes, and `c` below
/// `WAVE_SIZE / CHUNK`.
#[inline(always)]
pub(super) unsafe fn write_chunk<const FULL: bool>(
    base: *mut u32,
    dst: usize,
    c: usize,
    values: Chunk,
    exec: u64,
) {
    let out = base.add(dst * WAVE_SIZE + CHUNK * c).cast::<Chunk>();
    if FULL {
        std::ptr::write_unaligned(out, values);
    } else {
        store_chunk(out, values, exec, c);
    }
}

/// Stores `values` at `out` (chunk `c` of a row) for the lanes of `exec`,
/// branch-free, as [`blend_into`] does.
///
/// # Safety
/// `out` must be valid for reads and writes of a chunk.
#[inline(always)]
unsafe fn store_chunk(out: *mut Chunk, values: Chunk, exec: u64, c: usize) {
    let on = flags_of(exec, c);
    let old = std::ptr::read_unaligned(out);
    let mut merged = [0u32; CHUNK];
    for l in 0..CHUNK {
        let keep = on[l].wrapping_sub(1);
        merged[l] = (values[l] & !keep) | (old[l] & keep);
    }
    std::ptr::write_unaligned(out, merged);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dpp_lanes() {
        // quad_perm:[3,2,1,0]
        let ctrl = 3 | (2 << 2) | (1 << 4);
        assert_eq!(dpp_source_lane(ctrl, 4), Some(7));
        assert_eq!(dpp_source_lane(ctrl, 7), Some(4));
        // row_shl:1
        assert_eq!(dpp_source_lane(0x101, 14), Some(15));
        assert_eq!(dpp_source_lane(0x101, 15), None);
        // row_shr:2
        assert_eq!(dpp_source_lane(0x112, 17), None);
        assert_eq!(dpp_source_lane(0x112, 18), Some(16));
        // row_ror:1
        assert_eq!(dpp_source_lane(0x121, 16), Some(31));
        // wave_shr:1, wave_rol:1
        assert_eq!(dpp_source_lane(0x138, 0), None);
        assert_eq!(dpp_source_lane(0x134, 63), Some(0));
        // row_mirror, row_half_mirror
        assert_eq!(dpp_source_lane(0x140, 17), Some(30));
        assert_eq!(dpp_source_lane(0x141, 9), Some(14));
        // row_bcast:15, row_bcast:31
        assert_eq!(dpp_source_lane(0x142, 20), Some(15));
        assert_eq!(dpp_source_lane(0x142, 3), None);
        assert_eq!(dpp_source_lane(0x143, 40), Some(31));
        assert_eq!(dpp_source_lane(0x143, 20), None);
    }

    #[test]
    fn sdwa_selection_and_placement() {
        assert_eq!(sdwa_select(0x1234_80ff, 1, false), 0x80);
        assert_eq!(sdwa_select(0x1234_80ff, 1, true), 0xffff_ff80);
        assert_eq!(sdwa_select(0x8234_0000, 5, true), 0xffff_8234);
        assert_eq!(sdwa_place(0xab, 0x1111_1111, 2, 2), 0x11ab_1111);
        assert_eq!(sdwa_place(0xab, 0x1111_1111, 2, 0), 0x00ab_0000);
        assert_eq!(sdwa_place(0x80, 0, 0, 1), 0xffff_ff80);
        assert_eq!(sdwa_place(0x1234, 0, 5, 0), 0x1234_0000);
    }

    #[test]
    fn masks_pack_and_unpack() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut masks = vec![0, u64::MAX, 1, 1 << 63, 0x5555_5555_5555_5555];
        for _ in 0..1000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            masks.push(seed);
        }
        for mask in masks {
            let flags = unpack_mask(mask);
            for (lane, &f) in flags.iter().enumerate() {
                assert_eq!(f, (mask >> lane & 1) as u32, "lane {lane} of {mask:#x}");
            }
            assert_eq!(pack_mask(&flags), mask);
            // Only bit 0 of each flag counts.
            let noisy: [u32; WAVE_SIZE] = std::array::from_fn(|l| flags[l] | 0xfffe);
            assert_eq!(pack_mask(&noisy), mask);
            assert_eq!(mask_of(|l| mask >> l & 1 != 0), mask);
        }
    }

    /// `blend_into` writes exactly the lanes of its mask, on its whole-wave
    /// and low-half (wave32) paths alike.
    #[test]
    fn blends_write_the_lanes_of_the_mask() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut masks = vec![
            0,
            u64::MAX,
            u64::from(u32::MAX),
            1,
            0xffff,
            1 << 31,
            1 << 32,
        ];
        for _ in 0..200 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            masks.push(seed);
            masks.push(seed & u64::from(u32::MAX));
        }
        let values: Lanes = std::array::from_fn(|l| 1000 + l as u32);
        for mask in masks {
            let mut row: Lanes = std::array::from_fn(|l| l as u32);
            blend_into(&mut row, &values, mask);
            for l in 0..WAVE_SIZE {
                let want = if mask >> l & 1 != 0 {
                    values[l]
                } else {
                    l as u32
                };
                assert_eq!(row[l], want, "lane {l} of {mask:#x}");
            }
        }
    }

    /// The streaming path against a plain lane loop: every EXEC nibble,
    /// row and splat sources, and a destination that is also a source.
    #[test]
    fn streaming_matches_the_lane_loops() {
        let execs = [
            u64::MAX,
            0,
            0xfedc_ba98_7654_3210,
            0x0123_4567_89ab_cdef,
            0x8000_0000_0000_0001,
        ];
        let f = |_: usize, a: Chunk, b: Chunk| -> (Chunk, Chunk) {
            let mut r = [0; CHUNK];
            let mut flags = [0; CHUNK];
            for l in 0..CHUNK {
                r[l] = a[l].wrapping_mul(3) ^ b[l];
                flags[l] = u32::from(a[l] > b[l]);
            }
            (r, flags)
        };
        let sources = [
            (Stream::Row(0), Stream::Row(1)),
            (Stream::Splat(0x8000_0001), Stream::Row(1)),
            (Stream::Row(1), Stream::Splat(7)),
            (Stream::Splat(5), Stream::Splat(9)),
        ];
        for exec in execs {
            for (a, b) in sources {
                for dst in [0, 1, 2] {
                    let mut w = Wave::new(3, 8);
                    for (r, row) in w.vgpr.iter_mut().enumerate() {
                        *row =
                            std::array::from_fn(|l| (l as u32 + 1).wrapping_mul(0x9e37_79b9) >> r);
                    }
                    let before = w.vgpr.clone();
                    let at = |s: Stream, l: usize| match s {
                        Stream::Row(r) => before[r][l],
                        Stream::Splat(v) => v,
                    };
                    // Both builds of the loop: the one this CPU takes
                    // (AVX2 on most x86-64 hosts) and the baseline one.
                    let mut w0 = Wave::new(3, 8);
                    w0.vgpr.clone_from(&before);
                    let mask0 = stream2_portable(&mut w0, dst, a, b, exec, f);
                    let mask = stream2(&mut w, dst, a, b, exec, f);
                    assert_eq!(
                        (&w0.vgpr, mask0),
                        (&w.vgpr, mask),
                        "baseline and host builds"
                    );
                    for (l, &old) in before[dst].iter().enumerate() {
                        let (x, y) = (at(a, l), at(b, l));
                        let want = if exec >> l & 1 != 0 {
                            x.wrapping_mul(3) ^ y
                        } else {
                            old
                        };
                        assert_eq!(
                            w.vgpr[dst][l], want,
                            "lane {l}, exec {exec:#x}, {a:?} {b:?} -> v{dst}"
                        );
                        assert_eq!(mask >> l & 1 != 0, x > y, "flag of lane {l}");
                    }
                    for r in (0..3).filter(|&r| r != dst) {
                        assert_eq!(w.vgpr[r], before[r], "v{r} is not the destination");
                    }
                    let mut w1 = Wave::new(3, 8);
                    w1.vgpr.clone_from(&before);
                    stream1(&mut w1, dst, a, exec, |x| x.map(|v| !v));
                    for (l, &old) in before[dst].iter().enumerate() {
                        let want = if exec >> l & 1 != 0 { !at(a, l) } else { old };
                        assert_eq!(w1.vgpr[dst][l], want, "stream1 lane {l}");
                    }
                }
            }
        }
    }
}

/// Fused multiply-add of 64 f32 lanes, `a * b + c` rounded once.
///
/// Rust's `mul_add` is exact everywhere, but without the FMA instructions
/// enabled at compile time it calls a software routine that is an order of
/// magnitude slower than the rest of an instruction; so the hardware
/// instructions are used when the host CPU has them (checked at run time,
/// cached by the standard library).
#[inline]
#[cfg(test)]
pub fn fma_f32_lanes(
    a: &[f32; WAVE_SIZE],
    b: &[f32; WAVE_SIZE],
    c: &[f32; WAVE_SIZE],
) -> [f32; WAVE_SIZE] {
    let mut out = [0f32; WAVE_SIZE];
    fma_f32_lanes_into(a, b, c, &mut out);
    out
}

/// [`fma_f32_lanes`] into `out`.
#[inline]
pub fn fma_f32_lanes_into(
    a: &[f32; WAVE_SIZE],
    b: &[f32; WAVE_SIZE],
    c: &[f32; WAVE_SIZE],
    out: &mut [f32; WAVE_SIZE],
) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("fma") {
        // SAFETY: `fma_f32_x86` only needs the FMA instructions, which the
        // check above has just found on this CPU.
        unsafe { fma_f32_x86(a, b, c, out) };
        return;
    }
    for l in 0..WAVE_SIZE {
        out[l] = super::float::nan3_f32(a[l], b[l], c[l], a[l].mul_add(b[l], c[l]));
    }
}

/// `fma(S0, S1, S2)` over 64 f32 lanes in one pass — source selection,
/// abs/neg, input and output denormal flushing and the fused multiply-add
/// per lane — for the plain (VOP3) form in round-to-nearest-even; `None`
/// for any other form (the caller takes the general path). Separate passes
/// over 64-lane arrays cost more than the arithmetic (the ALU benchmark).
#[inline]
pub fn fma_f32_one_pass(
    w: &Wave,
    op: &Op,
    flush_in: bool,
    flush_out: bool,
    out: &mut [f32; WAVE_SIZE],
) -> Option<()> {
    if !plain_form(op) {
        return None;
    }
    let m = &op.instr.mods;
    // Rows of copies for the scalar sources only (no zeroing of all three:
    // a memset per instruction costs as much as a wave32's arithmetic).
    let mut fills = [MaybeUninit::<Lanes>::uninit(); 3];
    let mut and = [u32::MAX; 3];
    let mut xor = [0u32; 3];
    for s in 0..3 {
        if m.abs >> s & 1 != 0 {
            and[s] = 0x7fff_ffff;
        }
        if m.neg >> s & 1 != 0 {
            xor[s] = 0x8000_0000;
        }
    }
    let [f0, f1, f2] = &mut fills;
    let a = source_row(w, op.slot_src(0), f0);
    let b = source_row(w, op.slot_src(1), f1);
    let c = source_row(w, op.slot_src(2), f2);
    // A wave32 computes its 32 lanes only (the others are never written).
    if w.wave32() {
        fma_lanes::<32>(a, b, c, and, xor, flush_in, flush_out, out);
    } else {
        fma_lanes::<WAVE_SIZE>(a, b, c, and, xor, flush_in, flush_out, out);
    }
    Some(())
}

/// [`fma_pass`] over lanes `0..N`, compiled for FMA and AVX2 when the CPU
/// has them.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn fma_lanes<const N: usize>(
    a: &Lanes,
    b: &Lanes,
    c: &Lanes,
    and: [u32; 3],
    xor: [u32; 3],
    flush_in: bool,
    flush_out: bool,
    out: &mut [f32; WAVE_SIZE],
) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("fma") && std::is_x86_feature_detected!("avx2") {
        // SAFETY: `fma_pass_avx2` only needs AVX2 and FMA, which the
        // checks above have just found on this CPU.
        unsafe { fma_pass_avx2::<N>(a, b, c, and, xor, flush_in, flush_out, out) };
        return;
    }
    fma_pass::<N>(a, b, c, and, xor, flush_in, flush_out, out);
}

/// The lanes of source `src`: its VGPR row, or `fill` made a row of copies
/// of a scalar value (LDS_DIRECT, which a plain VOP3 form cannot name,
/// reads 0).
#[inline(always)]
fn source_row<'a>(w: &'a Wave, src: Src, fill: &'a mut MaybeUninit<Lanes>) -> &'a Lanes {
    match src {
        Src::Vgpr(r) => &w.vgpr[usize::from(r)],
        Src::Special(super::sreg::LDS_DIRECT) => fill.write([0; WAVE_SIZE]),
        other => fill.write([w.read_s32(other); WAVE_SIZE]),
    }
}

/// The body of [`fma_f32_one_pass`] over lanes `0..N`, compiled per
/// target.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn fma_pass<const N: usize>(
    a: &Lanes,
    b: &Lanes,
    c: &Lanes,
    and: [u32; 3],
    xor: [u32; 3],
    flush_in: bool,
    flush_out: bool,
    out: &mut [f32; WAVE_SIZE],
) {
    // A zero exponent keeps only the sign: denormals become signed zeros
    // (as `float::flush_f32`), as a select so the loop vectorizes.
    let flush = |x: u32, on: bool| {
        if on && x & 0x7f80_0000 == 0 {
            x & 0x8000_0000
        } else {
            x
        }
    };
    for l in 0..N.min(WAVE_SIZE) {
        let x = f32::from_bits(flush((a[l] & and[0]) ^ xor[0], flush_in));
        let y = f32::from_bits(flush((b[l] & and[1]) ^ xor[1], flush_in));
        let z = f32::from_bits(flush((c[l] & and[2]) ^ xor[2], flush_in));
        let r = super::float::nan3_f32(x, y, z, x.mul_add(y, z));
        out[l] = f32::from_bits(flush(r.to_bits(), flush_out));
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[allow(clippy::too_many_arguments)]
fn fma_pass_avx2<const N: usize>(
    a: &Lanes,
    b: &Lanes,
    c: &Lanes,
    and: [u32; 3],
    xor: [u32; 3],
    flush_in: bool,
    flush_out: bool,
    out: &mut [f32; WAVE_SIZE],
) {
    fma_pass::<N>(a, b, c, and, xor, flush_in, flush_out, out)
}

/// Fused multiply-add of 64 f64 lanes (see [`fma_f32_lanes`]).
#[inline]
pub fn fma_f64_lanes(
    a: &[f64; WAVE_SIZE],
    b: &[f64; WAVE_SIZE],
    c: &[f64; WAVE_SIZE],
) -> [f64; WAVE_SIZE] {
    let mut out = [0f64; WAVE_SIZE];
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("fma") {
        // SAFETY: as in `fma_f32_lanes`: the CPU has the FMA instructions.
        unsafe { fma_f64_x86(a, b, c, &mut out) };
        return out;
    }
    for l in 0..WAVE_SIZE {
        out[l] = a[l].mul_add(b[l], c[l]);
    }
    out
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
fn fma_f32_x86(
    a: &[f32; WAVE_SIZE],
    b: &[f32; WAVE_SIZE],
    c: &[f32; WAVE_SIZE],
    out: &mut [f32; WAVE_SIZE],
) {
    for l in 0..WAVE_SIZE {
        out[l] = super::float::nan3_f32(a[l], b[l], c[l], a[l].mul_add(b[l], c[l]));
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
fn fma_f64_x86(
    a: &[f64; WAVE_SIZE],
    b: &[f64; WAVE_SIZE],
    c: &[f64; WAVE_SIZE],
    out: &mut [f64; WAVE_SIZE],
) {
    for l in 0..WAVE_SIZE {
        out[l] = a[l].mul_add(b[l], c[l]);
    }
}

#[cfg(test)]
mod fma_tests {
    use super::*;

    #[test]
    fn hardware_and_software_fma_agree_on_single_rounding_cases() {
        // a*b+c where a separate multiply and add would round twice.
        let x = 1.0f32 + f32::EPSILON;
        let cases = [
            (x, x, -1.0f32),
            (f32::MAX, 2.0, -f32::MAX),
            (1e-30, 1e-30, 0.0),
            (f32::INFINITY, 0.0, 1.0),
            (-0.0, 0.0, -0.0),
        ];
        let mut a = [0f32; WAVE_SIZE];
        let mut b = [0f32; WAVE_SIZE];
        let mut c = [0f32; WAVE_SIZE];
        for (i, &(x, y, z)) in cases.iter().enumerate() {
            a[i] = x;
            b[i] = y;
            c[i] = z;
        }
        let r = fma_f32_lanes(&a, &b, &c);
        for (i, &(x, y, z)) in cases.iter().enumerate() {
            let want = x.mul_add(y, z);
            assert!(
                r[i].to_bits() == want.to_bits() || (r[i].is_nan() && want.is_nan()),
                "case {i}"
            );
        }
        // The single rounding is visible: (1+e)^2 - 1 = 2e + e^2 exactly.
        assert_eq!(r[0], 2.0 * f32::EPSILON + f32::EPSILON * f32::EPSILON);
        let d = fma_f64_lanes(&[1.5; WAVE_SIZE], &[2.0; WAVE_SIZE], &[0.25; WAVE_SIZE]);
        assert_eq!(d[63], 3.25);
    }
}
