//! Memory encodings: DS, MUBUF, MTBUF, MIMG, EXP and FLAT (with the
//! GLOBAL and SCRATCH segments of GCN 1.4). This module holds what they
//! share (the opcode fields, the dispatch, register operands, the text
//! writer); each family's fields are decoded in its own module, named as in
//! `crate::encode` and `gcn_runtime::exec`: `ds`, `buffer` (MUBUF/MTBUF),
//! `mimg`, `exp`, `flat` (FLAT/GLOBAL/SCRATCH).
//!
//! Each decoder reads the fields its encoder (`crate::encode::{ds, buffer,
//! mimg, exp, flat}`) writes and accepts the words only when the printed
//! text assembles back to them: reserved bits must be clear, fields the
//! row does not use must hold what the encoder leaves there (zero, or
//! `off`), register counts follow the same rules as the encoder (TFE, D16
//! packing, DMASK, OFFEN/IDXEN/ADDR64, SADDR), and combinations the
//! encoder refuses (ADDR64 with OFFEN, LDS with TFE, a typed store with a
//! read-only number format, an empty DMASK …) are not instructions.
//!
//! What the words do not say is printed in the form that assembles back to
//! them: an MIMG address gets the row's minimum register count (the
//! hardware reads as many as the resource's dimensions need), the second
//! and fourth sources of a compressed export repeat the register before
//! them, a FLAT atomic without `glc` and with a zero VDST omits VDST.

use std::fmt;

use super::operand::{source, write_const, write_reg, Accept, Align, VGPR};
use super::{Ctx, DecodeError, Form, Instruction, MemFlags, Operand};
use crate::isa::{flags, Encoding, Field, FloatKind, InstrRow};

/// The opcode field of a memory family's first word, and the opcode space
/// to look it up in (FLAT words on GCN 1.4 select GLOBAL/SCRATCH by their
/// SEG field; SEG 3 is reserved). Field positions from the CLRX
/// documentation (`GcnInstrs*.md`).
pub fn opcode(word: u32, family: Encoding, version: crate::GcnVersion) -> Option<(Encoding, u32)> {
    let gcn12 = version.is_gcn12_or_later();
    let gcn15 = version.is_gcn15();
    Some(match family {
        // GCN 1.5 has the GCN 1.0 DS layout.
        Encoding::Ds if gcn12 && !gcn15 => (family, word >> 17 & 0xff),
        Encoding::Ds => (family, word >> 18 & 0xff),
        Encoding::Mubuf => (family, word >> 18 & 0x7f),
        // GCN 1.5: bits 18:16 here, bit 3 in bit 21 of the second word
        // (see `decode`).
        Encoding::Mtbuf if gcn15 => (family, word >> 16 & 7),
        Encoding::Mtbuf if gcn12 => (family, word >> 15 & 0xf),
        Encoding::Mtbuf => (family, word >> 16 & 7),
        // GCN 1.5+: opcode bit 7 is bit 0 (RDNA 2's image_msaa_load).
        Encoding::Mimg if gcn15 => (family, (word >> 18 & 0x7f) | (word & 1) << 7),
        Encoding::Mimg => (family, word >> 18 & 0x7f),
        Encoding::Exp => (family, 0),
        Encoding::Flat if version.is_gcn14_or_later() => {
            let seg = match word >> 14 & 3 {
                0 => Encoding::Flat,
                1 => Encoding::Scratch,
                2 => Encoding::Global,
                _ => return None,
            };
            (seg, word >> 18 & 0x7f)
        }
        _ => (family, word >> 18 & 0x7f),
    })
}

/// Decodes a memory instruction.
pub(crate) fn decode(ctx: &Ctx<'_>, family: Encoding) -> Result<Instruction, DecodeError> {
    let w0 = ctx.word(0)?;
    let (space, mut op) = opcode(w0, family, ctx.version).ok_or(DecodeError::Invalid)?;
    if family == Encoding::Mtbuf && ctx.version.is_gcn15() {
        op |= (ctx.word(1)? >> 21 & 1) << 3;
    }
    let row = ctx.row(space, op)?;
    // Every memory instruction has two words (GCN 1.5 MIMG: more).
    let w1 = ctx.word(1)?;
    let mut instr = Instruction::new(row, ctx.version, Form::Native);
    instr.len = 2;
    match family {
        Encoding::Ds => super::ds::decode(ctx, &mut instr, w0, w1)?,
        Encoding::Mubuf | Encoding::Mtbuf => super::buffer::decode(ctx, &mut instr, w0, w1)?,
        Encoding::Mimg => super::mimg::decode(ctx, &mut instr, w0, w1)?,
        Encoding::Exp => super::exp::decode(ctx, &mut instr, w0, w1)?,
        _ => super::flat::decode(ctx, &mut instr, w0, w1)?,
    }
    Ok(instr)
}

/// `count` VGPRs from register number `n`, if they exist.
pub(super) fn vgpr(ctx: &Ctx<'_>, n: u32, count: u16) -> Result<Operand, DecodeError> {
    source(
        VGPR + n as u16,
        count,
        Accept::Vgpr,
        Align::None,
        ctx.version,
    )
}

/// `count` SGPRs (or TTMPs, VCC …) from operand code `code`, aligned as
/// the encoder requires.
pub(super) fn sgprs(ctx: &Ctx<'_>, code: u32, count: u16) -> Result<Operand, DecodeError> {
    source(code as u16, count, Accept::Sdst, Align::Strict, ctx.version)
}

/// The row's operands, none for rows that take none.
pub(super) fn operand_specs(row: &InstrRow) -> &'static [crate::isa::OperandSpec] {
    if row.has(flags::NO_OPERANDS) {
        &[]
    } else {
        row.operands
    }
}

/// Fails unless `bits` is zero (a reserved field, or one the row does not
/// use and the encoder leaves clear).
pub(super) fn zero(bits: u32) -> Result<(), DecodeError> {
    if bits == 0 {
        Ok(())
    } else {
        Err(DecodeError::Invalid)
    }
}

pub(super) fn bit(word: u32, n: u32) -> bool {
    word >> n & 1 != 0
}

/// Writes a memory instruction: operands, then modifiers.
pub(crate) fn write(f: &mut fmt::Formatter<'_>, instr: &Instruction) -> fmt::Result {
    f.write_str(instr.row.mnemonic)?;
    let mut first = true;
    // The VADDR of a buffer row that does not list it (see
    // `decode_buffer`).
    if matches!(instr.row.encoding, Encoding::Mubuf | Encoding::Mtbuf)
        && instr.row.operand(Field::Vaddr).is_none()
    {
        let n = operand_specs(instr.row).len();
        if let Some(&Operand::Reg { code, count }) = instr.operand_array.get(n) {
            f.write_str(" ")?;
            write_reg(f, code, count, instr.version)?;
            first = false;
        }
    }
    let m = &instr.mods.mem;
    for (op, spec) in instr.operands().iter().zip(instr.row.operands) {
        if *op == Operand::None {
            continue;
        }
        f.write_str(if first { " " } else { ", " })?;
        first = false;
        match *op {
            // A GCN 1.5 NSA address: the list of VGPRs.
            Operand::Reg { code, count }
                if spec.field == Field::Vaddr && m.flags.contains(MemFlags::NSA) =>
            {
                write!(f, "[v{}", code - VGPR)?;
                for &r in &m.nsa[..usize::from(count.max(1) - 1).min(12)] {
                    write!(f, ",v{r}")?;
                }
                f.write_str("]")?;
            }
            Operand::Reg { code, count } => write_reg(f, code, count, instr.version)?,
            Operand::Const(code) => write_const(f, code, FloatKind::Single)?,
            Operand::Imm(target) if spec.field == Field::Target => {
                match super::exp::export_target(target) {
                    Some((name, u32::MAX)) => f.write_str(name)?,
                    Some((name, n)) => write!(f, "{name}{n}")?,
                    None => write!(f, "@{target}")?,
                }
            }
            _ => super::operand::write_plain(f, op, spec, instr.version)?,
        }
    }
    if instr.version.is_gcn15() {
        return write_gcn15_modifiers(f, instr);
    }
    // The single-bit modifiers set in the words, in the order they print.
    let flags = |f: &mut fmt::Formatter<'_>, list: &[(MemFlags, &str)]| -> fmt::Result {
        for &(flag, name) in list {
            if m.flags.contains(flag) {
                write!(f, " {name}")?;
            }
        }
        Ok(())
    };
    let glc = |f: &mut fmt::Formatter<'_>| {
        if instr.mods.glc {
            f.write_str(" glc")
        } else {
            Ok(())
        }
    };
    let offset = |f: &mut fmt::Formatter<'_>| {
        if m.offset != 0 {
            write!(f, " offset:{}", m.offset)
        } else {
            Ok(())
        }
    };
    match instr.row.encoding {
        Encoding::Ds => {
            if instr.row.has(flags::OFFSET2) {
                if m.offset != 0 {
                    write!(f, " offset0:{}", m.offset)?;
                }
                if m.offset1 != 0 {
                    write!(f, " offset1:{}", m.offset1)?;
                }
            } else {
                offset(f)?;
            }
            flags(f, &[(MemFlags::GDS, "gds")])
        }
        Encoding::Mubuf | Encoding::Mtbuf => {
            flags(
                f,
                &[
                    (MemFlags::OFFEN, "offen"),
                    (MemFlags::IDXEN, "idxen"),
                    (MemFlags::ADDR64, "addr64"),
                ],
            )?;
            offset(f)?;
            glc(f)?;
            flags(
                f,
                &[
                    (MemFlags::SLC, "slc"),
                    (MemFlags::LDS, "lds"),
                    (MemFlags::TFE, "tfe"),
                ],
            )?;
            if instr.row.encoding == Encoding::Mtbuf {
                super::buffer::write_format(f, m.dfmt, m.nfmt)?;
            }
            Ok(())
        }
        Encoding::Mimg => {
            write!(f, " dmask:{:#x}", m.dmask)?;
            flags(f, &[(MemFlags::UNORM, "unorm")])?;
            glc(f)?;
            flags(
                f,
                &[
                    (MemFlags::SLC, "slc"),
                    (MemFlags::R128, "r128"),
                    (MemFlags::TFE, "tfe"),
                    (MemFlags::LWE, "lwe"),
                    (MemFlags::DA, "da"),
                    (MemFlags::D16, "d16"),
                    (MemFlags::A16, "a16"),
                ],
            )
        }
        Encoding::Exp => flags(
            f,
            &[
                (MemFlags::DONE, "done"),
                (MemFlags::COMPR, "compr"),
                (MemFlags::VM, "vm"),
            ],
        ),
        _ => {
            offset(f)?;
            glc(f)?;
            flags(f, &[(MemFlags::SLC, "slc"), (MemFlags::TFE, "tfe")])?;
            if instr.mods.nv {
                f.write_str(" nv")?;
            }
            flags(f, &[(MemFlags::LDS, "lds")])
        }
    }
}

/// clrxdisasm's names of the GCN 1.5 image dimensions, by `dim` code.
pub(super) const DIM_NAMES: [&str; 8] = [
    "1d",
    "2d",
    "3d",
    "cube",
    "1d_array",
    "2d_array",
    "2d_msaa",
    "2d_msaa_array",
];

/// Writes the modifiers of a GCN 1.5 memory instruction in clrxdisasm's
/// order and spelling: MUBUF/MTBUF `offen idxen offset:N glc slc dlc lds
/// tfe format:N`, MIMG `dmask:N dim:NAME unorm dlc glc slc r128 tfe lwe
/// d16`, FLAT/GLOBAL/SCRATCH `inst_offset:N dlc glc slc nv`; DS and EXP as
/// on the older versions.
fn write_gcn15_modifiers(f: &mut fmt::Formatter<'_>, instr: &Instruction) -> fmt::Result {
    let m = &instr.mods.mem;
    let flags = |f: &mut fmt::Formatter<'_>, list: &[(MemFlags, &str)]| -> fmt::Result {
        for &(flag, name) in list {
            if m.flags.contains(flag) {
                write!(f, " {name}")?;
            }
        }
        Ok(())
    };
    let glc = |f: &mut fmt::Formatter<'_>| {
        if instr.mods.glc {
            f.write_str(" glc")
        } else {
            Ok(())
        }
    };
    match instr.row.encoding {
        Encoding::Ds => {
            if instr.row.has(flags::OFFSET2) {
                if m.offset != 0 {
                    write!(f, " offset0:{}", m.offset)?;
                }
                if m.offset1 != 0 {
                    write!(f, " offset1:{}", m.offset1)?;
                }
            } else if m.offset != 0 {
                write!(f, " offset:{}", m.offset)?;
            }
            flags(f, &[(MemFlags::GDS, "gds")])
        }
        Encoding::Mubuf | Encoding::Mtbuf => {
            flags(f, &[(MemFlags::OFFEN, "offen"), (MemFlags::IDXEN, "idxen")])?;
            if m.offset != 0 {
                write!(f, " offset:{}", m.offset)?;
            }
            glc(f)?;
            flags(
                f,
                &[
                    (MemFlags::SLC, "slc"),
                    (MemFlags::DLC, "dlc"),
                    (MemFlags::LDS, "lds"),
                    (MemFlags::TFE, "tfe"),
                ],
            )?;
            if instr.row.encoding == Encoding::Mtbuf && m.dfmt != 0 {
                write!(f, " format:{}", m.dfmt)?;
            }
            Ok(())
        }
        Encoding::Mimg if instr.row.has(crate::isa::flags::BVH) => {
            flags(f, &[(MemFlags::A16, "a16")])
        }
        Encoding::Mimg => {
            if m.dmask != 1 {
                write!(f, " dmask:{}", m.dmask)?;
            }
            write!(f, " dim:{}", DIM_NAMES[usize::from(m.dim & 7)])?;
            flags(f, &[(MemFlags::UNORM, "unorm"), (MemFlags::DLC, "dlc")])?;
            glc(f)?;
            flags(
                f,
                &[
                    (MemFlags::SLC, "slc"),
                    (MemFlags::R128, "r128"),
                    (MemFlags::TFE, "tfe"),
                    (MemFlags::LWE, "lwe"),
                    (MemFlags::D16, "d16"),
                ],
            )
        }
        Encoding::Exp => flags(
            f,
            &[
                (MemFlags::DONE, "done"),
                (MemFlags::COMPR, "compr"),
                (MemFlags::VM, "vm"),
            ],
        ),
        _ => {
            if m.offset != 0 {
                write!(f, " inst_offset:{}", m.offset)?;
            }
            flags(f, &[(MemFlags::DLC, "dlc")])?;
            glc(f)?;
            flags(f, &[(MemFlags::SLC, "slc")])?;
            if instr.mods.nv {
                f.write_str(" nv")?;
            }
            Ok(())
        }
    }
}
