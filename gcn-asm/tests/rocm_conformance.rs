//! The ROCm sources of `shared/conformance/rocm/` against the code objects
//! `clrxasm -b rocm` wrote for them: our code object, read back with our
//! reader, must have the same version, processor, `e_flags`, kernels (every
//! `amd_kernel_code_t` / descriptor field, entry point within `.text`,
//! arguments and resource figures), metadata tree, global data and code as
//! the reference. The `gcnasm -b rocm` command must write the same bytes as
//! the library, and where LLVM 15's tools are installed they must accept
//! our output.

mod common;
#[path = "rocm_support/mod.rs"]
mod rocm_support;

use rocm_support::{assert_equivalent, llvm_accepts};

use gcn_asm::rocm;
use gcn_asm::{assemble, AssembleOptions};

#[test]
fn rocm_sources_match_reference_code_objects() {
    let Some(shared) = common::shared_dir() else {
        println!("notice: ../shared not found; ROCm conformance skipped");
        return;
    };
    let dir = shared.join("conformance/rocm");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!(
            "notice: {} not found; ROCm conformance skipped",
            dir.display()
        );
        return;
    };
    let mut sources: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "s"))
        .collect();
    sources.sort();
    assert_eq!(sources.len(), 3, "the three goldens of {}", dir.display());
    for source in &sources {
        let name = source.file_stem().unwrap().to_string_lossy().into_owned();
        let reference = std::fs::read(dir.join(format!("{name}.clrxasm.bin"))).unwrap();
        let text = std::fs::read_to_string(source).unwrap();
        let options = AssembleOptions {
            file_name: source.display().to_string(),
            ..AssembleOptions::default()
        };
        let assembly = assemble(&text, &options).unwrap_or_else(|d| panic!("{name}:\n{d}"));
        let ours = assembly
            .rocm_bytes()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = std::env::temp_dir().join(format!(
            "gcn-asm-rocm-conformance-{}-{name}.co",
            std::process::id()
        ));
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_gcnasm"))
            .args(["-b", "rocm", "-o"])
            .arg(&out)
            .arg(source)
            .status()
            .expect("gcnasm runs");
        assert!(status.success(), "{name}: gcnasm failed");
        assert_eq!(
            std::fs::read(&out).unwrap(),
            ours,
            "{name}: gcnasm and the library differ"
        );
        let ours_read = rocm::read(&ours).unwrap_or_else(|e| panic!("{name}: our output: {e}"));
        let theirs = rocm::read(&reference).unwrap_or_else(|e| panic!("{name}: reference: {e}"));
        assert_equivalent(&ours_read, &theirs, &name);
        let mcpu = if name.contains("gfx906") {
            "gfx906"
        } else if name.contains("fiji") {
            "gfx803"
        } else {
            "gfx900"
        };
        llvm_accepts(&out, Some(mcpu));
        let _ = std::fs::remove_file(&out);
    }
}
