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

/// The text of `shared/conformance/clrx-encoding-cases.jsonl`, or `None`
/// (after printing a notice) when it is not available.
#[allow(dead_code)]
pub fn encoding_cases() -> Option<String> {
    let path = shared_dir()?.join("conformance/clrx-encoding-cases.jsonl");
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(_) => {
            println!(
                "notice: {} not found; conformance cases skipped",
                path.display()
            );
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
