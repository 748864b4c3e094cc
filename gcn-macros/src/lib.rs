//! `gcn_kernel!`: AMD GCN kernels written inline in Rust.
//!
//! The macro is not implemented yet (tracked as its own issue); this crate
//! exists so that the workspace layout of `DESIGN.md` is in place.
