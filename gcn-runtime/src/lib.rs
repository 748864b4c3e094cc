//! Runtime support for GCN kernels: resource descriptors, device memory and a
//! CPU emulator.
//!
//! Only the assembler is re-exported for now; descriptors, memory and the
//! emulator arrive with their own issues.

pub use gcn_asm;
