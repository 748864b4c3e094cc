//! clrxasm behaviour that the shared conformance cases do not cover, as
//! issue 11 gives it (held-out cases of the CLRX suite and comparisons
//! with clrxasm): sources that must assemble, with their words. The
//! sources it must reject are in `data/encoder_errors.txt`.

use gcn_asm::{assemble, AssembleOptions, GcnVersion};

fn words(version: GcnVersion, source: &str) -> Vec<u32> {
    let options = AssembleOptions {
        version: Some(version),
        ..AssembleOptions::default()
    };
    let out = assemble(source, &options).unwrap_or_else(|d| panic!("{source}: {d}"));
    assert!(out.warnings.is_empty(), "{source}: {:?}", out.warnings);
    out.text()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Item 7: EXP targets with leading zeros are decimal numbers.
#[test]
fn export_targets_with_leading_zeros() {
    // EXP (GCN 1.0, ENCODING 0b111110): EN 0xf, TARGET 57 (param25) at
    // bit 4; VSRC0-3 = v1-v4.
    let param25 = [0xf800_039f, 0x0403_0201];
    assert_eq!(
        words(GcnVersion::Gcn1_0, "exp param25, v1, v2, v3, v4"),
        param25
    );
    assert_eq!(
        words(GcnVersion::Gcn1_0, "exp param0025, v1, v2, v3, v4"),
        param25
    );
    assert_eq!(
        words(GcnVersion::Gcn1_0, "exp mrt07, v1, v2, v3, v4"),
        words(GcnVersion::Gcn1_0, "exp mrt7, v1, v2, v3, v4")
    );
    assert_eq!(
        words(GcnVersion::Gcn1_2, "exp pos003, v1, v2, v3, v4"),
        words(GcnVersion::Gcn1_2, "exp pos3, v1, v2, v3, v4")
    );
}

/// Item 7: a compressed export whose pairs name one register (or `off`)
/// stays accepted.
#[test]
fn compressed_export_pairs() {
    // Conformance words of `exp mrt0, v116, v116, v93, v93 done compr vm`.
    assert_eq!(
        words(
            GcnVersion::Gcn1_0,
            "exp mrt0, v116, v116, v93, v93 done compr vm"
        ),
        [4160756751, 23924]
    );
    assert_eq!(
        words(
            GcnVersion::Gcn1_0,
            "exp mrt0, off, v116, off, v93 done compr vm"
        ),
        [4160756746, 0]
    );
}

/// Item 7: `v_swap_b32 … vop3` on GCN 1.4 (clrxasm's words).
#[test]
fn swap_in_vop3() {
    assert_eq!(
        words(GcnVersion::Gcn1_4, "v_swap_b32 v55, v27 vop3"),
        [0xd191_0037, 0x0000_011b]
    );
}

/// Item 7: image stores and atomics assemble with `unorm`, `dmask`
/// defaulting to 1 as for loads.
#[test]
fn image_store_with_unorm() {
    // MIMG: DMASK 1 (bit 8), UNORM (bit 12), OPCODE 8 (image_store) at bit
    // 18, ENCODING 0b111100; VADDR v2, VDATA v1, SRSRC s[8:15] (2).
    assert_eq!(
        words(GcnVersion::Gcn1_0, "image_store v1, v[2:5], s[8:15] unorm"),
        [0xf020_1100, 0x0002_0102]
    );
    assert_eq!(
        words(GcnVersion::Gcn1_0, "image_store v1, v[2:5], s[8:15] unorm"),
        words(
            GcnVersion::Gcn1_0,
            "image_store v1, v[2:5], s[8:15] dmask:1 unorm"
        )
    );
}
