//! Helpers shared by the integration tests and the benchmark.

use std::path::PathBuf;

/// The project's `shared/` folder (reference documents and conformance
/// data), when present: `$GCN_KERNELS_SHARED`, else the nearest ancestor of
/// this crate that has a `shared/conformance` folder (the checkout normally
/// sits beside it: `../shared`).
#[allow(dead_code)]
pub fn shared_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("GCN_KERNELS_SHARED") {
        return Some(PathBuf::from(dir));
    }
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .map(|a| a.join("shared"))
        .find(|s| s.join("conformance").is_dir())
}

/// Tells the person running the tests that a check was skipped for want of
/// `shared/`: written to the process's standard error directly, not through
/// `eprintln!`, which the test harness captures. A fresh clone has no
/// `../shared`, and a test that passes in 0.00 s without saying so reads as
/// a test that ran.
#[allow(dead_code)]
pub fn skipped(what: &str, missing: &std::path::Path) {
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "notice: {} not found: {what} skipped (set GCN_KERNELS_SHARED to the project's \
         shared/ folder, or check it out beside this repository as ../shared)",
        missing.display()
    );
}

/// [`shared_dir`], or `None` after a [`skipped`] notice naming `what`.
#[allow(dead_code)]
pub fn shared_dir_for(what: &str) -> Option<PathBuf> {
    let dir = shared_dir();
    if dir.is_none() {
        skipped(what, std::path::Path::new("shared/ (../shared)"));
    }
    dir
}

/// The text of `shared/conformance/clrx-encoding-cases.jsonl`, or `None`
/// (after a [`skipped`] notice naming `what`) when it is not available.
#[allow(dead_code)]
pub fn encoding_cases(what: &str) -> Option<String> {
    let path = shared_dir_for(what)?.join("conformance/clrx-encoding-cases.jsonl");
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(_) => {
            skipped(what, &path);
            None
        }
    }
}

/// The expected `.text` words of a conformance case (empty for a bad case).
#[allow(dead_code)]
pub fn case_words(case: &serde_json::Value) -> Vec<u32> {
    case["words"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|w| w.as_u64())
                .map(|w| w as u32)
                .collect()
        })
        .unwrap_or_default()
}
