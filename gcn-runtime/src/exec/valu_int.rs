//! Vector ALU, integer and bit operations (VOP2, VOP1, VOPC, VOP3 rows of
//! integer types), lane operations (`v_readlane`, `v_writelane`,
//! `v_readfirstlane`, `v_mbcnt`, `v_movrel*`) and `v_cndmask`.
//!
//! Semantics follow `GcnInstrsVop2.md`, `GcnInstrsVop1.md`,
//! `GcnInstrsVopc.md` and `GcnInstrsVop3.md`; sources and destinations go
//! through [`super::vector`] (SDWA, DPP, EXEC), so one handler serves the
//! 32-bit, VOP3, SDWA and DPP forms of a row.
//!
//! Modifiers: the float input modifiers (`abs`, `neg`) have no integer
//! meaning, so an integer instruction that carries them stops with a
//! fault; only the untyped moves (`v_mov_b32`, `v_cndmask_b32`, which
//! compilers use to negate or take the absolute value of floats) apply
//! them, as sign-bit operations. `clamp` saturates where the row's
//! `Operation:` says so (the add/sub family, 16-bit adds and mads) and is
//! ignored elsewhere, as is `omod` ("affects only instructions whose
//! output is a floating-point value").
//!
//! 16-bit results: GCN 1.2 writes the 16-bit result zero-extended. GCN 1.4
//! honours `op_sel` on rows with the `op_sel` flag (source bits pick the
//! high halves, bit 3 writes the high half and keeps the low one); without
//! the destination bit the VOP1/VOP2 rows and the `*_legacy_*` mads (the
//! GCN 1.2 opcodes) zero the high half while the VOP3-only 16-bit rows new
//! in GCN 1.4 keep it (`VDST = (VDST & 0xffff0000) | result` in the docs).
//! SDWA and DPP forms place the zero-extended result per their own rules.
//! GCN 1.5 keeps the other half in every form but SDWA ("on gfx10, all
//! 16-bit instructions preserve the high bits", LLVM).
//!
//! GCN 1.5 and RDNA 2 (`GcnInstrsVop*.md` has no GCN 1.5 `Operation:`; the
//! RDNA ISA guides and LLVM's definitions): the `_nc_` adds carry nothing
//! (the i32/i16 forms saturate signed with `clamp`); `v_add_co_ci_u32`
//! and its subtractions take the carry in SSRC2 (VCC) and write it to SDST
//! (VCC), each one SGPR in wave32; `v_cmpx_*` write EXEC alone (the rows
//! have no SDST); `v_permlane16_b32`/`v_permlanex16_b32` gather within
//! (across) rows of 16 lanes by the nibbles of `{S2, S1}`, OP_SEL bit 0
//! being FI and bit 1 BOUND_CTRL; `v_movrelsd_2_b32`/`v_swaprel_b32` index
//! the source by `M0[9:0]` and the destination by `M0[25:16]`.

use gcn_asm::decode::Form;
use gcn_asm::isa::Mnemonic as M;
use gcn_asm::isa::{flags, Encoding, InstrRow};
use gcn_asm::GcnVersion;

use super::vector::{
    blend_into, chunk_bits, flags_of, lanes_u32, mask_of, sdst_code, sdwa_place, src_u32, src_u64,
    stream1, stream2, streams, wide_vectors, write_mask, write_sdst_mask, write_u32, write_u64,
    write_vgpr, Chunk, Lanes, Stream, CHUNK,
};
use super::{h, Env, Fault, FaultKind, Handler, Op, Src, Step, Wave, WAVE_SIZE};

// ---------------------------------------------------------------------------
// Sources and destinations
// ---------------------------------------------------------------------------

/// Faults when an integer instruction carries float source modifiers.
#[inline]
fn int_mods(op: &Op) -> Result<(), Fault> {
    let m = &op.instr.mods;
    if m.abs | m.neg == 0 {
        Ok(())
    } else {
        Err(mods_fault(op))
    }
}

#[cold]
fn mods_fault(op: &Op) -> Fault {
    Fault::new(FaultKind::NotEmulated(format!(
        "instruction {} with abs/neg source modifiers (float modifiers on an integer operation)",
        op.mnemonic()
    )))
}

#[cold]
fn form_fault(op: &Op, what: &str) -> Fault {
    Fault::new(FaultKind::NotEmulated(format!(
        "instruction {} in its {what} form",
        op.mnemonic()
    )))
}

/// Source slot `s` with `abs`/`neg` applied as sign-bit operations (the
/// untyped moves).
#[inline]
fn src_bits(w: &Wave, op: &Op, s: usize) -> Lanes {
    let v = src_u32(w, op, s);
    let m = &op.instr.mods;
    let and = if m.abs >> s & 1 != 0 {
        0x7fff_ffff
    } else {
        u32::MAX
    };
    let xor = if m.neg >> s & 1 != 0 { 0x8000_0000 } else { 0 };
    if and == u32::MAX && xor == 0 {
        v
    } else {
        v.map(|x| (x & and) ^ xor)
    }
}

/// Source slot `s` as 16-bit values (in the low half), the high half
/// picked by `op_sel` on GCN 1.4 rows that have it.
#[inline]
fn src16(w: &Wave, op: &Op, s: usize) -> Lanes {
    let v = src_u32(w, op, s);
    if op.instr.mods.op_sel >> s & 1 != 0 && op.instr.row.has(flags::OP_SEL) {
        v.map(|x| x >> 16)
    } else {
        v.map(|x| x & 0xffff)
    }
}

/// Writes 16-bit results (low halves of `r`) per the module's rules;
/// `keep_high` marks the GCN 1.4 VOP3-only rows that keep the other half.
/// GCN 1.5 keeps the other half in every form but SDWA ("on gfx10, all
/// 16-bit instructions preserve the high bits", LLVM's
/// `GCNSubtarget::zeroesHigh16BitsOfDest`).
#[inline]
fn write16(w: &mut Wave, op: &Op, env: &Env<'_>, r: &Lanes, keep_high: bool) {
    let low = r.map(|x| x & 0xffff);
    let gfx10 = env.version.is_gcn15();
    let keep_high = keep_high || gfx10;
    if op.instr.form == Form::Sdwa
        || (op.instr.form == Form::Dpp && !gfx10)
        || !env.version.is_gcn14_or_later()
    {
        write_u32(w, op, &low);
        return;
    }
    let hi = op.instr.row.has(flags::OP_SEL) && op.instr.mods.op_sel & 8 != 0;
    if !hi && !keep_high {
        write_u32(w, op, &low);
        return;
    }
    let old = w.vgpr[op.vdst_row()];
    let v: Lanes = std::array::from_fn(|l| {
        if hi {
            (old[l] & 0xffff) | (low[l] << 16)
        } else {
            (old[l] & 0xffff_0000) | low[l]
        }
    });
    write_u32(w, op, &v);
}

/// `D = f(S0)`.
#[inline]
fn un(w: &mut Wave, op: &Op, f: impl Fn(u32) -> u32) -> Result<Step, Fault> {
    int_mods(op)?;
    let a = src_u32(w, op, 0);
    write_u32(w, op, &a.map(f));
    Ok(Step::Next)
}

/// `D = f(S0, S1)`.
#[inline]
fn bin(w: &mut Wave, op: &Op, f: impl Fn(u32, u32) -> u32) -> Result<Step, Fault> {
    int_mods(op)?;
    // Streamed only with 256-bit vectors: the baseline x86-64 target has no
    // per-lane variable shift, and short chunks of shifts do not vectorise.
    if streams(op) && wide_vectors() {
        let dst = op.vdst_row();
        let (a, b) = (Stream::of(w, op, 0), Stream::of(w, op, 1));
        let exec = w.exec();
        stream2(w, dst, a, b, exec, |_, a, b| {
            (std::array::from_fn(|l| f(a[l], b[l])), [0; CHUNK])
        });
        return Ok(Step::Next);
    }
    let a = src_u32(w, op, 0);
    let b = src_u32(w, op, 1);
    let r: Lanes = std::array::from_fn(|l| f(a[l], b[l]));
    write_u32(w, op, &r);
    Ok(Step::Next)
}

/// `D = f(S0, S1, S2)`.
#[inline]
fn tern(w: &mut Wave, op: &Op, f: impl Fn(u32, u32, u32) -> u32) -> Result<Step, Fault> {
    int_mods(op)?;
    let a = src_u32(w, op, 0);
    let b = src_u32(w, op, 1);
    let c = src_u32(w, op, 2);
    let r: Lanes = std::array::from_fn(|l| f(a[l], b[l], c[l]));
    write_u32(w, op, &r);
    Ok(Step::Next)
}

/// `D.u16 = f(S0.u16, S1.u16)`.
#[inline]
fn bin16(
    w: &mut Wave,
    op: &Op,
    env: &Env<'_>,
    keep_high: bool,
    f: impl Fn(u32, u32) -> u32,
) -> Result<Step, Fault> {
    int_mods(op)?;
    let a = src16(w, op, 0);
    let b = src16(w, op, 1);
    let r: Lanes = std::array::from_fn(|l| f(a[l], b[l]));
    write16(w, op, env, &r, keep_high);
    Ok(Step::Next)
}

/// `D.u16 = f(S0.u16, S1.u16, S2.u16)`.
#[inline]
fn tern16(
    w: &mut Wave,
    op: &Op,
    env: &Env<'_>,
    keep_high: bool,
    f: impl Fn(u32, u32, u32) -> u32,
) -> Result<Step, Fault> {
    int_mods(op)?;
    let a = src16(w, op, 0);
    let b = src16(w, op, 1);
    let c = src16(w, op, 2);
    let r: Lanes = std::array::from_fn(|l| f(a[l], b[l], c[l]));
    write16(w, op, env, &r, keep_high);
    Ok(Step::Next)
}

/// `D.u64 = f(S0.u64, S1.u32)` (GCN 1.0/1.1 64-bit shifts).
#[inline]
fn shift64(w: &mut Wave, op: &Op, f: impl Fn(u64, u32) -> u64) -> Result<Step, Fault> {
    int_mods(op)?;
    let a = src_u64(w, op, 0);
    let b = src_u32(w, op, 1);
    let r: [u64; WAVE_SIZE] = std::array::from_fn(|l| f(a[l], b[l]));
    write_u64(w, op, &r);
    Ok(Step::Next)
}

/// `D.u64 = f(S0.u32, S1.u64)` (GCN 1.2+ reversed 64-bit shifts).
#[inline]
fn shift64rev(w: &mut Wave, op: &Op, f: impl Fn(u32, u64) -> u64) -> Result<Step, Fault> {
    int_mods(op)?;
    let a = src_u32(w, op, 0);
    let b = src_u64(w, op, 1);
    let r: [u64; WAVE_SIZE] = std::array::from_fn(|l| f(a[l], b[l]));
    write_u64(w, op, &r);
    Ok(Step::Next)
}

// ---------------------------------------------------------------------------
// Add/sub with carry, compares
// ---------------------------------------------------------------------------

/// The add/sub family: `SUB` subtracts, `REV` swaps the sources; the
/// carry-in comes from SSRC2/VCC when the row has one, the carry (borrow)
/// out goes to SDST/VCC when the row has one; `clamp` saturates to the
/// unsigned 32-bit range.
fn addsub<const SUB: bool, const REV: bool>(
    w: &mut Wave,
    op: &Op,
    _: &mut Env<'_>,
) -> Result<Step, Fault> {
    int_mods(op)?;
    let carry_in = w.read_lane_mask(op.slot_src(2));
    let carry = if streams(op) {
        let (a, b) = if REV {
            (Stream::of(w, op, 1), Stream::of(w, op, 0))
        } else {
            (Stream::of(w, op, 0), Stream::of(w, op, 1))
        };
        let dst = op.vdst_row();
        let exec = w.exec();
        if carry_in == 0 {
            stream2(w, dst, a, b, exec, |_, a, b| {
                add_chunk::<SUB, false>(a, b, [0; CHUNK])
            })
        } else {
            stream2(w, dst, a, b, exec, |c, a, b| {
                add_chunk::<SUB, true>(a, b, flags_of(carry_in, c))
            })
        }
    } else {
        let (a, b) = if REV {
            (src_u32(w, op, 1), src_u32(w, op, 0))
        } else {
            (src_u32(w, op, 0), src_u32(w, op, 1))
        };
        let (mut r, carry) = add_lanes::<SUB>(&a, &b, carry_in);
        if op.instr.mods.clamp {
            let saturated = if SUB { 0 } else { u32::MAX };
            for (l, x) in r.iter_mut().enumerate() {
                if carry >> l & 1 != 0 {
                    *x = saturated;
                }
            }
        }
        write_u32(w, op, &r);
        carry
    };
    if op.sdst != u8::MAX {
        write_sdst_mask(w, op, carry);
    }
    Ok(Step::Next)
}

/// `a ± b (± carry-in)` over a chunk of lanes, with the carry (borrow) out of
/// each lane as a flag (0 or 1). `CIN = false` skips the carry-in (the
/// plain `v_add_u32`/`v_sub_u32`, or a zero mask).
#[inline(always)]
pub(super) fn add_chunk<const SUB: bool, const CIN: bool>(
    a: Chunk,
    b: Chunk,
    cin: Chunk,
) -> (Chunk, Chunk) {
    let mut r = [0u32; CHUNK];
    let mut flags = [0u32; CHUNK];
    for l in 0..CHUNK {
        let (t, o1) = if SUB {
            a[l].overflowing_sub(b[l])
        } else {
            a[l].overflowing_add(b[l])
        };
        let (t, o2) = match (CIN, SUB) {
            (false, _) => (t, false),
            (true, true) => t.overflowing_sub(cin[l]),
            (true, false) => t.overflowing_add(cin[l]),
        };
        r[l] = t;
        flags[l] = u32::from(o1 | o2);
    }
    (r, flags)
}

/// [`add_chunk`] over the 64 lanes, the carry-out as a mask.
fn add_lanes<const SUB: bool>(a: &Lanes, b: &Lanes, carry_in: u64) -> (Lanes, u64) {
    let mut r = [0u32; WAVE_SIZE];
    let mut carry = 0u64;
    for c in 0..WAVE_SIZE / CHUNK {
        let at = |x: &Lanes| -> Chunk { std::array::from_fn(|l| x[CHUNK * c + l]) };
        let (values, flags) = add_chunk::<SUB, true>(at(a), at(b), flags_of(carry_in, c));
        r[CHUNK * c..CHUNK * (c + 1)].copy_from_slice(&values);
        carry |= chunk_bits(flags) << (CHUNK * c);
    }
    (r, carry)
}

/// GCN 1.4 `v_add_i32`/`v_sub_i32` (VOP3, no carry): `clamp` saturates to
/// the signed 32-bit range.
fn addsub_i32<const SUB: bool>(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Step, Fault> {
    let clamp = op.instr.mods.clamp;
    bin(w, op, |a, b| {
        let (a, b) = (i64::from(a as i32), i64::from(b as i32));
        let t = if SUB { a - b } else { a + b };
        if clamp {
            t.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as u32
        } else {
            t as u32
        }
    })
}

/// GCN 1.4 `v_add_i16`/`v_sub_i16`: `clamp` saturates to the signed
/// 16-bit range (the docs' bounds `(1<<16)-1`/`-1<<16` are read as the
/// i16 limits the description names).
fn add_i16<const SUB: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    let c = op.instr.mods.clamp;
    bin16(w, op, env, true, move |a, b| {
        let (a, b) = (i32::from(a as u16 as i16), i32::from(b as u16 as i16));
        let t = if SUB { a - b } else { a + b };
        if c {
            t.clamp(-0x8000, 0x7fff) as u32
        } else {
            t as u32
        }
    })
}

/// `v_mad_u16` (`KEEP`: the GCN 1.4 opcode that keeps the other half) and
/// `v_mad_legacy_u16`: `clamp` saturates the full result to 16 bits.
fn mad_u16<const KEEP: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    let c = op.instr.mods.clamp;
    tern16(w, op, env, KEEP, move |a, b, s| {
        let t = a * b + s;
        if c {
            t.min(0xffff)
        } else {
            t
        }
    })
}

/// `v_mad_i16`/`v_mad_legacy_i16`: `clamp` saturates to the signed 16-bit
/// range.
fn mad_i16<const KEEP: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    let c = op.instr.mods.clamp;
    tern16(w, op, env, KEEP, move |a, b, s| {
        let i = |x: u32| i32::from(x as u16 as i16);
        let t = i(a) * i(b) + i(s);
        if c {
            t.clamp(-0x8000, 0x7fff) as u32
        } else {
            t as u32
        }
    })
}

/// The integer compare types.
mod ty {
    pub const I32: u8 = 0;
    pub const U32: u8 = 1;
    pub const I64: u8 = 2;
    pub const U64: u8 = 3;
    pub const I16: u8 = 4;
    pub const U16: u8 = 5;
}

/// Evaluates compare `OP` (F, LT, EQ, LE, GT, LG/NE, GE, T) on an ordering.
#[inline(always)]
fn test<const OP: u8>(o: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    match OP {
        0 => false,
        1 => o == Less,
        2 => o == Equal,
        3 => o != Greater,
        4 => o == Greater,
        5 => o != Equal,
        6 => o != Less,
        _ => true,
    }
}

/// An integer compare: `TY` the type ([`ty`]), `OP` the compare, `X` also
/// writes EXEC (`v_cmpx_*`). Inactive lanes get 0.
fn cmp<const TY: u8, const OP: u8, const X: bool>(
    w: &mut Wave,
    op: &Op,
    _: &mut Env<'_>,
) -> Result<Step, Fault> {
    int_mods(op)?;
    let bits = match TY {
        ty::I64 | ty::U64 => {
            let a = src_u64(w, op, 0);
            let b = src_u64(w, op, 1);
            if TY == ty::I64 {
                mask_of(|l| test::<OP>((a[l] as i64).cmp(&(b[l] as i64))))
            } else {
                mask_of(|l| test::<OP>(a[l].cmp(&b[l])))
            }
        }
        ty::I16 | ty::U16 => {
            let a = src16(w, op, 0);
            let b = src16(w, op, 1);
            if TY == ty::I16 {
                mask_of(|l| test::<OP>((a[l] as u16 as i16).cmp(&(b[l] as u16 as i16))))
            } else {
                mask_of(|l| test::<OP>(a[l].cmp(&b[l])))
            }
        }
        _ => {
            let a = src_u32(w, op, 0);
            let b = src_u32(w, op, 1);
            if TY == ty::I32 {
                mask_of(|l| test::<OP>((a[l] as i32).cmp(&(b[l] as i32))))
            } else {
                mask_of(|l| test::<OP>(a[l].cmp(&b[l])))
            }
        }
    };
    let r = write_sdst_mask(w, op, bits);
    if X {
        w.set_exec(r);
    }
    Ok(Step::Next)
}

/// The handler of a compare row (`cmp:PRED` in the table), if it compares
/// integers: the predicate from the row, the type from its first source,
/// `v_cmpx` (the EXEC write) from its implicit registers.
fn compare(row: &InstrRow, version: GcnVersion) -> Option<Handler> {
    use gcn_asm::isa::{CompareOp, DataType, Field, ImplicitReg};
    let x = row.writes_implicit(ImplicitReg::Exec, version);
    let o: u8 = match row.compare? {
        CompareOp::F => 0,
        CompareOp::Lt => 1,
        CompareOp::Eq => 2,
        CompareOp::Le => 3,
        CompareOp::Gt => 4,
        CompareOp::Lg => 5,
        CompareOp::Ge => 6,
        CompareOp::Tru => 7,
        _ => return None,
    };
    let t = match row.operand(Field::Src0)?.ty {
        DataType::I32 => ty::I32,
        DataType::U32 => ty::U32,
        DataType::I64 => ty::I64,
        DataType::U64 => ty::U64,
        DataType::I16 => ty::I16,
        DataType::U16 => ty::U16,
        _ => return None,
    };
    macro_rules! ops {
        ($t:expr, $x:expr) => {
            match o {
                0 => cmp::<{ $t }, 0, { $x }> as Handler,
                1 => cmp::<{ $t }, 1, { $x }>,
                2 => cmp::<{ $t }, 2, { $x }>,
                3 => cmp::<{ $t }, 3, { $x }>,
                4 => cmp::<{ $t }, 4, { $x }>,
                5 => cmp::<{ $t }, 5, { $x }>,
                6 => cmp::<{ $t }, 6, { $x }>,
                _ => cmp::<{ $t }, 7, { $x }>,
            }
        };
    }
    Some(match (t, x) {
        (ty::I32, false) => ops!(ty::I32, false),
        (ty::I32, true) => ops!(ty::I32, true),
        (ty::U32, false) => ops!(ty::U32, false),
        (ty::U32, true) => ops!(ty::U32, true),
        (ty::I64, false) => ops!(ty::I64, false),
        (ty::I64, true) => ops!(ty::I64, true),
        (ty::U64, false) => ops!(ty::U64, false),
        (ty::U64, true) => ops!(ty::U64, true),
        (ty::I16, false) => ops!(ty::I16, false),
        (ty::I16, true) => ops!(ty::I16, true),
        (ty::U16, false) => ops!(ty::U16, false),
        _ => ops!(ty::U16, true),
    })
}

// ---------------------------------------------------------------------------
// Lane operations
// ---------------------------------------------------------------------------

/// The lane a `v_readlane`/`v_writelane` selects (SSRC1 & 63, & 31 in
/// wave32); the select must be scalar.
#[inline]
fn lane_select(w: &Wave, op: &Op) -> Result<usize, Fault> {
    match op.slot_src(1) {
        Src::Vgpr(_) => Err(Fault::unsupported(format!(
            "{}: the lane select must be an SGPR, M0 or a constant, not a VGPR",
            op.mnemonic()
        ))),
        s => Ok(w.read_s32(s) as usize & (w.lanes() - 1)),
    }
}

/// `v_movrel*`: `REL_SRC` reads VGPR[src + M0], `REL_DST` writes
/// VGPR[dst + M0]; a relative index past the allocation faults.
fn movrel<const REL_SRC: bool, const REL_DST: bool>(
    w: &mut Wave,
    op: &Op,
    _: &mut Env<'_>,
) -> Result<Step, Fault> {
    int_mods(op)?;
    let m0 = u64::from(w.m0());
    let limit = u64::from(w.vgpr_limit);
    let index = |base: u16, what: &str| -> Result<usize, Fault> {
        let i = u64::from(base) + m0;
        if i < limit {
            Ok(i as usize)
        } else {
            Err(Fault::new(FaultKind::Register(format!(
                "{} {what} v{i} (v{base} + M0 {m0}) but the kernel allocates {limit} VGPRs",
                op.mnemonic()
            ))))
        }
    };
    let values = if REL_SRC {
        if matches!(op.instr.form, Form::Sdwa | Form::Dpp) {
            return Err(form_fault(op, "SDWA/DPP"));
        }
        match op.slot_src(0) {
            Src::Vgpr(r) => w.vgpr[index(r, "reads")?],
            _ => {
                return Err(Fault::unsupported(format!(
                    "{}: source must be a VGPR",
                    op.mnemonic()
                )))
            }
        }
    } else {
        src_u32(w, op, 0)
    };
    let base = op.reg(usize::from(op.vdst));
    let dst = if REL_DST {
        index(base, "writes")?
    } else {
        usize::from(base)
    };
    let mask = write_mask(w, op);
    if op.instr.form == Form::Sdwa && op.instr.mods.sdwa.dst_sel != 6 {
        let s = op.instr.mods.sdwa;
        let row = &mut w.vgpr[dst];
        for lane in 0..WAVE_SIZE {
            if mask >> lane & 1 != 0 {
                row[lane] = sdwa_place(values[lane], row[lane], s.dst_sel, s.dst_unused);
            }
        }
    } else {
        write_vgpr(w, dst, &values, mask);
    }
    Ok(Step::Next)
}

/// GCN 1.5 `v_movrelsd_2_b32` (`SWAP` false: `VGPR[VDST + M0[25:16]] =
/// VGPR[SRC0 + M0[9:0]]`) and `v_swaprel_b32` (`SWAP`: the two relatively
/// indexed VGPRs exchange their values) in the EXEC lanes; an index past
/// the allocation faults.
fn movrel2<const SWAP: bool>(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Step, Fault> {
    int_mods(op)?;
    if matches!(op.instr.form, Form::Sdwa | Form::Dpp) {
        return Err(form_fault(op, "SDWA/DPP"));
    }
    let m0 = w.m0();
    let limit = u32::from(w.vgpr_limit);
    let index = |base: u16, offset: u32, what: &str| -> Result<usize, Fault> {
        let i = u32::from(base) + offset;
        if i < limit {
            Ok(i as usize)
        } else {
            Err(Fault::new(FaultKind::Register(format!(
                "{} {what} v{i} (v{base} + {offset} from M0 {m0:#x}) but the kernel allocates \
                 {limit} VGPRs",
                op.mnemonic()
            ))))
        }
    };
    let Src::Vgpr(s) = op.slot_src(0) else {
        return Err(Fault::unsupported(format!(
            "{}: the source must be a VGPR",
            op.mnemonic()
        )));
    };
    let src = index(s, m0 & 0x3ff, "reads")?;
    let dst = index(op.reg(usize::from(op.vdst)), (m0 >> 16) & 0x3ff, "writes")?;
    let mask = w.exec();
    let (from_src, from_dst) = (w.vgpr[src], w.vgpr[dst]);
    write_vgpr(w, dst, &from_src, mask);
    if SWAP {
        write_vgpr(w, src, &from_dst, mask);
    }
    Ok(Step::Next)
}

/// GCN 1.5 `v_permlane16_b32` (`X` false) and `v_permlanex16_b32` (`X`):
/// lane `i` of each row of 16 reads lane `sel` of S0 in its own row (`X`:
/// in the other row of its pair of rows), `sel` being nibble `i % 16` of
/// `{S2, S1}`. OP_SEL bit 0 is FI (an inactive source lane gives its
/// value), bit 1 BOUND_CTRL (an inactive source lane gives 0); with
/// neither, a lane whose source is inactive keeps its old value (LLVM ties
/// the destination as an input). Only EXEC lanes are written; the source
/// must be a VGPR (a scalar one reads the same in every lane).
fn permlane16<const X: bool>(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Step, Fault> {
    int_mods(op)?;
    let m = &op.instr.mods;
    if m.omod != 0 {
        return Err(form_fault(op, "omod"));
    }
    let fi = m.op_sel & 1 != 0;
    let bound_ctrl = m.op_sel & 2 != 0;
    let sel = u64::from(w.read_s32(op.slot_src(1))) | u64::from(w.read_s32(op.slot_src(2))) << 32;
    let s0 = lanes_u32(w, op.slot_src(0));
    let exec = w.exec();
    let dst = op.vdst_row();
    let old = w.vgpr[dst];
    let mut r = old;
    for (lane, out) in r.iter_mut().enumerate().take(w.lanes()) {
        let row = if X { (lane & !15) ^ 16 } else { lane & !15 };
        let src = row | (sel >> (4 * (lane & 15)) & 15) as usize;
        if fi || exec >> src & 1 != 0 {
            *out = s0[src];
        } else if bound_ctrl {
            *out = 0;
        }
    }
    write_vgpr(w, dst, &r, exec);
    Ok(Step::Next)
}

// ---------------------------------------------------------------------------
// Helpers of the bit/byte operations
// ---------------------------------------------------------------------------

/// Sign-extends the low 24 bits.
#[inline]
fn i24(x: u32) -> i64 {
    i64::from(((x << 8) as i32) >> 8)
}

/// `v_bfe_u32`/`v_bfe_i32`: `len` bits from bit `off` (both & 31).
#[inline]
fn bfe(x: u32, off: u32, len: u32, signed: bool) -> u32 {
    let (off, len) = (off & 31, len & 31);
    if len == 0 {
        0
    } else if off + len < 32 {
        let up = x << (32 - off - len);
        if signed {
            ((up as i32) >> (32 - len)) as u32
        } else {
            up >> (32 - len)
        }
    } else if signed {
        ((x as i32) >> off) as u32
    } else {
        x >> off
    }
}

/// Sum of absolute differences of the four bytes of `a` and `b`, skipping
/// bytes where `b` is 0 when `masked` (`MSAD`).
#[inline]
fn sad_u8(a: u32, b: u32, masked: bool) -> u32 {
    (0..4)
        .map(|i| {
            let x = (a >> (8 * i)) & 0xff;
            let y = (b >> (8 * i)) & 0xff;
            if masked && y == 0 {
                0
            } else {
                x.abs_diff(y)
            }
        })
        .sum()
}

/// `v_perm_b32` byte selection.
#[inline]
fn perm(s0: u32, s1: u32, sel: u32) -> u32 {
    let q = (u64::from(s0) << 32) | u64::from(s1);
    (0..4).fold(0u32, |acc, i| {
        let c = (sel >> (8 * i)) & 0xff;
        let b = match c {
            13.. => 0xff,
            12 => 0,
            8..=11 => {
                if q >> ((c - 8) * 16 + 15) & 1 != 0 {
                    0xff
                } else {
                    0
                }
            }
            _ => ((q >> (c * 8)) & 0xff) as u32,
        };
        acc | (b << (8 * i))
    })
}

/// The median of three. (The docs' pseudo-code returns S0 when S1 equals
/// S2, which is not the median: `med3(x, 5, 5)` is 5 on the hardware, whose
/// definition goes through MAX3, and LLVM's clamp folding relies on it.)
#[inline]
fn med3<T: PartialOrd + Copy>(s0: T, s1: T, s2: T) -> T {
    if (s2 > s1 && s2 < s0) || (s2 < s1 && s2 > s0) {
        s2
    } else if (s1 > s2 && s1 < s0) || (s1 < s2 && s1 > s0) || s1 == s2 {
        s1
    } else {
        s0
    }
}

/// Reads an operand of `n` dwords (VGPRs or SGPRs) as lanes of dwords.
fn wide_lanes<const N: usize>(w: &Wave, src: Src) -> [Lanes; N] {
    std::array::from_fn(|i| match src {
        Src::Vgpr(r) => w.vgpr[usize::from(r) + i],
        Src::Sgpr(r) => [w.sgpr[(usize::from(r) + i) & 127]; WAVE_SIZE],
        // A constant fills the first two dwords (64-bit constant rules).
        other if i < 2 => [(w.read_s64(other) >> (32 * i)) as u32; WAVE_SIZE],
        _ => [0; WAVE_SIZE],
    })
}

/// `v_qsad_pk_u16_u8`/`v_mqsad_pk_u16_u8`: four (masked) SADs of the byte
/// windows of S0 against S1, each accumulated on a 16-bit field of S2.
fn qsad<const MASKED: bool>(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Step, Fault> {
    int_mods(op)?;
    let a = src_u64(w, op, 0);
    let b = src_u32(w, op, 1);
    let c = src_u64(w, op, 2);
    let r: [u64; WAVE_SIZE] = std::array::from_fn(|l| {
        (0..4).fold(0u64, |acc, n| {
            let win = (a[l] >> (8 * n)) as u32;
            let acc16 = ((c[l] >> (16 * n)) & 0xffff) as u32;
            // Each result is a 16-bit field of the packed destination.
            let v = (acc16 + sad_u8(win, b[l], MASKED)) & 0xffff;
            acc | (u64::from(v) << (16 * n))
        })
    });
    write_u64(w, op, &r);
    Ok(Step::Next)
}

/// `v_mqsad_u32_u8`: four masked SADs accumulated on the dwords of S2,
/// saturated to 32 bits.
fn mqsad_u32(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Step, Fault> {
    int_mods(op)?;
    let a = src_u64(w, op, 0);
    let b = src_u32(w, op, 1);
    let c: [Lanes; 4] = wide_lanes(w, op.slot_src(2));
    let mask = write_mask(w, op);
    let dst = op.vdst_row();
    let out: [Lanes; 4] = std::array::from_fn(|n| {
        std::array::from_fn(|l| {
            let win = (a[l] >> (8 * n)) as u32;
            let s = u64::from(c[n][l]) + u64::from(sad_u8(win, b[l], true));
            s.min(u64::from(u32::MAX)) as u32
        })
    });
    for (n, v) in out.iter().enumerate() {
        write_vgpr(w, dst + n, v, mask);
    }
    Ok(Step::Next)
}

/// `v_mad_u64_u32`/`v_mad_i64_i32`: `D.u64 = S0 * S1 + S2.u64`, SDST gets
/// bit 64 of the 65-bit result (the unsigned carry of the add; for the
/// signed form the sign of the 65-bit two's-complement sum, as the
/// AMD pseudo-code `{vcc, D} = 65'I(S0 * S1) + 65'I(S2)` defines it; the
/// CLRX doc leaves it open).
fn mad64<const SIGNED: bool>(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Step, Fault> {
    int_mods(op)?;
    let a = src_u32(w, op, 0);
    let b = src_u32(w, op, 1);
    let c = src_u64(w, op, 2);
    let mut carry = 0u64;
    let r: [u64; WAVE_SIZE] = std::array::from_fn(|l| {
        let s: i128 = if SIGNED {
            i128::from(a[l] as i32) * i128::from(b[l] as i32) + i128::from(c[l] as i64)
        } else {
            i128::from(a[l]) * i128::from(b[l]) + i128::from(c[l])
        };
        carry |= ((s >> 64) as u64 & 1) << l;
        s as u64
    });
    write_u64(w, op, &r);
    write_sdst_mask(w, op, carry);
    Ok(Step::Next)
}

/// The screen-partition lookup table of `v_screen_partition_4se_b32`.
const SCREEN_PARTITION_4SE: [u8; 256] = [
    0x1, 0x3, 0x7, 0xf, 0x5, 0xf, 0xf, 0xf, 0x7, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, //
    0xf, 0x2, 0x6, 0xe, 0xf, 0xa, 0xf, 0xf, 0xf, 0xb, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, //
    0xd, 0xf, 0x4, 0xc, 0xf, 0xf, 0x5, 0xf, 0xf, 0xf, 0xd, 0xf, 0xf, 0xf, 0xf, 0xf, //
    0x9, 0xb, 0xf, 0x8, 0xf, 0xf, 0xf, 0xa, 0xf, 0xf, 0xf, 0xe, 0xf, 0xf, 0xf, 0xf, //
    0xf, 0xf, 0xf, 0xf, 0x4, 0xc, 0xd, 0xf, 0x6, 0xf, 0xf, 0xf, 0xe, 0xf, 0xf, 0xf, //
    0xf, 0xf, 0xf, 0xf, 0xf, 0x8, 0x9, 0xb, 0xf, 0x9, 0x9, 0xf, 0xf, 0xd, 0xf, 0xf, //
    0xf, 0xf, 0xf, 0xf, 0x7, 0xf, 0x1, 0x3, 0xf, 0xf, 0x9, 0xf, 0xf, 0xf, 0xb, 0xf, //
    0xf, 0xf, 0xf, 0xf, 0x6, 0xe, 0xf, 0x2, 0x6, 0xf, 0xf, 0x6, 0xf, 0xf, 0xf, 0x7, //
    0xb, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x2, 0x3, 0xb, 0xf, 0xa, 0xf, 0xf, 0xf, //
    0xf, 0x7, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x1, 0x9, 0xd, 0xf, 0x5, 0xf, 0xf, //
    0xf, 0xf, 0xe, 0xf, 0xf, 0xf, 0xf, 0xf, 0xe, 0xf, 0x8, 0xc, 0xf, 0xf, 0xa, 0xf, //
    0xf, 0xf, 0xf, 0xd, 0xf, 0xf, 0xf, 0xf, 0x6, 0x7, 0xf, 0x4, 0xf, 0xf, 0xf, 0x5, //
    0x9, 0xf, 0xf, 0xf, 0xd, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x8, 0xc, 0xe, 0xf, //
    0xf, 0x6, 0x6, 0xf, 0xf, 0xe, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x4, 0x6, 0x7, //
    0xf, 0xf, 0x6, 0xf, 0xf, 0xf, 0x7, 0xf, 0xf, 0xf, 0xf, 0xf, 0xb, 0xf, 0x2, 0x3, //
    0x9, 0xf, 0xf, 0x9, 0xf, 0xf, 0xf, 0xb, 0xf, 0xf, 0xf, 0xf, 0x9, 0xd, 0xf, 0x1, //
];

// ---------------------------------------------------------------------------
// The row table
// ---------------------------------------------------------------------------

/// The role a row can play in the 64-bit address idiom that
/// [`super::fuse`] runs as one superinstruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum AddressPart {
    /// `v_mov_b32` (and the EDC-injecting `v_mov_fed_b32`, the same move).
    Move,
    /// The add with a carry-out and no carry-in (`v_add_i32` on GCN 1.0/1.1,
    /// `v_add_u32` on GCN 1.2, `v_add_co_u32` on GCN 1.4 and 1.5).
    AddCarryOut,
    /// The add with carry-in and carry-out (`v_addc_u32`, `v_addc_co_u32`,
    /// GCN 1.5's `v_add_co_ci_u32`).
    AddCarryIn,
}

/// Which [`AddressPart`] `row` is, if any; the handler table maps these
/// rows through it, so the fusion and the single instructions cannot
/// disagree on which rows they are.
pub(super) fn address_part(row: &InstrRow) -> Option<AddressPart> {
    if !matches!(
        row.encoding,
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vop3
    ) {
        return None;
    }
    match row.op {
        M::VMovB32 | M::VMovFedB32 => Some(AddressPart::Move),
        M::VAddI32 | M::VAddU32 | M::VAddCoU32 if row.has(flags::VOP3B) => {
            Some(AddressPart::AddCarryOut)
        }
        M::VAddcU32 | M::VAddcCoU32 | M::VAddCoCiU32 => Some(AddressPart::AddCarryIn),
        _ => None,
    }
}

/// `v_mov_b32` and `v_mov_fed_b32`: D = S0. (The EDC error injection of
/// `v_mov_fed_b32` has no emulated counterpart; the data move is the
/// architectural effect.)
fn move_b32(w: &mut Wave, op: &Op, _: &mut Env<'_>) -> Result<Step, Fault> {
    if streams(op) {
        let dst = op.vdst_row();
        stream1(w, dst, Stream::of(w, op, 0), w.exec(), |a| a);
        return Ok(Step::Next);
    }
    let a = src_bits(w, op, 0);
    write_u32(w, op, &a);
    Ok(Step::Next)
}

/// The handler of an integer vector ALU row.
pub fn handler(row: &InstrRow, version: GcnVersion) -> Option<Handler> {
    if !matches!(
        row.encoding,
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc | Encoding::Vop3
    ) {
        return None;
    }
    if row.encoding == Encoding::Vopc {
        return compare(row, version);
    }
    match address_part(row) {
        Some(AddressPart::Move) => return h(move_b32),
        Some(AddressPart::AddCarryOut | AddressPart::AddCarryIn) => {
            return h(addsub::<false, false>)
        }
        None => {}
    }
    let carry_row = row.has(flags::VOP3B);
    match row.op {
        // ---- moves and lane operations ----
        M::VNop => h(|_, _, _| Ok(Step::Next)),
        M::VCndmaskB32 => h(|w, op, _| {
            let a = src_bits(w, op, 0);
            let b = src_bits(w, op, 1);
            let mut r = a;
            blend_into(&mut r, &b, w.read_lane_mask(op.slot_src(2)));
            write_u32(w, op, &r);
            Ok(Step::Next)
        }),
        M::VReadfirstlaneB32 => h(|w, op, _| {
            int_mods(op)?;
            let exec = w.exec();
            let lane = if exec == 0 {
                0
            } else {
                exec.trailing_zeros() as usize
            };
            let v = lanes_u32(w, op.slot_src(0))[lane];
            w.set_s32(sdst_code(op), v);
            Ok(Step::Next)
        }),
        M::VReadlaneB32 => h(|w, op, _| {
            int_mods(op)?;
            let lane = lane_select(w, op)?;
            let v = lanes_u32(w, op.slot_src(0))[lane];
            w.set_s32(sdst_code(op), v);
            Ok(Step::Next)
        }),
        M::VWritelaneB32 => h(|w, op, _| {
            int_mods(op)?;
            let lane = lane_select(w, op)?;
            let v = match op.slot_src(0) {
                Src::Vgpr(_) => {
                    return Err(Fault::unsupported(
                        "v_writelane_b32: the source must be an SGPR, M0 or a constant",
                    ))
                }
                s => w.read_s32(s),
            };
            // Writes the lane whatever EXEC is.
            let dst = op.vdst_row();
            w.vgpr[dst][lane] = v;
            Ok(Step::Next)
        }),
        M::VMovreldB32 => h(movrel::<false, true>),
        M::VMovrelsB32 => h(movrel::<true, false>),
        M::VMovrelsdB32 => h(movrel::<true, true>),
        M::VMovrelsd2B32 => h(movrel2::<false>),
        M::VSwaprelB32 => h(movrel2::<true>),
        M::VPermlane16B32 => h(permlane16::<false>),
        M::VPermlanex16B32 => h(permlane16::<true>),
        // Waits for the vector pipeline to drain: nothing to emulate.
        M::VPipeflush => h(|_, _, _| Ok(Step::Next)),
        M::VSwapB32 => h(|w, op, _| {
            int_mods(op)?;
            let mask = w.exec();
            let d = op.vdst_row();
            let s = match op.slot_src(0) {
                Src::Vgpr(r) => usize::from(r),
                _ => return Err(Fault::unsupported("v_swap_b32: the source must be a VGPR")),
            };
            let (old_d, old_s) = (w.vgpr[d], w.vgpr[s]);
            write_vgpr(w, d, &old_s, mask);
            write_vgpr(w, s, &old_d, mask);
            Ok(Step::Next)
        }),
        // Clears the wave's exception state: TRAPSTS.EXCP, bits 0-8.
        M::VClrexcp => h(|w, _, _| {
            w.trapsts &= !0x1ff;
            Ok(Step::Next)
        }),

        // ---- add/sub ----
        M::VSubI32 | M::VSubU32 | M::VSubCoU32 if carry_row => h(addsub::<true, false>),
        M::VSubrevI32 | M::VSubrevU32 | M::VSubrevCoU32 if carry_row => h(addsub::<true, true>),
        M::VSubbU32 | M::VSubbCoU32 => h(addsub::<true, false>),
        M::VSubbrevU32 | M::VSubbrevCoU32 => h(addsub::<true, true>),
        // GCN 1.5 carry-in/carry-out forms (lane masks in SSRC2/SDST).
        M::VSubCoCiU32 => h(addsub::<true, false>),
        M::VSubrevCoCiU32 => h(addsub::<true, true>),
        // GCN 1.4 and GCN 1.5 (`_nc_`) forms without carry.
        M::VAddU32 | M::VAddNcU32 => h(addsub::<false, false>),
        M::VSubU32 | M::VSubNcU32 => h(addsub::<true, false>),
        M::VSubrevU32 | M::VSubrevNcU32 => h(addsub::<true, true>),
        M::VAddI32 | M::VAddNcI32 => h(addsub_i32::<false>),
        M::VSubI32 | M::VSubNcI32 => h(addsub_i32::<true>),
        M::VAdd3U32 => h(|w, op, _| tern(w, op, |a, b, c| a.wrapping_add(b).wrapping_add(c))),

        // ---- multiplies ----
        M::VMulI32I24 => h(|w, op, _| bin(w, op, |a, b| (i24(a) * i24(b)) as u32)),
        M::VMulHiI32I24 => h(|w, op, _| bin(w, op, |a, b| ((i24(a) * i24(b)) >> 32) as u32)),
        M::VMulU32U24 => {
            h(|w, op, _| bin(w, op, |a, b| (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff)))
        }
        M::VMulHiU32U24 => h(|w, op, _| {
            bin(w, op, |a, b| {
                ((u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff)) >> 32) as u32
            })
        }),
        M::VMulLoU32 | M::VMulLoI32 => h(|w, op, _| bin(w, op, u32::wrapping_mul)),
        M::VMulHiU32 => {
            h(|w, op, _| bin(w, op, |a, b| ((u64::from(a) * u64::from(b)) >> 32) as u32))
        }
        M::VMulHiI32 => h(|w, op, _| {
            bin(w, op, |a, b| {
                ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32
            })
        }),
        M::VMadI32I24 => {
            h(|w, op, _| tern(w, op, |a, b, c| ((i24(a) * i24(b)) as u32).wrapping_add(c)))
        }
        M::VMadU32U24 => h(|w, op, _| {
            tern(w, op, |a, b, c| {
                (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff).wrapping_add(c)
            })
        }),
        M::VMadU64U32 => h(mad64::<false>),
        M::VMadI64I32 => h(mad64::<true>),

        // ---- min/max ----
        M::VMinI32 => h(|w, op, _| bin(w, op, |a, b| (a as i32).min(b as i32) as u32)),
        M::VMaxI32 => h(|w, op, _| bin(w, op, |a, b| (a as i32).max(b as i32) as u32)),
        M::VMinU32 => h(|w, op, _| bin(w, op, u32::min)),
        M::VMaxU32 => h(|w, op, _| bin(w, op, u32::max)),
        M::VMin3I32 => h(|w, op, _| {
            tern(w, op, |a, b, c| {
                (a as i32).min(b as i32).min(c as i32) as u32
            })
        }),
        M::VMax3I32 => h(|w, op, _| {
            tern(w, op, |a, b, c| {
                (a as i32).max(b as i32).max(c as i32) as u32
            })
        }),
        M::VMed3I32 => {
            h(|w, op, _| tern(w, op, |a, b, c| med3(a as i32, b as i32, c as i32) as u32))
        }
        M::VMin3U32 => h(|w, op, _| tern(w, op, |a, b, c| a.min(b).min(c))),
        M::VMax3U32 => h(|w, op, _| tern(w, op, |a, b, c| a.max(b).max(c))),
        M::VMed3U32 => h(|w, op, _| tern(w, op, med3)),

        // ---- logic and shifts ----
        M::VAndB32 => h(|w, op, _| bin(w, op, |a, b| a & b)),
        M::VOrB32 => h(|w, op, _| bin(w, op, |a, b| a | b)),
        M::VXorB32 => h(|w, op, _| bin(w, op, |a, b| a ^ b)),
        M::VXnorB32 => h(|w, op, _| bin(w, op, |a, b| !(a ^ b))),
        M::VNotB32 => h(|w, op, _| un(w, op, |a| !a)),
        M::VLshlB32 => h(|w, op, _| bin(w, op, |a, b| a << (b & 31))),
        M::VLshrB32 => h(|w, op, _| bin(w, op, |a, b| a >> (b & 31))),
        M::VAshrI32 => h(|w, op, _| bin(w, op, |a, b| ((a as i32) >> (b & 31)) as u32)),
        M::VLshlrevB32 => h(|w, op, _| bin(w, op, |a, b| b << (a & 31))),
        M::VLshrrevB32 => h(|w, op, _| bin(w, op, |a, b| b >> (a & 31))),
        M::VAshrrevI32 => h(|w, op, _| bin(w, op, |a, b| ((b as i32) >> (a & 31)) as u32)),
        M::VLshlB64 => h(|w, op, _| shift64(w, op, |a, b| a << (b & 63))),
        M::VLshrB64 => h(|w, op, _| shift64(w, op, |a, b| a >> (b & 63))),
        M::VAshrI64 => h(|w, op, _| shift64(w, op, |a, b| ((a as i64) >> (b & 63)) as u64)),
        M::VLshlrevB64 => h(|w, op, _| shift64rev(w, op, |a, b| b << (a & 63))),
        M::VLshrrevB64 => h(|w, op, _| shift64rev(w, op, |a, b| b >> (a & 63))),
        M::VAshrrevI64 => h(|w, op, _| shift64rev(w, op, |a, b| ((b as i64) >> (a & 63)) as u64)),
        M::VLshlAddU32 => h(|w, op, _| tern(w, op, |a, b, c| (a << (b & 31)).wrapping_add(c))),
        M::VAddLshlU32 => h(|w, op, _| tern(w, op, |a, b, c| a.wrapping_add(b) << (c & 31))),
        M::VLshlOrB32 => h(|w, op, _| tern(w, op, |a, b, c| (a << (b & 31)) | c)),
        M::VAndOrB32 => h(|w, op, _| tern(w, op, |a, b, c| (a & b) | c)),
        M::VOr3B32 => h(|w, op, _| tern(w, op, |a, b, c| a | b | c)),
        M::VXadU32 => h(|w, op, _| tern(w, op, |a, b, c| (a ^ b).wrapping_add(c))),
        M::VXor3B32 => h(|w, op, _| tern(w, op, |a, b, c| a ^ b ^ c)),

        // ---- bit fields and counts ----
        M::VBfeU32 => h(|w, op, _| tern(w, op, |a, b, c| bfe(a, b, c, false))),
        M::VBfeI32 => h(|w, op, _| tern(w, op, |a, b, c| bfe(a, b, c, true))),
        M::VBfiB32 => h(|w, op, _| tern(w, op, |a, b, c| (a & b) | (!a & c))),
        M::VBfmB32 => h(|w, op, _| {
            bin(w, op, |a, b| {
                ((1u32 << (a & 31)).wrapping_sub(1)) << (b & 31)
            })
        }),
        M::VBfrevB32 => h(|w, op, _| un(w, op, u32::reverse_bits)),
        M::VBcntU32B32 => h(|w, op, _| bin(w, op, |a, b| b.wrapping_add(a.count_ones()))),
        M::VMbcntLoU32B32 => h(|w, op, _| {
            int_mods(op)?;
            let a = src_u32(w, op, 0);
            let b = src_u32(w, op, 1);
            let r: Lanes = std::array::from_fn(|l| {
                let below = ((1u64 << l) - 1) as u32;
                b[l].wrapping_add((a[l] & below).count_ones())
            });
            write_u32(w, op, &r);
            Ok(Step::Next)
        }),
        M::VMbcntHiU32B32 => h(|w, op, _| {
            int_mods(op)?;
            let a = src_u32(w, op, 0);
            let b = src_u32(w, op, 1);
            let r: Lanes = std::array::from_fn(|l| {
                let below = (((1u128 << l) - 1) >> 32) as u32;
                b[l].wrapping_add((a[l] & below).count_ones())
            });
            write_u32(w, op, &r);
            Ok(Step::Next)
        }),
        M::VFfbhU32 => {
            h(|w, op, _| un(w, op, |a| if a == 0 { u32::MAX } else { a.leading_zeros() }))
        }
        M::VFfblB32 => h(|w, op, _| {
            un(
                w,
                op,
                |a| if a == 0 { u32::MAX } else { a.trailing_zeros() },
            )
        }),
        M::VFfbhI32 => h(|w, op, _| {
            un(w, op, |a| {
                let x = if (a as i32) < 0 { !a } else { a };
                if x == 0 {
                    u32::MAX
                } else {
                    x.leading_zeros()
                }
            })
        }),
        M::VAlignbitB32 => h(|w, op, _| {
            tern(w, op, |a, b, c| {
                (((u64::from(a) << 32) | u64::from(b)) >> (c & 31)) as u32
            })
        }),
        M::VAlignbyteB32 => h(|w, op, _| {
            tern(w, op, |a, b, c| {
                (((u64::from(a) << 32) | u64::from(b)) >> ((c & 3) * 8)) as u32
            })
        }),
        M::VPermB32 => h(|w, op, _| tern(w, op, perm)),

        // ---- byte/SAD operations ----
        M::VLerpU8 => h(|w, op, _| {
            tern(w, op, |a, b, c| {
                (0..4).fold(0u32, |acc, i| {
                    let s =
                        ((a >> (8 * i)) & 0xff) + ((b >> (8 * i)) & 0xff) + ((c >> (8 * i)) & 1);
                    acc | ((s >> 1) << (8 * i))
                })
            })
        }),
        M::VSadU8 => h(|w, op, _| tern(w, op, |a, b, c| c.wrapping_add(sad_u8(a, b, false)))),
        M::VSadHiU8 => {
            h(|w, op, _| tern(w, op, |a, b, c| c.wrapping_add(sad_u8(a, b, false) << 16)))
        }
        M::VSadU16 => h(|w, op, _| {
            tern(w, op, |a, b, c| {
                c.wrapping_add((a & 0xffff).abs_diff(b & 0xffff))
                    .wrapping_add((a >> 16).abs_diff(b >> 16))
            })
        }),
        M::VSadU32 => h(|w, op, _| tern(w, op, |a, b, c| c.wrapping_add(a.abs_diff(b)))),
        M::VMsadU8 => h(|w, op, _| tern(w, op, |a, b, c| c.wrapping_add(sad_u8(a, b, true)))),
        M::VQsadU8 | M::VQsadPkU16U8 => h(qsad::<false>),
        M::VMqsadU8 | M::VMqsadPkU16U8 => h(qsad::<true>),
        M::VMqsadU32U8 => h(mqsad_u32),

        // ---- packing ----
        M::VCvtPkU16U32 => h(|w, op, _| bin(w, op, |a, b| a.min(0xffff) | (b.min(0xffff) << 16))),
        M::VCvtPkI16I32 => h(|w, op, _| {
            bin(w, op, |a, b| {
                let c = |x: u32| (x as i32).clamp(-0x8000, 0x7fff) as u32 & 0xffff;
                c(a) | (c(b) << 16)
            })
        }),
        M::VSatPkU8I16 => h(|w, op, env| {
            int_mods(op)?;
            // The packed source is read whole (op_sel picks no half of it).
            let a = src_u32(w, op, 0);
            let sat = |x: u32| (x as u16 as i16).clamp(0, 255) as u32;
            let r = a.map(|x| sat(x) | (sat(x >> 16) << 8));
            write16(w, op, env, &r, false);
            Ok(Step::Next)
        }),
        M::VScreenPartition4seB32 => h(|w, op, _| {
            un(w, op, |a| {
                u32::from(SCREEN_PARTITION_4SE[(a & 0xff) as usize])
            })
        }),

        // ---- 16-bit integer (GCN 1.2+) ----
        M::VAddU16 | M::VAddNcU16 => h(|w, op, env| {
            let c = op.instr.mods.clamp;
            bin16(w, op, env, false, move |a, b| {
                if c {
                    (a + b).min(0xffff)
                } else {
                    a + b
                }
            })
        }),
        M::VSubU16 | M::VSubNcU16 => h(|w, op, env| {
            let c = op.instr.mods.clamp;
            bin16(w, op, env, false, move |a, b| {
                if c && b > a {
                    0
                } else {
                    a.wrapping_sub(b)
                }
            })
        }),
        M::VSubrevU16 => h(|w, op, env| {
            let c = op.instr.mods.clamp;
            bin16(w, op, env, false, move |a, b| {
                if c && a > b {
                    0
                } else {
                    b.wrapping_sub(a)
                }
            })
        }),
        M::VAddI16 | M::VAddNcI16 => h(add_i16::<false>),
        M::VSubI16 | M::VSubNcI16 => h(add_i16::<true>),
        M::VMulLoU16 => h(|w, op, env| bin16(w, op, env, false, |a, b| a * b)),
        M::VLshlrevB16 => h(|w, op, env| bin16(w, op, env, false, |a, b| b << (a & 15))),
        M::VLshrrevB16 => h(|w, op, env| bin16(w, op, env, false, |a, b| b >> (a & 15))),
        M::VAshrrevI16 => h(|w, op, env| {
            bin16(w, op, env, false, |a, b| {
                ((b as u16 as i16) >> (a & 15)) as u32
            })
        }),
        M::VMaxU16 => h(|w, op, env| bin16(w, op, env, false, u32::max)),
        M::VMinU16 => h(|w, op, env| bin16(w, op, env, false, u32::min)),
        M::VMaxI16 => h(|w, op, env| {
            bin16(w, op, env, false, |a, b| {
                (a as u16 as i16).max(b as u16 as i16) as u32
            })
        }),
        M::VMinI16 => h(|w, op, env| {
            bin16(w, op, env, false, |a, b| {
                (a as u16 as i16).min(b as u16 as i16) as u32
            })
        }),
        M::VMadU16 => h(mad_u16::<true>),
        M::VMadLegacyU16 => h(mad_u16::<false>),
        M::VMadI16 => h(mad_i16::<true>),
        M::VMadLegacyI16 => h(mad_i16::<false>),
        M::VMadU32U16 => h(|w, op, _| {
            int_mods(op)?;
            let a = src16(w, op, 0);
            let b = src16(w, op, 1);
            let c = src_u32(w, op, 2);
            let r: Lanes = std::array::from_fn(|l| (a[l] * b[l]).wrapping_add(c[l]));
            write_u32(w, op, &r);
            Ok(Step::Next)
        }),
        M::VMadI32I16 => h(|w, op, _| {
            int_mods(op)?;
            let a = src16(w, op, 0);
            let b = src16(w, op, 1);
            let c = src_u32(w, op, 2);
            let r: Lanes = std::array::from_fn(|l| {
                let p = i32::from(a[l] as u16 as i16) * i32::from(b[l] as u16 as i16);
                (p as u32).wrapping_add(c[l])
            });
            write_u32(w, op, &r);
            Ok(Step::Next)
        }),
        M::VMin3U16 => h(|w, op, env| tern16(w, op, env, true, |a, b, c| a.min(b).min(c))),
        M::VMax3U16 => h(|w, op, env| tern16(w, op, env, true, |a, b, c| a.max(b).max(c))),
        M::VMed3U16 => h(|w, op, env| tern16(w, op, env, true, med3)),
        M::VMin3I16 => h(|w, op, env| {
            tern16(w, op, env, true, |a, b, c| {
                let i = |x: u32| x as u16 as i16;
                i(a).min(i(b)).min(i(c)) as u32
            })
        }),
        M::VMax3I16 => h(|w, op, env| {
            tern16(w, op, env, true, |a, b, c| {
                let i = |x: u32| x as u16 as i16;
                i(a).max(i(b)).max(i(c)) as u32
            })
        }),
        M::VMed3I16 => h(|w, op, env| {
            tern16(w, op, env, true, |a, b, c| {
                let i = |x: u32| x as u16 as i16;
                med3(i(a), i(b), i(c)) as u32
            })
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
