//! The compiled tier: hot straight-line runs of scalar and vector ALU
//! instructions translated into host code (Cranelift), run in place of the
//! interpreter with the same results.
//!
//! **Blocks.** At pre-decode, every instruction the tier can translate
//! ([`lower::kind_of`]) that starts a run of such instructions (its
//! predecessor is not one, or it is a branch target) heads a *block*: the
//! run from it to the first instruction the tier cannot translate, or to a
//! branch (which ends the block and is part of it). The head's `Op` gets
//! the block's number ([`super::Op::block`]); blocks may overlap (a branch
//! into the middle of one heads its own).
//!
//! **Tiering.** The interpreter's loop ([`super::run_wave`], and
//! [`super::run_wave_checked`] when its hook allows) hands a head to
//! [`enter`], which counts the block's visits and, once the block is hot,
//! translates it (one thread at a time; the others keep interpreting) and
//! from then on runs it compiled. A block compiles for the MODE register it
//! first runs under, in two variants: all lanes on, and any EXEC.
//! A wave whose MODE differs, whose step budget or register allocation the
//! block would overrun, or that has GPR indexing on runs the block through
//! the interpreter. Translated code is kept with the pre-decoded program,
//! so later launches start compiled.
//!
//! **Exactness.** The code computes what the interpreter's handlers do, bit
//! for bit (MODE's denormal rules included; a block compiles only in round
//! to nearest even), and leaves the wave's accounting (steps, budget,
//! lane operations) as the interpreter would. `tests.rs` runs random
//! blocks through both and compares every register; the compiled fixtures
//! run with the tier forced on every block (`TierMode::Eager`).
//!
//! **Checks.** A checked launch runs blocks compiled too, in variants of
//! their own that call the checks' hooks ([`crate::exec::Hook::compiled`]):
//! `before` for every translated instruction, in program order, ahead of
//! the run of vector instructions it belongs to (the hooks read no value
//! those instructions compute), and `before` and `after` around each
//! instruction run through its handler, as the interpreter does. A traced
//! launch and the profile's counting interpret.

#[cfg(feature = "jit")]
mod lower;
#[cfg(all(test, feature = "jit"))]
mod tests;
#[cfg(all(test, feature = "jit"))]
mod tests_fused;
#[cfg(all(test, feature = "jit"))]
mod tests_memory;

use std::time::Duration;

/// The block number of an `Op` that heads no block.
pub(crate) const NO_BLOCK: u32 = u32::MAX;

/// How a launch uses the compiled tier ([`crate::LaunchOptions::tier`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TierMode {
    /// The interpreter alone.
    Off,
    /// Blocks are translated once they are hot (the default).
    #[default]
    Hot,
    /// Every block is translated the first time it runs (for testing the
    /// tier on every block a kernel reaches).
    Eager,
}

impl TierMode {
    /// The mode `GCN_KERNELS_TIER` (`off`, `hot`, `eager`) names, if it is
    /// set to one of them: it overrides a launch's own.
    pub(crate) fn from_env() -> Option<TierMode> {
        static MODE: std::sync::OnceLock<Option<TierMode>> = std::sync::OnceLock::new();
        *MODE.get_or_init(|| match std::env::var("GCN_KERNELS_TIER").ok()?.as_str() {
            "off" => Some(TierMode::Off),
            "hot" => Some(TierMode::Hot),
            "eager" => Some(TierMode::Eager),
            _ => None,
        })
    }
}

/// What the compiled tier did in a launch ([`crate::LaunchStats::tier`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TierStats {
    /// Blocks translated during the launch.
    pub blocks_compiled: u64,
    /// Instructions in them.
    pub instructions_compiled: u64,
    /// Time spent translating them (summed over host threads).
    pub translate_time: Duration,
    /// Instructions executed as compiled code (summed over waves).
    pub steps_compiled: u64,
}

#[cfg(feature = "jit")]
pub(crate) use enabled::*;

#[cfg(not(feature = "jit"))]
pub(crate) use disabled::*;

/// Without the `jit` feature: no blocks, and nothing to run.
#[cfg(not(feature = "jit"))]
mod disabled {
    use super::TierStats;
    use crate::exec::Decoded;
    use gcn_asm::GcnVersion;

    /// The tier's state of a pre-decoded program: nothing without `jit`.
    #[derive(Debug, Default)]
    pub(crate) struct Tier;

    impl Tier {
        /// Totals so far (always zero).
        pub fn totals(&self) -> TierStats {
            TierStats::default()
        }
    }

    /// Marks no block heads.
    pub(crate) fn build(_: &mut Decoded, _: GcnVersion, _: bool) -> Tier {
        Tier
    }

    /// Never called: no `Op` heads a block.
    #[inline(always)]
    pub(crate) fn enter(
        _: &mut crate::exec::Wave,
        _: &Decoded,
        _: &mut crate::exec::Env<'_>,
        _: u32,
        _: super::TierMode,
        _: Option<&mut dyn crate::exec::Hook>,
    ) -> Option<Result<crate::exec::Step, Box<crate::exec::Fault>>> {
        None
    }
}

#[cfg(feature = "jit")]
mod enabled {
    use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
    use std::sync::{Mutex, OnceLock};
    use std::time::{Duration, Instant};

    use gcn_asm::decode::Operand;
    use gcn_asm::GcnVersion;

    use super::lower::{self, Kind};
    use super::{TierMode, TierStats};
    use crate::exec::{Decoded, Env, Fault, FaultKind, Hook, Step, Wave, MODE_GPR_IDX_EN};

    /// Most instructions in one block (a longer run is split: its rest
    /// heads the next block).
    const MAX_BLOCK: usize = 512;

    /// A compiled block: `vgpr` the wave's VGPR rows, `sgpr` its 128
    /// scalar registers, `scc` its SCC (0 or 1), `exec` its EXEC (masked by
    /// the wave's lanes), `iterations` the most times a block that loops
    /// on itself may run (at least 1), replaced by the times it ran;
    /// returns the PC after the block.
    pub(super) type BlockFn = unsafe extern "C" fn(
        vgpr: *mut u32,
        sgpr: *mut u32,
        scc: *mut u8,
        exec: u64,
        iterations: *mut u64,
        calls: *mut CallCtx<'_>,
    ) -> u32;

    /// What a handler called from a block ([`call_handler`]) runs with, and
    /// where a handler that stops the block leaves its outcome.
    pub(super) struct CallCtx<'h> {
        wave: *mut Wave,
        env: *mut (),
        ops: *const Decoded,
        pub(super) block: *const Block,
        /// The checks' hook of a checked launch.
        hook: Option<&'h mut dyn Hook>,
        /// The instruction (index in the block) that stopped it, and its
        /// handler's outcome.
        stopped: Option<(usize, Result<Step, Fault>)>,
        /// The dispatch's dense spans and its hints, each the index of a
        /// span (`crate::memory::MemView::dense_spans`, `dense_hints`),
        /// which the block's inline memory accesses read.
        pub(super) dense: *const crate::memory::DenseSpan,
        pub(super) hints: *const AtomicU32,
        /// The checks' ranges of [`Hook::plain_ranges`], an entry per slot
        /// of `Decoded::ops`, while the hook has them, else null: a checked
        /// block's access inside its slot's range needs no call, and its
        /// `before` hooks none either.
        pub(super) plain: *const [u64; 2],
    }

    /// [`CallCtx::plain`] of `hook` for a program of `slots` slots.
    #[inline]
    fn plain_ranges(hook: Option<&dyn Hook>, slots: usize) -> *const [u64; 2] {
        hook.and_then(|h| h.plain_ranges())
            .filter(|ranges| ranges.len() >= slots)
            .map_or(std::ptr::null(), |ranges| ranges.as_ptr())
    }

    /// Runs instruction `index` of the block through its handler, as the
    /// interpreter's loop would (the PC after it set first); 0: go on, 1:
    /// the block stops here (the outcome is in the context).
    ///
    /// # Safety
    /// `ctx` is the context [`enter`] made for the running block: its
    /// pointers are live and nothing else accesses the wave or the
    /// environment while the handler runs (the block's code keeps no
    /// register values across the call).
    pub(super) unsafe extern "C" fn call_handler(ctx: *mut CallCtx<'_>, index: u32) -> u32 {
        // SAFETY: the caller's guarantee.
        let ctx = unsafe { &mut *ctx };
        let (wave, env, ops, block) = unsafe {
            (
                &mut *ctx.wave,
                &mut *ctx.env.cast::<Env<'_>>(),
                &*ctx.ops,
                &*ctx.block,
            )
        };
        let index = index as usize;
        let Some(op) = block
            .instrs
            .get(index)
            .and_then(|&(_, slot)| ops.ops().get(slot as usize))
        else {
            ctx.stopped = Some((index, Err(Fault::new(FaultKind::BadPc))));
            return 1;
        };
        let (pc, slot) = block.instrs[index];
        let outcome = match ctx.hook.as_deref_mut() {
            Some(hook) => {
                wave.pc = pc;
                let outcome = hook.around(wave, op, slot as usize, env, op.handler);
                ctx.plain = plain_ranges(Some(hook), ops.ops().len());
                outcome
            }
            None => {
                wave.pc = pc.wrapping_add(u32::from(op.len));
                (op.handler)(wave, op, env)
            }
        };
        match outcome {
            Ok(Step::Next) => 0,
            outcome => {
                ctx.stopped = Some((index, outcome));
                1
            }
        }
    }

    /// The host address of the dense access `[address, address + bytes)`
    /// when one span holds it (recording the span as hint `hint`), else 0:
    /// what a block's inline memory access asks when its hint misses
    /// (`crate::memory::MemView::dense_lookup`).
    ///
    /// # Safety
    /// As [`call_handler`].
    pub(super) unsafe extern "C" fn dense_lookup(
        ctx: *mut CallCtx<'_>,
        hint: u32,
        address: u64,
        bytes: u64,
    ) -> u64 {
        // SAFETY: the caller's guarantee.
        let env = unsafe { &*(*ctx).env.cast::<Env<'_>>() };
        env.mem
            .dense_lookup(hint as usize, address, bytes)
            .unwrap_or(0)
    }

    /// In a checked block: 1 when the checks' hook lets the block make
    /// instruction `index`'s access (`lanes` lanes, lane `l`'s `len` bytes
    /// at `address + l * len`) itself ([`Hook::skips_access`]), else 0:
    /// the instruction then runs through [`call_handler`].
    ///
    /// # Safety
    /// As [`call_handler`].
    pub(super) unsafe extern "C" fn access_allowed(
        ctx: *mut CallCtx<'_>,
        index: u32,
        address: u64,
        len: u32,
        lanes: u32,
    ) -> u32 {
        // SAFETY: the caller's guarantee.
        let ctx = unsafe { &mut *ctx };
        let block = unsafe { &*ctx.block };
        let (Some(hook), Some(&(_, slot))) =
            (ctx.hook.as_deref_mut(), block.instrs.get(index as usize))
        else {
            return 0;
        };
        u32::from(hook.skips_access(slot as usize, address, len, lanes as u8))
    }

    /// Calls the checks' `before` hook for instructions `first..=last` of
    /// the block, in order, each with the wave's PC at it (a checked
    /// block calls it ahead of each translated instruction or run of
    /// vector instructions).
    ///
    /// # Safety
    /// As [`call_handler`].
    pub(super) unsafe extern "C" fn check_before(ctx: *mut CallCtx<'_>, first: u32, last: u32) {
        // SAFETY: the caller's guarantee.
        let ctx = unsafe { &mut *ctx };
        let (wave, env, ops, block) = unsafe {
            (
                &mut *ctx.wave,
                &*ctx.env.cast::<Env<'_>>(),
                &*ctx.ops,
                &*ctx.block,
            )
        };
        let (Some(hook), Some(run)) = (
            ctx.hook.as_deref_mut(),
            block.instrs.get(first as usize..=last as usize),
        ) else {
            return;
        };
        hook.before_run(wave, ops, run, env);
    }

    /// One block's translation: the code and the MODE it assumes.
    #[derive(Clone, Copy)]
    pub(super) struct Compiled {
        pub entry: BlockFn,
        pub mode: u32,
    }

    /// Failed proofs of density after which a block's fused regions run
    /// unfused (a region whose lanes are seldom dense would pay the proof
    /// on every visit).
    pub(super) const MAX_FUSED_MISSES: u32 = 64;

    /// A block: where it is, what the interpreter would account for it, and
    /// its translations.
    pub(crate) struct Block {
        /// Its instructions: (byte offset, index in `Decoded::ops`).
        pub instrs: Vec<(u32, u32)>,
        /// Vector ALU instructions among them (each counts its active lanes).
        pub valu: u64,
        /// Per instruction: the vector ALU instructions before it.
        valu_before: Vec<u64>,
        /// One past the highest VGPR / general SGPR they name.
        pub vgpr_end: u16,
        pub sgpr_end: u16,
        /// True when its last instruction is no branch: an entry runs it
        /// once, to its end or to a handler that stops it.
        pub falls_through: bool,
        /// True when it ends with a branch to its own start: its code may
        /// run it several times in one entry (`iterations`).
        pub(super) loops: bool,
        /// The instruction after a block that falls through, when it ends
        /// the wave (`s_endpgm`: no successor, no operand; its index in
        /// `Decoded::ops`): an unchecked entry ends the wave itself, as its
        /// handler would, rather than going back to the interpreter's loop
        /// for it.
        end_slot: Option<u32>,
        /// Visits so far (counted racily: a lost count only delays the
        /// translation).
        hits: AtomicU32,
        /// Visits after which the block is translated.
        threshold: u32,
        /// Fused regions' proofs of density that failed in the block's
        /// code (`lower::fused`; counted by the code, atomically): past
        /// [`MAX_FUSED_MISSES`] its regions run unfused.
        pub(super) fused_misses: AtomicU32,
        /// The translations for EXEC = all lanes and for any EXEC, unchecked
        /// and calling the checks' hooks (`None` inside: the translation
        /// failed, the interpreter runs it), by [`Block::variant`].
        variants: [OnceLock<Option<Compiled>>; 4],
    }

    /// The tier's state of a pre-decoded program: its blocks, the code
    /// generator, and what it has done.
    pub(crate) struct Tier {
        pub blocks: Vec<Block>,
        pub version: GcnVersion,
        pub wave32: bool,
        jit: Mutex<Option<lower::Jit>>,
        compiled: AtomicU64,
        instructions: AtomicU64,
        nanos: AtomicU64,
    }

    impl Block {
        /// Byte offset of its first instruction (a block whose branch goes
        /// back to it loops inside its code).
        pub fn start(&self) -> u32 {
            self.instrs.first().map_or(0, |&(pc, _)| pc)
        }

        /// The slot of the translation for `full` EXEC and `checked`.
        fn variant(&self, full: bool, checked: bool) -> &OnceLock<Option<Compiled>> {
            &self.variants[usize::from(full) + 2 * usize::from(checked)]
        }
    }

    impl Default for Tier {
        fn default() -> Self {
            Tier::new(Vec::new(), GcnVersion::Gcn1_0, false)
        }
    }

    impl std::fmt::Debug for Tier {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "Tier({} blocks)", self.blocks.len())
        }
    }

    impl Tier {
        fn new(blocks: Vec<Block>, version: GcnVersion, wave32: bool) -> Self {
            Tier {
                blocks,
                version,
                wave32,
                jit: Mutex::new(None),
                compiled: AtomicU64::new(0),
                instructions: AtomicU64::new(0),
                nanos: AtomicU64::new(0),
            }
        }

        /// Totals so far (`steps_compiled` is the waves' to count).
        pub fn totals(&self) -> TierStats {
            TierStats {
                blocks_compiled: self.compiled.load(Ordering::Relaxed),
                instructions_compiled: self.instructions.load(Ordering::Relaxed),
                translate_time: Duration::from_nanos(self.nanos.load(Ordering::Relaxed)),
                steps_compiled: 0,
            }
        }

        /// Translates `block` for `full` EXEC under `mode` unless another
        /// thread is translating (then `None`, and the caller interprets).
        #[cold]
        #[inline(never)]
        fn translate(
            &self,
            ops: &Decoded,
            block: &Block,
            full: bool,
            checked: bool,
            mode: u32,
        ) -> Option<Option<Compiled>> {
            let mut guard = self.jit.try_lock().ok()?;
            let slot = block.variant(full, checked);
            if let Some(done) = slot.get() {
                return Some(*done);
            }
            let started = Instant::now();
            let jit = match &mut *guard {
                Some(jit) => Some(jit),
                None => lower::Jit::new().map(|jit| guard.insert(jit)),
            };
            let code = jit.and_then(|jit| {
                let plan = lower::Plan {
                    ops,
                    block,
                    version: self.version,
                    wave32: self.wave32,
                    full,
                    checked,
                    mode,
                    ends_wave: ops.end_discards_registers && block.end_slot.is_some(),
                };
                jit.compile(&plan).ok()
            });
            self.nanos.fetch_add(
                u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX),
                Ordering::Relaxed,
            );
            if code.is_some() {
                self.compiled.fetch_add(1, Ordering::Relaxed);
                self.instructions
                    .fetch_add(block.instrs.len() as u64, Ordering::Relaxed);
            }
            let _ = slot.set(code);
            Some(code)
        }
    }

    impl Drop for Tier {
        fn drop(&mut self) {
            if let Ok(Some(jit)) = self.jit.get_mut().map(Option::take) {
                // SAFETY: the tier is being dropped, so no wave can be in
                // or enter its code (waves reach it only through the
                // `Decoded` that owns this tier).
                unsafe { jit.free() };
            }
        }
    }

    /// Finds the blocks of `ops` and gives each head's `Op` (a copy of its
    /// own, as heads are positional) the block's number.
    pub(crate) fn build(ops: &mut Decoded, version: GcnVersion, wave32: bool) -> Tier {
        let words = ops.words();
        let mut target = vec![false; words];
        for op in ops.ops() {
            for operand in op.instr.operands() {
                if let Operand::Target(t) = *operand {
                    if t >= 0 && t % 4 == 0 && ((t / 4) as usize) < words {
                        target[(t / 4) as usize] = true;
                    }
                }
            }
        }
        // Per word: the kind of the instruction starting there, if the tier
        // takes it.
        let kinds: Vec<Option<Kind>> = (0..words)
            .map(|w| ops.get(w).and_then(|op| lower::kind_of(op, version)))
            .collect();
        let mut blocks = Vec::new();
        let mut heads = Vec::new();
        let mut previous_flows_in = false;
        let mut w = 0;
        while w < words {
            let Some(op) = ops.get(w) else {
                previous_flows_in = false;
                w += 1;
                continue;
            };
            let len = usize::from(op.len / 4).max(1);
            if kinds[w].is_some() && (!previous_flows_in || target[w]) {
                if let Some(block) = block_at(ops, &kinds, w) {
                    heads.push((w, blocks.len() as u32));
                    blocks.push(block);
                }
            }
            previous_flows_in = kinds[w].is_some_and(|k| !k.ends_block());
            w += len;
        }
        for (w, number) in heads {
            if let Some(op) = ops.get(w) {
                let mut op = op.clone();
                op.block = number;
                ops.replace(w, op);
            }
        }
        Tier::new(blocks, version, wave32)
    }

    /// The block that starts at word `w`.
    fn block_at(ops: &Decoded, kinds: &[Option<Kind>], mut w: usize) -> Option<Block> {
        let mut block = Block {
            instrs: Vec::new(),
            valu: 0,
            valu_before: Vec::new(),
            vgpr_end: 0,
            sgpr_end: 0,
            falls_through: true,
            loops: false,
            end_slot: None,
            hits: AtomicU32::new(0),
            fused_misses: AtomicU32::new(0),
            threshold: 0,
            variants: Default::default(),
        };
        let mut translated = 0;
        // What translating the block costs, in instructions of ALU code: a
        // vector memory instruction the block may make itself
        // (`lower::inline_memory`) is about eight, a scalar load three.
        let mut weight = 0;
        // Vector ALU and inline vector memory instructions both: the block
        // may hold a fused region (`lower::fused`).
        let (mut valu, mut vector_memory) = (false, false);
        while let (Some(Some(kind)), Some(op)) = (kinds.get(w), ops.get(w)) {
            translated += usize::from(*kind != Kind::Call);
            valu |= op.valu;
            vector_memory |= lower::inline_memory(op).is_some();
            weight += if lower::inline_memory(op).is_some() {
                8
            } else if crate::exec::smem::load_dwords(op.instr.row.op).is_some() {
                3
            } else {
                1
            };
            let slot = ops.slot((w * 4) as u32)? as u32;
            block.instrs.push(((w * 4) as u32, slot));
            block.valu_before.push(block.valu);
            block.valu += u64::from(op.valu);
            block.vgpr_end = block.vgpr_end.max(op.vgpr_end);
            block.sgpr_end = block.sgpr_end.max(op.sgpr_end);
            w += usize::from(op.len / 4).max(1);
            if kind.ends_block() || block.instrs.len() >= MAX_BLOCK {
                block.falls_through = !kind.ends_block();
                let start = i64::from(block.start());
                block.loops = kind.ends_block()
                    && op
                        .instr
                        .operands()
                        .iter()
                        .any(|o| matches!(*o, Operand::Target(t) if i64::from(t) == start));
                break;
            }
        }
        if block.falls_through {
            block.end_slot = ops
                .get(w)
                .filter(|op| ends_wave(op))
                .and_then(|_| ops.slot((w * 4) as u32))
                .map(|slot| slot as u32);
        }
        // Handler calls alone gain nothing.
        if translated == 0 {
            return None;
        }
        // Translation costs about as much as interpreting the block a few
        // hundred times (measured: `benches/emulator.rs`, `tier/…`); a block
        // visited that often is likely to be visited as often again, so the
        // translation costs a run at most about what it saves (the 332
        // OpenCL fixture runs, each launched once, measure the balance:
        // `tests/opencl_run.rs`, `compiled_tier_…`). A single
        // instruction gains nothing from the call: it is translated only in
        // `TierMode::Eager` (which tests the tier on every instruction).
        // A fused region translates in about 1.7 times the host
        // instructions of the segments it replaces (its ordinary form is
        // kept beside it) and runs about 1.25 times as fast: such a block
        // waits for twice the visits (measured on the 332 fixture runs,
        // each launched once: a kernel run once pays about 11% for
        // tiering with the plain threshold, about 6% before fusion).
        let fuses = if valu && vector_memory { 2 } else { 1 };
        block.threshold = match block.instrs.len() {
            0 => return None,
            1 => u32::MAX,
            _ => (fuses * 8192 / weight as u32).clamp(32, 2048),
        };
        Some(block)
    }

    /// True when `op` ends the wave: control goes nowhere after it (no
    /// fall-through, no target) and it names no register (`s_endpgm` and
    /// its variants; not `s_setpc_b64` or `s_rfe_b64`).
    pub(crate) fn ends_wave(op: &crate::exec::Op) -> bool {
        crate::exec::flow(op.instr.row) == crate::exec::Flow::Jump
            && op
                .instr
                .operands()
                .iter()
                .all(|o| !matches!(o, Operand::Target(_)))
            && op.instr.accesses().is_empty()
    }

    /// True when `ops` has a block and touches no memory (so a second run on
    /// the same memory starts from the same state): the snippets that
    /// `exec::testing` runs again through the tier.
    #[cfg(test)]
    pub(crate) fn pure_alu(ops: &Decoded) -> bool {
        use gcn_asm::isa::Unit;
        !ops.tier.blocks.is_empty()
            && ops
                .ops()
                .iter()
                .all(|op| matches!(op.instr.row.unit(), Unit::Salu | Unit::Valu))
    }

    /// Panics unless the two waves' architectural state and accounting are
    /// the same (`source` names the code in the message).
    #[cfg(test)]
    pub(crate) fn assert_same(source: &str, interpreted: &Wave, compiled: &Wave) {
        let (a, b) = (interpreted, compiled);
        for (r, (x, y)) in a.vgpr.iter().zip(&b.vgpr).enumerate() {
            if x != y {
                let lane = x.iter().zip(y).position(|(p, q)| p != q).unwrap_or(0);
                let lanes: Vec<usize> = (0..x.len()).filter(|&l| x[l] != y[l]).collect();
                panic!(
                    "the compiled tier leaves v{r} lane {lane} = {:#010x}, the interpreter {:#010x} \
                     (lanes {lanes:?} differ; EXEC {:#x}, MODE {:#x})\n{source}",
                    y[lane],
                    x[lane],
                    a.exec(),
                    a.mode
                );
            }
        }
        for (c, (x, y)) in a.sgpr.iter().zip(&b.sgpr).enumerate() {
            assert_eq!(
                x, y,
                "the compiled tier leaves scalar register {c} = {y:#x}, the interpreter {x:#x}\n{source}"
            );
        }
        let state = |w: &Wave| {
            (
                w.scc, w.pc, w.mode, w.trapsts, w.steps, w.lane_ops, w.budget,
            )
        };
        assert_eq!(
            state(a),
            state(b),
            "(scc, pc, mode, trapsts, steps, lane_ops, budget) differ under the compiled tier\n{source}"
        );
    }

    /// Runs the block `number` (headed by the instruction at the wave's PC)
    /// compiled, if it is compiled or now hot and the wave's state allows,
    /// and returns what the interpreter's loop would have after it (`Ok(Step::Next)`
    /// to go on, a fault boxed); `None`: the interpreter runs the
    /// instruction at the PC.
    #[inline]
    pub(crate) fn enter(
        wave: &mut Wave,
        ops: &Decoded,
        env: &mut Env<'_>,
        number: u32,
        mode: TierMode,
        checks: Option<&mut dyn Hook>,
    ) -> Option<Result<Step, Box<Fault>>> {
        if mode == TierMode::Off {
            return None;
        }
        let tier = &ops.tier;
        let block = tier.blocks.get(number as usize)?;
        let steps = block.instrs.len() as u64;
        if wave.budget < steps
            || block.vgpr_end > wave.vgpr_limit
            || block.sgpr_end > wave.sgpr_limit
            || wave.mode & MODE_GPR_IDX_EN != 0
        {
            return None;
        }
        let exec = wave.exec();
        let full = exec == wave.lane_mask;
        let checked = checks.is_some();
        let slot = block.variant(full, checked);
        let code = match slot.get() {
            Some(code) => *code,
            None => {
                let hits = block.hits.load(Ordering::Relaxed).saturating_add(1);
                block.hits.store(hits, Ordering::Relaxed);
                // A checked block saves less per visit (the checks' hooks
                // still run for each instruction): it waits for four times
                // the visits, so that a kernel run once pays no more for
                // translation than it gains.
                let threshold = if checked {
                    block.threshold.saturating_mul(4)
                } else {
                    block.threshold
                };
                if mode != TierMode::Eager && hits < threshold {
                    return None;
                }
                tier.translate(ops, block, full, checked, wave.mode)?
            }
        };
        let code = code?;
        if code.mode != wave.mode {
            return None;
        }
        // SAFETY: the block's code reads and writes VGPR rows below
        // `block.vgpr_end` (checked against the allocation above, which
        // `wave.vgpr` holds), the 128 scalar registers of `wave.sgpr`, and
        // the byte of `wave.scc`, to which it stores only 0 or 1
        // (`lower::Gen`), and `iterations`, which it sets to at most the
        // value it finds; the wave is exclusively borrowed, and every pointer
        // to it derives from `wave_ptr`, which `call_handler` also uses
        // while the code waits for it (the code keeps no register value in
        // host registers across a call). It reads the checks' ranges
        // (`CallCtx::plain`) at `16 * slot` for slots of `ops` only when the
        // pointer is not null, which `plain_ranges` makes it only for a
        // table with an entry per slot; the hook's table is not resized
        // while it lends it (`check::GroupCheck::plain`: sized once, at the
        // launch's first group of the thread).
        // (A division: made only for a block that may go round.)
        let mut iterations = if block.loops { wave.budget / steps } else { 1 };
        let mut checks = checks;
        if let Some(hook) = checks.as_deref_mut() {
            hook.enter_block(wave, number, &block.instrs, block.falls_through);
        }
        let wave_ptr: *mut Wave = wave;
        let (spans, hints) = (env.mem.dense_spans(), env.mem.dense_hints());
        let mut calls = CallCtx {
            wave: wave_ptr,
            env: std::ptr::from_mut(env).cast::<()>(),
            ops,
            block,
            hook: checks,
            stopped: None,
            dense: spans.as_ptr(),
            hints: hints.as_ptr(),
            plain: std::ptr::null(),
        };
        calls.plain = plain_ranges(calls.hook.as_deref(), ops.ops().len());
        let next = unsafe {
            (code.entry)(
                (*wave_ptr).vgpr.as_mut_ptr().cast::<u32>(),
                (*wave_ptr).sgpr.as_mut_ptr(),
                std::ptr::addr_of_mut!((*wave_ptr).scc).cast::<u8>(),
                exec,
                &mut iterations,
                &mut calls,
            )
        };
        let stopped = calls.stopped.take();
        if let Some(hook) = calls.hook.as_deref_mut() {
            hook.exit_block(wave, stopped.is_none() && iterations == 1);
        }
        // Whole iterations, then the part of the last one up to the
        // instruction that stopped it (inclusive), as the interpreter counts.
        let stopped_at = stopped.as_ref().map(|(index, _)| *index);
        let (done, valu, outcome) = match stopped {
            None => (steps * iterations, block.valu * iterations, Ok(Step::Next)),
            Some((index, outcome)) => {
                let before = iterations - 1;
                let valu_through = block.valu_before[index]
                    + u64::from(ops.ops()[block.instrs[index].1 as usize].valu);
                (
                    steps * before + index as u64 + 1,
                    block.valu * before + valu_through,
                    outcome,
                )
            }
        };
        if stopped_at.is_none() {
            wave.pc = next;
        }
        wave.budget -= done;
        wave.steps += done;
        wave.compiled_steps += done;
        wave.lane_ops += valu * u64::from(exec.count_ones());
        if let (Err(_), Some(index)) = (&outcome, stopped_at) {
            // The interpreter reports a fault at the faulting instruction.
            wave.pc = block.instrs[index].0;
        }
        // The instruction that ends the wave after the block, as the
        // interpreter's loop would run it next (it names no register and
        // is no vector instruction: only the budget to test). Its handler
        // does nothing but end the wave (`ends_wave`; a test holds every
        // such row's handler to it), so its outcome is made here: the call
        // and its returned `Result` cost a wave of a streaming kernel more
        // than its block's entry does.
        // Checked, the hook must have nothing to do for it
        // (`Hook::ends_quietly`).
        if let (Ok(Step::Next), Some(slot)) = (&outcome, block.end_slot) {
            if let Some(op) = ops.ops().get(slot as usize).filter(|_| {
                wave.budget > 0
                    && calls
                        .hook
                        .as_deref_mut()
                        .is_none_or(|hook| hook.ends_quietly(wave, slot as usize))
            }) {
                wave.budget -= 1;
                wave.steps += 1;
                wave.pc = wave.pc.wrapping_add(u32::from(op.len));
                return Some(Ok(Step::End));
            }
        }
        // (A fault boxed: the outcome then comes back in two registers; the
        // unboxed one, written to memory in parts and read back whole, cost
        // the caller a stalled load per block entry.)
        Some(outcome.map_err(Box::new))
    }
}
