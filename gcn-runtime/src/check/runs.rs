//! What the checks' `before` hooks do for a run of instructions that a
//! compiled block checks together ([`Hook::before_run`]), derived once per
//! run and kept per host thread ([`GroupCheck::restart`](super::GroupCheck::restart)).
//!
//! Each check looks at an instruction of the run only when something of it
//! can matter, told from the summary rather than from the instruction's
//! [`Facts`] (which a streaming kernel's data pushes out of the first-level
//! cache between waves):
//! - `uninit`: the run's lists apply at once when every register it reads
//!   is defined at its start ([`defined::RunLists`]);
//! - `wait-states`: only instructions that a rule can concern (a consumer
//!   of a rule, a gfx1010 role) or whose writes a rule reads ([`Facts::records`])
//!   are looked at, each at the wave clock it would have had; the clock then
//!   advances by the run's wait states;
//! - `waitcnt`: the instructions [`waitcnt::needed`] holds for whatever the
//!   counters are (a wait, an event, a barrier) are looked at in order; the
//!   rest only when a pending event's registers meet the registers the run
//!   touches.
//!
//! [`Hook::before_run`]: crate::exec::Hook::before_run

use super::facts::RegMask;
use super::{defined, Facts};

/// The summary of one run (see the module documentation).
#[derive(Debug)]
pub(crate) struct RunSummary {
    /// The PC of the run's last instruction (the cache is indexed by the
    /// first's: slots do not name instructions, equal instructions share
    /// one, and a run is known by its two ends).
    pub last: u32,
    /// The `uninit` lists (`None`: an instruction of the run has no usable
    /// fast flow, the run is checked instruction by instruction).
    pub flow: Option<defined::RunLists>,
    /// `wait-states`: (index in the run, wait states of the run before it)
    /// of the instructions the check looks at.
    pub states: Vec<(u16, u64)>,
    /// `wait-states`: the wait states of the whole run.
    pub total_states: u64,
    /// `waitcnt`: the indices of the instructions that wait, issue an event
    /// or meet at a barrier.
    pub counted: Vec<u16>,
    /// `waitcnt`: the registers the other instructions touch.
    pub touched: RegMask,
}

impl RunSummary {
    /// The summary of the run with `slots` (indices into `facts`), the last
    /// at PC `last`; `None` when a slot has no facts.
    pub fn of(facts: &[Facts], slots: &[usize], last: u32) -> Option<RunSummary> {
        let mut states = Vec::new();
        let mut total_states = 0u64;
        let mut counted = Vec::new();
        let mut touched = RegMask::default();
        for (i, &slot) in slots.iter().enumerate() {
            let f = facts.get(slot)?;
            let i = u16::try_from(i).ok()?;
            if super::wait_states::looks_at(f) {
                states.push((i, total_states));
            }
            total_states += u64::from(f.states);
            if super::waitcnt::always_needed(f) {
                counted.push(i);
            } else {
                touched = touched.union(f.touched);
            }
        }
        Some(RunSummary {
            last,
            flow: defined::RunLists::of(facts, slots.iter().copied()),
            states,
            total_states,
            counted,
            touched,
        })
    }
}
