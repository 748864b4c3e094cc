//! Instruction statements to machine words, one module per encoding family.

pub mod context;

use context::{FixupKind, OperandContext, OperandError, RegisterSymbol, SectionId, Value};

use crate::arch::GcnVersion;
use crate::syntax::cursor::Cursor;

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
    let _ = ctx;
    Err(OperandError::new(
        0,
        format!("unknown instruction `{}`", &statement[..mnemonic_end]),
    ))
}

/// Parses the text after `%` in `sym = %…` (a register, register range or
/// constant) into a register symbol.
pub fn parse_register_symbol(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
) -> Result<RegisterSymbol, OperandError> {
    let _ = ctx;
    Err(OperandError::new(
        cur.pos(),
        "register symbols are not supported yet",
    ))
}

/// Applies a fix-up once its expression is known. `instruction` is where
/// the instruction's first word is; `words` starts at that word.
pub fn apply_fixup(
    kind: FixupKind,
    value: Value,
    instruction: (SectionId, u64),
    words: &mut [u32],
) -> Result<(), String> {
    let _ = (kind, value, instruction, words);
    Err("fix-ups are not supported yet".into())
}

/// The word used to pad code (`s_nop 0`).
pub fn code_padding_word(version: GcnVersion) -> u32 {
    let _ = version;
    0xbf80_0000
}
