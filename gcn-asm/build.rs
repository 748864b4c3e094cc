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
    ("gcn151", "GCN151_ONLY"),
    ("mip", "MIP"),
    ("bvh", "BVH"),
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
    ("alias", "ALIAS"),
    ("nop", "NOP"),
    ("msg", "MSG"),
    ("rfe", "RFE"),
    ("read_lane", "READ_LANE"),
    ("write_lane", "WRITE_LANE"),
    ("first_lane", "FIRST_LANE"),
    ("merge", "MERGE"),
    ("cmpswap", "CMPSWAP"),
    ("indexed", "INDEXED"),
    ("format", "FORMAT"),
    ("hi", "HI"),
    ("barrier", "BARRIER"),
    ("ends", "ENDS"),
    ("permlane", "PERMLANE"),
    ("wait_vm", "WAIT_VM"),
    ("wait_vs", "WAIT_VS"),
    ("wait_exp", "WAIT_EXP"),
    ("wait_lgkm", "WAIT_LGKM"),
    ("depctr", "DEPCTR"),
];

/// Registers an instruction may use without naming them (`reads:`/`writes:`).
const IMPLICIT: &[(&str, &str)] = &[
    ("vcc", "Vcc"),
    ("exec", "Exec"),
    ("scc", "Scc"),
    ("m0", "M0"),
    ("mode", "Mode"),
    ("trapsts", "Trapsts"),
    ("flat_scratch", "FlatScratch"),
];

/// The read-modify-write operations of `atomic:OP` (`atomic:OP:64` for
/// 64-bit data).
const ATOMIC_OPS: &[(&str, &str)] = &[
    ("swap", "Swap"),
    ("cmpswap", "Cmpswap"),
    ("add", "Add"),
    ("sub", "Sub"),
    ("rsub", "Rsub"),
    ("smin", "Smin"),
    ("umin", "Umin"),
    ("smax", "Smax"),
    ("umax", "Umax"),
    ("and", "And"),
    ("or", "Or"),
    ("xor", "Xor"),
    ("inc", "Inc"),
    ("dec", "Dec"),
    ("fcmpswap", "Fcmpswap"),
    ("fmin", "Fmin"),
    ("fmax", "Fmax"),
    ("mskor", "Mskor"),
    ("wrap", "Wrap"),
    ("fadd", "Fadd"),
];

/// The value flows of `flow:KIND` (`gcn_asm::isa::Flow`).
const FLOWS: &[(&str, &str)] = &[
    ("copy", "Copy"),
    ("select", "Select"),
    ("and", "And"),
    ("or", "Or"),
    ("andn2", "AndN2"),
    ("orn2", "OrN2"),
    ("xor", "Xor"),
    ("carry", "Carry"),
    ("jump", "Jump"),
];

/// The shift flows `flow:KIND:SPEC` (`gcn_asm::isa::Flow`, see
/// [`parse_shift`]).
const SHIFTS: &[(&str, &str)] = &[
    ("shl", "ShiftLeft"),
    ("lshr", "ShiftRightLogical"),
    ("ashr", "ShiftRightArith"),
];

/// The `Flow` of a shift row: `variant` with the operands `spec` names
/// among the row's `operands` (its operand tokens). `spec` is
/// `VALUE[+ADD],AMOUNT[,+ADD|,|OR]`: the value's field, optionally the
/// field added to it before the shift; the amount's field or a fixed
/// number of bits; optionally the field added to (`+`) or ORed into (`|`)
/// the shifted value. Named operands must be read and appear once.
fn parse_shift(variant: &str, spec: &str, operands: &[&str]) -> Result<String, String> {
    let index = |field: &str| -> Result<u8, String> {
        let mut found = operands.iter().enumerate().filter(|(_, t)| {
            let name = t.split('@').next().unwrap_or("");
            name.split(':').next() == Some(field)
        });
        match (found.next(), found.next()) {
            (Some((i, t)), None) => {
                if t.ends_with("@w") || matches!(field, "vdst" | "sdst") && !t.contains('@') {
                    return Err(format!("shift operand `{field}` is not read"));
                }
                Ok(i as u8)
            }
            (None, _) => Err(format!("shift operand `{field}` is not in the row")),
            (Some(_), Some(_)) => Err(format!("shift operand `{field}` is in the row twice")),
        }
    };
    let parts: Vec<&str> = spec.split(',').collect();
    let (value, amount, after) = match parts[..] {
        [v, a] => (v, a, None),
        [v, a, w] => (v, a, Some(w)),
        _ => {
            return Err(format!(
                "bad shift `{spec}` (VALUE[+ADD],AMOUNT[,+ADD|,|OR])"
            ))
        }
    };
    let (value, before) = match value.split_once('+') {
        Some((v, b)) => (index(v)?, Some(index(b)?)),
        None => (index(value)?, None),
    };
    let amount = match amount.parse::<u8>() {
        Ok(n) => format!("ShiftAmount::Fixed({n})"),
        Err(_) => format!("ShiftAmount::Operand({})", index(amount)?),
    };
    let with = match (before, after) {
        (None, None) => "ShiftWith::Nothing".to_string(),
        (Some(b), None) => format!("ShiftWith::AddBefore({b})"),
        (None, Some(w)) => match (w.strip_prefix('+'), w.strip_prefix('|')) {
            (Some(f), _) => format!("ShiftWith::AddAfter({})", index(f)?),
            (_, Some(f)) => format!("ShiftWith::OrAfter({})", index(f)?),
            _ => return Err(format!("bad shift combination `{w}` (+FIELD or |FIELD)")),
        },
        (Some(_), Some(_)) => return Err(format!("shift `{spec}` combines twice")),
    };
    Ok(format!(
        "{variant}(Shift {{ value: {value}, amount: {amount}, with: {with} }})"
    ))
}

/// The predicates of `cmp:PRED` (vector compares), in opcode order
/// (`class`: the class test).
const COMPARE_OPS: &[(&str, &str)] = &[
    ("f", "F"),
    ("lt", "Lt"),
    ("eq", "Eq"),
    ("le", "Le"),
    ("gt", "Gt"),
    ("lg", "Lg"),
    ("ge", "Ge"),
    ("o", "O"),
    ("u", "U"),
    ("nge", "Nge"),
    ("nlg", "Nlg"),
    ("ngt", "Ngt"),
    ("nle", "Nle"),
    ("neq", "Neq"),
    ("nlt", "Nlt"),
    ("tru", "Tru"),
    ("class", "Class"),
];

/// The versions of the `VERSIONS` bit mask, in `GcnVersion::ALL` order.
const VERSIONS: &[&str] = &["1.0", "1.1", "1.2", "1.4", "1.4.1", "1.5", "1.5.1", "rdna2"];

fn lookup(table: &[(&str, &'static str)], key: &str) -> Option<&'static str> {
    table.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

struct Row {
    mnemonic: String,
    encoding: &'static str,
    opcodes: [String; 6],
    operands: String,
    flags: String,
    implicit: String,
    atomic: String,
    compare: String,
    sample: String,
    flow: String,
}

/// A `1.0-1.2` style version range (or one version) as a bit mask over
/// `VERSIONS`; `1.4` as an end of a range or alone includes 1.4.1, whose
/// opcodes are in the 1.4 column.
fn parse_versions(text: &str) -> Result<u8, String> {
    let index = |v: &str| {
        VERSIONS
            .iter()
            .position(|x| *x == v)
            .ok_or_else(|| format!("unknown GCN version `{v}`"))
    };
    let (lo, hi) = match text.split_once('-') {
        Some((a, b)) => (index(a)?, index(b)?),
        None => (index(text)?, index(text)?),
    };
    let hi = if matches!(VERSIONS[hi], "1.4" | "1.5") {
        hi + 1
    } else {
        hi
    };
    if lo > hi {
        return Err(format!("empty version range `{text}`"));
    }
    Ok((lo..=hi).fold(0u8, |m, i| m | 1 << i))
}

/// A `reads:`/`writes:` token: implicit registers with the role, each
/// `REG` or `REG@VERSIONS`; merged into `acc` (register -> (role bits,
/// versions)).
fn parse_implicit(token: &str, acc: &mut BTreeMap<&'static str, [u8; 2]>) -> Result<bool, String> {
    let (role, list) = match token.split_once(':') {
        Some(("reads", l)) => (0, l),
        Some(("writes", l)) => (1, l),
        _ => return Ok(false),
    };
    for item in list.split(',') {
        let (reg, versions) = match item.split_once('@') {
            Some((r, v)) => (r, parse_versions(v)?),
            None => (item, 0xff),
        };
        let reg =
            lookup(IMPLICIT, reg).ok_or_else(|| format!("unknown implicit register `{reg}`"))?;
        acc.entry(reg).or_insert([0, 0])[role] |= versions;
    }
    Ok(true)
}

/// The role an operand has when the row does not say (`@r`, `@w`, `@rw`):
/// destinations are written, the memory data registers are written by a
/// load and read by a store or atomic, everything else is read.
fn default_role(field: &str, encoding: &str, flags: &[&str]) -> &'static str {
    let has = |f: &str| flags.contains(&f);
    match field {
        "sdst" | "vdst" => "Write",
        "sdata" if !has("store") && !has("atomic") => "Write",
        "vdata" if matches!(encoding, "Mubuf" | "Mtbuf" | "Mimg") && has("load") => "Write",
        _ => "Read",
    }
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

fn parse_operand(token: &str, encoding: &str, flags: &[&str]) -> Result<String, String> {
    let (token, role) = match token.split_once('@') {
        Some((t, "r")) => (t, Some("Read")),
        Some((t, "w")) => (t, Some("Write")),
        Some((t, "rw")) => (t, Some("ReadWrite")),
        Some((_, r)) => return Err(format!("unknown role `@{r}` (r, w or rw)")),
        None => (token, None),
    };
    let (field, rest) = token
        .split_once(':')
        .ok_or_else(|| format!("operand `{token}` is not FIELD:TYPE"))?;
    let role = role.unwrap_or_else(|| default_role(field, encoding, flags));
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
        "OperandSpec {{ field: Field::{field}, ty: DataType::{ty}, count: {count}, role: Role::{role} }}"
    ))
}

fn parse_file(path: &Path, rows: &mut Vec<Row>) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut encoding: Option<&'static str> = None;
    // Flags a `[family] | FLAGS` header gives every row of its section.
    let mut section_flags = String::new();
    for (index, raw) in text.lines().enumerate() {
        let at = |msg: String| format!("{}:{}: {msg}", path.display(), index + 1);
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(header) = line.strip_prefix('[') {
            let (name, rest) = header
                .split_once(']')
                .ok_or_else(|| at("unterminated [encoding] header".into()))?;
            encoding = Some(
                lookup(ENCODINGS, name).ok_or_else(|| at(format!("unknown encoding `{name}`")))?,
            );
            section_flags = match rest.trim().strip_prefix('|') {
                Some(f) => f.trim().to_string(),
                None if rest.trim().is_empty() => String::new(),
                None => return Err(at("expected `| FLAGS` after the header".into())),
            };
            continue;
        }
        let encoding = encoding.ok_or_else(|| at("row before any [encoding] header".into()))?;
        let (main, flag_text) = match line.split_once('|') {
            Some((m, f)) => (m, f.trim()),
            None => (line, ""),
        };
        let tokens: Vec<&str> = main.split_whitespace().collect();
        if tokens.len() < 7 {
            return Err(at("expected MNEMONIC and six opcode columns".into()));
        }
        let mnemonic = tokens[0];
        if mnemonic.bytes().any(|b| b.is_ascii_uppercase()) {
            return Err(at(format!("mnemonic `{mnemonic}` must be lower case")));
        }
        let mut opcodes: [String; 6] = Default::default();
        for (slot, tok) in opcodes.iter_mut().zip(&tokens[1..7]) {
            *slot = parse_opcode(tok).map_err(at)?;
        }
        let flag_words: Vec<&str> = section_flags
            .split_whitespace()
            .chain(flag_text.split_whitespace())
            .collect();
        let operands = tokens[7..]
            .iter()
            .map(|t| parse_operand(t, encoding, &flag_words))
            .collect::<Result<Vec<_>, _>>()
            .map_err(at)?
            .join(", ");
        let mut implicit = BTreeMap::new();
        let mut flags = Vec::new();
        let mut atomic = "None".to_string();
        let mut compare = "None".to_string();
        let mut sample = "None".to_string();
        let mut flow = "Compute".to_string();
        for f in &flag_words {
            if parse_implicit(f, &mut implicit).map_err(at)? {
                continue;
            }
            if let Some(parts) = f.strip_prefix("sample:") {
                let mut bits = 0u8;
                for part in parts.split('+').filter(|p| *p != "plain") {
                    bits |= match part {
                        "c" => 1,
                        "d" => 2,
                        "l" => 4,
                        "b" => 8,
                        "lz" => 16,
                        "cl" => 32,
                        "o" => 64,
                        "cd" => 128,
                        _ => return Err(at(format!("unknown sample variant `{part}`"))),
                    };
                }
                sample = format!("Some(SampleVariant({bits:#x}))");
                continue;
            }
            if let Some(kind) = f.strip_prefix("flow:") {
                if let Some((variant, spec)) = SHIFTS
                    .iter()
                    .find_map(|(k, v)| Some((*v, kind.strip_prefix(k)?.strip_prefix(':')?)))
                {
                    flow = parse_shift(variant, spec, &tokens[7..]).map_err(at)?;
                    continue;
                }
                flow = lookup(FLOWS, kind)
                    .ok_or_else(|| at(format!("unknown value flow `{kind}`")))?
                    .to_string();
                continue;
            }
            if let Some(pred) = f.strip_prefix("cmp:") {
                let op = lookup(COMPARE_OPS, pred)
                    .ok_or_else(|| at(format!("unknown compare predicate `{pred}`")))?;
                compare = format!("Some(CompareOp::{op})");
                continue;
            }
            if let Some(spec) = f.strip_prefix("atomic:") {
                let (name, wide) = match spec.strip_suffix(":64") {
                    Some(n) => (n, true),
                    None => (spec, false),
                };
                let op = lookup(ATOMIC_OPS, name)
                    .ok_or_else(|| at(format!("unknown atomic operation `{name}`")))?;
                atomic = format!("Some(Atomic {{ op: AtomicOp::{op}, wide: {wide} }})");
                flags.push("flags::ATOMIC".to_string());
                continue;
            }
            flags.push(
                lookup(FLAGS, f)
                    .map(|c| format!("flags::{c}"))
                    .ok_or_else(|| at(format!("unknown flag `{f}`")))?,
            );
        }
        let implicit = implicit
            .iter()
            .flat_map(|(reg, [reads, writes])| {
                // One entry per (register, role, versions); a register read
                // and written on the same versions is one ReadWrite entry.
                let both = reads & writes;
                [
                    (both, "ReadWrite"),
                    (reads & !both, "Read"),
                    (writes & !both, "Write"),
                ]
                .into_iter()
                .filter(|(v, _)| *v != 0)
                .map(move |(v, role)| {
                    format!("Implicit {{ reg: ImplicitReg::{reg}, role: Role::{role}, versions: {v:#x} }}")
                })
            })
            .collect::<Vec<_>>()
            .join(", ");
        rows.push(Row {
            mnemonic: mnemonic.to_string(),
            encoding,
            opcodes,
            operands,
            implicit,
            atomic,
            compare,
            sample,
            flow,
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
    let mut implicit_lists: BTreeMap<String, usize> = BTreeMap::new();
    for row in &rows {
        let next = operand_lists.len();
        operand_lists.entry(row.operands.clone()).or_insert(next);
        let next = implicit_lists.len();
        implicit_lists.entry(row.implicit.clone()).or_insert(next);
    }
    for (list, index) in &implicit_lists {
        let n = list.matches("Implicit {").count();
        writeln!(out, "static IMPLICIT_{index}: [Implicit; {n}] = [{list}];").unwrap();
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
    // One `Mnemonic` variant per distinct mnemonic (CamelCase), which the
    // emulator keys its semantics by: a misspelled name does not compile.
    let mut variants: BTreeMap<String, String> = BTreeMap::new();
    for row in &rows {
        let camel: String = row
            .mnemonic
            .split('_')
            .map(|part| {
                let mut c = part.chars();
                c.next()
                    .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                    .unwrap_or_default()
            })
            .collect();
        if let Some(other) = variants.get(&camel) {
            if *other != row.mnemonic {
                panic!(
                    "ISA table error: `{other}` and `{}` are both {camel}",
                    row.mnemonic
                );
            }
        }
        variants.insert(camel, row.mnemonic.clone());
    }
    let by_name: BTreeMap<&str, &str> = variants
        .iter()
        .map(|(camel, name)| (name.as_str(), camel.as_str()))
        .collect();
    writeln!(
        out,
        "/// Every mnemonic of the table as an enum variant (`s_add_u32` is \
         `SAddU32`).\n#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]\n\
         #[allow(missing_docs)]\npub enum Mnemonic {{"
    )
    .unwrap();
    for camel in by_name.values() {
        writeln!(out, "    {camel},").unwrap();
    }
    writeln!(out, "}}").unwrap();
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
            "    InstrRow {{ mnemonic: {:?}, op: Mnemonic::{}, encoding: Encoding::{}, opcodes: [{}], operands: &OPERANDS_{}, implicit: &IMPLICIT_{}, atomic: {}, compare: {}, sample: {}, flow: Flow::{}, flags: {} }},",
            row.mnemonic,
            by_name[row.mnemonic.as_str()],
            row.encoding,
            row.opcodes.join(", "),
            operand_lists[&row.operands],
            implicit_lists[&row.implicit],
            row.atomic,
            row.compare,
            row.sample,
            row.flow,
            row.flags
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
    let out_path = Path::new(&std::env::var("OUT_DIR").unwrap()).join("isa_table.rs");
    std::fs::write(out_path, out).unwrap();
}
