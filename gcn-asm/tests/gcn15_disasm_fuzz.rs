//! GCN 1.5 disassembler fuzzing: random words (biased towards each GFX10
//! family's fixed bits, and instructions of random table rows with random
//! modifier bits), wave64 and wave32, decode without panicking, and both
//! listings of them (ours and clrxdisasm's layout, what `gcndisasm -r`
//! prints for GCN 1.5) assemble back to exactly the same words: whatever
//! does not decode is `.int`, which assembles to itself.

use gcn_asm::decode::{disassemble_with, write_clrx_listing, DecodeOptions, Item};
use gcn_asm::isa::INSTRUCTIONS;
use gcn_asm::syntax::assembler::BinaryFormat;
use gcn_asm::{assemble, AssembleOptions, GcnVersion};
use proptest::prelude::*;

/// The fixed high bits of each GFX10 family: (mask, value).
const PREFIXES: &[(u32, u32)] = &[
    (0x8000_0000, 0x0000_0000), // VOP2
    (0xfe00_0000, 0x7c00_0000), // VOPC
    (0xfe00_0000, 0x7e00_0000), // VOP1
    (0xc000_0000, 0x8000_0000), // SOP2
    (0xf000_0000, 0xb000_0000), // SOPK
    (0xff80_0000, 0xbe80_0000), // SOP1
    (0xff80_0000, 0xbf00_0000), // SOPC
    (0xff80_0000, 0xbf80_0000), // SOPP
    (0xfc00_0000, 0xf400_0000), // SMEM
    (0xfc00_0000, 0xc800_0000), // VINTRP
    (0xfc00_0000, 0xd400_0000), // VOP3
    (0xff80_0000, 0xcc00_0000), // VOP3P
    (0xfc00_0000, 0xd800_0000), // DS
    (0xfc00_0000, 0xdc00_0000), // FLAT / GLOBAL / SCRATCH
    (0xfc00_0000, 0xe000_0000), // MUBUF
    (0xfc00_0000, 0xe800_0000), // MTBUF
    (0xfc00_0000, 0xf000_0000), // MIMG
    (0xfc00_0000, 0xf800_0000), // EXP
];

fn word() -> impl Strategy<Value = u32> {
    prop_oneof![
        any::<u32>(),
        (0..PREFIXES.len(), any::<u32>()).prop_map(|(i, r)| {
            let (mask, value) = PREFIXES[i];
            (r & !mask) | value
        }),
        // Second words: small source codes, SDWA/DPP/DPP8 selectors, a
        // literal marker.
        (any::<u32>(), 0u32..5).prop_map(|(r, k)| match k {
            0 => r & 0x0003_ffff,
            1 => (r & 0xf800_0000) | 0x0001_0100 | (r & 0x1ff),
            2 => 0x0000_00f9 | (r & 0xffff_ff00),
            3 => 0x0000_00fa | (r & 0xffff_ff00),
            _ => 0x0000_00e9 | (r & 0xffff_ff00),
        }),
    ]
}

/// Source operand codes worth hitting on GCN 1.5 (NULL, s102-s105, the
/// literal, VCC, TTMPs, constants, VGPRs).
const CODES: &[u32] = &[
    256, 300, 511, 0, 1, 5, 102, 105, 106, 107, 108, 124, 125, 126, 128, 129, 193, 208, 240, 248,
    251, 253, 254, 255,
];

/// The first word of row `i`'s family with its opcode on GCN 1.5, if the
/// row has one there (VOP3 space for the short VOP rows, by the derived
/// opcode).
fn row_word(i: usize, r: u32, srcs: [u32; 3], vop3_form: bool) -> Option<Vec<u32>> {
    use gcn_asm::isa::Encoding::*;
    let row = &INSTRUCTIONS[i];
    let v = GcnVersion::Gcn1_5;
    let op = u32::from(row.opcode(v)?);
    let w1 = srcs[0] | srcs[1] << 9 | srcs[2] << 18 | (r & 0xf800_0000);
    let vop3 = |op3: u32| vec![0xd400_0000 | op3 << 16 | (r & 0x0000_ffff), w1, 0x1234_5678];
    Some(match row.encoding {
        Vop3 => vop3(op),
        Vop2 if vop3_form => vop3(0x100 + op),
        Vop1 if vop3_form => vop3(0x180 + op),
        Vopc if vop3_form => vop3(op),
        Vop2 => vec![op << 25 | (r & 0x01ff_fe00) | srcs[0], r, 0x3f80_0000],
        Vop1 => vec![0x7e00_0000 | op << 9 | (r & 0x01fe_0000) | srcs[0], r],
        Vopc => vec![0x7c00_0000 | op << 17 | (r & 0x0001_fe00) | srcs[0], r],
        Vop3p => vec![0xcc00_0000 | op << 16 | (r & 0x0000_ffff), w1, 0x3c00_4000],
        Smem => vec![0xf400_0000 | op << 18 | (r & 0x0001_ffff), r.rotate_left(7)],
        Ds => vec![0xd800_0000 | op << 18 | (r & 0x0003_ffff), w1 & 0x0f0f_0f0f],
        Mubuf => vec![0xe000_0000 | op << 18 | (r & 0x0003_ffff), w1 & 0x08bf_0f0f],
        Mtbuf => vec![
            0xe800_0000 | (op & 7) << 16 | (r & 0x03f8_ffff),
            (w1 & 0x08df_0f0f) | (op >> 3) << 21,
        ],
        Mimg => vec![
            0xf000_0000 | op << 18 | (r & 0x0203_ffbe),
            w1 & 0x83ff_0f0f,
            r,
            r >> 3,
        ],
        Flat | Global | Scratch => {
            let seg = match row.encoding {
                Scratch => 1,
                Global => 2,
                _ => 0,
            };
            vec![
                0xdc00_0000 | op << 18 | seg << 14 | (r & 0x0003_37ff),
                (w1 & 0xff00_0f0f) | 0x007d_0000,
            ]
        }
        _ => return None,
    })
}

fn row_words() -> impl Strategy<Value = Vec<u32>> {
    (
        0..INSTRUCTIONS.len(),
        any::<u32>(),
        prop::array::uniform3(0..CODES.len()),
        any::<bool>(),
    )
        .prop_filter_map("not on GCN 1.5", |(i, r, s, vop3)| {
            row_word(i, r, s.map(|k| CODES[k]), vop3)
        })
}

fn check(words: &[u32], wave32: bool) -> Result<(), TestCaseError> {
    let version = GcnVersion::Gcn1_5;
    let options = DecodeOptions { wave32 };
    let listing = disassemble_with(words, version, options);
    let covered: usize = listing.items.iter().map(|d| d.len()).sum();
    prop_assert_eq!(covered, words.len());
    for d in &listing.items {
        if let Item::Instruction(i) = d.item {
            let _ = i.to_string();
        }
    }
    let mut clrx = String::from(".rawcode\n.gpu GFX1010\n.text\n");
    write_clrx_listing(&mut clrx, words, version, options).unwrap();
    let assemble_options = AssembleOptions {
        version: Some(version),
        format: BinaryFormat::RawCode,
        wave32,
        ..AssembleOptions::default()
    };
    for text in [listing.to_string(), clrx] {
        match assemble(&text, &assemble_options) {
            Ok(out) => {
                let got = gcn_asm::decode::words_from_bytes(out.text());
                // clrxdisasm's layout places labels past the end with
                // `.org` (zero words after the code).
                prop_assert!(got.len() >= words.len(), "listing:\n{}", text);
                prop_assert_eq!(&got[..words.len()], words, "listing:\n{}", text);
                prop_assert!(
                    got[words.len()..].iter().all(|&w| w == 0),
                    "listing:\n{}",
                    text
                );
            }
            Err(d) => prop_assert!(false, "listing rejected: {}\n{}", d, text),
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn decoded_words_reassemble(words in prop::collection::vec(word(), 1..6), wave32 in any::<bool>()) {
        check(&words, wave32)?;
    }

    #[test]
    fn decoded_rows_reassemble(words in row_words(), wave32 in any::<bool>()) {
        check(&words, wave32)?;
    }
}
