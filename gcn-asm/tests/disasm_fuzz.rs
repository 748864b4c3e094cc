//! Disassembler fuzzing: decoding random words (random lengths, random GCN
//! versions) never panics, and the listing of whatever decodes assembles
//! back to exactly the same words (undecodable words are listed as `.int`,
//! which also assembles back to themselves).

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
        version(),
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
                None => *GcnVersion::ALL.iter().find(|v| row.opcode(**v).is_some())?,
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

fn version() -> impl Strategy<Value = GcnVersion> {
    prop::sample::select(GcnVersion::ALL.to_vec())
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
