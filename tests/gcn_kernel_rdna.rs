//! `gcn_kernel!` with RDNA `.rocm` sources: gfx1030 (RDNA 2) in wave32
//! (`.use_wave32`: VCC is `vcc_lo`, lane masks are one SGPR) in the LLVM 10
//! format clang writes, and gfx1010 (GCN 1.5) in wave64 in CLRX's old
//! format. `BINARY` is the code object `gcnasm -b rocm` writes, the
//! argument structs come from the metadata, and typed launches run them in
//! the emulator (wave32 and wave64) with every check on.

use gcn_asm::{assemble, AssembleOptions, GcnVersion};
use gcn_runtime::kernel::Dispatch;
use gcn_runtime::{CheckOptions, LaunchOptions, Level, Memory, Program};

/// `out[i] = a[i] + b[i]` for `i < n`, wave32.
const VADD_RDNA2: &str = r#"
.rocm
.gpu gfx1030
.eflags 0x36
.llvm10binfmt
.metadatav3
.md_version 1, 0
.kernel vadd
    .config
        .dims x
        .use_wave32
        .use_kernarg_segment_ptr
        .md_symname "vadd.kd"
        .arg a, "float*", 8, 0, globalbuf, f32, global, default const
        .arg b, "float*", 8, 8, globalbuf, f32, global, default const
        .arg out, "float*", 8, 16, globalbuf, f32, global, default
        .arg n, "uint", 4, 24, value, u32
.globaldata
    .skip 64
.text
vadd:
        s_load_dwordx4 s[12:15], s[0:1], 0x0
        s_load_dwordx2 s[8:9], s[0:1], 0x10
        s_load_dword s10, s[0:1], 0x18
        s_waitcnt lgkmcnt(0)
        v_cmp_gt_u32 vcc_lo, s10, v0
        s_and_saveexec_b32 s11, vcc_lo
        s_cbranch_execz .Ldone
        v_lshlrev_b32 v1, 2, v0
        global_load_dword v2, v1, s[12:13]
        global_load_dword v3, v1, s[14:15]
        s_waitcnt vmcnt(0)
        v_add_f32 v2, v2, v3
        global_store_dword v1, v2, s[8:9]
.Ldone:
        s_endpgm
"#;

mod vadd_rdna2 {
    gcn_runtime::gcn_kernel!(
        r#"
.rocm
.gpu gfx1030
.eflags 0x36
.llvm10binfmt
.metadatav3
.md_version 1, 0
.kernel vadd
    .config
        .dims x
        .use_wave32
        .use_kernarg_segment_ptr
        .md_symname "vadd.kd"
        .arg a, "float*", 8, 0, globalbuf, f32, global, default const
        .arg b, "float*", 8, 8, globalbuf, f32, global, default const
        .arg out, "float*", 8, 16, globalbuf, f32, global, default
        .arg n, "uint", 4, 24, value, u32
.globaldata
    .skip 64
.text
vadd:
        s_load_dwordx4 s[12:15], s[0:1], 0x0
        s_load_dwordx2 s[8:9], s[0:1], 0x10
        s_load_dword s10, s[0:1], 0x18
        s_waitcnt lgkmcnt(0)
        v_cmp_gt_u32 vcc_lo, s10, v0
        s_and_saveexec_b32 s11, vcc_lo
        s_cbranch_execz .Ldone
        v_lshlrev_b32 v1, 2, v0
        global_load_dword v2, v1, s[12:13]
        global_load_dword v3, v1, s[14:15]
        s_waitcnt vmcnt(0)
        v_add_f32 v2, v2, v3
        global_store_dword v1, v2, s[8:9]
.Ldone:
        s_endpgm
"#
    );
}

mod fill_gcn15 {
    gcn_runtime::gcn_kernel!(
        r#"
.rocm
.gpu gfx1010
.md_version 1, 0
.kernel fill
    .config
        .dims x
        .use_kernarg_segment_ptr
        .arg out, "uint*", 8, , globalbuf, u32, global, default
        .arg value, "uint", 4, , value, u32
.text
fill:
        .skip 256
        s_load_dwordx2 s[2:3], s[0:1], 0x0
        s_load_dword s4, s[0:1], 0x8
        v_lshlrev_b32 v1, 2, v0
        s_waitcnt lgkmcnt(0)
        v_mov_b32 v2, s4
        v_cmp_eq_u32 vcc, 0, v0
        v_cndmask_b32 v2, v2, 0, vcc
        global_store_dword v1, v2, s[2:3]
        s_endpgm
"#
    );
}

#[test]
fn rdna2_binary_is_what_gcnasm_writes() {
    let assembly = assemble(VADD_RDNA2, &AssembleOptions::default()).unwrap();
    assert_eq!(assembly.version, GcnVersion::Rdna2);
    assert_eq!(
        vadd_rdna2::BINARY,
        assembly.rocm_bytes().unwrap().as_slice()
    );
    let co = gcn_asm::rocm::read(vadd_rdna2::BINARY).unwrap();
    assert_eq!(co.processor.name, "gfx1030");
    assert_eq!(co.processor.version, GcnVersion::Rdna2);
    // The descriptor says wave32 (kernel_code_properties bit 10).
    let k = &co.kernels[0];
    let d = &k.descriptor;
    assert!(d.wave32(), "{d:?}");
    let names: Vec<&str> = vadd_rdna2::VADD.args.iter().map(|a| a.name).collect();
    assert_eq!(names, ["a", "b", "out", "n"]);
    assert_eq!(vadd_rdna2::VADD.device, "gfx1030");
}

#[test]
fn gcn15_binary_and_arguments() {
    let co = gcn_asm::rocm::read(fill_gcn15::BINARY).unwrap();
    assert_eq!(co.processor.version, GcnVersion::Gcn1_5);
    let names: Vec<&str> = fill_gcn15::FILL.args.iter().map(|a| a.name).collect();
    assert_eq!(names, ["out", "value"]);
    // In wave32 `vcc` is one SGPR too many for a lane mask: the code after
    // a kernel's label is in that kernel's mode.
    let src = ".rocm\n.gpu gfx1010\n.kernel k\n    .config\n        .dims x\n        .use_wave32\n\
               .text\nk:\n    .skip 256\n    v_cmp_eq_u32 vcc, 0, v0\n    s_endpgm\n";
    let err = assemble(src, &AssembleOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("10:"), "{err}");
    let ok = src.replace("vcc,", "vcc_lo,");
    assert!(assemble(&ok, &AssembleOptions::default()).is_ok());
}

/// Every check on, as an error.
fn all_checks() -> LaunchOptions {
    LaunchOptions {
        checks: CheckOptions::all(Level::Error),
        ..LaunchOptions::default()
    }
}

#[test]
fn rdna2_wave32_kernel_runs_with_every_check() {
    let memory = Memory::default();
    let n = 100u32;
    let a: Vec<f32> = (0..128).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..128).map(|i| 3.0 - i as f32).collect();
    let a_buf = memory.buffer_from_slice(&a).unwrap();
    let b_buf = memory.buffer_from_slice(&b).unwrap();
    let out = memory.buffer_filled(128, -1.0f32).unwrap();
    let program = Program::from_kernel(&memory, &vadd_rdna2::VADD).unwrap();
    let args = vadd_rdna2::VaddArgs {
        a: a_buf.typed_ptr(),
        b: b_buf.typed_ptr(),
        out: out.typed_ptr(),
        n,
    };
    // One work-group of 128 work-items: four waves of 32.
    let stats = program
        .launch_args(&args, &Dispatch::new_1d(128, 128), &all_checks())
        .unwrap();
    assert_eq!(stats.waves, 4, "128 work-items in waves of 32");
    let got = out.to_vec();
    for i in 0..128 {
        let want = if i < n as usize { a[i] + b[i] } else { -1.0 };
        assert_eq!(got[i].to_bits(), want.to_bits(), "element {i}");
    }
}

#[test]
fn gcn15_wave64_kernel_runs_with_every_check() {
    let memory = Memory::default();
    let out = memory.buffer_filled(128, 7u32).unwrap();
    let program = Program::from_kernel(&memory, &fill_gcn15::FILL).unwrap();
    let args = fill_gcn15::FillArgs {
        out: out.typed_ptr(),
        value: 42,
    };
    let stats = program
        .launch_args(&args, &Dispatch::new_1d(64, 64), &all_checks())
        .unwrap();
    assert_eq!(stats.waves, 1, "one wave of 64");
    let got = out.to_vec();
    // Lane 0 writes 0, the others the value; past the grid nothing.
    assert_eq!(got[0], 0);
    assert!(got[1..64].iter().all(|&v| v == 42), "{got:?}");
    assert!(got[64..].iter().all(|&v| v == 7));
}
