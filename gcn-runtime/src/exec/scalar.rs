//! Scalar ALU and program control: SOP2, SOP1, SOPK, SOPC, SOPP.
//!
//! Semantics follow the `Operation:` text of `GcnInstrsSop2.md`,
//! `GcnInstrsSop1.md`, `GcnInstrsSopk.md`, `GcnInstrsSopc.md` and
//! `GcnInstrsSopp.md`. Operands are used in the row's syntax order:
//! SOP2 `sdst ssrc0 ssrc1`, SOP1 `sdst ssrc0`, SOPK `sdst simm16`,
//! SOPC `ssrc0 ssrc1`, SOPP `simm16`/`reladdr`.

use gcn_asm::isa::InstrRow;
use gcn_asm::GcnVersion;

use super::{Env, Fault, FaultKind, Handler, Op, Step, Wave};

/// Coerces a closure to a [`Handler`].
const fn h(f: Handler) -> Option<Handler> {
    Some(f)
}

/// `sdst = f(ssrc0, ssrc1, &mut scc)` on 32 bits.
#[inline]
fn sop2_32(w: &mut Wave, op: &Op, f: impl Fn(u32, u32, &mut bool) -> u32) -> Result<Step, Fault> {
    let a = w.read_s32(op.src(1));
    let b = w.read_s32(op.src(2));
    let mut scc = w.scc;
    let r = f(a, b, &mut scc);
    w.scc = scc;
    w.set_s32(op.reg(0), r);
    Ok(Step::Next)
}

/// `sdst = f(ssrc0, ssrc1, &mut scc)` on 64 bits (ssrc1 read as 64 bits).
#[inline]
fn sop2_64(w: &mut Wave, op: &Op, f: impl Fn(u64, u64, &mut bool) -> u64) -> Result<Step, Fault> {
    let a = w.read_s64(op.src(1));
    let b = w.read_s64(op.src(2));
    let mut scc = w.scc;
    let r = f(a, b, &mut scc);
    w.scc = scc;
    w.set_s64(op.reg(0), r);
    Ok(Step::Next)
}

/// `sdst = f(ssrc0)` on 32 bits.
#[inline]
fn sop1_32(w: &mut Wave, op: &Op, f: impl Fn(u32, &mut bool) -> u32) -> Result<Step, Fault> {
    let a = w.read_s32(op.src(1));
    let mut scc = w.scc;
    let r = f(a, &mut scc);
    w.scc = scc;
    w.set_s32(op.reg(0), r);
    Ok(Step::Next)
}

/// `sdst = f(ssrc0)` on 64 bits.
#[inline]
fn sop1_64(w: &mut Wave, op: &Op, f: impl Fn(u64, &mut bool) -> u64) -> Result<Step, Fault> {
    let a = w.read_s64(op.src(1));
    let mut scc = w.scc;
    let r = f(a, &mut scc);
    w.scc = scc;
    w.set_s64(op.reg(0), r);
    Ok(Step::Next)
}

/// SCC = f(ssrc0, ssrc1) on 32 bits.
#[inline]
fn sopc_32(w: &mut Wave, op: &Op, f: impl Fn(u32, u32) -> bool) -> Result<Step, Fault> {
    w.scc = f(w.read_s32(op.src(0)), w.read_s32(op.src(1)));
    Ok(Step::Next)
}

/// Branches to operand 0 (a byte offset in the code) when `taken`.
#[inline]
fn branch_if(w: &mut Wave, op: &Op, taken: bool) -> Result<Step, Fault> {
    if taken {
        w.pc = w.read_s64(op.src(0)) as u32;
    }
    Ok(Step::Next)
}

/// The handler of a scalar ALU or program-control row.
pub fn handler(row: &InstrRow, _version: GcnVersion) -> Option<Handler> {
    match row.mnemonic {
        // SOP2
        "s_add_u32" => h(|w, op, _| {
            sop2_32(w, op, |a, b, scc| {
                let (r, c) = a.overflowing_add(b);
                *scc = c;
                r
            })
        }),
        "s_sub_u32" => h(|w, op, _| {
            sop2_32(w, op, |a, b, scc| {
                let (r, c) = a.overflowing_sub(b);
                *scc = c;
                r
            })
        }),
        "s_add_i32" => h(|w, op, _| {
            sop2_32(w, op, |a, b, scc| {
                let (r, o) = (a as i32).overflowing_add(b as i32);
                *scc = o;
                r as u32
            })
        }),
        "s_sub_i32" => h(|w, op, _| {
            sop2_32(w, op, |a, b, scc| {
                let (r, o) = (a as i32).overflowing_sub(b as i32);
                *scc = o;
                r as u32
            })
        }),
        "s_addc_u32" => h(|w, op, _| {
            sop2_32(w, op, |a, b, scc| {
                let r = u64::from(a) + u64::from(b) + u64::from(*scc);
                *scc = r >> 32 != 0;
                r as u32
            })
        }),
        "s_mul_i32" => h(|w, op, _| sop2_32(w, op, |a, b, _| a.wrapping_mul(b))),
        "s_and_b32" => h(|w, op, _| {
            sop2_32(w, op, |a, b, scc| {
                let r = a & b;
                *scc = r != 0;
                r
            })
        }),
        "s_or_b32" => h(|w, op, _| {
            sop2_32(w, op, |a, b, scc| {
                let r = a | b;
                *scc = r != 0;
                r
            })
        }),
        "s_and_b64" => h(|w, op, _| {
            sop2_64(w, op, |a, b, scc| {
                let r = a & b;
                *scc = r != 0;
                r
            })
        }),
        "s_or_b64" => h(|w, op, _| {
            sop2_64(w, op, |a, b, scc| {
                let r = a | b;
                *scc = r != 0;
                r
            })
        }),
        "s_xor_b64" => h(|w, op, _| {
            sop2_64(w, op, |a, b, scc| {
                let r = a ^ b;
                *scc = r != 0;
                r
            })
        }),
        "s_andn2_b64" => h(|w, op, _| {
            sop2_64(w, op, |a, b, scc| {
                let r = a & !b;
                *scc = r != 0;
                r
            })
        }),
        "s_lshl_b32" => h(|w, op, _| {
            sop2_32(w, op, |a, b, scc| {
                let r = a << (b & 31);
                *scc = r != 0;
                r
            })
        }),
        "s_lshr_b32" => h(|w, op, _| {
            sop2_32(w, op, |a, b, scc| {
                let r = a >> (b & 31);
                *scc = r != 0;
                r
            })
        }),
        // SOP1
        "s_mov_b32" => h(|w, op, _| sop1_32(w, op, |a, _| a)),
        "s_mov_b64" => h(|w, op, _| sop1_64(w, op, |a, _| a)),
        "s_and_saveexec_b64" => h(|w, op, _| {
            let s = w.read_s64(op.src(1));
            let exec = w.exec();
            w.set_s64(op.reg(0), exec);
            let r = s & exec;
            w.set_exec(r);
            w.scc = r != 0;
            Ok(Step::Next)
        }),
        "s_getpc_b64" => h(|w, op, env| {
            // The PC already points at the next instruction.
            w.set_s64(op.reg(0), env.code_base + u64::from(w.pc));
            Ok(Step::Next)
        }),
        // SOPK
        "s_movk_i32" => h(|w, op, _| {
            let v = w.read_s32(op.src(1)) as u16 as i16 as i32 as u32;
            w.set_s32(op.reg(0), v);
            Ok(Step::Next)
        }),
        // SOPC
        "s_cmp_eq_u32" | "s_cmp_eq_i32" => h(|w, op, _| sopc_32(w, op, |a, b| a == b)),
        "s_cmp_lg_u32" | "s_cmp_lg_i32" => h(|w, op, _| sopc_32(w, op, |a, b| a != b)),
        "s_cmp_lt_u32" => h(|w, op, _| sopc_32(w, op, |a, b| a < b)),
        "s_cmp_lt_i32" => h(|w, op, _| sopc_32(w, op, |a, b| (a as i32) < (b as i32))),
        // SOPP
        "s_nop" | "s_waitcnt" | "s_sleep" | "s_setprio" | "s_icache_inv" => {
            h(|_, _, _| Ok(Step::Next))
        }
        "s_endpgm" => h(|_, _, _| Ok(Step::End)),
        "s_barrier" => h(|_, _, _| Ok(Step::Barrier)),
        "s_branch" => h(|w, op, _| branch_if(w, op, true)),
        "s_cbranch_scc0" => h(|w, op, _| {
            let t = !w.scc;
            branch_if(w, op, t)
        }),
        "s_cbranch_scc1" => h(|w, op, _| {
            let t = w.scc;
            branch_if(w, op, t)
        }),
        "s_cbranch_vccz" => h(|w, op, _| {
            let t = w.vcc() == 0;
            branch_if(w, op, t)
        }),
        "s_cbranch_vccnz" => h(|w, op, _| {
            let t = w.vcc() != 0;
            branch_if(w, op, t)
        }),
        "s_cbranch_execz" => h(|w, op, _| {
            let t = w.exec() == 0;
            branch_if(w, op, t)
        }),
        "s_cbranch_execnz" => h(|w, op, _| {
            let t = w.exec() != 0;
            branch_if(w, op, t)
        }),
        "s_trap" => h(|w, op, _| Err(Fault::new(FaultKind::Trap(w.read_s32(op.src(0)) & 0xff)))),
        _ => None,
    }
}

#[allow(dead_code)]
fn _env_used(_: &Env<'_>) {}
