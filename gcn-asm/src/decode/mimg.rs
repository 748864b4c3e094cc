//! MIMG words: DMASK, the data and address registers, the resource and
//! sampler, and the image modifiers.

use super::memory::{bit, operand_specs, sgprs, vgpr, zero};
use super::operand::VGPR;
use super::{Ctx, DecodeError, Instruction, MemFlags, MemModifiers, Operand};
use crate::isa::{flags, Field, SampleVariant};

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
    if version.is_gcn15() {
        return decode_gcn15(ctx, instr, w0, w1);
    }
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

/// The address and derivative dwords of each GCN 1.5 image dimension
/// (clrxdisasm's `gfx10MImgDimEntryTbl`).
const DIMS: [(u16, u16); 8] = [
    (1, 2),
    (2, 4),
    (3, 6),
    (3, 4),
    (2, 2),
    (3, 4),
    (3, 4),
    (4, 4),
];

/// The number of address VGPRs of a GCN 1.5 image instruction of `row`
/// with dimension `dim`, as clrxdisasm counts them: the coordinates, the
/// derivatives of a `_d`/`_cd` sample, and one each for the MIP level,
/// `_c`, `_cl`, `_l`, `_b` and `_o`.
pub(super) fn address_count(row: &crate::isa::InstrRow, dim: u8) -> u16 {
    let (coords, derivs) = DIMS[usize::from(dim & 7)];
    let sample = row.sample.unwrap_or(SampleVariant(0));
    let extras = [
        SampleVariant::C,
        SampleVariant::CL,
        SampleVariant::L,
        SampleVariant::B,
        SampleVariant::O,
    ]
    .iter()
    .filter(|&&p| sample.has(p))
    .count() as u16
        + u16::from(row.has(flags::MIP));
    coords + extras + if row.has(flags::DERIV) { derivs } else { 0 }
}

/// Decodes a GCN 1.5 MIMG instruction: NSA dword count (bits 2:1), `dim`
/// (5:3), DLC (7), DMASK, UNORM, GLC, R128 (15), TFE, LWE, the opcode,
/// SLC; word 1 as before with D16 in bit 31; then the NSA dwords, one
/// address VGPR per byte. Only words clrxdisasm prints back to themselves
/// are instructions: the address count follows from the row and `dim`,
/// and NSA has exactly the dwords the addresses after the first need.
fn decode_gcn15(
    ctx: &Ctx<'_>,
    instr: &mut Instruction,
    w0: u32,
    w1: u32,
) -> Result<(), DecodeError> {
    let row = instr.row;
    if row.has(flags::BVH) {
        return decode_bvh(ctx, instr, w0, w1);
    }
    // Bits 6 and 14 (DA before GCN 1.5) and bits 26-30 of word 1 are not
    // in the layout (bit 0 is the opcode's bit 7).
    zero(w0 >> 6 & 1)?;
    zero(w0 >> 14 & 1)?;
    zero(w1 >> 26 & 0x1f)?;
    let nsa_dwords = (w0 >> 1 & 3) as usize;
    let mem = &mut instr.mods.mem;
    mem.dim = (w0 >> 3 & 7) as u8;
    mem.dmask = (w0 >> 8 & 0xf) as u8;
    if mem.dmask == 0 {
        return Err(DecodeError::Invalid);
    }
    mem.flags.set(MemFlags::DLC, bit(w0, 7));
    mem.flags.set(MemFlags::UNORM, bit(w0, 12));
    if !bit(w0, 12) && (row.has(flags::STORE) || row.has(flags::ATOMIC)) {
        return Err(DecodeError::Invalid);
    }
    instr.mods.glc = bit(w0, 13);
    mem.flags.set(MemFlags::R128, bit(w0, 15));
    mem.flags.set(MemFlags::TFE, bit(w0, 16));
    mem.flags.set(MemFlags::LWE, bit(w0, 17));
    mem.flags.set(MemFlags::SLC, bit(w0, 25));
    mem.flags.set(MemFlags::D16, bit(w1, 31));
    let components = if row.has(flags::GATHER4) {
        4
    } else {
        mem.dmask.count_ones() as u16
    };
    let packed = if mem.flags.contains(MemFlags::D16) {
        components.div_ceil(2)
    } else {
        components
    };
    let data_count = packed.max(1) + u16::from(mem.flags.contains(MemFlags::TFE));
    let addresses = address_count(row, mem.dim);
    if nsa_dwords > 0 {
        // clrxdisasm prints up to 4 addresses per NSA dword after the
        // first; the assemblers write as few dwords as the list needs.
        let extra = usize::from(addresses) - 1;
        if extra == 0 {
            return Err(DecodeError::Invalid);
        }
        read_nsa(ctx, mem, extra, nsa_dwords)?;
        instr.len = 2 + nsa_dwords as u8;
    }
    let mem = *mem;
    let mut has_sampler = false;
    for (i, spec) in operand_specs(row).iter().enumerate() {
        instr.operand_array[i] = match spec.field {
            Field::Vdata => vgpr(ctx, w1 >> 8 & 0xff, data_count)?,
            Field::Vaddr if mem.flags.contains(MemFlags::NSA) => Operand::Reg {
                code: VGPR + (w1 & 0xff) as u16,
                count: addresses as u8,
            },
            Field::Vaddr => vgpr(ctx, w1 & 0xff, addresses)?,
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

/// Reads the `extra` addresses after VADDR of an NSA instruction from its
/// `nsa_dwords` dwords after the first two (one byte each, the unused
/// bytes zero), as few dwords as the list needs.
fn read_nsa(
    ctx: &Ctx<'_>,
    mem: &mut MemModifiers,
    extra: usize,
    nsa_dwords: usize,
) -> Result<(), DecodeError> {
    if extra.div_ceil(4) != nsa_dwords {
        return Err(DecodeError::Invalid);
    }
    for i in 0..nsa_dwords {
        let w = ctx.word(2 + i)?;
        for b in 0..4 {
            let k = 4 * i + b;
            let r = (w >> (8 * b) & 0xff) as u8;
            if k < extra {
                mem.nsa[k] = r;
            } else if r != 0 {
                return Err(DecodeError::Invalid);
            }
        }
    }
    mem.flags.set(MemFlags::NSA, true);
    Ok(())
}

/// RDNA 2's `image_bvh*_intersect_ray`: DMASK 0xf, UNORM and R128 set,
/// no `dim` and no other modifier but `a16` (bit 30 of word 1, three
/// address registers fewer); the addresses may be an NSA list.
fn decode_bvh(ctx: &Ctx<'_>, instr: &mut Instruction, w0: u32, w1: u32) -> Result<(), DecodeError> {
    let row = instr.row;
    // Exactly LLVM's fixed bits: DMASK 0xf, UNORM, R128; nothing else of
    // word 0 but the NSA count and the opcode; word 1 without D16, the
    // sampler and the reserved bits.
    if w0 & 0x03ff_fff8 != (row.opcode(ctx.version).map_or(0, u32::from) & 0x7f) << 18 | 0x9f00
        || w1 & 0xbfe0_0000 != 0
    {
        return Err(DecodeError::Invalid);
    }
    let a16 = bit(w1, 30);
    let full = row.operand(Field::Vaddr).map_or(11, |s| s.registers());
    let addresses = if a16 { full - 3 } else { full };
    let nsa_dwords = (w0 >> 1 & 3) as usize;
    let mem = &mut instr.mods.mem;
    mem.dmask = 0xf;
    mem.flags.set(MemFlags::A16, a16);
    if nsa_dwords > 0 {
        let extra = usize::from(addresses) - 1;
        read_nsa(ctx, mem, extra, nsa_dwords)?;
        instr.len = 2 + nsa_dwords as u8;
    }
    let nsa = mem.flags.contains(MemFlags::NSA);
    for (i, spec) in operand_specs(row).iter().enumerate() {
        instr.operand_array[i] = match spec.field {
            Field::Vdata => vgpr(ctx, w1 >> 8 & 0xff, 4)?,
            Field::Vaddr if nsa => Operand::Reg {
                code: VGPR + (w1 & 0xff) as u16,
                count: addresses as u8,
            },
            Field::Vaddr => vgpr(ctx, w1 & 0xff, addresses)?,
            Field::Srsrc => sgprs(ctx, (w1 >> 16 & 0x1f) * 4, 4)?,
            _ => return Err(DecodeError::Invalid),
        };
    }
    Ok(())
}
