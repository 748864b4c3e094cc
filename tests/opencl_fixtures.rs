//! Test layer 4, first half: the OpenCL kernels compiled by clang-14 +
//! libclc + llc-14 and converted to CLRX syntax (`tests/opencl/`, see its
//! README) assemble into Gallium binaries holding each case's kernel with
//! the case's arguments (including `.scratchsym` relocations and `off`
//! MUBUF addresses). `tests/opencl_run.rs` runs them.

use std::path::Path;

use gcn_asm::gallium::{ArgSemantic, ArgType};
use gcn_asm::{assemble, AssembleOptions};
use serde_json::Value;

fn dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/opencl"))
}

#[test]
fn opencl_fixtures_assemble() {
    let text = std::fs::read_to_string(dir().join("cases.json")).expect("cases.json");
    let cases: Vec<Value> = serde_json::from_str(&text).expect("cases.json is JSON");
    assert!(cases.len() >= 30, "only {} cases", cases.len());
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
            let asm = assemble(&src, &options)
                .unwrap_or_else(|d| panic!("case {name}: {file}.s does not assemble:\n{d}"));
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
    println!("{checked} case/GPU pairs assembled");
    assert!(checked > 0);
}
