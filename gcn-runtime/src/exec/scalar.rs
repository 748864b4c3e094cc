//! Scalar ALU and program control: SOP2, SOP1, SOPK, SOPC, SOPP.
//!
//! Semantics follow the `Operation:` text of `GcnInstrsSop2.md`,
//! `GcnInstrsSop1.md`, `GcnInstrsSopk.md`, `GcnInstrsSopc.md` and
//! `GcnInstrsSopp.md`. Operands are used in the row's syntax order:
//! SOP2 `sdst ssrc0 ssrc1`, SOP1 `sdst ssrc0`, SOPK `sdst simm16`,
//! SOPC `ssrc0 ssrc1`, SOPP `simm16`/`reladdr`.
//!
//! Where the CLRX text is visibly wrong the AMD ISA manuals win, and the
//! arm says so: `s_orn2_saveexec_b64` (the CLRX page lists two bodies, both
//! of other instructions), `s_flbit_i32_i64` (a 32-bit shift in the loop),
//! `s_movk_i32` ("SCC = SIMM16").
//!
//! Program counter: `wave.pc` is a byte offset in `.text` and already points
//! at the next instruction when a handler runs; device addresses (what
//! `s_getpc_b64` returns and `s_setpc_b64` takes) are `env.code_base` plus
//! that offset. A jump outside the code is left for the loop to report as
//! [`FaultKind::OutsideCode`].
//!
//! What the emulator does not model, and how each instruction behaves:
//! - no debugger, no trap handler, no performance counters, no thread
//!   trace: `s_cbranch_cdbg*` never branch; `s_incperflevel`,
//!   `s_decperflevel`, `s_ttracedata`, `s_nop`, `s_sleep` (but see below), `s_waitcnt`
//!   (memory completes at once), `s_icache_inv`, `s_wakeup` do nothing;
//!   `s_trap` stops the dispatch with [`FaultKind::Trap`];
//! - `s_setprio` records WAVE_PRIO in STATUS (scheduling is not modelled);
//! - `s_sendmsg sendmsg(interrupt)` is the hostcall doorbell of HIP
//!   kernels: with a hostcall buffer ([`crate::hostcall`]) the host serves
//!   the ready packets there and then, and `s_sleep` lets it look too;
//!   without one both do nothing. Every other message, and
//!   `s_sendmsghalt`, stop with an "unsupported" fault naming the message;
//! - `s_sethalt 1` and `s_setkill 1` (halting or killing the wave) stop with
//!   an "unsupported" fault; with 0 they do nothing;
//! - `s_setvskip` that turns VSKIP on stops as not emulated (vector
//!   instructions would have to be skipped); turning it off does nothing;
//! - GPR indexing (GCN 1.2+): `s_set_gpr_idx_on/off/idx/mode` and
//!   `s_setreg` of MODE.GPR_IDX_EN update MODE and M0 as documented; the
//!   vector ALU then indexes its VGPR operands (see `exec::gpr_indexed`);
//!   `s_setreg` that enables MODE.EXCP_EN or MODE.DEBUG is not emulated
//!   (no exceptions are raised);
//! - `s_rfe_b64`/`s_rfe_restore_b64` (return from the trap handler) have no
//!   semantics.
//!
//! GCN 1.5 and RDNA 2 (no CLRX `Operation:` text; the RDNA ISA guides and
//! LLVM):
//! - `*_saveexec_b32`/`*_wrexec_b32` work on EXEC_LO alone (EXEC_HI keeps
//!   its value in wave64 too) with a one-register SDST;
//! - `s_movrelsd_2_b32`: `SGPR[sdst + M0[25:16]] = SGPR[ssrc0 + M0[9:0]]`;
//! - `s_round_mode`/`s_denorm_mode` set MODE.FP_ROUND (bits 0-3) and
//!   MODE.FP_DENORM (bits 4-7) from the immediate's low 4 bits;
//! - `s_clause`, `s_inst_prefetch`, `s_wait_idle`, `s_waitcnt_depctr`,
//!   `s_ttracedata_imm`, `s_version` and the split `s_waitcnt_*cnt` do
//!   nothing; `s_code_end` (the padding after the code) stops with an
//!   "unsupported" fault, as the hardware raises an illegal-instruction
//!   exception;
//! - `s_subvector_loop_begin/end` have no semantics (`gaps`: no reference
//!   at hand gives their Operation);
//! - hardware registers: see `read_hwreg` (HW_ID1/HW_ID2 replace HW_ID).

use gcn_asm::isa::InstrRow;
use gcn_asm::isa::Mnemonic as M;
use gcn_asm::GcnVersion;

use super::{h, sreg, Env, Fault, FaultKind, Handler, Op, Src, Step, Wave};

/// Reads scalar operand `i` of `op` as 32 or 64 bits, as its row's type
/// says.
#[inline(always)]
fn read(w: &Wave, op: &Op, i: usize) -> u64 {
    if op.wide(i) {
        w.read_s64(op.src(i))
    } else {
        u64::from(w.read_s32(op.src(i)))
    }
}

/// Writes scalar destination operand `i` of `op` as 32 or 64 bits, as its
/// row's type says.
#[inline(always)]
fn write(w: &mut Wave, op: &Op, i: usize, v: u64) {
    if op.wide(i) {
        w.set_s64(op.reg(i), v);
    } else {
        w.set_s32(op.reg(i), v as u32);
    }
}

/// SOP2: `sdst = f(ssrc0, ssrc1, &mut scc)`, each 32 or 64 bits as the
/// row's operand types say.
#[inline(always)]
fn sop2(w: &mut Wave, op: &Op, f: impl Fn(u64, u64, &mut bool) -> u64) -> Result<Step, Fault> {
    let a = read(w, op, 1);
    let b = read(w, op, 2);
    let mut scc = w.scc;
    let r = f(a, b, &mut scc);
    w.scc = scc;
    write(w, op, 0, r);
    Ok(Step::Next)
}

/// SOP1: `sdst = f(ssrc0, &mut scc)`, widths from the row.
#[inline(always)]
fn sop1(w: &mut Wave, op: &Op, f: impl Fn(u64, &mut bool) -> u64) -> Result<Step, Fault> {
    let a = read(w, op, 1);
    let mut scc = w.scc;
    let r = f(a, &mut scc);
    w.scc = scc;
    write(w, op, 0, r);
    Ok(Step::Next)
}

/// SOPC: `SCC = f(ssrc0, ssrc1)`, widths from the row.
#[inline(always)]
fn sopc(w: &mut Wave, op: &Op, f: impl Fn(u64, u64) -> bool) -> Result<Step, Fault> {
    w.scc = f(read(w, op, 0), read(w, op, 1));
    Ok(Step::Next)
}

/// SOPK on `sdst` and the sign-extended (`SIGNED`) or zero-extended
/// 16-bit immediate: `sdst = f(sdst, imm, &mut scc)`, written back when
/// `f` returns `Some`.
#[inline]
fn sopk<const SIGNED: bool>(
    w: &mut Wave,
    op: &Op,
    f: impl Fn(u32, u32, &mut bool) -> Option<u32>,
) -> Result<Step, Fault> {
    let d = w.read_s32(op.src(0));
    let raw = w.read_s32(op.src(1)) as u16;
    let imm = if SIGNED {
        raw as i16 as i32 as u32
    } else {
        u32::from(raw)
    };
    let mut scc = w.scc;
    if let Some(r) = f(d, imm, &mut scc) {
        w.set_s32(op.reg(0), r);
    }
    w.scc = scc;
    Ok(Step::Next)
}

/// `*scc = r != 0`, returning `r` (the SCC rule of the bitwise ops).
#[inline]
fn nz(r: u64, scc: &mut bool) -> u64 {
    *scc = r != 0;
    r
}

/// SOP1 `*_saveexec_b64`: `sdst = EXEC; EXEC = f(ssrc0, EXEC); SCC =
/// EXEC != 0`.
#[inline]
fn saveexec(w: &mut Wave, op: &Op, f: impl Fn(u64, u64) -> u64) -> Result<Step, Fault> {
    let s = w.read_s64(op.src(1));
    let exec = w.exec();
    w.set_s64(op.reg(0), exec);
    let r = f(s, exec);
    w.set_exec(r);
    w.scc = r != 0;
    Ok(Step::Next)
}

/// SOP1 `*_wrexec_b64` (GCN 1.4): `EXEC = f(ssrc0, EXEC); sdst = EXEC;
/// SCC = EXEC != 0`.
#[inline]
fn wrexec(w: &mut Wave, op: &Op, f: impl Fn(u64, u64) -> u64) -> Result<Step, Fault> {
    let s = w.read_s64(op.src(1));
    let r = f(s, w.exec());
    w.set_exec(r);
    w.set_s64(op.reg(0), r);
    w.scc = r != 0;
    Ok(Step::Next)
}

/// SOP1 `*_saveexec_b32` (GCN 1.5+): `sdst = EXEC_LO; EXEC_LO = f(ssrc0,
/// EXEC_LO); SCC = EXEC_LO != 0`. EXEC_HI keeps its value (in wave64 too)
/// and `sdst` is one register.
#[inline]
fn saveexec32(w: &mut Wave, op: &Op, f: impl Fn(u32, u32) -> u32) -> Result<Step, Fault> {
    let s = w.read_s32(op.src(1));
    let exec = w.sgpr[usize::from(sreg::EXEC)];
    w.set_s32(op.reg(0), exec);
    let r = f(s, exec);
    w.set_s32(sreg::EXEC, r);
    w.scc = r != 0;
    Ok(Step::Next)
}

/// SOP1 `*_wrexec_b32` (GCN 1.5+): `EXEC_LO = f(ssrc0, EXEC_LO); sdst =
/// EXEC_LO; SCC = EXEC_LO != 0`.
#[inline]
fn wrexec32(w: &mut Wave, op: &Op, f: impl Fn(u32, u32) -> u32) -> Result<Step, Fault> {
    let s = w.read_s32(op.src(1));
    let r = f(s, w.sgpr[usize::from(sreg::EXEC)]);
    w.set_s32(sreg::EXEC, r);
    w.set_s32(op.reg(0), r);
    w.scc = r != 0;
    Ok(Step::Next)
}

/// `s_movrelsd_2_b32` (GCN 1.5+): `SGPR[sdst + M0[25:16]] = SGPR[ssrc0 +
/// M0[9:0]]`, each index inside the kernel's SGPRs (a general SGPR base)
/// or the 128 scalar operand codes.
fn movrelsd_2(w: &mut Wave, op: &Op) -> Result<Step, Fault> {
    let m0 = w.m0();
    let index = |src: Src, add: u32| -> Result<u16, Fault> {
        let Src::Sgpr(code) = src else {
            return Err(Fault::unsupported(
                "s_movrelsd_2_b32 on a non-register operand",
            ));
        };
        let limit = if code < sreg::VCC {
            u32::from(w.sgpr_limit)
        } else {
            128
        };
        let i = u32::from(code) + add;
        if i >= limit {
            return Err(Fault::new(FaultKind::Register(format!(
                "s_movrelsd_2_b32: s{code} + {add} (from M0 = {m0:#x}) is past the {limit} \
                 scalar registers"
            ))));
        }
        Ok(i as u16)
    };
    let from = index(op.src(1), m0 & 0x3ff)?;
    let to = index(op.src(0), (m0 >> 16) & 0x3ff)?;
    let v = w.sgpr[usize::from(from)];
    w.set_s32(to, v);
    Ok(Step::Next)
}

/// Branches to operand `i` (a byte offset in the code) when `taken`.
#[inline]
fn branch_if(w: &mut Wave, op: &Op, i: usize, taken: bool) -> Result<Step, Fault> {
    if taken {
        w.pc = w.read_s64(op.src(i)) as u32;
    }
    Ok(Step::Next)
}

/// Jumps to device address `target`. An address below the code or more
/// than 4 GiB past its start becomes PC `u32::MAX`, which the loop reports
/// as [`FaultKind::OutsideCode`].
#[inline]
fn jump_to(w: &mut Wave, env: &Env<'_>, target: u64) {
    w.pc = match target.checked_sub(env.code_base) {
        Some(d) if d < u64::from(u32::MAX) => d as u32,
        _ => u32::MAX,
    };
}

/// The device address of the next instruction.
#[inline]
fn next_pc(w: &Wave, env: &Env<'_>) -> u64 {
    env.code_base.wrapping_add(u64::from(w.pc))
}

/// `-1` for "not found", else the bit index.
#[inline]
fn found(cond: bool, index: u32) -> u64 {
    if cond {
        u64::from(index)
    } else {
        u64::from(u32::MAX)
    }
}

/// s_bfe_u32/u64/i32/i64 (`BITS` 32 or 64): offset in the low bits of
/// ssrc1, width in bits 16-22, as the CLRX operation text computes it.
#[inline]
fn bfe<const BITS: u32, const SIGNED: bool>(a: u64, b: u64) -> u64 {
    let shift = (b as u32) & (BITS - 1);
    let length = ((b >> 16) & 0x7f) as u32;
    if length == 0 {
        return 0;
    }
    // Work on the operand placed at the top of a 64-bit word so that one
    // arithmetic or logical shift does the extraction for both widths.
    let top = a << (64 - BITS);
    let r = if shift + length < BITS {
        let x = top << (BITS - shift - length);
        if SIGNED {
            ((x as i64) >> (64 - length)) as u64
        } else {
            x >> (64 - length)
        }
    } else if SIGNED {
        ((top as i64) >> (64 - BITS + shift)) as u64
    } else {
        top >> (64 - BITS + shift)
    };
    if BITS == 32 {
        r & 0xffff_ffff
    } else {
        r
    }
}

/// Bit 27 of MODE: GPR indexing enabled (GCN 1.2+).
const MODE_GPR_IDX_EN: u32 = 1 << 27;
/// MODE.EXCP_EN (bits 12-18) and MODE.DEBUG (bit 11).
const MODE_TRAPPING: u32 = 0x7f << 12 | 1 << 11;
/// MODE.CSP: the fork/join stack pointer (bits 29-31).
const CSP_SHIFT: u32 = 29;

/// Hardware register ids of `hwreg()`.
mod hwreg {
    pub const MODE: u32 = 1;
    pub const STATUS: u32 = 2;
    pub const TRAPSTS: u32 = 3;
    pub const HW_ID: u32 = 4;
    pub const GPR_ALLOC: u32 = 5;
    pub const LDS_ALLOC: u32 = 6;
    pub const IB_STS: u32 = 7;
    /// GCN 1.4.
    pub const SH_MEM_BASES: u32 = 15;
    /// GCN 1.5: FLAT_SCRATCH's halves.
    pub const FLAT_SCR_LO: u32 = 20;
    pub const FLAT_SCR_HI: u32 = 21;
    /// GCN 1.5: XNACK_MASK (the SGPR pair of GCN 1.2-1.4 became a hardware
    /// register).
    pub const XNACK_MASK: u32 = 22;
    /// GCN 1.5: HW_ID1 (HW_ID's successor: WAVE_ID in bits 0-4, SIMD,
    /// work-group, shader array and engine ids above) and HW_ID2 (queue,
    /// pipe, ME, state, work-group and VM ids).
    pub const HW_ID1: u32 = 23;
    pub const HW_ID2: u32 = 24;
    /// GCN 1.5: POPS_PACKER (pixel-shader ordering; graphics only).
    pub const POPS_PACKER: u32 = 25;
    /// GCN 1.5: IB_STS2 (WAVE64 in bit 11, as the CWSR trap handler of
    /// amdkfd reads it).
    pub const IB_STS2: u32 = 28;
    /// GCN 1.5.1 and RDNA 2: SHADER_CYCLES, a 20-bit cycle counter.
    pub const SHADER_CYCLES: u32 = 29;
}

/// The `hwreg(ID, OFFSET, SIZE)` immediate split: id, bit offset, mask of
/// the field (unshifted).
#[inline]
fn hwreg_fields(v: u32) -> (u32, u32, u32) {
    let id = v & 63;
    let offset = (v >> 6) & 31;
    let size = ((v >> 11) & 31) + 1;
    let mask = if size == 32 {
        u32::MAX
    } else {
        (1u32 << size) - 1
    };
    (id, offset, mask)
}

/// The value of hardware register `id`, as this emulator defines it:
/// - STATUS: SCC (bit 0), WAVE_PRIO (3-4), EXECZ (9), VCCZ (10), IN_TG
///   (11), VALID (16); every other bit 0 (not privileged, no trap handler,
///   no thread trace, not halted);
/// - HW_ID: WAVE_ID (bits 0-3) = the wave's index in its work-group; the
///   SIMD, CU, shader-engine, queue … ids are 0 (one emulated CU); on GCN
///   1.5+ id 4 is not HW_ID (a NotEmulated fault): HW_ID1 (23) has WAVE_ID
///   in bits 0-4 and 0 elsewhere, HW_ID2 (24) is 0;
/// - GCN 1.5+: XNACK_MASK (22) and POPS_PACKER (25) read 0 (no XNACK
///   replay, no pixel-shader ordering), IB_STS2 (28) has WAVE64 (bit 11)
///   set in wave64, SHADER_CYCLES (29) is the low 20 bits of the wave's
///   executed-instruction count (a counter, not a clock, as `s_memtime`);
/// - GPR_ALLOC: VGPR_SIZE (bits 8-13) in granules of 4 VGPRs minus one,
///   SGPR_SIZE (24-27) in granules of 8 SGPRs (16 on GCN 1.2+) minus one,
///   bases 0, from the kernel's VGPR and SGPR counts;
/// - LDS_ALLOC: LDS_SIZE (bits 12-20) in granules of 64 dwords (128 on
///   GCN 1.1-1.4), base 0;
/// - IB_STS: 0 (every memory operation has completed);
/// - FLAT_SCR_LO/HI (GCN 1.5+): what `s_setreg` wrote;
/// - SH_MEM_BASES (GCN 1.4+): bits 48-63 of the private aperture (bits
///   0-15) and of the shared aperture (bits 16-31).
fn read_hwreg(w: &Wave, env: &Env<'_>, id: u32) -> Result<u32, Fault> {
    let gcn12 = env.version.is_gcn12_or_later();
    let gcn15 = env.version.is_gcn15();
    Ok(match id {
        hwreg::MODE => w.mode,
        hwreg::STATUS => {
            w.status
                | u32::from(w.scc)
                | u32::from(w.exec() == 0) << 9
                | u32::from(w.vcc() == 0) << 10
                | 1 << 16
        }
        hwreg::TRAPSTS => w.trapsts,
        hwreg::HW_ID if gcn15 => {
            return Err(Fault::new(FaultKind::NotEmulated(
                "s_getreg of hardware register 4 on GCN 1.5 and later (HW_ID is gone there: \
                 HW_ID1 is 23, HW_ID2 24)"
                    .into(),
            )))
        }
        hwreg::HW_ID => w.id & 15,
        hwreg::HW_ID1 if gcn15 => w.id & 31,
        hwreg::HW_ID2 | hwreg::POPS_PACKER | hwreg::XNACK_MASK if gcn15 => 0,
        hwreg::IB_STS2 if gcn15 => u32::from(!w.wave32()) << 11,
        hwreg::SHADER_CYCLES if gcn15 => (w.steps & 0xf_ffff) as u32,
        hwreg::GPR_ALLOC => {
            let vgran = u32::from(w.vgpr_limit).div_ceil(4).max(1) - 1;
            let sunit = if gcn12 { 16 } else { 8 };
            let sgran = u32::from(w.sgpr_limit).div_ceil(sunit).max(1) - 1;
            (vgran & 0x3f) << 8 | (sgran & 0xf) << 24
        }
        hwreg::LDS_ALLOC => {
            // GCN 1.5: 64-dword granules again (amdkfd's gfx10 CWSR trap
            // handler: "granularity 64DW"); VGPR_SHARED_SIZE (bits 24-27)
            // is 0.
            let unit = if env.version == GcnVersion::Gcn1_0 || gcn15 {
                256
            } else {
                512
            };
            let size = (env.lds.len() as u64).div_ceil(unit) as u32;
            (size & 0x1ff) << 12
        }
        hwreg::IB_STS => 0,
        hwreg::FLAT_SCR_LO if env.version.is_gcn15() => w.flat_scratch as u32,
        hwreg::FLAT_SCR_HI if env.version.is_gcn15() => (w.flat_scratch >> 32) as u32,
        hwreg::SH_MEM_BASES if env.version.is_gcn14_or_later() => {
            use super::flat::{PRIVATE_APERTURE, SHARED_APERTURE};
            ((SHARED_APERTURE >> 48) << 16 | PRIVATE_APERTURE >> 48) as u32
        }
        _ => {
            return Err(Fault::new(FaultKind::NotEmulated(format!(
                "s_getreg of hardware register {id}"
            ))))
        }
    })
}

/// `s_setreg*`: MODE and TRAPSTS take the field; writes to the read-only
/// registers (STATUS, HW_ID, GPR_ALLOC, LDS_ALLOC, IB_STS) are ignored as
/// on hardware; other registers are not emulated.
fn write_hwreg(w: &mut Wave, env: &Env<'_>, v: u32, value: u32) -> Result<Step, Fault> {
    let (id, offset, mask) = hwreg_fields(v);
    let mask = mask << offset;
    let bits = (value << offset) & mask;
    match id {
        hwreg::MODE => {
            let mode = (w.mode & !mask) | bits;
            if mode & MODE_TRAPPING & !w.mode != 0 {
                return Err(Fault::new(FaultKind::NotEmulated(format!(
                    "s_setreg of MODE = {mode:#x} (exceptions or debug mode)"
                ))));
            }

            w.mode = mode;
        }
        hwreg::TRAPSTS => w.trapsts = (w.trapsts & !mask) | bits,
        hwreg::FLAT_SCR_LO | hwreg::FLAT_SCR_HI if env.version.is_gcn15() => {
            let shift = if id == hwreg::FLAT_SCR_HI { 32 } else { 0 };
            let old = (w.flat_scratch >> shift) as u32;
            let new = u64::from((old & !mask) | bits);
            w.flat_scratch = (w.flat_scratch & !(u64::from(u32::MAX) << shift)) | new << shift;
        }
        hwreg::STATUS | hwreg::HW_ID | hwreg::GPR_ALLOC | hwreg::LDS_ALLOC | hwreg::IB_STS => {}
        hwreg::HW_ID1 | hwreg::HW_ID2 | hwreg::IB_STS2 | hwreg::SHADER_CYCLES
            if env.version.is_gcn15() => {}
        _ => {
            return Err(Fault::new(FaultKind::NotEmulated(format!(
                "s_setreg of hardware register {id}"
            ))))
        }
    }
    Ok(Step::Next)
}

/// `s_getreg_b32`.
fn getreg(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Step, Fault> {
    let (id, offset, mask) = hwreg_fields(w.read_s32(op.src(1)));
    let v = read_hwreg(w, env, id)?;
    w.set_s32(op.reg(0), (v >> offset) & mask);
    Ok(Step::Next)
}

/// The SGPR index `code + M0` of `s_movrels`/`s_movreld` touching `n`
/// registers: a general SGPR base must stay inside the kernel's SGPRs,
/// any other base inside the 128 scalar operand codes.
fn relative(w: &Wave, src: Src, n: u64) -> Result<u16, Fault> {
    let Src::Sgpr(code) = src else {
        return Err(Fault::unsupported("s_movrel* on a non-register operand"));
    };
    let limit = if code < sreg::VCC {
        u64::from(w.sgpr_limit)
    } else {
        128
    };
    let index = u64::from(code) + u64::from(w.m0());
    if index + n > limit {
        return Err(Fault::new(FaultKind::Register(format!(
            "s_movrel: s{code} + M0 ({}) is past the {limit} scalar registers",
            w.m0()
        ))));
    }
    Ok(index as u16)
}

/// The fork/join stack pointer (MODE.CSP).
#[inline]
fn csp(w: &Wave) -> u32 {
    w.mode >> CSP_SHIFT
}

/// `s_cbranch_g_fork`/`s_cbranch_i_fork` with the mask and the device
/// address of the target, on the SGPR stack `SGPR[CSP*4 ..]` as the CLRX
/// text gives it (the stack holds EXEC masks and device addresses).
fn fork(w: &mut Wave, env: &Env<'_>, mask: u64, target: u64) -> Result<Step, Fault> {
    let exec = w.exec();
    let passes = exec & mask;
    let failures = exec & !mask;
    if passes == exec {
        jump_to(w, env, target);
        return Ok(Step::Next);
    }
    if failures == exec {
        return Ok(Step::Next);
    }
    let sp = csp(w);
    if sp >= 7 {
        return Err(Fault::unsupported(
            "s_cbranch_*_fork: the fork stack (MODE.CSP) overflows",
        ));
    }
    let slot = (sp * 4) as u16;
    if failures.count_ones() < passes.count_ones() {
        w.set_exec(failures);
        w.set_s64(slot, passes);
        w.set_s64(slot + 2, target);
    } else {
        w.set_exec(passes);
        w.set_s64(slot, failures);
        w.set_s64(slot + 2, next_pc(w, env));
        jump_to(w, env, target);
    }
    w.mode = (w.mode & !(7 << CSP_SHIFT)) | (sp + 1) << CSP_SHIFT;
    Ok(Step::Next)
}

/// The name of a `sendmsg` message id.
fn message_name(id: u32) -> &'static str {
    match id {
        1 => "interrupt",
        2 => "gs",
        3 => "gs_done",
        4 => "savewave",
        5 => "stall_wave_gen",
        6 => "halt_waves",
        7 => "ordered_ps_done",
        8 => "early_prim_dealloc",
        9 => "gs_alloc_req",
        10 => "get_doorbell",
        15 => "sysmsg",
        _ => "(reserved)",
    }
}

/// The handler of a scalar ALU or program-control row.
pub fn handler(row: &InstrRow, _version: GcnVersion) -> Option<Handler> {
    match row.op {
        // ---- SOP2 ----
        M::SAddU32 => h(|w, op, _| {
            sop2(w, op, |a, b, scc| {
                let r = a + b;
                *scc = r >> 32 != 0;
                r
            })
        }),
        M::SSubU32 => h(|w, op, _| {
            sop2(w, op, |a, b, scc| {
                *scc = b > a;
                a.wrapping_sub(b)
            })
        }),
        M::SAddI32 => h(|w, op, _| {
            sop2(w, op, |a, b, scc| {
                let (r, o) = (a as i32).overflowing_add(b as i32);
                *scc = o;
                u64::from(r as u32)
            })
        }),
        M::SSubI32 => h(|w, op, _| {
            sop2(w, op, |a, b, scc| {
                let (r, o) = (a as i32).overflowing_sub(b as i32);
                *scc = o;
                u64::from(r as u32)
            })
        }),
        M::SAddcU32 => h(|w, op, _| {
            sop2(w, op, |a, b, scc| {
                let r = a + b + u64::from(*scc);
                *scc = r >> 32 != 0;
                r
            })
        }),
        M::SSubbU32 => h(|w, op, _| {
            sop2(w, op, |a, b, scc| {
                let r = a.wrapping_sub(b).wrapping_sub(u64::from(*scc));
                *scc = (r >> 32) & 1 != 0;
                r
            })
        }),
        M::SMinI32 => h(|w, op, _| {
            sop2(w, op, |a, b, scc| {
                *scc = (a as i32) < (b as i32);
                if *scc {
                    a
                } else {
                    b
                }
            })
        }),
        M::SMinU32 => h(|w, op, _| {
            sop2(w, op, |a, b, scc| {
                *scc = a < b;
                a.min(b)
            })
        }),
        M::SMaxI32 => h(|w, op, _| {
            sop2(w, op, |a, b, scc| {
                *scc = (a as i32) > (b as i32);
                if *scc {
                    a
                } else {
                    b
                }
            })
        }),
        M::SMaxU32 => h(|w, op, _| {
            sop2(w, op, |a, b, scc| {
                *scc = a > b;
                a.max(b)
            })
        }),
        M::SCselectB32 => h(|w, op, _| sop2(w, op, |a, b, scc| if *scc { a } else { b })),
        M::SCselectB64 => h(|w, op, _| sop2(w, op, |a, b, scc| if *scc { a } else { b })),
        M::SAndB32 => h(|w, op, _| sop2(w, op, |a, b, s| nz(a & b, s))),
        M::SAndB64 => h(|w, op, _| sop2(w, op, |a, b, s| nz(a & b, s))),
        M::SOrB32 => h(|w, op, _| sop2(w, op, |a, b, s| nz(a | b, s))),
        M::SOrB64 => h(|w, op, _| sop2(w, op, |a, b, s| nz(a | b, s))),
        M::SXorB32 => h(|w, op, _| sop2(w, op, |a, b, s| nz(a ^ b, s))),
        M::SXorB64 => h(|w, op, _| sop2(w, op, |a, b, s| nz(a ^ b, s))),
        M::SAndn2B32 => h(|w, op, _| sop2(w, op, |a, b, s| nz(a & !b & 0xffff_ffff, s))),
        M::SAndn2B64 => h(|w, op, _| sop2(w, op, |a, b, s| nz(a & !b, s))),
        M::SOrn2B32 => h(|w, op, _| sop2(w, op, |a, b, s| nz((a | !b) & 0xffff_ffff, s))),
        M::SOrn2B64 => h(|w, op, _| sop2(w, op, |a, b, s| nz(a | !b, s))),
        M::SNandB32 => h(|w, op, _| sop2(w, op, |a, b, s| nz(!(a & b) & 0xffff_ffff, s))),
        M::SNandB64 => h(|w, op, _| sop2(w, op, |a, b, s| nz(!(a & b), s))),
        M::SNorB32 => h(|w, op, _| sop2(w, op, |a, b, s| nz(!(a | b) & 0xffff_ffff, s))),
        M::SNorB64 => h(|w, op, _| sop2(w, op, |a, b, s| nz(!(a | b), s))),
        M::SXnorB32 => h(|w, op, _| sop2(w, op, |a, b, s| nz(!(a ^ b) & 0xffff_ffff, s))),
        M::SXnorB64 => h(|w, op, _| sop2(w, op, |a, b, s| nz(!(a ^ b), s))),
        M::SLshlB32 => h(|w, op, _| sop2(w, op, |a, b, s| nz((a << (b & 31)) & 0xffff_ffff, s))),
        M::SLshlB64 => h(|w, op, _| sop2(w, op, |a, b, s| nz(a << (b & 63), s))),
        M::SLshrB32 => h(|w, op, _| sop2(w, op, |a, b, s| nz(a >> (b & 31), s))),
        M::SLshrB64 => h(|w, op, _| sop2(w, op, |a, b, s| nz(a >> (b & 63), s))),
        M::SAshrI32 => h(|w, op, _| {
            sop2(w, op, |a, b, s| {
                nz(u64::from(((a as i32) >> (b & 31)) as u32), s)
            })
        }),
        M::SAshrI64 => h(|w, op, _| sop2(w, op, |a, b, s| nz(((a as i64) >> (b & 63)) as u64, s))),
        M::SBfmB32 => h(|w, op, _| {
            sop2(w, op, |a, b, _| {
                u64::from((1u32 << (a & 31)).wrapping_sub(1) << (b & 31))
            })
        }),
        M::SBfmB64 => h(|w, op, _| {
            sop2(w, op, |a, b, _| {
                (1u64 << (a & 63)).wrapping_sub(1) << (b & 63)
            })
        }),
        M::SMulI32 => h(|w, op, _| {
            sop2(w, op, |a, b, _| {
                u64::from((a as u32).wrapping_mul(b as u32))
            })
        }),
        M::SMulHiU32 => h(|w, op, _| sop2(w, op, |a, b, _| (a * b) >> 32)),
        M::SMulHiI32 => h(|w, op, _| {
            sop2(w, op, |a, b, _| {
                let p = i64::from(a as i32) * i64::from(b as i32);
                u64::from((p >> 32) as u32)
            })
        }),
        M::SBfeU32 => h(|w, op, _| sop2(w, op, |a, b, s| nz(bfe::<32, false>(a, b), s))),
        M::SBfeI32 => h(|w, op, _| sop2(w, op, |a, b, s| nz(bfe::<32, true>(a, b), s))),
        M::SBfeU64 => h(|w, op, _| sop2(w, op, |a, b, s| nz(bfe::<64, false>(a, b), s))),
        M::SBfeI64 => h(|w, op, _| sop2(w, op, |a, b, s| nz(bfe::<64, true>(a, b), s))),
        M::SAbsdiffI32 => h(|w, op, _| {
            sop2(w, op, |a, b, s| {
                nz(
                    u64::from((a as i32).wrapping_sub(b as i32).unsigned_abs()),
                    s,
                )
            })
        }),
        M::SLshl1AddU32 => h(|w, op, _| sop2(w, op, lshl_add::<1>)),
        M::SLshl2AddU32 => h(|w, op, _| sop2(w, op, lshl_add::<2>)),
        M::SLshl3AddU32 => h(|w, op, _| sop2(w, op, lshl_add::<3>)),
        M::SLshl4AddU32 => h(|w, op, _| sop2(w, op, lshl_add::<4>)),
        M::SPackLlB32B16 => h(|w, op, _| sop2(w, op, |a, b, _| (a & 0xffff) | (b & 0xffff) << 16)),
        M::SPackLhB32B16 => h(|w, op, _| sop2(w, op, |a, b, _| (a & 0xffff) | (b & 0xffff_0000))),
        M::SPackHhB32B16 => h(|w, op, _| sop2(w, op, |a, b, _| (a >> 16) | (b & 0xffff_0000))),
        M::SCbranchGFork => h(|w, op, env| {
            let mask = w.read_s64(op.src(0));
            let target = w.read_s64(op.src(1));
            fork(w, env, mask, target)
        }),

        // ---- SOP1 ----
        M::SMovB32 | M::SMovRegrdB32 | M::SMovFedB32 => h(|w, op, _| sop1(w, op, |a, _| a)),
        M::SMovB64 => h(|w, op, _| sop1(w, op, |a, _| a)),
        M::SCmovB32 => h(|w, op, _| {
            if w.scc {
                let v = w.read_s32(op.src(1));
                w.set_s32(op.reg(0), v);
            }
            Ok(Step::Next)
        }),
        M::SCmovB64 => h(|w, op, _| {
            if w.scc {
                let v = w.read_s64(op.src(1));
                w.set_s64(op.reg(0), v);
            }
            Ok(Step::Next)
        }),
        M::SNotB32 => h(|w, op, _| sop1(w, op, |a, s| nz(!a & 0xffff_ffff, s))),
        M::SNotB64 => h(|w, op, _| sop1(w, op, |a, s| nz(!a, s))),
        M::SWqmB32 => h(|w, op, _| sop1(w, op, |a, s| nz(wqm(a), s))),
        M::SWqmB64 => h(|w, op, _| sop1(w, op, |a, s| nz(wqm(a), s))),
        M::SBrevB32 => h(|w, op, _| sop1(w, op, |a, _| u64::from((a as u32).reverse_bits()))),
        M::SBrevB64 => h(|w, op, _| sop1(w, op, |a, _| a.reverse_bits())),
        M::SBcnt0I32B32 => {
            h(|w, op, _| sop1(w, op, |a, s| nz(u64::from((a as u32).count_zeros()), s)))
        }
        M::SBcnt0I32B64 => h(|w, op, _| sop1(w, op, |a, s| nz(u64::from(a.count_zeros()), s))),
        M::SBcnt1I32B32 => h(|w, op, _| sop1(w, op, |a, s| nz(u64::from(a.count_ones()), s))),
        M::SBcnt1I32B64 => h(|w, op, _| sop1(w, op, |a, s| nz(u64::from(a.count_ones()), s))),
        M::SFf0I32B32 => h(|w, op, _| {
            sop1(w, op, |a, _| {
                let a = a as u32;
                found(a != u32::MAX, a.trailing_ones())
            })
        }),
        M::SFf0I32B64 => h(|w, op, _| sop1(w, op, |a, _| found(a != u64::MAX, a.trailing_ones()))),
        M::SFf1I32B32 => {
            h(|w, op, _| sop1(w, op, |a, _| found(a != 0, (a as u32).trailing_zeros())))
        }
        M::SFf1I32B64 => h(|w, op, _| sop1(w, op, |a, _| found(a != 0, a.trailing_zeros()))),
        M::SFlbitI32B32 => {
            h(|w, op, _| sop1(w, op, |a, _| found(a != 0, (a as u32).leading_zeros())))
        }
        M::SFlbitI32B64 => h(|w, op, _| sop1(w, op, |a, _| found(a != 0, a.leading_zeros()))),
        M::SFlbitI32 => h(|w, op, _| {
            sop1(w, op, |a, _| {
                let a = a as u32;
                // The first bit (from the top) that differs from the sign.
                let n = if a >> 31 != 0 {
                    a.leading_ones()
                } else {
                    a.leading_zeros()
                };
                found(n < 32, n)
            })
        }),
        // The CLRX text shifts `1U << i` for a 64-bit operand; the
        // instruction is the 64-bit form of s_flbit_i32.
        M::SFlbitI32I64 => h(|w, op, _| {
            sop1(w, op, |a, _| {
                let n = if a >> 63 != 0 {
                    a.leading_ones()
                } else {
                    a.leading_zeros()
                };
                found(n < 64, n)
            })
        }),
        M::SSextI32I8 => h(|w, op, _| sop1(w, op, |a, _| u64::from(a as i8 as i32 as u32))),
        M::SSextI32I16 => h(|w, op, _| sop1(w, op, |a, _| u64::from(a as i16 as i32 as u32))),
        M::SBitset0B32 => h(|w, op, _| {
            let bit = w.read_s32(op.src(1)) & 31;
            let d = w.read_s32(op.src(0)) & !(1 << bit);
            w.set_s32(op.reg(0), d);
            Ok(Step::Next)
        }),
        M::SBitset0B64 => h(|w, op, _| {
            let bit = w.read_s32(op.src(1)) & 63;
            let d = w.read_s64(op.src(0)) & !(1 << bit);
            w.set_s64(op.reg(0), d);
            Ok(Step::Next)
        }),
        M::SBitset1B32 => h(|w, op, _| {
            let bit = w.read_s32(op.src(1)) & 31;
            let d = w.read_s32(op.src(0)) | 1 << bit;
            w.set_s32(op.reg(0), d);
            Ok(Step::Next)
        }),
        M::SBitset1B64 => h(|w, op, _| {
            let bit = w.read_s32(op.src(1)) & 63;
            let d = w.read_s64(op.src(0)) | 1 << bit;
            w.set_s64(op.reg(0), d);
            Ok(Step::Next)
        }),
        M::SGetpcB64 => h(|w, op, env| {
            // The PC already points at the next instruction.
            let pc = next_pc(w, env);
            w.set_s64(op.reg(0), pc);
            Ok(Step::Next)
        }),
        M::SSetpcB64 => h(|w, op, env| {
            let target = w.read_s64(op.src(0));
            jump_to(w, env, target);
            Ok(Step::Next)
        }),
        M::SSwappcB64 => h(|w, op, env| {
            let target = w.read_s64(op.src(1));
            let pc = next_pc(w, env);
            w.set_s64(op.reg(0), pc);
            jump_to(w, env, target);
            Ok(Step::Next)
        }),
        M::SAndSaveexecB64 => h(|w, op, _| saveexec(w, op, |s, e| s & e)),
        M::SOrSaveexecB64 => h(|w, op, _| saveexec(w, op, |s, e| s | e)),
        M::SXorSaveexecB64 => h(|w, op, _| saveexec(w, op, |s, e| s ^ e)),
        M::SAndn2SaveexecB64 => h(|w, op, _| saveexec(w, op, |s, e| s & !e)),
        // EXEC = SSRC0 | ~EXEC (the CLRX page repeats other bodies here).
        M::SOrn2SaveexecB64 => h(|w, op, _| saveexec(w, op, |s, e| s | !e)),
        M::SNandSaveexecB64 => h(|w, op, _| saveexec(w, op, |s, e| !(s & e))),
        M::SNorSaveexecB64 => h(|w, op, _| saveexec(w, op, |s, e| !(s | e))),
        M::SXnorSaveexecB64 => h(|w, op, _| saveexec(w, op, |s, e| !(s ^ e))),
        M::SAndn1SaveexecB64 => h(|w, op, _| saveexec(w, op, |s, e| !s & e)),
        M::SOrn1SaveexecB64 => h(|w, op, _| saveexec(w, op, |s, e| !s | e)),
        M::SAndn1WrexecB64 => h(|w, op, _| wrexec(w, op, |s, e| !s & e)),
        M::SAndn2WrexecB64 => h(|w, op, _| wrexec(w, op, |s, e| s & !e)),
        M::SAndSaveexecB32 => h(|w, op, _| saveexec32(w, op, |s, e| s & e)),
        M::SOrSaveexecB32 => h(|w, op, _| saveexec32(w, op, |s, e| s | e)),
        M::SXorSaveexecB32 => h(|w, op, _| saveexec32(w, op, |s, e| s ^ e)),
        M::SAndn2SaveexecB32 => h(|w, op, _| saveexec32(w, op, |s, e| s & !e)),
        M::SOrn2SaveexecB32 => h(|w, op, _| saveexec32(w, op, |s, e| s | !e)),
        M::SNandSaveexecB32 => h(|w, op, _| saveexec32(w, op, |s, e| !(s & e))),
        M::SNorSaveexecB32 => h(|w, op, _| saveexec32(w, op, |s, e| !(s | e))),
        M::SXnorSaveexecB32 => h(|w, op, _| saveexec32(w, op, |s, e| !(s ^ e))),
        M::SAndn1SaveexecB32 => h(|w, op, _| saveexec32(w, op, |s, e| !s & e)),
        M::SOrn1SaveexecB32 => h(|w, op, _| saveexec32(w, op, |s, e| !s | e)),
        M::SAndn1WrexecB32 => h(|w, op, _| wrexec32(w, op, |s, e| !s & e)),
        M::SAndn2WrexecB32 => h(|w, op, _| wrexec32(w, op, |s, e| s & !e)),
        M::SMovrelsd2B32 => h(|w, op, _| movrelsd_2(w, op)),
        M::SQuadmaskB32 => h(|w, op, _| sop1(w, op, |a, s| nz(quadmask(a), s))),
        M::SQuadmaskB64 => h(|w, op, _| sop1(w, op, |a, s| nz(quadmask(a), s))),
        M::SMovrelsB32 => h(|w, op, _| {
            let i = relative(w, op.src(1), 1)?;
            let v = w.sgpr[usize::from(i)];
            w.set_s32(op.reg(0), v);
            Ok(Step::Next)
        }),
        M::SMovrelsB64 => h(|w, op, _| {
            let i = relative(w, op.src(1), 2)?;
            let v = w.s64(i);
            w.set_s64(op.reg(0), v);
            Ok(Step::Next)
        }),
        M::SMovreldB32 => h(|w, op, _| {
            let v = w.read_s32(op.src(1));
            let i = relative(w, op.src(0), 1)?;
            w.set_s32(i, v);
            Ok(Step::Next)
        }),
        M::SMovreldB64 => h(|w, op, _| {
            let v = w.read_s64(op.src(1));
            let i = relative(w, op.src(0), 2)?;
            w.set_s64(i, v);
            Ok(Step::Next)
        }),
        M::SCbranchJoin => h(|w, op, env| {
            let saved = w.read_s32(op.src(0));
            let sp = csp(w);
            if sp == saved {
                return Ok(Step::Next);
            }
            if sp == 0 {
                return Err(Fault::unsupported(
                    "s_cbranch_join: the fork stack (MODE.CSP) is empty",
                ));
            }
            let sp = sp - 1;
            w.mode = (w.mode & !(7 << CSP_SHIFT)) | sp << CSP_SHIFT;
            let slot = (sp * 4) as u16;
            let exec = w.s64(slot);
            let target = w.s64(slot + 2);
            w.set_exec(exec);
            jump_to(w, env, target);
            Ok(Step::Next)
        }),
        M::SAbsI32 => h(|w, op, _| sop1(w, op, |a, s| nz(u64::from((a as i32).unsigned_abs()), s))),
        M::SBitreplicateB64B32 => h(|w, op, _| {
            sop1(w, op, |a, _| {
                (0..32).fold(0u64, |r, i| r | ((((a >> i) & 1) * 3) << (2 * i)))
            })
        }),
        M::SSetGprIdxIdx => h(|w, op, _| {
            let s = w.read_s32(op.src(0));
            let m0 = (w.m0() & 0xffff_ff00) | (s & 0xff);
            w.set_s32(sreg::M0, m0);
            Ok(Step::Next)
        }),

        // ---- SOPK ----
        M::SMovkI32 => h(|w, op, _| sopk::<true>(w, op, |_, k, _| Some(k))),
        M::SCmovkI32 => h(|w, op, _| sopk::<true>(w, op, |_, k, scc| scc.then_some(k))),
        M::SCmpkEqI32 => h(|w, op, _| {
            sopk::<true>(w, op, |d, k, scc| {
                *scc = d == k;
                None
            })
        }),
        M::SCmpkEqU32 => h(|w, op, _| {
            sopk::<false>(w, op, |d, k, scc| {
                *scc = d == k;
                None
            })
        }),
        M::SCmpkLgI32 => h(|w, op, _| {
            sopk::<true>(w, op, |d, k, scc| {
                *scc = d != k;
                None
            })
        }),
        M::SCmpkGtI32 => h(|w, op, _| {
            sopk::<true>(w, op, |d, k, scc| {
                *scc = (d as i32) > (k as i32);
                None
            })
        }),
        M::SCmpkGeI32 => h(|w, op, _| {
            sopk::<true>(w, op, |d, k, scc| {
                *scc = (d as i32) >= (k as i32);
                None
            })
        }),
        M::SCmpkLtI32 => h(|w, op, _| {
            sopk::<true>(w, op, |d, k, scc| {
                *scc = (d as i32) < (k as i32);
                None
            })
        }),
        M::SCmpkLeI32 => h(|w, op, _| {
            sopk::<true>(w, op, |d, k, scc| {
                *scc = (d as i32) <= (k as i32);
                None
            })
        }),
        M::SCmpkLgU32 => h(|w, op, _| {
            sopk::<false>(w, op, |d, k, scc| {
                *scc = d != k;
                None
            })
        }),
        M::SCmpkGtU32 => h(|w, op, _| {
            sopk::<false>(w, op, |d, k, scc| {
                *scc = d > k;
                None
            })
        }),
        M::SCmpkGeU32 => h(|w, op, _| {
            sopk::<false>(w, op, |d, k, scc| {
                *scc = d >= k;
                None
            })
        }),
        M::SCmpkLtU32 => h(|w, op, _| {
            sopk::<false>(w, op, |d, k, scc| {
                *scc = d < k;
                None
            })
        }),
        M::SCmpkLeU32 => h(|w, op, _| {
            sopk::<false>(w, op, |d, k, scc| {
                *scc = d <= k;
                None
            })
        }),
        M::SAddkI32 => h(|w, op, _| {
            sopk::<true>(w, op, |d, k, scc| {
                let (r, o) = (d as i32).overflowing_add(k as i32);
                *scc = o;
                Some(r as u32)
            })
        }),
        M::SMulkI32 => h(|w, op, _| sopk::<true>(w, op, |d, k, _| Some(d.wrapping_mul(k)))),
        M::SCbranchIFork => h(|w, op, env| {
            let mask = w.read_s64(op.src(0));
            let target = env
                .code_base
                .wrapping_add(u64::from(w.read_s64(op.src(1)) as u32));
            fork(w, env, mask, target)
        }),
        M::SGetregB32 | M::SGetregRegrdB32 => h(getreg),
        M::SSetregB32 | M::SSetregImm32B32 => h(|w, op, env| {
            let v = w.read_s32(op.src(0));
            let value = w.read_s32(op.src(1));
            write_hwreg(w, env, v, value)
        }),
        M::SCallB64 => h(|w, op, env| {
            let pc = next_pc(w, env);
            w.set_s64(op.reg(0), pc);
            branch_if(w, op, 1, true)
        }),

        // ---- SOPC ----
        M::SCmpEqI32 | M::SCmpEqU32 => h(|w, op, _| sopc(w, op, |a, b| a == b)),
        M::SCmpLgI32 | M::SCmpLgU32 => h(|w, op, _| sopc(w, op, |a, b| a != b)),
        M::SCmpGtI32 => h(|w, op, _| sopc(w, op, |a, b| (a as i32) > (b as i32))),
        M::SCmpGeI32 => h(|w, op, _| sopc(w, op, |a, b| (a as i32) >= (b as i32))),
        M::SCmpLtI32 => h(|w, op, _| sopc(w, op, |a, b| (a as i32) < (b as i32))),
        M::SCmpLeI32 => h(|w, op, _| sopc(w, op, |a, b| (a as i32) <= (b as i32))),
        M::SCmpGtU32 => h(|w, op, _| sopc(w, op, |a, b| a > b)),
        M::SCmpGeU32 => h(|w, op, _| sopc(w, op, |a, b| a >= b)),
        M::SCmpLtU32 => h(|w, op, _| sopc(w, op, |a, b| a < b)),
        M::SCmpLeU32 => h(|w, op, _| sopc(w, op, |a, b| a <= b)),
        M::SBitcmp0B32 => h(|w, op, _| sopc(w, op, |a, b| (a >> (b & 31)) & 1 == 0)),
        M::SBitcmp1B32 => h(|w, op, _| sopc(w, op, |a, b| (a >> (b & 31)) & 1 != 0)),
        M::SBitcmp0B64 => h(|w, op, _| sopc(w, op, |a, b| (a >> (b & 63)) & 1 == 0)),
        M::SBitcmp1B64 => h(|w, op, _| sopc(w, op, |a, b| (a >> (b & 63)) & 1 != 0)),
        M::SCmpEqU64 => h(|w, op, _| sopc(w, op, |a, b| a == b)),
        M::SCmpLgU64 | M::SCmpNeU64 => h(|w, op, _| sopc(w, op, |a, b| a != b)),
        M::SSetvskip => h(|w, op, _| {
            let a = w.read_s32(op.src(0));
            let b = w.read_s32(op.src(1));
            if (a >> (b & 31)) & 1 != 0 {
                return Err(Fault::new(FaultKind::NotEmulated(
                    "s_setvskip turning VSKIP on (skipping vector instructions)".into(),
                )));
            }
            Ok(Step::Next)
        }),

        // ---- SOPP ----
        M::SNop
        | M::SWaitcnt
        | M::SIcacheInv
        | M::SIncperflevel
        | M::SDecperflevel
        | M::STtracedata
        | M::SWakeup => h(|_, _, _| Ok(Step::Next)),
        // GCN 1.5: instruction-issue hints and counters of an in-order
        // emulator in which every memory operation has completed (the
        // checks module tracks the counters): nothing to do.
        M::SClause
        | M::SInstPrefetch
        | M::SWaitIdle
        | M::SWaitcntDepctr
        | M::SWaitcntDecptr
        | M::STtracedataImm
        | M::SVersion
        | M::SWaitcntVscnt
        | M::SWaitcntVmcnt
        | M::SWaitcntExpcnt
        | M::SWaitcntLgkmcnt => h(|_, _, _| Ok(Step::Next)),
        // The padding after a shader's code: the hardware raises an
        // illegal-instruction exception (RDNA ISA), so reaching it means
        // control ran off the end of the code.
        M::SCodeEnd => h(|_, _, _| {
            Err(Fault::unsupported(
                "s_code_end: an illegal instruction (it pads the end of the code; control \
                 ran past the last instruction)",
            ))
        }),
        // MODE.FP_ROUND (bits 0-3) and MODE.FP_DENORM (bits 4-7) from the
        // immediate's low 4 bits.
        M::SRoundMode => h(|w, op, _| {
            let k = w.read_s32(op.src(0)) & 15;
            w.mode = (w.mode & !15) | k;
            Ok(Step::Next)
        }),
        M::SDenormMode => h(|w, op, _| {
            let k = w.read_s32(op.src(0)) & 15;
            w.mode = (w.mode & !0xf0) | k << 4;
            Ok(Step::Next)
        }),
        // No debugger is attached: the conditional-debug branches are
        // never taken.
        M::SCbranchCdbgsys
        | M::SCbranchCdbguser
        | M::SCbranchCdbgsysOrUser
        | M::SCbranchCdbgsysAndUser => h(|_, _, _| Ok(Step::Next)),
        M::SSetprio => h(|w, op, _| {
            let p = w.read_s32(op.src(0)) & 3;
            w.status = (w.status & !(3 << 3)) | p << 3;
            Ok(Step::Next)
        }),
        M::SEndpgm | M::SEndpgmSaved | M::SEndpgmOrderedPsDone => h(|_, _, _| Ok(Step::End)),
        M::SBarrier => h(|_, _, _| Ok(Step::Barrier)),
        M::SBranch => h(|w, op, _| branch_if(w, op, 0, true)),
        M::SCbranchScc0 => h(|w, op, _| {
            let t = !w.scc;
            branch_if(w, op, 0, t)
        }),
        M::SCbranchScc1 => h(|w, op, _| {
            let t = w.scc;
            branch_if(w, op, 0, t)
        }),
        M::SCbranchVccz => h(|w, op, _| {
            let t = w.vcc() == 0;
            branch_if(w, op, 0, t)
        }),
        M::SCbranchVccnz => h(|w, op, _| {
            let t = w.vcc() != 0;
            branch_if(w, op, 0, t)
        }),
        M::SCbranchExecz => h(|w, op, _| {
            let t = w.exec() == 0;
            branch_if(w, op, 0, t)
        }),
        M::SCbranchExecnz => h(|w, op, _| {
            let t = w.exec() != 0;
            branch_if(w, op, 0, t)
        }),
        M::STrap => h(|w, op, _| Err(Fault::new(FaultKind::Trap(w.read_s32(op.src(0)) & 0xff)))),
        M::SSethalt | M::SSetkill => h(|w, op, _| {
            if w.read_s32(op.src(0)) & 1 == 0 {
                return Ok(Step::Next);
            }
            Err(Fault::unsupported(format!(
                "{} 1 ({} the wave)",
                op.mnemonic(),
                if op.instr.row.op == M::SSethalt {
                    "halting"
                } else {
                    "killing"
                }
            )))
        }),
        // Sleeping takes no time; with a hostcall buffer, the host looks
        // at it meanwhile.
        M::SSleep => h(|w, _, env| {
            if let Some(server) = env.hostcall {
                server.sleep(w, env.mem)?;
            }
            Ok(Step::Next)
        }),
        M::SSendmsg | M::SSendmsghalt => h(|w, op, env| {
            let id = w.read_s32(op.src(0)) & 15;
            if id == 1 && op.instr.row.op == M::SSendmsg {
                // The interrupt: the hostcall doorbell rang (a no-op
                // without a hostcall buffer).
                if let Some(server) = env.hostcall {
                    server.interrupt(w, env.mem)?;
                }
                return Ok(Step::Next);
            }
            Err(Fault::unsupported(format!(
                "{} with message {} ({id})",
                op.mnemonic(),
                message_name(id)
            )))
        }),
        M::SSetGprIdxOn => h(|w, op, _| {
            let index = w.read_s32(op.src(0)) & 0xff;
            let mode = w.read_s32(op.src(1)) & 15;
            let m0 = (w.m0() & 0xffff_0f00) | mode << 12 | index;
            w.set_s32(sreg::M0, m0);
            w.mode |= MODE_GPR_IDX_EN;
            Ok(Step::Next)
        }),
        M::SSetGprIdxOff => h(|w, _, _| {
            w.mode &= !MODE_GPR_IDX_EN;
            Ok(Step::Next)
        }),
        M::SSetGprIdxMode => h(|w, op, _| {
            let k = w.read_s32(op.src(0)) & 15;
            let m0 = (w.m0() & 0xffff_0fff) | k << 12;
            w.set_s32(sreg::M0, m0);
            Ok(Step::Next)
        }),
        _ => None,
    }
}

/// `(ssrc0 << N) + ssrc1` on 64 bits (the shift keeps the bits it moves
/// past bit 31), SCC = the sum does not fit 32 bits.
#[inline]
fn lshl_add<const N: u32>(a: u64, b: u64, scc: &mut bool) -> u64 {
    let t = (a << N) + b;
    *scc = t >> 32 != 0;
    t & 0xffff_ffff
}

/// Whole-quad mode: every nibble with a bit set becomes all ones.
#[inline]
fn wqm(a: u64) -> u64 {
    (0..16).fold(0, |r, i| {
        if (a >> (4 * i)) & 15 != 0 {
            r | 15 << (4 * i)
        } else {
            r
        }
    })
}

/// One bit per nibble: set when the nibble has any bit set.
#[inline]
fn quadmask(a: u64) -> u64 {
    (0..16).fold(0, |r, i| r | u64::from((a >> (4 * i)) & 15 != 0) << i)
}

#[cfg(test)]
mod tests;
