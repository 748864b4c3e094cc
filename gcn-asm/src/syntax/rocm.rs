//! The ROCm pseudo-ops (`ClrxAsmRocm.md`): the code object's target and
//! format (`.arch_minor`, `.arch_stepping`, `.eflags`, `.newbinfmt`,
//! `.llvm10binfmt`, `.metadatav3`, `.target`, `.tripple`, `.md_version`),
//! kernels with their configuration (`.config`: the `amd_kernel_code_t` /
//! kernel descriptor fields, register counts, the metadata of each kernel
//! and its `.arg`s), `.control_directive`, a raw `.metadata` note,
//! `.globaldata`, `.kcode`, `.printf`, `.gotsym`, `.fkernel`; the per-kernel
//! register counting; the final assembly of a [`RocmInput`] (with `.data`,
//! the GOT and its global symbols); and, once the writer has laid it out
//! ([`crate::rocm::layout`]), the expressions that waited for the layout:
//! section differences between `.text`, `.rodata`, `.data` and `.got`, and
//! 64-bit addresses stored in data, which become `R_AMDGPU_RELATIVE64`
//! relocations (`rocm_resolve`).
//!
//! What clrxasm fills in by itself is filled in the same way, so that a
//! CLRX source gives the code object `clrxasm -b rocm` gives (read back):
//! the defaults of `amd_kernel_code_t` (`AsmROCmFormat.cpp`), the register
//! counts from the code (user and system SGPRs, VCC and the extra SGPRs
//! included), the metadata fields derived from the configuration (from the
//! code's own amd_kernel_code_t for a v2 kernel without `.config`), and the
//! two oddities of clrxasm's metadata: a default kernarg alignment that is
//! the configuration's log2 value, and v3 spill counts of 0xfffffffe when
//! not given. The metadata note is clrxasm's byte for byte: its keys, in
//! its order, and for v2 its YAML layout ([`MetaValue::to_clrx_yaml`]),
//! down to a v3 kernel without `.md_symname` or `.max_flat_work_group_size`:
//! an empty `.symbol` (with a warning: loaders find the descriptor by that
//! name) and 2^64-2, clrxasm's "not supplied" marker.

use crate::diag::SourcePos;
use crate::gallium::config::{prog_info, KernelConfig, RegisterUsage};
use crate::gallium::{ArgDecl, KernelDecl};
use crate::rocm::{
    AmdKernelCode, KernelDescriptor, MetaValue, Metadata, MetadataFormat, ProcessorInfo, RocmInput,
    RocmInputKernel, RocmInputReloc, RocmInputSymbol, RocmSection, ValueKind,
};
use crate::Device;
use rustc_hash::FxHashMap;

use super::assembler::{skip_spaces, Assembler, BinaryFormat, DataFixup, InstrFixup};
use super::expr::{parse_string_literal, scan_symbol};
use super::gallium::{kcode_selection, split_fields};

/// Which block of a kernel is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum RocmInside {
    /// None.
    #[default]
    Main,
    /// `.config`.
    Config,
    /// `.control_directive`.
    Control,
}

/// One `.arg` of a kernel's metadata.
#[derive(Debug, Clone)]
struct MdArg {
    name: String,
    /// Where the name is (where the `.arg` is, for an unnamed argument),
    /// and the statement as written: for tools that present arguments to
    /// people (`Assembly::rocm_decls`).
    pos: SourcePos,
    declaration: String,
    type_name: String,
    size: u64,
    /// Alignment (v2) or offset (v3).
    align_or_offset: u64,
    kind: ValueKind,
    value_type: usize,
    pointee_align: u64,
    address_space: Option<&'static str>,
    access: usize,
    actual_access: usize,
    is_const: bool,
    is_restrict: bool,
    is_volatile: bool,
    is_pipe: bool,
}

/// The metadata pseudo-ops of one kernel.
#[derive(Debug, Clone, Default)]
struct MdKernel {
    args: Vec<MdArg>,
    language: Option<String>,
    language_version: Option<(u64, u64)>,
    reqd: Option<[u64; 3]>,
    hint: Option<[u64; 3]>,
    fixed: Option<[u64; 3]>,
    max_flat: Option<u64>,
    vec_type_hint: Option<String>,
    runtime_handle: Option<String>,
    kernarg_align: Option<u64>,
    kernarg_size: Option<u64>,
    group_size: Option<u64>,
    private_size: Option<u64>,
    symbol: Option<String>,
    sgprs: Option<u64>,
    vgprs: Option<u64>,
    spilled_sgprs: Option<u64>,
    spilled_vgprs: Option<u64>,
    wavefront_size: Option<u64>,
}

/// What a kernel's metadata says where no metadata pseudo-op gives a value.
struct MdDefaults {
    kernarg_size: u64,
    kernarg_align: u64,
    wavefront_size: u64,
    group_size: u64,
    private_size: u64,
    sgprs: u64,
    vgprs: u64,
}

/// The `amd_kernel_code_t` fields a `.config` sets (`None`: the default).
#[derive(Debug, Clone, Default)]
struct HsaConfig {
    /// What the register and PGM_RSRC computation shares with Gallium.
    base: KernelConfig,
    user_data: Option<u32>,
    code_version: Option<(u32, u32)>,
    /// `.machine` kind, major, minor, stepping; a field of all ones is
    /// clrxasm's "not given" (its default).
    machine: [Option<u16>; 4],
    entry_offset: Option<i64>,
    /// Where `.kernel_code_entry_offset` was given.
    entry_offset_pos: Option<SourcePos>,
    prefetch_offset: Option<i64>,
    prefetch_size: Option<u64>,
    max_scratch: Option<u64>,
    /// `kernel_code_properties` bits set by `.use_*` (v2 layout).
    properties: u32,
    private_elem_size: Option<u32>,
    private_size: Option<u32>,
    group_size: Option<u32>,
    gds_size: Option<u32>,
    kernarg_size: Option<u64>,
    /// `.amdhsa_kernarg_size` (gcnasm's, LLVM's name): the v3+ descriptor's
    /// KERNARG_SIZE, which clrxasm leaves 0.
    descriptor_kernarg_size: Option<u32>,
    /// `.amdhsa_uses_dynamic_stack` (gcnasm's, LLVM's name): the v3+
    /// descriptor's USES_DYNAMIC_STACK bit, which clrxasm leaves 0.
    uses_dynamic_stack: bool,
    fbarrier: Option<u32>,
    wavefront_sgpr_count: Option<u16>,
    workitem_vgpr_count: Option<u16>,
    reserved_vgprs: Option<(u16, u16)>,
    reserved_sgprs: Option<(u16, u16)>,
    debug_wave_offset_sgpr: Option<u16>,
    debug_buffer_sgpr: Option<u16>,
    kernarg_align: Option<u8>,
    group_align: Option<u8>,
    private_align: Option<u8>,
    wavefront_size: Option<u8>,
    call_convention: Option<i32>,
    loader_symbol: Option<u64>,
    pgm_rsrc3: u32,
    /// `.shared_vgprs` and where its value is.
    shared_vgprs: Option<(u32, SourcePos)>,
}

/// A kernel being described.
#[derive(Debug)]
struct RocmKernelState {
    name: String,
    pos: SourcePos,
    config: Option<HsaConfig>,
    md: MdKernel,
    /// Registers of the `.kcode` blocks that include it.
    usage: RegisterUsage,
    /// Its `.control_directive` section.
    control: Option<usize>,
    /// `.fkernel`: a function (`STT_FUNC`), not a kernel, in the symbol
    /// tables.
    function: bool,
    /// Its code's wave32 mode (GCN 1.5): the mode at `.kernel`, set by
    /// `.use_wave32`, and what its code left it at; its label in `.text`
    /// restores it (as clrxasm's kernel code flags).
    wave32: bool,
}

/// The ROCm part of an assembly's state.
#[derive(Debug, Default)]
pub(crate) struct RocmState {
    kernels: Vec<RocmKernelState>,
    index: FxHashMap<String, usize>,
    current: Option<usize>,
    pub inside: RocmInside,
    arch_minor: Option<u32>,
    arch_stepping: Option<u32>,
    eflags: Option<u32>,
    new_binfmt: bool,
    llvm10: bool,
    /// `.nosectdiffs`: `.rodata` and `.got` addresses are their offsets.
    no_section_diffs: bool,
    /// Where `.llvm10binfmt` was (for the warning about its `e_flags`).
    llvm10_pos: Option<crate::diag::SourcePos>,
    metadata_v3: bool,
    target: Option<String>,
    tripple: Option<String>,
    md_version: Option<(u64, u64)>,
    /// `.printf`: id, argument sizes, format.
    printf: Vec<(Option<u64>, Vec<u64>, String)>,
    /// A metadata pseudo-op was used (so the note is made from them).
    uses_md: bool,
    /// Where the first metadata pseudo-op was (for the conflict with `.metadata`).
    md_pos: Option<SourcePos>,
    kcode_stack: Vec<(Vec<usize>, SourcePos)>,
    kcode_selection: Vec<usize>,
    /// The kernel whose label the code last passed (outside `.kcode`).
    label_kernel: Option<usize>,
    regions: Vec<(String, RegisterUsage)>,
    /// `.gotsym`: each entry's symbol and where it was asked for.
    got: Vec<(String, SourcePos)>,
    /// The names `.global`/`.globl` made global (what `.gotsym` needs).
    pub globals: rustc_hash::FxHashSet<String>,
}

impl RocmState {
    /// A section switch closes the open `.config`/`.control_directive`.
    pub fn leave_kernel(&mut self) {
        self.inside = RocmInside::Main;
        self.current = None;
    }

    /// Charges the register usage of one instruction in `.text` to the
    /// label region it is in, or inside `.kcode` to the listed kernels.
    pub fn charge(&mut self, usage: &RegisterUsage) {
        if self.kcode_stack.is_empty() {
            if let Some((_, u)) = self.regions.last_mut() {
                u.merge(usage);
            }
        } else {
            for &k in &self.kcode_selection {
                self.kernels[k].usage.merge(usage);
            }
        }
    }

    /// A label defined in `.text`: it may start a kernel's code.
    pub fn label(&mut self, name: &str) {
        if self.kcode_stack.is_empty() {
            self.regions
                .push((name.to_string(), RegisterUsage::default()));
        }
    }
}

/// The ROCm pseudo-ops outside `.config`.
const ROCM_OPS: &[&str] = &[
    ".arch_minor",
    ".arch_stepping",
    ".eflags",
    ".newbinfmt",
    ".llvm10binfmt",
    ".metadatav3",
    ".target",
    ".tripple",
    ".md_version",
    ".globaldata",
    ".kernel",
    ".fkernel",
    ".config",
    ".control_directive",
    ".metadata",
    ".kcode",
    ".kcodeend",
    ".printf",
    ".gotsym",
    ".nosectdiffs",
];

/// `.use_*` flags: their `kernel_code_properties` bit (v2 layout).
const USE_FLAGS: &[(&str, u32)] = &[
    (".use_private_segment_buffer", 1),
    (".use_dispatch_ptr", 1 << 1),
    (".use_queue_ptr", 1 << 2),
    (".use_kernarg_segment_ptr", 1 << 3),
    (".use_dispatch_id", 1 << 4),
    (".use_flat_scratch_init", 1 << 5),
    (".use_private_segment_size", 1 << 6),
    (".use_wave32", 1 << 10),
    (".use_ordered_append_gds", 1 << 16),
    (".use_ptr64", 1 << 19),
    (".use_dynamic_call_stack", 1 << 20),
    (".use_debug_enabled", 1 << 21),
    (".use_xnack_enabled", 1 << 22),
];

/// CLRX's `.arg` value kinds.
const ARG_KINDS: &[(&str, ValueKind)] = &[
    ("value", ValueKind::ByValue),
    ("globalbuf", ValueKind::GlobalBuffer),
    ("dynshptr", ValueKind::DynamicSharedPointer),
    ("sampler", ValueKind::Sampler),
    ("image", ValueKind::Image),
    ("pipe", ValueKind::Pipe),
    ("queue", ValueKind::Queue),
    ("gox", ValueKind::HiddenGlobalOffsetX),
    ("globaloffsetx", ValueKind::HiddenGlobalOffsetX),
    ("goy", ValueKind::HiddenGlobalOffsetY),
    ("globaloffsety", ValueKind::HiddenGlobalOffsetY),
    ("goz", ValueKind::HiddenGlobalOffsetZ),
    ("globaloffsetz", ValueKind::HiddenGlobalOffsetZ),
    ("none", ValueKind::HiddenNone),
    ("printfbuf", ValueKind::HiddenPrintfBuffer),
    ("defqueue", ValueKind::HiddenDefaultQueue),
    ("complact", ValueKind::HiddenCompletionAction),
    ("multigridsyncarg", ValueKind::HiddenMultigridSyncArg),
];

/// CLRX's value types: (its words, the v2 and v3 spellings).
const VALUE_TYPES: &[(&[&str], &str, &str)] = &[
    (&["struct"], "Struct", "struct"),
    (&["i8", "char"], "I8", "i8"),
    (&["u8", "uchar"], "U8", "u8"),
    (&["i16", "short"], "I16", "i16"),
    (&["u16", "ushort"], "U16", "u16"),
    (&["f16", "half"], "F16", "f16"),
    (&["i32", "int"], "I32", "i32"),
    (&["u32", "uint"], "U32", "u32"),
    (&["f32", "float"], "F32", "f32"),
    (&["i64", "long"], "I64", "i64"),
    (&["u64", "ulong"], "U64", "u64"),
    (&["f64", "double"], "F64", "f64"),
];

/// Access qualifiers: (words, v2, v3).
const ACCESS: &[(&[&str], &str, &str)] = &[
    (&["default"], "Default", "default"),
    (&["read_only", "rdonly"], "ReadOnly", "read_only"),
    (&["write_only", "wronly"], "WriteOnly", "write_only"),
    (&["read_write", "rdwr"], "ReadWrite", "read_write"),
];

const ADDRESS_SPACES: &[&str] = &[
    "private", "global", "constant", "local", "generic", "region",
];

/// The two architecture versions clrxasm gives a device in a ROCm
/// binary (CLRX's `rocmGpuArchVersionTbl` and `galliumGpuArchVersionTbl`,
/// utils/GPUId.cpp): the one of the `NT_AMD_HSA_ISA_VERSION` note (and
/// of the `.tripple` target name), and the default of each kernel's
/// `.machine`. They differ for Tonga, Stoney, Polaris and the CLRX
/// placeholders; every GCN 1.0 device is 0.0.0 in both (`.arch_minor` and
/// `.arch_stepping` replace minor and stepping in both).
pub(crate) fn clrx_arch_versions(device: Device) -> ((u32, u32, u32), (u32, u32, u32)) {
    use Device::*;
    let same = |v| (v, v);
    match device {
        CapeVerde | Pitcairn | Tahiti | Oland | Hainan => same((0, 0, 0)),
        Bonaire | Spectre | Spooky | Kalindi | Mullins => same((7, 0, 0)),
        Hawaii => same((7, 0, 1)),
        Iceland => same((8, 0, 0)),
        Tonga => ((8, 0, 2), (8, 0, 0)),
        Fiji => same((8, 0, 3)),
        Carrizo | Dummy => same((8, 0, 1)),
        Goose | Horse | Ellesmere | Baffin => ((8, 0, 3), (8, 0, 4)),
        Stoney => ((8, 1, 0), (8, 0, 1)),
        Gfx804 => same((8, 0, 4)),
        Gfx900 => same((9, 0, 0)),
        Gfx901 => same((9, 0, 1)),
        Gfx902 => same((9, 0, 2)),
        Gfx903 => same((9, 0, 3)),
        Gfx904 => same((9, 0, 4)),
        Gfx905 => same((9, 0, 5)),
        Gfx906 => same((9, 0, 6)),
        Gfx907 => same((9, 0, 7)),
        Gfx1000 => same((10, 0, 0)),
        Gfx1010 => same((10, 1, 0)),
        Gfx1011 => same((10, 1, 1)),
        Gfx1030 => same((10, 3, 0)),
        Gfx1031 => same((10, 3, 1)),
        Gfx1032 => same((10, 3, 2)),
        Gfx1033 => same((10, 3, 3)),
        Gfx1034 => same((10, 3, 4)),
        Gfx1035 => same((10, 3, 5)),
        Gfx1036 => same((10, 3, 6)),
    }
}

fn lookup_word(table: &[(&[&str], &str, &str)], word: &str) -> Option<usize> {
    let lower = word.to_ascii_lowercase();
    table
        .iter()
        .position(|(words, _, _)| words.contains(&lower.as_str()))
}

impl Assembler<'_> {
    /// A kernel's label in `.text` (outside `.kcode`): the code that follows
    /// is that kernel's, in its wave32 mode; the mode the code left the
    /// previous kernel in stays with it (clrxasm's kernel code flags).
    pub(crate) fn rocm_kernel_label(&mut self, name: &str) {
        if !self.rocm.kcode_stack.is_empty() {
            return;
        }
        let Some(&k) = self.rocm.index.get(name) else {
            return;
        };
        if let Some(prev) = self.rocm.label_kernel {
            self.rocm.kernels[prev].wave32 = self.wave32;
        }
        self.rocm.label_kernel = Some(k);
        self.wave32 = self.rocm.kernels[k].wave32;
    }

    /// `.wave32`/`.nowave32` in a kernel's code also set its `.use_wave32`
    /// (as clrxasm does).
    pub(crate) fn rocm_wave32_changed(&mut self) {
        if self.format != BinaryFormat::Rocm || !self.rocm.kcode_stack.is_empty() {
            return;
        }
        let Some(k) = self.rocm.label_kernel else {
            return;
        };
        let wave32 = self.wave32;
        self.rocm.kernels[k].wave32 = wave32;
        if let Some(config) = self.rocm.kernels[k].config.as_mut() {
            if wave32 {
                config.properties |= 1 << 10;
            } else {
                config.properties &= !(1 << 10);
            }
        }
    }

    /// Runs ROCm pseudo-op `lower` whose operands start at `p`; false when
    /// it is not one (or the format is not ROCm).
    pub(crate) fn rocm_pseudo_op(
        &mut self,
        text: &str,
        lower: &str,
        start: usize,
        p: usize,
    ) -> bool {
        if lower == ".rocm" {
            if self.expect_end(text, p) {
                self.format = BinaryFormat::Rocm;
            }
            return true;
        }
        if self.format != BinaryFormat::Rocm {
            return false;
        }
        if ROCM_OPS.contains(&lower) {
            self.rocm_global_op(text, lower, start, p);
            return true;
        }
        if is_config_op(lower) {
            self.rocm_config_op(text, lower, start, p);
            return true;
        }
        false
    }

    fn rocm_global_op(&mut self, text: &str, lower: &str, start: usize, p: usize) {
        match lower {
            ".arch_minor" | ".arch_stepping" | ".eflags" => {
                let Some(v) = self.rocm_u32(text, p) else {
                    return;
                };
                match lower {
                    ".arch_minor" => self.rocm.arch_minor = Some(v),
                    ".arch_stepping" => self.rocm.arch_stepping = Some(v),
                    _ => self.rocm.eflags = Some(v),
                }
            }
            ".newbinfmt" | ".llvm10binfmt" | ".metadatav3" | ".nosectdiffs" => {
                if !self.expect_end(text, p) {
                    return;
                }
                match lower {
                    ".newbinfmt" => self.rocm.new_binfmt = true,
                    ".llvm10binfmt" => {
                        self.rocm.llvm10 = true;
                        self.rocm.llvm10_pos = Some(self.pos_at(start));
                        self.rocm.new_binfmt = true;
                    }
                    ".metadatav3" => self.rocm.metadata_v3 = true,
                    // clrxasm's old mode: no section differences between
                    // the code, the global data and the GOT; an address in
                    // the global data or the GOT is its offset there.
                    _ => {
                        self.rocm.no_section_diffs = true;
                        self.rocm_absolute_sections();
                    }
                }
            }
            ".target" | ".tripple" => {
                let Some(s) = self.rocm_string(text, p) else {
                    return;
                };
                if lower == ".target" {
                    self.rocm.target = Some(s);
                } else {
                    self.rocm.tripple = Some(s);
                }
            }
            ".md_version" => {
                let Some(v) = self.rocm_numbers(text, p, 2, 2, true) else {
                    return;
                };
                self.rocm.md_version = Some((v[0].unwrap_or(0), v[1].unwrap_or(0)));
                self.rocm_md_used(start);
            }
            ".globaldata" if self.expect_end(text, p) => {
                self.enter_section(".rodata", false);
            }
            ".kernel" => self.rocm_kernel(text, p),
            ".fkernel" => match self.rocm.current {
                Some(k) => {
                    if self.expect_end(text, p) {
                        self.rocm.kernels[k].function = true;
                    }
                }
                None => self.error(start, ".fkernel can be only inside kernel"),
            },
            ".config" | ".control_directive" => {
                if !self.expect_end(text, p) {
                    return;
                }
                let Some(k) = self.rocm.current else {
                    self.error(
                        start,
                        format!("{lower} must follow .kernel (there is no current kernel here)"),
                    );
                    return;
                };
                if lower == ".config" {
                    self.rocm.kernels[k]
                        .config
                        .get_or_insert_with(HsaConfig::default);
                    self.rocm.inside = RocmInside::Config;
                } else {
                    // As clrxasm: a control directive comes with the
                    // kernel's configuration (its defaults if no `.config`).
                    self.rocm.kernels[k]
                        .config
                        .get_or_insert_with(HsaConfig::default);
                    let name = format!(".control_directive.{}", self.rocm.kernels[k].name);
                    let i = self.enter_section(&name, false);
                    self.rocm.kernels[k].control = Some(i);
                    self.rocm.current = Some(k);
                    self.rocm.inside = RocmInside::Control;
                }
            }
            ".metadata" if self.expect_end(text, p) => {
                self.enter_section(".metadata", false);
            }
            ".kcode" => self.rocm_kcode(text, start, p),
            ".kcodeend" if self.expect_end(text, p) => match self.rocm.kcode_stack.pop() {
                Some((saved, _)) => self.rocm.kcode_selection = saved,
                None => self.error(start, ".kcodeend without .kcode"),
            },
            ".printf" => self.rocm_printf(text, start, p),
            ".gotsym" => self.rocm_gotsym(text, start, p),
            _ => {}
        }
    }

    /// Under `.nosectdiffs`, marks `.rodata` and `.got` (those that exist)
    /// as sections whose addresses are numbers.
    pub(crate) fn rocm_absolute_sections(&mut self) {
        if !self.rocm.no_section_diffs {
            return;
        }
        for name in [".rodata", ".got"] {
            if let Some(&i) = self.section_index.get(name) {
                let abs = &mut self.syms.absolute_sections;
                if abs.len() <= i {
                    abs.resize(i + 1, false);
                }
                abs[i] = true;
            }
        }
    }

    /// `.gotsym SYMBOL[, OUTSYMBOL]`: a GOT entry (8 bytes of `.got`) that
    /// the loader fills with the address of SYMBOL; OUTSYMBOL becomes the
    /// entry's address (as clrxasm does).
    fn rocm_gotsym(&mut self, text: &str, start: usize, p: usize) {
        let bytes = text.as_bytes();
        let q = skip_spaces(bytes, p);
        let Some(e) = scan_symbol(bytes, q).filter(|&e| &text[q..e] != ".") else {
            return self.error(q, "expected a symbol name");
        };
        let name = text[q..e].to_string();
        let mut r = skip_spaces(bytes, e);
        let mut out = None;
        if bytes.get(r) == Some(&b',') {
            let o = skip_spaces(bytes, r + 1);
            let Some(oe) = scan_symbol(bytes, o) else {
                return self.error(o, "expected a symbol name");
            };
            if &text[o..oe] == "." {
                return self.error(o, "symbol '.' cannot be a GOT entry's symbol");
            }
            out = Some((text[o..oe].to_string(), o));
            r = oe;
        }
        if !self.expect_end(text, r) {
            return;
        }
        let got = match self.section_index.get(".got") {
            Some(&i) => i,
            None => {
                self.sections
                    .push(super::sections::Section::new(".got", false));
                let i = self.sections.len() - 1;
                self.section_index.insert(".got".to_string(), i);
                self.rocm_absolute_sections();
                i
            }
        };
        let offset = self.sections[got].data.len();
        self.sections[got].data.extend_from_slice(&[0; 8]);
        let pos = self.pos_at(start);
        self.rocm.got.push((name, pos));
        if let Some((out, at)) = out {
            let id = self.syms.definition_target(&out);
            let sym = self.syms.get(id);
            if sym.is_defined() && sym.kind == super::symbols::SymKind::Label {
                return self.error(at, format!("symbol '{out}' is already defined"));
            }
            let pos = self.pos_at(at);
            let sym = self.syms.get_mut(id);
            sym.state = super::symbols::SymState::Known(crate::encode::context::Value {
                value: offset as i64,
                section: Some(crate::encode::context::SectionId(got as u32)),
            });
            sym.kind = super::symbols::SymKind::Label;
            sym.defined_at = Some(pos);
        }
    }

    /// Notes that a metadata pseudo-op was used at `start`.
    fn rocm_md_used(&mut self, start: usize) {
        self.rocm.uses_md = true;
        if self.rocm.md_pos.is_none() {
            self.rocm.md_pos = Some(self.pos_at(start));
        }
    }

    fn rocm_kernel(&mut self, text: &str, p: usize) {
        let bytes = text.as_bytes();
        let q = skip_spaces(bytes, p);
        let Some(e) = scan_symbol(bytes, q).filter(|&e| &text[q..e] != ".") else {
            self.error(q, "expected a kernel name");
            return;
        };
        if !self.expect_end(text, e) {
            return;
        }
        let name = text[q..e].to_string();
        self.enter_section(".text", true);
        let index = match self.rocm.index.get(&name) {
            Some(&i) => i,
            None => {
                let pos = self.pos_at(q);
                self.rocm.kernels.push(RocmKernelState {
                    name: name.clone(),
                    pos,
                    config: None,
                    md: MdKernel::default(),
                    usage: RegisterUsage::default(),
                    control: None,
                    function: false,
                    wave32: self.wave32,
                });
                let i = self.rocm.kernels.len() - 1;
                self.rocm.index.insert(name, i);
                i
            }
        };
        self.rocm.current = Some(index);
    }

    /// `.kcode`: code that belongs to the given kernels (the operand list
    /// of [`kcode_selection`]).
    fn rocm_kcode(&mut self, text: &str, start: usize, p: usize) {
        let initial = if self.rocm.kcode_stack.is_empty() {
            Vec::new()
        } else {
            self.rocm.kcode_selection.clone()
        };
        let r = &self.rocm;
        let find = |n: &str| r.index.get(n).copied();
        let selection = match kcode_selection(text, p, initial, r.kernels.len(), find) {
            Ok(selection) => selection,
            Err((at, message)) => return self.error(at, message),
        };
        let pos = self.pos_at(start);
        let saved = std::mem::replace(&mut self.rocm.kcode_selection, selection);
        self.rocm.kcode_stack.push((saved, pos));
    }

    /// `.printf [ID][, SIZE...], "FORMAT"`.
    fn rocm_printf(&mut self, text: &str, start: usize, p: usize) {
        let fields = match split_fields(text, p) {
            Ok(f) => f,
            Err(at) => return self.error(at, "unterminated quoted text"),
        };
        let Some(&(fmt_at, fmt)) = fields.last() else {
            return;
        };
        if !fmt.starts_with('"') {
            return self.error(fmt_at, "expected the format string (in quotes) last");
        }
        let mut e = fmt_at;
        let mut buf = Vec::new();
        if let Err(err) = parse_string_literal(text, &mut e, &mut buf) {
            return self.error(err.at, err.message);
        }
        let mut values = Vec::new();
        for &(at, f) in &fields[..fields.len() - 1] {
            if f.is_empty() {
                values.push(None);
                continue;
            }
            let mut q = at;
            let Some(v) = self.abs_expr(text, &mut q) else {
                return;
            };
            match u64::try_from(v) {
                Ok(v) => values.push(Some(self.md_u32(at, v))),
                Err(_) => return self.error(at, "expected a non-negative value"),
            }
        }
        // An id of 0xffffffff is clrxasm's "none given": the next free one.
        let id = values
            .first()
            .copied()
            .flatten()
            .filter(|&v| v != 0xffff_ffff);
        if let Some(id) = id.filter(|id| self.rocm.printf.iter().any(|p| p.0 == Some(*id))) {
            return self.error(fields[0].0, format!("duplicate printf id {id}"));
        }
        let sizes: Vec<u64> = values.iter().skip(1).map(|v| v.unwrap_or(0)).collect();
        self.rocm
            .printf
            .push((id, sizes, String::from_utf8_lossy(&buf).into_owned()));
        self.rocm_md_used(start);
    }

    fn rocm_string(&mut self, text: &str, p: usize) -> Option<String> {
        let q = skip_spaces(text.as_bytes(), p);
        let mut e = q;
        let mut buf = Vec::new();
        if let Err(err) = parse_string_literal(text, &mut e, &mut buf) {
            self.error(err.at, err.message);
            return None;
        }
        if !self.expect_end(text, e) {
            return None;
        }
        Some(String::from_utf8_lossy(&buf).into_owned())
    }

    fn rocm_u32(&mut self, text: &str, p: usize) -> Option<u32> {
        let mut q = p;
        let at = skip_spaces(text.as_bytes(), p);
        let v = self.abs_expr(text, &mut q)?;
        if !self.expect_end(text, q) {
            return None;
        }
        match u32::try_from(v)
            .ok()
            .or_else(|| i32::try_from(v).ok().map(|v| v as u32))
        {
            Some(v) => Some(v),
            None => {
                self.error(at, format!("{v} does not fit in 32 bits"));
                None
            }
        }
    }

    /// `min..=max` comma-separated non-negative values; an empty one is `None`.
    /// Up to `max` comma-separated values (at least `min` given), each
    /// empty field `None`. With `md32`, a metadata field that clrxasm keeps
    /// in 32 bits: a larger value is truncated, with its warning.
    fn rocm_numbers(
        &mut self,
        text: &str,
        p: usize,
        min: usize,
        max: usize,
        md32: bool,
    ) -> Option<Vec<Option<u64>>> {
        let values = self.rocm_numbers_at(text, p, min, max)?;
        Some(
            values
                .into_iter()
                .map(|x| x.map(|(v, at)| if md32 { self.md_u32(at, v) } else { v }))
                .collect(),
        )
    }

    /// [`Self::rocm_numbers`] with where each value starts. A negative
    /// value is taken as its 64-bit pattern, as clrxasm takes it.
    fn rocm_numbers_at(
        &mut self,
        text: &str,
        p: usize,
        min: usize,
        max: usize,
    ) -> Option<Vec<Option<(u64, usize)>>> {
        let fields = match split_fields(text, p) {
            Ok(f) => f,
            Err(at) => {
                self.error(at, "unterminated quoted text");
                return None;
            }
        };
        if fields.len() > max {
            self.error(fields[max].0, format!("too many operands (at most {max})"));
            return None;
        }
        let mut out = Vec::new();
        for &(at, f) in &fields {
            if f.is_empty() {
                out.push(None);
                continue;
            }
            let mut q = at;
            let v = self.abs_expr(text, &mut q)?;
            if skip_spaces(text.as_bytes(), q) < at + f.len() {
                self.error(q, "expected ',' or the end of the statement");
                return None;
            }
            out.push(Some((v as u64, at)));
        }
        if out.len() < min || out.iter().take(min).any(Option::is_none) {
            let at = fields
                .iter()
                .zip(&out)
                .find(|(_, v)| v.is_none())
                .map_or(p, |(f, _)| f.0);
            self.error(at, format!("expected {min} operand(s)"));
            return None;
        }
        Some(out)
    }

    /// One value of a configuration pseudo-op, as clrxasm takes it: any
    /// 64-bit pattern (a negative value wraps); `None` after an error.
    fn rocm_raw_value(&mut self, text: &str, p: usize) -> Option<(u64, usize)> {
        let at = skip_spaces(text.as_bytes(), p);
        let mut q = p;
        let v = self.abs_expr(text, &mut q)?;
        if !self.expect_end(text, q) {
            return None;
        }
        Some((v as u64, at))
    }

    /// clrxasm's `printWarningForRange` for an unsigned field of `bits`
    /// bits: a value that does not fit is truncated, with a warning; the
    /// truncated value.
    fn rocm_truncate(&mut self, at: usize, bits: u32, v: u64) -> u64 {
        let mask = (1u64 << bits) - 1;
        if v > mask {
            self.warning(at, format!("value {v:#x} truncated to {:#x}", v & mask));
        }
        v & mask
    }

    /// A metadata value that clrxasm keeps in 32 bits (printf ids and
    /// argument sizes, versions, work-group sizes): truncated, with
    /// clrxasm's warning, when it does not fit.
    fn md_u32(&mut self, at: usize, v: u64) -> u64 {
        self.rocm_truncate(at, 32, v)
    }

    /// One value that must fit `max`.
    fn rocm_value(&mut self, text: &str, p: usize, max: u64) -> Option<u64> {
        let at = skip_spaces(text.as_bytes(), p);
        let mut q = p;
        let v = self.abs_expr(text, &mut q)?;
        if !self.expect_end(text, q) {
            return None;
        }
        match u64::try_from(v) {
            Ok(v) if v <= max => Some(v),
            _ => {
                self.error(at, format!("{v} is out of range (0..={max})"));
                None
            }
        }
    }

    /// An SGPR operand (`s12`) or its number.
    fn rocm_sgpr(&mut self, text: &str, p: usize) -> Option<u16> {
        let q = skip_spaces(text.as_bytes(), p);
        let t = text[q..].trim();
        if let Some(n) = t.strip_prefix('s').or_else(|| t.strip_prefix('S')) {
            if let Ok(n) = n.parse::<u16>() {
                return Some(n);
            }
        }
        self.rocm_value(text, p, u64::from(u16::MAX))
            .map(|v| v as u16)
    }

    /// The pseudo-ops of `.config`.
    fn rocm_config_op(&mut self, text: &str, lower: &str, start: usize, p: usize) {
        let Some(k) = self
            .rocm
            .current
            .filter(|_| self.rocm.inside == RocmInside::Config)
        else {
            self.error(start, format!("{lower} must be inside a kernel's .config"));
            return;
        };
        if is_md_op(lower) {
            self.rocm_md_used(start);
            if lower == ".arg" {
                self.rocm_arg(k, text, start, p);
                return;
            }
            self.rocm_md_op(k, text, lower, p);
            return;
        }
        if let Some(&(_, bit)) = USE_FLAGS.iter().find(|(n, _)| *n == lower) {
            if self.expect_end(text, p) {
                self.rocm_config(k).properties |= bit;
                if lower == ".use_wave32" {
                    self.rocm.kernels[k].wave32 = true;
                }
            }
            return;
        }
        match lower {
            ".tgsize" | ".debugmode" | ".dx10clamp" | ".ieeemode" | ".privmode" => {
                if self.expect_end(text, p) {
                    let c = &mut self.rocm_config(k).base;
                    match lower {
                        ".tgsize" => c.tg_size = true,
                        ".debugmode" => c.debug_mode = true,
                        ".dx10clamp" => c.dx10_clamp = true,
                        ".ieeemode" => c.ieee_mode = true,
                        _ => c.priv_mode = true,
                    }
                }
            }
            ".default_hsa_features" => {
                // As clrxasm: the flags given before are replaced.
                if self.expect_end(text, p) {
                    let c = self.rocm_config(k);
                    c.properties = 1 | 2 | 8 | (1 << 19);
                    c.private_elem_size = Some(4);
                }
            }
            ".dims" => {
                if let Some(d) = self.gallium_dims(text, p) {
                    self.rocm_config(k).base.dims = Some(d);
                }
            }
            ".use_grid_workgroup_count" => {
                // A later one replaces an earlier one, as in clrxasm.
                if let Some(d) = self.gallium_dims(text, p) {
                    let c = self.rocm_config(k);
                    c.properties = (c.properties & !(7 << 7)) | (u32::from(d.group) << 7);
                }
            }
            ".codeversion" => {
                // clrxasm warns past 32 bits and keeps 16 (its parser's
                // fields are 16-bit).
                if let Some(v) = self.rocm_numbers_at(text, p, 2, 2) {
                    let mut f = [0u32; 2];
                    for (i, x) in v.iter().take(2).enumerate() {
                        if let Some((x, at)) = *x {
                            f[i] = self.rocm_truncate(at, 32, x) as u16 as u32;
                        }
                    }
                    self.rocm_config(k).code_version = Some((f[0], f[1]));
                }
            }
            ".machine" => {
                if let Some(v) = self.rocm_numbers_at(text, p, 4, 4) {
                    let mut f = [None; 4];
                    for (i, x) in v.iter().take(4).enumerate() {
                        if let Some((x, at)) = *x {
                            let x = self.rocm_truncate(at, 16, x) as u16;
                            // All ones: clrxasm's "not given".
                            f[i] = (x != u16::MAX).then_some(x);
                        }
                    }
                    self.rocm_config(k).machine = f;
                }
            }
            ".reserved_vgprs" | ".reserved_sgprs" => {
                if let Some(v) = self.rocm_numbers_at(text, p, 2, 2) {
                    let (vgprs, what) = if lower == ".reserved_vgprs" {
                        (256, "VGPR")
                    } else {
                        (
                            u64::from(crate::gallium::config::max_sgprs(self.version)),
                            "SGPR",
                        )
                    };
                    let ((first, first_at), (last, last_at)) =
                        (v[0].unwrap_or((0, p)), v[1].unwrap_or((0, p)));
                    if first > vgprs - 1 {
                        let msg = format!(
                            "first reserved {what} register out of range (0-{})",
                            vgprs - 1
                        );
                        return self.error(first_at, msg);
                    }
                    if last > vgprs - 1 {
                        let msg = format!(
                            "last reserved {what} register out of range (0-{})",
                            vgprs - 1
                        );
                        return self.error(last_at, msg);
                    }
                    if last < first {
                        return self.error(
                            last_at,
                            "wrong register range (the last is before the first)",
                        );
                    }
                    let pair = Some((first as u16, (last - first + 1) as u16));
                    if lower == ".reserved_vgprs" {
                        self.rocm_config(k).reserved_vgprs = pair;
                    } else {
                        self.rocm_config(k).reserved_sgprs = pair;
                    }
                }
            }
            ".debug_wavefront_private_segment_offset_sgpr"
            | ".debug_private_segment_buffer_sgpr" => {
                if let Some(r) = self.rocm_sgpr(text, p) {
                    if u32::from(r) >= crate::gallium::config::max_sgprs(self.version) {
                        let at = skip_spaces(text.as_bytes(), p);
                        return self.error(at, "SGPR register out of range");
                    }
                    if lower == ".debug_private_segment_buffer_sgpr" {
                        self.rocm_config(k).debug_buffer_sgpr = Some(r);
                    } else {
                        self.rocm_config(k).debug_wave_offset_sgpr = Some(r);
                    }
                }
            }
            ".kernel_code_entry_offset" | ".kernel_code_prefetch_offset" => {
                let mut q = p;
                let Some(v) = self.abs_expr(text, &mut q) else {
                    return;
                };
                if !self.expect_end(text, q) {
                    return;
                }
                // All ones is clrxasm's "not given" (see below).
                let v = (v != -1).then_some(v);
                if lower == ".kernel_code_entry_offset" {
                    let pos = self.pos_at(start);
                    let c = self.rocm_config(k);
                    c.entry_offset = v;
                    c.entry_offset_pos = v.map(|_| pos);
                } else {
                    self.rocm_config(k).prefetch_offset = v;
                }
            }
            ".kernarg_segment_align"
            | ".group_segment_align"
            | ".private_segment_align"
            | ".wavefront_size"
            | ".private_elem_size" => {
                // clrxasm's checks (checkConfigValue).
                let Some((v, at)) = self.rocm_raw_value(text, p) else {
                    return;
                };
                let what = match lower {
                    ".wavefront_size" => "wavefront size",
                    ".private_elem_size" => "private element size",
                    _ => "alignment",
                };
                if !v.is_power_of_two() {
                    return self.error(at, format!("{what} must be a power of two"));
                }
                let problem = match lower {
                    ".wavefront_size" if v > 256 => {
                        Some("wavefront size must not be greater than 256")
                    }
                    ".private_elem_size" if !(2..=16).contains(&v) => {
                        Some("private element size out of range (2, 4, 8 or 16)")
                    }
                    ".kernarg_segment_align"
                    | ".group_segment_align"
                    | ".private_segment_align"
                        if v < 16 =>
                    {
                        Some("alignment must not be smaller than 16")
                    }
                    _ => None,
                };
                if let Some(problem) = problem {
                    return self.error(at, problem);
                }
                let log = v.trailing_zeros() as u8;
                let c = self.rocm_config(k);
                match lower {
                    ".kernarg_segment_align" => c.kernarg_align = Some(log),
                    ".group_segment_align" => c.group_align = Some(log),
                    ".private_segment_align" => c.private_align = Some(log),
                    ".wavefront_size" => c.wavefront_size = Some(log),
                    _ => c.private_elem_size = Some(v as u32),
                }
            }
            ".call_convention" => {
                let mut q = p;
                let at = skip_spaces(text.as_bytes(), p);
                let Some(v) = self.abs_expr(text, &mut q) else {
                    return;
                };
                if !self.expect_end(text, q) {
                    return;
                }
                // A 32-bit field: clrxasm warns and keeps the low bits.
                let v = self.rocm_truncate(at, 32, v as u64) as u32 as i32;
                self.rocm_config(k).call_convention = Some(v);
            }
            ".amdhsa_kernarg_size" | ".amdhsa_uses_dynamic_stack" => {
                // gcnasm's own, with LLVM's names: the v3+ descriptor
                // fields no CLRX pseudo-op sets (gcndisasm lists them).
                let Some((v, at)) = self.rocm_raw_value(text, p) else {
                    return;
                };
                if lower == ".amdhsa_kernarg_size" {
                    let v = self.rocm_truncate(at, 32, v) as u32;
                    self.rocm_config(k).descriptor_kernarg_size = Some(v);
                } else if v > 1 {
                    self.error(at, "expected 0 or 1");
                } else {
                    self.rocm_config(k).uses_dynamic_stack = v == 1;
                }
            }
            ".shared_vgprs" => {
                // Only GCN 1.5 has shared VGPRs (PGM_RSRC3); before it
                // clrxasm takes 0 only.
                if let Some((v, at)) = self.rocm_raw_value(text, p) {
                    if self.version.is_gcn15() {
                        if v > 120 {
                            return self.error(at, "shared VGPRs number out of range (0-120)");
                        }
                    } else if v != 0 {
                        return self
                            .error(at, "the shared VGPR count must be 0 on GPUs before GCN 1.5");
                    }
                    let pos = self.pos_at(at);
                    self.rocm_config(k).shared_vgprs = Some((v as u32, pos));
                }
            }
            _ => {
                // clrxasm (checkConfigValue): a few limits are errors, the
                // other fields take the value's low bits, with a warning
                // for the ones it range-checks.
                let Some((v, at)) = self.rocm_raw_value(text, p) else {
                    return;
                };
                let max_sgprs = u64::from(crate::gallium::config::max_sgprs(self.version));
                let group_size = matches!(
                    lower,
                    ".localsize"
                        | ".group_segment_fixed_size"
                        | ".group_segment_fixes_size"
                        | ".workgroup_group_segment_size"
                );
                let bits = match lower {
                    ".exceptions" => 7,
                    ".floatmode" => 8,
                    ".priority" => 2,
                    ".scratchbuffer"
                    | ".private_segment_fixed_size"
                    | ".workitem_private_segment_size"
                    | ".gds_segment_size"
                    | ".workgroup_fbarrier_count"
                    | ".pgmrsrc1"
                    | ".pgmrsrc2" => 32,
                    _ if group_size => 32,
                    _ => 64,
                };
                let v = if bits < 64 {
                    self.rocm_truncate(at, bits, v)
                } else {
                    v
                };
                let max_local = u64::from(crate::gallium::config::MAX_LOCAL_SIZE);
                let problem = match lower {
                    ".sgprsnum" if v > max_sgprs => {
                        Some(format!("used SGPRs number out of range (0-{max_sgprs})"))
                    }
                    ".vgprsnum" if v > 256 => Some("used VGPRs number out of range (0-256)".into()),
                    ".userdatanum" if v > 16 => Some("user data number out of range (0-16)".into()),
                    _ if group_size && v > max_local => {
                        Some(format!("local size out of range (0-{max_local})"))
                    }
                    _ => None,
                };
                if let Some(problem) = problem {
                    return self.error(at, problem);
                }
                let v32 = v as u32;
                // clrxasm marks a field not given by its all-ones value
                // (BINGEN64/BINGEN/BINGEN16_DEFAULT): given that value, a
                // field takes its default.
                let some64 = (v != u64::MAX).then_some(v);
                let some32 = (v32 != u32::MAX).then_some(v32);
                let some16 = (v as u16 != u16::MAX).then_some(v as u16);
                let c = self.rocm_config(k);
                match lower {
                    ".floatmode" => c.base.float_mode = v32 as u8,
                    ".priority" => c.base.priority = v32 as u8,
                    ".exceptions" => c.base.exceptions = v32 as u8,
                    ".userdatanum" => c.user_data = Some(v32),
                    ".sgprsnum" => c.base.sgprs = Some(v32),
                    ".vgprsnum" => c.base.vgprs = Some(v32),
                    ".pgmrsrc1" => c.base.pgm_rsrc1 = v32,
                    ".pgmrsrc2" => c.base.pgm_rsrc2 = v32,
                    ".pgmrsrc3" => c.pgm_rsrc3 = v32,
                    ".scratchbuffer"
                    | ".private_segment_fixed_size"
                    | ".workitem_private_segment_size" => c.private_size = some32,
                    ".localsize"
                    | ".group_segment_fixed_size"
                    | ".group_segment_fixes_size"
                    | ".workgroup_group_segment_size" => c.group_size = some32,
                    ".gds_segment_size" => c.gds_size = some32,
                    ".kernarg_segment_size" => c.kernarg_size = some64,
                    ".workgroup_fbarrier_count" => c.fbarrier = some32,
                    ".wavefront_sgpr_count" => c.wavefront_sgpr_count = some16,
                    ".workitem_vgpr_count" => c.workitem_vgpr_count = some16,
                    ".kernel_code_prefetch_size" => c.prefetch_size = some64,
                    ".max_scratch_backing_memory" => c.max_scratch = some64,
                    ".runtime_loader_kernel_symbol" => c.loader_symbol = some64,
                    _ => {}
                }
            }
        }
    }

    fn rocm_config(&mut self, k: usize) -> &mut HsaConfig {
        self.rocm.kernels[k]
            .config
            .get_or_insert_with(HsaConfig::default)
    }

    /// The metadata pseudo-ops other than `.arg`.
    fn rocm_md_op(&mut self, k: usize, text: &str, lower: &str, p: usize) {
        match lower {
            ".md_language" => {
                let fields = match split_fields(text, p) {
                    Ok(f) => f,
                    Err(at) => return self.error(at, "unterminated quoted text"),
                };
                let (at, first) = fields[0];
                if !first.starts_with('"') {
                    return self.error(at, "expected the language name (in quotes)");
                }
                let mut e = at;
                let mut buf = Vec::new();
                if let Err(err) = parse_string_literal(text, &mut e, &mut buf) {
                    return self.error(err.at, err.message);
                }
                self.rocm.kernels[k].md.language = Some(String::from_utf8_lossy(&buf).into_owned());
                if fields.len() > 1 {
                    let rest = fields[1].0;
                    let Some(v) = self.rocm_numbers(text, rest, 2, 2, true) else {
                        return;
                    };
                    self.rocm.kernels[k].md.language_version =
                        Some((v[0].unwrap_or(0), v[1].unwrap_or(0)));
                }
            }
            ".cws"
            | ".reqd_work_group_size"
            | ".work_group_size_hint"
            | ".fixed_work_group_size" => {
                let Some(v) = self.rocm_numbers(text, p, 0, 3, true) else {
                    return;
                };
                let mut dims = [1u64; 3];
                for (d, x) in dims.iter_mut().zip(&v) {
                    if let Some(x) = x {
                        *d = *x;
                    }
                }
                let md = &mut self.rocm.kernels[k].md;
                match lower {
                    ".work_group_size_hint" => md.hint = Some(dims),
                    ".fixed_work_group_size" => md.fixed = Some(dims),
                    _ => md.reqd = Some(dims),
                }
            }
            ".vectypehint" | ".runtime_handle" | ".md_symname" => {
                // clrxasm takes `.vectypehint`'s type as a bare name
                // (`float4`); a string is taken too.
                let bare = (lower == ".vectypehint")
                    .then(|| {
                        let q = skip_spaces(text.as_bytes(), p);
                        let e = q + text[q..]
                            .find(|c: char| !(c.is_ascii_alphanumeric() || "_.$".contains(c)))
                            .unwrap_or(text.len() - q);
                        (e > q).then_some((q, e))
                    })
                    .flatten();
                let s = match bare {
                    Some((q, e)) => self.expect_end(text, e).then(|| text[q..e].to_string()),
                    None => self.rocm_string(text, p),
                };
                let Some(s) = s else {
                    return;
                };
                let md = &mut self.rocm.kernels[k].md;
                match lower {
                    ".vectypehint" => md.vec_type_hint = Some(s),
                    ".runtime_handle" => md.runtime_handle = Some(s),
                    _ => md.symbol = Some(s),
                }
            }
            _ => {
                let Some(v) = self.rocm_value(text, p, u64::MAX) else {
                    return;
                };
                let md = &mut self.rocm.kernels[k].md;
                let slot = match lower {
                    ".max_flat_work_group_size" => &mut md.max_flat,
                    ".md_kernarg_segment_align" => &mut md.kernarg_align,
                    ".md_kernarg_segment_size" => &mut md.kernarg_size,
                    ".md_group_segment_fixed_size" => &mut md.group_size,
                    ".md_private_segment_fixed_size" => &mut md.private_size,
                    ".md_sgprsnum" => &mut md.sgprs,
                    ".md_vgprsnum" => &mut md.vgprs,
                    ".spilledsgprs" => &mut md.spilled_sgprs,
                    ".spilledvgprs" => &mut md.spilled_vgprs,
                    _ => &mut md.wavefront_size,
                };
                *slot = Some(v);
            }
        }
    }

    /// `.arg [NAME], ["TYPE",] SIZE, [ALIGN|OFFSET], KIND, TYPE[, POINTEEALIGN][, ADDRSPACE][, ACCESS][, ACTUALACCESS] [FLAGS...]`
    fn rocm_arg(&mut self, k: usize, text: &str, start: usize, p: usize) {
        let fields = match split_fields(text, p) {
            Ok(f) => f,
            Err(at) => return self.error(at, "unterminated quoted text"),
        };
        let mut fields: Vec<(usize, String)> =
            fields.iter().map(|&(a, f)| (a, f.to_string())).collect();
        // The flags follow the last field, separated by spaces.
        let mut flags: Vec<(usize, String)> = Vec::new();
        if let Some(last) = fields.last_mut().filter(|(_, f)| !f.starts_with('"')) {
            let mut words = last.1.split_whitespace().map(str::to_string);
            let first = words.next().unwrap_or_default();
            flags = words.map(|w| (last.0, w)).collect();
            last.1 = first;
        }
        let name = fields[0].1.clone();
        if !name.is_empty() && scan_symbol(name.as_bytes(), 0) != Some(name.len()) {
            return self.error(fields[0].0, "expected an argument name");
        }
        let mut i = 1;
        let mut type_name = String::new();
        if let Some((at, _)) = fields.get(i).filter(|(_, f)| f.starts_with('"')) {
            let mut e = *at;
            let mut buf = Vec::new();
            if let Err(err) = parse_string_literal(text, &mut e, &mut buf) {
                return self.error(err.at, err.message);
            }
            type_name = String::from_utf8_lossy(&buf).into_owned();
            i += 1;
        }
        let need = |this: &mut Self, i: usize, what: &str| -> Option<(usize, String)> {
            match fields.get(i) {
                Some((at, f)) => Some((*at, f.clone())),
                None => {
                    this.error(text.len(), format!("expected {what}"));
                    None
                }
            }
        };
        let Some((size_at, _)) = need(self, i, "the argument size") else {
            return;
        };
        i += 1;
        let mut q = size_at;
        let Some(size) = self.abs_expr(text, &mut q) else {
            return;
        };
        if size <= 0 {
            return self.error(size_at, "the argument size must be positive");
        }
        let size = size as u64;
        let Some((align_at, align_f)) = need(self, i, "the alignment or offset (may be empty)")
        else {
            return;
        };
        i += 1;
        let v3 = self.rocm.metadata_v3;
        let mut align = 0u64;
        if !align_f.is_empty() {
            let mut q = align_at;
            let Some(v) = self.abs_expr(text, &mut q) else {
                return;
            };
            if v < 0 {
                return self.error(align_at, "expected a non-negative value");
            }
            align = v as u64;
            if !v3 && !align.is_power_of_two() {
                return self.error(align_at, "the argument alignment is not a power of two");
            }
        }
        if size > u64::from(u32::MAX) {
            return self.error(size_at, "the argument size must fit in 32 bits");
        }
        if align > u64::from(u32::MAX) {
            return self.error(align_at, "the alignment or offset must fit in 32 bits");
        }
        let natural = size.next_power_of_two();
        if align == 0 {
            if !v3 {
                align = natural;
            } else if let Some(prev) = self.rocm.kernels[k].md.args.last() {
                // Both below 2^32: no overflow in u64.
                align = (prev.align_or_offset + prev.size).div_ceil(natural) * natural;
            }
        }
        let Some((kind_at, kind_f)) = need(self, i, "the value kind") else {
            return;
        };
        i += 1;
        let Some(kind) = ARG_KINDS
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(&kind_f))
            .map(|(_, k)| k.clone())
        else {
            return self.error(kind_at, format!("unknown value kind '{kind_f}'"));
        };
        let Some((type_at, type_f)) = need(self, i, "the value type") else {
            return;
        };
        i += 1;
        let Some(value_type) = lookup_word(VALUE_TYPES, &type_f) else {
            return self.error(type_at, format!("unknown value type '{type_f}'"));
        };
        let mut pointee_align = 0;
        if kind == ValueKind::DynamicSharedPointer {
            let Some((at, f)) = need(self, i, "the pointee alignment") else {
                return;
            };
            i += 1;
            let mut q = at;
            let Some(v) = self.abs_expr(text, &mut q) else {
                return;
            };
            if v <= 0 || !(v as u64).is_power_of_two() {
                return self.error(at, format!("pointee alignment '{f}' is not a power of two"));
            }
            pointee_align = v as u64;
        }
        let mut address_space = None;
        if matches!(
            kind,
            ValueKind::DynamicSharedPointer | ValueKind::GlobalBuffer
        ) {
            let Some((at, f)) = need(self, i, "the address space") else {
                return;
            };
            i += 1;
            let lower = f.to_ascii_lowercase();
            match ADDRESS_SPACES.iter().find(|s| **s == lower) {
                Some(s) => address_space = Some(*s),
                None => return self.error(at, format!("unknown address space '{f}'")),
            }
        }
        // Then the access qualifier (images, pipes) and the actual one
        // (global buffers, images, pipes), each optional.
        let takes_access = matches!(kind, ValueKind::Image | ValueKind::Pipe);
        let takes_actual = takes_access || kind == ValueKind::GlobalBuffer;
        let mut quals = Vec::new();
        for (at, f) in &fields[i.min(fields.len())..] {
            if f.is_empty() {
                quals.push(0);
                continue;
            }
            match lookup_word(ACCESS, f) {
                Some(q) => quals.push(q),
                None => return self.error(*at, format!("unknown access qualifier '{f}'")),
            }
        }
        let (access, actual_access) = match (takes_access, takes_actual, quals.as_slice()) {
            (_, _, []) => (0, 0),
            (true, _, [a]) => (*a, 0),
            (true, _, [a, b]) => (*a, *b),
            (false, true, [b]) => (0, *b),
            _ => return self.error(fields[i].0, "too many operands for this value kind"),
        };
        let pos = self.pos_at(if name.is_empty() { start } else { fields[0].0 });
        let mut arg = MdArg {
            name,
            pos,
            declaration: text[start..].trim().to_string(),
            type_name,
            size,
            align_or_offset: align,
            kind,
            value_type,
            pointee_align,
            address_space,
            access,
            actual_access,
            is_const: false,
            is_restrict: false,
            is_volatile: false,
            is_pipe: false,
        };
        for (at, w) in flags {
            match w.as_str() {
                "const" => arg.is_const = true,
                "restrict" => arg.is_restrict = true,
                "volatile" => arg.is_volatile = true,
                "pipe" => arg.is_pipe = true,
                _ => return self.error(at, format!("unknown argument flag '{w}'")),
            }
        }
        self.rocm.kernels[k].md.args.push(arg);
    }

    /// The ROCm kernels as the source declared them (order of `.kernel`),
    /// with one [`ArgDecl`] per metadata `.arg` (none for a kernel whose
    /// metadata is a raw `.metadata` note).
    pub(crate) fn rocm_decls(&self) -> Vec<KernelDecl> {
        self.rocm
            .kernels
            .iter()
            .map(|k| KernelDecl {
                name: k.name.clone(),
                pos: k.pos.clone(),
                args: k
                    .md
                    .args
                    .iter()
                    .map(|a| ArgDecl {
                        name: (!a.name.is_empty()).then(|| a.name.clone()),
                        pos: a.pos.clone(),
                        declaration: a.declaration.clone(),
                    })
                    .collect(),
            })
            .collect()
    }

    /// Builds the code object's input at the end of the assembly; `None`
    /// after an error (reported at the kernel or the pseudo-op).
    pub(crate) fn rocm_finish(&mut self) -> Option<RocmInput> {
        if self.format != BinaryFormat::Rocm {
            return None;
        }
        if let Some((_, pos)) = self.rocm.kcode_stack.first() {
            let pos = pos.clone();
            self.diag_at(pos, "missing .kcodeend".into(), true);
        }
        let mut owner = None;
        let regions = std::mem::take(&mut self.rocm.regions);
        for (label, usage) in &regions {
            if let Some(&k) = self.rocm.index.get(label) {
                owner = Some(k);
            }
            if let Some(k) = owner {
                self.rocm.kernels[k].usage.merge(usage);
            }
        }
        let version = self.version;
        // `.arch_minor` and `.arch_stepping` replace both versions' parts.
        let refine = |(major, minor, stepping): (u32, u32, u32)| {
            (
                major,
                self.rocm.arch_minor.unwrap_or(minor),
                self.rocm.arch_stepping.unwrap_or(stepping),
            )
        };
        let (note, machine) = clrx_arch_versions(self.device);
        let (major, minor, stepping) = refine(note);
        let (machine_major, machine_minor, machine_stepping) = refine(machine);
        let llvm10 = self.rocm.llvm10;
        let v3 = self.rocm.metadata_v3;
        let file = self.pos_at(0);
        if v3 && !llvm10 {
            self.diag_at(file.clone(), ".metadatav3 needs .llvm10binfmt (the MessagePack note goes with the kernel descriptors of code object v3+)".into(), true);
            return None;
        }
        let raw_md = self
            .sections
            .iter()
            .find(|s| s.name == ".metadata")
            .map(|s| s.data.clone())
            .filter(|d| !d.is_empty());
        if raw_md.is_some() && self.rocm.uses_md {
            let pos = self.rocm.md_pos.clone().unwrap_or(file.clone());
            self.diag_at(pos, "metadata pseudo-ops cannot be used with a .metadata section (the note is one or the other)".into(), true);
            return None;
        }
        // The code object version: v2, or v3..v5 by the metadata version.
        let mut co_version = 2u8;
        if llvm10 && !v3 {
            // clrxasm's LLVM 10 layout with a YAML note (v2's keys).
            co_version = 3;
        } else if llvm10 {
            let md_version = match (&raw_md, self.rocm.md_version) {
                (_, Some(v)) => Some(v),
                (Some(raw), None) => match Metadata::from_msgpack(raw) {
                    Ok(m) => m.version(),
                    Err(e) => {
                        self.diag_at(file.clone(), format!("the .metadata section: {e}"), true);
                        return None;
                    }
                },
                (None, None) => None,
            };
            co_version = match md_version {
                None | Some((1, 0)) => 3,
                Some((1, 1)) => 4,
                Some((1, 2)) => 5,
                Some((a, b)) => {
                    self.diag_at(
                        file.clone(),
                        format!(
                            "metadata version {a}.{b} is not 1.0, 1.1 or 1.2 (code object v3..v5)"
                        ),
                        true,
                    );
                    return None;
                }
            };
        }
        // The metadata's dialect: v2's keys in YAML unless `.metadatav3`.
        let md_version = if v3 { co_version } else { 2 };
        let mut ok = true;
        let states = std::mem::take(&mut self.rocm.kernels);
        let mut text = self.sections[0].data.clone();
        let rodata = self
            .sections
            .iter()
            .find(|s| s.name == ".rodata")
            .map(|s| s.data.clone())
            .unwrap_or_default();
        let use_md = raw_md.is_none() && (self.rocm.uses_md || self.rocm.new_binfmt);
        let mut kernels = Vec::new();
        let mut md_kernels = Vec::new();
        for (i, state) in states.iter().enumerate() {
            let Some(offset) = self.kernel_label_offset(&state.name, &state.pos) else {
                ok = false;
                continue;
            };
            let config = state.config.clone().unwrap_or_default();
            let mut usage = state.usage;
            let props = config.properties;
            usage.flat_scratch |= props & (1 << 5) != 0;
            usage.xnack_mask |= props & (1 << 22) != 0;
            let user_data = config.user_data.unwrap_or_else(|| {
                let u = crate::rocm::UserSgprs::from_properties(props).count()
                    + (props >> 7 & 7).count_ones();
                u.min(16)
            });
            let private_size = config.private_size.unwrap_or(0);
            let group_size = config.group_size.unwrap_or(0);
            let mut base = config.base.clone();
            // clrxasm's ROCm kernels have no dimensions unless `.dims`
            // gives them (it never takes them from `.pgmrsrc2`).
            base.dims
                .get_or_insert(crate::gallium::config::Dims { group: 0, local: 0 });
            base.user_data = user_data;
            base.scratch_buffer = private_size;
            base.wave32 = props & (1 << 10) != 0;
            // clrxasm ORs the group size into PGM_RSRC2.LDS_SIZE in the old
            // binary format, over a given `.pgmrsrc2`'s field too.
            base.local_size = if self.rocm.new_binfmt { 0 } else { group_size };
            let prog = match prog_info(&base, &usage, version, 0) {
                Ok(p) => p,
                Err(message) => {
                    let msg = format!("kernel '{}': {message}", state.name);
                    self.diag_at(state.pos.clone(), msg, true);
                    ok = false;
                    continue;
                }
            };
            if let Some((shared, pos)) = &config.shared_vgprs {
                let vgprs = prog.vgprs.max(1);
                if u64::from(vgprs.next_multiple_of(8)) + u64::from(*shared) > 256 {
                    let msg = format!(
                        "number of total VGPRs with shared VGPRs for kernel '{}' is higher than 256 ({vgprs} VGPRs, {shared} shared)",
                        state.name
                    );
                    self.diag_at(pos.clone(), msg, true);
                    ok = false;
                    continue;
                }
            }
            let mut rsrc1 = prog.entries[0].value;
            if llvm10 && v3 && version.is_gcn15() {
                // clrxasm puts the SGPR blocks in PGM_RSRC1 in this one
                // case (GCN 1.5, LLVM 10 format with metadata v3).
                rsrc1 |= ((prog.sgprs.max(1) - 1) / 8) << 6;
            }
            // GCN 1.5: PGM_RSRC3 gets the shared VGPRs in blocks of 8.
            let shared_blocks = config
                .shared_vgprs
                .as_ref()
                .filter(|_| version.is_gcn15())
                .map_or(0, |(n, _)| n.div_ceil(8));
            // As clrxasm: SCRATCH_EN, the user SGPR count and the
            // dimensions of a given `.pgmrsrc2` are replaced by the computed
            // ones.
            let rsrc2 = prog.entries[1].value;
            let args = &state.md.args;
            let kernarg_size = config.kernarg_size.unwrap_or_else(|| {
                if !use_md || args.is_empty() {
                    0
                } else if v3 {
                    args.last().map_or(0, |a| a.align_or_offset + a.size)
                } else {
                    // Sizes and alignments are below 2^32 each: saturating
                    // only matters for absurd argument counts.
                    let mut size = 0u64;
                    for a in args {
                        size = size
                            .div_ceil(a.align_or_offset.max(1))
                            .saturating_mul(a.align_or_offset.max(1))
                            .saturating_add(a.size);
                    }
                    size.div_ceil(16).saturating_mul(16)
                }
            });
            let kernarg_align = config.kernarg_align.unwrap_or(4);
            let wavefront_size = config.wavefront_size.unwrap_or(6);
            let sgprs = config
                .wavefront_sgpr_count
                .unwrap_or(prog.sgprs.max(1) as u16);
            let vgprs = config
                .workitem_vgpr_count
                .unwrap_or(prog.vgprs.max(1) as u16);
            if llvm10 {
                if let Some(pos) = config.entry_offset_pos.clone() {
                    // clrxasm takes the value as given; here the layout
                    // decides, so that the entry is always the label.
                    let msg = format!(
                        "kernel '{}': .kernel_code_entry_offset is not used in the LLVM 10 binary format: the offset from the descriptor to the label '{}' is computed",
                        state.name, state.name
                    );
                    self.diag_at(pos, msg, false);
                }
                let d = KernelDescriptor {
                    group_segment_fixed_size: group_size,
                    private_segment_fixed_size: private_size,
                    // clrxasm leaves it 0; `.amdhsa_kernarg_size` gives it.
                    kernarg_size: config.descriptor_kernarg_size.unwrap_or(0),
                    kernel_code_entry_byte_offset: 0,
                    compute_pgm_rsrc1: rsrc1,
                    compute_pgm_rsrc2: rsrc2,
                    compute_pgm_rsrc3: config.pgm_rsrc3 | shared_blocks,
                    // clrxasm's: the user SGPR flags as they are, the grid
                    // work-group counts (bits 7-9, reserved in v3) and
                    // wave32 included; USES_DYNAMIC_STACK (bit 11) from
                    // `.amdhsa_uses_dynamic_stack`.
                    kernel_code_properties: ((props & 0x7ff)
                        | (u32::from(config.uses_dynamic_stack) << 11))
                        as u16,
                };
                kernels.push(RocmInputKernel {
                    name: state.name.clone(),
                    text_offset: offset,
                    descriptor: Some(((i * 64) as u64, d)),
                    function: state.function,
                });
                if rodata.len() < (i + 1) * 64 {
                    let msg = format!(
                        "global data for kernel '{}' is too small for its descriptor: .globaldata must start with 64 bytes per kernel (`.skip {}`)",
                        state.name,
                        64 * states.len()
                    );
                    self.diag_at(state.pos.clone(), msg, true);
                    ok = false;
                    continue;
                }
                if use_md
                    && v3
                    && !state.function
                    && state.md.symbol.as_deref().unwrap_or("").is_empty()
                {
                    let msg = format!(
                        "kernel '{}': without .md_symname the metadata's .symbol is empty, as clrxasm writes it, and loaders find the kernel's descriptor by that name: add `.md_symname \"{}.kd\"`",
                        state.name, state.name
                    );
                    self.diag_at(state.pos.clone(), msg, false);
                }
                if state.control.is_some() {
                    let msg = format!("kernel '{}': a .control_directive has no place in the LLVM 10 binary format", state.name);
                    self.diag_at(state.pos.clone(), msg, true);
                    ok = false;
                }
            } else {
                let mut control = [0u8; 128];
                if let Some(c) = state.control {
                    let data = &self.sections[c].data;
                    if data.len() != 128 {
                        let msg = format!(
                            "kernel '{}': its .control_directive is {} bytes, not 128",
                            state.name,
                            data.len()
                        );
                        self.diag_at(state.pos.clone(), msg, true);
                        ok = false;
                        continue;
                    }
                    control.copy_from_slice(data);
                }
                let (cv_major, cv_minor) = config
                    .code_version
                    .unwrap_or((1, u32::from(self.rocm.new_binfmt)));
                let m = config.machine;
                let machine = (
                    m[0].unwrap_or(1),
                    m[1].unwrap_or(machine_major as u16),
                    m[2].unwrap_or(machine_minor as u16),
                    m[3].unwrap_or(machine_stepping as u16),
                );
                let elem = config
                    .private_elem_size
                    .map_or(props >> 17 & 3, |e| e.trailing_zeros() - 1);
                let code = AmdKernelCode {
                    version_major: cv_major,
                    version_minor: cv_minor,
                    machine_kind: machine.0,
                    machine_version_major: machine.1,
                    machine_version_minor: machine.2,
                    machine_version_stepping: machine.3,
                    kernel_code_entry_byte_offset: config.entry_offset.unwrap_or(256),
                    kernel_code_prefetch_byte_offset: config.prefetch_offset.unwrap_or(0),
                    kernel_code_prefetch_byte_size: config.prefetch_size.unwrap_or(0),
                    max_scratch_backing_memory_byte_size: config.max_scratch.unwrap_or(0),
                    compute_pgm_rsrc1: rsrc1,
                    compute_pgm_rsrc2: rsrc2,
                    kernel_code_properties: (props & !(3 << 17)) | (elem << 17),
                    workitem_private_segment_byte_size: private_size,
                    workgroup_group_segment_byte_size: group_size,
                    gds_segment_byte_size: config.gds_size.unwrap_or(0),
                    kernarg_segment_byte_size: kernarg_size,
                    workgroup_fbarrier_count: config.fbarrier.unwrap_or(0),
                    wavefront_sgpr_count: sgprs,
                    workitem_vgpr_count: vgprs,
                    reserved_vgpr_first: config.reserved_vgprs.map_or(0, |r| r.0),
                    reserved_vgpr_count: config.reserved_vgprs.map_or(0, |r| r.1),
                    reserved_sgpr_first: config.reserved_sgprs.map_or(0, |r| r.0),
                    reserved_sgpr_count: config.reserved_sgprs.map_or(0, |r| r.1),
                    debug_wavefront_private_segment_offset_sgpr: config
                        .debug_wave_offset_sgpr
                        .unwrap_or(0),
                    debug_private_segment_buffer_sgpr: config.debug_buffer_sgpr.unwrap_or(0),
                    kernarg_segment_alignment: kernarg_align,
                    group_segment_alignment: config.group_align.unwrap_or(4),
                    private_segment_alignment: config.private_align.unwrap_or(4),
                    wavefront_size,
                    call_convention: config.call_convention.unwrap_or(0),
                    runtime_loader_kernel_symbol: config.loader_symbol.unwrap_or(0),
                    control_directives: control,
                };
                let at = offset as usize;
                if state.config.is_some() {
                    match text.get_mut(at..at + 256) {
                        Some(dest) => dest.copy_from_slice(&code.to_bytes()),
                        None => {
                            let msg = format!(
                                "code for kernel '{}' is too small for its configuration: leave 256 bytes at its label (`.skip 256`)",
                                state.name
                            );
                            self.diag_at(state.pos.clone(), msg, true);
                            ok = false;
                            continue;
                        }
                    }
                }
                kernels.push(RocmInputKernel {
                    name: state.name.clone(),
                    text_offset: offset,
                    descriptor: None,
                    function: state.function,
                });
            }
            // The metadata's defaults: clrxasm's, from the configuration
            // (a kernarg alignment that is its log2 value; the register
            // counts the kernel's, whatever `.wavefront_sgpr_count` and
            // `.workitem_vgpr_count` put in the configuration). A v2 kernel
            // without `.config` has its amd_kernel_code_t in the code, and
            // clrxasm takes them from there (`generateROCmMetadata`).
            let header = (state.config.is_none() && co_version == 2)
                .then(|| text.get(offset as usize..))
                .flatten()
                .and_then(AmdKernelCode::from_bytes);
            let defaults = match header {
                Some(h) => MdDefaults {
                    kernarg_size: h.kernarg_segment_byte_size,
                    kernarg_align: 1u64 << (h.kernarg_segment_alignment & 63),
                    wavefront_size: 1u64 << (h.wavefront_size & 63),
                    group_size: u64::from(h.workgroup_group_segment_byte_size),
                    private_size: u64::from(h.workitem_private_segment_byte_size),
                    sgprs: u64::from(h.wavefront_sgpr_count),
                    vgprs: u64::from(h.workitem_vgpr_count),
                },
                None => MdDefaults {
                    kernarg_size,
                    kernarg_align: u64::from(kernarg_align),
                    wavefront_size: 1 << wavefront_size,
                    group_size: u64::from(group_size),
                    private_size: u64::from(private_size),
                    sgprs: u64::from(prog.sgprs.max(1)),
                    vgprs: u64::from(prog.vgprs.max(1)),
                },
            };
            md_kernels.push(self.rocm_kernel_md(state, md_version, &defaults));
        }
        self.rocm.kernels = states;
        if !ok {
            return None;
        }
        let metadata = match raw_md {
            Some(raw) => Some(raw),
            None if use_md => {
                let root = self.rocm_metadata(md_kernels, md_version);
                let encoded = if !v3 {
                    root.to_clrx_yaml().map(String::into_bytes)
                } else {
                    root.to_msgpack()
                };
                match encoded {
                    Ok(b) => Some(b),
                    Err(e) => {
                        self.diag_at(file, e.to_string(), true);
                        return None;
                    }
                }
            }
            None => None,
        };
        // As clrxasm: `.target`, else `.tripple` with the note's version.
        let isa_name = self
            .rocm
            .target
            .clone()
            .filter(|t| !t.is_empty())
            .or_else(|| {
                let t = self.rocm.tripple.as_ref()?;
                Some(format!("{t}-gfx{major}{minor}{stepping}"))
            });
        // CLRX's GCN 1.0 is 0.x.y; LLVM's gfx60x are 6.0.x.
        let llvm_major = if major == 0 { 6 } else { major };
        let mach = ProcessorInfo::from_isa(llvm_major, minor, stepping).map_or(0, |p| p.mach);
        // clrxasm's defaults: 0 for the old format, 2 for .newbinfmt and
        // 0x33 (gfx1010's machine) for .llvm10binfmt whatever the device;
        // code objects v4/v5, which clrxasm does not write, get the
        // device's machine.
        let e_flags = match (self.rocm.eflags, co_version) {
            (Some(flags), _) => flags,
            (None, 2) => u32::from(self.rocm.new_binfmt) * 2,
            (None, 3) => {
                const CLRX_LLVM10_EFLAGS: u32 = 0x33;
                if mach != CLRX_LLVM10_EFLAGS {
                    let pos = self.rocm.llvm10_pos.clone().unwrap_or_else(|| file.clone());
                    let msg = format!(
                        ".llvm10binfmt without .eflags: e_flags is {CLRX_LLVM10_EFLAGS:#x} (gfx1010) as clrxasm writes it, which loaders read as another GPU; add `.eflags {mach:#x}` for {}",
                        self.device.name()
                    );
                    self.diag_at(pos, msg, false);
                }
                CLRX_LLVM10_EFLAGS
            }
            (None, _) => mach,
        };
        let (symbols, got) = self.rocm_got_symbols()?;
        let data = self
            .section_index
            .get(".data")
            .map(|&i| self.sections[i].data.clone())
            .unwrap_or_default();
        let bss = match self.section_index.get(".bss") {
            Some(&i) if self.sections[i].data.iter().any(|&b| b != 0) => {
                let msg =
                    "section .bss holds only zeros (.skip, .zero): it has no bytes in the file"
                        .to_string();
                self.diag_at(file, msg, true);
                return None;
            }
            Some(&i) => self.sections[i].data.len() as u64,
            None => 0,
        };
        let comment = self
            .section_index
            .get(".comment")
            .map(|&i| self.sections[i].data.clone())
            .unwrap_or_else(|| crate::rocm::DEFAULT_COMMENT.as_bytes().to_vec());
        let extra_sections = self.rocm_extra_sections();
        Some(RocmInput {
            new_format: self.rocm.new_binfmt,
            comment,
            extra_sections,
            code_object_version: co_version,
            e_flags,
            isa_version: (major, minor, stepping),
            isa_name: if co_version == 2 { isa_name } else { None },
            yaml_metadata: !v3,
            empty_rodata: self.section_index.contains_key(".rodata"),
            metadata,
            text,
            rodata,
            kernels,
            data,
            bss,
            symbols,
            got,
            relocations: Vec::new(),
        })
    }

    /// The source's own unloaded sections (`.section NAME` other than the
    /// loaded ones and `.comment`), as clrxasm writes them: after the
    /// section headers, with the flags and type `.section` gave.
    fn rocm_extra_sections(&self) -> Vec<crate::rocm::RocmExtraSection> {
        self.sections
            .iter()
            .enumerate()
            .filter(|(i, s)| s.user && self.rocm_section(*i).is_none() && s.name != ".comment")
            .map(|(_, s)| {
                let flag = |c: char, f: u32| if s.flags.contains(c) { u64::from(f) } else { 0 };
                crate::rocm::RocmExtraSection {
                    name: s.name.clone(),
                    data: s.data.clone(),
                    sh_type: match s.kind.as_str() {
                        "note" => object::elf::SHT_NOTE,
                        "nobits" => object::elf::SHT_NOBITS,
                        _ => object::elf::SHT_PROGBITS,
                    },
                    flags: flag('a', object::elf::SHF_ALLOC)
                        | flag('w', object::elf::SHF_WRITE)
                        | flag('x', object::elf::SHF_EXECINSTR),
                    align: s.align.max(1),
                }
            })
            .collect()
    }

    /// The loaded section of a code object that assembler section `i` is.
    fn rocm_section(&self, i: usize) -> Option<RocmSection> {
        if i == 0 {
            return Some(RocmSection::Text);
        }
        match self.sections.get(i)?.name.as_str() {
            ".rodata" => Some(RocmSection::Rodata),
            ".data" => Some(RocmSection::Data),
            ".got" => Some(RocmSection::Got),
            ".bss" => Some(RocmSection::Bss),
            _ => None,
        }
    }

    /// The `.gotsym` entries: the global symbols they name (the kernels
    /// are dynamic symbols already) and the entries' names. Each must be a
    /// kernel or a global symbol (`.global`) whose value is an address in
    /// `.text`, `.rodata`, `.data` or `.got`.
    fn rocm_got_symbols(&mut self) -> Option<(Vec<RocmInputSymbol>, Vec<String>)> {
        let mut symbols: Vec<RocmInputSymbol> = Vec::new();
        let mut names = Vec::new();
        let mut ok = true;
        if let Some(&got) = self.section_index.get(".got") {
            let entries = self.rocm.got.len();
            if self.sections[got].data.len() != 8 * entries {
                let pos = self.pos_at(0);
                let msg = format!(
                    "section .got holds the {entries} entries of .gotsym only: nothing else can be written there"
                );
                self.diag_at(pos, msg, true);
                ok = false;
            }
        }
        for (name, pos) in std::mem::take(&mut self.rocm.got) {
            names.push(name.clone());
            // clrxasm wants every GOT symbol global, a kernel's too.
            if self.rocm.index.contains_key(&name) && !self.rocm.globals.contains(&name) {
                self.diag_at(
                    pos.clone(),
                    format!("GOT symbol '{name}' is not global symbol (.global)"),
                    true,
                );
                ok = false;
                continue;
            }
            if self.rocm.index.contains_key(&name) || symbols.iter().any(|s| s.name == name) {
                continue;
            }
            let value = self.syms.lookup(&name).and_then(|id| {
                match super::expr::resolve_symbol(&mut self.syms, id, 0) {
                    Ok(Some(v)) => Some(v),
                    _ => None,
                }
            });
            // A loaded section and offset, or an absolute value (`None`).
            let place = value.and_then(|v| match v.section {
                Some(s) => {
                    let section = self.rocm_section(s.0 as usize)?;
                    Some((Some(section), u64::try_from(v.value).ok()?))
                }
                None => Some((None, v.value as u64)),
            });
            let problem = if value.is_none() {
                Some("is unresolved")
            } else if !self.rocm.globals.contains(&name) {
                Some("is not global symbol (.global)")
            } else if place.is_none() {
                Some("is neither a number nor an address in .text, .rodata, .data, .bss or .got")
            } else {
                None
            };
            if let Some(problem) = problem {
                self.diag_at(pos.clone(), format!("GOT symbol '{name}' {problem}"), true);
                ok = false;
                continue;
            }
            if let Some((section, offset)) = place {
                // As clrxasm: an object in a section, an absolute symbol
                // as it was.
                symbols.push(RocmInputSymbol {
                    name: name.clone(),
                    section,
                    offset,
                    size: 0,
                    st_type: if section.is_some() {
                        object::elf::STT_OBJECT
                    } else {
                        object::elf::STT_NOTYPE
                    },
                    st_other: object::elf::STV_DEFAULT,
                });
            }
        }
        // clrxasm writes these symbols in the order it iterates its symbol
        // map, which follows the order the assembly created the global
        // symbols in.
        if symbols.len() > 1 {
            let mut created: Vec<(crate::syntax::symbols::SymId, &str)> = self.syms.scopes[0]
                .symbols
                .iter()
                .map(|(name, &id)| (id, &**name))
                .filter(|(_, name)| *name != ".")
                .collect();
            created.sort_by_key(|(id, _)| id.0);
            let created: Vec<&str> = created.into_iter().map(|(_, name)| name).collect();
            let order = crate::rocm::clrx_order::clrx_symbol_map_order(&created);
            let rank: rustc_hash::FxHashMap<&str, usize> = order
                .iter()
                .enumerate()
                .map(|(r, &i)| (created[i], r))
                .collect();
            symbols.sort_by_key(|s| rank.get(s.name.as_str()).copied().unwrap_or(usize::MAX));
        }
        ok.then_some((symbols, names))
    }

    /// After the pass, with the code object laid out: the expressions that
    /// waited for the layout (section differences, addresses) and the
    /// 64-bit addresses in data, which become `R_AMDGPU_RELATIVE64`
    /// relocations; patched into `input`.
    pub(crate) fn rocm_resolve(
        &mut self,
        mut input: RocmInput,
        late_instr: Vec<(InstrFixup, std::rc::Rc<[super::expr::Op]>)>,
        late_data: Vec<DataFixup>,
    ) -> Option<RocmInput> {
        if late_instr.is_empty() && late_data.is_empty() {
            return Some(input);
        }
        let mut absolute = Vec::new();
        for f in late_data {
            let mut stack = Vec::new();
            let relative = match super::expr::evaluate(&f.expr, &mut self.syms, &mut stack) {
                Ok(Some(v)) => v
                    .section
                    .and_then(|s| self.rocm_section(s.0 as usize))
                    .map(|s| (s, v.value)),
                _ => None,
            };
            match (relative, self.rocm_section(f.section)) {
                (Some((target, addend)), Some(at))
                    if f.size == 8 && !matches!(at, RocmSection::Got | RocmSection::Bss) =>
                {
                    input.relocations.push(RocmInputReloc {
                        at: (at, f.offset as u64),
                        target,
                        addend,
                    });
                }
                _ => absolute.push(f),
            }
        }
        let layout = match crate::rocm::layout(&input) {
            Ok(l) => l,
            Err(e) => {
                let pos = self.pos_at(0);
                self.diag_at(pos, e.to_string(), true);
                return None;
            }
        };
        self.syms.section_bases = (0..self.sections.len())
            .map(|i| self.rocm_section(i).map(|s| layout.address(s) as i64))
            .collect();
        let mut ok = true;
        // True when `section` is loaded with bytes a late value may
        // patch; else a located error.
        let patchable = |asm: &mut Self, section: usize, pos: &crate::diag::SourcePos| {
            if !matches!(
                asm.rocm_section(section),
                None | Some(RocmSection::Got | RocmSection::Bss)
            ) {
                return true;
            }
            let msg = format!(
                "a value that depends on the code object's layout cannot be stored in section {} (only in .text, .rodata and .data)",
                asm.sections[section].name
            );
            asm.diag_at(pos.clone(), msg, true);
            false
        };
        for (f, ops) in late_instr {
            if !patchable(self, f.section, &f.pos) {
                ok = false;
                continue;
            }
            let Some(value) = self.final_value(&ops, &f.pos) else {
                ok = false;
                continue;
            };
            let kind = self.rocm_section(f.section);
            let target = patch_target(kind, &mut input, &mut self.sections[f.section].data);
            match super::assembler::patch_instruction(target, &f, value) {
                Ok(Some(message)) => self.diag_at(f.pos, message, false),
                Ok(None) => {}
                Err(message) => {
                    self.diag_at(f.pos, message, true);
                    ok = false;
                }
            }
        }
        for f in absolute {
            if !patchable(self, f.section, &f.pos) {
                ok = false;
                continue;
            }
            let Some(value) = self.final_value(&f.expr, &f.pos) else {
                ok = false;
                continue;
            };
            if value.section.is_some() {
                let msg = "an address outside the code object's loaded sections (.text, .rodata, .data, .got) has no value".to_string();
                self.diag_at(f.pos, msg, true);
                ok = false;
                continue;
            }
            let kind = self.rocm_section(f.section);
            let target = patch_target(kind, &mut input, &mut self.sections[f.section].data);
            if let Some(msg) = super::assembler::patch_data(target, &f, value) {
                self.diag_at(f.pos.clone(), msg, false);
            }
        }
        self.syms.section_bases.clear();
        ok.then_some(input)
    }

    /// One kernel's metadata map: the metadata pseudo-ops' values, else
    /// `defaults`. Which keys there are, and in what order, is what
    /// clrxasm writes (`generateROCmMetadata`, `generateROCmMetadataMsgPack`),
    /// so that [`MetaValue::to_clrx_yaml`] and [`MetaValue::to_msgpack`]
    /// give its bytes.
    fn rocm_kernel_md(
        &self,
        state: &RocmKernelState,
        co_version: u8,
        defaults: &MdDefaults,
    ) -> MetaValue {
        use MetaValue::{Array, Bool, Map, Str, UInt};
        let md = &state.md;
        let dims = |d: [u64; 3]| Array(d.iter().map(|&x| UInt(x)).collect());
        // What clrxasm leaves out: dimensions of zeros (`.cws 0, 0, 0`),
        // empty strings (a symbol name's default is used for an empty one).
        let nonzero = |d: Option<[u64; 3]>| d.filter(|d| d.iter().any(|&x| x != 0));
        let nonempty = |s: &Option<String>| s.clone().filter(|s| !s.is_empty());
        let (reqd, hint, fixed) = (nonzero(md.reqd), nonzero(md.hint), nonzero(md.fixed));
        let (language, vec_type_hint) = (nonempty(&md.language), nonempty(&md.vec_type_hint));
        let runtime_handle = nonempty(&md.runtime_handle);
        // `.md_language` without a version gives version 0.0 (clrxasm).
        let language_version = md
            .language
            .as_ref()
            .map(|_| md.language_version.unwrap_or((0, 0)));
        // clrxasm keeps these counts in 32 bits.
        let spilled_sgprs = md.spilled_sgprs.map(|v| u64::from(v as u32));
        let spilled_vgprs = md.spilled_vgprs.map(|v| u64::from(v as u32));
        let kernarg_size = md.kernarg_size.unwrap_or(defaults.kernarg_size);
        let kernarg_align = md.kernarg_align.unwrap_or(defaults.kernarg_align);
        let wavefront = md.wavefront_size.unwrap_or(defaults.wavefront_size);
        let group = md.group_size.unwrap_or(defaults.group_size);
        let private = md.private_size.unwrap_or(defaults.private_size);
        let sgprs = md.sgprs.unwrap_or(defaults.sgprs);
        let vgprs = md.vgprs.unwrap_or(defaults.vgprs);
        let max_flat = md.max_flat.unwrap_or(256);
        let mut m: Vec<(String, MetaValue)> = Vec::new();
        let put =
            |m: &mut Vec<(String, MetaValue)>, k: &str, v: MetaValue| m.push((k.to_string(), v));
        if co_version == 2 {
            put(&mut m, "Name", Str(state.name.clone()));
            put(
                &mut m,
                "SymbolName",
                Str(nonempty(&md.symbol).unwrap_or_else(|| format!("{}@kd", state.name))),
            );
            if let Some(l) = language {
                put(&mut m, "Language", Str(l));
            }
            if let Some((a, b)) = language_version {
                put(&mut m, "LanguageVersion", Array(vec![UInt(a), UInt(b)]));
            }
            let mut attrs = Vec::new();
            if let Some(h) = hint {
                put(&mut attrs, "WorkGroupSizeHint", dims(h));
            }
            if let Some(r) = reqd {
                put(&mut attrs, "ReqdWorkGroupSize", dims(r));
            }
            if let Some(v) = vec_type_hint.clone() {
                put(&mut attrs, "VecTypeHint", Str(v));
            }
            if let Some(r) = runtime_handle {
                put(&mut attrs, "RuntimeHandle", Str(r));
            }
            if !attrs.is_empty() {
                put(&mut m, "Attrs", Map(attrs));
            }
            if !md.args.is_empty() {
                let args = md
                    .args
                    .iter()
                    .map(|a| {
                        let mut am = Vec::new();
                        if !a.name.is_empty() {
                            put(&mut am, "Name", Str(a.name.clone()));
                        }
                        if !a.type_name.is_empty() {
                            put(&mut am, "TypeName", Str(a.type_name.clone()));
                        }
                        put(&mut am, "Size", UInt(a.size));
                        put(&mut am, "Align", UInt(a.align_or_offset));
                        put(
                            &mut am,
                            "ValueKind",
                            Str(a.kind.v2_name().unwrap_or("ByValue").to_string()),
                        );
                        put(
                            &mut am,
                            "ValueType",
                            Str(VALUE_TYPES[a.value_type].1.to_string()),
                        );
                        if a.kind == ValueKind::DynamicSharedPointer {
                            put(&mut am, "PointeeAlign", UInt(a.pointee_align));
                        }
                        if let Some(s) = a.address_space {
                            let mut c = s.chars();
                            let first = c.next().map(|c| c.to_ascii_uppercase()).unwrap_or('G');
                            put(
                                &mut am,
                                "AddrSpaceQual",
                                Str(format!("{first}{}", c.as_str())),
                            );
                        }
                        if matches!(a.kind, ValueKind::Image | ValueKind::Pipe) {
                            put(&mut am, "AccQual", Str(ACCESS[a.access].1.to_string()));
                        }
                        if matches!(
                            a.kind,
                            ValueKind::Image | ValueKind::Pipe | ValueKind::GlobalBuffer
                        ) {
                            put(
                                &mut am,
                                "ActualAccQual",
                                Str(ACCESS[a.actual_access].1.to_string()),
                            );
                        }
                        for (on, key) in [
                            (a.is_const, "IsConst"),
                            (a.is_restrict, "IsRestrict"),
                            (a.is_volatile, "IsVolatile"),
                            (a.is_pipe, "IsPipe"),
                        ] {
                            if on {
                                put(&mut am, key, Bool(true));
                            }
                        }
                        Map(am)
                    })
                    .collect();
                put(&mut m, "Args", Array(args));
            }
            let mut props = Vec::new();
            put(&mut props, "KernargSegmentSize", UInt(kernarg_size));
            put(&mut props, "GroupSegmentFixedSize", UInt(group));
            put(&mut props, "PrivateSegmentFixedSize", UInt(private));
            put(&mut props, "KernargSegmentAlign", UInt(kernarg_align));
            put(&mut props, "WavefrontSize", UInt(wavefront));
            put(&mut props, "NumSGPRs", UInt(sgprs));
            put(&mut props, "NumVGPRs", UInt(vgprs));
            // 0xfffffffe and 0xffffffff are clrxasm's "not given" marks.
            if let Some(s) = spilled_sgprs.filter(|&s| s < 0xffff_fffe) {
                put(&mut props, "NumSpilledSGPRs", UInt(s));
            }
            if let Some(s) = spilled_vgprs.filter(|&s| s < 0xffff_fffe) {
                put(&mut props, "NumSpilledVGPRs", UInt(s));
            }
            put(&mut props, "MaxFlatWorkGroupSize", UInt(max_flat));
            if let Some(f) = fixed {
                put(&mut props, "FixedWorkGroupSize", dims(f));
            }
            put(&mut m, "CodeProps", Map(props));
        } else {
            let args = md
                .args
                .iter()
                .map(|a| {
                    let mut am = Vec::new();
                    let image_or_pipe = matches!(a.kind, ValueKind::Image | ValueKind::Pipe);
                    if a.access != 0 && image_or_pipe {
                        put(&mut am, ".access", Str(ACCESS[a.access].2.to_string()));
                    }
                    if a.actual_access != 0 && (image_or_pipe || a.kind == ValueKind::GlobalBuffer)
                    {
                        put(
                            &mut am,
                            ".actual_access",
                            Str(ACCESS[a.actual_access].2.to_string()),
                        );
                    }
                    if let Some(s) = a.address_space {
                        put(&mut am, ".address_space", Str(s.to_string()));
                    }
                    for (on, key) in [
                        (a.is_const, ".is_const"),
                        (a.is_pipe, ".is_pipe"),
                        (a.is_restrict, ".is_restrict"),
                        (a.is_volatile, ".is_volatile"),
                    ] {
                        if on {
                            put(&mut am, key, Bool(true));
                        }
                    }
                    if !a.name.is_empty() {
                        put(&mut am, ".name", Str(a.name.clone()));
                    }
                    put(&mut am, ".offset", UInt(a.align_or_offset));
                    put(&mut am, ".size", UInt(a.size));
                    if a.pointee_align != 0 {
                        put(&mut am, ".pointee_align", UInt(a.pointee_align));
                    }
                    if !a.type_name.is_empty() {
                        put(&mut am, ".type_name", Str(a.type_name.clone()));
                    }
                    put(
                        &mut am,
                        ".value_kind",
                        Str(a.kind.v3_name().unwrap_or("by_value").to_string()),
                    );
                    put(
                        &mut am,
                        ".value_type",
                        Str(VALUE_TYPES[a.value_type].2.to_string()),
                    );
                    Map(am)
                })
                .collect();
            put(&mut m, ".args", Array(args));
            put(&mut m, ".group_segment_fixed_size", UInt(group));
            put(&mut m, ".kernarg_segment_align", UInt(kernarg_align));
            put(&mut m, ".kernarg_segment_size", UInt(kernarg_size));
            if let Some(l) = language {
                put(&mut m, ".language", Str(l));
            }
            if let Some((a, b)) = language_version {
                put(&mut m, ".language_version", Array(vec![UInt(a), UInt(b)]));
            }
            // clrxasm's "not supplied" marker when not given.
            put(
                &mut m,
                ".max_flat_workgroup_size",
                UInt(md.max_flat.unwrap_or(u64::MAX - 1)),
            );
            put(&mut m, ".name", Str(state.name.clone()));
            put(&mut m, ".private_segment_fixed_size", UInt(private));
            if let Some(r) = reqd {
                put(&mut m, ".reqd_workgroup_size", dims(r));
            }
            put(&mut m, ".sgpr_count", UInt(sgprs));
            // clrxasm writes its "not supplied" marker when not given.
            put(
                &mut m,
                ".sgpr_spill_count",
                UInt(spilled_sgprs.unwrap_or(0xffff_fffe)),
            );
            // clrxasm writes the symbol name as given, empty when not.
            put(
                &mut m,
                ".symbol",
                Str(md.symbol.clone().unwrap_or_default()),
            );
            if let Some(v) = vec_type_hint {
                put(&mut m, ".vec_type_hint", Str(v));
            }
            put(&mut m, ".vgpr_count", UInt(vgprs));
            put(
                &mut m,
                ".vgpr_spill_count",
                UInt(spilled_vgprs.unwrap_or(0xffff_fffe)),
            );
            put(&mut m, ".wavefront_size", UInt(wavefront));
            if let Some(h) = hint {
                put(&mut m, ".workgroup_size_hint", dims(h));
            }
        }
        Map(m)
    }

    /// The whole metadata tree.
    fn rocm_metadata(&self, kernels: Vec<MetaValue>, co_version: u8) -> MetaValue {
        use MetaValue::{Array, Map, Str, UInt};
        // Printf ids: given ones kept, the others numbered from 1 skipping them.
        let used: Vec<u64> = self.rocm.printf.iter().filter_map(|p| p.0).collect();
        let mut free = 1u64;
        let printf: Vec<MetaValue> = self
            .rocm
            .printf
            .iter()
            .map(|(id, sizes, fmt)| {
                let id = id.unwrap_or_else(|| {
                    while used.contains(&free) {
                        free += 1;
                    }
                    free += 1;
                    free - 1
                });
                let mut s = format!("{id}:{}:", sizes.len());
                for z in sizes {
                    s.push_str(&format!("{z}:"));
                }
                let format = if co_version == 2 {
                    MetadataFormat::Yaml
                } else {
                    MetadataFormat::MsgPack
                };
                s.push_str(&crate::rocm::clrx_printf_format(fmt, format));
                Str(s)
            })
            .collect();
        // (A v2 major version of 0xfffffffe or 0xffffffff is clrxasm's
        // "not given".)
        let given = self
            .rocm
            .md_version
            .filter(|&(major, _)| co_version > 2 || major < 0xffff_fffe);
        let (major, minor) = given.unwrap_or((
            1,
            if co_version > 2 {
                u64::from(co_version) - 3
            } else {
                0
            },
        ));
        let version = Array(vec![UInt(major), UInt(minor)]);
        let mut root = Vec::new();
        if co_version == 2 {
            root.push(("Version".to_string(), version));
            if !printf.is_empty() {
                root.push(("Printf".to_string(), Array(printf)));
            }
            if !kernels.is_empty() {
                root.push(("Kernels".to_string(), Array(kernels)));
            }
        } else {
            root.push(("amdhsa.kernels".to_string(), Array(kernels)));
            if !printf.is_empty() {
                root.push(("amdhsa.printf".to_string(), Array(printf)));
            }
            root.push(("amdhsa.version".to_string(), version));
        }
        Map(root)
    }
}

fn is_md_op(lower: &str) -> bool {
    matches!(
        lower,
        ".arg"
            | ".md_language"
            | ".cws"
            | ".reqd_work_group_size"
            | ".work_group_size_hint"
            | ".fixed_work_group_size"
            | ".max_flat_work_group_size"
            | ".vectypehint"
            | ".runtime_handle"
            | ".md_kernarg_segment_align"
            | ".md_kernarg_segment_size"
            | ".md_group_segment_fixed_size"
            | ".md_private_segment_fixed_size"
            | ".md_symname"
            | ".md_sgprsnum"
            | ".md_vgprsnum"
            | ".spilledsgprs"
            | ".spilledvgprs"
            | ".md_wavefront_size"
    )
}

fn is_config_op(lower: &str) -> bool {
    is_md_op(lower)
        || USE_FLAGS.iter().any(|(n, _)| *n == lower)
        || matches!(
            lower,
            ".tgsize"
                | ".debugmode"
                | ".dx10clamp"
                | ".ieeemode"
                | ".privmode"
                | ".default_hsa_features"
                | ".dims"
                | ".use_grid_workgroup_count"
                | ".codeversion"
                | ".machine"
                | ".reserved_vgprs"
                | ".reserved_sgprs"
                | ".debug_wavefront_private_segment_offset_sgpr"
                | ".debug_private_segment_buffer_sgpr"
                | ".kernel_code_entry_offset"
                | ".kernel_code_prefetch_offset"
                | ".kernel_code_prefetch_size"
                | ".max_scratch_backing_memory"
                | ".kernarg_segment_align"
                | ".group_segment_align"
                | ".private_segment_align"
                | ".wavefront_size"
                | ".private_elem_size"
                | ".call_convention"
                | ".floatmode"
                | ".priority"
                | ".exceptions"
                | ".userdatanum"
                | ".sgprsnum"
                | ".vgprsnum"
                | ".pgmrsrc1"
                | ".pgmrsrc2"
                | ".pgmrsrc3"
                | ".scratchbuffer"
                | ".private_segment_fixed_size"
                | ".workitem_private_segment_size"
                | ".localsize"
                | ".group_segment_fixed_size"
                | ".group_segment_fixes_size"
                | ".workgroup_group_segment_size"
                | ".gds_segment_size"
                | ".kernarg_segment_size"
                | ".workgroup_fbarrier_count"
                | ".wavefront_sgpr_count"
                | ".workitem_vgpr_count"
                | ".runtime_loader_kernel_symbol"
                | ".use_ordered_append_gds"
                | ".shared_vgprs"
                | ".amdhsa_kernarg_size"
                | ".amdhsa_uses_dynamic_stack"
        )
}

/// The bytes a value resolved after layout patches: the code object's copy
/// of a loaded section (`kind`), else the section's own bytes.
fn patch_target<'a>(
    kind: Option<RocmSection>,
    input: &'a mut RocmInput,
    own: &'a mut Vec<u8>,
) -> &'a mut Vec<u8> {
    match kind {
        Some(RocmSection::Text) => &mut input.text,
        Some(RocmSection::Rodata) => &mut input.rodata,
        Some(RocmSection::Data) => &mut input.data,
        _ => own,
    }
}
