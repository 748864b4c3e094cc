//! MUBUF and MTBUF words: VADDR by OFFEN/IDXEN/ADDR64, VDATA with TFE and
//! D16 packing, SRSRC, SOFFSET, the format of MTBUF.

use std::fmt;

use super::memory::{bit, operand_specs, sgprs, vgpr, zero};
use super::operand::{is_inline, source, Accept, Align};
use super::{Ctx, DecodeError, Instruction, MemFlags};
use crate::isa::vocab::{DATA_FORMATS, NUMBER_FORMATS};
use crate::isa::{flags, Encoding, Field};

/// Decodes the operands and modifiers of a MUBUF or MTBUF instruction from its two
/// words into `instr` (whose row is known).
pub(super) fn decode(
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
    if version.is_gcn15() {
        // DLC in bit 15, SLC in word 1; MUBUF: LDS in bit 16, bits 17 and
        // 25 and word 1 bit 21 unused; MTBUF: the 7-bit FORMAT in bits
        // 25:19, word 1 bit 21 an opcode bit.
        mem.flags.set(MemFlags::DLC, bit(w0, 15));
        mem.flags.set(MemFlags::SLC, bit(w1, 22));
        if typed {
            mem.dfmt = (w0 >> 19 & 0x7f) as u8;
        } else {
            zero(w0 >> 17 & 1)?;
            zero(w0 >> 25 & 1)?;
            zero(w1 >> 21 & 1)?;
            mem.flags.set(MemFlags::LDS, bit(w0, 16));
        }
    } else if gcn12 {
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
    if !version.is_gcn15() {
        zero(w1 >> 21 & 1)?;
    }
    mem.flags.set(MemFlags::TFE, bit(w1, 23));
    if typed && !version.is_gcn15() {
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
                if row.has(flags::D16) && version.is_gcn14_or_later() {
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

/// Writes ` format:[DFMT,NFMT]` with the seed's names (`@N` for a data
/// format without one); nothing for clrxasm's default (8, UNORM), and no
/// data format when it is the default (which keeps `format:[float]` on an
/// 8-bit format assemblable).
pub(super) fn write_format(f: &mut fmt::Formatter<'_>, dfmt: u8, nfmt: u8) -> fmt::Result {
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
