//! MIMG (image) encoding.
//!
//! Syntax: `MNEMONIC VDATA, VADDR, SRSRC[, SSAMP] [dmask:N] [unorm] [glc]
//! [slc] [r128] [tfe] [lwe] [da] [d16] [a16]`. VDATA has one register per
//! `dmask` bit (gather: always 4), halved by `d16` on GCN 1.4, plus one for
//! `tfe`; SRSRC has 4 registers with `r128`, 8 without.

use super::buffer::resource;
use super::context::{OperandContext, OperandError};
use super::memory::{
    check_suffix, emit, expect_count, imm_value, next_modifier, unknown_modifier, vgpr_number,
    vgpr_range, Imm,
};
use super::operand::flag_parameter;
use super::operand::{expect_comma, Located, Reg};
use super::{Emitter, Statement};
use crate::isa::{flags, Field};

/// Encodes an MIMG instruction.
pub(crate) fn encode(
    ctx: &mut dyn OperandContext,
    st: &mut Statement<'_>,
    out: &mut Emitter,
) -> Result<(), OperandError> {
    check_suffix(st)?;
    let row = st.row;
    let version = st.version;
    let cur = &mut st.cur;

    let gcn15 = version.is_gcn15();
    let vdata = vgpr_range(ctx, cur, "data")?;
    expect_comma(cur, "address")?;
    cur.skip_spaces();
    // GCN 1.5: `[vA, vB, …]` gives non-sequential addresses (NSA).
    let nsa = if gcn15 && cur.peek() == Some(b'[') {
        Some(nsa_addresses(ctx, cur)?)
    } else {
        None
    };
    let vaddr = match &nsa {
        Some((first, _)) => *first,
        None => vgpr_range(ctx, cur, "address")?,
    };
    if row.has(flags::BVH) {
        return encode_bvh(ctx, st.opcode, row, vdata, vaddr, nsa, cur, out);
    }
    expect_comma(cur, "resource")?;
    // The resource's count depends on `r128`, which comes later: read it
    // as any aligned SGPR range and check the count afterwards.
    cur.skip_spaces();
    let srsrc_at = cur.pos();
    let srsrc = scalar_range(ctx, cur, "resource")?;
    let mut ssamp = 0u32;
    if row.operand(Field::Ssamp).is_some() {
        expect_comma(cur, "sampler")?;
        ssamp = resource(ctx, cur, 4, "sampler")?;
    }

    let gcn12 = version.is_gcn12_or_later();
    let gcn14 = version.is_gcn14();
    let mut dmask: Option<(i64, usize)> = None;
    let mut dlc = false;
    let mut dim: Option<u32> = None;
    let (mut unorm, mut glc, mut slc, mut r128, mut tfe, mut lwe, mut da, mut d16, mut a16) = (
        false, false, false, false, false, false, false, false, false,
    );
    while let Some(name) = next_modifier(cur) {
        match name.lower() {
            "dmask" => match imm_value(ctx, cur, "dmask")? {
                Imm::Known(v, at) => dmask = Some((v, at)),
                Imm::Deferred(_, at) => {
                    return Err(OperandError::new(
                        at,
                        "`dmask` must be known here (it decides the data register count)",
                    ))
                }
            },
            "unorm" => unorm = flag_parameter(ctx, cur)?,
            "glc" => glc = flag_parameter(ctx, cur)?,
            "slc" => slc = flag_parameter(ctx, cur)?,
            "r128" if !gcn14 => r128 = flag_parameter(ctx, cur)?,
            "tfe" => tfe = flag_parameter(ctx, cur)?,
            "lwe" => lwe = flag_parameter(ctx, cur)?,
            "da" => da = flag_parameter(ctx, cur)?,
            "d16" if gcn12 => d16 = flag_parameter(ctx, cur)?,
            "dlc" if gcn15 => dlc = flag_parameter(ctx, cur)?,
            "dim" if gcn15 => dim = Some(dim_modifier(ctx, cur)?),
            "a16" if gcn14 => a16 = flag_parameter(ctx, cur)?,
            _ => return Err(unknown_modifier(cur, &name, "MIMG")),
        }
    }

    // clrxasm keeps the low four bits of a wider mask.
    let mask = match dmask {
        Some((v, at)) => {
            if v & 0xf == 0 {
                return Err(OperandError::new(
                    at,
                    "`dmask` must enable at least one component",
                ));
            }
            if !(0..16).contains(&v) {
                ctx.warning(
                    at,
                    format!("dmask {v:#x} does not fit in 4 bits and was truncated"),
                );
            }
            (v & 0xf) as u32
        }
        // clrxasm's default, for loads and stores alike.
        None => 1,
    };
    // clrxasm rejects a store or atomic without `unorm` (stores and atomics
    // address texels by integer coordinates, which UNORM says).
    if !unorm && (row.has(flags::STORE) || row.has(flags::ATOMIC)) {
        return Err(OperandError::new(
            0,
            format!(
                "unorm is not set for store or atomic instruction `{}` (add `unorm`)",
                st.mnemonic
            ),
        ));
    }
    let components = if row.has(flags::GATHER4) {
        4
    } else {
        mask.count_ones() as u16
    };
    let packed = d16 && (gcn14 || gcn15);
    let count = if packed {
        components.div_ceil(2)
    } else {
        components
    };
    let why = match (packed, tfe) {
        (true, true) => " (dmask components packed by `d16`, plus one for `tfe`)",
        (true, false) => " (dmask components packed by `d16`)",
        (false, true) => " (one per dmask component, plus one for `tfe`)",
        (false, false) => " (one per dmask component)",
    };
    expect_count(vdata, count + u16::from(tfe), "the data", why)?;

    let (min, max, addresses) = if gcn15 {
        let Some(dim) = dim else {
            return Err(OperandError::new(
                0,
                format!("`{}` needs `dim:` on {version} (1d, 2d, 3d, cube, 1d_array, 2d_array, 2d_msaa, 2d_msaa_array)", st.mnemonic),
            ));
        };
        let (coords, derivs) = DIMS[dim as usize].1;
        let sample = row.sample.unwrap_or(crate::isa::SampleVariant(0));
        let extras = [
            crate::isa::SampleVariant::C,
            crate::isa::SampleVariant::CL,
            crate::isa::SampleVariant::L,
            crate::isa::SampleVariant::B,
            crate::isa::SampleVariant::O,
        ]
        .iter()
        .filter(|&&p| sample.has(p))
        .count() as u16
            + u16::from(row.has(flags::MIP));
        let min = coords + extras + if row.has(flags::DERIV) { derivs } else { 0 };
        let count = nsa
            .as_ref()
            .map_or(vaddr.value.count, |(_, list)| list.len() as u16);
        (min, 13, count)
    } else {
        let min = row
            .operands
            .iter()
            .find(|s| s.field == Field::Vaddr)
            .map_or(1, |s| s.registers());
        (
            min,
            min + if row.has(flags::DERIV) { 7 } else { 3 },
            vaddr.value.count,
        )
    };
    if gcn15 && !(min..=max).contains(&addresses) {
        return Err(OperandError::new(
            vaddr.at,
            format!("the address takes {min} to {max} registers here, not {addresses}"),
        ));
    }
    if !gcn15 && !(min..=max).contains(&vaddr.value.count) {
        return Err(OperandError::new(
            vaddr.at,
            format!(
                "the address takes {min} to {max} registers, but {} has {}",
                super::operand::describe(vaddr.value),
                vaddr.value.count
            ),
        ));
    }
    let resource_regs = if r128 { 4 } else { 8 };
    if srsrc.value.count != resource_regs {
        return Err(OperandError::new(
            srsrc_at,
            format!(
                "the resource takes {resource_regs} registers{}, but {} has {}",
                if r128 {
                    " with `r128`"
                } else if gcn14 {
                    ""
                } else {
                    " (4 with `r128`)"
                },
                super::operand::describe(srsrc.value),
                srsrc.value.count
            ),
        ));
    }

    // NSA: the count of extra address dwords in bits 2:1, the addresses
    // after the first one byte by byte in those dwords.
    let nsa_dwords = nsa
        .as_ref()
        .map_or(0, |(_, list)| (list.len() as u32 - 1).div_ceil(4));
    let word0 = (0b111100 << 26)
        | (nsa_dwords << 1)
        | (dim.unwrap_or(0) << 3)
        | (u32::from(dlc) << 7)
        // GCN 1.5+: opcode bit 7 (RDNA 2's image_msaa_load) is bit 0.
        | (u32::from(st.opcode & 0x7f) << 18)
        | u32::from(st.opcode >> 7 & 1)
        | (mask << 8)
        | (u32::from(unorm) << 12)
        | (u32::from(glc) << 13)
        | (u32::from(da) << 14)
        | (u32::from(r128 || a16) << 15)
        | (u32::from(tfe) << 16)
        | (u32::from(lwe) << 17)
        | (u32::from(slc) << 25);
    let word1 = vgpr_number(vaddr.value)
        | (vgpr_number(vdata.value) << 8)
        | (u32::from(srsrc.value.code >> 2) << 16)
        | (ssamp << 21)
        | (u32::from(d16) << 31);
    let mut words = vec![word0, word1];
    if let Some((_, list)) = &nsa {
        push_nsa(&mut words, list);
    }
    emit(out, &words, &[]);
    Ok(())
}

/// Appends the NSA dwords of address list `list` (its first register is
/// VADDR): the others one byte each, four to a dword.
fn push_nsa(words: &mut Vec<u32>, list: &[u8]) {
    for chunk in list[1..].chunks(4) {
        words.push(
            chunk
                .iter()
                .enumerate()
                .fold(0, |w, (i, &v)| w | u32::from(v) << (8 * i)),
        );
    }
}

/// RDNA 2's `image_bvh*_intersect_ray VDATA, VADDR, SRSRC [a16]`: 4 result
/// registers, 11 (64-bit node pointer: 12) address registers, 3 fewer with
/// `a16`, or a `[…]` list of them, and a 4-register resource; DMASK (0xf),
/// UNORM and R128 are set as LLVM sets them.
#[allow(clippy::too_many_arguments)]
fn encode_bvh(
    ctx: &mut dyn OperandContext,
    opcode: u16,
    row: &crate::isa::InstrRow,
    vdata: Located<Reg>,
    vaddr: Located<Reg>,
    nsa: Option<(Located<Reg>, Vec<u8>)>,
    cur: &mut crate::syntax::cursor::Cursor<'_>,
    out: &mut Emitter,
) -> Result<(), OperandError> {
    expect_comma(cur, "resource")?;
    let srsrc = resource(ctx, cur, 4, "resource")?;
    let mut a16 = false;
    while let Some(name) = next_modifier(cur) {
        match name.lower() {
            "a16" => a16 = flag_parameter(ctx, cur)?,
            _ => return Err(unknown_modifier(cur, &name, "BVH")),
        }
    }
    expect_count(vdata, 4, "the data", " (the intersection result)")?;
    let full = row.operand(Field::Vaddr).map_or(11, |s| s.registers());
    let needed = if a16 { full - 3 } else { full };
    let given = nsa
        .as_ref()
        .map_or(vaddr.value.count, |(_, list)| list.len() as u16);
    if given != needed {
        return Err(OperandError::new(
            vaddr.at,
            format!(
                "the address takes {needed} registers{}, not {given}",
                if a16 { " with `a16`" } else { "" }
            ),
        ));
    }
    let nsa_dwords = nsa
        .as_ref()
        .map_or(0, |(_, list)| (list.len() as u32 - 1).div_ceil(4));
    let word0 = (0b111100 << 26)
        | (nsa_dwords << 1)
        | (0xf << 8)
        | (1 << 12)
        | (1 << 15)
        | (u32::from(opcode & 0x7f) << 18)
        | u32::from(opcode >> 7 & 1);
    let word1 = vgpr_number(vaddr.value)
        | (vgpr_number(vdata.value) << 8)
        | (srsrc << 16)
        | (u32::from(a16) << 30);
    let mut words = vec![word0, word1];
    if let Some((_, list)) = &nsa {
        push_nsa(&mut words, list);
    }
    emit(out, &words, &[]);
    Ok(())
}

/// GCN 1.5 image dimensions (`dim:NAME`, also `SQ_RSRC_IMG_NAME`), by
/// code: the name and (address dwords, derivative dwords).
const DIMS: [(&str, (u16, u16)); 8] = [
    ("1d", (1, 2)),
    ("2d", (2, 4)),
    ("3d", (3, 6)),
    ("cube", (3, 4)),
    ("1d_array", (2, 2)),
    ("2d_array", (3, 4)),
    ("2d_msaa", (3, 4)),
    ("2d_msaa_array", (4, 4)),
];

/// Reads `:NAME` or `:@N` after `dim`.
fn dim_modifier(
    ctx: &mut dyn OperandContext,
    cur: &mut crate::syntax::cursor::Cursor<'_>,
) -> Result<u32, OperandError> {
    cur.skip_spaces();
    if !cur.eat(b':') {
        return Err(OperandError::new(
            cur.pos(),
            "expected `:` and a dimension after `dim`",
        ));
    }
    cur.skip_spaces();
    let at = cur.pos();
    if cur.eat(b'@') {
        let v = super::operand::absolute_expression(ctx, cur, "dimension")?;
        if !(0..8).contains(&v) {
            ctx.warning(at, format!("dimension {v:#x} was truncated to 3 bits"));
        }
        return Ok(v as u32 & 7);
    }
    let start = cur.pos();
    while cur
        .peek()
        .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        cur.bump(1);
    }
    let name = cur.text()[start..cur.pos()].to_ascii_lowercase();
    let short = name.strip_prefix("sq_rsrc_img_").unwrap_or(&name);
    DIMS.iter()
        .position(|(n, _)| *n == short)
        .map(|i| i as u32)
        .ok_or_else(|| {
            OperandError::new(
                at,
                format!(
                    "unknown image dimension `{name}` (1d, 2d, 3d, cube, 1d_array, 2d_array, \
                     2d_msaa, 2d_msaa_array)"
                ),
            )
        })
}

/// Reads a GCN 1.5 NSA address list `[vA, v[B:C], …]` (at most 13
/// registers): the first register (as the VADDR operand) and every
/// register number in order.
fn nsa_addresses(
    ctx: &mut dyn OperandContext,
    cur: &mut crate::syntax::cursor::Cursor<'_>,
) -> Result<(Located<Reg>, Vec<u8>), OperandError> {
    let open = cur.pos();
    cur.bump(1);
    let mut list = Vec::new();
    let mut first = None;
    loop {
        let reg = vgpr_range(ctx, cur, "address")?;
        first.get_or_insert(Located {
            value: Reg {
                code: reg.value.code,
                count: 1,
            },
            at: reg.at,
        });
        for i in 0..reg.value.count {
            list.push(vgpr_number(Reg {
                code: reg.value.code + i,
                count: 1,
            }) as u8);
        }
        if list.len() > 13 {
            return Err(OperandError::new(
                reg.at,
                "an image address list takes at most 13 registers",
            ));
        }
        cur.skip_spaces();
        if cur.eat(b']') {
            break;
        }
        if !cur.eat(b',') {
            return Err(OperandError::new(
                cur.pos(),
                "expected `,` or `]` in the address list",
            ));
        }
    }
    let first = first.ok_or_else(|| OperandError::new(open, "empty address list"))?;
    Ok((first, list))
}

/// Reads an SGPR range starting at a multiple of 4, of any length.
fn scalar_range(
    ctx: &mut dyn OperandContext,
    cur: &mut crate::syntax::cursor::Cursor<'_>,
    what: &str,
) -> Result<Located<Reg>, OperandError> {
    use super::operand::{check_register, try_register, Accept, Align, RegParse};
    cur.skip_spaces();
    let at = cur.pos();
    match try_register(ctx, cur, Some(Accept::SDST))? {
        RegParse::Reg(reg) if reg.count >= 1 => {
            check_register(reg, Accept::SDST, reg.count, Align::Strict, at, what)?;
            if reg.code % 4 != 0 {
                return Err(OperandError::new(
                    at,
                    format!(
                        "{what}: {} is misaligned (it must start at a multiple of 4)",
                        super::operand::describe(reg)
                    ),
                ));
            }
            ctx.register_used(reg.code, reg.count);
            Ok(Located { value: reg, at })
        }
        _ => Err(OperandError::new(
            at,
            format!("{what} must be a range of scalar registers"),
        )),
    }
}
