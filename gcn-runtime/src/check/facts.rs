//! What the checks need to know about one pre-decoded instruction, derived
//! once per launch from its ISA row ([`gcn_asm::isa::InstrRow`]: encoding,
//! operand fields and types, `load`/`store`/`atomic` flags) and its decoded
//! operands — never from a second instruction list.
//!
//! A handful of facts are not in the rows because the rows describe syntax,
//! not implicit operands; they are derived here from the row's family and
//! mnemonic with the reason beside each: `v_cmpx*` also writes EXEC,
//! `v_div_fmas*` reads VCC, DS on GCN 1.0–1.2 reads M0 (the LDS limit),
//! `s_movrel*`/`v_movrel*` read M0 (the index), `s_setreg*`'s `sdst`
//! operand is its source, and `s_cbranch_vccz/vccnz/execz/execnz` read VCC
//! or EXEC.

use gcn_asm::decode::{MemFlags, Operand};
use gcn_asm::isa::{flags, Encoding, Field};
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

    /// True when the run contains scalar operand code `code`.
    pub fn has_scalar(&self, code: u16) -> bool {
        !self.vector && (self.first..self.first + self.count).contains(&code)
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

/// The broad class of an instruction (which unit issues it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

/// The wait counters of GCN 1.0–1.4.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counter {
    /// Vector memory (loads and stores, in order).
    Vm,
    /// LDS, GDS, scalar memory, messages.
    Lgkm,
    /// Exports, GDS, and (GCN 1.0) the reading of VMEM store data.
    Exp,
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
#[derive(Debug, Clone)]
pub struct Facts {
    /// Which unit issues it.
    pub unit: Unit,
    /// Registers read (explicit and implicit).
    pub reads: [Regs; MAX_RUNS],
    /// How many of `reads` are used.
    pub n_reads: u8,
    /// Registers written.
    pub writes: [Regs; MAX_RUNS],
    /// How many of `writes` are used.
    pub n_writes: u8,
    /// The counter events it issues: (counter, in order with the other
    /// events of that counter, weight).
    pub events: [(Counter, bool, u8); 2],
    /// How many of `events` are used.
    pub n_events: u8,
    /// VMEM store/atomic data VGPRs (read after issue: GCN 1.0 tracks the
    /// read with expcnt; GCN 1.1+ needs one wait state before a VALU
    /// overwrites data wider than 64 bits).
    pub store_data: Option<Regs>,
    /// True when the store data is wider than 64 bits and the hazard of
    /// GCN 1.1+ applies (MUBUF/MTBUF only when SOFFSET is not an SGPR).
    pub wide_store: bool,
    /// The `s_waitcnt` immediate.
    pub waitcnt: Option<u16>,
    /// Wait states this instruction provides by itself (`s_nop N`: N+1).
    pub states: u8,
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
    /// How it touches LDS.
    pub lds: LdsUse,
    /// Which lanes of its VGPR operands it uses.
    pub lanes: Lanes,
    /// The wait-state rules it is the consumer of on this version (bit i:
    /// `wait_states::RULES[i]`).
    pub hazards: u16,
}

fn unit(encoding: Encoding) -> Unit {
    match encoding {
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

    /// Derives the facts of `op` on `version`.
    pub fn of(op: &Op, version: GcnVersion) -> Facts {
        let instr = &op.instr;
        let row = instr.row;
        let name = row.mnemonic;
        let encoding = row.encoding;
        let unit = unit(encoding);
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
            states: 1,
            setreg: None,
            getreg: None,
            dpp: instr.form == gcn_asm::decode::Form::Dpp,
            div_fmas: name.starts_with("v_div_fmas"),
            lane_select: None,
            reads_z: false,
            m0_msg: false,
            m0_rel: false,
            rfe: name.starts_with("s_rfe"),
            buffer_word2: None,
            lds: LdsUse::None,
            lanes: if name.starts_with("v_readlane") {
                Lanes::ReadLane
            } else if name.starts_with("v_writelane") {
                Lanes::WriteLane
            } else if name.starts_with("v_readfirstlane") {
                Lanes::FirstLane
            } else {
                Lanes::Exec
            },
            hazards: 0,
        };
        let load = row.has(flags::LOAD);
        let store = row.has(flags::STORE);
        let atomic = row.has(flags::ATOMIC);
        let returns = load || (atomic && instr.mods.glc);
        let setreg = name.starts_with("s_setreg");
        // SOPK's SDST field is a source of the compares and of `s_setreg`,
        // and both a source and the destination of `s_addk`/`s_mulk`.
        let sdst_read = setreg
            || name.starts_with("s_cmpk")
            || name.starts_with("s_addk")
            || name.starts_with("s_mulk");
        let sdst_written = !setreg && !name.starts_with("s_cmpk");
        let readlane = name.starts_with("v_readlane") || name.starts_with("v_writelane");
        for (i, (spec, operand)) in row.operands.iter().zip(instr.operands()).enumerate() {
            match *operand {
                Operand::Hwreg(v) if setreg => f.setreg = Some(v & 63),
                Operand::Hwreg(v) => f.getreg = Some(v & 63),
                Operand::Waitcnt(v) => f.waitcnt = Some(v),
                Operand::Imm(v) if name == "s_nop" => f.states = (v & 7) as u8 + 1,
                _ => {}
            }
            let Operand::Reg { code, count } = *operand else {
                continue;
            };
            let regs = match code {
                256.. => Regs::v(code - 256, u16::from(count).max(1)),
                0..=127 => Regs::s(code, u16::from(count).max(1)),
                sreg::VCCZ => {
                    f.reads_z = true;
                    f.read(Regs::s(sreg::VCC, 2));
                    continue;
                }
                sreg::EXECZ => {
                    f.reads_z = true;
                    f.read(Regs::s(sreg::EXEC, 2));
                    continue;
                }
                sreg::LDS_DIRECT => {
                    f.m0_rel = true;
                    f.read(Regs::s(sreg::M0, 1));
                    continue;
                }
                _ => continue,
            };
            // Destinations by field; everything else is a source.
            let written = match spec.field {
                Field::Sdst => sdst_written,
                Field::Vdst => true,
                Field::Sdata => !store && (load || returns || !atomic),
                Field::Vdata => match encoding {
                    Encoding::Mubuf | Encoding::Mtbuf | Encoding::Mimg => returns,
                    _ => false,
                },
                _ => false,
            };
            let read = match spec.field {
                Field::Sdst => sdst_read,
                Field::Vdst => false,
                Field::Sdata => store || atomic,
                Field::Vdata => match encoding {
                    Encoding::Mubuf | Encoding::Mtbuf | Encoding::Mimg => store || atomic,
                    _ => true,
                },
                _ => true,
            };
            if written {
                // The written count is the larger of what the words and
                // the row say (tfe, d16 and dmask change it; the row's is
                // the plain one).
                let n = regs.count.max(spec.registers());
                f.write(Regs { count: n, ..regs });
            }
            if read {
                f.read(regs);
                if readlane && i == op.slot[1] as usize {
                    f.lane_select = Some(regs);
                }
                if spec.field == Field::Sbase && name.starts_with("s_buffer") {
                    f.buffer_word2 = Some(code + 2);
                }
                if matches!(spec.field, Field::Vdata) && unit == Unit::Vmem && (store || atomic) {
                    f.store_data = Some(regs);
                }
            }
        }
        // Implicit operands (see the module documentation).
        if name.starts_with("v_cmpx") || name.starts_with("v_cmpsx") {
            f.write(Regs::s(sreg::EXEC, 2));
        }
        if f.div_fmas {
            f.read(Regs::s(sreg::VCC, 2));
        }
        match name {
            "s_cbranch_vccz" | "s_cbranch_vccnz" => f.read(Regs::s(sreg::VCC, 2)),
            "s_cbranch_execz" | "s_cbranch_execnz" => f.read(Regs::s(sreg::EXEC, 2)),
            _ => {}
        }
        if name.starts_with("s_movrel") || name.starts_with("v_movrel") {
            f.m0_rel = name.starts_with("s_movrel");
            f.read(Regs::s(sreg::M0, 1));
        }
        if name.starts_with("s_sendmsg") || name == "s_ttracedata" {
            f.m0_msg = true;
            f.event(Counter::Lgkm, true, 1);
        }
        let gds = mem.contains(MemFlags::GDS);
        match unit {
            Unit::Smem => {
                // Scalar memory returns out of order; CLRX
                // (GcnInstrsSmrd.md): one count per single-dword fetch,
                // two for more. Cache invalidations count too.
                let dwords = f.writes().first().map_or(1, |r| r.count);
                f.event(Counter::Lgkm, false, if dwords > 1 { 2 } else { 1 });
            }
            Unit::Ds => {
                if !version.is_gcn14() {
                    f.read(Regs::s(sreg::M0, 1));
                }
                if gds {
                    f.m0_msg = true;
                    f.event(Counter::Exp, true, 1);
                }
                if name.contains("addtid") {
                    f.m0_rel = true;
                }
                f.event(Counter::Lgkm, true, 1);
                f.lds = if name.starts_with("ds_read") {
                    LdsUse::Read
                } else if name.starts_with("ds_write") {
                    LdsUse::Write
                } else {
                    LdsUse::Atomic
                };
            }
            Unit::Vmem => {
                f.event(Counter::Vm, true, 1);
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
                    f.read(Regs::s(sreg::M0, 1));
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
            Unit::Exp => f.event(Counter::Exp, true, 1),
            Unit::Salu | Unit::Valu => {}
        }
        f.hazards = super::wait_states::consumer_mask(&f, version);
        f
    }
}
