//! The `gcn-kernels-examples` package: the runnable examples that need only
//! the libraries (`cargo run --example vector_add`, `assemble_kernel`,
//! `coverage`, `file_kernel`, `inline_kernel`, `string_kernel`). The package
//! has no library code of its own; cargo needs a target besides examples.
