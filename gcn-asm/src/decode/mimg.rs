//! MIMG words: DMASK, the data and address registers, the resource and
//! sampler, and the image modifiers.

use super::memory::{bit, operand_specs, sgprs, vgpr, zero};
use super::{Ctx, DecodeError, Instruction, MemFlags};
use crate::isa::{flags, Field};

/// Decodes the operands and modifiers of an MIMG instruction from its two
/// words into `instr` (whose row is known).
pub(super) fn decode(
    ctx: &Ctx<'_>,
    instr: &mut Instruction,
    w0: u32,
    w1: u32,
) -> Result<(), DecodeError> {
    let row = instr.row;
    let version = ctx.version;
    let gcn14 = version.is_gcn14();
    // Bits 0-7 and bits 26-30 of word 1 are unused; D16 (bit 31) exists
    // from GCN 1.2 on.
    zero(w0 & 0xff)?;
    zero(w1 >> 26 & 0x1f)?;
    let mem = &mut instr.mods.mem;
    mem.dmask = (w0 >> 8 & 0xf) as u8;
    if mem.dmask == 0 {
        return Err(DecodeError::Invalid);
    }
    mem.flags.set(MemFlags::UNORM, bit(w0, 12));
    // clrxasm rejects a store or atomic without UNORM: such words are not
    // printed as instructions.
    if !bit(w0, 12) && (row.has(flags::STORE) || row.has(flags::ATOMIC)) {
        return Err(DecodeError::Invalid);
    }
    instr.mods.glc = bit(w0, 13);
    mem.flags.set(MemFlags::DA, bit(w0, 14));
    if gcn14 {
        mem.flags.set(MemFlags::A16, bit(w0, 15));
    } else {
        mem.flags.set(MemFlags::R128, bit(w0, 15));
    }
    mem.flags.set(MemFlags::TFE, bit(w0, 16));
    mem.flags.set(MemFlags::LWE, bit(w0, 17));
    mem.flags.set(MemFlags::SLC, bit(w0, 25));
    mem.flags.set(MemFlags::D16, bit(w1, 31));
    if mem.flags.contains(MemFlags::D16) && !version.is_gcn12_or_later() {
        return Err(DecodeError::Invalid);
    }
    let mem = *mem;
    let components = if row.has(flags::GATHER4) {
        4
    } else {
        mem.dmask.count_ones() as u16
    };
    let data_count = if mem.flags.contains(MemFlags::D16) && gcn14 {
        components.div_ceil(2)
    } else {
        components
    } + u16::from(mem.flags.contains(MemFlags::TFE));
    let mut has_sampler = false;
    for (i, spec) in operand_specs(row).iter().enumerate() {
        instr.operand_array[i] = match spec.field {
            Field::Vdata => vgpr(ctx, w1 >> 8 & 0xff, data_count)?,
            // The address count is not in the words: the row's minimum.
            Field::Vaddr => vgpr(ctx, w1 & 0xff, spec.registers())?,
            Field::Srsrc => sgprs(
                ctx,
                (w1 >> 16 & 0x1f) * 4,
                if mem.flags.contains(MemFlags::R128) {
                    4
                } else {
                    8
                },
            )?,
            Field::Ssamp => {
                has_sampler = true;
                sgprs(ctx, (w1 >> 21 & 0x1f) * 4, 4)?
            }
            _ => return Err(DecodeError::Invalid),
        };
    }
    if !has_sampler {
        zero(w1 >> 21 & 0x1f)?;
    }
    Ok(())
}
