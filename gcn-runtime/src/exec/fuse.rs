//! Superinstructions: the 64-bit address idiom run as one step of the loop.
//!
//! Compiled GCN code (LLVM's, and most hand-written kernels) forms every
//! per-lane 64-bit address the same way: an add with a carry-out into the
//! low dword, then an add with that carry into the high dword, often after
//! a move of the base's high half into the high register:
//!
//! ```text
//! v_mov_b32  v5, s9                 ; optional
//! v_add_u32  v4, vcc, s8, v0        ; v_add_i32 / v_add_co_u32
//! v_addc_u32 v5, vcc, v5, 0, vcc    ; v_addc_co_u32
//! ```
//!
//! GCN 1.5 and RDNA 2 spell it `v_add_co_u32 v4, vcc_lo, s8, v0` (VOP3)
//! and `v_add_co_ci_u32 v5, vcc_lo, s9, v5, vcc_lo`, in wave32 with the
//! carry in one SGPR (written with [`Wave::set_lane_mask`]).
//!
//! Run one by one, each instruction pays the loop's dispatch, a pass over
//! its 64 lanes, and the carry packed into VCC only to be unpacked again
//! by the next. `fuse` marks the first instruction of such a run, at
//! pre-decode, with a second handler ([`Op::fast`]) that runs the whole
//! run in one pass, eight lanes at a time through every part, with the
//! carry kept as lane flags in between. Its results are those of the
//! instructions in order, bit for bit:
//!
//! - every part is lane-local (lane `l` of a result reads lane `l` of its
//!   sources); the move runs first over all lanes, then each chunk of
//!   lanes runs the two adds in order, so a part reads the rows earlier
//!   parts wrote, aliasing included;
//! - the parts write no scalar state but the carries, which are written
//!   in order at the end: the second add reads its carry-in only from the
//!   first's carry-out, and reads no other scalar register that a carry
//!   overwrites (else the run is not fused), and no carry is EXEC;
//! - each part is a plain form (no DPP, SDWA or modifiers), and the
//!   semantics are the single instructions' own (`valu_int::add_chunk`).
//!
//! The run's operands are resolved at pre-decode; in the common shapes
//! (splat-plus-row adds) the splat is a host vector constant, and any other
//! splat is read through a row of copies.
//!
//! The loop accounts each part as its own instruction (step budget, step
//! and lane-op counts, register limits). When any of that would stop
//! inside the run (the budget, a register beyond the allocation) or GPR
//! indexing is on, the first instruction runs alone and the loop goes on
//! as usual. Only [`super::run_wave`] uses the fast handlers: the checked
//! loop calls every instruction's hook, and a branch into the middle of a
//! run lands on an instruction that runs unfused (or starts a shorter
//! run).

use std::mem::MaybeUninit;
use std::sync::Arc;

use super::valu_int::{self, AddressPart};
use super::vector::{write_chunk, Chunk, Stream, CHUNK};
use super::{sreg, Decoded, Env, Fault, Handler, Op, Src, Step, Wave, WAVE_SIZE};

/// Gives the first instruction of each fusable run its superinstruction
/// ([`Op::fast`] and the run resolved in `Op::fused`); every other op keeps
/// its own handler.
/// A fused op is the word's own copy: the op it started from may be shared
/// with words whose neighbours differ.
pub(super) fn fuse(ops: &mut Decoded) {
    for i in 0..ops.words() {
        let Some(run) = run_at(ops, i) else {
            continue;
        };
        if let Some(op) = ops.get(i) {
            let mut op = op.clone();
            op.fast = handler_for(&run);
            op.fused = Some(Arc::new(run));
            ops.index[i] = ops.ops.len() as u32;
            ops.ops.push(op);
        }
    }
}

/// A run after its first instruction, resolved at pre-decode: what the
/// superinstruction reads and writes, and what the loop would account for
/// its other instructions.
#[derive(Debug)]
pub(crate) struct FusedRun {
    /// The move (destination row, source), when the run starts with one.
    mov: Option<(usize, Lane)>,
    /// The add with carry-out: destination row, sources.
    lo: (usize, Lane, Lane),
    /// The add with carry-in: destination row, sources.
    hi: (usize, Lane, Lane),
    /// Scalar destinations (operand codes) of the two carries.
    carry_lo: u16,
    carry_hi: u16,
    /// Instructions after the first.
    more: u64,
    /// Their bytes.
    len: u32,
    /// One past the highest VGPR and general SGPR they name.
    vgpr_end: u16,
    sgpr_end: u16,
    /// The highest VGPR row any part reads or writes.
    max_row: usize,
}

/// A part's 32-bit source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lane {
    /// VGPR row.
    Row(usize),
    /// A scalar register (operand code below 128), the same in every lane.
    Scalar(usize),
    /// A constant or literal.
    Value(u32),
}

impl Lane {
    /// Source slot `s` of `op`, if the run can read it ahead of time.
    fn of(op: &Op, s: usize) -> Option<Lane> {
        match op.slot_src(s) {
            Src::Vgpr(r) => Some(Lane::Row(usize::from(r))),
            Src::Sgpr(r) => Some(Lane::Scalar(usize::from(r) & 127)),
            Src::Imm(v) => Some(Lane::Value(v as u32)),
            Src::Special(_) | Src::None => None,
        }
    }

    fn is_row(self) -> bool {
        matches!(self, Lane::Row(_))
    }

    /// The row of a [`Lane::Row`] (0 otherwise, where it bounds nothing).
    #[inline(always)]
    fn row(self) -> usize {
        match self {
            Lane::Row(r) => r,
            _ => 0,
        }
    }

    /// A splat's value (0 for a row, which a caller reads as a row).
    #[inline(always)]
    fn value(self, w: &Wave) -> u32 {
        match self {
            Lane::Row(_) => 0,
            Lane::Scalar(r) => w.sgpr[r],
            Lane::Value(v) => v,
        }
    }

    #[inline(always)]
    fn stream(self, w: &Wave) -> Stream {
        match self {
            Lane::Row(r) => Stream::Row(r),
            Lane::Scalar(r) => Stream::Splat(w.sgpr[r]),
            Lane::Value(v) => Stream::Splat(v),
        }
    }
}

/// The run that starts at word `i`, if one does.
fn run_at(ops: &Decoded, i: usize) -> Option<FusedRun> {
    let first = ops.get(i)?;
    let second = next(ops, i, first)?;
    match part_of(first)? {
        AddressPart::Move => {
            let third = next(ops, i + usize::from(first.len / 4), second)?;
            let mov = (first.vdst_row(), Lane::of(first, 0)?);
            add64_run(Some(mov), &[second, third])
        }
        AddressPart::AddCarryOut => add64_run(None, &[first, second]),
        AddressPart::AddCarryIn => None,
    }
}

/// The op right after `op` (at word `i`).
fn next<'a>(ops: &'a Decoded, i: usize, op: &Op) -> Option<&'a Op> {
    ops.get(i + usize::from(op.len / 4))
}

/// The part `op` can play: a plain form of an [`AddressPart`] row with a
/// VGPR destination.
fn part_of(op: &Op) -> Option<AddressPart> {
    let part = valu_int::address_part(op.instr.row)?;
    let vdst = op.opnd.get(usize::from(op.vdst))?;
    (op.plain && matches!(vdst, Src::Vgpr(_))).then_some(part)
}

/// The run of `mov` (if any) and the adds `[lo, hi]`, when `lo` is an add
/// with carry-out and `hi` an add with carry-in that reads it, under the
/// conditions of the module docs. `adds` are the instructions after the
/// first of the run (the first is `lo` when there is no move).
fn add64_run(mov: Option<(usize, Lane)>, adds: &[&Op; 2]) -> Option<FusedRun> {
    let [lo, hi] = *adds;
    if part_of(lo) != Some(AddressPart::AddCarryOut) || part_of(hi) != Some(AddressPart::AddCarryIn)
    {
        return None;
    }
    let carry = super::vector::sdst_code(lo);
    let overlaps_carry = |code: u16| code & 127 == carry || code & 127 == (carry + 1) & 127;
    if overlaps_carry(sreg::EXEC) || overlaps_carry(sreg::EXEC + 1) {
        return None;
    }
    if hi.slot_src(2) != Src::Sgpr(carry) || lo.slot_src(2) != Src::None {
        return None;
    }
    // The high add's other sources are read before the low add's carry is
    // written: they must not be that carry.
    if (0..2).any(|s| matches!(hi.slot_src(s), Src::Sgpr(r) if overlaps_carry(r))) {
        return None;
    }
    let after_first: &[&Op] = if mov.is_some() { adds } else { &adds[1..] };
    // Both adds are commutative (the carry-out too): put the low add's
    // splat first and the high add's last, the common shapes that
    // [`handler_for`] reads as constants.
    let (mut lo_a, mut lo_b) = (Lane::of(lo, 0)?, Lane::of(lo, 1)?);
    if lo_a.is_row() && !lo_b.is_row() {
        (lo_a, lo_b) = (lo_b, lo_a);
    }
    let (mut hi_a, mut hi_b) = (Lane::of(hi, 0)?, Lane::of(hi, 1)?);
    if !hi_a.is_row() && hi_b.is_row() {
        (hi_a, hi_b) = (hi_b, hi_a);
    }
    let lanes = [mov.map_or(Lane::Value(0), |m| m.1), lo_a, lo_b, hi_a, hi_b];
    let dsts = [mov.map_or(0, |m| m.0), lo.vdst_row(), hi.vdst_row()];
    let max_row = lanes.iter().map(|l| l.row()).chain(dsts).max().unwrap_or(0);
    Some(FusedRun {
        mov,
        lo: (lo.vdst_row(), lo_a, lo_b),
        hi: (hi.vdst_row(), hi_a, hi_b),
        max_row,
        carry_lo: carry,
        carry_hi: super::vector::sdst_code(hi),
        more: after_first.len() as u64,
        len: after_first.iter().map(|op| u32::from(op.len)).sum(),
        vgpr_end: after_first.iter().map(|op| op.vgpr_end).max().unwrap_or(0),
        sgpr_end: after_first.iter().map(|op| op.sgpr_end).max().unwrap_or(0),
    })
}

/// `op`'s run, accounted as the loop would account each of its other
/// instructions, with the PC past them; `None`, with nothing changed, when
/// the loop would stop inside the run (the step budget, a register beyond
/// the allocation) or GPR indexing is on.
#[inline(always)]
fn admit<'a>(w: &mut Wave, op: &'a Op) -> Option<&'a FusedRun> {
    let run = op.fused.as_deref()?;
    if w.budget < run.more
        || w.mode & super::MODE_GPR_IDX_EN != 0
        || run.vgpr_end > w.vgpr_limit
        || run.sgpr_end > w.sgpr_limit
    {
        return None;
    }
    w.budget -= run.more;
    w.steps += run.more;
    w.lane_ops += run.more * u64::from(w.exec().count_ones());
    w.pc = w.pc.wrapping_add(run.len);
    Some(run)
}

/// The superinstruction handler for `run`'s shape: the common shapes
/// (after [`add64_run`]'s swaps, a low add of a splat and a row, a high add
/// of a row and a splat) read their splat as a host vector constant; any
/// other source is read through a row, a splat's row of copies when it is
/// one.
fn handler_for(run: &FusedRun) -> Handler {
    let lo_splat = !run.lo.1.is_row() && run.lo.2.is_row();
    let hi_splat = run.hi.1.is_row() && !run.hi.2.is_row();
    match (lo_splat, hi_splat) {
        (false, false) => run_fused::<false, false>,
        (false, true) => run_fused::<false, true>,
        (true, false) => run_fused::<true, false>,
        (true, true) => run_fused::<true, true>,
    }
}

/// The superinstruction ([`Op::fast`] of a run's first instruction):
/// `LO_SPLAT`, the low add's first source is a splat and its second a row;
/// `HI_SPLAT`, the high add's first source is a row and its second a splat
/// ([`handler_for`]). When the loop would stop inside the run (the step
/// budget, a register beyond the allocation) or GPR indexing is on, it runs
/// the first instruction alone.
fn run_fused<const LO_SPLAT: bool, const HI_SPLAT: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Step, Fault> {
    let Some(run) = admit(w, op) else {
        return (op.handler)(w, op, env);
    };
    let exec = w.exec();
    let (carry_lo, carry_hi) = chunks::<LO_SPLAT, HI_SPLAT>(w, run, exec);
    w.set_lane_mask(run.carry_lo, carry_lo & exec);
    w.set_lane_mask(run.carry_hi, carry_hi & exec);
    Ok(Step::Next)
}

/// [`chunks_loop`], built for AVX2 where the host has it (as
/// [`super::vector::stream2`] is).
#[inline(always)]
fn chunks<const LO_SPLAT: bool, const HI_SPLAT: bool>(
    w: &mut Wave,
    run: &FusedRun,
    exec: u64,
) -> (u64, u64) {
    #[cfg(target_arch = "x86_64")]
    if super::vector::wide_vectors() {
        // SAFETY: the CPU has AVX2, the only requirement of the function.
        return unsafe { chunks_avx2::<LO_SPLAT, HI_SPLAT>(w, run, exec) };
    }
    chunks_portable::<LO_SPLAT, HI_SPLAT>(w, run, exec)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn chunks_avx2<const LO_SPLAT: bool, const HI_SPLAT: bool>(
    w: &mut Wave,
    run: &FusedRun,
    exec: u64,
) -> (u64, u64) {
    chunks_portable::<LO_SPLAT, HI_SPLAT>(w, run, exec)
}

#[inline(always)]
fn chunks_portable<const LO_SPLAT: bool, const HI_SPLAT: bool>(
    w: &mut Wave,
    run: &FusedRun,
    exec: u64,
) -> (u64, u64) {
    if exec == u64::MAX {
        chunks_loop::<LO_SPLAT, HI_SPLAT, true>(w, run, exec)
    } else {
        chunks_loop::<LO_SPLAT, HI_SPLAT, false>(w, run, exec)
    }
}

/// The move as its own pass, then the two adds chunk by chunk; returns
/// their carries (inactive lanes included). `FULL`: EXEC is all ones.
#[inline(always)]
fn chunks_loop<const LO_SPLAT: bool, const HI_SPLAT: bool, const FULL: bool>(
    w: &mut Wave,
    run: &FusedRun,
    exec: u64,
) -> (u64, u64) {
    let (lo_dst, lo_a, lo_b) = run.lo;
    let (hi_dst, hi_a, hi_b) = run.hi;
    let lo_a_value = [lo_a.value(w); CHUNK];
    let hi_b_value = [hi_b.value(w); CHUNK];
    // The sources read through rows: a VGPR, or a splat's row of copies
    // (written only for a splat). A source the shape reads as a constant
    // gets row 0's reader, never read.
    let lo_a = if LO_SPLAT { Lane::Row(0) } else { lo_a }.stream(w);
    let lo_b = lo_b.stream(w);
    let hi_a = hi_a.stream(w);
    let hi_b = if HI_SPLAT { Lane::Row(0) } else { hi_b }.stream(w);
    assert!(
        run.max_row < w.vgpr.len(),
        "the register checks bound every VGPR operand of a run"
    );
    let base = w.vgpr.as_mut_ptr().cast::<u32>();
    let mut splats = [MaybeUninit::uninit(); 4];
    let [s_lo_a, s_lo_b, s_hi_a, s_hi_b] = &mut splats;
    let r_lo_a = lo_a.reader(base, s_lo_a);
    let r_lo_b = lo_b.reader(base, s_lo_b);
    let r_hi_a = hi_a.reader(base, s_hi_a);
    let r_hi_b = hi_b.reader(base, s_hi_b);
    // SAFETY (stores, and the reads below): every row is at most
    // `max_row`, below the row count (checked above), or a row of copies on
    // this frame, and `c < 8`, so each chunk lies inside its allocation; no
    // reference into the rows lives during the loops. Each part reads its
    // chunk after the parts before it wrote theirs, so a part sees earlier
    // results exactly as when the instructions run one by one.
    let store = |dst: usize, c: usize, values: Chunk| unsafe {
        write_chunk::<FULL>(base, dst, c, values, exec);
    };
    // The whole move first: it is the first instruction, and the adds read
    // what it wrote (a pass of its own keeps the adds' loop vectorised).
    match run.mov {
        None => {}
        Some((dst, Lane::Row(r))) => {
            let from = Stream::Row(r).reader(base, &mut MaybeUninit::uninit());
            for c in 0..WAVE_SIZE / CHUNK {
                store(dst, c, unsafe { from.chunk(c) });
            }
        }
        Some((dst, splat)) => {
            let value = [splat.value(w); CHUNK];
            for c in 0..WAVE_SIZE / CHUNK {
                store(dst, c, value);
            }
        }
    }
    let (mut carry_lo, mut carry_hi) = (0u64, 0u64);
    for c in 0..WAVE_SIZE / CHUNK {
        let (a, b) = unsafe {
            let a = if LO_SPLAT {
                lo_a_value
            } else {
                r_lo_a.chunk(c)
            };
            (a, r_lo_b.chunk(c))
        };
        let (sum, carry) = valu_int::add_chunk::<false, false>(a, b, [0; CHUNK]);
        store(lo_dst, c, sum);
        let (a, b) = unsafe {
            let b = if HI_SPLAT {
                hi_b_value
            } else {
                r_hi_b.chunk(c)
            };
            (r_hi_a.chunk(c), b)
        };
        let (sum_hi, carry2) = valu_int::add_chunk::<false, true>(a, b, carry);
        store(hi_dst, c, sum_hi);
        carry_lo |= super::vector::chunk_bits(carry) << (CHUNK * c);
        carry_hi |= super::vector::chunk_bits(carry2) << (CHUNK * c);
    }
    (carry_lo, carry_hi)
}

#[cfg(test)]
mod tests {
    use gcn_asm::GcnVersion;

    use super::super::testing::ops_of;
    use super::super::{run_wave, run_wave_checked, Env, FaultKind, NoHook, Step, Wave};
    use super::*;
    use crate::memory::Memory;

    /// Runs `ops` on `wave` to the end or a fault, fused ([`run_wave`]) or
    /// one instruction at a time ([`run_wave_checked`]).
    fn run(version: GcnVersion, ops: &Decoded, mut wave: Wave, fused: bool) -> Wave {
        let memory = Memory::default();
        let view = memory.view();
        let mut lds = vec![0u8; 1024];
        let mut env = Env {
            mem: &view,
            lds: &mut lds,
            version,
            code_base: 0x1000,
            scratch: (0, 0),
            log: None,
            hostcall: None,
            tier: crate::exec::tier::TierMode::Off,
        };
        loop {
            let step = if fused {
                run_wave(&mut wave, ops, &mut env)
            } else {
                run_wave_checked(&mut wave, ops, &mut env, &mut NoHook)
            };
            match step {
                Ok(Step::End) => return wave,
                Ok(_) => {}
                Err(f) => {
                    // Keep the fault in the wave's state for comparison.
                    wave.status = 0xdead;
                    wave.trapsts = match f.kind {
                        FaultKind::StepBudget(_) => 1,
                        FaultKind::Register(_) => 2,
                        _ => 3,
                    };
                    return wave;
                }
            }
        }
    }

    /// A wave with pseudo-random registers (carries in about half the
    /// lanes), `exec` and `budget`.
    fn wave(seed: u32, vgprs: u16, exec: u64, budget: u64) -> Wave {
        let mut w = Wave::new(vgprs, 104);
        let mut x = seed.wrapping_mul(0x9e37_79b9) | 1;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            // Either near the top of the range (carries) or small.
            if x & 1 == 0 {
                x | 0xf000_0000
            } else {
                x >> 8
            }
        };
        for row in w.vgpr.iter_mut() {
            for v in row.iter_mut() {
                *v = next();
            }
        }
        for s in w.sgpr.iter_mut().take(104) {
            *s = next();
        }
        w.set_vcc(u64::from(next()) << 32 | u64::from(next()));
        w.set_exec(exec);
        w.budget = budget;
        w
    }

    fn assert_same(a: &Wave, b: &Wave, what: &str) {
        assert_eq!(a.pc, b.pc, "{what}: pc");
        assert_eq!(a.sgpr, b.sgpr, "{what}: sgprs");
        assert_eq!(a.vgpr, b.vgpr, "{what}: vgprs");
        assert_eq!(
            (a.steps, a.lane_ops, a.budget, a.status, a.trapsts),
            (b.steps, b.lane_ops, b.budget, b.status, b.trapsts),
            "{what}: accounting, fault"
        );
    }

    /// The fused runs give what the instructions one by one give, over
    /// random registers and EXEC masks, for each version's mnemonics, with
    /// the VOP3 forms, aliasing between the parts, and the step budget or
    /// a register beyond the allocation stopping inside a run.
    #[test]
    fn superinstructions_match_the_instructions_one_by_one() {
        let forms = |add: &str, addc: &str| {
            vec![
                // The vector-add kernel's idiom, then the same without the move.
                format!("v_mov_b32 v5, s9\n{add} v4, vcc, s8, v0\n{addc} v5, vcc, v5, 0, vcc"),
                format!("{add} v4, vcc, v1, v0\n{addc} v5, vcc, v3, v2, vcc"),
                // The move writes what the adds read; the high add reads the low sum.
                format!("v_mov_b32 v1, v0\n{add} v0, vcc, s8, v1\n{addc} v1, vcc, v1, v0, vcc"),
                // Destinations that are sources of the same part.
                format!("{add} v0, vcc, v0, v0\n{addc} v0, vcc, v0, v0, vcc"),
                // VOP3: the carry in an SGPR pair, another pair out; constants.
                format!("{add} v6, s[10:11], v1, v8\n{addc} v7, s[12:13], v2, 17, s[10:11]"),
                format!("{add} v6, s[10:11], -1, v1\n{addc} v7, s[10:11], -16, v2, s[10:11]"),
                // Splats only (read through rows of copies).
                format!("{add} v6, s[10:11], s8, 5\n{addc} v7, s[10:11], 0, -1, s[10:11]"),
                // A move of a constant, then adds whose carry the next run reads.
                format!(
                    "v_mov_b32 v2, 1\n{add} v3, vcc, v2, v1\n{addc} v4, vcc, v4, 0, vcc\n\
                     {add} v5, vcc, v3, v3\n{addc} v6, vcc, v4, v4, vcc"
                ),
            ]
        };
        let versions = [
            (GcnVersion::Gcn1_0, "v_add_i32", "v_addc_u32"),
            (GcnVersion::Gcn1_1, "v_add_i32", "v_addc_u32"),
            (GcnVersion::Gcn1_2, "v_add_u32", "v_addc_u32"),
            (GcnVersion::Gcn1_4, "v_add_co_u32", "v_addc_co_u32"),
        ];
        let execs = [
            u64::MAX,
            0,
            0x8000_0000_0000_0001,
            0x0123_4567_89ab_cdef,
            0xffff_0000_ffff_0000,
        ];
        for (version, add, addc) in versions {
            for source in forms(add, addc) {
                let ops = ops_of(version, &source);
                assert!(
                    (0..ops.words()).any(|i| run_at(&ops, i).is_some()),
                    "{version}: nothing fuses in\n{source}"
                );
                for (seed, &exec) in execs.iter().enumerate() {
                    for budget in [u64::MAX, 1, 2, 3, 4] {
                        for vgprs in [16, 5] {
                            let w = wave(seed as u32 + 1, vgprs, exec, budget);
                            let fused = run(version, &ops, w.clone(), true);
                            let single = run(version, &ops, w, false);
                            assert_same(
                                &fused,
                                &single,
                                &format!("{version} exec {exec:#x} budget {budget} vgprs {vgprs}:\n{source}"),
                            );
                        }
                    }
                }
            }
        }
    }

    /// GCN 1.5 and RDNA 2: LLVM's address idiom (`v_add_co_u32` VOP3 with
    /// a carry-out, `v_add_co_ci_u32` reading it) fuses, in wave64 (carry
    /// in an SGPR pair) and wave32 (carry in one SGPR, the next one kept),
    /// and gives what the instructions one by one give.
    #[test]
    fn gfx10_address_idiom_fuses_in_both_wave_sizes() {
        let forms = |cc: &str, pair: &str, pair2: &str| {
            vec![
                format!("v_add_co_u32 v4, {cc}, s8, v0\nv_add_co_ci_u32 v5, {cc}, s9, v5, {cc}"),
                format!(
                    "v_mov_b32 v5, s9\nv_add_co_u32 v4, {cc}, s8, v0\n\
                     v_add_co_ci_u32 v5, {cc}, 0, v5, {cc}"
                ),
                format!(
                    "v_add_co_u32 v6, {pair}, v1, v8\nv_add_co_ci_u32 v7, {pair2}, v2, 17, {pair}"
                ),
                format!("v_add_co_u32 v0, {cc}, v0, v0\nv_add_co_ci_u32 v0, {cc}, v0, v0, {cc}"),
            ]
        };
        let execs = [u64::MAX, 0x8000_0000_0000_0001, 0x0123_4567_89ab_cdef];
        for version in [GcnVersion::Gcn1_5, GcnVersion::Rdna2] {
            for wave32 in [false, true] {
                let sources = if wave32 {
                    forms("vcc_lo", "s10", "s12")
                } else {
                    forms("vcc", "s[10:11]", "s[12:13]")
                };
                for source in sources {
                    let ops = super::super::testing::ops_of_waves(version, wave32, &source);
                    assert!(
                        (0..ops.words()).any(|i| run_at(&ops, i).is_some()),
                        "{version} wave32 {wave32}: nothing fuses in\n{source}"
                    );
                    for (seed, &exec) in execs.iter().enumerate() {
                        for budget in [u64::MAX, 1, 2] {
                            let mut w = wave(seed as u32 + 7, 16, exec, budget);
                            w.set_wave32(wave32);
                            w.set_exec(exec);
                            let fused = run(version, &ops, w.clone(), true);
                            let single = run(version, &ops, w.clone(), false);
                            let what = format!(
                                "{version} wave32 {wave32} exec {exec:#x} budget {budget}:\n{source}"
                            );
                            assert_same(&fused, &single, &what);
                            if wave32 && budget == u64::MAX {
                                // The carries are single SGPRs: VCC_HI, s11
                                // and s13 keep their values; lanes 32-63
                                // of the sums are not written.
                                for code in [107usize, 11, 13] {
                                    assert_eq!(single.sgpr[code], w.sgpr[code], "{what}: s{code}");
                                }
                                for r in 0..16 {
                                    assert_eq!(
                                        single.vgpr[r][32..],
                                        w.vgpr[r][32..],
                                        "{what}: v{r} lanes 32-63"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Runs whose parts do not meet the conditions stay single
    /// instructions.
    #[test]
    fn what_does_not_fuse() {
        let v = GcnVersion::Gcn1_2;
        let fused = |source: &str| {
            let ops = ops_of(v, source);
            (0..ops.words())
                .filter(|&i| run_at(&ops, i).is_some())
                .count()
        };
        assert_eq!(
            fused("v_add_u32 v4, vcc, s8, v0\nv_addc_u32 v5, vcc, v5, 0, vcc"),
            1
        );
        assert_eq!(
            fused("v_mov_b32 v5, s9\nv_add_u32 v4, vcc, s8, v0\nv_addc_u32 v5, vcc, v5, 0, vcc"),
            2,
            "the move's run and the pair's own"
        );
        // The carry-in is another pair than the carry-out.
        assert_eq!(
            fused("v_add_u32 v4, s[10:11], s8, v0\nv_addc_u32 v5, vcc, v5, 0, s[12:13]"),
            0
        );
        // The high add reads the carry's register as a source.
        // The high add reads the carry's register as a source: no assembler
        // writes it (one SGPR per instruction), but words can say it.
        let mut ops = ops_of(
            v,
            "v_add_u32 v4, s[10:11], s8, v0\nv_addc_u32 v5, vcc, v1, v1, s[10:11]",
        );
        assert!(run_at(&ops, 0).is_some());
        let hi = ops.get_mut(2).expect("the high add");
        hi.srcs[0] = Src::Sgpr(11);
        assert!(run_at(&ops, 0).is_none());
        // The carry is EXEC.
        assert_eq!(
            fused("v_add_u32 v4, exec, s8, v0\nv_addc_u32 v5, vcc, v5, 0, exec"),
            0
        );
        // Modifiers, SDWA, DPP, a subtraction, something in between.
        assert_eq!(
            fused("v_add_u32 v4, vcc, s8, v0 clamp\nv_addc_u32 v5, vcc, v5, 0, vcc"),
            0
        );
        assert_eq!(
            fused("v_add_u32_sdwa v4, vcc, v8, v0 src0_sel:WORD_0\nv_addc_u32 v5, vcc, v5, 0, vcc"),
            0
        );
        assert_eq!(
            fused("v_add_u32 v4, vcc, s8, v0\nv_addc_u32_dpp v5, vcc, v5, v1, vcc quad_perm:[1,0,3,2]"),
            0
        );
        assert_eq!(
            fused("v_sub_u32 v4, vcc, s8, v0\nv_addc_u32 v5, vcc, v5, 0, vcc"),
            0
        );
        assert_eq!(
            fused("v_add_u32 v4, vcc, s8, v0\ns_nop 0\nv_addc_u32 v5, vcc, v5, 0, vcc"),
            0
        );
        assert_eq!(
            fused("v_mov_b32 v5, s9\ns_nop 0\nv_add_u32 v4, vcc, s8, v0\nv_addc_u32 v5, vcc, v5, 0, vcc"),
            1,
            "only the pair"
        );
    }
}
