//! The workspace's layout for users: `cargo run --example vector_add` (and
//! every example of `examples/Cargo.toml`) compiles the libraries and their
//! dependencies, not the root package's test-only dev-dependencies (image,
//! png, trybuild, serde_json); and no file of `examples/` is left out of
//! both packages (the root package lists its examples by hand).

use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn cargo(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO"))
        .args(args)
        .current_dir(ROOT)
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_examples_package_compiles_no_test_dependencies() {
    // What building one of its examples compiles: its normal and build
    // dependencies (it has no dev-dependencies).
    let tree = cargo(&[
        "tree",
        "--offline",
        "-p",
        "gcn-kernels-examples",
        "-e",
        "normal,build,dev",
        "--prefix",
        "none",
    ]);
    assert!(tree.contains("gcn-runtime"), "{tree}");
    for line in tree.lines() {
        let name = line.split_whitespace().next().unwrap_or("");
        for heavy in ["image", "png", "trybuild", "serde_json", "clap"] {
            assert_ne!(
                name, heavy,
                "the examples package pulls in {heavy}:\n{tree}"
            );
        }
    }
}

#[test]
fn every_example_file_is_an_example_of_one_package() {
    let metadata: serde_json::Value = serde_json::from_str(&cargo(&[
        "metadata",
        "--offline",
        "--no-deps",
        "--format-version",
        "1",
    ]))
    .unwrap();
    let mut targets: Vec<(String, String)> = Vec::new();
    for package in metadata["packages"].as_array().unwrap() {
        for target in package["targets"].as_array().unwrap() {
            if target["kind"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k == "example")
            {
                let path = std::fs::canonicalize(target["src_path"].as_str().unwrap()).unwrap();
                targets.push((
                    path.display().to_string(),
                    package["name"].as_str().unwrap().to_string(),
                ));
            }
        }
    }
    let dir = Path::new(ROOT).join("examples");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "rs") || path.ends_with("lib.rs") {
            continue;
        }
        files += 1;
        let path = std::fs::canonicalize(&path).unwrap().display().to_string();
        let owners: Vec<&String> = targets
            .iter()
            .filter(|(p, _)| *p == path)
            .map(|(_, n)| n)
            .collect();
        assert_eq!(
            owners.len(),
            1,
            "{path} must be an example of exactly one package (examples/Cargo.toml, or \
             the root Cargo.toml when it needs the root's dev-dependencies): {owners:?}"
        );
    }
    assert!(files >= 8, "{files} example files");
    // The README's first command finds its example in the light package.
    assert!(targets
        .iter()
        .any(|(p, n)| p.ends_with("vector_add.rs") && n == "gcn-kernels-examples"));
}
