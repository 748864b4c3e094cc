//! EXP (export) encoding.
//!
//! Syntax: `exp TARGET, VSRC0, VSRC1, VSRC2, VSRC3 [done] [compr] [vm]`;
//! a source is a VGPR or `off`. Targets: `mrt0`-`mrt7`, `mrtz`, `null`,
//! `pos0`-`pos3`, `param0`-`param31`.

use super::context::{OperandContext, OperandError};
use super::memory::{check_suffix, emit, next_modifier, unknown_modifier, vgpr_number};
use super::operand::flag_parameter;
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
    let mut positions = [0usize; 4];
    for (i, reg) in regs.iter_mut().enumerate() {
        expect_comma(cur, "export source")?;
        if cur.eat_keyword("off") {
            continue;
        }
        let r = parse_register(ctx, cur, Accept::VGPR, 1, Align::None, "export source")?;
        *reg = vgpr_number(r.value);
        positions[i] = r.at;
        enable |= 1 << i;
    }
    let (mut done, mut compr, mut vm) = (false, false, false);
    while let Some(name) = next_modifier(cur) {
        match name.lower() {
            "done" => done = flag_parameter(ctx, cur)?,
            "compr" => compr = flag_parameter(ctx, cur)?,
            "vm" => vm = flag_parameter(ctx, cur)?,
            _ => return Err(unknown_modifier(cur, &name, "EXP")),
        }
    }
    // Compressed exports carry two registers of packed halves: the first
    // and the third source (the others only enable their channels, so, as
    // clrxasm requires, they name the same register or are `off`).
    if compr {
        for pair in [0, 2] {
            if enable >> pair & 3 == 3 && regs[pair] != regs[pair + 1] {
                return Err(OperandError::new(
                    positions[pair + 1],
                    format!(
                        "with `compr`, source {} must be v{} like source {} (or `off`): a \
                         compressed export sends one register per pair",
                        pair + 2,
                        regs[pair],
                        pair + 1
                    ),
                ));
            }
        }
    }
    let sources = if compr {
        regs[0] | (regs[2] << 8)
    } else {
        regs[0] | (regs[1] << 8) | (regs[2] << 16) | (regs[3] << 24)
    };
    let encoding = if st.version.is_gcn12_or_later() && !st.version.is_gcn15() {
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
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        // Decimal, leading zeros allowed (`param0025` is param25, as
        // clrxasm reads it); too many digits is out of range.
        let significant = digits.trim_start_matches('0');
        let n: u32 = if significant.len() > 9 {
            u32::MAX
        } else {
            significant.parse().unwrap_or(0)
        };
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
