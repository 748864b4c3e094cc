//! Issue 23, "fuzz every input surface", for the runtime crate: Gallium
//! binary bytes through `Program::load` and a launch, the emulator running
//! random instruction words (as a whole Gallium program), and `gcnrun`'s
//! command line (the built binary, spawned with mutated argument lists).
//! Each campaign is time-boxed by `GCN_FUZZ_SECONDS` (see
//! gcn-asm/tests/common/fuzz.rs); no panic, no hang, bounded memory, and
//! every error non-empty.

#[path = "../../gcn-asm/tests/common/fuzz.rs"]
mod fuzz;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fuzz::{campaign, mutate_bytes, Rng, Verdict, Violation};
use gcn_runtime::gcn_asm::decode::decode;
use gcn_runtime::gcn_asm::gallium::{self, ArgSemantic, ArgType};
use gcn_runtime::gcn_asm::{assemble, AssembleOptions, GcnVersion};
use gcn_runtime::kernel::{Image, Sampler};
use gcn_runtime::{
    ArgValue, CheckOptions, DevicePtr, Dispatch, LaunchOptions, LocalMemory, Memory, Program,
};

#[global_allocator]
static ALLOC: fuzz::Counting = fuzz::Counting;

/// Kernels that load their arguments and touch memory.
const SOURCES: &[&str] = &[
    include_str!("../../tests/kernels/vadd.s"),
    include_str!("../../tests/kernels/sample.s"),
    include_str!("../../tests/kernels/image_rw.s"),
    include_str!("../../examples/kernels/scale_offsets.s"),
    ".gallium\n.gpu tonga\n.kernel k\n.args\n.arg out, global, 8\n.arg n, scalar, 4\n.arg local, 4\n.arg griddim\n.arg gridoffset\n.config\n.dims xy\n.localsize 1024\n.text\nk:\n  s_load_dwordx2 s[2:3], s[0:1], 0x24\n  s_load_dword s4, s[0:1], 0x2c\n  s_waitcnt lgkmcnt(0)\n  v_lshlrev_b32 v1, 2, v0\n  v_mov_b32 v3, s3\n  v_add_u32 v2, vcc, s2, v1\n  v_addc_u32 v3, vcc, 0, v3, vcc\n  v_mov_b32 v4, s4\n  ds_write_b32 v1, v4\n  s_barrier\n  flat_store_dword v[2:3], v4\n  s_endpgm\n",
    ".gallium\n.gpu pitcairn\n.kernel k\n.args\n.arg out, global, 8\n.config\n.dims x\n.scratchbuffer 256\n.text\nk:\n  s_load_dwordx2 s[2:3], s[0:1], 9\n  s_mov_b32 s4, 0\n  s_waitcnt lgkmcnt(0)\n  s_getpc_b64 s[6:7]\n  s_add_u32 s4, s4, 1\n  s_cmp_lt_u32 s4, 100\n  s_cbranch_scc1 k\n  s_endpgm\n.rodata\n.int 1, 2, 3, 4\n",
];

/// The Gallium binaries of [`SOURCES`], with the offsets of their records
/// and headers.
fn binaries() -> Vec<(Vec<u8>, Vec<usize>, GcnVersion)> {
    let mut out = Vec::new();
    for src in SOURCES {
        let options = AssembleOptions {
            include_dirs: vec![concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/kernels").into()],
            ..AssembleOptions::default()
        };
        let asm = assemble(src, &options).unwrap_or_else(|d| panic!("seed kernel: {d}\n{src}"));
        let version = if src.contains("pitcairn") {
            GcnVersion::Gcn1_0
        } else {
            GcnVersion::Gcn1_2
        };
        let bytes = asm.gallium_bytes().unwrap();
        let mut hot: Vec<usize> = (0..bytes.len().min(160)).step_by(4).collect();
        if let Some(elf) = bytes.windows(4).position(|w| w == b"\x7fELF") {
            let shoff = u32::from_le_bytes(bytes[elf + 32..elf + 36].try_into().unwrap()) as usize;
            hot.extend([elf - 8, elf - 4, elf + 32, elf + 48]);
            hot.extend((0..12 * 40).step_by(4).map(|k| elf + shoff + k));
            // The code.
            hot.extend((elf + 256..elf + 320).step_by(4));
        }
        hot.retain(|&h| h < bytes.len());
        out.push((bytes, hot, version));
    }
    out
}

/// Small launch limits: a case is a few thousand instructions at most.
fn launch_options(rng_bits: u32) -> LaunchOptions {
    LaunchOptions {
        max_steps: 20_000,
        threads: Some(1),
        checks: if rng_bits & 1 == 0 {
            CheckOptions::default()
        } else {
            CheckOptions::off()
        },
        timeout: Some(Duration::from_secs(5)),
        // Unchecked cases run through the compiled tier, every block
        // translated, or as it tiers by default.
        tier: if rng_bits & 2 == 0 {
            gcn_runtime::TierMode::Eager
        } else {
            gcn_runtime::TierMode::Hot
        },
    }
}

/// Loads `bytes` and runs each kernel with plausible values (a buffer per
/// pointer, zero scalars, a small local buffer) on a small grid. Every
/// outcome is fine but a panic, a hang or an empty error message.
fn load_and_launch(bytes: &[u8], version: GcnVersion, bits: u32) -> Result<Verdict, Violation> {
    let memory = Memory::with_limit(64 << 20);
    let program = match Program::load(&memory, bytes, version) {
        Ok(p) => p,
        Err(e) if e.to_string().trim().is_empty() => return Err("an empty load error".into()),
        Err(_) => return Ok(Verdict::Rejected),
    };
    let buffer = memory
        .buffer_zeroed::<u32>(4096)
        .map_err(|e| format!("allocation: {e}"))?;
    let mut verdict = Verdict::Ok;
    for kernel in program.kernels().iter().take(3) {
        let values: Vec<ArgValue> = kernel
            .args
            .iter()
            .filter(|a| a.record.semantic == ArgSemantic::General)
            .map(|a| match a.record.ty {
                ArgType::Global | ArgType::Constant => ArgValue::Pointer(DevicePtr(buffer.ptr().0)),
                ArgType::Local => ArgValue::Local(LocalMemory(256)),
                ArgType::Image2dRdonly
                | ArgType::Image2dWronly
                | ArgType::Image3dRdonly
                | ArgType::Image3dWronly => ArgValue::Image(Image::default()),
                ArgType::Sampler => ArgValue::Sampler(Sampler::default()),
                _ => ArgValue::Scalar(vec![bits as u8; (a.record.size as usize).min(64)]),
            })
            .collect();
        let dispatch = match bits >> 1 & 3 {
            0 => Dispatch::new(1, [64, 1, 1], [64, 1, 1]),
            1 => Dispatch::new(1, [130, 1, 1], [65, 1, 1]),
            2 => Dispatch::new(2, [8, 8, 1], [4, 4, 1]),
            _ => Dispatch::new(3, [4, 2, 2], [2, 2, 2]),
        };
        match program.launch(&kernel.name, &values, &dispatch, &launch_options(bits)) {
            Ok(_) => {}
            Err(e) if e.to_string().trim().is_empty() => {
                return Err(format!("an empty launch error: {e:?}"))
            }
            Err(e) => {
                if std::env::var_os("GCN_FUZZ_VERBOSE").is_some() {
                    println!("{e}");
                }
                verdict = Verdict::Rejected
            }
        }
    }
    Ok(verdict)
}

#[derive(Debug)]
struct BinaryInput {
    version: GcnVersion,
    bits: u32,
    bytes: Vec<u8>,
}

#[test]
fn fuzz_program_load_and_launch() {
    let seeds = binaries();
    let gen = move |rng: &mut Rng| {
        let (seed, hot, version) = &seeds[rng.below(seeds.len())];
        let mut bytes = seed.clone();
        for _ in 0..1 + rng.below(3) {
            mutate_bytes(rng, &mut bytes, hot);
        }
        BinaryInput {
            version: if rng.one_in(4) {
                *rng.pick(&GcnVersion::ALL)
            } else {
                *version
            },
            bits: rng.u32(),
            bytes,
        }
    };
    campaign(
        "gallium load+launch",
        Duration::from_secs(30),
        gen,
        |input: &BinaryInput| load_and_launch(&input.bytes, input.version, input.bits),
    );
}

/// Fixed high bits of the families the emulator runs, biased to the
/// vector, scalar and memory ones.
const TOPS: &[(u32, u32)] = &[
    (0x8000_0000, 0x0000_0000), // VOP2
    (0xfe00_0000, 0x7e00_0000), // VOP1
    (0xfe00_0000, 0x7c00_0000), // VOPC
    (0xc000_0000, 0x8000_0000), // SOP2
    (0xf000_0000, 0xb000_0000), // SOPK
    (0xff80_0000, 0xbe80_0000), // SOP1
    (0xff80_0000, 0xbf00_0000), // SOPC
    (0xff80_0000, 0xbf80_0000), // SOPP
    (0xfc00_0000, 0xc000_0000), // SMRD / SMEM
    (0xfc00_0000, 0xd000_0000), // VOP3
    (0xfc00_0000, 0xd800_0000), // DS
    (0xfc00_0000, 0xdc00_0000), // FLAT
    (0xfc00_0000, 0xe000_0000), // MUBUF
    (0xfc00_0000, 0xe800_0000), // MTBUF
    (0xfc00_0000, 0xf000_0000), // MIMG
];

#[derive(Debug)]
struct WordsInput {
    version: GcnVersion,
    bits: u32,
    words: Vec<u32>,
}

/// A kernel's prologue (argument loads, a buffer descriptor in s[4:7])
/// as a Gallium binary to put random words after, and its words.
fn words_template() -> (gallium::GalliumBinary, Vec<u32>) {
    let prologue = assemble(
        ".gallium\n.gpu tonga\n.kernel k\n.args\n.arg out, global, 8\n.config\n.dims x\n.vgprsnum 256\n.sgprsnum 96\n.localsize 4096\n.text\nk:\n  s_load_dwordx2 s[2:3], s[0:1], 0x24\n  s_waitcnt lgkmcnt(0)\n  v_lshlrev_b32 v1, 2, v0\n  v_mov_b32 v3, s3\n  v_add_u32 v2, vcc, s2, v1\n  v_addc_u32 v3, vcc, 0, v3, vcc\n  s_mov_b32 s4, s2\n  s_mov_b32 s5, s3\n  s_mov_b32 s6, -1\n  s_mov_b32 s7, 0x27000\n",
        &AssembleOptions::default(),
    )
    .unwrap();
    let template = gallium::read(&prologue.gallium_bytes().unwrap()).unwrap();
    let prologue_words: Vec<u32> = prologue
        .text()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    (template, prologue_words)
}

/// Runs `words` as the code of the template's kernel.
fn run_words(
    template: &gallium::GalliumBinary,
    words: &[u32],
    version: GcnVersion,
    bits: u32,
) -> Result<Verdict, Violation> {
    let mut binary = template.clone();
    binary.code = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let bytes = gallium::write(&binary).map_err(|e| format!("write: {e:?}"))?;
    load_and_launch(&bytes, version, bits)
}

/// Inputs the campaigns found (each once panicked).
#[test]
fn fuzz_findings_run() {
    let (template, _) = words_template();
    // buffer_store_lds_dword v[88:89], s[12:15], s0 offen idxen: the VADDR
    // sits past the row's operands (the uninit check indexed the row).
    let words = [0xe0f4_7545, 0x0003_0058, 0xbf81_0000];
    assert!(run_words(&template, &words, GcnVersion::Gcn1_4, 0).is_ok());
    // TIDIG_COMP_CNT 3 (reserved) in PGM_RSRC2 made a fourth dimension
    // (an index out of bounds in the launch).
    let mut damaged = template.clone();
    for k in &mut damaged.kernels {
        for e in &mut k.prog_info {
            if e.address == 0xb84c {
                e.value |= 3 << 11;
            }
        }
    }
    let words = [0xbf81_0000];
    for bits in 0..8 {
        assert!(run_words(&damaged, &words, GcnVersion::Gcn1_2, bits).is_ok());
    }
}

#[test]
fn fuzz_emulator_words() {
    // The prologue of a real kernel (argument loads, then random words),
    // so that memory instructions see real addresses half of the time.
    let (template, prologue_words) = words_template();
    let gen = move |rng: &mut Rng| {
        let version = *rng.pick(&GcnVersion::ALL);
        // The prologue is GCN 1.2+ code (SMEM).
        let mut words = if version.is_gcn12_or_later() && !rng.one_in(4) {
            prologue_words.clone()
        } else {
            Vec::new()
        };
        for _ in 0..1 + rng.below(24) {
            // Mostly words that decode (the emulator stops at the first
            // that does not): a few tries per instruction.
            let mut candidate = Vec::new();
            for _ in 0..8 {
                let (mask, value) = *rng.pick(TOPS);
                let w0 = match rng.below(4) {
                    0 => rng.u32(),
                    _ => (rng.u32() & !mask) | value,
                };
                // A second word with small operand codes, and a literal.
                candidate = vec![w0, rng.u32() & 0x0003_03ff, rng.nasty_u32()];
                if let Ok(i) = decode(&candidate, 0, version) {
                    candidate.truncate(usize::from(i.len));
                    break;
                }
                candidate.truncate(1 + rng.below(2));
            }
            words.extend(candidate);
        }
        if rng.one_in(2) {
            words.push(0xbf81_0000); // s_endpgm
        }
        WordsInput {
            version,
            bits: rng.u32(),
            words,
        }
    };
    campaign(
        "emulator words",
        Duration::from_secs(30),
        gen,
        move |input: &WordsInput| run_words(&template, &input.words, input.version, input.bits),
    );
}

// ---- gcnrun's command line ----

fn workdir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gcnrun-fuzz");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Argument lists that work (or nearly), to mutate.
const COMMANDS: &[&[&str]] = &[
    &[
        "k.s",
        "k",
        "zero:4096",
        "u32:7",
        "local:256",
        "--global",
        "64",
    ],
    &[
        "k.s",
        "k",
        "zero:4096",
        "u32:7",
        "local:256",
        "--global",
        "8,8",
        "--local",
        "4,4",
        "--offset",
        "1,2",
    ],
    &[
        "-g",
        "tonga",
        "k.bin",
        "k",
        "@data.bin",
        "i32:-1",
        "local:64",
        "--global",
        "64",
        "--out",
        "0=o.bin",
    ],
    &[
        "-A",
        "gcn1.2",
        "k.bin",
        "k",
        "vsharp:zero:256,stride=4,format=32:float",
        "f32:1.5",
        "local:4",
        "--global",
        "4",
        "--check",
        "all=warn",
    ],
    &[
        "k.s",
        "k",
        "zero:64",
        "hex:01020304",
        "local:4",
        "--global",
        "16",
        "--trace",
        "--trace-group",
        "0",
        "--trace-wave",
        "0",
    ],
    &[
        "k.s",
        "k",
        "zero:64",
        "u64:0x1122334455667788",
        "local:4",
        "--global",
        "1",
        "--max-steps",
        "10",
        "--threads",
        "1",
    ],
    &["--help"],
];

/// Argument tokens and values worth splicing in.
const ARG_TOKENS: &[&str] = &[
    "-g",
    "-A",
    "--global",
    "--local",
    "--offset",
    "--out",
    "--max-steps",
    "--timeout",
    "--threads",
    "--check",
    "--trace",
    "--trace-group",
    "--trace-wave",
    "--",
    "-",
    "k.s",
    "k.bin",
    "k",
    "missing.s",
    "zero:0",
    "zero:",
    "zero:18446744073709551615",
    "local:",
    "local:4294967295",
    "u8:256",
    "i8:-129",
    "f16:1e308",
    "f32:nan",
    "f64:-1e308",
    "hex:",
    "hex:0",
    "hex:zz",
    "@",
    "@/nonexistent",
    "@data.bin",
    "vsharp:",
    "vsharp:zero:16,stride=0",
    "vsharp:zero:16,records=4294967296",
    "vsharp:zero:16,swizzle=16:64,tid",
    "vsharp:zero:16,dst_sel=xyzw,format=99:99",
    "image:",
    "sampler:",
    "0=o.bin",
    "9=o.bin",
    "0=",
    "=",
    ",",
    ",,",
    "0,0,0",
    "1,1,1,1",
    "65,1",
    "4294967295",
    "4294967296",
    "4294967295,4294967295",
    "1e308",
    "0.0000001",
    "-1",
    "0",
    "all=off",
    "oob=maybe",
    "é",
    "\u{1f600}",
    "--globa",
    "-gtonga",
    "--global=64",
    "tonga",
    "gfx906",
    "gcn1.4",
    "GCN1.0",
];

#[derive(Debug)]
struct ArgsInput {
    args: Vec<String>,
}

/// A kernel for the command lines: a buffer, a scalar, local memory.
const KERNEL_SOURCE: &str = ".gallium\n.gpu tonga\n.kernel k\n.args\n.arg out, global, 8\n.arg n, scalar, 4\n.arg local, 4\n.arg griddim\n.config\n.dims x\n.kernel v\n.args\n.arg vs, scalar, 16\n.arg f, scalar, 4\n.arg local, 4\n.config\n.dims x\n.text\nv:\nk:\n  s_load_dwordx2 s[2:3], s[0:1], 0x24\n  s_waitcnt lgkmcnt(0)\n  v_lshlrev_b32 v1, 2, v0\n  v_mov_b32 v3, s3\n  v_add_u32 v2, vcc, s2, v1\n  v_addc_u32 v3, vcc, 0, v3, vcc\n  flat_store_dword v[2:3], v1\n  s_endpgm\n";

#[test]
fn fuzz_gcnrun_arguments() {
    let dir = workdir();
    std::fs::write(dir.join("k.s"), KERNEL_SOURCE).unwrap();
    let bytes = assemble(KERNEL_SOURCE, &AssembleOptions::default())
        .unwrap()
        .gallium_bytes()
        .unwrap();
    std::fs::write(dir.join("k.bin"), bytes).unwrap();
    std::fs::write(dir.join("data.bin"), [7u8; 4096]).unwrap();
    let gen = |rng: &mut Rng| {
        let mut args: Vec<String> = rng.pick(COMMANDS).iter().map(|s| s.to_string()).collect();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(args.len() + 1);
            match rng.below(6) {
                0 if !args.is_empty() => {
                    args.remove(at.min(args.len() - 1));
                }
                1 => args.insert(at, rng.pick(ARG_TOKENS).to_string()),
                2 if !args.is_empty() => {
                    let i = at.min(args.len() - 1);
                    args[i] = rng.pick(ARG_TOKENS).to_string();
                }
                3 if !args.is_empty() => {
                    // A number inside an argument replaced by an extreme.
                    let i = at.min(args.len() - 1);
                    let arg = &args[i];
                    if let Some(p) = arg.find(|c: char| c.is_ascii_digit()) {
                        let end = arg[p..]
                            .find(|c: char| !c.is_ascii_alphanumeric())
                            .map_or(arg.len(), |e| p + e);
                        args[i] =
                            format!("{}{}{}", &arg[..p], rng.pick(fuzz::EXTREMES), &arg[end..]);
                    }
                }
                4 if !args.is_empty() => {
                    // Truncate an argument.
                    let i = at.min(args.len() - 1);
                    let cut = args[i]
                        .char_indices()
                        .map(|(k, _)| k)
                        .nth(rng.below(8))
                        .unwrap_or(0);
                    args[i].truncate(cut);
                }
                _ => {
                    let i = rng.below(args.len().max(1));
                    if let Some(a) = args.get(i).cloned() {
                        args.insert(at, a);
                    }
                }
            }
        }
        // A buffer of hundreds of MiB up to the device memory limit (8 GiB)
        // is a valid request that takes seconds to zero (and past the
        // host's memory, aborts: see the report of issue 23): kept small.
        for a in args.iter_mut() {
            if let Some(n) = a.split_once("zero:").and_then(|(_, n)| n.split(',').next()) {
                if n.parse::<u64>().is_ok_and(|n| n > 1 << 24 && n <= 8 << 30) {
                    *a = a.replace(n, "16777216");
                }
            }
        }
        // Every run ends soon: a dispatch time limit first (a mutation may
        // make it a usage error, which is fine).
        // Without one, a valid grid of 2^31 work-items just runs for long.
        if !args.iter().any(|a| a.starts_with("--timeout")) {
            args.push("--timeout".into());
            args.push("2".into());
        }
        ArgsInput { args }
    };
    let exe = env!("CARGO_BIN_EXE_gcnrun");
    campaign(
        "gcnrun arguments",
        Duration::from_secs(40),
        gen,
        move |input: &ArgsInput| {
            // Bounded memory: 4 GiB of address space (an allocation past it
            // aborts gcnrun, which fails the case).
            let mut child = Command::new("sh")
                .args(["-c", "ulimit -v 4194304 && exec \"$0\" \"$@\"", exe])
                .args(&input.args)
                .current_dir(&dir)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .map_err(|e| format!("spawn: {e}"))?;
            let start = Instant::now();
            let status = loop {
                if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
                    break status;
                }
                if start.elapsed() > Duration::from_secs(30) {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err("gcnrun did not finish within 30 s (a hang)".into());
                }
                std::thread::sleep(Duration::from_millis(2));
            };
            let mut stderr = String::new();
            if let Some(mut e) = child.stderr.take() {
                use std::io::Read;
                let _ = e.read_to_string(&mut stderr);
            }
            match status.code() {
                Some(0) => Ok(Verdict::Ok),
                Some(1 | 2) => {
                    // Check reports (`FILE:LINE:COL: error[CHECK]: …`) come
                    // before the summary line.
                    let said = stderr.lines().any(|l| {
                        l.strip_prefix("gcnrun: error: ")
                            .is_some_and(|m| !m.trim().is_empty())
                    });
                    if !said {
                        return Err(format!(
                            "exit {status} without `gcnrun: error: MESSAGE`:\n{stderr}"
                        ));
                    }
                    Ok(Verdict::Rejected)
                }
                _ => Err(format!("gcnrun ended with {status}:\n{stderr}")),
            }
        },
    );
}

/// Grids the gcnrun campaign found: more than 2^64 work-groups (a multiply
/// overflow) and a timeout in a grid of 2^63 tiny groups (the skipped
/// groups after the timeout were still walked one by one: a hang).
#[test]
fn fuzz_findings_huge_grids() {
    let memory = Memory::default();
    let src = ".gallium\n.gpu tonga\n.kernel k\n.config\n.dims xyz\n.text\nk:\n  s_endpgm\n";
    let bytes = assemble(src, &AssembleOptions::default())
        .unwrap()
        .gallium_bytes()
        .unwrap();
    let program = Program::load(&memory, &bytes, GcnVersion::Gcn1_2).unwrap();
    let options = LaunchOptions {
        timeout: Some(Duration::from_millis(200)),
        ..LaunchOptions::default()
    };
    let e = program
        .launch("k", &[], &Dispatch::new(3, [u32::MAX; 3], [1; 3]), &options)
        .unwrap_err();
    assert!(e.to_string().contains("more than 2^64"), "{e}");
    let start = Instant::now();
    let e = program
        .launch(
            "k",
            &[],
            &Dispatch::new(3, [u32::MAX, u32::MAX, 1], [1; 3]),
            &options,
        )
        .unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(20), "{e}");
}
