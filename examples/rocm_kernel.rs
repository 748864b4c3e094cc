//! A `.rocm` kernel inline in Rust: `gcn_kernel!` assembles it into an
//! AMDHSA code object at compile time and types its argument struct from
//! the code object's metadata (`float` → `f32`, `float*` →
//! `TypedPtr<f32>`; the hidden global offsets are the runtime's, not
//! fields). The emulator runs it under the HSA ABI with every check on;
//! the example exits non-zero if any element is wrong.
//!
//! `cargo run --example rocm_kernel`

use gcn_runtime::kernel::Dispatch;
use gcn_runtime::{LaunchOptions, Memory, Program};

gcn_runtime::gcn_kernel! {
    mod saxpy;
    .rocm
    .gpu gfx900
    .eflags 0x2c                              // gfx900 (clrxasm's default is gfx1010's)
    .llvm10binfmt                             // code object v3: a kernel descriptor
    .metadatav3                               //   and MessagePack metadata
    .md_version 1, 0
    .globaldata
        .skip 64                              // room for the kernel descriptor
    .kernel saxpy
        .config
            .dims x
            .use_dispatch_ptr                 // s[0:1]
            .use_kernarg_segment_ptr          // s[2:3]; work-group id x in s4
            .md_symname "saxpy.kd"            // the descriptor (clrxasm's default is "")
            .md_language "OpenCL C", 2, 0     // 2.0: partial work-groups allowed
            .arg a, "float", 4, 0, value, f32
            .arg x, "float*", 8, 8, globalbuf, f32, global, default const
            .arg y, "float*", 8, 16, globalbuf, f32, global, default
            .arg n, "uint", 4, 24, value, u32
            .arg , "", 8, 32, gox, i64         // hidden: filled by the launch
            .arg , "", 8, 40, goy, i64
            .arg , "", 8, 48, goz, i64
    .text
    saxpy:
        s_load_dword s5, s[0:1], 0x4          // the packet's work-group size x
        s_load_dword s6, s[2:3], 0x0          // a
        s_load_dwordx4 s[8:11], s[2:3], 0x8   // x, y
        s_load_dword s7, s[2:3], 0x18         // n
        s_waitcnt lgkmcnt(0)
        s_and_b32 s5, s5, 0xffff
        s_mul_i32 s5, s5, s4
        v_add_u32 v0, s5, v0                  // the global id
        v_cmp_gt_u32 vcc, s7, v0
        s_and_saveexec_b64 s[12:13], vcc
        s_cbranch_execz done
        v_lshlrev_b32 v1, 2, v0
        global_load_dword v2, v1, s[8:9]
        global_load_dword v3, v1, s[10:11]
        s_waitcnt vmcnt(0)
        v_fma_f32 v3, s6, v2, v3              // y = a * x + y
        global_store_dword v1, v3, s[10:11]
    done:
        s_endpgm
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let k = saxpy::SAXPY;
    println!(
        "{}: a {}-byte code object for {}, arguments:",
        k.name,
        saxpy::BINARY.len(),
        k.device
    );
    for arg in k.args {
        println!("  {:<2} {}", arg.name, arg.declaration);
    }

    let n = 1000;
    let memory = Memory::default();
    let xs: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let ys: Vec<f32> = (0..n).map(|i| 1000.0 - i as f32).collect();
    let x = memory.buffer_from_slice(&xs)?;
    let y = memory.buffer_from_slice(&ys)?;
    let args = saxpy::SaxpyArgs {
        a: 2.0,
        x: x.typed_ptr(),
        y: (&y).into(),
        n: n as u32,
    };
    let program = Program::from_kernel(&memory, &saxpy::SAXPY)?;
    // 16 work-groups of 64: the last is partial (1000 work-items).
    let stats = program.launch_args(
        &args,
        &Dispatch::new_1d(n as u32, 64),
        &LaunchOptions::default(),
    )?;
    let got = y.to_vec();
    let wrong = (0..n)
        .filter(|&i| got[i].to_bits() != (2.0f32 * xs[i] + ys[i]).to_bits())
        .count();
    println!(
        "{} work-groups, {} instructions; {wrong} of {n} elements wrong",
        stats.work_groups, stats.instructions
    );
    if wrong > 0 {
        std::process::exit(1);
    }
    Ok(())
}
