//! Memory encodings: DS, MUBUF, MTBUF, MIMG, EXP and FLAT (with the
//! GLOBAL and SCRATCH segments of GCN 1.4).
//!
//! [`super::family`] already recognises these encodings from their fixed
//! high bits. Their rows are being added to the ISA table; until a family
//! has rows (and an encoder), its words decode to
//! [`DecodeError::Invalid`] and are listed as `.int`. Adding a family here
//! means: read the opcode field below, look the row up with
//! `Ctx::row` (the index picks up new table rows by itself), fill the
//! operands in row order from the fields the family's encoder writes, and
//! print the family's modifiers in [`write`].

use std::fmt;

use super::{Ctx, DecodeError, Instruction};
use crate::isa::Encoding;

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

/// Decodes a memory instruction. No memory family has rows in the table
/// yet, so this reports the words as not decodable.
pub(crate) fn decode(ctx: &Ctx<'_>, family: Encoding) -> Result<Instruction, DecodeError> {
    let w = ctx.word(0)?;
    let (space, op) = opcode(w, family, ctx.version).ok_or(DecodeError::Invalid)?;
    let _row = ctx.row(space, op)?;
    // A row exists but its operand layout is not decoded yet: refuse
    // rather than print something that would not assemble back.
    Err(DecodeError::Invalid)
}

/// Writes a memory instruction (not reached until [`decode`] produces one).
pub(crate) fn write(f: &mut fmt::Formatter<'_>, instr: &Instruction) -> fmt::Result {
    super::operand::write_operands(f, instr)
}
