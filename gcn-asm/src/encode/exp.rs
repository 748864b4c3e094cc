//! EXP (export) encoding.
//!
//! Syntax: `exp TARGET, VSRC0, VSRC1, VSRC2, VSRC3 [done] [compr] [vm]`;
//! a source is a VGPR or `off`. Targets: `mrt0`-`mrt7`, `mrtz`, `null`,
//! `pos0`-`pos3`, `param0`-`param31`.

use super::context::{OperandContext, OperandError};
use super::memory::{check_suffix, emit, flag_value, next_modifier, unknown_modifier, vgpr_number};
use super::operand::{expect_comma, parse_register, Accept, Align};
use super::{Emitter, Statement};
use crate::syntax::cursor::Cursor;

/// Encodes an EXP instruction.
pub(crate) fn encode(
    ctx: &mut dyn OperandContext,
    st: &mut Statement<'_>,
    out: &mut Emitter,
) -> Result<(), OperandError> {
    check_suffix(st)?;
    let cur = &mut st.cur;
    let target = target(cur)?;
    let mut enable = 0u32;
    let mut regs = [0u32; 4];
    for (i, reg) in regs.iter_mut().enumerate() {
        expect_comma(cur, "export source")?;
        if cur.eat_keyword("off") {
            continue;
        }
        let r = parse_register(ctx, cur, Accept::VGPR, 1, Align::None, "export source")?;
        *reg = vgpr_number(r.value);
        enable |= 1 << i;
    }
    let (mut done, mut compr, mut vm) = (false, false, false);
    while let Some(name) = next_modifier(cur) {
        match name.lower() {
            "done" => done = flag_value(ctx, cur)?,
            "compr" => compr = flag_value(ctx, cur)?,
            "vm" => vm = flag_value(ctx, cur)?,
            _ => return Err(unknown_modifier(cur, &name, "EXP")),
        }
    }
    // Compressed exports carry two registers of packed halves: the first
    // and the third source (the others only enable their channels).
    let sources = if compr {
        regs[0] | (regs[2] << 8)
    } else {
        regs[0] | (regs[1] << 8) | (regs[2] << 16) | (regs[3] << 24)
    };
    let encoding = if st.version.is_gcn12_or_later() {
        0b110001 << 26
    } else {
        0b111110 << 26
    };
    let word0 = encoding
        | enable
        | (target << 4)
        | (u32::from(compr) << 10)
        | (u32::from(done) << 11)
        | (u32::from(vm) << 12);
    emit(out, &[word0, sources], &[]);
    Ok(())
}

/// Reads an export target name and returns its code.
fn target(cur: &mut Cursor<'_>) -> Result<u32, OperandError> {
    cur.skip_spaces();
    let at = cur.pos();
    let Some((word, _)) = cur.symbol() else {
        return Err(OperandError::new(at, "missing export target"));
    };
    let mut buffer = [0u8; 16];
    let lower = if word.len() <= buffer.len() {
        let b = &mut buffer[..word.len()];
        b.copy_from_slice(word.as_bytes());
        b.make_ascii_lowercase();
        std::str::from_utf8(b).unwrap_or("")
    } else {
        ""
    };
    let numbered = |prefix: &str, count: u32, base: u32| -> Option<Result<u32, OperandError>> {
        let digits = lower.strip_prefix(prefix)?;
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 3 {
            return None;
        }
        let n: u32 = digits.parse().ok()?;
        Some(if n < count {
            Ok(base + n)
        } else {
            Err(OperandError::new(
                at,
                format!(
                    "export target `{word}` is out of range ({prefix}0 to {prefix}{})",
                    count - 1
                ),
            ))
        })
    };
    match lower {
        "mrtz" => return Ok(8),
        "null" => return Ok(9),
        _ => {}
    }
    for (prefix, count, base) in [("mrt", 8, 0), ("pos", 4, 12), ("param", 32, 32)] {
        if let Some(result) = numbered(prefix, count, base) {
            return result;
        }
    }
    Err(OperandError::new(
        at,
        format!("unknown export target `{word}` (mrt0-7, mrtz, null, pos0-3 or param0-31)"),
    ))
}
