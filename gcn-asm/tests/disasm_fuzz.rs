//! Disassembler fuzzing: decoding random words (random lengths, random GCN
//! versions) never panics, and the listing of whatever decodes assembles
//! back to exactly the same words (undecodable words are listed as `.int`,
//! which also assembles back to themselves). Words are biased towards each
//! family's fixed bits; VOP3 and memory instructions are also built from
//! random table rows, so that most of them decode.

use gcn_asm::decode::{disassemble, Item};
use gcn_asm::isa::{Encoding, INSTRUCTIONS};
use gcn_asm::{assemble, AssembleOptions, GcnVersion};
use proptest::prelude::*;

/// Fixed high bits of each encoding family, so random words hit real
/// instructions often: (mask, value).
const PREFIXES: &[(u32, u32)] = &[
    (0x8000_0000, 0x0000_0000), // VOP2
    (0xfe00_0000, 0x7c00_0000), // VOPC
    (0xfe00_0000, 0x7e00_0000), // VOP1
    (0xc000_0000, 0x8000_0000), // SOP2
    (0xf000_0000, 0xb000_0000), // SOPK
    (0xff80_0000, 0xbe80_0000), // SOP1
    (0xff80_0000, 0xbf00_0000), // SOPC
    (0xff80_0000, 0xbf80_0000), // SOPP
    (0xfc00_0000, 0xc000_0000), // SMRD / SMEM
    (0xfc00_0000, 0xc800_0000), // VINTRP (1.0/1.1)
    (0xfc00_0000, 0xd400_0000), // VINTRP (1.2+)
    (0xfc00_0000, 0xd000_0000), // VOP3
    (0xff80_0000, 0xd380_0000), // VOP3P
    (0xfc00_0000, 0xd800_0000), // DS
    (0xfc00_0000, 0xdc00_0000), // FLAT / GLOBAL / SCRATCH
    (0xfc00_0000, 0xe000_0000), // MUBUF
    (0xfc00_0000, 0xe800_0000), // MTBUF
    (0xfc00_0000, 0xf000_0000), // MIMG
    (0xfc00_0000, 0xf800_0000), // EXP (1.0/1.1)
    (0xfc00_0000, 0xc400_0000), // EXP (1.2+)
];

fn word() -> impl Strategy<Value = u32> {
    prop_oneof![
        any::<u32>(),
        (0..PREFIXES.len(), any::<u32>()).prop_map(|(i, r)| {
            let (mask, value) = PREFIXES[i];
            (r & !mask) | value
        }),
        // A second word with small source codes (VGPRs, SGPRs, constants).
        (any::<u32>(), 0u32..4).prop_map(|(r, k)| match k {
            0 => r & 0x0003_ffff,
            1 => (r & 0xf800_0000) | 0x0001_0100 | (r & 0x1ff),
            2 => 0x0000_00f9 | (r & 0xffff_ff00),
            _ => 0x0000_00fa | (r & 0xffff_ff00),
        }),
    ]
}

/// Source operand codes worth hitting: VGPRs, SGPRs, VCC, TTMP, M0, EXEC,
/// constants, the specials, the literal, SDWA/DPP markers.
const CODES: &[u32] = &[
    256, 300, 511, 0, 1, 5, 102, 104, 106, 107, 108, 112, 124, 126, 128, 129, 193, 208, 235, 240,
    248, 249, 250, 251, 253, 254, 255,
];

/// A VOP3/VOP3P instruction of a random table row (so the opcode exists)
/// with random modifier bits and sources drawn from [`CODES`].
fn vop3_words() -> impl Strategy<Value = (Vec<u32>, GcnVersion)> {
    (
        0..INSTRUCTIONS.len(),
        pre_gcn15_version(),
        prop::array::uniform3((0..CODES.len(), 0u32..3)),
        any::<u32>(),
        any::<u32>(),
        any::<bool>(),
    )
        .prop_filter_map("row not on this version", |(i, v, srcs, r0, r1, wide)| {
            let row = &INSTRUCTIONS[i];
            // A version the row exists on (rows of other families are
            // skipped).
            let v = match row.opcode(v) {
                Some(_) => v,
                None => *GcnVersion::ALL
                    .iter()
                    .find(|v| !v.is_gcn15() && row.opcode(**v).is_some())?,
            };
            let op = u32::from(row.opcode(v)?);
            let gcn12 = v.is_gcn12_or_later();
            let op3 = match row.encoding {
                Encoding::Vop2 => 0x100 + op,
                Encoding::Vopc | Encoding::Vop3 => op,
                Encoding::Vop1 if gcn12 => 0x140 + op,
                Encoding::Vop1 => 0x180 + op,
                Encoding::Vintrp if gcn12 => 0x270 + op,
                Encoding::Vop3p => 0x1000 + op,
                _ => return None,
            };
            let code = |(c, d): (usize, u32)| CODES[c] + d;
            let w1 = code(srcs[0]) | code(srcs[1]) << 9 | code(srcs[2]) << 18 | (r1 & 0xf800_0000);
            let low = if wide { r0 & 0xffff } else { r0 & 0xff };
            let w0 = match op3 {
                0x1000.. => 0xd380_0000 | (op3 & 0x7f) << 16 | low,
                _ if gcn12 => 0xd000_0000 | op3 << 16 | low,
                _ => 0xd000_0000 | op3 << 17 | (low & 0x1ffff),
            };
            Some((vec![w0, w1], v))
        })
}

/// The fixed bits of a memory row's first word on `v`: (mask, value).
fn memory_prefix(encoding: Encoding, op: u32, v: GcnVersion) -> Option<(u32, u32)> {
    let gcn12 = v.is_gcn12_or_later();
    let (value, op_mask, op_shift) = match encoding {
        Encoding::Ds if gcn12 => (0xd800_0000, 0xff, 17),
        Encoding::Ds => (0xd800_0000, 0xff, 18),
        Encoding::Mubuf => (0xe000_0000, 0x7f, 18),
        Encoding::Mtbuf if gcn12 => (0xe800_0000, 0xf, 15),
        Encoding::Mtbuf => (0xe800_0000, 7, 16),
        Encoding::Mimg => (0xf000_0000, 0x7f, 18),
        Encoding::Exp if gcn12 => (0xc400_0000, 0, 0),
        Encoding::Exp => (0xf800_0000, 0, 0),
        Encoding::Flat | Encoding::Global | Encoding::Scratch => {
            let seg = match encoding {
                Encoding::Scratch => 1,
                Encoding::Global => 2,
                _ => 0,
            };
            let (seg_mask, seg) = if v.is_gcn14() {
                (3 << 14, seg << 14)
            } else {
                (0, 0)
            };
            return Some((
                0xfc00_0000 | 0x7f << 18 | seg_mask,
                0xdc00_0000 | op << 18 | seg,
            ));
        }
        _ => return None,
    };
    Some((0xfc00_0000 | op_mask << op_shift, value | op << op_shift))
}

/// The first-word bits a memory family defines on `v` (opcode and
/// encoding bits included; they are masked by the caller).
fn defined_bits(encoding: Encoding, v: GcnVersion) -> u32 {
    let gcn12 = v.is_gcn12_or_later();
    match encoding {
        Encoding::Ds if gcn12 => 0x0001_ffff,
        Encoding::Ds => 0x0002_ffff,
        Encoding::Mubuf if gcn12 => 0x0003_7fff,
        Encoding::Mubuf => 0x0001_ffff,
        Encoding::Mtbuf => 0x03ff_ffff,
        Encoding::Mimg => 0x0203_ff00,
        Encoding::Exp => 0x0000_1fff,
        _ if v.is_gcn14() => 0x0003_3fff,
        _ => 0x0003_0000,
    }
}

/// One byte of a memory instruction's second word: zero, a small register
/// number, or anything.
fn memory_byte() -> impl Strategy<Value = u32> {
    prop_oneof![Just(0u32), 0u32..8, 0u32..256]
}

/// A memory instruction of a random table row (so the opcode exists):
/// sparse random modifier bits (each set with probability 1/8, or a
/// random offset), and a second word of small register numbers and zeros.
fn memory_words() -> impl Strategy<Value = (Vec<u32>, GcnVersion)> {
    // EXP is a single row: pick it often enough to be fuzzed.
    let exp = INSTRUCTIONS
        .iter()
        .position(|r| r.encoding == Encoding::Exp)
        .unwrap_or(0);
    (
        prop_oneof![9 => 0..INSTRUCTIONS.len(), 1 => Just(exp)],
        pre_gcn15_version(),
        prop::array::uniform3(any::<u32>()),
        any::<bool>(),
        prop::array::uniform4(memory_byte()),
    )
        .prop_filter_map("not a memory row", |(i, v, r, offset, bytes)| {
            let row = &INSTRUCTIONS[i];
            let v = match row.opcode(v) {
                Some(_) => v,
                None => *GcnVersion::ALL
                    .iter()
                    .find(|v| !v.is_gcn15() && row.opcode(**v).is_some())?,
            };
            let (mask, value) = memory_prefix(row.encoding, u32::from(row.opcode(v)?), v)?;
            let mut bits = r[0] & r[1] & r[2];
            if offset {
                bits |= r[0] & 0x1fff;
            }
            // Mostly only the family's defined bits (reserved bits are
            // also tried, in a quarter of the cases).
            if r[1] & 3 != 0 {
                bits &= defined_bits(row.encoding, v);
            }
            let w0 = value | (bits & !mask);
            let mut bytes = bytes;
            // An export leaves disabled sources zero (mostly).
            if row.encoding == Encoding::Exp && r[2] & 3 != 0 {
                for (i, b) in bytes.iter_mut().enumerate() {
                    if w0 >> i & 1 == 0 {
                        *b = 0;
                    }
                }
            }
            // The modifier bits of the second word (SLC, TFE, D16 …) come
            // with the random bytes.
            let w1 = bytes[0] | bytes[1] << 8 | bytes[2] << 16 | bytes[3] << 24;
            Some((vec![w0, w1], v))
        })
}

fn version() -> impl Strategy<Value = GcnVersion> {
    prop::sample::select(GcnVersion::ALL.to_vec())
}

/// GCN 1.0-1.4.1: the versions whose VOP3 and memory layouts the word
/// builders above write (`gcn15_disasm_fuzz.rs` builds GCN 1.5's).
fn pre_gcn15_version() -> impl Strategy<Value = GcnVersion> {
    prop::sample::select(
        GcnVersion::ALL
            .iter()
            .copied()
            .filter(|v| !v.is_gcn15())
            .collect::<Vec<_>>(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, max_local_rejects: 1 << 24, ..ProptestConfig::default() })]

    #[test]
    fn decoded_words_reassemble(words in prop::collection::vec(word(), 1..6), version in version()) {
        check(&words, version)?;
    }

    #[test]
    fn decoded_vop3_reassembles((words, version) in vop3_words()) {
        check(&words, version)?;
    }

    #[test]
    fn decoded_memory_reassembles((words, version) in memory_words()) {
        check(&words, version)?;
    }
}

fn check(words: &[u32], version: GcnVersion) -> Result<(), TestCaseError> {
    {
        let listing = disassemble(words, version);
        let covered: usize = listing.items.iter().map(|d| d.len()).sum();
        prop_assert_eq!(covered, words.len());
        let text = listing.to_string();
        for d in &listing.items {
            if let Item::Instruction(i) = d.item {
                // Display of a lone instruction never panics either.
                let _ = i.to_string();
            }
        }
        let options = AssembleOptions {
            version: Some(version),
            format: gcn_asm::syntax::assembler::BinaryFormat::RawCode,
            ..AssembleOptions::default()
        };
        match assemble(&text, &options) {
            Ok(out) => {
                let got = gcn_asm::decode::words_from_bytes(out.text());
                prop_assert_eq!(&got[..], words, "listing:\n{}", text);
            }
            Err(d) => prop_assert!(false, "listing rejected: {}\n{}", d, text),
        }
    }
    Ok(())
}

/// The memory strategy is only useful if most of its words decode: count
/// per family (a guard against a strategy that silently produces nothing
/// but `.int`).
#[test]
fn memory_words_mostly_decode() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    use std::collections::BTreeMap;
    let mut runner = TestRunner::deterministic();
    let strategy = memory_words();
    let mut counts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for _ in 0..20_000 {
        let Ok(tree) = strategy.new_tree(&mut runner) else {
            continue;
        };
        let (words, version) = tree.current();
        let family = gcn_asm::decode::family(words[0], version)
            .map_or("none".to_string(), |e| format!("{e:?}"));
        let entry = counts.entry(family).or_default();
        entry.1 += 1;
        if gcn_asm::decode::decode(&words, 0, version).is_ok() {
            entry.0 += 1;
        }
    }
    for (family, (decoded, total)) in &counts {
        println!("{family:8} {decoded:6}/{total:<6} decoded");
        assert!(
            *decoded * 10 >= *total,
            "{family}: only {decoded} of {total} random words decode"
        );
    }
}
