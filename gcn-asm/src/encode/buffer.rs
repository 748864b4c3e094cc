//! MUBUF (untyped buffer) and MTBUF (typed buffer) encodings.
//!
//! Syntax: `MNEMONIC VDATA, [VADDR|off,] SRSRC, SOFFSET [offen] [idxen] [addr64]
//! [glc] [slc] [tfe] [lds] [offset:N] [format:[DFMT,NFMT]]`. The rules of
//! the memory-handling seed are checked: VADDR has 2 registers with ADDR64
//! or with both IDXEN and OFFEN, 1 with one of them, and may be omitted (or
//! written `off`, encoded as VADDR 0, as clrxasm and llvm-mc take it) only
//! without all three; ADDR64 exists only on GCN 1.0/1.1 and excludes
//! IDXEN/OFFEN; TFE needs one more VDATA register and excludes LDS. Typed
//! formats: every data format (1–14, `@N` for any code) with every number
//! format, for loads and stores, as clrxasm and llvm-mc accept them. This
//! deviates from the CLRX doc's sentences ("FLOAT is applicable to 32,
//! 32_32, 32_32_32 or 32_32_32_32", USCALED/SSCALED/SNORM_OGL not
//! writable): the tools do not enforce them and the hardware defines more
//! (16-bit FLOAT = half floats, 10_11_11/11_11_10 FLOAT = unsigned small
//! floats, the scaled formats on store). Pairs the hardware gives no
//! meaning (FLOAT on 8-bit components) assemble too and stop the emulator
//! with a clear error when executed.

use super::context::{OperandContext, OperandError};
use super::memory::{
    check_suffix, emit, expect_count, imm_value, next_modifier, unknown_modifier, vgpr_number,
    vgpr_range, Imm, ImmField,
};
use super::operand::flag_parameter;
use super::operand::{
    absolute_expression, check_register, expect_comma, parse_source, try_register, Accept, Align,
    Located, Reg, RegParse, Src,
};
use super::{Emitter, Statement};
use crate::isa::vocab::{DATA_FORMATS, NUMBER_FORMATS};
use crate::isa::{flags, Encoding, Field, FloatKind};
use crate::syntax::cursor::Cursor;

/// The scalar offset operand: an SGPR, M0 or an inline constant.
const SOFFSET: Accept = Accept {
    scalar: true,
    vector: false,
    special_sources: false,
    constants: true,
};

/// A typed-buffer format as written (`format:[…]`).
#[derive(Debug, Default, Clone, Copy)]
struct Format {
    dfmt: Option<(u32, usize)>,
    nfmt: Option<(u32, usize)>,
}

/// Encodes a MUBUF or MTBUF instruction.
pub(crate) fn encode(
    ctx: &mut dyn OperandContext,
    st: &mut Statement<'_>,
    out: &mut Emitter,
) -> Result<(), OperandError> {
    check_suffix(st)?;
    let row = st.row;
    let version = st.version;
    let typed = row.encoding == Encoding::Mtbuf;
    let cur = &mut st.cur;

    let mut vdata: Option<Located<Reg>> = None;
    let mut vaddr: Option<Located<Reg>> = None;
    // Byte offset of an `off` written for VADDR (no address: field 0).
    let mut vaddr_off: Option<usize> = None;
    let mut srsrc = 0u32;
    let mut soffset = 0u32;
    if !row.has(flags::NO_OPERANDS) {
        let mut first = true;
        for spec in row.operands {
            match spec.field {
                Field::Vdata => {
                    vdata = Some(vgpr_range(ctx, cur, "data")?);
                    first = false;
                }
                // VADDR is optional: the next operand is either it or SRSRC.
                Field::Vaddr => {}
                Field::Srsrc => {
                    if !first {
                        expect_comma(cur, "resource or address")?;
                    }
                    first = false;
                    cur.skip_spaces();
                    let at = cur.pos();
                    if cur.eat_keyword("off") {
                        // `off`: no VADDR, as clrxasm and llvm-mc read it.
                        vaddr_off = Some(at);
                        expect_comma(cur, "resource")?;
                    } else if let RegParse::Reg(reg) = try_register(ctx, &mut cur.clone(), None)? {
                        if reg.is_vgpr() {
                            vaddr = Some(vgpr_range(ctx, cur, "address")?);
                            expect_comma(cur, "resource")?;
                        }
                    } else {
                        cur.set_pos(at);
                    }
                    srsrc = resource(ctx, cur, spec.registers(), "resource")?;
                }
                Field::Soffset => {
                    expect_comma(cur, "scalar offset")?;
                    soffset = scalar_offset(ctx, cur)?;
                }
                other => {
                    return Err(OperandError::new(
                        cur.pos(),
                        format!("internal error: field {other:?} in a buffer instruction"),
                    ))
                }
            }
        }
    }

    let gcn12 = version.is_gcn12_or_later();
    let gcn15 = version.is_gcn15();
    let (mut offen, mut idxen, mut glc, mut slc, mut tfe, mut lds, mut addr64) =
        (false, false, false, false, false, false, false);
    let mut dlc = false;
    // GCN 1.5's unified format (a 7-bit number); 0 when not given.
    let mut unified_format = 0u32;
    let mut offset: Option<Imm> = None;
    let mut format = Format::default();
    let mut at_of = [0usize; 3]; // tfe, lds, addr64
    let family = if typed { "MTBUF" } else { "MUBUF" };
    while let Some(name) = next_modifier(cur) {
        match name.lower() {
            "offen" => offen = flag_parameter(ctx, cur)?,
            "idxen" => idxen = flag_parameter(ctx, cur)?,
            "glc" => glc = flag_parameter(ctx, cur)?,
            "slc" => slc = flag_parameter(ctx, cur)?,
            "tfe" => {
                tfe = flag_parameter(ctx, cur)?;
                at_of[0] = name.at;
            }
            "lds" if !typed => {
                lds = flag_parameter(ctx, cur)?;
                at_of[1] = name.at;
            }
            "addr64" => {
                if gcn12 {
                    return Err(OperandError::new(
                        name.at,
                        format!("`addr64` exists only on GCN 1.0/1.1, not on {version}"),
                    ));
                }
                addr64 = flag_parameter(ctx, cur)?;
                at_of[2] = name.at;
            }
            "offset" => offset = Some(imm_value(ctx, cur, "offset")?),
            "dlc" if gcn15 => dlc = flag_parameter(ctx, cur)?,
            "format" if typed && gcn15 => {
                if !cur.eat(b':') {
                    return Err(OperandError::new(
                        cur.pos(),
                        "expected `:` and a format number after `format` (GCN 1.5 formats are \
                         one 7-bit number)",
                    ));
                }
                cur.skip_spaces();
                let at = cur.pos();
                let v = absolute_expression(ctx, cur, "format")?;
                if !(0..128).contains(&v) {
                    ctx.warning(at, format!("format {v:#x} was truncated to 7 bits"));
                }
                unified_format = v as u32 & 0x7f;
            }
            "format" if typed => format_modifier(ctx, cur, &mut format)?,
            _ => return Err(unknown_modifier(cur, &name, family)),
        }
    }

    // The seed's rules.
    if tfe && lds {
        return Err(OperandError::new(
            at_of[1],
            "`lds` and `tfe` cannot be used together",
        ));
    }
    if addr64 && (offen || idxen) {
        return Err(OperandError::new(
            at_of[2],
            "`addr64` cannot be combined with `offen` or `idxen`",
        ));
    }
    if let Some(at) = vaddr_off {
        if offen || idxen || addr64 {
            return Err(OperandError::new(
                at,
                "the address (VADDR) cannot be `off` with `offen`, `idxen` or `addr64`",
            ));
        }
    }
    let has_data = row.operand(Field::Vdata).is_some();
    if has_data {
        let needed: u16 = if addr64 || (offen && idxen) { 2 } else { 1 };
        match vaddr {
            Some(reg) => expect_count(
                reg,
                needed,
                "the address",
                match (addr64, offen && idxen) {
                    (true, _) => " (64-bit with `addr64`)",
                    (_, true) => " (index and offset with `idxen offen`)",
                    _ => "",
                },
            )?,
            None if offen || idxen || addr64 => {
                return Err(OperandError::new(
                    vdata.map_or(0, |d| d.at),
                    "the address (VADDR) is required with `offen`, `idxen` or `addr64`",
                ))
            }
            None => {}
        }
    }
    if let Some(data) = vdata {
        let spec = row.operands.iter().find(|s| s.field == Field::Vdata);
        let mut count = spec.map_or(1, |s| s.registers());
        let packed = row.has(flags::D16) && version.is_gcn14_or_later();
        if packed {
            count = count.div_ceil(2);
        }
        let why = match (tfe, packed) {
            (true, true) => " (packed 16-bit data, plus one for `tfe`)",
            (true, false) => " (one more for `tfe`)",
            (false, true) => " (packed 16-bit data)",
            _ => "",
        };
        expect_count(data, count + u16::from(tfe), "the data", why)?;
    }
    let (dfmt, nfmt) = if typed { check_format(format) } else { (0, 0) };

    let op = u32::from(st.opcode);
    let mut word0 = (u32::from(offen) << 12) | (u32::from(idxen) << 13) | (u32::from(glc) << 14);
    if !gcn12 {
        word0 |= u32::from(addr64) << 15;
    }
    let mut slc_word1 = 0;
    if gcn15 {
        // GCN 1.5: DLC in bit 15, SLC in the second dword; MTBUF has one
        // format field and its opcode's bit 3 in the second dword.
        word0 |= u32::from(dlc) << 15;
        slc_word1 = u32::from(slc) << 22;
        if typed {
            word0 |= (0b111010 << 26) | ((op & 7) << 16) | (unified_format << 19);
            slc_word1 |= (op >> 3 & 1) << 21;
        } else {
            word0 |= (0b111000 << 26) | (op << 18) | (u32::from(lds) << 16);
        }
    } else if typed {
        word0 |= (0b111010 << 26) | (dfmt << 19) | (nfmt << 23);
        word0 |= if gcn12 { op << 15 } else { op << 16 };
        slc_word1 = u32::from(slc) << 22;
    } else {
        word0 |= (0b111000 << 26) | (op << 18) | (u32::from(lds) << 16);
        if gcn12 {
            word0 |= u32::from(slc) << 17;
        } else {
            slc_word1 = u32::from(slc) << 22;
        }
    }
    let word1 = vaddr.map_or(0, |r| vgpr_number(r.value))
        | (vdata.map_or(0, |r| vgpr_number(r.value)) << 8)
        | (srsrc << 16)
        | slc_word1
        | (u32::from(tfe) << 23)
        | (soffset << 24);
    let mut words = [word0, word1];
    let fixup = offset.and_then(|imm| {
        ImmField {
            word: 0,
            shift: 0,
            bits: 12,
            signed: false,
        }
        .place(ctx, imm, "offset", &mut words)
    });
    emit(out, &words, &[fixup]);
    Ok(())
}

/// Reads a scalar resource descriptor (4 or 8 aligned SGPRs) and returns
/// its field value (first SGPR / 4).
pub(crate) fn resource(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
    count: u16,
    what: &str,
) -> Result<u32, OperandError> {
    let reg = super::operand::parse_register(ctx, cur, Accept::SDST, count, Align::Strict, what)?;
    Ok(u32::from(reg.value.code >> 2))
}

/// Reads SOFFSET: an SGPR, M0 or an inline constant (no literal).
fn scalar_offset(ctx: &mut dyn OperandContext, cur: &mut Cursor<'_>) -> Result<u32, OperandError> {
    let src = parse_source(
        ctx,
        cur,
        SOFFSET,
        1,
        FloatKind::Single,
        Align::None,
        "scalar offset",
    )?;
    match src.value {
        Src::Reg(r) => {
            check_register(r, SOFFSET, 1, Align::None, src.at, "scalar offset")?;
            Ok(u32::from(r.code))
        }
        Src::Inline(code) => Ok(u32::from(code)),
        Src::Literal(_) => Err(OperandError::new(
            src.at,
            "the scalar offset must be an SGPR, M0 or an inline constant (-16..64, a few floats), not a literal",
        )),
    }
}

/// Reads `:[DFMT, NFMT]` after `format`: names (case-insensitive, with or
/// without the `BUF_DATA_FORMAT_`/`BUF_NUM_FORMAT_` prefix) or `@EXPR`
/// numbers; one or both.
fn format_modifier(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
    format: &mut Format,
) -> Result<(), OperandError> {
    if !cur.eat(b':') || !cur.eat(b'[') {
        cur.skip_spaces();
        return Err(OperandError::new(
            cur.pos(),
            "expected `:[DATA_FORMAT, NUMBER_FORMAT]` after `format`",
        ));
    }
    let mut index = 0;
    loop {
        cur.skip_spaces();
        let at = cur.pos();
        if cur.peek() == Some(b']') && index == 0 {
            return Err(OperandError::new(at, "empty format list"));
        }
        if index >= 2 {
            return Err(OperandError::new(
                at,
                "a format has at most two elements (data and number format)",
            ));
        }
        if cur.eat(b'@') {
            let max = if index == 0 { 15 } else { 7 };
            let value = absolute_expression(ctx, cur, "format value")?;
            if !(0..=max).contains(&value) {
                return Err(OperandError::new(
                    at,
                    format!(
                        "{} format {value} is out of range (0..{max})",
                        if index == 0 { "data" } else { "number" }
                    ),
                ));
            }
            if index == 0 {
                format.dfmt = Some((value as u32, at));
            } else {
                format.nfmt = Some((value as u32, at));
            }
        } else {
            let bytes = cur.rest().as_bytes();
            let len = bytes
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                .count();
            let word = &cur.rest()[..len];
            cur.bump(len);
            match format_name(word) {
                Some(FormatName::Data(code)) => {
                    if format.dfmt.is_some() {
                        return Err(OperandError::new(at, "the data format is given twice"));
                    }
                    format.dfmt = Some((code, at));
                }
                Some(FormatName::Number(code)) => {
                    if format.nfmt.is_some() {
                        return Err(OperandError::new(at, "the number format is given twice"));
                    }
                    format.nfmt = Some((code, at));
                }
                None => {
                    return Err(OperandError::new(
                        at,
                        if word.is_empty() {
                            "expected a data or number format name".to_string()
                        } else {
                            format!("unknown data or number format `{word}`")
                        },
                    ))
                }
            }
        }
        index += 1;
        if cur.eat(b']') {
            return Ok(());
        }
        if !cur.eat(b',') {
            cur.skip_spaces();
            return Err(OperandError::new(
                cur.pos(),
                "expected `,` or `]` in the format list",
            ));
        }
    }
}

enum FormatName {
    Data(u32),
    Number(u32),
}

/// Looks up a data or number format name (case-insensitive, optional
/// prefix), without allocating.
fn format_name(word: &str) -> Option<FormatName> {
    let mut buffer = [0u8; 32];
    if word.is_empty() || word.len() > buffer.len() {
        return None;
    }
    let lower = &mut buffer[..word.len()];
    lower.copy_from_slice(word.as_bytes());
    lower.make_ascii_lowercase();
    let lower = std::str::from_utf8(lower).ok()?;
    let data = lower.strip_prefix("buf_data_format_");
    let number = lower.strip_prefix("buf_num_format_");
    if number.is_none() {
        let name = data.unwrap_or(lower);
        if let Some(code) = DATA_FORMATS.iter().position(|f| *f == Some(name)) {
            return Some(FormatName::Data(code as u32));
        }
    }
    if data.is_none() {
        let name = number.unwrap_or(lower);
        if let Some(code) = NUMBER_FORMATS.iter().position(|&f| f == name) {
            return Some(FormatName::Number(code as u32));
        }
    }
    None
}

/// Applies the defaults (data format 8, number format UNORM, as clrxasm).
/// Every pair is accepted for loads and stores (see the module doc).
fn check_format(format: Format) -> (u32, u32) {
    let dfmt = format.dfmt.map_or(1, |f| f.0);
    let nfmt = format.nfmt.map_or(0, |f| f.0);
    (dfmt, nfmt)
}
