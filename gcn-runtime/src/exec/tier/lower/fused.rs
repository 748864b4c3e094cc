//! Fused regions: a run of vector ALU instructions and dense FLAT/GLOBAL
//! accesses ([`inline_memory`]) that runs as one pass over the lanes, the
//! loads made inside the pass, instead of one segment and one copy loop
//! per access.
//!
//! Only the all-lanes variants of a wave64 block fuse. A region
//! ends at its first store (inclusive), at a scalar instruction other than
//! a wait, at a memory instruction of another kind, or where
//! [`Segment::admits`] would end a segment; an address that depends on a
//! load of the region ends it before that access.
//!
//! **Proof of density.** Lane group 0 of a fused pass reaches the last
//! access before group 1 computes its first address, so every access must
//! be known dense (lane `l` at `first + l × size`, aligned, inside one
//! span: it cannot fault) before the pass starts. The addresses are
//! *affine in the lane*: the instructions they depend on (a backward
//! slice: moves, adds and subtracts with their carries, shifts left,
//! multiplies by a uniform factor) are
//! evaluated once per wave on values `b + l × s` (`b` and `s` host
//! integers, [`Affine`]), with the conditions that make the lane values
//! exact — every lane's carry the same, no bit shifted out — tested at run
//! time, and the rows the slice reads at the region's entry tested to be
//! affine. An access whose low word is `b + l × size` and whose high word
//! is one value is dense. Any condition that fails, an access outside a
//! span, misaligned or with another stride, sends the region to its
//! ordinary form (segments, `Gen::dense_memory`, handlers), which does
//! what the interpreter does, faults included; nothing has been written
//! by then. A block whose proofs failed `MAX_FUSED_MISSES` times (counted
//! in the block, across waves and threads) runs its regions unfused from
//! then on, without the proof.
//!
//! **Checks.** In a checked variant, every access of the region must also
//! be one the checks' hook lets the block make itself
//! ([`crate::exec::Hook::skips_access`], asked in program order before the
//! passes). A hook that lets one does nothing in `before_run` for the rest
//! of the block visit (the replayed wave of `check::replay`), so the fused
//! passes call no hook; any access it refuses sends the region to its
//! ordinary form, which calls every hook in order (not counted as a failed
//! proof: the waves whose checks run in full would otherwise turn the
//! region off for the replayed ones too).
//!
//! **The store** (the region's last instruction) is made after the last
//! pass, from the rows, as `Gen::dense_memory` makes it: after every load
//! of the region, as in the instruction-by-instruction order.

use super::*;

/// Fused passes run (test builds count them: the tests that the fused
/// passes ran).
#[cfg(test)]
pub(crate) static FUSED_RAN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Proofs of density tried (test builds count them).
#[cfg(test)]
pub(crate) static PROOFS_TRIED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Counts a proof tried (called by test builds' code).
#[cfg(test)]
extern "C" fn proof_tried(_ctx: *mut u8) {
    PROOFS_TRIED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// Counts a fused pass started (called by test builds' code).
#[cfg(test)]
extern "C" fn fused_ran(_ctx: *mut u8) {
    FUSED_RAN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// A memory access of a fused region.
#[derive(Debug, Clone, Copy)]
pub(super) struct Access {
    /// The instruction's index in the block (its hint's slot).
    index: usize,
    store: bool,
    /// Dwords per lane: 1, 2 or 4.
    dwords: usize,
    /// The first address VGPR (two without SADDR, one with).
    vaddr: u16,
    /// GLOBAL's SADDR pair, if the instruction has one.
    saddr: Option<u16>,
    /// The first data VGPR.
    data: u16,
    /// The instruction's immediate offset.
    offset: i64,
}

impl Access {
    /// Bytes per lane.
    fn size(&self) -> u32 {
        4 * self.dwords as u32
    }

    /// The access of `op` (instruction `index` of the block), if it is one a
    /// fused region may hold.
    fn of(op: &Op, index: usize) -> Option<Access> {
        let (store, dwords) = inline_memory(op)?;
        let (vaddr, data) = if store { (0, 1) } else { (1, 0) };
        let Src::Vgpr(vaddr) = op.src(vaddr) else {
            return None;
        };
        let saddr = match (op.instr.row.encoding, op.src(2)) {
            (Encoding::Global, Src::Sgpr(s)) => Some(s),
            _ => None,
        };
        Some(Access {
            index,
            store,
            dwords,
            vaddr,
            saddr,
            data: op.reg(data),
            offset: op.instr.mods.mem.offset as i64,
        })
    }

    /// The address VGPRs.
    fn address_rows(&self) -> std::ops::Range<u16> {
        let n = if self.saddr.is_some() { 1 } else { 2 };
        self.vaddr..self.vaddr + n
    }
}

/// An access of a fused pass and the host address of lane 0's bytes.
#[derive(Debug, Clone, Copy)]
pub(in crate::exec::tier) struct Predicted {
    access: Access,
    host: Value,
}

/// A region that fuses: its end (exclusive, an index into the block), its
/// accesses by position in the region, and per position whether the
/// proof evaluates the instruction (it feeds an address).
pub(super) struct Region {
    end: usize,
    accesses: Vec<(usize, Access)>,
    slice: Vec<bool>,
}

/// Lane `l`'s value of a row, `b + l × s` (i64 host values), exactly: the
/// code that made it tested that every lane's value, `b` to `b + 63 × s`,
/// lies in `0..2^32` (a uniform value has `s` 0).
#[derive(Clone, Copy)]
struct Affine {
    b: Value,
    s: Value,
}

/// The kinds the proof evaluates ([`Gen::fused`]).
fn affine_kind(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::VMov | Kind::VAddSub { .. } | Kind::VShift(Shift::Left, _) | Kind::VInt(VInt::MulLo)
    )
}

/// The VGPRs an instruction's accesses write whole.
fn rows_written(op: &Op) -> Vec<u16> {
    use gcn_asm::decode::Location;
    op.instr
        .accesses()
        .iter()
        .filter(|a| a.role != Role::Read && !a.partial)
        .flat_map(|a| match a.location {
            Location::Vgprs { index, count } => index..index + count,
            _ => 0..0,
        })
        .collect()
}

/// Whether an instruction reads (or keeps part of) any of `rows`.
fn reads_any(op: &Op, rows: &[u16]) -> bool {
    use gcn_asm::decode::Location;
    op.instr.accesses().iter().any(|a| {
        (a.role.reads() || a.partial)
            && matches!(a.location, Location::Vgprs { index, count }
                if (index..index + count).any(|r| rows.contains(&r)))
    })
}

impl<'a> Gen<'a, '_> {
    /// The fused region starting at instruction `i`, if one does.
    pub(super) fn fusible(&self, instrs: &[(u32, &'a Op, Kind)], i: usize) -> Option<Region> {
        use gcn_asm::decode::Location;
        let plan = self.plan;
        if !plan.full || plan.wave32 {
            return None;
        }
        let mut segment = Segment::default();
        let mut accesses: Vec<(usize, Access)> = Vec::new();
        let mut end = i;
        // Rows that hold what a load of the region read (or a value made
        // from one): an address reading one ends the region before it.
        let mut loaded: Vec<u16> = Vec::new();
        for (k, &(_, op, kind)) in instrs.iter().enumerate().skip(i) {
            if kind.vector() {
                if !segment.admits(op, kind, false) {
                    break;
                }
                let writes = rows_written(op);
                if reads_any(op, &loaded) {
                    loaded.extend(writes);
                } else {
                    loaded.retain(|r| !writes.contains(r));
                }
            } else if kind == Kind::Call {
                let Some(access) = Access::of(op, k) else {
                    break;
                };
                if access.address_rows().any(|r| loaded.contains(&r)) {
                    break;
                }
                accesses.push((k - i, access));
                if access.store {
                    end = k + 1;
                    break;
                }
                loaded.extend(access.data..access.data + access.dwords as u16);
            } else if kind != Kind::Nop {
                break;
            }
            end = k + 1;
        }
        // The region ends with its last access (vector instructions after
        // it form an ordinary segment).
        let (last, _) = *accesses.last()?;
        let end = end.min(i + last + 1);
        if !instrs[i..end].iter().any(|(_, _, kind)| kind.vector()) {
            return None;
        }
        // SADDR is read before the passes: no lane mask of the region may
        // be written into it.
        let overlaps_mask = |s: u16| {
            segment
                .mask_dests
                .iter()
                .any(|&d| (s & 127) < d + 2 && d < (s & 127) + 2)
        };
        if accesses
            .iter()
            .any(|(_, a)| a.saddr.is_some_and(overlaps_mask))
        {
            return None;
        }
        // The backward slice of the addresses: the rows and lane masks an
        // address needs, from the end back.
        let mut rows: Vec<u16> = Vec::new();
        let mut codes: Vec<u16> = Vec::new();
        let mut slice = vec![false; end - i];
        for k in (i..end).rev() {
            let (_, op, kind) = instrs[k];
            if let Some((_, access)) = accesses.iter().find(|(at, _)| *at == k - i) {
                rows.extend(access.address_rows());
                continue;
            }
            if !kind.vector() {
                continue;
            }
            let list = op.instr.accesses();
            let touches = |a: &gcn_asm::decode::Access| match a.location {
                Location::Vgprs { index, count } => {
                    (index..index + count).any(|r| rows.contains(&r))
                }
                Location::Sgprs { code, count } => {
                    (code..code + count).any(|c| codes.contains(&(c & 127)))
                }
                Location::State(_) => false,
            };
            if !list.iter().any(|a| a.role != Role::Read && touches(a)) {
                continue;
            }
            if !affine_kind(kind) {
                return None;
            }
            slice[k - i] = true;
            for a in list.iter().filter(|a| a.role != Role::Read && !a.partial) {
                match a.location {
                    Location::Vgprs { index, count } => {
                        rows.retain(|r| !(index..index + count).contains(r))
                    }
                    Location::Sgprs { code, count } => {
                        codes.retain(|c| !(code..code + count).any(|x| x & 127 == *c))
                    }
                    Location::State(_) => {}
                }
            }
            for a in list.iter().filter(|a| a.role.reads() || a.partial) {
                match a.location {
                    Location::Vgprs { index, count } => rows.extend(index..index + count),
                    Location::Sgprs { code, count } => {
                        codes.extend((code..code + count).map(|c| c & 127))
                    }
                    Location::State(_) => {}
                }
            }
        }
        Some(Region {
            end,
            accesses,
            slice,
        })
    }

    /// Emits the fused region starting at instruction `i`: the proof of
    /// density, then the fused passes and the store, or the region's
    /// ordinary form. Returns the index after the region.
    pub(super) fn fused(
        &mut self,
        instrs: &[(u32, &'a Op, Kind)],
        i: usize,
        region: Region,
    ) -> Result<usize, String> {
        let end = region.end;
        let body = &instrs[i..end];
        let plain = self.b.create_block();
        let failed = self.b.create_block();
        let after = self.b.create_block();

        // A block whose proofs failed often runs its regions unfused.
        use super::super::enabled::{Block, CallCtx, MAX_FUSED_MISSES};
        let block = self.ctx_field(std::mem::offset_of!(CallCtx<'_>, block));
        let misses_at = self
            .b
            .ins()
            .iadd_imm_u(block, std::mem::offset_of!(Block, fused_misses) as i64);
        let misses = self.b.ins().load(types::I32, mem(), misses_at, 0);
        let tried =
            self.b
                .ins()
                .icmp_imm_u(IntCC::UnsignedLessThan, misses, i64::from(MAX_FUSED_MISSES));
        let proof = self.b.create_block();
        self.b.ins().brif(tried, proof, &[], plain, &[]);
        self.b.switch_to_block(proof);
        #[cfg(test)]
        self.call_helper(proof_tried as *const () as usize, &[], None);

        // The slice on affine values; `ok` gathers the conditions.
        let mut ok = self.b.ins().iconst(types::I8, 1);
        let mut rows: HashMap<u16, Affine> = HashMap::new();
        let mut carries: HashMap<u16, Value> = HashMap::new();
        let mut addresses = HashMap::new();
        for (at, &(_, op, kind)) in body.iter().enumerate() {
            if region.slice[at] {
                self.affine_instr(op, kind, &mut rows, &mut carries, &mut ok)?;
            }
            if let Some((_, access)) = region.accesses.iter().find(|(p, _)| *p == at) {
                let lo = self.affine_src(Src::Vgpr(access.vaddr), &mut rows, &mut ok)?;
                let hi = match access.saddr {
                    None => {
                        Some(self.affine_src(Src::Vgpr(access.vaddr + 1), &mut rows, &mut ok)?)
                    }
                    Some(_) => None,
                };
                addresses.insert(at, (lo, hi));
            }
        }

        // Each access dense: the low word's stride its size, the high
        // word uniform, aligned, inside a span.
        let mut hosts = HashMap::new();
        let mut loads: Vec<(Value, u32)> = Vec::new();
        for &(at, access) in &region.accesses {
            let (lo, hi) = addresses[&at];
            let size = access.size();
            let stride = self.b.ins().icmp_imm_u(IntCC::Equal, lo.s, i64::from(size));
            let mut dense = self.b.ins().band(ok, stride);
            let base = match (access.saddr, hi) {
                (Some(s), _) => {
                    let s64 = self.load_s64(s);
                    self.b.ins().iadd(s64, lo.b)
                }
                (None, Some(hi)) => {
                    let uniform = self.b.ins().icmp_imm_u(IntCC::Equal, hi.s, 0);
                    dense = self.b.ins().band(dense, uniform);
                    let hi = self.b.ins().ishl_imm_u(hi.b, 32);
                    self.b.ins().bor(hi, lo.b)
                }
                (None, None) => return Err("fused access without an address".into()),
            };
            let first = self.b.ins().iadd_imm_s(base, access.offset);
            let low_bits = self.b.ins().band_imm_u(first, 3);
            let aligned = self.b.ins().icmp_imm_u(IntCC::Equal, low_bits, 0);
            let mut dense = self.b.ins().band(dense, aligned);
            if access.store {
                // The store is made pass by pass: no later pass may load
                // what an earlier one stored.
                for &(load, load_size) in &loads {
                    let apart = self.apart(first, size, load, load_size);
                    dense = self.b.ins().band(dense, apart);
                }
            } else {
                loads.push((first, size));
            }
            let fast = self.b.create_block();
            self.b.append_block_param(fast, types::I64);
            // (Checked: and the checks' hook lets the block make it. A
            // refusal is no failed proof: the waves whose checks run in
            // full, a few in every launch, would soon turn the region off.)
            self.route(dense, first, access.index, size, 64, fast, failed, plain)?;
            self.b.switch_to_block(fast);
            let host = self.b.block_params(fast)[0];
            hosts.insert(at, Predicted { access, host });
        }

        // The fused passes, then the store.
        #[cfg(test)]
        self.call_helper(fused_ran as *const () as usize, &[], None);
        let store = region
            .accesses
            .iter()
            .find(|(_, a)| a.store)
            .map(|&(at, _)| hosts[&at]);
        self.fused_hosts = hosts;
        let ends_wave = self.plan.ends_wave;
        self.dead_masks = dead_masks(body, &instrs[end..], false, ends_wave);
        // The store is made at each pass's end, from the pass's values of
        // its data rows (the addresses are the proof's, not the rows').
        self.fused_store = store;
        self.dead_rows = dead_rows(body, &instrs[end..], &[], ends_wave);
        let result = self.segment(body);
        self.dead_masks.clear();
        self.dead_rows.clear();
        self.fused_hosts.clear();
        self.fused_store = None;
        result?;
        self.b.ins().jump(after, &[]);

        // A failed proof counted, then the region's ordinary form.
        self.b.switch_to_block(failed);
        let one = self.b.ins().iconst(types::I32, 1);
        self.b.ins().atomic_rmw(
            types::I32,
            mem(),
            cranelift_codegen::ir::AtomicRmwOp::Add,
            misses_at,
            one,
        );
        self.b.ins().jump(plain, &[]);
        self.b.switch_to_block(plain);
        let mut k = i;
        while k < end {
            k = self.emit_one(instrs, k, end)?;
        }
        self.b.ins().jump(after, &[]);
        self.b.switch_to_block(after);
        Ok(end)
    }

    /// Whether a store of 64 lanes of `size` bytes at `store` (lane `l` at
    /// `store + l * size`) made pass by pass (four lanes each, after the
    /// pass's loads) leaves every later pass's lanes of a load of
    /// `load_size` bytes at `load` as they were: the two are apart, or,
    /// with equal sizes, the store starts at or below the load (then
    /// lane `l`'s store reaches only bytes of load lanes at most `l`).
    fn apart(&mut self, store: Value, size: u32, load: Value, load_size: u32) -> Value {
        if size == load_size {
            // Not `0 < store - load < 64 * size`.
            let d = self.b.ins().isub(store, load);
            let d = self.b.ins().iadd_imm_s(d, -1);
            return self.b.ins().icmp_imm_u(
                IntCC::UnsignedGreaterThanOrEqual,
                d,
                i64::from(64 * size - 1),
            );
        }
        let store_end = self.b.ins().iadd_imm_u(store, i64::from(64 * size));
        let load_end = self.b.ins().iadd_imm_u(load, i64::from(64 * load_size));
        let below = self
            .b
            .ins()
            .icmp(IntCC::UnsignedLessThanOrEqual, store_end, load);
        let above = self
            .b
            .ins()
            .icmp(IntCC::UnsignedLessThanOrEqual, load_end, store);
        self.b.ins().bor(below, above)
    }

    /// At a pass's end (its values final: nothing is stored before), the
    /// fused region's store of the pass's lanes, from the values of its
    /// data rows, to the host address the proof found.
    pub(super) fn fused_store_pass(&mut self) -> Result<(), String> {
        let Some(p) = self.fused_store else {
            return Ok(());
        };
        let access = p.access;
        let row_base = self.row_base.ok_or("no pass")?;
        let offset = self.b.ins().isub(row_base, self.vgpr);
        let at = self.b.ins().imul_imm_u(offset, access.dwords as i64);
        let at = self.b.ins().iadd(p.host, at);
        let rows: Vec<Value> = (0..access.dwords as u16)
            .map(|k| self.read_row(access.data + k).v)
            .collect();
        let words = self.interleave(&rows, false);
        for (m, w) in (0..).zip(words) {
            self.b.ins().store(host_memory(), w, at, 16 * m);
        }
        Ok(())
    }

    /// `ok` and `condition`.
    fn require(&mut self, ok: &mut Value, condition: Value) {
        *ok = self.b.ins().band(*ok, condition);
    }

    /// Whether every lane of `v`, `b` to `b + 63 × s`, lies in `0..2^32`:
    /// `b` and `b + 63 × s` do (the lanes between lie between).
    fn exact(&mut self, b: Value, s: Value) -> Value {
        let last = self.b.ins().imul_imm_s(s, 63);
        let last = self.b.ins().iadd(b, last);
        let b_in = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, b, 1 << 32);
        let last_in = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThan, last, 1 << 32);
        self.b.ins().band(b_in, last_in)
    }

    /// Source `src` of a slice instruction as an affine value: a scalar
    /// (stride 0), a row the slice made, or a row as the region found it —
    /// tested here to be affine (lane 1 minus lane 0 its stride).
    fn affine_src(
        &mut self,
        src: Src,
        rows: &mut HashMap<u16, Affine>,
        ok: &mut Value,
    ) -> Result<Affine, String> {
        let row = match src {
            Src::Vgpr(r) => r,
            Src::Sgpr(_) | Src::Imm(_) => {
                let v = self.read_s32(src)?;
                let b = self.b.ins().uextend(types::I64, v);
                let s = self.b.ins().iconst(types::I64, 0);
                return Ok(Affine { b, s });
            }
            other => return Err(format!("affine source {other:?}")),
        };
        if let Some(&a) = rows.get(&row) {
            return Ok(a);
        }
        // Lanes 0 and 1 give `b` and `s` (a signed 32-bit step); every lane
        // must then be `b + l × s` modulo 2^32, and within `0..2^32`, which
        // makes it that exactly.
        let at = 256 * i32::from(row);
        let lane0 = self.b.ins().load(types::I32, mem(), self.vgpr, at);
        let lane1 = self.b.ins().load(types::I32, mem(), self.vgpr, at + 4);
        let step = self.b.ins().isub(lane1, lane0);
        let lane0_v = self.b.ins().splat(types::I32X4, lane0);
        let step_v = self.b.ins().splat(types::I32X4, step);
        let iota = self.vconst([0, 1, 2, 3]);
        let first = self.b.ins().imul(step_v, iota);
        let expect = self.b.ins().iadd(lane0_v, first);
        let four = self.b.ins().imul_imm_u(step, 4);
        let four = self.b.ins().splat(types::I32X4, four);
        let check = self.b.create_block();
        let checked = self.b.create_block();
        self.b.append_block_param(check, types::I64);
        self.b.append_block_param(check, types::I32X4);
        self.b.append_block_param(check, types::I32X4);
        self.b.append_block_param(checked, types::I32X4);
        let zero64 = self.b.ins().iconst(types::I64, 0);
        // (Not `consts.zero`: the last segment's may not dominate here.)
        let zero = self.splat_const(0);
        self.b
            .ins()
            .jump(check, &[zero64.into(), expect.into(), zero.into()]);
        self.b.switch_to_block(check);
        let params = self.b.block_params(check).to_vec();
        let (offset, mut expect, mut differ) = (params[0], params[1], params[2]);
        let lanes = self.b.ins().iadd(self.vgpr, offset);
        for g in 0..4 {
            let v = self.b.ins().load(types::I32X4, mem(), lanes, at + 16 * g);
            let x = self.b.ins().bxor(v, expect);
            differ = self.b.ins().bor(differ, x);
            expect = self.b.ins().iadd(expect, four);
        }
        let next = self.b.ins().iadd_imm_s(offset, 64);
        let more = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, next, 256);
        self.b.ins().brif(
            more,
            check,
            &[next.into(), expect.into(), differ.into()],
            checked,
            &[differ.into()],
        );
        self.b.switch_to_block(checked);
        let differ = self.b.block_params(checked)[0];
        let any = self.b.ins().vany_true(differ);
        let same = self.b.ins().icmp_imm_u(IntCC::Equal, any, 0);
        self.require(ok, same);
        let b = self.b.ins().uextend(types::I64, lane0);
        let s = self.b.ins().sextend(types::I64, step);
        let exact = self.exact(b, s);
        self.require(ok, exact);
        let a = Affine { b, s };
        rows.insert(row, a);
        Ok(a)
    }

    /// A slice instruction on affine values: its result row (and carry,
    /// as 0 or 1), with the conditions that make them exact in `ok`.
    fn affine_instr(
        &mut self,
        op: &Op,
        kind: Kind,
        rows: &mut HashMap<u16, Affine>,
        carries: &mut HashMap<u16, Value>,
        ok: &mut Value,
    ) -> Result<(), String> {
        let dst = Self::vdst(op)?;
        let result = match kind {
            Kind::VMov => self.affine_src(op.slot_src(0), rows, ok)?,
            Kind::VAddSub { sub, rev } => {
                let x = self.affine_src(op.slot_src(0), rows, ok)?;
                let y = self.affine_src(op.slot_src(1), rows, ok)?;
                let (x, y) = if rev { (y, x) } else { (x, y) };
                let carry_in = match op.slot_src(2) {
                    Src::None => None,
                    Src::Sgpr(c) => Some(match carries.get(&(c & 127)) {
                        Some(&c) => c,
                        None => {
                            // A lane mask from before the region: all
                            // lanes' bits one value.
                            let bits = self.read_mask(Src::Sgpr(c))?;
                            let none = self.b.ins().icmp_imm_u(IntCC::Equal, bits, 0);
                            let all = self.b.ins().icmp_imm_s(IntCC::Equal, bits, -1);
                            let either = self.b.ins().bor(none, all);
                            self.require(ok, either);
                            self.b.ins().uextend(types::I64, all)
                        }
                    }),
                    other => return Err(format!("carry source {other:?}")),
                };
                let (mut b, s) = if sub {
                    (self.b.ins().isub(x.b, y.b), self.b.ins().isub(x.s, y.s))
                } else {
                    (self.b.ins().iadd(x.b, y.b), self.b.ins().iadd(x.s, y.s))
                };
                if let Some(c) = carry_in {
                    b = if sub {
                        self.b.ins().isub(b, c)
                    } else {
                        self.b.ins().iadd(b, c)
                    };
                }
                // Every lane's carry (or borrow) the one of lane 0: lanes
                // 0 and 63 in the same 2^32 window.
                let last = self.b.ins().imul_imm_s(s, 63);
                let last = self.b.ins().iadd(b, last);
                let window0 = self.b.ins().sshr_imm_u(b, 32);
                let window63 = self.b.ins().sshr_imm_u(last, 32);
                let same = self.b.ins().icmp(IntCC::Equal, window0, window63);
                self.require(ok, same);
                if op.sdst != u8::MAX {
                    let code = vector::sdst_code(op) & 127;
                    let carry = self.b.ins().icmp_imm_s(IntCC::NotEqual, window0, 0);
                    let carry = self.b.ins().uextend(types::I64, carry);
                    carries.insert(code, carry);
                }
                let b = self.b.ins().band_imm_u(b, 0xffff_ffff);
                Affine { b, s }
            }
            Kind::VShift(Shift::Left, rev) => {
                let (value, amount) = if rev { (1, 0) } else { (0, 1) };
                let v = self.affine_src(op.slot_src(value), rows, ok)?;
                let n = self.affine_src(op.slot_src(amount), rows, ok)?;
                let uniform = self.b.ins().icmp_imm_u(IntCC::Equal, n.s, 0);
                self.require(ok, uniform);
                let k = self.b.ins().band_imm_u(n.b, 31);
                // No lane loses a bit: the larger end below 2^(32 - k).
                let last = self.b.ins().imul_imm_s(v.s, 63);
                let last = self.b.ins().iadd(v.b, last);
                let top = self.b.ins().umax(v.b, last);
                let width = self.b.ins().iconst(types::I64, 32);
                let room = self.b.ins().isub(width, k);
                let lost = self.b.ins().ushr(top, room);
                let kept = self.b.ins().icmp_imm_u(IntCC::Equal, lost, 0);
                self.require(ok, kept);
                Affine {
                    b: self.b.ins().ishl(v.b, k),
                    s: self.b.ins().ishl(v.s, k),
                }
            }
            Kind::VInt(VInt::MulLo) => {
                // By a uniform factor, no lane's product past 32 bits.
                let x = self.affine_src(op.slot_src(0), rows, ok)?;
                let y = self.affine_src(op.slot_src(1), rows, ok)?;
                let uniform = self.b.ins().icmp_imm_u(IntCC::Equal, y.s, 0);
                self.require(ok, uniform);
                let last = self.b.ins().imul_imm_s(x.s, 63);
                let last = self.b.ins().iadd(x.b, last);
                let top = self.b.ins().umax(x.b, last);
                // Both below 2^32: the product fits 64 bits.
                let product = self.b.ins().imul(top, y.b);
                let fits = self
                    .b
                    .ins()
                    .icmp_imm_u(IntCC::UnsignedLessThan, product, 1 << 32);
                self.require(ok, fits);
                Affine {
                    b: self.b.ins().imul(x.b, y.b),
                    s: self.b.ins().imul(x.s, y.b),
                }
            }
            _ => return Err(format!("{} has no affine form", op.instr)),
        };
        rows.insert(dst, result);
        Ok(())
    }

    /// A fused region's access in its pass: a load's words into its rows
    /// (the store is made after the last pass).
    pub(super) fn fused_access(&mut self, p: Predicted) -> Result<(), String> {
        let access = p.access;
        if access.store {
            return Ok(());
        }
        // Lane `l`'s bytes at `l * size`: the pass's row offset (`4 * l`)
        // times the dwords.
        let row_base = self.row_base.ok_or("no pass")?;
        let offset = self.b.ins().isub(row_base, self.vgpr);
        let at = self.b.ins().imul_imm_u(offset, access.dwords as i64);
        let at = self.b.ins().iadd(p.host, at);
        let words: Vec<Value> = (0..access.dwords)
            .map(|m| {
                self.b
                    .ins()
                    .load(types::I32X4, host_memory(), at, 16 * m as i32)
            })
            .collect();
        let rows = self.interleave(&words, true);
        for (k, v) in (0..).zip(rows) {
            self.write_row(access.data + k, Lanes { v, flushed: false });
        }
        Ok(())
    }
}
