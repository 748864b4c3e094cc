//! Memory encodings: DS, MUBUF, MTBUF, MIMG, EXP and FLAT (with the
//! GLOBAL and SCRATCH segments of GCN 1.4).
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

use super::operand::{is_inline, source, write_const, write_reg, Accept, Align, VGPR};
use super::{Ctx, DecodeError, Form, Instruction, MemFlags, Operand};
use crate::isa::vocab::{DATA_FORMATS, NUMBER_FORMATS};
use crate::isa::{flags, Encoding, Field, FloatKind, InstrRow};

/// The opcode field of a memory family's first word, and the opcode space
/// to look it up in (FLAT words on GCN 1.4 select GLOBAL/SCRATCH by their
/// SEG field; SEG 3 is reserved). Field positions from the CLRX
/// documentation (`GcnInstrs*.md`).
pub fn opcode(word: u32, family: Encoding, version: crate::GcnVersion) -> Option<(Encoding, u32)> {
    let gcn12 = version.is_gcn12_or_later();
    Some(match family {
        Encoding::Ds if gcn12 => (family, word >> 17 & 0xff),
        Encoding::Ds => (family, word >> 18 & 0xff),
        Encoding::Mubuf => (family, word >> 18 & 0x7f),
        Encoding::Mtbuf if gcn12 => (family, word >> 15 & 0xf),
        Encoding::Mtbuf => (family, word >> 16 & 7),
        Encoding::Mimg => (family, word >> 18 & 0x7f),
        Encoding::Exp => (family, 0),
        Encoding::Flat if version.is_gcn14() => {
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

/// SADDR value of GLOBAL/SCRATCH that means `off`.
const SADDR_OFF: u16 = 0x7f;

/// Decodes a memory instruction.
pub(crate) fn decode(ctx: &Ctx<'_>, family: Encoding) -> Result<Instruction, DecodeError> {
    let w0 = ctx.word(0)?;
    let (space, op) = opcode(w0, family, ctx.version).ok_or(DecodeError::Invalid)?;
    let row = ctx.row(space, op)?;
    // Every memory instruction has two words.
    let w1 = ctx.word(1)?;
    let mut instr = Instruction::new(row, ctx.version, Form::Native);
    instr.len = 2;
    match family {
        Encoding::Ds => decode_ds(ctx, &mut instr, w0, w1)?,
        Encoding::Mubuf | Encoding::Mtbuf => decode_buffer(ctx, &mut instr, w0, w1)?,
        Encoding::Mimg => decode_mimg(ctx, &mut instr, w0, w1)?,
        Encoding::Exp => decode_exp(ctx, &mut instr, w0, w1)?,
        _ => decode_flat(ctx, &mut instr, w0, w1)?,
    }
    Ok(instr)
}

/// `count` VGPRs from register number `n`, if they exist.
fn vgpr(ctx: &Ctx<'_>, n: u32, count: u16) -> Result<Operand, DecodeError> {
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
fn sgprs(ctx: &Ctx<'_>, code: u32, count: u16) -> Result<Operand, DecodeError> {
    source(code as u16, count, Accept::Sdst, Align::Strict, ctx.version)
}

/// The row's operands, none for rows that take none.
fn operand_specs(row: &InstrRow) -> &'static [crate::isa::OperandSpec] {
    if row.has(flags::NO_OPERANDS) {
        &[]
    } else {
        row.operands
    }
}

/// Fails unless `bits` is zero (a reserved field, or one the row does not
/// use and the encoder leaves clear).
fn zero(bits: u32) -> Result<(), DecodeError> {
    if bits == 0 {
        Ok(())
    } else {
        Err(DecodeError::Invalid)
    }
}

fn bit(word: u32, n: u32) -> bool {
    word >> n & 1 != 0
}

fn decode_ds(ctx: &Ctx<'_>, instr: &mut Instruction, w0: u32, w1: u32) -> Result<(), DecodeError> {
    let row = instr.row;
    // GCN 1.0/1.1: bit 16 unused, GDS bit 17; GCN 1.2+: GDS bit 16,
    // bit 25 unused.
    let (gds, reserved) = if ctx.version.is_gcn12_or_later() {
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

fn decode_buffer(
    ctx: &Ctx<'_>,
    instr: &mut Instruction,
    w0: u32,
    w1: u32,
) -> Result<(), DecodeError> {
    let row = instr.row;
    let version = ctx.version;
    let gcn12 = version.is_gcn12_or_later();
    let typed = row.encoding == Encoding::Mtbuf;
    let mem = &mut instr.mods.mem;
    mem.offset = (w0 & 0xfff) as i32;
    mem.flags.set(MemFlags::OFFEN, bit(w0, 12));
    mem.flags.set(MemFlags::IDXEN, bit(w0, 13));
    instr.mods.glc = bit(w0, 14);
    if gcn12 {
        // MUBUF: bit 15 unused, SLC in bit 17, bit 25 unused, word 1 bit
        // 22 unused. MTBUF: bit 15 is an opcode bit.
        if typed {
            mem.flags.set(MemFlags::SLC, bit(w1, 22));
        } else {
            zero(w0 >> 15 & 1)?;
            zero(w0 >> 25 & 1)?;
            zero(w1 >> 22 & 1)?;
            mem.flags.set(MemFlags::SLC, bit(w0, 17));
            mem.flags.set(MemFlags::LDS, bit(w0, 16));
        }
    } else {
        mem.flags.set(MemFlags::ADDR64, bit(w0, 15));
        mem.flags.set(MemFlags::SLC, bit(w1, 22));
        if !typed {
            // Bits 17 and 25 unused.
            zero(w0 >> 17 & 1)?;
            zero(w0 >> 25 & 1)?;
            mem.flags.set(MemFlags::LDS, bit(w0, 16));
        }
    }
    zero(w1 >> 21 & 1)?;
    mem.flags.set(MemFlags::TFE, bit(w1, 23));
    if typed {
        mem.dfmt = (w0 >> 19 & 0xf) as u8;
        mem.nfmt = (w0 >> 23 & 7) as u8;
        // Every pair assembles (clrxasm, llvm-mc), so every pair prints.
    }
    // The encoder's rules.
    if (mem.flags.contains(MemFlags::TFE) && mem.flags.contains(MemFlags::LDS))
        || (mem.flags.contains(MemFlags::ADDR64)
            && (mem.flags.contains(MemFlags::OFFEN) || mem.flags.contains(MemFlags::IDXEN)))
    {
        return Err(DecodeError::Invalid);
    }
    let mem = *mem;
    let vaddr_field = w1 & 0xff;
    let vdata_field = w1 >> 8 & 0xff;
    let srsrc_field = w1 >> 16 & 0x1f;
    let soffset_field = w1 >> 24;
    let specs = operand_specs(row);
    if specs.is_empty() {
        // No operands: the encoder writes none of the fields.
        return zero(vaddr_field | vdata_field | srsrc_field | soffset_field);
    }
    let vaddr_count = if mem.flags.contains(MemFlags::ADDR64)
        || (mem.flags.contains(MemFlags::OFFEN) && mem.flags.contains(MemFlags::IDXEN))
    {
        2
    } else {
        1
    };
    let vaddr_given = mem.flags.contains(MemFlags::OFFEN)
        || mem.flags.contains(MemFlags::IDXEN)
        || mem.flags.contains(MemFlags::ADDR64)
        || vaddr_field != 0;
    let mut has_data = false;
    for (i, spec) in specs.iter().enumerate() {
        instr.operand_array[i] = match spec.field {
            Field::Vdata => {
                has_data = true;
                let mut count = spec.registers();
                if row.has(flags::D16) && version.is_gcn14() {
                    count = count.div_ceil(2);
                }
                vgpr(
                    ctx,
                    vdata_field,
                    count + u16::from(mem.flags.contains(MemFlags::TFE)),
                )?
            }
            // VADDR is optional in the syntax, but clrxdisasm always
            // prints the field (`buffer_atomic_add v2, v0, s[8:11], 0`).
            Field::Vaddr => vgpr(ctx, vaddr_field, vaddr_count)?,
            Field::Srsrc => sgprs(ctx, srsrc_field * 4, spec.registers())?,
            Field::Soffset => {
                let code = soffset_field as u16;
                // An SGPR, M0 or an inline constant; no literal, no
                // special source.
                if code >= 128 && !is_inline(code, version) {
                    return Err(DecodeError::Invalid);
                }
                source(code, 1, Accept::Ssrc, Align::None, version)?
            }
            _ => return Err(DecodeError::Invalid),
        };
    }
    if !has_data {
        zero(vdata_field)?;
    }
    // A row without VADDR in its list (buffer_store_lds_dword) still takes
    // an optional VADDR before the resource: it goes in the slot after the
    // row's operands, where `write` looks for it.
    if vaddr_given && !specs.iter().any(|s| s.field == Field::Vaddr) {
        let slot = instr
            .operand_array
            .get_mut(specs.len())
            .ok_or(DecodeError::Invalid)?;
        *slot = vgpr(ctx, vaddr_field, vaddr_count)?;
    }
    Ok(())
}

fn decode_mimg(
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

/// The export target name of a target code, if it has one.
fn export_target(target: u32) -> Option<(&'static str, u32)> {
    Some(match target {
        0..=7 => ("mrt", target),
        8 => ("mrtz", u32::MAX),
        9 => ("null", u32::MAX),
        12..=15 => ("pos", target - 12),
        32..=63 => ("param", target - 32),
        _ => return None,
    })
}

fn decode_exp(ctx: &Ctx<'_>, instr: &mut Instruction, w0: u32, w1: u32) -> Result<(), DecodeError> {
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

fn decode_flat(
    ctx: &Ctx<'_>,
    instr: &mut Instruction,
    w0: u32,
    w1: u32,
) -> Result<(), DecodeError> {
    let row = instr.row;
    let gcn14 = ctx.version.is_gcn14();
    let segment = row.encoding;
    zero(w0 >> 25 & 1)?;
    instr.mods.glc = bit(w0, 16);
    let mem = &mut instr.mods.mem;
    mem.flags.set(MemFlags::SLC, bit(w0, 17));
    let saddr = (w1 >> 16 & 0x7f) as u16;
    if gcn14 {
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
    let saddr_off = saddr == SADDR_OFF;
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
                Encoding::Scratch if vaddr_field == 0 && !saddr_off => Operand::Off,
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

/// Writes a memory instruction: operands, then modifiers.
pub(crate) fn write(f: &mut fmt::Formatter<'_>, instr: &Instruction) -> fmt::Result {
    f.write_str(instr.row.mnemonic)?;
    let mut first = true;
    // The VADDR of a buffer row that does not list it (see
    // `decode_buffer`).
    if matches!(instr.row.encoding, Encoding::Mubuf | Encoding::Mtbuf)
        && !instr.row.operands.iter().any(|s| s.field == Field::Vaddr)
    {
        let n = operand_specs(instr.row).len();
        if let Some(&Operand::Reg { code, count }) = instr.operand_array.get(n) {
            f.write_str(" ")?;
            write_reg(f, code, count, instr.version)?;
            first = false;
        }
    }
    for (op, spec) in instr.operands().iter().zip(instr.row.operands) {
        if *op == Operand::None {
            continue;
        }
        f.write_str(if first { " " } else { ", " })?;
        first = false;
        match *op {
            Operand::Reg { code, count } => write_reg(f, code, count, instr.version)?,
            Operand::Const(code) => write_const(f, code, FloatKind::Single)?,
            Operand::Imm(target) if spec.field == Field::Target => match export_target(target) {
                Some((name, u32::MAX)) => f.write_str(name)?,
                Some((name, n)) => write!(f, "{name}{n}")?,
                None => write!(f, "@{target}")?,
            },
            _ => super::operand::write_plain(f, op, spec, instr.version)?,
        }
    }
    let m = &instr.mods.mem;
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
                write_format(f, m.dfmt, m.nfmt)?;
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

/// Writes ` format:[DFMT,NFMT]` with the seed's names (`@N` for a data
/// format without one); nothing for clrxasm's default (8, UNORM), and no
/// data format when it is the default (which keeps `format:[float]` on an
/// 8-bit format assemblable).
fn write_format(f: &mut fmt::Formatter<'_>, dfmt: u8, nfmt: u8) -> fmt::Result {
    if dfmt == 1 && nfmt == 0 {
        return Ok(());
    }
    let number = NUMBER_FORMATS[usize::from(nfmt & 7)];
    if dfmt == 1 {
        return write!(f, " format:[{number}]");
    }
    match DATA_FORMATS.get(usize::from(dfmt)).copied().flatten() {
        Some(data) => write!(f, " format:[{data},{number}]"),
        None => write!(f, " format:[@{dfmt},{number}]"),
    }
}
