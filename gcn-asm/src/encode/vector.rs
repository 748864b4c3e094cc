//! Vector ALU encodings: VOP2, VOP1 and VOPC (32-bit forms), VOP3A/VOP3B,
//! VOP3P, and the SDWA and DPP extensions of GCN 1.2/1.4.
//!
//! Operands are read first, modifiers after them; then the shortest
//! encoding that can express everything is chosen (unless a suffix such as
//! `_e64` or a `vop3` modifier forces one) and the operand rules of that
//! encoding are checked.

use super::context::{OperandContext, OperandError};
use super::operand::{
    absolute_expression, bit_array_value, describe, expect_char, expect_comma, flag_parameter,
    parse_register, parse_source, try_register, Accept, Align, Literal, Located, RegParse, Src,
    LDS_DIRECT, VCC,
};
use super::scalar::push_literal;
use super::{Emitter, Forced, Statement};
use crate::arch::GcnVersion;
use crate::isa::vocab::{op_sel_bits, vop3_opcode};
use crate::isa::{flags, Encoding, Field, FloatKind};
use crate::syntax::cursor::Cursor;

/// A vector source with its modifiers.
#[derive(Debug, Clone, Copy)]
pub(crate) struct VSrc {
    pub src: Src,
    pub neg: bool,
    pub abs: bool,
    pub sext: bool,
    pub at: usize,
}

/// Reads one source with optional `-`, `abs()`/`|…|` and `sext()`.
pub(crate) fn parse_vsrc(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
    accept: Accept,
    count: u16,
    kind: FloatKind,
    what: &str,
) -> Result<VSrc, OperandError> {
    cur.skip_spaces();
    let at = cur.pos();
    let mut sext = false;
    {
        let mut probe = *cur;
        if matches!(probe.peek(), Some(b's' | b'S')) && probe.eat_keyword("sext") && probe.eat(b'(')
        {
            *cur = probe;
            sext = true;
        }
    }
    let mut neg = false;
    cur.skip_spaces();
    if cur.peek() == Some(b'-') {
        let mut probe = *cur;
        probe.bump(1);
        probe.skip_spaces();
        let rest = probe.rest();
        let modifier_follows = rest.starts_with('|')
            || (rest.len() > 3 && rest.as_bytes()[..3].eq_ignore_ascii_case(b"abs") && {
                let mut p = probe;
                p.eat_keyword("abs") && p.eat(b'(')
            });
        let register_follows = !modifier_follows && {
            let mut p = probe;
            matches!(try_register(ctx, &mut p, None), Ok(RegParse::Reg(_)))
        };
        if modifier_follows || register_follows {
            neg = true;
            *cur = probe;
        }
    }
    let mut abs = false;
    let mut closing = None;
    {
        let mut probe = *cur;
        if matches!(probe.peek(), Some(b'a' | b'A')) && probe.eat_keyword("abs") && probe.eat(b'(')
        {
            *cur = probe;
            abs = true;
            closing = Some(b')');
        } else if cur.eat(b'|') {
            abs = true;
            closing = Some(b'|');
        }
    }
    let align = vector_align(ctx);
    let src = parse_source(ctx, cur, accept, count, kind, align, what)?;
    if let Some(c) = closing {
        if !cur.eat(c) {
            cur.skip_spaces();
            return Err(OperandError::new(
                cur.pos(),
                format!("expected `{}` to close the absolute value", c as char),
            ));
        }
    }
    if sext && !cur.eat(b')') {
        cur.skip_spaces();
        return Err(OperandError::new(
            cur.pos(),
            "expected `)` to close `sext(`",
        ));
    }
    Ok(VSrc {
        src: src.value,
        neg,
        abs,
        sext,
        at,
    })
}

/// The alignment rule of a vector instruction's scalar operands: before
/// GCN 1.5 a range must not cross a 4-SGPR line; clrxasm has no such rule
/// on GCN 1.5.
fn vector_align(ctx: &dyn OperandContext) -> Align {
    if ctx.version().is_gcn15() {
        Align::None
    } else {
        Align::Line
    }
}

/// Every modifier a vector instruction may carry, as written.
#[derive(Debug, Default, Clone)]
pub(crate) struct Modifiers {
    pub clamp: Option<(bool, usize)>,
    pub omod: Option<(u32, usize)>,
    pub vop3: bool,
    pub abs: u32,
    pub neg: u32,
    pub sext: u32,
    pub op_sel: Option<(u32, Option<u32>, usize)>,
    pub op_sel_hi: Option<(u32, usize)>,
    pub neg_lo: Option<(u32, usize)>,
    pub neg_hi: Option<(u32, usize)>,
    pub high: Option<(bool, usize)>,
    pub sdwa: Sdwa,
    pub dpp: Dpp,
    /// Position of the first modifier of each kind, for messages.
    pub first_sdwa: Option<usize>,
    pub first_dpp: Option<usize>,
    pub first_vop3: Option<usize>,
}

/// SDWA fields.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Sdwa {
    pub dst_sel: Option<u32>,
    pub dst_unused: Option<u32>,
    pub src0_sel: Option<u32>,
    pub src1_sel: Option<u32>,
}

/// DPP fields.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Dpp {
    pub ctrl: Option<u32>,
    pub bank_mask: Option<u32>,
    pub row_mask: Option<u32>,
    pub bound_ctrl: bool,
    /// GCN 1.5 `fi` (fetch inactive lanes): DPP16 bit 18, DPP8's marker.
    pub fi: Option<bool>,
    /// GCN 1.5 `dpp8:[…]`: eight 3-bit lane selects.
    pub dpp8: Option<u32>,
}

/// Reads the modifiers after the operands. `allow_high` accepts `high`
/// (interpolation instructions).
pub(crate) fn parse_modifiers(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
    allow_high: bool,
) -> Result<Modifiers, OperandError> {
    let version = ctx.version();
    let gcn12 = version.is_gcn12_or_later();
    let gcn14 = version.is_gcn14_or_later();
    let gcn15 = version.is_gcn15();
    let mut m = Modifiers::default();
    loop {
        cur.skip_spaces();
        if cur.at_end() {
            return Ok(m);
        }
        let at = cur.pos();
        let Some((word, _)) = cur.symbol() else {
            return Err(OperandError::new(
                at,
                format!("unexpected `{}` after the operands", cur.rest().trim_end()),
            ));
        };
        let lower = word.to_ascii_lowercase();
        let vop3 = |m: &mut Modifiers| {
            m.first_vop3.get_or_insert(at);
        };
        match lower.as_str() {
            "clamp" => m.clamp = Some((flag_parameter(ctx, cur)?, at)),
            "mul" | "div" => {
                if !cur.eat(b':') {
                    return Err(OperandError::new(
                        cur.pos(),
                        format!("expected `:` and a factor after `{word}`"),
                    ));
                }
                cur.skip_spaces();
                let vat = cur.pos();
                let v = absolute_expression(ctx, cur, word)?;
                let omod = match (lower.as_str(), v) {
                    (_, 1) => 0,
                    ("mul", 2) => 1,
                    ("mul", 4) => 2,
                    ("div", 2) => 3,
                    _ => {
                        return Err(OperandError::new(
                            vat,
                            format!(
                            "`{word}:{v}` is not an output modifier (use mul:2, mul:4 or div:2)"
                        ),
                        ))
                    }
                };
                m.omod = Some((omod, at));
            }
            "omod" => {
                if !cur.eat(b':') {
                    return Err(OperandError::new(cur.pos(), "expected `:` after `omod`"));
                }
                cur.skip_spaces();
                let vat = cur.pos();
                let v = absolute_expression(ctx, cur, "omod")?;
                if !(0..4).contains(&v) {
                    return Err(OperandError::new(
                        vat,
                        format!("omod value {v} is out of range (0-3)"),
                    ));
                }
                m.omod = Some((v as u32, at));
            }
            "vop3" => {
                m.vop3 = flag_parameter(ctx, cur)?;
                if m.vop3 {
                    vop3(&mut m);
                }
            }
            "abs" => m.abs |= bit_array_value(ctx, cur, "abs", 3)?,
            "neg" => m.neg |= bit_array_value(ctx, cur, "neg", 3)?,
            "sext" if gcn12 => {
                m.sext |= bit_array_value(ctx, cur, "sext", 3)?;
                m.first_sdwa.get_or_insert(at);
            }
            "op_sel" if gcn14 => {
                let (mask, len) = bit_array_with_len(ctx, cur, "op_sel", 4)?;
                m.op_sel = Some((mask, len, at));
            }
            "op_sel_hi" if gcn14 => {
                m.op_sel_hi = Some((bit_array_value(ctx, cur, "op_sel_hi", 3)?, at))
            }
            "neg_lo" if gcn14 => m.neg_lo = Some((bit_array_value(ctx, cur, "neg_lo", 3)?, at)),
            "neg_hi" if gcn14 => m.neg_hi = Some((bit_array_value(ctx, cur, "neg_hi", 3)?, at)),
            "high" if allow_high => m.high = Some((flag_parameter(ctx, cur)?, at)),
            "dst_sel" | "src0_sel" | "src1_sel" if gcn12 => {
                let sel = sdwa_sel(ctx, cur, word)?;
                match lower.as_str() {
                    "dst_sel" => m.sdwa.dst_sel = Some(sel),
                    "src0_sel" => m.sdwa.src0_sel = Some(sel),
                    _ => m.sdwa.src1_sel = Some(sel),
                }
                m.first_sdwa.get_or_insert(at);
            }
            "dst_unused" | "dst_un" if gcn12 => {
                m.sdwa.dst_unused = Some(sdwa_unused(ctx, cur, word)?);
                m.first_sdwa.get_or_insert(at);
            }
            "quad_perm" if gcn12 => {
                m.dpp.ctrl = Some(quad_perm(ctx, cur)?);
                m.first_dpp.get_or_insert(at);
            }
            "row_shl" | "row_shr" | "row_ror" if gcn12 => {
                let base = match lower.as_str() {
                    "row_shl" => 0x100,
                    "row_shr" => 0x110,
                    _ => 0x120,
                };
                if !cur.eat(b':') {
                    return Err(OperandError::new(
                        cur.pos(),
                        format!("expected `:` and a shift after `{word}`"),
                    ));
                }
                cur.skip_spaces();
                let vat = cur.pos();
                let v = absolute_expression(ctx, cur, word)?;
                if !(1..=15).contains(&(v & 15)) || v < 0 {
                    return Err(OperandError::new(
                        vat,
                        format!("`{word}` shift {v} is out of range (1-15)"),
                    ));
                }
                if v > 15 {
                    ctx.warning(
                        vat,
                        format!("`{word}` shift {v} was truncated to {}", v & 15),
                    );
                }
                m.dpp.ctrl = Some(base + (v as u32 & 15));
                m.first_dpp.get_or_insert(at);
            }
            "wave_shl" | "wave_rol" | "wave_shr" | "wave_ror" if gcn12 && !gcn15 => {
                let code = match lower.as_str() {
                    "wave_shl" => 0x130,
                    "wave_rol" => 0x134,
                    "wave_shr" => 0x138,
                    _ => 0x13c,
                };
                if cur.eat(b':') {
                    cur.skip_spaces();
                    let vat = cur.pos();
                    let v = absolute_expression(ctx, cur, word)?;
                    if v != 1 {
                        return Err(OperandError::new(vat, format!("`{word}` shifts by 1 only")));
                    }
                }
                m.dpp.ctrl = Some(code);
                m.first_dpp.get_or_insert(at);
            }
            "row_mirror" if gcn12 => {
                m.dpp.ctrl = Some(0x140);
                m.first_dpp.get_or_insert(at);
            }
            "row_half_mirror" | "row_hmirror" if gcn12 => {
                m.dpp.ctrl = Some(0x141);
                m.first_dpp.get_or_insert(at);
            }
            "row_bcast" if gcn12 && !gcn15 => {
                if !cur.eat(b':') {
                    return Err(OperandError::new(
                        cur.pos(),
                        "expected `:15` or `:31` after `row_bcast`",
                    ));
                }
                cur.skip_spaces();
                let vat = cur.pos();
                let v = absolute_expression(ctx, cur, word)?;
                m.dpp.ctrl = Some(match v {
                    15 => 0x142,
                    31 => 0x143,
                    _ => return Err(OperandError::new(vat, "`row_bcast` takes 15 or 31")),
                });
                m.first_dpp.get_or_insert(at);
            }
            "row_bcast15" if gcn12 && !gcn15 => {
                m.dpp.ctrl = Some(0x142);
                m.first_dpp.get_or_insert(at);
            }
            "row_bcast31" if gcn12 && !gcn15 => {
                m.dpp.ctrl = Some(0x143);
                m.first_dpp.get_or_insert(at);
            }
            "row_share" | "row_xmask" if gcn15 => {
                if !cur.eat(b':') {
                    return Err(OperandError::new(
                        cur.pos(),
                        format!("expected `:` and a lane after `{word}`"),
                    ));
                }
                cur.skip_spaces();
                let vat = cur.pos();
                let v = absolute_expression(ctx, cur, word)?;
                if !(0..16).contains(&v) {
                    ctx.warning(
                        vat,
                        format!("`{word}` value {v:#x} was truncated to 4 bits"),
                    );
                }
                let base = if lower == "row_share" { 0x150 } else { 0x160 };
                m.dpp.ctrl = Some(base | (v as u32 & 15));
                m.first_dpp.get_or_insert(at);
            }
            // clrxasm's `sdwa`/`dpp`: the encoding with default fields.
            "sdwa" if gcn12 => {
                if flag_parameter(ctx, cur)? {
                    m.first_sdwa.get_or_insert(at);
                }
            }
            "dpp" if gcn12 => {
                if flag_parameter(ctx, cur)? {
                    m.first_dpp.get_or_insert(at);
                }
            }
            "fi" if gcn15 => {
                m.dpp.fi = Some(flag_parameter(ctx, cur)?);
                m.first_dpp.get_or_insert(at);
            }
            "dpp8" if gcn15 => {
                m.dpp.dpp8 = Some(dpp8(ctx, cur)?);
                m.first_dpp.get_or_insert(at);
            }
            "bank_mask" | "row_mask" if gcn12 => {
                if !cur.eat(b':') {
                    return Err(OperandError::new(
                        cur.pos(),
                        format!("expected `:` and a mask after `{word}`"),
                    ));
                }
                cur.skip_spaces();
                let vat = cur.pos();
                let v = absolute_expression(ctx, cur, word)?;
                if !(0..16).contains(&v) {
                    ctx.warning(
                        vat,
                        format!("`{word}` value {v:#x} was truncated to 4 bits"),
                    );
                }
                if lower == "bank_mask" {
                    m.dpp.bank_mask = Some(v as u32 & 15);
                } else {
                    m.dpp.row_mask = Some(v as u32 & 15);
                }
                m.first_dpp.get_or_insert(at);
            }
            "bound_ctrl" if gcn12 => {
                // `bound_ctrl`, `bound_ctrl:0` and `bound_ctrl:1` all set the
                // bit (clrxasm compatibility); `bound_ctrl:B:EXPR` sets it to EXPR.
                let mut on = true;
                if cur.eat(b':') {
                    cur.skip_spaces();
                    let vat = cur.pos();
                    let v = absolute_expression(ctx, cur, word)?;
                    if v != 0 && v != 1 {
                        return Err(OperandError::new(vat, "`bound_ctrl` takes 0 or 1"));
                    }
                    if cur.eat(b':') {
                        on = absolute_expression(ctx, cur, word)? != 0;
                    }
                }
                m.dpp.bound_ctrl = on;
                m.first_dpp.get_or_insert(at);
            }
            _ => {
                const GCN12_MODIFIERS: &[&str] = &[
                    "sdwa",
                    "dpp",
                    "sext",
                    "dst_sel",
                    "src0_sel",
                    "src1_sel",
                    "dst_unused",
                    "dst_un",
                    "quad_perm",
                    "row_shl",
                    "row_shr",
                    "row_ror",
                    "wave_shl",
                    "wave_rol",
                    "wave_shr",
                    "wave_ror",
                    "row_mirror",
                    "row_half_mirror",
                    "row_hmirror",
                    "row_bcast",
                    "row_bcast15",
                    "row_bcast31",
                    "bank_mask",
                    "row_mask",
                    "bound_ctrl",
                ];
                const GCN14_MODIFIERS: &[&str] = &["op_sel", "op_sel_hi", "neg_lo", "neg_hi"];
                const GCN15_MODIFIERS: &[&str] = &["row_share", "row_xmask", "fi", "dpp8"];
                const GONE_IN_GCN15: &[&str] = &[
                    "wave_shl",
                    "wave_rol",
                    "wave_shr",
                    "wave_ror",
                    "row_bcast",
                    "row_bcast15",
                    "row_bcast31",
                ];
                let message = if gcn15 && GONE_IN_GCN15.contains(&lower.as_str()) {
                    format!("DPP control `{word}` does not exist on {version} (GCN 1.2-1.4 only)")
                } else if GCN15_MODIFIERS.contains(&lower.as_str()) {
                    format!("modifier `{word}` (DPP16/DPP8) needs GCN 1.5, not {version}")
                } else if GCN12_MODIFIERS.contains(&lower.as_str()) {
                    format!("modifier `{word}` (SDWA/DPP) needs GCN 1.2 or later, not {version}")
                } else if GCN14_MODIFIERS.contains(&lower.as_str()) {
                    format!("modifier `{word}` needs GCN 1.4, not {version}")
                } else if lower == "high" {
                    format!("modifier `{word}` is only for interpolation instructions")
                } else {
                    format!("unknown modifier `{word}`")
                };
                return Err(OperandError::new(at, message));
            }
        }
    }
}

/// Like [`bit_array_value`] but also returns the number of array elements
/// (`None` for a plain number).
fn bit_array_with_len(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
    name: &str,
    max_bits: u32,
) -> Result<(u32, Option<u32>), OperandError> {
    let mut probe = *cur;
    let is_array = probe.eat(b':') && probe.eat(b'[');
    let start = cur.pos();
    let mask = bit_array_value(ctx, cur, name, max_bits)?;
    let len = if is_array {
        let list = cur
            .text()
            .as_bytes()
            .get(start..cur.pos())
            .unwrap_or_default();
        Some(list.iter().filter(|&&b| b == b',').count() as u32 + 1)
    } else {
        None
    };
    Ok((mask, len))
}

/// SDWA operand selections by name.
const SDWA_SELECTIONS: &[(&str, u32)] = &[
    ("byte0", 0),
    ("byte_0", 0),
    ("b0", 0),
    ("byte1", 1),
    ("byte_1", 1),
    ("b1", 1),
    ("byte2", 2),
    ("byte_2", 2),
    ("b2", 2),
    ("byte3", 3),
    ("byte_3", 3),
    ("b3", 3),
    ("word0", 4),
    ("word_0", 4),
    ("w0", 4),
    ("word1", 5),
    ("word_1", 5),
    ("w1", 5),
    ("dword", 6),
    ("dw", 6),
    ("d", 6),
];

/// `dst_unused` values by name.
const SDWA_UNUSED: &[(&str, u32)] = &[
    ("pad", 0),
    ("unused_pad", 0),
    ("sext", 1),
    ("unused_sext", 1),
    ("preserve", 2),
    ("unused_preserve", 2),
];

fn sdwa_sel(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
    name: &str,
) -> Result<u32, OperandError> {
    named_value(ctx, cur, name, SDWA_SELECTIONS, "byte0-3, word0-1 or dword")
}

fn sdwa_unused(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
    name: &str,
) -> Result<u32, OperandError> {
    named_value(ctx, cur, name, SDWA_UNUSED, "pad, sext or preserve")
}

/// Reads `:NAME` (one of `names`, case-insensitive) or `:@EXPR` (a number
/// up to the largest named value) after the modifier `modifier`.
fn named_value(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
    modifier: &str,
    names: &[(&str, u32)],
    expected: &str,
) -> Result<u32, OperandError> {
    expect_char(
        cur,
        b':',
        format!("expected `:` and a value after `{modifier}`"),
    )?;
    cur.skip_spaces();
    let at = cur.pos();
    let max = names.iter().map(|&(_, v)| v).max().unwrap_or(0);
    if cur.peek() == Some(b'@') {
        cur.bump(1);
        let v = absolute_expression(ctx, cur, modifier)?;
        if !(0..=i64::from(max)).contains(&v) {
            return Err(OperandError::new(
                at,
                format!("`{modifier}` value {v} is out of range (0-{max})"),
            ));
        }
        return Ok(v as u32);
    }
    let Some((word, _)) = cur.symbol() else {
        return Err(OperandError::new(
            at,
            format!("missing value after `{modifier}:`"),
        ));
    };
    names
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(word))
        .map(|&(_, v)| v)
        .ok_or_else(|| {
            OperandError::new(
                at,
                format!("unknown `{modifier}` value `{word}` (expected {expected})"),
            )
        })
}

fn quad_perm(ctx: &mut dyn OperandContext, cur: &mut Cursor<'_>) -> Result<u32, OperandError> {
    if !cur.eat(b':') || !cur.eat(b'[') {
        cur.skip_spaces();
        return Err(OperandError::new(
            cur.pos(),
            "expected `:[a,b,c,d]` after `quad_perm`",
        ));
    }
    let mut value = 0;
    for i in 0..4 {
        if i > 0 && !cur.eat(b',') {
            cur.skip_spaces();
            return Err(OperandError::new(
                cur.pos(),
                "`quad_perm` takes four lane numbers",
            ));
        }
        cur.skip_spaces();
        let at = cur.pos();
        if cur.peek() == Some(b',') || cur.peek() == Some(b']') {
            return Err(OperandError::new(at, "missing lane number in `quad_perm`"));
        }
        let v = absolute_expression(ctx, cur, "quad_perm")?;
        if !(0..4).contains(&v) {
            return Err(OperandError::new(
                at,
                format!("lane number {v} is out of range (0-3)"),
            ));
        }
        value |= (v as u32) << (2 * i);
    }
    expect_char(cur, b']', "expected `]` to close `quad_perm`")?;
    Ok(value)
}

/// In wave32 a lane mask given as a pair gets a message that says why.
fn wave32_hint(e: OperandError, declared: u16, mask_regs: u16) -> OperandError {
    if declared == 2 && mask_regs == 1 && e.message.contains("takes 1 register") {
        OperandError::new(
            e.at,
            format!(
                "{} (in wave32 a lane mask is one SGPR: `vcc_lo`, `sN`)",
                e.message
            ),
        )
    } else {
        e
    }
}

/// Reads `:[a,b,c,d,e,f,g,h]` after `dpp8`: eight lane selects of 3 bits
/// (larger values are truncated with a warning, as clrxasm does).
fn dpp8(ctx: &mut dyn OperandContext, cur: &mut Cursor<'_>) -> Result<u32, OperandError> {
    cur.skip_spaces();
    let colon = cur.eat(b':');
    cur.skip_spaces();
    if !colon || !cur.eat(b'[') {
        return Err(OperandError::new(
            cur.pos(),
            "expected `:[a,b,c,d,e,f,g,h]` after `dpp8`",
        ));
    }
    let mut value = 0;
    for i in 0..8 {
        cur.skip_spaces();
        if i > 0 {
            if !cur.eat(b',') {
                return Err(OperandError::new(
                    cur.pos(),
                    "`dpp8` takes eight lane numbers",
                ));
            }
            cur.skip_spaces();
        }
        let at = cur.pos();
        if cur.peek() == Some(b',') || cur.peek() == Some(b']') {
            return Err(OperandError::new(at, "missing lane number in `dpp8`"));
        }
        let v = absolute_expression(ctx, cur, "dpp8")?;
        if !(0..8).contains(&v) {
            ctx.warning(at, format!("lane number {v:#x} was truncated to 3 bits"));
        }
        value |= (v as u32 & 7) << (3 * i);
    }
    cur.skip_spaces();
    expect_char(cur, b']', "expected `]` to close `dpp8`")?;
    Ok(value)
}

/// The operands of a vector instruction, by encoding slot.
#[derive(Debug, Default)]
struct Operands {
    /// VGPR destination (code - 256 in the field).
    vdst: Option<Located<u16>>,
    /// Scalar destination (VOPC result, VOP3B carry-out, v_readlane).
    sdst: Option<Located<u16>>,
    /// Sources by slot.
    srcs: [Option<VSrc>; 3],
    /// Number of source slots the instruction has.
    nsrcs: usize,
    /// The constant of v_madmk/v_madak.
    lit32: Option<Located<Literal>>,
    /// Slot of a VGPR-only source or scalar lane select (v_readlane).
    scalar_slot1: bool,
    /// SGPRs of a lane mask (VCC, a carry, a compare result): 1 in wave32.
    mask_regs: u16,
}

fn slot_of(field: Field) -> Option<usize> {
    match field {
        Field::Src0 | Field::Vsrc0 | Field::Ssrc0 => Some(0),
        Field::Src1 | Field::Vsrc1 | Field::Ssrc1 => Some(1),
        Field::Src2 | Field::Ssrc2 => Some(2),
        _ => None,
    }
}

fn read_operands(
    ctx: &mut dyn OperandContext,
    st: &mut Statement<'_>,
) -> Result<Operands, OperandError> {
    let row = st.row;
    let cur = &mut st.cur;
    let gcn15 = st.version.is_gcn15();
    let mask_regs = if gcn15 && ctx.wave32() { 1 } else { 2 };
    // Before GCN 1.5 a scalar range must not cross a 4-SGPR line.
    let align = if gcn15 { Align::None } else { Align::Line };
    let mut ops = Operands {
        mask_regs,
        ..Operands::default()
    };
    if row.has(flags::NO_OPERANDS) {
        return Ok(ops);
    }
    for (i, spec) in row.operands.iter().enumerate() {
        let what = match spec.field {
            Field::Vdst => "destination",
            Field::Sdst => "scalar destination",
            Field::Src0 | Field::Vsrc0 | Field::Ssrc0 => "first source",
            Field::Src1 | Field::Vsrc1 | Field::Ssrc1 => "second source",
            Field::Src2 => "third source",
            Field::Ssrc2 => "carry-in/condition source",
            Field::Lit32 => "constant",
            _ => "operand",
        };
        if i > 0 {
            expect_comma(cur, what)?;
        }
        let mut count = spec.registers();
        // A 64-bit scalar destination or carry-in of a vector instruction
        // is a lane mask: one SGPR in wave32.
        if matches!(spec.field, Field::Sdst | Field::Ssrc2) && count == 2 {
            count = mask_regs;
        }
        match spec.field {
            Field::Vdst => {
                let r = parse_register(ctx, cur, Accept::VGPR, count, Align::None, what)?;
                ops.vdst = Some(Located {
                    value: r.value.code,
                    at: r.at,
                });
            }
            Field::Sdst => {
                let r = parse_register(ctx, cur, Accept::SDST, count, align, what)
                    .map_err(|e| wave32_hint(e, spec.registers(), mask_regs))?;
                ops.sdst = Some(Located {
                    value: r.value.code,
                    at: r.at,
                });
            }
            Field::Src0 | Field::Src1 | Field::Src2 => {
                let slot = slot_of(spec.field).unwrap_or(0);
                // clrxasm reads a float literal for any 64-bit vector
                // source as a double (its high half), integer types too.
                let kind = if count == 2 {
                    FloatKind::Double
                } else {
                    spec.ty.float_kind()
                };
                let v = parse_vsrc(ctx, cur, Accept::SRC, count, kind, what)?;
                ops.srcs[slot] = Some(v);
                ops.nsrcs = ops.nsrcs.max(slot + 1);
            }
            Field::Vsrc0 | Field::Vsrc1 => {
                let slot = slot_of(spec.field).unwrap_or(0);
                let r = parse_register(ctx, cur, Accept::VGPR, count, Align::None, what)?;
                ops.srcs[slot] = Some(VSrc {
                    src: Src::Reg(r.value),
                    neg: false,
                    abs: false,
                    sext: false,
                    at: r.at,
                });
                ops.nsrcs = ops.nsrcs.max(slot + 1);
            }
            Field::Ssrc0 | Field::Ssrc1 | Field::Ssrc2 => {
                let slot = slot_of(spec.field).unwrap_or(0);
                let accept = if spec.field == Field::Ssrc2 {
                    Accept::SDST
                } else {
                    Accept::SSRC
                };
                let align = vector_align(ctx);
                let s = parse_source(ctx, cur, accept, count, spec.ty.float_kind(), align, what)
                    .map_err(|e| wave32_hint(e, spec.registers(), mask_regs))?;
                ops.srcs[slot] = Some(VSrc {
                    src: s.value,
                    neg: false,
                    abs: false,
                    sext: false,
                    at: s.at,
                });
                ops.nsrcs = ops.nsrcs.max(slot + 1);
                if slot == 1 {
                    ops.scalar_slot1 = true;
                }
            }
            Field::Lit32 => {
                cur.skip_spaces();
                let at = cur.pos();
                let s = parse_source(
                    ctx,
                    cur,
                    Accept {
                        scalar: false,
                        vector: false,
                        special_sources: false,
                        constants: true,
                    },
                    1,
                    spec.ty.float_kind(),
                    Align::None,
                    what,
                )?;
                let lit = match s.value {
                    Src::Literal(l) => l,
                    Src::Inline(code) => {
                        Literal::Known(inline_constant_value(code, spec.ty.float_kind()))
                    }
                    Src::Reg(_) => {
                        return Err(OperandError::new(
                            at,
                            "the constant must be an immediate value",
                        ))
                    }
                };
                ops.lit32 = Some(Located { value: lit, at });
            }
            other => {
                return Err(OperandError::new(
                    cur.pos(),
                    format!("internal error: field {other:?} in a vector instruction"),
                ))
            }
        }
    }
    Ok(ops)
}

/// The literal value an inline constant stands for, in the operand's format.
fn inline_constant_value(code: u16, kind: FloatKind) -> u32 {
    const FLOATS: [f32; 8] = [0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0];
    match code {
        128..=192 => u32::from(code - 128),
        193..=208 => (-(i32::from(code) - 192)) as u32,
        240..=247 => {
            let f = FLOATS[usize::from(code - 240)];
            match kind {
                FloatKind::Half => u32::from(half::f16::from_f32(f).to_bits()),
                FloatKind::Single => f.to_bits(),
                FloatKind::Double => (f64::from(f).to_bits() >> 32) as u32,
            }
        }
        _ => match kind {
            FloatKind::Half => 0x3118,
            FloatKind::Single => 0x3e22_f983,
            FloatKind::Double => 0x3fc4_5f30,
        },
    }
}

/// The chosen encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Choice {
    E32,
    Vop3,
    Sdwa,
    Dpp,
    Vop3p,
}

/// Encodes a VOP2/VOP1/VOPC/VOP3/VOP3P instruction.
#[inline]
pub(crate) fn encode(
    ctx: &mut dyn OperandContext,
    st: &mut Statement<'_>,
    out: &mut Emitter,
) -> Result<(), OperandError> {
    if st
        .row
        .operands
        .iter()
        .any(|o| matches!(o.field, Field::Attr | Field::InterpParam))
    {
        return super::vintrp::encode(ctx, st, out);
    }
    let operand_text = st.cur.rest();
    let operand_base = st.cur.pos();
    let mut ops = match read_operands(ctx, st) {
        Ok(ops) => ops,
        Err(e) => return Err(carry_hint(st, operand_text, operand_base).unwrap_or(e)),
    };
    // Most instructions carry no modifiers.
    let mut m = if st.cur.is_blank() {
        Modifiers::default()
    } else {
        parse_modifiers(ctx, &mut st.cur, false)?
    };
    // Bit-mask modifiers apply to the sources they name.
    for (i, src) in ops.srcs.iter_mut().enumerate() {
        if let Some(s) = src {
            s.abs |= m.abs >> i & 1 != 0;
            s.neg |= m.neg >> i & 1 != 0;
            s.sext |= m.sext >> i & 1 != 0;
        }
    }
    let sext_used = ops.srcs.iter().flatten().any(|s| s.sext);
    if sext_used {
        m.first_sdwa.get_or_insert(
            ops.srcs
                .iter()
                .flatten()
                .find(|s| s.sext)
                .map_or(0, |s| s.at),
        );
    }
    let row = st.row;
    let version = st.version;
    let choice = choose(st, &ops, &m)?;
    // DPP sources are VGPRs, and GCN 1.2 SDWA sources too (both checked
    // with clearer messages by their encoders).
    if choice == Choice::E32 || (choice == Choice::Sdwa && version.is_gcn14_or_later()) {
        // The carry-in/condition `vcc` has no field in these encodings.
        let bus_srcs = if ops.scalar_slot1 {
            [ops.srcs[0], None]
        } else {
            [ops.srcs[0], ops.srcs[1]]
        };
        let name = if choice == Choice::Sdwa {
            "an SDWA"
        } else {
            "a 32-bit"
        };
        check_constant_bus(
            &bus_srcs,
            &implicit_reads(st, &ops, true),
            name,
            st.mnemonic,
            version,
        )?;
        // GCN 1.5's constant bus takes a literal and an SGPR together.
        if choice == Choice::E32 && !version.is_gcn15() {
            check_literal_with_sgpr(&ops)?;
        }
    }
    match choice {
        Choice::E32 => encode_e32(st, &ops, &m, out),
        Choice::Vop3 => encode_vop3(ctx, st, &ops, &m, out),
        Choice::Sdwa => encode_sdwa(st, &ops, &m, out),
        Choice::Dpp => encode_dpp(st, &ops, &m, out),
        Choice::Vop3p => encode_vop3p(st, &ops, &m, out, row.has(flags::MIX), version),
    }
}

/// The operands of `text` split at top-level commas (brackets and
/// parentheses nest), with their byte offsets in `text`.
fn split_operands(text: &str) -> Vec<(usize, &str)> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'[' | b'(' => depth += 1,
            b']' | b')' => depth -= 1,
            b',' if depth == 0 => {
                parts.push((start, &text[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push((start, &text[start..]));
    parts
}

/// The GCN 1.4 carry form of a carry-less mnemonic: `v_add_u32` →
/// `v_add_co_u32` (and the reverse), when it exists on `version`.
pub(crate) fn carry_counterpart(mnemonic: &str, version: GcnVersion) -> Option<String> {
    let lower = mnemonic.to_ascii_lowercase();
    let other = if let Some(stem) = lower.strip_suffix("_co_u32") {
        format!("{stem}_u32")
    } else {
        format!("{}_co_u32", lower.strip_suffix("_u32")?)
    };
    crate::isa::rows(&other)
        .iter()
        .any(|r| r.opcode(version).is_some() && r.has(flags::VOP3B))
        .then_some(other)
}

/// A porting hint for an add/sub whose operands do not fit its row on this
/// version because the carry changed between GCN versions: on GCN 1.4 the
/// plain `v_add_u32` has no carry-out (the carry form is `v_add_co_u32`);
/// before it, `v_add_u32` always writes one (`v_add_u32 v0, vcc, s6, v0`).
fn carry_hint(st: &Statement<'_>, text: &str, base: usize) -> Option<OperandError> {
    let row = st.row;
    if row.encoding != Encoding::Vop2 {
        return None;
    }
    let written = split_operands(text);
    let expected = row.operands.len();
    // Where the second operand starts (the carry destination's place).
    let second_at = written
        .get(1)
        .map_or(0, |&(at, t)| base + at + (t.len() - t.trim_start().len()));
    let has_carry_out = row.operand(Field::Sdst).is_some();
    if written.len() == expected + 1 && !has_carry_out {
        let co = carry_counterpart(st.mnemonic, st.version)?;
        return Some(OperandError::new(
            second_at,
            format!(
                "`{}` has no carry-out on {}: the carry form is `{co}`",
                st.mnemonic, st.version
            ),
        ));
    }
    if written.len() + 1 == expected && has_carry_out && row.has(flags::VOP3B) {
        let first = written[0].1;
        let rest: Vec<&str> = written[1..].iter().map(|(_, t)| t.trim()).collect();
        return Some(OperandError::new(
            second_at,
            format!(
                "`{m}` on {v} writes a carry-out: it needs the carry destination (`vcc` or an \
                 SGPR pair) after the vector destination, as in `{m} {}, vcc, {}`",
                first.trim(),
                rest.join(", "),
                m = st.mnemonic,
                v = st.version
            ),
        ));
    }
    None
}

fn is_vcc(r: &Option<Located<u16>>) -> bool {
    r.is_none_or(|r| r.value == VCC)
}

/// LLVM's `_e64` spelling on GCN 1.5: the VOP3 form of a VOP1/VOP2/VOPC
/// instruction then takes a literal, as the hardware and llvm-mc do
/// (clrxasm takes none there; its plain and `vop3` spellings stay
/// rejected, as clrxasm rejects them).
fn llvm_e64_literal(st: &Statement<'_>) -> bool {
    st.version.is_gcn15() && st.forced == Forced::E64
}

/// Where the VOP3 form takes a literal in LLVM's spelling (GCN 1.5): the
/// hint naming it in a "takes no literal" error.
fn e64_hint(st: &Statement<'_>) -> String {
    if st.version.is_gcn15() {
        format!(" (GCN 1.5 has the form: write `{}_e64`)", st.mnemonic)
    } else {
        String::new()
    }
}

fn choose(st: &Statement<'_>, ops: &Operands, m: &Modifiers) -> Result<Choice, OperandError> {
    let row = st.row;
    if m.first_sdwa.is_some() && m.first_dpp.is_some() {
        return Err(OperandError::new(
            m.first_dpp.unwrap_or(0),
            "SDWA and DPP modifiers cannot be mixed",
        ));
    }
    let packed_only = m.op_sel_hi.or(m.neg_lo).or(m.neg_hi).map(|(_, at)| at);
    if matches!(row.encoding, Encoding::Vop3 | Encoding::Vop3p) {
        if let Some(at) = m.first_sdwa.or(m.first_dpp) {
            return Err(OperandError::new(
                at,
                format!("`{}` has no SDWA or DPP form", st.mnemonic),
            ));
        }
        let forced = match st.forced {
            Forced::E32 => Some("32-bit"),
            Forced::Sdwa => Some("SDWA"),
            Forced::Dpp => Some("DPP"),
            Forced::Auto | Forced::E64 => None,
        };
        if let Some(name) = forced {
            return Err(OperandError::new(
                0,
                format!("`{}` has no {name} encoding", st.mnemonic),
            ));
        }
        if row.encoding == Encoding::Vop3p {
            if let Some(at) = m.first_vop3 {
                return Err(OperandError::new(
                    at,
                    "`vop3` is not a modifier of packed instructions",
                ));
            }
            return Ok(Choice::Vop3p);
        }
    }
    if let Some(at) = packed_only {
        return Err(OperandError::new(
            at,
            "`op_sel_hi`, `neg_lo` and `neg_hi` are only for packed (VOP3P) instructions",
        ));
    }
    if row.encoding == Encoding::Vop3 {
        return Ok(Choice::Vop3);
    }
    let sdwa_wanted = st.forced == Forced::Sdwa || m.first_sdwa.is_some();
    let dpp_wanted = st.forced == Forced::Dpp || m.first_dpp.is_some();
    if sdwa_wanted || dpp_wanted {
        let (flag, name) = if sdwa_wanted {
            (flags::NO_SDWA, "SDWA")
        } else {
            (flags::NO_DPP, "DPP")
        };
        if !st.version.is_gcn12_or_later() {
            return Err(OperandError::new(
                0,
                format!("{name} encodings exist only on GCN 1.2 and later"),
            ));
        }
        if row.has(flag) {
            return Err(OperandError::new(
                m.first_sdwa.or(m.first_dpp).unwrap_or(0),
                format!("`{}` has no {name} form", st.mnemonic),
            ));
        }
        // The SDWA/DPP word carries SRC0 (a VGPR): an instruction without
        // one (v_nop, v_clrexcp) has no such form, as clrxasm says.
        if ops.srcs[0].is_none() {
            return Err(OperandError::new(
                m.first_sdwa.or(m.first_dpp).unwrap_or(0),
                format!(
                    "`{}` has no first source, so it has no {name} form (the {name} word \
                     carries a VGPR first source)",
                    st.mnemonic
                ),
            ));
        }
        if st.forced == Forced::E64 || m.vop3 || st.forced == Forced::E32 {
            return Err(OperandError::new(
                m.first_sdwa.or(m.first_dpp).unwrap_or(0),
                format!("{name} modifiers conflict with the forced encoding"),
            ));
        }
        return Ok(if sdwa_wanted {
            Choice::Sdwa
        } else {
            Choice::Dpp
        });
    }
    // Reasons the 32-bit encoding cannot be used.
    let mut reason: Option<(usize, String)> = None;
    let mut need = |at: usize, why: &str| {
        if reason.is_none() {
            reason = Some((at, why.to_string()));
        }
    };
    if st.forced == Forced::E64 || m.vop3 {
        need(m.first_vop3.unwrap_or(0), "VOP3 is forced");
    }
    if let Some((_, at)) = m.clamp.filter(|c| c.0) {
        need(at, "`clamp` needs the VOP3 encoding");
    }
    if let Some((_, at)) = m.omod.filter(|o| o.0 != 0) {
        need(at, "output modifiers need the VOP3 encoding");
    }
    if let Some((_, _, at)) = m.op_sel {
        need(at, "`op_sel` needs the VOP3 encoding");
    }
    for s in ops.srcs.iter().flatten() {
        if s.abs || s.neg {
            need(s.at, "source modifiers need the VOP3, SDWA or DPP encoding");
        }
    }
    if !is_vcc(&ops.sdst) && row.encoding != Encoding::Vop1 && ops.vdst.is_some() {
        need(
            ops.sdst.map_or(0, |s| s.at),
            "a carry-out other than VCC needs the VOP3 encoding",
        );
    }
    if row.encoding == Encoding::Vopc && !is_vcc(&ops.sdst) {
        need(
            ops.sdst.map_or(0, |s| s.at),
            "a compare result other than VCC needs the VOP3 encoding",
        );
    }
    if let Some(s) = ops.srcs[2] {
        if row.encoding != Encoding::Vop3
            && !matches!(s.src, Src::Reg(r) if r.code == VCC && r.count == ops.mask_regs)
        {
            need(
                s.at,
                "a condition/carry-in other than VCC needs the VOP3 encoding",
            );
        }
    }
    if let Some(s) = ops.srcs[1] {
        if !ops.scalar_slot1 && !s.src.is_vgpr() && row.encoding != Encoding::Vop1 {
            need(
                s.at,
                "the second source must be a VGPR in the 32-bit encoding",
            );
        }
    }
    if let Some(s) = ops.srcs[1] {
        let only_reason = reason.as_ref().is_some_and(|(at, _)| *at == s.at);
        if only_reason
            && matches!(s.src, Src::Literal(_))
            && !ops.scalar_slot1
            && !llvm_e64_literal(st)
        {
            return Err(OperandError::new(
                s.at,
                format!(
                    "the second source of `{}` must be a VGPR in the 32-bit encoding, and the \
                     VOP3 encoding takes no literal in CLRX syntax: a literal can only be the \
                     first source{}",
                    st.mnemonic,
                    e64_hint(st)
                ),
            ));
        }
    }
    match reason {
        None => Ok(Choice::E32),
        Some((at, why)) => {
            if st.forced == Forced::E32 {
                return Err(OperandError::new(
                    at,
                    format!("cannot use the 32-bit encoding: {why}"),
                ));
            }
            if row.has(flags::NO_VOP3) {
                return Err(OperandError::new(
                    at,
                    format!("`{}` has no VOP3 form: {why}", st.mnemonic),
                ));
            }
            Ok(Choice::Vop3)
        }
    }
}

fn literal_of(s: &VSrc) -> Option<Located<Literal>> {
    match s.src {
        Src::Literal(l) => Some(Located { value: l, at: s.at }),
        _ => None,
    }
}

fn encode_e32(
    st: &Statement<'_>,
    ops: &Operands,
    _m: &Modifiers,
    out: &mut Emitter,
) -> Result<(), OperandError> {
    let row = st.row;
    let op = u32::from(st.opcode);
    let src0 = ops.srcs[0].map_or(0, |s| u32::from(s.src.code()));
    let vsrc1 = ops.srcs[1].map_or(0, |s| u32::from(s.src.code()) & 0xff);
    let dst = match (ops.vdst, ops.sdst) {
        (Some(v), _) => u32::from(v.value) & 0xff,
        (None, Some(s)) if row.encoding != Encoding::Vopc => u32::from(s.value),
        _ => 0,
    };
    let mut literal = ops.srcs[0].as_ref().and_then(literal_of);
    if let Some(s) = ops.srcs[1].as_ref().and_then(literal_of) {
        return Err(OperandError::new(
            s.at,
            "the second source cannot be a literal",
        ));
    }
    if let Some(k) = ops.lit32 {
        // A first source literal equal to the constant shares its word (as
        // clrxasm and its disassembler have it).
        if let Some(l) = literal.filter(|l| l.value != k.value) {
            return Err(OperandError::new(
                l.at,
                "only one literal constant is allowed in an instruction",
            ));
        }
        literal = Some(k);
    }
    let word = match row.encoding {
        Encoding::Vop2 => (op << 25) | (dst << 17) | (vsrc1 << 9) | src0,
        Encoding::Vop1 => (0b011_1111 << 25) | (dst << 17) | (op << 9) | src0,
        _ => (0b011_1110 << 25) | (op << 17) | (vsrc1 << 9) | src0,
    };
    out.push(word);
    if let Some(l) = literal {
        push_literal(out, l);
    }
    Ok(())
}

/// Checks the VOP3 operand rules: no literal, one SGPR on the constant bus,
/// LDS_DIRECT only in SRC0.
pub(crate) fn check_vop3_sources(
    srcs: &[Option<VSrc>; 3],
    version: GcnVersion,
) -> Result<(), OperandError> {
    for (i, s) in srcs.iter().enumerate() {
        let Some(s) = s else { continue };
        match s.src {
            Src::Literal(_) if !version.is_gcn15() => {
                return Err(OperandError::new(
                    s.at,
                    "literal constants are not allowed in the VOP3 encoding before GCN 1.5",
                ))
            }
            Src::Reg(r) if r.code == LDS_DIRECT && i > 0 => {
                return Err(OperandError::new(
                    s.at,
                    "LDS_DIRECT can only be the first source",
                ))
            }
            _ => {}
        }
    }
    vop3_literal(srcs)?;
    check_constant_bus(srcs, &[], "a VOP3", "", version)
}

/// The one literal of a GCN 1.5 VOP3/VOP3P instruction (its third dword):
/// several sources may name it only with the same value.
fn vop3_literal(srcs: &[Option<VSrc>; 3]) -> Result<Option<Located<Literal>>, OperandError> {
    let mut found: Option<Located<Literal>> = None;
    for s in srcs.iter().flatten() {
        let Some(lit) = literal_of(s) else { continue };
        match found {
            Some(prev) if prev.value != lit.value => {
                return Err(OperandError::new(
                    lit.at,
                    "only one literal constant is allowed in an instruction",
                ))
            }
            Some(_) => {}
            None => found = Some(lit),
        }
    }
    Ok(found)
}

/// A scalar register an instruction reads without a source field for it.
#[derive(Debug, Clone, Copy)]
struct ImplicitRead {
    code: u16,
    count: u16,
}

/// The scalar registers `st`'s row reads implicitly (its `reads:` list in
/// the table) plus, when `slot2_implicit`, the written `vcc` of the
/// 32-bit VOP2 carry-in/condition (which has no field in that encoding).
fn implicit_reads(st: &Statement<'_>, ops: &Operands, slot2_implicit: bool) -> Vec<ImplicitRead> {
    let mut reads = Vec::new();
    if slot2_implicit && ops.srcs[2].is_some() {
        reads.push(ImplicitRead {
            code: VCC,
            count: ops.mask_regs,
        });
    }
    for (code, count) in st.row.implicit_sgpr_reads(st.version) {
        let count = if code == VCC { ops.mask_regs } else { count };
        reads.push(ImplicitRead { code, count });
    }
    reads
}

/// The constant-bus rule of every VALU encoding (CLRX docs: "only one SGPR
/// can be read by instruction. Multiple occurrences of this same SGPR is
/// allowed"): counts each distinct scalar register (range) read, whether
/// written in a source field (`srcs`) or read implicitly (`implicit`: VCC
/// of `v_div_fmas_*` and of the 32-bit carry/condition forms, M0 of
/// `v_movrel*`). The error points at the written operand that makes the
/// second read.
fn check_constant_bus(
    srcs: &[Option<VSrc>],
    implicit: &[ImplicitRead],
    encoding: &str,
    mnemonic: &str,
    version: GcnVersion,
) -> Result<(), OperandError> {
    if version.is_gcn15() {
        return check_constant_bus_gcn15(srcs, implicit, mnemonic);
    }
    let mut first: Option<(u16, u16)> = None;
    for r in implicit {
        match first {
            Some(prev) if prev != (r.code, r.count) => {
                // Two different implicit reads cannot be written wrongly by
                // the user; no row has them.
                return Err(OperandError::new(
                    0,
                    format!("`{mnemonic}` reads more than one SGPR implicitly"),
                ));
            }
            _ => first = Some((r.code, r.count)),
        }
    }
    let implicit_first = first;
    for s in srcs.iter().flatten() {
        let Src::Reg(r) = s.src else { continue };
        if r.code >= 128 {
            continue;
        }
        match first {
            Some(prev) if prev != (r.code, r.count) => {
                let message = match implicit_first {
                    Some((code, count)) if first == implicit_first => format!(
                        "only one SGPR can be read by {encoding} instruction ({} is the \
                         second: `{mnemonic}` also reads {} implicitly)",
                        describe(r),
                        describe(super::operand::Reg { code, count })
                    ),
                    _ => format!(
                        "only one SGPR can be read by {encoding} instruction ({} is the second)",
                        describe(r)
                    ),
                };
                return Err(OperandError::new(s.at, message));
            }
            _ => first = Some((r.code, r.count)),
        }
    }
    Ok(())
}

/// GCN 1.5's constant bus: two scalar values per instruction (distinct
/// SGPRs, the implicit VCC included; literals, inline constants and NULL
/// are not counted). clrxasm is laxer (it lets three through in some VOP3
/// forms); this is llvm-mc's rule, which the hardware needs.
fn check_constant_bus_gcn15(
    srcs: &[Option<VSrc>],
    implicit: &[ImplicitRead],
    mnemonic: &str,
) -> Result<(), OperandError> {
    let mut seen: Vec<(u16, u16)> = implicit.iter().map(|r| (r.code, r.count)).collect();
    seen.dedup();
    for s in srcs.iter().flatten() {
        let Src::Reg(r) = s.src else { continue };
        // NULL reads as 0 without using the constant bus (as llvm-mc has it).
        if r.code >= 128 || r.code == crate::isa::vocab::NULL || seen.contains(&(r.code, r.count)) {
            continue;
        }
        seen.push((r.code, r.count));
        if seen.len() > 2 {
            let also = if implicit.is_empty() {
                String::new()
            } else {
                format!(" (`{mnemonic}` also reads VCC)")
            };
            return Err(OperandError::new(
                s.at,
                format!(
                    "only two SGPRs can be read by an instruction on GCN 1.5 ({} is the \
                     third){also}",
                    describe(r)
                ),
            ));
        }
    }
    Ok(())
}

/// The literal rule of the 32-bit encodings (CLRX docs: "only one literal
/// constant can be used, and only when a SGPR or M0 is not used in source
/// operands"): a literal (in SRC0 or the K of v_madmk/v_madak) cannot go
/// with a scalar register in a source field. Implicit reads (the 32-bit
/// `vcc` of v_cndmask/v_addc, M0 of v_movrel*) are not source operands:
/// clrxasm accepts `v_cndmask_b32 v0, 1323, v1, vcc` (a conformance case),
/// although llvm-mc counts the literal on the constant bus there too.
fn check_literal_with_sgpr(ops: &Operands) -> Result<(), OperandError> {
    let literal = ops.srcs[0]
        .as_ref()
        .and_then(literal_of)
        .map(|l| l.at)
        .or(ops.lit32.map(|k| k.at));
    let Some(lit_at) = literal else {
        return Ok(());
    };
    for s in ops.srcs.iter().take(2).flatten() {
        if let Src::Reg(r) = s.src {
            if r.code < 128 {
                return Err(OperandError::new(
                    lit_at,
                    format!(
                        "a literal constant cannot be used together with an SGPR or M0 source ({})",
                        describe(r)
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn encode_vop3(
    ctx: &mut dyn OperandContext,
    st: &Statement<'_>,
    ops: &Operands,
    m: &Modifiers,
    out: &mut Emitter,
) -> Result<(), OperandError> {
    let _ = ctx;
    let row = st.row;
    let version = st.version;
    let gcn12 = version.is_gcn12_or_later();
    let vop3b = row.has(flags::VOP3B) || (ops.vdst.is_some() && ops.sdst.is_some());
    if row.has(flags::NO_SRC_MODS) {
        if let Some(s) = ops.srcs.iter().flatten().find(|s| s.abs || s.neg) {
            return Err(OperandError::new(
                s.at,
                format!("`{}` takes no source modifiers", st.mnemonic),
            ));
        }
    }
    let constant_bus_srcs = if ops.scalar_slot1 {
        // v_readlane/v_writelane read two scalars by design.
        [ops.srcs[0], None, ops.srcs[2]]
    } else {
        ops.srcs
    };
    check_vop3_sources(&constant_bus_srcs, version)?;
    check_constant_bus(
        &constant_bus_srcs,
        &implicit_reads(st, ops, false),
        "a VOP3",
        st.mnemonic,
        version,
    )?;
    let literal = vop3_literal(&ops.srcs)?;
    if let (Some(l), false) = (
        literal,
        row.encoding == Encoding::Vop3 || llvm_e64_literal(st),
    ) {
        // clrxasm takes a VOP3 literal only in VOP3-only instructions, not
        // in the VOP3 form of a VOP1/VOP2/VOPC one (with or without
        // `vop3`); GCN 1.5's hardware and llvm-mc take one there, and so
        // does gcnasm with LLVM's `_e64` spelling.
        return Err(OperandError::new(
            l.at,
            format!(
                "the VOP3 form of `{}` takes no literal in CLRX syntax (only VOP3-only \
                 instructions do){}",
                st.mnemonic,
                e64_hint(st)
            ),
        ));
    }
    if let Some(s) = ops.srcs.iter().flatten().find(|s| s.sext) {
        return Err(OperandError::new(
            s.at,
            "`sext` is only available in the SDWA encoding",
        ));
    }
    if let Some(k) = ops.lit32 {
        return Err(OperandError::new(
            k.at,
            "this instruction's constant needs the 32-bit encoding",
        ));
    }
    let mut abs = 0u32;
    let mut neg = 0u32;
    for (i, s) in ops.srcs.iter().enumerate() {
        if let Some(s) = s {
            if s.abs {
                if vop3b {
                    return Err(OperandError::new(
                        s.at,
                        "VOP3B instructions have no absolute-value modifier",
                    ));
                }
                abs |= 1 << i;
            }
            if s.neg {
                neg |= 1 << i;
            }
        }
    }
    let clamp = m.clamp.is_some_and(|c| c.0);
    if clamp && vop3b && !gcn12 {
        return Err(OperandError::new(
            m.clamp.map_or(0, |c| c.1),
            "VOP3B instructions have no `clamp` on GCN 1.0/1.1",
        ));
    }
    let mut op_sel = 0u32;
    if let Some((mask, len, at)) = m.op_sel {
        if vop3b {
            return Err(OperandError::new(at, "VOP3B instructions have no `op_sel`"));
        }
        let _ = len;
        op_sel = op_sel_bits(mask, ops.nsrcs);
    }
    let omod = m.omod.map_or(0, |o| o.0);
    let dst = match (ops.vdst, ops.sdst) {
        (Some(v), _) => u32::from(v.value) & 0xff,
        (None, Some(s)) => u32::from(s.value),
        _ => 0,
    };
    let op = vop3_opcode(row.encoding, st.opcode, version);
    let prefix = if version.is_gcn15() {
        0b110101
    } else {
        0b110100
    };
    let mut word0 = (prefix << 26) | dst;
    if gcn12 {
        word0 |= (op << 16) | (u32::from(clamp) << 15) | (op_sel << 11);
    } else {
        word0 |= (op << 17) | (u32::from(clamp) << 11);
    }
    if vop3b {
        word0 |= u32::from(ops.sdst.map_or(0, |s| s.value)) << 8;
    } else {
        word0 |= abs << 8;
    }
    let code = |i: usize| ops.srcs[i].map_or(0, |s| u32::from(s.src.code()));
    let word1 = code(0) | (code(1) << 9) | (code(2) << 18) | (omod << 27) | (neg << 29);
    out.push(word0);
    out.push(word1);
    if let Some(l) = literal {
        push_literal(out, l);
    }
    Ok(())
}

fn encode_sdwa(
    st: &Statement<'_>,
    ops: &Operands,
    m: &Modifiers,
    out: &mut Emitter,
) -> Result<(), OperandError> {
    let row = st.row;
    let gcn14 = st.version.is_gcn14_or_later();
    let vopc = row.encoding == Encoding::Vopc;
    let mut s_bits = [0u32; 2];
    for (i, s) in ops.srcs.iter().take(2).enumerate() {
        let Some(s) = s else { continue };
        match s.src {
            Src::Reg(r) if r.is_vgpr() => {}
            Src::Literal(_) => {
                return Err(OperandError::new(
                    s.at,
                    "literal constants are not allowed in the SDWA encoding",
                ))
            }
            _ if gcn14 => s_bits[i] = 1,
            _ => {
                return Err(OperandError::new(
                    s.at,
                    "on GCN 1.2 the SDWA sources must be VGPRs",
                ))
            }
        }
    }
    if let Some(k) = ops.lit32 {
        return Err(OperandError::new(k.at, "this instruction has no SDWA form"));
    }
    if !is_vcc(&ops.sdst) && (!vopc || !gcn14) {
        return Err(OperandError::new(
            ops.sdst.map_or(0, |s| s.at),
            "the SDWA encoding writes VCC only here",
        ));
    }
    if let Some(s) = ops.srcs[2] {
        if !matches!(s.src, Src::Reg(r) if r.code == VCC && r.count == ops.mask_regs) {
            return Err(OperandError::new(s.at, "the SDWA encoding reads VCC only"));
        }
    }
    if let Some((_, _, at)) = m.op_sel {
        return Err(OperandError::new(
            at,
            "`op_sel` is not available in the SDWA encoding",
        ));
    }
    let clamp = m.clamp.is_some_and(|c| c.0);
    let omod = m.omod.map_or(0, |o| o.0);
    if omod != 0 && (!gcn14 || vopc) {
        return Err(OperandError::new(
            m.omod.map_or(0, |o| o.1),
            "output modifiers are not available in this SDWA encoding",
        ));
    }
    if vopc && gcn14 {
        if clamp {
            return Err(OperandError::new(
                m.clamp.map_or(0, |c| c.1),
                "`clamp` is not available for SDWA compares on GCN 1.4",
            ));
        }
        if m.sdwa.dst_sel.is_some() || m.sdwa.dst_unused.is_some() {
            return Err(OperandError::new(
                m.first_sdwa.unwrap_or(0),
                "SDWA compares have no destination selection on GCN 1.4",
            ));
        }
    }
    let src_mods = |i: usize| -> u32 {
        ops.srcs[i].map_or(0, |s| {
            u32::from(s.sext) | (u32::from(s.neg) << 1) | (u32::from(s.abs) << 2)
        })
    };
    let src1_default = if row.encoding == Encoding::Vop1 { 0 } else { 6 };
    let src0 = ops.srcs[0].map_or(0, |s| u32::from(s.src.code()) & 0xff);
    let mut word1 = src0
        | (m.sdwa.src0_sel.unwrap_or(6) << 16)
        | (src_mods(0) << 19)
        | (m.sdwa.src1_sel.unwrap_or(src1_default) << 24)
        | (src_mods(1) << 27);
    if vopc && gcn14 {
        if let Some(s) = ops.sdst.filter(|s| s.value != VCC) {
            word1 |= (u32::from(s.value) << 8) | (1 << 15);
        }
    } else {
        word1 |= (m.sdwa.dst_sel.unwrap_or(6) << 8)
            | (m.sdwa.dst_unused.unwrap_or(0) << 11)
            | (u32::from(clamp) << 13);
        word1 |= omod << 14;
    }
    if gcn14 {
        word1 |= (s_bits[0] << 23) | (s_bits[1] << 31);
    }
    emit_extended(st, ops, m, out, SDWA_SRC0, word1)
}

fn encode_dpp(
    st: &Statement<'_>,
    ops: &Operands,
    m: &Modifiers,
    out: &mut Emitter,
) -> Result<(), OperandError> {
    for s in ops.srcs.iter().take(2).flatten() {
        if !s.src.is_vgpr() {
            return Err(OperandError::new(
                s.at,
                "the DPP encoding takes VGPR sources only",
            ));
        }
        if s.sext {
            return Err(OperandError::new(
                s.at,
                "`sext` is not available in the DPP encoding",
            ));
        }
    }
    if let Some(k) = ops.lit32 {
        return Err(OperandError::new(k.at, "this instruction has no DPP form"));
    }
    if !is_vcc(&ops.sdst) {
        return Err(OperandError::new(
            ops.sdst.map_or(0, |s| s.at),
            "the DPP encoding writes VCC only",
        ));
    }
    if let Some(s) = ops.srcs[2] {
        if !matches!(s.src, Src::Reg(r) if r.code == VCC && r.count == ops.mask_regs) {
            return Err(OperandError::new(s.at, "the DPP encoding reads VCC only"));
        }
    }
    if let Some((_, at)) = m.clamp.filter(|c| c.0) {
        return Err(OperandError::new(
            at,
            "`clamp` is not available in the DPP encoding",
        ));
    }
    if let Some((_, at)) = m.omod.filter(|o| o.0 != 0) {
        return Err(OperandError::new(
            at,
            "output modifiers are not available in the DPP encoding",
        ));
    }
    if let Some((_, _, at)) = m.op_sel {
        return Err(OperandError::new(
            at,
            "`op_sel` is not available in the DPP encoding",
        ));
    }
    let mods =
        |i: usize| -> u32 { ops.srcs[i].map_or(0, |s| u32::from(s.neg) | (u32::from(s.abs) << 1)) };
    let src0 = ops.srcs[0].map_or(0, |s| u32::from(s.src.code()) & 0xff);
    let fi = m.dpp.fi.unwrap_or(false);
    if let Some(lanes) = m.dpp.dpp8 {
        // DPP8: the lane selects fill the second dword; `fi` picks the
        // marker. No source modifiers and no DPP16 controls.
        if let Some(s) = ops.srcs.iter().take(2).flatten().find(|s| s.abs || s.neg) {
            return Err(OperandError::new(
                s.at,
                "source modifiers are not available in the DPP8 encoding",
            ));
        }
        if m.dpp.ctrl.is_some()
            || m.dpp.bank_mask.is_some()
            || m.dpp.row_mask.is_some()
            || m.dpp.bound_ctrl
        {
            return Err(OperandError::new(
                m.first_dpp.unwrap_or(0),
                "`dpp8` cannot be mixed with DPP16 controls and masks",
            ));
        }
        let marker = if fi { DPP8_FI_SRC0 } else { DPP8_SRC0 };
        return emit_extended(st, ops, m, out, marker, src0 | (lanes << 8));
    }
    let word1 = src0
        | (m.dpp.ctrl.unwrap_or(0xe4) << 8)
        | (u32::from(fi) << 18)
        | (u32::from(m.dpp.bound_ctrl) << 19)
        | (mods(0) << 20)
        | (mods(1) << 22)
        | (m.dpp.bank_mask.unwrap_or(15) << 24)
        | (m.dpp.row_mask.unwrap_or(15) << 28);
    emit_extended(st, ops, m, out, DPP_SRC0, word1)
}

/// The SRC0 code that announces an SDWA second dword.
const SDWA_SRC0: u16 = 0xf9;
/// The SRC0 code that announces a DPP second dword.
const DPP_SRC0: u16 = 0xfa;
/// The SRC0 code that announces a DPP8 second dword (GCN 1.5).
const DPP8_SRC0: u16 = 0xe9;
/// The SRC0 code of DPP8 with `fi` (fetch inactive lanes).
const DPP8_FI_SRC0: u16 = 0xea;

/// Emits the 32-bit form with `marker` in SRC0, then the SDWA/DPP dword
/// that carries the real first source and the modifiers.
fn emit_extended(
    st: &Statement<'_>,
    ops: &Operands,
    m: &Modifiers,
    out: &mut Emitter,
    marker: u16,
    word1: u32,
) -> Result<(), OperandError> {
    let mut srcs = ops.srcs;
    srcs[0] = Some(VSrc {
        src: Src::Inline(marker),
        neg: false,
        abs: false,
        sext: false,
        at: 0,
    });
    let first_word = Operands {
        srcs,
        vdst: ops.vdst,
        sdst: ops.sdst,
        nsrcs: ops.nsrcs,
        lit32: None,
        scalar_slot1: ops.scalar_slot1,
        mask_regs: ops.mask_regs,
    };
    encode_e32(st, &first_word, m, out)?;
    out.push(word1);
    Ok(())
}

fn encode_vop3p(
    st: &Statement<'_>,
    ops: &Operands,
    m: &Modifiers,
    out: &mut Emitter,
    mix: bool,
    version: GcnVersion,
) -> Result<(), OperandError> {
    check_vop3_sources(&ops.srcs, version)?;
    let literal = vop3_literal(&ops.srcs)?;
    // Packed instructions take negation (neg_lo/neg_hi); only the
    // mixed-precision ones take an absolute value (checked below).
    let mut neg_lo = m.neg_lo.map_or(0, |n| n.0);
    let mut neg_hi = m.neg_hi.map_or(0, |n| n.0);
    for (i, s) in ops.srcs.iter().enumerate() {
        let Some(s) = s else { continue };
        if s.sext {
            return Err(OperandError::new(
                s.at,
                "`sext` is not available for packed instructions",
            ));
        }
        if s.abs {
            if !mix {
                return Err(OperandError::new(
                    s.at,
                    "packed instructions have no absolute-value modifier",
                ));
            }
            neg_hi |= 1 << i;
        }
        if s.neg {
            neg_lo |= 1 << i;
        }
    }
    if m.abs != 0 && !mix {
        return Err(OperandError::new(
            0,
            "packed instructions have no absolute-value modifier",
        ));
    }
    if let Some((_, at)) = m.omod.filter(|o| o.0 != 0) {
        return Err(OperandError::new(
            at,
            "packed instructions have no output modifier",
        ));
    }
    let op_sel = m.op_sel.map_or(0, |o| o.0) & 7;
    let op_sel_hi = m.op_sel_hi.map_or(7, |o| o.0);
    let clamp = m.clamp.is_some_and(|c| c.0);
    let dst = ops.vdst.map_or(0, |v| u32::from(v.value) & 0xff);
    let prefix = if version.is_gcn15() { 0x198 } else { 0x1a7 };
    let word0 = (prefix << 23)
        | (u32::from(st.opcode) << 16)
        | (u32::from(clamp) << 15)
        | ((op_sel_hi >> 2 & 1) << 14)
        | (op_sel << 11)
        | ((neg_hi & 7) << 8)
        | dst;
    let code = |i: usize| ops.srcs[i].map_or(0, |s| u32::from(s.src.code()));
    let word1 =
        code(0) | (code(1) << 9) | (code(2) << 18) | ((op_sel_hi & 3) << 27) | ((neg_lo & 7) << 29);
    out.push(word0);
    out.push(word1);
    if let Some(l) = literal {
        push_literal(out, l);
    }
    Ok(())
}
