//! [`RocmInput`] to code-object bytes, laid out exactly as clrxasm lays
//! out its ROCm binaries (CLRX's `ROCmBinGenerator` over its
//! `ElfBinaryGen64`), so that `gcnasm -b rocm` and `clrxasm -b rocm` write
//! the same bytes for the same source (apart from the `.comment` text).
//!
//! The regions, in file order:
//!
//! - the ELF header and the program headers;
//! - `.note` here in the new binary formats (`.newbinfmt`, and code object
//!   v3+, CLRX's `.llvm10binfmt`), loaded and in a `PT_NOTE`;
//! - `.rodata` (the global data) here in the v2 formats;
//! - `.dynsym`, `.hash`, `.dynstr`; `.rodata` here for v3+ (64-byte
//!   aligned: the kernel descriptors); `.rela.dyn` when there are dynamic
//!   relocations — all of it one read-only `PT_LOAD` from the file start;
//! - `.text` at the next page (read-execute `PT_LOAD`);
//! - `.dynamic` and `.got` at the page after (read-write `PT_LOAD`,
//!   `PT_DYNAMIC`, `PT_GNU_RELRO`);
//! - `.data` and `.bss` at the next page in a read-write `PT_LOAD` of their
//!   own (gcnasm's extension: clrxasm has no writable data);
//! - the unloaded sections: `.note` and the empty `.AMDGPU.config` in the
//!   old v2 format (clrxdisasm tells the formats apart by the latter),
//!   `.comment`, `.symtab`, `.shstrtab`, `.strtab`, the section headers,
//!   then the user's extra sections.
//!
//! Addresses equal file offsets ([`layout`]). String tables are not
//! deduplicated and the `.hash` bucket count is CLRX's optimised one: the
//! `object` crate's ELF writer lays out neither as clrxasm does, hence the
//! hand-written writer.

use object::elf;

use super::descriptor::{KernelDescriptor, KERNEL_DESCRIPTOR_SIZE};
use super::{RelocKind, RocmError, ELFOSABI_AMDGPU_HSA, EM_AMDGPU, STT_AMDGPU_HSA_KERNEL};

/// What a code object is made of, as the assembler hands it over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RocmInput {
    /// 2 (`amd_kernel_code_t` headers in `.text`, AMD notes) or 3..=5
    /// (descriptors in `.rodata`, a MessagePack note).
    pub code_object_version: u8,
    /// The ELF header `e_flags`.
    pub e_flags: u32,
    /// ISA major, minor, stepping (the v2 `NT_AMD_HSA_ISA_VERSION` note).
    pub isa_version: (u32, u32, u32),
    /// The v2 `NT_AMD_HSA_ISA_NAME` note (`amdgcn-amd-amdhsa--gfx900`).
    pub isa_name: Option<String>,
    /// The encoded metadata note: YAML for v2, MessagePack for v3+ (but
    /// see [`Self::yaml_metadata`]).
    pub metadata: Option<Vec<u8>>,
    /// Code object v3+: the metadata is YAML with v2's keys, in an `AMD`
    /// note of type 10 (clrxasm's `.llvm10binfmt` without `.metadatav3`).
    pub yaml_metadata: bool,
    /// The code (v2: with each kernel's `amd_kernel_code_t` in place).
    pub text: Vec<u8>,
    /// The global data (v3+: with room for the descriptors); empty for none.
    pub rodata: Vec<u8>,
    /// Write an empty `.rodata` section too (clrxasm does for a source's
    /// `.globaldata` that holds nothing).
    pub empty_rodata: bool,
    /// The kernels.
    pub kernels: Vec<RocmInputKernel>,
    /// The writable data (`.data`); empty for none.
    pub data: Vec<u8>,
    /// The size of the zero-initialised data (`.bss`, `SHT_NOBITS`, after
    /// `.data` in its segment); 0 for none.
    pub bss: u64,
    /// Global symbols other than the kernels (`.dynsym` and `.symtab`).
    pub symbols: Vec<RocmInputSymbol>,
    /// CLRX's GOT (`.gotsym`): one 8-byte `.got` entry per name, filled by
    /// the loader with the address of that dynamic symbol (a kernel or one
    /// of [`Self::symbols`]) through an `R_AMDGPU_ABS64` relocation.
    pub got: Vec<String>,
    /// The other dynamic relocations: 64-bit addresses of places in the
    /// code object (`R_AMDGPU_RELATIVE64`).
    pub relocations: Vec<RocmInputReloc>,
    /// For code object v2: CLRX's new binary format (`.newbinfmt`: the
    /// notes loaded first, the ELF entry at `.text`, no `.AMDGPU.config`).
    /// Code object v3+ always has it.
    pub new_format: bool,
    /// The `.comment` text (clrxasm: `CLRX ROCmBinGenerator VERSION`, or
    /// the source's own `.comment` section).
    pub comment: Vec<u8>,
    /// Unloaded sections of the source's own (`.section NAME`), after the
    /// section headers as clrxasm places them.
    pub extra_sections: Vec<RocmExtraSection>,
}

/// An unloaded section of a [`RocmInput`] that the source defined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RocmExtraSection {
    /// The section name.
    pub name: String,
    /// Its bytes (none in the file for `SHT_NOBITS`).
    pub data: Vec<u8>,
    /// `sh_type`: `SHT_PROGBITS`, `SHT_NOTE` or `SHT_NOBITS`.
    pub sh_type: u32,
    /// `sh_flags`.
    pub flags: u64,
    /// `sh_addralign` (at least 1).
    pub align: u64,
}

/// A loaded section of a [`RocmInput`], for symbols and relocations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RocmSection {
    /// `.text`.
    Text,
    /// `.rodata` (CLRX's global data).
    Rodata,
    /// `.data`.
    Data,
    /// `.got`.
    Got,
    /// `.bss`.
    Bss,
}

impl RocmSection {
    /// The ELF section name.
    pub fn name(self) -> &'static str {
        match self {
            RocmSection::Text => ".text",
            RocmSection::Rodata => ".rodata",
            RocmSection::Data => ".data",
            RocmSection::Got => ".got",
            RocmSection::Bss => ".bss",
        }
    }
}

/// A global symbol of a [`RocmInput`] that is not a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RocmInputSymbol {
    /// Its name.
    pub name: String,
    /// The section it is in; `None`: absolute (`SHN_ABS`).
    pub section: Option<RocmSection>,
    /// Its offset in that section, or its value when absolute.
    pub offset: u64,
    /// `st_size`.
    pub size: u64,
    /// `STT_OBJECT`, `STT_FUNC`, `STT_NOTYPE` ...
    pub st_type: u8,
    /// `st_other` (the visibility).
    pub st_other: u8,
}

/// An `R_AMDGPU_RELATIVE64` relocation of a [`RocmInput`]: the loader
/// writes the load address of `target` (+ `addend`) at `at`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RocmInputReloc {
    /// The section and offset of the 8 bytes it writes.
    pub at: (RocmSection, u64),
    /// The section whose address it adds `addend` to.
    pub target: RocmSection,
    /// The offset in `target`.
    pub addend: i64,
}

/// Where [`write()`] puts the loaded sections of a [`RocmInput`]: their
/// virtual addresses (equal to their file offsets).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RocmLayout {
    /// `.text`.
    pub text: u64,
    /// `.rodata` (0 when there is none).
    pub rodata: u64,
    /// `.data` (0 when there is none).
    pub data: u64,
    /// `.got` (0 when there is none).
    pub got: u64,
    /// `.bss` (0 when there is none).
    pub bss: u64,
}

impl RocmLayout {
    /// The address of `section`.
    pub fn address(&self, section: RocmSection) -> u64 {
        match section {
            RocmSection::Text => self.text,
            RocmSection::Rodata => self.rodata,
            RocmSection::Data => self.data,
            RocmSection::Got => self.got,
            RocmSection::Bss => self.bss,
        }
    }
}

/// One kernel of a [`RocmInput`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RocmInputKernel {
    /// The kernel symbol.
    pub name: String,
    /// The symbol's offset in `.text`: v2 its `amd_kernel_code_t`, v3+ its
    /// first instruction.
    pub text_offset: u64,
    /// v3+: where in `.rodata` its descriptor goes, and the descriptor
    /// (whose entry offset the writer sets from the layout).
    pub descriptor: Option<(u64, KernelDescriptor)>,
    /// `.fkernel`: its symbol is a function (`STT_FUNC`, default
    /// visibility), and a v3+ one has no `NAME.kd` symbol.
    pub function: bool,
}

const PAGE: u64 = 0x1000;
const EHDR_SIZE: u64 = 64;
const PHDR_SIZE: u64 = 56;
const SHDR_SIZE: u64 = 64;
const SYM_SIZE: u64 = 24;
const RELA_SIZE: u64 = 24;
const DYN_SIZE: u64 = 16;

fn note(out: &mut Vec<u8>, owner: &[u8], n_type: u32, desc: &[u8]) {
    put32(out, owner.len() as u32 + 1);
    put32(out, desc.len() as u32);
    put32(out, n_type);
    out.extend_from_slice(owner);
    out.push(0);
    out.resize(out.len().next_multiple_of(4), 0);
    out.extend_from_slice(desc);
    out.resize(out.len().next_multiple_of(4), 0);
}

/// The notes of `input`, encoded.
fn notes(input: &RocmInput) -> Result<Vec<u8>, RocmError> {
    let mut out = Vec::new();
    if let Some(m) = &input.metadata {
        if u32::try_from(m.len()).is_err() {
            return Err(RocmError::new("the metadata", "it is larger than 4 GiB"));
        }
    }
    if input.code_object_version == 2 {
        let mut v = Vec::new();
        put32(&mut v, 2);
        put32(&mut v, 1);
        note(&mut out, b"AMD", 1, &v);
        let (major, minor, stepping) = input.isa_version;
        let mut isa = Vec::new();
        isa.extend_from_slice(&4u16.to_le_bytes());
        isa.extend_from_slice(&7u16.to_le_bytes());
        for x in [major, minor, stepping] {
            put32(&mut isa, x);
        }
        isa.extend_from_slice(b"AMD\0AMDGPU\0");
        note(&mut out, b"AMD", 3, &isa);
        if let Some(name) = input.isa_name.as_ref().filter(|n| !n.is_empty()) {
            note(&mut out, b"AMD", 11, name.as_bytes());
        }
        if let Some(m) = input.metadata.as_ref().filter(|m| !m.is_empty()) {
            note(&mut out, b"AMD", 10, m);
        }
    } else if let Some(m) = input.metadata.as_ref().filter(|m| !m.is_empty()) {
        if input.yaml_metadata {
            note(&mut out, b"AMD", 10, m);
        } else {
            note(&mut out, b"AMDGPU", 32, m);
        }
    }
    Ok(out)
}

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// Writes `input` as a code object. Errors: a version other than 2..=5, a
/// kernel outside `.text`, a descriptor outside `.rodata`, two kernels of
/// one name, a symbol or relocation outside its section, a GOT entry for a
/// name that is no dynamic symbol.
pub fn write(input: &RocmInput) -> Result<Vec<u8>, RocmError> {
    check(input)?;
    Plan::new(input)?.bytes()
}

/// Where [`write()`] puts the sections of `input` (what section differences
/// and relocations resolve against); the same checks as [`write()`].
pub fn layout(input: &RocmInput) -> Result<RocmLayout, RocmError> {
    check(input)?;
    Ok(Plan::new(input)?.layout())
}

fn section_len(input: &RocmInput, section: RocmSection) -> u64 {
    match section {
        RocmSection::Text => input.text.len() as u64,
        RocmSection::Rodata => input.rodata.len() as u64,
        RocmSection::Data => input.data.len() as u64,
        RocmSection::Got => 8 * input.got.len() as u64,
        RocmSection::Bss => input.bss,
    }
}

fn check(input: &RocmInput) -> Result<(), RocmError> {
    let v = input.code_object_version;
    if !(2..=5).contains(&v) {
        return Err(RocmError::new(
            "the code object",
            format!("version {v} is not 2..=5"),
        ));
    }
    for (i, k) in input.kernels.iter().enumerate() {
        let at = format!("kernel `{}`", k.name);
        if input.kernels[..i].iter().any(|o| o.name == k.name) {
            return Err(RocmError::new(at, "two kernels have this name"));
        }
        if k.text_offset > input.text.len() as u64 {
            return Err(RocmError::new(at, "its symbol lies past the end of .text"));
        }
        let fits = |off: u64| matches!(off.checked_add(KERNEL_DESCRIPTOR_SIZE as u64), Some(end) if end <= input.rodata.len() as u64);
        match (&k.descriptor, v) {
            (None, 3..) => return Err(RocmError::new(at, "a v3+ kernel needs a descriptor")),
            (Some((off, _)), _) if !fits(*off) => {
                return Err(RocmError::new(
                    at,
                    format!(
                        "its descriptor at {off:#x} does not fit in .rodata ({} bytes)",
                        input.rodata.len()
                    ),
                ))
            }
            _ => {}
        }
    }
    for (i, s) in input.symbols.iter().enumerate() {
        let at = format!("symbol `{}`", s.name);
        let taken = input.kernels.iter().any(|k| {
            k.name == s.name || (v >= 3 && !k.function && format!("{}.kd", k.name) == s.name)
        }) || input.symbols[..i].iter().any(|o| o.name == s.name);
        if taken {
            return Err(RocmError::new(at, "two symbols have this name"));
        }
        if let Some(section) = s.section.filter(|&sec| s.offset > section_len(input, sec)) {
            return Err(RocmError::new(
                at,
                format!("it lies past the end of {}", section.name()),
            ));
        }
    }
    for name in &input.got {
        let known = input.kernels.iter().any(|k| &k.name == name)
            || input.symbols.iter().any(|s| &s.name == name);
        if !known {
            return Err(RocmError::new(
                format!("GOT entry `{name}`"),
                "no kernel or global symbol has this name",
            ));
        }
    }
    for r in &input.relocations {
        let (section, off) = r.at;
        if off
            .checked_add(8)
            .is_none_or(|end| end > section_len(input, section))
        {
            return Err(RocmError::new(
                format!("the relocation at {}+{off:#x}", section.name()),
                format!("its 8 bytes are not inside {}", section.name()),
            ));
        }
    }
    for s in &input.extra_sections {
        let builtin = [
            ".note",
            ".rodata",
            ".dynsym",
            ".hash",
            ".dynstr",
            ".rela.dyn",
            ".text",
            ".dynamic",
            ".got",
            ".data",
            ".bss",
            ".AMDGPU.config",
            ".comment",
            ".symtab",
            ".shstrtab",
            ".strtab",
        ];
        if builtin.contains(&s.name.as_str()) || s.name.is_empty() || s.name.contains('\0') {
            return Err(RocmError::new(
                format!("section `{}`", s.name),
                "an extra section needs a name of its own",
            ));
        }
    }
    Ok(())
}

/// One section of the code object (what a region of the file holds when
/// it is not a header table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Note,
    Rodata,
    DynSym,
    Hash,
    DynStr,
    RelaDyn,
    Text,
    Dynamic,
    Got,
    Data,
    Bss,
    AmdgpuConfig,
    Comment,
    SymTab,
    ShStrTab,
    StrTab,
    Extra(usize),
}

/// A region of the file, in file order (CLRX's `ElfRegion64`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Region {
    ProgramHeaders,
    Section(Part),
    SectionHeaders,
}

/// A symbol of `.dynsym` / `.symtab`.
struct Symbol {
    name: String,
    /// The section it is in; `None`: absolute.
    part: Option<Part>,
    /// Its offset in that section, or its value when absolute.
    value: u64,
    size: u64,
    info: u8,
    other: u8,
}

/// The name of `.symtab`'s one local symbol, at `.dynamic`.
const DYNAMIC: &str = "_DYNAMIC";

/// `.symtab`'s first symbol (after the null one): `_DYNAMIC`, local and
/// hidden, as clrxasm writes it.
fn dynamic_symbol() -> Symbol {
    Symbol {
        name: DYNAMIC.into(),
        part: Some(Part::Dynamic),
        value: 0,
        size: 0,
        info: elf::STT_NOTYPE,
        other: elf::STV_HIDDEN,
    }
}

/// A program header: type, flags, first region (`None`: the file start),
/// region count, alignment (`None`: the first region's) — CLRX's
/// `ElfProgramHeader64`.
type Segment = (u32, u32, Option<usize>, usize, Option<u64>);

/// The whole layout of a code object: its regions with their file offsets
/// and sizes, and what the generated sections hold.
struct Plan<'a> {
    input: &'a RocmInput,
    regions: Vec<Region>,
    offsets: Vec<u64>,
    /// The size of each region (`.bss`: its size in memory; it has no
    /// bytes in the file).
    sizes: Vec<u64>,
    notes: Vec<u8>,
    /// `.dynsym` without its null symbol (`.symtab` is `_DYNAMIC`, then
    /// these).
    dynsyms: Vec<Symbol>,
    /// The ELF hash of each of `dynsyms`' names.
    hashes: Vec<u32>,
    hash_buckets: u32,
    segments: Vec<Segment>,
    total: u64,
}

impl Part {
    fn name(self, input: &RocmInput) -> &str {
        match self {
            Part::Note => ".note",
            Part::Rodata => ".rodata",
            Part::DynSym => ".dynsym",
            Part::Hash => ".hash",
            Part::DynStr => ".dynstr",
            Part::RelaDyn => ".rela.dyn",
            Part::Text => ".text",
            Part::Dynamic => ".dynamic",
            Part::Got => ".got",
            Part::Data => ".data",
            Part::Bss => ".bss",
            Part::AmdgpuConfig => ".AMDGPU.config",
            Part::Comment => ".comment",
            Part::SymTab => ".symtab",
            Part::ShStrTab => ".shstrtab",
            Part::StrTab => ".strtab",
            Part::Extra(i) => &input.extra_sections[i].name,
        }
    }

    /// `sh_type`, `sh_flags`, `sh_addralign`, `sh_entsize`.
    fn header(self, input: &RocmInput) -> (u32, u64, u64, u64) {
        let alloc = u64::from(elf::SHF_ALLOC);
        let write = u64::from(elf::SHF_WRITE);
        match self {
            Part::Note => (elf::SHT_NOTE, 0, 4, 0),
            Part::Rodata => (elf::SHT_PROGBITS, alloc, self.align(input), 0),
            Part::DynSym => (elf::SHT_DYNSYM, alloc, 8, SYM_SIZE),
            Part::Hash => (elf::SHT_HASH, alloc, 4, 0),
            Part::DynStr => (elf::SHT_STRTAB, alloc, 1, 0),
            Part::RelaDyn => (elf::SHT_RELA, alloc, 8, RELA_SIZE),
            Part::Text => (
                elf::SHT_PROGBITS,
                alloc | u64::from(elf::SHF_EXECINSTR),
                256,
                0,
            ),
            Part::Dynamic => (elf::SHT_DYNAMIC, alloc | write, 8, DYN_SIZE),
            Part::Got | Part::Data => (elf::SHT_PROGBITS, alloc | write, 8, 0),
            Part::Bss => (elf::SHT_NOBITS, alloc | write, 8, 0),
            Part::AmdgpuConfig => (elf::SHT_PROGBITS, 0, 1, 0),
            Part::Comment => (
                elf::SHT_PROGBITS,
                u64::from(elf::SHF_MERGE | elf::SHF_STRINGS),
                1,
                1,
            ),
            Part::SymTab => (elf::SHT_SYMTAB, 0, 8, SYM_SIZE),
            Part::ShStrTab | Part::StrTab => (elf::SHT_STRTAB, 0, 1, 0),
            Part::Extra(i) => {
                let s = &input.extra_sections[i];
                (s.sh_type, s.flags, s.align.max(1), 0)
            }
        }
    }

    /// The alignment of the section's place in the file: a loaded
    /// segment's first section starts a page.
    fn align(self, input: &RocmInput) -> u64 {
        match self {
            Part::Text | Part::Dynamic | Part::Data => PAGE,
            Part::Bss if input.data.is_empty() => PAGE,
            Part::Rodata if input.code_object_version >= 3 => 64,
            Part::Rodata => 4,
            _ => self.header(input).2,
        }
    }

    /// Whether `sh_addr` is the section's address (its file offset) rather
    /// than 0: the loaded sections except the notes, which clrxasm gives
    /// no address even where a segment loads them.
    fn has_address(self) -> bool {
        matches!(
            self,
            Part::Rodata
                | Part::DynSym
                | Part::Hash
                | Part::DynStr
                | Part::RelaDyn
                | Part::Text
                | Part::Dynamic
                | Part::Got
                | Part::Data
                | Part::Bss
        )
    }
}

impl From<RocmSection> for Part {
    fn from(s: RocmSection) -> Part {
        match s {
            RocmSection::Text => Part::Text,
            RocmSection::Rodata => Part::Rodata,
            RocmSection::Data => Part::Data,
            RocmSection::Got => Part::Got,
            RocmSection::Bss => Part::Bss,
        }
    }
}

/// CLRX's bucket count for a hash table of the symbols with the hash
/// `codes` (and the null symbol, not hashed): of the counts from a quarter
/// to twice the symbols, in at most 4000 steps, the first with the least
/// count plus sum of squared chain lengths.
fn hash_bucket_count(codes: &[u32]) -> u32 {
    let n = codes.len() as u64 + 1;
    let first = (n >> 2).max(1);
    let max_steps = (n << 1) - first + 1;
    let steps = max_steps.min(4000);
    let step = max_steps / steps;
    let mut best = (u64::MAX, 0u64);
    let mut chains = vec![0u64; (2 * n + 1) as usize];
    let mut buckets = first;
    while buckets <= n << 1 {
        chains[..buckets as usize].fill(0);
        for &c in codes {
            chains[(u64::from(c) % buckets) as usize] += 1;
        }
        let value = buckets
            + chains[..buckets as usize]
                .iter()
                .map(|l| l * l)
                .sum::<u64>();
        if value < best.0 {
            best = (value, buckets);
        }
        buckets += step;
    }
    best.1 as u32
}

impl<'a> Plan<'a> {
    fn new(input: &'a RocmInput) -> Result<Self, RocmError> {
        let v = input.code_object_version;
        let new_format = input.new_format || v >= 3;
        let has_rodata = !input.rodata.is_empty() || input.empty_rodata;
        let has_rela = !input.got.is_empty() || !input.relocations.is_empty();
        let mut regions = vec![Region::ProgramHeaders];
        let mut add = |p: Part| regions.push(Region::Section(p));
        if new_format {
            add(Part::Note);
        }
        if has_rodata && v == 2 {
            add(Part::Rodata);
        }
        add(Part::DynSym);
        add(Part::Hash);
        add(Part::DynStr);
        if has_rodata && v >= 3 {
            add(Part::Rodata);
        }
        if has_rela {
            add(Part::RelaDyn);
        }
        add(Part::Text);
        add(Part::Dynamic);
        if !input.got.is_empty() {
            add(Part::Got);
        }
        if !input.data.is_empty() {
            add(Part::Data);
        }
        if input.bss != 0 {
            add(Part::Bss);
        }
        if !new_format {
            add(Part::Note);
            add(Part::AmdgpuConfig);
        }
        add(Part::Comment);
        add(Part::SymTab);
        add(Part::ShStrTab);
        add(Part::StrTab);
        regions.push(Region::SectionHeaders);
        for i in 0..input.extra_sections.len() {
            regions.push(Region::Section(Part::Extra(i)));
        }

        // The dynamic symbols: clrxasm's global symbols in .text first,
        // then the kernels (v3+: each with its descriptor), then the
        // other global symbols.
        let mut dynsyms = Vec::new();
        let global = |t: u8| (elf::STB_GLOBAL << 4) | (t & 0xf);
        let other = |s: &RocmInputSymbol| Symbol {
            name: s.name.clone(),
            part: s.section.map(Part::from),
            value: s.offset,
            size: s.size,
            info: global(s.st_type),
            other: s.st_other,
        };
        let in_text = |s: &&RocmInputSymbol| s.section == Some(RocmSection::Text);
        dynsyms.extend(input.symbols.iter().filter(in_text).map(other));
        let (kernel_type, kernel_visibility) = if v == 2 {
            (STT_AMDGPU_HSA_KERNEL, elf::STV_DEFAULT)
        } else {
            (elf::STT_FUNC, elf::STV_PROTECTED)
        };
        for k in &input.kernels {
            dynsyms.push(Symbol {
                name: k.name.clone(),
                part: Some(Part::Text),
                value: k.text_offset,
                size: 0,
                info: global(if k.function {
                    elf::STT_FUNC
                } else {
                    kernel_type
                }),
                other: if k.function {
                    elf::STV_DEFAULT
                } else {
                    kernel_visibility
                },
            });
            if let Some((off, _)) = k.descriptor.as_ref().filter(|_| v >= 3 && !k.function) {
                dynsyms.push(Symbol {
                    name: format!("{}.kd", k.name),
                    part: Some(Part::Rodata),
                    value: *off,
                    size: 0,
                    info: global(elf::STT_OBJECT),
                    other: kernel_visibility,
                });
            }
        }
        dynsyms.extend(
            input
                .symbols
                .iter()
                .filter(|s| s.section != Some(RocmSection::Text))
                .map(other),
        );
        let hashes: Vec<u32> = dynsyms
            .iter()
            .map(|s| elf::hash(s.name.as_bytes()))
            .collect();
        let hash_buckets = hash_bucket_count(&hashes);

        let mut plan = Plan {
            input,
            regions,
            offsets: Vec::new(),
            sizes: Vec::new(),
            notes: notes(input)?,
            dynsyms,
            hashes,
            hash_buckets,
            segments: Vec::new(),
            total: 0,
        };
        let text = plan.region_of(Part::Text).unwrap_or(0);
        let mut segments = vec![
            (elf::PT_PHDR, elf::PF_R, Some(0), 1, None),
            (elf::PT_LOAD, elf::PF_R, None, text, Some(PAGE)),
            (elf::PT_LOAD, elf::PF_R | elf::PF_X, Some(text), 1, None),
        ];
        let rw = 1 + usize::from(!input.got.is_empty());
        segments.push((
            elf::PT_LOAD,
            elf::PF_R | elf::PF_W,
            Some(text + 1),
            rw,
            None,
        ));
        let data_parts = usize::from(!input.data.is_empty()) + usize::from(input.bss != 0);
        if data_parts > 0 {
            let first = text + 1 + rw;
            segments.push((
                elf::PT_LOAD,
                elf::PF_R | elf::PF_W,
                Some(first),
                data_parts,
                None,
            ));
        }
        segments.push((
            elf::PT_DYNAMIC,
            elf::PF_R | elf::PF_W,
            Some(text + 1),
            1,
            Some(8),
        ));
        segments.push((elf::PT_GNU_RELRO, elf::PF_R, Some(text + 1), rw, Some(1)));
        segments.push((elf::PT_GNU_STACK, elf::PF_R | elf::PF_W, None, 0, Some(0)));
        if new_format {
            segments.push((elf::PT_NOTE, elf::PF_R, Some(1), 1, Some(4)));
        }
        plan.segments = segments;

        // Offsets: each region at its alignment after the one before.
        let mut at = EHDR_SIZE;
        for i in 0..plan.regions.len() {
            let region = plan.regions[i];
            let align = match region {
                Region::ProgramHeaders | Region::SectionHeaders => 8,
                Region::Section(p) => p.align(input),
            };
            at = at.next_multiple_of(align);
            let size = plan.size_of(region);
            plan.offsets.push(at);
            plan.sizes.push(size);
            if !plan.is_nobits(region) {
                at = at
                    .checked_add(size)
                    .ok_or_else(|| RocmError::new("the code object", "it is too large"))?;
            }
        }
        plan.total = at;
        Ok(plan)
    }

    /// Whether `region` is an `SHT_NOBITS` section (no bytes in the file).
    fn is_nobits(&self, region: Region) -> bool {
        match region {
            Region::Section(p) => p.header(self.input).0 == elf::SHT_NOBITS,
            _ => false,
        }
    }

    fn section_count(&self) -> usize {
        1 + self
            .regions
            .iter()
            .filter(|r| matches!(r, Region::Section(_)))
            .count()
    }

    /// The size of a region, from the input alone.
    fn size_of(&self, region: Region) -> u64 {
        let input = self.input;
        let names = |syms: &[Symbol]| -> u64 {
            1 + syms
                .iter()
                .filter(|s| !s.name.is_empty())
                .map(|s| s.name.len() as u64 + 1)
                .sum::<u64>()
        };
        let part = match region {
            Region::ProgramHeaders => return self.segments.len() as u64 * PHDR_SIZE,
            Region::SectionHeaders => return self.section_count() as u64 * SHDR_SIZE,
            Region::Section(p) => p,
        };
        match part {
            Part::Note => self.notes.len() as u64,
            Part::Rodata => input.rodata.len() as u64,
            Part::DynSym => (self.dynsyms.len() as u64 + 1) * SYM_SIZE,
            Part::Hash => 4 * (2 + u64::from(self.hash_buckets) + self.dynsyms.len() as u64 + 1),
            Part::DynStr => names(&self.dynsyms),
            Part::RelaDyn => (input.got.len() + input.relocations.len()) as u64 * RELA_SIZE,
            Part::Text => input.text.len() as u64,
            Part::Dynamic => self.dynamic_count() * DYN_SIZE,
            Part::Got => 8 * input.got.len() as u64,
            Part::Data => input.data.len() as u64,
            Part::Bss => input.bss,
            Part::AmdgpuConfig => 0,
            Part::Comment => input.comment.len() as u64,
            Part::SymTab => (self.dynsyms.len() as u64 + 2) * SYM_SIZE,
            Part::ShStrTab => {
                1 + self
                    .regions
                    .iter()
                    .filter_map(|r| match r {
                        Region::Section(p) => Some(p.name(input).len() as u64 + 1),
                        _ => None,
                    })
                    .sum::<u64>()
            }
            Part::StrTab => names(&self.dynsyms) + DYNAMIC.len() as u64 + 1,
            Part::Extra(i) => {
                let s = &input.extra_sections[i];
                s.data.len() as u64
            }
        }
    }

    fn region_of(&self, part: Part) -> Option<usize> {
        self.regions
            .iter()
            .position(|&r| r == Region::Section(part))
    }

    /// The file offset (and address) of a section; 0 when absent.
    fn offset_of(&self, part: Part) -> u64 {
        self.region_of(part).map_or(0, |i| self.offsets[i])
    }

    /// The ELF section index of a section.
    fn section_index(&self, part: Part) -> u16 {
        let i = self.region_of(part).unwrap_or(0);
        (1 + self.regions[..i]
            .iter()
            .filter(|r| matches!(r, Region::Section(_)))
            .count()) as u16
    }

    fn layout(&self) -> RocmLayout {
        RocmLayout {
            text: self.offset_of(Part::Text),
            rodata: self.offset_of(Part::Rodata),
            data: self.offset_of(Part::Data),
            got: self.offset_of(Part::Got),
            bss: self.offset_of(Part::Bss),
        }
    }

    /// Whether `.dynamic` has the relocation table's entries: for gcnasm's
    /// own `R_AMDGPU_RELATIVE64` relocations (a GOT alone has none, as in
    /// clrxasm).
    fn has_rela_tags(&self) -> bool {
        !self.input.relocations.is_empty()
    }

    /// The number of `.dynamic` entries, `DT_NULL` included.
    fn dynamic_count(&self) -> u64 {
        6 + 3 * u64::from(self.has_rela_tags())
    }

    /// `.dynamic`'s entries, `DT_NULL` last: clrxasm's five, and the
    /// relocation table's ([`Self::has_rela_tags`]).
    fn dynamic_tags(&self) -> Vec<(u32, u64)> {
        let size = |p: Part| self.region_of(p).map_or(0, |i| self.sizes[i]);
        let mut tags = vec![
            (elf::DT_SYMTAB, self.offset_of(Part::DynSym)),
            (elf::DT_SYMENT, SYM_SIZE),
            (elf::DT_STRTAB, self.offset_of(Part::DynStr)),
            (elf::DT_STRSZ, size(Part::DynStr)),
            (elf::DT_HASH, self.offset_of(Part::Hash)),
        ];
        if self.has_rela_tags() {
            tags.push((elf::DT_RELA, self.offset_of(Part::RelaDyn)));
            tags.push((elf::DT_RELASZ, size(Part::RelaDyn)));
            tags.push((elf::DT_RELAENT, RELA_SIZE));
        }
        tags.push((elf::DT_NULL, 0));
        tags
    }

    fn symbol_table<'s>(&self, syms: impl Iterator<Item = &'s Symbol>) -> Vec<u8> {
        let mut out = vec![0u8; SYM_SIZE as usize];
        let mut name = 1u32;
        for s in syms {
            put32(&mut out, if s.name.is_empty() { 0 } else { name });
            out.push(s.info);
            out.push(s.other);
            match s.part {
                Some(p) => {
                    put16(&mut out, self.section_index(p));
                    put64(&mut out, self.offset_of(p) + s.value);
                }
                None => {
                    put16(&mut out, elf::SHN_ABS);
                    put64(&mut out, s.value);
                }
            }
            put64(&mut out, s.size);
            if !s.name.is_empty() {
                name += s.name.len() as u32 + 1;
            }
        }
        out
    }

    fn string_table<'s>(names: impl Iterator<Item = &'s str>) -> Vec<u8> {
        let mut out = vec![0u8];
        for n in names.filter(|n| !n.is_empty()) {
            out.extend_from_slice(n.as_bytes());
            out.push(0);
        }
        out
    }

    fn hash_table(&self) -> Vec<u8> {
        let buckets = self.hash_buckets;
        let count = self.dynsyms.len() as u32 + 1;
        let mut table = vec![0u32; (2 + buckets + count) as usize];
        table[0] = buckets;
        table[1] = count;
        let mut last = vec![None::<u32>; buckets as usize];
        for (i, &h) in self.hashes.iter().enumerate() {
            let i = i as u32 + 1;
            let b = (h % buckets) as usize;
            match last[b] {
                None => table[2 + b] = i,
                Some(prev) => table[(2 + buckets + prev) as usize] = i,
            }
            last[b] = Some(i);
        }
        table.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    fn rela_table(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let got = self.offset_of(Part::Got);
        for (i, name) in self.input.got.iter().enumerate() {
            let sym = self
                .dynsyms
                .iter()
                .position(|s| &s.name == name)
                .map_or(0, |p| p as u64 + 1);
            put64(&mut out, got + 8 * i as u64);
            put64(
                &mut out,
                (sym << 32) | u64::from(RelocKind::Abs64.elf_type()),
            );
            put64(&mut out, 0);
        }
        for r in &self.input.relocations {
            put64(&mut out, self.offset_of(r.at.0.into()) + r.at.1);
            put64(&mut out, u64::from(RelocKind::Relative64.elf_type()));
            let addend = (self.offset_of(r.target.into()) as i64).wrapping_add(r.addend);
            put64(&mut out, addend as u64);
        }
        out
    }

    /// `.rodata` with the kernel descriptors in place, their entry offsets
    /// from the layout.
    fn rodata(&self) -> Vec<u8> {
        let mut rodata = self.input.rodata.clone();
        let text = self.offset_of(Part::Text);
        let base = self.offset_of(Part::Rodata);
        for k in &self.input.kernels {
            if let Some((off, d)) = &k.descriptor {
                let mut d = *d;
                let entry = text + k.text_offset;
                d.kernel_code_entry_byte_offset = entry as i64 - (base + off) as i64;
                let at = *off as usize;
                rodata[at..at + KERNEL_DESCRIPTOR_SIZE].copy_from_slice(&d.to_bytes());
            }
        }
        rodata
    }

    fn content(&self, part: Part) -> Vec<u8> {
        let input = self.input;
        match part {
            Part::Note => self.notes.clone(),
            Part::Rodata => self.rodata(),
            Part::DynSym => self.symbol_table(self.dynsyms.iter()),
            Part::Hash => self.hash_table(),
            Part::DynStr => Self::string_table(self.dynsyms.iter().map(|s| s.name.as_str())),
            Part::RelaDyn => self.rela_table(),
            Part::Text => input.text.clone(),
            Part::Dynamic => {
                let mut out = Vec::new();
                for (tag, value) in self.dynamic_tags() {
                    put64(&mut out, u64::from(tag));
                    put64(&mut out, value);
                }
                out
            }
            Part::Got => vec![0; 8 * input.got.len()],
            Part::Data => input.data.clone(),
            Part::Bss | Part::AmdgpuConfig => Vec::new(),
            Part::Comment => input.comment.clone(),
            Part::SymTab => {
                let dynamic = dynamic_symbol();
                self.symbol_table(std::iter::once(&dynamic).chain(&self.dynsyms))
            }
            Part::ShStrTab => Self::string_table(self.regions.iter().filter_map(|r| match r {
                Region::Section(p) => Some(p.name(input)),
                _ => None,
            })),
            Part::StrTab => Self::string_table(
                std::iter::once(DYNAMIC).chain(self.dynsyms.iter().map(|s| s.name.as_str())),
            ),
            Part::Extra(i) => {
                let s = &input.extra_sections[i];
                if s.sh_type == elf::SHT_NOBITS {
                    Vec::new()
                } else {
                    s.data.clone()
                }
            }
        }
    }

    fn program_headers(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for &(p_type, p_flags, first, count, align) in &self.segments {
            let (offset, first_align) = match first {
                Some(i) => (
                    self.offsets[i],
                    match self.regions[i] {
                        Region::Section(p) => p.align(self.input).max(p.header(self.input).2),
                        _ => 8,
                    },
                ),
                None => (0, 0),
            };
            let start = first.unwrap_or(0);
            let (file_size, mem_size) = if count == 0 {
                (0, 0)
            } else {
                let last = start + count - 1;
                let nobits = self.is_nobits(self.regions[last]);
                let file_end = self.offsets[last] + if nobits { 0 } else { self.sizes[last] };
                let mem_end = self.offsets[last] + self.sizes[last];
                (file_end - offset, mem_end - offset)
            };
            put32(&mut out, p_type);
            put32(&mut out, p_flags);
            put64(&mut out, offset);
            put64(&mut out, offset);
            put64(&mut out, offset);
            put64(&mut out, file_size);
            put64(&mut out, mem_size);
            put64(&mut out, align.unwrap_or(first_align));
        }
        out
    }

    fn section_headers(&self) -> Vec<u8> {
        let input = self.input;
        let mut out = vec![0u8; SHDR_SIZE as usize];
        let mut name = 1u32;
        let dynstr = u32::from(self.section_index(Part::DynStr));
        let dynsym = u32::from(self.section_index(Part::DynSym));
        let strtab = u32::from(self.section_index(Part::StrTab));
        for (i, region) in self.regions.iter().enumerate() {
            let Region::Section(p) = *region else {
                continue;
            };
            let (sh_type, flags, align, entsize) = p.header(input);
            let (link, info) = match p {
                Part::DynSym => (dynstr, 1),
                Part::Hash | Part::RelaDyn => (dynsym, 0),
                Part::Dynamic => (dynstr, 0),
                // One local symbol, `_DYNAMIC`, after the null one.
                Part::SymTab => (strtab, 2),
                _ => (0, 0),
            };
            put32(&mut out, name);
            put32(&mut out, sh_type);
            put64(&mut out, flags);
            put64(&mut out, if p.has_address() { self.offsets[i] } else { 0 });
            put64(&mut out, self.offsets[i]);
            put64(&mut out, self.sizes[i]);
            put32(&mut out, link);
            put32(&mut out, info);
            put64(&mut out, align);
            put64(&mut out, entsize);
            name += p.name(input).len() as u32 + 1;
        }
        out
    }

    fn bytes(&self) -> Result<Vec<u8>, RocmError> {
        let input = self.input;
        let total = usize::try_from(self.total)
            .map_err(|_| RocmError::new("the code object", "it is too large"))?;
        let mut out = Vec::with_capacity(total);
        let v = input.code_object_version;
        let new_format = input.new_format || v >= 3;
        // The ELF header.
        out.extend_from_slice(&[0x7f, b'E', b'L', b'F', 2, 1, 1, ELFOSABI_AMDGPU_HSA]);
        out.push(if v == 2 { 0 } else { v - 2 });
        out.resize(16, 0);
        put16(&mut out, elf::ET_DYN);
        put16(&mut out, EM_AMDGPU);
        put32(&mut out, 1);
        put64(
            &mut out,
            if new_format {
                self.offset_of(Part::Text)
            } else {
                0
            },
        );
        put64(&mut out, self.offsets[0]);
        let shdrs = self
            .regions
            .iter()
            .position(|&r| r == Region::SectionHeaders)
            .map_or(0, |i| self.offsets[i]);
        put64(&mut out, shdrs);
        put32(&mut out, input.e_flags);
        put16(&mut out, EHDR_SIZE as u16);
        put16(&mut out, PHDR_SIZE as u16);
        put16(&mut out, self.segments.len() as u16);
        put16(&mut out, SHDR_SIZE as u16);
        put16(&mut out, self.section_count() as u16);
        put16(&mut out, self.section_index(Part::ShStrTab));
        for (i, region) in self.regions.iter().enumerate() {
            out.resize(self.offsets[i] as usize, 0);
            let bytes = match region {
                Region::ProgramHeaders => self.program_headers(),
                Region::SectionHeaders => self.section_headers(),
                Region::Section(p) => self.content(*p),
            };
            debug_assert!(
                self.is_nobits(*region) || bytes.len() as u64 == self.sizes[i],
                "{region:?}"
            );
            out.extend_from_slice(&bytes);
        }
        debug_assert_eq!(out.len(), total);
        Ok(out)
    }
}
