//! The Gallium sources of `shared/conformance/gallium/` against the
//! binaries `clrxasm -b gallium` wrote for them: our binary must read back
//! (with our reader) exactly like the reference binary — same kernels,
//! arguments, proginfo, code and global data — and, written with CLRX's
//! `.comment` text, be byte-for-byte identical. The `gcnasm -b gallium`
//! command must write the same bytes as the library.

mod common;

use gcn_asm::gallium::{read, write_with, WriteOptions};
use gcn_asm::{assemble, AssembleOptions};

/// The `.comment` CLRX 0.1.9 writes into the inner ELF.
const CLRX_COMMENT: &str = "CLRX GalliumBinGenerator 0.1.9";

#[test]
fn gallium_sources_match_reference_binaries() {
    const WHAT: &str = "the Gallium conformance (sources against clrxasm's binaries)";
    let Some(shared) = common::shared_dir_for(WHAT) else {
        return;
    };
    let dir = shared.join("conformance/gallium");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        common::skipped(WHAT, &dir);
        return;
    };
    let mut sources: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "s"))
        .collect();
    sources.sort();
    assert!(!sources.is_empty(), "no sources in {}", dir.display());
    for source in &sources {
        let name = source.file_stem().unwrap().to_string_lossy().into_owned();
        let reference_path = dir.join(format!("{name}.clrxasm.bin"));
        let reference = std::fs::read(&reference_path)
            .unwrap_or_else(|e| panic!("{}: {e}", reference_path.display()));
        let text = std::fs::read_to_string(source).unwrap();
        let options = AssembleOptions {
            file_name: source.display().to_string(),
            ..AssembleOptions::default()
        };
        let assembly =
            assemble(&text, &options).unwrap_or_else(|d| panic!("{name}: assembly failed:\n{d}"));
        let ours = assembly.gallium_bytes().expect("a Gallium binary");
        let cli_output = std::env::temp_dir().join(format!(
            "gcn-asm-gallium-conformance-{}-{name}.bin",
            std::process::id()
        ));
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_gcnasm"))
            .args(["-b", "gallium", "-o"])
            .arg(&cli_output)
            .arg(source)
            .status()
            .expect("gcnasm runs");
        assert!(status.success(), "{name}: gcnasm failed");
        let cli_bytes = std::fs::read(&cli_output).expect("gcnasm wrote its output");
        let _ = std::fs::remove_file(&cli_output);
        assert!(
            cli_bytes == ours,
            "{name}: gcnasm -b gallium differs from the library"
        );
        let ours_view = read(&ours).unwrap_or_else(|e| panic!("{name}: our binary: {e}"));
        let reference_view =
            read(&reference).unwrap_or_else(|e| panic!("{name}: reference binary: {e}"));
        assert_eq!(ours_view, reference_view, "{name}: reader views differ");
        let binary = assembly.gallium.as_ref().unwrap();
        let same_comment = write_with(
            binary,
            &WriteOptions {
                comment: CLRX_COMMENT.into(),
            },
        )
        .unwrap();
        assert!(
            same_comment == reference,
            "{name}: bytes differ from the reference (first at {:?})",
            same_comment
                .iter()
                .zip(&reference)
                .position(|(a, b)| a != b)
                .or(Some(same_comment.len().min(reference.len())))
        );
        println!("{name}: identical to the reference binary");
    }
}
