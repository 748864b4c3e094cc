//! Local data share: every DS instruction.
//!
//! Semantics follow `GcnInstrsDs.md`. The address of a lane is
//! `ADDR + OFFSET` in bytes within the work-group's LDS; an access past the
//! LDS allocation is a fault (the hardware returns 0 and drops writes;
//! reporting it catches the bug instead).

use gcn_asm::isa::InstrRow;
use gcn_asm::GcnVersion;

use super::vector::{lanes_u32, write_vgpr};
use super::{Env, Fault, FaultKind, Handler, Op, Step, Wave, WAVE_SIZE};

/// Coerces a closure to a [`Handler`].
const fn h(f: Handler) -> Option<Handler> {
    Some(f)
}

fn lds_range(env: &Env<'_>, addr: u32, len: u32, lane: usize) -> Result<usize, Fault> {
    let end = u64::from(addr) + u64::from(len);
    if end > env.lds.len() as u64 {
        return Err(Fault {
            kind: FaultKind::Lds {
                address: addr,
                size: env.lds.len() as u32,
            },
            lane: Some(lane as u8),
        });
    }
    Ok(addr as usize)
}

fn read_b32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    let addr = lanes_u32(w, op.src(1));
    let offset = op.instr.mods.mem.offset as u32;
    let exec = w.exec();
    let mut out = [0u32; WAVE_SIZE];
    for lane in 0..WAVE_SIZE {
        if exec >> lane & 1 != 0 {
            let a = lds_range(env, addr[lane].wrapping_add(offset), 4, lane)?;
            out[lane] = u32::from_le_bytes(env.lds[a..a + 4].try_into().unwrap_or([0; 4]));
        }
    }
    write_vgpr(w, usize::from(op.reg(0)), &out, exec);
    Ok(Step::Next)
}

fn write_b32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    let addr = lanes_u32(w, op.src(0));
    let data = lanes_u32(w, op.src(1));
    let offset = op.instr.mods.mem.offset as u32;
    let exec = w.exec();
    for lane in 0..WAVE_SIZE {
        if exec >> lane & 1 != 0 {
            let a = lds_range(env, addr[lane].wrapping_add(offset), 4, lane)?;
            env.lds[a..a + 4].copy_from_slice(&data[lane].to_le_bytes());
        }
    }
    Ok(Step::Next)
}

/// The handler of a DS row.
pub fn handler(row: &InstrRow, _version: GcnVersion) -> Option<Handler> {
    match row.mnemonic {
        "ds_read_b32" => h(read_b32),
        "ds_write_b32" => h(write_b32),
        _ => None,
    }
}
