//! [`super::Check::Uninit`]: definedness tracking in the manner of
//! Valgrind's Memcheck.
//!
//! Every bit of every SGPR (and SCC) and of every VGPR lane has a shadow
//! bit, set while the bit is *undefined*; LDS, scratch and the device
//! memory of buffers allocated uninitialised
//! ([`crate::memory::Memory::buffer_uninit`]) have one per byte. At the
//! start of a work-group every register is undefined except what the ABI
//! initialises. The shadow moves with the data:
//!
//! - copies carry it bit for bit — moves, lane moves (`v_readlane`,
//!   `v_writelane`, `v_readfirstlane`), loads and stores (spills to
//!   scratch, LDS round trips), selects (the chosen source; undefined where
//!   the condition is);
//! - AND and OR are exact per bit (a defined 0, resp. 1, defines the
//!   result bit);
//! - shifts (the row's [`Flow::ShiftLeft`], [`Flow::ShiftRightLogical`],
//!   [`Flow::ShiftRightArith`]) move it: where the amount bits the
//!   hardware uses (the low 4, 5 or 6 for a 16-, 32- or 64-bit value) are
//!   defined, the result's shadow is the value's shifted the same way,
//!   across the register pair of a 64-bit value (bits shifted in are
//!   defined, or take the sign bit's shadow for an arithmetic shift), and
//!   the bits still undefined are computed; where one of them is not, the
//!   whole result is undefined and computed. A shift that also adds
//!   (`v_lshl_add_u32`, `v_add_lshl_u32`, `s_lshl1_add_u32` …) makes every
//!   bit from the lowest undefined bit of either addend up undefined, one
//!   that ORs (`v_lshl_or_b32`) adds the ORed operand's undefined bits; a
//!   scalar shift's SCC is undefined where a result bit is (with an add,
//!   where any bit read is);
//! - every other operation (the row's [`Flow::Compute`]) makes its result
//!   wholly undefined in a lane where any bit it reads is undefined, and
//!   marks it *computed* from undefined data. A vector compare's lane-mask
//!   result is undefined in the lanes whose inputs are.
//!
//! A report is made only where undefined bits *matter*, never for copying
//! them, saving and restoring them or overwriting them:
//!
//! - control flow: SCC, VCC or EXEC read by a conditional branch, the
//!   target of `s_setpc`/`s_swappc`, any write of EXEC;
//! - an address: a memory instruction's address, base, offset or resource
//!   and sampler descriptor registers, M0 read as an LDS limit, GDS
//!   window, index or message, a lane select, an `s_setreg` value;
//! - a store to memory the host can read (device memory outside scratch)
//!   of bytes computed from undefined data — the forgotten accumulator
//!   initialisation; an atomic that computes with undefined bytes there.
//!
//! Each report names the *origin* (`Origin`): the register (lane, byte)
//! or memory byte nothing wrote, the instruction that first read it, and
//! the instruction where it mattered.
//!
//! Approximations (each errs towards silence or towards whole registers,
//! never towards a report on a copy): registers chosen at run time
//! (`s_movrel*`, `v_movrel*`) copy from and to the named register; DPP and
//! the DS lane permutes give every lane the union of the active lanes'
//! shadows; SDWA, `op_sel` and DPP partial writes keep the old shadow as
//! well (union); a shift in an SDWA or DPP form or with `op_sel` halves,
//! a packed 16-bit shift, or one whose operand is a source-only special
//! (SCC, VCCZ, EXECZ …) computes; a 16-bit source reads its low half
//! only (its high half where `op_sel` selects it); a load or store maps
//! bytes exactly when a lane moves whole dwords (plain dword loads and
//! stores), otherwise (byte, short, format
//! and image accesses) a lane's data is wholly undefined when any byte it
//! moves is; device
//! memory allocated initialised (and every store into it) counts as
//! defined; a load into LDS (MUBUF `lds`) defines the bytes it fills; an
//! atomic on device memory treats the old bytes as defined (the
//! interpreter has marked them written by the time the check looks);
//! registers nothing wrote share one origin per register.

use std::collections::HashMap;

use gcn_asm::decode::{Form, Location, MemFlags};
use gcn_asm::isa::{
    flags, is_16bit, AtomicOp, DataType, Encoding, Field, Flow, ImplicitReg, ShiftAmount,
    ShiftWith, Unit,
};
use gcn_asm::GcnVersion;

use super::facts::{Facts, Lanes, Regs};
use super::{Check, GroupCheck};
use crate::exec::{sreg, MemAccess, Op, Src, Wave, WAVE_SIZE};

/// Most runs of each kind a flow keeps.
const MAX: usize = 6;

/// Why an undefined source matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sink {
    /// A memory address, base, offset or descriptor.
    Address,
    /// M0 as an LDS limit, GDS window, index or message.
    M0,
    /// A branch condition or target, or EXEC.
    Control,
    /// The lane select of `v_readlane`/`v_writelane`.
    LaneSelect,
    /// A hardware register value (`s_setreg`).
    Mode,
}

impl Sink {
    fn what(self) -> &'static str {
        match self {
            Sink::Address => "forms a memory address or descriptor from",
            Sink::M0 => "uses as M0 (LDS limit, index or message)",
            Sink::Control => "decides control flow on",
            Sink::LaneSelect => "selects a lane with",
            Sink::Mode => "writes a hardware register from",
        }
    }
}

/// A register run an instruction reads as data.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Source {
    regs: Regs,
    /// The bits of each register it reads.
    bits: u32,
    /// A lane mask read by a vector instruction (carry-in, condition):
    /// lane `l` reads bit `l`.
    lane_bit: bool,
}

/// A register run an instruction writes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Dest {
    regs: Regs,
    /// The bits of each register it writes.
    bits: u32,
    /// A partial write whose kept part is not known here: the old shadow
    /// stays as well (union).
    keep: bool,
    /// A lane mask written by a vector instruction: lane `l` writes bit `l`.
    lane_bit: bool,
}

impl Dest {
    /// What a write leaves of the register's old shadow `old`: all of it
    /// for a partial write whose kept part is unknown, else the bits it
    /// does not write.
    fn kept(&self, old: Val) -> Val {
        if self.keep {
            old
        } else {
            Val {
                bits: old.bits & !self.bits,
                ..old
            }
        }
    }
}

/// How an instruction touches memory, for the definedness flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MemKind {
    /// No memory (or none the checks follow).
    None,
    /// Memory to registers.
    Load,
    /// Registers to memory.
    Store,
    /// Read-modify-write; `copy` for swap and compare-and-swap.
    Atomic {
        /// The new memory value is a copy of the data.
        copy: bool,
    },
}

/// The definedness flow of one instruction, derived from its row and its
/// resolved operand set. (`repr(C)`, the fields `defined_after`'s common
/// path reads first, as in [`super::Facts`].)
#[derive(Debug, Clone)]
#[repr(C)]
pub(crate) struct FlowFacts {
    memory: MemKind,
    /// Per-lane semantics (vector units).
    vector: bool,
    n_filled: u8,
    /// A GCN 1.4 d16 load that fills one half (`merge`): its mask.
    fill_bits: u32,
    /// The registers a load (or returning atomic) fills, in order.
    filled: [Regs; 2],
    rule: Flow,
    /// A DPP form or a DS lane permute: lanes read other lanes.
    cross_lane: bool,
    sources: [Source; MAX],
    n_sources: u8,
    sinks: [(Regs, Sink); MAX],
    n_sinks: u8,
    dests: [Dest; MAX],
    n_dests: u8,
    /// The data registers a store or atomic reads, in order.
    data: [Regs; 2],
    n_data: u8,
    /// A typed (format) memory access: its bytes in memory are not its
    /// data registers' bytes.
    format: bool,
    /// SDWA selections of a bitwise row (source 0, source 1, destination;
    /// no sign extension, the unused destination bits padded or kept):
    /// the rule stays exact per bit through them.
    sdwa: Option<(u8, u8, u8)>,
}

const NO_REGS: Regs = Regs::s(0, 0);

/// [`FastFlow`] list capacities: registers (not runs) of each kind.
const FAST_VGPRS: usize = 8;
const FAST_LANE0: usize = 4;
const FAST_SGPRS: usize = 8;
const FAST_DEFS: usize = 6;

/// The common case of an instruction's flow — no register it reads is
/// undefined — compiled once per launch into flat register lists, so that
/// the hook tests and updates a few words instead of walking the runs of
/// [`FlowFacts`]: the EXEC-lane tests of its sinks, store data and sources
/// and then [`flow_all_defined`]'s writes. Where the lists cannot say what
/// that rule says (lanes other than EXEC's, a partial VGPR write, more
/// registers than fit), `usable` is false and every execution takes
/// [`GroupCheck::defined_before_general`], which follows the full rules.
/// The tests may be stricter than the rule (a scalar instruction's VGPR
/// source counts as undefined when any bit of its lane 0 is): an
/// instruction that fails them takes the general path, which decides
/// exactly.
#[derive(Debug, Clone, Default)]
pub(crate) struct FastFlow {
    usable: bool,
    /// Usable, and the instruction reads and writes no register the check
    /// follows (`s_waitcnt`, `s_barrier`, `s_nop`, `s_branch`): nothing to
    /// do.
    nothing: bool,
    /// A store or atomic (its data's shadow is not needed after).
    store: bool,
    /// VGPRs whose EXEC lanes must be defined.
    exec_vgprs: [u16; FAST_VGPRS],
    n_exec_vgprs: u8,
    /// VGPRs whose lane 0 must be defined (a scalar instruction's).
    lane0_vgprs: [u16; FAST_LANE0],
    n_lane0_vgprs: u8,
    /// Scalar codes (0–255) and the bits of each that must be defined.
    sgprs: [(u16, u32); FAST_SGPRS],
    n_sgprs: u8,
    /// VGPRs whose EXEC lanes the instruction defines (whole writes).
    def_vgprs: [u16; FAST_DEFS],
    n_def_vgprs: u8,
    /// Scalar codes the instruction defines (whole writes with storage).
    def_sgprs: [u16; FAST_DEFS],
    n_def_sgprs: u8,
}

/// Appends `item` to the first `*n` of `list`; false when full.
fn push<T: Copy, const N: usize>(list: &mut [T; N], n: &mut u8, item: T) -> bool {
    match list.get_mut(usize::from(*n)) {
        Some(slot) => {
            *slot = item;
            *n += 1;
            true
        }
        None => false,
    }
}

impl FastFlow {
    /// True when the instruction reads and writes no register the check
    /// follows.
    pub(crate) fn is_nothing(&self) -> bool {
        self.nothing
    }

    /// The lists of flow `fl` for an instruction using `lanes`.
    pub(crate) fn of(fl: &FlowFacts, lanes: Lanes) -> FastFlow {
        let mut p = FastFlow::default();
        p.usable = lanes == Lanes::Exec && p.fill(fl);
        p.nothing = p.usable
            && !p.store
            && p.n_exec_vgprs + p.n_lane0_vgprs + p.n_sgprs + p.n_def_vgprs + p.n_def_sgprs == 0;
        p
    }

    /// Fills the lists; false when they cannot express `fl`.
    fn fill(&mut self, fl: &FlowFacts) -> bool {
        let mut ok = true;
        let regs_of = |r: Regs| r.first..r.first + r.count;
        // Sinks: EXEC lanes of VGPRs, every bit of scalar registers.
        for &(r, _) in fl.sinks() {
            for code in regs_of(r) {
                ok &= self.read(r.vector, code, true, u32::MAX);
            }
        }
        // A store's data: the lanes it stores (lane 0 for a scalar one).
        self.store = matches!(fl.memory, MemKind::Store | MemKind::Atomic { .. });
        if self.store {
            for &r in fl.data() {
                for code in regs_of(r) {
                    ok &= self.read(r.vector, code, fl.vector, u32::MAX);
                }
            }
        }
        // Sources and destinations, as `flow_all_defined` tests and sets
        // them (a vector instruction's scalar sources wholly).
        for s in fl.sources() {
            let bits = if fl.vector { u32::MAX } else { s.bits };
            for code in regs_of(s.regs) {
                ok &= self.read(s.regs.vector, code, fl.vector, bits);
            }
        }
        for d in fl.dests() {
            if d.regs.vector {
                // A scalar instruction writes no VGPR; a partial write
                // keeps bits per lane.
                if !fl.vector || d.keep || d.bits != u32::MAX {
                    return false;
                }
                for code in regs_of(d.regs) {
                    ok &= push(&mut self.def_vgprs, &mut self.n_def_vgprs, code);
                }
            } else if !d.keep {
                // (A kept write leaves the shadow as it is.)
                for code in regs_of(d.regs) {
                    // Constants and source-only specials have no storage.
                    if code < 128 || code == sreg::SCC {
                        ok &= push(&mut self.def_sgprs, &mut self.n_def_sgprs, code);
                    }
                }
            }
        }
        ok
    }

    /// Adds a register the instruction reads: a VGPR tested in its EXEC
    /// lanes (`exec_lanes`) or in lane 0, or a scalar code whose `bits`
    /// must be defined. False when its list is full.
    fn read(&mut self, vector: bool, code: u16, exec_lanes: bool, bits: u32) -> bool {
        match (vector, exec_lanes) {
            (true, true) => push(&mut self.exec_vgprs, &mut self.n_exec_vgprs, code),
            (true, false) => push(&mut self.lane0_vgprs, &mut self.n_lane0_vgprs, code),
            (false, _) => push(&mut self.sgprs, &mut self.n_sgprs, (code & 255, bits)),
        }
    }

    /// The common case for a wave whose EXEC is `exec`: when nothing the
    /// instruction reads is undefined, sets the shadow of what it writes
    /// and returns true; else changes nothing and returns false.
    #[inline(always)]
    fn apply(&self, sh: &mut Shadow, exec: u64) -> bool {
        Lists {
            exec_vgprs: &self.exec_vgprs[..usize::from(self.n_exec_vgprs)],
            lane0_vgprs: &self.lane0_vgprs[..usize::from(self.n_lane0_vgprs)],
            sgprs: &self.sgprs[..usize::from(self.n_sgprs)],
            def_vgprs: &self.def_vgprs[..usize::from(self.n_def_vgprs)],
            def_sgprs: &self.def_sgprs[..usize::from(self.n_def_sgprs)],
        }
        .apply(sh, exec)
    }
}

/// The register lists of a [`FastFlow`] or a run of them ([`RunLists`]): VGPRs read in
/// EXEC's lanes and in lane 0, scalar codes with the bits read, and the
/// VGPRs and scalar codes written whole.
struct Lists<'a> {
    exec_vgprs: &'a [u16],
    lane0_vgprs: &'a [u16],
    sgprs: &'a [(u16, u32)],
    def_vgprs: &'a [u16],
    def_sgprs: &'a [u16],
}

impl Lists<'_> {
    /// When nothing read is undefined in a wave whose EXEC is `exec`, sets
    /// the shadow of what is written and returns true; else changes
    /// nothing and returns false.
    #[inline(always)]
    fn apply(&self, sh: &mut Shadow, exec: u64) -> bool {
        let v_lanes = &sh.v_lanes;
        let lanes_of = |v: u16| v_lanes.get(usize::from(v)).copied().unwrap_or(0);
        let mut undefined = 0u64;
        for &v in self.exec_vgprs {
            undefined |= lanes_of(v);
        }
        let mut undefined = undefined & exec;
        for &v in self.lane0_vgprs {
            undefined |= lanes_of(v) & 1;
        }
        let mut bits = 0u32;
        for &(code, mask) in self.sgprs {
            bits |= sh.s_bits[usize::from(code) & 255] & mask;
        }
        if undefined != 0 || bits != 0 {
            return false;
        }
        for &v in self.def_vgprs {
            if let Some(l) = sh.v_lanes.get_mut(usize::from(v)) {
                *l &= !exec;
            }
        }
        for &code in self.def_sgprs {
            let c = usize::from(code) & 255;
            sh.set_s_bits(c, 0);
            // (Every flag is clear while none was set since the reset: the
            // common case then leaves the table's cache lines alone.)
            if sh.s_marked {
                sh.s_comp[c] = false;
            }
        }
        true
    }
}

/// The fast flows of a run of instructions that a compiled block checks
/// together ([`GroupCheck::defined_run`]): what the run reads that none of
/// its instructions defined before, and everything it defines. When every
/// register of the first lists is defined, each instruction's
/// [`FastFlow`] holds in turn (an instruction's test reads registers
/// defined at the run's start or by an earlier instruction's whole write of
/// its EXEC lanes), and applying the definitions at once leaves the shadow
/// as applying them one by one does.
#[derive(Debug)]
pub(crate) struct RunLists {
    /// The VGPRs read in EXEC's lanes, the lane-0 reads (all of them: an
    /// earlier write may have missed lane 0), the VGPRs and the scalar
    /// codes defined, one list after another in one allocation (`ends`:
    /// where each list ends), so that applying them touches few cache
    /// lines.
    regs: Box<[u16]>,
    ends: [usize; 4],
    sgprs: Box<[(u16, u32)]>,
    store: bool,
}

impl RunLists {
    /// The lists of the run of instructions with `slots`; `None` when an
    /// instruction of it has no usable fast flow.
    pub(crate) fn of(facts: &[Facts], slots: impl Iterator<Item = usize>) -> Option<RunLists> {
        let mut exec_vgprs: Vec<u16> = Vec::new();
        let mut lane0_vgprs: Vec<u16> = Vec::new();
        let mut sgprs: Vec<(u16, u32)> = Vec::new();
        let mut def_vgprs: Vec<u16> = Vec::new();
        let mut def_sgprs: Vec<u16> = Vec::new();
        let mut store = false;
        for slot in slots {
            let fast = &facts.get(slot)?.fast_flow;
            if fast.nothing {
                continue;
            }
            if !fast.usable {
                return None;
            }
            for &v in &fast.exec_vgprs[..usize::from(fast.n_exec_vgprs)] {
                if !def_vgprs.contains(&v) && !exec_vgprs.contains(&v) {
                    exec_vgprs.push(v);
                }
            }
            for &v in &fast.lane0_vgprs[..usize::from(fast.n_lane0_vgprs)] {
                if !lane0_vgprs.contains(&v) {
                    lane0_vgprs.push(v);
                }
            }
            for &(code, bits) in &fast.sgprs[..usize::from(fast.n_sgprs)] {
                if !def_sgprs.iter().any(|&d| d & 255 == code & 255) {
                    sgprs.push((code, bits));
                }
            }
            for &v in &fast.def_vgprs[..usize::from(fast.n_def_vgprs)] {
                if !def_vgprs.contains(&v) {
                    def_vgprs.push(v);
                }
            }
            for &code in &fast.def_sgprs[..usize::from(fast.n_def_sgprs)] {
                if !def_sgprs.contains(&code) {
                    def_sgprs.push(code);
                }
            }
            store |= fast.store;
        }
        let mut regs = Vec::new();
        let mut ends = [0; 4];
        for (end, list) in ends
            .iter_mut()
            .zip([exec_vgprs, lane0_vgprs, def_vgprs, def_sgprs])
        {
            regs.extend(list);
            *end = regs.len();
        }
        Some(RunLists {
            regs: regs.into(),
            ends,
            sgprs: sgprs.into(),
            store,
        })
    }

    /// [`FastFlow::apply`] for the whole run.
    fn apply(&self, sh: &mut Shadow, exec: u64) -> bool {
        let [a, b, c, d] = self.ends;
        let regs = &self.regs[..];
        Lists {
            exec_vgprs: &regs[..a],
            lane0_vgprs: &regs[a..b],
            sgprs: &self.sgprs,
            def_vgprs: &regs[b..c],
            def_sgprs: &regs[c..d],
        }
        .apply(sh, exec)
    }
}

impl FlowFacts {
    /// True when the instruction moves data between registers and memory
    /// (what [`GroupCheck::defined_after`] follows).
    #[inline]
    pub(crate) fn touches_memory(&self) -> bool {
        self.memory != MemKind::None
    }

    fn sources(&self) -> &[Source] {
        &self.sources[..usize::from(self.n_sources)]
    }

    fn sinks(&self) -> &[(Regs, Sink)] {
        &self.sinks[..usize::from(self.n_sinks)]
    }

    fn dests(&self) -> &[Dest] {
        &self.dests[..usize::from(self.n_dests)]
    }

    fn data(&self) -> &[Regs] {
        &self.data[..usize::from(self.n_data)]
    }

    fn filled(&self) -> &[Regs] {
        &self.filled[..usize::from(self.n_filled)]
    }

    /// Derives the flow of `op` on `version` (in the wave size it was
    /// decoded for).
    pub fn of(op: &Op, version: GcnVersion) -> FlowFacts {
        let instr = &op.instr;
        let row = instr.row;
        let unit = row.unit();
        let load = row.has(flags::LOAD);
        let store = row.has(flags::STORE);
        let atomic = row.has(flags::ATOMIC);
        let memory_unit = unit.is_memory();
        let lds_dma =
            row.encoding == Encoding::Mubuf && instr.mods.mem.flags.contains(MemFlags::LDS);
        let memory = if !memory_unit {
            MemKind::None
        } else if atomic {
            MemKind::Atomic {
                copy: matches!(
                    row.atomic.map(|a| a.op),
                    Some(AtomicOp::Swap | AtomicOp::Cmpswap)
                ),
            }
        } else if load {
            MemKind::Load
        } else if store {
            MemKind::Store
        } else {
            MemKind::None
        };
        let vector = matches!(unit, Unit::Valu | Unit::Vmem | Unit::Ds | Unit::Exp);
        let mut f = FlowFacts {
            rule: shift_rule(row.flow, instr),
            vector,
            cross_lane: instr.form == Form::Dpp || (unit == Unit::Ds && memory == MemKind::None),
            sources: [Source {
                regs: NO_REGS,
                bits: 0,
                lane_bit: false,
            }; MAX],
            n_sources: 0,
            sinks: [(NO_REGS, Sink::Address); MAX],
            n_sinks: 0,
            dests: [Dest {
                regs: NO_REGS,
                bits: 0,
                keep: false,
                lane_bit: false,
            }; MAX],
            n_dests: 0,
            memory,
            data: [NO_REGS; 2],
            n_data: 0,
            filled: [NO_REGS; 2],
            n_filled: 0,
            fill_bits: u32::MAX,
            format: row.has(flags::FORMAT),
            sdwa: (instr.form == Form::Sdwa
                && instr.mods.sext == 0
                && instr.mods.sdwa.dst_unused != 1)
                .then_some((
                    instr.mods.sdwa.src0_sel,
                    instr.mods.sdwa.src1_sel,
                    instr.mods.sdwa.dst_sel,
                )),
        };
        // FLAT_SCRATCH (a hardware register from GCN 1.5 on) is an address
        // base like the SGPR pair before: LLVM's kernels with calls set it
        // from the private segment offset SGPR even when the hardware does
        // not set that up (no private segment), and never use it then.
        let flat_scratch = version.is_gcn15()
            && instr.operands().iter().any(
                |o| matches!(o, gcn_asm::decode::Operand::Hwreg(v) if matches!(v & 63, 20 | 21)),
            );
        let writes_hwreg = !flat_scratch
            && row
                .operands
                .iter()
                .any(|o| o.field == Field::Hwreg && o.role.writes());
        let lane_select = row
            .has(flags::READ_LANE | flags::WRITE_LANE)
            .then(|| op.slot[1]);
        for access in instr.accesses().iter() {
            let regs = match access.location {
                Location::Sgprs { code, count } => Regs::s(code, count),
                Location::Vgprs { index, count } => Regs::v(index, count),
                Location::State(ImplicitReg::Scc) => Regs::s(sreg::SCC, 1),
                Location::State(_) => continue,
            };
            let spec = access
                .operand
                .and_then(|i| row.operands.get(usize::from(i)).copied());
            // An operand past the row's is the VADDR of
            // buffer_store_lds_dword and friends (gcn_asm::decode::access).
            let field = match (spec, access.operand) {
                (Some(s), _) => Some(s.field),
                (None, Some(_)) => Some(Field::Vaddr),
                (None, None) => None,
            };
            if access.role.reads() {
                let sink = match (field, access.location) {
                    (Some(Field::Vaddr | Field::Saddr | Field::Sbase | Field::Srsrc), _)
                    | (Some(Field::Ssamp | Field::Soffset), _)
                        if memory_unit =>
                    {
                        Some(Sink::Address)
                    }
                    (Some(_), _) if access.operand == lane_select => Some(Sink::LaneSelect),
                    (Some(Field::Ssrc0), _) if row.flow == Flow::Jump => Some(Sink::Control),
                    (Some(_), _) if writes_hwreg => Some(Sink::Mode),
                    (None, Location::Sgprs { code: sreg::M0, .. }) => Some(Sink::M0),
                    (None, _) if row.encoding == Encoding::Sopp => Some(Sink::Control),
                    _ => None,
                };
                if let Some(sink) = sink {
                    if usize::from(f.n_sinks) < MAX {
                        f.sinks[usize::from(f.n_sinks)] = (regs, sink);
                        f.n_sinks += 1;
                    }
                } else if memory != MemKind::None
                    && matches!(field, Some(Field::Vdata | Field::Vdata1 | Field::Sdata))
                {
                    if usize::from(f.n_data) < 2 {
                        f.data[usize::from(f.n_data)] = regs;
                        f.n_data += 1;
                    }
                } else if usize::from(f.n_sources) < MAX {
                    let sixteen = spec.is_some_and(|s| {
                        matches!(
                            s.ty,
                            DataType::F16 | DataType::I16 | DataType::U16 | DataType::B16
                        )
                    }) && instr.form != Form::Sdwa;
                    // With `op_sel` (GCN 1.4) a 16-bit source may be the
                    // register's high half.
                    let high = row.has(flags::OP_SEL)
                        && access.operand.is_some_and(|i| {
                            op.slot
                                .iter()
                                .position(|&s| s == i)
                                .is_some_and(|k| instr.mods.op_sel >> k & 1 != 0)
                        });
                    let lane_bit = unit == Unit::Valu
                        && !regs.vector
                        && (field == Some(Field::Ssrc2)
                            || (field.is_none() && regs.first == sreg::VCC));
                    let sdwa = instr.form == Form::Sdwa;
                    let bits = match access.operand {
                        Some(i) if sdwa && i == op.slot[0] => sel_bits(instr.mods.sdwa.src0_sel),
                        Some(i) if sdwa && i == op.slot[1] => sel_bits(instr.mods.sdwa.src1_sel),
                        _ if sixteen && high => 0xffff_0000,
                        _ if sixteen => 0xffff,
                        _ => u32::MAX,
                    };
                    f.sources[usize::from(f.n_sources)] = Source {
                        regs,
                        bits,
                        lane_bit,
                    };
                    f.n_sources += 1;
                }
            }
            if access.role.writes() {
                let from_memory = matches!(memory, MemKind::Load | MemKind::Atomic { .. })
                    && !lds_dma
                    && matches!(field, Some(Field::Vdata | Field::Vdst | Field::Sdata));
                if from_memory {
                    if usize::from(f.n_filled) < 2 {
                        f.filled[usize::from(f.n_filled)] = regs;
                        f.n_filled += 1;
                    }
                    if access.partial && row.has(flags::MERGE) {
                        f.fill_bits = if row.has(flags::HI) {
                            0xffff_0000
                        } else {
                            0xffff
                        };
                    }
                } else if usize::from(f.n_dests) < MAX {
                    let merge = access.partial && row.has(flags::MERGE);
                    // SDWA UNUSED_PRESERVE writes the selected bits only.
                    let preserve = access.partial
                        && instr.form == Form::Sdwa
                        && instr.mods.sdwa.dst_unused == 2
                        && regs.vector;
                    // GCN 1.5+: a 16-bit VALU result (but in SDWA) writes the
                    // low half, or the high one with OP_SEL bit 3, and
                    // keeps the other ("on gfx10, all 16-bit instructions
                    // preserve the high bits", LLVM).
                    let half16 = access.partial
                        && version.is_gcn15()
                        && unit == Unit::Valu
                        && regs.vector
                        && instr.form != Form::Sdwa
                        && field == Some(Field::Vdst)
                        && row
                            .operand(Field::Vdst)
                            .is_some_and(|o| gcn_asm::isa::is_16bit(o.ty));
                    let half16_high = half16 && instr.mods.op_sel & 8 != 0;
                    f.dests[usize::from(f.n_dests)] = Dest {
                        regs,
                        bits: match (merge, row.has(flags::HI)) {
                            _ if preserve => sel_bits(instr.mods.sdwa.dst_sel),
                            _ if half16_high => 0xffff_0000,
                            _ if half16 => 0xffff,
                            (true, true) => 0xffff_0000,
                            (true, false) => 0xffff,
                            _ => u32::MAX,
                        },
                        keep: access.partial
                            && !merge
                            && !preserve
                            && !half16
                            && !row.has(flags::WRITE_LANE),
                        lane_bit: unit == Unit::Valu
                            && !regs.vector
                            && !row.has(flags::READ_LANE | flags::FIRST_LANE),
                    };
                    f.n_dests += 1;
                }
            }
        }
        f
    }
}

/// The rule of a row with flow `flow` in the form `instr` has: a shift
/// whose operands an SDWA selection, a DPP lane or `op_sel` halves change
/// computes ([`Flow::Compute`]); every other flow is the row's.
fn shift_rule(flow: Flow, instr: &gcn_asm::decode::Instruction) -> Flow {
    let moved = matches!(instr.form, Form::Sdwa | Form::Dpp)
        || (instr.row.has(flags::OP_SEL) && instr.mods.op_sel != 0);
    if flow.shift().is_some() && moved {
        Flow::Compute
    } else {
        flow
    }
}

/// The bits an SDWA selection (0–3 a byte, 4–5 a word, 6 the dword)
/// takes.
fn sel_bits(sel: u8) -> u32 {
    match sel {
        0..=3 => 0xff << (8 * u32::from(sel)),
        4 => 0xffff,
        5 => 0xffff_0000,
        _ => u32::MAX,
    }
}

/// Where undefined bits came from: what nothing wrote, and the instruction
/// that first read it.
#[derive(Debug, Clone)]
pub(crate) struct Origin {
    /// `v5 lane 3 byte 0`, `s33`, `LDS byte 0x40`, `device byte 0x…`.
    pub what: String,
    /// PC of the first instruction that read it.
    pub pc: u32,
    /// The wave of that instruction (shown by `Debug` only: the messages
    /// name the reporting wave, which is this one or a wave it raced).
    #[allow(dead_code)]
    pub wave: u32,
}

/// The shadow of one wave's registers.
#[cfg_attr(test, derive(Clone))] // (the tests compare copies)
pub(crate) struct Shadow {
    /// Undefined bits per scalar code (0–127, SCC at 253).
    s_bits: Box<[u32; 256]>,
    /// The codes whose `s_bits` entry may differ from `start_bits`
    /// (a bit per code): a reset restores only these (a wave writes a few
    /// SGPRs; restoring all 256 entries costs a streaming kernel's wave
    /// sixteen cache lines).
    s_dirty: [u64; 4],
    /// What `s_bits` is at a wave's start: [`INITIAL_S_BITS`] with the
    /// ABI's first `start_abi` SGPRs defined (the reset restores the dirty
    /// entries from it, so the ABI's SGPRs are neither rewritten nor dirty
    /// in every wave).
    start_bits: Box<[u32; 256]>,
    /// The ABI SGPR count `start_bits` is for (`u16::MAX`: none yet).
    start_abi: u16,
    /// Computed-from-undefined flag per scalar code.
    s_comp: Box<[bool; 256]>,
    /// Origin id per scalar code (0: none yet).
    s_origin: Box<[u32; 256]>,
    /// A flag of `s_comp` or an entry of `s_origin` was set since the
    /// last reset (most waves never set one: the reset then skips them).
    s_marked: bool,
    /// Lanes with any undefined bit, per VGPR.
    v_lanes: Vec<u64>,
    /// Undefined bits per lane, per VGPR; `None`: every bit of the lanes in
    /// `v_lanes` (the common case, kept without storage).
    v_bits: Vec<Option<Box<[u32; WAVE_SIZE]>>>,
    /// Lanes computed from undefined data, per VGPR.
    v_comp: Vec<u64>,
    /// Origin id per VGPR lane (0: none yet); `None`: none in any lane.
    v_origin: Vec<Option<Box<[u32; WAVE_SIZE]>>>,
    /// True once an entry of `v_bits`, `v_comp` or `v_origin` was set since
    /// the last reset (else they are as a reset leaves them).
    v_marked: bool,
    /// How many times a register's bits became undefined ([`Shadow::set_v`]
    /// and [`Shadow::set_s`] with undefined bits; nothing else makes them
    /// so): while it stays the same, what was defined stays defined.
    epoch: u64,
    /// The instructions whose [`FastFlow`] held, by slot (direct-mapped):
    /// with the same EXEC and epoch it holds again and changes nothing.
    held: Box<[Held; HELD]>,
    /// Bit `i`: `held[i]` was written in the current epoch (else it holds
    /// for nothing, and the lookup need not read it: an entry of an
    /// earlier wave would cost a streaming kernel a cache miss per memory
    /// instruction to find stale).
    held_live: u64,
    /// Bit `i`: an instruction of bucket `i` held in the current epoch. An
    /// entry is written only at a bucket's second hold in an epoch (a
    /// loop's), so that code run once per wave writes none.
    held_seen: u64,
}

/// The register shadows of a work-group's waves. A wave's shadow is reset
/// when a check first asks for it, not when the group starts: a wave
/// whose block's checks are replayed and that ends after it
/// ([`super::replay`]) never reads its shadow, and the reset cost a
/// streaming kernel's wave more than its checks did.
#[derive(Default)]
pub(crate) struct Shadows {
    list: Vec<Shadow>,
    /// Per wave: the shadow is still the one an earlier wave left.
    stale: Vec<bool>,
    /// What a reset takes: VGPRs, and the ABI's SGPRs and VGPRs.
    layout: (u16, u16, u16),
}

impl Shadows {
    /// The shadows of `waves` waves starting now: each as
    /// [`Shadow::new`] makes it, once asked for.
    pub(crate) fn start(&mut self, waves: usize, vgprs: u16, abi_sgprs: u16, abi_vgprs: u16) {
        self.layout = (vgprs, abi_sgprs, abi_vgprs);
        self.list.truncate(waves);
        self.list
            .resize_with(waves, || Shadow::new(vgprs, abi_sgprs, abi_vgprs));
        self.stale.clear();
        self.stale.resize(waves, true);
    }

    /// The shadow of wave `w` (reset first if it is stale).
    #[inline]
    pub(crate) fn get_mut(&mut self, w: usize) -> Option<&mut Shadow> {
        let sh = self.list.get_mut(w)?;
        if let Some(stale) = self.stale.get_mut(w).filter(|s| **s) {
            let (vgprs, abi_sgprs, abi_vgprs) = self.layout;
            sh.reset(vgprs, abi_sgprs, abi_vgprs);
            *stale = false;
        }
        Some(sh)
    }
}

/// The change a run of instructions made to a freshly reset shadow
/// ([`Shadow::since_reset`]).
pub(crate) struct ShadowDelta {
    /// The scalar codes written, and their undefined bits.
    s_bits: Vec<(u16, u32)>,
    s_dirty: [u64; 4],
    /// The lanes with undefined bits, per VGPR.
    v_lanes: Vec<u64>,
}

impl ShadowDelta {
    /// Replays the change on `sh`, a shadow reset for the same dispatch
    /// (VGPRs and ABI) as the one it was taken from. A new epoch: what
    /// `held` says of the recording wave says nothing of this one.
    pub(crate) fn apply(&self, sh: &mut Shadow) {
        for &(c, bits) in &self.s_bits {
            sh.s_bits[usize::from(c)] = bits;
        }
        for (dirty, &d) in sh.s_dirty.iter_mut().zip(&self.s_dirty) {
            *dirty |= d;
        }
        sh.v_lanes.clone_from(&self.v_lanes);
        sh.new_epoch();
    }
}

/// The scalar shadow of a wave before the ABI's SGPRs: every SGPR
/// undefined but EXEC (the dispatcher sets it), the codes above 127
/// (constants and the like) defined, SCC undefined (bit 0: it is one bit).
const INITIAL_S_BITS: [u32; 256] = {
    let mut bits = [0u32; 256];
    let mut code = 0;
    while code < 128 {
        bits[code] = u32::MAX;
        code += 1;
    }
    bits[sreg::EXEC as usize] = 0;
    bits[sreg::EXEC as usize + 1] = 0;
    bits[sreg::SCC as usize] = 1;
    bits
};

/// Entries of [`Shadow::held`] (a loop body's worth of instructions).
const HELD: usize = 64;

// `Shadow::held_live` has a bit per entry.
const _: () = assert!(HELD <= 64);

/// One instruction whose [`FastFlow`] held: its slot, EXEC and the
/// [`Shadow::epoch`] then.
#[derive(Debug, Clone, Copy)]
struct Held {
    slot: usize,
    exec: u64,
    epoch: u64,
}

/// An entry of [`Shadow::held`] that holds for no instruction.
const NOT_HELD: Held = Held {
    slot: usize::MAX,
    exec: 0,
    epoch: 0,
};

/// The shadow of one lane's value of one register.
#[derive(Debug, Clone, Copy, Default)]
struct Val {
    bits: u32,
    comp: bool,
    origin: u32,
}

impl Val {
    fn join(self, other: Val) -> Val {
        Val {
            bits: self.bits | other.bits,
            comp: self.comp | other.comp,
            origin: if self.origin != 0 && self.bits != 0 {
                self.origin
            } else if other.bits != 0 {
                other.origin
            } else {
                self.origin
            },
        }
    }
}

impl Shadow {
    /// A wave whose ABI registers (`s0 ..abi_sgprs`, EXEC, `v0 ..abi_vgprs`)
    /// are defined and everything else undefined.
    pub(crate) fn new(vgprs: u16, abi_sgprs: u16, abi_vgprs: u16) -> Shadow {
        let mut shadow = Shadow {
            s_bits: Box::new(INITIAL_S_BITS),
            start_bits: Box::new(INITIAL_S_BITS),
            start_abi: u16::MAX,
            s_dirty: [0; 4],
            s_comp: Box::new([false; 256]),
            s_origin: Box::new([0; 256]),
            s_marked: false,
            v_lanes: Vec::new(),
            v_bits: Vec::new(),
            v_comp: Vec::new(),
            v_origin: Vec::new(),
            v_marked: false,
            epoch: 0,
            held: Box::new([NOT_HELD; HELD]),
            held_live: 0,
            held_seen: 0,
        };
        // (`reset` moves the epoch to 1, past every entry of `held`.)
        shadow.reset(vgprs, abi_sgprs, abi_vgprs);
        shadow
    }

    /// What the instructions since the last reset changed, if a replay
    /// can install it ([`ShadowDelta::apply`]): `None` once a flag of
    /// `s_comp`/`v_comp`, an origin or a partial lane was set.
    pub(crate) fn since_reset(&self) -> Option<ShadowDelta> {
        if self.s_marked || self.v_marked {
            return None;
        }
        let mut s_bits = Vec::new();
        for (word, &dirty) in self.s_dirty.iter().enumerate() {
            let mut bits = dirty;
            while bits != 0 {
                let c = 64 * word + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                s_bits.push((c as u16, self.s_bits[c]));
            }
        }
        Some(ShadowDelta {
            s_bits,
            s_dirty: self.s_dirty,
            v_lanes: self.v_lanes.clone(),
        })
    }

    /// Something became undefined (or the wave starts): every entry of
    /// `held` is stale.
    #[inline]
    fn new_epoch(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        self.held_live = 0;
        self.held_seen = 0;
    }

    /// Sets the undefined bits of scalar code `c` (0–255), marking it for
    /// the next reset ([`Shadow::s_dirty`]): every write of `s_bits` but
    /// the reset's goes through here.
    #[inline(always)]
    fn set_s_bits(&mut self, c: usize, bits: u32) {
        self.s_bits[c] = bits;
        self.s_dirty[c / 64] |= 1 << (c % 64);
    }

    /// The shadow of a wave that starts now, as [`Shadow::new`] makes it,
    /// in this one's storage (a work-group's check state is reused by the
    /// next group its host thread runs).
    pub(crate) fn reset(&mut self, vgprs: u16, abi_sgprs: u16, abi_vgprs: u16) {
        // The entries written since the last reset back to the constant
        // part, then the ABI's SGPRs.
        if self.start_abi != abi_sgprs {
            let mut start = INITIAL_S_BITS;
            start[..usize::from(abi_sgprs).min(128)].fill(0);
            *self.start_bits = start;
            *self.s_bits = start;
            self.s_dirty = [0; 4];
            self.start_abi = abi_sgprs;
        }
        for (word, dirty) in self.s_dirty.iter_mut().enumerate() {
            let mut bits = std::mem::take(dirty);
            while bits != 0 {
                let c = 64 * word + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.s_bits[c] = self.start_bits[c];
            }
        }
        if self.s_marked {
            self.s_comp.fill(false);
            self.s_origin.fill(0);
            self.s_marked = false;
        }
        let vgprs = usize::from(vgprs);
        self.v_lanes.clear();
        self.v_lanes.extend((0..vgprs).map(|v| {
            if v < usize::from(abi_vgprs) {
                0
            } else {
                u64::MAX
            }
        }));
        // The per-lane tables only when an instruction set an entry (their
        // clear drops each entry, more than the rest of the reset).
        if self.v_marked || self.v_bits.len() != vgprs {
            self.v_bits.clear();
            self.v_bits.resize(vgprs, None);
            self.v_comp.clear();
            self.v_comp.resize(vgprs, 0);
            self.v_origin.clear();
            self.v_origin.resize(vgprs, None);
            self.v_marked = false;
        }
        // Not clearing `held` (1.5 KiB): a new epoch, which no entry of
        // the earlier wave holds, makes every entry miss as a cleared one
        // does (`epoch` only ever grows, a wrap taking 2^64 steps).
        self.new_epoch();
    }

    #[inline]
    fn v(&self, v: u16, lane: usize) -> Val {
        let v = usize::from(v);
        let Some(&lanes) = self.v_lanes.get(v) else {
            return Val::default();
        };
        if lanes >> lane & 1 == 0 {
            return Val::default();
        }
        Val {
            bits: self.v_bits[v].as_ref().map_or(u32::MAX, |b| b[lane]),
            comp: self.v_comp[v] >> lane & 1 != 0,
            origin: self.v_origin[v].as_ref().map_or(0, |o| o[lane]),
        }
    }

    #[inline]
    fn set_v(&mut self, v: u16, lane: usize, val: Val) {
        let v = usize::from(v);
        if v >= self.v_lanes.len() {
            return;
        }
        let bit = 1u64 << lane;
        if val.bits == 0 {
            self.v_lanes[v] &= !bit;
            self.v_comp[v] &= !bit;
            if let Some(o) = self.v_origin[v].as_mut() {
                o[lane] = 0;
            }
            return;
        }
        self.new_epoch();
        self.v_marked = true;
        if val.bits != u32::MAX || self.v_bits[v].is_some() {
            let lanes = self.v_lanes[v];
            let b = self.v_bits[v].get_or_insert_with(|| {
                Box::new(std::array::from_fn(|l| {
                    if lanes >> l & 1 != 0 {
                        u32::MAX
                    } else {
                        0
                    }
                }))
            });
            b[lane] = val.bits;
        }
        self.v_lanes[v] |= bit;
        if val.comp {
            self.v_comp[v] |= bit;
        } else {
            self.v_comp[v] &= !bit;
        }
        if val.origin != 0 {
            self.v_origin[v].get_or_insert_with(|| Box::new([0; WAVE_SIZE]))[lane] = val.origin;
        } else if let Some(o) = self.v_origin[v].as_mut() {
            o[lane] = 0;
        }
    }

    #[inline]
    fn s(&self, code: u16) -> Val {
        let c = usize::from(code) & 255;
        Val {
            bits: self.s_bits[c],
            comp: self.s_comp[c],
            origin: self.s_origin[c],
        }
    }

    #[inline]
    fn set_s(&mut self, code: u16, val: Val) {
        let c = usize::from(code);
        // Constants and source-only specials have no storage.
        if c >= 128 && code != sreg::SCC {
            return;
        }
        let bits = if code == sreg::SCC {
            val.bits & 1
        } else {
            val.bits
        };
        if bits != 0 {
            self.new_epoch();
        }
        self.set_s_bits(c, bits);
        let comp = val.comp && val.bits != 0;
        if comp || self.s_marked {
            self.s_comp[c] = comp;
        }
        if val.origin != 0 {
            self.s_origin[c] = val.origin;
        }
        self.s_marked |= comp || val.origin != 0;
    }

    /// True when a bit of `regs` is undefined: for VGPRs, in a lane of
    /// `lanes`.
    #[inline(always)]
    fn any_undefined(&self, regs: Regs, lanes: u64) -> bool {
        (regs.first..regs.first + regs.count).any(|r| {
            if regs.vector {
                self.v_lanes
                    .get(usize::from(r))
                    .is_some_and(|l| l & lanes != 0)
            } else {
                self.s(r).bits != 0
            }
        })
    }

    /// Marks every VGPR lane of `mask` defined (the fast path of a write).
    #[inline]
    fn define_lanes(&mut self, regs: Regs, mask: u64) {
        for v in regs.first..regs.first + regs.count {
            if let Some(l) = self.v_lanes.get_mut(usize::from(v)) {
                *l &= !mask;
            }
        }
    }
}

/// The register-naming of an origin.
fn reg_name(vector: bool, code: u16) -> String {
    if !vector && code == sreg::SCC {
        return "scc".into();
    }
    Regs {
        vector,
        first: code,
        count: 1,
    }
    .to_string()
}

/// The group-wide state of the definedness check.
#[derive(Default)]
pub(crate) struct Origins {
    list: Vec<Origin>,
    /// Origins of undefined device-memory bytes stored by this group.
    memory: HashMap<u64, u32>,
    /// Data shadows a store or atomic read before it executed (lanes ×
    /// dwords), for the after hook.
    pending: Vec<[Val; 16]>,
    pending_lanes: u64,
    /// Register values the flows read (bitwise operations, shift
    /// amounts): a block whose flows read one is not replayed
    /// ([`super::replay`]), as its shadow may differ from wave to wave.
    pub(crate) value_reads: u64,
}

impl Origins {
    /// The state of a work-group that starts now ([`Origins::default`]),
    /// keeping the storage.
    pub(crate) fn reset(&mut self) {
        self.list.clear();
        self.memory.clear();
        self.pending.clear();
        self.pending_lanes = 0;
    }

    /// Origins recorded (a block that records one is not replayed).
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    fn add(&mut self, what: String, pc: u32, wave: u32) -> u32 {
        self.list.push(Origin { what, pc, wave });
        self.list.len() as u32
    }

    fn get(&self, id: u32) -> Option<&Origin> {
        id.checked_sub(1).and_then(|i| self.list.get(i as usize))
    }

    /// The clause a report adds for origin `id`, and the PC of the
    /// instruction that first read what nothing wrote.
    fn describe(&self, id: u32) -> (String, Option<u32>) {
        match self.get(id) {
            Some(o) => (
                format!(
                    "; they come from {}, which nothing wrote, first read by the related instruction",
                    o.what
                ),
                Some(o.pc),
            ),
            None => (String::new(), None),
        }
    }
}

/// Reads the shadow of register `code`/`v` in `lane` for an instruction at
/// `pc`: an undefined value with no origin yet gets one (this register,
/// nothing wrote it, first read here).
#[inline]
#[allow(clippy::too_many_arguments)]
fn read_val(
    sh: &mut Shadow,
    origins: &mut Origins,
    vector: bool,
    r: u16,
    lane: usize,
    mask: u32,
    pc: u32,
    wave: u32,
) -> Val {
    let mut val = if vector { sh.v(r, lane) } else { sh.s(r) };
    val.bits &= mask;
    if val.bits != 0 && val.origin == 0 {
        let byte = val.bits.trailing_zeros() / 8;
        let what = if vector {
            format!("{} lane {lane} byte {byte}", reg_name(true, r))
        } else if r == sreg::SCC {
            "scc".to_string()
        } else {
            format!("{} byte {byte}", reg_name(false, r))
        };
        let id = origins.add(what, pc, wave);
        val.origin = id;
        if vector {
            // Every lane of the register nothing wrote shares the origin.
            let lanes = sh.v_lanes[usize::from(r)];
            sh.v_marked = true;
            let o = sh.v_origin[usize::from(r)].get_or_insert_with(|| Box::new([0; WAVE_SIZE]));
            for (l, x) in o.iter_mut().enumerate() {
                if *x == 0 && lanes >> l & 1 != 0 {
                    *x = id;
                }
            }
        } else {
            sh.s_origin[usize::from(r) & 255] = id;
            sh.s_marked = true;
        }
    }
    val
}

/// The lanes an instruction reads and writes.
fn lane_masks(wave: &Wave, op: &Op, f: &Facts) -> (u64, u64) {
    let exec = wave.exec();
    let lane_of = |i: u8| match op.slot_src(usize::from(i)) {
        Src::None => 0,
        s => wave.read_s32(s) & 63,
    };
    match f.lanes {
        Lanes::Exec => (exec, exec),
        Lanes::ReadLane => (1u64 << lane_of(1), exec),
        Lanes::WriteLane => (exec, 1u64 << lane_of(1)),
        Lanes::FirstLane => {
            let first = exec & exec.wrapping_neg();
            (if first == 0 { 1 } else { first }, exec)
        }
    }
}

impl GroupCheck<'_> {
    /// The definedness flow of the instruction about to execute: sinks
    /// checked, register results' shadows set, a store's data shadow
    /// captured for [`GroupCheck::defined_after`].
    #[inline(always)]
    pub(crate) fn defined_before(&mut self, wave: &Wave, op: &Op, slot: usize, f: &Facts) {
        // The common case first, inline in the hook: EXEC lanes, nothing
        // read undefined — no sink fires, a store's data is defined, every
        // result is defined ([`FastFlow`]).
        let fast = &f.fast_flow;
        if fast.nothing {
            return;
        }
        if fast.usable {
            if let Some(sh) = self.shadows.get_mut(wave.id as usize) {
                let exec = wave.exec();
                let live = sh.held_live & (1 << (slot % HELD)) != 0;
                // Held before with this EXEC, and nothing became undefined
                // since: what it read is still defined, what it wrote too,
                // so the lists would change nothing.
                let holds = if live && {
                    let held = sh.held[slot % HELD];
                    held.slot == slot && held.exec == exec && held.epoch == sh.epoch
                } {
                    debug_assert!(fast.apply(sh, exec), "a held flow no longer holds");
                    true
                } else if fast.apply(sh, exec) {
                    let bit = 1 << (slot % HELD);
                    if sh.held_seen & bit != 0 {
                        sh.held[slot % HELD] = Held {
                            slot,
                            exec,
                            epoch: sh.epoch,
                        };
                        sh.held_live |= bit;
                    }
                    sh.held_seen |= bit;
                    true
                } else {
                    false
                };
                if holds {
                    if fast.store {
                        self.origins.pending_lanes = 0;
                    }
                    return;
                }
            }
        }
        self.defined_before_general(wave, op, f);
    }

    /// [`GroupCheck::defined_before`] for every instruction of a run of a
    /// compiled block (none run through its handler) at once, from the
    /// run's `lists`, if every register the run reads that it does not
    /// define first is defined (then true); else it changes nothing and
    /// returns false, and each instruction takes `defined_before` in turn.
    pub(crate) fn defined_run(&mut self, wave: &Wave, lists: &RunLists) -> bool {
        let Some(sh) = self.shadows.get_mut(wave.id as usize) else {
            return false;
        };
        if !lists.apply(sh, wave.exec()) {
            return false;
        }
        if lists.store {
            self.origins.pending_lanes = 0;
        }
        true
    }

    /// [`GroupCheck::defined_before`] in general.
    #[inline(never)]
    fn defined_before_general(&mut self, wave: &Wave, op: &Op, f: &Facts) {
        let fl = &f.flow;
        let w = wave.id as usize;
        let pc = wave.pc;
        let (read_mask, write_mask) = lane_masks(wave, op, f);
        let GroupCheck {
            shadows, origins, ..
        } = self;
        let Some(sh) = shadows.get_mut(w) else {
            return;
        };
        // 1. The sinks.
        let mut finding: Option<(Sink, Regs, Val, u64)> = None;
        for &(regs, sink) in fl.sinks() {
            for r in regs.first..regs.first + regs.count {
                if regs.vector {
                    let mut lanes =
                        read_mask & sh.v_lanes.get(usize::from(r)).copied().unwrap_or(0);
                    let bad = lanes;
                    while lanes != 0 {
                        let lane = lanes.trailing_zeros() as usize;
                        lanes &= lanes - 1;
                        let v = read_val(sh, origins, true, r, lane, u32::MAX, pc, wave.id);
                        if v.bits != 0 && finding.is_none() {
                            finding = Some((sink, Regs::v(r, 1), v, bad));
                        }
                    }
                } else if sh.s(r).bits != 0 {
                    let v = read_val(sh, origins, false, r, 0, u32::MAX, pc, wave.id);
                    if finding.is_none() {
                        finding = Some((sink, Regs::s(r, 1), v, 0));
                    }
                }
            }
        }
        // 2. A store's data, for the after hook.
        if matches!(fl.memory, MemKind::Store | MemKind::Atomic { .. }) {
            origins.pending_lanes = 0;
            let data_lanes = if fl.vector { read_mask } else { 1 };
            let any = fl.data().iter().any(|&d| sh.any_undefined(d, data_lanes));
            if any {
                if origins.pending.len() < WAVE_SIZE {
                    origins.pending.resize(WAVE_SIZE, [Val::default(); 16]);
                }
                let mut lanes = data_lanes;
                while lanes != 0 {
                    let lane = lanes.trailing_zeros() as usize;
                    lanes &= lanes - 1;
                    let mut k = 0;
                    for d in fl.data() {
                        for r in d.first..d.first + d.count {
                            if k < 16 {
                                let v =
                                    read_val(sh, origins, d.vector, r, lane, u32::MAX, pc, wave.id);
                                origins.pending[lane][k] = v;
                                k += 1;
                            }
                        }
                    }
                }
                origins.pending_lanes = data_lanes;
            }
        }
        // 3. Register results; EXEC written undefined decides which lanes
        // run from here on.
        if fl.n_dests > 0 {
            register_flow(sh, origins, wave, op, fl, read_mask, write_mask, pc);
            if finding.is_none() {
                for d in fl.dests() {
                    for r in d.regs.first..d.regs.first + d.regs.count {
                        if !d.regs.vector && (r == sreg::EXEC || r == sreg::EXEC + 1) {
                            let v = sh.s(r);
                            if v.bits != 0 && finding.is_none() {
                                finding = Some((Sink::Control, Regs::s(sreg::EXEC, 2), v, 0));
                            }
                        }
                    }
                }
            }
        }
        if let Some((sink, regs, val, lanes)) = finding {
            self.report_undefined(wave.id, pc, sink, regs, val, lanes);
        }
    }

    /// Reports undefined bits that matter.
    fn report_undefined(
        &mut self,
        wave: u32,
        pc: u32,
        sink: Sink,
        regs: Regs,
        val: Val,
        lanes: u64,
    ) {
        let name = reg_name(regs.vector, regs.first);
        let (origin, related) = self.origins.describe(val.origin);
        self.report(
            Check::Uninit,
            wave,
            pc,
            format!("{} undefined bits of {name}{origin}", sink.what()),
            related,
            (lanes != 0).then_some(lanes),
        );
    }

    /// The memory half of the flow, after the instruction executed: a
    /// load's registers take the shadow of the bytes it read, a store's
    /// bytes the shadow of its data.
    #[inline(always)]
    pub(crate) fn defined_after(
        &mut self,
        wave: &Wave,
        f: &Facts,
        slot: usize,
        log: &[MemAccess],
        pc: u32,
    ) {
        let fl = &f.flow;
        // The common cases first, inline in the hook: a load of defined
        // bytes, a store of defined data.
        match fl.memory {
            MemKind::None => return,
            MemKind::Load
                if f.lds != super::facts::LdsUse::Write && !self.touches_undefined(slot, log) =>
            {
                let lanes_of = if fl.vector { wave.exec() } else { 1 };
                if let Some(sh) = self.shadows.get_mut(wave.id as usize) {
                    for &r in fl.filled() {
                        define_filled(sh, r, lanes_of, fl.fill_bits);
                    }
                }
                return;
            }
            MemKind::Store if self.origins.pending_lanes == 0 => {
                for a in log.iter().filter(|a| a.in_lds()) {
                    self.lds.define(a.address as usize, a.span() as usize);
                }
                return;
            }
            _ => {}
        }
        self.defined_after_general(wave, f, slot, log, pc);
    }

    /// [`GroupCheck::defined_after`] in general.
    #[inline(never)]
    fn defined_after_general(
        &mut self,
        wave: &Wave,
        f: &Facts,
        slot: usize,
        log: &[MemAccess],
        pc: u32,
    ) {
        self.general_flows += 1;
        let fl = &f.flow;
        if fl.memory == MemKind::None {
            return;
        }
        let w = wave.id as usize;
        let exec = wave.exec();
        let lanes_of = if fl.vector { exec } else { 1 };
        // A load into LDS (MUBUF `lds`): the LDS bytes it fills count as
        // defined (an approximation: the loaded bytes' shadow is not
        // carried into LDS).
        if fl.memory == MemKind::Load && f.lds == super::facts::LdsUse::Write {
            for (start, len) in lds_runs(log) {
                self.lds.define(start as usize, len as usize);
            }
            return;
        }
        // The fast paths: a load of defined bytes, a store of defined data.
        match fl.memory {
            MemKind::Load if !self.touches_undefined(slot, log) => {
                let Some(sh) = self.shadows.get_mut(w) else {
                    return;
                };
                for &r in fl.filled() {
                    define_filled(sh, r, lanes_of, fl.fill_bits);
                }
                return;
            }
            MemKind::Store if self.origins.pending_lanes == 0 => {
                for (start, len) in lds_runs(log) {
                    self.lds.define(start as usize, len as usize);
                }
                return;
            }
            _ => {}
        }
        // The slow path works lane by lane.
        let expanded: Vec<MemAccess> = log.iter().flat_map(|a| a.lanes()).collect();
        let log = &expanded[..];
        // The bytes each lane moved, with their place in its data.
        let mut by_lane: [(u32, u32); WAVE_SIZE] = [(0, 0); WAVE_SIZE];
        let mut seq: [u32; WAVE_SIZE] = [0; WAVE_SIZE];
        for a in log {
            let l = usize::from(a.lane) & 63;
            by_lane[l].0 += u32::from(a.len);
            if a.data == MemAccess::SEQUENTIAL {
                seq[l] += u32::from(a.len);
            }
            by_lane[l].1 += 1;
        }
        let filled_dwords: u32 = fl.filled().iter().map(|r| u32::from(r.count)).sum();
        let data_dwords: u32 = fl.data().iter().map(|r| u32::from(r.count)).sum();
        let mut stored_bad: Option<(u64, Val, u64)> = None;
        // Per lane storing bytes computed from undefined data: the lane,
        // the places of those bytes in its data, the first one's address
        // and shadow.
        let mut bad: Vec<(usize, u32, u64, Val)> = Vec::new();
        // One origin for the bytes this instruction finds nothing wrote.
        let mut fresh = 0u32;
        // Where each access's bytes sit in its lane's data.
        let mut seq_at = [0u32; WAVE_SIZE];
        let starts: Vec<u32> = log
            .iter()
            .map(|a| {
                if a.data == MemAccess::SEQUENTIAL {
                    let l = usize::from(a.lane) & 63;
                    let s = seq_at[l];
                    seq_at[l] += u32::from(a.len);
                    s
                } else {
                    u32::from(a.data)
                }
            })
            .collect();
        // Registers filled from memory.
        if matches!(fl.memory, MemKind::Load | MemKind::Atomic { .. }) && fl.n_filled > 0 {
            // Undefined bytes and their origin, per lane and data byte.
            let mut lane_vals: Vec<(usize, [Val; 16])> = Vec::new();
            // The lanes' whole loads, for the bytes past an allocation's
            // end (undefined only in a partial load the `oob` check lets
            // pass; the bytes of a reported stray read count as defined,
            // as in Memcheck, so that one error does not cascade).
            let ranges = (fl.memory == MemKind::Load).then(|| super::oob::lane_ranges(log));
            let smem = f.unit == Unit::Smem;
            for (a, &start) in log.iter().zip(&starts) {
                let l = usize::from(a.lane) & 63;
                let partial = ranges.map(|r| (smem, r[l]));
                let undefined = self.memory_undefined(wave, a, pc, &mut fresh, partial);
                if undefined.iter().all(|v| v.bits == 0) {
                    continue;
                }
                let idx = match lane_vals.iter().position(|(x, _)| *x == l) {
                    Some(i) => i,
                    None => {
                        lane_vals.push((l, [Val::default(); 16]));
                        lane_vals.len() - 1
                    }
                };
                let whole = by_lane[l].0 != 4 * filled_dwords;
                for (i, u) in undefined.iter().enumerate().take(a.len as usize) {
                    if u.bits == 0 {
                        continue;
                    }
                    let byte = start as usize + i;
                    let vals = &mut lane_vals[idx].1;
                    if whole || byte / 4 >= 16 {
                        for v in vals.iter_mut().take(filled_dwords as usize) {
                            *v = v.join(Val {
                                bits: u32::MAX,
                                ..*u
                            });
                        }
                    } else {
                        vals[byte / 4] = vals[byte / 4].join(Val {
                            bits: 0xff << (8 * (byte % 4)),
                            ..*u
                        });
                    }
                }
            }
            let Some(sh) = self.shadows.get_mut(w) else {
                return;
            };
            let mut lanes = lanes_of;
            let fill = fl.fill_bits;
            while lanes != 0 {
                let lane = lanes.trailing_zeros() as usize;
                lanes &= lanes - 1;
                let vals = lane_vals.iter().find(|(x, _)| *x == lane).map(|(_, v)| v);
                let mut k = 0;
                for r in fl.filled() {
                    for reg in r.first..r.first + r.count {
                        let new = vals.map_or(Val::default(), |v| v[k.min(15)]);
                        let new = Val {
                            bits: new.bits & fill,
                            ..new
                        };
                        if r.vector {
                            let old = sh.v(reg, lane);
                            let kept = Val {
                                bits: old.bits & !fill,
                                ..old
                            };
                            sh.set_v(reg, lane, new.join(kept));
                        } else {
                            let old = sh.s(reg);
                            let kept = Val {
                                bits: old.bits & !fill,
                                ..old
                            };
                            sh.set_s(reg, new.join(kept));
                        }
                        k += 1;
                    }
                }
            }
        }
        // Memory written from registers.
        if let MemKind::Store | MemKind::Atomic { .. } = fl.memory {
            let copy = matches!(fl.memory, MemKind::Store | MemKind::Atomic { copy: true });
            for (a, &start) in log.iter().zip(&starts) {
                let l = usize::from(a.lane) & 63;
                // A store of fewer bytes than its data registers hold (a
                // byte, a short, a d16 half) takes them from where the log
                // says; a typed store converts, so all of its data counts.
                let whole = by_lane[l].1 == 0
                    || by_lane[l].0 > 4 * data_dwords
                    || (by_lane[l].0 != 4 * data_dwords && fl.format);
                let pending = self.origins.pending_lanes >> l & 1 != 0;
                let mut bytes = [Val::default(); 16];
                let n = (a.len as usize).min(16);
                if pending {
                    let vals = self.origins.pending[l];
                    if whole {
                        let all = vals
                            .iter()
                            .take(data_dwords as usize)
                            .fold(Val::default(), |x, y| x.join(*y));
                        let all = Val {
                            bits: if all.bits != 0 { 0xff } else { 0 },
                            ..all
                        };
                        bytes.iter_mut().take(n).for_each(|b| *b = all);
                    } else {
                        for (i, b) in bytes.iter_mut().enumerate().take(n) {
                            let byte = start as usize + i;
                            let v = vals[(byte / 4).min(15)];
                            *b = Val {
                                bits: (v.bits >> (8 * (byte % 4))) & 0xff,
                                ..v
                            };
                        }
                    }
                }
                if !copy {
                    // An atomic computes with the old bytes too.
                    let old = self.memory_undefined(wave, a, pc, &mut fresh, None);
                    for (b, o) in bytes.iter_mut().zip(old.iter()).take(n) {
                        if b.bits != 0 || o.bits != 0 {
                            *b = Val {
                                bits: 0xff,
                                comp: true,
                                origin: if b.bits != 0 { b.origin } else { o.origin },
                            };
                        }
                    }
                }
                let host = !a.lds && !self.in_scratch(a.address);
                if host {
                    // The lane's bytes computed from undefined data, by
                    // their place in its data.
                    let mut places = 0u32;
                    let mut first: Option<(u64, Val)> = None;
                    for (i, b) in bytes.iter().enumerate().take(n) {
                        if b.bits != 0 && b.comp {
                            places |= 1 << ((start as usize + i) & 31);
                            first.get_or_insert((a.address + i as u64, *b));
                        }
                    }
                    if let Some((address, val)) = first {
                        match bad.iter_mut().find(|x| x.0 == l) {
                            Some(x) => x.1 |= places,
                            None => bad.push((l, places, address, val)),
                        }
                    }
                }
                self.set_memory(a, &bytes[..n]);
            }
            // A lane whose only computed-undefined bytes are the padding of
            // a 3-element vector (clang stores one as 4 elements whose 4th
            // is undef, and LLVM may compute anything into it) stores no
            // value of the program's: not reported (atomics always are).
            if copy {
                bad.retain(|&(l, places, _, _)| !is_vec3_padding(by_lane[l].0, places));
            }
            if let Some(&(_, _, address, val)) = bad.first() {
                let lanes = bad.iter().fold(0u64, |m, x| m | 1 << x.0);
                stored_bad = Some((address, val, lanes));
            }
        }
        self.origins.pending_lanes = 0;
        if let Some((address, val, lanes)) = stored_bad {
            let (origin, related) = self.origins.describe(val.origin);
            self.report(
                Check::Uninit,
                wave.id,
                pc,
                format!(
                    "stores a value computed from undefined bits to device memory at \
                     {address:#x}{origin}"
                ),
                related,
                (fl.vector && lanes != 0).then_some(lanes),
            );
        }
    }

    /// True when one of the bytes `log` (the accesses of the instruction
    /// in `slot`) names is undefined.
    #[inline]
    fn touches_undefined(&self, slot: usize, log: &[MemAccess]) -> bool {
        if log.iter().any(|a| {
            a.in_lds()
                && self
                    .lds
                    .any_undefined(a.address as usize, a.span() as usize)
        }) {
            return true;
        }
        // Device bytes are undefined in tracked allocations, and past the
        // end of any allocation (a partial load, which the `oob` check
        // lets pass as Memcheck does).
        let Some(mem) = self.mem else {
            return false;
        };
        let tracks = mem.tracks_any();
        // Without tracked allocations only bytes past an allocation's end
        // are undefined: an access inside the allocation the `oob` check
        // last saw this instruction use (its usual one) needs no lookup.
        let cached = if tracks {
            None
        } else {
            super::oob::last_allocation(self, slot)
        };
        let inside = |a: &MemAccess| cached.is_some_and(|range| super::oob::inside(range, a));
        let mut last: Option<&crate::memory::Allocation> = None;
        for a in log {
            if a.lds || inside(a) {
                continue;
            }
            let hit = last
                .filter(|x| a.address >= x.base() && x.contains(a.address - x.base(), a.span()));
            let alloc = match hit {
                Some(x) => x,
                None => {
                    let Ok((x, offset)) = mem.find(a.address, a.span()) else {
                        continue;
                    };
                    if !x.contains(offset, a.span()) {
                        return true;
                    }
                    last = Some(x);
                    x
                }
            };
            if tracks
                && alloc.tracks_writes()
                && alloc.any_undefined(a.address - alloc.base(), a.span())
            {
                return true;
            }
        }
        false
    }

    /// True when `address` is in the dispatch's scratch memory.
    fn in_scratch(&self, address: u64) -> bool {
        address.wrapping_sub(self.scratch.0) < self.scratch.1
    }

    /// The shadow of the bytes `a` touches (at most 16); `partial`: for a
    /// load, whether it is scalar and the lane's whole access, whose bytes
    /// past the allocation's end are undefined when the partial-loads rule
    /// lets it pass.
    fn memory_undefined(
        &mut self,
        wave: &Wave,
        a: &MemAccess,
        pc: u32,
        fresh: &mut u32,
        partial: Option<(bool, (u64, u32))>,
    ) -> [Val; 16] {
        let mut out = [Val::default(); 16];
        let n = (a.len as usize).min(16);
        if a.outside {
            // Dropped past the LDS allocation: a read returns defined 0s.
            return out;
        }
        if a.lds {
            for (i, o) in out.iter_mut().enumerate().take(n) {
                let at = a.address as usize + i;
                if let Some((defined, origin)) = self.lds.defined(at) {
                    if !defined {
                        let origin = if origin != 0 {
                            origin
                        } else {
                            if *fresh == 0 {
                                *fresh = self.origins.add(format!("LDS byte {at:#x}"), pc, wave.id);
                            }
                            self.lds.set_defined(at, false, *fresh);
                            *fresh
                        };
                        *o = Val {
                            bits: 0xff,
                            comp: false,
                            origin,
                        };
                    }
                }
            }
            return out;
        }
        let Some(env_mem) = self.mem else {
            return out;
        };
        let Ok((alloc, offset)) = env_mem.find(a.address, u64::from(a.len)) else {
            return out;
        };
        let mut undefined = alloc.undefined_bytes(offset, n as u32);
        // The bytes of a partial load past the allocation's end, which
        // share one origin, kept under the allocation's end address.
        let end = alloc.base() + alloc.size();
        let past = alloc.size().saturating_sub(offset);
        let partial_ok = partial.is_some_and(|(smem, lane)| {
            super::oob::partial_load_ok(smem, lane, alloc.base(), alloc.size())
        });
        if past < n as u64 && partial_ok {
            undefined |= (u64::MAX << past) & ((1u64 << n) - 1);
            if !self.origins.memory.contains_key(&end) {
                let id = self.origins.add(
                    format!(
                        "the bytes past the end of the {}-byte allocation at {:#x} (a partial load)",
                        alloc.size(),
                        alloc.base()
                    ),
                    pc,
                    wave.id,
                );
                self.origins.memory.insert(end, id);
            }
        }
        for (i, o) in out.iter_mut().enumerate().take(n) {
            if undefined >> i & 1 != 0 {
                let at = a.address + i as u64;
                let origin = match self.origins.memory.get(&at.min(end)) {
                    Some(&id) => id,
                    None => {
                        if *fresh == 0 {
                            *fresh = self.origins.add(
                                format!("device memory byte {at:#x}"),
                                pc,
                                wave.id,
                            );
                        }
                        if self.origins.memory.len() < 1 << 20 {
                            self.origins.memory.insert(at, *fresh);
                        }
                        *fresh
                    }
                };
                *o = Val {
                    bits: 0xff,
                    comp: false,
                    origin,
                };
            }
        }
        out
    }

    /// Sets the shadow of the bytes `a` wrote.
    fn set_memory(&mut self, a: &MemAccess, bytes: &[Val]) {
        if a.outside {
            // Dropped past the LDS allocation: nothing was written.
            return;
        }
        if a.lds {
            for (i, b) in bytes.iter().enumerate() {
                self.lds
                    .set_defined(a.address as usize + i, b.bits == 0, b.origin);
            }
            return;
        }
        let Some(mem) = self.mem else {
            return;
        };
        let Ok((alloc, offset)) = mem.find(a.address, bytes.len() as u64) else {
            return;
        };
        let mut undefined = 0u64;
        for (i, b) in bytes.iter().enumerate() {
            if b.bits != 0 {
                undefined |= 1 << i;
                if b.origin != 0 && self.origins.memory.len() < 1 << 20 {
                    self.origins.memory.insert(a.address + i as u64, b.origin);
                }
            }
        }
        if undefined != 0 {
            alloc.set_undefined(offset, bytes.len() as u32, undefined);
        }
    }
}

/// Sets the shadows of an instruction's register results from its sources
/// by its row's [`Flow`].
#[allow(clippy::too_many_arguments)]
fn register_flow(
    sh: &mut Shadow,
    origins: &mut Origins,
    wave: &Wave,
    op: &Op,
    fl: &FlowFacts,
    read_mask: u64,
    write_mask: u64,
    pc: u32,
) {
    let id = wave.id;
    if flow_all_defined(sh, wave, fl, read_mask, write_mask) {
        return;
    }
    if !fl.vector {
        // Scalar: one value.
        let mut input = Val::default();
        // The sources' low dwords alone (for Flow::Carry).
        let mut low = Val::default();
        for s in fl.sources() {
            for r in s.regs.first..s.regs.first + s.regs.count {
                let x = read_val(sh, origins, s.regs.vector, r, 0, s.bits, pc, id);
                input = input.join(x);
                if r == s.regs.first {
                    low = low.join(x);
                }
            }
        }
        let values = two_values(wave, op, fl, 0);
        // A shift's result, read whole before any of it is written.
        let shifted = shift_result(sh, origins, wave, op, fl, 0, pc);
        for d in fl.dests() {
            for (i, r) in (d.regs.first..d.regs.first + d.regs.count).enumerate() {
                let input = carry_input(fl, d, i, input, low);
                // SCC of an AND/OR says whether the whole result is 0.
                let out = if is_bitwise(fl.rule) && r == sreg::SCC {
                    compute(input)
                } else if let Some(out) = shifted {
                    if r == sreg::SCC {
                        shift_scc(fl, out, input)
                    } else {
                        out[i.min(1)]
                    }
                } else {
                    result(sh, origins, fl, (values, wave), i, (0, 0), input, false, pc)
                };
                let out = Val {
                    bits: out.bits & d.bits,
                    ..out
                };
                let out = if d.keep { out.join(sh.s(r)) } else { out };
                sh.set_s(r, out);
            }
        }
        return;
    }
    // The slow path: per lane.
    let cross = fl.cross_lane;
    let exec = wave.exec();
    let mut lane_in = [Val::default(); WAVE_SIZE];
    // The cross-lane union (DPP, DS permutes).
    let mut union = Val::default();
    let mut lanes = if cross { exec } else { read_mask };
    while lanes != 0 {
        let lane = lanes.trailing_zeros() as usize;
        lanes &= lanes - 1;
        let mut v = Val::default();
        for s in fl.sources() {
            for r in s.regs.first..s.regs.first + s.regs.count {
                let x = if s.lane_bit {
                    // Bit `lane` of the lane mask (a pair: low or high half).
                    let reg = r;
                    let half = (lane / 32) as u16;
                    if reg != s.regs.first + half && s.regs.count == 2 {
                        continue;
                    }
                    let x = read_val(sh, origins, false, reg, 0, s.bits, pc, id);
                    Val {
                        bits: x.bits >> (lane % 32) & 1,
                        ..x
                    }
                } else {
                    read_val(sh, origins, s.regs.vector, r, lane, s.bits, pc, id)
                };
                v = v.join(x);
            }
        }
        lane_in[lane] = v;
        union = union.join(v);
    }
    let first_read = read_mask.trailing_zeros() as usize & 63;
    let mut lane_bits = [Val::default(); 2];
    let mut lanes = write_mask;
    while lanes != 0 {
        let lane = lanes.trailing_zeros() as usize;
        lanes &= lanes - 1;
        let src_lane = match fl.rule {
            // A lane move reads another lane than it writes.
            _ if read_mask != write_mask && read_mask.count_ones() == 1 => first_read,
            _ => lane,
        };
        let input = if cross { union } else { lane_in[src_lane] };
        let values = if is_bitwise(fl.rule) {
            two_values(wave, op, fl, lane)
        } else {
            None
        };
        // A shift's result in the lane, read whole before any of it is
        // written (the value may be the destination).
        let shifted = if cross {
            None
        } else {
            shift_result(sh, origins, wave, op, fl, lane, pc)
        };
        for d in fl.dests() {
            for (i, r) in (d.regs.first..d.regs.first + d.regs.count).enumerate() {
                // A carry row's low dword: from the sources' low dwords in
                // the lane (read before this lane's results are written).
                let input = if fl.rule == Flow::Carry && !cross && !d.lane_bit {
                    let mut low = Val::default();
                    for s in fl.sources().iter().filter(|s| !s.lane_bit) {
                        let r = s.regs.first;
                        low = low.join(read_val(
                            sh,
                            origins,
                            s.regs.vector,
                            r,
                            src_lane,
                            s.bits,
                            pc,
                            id,
                        ));
                    }
                    carry_input(fl, d, i, input, low)
                } else {
                    input
                };
                let out = match shifted {
                    Some(out) if !d.lane_bit => out[i.min(1)],
                    _ => result(
                        sh,
                        origins,
                        fl,
                        (values, wave),
                        i,
                        (lane, src_lane),
                        input,
                        cross,
                        pc,
                    ),
                };
                if d.lane_bit {
                    // One bit per lane of a lane mask.
                    let half = lane / 32;
                    if usize::from(d.regs.count) == 2 || half == 0 {
                        let k = if d.regs.count == 2 { half } else { 0 };
                        if out.bits != 0 {
                            lane_bits[k] = lane_bits[k].join(Val {
                                bits: 1 << (lane % 32),
                                comp: true,
                                origin: out.origin,
                            });
                        }
                    }
                    continue;
                }
                if d.regs.vector {
                    let out = Val {
                        bits: out.bits & d.bits,
                        ..out
                    };
                    let kept = d.kept(sh.v(r, lane));
                    sh.set_v(r, lane, out.join(kept));
                } else {
                    // A lane read into an SGPR (`v_readlane`, `v_readfirstlane`).
                    sh.set_s(r, out);
                }
            }
        }
    }
    for d in fl.dests() {
        if d.lane_bit {
            for (k, r) in (d.regs.first..d.regs.first + d.regs.count).enumerate() {
                sh.set_s(r, lane_bits[k.min(1)]);
            }
        }
    }
}

/// True when the places `places` (bit `i`: byte `i` of a lane's data)
/// that a lane storing `bytes` bytes stores computed from undefined data
/// are the padding of a 3-element vector stored as 4 elements: all within
/// the last element (a quarter of a 4-, 8- or 16-byte store: `char3`,
/// `short3`/`half3`, `int3`/`float3`), or within the last 8 bytes of a
/// 16-byte store (the second store of a `long3`/`double3`, which LLVM
/// splits in two).
fn is_vec3_padding(bytes: u32, places: u32) -> bool {
    let within = |tail: u32| places & !(((1u32 << tail) - 1) << (bytes - tail)) == 0;
    match bytes {
        4 | 8 => within(bytes / 4),
        16 => within(8),
        _ => false,
    }
}

/// The LDS byte ranges of `log`, consecutive accesses joined (the lanes of
/// a dense access make one run).
fn lds_runs(log: &[MemAccess]) -> impl Iterator<Item = (u64, u64)> + '_ {
    let mut it = log.iter().filter(|a| a.in_lds()).peekable();
    std::iter::from_fn(move || {
        let first = it.next()?;
        let start = first.address;
        let mut end = start + first.span();
        while let Some(next) = it.peek() {
            if next.address != end {
                break;
            }
            end += next.span();
            it.next();
        }
        Some((start, end - start))
    })
}

/// Marks the bits `fill` of registers `r` defined in `lanes` (a load of
/// defined bytes).
fn define_filled(sh: &mut Shadow, r: Regs, lanes: u64, fill: u32) {
    if !r.vector {
        for reg in r.first..r.first + r.count {
            let old = sh.s(reg);
            sh.set_s(
                reg,
                Val {
                    bits: old.bits & !fill,
                    ..old
                },
            );
        }
        return;
    }
    if fill == u32::MAX {
        sh.define_lanes(r, lanes);
        return;
    }
    let mut todo = lanes & undefined_lanes_of(sh, r);
    while todo != 0 {
        let lane = todo.trailing_zeros() as usize;
        todo &= todo - 1;
        for reg in r.first..r.first + r.count {
            let old = sh.v(reg, lane);
            sh.set_v(
                reg,
                lane,
                Val {
                    bits: old.bits & !fill,
                    ..old
                },
            );
        }
    }
}

/// A computed result: wholly undefined (and computed) where `input` has
/// an undefined bit.
fn compute(input: Val) -> Val {
    Val {
        bits: if input.bits != 0 { u32::MAX } else { 0 },
        comp: input.bits != 0,
        origin: input.origin,
    }
}

/// Memcheck's approximation of an addition: every bit from the lowest
/// undefined bit of either operand (`x`, their union) up is undefined (a
/// carry moves only up).
fn left(x: u32) -> u32 {
    x | x.wrapping_neg()
}

/// A resolved operand's value and shadow (dword `k` of it, the bits of
/// `mask`) in `lane`; `None` for a source-only special (its shadow is not
/// a register's) or a missing operand.
#[allow(clippy::too_many_arguments)]
fn operand_val(
    sh: &mut Shadow,
    origins: &mut Origins,
    wave: &Wave,
    src: Src,
    k: u16,
    lane: usize,
    mask: u32,
    pc: u32,
) -> Option<(u32, Val)> {
    let id = wave.id;
    origins.value_reads += 1;
    match src {
        Src::Sgpr(c) => Some((
            wave.sgpr[usize::from(c + k) & 127],
            read_val(sh, origins, false, c + k, lane, mask, pc, id),
        )),
        Src::Vgpr(v) => Some((
            wave.vgpr.get(usize::from(v + k)).map_or(0, |r| r[lane]),
            read_val(sh, origins, true, v + k, lane, mask, pc, id),
        )),
        Src::Imm(x) => Some(((x >> (32 * u32::from(k))) as u32, Val::default())),
        Src::Special(_) | Src::None => None,
    }
}

/// The shadow of a shift row's result in `lane` (dwords 0 and 1), by its
/// row's [`gcn_asm::isa::Shift`]; `None` for every other rule, and where
/// an operand is a source-only special (the row then computes).
///
/// With the bits of the amount the hardware uses (4, 5 or 6 for a 16-,
/// 32- or 64-bit value) defined, the value's shadow moves as the value
/// does, across the register pair of a 64-bit value; an arithmetic right
/// shift fills with the shadow of the sign bit; a 16-bit result's upper
/// half (zeroed) is defined. An added operand makes every bit from the
/// lowest undefined one of either addend up undefined ([`left`]), an ORed
/// one adds its undefined bits. With any of those amount bits undefined,
/// the whole result is. Undefined result bits are computed from
/// undefined data; their origin is that of the value's dword (or the
/// amount) they come from.
fn shift_result(
    sh: &mut Shadow,
    origins: &mut Origins,
    wave: &Wave,
    op: &Op,
    fl: &FlowFacts,
    lane: usize,
    pc: u32,
) -> Option<[Val; 2]> {
    let shift = fl.rule.shift()?;
    let row = op.instr.row;
    let ty = row.operands.get(usize::from(shift.value))?.ty;
    let width: u32 = if ty.registers() == 2 {
        64
    } else if is_16bit(ty) {
        16
    } else {
        32
    };
    let width_mask = u64::MAX >> (64 - width);
    let mut read = |i: u8, k: u16, mask: u32| {
        operand_val(sh, origins, wave, op.src(usize::from(i)), k, lane, mask, pc)
    };
    // The value's shadow, dword by dword, in place.
    let value_mask = if width == 16 { 0xffff } else { u32::MAX };
    let mut parts = [(0u64, Val::default()); 2];
    for (k, part) in parts
        .iter_mut()
        .enumerate()
        .take(width.div_ceil(32) as usize)
    {
        let (_, v) = read(shift.value, k as u16, value_mask)?;
        *part = (u64::from(v.bits) << (32 * k), v);
    }
    if let ShiftWith::AddBefore(other) = shift.with {
        let (_, x) = read(other, 0, u32::MAX)?;
        let joined = parts[0].1.join(x);
        let bits = left(parts[0].0 as u32 | x.bits) & value_mask;
        parts[0] = (u64::from(bits), Val { bits, ..joined });
    }
    let (amount, amount_val) = match shift.amount {
        ShiftAmount::Fixed(n) => (u32::from(n), Val::default()),
        ShiftAmount::Operand(i) => read(i, 0, u32::MAX)?,
    };
    let used = width - 1;
    let with = match shift.with {
        ShiftWith::AddAfter(o) | ShiftWith::OrAfter(o) => Some(read(o, 0, u32::MAX)?.1),
        ShiftWith::Nothing | ShiftWith::AddBefore(_) => None,
    };
    let dword = |bits: u64, k: u32| (bits >> (32 * k)) as u32;
    if amount_val.bits & used != 0 {
        // An undefined amount: the whole result is undefined.
        let out = |k: u32| Val {
            bits: dword(width_mask, k),
            comp: dword(width_mask, k) != 0,
            origin: amount_val.origin,
        };
        return Some([out(0), out(1)]);
    }
    let n = amount & used;
    let moved = |x: u64| -> u64 {
        let out = match fl.rule {
            Flow::ShiftLeft(_) => x << n,
            Flow::ShiftRightArith(_) => {
                // Sign-extend the shadow from the value's width: the bits
                // shifted in take the sign bit's shadow.
                let s = ((x << (64 - width)) as i64) >> (64 - width);
                (s >> n) as u64
            }
            _ => x >> n,
        };
        out & width_mask
    };
    let mut out = [Val::default(); 2];
    for (k, o) in out.iter_mut().enumerate() {
        for (bits, v) in parts {
            let b = dword(moved(bits), k as u32);
            if b != 0 {
                *o = o.join(Val { bits: b, ..v });
            }
        }
        o.comp = o.bits != 0;
    }
    if let Some(x) = with {
        let joined = out[0].join(x);
        let bits = match shift.with {
            ShiftWith::AddAfter(_) => left(out[0].bits | x.bits),
            _ => out[0].bits | x.bits,
        };
        out[0] = Val {
            bits,
            comp: bits != 0,
            origin: joined.origin,
        };
    }
    Some(out)
}

/// The SCC of a scalar shift whose result's shadow is `out`: whether the
/// result is 0, undefined where a result bit is; a shift that also adds
/// sets it from the carry, which computes with everything read (`input`).
fn shift_scc(fl: &FlowFacts, out: [Val; 2], input: Val) -> Val {
    match fl.rule.shift().map(|s| s.with) {
        Some(ShiftWith::Nothing) => {
            let all = out[0].join(out[1]);
            Val {
                bits: u32::from(all.bits != 0),
                comp: all.bits != 0,
                origin: all.origin,
            }
        }
        _ => compute(input),
    }
}

/// The shadow of dword `i` of a result in `lane` by the row's [`Flow`]:
/// `input` is the union of the sources' shadows in the lane (in every
/// active lane when `cross`), `src_lane` the lane a lane move reads.
#[allow(clippy::too_many_arguments)]
fn result(
    sh: &mut Shadow,
    origins: &mut Origins,
    fl: &FlowFacts,
    (values, wave): (Option<[Src; 2]>, &Wave),
    i: usize,
    (lane, src_lane): (usize, usize),
    input: Val,
    cross: bool,
    pc: u32,
) -> Val {
    let id = wave.id;
    match fl.rule {
        Flow::Copy => match fl.sources().first() {
            Some(s) if i < usize::from(s.regs.count) && !cross => {
                let l = if s.regs.vector { src_lane } else { 0 };
                read_val(
                    sh,
                    origins,
                    s.regs.vector,
                    s.regs.first + i as u16,
                    l,
                    s.bits,
                    pc,
                    id,
                )
            }
            _ => input,
        },
        Flow::Select => input,
        Flow::And | Flow::Or | Flow::AndN2 | Flow::OrN2 | Flow::Xor if values.is_some() => {
            bitwise(sh, origins, fl, values, i, lane, pc, id, wave)
        }
        _ => compute(input),
    }
}

/// The flow of an instruction none of whose inputs is undefined (the
/// common case): every bit it writes becomes defined (partial writes keep
/// the shadow of the bits they leave) — what the per-value rules of
/// [`register_flow`] give then too. Returns false, changing nothing, when
/// an input is undefined.
#[inline(always)]
fn flow_all_defined(
    sh: &mut Shadow,
    wave: &Wave,
    fl: &FlowFacts,
    read_mask: u64,
    write_mask: u64,
) -> bool {
    if !fl.vector {
        let defined = fl.sources().iter().all(|s| {
            (s.regs.first..s.regs.first + s.regs.count).all(|r| {
                let bits = if s.regs.vector {
                    sh.v(r, 0).bits
                } else {
                    sh.s(r).bits
                };
                bits & s.bits == 0
            })
        });
        if !defined {
            return false;
        }
        for d in fl.dests() {
            for r in d.regs.first..d.regs.first + d.regs.count {
                let out = if d.keep { sh.s(r) } else { Val::default() };
                sh.set_s(r, out);
            }
        }
        return true;
    }
    let mut undefined_lanes = 0u64;
    let mut scalar_undefined = false;
    for s in fl.sources() {
        for r in s.regs.first..s.regs.first + s.regs.count {
            if s.regs.vector {
                undefined_lanes |= sh.v_lanes.get(usize::from(r)).copied().unwrap_or(0);
            } else if sh.s(r).bits != 0 {
                scalar_undefined = true;
            }
        }
    }
    let cross = fl.cross_lane;
    if undefined_lanes & (if cross { wave.exec() } else { read_mask }) == 0 && !scalar_undefined {
        for d in fl.dests() {
            if d.regs.vector {
                if !d.keep && d.bits == u32::MAX {
                    sh.define_lanes(d.regs, write_mask);
                } else {
                    // Partial writes keep the other bits' shadow.
                    let mut lanes = write_mask & undefined_lanes_of(sh, d.regs);
                    while lanes != 0 {
                        let lane = lanes.trailing_zeros() as usize;
                        lanes &= lanes - 1;
                        for r in d.regs.first..d.regs.first + d.regs.count {
                            let kept = d.kept(sh.v(r, lane));
                            sh.set_v(r, lane, kept);
                        }
                    }
                }
            } else {
                for r in d.regs.first..d.regs.first + d.regs.count {
                    let out = if d.keep { sh.s(r) } else { Val::default() };
                    sh.set_s(r, out);
                }
            }
        }
        return true;
    }
    false
}

/// What dword `i` of destination `d` depends on: for a [`Flow::Carry`]
/// row's multi-dword result, its low dword only on the sources' low dwords
/// (`low`); otherwise on everything read (`all`).
fn carry_input(fl: &FlowFacts, d: &Dest, i: usize, all: Val, low: Val) -> Val {
    if fl.rule == Flow::Carry && d.regs.count > 1 && i == 0 {
        low
    } else {
        all
    }
}

/// True for the rows whose result bits are defined bit by bit from their
/// two sources (AND, OR, their inverted-operand forms, XOR).
fn is_bitwise(rule: Flow) -> bool {
    matches!(
        rule,
        Flow::And | Flow::Or | Flow::AndN2 | Flow::OrN2 | Flow::Xor
    )
}

/// The union of the undefined lanes of a run of VGPRs.
fn undefined_lanes_of(sh: &Shadow, regs: Regs) -> u64 {
    (regs.first..regs.first + regs.count)
        .map(|v| sh.v_lanes.get(usize::from(v)).copied().unwrap_or(0))
        .fold(0, |a, b| a | b)
}

/// The two value operands of an AND/OR row: its explicit read operands,
/// or one and the implicit EXEC of `s_*_saveexec`.
fn two_values(_wave: &Wave, op: &Op, fl: &FlowFacts, _lane: usize) -> Option<[Src; 2]> {
    // SDWA with sign extension: the general rule (its selected bits).
    if !is_bitwise(fl.rule) || (op.instr.form == Form::Sdwa && fl.sdwa.is_none()) {
        return None;
    }
    let row = op.instr.row;
    let mut out = [Src::None; 2];
    let mut n = 0;
    for (i, spec) in row.operands.iter().enumerate() {
        if spec.role.reads() && !spec.role.writes() && n < 2 {
            out[n] = op.src(i);
            n += 1;
        }
    }
    if n == 1 {
        out[1] = Src::Sgpr(sreg::EXEC);
        n += 1;
    }
    (n == 2).then_some(out)
}

/// The shadow of dword `i` of an AND/OR result in `lane`, exact per bit: a
/// defined 0 (AND) or 1 (OR) in either operand defines the result bit.
#[allow(clippy::too_many_arguments)]
fn bitwise(
    sh: &mut Shadow,
    origins: &mut Origins,
    fl: &FlowFacts,
    values: Option<[Src; 2]>,
    i: usize,
    lane: usize,
    pc: u32,
    id: u32,
    wave: &Wave,
) -> Val {
    let Some(srcs) = values else {
        return Val::default();
    };
    let k = i as u16;
    origins.value_reads += 1;
    let mut operand = |s: Src| -> (u32, Val) {
        match s {
            Src::Sgpr(c) => (
                wave.sgpr[usize::from(c + k) & 127],
                read_val(sh, origins, false, c + k, lane, u32::MAX, pc, id),
            ),
            Src::Vgpr(v) => (
                wave.vgpr.get(usize::from(v + k)).map_or(0, |r| r[lane]),
                read_val(sh, origins, true, v + k, lane, u32::MAX, pc, id),
            ),
            Src::Imm(x) => ((x >> (32 * u32::from(k))) as u32, Val::default()),
            Src::Special(c) => (wave.special(c) as u32, Val::default()),
            Src::None => (0, Val::default()),
        }
    };
    let (mut va, mut a) = operand(srcs[0]);
    let (mut vb, mut b) = operand(srcs[1]);
    // SDWA: the selected byte or word of each source (value and shadow
    // alike), moved down; the result placed at the destination's.
    let select = |v: u32, sel: u8| match sel {
        0..=3 => (v >> (8 * sel)) & 0xff,
        4 | 5 => (v >> (16 * (sel - 4))) & 0xffff,
        _ => v,
    };
    if let Some((s0, s1, _)) = fl.sdwa {
        (va, a.bits) = (select(va, s0), select(a.bits, s0));
        (vb, b.bits) = (select(vb, s1), select(b.bits, s1));
    }
    let (ua, ub) = (a.bits, b.bits);
    // ANDN2/ORN2 are AND/OR of the inverted second source.
    let vb = if matches!(fl.rule, Flow::AndN2 | Flow::OrN2) {
        !vb
    } else {
        vb
    };
    let bits = if fl.rule == Flow::Xor {
        ua | ub
    } else if matches!(fl.rule, Flow::And | Flow::AndN2) {
        (ua & ub) | (ua & !ub & vb) | (ub & !ua & va)
    } else {
        (ua & ub) | (ua & !ub & !vb) | (ub & !ua & !va)
    };
    let bits = match fl.sdwa {
        // Unused destination bits are padded with defined zeros (or kept:
        // the destination's own bits say which it writes).
        Some((_, _, dst)) => match dst {
            0..=3 => (bits & 0xff) << (8 * dst),
            4 | 5 => (bits & 0xffff) << (16 * (dst - 4)),
            _ => bits,
        },
        None => bits,
    };
    let joined = a.join(b);
    Val {
        bits,
        comp: bits != 0,
        origin: joined.origin,
    }
}

#[cfg(test)]
mod fast_flow_tests {
    use super::*;
    use crate::exec::predecode;
    use crate::exec::testing::Rng;
    use gcn_asm::{assemble, AssembleOptions};

    /// Shadow bits: mostly defined, sometimes wholly or partly undefined.
    fn bits(rng: &mut Rng) -> u32 {
        match rng.next() % 8 {
            0 => u32::MAX,
            1 => rng.word(),
            _ => 0,
        }
    }

    /// Undefined lanes: mostly none, sometimes all or some.
    fn lanes(rng: &mut Rng) -> u64 {
        match rng.next() % 8 {
            0 => u64::MAX,
            1 => rng.next() & rng.next(),
            _ => 0,
        }
    }

    fn same(a: &Shadow, b: &Shadow) -> bool {
        a.s_bits == b.s_bits && a.s_comp == b.s_comp && a.v_lanes == b.v_lanes
    }

    /// A reset shadow is the shadow `new` makes, whatever the wave wrote:
    /// the reset restores only the scalar entries written since the last
    /// one ([`Shadow::s_dirty`]) and the per-lane tables only when set.
    #[test]
    fn reset_gives_a_new_shadow() {
        let mut rng = Rng(0x05ee_d0f5_ead0);
        for abi in [0u16, 2, 4, 16, 106] {
            let fresh = Shadow::new(12, abi, 3);
            let mut sh = Shadow::new(12, abi, 3);
            for round in 0..20 {
                for _ in 0..(rng.next() % 40) {
                    let code = (rng.next() % 256) as u16;
                    let val = Val {
                        bits: bits(&mut rng),
                        comp: rng.next().is_multiple_of(3),
                        origin: (rng.next() % 4) as u32,
                    };
                    sh.set_s(code, val);
                    let v = (rng.next() % 12) as u16;
                    let lane = (rng.next() % 64) as usize;
                    sh.set_v(v, lane, val);
                }
                let lists = Lists {
                    exec_vgprs: &[],
                    lane0_vgprs: &[],
                    sgprs: &[],
                    def_vgprs: &[1, 5],
                    def_sgprs: &[(rng.next() % 256) as u16, sreg::VCC],
                };
                lists.apply(&mut sh, rng.next());
                // Every third reset is for another ABI (a thread's next
                // dispatch reuses the storage).
                let (abi, fresh) = if round % 3 == 2 {
                    let other = (abi + 5) % 120;
                    (other, Shadow::new(12, other, 3))
                } else {
                    (abi, fresh.clone())
                };
                sh.reset(12, abi, 3);
                assert!(same(&sh, &fresh), "abi {abi}, round {round}");
                assert!(sh.s_origin == fresh.s_origin, "abi {abi}, round {round}");
                assert_eq!(sh.v_comp, fresh.v_comp);
                assert!(sh.v_bits.iter().all(Option::is_none));
                assert!(sh.v_origin.iter().all(Option::is_none));
            }
        }
    }

    /// The hook's compiled common case ([`FastFlow`]) against the rule it
    /// compiles (the sinks' and store data's EXEC-lane tests, then
    /// [`flow_all_defined`]), on every instruction of the compiled OpenCL
    /// fixtures and random shadows: whenever the lists say "all defined",
    /// the rule says so too and both leave the same shadow; where the
    /// lists cannot express an instruction, or are stricter, the hook
    /// takes the general path. Most instructions must be expressible.
    #[test]
    fn fast_flow_agrees_with_the_rule_on_compiled_code() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/opencl/gen");
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut ops_seen, mut usable, mut agreed) = (0usize, 0usize, 0usize);
        for (gpu, version) in [
            ("tahiti", GcnVersion::Gcn1_0),
            ("bonaire", GcnVersion::Gcn1_1),
            ("tonga", GcnVersion::Gcn1_2),
            ("gfx900", GcnVersion::Gcn1_4),
        ] {
            let mut paths: Vec<_> = std::fs::read_dir(format!("{dir}/{gpu}"))
                .expect("fixture sources")
                .map(|e| e.expect("entry").path())
                .filter(|p| p.extension().is_some_and(|x| x == "s"))
                .collect();
            paths.sort();
            for path in paths {
                let source = std::fs::read_to_string(&path).expect("source");
                let assembly = assemble(&source, &AssembleOptions::default())
                    .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
                let words = gcn_asm::decode::words_from_bytes(assembly.text());
                let decoded = predecode(&words, version);
                for op in decoded.ops() {
                    let f = Facts::of(op, version);
                    ops_seen += 1;
                    if !f.fast_flow.usable {
                        continue;
                    }
                    usable += 1;
                    let fl = &f.flow;
                    for _ in 0..4 {
                        let mut sh = Shadow::new(256, 0, 0);
                        for b in sh.s_bits.iter_mut().take(128) {
                            *b = bits(&mut rng);
                        }
                        sh.s_bits[usize::from(sreg::SCC)] = bits(&mut rng) & 1;
                        for l in sh.v_lanes.iter_mut() {
                            *l = lanes(&mut rng);
                        }
                        let mut wave = Wave::new(256, 104);
                        let exec = if rng.next().is_multiple_of(4) {
                            rng.next()
                        } else {
                            u64::MAX
                        };
                        wave.set_exec(exec);
                        sh.s_bits[usize::from(sreg::EXEC)] = 0;
                        sh.s_bits[usize::from(sreg::EXEC) + 1] = 0;
                        let mut rule = sh.clone();
                        let store = matches!(fl.memory, MemKind::Store | MemKind::Atomic { .. });
                        let data_lanes = if fl.vector { exec } else { 1 };
                        let rule_ok = !fl.sinks().iter().any(|&(r, _)| rule.any_undefined(r, exec))
                            && (!store
                                || !fl.data().iter().any(|&d| rule.any_undefined(d, data_lanes)))
                            && flow_all_defined(&mut rule, &wave, fl, exec, exec);
                        let before = sh.clone();
                        if f.fast_flow.apply(&mut sh, exec) {
                            assert!(
                                rule_ok,
                                "{}: `{}`: lists say defined, the rule does not",
                                path.display(),
                                op.instr
                            );
                            assert!(
                                same(&sh, &rule),
                                "{}: `{}`: shadows differ",
                                path.display(),
                                op.instr
                            );
                            agreed += 1;
                        } else {
                            assert!(
                                same(&sh, &before),
                                "{}: `{}`: a failed test changed the shadow",
                                path.display(),
                                op.instr
                            );
                        }
                    }
                }
            }
        }
        assert!(agreed > 20_000, "{agreed} agreements");
        assert!(
            usable * 100 >= ops_seen * 95,
            "{usable} of {ops_seen} instructions expressible"
        );
    }
}
