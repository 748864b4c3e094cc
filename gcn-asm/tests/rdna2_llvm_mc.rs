//! RDNA 2 (gfx1030) encodings against LLVM: every line of
//! `tests/data/rdna2/llvm-mc-wave64.tsv` and `llvm-mc-wave32.tsv` (random
//! operand lines of every RDNA 2 row of the ISA table, every ALU and memory
//! family, and the RDNA 2-only instructions; made by `make_cases.py` with
//! `llvm-mc-15 -mcpu=gfx1030`) assembles to the bytes llvm-mc wrote, and
//! disassembles to text that assembles to the same bytes.

use gcn_asm::decode::{disassemble_with, words_from_bytes, DecodeOptions};
use gcn_asm::syntax::assembler::BinaryFormat;
use gcn_asm::{assemble, AssembleOptions, Device};

fn cases(file: &str) -> Vec<(String, Vec<u8>)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/rdna2")
        .join(file);
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (line, hex) = l.split_once('\t').expect("LINE<TAB>HEX");
            let bytes = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect();
            (line.to_string(), bytes)
        })
        .collect()
}

fn assemble_bytes(source: &str, wave32: bool) -> Result<Vec<u8>, String> {
    let options = AssembleOptions {
        device: Device::from_name("gfx1030"),
        format: BinaryFormat::RawCode,
        wave32,
        ..AssembleOptions::default()
    };
    assemble(source, &options)
        .map(|a| a.text().to_vec())
        .map_err(|d| d.to_string())
}

fn check(file: &str, wave32: bool, at_least: usize) {
    let cases = cases(file);
    assert!(cases.len() >= at_least, "{file}: {} cases", cases.len());
    let mut failures = Vec::new();
    for (line, expected) in &cases {
        match assemble_bytes(line, wave32) {
            Ok(got) if got == *expected => {}
            Ok(got) => failures.push(format!("{line}: {got:02x?}, llvm-mc {expected:02x?}")),
            Err(e) => failures.push(format!("{line}: {e}")),
        }
        // The disassembly reassembles to the same bytes.
        let words = words_from_bytes(expected);
        let version = Device::from_name("gfx1030").unwrap().version();
        let text = disassemble_with(&words, version, DecodeOptions { wave32 }).to_string();
        match assemble_bytes(&text, wave32) {
            Ok(again) if again == *expected => {}
            other => failures.push(format!(
                "{line}: listed as\n{text}\nreassembles to {other:?}"
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{file}: {} of {} differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn rdna2_wave64_encodings_are_llvm_mcs() {
    check("llvm-mc-wave64.tsv", false, 1000);
}

#[test]
fn rdna2_wave32_encodings_are_llvm_mcs() {
    check("llvm-mc-wave32.tsv", true, 400);
}

#[test]
fn rdna2_drops_what_llvm_drops() {
    for line in [
        "s_store_dword s1, s[2:3], 0",
        "s_atomic_add s1, s[2:3], 0",
        "v_mad_f32 v1, v2, v3, v4",
        "v_mac_f32 v1, v2, v3",
        "v_madmk_f32 v1, v2, 0x1234, v3",
        "s_dcache_wb",
    ] {
        let err = assemble_bytes(line, false).expect_err(line);
        assert!(err.contains("not available on RDNA2"), "{line}: {err}");
    }
}

/// The VOP3 form of a VOP1/VOP2/VOPC instruction with a literal, which the
/// hardware has from GCN 1.5 on and LLVM emits: gcnasm writes it from
/// LLVM's `_e64` spelling (bytes from `llvm-mc-15 -mcpu=gfx1030
/// -mattr=+wavefrontsize32`), and lists it so; clrxasm's spellings (plain,
/// or with `vop3`) stay rejected as clrxasm rejects them, the error naming
/// the `_e64` form.
#[test]
fn vop3_literals_in_llvm_e64_spelling() {
    let cases: [(&str, &[u8]); 5] = [
        (
            "v_add_co_ci_u32_e64 v1, s3, 0x1234, v2, s4",
            &[1, 3, 0x28, 0xd5, 0xff, 4, 0x12, 0, 0x34, 0x12, 0, 0],
        ),
        (
            "v_mov_b32_e64 v1, 0x12345678",
            &[1, 0, 0x81, 0xd5, 0xff, 0, 0, 0, 0x78, 0x56, 0x34, 0x12],
        ),
        (
            "v_cmpx_eq_f32_e64 0x1234, v2",
            &[0, 0, 0x12, 0xd4, 0xff, 4, 2, 0, 0x34, 0x12, 0, 0],
        ),
        (
            "v_add_f32_e64 v1, -abs(0x12345678), v3",
            &[1, 1, 3, 0xd5, 0xff, 6, 2, 0x20, 0x78, 0x56, 0x34, 0x12],
        ),
        (
            "v_cndmask_b32_e64 v1, 0x1234, v2, s4",
            &[1, 0, 1, 0xd5, 0xff, 4, 0x12, 0, 0x34, 0x12, 0, 0],
        ),
    ];
    for (line, expected) in cases {
        assert_eq!(
            assemble_bytes(line, true).as_deref(),
            Ok(expected),
            "{line}"
        );
        let words = words_from_bytes(expected);
        let version = Device::from_name("gfx1030").unwrap().version();
        let text = disassemble_with(&words, version, DecodeOptions { wave32: true }).to_string();
        assert!(text.contains("_e64 "), "{line}: listed as {text}");
        assert_eq!(
            assemble_bytes(&text, true).as_deref(),
            Ok(expected),
            "{text}"
        );
    }
    for line in [
        "v_add_f32 v1, v2, 0x12345678",
        "v_add_f32 v1, 0x12345678, v3 vop3",
        "v_mov_b32 v1, 0x12345678 vop3",
    ] {
        let e = assemble_bytes(line, true).unwrap_err();
        assert!(
            e.contains("no literal") && e.contains("_e64`"),
            "{line}: {e}"
        );
    }
}
