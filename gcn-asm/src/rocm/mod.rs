//! AMDHSA (ROCm) code objects: the ELF64 shared objects with `e_machine`
//! `EM_AMDGPU` (224) that clang, hipcc and `clrxasm -b rocm` write, in code
//! object versions 2 to 5.
//!
//! [`read`] turns the bytes of a code object into a [`CodeObject`]: its
//! processor, loadable segments, dynamic relocations, kernels (each with its
//! [`KernelDescriptor`], metadata arguments and resource figures), printf
//! formats and the whole parsed [`Metadata`]. The layouts follow LLVM's
//! AMDGPU user guide ("Code Object Metadata", "Kernel Descriptor",
//! `amd_kernel_code_t`, the ELF header `e_flags`, the note records).
//!
//! [`write()`] (the back end of `gcnasm -b rocm`) makes a code object from a
//! [`RocmInput`] (code, global and writable data, kernels, CLRX's GOT
//! entries, `R_AMDGPU_RELATIVE64` relocations), [`layout()`] says where it
//! puts the sections; `crate::decode::rocm` lists one as CLRX ROCm source.
//!
//! Malformed input is never a panic: every reader failure is a [`RocmError`]
//! that says what was wrong and where (file offset, section or kernel).

use std::fmt;

use crate::GcnVersion;

pub(crate) mod clrx_order;
mod descriptor;
mod metadata;
mod reader;
mod types;
mod writer;

pub use descriptor::{AmdKernelCode, KernelDescriptor, UserSgprs, AMD_KERNEL_CODE_SIZE};
pub use metadata::{
    clrx_printf_format, clrx_yaml_string, escape_c_style, parse_printf, KernelMeta, MetaValue,
    Metadata, MetadataFormat,
};
pub use reader::{is_code_object, read};
pub use types::ScalarType;
pub use writer::{
    layout, write, RocmExtraSection, RocmInput, RocmInputKernel, RocmInputReloc, RocmInputSymbol,
    RocmLayout, RocmSection,
};

/// The `.comment` text `gcnasm -b rocm` writes unless the source has a
/// `.comment` section (clrxasm writes `CLRX ROCmBinGenerator VERSION`).
pub const DEFAULT_COMMENT: &str = concat!("gcn-asm ROCmBinGenerator ", env!("CARGO_PKG_VERSION"));

/// ELF `e_machine` of AMD GPU code objects.
pub const EM_AMDGPU: u16 = 224;
/// ELF `EI_OSABI` of AMDHSA code objects (`ELFOSABI_AMDGPU_HSA`).
pub const ELFOSABI_AMDGPU_HSA: u8 = 64;
/// The symbol type of a code object v2 kernel (`STT_AMDGPU_HSA_KERNEL`).
pub const STT_AMDGPU_HSA_KERNEL: u8 = 10;

/// A whole code object, as [`read`] sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct CodeObject {
    /// 2..=5: from the `NT_AMD_HSA_CODE_OBJECT_VERSION` note (v2) or the
    /// ELF ABI version (v3: 1, v4: 2, v5: 3).
    pub code_object_version: u8,
    /// The target processor: from `e_flags` (v3+) or the ISA note (v2).
    pub processor: Processor,
    /// The raw ELF header `e_flags`.
    pub e_flags: u32,
    /// The target name that the metadata or the ISA name note gives
    /// (`amdgcn-amd-amdhsa--gfx900`), if any.
    pub target: Option<String>,
    /// Every `PT_LOAD` program header's contents.
    pub segments: Vec<LoadSegment>,
    /// The relocations of `.rela.dyn` (all `SHT_RELA` sections of loaded
    /// sections), which the loader applies.
    pub dynamic_relocations: Vec<DynamicReloc>,
    /// The kernels, sorted by name.
    pub kernels: Vec<RocmKernel>,
    /// The printf formats of the metadata.
    pub printf_formats: Vec<PrintfFormat>,
    /// The whole parsed metadata note, if there is one.
    pub metadata: Option<Metadata>,
    /// The `.text` section (the code), if there is one.
    pub text: Option<SectionData>,
    /// The `.rodata` section (CLRX's global data), if there is one.
    pub rodata: Option<SectionData>,
    /// The `.data` section (writable data), if there is one.
    pub data: Option<SectionData>,
    /// The `.got` section (global offset table), if there is one.
    pub got: Option<SectionData>,
    /// The `.bss` section (`SHT_NOBITS`, zero when loaded): its virtual
    /// address and size.
    pub bss: Option<(u64, u64)>,
    /// Loaded sections other than the ones every code object has (`.note`,
    /// `.dynsym`, `.hash`, `.gnu.hash`, `.dynstr`, `.rodata`, `.text`,
    /// `.dynamic`, `.rela.dyn`): `.data`, `.bss`, `.got` ... (names in file order).
    pub other_sections: Vec<String>,
    /// CLRX's new binary format (`.newbinfmt`): every object but a v2 one
    /// with an `.AMDGPU.config` section (clrxasm's old layout).
    pub new_format: bool,
    /// The other named symbols of `.symtab`/`.dynsym` that are not kernels
    /// nor kernel descriptors (for listings), sorted by address.
    pub other_symbols: Vec<(String, u64)>,
}

impl CodeObject {
    /// The bytes of a loaded section in the file (`None` for `.bss` and for
    /// a section it does not have).
    pub fn section(&self, section: RocmSection) -> Option<&SectionData> {
        match section {
            RocmSection::Text => self.text.as_ref(),
            RocmSection::Rodata => self.rodata.as_ref(),
            RocmSection::Data => self.data.as_ref(),
            RocmSection::Bss => None,
            RocmSection::Got => self.got.as_ref(),
        }
    }

    /// The virtual address and size of a loaded section.
    pub fn section_range(&self, section: RocmSection) -> Option<(u64, u64)> {
        match section {
            RocmSection::Bss => self.bss,
            _ => self
                .section(section)
                .map(|d| (d.vaddr, d.data.len() as u64)),
        }
    }
}

/// The contents of one named section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionData {
    /// Its virtual address (`sh_addr`).
    pub vaddr: u64,
    /// Its bytes.
    pub data: Vec<u8>,
}

/// The processor a code object is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Processor {
    /// The LLVM processor name (`gfx900`).
    pub name: String,
    /// The GCN generation of this assembler that it belongs to.
    pub version: GcnVersion,
    /// XNACK: `None` when unsupported or "any", else on/off.
    pub xnack: Option<bool>,
    /// SRAMECC: `None` when unsupported or "any", else on/off.
    pub sramecc: Option<bool>,
}

/// One LLVM processor this crate knows: its name, `EF_AMDGPU_MACH` value,
/// ISA version (major, minor, stepping) and GCN generation.
#[derive(Clone, Copy, Debug)]
pub struct ProcessorInfo {
    /// The LLVM name (`gfx803`).
    pub name: &'static str,
    /// Its `EF_AMDGPU_MACH_AMDGCN_*` value.
    pub mach: u32,
    /// Major, minor and stepping of the ISA version.
    pub isa: (u32, u32, u32),
    /// The GCN generation.
    pub version: GcnVersion,
}

macro_rules! processors {
    ($($name:literal, $mach:literal, ($a:literal, $b:literal, $c:literal), $v:ident;)*) => {
        /// The processors of GCN 1.0..RDNA 2 (LLVM's `EF_AMDGPU_MACH` table).
        pub const PROCESSORS: &[ProcessorInfo] = &[
            $(ProcessorInfo { name: $name, mach: $mach, isa: ($a, $b, $c), version: GcnVersion::$v },)*
        ];
    };
}

processors! {
    "gfx600", 0x20, (6, 0, 0), Gcn1_0;
    "gfx601", 0x21, (6, 0, 1), Gcn1_0;
    "gfx602", 0x3a, (6, 0, 2), Gcn1_0;
    "gfx700", 0x22, (7, 0, 0), Gcn1_1;
    "gfx701", 0x23, (7, 0, 1), Gcn1_1;
    "gfx702", 0x24, (7, 0, 2), Gcn1_1;
    "gfx703", 0x25, (7, 0, 3), Gcn1_1;
    "gfx704", 0x26, (7, 0, 4), Gcn1_1;
    "gfx705", 0x3b, (7, 0, 5), Gcn1_1;
    "gfx801", 0x28, (8, 0, 1), Gcn1_2;
    "gfx802", 0x29, (8, 0, 2), Gcn1_2;
    "gfx803", 0x2a, (8, 0, 3), Gcn1_2;
    // CLRX's Fiji/Polaris ISA 8.0.4: no LLVM processor of its own (LLVM
    // folded it into gfx803, whose e_flags value it shares).
    "gfx804", 0x2a, (8, 0, 4), Gcn1_2;
    "gfx805", 0x3c, (8, 0, 5), Gcn1_2;
    "gfx810", 0x2b, (8, 1, 0), Gcn1_2;
    "gfx900", 0x2c, (9, 0, 0), Gcn1_4;
    "gfx902", 0x2d, (9, 0, 2), Gcn1_4;
    "gfx904", 0x2e, (9, 0, 4), Gcn1_4;
    "gfx906", 0x2f, (9, 0, 6), Gcn1_4_1;
    "gfx909", 0x31, (9, 0, 9), Gcn1_4;
    "gfx90c", 0x32, (9, 0, 12), Gcn1_4;
    "gfx1010", 0x33, (10, 1, 0), Gcn1_5;
    "gfx1011", 0x34, (10, 1, 1), Gcn1_5_1;
    "gfx1012", 0x35, (10, 1, 2), Gcn1_5_1;
    "gfx1013", 0x42, (10, 1, 3), Gcn1_5;
    "gfx1030", 0x36, (10, 3, 0), Rdna2;
    "gfx1031", 0x37, (10, 3, 1), Rdna2;
    "gfx1032", 0x38, (10, 3, 2), Rdna2;
    "gfx1033", 0x39, (10, 3, 3), Rdna2;
    "gfx1034", 0x3e, (10, 3, 4), Rdna2;
    "gfx1035", 0x3d, (10, 3, 5), Rdna2;
    "gfx1036", 0x45, (10, 3, 6), Rdna2;
}

/// LLVM processors of other generations (`EF_AMDGPU_MACH` value, name,
/// family), so that a code object for one is named, not just refused.
pub const OTHER_PROCESSORS: &[(u32, &str, &str)] = &[
    (0x30, "gfx908", "CDNA 1"),
    (0x3f, "gfx90a", "CDNA 2"),
    (0x40, "gfx940", "CDNA 3"),
    (0x41, "gfx1100", "RDNA 3"),
    (0x44, "gfx1103", "RDNA 3"),
    (0x46, "gfx1101", "RDNA 3"),
    (0x47, "gfx1102", "RDNA 3"),
    (0x4b, "gfx941", "CDNA 3"),
    (0x4c, "gfx942", "CDNA 3"),
];

/// Why `EF_AMDGPU_MACH` value `mach` is no supported processor: the
/// processor and family when LLVM has one ("gfx90a (CDNA 2), which is not
/// supported yet"), else the value.
pub fn unsupported_mach_message(mach: u32) -> String {
    match OTHER_PROCESSORS.iter().find(|(m, _, _)| *m == mach) {
        Some((_, name, family)) => format!(
            "the code object is for {name} ({family}), which is not supported yet (GCN 1.0-RDNA 2: \
             gfx600-gfx810, gfx900-gfx90c, gfx1010-gfx1036)"
        ),
        None => format!(
            "EF_AMDGPU_MACH {mach:#x} is no AMDGPU processor LLVM 15 knows (GCN 1.0-RDNA 2: \
             gfx600-gfx810, gfx900-gfx90c, gfx1010-gfx1036)"
        ),
    }
}

impl ProcessorInfo {
    /// The processor with this `EF_AMDGPU_MACH` value.
    pub fn from_mach(mach: u32) -> Option<&'static ProcessorInfo> {
        PROCESSORS.iter().find(|p| p.mach == mach)
    }

    /// The processor with this ISA version; the odd steppings that code
    /// object v2 uses for "with XNACK" (gfx801, gfx901, gfx903 ...) map
    /// to the even one below when there is no processor of their own.
    pub fn from_isa(major: u32, minor: u32, stepping: u32) -> Option<&'static ProcessorInfo> {
        PROCESSORS
            .iter()
            .find(|p| p.isa == (major, minor, stepping))
            .or_else(|| {
                let even = stepping.checked_sub(1).filter(|_| stepping % 2 == 1)?;
                PROCESSORS.iter().find(|p| p.isa == (major, minor, even))
            })
    }

    /// The processor with this LLVM name.
    pub fn from_name(name: &str) -> Option<&'static ProcessorInfo> {
        PROCESSORS.iter().find(|p| p.name == name)
    }
}

/// One `PT_LOAD` segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadSegment {
    /// Its virtual address.
    pub vaddr: u64,
    /// The file part of its contents (`p_filesz` bytes).
    pub data: Vec<u8>,
    /// Its size in memory (`p_memsz`); the part past `data` is zero.
    pub mem_size: u64,
    /// `PF_W`.
    pub writable: bool,
    /// `PF_X`.
    pub executable: bool,
}

/// The relocation kinds a code object's dynamic relocations may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelocKind {
    /// `R_AMDGPU_ABS32_LO` (1): the low 32 bits of S + A.
    Abs32Lo,
    /// `R_AMDGPU_ABS32_HI` (2): the high 32 bits of S + A.
    Abs32Hi,
    /// `R_AMDGPU_ABS64` (3): S + A.
    Abs64,
    /// `R_AMDGPU_ABS32` (6): S + A, 32 bits.
    Abs32,
    /// `R_AMDGPU_RELATIVE64` (13): B + A.
    Relative64,
}

/// Each kind and its ELF relocation type.
const RELOC_TYPES: [(RelocKind, u32); 5] = [
    (RelocKind::Abs32Lo, 1),
    (RelocKind::Abs32Hi, 2),
    (RelocKind::Abs64, 3),
    (RelocKind::Abs32, 6),
    (RelocKind::Relative64, 13),
];

impl RelocKind {
    /// The kind of an ELF relocation type, if it is one of these.
    pub fn from_elf(r_type: u32) -> Option<RelocKind> {
        RELOC_TYPES
            .iter()
            .find(|(_, t)| *t == r_type)
            .map(|(k, _)| *k)
    }

    /// Its ELF relocation type (`R_AMDGPU_*`).
    pub fn elf_type(self) -> u32 {
        RELOC_TYPES
            .iter()
            .find(|(k, _)| *k == self)
            .map_or(0, |(_, t)| *t)
    }
}

/// One dynamic relocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DynamicReloc {
    /// The virtual address it patches.
    pub offset: u64,
    /// What it writes there.
    pub kind: RelocKind,
    /// The value of its symbol (0 without one).
    pub symbol_value: u64,
    /// The name of its symbol (`None` without one).
    pub symbol: Option<String>,
    /// Its symbol is absolute (`SHN_ABS`): the value is a number, not an
    /// address in the code object.
    pub symbol_absolute: bool,
    /// Its addend.
    pub addend: i64,
}

/// One kernel of a code object.
#[derive(Clone, Debug, PartialEq)]
pub struct RocmKernel {
    /// The kernel symbol (without `.kd`).
    pub name: String,
    /// The virtual address of its first instruction.
    pub entry: u64,
    /// The virtual address of its descriptor (v3+: `NAME.kd`; v2: the
    /// `amd_kernel_code_t` at the kernel symbol); `None` for a v3+
    /// function kernel, which has none.
    pub descriptor_vaddr: Option<u64>,
    /// Its kernel descriptor (v2: converted from `amd_kernel_code_t`); all
    /// zeros for a v3+ function kernel, which has none
    /// (`descriptor_vaddr` is `None`).
    pub descriptor: KernelDescriptor,
    /// The whole `amd_kernel_code_t` of a code object v2 kernel.
    pub amd_kernel_code: Option<AmdKernelCode>,
    /// Its arguments, explicit and hidden, in metadata order.
    pub args: Vec<ArgMeta>,
    /// The kernarg segment size (metadata, else the descriptor).
    pub kernarg_segment_size: u32,
    /// The kernarg segment alignment (metadata, else the descriptor).
    pub kernarg_segment_align: u32,
    /// The fixed LDS size in bytes.
    pub group_segment_fixed_size: u32,
    /// The fixed scratch size per work-item in bytes.
    pub private_segment_fixed_size: u32,
    /// 64 or 32.
    pub wavefront_size: u32,
    /// SGPRs used (metadata, else from the descriptor).
    pub sgpr_count: u32,
    /// VGPRs used (metadata, else from the descriptor).
    pub vgpr_count: u32,
    /// The metadata's maximum flat work-group size.
    pub max_flat_workgroup_size: Option<u32>,
    /// The metadata's required work-group size.
    pub reqd_workgroup_size: Option<[u32; 3]>,
    /// The metadata's uniform work-group size flag (v5).
    pub uniform_work_group_size: bool,
    /// clrxasm's `.fkernel` (a kernel that is also a function), which no
    /// dispatch can launch: in code object v2 a kernel whose symbol is a
    /// global `STT_FUNC` of `.dynsym` rather than an
    /// `STT_AMDGPU_HSA_KERNEL` (its `amd_kernel_code_t` is still read); in
    /// v3+ a global `STT_FUNC` of `.dynsym` with no `NAME.kd` descriptor
    /// symbol, which the metadata names (or, without metadata, any such
    /// symbol in `.text`), read with no descriptor, as CLRX's ROCm reader
    /// reads it.
    pub function: bool,
}

/// What a kernel argument is, by the metadata's value kind.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)] // the variants are the metadata's own value kinds, one to one
pub enum ValueKind {
    ByValue,
    GlobalBuffer,
    DynamicSharedPointer,
    Sampler,
    Image,
    Pipe,
    Queue,
    HiddenGlobalOffsetX,
    HiddenGlobalOffsetY,
    HiddenGlobalOffsetZ,
    HiddenNone,
    HiddenPrintfBuffer,
    HiddenHostcallBuffer,
    HiddenDefaultQueue,
    HiddenCompletionAction,
    HiddenMultigridSyncArg,
    HiddenBlockCountX,
    HiddenBlockCountY,
    HiddenBlockCountZ,
    HiddenGroupSizeX,
    HiddenGroupSizeY,
    HiddenGroupSizeZ,
    HiddenRemainderX,
    HiddenRemainderY,
    HiddenRemainderZ,
    HiddenGridDims,
    HiddenHeapV1,
    HiddenDynamicLdsSize,
    HiddenPrivateBase,
    HiddenSharedBase,
    HiddenQueuePtr,
    /// A value kind this crate does not know, as the metadata spells it.
    Other(String),
}

/// (v3+ spelling, v2 spelling, kind) for each known value kind.
const VALUE_KINDS: &[(&str, &str, ValueKind)] = &[
    ("by_value", "ByValue", ValueKind::ByValue),
    ("global_buffer", "GlobalBuffer", ValueKind::GlobalBuffer),
    (
        "dynamic_shared_pointer",
        "DynamicSharedPointer",
        ValueKind::DynamicSharedPointer,
    ),
    ("sampler", "Sampler", ValueKind::Sampler),
    ("image", "Image", ValueKind::Image),
    ("pipe", "Pipe", ValueKind::Pipe),
    ("queue", "Queue", ValueKind::Queue),
    (
        "hidden_global_offset_x",
        "HiddenGlobalOffsetX",
        ValueKind::HiddenGlobalOffsetX,
    ),
    (
        "hidden_global_offset_y",
        "HiddenGlobalOffsetY",
        ValueKind::HiddenGlobalOffsetY,
    ),
    (
        "hidden_global_offset_z",
        "HiddenGlobalOffsetZ",
        ValueKind::HiddenGlobalOffsetZ,
    ),
    ("hidden_none", "HiddenNone", ValueKind::HiddenNone),
    (
        "hidden_printf_buffer",
        "HiddenPrintfBuffer",
        ValueKind::HiddenPrintfBuffer,
    ),
    (
        "hidden_hostcall_buffer",
        "HiddenHostcallBuffer",
        ValueKind::HiddenHostcallBuffer,
    ),
    (
        "hidden_default_queue",
        "HiddenDefaultQueue",
        ValueKind::HiddenDefaultQueue,
    ),
    (
        "hidden_completion_action",
        "HiddenCompletionAction",
        ValueKind::HiddenCompletionAction,
    ),
    (
        "hidden_multigrid_sync_arg",
        "HiddenMultiGridSyncArg",
        ValueKind::HiddenMultigridSyncArg,
    ),
    (
        "hidden_block_count_x",
        "HiddenBlockCountX",
        ValueKind::HiddenBlockCountX,
    ),
    (
        "hidden_block_count_y",
        "HiddenBlockCountY",
        ValueKind::HiddenBlockCountY,
    ),
    (
        "hidden_block_count_z",
        "HiddenBlockCountZ",
        ValueKind::HiddenBlockCountZ,
    ),
    (
        "hidden_group_size_x",
        "HiddenGroupSizeX",
        ValueKind::HiddenGroupSizeX,
    ),
    (
        "hidden_group_size_y",
        "HiddenGroupSizeY",
        ValueKind::HiddenGroupSizeY,
    ),
    (
        "hidden_group_size_z",
        "HiddenGroupSizeZ",
        ValueKind::HiddenGroupSizeZ,
    ),
    (
        "hidden_remainder_x",
        "HiddenRemainderX",
        ValueKind::HiddenRemainderX,
    ),
    (
        "hidden_remainder_y",
        "HiddenRemainderY",
        ValueKind::HiddenRemainderY,
    ),
    (
        "hidden_remainder_z",
        "HiddenRemainderZ",
        ValueKind::HiddenRemainderZ,
    ),
    (
        "hidden_grid_dims",
        "HiddenGridDims",
        ValueKind::HiddenGridDims,
    ),
    ("hidden_heap_v1", "HiddenHeapV1", ValueKind::HiddenHeapV1),
    (
        "hidden_dynamic_lds_size",
        "HiddenDynamicLdsSize",
        ValueKind::HiddenDynamicLdsSize,
    ),
    (
        "hidden_private_base",
        "HiddenPrivateBase",
        ValueKind::HiddenPrivateBase,
    ),
    (
        "hidden_shared_base",
        "HiddenSharedBase",
        ValueKind::HiddenSharedBase,
    ),
    (
        "hidden_queue_ptr",
        "HiddenQueuePtr",
        ValueKind::HiddenQueuePtr,
    ),
];

impl ValueKind {
    /// Whether the runtime, not the caller, fills this argument.
    pub fn is_hidden(&self) -> bool {
        match self {
            ValueKind::Other(name) => name.starts_with("hidden") || name.starts_with("Hidden"),
            _ => self.v3_name().is_some_and(|n| n.starts_with("hidden_")),
        }
    }

    /// The kind that a v3+ (`global_buffer`) or v2 (`GlobalBuffer`)
    /// spelling names; an unknown spelling is [`ValueKind::Other`].
    pub fn from_name(name: &str) -> ValueKind {
        VALUE_KINDS
            .iter()
            .find(|(v3, v2, _)| *v3 == name || *v2 == name)
            .map(|(_, _, k)| k.clone())
            .unwrap_or_else(|| ValueKind::Other(name.to_string()))
    }

    /// The v3+ spelling (`global_buffer`); `None` for [`ValueKind::Other`].
    pub fn v3_name(&self) -> Option<&'static str> {
        VALUE_KINDS
            .iter()
            .find(|(_, _, k)| k == self)
            .map(|(n, _, _)| *n)
    }

    /// The v2 spelling (`GlobalBuffer`); `None` for [`ValueKind::Other`].
    pub fn v2_name(&self) -> Option<&'static str> {
        VALUE_KINDS
            .iter()
            .find(|(_, _, k)| k == self)
            .map(|(_, n, _)| *n)
    }
}

/// The address space a pointer argument points into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)] // the metadata's own address spaces, one to one
pub enum AddressSpace {
    Private,
    Global,
    Constant,
    Local,
    Generic,
    Region,
}

impl AddressSpace {
    /// From the v3+ (`global`) or v2 (`Global`) spelling.
    pub fn from_name(name: &str) -> Option<AddressSpace> {
        Some(match name.to_ascii_lowercase().as_str() {
            "private" => AddressSpace::Private,
            "global" => AddressSpace::Global,
            "constant" => AddressSpace::Constant,
            "local" => AddressSpace::Local,
            "generic" => AddressSpace::Generic,
            "region" => AddressSpace::Region,
            _ => return None,
        })
    }

    /// The v3+ spelling (`global`), also CLRX's `.arg` word.
    pub fn name(self) -> &'static str {
        match self {
            AddressSpace::Private => "private",
            AddressSpace::Global => "global",
            AddressSpace::Constant => "constant",
            AddressSpace::Local => "local",
            AddressSpace::Generic => "generic",
            AddressSpace::Region => "region",
        }
    }
}

/// An argument's access qualifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)] // the metadata's own qualifiers, one to one
pub enum Access {
    Default,
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

impl Access {
    /// From the v3+ (`read_only`) or v2 (`ReadOnly`) spelling.
    pub fn from_name(name: &str) -> Option<Access> {
        Some(match name {
            "default" | "Default" => Access::Default,
            "read_only" | "ReadOnly" => Access::ReadOnly,
            "write_only" | "WriteOnly" => Access::WriteOnly,
            "read_write" | "ReadWrite" => Access::ReadWrite,
            _ => return None,
        })
    }

    /// The v3+ spelling, also CLRX's `.arg` word.
    pub fn name(self) -> &'static str {
        match self {
            Access::Default => "default",
            Access::ReadOnly => "read_only",
            Access::WriteOnly => "write_only",
            Access::ReadWrite => "read_write",
        }
    }
}

/// One kernel argument, from the metadata.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgMeta {
    /// Its source name, if the metadata has one.
    pub name: Option<String>,
    /// Its source type name, if the metadata has one.
    pub type_name: Option<String>,
    /// Its byte offset in the kernarg segment (v2: laid out from sizes and
    /// alignments, as the v2 runtime does).
    pub offset: u32,
    /// Its size in bytes.
    pub size: u32,
    /// Its alignment in bytes.
    pub align: u32,
    /// What it is.
    pub value_kind: ValueKind,
    /// The metadata's value type (`f32`, `i32`, `struct` ...), if any.
    pub value_type: Option<String>,
    /// The address space of a pointer.
    pub address_space: Option<AddressSpace>,
    /// Its access qualifier.
    pub access: Option<Access>,
    /// Its actual access qualifier.
    pub actual_access: Option<Access>,
    /// The pointee alignment of a dynamic shared pointer.
    pub pointee_align: Option<u32>,
    /// `const`.
    pub is_const: bool,
    /// `restrict`.
    pub is_restrict: bool,
    /// `volatile`.
    pub is_volatile: bool,
    /// `pipe`.
    pub is_pipe: bool,
}

/// One printf format of the metadata.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintfFormat {
    /// Its id (what the printf buffer record starts with).
    pub id: u32,
    /// The byte size of each argument.
    pub arg_sizes: Vec<u32>,
    /// The format string.
    pub format: String,
}

/// Why a code object could not be read or written: what was wrong and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RocmError {
    /// Where: a file offset, section, note or kernel, in words.
    pub location: String,
    /// What was wrong.
    pub message: String,
}

impl RocmError {
    /// An error at `location`.
    pub fn new(location: impl Into<String>, message: impl Into<String>) -> RocmError {
        RocmError {
            location: location.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for RocmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.location.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.location, self.message)
        }
    }
}

impl std::error::Error for RocmError {}
