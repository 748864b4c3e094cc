//! The `oob` check: a kernel's access to device memory past the bytes of
//! an allocation (memcheck's "invalid read/write").
//!
//! Allocations are mapped in whole 4 KiB pages ([`crate::memory`]), as the
//! GPU maps them: an access that leaves the allocated bytes but stays in
//! the allocation's last page completes as on hardware (a read returns
//! what the slack holds, a write lands there). This check finds those
//! accesses in the instruction's access log (`exec::Env::log`),
//! comparing each logged device-memory access of a lane with the exact
//! bounds of its allocation, and reports LDS accesses past the
//! work-group's LDS allocation (which the hardware drops: reads return 0).
//!
//! Partial loads are not reported, as Memcheck's `--partial-loads-ok`
//! (its default) does not: a load that starts inside an allocation, is
//! aligned to its natural alignment and runs past the end completes on
//! hardware (the bytes are mapped) and is what compilers emit — LLVM merges
//! kernel-argument loads into an `s_load_dwordx8` that reads past the
//! kernarg segment, `vloada_half3` reads 8 bytes of a 6-byte tail. The bytes
//! past the end are undefined for the `uninit` check. The natural
//! alignment is the access size up to 16 bytes for vector memory and 4 for
//! scalar memory, which is dword-granular whatever it loads. Stores and
//! atomics past the end are always reported.
//!
//! Not reported: private (scratch) memory, and buffer accesses outside
//! their descriptor's range (defined behaviour: reads return 0, writes are
//! dropped, and the interpreter does not log them). An access outside
//! every mapped page never reaches the check: it is a memory fault.

use gcn_asm::isa::{flags, Unit};

use super::{Check, Facts, GroupCheck};
use crate::exec::{MemAccess, Op, WAVE_SIZE};

/// An allocation as the check compares with it: base, size and mapped
/// size.
pub(crate) type Allocation = (u64, u64, u64);

/// The first stray access of an instruction, and where it lies.
struct Stray {
    address: u64,
    len: u32,
    base: u64,
    size: u64,
}

/// Processes the device-memory accesses instruction `pc` of wave `wave`
/// logged: one report naming every lane that left its allocation.
#[inline]
pub(crate) fn after(
    g: &mut GroupCheck<'_>,
    wave: u32,
    pc: u32,
    slot: usize,
    op: &Op,
    f: &Facts,
    log: &[MemAccess],
) {
    // The common case first, with a small frame: every logged access lies
    // inside the allocation this instruction used last time (not the
    // scratch memory, which the general walk skips).
    let (scratch_base, scratch_size) = g.scratch;
    if let Some(range) = last_allocation(g, slot) {
        if g.mem.is_some()
            && !(scratch_size != 0 && range.0 == scratch_base)
            && log.iter().all(|a| !a.lds && inside(range, a))
        {
            return;
        }
    }
    after_general(g, wave, pc, slot, op, f, log);
}

/// The bytes `[start, end)` of the allocation instruction `slot` last
/// accessed (the cache [`after`] keeps), if known.
#[inline]
pub(crate) fn last_allocation(g: &GroupCheck<'_>, slot: usize) -> Option<(u64, u64)> {
    let (base, size, _) = g.allocations.get(slot).copied().flatten()?;
    Some((base, base.saturating_add(size)))
}

/// The range of `GroupCheck::plain` that no access
/// lies in (`start <= first <= end - bytes` fails for every `bytes > 0`).
pub(crate) const NO_RANGE: [u64; 2] = [u64::MAX, u64::MAX];

/// Records `last` as the allocation instruction `slot` accessed last, in
/// both forms the checks keep it.
fn set_allocation(g: &mut GroupCheck<'_>, slot: usize, last: Option<Allocation>) {
    if let Some(cached) = g.allocations.get_mut(slot) {
        *cached = last;
    }
    if let Some(range) = g.plain.get_mut(slot) {
        *range = last.map_or(NO_RANGE, |(base, size, _)| {
            [base, base.saturating_add(size)]
        });
    }
}

/// True when access `a` lies inside the bytes `[start, end)`.
#[inline]
pub(crate) fn inside((start, end): (u64, u64), a: &MemAccess) -> bool {
    a.address >= start && a.address.saturating_add(a.span()) <= end
}

/// [`after`] in general: LDS accesses, another allocation, stray lanes.
#[inline(never)]
fn after_general(
    g: &mut GroupCheck<'_>,
    wave: u32,
    pc: u32,
    slot: usize,
    op: &Op,
    f: &Facts,
    log: &[MemAccess],
) {
    lds(g, wave, pc, op, log);
    let Some(mem) = g.mem else {
        return;
    };
    // Memcheck's partial-loads rule (module documentation); the lanes'
    // whole accesses are gathered only when a piece is stray.
    let load = is_load(op);
    let smem = f.unit == Unit::Smem;
    let mut ranges: Option<[(u64, u32); WAVE_SIZE]> = None;
    let (scratch_base, scratch_size) = g.scratch;
    let mut lanes = 0u64;
    let mut first: Option<Stray> = None;
    // The allocation of the previous access: the lanes of an instruction
    // nearly always address one buffer, the same each time it runs.
    let mut last: Option<Allocation> = g.allocations.get(slot).copied().flatten();
    for run in log.iter().filter(|a| !a.lds) {
        let (base, size, _) = match last {
            Some(l @ (base, _, mapped)) if run.address >= base && run.address - base < mapped => l,
            _ => {
                // The access completed, so a mapped page holds it.
                let Ok((alloc, _)) = mem.find(run.address, u64::from(run.len)) else {
                    continue;
                };
                let l = (alloc.base(), alloc.size(), alloc.mapped_size());
                last = Some(l);
                l
            }
        };
        if scratch_size != 0 && base == scratch_base {
            continue;
        }
        // The whole run inside (the common case), else lane by lane.
        let end = run.address.saturating_add(run.span());
        if run.address >= base && end <= base + size {
            continue;
        }
        for a in run.lanes() {
            let end = a.address.saturating_add(u64::from(a.len));
            if a.address >= base && end <= base + size {
                continue;
            }
            // The lane's whole access (a MUBUF access is logged a dword at
            // a time): what the rule judges and the report names.
            let (start, bytes) =
                ranges.get_or_insert_with(|| lane_ranges(log))[usize::from(a.lane) & 63];
            if load && partial_load_ok(smem, (start, bytes), base, size) {
                continue;
            }
            lanes |= 1 << (a.lane & 63);
            first.get_or_insert(Stray {
                address: start,
                len: bytes,
                base,
                size,
            });
        }
    }
    set_allocation(g, slot, last);
    let Some(s) = first else {
        return;
    };
    let verb = verb(op);
    let end = s.base + s.size;
    let place = if s.address < s.base {
        format!("{} bytes before", s.base - s.address)
    } else if s.address >= end {
        format!("{} bytes past the end of", s.address - end)
    } else {
        format!(
            "its last {} bytes past the end of",
            s.address + u64::from(s.len) - end
        )
    };
    let owner = crate::launch::pointer_args(g.values, s.base, s.size);
    let message = format!(
        "{verb} {} bytes at {:#x}, {place} the {}-byte allocation at {:#x}{owner}",
        s.len, s.address, s.size, s.base
    );
    let lanes = (f.unit != Unit::Smem).then_some(lanes);
    g.report(Check::Oob, wave, pc, message, None, lanes);
}

/// True for an instruction that only reads memory (the partial-loads rule
/// applies to it).
fn is_load(op: &Op) -> bool {
    let row = op.instr.row;
    !row.has(flags::STORE) && !row.has(flags::ATOMIC)
}

/// Each lane's device-memory access of one instruction as one range (first
/// byte, bytes; bytes 0 for a lane without one): the families log a
/// lane's access in pieces (MUBUF one dword at a time).
#[cold]
pub(crate) fn lane_ranges(log: &[MemAccess]) -> [(u64, u32); WAVE_SIZE] {
    let mut out = [(u64::MAX, 0u32); WAVE_SIZE];
    for a in log.iter().filter(|a| !a.lds) {
        for piece in a.lanes() {
            let r = &mut out[usize::from(piece.lane) & 63];
            r.0 = r.0.min(piece.address);
            r.1 += u32::from(piece.len);
        }
    }
    out
}

/// Memcheck's partial-loads rule: a lane's load of `bytes` at `start`,
/// part of which lies past the end of the allocation `[base, base + size)`,
/// is no error when it starts inside it at its natural alignment (the
/// access size up to 16; 4 for scalar memory, `smem`).
pub(crate) fn partial_load_ok(
    smem: bool,
    (start, bytes): (u64, u32),
    base: u64,
    size: u64,
) -> bool {
    let natural = if smem {
        4
    } else {
        u64::from(bytes).next_power_of_two().clamp(1, 16)
    };
    start >= base && start - base < size && start % natural == 0
}

/// What instruction `op` does to memory, as a report says it.
fn verb(op: &Op) -> &'static str {
    let row = op.instr.row;
    if row.has(flags::ATOMIC) {
        "updates"
    } else if row.has(flags::STORE) {
        "writes"
    } else {
        "reads"
    }
}

/// The LDS half of the check, for every instruction that logs LDS
/// accesses (DS, and FLAT and MUBUF `lds` forms through [`after`]): the
/// common case — no access reaches past the bytes the group declared — is
/// one pass over the log; [`lds_after`] reports the others.
#[inline]
pub(crate) fn lds(g: &mut GroupCheck<'_>, wave: u32, pc: u32, op: &Op, log: &[MemAccess]) {
    let declared = u64::from(g.lds_declared);
    if log
        .iter()
        .any(|a| a.lds && (a.outside || a.address + a.span() > declared))
    {
        lds_after(g, wave, pc, op, log);
    }
}

/// Reports the LDS accesses of instruction `pc` past the work-group's LDS
/// allocation (logged [`MemAccess::outside`]), which the hardware dropped,
/// and those that start at or past the end of the bytes the group
/// declared, which complete in the allocation's last granule. An access
/// that starts inside the declared bytes and runs into the granule's slack
/// is what compiled code does (a `half3` stored as four halves at the end
/// of a `__local` array) and completes unreported.
#[cold]
#[inline(never)]
fn lds_after(g: &mut GroupCheck<'_>, wave: u32, pc: u32, op: &Op, log: &[MemAccess]) {
    let declared = u64::from(g.lds_declared);
    let mut lanes = 0u64;
    let mut first: Option<(u64, u16, bool)> = None;
    for a in log.iter().filter(|a| a.lds) {
        for l in a.lanes() {
            if l.outside || l.address >= declared {
                lanes |= 1 << (l.lane & 63);
                first.get_or_insert((l.address, l.len, l.outside));
            }
        }
    }
    let Some((address, len, outside)) = first else {
        return;
    };
    let size = g.lds_bytes;
    let message = if outside {
        format!(
            "{} {len} bytes at LDS byte {address:#x}, past the end of the work-group's \
             {size}-byte LDS allocation (the hardware drops the access: a read returns 0, a \
             write does nothing)",
            verb(op)
        )
    } else {
        format!(
            "{} {len} bytes at LDS byte {address:#x}, past the {declared} bytes of LDS the \
             work-group declared (inside its {size}-byte allocation, which is whole granules)",
            verb(op)
        )
    };
    g.report(Check::Oob, wave, pc, message, None, Some(lanes));
}

#[cfg(test)]
mod tests;
