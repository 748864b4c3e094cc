//! Interpolation instructions: the VINTRP encoding and the VOP3 forms
//! (`v_interp_p1ll_f16` …, and VINTRP instructions with VOP3 modifiers on
//! GCN 1.2+).

use super::context::{OperandContext, OperandError};
use super::operand::{expect_char, expect_comma, parse_register, Accept, Align, Src};
use super::vector::{check_vop3_sources, parse_modifiers, parse_vsrc, VSrc};
use super::{Emitter, Forced, Statement};
use crate::isa::vocab::op_sel_bits;
use crate::isa::{Encoding, Field};
use crate::syntax::cursor::Cursor;

/// Reads `attrN.C` (N in 0..=63, C one of x y z w).
fn attribute(cur: &mut Cursor<'_>) -> Result<(u32, u32), OperandError> {
    cur.skip_spaces();
    let at = cur.pos();
    let rest = cur.rest().as_bytes();
    if rest.len() < 4 || !rest[..4].eq_ignore_ascii_case(b"attr") {
        return Err(OperandError::new(
            at,
            "expected an attribute (`attrN.x`, `.y`, `.z` or `.w`)",
        ));
    }
    cur.bump(4);
    let digits_at = cur.pos();
    let mut n: u32 = 0;
    while let Some(b) = cur.peek().filter(u8::is_ascii_digit) {
        n = n.saturating_mul(10).saturating_add(u32::from(b - b'0'));
        cur.bump(1);
    }
    if cur.pos() == digits_at {
        return Err(OperandError::new(
            at,
            "expected an attribute number after `attr`",
        ));
    }
    if n > 63 {
        return Err(OperandError::new(
            digits_at,
            format!("attribute number {n} is out of range (0-63)"),
        ));
    }
    expect_char(
        cur,
        b'.',
        "expected `.` and a channel (x, y, z or w) after the attribute",
    )?;
    cur.skip_spaces();
    let chan_at = cur.pos();
    let chan = match cur.peek().map(|b| b.to_ascii_lowercase()) {
        Some(b'x') => 0,
        Some(b'y') => 1,
        Some(b'z') => 2,
        Some(b'w') => 3,
        _ => {
            return Err(OperandError::new(
                chan_at,
                "the attribute channel must be x, y, z or w",
            ))
        }
    };
    cur.bump(1);
    if cur
        .peek()
        .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        return Err(OperandError::new(
            chan_at,
            "the attribute channel must be x, y, z or w",
        ));
    }
    Ok((n, chan))
}

/// Reads `p10`, `p20` or `p0`.
fn interp_param(cur: &mut Cursor<'_>) -> Result<u32, OperandError> {
    cur.skip_spaces();
    let at = cur.pos();
    let Some((word, _)) = cur.symbol() else {
        return Err(OperandError::new(
            at,
            "expected an interpolation parameter (p10, p20 or p0)",
        ));
    };
    match word.to_ascii_lowercase().as_str() {
        "p10" => Ok(0),
        "p20" => Ok(1),
        "p0" => Ok(2),
        _ => Err(OperandError::new(
            at,
            format!("unknown interpolation parameter `{word}` (expected p10, p20 or p0)"),
        )),
    }
}

/// Encodes an interpolation instruction.
pub(crate) fn encode(
    ctx: &mut dyn OperandContext,
    st: &mut Statement<'_>,
    out: &mut Emitter,
) -> Result<(), OperandError> {
    let row = st.row;
    let version = st.version;
    let mut vdst = 0u32;
    let mut attr = (0u32, 0u32);
    // VOP3 slots: 0 = attribute, 1 = VSRC/parameter, 2 = extra source.
    let mut srcs: [Option<VSrc>; 3] = [None; 3];
    let mut vsrc_field = 0u32;
    let mut param = false;
    let mut seen_attr = false;
    for (i, spec) in row.operands.iter().enumerate() {
        if i > 0 {
            expect_comma(&mut st.cur, "operand")?;
        }
        match spec.field {
            Field::Vdst => {
                let r = parse_register(
                    ctx,
                    &mut st.cur,
                    Accept::VGPR,
                    spec.registers(),
                    Align::None,
                    "destination",
                )?;
                vdst = u32::from(r.value.code) & 0xff;
            }
            Field::Attr => {
                attr = attribute(&mut st.cur)?;
                seen_attr = true;
            }
            Field::InterpParam => {
                let p = interp_param(&mut st.cur)?;
                vsrc_field = p;
                param = true;
                srcs[1] = Some(VSrc {
                    src: Src::Inline(p as u16),
                    neg: false,
                    abs: false,
                    sext: false,
                    at: 0,
                });
            }
            _ => {
                let slot = if seen_attr { 2 } else { 1 };
                let accept = if slot == 1 { Accept::VGPR } else { Accept::SRC };
                let v = parse_vsrc(
                    ctx,
                    &mut st.cur,
                    accept,
                    spec.registers(),
                    spec.ty.float_kind(),
                    "source",
                )?;
                if slot == 1 {
                    vsrc_field = u32::from(v.src.code()) & 0xff;
                }
                srcs[slot] = Some(v);
            }
        }
    }
    let mut m = parse_modifiers(ctx, &mut st.cur, true)?;
    if let Some(at) = m.first_sdwa.or(m.first_dpp) {
        return Err(OperandError::new(
            at,
            "interpolation instructions have no SDWA or DPP form",
        ));
    }
    for (i, s) in srcs.iter_mut().enumerate() {
        if let Some(s) = s {
            s.abs |= m.abs >> i & 1 != 0;
            s.neg |= m.neg >> i & 1 != 0;
        }
    }
    let high = m.high.is_some_and(|h| h.0);
    let needs_vop3 = row.encoding == Encoding::Vop3
        || st.forced == Forced::E64
        || m.vop3
        || m.clamp.is_some_and(|c| c.0)
        || m.omod.is_some_and(|o| o.0 != 0)
        || m.op_sel.is_some()
        || high
        || srcs.iter().flatten().any(|s| s.abs || s.neg);
    if !needs_vop3 {
        if st.forced == Forced::Sdwa || st.forced == Forced::Dpp {
            return Err(OperandError::new(
                0,
                "interpolation instructions have no SDWA or DPP form",
            ));
        }
        let enc = if version.is_gcn12_or_later() && !version.is_gcn15() {
            0b110101
        } else {
            0b110010
        };
        out.push(
            (enc << 26)
                | (vdst << 18)
                | (u32::from(st.opcode) << 16)
                | (attr.0 << 10)
                | (attr.1 << 8)
                | vsrc_field,
        );
        return Ok(());
    }
    if !version.is_gcn12_or_later() || (version.is_gcn15() && row.encoding == Encoding::Vintrp) {
        return Err(OperandError::new(
            m.first_vop3.unwrap_or(0),
            format!("`{}` has no VOP3 form on {version}", st.mnemonic),
        ));
    }
    let op = if row.encoding == Encoding::Vintrp {
        0x270 + u32::from(st.opcode)
    } else {
        u32::from(st.opcode)
    };
    // The attribute occupies SRC0 as `attr | chan << 6 | high << 8`.
    let attr_code = attr.0 | (attr.1 << 6) | (u32::from(high) << 8);
    srcs[0] = None;
    check_vop3_sources(&srcs, version)?;
    let mut abs = 0;
    let mut neg = 0;
    for (i, s) in srcs.iter().enumerate() {
        if let Some(s) = s {
            abs |= u32::from(s.abs) << i;
            neg |= u32::from(s.neg) << i;
            if s.sext {
                return Err(OperandError::new(
                    s.at,
                    "`sext` is only available in the SDWA encoding",
                ));
            }
        }
    }
    let nsrcs = if srcs[2].is_some() { 3 } else { 2 };
    let mut op_sel = 0;
    if let Some((mask, _, _)) = m.op_sel.take() {
        op_sel = op_sel_bits(mask, nsrcs);
    }
    let clamp = m.clamp.is_some_and(|c| c.0);
    let omod = m.omod.map_or(0, |o| o.0);
    let src1 = if param {
        vsrc_field
    } else {
        srcs[1].map_or(0, |s| u32::from(s.src.code()))
    };
    let src2 = srcs[2].map_or(0, |s| u32::from(s.src.code()));
    let prefix = if version.is_gcn15() {
        0b110101
    } else {
        0b110100
    };
    let word0 =
        (prefix << 26) | (op << 16) | (u32::from(clamp) << 15) | (op_sel << 11) | (abs << 8) | vdst;
    let word1 = attr_code | (src1 << 9) | (src2 << 18) | (omod << 27) | (neg << 29);
    out.push(word0);
    out.push(word1);
    Ok(())
}
