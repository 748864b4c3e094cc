//! Packaging: a crate that depends on `gcn-runtime` (and through it on
//! `gcn-macros` and `gcn-asm`) compiles no command-line code. The CLIs and
//! clap sit behind the default-off `cli` features.

use std::process::Command;

/// The packages `cargo tree` lists for `package`'s normal and build
/// dependencies with default features: what a user of it compiles.
fn compiled_for(package: &str) -> String {
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "-e",
            "normal,build",
            "--prefix",
            "none",
        ])
        .args(["-p", package])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree -p {package} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn library_users_compile_no_cli_code() {
    for package in ["gcn-runtime", "gcn-macros", "gcn-asm"] {
        let tree = compiled_for(package);
        // The listing names the package itself first: it is not empty.
        assert!(tree.starts_with(package), "{tree}");
        for line in tree.lines() {
            let name = line.split_whitespace().next().unwrap_or("");
            assert!(
                !name.starts_with("clap"),
                "a user of {package} compiles {line}:\n{tree}"
            );
        }
    }
}
