//! [`super::Check::LdsRace`], and the LDS bytes' definedness of
//! [`super::Check::Uninit`] ([`super::defined`]): a shadow of the
//! work-group's LDS fed by the log of accesses the interpreter's one LDS
//! address function (`exec::lds::lds_index`) fills while checks are on.
//!
//! A race is two different waves touching the same byte between two
//! `s_barrier`s, at least one writing (RAW, WAR, WAW); atomics neither race
//! nor are raced with. Lanes of one wave never race with each other (they
//! execute in lockstep).
//!
//! The race shadow is one bitmap per wave and kind (read, written), a bit
//! per LDS byte, holding what the wave did since the last barrier: a
//! wave's access of a run of bytes tests the other waves' bitmaps 64 bytes
//! at a time, so the check costs little per access and is exact to the
//! byte. Each wave also lists the runs it touched (with their PCs), which
//! clears its bits at the barrier and names the access a race is with.

use super::facts::LdsUse;
use super::{Check, GroupCheck};
use crate::exec::MemAccess;

/// One access of a wave since the last barrier.
#[derive(Debug, Clone, Copy)]
struct Run {
    start: usize,
    end: usize,
    pc: u32,
    write: bool,
}

/// What one wave did to LDS since the last barrier.
#[derive(Debug, Default)]
struct WaveBits {
    /// Bytes read: bit `b % 64` of word `b / 64` (empty until the wave's
    /// first access).
    read: Vec<u64>,
    /// Bytes written.
    written: Vec<u64>,
    /// The runs accessed, in order.
    runs: Vec<Run>,
}

/// The words of a bitmap covering bytes `[start, end)`, with the mask of
/// the bits in range of each.
#[inline(always)]
fn words(start: usize, end: usize) -> impl Iterator<Item = (usize, u64)> {
    let (first, last) = (start / 64, (end - 1) / 64);
    (first..=last).map(move |w| {
        let lo = if w == first { start % 64 } else { 0 };
        let hi = if w == last { (end - 1) % 64 + 1 } else { 64 };
        let mask = if hi - lo == 64 {
            u64::MAX
        } else {
            ((1u64 << (hi - lo)) - 1) << lo
        };
        (w, mask)
    })
}

/// The first byte of `[start, end)` set in `bits`.
#[inline(always)]
fn first_set(bits: &[u64], start: usize, end: usize) -> Option<usize> {
    words(start, end).find_map(|(w, mask)| {
        let hit = bits.get(w).copied().unwrap_or(0) & mask;
        (hit != 0).then(|| w * 64 + hit.trailing_zeros() as usize)
    })
}

/// The LDS shadow of a work-group.
pub(crate) struct Shadow {
    /// Bytes of LDS.
    size: usize,
    /// Per wave of the group: its accesses since the last barrier.
    waves: Vec<WaveBits>,
    /// The waves with accesses since the last barrier (bit per wave).
    active: u64,
    /// One bit per byte, set while the byte is undefined (nothing in the
    /// work-group wrote it, or something wrote undefined bits).
    undefined: Vec<u64>,
    /// Per dword: where its undefined bytes came from
    /// ([`super::defined::Origin`] id, 0: nothing wrote them).
    origin: Vec<u32>,
}

impl Shadow {
    pub(crate) fn new(size: u32, waves: u32) -> Self {
        let size = size as usize;
        Shadow {
            size,
            waves: (0..if size == 0 { 0 } else { waves })
                .map(|_| WaveBits::default())
                .collect(),
            active: 0,
            undefined: vec![u64::MAX; size.div_ceil(64)],
            origin: vec![0; size.div_ceil(4)],
        }
    }

    /// True when a byte of `[start, start + len)` is undefined.
    #[inline]
    pub(crate) fn any_undefined(&self, start: usize, len: usize) -> bool {
        let end = (start + len).min(self.size);
        let mut b = start;
        while b < end {
            let word = self.undefined[b / 64] >> (b % 64);
            let n = (64 - b % 64).min(end - b);
            let mask = if n == 64 { u64::MAX } else { (1 << n) - 1 };
            if word & mask != 0 {
                return true;
            }
            b += n;
        }
        false
    }

    /// Marks `[start, start + len)` defined.
    #[inline]
    pub(crate) fn define(&mut self, start: usize, len: usize) {
        let end = (start + len).min(self.size);
        let mut b = start;
        while b < end {
            let n = (64 - b % 64).min(end - b);
            let mask = if n == 64 {
                u64::MAX
            } else {
                ((1u64 << n) - 1) << (b % 64)
            };
            self.undefined[b / 64] &= !mask;
            b += n;
        }
    }

    /// Every wave met at the barrier: the accesses before it no longer
    /// race with those after.
    pub(crate) fn barrier(&mut self) {
        let mut active = self.active;
        while active != 0 {
            let w = active.trailing_zeros() as usize;
            active &= active - 1;
            let Some(bits) = self.waves.get_mut(w) else {
                continue;
            };
            for run in bits.runs.drain(..) {
                for (i, mask) in words(run.start, run.end) {
                    bits.read[i] &= !mask;
                    bits.written[i] &= !mask;
                }
            }
        }
        self.active = 0;
    }

    /// Whether byte `at` is defined, and the origin of its undefined value.
    pub(crate) fn defined(&self, at: usize) -> Option<(bool, u32)> {
        if at >= self.size {
            return None;
        }
        let origin = self.origin[at / 4];
        Some((self.undefined[at / 64] >> (at % 64) & 1 == 0, origin))
    }

    /// Sets the definedness of byte `at`.
    pub(crate) fn set_defined(&mut self, at: usize, defined: bool, origin: u32) {
        if at < self.size {
            if !defined {
                self.origin[at / 4] = origin;
            }
            if defined {
                self.undefined[at / 64] &= !(1 << (at % 64));
            } else {
                self.undefined[at / 64] |= 1 << (at % 64);
            }
        }
    }
}

/// Processes the LDS accesses instruction `pc` of wave `wave` logged.
///
/// Always inlined into the hook: there the compiler hoists the level test
/// out of the loops.
#[inline(always)]
pub(crate) fn after(g: &mut GroupCheck<'_>, wave: u32, pc: u32, kind: LdsUse, log: &[MemAccess]) {
    if !matches!(kind, LdsUse::Read | LdsUse::Write) {
        return;
    }
    let write = kind == LdsUse::Write;
    let me = wave as usize;
    let size = g.lds.size;
    let words_needed = size.div_ceil(64);
    // A race found: (byte, the other wave, what it did, its PC).
    let mut race_at: Option<(usize, usize, &str, u32)> = None;
    for a in log.iter().filter(|a| a.lds) {
        let start = (a.address as usize).min(size);
        let end = (a.address as usize)
            .saturating_add(a.span() as usize)
            .min(size);
        if start >= end {
            continue;
        }
        let shadow = &mut g.lds;
        if race_at.is_none() {
            let mut others = shadow.active & !(1u64 << (me & 63));
            while others != 0 && race_at.is_none() {
                let o = others.trailing_zeros() as usize;
                others &= others - 1;
                let Some(other) = shadow.waves.get(o) else {
                    continue;
                };
                // A read races with the other wave's writes; a write with
                // its reads and writes.
                let found = match first_set(&other.written, start, end) {
                    Some(byte) => Some((byte, "wrote", true)),
                    None if write => {
                        first_set(&other.read, start, end).map(|byte| (byte, "read", false))
                    }
                    None => None,
                };
                if let Some((byte, did, wrote)) = found {
                    let other_pc = other
                        .runs
                        .iter()
                        .rev()
                        .find(|r| r.write == wrote && r.start <= byte && byte < r.end)
                        .map_or(0, |r| r.pc);
                    race_at = Some((byte, o, did, other_pc));
                }
            }
        }
        let Some(bits) = shadow.waves.get_mut(me) else {
            continue;
        };
        if bits.read.is_empty() {
            bits.read = vec![0; words_needed];
            bits.written = vec![0; words_needed];
        }
        let map = if write {
            &mut bits.written
        } else {
            &mut bits.read
        };
        for (i, mask) in words(start, end) {
            map[i] |= mask;
        }
        // Consecutive runs of one instruction join.
        match bits.runs.last_mut() {
            Some(r) if r.pc == pc && r.write == write && r.end == start => r.end = end,
            _ => bits.runs.push(Run {
                start,
                end,
                pc,
                write,
            }),
        }
        shadow.active |= 1u64 << (me & 63);
    }
    if let Some((byte, other, did, other_pc)) = race_at {
        let verb = if write { "writes" } else { "reads" };
        g.report(
            Check::LdsRace,
            wave,
            pc,
            format!(
                "{verb} LDS byte {byte:#x}, which wave {other} {did} since the last s_barrier (a data race)"
            ),
            Some(other_pc),
            None,
        );
    }
}
