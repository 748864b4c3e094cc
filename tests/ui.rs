//! Compile-time behaviour of `gcn_kernel!` (trybuild): every file in
//! `tests/ui/` must fail to compile with exactly the `.stderr` beside it
//! (one error class per file, each pointing at the right place); every file
//! in `tests/ui-pass/` must compile and run.
//!
//! After an intended change of a message: `TRYBUILD=overwrite cargo test --test ui`.

#[test]
fn gcn_kernel_compile_errors() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
    cases.pass("tests/ui-pass/*.rs");
}
