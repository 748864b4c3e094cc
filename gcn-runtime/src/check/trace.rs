//! The instruction trace: per executed instruction of the selected waves,
//! the PC, the disassembly and the registers it wrote (SGPRs, VCC, EXEC,
//! M0, SCC; VGPRs per lane, compactly; also those written with the value
//! they had), each a typed [`TraceChange`].
//! [`Launcher::trace`](crate::Launcher::trace) delivers one [`TraceRecord`]
//! per instruction to a callback; `gcnrun --trace` prints them.

use std::fmt;

use gcn_asm::decode::Location;
use gcn_asm::isa::{flags, DataType, ImplicitReg};

use super::facts::Regs;
use crate::exec::{sreg, Op, Src, Wave, WAVE_SIZE};

/// Which waves to trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TraceFilter {
    /// Only this work-group (x, y, z); `None`: every group.
    pub group: Option<[u32; 3]>,
    /// Only this wave of each traced group; `None`: every wave.
    pub wave: Option<u32>,
}

impl TraceFilter {
    /// True when wave `wave` of group `group` is traced.
    pub fn selects(&self, group: [u32; 3], wave: u32) -> bool {
        self.group.is_none_or(|g| g == group) && self.wave.is_none_or(|w| w == wave)
    }
}

/// One executed instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceRecord {
    /// Work-group id.
    pub group: [u32; 3],
    /// Wave index in the group.
    pub wave: u32,
    /// The wave's instruction count (0-based) when it executed.
    pub step: u64,
    /// Byte offset in `.text`.
    pub pc: u32,
    /// The instruction, disassembled.
    pub instruction: String,
    /// `FILE:LINE:COL` of the instruction, when the program has a line
    /// table.
    pub location: Option<String>,
    /// The registers it wrote (every register the instruction writes,
    /// also with the value it had, and any other that changed), in
    /// register order; they print (joined by spaces) as `s4=0x10 scc=1
    /// v3[0–63]=0x3f800000 (1.0)`.
    pub changes: Vec<TraceChange>,
}

/// One register an instruction wrote, with its value before and after
/// (a [`TraceRecord`] lists them in register order: SGPRs by code, with
/// VCC, M0 and EXEC at theirs, then SCC, then the VGPRs in the order the
/// instruction writes them).
///
/// Every register the instruction writes is listed, also when it wrote
/// the value the register had (`old == new`); a write that keeps part of
/// the old value (a GCN 1.4 d16 half, SDWA with `UNUSED_PRESERVE`, DPP)
/// only where it changed it. Any other register that changed is listed
/// too.
///
/// Its [`fmt::Display`] is the trace's text: `s4=0x10`, `vcc=0x3`,
/// `exec=0xffff`, `m0=0x100`, `scc=1`, `v3[0–63]=0x3f800000` (every
/// listed lane the same value) or `v3={0:0x1, 1:0x2, 2:0x3, 3:0x4 … 64
/// lanes}` (differing values, the first four shown). Where the ISA row
/// types the destination as a float the number follows the bits
/// (`v2[0–63]=0x40000000 (2.0)`, packed halves `0x44004000 (2.0, 4.0)`,
/// an f64 pair `v[4:5][0–63]=0x3ff0000000000000 (1.0)`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TraceChange {
    /// A scalar register other than VCC, M0 and EXEC, by operand code
    /// (`s0`–`s103`, and the trap, XNACK and FLAT_SCRATCH registers,
    /// which print as `s{code}`).
    Sgpr {
        /// The operand code.
        reg: u16,
        /// Value before.
        old: u32,
        /// Value after.
        new: u32,
        /// The float type of the ISA row's destination operand, if a
        /// 16- or 32-bit float (the text shows the number too).
        float: Option<TraceFloat>,
    },
    /// VCC (one or both halves written or changed).
    Vcc {
        /// Value before.
        old: u64,
        /// Value after.
        new: u64,
    },
    /// EXEC (one or both halves written or changed).
    Exec {
        /// Value before.
        old: u64,
        /// Value after.
        new: u64,
    },
    /// M0.
    M0 {
        /// Value before.
        old: u32,
        /// Value after.
        new: u32,
    },
    /// SCC.
    Scc {
        /// Value before.
        old: bool,
        /// Value after.
        new: bool,
    },
    /// A VGPR: the lanes written (EXEC's lanes, or `v_writelane`'s one
    /// lane) and any other lane that changed, in lane order.
    Vgpr {
        /// The VGPR (`v{reg}`).
        reg: u16,
        /// Each listed lane with its old and new value.
        lanes: Vec<LaneChange>,
        /// The float type of the ISA row's destination operand, if a
        /// 16- or 32-bit float (the text shows the number too).
        float: Option<TraceFloat>,
    },
    /// A VGPR pair `v[reg:reg+1]` written as one 64-bit float (an f64
    /// destination), lanes as for [`TraceChange::Vgpr`].
    VgprPair {
        /// The pair's first VGPR.
        reg: u16,
        /// Each listed lane with its old and new 64-bit value.
        lanes: Vec<LanePairChange>,
    },
}

/// The float type of a register's value, when the ISA row's operand type
/// is a float of at most 32 bits (f64 destinations are
/// [`TraceChange::VgprPair`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TraceFloat {
    /// A half in the low 16 bits.
    F16,
    /// A single.
    F32,
    /// Two halves (low, high).
    PackedF16,
}

impl TraceFloat {
    /// The number the bits `x` hold, in the shortest text that reads back
    /// to the same value (`1.0`, `0.1`, `NaN`; packed halves `1.0, 2.0`).
    pub fn value_text(self, x: u32) -> String {
        match self {
            TraceFloat::F16 => format!("{:?}", half::f16::from_bits(x as u16).to_f32()),
            TraceFloat::PackedF16 => format!(
                "{:?}, {:?}",
                half::f16::from_bits(x as u16).to_f32(),
                half::f16::from_bits((x >> 16) as u16).to_f32()
            ),
            TraceFloat::F32 => format!("{:?}", f32::from_bits(x)),
        }
    }
}

/// One lane of a [`TraceChange::Vgpr`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaneChange {
    /// The lane (0–63).
    pub lane: u8,
    /// Value before.
    pub old: u32,
    /// Value after.
    pub new: u32,
}

/// One lane of a [`TraceChange::VgprPair`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LanePairChange {
    /// The lane (0–63).
    pub lane: u8,
    /// Value before (the pair's first VGPR in the low half).
    pub old: u64,
    /// Value after.
    pub new: u64,
}

impl TraceChange {
    /// The lanes a [`TraceChange::Vgpr`] or [`TraceChange::VgprPair`]
    /// lists, as a mask (0 for the scalar changes).
    pub fn lane_mask(&self) -> u64 {
        match self {
            TraceChange::Vgpr { lanes, .. } => lanes.iter().fold(0, |m, l| m | 1 << l.lane),
            TraceChange::VgprPair { lanes, .. } => lanes.iter().fold(0, |m, l| m | 1 << l.lane),
            _ => 0,
        }
    }
}

/// Writes a VGPR's (or pair's) lanes: one value for all, or the first four.
fn write_lanes(
    f: &mut fmt::Formatter<'_>,
    name: &str,
    mask: u64,
    lanes: &[(u8, u64)],
    shown: impl Fn(u64) -> String,
) -> fmt::Result {
    let Some(&(_, first)) = lanes.first() else {
        return write!(f, "{name}={{}}");
    };
    if lanes.iter().all(|&(_, v)| v == first) {
        return write!(f, "{name}[{}]={}", super::lane_list(mask), shown(first));
    }
    write!(f, "{name}={{")?;
    for (i, &(lane, v)) in lanes.iter().enumerate() {
        if i == 4 {
            write!(f, " … {} lanes", lanes.len())?;
            break;
        }
        write!(f, "{}{lane}:{}", if i > 0 { ", " } else { "" }, shown(v))?;
    }
    f.write_str("}")
}

impl fmt::Display for TraceChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let with_float = |x: u64, float: Option<TraceFloat>| match float {
            Some(t) => format!("{x:#x} ({})", t.value_text(x as u32)),
            None => format!("{x:#x}"),
        };
        match self {
            TraceChange::Sgpr {
                reg, new, float, ..
            } => write!(
                f,
                "{}={}",
                Regs::s(*reg, 1),
                with_float(u64::from(*new), *float)
            ),
            TraceChange::Vcc { new, .. } => write!(f, "vcc={new:#x}"),
            TraceChange::Exec { new, .. } => write!(f, "exec={new:#x}"),
            TraceChange::M0 { new, .. } => write!(f, "m0={new:#x}"),
            TraceChange::Scc { new, .. } => write!(f, "scc={}", u8::from(*new)),
            TraceChange::Vgpr { reg, lanes, float } => {
                let values: Vec<(u8, u64)> =
                    lanes.iter().map(|l| (l.lane, u64::from(l.new))).collect();
                write_lanes(f, &format!("v{reg}"), self.lane_mask(), &values, |x| {
                    with_float(x, *float)
                })
            }
            TraceChange::VgprPair { reg, lanes } => {
                let values: Vec<(u8, u64)> = lanes.iter().map(|l| (l.lane, l.new)).collect();
                write_lanes(
                    f,
                    &format!("v[{reg}:{}]", reg + 1),
                    self.lane_mask(),
                    &values,
                    |x| format!("{x:#x} ({:?})", f64::from_bits(x)),
                )
            }
        }
    }
}

impl fmt::Display for TraceRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "group ({}, {}, {}) wave {} #{} pc {:#06x}: ",
            self.group[0], self.group[1], self.group[2], self.wave, self.step, self.pc,
        )?;
        if let Some(loc) = &self.location {
            write!(f, "{loc}: ")?;
        }
        if self.changes.is_empty() {
            return f.write_str(&self.instruction);
        }
        write!(f, "{:<40} ;", self.instruction)?;
        for change in &self.changes {
            write!(f, " {change}")?;
        }
        Ok(())
    }
}

/// The callback that receives the records (from any host thread).
pub type TraceSink<'a> = &'a (dyn Fn(&TraceRecord) + Sync);

/// The state saved before an instruction, to report what it wrote.
#[derive(Default)]
pub(crate) struct Snapshot {
    sgpr: Vec<u32>,
    scc: bool,
    /// The lanes a vector write covers: EXEC before the instruction, or
    /// for `v_writelane` (the row's WRITE_LANE flag) its selected lane.
    lanes: u64,
    /// `v_writelane`: its VGPR write is partial (it keeps the other lanes)
    /// but certain for the selected lane.
    lane_write: bool,
    /// The registers the instruction writes (its resolved operand set).
    writes: Vec<Written>,
    /// (VGPR, lanes before).
    vgprs: Vec<(u16, [u32; WAVE_SIZE])>,
}

/// One register run the instruction writes.
#[derive(Clone, Copy)]
struct Written {
    location: Location,
    /// The type of the ISA row's operand (`None`: an implicit register).
    ty: Option<DataType>,
    /// A write that keeps part of the old value (`Access::partial`: a d16
    /// half, SDWA with UNUSED_PRESERVE, DPP lanes the masks leave alone):
    /// shown only where the value changed, since the record cannot tell
    /// which lanes or bits it wrote.
    partial: bool,
}

impl Written {
    /// The row's operand type when a float of at most 32 bits: the trace
    /// shows the value as a number beside the bits (f64 pairs are shown
    /// as one value by [`Snapshot::changes`]).
    fn float(&self) -> Option<TraceFloat> {
        match self.ty {
            Some(DataType::F16) => Some(TraceFloat::F16),
            Some(DataType::F32) => Some(TraceFloat::F32),
            Some(DataType::PkF16) => Some(TraceFloat::PackedF16),
            _ => None,
        }
    }
}

impl Snapshot {
    pub(crate) fn take(&mut self, wave: &Wave, op: &Op) {
        self.sgpr.clear();
        self.sgpr.extend_from_slice(&wave.sgpr);
        self.scc = wave.scc;
        let row = op.instr.row;
        self.lane_write = row.has(flags::WRITE_LANE);
        self.lanes = if self.lane_write {
            // The lane select is source slot 1 (SSRC1 & 63, as the
            // emulator reads it), read before the write; a VGPR select
            // faults before any write.
            match op.slot_src(1) {
                Src::Vgpr(_) => 0,
                src => 1 << (wave.read_s32(src) & 63),
            }
        } else {
            u64::from(wave.sgpr[usize::from(sreg::EXEC)])
                | u64::from(wave.sgpr[usize::from(sreg::EXEC) + 1]) << 32
        };
        self.writes.clear();
        self.vgprs.clear();
        for access in op.instr.accesses().iter().filter(|a| a.role.writes()) {
            let ty = access
                .operand
                .and_then(|i| row.operands.get(usize::from(i)))
                .map(|spec| spec.ty);
            self.writes.push(Written {
                location: access.location,
                ty,
                partial: access.partial,
            });
            if let Location::Vgprs { index, count } = access.location {
                for v in index..index + count {
                    if self.vgprs.iter().any(|(r, _)| *r == v) {
                        continue;
                    }
                    if let Some(lanes) = wave.vgpr.get(usize::from(v)) {
                        self.vgprs.push((v, *lanes));
                    }
                }
            }
        }
    }

    /// The registers written since [`Snapshot::take`]: every register
    /// the instruction writes (even with the value it had) and any other
    /// that changed; float-typed destinations with their type.
    pub(crate) fn changes(&self, wave: &Wave) -> Vec<TraceChange> {
        let mut out = Vec::new();
        let n = self.sgpr.len().min(wave.sgpr.len());
        let written = |code: u16| {
            self.writes.iter().find(|w| {
                matches!(w.location, Location::Sgprs { code: c, count } if (c..c + count).contains(&code))
            })
        };
        let shown = |code: u16| {
            let i = usize::from(code);
            self.sgpr[i] != wave.sgpr[i] || written(code).is_some_and(|w| !w.partial)
        };
        let pair = |code: u16, regs: &[u32]| {
            u64::from(regs[usize::from(code)]) | u64::from(regs[usize::from(code) + 1]) << 32
        };
        let mut code = 0u16;
        while usize::from(code) < n {
            // VCC and EXEC are one 64-bit change each, at their low half.
            if (code == sreg::VCC || code == sreg::EXEC) && usize::from(code) + 1 < n {
                if shown(code) || shown(code + 1) {
                    let (old, new) = (pair(code, &self.sgpr), pair(code, &wave.sgpr));
                    out.push(if code == sreg::VCC {
                        TraceChange::Vcc { old, new }
                    } else {
                        TraceChange::Exec { old, new }
                    });
                }
                code += 2;
                continue;
            }
            if shown(code) {
                let (old, new) = (self.sgpr[usize::from(code)], wave.sgpr[usize::from(code)]);
                out.push(if code == sreg::M0 {
                    TraceChange::M0 { old, new }
                } else {
                    TraceChange::Sgpr {
                        reg: code,
                        old,
                        new,
                        float: written(code).and_then(Written::float),
                    }
                });
            }
            code += 1;
        }
        let scc_written = self
            .writes
            .iter()
            .any(|w| !w.partial && matches!(w.location, Location::State(ImplicitReg::Scc)));
        if self.scc != wave.scc || scc_written {
            out.push(TraceChange::Scc {
                old: self.scc,
                new: wave.scc,
            });
        }
        let mut shown: Vec<u16> = Vec::new();
        for w in &self.writes {
            let Location::Vgprs { index, count } = w.location else {
                continue;
            };
            // A 64-bit float is a register pair: one value.
            let pairs = w.ty == Some(DataType::F64) && count % 2 == 0;
            let step = if pairs { 2 } else { 1 };
            for v in (index..index + count).step_by(step) {
                if shown.contains(&v) {
                    continue;
                }
                shown.extend(v..v + step as u16);
                out.extend(self.vgpr_change(wave, w, v, pairs));
            }
        }
        out
    }

    /// VGPR `v` (with `pair`, `v` and `v + 1` as one 64-bit value) of
    /// write `w`: its written lanes (EXEC before, or `v_writelane`'s lane,
    /// unless the write is partial) and the lanes whose value changed.
    fn vgpr_change(&self, wave: &Wave, w: &Written, v: u16, pair: bool) -> Option<TraceChange> {
        let before = |r: u16| self.vgprs.iter().find(|(x, _)| *x == r).map(|(_, l)| l);
        let r = usize::from(v);
        if r >= wave.vgpr.len() || (pair && r + 1 >= wave.vgpr.len()) {
            return None;
        }
        let (Some(b0), b1) = (before(v), before(v + 1)) else {
            return None;
        };
        let value = |l: usize| -> u64 {
            if pair {
                u64::from(wave.vgpr[r][l]) | u64::from(wave.vgpr[r + 1][l]) << 32
            } else {
                u64::from(wave.vgpr[r][l])
            }
        };
        let old = |l: usize| -> u64 {
            if pair {
                u64::from(b0[l]) | u64::from(b1.map_or(0, |x| x[l])) << 32
            } else {
                u64::from(b0[l])
            }
        };
        let mut mask = if w.partial && !self.lane_write {
            0
        } else {
            self.lanes
        };
        for l in 0..WAVE_SIZE {
            if old(l) != value(l) {
                mask |= 1 << l;
            }
        }
        if mask == 0 {
            return None;
        }
        let lanes = (0..WAVE_SIZE).filter(|&l| mask >> l & 1 != 0);
        Some(if pair {
            TraceChange::VgprPair {
                reg: v,
                lanes: lanes
                    .map(|l| LanePairChange {
                        lane: l as u8,
                        old: old(l),
                        new: value(l),
                    })
                    .collect(),
            }
        } else {
            TraceChange::Vgpr {
                reg: v,
                lanes: lanes
                    .map(|l| LaneChange {
                        lane: l as u8,
                        old: old(l) as u32,
                        new: value(l) as u32,
                    })
                    .collect(),
                float: w.float(),
            }
        })
    }
}
