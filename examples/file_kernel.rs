//! A kernel assembled at compile time from a `.s` file next to the crate
//! (editing the file rebuilds the example).
//!
//! `cargo run --example file_kernel`

mod kernel {
    gcn_runtime::gcn_kernel!(file = "examples/kernels/scale_offsets.s");
}

fn main() {
    println!(
        "examples/kernels/scale_offsets.s: {} bytes of code",
        kernel::CODE.len()
    );
}
