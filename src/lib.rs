//! The `gcn-kernels` workspace package: it holds the runnable examples
//! (`examples/`) and the cross-crate tests (`tests/`). The libraries are
//! `gcn-asm`, `gcn-macros` and `gcn-runtime`.

pub use gcn_asm;
pub use gcn_runtime;

/// The README's Rust examples, compiled and run as doctests (`cargo test
/// --doc -p gcn-kernels`), so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
