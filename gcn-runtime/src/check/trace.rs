//! The instruction trace: per executed instruction of the selected waves,
//! the PC, the disassembly and the registers it changed (SGPRs, VCC, EXEC,
//! M0, SCC; VGPRs per lane, compactly). [`crate::Program::launch_traced`]
//! delivers one [`TraceRecord`] per instruction to a callback; `gcnrun
//! --trace` prints them.

use std::fmt::{self, Write as _};

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
    /// The registers it changed, e.g. `s4=0x10 scc=1 v3[0–63]=0x3f800000`.
    pub changes: String,
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
            f.write_str(&self.instruction)
        } else {
            write!(f, "{:<40} ; {}", self.instruction, self.changes)
        }
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
    /// True when the row's operand type is a float: the trace shows the
    /// value as a number beside the bits.
    fn float(&self) -> bool {
        matches!(
            self.ty,
            Some(DataType::F16 | DataType::F32 | DataType::F64 | DataType::PkF16)
        )
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

    /// The registers written since [`Snapshot::take`], as text: every
    /// register the instruction writes (even with the value it had) and
    /// any other that changed; floats also as numbers.
    pub(crate) fn changes(&self, wave: &Wave) -> String {
        let mut out = String::new();
        for (code, (&before, &after)) in self.sgpr.iter().zip(wave.sgpr.iter()).enumerate() {
            let code = code as u16;
            let written = self.writes.iter().find(|w| {
                matches!(w.location, Location::Sgprs { code: c, count } if (c..c + count).contains(&code))
            });
            if before == after && written.is_none_or(|w| w.partial) {
                continue;
            }
            let _ = write!(out, "{}={after:#x}", Regs::s(code, 1));
            if let Some(w) = written.filter(|w| w.float() && w.ty != Some(DataType::F64)) {
                let _ = write!(out, " ({})", float_value(w.ty, u64::from(after)));
            }
            out.push(' ');
        }
        let scc_written = self
            .writes
            .iter()
            .any(|w| !w.partial && matches!(w.location, Location::State(ImplicitReg::Scc)));
        if self.scc != wave.scc || scc_written {
            let _ = write!(out, "scc={} ", u8::from(wave.scc));
        }
        let mut shown: Vec<u16> = Vec::new();
        for w in &self.writes {
            let Location::Vgprs { index, count } = w.location else {
                continue;
            };
            // A 64-bit float is a register pair: shown as one value.
            let pairs = w.ty == Some(DataType::F64) && count % 2 == 0;
            let step = if pairs { 2 } else { 1 };
            for v in (index..index + count).step_by(step) {
                if shown.contains(&v) {
                    continue;
                }
                shown.extend(v..v + step as u16);
                self.vgpr_text(&mut out, wave, w, v, pairs);
            }
        }
        out.truncate(out.trim_end().len());
        out
    }

    /// Appends VGPR `v` (with `pair`, `v` and `v + 1` as one 64-bit value)
    /// of write `w`: its written lanes (EXEC before, or `v_writelane`'s
    /// lane, unless the write is partial) and the lanes whose value
    /// changed.
    fn vgpr_text(&self, out: &mut String, wave: &Wave, w: &Written, v: u16, pair: bool) {
        let before = |r: u16| self.vgprs.iter().find(|(x, _)| *x == r).map(|(_, l)| l);
        let value = |regs: &[[u32; WAVE_SIZE]], r: usize, l: usize| -> u64 {
            if pair {
                u64::from(regs[r][l]) | u64::from(regs.get(r + 1).map_or(0, |x| x[l])) << 32
            } else {
                u64::from(regs[r][l])
            }
        };
        let r = usize::from(v);
        if r >= wave.vgpr.len() || (pair && r + 1 >= wave.vgpr.len()) {
            return;
        }
        let (Some(b0), b1) = (before(v), before(v + 1)) else {
            return;
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
            if old(l) != value(&wave.vgpr, r, l) {
                mask |= 1 << l;
            }
        }
        if mask == 0 {
            return;
        }
        let lanes: Vec<usize> = (0..WAVE_SIZE).filter(|&l| mask >> l & 1 != 0).collect();
        let name = if pair {
            format!("v[{v}:{}]", v + 1)
        } else {
            format!("v{v}")
        };
        let shown = |x: u64| -> String {
            if w.float() {
                format!("{x:#x} ({})", float_value(w.ty, x))
            } else {
                format!("{x:#x}")
            }
        };
        let first = value(&wave.vgpr, r, lanes[0]);
        if lanes.iter().all(|&l| value(&wave.vgpr, r, l) == first) {
            let _ = write!(out, "{name}[{}]={} ", super::lane_list(mask), shown(first));
        } else {
            let _ = write!(out, "{name}={{");
            for (i, &l) in lanes.iter().enumerate() {
                if i == 4 {
                    let _ = write!(out, " … {} lanes", lanes.len());
                    break;
                }
                let sep = if i > 0 { ", " } else { "" };
                let _ = write!(out, "{sep}{l}:{}", shown(value(&wave.vgpr, r, l)));
            }
            out.push_str("} ");
        }
    }
}

/// The number the bits `x` of a float-typed register hold, in the shortest
/// text that reads back to the same value (`1.0`, `0.1`, `NaN`): an f32, the
/// low half for f16, both halves for packed f16 (`1.0, 2.0`), the pair for
/// f64.
fn float_value(ty: Option<DataType>, x: u64) -> String {
    match ty {
        Some(DataType::F64) => format!("{:?}", f64::from_bits(x)),
        Some(DataType::F16) => format!("{:?}", half::f16::from_bits(x as u16).to_f32()),
        Some(DataType::PkF16) => format!(
            "{:?}, {:?}",
            half::f16::from_bits(x as u16).to_f32(),
            half::f16::from_bits((x >> 16) as u16).to_f32()
        ),
        _ => format!("{:?}", f32::from_bits(x as u32)),
    }
}
