//! Gallium disassembly: a binary's listing assembles into an equivalent
//! binary — the reader sees the same kernels, arguments, proginfo, code and
//! global data. Checked on the reference binaries `clrxasm` wrote
//! (`shared/conformance/gallium/*.clrxasm.bin`, skipped with a notice when
//! `shared/` is absent), on built binaries with unusual layouts, and
//! through the `gcndisasm` command line.

mod common;

use gcn_asm::decode::gallium::{listing, Target};
use gcn_asm::gallium::{
    read, write, ArgSemantic, ArgType, GalliumBinary, Kernel, KernelArg, ProgInfoEntry,
    ScratchHalf, ScratchRelocation,
};
use gcn_asm::{assemble, AssembleOptions, Device, GcnVersion};

/// Disassembles `binary`, assembles the listing and returns what the
/// reader sees in the result, with the listing.
fn round_trip(binary: &GalliumBinary, target: Target) -> (GalliumBinary, String) {
    let text = listing(binary, target).expect("listing");
    let out = assemble(&text, &AssembleOptions::default())
        .unwrap_or_else(|d| panic!("listing rejected: {d}\n{text}"));
    let bytes = out
        .gallium_bytes()
        .unwrap_or_else(|e| panic!("no Gallium binary: {e}\n{text}"));
    (read(&bytes).expect("reassembled binary reads"), text)
}

/// The device a conformance source names with `.gpu`.
fn source_device(source: &str) -> Option<Device> {
    source.lines().find_map(|l| {
        let l = l.trim();
        let name = l.strip_prefix(".gpu ")?;
        Device::from_name(name.trim())
    })
}

#[test]
fn reference_binaries_round_trip() {
    const WHAT: &str = "the disassembly round trip of clrxasm's Gallium binaries";
    let Some(shared) = common::shared_dir_for(WHAT) else {
        return;
    };
    let dir = shared.join("conformance/gallium");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        common::skipped(WHAT, &dir);
        return;
    };
    let mut bins: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".clrxasm.bin"))
        .collect();
    bins.sort();
    assert!(!bins.is_empty(), "no binaries in {}", dir.display());
    for path in &bins {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let stem = name.trim_end_matches(".clrxasm.bin");
        let source = std::fs::read_to_string(dir.join(format!("{stem}.s"))).unwrap_or_default();
        let device = source_device(&source).unwrap_or(Device::CapeVerde);
        let original = read(&std::fs::read(path).unwrap()).expect("reference binary reads");
        let (again, text) = round_trip(&original, Target::Device(device));
        assert_eq!(again, original, "{name}: listing:\n{text}");
        let undecoded = text.lines().filter(|l| l.contains(" .int ")).count();
        let instructions = text.lines().filter(|l| l.starts_with("/*")).count();
        println!(
            "{name}: {} kernel(s), {} code bytes, {} global data bytes, {instructions} lines, {undecoded} .int: same kernels, args, proginfo, code and data",
            original.kernels.len(),
            original.code.len(),
            original.global_data.as_ref().map_or(0, Vec::len)
        );
        assert_eq!(undecoded, 0, "{name}: words not decoded:\n{text}");
    }
}

fn arg(ty: ArgType, size: u32, semantic: ArgSemantic) -> KernelArg {
    KernelArg {
        ty,
        size,
        target_size: size.max(4),
        target_align: size.max(4),
        sign_extended: false,
        semantic,
    }
}

fn prog(values: &[u32]) -> Vec<ProgInfoEntry> {
    let addresses = [0xb848, 0xb84c, 0xb860, 4, 8];
    values
        .iter()
        .zip(addresses)
        .map(|(&value, address)| ProgInfoEntry { address, value })
        .collect()
}

#[test]
fn unusual_layouts_round_trip() {
    // s_mov_b32 s0, 0x12345 (a literal), s_endpgm, then 2 stray bytes.
    let mut code = Vec::new();
    for w in [0xbe8003ffu32, 0x0001_2345, 0xbf81_0000] {
        code.extend_from_slice(&w.to_le_bytes());
    }
    code.extend_from_slice(&[0xaa, 0xbb]);
    let binary = GalliumBinary {
        is_64bit: true,
        mesa170: false,
        kernels: vec![
            Kernel {
                name: "a".into(),
                offset: 0,
                args: vec![
                    arg(ArgType::Global, 8, ArgSemantic::General),
                    KernelArg {
                        sign_extended: true,
                        ..arg(ArgType::Scalar, 2, ArgSemantic::General)
                    },
                    arg(ArgType::Image2dRdonly, 8, ArgSemantic::General),
                    arg(ArgType::Sampler, 4, ArgSemantic::General),
                    arg(ArgType::Scalar, 4, ArgSemantic::ImageFormat),
                ],
                prog_info: prog(&[0x000c0840, 0x88, 0, 3, 4]),
            },
            // Inside the literal instruction: it is listed as words.
            Kernel {
                name: "b".into(),
                offset: 4,
                args: vec![],
                prog_info: prog(&[1, 2, 3, 0, 0]),
            },
            // Inside the stray bytes, and at the very end.
            Kernel {
                name: "c".into(),
                offset: 13,
                args: vec![],
                prog_info: prog(&[0, 0, 0, 0, 0]),
            },
            Kernel {
                name: "d".into(),
                offset: 14,
                args: vec![],
                prog_info: prog(&[0, 0, 0, 0, 0]),
            },
        ],
        code,
        global_data: Some(vec![
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
        ]),
        scratch_relocations: Vec::new(),
    };
    let binary = read(&write(&binary).expect("writes")).expect("reads");
    for target in [
        Target::Device(Device::Tonga),
        Target::Arch(GcnVersion::Gcn1_4),
    ] {
        let (again, text) = round_trip(&binary, target);
        assert_eq!(again, binary, "listing:\n{text}");
        assert!(text.contains(".64bit\n.llvm_version 30900\n"), "{text}");
        // clrxdisasm's spelling of the image types (issue 11 item 4).
        assert!(
            text.contains("        .arg image2d_rd, 8, 8, 8, zext, general\n"),
            "{text}"
        );
    }
}

/// Each image type is printed as clrxdisasm prints it (`image2d_rd` …, not
/// the doc's `image2d_rdonly`).
#[test]
fn image_types_print_as_clrxdisasm() {
    let binary = GalliumBinary {
        is_64bit: false,
        mesa170: false,
        kernels: vec![Kernel {
            name: "k".into(),
            offset: 0,
            args: [
                ArgType::Image2dRdonly,
                ArgType::Image2dWronly,
                ArgType::Image3dRdonly,
                ArgType::Image3dWronly,
            ]
            .into_iter()
            .map(|t| arg(t, 8, ArgSemantic::General))
            .collect(),
            prog_info: prog(&[0x000c0840, 0x88, 0]),
        }],
        code: 0xbf81_0000u32.to_le_bytes().to_vec(),
        global_data: None,
        scratch_relocations: Vec::new(),
    };
    let (again, text) = round_trip(&binary, Target::Device(Device::Tonga));
    assert_eq!(again, binary, "listing:\n{text}");
    for name in ["image2d_rd", "image2d_wr", "image3d_rd", "image3d_wr"] {
        assert!(
            text.contains(&format!(".arg {name}, 8, 8, 8, zext, general\n")),
            "{name} in\n{text}"
        );
    }
}

/// Scratch relocations are listed as `.scratchsym` and the symbol's halves
/// in the literals, and come back at the same offsets.
#[test]
fn scratch_relocations_round_trip() {
    let src = ".gallium\n.gpu tonga\n.scratchsym s\n.kernel SCRATCH_RSRC\n.config\n.dims x\n\
               .text\nSCRATCH_RSRC:\n s_mov_b32 s13, s>>32\n s_mov_b32 s12, s\n\
               v_add_f32 v1, s/0x100000000, v2\n s_mov_b32 s0, 0x12345\n s_endpgm\n";
    let assembled = assemble(src, &AssembleOptions::default()).expect("assembles");
    let original = read(&assembled.gallium_bytes().unwrap()).unwrap();
    let reloc = |offset, half| ScratchRelocation { offset, half };
    assert_eq!(
        original.scratch_relocations,
        vec![
            reloc(4, ScratchHalf::High),
            reloc(12, ScratchHalf::Low),
            reloc(20, ScratchHalf::High)
        ]
    );
    let (again, text) = round_trip(&original, Target::Device(Device::Tonga));
    assert_eq!(again, original, "listing:\n{text}");
    // The symbol is not the kernel's name.
    assert!(text.contains(".scratchsym SCRATCH_RSRC_\n"), "{text}");
    assert!(text.contains("s_mov_b32 s13, SCRATCH_RSRC_>>32 "), "{text}");
    assert!(
        text.contains("s_mov_b32 s12, SCRATCH_RSRC_&0xffffffff "),
        "{text}"
    );
    assert!(
        text.contains("v_add_f32 v1, SCRATCH_RSRC_>>32, v2 "),
        "{text}"
    );
    assert!(text.contains("s_mov_b32 s0, 0x12345 "), "{text}");

    // A relocation on a word that is not a zero literal cannot be listed.
    let target = Target::Device(Device::Tonga);
    for (offset, why) in [(0, "an instruction word"), (28, "a non-zero literal")] {
        let mut b = original.clone();
        b.scratch_relocations.push(reloc(offset, ScratchHalf::Low));
        let err = listing(&b, target).expect_err(why);
        assert!(err.message.contains("not on the zero literal"), "{err}");
    }
}

#[test]
fn unrepresentable_binaries_are_errors() {
    let kernel = |name: &str, entries: usize| Kernel {
        name: name.into(),
        offset: 0,
        args: vec![],
        prog_info: prog(&[0; 5][..entries]),
    };
    let binary = |kernels| GalliumBinary {
        kernels,
        code: vec![0, 0, 0x81, 0xbf],
        ..GalliumBinary::default()
    };
    let target = Target::Device(Device::Pitcairn);
    let err = listing(&binary(vec![kernel("not a name", 3)]), target).unwrap_err();
    assert!(
        err.message.contains("cannot be written as a symbol"),
        "{err}"
    );
    let err = listing(&binary(vec![kernel(".L0", 3)]), target).unwrap_err();
    assert!(err.message.contains("branch labels"), "{err}");
    assert!(listing(&binary(vec![kernel(".Lmain", 3)]), target).is_ok());
    let err = listing(&binary(vec![kernel("k", 3), kernel("k", 3)]), target).unwrap_err();
    assert!(err.message.contains("two kernels"), "{err}");
    let err = listing(&binary(vec![kernel("k", 3), kernel("l", 5)]), target).unwrap_err();
    assert!(err.message.contains("proginfo entries"), "{err}");
}

#[test]
fn cli_disassembles_gallium() {
    let dir = std::env::temp_dir().join(format!("gcndisasm-gallium-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = ".gallium\n.gpu Bonaire\n.kernel k\n.args\n.arg global, 8\n.config\n.dims x\n\
               .globaldata\n.int 7\n.text\nk: buffer_load_dword v1, v0, s[4:7], 0 offen\n\
               s_waitcnt vmcnt(0)\ns_endpgm\n";
    let assembled = assemble(src, &AssembleOptions::default()).expect("assembles");
    let bin = dir.join("k.bin");
    std::fs::write(&bin, assembled.gallium_bytes().unwrap()).unwrap();
    let exe = env!("CARGO_BIN_EXE_gcndisasm");
    let output = std::process::Command::new(exe)
        .args(["-g", "bonaire"])
        .arg(&bin)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.starts_with(".gallium\n.gpu bonaire\n.32bit\n.kernel k\n"),
        "{text}"
    );
    assert!(text.contains("\nk:\n"), "{text}");
    assert!(
        text.contains("buffer_load_dword v1, v0, s[4:7], 0 offen"),
        "{text}"
    );
    let again = assemble(&text, &AssembleOptions::default()).expect("listing assembles");
    assert_eq!(
        read(&again.gallium_bytes().unwrap()).unwrap(),
        read(&std::fs::read(&bin).unwrap()).unwrap()
    );

    // A malformed (truncated) binary: a message naming the file, exit 1.
    let broken = dir.join("broken.bin");
    let bytes = std::fs::read(&bin).unwrap();
    std::fs::write(&broken, &bytes[..bytes.len() / 2]).unwrap();
    let output = std::process::Command::new(exe)
        .arg(&broken)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with(&format!("{}: error: ", broken.display())),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());

    // Raw code still works with -r.
    let raw = dir.join("k.raw");
    std::fs::write(&raw, assembled.text()).unwrap();
    let output = std::process::Command::new(exe)
        .args(["-r", "-A", "gcn1.1"])
        .arg(&raw)
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).starts_with(".arch GCN1.1\n.rawcode\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn garbage_never_panics() {
    // Every prefix of a real binary, and a few corrupted copies: an error
    // or a listing, never a panic.
    let src = ".gallium\n.kernel k\n.config\n.text\nk: s_endpgm\n";
    let bytes = assemble(src, &AssembleOptions::default())
        .unwrap()
        .gallium_bytes()
        .unwrap();
    let target = Target::Device(Device::CapeVerde);
    for n in 0..bytes.len() {
        if let Ok(b) = read(&bytes[..n]) {
            let _ = listing(&b, target);
        }
    }
    for i in (0..bytes.len()).step_by(7) {
        let mut copy = bytes.clone();
        copy[i] ^= 0x5a;
        if let Ok(b) = read(&copy) {
            let _ = listing(&b, target);
        }
    }
}

mod random {
    use super::*;
    use proptest::prelude::*;

    /// A code word: anything, or a real instruction of a few families.
    fn word() -> impl Strategy<Value = u32> {
        prop_oneof![
            any::<u32>(),
            Just(0xbf81_0000),                                          // s_endpgm
            Just(0xbf82_fffe),                                          // s_branch back
            Just(0xbe80_03ff),                                          // s_mov_b32 s0, <literal>
            any::<u32>().prop_map(|r| 0xd800_0000 | (r & 0x00ff_ffff)), // DS
        ]
    }

    fn binary() -> impl Strategy<Value = GalliumBinary> {
        (
            prop::collection::vec(word(), 0..24),
            prop::collection::vec(any::<u8>(), 0..4),
            prop::collection::vec((any::<u32>(), prop::array::uniform3(any::<u32>())), 1..4),
            prop::option::of(prop::collection::vec(any::<u8>(), 1..40)),
            any::<bool>(),
        )
            .prop_map(|(words, tail, kernels, global_data, is_64bit)| {
                let mut code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                code.extend_from_slice(&tail);
                let len = code.len() as u32 + 1;
                let kernels = kernels
                    .into_iter()
                    .enumerate()
                    .map(|(i, (offset, values))| Kernel {
                        name: format!("k{i}"),
                        // Mostly at word boundaries.
                        offset: if offset & 1 == 0 {
                            (offset % len) & !3
                        } else {
                            offset % len
                        },
                        args: vec![arg(ArgType::Global, 8, ArgSemantic::General)],
                        prog_info: prog(&values),
                    })
                    .collect();
                GalliumBinary {
                    is_64bit,
                    mesa170: false,
                    kernels,
                    code,
                    global_data,
                    scratch_relocations: Vec::new(),
                }
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

        /// Any binary the writer produces disassembles to a source that
        /// reassembles to the same binary, on every version that has
        /// GalliumCompute binaries (GCN 1.0-1.4.1; GCN 1.5's are refused).
        #[test]
        fn random_binaries_round_trip(
            b in binary(),
            v in prop::sample::select(
                GcnVersion::ALL.iter().copied().filter(|v| !v.is_gcn15()).collect::<Vec<_>>(),
            ),
        ) {
            let bytes = write(&b).expect("the writer takes the binary");
            let original = read(&bytes).expect("written binary reads");
            let (again, text) = round_trip(&original, Target::Arch(v));
            prop_assert_eq!(again, original, "listing:\n{}", text);
        }
    }
}
