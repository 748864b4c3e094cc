//! The launch builder ([`Launcher`]).

use std::borrow::Cow;

use crate::check::{CheckReport, Level, TraceFilter, TraceSink};
use crate::kernel::{ArgValue, Dispatch, KernelArgs};
use crate::launch::{LaunchError, LaunchOptions, LaunchStats};
use crate::profile::Profile;
use crate::program::Program;

/// The kernel and its argument values, for [`Program::launcher`]: made from
/// a `gcn_kernel!` argument struct (`&args`, which names its kernel) or
/// with [`LaunchArgs::new`] from a kernel name and one [`ArgValue`] per
/// user argument, in `.arg` order.
#[derive(Debug, Clone)]
pub struct LaunchArgs<'a> {
    kernel: &'a str,
    values: Cow<'a, [ArgValue]>,
}

impl<'a> LaunchArgs<'a> {
    /// The arguments of kernel `kernel`, one value per user argument.
    pub fn new(kernel: &'a str, values: &'a [ArgValue]) -> Self {
        LaunchArgs {
            kernel,
            values: Cow::Borrowed(values),
        }
    }

    /// The kernel's name.
    pub fn kernel(&self) -> &str {
        self.kernel
    }

    /// The values, in `.arg` order.
    pub fn values(&self) -> &[ArgValue] {
        &self.values
    }
}

impl<'a, A: KernelArgs> From<&'a A> for LaunchArgs<'a> {
    fn from(args: &'a A) -> Self {
        LaunchArgs {
            kernel: A::KERNEL.name,
            values: Cow::Owned(args.values()),
        }
    }
}

/// What a launch returns.
#[derive(Debug, Clone)]
pub struct LaunchOutcome {
    /// What the dispatch did.
    pub stats: LaunchStats,
    /// The check reports, deduplicated per (check, PC) and ordered by PC:
    /// the warnings after [`Launcher::run`], errors and warnings after
    /// [`Launcher::reports`].
    pub reports: Vec<CheckReport>,
    /// The instruction profile, when [`Launcher::profile`] asked for one.
    pub profile: Option<Profile>,
}

/// A launch being set up ([`Program::launcher`]): one way to run a
/// dispatch with any of its options — the [`LaunchOptions`], the
/// instruction trace, the profile — and to get the check reports back
/// rather than failing on them.
///
/// ```text
/// program.launcher(&args, &dispatch)      // a gcn_kernel! argument struct, or
///                                         // LaunchArgs::new("name", &values)
///     .options(&options)                  // LaunchOptions (default: all checks errors)
///     .trace(filter, &sink)               // a TraceRecord per instruction of the selected waves
///     .profile(true)                      // counts per instruction and family
///     .run()?                             // check errors fail the launch; or
///     .reports()?                         // every report returned, only faults fail
/// ```
///
/// Both ends return a [`LaunchOutcome`]: the [`LaunchStats`], the check
/// reports and the [`Profile`] when asked for. [`Program::launch`] and
/// [`Program::launch_args`] are the short forms for the statistics alone.
#[must_use = "a launcher does nothing until `run` or `reports`"]
pub struct Launcher<'a> {
    program: &'a Program,
    args: LaunchArgs<'a>,
    dispatch: &'a Dispatch,
    options: LaunchOptions,
    trace: Option<(TraceFilter, TraceSink<'a>)>,
    profile: bool,
}

impl Program {
    /// A launch of the kernel `args` names over `dispatch`, with the
    /// default [`LaunchOptions`], no trace and no profile until the
    /// builder's methods say otherwise.
    ///
    /// ```
    /// use gcn_runtime::{ArgValue, Dispatch, LaunchArgs, LaunchOptions, Level, Memory, Program};
    /// use gcn_runtime::gcn_asm::{assemble, AssembleOptions, GcnVersion};
    ///
    /// // out[i] = i, with an s_waitcnt missing (the `waitcnt` check finds it).
    /// let source = "
    /// .gallium
    /// .gpu tonga
    /// .kernel ids
    ///     .args
    ///         .arg out, global, 8
    ///     .config
    ///         .dims x
    /// .text
    /// ids:
    ///     s_load_dwordx2   s[6:7], s[0:1], 0x24
    ///     v_lshlrev_b32    v1, 2, v0
    ///     v_mov_b32        v3, s7
    ///     v_add_u32        v2, vcc, s6, v1
    ///     v_addc_u32       v3, vcc, v3, 0, vcc
    ///     flat_store_dword v[2:3], v0
    ///     s_endpgm
    /// ";
    /// let binary = assemble(source, &AssembleOptions::default())?.gallium_bytes()?;
    /// let memory = Memory::default();
    /// let program = Program::load(&memory, &binary, GcnVersion::Gcn1_2)?;
    /// let out = memory.buffer_zeroed::<u32>(64)?;
    /// let values = [ArgValue::Pointer(out.ptr())];
    /// let dispatch = Dispatch::new_1d(64, 64);
    ///
    /// // `run` fails on a check error …
    /// let err = program.launcher(LaunchArgs::new("ids", &values), &dispatch).run();
    /// assert!(err.is_err());
    /// // … `reports` returns it (and still runs the kernel).
    /// let outcome = program
    ///     .launcher(LaunchArgs::new("ids", &values), &dispatch)
    ///     .options(&LaunchOptions { threads: Some(1), ..LaunchOptions::default() })
    ///     .reports()?;
    /// assert_eq!(outcome.reports[0].level, Level::Error);
    /// assert_eq!(outcome.stats.waves, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn launcher<'a>(
        &'a self,
        args: impl Into<LaunchArgs<'a>>,
        dispatch: &'a Dispatch,
    ) -> Launcher<'a> {
        Launcher {
            program: self,
            args: args.into(),
            dispatch,
            options: LaunchOptions::default(),
            trace: None,
            profile: false,
        }
    }
}

impl<'a> Launcher<'a> {
    /// Runs with `options` (step budget, host threads, check levels,
    /// timeout).
    pub fn options(mut self, options: &LaunchOptions) -> Self {
        self.options = *options;
        self
    }

    /// Calls `sink` with a [`TraceRecord`](crate::TraceRecord) for every
    /// instruction executed by the waves `filter` selects (PC,
    /// disassembly, source line, the registers changed as typed
    /// [`TraceChange`](crate::TraceChange)s). Work-groups run on several
    /// host threads unless [`LaunchOptions::threads`] is `Some(1)`, so
    /// records of different groups can interleave; each record names its
    /// group, wave and step.
    ///
    /// ```
    /// use std::sync::Mutex;
    /// use gcn_runtime::{gcn_kernel, Dispatch, Memory, Program, TraceChange, TraceFilter};
    ///
    /// gcn_kernel! {
    ///     mod two;
    ///     .gallium
    ///     .gpu tonga
    ///     .kernel two
    ///         .args
    ///             .arg out, global, 8
    ///         .config
    ///             .dims x
    ///     .text
    ///     two:
    ///         s_mov_b32        s10, 7
    ///         v_mov_b32        v1, s10
    ///         s_endpgm
    /// }
    ///
    /// let memory = Memory::default();
    /// let program = Program::from_kernel(&memory, &two::TWO)?;
    /// let out = memory.buffer_zeroed::<u32>(1)?;
    /// let records = Mutex::new(Vec::new());
    /// let sink = |r: &gcn_runtime::TraceRecord| records.lock().unwrap().push(r.clone());
    /// program
    ///     .launcher(&two::TwoArgs { out: out.ptr() }, &Dispatch::new_1d(4, 4))
    ///     .trace(TraceFilter::default(), &sink)
    ///     .run()?;
    /// let records = records.into_inner().unwrap();
    /// assert_eq!(records.len(), 3);
    /// assert!(matches!(records[0].changes[..], [TraceChange::Sgpr { reg: 10, new: 7, .. }]));
    /// // v1 of the 4 active lanes became 7: printed as today's trace text.
    /// assert_eq!(records[1].changes[0].lane_mask(), 0xf);
    /// assert!(records[1].to_string().ends_with("; v1[0–3]=0x7"), "{}", records[1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn trace(mut self, filter: TraceFilter, sink: TraceSink<'a>) -> Self {
        self.trace = Some((filter, sink));
        self
    }

    /// With `true`, counts how often each instruction ran and with how
    /// many active lanes ([`crate::profile`]): the outcome's
    /// [`LaunchOutcome::profile`]. It costs two additions per instruction
    /// and runs without the interpreter's fused superinstructions; without
    /// it the interpreter loop is the unprofiled one.
    pub fn profile(mut self, on: bool) -> Self {
        self.profile = on;
        self
    }

    /// Runs the dispatch; fails with [`LaunchError::Check`] when a check at
    /// [`Level::Error`] reports something (the outcome's `reports` are
    /// then the warnings). A fault fails the launch.
    pub fn run(self) -> Result<LaunchOutcome, LaunchError> {
        let outcome = self.reports()?;
        if outcome.reports.iter().any(|r| r.level == Level::Error) {
            return Err(LaunchError::Check(outcome.reports));
        }
        Ok(outcome)
    }

    /// Runs the dispatch and returns every check report, errors and
    /// warnings, instead of failing on them. A fault still fails the
    /// launch (its work-group's reports are in
    /// [`ExecError::checks`](crate::ExecError::checks)).
    pub fn reports(self) -> Result<LaunchOutcome, LaunchError> {
        self.program.run_dispatch(
            self.args.kernel,
            &self.args.values,
            self.dispatch,
            &self.options,
            self.trace,
            self.profile,
        )
    }
}
