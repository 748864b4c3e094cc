//! FLAT (GCN 1.1+), GLOBAL and SCRATCH (GCN 1.4) encodings.
//!
//! Syntax: loads `VDST, VADDR[, SADDR]`, stores `VADDR, VDATA[, SADDR]`,
//! atomics `[VDST,] VADDR, VDATA[, SADDR]` (VDST only with a returning
//! atomic, so `glc` needs it), then `[glc] [slc] [tfe] [nv] [lds]
//! [inst_offset:N]`. FLAT VADDR is a 64-bit address; GLOBAL VADDR is 64-bit
//! with SADDR `off`, a 32-bit offset with an SGPR-pair SADDR; SCRATCH VADDR
//! and SADDR are single registers or `off`. Offsets are 12-bit unsigned
//! (FLAT) or 13-bit signed (GLOBAL/SCRATCH).

use super::context::{FixupKind, OperandContext, OperandError};
use super::memory::{
    check_suffix, emit, expect_count, imm_value, next_modifier, unknown_modifier, vgpr_number,
    vgpr_range, Imm, ImmField,
};
use super::operand::flag_parameter;
use super::operand::{
    check_register, describe, try_register, Accept, Align, Located, Reg, RegParse,
};
use super::{Emitter, Statement};
use crate::isa::{flags, Encoding, Field};
use crate::syntax::cursor::Cursor;

/// SADDR value that disables the scalar address.
const SADDR_OFF: u32 = 0x7f;

/// One operand as written: a register range or `off`.
#[derive(Clone, Copy)]
enum Operand {
    Off(usize),
    Reg(Located<Reg>),
}

/// Encodes a FLAT, GLOBAL or SCRATCH instruction.
pub(crate) fn encode(
    ctx: &mut dyn OperandContext,
    st: &mut Statement<'_>,
    out: &mut Emitter,
) -> Result<(), OperandError> {
    check_suffix(st)?;
    let row = st.row;
    let version = st.version;
    let gcn14 = version.is_gcn14();
    let gcn15 = version.is_gcn15();
    let cur = &mut st.cur;

    // Read the operands first: an atomic's VDST is optional, so their
    // count decides what each one is.
    let mut ops: [Option<Operand>; 4] = [None; 4];
    let mut n = 0;
    loop {
        if n == ops.len() {
            break;
        }
        if n > 0 {
            let mut probe = *cur;
            if !probe.eat(b',') {
                break;
            }
            *cur = probe;
        }
        ops[n] = Some(operand(ctx, cur)?);
        n += 1;
    }
    let expected = row.operands.len();
    let atomic = row.has(flags::ATOMIC);
    let with_vdst = if atomic && n + 1 == expected {
        false
    } else if n == expected {
        true
    } else {
        let at = cur.pos();
        return Err(OperandError::new(
            at,
            format!(
                "`{}` takes {expected} operands{}, not {n}",
                st.mnemonic,
                if atomic {
                    format!(" ({} without a returned value)", expected - 1)
                } else {
                    String::new()
                }
            ),
        ));
    };

    let (mut glc, mut slc, mut tfe, mut nv, mut lds) = (false, false, false, false, false);
    let mut dlc = false;
    let mut glc_at = 0;
    let mut offset: Option<Imm> = None;
    let family = match row.encoding {
        Encoding::Global => "GLOBAL",
        Encoding::Scratch => "SCRATCH",
        _ => "FLAT",
    };
    while let Some(name) = next_modifier(cur) {
        match name.lower() {
            "glc" => {
                glc = flag_parameter(ctx, cur)?;
                glc_at = name.at;
            }
            "slc" => slc = flag_parameter(ctx, cur)?,
            "tfe" if !gcn14 && !gcn15 => tfe = flag_parameter(ctx, cur)?,
            "nv" if gcn14 => nv = flag_parameter(ctx, cur)?,
            "lds" if gcn14 => lds = flag_parameter(ctx, cur)?,
            "dlc" if gcn15 => dlc = flag_parameter(ctx, cur)?,
            "inst_offset" | "offset" if gcn14 || gcn15 => {
                offset = Some(imm_value(ctx, cur, "offset")?)
            }
            _ => return Err(unknown_modifier(cur, &name, family)),
        }
    }
    if atomic && glc && !with_vdst {
        return Err(OperandError::new(
            glc_at,
            "a returning atomic (`glc`) needs a destination register",
        ));
    }

    // Assign the operands to the row's fields.
    let mut vdst: Option<Located<Reg>> = None;
    let mut vaddr: Option<Operand> = None;
    let mut vdata: Option<Located<Reg>> = None;
    let mut saddr: Option<Operand> = None;
    let mut index = 0;
    for spec in row.operands {
        if spec.field == Field::Vdst && !with_vdst {
            continue;
        }
        let op = ops[index].unwrap_or(Operand::Off(0));
        index += 1;
        match spec.field {
            Field::Vdst => {
                let reg = vgpr(op, "destination")?;
                let count = spec.registers() + u16::from(tfe);
                expect_count(
                    reg,
                    count,
                    "the destination",
                    if tfe { " (one more for `tfe`)" } else { "" },
                )?;
                vdst = Some(reg);
            }
            Field::Vdata => {
                let reg = vgpr(op, "data")?;
                expect_count(reg, spec.registers(), "the data", "")?;
                vdata = Some(reg);
            }
            Field::Vaddr => vaddr = Some(op),
            _ => saddr = Some(op),
        }
    }

    // Addresses.
    // GCN 1.5 puts NULL in SADDR for `off` and for FLAT.
    let mut saddr_field = if gcn15 {
        u32::from(crate::isa::vocab::NULL)
    } else if gcn14 && row.encoding != Encoding::Flat {
        SADDR_OFF
    } else {
        0
    };
    let mut saddr_is_reg = false;
    if let Some(Operand::Reg(r)) = saddr {
        let count = if row.encoding == Encoding::Scratch {
            1
        } else {
            2
        };
        check_register(
            r.value,
            Accept::SDST,
            count,
            Align::Strict,
            r.at,
            "the scalar address",
        )?;
        saddr_field = u32::from(r.value.code);
        saddr_is_reg = true;
    }
    let mut vaddr_field = 0;
    match vaddr {
        Some(Operand::Reg(r)) => {
            let (count, why) = match row.encoding {
                Encoding::Global if saddr_is_reg => (1, " (an offset, with an SGPR-pair `saddr`)"),
                Encoding::Scratch => (1, ""),
                Encoding::Global => (2, " (a 64-bit address, with `saddr` off)"),
                _ => (2, " (a 64-bit address)"),
            };
            expect_count(r, count, "the address", why)?;
            vaddr_field = vgpr_number(r.value);
        }
        Some(Operand::Off(at)) if row.encoding != Encoding::Scratch => {
            return Err(OperandError::new(
                at,
                format!("{family} instructions need a vector address, not `off`"),
            ))
        }
        _ => {}
    }

    if row.encoding == Encoding::Scratch && saddr_is_reg && matches!(vaddr, Some(Operand::Reg(_))) {
        return Err(OperandError::new(
            0,
            "a SCRATCH address is a VGPR or an SGPR, not both (set the other to `off`)",
        ));
    }
    let seg = match row.encoding {
        Encoding::Scratch => 1,
        Encoding::Global => 2,
        _ => 0,
    };
    let mut word0 = (0b110111 << 26)
        | (u32::from(st.opcode) << 18)
        | (u32::from(glc) << 16)
        | (u32::from(slc) << 17);
    if gcn14 {
        word0 |= (seg << 14) | (u32::from(lds) << 13);
    }
    if gcn15 {
        word0 |= (seg << 14) | (u32::from(dlc) << 12);
    }
    let word1 = vaddr_field
        | (vdata.map_or(0, |r| vgpr_number(r.value)) << 8)
        | (saddr_field << 16)
        | (u32::from(tfe || nv) << 23)
        | (vdst.map_or(0, |r| vgpr_number(r.value)) << 24);
    let mut words = [word0, word1];
    // GCN 1.5: 11 unsigned bits for FLAT (as clrxasm has it); GLOBAL and
    // SCRATCH take clrxasm's 11 unsigned bits and the hardware's (and
    // llvm-mc's) negative 12-bit values, which LLVM's code has.
    let flat = row.encoding == Encoding::Flat;
    let fixup = if gcn15 && !flat {
        offset.and_then(|imm| match imm {
            Imm::Known(v, at) => {
                let (field, warning) = super::gfx10_segment_offset(v);
                if let Some(w) = warning {
                    ctx.warning(at, w);
                }
                words[0] |= field;
                None
            }
            Imm::Deferred(d, at) => Some((FixupKind::Gfx10SegmentOffset, d, at)),
        })
    } else {
        let field = ImmField {
            word: 0,
            shift: 0,
            bits: match (gcn15, flat) {
                (true, _) => 11,
                (false, true) => 12,
                (false, false) => 13,
            },
            signed: !flat,
        };
        offset.and_then(|imm| field.place(ctx, imm, "offset", &mut words))
    };
    emit(out, &words, &[fixup]);
    Ok(())
}

/// Reads one operand: `off` or a register range.
fn operand(ctx: &mut dyn OperandContext, cur: &mut Cursor<'_>) -> Result<Operand, OperandError> {
    cur.skip_spaces();
    let at = cur.pos();
    if cur.eat_keyword("off") {
        return Ok(Operand::Off(at));
    }
    let mut probe = *cur;
    if let RegParse::Reg(reg) = try_register(ctx, &mut probe, None)? {
        if reg.is_vgpr() {
            return Ok(Operand::Reg(vgpr_range(ctx, cur, "operand")?));
        }
        *cur = probe;
        if reg.code >= 128 || reg.count == 0 {
            return Err(OperandError::new(
                at,
                format!("{} cannot be a memory address", describe(reg)),
            ));
        }
        ctx.register_used(reg.code, reg.count);
        return Ok(Operand::Reg(Located { value: reg, at }));
    }
    Err(OperandError::new(
        at,
        if cur.at_end() {
            "missing operand".to_string()
        } else {
            "expected a register or `off`".to_string()
        },
    ))
}

/// The operand as a VGPR range.
fn vgpr(op: Operand, what: &str) -> Result<Located<Reg>, OperandError> {
    match op {
        Operand::Reg(r) if r.value.is_vgpr() => Ok(r),
        Operand::Reg(r) => Err(OperandError::new(
            r.at,
            format!(
                "the {what} must be a vector register, not {}",
                describe(r.value)
            ),
        )),
        Operand::Off(at) => Err(OperandError::new(at, format!("the {what} cannot be `off`"))),
    }
}
