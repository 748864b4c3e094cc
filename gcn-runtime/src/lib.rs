//! Runtime support for GCN kernels: kernel handles and the Gallium kernel
//! input buffer ([`kernel`]); resource descriptors, device memory and a CPU
//! emulator arrive with their own issues.
//!
//! It re-exports the assembler and the `gcn_kernel!` macro, so a user
//! depends on this one crate.

pub use gcn_asm;
pub use gcn_macros::gcn_kernel;

pub mod kernel;
