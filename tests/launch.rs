//! The launch API end to end: typed arguments through `gcn_kernel!`,
//! argument, load and dispatch errors, faults with everything they name,
//! host threads, 2-D/3-D grids, partial EXEC, barriers through LDS, the
//! global offset, and the launch builder with its typed trace changes and
//! per-instruction profile.

use gcn_asm::GcnVersion;
use gcn_runtime::gcn_asm::isa::Encoding;
use gcn_runtime::kernel::{ArgError, ArgValue, Dispatch, LocalMemory};
use gcn_runtime::program::LoadError;
use gcn_runtime::FaultKind;
use gcn_runtime::{
    Check, CheckOptions, ExecError, LaunchArgs, LaunchError, LaunchOptions, LaunchStats, Memory,
    Program, TraceChange, TraceFilter, TraceRecord,
};

/// y[i] = a * x[i] + y[i] on GCN 1.2, `a` by value.
mod axpy {
    gcn_runtime::gcn_kernel! {
        .gallium
        .gpu tonga
        .kernel axpy
            .args
                .arg a, scalar, 4          // float a (bits)
                .arg x, global, 8          // const float* x
                .arg y, global, 8          // float* y
                .arg griddim
                .arg gridoffset
            .config
                .dims x
        .text
        axpy:
            s_load_dword     s2, s[0:1], 0x18       // local size x
            s_load_dword     s3, s[0:1], 0x24       // a
            s_load_dwordx2   s[8:9], s[0:1], 0x2c   // x (8-aligned from byte 36)
            s_load_dwordx2   s[10:11], s[0:1], 0x34 // y
            s_waitcnt        lgkmcnt(0)
            s_mul_i32        s2, s2, s4
            v_add_u32        v0, vcc, s2, v0
            v_lshlrev_b32    v0, 2, v0
            v_mov_b32        v1, s9
            v_add_u32        v2, vcc, s8, v0
            v_addc_u32       v3, vcc, 0, v1, vcc
            v_mov_b32        v1, s11
            v_add_u32        v4, vcc, s10, v0
            v_addc_u32       v5, vcc, 0, v1, vcc
            flat_load_dword  v6, v[2:3]
            flat_load_dword  v7, v[4:5]
            s_waitcnt        vmcnt(0) & lgkmcnt(0)
            v_fma_f32        v7, s3, v6, v7
            flat_store_dword v[4:5], v7
            s_endpgm
    }
}

fn memory_and(kernel: &gcn_runtime::kernel::Kernel) -> (Memory, Program) {
    let memory = Memory::default();
    let program = Program::from_kernel(&memory, kernel).unwrap();
    (memory, program)
}

#[test]
fn typed_arguments_through_gcn_kernel() {
    let (memory, program) = memory_and(&axpy::AXPY);
    assert_eq!(program.version(), GcnVersion::Gcn1_2);
    let x: Vec<f32> = (0..1024).map(|i| i as f32).collect();
    let y0: Vec<f32> = (0..1024).map(|i| 1.0 - i as f32 * 0.5).collect();
    let dx = memory.buffer_from_slice(&x).unwrap();
    let dy = memory.buffer_from_slice(&y0).unwrap();
    let args = axpy::AxpyArgs {
        a: 3.0f32.to_bits(),
        x: dx.ptr(),
        y: dy.ptr(),
    };
    let stats = program
        .launch_args(
            &args,
            &Dispatch::new_1d(1024, 128),
            &LaunchOptions::default(),
        )
        .unwrap();
    // 3 * i + 1 - i/2: exact in f32 for these values.
    let expected: Vec<f32> = (0..1024).map(|i| 1.0 + 2.5 * i as f32).collect();
    assert_eq!(dy.to_vec(), expected);
    assert_eq!((stats.work_groups, stats.waves), (8, 16));
    // 20 instructions per wave, 9 of them VALU over 64 lanes.
    assert_eq!(stats.instructions, 16 * 20);
    assert_eq!(stats.lane_ops, 1024 * 9);
}

#[test]
fn wrong_argument_values_are_arg_errors() {
    let (memory, program) = memory_and(&axpy::AXPY);
    let buf = memory.buffer_zeroed::<f32>(64).unwrap();
    let d = Dispatch::new_1d(64, 64);
    let o = LaunchOptions::default();
    let p = ArgValue::Pointer(buf.ptr());
    let four = ArgValue::Scalar(vec![0; 4]);
    let launch = |values: &[ArgValue]| program.launch("axpy", values, &d, &o).unwrap_err();
    // A pointer where a scalar goes.
    match launch(&[p.clone(), p.clone(), p.clone()]) {
        LaunchError::Args(ArgError::Mismatch {
            index,
            name,
            message,
        }) => {
            assert_eq!((index, name), (0, "a"));
            assert!(
                message.contains("a scalar argument cannot take a device pointer"),
                "{message}"
            );
        }
        e => panic!("{e:?}"),
    }
    // A scalar where a pointer goes.
    match launch(&[four.clone(), four.clone(), p.clone()]) {
        LaunchError::Args(ArgError::Mismatch {
            index: 1,
            name: "x",
            ..
        }) => {}
        e => panic!("{e:?}"),
    }
    // The wrong size.
    match launch(&[ArgValue::Scalar(vec![0; 2]), p.clone(), p.clone()]) {
        LaunchError::Args(ArgError::Mismatch {
            index: 0, message, ..
        }) => {
            assert!(
                message.contains("2 bytes given for a 4-byte scalar"),
                "{message}"
            )
        }
        e => panic!("{e:?}"),
    }
    // A local size where a pointer goes.
    match launch(&[four.clone(), ArgValue::Local(LocalMemory(4)), p.clone()]) {
        LaunchError::Args(ArgError::Mismatch { index: 1, .. }) => {}
        e => panic!("{e:?}"),
    }
    // Too few, too many.
    assert_eq!(
        launch(&[four.clone(), p.clone()]),
        LaunchError::Args(ArgError::MissingValue {
            index: 2,
            name: "y"
        })
    );
    assert_eq!(
        launch(&[four.clone(), p.clone(), p.clone(), p.clone()]),
        LaunchError::Args(ArgError::TooManyValues {
            expected: 3,
            given: 4
        })
    );
    // Nothing ran.
    assert_eq!(buf.to_vec(), vec![0.0; 64]);
}

#[test]
fn unknown_kernel_is_a_load_error() {
    let (_memory, program) = memory_and(&axpy::AXPY);
    let e = program
        .launch(
            "axpz",
            &[],
            &Dispatch::new_1d(64, 64),
            &LaunchOptions::default(),
        )
        .unwrap_err();
    assert_eq!(
        e,
        LaunchError::Load(LoadError::NoKernel {
            name: "axpz".into(),
            available: vec!["axpy".into()],
        })
    );
    assert_eq!(
        e.to_string(),
        "no kernel named 'axpz'; did you mean `axpy`? (the binary has: axpy)"
    );
}

#[test]
fn dispatch_errors() {
    let (memory, program) = memory_and(&axpy::AXPY);
    let buf = memory.buffer_zeroed::<f32>(4096).unwrap();
    let args = axpy::AxpyArgs {
        a: 0,
        x: buf.ptr(),
        y: buf.ptr(),
    };
    let o = LaunchOptions::default();
    match program.launch_args(&args, &Dispatch::new_1d(100, 64), &o) {
        Err(LaunchError::Args(ArgError::BadDispatch(m))) => {
            assert_eq!(
                m,
                "global size 100 is not a multiple of local size 64 in dimension 0"
            )
        }
        r => panic!("{r:?}"),
    }
    match program.launch_args(&args, &Dispatch::new(2, [64, 64, 1], [64, 32, 1]), &o) {
        Err(LaunchError::Dispatch(m)) => {
            assert!(
                m.contains("64×32×1 = 2048 work-items is larger than 1024"),
                "{m}"
            )
        }
        r => panic!("{r:?}"),
    }
    // 1024 itself is fine (16 waves).
    let stats = program
        .launch_args(&args, &Dispatch::new_1d(1024, 1024), &o)
        .unwrap();
    assert_eq!((stats.work_groups, stats.waves), (1, 16));
}

/// Kernels that fault, loaded from source at run time.
const FAULTS: &str = r#"
.gallium
.gpu tonga
.kernel oob
    .args
        .arg out, global, 8
    .config
        .dims x
.kernel interp
    .config
        .dims x
.kernel trap
    .config
        .dims x
.kernel spin
    .config
        .dims x
.text
oob:                                    # out[global id] = global id
    s_load_dword     s2, s[0:1], 0x18
    s_load_dwordx2   s[6:7], s[0:1], 0x24
    s_waitcnt        lgkmcnt(0)
    s_mul_i32        s2, s2, s4
    v_add_u32        v0, vcc, s2, v0
    v_lshlrev_b32    v1, 2, v0
    v_mov_b32        v3, s7
    v_add_u32        v2, vcc, s6, v1
    v_addc_u32       v3, vcc, 0, v3, vcc
    flat_store_dword v[2:3], v0
    s_endpgm
interp:
    s_mov_b32        m0, 0
    v_interp_p1_f32  v1, v0, attr0.x     # graphics only: not emulated
    s_endpgm
trap:
    s_nop            0
    s_trap           5
    s_endpgm
spin:
    s_nop            0
loop:
    s_branch         loop
"#;

fn faults() -> (Memory, Program) {
    let binary = gcn_asm::assemble(FAULTS, &gcn_asm::AssembleOptions::default())
        .unwrap()
        .gallium_bytes()
        .unwrap();
    let memory = Memory::default();
    let program = Program::load(&memory, &binary, GcnVersion::Gcn1_2).unwrap();
    (memory, program)
}

fn exec_error(r: Result<LaunchStats, LaunchError>) -> ExecError {
    match r {
        Err(LaunchError::Exec(e)) => *e,
        r => panic!("expected a fault, got {r:?}"),
    }
}

/// Byte offset of `label` in `.text`.
fn offset_of(program: &Program, kernel: &str) -> u32 {
    program.kernel(kernel).unwrap().offset
}

#[test]
fn out_of_bounds_store_is_an_oob_error_and_completes() {
    let (memory, program) = faults();
    // 200 dwords (800 bytes, mapped in one 4 KiB page); 256 items in groups
    // of 64: group 3 (items 192..255), wave 0, lanes 8-63 (items 200..255)
    // store past the end, inside the page: on a GPU the run completes.
    let out = memory.buffer_zeroed::<u32>(200).unwrap();
    let o = LaunchOptions {
        threads: Some(1),
        ..LaunchOptions::default()
    };
    let reports = match program.launch(
        "oob",
        &[ArgValue::Pointer(out.ptr())],
        &Dispatch::new_1d(256, 64),
        &o,
    ) {
        Err(LaunchError::Check(reports)) => reports,
        other => panic!("expected an oob error, got {other:?}"),
    };
    assert_eq!(reports.len(), 1, "{reports:#?}");
    let r = &reports[0];
    assert_eq!(r.check, gcn_runtime::check::Check::Oob);
    assert_eq!(r.group, [3, 0, 0]);
    assert_eq!(r.wave, 0);
    // After two 8-byte SMEM loads and seven 4-byte instructions.
    assert_eq!(r.pc, offset_of(&program, "oob") + 2 * 8 + 7 * 4);
    assert_eq!(r.lanes, Some(u64::MAX << 8));
    assert_eq!(
        r.message,
        format!(
            "writes 4 bytes at {:#x}, 0 bytes past the end of the 800-byte allocation at {:#x} (argument 0)",
            out.ptr().0 + 800,
            out.ptr().0
        )
    );
    let text = r.to_string();
    assert!(text.starts_with("kernel 'oob' pc 0x"), "{text}");
    assert!(
        text.contains(": error[oob]: `flat_store_dword v[2:3], v0` writes 4 bytes at 0x"),
        "{text}"
    );
    assert!(
        text.ends_with("[wave 0 of group (3, 0, 0), lanes 8–63]"),
        "{text}"
    );
    assert_eq!(out.to_vec(), (0..200).collect::<Vec<u32>>());
}

#[test]
fn store_outside_every_page_names_lane_and_address() {
    let (memory, program) = faults();
    // 200 dwords mapped in one 4 KiB page; 1280 items in groups of 64:
    // group 16 (items 1024..1087), wave 0, lane 0 (item 1024) is the first
    // store past the page.
    let out = memory.buffer_zeroed::<u32>(200).unwrap();
    let o = LaunchOptions {
        threads: Some(1),
        checks: gcn_runtime::CheckOptions::off(),
        ..LaunchOptions::default()
    };
    let e = exec_error(program.launch(
        "oob",
        &[ArgValue::Pointer(out.ptr())],
        &Dispatch::new_1d(1280, 64),
        &o,
    ));
    assert_eq!(e.kernel, "oob");
    assert_eq!(e.group, [16, 0, 0]);
    assert_eq!(e.wave, 0);
    assert_eq!(e.pc, offset_of(&program, "oob") + 2 * 8 + 7 * 4);
    assert_eq!(e.instruction, "flat_store_dword v[2:3], v0");
    assert_eq!(e.lane, Some(0));
    match &e.kind {
        FaultKind::Memory(m) => {
            assert_eq!(m.address, out.ptr().0 + 4096);
            assert_eq!(m.size, 4);
        }
        k => panic!("{k:?}"),
    }
    // memcheck style: the buffer the stray address is nearest to.
    assert_eq!(
        e.note.as_deref(),
        Some(
            format!(
                "3296 bytes past the end of the 800-byte allocation at {:#x} (argument 0)",
                out.ptr().0
            )
            .as_str()
        )
    );
    let text = e.to_string();
    assert!(
        text.starts_with("kernel 'oob', work-group (16, 0, 0), wave 0, pc 0x"),
        "{text}"
    );
    assert!(
        text.contains("`flat_store_dword v[2:3], v0`, lane 0: memory fault"),
        "{text}"
    );
    // The groups before it ran (their stray stores landed in the slack).
    assert_eq!(out.to_vec(), (0..200).collect::<Vec<u32>>());
}

#[test]
fn instruction_not_emulated_is_named() {
    let (_memory, program) = faults();
    let e = exec_error(program.launch(
        "interp",
        &[],
        &Dispatch::new_1d(64, 64),
        &LaunchOptions::default(),
    ));
    assert_eq!(e.kernel, "interp");
    assert_eq!(e.pc, offset_of(&program, "interp") + 4);
    assert!(
        e.instruction.starts_with("v_interp_p1_f32"),
        "{}",
        e.instruction
    );
    match &e.kind {
        FaultKind::Gap {
            instruction,
            reason,
        } => assert!(
            *instruction == "v_interp_p1_f32" && reason.starts_with("graphics-only"),
            "{instruction}: {reason}"
        ),
        k => panic!("{k:?}"),
    }
    assert!(e.to_string().contains("is not emulated"), "{e}");
}

#[test]
fn s_trap_stops_the_dispatch() {
    let (_memory, program) = faults();
    let e = exec_error(program.launch(
        "trap",
        &[],
        &Dispatch::new_1d(64, 64),
        &LaunchOptions::default(),
    ));
    assert_eq!(e.kind, FaultKind::Trap(5));
    assert_eq!(e.pc, offset_of(&program, "trap") + 4);
    assert_eq!(e.lane, None);
    assert_eq!((e.group, e.wave), ([0, 0, 0], 0));
}

#[test]
fn a_runaway_loop_spends_the_step_budget() {
    let (_memory, program) = faults();
    let o = LaunchOptions {
        max_steps: 1000,
        threads: None,
        ..LaunchOptions::default()
    };
    let e = exec_error(program.launch("spin", &[], &Dispatch::new_1d(64, 64), &o));
    assert_eq!(e.kind, FaultKind::StepBudget(1000));
    assert_eq!(e.pc, offset_of(&program, "spin") + 4);
    assert!(e.instruction.starts_with("s_branch"), "{}", e.instruction);
    assert!(
        e.to_string()
            .contains("ran 1000 instructions, its step budget (a runaway loop? raise the budget"),
        "{e}"
    );
    // The budget is spent in slices (the clock is looked at between them):
    // a budget over several slices still stops exactly there.
    let o = LaunchOptions {
        max_steps: 3 << 20 | 5,
        threads: Some(1),
        checks: gcn_runtime::CheckOptions::off(),
        ..LaunchOptions::default()
    };
    let e = exec_error(program.launch("spin", &[], &Dispatch::new_1d(64, 64), &o));
    assert_eq!(e.kind, FaultKind::StepBudget(3 << 20 | 5));
}

#[test]
fn a_time_limit_stops_a_runaway_dispatch() {
    let (_memory, program) = faults();
    let o = LaunchOptions {
        max_steps: u64::MAX,
        timeout: Some(std::time::Duration::from_millis(200)),
        checks: gcn_runtime::CheckOptions::off(),
        ..LaunchOptions::default()
    };
    let e = exec_error(program.launch("spin", &[], &Dispatch::new_1d(256, 64), &o));
    assert_eq!(
        e.kind,
        FaultKind::Timeout(std::time::Duration::from_millis(200))
    );
    assert!(e.to_string().contains("time limit of 0.2 s"), "{e}");
}

#[test]
fn a_jump_out_of_the_code_says_so() {
    let source = ".gallium\n.gpu tonga\n.kernel k\n .config\n  .dims x\n.text\nk:\n    s_getpc_b64 s[2:3]\n    s_add_u32 s2, s2, 0x1000\n    s_setpc_b64 s[2:3]\n    s_endpgm\n";
    let binary = gcn_asm::assemble(source, &gcn_asm::AssembleOptions::default())
        .unwrap()
        .gallium_bytes()
        .unwrap();
    let memory = Memory::default();
    let program = Program::load(&memory, &binary, GcnVersion::Gcn1_2).unwrap();
    let e = exec_error(program.launch(
        "k",
        &[],
        &Dispatch::new_1d(64, 64),
        &LaunchOptions::default(),
    ));
    assert!(matches!(e.kind, FaultKind::OutsideCode { .. }), "{e}");
    assert!(e.to_string().contains("is outside the code"), "{e}");
}

/// out[i] = i * 0x9e3779b1 + group id: no two work-items touch the same
/// word.
mod hash {
    gcn_runtime::gcn_kernel! {
        .gallium
        .gpu bonaire
        .kernel hash
            .args
                .arg out, global, 8
                .arg griddim
                .arg gridoffset
            .config
                .dims x
        .text
        hash:
            s_load_dword     s2, s[0:1], 6          // GCN 1.1: dword offsets
            s_load_dwordx2   s[8:9], s[0:1], 9
            s_waitcnt        lgkmcnt(0)
            s_mul_i32        s2, s2, s4
            v_add_i32        v0, vcc, s2, v0        // global id
            s_mov_b32        s3, 0x9e3779b1
            v_mul_lo_u32     v1, v0, s3
            v_add_i32        v1, vcc, s4, v1
            v_lshlrev_b32    v2, 2, v0
            v_mov_b32        v3, s9
            v_add_i32        v2, vcc, s8, v2
            v_addc_u32       v3, vcc, 0, v3, vcc
            flat_store_dword v[2:3], v1
            s_endpgm
    }
}

#[test]
fn one_thread_and_many_threads_agree() {
    let (memory, program) = memory_and(&hash::HASH);
    let n = 64 * 1024u32;
    let expected: Vec<u32> = (0..n)
        .map(|i| i.wrapping_mul(0x9e37_79b1).wrapping_add(i / 64))
        .collect();
    let mut stats = Vec::new();
    for threads in [Some(1), Some(3), None] {
        let out = memory
            .buffer_filled::<u32>(n as usize, 0xdead_beef)
            .unwrap();
        let o = LaunchOptions {
            threads,
            ..LaunchOptions::default()
        };
        let s = program
            .launch_args(
                &hash::HashArgs { out: out.ptr() },
                &Dispatch::new_1d(n, 64),
                &o,
            )
            .unwrap();
        assert_eq!(out.to_vec(), expected, "{threads:?} threads");
        stats.push((s.work_groups, s.waves, s.instructions, s.lane_ops));
    }
    assert_eq!(stats[0], (1024, 1024, 1024 * 14, 64 * 1024 * 7));
    assert!(stats.iter().all(|s| *s == stats[0]), "{stats:?}");
}

/// For every work-item, at its linear global index: the work-group id
/// (x | y << 8 | z << 16) in `groups` and the local id in `locals`.
mod ids {
    gcn_runtime::gcn_kernel! {
        .gallium
        .gpu gfx900
        .kernel ids
            .args
                .arg groups, global, 8
                .arg locals, global, 8
                .arg griddim
                .arg gridoffset
            .config
                .dims xyz
        .text
        ids:
            s_load_dwordx8   s[8:15], s[0:1], 0x0c  // global x y z, local x y z, groups
            s_load_dwordx2   s[16:17], s[0:1], 0x2c // locals
            s_waitcnt        lgkmcnt(0)
            s_mul_i32        s18, s4, s11
            v_add_co_u32     v3, vcc, s18, v0       // global x
            s_mul_i32        s19, s5, s12
            v_add_co_u32     v4, vcc, s19, v1       // global y
            s_mul_i32        s20, s6, s13
            v_add_co_u32     v5, vcc, s20, v2       // global z
            v_mul_lo_u32     v6, v5, s9
            v_add_co_u32     v6, vcc, v6, v4
            v_mul_lo_u32     v6, v6, s8
            v_add_co_u32     v6, vcc, v6, v3        // (z * GY + y) * GX + x
            v_lshlrev_b32    v6, 2, v6
            s_lshl_b32       s21, s5, 8
            s_or_b32         s21, s21, s4
            s_lshl_b32       s22, s6, 16
            s_or_b32         s21, s21, s22
            v_mov_b32        v7, s21                // group id, packed
            v_lshlrev_b32    v8, 8, v1
            v_add_co_u32     v8, vcc, v8, v0
            v_lshlrev_b32    v9, 16, v2
            v_add_co_u32     v8, vcc, v8, v9        // local id, packed
            v_mov_b32        v1, s15
            v_add_co_u32     v10, vcc, s14, v6
            v_addc_co_u32    v11, vcc, 0, v1, vcc
            flat_store_dword v[10:11], v7
            v_mov_b32        v1, s17
            v_add_co_u32     v10, vcc, s16, v6
            v_addc_co_u32    v11, vcc, 0, v1, vcc
            flat_store_dword v[10:11], v8
            s_endpgm
    }
}

fn check_ids(dims: u32, global: [u32; 3], local: [u32; 3]) -> LaunchStats {
    let (memory, program) = memory_and(&ids::IDS);
    let n = (global[0] * global[1] * global[2]) as usize;
    let groups = memory.buffer_filled::<u32>(n, u32::MAX).unwrap();
    let locals = memory.buffer_filled::<u32>(n, u32::MAX).unwrap();
    let stats = program
        .launch_args(
            &ids::IdsArgs {
                groups: groups.ptr(),
                locals: locals.ptr(),
            },
            &Dispatch::new(dims, global, local),
            &LaunchOptions::default(),
        )
        .unwrap();
    let (g, l) = (groups.to_vec(), locals.to_vec());
    for z in 0..global[2] {
        for y in 0..global[1] {
            for x in 0..global[0] {
                let i = ((z * global[1] + y) * global[0] + x) as usize;
                let tg = (x / local[0]) | ((y / local[1]) << 8) | ((z / local[2]) << 16);
                let lid = (x % local[0]) | ((y % local[1]) << 8) | ((z % local[2]) << 16);
                assert_eq!((g[i], l[i]), (tg, lid), "item ({x}, {y}, {z})");
            }
        }
    }
    stats
}

#[test]
fn two_dimensional_grid() {
    // The kernel is set up for three dimensions (`.dims xyz`): a flat third
    // dimension.
    let s = check_ids(3, [12, 10, 1], [4, 5, 1]);
    assert_eq!((s.work_groups, s.waves), (6, 6));
}

#[test]
fn fewer_dimensions_than_the_kernel_enables_run_with_size_1_and_id_0() {
    // The kernel is set up for three dimensions (`.dims xyz`); OpenCL's
    // work_dim may be smaller than what a kernel can address, and the
    // hardware, Clover and ROCm run such a dispatch: the unused dimensions
    // have one group of one item, ids 0.
    let s = check_ids(1, [128, 1, 1], [64, 1, 1]);
    assert_eq!((s.work_groups, s.waves), (2, 2));
    let s = check_ids(2, [8, 8, 1], [8, 8, 1]);
    assert_eq!((s.work_groups, s.waves), (1, 1));
}

#[test]
fn three_dimensional_grid() {
    // 6×4×3 = 72 items per group: 2 waves, the second with 8 lanes.
    let s = check_ids(3, [12, 8, 6], [6, 4, 3]);
    assert_eq!((s.work_groups, s.waves), (8, 16));
    // 19 VALU instructions for each of the 8 × 72 items.
    assert_eq!(s.lane_ops, 8 * 72 * 19);
}

#[test]
fn partial_exec_in_the_last_wave() {
    let (memory, program) = memory_and(&hash::HASH);
    for (global, local, waves) in [(300u32, 100u32, 6u64), (192, 48, 4)] {
        // Exactly `global` words: a lane past the local size that stored
        // would overwrite a neighbour or fault past the end.
        let out = memory.buffer_filled::<u32>(global as usize, 7).unwrap();
        let s = program
            .launch_args(
                &hash::HashArgs { out: out.ptr() },
                &Dispatch::new_1d(global, local),
                &LaunchOptions::default(),
            )
            .unwrap();
        let expected: Vec<u32> = (0..global)
            .map(|i| i.wrapping_mul(0x9e37_79b1).wrapping_add(i / local))
            .collect();
        assert_eq!(out.to_vec(), expected, "local size {local}");
        assert_eq!(s.waves, waves);
        // Lane operations count active lanes only.
        assert_eq!(s.lane_ops, u64::from(global) * 7);
    }
}

/// Reverses each work-group's ids through LDS across 4 waves:
/// tmp[lid] = lid; barrier; out[gid] = tmp[255 - lid] + 1000 * group.
mod reverse {
    gcn_runtime::gcn_kernel! {
        .gallium
        .gpu pitcairn
        .kernel reverse
            .args
                .arg out, global, 8
                .arg pad, local, 4
                .arg tmp, local, 4
                .arg griddim
                .arg gridoffset
            .config
                .dims x
        .text
        reverse:
            s_load_dwordx2   s[8:9], s[0:1], 9      // out
            s_load_dword     s3, s[0:1], 12         // tmp: offset in LDS
            s_waitcnt        lgkmcnt(0)
            s_mov_b32        m0, -1
            v_lshlrev_b32    v1, 2, v0
            v_add_i32        v2, vcc, s3, v1
            ds_write_b32     v2, v0                 // tmp[lid] = lid
            s_waitcnt        lgkmcnt(0)
            s_barrier
            s_add_u32        s5, s3, 255 * 4
            v_mul_lo_u32     v3, v0, -4
            v_add_i32        v3, vcc, s5, v3
            ds_read_b32      v4, v3                 // tmp[255 - lid]
            s_mul_i32        s6, s4, 1000
            s_waitcnt        lgkmcnt(0)
            v_add_i32        v4, vcc, s6, v4
            s_lshl_b32       s7, s4, 10             // group * 256 * 4
            v_add_i32        v1, vcc, s7, v1
            v_mov_b32        v2, 0                  // high half of the offset
            s_mov_b32        s10, -1
            s_mov_b32        s11, 0x27fac
            buffer_store_dword v4, v[1:2], s[8:11], 0 addr64
            s_endpgm
    }
}

#[test]
fn barrier_across_waves_through_lds() {
    let (memory, program) = memory_and(&reverse::REVERSE);
    let out = memory.buffer_zeroed::<u32>(1024).unwrap();
    let s = program
        .launch_args(
            &reverse::ReverseArgs {
                out: out.ptr(),
                pad: LocalMemory(64),
                tmp: LocalMemory(1024),
            },
            &Dispatch::new_1d(1024, 256),
            &LaunchOptions::default(),
        )
        .unwrap();
    let expected: Vec<u32> = (0..1024u32)
        .map(|i| (255 - i % 256) + 1000 * (i / 256))
        .collect();
    assert_eq!(out.to_vec(), expected);
    assert_eq!((s.work_groups, s.waves), (4, 16));
    // Too little local memory for `tmp`: 576 bytes declared, 1024
    // allocated (whole 512-byte granules). The writes past the declared
    // bytes land in the granule, as on hardware, and the `oob` check
    // reports the first, naming wave 2 (items 128..191 write bytes 576..)
    // and its lanes.
    let e = program
        .launch_args(
            &reverse::ReverseArgs {
                out: out.ptr(),
                pad: LocalMemory(64),
                tmp: LocalMemory(512),
            },
            &Dispatch::new_1d(256, 256),
            &LaunchOptions::default(),
        )
        .unwrap_err();
    let LaunchError::Check(reports) = e else {
        panic!("expected an oob report, got {e}");
    };
    let r = &reports[0];
    assert_eq!((r.check, r.wave), (Check::Oob, 2), "{r}");
    assert!(
        r.message
            .contains("at LDS byte 0x240, past the 576 bytes of LDS the work-group declared"),
        "{r}"
    );
}

/// out[global id - offset] = global id, where global id includes the
/// global offset (`gridoffset`).
mod offset {
    gcn_runtime::gcn_kernel! {
        .gallium
        .gpu tonga
        .kernel offset
            .args
                .arg out, global, 8
                .arg griddim
                .arg gridoffset
            .config
                .dims x
        .text
        offset:
            s_load_dword     s2, s[0:1], 0x18       // local size x
            s_load_dwordx2   s[6:7], s[0:1], 0x24   // out
            s_load_dword     s3, s[0:1], 0x30       // global offset x
            s_waitcnt        lgkmcnt(0)
            s_mul_i32        s2, s2, s4
            v_add_u32        v0, vcc, s2, v0        // index in the grid
            v_add_u32        v4, vcc, s3, v0        // global id
            v_lshlrev_b32    v1, 2, v0
            v_mov_b32        v3, s7
            v_add_u32        v2, vcc, s6, v1
            v_addc_u32       v3, vcc, 0, v3, vcc
            flat_store_dword v[2:3], v4
            s_endpgm
    }
}

#[test]
fn global_offset() {
    let (memory, program) = memory_and(&offset::OFFSET);
    let out = memory.buffer_zeroed::<u32>(256).unwrap();
    let input = gcn_runtime::kernel::KernelArgs::write_input(
        &offset::OffsetArgs { out: out.ptr() },
        &Dispatch::new_1d(256, 64).with_offset([1000, 7, 9]),
    )
    .unwrap();
    // griddim at 0x2c, gridoffset at 0x30.
    assert_eq!(
        input.bytes[0x2c..0x3c],
        [1, 0, 0, 0, 0xe8, 3, 0, 0, 7, 0, 0, 0, 9, 0, 0, 0]
    );
    program
        .launch_args(
            &offset::OffsetArgs { out: out.ptr() },
            &Dispatch::new_1d(256, 64).with_offset([1000, 7, 9]),
            &LaunchOptions::default(),
        )
        .unwrap();
    assert_eq!(out.to_vec(), (1000..1256).collect::<Vec<u32>>());
}

/// A kernel that uses its load's result before `s_waitcnt` (and, given a
/// pointer near the end of a page, loads past it): the report and the fault cite these
/// lines of this file.
mod late {
    gcn_runtime::gcn_kernel! {
        .gallium
        .gpu tonga
        .kernel late
            .args
                .arg out, global, 8
            .config
                .dims x
        .text
        late:
            s_load_dwordx2   s[8:9], s[0:1], 0x24
            s_waitcnt        lgkmcnt(0)
            v_lshlrev_b32    v0, 2, v0
            v_mov_b32        v1, s9
            v_add_u32        v2, vcc, s8, v0
            v_addc_u32       v3, vcc, 0, v1, vcc
            flat_load_dword  v4, v[2:3]
            v_add_f32        v5, v4, v4
            flat_store_dword v[2:3], v5
            s_endpgm
    }
}

#[test]
fn reports_and_faults_cite_the_rs_lines() {
    // The lines of `flat_load_dword` and `v_add_f32` above, and the
    // column of their mnemonics (13, after 12 spaces).
    let (load, add) = (line!() - 11, line!() - 10);
    let (memory, program) = memory_and(&late::LATE);
    let out = memory.buffer_zeroed::<u32>(64).unwrap();
    let err = program
        .launch_args(
            &late::LateArgs { out: out.ptr() },
            &Dispatch::new_1d(64, 64),
            &LaunchOptions::default(),
        )
        .unwrap_err();
    let LaunchError::Check(reports) = err else {
        panic!("{err}")
    };
    let file = file!();
    let r = &reports[0];
    assert_eq!(r.location.as_deref(), Some(&*format!("{file}:{add}:13")));
    assert_eq!(
        r.related_location.as_deref(),
        Some(&*format!("{file}:{load}:13"))
    );
    let text = r.to_string();
    assert!(
        text.starts_with(&format!(
            "{file}:{add}:13: error[waitcnt]: `v_add_f32 v5, v4, v4` reads v4"
        )),
        "{text}"
    );
    assert!(text.contains(&format!(" at {file}:{load}:13)")), "{text}");

    // 16 items from 32 bytes before the end of a buffer's (only) page:
    // lane 8 loads past the page.
    let small = memory.buffer_zeroed::<u32>(8).unwrap();
    let e = exec_error(program.launch_args(
        &late::LateArgs {
            out: gcn_runtime::kernel::DevicePtr(small.ptr().0 + 4096 - 32),
        },
        &Dispatch::new_1d(16, 16),
        &LaunchOptions {
            checks: gcn_runtime::CheckOptions::off(),
            ..LaunchOptions::default()
        },
    ));
    assert_eq!(e.location.as_deref(), Some(&*format!("{file}:{load}:13")));
    assert!(
        e.to_string()
            .starts_with(&format!("{file}:{load}:13: kernel 'late'")),
        "{e}"
    );
}

#[test]
fn errors_print_their_message_through_box_dyn_error() {
    // `fn main() -> Result<(), Box<dyn Error>>` prints the error's Debug:
    // the readable message, not a dump of its fields.
    let (_memory, program) = faults();
    let e = program
        .launch(
            "nope",
            &[],
            &Dispatch::new_1d(64, 64),
            &LaunchOptions::default(),
        )
        .unwrap_err();
    let boxed: Box<dyn std::error::Error> = Box::new(e.clone());
    assert_eq!(format!("{boxed:?}"), e.to_string());
    let e = exec_error(program.launch(
        "trap",
        &[],
        &Dispatch::new_1d(64, 64),
        &LaunchOptions::default(),
    ));
    let boxed: Box<dyn std::error::Error> = Box::new(LaunchError::Exec(Box::new(e.clone())));
    assert_eq!(
        format!("{boxed:?}"),
        LaunchError::Exec(Box::new(e)).to_string()
    );
    assert!(!format!("{boxed:?}").contains("ExecError {"));
}

/// axpy over 100 work-items (two groups of 50: waves of 50 lanes).
fn axpy_setup(memory: &Memory) -> (Vec<gcn_runtime::Buffer<f32>>, axpy::AxpyArgs) {
    let x: Vec<f32> = (0..100).map(|i| i as f32).collect();
    let dx = memory.buffer_from_slice(&x).unwrap();
    let dy = memory.buffer_from_slice(&[1.0f32; 100]).unwrap();
    let args = axpy::AxpyArgs {
        a: 2.0f32.to_bits(),
        x: dx.ptr(),
        y: dy.ptr(),
    };
    (vec![dx, dy], args)
}

#[test]
fn the_launcher_takes_typed_arguments_or_values_alike() {
    let (memory, program) = memory_and(&axpy::AXPY);
    let dispatch = Dispatch::new_1d(100, 50);
    let (buffers, args) = axpy_setup(&memory);
    let typed = program.launcher(&args, &dispatch).run().unwrap();
    let expected: Vec<f32> = (0..100).map(|i| 1.0 + 2.0 * i as f32).collect();
    assert_eq!(buffers[1].to_vec(), expected);
    // The same kernel by name and values: the same work, again.
    let values = gcn_runtime::KernelArgs::values(&args);
    let by_name = program
        .launcher(LaunchArgs::new("axpy", &values), &dispatch)
        .options(&LaunchOptions {
            threads: Some(1),
            ..LaunchOptions::default()
        })
        .run()
        .unwrap();
    let expected: Vec<f32> = (0..100).map(|i| 1.0 + 4.0 * i as f32).collect();
    assert_eq!(buffers[1].to_vec(), expected);
    assert_eq!(typed.stats.instructions, by_name.stats.instructions);
    assert_eq!((typed.stats.waves, typed.stats.lane_ops), (2, 100 * 9));
    assert!(typed.reports.is_empty() && typed.profile.is_none());
    // A wrong kernel name is the launch's load error.
    let err = program
        .launcher(LaunchArgs::new("nope", &values), &dispatch)
        .run()
        .unwrap_err();
    assert!(
        matches!(err, LaunchError::Load(LoadError::NoKernel { .. })),
        "{err}"
    );
}

#[test]
fn trace_records_carry_typed_changes() {
    let (memory, program) = memory_and(&axpy::AXPY);
    let (_buffers, args) = axpy_setup(&memory);
    let records = std::sync::Mutex::new(Vec::new());
    let sink = |r: &TraceRecord| records.lock().unwrap().push(r.clone());
    let outcome = program
        .launcher(&args, &Dispatch::new_1d(100, 50))
        .trace(
            TraceFilter {
                group: Some([1, 0, 0]),
                wave: None,
            },
            &sink,
        )
        .run()
        .unwrap();
    let records = records.into_inner().unwrap();
    // Only group 1's wave: its 20 instructions, steps 0..20 in order.
    assert_eq!(records.len(), 20);
    assert!(records.iter().all(|r| r.group == [1, 0, 0] && r.wave == 0));
    assert!(records.iter().enumerate().all(|(i, r)| r.step == i as u64));
    assert_eq!(outcome.stats.instructions, 40);
    // s_mul_i32 s2, s2, s4: local size 50 × group 1.
    let mul = &records[5];
    assert_eq!(mul.instruction, "s_mul_i32 s2, s2, s4");
    // 50 × 1 leaves s2 as it was: still a write, so it is listed, with
    // the same value before and after (an integer: no float type).
    let [TraceChange::Sgpr {
        reg: 2,
        old,
        new,
        float: None,
    }] = &mul.changes[..]
    else {
        panic!("{mul}")
    };
    assert_eq!((old, new), (&50, &50), "{mul}");
    // v_add_u32 v0, vcc, s2, v0: global ids 50..100 in the 50 active
    // lanes, each lane its own value; VCC (no carry) written unchanged.
    let add = &records[6];
    let [TraceChange::Vcc {
        old: vcc_old,
        new: vcc_new,
    }, TraceChange::Vgpr {
        reg: 0,
        lanes,
        float: None,
    }] = &add.changes[..]
    else {
        panic!("{add}")
    };
    assert_eq!(vcc_old, vcc_new, "{add}");
    assert_eq!(lanes.len(), 50);
    assert!(lanes
        .iter()
        .all(|l| l.old == u32::from(l.lane) && l.new == 50 + u32::from(l.lane)));
    assert_eq!(add.changes[0].lane_mask(), 0);
    assert_eq!(add.changes[1].lane_mask(), (1 << 50) - 1);
    assert!(
        add.to_string()
            .ends_with("; vcc=0x0 v0={0:0x32, 1:0x33, 2:0x34, 3:0x35 … 50 lanes}"),
        "{add}"
    );
    // The flat store changes no register.
    assert!(records[18].changes.is_empty(), "{}", records[18]);
}

#[test]
fn trace_changes_of_vcc_exec_m0_and_scc_are_typed() {
    gcn_runtime::gcn_kernel! {
        mod special;
        .gallium
        .gpu tonga
        .kernel special
            .args
                .arg out, global, 8
            .config
                .dims x
        .text
        special:
            s_mov_b32        m0, 0x100
            v_cmp_gt_u32     vcc, 3, v0           // lanes 0-2
            s_and_saveexec_b64 s[10:11], vcc
            s_mov_b64        exec, s[10:11]
            s_cmp_eq_u32     s10, s10
            s_endpgm
    }
    let memory = Memory::default();
    let program = Program::from_kernel(&memory, &special::SPECIAL).unwrap();
    let out = memory.buffer_zeroed::<u32>(1).unwrap();
    let records = std::sync::Mutex::new(Vec::new());
    let sink = |r: &TraceRecord| records.lock().unwrap().push(r.clone());
    program
        .launcher(
            &special::SpecialArgs { out: out.ptr() },
            &Dispatch::new_1d(8, 8),
        )
        .trace(TraceFilter::default(), &sink)
        .run()
        .unwrap();
    let records = records.into_inner().unwrap();
    let changes: Vec<&[TraceChange]> = records.iter().map(|r| &r.changes[..]).collect();
    assert_eq!(changes[0], [TraceChange::M0 { old: 0, new: 0x100 }]);
    assert_eq!(changes[1], [TraceChange::Vcc { old: 0, new: 0b111 }]);
    // s_and_saveexec: s[10:11] = old EXEC (8 lanes), EXEC &= VCC, SCC = 1.
    assert_eq!(
        changes[2],
        [
            TraceChange::Sgpr {
                reg: 10,
                old: 0,
                new: 0xff,
                float: None,
            },
            // Written with the value it had: listed all the same.
            TraceChange::Sgpr {
                reg: 11,
                old: 0,
                new: 0,
                float: None,
            },
            TraceChange::Exec {
                old: 0xff,
                new: 0b111
            },
            TraceChange::Scc {
                old: false,
                new: true
            },
        ]
    );
    assert_eq!(
        changes[3],
        [TraceChange::Exec {
            old: 0b111,
            new: 0xff
        }]
    );
    // SCC was already 1: the compare writes it, so it is listed.
    assert_eq!(
        changes[4],
        [TraceChange::Scc {
            old: true,
            new: true
        }]
    );
    let text = records[2].to_string();
    assert!(
        text.ends_with("; s10=0xff s11=0x0 exec=0x7 scc=1"),
        "{text}"
    );
    assert!(
        records[1].to_string().ends_with("; vcc=0x7"),
        "{}",
        records[1]
    );
}

#[test]
fn the_profile_counts_each_instruction_and_family() {
    let (memory, program) = memory_and(&axpy::AXPY);
    let (_buffers, args) = axpy_setup(&memory);
    let dispatch = Dispatch::new_1d(100, 50);
    let one = LaunchOptions {
        threads: Some(1),
        ..LaunchOptions::default()
    };
    let outcome = program
        .launcher(&args, &dispatch)
        .options(&one)
        .profile(true)
        .run()
        .unwrap();
    let profile = outcome.profile.expect("asked for");
    // Two waves, 20 instructions each, every one run once per wave, with
    // 50 lanes each.
    assert_eq!(profile.total, outcome.stats.instructions);
    assert_eq!(profile.instructions.len(), 20);
    for i in &profile.instructions {
        assert_eq!(
            (i.count, i.lanes, i.average_lanes()),
            (2, 100, 50.0),
            "{i:?}"
        );
        assert_eq!(i.instruction, program.instruction_text(i.pc));
        // gcn_kernel! gives the line table: this file's lines.
        assert!(
            i.location
                .as_deref()
                .is_some_and(|l| l.contains("launch.rs:")),
            "{i:?}"
        );
    }
    // Equal counts: ordered by PC.
    assert!(profile.instructions.windows(2).all(|w| w[0].pc < w[1].pc));
    let family = |e: Encoding| profile.families.iter().find(|f| f.family == e).unwrap();
    assert_eq!(family(Encoding::Smem).instructions, 4);
    assert_eq!(family(Encoding::Flat).count, 3 * 2);
    assert_eq!(family(Encoding::Vop2).instructions, 6);
    assert_eq!(family(Encoding::Vop1).instructions, 2);
    // v_fma_f32 exists only as VOP3; v_addc_u32 with a constant carry-in
    // source is VOP2.
    assert_eq!(family(Encoding::Vop3).instructions, 1);
    assert_eq!(gcn_runtime::profile::family_name(Encoding::Vop3), "VOP3");
    // The VALU families' lanes are the statistics' lane operations.
    let valu: u64 = profile
        .families
        .iter()
        .filter(|f| {
            matches!(
                f.family,
                Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc | Encoding::Vop3 | Encoding::Vop3p
            )
        })
        .map(|f| f.lanes)
        .sum();
    assert_eq!(valu, outcome.stats.lane_ops);
    assert_eq!(
        profile.families.iter().map(|f| f.count).sum::<u64>(),
        profile.total
    );
    assert!(profile
        .families
        .windows(2)
        .all(|w| w[0].count >= w[1].count));
    // The same counts without the checks (another interpreter path), and
    // on several threads (summed over the threads' tables).
    for options in [
        LaunchOptions {
            checks: CheckOptions::off(),
            ..one
        },
        LaunchOptions {
            threads: Some(2),
            ..LaunchOptions::default()
        },
    ] {
        let again = program
            .launcher(&args, &dispatch)
            .options(&options)
            .profile(true)
            .run()
            .unwrap();
        assert_eq!(again.profile.as_ref(), Some(&profile));
    }
    let text = profile.to_string();
    assert!(
        text.starts_with("profile: 40 instructions executed\n"),
        "{text}"
    );
    assert!(text.contains("v_fma_f32 v7, s3, v6, v7"), "{text}");
}

#[test]
fn the_profile_is_hottest_first() {
    gcn_runtime::gcn_kernel! {
        mod hot;
        .gallium
        .gpu pitcairn
        .kernel hot
            .args
                .arg out, global, 8
            .config
                .dims x
        .text
        hot:
            s_mov_b32        s2, 10
            v_cmp_gt_u32     vcc, 16, v0          // 16 of 64 lanes loop
            s_and_saveexec_b64 s[10:11], vcc
        again:
            v_add_i32        v1, vcc, 1, v1
            s_sub_u32        s2, s2, 1
            s_cmp_lg_u32     s2, 0
            s_cbranch_scc1   again
            s_mov_b64        exec, s[10:11]
            s_endpgm
    }
    let memory = Memory::default();
    let program = Program::from_kernel(&memory, &hot::HOT).unwrap();
    let out = memory.buffer_zeroed::<u32>(1).unwrap();
    let profile = program
        .launcher(&hot::HotArgs { out: out.ptr() }, &Dispatch::new_1d(64, 64))
        .profile(true)
        .run()
        .unwrap()
        .profile
        .unwrap();
    let rows: Vec<(&str, u64, f64)> = profile
        .instructions
        .iter()
        .map(|i| (i.instruction.as_str(), i.count, i.average_lanes()))
        .collect();
    // The loop's four instructions, 10 times each with 16 lanes, in PC
    // order; then the rest, once each.
    assert_eq!(rows[0], ("v_add_i32 v1, vcc, 1, v1", 10, 16.0));
    assert_eq!(rows[1], ("s_sub_u32 s2, s2, 1", 10, 16.0));
    assert_eq!(rows[2], ("s_cmp_lg_u32 s2, 0", 10, 16.0));
    assert!(
        rows[3].0.starts_with("s_cbranch_scc1 ") && rows[3].1 == 10,
        "{rows:?}"
    );
    assert_eq!(rows[4], ("s_mov_b32 s2, 10", 1, 64.0));
    assert!(rows[5..].iter().all(|r| r.1 == 1), "{rows:?}");
    // s_mov_b64 exec ran with the loop's 16 lanes.
    assert_eq!(rows[7], ("s_mov_b64 exec, s[10:11]", 1, 16.0));
    // SOPP: the branch (10) and s_endpgm (1); then VOP2, SOP2, SOPC with
    // 10 each, in the order of their instructions.
    let families: Vec<(Encoding, u64)> = profile
        .families
        .iter()
        .map(|f| (f.family, f.count))
        .collect();
    assert_eq!(
        families[..4],
        [
            (Encoding::Sopp, 11),
            (Encoding::Vop2, 10),
            (Encoding::Sop2, 10),
            (Encoding::Sopc, 10)
        ]
    );
    assert_eq!(profile.total, 3 + 40 + 2);
}
