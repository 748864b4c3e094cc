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
