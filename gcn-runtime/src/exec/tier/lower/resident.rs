//! Resident loops: a block that loops on itself, made of scalar
//! instructions and one vector segment that do not feed each other, runs
//! lane-chunk by lane-chunk instead of iteration by iteration.
//!
//! The scalar instructions (the loop counter, its compare, the branch) run
//! first, alone, for every iteration the branch and the step budget allow:
//! they read nothing the segment writes, so they count the iterations the
//! interpreter would run and leave the scalar state it would. Then each
//! pass of up to sixteen lanes (up to four chunks of four, side by side:
//! [`chunk_count`]) runs the segment that many times with its VGPRs in host
//! registers, and stores the rows it wrote once, at the end. The
//! segment reads no scalar the scalar instructions write, and a lane mask
//! it writes only after writing it in the same iteration, so each iteration
//! sees the scalars and lane masks the interpreter's would; VGPR instructions are lane-local, so a lane's
//! iterations give it what the instruction-by-instruction order gives it.
//! The lane masks the segment writes are the last iteration's.
//!
//! What this saves over the ordinary form (one pass over the lanes per
//! iteration) is each iteration's loads and stores of the rows, and the
//! denormal flush of the rows it reads: a row's flag that it holds no
//! denormal is carried round the loop when every iteration ends with it
//! flushed (the first iteration is emitted apart, so its loaded rows do not
//! decide that).
//!
//! NaN results: the first run of a pass keeps the host's NaN and notes
//! whether any result was one, as the ordinary form does; if one was, the
//! pass runs again, every iteration, from the rows as loaded (nothing is
//! stored before the end) with the NaN rule's picks. That exact run is
//! rare: it is emitted as one plain loop (no first iteration apart, rows
//! flushed where read), which halves the code to translate.

use super::*;

#[cfg(test)]
thread_local! {
    /// Resident loops built on this thread (for the tests that they are).
    pub(crate) static BUILT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The most chunks of four lanes a resident pass runs side by side: each
/// chunk's iterations are a chain of dependent operations, and the host
/// overlaps the chains of different chunks (one chunk alone would wait on
/// each result's latency). Four chunks divide both wave sizes' lanes.
const MAX_CHUNKS: usize = 4;

/// The most rows, summed over its chunks, a pass takes side by side. Rows
/// beyond x86-64's sixteen vector registers are spilled to the stack every
/// iteration, which costs less than a chunk waiting on each result's
/// latency, up to about this many (measured: a loop of 16 mixed VALU
/// instructions on 13 rows ran as fast in two chunks as in four, and 20%
/// slower in one; a loop of `v_fma_f32` on 3 rows about twice as fast in
/// four as in one).
const ROW_REGISTERS: usize = 26;

/// The chunks a resident pass of `segment` runs side by side: the most
/// whose rows together stay within [`ROW_REGISTERS`], at least one.
fn chunk_count(segment: &[(u32, &Op, Kind)]) -> usize {
    let mut rows: Vec<u16> = segment
        .iter()
        .flat_map(|(_, op, _)| op.opnd.iter())
        .filter_map(|src| match *src {
            Src::Vgpr(r) => Some(r),
            _ => None,
        })
        .collect();
    rows.sort_unstable();
    rows.dedup();
    let mut chunks = MAX_CHUNKS;
    while chunks > 1 && chunks * rows.len() > ROW_REGISTERS {
        chunks /= 2;
    }
    chunks
}

/// One chunk's state while its instructions are emitted (swapped into the
/// generator for each instruction: [`Gen::swap_chunk`]).
struct Chunk {
    regs: HashMap<u16, Lanes>,
    dirty: Vec<u16>,
    masks_now: HashMap<u16, Value>,
    exec_lanes: Option<Value>,
    row_base: Option<Value>,
    first_lane: Option<Value>,
    nan_mode: NanMode,
    nan_pending: Option<Value>,
    loads: Option<HashMap<u16, Lanes>>,
}

/// A resident pass's state at a chunk's end: the rows it wrote (by row),
/// the lane masks it wrote (as lane vectors, in the segment's order), and
/// the lanes noted as having a NaN result (an iteration's; a pass's ends
/// carry `None` and the chunks' noted lanes together apart).
struct PassEnd {
    rows: Vec<u16>,
    values: Vec<Value>,
    masks: Vec<Value>,
    nan: Option<Value>,
}

/// `values` cut into `n` equal parts (which may be empty).
fn split(values: &[Value], n: usize) -> impl Iterator<Item = &[Value]> {
    let size = values.len() / n.max(1);
    (0..n).map(move |k| &values[k * size..(k + 1) * size])
}

impl<'a> Gen<'a, '_> {
    /// The bounds `first..end` of the vector segment of `instrs` if the
    /// block can run as a resident loop: unchecked, looping on itself, one
    /// run of vector instructions forming one segment, no handler calls,
    /// and no register written by one part read or written by the other
    /// (nor a lane mask the segment writes read before it is written).
    pub(super) fn resident_form(&self, instrs: &[(u32, &Op, Kind)]) -> Option<(usize, usize)> {
        if self.plan.checked {
            return None;
        }
        let &(_, _, kind) = instrs.last()?;
        if !kind.ends_block() || !self.plan.block.loops {
            return None;
        }
        let first = instrs.iter().position(|i| i.2.vector())?;
        let end = first + instrs[first..].iter().position(|i| !i.2.vector())?;
        let scalar = || instrs[..first].iter().chain(&instrs[end..]);
        if instrs[end..].iter().any(|i| i.2.vector()) || scalar().any(|i| i.2 == Kind::Call) {
            return None;
        }
        let mut segment = Segment::default();
        if !instrs[first..end]
            .iter()
            .all(|&(_, op, kind)| segment.admits(op, kind, self.plan.wave32))
        {
            return None;
        }
        let width = if self.plan.wave32 { 1 } else { 2 };
        // The scalar part's registers: written (one SGPR each) and read.
        let mut s_writes = Vec::new();
        let mut s_reads = Vec::new();
        for &(_, op, kind) in scalar() {
            if matches!(kind, Kind::SMov | Kind::SMovk | Kind::SAlu(_)) {
                s_writes.push((op.reg(0) & 127, 1));
            }
            if kind == Kind::BranchVcc(true) || kind == Kind::BranchVcc(false) {
                s_reads.push((sreg::VCC & 127, width));
            }
            for src in op.opnd.iter() {
                if let Src::Sgpr(c) = *src {
                    s_reads.push((c & 127, 1));
                }
            }
        }
        let overlaps = |(a, wa): (u16, u16), (b, wb): (u16, u16)| a < b + wb && b < a + wa;
        let mask_dests: Vec<(u16, u16)> = segment.mask_dests.iter().map(|&d| (d, width)).collect();
        // A lane mask the segment writes may be read as that lane mask
        // after the write (each iteration reads its own); any other read of
        // a register one part writes would need the other iteration's value.
        let mut written = Vec::new();
        for &(_, op, kind) in &instrs[first..end] {
            let mask_src = kind.mask_source(op);
            for s in 0..3 {
                let Src::Sgpr(c) = op.slot_src(s) else {
                    continue;
                };
                let as_mask = s == 2 && mask_src.is_some();
                let read = (c & 127, if as_mask { width } else { 1 });
                if s_writes.iter().any(|&w| overlaps(read, w)) {
                    return None;
                }
                let this_iteration = as_mask && written.contains(&(c & 127));
                if !this_iteration && mask_dests.iter().any(|&w| overlaps(read, w)) {
                    return None;
                }
            }
            if kind.writes_mask(op) {
                written.push(vector::sdst_code(op) & 127);
            }
        }
        if mask_dests
            .iter()
            .any(|&d| s_writes.iter().chain(&s_reads).any(|&r| overlaps(d, r)))
        {
            return None;
        }
        Some((first, end))
    }

    /// Swaps the generator's per-pass state with `chunk`'s.
    fn swap_chunk(&mut self, chunk: &mut Chunk) {
        std::mem::swap(&mut self.regs, &mut chunk.regs);
        std::mem::swap(&mut self.dirty, &mut chunk.dirty);
        std::mem::swap(&mut self.masks_now, &mut chunk.masks_now);
        std::mem::swap(&mut self.exec_lanes, &mut chunk.exec_lanes);
        std::mem::swap(&mut self.row_base, &mut chunk.row_base);
        std::mem::swap(&mut self.first_lane, &mut chunk.first_lane);
        std::mem::swap(&mut self.nan_mode, &mut chunk.nan_mode);
        std::mem::swap(&mut self.nan_pending, &mut chunk.nan_pending);
        std::mem::swap(&mut self.loads, &mut chunk.loads);
    }

    /// Emits the block as a resident loop (`first..end`: its segment, from
    /// [`Gen::resident_form`]).
    pub(super) fn resident(
        &mut self,
        instrs: &[(u32, &'a Op, Kind)],
        first: usize,
        end: usize,
    ) -> Result<(), String> {
        // The scalar instructions, every iteration; the count of those run
        // is `self.count` where the loop leaves.
        let lanes_entry = self.b.create_block();
        self.b.append_block_param(lanes_entry, types::I32);
        for &(_, op, kind) in instrs[..first].iter().chain(&instrs[end..]) {
            if !kind.ends_block() {
                self.scalar(op, kind)?;
            }
        }
        let &(pc, branch, kind) = instrs.last().ok_or("empty block")?;
        let (pc_after, again) = self.branch_end(pc, branch, kind)?;
        let again = again.ok_or("a resident loop's branch leaves the block")?;
        self.go_round(again, lanes_entry, &[pc_after.into()]);
        self.b.switch_to_block(lanes_entry);
        let pc_after = self.b.block_params(lanes_entry)[0];
        let iterations = self.count;

        // The segment, `iterations` times per pass of `count` × 4 lanes.
        let segment = &instrs[first..end];
        let count = chunk_count(segment);
        let mask_dests = self.segment_preamble(segment)?;
        let (header, exit, params) = self.open_lane_loop(mask_dests.len());
        let offset = params[0];
        let mut chunks = Vec::with_capacity(count);
        for k in 0..count {
            let chunk_offset = self.b.ins().iadd_imm_u(offset, 16 * k as i64);
            let base = self.b.ins().iadd(self.vgpr, chunk_offset);
            let first_lane = self.b.ins().ushr_imm_u(chunk_offset, 2);
            self.first_lane = Some(first_lane);
            let exec_lanes = if self.plan.full {
                None
            } else {
                Some(self.lanes_of(self.exec))
            };
            chunks.push(Chunk {
                regs: HashMap::new(),
                dirty: Vec::new(),
                masks_now: HashMap::new(),
                exec_lanes,
                row_base: Some(base),
                first_lane: Some(first_lane),
                nan_mode: NanMode::Pick,
                nan_pending: None,
                loads: Some(HashMap::new()),
            });
        }
        let nothing = vec![HashMap::new(); count];
        let (note, nan) = self.resident_pass(
            segment,
            NanMode::Note(None),
            iterations,
            &mask_dests,
            &mut chunks,
            &nothing,
        )?;
        let loaded: Vec<HashMap<u16, Lanes>> = chunks
            .iter_mut()
            .map(|c| c.loads.take().unwrap_or_default())
            .collect();
        // The pass's end: the rows stored, the lane-mask bits added.
        let store = self.b.create_block();
        let per_chunk = note[0].values.len() + mask_dests.len();
        for _ in 0..count * per_chunk {
            self.b.append_block_param(store, types::I32X4);
        }
        let end_args = |ends: &[PassEnd]| -> Vec<_> {
            ends.iter()
                .flat_map(|end| end.values.iter().chain(&end.masks))
                .map(|&v| v.into())
                .collect()
        };
        if let Some(nan) = nan {
            let any = self.b.ins().vhigh_bits(types::I32, nan);
            let exact = self.b.create_block();
            self.b.ins().brif(any, exact, &[], store, &end_args(&note));
            self.b.switch_to_block(exact);
            let (pick, _) = self.resident_loop(
                segment,
                iterations,
                &mask_dests,
                &mut chunks,
                &loaded,
                &note[0].rows,
            )?;
            if pick.iter().zip(&note).any(|(p, n)| p.rows != n.rows) {
                return Err("a resident pass wrote other rows the second time".into());
            }
            self.b.ins().jump(store, &end_args(&pick));
        } else {
            self.b.ins().jump(store, &end_args(&note));
        }
        self.b.switch_to_block(store);
        let values = self.b.block_params(store).to_vec();
        let mut accs: Vec<Value> = params[1..].to_vec();
        for (chunk, (end, values)) in chunks.iter().zip(note.iter().zip(split(&values, count))) {
            let (rows, masks) = values.split_at(end.rows.len());
            let base = chunk.row_base.ok_or("no pass")?;
            for (&row, &v) in end.rows.iter().zip(rows) {
                self.b.ins().store(mem(), v, base, 256 * i32::from(row));
            }
            let first_lane = chunk.first_lane.ok_or("no pass")?;
            for (acc, &lanes) in accs.iter_mut().zip(masks) {
                *acc = self.add_lane_bits(*acc, lanes, first_lane);
            }
        }
        let next = self.b.ins().iadd_imm_u(offset, 16 * count as i64);
        self.close_lane_loop((header, exit), next, &accs, &mask_dests);
        self.first_lane = None;
        self.exec_lanes = None;
        self.b
            .ins()
            .jump(self.exit, &[pc_after.into(), iterations.into()]);
        #[cfg(test)]
        BUILT.with(|n| n.set(n.get() + 1));
        self.finish()
    }

    /// Emits one iteration of `segment` on every chunk, instruction by
    /// instruction (each chunk's from `start`, with `nan` as its NaN mode),
    /// and returns each chunk's end state (`flushed`: the rows the loop
    /// carries flushed).
    fn resident_iteration(
        &mut self,
        segment: &[(u32, &Op, Kind)],
        mask_dests: &[u16],
        chunks: &mut [Chunk],
        start: Vec<(HashMap<u16, Lanes>, NanMode)>,
        flushed: Option<&[bool]>,
    ) -> Result<Vec<PassEnd>, String> {
        for (chunk, (regs, nan)) in chunks.iter_mut().zip(start) {
            chunk.regs = regs;
            chunk.dirty.clear();
            chunk.masks_now.clear();
            chunk.nan_mode = nan;
        }
        for &(_, op, kind) in segment {
            for chunk in chunks.iter_mut() {
                self.swap_chunk(chunk);
                let done = self.vector(op, kind);
                self.swap_chunk(chunk);
                done?;
            }
        }
        let mut ends = Vec::with_capacity(chunks.len());
        for chunk in chunks.iter_mut() {
            self.swap_chunk(chunk);
            let end = self.pass_end(mask_dests, flushed);
            self.swap_chunk(chunk);
            ends.push(end?);
        }
        Ok(ends)
    }

    /// Emits `iterations` (at least 1) runs of `segment` on the current
    /// pass's chunks, each starting from its rows in `initial` (rows not in
    /// it are loaded), the first run apart and the others in a loop; leaves
    /// the builder after them, in a block whose parameters are the end
    /// state: each chunk's, and the lanes noted as having a NaN result in
    /// any chunk (a `Note` pass that makes float results).
    fn resident_pass(
        &mut self,
        segment: &[(u32, &Op, Kind)],
        nan: NanMode,
        iterations: Value,
        mask_dests: &[u16],
        chunks: &mut [Chunk],
        initial: &[HashMap<u16, Lanes>],
    ) -> Result<(Vec<PassEnd>, Option<Value>), String> {
        // The first iteration.
        let start = initial.iter().map(|regs| (regs.clone(), nan)).collect();
        let first = self.resident_iteration(segment, mask_dests, chunks, start, None)?;
        // The rows each chunk's other iterations start from: those given,
        // and those its first one loaded.
        let mut starts: Vec<HashMap<u16, Lanes>> = initial.to_vec();
        for (start, chunk) in starts.iter_mut().zip(chunks.iter()) {
            if let Some(loads) = &chunk.loads {
                start.extend(loads.iter().map(|(&row, &l)| (row, l)));
            }
        }
        // The rows' flags carried round the loop: flushed where the first
        // iteration leaves them flushed (the others must too). The same
        // instructions on every chunk: the first chunk's flags are all's.
        let rows = first[0].rows.clone();
        let flushed: Vec<bool> = rows
            .iter()
            .map(|r| chunks[0].regs.get(r).is_some_and(|l| l.flushed))
            .collect();
        let has_nan = first[0].nan.is_some();
        if first
            .iter()
            .any(|end| end.rows != rows || end.nan.is_some() != has_nan)
        {
            return Err("a resident pass's chunks differ".into());
        }
        // One NaN accumulator for all chunks (it lives round the loop in a
        // host register, as the rows do).
        let first_nan = self.any_nan(&first);
        let join = self.b.create_block();
        for _ in 0..chunks.len() * (rows.len() + mask_dests.len()) + usize::from(has_nan) {
            self.b.append_block_param(join, types::I32X4);
        }
        let looped = self.b.create_block();
        self.b.append_block_param(looped, types::I64);
        for _ in 0..chunks.len() * rows.len() + usize::from(has_nan) {
            self.b.append_block_param(looped, types::I32X4);
        }
        let join_args = |ends: &[PassEnd], nan: Option<Value>| -> Vec<_> {
            ends.iter()
                .flat_map(|end| end.values.iter().chain(&end.masks))
                .chain(&nan)
                .map(|&v| v.into())
                .collect()
        };
        let loop_args = |i: Value, ends: &[PassEnd], nan: Option<Value>| -> Vec<_> {
            std::iter::once(i)
                .chain(ends.iter().flat_map(|end| end.values.iter().copied()))
                .chain(nan)
                .map(Into::into)
                .collect()
        };
        let one = self.b.ins().iconst(types::I64, 1);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, one, iterations);
        self.b.ins().brif(
            more,
            looped,
            &loop_args(one, &first, first_nan),
            join,
            &join_args(&first, first_nan),
        );
        // The other iterations.
        self.b.switch_to_block(looped);
        let params = self.b.block_params(looped).to_vec();
        let done = params[0];
        let (carried, seen) = params[1..].split_at(chunks.len() * rows.len());
        let mut start = Vec::with_capacity(chunks.len());
        for (k, (mut regs, values)) in starts
            .into_iter()
            .zip(split(carried, chunks.len()))
            .enumerate()
        {
            for (r, (&row, &v)) in rows.iter().zip(values).enumerate() {
                regs.insert(
                    row,
                    Lanes {
                        v,
                        flushed: flushed[r],
                    },
                );
            }
            let mode = match nan {
                NanMode::Note(_) => NanMode::Note(seen.first().copied().filter(|_| k == 0)),
                NanMode::Pick => NanMode::Pick,
            };
            start.push((regs, mode));
        }
        let ends = self.resident_iteration(segment, mask_dests, chunks, start, Some(&flushed))?;
        if ends
            .iter()
            .any(|end| end.rows != rows || end.nan.is_some() != has_nan)
        {
            return Err("a resident loop's iterations differ".into());
        }
        let ends_nan = self.any_nan(&ends);
        let done = self.b.ins().iadd_imm_u(done, 1);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, done, iterations);
        self.b.ins().brif(
            more,
            looped,
            &loop_args(done, &ends, ends_nan),
            join,
            &join_args(&ends, ends_nan),
        );
        self.b.switch_to_block(join);
        let params = self.b.block_params(join).to_vec();
        let (per_chunk, nan) = params.split_at(chunks.len() * (rows.len() + mask_dests.len()));
        let ends = split(per_chunk, chunks.len())
            .map(|p| {
                let (values, masks) = p.split_at(rows.len());
                PassEnd {
                    rows: rows.clone(),
                    values: values.to_vec(),
                    masks: masks.to_vec(),
                    nan: None,
                }
            })
            .collect();
        Ok((ends, nan.first().copied()))
    }

    /// The exact pass (the NaN rule's picks; rare, so emitted small):
    /// `iterations` runs of `segment` in one loop, each chunk from its rows
    /// in `initial` (`rows`: those the segment writes, carried round the
    /// loop unflushed); leaves the builder after the loop, as
    /// [`Gen::resident_pass`] does.
    fn resident_loop(
        &mut self,
        segment: &[(u32, &Op, Kind)],
        iterations: Value,
        mask_dests: &[u16],
        chunks: &mut [Chunk],
        initial: &[HashMap<u16, Lanes>],
        rows: &[u16],
    ) -> Result<(Vec<PassEnd>, Option<Value>), String> {
        let looped = self.b.create_block();
        let join = self.b.create_block();
        self.b.append_block_param(looped, types::I64);
        for _ in 0..chunks.len() * rows.len() {
            self.b.append_block_param(looped, types::I32X4);
        }
        for _ in 0..chunks.len() * (rows.len() + mask_dests.len()) {
            self.b.append_block_param(join, types::I32X4);
        }
        // A row written before it is read needs no value at the start.
        let zero = self.consts.zero;
        let zero64 = self.b.ins().iconst(types::I64, 0);
        let mut args: Vec<Value> = vec![zero64];
        for regs in initial {
            args.extend(rows.iter().map(|r| regs.get(r).map_or(zero, |l| l.v)));
        }
        let args: Vec<_> = args.into_iter().map(Into::into).collect();
        self.b.ins().jump(looped, &args);
        self.b.switch_to_block(looped);
        let params = self.b.block_params(looped).to_vec();
        let done = params[0];
        let start = initial
            .iter()
            .zip(split(&params[1..], chunks.len()))
            .map(|(regs, values)| {
                let mut regs = regs.clone();
                for (&row, &v) in rows.iter().zip(values) {
                    regs.insert(row, Lanes { v, flushed: false });
                }
                (regs, NanMode::Pick)
            })
            .collect();
        let ends = self.resident_iteration(segment, mask_dests, chunks, start, None)?;
        if ends.iter().any(|end| end.rows != rows) {
            return Err("a resident loop's exact pass writes other rows".into());
        }
        let done = self.b.ins().iadd_imm_u(done, 1);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, done, iterations);
        let back: Vec<_> = std::iter::once(done)
            .chain(ends.iter().flat_map(|end| end.values.iter().copied()))
            .map(Into::into)
            .collect();
        let out: Vec<_> = ends
            .iter()
            .flat_map(|end| end.values.iter().chain(&end.masks))
            .map(|&v| v.into())
            .collect();
        self.b.ins().brif(more, looped, &back, join, &out);
        self.b.switch_to_block(join);
        let params = self.b.block_params(join).to_vec();
        let ends = split(&params, chunks.len())
            .map(|p| {
                let (values, masks) = p.split_at(rows.len());
                PassEnd {
                    rows: rows.to_vec(),
                    values: values.to_vec(),
                    masks: masks.to_vec(),
                    nan: None,
                }
            })
            .collect();
        Ok((ends, None))
    }

    /// The lanes any of `ends` noted as having a NaN result, if they note.
    fn any_nan(&mut self, ends: &[PassEnd]) -> Option<Value> {
        let mut nans = ends.iter().filter_map(|end| end.nan);
        let first = nans.next()?;
        Some(nans.fold(first, |any, nan| self.b.ins().bor(any, nan)))
    }

    /// The state an iteration of a resident pass leaves: its rows, lane
    /// masks and noted NaN lanes (an error if a row `flushed` says the loop
    /// carries flushed is not).
    fn pass_end(
        &mut self,
        mask_dests: &[u16],
        flushed: Option<&[bool]>,
    ) -> Result<PassEnd, String> {
        self.settle_nan();
        let mut rows = self.dirty.clone();
        rows.sort_unstable();
        let mut values = Vec::with_capacity(rows.len());
        for (r, row) in rows.iter().enumerate() {
            let lanes = self.regs[row];
            // The loop carries the row as flushed: every iteration must
            // leave it so (a flushed input gives a flushed output, so one
            // that the first iteration leaves flushed the others do too).
            if flushed.is_some_and(|f| f.get(r).copied().unwrap_or(false)) && !lanes.flushed {
                return Err(format!("v{row} is not flushed at a resident loop's end"));
            }
            values.push(lanes.v);
        }
        let masks = mask_dests
            .iter()
            .map(|code| {
                self.masks_now
                    .get(code)
                    .copied()
                    .ok_or("a lane mask the segment writes is unwritten")
            })
            .collect::<Result<Vec<_>, _>>()?;
        let nan = match self.nan_mode {
            NanMode::Note(seen) => seen,
            NanMode::Pick => None,
        };
        Ok(PassEnd {
            rows,
            values,
            masks,
            nan,
        })
    }
}
