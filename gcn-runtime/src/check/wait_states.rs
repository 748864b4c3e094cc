//! [`super::Check::WaitStates`]: the wait states (independent instructions
//! or `s_nop`s) the hardware requires between dependent instructions, one
//! [`Rule`] per row of [`RULES`], per generation, with its source.
//!
//! Wait states are counted along the executed path: every instruction
//! provides one, `s_nop N` provides N+1 (CLRX GcnInstrsSopp.md: "Do
//! nothing by (SIMM16&7) + 1 cycles"); the number between a producer and a
//! consumer is what the instructions strictly between them provide.
//!
//! GCN 1.5 (gfx1010–gfx1012; RDNA 2 fixed them) adds hardware bugs that no
//! number of wait states fixes: a hazard lasts until an instruction of some
//! kind ends it (LLVM 15's `GCNHazardRecognizer::fixHazards` walks back
//! for one and inserts its fix when there is none). Each instruction's
//! roles in them come from its row and operands (`gfx10_roles`), the
//! state of a wave is a `Gfx10State`; the rules' sources name LLVM's
//! functions.

use gcn_asm::decode::{Location, MemFlags, Operand};
use gcn_asm::isa::{flags, Counter, Encoding, Field};

use super::facts::{Facts, Regs, Unit};
use super::{Check, GroupCheck};
use crate::exec::{sreg, Op, Wave};

/// A producer → consumer dependency that needs wait states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hazard {
    /// VALU writes an SGPR → SMRD reads it.
    ValuSgprSmrd,
    /// VALU writes an SGPR → VMEM reads it.
    ValuSgprVmem,
    /// VALU writes VCC → `v_div_fmas` (reads VCC implicitly).
    ValuVccDivFmas,
    /// VALU writes an SGPR → `v_readlane`/`v_writelane` uses it as the
    /// lane select.
    ValuSgprLaneSelect,
    /// VALU writes VCC or EXEC → VALU reads VCCZ/EXECZ as data.
    ValuVccExecZ,
    /// `s_setreg` → `s_getreg` of the same hardware register.
    SetregGetreg,
    /// `s_setreg` → `s_setreg` of the same hardware register.
    SetregSetreg,
    /// VALU writes a VGPR → a DPP instruction reads it.
    ValuVgprDpp,
    /// VALU writes EXEC → a DPP instruction.
    ValuExecDpp,
    /// VMEM store of more than 8 bytes → VALU writes its data VGPRs.
    WideStoreData,
    /// SALU writes M0 → `s_sendmsg`/`s_ttracedata`/GDS.
    SaluM0Msg,
    /// SALU writes M0 → `s_movrel`, LDS DMA, `lds_direct`, `ds_*_addtid`.
    SaluM0Rel,
    /// `s_setreg` of TRAPSTS → `s_rfe`.
    SetregTrapstsRfe,
    /// Any write of word 2 of a buffer descriptor → `s_buffer_*` reading it.
    DescriptorWord2SBuffer,
    /// gfx1010: VMEM, DS or FLAT reads an SGPR (EXEC included: they use it
    /// as their lane mask) → SALU or SMEM writes it as an explicit
    /// destination (`s_mov_b32 exec_lo, s4`, not the EXEC of
    /// `s_and_saveexec_b32`), with no VALU, `s_waitcnt 0` or
    /// `s_waitcnt_depctr 0xffe3` between.
    VmemSgprScalarWrite,
    /// gfx1010: SMEM reads an SGPR → VALU writes it, with no SALU with
    /// register operands (not SOPP, `s_version` or the vm/vs/exp waits),
    /// `s_waitcnt lgkmcnt(0)` or `s_waitcnt_lgkmcnt null, 0` between.
    SmemSgprValuWrite,
    /// gfx1010: a VOPC instruction → `v_permlane*`, with no VALU other than
    /// `v_nop` between.
    VopcPermlane,
    /// gfx1010: a non-VALU instruction reads EXEC (VMEM and DS use it) → a
    /// VALU writes EXEC (`v_cmpx`), with no VALU writing an SGPR or
    /// `s_waitcnt_depctr 0xfffe` between.
    ExecReadVcmpx,
    /// gfx1010: LDS (DS) then VMEM, or VMEM then LDS, with a branch between
    /// and no other memory instruction or `s_waitcnt_vscnt null, 0`.
    LdsBranchVmem,
    /// gfx1010: a MIMG NSA instruction of 16 bytes or more → MUBUF/MTBUF
    /// whose `offset` has bit 1 or 2 set.
    NsaVmem,
}

/// One rule: the hazard, the wait states per version (GCN 1.0, 1.1, 1.2,
/// 1.4, 1.5, RDNA 2; 0: the rule does not apply) and where it is
/// documented. The gfx1010 hazards that last until an instruction of some
/// kind ends them (LLVM's `fixHazards`: [`Hazard::VmemSgprScalarWrite`]
/// …, all but [`Hazard::NsaVmem`]) count no wait states: their 1 says the
/// rule applies, and the hazard's documentation what ends it (the fix LLVM
/// inserts among them).
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// The dependency.
    pub hazard: Hazard,
    /// Wait states required on GCN 1.0, 1.1, 1.2, 1.4 (1.4.1 as 1.4), 1.5
    /// (1.5.1 as 1.5) and RDNA 2: the opcode columns of the ISA table.
    pub states: [u8; 6],
    /// Where the rule comes from.
    pub source: &'static str,
}

/// The wait-state rules of GCN 1.0–1.4. LLVM means LLVM 14's
/// `GCNHazardRecognizer`; the AMD manuals' tables ("Manually Inserted Wait
/// States") agree with it; CLRX's GcnInstrsSmrd.md/GcnInstrsSmem.md add the
/// descriptor rule.
pub const RULES: &[Rule] = &[
    Rule {
        hazard: Hazard::ValuSgprSmrd,
        states: [4, 0, 0, 0, 0, 0],
        source: "LLVM checkSMRDHazards (SmrdSgprWaitStates, SI only)",
    },
    Rule {
        hazard: Hazard::ValuSgprVmem,
        states: [0, 0, 5, 5, 0, 0],
        source: "LLVM checkVMEMHazards (VmemSgprWaitStates, VI+); GCN3 ISA 4.5",
    },
    Rule {
        hazard: Hazard::ValuVccDivFmas,
        states: [4, 4, 4, 4, 0, 0],
        source: "LLVM checkDivFMasHazards (DivFMasWaitStates); GCN3 ISA 4.5",
    },
    Rule {
        hazard: Hazard::ValuSgprLaneSelect,
        states: [4, 4, 4, 4, 0, 0],
        source: "LLVM checkRWLaneHazards (RWLaneWaitStates); GCN3 ISA 4.5",
    },
    Rule {
        hazard: Hazard::ValuVccExecZ,
        states: [0, 0, 5, 5, 0, 0],
        source: "GCN3/Vega ISA 4.5: VALU sets VCC or EXEC → VALU uses EXECZ/VCCZ as data: 5",
    },
    Rule {
        hazard: Hazard::SetregGetreg,
        states: [2, 2, 2, 2, 0, 0],
        source: "LLVM checkGetRegHazards (GetRegWaitStates); GCN3 ISA 4.5",
    },
    Rule {
        hazard: Hazard::SetregSetreg,
        states: [1, 1, 2, 2, 0, 0],
        source: "LLVM checkSetRegHazards (getSetRegWaitStates: 1 up to CI, 2 from VI)",
    },
    Rule {
        hazard: Hazard::ValuVgprDpp,
        states: [0, 0, 2, 2, 0, 0],
        source: "LLVM checkDPPHazards (DppVgprWaitStates); GCN3 ISA 4.5",
    },
    Rule {
        hazard: Hazard::ValuExecDpp,
        states: [0, 0, 5, 5, 0, 0],
        source: "LLVM checkDPPHazards (DppExecWaitStates); GCN3 ISA 4.5",
    },
    Rule {
        hazard: Hazard::WideStoreData,
        states: [0, 1, 1, 1, 0, 0],
        source: "LLVM checkVALUHazards/createsVALUHazard (has12DWordStoreHazard: not SI)",
    },
    Rule {
        hazard: Hazard::SaluM0Msg,
        states: [0, 0, 1, 1, 0, 0],
        source: "LLVM checkReadM0Hazards (hasReadM0SendMsgHazard: VI, GFX9)",
    },
    Rule {
        hazard: Hazard::SaluM0Rel,
        states: [0, 0, 0, 1, 0, 0],
        source: "LLVM checkReadM0Hazards (hasReadM0MovRelInterpHazard: GFX9)",
    },
    Rule {
        hazard: Hazard::SetregTrapstsRfe,
        states: [0, 0, 1, 1, 0, 0],
        source: "LLVM checkRFEHazards (hasRFEHazards: VI+)",
    },
    Rule {
        hazard: Hazard::DescriptorWord2SBuffer,
        states: [1, 1, 1, 1, 0, 0],
        source: "CLRX GcnInstrsSmrd.md/GcnInstrsSmem.md: one instruction between setting the third dword of a buffer resource and S_BUFFER_*",
    },
    // The gfx1010 bugs (LLVM 15 AMDGPU.td FeatureGroup GFX10_1_Bugs: gfx1010,
    // gfx1011, gfx1012; not gfx1030).
    Rule {
        hazard: Hazard::VmemSgprScalarWrite,
        states: [0, 0, 0, 0, 1, 0],
        source: "LLVM 15 GCNHazardRecognizer::fixVMEMtoScalarWriteHazards (hasVMEMtoScalarWriteHazard): inserts s_waitcnt_depctr 0xffe3",
    },
    Rule {
        hazard: Hazard::SmemSgprValuWrite,
        states: [0, 0, 0, 0, 1, 0],
        source: "LLVM 15 GCNHazardRecognizer::fixSMEMtoVectorWriteHazards (hasSMEMtoVectorWriteHazard): inserts s_mov_b32 null, 0",
    },
    Rule {
        hazard: Hazard::VopcPermlane,
        states: [0, 0, 0, 0, 1, 0],
        source: "LLVM 15 GCNHazardRecognizer::fixVcmpxPermlaneHazards (hasVcmpxPermlaneHazard): inserts v_mov_b32 of the permlane's src0",
    },
    Rule {
        hazard: Hazard::ExecReadVcmpx,
        states: [0, 0, 0, 0, 1, 0],
        source: "LLVM 15 GCNHazardRecognizer::fixVcmpxExecWARHazard (hasVcmpxExecWARHazard): inserts s_waitcnt_depctr 0xfffe",
    },
    Rule {
        hazard: Hazard::LdsBranchVmem,
        states: [0, 0, 0, 0, 1, 0],
        source: "LLVM 15 GCNHazardRecognizer::fixLdsBranchVmemWARHazard (hasLdsBranchVmemWARHazard): inserts s_waitcnt_vscnt null, 0",
    },
    Rule {
        hazard: Hazard::NsaVmem,
        states: [0, 0, 0, 0, 1, 0],
        source: "LLVM 15 GCNHazardRecognizer::checkNSAtoVMEMHazard (hasNSAtoVMEMBug: NSAtoVMEMWaitStates 1)",
    },
];

/// When (issue clock + 1; 0: never) and where (PC) a register was last
/// written.
type Stamp = (u64, u32);

/// The HW_REG id of TRAPSTS.
const HW_REG_TRAPSTS: usize = 3;

/// The wait-state history of one wave.
pub(crate) struct History {
    clock: u64,
    valu_sgpr: [Stamp; 128],
    salu_sgpr: [Stamp; 128],
    valu_vgpr: Vec<Stamp>,
    setreg: [Stamp; 64],
    wide_store: (Stamp, Regs),
    /// The state of the gfx1010 hazards.
    g10: Gfx10State,
    /// Per table ([`VALU_SGPR`] …): the clock of its newest stamp, an
    /// upper bound of every clock [`producer`] can return for a rule
    /// looking at it, so that a rule whose producers are all older than its
    /// wait states needs no look at the registers.
    newest: [u64; TABLES],
}

/// [`History::newest`] of `valu_sgpr`.
const VALU_SGPR: usize = 0;
/// [`History::newest`] of `salu_sgpr`.
const SALU_SGPR: usize = 1;
/// [`History::newest`] of `valu_vgpr`.
const VALU_VGPR: usize = 2;
/// [`History::newest`] of `setreg`.
const SETREG: usize = 3;
/// [`History::newest`] of `wide_store`.
const WIDE_STORE: usize = 4;
/// [`History::newest`] of `valu_sgpr` and `salu_sgpr` together.
const ANY_SGPR: usize = 5;
/// [`History::newest`] of the gfx1010 hazards (never set: they are
/// checked by [`gfx10`], not by wait states).
const GFX10: usize = 6;
/// Entries of [`History::newest`].
const TABLES: usize = 7;

/// The [`History::newest`] entry bounding the producers of `h`.
const fn table(h: Hazard) -> usize {
    match h {
        Hazard::ValuSgprSmrd
        | Hazard::ValuSgprVmem
        | Hazard::ValuVccDivFmas
        | Hazard::ValuSgprLaneSelect
        | Hazard::ValuVccExecZ
        | Hazard::ValuExecDpp => VALU_SGPR,
        Hazard::SetregGetreg | Hazard::SetregSetreg | Hazard::SetregTrapstsRfe => SETREG,
        Hazard::ValuVgprDpp => VALU_VGPR,
        Hazard::WideStoreData => WIDE_STORE,
        Hazard::SaluM0Msg | Hazard::SaluM0Rel => SALU_SGPR,
        Hazard::DescriptorWord2SBuffer => ANY_SGPR,
        Hazard::VmemSgprScalarWrite
        | Hazard::SmemSgprValuWrite
        | Hazard::VopcPermlane
        | Hazard::ExecReadVcmpx
        | Hazard::LdsBranchVmem
        | Hazard::NsaVmem => GFX10,
    }
}

/// [`table`] of each rule (bit i of a consumer mask: entry i), and of the
/// bits past the rules (never set) a harmless one.
const RULE_TABLES: [usize; 32] = {
    let mut t = [0; 32];
    let mut i = 0;
    while i < RULES.len() {
        t[i] = table(RULES[i].hazard);
        i += 1;
    }
    t
};

impl History {
    pub(crate) fn new(vgprs: usize) -> Self {
        History {
            clock: 0,
            valu_sgpr: [(0, 0); 128],
            salu_sgpr: [(0, 0); 128],
            valu_vgpr: vec![(0, 0); vgprs],
            setreg: [(0, 0); 64],
            wide_store: ((0, 0), Regs::v(0, 0)),
            g10: Gfx10State::default(),
            newest: [0; TABLES],
        }
    }

    /// The history of a wave that starts now, in this one's storage (a
    /// work-group's check state is reused by the next group its host
    /// thread runs): for every rule the same as [`History::new`]'s.
    ///
    /// The tables are not cleared (6 KiB a wave, more than the rest of a
    /// short wave's checks): the clock jumps past the reach of every stamp
    /// in them instead. A stamp more than [`MAX_STATES`] behind the clock
    /// can break no rule ([`may_break`] and [`check_rules`] compare the
    /// distance with the rule's wait states), just as a 0 stamp ("never")
    /// of a new history cannot. The gfx1010 state is cleared: its hazards
    /// last until an instruction ends them, not for a number of states.
    pub(crate) fn reset(&mut self, vgprs: usize) {
        // Every stamp is at most `clock + 1` (`record`).
        self.clock += 1 + MAX_STATES;
        // (Entries kept hold stale stamps; new ones are "never".)
        self.valu_vgpr.resize(vgprs, (0, 0));
        self.g10.reset();
    }
}

impl History {
    /// The wait-state clock (what [`History::since`] takes).
    pub(crate) fn clock(&self) -> u64 {
        self.clock
    }

    /// Counts `states` wait states of instructions that record nothing.
    pub(crate) fn tick(&mut self, states: u64) {
        self.clock += states;
    }

    /// What the instructions since the clock was `start` changed, relative
    /// to the clock ([`HistoryDelta::apply`] replays it on another wave's
    /// history). Every stamp written since is above `start`; every older
    /// one is at most `start` (a reset moves the clock past them).
    pub(crate) fn since(&self, start: u64) -> HistoryDelta {
        let mut stamps = Vec::new();
        let tables: [&[Stamp]; 4] = [
            &self.valu_sgpr,
            &self.salu_sgpr,
            &self.valu_vgpr,
            &self.setreg,
        ];
        for (t, table) in tables.into_iter().enumerate() {
            for (i, &(clock, pc)) in table.iter().enumerate() {
                if clock > start {
                    stamps.push((t as u8, i as u16, clock - start, pc));
                }
            }
        }
        let relative = |clock: u64| (clock > start).then(|| clock - start);
        let g = &self.g10;
        let g10 = (g.vmem_reads != 0
            || g.smem_reads != 0
            || g.vopc.is_some()
            || g.exec_read.is_some()
            || g.last_mem.is_some()
            || g.branch_since
            || g.nsa.0 != 0)
            .then(|| {
                let mut g10 = g.clone();
                g10.nsa.0 = g10.nsa.0.saturating_sub(start);
                Box::new(g10)
            });
        HistoryDelta {
            advance: self.clock - start,
            stamps,
            wide_store: relative(self.wide_store.0 .0)
                .map(|c| ((c, self.wide_store.0 .1), self.wide_store.1)),
            newest: self.newest.map(relative),
            g10,
        }
    }
}

/// The change a run of instructions made to a wave's history, with clocks
/// relative to the run's start ([`History::since`]).
pub(crate) struct HistoryDelta {
    /// How far the clock moved.
    advance: u64,
    /// (table: `valu_sgpr`, `salu_sgpr`, `valu_vgpr`, `setreg`; index;
    /// clock; PC) of each stamp written.
    stamps: Vec<(u8, u16, u64, u32)>,
    wide_store: Option<(Stamp, Regs)>,
    newest: [Option<u64>; TABLES],
    /// The gfx1010 state after the run (`nsa` relative), which starts
    /// from its reset state (`None`: still in it).
    g10: Option<Box<Gfx10State>>,
}

impl HistoryDelta {
    /// Replays the change on `h`, a history in the state the run started
    /// from (its stamps older than its clock by more than any rule's
    /// wait states, and the gfx1010 state reset), at `h`'s own clock.
    pub(crate) fn apply(&self, h: &mut History) {
        let base = h.clock;
        for &(t, i, clock, pc) in &self.stamps {
            let table: &mut [Stamp] = match t {
                0 => &mut h.valu_sgpr,
                1 => &mut h.salu_sgpr,
                2 => &mut h.valu_vgpr,
                _ => &mut h.setreg,
            };
            if let Some(entry) = table.get_mut(usize::from(i)) {
                *entry = (base + clock, pc);
            }
        }
        if let Some(((clock, pc), regs)) = self.wide_store {
            h.wide_store = ((base + clock, pc), regs);
        }
        for (newest, delta) in h.newest.iter_mut().zip(self.newest) {
            if let Some(clock) = delta {
                *newest = base + clock;
            }
        }
        if let Some(g10) = &self.g10 {
            h.g10.clone_from(g10);
            if h.g10.nsa.0 != 0 {
                h.g10.nsa.0 += base;
            }
        }
        h.clock = base + self.advance;
    }
}

/// The most wait states a rule needs, on any generation.
const MAX_STATES: u64 = {
    let mut max = 0;
    let mut i = 0;
    while i < RULES.len() {
        let mut c = 0;
        while c < RULES[i].states.len() {
            if RULES[i].states[c] as u64 > max {
                max = RULES[i].states[c] as u64;
            }
            c += 1;
        }
        i += 1;
    }
    max
};

/// The most recent of `stamps`.
fn latest(stamps: impl Iterator<Item = Stamp>) -> Stamp {
    stamps.max_by_key(|s| s.0).unwrap_or((0, 0))
}

fn scalar(table: &[Stamp; 128], r: &Regs) -> Stamp {
    latest((r.first..(r.first + r.count).min(128)).map(|c| table[usize::from(c)]))
}

fn name(h: Hazard) -> &'static str {
    match h {
        Hazard::ValuSgprSmrd => "a VALU write of an SGPR and an SMRD reading it",
        Hazard::ValuSgprVmem => "a VALU write of an SGPR and a VMEM instruction reading it",
        Hazard::ValuVccDivFmas => "a VALU write of VCC and v_div_fmas",
        Hazard::ValuSgprLaneSelect => {
            "a VALU write of an SGPR and v_readlane/v_writelane using it as the lane select"
        }
        Hazard::ValuVccExecZ => "a VALU write of VCC/EXEC and a VALU reading VCCZ/EXECZ",
        Hazard::SetregGetreg => "s_setreg and s_getreg of the same register",
        Hazard::SetregSetreg => "two s_setreg of the same register",
        Hazard::ValuVgprDpp => "a VALU write of a VGPR and a DPP instruction reading it",
        Hazard::ValuExecDpp => "a VALU write of EXEC and a DPP instruction",
        Hazard::WideStoreData => {
            "a VMEM store of more than 8 bytes and a VALU write of its data VGPRs"
        }
        Hazard::SaluM0Msg => "an SALU write of M0 and s_sendmsg/GDS",
        Hazard::SaluM0Rel => "an SALU write of M0 and s_movrel/LDS DMA/lds_direct",
        Hazard::SetregTrapstsRfe => "s_setreg of TRAPSTS and s_rfe",
        Hazard::DescriptorWord2SBuffer => {
            "a write of a buffer descriptor's third dword and s_buffer_* using it"
        }
        Hazard::VmemSgprScalarWrite => {
            "a VMEM/DS/FLAT read of an SGPR and an SALU/SMEM write of it: needs a VALU, \
             s_waitcnt 0 or s_waitcnt_depctr 0xffe3 between"
        }
        Hazard::SmemSgprValuWrite => {
            "an SMEM read of an SGPR and a VALU write of it: needs an SALU (s_mov_b32 null, 0) \
             or s_waitcnt lgkmcnt(0) between"
        }
        Hazard::VopcPermlane => {
            "a VOPC instruction and v_permlane*: needs a VALU other than v_nop between"
        }
        Hazard::ExecReadVcmpx => {
            "a non-VALU read of EXEC and a VALU write of it: needs a VALU writing an SGPR or \
             s_waitcnt_depctr 0xfffe between"
        }
        Hazard::LdsBranchVmem => {
            "an LDS and a VMEM access (either order) with a branch between: needs \
             s_waitcnt_vscnt null, 0 between"
        }
        Hazard::NsaVmem => {
            "a MIMG NSA instruction of 16 bytes or more and a MUBUF/MTBUF with offset bits 1-2 set"
        }
    }
}

/// The producer stamp a rule looks at for the instruction `f`, if `f` is
/// the rule's consumer.
fn producer(h: Hazard, hist: &History, f: &Facts) -> Option<Stamp> {
    let scalar_reads = || f.reads().iter().filter(|r| !r.vector);
    Some(match h {
        // (An instruction reading no SGPR is no consumer of these.)
        Hazard::ValuSgprSmrd if f.unit == Unit::Smem && scalar_reads().next().is_some() => {
            latest(scalar_reads().map(|r| scalar(&hist.valu_sgpr, r)))
        }
        Hazard::ValuSgprVmem if f.unit == Unit::Vmem && scalar_reads().next().is_some() => {
            latest(scalar_reads().map(|r| scalar(&hist.valu_sgpr, r)))
        }
        Hazard::ValuVccDivFmas if f.div_fmas => scalar(&hist.valu_sgpr, &Regs::s(sreg::VCC, 2)),
        Hazard::ValuSgprLaneSelect => match f.lane_select {
            Some(r) if !r.vector => scalar(&hist.valu_sgpr, &r),
            _ => return None,
        },
        Hazard::ValuVccExecZ if f.reads_z && f.unit == Unit::Valu => latest(
            [sreg::VCC, sreg::EXEC]
                .into_iter()
                .map(|c| scalar(&hist.valu_sgpr, &Regs::s(c, 2))),
        ),
        Hazard::SetregGetreg => hist.setreg[usize::from(f.getreg?)],
        Hazard::SetregSetreg => hist.setreg[usize::from(f.setreg?)],
        Hazard::ValuVgprDpp if f.dpp => {
            latest(f.reads().iter().filter(|r| r.vector).flat_map(|r| {
                (r.first..r.first + r.count)
                    .filter_map(|v| hist.valu_vgpr.get(usize::from(v)).copied())
            }))
        }
        Hazard::ValuExecDpp if f.dpp => scalar(&hist.valu_sgpr, &Regs::s(sreg::EXEC, 2)),
        Hazard::WideStoreData if f.unit == Unit::Valu => {
            let (stamp, data) = hist.wide_store;
            if f.writes().iter().any(|w| w.overlap(&data).is_some()) {
                stamp
            } else {
                return None;
            }
        }
        Hazard::SaluM0Msg if f.m0_msg => hist.salu_sgpr[usize::from(sreg::M0)],
        Hazard::SaluM0Rel if f.m0_rel => hist.salu_sgpr[usize::from(sreg::M0)],
        Hazard::SetregTrapstsRfe if f.rfe => hist.setreg[HW_REG_TRAPSTS],
        Hazard::DescriptorWord2SBuffer => {
            let c = usize::from(f.buffer_word2?).min(127);
            latest([hist.salu_sgpr[c], hist.valu_sgpr[c]].into_iter())
        }
        _ => return None,
    })
}

/// The rules (bit i: `RULES[i]`) that apply on `version` and whose
/// consumer `f` is; computed once per instruction at launch so that the
/// check skips the others.
pub(crate) fn consumer_mask(f: &Facts, version: gcn_asm::GcnVersion) -> u32 {
    let empty = History::new(0);
    let column = version.opcode_column();
    let mut mask = 0u32;
    for (i, rule) in RULES.iter().enumerate() {
        let consumer = match rule.hazard {
            // Its producer test needs the history's store registers.
            Hazard::WideStoreData => f.unit == Unit::Valu && f.writes().iter().any(|w| w.vector),
            h => producer(h, &empty, f).is_some(),
        };
        if consumer && rule.states[column] > 0 {
            mask |= 1 << i;
        }
    }
    mask
}

/// True when [`record`] changes the history of a wave (more than its
/// clock) for the instruction `f`; computed once per instruction at launch
/// so that the check passes the others by.
pub(crate) fn records(f: &Facts) -> bool {
    records_read(f, &[true; TABLES])
}

/// [`records`] counting only writes to the tables of `read` (by
/// [`History::newest`] index).
fn records_read(f: &Facts, read: &[bool; TABLES]) -> bool {
    (0..TABLES).any(|t| records_into(f, t, read))
}

/// True when [`record`] writes history table `t` for `f`, if `read[t]`.
fn records_into(f: &Facts, t: usize, read: &[bool; TABLES]) -> bool {
    let writes = |vector: bool| f.writes().iter().any(|r| r.vector == vector);
    read[t]
        && match (f.unit, t) {
            (Unit::Valu, VALU_VGPR) => writes(true),
            (Unit::Valu, VALU_SGPR) => writes(false),
            (Unit::Salu, SALU_SGPR) => writes(false),
            (Unit::Salu, SETREG) => f.setreg.is_some(),
            (Unit::Vmem, WIDE_STORE) => f.wide_store && f.store_data.is_some(),
            _ => false,
        }
}

/// Narrows each instruction's rules and records to what the program can
/// break:
/// - [`Facts::hazards`] to the rules whose producers the program has: a
///   rule whose history table no instruction of the program records into
///   (e.g. the wide-store rule, which every VALU instruction writing a VGPR
///   is a consumer of, in a program without a store of more than 64 bits)
///   finds no producer, so its consumers need no look at the history;
/// - then [`Facts::records`] to what the remaining consumers read: a table
///   no instruction is a consumer of (e.g. the VALU VGPR writes when no DPP
///   instruction reads them) is never looked at, so writes only to it need
///   not be recorded.
///
/// Exact: [`check_rules`] reads a table only for a rule in the consuming
/// instruction's [`Facts::hazards`], and a table's entries are written only
/// by [`record`] (those a history kept from an earlier work-group of the
/// same program holds are past every rule's reach, [`History::reset`]).
pub(crate) fn narrow_records(facts: &mut [Facts]) {
    let mut produced = [false; TABLES];
    let every = [true; TABLES];
    for f in facts.iter() {
        for (t, p) in produced.iter_mut().enumerate() {
            *p |= records_into(f, t, &every);
        }
    }
    produced[ANY_SGPR] = produced[VALU_SGPR] || produced[SALU_SGPR];
    let mut breakable = 0u32;
    for (i, &t) in RULE_TABLES.iter().enumerate().take(RULES.len()) {
        if produced[t] {
            breakable |= 1 << i;
        }
    }
    for f in facts.iter_mut() {
        f.hazards &= breakable;
    }
    let consumed = facts.iter().fold(0u32, |m, f| m | f.hazards);
    let mut read = [false; TABLES];
    for (i, &t) in RULE_TABLES.iter().enumerate().take(RULES.len()) {
        if consumed >> i & 1 != 0 {
            read[t] = true;
        }
    }
    if read[ANY_SGPR] {
        read[VALU_SGPR] = true;
        read[SALU_SGPR] = true;
    }
    for f in facts.iter_mut() {
        f.records = records_read(f, &read);
    }
}

/// Checks the instruction at `wave.pc` against the rules, then records
/// what it produces and advances the wave's clock.
// `#[inline]`: the release profile's codegen units may put the hook and
// this in different units, where only an `#[inline]` function is inlined
// (it was by chance, and the checked loop lost 1.5 % when it was not).
#[inline(always)]
pub(crate) fn before(g: &mut GroupCheck<'_>, wave: &Wave, f: &Facts) {
    let w = wave.id as usize;
    if f.hazards != 0 && may_break(&g.waves[w].history, f.hazards, g.version.opcode_column()) {
        check_rules(g, wave, f);
    }
    if let Some(roles) = &f.g10 {
        gfx10(g, wave, roles);
    }
    advance(&mut g.waves[w].history, wave.pc, f);
}

/// True when [`before`] looks at `f` for more than its wait states: it is
/// a consumer of a rule, has a gfx1010 role, or records what a rule reads.
pub(crate) fn looks_at(f: &Facts) -> bool {
    f.hazards != 0 || f.g10.is_some() || f.records
}

/// [`before`] for a run of instructions of a compiled block
/// ([`super::runs::RunSummary`]): only the instructions at `entries` (index
/// in `run`, the wait states of the run before it: those [`looks_at`]
/// holds for) are looked at, each at
/// the clock it would have had; then the clock advances by the run's
/// `total` wait states. The same as `before` on each instruction: the
/// others neither break a rule nor record anything a rule reads.
pub(crate) fn before_run(
    g: &mut GroupCheck<'_>,
    wave: &mut Wave,
    run: &[(u32, u32)],
    entries: &[(u16, u64)],
    total: u64,
) {
    let w = wave.id as usize;
    let Some(start) = g.waves.get(w).map(|s| s.history.clock) else {
        return;
    };
    let facts = g.facts;
    for &(i, earlier) in entries {
        let Some((pc, f)) = run
            .get(usize::from(i))
            .and_then(|&(pc, slot)| Some((pc, facts.get(slot as usize)?)))
        else {
            continue;
        };
        g.waves[w].history.clock = start + earlier;
        wave.pc = pc;
        before(g, wave, f);
    }
    g.waves[w].history.clock = start + total;
}

/// True when a rule of `mask` (bit i: `RULES[i]`) may break at the wave's
/// clock: one of its producers is more recent than the wait states it
/// needs (else no look at the registers is needed).
#[inline(always)]
fn may_break(hist: &History, mut mask: u32, column: usize) -> bool {
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        let Some(rule) = RULES.get(i) else {
            break;
        };
        let newest = hist.newest[RULE_TABLES[i % 32]];
        if hist.clock.saturating_sub(newest) < u64::from(rule.states[column]) {
            return true;
        }
    }
    false
}

/// Reports the first rule the instruction `f` breaks.
#[inline(never)]
fn check_rules(g: &mut GroupCheck<'_>, wave: &Wave, f: &Facts) {
    let column = g.version.opcode_column();
    let w = wave.id as usize;
    let mut findings: Vec<(String, u32)> = Vec::new();
    {
        let hist = &g.waves[w].history;
        let now = hist.clock;
        let mut mask = f.hazards;
        while mask != 0 {
            let bit = mask & mask.wrapping_neg();
            mask &= !bit;
            let Some(rule) = RULES.get(bit.trailing_zeros() as usize) else {
                break;
            };
            if !may_break(hist, bit, column) {
                continue;
            }
            let need = u64::from(rule.states[column]);
            let Some((stamp, pc)) = producer(rule.hazard, hist, f) else {
                continue;
            };
            if stamp == 0 {
                continue;
            }
            let waits = now - stamp;
            if waits < need {
                findings.push((
                    format!(
                        "needs {need} wait state{} after the instruction it depends on ({}), has {waits}: {} missing",
                        if need == 1 { "" } else { "s" },
                        name(rule.hazard),
                        need - waits
                    ),
                    pc,
                ));
            }
        }
    }
    // One report per executed instruction (the first rule broken).
    if let Some((message, related)) = findings.into_iter().next() {
        g.report(
            Check::WaitStates,
            wave.id,
            wave.pc,
            message,
            Some(related),
            None,
        );
    }
}

/// Records what the instruction `f` at `pc` produces, then advances the
/// wave's clock by the wait states `f` provides.
#[inline(always)]
fn advance(hist: &mut History, pc: u32, f: &Facts) {
    if f.records {
        record(hist, pc, f);
    }
    hist.clock += u64::from(f.states);
}

/// Records what the instruction `f` at `pc` produces (when [`records`]).
#[inline(always)]
fn record(hist: &mut History, pc: u32, f: &Facts) {
    let stamp = (hist.clock + 1, pc);
    match f.unit {
        Unit::Valu => {
            for r in f.writes() {
                if r.vector {
                    let end = usize::from(r.first + r.count).min(hist.valu_vgpr.len());
                    if let Some(regs) = hist.valu_vgpr.get_mut(usize::from(r.first)..end) {
                        regs.fill(stamp);
                    }
                    hist.newest[VALU_VGPR] = stamp.0;
                } else {
                    let end = usize::from(r.first + r.count).min(128);
                    if let Some(regs) = hist.valu_sgpr.get_mut(usize::from(r.first)..end) {
                        regs.fill(stamp);
                    }
                    hist.newest[VALU_SGPR] = stamp.0;
                    hist.newest[ANY_SGPR] = stamp.0;
                }
            }
        }
        Unit::Salu => {
            for r in f.writes().iter().filter(|r| !r.vector) {
                let end = usize::from(r.first + r.count).min(128);
                if let Some(regs) = hist.salu_sgpr.get_mut(usize::from(r.first)..end) {
                    regs.fill(stamp);
                }
                hist.newest[SALU_SGPR] = stamp.0;
                hist.newest[ANY_SGPR] = stamp.0;
            }
            if let Some(id) = f.setreg {
                hist.setreg[usize::from(id)] = stamp;
                hist.newest[SETREG] = stamp.0;
            }
        }
        Unit::Vmem if f.wide_store => {
            if let Some(data) = f.store_data {
                hist.wide_store = (stamp, data);
                hist.newest[WIDE_STORE] = stamp.0;
            }
        }
        _ => {}
    }
}

// Facts::hazards holds one bit per rule.
const _: () = assert!(RULES.len() <= 32);

// ---------------------------------------------------------------------------
// The gfx1010 hazards: they last until an instruction of some kind ends
// them (LLVM's `getWaitStatesSince` with an `IsExpired` test), along the
// executed path.

/// The SGPR codes (0–127) of `runs` as a bit set.
fn sgpr_bits<'r>(runs: impl Iterator<Item = &'r Regs>) -> u128 {
    let mut m = 0u128;
    for r in runs.filter(|r| !r.vector) {
        for c in r.first..(r.first + r.count).min(128) {
            m |= 1 << c;
        }
    }
    m
}

/// EXEC (both halves) as an SGPR bit set.
const EXEC_BITS: u128 = 3 << sreg::EXEC;

/// The roles of one instruction in the gfx1010 hazards, derived once per
/// launch ([`gfx10_roles`]); all empty on versions without them.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Gfx10Roles {
    /// SGPRs a VMEM/DS/FLAT instruction reads, EXEC included
    /// ([`Hazard::VmemSgprScalarWrite`] producer).
    vmem_reads: u128,
    /// SGPRs an SALU/SMEM instruction writes as explicit destinations (its
    /// consumer).
    scalar_writes: u128,
    /// Ends [`Hazard::VmemSgprScalarWrite`].
    ends_vmem_scalar: bool,
    /// SGPRs an SMEM instruction reads ([`Hazard::SmemSgprValuWrite`]
    /// producer).
    smem_reads: u128,
    /// SGPRs a VALU writes (its consumer).
    valu_writes: u128,
    /// Ends [`Hazard::SmemSgprValuWrite`].
    ends_smem_valu: bool,
    /// A VOPC instruction ([`Hazard::VopcPermlane`] producer).
    vopc: bool,
    /// `v_permlane*` (its consumer).
    permlane: bool,
    /// A VALU other than a no-operand one (`v_nop`): ends it.
    ends_vopc: bool,
    /// A non-VALU instruction reading EXEC ([`Hazard::ExecReadVcmpx`]
    /// producer).
    exec_read: bool,
    /// A VALU writing EXEC (its consumer).
    exec_write: bool,
    /// Ends [`Hazard::ExecReadVcmpx`].
    ends_exec: bool,
    /// [`Hazard::LdsBranchVmem`]: 1 for DS, 2 for VMEM (MUBUF, MTBUF, MIMG,
    /// GLOBAL, SCRATCH; FLAT is neither), 0 otherwise.
    mem_kind: u8,
    /// A branch (SOPP with a target).
    branch: bool,
    /// `s_waitcnt_vscnt null, 0`: ends [`Hazard::LdsBranchVmem`].
    vscnt0: bool,
    /// A call or return (`s_swappc_b64`, `s_setpc_b64`, `s_rfe_b64`): also
    /// ends [`Hazard::LdsBranchVmem`], because LLVM's recognizer walks one
    /// function's blocks — a callee starts with `s_waitcnt_vscnt null, 0`,
    /// and a caller's access after the call is not paired with the
    /// callee's (clang-15's gfx1010 `call_pointers` returns from a DS loop
    /// into a buffer load).
    jump: bool,
    /// A MIMG NSA instruction of 16 bytes or more ([`Hazard::NsaVmem`]
    /// producer).
    nsa: bool,
    /// MUBUF/MTBUF with `offset` bit 1 or 2 set (its consumer).
    offset_bits: bool,
    /// Some role: the check looks at the instruction.
    pub(crate) any: bool,
}

/// The gfx1010 hazard state of a wave.
#[derive(Debug, Clone)]
pub(crate) struct Gfx10State {
    /// [`Hazard::VmemSgprScalarWrite`]: the SGPRs read since it last ended,
    /// and the PC of each one's reader.
    vmem_reads: u128,
    vmem_pc: [u32; 128],
    /// [`Hazard::SmemSgprValuWrite`]: the same for SMEM.
    smem_reads: u128,
    smem_pc: [u32; 128],
    /// [`Hazard::VopcPermlane`]: the PC of the VOPC instruction.
    vopc: Option<u32>,
    /// [`Hazard::ExecReadVcmpx`]: the PC of the EXEC reader.
    exec_read: Option<u32>,
    /// [`Hazard::LdsBranchVmem`]: the last memory instruction (kind, PC)
    /// since `s_waitcnt_vscnt null, 0`, and whether a branch followed it.
    last_mem: Option<(u8, u32)>,
    branch_since: bool,
    /// [`Hazard::NsaVmem`]: the stamp of the last NSA instruction.
    nsa: Stamp,
}

impl Default for Gfx10State {
    fn default() -> Self {
        Gfx10State {
            vmem_reads: 0,
            vmem_pc: [0; 128],
            smem_reads: 0,
            smem_pc: [0; 128],
            vopc: None,
            exec_read: None,
            last_mem: None,
            branch_since: false,
            nsa: (0, 0),
        }
    }
}

/// True when the rule of `h` applies on `version`.
fn applies(h: Hazard, version: gcn_asm::GcnVersion) -> bool {
    RULES
        .iter()
        .any(|r| r.hazard == h && r.states[version.opcode_column()] > 0)
}

/// The roles of the instruction `op` (facts `f`) in the gfx1010 hazards
/// on `version`: from its unit, encoding, flags, operands and register
/// accesses.
pub(crate) fn gfx10_roles(op: &Op, f: &Facts, version: gcn_asm::GcnVersion) -> Gfx10Roles {
    let mut r = Gfx10Roles::default();
    if !RULES[..]
        .iter()
        .any(|rule| table(rule.hazard) == GFX10 && rule.states[version.opcode_column()] > 0)
    {
        return r;
    }
    let instr = &op.instr;
    let row = instr.row;
    let unit = f.unit;
    let valu = unit == Unit::Valu;
    let reads = sgpr_bits(f.reads().iter());
    let writes = sgpr_bits(f.writes().iter());
    let imm = || {
        instr.operands().iter().find_map(|o| match *o {
            Operand::Imm(v) => Some(v),
            _ => None,
        })
    };
    let depctr = row.has(flags::DEPCTR).then(imm).flatten();
    let waitcnt = f.waitcnt;
    let sopp = row.encoding == Encoding::Sopp;
    // A wait for one counter with `null` and 0.
    let null_zero = |c: Counter| matches!(f.wait_one, Some((w, 0, sreg::NULL)) if w == c);
    let vmem_unit = unit == Unit::Vmem || unit == Unit::Ds;
    if applies(Hazard::VmemSgprScalarWrite, version) {
        if vmem_unit {
            r.vmem_reads = reads | EXEC_BITS;
        }
        if unit == Unit::Salu || unit == Unit::Smem {
            // LLVM looks at the explicit definitions only (`MI->defs()`):
            // `s_and_saveexec_b32 s0, …` writes s0 there, not EXEC.
            let explicit = instr.accesses();
            r.scalar_writes = sgpr_bits(
                explicit
                    .iter()
                    .filter_map(|a| match a.location {
                        Location::Sgprs { code, count }
                            if a.role.writes() && a.operand.is_some() =>
                        {
                            Some(Regs::s(code, count))
                        }
                        _ => None,
                    })
                    .collect::<Vec<_>>()
                    .iter(),
            );
        }
        r.ends_vmem_scalar = valu || waitcnt == Some(0) || depctr == Some(0xffe3);
    }
    if applies(Hazard::SmemSgprValuWrite, version) {
        if unit == Unit::Smem {
            r.smem_reads = reads;
        }
        if valu {
            r.valu_writes = writes;
        }
        let lgkm0 =
            waitcnt.is_some_and(|w| (crate::check::waitcnt::decode_waitcnt(w, version).2) == 0);
        // An SALU with register operands (`s_mov_b32 null, 0`, LLVM's fix;
        // not `s_version`, nor a wait for another counter).
        let registers = row
            .operands
            .iter()
            .any(|o| matches!(o.field, Field::Sdst | Field::Ssrc0 | Field::Ssrc1));
        r.ends_smem_valu = lgkm0
            || null_zero(Counter::Lgkm)
            || (unit == Unit::Salu && !sopp && f.wait_one.is_none() && registers);
    }
    if applies(Hazard::VopcPermlane, version) {
        r.vopc = row.encoding == Encoding::Vopc;
        r.permlane = row.has(flags::PERMLANE);
        r.ends_vopc = valu && !row.has(flags::NO_OPERANDS);
    }
    if applies(Hazard::ExecReadVcmpx, version) {
        r.exec_read = !valu && (vmem_unit || reads & EXEC_BITS != 0);
        r.exec_write = valu && writes & EXEC_BITS != 0;
        let lane_read = matches!(
            f.lanes,
            super::facts::Lanes::ReadLane | super::facts::Lanes::FirstLane
        );
        r.ends_exec =
            (valu && writes != 0 && !lane_read) || depctr.is_some_and(|d| d & 0xfffe == 0xfffe);
    }
    if applies(Hazard::LdsBranchVmem, version) {
        r.mem_kind = match row.encoding {
            Encoding::Ds => 1,
            Encoding::Mubuf
            | Encoding::Mtbuf
            | Encoding::Mimg
            | Encoding::Global
            | Encoding::Scratch => 2,
            _ => 0,
        };
        r.branch = sopp && row.operand(Field::RelAddr).is_some();
        r.vscnt0 = null_zero(Counter::Vs);
        r.jump = row.flow == gcn_asm::isa::Flow::Jump && row.encoding == Encoding::Sop1;
    }
    if applies(Hazard::NsaVmem, version) {
        let mem = instr.mods.mem;
        r.nsa =
            row.encoding == Encoding::Mimg && mem.flags.contains(MemFlags::NSA) && instr.len >= 4;
        r.offset_bits =
            matches!(row.encoding, Encoding::Mubuf | Encoding::Mtbuf) && mem.offset & 6 != 0;
    }
    r.any = r.vmem_reads != 0
        || r.scalar_writes != 0
        || r.ends_vmem_scalar
        || r.smem_reads != 0
        || r.valu_writes != 0
        || r.ends_smem_valu
        || r.vopc
        || r.permlane
        || r.ends_vopc
        || r.exec_read
        || r.exec_write
        || r.ends_exec
        || r.mem_kind != 0
        || r.branch
        || r.vscnt0
        || r.jump
        || r.nsa
        || r.offset_bits;
    r
}

/// Checks the instruction at `wave.pc` (its gfx1010 `roles`) against the
/// gfx1010 hazards ([`Gfx10State::step`]) and reports the first it breaks.
#[inline(never)]
fn gfx10(g: &mut GroupCheck<'_>, wave: &Wave, roles: &Gfx10Roles) {
    let pc = wave.pc;
    let hist = &mut g.waves[wave.id as usize].history;
    let clock = hist.clock;
    if let Some((hazard, related)) = hist.g10.step(roles, pc, clock) {
        g.report(
            Check::WaitStates,
            wave.id,
            pc,
            format!(
                "breaks a gfx1010 hazard: {} (the related instruction)",
                name(hazard)
            ),
            Some(related),
            None,
        );
    }
}

impl Gfx10State {
    /// The state of a wave that starts now: for every hazard the same as
    /// [`Gfx10State::default`]'s.
    fn reset(&mut self) {
        // (The PC tables are read only for the bits of `vmem_reads` and
        // `smem_reads`, which set them.)
        self.vmem_reads = 0;
        self.smem_reads = 0;
        self.vopc = None;
        self.exec_read = None;
        self.last_mem = None;
        self.branch_since = false;
        self.nsa = (0, 0);
    }

    /// The instruction at `pc` (roles `r`, at wait-state clock `clock`):
    /// the first hazard it breaks and its producer's PC, if any; then it
    /// ends and starts hazards (in LLVM's order: an instruction that is a
    /// hazard's producer and ends it starts it).
    pub(crate) fn step(&mut self, r: &Gfx10Roles, pc: u32, clock: u64) -> Option<(Hazard, u32)> {
        let h = self;
        let mut finding: Option<(Hazard, u32)> = None;
        let mut find = |hazard: Hazard, related: u32| {
            finding.get_or_insert((hazard, related));
        };
        let both = r.scalar_writes & h.vmem_reads;
        if both != 0 {
            find(
                Hazard::VmemSgprScalarWrite,
                h.vmem_pc[both.trailing_zeros() as usize],
            );
        }
        let both = r.valu_writes & h.smem_reads;
        if both != 0 {
            find(
                Hazard::SmemSgprValuWrite,
                h.smem_pc[both.trailing_zeros() as usize],
            );
        }
        if r.permlane {
            if let Some(p) = h.vopc {
                find(Hazard::VopcPermlane, p);
            }
        }
        if r.exec_write {
            if let Some(p) = h.exec_read {
                find(Hazard::ExecReadVcmpx, p);
            }
        }
        if r.mem_kind != 0 && h.branch_since {
            if let Some((kind, p)) = h.last_mem {
                if kind != r.mem_kind {
                    find(Hazard::LdsBranchVmem, p);
                }
            }
        }
        if r.offset_bits && h.nsa.0 != 0 && clock < h.nsa.0 + 1 {
            find(Hazard::NsaVmem, h.nsa.1);
        }
        // What it ends.
        if r.ends_vmem_scalar {
            h.vmem_reads = 0;
        }
        if r.ends_smem_valu {
            h.smem_reads = 0;
        }
        if r.ends_vopc {
            h.vopc = None;
        }
        if r.ends_exec {
            h.exec_read = None;
        }
        if r.vscnt0 || r.jump {
            h.last_mem = None;
            h.branch_since = false;
        }
        // What it starts.
        if r.vmem_reads != 0 {
            h.vmem_reads |= r.vmem_reads;
            let mut m = r.vmem_reads;
            while m != 0 {
                h.vmem_pc[m.trailing_zeros() as usize] = pc;
                m &= m - 1;
            }
        }
        if r.smem_reads != 0 {
            h.smem_reads |= r.smem_reads;
            let mut m = r.smem_reads;
            while m != 0 {
                h.smem_pc[m.trailing_zeros() as usize] = pc;
                m &= m - 1;
            }
        }
        if r.vopc {
            h.vopc = Some(pc);
        }
        if r.exec_read {
            h.exec_read = Some(pc);
        }
        if r.mem_kind != 0 {
            h.last_mem = Some((r.mem_kind, pc));
            h.branch_since = false;
        }
        if r.branch && h.last_mem.is_some() {
            h.branch_since = true;
        }
        if r.nsa {
            h.nsa = (clock + 1, pc);
        }
        finding
    }
}

#[cfg(test)]
impl Gfx10Roles {
    pub(crate) fn is_permlane(&self) -> bool {
        self.permlane
    }
    pub(crate) fn is_vopc(&self) -> bool {
        self.vopc
    }
    pub(crate) fn is_vopc_end(&self) -> bool {
        self.ends_vopc
    }
    pub(crate) fn is_nsa(&self) -> bool {
        self.nsa
    }
    pub(crate) fn is_offset_consumer(&self) -> bool {
        self.offset_bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gcn_asm::{assemble, AssembleOptions, GcnVersion};

    /// The facts of `body` (raw code for `v`).
    fn facts_of(v: GcnVersion, body: &str) -> Vec<Facts> {
        let source = format!(".gpu {}\n{body}\n", super::super::tests::gpu(v));
        let assembly = assemble(&source, &AssembleOptions::default()).expect("assembles");
        let words = gcn_asm::decode::words_from_bytes(assembly.text());
        let ops = crate::exec::predecode_waves(&words, v, false);
        super::super::program_facts(&ops, v)
    }

    /// Bit of the wide-store rule in a consumer mask.
    fn wide_store_bit() -> u32 {
        1 << RULES
            .iter()
            .position(|r| r.hazard == Hazard::WideStoreData)
            .expect("the rule")
    }

    #[test]
    fn rules_whose_producers_the_program_lacks_are_dropped() {
        let v = GcnVersion::Gcn1_2;
        let valu =
            "v_mov_b32 v4, 1\nv_add_f32 v2, v4, v4\nbuffer_store_dword v2, v1, s[8:11], 0 offen";
        // Without a store of more than 64 bits, no VALU write is a consumer
        // of the wide-store rule, and nothing is recorded for it.
        for f in &facts_of(v, valu) {
            assert_eq!(f.hazards & wide_store_bit(), 0, "{f:?}");
            assert!(!f.records || f.unit != Unit::Valu, "{f:?}");
        }
        // With one, every VALU write of a VGPR stays a consumer.
        let wide = format!("{valu}\nbuffer_store_dwordx4 v[2:5], v1, s[8:11], 0 offen");
        let facts = facts_of(v, &wide);
        let valu_facts: Vec<&Facts> = facts.iter().filter(|f| f.unit == Unit::Valu).collect();
        assert!(!valu_facts.is_empty());
        for f in valu_facts {
            assert_ne!(f.hazards & wide_store_bit(), 0, "{f:?}");
        }
    }
}
