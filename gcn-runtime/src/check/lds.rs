//! [`super::Check::LdsRace`] and the LDS part of [`super::Check::Uninit`]:
//! a shadow of the work-group's LDS, one entry per byte, fed by the log of
//! accesses the interpreter's one LDS address function
//! (`exec::lds::lds_index`) fills while checks are on.
//!
//! A race is two different waves touching the same byte between two
//! `s_barrier`s, at least one writing (RAW, WAR, WAW); atomics neither race
//! nor are raced with. Lanes of one wave never race with each other (they
//! execute in lockstep).

use super::facts::LdsUse;
use super::{Check, GroupCheck};

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
    /// Something in the work-group wrote it.
    init: bool,
}

/// The LDS shadow of a work-group.
pub(crate) struct Shadow {
    bytes: Vec<Byte>,
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
                    init: false,
                };
                size as usize
            ],
            epoch: 1,
        }
    }

    pub(crate) fn barrier(&mut self) {
        self.epoch += 1;
    }
}

/// Processes the LDS accesses instruction `pc` of wave `wave` logged.
pub(crate) fn after(g: &mut GroupCheck<'_>, wave: u32, pc: u32, kind: LdsUse) {
    let log = std::mem::take(&mut *g.log.borrow_mut());
    let race = g.options.lds_race != super::Level::Off;
    let init = g.options.uninit != super::Level::Off;
    let me = wave as u8;
    let mut race_finding: Option<(String, u32)> = None;
    let mut init_finding: Option<u32> = None;
    let epoch = g.lds.epoch;
    for &(address, len) in &log {
        for a in address..address.saturating_add(len) {
            let Some(b) = g.lds.bytes.get_mut(a as usize) else {
                continue;
            };
            if b.epoch != epoch {
                b.epoch = epoch;
                b.writer = NONE;
                b.readers = 0;
            }
            let reads = matches!(kind, LdsUse::Read | LdsUse::Atomic);
            if init && reads && !b.init && init_finding.is_none() {
                init_finding = Some(a);
            }
            if race && kind != LdsUse::Atomic && race_finding.is_none() {
                let other_writer = b.writer != NONE && b.writer != me;
                let other_readers = b.readers & !(1u16 << (me & 15)) != 0;
                let what = match kind {
                    LdsUse::Read if other_writer => Some(("reads", "wave", b.writer)),
                    LdsUse::Write if other_writer => Some(("writes", "wave", b.writer)),
                    LdsUse::Write if other_readers => Some((
                        "writes",
                        "wave",
                        (b.readers & !(1u16 << (me & 15))).trailing_zeros() as u8,
                    )),
                    _ => None,
                };
                if let Some((verb, _, other)) = what {
                    let other_did = if b.writer != NONE && b.writer != me {
                        "wrote"
                    } else {
                        "read"
                    };
                    race_finding = Some((
                        format!(
                            "{verb} LDS byte {a:#x}, which wave {other} {other_did} since the last s_barrier (a data race)"
                        ),
                        b.pc,
                    ));
                }
            }
            match kind {
                LdsUse::Read => {
                    b.readers |= 1u16 << (me & 15);
                    b.pc = pc;
                }
                LdsUse::Write => {
                    b.writer = me;
                    b.readers = 0;
                    b.pc = pc;
                    b.init = true;
                }
                LdsUse::Atomic => b.init = true,
                LdsUse::None => {}
            }
        }
    }
    // Give the buffer back for reuse (no allocation per instruction).
    let mut log = log;
    log.clear();
    *g.log.borrow_mut() = log;
    if let Some((message, related)) = race_finding {
        g.report(Check::LdsRace, wave, pc, message, Some(related), None);
    }
    if let Some(a) = init_finding {
        g.report(
            Check::Uninit,
            wave,
            pc,
            format!("reads LDS byte {a:#x} before anything in the work-group wrote it"),
            None,
            None,
        );
    }
}
