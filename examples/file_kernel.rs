//! A kernel assembled at compile time from a `.s` file next to the crate
//! (editing the file, or anything it includes, rebuilds the example).
//!
//! `cargo run --example file_kernel`

use gcn_runtime::kernel::{DevicePtr, Dispatch, KernelArgs};

mod kernel {
    // Relative to this package's manifest, examples/Cargo.toml.
    gcn_runtime::gcn_kernel!(file = "kernels/scale_offsets.s");
}

fn main() {
    let k = kernel::SCALE_OFFSETS;
    println!(
        "examples/kernels/scale_offsets.s: a {}-byte Gallium binary, {} bytes of code",
        kernel::BINARY.len(),
        kernel::CODE.len()
    );
    println!(
        "kernel {} at offset {}: PGM_RSRC1 {:#010x}, PGM_RSRC2 {:#010x}",
        k.name,
        k.offset,
        k.pgm_rsrc1(),
        k.pgm_rsrc2()
    );
    for arg in k.args {
        println!("  {:<6} {}", arg.name, arg.declaration);
    }
    let args = kernel::ScaleOffsetsArgs {
        scale: 0.5f32.to_bits(),
        bias: 2.0f32.to_bits(),
        out: DevicePtr(0x10_0000),
    };
    match args.write_input(&Dispatch::new_1d(256, 64)) {
        Ok(input) => {
            println!("input buffer ({} bytes):", input.bytes.len());
            for (i, w) in input.bytes.chunks(4).enumerate() {
                let w = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
                println!("  dword {i:2}: {w:#010x}");
            }
        }
        Err(e) => eprintln!("cannot build the input buffer: {e}"),
    }
}
