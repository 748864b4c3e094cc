//! FLAT, GLOBAL and SCRATCH words: the address forms (VADDR width from
//! SADDR), VDATA, VDST and the segment offsets.

use super::memory::{bit, operand_specs, sgprs, vgpr, zero};
use super::{Ctx, DecodeError, Instruction, MemFlags, Operand};
use crate::isa::{Encoding, Field};

/// SADDR value of GLOBAL/SCRATCH that means `off`.
pub(super) const SADDR_OFF: u16 = 0x7f;
/// SADDR value that means `off` on GCN 1.5 (NULL).
pub(super) const SADDR_OFF_GCN15: u16 = 0x7d;

/// Decodes the operands and modifiers of a FLAT, GLOBAL or SCRATCH instruction from its two
/// words into `instr` (whose row is known).
pub(super) fn decode(
    ctx: &Ctx<'_>,
    instr: &mut Instruction,
    w0: u32,
    w1: u32,
) -> Result<(), DecodeError> {
    let row = instr.row;
    let gcn14 = ctx.version.is_gcn14();
    let gcn15 = ctx.version.is_gcn15();
    let segment = row.encoding;
    zero(w0 >> 25 & 1)?;
    instr.mods.glc = bit(w0, 16);
    let mem = &mut instr.mods.mem;
    mem.flags.set(MemFlags::SLC, bit(w0, 17));
    let saddr = (w1 >> 16 & 0x7f) as u16;
    // SADDR `off` (GCN 1.5: NULL).
    let off_code = if gcn15 { SADDR_OFF_GCN15 } else { SADDR_OFF };
    if gcn15 {
        // FLAT: an 11-bit unsigned offset (as clrxdisasm reads it);
        // GLOBAL/SCRATCH: 12 bits signed, as the hardware and LLVM have
        // them (clrxdisasm reads 11 bits unsigned, the same for 0-2047).
        // DLC in bit 12; bit 13 (LDS of GCN 1.4) is not printed.
        zero(w0 >> 13 & 1)?;
        mem.offset = if segment == Encoding::Flat {
            zero(w0 >> 11 & 1)?;
            (w0 & 0x7ff) as i32
        } else {
            ((w0 & 0xfff) << 20) as i32 >> 20
        };
        mem.flags.set(MemFlags::DLC, bit(w0, 12));
        // NV: clrxdisasm prints `nv`, which the assemblers do not read on
        // GCN 1.5.
        zero(w1 >> 23 & 1)?;
        // FLAT has no scalar address: SADDR is NULL.
        if segment == Encoding::Flat && saddr != off_code {
            return Err(DecodeError::Invalid);
        }
    } else if gcn14 {
        // 12-bit unsigned offset (FLAT), 13-bit signed (GLOBAL/SCRATCH).
        mem.offset = if segment == Encoding::Flat {
            zero(w0 >> 12 & 1)?;
            (w0 & 0xfff) as i32
        } else {
            ((w0 & 0x1fff) << 19) as i32 >> 19
        };
        mem.flags.set(MemFlags::LDS, bit(w0, 13));
        instr.mods.nv = bit(w1, 23);
        // FLAT has no scalar address: the encoder leaves SADDR zero.
        if segment == Encoding::Flat {
            zero(u32::from(saddr))?;
        }
    } else {
        zero(w0 & 0xffff)?;
        zero(u32::from(saddr))?;
        mem.flags.set(MemFlags::TFE, bit(w1, 23));
    }
    let tfe = mem.flags.contains(MemFlags::TFE);
    let vaddr_field = w1 & 0xff;
    let vdata_field = w1 >> 8 & 0xff;
    let vdst_field = w1 >> 24;
    let saddr_off = saddr == off_code;
    let mut used = [false; 2]; // vdata, vdst
    for (i, spec) in operand_specs(row).iter().enumerate() {
        instr.operand_array[i] = match spec.field {
            // An atomic returns the old value only with `glc`, but
            // clrxdisasm prints the VDST field always
            // (`flat_atomic_add v0, v[2:3], v4`), and clrxasm reads it back.
            Field::Vdst => {
                used[1] = true;
                vgpr(ctx, vdst_field, spec.registers() + u16::from(tfe))?
            }
            Field::Vdata => {
                used[0] = true;
                vgpr(ctx, vdata_field, spec.registers())?
            }
            Field::Vaddr => match segment {
                // A SCRATCH address is a VGPR or an SGPR, not both (the
                // assembler, clrxasm and llvm-mc refuse both): a VADDR
                // beside an SGPR address must be 0 and is `off`.
                Encoding::Scratch if !saddr_off => {
                    zero(vaddr_field)?;
                    Operand::Off
                }
                Encoding::Scratch => vgpr(ctx, vaddr_field, 1)?,
                Encoding::Global if !saddr_off => vgpr(ctx, vaddr_field, 1)?,
                _ => vgpr(ctx, vaddr_field, 2)?,
            },
            Field::Saddr if saddr_off => Operand::Off,
            Field::Saddr => sgprs(
                ctx,
                u32::from(saddr),
                if segment == Encoding::Scratch { 1 } else { 2 },
            )?,
            _ => return Err(DecodeError::Invalid),
        };
    }
    if !used[0] {
        zero(vdata_field)?;
    }
    if !used[1] {
        zero(vdst_field)?;
    }
    Ok(())
}
