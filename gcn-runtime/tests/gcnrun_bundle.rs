//! `gcnrun` on clang offload bundles (`tests/rocm/gen/hip-bundle/`, what
//! `hipcc --genco` and `hipcc --cuda-device-only -c` write): the chosen
//! entry runs with every check on and gives what the unbundled code object
//! gives; a wrong target lists the entries; a damaged bundle is a run error
//! naming what is wrong.

use std::path::{Path, PathBuf};

#[path = "common/cli.rs"]
mod cli;
use cli::{expect, gcnrun};

/// A fresh directory for one test's files.
fn workdir(test: &str) -> PathBuf {
    cli::workdir_in("gcnrun_bundle", test)
}

fn gen() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/rocm/gen")
}

/// A bundle of `tests/rocm/gen/hip-bundle/`.
fn bundle(name: &str) -> String {
    gen()
        .join("hip-bundle")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

/// Runs `block_sum` (dynamic LDS) and `axpy` from `binary` (with `extra`
/// options before the rest) with every check on (the default) and
/// returns what they wrote and printed on standard output.
fn run_kernels(dir: &Path, binary: &str, extra: &[&str]) -> (Vec<u8>, Vec<u8>, String) {
    let input: Vec<u8> = (0..512u32).flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(dir.join("in.bin"), &input).unwrap();
    let x: Vec<u8> = (0..1024u32)
        .flat_map(|v| (v as f32 * 0.25).to_le_bytes())
        .collect();
    std::fs::write(dir.join("x.bin"), &x).unwrap();
    std::fs::write(dir.join("y.bin"), vec![0x3fu8; 4096]).unwrap();
    let mut args = extra.to_vec();
    args.extend([
        binary,
        "block_sum",
        "@in.bin",
        "zero:8",
        "--global",
        "512",
        "--local",
        "256",
        "--lds",
        "1024",
        "--out",
        "1=sums.bin",
    ]);
    let sums = gcnrun(dir, &args);
    expect(&sums, 0, &[]);
    let mut args = extra.to_vec();
    args.extend([
        binary,
        "axpy",
        "f32:2.5",
        "@x.bin",
        "@y.bin",
        "i32:1000",
        "--global",
        "1024",
        "--local",
        "256",
        "--out",
        "2=y_out.bin",
    ]);
    let axpy = gcnrun(dir, &args);
    expect(&axpy, 0, &[]);
    (
        std::fs::read(dir.join("sums.bin")).unwrap(),
        std::fs::read(dir.join("y_out.bin")).unwrap(),
        sums.stdout + &axpy.stdout,
    )
}

#[test]
fn bundles_run_like_the_unbundled_code_object() {
    let dir = workdir("same_output");
    let co = gen().join("hip/gfx906/hip_kernels.co");
    let want = run_kernels(&dir, co.to_str().unwrap(), &[]);
    let sums: Vec<u32> = want
        .0
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(sums, [(0..256).sum::<u32>(), (256..512).sum::<u32>()]);
    for (file, extra) in [
        ("hip_kernels.gfx906.hipfb", &[][..]),
        ("hip_kernels.gfx906.o", &[]),
        ("hip_kernels.gfx906-xnack.hipfb", &[]),
        ("hip_kernels.gfx906-xnack.hipfb", &["-g", "gfx906"]),
        ("hip_kernels.gfx900-gfx906.hipfb", &["-g", "gfx906"]),
        ("hip_kernels.gfx900-gfx906.hipfb", &["-g", "vega20"]),
        ("hip_kernels.gfx900-gfx906.hipfb", &["-g", "gfx900"]),
    ] {
        let got = run_kernels(&dir, &bundle(file), extra);
        assert!(got == want, "{file} {extra:?}: the outputs differ");
    }
}

#[test]
fn a_bundle_with_several_targets_needs_g_and_lists_them() {
    let dir = workdir("targets");
    let two = bundle("hip_kernels.gfx900-gfx906.hipfb");
    let args = [&two[..], "axpy", "f32:1", "zero:16", "zero:16", "i32:4"];
    let out = gcnrun(&dir, &[&args[..], &["--global", "4"]].concat());
    expect(
        &out,
        2,
        &[
            "gcnrun: error:",
            "several GPU entries",
            "host-x86_64-unknown-linux",
            "hipv4-amdgcn-amd-amdhsa--gfx900",
            "hipv4-amdgcn-amd-amdhsa--gfx906",
            "-g gfx900",
        ],
    );
    let out = gcnrun(
        &dir,
        &[&["-g", "gfx803"][..], &args[..], &["--global", "4"]].concat(),
    );
    expect(
        &out,
        2,
        &[
            "gcnrun: error:",
            "no entry for gfx803",
            "hipv4-amdgcn-amd-amdhsa--gfx900, hipv4-amdgcn-amd-amdhsa--gfx906",
            "-g PROCESSOR",
        ],
    );
    let one = bundle("hip_kernels.gfx906.hipfb");
    let out = gcnrun(
        &dir,
        &[
            &["-g", "fiji"][..],
            &[&one[..]],
            &args[1..],
            &["--global", "4"],
        ]
        .concat(),
    );
    expect(&out, 2, &["no entry for fiji", "--gfx906)"]);
}

#[test]
fn damaged_bundles_are_run_errors() {
    let dir = workdir("damaged");
    let bytes = std::fs::read(bundle("hip_kernels.gfx906.hipfb")).unwrap();
    let run = |name: &str, data: &[u8]| {
        std::fs::write(dir.join(name), data).unwrap();
        gcnrun(
            &dir,
            &[
                name, "axpy", "f32:1", "zero:16", "zero:16", "i32:4", "--global", "4",
            ],
        )
    };
    // Cut in the header, in the second entry's ID, in the code object.
    let out = run("cut30.hipfb", &bytes[..30]);
    expect(
        &out,
        1,
        &["gcnrun: error: cut30.hipfb: offload bundle truncated at byte 30: the entry count needs 8 byte(s) at byte 24"],
    );
    let out = run("cut110.hipfb", &bytes[..110]);
    expect(
        &out,
        1,
        &["offload bundle truncated at byte 110: entry 1's ID needs 31 byte(s) at byte 105"],
    );
    let out = run("cut8000.hipfb", &bytes[..8000]);
    expect(
        &out,
        1,
        &["offload bundle entry 1 (hipv4-amdgcn-amd-amdhsa--gfx906): its bytes 4096..12696 lie outside the 8000-byte file"],
    );
    // The entry's bytes are not a code object.
    let mut junk = bytes.clone();
    junk[4096..4100].copy_from_slice(b"JUNK");
    let out = run("junk.hipfb", &junk);
    expect(
        &out,
        1,
        &["junk.hipfb (entry hipv4-amdgcn-amd-amdhsa--gfx906): the entry is not an AMDHSA code object"],
    );
    // A damaged code object inside: the reader's error, naming the entry.
    let mut bad = bytes.clone();
    bad[4096 + 0x20..4096 + 0x28].copy_from_slice(&u64::MAX.to_le_bytes());
    let out = run("bad.hipfb", &bad);
    expect(
        &out,
        1,
        &["bad.hipfb (entry hipv4-amdgcn-amd-amdhsa--gfx906): bad code object"],
    );
    // A compressed bundle with an unknown method.
    let mut ccob = b"CCOB".to_vec();
    ccob.extend(2u16.to_le_bytes());
    ccob.extend(9u16.to_le_bytes());
    ccob.extend([0u8; 16]);
    let out = run("method.hipfb", &ccob);
    expect(&out, 1, &["unknown compression method 9"]);
    // Every prefix past the magic fails with a message, never a crash.
    for cut in [24usize, 31, 32, 56, 80, 81, 4095, 4096, 4097, 12695] {
        let out = run("prefix.hipfb", &bytes[..cut]);
        assert_eq!(out.code, 1, "prefix {cut}: {}", out.stderr);
        assert!(
            out.stderr.contains("gcnrun: error: prefix.hipfb"),
            "prefix {cut}: {}",
            out.stderr
        );
    }
}
