//! Clang offload bundles (`gcn_asm::bundle`) as hipcc writes them (the
//! fixtures of `tests/rocm/gen/hip-bundle/`): the chosen entry is the code
//! object hipcc compiled, every prefix and damaged byte is an error (never
//! a panic), compressed (`CCOB`) forms of a real bundle read back the same,
//! and `gcndisasm` lists the chosen entry.
//!
//! clang-offload-bundler 15 (Debian 12) cannot write compressed bundles, so
//! the `CCOB` files here are built from the real bundles with the encoders
//! of the crates the reader decodes with (ruzstd, miniz_oxide); no `CCOB`
//! file written by clang-offload-bundler itself is tested.

use std::path::{Path, PathBuf};
use std::process::Command;

use gcn_asm::bundle::{self, BundleError, Compression};
use proptest::prelude::*;

fn gen() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/rocm/gen")
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(gen().join("hip-bundle").join(name)).unwrap()
}

const GFX906: &str = "hipv4-amdgcn-amd-amdhsa--gfx906";

#[test]
fn hipcc_bundles_hold_the_code_object() {
    let co = std::fs::read(gen().join("hip/gfx906/hip_kernels.co")).unwrap();
    for name in ["hip_kernels.gfx906.hipfb", "hip_kernels.gfx906.o"] {
        let b = bundle::read(&fixture(name)).unwrap();
        assert_eq!(b.ids(), ["host-x86_64-unknown-linux", GFX906], "{name}");
        assert!(b.entries[0].is_host() && b.entries[0].data.is_empty());
        let entry = b.select(None).unwrap();
        assert_eq!((entry.id.as_str(), entry.offset), (GFX906, 4096));
        assert_eq!(entry.data, co, "{name}: the entry is hipcc's code object");
        assert_eq!(b.select(Some("gfx906")).unwrap().id, GFX906);
        assert!(b.compressed.is_none());
    }
    let xnack = bundle::read(&fixture("hip_kernels.gfx906-xnack.hipfb")).unwrap();
    let entry = xnack.select(Some("gfx906")).unwrap();
    assert_eq!(entry.id, "hipv4-amdgcn-amd-amdhsa--gfx906:xnack-");
    assert_eq!(entry.target_id(), Some("gfx906:xnack-"));
    let two = bundle::read(&fixture("hip_kernels.gfx900-gfx906.hipfb")).unwrap();
    assert_eq!(two.select(Some("gfx906")).unwrap().data, co);
    let gfx900 = two.select(Some("gfx900")).unwrap();
    let read = gcn_asm::rocm::read(&gfx900.data).unwrap();
    assert_eq!(read.processor.name, "gfx900");
    assert!(matches!(
        two.select(None),
        Err(BundleError::Ambiguous { .. })
    ));
}

#[test]
fn every_prefix_of_a_real_bundle_is_an_error() {
    for name in [
        "hip_kernels.gfx906.hipfb",
        "hip_kernels.gfx900-gfx906.hipfb",
    ] {
        let bytes = fixture(name);
        assert!(bundle::read(&bytes).is_ok());
        for cut in 0..bytes.len() {
            let err = bundle::read(&bytes[..cut]).unwrap_err();
            // What the error names lies in the prefix: a field cut at its
            // end, or an entry past it.
            match err {
                BundleError::NotABundle => assert!(cut < 24, "{name} prefix {cut}"),
                BundleError::Truncated { len, .. } | BundleError::EntryOutOfRange { len, .. } => {
                    assert_eq!(len, cut as u64, "{name} prefix {cut}")
                }
                e => panic!("{name} prefix {cut}: {e}"),
            }
        }
    }
}

/// A `CCOB` file of version 2 (LLVM 18-19) or 3 (LLVM 20 on) holding
/// `plain`, as `CompressedOffloadBundle::compress` lays it out.
fn ccob(version: u16, method: Compression, plain: &[u8]) -> Vec<u8> {
    let data = match method {
        Compression::Zstd => {
            ruzstd::encoding::compress_to_vec(plain, ruzstd::encoding::CompressionLevel::Fastest)
        }
        Compression::Zlib => miniz_oxide::deflate::compress_to_vec_zlib(plain, 6),
    };
    let mut out = b"CCOB".to_vec();
    out.extend(version.to_le_bytes());
    out.extend((method as u16).to_le_bytes());
    if version == 3 {
        out.extend(((32 + data.len()) as u64).to_le_bytes());
        out.extend((plain.len() as u64).to_le_bytes());
    } else {
        out.extend(((24 + data.len()) as u32).to_le_bytes());
        out.extend((plain.len() as u32).to_le_bytes());
    }
    out.extend(0u64.to_le_bytes());
    out.extend(data);
    out
}

#[test]
fn compressed_real_bundles_read_the_same() {
    assert_eq!(Compression::Zlib as u16, 0);
    assert_eq!(Compression::Zstd as u16, 1);
    let plain = fixture("hip_kernels.gfx900-gfx906.hipfb");
    let want = bundle::read(&plain).unwrap();
    for version in [2, 3] {
        for method in [Compression::Zstd, Compression::Zlib] {
            let file = ccob(version, method, &plain);
            let got = bundle::read(&file).unwrap();
            assert_eq!(got.entries, want.entries, "v{version} {method}");
            let header = got.compressed.unwrap();
            assert_eq!((header.version, header.method), (version, method));
            assert_eq!(header.uncompressed_size, plain.len() as u64);
            // Padding after the file size the header gives is ignored.
            let mut padded = file.clone();
            padded.extend([0u8; 13]);
            assert_eq!(bundle::read(&padded).unwrap().entries, want.entries);
            // Cut anywhere: an error, never a panic.
            for cut in (0..file.len()).step_by(7) {
                assert!(
                    bundle::read(&file[..cut]).is_err(),
                    "v{version} {method} {cut}"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Damaged bytes anywhere in a real bundle (plain or compressed) give
    /// a value or an error, never a panic.
    #[test]
    fn damaged_bundles_never_panic(
        // Mostly the headers (bundle and CCOB), sometimes anywhere.
        damage in proptest::collection::vec(
            (prop_oneof![3 => 0usize..140, 1 => 0usize..13000], any::<u8>()),
            1..4,
        ),
        cut in prop_oneof![3 => Just(usize::MAX), 1 => 0usize..13000],
        compressed in any::<bool>(),
    ) {
        let plain = fixture("hip_kernels.gfx906.hipfb");
        let mut bytes = if compressed { ccob(3, Compression::Zstd, &plain) } else { plain };
        for (at, value) in damage {
            let at = at % bytes.len();
            bytes[at] = value;
        }
        bytes.truncate(cut);
        if let Ok(b) = bundle::read(&bytes) {
            let _ = b.select(Some("gfx906"));
            let _ = b.select(None);
        }
    }
}

fn gcndisasm(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gcndisasm"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn gcndisasm_lists_the_chosen_entry() {
    let co = gen().join("hip/gfx906/hip_kernels.co");
    let (code, unbundled, _) = gcndisasm(&[co.to_str().unwrap()]);
    assert_eq!(code, 0);
    let hb = |n: &str| {
        gen()
            .join("hip-bundle")
            .join(n)
            .to_str()
            .unwrap()
            .to_string()
    };
    for (file, extra) in [
        ("hip_kernels.gfx906.hipfb", &[][..]),
        ("hip_kernels.gfx906.o", &[]),
        ("hip_kernels.gfx900-gfx906.hipfb", &["-g", "gfx906"]),
    ] {
        let path = hb(file);
        let (code, listing, err) = gcndisasm(&[extra, &[&path[..]]].concat());
        assert_eq!(code, 0, "{file}: {err}");
        let rest = listing
            .strip_prefix("# offload bundle entry hipv4-amdgcn-amd-amdhsa--gfx906\n")
            .unwrap_or_else(|| panic!("{file}: {}", &listing[..80]));
        assert_eq!(rest, unbundled, "{file}");
    }
    let (code, listing, _) = gcndisasm(&["-g", "gfx900", &hb("hip_kernels.gfx900-gfx906.hipfb")]);
    assert_eq!(code, 0);
    assert!(listing.starts_with(
        "# offload bundle entry hipv4-amdgcn-amd-amdhsa--gfx900\n.rocm\n.gpu gfx900\n"
    ));
    let (code, _, err) = gcndisasm(&[&hb("hip_kernels.gfx900-gfx906.hipfb")]);
    assert_eq!(code, 1);
    assert!(
        err.contains("several GPU entries")
            && err.contains("--gfx900, hipv4")
            && err.contains("-g gfx900"),
        "{err}"
    );
    let (code, _, err) = gcndisasm(&["-g", "gfx803", &hb("hip_kernels.gfx906.o")]);
    assert_eq!(code, 1);
    assert!(err.contains("no entry for gfx803"), "{err}");
}
