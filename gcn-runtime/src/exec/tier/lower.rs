//! What the tier translates ([`kind_of`]) and how ([`Jit::compile`]).
//!
//! A block is emitted in program order: a scalar instruction as scalar
//! host code on the wave's SGPR file, and each *vector segment* (a run of
//! vector ALU instructions) as one loop over the wave's lanes, four at a
//! time (128-bit host vectors), that runs every instruction of the segment
//! on those lanes before moving to the next four. Vector ALU instructions
//! are lane-local, so this order gives each lane the results the
//! instruction-by-instruction order gives it; within one pass a VGPR lives
//! in a host register from its first use to the pass's end, when the rows
//! it changed are stored once.
//!
//! The scalar state a segment reads is read before its loop: a segment
//! never reads, as a 32-bit scalar, a register it writes as a lane mask
//! (`Segment::admits` ends the segment first). Lane masks it writes
//! (carries, compare results) are built four bits per pass and stored after
//! the loop, with inactive lanes 0, as the interpreter's `write_sdst_mask`
//! stores them; an instruction of the segment that reads one reads the
//! pass's own bits.
//!
//! Each translated row does what its handler does (`valu_int`,
//! `valu_float`, `scalar`): the same carries, the same SCC rules, NaN
//! operands in the same places, denormals flushed by the same MODE bits.

use std::collections::HashMap;

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    types, AbiParam, Block as IrBlock, BlockArg, ConstantData, Endianness, InstBuilder,
    MemFlagsData, StackSlot, StackSlotData, StackSlotKind, Type, Value,
};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Linkage, Module};
use gcn_asm::isa::{flags, CompareOp, DataType, Encoding, Field, ImplicitReg, Mnemonic as M, Role};
use gcn_asm::GcnVersion;

use super::enabled::{Block, BlockFn, Compiled};
use crate::exec::float::{FpMode, RoundMode};
use crate::exec::{sreg, valu_int, vector, Decoded, Op, Src};

pub(crate) mod fused;
pub(crate) mod resident;

/// What an instruction the tier translates does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Nothing the emulator models (`s_nop`, the waits).
    Nop,
    /// An instruction the tier does not translate, run by its interpreter
    /// handler from inside the block (memory instructions, the vector ALU
    /// operations without a translation): one that falls through to the
    /// next instruction and writes neither EXEC nor MODE.
    Call,
    /// `s_mov_b32`: SDST = SSRC0.
    SMov,
    /// `s_movk_i32`: SDST = the sign-extended 16-bit immediate.
    SMovk,
    /// A 32-bit SOP2 operation and its SCC rule.
    SAlu(SAlu),
    /// A 32-bit SOPC compare: SCC = SSRC0 `cc` SSRC1.
    SCmp(IntCC),
    /// `s_branch`.
    Branch,
    /// `s_cbranch_scc0/1`: taken when SCC is the value.
    BranchScc(bool),
    /// `s_cbranch_vccz/vccnz`: taken when VCC is non-zero (`true`) or zero.
    BranchVcc(bool),
    /// `v_mov_b32`.
    VMov,
    /// A two-source 32-bit integer operation.
    VInt(VInt),
    /// A three-source 32-bit integer operation.
    VInt3(Int3),
    /// `v_not_b32`.
    VNot,
    /// A shift by source 1's amount (`rev`: source 0's), masked to 5 bits.
    VShift(Shift, bool),
    /// The add/sub family: carry-in from slot 2 if it has one, carry-out
    /// to the scalar destination if it has one.
    VAddSub { sub: bool, rev: bool },
    /// `v_cndmask_b32`: D = slot 2's lane bit ? S1 : S0.
    VCndmask,
    /// A two-source f32 operation (denormals per MODE).
    VF32(F32Op),
    /// `v_fma_f32` / `v_fmac_f32` (`acc`: the addend is D).
    VFma { acc: bool },
    /// `v_mad_f32` / `v_mac_f32`: multiply, flush, add; every denormal
    /// flushed whatever MODE says.
    VMad { acc: bool },
    /// `v_cvt_f32_i32` / `_u32`.
    VCvtFromInt { signed: bool },
    /// `v_cvt_f32_ubyte0..3`: byte `n` of S0 as an f32.
    VCvtUbyte(u8),
    /// `v_cvt_i32_f32` / `v_cvt_u32_f32`: toward zero, saturating, NaN 0
    /// (Rust's `as`, as the handlers convert).
    VCvtToInt { signed: bool },
    /// `v_min/max_f32`, `v_min3/max3/med3_f32`: the handlers' `min32`,
    /// `max32` and `med3` (signed zeros ordered, a NaN operand giving the
    /// other unless MODE.IEEE and it signals), denormals per MODE.
    VMinMaxF32(MinMax),
    /// A one-source f32 operation whose handler is an IEEE operation
    /// (rounding to an integral value, square root, reciprocal).
    VF32Unary(F32Unary),
    /// An integer compare writing a lane mask (`None`: always false or
    /// always true, by `bool`).
    VCmpInt(Result<IntCC, bool>),
    /// An f32 compare writing a lane mask.
    VCmpF32(Result<FloatCC, bool>),
}

impl Kind {
    /// True for the instructions that end a block (the branches).
    pub fn ends_block(self) -> bool {
        matches!(self, Kind::Branch | Kind::BranchScc(_) | Kind::BranchVcc(_))
    }

    fn vector(self) -> bool {
        matches!(
            self,
            Kind::VMov
                | Kind::VInt(_)
                | Kind::VInt3(_)
                | Kind::VNot
                | Kind::VShift(..)
                | Kind::VAddSub { .. }
                | Kind::VCndmask
                | Kind::VF32(_)
                | Kind::VFma { .. }
                | Kind::VMad { .. }
                | Kind::VCvtFromInt { .. }
                | Kind::VCvtUbyte(_)
                | Kind::VCvtToInt { .. }
                | Kind::VMinMaxF32(_)
                | Kind::VF32Unary(_)
                | Kind::VCmpInt(_)
                | Kind::VCmpF32(_)
        )
    }

    /// The kinds whose sources are floats (abs and neg apply).
    fn float_sources(self) -> bool {
        matches!(
            self,
            Kind::VF32(_)
                | Kind::VFma { .. }
                | Kind::VMad { .. }
                | Kind::VCmpF32(_)
                | Kind::VCvtToInt { .. }
                | Kind::VMinMaxF32(_)
                | Kind::VF32Unary(_)
        )
    }

    /// The kinds that write a lane mask.
    fn writes_mask(self, op: &Op) -> bool {
        match self {
            Kind::VCmpInt(_) | Kind::VCmpF32(_) => true,
            Kind::VAddSub { .. } => op.sdst != u8::MAX,
            _ => false,
        }
    }

    /// The source slot read as a lane mask, if one is.
    fn mask_source(self, op: &Op) -> Option<Src> {
        match self {
            Kind::VCndmask => Some(op.slot_src(2)),
            Kind::VAddSub { .. } if op.slot_src(2) != Src::None => Some(op.slot_src(2)),
            _ => None,
        }
    }
}

/// A 32-bit SOP2 operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SAlu {
    AddU32,
    SubU32,
    AddI32,
    SubI32,
    And,
    Or,
    Xor,
    Lshl,
    Lshr,
    Ashr,
    Mul,
}

/// A two-source 32-bit vector integer operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VInt {
    And,
    Or,
    Xor,
    Xnor,
    MulLo,
    MulU24,
    MulI24,
    MinU,
    MaxU,
    MinI,
    MaxI,
    /// `v_mul_hi_u32` / `_i32`: the high half of the 64-bit product.
    MulHiU,
    MulHiI,
    /// `v_bcnt_u32_b32`: S1 + the set bits of S0.
    Bcnt,
}

/// A three-source 32-bit vector integer operation (`valu_int`'s `tern`
/// rows); every shift amount and bit-field bound is masked to 5 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Int3 {
    Add3,
    Or3,
    Xor3,
    /// (S0 & S1) | S2.
    AndOr,
    /// (S0 ^ S1) + S2.
    Xad,
    /// (S0 & S1) | (!S0 & S2).
    Bfi,
    /// The 24-bit multiplies plus S2.
    MadU24,
    MadI24,
    Min3U,
    Max3U,
    Med3U,
    Min3I,
    Max3I,
    Med3I,
    /// (S0 << S1) + S2.
    LshlAdd,
    /// (S0 + S1) << S2.
    AddLshl,
    /// (S0 << S1) | S2.
    LshlOr,
    /// S2 bits of S0 from bit S1, zero- or sign-extended.
    BfeU,
    BfeI,
    /// The 64 bits S0:S1 shifted right by S2 bits / S2 & 3 bytes.
    Alignbit,
    Alignbyte,
}

/// How lane bits are ordered ([`Gen::med3`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ordered {
    F32,
    Signed,
    Unsigned,
}

/// An f32 min/max of two or three sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MinMax {
    Min,
    Max,
    Min3,
    Max3,
    Med3,
}

/// A one-source f32 operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum F32Unary {
    Floor,
    Ceil,
    Trunc,
    /// Round to nearest, ties to even.
    Rndne,
    /// The correctly rounded root; a negative source gives -NaN.
    Sqrt,
    /// 1 / S0, correctly rounded.
    Rcp,
}

/// A lane shift.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shift {
    Left,
    Right,
    Arithmetic,
}

/// A two-source f32 operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum F32Op {
    Add,
    Sub,
    Subrev,
    Mul,
}

/// True when scalar operand `src` can be read ahead as a 32-bit value.
fn scalar_source(src: Src) -> bool {
    matches!(src, Src::Imm(_)) || matches!(src, Src::Sgpr(c) if c < 128)
}

/// A source the tier can read: a VGPR, an SGPR or a constant.
fn lane_source(src: Src) -> bool {
    matches!(src, Src::Vgpr(_)) || scalar_source(src)
}

/// True when `code` names EXEC (either half), which a block never writes:
/// its lane count and EXEC are fixed for the whole block.
fn is_exec(code: u16) -> bool {
    code & 127 == sreg::EXEC || code & 127 == sreg::EXEC + 1
}

/// The kind of `op` if the tier translates it in a `version` program with
/// (the decoded operands already count a wave32 lane mask as one SGPR).
pub(crate) fn kind_of(op: &Op, version: GcnVersion) -> Option<Kind> {
    let row = op.instr.row;
    if std::ptr::fn_addr_eq(
        op.handler,
        crate::exec::not_emulated as crate::exec::Handler,
    ) {
        return None;
    }
    let translated = match row.encoding {
        Encoding::Sop1 | Encoding::Sop2 | Encoding::Sopc | Encoding::Sopk | Encoding::Sopp => {
            scalar_kind(op)
        }
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc | Encoding::Vop3 => {
            vector_kind(op, version)
        }
        _ => None,
    };
    let kind = match translated {
        Some(kind) => kind,
        None => return callable(op).then_some(Kind::Call),
    };
    if kind.vector() {
        // A form the code generator does not take still runs, through its
        // handler, inside the block.
        if !vector_form(op, kind) {
            return callable(op).then_some(Kind::Call);
        }
    } else {
        for i in 0..usize::from(row.operands.len() as u8) {
            let spec = &row.operands[i];
            match (spec.role, op.opnd[i]) {
                (gcn_asm::isa::Role::Write, Src::Sgpr(code)) if is_exec(code) || code >= 128 => {
                    return None
                }
                (gcn_asm::isa::Role::Write, Src::Sgpr(_)) => {}
                (gcn_asm::isa::Role::Write, _) => return None,
                _ => {}
            }
        }
    }
    Some(kind)
}

/// True when the code generator takes vector instruction `op` of `kind`
/// in this form: no SDWA/DPP, clamp or output modifier, float modifiers
/// only on float sources, sources it can read, a VGPR destination.
fn vector_form(op: &Op, kind: Kind) -> bool {
    let m = &op.instr.mods;
    if !vector::plain_form(op) || m.clamp || m.omod != 0 {
        return false;
    }
    if (m.abs | m.neg) != 0 && !kind.float_sources() {
        return false;
    }
    if !matches!(op.opnd.get(usize::from(op.vdst)), Some(Src::Vgpr(_)) | None) {
        return false;
    }
    let mask_slot = kind.mask_source(op);
    for s in 0..3 {
        let src = op.slot_src(s);
        if src == Src::None {
            continue;
        }
        if Some(src) == mask_slot && s == 2 {
            if !scalar_source(src) {
                return false;
            }
            continue;
        }
        if !lane_source(src) {
            return false;
        }
    }
    if kind.writes_mask(op) && is_exec(vector::sdst_code(op)) {
        return false;
    }
    if let Kind::VShift(_, rev) = kind {
        // A shift by per-lane amounts: where the handler streams the
        // lanes through 256-bit host vectors (one variable-shift
        // instruction per eight lanes), it is faster than the code
        // generator's four 128-bit shifts and blends per four lanes
        // (measured: a loop of four such shifts among eight instructions
        // ran 1.6x longer translated).
        let amount = op.slot_src(if rev { 0 } else { 1 });
        if matches!(amount, Src::Vgpr(_)) && vector::streams(op) && vector::wide_vectors() {
            return false;
        }
    }
    // `v_fma_f32` needs the host's fused multiply-add.
    !matches!(kind, Kind::VFma { .. }) || host_fma()
}

/// For a FLAT or GLOBAL load or store of 1, 2 or 4 dwords per lane (no
/// `lds`, no `tfe`) — what a block's code may move itself when the access
/// is dense (`Gen::dense_memory`) —: whether it stores, and the dwords.
pub(crate) fn inline_memory(op: &Op) -> Option<(bool, usize)> {
    use gcn_asm::decode::MemFlags;
    let flags = op.instr.mods.mem.flags;
    crate::exec::flat::dword_access(op.instr.row.op).filter(|&(_, n)| {
        matches!(n, 1 | 2 | 4)
            && matches!(op.instr.row.encoding, Encoding::Flat | Encoding::Global)
            && !flags.contains(MemFlags::LDS)
            && !flags.contains(MemFlags::TFE)
    })
}

/// True when `op` may run through its handler inside a block: a vector
/// ALU or memory instruction (never a scalar ALU or program-control one,
/// which may branch, end the wave or change MODE), with no branch target,
/// that writes no part of EXEC. The block's EXEC, lane count and MODE stay
/// what they were at its entry.
fn callable(op: &Op) -> bool {
    use gcn_asm::isa::{Role, Unit};
    let row = op.instr.row;
    if !matches!(row.unit(), Unit::Valu | Unit::Smem | Unit::Ds | Unit::Vmem)
        || row.flow == gcn_asm::isa::Flow::Jump
        || row.has(flags::ENDS)
        || op
            .instr
            .operands()
            .iter()
            .any(|o| matches!(o, gcn_asm::decode::Operand::Target(_)))
    {
        return false;
    }
    !op.instr.accesses().iter().any(|a| {
        a.role != Role::Read
            && match a.location {
                gcn_asm::decode::Location::Sgprs { code, count } => {
                    (code..code + count).any(is_exec)
                }
                gcn_asm::decode::Location::State(_) => true,
                gcn_asm::decode::Location::Vgprs { .. } => false,
            }
    })
}

/// The host has fused multiply-add instructions (`v_fma_f32` needs them).
fn host_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::is_x86_feature_detected!("fma");
    #[cfg(not(target_arch = "x86_64"))]
    true
}

fn scalar_kind(op: &Op) -> Option<Kind> {
    let row = op.instr.row;
    let two = |k| {
        (scalar_source(op.src(1)) && scalar_source(op.src(2)) && row.operands.len() == 3)
            .then_some(Kind::SAlu(k))
    };
    let cmp = |cc| (scalar_source(op.src(0)) && scalar_source(op.src(1))).then_some(Kind::SCmp(cc));
    Some(match row.op {
        M::SNop
        | M::SWaitcnt
        | M::SWaitcntVscnt
        | M::SWaitcntVmcnt
        | M::SWaitcntExpcnt
        | M::SWaitcntLgkmcnt
        | M::SWaitcntDepctr => Kind::Nop,
        M::SMovB32 if scalar_source(op.src(1)) => Kind::SMov,
        M::SMovkI32 if matches!(op.src(1), Src::Imm(_)) => Kind::SMovk,
        M::SAddU32 => two(SAlu::AddU32)?,
        M::SSubU32 => two(SAlu::SubU32)?,
        M::SAddI32 => two(SAlu::AddI32)?,
        M::SSubI32 => two(SAlu::SubI32)?,
        M::SAndB32 => two(SAlu::And)?,
        M::SOrB32 => two(SAlu::Or)?,
        M::SXorB32 => two(SAlu::Xor)?,
        M::SLshlB32 => two(SAlu::Lshl)?,
        M::SLshrB32 => two(SAlu::Lshr)?,
        M::SAshrI32 => two(SAlu::Ashr)?,
        M::SMulI32 => two(SAlu::Mul)?,
        M::SCmpEqI32 | M::SCmpEqU32 => cmp(IntCC::Equal)?,
        M::SCmpLgI32 | M::SCmpLgU32 => cmp(IntCC::NotEqual)?,
        M::SCmpGtI32 => cmp(IntCC::SignedGreaterThan)?,
        M::SCmpGeI32 => cmp(IntCC::SignedGreaterThanOrEqual)?,
        M::SCmpLtI32 => cmp(IntCC::SignedLessThan)?,
        M::SCmpLeI32 => cmp(IntCC::SignedLessThanOrEqual)?,
        M::SCmpGtU32 => cmp(IntCC::UnsignedGreaterThan)?,
        M::SCmpGeU32 => cmp(IntCC::UnsignedGreaterThanOrEqual)?,
        M::SCmpLtU32 => cmp(IntCC::UnsignedLessThan)?,
        M::SCmpLeU32 => cmp(IntCC::UnsignedLessThanOrEqual)?,
        M::SBranch | M::SCbranchScc0 | M::SCbranchScc1 | M::SCbranchVccz | M::SCbranchVccnz
            if matches!(op.src(0), Src::Imm(_)) =>
        {
            match row.op {
                M::SBranch => Kind::Branch,
                M::SCbranchScc0 => Kind::BranchScc(false),
                M::SCbranchScc1 => Kind::BranchScc(true),
                M::SCbranchVccz => Kind::BranchVcc(false),
                _ => Kind::BranchVcc(true),
            }
        }
        _ => return None,
    })
}

fn vector_kind(op: &Op, version: GcnVersion) -> Option<Kind> {
    let row = op.instr.row;
    if row.compare.is_some() {
        if row.writes_implicit(ImplicitReg::Exec, version) {
            return None;
        }
        let ty = row.operand(Field::Src0)?.ty;
        let pred = row.compare?;
        return match ty {
            DataType::I32 | DataType::U32 => {
                let signed = ty == DataType::I32;
                let cc = match (pred, signed) {
                    (CompareOp::F, _) => Err(false),
                    (CompareOp::Tru, _) => Err(true),
                    (CompareOp::Eq, _) => Ok(IntCC::Equal),
                    (CompareOp::Lg, _) => Ok(IntCC::NotEqual),
                    (CompareOp::Lt, true) => Ok(IntCC::SignedLessThan),
                    (CompareOp::Le, true) => Ok(IntCC::SignedLessThanOrEqual),
                    (CompareOp::Gt, true) => Ok(IntCC::SignedGreaterThan),
                    (CompareOp::Ge, true) => Ok(IntCC::SignedGreaterThanOrEqual),
                    (CompareOp::Lt, false) => Ok(IntCC::UnsignedLessThan),
                    (CompareOp::Le, false) => Ok(IntCC::UnsignedLessThanOrEqual),
                    (CompareOp::Gt, false) => Ok(IntCC::UnsignedGreaterThan),
                    (CompareOp::Ge, false) => Ok(IntCC::UnsignedGreaterThanOrEqual),
                    _ => return None,
                };
                Some(Kind::VCmpInt(cc))
            }
            DataType::F32 => {
                let cc = match pred {
                    CompareOp::F => Err(false),
                    CompareOp::Tru => Err(true),
                    CompareOp::Lt => Ok(FloatCC::LessThan),
                    CompareOp::Eq => Ok(FloatCC::Equal),
                    CompareOp::Le => Ok(FloatCC::LessThanOrEqual),
                    CompareOp::Gt => Ok(FloatCC::GreaterThan),
                    CompareOp::Lg => Ok(FloatCC::OrderedNotEqual),
                    CompareOp::Ge => Ok(FloatCC::GreaterThanOrEqual),
                    CompareOp::O => Ok(FloatCC::Ordered),
                    CompareOp::U => Ok(FloatCC::Unordered),
                    CompareOp::Nge => Ok(FloatCC::UnorderedOrLessThan),
                    CompareOp::Nlg => Ok(FloatCC::UnorderedOrEqual),
                    CompareOp::Ngt => Ok(FloatCC::UnorderedOrLessThanOrEqual),
                    CompareOp::Nle => Ok(FloatCC::UnorderedOrGreaterThan),
                    CompareOp::Neq => Ok(FloatCC::NotEqual),
                    CompareOp::Nlt => Ok(FloatCC::UnorderedOrGreaterThanOrEqual),
                    CompareOp::Class => return None,
                };
                Some(Kind::VCmpF32(cc))
            }
            _ => None,
        };
    }
    if let Some(part) = valu_int::address_part(row) {
        return Some(match part {
            valu_int::AddressPart::Move => Kind::VMov,
            _ => Kind::VAddSub {
                sub: false,
                rev: false,
            },
        });
    }
    let carry_row = row.has(flags::VOP3B);
    let add = |sub, rev| Some(Kind::VAddSub { sub, rev });
    match row.op {
        M::VSubI32 | M::VSubU32 | M::VSubCoU32 if carry_row => add(true, false),
        M::VSubrevI32 | M::VSubrevU32 | M::VSubrevCoU32 if carry_row => add(true, true),
        M::VSubbU32 | M::VSubbCoU32 | M::VSubCoCiU32 => add(true, false),
        M::VSubbrevU32 | M::VSubbrevCoU32 | M::VSubrevCoCiU32 => add(true, true),
        M::VAddU32 | M::VAddNcU32 => add(false, false),
        M::VSubU32 | M::VSubNcU32 => add(true, false),
        M::VSubrevU32 | M::VSubrevNcU32 => add(true, true),
        M::VCndmaskB32 => Some(Kind::VCndmask),
        M::VAndB32 => Some(Kind::VInt(VInt::And)),
        M::VOrB32 => Some(Kind::VInt(VInt::Or)),
        M::VXorB32 => Some(Kind::VInt(VInt::Xor)),
        M::VXnorB32 => Some(Kind::VInt(VInt::Xnor)),
        M::VMulLoU32 | M::VMulLoI32 => Some(Kind::VInt(VInt::MulLo)),
        M::VMulU32U24 => Some(Kind::VInt(VInt::MulU24)),
        M::VMulI32I24 => Some(Kind::VInt(VInt::MulI24)),
        M::VMinU32 => Some(Kind::VInt(VInt::MinU)),
        M::VMaxU32 => Some(Kind::VInt(VInt::MaxU)),
        M::VMinI32 => Some(Kind::VInt(VInt::MinI)),
        M::VMaxI32 => Some(Kind::VInt(VInt::MaxI)),
        M::VMulHiU32 => Some(Kind::VInt(VInt::MulHiU)),
        M::VMulHiI32 => Some(Kind::VInt(VInt::MulHiI)),
        M::VBcntU32B32 => Some(Kind::VInt(VInt::Bcnt)),
        M::VNotB32 => Some(Kind::VNot),
        M::VAdd3U32 => Some(Kind::VInt3(Int3::Add3)),
        M::VOr3B32 => Some(Kind::VInt3(Int3::Or3)),
        M::VXor3B32 => Some(Kind::VInt3(Int3::Xor3)),
        M::VAndOrB32 => Some(Kind::VInt3(Int3::AndOr)),
        M::VXadU32 => Some(Kind::VInt3(Int3::Xad)),
        M::VBfiB32 => Some(Kind::VInt3(Int3::Bfi)),
        M::VMadU32U24 => Some(Kind::VInt3(Int3::MadU24)),
        M::VMadI32I24 => Some(Kind::VInt3(Int3::MadI24)),
        M::VMin3U32 => Some(Kind::VInt3(Int3::Min3U)),
        M::VMax3U32 => Some(Kind::VInt3(Int3::Max3U)),
        M::VMed3U32 => Some(Kind::VInt3(Int3::Med3U)),
        M::VMin3I32 => Some(Kind::VInt3(Int3::Min3I)),
        M::VMax3I32 => Some(Kind::VInt3(Int3::Max3I)),
        M::VMed3I32 => Some(Kind::VInt3(Int3::Med3I)),
        M::VLshlAddU32 => Some(Kind::VInt3(Int3::LshlAdd)),
        M::VAddLshlU32 => Some(Kind::VInt3(Int3::AddLshl)),
        M::VLshlOrB32 => Some(Kind::VInt3(Int3::LshlOr)),
        M::VBfeU32 => Some(Kind::VInt3(Int3::BfeU)),
        M::VBfeI32 => Some(Kind::VInt3(Int3::BfeI)),
        M::VAlignbitB32 => Some(Kind::VInt3(Int3::Alignbit)),
        M::VAlignbyteB32 => Some(Kind::VInt3(Int3::Alignbyte)),
        M::VMinF32 => Some(Kind::VMinMaxF32(MinMax::Min)),
        M::VMaxF32 => Some(Kind::VMinMaxF32(MinMax::Max)),
        M::VMin3F32 => Some(Kind::VMinMaxF32(MinMax::Min3)),
        M::VMax3F32 => Some(Kind::VMinMaxF32(MinMax::Max3)),
        M::VMed3F32 => Some(Kind::VMinMaxF32(MinMax::Med3)),
        M::VFloorF32 => Some(Kind::VF32Unary(F32Unary::Floor)),
        M::VCeilF32 => Some(Kind::VF32Unary(F32Unary::Ceil)),
        M::VTruncF32 => Some(Kind::VF32Unary(F32Unary::Trunc)),
        M::VRndneF32 => Some(Kind::VF32Unary(F32Unary::Rndne)),
        M::VSqrtF32 => Some(Kind::VF32Unary(F32Unary::Sqrt)),
        M::VRcpF32 | M::VRcpIflagF32 => Some(Kind::VF32Unary(F32Unary::Rcp)),
        M::VCvtF32Ubyte0 => Some(Kind::VCvtUbyte(0)),
        M::VCvtF32Ubyte1 => Some(Kind::VCvtUbyte(1)),
        M::VCvtF32Ubyte2 => Some(Kind::VCvtUbyte(2)),
        M::VCvtF32Ubyte3 => Some(Kind::VCvtUbyte(3)),
        M::VCvtI32F32 => Some(Kind::VCvtToInt { signed: true }),
        M::VCvtU32F32 => Some(Kind::VCvtToInt { signed: false }),
        M::VLshlB32 => Some(Kind::VShift(Shift::Left, false)),
        M::VLshrB32 => Some(Kind::VShift(Shift::Right, false)),
        M::VAshrI32 => Some(Kind::VShift(Shift::Arithmetic, false)),
        M::VLshlrevB32 => Some(Kind::VShift(Shift::Left, true)),
        M::VLshrrevB32 => Some(Kind::VShift(Shift::Right, true)),
        M::VAshrrevI32 => Some(Kind::VShift(Shift::Arithmetic, true)),
        M::VAddF32 => Some(Kind::VF32(F32Op::Add)),
        M::VSubF32 => Some(Kind::VF32(F32Op::Sub)),
        M::VSubrevF32 => Some(Kind::VF32(F32Op::Subrev)),
        M::VMulF32 => Some(Kind::VF32(F32Op::Mul)),
        M::VFmaF32 => Some(Kind::VFma { acc: false }),
        M::VFmacF32 => Some(Kind::VFma { acc: true }),
        M::VMadF32 => Some(Kind::VMad { acc: false }),
        M::VMacF32 => Some(Kind::VMad { acc: true }),
        M::VCvtF32I32 => Some(Kind::VCvtFromInt { signed: true }),
        M::VCvtF32U32 => Some(Kind::VCvtFromInt { signed: false }),
        _ => None,
    }
}

/// What [`Jit::compile`] translates: a block of a pre-decoded program, for
/// one EXEC variant and MODE.
pub(crate) struct Plan<'a> {
    pub ops: &'a Decoded,
    pub block: &'a Block,
    pub version: GcnVersion,
    pub wave32: bool,
    /// EXEC is all the wave's lanes (writes need no blend).
    pub full: bool,
    /// The code calls the checks' hooks (`super::enabled::check_before`).
    pub checked: bool,
    pub mode: u32,
    /// The wave ends right after the block (`s_endpgm` follows it) and
    /// nothing reads an ended wave's registers
    /// (`Decoded::end_discards_registers`): a register value no later
    /// instruction of the block reads is never seen, so the code need not
    /// write it ([`dead_rows`], [`dead_masks`]). The checks read no
    /// register but an instruction's operands (its hooks run before the
    /// instruction, which is later in the block), and `s_endpgm` has none.
    pub ends_wave: bool,
}

/// The code generator and the memory of the code it made.
pub(crate) struct Jit {
    module: JITModule,
    ctx: Context,
    fctx: FunctionBuilderContext,
    functions: u32,
}

// SAFETY: the module's state (code memory, symbol tables) is reached only
// through `&mut Jit`, which the tier's mutex hands to one thread at a
// time; the finished code it returns is immutable and callable from any
// thread.
unsafe impl Send for Jit {}

impl Jit {
    /// A code generator for the host, if the host has what the tier's code
    /// needs (128-bit vectors with SSE4.1 on x86-64).
    pub fn new() -> Option<Jit> {
        #[cfg(target_arch = "x86_64")]
        if !std::is_x86_feature_detected!("sse4.1") {
            return None;
        }
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").ok()?;
        // The IR verifier costs about a third of a translation: it runs in
        // debug builds (the test suite's), where a generator bug shows as a
        // verifier error, and not in release builds.
        let verify = if cfg!(debug_assertions) {
            "true"
        } else {
            "false"
        };
        flags.set("enable_verifier", verify).ok()?;
        let isa = cranelift_native::builder()
            .ok()?
            .finish(settings::Flags::new(flags))
            .ok()?;
        let module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
        let ctx = module.make_context();
        Some(Jit {
            module,
            ctx,
            fctx: FunctionBuilderContext::new(),
            functions: 0,
        })
    }

    /// Frees the code.
    ///
    /// # Safety
    /// No code this generator made may run afterwards.
    pub unsafe fn free(self) {
        // SAFETY: the caller's guarantee.
        unsafe { self.module.free_memory() };
    }

    /// Translates `plan`'s block.
    pub fn compile(&mut self, plan: &Plan<'_>) -> Result<Compiled, String> {
        let f32_mode = FpMode::f32(plan.mode);
        if f32_mode.round != RoundMode::NearestEven {
            return Err("f32 round mode other than nearest even".into());
        }
        // A block that can run as a resident loop is built so; should that
        // fail (it never should), it is built in the ordinary form.
        if self.build(plan, f32_mode, true).is_err() {
            self.build(plan, f32_mode, false)?;
        }
        self.functions += 1;
        let name = format!("block{}", self.functions);
        let id = self
            .module
            .declare_function(&name, Linkage::Local, &self.ctx.func.signature)
            .map_err(|e| e.to_string())?;
        let dump = std::env::var_os("GCN_KERNELS_TIER_DUMP").is_some();
        if dump {
            self.ctx.set_disasm(true);
        }
        self.module
            .define_function(id, &mut self.ctx)
            .map_err(|e| e.to_string())?;
        if dump {
            if let Some(code) = self.ctx.compiled_code() {
                eprintln!(
                    "{}\n{}",
                    self.ctx.func.display(),
                    code.vcode.as_deref().unwrap_or("")
                );
            }
        }
        self.module.clear_context(&mut self.ctx);
        self.module
            .finalize_definitions()
            .map_err(|e| e.to_string())?;
        let code = self.module.get_finalized_function(id);
        // SAFETY: the function was declared with `BlockFn`'s signature in
        // the host's calling convention (the module's default).
        let entry = unsafe { std::mem::transmute::<*const u8, BlockFn>(code) };
        Ok(Compiled {
            entry,
            mode: plan.mode,
        })
    }

    /// Builds `plan`'s block into the code context (`resident`: as a
    /// resident loop if it can be one).
    fn build(&mut self, plan: &Plan<'_>, f32_mode: FpMode, resident: bool) -> Result<(), String> {
        self.module.clear_context(&mut self.ctx);
        let ptr = self.module.target_config().pointer_type();
        let sig = &mut self.ctx.func.signature;
        for _ in 0..3 {
            sig.params.push(AbiParam::new(ptr));
        }
        sig.params.push(AbiParam::new(types::I64));
        sig.params.push(AbiParam::new(ptr));
        sig.params.push(AbiParam::new(ptr));
        sig.returns.push(AbiParam::new(types::I32));
        {
            let b = FunctionBuilder::new(&mut self.ctx.func, &mut self.fctx);
            let call_conv = self.module.isa().default_call_conv();
            let mut gen = Gen::new(b, plan, ptr, f32_mode, call_conv);
            gen.resident_allowed = resident;
            if let Err(e) = gen.emit() {
                // The builder's context is left mid-function: start afresh.
                drop(gen);
                self.fctx = FunctionBuilderContext::new();
                return Err(e);
            }
            gen.b.seal_all_blocks();
            gen.b.finalize(self.module.target_config());
        }
        Ok(())
    }
}

/// The lane masks `segment` writes that the instructions after it in the
/// block (`rest`) write whole before any of them reads them: their final
/// value is never seen, so the segment need not build or store it. A
/// mask the block's end reaches is live, unless the wave ends there
/// (`ends_wave`: [`Plan::ends_wave`]). (An instruction of `rest` that
/// faults ends the dispatch, whose error names no register value; one
/// that stops the block otherwise hands the wave to the interpreter at
/// the next instruction, which writes the mask first as well.)
fn dead_masks(
    segment: &[(u32, &Op, Kind)],
    rest: &[(u32, &Op, Kind)],
    wave32: bool,
    ends_wave: bool,
) -> Vec<u16> {
    use gcn_asm::decode::Location;
    let regs: u16 = if wave32 { 1 } else { 2 };
    let mut dead = Vec::new();
    for &(_, op, kind) in segment {
        if !kind.writes_mask(op) {
            continue;
        }
        let code = vector::sdst_code(op) & 127;
        if code == sreg::NULL || dead.contains(&code) {
            continue;
        }
        // Bit r: register code + r written whole so far.
        let mut written = 0u8;
        let full = (1u8 << regs) - 1;
        let mut live = !ends_wave;
        'scan: for &(_, later, _) in rest {
            let accesses = later.instr.accesses();
            for a in accesses.iter().filter(|a| a.role.reads()) {
                if let Location::Sgprs { code: c, count } = a.location {
                    for r in 0..regs {
                        let reg = (code + r) & 127;
                        if written & (1 << r) == 0 && (c..c + count).any(|x| x & 127 == reg) {
                            live = true;
                            break 'scan;
                        }
                    }
                }
            }
            for a in accesses
                .iter()
                .filter(|a| a.role != Role::Read && !a.partial)
            {
                if let Location::Sgprs { code: c, count } = a.location {
                    for r in 0..regs {
                        if (c..c + count).any(|x| x & 127 == (code + r) & 127) {
                            written |= 1 << r;
                        }
                    }
                }
            }
            if written == full {
                live = false;
                break;
            }
        }
        if !live {
            dead.push(code);
        }
    }
    dead
}

/// The VGPRs `segment` writes that no instruction after it in the block
/// (`rest`) reads and that are not in `keep`, when the wave ends after the
/// block (`ends_wave`: [`Plan::ends_wave`]): their values are never seen,
/// so the segment's passes need not store them. Without `ends_wave`,
/// none.
fn dead_rows(
    segment: &[(u32, &Op, Kind)],
    rest: &[(u32, &Op, Kind)],
    keep: &[u16],
    ends_wave: bool,
) -> Vec<u16> {
    use gcn_asm::decode::Location;
    if !ends_wave {
        return Vec::new();
    }
    let rows = |ops: &[(u32, &Op, Kind)], reads: bool| -> Vec<u16> {
        let mut rows = Vec::new();
        for &(_, op, _) in ops {
            for a in op.instr.accesses().iter() {
                let wanted = if reads {
                    a.role.reads() || a.partial
                } else {
                    a.role != Role::Read
                };
                if let (true, Location::Vgprs { index, count }) = (wanted, a.location) {
                    rows.extend(index..index.saturating_add(count));
                }
            }
        }
        rows
    };
    let read_later = rows(rest, true);
    let mut dead = rows(segment, false);
    dead.retain(|r| !read_later.contains(r) && !keep.contains(r));
    dead.sort_unstable();
    dead.dedup();
    dead
}

/// Flags of an access to the dispatch's memory by host address (checked
/// in bounds before; 4-byte aligned only).
fn host_memory() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

/// Little-endian lane order for bitcasts between vector types.
fn lanes_le() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

/// Accesses to the wave's registers: aligned to their element, never
/// trapping (the entry checks bound them).
fn mem() -> MemFlagsData {
    MemFlagsData::trusted()
}

/// A value of the current pass: four lanes, and whether they are known to
/// hold no f32 denormal.
#[derive(Clone, Copy)]
struct Lanes {
    v: Value,
    flushed: bool,
}

/// A scalar read ahead of a segment: the 32-bit value and its splat.
#[derive(Clone, Copy)]
struct Splat {
    scalar: Value,
    raw: Value,
    flushed: Value,
}

struct Gen<'a, 'b> {
    b: FunctionBuilder<'b>,
    plan: &'a Plan<'a>,
    f32_mode: FpMode,
    vgpr: Value,
    sgpr: Value,
    scc: Value,
    exec: Value,
    /// Where the iteration count goes, the most iterations allowed, and the
    /// count of the current one.
    iterations: Value,
    /// The context handlers called from the block run in
    /// (`super::enabled::CallCtx`), and the host's calling convention.
    calls: Value,
    call_conv: cranelift_codegen::isa::CallConv,
    max: Value,
    count: Value,
    /// The body's first block and the exit.
    top: IrBlock,
    exit: IrBlock,
    /// Lanes the loop covers.
    lanes: u32,
    /// The host's pointer type.
    ptr: Type,
    /// Per segment: the scalars read ahead, by source.
    splats: HashMap<SrcKey, Splat>,
    /// Per segment: the lane masks read ahead (the value before the
    /// segment), by register code.
    masks_before: HashMap<u16, Value>,
    /// Per pass: the VGPRs in host registers, and which were written.
    regs: HashMap<u16, Lanes>,
    dirty: Vec<u16>,
    /// Per pass: the lane masks the segment has written so far, as lane
    /// vectors (all ones / zero).
    masks_now: HashMap<u16, Value>,
    /// Per pass: EXEC's lanes as a vector (masked variant).
    exec_lanes: Option<Value>,
    /// Per pass: pointer to the pass's first lane of row 0, and that lane.
    row_base: Option<Value>,
    first_lane: Option<Value>,
    consts: Consts,
    /// How the current pass treats NaN results, and in a `Note` pass, a
    /// result not yet tested for NaN (f32 lanes).
    nan_mode: NanMode,
    nan_pending: Option<Value>,
    /// Where a `Note` pass stores its noted lanes ([`Gen::note`]).
    nan_slot: Option<StackSlot>,
    /// In a checked block: the instructions whose `before` hooks were
    /// called (`0..hooked`).
    hooked: usize,
    /// While a resident loop's first pass is emitted: the rows it loads
    /// (`resident`).
    loads: Option<HashMap<u16, Lanes>>,
    /// Whether a block that can be a resident loop is emitted as one.
    resident_allowed: bool,
    /// The lane masks the segment being emitted need not build
    /// ([`dead_masks`]).
    dead_masks: Vec<u16>,
    /// The VGPRs whose values the segment being emitted need not store
    /// ([`dead_rows`]).
    dead_rows: Vec<u16>,
    /// While a fused region's pass is emitted: its memory accesses, by
    /// position in the region, with their host addresses.
    fused_hosts: HashMap<usize, fused::Predicted>,
    /// The fused region's store, made at each pass's end
    /// (`Gen::fused_store_pass`).
    fused_store: Option<fused::Predicted>,
}

/// How a pass treats an f32 result that is NaN.
#[derive(Clone, Copy)]
enum NanMode {
    /// Notes it (the lanes so far, if any float result was made) and keeps
    /// the host's NaN: the pass runs again with `Pick` if one was NaN.
    Note(Option<Value>),
    /// Applies the NaN rule.
    Pick,
}

/// Vector constants of a segment's preamble.
#[derive(Clone, Copy)]
struct Consts {
    zero: Value,
    /// 0x7fff_ffff and 0x0080_0000 (the flush's).
    magnitude: Value,
    least_normal: Value,
    sign: Value,
    lane_bits: Value,
}

/// A scalar source, as a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum SrcKey {
    Sgpr(u16),
    Imm(u32),
}

fn key(src: Src) -> Option<SrcKey> {
    match src {
        Src::Sgpr(c) => Some(SrcKey::Sgpr(c & 127)),
        Src::Imm(v) => Some(SrcKey::Imm(v as u32)),
        _ => None,
    }
}

impl<'a, 'b> Gen<'a, 'b> {
    fn new(
        mut b: FunctionBuilder<'b>,
        plan: &'a Plan<'a>,
        ptr: Type,
        f32_mode: FpMode,
        call_conv: cranelift_codegen::isa::CallConv,
    ) -> Self {
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let params = b.block_params(entry).to_vec();
        // The body runs in `top` (once, or once per iteration of a block
        // that loops on itself), its iteration count the block parameter;
        // every way out goes through `exit`.
        let max = b.ins().load(types::I64, mem(), params[4], 0);
        let top = b.create_block();
        let exit = b.create_block();
        b.append_block_param(top, types::I64);
        b.append_block_param(exit, types::I32);
        b.append_block_param(exit, types::I64);
        let one = b.ins().iconst(types::I64, 1);
        b.ins().jump(top, &[one.into()]);
        b.switch_to_block(top);
        let count = b.block_params(top)[0];
        let zero = b.ins().iconst(types::I32, 0);
        let zero = b.ins().splat(types::I32X4, zero);
        let consts = Consts {
            zero,
            magnitude: zero,
            least_normal: zero,
            sign: zero,
            lane_bits: zero,
        };
        Gen {
            b,
            plan,
            f32_mode,
            vgpr: params[0],
            sgpr: params[1],
            scc: params[2],
            exec: params[3],
            iterations: params[4],
            calls: params[5],
            call_conv,
            max,
            count,
            top,
            exit,
            lanes: if plan.wave32 { 32 } else { 64 },
            ptr,
            splats: HashMap::new(),
            masks_before: HashMap::new(),
            regs: HashMap::new(),
            dirty: Vec::new(),
            masks_now: HashMap::new(),
            exec_lanes: None,
            row_base: None,
            first_lane: None,
            consts,
            nan_mode: NanMode::Pick,
            nan_pending: None,
            nan_slot: None,
            hooked: 0,
            loads: None,
            resident_allowed: true,
            dead_masks: Vec::new(),
            dead_rows: Vec::new(),
            fused_hosts: HashMap::new(),
            fused_store: None,
        }
    }

    /// The block's instructions with their kinds.
    fn instrs(&self) -> Result<Vec<(u32, &'a Op, Kind)>, String> {
        let plan = self.plan;
        plan.block
            .instrs
            .iter()
            .map(|&(pc, slot)| {
                let op = plan
                    .ops
                    .ops()
                    .get(slot as usize)
                    .ok_or("block names a missing instruction")?;
                let kind = kind_of(op, plan.version)
                    .ok_or_else(|| format!("{} is not translated", op.instr))?;
                Ok((pc, op, kind))
            })
            .collect()
    }

    fn emit(&mut self) -> Result<(), String> {
        let instrs = self.instrs()?;
        if let Some((first, end)) = self
            .resident_allowed
            .then(|| self.resident_form(&instrs))
            .flatten()
        {
            return self.resident(&instrs, first, end);
        }
        let mut i = 0;
        while i < instrs.len() {
            let (pc, op, kind) = instrs[i];
            if kind.ends_block() {
                self.check_before(&instrs, i);
                let (pc_after, again) = self.branch_end(pc, op, kind)?;
                let count = self.count;
                let leave = [pc_after.into(), count.into()];
                match again {
                    Some(again) => self.go_round(again, self.exit, &leave),
                    None => {
                        self.b.ins().jump(self.exit, &leave);
                    }
                }
                return self.finish();
            }
            if let Some(region) = self.fusible(&instrs, i) {
                i = self.fused(&instrs, i, region)?;
                continue;
            }
            i = self.emit_one(&instrs, i, instrs.len())?;
        }
        let (pc, op, _) = *instrs.last().ok_or("empty block")?;
        let end = self
            .b
            .ins()
            .iconst(types::I32, i64::from(pc + u32::from(op.len)));
        let count = self.count;
        self.b.ins().jump(self.exit, &[end.into(), count.into()]);
        self.finish()
    }

    /// Emits the instructions from `i` on: a vector segment (ending by
    /// `to` at the latest), or one other instruction (not a branch).
    /// Returns the index after them.
    fn emit_one(
        &mut self,
        instrs: &[(u32, &'a Op, Kind)],
        i: usize,
        to: usize,
    ) -> Result<usize, String> {
        let (_, op, kind) = instrs[i];
        if kind.vector() {
            let mut segment = Segment::default();
            let mut j = i;
            while j < to
                && instrs[j].2.vector()
                && segment.admits(instrs[j].1, instrs[j].2, self.plan.wave32)
            {
                j += 1;
            }
            self.check_before(instrs, i);
            let ends_wave = self.plan.ends_wave;
            self.dead_masks = dead_masks(&instrs[i..j], &instrs[j..], self.plan.wave32, ends_wave);
            self.dead_rows = dead_rows(&instrs[i..j], &instrs[j..], &[], ends_wave);
            self.segment(&instrs[i..j])?;
            self.dead_masks.clear();
            self.dead_rows.clear();
            return Ok(j);
        }
        if kind == Kind::Call {
            if !self.dense_memory(i, op)? && !self.scalar_load(i, op)? {
                self.call(i)?;
            }
        } else {
            self.check_before(instrs, i);
            self.scalar(op, kind)?;
        }
        Ok(i + 1)
    }

    /// The PC after the branch `op` (of `kind`, at `pc`) that ends the
    /// block, and, for a branch to the block's start (a loop of this block
    /// alone), whether to go round again: the branch is taken and the step
    /// budget allows another iteration.
    fn branch_end(
        &mut self,
        pc: u32,
        op: &Op,
        kind: Kind,
    ) -> Result<(Value, Option<Value>), String> {
        let Src::Imm(target) = op.src(0) else {
            return Err("branch without a target".into());
        };
        let target = target as u32;
        let taken = self.branch_taken(kind)?;
        let target_pc = self.b.ins().iconst(types::I32, i64::from(target));
        let next_pc = self
            .b
            .ins()
            .iconst(types::I32, i64::from(pc + u32::from(op.len)));
        let pc_after = match taken {
            None => target_pc,
            Some(t) => self.b.ins().select(t, target_pc, next_pc),
        };
        if !self.plan.block.loops {
            return Ok((pc_after, None));
        }
        let more = self
            .b
            .ins()
            .icmp(IntCC::UnsignedLessThan, self.count, self.max);
        let again = match taken {
            None => more,
            Some(t) => self.b.ins().band(t, more),
        };
        Ok((pc_after, Some(again)))
    }

    /// Goes round the block's loop again when `again`, with the iteration
    /// count one up; else to `leave` with `args`.
    fn go_round(&mut self, again: Value, leave: IrBlock, args: &[BlockArg]) {
        let count_next = self.b.ins().iadd_imm_u(self.count, 1);
        self.b
            .ins()
            .brif(again, self.top, &[count_next.into()], leave, args);
    }

    /// The exit: the iterations run go to `*iterations`, the PC after the
    /// block is returned.
    fn finish(&mut self) -> Result<(), String> {
        self.b.switch_to_block(self.exit);
        let params = self.b.block_params(self.exit).to_vec();
        // (A called handler that stopped the block exits with PC
        // `u32::MAX`; the caller reads where from the context.)
        self.b.ins().store(mem(), params[1], self.iterations, 0);
        self.b.ins().return_(&[params[0]]);
        Ok(())
    }

    /// In a checked block, ahead of translated instruction `first`, calls
    /// the checks' `before` hook (`super::enabled::check_before`) for it
    /// and the translated instructions after it, up to the next one run
    /// through its handler (whose hooks `call_handler` calls) or the next
    /// whose hook reads a register an instruction before it may write (a
    /// wait on an SGPR's count) — unless an earlier call covered it. The
    /// hooks read no value the instructions of the run compute (see
    /// `crate::exec::Hook::compiled`), so calling them ahead is calling
    /// them in place.
    fn check_before(&mut self, instrs: &[(u32, &Op, Kind)], first: usize) {
        if !self.plan.checked || first < self.hooked {
            return;
        }
        let reads_registers = |op: &Op, kind: Kind| {
            kind == Kind::Nop && op.opnd.iter().any(|s| matches!(s, Src::Sgpr(_)))
        };
        let mut end = first + 1;
        while end < instrs.len()
            && instrs[end].2 != Kind::Call
            && !reads_registers(instrs[end].1, instrs[end].2)
        {
            end += 1;
        }
        self.hooked = end;
        let last = end - 1;
        // No call while the hook has its ranges: its `before` hooks do
        // nothing then (`crate::exec::Hook::plain_ranges`).
        let call = self.b.create_block();
        let after = self.b.create_block();
        let plain = self.plain_ranges();
        self.b.ins().brif(plain, after, &[], call, &[]);
        self.b.switch_to_block(call);
        let first = self.b.ins().iconst(types::I32, first as i64);
        let last = self.b.ins().iconst(types::I32, last as i64);
        let address = super::enabled::check_before as *const () as usize;
        self.call_helper(address, &[first, last], None);
        self.b.ins().jump(after, &[]);
        self.b.switch_to_block(after);
    }

    /// Calls the helper at `address` (an `extern "C"` function of the
    /// tier) with the block's call context and `args`, returning its
    /// result of type `returns`, if it has one.
    fn call_helper(
        &mut self,
        address: usize,
        args: &[Value],
        returns: Option<Type>,
    ) -> Option<Value> {
        let mut sig = cranelift_codegen::ir::Signature::new(self.call_conv);
        sig.params.push(AbiParam::new(self.ptr));
        for &a in args {
            sig.params
                .push(AbiParam::new(self.b.func.dfg.value_type(a)));
        }
        sig.returns.extend(returns.map(AbiParam::new));
        let sig = self.b.import_signature(sig);
        let callee = self.b.ins().iconst(self.ptr, address as i64);
        let mut all = vec![self.calls];
        all.extend_from_slice(args);
        let call = self.b.ins().call_indirect(sig, callee, &all);
        self.b.inst_results(call).first().copied()
    }

    /// Runs instruction `index` of the block through its handler
    /// (`super::enabled::call_handler`); a handler that does not go on to
    /// the next instruction (a fault, a barrier) ends the block there.
    fn call(&mut self, index: usize) -> Result<(), String> {
        let index = self.b.ins().iconst(types::I32, index as i64);
        let address = super::enabled::call_handler as *const () as usize;
        let stopped = self
            .call_helper(address, &[index], Some(types::I32))
            .ok_or("the handler call returns nothing")?;
        let go_on = self.b.create_block();
        let stop = self.b.ins().iconst(types::I32, i64::from(u32::MAX));
        let count = self.count;
        self.b
            .ins()
            .brif(stopped, self.exit, &[stop.into(), count.into()], go_on, &[]);
        self.b.switch_to_block(go_on);
        Ok(())
    }

    /// A FLAT or GLOBAL load or store of 1, 2 or 4 dwords per lane, in the
    /// unchecked all-lanes variant of a wave64 block, moved by the block's
    /// own code when the access is dense — lane `l` at `first + l * size`,
    /// told from the address registers as `flat::dense_address` tells it —
    /// and one dense span (`crate::memory::DenseSpan`) holds it: the
    /// instruction's hint names the span, or `super::enabled::dense_lookup`
    /// finds it. Any other access runs through the handler, which does
    /// what the interpreter does (the per-lane paths, the faults). False:
    /// the instruction is not one of these (the caller calls its handler).
    fn dense_memory(&mut self, index: usize, op: &Op) -> Result<bool, String> {
        let plan = self.plan;
        let Some((store, dwords)) = inline_memory(op).filter(|_| plan.full && !plan.wave32) else {
            return Ok(false);
        };
        let encoding = op.instr.row.encoding;
        let (vaddr, data) = if store { (0, 1) } else { (1, 0) };
        let (Src::Vgpr(vaddr), data) = (op.src(vaddr), usize::from(op.reg(data))) else {
            return Ok(false);
        };
        let saddr = match (encoding, op.src(2)) {
            (Encoding::Global, Src::Sgpr(s)) => Some(s),
            _ => None,
        };
        let size = 4 * dwords as u32;
        let row = |r: usize| 256 * r as i32;
        let vaddr = usize::from(vaddr);

        // Dense: every lane's low word is lane 0's plus `l * size`, with no
        // carry out of 32 bits, and (without SADDR) every high word lane 0's.
        let lo0 = self.b.ins().load(types::I32, mem(), self.vgpr, row(vaddr));
        let no_carry = self.b.ins().icmp_imm_u(
            IntCC::UnsignedLessThanOrEqual,
            lo0,
            i64::from(u32::MAX - 63 * size),
        );
        let hi0 = match saddr {
            None => Some(
                self.b
                    .ins()
                    .load(types::I32, mem(), self.vgpr, row(vaddr + 1)),
            ),
            Some(_) => None,
        };
        let lo_splat = self.b.ins().splat(types::I32X4, lo0);
        let iota = self.vconst([0, size, 2 * size, 3 * size]);
        let expect = self.b.ins().iadd(lo_splat, iota);
        let step = self.splat_const(4 * size);
        let hi_splat = hi0.map(|h| self.b.ins().splat(types::I32X4, h));
        // A loop of four passes, each over four groups of four lanes (a
        // quarter of the code of the unrolled form to translate).
        let check = self.b.create_block();
        let checked = self.b.create_block();
        self.b.append_block_param(check, types::I64);
        self.b.append_block_param(check, types::I32X4);
        self.b.append_block_param(check, types::I32X4);
        self.b.append_block_param(checked, types::I32X4);
        let zero64 = self.b.ins().iconst(types::I64, 0);
        let zero = self.consts.zero;
        self.b
            .ins()
            .jump(check, &[zero64.into(), expect.into(), zero.into()]);
        self.b.switch_to_block(check);
        let params = self.b.block_params(check).to_vec();
        let (at, mut expect, mut differ) = (params[0], params[1], params[2]);
        let rows = self.b.ins().iadd(self.vgpr, at);
        for g in 0..4 {
            let lo = self
                .b
                .ins()
                .load(types::I32X4, mem(), rows, row(vaddr) + 16 * g);
            let x = self.b.ins().bxor(lo, expect);
            differ = self.b.ins().bor(differ, x);
            if let Some(hi_splat) = hi_splat {
                let hi = self
                    .b
                    .ins()
                    .load(types::I32X4, mem(), rows, row(vaddr + 1) + 16 * g);
                let x = self.b.ins().bxor(hi, hi_splat);
                differ = self.b.ins().bor(differ, x);
            }
            expect = self.b.ins().iadd(expect, step);
        }
        let next = self.b.ins().iadd_imm_s(at, 64);
        let more = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, next, 256);
        self.b.ins().brif(
            more,
            check,
            &[next.into(), expect.into(), differ.into()],
            checked,
            &[differ.into()],
        );
        self.b.switch_to_block(checked);
        let differ = self.b.block_params(checked)[0];
        let scattered = self.b.ins().vany_true(differ);
        let lo64 = self.b.ins().uextend(types::I64, lo0);
        let base = match (saddr, hi0) {
            (Some(s), _) => {
                let s64 = self.load_s64(s);
                self.b.ins().iadd(s64, lo64)
            }
            (None, Some(hi0)) => {
                let hi = self.b.ins().uextend(types::I64, hi0);
                let hi = self.b.ins().ishl_imm_u(hi, 32);
                self.b.ins().bor(hi, lo64)
            }
            (None, None) => return Err("dense access without an address".into()),
        };
        let offset = op.instr.mods.mem.offset as i64;
        let first = self.b.ins().iadd_imm_s(base, offset);
        let low_bits = self.b.ins().band_imm_u(first, 3);
        let aligned = self.b.ins().icmp_imm_u(IntCC::Equal, low_bits, 0);
        let dense = self.b.ins().band(no_carry, aligned);
        let scattered_ok = self.b.ins().icmp_imm_u(IntCC::Equal, scattered, 0);
        let dense = self.b.ins().band(dense, scattered_ok);

        let fast = self.b.create_block();
        let slow = self.b.create_block();
        let done = self.b.create_block();
        self.b.append_block_param(fast, types::I64);
        self.route(dense, first, index, size, 64, fast, slow, slow)?;

        self.b.switch_to_block(fast);
        let host = self.b.block_params(fast)[0];
        self.copy_rows(store, dwords, data, host);
        self.b.ins().jump(done, &[]);

        // Anything else: the handler.
        self.b.switch_to_block(slow);
        self.call(index)?;
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        Ok(true)
    }

    /// The words of a dense access moved between memory (outside Rust's
    /// memory model, as `crate::memory::load_words` copies them: each
    /// aligned word whole) and rows `data..` (`dwords` of them), lane
    /// `l`'s dwords at `host + l * 4 * dwords`; the builder is left after
    /// the copy.
    fn copy_rows(&mut self, store: bool, dwords: usize, data: usize, host: Value) {
        let row = |r: usize| 256 * r as i32;
        let memory = host_memory();
        let copy = self.b.create_block();
        let copied = self.b.create_block();
        self.b.append_block_param(copy, types::I64);
        let zero64 = self.b.ins().iconst(types::I64, 0);
        self.b.ins().jump(copy, &[zero64.into()]);
        self.b.switch_to_block(copy);
        let at = self.b.block_params(copy)[0];
        let rows_at = self.b.ins().iadd(self.vgpr, at);
        let words_at = self.b.ins().imul_imm_u(at, dwords as i64);
        let words_at = self.b.ins().iadd(host, words_at);
        for g in 0..4i32 {
            let word = |m: usize| 16 * (g * dwords as i32 + m as i32);
            if store {
                let rows: Vec<Value> = (0..dwords)
                    .map(|k| {
                        self.b
                            .ins()
                            .load(types::I32X4, mem(), rows_at, row(data + k) + 16 * g)
                    })
                    .collect();
                let words = self.interleave(&rows, false);
                for (m, w) in words.into_iter().enumerate() {
                    self.b.ins().store(memory, w, words_at, word(m));
                }
            } else {
                let words: Vec<Value> = (0..dwords)
                    .map(|m| self.b.ins().load(types::I32X4, memory, words_at, word(m)))
                    .collect();
                let rows = self.interleave(&words, true);
                for (k, r) in rows.into_iter().enumerate() {
                    self.b
                        .ins()
                        .store(mem(), r, rows_at, row(data + k) + 16 * g);
                }
            }
        }
        let next = self.b.ins().iadd_imm_s(at, 64);
        let more = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, next, 256);
        self.b.ins().brif(more, copy, &[next.into()], copied, &[]);
        self.b.switch_to_block(copied);
    }

    /// To `fast` with the host address of instruction `index`'s access at
    /// `first` (`lanes` lanes of `len` bytes) when `ok` and the block may
    /// make it itself — a span holds it ([`Gen::dense_span`]) and, checked,
    /// the checks' hook lets it (`super::enabled::access_allowed`) — else
    /// to `slow`, or to `refused` when it is the hook that says no.
    #[allow(clippy::too_many_arguments)]
    fn route(
        &mut self,
        ok: Value,
        first: Value,
        index: usize,
        len: u32,
        lanes: u32,
        fast: IrBlock,
        slow: IrBlock,
        refused: IrBlock,
    ) -> Result<(), String> {
        let slot = self.plan.block.instrs[index].1 as usize % crate::memory::DENSE_HINTS;
        let bytes = u64::from(len) * u64::from(lanes);
        if !self.plan.checked {
            return self.dense_span(ok, first, slot, bytes, fast, slow);
        }
        // The hook's ranges when it has them (`CallCtx::plain`): an access
        // inside its instruction's range is allowed with no call.
        let test = self.b.create_block();
        let ask = self.b.create_block();
        let decided = self.b.create_block();
        self.b.append_block_param(decided, types::I32);
        let ranges = self.b.create_block();
        self.b.ins().brif(ok, ranges, &[], slow, &[]);
        self.b.switch_to_block(ranges);
        let plain = self.plain_ranges();
        self.b.ins().brif(plain, test, &[], ask, &[]);
        self.b.switch_to_block(test);
        let at = i32::try_from(16 * self.plan.block.instrs[index].1 as usize)
            .map_err(|_| "a slot past the ranges' reach")?;
        let start = self.b.ins().load(types::I64, mem(), plain, at);
        let end = self.b.ins().load(types::I64, mem(), plain, at + 8);
        let inside = self.within(first, bytes, start, end);
        let yes = self.b.ins().iconst(types::I32, 1);
        self.b.ins().brif(inside, decided, &[yes.into()], ask, &[]);
        self.b.switch_to_block(ask);
        let index = self.b.ins().iconst(types::I32, index as i64);
        let len = self.b.ins().iconst(types::I32, i64::from(len));
        let lanes = self.b.ins().iconst(types::I32, i64::from(lanes));
        let address = super::enabled::access_allowed as *const () as usize;
        let allowed = self
            .call_helper(address, &[index, first, len, lanes], Some(types::I32))
            .ok_or("the checks' call returns nothing")?;
        self.b.ins().jump(decided, &[allowed.into()]);
        self.b.switch_to_block(decided);
        let allowed = self.b.block_params(decided)[0];
        let span = self.b.create_block();
        self.b.ins().brif(allowed, span, &[], refused, &[]);
        self.b.switch_to_block(span);
        let yes = self.b.ins().iconst(types::I8, 1);
        self.dense_span(yes, first, slot, bytes, fast, slow)
    }

    /// Whether `bytes` bytes at `first` lie in `[start, end)`:
    /// `start <= first <= end - bytes` (`end` is a span's or an
    /// allocation's, at least `FIRST_ADDRESS`: no wrap; `NO_RANGE`'s
    /// `u64::MAX` bounds hold nothing).
    fn within(&mut self, first: Value, bytes: u64, start: Value, end: Value) -> Value {
        let above = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, first, start);
        let limit = self.b.ins().iadd_imm_s(end, -(bytes as i64));
        let below = self
            .b
            .ins()
            .icmp(IntCC::UnsignedLessThanOrEqual, first, limit);
        self.b.ins().band(above, below)
    }

    /// The pointer-sized field at byte `offset` of the block's call
    /// context (`super::enabled::CallCtx`, `std::mem::offset_of!`), loaded
    /// where it is used (a handler call may change `CallCtx::plain`).
    pub(super) fn ctx_field(&mut self, offset: usize) -> Value {
        let offset = i32::try_from(offset).unwrap_or(i32::MAX);
        self.b.ins().load(self.ptr, mem(), self.calls, offset)
    }

    /// The checks' ranges of the block's call context (`CallCtx::plain`;
    /// null when the hook has none).
    fn plain_ranges(&mut self) -> Value {
        self.ctx_field(std::mem::offset_of!(super::enabled::CallCtx<'_>, plain))
    }

    /// An `s_load_dword*` whose dwords one span holds, made by the block's
    /// own code (the address as `smem::address` forms it); any other runs
    /// through the handler. False: the instruction is not one of these.
    fn scalar_load(&mut self, index: usize, op: &Op) -> Result<bool, String> {
        use crate::exec::smem::{load_dwords, offset_form, OffsetForm};
        let Some(count) = load_dwords(op.instr.row.op) else {
            return Ok(false);
        };
        let offset = match offset_form(op) {
            OffsetForm::Const(c) => (None, c),
            OffsetForm::Register(Src::Sgpr(r), extra) => (Some(r), extra),
            OffsetForm::Register(..) => return Ok(false),
        };
        let base = op.reg(1);
        let dst = op.reg(0);
        // Bits 48-63 of SBASE ignored.
        let base = self.load_s64(base);
        let mut address = self.b.ins().band_imm_u(base, 0xffff_ffff_ffff);
        if let Some(r) = offset.0 {
            let v = self.load_s32(r);
            let v = self.b.ins().sextend(types::I64, v);
            address = self.b.ins().iadd(address, v);
        }
        let address = self.b.ins().iadd_imm_s(address, offset.1);
        let address = self.b.ins().band_imm_s(address, !3);
        let fast = self.b.create_block();
        let slow = self.b.create_block();
        let done = self.b.create_block();
        self.b.append_block_param(fast, types::I64);
        let yes = self.b.ins().iconst(types::I8, 1);
        self.route(
            yes,
            address,
            index,
            4 * u32::from(count),
            1,
            fast,
            slow,
            slow,
        )?;
        self.b.switch_to_block(fast);
        let host = self.b.block_params(fast)[0];
        let memory = MemFlagsData::new().with_notrap();
        // Every dword read before any is written, as the handler does.
        let words: Vec<Value> = (0..count)
            .map(|i| {
                self.b
                    .ins()
                    .load(types::I32, memory, host, 4 * i32::from(i))
            })
            .collect();
        for (i, w) in (0..count).zip(words) {
            self.store_s32(dst + i, w);
        }
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(slow);
        self.call(index)?;
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        Ok(true)
    }

    /// Unchecked: to `fast` with the host address of the access at `first`
    /// (`bytes` long) when `dense` and hint `slot`'s span holds it, or
    /// `super::enabled::dense_lookup` finds one that does; else to `slow`.
    fn dense_span(
        &mut self,
        dense: Value,
        first: Value,
        slot: usize,
        bytes: u64,
        fast: IrBlock,
        slow: IrBlock,
    ) -> Result<(), String> {
        let lookup = self.b.create_block();
        let miss = self.b.create_block();
        self.b.ins().brif(dense, lookup, &[], slow, &[]);
        // The hint's span, if it holds the access.
        self.b.switch_to_block(lookup);
        use super::enabled::CallCtx;
        let hints = self.ctx_field(std::mem::offset_of!(CallCtx<'_>, hints));
        let spans = self.ctx_field(std::mem::offset_of!(CallCtx<'_>, dense));
        // Every hint names a span (`MemView::dense_hints`): no bounds test.
        let hint = self
            .b
            .ins()
            .load(types::I32, MemFlagsData::trusted(), hints, 4 * slot as i32);
        let hint = self.b.ins().uextend(types::I64, hint);
        let span_size = std::mem::size_of::<crate::memory::DenseSpan>() as i64;
        let at = self.b.ins().imul_imm_u(hint, span_size);
        let span = self.b.ins().iadd(spans, at);
        let span_base = self.b.ins().load(types::I64, mem(), span, 0);
        let span_end = self.b.ins().load(types::I64, mem(), span, 8);
        let span_host = self.b.ins().load(types::I64, mem(), span, 16);
        let hit = self.within(first, bytes, span_base, span_end);
        let off = self.b.ins().isub(first, span_base);
        let host = self.b.ins().iadd(span_host, off);
        self.b.ins().brif(hit, fast, &[host.into()], miss, &[]);

        // The spans searched (the hint updated), else the handler.
        self.b.switch_to_block(miss);
        let hint_index = self.b.ins().iconst(types::I32, slot as i64);
        let bytes_v = self.b.ins().iconst(types::I64, bytes as i64);
        let address = super::enabled::dense_lookup as *const () as usize;
        let found = self
            .call_helper(address, &[hint_index, first, bytes_v], Some(types::I64))
            .ok_or("the span lookup returns nothing")?;
        self.b.ins().brif(found, fast, &[found.into()], slow, &[]);
        Ok(())
    }

    /// Four lanes of `n` dwords each (1, 2 or 4 vectors) between lane-major
    /// memory order and register rows (`to_rows`) or back: a 4×`n`
    /// transpose (for `n` = 4 its own inverse).
    fn interleave(&mut self, v: &[Value], to_rows: bool) -> Vec<Value> {
        match v {
            [a, b] if to_rows => vec![
                self.dwords(*a, *b, [0, 2, 4, 6]),
                self.dwords(*a, *b, [1, 3, 5, 7]),
            ],
            [a, b] => vec![
                self.dwords(*a, *b, [0, 4, 1, 5]),
                self.dwords(*a, *b, [2, 6, 3, 7]),
            ],
            [m0, m1, m2, m3] => {
                let a = self.dwords(*m0, *m1, [0, 4, 1, 5]);
                let b = self.dwords(*m2, *m3, [0, 4, 1, 5]);
                let c = self.dwords(*m0, *m1, [2, 6, 3, 7]);
                let d = self.dwords(*m2, *m3, [2, 6, 3, 7]);
                vec![
                    self.dwords(a, b, [0, 1, 4, 5]),
                    self.dwords(a, b, [2, 3, 6, 7]),
                    self.dwords(c, d, [0, 1, 4, 5]),
                    self.dwords(c, d, [2, 3, 6, 7]),
                ]
            }
            _ => v.to_vec(),
        }
    }

    /// The dwords `pick` (0-3 of `x`, 4-7 of `y`) of two 4-dword vectors.
    fn dwords(&mut self, x: Value, y: Value, pick: [u8; 4]) -> Value {
        let bytes: Vec<u8> = pick
            .iter()
            .flat_map(|&d| (0..4).map(move |i| 4 * d + i))
            .collect();
        let mask = self.b.func.dfg.immediates.push(ConstantData::from(bytes));
        let x = self.b.ins().bitcast(types::I8X16, lanes_le(), x);
        let y = self.b.ins().bitcast(types::I8X16, lanes_le(), y);
        let r = self.b.ins().shuffle(x, y, mask);
        self.b.ins().bitcast(types::I32X4, lanes_le(), r)
    }

    // ---- scalar state ----

    fn load_s32(&mut self, code: u16) -> Value {
        let offset = 4 * i32::from(code & 127);
        self.b.ins().load(types::I32, mem(), self.sgpr, offset)
    }

    /// The 64-bit value of scalar registers `code` and `code + 1`.
    fn load_s64(&mut self, code: u16) -> Value {
        let lo = self.load_s32(code);
        let hi = self.load_s32((code + 1) & 127);
        let lo = self.b.ins().uextend(types::I64, lo);
        let hi = self.b.ins().uextend(types::I64, hi);
        let hi = self.b.ins().ishl_imm_u(hi, 32);
        self.b.ins().bor(lo, hi)
    }

    fn store_s32(&mut self, code: u16, v: Value) {
        let offset = 4 * i32::from(code & 127);
        self.b.ins().store(mem(), v, self.sgpr, offset);
    }

    fn read_s32(&mut self, src: Src) -> Result<Value, String> {
        match src {
            Src::Sgpr(c) => Ok(self.load_s32(c)),
            Src::Imm(v) => Ok(self.b.ins().iconst(types::I32, i64::from(v as u32))),
            other => Err(format!("scalar source {other:?}")),
        }
    }

    /// The wave's lanes as a mask (`Wave::lane_mask`).
    fn lane_mask(&self) -> u64 {
        if self.plan.wave32 {
            u32::MAX.into()
        } else {
            u64::MAX
        }
    }

    /// A lane-mask source as the interpreter reads it (`read_lane_mask`):
    /// an SGPR pair (one SGPR in wave32), masked by the wave's lanes.
    fn read_mask(&mut self, src: Src) -> Result<Value, String> {
        let lane_mask = self.lane_mask();
        match src {
            Src::Sgpr(c) if self.plan.wave32 => {
                let lo = self.load_s32(c);
                Ok(self.b.ins().uextend(types::I64, lo))
            }
            Src::Sgpr(c) => Ok(self.load_s64(c)),
            Src::Imm(v) => Ok(self.b.ins().iconst(types::I64, (v & lane_mask) as i64)),
            Src::None => Ok(self.b.ins().iconst(types::I64, 0)),
            other => Err(format!("lane mask source {other:?}")),
        }
    }

    /// Writes a lane mask as `Wave::set_lane_mask` does.
    fn write_mask(&mut self, code: u16, bits: Value) {
        let lo = self.b.ins().ireduce(types::I32, bits);
        if self.plan.wave32 {
            self.store_s32(code, lo);
            return;
        }
        if code == sreg::NULL {
            return;
        }
        self.store_s32(code, lo);
        let hi = self.b.ins().ushr_imm_u(bits, 32);
        let hi = self.b.ins().ireduce(types::I32, hi);
        self.store_s32((code + 1) & 127, hi);
    }

    fn load_scc(&mut self) -> Value {
        let v = self.b.ins().load(types::I8, mem(), self.scc, 0);
        self.b.ins().icmp_imm_s(IntCC::NotEqual, v, 0)
    }

    fn store_scc(&mut self, flag: Value) {
        self.b.ins().store(mem(), flag, self.scc, 0);
    }

    fn scalar(&mut self, op: &Op, kind: Kind) -> Result<(), String> {
        match kind {
            Kind::Nop => {}
            Kind::SMov => {
                let v = self.read_s32(op.src(1))?;
                self.store_s32(op.reg(0), v);
            }
            Kind::SMovk => {
                let Src::Imm(raw) = op.src(1) else {
                    return Err("s_movk_i32 without an immediate".into());
                };
                let v = raw as u16 as i16 as i32;
                let v = self.b.ins().iconst(types::I32, i64::from(v as u32));
                self.store_s32(op.reg(0), v);
            }
            Kind::SAlu(alu) => {
                let a = self.read_s32(op.src(1))?;
                let b = self.read_s32(op.src(2))?;
                let (r, scc) = self.salu(alu, a, b);
                self.store_s32(op.reg(0), r);
                if let Some(scc) = scc {
                    self.store_scc(scc);
                }
            }
            Kind::SCmp(cc) => {
                let a = self.read_s32(op.src(0))?;
                let b = self.read_s32(op.src(1))?;
                let scc = self.b.ins().icmp(cc, a, b);
                self.store_scc(scc);
            }
            _ => return Err(format!("{} is not a scalar operation", op.instr)),
        }
        Ok(())
    }

    /// A SOP2 result and its SCC (`None`: SCC is kept).
    fn salu(&mut self, alu: SAlu, a: Value, b: Value) -> (Value, Option<Value>) {
        match alu {
            SAlu::AddU32 => {
                let r = self.b.ins().iadd(a, b);
                let carry = self.b.ins().icmp(IntCC::UnsignedLessThan, r, a);
                (r, Some(carry))
            }
            SAlu::SubU32 => {
                let r = self.b.ins().isub(a, b);
                let borrow = self.b.ins().icmp(IntCC::UnsignedGreaterThan, b, a);
                (r, Some(borrow))
            }
            SAlu::AddI32 | SAlu::SubI32 => {
                let sub = alu == SAlu::SubI32;
                let r = if sub {
                    self.b.ins().isub(a, b)
                } else {
                    self.b.ins().iadd(a, b)
                };
                // Overflow: the result's sign differs from both operands'
                // (add), or from a's where b's differs from a's (sub).
                let x = self.b.ins().bxor(a, r);
                let y = if sub {
                    self.b.ins().bxor(a, b)
                } else {
                    self.b.ins().bxor(b, r)
                };
                let o = self.b.ins().band(x, y);
                let of = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, o, 0);
                (r, Some(of))
            }
            SAlu::And | SAlu::Or | SAlu::Xor | SAlu::Lshl | SAlu::Lshr | SAlu::Ashr => {
                let r = match alu {
                    SAlu::And => self.b.ins().band(a, b),
                    SAlu::Or => self.b.ins().bor(a, b),
                    SAlu::Xor => self.b.ins().bxor(a, b),
                    _ => {
                        let n = self.b.ins().band_imm_u(b, 31);
                        match alu {
                            SAlu::Lshl => self.b.ins().ishl(a, n),
                            SAlu::Lshr => self.b.ins().ushr(a, n),
                            _ => self.b.ins().sshr(a, n),
                        }
                    }
                };
                let nz = self.b.ins().icmp_imm_s(IntCC::NotEqual, r, 0);
                (r, Some(nz))
            }
            SAlu::Mul => (self.b.ins().imul(a, b), None),
        }
    }

    /// Whether the branch that ends the block is taken (`None`: always).
    fn branch_taken(&mut self, kind: Kind) -> Result<Option<Value>, String> {
        let taken = match kind {
            Kind::Branch => return Ok(None),
            Kind::BranchScc(when) => {
                let scc = self.load_scc();
                if when {
                    scc
                } else {
                    self.b.ins().icmp_imm_s(IntCC::Equal, scc, 0)
                }
            }
            Kind::BranchVcc(nonzero) => {
                let vcc = self.read_mask(Src::Sgpr(sreg::VCC))?;
                let cc = if nonzero {
                    IntCC::NotEqual
                } else {
                    IntCC::Equal
                };
                self.b.ins().icmp_imm_s(cc, vcc, 0)
            }
            _ => return Err("not a branch".into()),
        };
        Ok(Some(taken))
    }

    // ---- vector segments ----

    fn vconst(&mut self, lanes: [u32; 4]) -> Value {
        let bytes: Vec<u8> = lanes.iter().flat_map(|l| l.to_le_bytes()).collect();
        let handle = self.b.func.dfg.constants.insert(ConstantData::from(bytes));
        self.b.ins().vconst(types::I32X4, handle)
    }

    fn splat_const(&mut self, v: u32) -> Value {
        self.vconst([v; 4])
    }

    /// `v` with its f32 denormal lanes replaced by zeros of their sign.
    fn flush(&mut self, v: Value) -> Value {
        // A lane's exponent is zero when its magnitude is below the least
        // normal's bits (a signed compare: both are below 2^31). Two
        // constants, not three: a pass keeps them in host registers.
        let c = self.consts;
        let magnitude = self.b.ins().band(v, c.magnitude);
        let zero_exp = self
            .b
            .ins()
            .icmp(IntCC::SignedGreaterThan, c.least_normal, magnitude);
        let sign = self.b.ins().band_not(v, c.magnitude);
        self.b.ins().bitselect(zero_exp, sign, v)
    }

    /// A segment's preamble: its constants, and the scalars and lane masks
    /// it reads, read ahead; returns the lane masks it writes.
    fn segment_preamble(&mut self, instrs: &[(u32, &Op, Kind)]) -> Result<Vec<u16>, String> {
        self.consts = Consts {
            zero: self.splat_const(0),
            magnitude: self.splat_const(0x7fff_ffff),
            least_normal: self.splat_const(0x0080_0000),
            sign: self.splat_const(0x8000_0000),
            lane_bits: self.vconst([1, 2, 4, 8]),
        };
        self.splats.clear();
        self.masks_before.clear();
        let mut mask_dests: Vec<u16> = Vec::new();
        for &(_, op, kind) in instrs.iter().filter(|(_, _, kind)| kind.vector()) {
            let mask_src = kind.mask_source(op);
            for s in 0..3 {
                let src = op.slot_src(s);
                if s == 2 && mask_src.is_some() {
                    if let Src::Sgpr(c) = src {
                        if !self.masks_before.contains_key(&(c & 127)) {
                            let bits = self.read_mask(src)?;
                            self.masks_before.insert(c & 127, bits);
                        }
                    }
                    continue;
                }
                if let Some(k) = key(src) {
                    if !self.splats.contains_key(&k) {
                        let scalar = self.read_s32(src)?;
                        let raw = self.b.ins().splat(types::I32X4, scalar);
                        let flushed = self.flush(raw);
                        self.splats.insert(
                            k,
                            Splat {
                                scalar,
                                raw,
                                flushed,
                            },
                        );
                    }
                }
            }
            if kind.writes_mask(op) {
                let code = vector::sdst_code(op) & 127;
                if !mask_dests.contains(&code) {
                    mask_dests.push(code);
                }
            }
        }
        Ok(mask_dests)
    }

    /// Opens the loop over passes of a segment writing `masks` lane masks:
    /// returns its header, in which the builder is left, its exit, and the
    /// header's parameters (the pass's byte offset in a row, then the lane
    /// masks' bits so far, carried as bits).
    fn open_lane_loop(&mut self, masks: usize) -> (IrBlock, IrBlock, Vec<Value>) {
        let header = self.b.create_block();
        let exit = self.b.create_block();
        self.b.append_block_param(header, types::I64);
        for _ in 0..masks {
            self.b.append_block_param(header, types::I64);
            self.b.append_block_param(exit, types::I64);
        }
        let zero64 = self.b.ins().iconst(types::I64, 0);
        let args: Vec<_> = std::iter::repeat_n(zero64, masks + 1)
            .map(Into::into)
            .collect();
        self.b.ins().jump(header, &args);
        self.b.switch_to_block(header);
        let params = self.b.block_params(header).to_vec();
        (header, exit, params)
    }

    /// Closes the loop [`Gen::open_lane_loop`] opened: back to `header`
    /// with the next pass's offset `next` and the lane-mask bits `accs`
    /// while lanes remain, then, in `exit`, writes the lane masks.
    fn close_lane_loop(
        &mut self,
        (header, exit): (IrBlock, IrBlock),
        next: Value,
        accs: &[Value],
        mask_dests: &[u16],
    ) {
        self.loop_back((header, exit), next, accs);
        self.leave_lane_loop(exit, mask_dests);
    }

    /// Back to `header` with the next pass's offset `next` and the
    /// lane-mask bits `accs` while lanes remain, else to `exit`.
    fn loop_back(&mut self, (header, exit): (IrBlock, IrBlock), next: Value, accs: &[Value]) {
        let more =
            self.b
                .ins()
                .icmp_imm_s(IntCC::UnsignedLessThan, next, i64::from(self.lanes * 4));
        let back: Vec<_> = std::iter::once(next)
            .chain(accs.iter().copied())
            .map(Into::into)
            .collect();
        let out: Vec<_> = accs.iter().map(|&v| v.into()).collect();
        self.b.ins().brif(more, header, &back, exit, &out);
    }

    /// In the lane loop's `exit`: writes the lane masks.
    fn leave_lane_loop(&mut self, exit: IrBlock, mask_dests: &[u16]) {
        self.b.switch_to_block(exit);
        let accs = self.b.block_params(exit).to_vec();
        for (code, bits) in mask_dests.iter().zip(accs) {
            // Inactive lanes write 0 (`write_sdst_mask`).
            let bits = self.b.ins().band(bits, self.exec);
            self.write_mask(*code, bits);
        }
        self.row_base = None;
    }

    /// `acc` with the bits of `lanes` (all-ones / zero lanes of the pass
    /// starting at lane `first_lane`) added.
    fn add_lane_bits(&mut self, acc: Value, lanes: Value, first_lane: Value) -> Value {
        let bits = self.b.ins().vhigh_bits(types::I64, lanes);
        let bits = self.b.ins().ishl(bits, first_lane);
        self.b.ins().bor(acc, bits)
    }

    fn segment(&mut self, instrs: &[(u32, &Op, Kind)]) -> Result<(), String> {
        let mut mask_dests = self.segment_preamble(instrs)?;
        // A mask the rest of the block writes before reading it is not
        // built (its lanes still serve the segment's own reads).
        mask_dests.retain(|code| !self.dead_masks.contains(code));
        let (header, exit, params) = self.open_lane_loop(mask_dests.len());
        let offset = params[0];
        self.row_base = Some(self.b.ins().iadd(self.vgpr, offset));
        let first_lane = self.b.ins().ushr_imm_u(offset, 2);
        self.first_lane = Some(first_lane);
        self.exec_lanes = if self.plan.full {
            None
        } else {
            Some(self.lanes_of(self.exec))
        };
        // First the pass without the NaN rule's picks, noting whether any
        // float result is NaN; only then (rarely) the pass again, from the
        // same registers (nothing is stored before the end), with them.
        self.begin_pass(NanMode::Note(None));
        for (at, &(_, op, kind)) in instrs.iter().enumerate() {
            self.pass_instr(at, op, kind)?;
        }
        self.settle_nan();
        if let NanMode::Note(Some(nan)) = self.nan_mode {
            let any = self.b.ins().vhigh_bits(types::I32, nan);
            let exact = self.b.create_block();
            let fast = self.b.create_block();
            self.b.ins().brif(any, exact, &[], fast, &[]);
            self.b.switch_to_block(fast);
            self.end_pass(&mask_dests, &params, (header, exit))?;
            self.b.switch_to_block(exact);
            self.begin_pass(NanMode::Pick);
            for (at, &(_, op, kind)) in instrs.iter().enumerate() {
                self.pass_instr(at, op, kind)?;
            }
        }
        self.end_pass(&mask_dests, &params, (header, exit))?;
        self.leave_lane_loop(exit, &mask_dests);
        Ok(())
    }

    /// Starts emitting a pass's instructions (nothing of the pass in host
    /// registers yet).
    fn begin_pass(&mut self, nan: NanMode) {
        self.regs.clear();
        self.dirty.clear();
        self.masks_now.clear();
        self.nan_mode = nan;
        self.nan_pending = None;
    }

    /// Instruction `at` of the segment being emitted, in a pass: a vector
    /// ALU instruction, or in a fused region a memory access
    /// ([`Gen::fused`]) or a wait.
    fn pass_instr(&mut self, at: usize, op: &Op, kind: Kind) -> Result<(), String> {
        if kind.vector() {
            return self.vector(op, kind);
        }
        if let Some(&predicted) = self.fused_hosts.get(&at) {
            return self.fused_access(predicted);
        }
        if kind == Kind::Nop {
            return Ok(());
        }
        Err(format!("{} in a vector segment", op.instr))
    }

    /// Ends a pass: stores the rows it wrote and goes round the lane loop
    /// (`header`, or `exit` after the last pass) with the next pass's
    /// offset and the lane-mask bits so far (`params`: the header's). Each
    /// of a pass's two forms (the NaN rule's) goes round on its own, with
    /// no shared latch to jump through.
    fn end_pass(
        &mut self,
        mask_dests: &[u16],
        params: &[Value],
        (header, exit): (IrBlock, IrBlock),
    ) -> Result<(), String> {
        self.fused_store_pass()?;
        let base = self.row_base.ok_or("no pass")?;
        let first_lane = self.first_lane.ok_or("no pass")?;
        for row in std::mem::take(&mut self.dirty) {
            if self.dead_rows.contains(&row) {
                continue;
            }
            let v = self.regs[&row].v;
            self.b.ins().store(mem(), v, base, 256 * i32::from(row));
        }
        let next = self.b.ins().iadd_imm_u(params[0], 16);
        let mut accs = Vec::new();
        for (i, code) in mask_dests.iter().enumerate() {
            let lanes = self.masks_now[code];
            accs.push(self.add_lane_bits(params[1 + i], lanes, first_lane));
        }
        self.loop_back((header, exit), next, &accs);
        Ok(())
    }

    /// The lanes of the current pass whose bit is set in `bits` (i64), as
    /// a vector of all-ones / zero lanes.
    fn lanes_of(&mut self, bits: Value) -> Value {
        let first = self.first_lane.expect("inside a pass");
        let nibble = self.b.ins().ushr(bits, first);
        let nibble = self.b.ins().ireduce(types::I32, nibble);
        let v = self.b.ins().splat(types::I32X4, nibble);
        let v = self.b.ins().band(v, self.consts.lane_bits);
        self.b.ins().icmp(IntCC::NotEqual, v, self.consts.zero)
    }

    fn read_row(&mut self, row: u16) -> Lanes {
        if let Some(&l) = self.regs.get(&row) {
            return l;
        }
        let base = self.row_base.expect("inside a pass");
        let v = self
            .b
            .ins()
            .load(types::I32X4, mem(), base, 256 * i32::from(row));
        let l = Lanes { v, flushed: false };
        self.regs.insert(row, l);
        if let Some(loads) = &mut self.loads {
            loads.insert(row, l);
        }
        l
    }

    fn write_row(&mut self, row: u16, value: Lanes) {
        let value = match self.exec_lanes {
            None => value,
            Some(exec) => {
                let old = self.read_row(row);
                Lanes {
                    v: self.b.ins().bitselect(exec, value.v, old.v),
                    flushed: value.flushed && old.flushed,
                }
            }
        };
        self.regs.insert(row, value);
        if !self.dirty.contains(&row) {
            self.dirty.push(row);
        }
    }

    /// Source slot `s` as four lanes of bits.
    fn src(&mut self, op: &Op, s: usize) -> Result<Lanes, String> {
        match op.slot_src(s) {
            Src::Vgpr(r) => Ok(self.read_row(r)),
            src => {
                let k = key(src).ok_or_else(|| format!("source {src:?}"))?;
                let splat = self.splats[&k];
                Ok(Lanes {
                    v: splat.raw,
                    flushed: false,
                })
            }
        }
    }

    /// Source slot `s` as f32 lanes: abs and neg applied, denormals
    /// flushed when `flush` (the mode's input rule).
    fn src_f32(&mut self, op: &Op, s: usize, flush: bool) -> Result<Value, String> {
        let lanes = match op.slot_src(s) {
            Src::Vgpr(r) => {
                let l = self.read_row(r);
                if flush && !l.flushed {
                    self.flush(l.v)
                } else {
                    l.v
                }
            }
            src => {
                let k = key(src).ok_or_else(|| format!("source {src:?}"))?;
                let splat = self.splats[&k];
                if flush {
                    splat.flushed
                } else {
                    splat.raw
                }
            }
        };
        Ok(self.float_mods(op, s, lanes))
    }

    fn float_mods(&mut self, op: &Op, s: usize, v: Value) -> Value {
        let m = &op.instr.mods;
        let mut v = v;
        if m.abs >> s & 1 != 0 {
            let c = self.splat_const(0x7fff_ffff);
            v = self.b.ins().band(v, c);
        }
        if m.neg >> s & 1 != 0 {
            v = self.b.ins().bxor(v, self.consts.sign);
        }
        v
    }

    fn scalar_of(&self, src: Src) -> Result<Value, String> {
        let k = key(src).ok_or_else(|| format!("source {src:?}"))?;
        Ok(self.splats[&k].scalar)
    }

    /// A lane-mask source as a lane vector: the segment's own value if it
    /// wrote the register, else the value before the segment.
    fn mask_lanes(&mut self, src: Src) -> Result<Value, String> {
        match src {
            Src::Sgpr(c) => {
                if let Some(&v) = self.masks_now.get(&(c & 127)) {
                    return Ok(v);
                }
                let bits = *self
                    .masks_before
                    .get(&(c & 127))
                    .ok_or("lane mask not read ahead")?;
                Ok(self.lanes_of(bits))
            }
            Src::Imm(v) => {
                let lane_mask = self.lane_mask();
                let bits = self.b.ins().iconst(types::I64, (v & lane_mask) as i64);
                Ok(self.lanes_of(bits))
            }
            other => Err(format!("lane mask source {other:?}")),
        }
    }

    fn f32_of(&mut self, v: Value) -> Value {
        self.b.ins().bitcast(types::F32X4, lanes_le(), v)
    }

    fn bits_of(&mut self, v: Value) -> Value {
        self.b.ins().bitcast(types::I32X4, lanes_le(), v)
    }

    /// An f32 result with the output rule `flush` applied.
    fn f32_result(&mut self, r: Value, flush: bool) -> Lanes {
        let bits = self.bits_of(r);
        if flush {
            Lanes {
                v: self.flush(bits),
                flushed: true,
            }
        } else {
            Lanes {
                v: bits,
                flushed: false,
            }
        }
    }

    /// `r` (f32 lanes) with the emulator's NaN rule (`float::nan3_f32`):
    /// a NaN result where an operand (`inputs`, lane bits in source order)
    /// is NaN is the first NaN operand, quieted. Results are rarely NaN, so
    /// the pass tests for one and only then picks (a branch, not the
    /// selects, on the common path).
    fn nan_rule(&mut self, r: Value, inputs: &[Value]) -> Value {
        if let NanMode::Note(_) = self.nan_mode {
            // Results are tested in pairs: one unordered compare of two
            // results finds a NaN in either.
            match self.nan_pending.take() {
                Some(p) => {
                    let is_nan = self.b.ins().fcmp(FloatCC::Unordered, p, r);
                    let nan = self.bits_of(is_nan);
                    self.note(nan);
                }
                None => self.nan_pending = Some(r),
            }
            return r;
        }
        let is_nan = self.b.ins().fcmp(FloatCC::Unordered, r, r);
        let any = self.b.ins().vhigh_bits(types::I32, is_nan);
        let slow = self.b.create_block();
        let join = self.b.create_block();
        self.b.append_block_param(join, types::F32X4);
        self.b.ins().brif(any, slow, &[], join, &[r.into()]);
        self.b.switch_to_block(slow);
        let r_bits = self.bits_of(r);
        let fixed = self.first_nan(r_bits, inputs);
        let fixed = self.f32_of(fixed);
        self.b.ins().jump(join, &[fixed.into()]);
        self.b.switch_to_block(join);
        self.b.block_params(join)[0]
    }

    /// In a `Note` pass, tests the result left untested by the pairing in
    /// [`Gen::nan_rule`], if one is (before the pass's noted lanes are
    /// read).
    fn settle_nan(&mut self) {
        if let Some(p) = self.nan_pending.take() {
            let is_nan = self.b.ins().fcmp(FloatCC::Unordered, p, p);
            let nan = self.bits_of(is_nan);
            self.note(nan);
        }
    }

    /// In a `Note` pass, adds `lanes` (all ones or zero) to the lanes that
    /// need the exact pass.
    fn note(&mut self, lanes: Value) {
        if let NanMode::Note(seen) = self.nan_mode {
            let seen = match seen {
                None => lanes,
                Some(s) => self.b.ins().bor(s, lanes),
            };
            self.nan_mode = NanMode::Note(Some(seen));
            // A store (of nothing anyone reads) pins the test here: the
            // code generator places side-effect-free operations where they
            // are first needed, which for the noted lanes is the pass's
            // end, and every result tested would live until then.
            let slot = match self.nan_slot {
                Some(slot) => slot,
                None => {
                    let slot = self.b.create_sized_stack_slot(StackSlotData::new(
                        StackSlotKind::ExplicitSlot,
                        16,
                        4,
                    ));
                    *self.nan_slot.insert(slot)
                }
            };
            let ptr = self.ptr;
            self.b.ins().stack_store(ptr, seen, slot, 0);
        }
    }

    /// `r` (lane bits) where it is not NaN; where it is, the first NaN of
    /// `inputs` quieted, if one is (`float::nan3_f32`'s choice).
    fn first_nan(&mut self, r: Value, inputs: &[Value]) -> Value {
        let quiet_bit = self.splat_const(0x0040_0000);
        let mut pick = r;
        for &input in inputs.iter().rev() {
            let nan = self.is_nan(input);
            let quiet = self.b.ins().bor(input, quiet_bit);
            pick = self.b.ins().bitselect(nan, quiet, pick);
        }
        let r_nan = self.is_nan(r);
        self.b.ins().bitselect(r_nan, pick, r)
    }

    /// The lanes of `v` (bits) that are NaN, as all ones.
    fn is_nan(&mut self, v: Value) -> Value {
        let f = self.f32_of(v);
        let nan = self.b.ins().fcmp(FloatCC::Unordered, f, f);
        self.bits_of(nan)
    }

    /// The f32 compare `a cc b` of lane bits, as all-ones lanes.
    fn fcmp_bits(&mut self, cc: FloatCC, a: Value, b: Value) -> Value {
        let (fa, fb) = (self.f32_of(a), self.f32_of(b));
        let m = self.b.ins().fcmp(cc, fa, fb);
        self.bits_of(m)
    }

    /// `v_min/max_f32` and the three-source forms on lane bits (denormals
    /// already flushed per MODE): the handlers' rules. A `Note` pass
    /// computes the result for operands that are not NaN and notes the
    /// lanes with a NaN operand; the `Pick` pass (run when one was noted)
    /// applies the NaN rules.
    fn min_max(&mut self, mm: MinMax, x: &[Value]) -> Value {
        let max = matches!(mm, MinMax::Max | MinMax::Max3);
        if let NanMode::Note(_) = self.nan_mode {
            let mut nan = self.fcmp_bits(FloatCC::Unordered, x[0], x[1]);
            if let Some(&c) = x.get(2) {
                let c_nan = self.is_nan(c);
                nan = self.b.ins().bor(nan, c_nan);
            }
            self.note(nan);
            return match mm {
                MinMax::Min | MinMax::Max => self.min_max2(max, x[0], x[1]),
                MinMax::Min3 | MinMax::Max3 => {
                    let t = self.min_max2(max, x[0], x[1]);
                    self.min_max2(max, t, x[2])
                }
                MinMax::Med3 => self.med3(Ordered::F32, x[0], x[1], x[2]),
            };
        }
        let ieee = self.plan.mode & crate::exec::float::MODE_IEEE != 0;
        match mm {
            MinMax::Min | MinMax::Max => self.min_max2_exact(max, x[0], x[1], ieee),
            MinMax::Min3 | MinMax::Max3 => {
                // min32(min32(a, b), c), then the NaN rule of the handler's
                // three-operand loop (`nan3_f32`) on the result.
                let t = self.min_max2_exact(max, x[0], x[1], ieee);
                let r = self.min_max2_exact(max, t, x[2], ieee);
                self.first_nan(r, x)
            }
            MinMax::Med3 => {
                let (a, b, c) = (x[0], x[1], x[2]);
                // The handler's `med3`: a NaN operand makes it the MIN of
                // the other two (the first NaN's), a signalling NaN with
                // MODE.IEEE its quiet form (the first one's), then
                // `nan3_f32` on the result.
                let mut r = self.med3(Ordered::F32, a, b, c);
                for (nan, p, q) in [(c, a, b), (b, a, c), (a, b, c)] {
                    let m = self.min_max2_exact(false, p, q, false);
                    let is = self.is_nan(nan);
                    r = self.b.ins().bitselect(is, m, r);
                }
                if ieee {
                    let quiet_bit = self.splat_const(0x0040_0000);
                    for v in [c, b, a] {
                        let s = self.is_snan(v);
                        let q = self.b.ins().bor(v, quiet_bit);
                        r = self.b.ins().bitselect(s, q, r);
                    }
                }
                self.first_nan(r, x)
            }
        }
    }

    /// The lanes of `v` that are signalling NaNs, as all ones.
    fn is_snan(&mut self, v: Value) -> Value {
        let nan = self.is_nan(v);
        let quiet_bit = self.splat_const(0x0040_0000);
        let q = self.b.ins().band(v, quiet_bit);
        let clear = self.b.ins().icmp(IntCC::Equal, q, self.consts.zero);
        self.b.ins().band(nan, clear)
    }

    /// `min32` / `max32` of lanes that are not NaN (anything where one
    /// is): the smaller (larger) value, of equal ones the bits' OR (AND),
    /// which puts -0 below +0.
    fn min_max2(&mut self, max: bool, a: Value, b: Value) -> Value {
        let (take_a, take_b) = if max {
            (FloatCC::GreaterThan, FloatCC::LessThan)
        } else {
            (FloatCC::LessThan, FloatCC::GreaterThan)
        };
        let pick_a = self.fcmp_bits(take_a, a, b);
        let pick_b = self.fcmp_bits(take_b, a, b);
        let tie = if max {
            self.b.ins().band(a, b)
        } else {
            self.b.ins().bor(a, b)
        };
        let r = self.b.ins().bitselect(pick_b, b, tie);
        self.b.ins().bitselect(pick_a, a, r)
    }

    /// `min32` / `max32` with their NaN rules: a NaN operand gives the
    /// other, two give the first quieted; with `ieee` a signalling NaN
    /// gives its quiet form (the first operand's if both are NaN).
    fn min_max2_exact(&mut self, max: bool, a: Value, b: Value, ieee: bool) -> Value {
        let plain = self.min_max2(max, a, b);
        let na = self.is_nan(a);
        let nb = self.is_nan(b);
        let t = self.b.ins().bitselect(nb, a, plain);
        let t = self.b.ins().bitselect(na, b, t);
        let quiet_bit = self.splat_const(0x0040_0000);
        let mut quiet_a = self.b.ins().band(na, nb);
        let mut quiet_b = None;
        if ieee {
            let sa = self.is_snan(a);
            let sb = self.is_snan(b);
            quiet_a = self.b.ins().bor(quiet_a, sa);
            quiet_b = Some(self.b.ins().band_not(sb, na));
        }
        let qa = self.b.ins().bor(a, quiet_bit);
        let mut t = self.b.ins().bitselect(quiet_a, qa, t);
        if let Some(lanes) = quiet_b {
            let qb = self.b.ins().bor(b, quiet_bit);
            t = self.b.ins().bitselect(lanes, qb, t);
        }
        t
    }

    /// `a < b` (`less`) or `a > b` in `order`, as all-ones lanes.
    fn compare(&mut self, order: Ordered, less: bool, a: Value, b: Value) -> Value {
        match (order, less) {
            (Ordered::F32, true) => self.fcmp_bits(FloatCC::LessThan, a, b),
            (Ordered::F32, false) => self.fcmp_bits(FloatCC::GreaterThan, a, b),
            (Ordered::Signed, true) => self.b.ins().icmp(IntCC::SignedLessThan, a, b),
            (Ordered::Signed, false) => self.b.ins().icmp(IntCC::SignedGreaterThan, a, b),
            (Ordered::Unsigned, true) => self.lanes_ult(a, b),
            (Ordered::Unsigned, false) => self.lanes_ult(b, a),
        }
    }

    /// `a < b` unsigned, lane by lane (all-ones lanes). SSE has no unsigned
    /// 32-bit lane compare (Cranelift builds one of four instructions, the
    /// all-ones constant included); with both sign bits flipped, the signed
    /// compare is the same, and a uniform operand's flip is made once.
    fn lanes_ult(&mut self, a: Value, b: Value) -> Value {
        if !cfg!(target_arch = "x86_64") {
            return self.b.ins().icmp(IntCC::UnsignedLessThan, a, b);
        }
        let sign = self.splat_const(0x8000_0000);
        let a = self.b.ins().bxor(a, sign);
        let b = self.b.ins().bxor(b, sign);
        self.b.ins().icmp(IntCC::SignedLessThan, a, b)
    }

    /// The handlers' `med3` (of f32 lanes that are not NaN, or of
    /// integers): the median; of f32 lanes as MAX(MIN(a, b), MIN(MAX(a, b),
    /// c)) with -0 below +0, of integers S2 if it lies strictly between the
    /// others, else S1 if it does or equals S2, else S0.
    fn med3(&mut self, order: Ordered, a: Value, b: Value, c: Value) -> Value {
        if order == Ordered::F32 {
            let lo = self.min_max2_exact(false, a, b, false);
            let hi = self.min_max2_exact(true, a, b, false);
            let mid = self.min_max2_exact(false, hi, c, false);
            return self.min_max2_exact(true, lo, mid, false);
        }
        let b_eq_c = self.b.ins().icmp(IntCC::Equal, b, c);
        let c_gt_b = self.compare(order, false, c, b);
        let c_lt_b = self.compare(order, true, c, b);
        let c_lt_a = self.compare(order, true, c, a);
        let c_gt_a = self.compare(order, false, c, a);
        let b_lt_a = self.compare(order, true, b, a);
        let b_gt_a = self.compare(order, false, b, a);
        let x = self.b.ins().band(c_gt_b, c_lt_a);
        let y = self.b.ins().band(c_lt_b, c_gt_a);
        let take_c = self.b.ins().bor(x, y);
        let x = self.b.ins().band(c_lt_b, b_lt_a);
        let y = self.b.ins().band(c_gt_b, b_gt_a);
        let take_b = self.b.ins().bor(x, y);
        let take_b = self.b.ins().bor(take_b, b_eq_c);
        let r = self.b.ins().bitselect(take_b, b, a);
        self.b.ins().bitselect(take_c, c, r)
    }

    fn vdst(op: &Op) -> Result<u16, String> {
        match op.opnd.get(usize::from(op.vdst)) {
            Some(Src::Vgpr(r)) => Ok(*r),
            _ => Err(format!("{}: no VGPR destination", op.instr)),
        }
    }

    fn vector(&mut self, op: &Op, kind: Kind) -> Result<(), String> {
        let keep_in = self.f32_mode.keep_in;
        let keep_out = self.f32_mode.keep_out;
        let result = match kind {
            Kind::VMov => self.src(op, 0)?,
            Kind::VInt(int) => {
                let a = self.src(op, 0)?.v;
                let b = self.src(op, 1)?.v;
                let v = self.int_op(int, a, b);
                Lanes { v, flushed: false }
            }
            Kind::VInt3(int) => {
                let v = self.int3(op, int)?;
                Lanes { v, flushed: false }
            }
            Kind::VNot => {
                let a = self.src(op, 0)?.v;
                let v = self.b.ins().bnot(a);
                Lanes { v, flushed: false }
            }
            Kind::VShift(shift, rev) => {
                let (value, amount) = if rev { (1, 0) } else { (0, 1) };
                let v = self.src(op, value)?.v;
                let v = match op.slot_src(amount) {
                    Src::Vgpr(_) => {
                        let n = self.src(op, amount)?.v;
                        self.shift_lanes(shift, v, n)
                    }
                    src => {
                        let n = self.scalar_of(src)?;
                        self.shift_by(shift, v, n)
                    }
                };
                Lanes { v, flushed: false }
            }
            Kind::VAddSub { sub, rev } => return self.add_sub(op, sub, rev),
            Kind::VCndmask => {
                let a = self.src(op, 0)?.v;
                let b = self.src(op, 1)?.v;
                let cond = self.mask_lanes(op.slot_src(2))?;
                let v = self.b.ins().bitselect(cond, b, a);
                Lanes { v, flushed: false }
            }
            Kind::VF32(f) => {
                let a = self.src_f32(op, 0, !keep_in)?;
                let b = self.src_f32(op, 1, !keep_in)?;
                // The interpreter's `a + (-b)` compiles to a subtraction
                // (a NaN `b` keeps its sign), as here.
                let (fa, fb) = (self.f32_of(a), self.f32_of(b));
                let r = match f {
                    F32Op::Mul => self.b.ins().fmul(fa, fb),
                    F32Op::Add => self.b.ins().fadd(fa, fb),
                    F32Op::Sub => self.b.ins().fsub(fa, fb),
                    F32Op::Subrev => self.b.ins().fsub(fb, fa),
                };
                let r = self.nan_rule(r, &[a, b]);
                self.f32_result(r, !keep_out)
            }
            Kind::VFma { acc } => {
                let a = self.src_f32(op, 0, !keep_in)?;
                let b = self.src_f32(op, 1, !keep_in)?;
                let c = if acc {
                    let d = self.read_row(Self::vdst(op)?);
                    if !keep_in && !d.flushed {
                        self.flush(d.v)
                    } else {
                        d.v
                    }
                } else {
                    self.src_f32(op, 2, !keep_in)?
                };
                let (fa, fb, fc) = (self.f32_of(a), self.f32_of(b), self.f32_of(c));
                let r = self.b.ins().fma(fa, fb, fc);
                let r = self.nan_rule(r, &[a, b, c]);
                self.f32_result(r, !keep_out)
            }
            Kind::VMad { acc } => {
                let a = self.src_f32(op, 0, true)?;
                let b = self.src_f32(op, 1, true)?;
                let c = if acc {
                    let d = self.read_row(Self::vdst(op)?);
                    if d.flushed {
                        d.v
                    } else {
                        self.flush(d.v)
                    }
                } else {
                    self.src_f32(op, 2, true)?
                };
                let (fa, fb) = (self.f32_of(a), self.f32_of(b));
                let p = self.b.ins().fmul(fa, fb);
                let p = self.bits_of(p);
                let p = self.flush(p);
                let (fp, fc) = (self.f32_of(p), self.f32_of(c));
                let r = self.b.ins().fadd(fp, fc);
                let r = self.nan_rule(r, &[a, b, c]);
                self.f32_result(r, true)
            }
            Kind::VMinMaxF32(mm) => {
                let n = if matches!(mm, MinMax::Min | MinMax::Max) {
                    2
                } else {
                    3
                };
                let mut x = Vec::with_capacity(n);
                for s in 0..n {
                    x.push(self.src_f32(op, s, !keep_in)?);
                }
                let r = self.min_max(mm, &x);
                let r = self.f32_of(r);
                self.f32_result(r, !keep_out)
            }
            Kind::VF32Unary(f) => {
                let a = self.src_f32(op, 0, !keep_in)?;
                let fa = self.f32_of(a);
                let r = match f {
                    F32Unary::Floor => self.b.ins().floor(fa),
                    F32Unary::Ceil => self.b.ins().ceil(fa),
                    F32Unary::Trunc => self.b.ins().trunc(fa),
                    F32Unary::Rndne => self.b.ins().nearest(fa),
                    F32Unary::Rcp => {
                        let one = self.splat_const(1.0f32.to_bits());
                        let one = self.f32_of(one);
                        self.b.ins().fdiv(one, fa)
                    }
                    F32Unary::Sqrt => {
                        // A negative source (not -0) gives -NaN whatever
                        // the host's invalid-operation NaN is.
                        let r = self.b.ins().sqrt(fa);
                        let zero = self.f32_of(self.consts.zero);
                        let neg = self.b.ins().fcmp(FloatCC::LessThan, fa, zero);
                        let neg = self.bits_of(neg);
                        let nan = self.splat_const(0xffc0_0000);
                        let r = self.bits_of(r);
                        let r = self.b.ins().bitselect(neg, nan, r);
                        self.f32_of(r)
                    }
                };
                let r = if matches!(f, F32Unary::Sqrt | F32Unary::Rcp) {
                    // A NaN source gives it quieted, as the host's
                    // arithmetic does (the rule makes it so everywhere).
                    self.nan_rule(r, &[a])
                } else {
                    // A NaN source gives it quieted (the handlers'
                    // `integral_f32`), whatever the host's rounding
                    // instruction makes of it.
                    let r = self.bits_of(r);
                    let nan = self.is_nan(a);
                    let quiet_bit = self.splat_const(0x0040_0000);
                    let quiet = self.b.ins().bor(a, quiet_bit);
                    let r = self.b.ins().bitselect(nan, quiet, r);
                    self.f32_of(r)
                };
                self.f32_result(r, !keep_out)
            }
            Kind::VCvtUbyte(n) => {
                let a = self.src(op, 0)?.v;
                let a = self.b.ins().ushr_imm_u(a, 8 * i64::from(n));
                let m = self.splat_const(0xff);
                let a = self.b.ins().band(a, m);
                let r = self.b.ins().fcvt_from_sint(types::F32X4, a);
                self.f32_result(r, false)
            }
            Kind::VCvtToInt { signed } => {
                let a = self.src_f32(op, 0, !keep_in)?;
                let fa = self.f32_of(a);
                let v = if signed {
                    self.b.ins().fcvt_to_sint_sat(types::I32X4, fa)
                } else {
                    self.b.ins().fcvt_to_uint_sat(types::I32X4, fa)
                };
                Lanes { v, flushed: false }
            }
            Kind::VCvtFromInt { signed } => {
                let a = self.src(op, 0)?.v;
                let r = if signed {
                    self.b.ins().fcvt_from_sint(types::F32X4, a)
                } else {
                    self.b.ins().fcvt_from_uint(types::F32X4, a)
                };
                self.f32_result(r, false)
            }
            Kind::VCmpInt(cc) => {
                let lanes = match cc {
                    Ok(cc) => {
                        let a = self.src(op, 0)?.v;
                        let b = self.src(op, 1)?.v;
                        self.b.ins().icmp(cc, a, b)
                    }
                    Err(value) => self.splat_const(if value { u32::MAX } else { 0 }),
                };
                return self.set_mask(op, lanes);
            }
            Kind::VCmpF32(cc) => {
                let lanes = match cc {
                    Ok(cc) => {
                        // Compares see denormals as they are
                        // (`valu_float::vopc_f32`).
                        let a = self.src_f32(op, 0, false)?;
                        let b = self.src_f32(op, 1, false)?;
                        let (fa, fb) = (self.f32_of(a), self.f32_of(b));
                        let m = self.b.ins().fcmp(cc, fa, fb);
                        self.bits_of(m)
                    }
                    Err(value) => self.splat_const(if value { u32::MAX } else { 0 }),
                };
                return self.set_mask(op, lanes);
            }
            _ => return Err(format!("{} is not a vector operation", op.instr)),
        };
        let dst = Self::vdst(op)?;
        self.write_row(dst, result);
        Ok(())
    }

    fn set_mask(&mut self, op: &Op, lanes: Value) -> Result<(), String> {
        let code = vector::sdst_code(op) & 127;
        self.masks_now.insert(code, lanes);
        Ok(())
    }

    fn int_op(&mut self, int: VInt, a: Value, b: Value) -> Value {
        match int {
            VInt::And => self.b.ins().band(a, b),
            VInt::Or => self.b.ins().bor(a, b),
            VInt::Xor => self.b.ins().bxor(a, b),
            VInt::Xnor => {
                let x = self.b.ins().bxor(a, b);
                self.b.ins().bnot(x)
            }
            VInt::MulLo => self.b.ins().imul(a, b),
            VInt::MulU24 => {
                let m = self.splat_const(0xff_ffff);
                let a = self.b.ins().band(a, m);
                let b = self.b.ins().band(b, m);
                self.b.ins().imul(a, b)
            }
            VInt::MulI24 => {
                let a = self.b.ins().ishl_imm_u(a, 8);
                let a = self.b.ins().sshr_imm_u(a, 8);
                let b = self.b.ins().ishl_imm_u(b, 8);
                let b = self.b.ins().sshr_imm_u(b, 8);
                self.b.ins().imul(a, b)
            }
            VInt::MinU => self.b.ins().umin(a, b),
            VInt::MaxU => self.b.ins().umax(a, b),
            VInt::MinI => self.b.ins().smin(a, b),
            VInt::MaxI => self.b.ins().smax(a, b),
            VInt::MulHiU | VInt::MulHiI => {
                // Two 64-bit products of widened lane pairs (the host's
                // 32x32->64 multiplies), then their high halves.
                let signed = int == VInt::MulHiI;
                let (lo, hi) = if signed {
                    let (al, bl) = (self.b.ins().swiden_low(a), self.b.ins().swiden_low(b));
                    let (ah, bh) = (self.b.ins().swiden_high(a), self.b.ins().swiden_high(b));
                    (self.b.ins().imul(al, bl), self.b.ins().imul(ah, bh))
                } else {
                    let (al, bl) = (self.b.ins().uwiden_low(a), self.b.ins().uwiden_low(b));
                    let (ah, bh) = (self.b.ins().uwiden_high(a), self.b.ins().uwiden_high(b));
                    (self.b.ins().imul(al, bl), self.b.ins().imul(ah, bh))
                };
                self.high_halves(lo, hi)
            }
            VInt::Bcnt => {
                // Bytes' counts, summed within each lane.
                let bytes = self.b.ins().bitcast(types::I8X16, lanes_le(), a);
                let counts = self.b.ins().popcnt(bytes);
                let c = self.bits_of(counts);
                let s = self.b.ins().ushr_imm_u(c, 8);
                let c = self.b.ins().iadd(c, s);
                let s = self.b.ins().ushr_imm_u(c, 16);
                let c = self.b.ins().iadd(c, s);
                let m = self.splat_const(0xff);
                let c = self.b.ins().band(c, m);
                self.b.ins().iadd(b, c)
            }
        }
    }

    /// The odd 32-bit halves of two I64X2 vectors `lo` (lanes 0, 1) and
    /// `hi` (lanes 2, 3), as four lanes.
    fn high_halves(&mut self, lo: Value, hi: Value) -> Value {
        let lo = self.b.ins().bitcast(types::I8X16, lanes_le(), lo);
        let hi = self.b.ins().bitcast(types::I8X16, lanes_le(), hi);
        let bytes: Vec<u8> =
            [4u8, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31].to_vec();
        let mask = self.b.func.dfg.immediates.push(ConstantData::from(bytes));
        let v = self.b.ins().shuffle(lo, hi, mask);
        self.bits_of(v)
    }

    /// `v` shifted by the 32-bit scalar `n`, masked to 5 bits.
    fn shift_by(&mut self, shift: Shift, v: Value, n: Value) -> Value {
        let n = self.b.ins().band_imm_u(n, 31);
        match shift {
            Shift::Left => self.b.ins().ishl(v, n),
            Shift::Right => self.b.ins().ushr(v, n),
            Shift::Arithmetic => self.b.ins().sshr(v, n),
        }
    }

    /// Each lane of `v` shifted by its lane of `n`, masked to 5 bits. The
    /// host's vector shifts take one amount for all lanes (per-lane ones
    /// need AVX2, which Cranelift does not offer), so the whole vector is
    /// shifted by each lane's amount and lane `i` taken from the `i`th
    /// (word blends; measured: shifting lanes as scalars, extracted and
    /// inserted, is slower than the handler's AVX2 loop).
    fn shift_lanes(&mut self, shift: Shift, v: Value, n: Value) -> Value {
        let mut r = None;
        for i in 0..4u8 {
            let k = self.b.ins().extractlane(n, i);
            let part = self.shift_by(shift, v, k);
            r = Some(match r {
                None => part,
                Some(r) => {
                    // Bytes of lane `i` from `part` (16..31), the rest
                    // from `r`.
                    let bytes: Vec<u8> = (0..16u8)
                        .map(|b| if b / 4 == i { 16 + b } else { b })
                        .collect();
                    let mask = self.b.func.dfg.immediates.push(ConstantData::from(bytes));
                    let x = self.b.ins().bitcast(types::I8X16, lanes_le(), r);
                    let y = self.b.ins().bitcast(types::I8X16, lanes_le(), part);
                    let m = self.b.ins().shuffle(x, y, mask);
                    self.bits_of(m)
                }
            });
        }
        r.expect("four lanes")
    }

    /// A shift by an amount that is a lane-uniform scalar (`uniform`: the
    /// lanes of `n` are one value) or per lane; the amount is taken
    /// modulo 32.
    fn shift_amount(&mut self, shift: Shift, v: Value, n: Value, uniform: bool) -> Value {
        if uniform {
            let n = self.b.ins().extractlane(n, 0);
            self.shift_by(shift, v, n)
        } else {
            self.shift_lanes(shift, v, n)
        }
    }

    /// A three-source integer operation (`valu_int`'s `tern` rows).
    fn int3(&mut self, op: &Op, int: Int3) -> Result<Value, String> {
        let a = self.src(op, 0)?.v;
        let b = self.src(op, 1)?.v;
        let c = self.src(op, 2)?.v;
        // Whether a source's lanes are one value (a scalar or constant).
        let uniform = |s: usize| !matches!(op.slot_src(s), Src::Vgpr(_));
        Ok(match int {
            Int3::Add3 => {
                let t = self.b.ins().iadd(a, b);
                self.b.ins().iadd(t, c)
            }
            Int3::Or3 => {
                let t = self.b.ins().bor(a, b);
                self.b.ins().bor(t, c)
            }
            Int3::Xor3 => {
                let t = self.b.ins().bxor(a, b);
                self.b.ins().bxor(t, c)
            }
            Int3::AndOr => {
                let t = self.b.ins().band(a, b);
                self.b.ins().bor(t, c)
            }
            Int3::Xad => {
                let t = self.b.ins().bxor(a, b);
                self.b.ins().iadd(t, c)
            }
            Int3::Bfi => self.b.ins().bitselect(a, b, c),
            Int3::MadU24 | Int3::MadI24 => {
                let mul = if int == Int3::MadU24 {
                    VInt::MulU24
                } else {
                    VInt::MulI24
                };
                let t = self.int_op(mul, a, b);
                self.b.ins().iadd(t, c)
            }
            Int3::Min3U => {
                let t = self.b.ins().umin(a, b);
                self.b.ins().umin(t, c)
            }
            Int3::Max3U => {
                let t = self.b.ins().umax(a, b);
                self.b.ins().umax(t, c)
            }
            Int3::Min3I => {
                let t = self.b.ins().smin(a, b);
                self.b.ins().smin(t, c)
            }
            Int3::Max3I => {
                let t = self.b.ins().smax(a, b);
                self.b.ins().smax(t, c)
            }
            Int3::Med3U => self.med3(Ordered::Unsigned, a, b, c),
            Int3::Med3I => self.med3(Ordered::Signed, a, b, c),
            Int3::LshlAdd | Int3::LshlOr => {
                let t = self.shift_amount(Shift::Left, a, b, uniform(1));
                if int == Int3::LshlAdd {
                    self.b.ins().iadd(t, c)
                } else {
                    self.b.ins().bor(t, c)
                }
            }
            Int3::AddLshl => {
                let t = self.b.ins().iadd(a, b);
                self.shift_amount(Shift::Left, t, c, uniform(2))
            }
            Int3::BfeU | Int3::BfeI => {
                // `valu_int::bfe` as two shifts: up by s1 = max(0, 32 -
                // off - len) (the field's top to bit 31, or none where the
                // field runs past it), down by s1 + off; both below 32
                // but where len is 0, whose result is 0.
                let uni = uniform(1) && uniform(2);
                let m = self.splat_const(31);
                let off = self.b.ins().band(b, m);
                let len = self.b.ins().band(c, m);
                let top = self.splat_const(32);
                let end = self.b.ins().iadd(off, len);
                let s1 = self.b.ins().isub(top, end);
                let s1 = self.b.ins().smax(s1, self.consts.zero);
                let s2 = self.b.ins().iadd(s1, off);
                let up = self.shift_amount(Shift::Left, a, s1, uni);
                let down = if int == Int3::BfeI {
                    Shift::Arithmetic
                } else {
                    Shift::Right
                };
                let r = self.shift_amount(down, up, s2, uni);
                let empty = self.b.ins().icmp(IntCC::Equal, len, self.consts.zero);
                self.b.ins().bitselect(empty, self.consts.zero, r)
            }
            Int3::Alignbit | Int3::Alignbyte => {
                // (S0:S1) >> n as (S1 >> n) | ((S0 << 1) << (31 - n)):
                // every shift below 32, and n = 0 leaves S1.
                let n = if int == Int3::Alignbit {
                    let m = self.splat_const(31);
                    self.b.ins().band(c, m)
                } else {
                    let m = self.splat_const(3);
                    let n = self.b.ins().band(c, m);
                    self.b.ins().ishl_imm_u(n, 3)
                };
                let uni = uniform(2);
                let low = self.shift_amount(Shift::Right, b, n, uni);
                let a1 = self.b.ins().ishl_imm_u(a, 1);
                let k = self.splat_const(31);
                let k = self.b.ins().isub(k, n);
                let high = self.shift_amount(Shift::Left, a1, k, uni);
                self.b.ins().bor(low, high)
            }
        })
    }

    /// The add/sub family (`valu_int::addsub`): D = a ± b ± carry-in, the
    /// carry (or borrow) out of either step to the scalar destination.
    fn add_sub(&mut self, op: &Op, sub: bool, rev: bool) -> Result<(), String> {
        let (a, b) = if rev {
            (self.src(op, 1)?.v, self.src(op, 0)?.v)
        } else {
            (self.src(op, 0)?.v, self.src(op, 1)?.v)
        };
        let carry_in = match op.slot_src(2) {
            Src::None => None,
            src => Some(self.mask_lanes(src)?),
        };
        let t = if sub {
            self.b.ins().isub(a, b)
        } else {
            self.b.ins().iadd(a, b)
        };
        let o1 = if sub {
            self.lanes_ult(a, b)
        } else {
            self.lanes_ult(t, a)
        };
        let (r, carry) = match carry_in {
            None => (t, o1),
            Some(cin) => {
                // `cin` is -1 in a lane whose carry is 1: adding the carry
                // is subtracting the lane, and the reverse.
                let (r, o2) = if sub {
                    let r = self.b.ins().iadd(t, cin);
                    // A borrow out of `t - 1`: `t` was 0 and the carry 1.
                    let zero = self.consts.zero;
                    let t_zero = self.b.ins().icmp(IntCC::Equal, t, zero);
                    (r, self.b.ins().band(t_zero, cin))
                } else {
                    let r = self.b.ins().isub(t, cin);
                    (r, self.lanes_ult(r, t))
                };
                (r, self.b.ins().bor(o1, o2))
            }
        };
        let dst = Self::vdst(op)?;
        self.write_row(
            dst,
            Lanes {
                v: r,
                flushed: false,
            },
        );
        if op.sdst != u8::MAX {
            self.set_mask(op, carry)?;
        }
        Ok(())
    }
}

/// The registers a vector segment has touched so far, to keep its
/// reads-ahead valid ([`Segment::admits`]).
#[derive(Default)]
struct Segment {
    /// Lane-mask destinations (register codes).
    mask_dests: Vec<u16>,
}

impl Segment {
    /// Adds `op` if the segment can take it: it reads no scalar the
    /// segment wrote as a lane mask, other than as that lane mask, and its
    /// lane-mask destination overlaps no other one's.
    fn admits(&mut self, op: &Op, kind: Kind, wave32: bool) -> bool {
        let width = if wave32 { 1 } else { 2 };
        let overlaps = |a: u16, b: u16| a < b + width && b < a + width;
        let mask_src = kind.mask_source(op);
        for s in 0..3 {
            let src = op.slot_src(s);
            let Src::Sgpr(code) = src else { continue };
            let code = code & 127;
            let as_mask = s == 2 && mask_src.is_some();
            for &d in &self.mask_dests {
                if overlaps(code, d) && !(as_mask && code == d) {
                    return false;
                }
            }
        }
        if kind.writes_mask(op) {
            let code = vector::sdst_code(op) & 127;
            if self
                .mask_dests
                .iter()
                .any(|&d| d != code && overlaps(code, d))
            {
                return false;
            }
            if !self.mask_dests.contains(&code) {
                self.mask_dests.push(code);
            }
        }
        true
    }
}
