//! A kernel configuration (`.config`) to its `.AMDGPU.config` entries, as
//! CLRX computes them: register counts (from the code unless given), the
//! `PGM_RSRC1` and `PGM_RSRC2` fields, the scratch setup and, from LLVM 3.9
//! on, the spilled-register counts.

use crate::arch::GcnVersion;
use crate::decode::access::Location;
use crate::isa::Role;

use super::{ProgInfoEntry, PGM_RSRC1, PGM_RSRC2, SPILLED_SGPRS, SPILLED_VGPRS, TMPRING_SIZE};

/// Largest `.localsize` the format accepts (bytes).
pub const MAX_LOCAL_SIZE: u32 = 32768;
/// Most VGPRs a kernel can use.
pub const MAX_VGPRS: u32 = 256;
/// Most user SGPRs (`.userdatanum`).
pub const MAX_USER_DATA: u32 = 16;
/// First LLVM version (major*10000 + minor*100 + micro) whose binaries
/// carry 5 proginfo entries per kernel.
pub const LLVM_3_9: u32 = 30900;
/// First LLVM version whose Gallium binaries are in the AMDHSA format,
/// which is not supported.
pub const LLVM_4_0: u32 = 40000;

/// Most SGPRs a kernel can allocate on `version`, extra registers (VCC,
/// FLAT_SCRATCH, XNACK_MASK) included: clrxasm's `getGPUMaxRegistersNum`,
/// 102 on GCN 1.2, 106 on GCN 1.5 and 104 on the others (GCN 1.4
/// included).
pub fn max_sgprs(version: GcnVersion) -> u32 {
    if version.is_gcn15() {
        106
    } else if version.is_gcn12_or_later() && !version.is_gcn14() {
        102
    } else {
        104
    }
}

/// The dimensions a kernel uses: bit 0 = x, 1 = y, 2 = z.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Dims {
    /// Dimensions of the work-group id (TGID_X/Y/Z_EN, one SGPR each).
    pub group: u8,
    /// Dimensions of the local id (TIDIG_COMP_CNT, one VGPR each up to the
    /// highest).
    pub local: u8,
}

/// The settings of a kernel's `.config` block.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct KernelConfig {
    /// `.dims`; `None` takes the dimension bits of `.pgmrsrc2`.
    pub dims: Option<Dims>,
    /// `.sgprsnum` (all SGPRs including VCC etc.); `None` counts them.
    pub sgprs: Option<u32>,
    /// `.vgprsnum`; `None` counts them.
    pub vgprs: Option<u32>,
    /// `.pgmrsrc1`: OR-ed into the computed value.
    pub pgm_rsrc1: u32,
    /// `.pgmrsrc2`: the bits no other setting controls.
    pub pgm_rsrc2: u32,
    /// `.floatmode` (FP_ROUND and FP_DENORM of the MODE register).
    pub float_mode: u8,
    /// `.priority` (0-3).
    pub priority: u8,
    /// `.exceptions` (7-bit mask).
    pub exceptions: u8,
    /// `.localsize` in bytes.
    pub local_size: u32,
    /// `.scratchbuffer`: scratch bytes per work-item.
    pub scratch_buffer: u32,
    /// `.userdatanum` (user SGPRs).
    pub user_data: u32,
    /// `.tgsize`.
    pub tg_size: bool,
    /// `.debugmode`.
    pub debug_mode: bool,
    /// `.dx10clamp`.
    pub dx10_clamp: bool,
    /// `.ieeemode`.
    pub ieee_mode: bool,
    /// `.privmode`.
    pub priv_mode: bool,
    /// `.spilledsgprs` (LLVM 3.9 and later).
    pub spilled_sgprs: u32,
    /// `.spilledvgprs` (LLVM 3.9 and later).
    pub spilled_vgprs: u32,
    /// Wave32 (GCN 1.5, a ROCm kernel's `.use_wave32`): VCC is one SGPR.
    pub wave32: bool,
}

impl Default for KernelConfig {
    fn default() -> Self {
        KernelConfig {
            dims: None,
            sgprs: None,
            vgprs: None,
            pgm_rsrc1: 0,
            pgm_rsrc2: 0,
            float_mode: 0xc0,
            priority: 0,
            exceptions: 0,
            local_size: 0,
            scratch_buffer: 0,
            user_data: 4,
            tg_size: false,
            debug_mode: false,
            dx10_clamp: false,
            ieee_mode: false,
            priv_mode: false,
            spilled_sgprs: 0,
            spilled_vgprs: 0,
            wave32: false,
        }
    }
}

/// The registers the code of a kernel names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RegisterUsage {
    /// One past the highest SGPR (s0…) used.
    pub sgprs: u32,
    /// One past the highest VGPR used.
    pub vgprs: u32,
    /// VCC is used.
    pub vcc: bool,
    /// FLAT_SCRATCH is used.
    pub flat_scratch: bool,
    /// XNACK_MASK is used.
    pub xnack_mask: bool,
}

impl RegisterUsage {
    /// Charges one register access of an instruction as clrxasm counts
    /// (`updateSGPRsNum`/`updateVGPRsNum`/`updateRegFlags` of its GCN
    /// assembler): a *written* VGPR raises the VGPR count; a written SGPR
    /// below the version's SGPR count raises the SGPR count, to at most that
    /// count minus 2; any access of VCC, FLAT_SCRATCH or XNACK_MASK (on GCN
    /// 1.1, whose FLAT_SCRATCH is codes 104-105) sets their flag. A
    /// register that is only read counts for nothing: what the hardware
    /// sets up before the kernel runs is in the kernel's minimum counts,
    /// and anything else read but never written holds no value.
    pub fn record_access(&mut self, location: Location, role: Role, version: GcnVersion) {
        match location {
            Location::Vgprs { index, count } => {
                if role.writes() {
                    self.vgprs = self
                        .vgprs
                        .max((u32::from(index) + u32::from(count)).min(MAX_VGPRS));
                }
            }
            Location::Sgprs { code, count } => {
                let code = u32::from(code);
                let max = max_sgprs(version);
                let last = code + u32::from(count.max(1)) - 1;
                if role.writes() && last < max {
                    self.sgprs = self.sgprs.max(last + 1).min(max - 2);
                }
                // GCN 1.5 has no FLAT_SCRATCH/XNACK_MASK pairs, but clrxasm
                // (updateRegFlags) charges an access of s104-s105 there as
                // FLAT_SCRATCH, as on GCN 1.1: four more SGPRs.
                let gcn12 = version.is_gcn12_or_later();
                let gcn15 = version.is_gcn15();
                match code & !1 {
                    106 => self.vcc = true,
                    102 if gcn15 => {}
                    104 if gcn15 => self.flat_scratch = true,
                    102 if gcn12 => self.flat_scratch = true,
                    104 if gcn12 => self.xnack_mask = true,
                    104 => self.flat_scratch = true,
                    _ => {}
                }
            }
            Location::State(_) => {}
        }
    }

    /// Charges every register access of `instruction` (see
    /// [`Self::record_access`]).
    pub fn record_instruction(&mut self, instruction: &crate::decode::Instruction) {
        for a in instruction.accesses().iter() {
            self.record_access(a.location, a.role, instruction.version);
        }
    }

    /// Merges `other` into `self` (code shared by kernels).
    pub fn merge(&mut self, other: &RegisterUsage) {
        self.sgprs = self.sgprs.max(other.sgprs);
        self.vgprs = self.vgprs.max(other.vgprs);
        self.vcc |= other.vcc;
        self.flat_scratch |= other.flat_scratch;
        self.xnack_mask |= other.xnack_mask;
    }

    /// SGPRs taken by the extra registers on `version`: VCC (2), then
    /// FLAT_SCRATCH below it (4 in all), then XNACK_MASK (6).
    pub fn extra_sgprs(&self, version: GcnVersion) -> u32 {
        self.extra_sgprs_in(version, false)
    }

    /// [`Self::extra_sgprs`] in wave32 or wave64: in wave32 (GCN 1.5) VCC
    /// takes one SGPR.
    pub fn extra_sgprs_in(&self, version: GcnVersion, wave32: bool) -> u32 {
        // clrxasm's getGPUExtraRegsNum: FLAT_SCRATCH comes with XNACK_MASK
        // (and VCC) from GCN 1.2 on.
        let gcn12 = version.is_gcn12_or_later();
        let vcc = if wave32 && version.is_gcn15() { 1 } else { 2 };
        if self.flat_scratch && version >= GcnVersion::Gcn1_1 {
            if gcn12 {
                4 + vcc
            } else {
                2 + vcc
            }
        } else if self.xnack_mask && gcn12 {
            2 + vcc
        } else if self.vcc {
            vcc
        } else {
            0
        }
    }
}

/// Number of VGPRs holding the local id for the local dimensions `dims`.
fn local_id_vgprs(dims: u8) -> u32 {
    if dims & 4 != 0 {
        3
    } else if dims & 2 != 0 {
        2
    } else {
        u32::from(dims & 1)
    }
}

/// The computed register totals and entries of one kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgInfo {
    /// SGPRs allocated (extra registers included).
    pub sgprs: u32,
    /// VGPRs allocated.
    pub vgprs: u32,
    /// The `.AMDGPU.config` entries (3, or 5 from LLVM 3.9 on).
    pub entries: Vec<ProgInfoEntry>,
}

/// Computes the `.AMDGPU.config` entries of a kernel with configuration
/// `config` whose code uses `usage`, for `version` and LLVM version
/// `llvm_version` (0 when unknown). Errors name the limit exceeded.
pub fn prog_info(
    config: &KernelConfig,
    usage: &RegisterUsage,
    version: GcnVersion,
    llvm_version: u32,
) -> Result<ProgInfo, String> {
    let llvm39 = llvm_version >= LLVM_3_9;
    let dims = config.dims.unwrap_or_else(|| {
        // Without `.dims` the dimension bits of `.pgmrsrc2` apply.
        let d = ((config.pgm_rsrc2 >> 7) & 7) as u8;
        Dims { group: d, local: d }
    });
    let scratch_en = config.scratch_buffer != 0;
    let min_sgprs = config.user_data
        + u32::from(dims.group.count_ones() as u8)
        + u32::from(config.tg_size)
        + u32::from(scratch_en);
    let min_vgprs = local_id_vgprs(dims.local);
    let max = max_sgprs(version);
    let sgprs = match config.sgprs {
        Some(n) if n > max => {
            return Err(format!(
                "{n} SGPRs is more than the {max} a kernel can use on this GPU"
            ))
        }
        Some(n) => n,
        None => {
            // clrxasm counts VCC for every Gallium kernel, whatever the
            // LLVM version and whether the code names VCC (s0-s15 without
            // VCC under an LLVM 3.8 config: 18 SGPRs, PGM_RSRC1
            // 0x000c0080).
            let mut extra = *usage;
            extra.vcc = true;
            (usage.sgprs.max(min_sgprs) + extra.extra_sgprs_in(version, config.wave32)).min(max)
        }
    };
    let vgprs = config.vgprs.unwrap_or(usage.vgprs.max(min_vgprs));
    if vgprs > MAX_VGPRS {
        return Err(format!(
            "{vgprs} VGPRs is more than the {MAX_VGPRS} a kernel can use"
        ));
    }
    if config.local_size > MAX_LOCAL_SIZE {
        return Err(format!(
            "local size {} is larger than {MAX_LOCAL_SIZE} bytes",
            config.local_size
        ));
    }
    if config.user_data > MAX_USER_DATA {
        return Err(format!(
            "{} user SGPRs is more than {MAX_USER_DATA}",
            config.user_data
        ));
    }
    // clrxasm's calculatePgmRSrc1: on GCN 1.5 the SGPR field is 0 and VGPRs
    // count in blocks of 8.
    let (vgpr_field, sgpr_field) = if version.is_gcn15() {
        ((vgprs.max(1) - 1) / 8, 0)
    } else {
        ((vgprs.max(1) - 1) / 4, (sgprs.max(1) - 1) / 8)
    };
    let rsrc1 = config.pgm_rsrc1
        | vgpr_field
        | (sgpr_field << 6)
        | (u32::from(config.priority & 3) << 10)
        | (u32::from(config.float_mode) << 12)
        | (u32::from(config.priv_mode) << 20)
        | (u32::from(config.dx10_clamp) << 21)
        | (u32::from(config.debug_mode) << 22)
        | (u32::from(config.ieee_mode) << 23);
    let dim_bits = match config.dims {
        Some(d) => {
            let tidig = if d.local & 4 != 0 {
                2
            } else if d.local & 2 != 0 {
                1
            } else {
                0
            };
            (u32::from(d.group & 7) << 7) | (tidig << 11)
        }
        None => config.pgm_rsrc2 & 0x1b80,
    };
    // LDS is allocated in 64-dword blocks on GCN 1.0, 128-dword blocks later.
    let lds_granule = if version == GcnVersion::Gcn1_0 {
        256
    } else {
        512
    };
    let lds_blocks = config.local_size.div_ceil(lds_granule);
    let rsrc2 = (config.pgm_rsrc2 & 0xffff_e440)
        | u32::from(scratch_en)
        | (config.user_data << 1)
        | dim_bits
        | (u32::from(config.tg_size) << 10)
        | (lds_blocks << 15)
        | (u32::from(config.exceptions & 0x7f) << 24);
    // COMPUTE_TMPRING_SIZE.WAVESIZE: scratch per wave in 1 KiB blocks.
    let scratch_blocks = (u64::from(config.scratch_buffer) * 64).div_ceil(1024);
    let scratch = (scratch_blocks.min(0x1fff) as u32) << 12;
    let mut entries = vec![
        ProgInfoEntry {
            address: PGM_RSRC1,
            value: rsrc1,
        },
        ProgInfoEntry {
            address: PGM_RSRC2,
            value: rsrc2,
        },
        ProgInfoEntry {
            address: TMPRING_SIZE,
            value: scratch,
        },
    ];
    if llvm39 {
        entries.push(ProgInfoEntry {
            address: SPILLED_SGPRS,
            value: config.spilled_sgprs,
        });
        entries.push(ProgInfoEntry {
            address: SPILLED_VGPRS,
            value: config.spilled_vgprs,
        });
    }
    Ok(ProgInfo {
        sgprs,
        vgprs,
        entries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rsrc(config: &KernelConfig, usage: &RegisterUsage, v: GcnVersion) -> (u32, u32, u32) {
        let p = prog_info(config, usage, v, 0).unwrap();
        (p.entries[0].value, p.entries[1].value, p.entries[2].value)
    }

    #[test]
    fn reference_values() {
        // config-vadd.s (Pitcairn): s0-s15, v0-v3, VCC; dims x, tgsize.
        let usage = RegisterUsage {
            sgprs: 16,
            vgprs: 4,
            vcc: true,
            ..Default::default()
        };
        let config = KernelConfig {
            dims: Some(Dims { group: 1, local: 1 }),
            tg_size: true,
            ..Default::default()
        };
        assert_eq!(
            rsrc(&config, &usage, GcnVersion::Gcn1_0),
            (0x000c_0080, 0x0000_0488, 0)
        );
        // rodata-two-kernels.s `scale` (Bonaire): s17, v7; dims xy,
        // localsize 1024, floatmode 0xf0, ieeemode.
        let usage = RegisterUsage {
            sgprs: 18,
            vgprs: 8,
            ..Default::default()
        };
        let config = KernelConfig {
            dims: Some(Dims { group: 3, local: 3 }),
            local_size: 1024,
            float_mode: 0xf0,
            ieee_mode: true,
            ..Default::default()
        };
        assert_eq!(
            rsrc(&config, &usage, GcnVersion::Gcn1_1),
            (0x008f_0081, 0x0001_0988, 0)
        );
    }

    #[test]
    fn extra_registers_per_version() {
        let flat = RegisterUsage {
            flat_scratch: true,
            ..Default::default()
        };
        assert_eq!(flat.extra_sgprs(GcnVersion::Gcn1_0), 0);
        assert_eq!(flat.extra_sgprs(GcnVersion::Gcn1_1), 4);
        let both = RegisterUsage {
            flat_scratch: true,
            xnack_mask: true,
            ..Default::default()
        };
        assert_eq!(both.extra_sgprs(GcnVersion::Gcn1_2), 6);
        let flat12 = RegisterUsage {
            flat_scratch: true,
            ..Default::default()
        };
        assert_eq!(flat12.extra_sgprs(GcnVersion::Gcn1_2), 6);
        let sgprs = |code, count| Location::Sgprs { code, count };
        let mut u = RegisterUsage::default();
        u.record_access(sgprs(102, 2), Role::Write, GcnVersion::Gcn1_2);
        assert!(u.flat_scratch && u.sgprs == 0);
        let mut u = RegisterUsage::default();
        u.record_access(sgprs(102, 2), Role::Write, GcnVersion::Gcn1_1);
        // s102-s103 are SGPRs on GCN 1.1; clrxasm counts at most 104 - 2.
        assert_eq!(u.sgprs, 102);
        u.record_access(sgprs(104, 2), Role::Read, GcnVersion::Gcn1_1);
        assert!(u.flat_scratch);
        u.record_access(sgprs(20, 2), Role::Read, GcnVersion::Gcn1_1);
        assert_eq!(u.sgprs, 102);
        let mut u = RegisterUsage::default();
        u.record_access(sgprs(20, 2), Role::Read, GcnVersion::Gcn1_1);
        assert_eq!(u.sgprs, 0, "a register only read is not counted");
        let vgprs = |index, count| Location::Vgprs { index, count };
        u.record_access(vgprs(10, 4), Role::Write, GcnVersion::Gcn1_1);
        assert_eq!(u.vgprs, 14);
        u.record_access(vgprs(30, 1), Role::Read, GcnVersion::Gcn1_1);
        assert_eq!(u.vgprs, 14);
    }

    #[test]
    fn lds_granule_scratch_and_limits() {
        let usage = RegisterUsage::default();
        let config = KernelConfig {
            local_size: 1000,
            scratch_buffer: 100,
            ..Default::default()
        };
        let (_, r2, s) = rsrc(&config, &usage, GcnVersion::Gcn1_0);
        assert_eq!((r2 >> 15) & 0x1ff, 4);
        assert_eq!(r2 & 1, 1);
        assert_eq!(s, 7 << 12);
        let (_, r2, _) = rsrc(&config, &usage, GcnVersion::Gcn1_2);
        assert_eq!((r2 >> 15) & 0x1ff, 2);
        let too_big = KernelConfig {
            local_size: 32769,
            ..Default::default()
        };
        assert!(prog_info(&too_big, &usage, GcnVersion::Gcn1_0, 0).is_err());
        let vgprs = KernelConfig {
            vgprs: Some(257),
            ..Default::default()
        };
        assert!(prog_info(&vgprs, &usage, GcnVersion::Gcn1_0, 0).is_err());
        let sgprs = KernelConfig {
            sgprs: Some(103),
            ..Default::default()
        };
        assert!(prog_info(&sgprs, &usage, GcnVersion::Gcn1_2, 0).is_err());
        assert!(prog_info(&sgprs, &usage, GcnVersion::Gcn1_1, 0).is_ok());
        let p = prog_info(&KernelConfig::default(), &usage, GcnVersion::Gcn1_0, 30900).unwrap();
        assert_eq!(p.entries.len(), 5);
        // VCC is counted for every kernel: 4 user SGPRs + 2.
        assert_eq!(p.sgprs, 6);
        let p = prog_info(&KernelConfig::default(), &usage, GcnVersion::Gcn1_0, 30800).unwrap();
        assert_eq!(p.sgprs, 6);
    }
}
