//! The instruction trace: per executed instruction of the selected waves,
//! the PC, the disassembly and the registers it changed (SGPRs, VCC, EXEC,
//! M0, SCC; VGPRs per lane, compactly). [`crate::Program::launch_traced`]
//! delivers one [`TraceRecord`] per instruction to a callback; `gcnrun
//! --trace` prints them.

use std::fmt::{self, Write as _};

use super::facts::{Facts, Regs};
use crate::exec::{Wave, WAVE_SIZE};

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

    /// The changes since [`Snapshot::take`], as text.
    pub(crate) fn changes(&self, wave: &Wave) -> String {
        let mut out = String::new();
        for (code, (&before, &after)) in self.sgpr.iter().zip(wave.sgpr.iter()).enumerate() {
            if before != after {
                let _ = write!(out, "{}={after:#x} ", Regs::s(code as u16, 1));
            }
        }
        if self.scc != wave.scc {
            let _ = write!(out, "scc={} ", u8::from(wave.scc));
        }
        for (v, before) in &self.vgprs {
            let after = &wave.vgpr[usize::from(*v)];
            let changed: Vec<usize> = (0..WAVE_SIZE).filter(|&l| before[l] != after[l]).collect();
            let Some(&first) = changed.first() else {
                continue;
            };
            let mask = changed.iter().fold(0u64, |m, &l| m | 1 << l);
            if changed.iter().all(|&l| after[l] == after[first]) {
                let _ = write!(out, "v{v}[{}]={:#x} ", super::lane_list(mask), after[first]);
            } else {
                let _ = write!(out, "v{v}={{");
                for (i, &l) in changed.iter().enumerate() {
                    if i == 4 {
                        let _ = write!(out, " … {} lanes", changed.len());
                        break;
                    }
                    let _ = write!(out, "{}{l}:{:#x}", if i > 0 { ", " } else { "" }, after[l]);
                }
                out.push_str("} ");
            }
        }
        out.truncate(out.trim_end().len());
        out
    }
}
