//! Scalar memory encodings: SMRD (GCN 1.0/1.1) and SMEM (GCN 1.2/1.4).

use super::context::{ExprValue, FixupKind, OperandContext, OperandError};
use super::operand::{
    absolute_expression, expect_comma, flag_parameter, literal_word, parse_register, try_register,
    Accept, Align, Literal, Located, Reg, RegParse, M0,
};
use super::scalar::push_literal;
use super::{Emitter, Statement};
use crate::arch::GcnVersion;
use crate::isa::{flags, Field, OperandSpec};
use crate::syntax::cursor::Cursor;

/// The offset operand of a scalar memory instruction.
enum Offset {
    /// An SGPR (or M0) holding the byte offset.
    Register(Reg),
    /// An immediate known now.
    Immediate(i64, usize),
    /// An immediate resolved later.
    Deferred(super::context::DeferredExpr, usize),
    /// A forced 32-bit literal (`lit(…)`, SMRD on GCN 1.1).
    Literal(Located<Literal>),
}

/// A deferred `s_atc_probe` mode, patched into the SDATA field.
type SdataFixup = Option<(super::context::DeferredExpr, usize)>;

/// Reads the data, base and offset operands common to SMRD and SMEM.
/// Returns (sdata field, sbase field, offset, deferred probe mode).
fn operands(
    ctx: &mut dyn OperandContext,
    st: &mut Statement<'_>,
) -> Result<(u32, u32, Option<Offset>, SdataFixup), OperandError> {
    let row = st.row;
    let cur = &mut st.cur;
    let mut sdata = 0u32;
    let mut sbase = 0u32;
    let mut offset = None;
    let mut sdata_fixup = None;
    if row.has(flags::NO_OPERANDS) {
        return Ok((0, 0, None, None));
    }
    for (i, spec) in row.operands.iter().enumerate() {
        if i > 0 {
            expect_comma(cur, name(spec))?;
        }
        match spec.field {
            Field::Sdata | Field::Sdst => {
                sdata = u32::from(
                    parse_register(
                        ctx,
                        cur,
                        Accept::SDST,
                        spec.registers(),
                        Align::Strict,
                        "data register",
                    )?
                    .value
                    .code,
                );
            }
            Field::Imm16 | Field::Simm16 => {
                // s_atc_probe*: a 7-bit immediate in the SDATA field.
                cur.skip_spaces();
                let at = cur.pos();
                match ctx.expression(cur)? {
                    ExprValue::Known(v) if v.section.is_none() => {
                        if !(0..128).contains(&v.value) {
                            ctx.warning(
                                at,
                                format!(
                                    "value {:#x} does not fit in 7 bits and was truncated",
                                    v.value
                                ),
                            );
                        }
                        sdata = (v.value as u32) & 0x7f;
                    }
                    ExprValue::Known(_) => {
                        return Err(OperandError::new(
                            at,
                            "the probe mode must be an absolute value",
                        ))
                    }
                    ExprValue::Deferred(d) => sdata_fixup = Some((d, at)),
                }
            }
            Field::Sbase => {
                let base = parse_register(
                    ctx,
                    cur,
                    Accept::SDST,
                    spec.registers(),
                    Align::None,
                    "base address register",
                )?;
                if base.value.code % 2 != 0 {
                    return Err(OperandError::new(
                        base.at,
                        "the base register range must start at an even SGPR",
                    ));
                }
                sbase = u32::from(base.value.code >> 1);
            }
            Field::Soffset => offset = Some(offset_operand(ctx, cur)?),
            other => {
                return Err(OperandError::new(
                    cur.pos(),
                    format!("internal error: field {other:?} in a scalar memory instruction"),
                ))
            }
        }
    }
    Ok((sdata, sbase, offset, sdata_fixup))
}

fn name(spec: &OperandSpec) -> &'static str {
    match spec.field {
        Field::Sbase => "base address register",
        Field::Soffset => "offset",
        _ => "operand",
    }
}

fn offset_operand(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
) -> Result<Offset, OperandError> {
    cur.skip_spaces();
    let at = cur.pos();
    if cur.at_end() {
        return Err(OperandError::new(at, "missing offset"));
    }
    if cur.peek() == Some(b'@') {
        cur.bump(1);
    } else {
        if cur.eat_keyword("lit") {
            let mut probe = *cur;
            if probe.eat(b'(') {
                *cur = probe;
                let inner = cur.pos();
                let lit = match ctx.expression(cur)? {
                    ExprValue::Known(v) => Literal::Known(literal_word(ctx, v.value, inner)),
                    ExprValue::Deferred(d) => Literal::Deferred(d),
                };
                if !cur.eat(b')') {
                    return Err(OperandError::new(cur.pos(), "expected `)` after lit(…"));
                }
                return Ok(Offset::Literal(Located { value: lit, at }));
            }
            cur.set_pos(at);
        }
        match try_register(ctx, cur, Some(Accept::SDST))? {
            RegParse::Reg(reg) if reg.code < 128 && !reg.is_vgpr() => {
                if reg.count != 1 {
                    return Err(OperandError::new(
                        at,
                        "the offset register must be a single SGPR",
                    ));
                }
                ctx.register_used(reg.code, 1);
                return Ok(Offset::Register(reg));
            }
            RegParse::Reg(reg) if reg.is_vgpr() => {
                return Err(OperandError::new(
                    at,
                    "the offset must be an SGPR, M0 or an immediate, not a VGPR",
                ))
            }
            RegParse::Constant(_) => {
                return Err(OperandError::new(
                    at,
                    "the offset must be an SGPR or an immediate",
                ))
            }
            // Special registers such as `vccz` are not offsets: read the
            // name as a symbol instead.
            _ => cur.set_pos(at),
        }
    }
    let value = ctx.expression(cur)?;
    if let ExprValue::Known(v) = &value {
        arg_offset_unit(ctx, &cur.text()[at..cur.pos()], v.value, at);
    }
    match value {
        ExprValue::Known(v) if v.section.is_none() => Ok(Offset::Immediate(v.value, at)),
        ExprValue::Known(_) => Err(OperandError::new(
            at,
            "the offset must be an absolute value, not an address",
        )),
        ExprValue::Deferred(d) => Ok(Offset::Deferred(d, at)),
    }
}

/// Warns of an argument-offset symbol (`KERNEL::NAME`, a byte offset in
/// the kernel input buffer) used as an offset in the wrong unit: as it is
/// on GCN 1.0/1.1, whose SMRD offset counts dwords, or divided by 4 on GCN
/// 1.2+, whose SMEM offset counts bytes. `text` is the offset expression,
/// `value` its value; only the two exact forms `SYM` and `SYM/4` are
/// judged (anything else may be deliberate).
fn arg_offset_unit(ctx: &mut dyn OperandContext, text: &str, value: i64, at: usize) {
    fn symbol(text: &str) -> Option<&str> {
        let name = text.trim();
        let bare = name.strip_prefix("::").unwrap_or(name);
        let ok = bare.contains("::")
            && bare.starts_with(|c: char| c.is_ascii_alphabetic() || matches!(c, '_' | '.'))
            && bare
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$' | ':'));
        ok.then_some(name)
    }
    let dwords = !ctx.version().is_gcn12_or_later();
    let (name, divided) = match text.split_once('/') {
        Some((left, right)) if right.trim() == "4" => match symbol(left) {
            Some(name) => (name, true),
            None => return,
        },
        Some(_) => return,
        None => match symbol(text) {
            Some(name) => (name, false),
            None => return,
        },
    };
    if !ctx.is_arg_offset_symbol(name) {
        return;
    }
    let message = match (dwords, divided) {
        (true, false) => format!(
            "`{name}` is a byte offset ({value}) but the SMRD offset of GCN 1.0/1.1 counts \
             dwords: write `{name}/4`"
        ),
        (false, true) => format!(
            "`{name}/4` is a dword offset ({value}) but the SMEM offset of GCN 1.2+ counts \
             bytes: write `{name}`"
        ),
        _ => return,
    };
    ctx.warning(at, message);
}

/// Encodes an SMRD instruction (GCN 1.0/1.1).
pub(crate) fn encode_smrd(
    ctx: &mut dyn OperandContext,
    st: &mut Statement<'_>,
    out: &mut Emitter,
) -> Result<(), OperandError> {
    let (sdata, sbase, offset, _) = operands(ctx, st)?;
    let mut imm = 0u32;
    let mut field = 0u32;
    let mut literal = None;
    let mut deferred = None;
    match offset {
        None => {}
        Some(Offset::Register(r)) => field = u32::from(r.code),
        Some(Offset::Immediate(v, at)) => {
            if (0..=255).contains(&v) {
                imm = 1;
                field = v as u32;
            } else if st.version == GcnVersion::Gcn1_1 {
                field = 255;
                literal = Some(Located {
                    value: Literal::Known(literal_word(ctx, v, at)),
                    at,
                });
            } else {
                ctx.warning(
                    at,
                    format!("offset {v:#x} does not fit in 8 bits and was truncated"),
                );
                imm = 1;
                field = (v as u32) & 0xff;
            }
        }
        Some(Offset::Deferred(d, at)) => {
            imm = 1;
            deferred = Some((d, at));
        }
        Some(Offset::Literal(lit)) => {
            if st.version != GcnVersion::Gcn1_1 {
                return Err(OperandError::new(
                    lit.at,
                    "a literal offset is available only on GCN 1.1",
                ));
            }
            field = 255;
            literal = Some(lit);
        }
    }
    let word = (0b11000 << 27)
        | (u32::from(st.opcode) << 22)
        | (sdata << 15)
        | (sbase << 9)
        | (imm << 8)
        | field;
    let first = out.push(word);
    if let Some((d, at)) = deferred {
        out.fixup(first, FixupKind::SmrdOffset8, d, at);
    }
    if let Some(lit) = literal {
        push_literal(out, lit);
    }
    Ok(())
}

/// Encodes an SMEM instruction (GCN 1.2/1.4).
pub(crate) fn encode_smem(
    ctx: &mut dyn OperandContext,
    st: &mut Statement<'_>,
    out: &mut Emitter,
) -> Result<(), OperandError> {
    let (sdata, sbase, offset, sdata_fixup) = operands(ctx, st)?;
    let gcn14 = st.version.is_gcn14();
    let gcn15 = st.version.is_gcn15();
    let writes_memory = st.row.has(flags::STORE) || st.row.has(flags::ATOMIC);
    let mut glc = false;
    let mut dlc = false;
    let mut nv = false;
    let mut offset_modifier: Option<(i64, usize)> = None;
    let cur = &mut st.cur;
    loop {
        cur.skip_spaces();
        if cur.at_end() {
            break;
        }
        let at = cur.pos();
        let Some((word, _)) = cur.symbol() else {
            break;
        };
        match word.to_ascii_lowercase().as_str() {
            "glc" => glc = flag_parameter(ctx, cur)?,
            "nv" if gcn14 || gcn15 => nv = flag_parameter(ctx, cur)?,
            "dlc" if gcn15 => dlc = flag_parameter(ctx, cur)?,
            "offset" if gcn14 => {
                if !cur.eat(b':') {
                    return Err(OperandError::new(cur.pos(), "expected `:` after `offset`"));
                }
                offset_modifier = Some((absolute_expression(ctx, cur, "offset")?, at));
            }
            _ => {
                return Err(OperandError::new(
                    at,
                    format!("unknown modifier `{word}` for a scalar memory instruction"),
                ))
            }
        }
    }

    let mut imm = 0u32;
    let mut soe = 0u32;
    let mut soffset = 0u32;
    let mut offset_field = 0u32;
    let mut deferred = None;
    let offset_bits = if gcn14 { 21 } else { 20 };
    let immediate = |v: i64, at: usize, ctx: &mut dyn OperandContext| -> u32 {
        let fits = if gcn14 {
            (-(1i64 << 20)..(1i64 << 21)).contains(&v)
        } else {
            (0..(1i64 << 20)).contains(&v)
        };
        if !fits {
            ctx.warning(
                at,
                format!("offset {v:#x} does not fit in {offset_bits} bits and was truncated"),
            );
        }
        (v as u32) & ((1u32 << offset_bits) - 1)
    };
    if gcn15 {
        // GCN 1.5 always has both offsets: the SGPR one (NULL with an
        // immediate offset) and the immediate (CLRX takes 20 unsigned
        // bits); an instruction without an offset leaves both 0.
        let null = u32::from(crate::isa::vocab::NULL);
        match offset {
            None => {}
            Some(Offset::Register(r)) => soffset = u32::from(r.code),
            Some(Offset::Immediate(v, at)) => {
                soffset = null;
                offset_field = immediate(v, at, ctx);
            }
            Some(Offset::Deferred(d, at)) => {
                soffset = null;
                deferred = Some((d, at));
            }
            Some(Offset::Literal(lit)) => {
                return Err(OperandError::new(
                    lit.at,
                    "SMEM instructions have no literal offset",
                ))
            }
        }
        let word0 = (0b111101 << 26)
            | (u32::from(st.opcode) << 18)
            | (u32::from(glc) << 16)
            | (u32::from(nv) << 15)
            | (u32::from(dlc) << 14)
            | (sdata << 6)
            | sbase;
        let first = out.push(word0);
        out.push(offset_field | (soffset << 25));
        if let Some((d, at)) = deferred {
            out.fixup(first, FixupKind::SmemOffset20, d, at);
        }
        if let Some((d, at)) = sdata_fixup {
            let kind = FixupKind::Field {
                word: 0,
                shift: 6,
                bits: 7,
                signed: false,
            };
            out.fixup(first, kind, d, at);
        }
        return Ok(());
    }
    match offset {
        None => {}
        Some(Offset::Register(r)) => {
            if writes_memory && !gcn14 && r.code != M0 {
                return Err(OperandError::new(
                    0,
                    "on GCN 1.2 scalar stores and atomics take only M0 or an immediate as offset",
                ));
            }
            if let Some((v, at)) = offset_modifier {
                imm = 1;
                soe = 1;
                soffset = u32::from(r.code);
                offset_field = immediate(v, at, ctx);
            } else {
                offset_field = u32::from(r.code);
            }
        }
        Some(Offset::Immediate(v, at)) => {
            if let Some((_, mat)) = offset_modifier {
                return Err(OperandError::new(
                    mat,
                    "`offset:` needs an SGPR as the offset operand (the immediate is already given)",
                ));
            }
            imm = 1;
            offset_field = immediate(v, at, ctx);
        }
        Some(Offset::Deferred(d, at)) => {
            if let Some((_, mat)) = offset_modifier {
                return Err(OperandError::new(
                    mat,
                    "`offset:` needs an SGPR as the offset operand (the immediate is already given)",
                ));
            }
            imm = 1;
            deferred = Some((d, at));
        }
        Some(Offset::Literal(lit)) => {
            return Err(OperandError::new(
                lit.at,
                "SMEM instructions have no literal offset",
            ))
        }
    }
    let word0 = (0b110000 << 26)
        | (u32::from(st.opcode) << 18)
        | (imm << 17)
        | (u32::from(glc) << 16)
        | (u32::from(nv) << 15)
        | (soe << 14)
        | (sdata << 6)
        | sbase;
    let first = out.push(word0);
    out.push(offset_field | (soffset << 25));
    if let Some((d, at)) = deferred {
        let kind = if gcn14 {
            FixupKind::SmemOffset21
        } else {
            FixupKind::SmemOffset20
        };
        out.fixup(first, kind, d, at);
    }
    if let Some((d, at)) = sdata_fixup {
        let kind = FixupKind::Field {
            word: 0,
            shift: 6,
            bits: 7,
            signed: false,
        };
        out.fixup(first, kind, d, at);
    }
    Ok(())
}
