//! Scalar ALU encodings: SOP2, SOP1, SOPK, SOPC and SOPP, with the
//! `hwreg()`, `sendmsg()` and `s_waitcnt` operand syntaxes.

use super::context::{ExprValue, FixupKind, OperandContext, OperandError};
use super::operand::{
    absolute_expression, expect_char, expect_comma, parse_register, parse_source, Accept, Align,
    Literal, Located, Src,
};
use super::{branch_offset, Emitter, Forced, Statement};
use crate::isa::vocab::{GS_OPS, HWREGS, MESSAGES};
use crate::isa::{flags, Encoding, Field};
use crate::syntax::cursor::Cursor;

/// A 16-bit immediate: known now or patched later.
enum Imm {
    Known(u32),
    Deferred(super::context::DeferredExpr, usize, FixupKind),
}

/// Encodes a scalar ALU instruction.
pub(crate) fn encode(
    ctx: &mut dyn OperandContext,
    st: &mut Statement<'_>,
    out: &mut Emitter,
) -> Result<(), OperandError> {
    let row = st.row;
    let mut sdst: u32 = 0;
    let mut ssrc0: u32 = 0;
    let mut ssrc1: u32 = 0;
    let mut imm = Imm::Known(0);
    let mut literal: Option<Located<Literal>> = None;
    let mut extra_literal: Option<Located<Literal>> = None;
    let forced = st.forced;
    let cur = &mut st.cur;

    let optional = row.has(flags::OPTIONAL_IMM) && cur.clone().is_blank();
    if !row.has(flags::NO_OPERANDS) && !optional {
        for (i, spec) in row.operands.iter().enumerate() {
            let what = field_name(spec.field);
            if i > 0 {
                expect_comma(cur, what)?;
            }
            match spec.field {
                Field::Sdst => {
                    sdst = u32::from(
                        parse_register(
                            ctx,
                            cur,
                            Accept::SDST,
                            spec.registers(),
                            Align::Strict,
                            what,
                        )?
                        .value
                        .code,
                    );
                }
                Field::Ssrc0 | Field::Ssrc1 => {
                    let src = parse_source(
                        ctx,
                        cur,
                        Accept::SSRC,
                        spec.registers(),
                        spec.ty.float_kind(),
                        Align::Strict,
                        what,
                    )?;
                    // `_e64` asks for the long form: constants become literals.
                    let src = match src.value {
                        Src::Inline(code) if forced == Forced::E64 => Located {
                            value: Src::Literal(Literal::Known(inline_value(code))),
                            at: src.at,
                        },
                        _ => src,
                    };
                    if let Src::Literal(l) = src.value {
                        if literal.is_some() {
                            return Err(OperandError::new(
                                src.at,
                                "only one literal constant is allowed in an instruction",
                            ));
                        }
                        literal = Some(Located {
                            value: l,
                            at: src.at,
                        });
                    }
                    let code = u32::from(src.value.code());
                    // SOPK keeps its scalar register in the SDST field.
                    if row.encoding == Encoding::Sopk {
                        sdst = code;
                    } else if spec.field == Field::Ssrc0 {
                        ssrc0 = code;
                    } else {
                        ssrc1 = code;
                    }
                }
                Field::Simm16 | Field::Imm16 => {
                    if row.encoding == Encoding::Sopc {
                        // s_set_gpr_idx_on: an 8-bit immediate in the SSRC1 field.
                        match immediate(ctx, cur, 8, false, what)? {
                            Imm::Known(v) => ssrc1 = v,
                            Imm::Deferred(d, at, _) => out_deferred_field(&mut imm, d, at),
                        }
                    } else {
                        imm = immediate(ctx, cur, 16, spec.field == Field::Simm16, what)?;
                    }
                }
                Field::RelAddr => imm = branch_target(ctx, cur)?,
                Field::Hwreg => imm = hwreg(ctx, cur)?,
                Field::Lit32 => {
                    cur.skip_spaces();
                    let at = cur.pos();
                    let src = parse_source(
                        ctx,
                        cur,
                        Accept::SSRC,
                        1,
                        spec.ty.float_kind(),
                        Align::None,
                        what,
                    )?;
                    let lit = match src.value {
                        Src::Literal(l) => l,
                        Src::Inline(code) => Literal::Known(inline_value(code)),
                        Src::Reg(_) => {
                            return Err(OperandError::new(
                                at,
                                format!("{what} must be an immediate value, not a register"),
                            ))
                        }
                    };
                    extra_literal = Some(Located { value: lit, at });
                }
                Field::Waitcnt => imm = waitcnt(ctx, cur)?,
                Field::Sendmsg => imm = sendmsg(ctx, cur)?,
                other => {
                    return Err(OperandError::new(
                        cur.pos(),
                        format!("internal error: field {other:?} in a scalar instruction"),
                    ))
                }
            }
        }
    }

    let op = u32::from(st.opcode);
    let (imm_word, deferred) = match imm {
        Imm::Known(v) => (v & 0xffff, None),
        Imm::Deferred(d, at, kind) => (0, Some((d, at, kind))),
    };
    let word = match row.encoding {
        Encoding::Sop2 => (0b10 << 30) | (op << 23) | (sdst << 16) | (ssrc1 << 8) | ssrc0,
        Encoding::Sop1 => (0b1_0111_1101 << 23) | (sdst << 16) | (op << 8) | ssrc0,
        Encoding::Sopc => (0b1_0111_1110 << 23) | (op << 16) | (ssrc1 << 8) | ssrc0,
        Encoding::Sopk => (0b1011 << 28) | (op << 23) | (sdst << 16) | imm_word,
        _ => (0b1_0111_1111 << 23) | (op << 16) | imm_word,
    };
    let first = out.push(word);
    if let Some((d, at, kind)) = deferred {
        out.fixup(first, kind, d, at);
    }
    for lit in [literal, extra_literal].into_iter().flatten() {
        push_literal(out, lit);
    }
    Ok(())
}

/// Records an SOPC 8-bit immediate that is resolved later.
fn out_deferred_field(imm: &mut Imm, d: super::context::DeferredExpr, at: usize) {
    *imm = Imm::Deferred(
        d,
        at,
        FixupKind::Field {
            word: 0,
            shift: 8,
            bits: 8,
            signed: false,
        },
    );
}

/// Appends a literal dword (and its fix-up when it is deferred).
pub(crate) fn push_literal(out: &mut Emitter, lit: Located<Literal>) {
    match lit.value {
        Literal::Known(v) => {
            out.push(v);
        }
        Literal::Deferred(d) => {
            let word = out.push(0);
            out.fixup(word, FixupKind::Literal32 { word }, d, lit.at);
        }
    }
}

/// The value an inline constant code stands for (for operands that need a
/// literal word).
fn inline_value(code: u16) -> u32 {
    match code {
        128..=192 => u32::from(code - 128),
        193..=208 => (-(i32::from(code) - 192)) as u32,
        240 => 0.5f32.to_bits(),
        241 => (-0.5f32).to_bits(),
        242 => 1.0f32.to_bits(),
        243 => (-1.0f32).to_bits(),
        244 => 2.0f32.to_bits(),
        245 => (-2.0f32).to_bits(),
        246 => 4.0f32.to_bits(),
        247 => (-4.0f32).to_bits(),
        _ => 0x3e22_f983,
    }
}

fn field_name(field: Field) -> &'static str {
    match field {
        Field::Sdst => "destination",
        Field::Ssrc0 => "first source",
        Field::Ssrc1 => "second source",
        Field::Simm16 | Field::Imm16 => "immediate",
        Field::RelAddr => "branch target",
        Field::Hwreg => "hardware register",
        Field::Lit32 => "32-bit immediate",
        Field::Waitcnt => "wait counts",
        Field::Sendmsg => "message",
        _ => "operand",
    }
}

/// Reads an immediate of `bits` bits. A known value outside the range is
/// truncated with a warning (as clrxasm does); a deferred one is checked when
/// it is resolved.
fn immediate(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
    bits: u32,
    signed: bool,
    what: &str,
) -> Result<Imm, OperandError> {
    cur.skip_spaces();
    let at = cur.pos();
    if cur.at_end() || cur.peek() == Some(b',') {
        return Err(OperandError::new(at, format!("missing {what}")));
    }
    match ctx.expression(cur)? {
        ExprValue::Known(v) if v.section.is_none() => {
            let value = v.value;
            let min = if signed { -(1i64 << (bits - 1)) } else { 0 };
            let max = if bits == 16 {
                0xffff
            } else {
                (1i64 << bits) - 1
            };
            let min = if bits == 16 { -0x8000 } else { min };
            if value < min || value > max {
                ctx.warning(
                    at,
                    format!("value {value:#x} is out of range for a {bits}-bit immediate and was truncated"),
                );
            }
            Ok(Imm::Known((value as u32) & ((1u32 << bits) - 1)))
        }
        ExprValue::Known(_) => Err(OperandError::new(
            at,
            format!("{what} must be an absolute value, not an address"),
        )),
        ExprValue::Deferred(d) => Ok(Imm::Deferred(d, at, FixupKind::Imm16)),
    }
}

/// Reads a branch target (`RELADDR`) of a 4-byte instruction.
fn branch_target(ctx: &mut dyn OperandContext, cur: &mut Cursor<'_>) -> Result<Imm, OperandError> {
    cur.skip_spaces();
    let at = cur.pos();
    if cur.at_end() {
        return Err(OperandError::new(at, "missing branch target"));
    }
    match ctx.expression(cur)? {
        ExprValue::Known(v) => {
            let offset = branch_offset(v, ctx.instruction_address(), 4)
                .map_err(|m| OperandError::new(at, m))?;
            Ok(Imm::Known(offset as u32 & 0xffff))
        }
        ExprValue::Deferred(d) => Ok(Imm::Deferred(
            d,
            at,
            FixupKind::Branch16 {
                instruction_size: 4,
            },
        )),
    }
}

/// Reads `hwreg(NAME, OFFSET, SIZE)` (or a plain 16-bit value).
fn hwreg(ctx: &mut dyn OperandContext, cur: &mut Cursor<'_>) -> Result<Imm, OperandError> {
    let version = ctx.version();
    cur.skip_spaces();
    if !cur.eat_keyword("hwreg") {
        return immediate(ctx, cur, 16, false, "hardware register");
    }
    if !cur.eat(b'(') {
        return Err(OperandError::new(cur.pos(), "expected `(` after `hwreg`"));
    }
    cur.skip_spaces();
    let name_at = cur.pos();
    let id = if cur.peek() == Some(b'@') {
        cur.bump(1);
        let v = absolute_expression(ctx, cur, "hardware register number")?;
        if !(0..64).contains(&v) {
            return Err(OperandError::new(
                name_at,
                format!("hardware register number {v} is out of range (0-63)"),
            ));
        }
        v as u32
    } else {
        let Some((name, _)) = cur.symbol() else {
            return Err(OperandError::new(name_at, "missing hardware register name"));
        };
        let lower = name.to_ascii_lowercase();
        let short = lower.strip_prefix("hwreg_").unwrap_or(&lower);
        match HWREGS.iter().find(|(n, _, _)| *n == short) {
            Some(&(_, id, since)) if version >= since => id,
            Some(&(_, _, since)) => {
                return Err(OperandError::new(
                    name_at,
                    format!(
                    "hardware register `{name}` is not available on {version} (only from {since})"
                ),
                ))
            }
            None => {
                return Err(OperandError::new(
                    name_at,
                    format!("unknown hardware register `{name}`"),
                ))
            }
        }
    };
    expect_comma(cur, "bit offset")?;
    cur.skip_spaces();
    let offset_at = cur.pos();
    let offset = absolute_expression(ctx, cur, "bit offset")?;
    if !(0..32).contains(&offset) {
        return Err(OperandError::new(
            offset_at,
            format!("bit offset {offset} is out of range (0-31)"),
        ));
    }
    expect_comma(cur, "bit size")?;
    cur.skip_spaces();
    let size_at = cur.pos();
    let size = absolute_expression(ctx, cur, "bit size")?;
    if !(1..=32).contains(&size) {
        return Err(OperandError::new(
            size_at,
            format!("bit size {size} is out of range (1-32)"),
        ));
    }
    expect_char(cur, b')', "expected `)` to close `hwreg(`")?;
    Ok(Imm::Known(
        id | ((offset as u32) << 6) | (((size - 1) as u32) << 11),
    ))
}

/// Reads `vmcnt(N) & expcnt(N) & lgkmcnt(N)` (any order, `&` optional) or a
/// plain 16-bit value.
fn waitcnt(ctx: &mut dyn OperandContext, cur: &mut Cursor<'_>) -> Result<Imm, OperandError> {
    let version = ctx.version();
    let vm_bits = if version.is_gcn14_or_later() { 6 } else { 4 };
    // GCN 1.5 widens LGKM_CNT to 6 bits (13:8).
    let lgkm_bits = if version.is_gcn15() { 6 } else { 4 };
    let mut vm: u32 = (1 << vm_bits) - 1;
    let mut exp: u32 = 7;
    let mut lgkm: u32 = (1 << lgkm_bits) - 1;
    let mut seen = false;
    loop {
        let mut probe = *cur;
        probe.skip_spaces();
        let at = probe.pos();
        let Some((name, _)) = probe.symbol() else {
            break;
        };
        let lower = name.to_ascii_lowercase();
        let (slot, bits): (&mut u32, u32) = match lower.as_str() {
            "vmcnt" => (&mut vm, vm_bits),
            "expcnt" => (&mut exp, 3),
            "lgkmcnt" => (&mut lgkm, lgkm_bits),
            _ if !seen => break,
            _ => {
                return Err(OperandError::new(
                    at,
                    format!("unknown wait counter `{name}` (expected vmcnt, expcnt or lgkmcnt)"),
                ))
            }
        };
        *cur = probe;
        if !cur.eat(b'(') {
            return Err(OperandError::new(
                cur.pos(),
                format!("expected `(` after `{name}`"),
            ));
        }
        cur.skip_spaces();
        let value_at = cur.pos();
        if cur.peek() == Some(b')') {
            return Err(OperandError::new(
                value_at,
                format!("missing count in `{name}()`"),
            ));
        }
        let value = absolute_expression(ctx, cur, "wait count")?;
        if !cur.eat(b')') {
            return Err(OperandError::new(
                cur.pos(),
                format!("expected `)` after the count of `{name}`"),
            ));
        }
        let max = (1i64 << bits) - 1;
        if !(0..=max).contains(&value) {
            ctx.warning(
                value_at,
                format!("{name} value {value} is out of range (0-{max}) and was truncated"),
            );
        }
        *slot = (value as u32) & max as u32;
        seen = true;
        let mut probe = *cur;
        if probe.eat(b'&') {
            *cur = probe;
        }
    }
    if !seen {
        return immediate(ctx, cur, 16, false, "wait counts");
    }
    let mut value = (vm & 15) | (exp << 4) | (lgkm << 8);
    if version.is_gcn14_or_later() {
        value |= (vm >> 4) << 14;
    }
    Ok(Imm::Known(value))
}

/// Reads `sendmsg(MSG[, GSOP[, STREAM]])` or a plain 16-bit value.
fn sendmsg(ctx: &mut dyn OperandContext, cur: &mut Cursor<'_>) -> Result<Imm, OperandError> {
    let version = ctx.version();
    cur.skip_spaces();
    if !cur.eat_keyword("sendmsg") {
        return immediate(ctx, cur, 16, false, "message");
    }
    if !cur.eat(b'(') {
        return Err(OperandError::new(cur.pos(), "expected `(` after `sendmsg`"));
    }
    cur.skip_spaces();
    let msg_at = cur.pos();
    let (msg, needs_gsop) = if cur.peek() == Some(b'@') {
        cur.bump(1);
        let v = absolute_expression(ctx, cur, "message number")?;
        if !(0..16).contains(&v) {
            return Err(OperandError::new(
                msg_at,
                format!("message number {v} is out of range (0-15)"),
            ));
        }
        (v as u32, false)
    } else {
        let Some((name, _)) = cur.symbol() else {
            return Err(OperandError::new(msg_at, "missing message name"));
        };
        let lower = name.to_ascii_lowercase();
        let short = lower.strip_prefix("msg_").unwrap_or(&lower);
        match MESSAGES.iter().find(|(n, _, _)| *n == short) {
            Some(&(_, id, since)) if version >= since => (id, id == 2 || id == 3),
            Some(&(_, _, since)) => {
                return Err(OperandError::new(
                    msg_at,
                    format!("message `{name}` is not available on {version} (only from {since})"),
                ))
            }
            None => {
                return Err(OperandError::new(
                    msg_at,
                    format!("unknown message `{name}`"),
                ))
            }
        }
    };
    let mut gsop = 0;
    let mut stream = 0;
    if cur.eat(b',') {
        cur.skip_spaces();
        let op_at = cur.pos();
        if cur.peek() == Some(b'@') {
            cur.bump(1);
            let v = absolute_expression(ctx, cur, "GS operation")?;
            if !(0..8).contains(&v) {
                return Err(OperandError::new(
                    op_at,
                    format!("GS operation {v} is out of range (0-7)"),
                ));
            }
            gsop = v as u32;
        } else {
            let Some((name, _)) = cur.symbol() else {
                return Err(OperandError::new(op_at, "missing GS operation"));
            };
            let mut lower = name.to_ascii_lowercase();
            // `emit-cut` is accepted for `emit_cut`.
            if lower.ends_with("emit")
                && cur.rest().len() >= 4
                && cur.rest().as_bytes()[..4].eq_ignore_ascii_case(b"-cut")
            {
                cur.bump(4);
                lower.push_str("_cut");
            }
            let short = lower.strip_prefix("gs_op_").unwrap_or(&lower);
            gsop = GS_OPS
                .iter()
                .find(|(n, _)| *n == short)
                .map(|&(_, v)| v)
                .ok_or_else(|| {
                    OperandError::new(op_at, format!("unknown GS operation `{name}`"))
                })?;
        }
        if cur.eat(b',') {
            cur.skip_spaces();
            let stream_at = cur.pos();
            let v = absolute_expression(ctx, cur, "stream id")?;
            if !(0..4).contains(&v) {
                ctx.warning(
                    stream_at,
                    format!("stream id {v} is out of range (0-3) and was truncated"),
                );
            }
            stream = (v as u32) & 3;
        }
    } else if needs_gsop {
        cur.skip_spaces();
        return Err(OperandError::new(
            cur.pos(),
            "message GS and GS_DONE need a GS operation",
        ));
    }
    expect_char(cur, b')', "expected `)` to close `sendmsg(`")?;
    Ok(Imm::Known(msg | (gsop << 4) | (stream << 8)))
}
