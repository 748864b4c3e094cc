//! The interpreter: wave state, the pre-decoded program and the loop that
//! runs the waves of one work-group.
//!
//! Its machinery is crate-private (a launch is the way in:
//! [`crate::Launcher`]); what this module shows users is what they meet or
//! ask about: [`FaultKind`] (in [`crate::ExecError::kind`]), [`WAVE_SIZE`],
//! the fidelity of each instruction ([`fidelity`], [`fidelity_table`],
//! [`coverage`], [`gaps`]) and the image rules ([`mimg`]). The rest of this
//! page describes the inside, for contributors.
//!
//! `.text` is decoded once per kernel entry (`predecode_from`: the code
//! reachable from it; `predecode`: all of it; through `gcn_asm::decode`,
//! the one ISA table) into a `Decoded` table, the `Op` of the
//! instruction at each word (repeated instructions share one): each holds the
//! handler chosen for its ISA row and its operands resolved to register
//! indices and typed immediates (`Src`). The loop (`run_wave`) never
//! re-parses words, never looks anything up by name and never allocates.
//!
//! Semantics live in one module per family, each exporting
//! `handler(row) -> Option<Handler>`: `scalar` (SOP2/SOP1/SOPK/SOPC/SOPP),
//! `smem` (SMRD/SMEM), `valu_int`, `valu_float` and `valu_f16`
//! (VOP1/VOP2/VOPC/VOP3/VOP3P by data type, over the shared source/destination
//! machinery of `vector`, which applies SDWA, DPP and the float modifiers),
//! `ds` (DS), `buffer` (MUBUF/MTBUF), [`mimg`] (MIMG: images and
//! samplers), `flat` (FLAT/GLOBAL/SCRATCH) — the memory families named as
//! in `gcn_asm::encode` and `gcn_asm::decode` — with `atomic` (the atomic
//! operations of every memory family, chosen by the row's `AtomicOp`),
//! `float` (the MODE register's rounding and denormal rules). Handlers are
//! bound by the row's `Mnemonic` enum and read operand widths, atomic
//! operations and compare predicates from the row. `fuse`
//! marks, at pre-decode, the first instruction of the 64-bit address idiom
//! (move, add with carry-out, add with carry-in) with a superinstruction
//! that `run_wave` runs as one step, bit for bit as the three. A row whose
//! family module has no handler gets `not_emulated`, which stops the
//! dispatch naming the instruction and why ([`gaps`]); [`coverage`] lists
//! which rows execute.

pub(crate) mod atomic;
pub(crate) mod buffer;
pub(crate) mod ds;
pub(crate) mod first_reads;
pub(crate) mod flat;
pub(crate) mod float;
pub(crate) mod fuse;
pub mod gaps;
pub mod mimg;
pub(crate) mod scalar;
pub(crate) mod smem;
pub(crate) mod tier;
pub(crate) mod valu_f16;
pub(crate) mod valu_float;
pub(crate) mod valu_int;
pub(crate) mod vector;

use std::fmt;

use gcn_asm::decode::{self, Instruction, Location, Operand};
use gcn_asm::isa::{DataType, Encoding, Field, InstrRow, INSTRUCTIONS};
use gcn_asm::GcnVersion;

use crate::memory::{MemFault, MemView};

/// Lanes in a wavefront.
pub const WAVE_SIZE: usize = 64;

/// Operand codes of the scalar registers with a fixed role.
pub(crate) mod sreg {
    /// VCC_LO (VCC_HI is the next code).
    pub const VCC: u16 = 106;
    /// M0.
    pub const M0: u16 = 124;
    /// NULL (GCN 1.5 and later): reads 0, writes are dropped.
    pub const NULL: u16 = 125;
    /// EXEC_LO (EXEC_HI is the next code).
    pub const EXEC: u16 = 126;
    /// VCCZ (source only).
    pub const VCCZ: u16 = 251;
    /// EXECZ (source only).
    pub const EXECZ: u16 = 252;
    /// SCC (source only).
    pub const SCC: u16 = 253;
    /// LDS_DIRECT (source only).
    pub const LDS_DIRECT: u16 = 254;
}

/// A resolved operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Src {
    /// No operand.
    None,
    /// A scalar register by operand code (0-127: SGPRs, VCC, TTMP, M0,
    /// EXEC …); 64-bit operands use the code and the next.
    Sgpr(u16),
    /// A VGPR by index.
    Vgpr(u16),
    /// An inline constant or literal, already converted to the operand's
    /// type: 32-bit types in the low half, 16-bit types in the low
    /// quarter, 64-bit floats as f64 bits (a literal is the high half),
    /// 64-bit integers zero-extended (constants sign-extended).
    Imm(u64),
    /// A source-only special (VCCZ, EXECZ, SCC, LDS_DIRECT, apertures),
    /// evaluated when read.
    Special(u16),
}

/// What the loop does after an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Go on at `wave.pc`.
    Next,
    /// The wave waits at `s_barrier`.
    Barrier,
    /// The wave ended (`s_endpgm`).
    End,
}

/// Why an instruction could not complete.
#[derive(Debug, Clone, PartialEq)]
pub enum FaultKind {
    /// A memory access outside every allocation.
    Memory(MemFault),
    /// A case of an instruction (an operand form, a MODE setting) that has
    /// no semantics in the emulator; the message names it.
    NotEmulated(String),
    /// An instruction the emulator does not run at all, and why
    /// ([`gaps::gap_reason`]: graphics-only, GDS/GWS, trap-handler-only,
    /// absent from that hardware, or undocumented).
    Gap {
        /// The mnemonic.
        instruction: &'static str,
        /// Why it has no semantics.
        reason: &'static str,
    },
    /// The word at the PC does not start an instruction.
    InvalidInstruction(u32),
    /// The PC is inside the code but not at the start of an instruction.
    BadPc,
    /// The PC is at an instruction that no direct branch or fall-through
    /// reaches from the kernel entry, so it was not pre-decoded
    /// (`predecode_from`): reached by a jump the pre-decoder could not
    /// follow.
    Unreached,
    /// The PC left the code (a jump or branch past its end or before its
    /// start): the PC as an offset in `.text`, and the size of `.text`.
    OutsideCode {
        /// The PC.
        pc: u32,
        /// Bytes of code.
        size: u32,
    },
    /// A register beyond the kernel's allocation.
    Register(String),
    /// `s_trap`.
    Trap(u32),
    /// The dispatch's step budget is spent.
    StepBudget(u64),
    /// The dispatch ran past its wall-clock limit.
    Timeout(std::time::Duration),
    /// Anything else the hardware would not do as asked (the message says
    /// what).
    Unsupported(String),
    /// A hostcall the host could not serve ([`crate::hostcall`]): a
    /// service the emulator does not provide, damaged buffer contents, a
    /// printf message that does not format, a wave that waits for an
    /// answer that will not come.
    Hostcall(String),
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FaultKind::Memory(m) => write!(f, "memory fault: {m}"),
            FaultKind::NotEmulated(what) => write!(f, "{what} is not emulated"),
            FaultKind::Gap {
                instruction,
                reason,
            } => write!(f, "instruction {instruction} is not emulated: {reason}"),
            FaultKind::InvalidInstruction(w) => {
                write!(f, "word {w:#010x} is not a valid instruction")
            }
            FaultKind::BadPc => f.write_str("the PC is not at the start of an instruction"),
            FaultKind::Unreached => f.write_str(
                "the PC is at an instruction that no branch or fall-through reaches from the \
                 kernel entry (a computed jump the pre-decoder could not follow)",
            ),
            FaultKind::OutsideCode { pc: u32::MAX, size } => write!(
                f,
                "a jump went outside the code (0x0–{:#x}): its target is below the code or \
                 more than 4 GiB past it",
                size.saturating_sub(1)
            ),
            FaultKind::OutsideCode { pc, size } => write!(
                f,
                "the PC {pc:#x} is outside the code (0x0–{:#x}): a jump or branch left the \
                 kernel's code",
                size.saturating_sub(1)
            ),
            FaultKind::Register(what) => write!(f, "{what}"),
            FaultKind::Trap(code) => write!(f, "s_trap {code}"),
            FaultKind::StepBudget(n) => write!(
                f,
                "the wave ran {n} instructions, its step budget (a runaway loop? raise the \
                 budget with LaunchOptions::max_steps or gcnrun --max-steps N)"
            ),
            FaultKind::Timeout(t) => write!(
                f,
                "the dispatch ran past its time limit of {:.1} s (LaunchOptions::timeout, \
                 gcnrun --timeout SECONDS)",
                t.as_secs_f64()
            ),
            FaultKind::Unsupported(what) => f.write_str(what),
            FaultKind::Hostcall(what) => write!(f, "hostcall: {what}"),
        }
    }
}

/// A fault raised by an instruction handler; the loop adds where it
/// happened ([`crate::launch::ExecError`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fault {
    /// What went wrong.
    pub kind: FaultKind,
    /// The lane, for per-lane faults.
    pub lane: Option<u8>,
}

impl Fault {
    /// A fault without a lane.
    pub fn new(kind: FaultKind) -> Self {
        Fault { kind, lane: None }
    }

    /// A memory fault of `lane`.
    pub fn memory(m: MemFault, lane: usize) -> Self {
        Fault {
            kind: FaultKind::Memory(m),
            lane: Some(lane as u8),
        }
    }

    /// An "X is not supported" style fault.
    pub fn unsupported(message: impl Into<String>) -> Self {
        Fault::new(FaultKind::Unsupported(message.into()))
    }

    /// A memory instruction's misaligned address `a` in `lane` (an atomic;
    /// the docs do not say what the hardware does).
    #[cold]
    pub fn misaligned(op: &Op, a: u64, lane: usize) -> Self {
        Fault {
            kind: FaultKind::Unsupported(format!(
                "{} at the misaligned address {a:#x}",
                op.mnemonic()
            )),
            lane: Some(lane as u8),
        }
    }
}

impl From<MemFault> for Fault {
    fn from(m: MemFault) -> Self {
        Fault::new(FaultKind::Memory(m))
    }
}

/// The semantics of one instruction.
pub(crate) type Handler = fn(&mut Wave, &Op, &mut Env<'_>) -> Result<Step, Fault>;

/// Coerces a function or non-capturing closure to a `Handler`: each
/// family's `handler` returns `h(|w, op, env| …)` per mnemonic.
pub(crate) const fn h(f: Handler) -> Option<Handler> {
    Some(f)
}

/// One pre-decoded instruction.
#[derive(Clone)]
pub(crate) struct Op {
    /// The semantics.
    pub handler: Handler,
    /// What `run_wave` calls: `handler`, or for the first instruction of
    /// a run that runs as one superinstruction, that run's handler
    /// (`fuse`).
    pub fast: Handler,
    /// The run `Op::fast` executes, resolved at pre-decode (`None` for an
    /// instruction that starts none).
    pub(crate) fused: Option<std::sync::Arc<fuse::FusedRun>>,
    /// The decoded instruction (row, operands, modifiers).
    pub instr: Instruction,
    /// Operands resolved, aligned with `instr.row.operands`.
    pub opnd: [Src; decode::MAX_OPERANDS],
    /// For source slots 0, 1, 2: the index in `opnd`, or `u8::MAX`.
    pub slot: [u8; 3],
    /// Source slots 0, 1, 2 resolved (`Src::None` where there is none):
    /// `opnd[slot[s]]`, kept beside it so that the hot path reads a
    /// source with one load.
    pub srcs: [Src; 3],
    /// A plain form (no DPP or SDWA) without abs/neg, clamp or omod: the
    /// vector ALU's streaming path applies ([`vector::streams`]).
    pub plain: bool,
    /// Index in `opnd` of the vector destination, or `u8::MAX`.
    pub vdst: u8,
    /// Index in `opnd` of the scalar destination (carry-out, compare
    /// result, readlane result), or `u8::MAX`.
    pub sdst: u8,
    /// Length in bytes.
    pub len: u8,
    /// One past the highest VGPR index the operands name.
    pub vgpr_end: u16,
    /// One past the highest general SGPR (below VCC) the operands name.
    pub sgpr_end: u16,
    /// True for vector ALU instructions (counted as lane operations).
    pub valu: bool,
    /// Bit i: operand i is 64 bits wide (its row type takes two
    /// registers), so that width-generic semantics read it from the row.
    pub wide: u8,
    /// The compiled tier's block this instruction heads, or
    /// [`tier::NO_BLOCK`] ([`tier`]).
    pub block: u32,
}

impl fmt::Debug for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Op({})", self.instr)
    }
}

impl Op {
    /// Resolved operand `i` (syntax order).
    #[inline]
    pub fn src(&self, i: usize) -> Src {
        self.opnd[i]
    }

    /// Resolved source slot `s` (0-2).
    #[inline]
    pub fn slot_src(&self, s: usize) -> Src {
        self.srcs[s]
    }

    /// Refreshes [`Op::srcs`] from `opnd` and `slot`.
    fn cache_slots(&mut self) {
        for (src, &i) in self.srcs.iter_mut().zip(&self.slot) {
            *src = match i {
                u8::MAX => Src::None,
                i => self.opnd[usize::from(i)],
            };
        }
    }

    /// The register index of operand `i` (VGPR index or scalar code).
    #[inline]
    pub fn reg(&self, i: usize) -> u16 {
        match self.opnd[i] {
            Src::Sgpr(r) | Src::Vgpr(r) => r,
            _ => 0,
        }
    }

    /// The VGPR index of the vector destination.
    #[inline]
    pub fn vdst_row(&self) -> usize {
        usize::from(self.reg(usize::from(self.vdst)))
    }

    /// True when operand `i` is 64 bits wide by its row's type.
    #[inline]
    pub fn wide(&self, i: usize) -> bool {
        self.wide >> i & 1 != 0
    }

    /// The raw decoded operand `i`.
    pub fn operand(&self, i: usize) -> Operand {
        self.instr.operand_array[i]
    }

    /// The index of the first operand filling `field`.
    pub fn field_index(&self, field: Field) -> Option<usize> {
        self.instr
            .row
            .operands
            .iter()
            .position(|o| o.field == field)
    }

    /// The mnemonic.
    pub fn mnemonic(&self) -> &'static str {
        self.instr.row.mnemonic
    }
}

/// Architectural state of one wavefront.
#[derive(Clone)]
pub(crate) struct Wave {
    /// Scalar registers by operand code 0-127 (SGPRs, FLAT_SCRATCH,
    /// XNACK_MASK, VCC, TBA/TMA/TTMP, M0, EXEC).
    pub sgpr: [u32; 128],
    /// VGPRs, lane-major: `vgpr[r][lane]`.
    pub vgpr: Vec<[u32; WAVE_SIZE]>,
    /// Scalar condition code.
    pub scc: bool,
    /// Byte offset of the next instruction in `.text`.
    pub pc: u32,
    /// The MODE register.
    pub mode: u32,
    /// The TRAPSTS register.
    pub trapsts: u32,
    /// The bits of the STATUS register that no other state holds
    /// (WAVE_PRIO from `s_setprio`, IN_TG set at launch when the
    /// work-group has more than one wave); `s_getreg` adds SCC, EXECZ,
    /// VCCZ and VALID.
    pub status: u32,
    /// The wave's index in its work-group.
    pub id: u32,
    /// VGPRs the kernel allocated.
    pub vgpr_limit: u16,
    /// SGPRs the kernel allocated (general SGPRs, below VCC).
    pub sgpr_limit: u16,
    /// Instructions executed.
    pub steps: u64,
    /// Active lanes summed over the vector ALU instructions executed.
    pub lane_ops: u64,
    /// Instructions of `steps` that ran as compiled code ([`tier`]).
    pub compiled_steps: u64,
    /// Instructions this wave may still execute before the budget is spent.
    pub budget: u64,
    /// `s_sleep`s in a row with no hostcall packet to serve (kernels with
    /// a hostcall buffer only, [`crate::hostcall::MAX_IDLE_SLEEPS`]).
    pub hostcall_sleeps: u32,
    /// The lanes the wave has: all 64 bits in wave64, the low 32 in wave32
    /// (GCN 1.5 and RDNA 2 kernels built for 32 lanes). EXEC and VCC are
    /// read through it, so that in wave32 EXEC_HI and VCC_HI take no part
    /// in execution, as on the hardware, and the lane loops see only the
    /// wave's lanes.
    pub lane_mask: u64,
    /// FLAT_SCRATCH as GCN 1.5+ code sets it (`s_setreg` of FLAT_SCR_LO and
    /// FLAT_SCR_HI); read back by `s_getreg`. The emulator's private
    /// memory does not depend on it (as the SGPR pair before GCN 1.5).
    pub flat_scratch: u64,
}

impl Wave {
    /// A wave with every register zero.
    pub fn new(vgprs: u16, sgprs: u16) -> Self {
        Wave {
            sgpr: [0; 128],
            vgpr: vec![[0; WAVE_SIZE]; usize::from(vgprs)],
            scc: false,
            pc: 0,
            mode: 0,
            trapsts: 0,
            status: 0,
            id: 0,
            vgpr_limit: vgprs,
            sgpr_limit: sgprs,
            steps: 0,
            lane_ops: 0,
            compiled_steps: 0,
            budget: u64::MAX,
            hostcall_sleeps: 0,
            lane_mask: u64::MAX,
            flat_scratch: 0,
        }
    }

    /// Makes this wave what [`Wave::new`] gives, keeping the VGPR
    /// storage (a host thread reuses its waves from one work-group to the
    /// next without allocating).
    pub fn reset(&mut self, vgprs: u16, sgprs: u16) {
        self.reset_zeroing(vgprs, sgprs, None);
    }

    /// [`Wave::reset`] for a wave that starts with every lane in EXEC and
    /// runs code whose first reads are `reads` (`Decoded::first_reads`):
    /// only those registers are zeroed, the others keep what the last
    /// wave left, which the code overwrites before it reads them. The
    /// caller writes VGPRs `0 ..written` whole itself (the work-item ids).
    pub(crate) fn reset_first_reads(
        &mut self,
        vgprs: u16,
        sgprs: u16,
        reads: &first_reads::FirstReads,
        written: u16,
    ) {
        self.reset_zeroing(vgprs, sgprs, Some((reads, written)));
    }

    fn reset_zeroing(
        &mut self,
        vgprs: u16,
        sgprs: u16,
        reads: Option<(&first_reads::FirstReads, u16)>,
    ) {
        // Field by field in place: building a whole `Wave` and moving it
        // in would copy the 512-byte SGPR file twice per wave.
        let Wave {
            sgpr,
            vgpr,
            scc,
            pc,
            mode,
            trapsts,
            status,
            id,
            vgpr_limit,
            sgpr_limit,
            steps,
            lane_ops,
            compiled_steps,
            budget,
            hostcall_sleeps,
            lane_mask,
            flat_scratch,
        } = self;
        match reads {
            // Only the registers the kernel may read before writing them
            // (the others' old values cannot show).
            Some((reads, written)) if vgpr.len() == usize::from(vgprs) => {
                for &r in reads.vgprs.iter().filter(|&&r| r >= written) {
                    if let Some(row) = vgpr.get_mut(usize::from(r)) {
                        *row = [0; WAVE_SIZE];
                    }
                }
                for &c in &reads.sgprs {
                    sgpr[usize::from(c & 127)] = 0;
                }
            }
            _ => {
                sgpr.fill(0);
                if vgpr.len() == usize::from(vgprs) {
                    // One `memset` (wide stores) rather than a row-by-row loop.
                    vgpr.as_flattened_mut().fill(0);
                } else {
                    vgpr.clear();
                    vgpr.resize(usize::from(vgprs), [0; WAVE_SIZE]);
                }
            }
        }
        (*scc, *pc, *mode, *trapsts, *status, *id) = (false, 0, 0, 0, 0, 0);
        (*vgpr_limit, *sgpr_limit) = (vgprs, sgprs);
        (*steps, *lane_ops, *budget, *hostcall_sleeps) = (0, 0, u64::MAX, 0);
        *compiled_steps = 0;
        *lane_mask = u64::MAX;
        *flat_scratch = 0;
    }

    /// True for a wave of 32 lanes.
    #[inline]
    pub fn wave32(&self) -> bool {
        self.lane_mask != u64::MAX
    }

    /// Lanes in the wave (32 or 64).
    #[inline]
    pub fn lanes(&self) -> usize {
        if self.wave32() {
            32
        } else {
            WAVE_SIZE
        }
    }

    /// Makes this a wave of 32 lanes (`true`) or 64.
    pub fn set_wave32(&mut self, wave32: bool) {
        self.lane_mask = if wave32 { u32::MAX.into() } else { u64::MAX };
    }

    /// EXEC: EXEC_LO alone in wave32.
    #[inline]
    pub fn exec(&self) -> u64 {
        self.s64(sreg::EXEC) & self.lane_mask
    }

    /// Sets EXEC.
    #[inline]
    pub fn set_exec(&mut self, v: u64) {
        self.set_lane_mask(sreg::EXEC, v);
    }

    /// VCC: VCC_LO alone in wave32.
    #[inline]
    pub fn vcc(&self) -> u64 {
        self.s64(sreg::VCC) & self.lane_mask
    }

    /// Reads a lane mask source (a carry-in, a `v_cndmask` condition): an
    /// SGPR pair in wave64, one SGPR in wave32.
    #[inline]
    pub fn read_lane_mask(&self, src: Src) -> u64 {
        self.read_s64(src) & self.lane_mask
    }

    /// Writes a lane mask (a compare result, a carry-out) to scalar
    /// register `code`: the pair `code`, `code + 1` in wave64, `code`
    /// alone in wave32 (the next register keeps its value).
    #[inline]
    pub fn set_lane_mask(&mut self, code: u16, v: u64) {
        if self.wave32() {
            self.set_s32(code, v as u32);
        } else {
            self.set_s64(code, v);
        }
    }

    /// Sets VCC.
    #[inline]
    #[cfg(test)]
    pub fn set_vcc(&mut self, v: u64) {
        self.set_s64(sreg::VCC, v);
    }

    /// M0.
    #[inline]
    pub fn m0(&self) -> u32 {
        self.sgpr[usize::from(sreg::M0)]
    }

    /// The 64-bit value of scalar registers `code`, `code + 1`.
    #[inline]
    pub fn s64(&self, code: u16) -> u64 {
        let i = usize::from(code) & 127;
        u64::from(self.sgpr[i]) | (u64::from(self.sgpr[(i + 1) & 127]) << 32)
    }

    /// Writes scalar register `code`.
    #[inline]
    pub fn set_s32(&mut self, code: u16, v: u32) {
        self.sgpr[usize::from(code) & 127] = v;
    }

    /// Writes scalar registers `code`, `code + 1`.
    #[inline]
    pub fn set_s64(&mut self, code: u16, v: u64) {
        if code == sreg::NULL {
            // NULL (GCN 1.5+; reserved before): the next code is EXEC_LO.
            return;
        }
        let i = usize::from(code) & 127;
        self.sgpr[i] = v as u32;
        self.sgpr[(i + 1) & 127] = (v >> 32) as u32;
    }

    /// The value of a special source (VCCZ, EXECZ, SCC, apertures).
    pub fn special(&self, code: u16) -> u64 {
        match code {
            sreg::VCCZ => u64::from(self.vcc() == 0),
            sreg::EXECZ => u64::from(self.exec() == 0),
            sreg::SCC => u64::from(self.scc),
            235 => flat::SHARED_APERTURE >> 32,
            236 => (flat::SHARED_APERTURE + flat::APERTURE_SIZE - 1) >> 32,
            237 => flat::PRIVATE_APERTURE >> 32,
            238 => (flat::PRIVATE_APERTURE + flat::APERTURE_SIZE - 1) >> 32,
            _ => 0,
        }
    }

    /// Reads a 32-bit scalar source.
    #[inline]
    pub fn read_s32(&self, src: Src) -> u32 {
        match src {
            Src::Sgpr(r) => self.sgpr[usize::from(r) & 127],
            Src::Imm(v) => v as u32,
            Src::Special(c) => self.special(c) as u32,
            Src::Vgpr(_) | Src::None => 0,
        }
    }

    /// Reads a 64-bit scalar source.
    #[inline]
    pub fn read_s64(&self, src: Src) -> u64 {
        match src {
            Src::Sgpr(r) => self.s64(r),
            Src::Imm(v) => v,
            Src::Special(c) => self.special(c),
            Src::Vgpr(_) | Src::None => 0,
        }
    }
}

/// What a handler can reach besides its wave: memory, the work-group's
/// LDS, and facts about the dispatch.
pub(crate) struct Env<'a> {
    /// Global memory.
    pub mem: &'a MemView,
    /// The work-group's LDS (its size is the kernel's LDS allocation).
    pub lds: &'a mut [u8],
    /// GCN version.
    pub version: GcnVersion,
    /// Device address of `.text` (s_getpc_b64 returns it plus the PC).
    pub code_base: u64,
    /// Device address of this wave's private (scratch) memory, and its
    /// size in bytes (0 when the kernel has none).
    pub scratch: (u64, u64),
    /// While checks run: the log of the memory accesses of the current
    /// instruction ([`crate::check`]); `None` otherwise (the interpreter
    /// then takes its unlogged fast paths).
    pub log: Option<&'a std::cell::RefCell<Vec<MemAccess>>>,
    /// The server of the launch's hostcall buffer (HIP kernels with a
    /// `hidden_hostcall_buffer` argument), which the interrupt message and
    /// `s_sleep` call; `None` otherwise.
    pub hostcall: Option<&'a crate::hostcall::HostcallServer<'a>>,
    /// How the unchecked loop uses the compiled tier.
    pub tier: tier::TierMode,
}

/// Memory accesses of a run of lanes, logged while checks run
/// (`Env::log`): what the checks know of where an instruction's data
/// went. Lanes `lane ..lane + count` each access `len` bytes, lane
/// `lane + i` at `address + i * len` (a dense wave access is one entry);
/// [`MemAccess::lanes`] gives them one by one. The interpreter logs at the
/// one place each family touches memory, before the access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MemAccess {
    /// First byte of the first lane.
    pub address: u64,
    /// Bytes each lane accesses.
    pub len: u16,
    /// Where these bytes sit in each lane's data registers (byte offset);
    /// [`MemAccess::SEQUENTIAL`] when they follow the lane's previous
    /// access (the DS families).
    pub data: u16,
    /// The first lane (0 for scalar memory).
    pub lane: u8,
    /// Lanes in the run (at least 1).
    pub count: u8,
    /// True for the work-group's LDS (`address` is then a byte index in
    /// it), false for device memory.
    pub lds: bool,
    /// An LDS access that reaches past the work-group's allocation: the
    /// hardware did not perform it (a read returned 0, a write was
    /// dropped); only the `oob` check looks at it, the LDS shadows skip it
    /// ([`MemAccess::in_lds`]).
    pub outside: bool,
    /// An LDS write that left every byte it wrote as it was (the same
    /// value written again): no other wave can see a difference, so the
    /// `lds-race` check lets it be.
    pub unchanged: bool,
}

impl MemAccess {
    /// [`MemAccess::data`] of an access that continues the lane's previous
    /// one.
    pub const SEQUENTIAL: u16 = u16::MAX;

    /// One lane's access.
    #[inline]
    pub fn one(lane: usize, lds: bool, address: u64, len: u32, data: u32) -> Self {
        MemAccess {
            address,
            len: len as u16,
            data: data as u16,
            lane: lane as u8,
            count: 1,
            lds,
            outside: false,
            unchanged: false,
        }
    }

    /// True for an access the LDS performed (inside the allocation).
    #[inline]
    pub fn in_lds(&self) -> bool {
        self.lds && !self.outside
    }

    /// Bytes the whole run covers.
    #[inline]
    pub fn span(&self) -> u64 {
        u64::from(self.len) * u64::from(self.count)
    }

    /// The run's accesses lane by lane.
    #[inline]
    pub fn lanes(&self) -> impl Iterator<Item = MemAccess> + '_ {
        (0..self.count).map(move |i| MemAccess {
            address: self.address + u64::from(i) * u64::from(self.len),
            lane: self.lane.wrapping_add(i),
            count: 1,
            ..*self
        })
    }
}

/// Appends the accesses of the lanes of `mask`, `len` bytes each at
/// `addresses[lane]`, to `log`, joining consecutive lanes at consecutive
/// addresses into one run.
#[inline]
pub(crate) fn log_runs(
    log: &mut Vec<MemAccess>,
    addresses: &[u64; WAVE_SIZE],
    mask: u64,
    len: u32,
    data: u32,
    lds: bool,
) {
    // Lane `l` continues the run of lane `l - 1` when both are active and
    // it accesses the next `len` bytes: found for all lanes in one
    // branch-free pass, then each run is one entry.
    let step = u64::from(len);
    let mut continues = 0u64;
    for l in 1..WAVE_SIZE {
        continues |= u64::from(addresses[l] == addresses[l - 1].wrapping_add(step)) << l;
    }
    let continues = continues & mask & (mask << 1);
    let mut starts = mask & !continues;
    while starts != 0 {
        let lane = starts.trailing_zeros();
        starts &= starts - 1;
        // The lanes after `lane` that continue its run, counted from bit 0.
        let rest = continues.checked_shr(lane + 1).unwrap_or(0);
        let count = 1 + rest.trailing_ones();
        log.push(MemAccess {
            count: count as u8,
            ..MemAccess::one(lane as usize, lds, addresses[lane as usize], len, data)
        });
    }
}

impl Env<'_> {
    /// Logs a device-memory access of `lane` while checks run.
    #[inline]
    pub(crate) fn log_mem(&self, lane: usize, address: u64, len: u32, data: u32) {
        if let Some(log) = self.log {
            log.borrow_mut()
                .push(MemAccess::one(lane, false, address, len, data));
        }
    }

    /// Logs a dense device-memory access while checks run: every lane,
    /// lane `l` at `first + l * len` (one run).
    #[inline]
    pub(crate) fn log_dense(&self, first: u64, len: u32) {
        if let Some(log) = self.log {
            log.borrow_mut().push(MemAccess {
                count: WAVE_SIZE as u8,
                ..MemAccess::one(0, false, first, len, 0)
            });
        }
    }

    /// Logs the device-memory accesses of the lanes of `mask`, `len` bytes
    /// each at `addresses[lane]`, while checks run.
    #[inline]
    pub(crate) fn log_lanes(&self, addresses: &[u64; WAVE_SIZE], mask: u64, len: u32, data: u32) {
        if let Some(log) = self.log {
            log_runs(&mut log.borrow_mut(), addresses, mask, len, data, false);
        }
    }
}

/// Hooks the interpreter calls around each instruction while checks run
/// ([`run_wave_checked`]; [`crate::check`] implements them).
pub(crate) trait Hook {
    /// Before the instruction executes (`wave.pc` is its PC; `slot` its
    /// index in [`Decoded::ops`], so that tables parallel to it need no
    /// lookup by PC).
    fn before(&mut self, wave: &Wave, op: &Op, slot: usize, env: &Env<'_>);
    /// After it executed without a fault (`wave.pc` is the next PC).
    fn after(&mut self, wave: &Wave, op: &Op, slot: usize, env: &Env<'_>);
    /// Runs `op` (at `wave.pc`, in `slot`) through `handler` between
    /// `before` and `after`, as the interpreter's loop does: the PC moves
    /// past the instruction first, and `after` follows only a handler
    /// that did not fault. One call through a `dyn Hook` for both hooks
    /// (a compiled block's handler calls), in which the two inline.
    #[inline(always)]
    fn around(
        &mut self,
        wave: &mut Wave,
        op: &Op,
        slot: usize,
        env: &mut Env<'_>,
        handler: Handler,
    ) -> Result<Step, Fault> {
        around_hooks(self, wave, op, slot, env, handler)
    }
    /// This hook as compiled blocks call it ([`tier::enter`]), if they
    /// may: a block calls `before` for each of its translated
    /// instructions (with `wave.pc` set to the instruction's) ahead of the
    /// run of vector instructions it belongs to, and `before` and `after`
    /// around each instruction it runs through its handler, but `after`
    /// never for a translated one. A hook may say yes only if its `before`
    /// reads of the wave nothing but EXEC, the PC, MODE and its id, the
    /// registers of the instructions the tier runs through their handlers,
    /// and the SGPRs of scalar instructions (which blocks run in order),
    /// and if its `after` does nothing for an instruction outside the
    /// memory units.
    fn compiled(&mut self) -> Option<&mut dyn Hook> {
        None
    }
    /// `before` for each instruction of `run` in order — (PC, slot)
    /// pairs — with `wave.pc` set to the instruction's PC: what a compiled
    /// block calls ahead of a run of translated instructions (one call
    /// through the `dyn Hook` for the run).
    #[cfg_attr(not(feature = "jit"), allow(dead_code))]
    fn before_run(&mut self, wave: &mut Wave, ops: &Decoded, run: &[(u32, u32)], env: &Env<'_>) {
        for &(pc, slot) in run {
            if let Some(op) = ops.ops().get(slot as usize) {
                wave.pc = pc;
                self.before(wave, op, slot as usize, env);
            }
        }
    }
    /// A compiled block (number `block`, its instructions `instrs` as
    /// (PC, slot) pairs; `falls_through`: it ends in no branch, so it runs
    /// once per entry) starts at the wave's PC, with the hook's calls to
    /// follow ([`Hook::compiled`]).
    #[cfg_attr(not(feature = "jit"), allow(dead_code))]
    fn enter_block(
        &mut self,
        _wave: &Wave,
        _block: u32,
        _instrs: &[(u32, u32)],
        _falls_through: bool,
    ) {
    }
    /// The block [`Hook::enter_block`] announced returned: `completed` when
    /// it ran to its end once (no handler stopped it).
    #[cfg_attr(not(feature = "jit"), allow(dead_code))]
    fn exit_block(&mut self, _wave: &Wave, _completed: bool) {}
    /// Whether a compiled block may make the access of the memory
    /// instruction `slot` itself, with no hook called for the instruction:
    /// `lanes` lanes from lane 0 on, lane `l`'s `len` bytes at
    /// `first + l * len` (a dense vector access: 64 lanes; a scalar load:
    /// one). True only where [`Hook::around`] would do nothing for it but
    /// run its handler (which would move the same bytes), and where
    /// [`Hook::before_run`] does nothing for the rest of the block visit
    /// (a fused region's passes call no hook: `exec/tier/lower/fused.rs`).
    #[cfg_attr(not(feature = "jit"), allow(dead_code))]
    fn skips_access(&mut self, _slot: usize, _first: u64, _len: u32, _lanes: u8) -> bool {
        false
    }
    /// When `Some(ranges)`, with an entry per slot of `Decoded::ops`:
    /// [`Hook::skips_access`] is true exactly for an access that lies in
    /// its slot's `[start, end]` (`start <= first` and
    /// `first + len * lanes <= end`), and [`Hook::before_run`] does
    /// nothing — so a compiled block tests the one and skips the other
    /// itself. It holds until the hook's next `around` call (the only one
    /// that may change it).
    #[cfg_attr(not(feature = "jit"), allow(dead_code))]
    fn plain_ranges(&self) -> Option<&[[u64; 2]]> {
        None
    }
    /// The instruction in `slot`, one that only ends the wave (no
    /// operand, no successor), is next after a compiled block: true when
    /// the hook has done for it all that `before` and `after` would, and
    /// the caller ends the wave with no further call.
    #[cfg_attr(not(feature = "jit"), allow(dead_code))]
    fn ends_quietly(&mut self, _wave: &Wave, _slot: usize) -> bool {
        false
    }
}

/// [`Hook::around`] as the interpreter's loop does it, for hooks that
/// override `around` for some of their states.
#[inline(always)]
pub(crate) fn around_hooks<H: Hook + ?Sized>(
    hook: &mut H,
    wave: &mut Wave,
    op: &Op,
    slot: usize,
    env: &mut Env<'_>,
    handler: Handler,
) -> Result<Step, Fault> {
    hook.before(wave, op, slot, env);
    wave.pc = wave.pc.wrapping_add(u32::from(op.len));
    let outcome = handler(wave, op, env);
    if outcome.is_ok() {
        hook.after(wave, op, slot, env);
    }
    outcome
}

/// The hook that does nothing: `run_wave` compiles to the plain loop.
pub(crate) struct NoHook;

impl Hook for NoHook {
    #[inline(always)]
    fn before(&mut self, _: &Wave, _: &Op, _: usize, _: &Env<'_>) {}
    #[inline(always)]
    fn after(&mut self, _: &Wave, _: &Op, _: usize, _: &Env<'_>) {}
}

/// Handler of rows without semantics: the fault names the instruction and
/// why it has none ([`gaps::gap_reason`]).
pub(crate) fn not_emulated(_: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    Err(Fault::new(FaultKind::Gap {
        instruction: op.instr.row.mnemonic,
        reason: gaps::gap_reason(op.instr.row, env.version),
    }))
}

/// The GCN versions the emulator runs: GCN 1.0 to 1.4.1, GCN 1.5, 1.5.1 and
/// RDNA 2 (wave64 and wave32).
pub const EMULATED_VERSIONS: [GcnVersion; 8] = GcnVersion::ALL;

/// The handler of `row` on `version`, if the emulator has semantics for it.
pub(crate) fn handler(row: &'static InstrRow, version: GcnVersion) -> Option<Handler> {
    match row.encoding {
        Encoding::Sop2 | Encoding::Sop1 | Encoding::Sopk | Encoding::Sopc | Encoding::Sopp => {
            scalar::handler(row, version)
        }
        Encoding::Smrd | Encoding::Smem => smem::handler(row, version),
        Encoding::Vop2 | Encoding::Vop1 | Encoding::Vopc | Encoding::Vop3 | Encoding::Vop3p => {
            valu_int::handler(row, version)
                .or_else(|| valu_float::handler(row, version))
                .or_else(|| valu_f16::handler(row, version))
        }
        Encoding::Ds => ds::handler(row, version),
        Encoding::Mubuf | Encoding::Mtbuf => buffer::handler(row, version),
        Encoding::Flat | Encoding::Global | Encoding::Scratch => flat::handler(row, version),
        Encoding::Mimg => mimg::handler(row, version),
        Encoding::Vintrp | Encoding::Exp => None,
    }
}

/// Whether a family is one the emulator claims to run (rows of such a
/// family without a handler are gaps; VINTRP/EXP are graphics-only).
pub fn family_claimed(encoding: Encoding) -> bool {
    !matches!(encoding, Encoding::Vintrp | Encoding::Exp)
}

/// One line of the coverage table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coverage {
    /// The version.
    pub version: GcnVersion,
    /// Mnemonics that execute.
    pub emulated: Vec<&'static str>,
    /// Mnemonics that stop as not emulated, with their family.
    pub missing: Vec<(&'static str, Encoding)>,
}

/// Which mnemonics of `version` execute, generated from the ISA rows.
pub fn coverage(version: GcnVersion) -> Coverage {
    let mut emulated = Vec::new();
    let mut missing = Vec::new();
    for row in INSTRUCTIONS.iter() {
        if row.opcode(version).is_none() {
            continue;
        }
        if !gcn_asm::isa::lookup(row.mnemonic, version).is_some_and(|r| std::ptr::eq(r, row)) {
            continue;
        }
        if handler(row, version).is_some() {
            emulated.push(row.mnemonic);
        } else {
            missing.push((row.mnemonic, row.encoding));
        }
    }
    Coverage {
        version,
        emulated,
        missing,
    }
}

/// How faithfully the emulator runs an instruction (the fidelity table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fidelity {
    /// The semantics of its `Operation:` description, bit-exact.
    Exact,
    /// Within the accuracy the ISA documents, which is not bit-exact.
    Approximate(&'static str),
    /// Stops the dispatch as not emulated.
    NotSupported,
}

/// The fidelity of `row` on `version`, from the handlers the family
/// modules give and the accuracy they state.
pub fn fidelity(row: &'static InstrRow, version: GcnVersion) -> Fidelity {
    if handler(row, version).is_none() {
        return Fidelity::NotSupported;
    }
    match valu_float::accuracy(row).or_else(|| valu_f16::accuracy(row)) {
        Some(a) => Fidelity::Approximate(a),
        None => Fidelity::Exact,
    }
}

/// The fidelity table as Markdown: every mnemonic, per GCN version (1.0,
/// 1.1, 1.2, 1.4, 1.5, 1.5.1, RDNA 2), exact / approximate / not supported
/// (blank where the version lacks it), then the accuracy of each
/// approximate one.
/// `gcn-runtime/FIDELITY.md` is this text (a test keeps it current).
pub fn fidelity_table() -> String {
    use std::fmt::Write as _;
    let versions = [
        GcnVersion::Gcn1_0,
        GcnVersion::Gcn1_1,
        GcnVersion::Gcn1_2,
        GcnVersion::Gcn1_4,
        GcnVersion::Gcn1_5,
        GcnVersion::Gcn1_5_1,
        GcnVersion::Rdna2,
    ];
    let mut out = String::from(
        "# Emulator fidelity\n\nGenerated by `gcn_runtime::exec::fidelity_table` from the ISA rows and the emulator's \
         handlers (`UPDATE_FIDELITY=1 cargo test -p gcn-runtime --lib fidelity` rewrites it).\n\n\
         exact: the `Operation:` semantics, bit-exact; approx: within the documented accuracy \
         (listed below); **no**: stops the dispatch as not emulated; blank: not on that version.\n\n\
         | instruction | GCN 1.0 | GCN 1.1 | GCN 1.2 | GCN 1.4 | GCN 1.5 | GCN 1.5.1 | RDNA 2 |\n\
         |---|---|---|---|---|---|---|---|\n",
    );
    let mut seen = std::collections::BTreeSet::new();
    let mut notes = std::collections::BTreeMap::new();
    let mut gap_notes = std::collections::BTreeMap::new();
    for row in INSTRUCTIONS.iter() {
        if !seen.insert(row.mnemonic) {
            continue;
        }
        if EMULATED_VERSIONS
            .iter()
            .all(|&v| gcn_asm::isa::lookup(row.mnemonic, v).is_none())
        {
            continue;
        }
        let _ = write!(out, "| `{}` |", row.mnemonic);
        for v in versions {
            let cell = match gcn_asm::isa::lookup(row.mnemonic, v) {
                None => "",
                Some(r) => match fidelity(r, v) {
                    Fidelity::Exact => "exact",
                    Fidelity::Approximate(a) => {
                        notes.insert(row.mnemonic, a);
                        "approx"
                    }
                    Fidelity::NotSupported => {
                        gap_notes
                            .entry(gaps::gap_reason(r, v))
                            .or_insert_with(std::collections::BTreeSet::new)
                            .insert(row.mnemonic);
                        "**no**"
                    }
                },
            };
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }
    out.push_str("\n## Accuracy of the approximate instructions\n\n");
    for (mnemonic, a) in notes {
        let _ = writeln!(out, "- `{mnemonic}`: {a}");
    }
    out.push_str("\n## Why the **no** rows stop\n\n");
    for (reason, mnemonics) in gap_notes {
        let names: Vec<String> = mnemonics.iter().map(|m| format!("`{m}`")).collect();
        let _ = writeln!(out, "- {}: {reason}.", names.join(", "));
    }
    out
}

/// True for 16-bit operand types.
fn is_16bit(ty: DataType) -> bool {
    matches!(
        ty,
        DataType::B16
            | DataType::I16
            | DataType::U16
            | DataType::F16
            | DataType::PkF16
            | DataType::PkI16
            | DataType::PkU16
    )
}

/// The value of inline constant `code` for an operand of type `ty`.
pub(crate) fn inline_constant(code: u16, ty: DataType) -> u64 {
    let wide = ty.registers() >= 2;
    match code {
        128..=192 => u64::from(code - 128),
        193..=208 => {
            let v = -(i64::from(code) - 192);
            if wide {
                v as u64
            } else {
                u64::from(v as u32)
            }
        }
        240..=248 => {
            const F: [f64; 8] = [0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0];
            match (F.get(usize::from(code - 240)).copied(), is_16bit(ty), wide) {
                (Some(v), true, _) => u64::from(half::f16::from_f64(v).to_bits()),
                (Some(v), false, true) => v.to_bits(),
                (Some(v), false, false) => u64::from((v as f32).to_bits()),
                // 1/(2*pi), as the hardware rounds it per width.
                (None, true, _) => 0x3118,
                (None, false, true) => 0x3fc4_5f30_6dc9_c882,
                (None, false, false) => 0x3e22_f983,
            }
        }
        _ => 0,
    }
}

fn resolve(operand: Operand, ty: DataType) -> Src {
    match operand {
        Operand::Reg { code, .. } if code >= 256 => Src::Vgpr(code - 256),
        Operand::Reg { code, .. } if code < 128 => Src::Sgpr(code),
        Operand::Reg { code, .. } => Src::Special(code),
        Operand::Const(code) => Src::Imm(inline_constant(code, ty)),
        Operand::Literal(v) if ty == DataType::F64 => Src::Imm(u64::from(v) << 32),
        Operand::Literal(v) => Src::Imm(u64::from(v)),
        Operand::Imm(v) => Src::Imm(u64::from(v)),
        Operand::Target(t) => Src::Imm(t as i64 as u64),
        Operand::Hwreg(v) | Operand::Waitcnt(v) | Operand::Sendmsg(v) => Src::Imm(u64::from(v)),
        _ => Src::None,
    }
}

/// A word of [`Decoded::index`] where no instruction starts (a literal, or
/// words that do not decode).
const NO_OP: u32 = u32::MAX;
/// A word where an instruction starts that the pre-decoder did not reach
/// from the kernel entry (`predecode_from`).
const UNREACHED: u32 = u32::MAX - 1;

/// Pre-decoded `.text`: the distinct decoded instructions, and for each
/// word the index of the one that starts there.
///
/// An instruction costs its `Op` once however often it occurs (an `Op`
/// whose meaning does not depend on where it stands, i.e. one without a
/// branch target or superinstruction, is shared by every word that holds
/// the same instruction words); every other word costs 4 bytes. The loop
/// reads `ops[index[pc / 4]]`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Decoded {
    /// Per word: an index in `ops`, [`NO_OP`] or [`UNREACHED`].
    index: Vec<u32>,
    ops: Vec<Op>,
    /// The compiled tier's blocks of this code and their translations
    /// (shared by clones: the code is the same).
    pub(crate) tier: std::sync::Arc<tier::Tier>,
    /// The registers a wave entering at the kernel's entry may read before
    /// writing them (`None`: unknown, or not decoded from an entry): the
    /// ones a new wave of all lanes must have zeroed
    /// ([`Wave::reset_first_reads`]).
    pub(crate) first_reads: Option<first_reads::FirstReads>,
    /// True when nothing reads a wave's registers once it has ended (the
    /// waves of a launch; not the snippets `exec::testing` runs, whose
    /// registers the tests compare): compiled code that ends a wave
    /// writes only the register values it reads itself
    /// (`tier::lower::Plan::ends_wave`).
    pub(crate) end_discards_registers: bool,
}

impl Decoded {
    /// The instruction that starts at word `word`, if one does (and was
    /// decoded).
    #[inline(always)]
    pub fn get(&self, word: usize) -> Option<&Op> {
        // The markers lie past the end of `ops`: one bounds check.
        self.ops.get(*self.index.get(word)? as usize)
    }

    /// The instruction that starts at byte offset `pc`, if one does.
    #[inline]
    pub fn at(&self, pc: u32) -> Option<&Op> {
        self.slot(pc).map(|i| &self.ops[i])
    }

    /// The index in `Decoded::ops` of the instruction at byte offset
    /// `pc` (parallel tables such as the checks' facts use it).
    #[inline]
    pub fn slot(&self, pc: u32) -> Option<usize> {
        if !pc.is_multiple_of(4) {
            return None;
        }
        let i = *self.index.get((pc / 4) as usize)? as usize;
        (i < self.ops.len()).then_some(i)
    }

    /// The distinct decoded instructions.
    pub fn ops(&self) -> &[Op] {
        &self.ops
    }

    /// Words of `.text` covered.
    pub fn words(&self) -> usize {
        self.index.len()
    }

    /// True when an instruction starts at `pc` that the pre-decoder did not
    /// reach from the kernel entry.
    pub fn unreached(&self, pc: u32) -> bool {
        pc.is_multiple_of(4) && self.index.get((pc / 4) as usize) == Some(&UNREACHED)
    }

    /// Makes `op` the instruction at word `word`, for that word alone (an
    /// op shared with other words stays theirs).
    #[cfg_attr(not(feature = "jit"), allow(dead_code))]
    pub(crate) fn replace(&mut self, word: usize, op: Op) {
        if let Some(slot) = self.index.get_mut(word) {
            *slot = self.ops.len() as u32;
            self.ops.push(op);
        }
    }

    /// The compiled tier's blocks (each head has an op of its own).
    #[cfg(test)]
    pub(crate) fn tier_blocks(&self) -> usize {
        self.ops
            .iter()
            .filter(|op| op.block != tier::NO_BLOCK)
            .count()
    }

    #[cfg(test)]
    pub(crate) fn get_mut(&mut self, word: usize) -> Option<&mut Op> {
        self.ops.get_mut(*self.index.get(word)? as usize)
    }
}

/// Builds a `Decoded`, sharing position-independent ops.
struct Builder<'w> {
    words: &'w [u32],
    version: GcnVersion,
    /// Wave32: lane masks decode as one SGPR.
    options: decode::DecodeOptions,
    index: Vec<u32>,
    ops: Vec<Op>,
    /// (length, words) of a shared op → its index.
    shared: std::collections::HashMap<(u8, [u32; 3]), u32>,
}

impl<'w> Builder<'w> {
    fn new(words: &'w [u32], version: GcnVersion, wave32: bool, fill: u32) -> Self {
        Builder {
            words,
            version,
            options: decode::DecodeOptions { wave32 },
            index: vec![fill; words.len()],
            ops: Vec::new(),
            shared: std::collections::HashMap::new(),
        }
    }

    /// Decodes word `i` into the table; the instruction's length in words
    /// (`None`: no instruction starts there).
    fn decode(&mut self, i: usize) -> Option<usize> {
        let instr =
            decode::decode_with(&self.words[i..], 4 * i as u64, self.version, self.options).ok()?;
        let len = usize::from(instr.len).clamp(1, 3).min(self.words.len() - i);
        let positional = instr
            .operands()
            .iter()
            .any(|o| matches!(o, Operand::Target(_)));
        let mut key = [0u32; 3];
        key[..len].copy_from_slice(&self.words[i..i + len]);
        let key = (len as u8, key);
        let slot = match self.shared.get(&key) {
            Some(&slot) if !positional => slot,
            _ => {
                let slot = self.push(make_op(instr, self.version));
                if !positional {
                    self.shared.insert(key, slot);
                }
                slot
            }
        };
        self.index[i] = slot;
        Some(len)
    }

    fn push(&mut self, op: Op) -> u32 {
        // Code is at most 4 GiB: fewer than `UNREACHED` instructions.
        let slot = self.ops.len() as u32;
        self.ops.push(op);
        slot
    }

    fn finish(self) -> Decoded {
        let mut decoded = Decoded {
            index: self.index,
            ops: self.ops,
            tier: Default::default(),
            first_reads: None,
            end_discards_registers: false,
        };
        fuse::fuse(&mut decoded);
        let tier = tier::build(&mut decoded, self.version, self.options.wave32);
        decoded.tier = std::sync::Arc::new(tier);
        decoded.ops.shrink_to_fit();
        decoded
    }
}

/// Pre-decodes all of `.text` for `version`, as a linear sweep: an
/// instruction starts at word 0 and after each instruction; a word that
/// does not decode is skipped.
#[cfg(test)]
pub(crate) fn predecode(words: &[u32], version: GcnVersion) -> Decoded {
    predecode_waves(words, version, false)
}

/// [`predecode`] for waves of 32 lanes (`wave32`, GCN 1.5 and later) or 64.
pub(crate) fn predecode_waves(words: &[u32], version: GcnVersion, wave32: bool) -> Decoded {
    let mut b = Builder::new(words, version, wave32, NO_OP);
    let mut i = 0;
    while i < words.len() {
        i += b.decode(i).unwrap_or(1);
    }
    b.finish()
}

/// How control leaves an instruction, for `predecode_from`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    /// To the next instruction, and to its branch target if it has one.
    Next,
    /// Only to its branch target (`s_branch`), or nowhere (`s_endpgm`).
    Jump,
    /// To an address computed at run time.
    Indirect,
}

fn flow(row: &InstrRow) -> Flow {
    // Row data: a computed jump (`flow:jump`), or no fall-through (`ends`).
    if row.flow == gcn_asm::isa::Flow::Jump {
        Flow::Indirect
    } else if row.has(gcn_asm::isa::flags::ENDS) {
        Flow::Jump
    } else {
        Flow::Next
    }
}

/// Pre-decodes the code reachable from byte offset `entry`, following
/// fall-through and branch targets; the instruction boundaries are those of
/// `predecode`'s linear sweep. When a reachable instruction jumps to an
/// address computed at run time (`s_setpc_b64`, `s_swappc_b64`, …) the
/// whole of `.text` is decoded instead. Data after the code (a constant
/// table, a string) is never decoded: memory grows with the code a kernel
/// can run, not with `.text`.
pub(crate) fn predecode_from(words: &[u32], version: GcnVersion, entry: u32) -> Decoded {
    predecode_from_waves(words, version, entry, false)
}

/// [`predecode_from`] for waves of 32 lanes (`wave32`) or 64.
pub(crate) fn predecode_from_waves(
    words: &[u32],
    version: GcnVersion,
    entry: u32,
    wave32: bool,
) -> Decoded {
    // The instruction boundaries: lengths only.
    let mut starts = vec![false; words.len()];
    let mut i = 0;
    while i < words.len() {
        match decode::decode(&words[i..], 4 * i as u64, version) {
            Ok(instr) => {
                starts[i] = true;
                i += usize::from(instr.len).max(1);
            }
            Err(_) => i += 1,
        }
    }
    let mut b = Builder::new(words, version, wave32, NO_OP);
    for (slot, &start) in b.index.iter_mut().zip(&starts) {
        if start {
            *slot = UNREACHED;
        }
    }
    let mut work = Vec::new();
    if entry.is_multiple_of(4) {
        work.push((entry / 4) as usize);
    }
    while let Some(i) = work.pop() {
        if b.index.get(i) != Some(&UNREACHED) {
            continue;
        }
        let Some(len) = b.decode(i) else {
            continue;
        };
        let op = &b.ops[b.index[i] as usize];
        match flow(op.instr.row) {
            Flow::Indirect => return predecode_waves(words, version, wave32),
            Flow::Next => work.push(i + len),
            Flow::Jump => {}
        }
        for operand in op.instr.operands() {
            if let Operand::Target(t) = *operand {
                if t >= 0 && t % 4 == 0 {
                    work.push((t / 4) as usize);
                }
            }
        }
    }
    let mut decoded = b.finish();
    decoded.first_reads = first_reads::first_reads(&decoded, version, entry, wave32);
    decoded
}

fn make_op(instr: Instruction, version: GcnVersion) -> Op {
    let row = instr.row;
    let handler = handler(row, version).unwrap_or(not_emulated);
    let mut op = Op {
        handler,
        fast: handler,
        fused: None,
        instr,
        opnd: [Src::None; decode::MAX_OPERANDS],
        slot: [u8::MAX; 3],
        srcs: [Src::None; 3],
        plain: false,
        vdst: u8::MAX,
        sdst: u8::MAX,
        len: instr.len.max(1) * 4,
        vgpr_end: 0,
        sgpr_end: 0,
        valu: row.unit() == gcn_asm::isa::Unit::Valu,
        wide: row
            .operands
            .iter()
            .enumerate()
            .filter(|(_, spec)| spec.registers() == 2)
            .fold(0, |bits, (i, _)| bits | 1 << i),
        block: tier::NO_BLOCK,
    };
    for (i, (spec, operand)) in row.operands.iter().zip(instr.operands()).enumerate() {
        op.opnd[i] = resolve(*operand, spec.ty);
        let null = matches!(
            operand,
            Operand::Reg {
                code: sreg::NULL,
                ..
            }
        );
        if version.is_gcn15() && null && spec.role == gcn_asm::isa::Role::Read {
            // NULL reads as 0. Its code stays for destinations: a 32-bit
            // write lands in a slot no source reads, a 64-bit one is
            // dropped (`Wave::set_s64`).
            op.opnd[i] = Src::Imm(0);
        }
        match spec.field {
            Field::Src0 | Field::Vsrc0 | Field::Ssrc0 if op.slot[0] == u8::MAX => {
                op.slot[0] = i as u8
            }
            Field::Src1 | Field::Vsrc1 | Field::Ssrc1 if op.slot[1] == u8::MAX => {
                op.slot[1] = i as u8
            }
            Field::Src2 | Field::Ssrc2 if op.slot[2] == u8::MAX => op.slot[2] = i as u8,
            Field::Vdst if op.vdst == u8::MAX => op.vdst = i as u8,
            Field::Sdst if op.sdst == u8::MAX => op.sdst = i as u8,
            _ => {}
        }
    }
    // The register bounds: what the instruction uses with the conditions of
    // its modifier bits applied (a MUBUF VADDR without OFFEN/IDXEN/ADDR64
    // is not used; a GLOBAL VADDR beside an SGPR base is one register). An
    // MIMG address longer than the row's minimum is checked by its handler.
    // The general SGPRs end at 104, or at 102 on GCN 1.2+, where 102-103
    // are FLAT_SCRATCH (which LLVM's HSA kernels write): not counted
    // against the kernel's SGPR allocation, as VCC is not.
    let general = general_sgprs(version);
    for access in instr.accesses().iter() {
        match access.location {
            Location::Vgprs { index, count } => {
                op.vgpr_end = op.vgpr_end.max(index + count);
            }
            Location::Sgprs { code, count } if code < general => {
                op.sgpr_end = op.sgpr_end.max((code + count).min(general));
            }
            _ => {}
        }
    }
    op.cache_slots();
    let m = &op.instr.mods;
    op.plain = vector::plain_form(&op) && (m.abs | m.neg | m.omod) == 0 && !m.clamp;
    op
}

/// The general SGPRs of `version`: 104 on GCN 1.0-1.1, 102 on GCN 1.2-1.4
/// (102-103 are FLAT_SCRATCH), 106 from GCN 1.5 on (FLAT_SCRATCH is a
/// hardware register there).
pub(crate) fn general_sgprs(version: GcnVersion) -> u16 {
    if version.is_gcn15() {
        106
    } else if version.is_gcn12_or_later() {
        102
    } else {
        104
    }
}

/// The disassembled instruction starting at byte offset `pc`, if one does.
pub(crate) fn instruction_at(ops: &Decoded, pc: u32) -> Option<String> {
    ops.at(pc).map(|op| op.instr.to_string())
}

/// Runs `wave` from its PC until it ends, reaches a barrier or faults.
#[inline(never)]
pub(crate) fn run_wave(wave: &mut Wave, ops: &Decoded, env: &mut Env<'_>) -> Result<Step, Fault> {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has POPCNT, the only requirement of the function.
        return unsafe { run_wave_popcnt(wave, ops, env) };
    }
    run_loop::<true, _>(wave, ops, env, &mut NoHook)
}

/// `run_wave` built with POPCNT, which counts each vector instruction's
/// active lanes in one host instruction (the baseline x86-64 target counts
/// them in software).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn run_wave_popcnt(wave: &mut Wave, ops: &Decoded, env: &mut Env<'_>) -> Result<Step, Fault> {
    run_loop::<true, _>(wave, ops, env, &mut NoHook)
}

/// `run_wave` calling `hook` around each instruction (the checks, the
/// profile's counting); it runs every instruction on its own,
/// superinstructions never. Generic: each hook type gets its own copy of
/// the loop, so that `run_wave` stays as it is.
#[inline(never)]
pub(crate) fn run_wave_checked<H: Hook + ?Sized>(
    wave: &mut Wave,
    ops: &Decoded,
    env: &mut Env<'_>,
    hook: &mut H,
) -> Result<Step, Fault> {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has POPCNT, the only requirement of the function.
        return unsafe { run_wave_checked_popcnt(wave, ops, env, hook) };
    }
    run_loop::<false, _>(wave, ops, env, hook)
}

/// `run_wave_checked` built with POPCNT (as [`run_wave_popcnt`]): the
/// loop's lane counts and the checks' lane masks count in one host
/// instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn run_wave_checked_popcnt<H: Hook + ?Sized>(
    wave: &mut Wave,
    ops: &Decoded,
    env: &mut Env<'_>,
    hook: &mut H,
) -> Result<Step, Fault> {
    run_loop::<false, _>(wave, ops, env, hook)
}

/// The fault of a PC that is no instruction's start.
#[cold]
fn bad_pc(pc: u32, ops: &Decoded) -> Fault {
    let size = u32::try_from(ops.words() * 4).unwrap_or(u32::MAX);
    Fault::new(if pc >= size {
        FaultKind::OutsideCode { pc, size }
    } else if ops.unreached(pc) {
        FaultKind::Unreached
    } else {
        FaultKind::BadPc
    })
}

/// The interpreter loop; monomorphised without hooks for `run_wave`.
/// `FUSED`: call `Op::fast` (superinstructions), else [`Op::handler`].
#[inline(always)]
fn run_loop<const FUSED: bool, H: Hook + ?Sized>(
    wave: &mut Wave,
    ops: &Decoded,
    env: &mut Env<'_>,
    hook: &mut H,
) -> Result<Step, Fault> {
    // The two tables as plain slices, kept in registers across the
    // handler calls.
    let (index, table) = (&ops.index[..], &ops.ops[..]);
    loop {
        let word = (wave.pc >> 2) as usize;
        // The markers of `Decoded::index` lie past the end of `table`.
        let (slot, op) = match index
            .get(word)
            .and_then(|&i| Some((i as usize, table.get(i as usize)?)))
        {
            Some(found) if wave.pc & 3 == 0 => found,
            _ => return Err(bad_pc(wave.pc, ops)),
        };
        // A block head: its block may run compiled (`tier::enter` leaves the
        // wave as the interpreter would after the block).
        // Checked, it runs with the hook called from the code, if the hook
        // allows.
        if op.block != tier::NO_BLOCK {
            let mode = env.tier;
            let checks = if FUSED { None } else { hook.compiled() };
            if FUSED || checks.is_some() {
                match tier::enter(wave, ops, env, op.block, mode, checks) {
                    None => {}
                    Some(Ok(Step::Next)) => continue,
                    Some(Ok(step)) => return Ok(step),
                    Some(Err(fault)) => return Err(*fault),
                }
            }
        }
        if op.vgpr_end > wave.vgpr_limit || op.sgpr_end > wave.sgpr_limit {
            return Err(register_fault(wave, op));
        }
        if wave.budget == 0 {
            return Err(Fault::new(FaultKind::StepBudget(wave.steps)));
        }
        wave.budget -= 1;
        wave.steps += 1;
        if op.valu {
            wave.lane_ops += u64::from(wave.exec().count_ones());
        }
        // GPR indexing rewrites the operands first, so that the checks see
        // the registers the instruction really uses.
        let indexed;
        let (op, handler) =
            if wave.mode & MODE_GPR_IDX_EN != 0 && op.valu && env.version.is_gcn12_or_later() {
                indexed = gpr_indexed(wave, op)?;
                (&indexed, indexed.handler)
            } else {
                (op, if FUSED { op.fast } else { op.handler })
            };
        match hook.around(wave, op, slot, env, handler) {
            Ok(Step::Next) => {}
            Ok(step) => return Ok(step),
            Err(fault) => {
                // Report the faulting instruction's PC.
                wave.pc = wave.pc.wrapping_sub(u32::from(op.len));
                return Err(fault);
            }
        }
    }
}

/// MODE.GPR_IDX_EN (GCN 1.2+): the vector ALU indexes VGPR operands.
pub(crate) const MODE_GPR_IDX_EN: u32 = 1 << 27;

/// `op` with GPR indexing applied (`GcnState.md`, "GPR indexing mode"):
/// M0[7:0] is added to the VGPR index of each operand that M0[15:12]
/// selects (bits 0-2: VSRC0-2, bit 3: VDST); an operand whose sum lies
/// beyond the wave's last VGPR, or that is not a VGPR, becomes V0, as the
/// docs state. A multi-register operand that starts inside but ends past
/// the last VGPR is a register fault.
#[cold]
fn gpr_indexed(wave: &Wave, op: &Op) -> Result<Op, Fault> {
    let m0 = wave.sgpr[usize::from(sreg::M0)];
    let index = (m0 & 0xff) as u16;
    let select = m0 >> 12 & 15;
    let mut out = op.clone();
    let mut shift = |i: u8| {
        if let Some(src) = out.opnd.get_mut(usize::from(i)) {
            *src = match *src {
                Src::Vgpr(r) if r + index < wave.vgpr_limit => Src::Vgpr(r + index),
                _ => Src::Vgpr(0),
            };
        }
    };
    for s in 0..3 {
        if select >> s & 1 != 0 && op.slot[s] != u8::MAX {
            shift(op.slot[s]);
        }
    }
    if select >> 3 & 1 != 0 && op.vdst != u8::MAX {
        shift(op.vdst);
    }
    out.cache_slots();
    out.vgpr_end = op.vgpr_end.saturating_add(index);
    if out.vgpr_end > wave.vgpr_limit {
        // Only an error when a shifted operand really reaches past the end.
        let fits = out
            .opnd
            .iter()
            .zip(op.instr.operand_array.iter())
            .all(|(src, o)| match (src, o) {
                (Src::Vgpr(r), gcn_asm::decode::Operand::Reg { count, .. }) => {
                    r + u16::from(*count).max(1) <= wave.vgpr_limit
                }
                _ => true,
            });
        if !fits {
            return Err(register_fault(wave, &out));
        }
        out.vgpr_end = wave.vgpr_limit;
    }
    Ok(out)
}

#[cold]
fn register_fault(wave: &Wave, op: &Op) -> Fault {
    let message = if op.vgpr_end > wave.vgpr_limit {
        format!(
            "the instruction uses v{} but the kernel allocates {} VGPRs",
            op.vgpr_end - 1,
            wave.vgpr_limit
        )
    } else {
        format!(
            "the instruction uses s{} but the kernel allocates {} SGPRs",
            op.sgpr_end - 1,
            wave.sgpr_limit
        )
    };
    Fault::new(FaultKind::Register(message))
}

#[cfg(test)]
mod invariant;
#[cfg(test)]
mod no_panic;
#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;
