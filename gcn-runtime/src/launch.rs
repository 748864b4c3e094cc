//! Running a kernel: grid → work-groups → waves, the ABI register setup
//! taken from the binary's PGM_RSRC1/PGM_RSRC2, and host threads.
//!
//! A dispatch runs a grid of work-groups; a work-group is 1–16 waves of 64
//! lanes, or 1–32 waves of 32 for a GCN 1.5 / RDNA 2 kernel built for
//! wave32 (the kernel descriptor's ENABLE_WAVEFRONT_SIZE32; lanes past the
//! group's size start with EXEC clear). The waves of
//! a group run interleaved on one host thread, each until it ends or
//! reaches `s_barrier`, and share the group's LDS; work-groups run in
//! parallel on a pool of host threads sharing global memory.
//!
//! Register setup (old Gallium ABI, as radeonsi sets it for Clover):
//! the user SGPRs first (`s[0:1]` = the kernel input buffer; with 4 user
//! SGPRs, `s[2:3]` = the scratch buffer's descriptor words 0 and 1), then
//! one SGPR per enabled TGID_X/Y/Z (the work-group id), the TG_SIZE SGPR
//! when enabled (bits 0–5: waves in the group, bits 6–11: this wave's
//! index), and the scratch wave offset when SCRATCH_EN is set. `v0`–`v2`
//! hold the local ids (as many as TIDIG_COMP_CNT enables). MODE starts from
//! PGM_RSRC1's FLOAT_MODE, DX10_CLAMP and IEEE_MODE.

use std::cell::RefCell;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use gcn_asm::GcnVersion;
use rayon::prelude::*;

use crate::check::{
    self, Check, CheckOptions, CheckReport, Facts, GroupCheck, GroupSetup, Level, Reports,
    TraceFilter, TraceSink,
};
use crate::exec::tier::{TierMode, TierStats};
use crate::exec::{self, Decoded, Env, Fault, FaultKind, MemAccess, NoHook, Step, Wave, WAVE_SIZE};
use crate::hostcall::HostcallServer;
use crate::kernel::{ArgError, ArgValue, Dispatch, KernelArgs};
use crate::launcher::{LaunchArgs, LaunchOutcome};
use crate::memory::{AllocError, MemView};
use crate::profile::{self, Counting};
use crate::program::{LoadError, Program, ProgramKernel};

/// Most work-items in a work-group (16 waves of 64, 32 of 32).
pub const MAX_GROUP_SIZE: u32 = 1024;
/// Most LDS bytes a work-group can have.
pub const MAX_LDS: u32 = 64 * 1024;
/// The default step budget of a dispatch: instructions per wave, about
/// 134 M — a few seconds of one runaway wave on one host core. Raise it
/// ([`LaunchOptions::max_steps`], `gcnrun --max-steps`) for longer waves.
pub const DEFAULT_MAX_STEPS: u64 = 1 << 27;

/// Instructions a wave runs between two looks at the clock (the
/// [`LaunchOptions::timeout`] is checked at this granularity).
const STEP_SLICE: u64 = 1 << 20;

/// How to run a dispatch.
///
/// ```
/// use gcn_runtime::{gcn_kernel, Dispatch, FaultKind, LaunchError, LaunchOptions, Memory, Program};
///
/// gcn_kernel! {
///     mod spin;
///     .gallium
///     .gpu tonga
///     .kernel spin                 // never ends
///         .args
///             .arg out, global, 8
///         .config
///             .dims x
///     .text
///     spin:
///         s_branch         spin
/// }
/// let memory = Memory::default();
/// let program = Program::from_kernel(&memory, &spin::SPIN)?;
/// let out = memory.buffer_zeroed::<u32>(1)?;
/// let options = LaunchOptions {
///     max_steps: 1000,                      // instructions per wave
///     threads: Some(1),                     // host threads (default: one per core)
///     timeout: Some(std::time::Duration::from_secs(10)),
///     ..LaunchOptions::default()            // checks: every one an error
/// };
/// let err = program
///     .launcher(&spin::SpinArgs { out: out.ptr() }, &Dispatch::new_1d(64, 64))
///     .options(&options)
///     .run()
///     .unwrap_err();
/// let LaunchError::Exec(fault) = err else { panic!("{err}") };
/// assert_eq!(fault.kind, FaultKind::StepBudget(1000));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaunchOptions {
    /// Most instructions any wave may execute before the dispatch stops
    /// with [`FaultKind::StepBudget`] (ends runaway loops).
    pub max_steps: u64,
    /// Host threads for work-groups; `None`: one per core.
    pub threads: Option<usize>,
    /// The level of each sanitizer check ([`crate::check`]); all errors by
    /// default, [`CheckOptions::off`] runs the plain interpreter.
    pub checks: CheckOptions,
    /// A wall-clock limit for the dispatch: past it, the dispatch stops
    /// with [`FaultKind::Timeout`]. `None` (the default): no limit but the
    /// step budget.
    pub timeout: Option<std::time::Duration>,
    /// How unchecked launches use the compiled tier (`jit` feature):
    /// [`TierMode::Hot`] by default. The environment variable
    /// `GCN_KERNELS_TIER` (`off`, `hot`, `eager`) overrides it. Checked
    /// launches always run the interpreter.
    pub tier: TierMode,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        LaunchOptions {
            max_steps: DEFAULT_MAX_STEPS,
            threads: None,
            checks: CheckOptions::default(),
            timeout: None,
            tier: TierMode::default(),
        }
    }
}

/// What a dispatch did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LaunchStats {
    /// Work-groups run.
    pub work_groups: u64,
    /// Waves run.
    pub waves: u64,
    /// Instructions executed (summed over waves).
    pub instructions: u64,
    /// Active lanes summed over the vector ALU instructions executed.
    pub lane_ops: u64,
    /// Wall-clock time of the dispatch.
    pub elapsed: Duration,
    /// Check findings at [`Level::Warn`] (distinct (check, PC) pairs);
    /// [`Launcher::reports`](crate::Launcher::reports) returns them.
    pub check_warnings: u64,
    /// What the compiled tier did: blocks translated, the time it took,
    /// instructions run compiled.
    pub tier: TierStats,
}

impl LaunchStats {
    /// Vector lane operations per second.
    pub fn lane_ops_per_second(&self) -> f64 {
        self.lane_ops as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// A fault during execution, with where it happened.
#[derive(Clone, PartialEq)]
pub struct ExecError {
    /// The kernel.
    pub kernel: String,
    /// The work-group id (x, y, z).
    pub group: [u32; 3],
    /// The wave's index in the work-group.
    pub wave: u32,
    /// Byte offset of the instruction in `.text`.
    pub pc: u32,
    /// The instruction, disassembled.
    pub instruction: String,
    /// `FILE:LINE:COL` of the instruction, when the program has a line
    /// table ([`crate::lines`]).
    pub location: Option<String>,
    /// The lane, for per-lane faults.
    pub lane: Option<u8>,
    /// What went wrong.
    pub kind: FaultKind,
    /// For a memory fault: where the nearest allocation is, and which
    /// pointer argument points into it (memcheck style).
    pub note: Option<String>,
    /// What the checks reported in the work-group before the fault (an
    /// uninitialised address register is a common cause).
    pub checks: Vec<CheckReport>,
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = &self.location {
            write!(f, "{loc}: ")?;
        }
        write!(
            f,
            "kernel '{}', work-group ({}, {}, {}), wave {}, pc {:#x} `{}`",
            self.kernel,
            self.group[0],
            self.group[1],
            self.group[2],
            self.wave,
            self.pc,
            self.instruction
        )?;
        if let Some(lane) = self.lane {
            write!(f, ", lane {lane}")?;
        }
        write!(f, ": {}", self.kind)?;
        if let Some(note) = &self.note {
            write!(f, " ({note})")?;
        }
        for r in &self.checks {
            write!(f, "\nafter: {r}")?;
        }
        Ok(())
    }
}

/// How far from an allocation a stray address may lie and still be named
/// relative to it: its size, or 1 MiB for small ones. Farther away (a wild
/// pointer terabytes off) the distance says nothing, and no note is made.
const NEAR_BYTES: u64 = 1 << 20;

/// Where a stray address lies relative to the nearest allocation, and the
/// pointer arguments into that allocation (or that it is the kernel input
/// buffer, at `input_address`); `None` when no allocation is near.
fn nearest_note(
    mem: &MemView,
    address: u64,
    values: &[ArgValue],
    input_address: u64,
) -> Option<String> {
    let (base, size) = mem.nearest(address)?;
    let (place, distance) = if address < base {
        (format!("{} bytes before", base - address), base - address)
    } else if address - base < size {
        (format!("at offset {} of", address - base), 0)
    } else {
        let past = address - base - size;
        (format!("{past} bytes past the end of"), past)
    };
    if distance > size.max(NEAR_BYTES) {
        return None;
    }
    if base == input_address {
        return Some(format!(
            "{place} the kernel input buffer ({size} bytes at {base:#x})"
        ));
    }
    let owner = pointer_args(values, base, size);
    Some(format!(
        "{place} the {size}-byte allocation at {base:#x}{owner}"
    ))
}

/// ` (argument 0, argument 2)`: the pointer arguments into the `size`-byte
/// allocation at `base`, or nothing when none points into it.
pub(crate) fn pointer_args(values: &[ArgValue], base: u64, size: u64) -> String {
    let args: Vec<String> = values
        .iter()
        .enumerate()
        .filter_map(|(i, v)| match v {
            ArgValue::Pointer(p) if p.0 >= base && p.0 < base + size.max(1) => {
                Some(format!("argument {i}"))
            }
            _ => None,
        })
        .collect();
    if args.is_empty() {
        String::new()
    } else {
        format!(" ({})", args.join(", "))
    }
}

impl std::error::Error for ExecError {}

/// Why a launch failed.
#[derive(Clone, PartialEq)]
pub enum LaunchError {
    /// The kernel is not in the program.
    Load(LoadError),
    /// The argument values do not match the kernel's `.arg` table.
    Args(ArgError),
    /// The dispatch shape is not allowed (sizes, work-group limit).
    Dispatch(String),
    /// The kernel's configuration cannot be run (LDS too large, …).
    Config(String),
    /// Device memory for the input buffer or scratch ran out.
    Alloc(AllocError),
    /// A fault while running.
    Exec(Box<ExecError>),
    /// The kernel's printf buffer holds a record that cannot be formatted
    /// ([`crate::printf`]).
    Printf(String),
    /// Checks at [`Level::Error`] found something ([`crate::check`]): every
    /// report of the dispatch, errors and warnings, ordered by PC.
    Check(Vec<CheckReport>),
}

impl fmt::Display for LaunchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LaunchError::Load(e) => write!(f, "{e}"),
            LaunchError::Args(e) => write!(f, "{e}"),
            LaunchError::Dispatch(m) => write!(f, "bad dispatch: {m}"),
            LaunchError::Config(m) => write!(f, "kernel configuration: {m}"),
            LaunchError::Alloc(e) => write!(f, "{e}"),
            LaunchError::Exec(e) => write!(f, "{e}"),
            LaunchError::Printf(m) => write!(f, "printf: {m}"),
            LaunchError::Check(reports) => {
                let errors = reports.iter().filter(|r| r.level == Level::Error).count();
                write!(f, "{errors} check error(s):")?;
                for r in reports {
                    write!(f, "\n{r}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for LaunchError {}

impl From<LoadError> for LaunchError {
    fn from(e: LoadError) -> Self {
        LaunchError::Load(e)
    }
}

impl From<ArgError> for LaunchError {
    fn from(e: ArgError) -> Self {
        LaunchError::Args(e)
    }
}

impl From<AllocError> for LaunchError {
    fn from(e: AllocError) -> Self {
        LaunchError::Alloc(e)
    }
}

/// The execution setup a kernel's PGM_RSRC1/PGM_RSRC2 and scratch size
/// ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelConfig {
    /// VGPRs allocated.
    pub vgprs: u16,
    /// SGPRs allocated (general SGPRs; VCC etc. are always there).
    pub sgprs: u16,
    /// Initial MODE register.
    pub mode: u32,
    /// User SGPRs.
    pub user_sgprs: u32,
    /// TGID_X/Y/Z_EN.
    pub tgid_enabled: [bool; 3],
    /// TG_SIZE_EN.
    pub tg_size_enabled: bool,
    /// TIDIG_COMP_CNT: local ids in v0 (0), v0-v1 (1), v0-v2 (2).
    pub tidig_comp_cnt: u32,
    /// LDS bytes the kernel itself allocates.
    pub lds_bytes: u32,
    /// SCRATCH_EN.
    pub scratch_enabled: bool,
    /// Scratch bytes per wave (TMPRING_SIZE.WAVESIZE × 1 KiB).
    pub scratch_per_wave: u32,
    /// Waves of 32 lanes (a GCN 1.5 / RDNA 2 kernel built for wave32);
    /// 64 otherwise.
    pub wave32: bool,
}

impl KernelConfig {
    /// Lanes per wave (32 or 64).
    pub fn wave_size(&self) -> u32 {
        if self.wave32 {
            32
        } else {
            WAVE_SIZE as u32
        }
    }
}

impl KernelConfig {
    /// Decodes the configuration of `kernel` on `version`.
    pub fn of(kernel: &ProgramKernel, version: GcnVersion) -> Self {
        let rsrc1 = kernel.prog_info_value(gcn_asm::gallium::PGM_RSRC1);
        let rsrc2 = kernel.prog_info_value(gcn_asm::gallium::PGM_RSRC2);
        let tmpring = kernel.prog_info_value(gcn_asm::gallium::TMPRING_SIZE);
        let max_sgprs = exec::general_sgprs(version);
        let lds_granule = lds_granule(version);
        // FLOAT_MODE → MODE[7:0], DX10_CLAMP → MODE[8], IEEE → MODE[9].
        let mode = ((rsrc1 >> 12) & 0xff) | (((rsrc1 >> 21) & 1) << 8) | (((rsrc1 >> 23) & 1) << 9);
        KernelConfig {
            vgprs: ((rsrc1 & 0x3f) as u16 + 1) * 4,
            sgprs: ((((rsrc1 >> 6) & 0xf) as u16 + 1) * 8).min(max_sgprs),
            mode,
            user_sgprs: (rsrc2 >> 1) & 0x1f,
            tgid_enabled: [
                rsrc2 >> 7 & 1 != 0,
                rsrc2 >> 8 & 1 != 0,
                rsrc2 >> 9 & 1 != 0,
            ],
            tg_size_enabled: rsrc2 >> 10 & 1 != 0,
            // 3 is reserved: it loads v0-v2 as 2 does (a damaged binary
            // must not make a fourth dimension).
            tidig_comp_cnt: ((rsrc2 >> 11) & 3).min(2),
            lds_bytes: ((rsrc2 >> 15) & 0x1ff) * lds_granule,
            scratch_enabled: rsrc2 & 1 != 0,
            scratch_per_wave: ((tmpring >> 12) & 0x1fff) * 1024,
            // Gallium kernels are wave64 (GCN 1.5 Gallium code is refused
            // by the assembler).
            wave32: false,
        }
    }
}

/// Bytes of an LDS allocation granule (PGM_RSRC2.LDS_SIZE's unit): 64
/// dwords on GCN 1.0, 128 from GCN 1.1 on. A work-group's LDS is allocated
/// in whole granules, so an access past the bytes a kernel declares but
/// inside its last granule completes as on hardware.
pub(crate) const fn lds_granule(version: GcnVersion) -> u32 {
    match version {
        GcnVersion::Gcn1_0 => 256,
        _ => 512,
    }
}

/// Everything a work-group needs, shared by the threads.
struct Shared<'a> {
    kernel: &'a ProgramKernel,
    config: KernelConfig,
    ops: &'a Decoded,
    mem: MemView,
    version: GcnVersion,
    code_base: u64,
    input_address: u64,
    groups: [u32; 3],
    local: [u32; 3],
    waves_per_group: u32,
    scratch_base: u64,
    /// Bytes of the scratch allocation (0 without).
    scratch_size: u64,
    max_steps: u64,
    /// When the dispatch must end ([`LaunchOptions::timeout`]).
    deadline: Option<std::time::Instant>,
    timeout: Option<std::time::Duration>,
    checks: CheckOptions,
    /// Per-instruction facts when any check is on or a trace runs.
    facts: Option<Vec<Facts>>,
    trace: Option<(TraceFilter, TraceSink<'a>)>,
    lds_bytes: u32,
    /// LDS bytes the group declared (before rounding to granules).
    lds_declared: u32,
    /// The argument values (to name the buffer of a stray access).
    values: &'a [ArgValue],
    /// Source positions of the instructions, when known.
    lines: Option<&'a crate::lines::LineTable>,
    /// The profile's counters, one table per host thread, when profiling.
    profile: Option<&'a [Mutex<Vec<profile::Cell>>]>,
    /// The user SGPRs of an HSA launch (`None`: the Gallium ABI's).
    user_sgpr_values: Option<Vec<u32>>,
    /// Global size (work-items) per dimension.
    global: [u32; 3],
    /// Whether the last group of a dimension may be partial.
    partial: bool,
    /// The note of a fault near address 0 (HSA: the hidden arguments left
    /// null).
    null_note: Option<&'a str>,
    /// The server of the hostcall buffer (HIP kernels that have one).
    hostcall: Option<&'a HostcallServer<'a>>,
    /// How the unchecked loop uses the compiled tier.
    tier: TierMode,
}

impl Program {
    /// Runs the kernel of a typed `gcn_kernel!` argument struct: the short
    /// form of `self.launcher(args, dispatch).options(options).run()`
    /// ([`Program::launcher`]), returning the statistics.
    pub fn launch_args<A: KernelArgs>(
        &self,
        args: &A,
        dispatch: &Dispatch,
        options: &LaunchOptions,
    ) -> Result<LaunchStats, LaunchError> {
        Ok(self.launcher(args, dispatch).options(options).run()?.stats)
    }

    /// Runs kernel `name` with one value per user argument (checked against
    /// the `.arg` table: kind, size) over `dispatch`. Fails with
    /// [`LaunchError::Check`] when a check at [`Level::Error`] reports
    /// something; warnings are only counted ([`LaunchStats::check_warnings`]).
    /// The short form of [`Program::launcher`]`(LaunchArgs::new(name,
    /// values), dispatch).options(options).run()`.
    pub fn launch(
        &self,
        name: &str,
        values: &[ArgValue],
        dispatch: &Dispatch,
        options: &LaunchOptions,
    ) -> Result<LaunchStats, LaunchError> {
        let launcher = self.launcher(LaunchArgs::new(name, values), dispatch);
        Ok(launcher.options(options).run()?.stats)
    }

    /// [`Program::launch`] returning every check report (errors and
    /// warnings, deduplicated per (check, PC), ordered by PC) instead of
    /// failing on them. A fault still fails the launch.
    #[deprecated(note = "use `program.launcher(..).options(..).reports()`")]
    pub fn launch_reports(
        &self,
        name: &str,
        values: &[ArgValue],
        dispatch: &Dispatch,
        options: &LaunchOptions,
    ) -> Result<(LaunchStats, Vec<CheckReport>), LaunchError> {
        let launcher = self.launcher(LaunchArgs::new(name, values), dispatch);
        let outcome = launcher.options(options).reports()?;
        Ok((outcome.stats, outcome.reports))
    }

    /// [`Program::launch_reports`] that also calls `sink` with a
    /// [`check::TraceRecord`] for every instruction executed by the waves
    /// `filter` selects.
    #[deprecated(note = "use `program.launcher(..).options(..).trace(filter, sink).reports()`")]
    pub fn launch_traced(
        &self,
        name: &str,
        values: &[ArgValue],
        dispatch: &Dispatch,
        options: &LaunchOptions,
        filter: TraceFilter,
        sink: TraceSink<'_>,
    ) -> Result<(LaunchStats, Vec<CheckReport>), LaunchError> {
        let launcher = self.launcher(LaunchArgs::new(name, values), dispatch);
        let outcome = launcher.options(options).trace(filter, sink).reports()?;
        Ok((outcome.stats, outcome.reports))
    }

    /// Runs a dispatch: every check report is returned (the caller decides
    /// whether an error fails the launch); `profile` counts the
    /// instructions ([`crate::profile`]).
    pub(crate) fn run_dispatch(
        &self,
        name: &str,
        values: &[ArgValue],
        dispatch: &Dispatch,
        options: &LaunchOptions,
        trace: Option<(TraceFilter, TraceSink<'_>)>,
        profile: bool,
    ) -> Result<LaunchOutcome, LaunchError> {
        let start = Instant::now();
        let kernel = self.kernel(name)?;
        let local = dispatch.local_size;
        let group_size: u64 = local.iter().map(|&l| u64::from(l)).product();
        if group_size > u64::from(MAX_GROUP_SIZE) {
            return Err(LaunchError::Dispatch(format!(
                "a work-group of {}×{}×{} = {group_size} work-items is larger than {MAX_GROUP_SIZE} (16 waves)",
                local[0], local[1], local[2]
            )));
        }
        let memory = self.memory();
        let wanted = options
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        // The ABI: the kernel input buffer of the Gallium ABI, or the
        // kernarg segment, dispatch packet and queue of the HSA ABI.
        let (config, groups, lds_bytes, input_buffer, input_address, hsa) = match &kernel
            .code_object
        {
            Some(rk) => {
                let info = self.code_object.as_ref();
                let opencl = info
                    .and_then(|c| c.opencl.iter().find(|(n, _)| *n == kernel.name))
                    .and_then(|(_, v)| *v);
                let config = crate::hsa::config(rk, self.version());
                // Hostcall packets: a wave holds at most one, and a host
                // thread runs one wave at a time (a wave does not stop at
                // a barrier inside a hostcall), so one per host thread
                // would do; one per wave of a group of each thread, up to
                // 4096 (16 MiB), leaves a margin.
                let threads = wanted.clamp(1, 1 << 16) as u32;
                let packets = (threads * (MAX_GROUP_SIZE / config.wave_size()))
                    .min(4096)
                    .max(threads);
                let prepared = crate::hsa::prepare(
                    memory,
                    rk,
                    opencl,
                    values,
                    dispatch,
                    info.map_or(0, |c| c.base),
                    packets,
                )?;
                (
                    config,
                    prepared.groups,
                    prepared.lds_bytes,
                    None,
                    prepared.kernarg.ptr().0,
                    Some((&**rk, prepared)),
                )
            }
            None => {
                let groups = dispatch.groups()?;
                let config = KernelConfig::of(kernel, self.version());
                let input = crate::kernel::write_input_with_local_base(
                    &kernel.args,
                    values,
                    dispatch,
                    config.lds_bytes,
                )?;
                let lds_bytes = config
                    .lds_bytes
                    .saturating_add(input.local_memory)
                    .saturating_add(dispatch.dynamic_lds);
                if lds_bytes > MAX_LDS {
                    return Err(LaunchError::Config(format!(
                        "{lds_bytes} bytes of LDS ({} the kernel's, {} for local arguments, {} dynamic) exceed {MAX_LDS}",
                        config.lds_bytes, input.local_memory, dispatch.dynamic_lds
                    )));
                }
                let input_buffer = memory.buffer_from_slice(&input.bytes)?;
                let address = input_buffer.ptr().0;
                (config, groups, lds_bytes, Some(input_buffer), address, None)
            }
        };
        // The hardware allocates the group's LDS (the kernel's, the local
        // arguments' and the dynamic bytes together) in whole granules;
        // MAX_LDS is a multiple of every granule.
        let lds_declared = lds_bytes;
        let lds_bytes = lds_bytes.next_multiple_of(lds_granule(self.version()));
        let waves_per_group = group_size.div_ceil(u64::from(config.wave_size())) as u32;
        // Never more host threads than work-groups (a pool of idle threads
        // costs their start-up), nor, by default, than cores.
        let group_count = u64::from(groups[0])
            .checked_mul(u64::from(groups[1]))
            .and_then(|n| n.checked_mul(u64::from(groups[2])))
            .ok_or_else(|| {
                LaunchError::Dispatch(format!(
                    "a grid of {}×{}×{} work-groups is more than 2^64",
                    groups[0], groups[1], groups[2]
                ))
            })?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(wanted.clamp(1, group_count.clamp(1, 1 << 16) as usize))
            .build()
            .map_err(|e| LaunchError::Config(format!("cannot start host threads: {e}")))?;
        let threads = pool.current_num_threads() as u64;
        // One scratch slot per wave that can run at once.
        let scratch = if config.scratch_enabled && config.scratch_per_wave > 0 {
            let slots = threads * u64::from(waves_per_group);
            let bytes = (slots * u64::from(config.scratch_per_wave)) as usize;
            // Under the `uninit` check private memory is tracked: a wave's
            // slot starts undefined, and spills carry their definedness.
            Some(if options.checks.uninit != Level::Off {
                memory.buffer_uninit::<u8>(bytes)?
            } else {
                memory.buffer_zeroed::<u8>(bytes)?
            })
        } else {
            None
        };
        let scratch_base = scratch.as_ref().map_or(0, |b| b.ptr().0);
        let patched = if config.scratch_enabled {
            self.ops_with_scratch(
                scratch_descriptor(scratch_base, config.scratch_per_wave),
                kernel.offset,
            )
        } else {
            None
        };
        let user_sgpr_values = match &hsa {
            Some((rk, prepared)) => Some(crate::hsa::user_sgprs(
                rk,
                prepared,
                self.version(),
                scratch_base,
                config.scratch_per_wave,
                self.dispatches.fetch_add(1, Ordering::Relaxed),
            )?),
            None => None,
        };
        let cached;
        let ops = match &patched {
            Some(ops) => ops,
            None => {
                cached = self.ops_waves(kernel.offset, config.wave32);
                &*cached
            }
        };
        let tables = profile.then(|| profile::tables(threads as usize, ops.words()));
        // HIP's printf text goes where OpenCL's goes, as each call ends.
        let emit = |text: &str| self.emit_printf(text);
        let hostcall = hsa
            .as_ref()
            .and_then(|(_, p)| p.hostcall.as_ref())
            .map(|b| HostcallServer::new(b, &emit));
        let shared = Shared {
            hostcall: hostcall.as_ref(),
            profile: tables.as_deref(),
            facts: (!options.checks.is_off() || trace.is_some())
                .then(|| check::program_facts(ops, self.version())),
            trace,
            values,
            lines: self.line_table(),
            checks: options.checks,
            tier: TierMode::from_env().unwrap_or(options.tier),
            lds_bytes,
            lds_declared,
            kernel,
            config,
            ops,
            mem: memory.view(),
            version: self.version(),
            code_base: self.code_base(),
            input_address,
            groups,
            local,
            waves_per_group,
            scratch_base,
            scratch_size: scratch.as_ref().map_or(0, |b| b.byte_len()),
            max_steps: options.max_steps,
            deadline: options.timeout.map(|t| std::time::Instant::now() + t),
            timeout: options.timeout,
            user_sgpr_values,
            global: dispatch.global_size,
            partial: hsa.as_ref().is_some_and(|(_, p)| p.partial),
            null_note: hsa.as_ref().and_then(|(_, p)| p.null_note.as_deref()),
        };
        let total_groups = group_count;
        let instructions = AtomicU64::new(0);
        let lane_ops = AtomicU64::new(0);
        let compiled_steps = AtomicU64::new(0);
        let tier_before = ops.tier.totals();
        let first_error: Mutex<Option<(u64, Box<ExecError>)>> = Mutex::new(None);
        // The lowest failed group index (u64::MAX: none), read without the
        // lock so that groups after a failure are skipped cheaply.
        let first_failed = AtomicU64::new(u64::MAX);
        let reports = Mutex::new(Reports::default());
        // Groups in chunks: after a failure (a fault, the timeout) every
        // later group is skipped, and the chunks after it are not even
        // walked (a grid of 2^63 groups ends as soon as one fails).
        const CHUNK: u64 = 1 << 20;
        pool.install(|| {
            let mut first = 0;
            while first < total_groups && first_failed.load(Ordering::Relaxed) == u64::MAX {
                let end = first.saturating_add(CHUNK).min(total_groups);
                (first..end).into_par_iter().for_each_init(
                    || GroupScratch {
                        lds: vec![0u8; lds_bytes as usize],
                        waves: Vec::new(),
                        state: Vec::new(),
                        log: RefCell::new(Vec::new()),
                        checks: None,
                    },
                    |scratch, index| {
                        if first_failed.load(Ordering::Relaxed) < index {
                            return;
                        }
                        scratch.lds.fill(0);
                        let slot = rayon::current_thread_index().unwrap_or(0) as u64;
                        match run_group(&shared, index, scratch, slot) {
                            Ok((n, l, c, found)) => {
                                instructions.fetch_add(n, Ordering::Relaxed);
                                lane_ops.fetch_add(l, Ordering::Relaxed);
                                compiled_steps.fetch_add(c, Ordering::Relaxed);
                                if let Some(found) = found.filter(|r| !r.is_empty()) {
                                    reports
                                        .lock()
                                        .unwrap_or_else(|e| e.into_inner())
                                        .merge(index, found);
                                }
                            }
                            Err(e) => {
                                let mut first =
                                    first_error.lock().unwrap_or_else(|e| e.into_inner());
                                if first.as_ref().is_none_or(|(i, _)| index < *i) {
                                    *first = Some((index, e));
                                }
                                first_failed.fetch_min(index, Ordering::Relaxed);
                            }
                        }
                    },
                );
                first = end;
            }
        });
        drop(input_buffer);
        drop(scratch);
        // printf text, also of a launch that failed (what it printed up to
        // the fault helps find it).
        let printed = match hsa.as_ref().and_then(|(_, p)| p.printf.as_ref()) {
            Some(buffer) => {
                let formats = self
                    .code_object
                    .as_ref()
                    .map_or(&[][..], |c| &c.printf_formats[..]);
                let result = crate::hsa::printf_text(formats, buffer);
                if let Ok(text) = &result {
                    if !text.is_empty() {
                        self.emit_printf(text);
                    }
                }
                result.map(|_| ())
            }
            None => Ok(()),
        };
        if let Some((_, e)) = first_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(LaunchError::Exec(e));
        }
        printed.map_err(|e| LaunchError::Printf(e.to_string()))?;
        let reports = reports
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .into_vec();
        let check_warnings = reports.iter().filter(|r| r.level == Level::Warn).count() as u64;
        let profile = tables.map(|t| profile::collect(t, ops, self.line_table()));
        Ok(LaunchOutcome {
            stats: LaunchStats {
                work_groups: total_groups,
                waves: total_groups.saturating_mul(u64::from(waves_per_group)),
                instructions: instructions.into_inner(),
                lane_ops: lane_ops.into_inner(),
                elapsed: start.elapsed(),
                check_warnings,
                tier: {
                    let after = ops.tier.totals();
                    TierStats {
                        blocks_compiled: after.blocks_compiled - tier_before.blocks_compiled,
                        instructions_compiled: after.instructions_compiled
                            - tier_before.instructions_compiled,
                        translate_time: after
                            .translate_time
                            .saturating_sub(tier_before.translate_time),
                        steps_compiled: compiled_steps.into_inner(),
                    }
                },
            },
            reports,
            profile,
        })
    }
}

/// The work-group id of linear group `index`.
fn group_id(index: u64, groups: [u32; 3]) -> [u32; 3] {
    let gx = u64::from(groups[0]);
    let gy = u64::from(groups[1]);
    [
        (index % gx) as u32,
        ((index / gx) % gy) as u32,
        (index / (gx * gy)) as u32,
    ]
}

impl Shared<'_> {
    /// The local size and wave count of group `id`: the dispatch's, or,
    /// for the last group of a dimension of a partial dispatch, what is
    /// left of the global size.
    fn group_shape(&self, id: [u32; 3]) -> ([u32; 3], u32) {
        if !self.partial {
            return (self.local, self.waves_per_group);
        }
        let local = [0, 1, 2].map(|d| {
            let first = u64::from(id[d]) * u64::from(self.local[d]);
            (u64::from(self.global[d]) - first).min(u64::from(self.local[d])) as u32
        });
        let items: u64 = local.iter().map(|&l| u64::from(l)).product();
        (
            local,
            items.div_ceil(u64::from(self.config.wave_size())) as u32,
        )
    }

    /// Byte offset of the private-memory slot of wave `wave` of the group
    /// running in host-thread slot `slot` (one slot per wave that can run
    /// at once).
    fn scratch_offset(&self, slot: u64, wave: u32) -> u64 {
        (slot * u64::from(self.waves_per_group) + u64::from(wave))
            * u64::from(self.config.scratch_per_wave)
    }
}

/// What a host thread reuses from one work-group to the next.
struct GroupScratch<'s> {
    /// The work-group's LDS.
    lds: Vec<u8>,
    /// The work-group's waves.
    waves: Vec<Wave>,
    /// Where each wave stopped.
    state: Vec<Step>,
    /// The memory access log while checks run ([`Env::log`]).
    log: RefCell<Vec<MemAccess>>,
    /// The check state of the thread's last group
    /// ([`GroupCheck::restart`]).
    checks: Option<GroupCheck<'s>>,
}

/// Sets up the waves of one work-group in `waves` (reusing their storage).
fn make_waves(
    s: &Shared<'_>,
    id: [u32; 3],
    (local, group_waves): ([u32; 3], u32),
    slot: u64,
    waves: &mut Vec<Wave>,
) {
    let c = &s.config;
    let [lx, ly, lz] = local;
    let items = lx * ly * lz;
    waves.truncate(group_waves as usize);
    waves.resize_with(group_waves as usize, || Wave::new(c.vgprs, c.sgprs));
    for (wave_index, w) in (0..group_waves).zip(waves.iter_mut()) {
        {
            let wave_size = c.wave_size();
            let first = wave_index * wave_size;
            let active = items.saturating_sub(first).min(wave_size) as usize;
            // A wave of all lanes zeroes only what its code may read before
            // writing (the analysis is for EXEC = all lanes at the entry).
            // (The id rows written whole below need no zeroing: x alone
            // for one row of work-items, whose y and z ids are the zeros.)
            let id_rows = if ly == 1 && lz == 1 {
                1
            } else {
                c.tidig_comp_cnt as u16 + 1
            }
            .min(c.vgprs);
            match &s.ops.first_reads {
                Some(reads) if active == WAVE_SIZE => {
                    w.reset_first_reads(c.vgprs, c.sgprs, reads, id_rows)
                }
                _ => w.reset(c.vgprs, c.sgprs),
            }
            w.id = wave_index;
            // STATUS.IN_TG: the work-group has more than one wave.
            if group_waves > 1 {
                w.status |= 1 << 11;
            }
            w.pc = s.kernel.offset;
            w.mode = c.mode;
            w.budget = s.max_steps.min(STEP_SLICE);
            let scratch_offset = s.scratch_offset(slot, wave_index);
            // User SGPRs.
            let user = c.user_sgprs as usize;
            if let Some(values) = &s.user_sgpr_values {
                w.sgpr[..values.len()].copy_from_slice(values);
            } else {
                if user >= 2 {
                    w.sgpr[0] = s.input_address as u32;
                    w.sgpr[1] = (s.input_address >> 32) as u32;
                }
                if user >= 4 && c.scratch_enabled {
                    let [d0, d1] = scratch_descriptor(s.scratch_base, c.scratch_per_wave);
                    w.sgpr[2] = d0;
                    w.sgpr[3] = d1;
                }
            }
            let mut next = user;
            for (&enabled, &group) in c.tgid_enabled.iter().zip(&id) {
                if enabled {
                    w.sgpr[next] = group;
                    next += 1;
                }
            }
            if c.tg_size_enabled {
                w.sgpr[next] = group_waves | (wave_index << 6);
                next += 1;
            }
            if c.scratch_enabled {
                w.sgpr[next] = scratch_offset as u32;
            }
            // Local ids and EXEC: the work-items of a wave are consecutive.
            w.set_wave32(c.wave32);
            let exec = if active == WAVE_SIZE {
                u64::MAX
            } else {
                (1u64 << active) - 1
            };
            let dims = (c.tidig_comp_cnt as usize + 1).min(w.vgpr.len());
            if ly == 1 && lz == 1 {
                // One row of work-items (the common case): y and z are 0,
                // as the reset left them, and x needs no division.
                if dims > 0 {
                    // The whole row (which vectorises), then the lanes
                    // past `active` back to zero, as the reset left them.
                    let row = &mut w.vgpr[0];
                    for (lane, x) in row.iter_mut().enumerate() {
                        *x = first.wrapping_add(lane as u32);
                    }
                    row[active..].fill(0);
                }
            } else {
                for lane in 0..active {
                    let i = first + lane as u32;
                    let ids = [i % lx, (i / lx) % ly, i / (lx * ly)];
                    for (row, &v) in w.vgpr[..dims].iter_mut().zip(&ids) {
                        row[lane] = v;
                    }
                }
            }
            w.set_exec(exec);
        }
    }
}

/// Words 0 and 1 of the scratch buffer descriptor: base, the stride
/// (scratch bytes per wave / 64, one lane's share) in bits 16–29 and
/// SWIZZLE_ENABLE (bit 31), as radeonsi writes them. With the words 2–3
/// LLVM supplies (ADD_TID_ENABLE, element size 4, index stride 64) the
/// lanes' private dwords interleave, which is what LLVM's stack pointers
/// (64 bytes per byte of a lane's frame) assume.
pub fn scratch_descriptor(base: u64, per_wave: u32) -> [u32; 2] {
    let stride = (per_wave / 64) & 0x3fff;
    [
        base as u32,
        ((base >> 32) as u32 & 0xffff) | (stride << 16) | (1 << 31),
    ]
}

/// The SGPRs `s0 ..sN` the ABI register setup writes ([`make_waves`]).
fn abi_sgprs(c: &KernelConfig) -> u16 {
    (c.user_sgprs
        + c.tgid_enabled.iter().filter(|&&e| e).count() as u32
        + u32::from(c.tg_size_enabled)
        + u32::from(c.scratch_enabled)) as u16
}

/// Runs work-group `index` to completion: its waves interleave, each until
/// it ends or reaches `s_barrier`; a barrier releases when every wave that
/// has not ended reached it. Returns instructions, lane operations and,
/// when checks run, their findings.
fn run_group<'s>(
    s: &'s Shared<'_>,
    index: u64,
    scratch: &mut GroupScratch<'s>,
    slot: u64,
) -> Result<(u64, u64, u64, Option<Reports>), Box<ExecError>> {
    let id = group_id(index, s.groups);
    let GroupScratch {
        lds,
        waves,
        state,
        log,
        checks,
    } = scratch;
    let shape = s.group_shape(id);
    make_waves(s, id, shape, slot, waves);
    state.clear();
    state.resize(waves.len(), Step::Next);
    // (A group that faulted may have left its last instruction's entries.)
    log.get_mut().clear();
    let log = &*log;
    let scratch_bytes = u64::from(s.waves_per_group) * u64::from(s.config.scratch_per_wave);
    if s.facts.is_some() && s.checks.uninit != Level::Off && scratch_bytes > 0 {
        // The slots' bytes from an earlier group are not this group's.
        if let Ok((a, offset)) = s
            .mem
            .find(s.scratch_base + s.scratch_offset(slot, 0), scratch_bytes)
        {
            a.mark_undefined(offset, scratch_bytes);
        }
    }
    if let (Some(facts), None) = (s.facts.as_deref(), &checks) {
        *checks = Some(GroupCheck::new(GroupSetup {
            options: s.checks,
            version: s.version,
            facts,
            ops: s.ops,
            kernel: &s.kernel.name,
            lines: s.lines,
            group: id,
            waves: shape.1,
            vgprs: s.config.vgprs,
            abi_sgprs: abi_sgprs(&s.config),
            abi_vgprs: s.config.tidig_comp_cnt as u16 + 1,
            lds_bytes: s.lds_bytes,
            lds_declared: s.lds_declared,
            mem: Some(&s.mem),
            scratch: (s.scratch_base, s.scratch_size),
            values: s.values,
            trace: s.trace,
        }));
    } else if let Some(c) = checks.as_mut() {
        c.restart(id, shape.1);
    }
    let mut checker = checks.as_mut();
    // Only these checks read the log of memory accesses: without them the
    // interpreter's LDS fast paths stay on.
    let logged = checker.is_some()
        && (s.checks.level(Check::LdsRace) != Level::Off
            || s.checks.level(Check::Uninit) != Level::Off
            || s.checks.level(Check::Waitcnt) != Level::Off
            || s.checks.level(Check::Oob) != Level::Off);
    // This thread's profile counters, held for the whole group.
    let mut table = s.profile.map(|t| {
        t[slot as usize % t.len()]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    });
    loop {
        for (w, st) in waves.iter_mut().zip(state.iter_mut()) {
            if *st != Step::Next {
                continue;
            }
            let scratch_offset = s.scratch_offset(slot, w.id);
            let mut env = Env {
                mem: &s.mem,
                lds,
                version: s.version,
                code_base: s.code_base,
                scratch: (
                    s.scratch_base + scratch_offset,
                    u64::from(s.config.scratch_per_wave),
                ),
                log: logged.then_some(log),
                hostcall: s.hostcall,
                tier: s.tier,
            };
            let past_deadline = s.deadline.is_some_and(|d| std::time::Instant::now() >= d);
            let result = loop {
                if past_deadline {
                    break Err(Fault::new(FaultKind::Timeout(
                        s.timeout.unwrap_or_default(),
                    )));
                }
                let result = match (checker.as_mut(), table.as_mut()) {
                    (None, None) => exec::run_wave(w, s.ops, &mut env),
                    (Some(c), None) => {
                        exec::run_wave_checked(w, s.ops, &mut env, &mut c.hook(w.id))
                    }
                    (None, Some(t)) => {
                        let mut hook = Counting {
                            cells: &mut t[..],
                            inner: NoHook,
                        };
                        exec::run_wave_checked(w, s.ops, &mut env, &mut hook)
                    }
                    (Some(c), Some(t)) => {
                        let mut hook = Counting {
                            cells: &mut t[..],
                            inner: c.hook(w.id),
                        };
                        exec::run_wave_checked(w, s.ops, &mut env, &mut hook)
                    }
                };
                // A slice of the budget spent: look at the clock, then go on
                // (the fault comes before the instruction runs).
                if let Err(Fault {
                    kind: FaultKind::StepBudget(_),
                    ..
                }) = result
                {
                    if let Some(deadline) = s.deadline {
                        if std::time::Instant::now() >= deadline {
                            break Err(Fault::new(FaultKind::Timeout(
                                s.timeout.unwrap_or_default(),
                            )));
                        }
                    }
                    if w.steps < s.max_steps {
                        w.budget = (s.max_steps - w.steps).min(STEP_SLICE);
                        continue;
                    }
                }
                break result;
            };
            match result {
                Ok(step) => *st = step,
                Err(fault) => {
                    return Err(Box::new(ExecError {
                        kernel: s.kernel.name.clone(),
                        group: id,
                        wave: w.id,
                        pc: w.pc,
                        instruction: exec::instruction_at(s.ops, w.pc)
                            .unwrap_or_else(|| "(no instruction)".to_string()),
                        location: s.lines.and_then(|l| l.at(w.pc)).map(|l| l.to_string()),
                        lane: fault.lane,
                        note: match &fault.kind {
                            // Below the first address anything is allocated
                            // at: a null pointer dereferenced, which for an
                            // HSA kernel is a hidden argument left null.
                            FaultKind::Memory(m)
                                if m.address < crate::memory::FIRST_ADDRESS
                                    && s.null_note.is_some() =>
                            {
                                s.null_note.map(str::to_string)
                            }
                            FaultKind::Memory(m) => {
                                nearest_note(&s.mem, m.address, s.values, s.input_address)
                            }
                            _ => None,
                        },
                        kind: fault.kind,
                        checks: checker
                            .take()
                            .map(|c| c.take_reports().into_vec())
                            .unwrap_or_default(),
                    }));
                }
            }
        }
        if state.iter().all(|&st| st == Step::End) {
            break;
        }
        // Everyone still running waits at the barrier: release it.
        if let Some(c) = checker.as_mut() {
            c.barrier();
        }
        for st in state.iter_mut() {
            if *st == Step::Barrier {
                *st = Step::Next;
            }
        }
    }
    let instructions = waves.iter().map(|w| w.steps).sum();
    let lane_ops = waves.iter().map(|w| w.lane_ops).sum();
    let compiled = waves.iter().map(|w| w.compiled_steps).sum();
    let reports = checker.map(|c| c.take_reports());
    Ok((instructions, lane_ops, compiled, reports))
}

/// The readable message (what [`fmt::Display`] writes), so that
/// `fn main() -> Result<(), Box<dyn Error>>` with `?` prints it rather
/// than a dump of the fields.
impl fmt::Debug for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The readable message (what [`fmt::Display`] writes), so that
/// `fn main() -> Result<(), Box<dyn Error>>` with `?` prints it rather
/// than a dump of the fields.
impl fmt::Debug for LaunchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
