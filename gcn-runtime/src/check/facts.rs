//! What the checks need to know about one pre-decoded instruction, derived
//! once per launch from its ISA row ([`gcn_asm::isa::InstrRow`]: encoding,
//! operand fields and types, `load`/`store`/`atomic` flags) and its decoded
//! operands — never from a second instruction list.
//!
//! Nothing here looks at a mnemonic: what an instruction reads and writes,
//! with the conditions of its modifier bits applied, is
//! `Instruction::accesses` (gcn-asm's resolved operand set); the unit,
//! counter, implicit registers and special roles (`nop`, `msg`, `rfe`, the
//! lane selects) are row data. A test fails if a mnemonic string appears
//! in this module tree.

use gcn_asm::decode::{Location, MemFlags, Operand};
use gcn_asm::isa::{flags, Encoding, Field, ImplicitReg};
use gcn_asm::GcnVersion;

use crate::exec::{sreg, Op, Src};

/// A run of registers: scalar operand codes (0–127) or VGPR indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Regs {
    /// True for VGPRs.
    pub vector: bool,
    /// First register (scalar operand code or VGPR index).
    pub first: u16,
    /// Number of registers.
    pub count: u16,
}

impl Regs {
    /// Scalar registers `first ..first + count`.
    pub const fn s(first: u16, count: u16) -> Self {
        Regs {
            vector: false,
            first,
            count,
        }
    }

    /// VGPRs `first ..first + count`.
    pub const fn v(first: u16, count: u16) -> Self {
        Regs {
            vector: true,
            first,
            count,
        }
    }

    /// The registers both runs name, if any.
    pub fn overlap(&self, other: &Regs) -> Option<Regs> {
        if self.vector != other.vector {
            return None;
        }
        let lo = self.first.max(other.first);
        let hi = (self.first + self.count).min(other.first + other.count);
        (lo < hi).then(|| Regs {
            vector: self.vector,
            first: lo,
            count: hi - lo,
        })
    }
}

impl std::fmt::Display for Regs {
    /// CLRX register syntax: `v3`, `v[4:5]`, `s7`, `s[0:1]`, `vcc`, `exec`,
    /// `m0`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let last = self.first + self.count - 1;
        if self.vector {
            return if self.count == 1 {
                write!(f, "v{}", self.first)
            } else {
                write!(f, "v[{}:{}]", self.first, last)
            };
        }
        let named = |code: u16| match code {
            sreg::VCC => Some("vcc"),
            sreg::EXEC => Some("exec"),
            _ => None,
        };
        match (self.first, self.count) {
            (sreg::M0, 1) => f.write_str("m0"),
            (c, 2) if named(c).is_some() => f.write_str(named(c).unwrap_or_default()),
            (c, 1) if c == sreg::VCC => f.write_str("vcc_lo"),
            (c, 1) if c == sreg::VCC + 1 => f.write_str("vcc_hi"),
            (c, 1) if c == sreg::EXEC => f.write_str("exec_lo"),
            (c, 1) if c == sreg::EXEC + 1 => f.write_str("exec_hi"),
            (c, 1) => write!(f, "s{c}"),
            (c, _) => write!(f, "s[{c}:{last}]"),
        }
    }
}

pub use gcn_asm::isa::{Counter, Unit};

/// A set of registers as bits, for the checks' quick "does this
/// instruction touch anything that matters" tests: scalar operand codes
/// 0–127 and VGPRs 0–255. Codes past those (SCC and the other special
/// operands) share the last bit of their kind, so a test may say "maybe"
/// where the runs do not overlap — never "no" where they do; the exact
/// test on [`Regs`] follows a "maybe".
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct RegMask {
    scalar: u128,
    vector: [u64; 4],
}

impl RegMask {
    /// The registers of `runs`.
    pub(crate) fn of(runs: &[Regs]) -> Self {
        let mut m = RegMask::default();
        for r in runs {
            m.add(*r);
        }
        m
    }

    /// Adds the registers of `r`.
    pub(crate) fn add(&mut self, r: Regs) {
        for code in r.first..r.first.saturating_add(r.count) {
            if r.vector {
                let v = usize::from(code.min(255));
                self.vector[v / 64] |= 1 << (v % 64);
            } else {
                self.scalar |= 1 << code.min(127);
            }
        }
    }

    /// Both sets.
    #[inline]
    pub(crate) fn union(self, other: RegMask) -> RegMask {
        RegMask {
            scalar: self.scalar | other.scalar,
            vector: [
                self.vector[0] | other.vector[0],
                self.vector[1] | other.vector[1],
                self.vector[2] | other.vector[2],
                self.vector[3] | other.vector[3],
            ],
        }
    }

    /// True when the set is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.scalar == 0 && self.vector == [0; 4]
    }

    /// True when a register may be in both sets.
    #[inline]
    pub(crate) fn intersects(&self, other: &RegMask) -> bool {
        (self.scalar & other.scalar) != 0
            || (self.vector[0] & other.vector[0])
                | (self.vector[1] & other.vector[1])
                | (self.vector[2] & other.vector[2])
                | (self.vector[3] & other.vector[3])
                != 0
    }
}

/// How an instruction touches LDS (for the race and init checks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LdsUse {
    /// Does not touch LDS.
    None,
    /// Reads the bytes it addresses.
    Read,
    /// Writes the bytes it addresses.
    Write,
    /// Reads and writes them atomically (exempt from the race check).
    Atomic,
}

/// Which lanes of its VGPRs an instruction reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lanes {
    /// The EXEC lanes (every other instruction).
    Exec,
    /// `v_readlane`: reads the lane its lane select names.
    ReadLane,
    /// `v_writelane`: writes the lane its lane select names.
    WriteLane,
    /// `v_readfirstlane`: reads the first EXEC lane.
    FirstLane,
}

/// Most register runs an instruction reads or writes.
pub const MAX_RUNS: usize = 8;

/// The facts of one instruction.
///
/// `repr(C)`, the fields the checks' common paths read first: a streaming
/// kernel's data pushes the facts out of the first-level cache between
/// waves, and each instruction's hooks then fetch its first lines only.
#[derive(Debug, Clone)]
#[repr(C)]
pub struct Facts {
    /// Which unit issues it.
    pub unit: Unit,
    /// How many of `events` are used.
    pub n_events: u8,
    /// The counter events it issues: (counter, in order with the other
    /// events of that counter, weight).
    pub events: [(Counter, bool, u8); 2],
    /// The `s_waitcnt` immediate.
    pub waitcnt: Option<u16>,
    /// A GCN 1.5 SOPK wait (`s_waitcnt_vscnt` …): the counter, the
    /// immediate and the SGPR (operand code) whose value adds to it.
    pub wait_one: Option<(Counter, u16, u16)>,
    /// `s_barrier`.
    pub barrier: bool,
    /// A store or atomic: the bytes it writes are in flight until its
    /// counter says otherwise (the barrier rule of the `waitcnt` check).
    pub writes_memory: bool,
    /// How it touches LDS.
    pub lds: LdsUse,
    /// The wait-state rules it is the consumer of on this version (bit i:
    /// `wait_states::RULES[i]`).
    pub hazards: u32,
    /// It leaves more than a wait state in the wait-state history
    /// ([`super::wait_states::records`]).
    pub(crate) records: bool,
    /// Wait states this instruction provides by itself (`s_nop N`: N+1).
    pub states: u8,
    /// The checks do nothing for it but count its wait states (no
    /// register, counter, hazard or memory of theirs is involved):
    /// [`super::replay`] defers a replayed block's state past it.
    pub(crate) clock_only: bool,
    /// [`Facts::flow`]'s common case as flat register lists.
    pub(crate) fast_flow: super::defined::FastFlow,
    /// [`Facts::reads`] and [`Facts::writes`] as one set.
    pub(crate) touched: RegMask,
    /// [`Facts::writes`] as a set.
    pub(crate) write_mask: RegMask,
    /// [`Facts::store_data`] as a set.
    pub(crate) data_mask: RegMask,
    /// How definedness flows through it (the `uninit` check).
    pub flow: super::defined::FlowFacts,
    /// Registers read (explicit and implicit).
    pub reads: [Regs; MAX_RUNS],
    /// How many of `reads` are used.
    pub n_reads: u8,
    /// Registers written.
    pub writes: [Regs; MAX_RUNS],
    /// How many of `writes` are used.
    pub n_writes: u8,
    /// VMEM store/atomic data VGPRs (read after issue: GCN 1.0 tracks the
    /// read with expcnt; GCN 1.1+ needs one wait state before a VALU
    /// overwrites data wider than 64 bits).
    pub store_data: Option<Regs>,
    /// True when the store data is wider than 64 bits and the hazard of
    /// GCN 1.1+ applies (MUBUF/MTBUF only when SOFFSET is not an SGPR).
    pub wide_store: bool,
    /// The `hwreg` id of `s_setreg*` (set) or `s_getreg*` (get).
    pub setreg: Option<u16>,
    /// The `hwreg` id `s_getreg*` reads.
    pub getreg: Option<u16>,
    /// The instruction is a DPP form.
    pub dpp: bool,
    /// `v_div_fmas_*`.
    pub div_fmas: bool,
    /// The lane select operand of `v_readlane`/`v_writelane`.
    pub lane_select: Option<Regs>,
    /// It reads VCCZ or EXECZ as a data source.
    pub reads_z: bool,
    /// `s_sendmsg*`/`s_ttracedata`, or a GDS access (M0 read after an SALU
    /// write needs 1 wait state on GCN 1.2/1.4).
    pub m0_msg: bool,
    /// `s_movrel*`, LDS DMA (MUBUF `lds`), `lds_direct`, `ds_*_addtid` (the
    /// GCN 1.4 M0 rule).
    pub m0_rel: bool,
    /// `s_rfe*`.
    pub rfe: bool,
    /// `s_buffer_*`: the SGPR holding word 2 of its descriptor.
    pub buffer_word2: Option<u16>,
    /// Which lanes of its VGPR operands it uses.
    pub lanes: Lanes,
    /// Its roles in the gfx1010 hazards ([`super::wait_states`]), when it
    /// has some (boxed: most versions and instructions have none).
    pub(crate) g10: Option<Box<super::wait_states::Gfx10Roles>>,
}

impl Facts {
    fn read(&mut self, r: Regs) {
        if usize::from(self.n_reads) < MAX_RUNS && r.count > 0 {
            self.reads[usize::from(self.n_reads)] = r;
            self.n_reads += 1;
        }
    }

    fn write(&mut self, r: Regs) {
        if usize::from(self.n_writes) < MAX_RUNS && r.count > 0 {
            self.writes[usize::from(self.n_writes)] = r;
            self.n_writes += 1;
        }
    }

    fn event(&mut self, counter: Counter, ordered: bool, weight: u8) {
        if usize::from(self.n_events) < 2 {
            self.events[usize::from(self.n_events)] = (counter, ordered, weight);
            self.n_events += 1;
        }
    }

    /// The registers read.
    pub fn reads(&self) -> &[Regs] {
        &self.reads[..usize::from(self.n_reads)]
    }

    /// The registers written.
    pub fn writes(&self) -> &[Regs] {
        &self.writes[..usize::from(self.n_writes)]
    }

    /// The counter events issued.
    pub fn events(&self) -> &[(Counter, bool, u8)] {
        &self.events[..usize::from(self.n_events)]
    }

    /// Derives the facts of `op` on `version`: the registers from the
    /// decoder's resolved operand set ([`Instruction::accesses`]), the rest
    /// from the row's unit, counter and flags; in the wave size `op` was
    /// decoded for.
    ///
    /// [`Instruction::accesses`]: gcn_asm::decode::Instruction::accesses
    pub fn of(op: &Op, version: GcnVersion) -> Facts {
        let instr = &op.instr;
        let row = instr.row;
        let encoding = row.encoding;
        let unit = row.unit();
        let mem = instr.mods.mem.flags;
        let none = Regs::s(0, 0);
        let mut f = Facts {
            unit,
            reads: [none; MAX_RUNS],
            n_reads: 0,
            writes: [none; MAX_RUNS],
            n_writes: 0,
            events: [(Counter::Vm, true, 0); 2],
            n_events: 0,
            store_data: None,
            wide_store: false,
            waitcnt: None,
            wait_one: None,
            states: 1,
            setreg: None,
            getreg: None,
            dpp: instr.form == gcn_asm::decode::Form::Dpp,
            // The one vector instruction that reads VCC without naming it.
            div_fmas: unit == Unit::Valu && row.reads_implicit(ImplicitReg::Vcc, version),
            lane_select: None,
            reads_z: false,
            m0_msg: row.has(flags::MSG),
            m0_rel: false,
            rfe: row.has(flags::RFE),
            barrier: row.has(flags::BARRIER),
            writes_memory: unit.is_memory() && row.has(flags::STORE | flags::ATOMIC),
            buffer_word2: None,
            lds: LdsUse::None,
            lanes: if row.has(flags::READ_LANE) {
                Lanes::ReadLane
            } else if row.has(flags::WRITE_LANE) {
                Lanes::WriteLane
            } else if row.has(flags::FIRST_LANE) {
                Lanes::FirstLane
            } else {
                Lanes::Exec
            },
            hazards: 0,
            g10: None,
            records: false,
            clock_only: false,
            flow: super::defined::FlowFacts::of(op, version),
            fast_flow: Default::default(),
            touched: RegMask::default(),
            write_mask: RegMask::default(),
            data_mask: RegMask::default(),
        };
        let load = row.has(flags::LOAD);
        let store = row.has(flags::STORE);
        let atomic = row.has(flags::ATOMIC);
        let operands = instr.operands();
        for (spec, operand) in row.operands.iter().zip(operands) {
            match *operand {
                Operand::Hwreg(v) if spec.role.writes() => f.setreg = Some(v & 63),
                Operand::Hwreg(v) => f.getreg = Some(v & 63),
                Operand::Waitcnt(v) => f.waitcnt = Some(v),
                Operand::Imm(v) if row.has(flags::NOP) => f.states = (v & 7) as u8 + 1,
                _ => {}
            }
        }
        if let Some(counter) = row.waits_for() {
            let mut imm = 0;
            let mut sgpr = sreg::NULL;
            for (spec, operand) in row.operands.iter().zip(operands) {
                match *operand {
                    Operand::Reg { code, .. } if spec.field == Field::Sdst => sgpr = code,
                    Operand::Imm(v) => imm = v as u16,
                    _ => {}
                }
            }
            f.wait_one = Some((counter, imm, sgpr));
        }
        for access in instr.accesses().iter() {
            let regs = match access.location {
                Location::Sgprs { code, count } => Regs::s(code, count),
                Location::Vgprs { index, count } => Regs::v(index, count),
                Location::State(_) => continue,
            };
            if access.role.writes() {
                f.write(regs);
            }
            if !access.role.reads() {
                continue;
            }
            f.read(regs);
            let Some(i) = access.operand.map(usize::from) else {
                continue;
            };
            // The VADDR of buffer_store_lds_dword and friends sits in the
            // slot after the row's operands (gcn_asm::decode::access): a
            // plain VGPR read, recorded above.
            let (Some(&spec), Some(&operand)) = (row.operands.get(i), operands.get(i)) else {
                continue;
            };
            match operand {
                Operand::Reg {
                    code: sreg::VCCZ | sreg::EXECZ,
                    ..
                } => f.reads_z = true,
                Operand::Reg {
                    code: sreg::LDS_DIRECT,
                    ..
                } => f.m0_rel = true,
                _ => {}
            }
            if row.has(flags::READ_LANE | flags::WRITE_LANE) && i == usize::from(op.slot[1]) {
                f.lane_select = Some(regs);
            }
            // A four-register SBASE is a buffer descriptor (`s_buffer_*`).
            if spec.field == Field::Sbase && regs.count == 4 {
                f.buffer_word2 = Some(regs.first + 2);
            }
            if spec.field == Field::Vdata && unit == Unit::Vmem && (store || atomic) {
                f.store_data = Some(regs);
            }
        }
        // M0 as an index (LLVM's M0 "movrel" hazard class): a scalar
        // instruction that reads M0 without writing it and sends no
        // message (`s_movrel*`), and a DS instruction that reads M0 on
        // GCN 1.4, where M0 is no LDS limit (`ds_*_addtid`, append/consume).
        let reads_m0 = row.reads_implicit(ImplicitReg::M0, version);
        if reads_m0
            && ((unit == Unit::Salu
                && !row.has(flags::MSG)
                && !row.writes_implicit(ImplicitReg::M0, version))
                || (unit == Unit::Ds && version.is_gcn14() && !row.has(flags::GDS_ONLY)))
        {
            f.m0_rel = true;
        }
        // The counter the row's completion is tracked by. Scalar memory
        // returns out of order; CLRX (GcnInstrsSmrd.md): one count per
        // single-dword fetch, two for more. Cache invalidations count too.
        if let Some(counter) = row.counter() {
            if unit == Unit::Smem {
                let dwords = f.writes().first().map_or(1, |r| r.count);
                f.event(counter, false, if dwords > 1 { 2 } else { 1 });
            } else if unit == Unit::Vmem && version.is_gcn15() {
                // GCN 1.5+: stores and atomics that return nothing count in
                // vscnt, loads and returning atomics in vmcnt (LLVM:
                // getVmemWaitEventType).
                let returns = load || (atomic && instr.mods.glc);
                let no_return = store || atomic;
                let vector = if no_return && !returns {
                    Counter::Vs
                } else {
                    counter
                };
                f.event(vector, true, 1);
                // A FLAT (generic address) access may land in LDS: it counts
                // in lgkmcnt too, where only a wait for zero is certain
                // (LLVM: mayAccessLDSThroughFlat, setPendingFlat).
                if encoding == Encoding::Flat {
                    f.event(Counter::Lgkm, false, 1);
                }
            } else {
                f.event(counter, true, 1);
            }
        }
        let gds = mem.contains(MemFlags::GDS);
        match unit {
            Unit::Ds => {
                if gds {
                    f.m0_msg = true;
                    f.event(Counter::Exp, true, 1);
                }
                f.lds = if load {
                    LdsUse::Read
                } else if store {
                    LdsUse::Write
                } else if atomic {
                    LdsUse::Atomic
                } else {
                    // ds_swizzle, ds_permute, ds_nop, GWS: no LDS bytes.
                    LdsUse::None
                };
            }
            Unit::Vmem => {
                if let Some(data) = f.store_data {
                    // GCN 1.0 counts the reading of the store data in
                    // expcnt (LLVM: vmemWriteNeedsExpWaitcnt).
                    if version == GcnVersion::Gcn1_0 {
                        f.event(Counter::Exp, true, 1);
                    }
                    let soffset_sgpr = matches!(encoding, Encoding::Mubuf | Encoding::Mtbuf)
                        && op
                            .field_index(Field::Soffset)
                            .is_some_and(|i| matches!(op.src(i), Src::Sgpr(_)));
                    f.wide_store = data.count > 2 && !soffset_sgpr;
                }
                let lds_dma = matches!(encoding, Encoding::Mubuf) && mem.contains(MemFlags::LDS);
                if lds_dma {
                    f.m0_rel = true;
                    f.lds = if load { LdsUse::Write } else { LdsUse::Read };
                } else if matches!(encoding, Encoding::Flat) {
                    // Only the accesses that land in the LDS aperture are
                    // logged.
                    f.lds = if atomic {
                        LdsUse::Atomic
                    } else if store {
                        LdsUse::Write
                    } else {
                        LdsUse::Read
                    };
                }
            }
            Unit::Smem | Unit::Exp | Unit::Salu | Unit::Valu => {}
        }
        f.hazards = super::wait_states::consumer_mask(&f, version);
        let g10 = super::wait_states::gfx10_roles(op, &f, version);
        f.g10 = g10.any.then(|| Box::new(g10));
        f.fast_flow = super::defined::FastFlow::of(&f.flow, f.lanes);
        f.records = super::wait_states::records(&f);
        f.write_mask = RegMask::of(f.writes());
        f.touched = RegMask::of(f.reads()).union(f.write_mask);
        f.data_mask = RegMask::of(f.store_data.as_slice());
        f
    }
}
