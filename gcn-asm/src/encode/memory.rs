//! Pieces shared by the memory families (DS, MUBUF/MTBUF, MIMG, EXP,
//! FLAT/GLOBAL/SCRATCH): modifier names, modifier values, immediate fields
//! that may be resolved later, and VGPR operands whose register count is
//! only known after the modifiers are read.

use super::context::{DeferredExpr, ExprValue, FixupKind, OperandContext, OperandError};
use super::operand::{check_register, try_register, Accept, Align, Located, Reg, RegParse};
use super::{Emitter, Forced, Statement};
use crate::syntax::cursor::Cursor;

/// Longest modifier name the families know (`offset1`, `inst_offset`, …);
/// longer words are unknown modifiers.
const MAX_MODIFIER: usize = 16;

/// A modifier name, lower-cased on the stack (this runs for every modifier
/// of every memory instruction, so it must not allocate).
pub(crate) struct ModifierName {
    buffer: [u8; MAX_MODIFIER],
    len: usize,
    /// Byte offset of the name in the statement.
    pub at: usize,
    /// The name as written.
    pub text: usize,
}

impl ModifierName {
    /// The lower-case name; empty when the word is too long to be a modifier.
    pub fn lower(&self) -> &str {
        std::str::from_utf8(&self.buffer[..self.len]).unwrap_or("")
    }
}

/// Reads the next modifier name, or `None` at the end of the statement (or
/// when the next token is not a word, which the caller reports as trailing
/// text).
pub(crate) fn next_modifier(cur: &mut Cursor<'_>) -> Option<ModifierName> {
    cur.skip_spaces();
    let (word, at) = cur.symbol()?;
    let mut name = ModifierName {
        buffer: [0; MAX_MODIFIER],
        len: 0,
        at,
        text: word.len(),
    };
    if word.len() <= MAX_MODIFIER {
        name.buffer[..word.len()].copy_from_slice(word.as_bytes());
        name.buffer[..word.len()].make_ascii_lowercase();
        name.len = word.len();
    }
    Some(name)
}

/// The error for a modifier the instruction does not take.
pub(crate) fn unknown_modifier(
    cur: &Cursor<'_>,
    name: &ModifierName,
    family: &str,
) -> OperandError {
    let word = &cur.text()[name.at..name.at + name.text];
    OperandError::new(
        name.at,
        format!("unknown modifier `{word}` for {family} instructions"),
    )
}

/// Reads the optional `:VALUE` of a flag modifier: bare `glc` is 1,
/// `glc:EXPR` is EXPR != 0 (bit 0 of EXPR under `.oldmodparam`).
pub(crate) fn flag_value(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
) -> Result<bool, OperandError> {
    let mut probe = *cur;
    if !probe.eat(b':') {
        return Ok(true);
    }
    *cur = probe;
    let value = super::operand::absolute_expression(ctx, cur, "modifier parameter")?;
    Ok(if ctx.old_modifier_parameters() {
        value & 1 != 0
    } else {
        value != 0
    })
}

/// An immediate modifier value: known now or patched by a fix-up.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Imm {
    /// The value and where it was written.
    Known(i64, usize),
    /// Resolved after the source is read.
    Deferred(DeferredExpr, usize),
}

/// Reads `:EXPR` after an immediate modifier (`offset:…`).
pub(crate) fn imm_value(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
    name: &str,
) -> Result<Imm, OperandError> {
    if !cur.eat(b':') {
        cur.skip_spaces();
        return Err(OperandError::new(
            cur.pos(),
            format!("expected `:` and a value after `{name}`"),
        ));
    }
    cur.skip_spaces();
    let at = cur.pos();
    match ctx.expression(cur)? {
        ExprValue::Known(v) if v.section.is_none() => Ok(Imm::Known(v.value, at)),
        ExprValue::Known(_) => Err(OperandError::new(
            at,
            format!("`{name}` must be an absolute value, not an address"),
        )),
        ExprValue::Deferred(d) => Ok(Imm::Deferred(d, at)),
    }
}

/// A bit field of the instruction filled from an [`Imm`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct ImmField {
    /// Word index (from the instruction's first word).
    pub word: u8,
    /// Lowest bit.
    pub shift: u8,
    /// Width.
    pub bits: u8,
    /// Accepts negative values.
    pub signed: bool,
}

impl ImmField {
    /// Puts a known value into `words` (truncating it with a warning when
    /// it does not fit, as clrxasm does), or returns the fix-up to ask for.
    pub fn place(
        self,
        ctx: &mut dyn OperandContext,
        imm: Imm,
        what: &str,
        words: &mut [u32],
    ) -> Option<(FixupKind, DeferredExpr, usize)> {
        match imm {
            Imm::Known(v, at) => {
                let max = (1i64 << self.bits) - 1;
                let min = if self.signed {
                    -(1i64 << (self.bits - 1))
                } else {
                    0
                };
                let max = if self.signed {
                    (1i64 << (self.bits - 1)) - 1
                } else {
                    max
                };
                if v < min || v > max {
                    ctx.warning(
                        at,
                        format!(
                            "{what} {v} does not fit in {} bits and was truncated",
                            self.bits
                        ),
                    );
                }
                let mask = ((1u64 << self.bits) - 1) as u32;
                if let Some(w) = words.get_mut(usize::from(self.word)) {
                    *w |= ((v as u32) & mask) << self.shift;
                }
                None
            }
            Imm::Deferred(d, at) => Some((
                FixupKind::Field {
                    word: self.word,
                    shift: self.shift,
                    bits: self.bits,
                    signed: self.signed,
                },
                d,
                at,
            )),
        }
    }
}

/// Pushes `words` and asks for the given fix-ups.
pub(crate) fn emit(
    out: &mut Emitter,
    words: &[u32],
    fixups: &[Option<(FixupKind, DeferredExpr, usize)>],
) {
    let first = out.push(words[0]);
    for &w in &words[1..] {
        out.push(w);
    }
    for (kind, d, at) in fixups.iter().flatten() {
        let word = match kind {
            FixupKind::Field { word, .. } => *word,
            _ => 0,
        };
        out.fixup(first + word, *kind, *d, *at);
    }
}

/// Reads a VGPR range of any length (its count is checked by the caller
/// once the modifiers are known).
pub(crate) fn vgpr_range(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
    what: &str,
) -> Result<Located<Reg>, OperandError> {
    cur.skip_spaces();
    let at = cur.pos();
    match try_register(ctx, cur, Some(Accept::VGPR))? {
        RegParse::Reg(reg) => {
            check_register(reg, Accept::VGPR, reg.count, Align::None, at, what)?;
            ctx.register_used(reg.code, reg.count);
            Ok(Located { value: reg, at })
        }
        RegParse::Constant(_) => Err(OperandError::new(
            at,
            format!("{what} must be a vector register, not a constant"),
        )),
        RegParse::NotRegister => Err(OperandError::new(
            at,
            if cur.at_end() || cur.peek() == Some(b',') {
                format!("missing {what}")
            } else {
                format!("{what} must be a vector register")
            },
        )),
    }
}

/// Checks the register count of an operand read with [`vgpr_range`].
pub(crate) fn expect_count(
    reg: Located<Reg>,
    count: u16,
    what: &str,
    why: &str,
) -> Result<(), OperandError> {
    if reg.value.count == count {
        return Ok(());
    }
    Err(OperandError::new(
        reg.at,
        format!(
            "{what} takes {count} register{}{why}, but {} has {}",
            if count == 1 { "" } else { "s" },
            super::operand::describe(reg.value),
            reg.value.count
        ),
    ))
}

/// Memory instructions have one encoding: `_e64` is tolerated (clrxasm
/// accepts it), the ALU-only suffixes are not.
pub(crate) fn check_suffix(st: &Statement<'_>) -> Result<(), OperandError> {
    match st.forced {
        Forced::Auto | Forced::E64 => Ok(()),
        _ => Err(OperandError::new(
            0,
            format!(
                "`{}` is a {:?} instruction and has no such encoding suffix",
                st.mnemonic, st.row.encoding
            ),
        )),
    }
}

/// The 8-bit register number of a VGPR operand.
pub(crate) fn vgpr_number(reg: Reg) -> u32 {
    u32::from(reg.code.saturating_sub(super::operand::VGPR_BASE)) & 0xff
}
