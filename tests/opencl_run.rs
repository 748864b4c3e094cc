//! Real kernels (test layer 4): every case of `tests/opencl/cases.json` —
//! OpenCL C compiled by clang-14 + libclc for `amdgcn--`, converted to CLRX
//! syntax — assembled, run in the emulator on each GPU it lists (GCN 1.0,
//! 1.1, 1.2, 1.4) and compared with the outputs pocl computed for the same
//! inputs: integers bit-exact, floats within the case's ULP tolerance.

use std::path::Path;

use gcn_asm::{assemble, AssembleOptions, Device};
use gcn_runtime::kernel::Dispatch;
use gcn_runtime::{LaunchOptions, Memory, Program};
use serde_json::Value;

#[path = "opencl/case_values.rs"]
mod case_values;
use case_values::{arg_bytes, dims, launch_values, OutputRule};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/opencl"))
}

/// Runs one case on one GPU with `options`; `Err` says what differs.
fn run_case(case: &Value, gpu: &str, launch_options: &LaunchOptions) -> Result<Ran, String> {
    let source = case["source"].as_str().unwrap();
    let stem = Path::new(source).file_stem().unwrap().to_str().unwrap();
    let path = root().join("gen").join(gpu).join(format!("{stem}.s"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let device = Device::from_name(gpu).ok_or("unknown gpu")?;
    let options = AssembleOptions {
        device: Some(device),
        ..AssembleOptions::default()
    };
    let binary = assemble(&text, &options)
        .map_err(|d| format!("does not assemble: {d}"))?
        .gallium_bytes()
        .map_err(|e| e.to_string())?;
    let memory = Memory::default();
    let program = Program::load(&memory, &binary, device.version()).map_err(|e| e.to_string())?;
    // The argument table wants exactly `size` bytes per scalar (float3).
    let kernel = program
        .kernel(case["kernel"].as_str().unwrap())
        .map_err(|e| e.to_string())?;
    let general: Vec<_> = kernel
        .args
        .iter()
        .filter(|a| a.record.semantic == gcn_runtime::kernel::ArgSemantic::General)
        .collect();
    let inputs = case["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|arg| arg_bytes(arg, root()))
        .collect::<Result<Vec<_>, _>>()?;
    let (values, buffers) = launch_values(&memory, &case["args"], &inputs, |i| {
        general.get(i).map(|a| a.record.size as usize)
    })?;
    let mut dispatch = Dispatch::new(
        case["dims"].as_u64().unwrap() as u32,
        dims(&case["global"]),
        dims(&case["local"]),
    );
    dispatch = dispatch.with_offset(dims(&case["offset"]));
    let stats = program
        .launch(
            case["kernel"].as_str().unwrap(),
            &values,
            &dispatch,
            launch_options,
        )
        .map_err(|e| e.to_string())?;
    let mut outputs = Vec::new();
    for out in case["outputs"].as_array().unwrap() {
        let i = out["arg"].as_u64().unwrap() as usize;
        let got = buffers[i]
            .as_ref()
            .ok_or("output is not a buffer")?
            .to_bytes();
        let want =
            std::fs::read(root().join(out["file"].as_str().unwrap())).map_err(|e| e.to_string())?;
        OutputRule::of(out)?.check(i, &got, &want)?;
        outputs.push(got);
    }
    Ok(Ran { stats, outputs })
}

/// What a run left: its statistics and its output buffers' bytes.
struct Ran {
    stats: gcn_runtime::LaunchStats,
    outputs: Vec<Vec<u8>>,
}

/// Every case on every GPU with the checks off, through the interpreter and
/// through the compiled tier with every block translated at its first run:
/// the same output bytes and the same instruction and lane counts.
#[test]
fn compiled_tier_runs_every_case_as_the_interpreter() {
    let cases: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("cases.json")).unwrap()).unwrap();
    // One host thread: work-groups that race (atomics) then run in one
    // order, so that the counts compare.
    let options = |tier| LaunchOptions {
        checks: gcn_runtime::CheckOptions::off(),
        threads: Some(1),
        tier,
        ..LaunchOptions::default()
    };
    let mut failures = Vec::new();
    let (mut runs, mut compiled, mut compiled_checked, mut steps) = (0, 0, 0, 0);
    // The dispatch times of the interpreter and of the tier as a launch
    // uses it by default (`Hot`): what a kernel run once pays for tiering.
    // The same with every check on (the default).
    let mut elapsed = [std::time::Duration::ZERO; 2];
    let mut elapsed_checked = [std::time::Duration::ZERO; 2];
    for case in cases.as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        for gpu in case["gpus"].as_array().unwrap() {
            let gpu = gpu.as_str().unwrap();
            let interpreted = run_case(case, gpu, &options(gcn_runtime::TierMode::Off));
            let tiered = run_case(case, gpu, &options(gcn_runtime::TierMode::Eager));
            // Every check on (at error: a report fails the run), every block
            // compiled in its checked variant.
            let checked = run_case(
                case,
                gpu,
                &LaunchOptions {
                    threads: Some(1),
                    tier: gcn_runtime::TierMode::Eager,
                    ..LaunchOptions::default()
                },
            );
            if let (Ok(a), Ok(b)) = (
                &interpreted,
                &run_case(case, gpu, &options(gcn_runtime::TierMode::Hot)),
            ) {
                elapsed[0] += a.stats.elapsed;
                elapsed[1] += b.stats.elapsed;
            }
            let checked_with = |tier| LaunchOptions {
                threads: Some(1),
                tier,
                ..LaunchOptions::default()
            };
            if let (Ok(a), Ok(b)) = (
                &run_case(case, gpu, &checked_with(gcn_runtime::TierMode::Off)),
                &run_case(case, gpu, &checked_with(gcn_runtime::TierMode::Hot)),
            ) {
                elapsed_checked[0] += a.stats.elapsed;
                elapsed_checked[1] += b.stats.elapsed;
            }
            match (interpreted, tiered, checked) {
                (Ok(a), Ok(b), Ok(c)) => {
                    runs += 1;
                    compiled += b.stats.tier.steps_compiled;
                    compiled_checked += c.stats.tier.steps_compiled;
                    steps += b.stats.instructions;
                    let counts = |r: &Ran| (r.stats.instructions, r.stats.lane_ops);
                    for (what, r) in [("", &b), (" with the checks on", &c)] {
                        if a.outputs != r.outputs || counts(&a) != counts(r) {
                            failures.push(format!(
                                "{name} on {gpu}: the compiled tier's outputs or counts{what} \
                                 {:?} differ from the interpreter's {:?}",
                                counts(r),
                                counts(&a)
                            ));
                        }
                    }
                }
                (a, b, c) => failures.push(format!(
                    "{name} on {gpu}: interpreter {:?}, compiled tier {:?}, checked {:?}",
                    a.err(),
                    b.err(),
                    c.err()
                )),
            }
        }
    }
    println!(
        "{runs} case/GPU runs identical through the compiled tier; {compiled} of {steps} \
         instructions ran compiled ({compiled_checked} with the checks on); dispatches run \
         once: interpreter {:?}, tier (hot) {:?}; checked: interpreter {:?}, tier (hot) {:?}",
        elapsed[0], elapsed[1], elapsed_checked[0], elapsed_checked[1]
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compiled > 0, "nothing ran compiled");
    assert!(
        compiled_checked > 0,
        "nothing ran compiled with the checks on"
    );
}

/// A case/GPU whose run with the checks on knowingly stops with a check
/// report (`tests/opencl/known_failures.json`): the report must be the
/// listed one, the outputs with the checks off must match pocl, and an
/// entry that starts passing fails the test until it is removed.
struct KnownFailure {
    case: String,
    gpus: Vec<String>,
    contains: String,
}

fn known_failures() -> Vec<KnownFailure> {
    let text = std::fs::read_to_string(root().join("known_failures.json")).unwrap();
    let list: Value = serde_json::from_str(&text).unwrap();
    list.as_array()
        .unwrap()
        .iter()
        .map(|k| KnownFailure {
            case: k["case"].as_str().unwrap().to_string(),
            gpus: k["gpus"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g.as_str().unwrap().to_string())
                .collect(),
            contains: k["contains"].as_str().unwrap().to_string(),
        })
        .collect()
}

#[test]
fn opencl_kernels_match_pocl() {
    let cases: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("cases.json")).unwrap()).unwrap();
    let known = known_failures();
    let mut failures = Vec::new();
    let mut passed = 0;
    let mut expected = 0;
    for case in cases.as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        for gpu in case["gpus"].as_array().unwrap() {
            let gpu = gpu.as_str().unwrap();
            let known = known
                .iter()
                .find(|k| k.case == name && k.gpus.iter().any(|g| g == gpu));
            match (run_case(case, gpu, &LaunchOptions::default()), known) {
                (Ok(_), None) => passed += 1,
                (Err(e), None) => failures.push(format!("{name} on {gpu}: {e}")),
                (Ok(_), Some(_)) => failures.push(format!(
                    "{name} on {gpu} now passes: remove it from tests/opencl/known_failures.json"
                )),
                (Err(e), Some(k)) if !e.contains(&k.contains) => failures.push(format!(
                    "{name} on {gpu}: expected a report containing `{}`, got: {e}",
                    k.contains
                )),
                (Err(_), Some(_)) => {
                    let unchecked = LaunchOptions {
                        checks: gcn_runtime::CheckOptions::off(),
                        ..LaunchOptions::default()
                    };
                    match run_case(case, gpu, &unchecked) {
                        Ok(_) => expected += 1,
                        Err(e) => failures.push(format!("{name} on {gpu} (checks off): {e}")),
                    }
                }
            }
        }
    }
    println!(
        "{passed} case/GPU runs match pocl with every check on; {expected} known check \
         reports (tests/opencl/known_failures.json) whose runs match pocl with the checks off"
    );
    assert!(
        failures.is_empty(),
        "{} runs differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
