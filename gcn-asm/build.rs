//! Turns the ISA text tables (`isa/*.isa`) into Rust statics.
//!
//! The table format is described in `isa/README.md`. A malformed row stops
//! the build with the file, line and reason.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

const ENCODINGS: &[(&str, &str)] = &[
    ("sop2", "Sop2"),
    ("sop1", "Sop1"),
    ("sopk", "Sopk"),
    ("sopc", "Sopc"),
    ("sopp", "Sopp"),
    ("smrd", "Smrd"),
    ("smem", "Smem"),
    ("vop2", "Vop2"),
    ("vop1", "Vop1"),
    ("vopc", "Vopc"),
    ("vop3", "Vop3"),
    ("vop3p", "Vop3p"),
    ("vintrp", "Vintrp"),
    ("ds", "Ds"),
    ("mubuf", "Mubuf"),
    ("mtbuf", "Mtbuf"),
    ("mimg", "Mimg"),
    ("exp", "Exp"),
    ("flat", "Flat"),
    ("global", "Global"),
    ("scratch", "Scratch"),
];

const FIELDS: &[(&str, &str)] = &[
    ("sdst", "Sdst"),
    ("ssrc0", "Ssrc0"),
    ("ssrc1", "Ssrc1"),
    ("simm16", "Simm16"),
    ("imm16", "Imm16"),
    ("reladdr", "RelAddr"),
    ("hwreg", "Hwreg"),
    ("lit32", "Lit32"),
    ("waitcnt", "Waitcnt"),
    ("sendmsg", "Sendmsg"),
    ("sdata", "Sdata"),
    ("sbase", "Sbase"),
    ("soffset", "Soffset"),
    ("vdst", "Vdst"),
    ("src0", "Src0"),
    ("src1", "Src1"),
    ("src2", "Src2"),
    ("vsrc1", "Vsrc1"),
    ("vsrc0", "Vsrc0"),
    ("ssrc2", "Ssrc2"),
    ("attr", "Attr"),
    ("interp_param", "InterpParam"),
    ("vaddr", "Vaddr"),
    ("vdata", "Vdata"),
    ("vdata1", "Vdata1"),
    ("srsrc", "Srsrc"),
    ("ssamp", "Ssamp"),
    ("saddr", "Saddr"),
    ("target", "Target"),
    ("vsrc", "Vsrc"),
];

const TYPES: &[(&str, &str)] = &[
    ("b16", "B16"),
    ("b32", "B32"),
    ("b64", "B64"),
    ("b96", "B96"),
    ("b128", "B128"),
    ("b256", "B256"),
    ("b512", "B512"),
    ("i16", "I16"),
    ("u16", "U16"),
    ("i32", "I32"),
    ("u32", "U32"),
    ("i64", "I64"),
    ("u64", "U64"),
    ("f16", "F16"),
    ("f32", "F32"),
    ("f64", "F64"),
    ("pk_f16", "PkF16"),
    ("pk_i16", "PkI16"),
    ("pk_u16", "PkU16"),
];

const FLAGS: &[(&str, &str)] = &[
    ("vop3b", "VOP3B"),
    ("no_sdwa", "NO_SDWA"),
    ("no_dpp", "NO_DPP"),
    ("no_vop3", "NO_VOP3"),
    ("gcn141", "GCN141_ONLY"),
    ("op_sel", "OP_SEL"),
    ("no_operands", "NO_OPERANDS"),
    ("optional_imm", "OPTIONAL_IMM"),
    ("store", "STORE"),
    ("mix", "MIX"),
    ("no_src_mods", "NO_SRC_MODS"),
    ("atomic", "ATOMIC"),
    ("load", "LOAD"),
    ("d16", "D16"),
    ("gds_only", "GDS_ONLY"),
    ("offset2", "OFFSET2"),
    ("deriv", "DERIV"),
    ("gather4", "GATHER4"),
    ("reads_vcc", "READS_VCC"),
    ("reads_m0", "READS_M0"),
    ("alias", "ALIAS"),
];

fn lookup(table: &[(&str, &'static str)], key: &str) -> Option<&'static str> {
    table.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

struct Row {
    mnemonic: String,
    encoding: &'static str,
    opcodes: [String; 4],
    operands: String,
    flags: String,
}

fn parse_opcode(text: &str) -> Result<String, String> {
    if text == "-" {
        return Ok("NO_OPCODE".into());
    }
    let value = if let Some(hex) = text.strip_prefix("0x") {
        u16::from_str_radix(hex, 16)
    } else {
        text.parse::<u16>()
    }
    .map_err(|_| format!("bad opcode `{text}`"))?;
    if value == u16::MAX {
        return Err(format!("opcode `{text}` is out of range"));
    }
    Ok(value.to_string())
}

fn parse_operand(token: &str) -> Result<String, String> {
    let (field, rest) = token
        .split_once(':')
        .ok_or_else(|| format!("operand `{token}` is not FIELD:TYPE"))?;
    let (ty, count) = match rest.split_once('*') {
        Some((ty, count)) => (
            ty,
            count
                .parse::<u8>()
                .map_err(|_| format!("bad register count in `{token}`"))?,
        ),
        None => (rest, 0),
    };
    let field = lookup(FIELDS, field).ok_or_else(|| format!("unknown field `{field}`"))?;
    let ty = lookup(TYPES, ty).ok_or_else(|| format!("unknown type `{ty}`"))?;
    Ok(format!(
        "OperandSpec {{ field: Field::{field}, ty: DataType::{ty}, count: {count} }}"
    ))
}

fn parse_file(path: &Path, rows: &mut Vec<Row>) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut encoding: Option<&'static str> = None;
    for (index, raw) in text.lines().enumerate() {
        let at = |msg: String| format!("{}:{}: {msg}", path.display(), index + 1);
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            encoding = Some(
                lookup(ENCODINGS, name).ok_or_else(|| at(format!("unknown encoding `{name}`")))?,
            );
            continue;
        }
        let encoding = encoding.ok_or_else(|| at("row before any [encoding] header".into()))?;
        let (main, flag_text) = match line.split_once('|') {
            Some((m, f)) => (m, f.trim()),
            None => (line, ""),
        };
        let tokens: Vec<&str> = main.split_whitespace().collect();
        if tokens.len() < 5 {
            return Err(at("expected MNEMONIC and four opcode columns".into()));
        }
        let mnemonic = tokens[0];
        if mnemonic.bytes().any(|b| b.is_ascii_uppercase()) {
            return Err(at(format!("mnemonic `{mnemonic}` must be lower case")));
        }
        let mut opcodes: [String; 4] = Default::default();
        for (slot, tok) in opcodes.iter_mut().zip(&tokens[1..5]) {
            *slot = parse_opcode(tok).map_err(at)?;
        }
        let operands = tokens[5..]
            .iter()
            .map(|t| parse_operand(t))
            .collect::<Result<Vec<_>, _>>()
            .map_err(at)?
            .join(", ");
        let flags = flag_text
            .split_whitespace()
            .map(|f| {
                lookup(FLAGS, f)
                    .map(|c| format!("flags::{c}"))
                    .ok_or_else(|| at(format!("unknown flag `{f}`")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        rows.push(Row {
            mnemonic: mnemonic.to_string(),
            encoding,
            opcodes,
            operands,
            flags: if flags.is_empty() {
                "0".into()
            } else {
                flags.join(" | ")
            },
        });
    }
    Ok(())
}

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("isa");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("gcn-asm/isa directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "isa"))
        .collect();
    files.sort();
    let mut rows = Vec::new();
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
        if let Err(e) = parse_file(file, &mut rows) {
            panic!("ISA table error: {e}");
        }
    }
    // Stable sort: rows of one mnemonic keep their table order.
    rows.sort_by(|a, b| a.mnemonic.cmp(&b.mnemonic));

    let mut out = String::new();
    let mut operand_lists: BTreeMap<String, usize> = BTreeMap::new();
    for row in &rows {
        let next = operand_lists.len();
        operand_lists.entry(row.operands.clone()).or_insert(next);
    }
    for (ops, index) in &operand_lists {
        let n = if ops.is_empty() {
            0
        } else {
            ops.matches("OperandSpec").count()
        };
        writeln!(
            out,
            "static OPERANDS_{index}: [OperandSpec; {n}] = [{ops}];"
        )
        .unwrap();
    }
    writeln!(out, "/// Every instruction row, sorted by mnemonic.").unwrap();
    writeln!(
        out,
        "pub static INSTRUCTIONS: [InstrRow; {}] = [",
        rows.len()
    )
    .unwrap();
    for row in &rows {
        writeln!(
            out,
            "    InstrRow {{ mnemonic: {:?}, encoding: Encoding::{}, opcodes: [{}], operands: &OPERANDS_{}, flags: {} }},",
            row.mnemonic,
            row.encoding,
            row.opcodes.join(", "),
            operand_lists[&row.operands],
            row.flags
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
    let out_path = Path::new(&std::env::var("OUT_DIR").unwrap()).join("isa_table.rs");
    std::fs::write(out_path, out).unwrap();
}
