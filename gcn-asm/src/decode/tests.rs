//! Printing of each family, error cases and listings.

use super::*;
use crate::{assemble, AssembleOptions};

/// Decodes `words` (one instruction) on `version` and checks the text and
/// that it assembles back to the same words.
fn check(version: GcnVersion, words: &[u32], text: &str) {
    let instr = decode(words, 0, version).expect("decodes");
    assert_eq!(usize::from(instr.len), words.len(), "length of {text}");
    assert_eq!(instr.to_string(), text);
    let options = AssembleOptions {
        version: Some(version),
        ..AssembleOptions::default()
    };
    let out = assemble(text, &options).expect("assembles");
    assert_eq!(words_from_bytes(out.text()), words, "reassembly of {text}");
}

use GcnVersion::{Gcn1_0, Gcn1_1, Gcn1_2, Gcn1_4};

#[test]
fn scalar_alu() {
    check(Gcn1_0, &[0x80153d04], "s_add_u32 s21, s4, s61");
    check(
        Gcn1_0,
        &[0x8994ff7e, 0x00012345],
        "s_xor_b64 s[20:21], exec, 0x12345",
    );
    check(Gcn1_0, &[0xbeea04c1], "s_mov_b64 vcc, -1");
    check(Gcn1_0, &[0xb001fb2e], "s_movk_i32 s1, 0xfb2e");
    check(Gcn1_0, &[0xb481fff0], "s_cmpk_eq_u32 s1, 0xfff0");
    check(Gcn1_0, &[0xbf01917c], "s_cmp_lg_i32 m0, 17");
    // A literal that fits an inline constant is forced with lit().
    check(Gcn1_0, &[0xbe8003ff, 0x00000010], "s_mov_b32 s0, lit(0x10)");
    // TTMP registers are numbered from 112 (108 on GCN 1.4).
    check(Gcn1_0, &[0xbef00371], "s_mov_b32 ttmp0, ttmp1");
    check(Gcn1_4, &[0xbeec006d], "s_mov_b32 ttmp0, ttmp1");
    check(Gcn1_4, &[0xbf8c8f78], "s_waitcnt vmcnt(40)");
}

#[test]
fn scalar_special_immediates() {
    check(Gcn1_0, &[0xb9013901], "s_getreg_b32 s1, hwreg(mode, 4, 8)");
    check(Gcn1_0, &[0xb901f821], "s_getreg_b32 s1, hwreg(@33, 0, 32)");
    check(
        Gcn1_4,
        &[0xb881f80f],
        "s_getreg_b32 s1, hwreg(sh_mem_bases, 0, 32)",
    );
    check(Gcn1_0, &[0xbf8c0f13], "s_waitcnt vmcnt(3) & expcnt(1)");
    check(Gcn1_0, &[0xbf8c0f7f], "s_waitcnt 0xf7f");
    check(Gcn1_0, &[0xbf900122], "s_sendmsg sendmsg(gs, emit, 1)");
    check(Gcn1_0, &[0xbf900001], "s_sendmsg sendmsg(interrupt)");
}

#[test]
fn scalar_memory() {
    check(
        Gcn1_0,
        &[0xc0840310],
        "s_load_dwordx4 s[8:11], s[2:3], 0x10",
    );
    check(Gcn1_0, &[0xc202847c], "s_buffer_load_dword s5, s[4:7], m0");
    check(
        Gcn1_1,
        &[0xc00082ff, 0x10],
        "s_load_dword s1, s[2:3], lit(0x10)",
    );
    check(
        Gcn1_2,
        &[0xc0030041, 0x40],
        "s_load_dword s1, s[2:3], 0x40 glc",
    );
    check(Gcn1_2, &[0xc0400041, 0x7c], "s_store_dword s1, s[2:3], m0");
    check(
        Gcn1_4,
        &[0xc002c041, 0x08000020],
        "s_load_dword s1, s[2:3], s4 offset:0x20 nv",
    );
}

#[test]
fn vector_32bit() {
    check(
        Gcn1_0,
        &[0x060206ff, 0x3fc00000],
        "v_add_f32 v1, 0x3fc00000, v3",
    );
    check(Gcn1_0, &[0x00020702], "v_cndmask_b32 v1, v2, v3, vcc");
    check(Gcn1_0, &[0x4a020604], "v_add_i32 v1, vcc, s4, v3");
    check(Gcn1_0, &[0x7e0a02ff, 0x00000007], "v_mov_b32 v5, lit(0x7)");
    check(Gcn1_0, &[0x7c020501], "v_cmp_lt_f32 vcc, v1, v2");
    check(Gcn1_0, &[0x02070b04], "v_readlane_b32 s3, v4, 5");
    check(
        Gcn1_0,
        &[0x42020702, 0x3e800000],
        "v_madak_f32 v1, v2, v3, 0x3e800000",
    );
    check(Gcn1_0, &[0x7e045e04], "v_rcp_f64 v[2:3], s[4:5]");
    check(Gcn1_2, &[0x020206f8], "v_add_f32 v1, 0.15915494, v3");
}

#[test]
fn vector_vop3() {
    check(
        Gcn1_0,
        &[0xd0020002, 0x00020501],
        "v_cmp_lt_f32 s[2:3], v1, v2",
    );
    check(
        Gcn1_0,
        &[0xd2820e01, 0x33d60702],
        "v_mad_f32 v1, -v2, abs(v3), abs(-2.0) clamp mul:4",
    );
    // The 32-bit form would fit: `vop3` keeps the long encoding.
    check(
        Gcn1_0,
        &[0xd23e0001, 0x00020702],
        "v_mac_f32 v1, v2, v3 vop3",
    );
    check(
        Gcn1_0,
        &[0xd2da0401, 0x04120702],
        "v_div_scale_f32 v1, s[4:5], v2, v3, v4",
    );
    // Negation of a constant is a trailing neg:[…].
    check(
        Gcn1_2,
        &[0xd1010001, 0x40010302],
        "v_add_f32 v1, v2, 1 neg:[0,1]",
    );
    check(
        Gcn1_4,
        &[0xd11f4801, 0x00020702],
        "v_add_f16 v1, v2, v3 op_sel:[1,0,1]",
    );
    check(
        Gcn1_4,
        &[0xd1010001, 0x000206eb],
        "v_add_f32 v1, src_shared_base, v3 vop3",
    );
    check(
        Gcn1_2,
        &[0xd2810000, 0x000204f8],
        "v_mul_f64 v[0:1], 0.15915494309189532, v[2:3]",
    );
}

#[test]
fn vector_vop3p() {
    check(
        Gcn1_4,
        &[0xd38f8801, 0x70020702],
        "v_pk_add_f16 v1, v2, v3 op_sel:[1,0] op_sel_hi:[0,1] neg_lo:[1,1] clamp",
    );
    check(
        Gcn1_4,
        &[0xd3a04101, 0x1c120702],
        "v_mad_mix_f32 v1, v2, v3, v4 neg_hi:[1,0,0]",
    );
}

#[test]
fn vector_sdwa_dpp() {
    check(
        Gcn1_2,
        &[0x3e0206f9, 0x04021502],
        "v_add_f16 v1, v2, v3 dst_sel:word1 dst_unused:unused_preserve src0_sel:byte2 src1_sel:word0",
    );
    check(
        Gcn1_2,
        &[0x7e0202f9, 0x001d0802],
        "v_mov_b32 v1, sext(-v2) dst_sel:byte0 dst_unused:unused_sext src0_sel:word1",
    );
    check(
        Gcn1_4,
        &[0x7c8404f9, 0x01848601],
        "v_cmp_eq_f32 s[6:7], s1, v2 src0_sel:word0 src1_sel:byte1",
    );
    check(
        Gcn1_2,
        &[0x020206fa, 0xc3991302],
        "v_add_f32 v1, -v2, abs(v3) row_shr:3 bank_mask:0x3 row_mask:0xc bound_ctrl",
    );
    check(
        Gcn1_2,
        &[0x7e0002fa, 0xff014301],
        "v_mov_b32 v0, v1 row_bcast:31 bank_mask:0xf row_mask:0xf",
    );
}

#[test]
fn interpolation() {
    check(Gcn1_0, &[0xc8040e02], "v_interp_p1_f32 v1, v2, attr3.z");
    check(Gcn1_0, &[0xc8060301], "v_interp_mov_f32 v1, p20, attr0.w");
    check(
        Gcn1_2,
        &[0xd2700001, 0x08020483],
        "v_interp_p1_f32 v1, v2, attr3.z mul:2",
    );
    check(
        Gcn1_2,
        &[0xd2700001, 0x00020483],
        "v_interp_p1_f32 v1, v2, attr3.z vop3",
    );
    check(
        Gcn1_2,
        &[0xd2740001, 0x00020545],
        "v_interp_p1ll_f16 v1, v2, attr5.y high",
    );
}

#[test]
fn invalid_and_truncated_words() {
    // A literal is missing.
    assert_eq!(
        decode(&[0x060206ff], 0, Gcn1_0),
        Err(DecodeError::Truncated)
    );
    // VOP3 needs two words.
    assert_eq!(
        decode(&[0xd2820e01], 0, Gcn1_0),
        Err(DecodeError::Truncated)
    );
    assert_eq!(decode(&[], 0, Gcn1_0), Err(DecodeError::Empty));
    // SDWA does not exist on GCN 1.0.
    assert_eq!(
        decode(&[0x7e0202f9, 0x001d0802], 0, Gcn1_0),
        Err(DecodeError::Invalid)
    );
    // A 64-bit SGPR pair at an odd register, as the assembler rejects it.
    assert_eq!(decode(&[0xbe800401], 0, Gcn1_0), Err(DecodeError::Invalid));
    // s_endpgm with a non-zero immediate.
    assert_eq!(decode(&[0xbf810001], 0, Gcn1_0), Err(DecodeError::Invalid));
    // DS on GCN 1.0 with the unused bit 16 set.
    assert_eq!(
        decode(&[0xd8350000, 0x00000000], 0, Gcn1_0),
        Err(DecodeError::Invalid)
    );
    // ds_write_b32 with a non-zero VDST byte (the row has no VDST).
    assert_eq!(
        decode(&[0xd8340000, 0x01000000], 0, Gcn1_0),
        Err(DecodeError::Invalid)
    );
    // A memory instruction needs its second word.
    assert_eq!(
        decode(&[0xd8340000], 0, Gcn1_0),
        Err(DecodeError::Truncated)
    );
}

/// `v_swap_b32` has a VOP3 form on GCN 1.4 (clrxasm's words); an image
/// store without UNORM is not printed (clrxasm rejects it).
#[test]
fn clrx_held_out_forms() {
    check(
        Gcn1_4,
        &[0xd1910037, 0x0000011b],
        "v_swap_b32 v55, v27 vop3",
    );
    assert_eq!(
        decode(&[0xf0200100, 0x00020102], 0, Gcn1_0),
        Err(DecodeError::Invalid)
    );
    check(
        Gcn1_0,
        &[0xf0201100, 0x00020102],
        "image_store v1, v2, s[8:15] dmask:0x1 unorm",
    );
}

/// Words that break the constant-bus rule through an implicit read are not
/// printed as instructions the assembler rejects (issue 11 item 1).
#[test]
fn constant_bus_counts_implicit_reads() {
    // v_cndmask_b32 v0, s0, v0, vcc (VCC read implicitly).
    assert_eq!(decode(&[0x00000000], 0, Gcn1_2), Err(DecodeError::Invalid));
    // v_addc_u32 v1, vcc, s7, v1, vcc (VOP2 opcode 0x1c, SRC0 = s7).
    assert_eq!(decode(&[0x38020207], 0, Gcn1_2), Err(DecodeError::Invalid));
    // v_div_fmas_f32 v0, s1, v1, v2 (VOP3; VCC read implicitly).
    assert_eq!(
        decode(&[0xd1e20000, 0x040a0201], 0, Gcn1_2),
        Err(DecodeError::Invalid)
    );
    // v_madak_f32 v0, s1, v2, 0x1234: a literal with an SGPR source.
    assert_eq!(
        decode(&[0x30000401, 0x00001234], 0, Gcn1_2),
        Err(DecodeError::Invalid)
    );
    // The same with VGPRs and the literal with the implicit VCC stay.
    check(Gcn1_2, &[0x00000100], "v_cndmask_b32 v0, v0, v0, vcc");
    check(
        Gcn1_2,
        &[0x000000ff, 0x00001234],
        "v_cndmask_b32 v0, 0x1234, v0, vcc",
    );
}

/// The words `text` assembles to on `version`.
fn words_of(version: GcnVersion, text: &str) -> Vec<u32> {
    let options = AssembleOptions {
        version: Some(version),
        ..AssembleOptions::default()
    };
    words_from_bytes(assemble(text, &options).expect("assembles").text())
}

/// `text` assembles, decodes and prints as itself; returns its words.
fn same(version: GcnVersion, text: &str) -> Vec<u32> {
    let words = words_of(version, text);
    check(version, &words, text);
    words
}

#[test]
fn memory_families() {
    same(Gcn1_0, "ds_write_b32 v1, v2 offset:16");
    same(Gcn1_2, "ds_read2_b32 v[4:5], v1 offset0:3 offset1:200 gds");
    same(Gcn1_0, "ds_gws_init v1 gds");
    same(
        Gcn1_0,
        "buffer_load_dword v5, v[1:2], s[8:11], s3 addr64 offset:12 glc slc",
    );
    same(
        Gcn1_2,
        "buffer_load_format_xy v[5:7], v1, s[8:11], 0.5 idxen tfe",
    );
    same(
        Gcn1_4,
        "buffer_store_format_d16_xyzw v[5:6], v0, s[8:11], m0 lds",
    );
    same(Gcn1_2, "buffer_store_lds_dword v1, s[8:11], s2 offen");
    same(Gcn1_0, "buffer_wbinvl1 glc");
    same(
        Gcn1_0,
        "tbuffer_load_format_x v2, v1, s[20:23], 0 offen format:[16_16_16_16,sint]",
    );
    same(
        Gcn1_2,
        "tbuffer_store_format_xy v[2:3], v0, s[20:23], -1 format:[float]",
    );
    same(
        Gcn1_0,
        "tbuffer_load_format_x v2, v0, s[20:23], 1 format:[@15,snorm_ogl]",
    );
    same(
        Gcn1_0,
        "image_sample v[2:5], v1, s[12:19], s[0:3] dmask:0xf",
    );
    same(
        Gcn1_0,
        "image_load v[2:3], v1, s[12:15] dmask:0x9 unorm r128 da",
    );
    same(
        Gcn1_4,
        "image_gather4 v[2:4], v1, s[12:19], s[0:3] dmask:0x1 tfe d16 a16",
    );
    same(Gcn1_0, "exp mrt0, v1, v2, v3, v4 done");
    same(Gcn1_2, "exp param31, v1, v1, off, off compr vm");
    same(Gcn1_4, "global_load_dword v1, v2, s[4:5] offset:-4");
    same(Gcn1_4, "global_atomic_add v1, v[2:3], v4, off glc");
    same(Gcn1_4, "scratch_load_dword v1, v2, off");
    same(Gcn1_4, "scratch_store_dword off, v2, s7 offset:4095");
    same(
        Gcn1_4,
        "flat_load_dwordx2 v[1:2], v[2:3] offset:4095 slc nv lds",
    );
    same(Gcn1_1, "flat_load_dwordx2 v[1:3], v[2:3] tfe");
    // A FLAT atomic returns its value only with `glc`, but its VDST field
    // is printed always, as clrxdisasm does.
    same(Gcn1_2, "flat_atomic_add v0, v[2:3], v3");
    same(Gcn1_2, "flat_atomic_add v1, v[2:3], v3 glc");
    same(Gcn1_2, "flat_atomic_add v1, v[2:3], v3");

    let invalid = |version, words: &[u32]| {
        assert_eq!(
            decode(words, 0, version),
            Err(DecodeError::Invalid),
            "{words:08x?}"
        );
    };
    // ds_write_b32 with a non-zero VDST byte (the row has no VDST).
    let w = words_of(Gcn1_0, "ds_write_b32 v1, v2");
    invalid(Gcn1_0, &[w[0], w[1] | 1 << 24]);
    // A GDS-only instruction without `gds`.
    let w = words_of(Gcn1_0, "ds_gws_init v1 gds");
    invalid(Gcn1_0, &[w[0] & !(1 << 17), w[1]]);
    // Every typed format decodes (clrxasm and llvm-mc accept every pair):
    // a USCALED store, FLOAT with 16_16.
    let w = words_of(Gcn1_0, "tbuffer_store_format_x v1, s[4:7], 0");
    let shown = |words: &[u32]| decode(words, 0, Gcn1_0).unwrap().to_string();
    assert!(shown(&[w[0] | 2 << 23, w[1]]).contains("format:[uscaled]"));
    assert!(
        shown(&[w[0] & !(0xf << 19) | 5 << 19 | 7 << 23, w[1]]).contains("format:[16_16,float]")
    );
    // ADDR64 with OFFEN; LDS with TFE.
    let w = words_of(Gcn1_0, "buffer_load_dword v1, v[2:3], s[4:7], 0 addr64");
    invalid(Gcn1_0, &[w[0] | 1 << 12, w[1]]);
    let w = words_of(Gcn1_0, "buffer_load_dword v1, s[4:7], 0 lds");
    invalid(Gcn1_0, &[w[0], w[1] | 1 << 23]);
    // A literal scalar offset.
    invalid(Gcn1_0, &[w[0], w[1] | 0xff << 24]);
    // MIMG: an empty DMASK; a sampler field on a row without a sampler.
    let w = words_of(Gcn1_0, "image_load v1, v1, s[12:19] dmask:1");
    invalid(Gcn1_0, &[w[0] & !(0xf << 8), w[1]]);
    invalid(Gcn1_0, &[w[0], w[1] | 1 << 21]);
    // D16 does not exist on GCN 1.0.
    invalid(Gcn1_0, &[w[0], w[1] | 1 << 31]);
    // EXP: a disabled source must be zero; target 10 has no name.
    let w = words_of(Gcn1_0, "exp mrt0, v1, v2, off, off");
    invalid(Gcn1_0, &[w[0], w[1] | 3 << 16]);
    invalid(Gcn1_0, &[w[0] & !(0x3f << 4) | 10 << 4, w[1]]);
    // FLAT before GCN 1.4 has no offset; GCN 1.4 FLAT no SADDR.
    let w = words_of(Gcn1_2, "flat_load_dword v1, v[2:3]");
    invalid(Gcn1_2, &[w[0] | 4, w[1]]);
    let w = words_of(Gcn1_4, "flat_load_dword v1, v[2:3]");
    invalid(Gcn1_4, &[w[0], w[1] | 2 << 16]);
    // SEG 3 is reserved.
    invalid(Gcn1_4, &[w[0] | 3 << 14, w[1]]);
    // A memory instruction needs its second word.
    assert_eq!(decode(&w[..1], 0, Gcn1_4), Err(DecodeError::Truncated));
}

#[test]
fn listing_labels_and_stray_words() {
    let words = [0xbf820001, 0xbf800000, 0xbf82fffc, 0xbf820015, 0x060206ff];
    let listing = disassemble(&words, Gcn1_2);
    assert_eq!(listing.items.len(), 5);
    let text = listing.to_string();
    assert!(text.contains("/*00000000*/ s_branch .L8 "), "{text}");
    assert!(text.contains(".L8:\n/*00000008*/ s_branch .Lm4"), "{text}");
    assert!(text.contains("s_branch .L100"), "{text}");
    assert!(text.contains(".int 0x060206ff"), "{text}");
    assert!(text.ends_with(".Lm4 = -4\n.L100 = 100\n"), "{text}");
    let options = AssembleOptions {
        version: Some(Gcn1_2),
        ..AssembleOptions::default()
    };
    let out = assemble(&text, &options).expect("listing assembles");
    assert_eq!(words_from_bytes(out.text()), words);
}

/// After a word that does not decode, the listing resumes at the length
/// its encoding implies, as clrxdisasm does (issue 11 item 13).
#[test]
fn undecodable_words_resume_at_the_encoded_length() {
    let items = |words: &[u32], version| -> Vec<String> {
        disassemble(words, version)
            .items
            .iter()
            .map(|d| match d.item {
                Item::Instruction(i) => i.to_string(),
                Item::Word(w) => format!(".int {w:#x}"),
            })
            .collect()
    };
    // An unknown VOP3 opcode (GCN 1.2 opcode 0x12f): its second word is not
    // read as v_madmk_f16 swallowing the s_endpgm as its constant.
    assert_eq!(
        items(&[0xd12fd360, 0x4944f2ce, 0xbf810000, 0xbf810000], Gcn1_2),
        [".int 0xd12fd360", ".int 0x4944f2ce", "s_endpgm", "s_endpgm"]
    );
    // A VOP1 word with a literal and an opcode no row has (GCN 1.0 VOP1
    // opcode 0x7f): the literal is skipped with it.
    assert_eq!(
        items(&[0x7e00feff, 0xbf810000, 0xbf810000], Gcn1_0),
        [".int 0x7e00feff", ".int 0xbf810000", "s_endpgm"]
    );
    // A truncated 64-bit instruction at the end: one word.
    assert_eq!(items(&[0xd12fd360], Gcn1_2), [".int 0xd12fd360"]);
    assert_eq!(encoded_len(&[0xd12fd360, 0, 0], Gcn1_2), 2);
    // s_mov_b32 with a literal: 2 words; s_endpgm: 1.
    assert_eq!(encoded_len(&[0xbe8003ff, 0x1234], Gcn1_0), 2);
    assert_eq!(encoded_len(&[0xbf810000, 0], Gcn1_0), 1);
}

#[test]
fn index_covers_every_row_the_assembler_picks() {
    // Every row the assembler selects for its mnemonic decodes back to a
    // row of the same mnemonic family (aliases resolve to one name).
    for version in GcnVersion::ALL {
        for row in INSTRUCTIONS.iter() {
            let Some(op) = row.opcode(version) else {
                continue;
            };
            if !isa::lookup(row.mnemonic, version).is_some_and(|r| std::ptr::eq(r, row)) {
                continue;
            }
            let found = lookup(row.encoding, u32::from(op), version).expect("indexed");
            // Aliases may differ in signedness, never in layout.
            let shape = |r: &InstrRow| {
                r.operands
                    .iter()
                    .map(|o| (o.field, o.registers(), o.ty.float_kind()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(shape(found), shape(row), "{} on {version}", row.mnemonic);
        }
    }
}

#[test]
fn decoded_items_stay_small() {
    // The emulator keeps one item per instruction of a kernel. (GCN 1.5
    // added the MIMG NSA addresses and the DPP8 lane selects: 104 bytes
    // before.)
    assert!(std::mem::size_of::<Operand>() <= 8);
    assert!(
        std::mem::size_of::<Decoded>() <= 128,
        "{}",
        std::mem::size_of::<Decoded>()
    );
}

/// Decodes `words` (one instruction) on a GCN 1.5 version, checks the text
/// and that it assembles back (raw code) to the same words.
fn check15(version: GcnVersion, wave32: bool, words: &[u32], text: &str) {
    let instr = decode_with(words, 0, version, DecodeOptions { wave32 }).expect("decodes");
    assert_eq!(usize::from(instr.len), words.len(), "length of {text}");
    assert_eq!(instr.to_string(), text);
    let options = AssembleOptions {
        version: Some(version),
        format: crate::syntax::assembler::BinaryFormat::RawCode,
        wave32,
        ..AssembleOptions::default()
    };
    let out = assemble(text, &options).expect("assembles");
    assert_eq!(words_from_bytes(out.text()), words, "reassembly of {text}");
}

#[test]
fn gcn15_as_clrxdisasm_prints() {
    use GcnVersion::{Gcn1_5, Gcn1_5_1};
    // NULL, s102-s105 (no flat_scratch/xnack_mask names), lit() in decimal.
    check15(Gcn1_5, false, &[0x8066697d], "s_add_u32 s102, null, s105");
    check15(
        Gcn1_5,
        false,
        &[0x8000ff01, 0xfffffff0],
        "s_add_u32 s0, s1, lit(-16)",
    );
    check15(
        Gcn1_5,
        false,
        &[0xbf8cc070],
        "s_waitcnt vmcnt(48) & lgkmcnt(0)",
    );
    check15(
        Gcn1_5,
        false,
        &[0xbf8cff7f],
        "s_waitcnt vmcnt(63) & expcnt(7) & lgkmcnt(63)",
    );
    check15(
        Gcn1_5,
        false,
        &[0xb9000016],
        "s_getreg_b32 s0, hwreg(xnack_mask, 0, 1)",
    );
    // SMEM: an SGPR offset, or NULL and an immediate; dlc.
    check15(
        Gcn1_5,
        false,
        &[0xf40040c0, 0x08000000],
        "s_load_dword s3, s[0:1], s4 dlc",
    );
    check15(
        Gcn1_5,
        false,
        &[0xf40000c0, 0xfa006ba2],
        "s_load_dword s3, s[0:1], 0x6ba2",
    );
    // VOP3 with a literal (three words); v_cmpx writes EXEC only.
    check15(
        Gcn1_5,
        false,
        &[0xd54b0001, 0x0401ff02, 0x3f800000],
        "v_fma_f32 v1, v2, 0x3f800000, v0",
    );
    check15(Gcn1_5, false, &[0x7c240501], "v_cmpx_eq_f32 v1, v2");
    check15(
        Gcn1_5,
        false,
        &[0xd4120000, 0x00020501],
        "v_cmpx_eq_f32 v1, v2 vop3",
    );
    // DPP16 controls of GCN 1.5, DPP8.
    check15(
        Gcn1_5,
        false,
        &[0x060206fa, 0xff055102],
        "v_add_f32 v1, v2, v3 row_share:1 bank_mask:15 row_mask:15 fi",
    );
    check15(
        Gcn1_5,
        false,
        &[0x060206e9, 0x79fac602],
        "v_add_f32 v1, v2, v3 dpp8:[6,0,3,5,7,3,6,3]",
    );
    // Wave32: VCC and lane masks are one SGPR.
    check15(Gcn1_5, true, &[0x7c040501], "v_cmp_eq_f32 vcc_lo, v1, v2");
    check15(
        Gcn1_5,
        true,
        &[0xd4020004, 0x00020501],
        "v_cmp_eq_f32 s4, v1, v2",
    );
    check15(
        Gcn1_5,
        true,
        &[0x02020702],
        "v_cndmask_b32 v1, v2, v3, vcc_lo",
    );
    // GCN 1.5.1 (gfx1011, gfx1012): the dot instructions.
    check15(Gcn1_5_1, false, &[0x04020702], "v_dot2c_f32_f16 v1, v2, v3");
    assert!(decode(&[0x04020702], 0, Gcn1_5).is_err());
    // Memory: MUBUF dlc, MTBUF's 7-bit format, FLAT inst_offset, MIMG NSA.
    check15(
        Gcn1_5,
        false,
        &[0xe0308004, 0x08010201],
        "buffer_load_dword v2, v1, s[4:7], s8 offset:4 dlc",
    );
    check15(
        Gcn1_5,
        false,
        &[0xe9d80000, 0x08010201],
        "tbuffer_load_format_x v2, v1, s[4:7], s8 format:59",
    );
    check15(
        Gcn1_5,
        false,
        &[0xdc301005, 0x017d0002],
        "flat_load_dword v1, v[2:3] inst_offset:5 dlc",
    );
    check15(
        Gcn1_5,
        false,
        &[0xf0000f12, 0x00010102, 0x00000907],
        "image_load v[1:4], [v2,v7,v9], s[4:11] dmask:15 dim:3d",
    );
}
