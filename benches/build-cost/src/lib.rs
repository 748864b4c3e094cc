//! Build-cost benchmark: with the `kernel` feature this crate assembles
//! `kernel.s` (10,000 instructions, made by `gen_kernel.sh`) with
//! `gcn_kernel!`; without it, the crate is otherwise the same.

/// The kernel, when built with `--features kernel`.
#[cfg(feature = "kernel")]
pub mod kernel {
    gcn_runtime::gcn_kernel!(file = "kernel.s");
}

/// Something to compile in both configurations.
pub fn answer() -> u32 {
    42
}
