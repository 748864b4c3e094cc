//! `off` as the VADDR of MUBUF/MTBUF: no address (no `offen`, `idxen` or
//! `addr64`), encoded with VADDR 0. The expected words are what
//! `llvm-mc -arch=amdgcn -mcpu=tahiti|bonaire|tonga|gfx900 -show-encoding`
//! (LLVM 14) writes for the same lines (LLVM counts no extra register for
//! `tfe` and spells formats `BUF_DATA_FORMAT_…`; the words are the same).

use gcn_asm::decode::decode;
use gcn_asm::{assemble, AssembleOptions, Device};

fn words(device: Device, source: &str) -> Vec<u32> {
    let options = AssembleOptions {
        device: Some(device),
        ..AssembleOptions::default()
    };
    let out = assemble(source, &options).unwrap_or_else(|e| panic!("`{source}`: {e}"));
    out.text()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Little-endian bytes as llvm-mc prints them, to words.
fn llvm(bytes: [u8; 8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn off_vaddr_matches_llvm_mc_on_every_version() {
    // (source, words on GCN 1.0/1.1, words on GCN 1.2/1.4)
    let cases: [(&str, [u8; 8], [u8; 8]); 8] = [
        (
            "buffer_load_dword v2, off, s[8:11], 0",
            [0x00, 0x00, 0x30, 0xe0, 0x00, 0x02, 0x02, 0x80],
            [0x00, 0x00, 0x50, 0xe0, 0x00, 0x02, 0x02, 0x80],
        ),
        (
            "buffer_store_dword v1, off, s[4:7], s0 offset:16",
            [0x10, 0x00, 0x70, 0xe0, 0x00, 0x01, 0x01, 0x00],
            [0x10, 0x00, 0x70, 0xe0, 0x00, 0x01, 0x01, 0x00],
        ),
        (
            "buffer_atomic_add v2, off, s[8:11], 0",
            [0x00, 0x00, 0xc8, 0xe0, 0x00, 0x02, 0x02, 0x80],
            [0x00, 0x00, 0x08, 0xe1, 0x00, 0x02, 0x02, 0x80],
        ),
        (
            "buffer_atomic_add v2, OFF, s[8:11], 0 glc",
            [0x00, 0x40, 0xc8, 0xe0, 0x00, 0x02, 0x02, 0x80],
            [0x00, 0x40, 0x08, 0xe1, 0x00, 0x02, 0x02, 0x80],
        ),
        // clrxasm counts the `tfe` register: v[2:3] (llvm-mc 14: v2).
        (
            "buffer_load_dword v[2:3], off, s[8:11], 0 glc slc tfe",
            [0x00, 0x40, 0x30, 0xe0, 0x00, 0x02, 0xc2, 0x80],
            [0x00, 0x40, 0x52, 0xe0, 0x00, 0x02, 0x82, 0x80],
        ),
        (
            "buffer_load_dwordx2 v[2:3], off, s[8:11], s5 offset:4095 glc",
            [0xff, 0x4f, 0x34, 0xe0, 0x00, 0x02, 0x02, 0x05],
            [0xff, 0x4f, 0x54, 0xe0, 0x00, 0x02, 0x02, 0x05],
        ),
        (
            "tbuffer_load_format_x v1, off, s[4:7], 0 format:[32,float]",
            [0x00, 0x00, 0xa0, 0xeb, 0x00, 0x01, 0x01, 0x80],
            [0x00, 0x00, 0xa0, 0xeb, 0x00, 0x01, 0x01, 0x80],
        ),
        (
            "tbuffer_store_format_xy v[2:3], off, s[4:7], s3 offset:8 format:[16_16,uint]",
            [0x08, 0x00, 0x2d, 0xea, 0x00, 0x02, 0x01, 0x03],
            [0x08, 0x80, 0x2a, 0xea, 0x00, 0x02, 0x01, 0x03],
        ),
    ];
    let devices = [
        (Device::Tahiti, false),
        (Device::Bonaire, false),
        (Device::Tonga, true),
        (Device::Gfx900, true),
    ];
    for (source, old, new) in cases {
        for (device, gcn12) in devices {
            let expected = llvm(if gcn12 { new } else { old });
            let got = words(device, source);
            assert_eq!(got, expected, "{device:?}: `{source}`");
            // `off` is the form without VADDR: same words.
            let omitted = source.replacen(", off,", ",", 1).replacen(", OFF,", ",", 1);
            assert_eq!(words(device, &omitted), expected, "{device:?}: `{omitted}`");
        }
    }
}

/// The decoder lists such words with the VADDR field's register, `v0`, as
/// clrxdisasm does (issue 11 item 14), which assembles back to them.
#[test]
fn off_vaddr_disassembles_to_text_that_reassembles() {
    for (device, source) in [
        (Device::Pitcairn, "buffer_load_dword v2, off, s[8:11], 0"),
        (
            Device::Bonaire,
            "buffer_atomic_add v2, off, s[8:11], s1 glc",
        ),
        (
            Device::Tonga,
            "buffer_store_dword v1, off, s[4:7], s0 offset:16",
        ),
        (
            Device::Gfx900,
            "tbuffer_load_format_x v1, off, s[4:7], 0 format:[32,float]",
        ),
    ] {
        let w = words(device, source);
        let version = device.version();
        let text = decode(&w, 0, version).expect("decodes").to_string();
        assert_eq!(text, source.replacen(" off,", " v0,", 1));
        assert_eq!(words(device, &text), w, "{device:?}: `{source}` -> {text}");
    }
}
