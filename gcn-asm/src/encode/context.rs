//! The contract between the statement-level assembler (`crate::syntax`) and
//! the instruction encoder (`crate::encode`).
//!
//! The syntax layer finds an instruction statement, and hands its mnemonic
//! and operand text to [`crate::encode::assemble_instruction`] together with
//! an [`OperandContext`]. The encoder reads operands through the context
//! (expressions and register symbols live in the syntax layer), emits words,
//! and asks for fix-ups where an expression can only be resolved after the
//! whole source is read. The syntax layer later resolves every fix-up and
//! calls [`crate::encode::apply_fixup`].

use crate::arch::GcnVersion;
use crate::syntax::cursor::Cursor;

/// Identifies a section of the output (`.text`, `.rodata`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SectionId(pub u32);

impl SectionId {
    /// Not a section: the value of the Gallium scratch symbol
    /// (`.scratchsym`), whose 64-bit address the loader supplies.
    pub const SCRATCH: SectionId = SectionId(u32::MAX - 2);
    /// Not a section: the low 32 bits of the scratch symbol
    /// (`SYM&0xffffffff`, `SYM%0x100000000`).
    pub const SCRATCH_LOW: SectionId = SectionId(u32::MAX - 1);
    /// Not a section: the high 32 bits of the scratch symbol (`SYM>>32`,
    /// `SYM/0x100000000`).
    pub const SCRATCH_HIGH: SectionId = SectionId(u32::MAX);

    /// True for the scratch-symbol pseudo-sections.
    pub const fn is_scratch(self) -> bool {
        self.0 >= u32::MAX - 2
    }
}

/// Handle of an expression that could not be evaluated yet (it names symbols
/// defined later). The syntax layer owns the expression; the encoder only
/// passes the handle back in a [`Fixup`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DeferredExpr(pub u32);

/// A resolved expression value: a plain number, or an address inside a
/// section (`value` is then the offset from the section start).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Value {
    /// The number, or the offset in `section`.
    pub value: i64,
    /// `Some` when the value is an address in that section.
    pub section: Option<SectionId>,
}

impl Value {
    /// A plain number.
    pub const fn absolute(value: i64) -> Self {
        Value {
            value,
            section: None,
        }
    }
}

/// What [`OperandContext::expression`] returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExprValue {
    /// Evaluated now.
    Known(Value),
    /// Depends on symbols not defined yet: encode a placeholder and ask for a
    /// [`Fixup`].
    Deferred(DeferredExpr),
}

/// An error inside one statement's operand text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperandError {
    /// Byte offset in the operand text where the offending token starts.
    pub at: usize,
    /// What is wrong, without a trailing period.
    pub message: String,
}

impl OperandError {
    /// An error at byte `at` of the operand text.
    pub fn new(at: usize, message: impl Into<String>) -> Self {
        OperandError {
            at,
            message: message.into(),
        }
    }
}

/// Which bits of an instruction a deferred expression fills, and how it is
/// checked. Applied by [`crate::encode::apply_fixup`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FixupKind {
    /// A 32-bit literal dword: the whole word `word` (counted from the
    /// instruction's first word).
    Literal32 {
        /// Index of the literal's word.
        word: u8,
    },
    /// A signed or unsigned 16-bit immediate in bits 0-15 of word 0
    /// (SOPK/SOPP), accepted in -32768..=65535.
    Imm16,
    /// A branch target (`RELADDR`): `(target - next_pc) / 4` in bits 0-15 of
    /// word 0; `instruction_size` is the size of the instruction in bytes.
    Branch16 {
        /// Size of the branching instruction in bytes (next PC offset).
        instruction_size: u8,
    },
    /// SMRD 8-bit dword offset (bits 0-7, IMM=1).
    SmrdOffset8,
    /// SMEM unsigned 20-bit byte offset (GCN 1.2) in bits 0-19 of word 1.
    SmemOffset20,
    /// SMEM signed 21-bit byte offset (GCN 1.4) in bits 0-20 of word 1.
    SmemOffset21,
    /// A GCN 1.5 GLOBAL/SCRATCH offset in bits 0-11 of word 0: 11 unsigned
    /// bits as clrxasm takes them (a larger value is truncated to 11 bits
    /// with a warning, as clrxasm does), and -2048..=-1 as the hardware's
    /// 12-bit signed field has them (LLVM's negative offsets).
    Gfx10SegmentOffset,
    /// Any other bit field: `bits` wide at bit `shift` of word `word`;
    /// `signed` allows negative values down to `-(1 << (bits-1))`.
    Field {
        /// Index of the word (from the instruction start).
        word: u8,
        /// Lowest bit.
        shift: u8,
        /// Width in bits.
        bits: u8,
        /// Accept negative values (two's complement in the field).
        signed: bool,
    },
}

/// A request to patch an emitted instruction once `expr` is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fixup {
    /// Index of the word to patch, counted from the first word of the
    /// instruction (for [`FixupKind::Literal32`] the literal's word).
    pub word: u8,
    /// How to patch.
    pub kind: FixupKind,
    /// The expression to evaluate.
    pub expr: DeferredExpr,
    /// Byte offset in the operand text of the expression, for error messages.
    pub at: usize,
}

/// A register range or constant bound to a symbol with `sym = %…`
/// (`r = %s[4:7]`, `one = %1`, `x = %0.5`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RegisterSymbol {
    /// `count` consecutive registers starting at operand code `code`
    /// (0-255 scalar operand codes, 256-511 for VGPRs).
    Registers {
        /// Operand code of the first register.
        code: u16,
        /// Number of registers.
        count: u16,
    },
    /// An integer constant (`%1`).
    Integer(i64),
    /// A floating-point constant (`%0.5`), kept as text-exact `f64` plus the
    /// literal's suffix so it can be converted to the operand's type.
    Float(crate::syntax::float::FloatLiteral),
}

/// What the encoder may ask of the assembler while it reads one instruction.
pub trait OperandContext {
    /// The GCN version being assembled for.
    fn version(&self) -> GcnVersion;

    /// Parses one expression starting at `cur` (after optional spaces) and
    /// leaves `cur` just after it. The expression ends at the first token
    /// that cannot continue it (`,`, `]`, an unmatched `)`, a `:` not part
    /// of `?:`, a word after a complete operand, …).
    fn expression(&mut self, cur: &mut Cursor<'_>) -> Result<ExprValue, OperandError>;

    /// The register symbol `name` (which may carry a scope path) if one is
    /// defined.
    fn register_symbol(&self, name: &str) -> Option<RegisterSymbol>;

    /// Where the instruction's first word goes: section and byte offset.
    fn instruction_address(&self) -> (SectionId, u64);

    /// Appends one word of the instruction.
    fn emit(&mut self, word: u32);

    /// Asks for `fixup` to be applied once its expression is known.
    fn fixup(&mut self, fixup: Fixup);

    /// Reports a warning at byte `at` of the operand text.
    fn warning(&mut self, at: usize, message: String);

    /// Tells the assembler that the instruction names `count` registers
    /// starting at operand code `code` (0-127 scalar, 256-511 VGPRs), so it
    /// can count the registers a kernel uses. Called for every register
    /// operand the instruction accepts.
    fn register_used(&mut self, code: u16, count: u16) {
        let _ = (code, count);
    }

    /// True when deferred expression `expr` is a reference to the Gallium
    /// scratch symbol (which only a 32-bit literal can take), so that an
    /// error can say so.
    fn is_scratch_reference(&self, expr: DeferredExpr) -> bool {
        let _ = expr;
        false
    }

    /// True when `name` is an argument-offset symbol (`KERNEL::NAME` of a
    /// Gallium `.arg`, a byte offset in the kernel input buffer) defined so
    /// far.
    fn is_arg_offset_symbol(&self, name: &str) -> bool {
        let _ = name;
        false
    }

    /// True under `.oldmodparam`: a modifier parameter (`glc:EXPR`) then
    /// takes bit 0 of its value instead of "non-zero", as in old clrxasm.
    fn old_modifier_parameters(&self) -> bool {
        false
    }

    /// True in wave32 mode (GCN 1.5: `--wave32`, `.wave32`, a ROCm
    /// kernel's `.use_wave32`): VCC and the lane masks that vector
    /// instructions write or read (carries, compare results, conditions)
    /// are one SGPR, not a pair.
    fn wave32(&self) -> bool {
        false
    }
}
