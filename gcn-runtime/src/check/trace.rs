//! The instruction trace: per executed instruction of the selected waves,
//! the PC, the disassembly and the registers it changed (SGPRs, VCC, EXEC,
//! M0, SCC; VGPRs per lane, compactly), each a typed [`TraceChange`].
//! [`Launcher::trace`](crate::Launcher::trace) delivers one [`TraceRecord`]
//! per instruction to a callback; `gcnrun --trace` prints them.

use std::fmt;

use super::facts::{Facts, Regs};
use crate::exec::{sreg, Wave, WAVE_SIZE};

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
    /// The registers it changed, in register order; they print (joined
    /// by spaces) as `s4=0x10 scc=1 v3[0–63]=0x3f800000`.
    pub changes: Vec<TraceChange>,
}

/// One register an instruction changed, with its value before and after
/// (a [`TraceRecord`] lists them in register order: SGPRs by code, with
/// VCC, M0 and EXEC at theirs, then SCC, then the VGPRs).
///
/// Its [`fmt::Display`] is the trace's text: `s4=0x10`, `vcc=0x3`,
/// `exec=0xffff`, `m0=0x100`, `scc=1`, `v3[0–63]=0x3f800000` (every
/// changed lane the same value) or `v3={0:0x1, 1:0x2, 2:0x3, 3:0x4 … 64
/// lanes}` (differing values, the first four shown).
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
    },
    /// VCC (one or both halves changed).
    Vcc {
        /// Value before.
        old: u64,
        /// Value after.
        new: u64,
    },
    /// EXEC (one or both halves changed).
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
    /// A VGPR: the lanes whose value changed, in lane order.
    Vgpr {
        /// The VGPR (`v{reg}`).
        reg: u16,
        /// Each changed lane with its old and new value.
        lanes: Vec<LaneChange>,
    },
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

impl TraceChange {
    /// The lanes a [`TraceChange::Vgpr`] changed, as a mask (0 for the
    /// scalar changes).
    pub fn lane_mask(&self) -> u64 {
        match self {
            TraceChange::Vgpr { lanes, .. } => lanes.iter().fold(0, |m, l| m | 1 << l.lane),
            _ => 0,
        }
    }
}

impl fmt::Display for TraceChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceChange::Sgpr { reg, new, .. } => write!(f, "{}={new:#x}", Regs::s(*reg, 1)),
            TraceChange::Vcc { new, .. } => write!(f, "vcc={new:#x}"),
            TraceChange::Exec { new, .. } => write!(f, "exec={new:#x}"),
            TraceChange::M0 { new, .. } => write!(f, "m0={new:#x}"),
            TraceChange::Scc { new, .. } => write!(f, "scc={}", u8::from(*new)),
            TraceChange::Vgpr { reg, lanes } => {
                let Some(first) = lanes.first() else {
                    return write!(f, "v{reg}={{}}");
                };
                if lanes.iter().all(|l| l.new == first.new) {
                    return write!(
                        f,
                        "v{reg}[{}]={:#x}",
                        super::lane_list(self.lane_mask()),
                        first.new
                    );
                }
                write!(f, "v{reg}={{")?;
                for (i, l) in lanes.iter().enumerate() {
                    if i == 4 {
                        write!(f, " … {} lanes", lanes.len())?;
                        break;
                    }
                    write!(
                        f,
                        "{}{}:{:#x}",
                        if i > 0 { ", " } else { "" },
                        l.lane,
                        l.new
                    )?;
                }
                f.write_str("}")
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

/// The state saved before an instruction, to report what it changed.
#[derive(Default)]
pub(crate) struct Snapshot {
    sgpr: Vec<u32>,
    scc: bool,
    /// (VGPR, lanes before).
    vgprs: Vec<(u16, [u32; WAVE_SIZE])>,
}

impl Snapshot {
    pub(crate) fn take(&mut self, wave: &Wave, f: &Facts) {
        self.sgpr.clear();
        self.sgpr.extend_from_slice(&wave.sgpr);
        self.scc = wave.scc;
        self.vgprs.clear();
        for r in f.writes().iter().filter(|r| r.vector) {
            for v in r.first..r.first + r.count {
                if let Some(lanes) = wave.vgpr.get(usize::from(v)) {
                    self.vgprs.push((v, *lanes));
                }
            }
        }
    }

    /// The changes since [`Snapshot::take`].
    pub(crate) fn changes(&self, wave: &Wave) -> Vec<TraceChange> {
        let mut out = Vec::new();
        let pair = |code: u16, regs: &[u32]| {
            u64::from(regs[usize::from(code)]) | u64::from(regs[usize::from(code) + 1]) << 32
        };
        let mut code = 0u16;
        while usize::from(code) < self.sgpr.len().min(wave.sgpr.len()) {
            let (before, after) = (&self.sgpr[..], &wave.sgpr[..]);
            // VCC and EXEC are one 64-bit change each, at their low half.
            if code == sreg::VCC || code == sreg::EXEC {
                let (old, new) = (pair(code, before), pair(code, after));
                if old != new {
                    out.push(if code == sreg::VCC {
                        TraceChange::Vcc { old, new }
                    } else {
                        TraceChange::Exec { old, new }
                    });
                }
                code += 2;
                continue;
            }
            let (old, new) = (before[usize::from(code)], after[usize::from(code)]);
            if old != new {
                out.push(if code == sreg::M0 {
                    TraceChange::M0 { old, new }
                } else {
                    TraceChange::Sgpr {
                        reg: code,
                        old,
                        new,
                    }
                });
            }
            code += 1;
        }
        if self.scc != wave.scc {
            out.push(TraceChange::Scc {
                old: self.scc,
                new: wave.scc,
            });
        }
        for (v, before) in &self.vgprs {
            let after = &wave.vgpr[usize::from(*v)];
            let lanes: Vec<LaneChange> = (0..WAVE_SIZE)
                .filter(|&l| before[l] != after[l])
                .map(|l| LaneChange {
                    lane: l as u8,
                    old: before[l],
                    new: after[l],
                })
                .collect();
            if !lanes.is_empty() {
                out.push(TraceChange::Vgpr { reg: *v, lanes });
            }
        }
        out
    }
}
