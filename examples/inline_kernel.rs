//! A kernel written inline as Rust tokens, assembled at compile time into a
//! GalliumCompute binary with a typed argument struct.
//!
//! `cargo run --example inline_kernel`

use gcn_runtime::kernel::{DevicePtr, Dispatch, KernelArgs};

// One call per module; the `mod NAME;` header makes the module.
gcn_runtime::gcn_kernel! {
    pub mod fill;
    .gallium
    .gpu tonga
    .kernel fill
        .args
            .arg out, global, 8          // uint* out
            .arg value, scalar, 4        // uint value
            .arg count, scalar, 4        // uint count
            .arg griddim
            .arg gridoffset
        .config
            .dims x
            .tgsize
    .text
    fill:
        s_load_dword     s2, s[0:1], 0x18        // local size x (GCN 1.2: byte offsets)
        s_load_dwordx2   s[6:7], s[0:1], 0x24    // out
        s_load_dwordx2   s[8:9], s[0:1], 0x2c    // value, count
        s_waitcnt        lgkmcnt(0)
        s_mul_i32        s2, s2, s4              // group id * local size
        v_add_u32        v0, vcc, s2, v0         // global id
        v_cmp_gt_u32     vcc, s9, v0             // id < count
        s_and_saveexec_b64 s[10:11], vcc
        s_cbranch_execz  done
        v_lshlrev_b32    v0, 2, v0               // byte offset
        v_mov_b32        v1, s6
        v_add_u32        v0, vcc, s6, v0
        v_mov_b32        v2, s7
        v_addc_u32       v1, vcc, v2, 0, vcc
        v_mov_b32        v2, s8
        flat_store_dword v[0:1], v2
    done:
        s_endpgm
}

fn main() {
    let args = fill::FillArgs {
        out: DevicePtr(0x20_0000),
        value: 0xdead_beef,
        count: 1000,
    };
    let dispatch = Dispatch::new_1d(1024, 64);
    println!(
        "{}: {} bytes of Gallium binary, {} bytes of code",
        fill::FILL.name,
        fill::BINARY.len(),
        fill::CODE.len()
    );
    match args.write_input(&dispatch) {
        Ok(input) => println!("input buffer: {:02x?}", input.bytes),
        Err(e) => eprintln!("cannot build the input buffer: {e}"),
    }
}
