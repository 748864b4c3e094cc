//! [`super::Check::WaitStates`]: the wait states (independent instructions
//! or `s_nop`s) the hardware requires between dependent instructions, one
//! [`Rule`] per row of [`RULES`], per generation, with its source.
//!
//! Wait states are counted along the executed path: every instruction
//! provides one, `s_nop N` provides N+1 (CLRX GcnInstrsSopp.md: "Do
//! nothing by (SIMM16&7) + 1 cycles"); the number between a producer and a
//! consumer is what the instructions strictly between them provide.

use super::facts::{Facts, Regs, Unit};
use super::{Check, GroupCheck};
use crate::exec::{sreg, Wave};

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
}

/// One rule: the hazard, the wait states per version (GCN 1.0, 1.1, 1.2,
/// 1.4; 0: the rule does not apply) and where it is documented.
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
/// Entries of [`History::newest`].
const TABLES: usize = 6;

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
    }
}

/// [`table`] of each rule (bit i of a consumer mask: entry i), and of the
/// bits past the rules (never set) a harmless one.
const RULE_TABLES: [usize; 16] = {
    let mut t = [0; 16];
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
            newest: [0; TABLES],
        }
    }
}

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
pub(crate) fn consumer_mask(f: &Facts, version: gcn_asm::GcnVersion) -> u16 {
    let empty = History::new(0);
    let column = version.opcode_column();
    let mut mask = 0u16;
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
    let writes = |vector: bool| f.writes().iter().any(|r| r.vector == vector);
    match f.unit {
        Unit::Valu => (read[VALU_VGPR] && writes(true)) || (read[VALU_SGPR] && writes(false)),
        Unit::Salu => (read[SALU_SGPR] && writes(false)) || (read[SETREG] && f.setreg.is_some()),
        Unit::Vmem => read[WIDE_STORE] && f.wide_store && f.store_data.is_some(),
        _ => false,
    }
}

/// Narrows each instruction's [`Facts::records`] to what the program's
/// consumers read: a history table no instruction of the program is a
/// consumer of (e.g. the VALU VGPR writes when no DPP instruction reads
/// them) is never looked at, so writes only to it need not be recorded.
/// Exact: [`check_rules`] reads a table only for a rule in the consuming
/// instruction's [`Facts::hazards`].
pub(crate) fn narrow_records(facts: &mut [Facts]) {
    let consumed = facts.iter().fold(0u16, |m, f| m | f.hazards);
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
    advance(&mut g.waves[w].history, wave.pc, f);
}

/// True when a rule of `mask` (bit i: `RULES[i]`) may break at the wave's
/// clock: one of its producers is more recent than the wait states it
/// needs (else no look at the registers is needed).
#[inline(always)]
fn may_break(hist: &History, mut mask: u16, column: usize) -> bool {
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        let Some(rule) = RULES.get(i) else {
            break;
        };
        let newest = hist.newest[RULE_TABLES[i % 16]];
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
const _: () = assert!(RULES.len() <= 16);
