//! Scalar memory encodings: SMRD (GCN 1.0/1.1) and SMEM (GCN 1.2/1.4).

use std::fmt;

use super::operand::{count, no_operands, source, Accept, Align, LITERAL};
use super::{Ctx, DecodeError, Form, Instruction, MemFlags, Operand};
use crate::arch::GcnVersion;
use crate::isa::{flags, Encoding, Field};

use crate::isa::vocab::{M0, NULL};

/// Decodes an SMRD instruction (GCN 1.0/1.1).
pub(crate) fn decode_smrd(ctx: &Ctx<'_>) -> Result<Instruction, DecodeError> {
    let w = ctx.word(0)?;
    let op = w >> 22 & 0x1f;
    let sdata = (w >> 15 & 0x7f) as u16;
    let sbase = (w >> 9 & 0x3f) as u16 * 2;
    let imm = w >> 8 & 1 != 0;
    let offset = (w & 0xff) as u16;
    let row = ctx.row(Encoding::Smrd, op)?;
    let mut instr = Instruction::new(row, ctx.version, Form::Native);
    let mut used = [false; 3];
    let ops = if no_operands(row) {
        &[][..]
    } else {
        row.operands
    };
    for (i, spec) in ops.iter().enumerate() {
        instr.operand_array[i] = match spec.field {
            Field::Sdata | Field::Sdst => {
                used[0] = true;
                source(sdata, count(spec), Accept::Sdst, Align::Strict, ctx.version)?
            }
            Field::Sbase => {
                used[1] = true;
                source(sbase, count(spec), Accept::Sdst, Align::None, ctx.version)?
            }
            Field::Soffset => {
                used[2] = true;
                if imm {
                    Operand::Imm(u32::from(offset))
                } else if offset == LITERAL && ctx.version == GcnVersion::Gcn1_1 {
                    instr.len = 2;
                    Operand::Literal(ctx.word(1)?)
                } else {
                    source(offset, 1, Accept::Sdst, Align::None, ctx.version)?
                }
            }
            _ => return Err(DecodeError::Invalid),
        };
    }
    let fields = [sdata != 0, sbase != 0, offset != 0 || imm];
    if used.iter().zip(fields).any(|(u, nonzero)| !u && nonzero) {
        return Err(DecodeError::Invalid);
    }
    Ok(instr)
}

/// Decodes an SMEM instruction (GCN 1.2/1.4/1.5).
pub(crate) fn decode_smem(ctx: &Ctx<'_>) -> Result<Instruction, DecodeError> {
    if ctx.version.is_gcn15() {
        return decode_smem_gcn15(ctx);
    }
    let w = ctx.word(0)?;
    let gcn14 = ctx.version.is_gcn14();
    let op = w >> 18 & 0xff;
    let imm = w >> 17 & 1 != 0;
    let glc = w >> 16 & 1 != 0;
    let nv = w >> 15 & 1 != 0;
    let soe = w >> 14 & 1 != 0;
    let sdata = (w >> 6 & 0x7f) as u16;
    let sbase = (w & 0x3f) as u16 * 2;
    let row = ctx.row(Encoding::Smem, op)?;
    let w1 = ctx.word(1)?;
    // Bit 13 is unused; NV and SOE exist on GCN 1.4 only.
    if w >> 13 & 1 != 0 || (!gcn14 && (nv || soe)) || (soe && !imm) {
        return Err(DecodeError::Invalid);
    }
    let mut instr = Instruction::new(row, ctx.version, Form::Native);
    instr.len = 2;
    instr.mods.glc = glc;
    instr.mods.nv = nv;
    let offset_bits = if gcn14 { 21 } else { 20 };
    let offset_mask = (1u32 << offset_bits) - 1;
    let writes = row.has(flags::STORE) || row.has(flags::ATOMIC);
    let mut used = [false; 3];
    let ops = if no_operands(row) {
        &[][..]
    } else {
        row.operands
    };
    for (i, spec) in ops.iter().enumerate() {
        instr.operand_array[i] = match spec.field {
            Field::Sdata | Field::Sdst => {
                used[0] = true;
                source(sdata, count(spec), Accept::Sdst, Align::Strict, ctx.version)?
            }
            // s_atc_probe*: the probe mode sits in the SDATA field.
            Field::Imm16 | Field::Simm16 => {
                used[0] = true;
                Operand::Imm(u32::from(sdata))
            }
            Field::Sbase => {
                used[1] = true;
                source(sbase, count(spec), Accept::Sdst, Align::None, ctx.version)?
            }
            Field::Soffset => {
                used[2] = true;
                if !imm {
                    // An SGPR in the offset word; stores and atomics on
                    // GCN 1.2 take only M0.
                    let code = u16::try_from(w1).map_err(|_| DecodeError::Invalid)?;
                    if writes && !gcn14 && code != M0 {
                        return Err(DecodeError::Invalid);
                    }
                    source(code, 1, Accept::Sdst, Align::None, ctx.version)?
                } else if soe {
                    if w1 >> offset_bits & 0xf != 0 {
                        return Err(DecodeError::Invalid);
                    }
                    instr.mods.mem.offset = (w1 & offset_mask) as i32;
                    instr.mods.mem.flags.set(MemFlags::SMEM_OFFSET, true);
                    source((w1 >> 25) as u16, 1, Accept::Sdst, Align::None, ctx.version)?
                } else {
                    if w1 & !offset_mask != 0 {
                        return Err(DecodeError::Invalid);
                    }
                    Operand::Imm(w1 & offset_mask)
                }
            }
            _ => return Err(DecodeError::Invalid),
        };
    }
    let fields = [sdata != 0, sbase != 0, w1 != 0 || imm];
    if used.iter().zip(fields).any(|(u, nonzero)| !u && nonzero) {
        return Err(DecodeError::Invalid);
    }
    Ok(instr)
}

/// Decodes a GCN 1.5 SMEM instruction: SBASE, SDATA, DLC (bit 14), NV,
/// GLC, the opcode; the second word holds SOFFSET (bits 31:25, NULL 0x7d
/// for none) and the offset (bits 20:0). clrxdisasm prints the offset only
/// without an SGPR offset, and only its low 20 bits: words with other
/// offset bits set are not printed as instructions.
fn decode_smem_gcn15(ctx: &Ctx<'_>) -> Result<Instruction, DecodeError> {
    let w = ctx.word(0)?;
    let op = w >> 18 & 0xff;
    let row = ctx.row(Encoding::Smem, op)?;
    let w1 = ctx.word(1)?;
    // Bits 13 and 17 are not in the GCN 1.5 layout.
    if w >> 13 & 1 != 0 || w >> 17 & 1 != 0 {
        return Err(DecodeError::Invalid);
    }
    let sdata = (w >> 6 & 0x7f) as u16;
    let sbase = (w & 0x3f) as u16 * 2;
    let mut instr = Instruction::new(row, ctx.version, Form::Native);
    instr.len = 2;
    instr.mods.glc = w >> 16 & 1 != 0;
    instr.mods.nv = w >> 15 & 1 != 0;
    instr.mods.mem.flags.set(MemFlags::DLC, w >> 14 & 1 != 0);
    let soffset = (w1 >> 25) as u16;
    let mut used = [false; 3];
    let ops = if no_operands(row) {
        &[][..]
    } else {
        row.operands
    };
    for (i, spec) in ops.iter().enumerate() {
        instr.operand_array[i] = match spec.field {
            Field::Sdata | Field::Sdst => {
                used[0] = true;
                source(sdata, count(spec), Accept::Sdst, Align::Strict, ctx.version)?
            }
            // s_atc_probe*: the probe mode sits in the SDATA field.
            Field::Imm16 | Field::Simm16 => {
                used[0] = true;
                Operand::Imm(u32::from(sdata))
            }
            Field::Sbase => {
                used[1] = true;
                source(sbase, count(spec), Accept::Sdst, Align::None, ctx.version)?
            }
            Field::Soffset => {
                used[2] = true;
                if soffset == NULL {
                    if w1 >> 20 & 0x1f != 0 {
                        return Err(DecodeError::Invalid);
                    }
                    Operand::Imm(w1 & 0xf_ffff)
                } else {
                    if w1 & 0x1ff_ffff != 0 {
                        return Err(DecodeError::Invalid);
                    }
                    source(soffset, 1, Accept::Sdst, Align::None, ctx.version)?
                }
            }
            _ => return Err(DecodeError::Invalid),
        };
    }
    let fields = [sdata != 0, sbase != 0, w1 != 0];
    if used.iter().zip(fields).any(|(u, nonzero)| !u && nonzero) {
        return Err(DecodeError::Invalid);
    }
    Ok(instr)
}

/// Writes the SMEM modifiers.
pub(crate) fn write_modifiers(f: &mut fmt::Formatter<'_>, instr: &Instruction) -> fmt::Result {
    if instr.mods.mem.flags.contains(MemFlags::SMEM_OFFSET) {
        write!(f, " offset:{:#x}", instr.mods.mem.offset)?;
    }
    if instr.mods.glc {
        f.write_str(" glc")?;
    }
    if instr.mods.nv {
        f.write_str(" nv")?;
    }
    if instr.mods.mem.flags.contains(MemFlags::DLC) {
        f.write_str(" dlc")?;
    }
    Ok(())
}
