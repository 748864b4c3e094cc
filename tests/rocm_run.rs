//! AMDHSA code objects (test layer 4): every case of
//! `tests/opencl/cases.json` and `tests/rocm/cases.json`, compiled by
//! clang-15 with the ROCm device libraries (and hipcc for the HIP cases)
//! into the code objects of `tests/rocm/gen/` (see `tests/rocm/README.md`),
//! run in the emulator under the HSA ABI with every check on as an error,
//! on every processor and code object version there, and compared with
//! the reference outputs (pocl's, or the host's): integers bit-exact,
//! floats within the case's ULP tolerance, printf text line for line.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use gcn_runtime::kernel::{ArgValue, Dispatch};
use gcn_runtime::program::LoadError;
use gcn_runtime::{LaunchOptions, Memory, Program};
use serde_json::Value;

#[path = "opencl/case_values.rs"]
mod case_values;
use case_values::{arg_bytes, dims, launch_values, OutputRule};

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// A case and the directory its data paths are relative to.
struct Case {
    value: Value,
    dir: PathBuf,
}

fn cases() -> Vec<Case> {
    let mut all = Vec::new();
    for dir in ["opencl", "rocm"] {
        let dir = tests_dir().join(dir);
        let text = std::fs::read_to_string(dir.join("cases.json")).unwrap();
        let list: Value = serde_json::from_str(&text).unwrap();
        for value in list.as_array().unwrap() {
            all.push(Case {
                value: value.clone(),
                dir: dir.clone(),
            });
        }
    }
    all
}

/// Runs `case` from the code object `path` with `options`; `Err` says
/// what differs.
fn run_case(case: &Case, path: &Path, options: &LaunchOptions) -> Result<Ran, String> {
    run_case_loaded(case, path, options, &|memory, bytes| {
        Program::load_code_object(memory, bytes)
    })
}

/// Loads a program from a file's bytes.
type Loader = dyn Fn(&Memory, &[u8]) -> Result<Program, LoadError>;

/// [`run_case`] with the program loaded from `path`'s bytes by `load`.
fn run_case_loaded(
    case: &Case,
    path: &Path,
    options: &LaunchOptions,
    load: &Loader,
) -> Result<Ran, String> {
    let c = &case.value;
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let memory = Memory::default();
    let mut program = load(&memory, &bytes).map_err(|e| e.to_string())?;
    let printed = Arc::new(Mutex::new(String::new()));
    let sink = printed.clone();
    program.set_printf_handler(Arc::new(move |text: &str| {
        sink.lock().unwrap().push_str(text);
    }));
    let kernel_name = c["kernel"].as_str().unwrap();
    let kernel = program.kernel(kernel_name).map_err(|e| e.to_string())?;
    let inputs = c["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|arg| arg_bytes(arg, &case.dir))
        .collect::<Result<Vec<_>, _>>()?;
    // A scalar takes the size the metadata gives it (float3: 16 bytes).
    let (values, buffers) = launch_values(&memory, &c["args"], &inputs, |i| {
        kernel.args.get(i).map(|a| a.record.size as usize)
    })?;
    let dispatch = Dispatch::new(
        c["dims"].as_u64().unwrap() as u32,
        dims(&c["global"]),
        dims(&c["local"]),
    )
    .with_offset(dims(&c["offset"]))
    .with_dynamic_lds(c["dynamic_lds"].as_u64().unwrap_or(0) as u32);
    let stats = program
        .launch(kernel_name, &values, &dispatch, options)
        .map_err(|e| e.to_string())?;
    let mut outputs = Vec::new();
    for out in c["outputs"].as_array().unwrap() {
        let i = out["arg"].as_u64().unwrap() as usize;
        let got = buffers[i]
            .as_ref()
            .ok_or("output is not a buffer")?
            .to_bytes();
        let want = std::fs::read(case.dir.join(out["file"].as_str().unwrap()))
            .map_err(|e| e.to_string())?;
        OutputRule::of(out)?.check(i, &got, &want)?;
        outputs.push(got);
    }
    if let Some(file) = c["printf"].as_str() {
        let want = std::fs::read_to_string(case.dir.join(file)).map_err(|e| e.to_string())?;
        let got = printed.lock().unwrap().clone();
        // Work-items print in no fixed order: compare the lines as sets.
        let sorted = |t: &str| {
            let mut l: Vec<String> = t.lines().map(str::to_string).collect();
            l.sort();
            l
        };
        if sorted(&got) != sorted(&want) {
            return Err(format!(
                "printf printed:\n{got}\nexpected (in any order):\n{want}"
            ));
        }
    }
    Ok(Ran { stats, outputs })
}

/// What a run left: its statistics and its output buffers' bytes.
struct Ran {
    stats: gcn_runtime::LaunchStats,
    outputs: Vec<Vec<u8>>,
}

/// A run that knowingly fails (`tests/rocm/known_failures.json`): the error
/// must contain `contains`; an entry that starts passing fails the test.
struct KnownFailure {
    case: String,
    set: String,
    contains: String,
}

fn known_failures() -> Vec<KnownFailure> {
    let text = std::fs::read_to_string(tests_dir().join("rocm/known_failures.json")).unwrap();
    let list: Value = serde_json::from_str(&text).unwrap();
    let mut out = Vec::new();
    for k in list.as_array().unwrap() {
        for set in k["sets"].as_array().unwrap() {
            out.push(KnownFailure {
                case: k["case"].as_str().unwrap().to_string(),
                set: set.as_str().unwrap().to_string(),
                contains: k["contains"].as_str().unwrap().to_string(),
            });
        }
    }
    out
}

/// `gcndisasm` then `gcnasm -b rocm` on the code object `path`
/// ([`gcn_asm::decode::rocm::listing`], [`gcn_asm::assemble`]): the
/// reassembled object, written to a temporary file.
/// A file in a directory of its own in the temporary directory, both
/// removed when dropped.
struct TempFile(PathBuf);

impl std::ops::Deref for TempFile {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

fn reassembled(path: &Path, set: &str) -> TempFile {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let co = gcn_asm::rocm::read(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text =
        gcn_asm::decode::rocm::listing(&co).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let options = gcn_asm::AssembleOptions {
        format: gcn_asm::syntax::assembler::BinaryFormat::Rocm,
        ..Default::default()
    };
    let again = gcn_asm::assemble(&text, &options)
        .unwrap_or_else(|d| panic!("{}: {d}", path.display()))
        .rocm_bytes()
        .unwrap();
    // One directory per set (no two tests share one), removed with the file.
    let dir = std::env::temp_dir().join(format!(
        "gcn-rocm-reassembled-{}-{}",
        std::process::id(),
        set.replace('/', "-")
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join(path.file_name().unwrap());
    std::fs::write(&out, again).unwrap();
    TempFile(out)
}

/// Runs every case that the code objects of `set` (`v4/gfx900`,
/// `hip/gfx906`) have.
/// The directory of `set`'s code objects, and whether it is a HIP set.
/// `rdna/GPU[-w64]`: the RDNA sets of `gen-rdna/`.
fn set_dir(set: &str) -> (PathBuf, bool) {
    let dir = match set.strip_prefix("rdna/") {
        Some(rdna) => tests_dir().join("rocm/gen-rdna").join(rdna),
        None => tests_dir().join("rocm/gen").join(set),
    };
    (dir, set.starts_with("hip/") || set.starts_with("rdna/hip-"))
}

fn run_set(set: &str) {
    run_set_on(set, false);
}

/// [`run_set`] on the code objects themselves, or (`reassemble`) on what
/// their listing reassembles into: those must run exactly the same, with
/// the same known failures, although the writer lays them out differently
/// (the PC-relative references to global data are section differences in
/// the listing, resolved against the new layout).
fn run_set_on(set: &str, reassemble: bool) {
    let (dir, hip) = set_dir(set);
    let known = known_failures();
    let mut failures = Vec::new();
    let mut passed = 0;
    let mut expected = 0;
    for case in cases() {
        let c = &case.value;
        if c["hip"].as_bool().unwrap_or(false) != hip {
            continue;
        }
        let source = c["source"].as_str().unwrap();
        let stem = Path::new(source).file_stem().unwrap().to_str().unwrap();
        let mut path = dir.join(format!("{stem}.co"));
        if set.starts_with("rdna/") && !path.exists() {
            // The RDNA sets have no printf sources (`compile.sh`).
            continue;
        }
        let mut _reassembled = None;
        if reassemble {
            let file = reassembled(&path, set);
            path = file.to_path_buf();
            _reassembled = Some(file);
        }
        let name = c["name"].as_str().unwrap();
        let known = known.iter().find(|k| k.case == name && k.set == set);
        match (run_case(&case, &path, &LaunchOptions::default()), known) {
            (Ok(_), None) => passed += 1,
            (Err(e), None) => failures.push(format!("{name} on {set}: {e}")),
            (Ok(_), Some(_)) => failures.push(format!(
                "{name} on {set} now passes: remove it from tests/rocm/known_failures.json"
            )),
            (Err(e), Some(k)) if !e.contains(&k.contains) => failures.push(format!(
                "{name} on {set}: expected an error containing `{}`, got: {e}",
                k.contains
            )),
            (Err(_), Some(_)) => expected += 1,
        }
    }
    println!(
        "{set}: {passed} cases match the reference with every check on; {expected} known failures"
    );
    assert!(
        failures.is_empty(),
        "{set}: {} runs differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(passed > 0, "{set}: no case ran");
}

/// Runs every case of `set` with the checks off through the interpreter
/// and through the compiled tier with every block translated at its first
/// run: both must match the reference, with the same output bytes and the
/// same instruction and lane counts. Returns the instructions that ran
/// compiled and all the instructions of the tiered runs.
fn run_set_tiered(set: &str) -> (u64, u64) {
    let (dir, hip) = set_dir(set);
    // One host thread: work-groups that race (atomics) then run in one
    // order, so that the counts compare.
    let options = |tier| LaunchOptions {
        checks: gcn_runtime::CheckOptions::off(),
        threads: Some(1),
        tier,
        ..LaunchOptions::default()
    };
    let known = known_failures();
    let mut failures = Vec::new();
    let (mut compiled, mut compiled_checked, mut steps) = (0, 0, 0);
    for case in cases() {
        let c = &case.value;
        if c["hip"].as_bool().unwrap_or(false) != hip {
            continue;
        }
        let name = c["name"].as_str().unwrap();
        if known.iter().any(|k| k.case == name && k.set == set) {
            continue;
        }
        let source = c["source"].as_str().unwrap();
        let stem = Path::new(source).file_stem().unwrap().to_str().unwrap();
        let path = dir.join(format!("{stem}.co"));
        if !path.exists() {
            continue;
        }
        let interpreted = run_case(&case, &path, &options(gcn_runtime::TierMode::Off));
        let tiered = run_case(&case, &path, &options(gcn_runtime::TierMode::Eager));
        // Every check on (at error: a report fails the run), every block
        // compiled in its checked variant.
        let checked = run_case(
            &case,
            &path,
            &LaunchOptions {
                threads: Some(1),
                tier: gcn_runtime::TierMode::Eager,
                ..LaunchOptions::default()
            },
        );
        match (interpreted, tiered, checked) {
            (Ok(a), Ok(b), Ok(c)) => {
                compiled += b.stats.tier.steps_compiled;
                compiled_checked += c.stats.tier.steps_compiled;
                steps += b.stats.instructions;
                let counts = |r: &Ran| (r.stats.instructions, r.stats.lane_ops);
                for (what, r) in [("", &b), (" with the checks on", &c)] {
                    if a.outputs != r.outputs || counts(&a) != counts(r) {
                        failures.push(format!(
                            "{name} on {set}: the compiled tier's outputs or counts{what} {:?} \
                             differ from the interpreter's {:?}",
                            counts(r),
                            counts(&a)
                        ));
                    }
                }
            }
            (a, b, c) => failures.push(format!(
                "{name} on {set}: interpreter {:?}, compiled tier {:?}, checked {:?}",
                a.err(),
                b.err(),
                c.err()
            )),
        }
    }
    println!(
        "{set}: {compiled} of {steps} instructions ran compiled ({compiled_checked} with the \
         checks on)"
    );
    assert!(
        compiled == 0 || compiled_checked > 0,
        "{set}: nothing ran compiled with the checks on"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    (compiled, steps)
}

macro_rules! sets {
    ($($test:ident => $set:literal,)*) => {
        $(
            #[test]
            fn $test() {
                run_set($set);
            }
        )*

        /// Every set again on the reassembled code objects
        /// ([`run_set_on`]).
        #[test]
        fn reassembled_code_objects_run_identically() {
            $(run_set_on($set, true);)*
        }

        /// Every set with the checks off, through the interpreter and
        /// through the compiled tier ([`run_set_tiered`]).
        #[test]
        fn compiled_tier_runs_every_set_as_the_interpreter() {
            let (mut compiled, mut steps) = (0, 0);
            $(
                let (c, s) = run_set_tiered($set);
                compiled += c;
                steps += s;
            )*
            println!("{compiled} of {steps} instructions ran compiled");
            assert!(compiled > 0, "nothing ran compiled");
        }
    };
}

sets! {
    v4_gfx803 => "v4/gfx803",
    v4_gfx900 => "v4/gfx900",
    v4_gfx906 => "v4/gfx906",
    v5_gfx803 => "v5/gfx803",
    v5_gfx900 => "v5/gfx900",
    v5_gfx906 => "v5/gfx906",
    v3_gfx900 => "v3/gfx900",
    v2_gfx900 => "v2/gfx900",
    hip_gfx906 => "hip/gfx906",
    rdna_gfx1010 => "rdna/gfx1010",
    rdna_gfx1030 => "rdna/gfx1030",
    rdna_gfx1030_w64 => "rdna/gfx1030-w64",
    rdna_hip_gfx1030 => "rdna/hip-gfx1030",
}

/// The HIP cases of `hip_kernels.hip` from hipcc's offload bundles
/// (`gen/hip-bundle/`, read by `gcn_asm::bundle`): the entry each loader
/// chooses runs every case with every check on and matches the reference,
/// as the unbundled code object does (`hip_gfx906`).
#[test]
fn hip_bundles_run_every_case() {
    use gcn_asm::GcnVersion;
    let dir = tests_dir().join("rocm/gen/hip-bundle");
    type Load = fn(&Memory, &[u8]) -> Result<Program, LoadError>;
    let runs: [(&str, &str, Load); 7] = [
        ("hip_kernels.gfx906.hipfb", "the only GPU entry", |m, b| {
            Program::load_bundle(m, b, None)
        }),
        ("hip_kernels.gfx906.o", "the only GPU entry", |m, b| {
            Program::load_bundle(m, b, None)
        }),
        ("hip_kernels.gfx906-xnack.hipfb", "-g gfx906", |m, b| {
            Program::load_bundle(m, b, Some("gfx906"))
        }),
        ("hip_kernels.gfx900-gfx906.hipfb", "-g gfx906", |m, b| {
            Program::load_bundle(m, b, Some("gfx906"))
        }),
        ("hip_kernels.gfx900-gfx906.hipfb", "-g gfx900", |m, b| {
            Program::load_bundle(m, b, Some("gfx900"))
        }),
        (
            "hip_kernels.gfx900-gfx906.hipfb",
            "Program::load on GCN 1.4",
            |m, b| Program::load(m, b, GcnVersion::Gcn1_4),
        ),
        (
            "hip_kernels.gfx906.hipfb",
            "Program::load on GCN 1.4.1",
            |m, b| Program::load(m, b, GcnVersion::Gcn1_4_1),
        ),
    ];
    let mut failures = Vec::new();
    let mut passed = 0;
    for (file, how, load) in runs {
        for case in cases() {
            let c = &case.value;
            if c["source"].as_str() != Some("src/hip_kernels.hip") {
                continue;
            }
            let name = c["name"].as_str().unwrap();
            match run_case_loaded(&case, &dir.join(file), &LaunchOptions::default(), &load) {
                Ok(_) => passed += 1,
                Err(e) => failures.push(format!("{name} from {file} ({how}): {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(passed, 7 * 4, "four hip_kernels cases per run");
    // Several GPU entries and no version that picks one: the entries.
    let two = std::fs::read(dir.join("hip_kernels.gfx900-gfx906.hipfb")).unwrap();
    let err = Program::load(&Memory::default(), &two, GcnVersion::Gcn1_2).unwrap_err();
    assert!(err.to_string().contains("--gfx900, hipv4"), "{err}");
}

/// Loads the code object at `path` and launches `kernel` over `dispatch`
/// (every check on, as an error) with one argument: a zeroed buffer of
/// `words` u32, returned after the run; `then` launches more on the same
/// program (whose globals persist). A failure names `path`.
fn launch_with_out(
    path: &Path,
    kernel: &str,
    words: usize,
    dispatch: &Dispatch,
    then: impl FnOnce(&Program, &Memory),
) -> Vec<u32> {
    let bytes = std::fs::read(path).unwrap();
    let memory = Memory::default();
    let program = Program::load_code_object(&memory, &bytes).unwrap();
    let out = memory.buffer_zeroed::<u32>(words).unwrap();
    program
        .launch(
            kernel,
            &[ArgValue::Pointer(out.ptr())],
            dispatch,
            &LaunchOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    then(&program, &memory);
    out.to_vec()
}

/// The program-scope globals of `gcn-asm/tests/rocm/globals.cl` (a `.data`
/// table and a pointer to its third element, relocated by the loader with
/// `R_AMDGPU_RELATIVE64`; the kernel reaches the pointer PC-relatively):
/// the code object and the one its listing reassembles into both give
/// every work-item `table[2]`.
#[test]
fn globals_run_the_same_reassembled() {
    let path = tests_dir().join("../gcn-asm/tests/rocm/globals-gfx900-v4.co");
    let again = reassembled(&path, "globals");
    for path in [path.clone(), again.to_path_buf()] {
        let grid = Dispatch::new(1, [64, 1, 1], [64, 1, 1]);
        let out = launch_with_out(&path, "pick", 64, &grid, |_, _| {});
        assert_eq!(out, vec![3u32; 64], "{}", path.display());
    }
}

/// `gcn-asm/tests/rocm/globals-bss.cl`: globals in `.bss` (a counter and a
/// histogram the kernel increments atomically), `.data` (a table and
/// pointers into `.data` and `.bss`, relocated by the loader) and `.rodata`;
/// code objects v4 and v2 and what their listings reassemble into all
/// compute the same, and the `.bss` counts persist from one launch to the
/// next.
#[test]
fn bss_globals_run_the_same_reassembled() {
    for version in ["v4", "v2"] {
        let path = tests_dir().join(format!(
            "../gcn-asm/tests/rocm/globals-bss-gfx900-{version}.co"
        ));
        let again = reassembled(&path, "globals-bss");
        for path in [path.clone(), again.to_path_buf()] {
            let at = path.display();
            let grid = Dispatch::new(1, [64, 1, 1], [64, 1, 1]);
            let out = launch_with_out(&path, "tally", 64, &grid, |program, memory| {
                // The `.bss` counts, read by a second launch.
                let counts = memory.buffer_zeroed::<u32>(2).unwrap();
                program
                    .launch(
                        "read_counts",
                        &[ArgValue::Pointer(counts.ptr())],
                        &Dispatch::new(1, [1, 1, 1], [1, 1, 1]),
                        &LaunchOptions::default(),
                    )
                    .unwrap_or_else(|e| panic!("{at}: {e}"));
                assert_eq!(counts.to_vec(), [64, 64], "{at}");
            });
            let want: Vec<u32> = (0..64).map(|i| 20 * (i % 4 + 1)).collect();
            assert_eq!(out, want, "{at}");
        }
    }
}

/// CLRX's GOT (`.gotsym`): the loader fills each entry with its symbol's
/// address (a global of `.globaldata`) or value (an absolute symbol), and
/// the code reaches the entries PC-relatively through section differences;
/// the same again after gcndisasm and gcnasm.
#[test]
fn got_entries_are_filled_by_the_loader() {
    let src = "\
.rocm
.gpu gfx900
.llvm10binfmt
.metadatav3
.md_version 1, 1
.global absv
absv = 0x12345678
.gotsym absv, gabs
.global gv
gv = .gdata + 64
.gotsym gv
.globaldata
.gdata:
    .skip 64
    .int 0x55aa
.kernel k
  .config
    .dims x
    .use_kernarg_segment_ptr
    .arg out, \"uint*\", 8, 0, globalbuf, u32, global, default
.text
k:
    s_load_dwordx2 s[2:3], s[0:1], 0x0
    s_getpc_b64 s[4:5]
.Lp:
    s_add_u32 s4, s4, (gabs-.Lp)&0xffffffff
    s_addc_u32 s5, s5, (gabs-.Lp)>>32
    s_load_dwordx2 s[6:7], s[4:5], 0x0
    s_load_dwordx2 s[8:9], s[4:5], 0x8
    s_waitcnt lgkmcnt(0)
    s_load_dword s10, s[8:9], 0x0
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v0, s6
    v_mov_b32 v1, s10
    v_mov_b32 v2, s2
    v_mov_b32 v3, s3
    global_store_dword v[2:3], v0, off
    global_store_dword v[2:3], v1, off offset:4
    s_endpgm
";
    let asm = gcn_asm::assemble(src, &gcn_asm::AssembleOptions::default()).unwrap();
    let bytes = asm.rocm_bytes().unwrap();
    let dir = std::env::temp_dir().join(format!("gcn-rocm-got-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("got.co");
    std::fs::write(&path, &bytes).unwrap();
    let again = reassembled(&path, "got");
    for path in [path.clone(), again.to_path_buf()] {
        let one = Dispatch::new(1, [1, 1, 1], [1, 1, 1]);
        let out = launch_with_out(&path, "k", 2, &one, |_, _| {});
        assert_eq!(out, [0x1234_5678, 0x55aa], "{}", path.display());
    }
    drop(again);
    let _ = std::fs::remove_dir_all(&dir);
}
