//! Test layer 4, first half: the OpenCL kernels compiled by clang-14 +
//! libclc + llc-14 and converted to CLRX syntax (`tests/opencl/`, see its
//! README) assemble into Gallium binaries holding each case's kernel with
//! the case's arguments. Running them is the emulator's business.
//!
//! Two constructs LLVM's code needs are not yet taken by the assembler:
//! `.scratchsym` and `off` as the address of a MUBUF instruction. The files
//! that use them are listed in [`KNOWN_GAPS`]; while a listed file fails
//! only on lines of those kinds, its cases are skipped with a notice. Any
//! other error, a listed file that does not use its gaps, or an unlisted
//! file that hits one fails the test.

use std::collections::BTreeSet;
use std::path::Path;

use gcn_asm::gallium::{ArgSemantic, ArgType};
use gcn_asm::{assemble, AssembleOptions};
use serde_json::Value;

/// The generated files (`GPU/SOURCE`) that use an assembler gap today.
const KNOWN_GAPS: &[(&str, &str)] = &[
    ("tahiti/private", "`.scratchsym`, `off` MUBUF address"),
    ("bonaire/private", "`.scratchsym`, `off` MUBUF address"),
    ("tonga/private", "`.scratchsym`, `off` MUBUF address"),
    ("gfx900/private", "`.scratchsym`, `off` MUBUF address"),
    ("tahiti/atomics", "`off` MUBUF address"),
    ("bonaire/atomics", "`off` MUBUF address"),
];

/// Whether a source line is one of the two known gaps.
fn gap_line(line: &str) -> bool {
    let line = line.trim();
    // `.scratchsym scratch_rsrc` and the instructions using the symbol
    if line.starts_with(".scratchsym") || line.contains("scratch_rsrc") {
        return true;
    }
    let mut operands = line.split(',');
    let first = operands.next().unwrap_or("");
    first.starts_with("buffer_") && operands.next().map(str::trim) == Some("off")
}

fn dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/opencl"))
}

#[test]
fn opencl_fixtures_assemble() {
    let text = std::fs::read_to_string(dir().join("cases.json")).expect("cases.json");
    let cases: Vec<Value> = serde_json::from_str(&text).expect("cases.json is JSON");
    assert!(cases.len() >= 30, "only {} cases", cases.len());
    let mut skipped_files = BTreeSet::new();
    let mut checked = 0;
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let kernel = case["kernel"].as_str().unwrap();
        let source = case["source"].as_str().unwrap();
        let stem = Path::new(source).file_stem().unwrap().to_str().unwrap();
        let user_args = case["args"].as_array().unwrap().len();
        let gpus = case["gpus"].as_array().unwrap();
        assert!(!gpus.is_empty(), "case {name}: no GPU");
        for gpu in gpus {
            let gpu = gpu.as_str().unwrap();
            let file = format!("{gpu}/{stem}");
            let path = dir().join("gen").join(format!("{file}.s"));
            let src = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let options = AssembleOptions {
                file_name: path.display().to_string(),
                ..AssembleOptions::default()
            };
            let gap = KNOWN_GAPS.iter().find(|g| g.0 == file).map(|g| g.1);
            let uses_gap = src.lines().any(gap_line);
            assert_eq!(
                gap.is_some(),
                uses_gap,
                "{file}.s: KNOWN_GAPS is out of date (the file {} a gap)",
                if uses_gap { "uses" } else { "does not use" }
            );
            let asm = match assemble(&src, &options) {
                Ok(asm) => asm,
                Err(diags) => {
                    let lines: Vec<&str> = src.lines().collect();
                    let other: Vec<String> = diags
                        .errors()
                        .filter(|d| !gap_line(lines[d.pos.line as usize - 1]))
                        .map(|d| d.to_string())
                        .collect();
                    assert!(
                        gap.is_some() && other.is_empty(),
                        "case {name}: {file}.s does not assemble:\n{}",
                        if other.is_empty() {
                            diags.to_string()
                        } else {
                            other.join("\n")
                        }
                    );
                    if skipped_files.insert(file.clone()) {
                        println!(
                            "skipped {file}.s: the assembler does not take {} yet",
                            gap.unwrap()
                        );
                    }
                    continue;
                }
            };
            let binary = asm
                .gallium
                .as_ref()
                .unwrap_or_else(|| panic!("{file}.s: not a Gallium binary"));
            let k = binary
                .kernels
                .iter()
                .find(|k| k.name == kernel)
                .unwrap_or_else(|| panic!("case {name}: {file}.s has no kernel {kernel}"));
            let general: Vec<_> = k
                .args
                .iter()
                .filter(|a| a.semantic == ArgSemantic::General)
                .collect();
            assert_eq!(
                general.len(),
                user_args,
                "case {name} on {gpu}: user arguments"
            );
            let tail: Vec<ArgSemantic> = k.args[user_args..].iter().map(|a| a.semantic).collect();
            assert_eq!(tail, [ArgSemantic::GridDimension, ArgSemantic::GridOffset]);
            for (i, (arg, spec)) in general
                .iter()
                .zip(case["args"].as_array().unwrap())
                .enumerate()
            {
                let kind = spec["kind"].as_str().unwrap();
                let expected = match kind {
                    "local" => vec![ArgType::Local],
                    "scalar" => vec![ArgType::Scalar],
                    _ => vec![ArgType::Global, ArgType::Constant],
                };
                assert!(
                    expected.contains(&arg.ty),
                    "case {name} on {gpu}: argument {i} is {:?}, the case gives a {kind}",
                    arg.ty
                );
            }
            assert_eq!(k.prog_info.len(), 5, "{file}.s: LLVM's 5 proginfo entries");
            checked += 1;
        }
    }
    println!(
        "{checked} case/GPU pairs assembled; {} files skipped for known gaps",
        skipped_files.len()
    );
    assert!(checked > 0);
}
