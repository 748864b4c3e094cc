//! The Gallium sources of `shared/conformance/gallium/` against the
//! binaries `clrxasm -b gallium` wrote for them: our binary must read back
//! (with our reader) exactly like the reference binary — same kernels,
//! arguments, proginfo, code and global data — and, written with CLRX's
//! `.comment` text, be byte-for-byte identical.
//!
//! A source that uses an instruction the encoder does not know yet (the
//! memory instructions are being added) is reported as skipped for that
//! reason only; any other failure fails the test.

mod common;

use gcn_asm::gallium::{read, write_with, WriteOptions};
use gcn_asm::{assemble, AssembleOptions};

/// The `.comment` CLRX 0.1.9 writes into the inner ELF.
const CLRX_COMMENT: &str = "CLRX GalliumBinGenerator 0.1.9";

/// Mnemonic prefixes of the instruction families not encoded yet.
const PENDING_FAMILIES: &[&str] = &[
    "buffer_", "tbuffer_", "ds_", "image_", "flat_", "global_", "scratch_", "exp",
];

/// True when every error is "unknown instruction" for a pending family.
fn only_pending_instructions(diags: &gcn_asm::Diagnostics) -> bool {
    let mut errors = diags.errors().peekable();
    errors.peek().is_some()
        && errors.all(|e| {
            e.message
                .strip_prefix("unknown instruction `")
                .is_some_and(|m| PENDING_FAMILIES.iter().any(|f| m.starts_with(f)))
        })
}

#[test]
fn gallium_sources_match_reference_binaries() {
    let Some(shared) = common::shared_dir() else {
        println!("notice: ../shared not found; Gallium conformance skipped");
        return;
    };
    let dir = shared.join("conformance/gallium");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!(
            "notice: {} not found; Gallium conformance skipped",
            dir.display()
        );
        return;
    };
    let mut sources: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "s"))
        .collect();
    sources.sort();
    assert!(!sources.is_empty(), "no sources in {}", dir.display());
    let mut compared = 0;
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
        let assembly = match assemble(&text, &options) {
            Ok(a) => a,
            Err(d) if only_pending_instructions(&d) => {
                println!("{name}: skipped: instruction not supported yet ({d})");
                continue;
            }
            Err(d) => panic!("{name}: assembly failed:\n{d}"),
        };
        let ours = assembly.gallium_bytes().expect("a Gallium binary");
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
        compared += 1;
    }
    assert!(compared > 0, "no Gallium source could be compared");
}
