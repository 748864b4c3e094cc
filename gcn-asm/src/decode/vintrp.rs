//! Interpolation: the VINTRP encoding and the VOP3-encoded interpolation
//! instructions (`v_interp_p1ll_f16` …, and VINTRP rows with VOP3
//! modifiers on GCN 1.2+).

use std::fmt;

use super::operand::{
    count, source, trailing_mods, vector_align, write_bits, write_operands, Accept, Align, VGPR,
};
use super::vector::op_sel_mask;
use super::{source_slots, Ctx, DecodeError, Form, Instruction, Operand};
use crate::isa::{Encoding, Field, InstrRow};

use crate::isa::vocab::LDS_DIRECT;

/// Decodes a VINTRP word.
pub(crate) fn decode(ctx: &Ctx<'_>) -> Result<Instruction, DecodeError> {
    let w = ctx.word(0)?;
    let row = ctx.row(Encoding::Vintrp, w >> 16 & 3)?;
    let mut instr = Instruction::new(row, ctx.version, Form::Native);
    let vdst = (w >> 18 & 0xff) as u16;
    let vsrc = (w & 0xff) as u16;
    for (i, spec) in row.operands.iter().enumerate() {
        instr.operand_array[i] = match spec.field {
            Field::Vdst => source(
                VGPR + vdst,
                count(spec),
                Accept::Vgpr,
                Align::None,
                ctx.version,
            )?,
            Field::Attr => Operand::Attr {
                index: (w >> 10 & 63) as u8,
                chan: (w >> 8 & 3) as u8,
            },
            Field::InterpParam if vsrc <= 2 => Operand::InterpParam(vsrc as u8),
            Field::InterpParam => return Err(DecodeError::Invalid),
            _ => source(
                VGPR + vsrc,
                count(spec),
                Accept::Vgpr,
                Align::None,
                ctx.version,
            )?,
        };
    }
    Ok(instr)
}

/// Decodes the VOP3 form of an interpolation row (GCN 1.2+): the attribute
/// in SRC0 (`attr | chan << 6 | high << 8`), the VGPR or parameter in
/// SRC1, an optional source in SRC2.
pub(crate) fn decode_vop3(
    ctx: &Ctx<'_>,
    row: &'static InstrRow,
    w0: u32,
    w1: u32,
) -> Result<Instruction, DecodeError> {
    let form = if row.encoding == Encoding::Vintrp {
        Form::Vop3
    } else {
        Form::Native
    };
    let mut instr = Instruction::new(row, ctx.version, form);
    instr.len = 2;
    let m = &mut instr.mods;
    m.abs = (w0 >> 8 & 7) as u8;
    m.op_sel = (w0 >> 11 & 15) as u8;
    m.clamp = w0 >> 15 & 1 != 0;
    m.high = w1 >> 8 & 1 != 0;
    m.omod = (w1 >> 27 & 3) as u8;
    m.neg = (w1 >> 29) as u8;
    if !ctx.version.is_gcn14_or_later() && m.op_sel != 0 {
        return Err(DecodeError::Invalid);
    }
    let src1 = (w1 >> 9 & 0x1ff) as u16;
    let src2 = (w1 >> 18 & 0x1ff) as u16;
    let slots = source_slots(row);
    let mut has_src2 = false;
    for (i, spec) in row.operands.iter().enumerate() {
        let n = count(spec);
        instr.operand_array[i] = match (spec.field, slots[i]) {
            (Field::Vdst, _) => source(
                VGPR + (w0 & 0xff) as u16,
                n,
                Accept::Vgpr,
                Align::None,
                ctx.version,
            )?,
            (Field::Attr, _) => Operand::Attr {
                index: (w1 & 63) as u8,
                chan: (w1 >> 6 & 3) as u8,
            },
            (Field::InterpParam, _) if src1 <= 2 => Operand::InterpParam(src1 as u8),
            (Field::InterpParam, _) => return Err(DecodeError::Invalid),
            (_, 1) => source(src1, n, Accept::Vgpr, Align::None, ctx.version)?,
            (_, 2) => {
                has_src2 = true;
                if src2 == LDS_DIRECT {
                    return Err(DecodeError::Invalid);
                }
                source(src2, n, Accept::Src, vector_align(ctx.version), ctx.version)?
            }
            _ => return Err(DecodeError::Invalid),
        };
    }
    // SRC0 (the attribute) takes no modifiers; an absent SRC2 is zero.
    let mods = instr.mods.abs | instr.mods.neg;
    if mods & 1 != 0 || (!has_src2 && (src2 != 0 || mods & 4 != 0)) {
        return Err(DecodeError::Invalid);
    }
    if ctx.version.is_gcn15() {
        super::vector::check_gcn15_mods(&instr)?;
    }
    let nsrcs = if has_src2 { 3 } else { 2 };
    if ctx.version.is_gcn15() {
        // clrxdisasm prints OP_SEL bits of the sources and the destination,
        // and the source modifiers in place.
        let field = if has_src2 { 0b1111 } else { 0b1011 };
        if instr.mods.op_sel & !field != 0 {
            return Err(DecodeError::Invalid);
        }
    } else if instr.mods.op_sel != 0 && op_sel_mask(instr.mods.op_sel, nsrcs).is_none() {
        return Err(DecodeError::Invalid);
    }
    Ok(instr)
}

/// Writes an interpolation instruction.
pub(crate) fn write(f: &mut fmt::Formatter<'_>, instr: &Instruction) -> fmt::Result {
    write_operands(f, instr)?;
    if instr.form == Form::Native && instr.row.encoding == Encoding::Vintrp {
        return Ok(());
    }
    let m = &instr.mods;
    if instr.version.is_gcn15() {
        // clrxdisasm's order: `high`, `op_sel` (one element per source and
        // the destination), `mul`/`div`, `clamp`.
        if m.high {
            f.write_str(" high")?;
        }
        if m.op_sel != 0 {
            let n: u8 = if instr.row.operands.len() > 3 { 3 } else { 2 };
            let mask = (m.op_sel & ((1 << n) - 1)) | (m.op_sel >> 3 & 1) << n;
            write_bits(f, "op_sel", mask, n + 1)?;
        }
        match m.omod {
            1 => f.write_str(" mul:2")?,
            2 => f.write_str(" mul:4")?,
            3 => f.write_str(" div:2")?,
            _ => {}
        }
        if m.clamp {
            f.write_str(" clamp")?;
        }
        return Ok(());
    }
    let nsrcs = if instr.row.operands.len() > 3 { 3 } else { 2 };
    if m.op_sel != 0 {
        if let Some((mask, len)) = op_sel_mask(m.op_sel, nsrcs) {
            write_bits(f, "op_sel", mask, len)?;
        }
    }
    let (neg, abs, _) = trailing_mods(instr);
    if neg != 0 {
        write_bits(f, "neg", neg, 8 - neg.leading_zeros() as u8)?;
    }
    if abs != 0 {
        write_bits(f, "abs", abs, 8 - abs.leading_zeros() as u8)?;
    }
    if m.high {
        f.write_str(" high")?;
    }
    if m.clamp {
        f.write_str(" clamp")?;
    }
    match m.omod {
        1 => f.write_str(" mul:2")?,
        2 => f.write_str(" mul:4")?,
        3 => f.write_str(" div:2")?,
        _ => {}
    }
    let plain = !m.clamp && m.omod == 0 && m.op_sel == 0 && !m.high && m.abs == 0 && m.neg == 0;
    if instr.row.encoding == Encoding::Vintrp && plain {
        f.write_str(" vop3")?;
    }
    Ok(())
}
