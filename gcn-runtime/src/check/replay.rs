//! Replaying the checks of a compiled block a wave starts with.
//!
//! Most of what the checks keep of a wave is decided by the instructions
//! it runs, their order and EXEC, not by the values they compute: the wait
//! counters ([`super::waitcnt`]), the wait-state history
//! ([`super::wait_states`]) and, while no flow reads an undefined bit, the
//! register shadow ([`super::defined`]). Every wave of a streaming kernel
//! starts the same way: the same state (a reset one), the same first
//! block, the same EXEC. So the first wave that runs such a block under
//! the checks records what the block did to that state (a *delta*); the
//! waves after it skip those checks for the block and install the delta
//! at its end ([`Memo`]).
//!
//! What stays per wave is what depends on values: the addresses of the
//! memory instructions. A replayed memory instruction whose accesses all
//! lie inside the allocation that instruction used last (the `oob`
//! check's common case: nothing to report, and, with no allocation
//! tracking undefined bytes, every byte it loads defined) needs nothing
//! more. Any other access ends the replay: the skipped checks run then, in
//! program order, from the untouched starting state, as they would have
//! run (they read nothing the instructions computed), and the block goes
//! on checked as usual ([`super::WaveHook`]).
//!
//! A block is replayed only where nothing else can differ between waves:
//! it starts the wave (its state is the reset one) and runs once (no
//! branch ends it); it has no instruction that reads register values for
//! the checks (a lane select, an `s_waitcnt_*` SGPR), no LDS and no GDS
//! access, and the dispatch has no LDS, no scratch, no `s_barrier` and no
//! allocation tracking undefined bytes. The recording counts only if the
//! block ran to its end with no report, no flow taking the lane-by-lane
//! path (which reads values) and every access of the common kind. A
//! block whose recording fails a few times is never replayed.

use super::defined::ShadowDelta;
use super::facts::{Lanes, Unit};
use super::wait_states::HistoryDelta;
use super::waitcnt::Counters;
use super::GroupCheck;
use crate::exec::{sreg, MemAccess};

/// Recordings that may fail before a block is given up.
const ATTEMPTS: u8 = 4;

/// The recorded blocks of a dispatch, kept by a host thread from group to
/// group ([`super::GroupCheck::restart`]).
#[derive(Default)]
pub(crate) struct Memo {
    /// Per block number: (EXEC at entry, what is known).
    blocks: Vec<Vec<(u64, Entry)>>,
    /// Whether the program has an `s_barrier` (`None`: not looked yet).
    barrier: Option<bool>,
}

/// What is known of a block entered with some EXEC.
enum Entry {
    /// Not recorded yet: the recordings that failed.
    Trying(u8),
    /// Recorded.
    Ready(Box<Delta>),
    /// Never replayed.
    Refused,
}

/// What a block did to a wave's check state, from the reset state.
pub(crate) struct Delta {
    /// The block's instructions: (PC, slot).
    instrs: Box<[(u32, u32)]>,
    counters: Counters,
    history: HistoryDelta,
    /// `None` when the `uninit` check is off.
    shadow: Option<ShadowDelta>,
}

/// What the hook of a wave does in the block it is in.
#[derive(Clone, Copy, Default)]
pub(crate) enum Mode {
    /// The checks run as usual.
    #[default]
    Off,
    /// The checks run as usual, and what they do is recorded at the end.
    Recording {
        block: u32,
        exec: u64,
        /// The wait-state clock, the reports and [`value_dependence`] at
        /// the start.
        clock: u64,
        reports: u64,
        general: u64,
        /// Every memory access so far was of the common kind.
        plain: bool,
    },
    /// The block's checks are skipped; its delta goes in at the end.
    Replaying { block: u32, exec: u64 },
}

impl Memo {
    fn entry(&mut self, block: u32, exec: u64) -> Option<&mut Entry> {
        self.blocks
            .get_mut(block as usize)?
            .iter_mut()
            .find(|(e, _)| *e == exec)
            .map(|(_, entry)| entry)
    }

    /// The recorded delta of `block` entered with `exec`.
    pub(crate) fn delta(&self, block: u32, exec: u64) -> Option<&Delta> {
        let (_, entry) = self
            .blocks
            .get(block as usize)?
            .iter()
            .find(|(e, _)| *e == exec)?;
        match entry {
            Entry::Ready(delta) => Some(delta),
            _ => None,
        }
    }
}

/// The mode of a wave entering block `block` (instructions `instrs`,
/// `falls_through` as [`crate::exec::Hook::enter_block`] says) with EXEC
/// `exec`, having run `steps` instructions so far.
pub(crate) fn enter(
    g: &mut GroupCheck<'_>,
    wave: u32,
    steps: u64,
    exec: u64,
    block: u32,
    instrs: &[(u32, u32)],
    falls_through: bool,
) -> Mode {
    if steps != 0 || !falls_through {
        return Mode::Off;
    }
    let recording = |g: &GroupCheck<'_>| Mode::Recording {
        block,
        exec,
        clock: g.waves.get(wave as usize).map_or(0, |s| s.history.clock()),
        reports: g.report_count,
        general: value_dependence(g),
        plain: true,
    };
    match g.memo.entry(block, exec) {
        Some(Entry::Ready(_)) => return Mode::Replaying { block, exec },
        Some(Entry::Trying(_)) => return recording(g),
        Some(Entry::Refused) => return Mode::Off,
        None => {}
    }
    let ok = eligible(g, instrs);
    let Some(list) = ({
        let blocks = &mut g.memo.blocks;
        if blocks.len() <= block as usize {
            blocks.resize_with(block as usize + 1, Vec::new);
        }
        blocks.get_mut(block as usize)
    }) else {
        return Mode::Off;
    };
    // A few EXECs per block at most (the full waves' and a last partial
    // one's): others are not replayed.
    if list.len() >= 4 {
        return Mode::Off;
    }
    list.push((exec, if ok { Entry::Trying(0) } else { Entry::Refused }));
    if ok {
        recording(g)
    } else {
        Mode::Off
    }
}

/// What counts the checks' uses of values (addresses, register values)
/// and their new origins: a block during which it changes is not recorded.
fn value_dependence(g: &GroupCheck<'_>) -> u64 {
    g.general_flows + g.origins.value_reads + g.origins.len() as u64
}

/// True when the checks of the block `instrs` may be replayed in this
/// dispatch (see the module's documentation).
fn eligible(g: &mut GroupCheck<'_>, instrs: &[(u32, u32)]) -> bool {
    let facts = g.facts;
    let barrier = *g
        .memo
        .barrier
        .get_or_insert_with(|| facts.iter().any(|f| f.barrier));
    if barrier
        || g.lds_bytes != 0
        || g.scratch.1 != 0
        || g.trace.is_some()
        || g.mem.is_some_and(|m| m.tracks_any())
    {
        return false;
    }
    instrs.iter().all(|&(_, slot)| {
        facts.get(slot as usize).is_some_and(|f| {
            matches!(f.unit, Unit::Salu | Unit::Valu | Unit::Smem | Unit::Vmem)
                && matches!(f.lanes, Lanes::Exec | Lanes::FirstLane)
                && f.wait_one.is_none_or(|(_, _, sgpr)| sgpr == sreg::NULL)
                && !f.barrier
        })
    })
}

/// True when the accesses `log` of the instruction in `slot` are of the
/// common kind: each inside the allocation the instruction used last
/// (nothing for `oob` to report; defined bytes, as no allocation tracks
/// undefined ones where a replay runs), none in LDS.
#[inline]
pub(crate) fn plain(g: &GroupCheck<'_>, slot: usize, log: &[MemAccess]) -> bool {
    let Some(range) = super::oob::last_allocation(g, slot) else {
        return log.is_empty();
    };
    log.iter().all(|a| !a.lds && super::oob::inside(range, a))
}

/// The end of a recording: the block's delta is kept if the recording
/// holds (`completed`: the block ran to its end).
pub(crate) fn finish_recording(
    g: &mut GroupCheck<'_>,
    wave: u32,
    mode: Mode,
    exec_now: u64,
    completed: bool,
    instrs: impl FnOnce() -> Box<[(u32, u32)]>,
) {
    let Mode::Recording {
        block,
        exec,
        clock,
        reports,
        general,
        plain,
    } = mode
    else {
        return;
    };
    let w = wave as usize;
    let delta = (completed
        && plain
        && exec_now == exec
        && g.report_count == reports
        && value_dependence(g) == general)
        .then(|| {
            let shadow = match g.shadows.get_mut(w) {
                Some(sh) => Some(sh.since_reset()?),
                None => None,
            };
            let state = g.waves.get(w)?;
            Some(Delta {
                instrs: instrs(),
                counters: state.counters.without_bytes(),
                history: state.history.since(clock),
                shadow,
            })
        })
        .flatten();
    let Some(entry) = g.memo.entry(block, exec) else {
        return;
    };
    *entry = match (delta, &*entry) {
        (Some(delta), _) => Entry::Ready(Box::new(delta)),
        (None, Entry::Trying(n)) if n + 1 < ATTEMPTS => Entry::Trying(n + 1),
        (None, Entry::Trying(_)) => Entry::Refused,
        (None, _) => return,
    };
}

/// Deltas installed (the tests see that replays happen).
#[cfg(test)]
pub(crate) static REPLAYED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Installs the state a replayed block left wave `wave`, if it is still
/// pending ([`super::WaveState::pending`]).
#[inline(always)]
pub(crate) fn settle(g: &mut GroupCheck<'_>, wave: u32) {
    if g.waves
        .get(wave as usize)
        .is_some_and(|s| s.pending.is_some())
    {
        settle_pending(g, wave);
    }
}

/// Before an instruction with facts `f`, while a replayed block's state is
/// pending for wave `wave`: if the instruction's checks only count its wait
/// states ([`super::Facts::clock_only`]), counts them with the pending
/// state, which stays pending (true); else does nothing (false).
#[inline(always)]
pub(crate) fn count_while_pending(g: &mut GroupCheck<'_>, wave: u32, f: &super::Facts) -> bool {
    match g.waves.get_mut(wave as usize) {
        Some(state) if state.pending.is_some() && f.clock_only => {
            state.pending_states += u64::from(f.states);
            true
        }
        _ => false,
    }
}

/// [`settle`] when something is pending: the block's delta, then the wait
/// states counted since.
#[inline(never)]
pub(crate) fn settle_pending(g: &mut GroupCheck<'_>, wave: u32) {
    let Some(state) = g.waves.get_mut(wave as usize) else {
        return;
    };
    let (Some((block, exec)), states) = (
        state.pending.take(),
        std::mem::take(&mut state.pending_states),
    ) else {
        return;
    };
    install(g, wave, block, exec);
    if let Some(state) = g.waves.get_mut(wave as usize) {
        state.history.tick(states);
    }
}

/// Installs the delta of `block` (entered with `exec`) in the state of
/// wave `wave`, which the block left as it found it.
fn install(g: &mut GroupCheck<'_>, wave: u32, block: u32, exec: u64) {
    #[cfg(test)]
    REPLAYED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let w = wave as usize;
    let GroupCheck {
        memo,
        waves,
        shadows,
        ..
    } = g;
    let Some(delta) = memo.delta(block, exec) else {
        return;
    };
    if let Some(state) = waves.get_mut(w) {
        state.counters.copy_from(&delta.counters);
        delta.history.apply(&mut state.history);
    }
    if let (Some(d), Some(sh)) = (&delta.shadow, shadows.get_mut(w)) {
        d.apply(sh);
    }
}

/// The instructions of the recorded `block` (for a replay that ends
/// early).
pub(crate) fn instrs(g: &GroupCheck<'_>, block: u32, exec: u64) -> Option<Box<[(u32, u32)]>> {
    g.memo.delta(block, exec).map(|d| d.instrs.clone())
}

#[cfg(test)]
mod tests;
