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
    /// GCN 1.5 (RDNA 1, Navi 10: gfx1010, gfx1013).
    Gcn1_5,
    /// GCN 1.5.1 (RDNA 1 with the dot instructions, Navi 12/14: gfx1011,
    /// gfx1012).
    Gcn1_5_1,
    /// RDNA 2 (Navi 2x: gfx1030-gfx1036), which CLRX never reached: GCN
    /// 1.5.1's encodings without the scalar stores and atomics and the MAD
    /// family, with a few new instructions (LLVM's gfx10.3).
    Rdna2,
}

impl GcnVersion {
    /// All versions, oldest first.
    pub const ALL: [GcnVersion; 8] = [
        GcnVersion::Gcn1_0,
        GcnVersion::Gcn1_1,
        GcnVersion::Gcn1_2,
        GcnVersion::Gcn1_4,
        GcnVersion::Gcn1_4_1,
        GcnVersion::Gcn1_5,
        GcnVersion::Gcn1_5_1,
        GcnVersion::Rdna2,
    ];

    /// Index of the opcode column of this version in the ISA table
    /// (1.0, 1.1, 1.2, 1.4, 1.5, RDNA 2; GCN 1.4.1 shares the 1.4 column,
    /// GCN 1.5.1 the 1.5 column).
    pub const fn opcode_column(self) -> usize {
        match self {
            GcnVersion::Gcn1_0 => 0,
            GcnVersion::Gcn1_1 => 1,
            GcnVersion::Gcn1_2 => 2,
            GcnVersion::Gcn1_4 | GcnVersion::Gcn1_4_1 => 3,
            GcnVersion::Gcn1_5 | GcnVersion::Gcn1_5_1 => 4,
            GcnVersion::Rdna2 => 5,
        }
    }

    /// True for GCN 1.2 and later (the "VI" encodings: SMEM, SDWA, DPP).
    pub const fn is_gcn12_or_later(self) -> bool {
        !matches!(self, GcnVersion::Gcn1_0 | GcnVersion::Gcn1_1)
    }

    /// True for GCN 1.4 and 1.4.1.
    pub const fn is_gcn14(self) -> bool {
        matches!(self, GcnVersion::Gcn1_4 | GcnVersion::Gcn1_4_1)
    }

    /// True for GCN 1.4 and later (GLOBAL/SCRATCH, `op_sel`, packed math).
    pub const fn is_gcn14_or_later(self) -> bool {
        self.is_gcn14() || self.is_gcn15()
    }

    /// True for GCN 1.5, 1.5.1 and RDNA 2: the gfx10 encodings, wave32.
    pub const fn is_gcn15(self) -> bool {
        matches!(
            self,
            GcnVersion::Gcn1_5 | GcnVersion::Gcn1_5_1 | GcnVersion::Rdna2
        )
    }

    /// True for RDNA 2 (gfx1030-gfx1036).
    pub const fn is_rdna2(self) -> bool {
        matches!(self, GcnVersion::Rdna2)
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
            "gcn1.5" | "gfx10" | "navi" | "rdna" | "rdna1" => GcnVersion::Gcn1_5,
            "gcn1.5.1" | "gfx1011" | "navidl" => GcnVersion::Gcn1_5_1,
            "rdna2" | "gfx10.3" | "gfx103" => GcnVersion::Rdna2,
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
            GcnVersion::Gcn1_5 => "GCN1.5",
            GcnVersion::Gcn1_5_1 => "GCN1.5.1",
            GcnVersion::Rdna2 => "RDNA2",
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
            GcnVersion::Gcn1_5 => Device::Gfx1010,
            GcnVersion::Gcn1_5_1 => Device::Gfx1011,
            GcnVersion::Rdna2 => Device::Gfx1030,
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
    Gfx1000 => "gfx1000", Gcn1_5, 30;
    Gfx1010 => "gfx1010", Gcn1_5, 31;
    Gfx1011 => "gfx1011", Gcn1_5_1, 32;
    // CLRX has no RDNA 2 device: these ids continue its numbering.
    Gfx1030 => "gfx1030", Rdna2, 33;
    Gfx1031 => "gfx1031", Rdna2, 34;
    Gfx1032 => "gfx1032", Rdna2, 35;
    Gfx1033 => "gfx1033", Rdna2, 36;
    Gfx1034 => "gfx1034", Rdna2, 37;
    Gfx1035 => "gfx1035", Rdna2, 38;
    Gfx1036 => "gfx1036", Rdna2, 39;
}

/// Device names besides the table's own: CLRX's aliases (`polaris10` for
/// ellesmere, `vega10` for gfx900, …) and gfxNNN names (gfx700 … gfx803),
/// and every LLVM processor name of a supported GPU (`-mcpu=` of clang and
/// llc, the names of code objects and HIP bundles: gfx600 … gfx810,
/// gfx909; `verde`, `kabini`, `kaveri`, `tongapro`), each mapped to the
/// CLRX device of the same chip (or of its GCN version where CLRX has
/// none: gfx702, gfx705, gfx805, gfx909).
const ALIASES: &[(&str, &str)] = &[
    // CLRX's aliases.
    ("polaris10", "ellesmere"),
    ("polaris11", "baffin"),
    ("polaris12", "gfx804"),
    ("lexa", "gfx804"),
    ("vega10", "gfx900"),
    ("vega11", "gfx902"),
    ("vega12", "gfx904"),
    ("vega20", "gfx906"),
    ("raven", "gfx903"),
    ("navi10", "gfx1010"),
    // CLRX's gfxNNN names.
    ("gfx700", "spectre"),
    ("gfx701", "hawaii"),
    ("gfx801", "carrizo"),
    ("gfx802", "tonga"),
    ("gfx803", "fiji"),
    // LLVM's processor names and their aliases.
    ("gfx600", "tahiti"),
    ("gfx601", "pitcairn"),
    ("verde", "capeverde"),
    ("gfx602", "oland"),
    ("kaveri", "spectre"),
    ("gfx702", "hawaii"),
    ("gfx703", "kalindi"),
    ("kabini", "kalindi"),
    ("gfx704", "bonaire"),
    ("gfx705", "spectre"),
    ("gfx805", "tonga"),
    ("tongapro", "tonga"),
    ("gfx810", "stoney"),
    ("gfx909", "gfx902"),
    // gfx1012 (Navi 14) has gfx1011's instructions; CLRX has no device
    // for it. gfx1013 (Navi 10 APU) has gfx1010's.
    ("gfx1012", "gfx1011"),
    ("gfx1013", "gfx1010"),
    ("navi12", "gfx1011"),
    ("navi14", "gfx1011"),
    ("navi21", "gfx1030"),
    ("navi22", "gfx1031"),
    ("navi23", "gfx1032"),
    ("navi24", "gfx1034"),
    ("vangogh", "gfx1033"),
    ("rembrandt", "gfx1035"),
    ("raphael", "gfx1036"),
];

impl Device {
    /// Looks a device up by name, case-insensitively: the table's names,
    /// CLRX's aliases and gfxNNN names, and LLVM's processor names
    /// (the table in this module's source, `ALIASES`).
    pub fn from_name(name: &str) -> Option<Device> {
        let lower = name.to_ascii_lowercase();
        let alias = ALIASES
            .iter()
            .find(|(from, _)| *from == lower)
            .map_or(lower.as_str(), |(_, to)| to);
        Device::ALL.iter().copied().find(|d| d.name() == alias)
    }
}

/// The message for a device name [`Device::from_name`] does not know: it
/// lists the known devices, so a typo (`gfx9000`) is easy to fix.
pub fn unknown_device_message(name: &str) -> String {
    let names: Vec<&str> = Device::ALL.iter().map(|d| d.name()).collect();
    let aliases: Vec<&str> = ALIASES.iter().map(|(from, _)| *from).collect();
    let guess = crate::suggest::did_you_mean(name, names.iter().chain(&aliases).copied());
    format!(
        "unknown GPU device '{name}'{guess} (known devices: {}; also {})",
        names.join(", "),
        aliases.join(", ")
    )
}

/// The message for an architecture name [`GcnVersion::from_arch_name`]
/// does not know, listing the known names.
pub fn unknown_arch_message(name: &str) -> String {
    format!(
        "unknown architecture '{name}' (known: GCN1.0, GCN1.1, GCN1.2, GCN1.4, GCN1.4.1, \
         GCN1.5, GCN1.5.1, RDNA2, GFX6-GFX10, GFX1011, GFX10.3, SI, CI, VI, VEGA, NAVI, \
         NAVIDL)"
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
        // LLVM's processor names (code objects, clang -mcpu) and CLRX's.
        for (name, device) in [
            ("gfx803", Device::Fiji),
            ("GFX803", Device::Fiji),
            ("gfx600", Device::Tahiti),
            ("gfx601", Device::Pitcairn),
            ("gfx602", Device::Oland),
            ("gfx700", Device::Spectre),
            ("gfx701", Device::Hawaii),
            ("gfx703", Device::Kalindi),
            ("gfx704", Device::Bonaire),
            ("gfx801", Device::Carrizo),
            ("gfx802", Device::Tonga),
            ("gfx805", Device::Tonga),
            ("gfx810", Device::Stoney),
            ("verde", Device::CapeVerde),
        ] {
            assert_eq!(Device::from_name(name), Some(device), "{name}");
        }
        // Every LLVM processor of GCN 1.0-1.4.1 resolves.
        for name in [
            "gfx600",
            "gfx601",
            "gfx602",
            "gfx700",
            "gfx701",
            "gfx702",
            "gfx703",
            "gfx704",
            "gfx705",
            "gfx801",
            "gfx802",
            "gfx803",
            "gfx805",
            "gfx810",
            "gfx900",
            "gfx902",
            "gfx904",
            "gfx906",
            "gfx909",
            "tahiti",
            "pitcairn",
            "verde",
            "oland",
            "hainan",
            "bonaire",
            "kabini",
            "kaveri",
            "hawaii",
            "mullins",
            "tonga",
            "tongapro",
            "iceland",
            "carrizo",
            "fiji",
            "stoney",
            "polaris10",
            "polaris11",
        ] {
            assert!(Device::from_name(name).is_some(), "{name}");
        }
        // Issue 11 item 12: a wrong name gets the list of known ones.
        let m = unknown_device_message("gfx9000");
        assert!(m.contains("'gfx9000'") && m.contains("pitcairn") && m.contains("gfx906"));
        assert!(m.contains("did you mean `gfx900`?"), "{m}");
        assert!(unknown_device_message("fijii").contains("did you mean `fiji`?"));
        assert_eq!(Device::Tonga.version(), GcnVersion::Gcn1_2);
        assert_eq!(GcnVersion::from_arch_name("GFX9"), Some(GcnVersion::Gcn1_4));
        assert_eq!(GcnVersion::from_arch_name("gcn2.0"), None);
        assert_eq!(GcnVersion::Gcn1_4_1.opcode_column(), 3);
    }
}
