//! Sanitizer-style checks of a running kernel: the bugs a functional
//! emulator would otherwise hide because every access completes at once.
//!
//! | check | what is reported |
//! |---|---|
//! | [`Check::Waitcnt`] | a register read before the `s_waitcnt` for the load that writes it; an overwrite of a register a pending load will write (except by a later load of the same in-order counter); on GCN 1.0, an overwrite of a store's data VGPRs before `expcnt` says the store read them; a store or atomic still in flight at `s_barrier` whose bytes another wave of the work-group accesses after it ([`waitcnt`]) |
//! | [`Check::WaitStates`] | fewer wait states (instructions, `s_nop N` = N+1) between two dependent instructions than the generation requires ([`wait_states::RULES`]), counted along the executed path; on GCN 1.5 (gfx1010) also the hardware bugs LLVM's hazard recognizer fixes with an instruction of some kind between (`s_waitcnt_depctr`, a VALU, `s_waitcnt_vscnt null, 0` …) |
//! | [`Check::LdsRace`] | two waves of a work-group touching the same LDS byte between two `s_barrier`s, one of them writing (atomics excepted) |
//! | [`Check::Uninit`] | undefined bits (Memcheck-style definedness of registers, LDS, scratch and [`crate::memory::Memory::buffer_uninit`] buffers) deciding control flow, forming an address, descriptor, M0, lane select or `s_setreg` value, or computed into a value stored to memory the host can read, with their origin ([`defined`]); copying undefined data is not reported |
//! | [`Check::Oob`] | a kernel's access to device memory (vector, scalar, image or atomic; the lanes, the first address) past the end of its allocation but inside the allocation's last mapped 4 KiB page, where it completes as on hardware ([`oob`]); the report names the allocation, the argument pointing into it and how far past the end the access lies. Not reported: buffer accesses outside their descriptor's range (defined: reads 0, writes dropped), private (scratch) memory and LDS, and accesses outside every mapped page (those are memory faults) |
//!
//! Every check is on at [`Level::Error`] by default ([`CheckOptions`], in
//! [`crate::LaunchOptions::checks`], `gcnrun --check NAME=LEVEL`). The
//! reports of a dispatch are deduplicated per (check, PC) with a count and
//! capped at [`MAX_REPORTS`]; [`crate::Launcher::reports`] returns
//! them, [`crate::Program::launch`] fails with [`crate::LaunchError::Check`]
//! when one is an error.
//!
//! Wait counters (GCN 1.0–1.4): `vmcnt` counts every vector memory
//! instruction (loads and stores, returning in order; capacity 15, 63 on
//! GCN 1.4), `lgkmcnt` counts LDS/GDS (in order), scalar memory (out of
//! order; CLRX: two counts for a fetch of more than one dword) and
//! `s_sendmsg` (capacity 15), `expcnt` counts exports, GDS and, on GCN 1.0
//! only, the reading of VMEM store data (capacity 7). Issuing past a
//! counter's capacity stalls until enough events finished; the checker
//! retires them so. Only `s_waitcnt lgkmcnt(0)` guarantees a scalar-memory
//! result (it returns out of order, and a multi-dword fetch counts twice);
//! `lgkmcnt(N)` guarantees an LDS event when it and the LDS events after it
//! count more than N. A wave may end (`s_endpgm`) with
//! stores or loads outstanding: that is fine and not reported. FLAT
//! instructions are counted as vector memory (as LLVM does for global
//! pointers); their rare LDS-aperture accesses are not counted in lgkmcnt.
//!
//! GCN 1.5 and RDNA 2 (wave32 and wave64) split vector memory: `vmcnt`
//! counts loads and atomics that return (`glc`), `vscnt` stores and
//! atomics without return (both in order, capacity 63; LLVM:
//! `getVmemWaitEventType`). `s_waitcnt` (vmcnt in bits 3:0 and 15:14,
//! expcnt 6:4, lgkmcnt 13:8, capacity 63) never waits for `vscnt`; the
//! SOPK waits `s_waitcnt_vmcnt`/`_vscnt`/`_expcnt`/`_lgkmcnt SGPR, N` wait
//! until their counter (row flags `wait_*`) is at most SGPR + N. A FLAT
//! (generic address) access counts in `lgkmcnt` too, where only
//! `lgkmcnt(0)` is certain (LLVM's pending-flat rule); GLOBAL and SCRATCH
//! do not. Stores in flight at `s_barrier` need `s_waitcnt_vscnt` there.
//!
//! The checks are compiled in and cost nothing when every check is off:
//! the interpreter then runs the loop without hooks (`exec::run_wave`).

pub mod defined;
pub(crate) mod facts;
mod lds;
pub mod oob;
mod replay;
mod runs;
pub mod trace;
pub mod wait_states;
pub mod waitcnt;

pub(crate) use facts::Facts;
pub use trace::{
    LaneChange, LanePairChange, TraceChange, TraceFilter, TraceFloat, TraceRecord, TraceSink,
};

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use gcn_asm::GcnVersion;

use crate::exec::{self, Decoded, Env, Hook, MemAccess, Op, Wave};
use crate::kernel::ArgValue;
use crate::lines::LineTable;
use crate::memory::MemView;

/// Most distinct (check, PC) reports a dispatch keeps.
pub const MAX_REPORTS: usize = 64;

/// The checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Check {
    /// Missing `s_waitcnt`.
    Waitcnt,
    /// Missing wait states (NOPs) between dependent instructions.
    WaitStates,
    /// LDS data races between the waves of a work-group.
    LdsRace,
    /// Undefined values used where they matter ([`defined`]).
    Uninit,
    /// Accesses past the end of an allocation, inside its mapped pages.
    Oob,
}

impl Check {
    /// All checks.
    pub const ALL: [Check; 5] = [
        Check::Waitcnt,
        Check::WaitStates,
        Check::LdsRace,
        Check::Uninit,
        Check::Oob,
    ];

    /// The name `gcnrun --check` takes.
    pub fn name(self) -> &'static str {
        match self {
            Check::Waitcnt => "waitcnt",
            Check::WaitStates => "wait-states",
            Check::LdsRace => "lds-race",
            Check::Uninit => "uninit",
            Check::Oob => "oob",
        }
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Check {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Check::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown check `{s}` (expected waitcnt, wait-states, lds-race, uninit or oob)"
                )
            })
    }
}

/// What a check does when it finds something.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Not checked (costs nothing).
    Off,
    /// Reported; the launch succeeds.
    Warn,
    /// Reported; the launch fails.
    Error,
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Off => "off",
            Level::Warn => "warning",
            Level::Error => "error",
        })
    }
}

impl FromStr for Level {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "off" => Ok(Level::Off),
            "warn" | "warning" => Ok(Level::Warn),
            "error" => Ok(Level::Error),
            _ => Err(format!(
                "unknown check level `{s}` (expected error, warn or off)"
            )),
        }
    }
}

/// The level of each check for one launch.
///
/// ```
/// use gcn_runtime::{gcn_kernel, Check, CheckOptions, Dispatch, LaunchOptions, Level, Memory, Program};
///
/// let mut checks = CheckOptions::default(); // every check an error
/// assert_eq!(checks.level(Check::Waitcnt), Level::Error);
/// checks.apply("waitcnt=warn")?; // gcnrun's `--check NAME=LEVEL`
/// checks.set(Check::LdsRace, Level::Off);
/// assert_eq!(checks.level(Check::Waitcnt), Level::Warn);
/// assert!(CheckOptions::off().is_off() && !checks.is_off());
///
/// // A kernel that reads s7 before the s_waitcnt for its load: at `warn`
/// // the launch succeeds and counts the finding.
/// gcn_kernel! {
///     mod nowait;
///     .gallium
///     .gpu tonga
///     .kernel nowait
///         .args
///             .arg out, global, 8
///         .config
///             .dims x
///     .text
///     nowait:
///         s_load_dwordx2   s[6:7], s[0:1], nowait::out
///         v_mov_b32        v3, s7              // too early
///         s_waitcnt        lgkmcnt(0)
///         v_mov_b32        v2, s6
///         v_lshlrev_b32    v1, 2, v0
///         v_add_u32        v2, vcc, v2, v1
///         v_addc_u32       v3, vcc, v3, 0, vcc
///         flat_store_dword v[2:3], v0
///         s_endpgm
/// }
/// let memory = Memory::default();
/// let program = Program::from_kernel(&memory, &nowait::NOWAIT)?;
/// let out = memory.buffer_zeroed::<u32>(64)?;
/// let options = LaunchOptions { checks, ..LaunchOptions::default() };
/// let stats = program.launch_args(&nowait::NowaitArgs { out: out.ptr() }, &Dispatch::new_1d(64, 64), &options)?;
/// assert_eq!(stats.check_warnings, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckOptions {
    /// [`Check::Waitcnt`].
    pub waitcnt: Level,
    /// [`Check::WaitStates`].
    pub wait_states: Level,
    /// [`Check::LdsRace`].
    pub lds_race: Level,
    /// [`Check::Uninit`].
    pub uninit: Level,
    /// [`Check::Oob`].
    pub oob: Level,
}

impl Default for CheckOptions {
    /// Every check on, as an error.
    fn default() -> Self {
        CheckOptions::all(Level::Error)
    }
}

impl CheckOptions {
    /// Every check at `level`.
    pub const fn all(level: Level) -> Self {
        CheckOptions {
            waitcnt: level,
            wait_states: level,
            lds_race: level,
            uninit: level,
            oob: level,
        }
    }

    /// Every check off: the interpreter runs without hooks.
    pub const fn off() -> Self {
        CheckOptions::all(Level::Off)
    }

    /// The level of `check`.
    pub fn level(&self, check: Check) -> Level {
        match check {
            Check::Waitcnt => self.waitcnt,
            Check::WaitStates => self.wait_states,
            Check::LdsRace => self.lds_race,
            Check::Uninit => self.uninit,
            Check::Oob => self.oob,
        }
    }

    /// Sets the level of `check`.
    pub fn set(&mut self, check: Check, level: Level) {
        match check {
            Check::Waitcnt => self.waitcnt = level,
            Check::WaitStates => self.wait_states = level,
            Check::LdsRace => self.lds_race = level,
            Check::Uninit => self.uninit = level,
            Check::Oob => self.oob = level,
        }
    }

    /// True when every check is off.
    pub fn is_off(&self) -> bool {
        Check::ALL.iter().all(|&c| self.level(c) == Level::Off)
    }

    /// Applies `NAME=LEVEL` (or `all=LEVEL`), as `gcnrun --check` takes it.
    pub fn apply(&mut self, spec: &str) -> Result<(), String> {
        let (name, level) = spec
            .split_once('=')
            .ok_or_else(|| format!("`{spec}`: expected NAME=LEVEL (e.g. waitcnt=warn)"))?;
        let level: Level = level.parse()?;
        if name == "all" {
            *self = CheckOptions::all(level);
        } else {
            self.set(name.parse()?, level);
        }
        Ok(())
    }
}

/// One finding, deduplicated per (check, PC).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckReport {
    /// The check.
    pub check: Check,
    /// Its level ([`Level::Warn`] or [`Level::Error`]).
    pub level: Level,
    /// The kernel.
    pub kernel: String,
    /// The work-group of the first occurrence.
    pub group: [u32; 3],
    /// The wave (index in its work-group) of the first occurrence.
    pub wave: u32,
    /// Byte offset in `.text` of the instruction reported.
    pub pc: u32,
    /// That instruction, disassembled.
    pub instruction: String,
    /// What is wrong.
    pub message: String,
    /// The other instruction involved (the load not waited for, the
    /// producer of a hazard, the other wave's access): PC and disassembly.
    pub related: Option<(u32, String)>,
    /// The lanes involved, for per-lane findings.
    pub lanes: Option<u64>,
    /// How many times it happened in the dispatch.
    pub count: u64,
    /// `FILE:LINE:COL` of the instruction, when the program has a line
    /// table ([`crate::lines`]).
    pub location: Option<String>,
    /// `FILE:LINE:COL` of the related instruction, when known.
    pub related_location: Option<String>,
}

impl fmt::Display for CheckReport {
    /// `src/k.rs:23:9: error[waitcnt]: `v_add_f32 v3, v1, v2` reads v1
    /// before … (`buffer_load_dword v1, …` at src/k.rs:21:9) [kernel 'k'
    /// pc 0x1c, wave 3 of group (1, 0, 0), lanes 0–63] (N times)`; without
    /// a line table the report starts with `kernel 'k' pc 0x1c:` and the
    /// related instruction is named by its PC.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(loc) => write!(
                f,
                "{loc}: {}[{}]: `{}` {}",
                self.level, self.check, self.instruction, self.message
            )?,
            None => write!(
                f,
                "kernel '{}' pc {:#x}: {}[{}]: `{}` {}",
                self.kernel, self.pc, self.level, self.check, self.instruction, self.message
            )?,
        }
        if let Some((pc, text)) = &self.related {
            match &self.related_location {
                Some(loc) => write!(f, " (`{text}` at {loc})")?,
                None => write!(f, " (`{text}` at pc {pc:#x})")?,
            }
        }
        f.write_str(" [")?;
        if self.location.is_some() {
            write!(f, "kernel '{}' pc {:#x}, ", self.kernel, self.pc)?;
        }
        write!(
            f,
            "wave {} of group ({}, {}, {})",
            self.wave, self.group[0], self.group[1], self.group[2]
        )?;
        if let Some(lanes) = self.lanes {
            write!(f, ", lanes {}", lane_list(lanes))?;
        }
        f.write_str("]")?;
        if self.count > 1 {
            write!(f, " ({} times)", self.count)?;
        }
        Ok(())
    }
}

/// `0–63`, `3`, `0–3, 8` …
pub(crate) fn lane_list(mask: u64) -> String {
    let mut parts = Vec::new();
    let mut lane = 0;
    while lane < 64 {
        if mask >> lane & 1 == 0 {
            lane += 1;
            continue;
        }
        let start = lane;
        while lane < 64 && mask >> lane & 1 != 0 {
            lane += 1;
        }
        parts.push(if lane - 1 == start {
            format!("{start}")
        } else {
            format!("{start}–{}", lane - 1)
        });
    }
    parts.join(", ")
}

/// The per-instruction facts of a program, computed once per launch: one
/// per entry of [`Decoded::ops`] (look them up by PC with
/// [`Decoded::slot`]), in the wave size the code was decoded for.
pub(crate) fn program_facts(ops: &Decoded, version: GcnVersion) -> Vec<Facts> {
    let mut facts: Vec<Facts> = ops.ops().iter().map(|op| Facts::of(op, version)).collect();
    wait_states::narrow_records(&mut facts);
    for f in &mut facts {
        f.clock_only = !f.unit.is_memory()
            && f.fast_flow.is_nothing()
            && f.touched.is_empty()
            && !waitcnt::always_needed(f)
            && !wait_states::looks_at(f);
    }
    facts
}

/// The reports of a dispatch, merged from its work-groups.
#[derive(Debug, Default)]
pub(crate) struct Reports {
    /// (check, PC) → (linear index of the work-group of the first
    /// occurrence, report).
    map: BTreeMap<(Check, u32), (u64, CheckReport)>,
    /// Findings dropped by the cap.
    pub dropped: u64,
}

impl Reports {
    /// Adds a report of work-group `index`.
    pub fn add(&mut self, index: u64, report: CheckReport) {
        let key = (report.check, report.pc);
        if let Some((first, r)) = self.map.get_mut(&key) {
            r.count += report.count;
            if index < *first {
                let count = r.count;
                *r = CheckReport { count, ..report };
                *first = index;
            }
        } else if self.map.len() < MAX_REPORTS {
            self.map.insert(key, (index, report));
        } else {
            self.dropped += report.count;
        }
    }

    /// Merges the reports of another work-group.
    pub fn merge(&mut self, index: u64, other: Reports) {
        for (_, (_, r)) in other.map {
            self.add(index, r);
        }
        self.dropped += other.dropped;
    }

    /// The reports, ordered by PC then check.
    pub fn into_vec(self) -> Vec<CheckReport> {
        let mut v: Vec<CheckReport> = self.map.into_values().map(|(_, r)| r).collect();
        v.sort_by_key(|r| (r.pc, r.check));
        v
    }

    /// True when nothing was reported.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// The check state of one wave.
pub(crate) struct WaveState {
    /// Wait-counter state.
    pub(crate) counters: waitcnt::Counters,
    /// Wait-state history.
    pub(crate) history: wait_states::History,
    /// A replayed block (number, EXEC at entry) whose state is still to
    /// install ([`replay::install`]): it goes in at the wave's next hook
    /// that needs it, so that a wave that ends after the block (at
    /// `s_endpgm`, whose checks only count its wait states) never pays
    /// for it.
    pub(crate) pending: Option<(u32, u64)>,
    /// The wait states of the instructions since the replayed block,
    /// which only counted them ([`Facts::clock_only`]).
    pub(crate) pending_states: u64,
}

/// Everything the checks of one work-group keep. A host thread keeps one
/// from group to group of a dispatch ([`GroupCheck::restart`]): the
/// per-instruction caches (allocations, run summaries, replayed blocks)
/// stay valid, and the per-group state is cleared in its storage.
pub(crate) struct GroupCheck<'a> {
    options: CheckOptions,
    version: GcnVersion,
    facts: &'a [Facts],
    ops: &'a Decoded,
    kernel: &'a str,
    lines: Option<&'a LineTable>,
    group: [u32; 3],
    waves: Vec<WaveState>,
    lds: lds::Shadow,
    /// The group's LDS allocation and the bytes it declared (the `oob`
    /// check reports accesses past either).
    lds_bytes: u32,
    lds_declared: u32,
    /// Stores in flight at barriers ([`waitcnt`]).
    barriers: waitcnt::Barriers,
    /// VGPRs allocated, and the SGPRs and VGPRs the ABI initialises
    /// ([`GroupSetup`]): what a wave's state starts from.
    layout: (u16, u16, u16),
    /// The register shadows of the waves ([`defined`]).
    shadows: defined::Shadows,
    /// Origins of undefined values, and the memory side of [`defined`].
    origins: defined::Origins,
    /// Per instruction slot, the allocation its last device-memory access
    /// lay in (`oob`; a guess, tested before use: equal instructions share
    /// a slot): kept from group to group, as the allocations stay those of
    /// the dispatch's snapshot.
    allocations: Vec<Option<oob::Allocation>>,
    /// The same allocations as the bytes `[start, end]` a replayed block's
    /// compiled code tests an access against ([`Hook::plain_ranges`];
    /// `oob::NO_RANGE` where none is known), written with them
    /// (`oob::set_allocation`). Sized once, in [`GroupCheck::new`]: the
    /// compiled code holds a pointer to it while a block runs.
    plain: Vec<[u64; 2]>,
    /// Per word of code, the summary of the run of a compiled block that
    /// starts there ([`runs::RunSummary`]).
    runs: Vec<Option<Box<runs::RunSummary>>>,
    /// The compiled blocks whose checks are replayed ([`replay`]).
    memo: replay::Memo,
    /// Reports made so far (counted: a replay is recorded only from a
    /// block that made none).
    report_count: u64,
    /// Memory flows of the `uninit` check that took the lane-by-lane path,
    /// which reads the addresses (nor is such a block recorded).
    general_flows: u64,
    /// Device memory, for the shadow of tracked allocations.
    mem: Option<&'a MemView>,
    /// The dispatch's scratch memory: base and size.
    scratch: (u64, u64),
    /// The kernel's argument values (to name the buffer of a stray access).
    values: &'a [ArgValue],
    trace: Option<(TraceFilter, TraceSink<'a>)>,
    /// The state before the current instruction of a traced wave.
    snapshot: Option<trace::Snapshot>,
    /// The work-group's findings.
    pub(crate) reports: Reports,
}

/// What a group check needs to know about the dispatch.
pub(crate) struct GroupSetup<'a> {
    /// Check levels.
    pub options: CheckOptions,
    /// GCN version.
    pub version: GcnVersion,
    /// [`program_facts`] of the code.
    pub facts: &'a [Facts],
    /// The pre-decoded code.
    pub ops: &'a Decoded,
    /// Kernel name.
    pub kernel: &'a str,
    /// Source positions of the instructions, when known.
    pub lines: Option<&'a LineTable>,
    /// Work-group id.
    pub group: [u32; 3],
    /// Waves in the group.
    pub waves: u32,
    /// VGPRs allocated.
    pub vgprs: u16,
    /// SGPRs the ABI initialises (`s0 ..sN`).
    pub abi_sgprs: u16,
    /// VGPRs the ABI initialises (`v0 ..vN`, the local ids).
    pub abi_vgprs: u16,
    /// LDS bytes of the group: its allocation (whole granules).
    pub lds_bytes: u32,
    /// LDS bytes the group declared (the kernel's, its local arguments' and
    /// the dynamic bytes), at most `lds_bytes`.
    pub lds_declared: u32,
    /// Device memory.
    pub mem: Option<&'a MemView>,
    /// The dispatch's scratch memory: base and size (0, 0 without).
    pub scratch: (u64, u64),
    /// The kernel's argument values (to name the buffer of a stray access).
    pub values: &'a [ArgValue],
    /// The trace: which waves, and where the records go.
    pub trace: Option<(TraceFilter, TraceSink<'a>)>,
}

impl<'a> GroupCheck<'a> {
    /// The check state of a work-group whose waves start now.
    pub fn new(s: GroupSetup<'a>) -> Self {
        let mut g = GroupCheck {
            options: s.options,
            version: s.version,
            facts: s.facts,
            ops: s.ops,
            kernel: s.kernel,
            lines: s.lines,
            group: s.group,
            waves: Vec::new(),
            lds: lds::Shadow::new(0, 0),
            lds_bytes: s.lds_bytes,
            lds_declared: s.lds_declared.min(s.lds_bytes),
            barriers: waitcnt::Barriers::default(),
            layout: (s.vgprs, s.abi_sgprs, s.abi_vgprs),
            shadows: defined::Shadows::default(),
            origins: defined::Origins::default(),
            allocations: vec![None; s.facts.len()],
            plain: vec![oob::NO_RANGE; s.facts.len()],
            runs: Vec::new(),
            memo: replay::Memo::default(),
            report_count: 0,
            general_flows: 0,
            mem: s.mem,
            scratch: s.scratch,
            values: s.values,
            trace: s.trace,
            snapshot: None,
            reports: Reports::default(),
        };
        g.restart(s.group, s.waves);
        g
    }

    /// The check state of the next work-group of the same dispatch, as
    /// [`GroupCheck::new`] makes it for group `group` of `waves` waves, in
    /// this one's storage: a host thread keeps its group check from group
    /// to group (a streaming kernel runs many short groups; allocating,
    /// clearing and moving each one's state cost more than its checks).
    /// This group's reports go: take them first
    /// ([`GroupCheck::take_reports`]).
    pub fn restart(&mut self, group: [u32; 3], waves: u32) {
        let uninit = self.options.uninit != Level::Off;
        let race = self.options.lds_race != Level::Off || uninit;
        let (vgprs, abi_sgprs, abi_vgprs) = self.layout;
        let n = waves as usize;
        self.group = group;
        self.waves.truncate(n);
        for w in &mut self.waves {
            w.counters.reset();
            w.history.reset(usize::from(vgprs));
            w.pending = None;
            w.pending_states = 0;
        }
        self.waves.resize_with(n, || WaveState {
            counters: waitcnt::Counters::default(),
            history: wait_states::History::new(usize::from(vgprs)),
            pending: None,
            pending_states: 0,
        });
        self.lds.reset(if race { self.lds_bytes } else { 0 }, waves);
        self.barriers.reset();
        self.origins.reset();
        self.shadows
            .start(if uninit { n } else { 0 }, vgprs, abi_sgprs, abi_vgprs);
        self.report_count = 0;
        self.general_flows = 0;
        self.snapshot = None;
        self.reports = Reports::default();
    }

    /// The group's findings so far, taken out (before a
    /// [`GroupCheck::restart`]).
    pub fn take_reports(&mut self) -> Reports {
        std::mem::take(&mut self.reports)
    }

    /// The waves of the group met at `s_barrier`: LDS accesses before it
    /// no longer race with those after.
    pub fn barrier(&mut self) {
        self.lds.barrier();
        self.barriers.release();
    }

    /// Takes the summary of `run` (PC and slot pairs of a compiled block)
    /// out of the cache, deriving it on its first use; `None` when an
    /// instruction has no facts. ([`GroupCheck::put_summary`] returns it.)
    fn take_summary(&mut self, run: &[(u32, u32)]) -> Option<Box<runs::RunSummary>> {
        let (&(first, _), &(last, _)) = (run.first()?, run.last()?);
        let words = self.ops.words();
        if self.runs.len() < words {
            self.runs.resize_with(words, || None);
        }
        let entry = self.runs.get_mut((first / 4) as usize)?;
        match entry.take() {
            Some(summary) if summary.last == last => Some(summary),
            _ => {
                let slots: Vec<usize> = run.iter().map(|&(_, slot)| slot as usize).collect();
                runs::RunSummary::of(self.facts, &slots, last).map(Box::new)
            }
        }
    }

    /// Puts the summary of `run` back ([`GroupCheck::take_summary`]).
    fn put_summary(&mut self, run: &[(u32, u32)], summary: Box<runs::RunSummary>) {
        if let Some(entry) = run
            .first()
            .and_then(|&(first, _)| self.runs.get_mut((first / 4) as usize))
        {
            *entry = Some(summary);
        }
    }

    /// A traced launch, ahead of an instruction: the registers it may
    /// change, for its trace record (out of line: the hooks' common path
    /// keeps a small frame).
    #[cold]
    #[inline(never)]
    fn trace_before(&mut self, wave: &Wave, op: &Op) {
        if let Some((filter, _)) = self.trace {
            if filter.selects(self.group, wave.id) {
                self.snapshot
                    .get_or_insert_with(Default::default)
                    .take(wave, op);
            }
        }
    }

    /// A traced launch, after the instruction at `pc`: its trace record.
    #[cold]
    #[inline(never)]
    fn trace_after(&self, wave: &Wave, pc: u32) {
        if let Some((filter, sink)) = self.trace {
            if filter.selects(self.group, wave.id) {
                if let Some(snapshot) = &self.snapshot {
                    sink(&TraceRecord {
                        group: self.group,
                        wave: wave.id,
                        step: wave.steps - 1,
                        pc,
                        instruction: self.instruction(pc),
                        location: self.location(pc),
                        changes: snapshot.changes(wave),
                    });
                }
            }
        }
    }

    /// The hook of wave `wave` for [`exec::run_wave_checked`].
    pub fn hook(&mut self, wave: u32) -> WaveHook<'_, 'a> {
        WaveHook {
            group: self,
            wave,
            pc: 0,
            replay: replay::Mode::Off,
            recording_instrs: None,
        }
    }

    fn instruction(&self, pc: u32) -> String {
        exec::instruction_at(self.ops, pc).unwrap_or_else(|| "(no instruction)".to_string())
    }

    /// `FILE:LINE:COL` of the instruction at `pc`, when known.
    fn location(&self, pc: u32) -> Option<String> {
        self.lines?.at(pc).map(|l| l.to_string())
    }

    /// Records a finding of `check` at `pc` by `wave`.
    pub(crate) fn report(
        &mut self,
        check: Check,
        wave: u32,
        pc: u32,
        message: String,
        related: Option<u32>,
        lanes: Option<u64>,
    ) {
        let level = self.options.level(check);
        if level == Level::Off {
            return;
        }
        self.report_count += 1;
        let report = CheckReport {
            check,
            level,
            kernel: self.kernel.to_string(),
            group: self.group,
            wave,
            pc,
            instruction: self.instruction(pc),
            message,
            related: related.map(|p| (p, self.instruction(p))),
            lanes,
            count: 1,
            location: self.location(pc),
            related_location: related.and_then(|p| self.location(p)),
        };
        self.reports.add(0, report);
    }
}

/// The hook of one wave ([`Hook`]): runs the enabled checks around each
/// instruction.
pub(crate) struct WaveHook<'g, 'a> {
    group: &'g mut GroupCheck<'a>,
    wave: u32,
    /// The PC of the instruction between `before` and `after` (`after`
    /// cannot derive it from the next PC: a taken branch moved it).
    pc: u32,
    /// What the hook does in the compiled block the wave is in.
    replay: replay::Mode,
    /// The instructions of the block being recorded.
    recording_instrs: Option<Box<[(u32, u32)]>>,
}

impl WaveHook<'_, '_> {
    /// The checks before an instruction (`uninit`: with the `uninit`
    /// check's flow; false when [`GroupCheck::defined_run`] took it).
    #[inline(always)]
    fn checks_before(&mut self, wave: &Wave, op: &Op, slot: usize, uninit: bool) {
        self.pc = wave.pc;
        let g = &mut *self.group;
        // The facts table is parallel to the pre-decoded ops.
        let Some(f) = g.facts.get(slot) else {
            return;
        };
        // After a replayed block: an instruction that only counts its wait
        // states leaves the block's state pending.
        if replay::count_while_pending(g, wave.id, f) {
            return;
        }
        replay::settle(g, wave.id);
        if g.trace.is_some() {
            g.trace_before(wave, op);
        }
        if uninit {
            g.defined_before(wave, op, slot, f);
        }
        if g.options.wait_states != Level::Off {
            wait_states::before(g, wave, f);
        }
        if g.options.waitcnt != Level::Off && waitcnt::needed(g, wave.id, f) {
            waitcnt::before(g, wave, f);
        }
        debug_assert_eq!(self.wave, wave.id);
    }
}

impl WaveHook<'_, '_> {
    /// [`Hook::around`] in a replayed block: the instruction, and for a
    /// memory instruction whose accesses are not of the common kind, the
    /// end of the replay ([`WaveHook::end_replay`]) and its checks.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn around_replayed(
        &mut self,
        wave: &mut Wave,
        op: &Op,
        slot: usize,
        env: &mut Env<'_>,
        handler: exec::Handler,
        block: u32,
        exec: u64,
    ) -> Result<exec::Step, exec::Fault> {
        let pc = wave.pc;
        wave.pc = pc.wrapping_add(u32::from(op.len));
        let step = handler(wave, op, env)?;
        let g = &*self.group;
        if !g.facts.get(slot).is_some_and(|f| f.unit.is_memory()) {
            return Ok(step);
        }
        // (No log: no check reads one, and the handler logged nothing.)
        let plain = env
            .log
            .is_none_or(|cell| replay::plain(g, slot, &cell.borrow()));
        if plain {
            if let Some(cell) = env.log {
                cell.borrow_mut().clear();
            }
            return Ok(step);
        }
        self.end_replay(wave, pc, block, exec);
        self.after(wave, op, slot, env);
        Ok(step)
    }

    /// Ends the replay of `block` (entered with `exec`) at the instruction
    /// at `pc`, which has run: the checks the replay skipped run now, in
    /// program order, from the state they left untouched — `before` of
    /// each instruction up to `pc`'s, and `after` (with no access: those
    /// were of the common kind) of each memory instruction before it. They
    /// read nothing the instructions computed (the blocks replayed have no
    /// lane select and no SGPR-counted wait), so they see what they would
    /// have seen. The block then goes on checked as usual.
    #[cold]
    #[inline(never)]
    fn end_replay(&mut self, wave: &mut Wave, pc: u32, block: u32, exec: u64) {
        self.replay = replay::Mode::Off;
        let Some(instrs) = replay::instrs(self.group, block, exec) else {
            return;
        };
        let next = wave.pc;
        let uninit = self.group.options.uninit != Level::Off;
        let ops = self.group.ops;
        for &(at, slot) in instrs.iter() {
            let slot = slot as usize;
            let Some(op) = ops.ops().get(slot) else {
                continue;
            };
            wave.pc = at;
            self.checks_before(wave, op, slot, uninit);
            if at == pc {
                break;
            }
            let g = &mut *self.group;
            if let Some(f) = g.facts.get(slot) {
                if uninit && f.unit.is_memory() && f.flow.touches_memory() {
                    g.defined_after(wave, f, slot, &[], at);
                }
            }
        }
        self.pc = pc;
        wave.pc = next;
    }
}

impl Hook for WaveHook<'_, '_> {
    /// Compiled blocks may call this hook, unless the launch is traced (a
    /// trace record needs each instruction's registers): `before` reads of
    /// the wave its id, PC and EXEC, and registers only of instructions the
    /// tier never translates (`v_readlane`/`v_writelane` lane selects) or
    /// of scalar instructions (the SGPR of `s_waitcnt_vmcnt` and the like);
    /// `after` returns at once for an instruction outside the memory units.
    fn compiled(&mut self) -> Option<&mut dyn Hook> {
        if self.group.trace.is_some() {
            return None;
        }
        Some(self)
    }

    /// [`Hook::before_run`] from the run's summary ([`runs::RunSummary`]):
    /// each check looks only at the instructions of the run that can
    /// matter to it, and `uninit` takes its common case for the whole run
    /// at once ([`GroupCheck::defined_run`]).
    fn before_run(&mut self, wave: &mut Wave, ops: &Decoded, run: &[(u32, u32)], _: &Env<'_>) {
        debug_assert_eq!(self.wave, wave.id);
        if let replay::Mode::Replaying { .. } = self.replay {
            return;
        }
        replay::settle(self.group, wave.id);
        let g = &mut *self.group;
        let Some(summary) = g.take_summary(run) else {
            // No summary (an instruction without facts): one by one.
            let uninit = g.options.uninit != Level::Off;
            for &(pc, slot) in run {
                if let Some(op) = ops.ops().get(slot as usize) {
                    wave.pc = pc;
                    self.checks_before(wave, op, slot as usize, uninit);
                }
            }
            return;
        };
        let facts = g.facts;
        let each_uninit = g.options.uninit != Level::Off
            && !(run.len() > 1
                && summary
                    .flow
                    .as_ref()
                    .is_some_and(|l| g.defined_run(wave, l)));
        if g.options.wait_states != Level::Off {
            wait_states::before_run(g, wave, run, &summary.states, summary.total_states);
        }
        if g.options.waitcnt != Level::Off {
            waitcnt::before_run(g, wave, run, &summary.counted, &summary.touched);
        }
        if each_uninit {
            for &(pc, slot) in run {
                if let (Some(op), Some(f)) =
                    (ops.ops().get(slot as usize), facts.get(slot as usize))
                {
                    wave.pc = pc;
                    g.defined_before(wave, op, slot as usize, f);
                }
            }
        }
        g.put_summary(run, summary);
        if let Some(&(pc, _)) = run.last() {
            wave.pc = pc;
            self.pc = pc;
        }
    }

    #[inline(always)]
    fn before(&mut self, wave: &Wave, op: &Op, slot: usize, _env: &Env<'_>) {
        let uninit = self.group.options.uninit != Level::Off;
        self.checks_before(wave, op, slot, uninit);
    }

    #[inline(always)]
    fn around(
        &mut self,
        wave: &mut Wave,
        op: &Op,
        slot: usize,
        env: &mut Env<'_>,
        handler: exec::Handler,
    ) -> Result<exec::Step, exec::Fault> {
        if let replay::Mode::Replaying { block, exec } = self.replay {
            return self.around_replayed(wave, op, slot, env, handler, block, exec);
        }
        exec::around_hooks(self, wave, op, slot, env, handler)
    }

    fn enter_block(&mut self, wave: &Wave, block: u32, instrs: &[(u32, u32)], falls_through: bool) {
        replay::settle(self.group, wave.id);
        self.replay = replay::enter(
            self.group,
            wave.id,
            wave.steps,
            wave.exec(),
            block,
            instrs,
            falls_through,
        );
        if let replay::Mode::Recording { .. } = self.replay {
            self.recording_instrs = Some(instrs.into());
        }
    }

    /// While the block is replayed, [`skips_access`](Hook::skips_access)
    /// is the test of the access against the allocation its instruction
    /// used last, and `before_run` does nothing: the allocations' ranges.
    fn plain_ranges(&self) -> Option<&[[u64; 2]]> {
        match self.replay {
            replay::Mode::Replaying { .. } => Some(&self.group.plain),
            _ => None,
        }
    }

    /// After a replayed block, an instruction whose checks only count its
    /// wait states (`s_endpgm`) counts them here, as `before` would (its
    /// `after` does nothing outside the memory units).
    fn ends_quietly(&mut self, wave: &Wave, slot: usize) -> bool {
        let g = &mut *self.group;
        let facts = g.facts;
        facts
            .get(slot)
            .is_some_and(|f| !f.unit.is_memory() && replay::count_while_pending(g, wave.id, f))
    }

    fn skips_access(&mut self, slot: usize, first: u64, len: u32, lanes: u8) -> bool {
        // What `around_replayed` would find of the access the handler logs
        // (`Env::log_dense`, `Env::log_mem`): a plain one needs no check.
        matches!(self.replay, replay::Mode::Replaying { .. })
            && replay::plain(
                self.group,
                slot,
                &[MemAccess {
                    count: lanes,
                    ..MemAccess::one(0, false, first, len, 0)
                }],
            )
    }

    fn exit_block(&mut self, wave: &Wave, completed: bool) {
        match std::mem::take(&mut self.replay) {
            replay::Mode::Off => {}
            replay::Mode::Replaying { block, exec } => {
                // A block stops early only at a fault, which ends the
                // dispatch: the skipped checks have nothing to report
                // (the recording found nothing in the same instructions).
                if completed {
                    if let Some(state) = self.group.waves.get_mut(wave.id as usize) {
                        state.pending = Some((block, exec));
                        state.pending_states = 0;
                    }
                }
            }
            mode @ replay::Mode::Recording { .. } => {
                let instrs = self.recording_instrs.take().unwrap_or_default();
                replay::finish_recording(self.group, wave.id, mode, wave.exec(), completed, || {
                    instrs
                });
            }
        }
    }

    #[inline(always)]
    fn after(&mut self, wave: &Wave, op: &Op, slot: usize, env: &Env<'_>) {
        let g = &mut *self.group;
        let pc = self.pc;
        let Some(f) = g.facts.get(slot) else {
            return;
        };
        if g.trace.is_some() {
            g.trace_after(wave, pc);
        }
        // Only the memory units' instructions log accesses: every other
        // instruction is done here.
        if !f.unit.is_memory() {
            debug_assert!(env.log.is_none_or(|cell| cell.borrow().is_empty()));
            return;
        }
        replay::settle(g, wave.id);
        // The memory accesses of the instruction. The log lives outside
        // the group state (the interpreter fills it), so it is read in
        // place while the checks update the group. (No log: no check that
        // reads one is on, and the interpreter logged nothing.)
        let guard = env.log.map(|cell| cell.borrow());
        let log: &[MemAccess] = guard.as_deref().map_or(&[], |v| &v[..]);
        let had = !log.is_empty();
        if had && f.lds != facts::LdsUse::None && g.options.lds_race != Level::Off {
            lds::after(g, wave.id, pc, f.lds, log);
        }
        if g.options.uninit != Level::Off && f.flow.touches_memory() {
            g.defined_after(wave, f, slot, log, pc);
        }
        if had && g.options.waitcnt != Level::Off {
            waitcnt::after(g, wave, f, log, pc);
        }
        // DS instructions touch LDS and GDS only, never device memory.
        if had && g.options.oob != Level::Off {
            if f.unit == facts::Unit::Ds {
                oob::lds(g, wave.id, pc, op, log);
            } else {
                oob::after(g, wave.id, pc, slot, op, f, log);
            }
        }
        // A block being recorded: whether a replay would pass these
        // accesses (tested after `oob`, which caches the allocation the
        // test compares with).
        if let replay::Mode::Recording { plain, .. } = &mut self.replay {
            *plain = *plain && replay::plain(g, slot, log);
        }
        drop(guard);
        if let (true, Some(cell)) = (had, env.log) {
            cell.borrow_mut().clear();
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
#[cfg(test)]
mod tests_rdna;
