//! Emulator speed: an ALU-bound kernel (lane operations per second on one
//! core), a vector add over 16 M floats against a plain Rust loop (one
//! thread and all threads), and the scaling of a many-work-group dispatch
//! over host threads, the ALU kernel as RDNA 2 code in wave32 and wave64
//! (`alu_rdna2/…`: the cost of a lane in either wave size) — all with the
//! sanitizer checks off (the plain
//! interpreter) — and the cost of each check (`checks/…`: a kernel mixing
//! VALU, LDS traffic with barriers and global memory, run with each check
//! alone and with all of them, against all off), and that cost on a
//! streaming kernel (`checks_streaming/…`: the vector add over 16 M floats,
//! one thread, all checks on against all off; many short work-groups, so
//! it weighs what the checks pay per group and per memory instruction).
//!
//! `cargo bench -p gcn-runtime --bench emulator`; the ratios are computed
//! from the times criterion prints in the same run.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gcn_runtime::gcn_asm::{assemble, AssembleOptions, GcnVersion};
use gcn_runtime::kernel::{ArgValue, Dispatch};
use gcn_runtime::{Check, CheckOptions, LaunchOptions, Level, Memory, Program, TierMode};

/// Iterations of the ALU loop body (8 v_fma_f32 each).
const ALU_ITERATIONS: u32 = 1000;

/// The ALU loop (its counter in s8), the same in every kernel of the
/// benchmark.
const ALU_LOOP: &str = "    v_mov_b32 v1, 0.25
    v_mov_b32 v2, 1.0
    v_mov_b32 v3, 0.5
loop:
    v_fma_f32 v1, v1, v3, v2
    v_fma_f32 v2, v2, v3, v1
    v_fma_f32 v1, v1, v3, v2
    v_fma_f32 v2, v2, v3, v1
    v_fma_f32 v1, v1, v3, v2
    v_fma_f32 v2, v2, v3, v1
    v_fma_f32 v1, v1, v3, v2
    v_fma_f32 v2, v2, v3, v1
    s_sub_u32 s8, s8, 1
    s_cmp_lg_u32 s8, 0
    s_cbranch_scc1 loop
";

fn alu_source() -> String {
    format!(
        r#"
.gallium
.gpu tonga
.kernel alu
    .args
        .arg out, global, 8
        .arg griddim
        .arg gridoffset
    .config
        .dims x
        .tgsize
.text
alu:
    s_load_dwordx2 s[6:7], s[0:1], 0x24
    s_movk_i32 s8, {ALU_ITERATIONS}
{ALU_LOOP}    s_waitcnt lgkmcnt(0)
    v_lshlrev_b32 v0, 2, v0
    v_mov_b32 v4, s7
    v_add_u32 v0, vcc, s6, v0
    v_addc_u32 v4, vcc, v4, 0, vcc
    v_mov_b32 v5, v0
    v_mov_b32 v6, v4
    flat_store_dword v[5:6], v2
    s_endpgm
"#
    )
}

const VADD_SOURCE: &str = r#"
.gallium
.gpu tonga
.kernel vadd
    .args
        .arg a, global, 8
        .arg b, global, 8
        .arg c, global, 8
        .arg griddim
        .arg gridoffset
    .config
        .dims x
        .tgsize
.text
vadd:
    s_load_dword s2, s[0:1], 0x18
    s_load_dwordx4 s[8:11], s[0:1], 0x24
    s_load_dwordx2 s[12:13], s[0:1], 0x34
    s_waitcnt lgkmcnt(0)
    s_mul_i32 s2, s2, s4
    v_add_u32 v0, vcc, s2, v0
    v_lshlrev_b32 v0, 2, v0
    v_mov_b32 v5, s9
    v_add_u32 v4, vcc, s8, v0
    v_addc_u32 v5, vcc, v5, 0, vcc
    flat_load_dword v1, v[4:5]
    v_mov_b32 v5, s11
    v_add_u32 v4, vcc, s10, v0
    v_addc_u32 v5, vcc, v5, 0, vcc
    flat_load_dword v2, v[4:5]
    s_waitcnt vmcnt(0)
    v_add_f32 v1, v1, v2
    v_mov_b32 v5, s13
    v_add_u32 v4, vcc, s12, v0
    v_addc_u32 v5, vcc, v5, 0, vcc
    flat_store_dword v[4:5], v1
    s_endpgm
"#;

fn load(memory: &Memory, source: &str) -> Program {
    let binary = assemble(source, &AssembleOptions::default())
        .expect("benchmark kernel assembles")
        .gallium_bytes()
        .expect("Gallium binary");
    Program::load(memory, &binary, GcnVersion::Gcn1_2).expect("loads")
}

fn alu(c: &mut Criterion) {
    let memory = Memory::default();
    let program = load(&memory, &alu_source());
    let groups = 64u32;
    let out = memory.buffer_zeroed::<f32>(groups as usize * 64).unwrap();
    let dispatch = Dispatch::new_1d(groups * 64, 64);
    let args = [ArgValue::Pointer(out.ptr())];
    let one = LaunchOptions {
        threads: Some(1),
        checks: CheckOptions::off(),
        ..LaunchOptions::default()
    };
    let stats = program.launch("alu", &args, &dispatch, &one).unwrap();
    let mut g = c.benchmark_group("alu");
    g.sample_size(10);
    g.throughput(Throughput::Elements(stats.lane_ops));
    g.bench_function("fma_loop_1_thread", |b| {
        b.iter(|| program.launch("alu", &args, &dispatch, &one).unwrap())
    });
    // The interpreter alone, beside the compiled tier (the default).
    let interpreted = LaunchOptions {
        tier: TierMode::Off,
        ..one
    };
    g.bench_function("fma_loop_1_thread_interpreter", |b| {
        b.iter(|| {
            program
                .launch("alu", &args, &dispatch, &interpreted)
                .unwrap()
        })
    });
    // The same loop as host code: every work-item's two accumulators, the
    // eight fused multiply-adds per iteration, over the same 64 groups of
    // 64 work-items (host FMA and vectors where the CPU has them).
    let mut out = vec![0f32; groups as usize * 64];
    g.bench_function("fma_loop_native", |b| {
        b.iter(|| {
            native_fma_loop(&mut out);
            std::hint::black_box(&out);
        })
    });
    g.finish();

    let mut g = c.benchmark_group("scaling");
    g.sample_size(10);
    g.throughput(Throughput::Elements(stats.lane_ops));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut threads = vec![1];
    while threads.last().is_some_and(|&t| t * 2 <= cores) {
        threads.push(threads.last().unwrap() * 2);
    }
    if threads.last() != Some(&cores) {
        threads.push(cores);
    }
    for t in threads {
        let options = LaunchOptions {
            threads: Some(t),
            checks: CheckOptions::off(),
            ..LaunchOptions::default()
        };
        g.bench_with_input(BenchmarkId::new("fma_loop_threads", t), &t, |b, _| {
            b.iter(|| program.launch("alu", &args, &dispatch, &options).unwrap())
        });
    }
    g.finish();
}

/// [`ALU_LOOP`] in Rust: per work-item, `ALU_ITERATIONS` times eight
/// `v_fma_f32`, the result per work-item into `out`.
fn native_fma_loop(out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has AVX2 and FMA, which is all the function needs.
        return unsafe { native_fma_loop_avx2(out) };
    }
    native_fma_loop_body(out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn native_fma_loop_avx2(out: &mut [f32]) {
    native_fma_loop_body(out)
}

#[inline(always)]
fn native_fma_loop_body(out: &mut [f32]) {
    // 64 work-items at a time, as a wave: lanes independent, so the
    // compiler keeps them in vectors.
    for wave in out.chunks_mut(64) {
        let mut v1 = [0.25f32; 64];
        let mut v2 = [1.0f32; 64];
        let v3 = 0.5f32;
        for _ in 0..ALU_ITERATIONS {
            for _ in 0..4 {
                for l in 0..64 {
                    v1[l] = v1[l].mul_add(v3, v2[l]);
                    v2[l] = v2[l].mul_add(v3, v1[l]);
                }
            }
        }
        wave.copy_from_slice(&v2[..wave.len()]);
    }
}

/// The ALU loop as an RDNA 2 (gfx1030) code object, in wave32
/// (`.use_wave32`) or wave64: the same instructions, so the two runs
/// compare the cost of a lane in either wave size.
fn alu_rdna2_source(wave32: bool) -> String {
    let wave = if wave32 { ".use_wave32" } else { "" };
    format!(
        r#"
.rocm
.gpu gfx1030
.eflags 0x36
.llvm10binfmt
.metadatav3
.md_version 1, 0
.kernel alu
    .config
        .dims x
        {wave}
        .use_kernarg_segment_ptr
        .md_symname "alu.kd"
        .arg out, "float*", 8, 0, globalbuf, f32, global, default
.globaldata
    .skip 64
.text
alu:
    s_load_dwordx2 s[2:3], s[0:1], 0x0
    s_movk_i32 s8, {ALU_ITERATIONS}
{ALU_LOOP}    s_waitcnt lgkmcnt(0)
    v_lshlrev_b32 v0, 2, v0
    global_store_dword v0, v2, s[2:3]
    s_endpgm
"#
    )
}

/// The RDNA 2 ALU loop in wave32 and wave64, one thread: lane-ops per
/// second of each (the same work: 64 groups of 64 work-items).
fn alu_wave_sizes(c: &mut Criterion) {
    let mut g = c.benchmark_group("alu_rdna2");
    g.sample_size(10);
    for (name, wave32) in [("fma_loop_wave32", true), ("fma_loop_wave64", false)] {
        let memory = Memory::default();
        let binary = assemble(&alu_rdna2_source(wave32), &AssembleOptions::default())
            .expect("benchmark kernel assembles")
            .rocm_bytes()
            .expect("code object");
        let program = Program::load_code_object(&memory, &binary).expect("loads");
        let out = memory.buffer_zeroed::<f32>(64).unwrap();
        let dispatch = Dispatch::new_1d(64 * 64, 64);
        let args = [ArgValue::Pointer(out.ptr())];
        let one = LaunchOptions {
            threads: Some(1),
            checks: CheckOptions::off(),
            ..LaunchOptions::default()
        };
        let stats = program.launch("alu", &args, &dispatch, &one).unwrap();
        g.throughput(Throughput::Elements(stats.lane_ops));
        g.bench_function(name, |b| {
            b.iter(|| program.launch("alu", &args, &dispatch, &one).unwrap())
        });
    }
    g.finish();
}

/// Elements of the vector add.
const N: usize = 16 << 20;

/// The vector add over `N` floats, loaded with its buffers: `c = a + b`.
struct Vadd {
    program: Program,
    c: gcn_runtime::Buffer<f32>,
    // The inputs' buffers, which `args` points into.
    _inputs: [gcn_runtime::Buffer<f32>; 2],
    args: [ArgValue; 3],
    dispatch: Dispatch,
    // Last: the program and buffers live in it.
    _memory: Memory,
}

impl Vadd {
    fn new(a: &[f32], b: &[f32]) -> Vadd {
        let memory = Memory::default();
        let program = load(&memory, VADD_SOURCE);
        let da = memory.buffer_from_slice(a).unwrap();
        let db = memory.buffer_from_slice(b).unwrap();
        let c = memory.buffer_zeroed::<f32>(N).unwrap();
        let args = [
            ArgValue::Pointer(da.ptr()),
            ArgValue::Pointer(db.ptr()),
            ArgValue::Pointer(c.ptr()),
        ];
        Vadd {
            program,
            c,
            _inputs: [da, db],
            args,
            dispatch: Dispatch::new_1d(N as u32, 256),
            _memory: memory,
        }
    }
}

fn vector_add(c: &mut Criterion) {
    let a: Vec<f32> = (0..N).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..N).map(|i| (N - i) as f32 * 0.5).collect();
    let vadd = Vadd::new(&a, &b);
    let (program, args, dispatch, dc) = (&vadd.program, &vadd.args[..], &vadd.dispatch, &vadd.c);
    // Checked once here, so that a filtered run (`-- alu`) that skips the
    // timed launches does not compare an unwritten result.
    let off = LaunchOptions {
        checks: CheckOptions::off(),
        ..LaunchOptions::default()
    };
    program.launch("vadd", args, dispatch, &off).unwrap();
    assert!(dc
        .to_vec()
        .iter()
        .zip(a.iter().zip(&b))
        .all(|(c, (a, b))| *c == a + b));
    let mut g = c.benchmark_group("vector_add_16M");
    g.sample_size(10);
    g.throughput(Throughput::Elements(N as u64));
    let mut host = vec![0f32; N];
    g.bench_function("rust_loop", |bench| {
        bench.iter(|| {
            for ((c, a), b) in host.iter_mut().zip(&a).zip(&b) {
                *c = *a + *b;
            }
            std::hint::black_box(&host);
        })
    });
    for (name, threads, tier) in [
        ("emulator_1_thread", Some(1), TierMode::Hot),
        ("emulator_1_thread_interpreter", Some(1), TierMode::Off),
        ("emulator_all_threads", None, TierMode::Hot),
    ] {
        let options = LaunchOptions {
            threads,
            checks: CheckOptions::off(),
            tier,
            ..LaunchOptions::default()
        };
        g.bench_function(name, |bench| {
            bench.iter(|| program.launch("vadd", args, dispatch, &options).unwrap())
        });
    }
    g.finish();
}

/// Iterations of the checks kernel's loop.
const CHECK_ITERATIONS: u32 = 100;

/// Each iteration: every lane writes its dword of LDS, a barrier, reads
/// its neighbour's (another wave's at the wave edges), a barrier, a
/// global load, and some VALU work.
fn checks_source() -> String {
    format!(
        r#"
.gallium
.gpu tonga
.kernel mixed
    .args
        .arg out, global, 8
        .arg griddim
        .arg gridoffset
    .config
        .dims x
        .tgsize
        .localsize 1024
.text
mixed:
    s_load_dwordx2 s[6:7], s[0:1], 0x24
    s_movk_i32 s8, {CHECK_ITERATIONS}
    s_mov_b32 m0, -1
    v_lshlrev_b32 v1, 2, v0
    v_add_u32 v2, vcc, 4, v1
    v_and_b32 v2, 0x3ff, v2
    v_mov_b32 v3, 1.0
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v5, s7
    v_add_u32 v4, vcc, s6, v1
    v_addc_u32 v5, vcc, v5, 0, vcc
loop:
    ds_write_b32 v1, v3
    s_waitcnt lgkmcnt(0)
    s_barrier
    ds_read_b32 v6, v2
    flat_load_dword v7, v[4:5]
    s_waitcnt vmcnt(0) & lgkmcnt(0)
    v_add_f32 v3, v3, v6
    v_fma_f32 v3, v3, 0.5, v7
    v_fma_f32 v3, v3, 0.5, v7
    v_fma_f32 v3, v3, 0.5, v7
    s_barrier
    s_sub_u32 s8, s8, 1
    s_cmp_lg_u32 s8, 0
    s_cbranch_scc1 loop
    flat_store_dword v[4:5], v3
    s_endpgm
"#
    )
}

fn checks(c: &mut Criterion) {
    let memory = Memory::default();
    let program = load(&memory, &checks_source());
    let groups = 16u32;
    let out = memory.buffer_zeroed::<f32>(groups as usize * 256).unwrap();
    let dispatch = Dispatch::new_1d(groups * 256, 256);
    let args = [ArgValue::Pointer(out.ptr())];
    let options = |checks: CheckOptions| LaunchOptions {
        threads: Some(1),
        checks,
        ..LaunchOptions::default()
    };
    let stats = program
        .launch("mixed", &args, &dispatch, &options(CheckOptions::default()))
        .expect("the checks kernel passes every check");
    let mut g = c.benchmark_group("checks");
    g.sample_size(10);
    g.throughput(Throughput::Elements(stats.instructions));
    let mut variants = vec![("off".to_string(), CheckOptions::off())];
    for check in Check::ALL {
        let mut o = CheckOptions::off();
        o.set(check, Level::Error);
        variants.push((check.name().to_string(), o));
    }
    variants.push(("all".to_string(), CheckOptions::default()));
    for (name, o) in variants {
        let o = options(o);
        g.bench_function(name, |b| {
            b.iter(|| program.launch("mixed", &args, &dispatch, &o).unwrap())
        });
    }
    g.finish();
}

/// The vector add over 16 M floats on one thread with every check off and
/// with every check on: `gcnrun --threads 1` of the same kernel and sizes
/// gives the same ratio.
fn checks_streaming(c: &mut Criterion) {
    let a: Vec<f32> = (0..N).map(|i| i as f32).collect();
    let vadd = Vadd::new(&a, &a);
    let (program, args, dispatch) = (&vadd.program, &vadd.args[..], &vadd.dispatch);
    let options = |checks: CheckOptions| LaunchOptions {
        threads: Some(1),
        checks,
        ..LaunchOptions::default()
    };
    program
        .launch("vadd", args, dispatch, &options(CheckOptions::default()))
        .expect("the vector add passes every check");
    let mut g = c.benchmark_group("checks_streaming");
    g.sample_size(10);
    g.throughput(Throughput::Elements(N as u64));
    for (name, checks) in [
        ("vadd_16M_off", CheckOptions::off()),
        ("vadd_16M_all", CheckOptions::default()),
    ] {
        let o = options(checks);
        g.bench_function(name, |b| {
            b.iter(|| program.launch("vadd", args, dispatch, &o).unwrap())
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    alu,
    alu_wave_sizes,
    vector_add,
    checks,
    checks_streaming
);
criterion_main!(benches);
