//! The GCN instruction set as data: one row per instruction.
//!
//! The rows come from `gcn-asm/isa/*.isa` (a readable text table, see
//! `gcn-asm/isa/README.md`), turned into Rust statics by `build.rs`. The
//! encoder, the decoder and the emulator all read these rows; nothing about
//! an instruction is written anywhere else.

use crate::arch::GcnVersion;

pub(crate) mod vocab;

/// Instruction encoding families.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Scalar, two sources.
    Sop2,
    /// Scalar, one source.
    Sop1,
    /// Scalar with a 16-bit immediate.
    Sopk,
    /// Scalar compare.
    Sopc,
    /// Scalar program control.
    Sopp,
    /// Scalar memory read (GCN 1.0/1.1).
    Smrd,
    /// Scalar memory (GCN 1.2/1.4).
    Smem,
    /// Vector, two sources (also encodable as VOP3, SDWA, DPP).
    Vop2,
    /// Vector, one source (also encodable as VOP3, SDWA, DPP).
    Vop1,
    /// Vector compare (also encodable as VOP3, SDWA, DPP).
    Vopc,
    /// Vector, three-operand encoding only (VOP3A or VOP3B).
    Vop3,
    /// Vector packed math (GCN 1.4).
    Vop3p,
    /// Vector interpolation.
    Vintrp,
    /// Local/global data share.
    Ds,
    /// Untyped buffer.
    Mubuf,
    /// Typed buffer.
    Mtbuf,
    /// Image.
    Mimg,
    /// Export.
    Exp,
    /// Flat memory (GCN 1.1+).
    Flat,
    /// Global memory (GCN 1.4).
    Global,
    /// Scratch memory (GCN 1.4).
    Scratch,
}

/// The encoding field (or syntactic role) an operand fills.
///
/// Operands are listed in a row in the order the assembly syntax takes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// Scalar destination (SOP*, VOP3B carry-out, VOPC/VOP3 compare result,
    /// v_readlane result).
    Sdst,
    /// First scalar source (SOP*).
    Ssrc0,
    /// Second scalar source (SOP*, v_readlane/v_writelane lane select).
    Ssrc1,
    /// 16-bit signed immediate (SOPK/SOPP).
    Simm16,
    /// 16-bit unsigned immediate (SOPK/SOPP).
    Imm16,
    /// A branch target; stored relative to the next instruction.
    RelAddr,
    /// `hwreg(NAME, OFFSET, SIZE)` (s_getreg/s_setreg).
    Hwreg,
    /// A 32-bit literal that follows the instruction (s_setreg_imm32_b32,
    /// v_madmk/v_madak's constant).
    Lit32,
    /// `vmcnt(N) & expcnt(N) & lgkmcnt(N)` or a plain number (s_waitcnt).
    Waitcnt,
    /// `sendmsg(MSG, GSOP, STREAM)` or a plain number.
    Sendmsg,
    /// SMRD/SMEM data register(s).
    Sdata,
    /// SMRD/SMEM base register pair or quad.
    Sbase,
    /// SMRD/SMEM offset: an immediate or an SGPR (M0 for stores on 1.2).
    Soffset,
    /// Vector destination.
    Vdst,
    /// First source of a vector instruction: VGPR, SGPR, constant or literal.
    Src0,
    /// Second source (VOP3 forms): VGPR, SGPR, constant or literal.
    Src1,
    /// Third source (VOP3).
    Src2,
    /// Second source of VOP2/VOPC: VGPR only in the 32-bit encoding.
    Vsrc1,
    /// A VGPR-only source (v_readlane's VSRC0, VINTRP VSRC).
    Vsrc0,
    /// Scalar third source (carry-in / condition mask of VOP3 forms of
    /// v_addc/v_cndmask); must be VCC in the 32-bit encoding.
    Ssrc2,
    /// VINTRP attribute (`attrN.c`).
    Attr,
    /// VINTRP parameter (`p10`, `p20`, `p0`).
    InterpParam,
    /// Vector address: DS ADDR, MUBUF/MTBUF/MIMG/FLAT VADDR.
    Vaddr,
    /// Vector data: DS DATA0, MUBUF/MTBUF/MIMG VDATA (loaded or stored),
    /// FLAT DATA (stored).
    Vdata,
    /// DS DATA1 (second data operand).
    Vdata1,
    /// Scalar resource descriptor (4 SGPRs; MIMG 8, or 4 with `r128`).
    Srsrc,
    /// MIMG sampler descriptor (4 SGPRs).
    Ssamp,
    /// GLOBAL/SCRATCH scalar address (`off` or an SGPR / SGPR pair).
    Saddr,
    /// EXP target (`mrt0`, `pos0`, `param5`, …).
    Target,
    /// EXP source: a VGPR or `off`.
    Vsrc,
}

/// The data type of an operand; decides the register count and how a
/// floating-point literal is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DataType {
    /// Untyped 16 bits.
    B16,
    /// Untyped 32 bits.
    B32,
    /// Untyped 64 bits.
    B64,
    /// Untyped 96 bits.
    B96,
    /// Untyped 128 bits.
    B128,
    /// Untyped 256 bits.
    B256,
    /// Untyped 512 bits.
    B512,
    /// Signed 16-bit integer.
    I16,
    /// Unsigned 16-bit integer.
    U16,
    /// Signed 32-bit integer.
    I32,
    /// Unsigned 32-bit integer.
    U32,
    /// Signed 64-bit integer.
    I64,
    /// Unsigned 64-bit integer.
    U64,
    /// Half float.
    F16,
    /// Single float.
    F32,
    /// Double float.
    F64,
    /// Two packed halves (VOP3P).
    PkF16,
    /// Two packed 16-bit integers (VOP3P).
    PkI16,
    /// Two packed unsigned 16-bit integers (VOP3P).
    PkU16,
}

impl DataType {
    /// Number of 32-bit registers the operand occupies.
    pub const fn registers(self) -> u16 {
        match self {
            DataType::B64 | DataType::I64 | DataType::U64 | DataType::F64 => 2,
            DataType::B96 => 3,
            DataType::B128 => 4,
            DataType::B256 => 8,
            DataType::B512 => 16,
            _ => 1,
        }
    }

    /// How a floating-point literal given for this operand is encoded.
    pub const fn float_kind(self) -> FloatKind {
        match self {
            DataType::F16 | DataType::PkF16 => FloatKind::Half,
            DataType::F64 => FloatKind::Double,
            _ => FloatKind::Single,
        }
    }
}

/// True for the 16-bit data types (one half of a register).
pub const fn is_16bit(ty: DataType) -> bool {
    matches!(
        ty,
        DataType::B16 | DataType::I16 | DataType::U16 | DataType::F16
    )
}

/// Floating-point format used for literals and inline float constants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FloatKind {
    /// IEEE half.
    Half,
    /// IEEE single.
    Single,
    /// IEEE double (a literal holds the high 32 bits).
    Double,
}

/// How an instruction uses an operand or an implicit register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Read only.
    Read,
    /// Written only (its old value does not matter).
    Write,
    /// Read and written (an accumulator, a compare-and-keep, a bit set).
    ReadWrite,
}

impl Role {
    /// True for [`Role::Read`] and [`Role::ReadWrite`].
    pub const fn reads(self) -> bool {
        matches!(self, Role::Read | Role::ReadWrite)
    }

    /// True for [`Role::Write`] and [`Role::ReadWrite`].
    pub const fn writes(self) -> bool {
        matches!(self, Role::Write | Role::ReadWrite)
    }
}

/// One operand of an instruction row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OperandSpec {
    /// The field or role.
    pub field: Field,
    /// The data type.
    pub ty: DataType,
    /// The register count, when it is not the type's (e.g. SBASE of 2 or
    /// 4 registers); 0 means "from the type".
    pub count: u8,
    /// How the instruction uses it, before the conditions of its encoding
    /// (MUBUF VADDR only with OFFEN/IDXEN/ADDR64, an atomic's return only
    /// with GLC …) that [`crate::decode::Instruction::accesses`] applies.
    pub role: Role,
}

/// A register an instruction reads or writes without naming it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImplicitReg {
    /// VCC (the SGPR pair).
    Vcc,
    /// EXEC (for scalar instructions and `v_cmpx`; every vector
    /// instruction's use of EXEC as its lane mask is implied by its unit).
    Exec,
    /// The scalar condition code.
    Scc,
    /// M0.
    M0,
    /// The MODE register.
    Mode,
    /// The TRAPSTS register.
    Trapsts,
    /// FLAT_SCRATCH (the SGPR pair; GCN 1.1+).
    FlatScratch,
}

impl ImplicitReg {
    /// The scalar operand code of the register's first SGPR on `version`
    /// and its register count, for the registers that live in the SGPR
    /// file (VCC, EXEC, M0, FLAT_SCRATCH); `None` for SCC, MODE, TRAPSTS.
    pub const fn sgprs(self, version: GcnVersion) -> Option<(u16, u16)> {
        match self {
            ImplicitReg::Vcc => Some((vocab::VCC, 2)),
            ImplicitReg::Exec => Some((vocab::EXEC, 2)),
            ImplicitReg::M0 => Some((vocab::M0, 1)),
            ImplicitReg::FlatScratch => match version {
                // GCN 1.5 has no FLAT_SCRATCH pair in the SGPR file.
                GcnVersion::Gcn1_0 | GcnVersion::Gcn1_5 | GcnVersion::Gcn1_5_1 => None,
                GcnVersion::Gcn1_1 => Some((104, 2)),
                _ => Some((102, 2)),
            },
            ImplicitReg::Scc | ImplicitReg::Mode | ImplicitReg::Trapsts => None,
        }
    }

    /// The register's name in CLRX syntax.
    pub const fn name(self) -> &'static str {
        match self {
            ImplicitReg::Vcc => "vcc",
            ImplicitReg::Exec => "exec",
            ImplicitReg::Scc => "scc",
            ImplicitReg::M0 => "m0",
            ImplicitReg::Mode => "mode",
            ImplicitReg::Trapsts => "trapsts",
            ImplicitReg::FlatScratch => "flat_scratch",
        }
    }
}

/// One implicit register use of a row (`reads:`/`writes:` in the table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Implicit {
    /// The register.
    pub reg: ImplicitReg,
    /// Read, written or both.
    pub role: Role,
    /// The versions it applies on: bit i for `GcnVersion::ALL[i]`.
    pub versions: u8,
}

impl Implicit {
    /// True when the use applies on `version`.
    pub fn on(&self, version: GcnVersion) -> bool {
        // The discriminants are the positions in `GcnVersion::ALL`.
        self.versions & (1 << version as u8) != 0
    }
}

/// The read-modify-write operation of an atomic memory instruction.
///
/// The discriminants are the operation codes the emulator's atomic
/// handlers take as a const parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    /// Exchange (returns the old value).
    Swap = 0,
    /// Compare and swap: the data holds the new value then the compare
    /// value (DS: DATA0 compare, DATA1 new value).
    Cmpswap = 1,
    /// Integer add.
    Add = 2,
    /// Integer subtract (memory − data).
    Sub = 3,
    /// Reverse subtract (data − memory).
    Rsub = 4,
    /// Signed minimum.
    Smin = 5,
    /// Unsigned minimum.
    Umin = 6,
    /// Signed maximum.
    Smax = 7,
    /// Unsigned maximum.
    Umax = 8,
    /// Bitwise and.
    And = 9,
    /// Bitwise or.
    Or = 10,
    /// Bitwise exclusive or.
    Xor = 11,
    /// Increment, wrapping to 0 past the data value.
    Inc = 12,
    /// Decrement, wrapping to the data value at 0 or above it.
    Dec = 13,
    /// Floating-point compare and swap.
    Fcmpswap = 14,
    /// Floating-point minimum.
    Fmin = 15,
    /// Floating-point maximum.
    Fmax = 16,
    /// Masked or: `(memory & ~DATA0) | DATA1` (DS).
    Mskor = 17,
    /// Wrapping subtract (DS `ds_wrap_rtn_b32`).
    Wrap = 18,
    /// Floating-point add (DS `ds_add_f32`).
    Fadd = 19,
}

/// The predicate of a vector compare (`v_cmp*_PRED_TYPE`), in the opcode
/// order of the float compares: the discriminant is the predicate's
/// 4-bit code (integer compares use `F`, `Lt`, `Eq`, `Le`, `Gt`, `Lg`
/// (`ne`), `Ge` and `Tru` (`t`)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CompareOp {
    /// Always false.
    F = 0,
    /// Less than.
    Lt = 1,
    /// Equal.
    Eq = 2,
    /// Less or equal.
    Le = 3,
    /// Greater than.
    Gt = 4,
    /// Less or greater (not equal; integer `ne`).
    Lg = 5,
    /// Greater or equal.
    Ge = 6,
    /// Ordered (neither is NaN).
    O = 7,
    /// Unordered (either is NaN).
    U = 8,
    /// Not greater or equal.
    Nge = 9,
    /// Not less or greater.
    Nlg = 10,
    /// Not greater.
    Ngt = 11,
    /// Not less or equal.
    Nle = 12,
    /// Not equal.
    Neq = 13,
    /// Not less.
    Nlt = 14,
    /// Always true (integer `t`).
    Tru = 15,
    /// The class test (`v_cmp_class_*`): SRC1's bits select float classes.
    Class = 16,
}

/// The addressing variant of an image sample or gather: which of the
/// optional address components (and sampling rules) its VADDR carries, from
/// the `_c`, `_d`, `_cd`, `_l`, `_b`, `_lz`, `_cl`, `_o` parts of its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SampleVariant(pub u8);

impl SampleVariant {
    /// `_c`: a depth-compare reference value.
    pub const C: u8 = 1;
    /// `_d`: user derivatives.
    pub const D: u8 = 2;
    /// `_l`: an explicit LOD.
    pub const L: u8 = 4;
    /// `_b`: a LOD bias.
    pub const B: u8 = 8;
    /// `_lz`: LOD 0.
    pub const LZ: u8 = 16;
    /// `_cl`: a LOD clamp.
    pub const CL: u8 = 32;
    /// `_o`: texel offsets.
    pub const O: u8 = 64;
    /// `_cd`: coarse user derivatives.
    pub const CD: u8 = 128;

    /// True when every part of `parts` (a union of the constants) is set.
    pub const fn has(self, parts: u8) -> bool {
        self.0 & parts == parts
    }
}

/// The atomic operation of a row and its data width.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Atomic {
    /// The operation.
    pub op: AtomicOp,
    /// 64-bit data (`_x2`, `_u64`, `_b64` …).
    pub wide: bool,
}

/// The unit that issues an instruction, from its encoding family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Scalar ALU and program control (SOP*).
    Salu,
    /// Vector ALU (VOP*, VINTRP).
    Valu,
    /// Scalar memory (SMRD/SMEM).
    Smem,
    /// LDS/GDS (DS).
    Ds,
    /// Vector memory (MUBUF/MTBUF/MIMG/FLAT/GLOBAL/SCRATCH).
    Vmem,
    /// Export.
    Exp,
}

impl Unit {
    /// A memory unit (scalar memory, LDS/GDS, vector memory): the units
    /// whose instructions address memory.
    pub fn is_memory(self) -> bool {
        matches!(self, Unit::Smem | Unit::Ds | Unit::Vmem)
    }
}

/// The wait counters of GCN 1.0–1.4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Counter {
    /// Vector memory (loads and stores, in order).
    Vm,
    /// LDS, GDS, scalar memory, messages.
    Lgkm,
    /// Exports, GDS, and (GCN 1.0) the reading of VMEM store data.
    Exp,
    /// GCN 1.5+ (`vscnt`): vector memory stores and atomics without return
    /// (in order), which no longer count in `vmcnt` there. [`InstrRow::counter`]
    /// names `Vm` for every vector memory row; the split is the
    /// instruction's (its `glc` decides whether an atomic returns).
    Vs,
}

impl Encoding {
    /// The unit that issues instructions of this family (the one place
    /// that groups the families into units).
    pub const fn unit(self) -> Unit {
        match self {
            Encoding::Sop2 | Encoding::Sop1 | Encoding::Sopk | Encoding::Sopc | Encoding::Sopp => {
                Unit::Salu
            }
            Encoding::Smrd | Encoding::Smem => Unit::Smem,
            Encoding::Vop2
            | Encoding::Vop1
            | Encoding::Vopc
            | Encoding::Vop3
            | Encoding::Vop3p
            | Encoding::Vintrp => Unit::Valu,
            Encoding::Ds => Unit::Ds,
            Encoding::Mubuf
            | Encoding::Mtbuf
            | Encoding::Mimg
            | Encoding::Flat
            | Encoding::Global
            | Encoding::Scratch => Unit::Vmem,
            Encoding::Exp => Unit::Exp,
        }
    }
}

impl OperandSpec {
    /// Number of 32-bit registers.
    pub const fn registers(&self) -> u16 {
        if self.count != 0 {
            self.count as u16
        } else {
            self.ty.registers()
        }
    }
}

/// Row flags (a bit set); see `gcn-asm/isa/README.md` for each flag's
/// spelling in the table.
pub mod flags {
    /// VOP2/VOP1/VOPC: the VOP3 form is VOP3B (SDST field is a carry-out).
    pub const VOP3B: u64 = 1 << 0;
    /// VOP2/VOP1/VOPC: no SDWA form.
    pub const NO_SDWA: u64 = 1 << 1;
    /// VOP2/VOP1/VOPC: no DPP form.
    pub const NO_DPP: u64 = 1 << 2;
    /// VOP2/VOP1/VOPC: no VOP3 form.
    pub const NO_VOP3: u64 = 1 << 3;
    /// Only on GCN 1.4.1 (gfx906); the opcode is in the 1.4 column.
    pub const GCN141_ONLY: u64 = 1 << 4;
    /// Not on GCN 1.5 (gfx1010): the 1.5 column's opcode is GCN 1.5.1's
    /// (gfx1011, gfx1012: the dot instructions); RDNA 2 has its own
    /// column.
    pub const GCN151_ONLY: u64 = 1 << 32;
    /// MIMG instruction whose address carries a mip level (`*_mip*`):
    /// one address dword more on GCN 1.5.
    pub const MIP: u64 = 1 << 33;
    /// RDNA 2's BVH intersection (`image_bvh*_intersect_ray`): a fixed
    /// 4-dword result and 4-dword resource, no sampler, DMASK/UNORM/R128
    /// set by the encoding, `a16` for 16-bit ray directions.
    pub const BVH: u64 = 1 << 34;
    /// VOP3 forms accept `op_sel` (GCN 1.4 16-bit instructions).
    pub const OP_SEL: u64 = 1 << 5;
    /// The instruction takes no operands at all (s_endpgm, s_barrier …).
    pub const NO_OPERANDS: u64 = 1 << 6;
    /// The last immediate may be omitted (defaults to 0), as for s_nop?
    pub const OPTIONAL_IMM: u64 = 1 << 7;
    /// A memory store: SMEM SDATA or the vector data is a source.
    pub const STORE: u64 = 1 << 8;
    /// VOP3P instruction with `op_sel_hi`/`neg_lo`/`neg_hi` (mixed
    /// precision instructions such as v_mad_mix use MIX semantics).
    pub const MIX: u64 = 1 << 9;
    /// Source modifiers (abs/neg) are not allowed (integer VOP3P etc.).
    pub const NO_SRC_MODS: u64 = 1 << 10;
    /// An atomic (SMEM, MUBUF, MIMG, FLAT): the data is a source, and with
    /// `glc` it (FLAT: VDST) receives the memory value from before the
    /// operation.
    pub const ATOMIC: u64 = 1 << 11;
    /// A memory load (MUBUF/MTBUF/MIMG/FLAT): the data registers are
    /// written.
    pub const LOAD: u64 = 1 << 12;
    /// MUBUF/MTBUF format instruction with 16-bit data: on GCN 1.4 two
    /// components share one register (GCN 1.2 uses one register each).
    pub const D16: u64 = 1 << 13;
    /// DS instruction that exists only for GDS (`gds` is required).
    pub const GDS_ONLY: u64 = 1 << 14;
    /// DS instruction with two 8-bit offsets (`offset0:`/`offset1:`).
    pub const OFFSET2: u64 = 1 << 15;
    /// MIMG instruction with derivatives in VADDR: up to 7 registers more
    /// than the minimum (3 more otherwise).
    pub const DERIV: u64 = 1 << 16;
    /// MIMG gather: VDATA is always 4 registers, whatever DMASK is.
    pub const GATHER4: u64 = 1 << 17;
    /// `s_nop`: its immediate + 1 is the wait states it provides.
    pub const NOP: u64 = 1 << 18;
    /// Sends a message (`s_sendmsg*`, `s_ttracedata`): counted in lgkmcnt.
    pub const MSG: u64 = 1 << 19;
    /// Another name of an opcode that has a row under the name the CLRX
    /// docs give for the version (GCN 1.0/1.1 `v_add_u32` = `v_add_i32`,
    /// GCN 1.2 `v_add_i32` = `v_add_u32`): assembled, never printed.
    pub const ALIAS: u64 = 1 << 20;
    /// Returns from the trap handler (`s_rfe*`).
    pub const RFE: u64 = 1 << 21;
    /// `v_readlane`: reads its VGPR source in the lane its SSRC1 selects.
    pub const READ_LANE: u64 = 1 << 22;
    /// `v_writelane`: writes its VGPR destination in the lane its SSRC1
    /// selects, and only there.
    pub const WRITE_LANE: u64 = 1 << 23;
    /// `v_readfirstlane`: reads its VGPR source in the first EXEC lane.
    pub const FIRST_LANE: u64 = 1 << 24;
    /// A 16-bit load that writes one half of (one of) its destination
    /// registers and keeps the other on GCN 1.4 (`*_d16`, `*_d16_hi`,
    /// `*format_d16_x`, the last register of `*format_d16_xyz`).
    /// The kept half is not a read that waits for anything (LLVM:
    /// `doesNotReadTiedSource`).
    pub const MERGE: u64 = 1 << 25;
    /// A compare-and-swap atomic whose data holds the source and the
    /// compare value: it returns (with `glc`) half of its data registers.
    pub const CMPSWAP: u64 = 1 << 26;
    /// Also reads or writes registers chosen at run time from the named
    /// ones (`s_movrel*`/`v_movrel*`: the M0 index; `s_cbranch_*fork`,
    /// `s_cbranch_join`: the control stack in SGPRs): only the named
    /// registers are in its resolved operand set.
    pub const INDEXED: u64 = 1 << 27;
    /// A MUBUF/MTBUF format access: the data converts through a data and
    /// number format (the descriptor's for MUBUF, the instruction's for
    /// MTBUF), one register per component (`d16`: per half on GCN 1.4).
    pub const FORMAT: u64 = 1 << 28;
    /// The 16-bit data is the high half of its register (`*_d16_hi`).
    pub const HI: u64 = 1 << 29;
    /// The wave waits here for every wave of its work-group (`s_barrier`);
    /// memory is not waited for (GCN 1.0 to RDNA 2).
    pub const BARRIER: u64 = 1 << 30;
    /// Control never falls through to the next instruction (`s_endpgm*`,
    /// `s_branch`, `s_setpc_b64`, `s_rfe*`, `s_cbranch_join`).
    pub const ENDS: u64 = 1 << 31;
    /// `v_permlane16_b32`/`v_permlanex16_b32` (GCN 1.5+): reads the VGPR
    /// of lanes its SGPR operands select (the checks' gfx1010 `v_cmpx` →
    /// `v_permlane` hazard).
    pub const PERMLANE: u64 = 1 << 35;
    /// GCN 1.5 `s_waitcnt_vmcnt`: waits until `vmcnt` (vector memory loads
    /// and returning atomics) is at most SGPR + SIMM16.
    pub const WAIT_VM: u64 = 1 << 36;
    /// GCN 1.5 `s_waitcnt_vscnt`: waits until `vscnt` (vector memory
    /// stores and atomics without return) is at most SGPR + SIMM16.
    pub const WAIT_VS: u64 = 1 << 37;
    /// GCN 1.5 `s_waitcnt_expcnt`: waits until `expcnt` is at most SGPR +
    /// SIMM16.
    pub const WAIT_EXP: u64 = 1 << 38;
    /// GCN 1.5 `s_waitcnt_lgkmcnt`: waits until `lgkmcnt` is at most SGPR +
    /// SIMM16.
    pub const WAIT_LGKM: u64 = 1 << 39;
    /// GCN 1.5 `s_waitcnt_depctr` (CLRX: `s_waitcnt_decptr`): waits for the
    /// dependency counters its immediate names (LLVM's fix of several
    /// gfx1010 hazards).
    pub const DEPCTR: u64 = 1 << 40;
}

/// How an instruction's result bits derive from its source bits
/// ([`InstrRow::flow`]): what the emulator's definedness tracking (the
/// `uninit` check, Memcheck style) propagates. Loads and stores copy
/// between registers and memory whatever the row says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Flow {
    /// Arithmetic or logic: a result is undefined where any bit it reads
    /// is (the default).
    Compute,
    /// A copy of the first source, bit for bit (moves, lane moves, lane
    /// permutes): copying undefined bits is not a use of them.
    Copy,
    /// One of two sources chosen by a condition (`s_cselect`,
    /// `v_cndmask`, `s_cmov`): the chosen bits, undefined where the
    /// condition is.
    Select,
    /// Bitwise AND: a defined 0 in either source defines the result bit.
    And,
    /// Bitwise OR: a defined 1 in either source defines the result bit.
    Or,
    /// Bitwise AND with the second source inverted (`s_andn2_*`: S0 &
    /// ~S1): a defined 0 in the first or a defined 1 in the second source
    /// defines the result bit.
    AndN2,
    /// Bitwise OR with the second source inverted (`s_orn2_*`: S0 | ~S1):
    /// a defined 1 in the first or a defined 0 in the second source
    /// defines the result bit.
    OrN2,
    /// Bitwise XOR/XNOR: a result bit is undefined where either source
    /// bit is (LLVM inverts lane masks whose inactive lanes' bits it never
    /// defines with `s_xor_b64 …, -1`).
    Xor,
    /// Integer arithmetic whose carries only move up (64-bit multiply-adds:
    /// `v_mad_u64_u32`, `v_mad_i64_i32`): the low dword of a multi-dword
    /// result is undefined only where the low dwords of the sources are
    /// (LLVM feeds the high half of a 64-bit addend it does not need from
    /// a register it never wrote).
    Carry,
    /// A left shift (`s_lshl_*`, `v_lshl*`, `v_lshl_add_u32`, …): the
    /// result bits are the value's bits moved up, zeros shifted in.
    ShiftLeft(Shift),
    /// A logical right shift (`s_lshr_*`, `v_lshr*`): the value's bits
    /// moved down, zeros shifted in.
    ShiftRightLogical(Shift),
    /// An arithmetic right shift (`s_ashr_*`, `v_ashr*`): the value's bits
    /// moved down, copies of its sign bit shifted in.
    ShiftRightArith(Shift),
    /// The first source becomes the program counter, or decides it
    /// (`s_setpc`, `s_swappc`, `s_rfe*`, `s_cbranch_g_fork`,
    /// `s_cbranch_join`): a jump to an address computed at run time, whose
    /// bits decide control flow.
    Jump,
}

/// The operands of a shift row ([`Flow::ShiftLeft`] and the right
/// shifts): which operand is the value and which the amount, and a third
/// operand the row combines with the value or the result. Operands are
/// indices into [`InstrRow::operands`] (syntax order). The value's type
/// gives the width: 16-bit values shift by the amount's low 4 bits, 32-bit
/// by its low 5, 64-bit by its low 6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shift {
    /// The operand shifted.
    pub value: u8,
    /// How far it shifts.
    pub amount: ShiftAmount,
    /// What the row does besides the shift.
    pub with: ShiftWith,
}

/// How far a [`Shift`] shifts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShiftAmount {
    /// By the low bits of this operand (its index).
    Operand(u8),
    /// By this many bits (`s_lshl1_add_u32` …).
    Fixed(u8),
}

/// What a shift row does besides the shift (the operand is its index).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShiftWith {
    /// Nothing: a plain shift.
    Nothing,
    /// Adds the operand to the value before the shift (`v_add_lshl_u32`:
    /// `(S0 + S1) << S2`).
    AddBefore(u8),
    /// Adds the operand to the shifted value (`v_lshl_add_u32`,
    /// `s_lshl1_add_u32` …: `(S0 << S1) + S2`).
    AddAfter(u8),
    /// ORs the operand into the shifted value (`v_lshl_or_b32`:
    /// `(S0 << S1) | S2`).
    OrAfter(u8),
}

impl Flow {
    /// The shift of a shift row; `None` for every other flow.
    pub const fn shift(self) -> Option<Shift> {
        match self {
            Flow::ShiftLeft(s) | Flow::ShiftRightLogical(s) | Flow::ShiftRightArith(s) => Some(s),
            _ => None,
        }
    }
}

/// Sentinel in [`InstrRow::opcodes`] for "not on this version".
pub const NO_OPCODE: u16 = u16::MAX;

/// One instruction, as one row of the ISA table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstrRow {
    /// Lower-case mnemonic.
    pub mnemonic: &'static str,
    /// The mnemonic as an enum: what the emulator's semantics are keyed by
    /// (a misspelled name does not compile).
    pub op: Mnemonic,
    /// Encoding family.
    pub encoding: Encoding,
    /// Opcode for GCN 1.0, 1.1, 1.2, 1.4, 1.5, RDNA 2 ([`NO_OPCODE`] when
    /// absent).
    pub opcodes: [u16; 6],
    /// Operands in syntax order.
    pub operands: &'static [OperandSpec],
    /// Registers used without being named, per version.
    pub implicit: &'static [Implicit],
    /// The read-modify-write operation of an atomic (`atomic:OP` in the
    /// table); `None` for every other row.
    pub atomic: Option<Atomic>,
    /// The predicate of a vector compare (`cmp:PRED` in the table; what it
    /// compares is the type of its sources); `None` for every other row.
    pub compare: Option<CompareOp>,
    /// The addressing variant of an image sample or gather (`sample:PARTS`
    /// in the table); `None` for every other row.
    pub sample: Option<SampleVariant>,
    /// How the bits of its results derive from the bits of its sources
    /// (`flow:KIND` in the table; [`Flow::Compute`] when absent): the
    /// propagation rule of the `uninit` check's definedness tracking.
    pub flow: Flow,
    /// [`flags`] bit set.
    pub flags: u64,
}

impl InstrRow {
    /// The opcode on `version`, if the instruction exists there.
    pub fn opcode(&self, version: GcnVersion) -> Option<u16> {
        if self.flags & flags::GCN141_ONLY != 0 && version != GcnVersion::Gcn1_4_1 {
            return None;
        }
        if self.flags & flags::GCN151_ONLY != 0 && version == GcnVersion::Gcn1_5 {
            return None;
        }
        let op = self.opcodes[version.opcode_column()];
        (op != NO_OPCODE).then_some(op)
    }

    /// True when `flag` (one of [`flags`]) is set.
    pub const fn has(&self, flag: u64) -> bool {
        self.flags & flag != 0
    }

    /// The (first) operand filling `field`, if the row has one.
    pub fn operand(&self, field: Field) -> Option<&'static OperandSpec> {
        self.operands.iter().find(|o| o.field == field)
    }

    /// The implicit register uses that apply on `version`.
    pub fn implicit_on(&self, version: GcnVersion) -> impl Iterator<Item = &'static Implicit> {
        self.implicit.iter().filter(move |i| i.on(version))
    }

    /// True when the row reads `reg` without naming it on `version`.
    pub fn reads_implicit(&self, reg: ImplicitReg, version: GcnVersion) -> bool {
        self.implicit_on(version)
            .any(|i| i.reg == reg && i.role.reads())
    }

    /// True when the row writes `reg` without naming it on `version`.
    pub fn writes_implicit(&self, reg: ImplicitReg, version: GcnVersion) -> bool {
        self.implicit_on(version)
            .any(|i| i.reg == reg && i.role.writes())
    }

    /// The SGPR-file registers (operand code, count) the row reads without
    /// naming them on `version` (VCC of `v_div_fmas`, M0 of `v_movrel` …):
    /// what the constant-bus rule and the register usage count.
    pub fn implicit_sgpr_reads(&self, version: GcnVersion) -> impl Iterator<Item = (u16, u16)> {
        self.implicit_on(version)
            .filter(|i| i.role.reads())
            .filter_map(move |i| i.reg.sgprs(version))
    }

    /// The unit that issues it.
    pub const fn unit(&self) -> Unit {
        self.encoding.unit()
    }

    /// The counter its completion is tracked by (`None`: it completes in
    /// order with the instruction stream).
    pub const fn counter(&self) -> Option<Counter> {
        match self.unit() {
            Unit::Smem | Unit::Ds => Some(Counter::Lgkm),
            Unit::Vmem => Some(Counter::Vm),
            Unit::Exp => Some(Counter::Exp),
            Unit::Salu if self.has(flags::MSG) => Some(Counter::Lgkm),
            Unit::Salu | Unit::Valu => None,
        }
    }

    /// The counter a GCN 1.5 SOPK wait (`wait_vm`, `wait_vs`, `wait_exp`,
    /// `wait_lgkm` rows: `s_waitcnt_vscnt` …) waits for.
    pub const fn waits_for(&self) -> Option<Counter> {
        if self.has(flags::WAIT_VM) {
            Some(Counter::Vm)
        } else if self.has(flags::WAIT_VS) {
            Some(Counter::Vs)
        } else if self.has(flags::WAIT_EXP) {
            Some(Counter::Exp)
        } else if self.has(flags::WAIT_LGKM) {
            Some(Counter::Lgkm)
        } else {
            None
        }
    }
}

mod table {
    use super::*;
    include!(concat!(env!("OUT_DIR"), "/isa_table.rs"));
}

pub use table::{Mnemonic, INSTRUCTIONS};

/// Index from mnemonic to its run of rows in [`INSTRUCTIONS`] (which is
/// sorted by mnemonic). Looked up once per instruction statement, so it is a
/// hash map rather than a binary search over strings.
static BY_MNEMONIC: std::sync::LazyLock<rustc_hash::FxHashMap<&'static str, (u16, u16)>> =
    std::sync::LazyLock::new(|| {
        let mut map = rustc_hash::FxHashMap::default();
        for (i, row) in INSTRUCTIONS.iter().enumerate() {
            map.entry(row.mnemonic)
                .and_modify(|run: &mut (u16, u16)| run.1 += 1)
                .or_insert((i as u16, 1));
        }
        map
    });

/// All rows whose mnemonic is `mnemonic` (lower case), in table order.
pub fn rows(mnemonic: &str) -> &'static [InstrRow] {
    match BY_MNEMONIC.get(mnemonic) {
        Some(&(start, len)) => &INSTRUCTIONS[usize::from(start)..usize::from(start + len)],
        None => &[],
    }
}

/// The row to use for `mnemonic` on `version`: the first row available there.
pub fn lookup(mnemonic: &str, version: GcnVersion) -> Option<&'static InstrRow> {
    rows(mnemonic).iter().find(|r| r.opcode(version).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shift of `mnemonic`'s row (every row of it must agree).
    fn shift_of(mnemonic: &str) -> (Flow, Shift) {
        let rows = rows(mnemonic);
        assert!(!rows.is_empty(), "{mnemonic}: no row");
        let flow = rows[0].flow;
        for r in rows {
            assert_eq!(r.flow, flow, "{mnemonic}: rows disagree");
        }
        let shift = flow
            .shift()
            .unwrap_or_else(|| panic!("{mnemonic}: {flow:?} is not a shift"));
        (flow, shift)
    }

    #[test]
    fn shift_rows_name_their_value_and_amount() {
        // Every shift of the table (the packed 16-bit ones compute).
        let left = [
            "s_lshl_b32",
            "s_lshl_b64",
            "v_lshl_b32",
            "v_lshlrev_b32",
            "v_lshlrev_b16",
            "v_lshl_b64",
            "v_lshlrev_b64",
            "v_lshl_add_u32",
            "v_add_lshl_u32",
            "v_lshl_or_b32",
            "s_lshl1_add_u32",
            "s_lshl2_add_u32",
            "s_lshl3_add_u32",
            "s_lshl4_add_u32",
        ];
        let logical = [
            "s_lshr_b32",
            "s_lshr_b64",
            "v_lshr_b32",
            "v_lshrrev_b32",
            "v_lshrrev_b16",
            "v_lshr_b64",
            "v_lshrrev_b64",
        ];
        let arith = [
            "s_ashr_i32",
            "s_ashr_i64",
            "v_ashr_i32",
            "v_ashrrev_i32",
            "v_ashrrev_i16",
            "v_ashr_i64",
            "v_ashrrev_i64",
        ];
        /// A shift flow's constructor.
        type Kind = fn(Shift) -> Flow;
        let groups: [(&[&str], Kind); 3] = [
            (&left, Flow::ShiftLeft),
            (&logical, Flow::ShiftRightLogical),
            (&arith, Flow::ShiftRightArith),
        ];
        for (names, kind) in groups {
            for name in names {
                let (flow, shift) = shift_of(name);
                assert_eq!(flow, kind(shift), "{name}");
                // `*rev*` rows take the amount first (operand 1, after
                // the destination), the others second; the fixed-amount
                // scalar adds shift by the digit in their name.
                let expected = if name.contains("rev") {
                    (2, ShiftAmount::Operand(1))
                } else if let Some(n) = name
                    .strip_prefix("s_lshl")
                    .and_then(|r| r.strip_suffix("_add_u32"))
                {
                    (1, ShiftAmount::Fixed(n.parse().unwrap()))
                } else if *name == "v_add_lshl_u32" {
                    (1, ShiftAmount::Operand(3))
                } else {
                    (1, ShiftAmount::Operand(2))
                };
                assert_eq!((shift.value, shift.amount), expected, "{name}");
            }
        }
        assert_eq!(shift_of("v_lshl_add_u32").1.with, ShiftWith::AddAfter(3));
        assert_eq!(shift_of("s_lshl2_add_u32").1.with, ShiftWith::AddAfter(2));
        assert_eq!(shift_of("v_add_lshl_u32").1.with, ShiftWith::AddBefore(2));
        assert_eq!(shift_of("v_lshl_or_b32").1.with, ShiftWith::OrAfter(3));
        assert_eq!(shift_of("v_lshlrev_b64").1.with, ShiftWith::Nothing);
        // No other row shifts; every operand a shift names is read, and
        // what it combines with is a 32-bit value.
        let all: Vec<&str> = left.iter().chain(&logical).chain(&arith).copied().collect();
        for row in INSTRUCTIONS.iter() {
            let named = ["lshl", "lshr", "ashr"]
                .iter()
                .any(|k| row.mnemonic.contains(k));
            if named && !row.mnemonic.starts_with("v_pk_") {
                assert!(all.contains(&row.mnemonic), "{}: not listed", row.mnemonic);
            }
            let Some(shift) = row.flow.shift() else {
                assert!(!all.contains(&row.mnemonic), "{}: no shift", row.mnemonic);
                continue;
            };
            assert!(all.contains(&row.mnemonic), "{}", row.mnemonic);
            let operand = |i: u8| {
                let spec = row.operands[usize::from(i)];
                assert!(spec.role.reads(), "{}: operand {i}", row.mnemonic);
                spec
            };
            let value = operand(shift.value);
            if let ShiftAmount::Operand(i) = shift.amount {
                operand(i);
            }
            if let ShiftWith::AddBefore(i) | ShiftWith::AddAfter(i) | ShiftWith::OrAfter(i) =
                shift.with
            {
                operand(i);
                assert_eq!(value.ty.registers(), 1, "{}", row.mnemonic);
                assert!(!is_16bit(value.ty), "{}", row.mnemonic);
            }
        }
        assert_eq!(rows("v_pk_lshlrev_b16")[0].flow, Flow::Compute);
    }
}
