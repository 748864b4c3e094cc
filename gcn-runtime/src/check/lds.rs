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
//! The race shadow keeps, per wave and kind (read, written), a bit per LDS
//! byte holding what the wave did since the last barrier, and per 64-byte
//! word of LDS the waves that touched the word. An access of a run of
//! bytes reads those wave masks of its words first: only a wave they name
//! can race with it, so the exact byte test of the bitmaps runs for those
//! alone (rarely: waves usually touch different words between barriers),
//! and the check stays exact to the byte. Each wave also lists the runs it
//! touched (with their PCs), which name the access a race is with.
//!
//! A barrier clears nothing but the run lists: it starts a new epoch. A
//! word's masks carry the epoch they were written in (an older one reads as
//! empty), and a wave's bits of a word count only while the word's masks
//! name the wave (the wave clears them when it first touches the word in an
//! epoch), so a barrier costs the same however many bytes the waves
//! touched.

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

/// An entry of [`Shadow::words`]: the waves that read ([`READ`]) and wrote
/// ([`WRITTEN`]) bytes of the word (bit per wave), and the
/// [`Shadow::epoch`] they belong to ([`EPOCH`]; in an older one the entry
/// is empty). Plain words, so that a new shadow is zeroed memory.
type Word = [u64; 3];

/// An entry of [`Shadow::bits`]: the bytes of the word a wave read
/// ([`READ`]) and wrote ([`WRITTEN`]), bit per byte.
type Bits = [u64; 2];

/// Index of the reads in a [`Word`] or [`Bits`].
const READ: usize = 0;
/// Index of the writes in a [`Word`] or [`Bits`].
const WRITTEN: usize = 1;
/// Index of a [`Word`]'s epoch.
const EPOCH: usize = 2;

/// A run of bytes as bitmap words: the first and last word, and the masks
/// of the bits in range in those two (the words between are whole).
type Span = (usize, usize, u64, u64);

/// The [`Span`] of bytes `[start, end)` (not empty).
#[inline(always)]
fn span(start: usize, end: usize) -> Span {
    let (first, last) = (start / 64, (end - 1) / 64);
    let head = u64::MAX << (start % 64);
    let tail = u64::MAX >> (63 - (end - 1) % 64);
    (first, last, head, tail)
}

/// The mask of word `w` of a [`span`].
#[inline(always)]
fn mask(w: usize, (first, last, head, tail): Span) -> u64 {
    (if w == first { head } else { u64::MAX }) & (if w == last { tail } else { u64::MAX })
}

/// The first byte of the span `sp` set in bits `kind` of wave `o`, whose
/// row of [`Shadow::bits`] is `row`, in epoch `epoch`.
#[inline(always)]
fn first_set(
    words: &[Word],
    row: &[Bits],
    o: usize,
    kind: usize,
    sp: Span,
    epoch: u64,
) -> Option<usize> {
    let o_bit = 1u64 << (o & 63);
    let (words, row) = (words.get(sp.0..=sp.1)?, row.get(sp.0..=sp.1)?);
    for (k, (word, bits)) in words.iter().zip(row).enumerate() {
        // The wave's bits of a word count while the word names it.
        let current = word[EPOCH] == epoch && (word[READ] | word[WRITTEN]) & o_bit != 0;
        let hit = if current { bits[kind] } else { 0 } & mask(sp.0 + k, sp);
        if hit != 0 {
            return Some((sp.0 + k) * 64 + hit.trailing_zeros() as usize);
        }
    }
    None
}

/// The LDS shadow of a work-group.
pub(crate) struct Shadow {
    /// Bytes of LDS.
    size: usize,
    /// Waves of the group whose accesses are recorded (0 without LDS).
    n_waves: usize,
    /// Barriers met since the start, with accesses before them: a [`Word`]
    /// of an older epoch is empty.
    epoch: u64,
    /// Per 64-byte word: the waves that touched it since the last barrier
    /// (empty until the first access).
    words: Vec<Word>,
    /// Per wave, per word (wave `w`'s row at `w * words.len()`): the bytes
    /// the wave touched since the last barrier, bit `b % 64` of word
    /// `b / 64`; stale unless the word of the current epoch names the wave.
    bits: Vec<Bits>,
    /// Per wave: the runs accessed since the last barrier, in order.
    runs: Vec<Vec<Run>>,
    /// The waves with accesses since the last barrier (bit per wave).
    active: u64,
    /// One bit per byte, set while the byte is undefined (nothing in the
    /// work-group wrote it, or something wrote undefined bits).
    undefined: Vec<u64>,
    /// Words of `undefined` with a bit set: 0 once the work-group wrote
    /// every byte, when the definedness tests need no look at the bits.
    undefined_words: usize,
    /// Per dword: where its undefined bytes came from
    /// ([`super::defined::Origin`] id, 0: nothing wrote them).
    origin: Vec<u32>,
}

impl Shadow {
    pub(crate) fn new(size: u32, waves: u32) -> Self {
        let mut shadow = Shadow {
            size: 0,
            n_waves: 0,
            epoch: 0,
            words: Vec::new(),
            bits: Vec::new(),
            runs: Vec::new(),
            active: 0,
            undefined: Vec::new(),
            undefined_words: 0,
            origin: Vec::new(),
        };
        shadow.reset(size, waves);
        shadow
    }

    /// The shadow of a work-group that starts now, as [`Shadow::new`]
    /// makes it, in this one's storage (a work-group's check state is
    /// reused by the next group its host thread runs).
    pub(crate) fn reset(&mut self, size: u32, waves: u32) {
        let size = size as usize;
        let n_waves = if size == 0 { 0 } else { waves as usize };
        // Every byte undefined; the bits past the last byte are not bytes.
        self.undefined.clear();
        self.undefined.resize(size.div_ceil(64), u64::MAX);
        if let Some(last) = self.undefined.last_mut() {
            if !size.is_multiple_of(64) {
                *last = (1u64 << (size % 64)) - 1;
            }
        }
        self.undefined_words = self.undefined.len();
        self.size = size;
        self.n_waves = n_waves;
        self.epoch = 0;
        self.words.clear();
        self.bits.clear();
        self.runs.truncate(n_waves);
        for runs in &mut self.runs {
            runs.clear();
        }
        self.runs.resize_with(n_waves, Vec::new);
        self.active = 0;
        self.origin.clear();
        self.origin.resize(size.div_ceil(4), 0);
    }

    /// True when a byte of `[start, start + len)` is undefined.
    #[inline]
    pub(crate) fn any_undefined(&self, start: usize, len: usize) -> bool {
        if self.undefined_words == 0 {
            return false;
        }
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
        if self.undefined_words == 0 {
            return;
        }
        let end = (start + len).min(self.size);
        let mut b = start;
        while b < end {
            let n = (64 - b % 64).min(end - b);
            let mask = if n == 64 {
                u64::MAX
            } else {
                ((1u64 << n) - 1) << (b % 64)
            };
            let word = &mut self.undefined[b / 64];
            let was = *word;
            *word &= !mask;
            if was != 0 && *word == 0 {
                self.undefined_words -= 1;
            }
            b += n;
        }
    }

    /// Every wave met at the barrier: the accesses before it no longer
    /// race with those after.
    #[inline]
    pub(crate) fn barrier(&mut self) {
        if self.active == 0 {
            // Nothing recorded since the last barrier: no entry of the
            // current epoch names a wave or holds a bit.
            return;
        }
        let mut active = self.active;
        while active != 0 {
            let w = active.trailing_zeros() as usize;
            active &= active - 1;
            if let Some(runs) = self.runs.get_mut(w) {
                runs.clear();
            }
        }
        self.active = 0;
        // Every entry of the old epoch now reads as empty.
        self.epoch += 1;
    }

    /// Records wave `me`'s access of kind `kind` ([`READ`], [`WRITTEN`])
    /// of the span `sp` (when `me` is a wave of the group), and returns the
    /// other waves that touched its words in a way it may race with
    /// (written; read too when `kind` is [`WRITTEN`]).
    #[inline(always)]
    fn touch(&mut self, me: usize, kind: usize, sp: Span) -> u64 {
        let (first, last, head, tail) = sp;
        let epoch = self.epoch;
        let me_bit = 1u64 << (me & 63);
        // A read races with writes; a write with reads and writes.
        let reads_race = if kind == WRITTEN { u64::MAX } else { 0 };
        let mut conflicts = 0;
        let n = self.words.len();
        let words = &mut self.words[first..=last];
        if me >= self.n_waves {
            for word in words.iter().filter(|word| word[EPOCH] == epoch) {
                conflicts |= word[WRITTEN] | word[READ] & reads_race;
            }
            return conflicts & !me_bit;
        }
        let count = words.len();
        let row = &mut self.bits[me * n + first..][..count];
        for k in 0..count {
            let word = &mut words[k];
            if word[EPOCH] != epoch {
                *word = [0, 0, epoch];
            }
            let (readers, writers) = (word[READ], word[WRITTEN]);
            conflicts |= writers | readers & reads_race;
            word[kind] |= me_bit;
            let own = &mut row[k];
            if (readers | writers) & me_bit == 0 {
                // The wave's first touch of the word in the epoch: its bits
                // are of an older one.
                *own = [0; 2];
            }
            let m = if k == 0 { head } else { u64::MAX };
            own[kind] |= if k == count - 1 { m & tail } else { m };
        }
        conflicts & !me_bit
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
            let word = &mut self.undefined[at / 64];
            let was = *word;
            if defined {
                *word &= !(1 << (at % 64));
            } else {
                *word |= 1 << (at % 64);
            }
            match (was != 0, *word != 0) {
                (true, false) => self.undefined_words -= 1,
                (false, true) => self.undefined_words += 1,
                _ => {}
            }
        }
    }

    /// [`Shadow::undefined_words`] counted afresh (for tests).
    #[cfg(test)]
    fn count_undefined_words(&self) -> usize {
        self.undefined.iter().filter(|&&w| w != 0).count()
    }
}

/// A race found: the byte, the other wave, what it did to the byte
/// ("wrote", "read") and the PC of that access.
type Race = (usize, usize, &'static str, u32);

impl Shadow {
    /// Records the LDS accesses in `log` of instruction `pc` (a read, or a
    /// write when `write`) of wave `me`, and returns the first race one of
    /// them is in with another wave's access since the last barrier.
    #[inline(always)]
    fn access(&mut self, me: usize, pc: u32, write: bool, log: &[MemAccess]) -> Option<Race> {
        let bit = if write { WRITTEN } else { READ };
        let size = self.size;
        let mut race_at: Option<Race> = None;
        // A write of the values that were there changes nothing another
        // wave could see (LLVM lowers an atomic exchange whose result is
        // unused to a plain store, which every lane of every wave may do).
        for a in log.iter().filter(|a| a.in_lds() && !(write && a.unchanged)) {
            let start = (a.address as usize).min(size);
            let end = (a.address as usize)
                .saturating_add(a.span() as usize)
                .min(size);
            if start >= end {
                continue;
            }
            if self.words.is_empty() {
                let words = size.div_ceil(64);
                self.words = vec![[0; 3]; words];
                self.bits = vec![[0; 2]; words * self.n_waves];
            }
            let sp = span(start, end);
            let mut others = self.touch(me, bit, sp);
            // The waves in `others` may have touched the bytes; the first
            // (in wave order) whose bits say they did is the race.
            while others != 0 && race_at.is_none() {
                let o = others.trailing_zeros() as usize;
                others &= others - 1;
                let n = self.words.len();
                let Some(row) = self.bits.get(o * n..(o + 1) * n) else {
                    continue;
                };
                let (words, epoch) = (&self.words, self.epoch);
                let found = match first_set(words, row, o, WRITTEN, sp, epoch) {
                    Some(byte) => Some((byte, "wrote", true)),
                    None if write => {
                        first_set(words, row, o, READ, sp, epoch).map(|byte| (byte, "read", false))
                    }
                    None => None,
                };
                if let Some((byte, did, wrote)) = found {
                    let other_pc = self
                        .runs
                        .get(o)
                        .and_then(|runs| {
                            runs.iter()
                                .rev()
                                .find(|r| r.write == wrote && r.start <= byte && byte < r.end)
                        })
                        .map_or(0, |r| r.pc);
                    race_at = Some((byte, o, did, other_pc));
                }
            }
            let Some(runs) = self.runs.get_mut(me) else {
                continue;
            };
            // Consecutive runs of one instruction join.
            match runs.last_mut() {
                Some(r) if r.pc == pc && r.write == write && r.end == start => r.end = end,
                _ => runs.push(Run {
                    start,
                    end,
                    pc,
                    write,
                }),
            }
            self.active |= 1u64 << (me & 63);
        }
        race_at
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
    if let Some((byte, other, did, other_pc)) = g.lds.access(wave as usize, pc, write, log) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::testing::Rng;

    /// The race rule byte by byte, from the runs alone: the reference the
    /// bitmaps must agree with.
    #[derive(Default)]
    struct Model {
        /// Per wave: (start, end, pc, write) since the last barrier.
        runs: Vec<Vec<(usize, usize, u32, bool)>>,
    }

    impl Model {
        fn access(
            &mut self,
            me: usize,
            pc: u32,
            write: bool,
            runs: &[(usize, usize)],
        ) -> Option<Race> {
            let mut race = None;
            for &(start, end) in runs {
                for o in (0..self.runs.len()).filter(|&o| o != me) {
                    if race.is_some() {
                        break;
                    }
                    let first = |wrote: bool| {
                        (start..end).find(|&b| {
                            self.runs[o]
                                .iter()
                                .any(|r| r.3 == wrote && r.0 <= b && b < r.1)
                        })
                    };
                    let found = match first(true) {
                        Some(b) => Some((b, "wrote", true)),
                        None if write => first(false).map(|b| (b, "read", false)),
                        None => None,
                    };
                    if let Some((b, did, wrote)) = found {
                        let pc = self.runs[o]
                            .iter()
                            .rev()
                            .find(|r| r.3 == wrote && r.0 <= b && b < r.1)
                            .map_or(0, |r| r.2);
                        race = Some((b, o, did, pc));
                    }
                }
                self.runs[me].push((start, end, pc, write));
            }
            race
        }
    }

    /// Random accesses and barriers: the shadow finds the races the model
    /// does, with the same byte, wave and PC.
    #[test]
    fn the_shadow_agrees_with_a_byte_by_byte_model() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15u64);
        let mut next = move |n: u64| rng.below(n);
        for round in 0..200 {
            let size = [256, 1000, 1024, 4096][round % 4];
            let waves = 1 + next(6);
            let mut shadow = Shadow::new(size as u32, waves as u32);
            let mut model = Model {
                runs: vec![Vec::new(); waves],
            };
            let mut found = 0;
            for step in 0..300 {
                if next(12) == 0 {
                    shadow.barrier();
                    model.runs.iter_mut().for_each(Vec::clear);
                    continue;
                }
                let me = next(waves as u64);
                let write = next(2) == 0;
                let pc = step * 4;
                let log: Vec<MemAccess> = (0..1 + next(3))
                    .map(|_| {
                        let len = [1, 2, 4, 8, 16][next(5)];
                        let lanes = if next(2) == 0 { 4 } else { 64 };
                        MemAccess {
                            count: 1 + next(lanes) as u8,
                            ..MemAccess::one(0, true, next(size as u64 + 64) as u64, len, 0)
                        }
                    })
                    .collect();
                let runs: Vec<(usize, usize)> = log
                    .iter()
                    .map(|a| {
                        let start = (a.address as usize).min(size);
                        (start, (a.address + a.span()).min(size as u64) as usize)
                    })
                    .filter(|(s, e)| s < e)
                    .collect();
                let want = model.access(me, pc as u32, write, &runs);
                let got = shadow.access(me, pc as u32, write, &log);
                assert_eq!(got, want, "round {round} step {step}");
                found += usize::from(got.is_some());
            }
            assert!(waves == 1 || found > 0, "round {round}: no race to compare");
        }
    }

    /// Random definitions and byte updates against a byte-by-byte model:
    /// the tests agree, and the count of undefined words that lets them
    /// skip the bits stays exact.
    #[test]
    fn definedness_agrees_with_a_byte_model() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1du64);
        let mut next = move |n: u64| rng.below(n);
        for round in 0..100 {
            let size = [100, 256, 1000, 1024][round % 4];
            let mut shadow = Shadow::new(size as u32, 2);
            let mut model = vec![true; size];
            for step in 0..400 {
                let start = next(size as u64 + 16);
                let len = 1 + next(300);
                match next(4) {
                    0 => {
                        let at = next(size as u64);
                        let defined = next(3) != 0;
                        shadow.set_defined(at, defined, 1);
                        model[at] = !defined;
                    }
                    1 | 2 => {
                        shadow.define(start, len);
                        for b in model.iter_mut().take((start + len).min(size)).skip(start) {
                            *b = false;
                        }
                    }
                    _ => {}
                }
                let want = model
                    .iter()
                    .take((start + len).min(size))
                    .skip(start)
                    .any(|&u| u);
                assert_eq!(
                    shadow.any_undefined(start, len),
                    want,
                    "round {round} step {step}"
                );
                assert_eq!(
                    shadow.undefined_words,
                    shadow.count_undefined_words(),
                    "round {round} step {step}"
                );
            }
        }
    }
}
