//! Checks of the ISA table (`gcn-asm/isa/*.isa`): internal sanity, and the
//! opcodes of the ALU and scalar-memory families against the CLRX test-suite
//! encoding cases in `../shared/conformance/clrx-encoding-cases.jsonl`
//! (GCN 1.0-1.4.1) and `clrx-encoding-cases-gcn15.jsonl` (GCN 1.5, 1.5.1).

use std::collections::{BTreeMap, HashMap};

use gcn_asm::isa::{self, Encoding, InstrRow, INSTRUCTIONS};
use gcn_asm::GcnVersion;

mod common;

/// The families whose opcodes this test checks.
const ALU_AND_SMEM: &[Encoding] = &[
    Encoding::Sop2,
    Encoding::Sop1,
    Encoding::Sopk,
    Encoding::Sopc,
    Encoding::Sopp,
    Encoding::Smrd,
    Encoding::Smem,
    Encoding::Vop2,
    Encoding::Vop1,
    Encoding::Vopc,
    Encoding::Vop3,
    Encoding::Vop3p,
    Encoding::Vintrp,
];

#[test]
fn rows_are_available_somewhere() {
    for row in INSTRUCTIONS.iter() {
        assert!(
            GcnVersion::ALL.iter().any(|&v| row.opcode(v).is_some()),
            "{} ({:?}) exists on no version",
            row.mnemonic,
            row.encoding
        );
    }
}

#[test]
fn no_duplicate_rows_per_version_and_encoding() {
    for version in GcnVersion::ALL {
        let mut seen: HashMap<(&str, Encoding), &InstrRow> = HashMap::new();
        for row in INSTRUCTIONS.iter().filter(|r| r.opcode(version).is_some()) {
            if let Some(prev) = seen.insert((row.mnemonic, row.encoding), row) {
                panic!(
                    "{} has two {:?} rows on {}: {:?} and {:?}",
                    row.mnemonic,
                    row.encoding,
                    version.name(),
                    prev.opcodes,
                    row.opcodes
                );
            }
        }
    }
}

#[test]
fn opcodes_fit_their_fields() {
    for row in INSTRUCTIONS.iter() {
        let max: u16 = match row.encoding {
            Encoding::Sop2 | Encoding::Sopc | Encoding::Sopp | Encoding::Vop3p => 0x7f,
            Encoding::Sopk | Encoding::Smrd => 0x1f,
            Encoding::Sop1 | Encoding::Smem | Encoding::Vop1 | Encoding::Vopc => 0xff,
            Encoding::Vop2 => 0x3f,
            Encoding::Vop3 => 0x3ff,
            Encoding::Vintrp => 3,
            _ => continue,
        };
        for op in row.opcodes.iter().filter(|&&op| op != isa::NO_OPCODE) {
            assert!(*op <= max, "{}: opcode {op:#x} too large", row.mnemonic);
        }
    }
}

#[test]
fn lookup_picks_the_version_row() {
    let v14 = isa::lookup("v_add_u32", GcnVersion::Gcn1_4).unwrap();
    assert_eq!(v14.opcodes[3], 0x34);
    assert!(!v14.has(isa::flags::VOP3B));
    let v12 = isa::lookup("v_add_u32", GcnVersion::Gcn1_2).unwrap();
    assert!(v12.has(isa::flags::VOP3B));
    assert!(isa::lookup("v_dot2_f32_f16", GcnVersion::Gcn1_4).is_none());
    assert!(isa::lookup("v_dot2_f32_f16", GcnVersion::Gcn1_4_1).is_some());
    let load = isa::lookup("s_load_dwordx2", GcnVersion::Gcn1_0).unwrap();
    assert_eq!(load.encoding, Encoding::Smrd);
    assert_eq!(load.operands[0].registers(), 2);
    let load = isa::lookup("s_load_dwordx2", GcnVersion::Gcn1_2).unwrap();
    assert_eq!(load.encoding, Encoding::Smem);
}

#[test]
fn lookup_picks_the_gcn15_row() {
    use isa::Field;
    // GCN 1.5 v_cmpx writes only EXEC: its row has no SDST.
    let cmpx = isa::lookup("v_cmpx_lt_f32", GcnVersion::Gcn1_5).unwrap();
    assert_eq!((cmpx.encoding, cmpx.opcodes[4]), (Encoding::Vopc, 0x11));
    assert!(cmpx.operand(Field::Sdst).is_none());
    let cmpx = isa::lookup("v_cmpx_lt_f32", GcnVersion::Gcn1_4).unwrap();
    assert!(cmpx.operand(Field::Sdst).is_some());
    // A GCN 1.4 VOP2 instruction that is VOP3-only on GCN 1.5.
    let add = isa::lookup("v_add_co_u32", GcnVersion::Gcn1_5).unwrap();
    assert_eq!((add.encoding, add.opcodes[4]), (Encoding::Vop3, 0x30f));
    assert_eq!(
        isa::lookup("v_add_co_u32", GcnVersion::Gcn1_4)
            .unwrap()
            .encoding,
        Encoding::Vop2
    );
    // gcn151 rows: only on GCN 1.5.1; the GCN 1.4.1 row stays there.
    assert!(isa::lookup("v_dot2_f32_f16", GcnVersion::Gcn1_5).is_none());
    let dot = isa::lookup("v_dot2_f32_f16", GcnVersion::Gcn1_5_1).unwrap();
    assert_eq!(dot.opcode(GcnVersion::Gcn1_5_1), Some(0x13));
    assert_eq!(dot.opcode(GcnVersion::Gcn1_4_1), None);
    let dot = isa::lookup("v_dot2_f32_f16", GcnVersion::Gcn1_4_1).unwrap();
    assert_eq!(dot.opcode(GcnVersion::Gcn1_4_1), Some(0x23));
    // GCN 1.5 SMEM is the [smem] family; GCN 1.5-only instructions.
    let load = isa::lookup("s_load_dwordx2", GcnVersion::Gcn1_5).unwrap();
    assert_eq!(load.encoding, Encoding::Smem);
    assert!(isa::lookup("s_and_saveexec_b32", GcnVersion::Gcn1_4).is_none());
    assert_eq!(
        isa::lookup("s_and_saveexec_b32", GcnVersion::Gcn1_5)
            .unwrap()
            .opcode(GcnVersion::Gcn1_5),
        Some(0x3c)
    );
    // Removed on GCN 1.5.
    assert!(isa::lookup("v_mad_mix_f32", GcnVersion::Gcn1_5).is_none());
    assert!(isa::lookup("s_cbranch_g_fork", GcnVersion::Gcn1_5).is_none());
}

fn version_of(arch: &str) -> Option<GcnVersion> {
    GcnVersion::from_arch_name(arch)
}

/// The first instruction statement of a case's source (skipping symbol
/// assignments, labels and pseudo-ops).
fn first_statement(source: &str) -> Option<&str> {
    for stmt in source.split([';', '\n']) {
        let mut stmt = stmt.trim();
        if stmt.is_empty() || stmt.starts_with('.') {
            continue;
        }
        // A label prefix `name:` (not `name::`).
        if let Some(colon) = stmt.find(':') {
            let name = &stmt[..colon];
            if !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'))
                && !stmt[colon + 1..].starts_with(':')
            {
                stmt = stmt[colon + 1..].trim();
            }
        }
        if stmt.is_empty() {
            continue;
        }
        let first = stmt.split_whitespace().next().unwrap_or("");
        let after = stmt[first.len()..].trim_start();
        if first.contains('=') || after.starts_with('=') {
            continue; // symbol assignment
        }
        return Some(stmt);
    }
    None
}

/// The encoding family and opcode of an instruction's first word.
fn decode(word: u32, version: GcnVersion) -> Option<(Encoding, u16)> {
    if version.is_gcn15() {
        return decode_gcn15(word);
    }
    let old = !version.is_gcn12_or_later();
    if word >> 30 == 0b10 {
        return Some(match word >> 23 {
            0x17d => (Encoding::Sop1, ((word >> 8) & 0xff) as u16),
            0x17e => (Encoding::Sopc, ((word >> 16) & 0x7f) as u16),
            0x17f => (Encoding::Sopp, ((word >> 16) & 0x7f) as u16),
            _ if word >> 28 == 0b1011 => (Encoding::Sopk, ((word >> 23) & 0x1f) as u16),
            _ => (Encoding::Sop2, ((word >> 23) & 0x7f) as u16),
        });
    }
    if old && word >> 27 == 0b11000 {
        return Some((Encoding::Smrd, ((word >> 22) & 0x1f) as u16));
    }
    if !old && word >> 26 == 0b110000 {
        return Some((Encoding::Smem, ((word >> 18) & 0xff) as u16));
    }
    if word >> 31 == 0 {
        return Some(match word >> 25 {
            0x3f => (Encoding::Vop1, ((word >> 9) & 0xff) as u16),
            0x3e => (Encoding::Vopc, ((word >> 17) & 0xff) as u16),
            _ => (Encoding::Vop2, ((word >> 25) & 0x3f) as u16),
        });
    }
    if version.is_gcn14() && word >> 23 == 0x1a7 {
        return Some((Encoding::Vop3p, ((word >> 16) & 0x7f) as u16));
    }
    if word >> 26 == 0b110100 {
        let op = if old {
            (word >> 17) & 0x1ff
        } else {
            (word >> 16) & 0x3ff
        };
        return Some((Encoding::Vop3, op as u16));
    }
    let vintrp = if old { 0b110010 } else { 0b110101 };
    if word >> 26 == vintrp {
        return Some((Encoding::Vintrp, ((word >> 16) & 3) as u16));
    }
    None
}

/// The same for GCN 1.5: the scalar ALU and VOP1/VOP2/VOPC words as on GCN
/// 1.2, SMEM with the GCN 1.4 opcode field (bits 25:18) under the prefix
/// 0b111101, VOP3 0b110101 with a 10-bit opcode, VOP3P 0xcc << 24 with a
/// 7-bit opcode, VINTRP 0b110010 as on GCN 1.0.
fn decode_gcn15(word: u32) -> Option<(Encoding, u16)> {
    if word >> 30 == 0b10 {
        return Some(match word >> 23 {
            0x17d => (Encoding::Sop1, ((word >> 8) & 0xff) as u16),
            0x17e => (Encoding::Sopc, ((word >> 16) & 0x7f) as u16),
            0x17f => (Encoding::Sopp, ((word >> 16) & 0x7f) as u16),
            _ if word >> 28 == 0b1011 => (Encoding::Sopk, ((word >> 23) & 0x1f) as u16),
            _ => (Encoding::Sop2, ((word >> 23) & 0x7f) as u16),
        });
    }
    if word >> 26 == 0b111101 {
        return Some((Encoding::Smem, ((word >> 18) & 0xff) as u16));
    }
    if word >> 31 == 0 {
        return Some(match word >> 25 {
            0x3f => (Encoding::Vop1, ((word >> 9) & 0xff) as u16),
            0x3e => (Encoding::Vopc, ((word >> 17) & 0xff) as u16),
            _ => (Encoding::Vop2, ((word >> 25) & 0x3f) as u16),
        });
    }
    if word >> 23 == 0x198 {
        return Some((Encoding::Vop3p, ((word >> 16) & 0x7f) as u16));
    }
    if word >> 26 == 0b110101 {
        return Some((Encoding::Vop3, ((word >> 16) & 0x3ff) as u16));
    }
    if word >> 26 == 0b110010 {
        return Some((Encoding::Vintrp, ((word >> 16) & 3) as u16));
    }
    None
}

/// The VOP3 opcode of a row's VOP3 (`_e64`) form, as README.md derives it.
fn vop3_opcode(row: &InstrRow, op: u16, version: GcnVersion) -> Option<u16> {
    match row.encoding {
        Encoding::Vop3 | Encoding::Vopc => Some(op),
        Encoding::Vop2 => Some(0x100 + op),
        Encoding::Vop1 if version.is_gcn15() => Some(0x180 + op),
        Encoding::Vintrp if version.is_gcn15() => None,
        Encoding::Vop1 if version.is_gcn12_or_later() => Some(0x140 + op),
        Encoding::Vop1 => Some(0x180 + op),
        Encoding::Vintrp if version.is_gcn12_or_later() => Some(0x270 + op),
        _ => None,
    }
}

fn row_matches(row: &InstrRow, version: GcnVersion, enc: Encoding, op: u16) -> bool {
    let Some(own) = row.opcode(version) else {
        return false;
    };
    if row.encoding == enc {
        // Also covers SDWA/DPP: the VOP2/VOP1/VOPC word with SRC0=0xf9/0xfa.
        return own == op;
    }
    enc == Encoding::Vop3 && vop3_opcode(row, own, version) == Some(op)
}

/// Checks every good case of a CLRX encoding-cases file (JSON lines) whose
/// first word is of an ALU or scalar-memory family: the table must have a
/// row of the instruction on the case's version whose opcode (or derived
/// VOP3 opcode) is the encoded one. Returns the cases checked per arch and
/// the mismatches.
fn check_opcode_cases(text: &str) -> (BTreeMap<String, usize>, Vec<String>) {
    let mut checked: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let case: serde_json::Value = serde_json::from_str(line).expect("valid JSON line");
        if case["good"] != serde_json::Value::Bool(true) {
            continue;
        }
        let Some(word) = case["words"]
            .as_array()
            .and_then(|w| w.first())
            .and_then(|w| w.as_u64())
        else {
            continue;
        };
        let word = word as u32;
        let arch = case["arch"].as_str().unwrap();
        let version = version_of(arch).unwrap_or_else(|| panic!("unknown arch {arch}"));
        let source = case["source"].as_str().unwrap();
        let Some(stmt) = first_statement(source) else {
            continue;
        };
        let Some((enc, op)) = decode(word, version) else {
            continue;
        };
        if !ALU_AND_SMEM.contains(&enc) {
            continue;
        }
        let mnemonic = stmt.split_whitespace().next().unwrap().to_ascii_lowercase();
        let base = ["_e32", "_e64", "_sdwa", "_dpp"]
            .iter()
            .find_map(|s| mnemonic.strip_suffix(s))
            .unwrap_or(&mnemonic);
        *checked.entry(arch.to_string()).or_default() += 1;
        let rows: Vec<_> = isa::rows(base)
            .iter()
            .filter(|r| r.opcode(version).is_some())
            .collect();
        if rows.is_empty() {
            failures.push(format!(
                "line {}: {arch}: `{stmt}`: no row for `{base}`",
                index + 1
            ));
        } else if !rows.iter().any(|r| row_matches(r, version, enc, op)) {
            failures.push(format!(
                "line {}: {arch}: `{stmt}`: encoded as {enc:?} {op:#x}, table has {:?}",
                index + 1,
                rows.iter()
                    .map(|r| (r.encoding, r.opcode(version)))
                    .collect::<Vec<_>>()
            ));
        }
    }
    (checked, failures)
}

#[test]
fn opcodes_match_clrx_cases() {
    let Some(text) = common::encoding_cases("the opcode check against the CLRX cases") else {
        return;
    };
    let (checked, failures) = check_opcode_cases(&text);
    let total: usize = checked.values().sum();
    eprintln!("CLRX opcode cross-check: {total} cases ({checked:?})");
    assert!(total > 1500, "too few cases checked: {checked:?}");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The GCN 1.5 opcodes (the table's 1.5 column, and the rows that exist
/// only on GCN 1.5.1) against CLRX's GCN 1.5 test-suite cases.
#[test]
fn gcn15_opcodes_match_clrx_cases() {
    let what = "the GCN 1.5 opcode check against the CLRX cases";
    let Some(dir) = common::shared_dir_for(what) else {
        return;
    };
    let path = dir.join("conformance/clrx-encoding-cases-gcn15.jsonl");
    let Ok(text) = std::fs::read_to_string(&path) else {
        common::skipped(what, &path);
        return;
    };
    let (checked, failures) = check_opcode_cases(&text);
    let total: usize = checked.values().sum();
    eprintln!("CLRX GCN 1.5 opcode cross-check: {total} cases ({checked:?})");
    assert!(total > 1000, "too few cases checked: {checked:?}");
    assert!(
        checked.get("gcn1.5.1").copied().unwrap_or(0) > 0,
        "no GCN 1.5.1 case checked: {checked:?}"
    );
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The family names of `tests/data/llvm-opcodes/*.tsv`.
fn llvm_family(name: &str) -> Option<Encoding> {
    Some(match name {
        "sop2" => Encoding::Sop2,
        "sopk" => Encoding::Sopk,
        "sop1" => Encoding::Sop1,
        "sopc" => Encoding::Sopc,
        "sopp" => Encoding::Sopp,
        "smem" => Encoding::Smem,
        "vop2" => Encoding::Vop2,
        "vop1" => Encoding::Vop1,
        "vopc" => Encoding::Vopc,
        "vop3" => Encoding::Vop3,
        "vop3p" => Encoding::Vop3p,
        "ds" => Encoding::Ds,
        "mubuf" => Encoding::Mubuf,
        "mtbuf" => Encoding::Mtbuf,
        "mimg" => Encoding::Mimg,
        "flat" => Encoding::Flat,
        "global" => Encoding::Global,
        "scratch" => Encoding::Scratch,
        _ => return None,
    })
}

/// The names the table gives (family, opcode) on `version`, the VOP3 forms
/// of VOP2/VOP1/VOPC rows included.
fn names_at(version: GcnVersion, encoding: Encoding, opcode: u16) -> Vec<&'static str> {
    INSTRUCTIONS
        .iter()
        .filter(|r| {
            let Some(op) = r.opcode(version) else {
                return false;
            };
            if r.encoding == encoding {
                return op == opcode;
            }
            encoding == Encoding::Vop3
                && !r.has(isa::flags::NO_VOP3)
                && vop3_opcode(r, op, version) == Some(opcode)
        })
        .map(|r| r.mnemonic)
        .collect()
}

/// Every opcode LLVM 15 decodes on gfx1010 and gfx1030 (scanned family by
/// family with `llvm-mc-15 --disassemble`, `isa/tools/llvm_opscan.py`,
/// checked in as `tests/data/llvm-opcodes/*.tsv`) is in the table under
/// LLVM's name: the GCN 1.5 column and the RDNA 2 column, whose deltas
/// (the scalar stores and atomics and the MAD family gone, the legacy FMA,
/// the dot and addtid instructions new) come from this scan.
#[test]
fn gcn15_and_rdna2_opcodes_match_llvm() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/llvm-opcodes");
    for (file, version) in [
        ("gfx1010.tsv", GcnVersion::Gcn1_5),
        ("gfx1030.tsv", GcnVersion::Rdna2),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let mut checked = 0;
        let mut failures = Vec::new();
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let mut parts = line.split('\t');
            let (Some(family), Some(opcode), Some(name)) =
                (parts.next(), parts.next(), parts.next())
            else {
                panic!("{file}: bad line {line:?}");
            };
            let encoding = llvm_family(family).unwrap_or_else(|| panic!("{file}: {family}"));
            let opcode: u16 = opcode.parse().unwrap();
            let names = names_at(version, encoding, opcode);
            checked += 1;
            if !names.contains(&name) {
                failures.push(format!(
                    "{family} {opcode:#x}: LLVM {name}, table {names:?}"
                ));
            }
        }
        assert!(checked > 900, "{file}: only {checked} opcodes");
        assert!(
            failures.is_empty(),
            "{file}: {} differ:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
    // What RDNA 2 dropped is not there.
    for gone in [
        "s_store_dword",
        "s_atomic_add",
        "v_mad_f32",
        "v_mac_f32",
        "v_madmk_f32",
    ] {
        assert!(isa::lookup(gone, GcnVersion::Rdna2).is_none(), "{gone}");
        assert!(isa::lookup(gone, GcnVersion::Gcn1_5).is_some(), "{gone}");
    }
}
