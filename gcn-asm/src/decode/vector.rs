//! Vector ALU encodings: the 32-bit VOP2/VOP1/VOPC forms with their SDWA
//! and DPP extensions (GCN 1.2+), VOP3A/VOP3B and VOP3P.

use std::fmt;

use super::operand::{
    count, no_operands, source, source_or_literal, trailing_mods, vector_align, write_bits,
    write_operands, Accept, Align, LITERAL, VCC, VGPR,
};
use super::{source_slots, Ctx, DecodeError, Dpp, Form, Instruction, Operand, Sdwa};

use crate::isa::vocab::op_sel_bits;
use crate::isa::{flags, Encoding, Field, InstrRow, OperandSpec};

/// SRC0 code announcing an SDWA second word.
const SDWA: u32 = 249;
/// SRC0 code announcing a DPP second word.
const DPP: u32 = 250;
/// SRC0 code announcing a DPP8 second word (GCN 1.5).
const DPP8: u32 = 0xe9;
/// SRC0 code announcing a DPP8 second word with FI set (GCN 1.5).
const DPP8_FI: u32 = 0xea;
use crate::isa::vocab::LDS_DIRECT;

/// The implicit VCC of the 32-bit forms (one SGPR in wave32).
fn implicit_vcc(ctx: &Ctx<'_>) -> Operand {
    Operand::Reg {
        code: VCC,
        count: ctx.mask_regs() as u8,
    }
}

/// The register count of a vector instruction's operand: a 64-bit scalar
/// destination or carry-in (a lane mask) is one SGPR in wave32.
fn lane_count(ctx: &Ctx<'_>, spec: &OperandSpec) -> u16 {
    let n = count(spec);
    if matches!(spec.field, Field::Sdst | Field::Ssrc2) && n == 2 {
        ctx.mask_regs()
    } else {
        n
    }
}

fn has_field(row: &InstrRow, field: Field) -> bool {
    row.operand(field).is_some()
}

/// The position a source spec accepts in the VOP3 forms.
fn accept_of(spec: &OperandSpec) -> Accept {
    match spec.field {
        Field::Vsrc0 | Field::Vsrc1 => Accept::Vgpr,
        Field::Ssrc0 | Field::Ssrc1 => Accept::Ssrc,
        Field::Ssrc2 => Accept::Sdst,
        _ => Accept::Src,
    }
}

/// Number of source slots of a row (as the encoder counts them).
pub(crate) fn source_count(row: &InstrRow) -> usize {
    source_slots(row)
        .iter()
        .filter(|&&s| s < 3)
        .map(|&s| usize::from(s) + 1)
        .max()
        .unwrap_or(0)
}

/// Decodes a VOP2, VOP1 or VOPC word (with an SDWA or DPP second word on
/// GCN 1.2+).
pub(crate) fn decode_short(ctx: &Ctx<'_>, family: Encoding) -> Result<Instruction, DecodeError> {
    let w = ctx.word(0)?;
    let src0 = w & 0x1ff;
    let (op, dst, vsrc1) = match family {
        Encoding::Vop2 => (w >> 25 & 0x3f, w >> 17 & 0xff, w >> 9 & 0xff),
        Encoding::Vop1 => (w >> 9 & 0xff, w >> 17 & 0xff, 0),
        _ => (w >> 17 & 0xff, 0, w >> 9 & 0xff),
    };
    let row = ctx.row(family, op)?;
    let gcn12 = ctx.version.is_gcn12_or_later();
    let gcn15 = ctx.version.is_gcn15();
    let form = match src0 {
        SDWA if gcn12 && !row.has(flags::NO_SDWA) => Form::Sdwa,
        DPP if gcn12 && !row.has(flags::NO_DPP) => Form::Dpp,
        DPP8 | DPP8_FI if gcn15 && !row.has(flags::NO_DPP) => Form::Dpp,
        SDWA | DPP => return Err(DecodeError::Invalid),
        _ => Form::Native,
    };
    let mut instr = Instruction::new(row, ctx.version, form);
    let ext = if form == Form::Native {
        0
    } else {
        instr.len = 2;
        ctx.word(1)?
    };
    // The SDWA scalar sources and VOPC destination (GCN 1.4 and 1.5).
    let gcn14 = ctx.version.is_gcn14_or_later();
    let vopc = family == Encoding::Vopc;
    let has_vdst = has_field(row, Field::Vdst);
    // A v_cmpx of GCN 1.5 (no scalar destination) cannot have SDWA's SD.
    if vopc && form == Form::Sdwa && gcn14 && ext >> 15 & 1 != 0 && !has_field(row, Field::Sdst) {
        return Err(DecodeError::Invalid);
    }
    let mut used_dst = family == Encoding::Vopc;
    let mut used = [false; 3];
    let mut literal = false;
    let mut s_bits = [false; 2];
    let ops = if no_operands(row) {
        &[][..]
    } else {
        row.operands
    };
    let slots = source_slots(row);
    for (i, spec) in ops.iter().enumerate() {
        let n = lane_count(ctx, spec);
        let slot = slots[i];
        instr.operand_array[i] = match spec.field {
            Field::Vdst => {
                used_dst = true;
                source(VGPR + dst as u16, n, Accept::Vgpr, Align::None, ctx.version)?
            }
            // VOPC result on GCN 1.4 SDWA: an SGPR pair in the SDWA word.
            Field::Sdst if vopc && form == Form::Sdwa && gcn14 && ext >> 15 & 1 != 0 => {
                let code = (ext >> 8 & 0x7f) as u16;
                if code == VCC {
                    return Err(DecodeError::Invalid);
                }
                source(
                    code,
                    n,
                    Accept::Sdst,
                    vector_align(ctx.version),
                    ctx.version,
                )?
            }
            // The carry-out or compare result of a 32-bit form is VCC.
            Field::Sdst if has_vdst || vopc => implicit_vcc(ctx),
            // v_readlane/v_readfirstlane: the scalar result in VDST.
            Field::Sdst => {
                used_dst = true;
                source(
                    dst as u16,
                    n,
                    Accept::Sdst,
                    vector_align(ctx.version),
                    ctx.version,
                )?
            }
            Field::Ssrc2 => implicit_vcc(ctx),
            Field::Lit32 => {
                if literal || form != Form::Native {
                    return Err(DecodeError::Invalid);
                }
                literal = true;
                let value = ctx.word(usize::from(instr.len))?;
                instr.len += 1;
                Operand::Literal(value)
            }
            _ if slot == 0 => {
                used[0] = true;
                match form {
                    Form::Native => {
                        if src0 as u16 == LITERAL {
                            if literal {
                                return Err(DecodeError::Invalid);
                            }
                            literal = true;
                        }
                        let mut len = instr.len;
                        let o = source_or_literal(
                            ctx,
                            src0 as u16,
                            n,
                            accept_of(spec),
                            vector_align(ctx.version),
                            &mut len,
                        )?;
                        instr.len = len;
                        o
                    }
                    Form::Sdwa if gcn14 && ext >> 23 & 1 != 0 => {
                        s_bits[0] = true;
                        if accept_of(spec) == Accept::Vgpr {
                            return Err(DecodeError::Invalid);
                        }
                        source(
                            (ext & 0xff) as u16,
                            n,
                            Accept::Ssrc,
                            vector_align(ctx.version),
                            ctx.version,
                        )?
                    }
                    _ => source(
                        VGPR + (ext & 0xff) as u16,
                        n,
                        Accept::Vgpr,
                        Align::None,
                        ctx.version,
                    )?,
                }
            }
            _ if slot == 1 => {
                used[1] = true;
                let accept = accept_of(spec);
                if form == Form::Sdwa && gcn14 && ext >> 31 != 0 {
                    s_bits[1] = true;
                    if accept == Accept::Vgpr {
                        return Err(DecodeError::Invalid);
                    }
                    source(
                        vsrc1 as u16,
                        n,
                        Accept::Ssrc,
                        vector_align(ctx.version),
                        ctx.version,
                    )?
                } else if accept == Accept::Ssrc {
                    // v_readlane/v_writelane lane select: a scalar source
                    // code (no literal) in the VSRC1 field.
                    if form != Form::Native || vsrc1 as u16 == LITERAL {
                        return Err(DecodeError::Invalid);
                    }
                    source(
                        vsrc1 as u16,
                        n,
                        Accept::Ssrc,
                        vector_align(ctx.version),
                        ctx.version,
                    )?
                } else {
                    source(
                        VGPR + vsrc1 as u16,
                        n,
                        Accept::Vgpr,
                        Align::None,
                        ctx.version,
                    )?
                }
            }
            _ => return Err(DecodeError::Invalid),
        };
    }
    // Fields of the 32-bit word the row does not use are zero.
    if (!used_dst && dst != 0) || (!used[0] && src0 != 0) {
        return Err(DecodeError::Invalid);
    }
    if family != Encoding::Vop1 && !used[1] && vsrc1 != 0 {
        return Err(DecodeError::Invalid);
    }
    // The constant-bus and literal rules of the encoder (the 32-bit `vcc`
    // operand has no field, so it is not in slot 2 here).
    let skip_slot1 = has_field(row, Field::Ssrc1);
    check_constant_bus(
        &instr,
        &slots,
        skip_slot1,
        2,
        &implicit_reads(row, ctx.version, true, ctx.mask_regs() as u8),
    )?;
    // GCN 1.5's constant bus takes a literal and an SGPR together.
    if literal && !gcn15 {
        let sgpr_source =
            instr.operands().iter().zip(&slots).any(|(op, &slot)| {
                slot < 2 && matches!(*op, Operand::Reg { code, .. } if code < 128)
            });
        if sgpr_source {
            return Err(DecodeError::Invalid);
        }
    }
    match form {
        Form::Sdwa => decode_sdwa(&mut instr, ext, family, s_bits, used[1])?,
        Form::Dpp if gcn15 && matches!(src0, DPP8 | DPP8_FI) => {
            instr.mods.dpp = Dpp {
                fi: src0 == DPP8_FI,
                dpp8: Some(ext >> 8),
                ..Dpp::default()
            };
        }
        Form::Dpp => decode_dpp(&mut instr, ext, used[1])?,
        _ => {}
    }
    if gcn15 {
        check_gcn15_mods(&instr)?;
    }
    Ok(instr)
}

fn decode_sdwa(
    instr: &mut Instruction,
    ext: u32,
    family: Encoding,
    s_bits: [bool; 2],
    has_src1: bool,
) -> Result<(), DecodeError> {
    let gcn14 = instr.version.is_gcn14_or_later();
    let vopc = family == Encoding::Vopc;
    let bit = |b: u32| ext >> b & 1 != 0;
    // Reserved bits; the S bits exist on GCN 1.4 only (checked above).
    if bit(22) || bit(30) || (!gcn14 && (bit(14) || bit(15) || bit(23) || bit(31))) {
        return Err(DecodeError::Invalid);
    }
    if (bit(23) && !s_bits[0]) || (bit(31) && !s_bits[1]) {
        return Err(DecodeError::Invalid);
    }
    let src0_sel = (ext >> 16 & 7) as u8;
    let src1_sel = (ext >> 24 & 7) as u8;
    let mods0 = (ext >> 19 & 7) as u8;
    let mods1 = (ext >> 27 & 7) as u8;
    if src0_sel > 6 || src1_sel > 6 || (!has_src1 && mods1 != 0) {
        return Err(DecodeError::Invalid);
    }
    // clrxdisasm does not print a GCN 1.5 VOP1's SRC1_SEL: only the value
    // the assemblers write (0) prints back to the same words.
    if instr.version.is_gcn15() && family == Encoding::Vop1 && (src1_sel != 0 || mods1 != 0) {
        return Err(DecodeError::Invalid);
    }
    let mut sdwa = Sdwa {
        dst_sel: 6,
        dst_unused: 0,
        src0_sel,
        src1_sel,
    };
    if vopc && gcn14 {
        // Bits 8-15 hold the compare result (decoded with the operands);
        // without SD they are zero.
        if !bit(15) && ext >> 8 & 0x7f != 0 {
            return Err(DecodeError::Invalid);
        }
    } else {
        sdwa.dst_sel = (ext >> 8 & 7) as u8;
        sdwa.dst_unused = (ext >> 11 & 3) as u8;
        if sdwa.dst_sel > 6 || sdwa.dst_unused > 2 {
            return Err(DecodeError::Invalid);
        }
        instr.mods.clamp = bit(13);
        instr.mods.omod = (ext >> 14 & 3) as u8;
        if vopc && instr.mods.omod != 0 {
            return Err(DecodeError::Invalid);
        }
    }
    instr.mods.sdwa = sdwa;
    let per_source = |m: u8, i: u8| (m & 1) << i;
    instr.mods.sext = per_source(mods0, 0) | per_source(mods1, 1);
    instr.mods.neg = per_source(mods0 >> 1, 0) | per_source(mods1 >> 1, 1);
    instr.mods.abs = per_source(mods0 >> 2, 0) | per_source(mods1 >> 2, 1);
    Ok(())
}

/// True for the DPP_CTRL values the assembler can write.
fn dpp_ctrl_valid(ctrl: u16) -> bool {
    matches!(ctrl, 0..=0xff | 0x101..=0x10f | 0x111..=0x11f | 0x121..=0x12f | 0x130 | 0x134 | 0x138 | 0x13c | 0x140..=0x143)
}

/// True for the DPP_CTRL values of GCN 1.5 (no wave shifts or row
/// broadcasts; row_share and row_xmask).
fn dpp_ctrl_valid_gcn15(ctrl: u16) -> bool {
    matches!(ctrl, 0..=0xff | 0x101..=0x10f | 0x111..=0x11f | 0x121..=0x12f | 0x140 | 0x141 | 0x150..=0x16f)
}

fn decode_dpp(instr: &mut Instruction, ext: u32, has_src1: bool) -> Result<(), DecodeError> {
    let ctrl = (ext >> 8 & 0x1ff) as u16;
    let gcn15 = instr.version.is_gcn15();
    let (valid, reserved) = if gcn15 {
        (dpp_ctrl_valid_gcn15(ctrl), ext >> 17 & 1)
    } else {
        (dpp_ctrl_valid(ctrl), ext >> 17 & 3)
    };
    if !valid || reserved != 0 || (!has_src1 && ext >> 22 & 3 != 0) {
        return Err(DecodeError::Invalid);
    }
    instr.mods.dpp = Dpp {
        ctrl,
        bound_ctrl: ext >> 19 & 1 != 0,
        bank_mask: (ext >> 24 & 15) as u8,
        row_mask: (ext >> 28) as u8,
        fi: gcn15 && ext >> 18 & 1 != 0,
        dpp8: None,
    };
    let b = |n: u32| (ext >> n & 1) as u8;
    instr.mods.neg = b(20) | b(22) << 1;
    instr.mods.abs = b(21) | b(23) << 1;
    Ok(())
}

/// Checks the VOP3 source rules the encoder enforces: no literal, at most
/// one SGPR (or SGPR range) read, counting the row's implicit reads,
/// LDS_DIRECT only as SRC0.
fn check_vop3_sources(
    instr: &Instruction,
    slots: &[u8; super::MAX_OPERANDS],
    skip_slot1: bool,
    mask: u8,
) -> Result<(), DecodeError> {
    let gcn15 = instr.version.is_gcn15();
    for (op, &slot) in instr.operands().iter().zip(slots) {
        if slot >= 3 || (skip_slot1 && slot == 1) {
            continue;
        }
        match *op {
            // GCN 1.5's VOP3 takes a literal (the third word).
            Operand::Literal(_) if !gcn15 => return Err(DecodeError::Invalid),
            Operand::Reg { code, .. } if code == LDS_DIRECT && slot > 0 => {
                return Err(DecodeError::Invalid)
            }
            _ => {}
        }
    }
    check_constant_bus(
        instr,
        slots,
        skip_slot1,
        3,
        &implicit_reads(instr.row, instr.version, false, mask),
    )
}

/// The scalar registers `row` reads without a source field, as the
/// encoder counts them on the constant bus: its implicit reads (VCC of
/// `v_div_fmas`, M0 of `v_movrel`) and, in the 32-bit forms
/// (`short_form`), the `vcc` carry-in or condition.
fn implicit_reads(
    row: &InstrRow,
    version: crate::GcnVersion,
    short_form: bool,
    mask: u8,
) -> Vec<(u16, u8)> {
    let mut reads: Vec<(u16, u8)> = row
        .implicit_sgpr_reads(version)
        .map(|(code, count)| (code, if code == VCC { mask } else { count as u8 }))
        .collect();
    if short_form && has_field(row, Field::Ssrc2) {
        reads.push((VCC, mask));
    }
    reads
}

/// The constant-bus rule the encoder enforces: one distinct scalar
/// register (range) read by the sources in slots below `max_slot` (slot 1
/// skipped for the v_readlane/v_writelane lane select) and `implicit`.
fn check_constant_bus(
    instr: &Instruction,
    slots: &[u8; super::MAX_OPERANDS],
    skip_slot1: bool,
    max_slot: u8,
    implicit: &[(u16, u8)],
) -> Result<(), DecodeError> {
    let mut sgpr: Option<(u16, u8)> = None;
    let explicit = instr
        .operands()
        .iter()
        .zip(slots)
        .filter(|&(_, &slot)| slot < max_slot && !(skip_slot1 && slot == 1))
        .filter_map(|(op, _)| match *op {
            Operand::Reg { code, count } if code < 128 => Some((code, count)),
            _ => None,
        });
    if instr.version.is_gcn15() {
        // GCN 1.5: two distinct scalar registers (as the encoder counts).
        let mut seen: Vec<(u16, u8)> = Vec::new();
        for read in implicit.iter().copied().chain(explicit) {
            if !seen.contains(&read) {
                seen.push(read);
            }
        }
        return if seen.len() > 2 {
            Err(DecodeError::Invalid)
        } else {
            Ok(())
        };
    }
    for read in implicit.iter().copied().chain(explicit) {
        match sgpr {
            Some(prev) if prev != read => return Err(DecodeError::Invalid),
            _ => sgpr = Some(read),
        }
    }
    Ok(())
}

/// GCN 1.5 prints source modifiers in place, as clrxdisasm does: a
/// negated constant or literal without `abs(…)` (`-1`, `-0x…`) would read
/// back as another constant, so such words are not instructions.
pub(crate) fn check_gcn15_mods(instr: &Instruction) -> Result<(), DecodeError> {
    let slots = source_slots(instr.row);
    let interp = instr
        .row
        .operands
        .iter()
        .any(|o| matches!(o.field, Field::Attr | Field::InterpParam));
    for ((op, spec), &slot) in instr.operands().iter().zip(instr.row.operands).zip(&slots) {
        if slot >= 3 {
            continue;
        }
        let bit = |mask: u8| mask >> slot & 1 != 0;
        // A carry-in or condition (clrxdisasm prints no modifiers on it),
        // a lane select, a VGPR-only source: the assembler reads no
        // modifiers there.
        let plain = match spec.field {
            Field::Ssrc2 => true,
            Field::Ssrc0 | Field::Ssrc1 | Field::Vsrc0 | Field::Vsrc1 => !interp,
            _ => false,
        };
        if plain && (bit(instr.mods.neg) || bit(instr.mods.abs) || bit(instr.mods.sext)) {
            return Err(DecodeError::Invalid);
        }
        if bit(instr.mods.neg)
            && !bit(instr.mods.abs)
            && matches!(op, Operand::Const(_) | Operand::Literal(_))
        {
            return Err(DecodeError::Invalid);
        }
    }
    Ok(())
}

/// The `op_sel:[…]` elements (and their number) that give the OP_SEL
/// field `bits` for an instruction with `nsrcs` sources, if any do.
pub(crate) fn op_sel_mask(bits: u8, nsrcs: usize) -> Option<(u8, u8)> {
    (0u32..16)
        .filter(|&m| op_sel_bits(m, nsrcs) == u32::from(bits))
        .map(|m| (m as u8, (32 - m.leading_zeros()) as u8))
        .min_by_key(|&(_, len)| len)
}

/// Decodes a VOP3A/VOP3B instruction (including the VOP3 forms of VOP2,
/// VOP1, VOPC and VINTRP rows).
pub(crate) fn decode_vop3(ctx: &Ctx<'_>) -> Result<Instruction, DecodeError> {
    let w0 = ctx.word(0)?;
    let gcn12 = ctx.version.is_gcn12_or_later();
    let op = if gcn12 {
        w0 >> 16 & 0x3ff
    } else {
        w0 >> 17 & 0x1ff
    };
    let row = ctx.row(Encoding::Vop3, op)?;
    let w1 = ctx.word(1)?;
    if row
        .operands
        .iter()
        .any(|o| matches!(o.field, Field::Attr | Field::InterpParam))
    {
        return super::vintrp::decode_vop3(ctx, row, w0, w1);
    }
    let form = if row.encoding == Encoding::Vop3 {
        Form::Native
    } else {
        Form::Vop3
    };
    let mut instr = Instruction::new(row, ctx.version, form);
    instr.len = 2;
    let has_vdst = has_field(row, Field::Vdst);
    let has_sdst = has_field(row, Field::Sdst);
    let vop3b = row.has(flags::VOP3B) || (has_vdst && has_sdst);
    let dst = (w0 & 0xff) as u16;
    let mid = (w0 >> 8 & 0x7f) as u16;
    if gcn12 {
        instr.mods.clamp = w0 >> 15 & 1 != 0;
        if !vop3b {
            instr.mods.op_sel = (w0 >> 11 & 15) as u8;
            if !ctx.version.is_gcn14_or_later() && instr.mods.op_sel != 0 {
                return Err(DecodeError::Invalid);
            }
        }
    } else if vop3b {
        if w0 >> 15 & 3 != 0 {
            return Err(DecodeError::Invalid);
        }
    } else {
        instr.mods.clamp = w0 >> 11 & 1 != 0;
        if w0 >> 12 & 31 != 0 {
            return Err(DecodeError::Invalid);
        }
    }
    if !vop3b {
        instr.mods.abs = (mid & 7) as u8;
    }
    instr.mods.omod = (w1 >> 27 & 3) as u8;
    instr.mods.neg = (w1 >> 29) as u8;
    let codes = [
        (w1 & 0x1ff) as u16,
        (w1 >> 9 & 0x1ff) as u16,
        (w1 >> 18 & 0x1ff) as u16,
    ];
    let slots = source_slots(row);
    let mut used_slots = 0u8;
    let mut used_dst = false;
    let ops = if no_operands(row) {
        &[][..]
    } else {
        row.operands
    };
    for (i, spec) in ops.iter().enumerate() {
        let n = lane_count(ctx, spec);
        let slot = slots[i];
        instr.operand_array[i] = match spec.field {
            Field::Vdst => {
                used_dst = true;
                source(VGPR + dst, n, Accept::Vgpr, Align::None, ctx.version)?
            }
            Field::Sdst if vop3b => {
                source(mid, n, Accept::Sdst, vector_align(ctx.version), ctx.version)?
            }
            Field::Sdst => {
                used_dst = true;
                source(dst, n, Accept::Sdst, vector_align(ctx.version), ctx.version)?
            }
            _ if slot < 3 => {
                used_slots |= 1 << slot;
                vop3_source(
                    ctx,
                    codes[usize::from(slot)],
                    n,
                    accept_of(spec),
                    &mut instr.len,
                )?
            }
            _ => return Err(DecodeError::Invalid),
        };
    }
    if !used_dst && dst != 0 {
        return Err(DecodeError::Invalid);
    }
    for (slot, &code) in codes.iter().enumerate() {
        let absent = used_slots >> slot & 1 == 0;
        let mods = (instr.mods.abs | instr.mods.neg) >> slot & 1 != 0;
        if absent && (code != 0 || mods) {
            return Err(DecodeError::Invalid);
        }
    }
    if row.has(flags::NO_SRC_MODS) && (instr.mods.abs | instr.mods.neg) != 0 {
        return Err(DecodeError::Invalid);
    }
    check_vop3_sources(
        &instr,
        &slots,
        has_field(row, Field::Ssrc1),
        ctx.mask_regs() as u8,
    )?;
    if ctx.version.is_gcn15() {
        // clrxdisasm prints OP_SEL bits of the sources and the destination
        // only; GCN 1.5 prints source modifiers in place. A VOP3 literal
        // is the hardware's in the VOP3 form of a VOP1/VOP2/VOPC
        // instruction too (LLVM emits `v_cndmask_b32_e64 v4, 0, 0x71800000,
        // vcc_lo`), though clrxasm takes one only in VOP3-only rows.
        if instr.mods.op_sel & !op_sel_field(row) != 0 {
            return Err(DecodeError::Invalid);
        }
        check_gcn15_mods(&instr)?;
    } else if instr.mods.op_sel != 0 && op_sel_mask(instr.mods.op_sel, source_count(row)).is_none()
    {
        return Err(DecodeError::Invalid);
    }
    Ok(instr)
}

/// The OP_SEL bits clrxdisasm prints for a row (GCN 1.5): one per source,
/// and bit 3 for the destination; none for a row without operands.
fn op_sel_field(row: &InstrRow) -> u8 {
    if no_operands(row) {
        return 0;
    }
    let n = source_count(row).min(3);
    ((1u8 << n) - 1) | 8
}

/// A source field of VOP3/VOP3P: on GCN 1.5, code 255 reads the literal
/// from the third word (and makes the instruction three words long).
fn vop3_source(
    ctx: &Ctx<'_>,
    code: u16,
    count: u16,
    accept: Accept,
    len: &mut u8,
) -> Result<Operand, DecodeError> {
    if code == LITERAL && ctx.version.is_gcn15() && matches!(accept, Accept::Src | Accept::Ssrc) {
        let value = ctx.word(2)?;
        *len = 3;
        return Ok(Operand::Literal(value));
    }
    source(code, count, accept, vector_align(ctx.version), ctx.version)
}

/// Decodes a VOP3P instruction (GCN 1.4).
pub(crate) fn decode_vop3p(ctx: &Ctx<'_>) -> Result<Instruction, DecodeError> {
    let w0 = ctx.word(0)?;
    let row = ctx.row(Encoding::Vop3p, w0 >> 16 & 0x7f)?;
    let w1 = ctx.word(1)?;
    let mut instr = Instruction::new(row, ctx.version, Form::Native);
    instr.len = 2;
    instr.mods.clamp = w0 >> 15 & 1 != 0;
    instr.mods.op_sel = (w0 >> 11 & 7) as u8;
    instr.mods.op_sel_hi = ((w1 >> 27 & 3) | (w0 >> 14 & 1) << 2) as u8;
    instr.mods.neg_hi = (w0 >> 8 & 7) as u8;
    instr.mods.neg = (w1 >> 29) as u8;
    let codes = [
        (w1 & 0x1ff) as u16,
        (w1 >> 9 & 0x1ff) as u16,
        (w1 >> 18 & 0x1ff) as u16,
    ];
    let slots = source_slots(row);
    let mut used_slots = 0u8;
    let mut used_dst = false;
    for (i, spec) in row.operands.iter().enumerate() {
        let n = count(spec);
        let slot = slots[i];
        instr.operand_array[i] = match spec.field {
            Field::Vdst => {
                used_dst = true;
                source(
                    VGPR + (w0 & 0xff) as u16,
                    n,
                    Accept::Vgpr,
                    Align::None,
                    ctx.version,
                )?
            }
            _ if slot < 3 => {
                used_slots |= 1 << slot;
                vop3_source(
                    ctx,
                    codes[usize::from(slot)],
                    n,
                    accept_of(spec),
                    &mut instr.len,
                )?
            }
            _ => return Err(DecodeError::Invalid),
        };
    }
    if !used_dst && w0 & 0xff != 0 {
        return Err(DecodeError::Invalid);
    }
    for (slot, &code) in codes.iter().enumerate() {
        if used_slots >> slot & 1 == 0 && code != 0 {
            return Err(DecodeError::Invalid);
        }
    }
    if ctx.version.is_gcn15() {
        // Bit 23 is not in the layout; clrxdisasm prints the OP_SEL,
        // NEG_LO and NEG_HI bits of the sources only (OP_SEL_HI's third
        // bit, bit 14, it leaves out for two sources: see `write`).
        let three = source_count(row) >= 3;
        let srcs: u8 = if three { 7 } else { 3 };
        let m = &instr.mods;
        if w0 >> 23 & 1 != 0 || m.op_sel & !srcs != 0 || m.neg & !srcs != 0 || m.neg_hi & !srcs != 0
        {
            return Err(DecodeError::Invalid);
        }
    }
    check_vop3_sources(&instr, &slots, false, ctx.mask_regs() as u8)?;
    Ok(instr)
}

const SEL: [&str; 7] = [
    "byte0", "byte1", "byte2", "byte3", "word0", "word1", "dword",
];
const UNUSED: [&str; 3] = ["unused_pad", "unused_sext", "unused_preserve"];

fn write_omod(f: &mut fmt::Formatter<'_>, omod: u8) -> fmt::Result {
    match omod {
        1 => f.write_str(" mul:2"),
        2 => f.write_str(" mul:4"),
        3 => f.write_str(" div:2"),
        _ => Ok(()),
    }
}

/// Writes the source modifiers that could not be written in place.
fn write_trailing(f: &mut fmt::Formatter<'_>, instr: &Instruction) -> fmt::Result {
    let (neg, abs, sext) = trailing_mods(instr);
    for (name, mask) in [("neg", neg), ("abs", abs), ("sext", sext)] {
        if mask != 0 {
            write_bits(f, name, mask, 8 - mask.leading_zeros() as u8)?;
        }
    }
    Ok(())
}

/// True when the assembler would pick the 32-bit encoding for this VOP3
/// form's operands and modifiers (so the text must force VOP3).
fn fits_e32(instr: &Instruction) -> bool {
    let row = instr.row;
    let m = &instr.mods;
    if m.clamp || m.omod != 0 || m.op_sel != 0 || m.abs != 0 || m.neg != 0 {
        return false;
    }
    // VCC (one SGPR in wave32).
    let vcc = |op: &Operand| {
        matches!(
            op,
            Operand::Reg {
                code: VCC,
                count: 1 | 2
            }
        )
    };
    let slots = source_slots(row);
    let has_vdst = has_field(row, Field::Vdst);
    for ((op, spec), slot) in instr.operands().iter().zip(row.operands).zip(slots) {
        match spec.field {
            Field::Sdst if has_vdst && row.encoding != Encoding::Vop1 && !vcc(op) => return false,
            Field::Sdst if row.encoding == Encoding::Vopc && !vcc(op) => return false,
            Field::Ssrc2 if !vcc(op) => return false,
            Field::Ssrc1 => {}
            _ if slot == 1
                && row.encoding != Encoding::Vop1
                && !matches!(op, Operand::Reg { code, .. } if *code >= VGPR) =>
            {
                return false
            }
            _ => {}
        }
    }
    true
}

/// Writes a vector instruction.
pub(crate) fn write(f: &mut fmt::Formatter<'_>, instr: &Instruction) -> fmt::Result {
    if instr.version.is_gcn15() {
        return write_gcn15(f, instr);
    }
    write_operands(f, instr)?;
    let m = &instr.mods;
    match instr.form {
        Form::Native if instr.row.encoding == Encoding::Vop3p => write_vop3p_modifiers(f, instr),
        Form::Native if instr.row.encoding != Encoding::Vop3 => Ok(()),
        Form::Native | Form::Vop3 => {
            if m.op_sel != 0 {
                // One element per source and one for the destination:
                // clrxasm rejects the shorter forms (`op_sel:[1]`).
                let nsrcs = source_count(instr.row);
                if let Some((mask, len)) = op_sel_mask(m.op_sel, nsrcs) {
                    write_bits(f, "op_sel", mask, len.max(nsrcs as u8 + 1).min(4))?;
                }
            }
            write_trailing(f, instr)?;
            if m.clamp {
                f.write_str(" clamp")?;
            }
            write_omod(f, m.omod)?;
            if instr.form == Form::Vop3 && fits_e32(instr) {
                f.write_str(" vop3")?;
            }
            Ok(())
        }
        Form::Sdwa => {
            let s = &m.sdwa;
            let vopc_14 = instr.row.encoding == Encoding::Vopc && instr.version.is_gcn14();
            if !vopc_14 {
                write!(
                    f,
                    " dst_sel:{} dst_unused:{}",
                    SEL[usize::from(s.dst_sel.min(6))],
                    UNUSED[usize::from(s.dst_unused.min(2))]
                )?;
            }
            write!(f, " src0_sel:{}", SEL[usize::from(s.src0_sel.min(6))])?;
            if instr.row.encoding != Encoding::Vop1 || s.src1_sel != 0 {
                write!(f, " src1_sel:{}", SEL[usize::from(s.src1_sel.min(6))])?;
            }
            write_trailing(f, instr)?;
            if m.clamp {
                f.write_str(" clamp")?;
            }
            write_omod(f, m.omod)
        }
        Form::Dpp => {
            let d = &m.dpp;
            match d.ctrl {
                0..=0xff => {
                    let q = |i: u16| d.ctrl >> (2 * i) & 3;
                    write!(f, " quad_perm:[{},{},{},{}]", q(0), q(1), q(2), q(3))?
                }
                0x101..=0x10f => write!(f, " row_shl:{}", d.ctrl & 15)?,
                0x111..=0x11f => write!(f, " row_shr:{}", d.ctrl & 15)?,
                0x121..=0x12f => write!(f, " row_ror:{}", d.ctrl & 15)?,
                0x130 => f.write_str(" wave_shl:1")?,
                0x134 => f.write_str(" wave_rol:1")?,
                0x138 => f.write_str(" wave_shr:1")?,
                0x13c => f.write_str(" wave_ror:1")?,
                0x140 => f.write_str(" row_mirror")?,
                0x141 => f.write_str(" row_half_mirror")?,
                0x142 => f.write_str(" row_bcast:15")?,
                _ => f.write_str(" row_bcast:31")?,
            }
            write!(
                f,
                " bank_mask:{:#x} row_mask:{:#x}",
                d.bank_mask, d.row_mask
            )?;
            if d.bound_ctrl {
                f.write_str(" bound_ctrl")?;
            }
            Ok(())
        }
    }
}

/// Writes the VOP3P modifiers: `op_sel`, `op_sel_hi`, `neg_lo`, `neg_hi`,
/// `clamp` (clrxdisasm's order, one element per source).
fn write_vop3p_modifiers(f: &mut fmt::Formatter<'_>, instr: &Instruction) -> fmt::Result {
    let m = &instr.mods;
    let n = source_count(instr.row).max(1) as u8;
    let len = |mask: u8| n.max(8 - mask.leading_zeros() as u8);
    if m.op_sel != 0 {
        write_bits(f, "op_sel", m.op_sel, len(m.op_sel))?;
    }
    if m.op_sel_hi != 7 {
        // One element per source: clrxasm rejects three on a two-source
        // instruction, and its two-element form clears the third bit; with
        // that bit set, only the number says it (clrxdisasm leaves the
        // third bit of a two-source instruction out).
        if n == 2 && m.op_sel_hi & 4 == 0 {
            write_bits(f, "op_sel_hi", m.op_sel_hi, 2)?;
        } else if n == 2 {
            write!(f, " op_sel_hi:{}", m.op_sel_hi)?;
        } else {
            write_bits(f, "op_sel_hi", m.op_sel_hi, 3)?;
        }
    }
    if m.neg != 0 {
        write_bits(f, "neg_lo", m.neg, len(m.neg))?;
    }
    if m.neg_hi != 0 {
        write_bits(f, "neg_hi", m.neg_hi, len(m.neg_hi))?;
    }
    if m.clamp {
        f.write_str(" clamp")?;
    }
    Ok(())
}

/// What marks an SDWA instruction whose selections are all the defaults:
/// clrxdisasm writes ` sdwa`, which clrxasm reads, but this assembler does
/// not (yet), so the default selection of SRC0 is written instead.
const SDWA_MARK: &str = " src0_sel:dword";

/// clrxdisasm's SDWA destination-unused names (GCN 1.5).
const UNUSED_GCN15: [&str; 3] = ["pad", "sext", "preserve"];

/// Writes a GCN 1.5 vector instruction as clrxdisasm prints it: source
/// modifiers in place, then (VOP3) `op_sel` with one element per source
/// and the destination's last, `mul`/`div`, `clamp`, and `vop3` where the
/// text would otherwise be the 32-bit form; (SDWA) `mul`/`div`, `clamp`,
/// the selections that are not `dword`/`pad`, `sdwa` when nothing else
/// says it; (DPP16) the control, `bound_ctrl`, `bank_mask`, `row_mask`
/// in decimal, `fi`; (DPP8) `dpp8:[…]` and `fi`.
fn write_gcn15(f: &mut fmt::Formatter<'_>, instr: &Instruction) -> fmt::Result {
    write_operands(f, instr)?;
    let m = &instr.mods;
    let row = instr.row;
    match instr.form {
        Form::Native if row.encoding == Encoding::Vop3p => write_vop3p_modifiers(f, instr),
        Form::Native if row.encoding != Encoding::Vop3 => Ok(()),
        Form::Native | Form::Vop3 => {
            if m.op_sel != 0 {
                let n = source_count(row).min(3);
                let mask = (m.op_sel & ((1 << n) - 1)) | (m.op_sel >> 3 & 1) << n;
                write_bits(f, "op_sel", mask, n as u8 + 1)?;
            }
            write_omod(f, m.omod)?;
            if m.clamp {
                f.write_str(" clamp")?;
            }
            // clrxdisasm's `vop3` rule; and wherever the text would
            // otherwise assemble to the 32-bit form (clrxdisasm leaves it
            // out on v_cmpx, whose VOP3 form has no destination on GCN 1.5).
            let lane = row.has(flags::READ_LANE) || row.has(flags::WRITE_LANE);
            let suffix = if instr.form == Form::Vop3 {
                clrx_vop3_suffix(instr) || fits_e32(instr)
            } else {
                lane && clrx_vop3_suffix(instr)
            };
            if suffix && !super::operand::promoted_literal(instr) {
                f.write_str(" vop3")?;
            }
            Ok(())
        }
        Form::Sdwa => {
            let s = &m.sdwa;
            let vopc = row.encoding == Encoding::Vopc;
            let vop1 = row.encoding == Encoding::Vop1;
            if !vopc {
                write_omod(f, m.omod)?;
                if m.clamp {
                    f.write_str(" clamp")?;
                }
                if s.dst_sel != 6 {
                    write!(f, " dst_sel:{}", SEL[usize::from(s.dst_sel.min(6))])?;
                }
                if s.dst_unused != 0 {
                    write!(
                        f,
                        " dst_unused:{}",
                        UNUSED_GCN15[usize::from(s.dst_unused.min(2))]
                    )?;
                }
            }
            if s.src0_sel != 6 {
                write!(f, " src0_sel:{}", SEL[usize::from(s.src0_sel.min(6))])?;
            }
            if s.src1_sel != 6 && !vop1 {
                write!(f, " src1_sel:{}", SEL[usize::from(s.src1_sel.min(6))])?;
            }
            // clrxdisasm writes `sdwa` where nothing else says SDWA (taking a
            // VOP1's SRC1_SEL, which it does not print, as unset). The
            // assembler does not read `sdwa`: an explicit default selection
            // says it instead.
            let plain_dst = vopc || (s.dst_sel == 6 && s.dst_unused == 0);
            if plain_dst
                && s.src0_sel == 6
                && m.sext & 1 == 0
                && (s.src1_sel == 6 || vop1)
                && m.sext & 2 == 0
            {
                f.write_str(SDWA_MARK)?;
            }
            Ok(())
        }
        Form::Dpp => {
            let d = &m.dpp;
            if let Some(lanes) = d.dpp8 {
                f.write_str(" dpp8:[")?;
                for i in 0..8 {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}", lanes >> (3 * i) & 7)?;
                }
                f.write_str("]")?;
            } else {
                match d.ctrl {
                    0..=0xff => {
                        let q = |i: u16| d.ctrl >> (2 * i) & 3;
                        write!(f, " quad_perm:[{},{},{},{}]", q(0), q(1), q(2), q(3))?
                    }
                    0x101..=0x10f => write!(f, " row_shl:{}", d.ctrl & 15)?,
                    0x111..=0x11f => write!(f, " row_shr:{}", d.ctrl & 15)?,
                    0x121..=0x12f => write!(f, " row_ror:{}", d.ctrl & 15)?,
                    0x140 => f.write_str(" row_mirror")?,
                    0x141 => f.write_str(" row_half_mirror")?,
                    0x150..=0x15f => write!(f, " row_share:{}", d.ctrl & 15)?,
                    _ => write!(f, " row_xmask:{}", d.ctrl & 15)?,
                }
                if d.bound_ctrl {
                    f.write_str(" bound_ctrl")?;
                }
                write!(f, " bank_mask:{} row_mask:{}", d.bank_mask, d.row_mask)?;
            }
            if d.fi {
                f.write_str(" fi")?;
            }
            Ok(())
        }
    }
}

/// The operand code a field held for `op` (0 for none).
fn field_code(op: &Operand) -> u16 {
    match *op {
        Operand::Reg { code, .. } => code,
        Operand::Const(code) => code,
        Operand::Literal(_) => LITERAL,
        _ => 0,
    }
}

/// clrxdisasm's rule for writing `vop3` after a VOP3 form of a VOP2, VOP1
/// or VOPC instruction (GCNDisasmDecode.cpp, `isVOP1Word`): when its
/// operands and modifiers would fit the 32-bit encoding. It looks at the
/// fields, not at the text: a VOPC result in VCC, an empty SRC1 of a VOP1,
/// a VGPR SRC1 (an SGPR for v_readlane/v_writelane, VOP2 forms in
/// clrxdisasm's table), VCC as the carry-in or condition, no `clamp`,
/// `abs`, `neg`, `mul`/`div` or `op_sel`.
fn clrx_vop3_suffix(instr: &Instruction) -> bool {
    let row = instr.row;
    let m = &instr.mods;
    let lane = row.has(flags::READ_LANE) || row.has(flags::WRITE_LANE);
    let vop2 = row.encoding == Encoding::Vop2 || lane;
    let vop1 = row.encoding == Encoding::Vop1;
    let vopc = row.encoding == Encoding::Vopc;
    let has_vdst = has_field(row, Field::Vdst);
    let has_sdst = has_field(row, Field::Sdst);
    let vop3b = row.has(flags::VOP3B) || (has_vdst && has_sdst);
    let carry_in = has_field(row, Field::Ssrc2);
    let src2_vcc = carry_in && !vop3b;
    let ds2_vcc = carry_in && vop3b;
    let slots = source_slots(row);
    let mut src = [0u16; 3];
    let mut used = [false; 3];
    let mut sdst = 0u16;
    for (op, (spec, &slot)) in instr.operands().iter().zip(row.operands.iter().zip(&slots)) {
        if slot < 3 {
            src[usize::from(slot)] = field_code(op);
            used[usize::from(slot)] = true;
        } else if spec.field == Field::Sdst {
            sdst = field_code(op);
        }
    }
    let (vsrc1, vsrc2) = (src[1], src[2]);
    let used_mask: u8 = if carry_in { 3 } else { 7 };
    let plain = m.omod == 0 && m.neg & used_mask == 0;
    let fits = if !vop3b {
        let vopc_fits = vopc && sdst == VCC && vsrc1 >= VGPR && vsrc2 == 0;
        let vop1_fits = vop1 && vsrc1 == 0 && vsrc2 == 0;
        let vop2_fits = vop2
            && ((!used[1] && vsrc1 == 0) || (!lane && vsrc1 >= VGPR) || (lane && vsrc1 < VGPR))
            && ((!src2_vcc && vsrc2 == 0) || (src2_vcc && vsrc2 == VCC));
        (vopc_fits || vop1_fits || vop2_fits)
            && m.abs & used_mask == 0
            && m.neg & used_mask == 0
            && !m.clamp
    } else {
        vop2 && vsrc1 >= VGPR
            && sdst == VCC
            && ((ds2_vcc && vsrc2 == VCC) || (!ds2_vcc && vsrc2 == 0))
    };
    fits && plain && m.op_sel == 0
}
