//! [`super::Check::LdsRace`], and the LDS bytes' definedness of
//! [`super::Check::Uninit`] ([`super::defined`]): a shadow of the
//! work-group's LDS, one entry per dword with byte masks (and a bit per
//! byte for definedness), fed by the log of
//! accesses the interpreter's one LDS address function
//! (`exec::lds::lds_index`) fills while checks are on.
//!
//! A race is two different waves touching the same byte between two
//! `s_barrier`s, at least one writing (RAW, WAR, WAW); atomics neither race
//! nor are raced with. Lanes of one wave never race with each other (they
//! execute in lockstep).

use super::facts::LdsUse;
use super::{Check, GroupCheck};
use crate::exec::MemAccess;

/// No wave.
const NONE: u8 = u8::MAX;

/// The shadow of one LDS dword: per byte, who touched it since the last
/// barrier (the race check works on dwords with byte masks, so a wave's
/// dword access costs one step, not four).
#[derive(Debug, Clone, Copy)]
struct Word {
    /// The barrier epoch the race fields belong to.
    epoch: u32,
    /// PC of the last access in this epoch.
    pc: u32,
    /// Bytes each wave read in this epoch: wave `w` in bits `4w ..4w + 4`.
    readers: u64,
    /// The wave that last wrote in this epoch, or [`NONE`].
    writer: u8,
    /// The bytes that wave wrote (another wave's earlier bytes are
    /// forgotten when it writes others: a missed race, never a false one).
    written: u8,
    /// Where the dword's undefined bytes came from
    /// ([`super::defined::Origin`] id, 0: nothing wrote them).
    origin: u32,
}

impl Word {
    /// Forgets the accesses of an earlier barrier epoch.
    #[inline(always)]
    fn renew(&mut self, epoch: u32) {
        *self = Word {
            epoch,
            readers: 0,
            writer: NONE,
            written: 0,
            ..*self
        };
    }
}

/// The LDS shadow of a work-group.
pub(crate) struct Shadow {
    words: Vec<Word>,
    /// Bytes of LDS.
    size: usize,
    /// One bit per byte, set while the byte is undefined (nothing in the
    /// work-group wrote it, or something wrote undefined bits).
    undefined: Vec<u64>,
    epoch: u32,
}

impl Shadow {
    pub(crate) fn new(size: u32) -> Self {
        Shadow {
            words: vec![
                Word {
                    epoch: 0,
                    pc: 0,
                    readers: 0,
                    writer: NONE,
                    written: 0,
                    origin: 0,
                };
                (size as usize).div_ceil(4)
            ],
            size: size as usize,
            undefined: vec![u64::MAX; (size as usize).div_ceil(64)],
            epoch: 1,
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

    pub(crate) fn barrier(&mut self) {
        self.epoch += 1;
    }

    /// Whether byte `at` is defined, and the origin of its undefined value.
    pub(crate) fn defined(&self, at: usize) -> Option<(bool, u32)> {
        if at >= self.size {
            return None;
        }
        let origin = self.words[at / 4].origin;
        Some((self.undefined[at / 64] >> (at % 64) & 1 == 0, origin))
    }

    /// Sets the definedness of byte `at`.
    pub(crate) fn set_defined(&mut self, at: usize, defined: bool, origin: u32) {
        if at < self.size {
            if !defined {
                self.words[at / 4].origin = origin;
            }
            if defined {
                self.undefined[at / 64] &= !(1 << (at % 64));
            } else {
                self.undefined[at / 64] |= 1 << (at % 64);
            }
        }
    }
}

/// The race a write of bytes `m` of dword `word` by wave `me` makes with
/// what `w` recorded: (byte, the other wave, what it did, its PC).
#[cold]
fn write_race(w: &Word, me: u8, mine: u64, m: u8, word: usize) -> (usize, u8, &'static str, u32) {
    if w.writer != me && w.written & m != 0 {
        let byte = word * 4 + (w.written & m).trailing_zeros() as usize;
        return (byte, w.writer, "wrote", w.pc);
    }
    let others = w.readers & !mine & (u64::from(m) * 0x1111_1111_1111_1111);
    let other = (others.trailing_zeros() / 4) as u8;
    let bits = (others >> (4 * u32::from(other))) as u8 & 0xf;
    (
        word * 4 + bits.trailing_zeros() as usize,
        other,
        "read",
        w.pc,
    )
}

/// Processes the LDS accesses instruction `pc` of wave `wave` logged.
///
/// Always inlined into the hook: there the compiler hoists the level test
/// out of the per-dword loops.
#[inline(always)]
pub(crate) fn after(g: &mut GroupCheck<'_>, wave: u32, pc: u32, kind: LdsUse, log: &[MemAccess]) {
    if !matches!(kind, LdsUse::Read | LdsUse::Write) {
        return;
    }
    let me = (wave & 15) as u8;
    let epoch = g.lds.epoch;
    let mine = 0xfu64 << (4 * me);
    let size = g.lds.size;
    // A race found: (byte, the other wave, what it did, its PC).
    let mut race_at: Option<(usize, u8, &str, u32)> = None;
    for a in log.iter().filter(|a| a.lds) {
        let start = (a.address as usize).min(size);
        let end = (a.address as usize)
            .saturating_add(a.span() as usize)
            .min(size);
        if start.is_multiple_of(4) && end.is_multiple_of(4) {
            // Whole dwords (nearly every access): one step each, one loop
            // per kind.
            let words = &mut g.lds.words[start / 4..end / 4];
            match kind {
                LdsUse::Read => {
                    for (k, w) in words.iter_mut().enumerate() {
                        if w.epoch != epoch {
                            w.renew(epoch);
                        } else if w.written != 0 && w.writer != me && race_at.is_none() {
                            let byte = start + 4 * k + w.written.trailing_zeros() as usize;
                            race_at = Some((byte, w.writer, "wrote", w.pc));
                        }
                        w.readers |= mine;
                        w.pc = pc;
                    }
                }
                _ => {
                    for (k, w) in words.iter_mut().enumerate() {
                        if w.epoch != epoch {
                            w.epoch = epoch;
                        } else if race_at.is_none()
                            && ((w.written != 0 && w.writer != me) || w.readers & !mine != 0)
                        {
                            race_at = Some(write_race(w, me, mine, 0xf, start / 4 + k));
                        }
                        w.readers = 0;
                        w.writer = me;
                        w.written = 0xf;
                        w.pc = pc;
                    }
                }
            }
            continue;
        }
        let mut b = start;
        while b < end {
            let word = b / 4;
            let first = b % 4;
            let last = (end - word * 4).min(4);
            // The bytes of this dword the access touches.
            let m = ((1u8 << last) - 1) & !((1u8 << first) - 1);
            b = word * 4 + 4;
            let w = &mut g.lds.words[word];
            if w.epoch != epoch {
                w.renew(epoch);
            }
            match kind {
                LdsUse::Read => {
                    if race_at.is_none() && w.writer != me && w.written & m != 0 {
                        let byte = word * 4 + (w.written & m).trailing_zeros() as usize;
                        race_at = Some((byte, w.writer, "wrote", w.pc));
                    }
                    w.readers |= u64::from(m) << (4 * me);
                }
                _ => {
                    if race_at.is_none() {
                        let spread = u64::from(m) * 0x1111_1111_1111_1111;
                        if (w.writer != me && w.written & m != 0) || w.readers & !mine & spread != 0
                        {
                            race_at = Some(write_race(w, me, mine, m, word));
                        }
                    }
                    w.readers &= !(u64::from(m) * 0x1111_1111_1111_1111);
                    if w.writer == me {
                        w.written |= m;
                    } else {
                        w.writer = me;
                        w.written = m;
                    }
                }
            }
            w.pc = pc;
        }
    }
    if let Some((byte, other, did, other_pc)) = race_at {
        let verb = if kind == LdsUse::Read {
            "reads"
        } else {
            "writes"
        };
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
