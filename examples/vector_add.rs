//! A vector add, `c[i] = a[i] + b[i]` on a million `f32`s, written inline
//! for each GCN version (1.0, 1.1, 1.2, 1.4) and for RDNA 2 (gfx1030,
//! wave32), run in the emulator and checked against Rust.
//!
//! `cargo run --release --example vector_add`
//!
//! The four kernels differ where the hardware does: SMRD offsets count
//! dwords on GCN 1.0/1.1 and bytes from GCN 1.2; GCN 1.0 has no FLAT, so
//! GCN 1.0/1.1 reach memory through buffer instructions with `addr64`
//! (gone from GCN 1.2), GCN 1.2/1.4 through FLAT; the carry-writing add
//! is `v_add_i32` (1.0/1.1), `v_add_u32` (1.2) or `v_add_co_u32` (1.4).
//! The RDNA 2 kernel is a ROCm code object (the HSA ABI: the dispatch
//! packet and the kernel arguments through pointers in user SGPRs) that
//! adds without a carry (`v_add_nc_u32`) and reaches memory through GLOBAL
//! instructions with a scalar base; `.use_wave32` makes its waves 32 lanes
//! wide (the same code runs in wave64 without it: it names no lane mask).

use std::process::ExitCode;

use gcn_runtime::kernel::{DevicePtr, Dispatch, Kernel, KernelArgs, TypedPtr};
use gcn_runtime::{LaunchOptions, Memory, Program};

// Input buffer (old Gallium ABI): bytes 0x18 = local size x, 0x24 = a,
// 0x2c = b, 0x34 = c. s[0:1] = input buffer, s4 = work-group id x.

mod gcn10 {
    gcn_runtime::gcn_kernel! {
        .gallium
        .gpu pitcairn
        .kernel vadd
            .args
                .arg a, global, 8          // const float* a
                .arg b, global, 8          // const float* b
                .arg c, global, 8          // float* c
                .arg griddim
                .arg gridoffset
            .config
                .dims x
        .text
        vadd:
            s_load_dword     s2, s[0:1], 6          // local size x (dword offsets)
            s_load_dwordx2   s[8:9], s[0:1], 9      // a
            s_load_dwordx2   s[12:13], s[0:1], 11   // b
            s_load_dwordx2   s[16:17], s[0:1], 13   // c
            s_waitcnt        lgkmcnt(0)
            s_mul_i32        s2, s2, s4             // group id * local size
            v_add_i32        v0, vcc, s2, v0        // global id
            v_lshlrev_b32    v0, 2, v0              // byte offset, low half
            v_mov_b32        v1, 0                  // high half
            // Buffer descriptors: base = the pointer, raw 32-bit dwords.
            s_mov_b32        s10, -1
            s_mov_b32        s11, 0x27fac
            s_mov_b32        s14, s10
            s_mov_b32        s15, s11
            s_mov_b32        s18, s10
            s_mov_b32        s19, s11
            buffer_load_dword v2, v[0:1], s[8:11], 0 addr64
            buffer_load_dword v3, v[0:1], s[12:15], 0 addr64
            s_waitcnt        vmcnt(0)
            v_add_f32        v2, v2, v3
            buffer_store_dword v2, v[0:1], s[16:19], 0 addr64
            s_endpgm
    }
}

mod gcn11 {
    gcn_runtime::gcn_kernel! {
        .gallium
        .gpu bonaire
        .kernel vadd
            .args
                .arg a, global, 8
                .arg b, global, 8
                .arg c, global, 8
                .arg griddim
                .arg gridoffset
            .config
                .dims x
        .text
        vadd:
            s_load_dword     s2, s[0:1], 6          // dword offsets, as on GCN 1.0
            s_load_dwordx2   s[8:9], s[0:1], 9
            s_load_dwordx2   s[12:13], s[0:1], 11
            s_load_dwordx2   s[16:17], s[0:1], 13
            s_waitcnt        lgkmcnt(0)
            s_mul_i32        s2, s2, s4
            v_add_i32        v0, vcc, s2, v0
            v_lshlrev_b32    v0, 2, v0
            v_mov_b32        v1, 0
            s_mov_b32        s10, -1
            s_mov_b32        s11, 0x27fac
            s_mov_b32        s14, s10
            s_mov_b32        s15, s11
            s_mov_b32        s18, s10
            s_mov_b32        s19, s11
            buffer_load_dword v2, v[0:1], s[8:11], 0 addr64
            buffer_load_dword v3, v[0:1], s[12:15], 0 addr64
            s_waitcnt        vmcnt(0)
            v_add_f32        v2, v2, v3
            buffer_store_dword v2, v[0:1], s[16:19], 0 addr64
            s_endpgm
    }
}

mod gcn12 {
    gcn_runtime::gcn_kernel! {
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
        .text
        vadd:
            s_load_dword     s2, s[0:1], 0x18       // byte offsets from GCN 1.2
            s_load_dwordx2   s[8:9], s[0:1], 0x24
            s_load_dwordx2   s[10:11], s[0:1], 0x2c
            s_load_dwordx2   s[12:13], s[0:1], 0x34
            s_waitcnt        lgkmcnt(0)
            s_mul_i32        s2, s2, s4
            v_add_u32        v0, vcc, s2, v0
            v_lshlrev_b32    v0, 2, v0
            v_mov_b32        v1, s9                 // &a[i]
            v_add_u32        v2, vcc, s8, v0
            v_addc_u32       v3, vcc, 0, v1, vcc
            v_mov_b32        v1, s11                // &b[i]
            v_add_u32        v4, vcc, s10, v0
            v_addc_u32       v5, vcc, 0, v1, vcc
            flat_load_dword  v6, v[2:3]
            flat_load_dword  v7, v[4:5]
            v_mov_b32        v1, s13                // &c[i]
            v_add_u32        v2, vcc, s12, v0
            v_addc_u32       v3, vcc, 0, v1, vcc
            s_waitcnt        vmcnt(0) & lgkmcnt(0)
            v_add_f32        v6, v6, v7
            flat_store_dword v[2:3], v6
            s_endpgm
    }
}

mod gcn14 {
    gcn_runtime::gcn_kernel! {
        .gallium
        .gpu gfx900
        .kernel vadd
            .args
                .arg a, global, 8
                .arg b, global, 8
                .arg c, global, 8
                .arg griddim
                .arg gridoffset
            .config
                .dims x
        .text
        vadd:
            s_load_dword     s2, s[0:1], 0x18
            s_load_dwordx2   s[8:9], s[0:1], 0x24
            s_load_dwordx2   s[10:11], s[0:1], 0x2c
            s_load_dwordx2   s[12:13], s[0:1], 0x34
            s_waitcnt        lgkmcnt(0)
            s_mul_i32        s2, s2, s4
            v_add_co_u32     v0, vcc, s2, v0        // GCN 1.4: the carry-out add is _co
            v_lshlrev_b32    v0, 2, v0
            v_mov_b32        v1, s9
            v_add_co_u32     v2, vcc, s8, v0
            v_addc_co_u32    v3, vcc, 0, v1, vcc
            v_mov_b32        v1, s11
            v_add_co_u32     v4, vcc, s10, v0
            v_addc_co_u32    v5, vcc, 0, v1, vcc
            flat_load_dword  v6, v[2:3]
            flat_load_dword  v7, v[4:5]
            v_mov_b32        v1, s13
            v_add_co_u32     v2, vcc, s12, v0
            v_addc_co_u32    v3, vcc, 0, v1, vcc
            s_waitcnt        vmcnt(0) & lgkmcnt(0)
            v_add_f32        v6, v6, v7
            flat_store_dword v[2:3], v6
            s_endpgm
    }
}

/// RDNA 2 (gfx1030) in wave32, the HSA ABI: s[0:1] = the dispatch packet,
/// s[2:3] = the kernel arguments, s4 = the work-group id x.
mod rdna2 {
    gcn_runtime::gcn_kernel! {
        .rocm
        .gpu gfx1030
        .eflags 0x36                            // EF_AMDGPU_MACH gfx1030
        .llvm10binfmt
        .metadatav3
        .md_version 1, 0
        .kernel vadd
            .config
                .dims x
                .use_wave32                     // 32 lanes a wave
                .use_dispatch_ptr
                .use_kernarg_segment_ptr
                .md_symname "vadd.kd"
                .arg a, "float*", 8, 0, globalbuf, f32, global, default const
                .arg b, "float*", 8, 8, globalbuf, f32, global, default const
                .arg c, "float*", 8, 16, globalbuf, f32, global, default
        .globaldata
            .skip 64                            // the kernel descriptor
        .text
        vadd:
            s_load_dword     s5, s[0:1], 0x4        // packet: workgroup_size_x (bits 0-15)
            s_load_dwordx4   s[8:11], s[2:3], 0x0   // a, b
            s_load_dwordx2   s[12:13], s[2:3], 0x10 // c
            s_waitcnt        lgkmcnt(0)
            s_and_b32        s5, s5, 0xffff
            s_mul_i32        s5, s5, s4             // group id * local size
            v_add_nc_u32     v0, s5, v0             // global id: no carry on RDNA
            v_lshlrev_b32    v0, 2, v0              // byte offset
            global_load_dword v1, v0, s[8:9]        // a[i]: scalar base + vector offset
            global_load_dword v2, v0, s[10:11]      // b[i]
            s_waitcnt        vmcnt(0)
            v_add_f32        v1, v1, v2
            global_store_dword v0, v1, s[12:13]
            s_endpgm
    }
}

/// Elements per vector.
const N: usize = 1 << 20;
/// Work-items per work-group (4 waves).
const LOCAL: u32 = 256;

/// Runs one version's kernel on fresh memory and checks every element;
/// returns whether all were right.
fn run<A: KernelArgs>(
    label: &str,
    kernel: &Kernel,
    args: impl Fn(DevicePtr, DevicePtr, DevicePtr) -> A,
) -> Result<bool, Box<dyn std::error::Error>> {
    let a: Vec<f32> = (0..N).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..N).map(|i| (i % 1000) as f32 - 3.25).collect();
    let memory = Memory::default();
    let program = Program::from_kernel(&memory, kernel)?;
    let da = memory.buffer_from_slice(&a)?;
    let db = memory.buffer_from_slice(&b)?;
    let dc = memory.buffer_zeroed::<f32>(N)?;
    let stats = program.launch_args(
        &args(da.ptr(), db.ptr(), dc.ptr()),
        &Dispatch::new_1d(N as u32, LOCAL),
        &LaunchOptions::default(),
    )?;
    let c = dc.to_vec();
    let wrong: Vec<usize> = (0..N)
        .filter(|&i| c[i].to_bits() != (a[i] + b[i]).to_bits())
        .collect();
    println!(
        "{label} ({}): {N} elements, {} work-groups, {} waves, {} instructions, \
         {:.1} M lane-ops/s ({:.3} s): {}",
        kernel.device,
        stats.work_groups,
        stats.waves,
        stats.instructions,
        stats.lane_ops_per_second() / 1e6,
        stats.elapsed.as_secs_f64(),
        if wrong.is_empty() {
            "ok".to_string()
        } else {
            format!("{} WRONG", wrong.len())
        }
    );
    for &i in wrong.iter().take(5) {
        println!(
            "  c[{i}] = {} but {} + {} = {}",
            c[i],
            a[i],
            b[i],
            a[i] + b[i]
        );
    }
    Ok(wrong.is_empty())
}

fn main() -> ExitCode {
    let results = [
        run("GCN 1.0", &gcn10::VADD, |a, b, c| gcn10::VaddArgs {
            a,
            b,
            c,
        }),
        run("GCN 1.1", &gcn11::VADD, |a, b, c| gcn11::VaddArgs {
            a,
            b,
            c,
        }),
        run("GCN 1.2", &gcn12::VADD, |a, b, c| gcn12::VaddArgs {
            a,
            b,
            c,
        }),
        run("GCN 1.4", &gcn14::VADD, |a, b, c| gcn14::VaddArgs {
            a,
            b,
            c,
        }),
        run("RDNA 2 wave32", &rdna2::VADD, |a, b, c| rdna2::VaddArgs {
            a: TypedPtr::from_raw(a),
            b: TypedPtr::from_raw(b),
            c: TypedPtr::from_raw(c),
        }),
    ];
    let mut ok = true;
    for r in results {
        match r {
            Ok(good) => ok &= good,
            Err(e) => {
                eprintln!("error: {e}");
                ok = false;
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
