//! Writer → reader round trips over random kernel sets, and the reader fed
//! mutated binaries (it must return an error or a binary, never panic).

use gcn_asm::gallium::{
    read, write, ArgSemantic, ArgType, GalliumBinary, Kernel, KernelArg, ProgInfoEntry,
    ScratchHalf, ScratchRelocation,
};
use proptest::prelude::*;

fn arg() -> impl Strategy<Value = KernelArg> {
    (
        0..ArgType::ALL.len(),
        any::<u32>(),
        any::<u32>(),
        any::<u32>(),
        any::<bool>(),
        0..ArgSemantic::ALL.len(),
    )
        .prop_map(
            |(t, size, target_size, target_align, sign_extended, s)| KernelArg {
                ty: ArgType::ALL[t],
                size,
                target_size,
                target_align,
                sign_extended,
                semantic: ArgSemantic::ALL[s],
            },
        )
}

fn binary() -> impl Strategy<Value = GalliumBinary> {
    let kernels = prop::collection::btree_map(
        "[A-Za-z_][A-Za-z0-9_.]{0,14}",
        (
            any::<u32>(),
            prop::collection::vec(arg(), 0..12),
            prop::collection::vec(any::<(u32, u32)>(), 5),
        ),
        0..8,
    );
    (
        kernels,
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec(any::<u8>(), 0..700),
        prop::option::of(prop::collection::vec(any::<u8>(), 0..64)),
        prop::collection::vec((any::<u32>(), any::<bool>()), 0..4),
    )
        .prop_map(|(kernels, is_64bit, five, code, global_data, relocs)| {
            let entries = if five { 5 } else { 3 };
            let kernels = kernels
                .into_iter()
                .map(|(name, (offset, args, info))| Kernel {
                    name,
                    offset: offset % (code.len() as u32 + 1),
                    args,
                    prog_info: info[..entries]
                        .iter()
                        .map(|&(address, value)| ProgInfoEntry { address, value })
                        .collect(),
                })
                .collect();
            // Scratch relocations on distinct words inside the code.
            let mut scratch_relocations: Vec<ScratchRelocation> = relocs
                .into_iter()
                .filter(|_| code.len() >= 4)
                .map(|(offset, high)| ScratchRelocation {
                    offset: offset % (code.len() as u32 - 3),
                    half: if high {
                        ScratchHalf::High
                    } else {
                        ScratchHalf::Low
                    },
                })
                .collect();
            scratch_relocations.sort();
            scratch_relocations.dedup_by_key(|r| r.offset);
            GalliumBinary {
                is_64bit,
                mesa170: false,
                kernels,
                code,
                global_data,
                scratch_relocations,
            }
        })
}

/// How to damage a binary.
#[derive(Debug, Clone)]
enum Mutation {
    /// Replace a byte.
    Byte(usize, u8),
    /// Overwrite an aligned 32-bit field with a nasty value.
    Word(usize, u32),
    /// Cut the binary short.
    Truncate(usize),
    /// Insert bytes.
    Insert(usize, Vec<u8>),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Byte(i, b)),
        (
            any::<usize>(),
            prop_oneof![
                Just(0u32),
                Just(1),
                Just(3),
                Just(5),
                Just(0x7fff_ffff),
                Just(0xffff_ffff),
                Just(0x8000_0000),
                any::<u32>()
            ]
        )
            .prop_map(|(i, w)| Mutation::Word(i, w)),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), prop::collection::vec(any::<u8>(), 1..9))
            .prop_map(|(i, b)| Mutation::Insert(i, b)),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    if bytes.is_empty() {
        return;
    }
    let n = bytes.len();
    match m {
        Mutation::Byte(i, b) => bytes[i % n] = *b,
        Mutation::Word(i, w) => {
            let at = (i % n) & !3;
            for (k, b) in w.to_le_bytes().into_iter().enumerate() {
                if let Some(slot) = bytes.get_mut(at + k) {
                    *slot = b;
                }
            }
        }
        Mutation::Truncate(i) => bytes.truncate(i % n),
        Mutation::Insert(i, b) => {
            let at = i % (n + 1);
            bytes.splice(at..at, b.iter().copied());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn write_then_read_is_identity(b in binary()) {
        let bytes = write(&b).expect("a valid kernel set writes");
        let back = read(&bytes).expect("what we write reads back");
        // The writer sorts kernels by name (the BTreeMap already did).
        prop_assert_eq!(back, b);
    }

    #[test]
    fn mutated_binaries_never_panic(
        b in binary(),
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let mut bytes = write(&b).unwrap();
        for m in &mutations {
            apply(&mut bytes, m);
        }
        // Either outcome is fine; a panic fails the test.
        let _ = read(&bytes);
    }

    #[test]
    fn mutated_inner_elf_never_panics(
        b in binary(),
        at in any::<usize>(),
        word in prop_oneof![Just(0u32), Just(0xffff_ffff), Just(0x7fff_ffff), Just(64), any::<u32>()],
        wide in any::<bool>(),
    ) {
        let mut bytes = write(&b).unwrap();
        let elf = bytes.windows(4).position(|w| w == b"\x7fELF").unwrap();
        // Header, section headers and symbols are where the offsets are.
        let span = bytes.len() - elf;
        let at = elf + (at % span);
        let width = if wide { 4 } else { 2 };
        for (k, v) in word.to_le_bytes().into_iter().take(width).enumerate() {
            if let Some(slot) = bytes.get_mut(at + k) {
                *slot = v;
            }
        }
        let _ = read(&bytes);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = read(&bytes);
    }
}

#[test]
fn writer_rejects_inconsistent_sets() {
    let kernel = |name: &str, entries: usize| Kernel {
        name: name.into(),
        offset: 0,
        args: Vec::new(),
        prog_info: vec![
            ProgInfoEntry {
                address: 0,
                value: 0
            };
            entries
        ],
    };
    let set = |kernels: Vec<Kernel>| GalliumBinary {
        kernels,
        ..GalliumBinary::default()
    };
    let e = write(&set(vec![kernel("a", 3), kernel("a", 3)])).unwrap_err();
    assert!(e.message.contains("defined twice"), "{e}");
    let e = write(&set(vec![kernel("a", 3), kernel("b", 5)])).unwrap_err();
    assert!(
        e.message.contains("all kernels need the same number"),
        "{e}"
    );
    let e = write(&set(vec![kernel("a", 4)])).unwrap_err();
    assert!(e.message.contains("4 proginfo entries"), "{e}");
    let e = write(&set(vec![kernel("", 3)])).unwrap_err();
    assert!(e.message.contains("non-empty"), "{e}");
    let mut far = kernel("a", 3);
    far.offset = 4;
    let e = write(&set(vec![far])).unwrap_err();
    assert!(e.message.contains("past the end of the code"), "{e}");
}

#[test]
fn reader_reports_malformations() {
    let b = GalliumBinary {
        mesa170: false,
        kernels: vec![Kernel {
            name: "k".into(),
            offset: 0,
            args: vec![KernelArg {
                ty: ArgType::Global,
                size: 8,
                target_size: 8,
                target_align: 8,
                sign_extended: false,
                semantic: ArgSemantic::General,
            }],
            prog_info: vec![
                ProgInfoEntry {
                    address: 1,
                    value: 2
                };
                3
            ],
        }],
        code: vec![0, 0, 0x81, 0xbf],
        ..GalliumBinary::default()
    };
    let good = write(&b).unwrap();
    let message = |bytes: &[u8]| read(bytes).unwrap_err().message;
    assert!(message(&good[..3]).contains("truncated"));
    assert!(message(&good[..good.len() - 1]).contains("truncated"));
    let mut extra = good.clone();
    extra.push(0);
    assert!(message(&extra).contains("garbage"));
    // Argument type 9 does not exist (type field at 4+4+1+4+4+4 = 21).
    let mut bad = good.clone();
    bad[21] = 9;
    assert!(message(&bad).contains("unknown argument type 9"));
    // Kernel count 2 with data for one.
    let mut bad = good.clone();
    bad[0] = 2;
    assert!(read(&bad).is_err());
    // Inconsistent section sizes (the data length field).
    let elf = good.windows(4).position(|w| w == b"\x7fELF").unwrap();
    let mut bad = good.clone();
    bad[elf - 4] ^= 1;
    assert!(message(&bad).contains("inconsistent text section sizes"));
    // Not an ELF.
    let mut bad = good.clone();
    bad[elf + 1] = b'X';
    assert!(message(&bad).contains("does not hold an ELF"));
    // Unknown ELF class.
    let mut bad = good.clone();
    bad[elf + 4] = 3;
    assert!(message(&bad).contains("unknown ELF class"));
}
