//! [`super::Check::Waitcnt`]: outstanding memory events per wave and the
//! registers they will write or still have to read, retired as
//! `s_waitcnt` (or a full counter) allows. The model is described in the
//! [module documentation](super).
//!
//! The barrier rule: no generation (GCN 1.0 to RDNA 2) waits for memory
//! at `s_barrier` (LLVM puts a full `s_waitcnt` before each one for that
//! reason, and on GCN 1.5+ `s_waitcnt_vscnt null, 0` for the stores, which
//! count in `vscnt` there). A store
//! or atomic (LDS, GDS, global, scratch) still in flight when its wave
//! reaches `s_barrier` may land after another wave of the work-group,
//! released by the barrier, accesses the same bytes: that access (before
//! the next barrier) is reported, naming the barrier, the store and its
//! wave. Loads in flight at a barrier are no error.

use gcn_asm::GcnVersion;

use super::facts::{Counter, Facts, RegMask, Regs, Unit};
use super::{Check, GroupCheck};
use crate::exec::{sreg, Decoded, MemAccess, Src, Wave};

/// One outstanding event.
#[derive(Debug, Clone, Copy)]
struct Event {
    counter: Counter,
    /// Returns in order with the other in-order events of its counter.
    ordered: bool,
    weight: u8,
    /// Byte offset of the instruction.
    pc: u32,
    /// True for the expcnt event of a store's data read (the event reads
    /// [`Facts::store_data`]; the others write [`Facts::writes`]).
    data: bool,
    /// Issue number in the wave: the key of the bytes a store writes.
    seq: u64,
}

/// Bytes a store or atomic writes: (in LDS, first byte, end).
type Span = (bool, u64, u64);

/// Spans kept per store.
const SPANS: usize = 4;

/// The bytes of one pending store or atomic.
#[derive(Debug, Clone, Copy)]
struct Store {
    /// The issue number of its events ([`Event::seq`]).
    seq: u64,
    /// Its PC (that of its events), kept so that a barrier names it
    /// without looking for the event.
    pc: u32,
    spans: [Span; SPANS],
    /// How many of `spans` are used.
    n: u8,
}

/// The outstanding events of one wave, oldest first, with running totals
/// so that issuing, a wait that finds nothing to retire and a wait for
/// every pending counter to reach zero cost no scan of the events.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pending: Vec<Event>,
    /// The bytes of the pending stores and atomics, in issue order. Each
    /// has a pending event that is no data read ([`Counters::forget_retired`]
    /// keeps it so).
    writes: Vec<Store>,
    issued: u64,
    /// The registers the pending events touch, or more: an instruction
    /// touching none of them needs no look at the events (the exact test,
    /// [`first_overlap`], reads each event's registers from its facts).
    /// Events leaving keep their registers here until none is pending, so
    /// that an event carries no copy of its set.
    regs: RegMask,
    /// The pending weight of each counter ([`slot`]).
    weights: [u32; SLOTS],
    /// The pending weight of each counter's in-order events: with it, the
    /// in-order events a wait retires are found oldest first.
    ordered: [u32; SLOTS],
    /// The number of pending events of each counter.
    counts: [u32; SLOTS],
}

/// The counters: `vmcnt`, `lgkmcnt`, `expcnt` and (GCN 1.5+) `vscnt`.
const SLOTS: usize = 4;

/// The index of `counter` in [`Counters::weights`].
fn slot(counter: Counter) -> usize {
    match counter {
        Counter::Vm => 0,
        Counter::Lgkm => 1,
        Counter::Exp => 2,
        Counter::Vs => 3,
    }
}

/// A limit of [`Counters::retire`] that retires nothing: no weight
/// exceeds it.
const NO_WAIT: u32 = u32::MAX;

/// Bytes in flight at a barrier: what another wave must not touch until
/// the next barrier.
#[derive(Debug, Clone)]
pub(crate) struct InFlight {
    wave: u32,
    store_pc: u32,
    barrier_pc: u32,
    span: Span,
}

/// The barrier state of a work-group.
#[derive(Debug, Default)]
pub(crate) struct Barriers {
    /// Bytes in flight at the barrier the waves are meeting at.
    next: Vec<InFlight>,
    /// Bytes in flight at the last barrier released.
    live: Vec<InFlight>,
}

impl Barriers {
    /// Nothing in flight: the barriers of a work-group that starts now,
    /// keeping the lists' storage.
    pub(crate) fn reset(&mut self) {
        self.next.clear();
        self.live.clear();
    }

    /// Every wave met at the barrier: what was in flight at it is now live.
    pub(crate) fn release(&mut self) {
        self.live = std::mem::take(&mut self.next);
    }
}

/// The capacity of `counter` on `version`.
/// (The widths of the counters' `s_waitcnt` fields: LLVM's
/// `getVmcntBitMask`, `getLgkmcntBitMask`, `getVscntBitMask`.)
pub fn capacity(counter: Counter, version: GcnVersion) -> u32 {
    match counter {
        Counter::Vm if version.is_gcn14_or_later() => 63,
        Counter::Vm => 15,
        Counter::Exp => 7,
        Counter::Lgkm if version.is_gcn15() => 63,
        Counter::Lgkm => 15,
        Counter::Vs => 63,
    }
}

/// The (vmcnt, expcnt, lgkmcnt) an `s_waitcnt` immediate allows: vmcnt in
/// bits 3:0 (and 15:14 from GCN 1.4), expcnt in 6:4, lgkmcnt in 11:8
/// (13:8 from GCN 1.5). It never waits for `vscnt`.
pub fn decode_waitcnt(imm: u16, version: GcnVersion) -> (u32, u32, u32) {
    let imm = u32::from(imm);
    let mut vm = imm & 15;
    if version.is_gcn14_or_later() {
        vm |= (imm >> 10) & 0x30;
    }
    let lgkm = if version.is_gcn15() { 63 } else { 15 };
    (vm, (imm >> 4) & 7, (imm >> 8) & lgkm)
}

impl Counters {
    /// Retires the events that are certainly finished once at most
    /// `limits[slot(counter)]` (weighted) of each counter remain: an
    /// in-order event when its weight plus that of the in-order events
    /// after it exceeds the limit, an out-of-order one only when the limit
    /// is 0. The counters retire independently of each other, so one pass
    /// serves the three limits of an `s_waitcnt`.
    #[inline]
    fn retire(&mut self, limits: [u32; SLOTS]) {
        if self.pending.is_empty() {
            return;
        }
        // A wait for zero on every counter with events pending (the
        // common full `s_waitcnt`): every event is done.
        let all =
            (0..SLOTS).all(|s| self.counts[s] == 0 || (limits[s] == 0 && self.weights[s] > 0));
        if all {
            self.clear();
            return;
        }
        // A counter's events may be certainly done only when its pending
        // weight exceeds the limit (otherwise no in-order event is, and
        // an out-of-order one only for a wait for zero, where a weight
        // above 0 exceeds it).
        if (0..SLOTS).any(|s| self.weights[s] > limits[s]) {
            self.retire_some(limits);
        }
    }

    /// [`Counters::retire`] where some events may stay.
    #[inline(never)]
    fn retire_some(&mut self, limits: [u32; SLOTS]) {
        let acts = [0, 1, 2, 3].map(|s| self.weights[s] > limits[s]);
        // An in-order event is done when its weight and that of the later
        // in-order events of its counter exceed the limit: when the
        // counter's in-order total less the weight of the earlier ones
        // does.
        let ordered = self.ordered;
        let mut earlier = [0u32; SLOTS];
        let len = self.pending.len();
        self.pending.retain(|e| {
            let s = slot(e.counter);
            if !acts[s] {
                return true;
            }
            // A wait for zero: every event of the counter is done.
            if limits[s] == 0 {
                return false;
            }
            // An out-of-order (scalar memory) event: only a wait for zero
            // guarantees it (its counts may come back one at a time).
            if !e.ordered {
                return true;
            }
            let before = earlier[s];
            earlier[s] += u32::from(e.weight);
            ordered[s] - before <= limits[s]
        });
        if self.pending.len() != len {
            self.forget_retired();
        }
    }

    /// Retires what a full `counter` needs to issue an event of `weight`:
    /// the issue stalls until enough events finished.
    #[inline(never)]
    fn make_room(&mut self, counter: Counter, weight: u8, cap: u32) {
        let s = slot(counter);
        let mut limits = [NO_WAIT; SLOTS];
        limits[s] = cap.saturating_sub(u32::from(weight));
        self.retire(limits);
        // Still full (scalar loads, whose order is unknown): one of them
        // finished; assume the oldest (this can hide a missing wait, never
        // invent one).
        while self.weights[s] + u32::from(weight) > cap {
            match self.pending.iter().position(|e| e.counter == counter) {
                Some(i) => {
                    self.pending.remove(i);
                    self.forget_retired();
                }
                None => break,
            }
        }
    }

    /// Adds an event touching `regs` to the pending ones and to the
    /// totals.
    fn issue(&mut self, e: Event, regs: &RegMask) {
        self.regs = self.regs.union(*regs);
        self.count_in(&e);
        self.pending.push(e);
    }

    /// Adds pending event `e` to the running totals (weights, in-order
    /// weights, counts).
    #[inline]
    fn count_in(&mut self, e: &Event) {
        let s = slot(e.counter);
        let w = u32::from(e.weight);
        self.weights[s] += w;
        if e.ordered {
            self.ordered[s] += w;
        }
        self.counts[s] += 1;
    }

    /// The counters of a wave that starts now ([`Counters::default`]),
    /// keeping the lists' storage (a work-group's check state is reused by
    /// the next group its host thread runs).
    pub(crate) fn reset(&mut self) {
        self.clear();
        self.issued = 0;
    }

    /// These counters without the bytes of the stores in flight: what a
    /// replay of a run of instructions installs ([`super::replay`]; it
    /// replays only code with no `s_barrier`, the one reader of the
    /// bytes).
    pub(crate) fn without_bytes(&self) -> Counters {
        Counters {
            pending: self.pending.clone(),
            writes: Vec::new(),
            ..*self
        }
    }

    /// Becomes `other` (in this one's storage).
    pub(crate) fn copy_from(&mut self, other: &Counters) {
        self.pending.clone_from(&other.pending);
        self.writes.clone_from(&other.writes);
        self.issued = other.issued;
        self.regs = other.regs;
        self.weights = other.weights;
        self.ordered = other.ordered;
        self.counts = other.counts;
    }

    /// Every event finished: nothing pending, no store's bytes in flight.
    fn clear(&mut self) {
        self.pending.clear();
        self.writes.clear();
        self.reset_totals();
    }

    /// The running totals of no pending event.
    fn reset_totals(&mut self) {
        self.regs = RegMask::default();
        self.weights = [0; SLOTS];
        self.ordered = [0; SLOTS];
        self.counts = [0; SLOTS];
    }

    /// Events left the pending list: the totals again (the register set
    /// only once none is pending).
    fn recount(&mut self) {
        // The register set stays a superset while events are pending.
        let regs = if self.pending.is_empty() {
            RegMask::default()
        } else {
            self.regs
        };
        self.reset_totals();
        self.regs = regs;
        // (Taken out while counting: the list itself does not change.)
        let pending = std::mem::take(&mut self.pending);
        for e in &pending {
            self.count_in(e);
        }
        self.pending = pending;
    }

    /// Drops the bytes of stores whose events all finished.
    fn forget_retired(&mut self) {
        self.recount();
        if !self.writes.is_empty() {
            let pending = &self.pending;
            self.writes
                .retain(|w| pending.iter().any(|e| e.seq == w.seq && !e.data));
        }
    }

    fn weight(&self, counter: Counter) -> u32 {
        self.weights[slot(counter)]
    }
}

/// Registers an event touches: what a load will write, or what a store
/// still has to read.
fn touched<'f>(ops: &Decoded, facts: &'f [Facts], e: &Event) -> &'f [Regs] {
    match ops.slot(e.pc).and_then(|i| facts.get(i)) {
        Some(f) if e.data => f.store_data.as_slice(),
        Some(f) => f.writes(),
        None => &[],
    }
}

/// The first conflict of the instruction `f` with the pending events of
/// `c`: (message, PC of the event's instruction).
#[inline(never)]
fn first_overlap(g: &GroupCheck<'_>, c: &Counters, f: &Facts) -> Option<(String, u32)> {
    for e in &c.pending {
        let regs = touched(g.ops, g.facts, e);
        if e.data {
            // A store still reading its data: overwriting it races.
            if let Some(o) = first_common(f.writes(), regs) {
                let m = format!("overwrites {o} before the store has read it (s_waitcnt expcnt)");
                return Some((m, e.pc));
            }
            continue;
        }
        if let Some(o) = first_common(f.reads(), regs) {
            let m = format!("reads {o} before the s_waitcnt for the load that writes it");
            return Some((m, e.pc));
        }
        // A later load of the same in-order counter writes after
        // the earlier one: no wait needed.
        let in_order = e.ordered
            && f.events()
                .iter()
                .any(|&(c, ordered, _)| c == e.counter && ordered)
            && f.unit != Unit::Salu
            && f.unit != Unit::Valu;
        if !in_order {
            if let Some(o) = first_common(f.writes(), regs) {
                let m = format!("overwrites {o}, which a load still in flight will write");
                return Some((m, e.pc));
            }
        }
    }
    None
}

/// The first registers a run of `a` and a run of `b` both name.
fn first_common(a: &[Regs], b: &[Regs]) -> Option<Regs> {
    a.iter().find_map(|x| b.iter().find_map(|y| x.overlap(y)))
}

/// True when [`before`] has something to do for `f` in wave `w`: it
/// waits, issues events or is a barrier, or it touches registers a pending
/// event touches. (Most instructions do none of these; the hook asks
/// first, so that they cost one test.)
#[inline(always)]
pub(crate) fn needed(g: &GroupCheck<'_>, w: u32, f: &Facts) -> bool {
    always_needed(f) || meets_pending(g, w, &f.touched)
}

/// True when [`before`] has something to do for `f` whatever the wave's
/// counters: it waits, issues events or is a barrier.
#[inline(always)]
pub(crate) fn always_needed(f: &Facts) -> bool {
    f.waitcnt.is_some() || f.wait_one.is_some() || f.n_events != 0 || f.barrier
}

/// True when registers of `touched` may be among those the pending events
/// of wave `w` touch.
#[inline(always)]
pub(crate) fn meets_pending(g: &GroupCheck<'_>, w: u32, touched: &RegMask) -> bool {
    g.waves
        .get(w as usize)
        .is_some_and(|s| !s.counters.pending.is_empty() && s.counters.regs.intersects(touched))
}

/// [`before`] for a run of instructions of a compiled block
/// ([`super::runs::RunSummary`]): the instructions at `counted` (indices in
/// `run`: those [`always_needed`] holds for) in order, and the ones between
/// them only where [`needed`] holds, which it can only while a pending
/// event's registers meet `touched` (the registers the others touch; the
/// counters change only at the counted instructions). The same as
/// `before` on each instruction `needed` holds for.
pub(crate) fn before_run(
    g: &mut GroupCheck<'_>,
    wave: &mut Wave,
    run: &[(u32, u32)],
    counted: &[u16],
    touched: &RegMask,
) {
    let facts = g.facts;
    let mut next = 0usize;
    let ends = counted.iter().map(|&i| usize::from(i));
    for end in ends.chain(std::iter::once(run.len())) {
        if meets_pending(g, wave.id, touched) {
            for &(pc, slot) in run.get(next..end).unwrap_or(&[]) {
                if let Some(f) = facts.get(slot as usize) {
                    if needed(g, wave.id, f) {
                        wave.pc = pc;
                        before(g, wave, f);
                    }
                }
            }
        }
        if let Some((pc, f)) = run
            .get(end)
            .and_then(|&(pc, slot)| Some((pc, facts.get(slot as usize)?)))
        {
            wave.pc = pc;
            before(g, wave, f);
        }
        next = end + 1;
    }
}

/// Checks the instruction at `wave.pc` (facts `f`) against the wave's
/// outstanding events, then retires and issues events. (One copy, out of
/// line, for the hook and the runs of compiled blocks: a copy in each
/// made a checked streaming kernel's code outgrow the instruction cache.)
#[inline(never)]
pub(crate) fn before(g: &mut GroupCheck<'_>, wave: &Wave, f: &Facts) {
    let w = wave.id as usize;
    let version = g.version;
    let mut c = &mut g.waves[w].counters;
    if let Some(imm) = f.waitcnt {
        let (vm, exp, lgkm) = decode_waitcnt(imm, version);
        // In [`slot`] order.
        c.retire([vm, lgkm, exp, NO_WAIT]);
    }
    if let Some((counter, imm, sgpr)) = f.wait_one {
        // GCN 1.5: at most SGPR + SIMM16 (LLVM writes `null`, 0).
        let base = if sgpr == sreg::NULL {
            0
        } else {
            wave.read_s32(Src::Sgpr(sgpr))
        };
        let mut limits = [NO_WAIT; SLOTS];
        limits[slot(counter)] = base.saturating_add(u32::from(imm));
        c.retire(limits);
    }
    // The exact tests only where a pending event's registers and the
    // instruction's may meet.
    if !c.pending.is_empty() && c.regs.intersects(&f.touched) {
        report_overlap(g, wave, f);
        c = &mut g.waves[w].counters;
    }
    if f.n_events != 0 {
        issue_events(c, f, wave.pc, version);
    }
    c.issued += 1;
    if f.barrier && !c.writes.is_empty() {
        in_flight_at_barrier(g, wave);
    }
}

/// Issues the counter events of the instruction at `pc` (facts `f`, with
/// at least one event): the first, then a second if there is one (no loop
/// to set up for the common single event).
#[inline]
fn issue_events(c: &mut Counters, f: &Facts, pc: u32, version: GcnVersion) {
    let [first, second] = f.events;
    issue_event(c, f, first, pc, version);
    if f.n_events > 1 {
        issue_event(c, f, second, pc, version);
    }
}

/// Issues one counter event (counter, in order, weight) of the
/// instruction at `pc` (facts `f`), stalling first while its counter is
/// full.
#[inline(always)]
fn issue_event(
    c: &mut Counters,
    f: &Facts,
    (counter, ordered, weight): (Counter, bool, u8),
    pc: u32,
    version: GcnVersion,
) {
    let cap = capacity(counter, version);
    if c.weight(counter) + u32::from(weight) > cap {
        c.make_room(counter, weight, cap);
    }
    let data = counter == Counter::Exp && f.unit == Unit::Vmem;
    let regs = if data { &f.data_mask } else { &f.write_mask };
    c.issue(
        Event {
            counter,
            ordered,
            weight,
            pc,
            data,
            seq: c.issued,
        },
        regs,
    );
}

/// Reports the first conflict of the instruction at `wave.pc` (facts `f`)
/// with the wave's pending events, if any.
#[inline(never)]
fn report_overlap(g: &mut GroupCheck<'_>, wave: &Wave, f: &Facts) {
    let finding = first_overlap(g, &g.waves[wave.id as usize].counters, f);
    // One report per executed instruction (the first finding), so that a
    // report's count is the number of times the instruction went wrong.
    if let Some((message, related)) = finding {
        g.report(
            Check::Waitcnt,
            wave.id,
            wave.pc,
            message,
            Some(related),
            None,
        );
    }
}

/// At the barrier at `wave.pc`: the bytes of the wave's stores still in
/// flight.
#[inline(never)]
fn in_flight_at_barrier(g: &mut GroupCheck<'_>, wave: &Wave) {
    let c = &g.waves[wave.id as usize].counters;
    for store in &c.writes {
        for &span in &store.spans[..usize::from(store.n)] {
            g.barriers.next.push(InFlight {
                wave: wave.id,
                store_pc: store.pc,
                barrier_pc: wave.pc,
                span,
            });
        }
    }
}

/// After an instruction: a store's bytes are recorded for the barrier
/// rule, and an access to bytes another wave's store had in flight at the
/// last barrier is reported. (Inlined: a load with no barrier bytes live
/// costs two tests.)
#[inline]
pub(crate) fn after(g: &mut GroupCheck<'_>, wave: &Wave, f: &Facts, log: &[MemAccess], pc: u32) {
    if log.is_empty() {
        return;
    }
    if f.writes_memory {
        record_store(g, wave.id, log, pc);
    }
    if !g.barriers.live.is_empty() {
        check_live(g, wave, f, log, pc);
    }
}

/// Records the bytes the store or atomic at `pc` of wave `w` writes
/// (`log`), for the barrier rule.
#[inline(never)]
fn record_store(g: &mut GroupCheck<'_>, w: u32, log: &[MemAccess], pc: u32) {
    // Coalesce the lanes' accesses into at most `SPANS` spans (the lanes
    // of a store are nearly always one run; beyond, the last span grows
    // to cover the rest).
    let mut spans = [(false, 0u64, 0u64); SPANS];
    let mut n = 0usize;
    // An LDS access past the allocation wrote nothing.
    for a in log.iter().filter(|a| !a.outside) {
        let s = (a.lds, a.address, a.address.saturating_add(a.span()));
        match spans[..n]
            .iter_mut()
            .find(|m| m.0 == s.0 && s.1 <= m.2 && m.1 <= s.2)
        {
            Some(m) => {
                m.1 = m.1.min(s.1);
                m.2 = m.2.max(s.2);
            }
            None if n < SPANS => {
                spans[n] = s;
                n += 1;
            }
            None => {
                let m = &mut spans[SPANS - 1];
                m.1 = m.1.min(s.1);
                m.2 = m.2.max(s.2);
            }
        }
    }
    let c = &mut g.waves[w as usize].counters;
    // The event this instruction just issued (the last of its PC: the
    // search stops at the end of the list, where `before` put it).
    if let Some(e) = c.pending.iter().rev().find(|e| e.pc == pc && !e.data) {
        let store = Store {
            seq: e.seq,
            pc: e.pc,
            spans,
            n: n as u8,
        };
        c.writes.push(store);
    }
}

/// Reports an access (`log`) of the instruction at `pc` to bytes another
/// wave's store had in flight at the last barrier.
#[inline(never)]
fn check_live(g: &mut GroupCheck<'_>, wave: &Wave, f: &Facts, log: &[MemAccess], pc: u32) {
    let mut finding: Option<(InFlight, u64)> = None;
    for run in log.iter().filter(|a| !a.outside) {
        let end = run.address.saturating_add(run.span());
        for x in &g.barriers.live {
            let (lds, start, stop) = x.span;
            if x.wave == wave.id || lds != run.lds || run.address >= stop || start >= end {
                continue;
            }
            // The lanes of the run whose bytes overlap.
            let lanes: u64 = run
                .lanes()
                .filter(|a| a.address < stop && start < a.address + u64::from(a.len))
                .fold(0, |m, a| m | 1 << (a.lane & 63));
            match finding.as_mut() {
                None => finding = Some((x.clone(), lanes)),
                Some((first, seen)) if first.store_pc == x.store_pc => *seen |= lanes,
                Some(_) => {}
            }
        }
    }
    if let Some((x, lanes)) = finding {
        let place = if x.span.0 { "LDS" } else { "memory" };
        let verb = if f.writes_memory { "writes" } else { "reads" };
        g.report(
            Check::Waitcnt,
            wave.id,
            pc,
            format!(
                "{verb} {place} bytes that wave {}'s store (the related instruction) may still be \
                 writing: it was in flight at the s_barrier at pc {:#x}, which does not wait for \
                 memory (s_waitcnt before the barrier)",
                x.wave, x.barrier_pc
            ),
            Some(x.store_pc),
            (f.unit != Unit::Salu && f.unit != Unit::Smem).then_some(lanes),
        );
    }
}
