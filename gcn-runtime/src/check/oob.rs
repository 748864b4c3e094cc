//! The `oob` check: a kernel's access to device memory past the bytes of
//! an allocation (memcheck's "invalid read/write").
//!
//! Allocations are mapped in whole 4 KiB pages ([`crate::memory`]), as the
//! GPU maps them: an access that leaves the allocated bytes but stays in
//! the allocation's last page completes as on hardware (a read returns
//! what the slack holds, a write lands there). This check finds those
//! accesses in the instruction's access log (`exec::Env::log`),
//! comparing each logged device-memory access of a lane with the exact
//! bounds of its allocation. Not reported: LDS (its own bounds fault),
//! private (scratch) memory, and buffer accesses outside their
//! descriptor's range (defined behaviour: reads return 0, writes are
//! dropped, and the interpreter does not log them). An access outside
//! every mapped page never reaches the check: it is a memory fault.

use gcn_asm::isa::{flags, Unit};

use super::{Check, Facts, GroupCheck};
use crate::exec::{MemAccess, Op};

/// The first stray access of an instruction, and where it lies.
struct Stray {
    address: u64,
    len: u32,
    base: u64,
    size: u64,
}

/// Processes the device-memory accesses instruction `pc` of wave `wave`
/// logged: one report naming every lane that left its allocation.
pub(crate) fn after(
    g: &mut GroupCheck<'_>,
    wave: u32,
    pc: u32,
    op: &Op,
    f: &Facts,
    log: &[MemAccess],
) {
    let Some(mem) = g.mem else {
        return;
    };
    let (scratch_base, scratch_size) = g.scratch;
    let mut lanes = 0u64;
    let mut first: Option<Stray> = None;
    // The allocation of the previous access: the lanes of an instruction
    // nearly always address one buffer.
    let mut last: Option<(u64, u64, u64)> = None;
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
            lanes |= 1 << (a.lane & 63);
            first.get_or_insert(Stray {
                address: a.address,
                len: u32::from(a.len),
                base,
                size,
            });
        }
    }
    let Some(s) = first else {
        return;
    };
    let row = op.instr.row;
    let verb = if row.has(flags::ATOMIC) {
        "updates"
    } else if row.has(flags::STORE) {
        "writes"
    } else {
        "reads"
    };
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

#[cfg(test)]
mod tests;
