//! DS (local and global data share) words: ADDR, DATA0, DATA1, VDST,
//! the offsets and `gds`.

use super::memory::{bit, operand_specs, vgpr, zero};
use super::{Ctx, DecodeError, Instruction, MemFlags};
use crate::isa::{flags, Field};

/// Decodes the operands and modifiers of a DS instruction from its two
/// words into `instr` (whose row is known).
pub(super) fn decode(
    ctx: &Ctx<'_>,
    instr: &mut Instruction,
    w0: u32,
    w1: u32,
) -> Result<(), DecodeError> {
    let row = instr.row;
    // GCN 1.0/1.1/1.5: bit 16 unused, GDS bit 17; GCN 1.2/1.4: GDS bit 16,
    // bit 25 unused.
    let (gds, reserved) = if ctx.version.is_gcn12_or_later() && !ctx.version.is_gcn15() {
        (bit(w0, 16), w0 >> 25 & 1)
    } else {
        (bit(w0, 17), w0 >> 16 & 1)
    };
    zero(reserved)?;
    if row.has(flags::GDS_ONLY) && !gds {
        return Err(DecodeError::Invalid);
    }
    let mem = &mut instr.mods.mem;
    mem.flags.set(MemFlags::GDS, gds);
    if row.has(flags::OFFSET2) {
        mem.offset = (w0 & 0xff) as i32;
        mem.offset1 = (w0 >> 8 & 0xff) as u8;
    } else {
        mem.offset = (w0 & 0xffff) as i32;
    }
    // ADDR, DATA0, DATA1, VDST: bytes 0-3 of the second word.
    let mut used = [false; 4];
    for (i, spec) in operand_specs(row).iter().enumerate() {
        let byte = match spec.field {
            Field::Vaddr => 0,
            Field::Vdata => 1,
            Field::Vdata1 => 2,
            Field::Vdst => 3,
            _ => return Err(DecodeError::Invalid),
        };
        used[byte] = true;
        instr.operand_array[i] = vgpr(ctx, w1 >> (8 * byte) & 0xff, spec.registers())?;
    }
    for (byte, used) in used.iter().enumerate() {
        if !used {
            zero(w1 >> (8 * byte) & 0xff)?;
        }
    }
    Ok(())
}
