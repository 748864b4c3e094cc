//! `gcn_kernel!` with `.rocm` sources: `BINARY` is the code object
//! `gcnasm -b rocm` writes, the argument structs come from its metadata
//! (explicit arguments only, typed by their type names), and the typed
//! launch runs them under the HSA ABI with every check on.

use std::sync::{Arc, Mutex};

use gcn_asm::{assemble, AssembleOptions};
use gcn_runtime::kernel::{DevicePtr, Dispatch, KernelArgs, LocalMemory, TypedPtr};
use gcn_runtime::{CheckOptions, LaunchOptions, Level, Memory, Program};

/// `out[i] = input[i] * k` for `i < n`: code object v2, the metadata from
/// the `.arg`s, three hidden global offsets after the explicit arguments.
const SCALE: &str = r#"
.rocm
.gpu gfx900
.md_version 1, 0
.kernel scale
    .config
        .dims x
        .use_private_segment_buffer
        .use_dispatch_ptr
        .use_kernarg_segment_ptr
        .arg input, "float*", 8, , globalbuf, f32, global, default const
        .arg out, "float*", 8, , globalbuf, f32, global, default
        .arg k, "float", 4, , value, f32
        .arg n, "uint", 4, , value, u32
        .arg , "", 8, , gox, i64
        .arg , "", 8, , goy, i64
        .arg , "", 8, , goz, i64
.text
scale:
        .skip 256                           # the amd_kernel_code_t
        s_load_dword s2, s[4:5], 0x4        # the packet's work-group size x
        s_load_dwordx4 s[12:15], s[6:7], 0x0
        s_load_dwordx2 s[16:17], s[6:7], 0x10
        s_waitcnt lgkmcnt(0)
        s_and_b32 s2, s2, 0xffff
        s_mul_i32 s2, s2, s8
        v_add_u32 v0, s2, v0
        v_cmp_gt_u32 vcc, s17, v0
        s_and_saveexec_b64 s[18:19], vcc
        s_cbranch_execz .Ldone
        v_lshlrev_b32 v1, 2, v0
        global_load_dword v2, v1, s[12:13]
        s_waitcnt vmcnt(0)
        v_mul_f32 v2, s16, v2
        global_store_dword v1, v2, s[14:15]
.Ldone:
        s_endpgm
"#;

mod scale {
    gcn_runtime::gcn_kernel!(
        r#"
.rocm
.gpu gfx900
.md_version 1, 0
.kernel scale
    .config
        .dims x
        .use_private_segment_buffer
        .use_dispatch_ptr
        .use_kernarg_segment_ptr
        .arg input, "float*", 8, , globalbuf, f32, global, default const
        .arg out, "float*", 8, , globalbuf, f32, global, default
        .arg k, "float", 4, , value, f32
        .arg n, "uint", 4, , value, u32
        .arg , "", 8, , gox, i64
        .arg , "", 8, , goy, i64
        .arg , "", 8, , goz, i64
.text
scale:
        .skip 256                           # the amd_kernel_code_t
        s_load_dword s2, s[4:5], 0x4        # the packet's work-group size x
        s_load_dwordx4 s[12:15], s[6:7], 0x0
        s_load_dwordx2 s[16:17], s[6:7], 0x10
        s_waitcnt lgkmcnt(0)
        s_and_b32 s2, s2, 0xffff
        s_mul_i32 s2, s2, s8
        v_add_u32 v0, s2, v0
        v_cmp_gt_u32 vcc, s17, v0
        s_and_saveexec_b64 s[18:19], vcc
        s_cbranch_execz .Ldone
        v_lshlrev_b32 v1, 2, v0
        global_load_dword v2, v1, s[12:13]
        s_waitcnt vmcnt(0)
        v_mul_f32 v2, s16, v2
        global_store_dword v1, v2, s[14:15]
.Ldone:
        s_endpgm
"#
    );
}

#[test]
fn binary_is_what_gcnasm_writes() {
    let assembly = assemble(SCALE, &AssembleOptions::default()).unwrap();
    assert_eq!(scale::BINARY, assembly.rocm_bytes().unwrap().as_slice());
    assert!(gcn_asm::rocm::is_code_object(scale::BINARY));
    assert_eq!(scale::KERNELS, [scale::SCALE]);
}

#[test]
fn kernel_handle_lists_the_explicit_arguments() {
    let k = scale::SCALE;
    assert_eq!(k.name, "scale");
    assert_eq!(k.device, "gfx900");
    // The code starts after the 256-byte amd_kernel_code_t.
    assert_eq!(k.offset, 256);
    let names: Vec<&str> = k.args.iter().map(|a| a.name).collect();
    assert_eq!(names, ["input", "out", "k", "n"]);
    assert_eq!(k.args[2].declaration, r#".arg k, "float", 4, , value, f32"#);
    let co = gcn_asm::rocm::read(scale::BINARY).unwrap();
    let explicit: Vec<_> = co.kernels[0]
        .args
        .iter()
        .filter(|a| !a.value_kind.is_hidden())
        .map(|a| a.record())
        .collect();
    let records: Vec<_> = k.args.iter().map(|a| a.record).collect();
    assert_eq!(records, explicit);
}

/// The struct literal names every field: hidden arguments are none of
/// them, and the types are the declared ones (no `to_bits`).
fn scale_args(
    input: &gcn_runtime::Buffer<f32>,
    out: &gcn_runtime::Buffer<f32>,
    n: u32,
) -> scale::ScaleArgs {
    scale::ScaleArgs {
        input: input.typed_ptr(),
        out: out.into(),
        k: 2.5,
        n,
    }
}

#[test]
fn typed_launch_runs_with_every_check() {
    let memory = Memory::default();
    let data: Vec<f32> = (0..64).map(|i| i as f32 - 20.0).collect();
    let input = memory.buffer_from_slice(&data).unwrap();
    let out = memory.buffer_filled(64, -1.0f32).unwrap();
    let program = Program::from_kernel(&memory, &scale::SCALE).unwrap();
    assert!(program.is_code_object());
    let args = scale_args(&input, &out, 60);
    let options = LaunchOptions {
        checks: CheckOptions::all(Level::Error),
        ..LaunchOptions::default()
    };
    program
        .launch_args(&args, &Dispatch::new_1d(64, 64), &options)
        .unwrap();
    let got = out.to_vec();
    for (i, (&x, &y)) in data.iter().zip(&got).enumerate() {
        let want = if i < 60 { x * 2.5 } else { -1.0 };
        assert_eq!(y.to_bits(), want.to_bits(), "element {i}");
    }

    // `BINARY` loads as any code object does.
    let program = Program::load_code_object(&memory, scale::BINARY).unwrap();
    let out2 = memory.buffer_zeroed::<f32>(64).unwrap();
    let args = scale::ScaleArgs {
        out: out2.typed_ptr(),
        ..args
    };
    program
        .launch_args(&args, &Dispatch::new_1d(64, 32), &options)
        .unwrap();
    assert_eq!(out2.to_vec()[..60], got[..60]);
}

/// Code object v3 in the token form: a dynamic shared pointer (a
/// `LocalMemory` field), a `double` (an `f64` field), explicit offsets.
/// Each work-item swaps its id with its neighbour's through LDS and
/// writes it scaled by `alpha`.
mod swap {
    gcn_runtime::gcn_kernel! {
        .rocm
        .gpu gfx900
        .eflags 0x2c
        .llvm10binfmt
        .metadatav3
        .md_version 1, 0
        .globaldata
                .skip 64                                  // the kernel descriptor
        .kernel swap
            .config
                .dims x
                .use_kernarg_segment_ptr
                .md_symname "swap.kd"
                .md_language "OpenCL C", 2, 0
                .arg out, "uint*", 8, 0, globalbuf, u32, global, default
                .arg tmp, "uint*", 4, 8, dynshptr, u32, 4, local
                .arg alpha, "double", 8, 16, value, f64
                .arg , "", 8, 24, gox, i64
                .arg , "", 8, 32, goy, i64
                .arg , "", 8, 40, goz, i64
        .text
        swap:
                s_load_dwordx2 s[4:5], s[0:1], 0x0
                s_load_dword s2, s[0:1], 0x8
                s_load_dwordx2 s[8:9], s[0:1], 0x10
                s_mov_b32 m0, -1
                v_lshlrev_b32 v1, 2, v0
                s_waitcnt lgkmcnt(0)
                v_add_u32 v2, s2, v1
                ds_write_b32 v2, v0
                s_waitcnt lgkmcnt(0)
                s_barrier
                v_xor_b32 v3, 1, v0
                v_lshlrev_b32 v3, 2, v3
                v_add_u32 v3, s2, v3
                ds_read_b32 v4, v3
                s_waitcnt lgkmcnt(0)
                v_cvt_f64_u32 v[4:5], v4
                v_mul_f64 v[4:5], s[8:9], v[4:5]
                v_cvt_u32_f64 v4, v[4:5]
                global_store_dword v1, v4, s[4:5]
                s_endpgm
    }
}

#[test]
fn v3_kernel_with_local_memory_and_a_double() {
    let memory = Memory::default();
    let out = memory.buffer_zeroed::<u32>(64).unwrap();
    let args = swap::SwapArgs {
        out: out.typed_ptr(),
        tmp: LocalMemory(256),
        alpha: 3.0,
    };
    // The kernarg segment as the metadata lays it out: explicit arguments
    // at their offsets, the hidden global offsets left to the launch.
    let input = args.write_input(&Dispatch::new_1d(64, 64)).unwrap();
    assert_eq!(input.bytes.len(), 48);
    assert_eq!(input.bytes[0..8], out.ptr().0.to_le_bytes());
    assert_eq!(input.bytes[8..12], 0u32.to_le_bytes()); // LDS offset 0
    assert_eq!(input.bytes[16..24], 3.0f64.to_le_bytes());
    assert!(input.bytes[24..].iter().all(|&b| b == 0));
    assert_eq!(input.local_memory, 256);

    let program = Program::from_kernel(&memory, &swap::SWAP).unwrap();
    program
        .launch_args(&args, &Dispatch::new_1d(64, 64), &all_checks())
        .unwrap();
    let want: Vec<u32> = (0..64u32).map(|i| (i ^ 1) * 3).collect();
    assert_eq!(out.to_vec(), want);
}

fn all_checks() -> LaunchOptions {
    LaunchOptions {
        checks: CheckOptions::all(Level::Error),
        ..LaunchOptions::default()
    }
}

/// `printf` from a `.rocm` source: a `.printf` format in the metadata and
/// the hidden printf buffer, which the kernel fills as the device
/// libraries' `__printf_alloc` does (an atomic add on the write offset,
/// then the format id and the arguments).
mod hello {
    gcn_runtime::gcn_kernel!(
        r#"
.rocm
.gpu gfx900
.eflags 0x2c
.llvm10binfmt
.metadatav3
.md_version 1, 0
.globaldata
        .skip 64
.kernel hello
    .config
        .dims x
        .use_kernarg_segment_ptr
        .md_symname "hello.kd"
        .md_language "OpenCL C", 2, 0
        .printf 1, 4, 4, "item %u of %u\n"
        .arg n, "uint", 4, 0, value, u32
        .arg , "", 8, 8, printfbuf, i8
.text
hello:
        s_load_dword s2, s[0:1], 0x0
        s_load_dwordx2 s[4:5], s[0:1], 0x8
        v_mov_b32 v1, 12                    # a record: the id and two u32
        v_mov_b32 v2, 0
        s_waitcnt lgkmcnt(0)
        global_atomic_add v3, v2, v1, s[4:5] glc
        s_waitcnt vmcnt(0)
        v_add_u32 v3, 8, v3                 # past the buffer's header
        v_mov_b32 v4, 1
        v_mov_b32 v5, s2
        global_store_dword v3, v4, s[4:5]
        global_store_dword v3, v0, s[4:5] offset:4
        global_store_dword v3, v5, s[4:5] offset:8
        s_endpgm
"#
    );
}

#[test]
fn printf_from_a_rocm_source() {
    let memory = Memory::default();
    let mut program = Program::from_kernel(&memory, &hello::HELLO).unwrap();
    let printed = Arc::new(Mutex::new(String::new()));
    let sink = printed.clone();
    program.set_printf_handler(Arc::new(move |text: &str| {
        sink.lock().unwrap().push_str(text);
    }));
    // The printf buffer is hidden: `n` is the only field.
    let args = hello::HelloArgs { n: 4 };
    program
        .launch_args(&args, &Dispatch::new_1d(4, 4), &all_checks())
        .unwrap();
    let text = printed.lock().unwrap().clone();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.sort();
    assert_eq!(
        lines,
        ["item 0 of 4", "item 1 of 4", "item 2 of 4", "item 3 of 4"]
    );
}

#[test]
fn scale_kernarg_segment() {
    let memory = Memory::default();
    let input = memory.buffer_zeroed::<f32>(4).unwrap();
    let out = memory.buffer_zeroed::<f32>(4).unwrap();
    let bytes = scale_args(&input, &out, 3)
        .write_input(&Dispatch::new_1d(4, 4))
        .unwrap()
        .bytes;
    // v2: offsets from sizes and alignments, the segment rounded to 16.
    assert_eq!(bytes.len(), 48);
    assert_eq!(bytes[16..20], 2.5f32.to_le_bytes());
    assert_eq!(bytes[20..24], 3u32.to_le_bytes());
    let _: DevicePtr = TypedPtr::<f32>::from_raw(out.ptr()).ptr();
}

/// A `.rocm` kernel that stores through an address it did not wait for.
mod unwaited {
    gcn_runtime::gcn_kernel! {
        .rocm
        .gpu gfx900
        .md_version 1, 0
        .kernel k
            .config
                .dims x
                .use_kernarg_segment_ptr
                .arg out, "uint*", 8, , globalbuf, u32, global, default
        .text
        k:
            .skip 256
            s_load_dwordx2 s[2:3], s[0:1], 0x0
            v_lshlrev_b32 v1, 2, v0
            global_store_dword v1, v0, s[2:3]      // no s_waitcnt lgkmcnt(0)
            s_endpgm
    }
}

#[test]
fn check_reports_cite_the_rs_line() {
    let memory = Memory::default();
    let out = memory.buffer_zeroed::<u32>(64).unwrap();
    let program = Program::from_kernel(&memory, &unwaited::K).unwrap();
    let args = unwaited::KArgs {
        out: out.typed_ptr(),
    };
    let err = program
        .launch_args(&args, &Dispatch::new_1d(64, 64), &all_checks())
        .unwrap_err();
    let gcn_runtime::LaunchError::Check(reports) = err else {
        panic!("not a check error: {err}");
    };
    let report = reports
        .iter()
        .find(|r| r.check == gcn_runtime::Check::Waitcnt)
        .expect("a waitcnt report");
    // The store's line in this file (the token form keeps `.rs`
    // positions, and the code object's `.text` is the assembly's).
    let line = include_str!("gcn_kernel_rocm.rs")
        .lines()
        .position(|l| {
            l.trim_start()
                .starts_with("global_store_dword v1, v0, s[2:3]")
        })
        .unwrap()
        + 1;
    let location = report.location.as_deref().unwrap_or("");
    assert!(
        location.ends_with(&format!("gcn_kernel_rocm.rs:{line}:13")),
        "{report}"
    );
}
