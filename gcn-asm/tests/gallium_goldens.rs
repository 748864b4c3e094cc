//! `.gallium` sources of `tests/gallium-goldens/` against the binaries
//! `clrxasm -b gallium` wrote for them (`NAME.clrx.bin`; `make_goldens.sh`
//! remakes them with a CLRX build): ours must be clrxasm's byte for byte,
//! written with clrxasm's `.comment` text. They cover what the conformance
//! sources of `../shared` do not: Mesa 17.0's layout (`.driver_version`
//! 170000 and later) and clrxasm's register counts on random code.

use std::path::{Path, PathBuf};

use gcn_asm::gallium::{write_with, WriteOptions};
use gcn_asm::{assemble, AssembleOptions};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gallium-goldens")
}

#[test]
fn gallium_goldens_match_clrxasm() {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "s"))
        .collect();
    names.sort();
    assert!(names.len() >= 8, "the goldens of {}", dir().display());
    let mut failures = Vec::new();
    for source in &names {
        let text = std::fs::read_to_string(source).unwrap();
        let reference = std::fs::read(source.with_extension("clrx.bin")).unwrap();
        let options = AssembleOptions {
            file_name: source.display().to_string(),
            ..AssembleOptions::default()
        };
        let assembly = match assemble(&text, &options) {
            Ok(a) => a,
            Err(d) => {
                failures.push(format!("{}: refused:\n{d}", source.display()));
                continue;
            }
        };
        let binary = assembly.gallium.as_ref().expect("a Gallium binary");
        let ours = write_with(
            binary,
            &WriteOptions {
                comment: "CLRX GalliumBinGenerator 0.1.9".into(),
            },
        )
        .unwrap();
        if ours != reference {
            let at = ours.iter().zip(&reference).position(|(a, b)| a != b);
            failures.push(format!(
                "{}: differs from byte {at:?} ({} bytes, clrxasm's {})",
                source.display(),
                ours.len(),
                reference.len()
            ));
        }
        // It reads back with the same layout, and gcndisasm's listing says
        // so and assembles to the same binary.
        let back = gcn_asm::gallium::read(&ours).unwrap();
        assert_eq!(back.mesa170, binary.mesa170, "{}", source.display());
        let target = gcn_asm::decode::gallium::Target::Device(assembly.device);
        let listing = gcn_asm::decode::gallium::listing(&back, target).unwrap();
        assert_eq!(
            listing.contains(".driver_version 170000\n"),
            binary.mesa170,
            "{listing}"
        );
        let again = assemble(&listing, &AssembleOptions::default())
            .unwrap_or_else(|d| panic!("{}: {d}\n{listing}", source.display()));
        assert_eq!(again.gallium.as_ref().unwrap().mesa170, binary.mesa170);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
