//! EXP words: the target, the four sources and `compr`/`done`/`vm`.

use super::memory::{bit, operand_specs, vgpr, zero};
use super::{Ctx, DecodeError, Instruction, MemFlags, Operand};

/// The export target name of a target code, if it has one.
pub(super) fn export_target(target: u32) -> Option<(&'static str, u32)> {
    Some(match target {
        0..=7 => ("mrt", target),
        8 => ("mrtz", u32::MAX),
        9 => ("null", u32::MAX),
        12..=15 => ("pos", target - 12),
        32..=63 => ("param", target - 32),
        _ => return None,
    })
}

/// Decodes the operands and modifiers of an EXP instruction from its two
/// words into `instr` (whose row is known).
pub(super) fn decode(
    ctx: &Ctx<'_>,
    instr: &mut Instruction,
    w0: u32,
    w1: u32,
) -> Result<(), DecodeError> {
    // Bits 13-25 are unused.
    zero(w0 >> 13 & 0x1fff)?;
    let enable = w0 & 0xf;
    let target = w0 >> 4 & 0x3f;
    export_target(target).ok_or(DecodeError::Invalid)?;
    let mem = &mut instr.mods.mem;
    mem.flags.set(MemFlags::COMPR, bit(w0, 10));
    mem.flags.set(MemFlags::DONE, bit(w0, 11));
    mem.flags.set(MemFlags::VM, bit(w0, 12));
    let compr = mem.flags.contains(MemFlags::COMPR);
    // The register of each source: compressed exports carry two registers
    // (the first and third sources); the second and fourth only enable
    // their channels, so they print as the register before them.
    let regs = if compr {
        zero(w1 >> 16)?;
        let (a, b) = (w1 & 0xff, w1 >> 8 & 0xff);
        if (enable & 1 == 0 && a != 0) || (enable & 4 == 0 && b != 0) {
            return Err(DecodeError::Invalid);
        }
        [a, a, b, b]
    } else {
        let regs = [w1 & 0xff, w1 >> 8 & 0xff, w1 >> 16 & 0xff, w1 >> 24];
        for (i, r) in regs.iter().enumerate() {
            if enable >> i & 1 == 0 && *r != 0 {
                return Err(DecodeError::Invalid);
            }
        }
        regs
    };
    let specs = operand_specs(instr.row);
    if specs.len() != 5 {
        return Err(DecodeError::Invalid);
    }
    instr.operand_array[0] = Operand::Imm(target);
    for (i, r) in regs.into_iter().enumerate() {
        instr.operand_array[i + 1] = if enable >> i & 1 != 0 {
            vgpr(ctx, r, 1)?
        } else {
            Operand::Off
        };
    }
    Ok(())
}
