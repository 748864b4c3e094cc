//! Buffer memory: MUBUF and MTBUF, addressed through a buffer resource
//! (V#).
//!
//! Semantics follow `GcnInstrsMubuf.md`, `GcnInstrsMtbuf.md` and the
//! buffer seeds (descriptor fields, addressing, range checking): an
//! out-of-range read returns 0 and an out-of-range write is dropped.

use gcn_asm::decode::MemFlags;
use gcn_asm::isa::InstrRow;
use gcn_asm::GcnVersion;

use super::vector::{lanes_u32, lanes_u64, write_vgpr};
use super::{Env, Fault, Handler, Op, Step, Wave, WAVE_SIZE};

/// Coerces a closure to a [`Handler`].
const fn h(f: Handler) -> Option<Handler> {
    Some(f)
}

/// The fields of a buffer resource the addressing uses.
#[derive(Debug, Clone, Copy)]
struct Resource {
    base: u64,
    stride: u64,
    num_records: u64,
}

fn resource(w: &Wave, op: &Op) -> Resource {
    let r = op.reg(2);
    let w0 = w.sgpr[usize::from(r) & 127];
    let w1 = w.sgpr[usize::from(r + 1) & 127];
    let w2 = w.sgpr[usize::from(r + 2) & 127];
    Resource {
        base: u64::from(w0) | (u64::from(w1 & 0xffff) << 32),
        stride: u64::from((w1 >> 16) & 0x3fff),
        num_records: u64::from(w2),
    }
}

/// Per-lane addresses (`None` when out of range).
fn addresses(w: &Wave, op: &Op) -> [Option<u64>; WAVE_SIZE] {
    let m = &op.instr.mods.mem;
    let res = resource(w, op);
    let soffset = u64::from(w.read_s32(op.src(3)));
    let inst = m.offset as u32 as u64;
    let f = m.flags;
    let (offen, idxen, addr64) = (
        f.contains(MemFlags::OFFEN),
        f.contains(MemFlags::IDXEN),
        f.contains(MemFlags::ADDR64),
    );
    let vaddr = op.src(1);
    let v0 = lanes_u32(w, vaddr);
    let v1 = match vaddr {
        super::Src::Vgpr(r) if idxen && offen => w.vgpr.get(usize::from(r) + 1).copied(),
        _ => None,
    }
    .unwrap_or([0; WAVE_SIZE]);
    let v64 = if addr64 {
        lanes_u64(w, vaddr)
    } else {
        [0; WAVE_SIZE]
    };
    std::array::from_fn(|l| {
        let index = if idxen { u64::from(v0[l]) } else { 0 };
        let voff = match (offen, idxen) {
            (true, true) => u64::from(v1[l]),
            (true, false) => u64::from(v0[l]),
            _ => 0,
        };
        let offset = voff + inst;
        if addr64 {
            return Some(res.base + v64[l] + soffset + inst);
        }
        let in_range = if res.stride == 0 {
            offset < res.num_records
        } else {
            index < res.num_records
        };
        in_range.then(|| res.base + soffset + index * res.stride + offset)
    })
}

fn load_dwords(w: &mut Wave, op: &Op, env: &mut Env<'_>, count: usize) -> Result<Step, Fault> {
    let addrs = addresses(w, op);
    let exec = w.exec();
    let dst = usize::from(op.reg(0));
    for i in 0..count {
        let mut out = [0u32; WAVE_SIZE];
        for lane in 0..WAVE_SIZE {
            if exec >> lane & 1 != 0 {
                if let Some(a) = addrs[lane] {
                    out[lane] = env
                        .mem
                        .read_u32(a + 4 * i as u64)
                        .map_err(|m| Fault::memory(m, lane))?;
                }
            }
        }
        write_vgpr(w, dst + i, &out, exec);
    }
    Ok(Step::Next)
}

fn store_dwords(w: &mut Wave, op: &Op, env: &mut Env<'_>, count: usize) -> Result<Step, Fault> {
    let addrs = addresses(w, op);
    let exec = w.exec();
    let data = usize::from(op.reg(0));
    for i in 0..count {
        let values = w.vgpr[data + i];
        for lane in 0..WAVE_SIZE {
            if exec >> lane & 1 != 0 {
                if let Some(a) = addrs[lane] {
                    env.mem
                        .write_u32(a + 4 * i as u64, values[lane])
                        .map_err(|m| Fault::memory(m, lane))?;
                }
            }
        }
    }
    Ok(Step::Next)
}

/// The handler of a MUBUF or MTBUF row.
pub fn handler(row: &InstrRow, _version: GcnVersion) -> Option<Handler> {
    match row.mnemonic {
        "buffer_load_dword" => h(|w, op, env| load_dwords(w, op, env, 1)),
        "buffer_store_dword" => h(|w, op, env| store_dwords(w, op, env, 1)),
        _ => None,
    }
}
