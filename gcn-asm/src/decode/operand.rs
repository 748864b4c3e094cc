//! Operands shared by every family: register names, source operand codes,
//! inline constants and literals — both checking that a field holds
//! something the assembler can write, and printing it.

use std::fmt;

use super::{source_slots, DecodeError, Form, Instruction, Label, Operand};
use crate::arch::GcnVersion;
pub(crate) use crate::isa::vocab::VCC;
use crate::isa::vocab::{max_sgprs, ttmp_base, NULL};
use crate::isa::{flags, Field, FloatKind, OperandSpec};

/// The literal operand code.
pub(crate) const LITERAL: u16 = 255;
/// The first VGPR operand code.
pub(crate) const VGPR: u16 = 256;

/// A register range the assembler can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RegText {
    /// `sN` / `s[a:b]`.
    Sgpr(u16, u16),
    /// `vN` / `v[a:b]`.
    Vgpr(u16, u16),
    /// `ttmpN` / `ttmp[a:b]`.
    Ttmp(u16, u16),
    /// A special register (`vcc`, `exec_lo`, `scc` …).
    Named(&'static str),
}

impl fmt::Display for RegText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (prefix, first, count) = match *self {
            RegText::Sgpr(a, n) => ("s", a, n),
            RegText::Vgpr(a, n) => ("v", a, n),
            RegText::Ttmp(a, n) => ("ttmp", a, n),
            RegText::Named(name) => return f.write_str(name),
        };
        if count <= 1 {
            write!(f, "{prefix}{first}")
        } else {
            write!(f, "{prefix}[{first}:{}]", first + count - 1)
        }
    }
}

/// The special scalar registers written by name: (code, count, name).
fn special_scalar(code: u16, count: u16, version: GcnVersion) -> Option<&'static str> {
    use GcnVersion::*;
    let gcn14 = version.is_gcn14();
    let flat = match version {
        Gcn1_0 => None,
        Gcn1_1 => Some(104),
        _ => Some(102),
    };
    let xnack = version.is_gcn12_or_later().then_some(104);
    Some(match (code, count) {
        (106, 2) => "vcc",
        (106, 1) => "vcc_lo",
        (107, 1) => "vcc_hi",
        (126, 2) => "exec",
        (126, 1) => "exec_lo",
        (127, 1) => "exec_hi",
        (124, 1) => "m0",
        (108, 2) if !gcn14 => "tba",
        (108, 1) if !gcn14 => "tba_lo",
        (109, 1) if !gcn14 => "tba_hi",
        (110, 2) if !gcn14 => "tma",
        (110, 1) if !gcn14 => "tma_lo",
        (111, 1) if !gcn14 => "tma_hi",
        (c, 2) if Some(c) == flat => "flat_scratch",
        (c, 1) if Some(c) == flat => "flat_scratch_lo",
        (c, 1) if flat.is_some_and(|f| c == f + 1) => "flat_scratch_hi",
        (c, 2) if Some(c) == xnack => "xnack_mask",
        (c, 1) if Some(c) == xnack => "xnack_mask_lo",
        (c, 1) if xnack.is_some_and(|x| c == x + 1) => "xnack_mask_hi",
        _ => return None,
    })
}

/// The source-only specials (read as a value of any width).
fn special_source(code: u16, version: GcnVersion) -> Option<&'static str> {
    let gcn14 = version.is_gcn14();
    Some(match code {
        // clrxdisasm's spelling on GCN 1.5.
        254 if version.is_gcn15() => "lds",
        235 if gcn14 => "src_shared_base",
        236 if gcn14 => "src_shared_limit",
        237 if gcn14 => "src_private_base",
        238 if gcn14 => "src_private_limit",
        239 if gcn14 => "src_pops_exiting_wave_id",
        251 => "vccz",
        252 => "execz",
        253 => "scc",
        254 => "lds_direct",
        _ => return None,
    })
}

/// The name of `count` registers from operand code `code` (scalar codes
/// 0-127, VGPRs 256-511, source-only specials), if the assembler has one.
pub(crate) fn reg_text(code: u16, count: u16, version: GcnVersion) -> Option<RegText> {
    let count = count.max(1);
    let last = code + count - 1;
    if code >= VGPR {
        return (last < VGPR + 256).then_some(RegText::Vgpr(code - VGPR, count));
    }
    if code >= 128 {
        return special_source(code, version).map(RegText::Named);
    }
    if last < max_sgprs(version) {
        return Some(RegText::Sgpr(code, count));
    }
    // NULL (GCN 1.5) stands for a register of any width.
    if code == NULL && version.is_gcn15() {
        return Some(RegText::Named("null"));
    }
    let (base, n) = ttmp_base(version);
    if code >= base && last < base + n {
        return Some(RegText::Ttmp(code - base, count));
    }
    special_scalar(code, count, version).map(RegText::Named)
}

/// The alignment rule of an operand position (as the encoder checks it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Align {
    /// Scalar instructions: pairs even, larger ranges at multiples of 4.
    Strict,
    /// Vector instructions: a range must not cross a 4-SGPR line.
    Line,
    /// No rule.
    None,
}

/// The alignment rule of the scalar operands of vector instructions:
/// GCN 1.5 has no 4-SGPR line rule (a range may cross one).
pub(crate) fn vector_align(version: GcnVersion) -> Align {
    if version.is_gcn15() {
        Align::None
    } else {
        Align::Line
    }
}

fn aligned(code: u16, count: u16, align: Align) -> bool {
    if code >= 128 || count < 2 {
        return true;
    }
    match align {
        Align::Strict => code.is_multiple_of(if count == 2 { 2 } else { 4 }),
        Align::Line => count > 4 || code / 4 == (code + count - 1) / 4,
        Align::None => true,
    }
}

/// What an operand position accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Accept {
    /// A scalar register (destination, base, VCC-like source).
    Sdst,
    /// A scalar source: scalar register, special source or constant.
    Ssrc,
    /// A VGPR.
    Vgpr,
    /// Any vector-instruction source.
    Src,
}

/// True for the inline constant codes of `version`.
pub(crate) fn is_inline(code: u16, version: GcnVersion) -> bool {
    matches!(code, 128..=208 | 240..=247) || (code == 248 && version.is_gcn12_or_later())
}

/// Checks operand code `code` (not the literal code) in a position, and
/// returns the operand.
pub(crate) fn source(
    code: u16,
    count: u16,
    accept: Accept,
    align: Align,
    version: GcnVersion,
) -> Result<Operand, DecodeError> {
    let scalar = code < 128;
    let vgpr = code >= VGPR;
    let ok = match accept {
        Accept::Sdst => scalar,
        Accept::Vgpr => vgpr,
        // LDS_DIRECT (254) is a vector-instruction source only: clrxasm
        // rejects it in a scalar position.
        Accept::Ssrc => !vgpr && code != 254,
        Accept::Src => true,
    };
    if !ok {
        return Err(DecodeError::Invalid);
    }
    if is_inline(code, version) && matches!(accept, Accept::Ssrc | Accept::Src) {
        return Ok(Operand::Const(code));
    }
    if !scalar && !vgpr && accept == Accept::Sdst {
        return Err(DecodeError::Invalid);
    }
    if reg_text(code, count, version).is_none() || !aligned(code, count, align) {
        return Err(DecodeError::Invalid);
    }
    Ok(Operand::Reg {
        code,
        count: count as u8,
    })
}

/// Like [`source`], with the literal code 255 reading word `at` of the
/// instruction (and growing `len`).
pub(crate) fn source_or_literal(
    ctx: &super::Ctx<'_>,
    code: u16,
    count: u16,
    accept: Accept,
    align: Align,
    len: &mut u8,
) -> Result<Operand, DecodeError> {
    if code == LITERAL && matches!(accept, Accept::Ssrc | Accept::Src) {
        let value = ctx.word(usize::from(*len))?;
        *len += 1;
        return Ok(Operand::Literal(value));
    }
    source(code, count, accept, align, ctx.version)
}

/// Text of an inline float constant for an operand of `kind`.
fn inline_float(code: u16, kind: FloatKind) -> &'static str {
    match code {
        240 => "0.5",
        241 => "-0.5",
        242 => "1.0",
        243 => "-1.0",
        244 => "2.0",
        245 => "-2.0",
        246 => "4.0",
        247 => "-4.0",
        // 1/(2π), as the nearest value of the operand's precision prints.
        _ if kind == FloatKind::Double => "0.15915494309189532",
        _ => "0.15915494",
    }
}

/// Writes an inline constant.
pub(crate) fn write_const(f: &mut fmt::Formatter<'_>, code: u16, kind: FloatKind) -> fmt::Result {
    match code {
        128..=192 => write!(f, "{}", code - 128),
        193..=208 => write!(f, "-{}", code - 192),
        _ => f.write_str(inline_float(code, kind)),
    }
}

/// Writes a literal word for an operand of type `ty` in hexadecimal, as
/// clrxdisasm does (also for float operands: `0x4f800000`, never a decimal
/// such as `4294967300.0`). A source that would be read back as an inline
/// constant gets `lit(…)`; the constant of v_madmk/v_madak (a `lit32`
/// field, always a literal word) is plain, as clrxasm rejects `lit(…)`
/// there. On GCN 1.5 `lit(…)` holds the signed decimal value and covers
/// -16 to 64, as clrxdisasm prints it.
pub(crate) fn write_literal(
    f: &mut fmt::Formatter<'_>,
    word: u32,
    spec: &OperandSpec,
    version: GcnVersion,
) -> fmt::Result {
    if version.is_gcn15() {
        let signed = word as i32;
        return if (-16..=64).contains(&signed) && spec.field != Field::Lit32 {
            write!(f, "lit({signed})")
        } else {
            write!(f, "{word:#x}")
        };
    }
    if word <= 64 && spec.field != Field::Lit32 {
        write!(f, "lit({word:#x})")
    } else {
        write!(f, "{word:#x}")
    }
}

/// Writes a register operand (which [`source`] checked).
pub(crate) fn write_reg(
    f: &mut fmt::Formatter<'_>,
    code: u16,
    count: u8,
    version: GcnVersion,
) -> fmt::Result {
    match reg_text(code, u16::from(count), version) {
        Some(text) => write!(f, "{text}"),
        None => write!(f, "@{code}"),
    }
}

/// Writes one operand without source modifiers.
pub(crate) fn write_plain(
    f: &mut fmt::Formatter<'_>,
    op: &Operand,
    spec: &OperandSpec,
    version: GcnVersion,
) -> fmt::Result {
    match *op {
        Operand::None => Ok(()),
        Operand::Off => f.write_str("off"),
        Operand::Reg { code, count } => write_reg(f, code, count, version),
        // A float constant of a 64-bit vector source (integer too) reads
        // back as a double: 1/(2π) needs its double digits there.
        Operand::Const(code)
            if spec.registers() == 2
                && matches!(spec.field, Field::Src0 | Field::Src1 | Field::Src2) =>
        {
            write_const(f, code, FloatKind::Double)
        }
        Operand::Const(code) => write_const(f, code, spec.ty.float_kind()),
        // An SMRD literal offset up to 255 would be read as an immediate.
        Operand::Literal(w) if spec.field == Field::Soffset => {
            if w <= 255 {
                write!(f, "lit({w:#x})")
            } else {
                write!(f, "{w:#x}")
            }
        }
        Operand::Literal(w) => write_literal(f, w, spec, version),
        // Hexadecimal, signed immediates too, as clrxdisasm prints them
        // (`s_movk_i32 s2, 0x400`; -1234 is `0xfb2e`).
        Operand::Imm(v) => write!(f, "{v:#x}"),
        Operand::Target(t) => write!(f, "{}", Label(i64::from(t))),
        Operand::Hwreg(v) => super::scalar::write_hwreg(f, v, version),
        Operand::Waitcnt(v) => super::scalar::write_waitcnt(f, v, version),
        Operand::Sendmsg(v) => super::scalar::write_sendmsg(f, v, version),
        Operand::Attr { index, chan } => {
            let c = ["x", "y", "z", "w"][usize::from(chan & 3)];
            write!(f, "attr{index}.{c}")
        }
        Operand::InterpParam(p) => f.write_str(match p {
            0 => "p10",
            1 => "p20",
            _ => "p0",
        }),
    }
}

/// Which source modifiers of `op` can be written in place: (neg, abs,
/// sext). A register takes all; a constant takes `|…|` and `sext(…)`, and
/// `-` only in front of `|…|` (`-1` is the constant -1); anything else
/// (an interpolation parameter) takes none — the rest is written as
/// trailing `neg:[…]`/`abs:[…]`/`sext:[…]` (see [`trailing_mods`]).
fn inline_mods(op: &Operand, spec: &OperandSpec, abs: bool) -> (bool, bool, bool) {
    // Register-only and scalar positions are read without modifiers.
    if matches!(
        spec.field,
        Field::Vsrc0 | Field::Vsrc1 | Field::Ssrc0 | Field::Ssrc1 | Field::Ssrc2
    ) {
        return (false, false, false);
    }
    match op {
        Operand::Reg { .. } => (true, true, true),
        Operand::Const(_) | Operand::Literal(_) => (abs, true, true),
        _ => (false, false, false),
    }
}

/// True when the form has per-source modifiers at all.
fn has_source_mods(instr: &Instruction) -> bool {
    match instr.form {
        Form::Native => instr.row.encoding == crate::isa::Encoding::Vop3,
        _ => true,
    }
}

/// Writes the mnemonic and every operand, with per-source `-`, `|…|` and
/// `sext(…)` where they can be written in place.
/// A GCN 1.5 VOP3 form of a VOP1/VOP2/VOPC instruction with a literal
/// (the hardware has it, LLVM emits it): CLRX syntax has no spelling of it
/// (clrxasm rejects clrxdisasm's text, with or without `vop3`), so it is
/// written with LLVM's `_e64` suffix, which gcnasm reads back.
pub(crate) fn promoted_literal(instr: &Instruction) -> bool {
    instr.version.is_gcn15()
        && instr.form == Form::Vop3
        && instr.row.encoding != crate::isa::Encoding::Vop3
        && instr
            .operands()
            .iter()
            .any(|o| matches!(o, Operand::Literal(_)))
}

pub(crate) fn write_operands(f: &mut fmt::Formatter<'_>, instr: &Instruction) -> fmt::Result {
    f.write_str(instr.row.mnemonic)?;
    if promoted_literal(instr) {
        f.write_str("_e64")?;
    }
    let slots = source_slots(instr.row);
    let with_mods = has_source_mods(instr);
    for (i, (op, spec)) in instr.operands().iter().zip(instr.row.operands).enumerate() {
        f.write_str(if i == 0 { " " } else { ", " })?;
        let slot = slots[i];
        let bit = |mask: u8| slot < 3 && with_mods && mask >> slot & 1 != 0;
        let (neg, abs, sext) = (
            bit(instr.mods.neg),
            bit(instr.mods.abs),
            bit(instr.mods.sext),
        );
        // GCN 1.5: in place, as clrxdisasm writes them (the decoder takes
        // only words whose modifiers read back so).
        let (neg_ok, abs_ok, sext_ok) = if instr.version.is_gcn15() {
            (true, true, true)
        } else {
            inline_mods(op, spec, abs)
        };
        let (neg, abs, sext) = (neg && neg_ok, abs && abs_ok, sext && sext_ok);
        if sext {
            f.write_str("sext(")?;
        }
        if neg {
            f.write_str("-")?;
        }
        // clrxdisasm's spelling (`|…|` would also read as the OR operator
        // around a number).
        let (open, close) = ("abs(", ")");
        if abs {
            f.write_str(open)?;
        }
        write_plain(f, op, spec, instr.version)?;
        if abs {
            f.write_str(close)?;
        }
        if sext {
            f.write_str(")")?;
        }
    }
    Ok(())
}

/// The source modifiers (neg, abs, sext masks by slot) that
/// [`write_operands`] could not write in place.
pub(crate) fn trailing_mods(instr: &Instruction) -> (u8, u8, u8) {
    let mut out = (0, 0, 0);
    if !has_source_mods(instr) {
        return out;
    }
    if instr.version.is_gcn15() {
        return out;
    }
    let slots = source_slots(instr.row);
    for ((op, spec), slot) in instr.operands().iter().zip(instr.row.operands).zip(slots) {
        if slot >= 3 {
            continue;
        }
        let bit = |mask: u8| mask >> slot & 1;
        let abs = bit(instr.mods.abs) != 0;
        let (neg_ok, abs_ok, sext_ok) = inline_mods(op, spec, abs);
        if !neg_ok {
            out.0 |= bit(instr.mods.neg) << slot;
        }
        if !abs_ok {
            out.1 |= bit(instr.mods.abs) << slot;
        }
        if !sext_ok {
            out.2 |= bit(instr.mods.sext) << slot;
        }
    }
    out
}

/// Writes ` name:[b0,b1,…]` with `len` elements.
pub(crate) fn write_bits(f: &mut fmt::Formatter<'_>, name: &str, mask: u8, len: u8) -> fmt::Result {
    write!(f, " {name}:[")?;
    for i in 0..len {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{}", mask >> i & 1)?;
    }
    f.write_str("]")
}

/// The register count of a spec, as the encoder reads it.
pub(crate) fn count(spec: &OperandSpec) -> u16 {
    spec.registers()
}

/// True when `row` takes no operands.
pub(crate) fn no_operands(row: &crate::isa::InstrRow) -> bool {
    row.has(flags::NO_OPERANDS) || row.operands.is_empty()
}
