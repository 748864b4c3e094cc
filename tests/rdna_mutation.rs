//! Planted-bug study of the sanitizer checks on the compiled AMDHSA
//! fixtures (`tests/rocm/gen/`, `tests/rocm/gen-rdna/`): for a few cases
//! with global and LDS memory, barriers and atomics, the code object is
//! turned into its listing ([`gcn_asm::decode::rocm::listing`]) and each
//! wait or hazard fix LLVM put in the case's kernel is deleted, one at a
//! time: every `s_waitcnt`, the GCN 1.5 `s_waitcnt_vscnt`/`_vmcnt`/
//! `_expcnt`/`_lgkmcnt`, `s_waitcnt_depctr`, `s_nop` and `v_nop` (found by
//! their rows' data: the `waitcnt` operand, the `wait_*`, `depctr` and
//! `nop` flags, a VALU row without operands — never by the mnemonic).
//! Each mutant is reassembled and run with every check at `warn`: it must
//! be reported by some check, or compute the reference outputs (the
//! deletion was redundant on the executed path, or it needs hardware
//! timing the functional emulator has not) — never a silent wrong result.
//! The unmutated kernel must run clean first (every case does).
//!
//! Four sets run: gfx900 (GCN 1.4), gfx1010, gfx1030 (wave32) and
//! gfx1030 in wave64. `MUTATION_CASES=a,b` picks other cases.

use std::path::{Path, PathBuf};

use gcn_asm::isa::{flags, lookup, Field, InstrRow, Unit};
use gcn_asm::GcnVersion;
use gcn_runtime::kernel::Dispatch;
use gcn_runtime::{CheckOptions, CheckReport, LaunchArgs, LaunchOptions, Level, Memory, Program};
use serde_json::Value;

#[path = "opencl/case_values.rs"]
mod case_values;
use case_values::{arg_bytes, dims, launch_values, OutputRule};

/// The cases studied: LDS, barriers, global loads and stores, atomics.
const CASES: &[&str] = &[
    "reduce_sum",
    "prefix_scan",
    "transpose",
    "local_hist",
    "atomic_hist",
    "blur5",
];

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// True for the rows of the waits and hazard fixes LLVM inserts.
fn is_wait_or_fix(row: &InstrRow) -> bool {
    row.operands.iter().any(|o| o.field == Field::Waitcnt)
        || row.waits_for().is_some()
        || row.has(flags::DEPCTR)
        || row.has(flags::NOP)
        || (row.unit() == Unit::Valu && row.has(flags::NO_OPERANDS))
}

/// What a run did.
enum Outcome {
    /// It ran: its reports and whether the outputs match the reference.
    Ran {
        reports: Vec<CheckReport>,
        correct: Result<(), String>,
    },
    /// It did not assemble, load or finish.
    Failed(String),
}

/// Assembles `text` (a listing) and runs case `c` from it.
fn run(c: &Value, dir: &Path, text: &str) -> Outcome {
    let options = gcn_asm::AssembleOptions {
        format: gcn_asm::syntax::assembler::BinaryFormat::Rocm,
        ..Default::default()
    };
    let bytes = match gcn_asm::assemble(text, &options).map(|a| a.rocm_bytes()) {
        Ok(Ok(b)) => b,
        Ok(Err(e)) => return Outcome::Failed(format!("{e}")),
        Err(d) => return Outcome::Failed(format!("{d}")),
    };
    let memory = Memory::default();
    let program = match Program::load_code_object(&memory, &bytes) {
        Ok(p) => p,
        Err(e) => return Outcome::Failed(e.to_string()),
    };
    let name = c["kernel"].as_str().unwrap();
    let kernel = match program.kernel(name) {
        Ok(k) => k,
        Err(e) => return Outcome::Failed(e.to_string()),
    };
    let inputs: Vec<_> = c["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| arg_bytes(a, dir).unwrap())
        .collect();
    let (values, buffers) = launch_values(&memory, &c["args"], &inputs, |i| {
        kernel.args.get(i).map(|a| a.record.size as usize)
    })
    .unwrap();
    let dispatch = Dispatch::new(
        c["dims"].as_u64().unwrap() as u32,
        dims(&c["global"]),
        dims(&c["local"]),
    )
    .with_offset(dims(&c["offset"]))
    .with_dynamic_lds(c["dynamic_lds"].as_u64().unwrap_or(0) as u32);
    let options = LaunchOptions {
        checks: CheckOptions::all(Level::Warn),
        ..LaunchOptions::default()
    };
    let outcome = match program
        .launcher(LaunchArgs::new(name, &values), &dispatch)
        .options(&options)
        .reports()
    {
        Ok(o) => o,
        Err(e) => return Outcome::Failed(e.to_string()),
    };
    let mut correct = Ok(());
    for out in c["outputs"].as_array().unwrap() {
        let i = out["arg"].as_u64().unwrap() as usize;
        let got = buffers[i].as_ref().unwrap().to_bytes();
        let want = std::fs::read(dir.join(out["file"].as_str().unwrap())).unwrap();
        if let Err(e) = OutputRule::of(out).and_then(|r| r.check(i, &got, &want)) {
            correct = Err(e);
        }
    }
    Outcome::Ran {
        reports: outcome.reports,
        correct,
    }
}

/// The mnemonic of an instruction line of a listing (labels, directives
/// and comments have none).
fn mnemonic(line: &str) -> Option<&str> {
    let mut t = line.trim();
    // The listing starts an instruction's line with its offset, `/*…*/`.
    if let Some(rest) = t.strip_prefix("/*") {
        t = rest.split_once("*/").map_or("", |(_, r)| r).trim();
    }
    let word = t.split_whitespace().next()?;
    (!word.starts_with('.')
        && !word.ends_with(':')
        && !word.starts_with('/')
        && !word.starts_with('#'))
    .then_some(word)
}

/// The lines of kernel `name`'s code in `lines`: from its label to the
/// next label of another kernel (or the end).
fn kernel_lines(lines: &[&str], name: &str, kernels: &[String]) -> std::ops::Range<usize> {
    let label = |l: &str, k: &str| l.trim() == format!("{k}:");
    let start = lines.iter().position(|l| label(l, name)).unwrap_or(0);
    let end = lines[start + 1..]
        .iter()
        .position(|l| kernels.iter().any(|k| k != name && label(l, k)))
        .map_or(lines.len(), |i| start + 1 + i);
    start..end
}

/// The study's totals for one set.
#[derive(Default, Debug)]
struct Summary {
    cases: usize,
    /// Cases whose unmutated run is not clean yet (a missing handler).
    skipped: Vec<String>,
    mutants: usize,
    reported: usize,
    /// Not reported, outputs still right.
    unreported_correct: Vec<String>,
    /// Not reported, outputs wrong or the run failed.
    silent: Vec<String>,
}

fn study(set: &str) -> Summary {
    let dir = match set.strip_prefix("rdna/") {
        Some(rdna) => tests_dir().join("rocm/gen-rdna").join(rdna),
        None => tests_dir().join("rocm/gen").join(set),
    };
    let names: Vec<String> = match std::env::var("MUTATION_CASES") {
        Ok(v) => v.split(',').map(str::to_string).collect(),
        Err(_) => CASES.iter().map(|s| s.to_string()).collect(),
    };
    let list: Value = serde_json::from_str(
        &std::fs::read_to_string(tests_dir().join("opencl/cases.json")).unwrap(),
    )
    .unwrap();
    let case_dir = tests_dir().join("opencl");
    let mut s = Summary::default();
    for c in list.as_array().unwrap() {
        let name = c["name"].as_str().unwrap();
        if !names.iter().any(|n| n == name) {
            continue;
        }
        let stem = Path::new(c["source"].as_str().unwrap())
            .file_stem()
            .unwrap()
            .to_str()
            .unwrap();
        let path = dir.join(format!("{stem}.co"));
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let co = gcn_asm::rocm::read(&bytes).unwrap();
        let version: GcnVersion = co.processor.version;
        let kernels: Vec<String> = co.kernels.iter().map(|k| k.name.clone()).collect();
        let text = gcn_asm::decode::rocm::listing(&co).unwrap();
        match run(c, &case_dir, &text) {
            Outcome::Ran {
                reports,
                correct: Ok(()),
            } if reports.is_empty() => {}
            // (`rocm_run` judges the unmutated runs; a case that does not
            // run clean yet has no mutants here.)
            Outcome::Ran { reports, correct } => {
                s.skipped.push(format!(
                    "{name}: {correct:?} {}",
                    reports
                        .iter()
                        .map(|r| r.to_string())
                        .collect::<Vec<_>>()
                        .join("\n")
                ));
                continue;
            }
            Outcome::Failed(e) => {
                s.skipped.push(format!("{name}: {e}"));
                continue;
            }
        }
        s.cases += 1;
        let lines: Vec<&str> = text.lines().collect();
        let kernel = c["kernel"].as_str().unwrap();
        let range = kernel_lines(&lines, kernel, &kernels);
        // The code ends at its last `s_endpgm` (the padding after it is
        // never run).
        let row_at = |i: usize| mnemonic(lines[i]).and_then(|m| lookup(m, version));
        let end = range
            .clone()
            .rev()
            .find(|&i| {
                row_at(i).is_some_and(|r| r.has(flags::ENDS) && r.operand(Field::RelAddr).is_none())
            })
            .map_or(range.end, |i| i + 1);
        for i in range.start..end {
            let Some(row) = row_at(i) else {
                continue;
            };
            if !is_wait_or_fix(row) {
                continue;
            }
            let mutant: String = lines
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, l)| format!("{l}\n"))
                .collect();
            s.mutants += 1;
            let what = format!("{name} line {}: `{}`", i + 1, lines[i].trim());
            match run(c, &case_dir, &mutant) {
                Outcome::Ran { reports, .. } if !reports.is_empty() => s.reported += 1,
                Outcome::Ran {
                    correct: Ok(()), ..
                } => s.unreported_correct.push(what),
                Outcome::Ran {
                    correct: Err(e), ..
                } => s.silent.push(format!("{what}: {e}")),
                Outcome::Failed(e) => s.silent.push(format!("{what}: {e}")),
            }
        }
    }
    println!(
        "{set}: {} cases, {} mutants: {} reported, {} unreported with the right outputs, {} silent wrong; {} cases do not run yet",
        s.cases,
        s.mutants,
        s.reported,
        s.unreported_correct.len(),
        s.silent.len(),
        s.skipped.len()
    );
    for u in &s.unreported_correct {
        println!("  unreported: {u}");
    }
    for k in &s.skipped {
        println!("  not run: {k}");
    }
    s
}

/// The study's assertions: no silent wrong result, and the checks find
/// planted bugs.
fn check(set: &str, s: &Summary) {
    assert!(
        s.silent.is_empty(),
        "{set}: silent wrong results:\n{}",
        s.silent.join("\n")
    );
    assert!(s.cases > 0, "{set}: no case ran: {:#?}", s.skipped);
    assert!(s.reported > 0, "{set}: no deletion was reported: {s:#?}");
}

#[test]
fn gcn14_gfx900() {
    let s = study("v4/gfx900");
    check("v4/gfx900", &s);
    assert!(s.skipped.is_empty(), "{:#?}", s.skipped);
}

#[test]
fn rdna_gfx1030() {
    let s = study("rdna/gfx1030");
    check("rdna/gfx1030", &s);
    assert!(s.skipped.is_empty(), "{:#?}", s.skipped);
}

#[test]
fn rdna_gfx1030_w64() {
    let s = study("rdna/gfx1030-w64");
    check("rdna/gfx1030-w64", &s);
    assert!(s.skipped.is_empty(), "{:#?}", s.skipped);
}

#[test]
fn rdna_gfx1010() {
    let s = study("rdna/gfx1010");
    check("rdna/gfx1010", &s);
    assert!(s.skipped.is_empty(), "{:#?}", s.skipped);
}
