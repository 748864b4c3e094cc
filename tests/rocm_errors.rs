//! Code objects that cannot run, and what the runtime says about them:
//! truncated files, kernels that are not there, arguments of the wrong
//! kind, a partial work-group for a kernel that needs uniform ones, a
//! kernel that dereferences a hidden argument the emulator leaves null,
//! a hostcall service the emulator does not serve, a function kernel
//! (`.fkernel`), which no dispatch launches; and where printf text goes.

use std::path::PathBuf;

use gcn_runtime::kernel::{ArgValue, Dispatch};
use gcn_runtime::program::LoadError;
use gcn_runtime::{FaultKind, LaunchError, LaunchOptions, Memory, Program};

fn fixture(set: &str, name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/rocm/gen")
        .join(set)
        .join(format!("{name}.co"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn truncated_code_objects_are_load_errors() {
    for set in ["v4/gfx900", "v5/gfx803", "v2/gfx900", "hip/gfx906"] {
        let name = if set.starts_with("hip") {
            "hip_kernels"
        } else {
            "grids"
        };
        let bytes = fixture(set, name);
        let memory = Memory::default();
        // Every cut (in steps, plus the ELF header's edges): an error
        // naming the code object, never a panic.
        let cuts = (0..bytes.len())
            .step_by(61)
            .chain([1, 4, 16, 52, 63, 64, 65, bytes.len() - 1]);
        for cut in cuts {
            match Program::load(&memory, &bytes[..cut], gcn_asm::GcnVersion::Gcn1_4) {
                Err(LoadError::CodeObject(m)) => assert!(!m.is_empty()),
                // Too short to be recognised as a code object at all.
                Err(LoadError::Gallium(_)) => assert!(cut < 64, "{set} cut at {cut}"),
                Err(e) => panic!("{set} cut at {cut}: {e}"),
                Ok(_) => panic!("{set} cut at {cut} of {} loads", bytes.len()),
            }
        }
        assert!(Program::load_code_object(&memory, &bytes).is_ok());
    }
}

#[test]
fn a_missing_kernel_names_the_kernels_there() {
    let memory = Memory::default();
    let program = Program::load_code_object(&memory, &fixture("v4/gfx900", "grids")).unwrap();
    let err = program
        .launch(
            "grid4d",
            &[],
            &Dispatch::new_1d(64, 64),
            &LaunchOptions::default(),
        )
        .unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, LaunchError::Load(LoadError::NoKernel { .. })));
    assert!(
        text.contains("no kernel named 'grid4d'") && text.contains("grid2d, grid3d"),
        "{text}"
    );
}

#[test]
fn argument_values_are_checked_against_the_metadata() {
    let memory = Memory::default();
    let program = Program::load_code_object(&memory, &fixture("v5/gfx906", "grids")).unwrap();
    let run = |values: &[ArgValue]| {
        program
            .launch(
                "grid2d",
                values,
                &Dispatch::new(2, [8, 8, 1], [8, 8, 1]),
                &LaunchOptions::default(),
            )
            .unwrap_err()
            .to_string()
    };
    let text = run(&[ArgValue::Scalar(vec![0; 8])]);
    assert!(
        text.contains("argument 0") && text.contains("global_buffer"),
        "{text}"
    );
    assert!(run(&[]).contains("no value for argument 0"));
    let out = memory.buffer_zeroed::<u8>(8 * 64 * 4).unwrap();
    let text = run(&[ArgValue::Pointer(out.ptr()), ArgValue::Scalar(vec![0; 4])]);
    assert!(text.contains("2 argument values for 1 arguments"), "{text}");
}

#[test]
fn partial_work_groups_need_a_kernel_that_allows_them() {
    let memory = Memory::default();
    for set in ["v4/gfx900", "v5/gfx900"] {
        // OpenCL C 1.2: uniform work-groups only (v5 metadata says so; for
        // v4, the language version does).
        let program = Program::load_code_object(&memory, &fixture(set, "grids")).unwrap();
        let out = memory.buffer_zeroed::<u8>(8 * 100 * 4).unwrap();
        let err = program
            .launch(
                "grid2d",
                &[ArgValue::Pointer(out.ptr())],
                &Dispatch::new(2, [100, 1, 1], [64, 1, 1]),
                &LaunchOptions::default(),
            )
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("not a multiple of local size 64") && err.contains("uniform"),
            "{set}: {err}"
        );
        // OpenCL C 2.0 allows them (tests/rocm_run.rs checks the results).
        let program = Program::load_code_object(&memory, &fixture(set, "partial")).unwrap();
        let out = memory.buffer_zeroed::<u32>(4 * 100).unwrap();
        program
            .launch(
                "partial_ids",
                &[ArgValue::Pointer(out.ptr())],
                &Dispatch::new_1d(100, 64),
                &LaunchOptions::default(),
            )
            .unwrap();
    }
}

/// Launches `kernel` of the HIP fixture `hip_unserved` (one wave, every
/// check on), which must fail.
fn launch_unserved(kernel: &str) -> LaunchError {
    let memory = Memory::default();
    let program =
        Program::load_code_object(&memory, &fixture("hip/gfx906", "hip_unserved")).unwrap();
    let out = memory.buffer_zeroed::<u32>(64).unwrap();
    program
        .launch(
            kernel,
            &[ArgValue::Pointer(out.ptr())],
            &Dispatch::new_1d(64, 64),
            &LaunchOptions::default(),
        )
        .unwrap_err()
}

#[test]
fn a_null_hidden_argument_dereferenced_is_a_fault_naming_it() {
    // The multi-grid synchronisation argument of cooperative launches is
    // not served: null.
    let err = launch_unserved("multigrid_rank");
    let LaunchError::Exec(fault) = &err else {
        panic!("{err}")
    };
    let note = fault.note.as_deref().unwrap_or_default();
    assert!(
        note.contains("hidden_multigrid_sync_arg (kernarg byte 56)"),
        "{err}"
    );
    // The hostcall buffer is served now: not in the note.
    assert!(!note.contains("hostcall"), "{err}");
    assert!(err.to_string().contains("kernel 'multigrid_rank'"), "{err}");
}

#[test]
fn a_hostcall_service_the_emulator_does_not_serve_is_a_fault_naming_it() {
    // Device-side malloc: the device libraries ask the host for memory
    // (hostcall service 3).
    let err = launch_unserved("device_malloc");
    let LaunchError::Exec(fault) = &err else {
        panic!("{err}")
    };
    assert!(
        matches!(&fault.kind, FaultKind::Hostcall(m) if m.contains("hostcall service 3 (device memory")),
        "{err}"
    );
    assert_eq!(fault.instruction, "s_sendmsg sendmsg(interrupt)", "{err}");
    assert!(err.to_string().contains("kernel 'device_malloc'"), "{err}");
    // The checks (on by default) find nothing before the fault: the
    // address LLVM forms with `v_mad_u64_u32` from a register whose high
    // dword nothing wrote, then shifts left by 32 (`v_lshlrev_b64`), drops
    // that dword. What gcnrun prints (the error's text) has no report.
    assert!(fault.checks.is_empty(), "{err}");
    assert!(!err.to_string().contains("[uninit]"), "{err}");
}

#[test]
fn hip_printf_text_reaches_the_handler_call_by_call() {
    use std::sync::{Arc, Mutex};
    let memory = Memory::default();
    let mut program =
        Program::load_code_object(&memory, &fixture("hip/gfx906", "hip_printf")).unwrap();
    let calls = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = calls.clone();
    program.set_printf_handler(Arc::new(move |t: &str| {
        sink.lock().unwrap().push(t.to_string())
    }));
    let out = memory.buffer_zeroed::<u32>(4 * 16 * 6).unwrap();
    program
        .launch(
            "hip_printf_3d",
            &[ArgValue::Pointer(out.ptr())],
            &Dispatch::new(3, [16, 6, 4], [8, 3, 2]),
            &LaunchOptions::default(),
        )
        .unwrap();
    // One call of the handler per printf call, as HIP prints them.
    let calls = calls.lock().unwrap();
    assert_eq!(calls.len(), 16 * 6 * 4);
    assert!(
        calls.contains(&"(13,4,3) in block (1,1,1)\n".to_string()),
        "{calls:?}"
    );
}

#[test]
fn printf_text_goes_to_the_handler() {
    use std::sync::{Arc, Mutex};
    let memory = Memory::default();
    let mut program = Program::load_code_object(&memory, &fixture("v5/gfx900", "printf")).unwrap();
    let text = Arc::new(Mutex::new(String::new()));
    let sink = text.clone();
    program.set_printf_handler(Arc::new(move |t: &str| sink.lock().unwrap().push_str(t)));
    let input = memory.buffer_from_slice(&[5i32; 64]).unwrap();
    let out = memory.buffer_zeroed::<i32>(64).unwrap();
    program
        .launch(
            "printf_formats",
            &[ArgValue::Pointer(input.ptr()), ArgValue::Pointer(out.ptr())],
            &Dispatch::new_1d(64, 64),
            &LaunchOptions::default(),
        )
        .unwrap();
    let text = text.lock().unwrap().clone();
    assert!(text.contains("hello from the device\n"), "{text}");
    assert!(
        text.contains("item 3: 5     5 5    | 5 0X5 5 a str %\n"),
        "{text}"
    );
    assert_eq!(out.to_vec(), vec![6; 64]);
}

#[test]
fn code_objects_load_from_unaligned_bytes() {
    let bytes = fixture("v4/gfx906", "grids");
    let mut shifted = vec![0u8; bytes.len() + 1];
    shifted[1..].copy_from_slice(&bytes);
    let memory = Memory::default();
    let program = Program::load_code_object(&memory, &shifted[1..]).unwrap();
    assert!(program.kernel("grid3d").is_ok());
}

/// A function kernel (clrxasm's `.fkernel`: a global `STT_FUNC` symbol,
/// with no kernel descriptor in code object v3+, and no kernel symbol in
/// v2 whatever `amd_kernel_code_t` lies at it) loads with its program,
/// but a launch of it is refused with an error naming it, in v2 and v3
/// alike; the program's other kernel runs.
#[test]
fn a_function_kernel_is_not_launched() {
    let v2 = ".rocm\n.gpu gfx900\n.kernel f\n.fkernel\n.config\n.use_kernarg_segment_ptr\n.kernel k\n.config\n.use_kernarg_segment_ptr\n.text\nf:\n.skip 256\ns_endpgm\n.p2align 8\nk:\n.skip 256\ns_endpgm\n";
    let v3 = ".rocm\n.gpu gfx900\n.eflags 0x2c\n.llvm10binfmt\n.metadatav3\n.kernel f\n.fkernel\n.config\n.use_kernarg_segment_ptr\n.kernel k\n.config\n.use_kernarg_segment_ptr\n.globaldata\n.skip 128\n.text\nf:\ns_endpgm\n.p2align 8\nk:\ns_endpgm\n";
    let memory = Memory::default();
    for (version, src) in [(2, v2), (3, v3)] {
        let bytes = gcn_asm::assemble(src, &gcn_asm::AssembleOptions::default())
            .unwrap_or_else(|d| panic!("{d}"))
            .rocm_bytes()
            .unwrap();
        let program = Program::load_code_object(&memory, &bytes)
            .unwrap_or_else(|e| panic!("v{version}: {e}"));
        assert_eq!(program.code_object_target(), Some((version, "gfx900")));
        let names: Vec<_> = program.kernels().iter().map(|k| k.name.as_str()).collect();
        assert_eq!(names, ["f", "k"], "v{version}");
        let launch = |name: &str| {
            program.launch(
                name,
                &[],
                &Dispatch::new_1d(64, 64),
                &LaunchOptions::default(),
            )
        };
        let err = launch("f").unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, LaunchError::Config(_)), "v{version}: {text}");
        assert!(
            text.contains("kernel 'f' is a function kernel (.fkernel")
                && text.contains("no kernel descriptor"),
            "v{version}: {text}"
        );
        launch("k").unwrap_or_else(|e| panic!("v{version}: {e}"));
    }
}
