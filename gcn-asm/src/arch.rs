//! GCN architecture versions and the GPU devices that select them.

use std::fmt;

/// A GCN instruction-set version, as CLRX names them.
///
/// GCN 1.4.1 (Vega 20, gfx906) is GCN 1.4 plus the deep-learning
/// instructions; it uses GCN 1.4 opcodes everywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GcnVersion {
    /// GCN 1.0 (Southern Islands: Pitcairn, Tahiti, Cape Verde, Oland).
    Gcn1_0,
    /// GCN 1.1 (Sea Islands: Bonaire, Hawaii, Kaveri).
    Gcn1_1,
    /// GCN 1.2 (Volcanic Islands: Tonga, Fiji, Polaris).
    Gcn1_2,
    /// GCN 1.4 (Vega 10, gfx900).
    Gcn1_4,
    /// GCN 1.4.1 (Vega 20, gfx906).
    Gcn1_4_1,
}

impl GcnVersion {
    /// All versions, oldest first.
    pub const ALL: [GcnVersion; 5] = [
        GcnVersion::Gcn1_0,
        GcnVersion::Gcn1_1,
        GcnVersion::Gcn1_2,
        GcnVersion::Gcn1_4,
        GcnVersion::Gcn1_4_1,
    ];

    /// Index of the opcode column of this version in the ISA table
    /// (1.0, 1.1, 1.2, 1.4; GCN 1.4.1 shares the 1.4 column).
    pub const fn opcode_column(self) -> usize {
        match self {
            GcnVersion::Gcn1_0 => 0,
            GcnVersion::Gcn1_1 => 1,
            GcnVersion::Gcn1_2 => 2,
            GcnVersion::Gcn1_4 | GcnVersion::Gcn1_4_1 => 3,
        }
    }

    /// True for GCN 1.2 and later (the "VI" encodings: SMEM, SDWA, DPP).
    pub const fn is_gcn12_or_later(self) -> bool {
        matches!(
            self,
            GcnVersion::Gcn1_2 | GcnVersion::Gcn1_4 | GcnVersion::Gcn1_4_1
        )
    }

    /// True for GCN 1.4 and 1.4.1.
    pub const fn is_gcn14(self) -> bool {
        matches!(self, GcnVersion::Gcn1_4 | GcnVersion::Gcn1_4_1)
    }

    /// Parses an architecture name as `.arch` and `-A` accept it
    /// (`GCN1.0`, `GFX6`, `SI`, … case-insensitive).
    pub fn from_arch_name(name: &str) -> Option<GcnVersion> {
        let lower = name.to_ascii_lowercase();
        Some(match lower.as_str() {
            "gcn1.0" | "gfx6" | "si" => GcnVersion::Gcn1_0,
            "gcn1.1" | "gfx7" | "ci" => GcnVersion::Gcn1_1,
            "gcn1.2" | "gfx8" | "vi" => GcnVersion::Gcn1_2,
            "gcn1.4" | "gfx9" | "vega" => GcnVersion::Gcn1_4,
            "gcn1.4.1" | "gfx906" | "vega20" => GcnVersion::Gcn1_4_1,
            _ => return None,
        })
    }

    /// The canonical CLRX name (`GCN1.0` …).
    pub const fn name(self) -> &'static str {
        match self {
            GcnVersion::Gcn1_0 => "GCN1.0",
            GcnVersion::Gcn1_1 => "GCN1.1",
            GcnVersion::Gcn1_2 => "GCN1.2",
            GcnVersion::Gcn1_4 => "GCN1.4",
            GcnVersion::Gcn1_4_1 => "GCN1.4.1",
        }
    }

    /// The device CLRX picks when only the architecture is given.
    pub const fn default_device(self) -> Device {
        match self {
            GcnVersion::Gcn1_0 => Device::CapeVerde,
            GcnVersion::Gcn1_1 => Device::Bonaire,
            GcnVersion::Gcn1_2 => Device::Tonga,
            GcnVersion::Gcn1_4 => Device::Gfx900,
            GcnVersion::Gcn1_4_1 => Device::Gfx906,
        }
    }
}

impl fmt::Display for GcnVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

macro_rules! devices {
    ($($variant:ident => $name:literal, $version:ident, $gallium_id:literal;)*) => {
        /// A GPU device known to the assembler (`.gpu NAME`, `-g NAME`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Device {
            $(
                #[doc = concat!("The `", $name, "` device.")]
                $variant,
            )*
        }

        impl Device {
            /// Every known device, in CLRX's device order.
            pub const ALL: &'static [Device] = &[$(Device::$variant),*];

            /// The lower-case device name.
            pub const fn name(self) -> &'static str {
                match self { $(Device::$variant => $name),* }
            }

            /// The GCN version of this device.
            pub const fn version(self) -> GcnVersion {
                match self { $(Device::$variant => GcnVersion::$version),* }
            }

            /// The device's index in CLRX's `GPUDeviceType` enumeration,
            /// which `.get_gpu` returns.
            pub const fn clrx_id(self) -> u32 {
                match self { $(Device::$variant => $gallium_id),* }
            }
        }
    };
}

devices! {
    CapeVerde => "capeverde", Gcn1_0, 0;
    Pitcairn => "pitcairn", Gcn1_0, 1;
    Tahiti => "tahiti", Gcn1_0, 2;
    Oland => "oland", Gcn1_0, 3;
    Bonaire => "bonaire", Gcn1_1, 4;
    Spectre => "spectre", Gcn1_1, 5;
    Spooky => "spooky", Gcn1_1, 6;
    Kalindi => "kalindi", Gcn1_1, 7;
    Hainan => "hainan", Gcn1_0, 8;
    Hawaii => "hawaii", Gcn1_1, 9;
    Iceland => "iceland", Gcn1_2, 10;
    Tonga => "tonga", Gcn1_2, 11;
    Mullins => "mullins", Gcn1_1, 12;
    Fiji => "fiji", Gcn1_2, 13;
    Carrizo => "carrizo", Gcn1_2, 14;
    Dummy => "dummy", Gcn1_2, 15;
    Goose => "goose", Gcn1_2, 16;
    Horse => "horse", Gcn1_2, 17;
    Stoney => "stoney", Gcn1_2, 18;
    Ellesmere => "ellesmere", Gcn1_2, 19;
    Baffin => "baffin", Gcn1_2, 20;
    Gfx804 => "gfx804", Gcn1_2, 21;
    Gfx900 => "gfx900", Gcn1_4, 22;
    Gfx901 => "gfx901", Gcn1_4, 23;
    Gfx902 => "gfx902", Gcn1_4, 24;
    Gfx903 => "gfx903", Gcn1_4, 25;
    Gfx904 => "gfx904", Gcn1_4, 26;
    Gfx905 => "gfx905", Gcn1_4, 27;
    Gfx906 => "gfx906", Gcn1_4_1, 28;
    Gfx907 => "gfx907", Gcn1_4_1, 29;
}

impl Device {
    /// Looks a device up by name, case-insensitively. Accepts CLRX's aliases
    /// (`polaris10` for ellesmere, `vega10` for gfx900, …).
    pub fn from_name(name: &str) -> Option<Device> {
        let lower = name.to_ascii_lowercase();
        let alias = match lower.as_str() {
            "polaris10" => "ellesmere",
            "polaris11" => "baffin",
            "polaris12" | "lexa" => "gfx804",
            "vega10" => "gfx900",
            "vega11" => "gfx902",
            "vega12" => "gfx904",
            "vega20" => "gfx906",
            "raven" => "gfx903",
            other => other,
        };
        Device::ALL.iter().copied().find(|d| d.name() == alias)
    }
}

/// The message for a device name [`Device::from_name`] does not know: it
/// lists the known devices, so a typo (`gfx9000`) is easy to fix.
pub fn unknown_device_message(name: &str) -> String {
    let names: Vec<&str> = Device::ALL.iter().map(|d| d.name()).collect();
    format!(
        "unknown GPU device '{name}' (known devices: {}; aliases polaris10, polaris11, \
         polaris12, lexa, vega10, vega11, vega12, vega20, raven)",
        names.join(", ")
    )
}

/// The message for an architecture name [`GcnVersion::from_arch_name`]
/// does not know, listing the known names.
pub fn unknown_arch_message(name: &str) -> String {
    format!(
        "unknown architecture '{name}' (known: GCN1.0, GCN1.1, GCN1.2, GCN1.4, GCN1.4.1, \
         GFX6-GFX9, SI, CI, VI, VEGA)"
    )
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_arch_names_resolve() {
        assert_eq!(Device::from_name("Pitcairn"), Some(Device::Pitcairn));
        assert_eq!(Device::from_name("vega10"), Some(Device::Gfx900));
        assert_eq!(Device::from_name("nonexistent"), None);
        // Issue 11 item 12: a wrong name gets the list of known ones.
        let m = unknown_device_message("gfx9000");
        assert!(m.contains("'gfx9000'") && m.contains("pitcairn") && m.contains("gfx906"));
        assert_eq!(Device::Tonga.version(), GcnVersion::Gcn1_2);
        assert_eq!(GcnVersion::from_arch_name("GFX9"), Some(GcnVersion::Gcn1_4));
        assert_eq!(GcnVersion::from_arch_name("gcn2.0"), None);
        assert_eq!(GcnVersion::Gcn1_4_1.opcode_column(), 3);
    }
}
