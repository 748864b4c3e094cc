//! Scalar ALU encodings: SOP2, SOP1, SOPK, SOPC and SOPP, and the printing
//! of `hwreg(…)`, `sendmsg(…)` and `s_waitcnt` counters.

use std::fmt;

use super::operand::{count, no_operands, source, source_or_literal, Accept, Align, LITERAL};
use super::{Ctx, DecodeError, Form, Instruction, Operand};
use crate::arch::GcnVersion;
use crate::isa::vocab::{GS_OPS, HWREGS, MESSAGES};
use crate::isa::{Encoding, Field};

/// Decodes a scalar ALU instruction of family `encoding`.
pub(crate) fn decode(ctx: &Ctx<'_>, encoding: Encoding) -> Result<Instruction, DecodeError> {
    let w = ctx.word(0)?;
    // (opcode, SDST, SSRC0, SSRC1, SIMM16) fields of each layout.
    let (op, sdst, ssrc0, ssrc1, imm) = match encoding {
        Encoding::Sop2 => (w >> 23 & 0x7f, w >> 16 & 0x7f, w & 0xff, w >> 8 & 0xff, 0),
        Encoding::Sopk => (w >> 23 & 0x1f, w >> 16 & 0x7f, 0, 0, w & 0xffff),
        Encoding::Sop1 => (w >> 8 & 0xff, w >> 16 & 0x7f, w & 0xff, 0, 0),
        Encoding::Sopc => (w >> 16 & 0x7f, 0, w & 0xff, w >> 8 & 0xff, 0),
        _ => (w >> 16 & 0x7f, 0, 0, 0, w & 0xffff),
    };
    let row = ctx.row(encoding, op)?;
    let mut instr = Instruction::new(row, ctx.version, Form::Native);
    let mut used = [false; 4]; // sdst, ssrc0, ssrc1, imm
    let mut literal_at: Option<u8> = None;
    let mut len = 1u8;
    let ops = if no_operands(row) {
        &[][..]
    } else {
        row.operands
    };
    for (i, spec) in ops.iter().enumerate() {
        let n = count(spec);
        let operand = match spec.field {
            Field::Sdst => {
                used[0] = true;
                source(sdst as u16, n, Accept::Sdst, Align::Strict, ctx.version)?
            }
            // SOPK keeps its scalar source in the SDST field.
            Field::Ssrc0 if encoding == Encoding::Sopk => {
                used[0] = true;
                source(sdst as u16, n, Accept::Ssrc, Align::Strict, ctx.version)?
            }
            Field::Ssrc0 | Field::Ssrc1 => {
                let (code, slot) = if spec.field == Field::Ssrc0 {
                    (ssrc0, 1)
                } else {
                    (ssrc1, 2)
                };
                used[slot] = true;
                if code as u16 == LITERAL {
                    // One literal only: both sources cannot be literals.
                    if literal_at.is_some() {
                        return Err(DecodeError::Invalid);
                    }
                    literal_at = Some(len);
                }
                source_or_literal(ctx, code as u16, n, Accept::Ssrc, Align::Strict, &mut len)?
            }
            // s_set_gpr_idx_on: an 8-bit immediate in the SSRC1 field.
            Field::Simm16 | Field::Imm16 if encoding == Encoding::Sopc => {
                used[2] = true;
                Operand::Imm(ssrc1)
            }
            Field::Simm16 | Field::Imm16 => {
                used[3] = true;
                Operand::Imm(imm)
            }
            Field::RelAddr => {
                used[3] = true;
                let delta = i64::from(imm as u16 as i16) * 4;
                let target = ctx.offset as i64 + 4 + delta;
                Operand::Target(i32::try_from(target).map_err(|_| DecodeError::Invalid)?)
            }
            Field::Hwreg => {
                used[3] = true;
                Operand::Hwreg(imm as u16)
            }
            Field::Waitcnt => {
                used[3] = true;
                if ctx.version.is_gcn15() && waitcnt_gcn15(imm as u16).is_none() {
                    return Err(DecodeError::Invalid);
                }
                Operand::Waitcnt(imm as u16)
            }
            Field::Sendmsg => {
                used[3] = true;
                if ctx.version.is_gcn15() && sendmsg_gcn15(imm as u16).is_none() {
                    return Err(DecodeError::Invalid);
                }
                Operand::Sendmsg(imm as u16)
            }
            Field::Lit32 => {
                let value = ctx.word(usize::from(len))?;
                len += 1;
                Operand::Literal(value)
            }
            _ => return Err(DecodeError::Invalid),
        };
        instr.operand_array[i] = operand;
    }
    // Fields the row does not use are zero in what the assembler writes.
    for (field, value) in used.iter().zip([sdst, ssrc0, ssrc1, imm]) {
        if !field && value != 0 {
            return Err(DecodeError::Invalid);
        }
    }
    instr.len = len;
    Ok(instr)
}

/// clrxdisasm's hardware register names on GCN 1.5, by id
/// (GCNDisasmDecode.cpp, `hwregNames`); id 0 and ids from 24 on print as
/// `@ID`.
const HWREG_NAMES_GCN15: [&str; 24] = [
    "@0",
    "mode",
    "status",
    "trapsts",
    "hw_id",
    "gpr_alloc",
    "lds_alloc",
    "ib_sts",
    "pc_lo",
    "pc_hi",
    "inst_dw0",
    "inst_dw1",
    "ib_dbg0",
    "ib_dbg1",
    "flush_ib",
    "sh_mem_bases",
    "sq_shader_tba_lo",
    "sq_shader_tba_hi",
    "sq_shader_tma_lo",
    "sq_shader_tma_hi",
    "flat_scr_lo",
    "flat_scr_hi",
    "xnack_mask",
    "pops_packer",
];

/// Writes `hwreg(NAME, OFFSET, SIZE)` (`@ID` for a register without a name
/// on `version`).
pub(crate) fn write_hwreg(f: &mut fmt::Formatter<'_>, v: u16, version: GcnVersion) -> fmt::Result {
    let id = v & 63;
    let offset = v >> 6 & 31;
    let size = (v >> 11 & 31) + 1;
    f.write_str("hwreg(")?;
    let name = if version.is_gcn15() {
        HWREG_NAMES_GCN15.get(usize::from(id)).copied()
    } else {
        name_of(HWREGS, u32::from(id), version)
    };
    match name {
        Some(name) => f.write_str(name)?,
        None => write!(f, "@{id}")?,
    }
    write!(f, ", {offset}, {size})")
}

/// The counters clrxdisasm prints for a GCN 1.5 s_waitcnt immediate
/// (6-bit VM_CNT in bits 3:0 and 15:14, EXP_CNT 6:4, 6-bit LGKM_CNT
/// 13:8): `(name, value)` of each counter below its maximum (all three
/// for 0xff7f), or `None` when reserved bit 7 is set beside a printed
/// counter (clrxdisasm appends ` :0x…`, which does not assemble).
fn waitcnt_gcn15(v: u16) -> Option<Vec<(&'static str, u16)>> {
    let all = v == 0xff7f;
    let mut parts = Vec::new();
    if v & 0xc00f != 0xc00f || all {
        parts.push(("vmcnt", (v >> 10 & 0x30) | (v & 15)));
    }
    if v >> 4 & 7 != 7 || all {
        parts.push(("expcnt", v >> 4 & 7));
    }
    if v >> 8 & 63 != 63 || all {
        parts.push(("lgkmcnt", v >> 8 & 63));
    }
    if v & 0x80 != 0 && !parts.is_empty() {
        return None;
    }
    Some(parts)
}

/// clrxdisasm's message names on GCN 1.5, by id.
const MESSAGES_GCN15: [&str; 16] = [
    "@0",
    "interrupt",
    "gs",
    "gs_done",
    "savewave",
    "stall_wave_gen",
    "halt_waves",
    "ordered_ps_done",
    "early_prim_dealloc",
    "gs_alloc_req",
    "get_doorbell",
    "@11",
    "@12",
    "@13",
    "@14",
    "system",
];

/// A GS operation name and, when printed, its stream.
type GsOp = (&'static str, Option<u16>);

/// What clrxdisasm prints for a GCN 1.5 s_sendmsg immediate: the message
/// name, and the GS operation and stream when it prints them; `None` when
/// bits outside them are set (clrxdisasm appends ` :0x…`).
fn sendmsg_gcn15(v: u16) -> Option<(&'static str, Option<GsOp>)> {
    let msg = v & 15;
    let name = MESSAGES_GCN15[usize::from(msg)];
    let with_op = msg & 14 == 2 || (11..=14).contains(&msg) || v & 0x3f0 != 0;
    let reserved = if with_op { 0xfcc0 } else { 0xfff0 };
    if v & reserved != 0 {
        return None;
    }
    if !with_op {
        return Some((name, None));
    }
    let gsop = v >> 4 & 3;
    let stream = v >> 8 & 3;
    let op = ["nop", "cut", "emit", "emit-cut"][usize::from(gsop)];
    Some((
        name,
        Some((op, (gsop != 0 || stream != 0).then_some(stream))),
    ))
}

/// Writes `vmcnt(N) & expcnt(N) & lgkmcnt(N)` (counters at their maximum
/// are left out), or the plain value when reserved bits are set.
pub(crate) fn write_waitcnt(
    f: &mut fmt::Formatter<'_>,
    v: u16,
    version: GcnVersion,
) -> fmt::Result {
    if version.is_gcn15() {
        let parts = waitcnt_gcn15(v).unwrap_or_default();
        if parts.is_empty() {
            return write!(f, "{v:#x}");
        }
        for (i, (name, n)) in parts.into_iter().enumerate() {
            if i > 0 {
                f.write_str(" & ")?;
            }
            write!(f, "{name}({n})")?;
        }
        return Ok(());
    }
    let gcn14 = version.is_gcn14();
    let reserved = if gcn14 { 0x3080 } else { 0xf080 };
    let vm_max = if gcn14 { 63 } else { 15 };
    let vm = (v & 15) | if gcn14 { (v >> 14 & 3) << 4 } else { 0 };
    let exp = v >> 4 & 7;
    let lgkm = v >> 8 & 15;
    let parts = [
        ("vmcnt", vm, vm_max),
        ("expcnt", exp, 7),
        ("lgkmcnt", lgkm, 15),
    ];
    if v & reserved != 0 || parts.iter().all(|&(_, n, max)| n == max) {
        return write!(f, "{v:#x}");
    }
    let mut first = true;
    for (name, n, max) in parts {
        if n != max {
            if !first {
                f.write_str(" & ")?;
            }
            first = false;
            write!(f, "{name}({n})")?;
        }
    }
    Ok(())
}

/// The first name of `id` in an assembler name table (`HWREGS`,
/// `MESSAGES`) that exists on `version`.
fn name_of(
    table: &'static [(&'static str, u32, GcnVersion)],
    id: u32,
    version: GcnVersion,
) -> Option<&'static str> {
    table
        .iter()
        .find(|&&(_, i, since)| i == id && version >= since)
        .map(|&(name, _, _)| name)
}

/// Writes `sendmsg(MSG[, GSOP[, STREAM]])`, or the plain value when
/// reserved bits are set.
pub(crate) fn write_sendmsg(
    f: &mut fmt::Formatter<'_>,
    v: u16,
    version: GcnVersion,
) -> fmt::Result {
    if version.is_gcn15() {
        let Some((name, op)) = sendmsg_gcn15(v) else {
            return write!(f, "{v:#x}");
        };
        write!(f, "sendmsg({name}")?;
        if let Some((op, stream)) = op {
            write!(f, ", {op}")?;
            if let Some(stream) = stream {
                write!(f, ", {stream}")?;
            }
        }
        return f.write_str(")");
    }
    if v & !0x37f != 0 {
        return write!(f, "{v:#x}");
    }
    let msg = v & 15;
    let gsop = v >> 4 & 7;
    let stream = v >> 8 & 3;
    f.write_str("sendmsg(")?;
    match name_of(MESSAGES, u32::from(msg), version) {
        Some(name) => f.write_str(name)?,
        None => write!(f, "@{msg}")?,
    }
    // GS and GS_DONE always name their operation.
    if gsop != 0 || stream != 0 || msg == 2 || msg == 3 {
        match GS_OPS.iter().find(|&&(_, code)| code == u32::from(gsop)) {
            Some((name, _)) => write!(f, ", {name}")?,
            None => write!(f, ", @{gsop}")?,
        }
        if stream != 0 {
            write!(f, ", {stream}")?;
        }
    }
    f.write_str(")")
}
