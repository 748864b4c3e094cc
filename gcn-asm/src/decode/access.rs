//! What a decoded instruction reads and writes: its resolved operand set.
//!
//! [`Instruction::accesses`] turns the row's operand roles and implicit
//! registers ([`crate::isa::OperandSpec::role`], [`crate::isa::Implicit`])
//! into the registers this encoding of the instruction actually uses, with
//! the conditions its modifier bits decide applied:
//!
//! - MUBUF/MTBUF VADDR is read only with OFFEN, IDXEN or ADDR64 (without
//!   them the field is ignored, and compiled code reuses the register at
//!   once); its width (one or two registers) is the decoder's.
//! - GLOBAL VADDR is one register with an SGPR base and two with `off`;
//!   SCRATCH VADDR is absent with `off` (the decoder's operand counts).
//! - An atomic returns the memory value (MUBUF/MIMG/SMEM: into the data
//!   registers, FLAT/GLOBAL: into VDST) only with GLC; a compare-and-swap
//!   returns half of its data registers.
//! - A MUBUF load with `lds` writes LDS, not VDATA, and reads M0 (the LDS
//!   address); a DS access with `gds` reads M0 (the GDS window) on every
//!   version.
//! - `tfe` adds a status register after the data, written by loads and
//!   stores alike; MIMG data sizes follow dmask and d16 (the decoder's
//!   counts); an MIMG VADDR count is the row's minimum (the words do not
//!   say how many the image needs).
//! - A write is *partial* when it keeps part of the old value without
//!   reading it as data: the GCN 1.4 `d16` loads that fill one half
//!   (`merge`), `v_writelane` (one lane), SDWA with `dst_unused:
//!   UNUSED_PRESERVE`, DPP (lanes the masks leave alone), a VOP3
//!   `op_sel` write of the high half, and the GCN 1.4 three-operand 16-bit
//!   instructions (`v_fma_f16`, `v_mad_mixlo_f16` …) that keep the other
//!   half.
//! - Source operands that are special registers name what they read:
//!   VCCZ reads VCC, EXECZ reads EXEC, SCC reads SCC, LDS_DIRECT reads M0.
//!
//! EXEC as the lane mask of every vector instruction is implied by its unit
//! and not listed.

use crate::arch::GcnVersion;
use crate::isa::vocab::{EXECZ, LDS_DIRECT, SCC, VCCZ};
use crate::isa::{flags, Encoding, Field, ImplicitReg, Role, Unit};

use super::{Form, Instruction, MemFlags, Operand};

/// Where an access lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Location {
    /// `count` scalar registers from operand code `code` (0–127: SGPRs,
    /// FLAT_SCRATCH, XNACK_MASK, VCC, TTMP, M0, EXEC).
    Sgprs {
        /// Operand code of the first register.
        code: u16,
        /// Number of registers.
        count: u16,
    },
    /// `count` VGPRs from VGPR `index`.
    Vgprs {
        /// Index of the first VGPR.
        index: u16,
        /// Number of registers.
        count: u16,
    },
    /// A state register outside the register files (SCC, MODE, TRAPSTS).
    State(ImplicitReg),
}

/// One register access of an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Access {
    /// The registers.
    pub location: Location,
    /// Read, written or both.
    pub role: Role,
    /// The operand (index into [`Instruction::operands`]) it comes from;
    /// `None` for an implicit register.
    pub operand: Option<u8>,
    /// A write that keeps part of the register's old value (see the
    /// module documentation); the kept part is not a data read.
    pub partial: bool,
}

/// Most accesses one instruction has.
pub const MAX_ACCESSES: usize = 16;

/// The accesses of one instruction (a small inline list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Accesses {
    list: [Access; MAX_ACCESSES],
    len: u8,
}

impl std::ops::Deref for Accesses {
    type Target = [Access];

    fn deref(&self) -> &[Access] {
        &self.list[..usize::from(self.len)]
    }
}

impl Accesses {
    fn new() -> Self {
        Accesses {
            list: [Access {
                location: Location::State(ImplicitReg::Scc),
                role: Role::Read,
                operand: None,
                partial: false,
            }; MAX_ACCESSES],
            len: 0,
        }
    }

    fn push(&mut self, location: Location, role: Role, operand: Option<u8>, partial: bool) {
        let empty = match location {
            Location::Sgprs { count, .. } | Location::Vgprs { count, .. } => count == 0,
            Location::State(_) => false,
        };
        if empty || usize::from(self.len) >= MAX_ACCESSES {
            return;
        }
        self.list[usize::from(self.len)] = Access {
            location,
            role,
            operand,
            partial,
        };
        self.len += 1;
    }

    /// The accesses that read.
    pub fn reads(&self) -> impl Iterator<Item = &Access> {
        self.iter().filter(|a| a.role.reads())
    }

    /// The accesses that write.
    pub fn writes(&self) -> impl Iterator<Item = &Access> {
        self.iter().filter(|a| a.role.writes())
    }

    /// The access of operand `i` with a role that reads (or writes, when
    /// `write`), if the operand is a register the instruction uses that way.
    pub fn of_operand(&self, i: usize, write: bool) -> Option<&Access> {
        self.iter().find(|a| {
            a.operand == Some(i as u8)
                && if write {
                    a.role.writes()
                } else {
                    a.role.reads()
                }
        })
    }
}

/// `hwreg` ids whose registers have an [`ImplicitReg`].
const HW_REG_MODE: u16 = 1;
const HW_REG_STATUS: u16 = 2;
const HW_REG_TRAPSTS: u16 = 3;

/// The SGPR-file location of `reg` on `version`, or its state location.
fn implicit_location(reg: ImplicitReg, version: GcnVersion) -> Location {
    match reg.sgprs(version) {
        Some((code, count)) => Location::Sgprs { code, count },
        None => Location::State(reg),
    }
}

/// [`implicit_location`] in a wave of 32 lanes or 64: a wave32's VCC and
/// EXEC are one SGPR.
fn implicit_location_in(reg: ImplicitReg, version: GcnVersion, wave32: bool) -> Location {
    match implicit_location(reg, version) {
        Location::Sgprs { code, .. }
            if wave32 && matches!(reg, ImplicitReg::Vcc | ImplicitReg::Exec) =>
        {
            Location::Sgprs { code, count: 1 }
        }
        other => other,
    }
}

/// GCN 1.4 three-operand 16-bit instructions (the VOP3-only rows with
/// `op_sel`, and `v_mad_mixlo`/`mixhi`) write one half of their
/// destination and keep the other.
fn writes_half(row: &crate::isa::InstrRow) -> bool {
    let half_dst = row
        .operand(Field::Vdst)
        .is_some_and(|o| crate::isa::is_16bit(o.ty));
    half_dst && ((row.encoding == Encoding::Vop3 && row.has(flags::OP_SEL)) || row.has(flags::MIX))
}

impl Instruction {
    /// The registers this instruction reads and writes, with the conditions
    /// of its encoding applied (see the module documentation). The one
    /// description of an instruction's register use: the emulator's
    /// register-bound check, the sanitizer checks and the trace read it.
    ///
    /// Decoded for a wave of 32 lanes ([`Instruction::wave32`], GCN 1.5+),
    /// its lane masks are one SGPR: the explicit ones and the implicit VCC
    /// and EXEC (the carry and condition of the 32-bit forms,
    /// `s_cbranch_vccz`, `v_cmpx`, `s_*_saveexec_b32`, VCCZ and EXECZ) are
    /// `vcc_lo` and `exec_lo`.
    pub fn accesses(&self) -> Accesses {
        let row = self.row;
        let version = self.version;
        let wave32 = self.wave32 && version.is_gcn15();
        let mem = self.mods.mem.flags;
        let encoding = row.encoding;
        // GCN 1.5 keeps the GCN 1.4 rules (op_sel, d16 merges) and, in
        // every form but SDWA, the other half of a 16-bit result ("on
        // gfx10, all 16-bit instructions preserve the high bits", LLVM).
        let gcn14 = version.is_gcn14_or_later();
        let gfx10_half = version.is_gcn15()
            && self.form != Form::Sdwa
            && row.unit() == Unit::Valu
            && row
                .operand(Field::Vdst)
                .is_some_and(|o| crate::isa::is_16bit(o.ty));
        let load = row.has(flags::LOAD);
        let atomic = row.has(flags::ATOMIC);
        let returns = atomic && self.mods.glc;
        let tfe = mem.contains(MemFlags::TFE);
        let buffer = matches!(encoding, Encoding::Mubuf | Encoding::Mtbuf);
        let vaddr_used = mem.contains(MemFlags::OFFEN)
            || mem.contains(MemFlags::IDXEN)
            || mem.contains(MemFlags::ADDR64);
        // Whole-register writes that keep part of the old value.
        let vdst_partial = row.has(flags::WRITE_LANE)
            || (self.form == Form::Sdwa && self.mods.sdwa.dst_unused == 2)
            || self.form == Form::Dpp
            || (gcn14 && row.has(flags::OP_SEL) && self.mods.op_sel & 8 != 0)
            || (gcn14 && row.has(flags::MERGE))
            || (gcn14 && writes_half(row))
            || gfx10_half;
        let alu = matches!(row.unit(), Unit::Salu | Unit::Valu);
        let mut out = Accesses::new();
        let operands = self.operands();
        for (i, (spec, operand)) in row.operands.iter().zip(operands).enumerate() {
            let index = Some(i as u8);
            let (code, count) = match *operand {
                // ALU operands are as wide as their type (a 64-bit source
                // written as one SGPR still reads the pair); the memory
                // families' counts are the decoder's, which apply the
                // modifier bits (tfe, d16, dmask, the address forms).
                // A VALU's lane mask (64-bit SDST or SSRC2) is as wide as
                // the decoder made it: one SGPR in wave32 (GCN 1.5+).
                Operand::Reg { code, count }
                    if alu
                        && version.is_gcn15()
                        && row.unit() == Unit::Valu
                        && matches!(spec.field, Field::Sdst | Field::Ssrc2) =>
                {
                    (code, u16::from(count).max(1))
                }
                Operand::Reg { code, count } if alu => {
                    (code, u16::from(count).max(spec.registers()))
                }
                Operand::Reg { code, count } => (code, u16::from(count).max(1)),
                Operand::Hwreg(v) => {
                    let reg = match v & 63 {
                        HW_REG_MODE => Some(ImplicitReg::Mode),
                        HW_REG_TRAPSTS => Some(ImplicitReg::Trapsts),
                        _ => None,
                    };
                    if let Some(reg) = reg {
                        out.push(Location::State(reg), spec.role, index, false);
                    }
                    // STATUS holds SCC, VCCZ and EXECZ: reading it reads them.
                    if v & 63 == HW_REG_STATUS && spec.role.reads() {
                        out.push(Location::State(ImplicitReg::Scc), Role::Read, index, false);
                        for reg in [ImplicitReg::Vcc, ImplicitReg::Exec] {
                            out.push(
                                implicit_location_in(reg, version, wave32),
                                Role::Read,
                                index,
                                false,
                            );
                        }
                    }
                    continue;
                }
                _ => continue,
            };
            let location = match code {
                // NULL (GCN 1.5+) is no register.
                125 if version.is_gcn15() => continue,
                0..=127 => Location::Sgprs { code, count },
                256.. => Location::Vgprs {
                    index: code - 256,
                    count,
                },
                VCCZ => implicit_location_in(ImplicitReg::Vcc, version, wave32),
                EXECZ => implicit_location_in(ImplicitReg::Exec, version, wave32),
                SCC => Location::State(ImplicitReg::Scc),
                LDS_DIRECT => implicit_location_in(ImplicitReg::M0, version, wave32),
                // Inline constants and the aperture registers.
                _ => continue,
            };
            // `n` registers of the operand from its register `by`.
            let part = |by: u16, n: u16| match location {
                Location::Vgprs { index, .. } => Location::Vgprs {
                    index: index + by,
                    count: n,
                },
                Location::Sgprs { code, .. } => Location::Sgprs {
                    code: code + by,
                    count: n,
                },
                other => other,
            };
            match (encoding, spec.field) {
                (Encoding::Mubuf | Encoding::Mtbuf, Field::Vaddr) if !vaddr_used => {}
                // GCN 1.5 NSA: the address VGPRs one by one (runs of
                // consecutive ones as one range).
                (Encoding::Mimg, Field::Vaddr) if mem.contains(MemFlags::NSA) => {
                    let first = code - 256;
                    let rest = &self.mods.mem.nsa[..usize::from(count.saturating_sub(1)).min(12)];
                    let mut run = (first, 1u16);
                    for &r in rest {
                        let r = u16::from(r);
                        if r == run.0 + run.1 {
                            run.1 += 1;
                        } else {
                            let location = Location::Vgprs {
                                index: run.0,
                                count: run.1,
                            };
                            out.push(location, spec.role, index, false);
                            run = (r, 1);
                        }
                    }
                    let location = Location::Vgprs {
                        index: run.0,
                        count: run.1,
                    };
                    out.push(location, spec.role, index, false);
                }
                // The data registers of MUBUF/MTBUF/MIMG and SMEM: loaded,
                // stored, or both for an atomic that returns.
                (Encoding::Mubuf | Encoding::Mtbuf | Encoding::Mimg, Field::Vdata)
                | (Encoding::Smrd | Encoding::Smem, Field::Sdata) => {
                    let status = u16::from(tfe && spec.field == Field::Vdata);
                    let data = count.saturating_sub(status);
                    if load {
                        // `lds`: the data goes to LDS, only the status to VDATA.
                        if !(buffer && mem.contains(MemFlags::LDS)) {
                            out.push(part(0, data), Role::Write, index, vdst_partial);
                        }
                    } else {
                        if spec.role.reads() {
                            out.push(part(0, data), Role::Read, index, false);
                        }
                        if spec.role.writes() && !atomic {
                            out.push(part(0, data), Role::Write, index, false);
                        }
                        if returns {
                            let back = if row.has(flags::CMPSWAP) {
                                data / 2
                            } else {
                                data
                            };
                            out.push(part(0, back), Role::Write, index, false);
                        }
                    }
                    if status == 1 {
                        out.push(part(data, 1), Role::Write, index, false);
                    }
                }
                // FLAT/GLOBAL/SCRATCH VDST: an atomic's return only with GLC.
                (Encoding::Flat | Encoding::Global | Encoding::Scratch, Field::Vdst)
                    if atomic && !returns => {}
                (_, Field::Vdst) => out.push(location, spec.role, index, vdst_partial),
                _ => out.push(location, spec.role, index, false),
            }
        }
        // buffer_store_lds_dword and friends list no VADDR, but take one
        // (decoded into the slot after the row's operands).
        if buffer && vaddr_used && row.operand(Field::Vaddr).is_none() {
            let i = row.operands.len();
            if let Some(&Operand::Reg { code, count }) = self.operand_array.get(i) {
                if code >= 256 {
                    out.push(
                        Location::Vgprs {
                            index: code - 256,
                            count: u16::from(count).max(1),
                        },
                        Role::Read,
                        Some(i as u8),
                        false,
                    );
                }
            }
        }
        for implicit in row.implicit_on(version) {
            out.push(
                implicit_location_in(implicit.reg, version, wave32),
                implicit.role,
                None,
                false,
            );
        }
        // M0 reads that the modifier bits add: the LDS address of a MUBUF
        // load or store to LDS, the GDS window of a DS access with `gds`
        // (the table lists the GCN 1.0–1.2 LDS-limit read of every DS
        // instruction).
        let m0_by_modifier = (buffer && mem.contains(MemFlags::LDS))
            || (encoding == Encoding::Ds && mem.contains(MemFlags::GDS));
        if m0_by_modifier && !row.reads_implicit(ImplicitReg::M0, version) {
            out.push(
                implicit_location_in(ImplicitReg::M0, version, wave32),
                Role::Read,
                None,
                false,
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{assemble, AssembleOptions};

    /// The accesses of the one instruction `source` assembles to.
    fn accesses(version: GcnVersion, source: &str) -> Vec<(Location, Role, bool)> {
        let options = AssembleOptions {
            version: Some(version),
            ..AssembleOptions::default()
        };
        let out = assemble(source, &options).unwrap_or_else(|e| panic!("{source}: {e:?}"));
        let words = crate::decode::words_from_bytes(out.text());
        let instr = crate::decode::decode(&words, 0, version).expect("decodes");
        instr
            .accesses()
            .iter()
            .map(|a| (a.location, a.role, a.partial))
            .collect()
    }

    fn v(index: u16, count: u16) -> Location {
        Location::Vgprs { index, count }
    }

    fn s(code: u16, count: u16) -> Location {
        Location::Sgprs { code, count }
    }

    const R: Role = Role::Read;
    const W: Role = Role::Write;
    const RW: Role = Role::ReadWrite;
    use GcnVersion::{Gcn1_0, Gcn1_2, Gcn1_4};

    #[test]
    fn buffer_vaddr_only_with_offen_idxen_addr64() {
        let load = |m: &str| {
            let addr = if m.contains(' ') || m == "addr64" {
                "v[2:3]"
            } else {
                "v2"
            };
            accesses(
                Gcn1_0,
                &format!("buffer_load_dword v1, {addr}, s[4:7], s9 {m}"),
            )
        };
        let expect = |vaddr: Option<u16>| {
            let mut e = vec![(v(1, 1), W, false)];
            if let Some(n) = vaddr {
                e.push((v(2, n), R, false));
            }
            e.push((s(4, 4), R, false));
            e.push((s(9, 1), R, false));
            e
        };
        assert_eq!(load(""), expect(None));
        assert_eq!(load("offen"), expect(Some(1)));
        assert_eq!(load("idxen"), expect(Some(1)));
        assert_eq!(load("offen idxen"), expect(Some(2)));
        assert_eq!(load("addr64"), expect(Some(2)));
        // A store reads its data; TFE adds a written status register.
        assert_eq!(
            accesses(
                Gcn1_0,
                "buffer_store_dwordx2 v[4:6], v0, s[8:11], 0 offen tfe"
            )[..2],
            [(v(4, 2), R, false), (v(6, 1), W, false)]
        );
    }

    #[test]
    fn atomics_return_only_with_glc() {
        let a = accesses(Gcn1_0, "buffer_atomic_add v1, v2, s[4:7], 0 offen");
        assert_eq!(a[0], (v(1, 1), R, false));
        assert!(!a.iter().any(|x| x.1.writes()), "{a:?}");
        let a = accesses(
            Gcn1_0,
            "buffer_atomic_cmpswap v[2:3], v0, s[4:7], 0 offen glc",
        );
        assert_eq!(a[..2], [(v(2, 2), R, false), (v(2, 1), W, false)]);
        let a = accesses(Gcn1_4, "global_atomic_add v0, v[2:3], v4, off");
        assert!(!a.iter().any(|x| x.1.writes()), "{a:?}");
        let a = accesses(Gcn1_4, "global_atomic_add v0, v[2:3], v4, off glc");
        assert_eq!(a[0], (v(0, 1), W, false));
    }

    #[test]
    fn global_vaddr_width_follows_saddr() {
        let a = accesses(Gcn1_4, "global_load_dword v59, v59, s[16:17]");
        assert_eq!(
            a,
            [
                (v(59, 1), W, false),
                (v(59, 1), R, false),
                (s(16, 2), R, false)
            ]
        );
        let a = accesses(Gcn1_4, "global_load_dword v1, v[2:3], off");
        assert_eq!(a, [(v(1, 1), W, false), (v(2, 2), R, false)]);
    }

    #[test]
    fn lds_loads_and_merges() {
        // A load into LDS writes no VGPR and reads M0.
        let a = accesses(Gcn1_0, "buffer_load_dword v1, v2, s[4:7], 0 offen lds");
        assert!(!a.iter().any(|x| x.1.writes()), "{a:?}");
        assert!(a.contains(&(s(124, 1), R, false)), "{a:?}");
        // GCN 1.4 d16 loads fill half a register: a partial write.
        let a = accesses(Gcn1_4, "buffer_load_short_d16_hi v1, v2, s[4:7], 0 offen");
        assert_eq!(a[0], (v(1, 1), W, true));
    }

    #[test]
    fn operand_roles_and_implicit_registers() {
        // SOPK compare reads its SDST field; s_addk reads and writes it.
        let a = accesses(Gcn1_0, "s_cmpk_eq_i32 s5, 3");
        assert_eq!(a[0], (s(5, 1), R, false));
        assert!(a.contains(&(Location::State(ImplicitReg::Scc), W, false)));
        assert_eq!(
            accesses(Gcn1_0, "s_addk_i32 s5, 3")[0],
            (s(5, 1), RW, false)
        );
        // s_setreg reads its SGPR and writes the field of the hardware
        // register, keeping the other bits (a read-modify-write).
        let a = accesses(Gcn1_0, "s_setreg_b32 hwreg(mode, 0, 4), s3");
        assert_eq!(
            a,
            [
                (Location::State(ImplicitReg::Mode), RW, false),
                (s(3, 1), R, false)
            ]
        );
        // v_mac accumulates into its destination.
        assert_eq!(
            accesses(Gcn1_0, "v_mac_f32 v1, v2, v3")[0],
            (v(1, 1), RW, false)
        );
        // Implicit VCC, EXEC, SCC, M0.
        assert!(accesses(Gcn1_0, "s_cbranch_vccz 0").contains(&(s(106, 2), R, false)));
        assert!(accesses(Gcn1_0, "v_cmpx_eq_u32 vcc, v1, v2").contains(&(s(126, 2), W, false)));
        assert!(accesses(Gcn1_0, "s_add_u32 s0, s1, s2").contains(&(
            Location::State(ImplicitReg::Scc),
            W,
            false
        )));
        assert!(accesses(Gcn1_0, "s_cselect_b32 s0, s1, s2").contains(&(
            Location::State(ImplicitReg::Scc),
            R,
            false
        )));
        let a = accesses(Gcn1_0, "s_and_saveexec_b64 s[0:1], s[2:3]");
        assert!(a.contains(&(s(126, 2), RW, false)), "{a:?}");
        // DS reads M0 (the LDS limit) up to GCN 1.2 only.
        assert!(accesses(Gcn1_2, "ds_read_b32 v1, v2").contains(&(s(124, 1), R, false)));
        assert!(!accesses(Gcn1_4, "ds_read_b32 v1, v2").contains(&(s(124, 1), R, false)));
        // Special sources name what they read.
        assert!(accesses(Gcn1_0, "v_mov_b32 v1, vccz").contains(&(s(106, 2), R, false)));
        assert!(accesses(Gcn1_0, "v_mov_b32 v1, scc").contains(&(
            Location::State(ImplicitReg::Scc),
            R,
            false
        )));
        // v_writelane writes one lane: partial.
        assert_eq!(
            accesses(Gcn1_0, "v_writelane_b32 v1, s2, 3")[0],
            (v(1, 1), W, true)
        );
    }
}
