//! [`super::Check::LdsRace`], and the LDS bytes' definedness of
//! [`super::Check::Uninit`] ([`super::defined`]): a shadow of the work-group's LDS, one entry per byte, fed by the log of
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

/// The shadow of one LDS byte.
#[derive(Debug, Clone, Copy)]
struct Byte {
    /// The barrier epoch the race fields belong to.
    epoch: u32,
    /// The wave that wrote it in this epoch, or [`NONE`].
    writer: u8,
    /// The waves that read it in this epoch (bit per wave).
    readers: u16,
    /// PC of the last access in this epoch.
    pc: u32,
    /// Where its undefined value came from ([`super::defined::Origin`] id,
    /// 0: nothing wrote it).
    origin: u32,
}

/// The LDS shadow of a work-group.
pub(crate) struct Shadow {
    bytes: Vec<Byte>,
    /// One bit per byte, set while the byte is undefined (nothing in the
    /// work-group wrote it, or something wrote undefined bits).
    undefined: Vec<u64>,
    epoch: u32,
}

impl Shadow {
    pub(crate) fn new(size: u32) -> Self {
        Shadow {
            bytes: vec![
                Byte {
                    epoch: 0,
                    writer: NONE,
                    readers: 0,
                    pc: 0,
                    origin: 0,
                };
                size as usize
            ],
            undefined: vec![u64::MAX; (size as usize).div_ceil(64)],
            epoch: 1,
        }
    }

    /// True when a byte of `[start, start + len)` is undefined.
    #[inline]
    pub(crate) fn any_undefined(&self, start: usize, len: usize) -> bool {
        let end = (start + len).min(self.bytes.len());
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
        let end = (start + len).min(self.bytes.len());
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
        let b = self.bytes.get(at)?;
        Some((self.undefined[at / 64] >> (at % 64) & 1 == 0, b.origin))
    }

    /// Sets the definedness of byte `at`.
    pub(crate) fn set_defined(&mut self, at: usize, defined: bool, origin: u32) {
        if let Some(b) = self.bytes.get_mut(at) {
            b.origin = if defined { 0 } else { origin };
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
/// Always inlined into the hook: there the compiler hoists the `race` and
/// `init` level tests out of the per-byte loops (callgrind: the LDS-heavy
/// `checks/lds-race` kernel costs 26 % more host instructions when LLVM
/// chooses to call it instead).
#[inline(always)]
pub(crate) fn after(g: &mut GroupCheck<'_>, wave: u32, pc: u32, kind: LdsUse, log: &[MemAccess]) {
    let race = g.options.lds_race != super::Level::Off;
    let me = wave as u8;
    let mut race_finding: Option<(String, u32)> = None;
    let epoch = g.lds.epoch;
    let me_bit = 1u16 << (me & 15);
    let size = g.lds.bytes.len();
    // A race found: (byte, the other wave, what it did, its PC).
    let mut race_at: Option<(usize, u8, &str, u32)> = None;
    for a in log.iter().filter(|a| a.lds) {
        let (address, len) = (a.address, a.span());
        let start = (address as usize).min(size);
        let end = (address as usize).saturating_add(len as usize).min(size);
        let bytes = &mut g.lds.bytes[start..end];
        // One loop per kind: the per-byte work is the check's cost.
        match kind {
            LdsUse::Read => {
                for (k, b) in bytes.iter_mut().enumerate() {
                    if b.epoch != epoch {
                        *b = Byte {
                            epoch,
                            writer: NONE,
                            readers: 0,
                            ..*b
                        };
                    }
                    if race && b.writer != NONE && b.writer != me && race_at.is_none() {
                        race_at = Some((start + k, b.writer, "wrote", b.pc));
                    }
                    b.readers |= me_bit;
                    b.pc = pc;
                }
            }
            LdsUse::Write => {
                for (k, b) in bytes.iter_mut().enumerate() {
                    if b.epoch != epoch {
                        b.epoch = epoch;
                    } else if race && race_at.is_none() {
                        let other_readers = b.readers & !me_bit;
                        if b.writer != NONE && b.writer != me {
                            race_at = Some((start + k, b.writer, "wrote", b.pc));
                        } else if other_readers != 0 {
                            let other = other_readers.trailing_zeros() as u8;
                            race_at = Some((start + k, other, "read", b.pc));
                        }
                    }
                    b.writer = me;
                    b.readers = 0;
                    b.pc = pc;
                }
            }
            LdsUse::Atomic => {}
            LdsUse::None => {}
        }
    }
    if let Some((byte, other, did, other_pc)) = race_at {
        let verb = if kind == LdsUse::Read {
            "reads"
        } else {
            "writes"
        };
        race_finding = Some((
            format!(
                "{verb} LDS byte {byte:#x}, which wave {other} {did} since the last s_barrier (a data race)"
            ),
            other_pc,
        ));
    }
    if let Some((message, related)) = race_finding {
        g.report(Check::LdsRace, wave, pc, message, Some(related), None);
    }
}
