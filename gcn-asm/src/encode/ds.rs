//! DS (local/global data share) encoding.
//!
//! Syntax: `MNEMONIC [VDST,] [ADDR,] [DATA0[, DATA1]] [offset:N | offset0:N
//! offset1:N] [gds]`; the operands present are the row's.

use super::context::OperandContext;
use super::context::OperandError;
use super::memory::{
    check_suffix, emit, imm_value, next_modifier, unknown_modifier, vgpr_number, Imm, ImmField,
};
use super::operand::flag_parameter;
use super::operand::{expect_comma, parse_register, Accept, Align};
use super::{Emitter, Statement};
use crate::isa::{flags, Field};

/// Encodes a DS instruction.
pub(crate) fn encode(
    ctx: &mut dyn OperandContext,
    st: &mut Statement<'_>,
    out: &mut Emitter,
) -> Result<(), OperandError> {
    check_suffix(st)?;
    let row = st.row;
    let cur = &mut st.cur;
    // VDST, ADDR, DATA0, DATA1 (word 1 bytes 3, 0, 1, 2).
    let mut regs = [0u32; 4];
    for (i, spec) in row.operands.iter().enumerate() {
        let (slot, what) = match spec.field {
            Field::Vdst => (3, "destination"),
            Field::Vaddr => (0, "address"),
            Field::Vdata => (1, "data"),
            _ => (2, "second data"),
        };
        if i > 0 {
            expect_comma(cur, what)?;
        }
        let reg = parse_register(ctx, cur, Accept::VGPR, spec.registers(), Align::None, what)?;
        regs[slot] = vgpr_number(reg.value);
    }

    let two_offsets = row.has(flags::OFFSET2);
    let mut offset: Option<Imm> = None;
    let mut offsets: [Option<Imm>; 2] = [None, None];
    let mut gds = false;
    while let Some(name) = next_modifier(cur) {
        match name.lower() {
            "offset" if !two_offsets => offset = Some(imm_value(ctx, cur, "offset")?),
            "offset0" if two_offsets => offsets[0] = Some(imm_value(ctx, cur, "offset0")?),
            "offset1" if two_offsets => offsets[1] = Some(imm_value(ctx, cur, "offset1")?),
            "offset" | "offset0" | "offset1" => {
                return Err(OperandError::new(
                    name.at,
                    if two_offsets {
                        format!(
                            "`{}` takes two 8-bit offsets: use `offset0:` and `offset1:`",
                            st.mnemonic
                        )
                    } else {
                        format!("`{}` takes one 16-bit offset: use `offset:`", st.mnemonic)
                    },
                ))
            }
            "gds" => gds = flag_parameter(ctx, cur)?,
            _ => return Err(unknown_modifier(cur, &name, "DS")),
        }
    }
    if row.has(flags::GDS_ONLY) && !gds {
        return Err(OperandError::new(
            0,
            format!("`{}` works only on GDS: add `gds`", st.mnemonic),
        ));
    }

    // GCN 1.5 went back to GCN 1.0's layout (OP 25:18, GDS 17).
    let gcn12 = st.version.is_gcn12_or_later() && !st.version.is_gcn15();
    let op = u32::from(st.opcode);
    let mut words = [
        (0b110110 << 26)
            | if gcn12 {
                (op << 17) | (u32::from(gds) << 16)
            } else {
                (op << 18) | (u32::from(gds) << 17)
            },
        regs[0] | (regs[1] << 8) | (regs[2] << 16) | (regs[3] << 24),
    ];
    let field = |shift: u8, bits: u8| ImmField {
        word: 0,
        shift,
        bits,
        signed: false,
    };
    let mut fixups = [None, None];
    if let Some(imm) = offset {
        fixups[0] = field(0, 16).place(ctx, imm, "offset", &mut words);
    }
    for (i, imm) in offsets.into_iter().enumerate() {
        if let Some(imm) = imm {
            fixups[i] = field(8 * i as u8, 8).place(ctx, imm, "offset", &mut words);
        }
    }
    emit(out, &words, &fixups);
    Ok(())
}
