//! Runtime support for GCN kernels: resource descriptors, device memory and a
//! CPU emulator.
//!
//! Today it re-exports the assembler and the `gcn_kernel!` macro, so a user
//! depends on this one crate; descriptors, memory and the emulator arrive
//! with their own issues.

pub use gcn_asm;
pub use gcn_macros::gcn_kernel;
