//! Mutation study of the sanitizer checks on the compiled OpenCL fixtures
//! (`tests/opencl/`, issue 22).
//!
//! For every case of `tests/opencl/cases.json` and every GPU it lists, the
//! generated source (`gen/GPU/FILE.s`) is mutated by deleting, one at a
//! time, each `s_waitcnt` and each `s_nop` line LLVM emitted in that
//! kernel's own code (from its label to `.Lfunc_endN`, the next function or
//! the end of `.text`; `noinline` helpers of `calls.cl` are not mutated). Each
//! mutant is assembled and run in the emulator with every check at
//! [`Level::Warn`], and the study records which checks reported something
//! (waitcnt, wait-states, lds-race, uninit), whether the run faulted (a
//! step budget of a few times the unmutated run's instruction count stops a
//! runaway mutant) and whether the outputs still match pocl's within the
//! case's tolerance. Each unmutated case/GPU is run first: it must report
//! nothing and match pocl (otherwise its mutants are left out, and the
//! summary says so).
//!
//! The summary gives, for the `s_waitcnt` and the `s_nop` mutants
//! separately (and per GPU): mutants, how many each check reported, how
//! many any check reported, faults, wrong outputs, *silent wrong results*
//! (wrong outputs no check reported) and *unreported, correct* mutants
//! (no report and the outputs still match: the deletion was redundant on
//! the executed path, or a check missed it). The emulator is functional —
//! a load completes at once and `s_waitcnt`/`s_nop` do nothing — so the
//! outputs of a mutant can only change through a difference of the
//! emulator itself; on hardware every unreported deletion is a candidate
//! bug the checks should have caught unless the wait was redundant. The
//! unreported mutants are listed by the next instruction after the deleted
//! line to help tell the two apart.
//!
//! ```text
//! cargo run --release --example mutation_study
//! cargo run --release --example mutation_study -- --gpu tahiti --case reduce_sum
//! ```
//!
//! Options: `--gpu NAME` and `--case NAME` restrict the study (each may be
//! given several times); `--jobs N` sets the worker threads (default: one
//! per core; each launch runs on one host thread); `--list N` sets how many
//! unreported mutants are listed (default 20, `--list all`); `--max-steps N`
//! replaces the mutants' step budget (per wave; default four times the
//! instructions the unmutated run executed, at least 65536).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use gcn_asm::{assemble, AssembleOptions, Device};
use gcn_runtime::kernel::{ArgSemantic, Dispatch};
use gcn_runtime::{
    Buffer, Check, CheckOptions, CheckReport, LaunchArgs, LaunchError, LaunchOptions, Level,
    Memory, Program,
};
use serde_json::Value;

#[path = "../tests/opencl/case_values.rs"]
mod case_values;
use case_values::{arg_bytes, dims, launch_values, OutputRule};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/opencl")
}

/// A case's inputs and reference outputs, read once.
struct Case {
    name: String,
    kernel: String,
    stem: String,
    gpus: Vec<String>,
    json: Value,
    /// Initial bytes of each buffer argument (`None` for other kinds).
    inputs: Vec<Option<Vec<u8>>>,
    /// (argument, how it is compared, reference bytes).
    outputs: Vec<(usize, OutputRule, Vec<u8>)>,
}

impl Case {
    fn read(json: &Value) -> Result<Case, String> {
        let source = json["source"].as_str().ok_or("no source")?;
        let stem = Path::new(source)
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or("bad source")?
            .to_string();
        let read = |file: &Value| -> Result<Vec<u8>, String> {
            let path = root().join(file.as_str().ok_or("no file")?);
            std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))
        };
        let inputs = json["args"]
            .as_array()
            .ok_or("no args")?
            .iter()
            .map(|arg| arg_bytes(arg, &root()))
            .collect::<Result<Vec<_>, _>>()?;
        let mut outputs = Vec::new();
        for out in json["outputs"].as_array().ok_or("no outputs")? {
            outputs.push((
                out["arg"].as_u64().ok_or("no arg")? as usize,
                OutputRule::of(out)?,
                read(&out["file"])?,
            ));
        }
        Ok(Case {
            name: json["name"].as_str().ok_or("no name")?.to_string(),
            kernel: json["kernel"].as_str().ok_or("no kernel")?.to_string(),
            stem,
            gpus: json["gpus"]
                .as_array()
                .ok_or("no gpus")?
                .iter()
                .filter_map(|g| g.as_str().map(str::to_string))
                .collect(),
            json: json.clone(),
            inputs,
            outputs,
        })
    }

    /// Compares the buffers after a run with pocl's outputs.
    fn compare(&self, buffers: &[Option<Buffer<u8>>]) -> Result<(), String> {
        for (i, rule, want) in &self.outputs {
            let got = buffers[*i]
                .as_ref()
                .ok_or("output is not a buffer")?
                .to_bytes();
            rule.check(*i, &got, want)?;
        }
        Ok(())
    }
}

/// What one run (unmutated or mutant) did.
enum Outcome {
    /// The source did not assemble (or load).
    NoAssemble(String),
    /// The run ended: the check reports, the fault (if it faulted), the
    /// output comparison (when it did not fault), and the instructions run.
    Ran {
        reports: Vec<CheckReport>,
        fault: Option<String>,
        outputs: Result<(), String>,
        instructions: u64,
    },
}

/// Assembles `text` for `gpu` and runs `case` with every check at
/// [`Level::Warn`] on one host thread, at most `max_steps` per wave.
fn run(case: &Case, gpu: &str, text: &str, max_steps: u64) -> Outcome {
    let Some(device) = Device::from_name(gpu) else {
        return Outcome::NoAssemble(format!("unknown gpu {gpu}"));
    };
    let options = AssembleOptions {
        device: Some(device),
        ..AssembleOptions::default()
    };
    let binary = match assemble(text, &options) {
        Ok(o) => match o.gallium_bytes() {
            Ok(b) => b,
            Err(e) => return Outcome::NoAssemble(e.to_string()),
        },
        Err(d) => return Outcome::NoAssemble(format!("{d}")),
    };
    let memory = Memory::default();
    let program = match Program::load(&memory, &binary, device.version()) {
        Ok(p) => p,
        Err(e) => return Outcome::NoAssemble(format!("load: {e}")),
    };
    let fail = |m: String| Outcome::Ran {
        reports: Vec::new(),
        fault: Some(m),
        outputs: Err("not run".into()),
        instructions: 0,
    };
    // The argument table wants exactly `size` bytes per scalar: pad or cut
    // vectors written with fewer/more values than the size (float3).
    let kernel = match program.kernel(&case.kernel) {
        Ok(k) => k,
        Err(e) => return Outcome::NoAssemble(format!("kernel: {e}")),
    };
    let general: Vec<_> = kernel
        .args
        .iter()
        .filter(|a| a.record.semantic == ArgSemantic::General)
        .collect();
    let (values, buffers) = match launch_values(&memory, &case.json["args"], &case.inputs, |i| {
        general.get(i).map(|a| a.record.size as usize)
    }) {
        Ok(v) => v,
        Err(e) => return fail(e),
    };
    let dispatch = Dispatch::new(
        case.json["dims"].as_u64().unwrap_or(1) as u32,
        dims(&case.json["global"]),
        dims(&case.json["local"]),
    )
    .with_offset(dims(&case.json["offset"]));
    let launch = LaunchOptions {
        max_steps,
        threads: Some(1),
        checks: CheckOptions::all(Level::Warn),
        ..LaunchOptions::default()
    };
    let args = LaunchArgs::new(&case.kernel, &values);
    match program.launcher(args, &dispatch).options(&launch).reports() {
        Ok(outcome) => Outcome::Ran {
            reports: outcome.reports,
            fault: None,
            outputs: case.compare(&buffers),
            instructions: outcome.stats.instructions,
        },
        Err(LaunchError::Exec(e)) => Outcome::Ran {
            reports: e.checks.clone(),
            fault: Some(format!("{} at pc {:#x} `{}`", e.kind, e.pc, e.instruction)),
            outputs: Err("faulted".into()),
            instructions: 0,
        },
        Err(LaunchError::Check(reports)) => Outcome::Ran {
            reports,
            fault: Some("check error".into()),
            outputs: Err("check error".into()),
            instructions: 0,
        },
        Err(e) => fail(e.to_string()),
    }
}

/// What a mutant deletes.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Waitcnt,
    Nop,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Waitcnt => "s_waitcnt",
            Kind::Nop => "s_nop",
        }
    }
}

/// The first token of an instruction line, if the line is an instruction.
fn mnemonic(line: &str) -> Option<&str> {
    let t = line.trim();
    if !line.starts_with([' ', '\t']) || t.is_empty() || t.starts_with(['.', '#', ';']) {
        return None;
    }
    t.split_whitespace().next()
}

/// The lines (0-based) of `kernel`'s own code that hold an `s_waitcnt` or
/// an `s_nop`: from the line `kernel:` to `.Lfunc_end*`, the next global
/// label or the next section directive.
fn mutation_sites(text: &str, kernel: &str) -> Option<Vec<(usize, Kind)>> {
    let lines: Vec<&str> = text.lines().collect();
    let label = format!("{kernel}:");
    let start = lines.iter().position(|l| l.trim_end() == label)?;
    let mut sites = Vec::new();
    for (i, line) in lines.iter().enumerate().skip(start + 1) {
        let at_column_0 = !line.is_empty() && !line.starts_with([' ', '\t']);
        if at_column_0 {
            let t = line.trim_end();
            let local_label = t.starts_with(".L") && t.ends_with(':');
            if t.starts_with(".Lfunc_end") || (!local_label && !t.starts_with('#')) {
                break;
            }
            continue;
        }
        match mnemonic(line) {
            Some("s_waitcnt") => sites.push((i, Kind::Waitcnt)),
            Some("s_nop") => sites.push((i, Kind::Nop)),
            _ => {}
        }
    }
    Some(sites)
}

/// `text` without line `skip`.
fn without_line(text: &str, skip: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.lines().enumerate() {
        if i != skip {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The next instruction after line `i`, its mnemonic, and whether a label
/// (a branch target) comes first.
fn next_instruction(text: &str, i: usize) -> (String, String) {
    let mut label = String::new();
    for line in text.lines().skip(i + 1) {
        if let Some(m) = mnemonic(line) {
            return (format!("{label}{}", line.trim()), m.to_string());
        }
        let t = line.trim();
        if t.ends_with(':') && !line.starts_with([' ', '\t']) {
            label = format!("{t} ");
        }
    }
    ("(end)".into(), "(end)".into())
}

/// Kinds of the instruction after a deleted line, in listing order.
const CLASSES: [&str; 8] = [
    "ALU",
    "load",
    "store",
    "atomic",
    "s_barrier",
    "cache invalidation",
    "branch/end",
    "other",
];

/// The index in [`CLASSES`] of mnemonic `m`.
fn next_class(m: &str) -> usize {
    let memory = [
        "buffer_", "global_", "flat_", "scratch_", "ds_", "s_load", "s_buffer",
    ];
    let ds_atomic = [
        "ds_add",
        "ds_sub",
        "ds_and",
        "ds_or",
        "ds_xor",
        "ds_min",
        "ds_max",
        "ds_inc",
        "ds_dec",
        "ds_cmpst",
        "ds_wrxchg",
        "ds_rsub",
    ];
    if m.starts_with("buffer_wbinvl1") || m.starts_with("buffer_inv") {
        5
    } else if m == "s_barrier" {
        4
    } else if m.contains("atomic") || ds_atomic.iter().any(|p| m.starts_with(p)) {
        3
    } else if memory.iter().any(|p| m.starts_with(p)) {
        if m.contains("store") || m.starts_with("ds_write") {
            2
        } else {
            1
        }
    } else if m == "s_endpgm" || m.starts_with("s_branch") || m.starts_with("s_cbranch") {
        6
    } else if m.starts_with("v_") || m.starts_with("s_") {
        0
    } else {
        7
    }
}

/// One mutant's result, for the summary.
struct Record {
    case: usize,
    gpu: String,
    line: usize,
    kind: Kind,
    deleted: String,
    next: String,
    next_mnemonic: String,
    /// `None`: did not assemble.
    checks: Option<Vec<Check>>,
    /// Whether the deleted line ran (the mutant ran fewer instructions
    /// than the original: the emulator is functional, so deleting a wait
    /// changes no path); `None` when it faulted or did not assemble.
    executed: Option<bool>,
    fault: Option<String>,
    wrong: Option<String>,
}

#[derive(Default, Clone)]
struct Tally {
    mutants: u64,
    no_assemble: u64,
    per_check: [u64; 4],
    any: u64,
    faulted: u64,
    faulted_unreported: u64,
    wrong: u64,
    silent_wrong: u64,
    benign: u64,
    not_run: u64,
}

impl Tally {
    fn add(&mut self, r: &Record) {
        self.mutants += 1;
        let Some(checks) = &r.checks else {
            self.no_assemble += 1;
            return;
        };
        for (i, c) in Check::ALL.iter().enumerate() {
            if checks.contains(c) {
                self.per_check[i] += 1;
            }
        }
        let reported = !checks.is_empty();
        self.any += u64::from(reported);
        if r.fault.is_some() {
            self.faulted += 1;
            self.faulted_unreported += u64::from(!reported);
        } else if r.wrong.is_some() {
            self.wrong += 1;
            self.silent_wrong += u64::from(!reported);
        } else if !reported {
            self.benign += 1;
            self.not_run += u64::from(r.executed == Some(false));
        }
    }
}

fn print_table(title: &str, rows: &[(String, Tally)]) {
    println!("\n{title}");
    let header = [
        "mutants",
        "no-asm",
        "waitcnt",
        "wait-st",
        "lds-race",
        "uninit",
        "any",
        "fault",
        "flt-unrep",
        "wrong",
        "SILENT",
        "unrep-ok",
        "..not-run",
        "..ran",
    ];
    print!("{:<22}", "");
    for h in header {
        print!("{h:>10}");
    }
    println!();
    for (name, t) in rows {
        let cells = [
            t.mutants,
            t.no_assemble,
            t.per_check[0],
            t.per_check[1],
            t.per_check[2],
            t.per_check[3],
            t.any,
            t.faulted,
            t.faulted_unreported,
            t.wrong,
            t.silent_wrong,
            t.benign,
            t.not_run,
            t.benign - t.not_run,
        ];
        print!("{name:<22}");
        for c in cells {
            print!("{c:>10}");
        }
        println!();
    }
}

struct Args {
    gpus: Vec<String>,
    cases: Vec<String>,
    jobs: usize,
    list: usize,
    max_steps: Option<u64>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        gpus: Vec::new(),
        cases: Vec::new(),
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        list: 20,
        max_steps: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--gpu" => args.gpus.push(value()?),
            "--case" => args.cases.push(value()?),
            "--jobs" => args.jobs = value()?.parse().map_err(|e| format!("--jobs: {e}"))?,
            "--max-steps" => {
                args.max_steps = Some(value()?.parse().map_err(|e| format!("--max-steps: {e}"))?)
            }
            "--list" => {
                let v = value()?;
                args.list = if v == "all" {
                    usize::MAX
                } else {
                    v.parse().map_err(|e| format!("--list: {e}"))?
                };
            }
            "-h" | "--help" => {
                println!(
                    "usage: mutation_study [--gpu NAME]... [--case NAME]... [--jobs N] [--list N|all] [--max-steps N]"
                );
                std::process::exit(0);
            }
            _ => return Err(format!("unknown argument `{a}`")),
        }
    }
    Ok(args)
}

/// Runs `f` on every item of `items` on `jobs` threads; results in order.
fn parallel_map<T: Sync, R: Send>(items: &[T], jobs: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= items.len() {
                    break;
                }
                let r = f(&items[i]);
                results.lock().unwrap()[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(|r| r.expect("every item ran"))
        .collect()
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("mutation_study: {e}");
            std::process::exit(2);
        }
    };
    let started = Instant::now();
    let cases_json: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("cases.json")).expect("tests/opencl/cases.json"),
    )
    .expect("cases.json is JSON");
    let cases: Vec<Case> = cases_json
        .as_array()
        .expect("an array of cases")
        .iter()
        .filter(|c| {
            args.cases.is_empty() || args.cases.iter().any(|n| c["name"].as_str() == Some(n))
        })
        .map(|c| Case::read(c).expect("case files"))
        .collect();
    if cases.is_empty() {
        eprintln!("mutation_study: no case selected");
        std::process::exit(2);
    }

    // The unmutated runs (baseline), with the default step budget.
    let mut sources: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut pairs = Vec::new();
    for (ci, case) in cases.iter().enumerate() {
        for gpu in &case.gpus {
            if !args.gpus.is_empty() && !args.gpus.contains(gpu) {
                continue;
            }
            sources
                .entry((gpu.clone(), case.stem.clone()))
                .or_insert_with(|| {
                    let path = root()
                        .join("gen")
                        .join(gpu)
                        .join(format!("{}.s", case.stem));
                    std::fs::read_to_string(&path)
                        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
                });
            pairs.push((ci, gpu.clone()));
        }
    }
    if pairs.is_empty() {
        eprintln!("mutation_study: no case/GPU selected (GPUs: tahiti, bonaire, tonga, gfx900)");
        std::process::exit(2);
    }
    let source = |ci: usize, gpu: &str| &sources[&(gpu.to_string(), cases[ci].stem.clone())];
    let baselines = parallel_map(&pairs, args.jobs, |(ci, gpu)| {
        run(
            &cases[*ci],
            gpu,
            source(*ci, gpu),
            gcn_runtime::launch::DEFAULT_MAX_STEPS,
        )
    });
    let mut clean_pairs = Vec::new();
    let mut dirty = Vec::new();
    for ((ci, gpu), outcome) in pairs.iter().zip(&baselines) {
        let name = &cases[*ci].name;
        match outcome {
            Outcome::Ran {
                reports,
                fault: None,
                outputs: Ok(()),
                instructions,
            } if reports.is_empty() => clean_pairs.push((*ci, gpu.clone(), *instructions)),
            Outcome::Ran {
                reports,
                fault,
                outputs,
                ..
            } => dirty.push(format!(
                "{name} on {gpu}: {} report(s){}{}{}",
                reports.len(),
                reports
                    .first()
                    .map(|r| format!(" (first: {r})"))
                    .unwrap_or_default(),
                fault
                    .as_ref()
                    .map(|f| format!(", fault: {f}"))
                    .unwrap_or_default(),
                outputs
                    .as_ref()
                    .err()
                    .map(|e| format!(", outputs: {e}"))
                    .unwrap_or_default(),
            )),
            Outcome::NoAssemble(e) => {
                dirty.push(format!("{name} on {gpu}: does not assemble: {e}"))
            }
        }
    }
    println!(
        "baseline: {} case/GPU runs, {} clean (no report, outputs match pocl), {} not clean",
        pairs.len(),
        clean_pairs.len(),
        dirty.len()
    );
    for d in &dirty {
        println!("  not clean (its mutants are left out): {d}");
    }

    // The mutants.
    let mut jobs = Vec::new();
    let mut no_sites = Vec::new();
    for (ci, gpu, instructions) in &clean_pairs {
        let text = source(*ci, gpu);
        match mutation_sites(text, &cases[*ci].kernel) {
            Some(sites) => {
                // A wave runs at most every instruction of the dispatch;
                // a mutant runs what the original did, so four times that
                // stops a runaway loop early.
                let budget = args.max_steps.unwrap_or((instructions * 4).max(1 << 16));
                for (line, kind) in sites {
                    jobs.push((*ci, gpu.clone(), line, kind, *instructions, budget));
                }
            }
            None => no_sites.push(format!("{} on {gpu}", cases[*ci].name)),
        }
    }
    for n in &no_sites {
        println!("  no label for the kernel of {n}");
    }
    let total = jobs.len();
    let done = AtomicUsize::new(0);
    let records = parallel_map(
        &jobs,
        args.jobs,
        |(ci, gpu, line, kind, original, budget)| {
            let text = source(*ci, gpu);
            let mutant = without_line(text, *line);
            let outcome = run(&cases[*ci], gpu, &mutant, *budget);
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            // Progress at every tenth of the mutants.
            if total >= 500 && n * 10 / total != (n - 1) * 10 / total {
                eprintln!(
                    "  {n}/{total} mutants ({:.0} s)",
                    started.elapsed().as_secs_f64()
                );
            }
            let (next, next_mnemonic) = next_instruction(text, *line);
            let mut record = Record {
                case: *ci,
                gpu: gpu.clone(),
                line: *line,
                kind: *kind,
                deleted: text.lines().nth(*line).unwrap_or("").trim().to_string(),
                next,
                next_mnemonic,
                checks: None,
                executed: None,
                fault: None,
                wrong: None,
            };
            match outcome {
                Outcome::NoAssemble(e) => record.fault = Some(e),
                Outcome::Ran {
                    reports,
                    fault,
                    outputs,
                    instructions,
                } => {
                    if fault.is_none() {
                        record.executed = Some(instructions != *original);
                    }
                    let mut checks: Vec<Check> = reports.iter().map(|r| r.check).collect();
                    checks.sort();
                    checks.dedup();
                    record.checks = Some(checks);
                    record.wrong = if fault.is_none() { outputs.err() } else { None };
                    record.fault = fault;
                }
            }
            record
        },
    );

    // The summary.
    println!(
        "\n{} mutants of {} clean case/GPU runs (columns: mutants; did not assemble; reported by \
         waitcnt, wait-states, lds-race, uninit, any check; faulted; faulted with no report; \
         wrong outputs (no fault); SILENT = wrong outputs no check reported; unrep-ok = no \
         report and correct outputs, of which ..not-run: the deleted line never ran on these \
         inputs, ..ran: it ran)",
        records.len(),
        clean_pairs.len()
    );
    let gpus = ["tahiti", "bonaire", "tonga", "gfx900"];
    for kind in [Kind::Waitcnt, Kind::Nop] {
        let mut rows: Vec<(String, Tally)> = Vec::new();
        let mut all = Tally::default();
        for r in records.iter().filter(|r| r.kind == kind) {
            all.add(r);
        }
        rows.push(("all GPUs".into(), all));
        for gpu in gpus {
            let mut t = Tally::default();
            for r in records.iter().filter(|r| r.kind == kind && r.gpu == gpu) {
                t.add(r);
            }
            if t.mutants > 0 {
                rows.push((gpu.to_string(), t));
            }
        }
        print_table(&format!("deleting one `{}`:", kind.name()), &rows);
    }

    let describe = |r: &Record| {
        format!(
            "{} on {} line {}: `{}` (next: `{}`)",
            cases[r.case].name,
            r.gpu,
            r.line + 1,
            r.deleted,
            r.next
        )
    };
    let no_asm: Vec<&Record> = records.iter().filter(|r| r.checks.is_none()).collect();
    if !no_asm.is_empty() {
        println!("\nmutants that do not assemble:");
        for r in no_asm.iter().take(args.list) {
            println!("  {}: {}", describe(r), r.fault.as_deref().unwrap_or(""));
        }
    }
    let unreported = |r: &&Record| r.checks.as_ref().is_some_and(|c| c.is_empty());
    let silent: Vec<&Record> = records
        .iter()
        .filter(unreported)
        .filter(|r| r.fault.is_none() && r.wrong.is_some())
        .collect();
    println!("\nsilent wrong results ({}):", silent.len());
    for r in silent.iter().take(args.list) {
        println!(
            "  {}: {}",
            describe(r),
            r.wrong.as_deref().unwrap_or_default()
        );
    }
    let faulted: Vec<&Record> = records
        .iter()
        .filter(unreported)
        .filter(|r| r.fault.is_some())
        .collect();
    println!("\nfaults no check reported before ({}):", faulted.len());
    for r in faulted.iter().take(args.list) {
        println!(
            "  {}: {}",
            describe(r),
            r.fault.as_deref().unwrap_or_default()
        );
    }
    for kind in [Kind::Waitcnt, Kind::Nop] {
        let benign: Vec<&Record> = records
            .iter()
            .filter(unreported)
            .filter(|r| r.kind == kind && r.fault.is_none() && r.wrong.is_none())
            .collect();
        let not_run = benign.iter().filter(|r| r.executed == Some(false)).count();
        let mut ran: Vec<&Record> = benign
            .iter()
            .copied()
            .filter(|r| r.executed != Some(false))
            .collect();
        // What follows the deleted line (a barrier, a cache invalidation,
        // an atomic, a store, ALU code) tells waits for memory ordering,
        // which no register check sees, from waits for a result.
        ran.sort_by_key(|r| (next_class(&r.next_mnemonic), r.gpu.clone(), r.case, r.line));
        let mut by_class: BTreeMap<(usize, &str), usize> = BTreeMap::new();
        for r in &ran {
            let c = next_class(&r.next_mnemonic);
            *by_class.entry((c, CLASSES[c])).or_default() += 1;
        }
        println!(
            "\nunreported `{}` deletions with correct outputs: {} ({} on a path these inputs \
             never run); the {} that ran, by the next instruction: {}",
            kind.name(),
            benign.len(),
            not_run,
            ran.len(),
            by_class
                .iter()
                .map(|((_, name), n)| format!("{name} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        for r in ran.iter().take(args.list) {
            println!("  {}", describe(r));
        }
    }
    println!(
        "\nelapsed: {:.1} s ({} baseline runs, {} mutants, {} threads)",
        started.elapsed().as_secs_f64(),
        pairs.len(),
        records.len(),
        args.jobs
    );
}
