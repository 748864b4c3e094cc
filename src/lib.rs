//! The `gcn-kernels` workspace package: it holds the cross-crate tests
//! (`tests/`) and the examples that need its dev-dependencies (`blur`,
//! `mutation_study`); the other examples are the `gcn-kernels-examples`
//! package (`examples/Cargo.toml`), so that running one builds only the
//! libraries. The libraries are `gcn-asm`, `gcn-macros` and `gcn-runtime`.

pub use gcn_asm;
pub use gcn_runtime;

/// The README's Rust examples, compiled and run as doctests (`cargo test
/// --doc -p gcn-kernels`), so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The Rust examples of `docs/gcn_kernel.md`, as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/gcn_kernel.md")]
pub struct GcnKernelDocDoctests;

/// The Rust examples of `docs/running.md`, as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/running.md")]
pub struct RunningDocDoctests;
