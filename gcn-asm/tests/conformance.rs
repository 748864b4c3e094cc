//! Conformance: every case of `../shared/conformance/clrx-encoding-cases.jsonl`
//! (the CLRX assembler's own test cases, GCN 1.0-1.4.1) and of
//! `clrx-encoding-cases-gcn15.jsonl` (GCN 1.5 and 1.5.1; a case with
//! `"wave32": true` is assembled in wave32 mode) through the public
//! `assemble` API.
//!
//! Good cases must give exactly the expected `.text` words, bad cases must be
//! rejected. The ALU and scalar-memory families must pass at 99% or more per
//! GCN version, the memory families (DS, MUBUF, MTBUF, MIMG, EXP, FLAT,
//! GLOBAL, SCRATCH) at 99.5%. When `../shared` is
//! absent (a user's fresh clone) the test prints a notice and passes.

use std::collections::BTreeMap;

use gcn_asm::isa::{self, Encoding};
use gcn_asm::{assemble, AssembleOptions, Device};

mod common;

/// The family group a case belongs to, from its instruction's mnemonic.
fn family(source: &str) -> &'static str {
    for statement in source.split(['\n', ';']) {
        let mut text = statement.trim();
        // Drop leading labels.
        while let Some(colon) = text.find(':') {
            let label = &text[..colon];
            if !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
            {
                text = text[colon + 1..].trim();
            } else {
                break;
            }
        }
        if text.is_empty() || text.starts_with('.') || text.contains('=') {
            continue;
        }
        let mnemonic = text
            .split(|c: char| c.is_whitespace())
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let base = ["_e32", "_e64", "_sdwa", "_dpp"]
            .iter()
            .find_map(|s| mnemonic.strip_suffix(s))
            .filter(|b| !isa::rows(b).is_empty())
            .unwrap_or(&mnemonic);
        if let Some(row) = isa::rows(base).first() {
            return match row.encoding {
                Encoding::Ds
                | Encoding::Mubuf
                | Encoding::Mtbuf
                | Encoding::Mimg
                | Encoding::Exp
                | Encoding::Flat
                | Encoding::Global
                | Encoding::Scratch => "memory",
                _ => "alu",
            };
        }
        let memory_prefixes = [
            "ds_", "buffer_", "tbuffer_", "image_", "exp", "flat_", "global_", "scratch_",
        ];
        if memory_prefixes.iter().any(|p| mnemonic.starts_with(p)) {
            return "memory";
        }
        return "alu";
    }
    "alu"
}

#[derive(Default)]
struct Tally {
    total: usize,
    passed: usize,
    failures: Vec<String>,
}

/// Without `shared/` the conformance test passes, but says on standard
/// error what it skipped and how to point it at `shared/` (the test runs
/// itself with `GCN_KERNELS_SHARED` naming a folder that does not exist).
#[test]
fn missing_shared_is_announced() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "clrx_encoding_cases", "--test-threads=1"])
        .env("GCN_KERNELS_SHARED", "/nonexistent/gcn-kernels-shared")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("notice: /nonexistent/gcn-kernels-shared/conformance/clrx-encoding-cases.jsonl not found")
            && stderr.contains("CLRX encoding conformance cases")
            && stderr.contains("GCN_KERNELS_SHARED"),
        "{stderr}"
    );
}

#[test]
fn clrx_encoding_cases() {
    let Some(text) =
        common::encoding_cases("the CLRX encoding conformance cases (clrx_encoding_cases)")
    else {
        return;
    };
    run_cases(&text);
}

#[test]
fn clrx_gcn15_encoding_cases() {
    let what = "the CLRX GCN 1.5 encoding conformance cases (clrx_gcn15_encoding_cases)";
    let Some(dir) = common::shared_dir_for(what) else {
        return;
    };
    let path = dir.join("conformance/clrx-encoding-cases-gcn15.jsonl");
    let Ok(text) = std::fs::read_to_string(&path) else {
        common::skipped(what, &path);
        return;
    };
    run_cases(&text);
}

/// Assembles every case of a JSON-lines corpus and checks the pass rate of
/// each (architecture, family) group.
fn run_cases(text: &str) {
    let mut tallies: BTreeMap<(String, &'static str), Tally> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: serde_json::Value = serde_json::from_str(line).expect("valid JSON line");
        let arch = case["arch"].as_str().unwrap_or_default().to_string();
        let device = case["device"].as_str().unwrap_or_default();
        let source = case["source"].as_str().unwrap_or_default();
        let good = case["good"].as_bool().unwrap_or(false);
        let expected: Vec<u32> = common::case_words(&case);
        let options = AssembleOptions {
            device: Device::from_name(device),
            wave32: case["wave32"].as_bool().unwrap_or(false),
            ..AssembleOptions::default()
        };
        let result = assemble(source, &options);
        let verdict = match (&result, good) {
            (Ok(out), true) => {
                let words: Vec<u32> = out
                    .text()
                    .chunks(4)
                    .map(|c| {
                        let mut b = [0u8; 4];
                        b[..c.len()].copy_from_slice(c);
                        u32::from_le_bytes(b)
                    })
                    .collect();
                if words == expected {
                    None
                } else {
                    Some(format!("words {words:08x?}, expected {expected:08x?}"))
                }
            }
            (Err(_), false) => None,
            (Ok(_), false) => Some("accepted, but clrxasm rejects it".to_string()),
            (Err(d), true) => Some(format!("rejected: {d}")),
        };
        let tally = tallies.entry((arch.clone(), family(source))).or_default();
        tally.total += 1;
        match verdict {
            None => tally.passed += 1,
            Some(why) => tally.failures.push(format!("[{arch}] {source:?}: {why}")),
        }
    }
    let mut below = Vec::new();
    for ((arch, family), tally) in &tallies {
        let rate = 100.0 * tally.passed as f64 / tally.total.max(1) as f64;
        println!(
            "{arch:9} {family:7} {:5}/{:<5} passed ({rate:.1}%)",
            tally.passed, tally.total
        );
        for failure in &tally.failures {
            println!("    {failure}");
        }
        let required = if *family == "alu" { 99.0 } else { 99.5 };
        if rate < required {
            below.push(format!(
                "{arch} {family}: {rate:.1}% (required {required}%)"
            ));
        }
    }
    assert!(
        below.is_empty(),
        "families below their pass rate: {}",
        below.join(", ")
    );
}
