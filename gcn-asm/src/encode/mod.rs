//! Instruction statements to machine words, one module per encoding family:
//! `scalar` (SOP2, SOP1, SOPK, SOPC, SOPP), `smem` (SMRD, SMEM), `vector`
//! (VOP2, VOP1, VOPC, VOP3, VOP3P with SDWA/DPP), `vintrp`, `ds`, `buffer`
//! (MUBUF, MTBUF), `mimg`, `exp`, `flat` (FLAT, GLOBAL, SCRATCH). Shared
//! operand syntax lives in `operand` (and, for the memory families,
//! `memory`); the contract with the statement-level assembler is
//! [`context`].

pub(crate) mod buffer;
pub mod context;
pub(crate) mod ds;
pub(crate) mod exp;
pub(crate) mod flat;
pub(crate) mod memory;
pub(crate) mod mimg;
pub(crate) mod operand;
pub(crate) mod scalar;
pub(crate) mod smem;
pub(crate) mod vector;
pub(crate) mod vintrp;

use context::{
    DeferredExpr, ExprValue, Fixup, FixupKind, OperandContext, OperandError, RegisterSymbol,
    SectionId, Value,
};

use crate::arch::GcnVersion;
use crate::isa::{self, Encoding, InstrRow};
use crate::syntax::cursor::Cursor;
use crate::syntax::float::parse_float_literal;

/// An encoding forced by a mnemonic suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Forced {
    /// No suffix: the assembler picks the shortest encoding that fits.
    Auto,
    /// `_e32`: the 32-bit VOP1/VOP2/VOPC encoding.
    E32,
    /// `_e64`: the VOP3 encoding.
    E64,
    /// `_sdwa`.
    Sdwa,
    /// `_dpp`.
    Dpp,
}

/// The words and fix-ups of one instruction being built.
#[derive(Debug)]
pub(crate) struct Emitter {
    /// Up to 5 words: a GCN 1.5 MIMG with 13 NSA addresses.
    words: [u32; 5],
    len: usize,
    fixups: [Option<Fixup>; 4],
}

impl Emitter {
    pub(crate) fn new() -> Self {
        Emitter {
            words: [0; 5],
            len: 0,
            fixups: [None; 4],
        }
    }

    /// Appends a word and returns its index.
    pub(crate) fn push(&mut self, word: u32) -> u8 {
        self.words[self.len] = word;
        self.len += 1;
        (self.len - 1) as u8
    }

    /// Asks for a fix-up.
    pub(crate) fn fixup(&mut self, word: u8, kind: FixupKind, expr: DeferredExpr, at: usize) {
        if let Some(slot) = self.fixups.iter_mut().find(|f| f.is_none()) {
            *slot = Some(Fixup {
                word,
                kind,
                expr,
                at,
            });
        }
    }

    fn finish(self, ctx: &mut dyn OperandContext) {
        for &w in &self.words[..self.len] {
            ctx.emit(w);
        }
        for f in self.fixups.iter().flatten() {
            ctx.fixup(*f);
        }
    }
}

/// Everything the family encoders need about the current statement.
pub(crate) struct Statement<'a> {
    /// The instruction's table row.
    pub row: &'static InstrRow,
    /// Its opcode on the target version.
    pub opcode: u16,
    /// Target version.
    pub version: GcnVersion,
    /// The encoding forced by a suffix.
    pub forced: Forced,
    /// Cursor after the mnemonic.
    pub cur: Cursor<'a>,
    /// The mnemonic as written.
    pub mnemonic: &'a str,
}

const MAX_MNEMONIC: usize = 48;

/// "unknown instruction `X`", with the closest mnemonic of `version`
/// when one is a likely typo (`v_add_f23` → `v_add_f32`). Cold: only an
/// error pays for the walk over the table.
#[cold]
fn unknown_instruction(lower: &str, mnemonic: &str, version: GcnVersion) -> String {
    let names = crate::isa::INSTRUCTIONS
        .iter()
        .filter(|r| r.opcode(version).is_some())
        .map(|r| r.mnemonic);
    format!(
        "unknown instruction `{mnemonic}`{}",
        crate::suggest::did_you_mean(lower, names)
    )
}

/// Assembles one instruction statement.
///
/// `statement` starts with the mnemonic (which ends at byte `mnemonic_end`)
/// and holds its operands and modifiers; every [`OperandError::at`] is a byte
/// offset in `statement`.
pub fn assemble_instruction(
    ctx: &mut dyn OperandContext,
    statement: &str,
    mnemonic_end: usize,
) -> Result<(), OperandError> {
    let mnemonic = &statement[..mnemonic_end];
    let version = ctx.version();
    let mut buffer = [0u8; MAX_MNEMONIC];
    if mnemonic.len() > MAX_MNEMONIC {
        return Err(OperandError::new(
            0,
            format!("unknown instruction `{mnemonic}`"),
        ));
    }
    // Mnemonics are nearly always written in lower case already: copy
    // (and re-validate) only the others.
    let lower = if mnemonic.bytes().any(|b| b.is_ascii_uppercase()) {
        let lower = &mut buffer[..mnemonic.len()];
        lower.copy_from_slice(mnemonic.as_bytes());
        lower.make_ascii_lowercase();
        std::str::from_utf8(lower).unwrap_or("")
    } else {
        mnemonic
    };
    let (rows, forced) = find_rows(lower);
    if rows.is_empty() {
        return Err(OperandError::new(
            0,
            unknown_instruction(lower, mnemonic, version),
        ));
    }
    let Some(row) = rows.iter().find(|r| r.opcode(version).is_some()) else {
        let available: Vec<&str> = GcnVersion::ALL
            .iter()
            .filter(|v| rows.iter().any(|r| r.opcode(**v).is_some()))
            .map(|v| v.name())
            .collect();
        let hint = vector::carry_counterpart(mnemonic, version)
            .map(|other| format!("; on {version} the carry form is `{other}`"))
            .unwrap_or_default();
        return Err(OperandError::new(
            0,
            format!(
                "instruction `{mnemonic}` is not available on {version} (it exists on {}){hint}",
                available.join(", ")
            ),
        ));
    };
    let opcode = row.opcode(version).unwrap_or(0);
    let mut st = Statement {
        row,
        opcode,
        version,
        forced,
        cur: Cursor::at(statement, mnemonic_end),
        mnemonic,
    };
    let mut out = Emitter::new();
    match row.encoding {
        Encoding::Sop2 | Encoding::Sop1 | Encoding::Sopk | Encoding::Sopc | Encoding::Sopp => {
            scalar::encode(ctx, &mut st, &mut out)?
        }
        Encoding::Smrd => smem::encode_smrd(ctx, &mut st, &mut out)?,
        Encoding::Smem => smem::encode_smem(ctx, &mut st, &mut out)?,
        Encoding::Vop2 | Encoding::Vop1 | Encoding::Vopc | Encoding::Vop3 | Encoding::Vop3p => {
            vector::encode(ctx, &mut st, &mut out)?
        }
        Encoding::Vintrp => vintrp::encode(ctx, &mut st, &mut out)?,
        Encoding::Ds => ds::encode(ctx, &mut st, &mut out)?,
        Encoding::Mubuf | Encoding::Mtbuf => buffer::encode(ctx, &mut st, &mut out)?,
        Encoding::Mimg => mimg::encode(ctx, &mut st, &mut out)?,
        Encoding::Exp => exp::encode(ctx, &mut st, &mut out)?,
        Encoding::Flat | Encoding::Global | Encoding::Scratch => {
            flat::encode(ctx, &mut st, &mut out)?
        }
    }
    if !st.cur.is_blank() {
        return Err(OperandError::new(
            st.cur.pos(),
            format!(
                "unexpected `{}` after the operands",
                st.cur.rest().trim_end()
            ),
        ));
    }
    if row.reads_implicit(crate::isa::ImplicitReg::Vcc, ctx.version()) {
        // An implicit read (s_cbranch_vccz, v_div_fmas_*) uses VCC as much
        // as a written one does.
        ctx.register_used(operand::VCC, 2);
    }
    out.finish(ctx);
    Ok(())
}

/// Rows for a lower-case mnemonic, with an encoding suffix stripped when the
/// full name is not an instruction itself.
fn find_rows(lower: &str) -> (&'static [InstrRow], Forced) {
    let rows = isa::rows(lower);
    if !rows.is_empty() {
        return (rows, Forced::Auto);
    }
    for (suffix, forced) in [
        ("_e32", Forced::E32),
        ("_e64", Forced::E64),
        ("_sdwa", Forced::Sdwa),
        ("_dpp", Forced::Dpp),
    ] {
        if let Some(base) = lower.strip_suffix(suffix) {
            let rows = isa::rows(base);
            if !rows.is_empty() {
                return (rows, forced);
            }
        }
    }
    (&[], Forced::Auto)
}

/// Parses the text after `%` in `sym = %…` (a register, register range or
/// constant) into a register symbol.
pub fn parse_register_symbol(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
) -> Result<RegisterSymbol, OperandError> {
    cur.skip_spaces();
    let at = cur.pos();
    if let Some((lit, len)) = parse_float_literal(cur.rest()) {
        cur.bump(len);
        return Ok(RegisterSymbol::Float(lit));
    }
    match operand::try_register(ctx, cur, None)? {
        operand::RegParse::Reg(reg) => Ok(RegisterSymbol::Registers {
            code: reg.code,
            count: reg.count.max(1),
        }),
        operand::RegParse::Constant(c) => Ok(c),
        operand::RegParse::NotRegister => match ctx.expression(cur)? {
            ExprValue::Known(v) if v.section.is_none() => Ok(RegisterSymbol::Integer(v.value)),
            _ => Err(OperandError::new(
                at,
                "a register symbol must name registers or a constant known here",
            )),
        },
    }
}

/// Applies a fix-up once its expression is known. `instruction` is where
/// the instruction's first word is; `words` starts at that word.
///
/// A value that does not fit its field is truncated, as clrxasm does, and
/// the returned `Ok(Some(message))` is a warning to report at the fix-up's
/// position. An address where a number is needed, a branch to another
/// section, a misaligned or too distant branch target are errors.
pub fn apply_fixup(
    kind: FixupKind,
    value: Value,
    instruction: (SectionId, u64),
    words: &mut [u32],
) -> Result<Option<String>, String> {
    let absolute = |what: &str| -> Result<i64, String> {
        if value.section.is_some() {
            Err(format!("{what} must be an absolute value, not an address"))
        } else {
            Ok(value.value)
        }
    };
    // (word index, bit shift, width, accepted range, what)
    let (word, shift, bits, range, what): (usize, u32, u32, (i64, i64), &str) = match kind {
        FixupKind::Literal32 { word } => {
            (word.into(), 0, 32, (-(1 << 31), (1 << 32) - 1), "literal")
        }
        FixupKind::Imm16 => (0, 0, 16, (-32768, 65535), "16-bit immediate"),
        FixupKind::Branch16 { instruction_size } => {
            let offset = branch_offset(value, instruction, instruction_size)?;
            set_bits(words, 0, 0, 16, offset as u32);
            return Ok(None);
        }
        FixupKind::SmrdOffset8 => (0, 0, 8, (0, 255), "SMRD offset"),
        FixupKind::SmemOffset20 => (1, 0, 20, (0, (1 << 20) - 1), "SMEM offset"),
        FixupKind::SmemOffset21 => (1, 0, 21, (-(1 << 20), (1 << 21) - 1), "SMEM offset"),
        FixupKind::Gfx10SegmentOffset => {
            let v = absolute("offset")?;
            let (field, warning) = gfx10_segment_offset(v);
            set_bits(words, 0, 0, 12, field);
            return Ok(warning);
        }
        FixupKind::Field {
            word,
            shift,
            bits,
            signed,
        } => {
            let max = (1i64 << bits) - 1;
            let range = if signed {
                (-(1 << (bits - 1)), max)
            } else {
                (0, max)
            };
            (word.into(), shift.into(), bits.into(), range, "value")
        }
    };
    let v = absolute(what)?;
    set_bits(words, word, shift, bits, v as u32);
    Ok((v < range.0 || v > range.1)
        .then(|| format!("{what} {v:#x} does not fit in {bits} bits and was truncated")))
}

/// The 12-bit field of a GCN 1.5 GLOBAL/SCRATCH offset `v` and the warning
/// when it was truncated: -2048..=2047 as the hardware has them, a larger
/// (or more negative) value cut to its low 11 bits as clrxasm cuts it.
pub(crate) fn gfx10_segment_offset(v: i64) -> (u32, Option<String>) {
    if (-2048..=2047).contains(&v) {
        ((v as u32) & 0xfff, None)
    } else {
        (
            (v as u32) & 0x7ff,
            Some(format!(
                "offset {v:#x} does not fit in 11 bits and was truncated"
            )),
        )
    }
}

/// Stores the low `bits` bits of `value` at bit `shift` of `words[word]`.
fn set_bits(words: &mut [u32], word: usize, shift: u32, bits: u32, value: u32) {
    let mask = if bits >= 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    };
    if let Some(w) = words.get_mut(word) {
        *w = (*w & !(mask << shift)) | ((value & mask) << shift);
    }
}

/// The SIMM16 of a branch from the instruction at `instruction` (of
/// `instruction_size` bytes) to `target`.
pub(crate) fn branch_offset(
    target: Value,
    instruction: (SectionId, u64),
    instruction_size: u8,
) -> Result<i64, String> {
    if let Some(section) = target.section {
        if section != instruction.0 {
            return Err("branch target is in another section".into());
        }
    }
    let next = instruction.1 as i64 + i64::from(instruction_size);
    let Some(delta) = target.value.checked_sub(next) else {
        return Err(format!(
            "branch target is too far away ({} bytes)",
            target.value
        ));
    };
    if delta % 4 != 0 {
        return Err(format!(
            "branch target is not a multiple of 4 bytes away (offset {delta})"
        ));
    }
    let words = delta / 4;
    if !(-32768..=32767).contains(&words) {
        return Err(format!("branch target is too far away ({words} words)"));
    }
    Ok(words)
}

/// The word used to pad code (`s_nop 0`).
pub fn code_padding_word(version: GcnVersion) -> u32 {
    let _ = version;
    0xbf80_0000
}
