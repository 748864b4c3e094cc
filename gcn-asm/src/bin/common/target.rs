//! The `-g DEVICE` / `-A ARCH` options shared by `gcnasm` and `gcndisasm`.

use gcn_asm::{Device, GcnVersion};

/// Target selection, as clrxasm/clrxdisasm take it.
#[derive(Debug, clap::Args)]
pub struct TargetArgs {
    /// Target GPU device (capeverde, pitcairn, tahiti, oland, bonaire, hawaii,
    /// tonga, fiji, gfx900, gfx906, gfx1010, gfx1011, gfx1012, gfx1030-gfx1036,
    /// ...). Default: capeverde (GCN 1.0).
    #[arg(short = 'g', long = "gpuType", value_name = "DEVICE")]
    pub device: Option<String>,
    /// Target architecture (GCN1.0, GCN1.1, GCN1.2, GCN1.4, GCN1.4.1,
    /// GCN1.5, GCN1.5.1, RDNA2 or GFX6/GFX7/GFX8/GFX9/GFX10/GFX10.3,
    /// SI/CI/VI/VEGA/NAVI).
    #[arg(
        short = 'A',
        long = "arch",
        value_name = "ARCH",
        conflicts_with = "device"
    )]
    pub arch: Option<String>,
}

/// What the options asked for.
pub enum Selected {
    /// `-g DEVICE`.
    Device(Device),
    /// `-A ARCH`.
    Arch(GcnVersion),
    /// Neither: the tool's default.
    Default,
}

impl TargetArgs {
    /// Resolves the names, or says which one is unknown.
    pub fn selected(&self) -> Result<Selected, String> {
        if let Some(name) = &self.device {
            return Device::from_name(name)
                .map(Selected::Device)
                .ok_or_else(|| gcn_asm::arch::unknown_device_message(name));
        }
        if let Some(name) = &self.arch {
            return GcnVersion::from_arch_name(name)
                .map(Selected::Arch)
                .ok_or_else(|| gcn_asm::arch::unknown_arch_message(name));
        }
        Ok(Selected::Default)
    }
}
