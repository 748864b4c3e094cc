//! Flat memory: FLAT (GCN 1.1+), GLOBAL and SCRATCH (GCN 1.4).
//!
//! Semantics follow `GcnInstrsFlat.md`. A FLAT address inside the shared
//! aperture reaches the work-group's LDS, one inside the private aperture
//! the wave's scratch memory, any other address global memory. The
//! apertures are what `src_shared_base`/`src_private_base` (GCN 1.4)
//! return.

use gcn_asm::isa::InstrRow;
use gcn_asm::GcnVersion;

use super::vector::{lanes_u32, lanes_u64, write_vgpr};
use super::{Env, Fault, Handler, Op, Step, Wave, WAVE_SIZE};

/// Start of the shared (LDS) aperture of flat addresses.
pub const SHARED_APERTURE: u64 = 0x1000_0000_0000;
/// Start of the private (scratch) aperture of flat addresses.
pub const PRIVATE_APERTURE: u64 = 0x2000_0000_0000;
/// Size of each aperture.
pub const APERTURE_SIZE: u64 = 1 << 32;

/// Coerces a closure to a [`Handler`].
const fn h(f: Handler) -> Option<Handler> {
    Some(f)
}

fn load_dword(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    let addr = lanes_u64(w, op.src(1));
    let offset = op.instr.mods.mem.offset as i64 as u64;
    let exec = w.exec();
    let mut out = [0u32; WAVE_SIZE];
    for lane in 0..WAVE_SIZE {
        if exec >> lane & 1 != 0 {
            out[lane] = env
                .mem
                .read_u32(addr[lane].wrapping_add(offset))
                .map_err(|m| Fault::memory(m, lane))?;
        }
    }
    write_vgpr(w, usize::from(op.reg(0)), &out, exec);
    Ok(Step::Next)
}

fn store_dword(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    let addr = lanes_u64(w, op.src(0));
    let data = lanes_u32(w, op.src(1));
    let offset = op.instr.mods.mem.offset as i64 as u64;
    let exec = w.exec();
    for lane in 0..WAVE_SIZE {
        if exec >> lane & 1 != 0 {
            env.mem
                .write_u32(addr[lane].wrapping_add(offset), data[lane])
                .map_err(|m| Fault::memory(m, lane))?;
        }
    }
    Ok(Step::Next)
}

/// The handler of a FLAT, GLOBAL or SCRATCH row.
pub fn handler(row: &InstrRow, _version: GcnVersion) -> Option<Handler> {
    match row.mnemonic {
        "flat_load_dword" => h(load_dword),
        "flat_store_dword" => h(store_dword),
        _ => None,
    }
}
