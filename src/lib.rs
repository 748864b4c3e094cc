//! The `gcn-kernels` workspace package: it holds the runnable examples
//! (`examples/`) and the cross-crate tests (`tests/`). The libraries are
//! `gcn-asm`, `gcn-macros` and `gcn-runtime`.

pub use gcn_asm;
pub use gcn_runtime;
