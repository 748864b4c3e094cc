//! [`RocmInput`] to code-object bytes, through the `object` crate's ELF
//! writer. The layout is the one clrxasm and lld use: the ELF and program
//! headers, `.note`, `.dynsym`, `.hash`, `.dynstr`, `.rela.dyn` (when there
//! are dynamic relocations) and `.rodata` in a read-only segment, `.text` in
//! an executable one at the next page, `.dynamic` and `.got` (CLRX's GOT
//! entries) in a writable one at the page after, `.data` in a writable one
//! at the next page; addresses equal file offsets ([`layout`]).

use object::elf;
use object::write::elf::{FileHeader, ProgramHeader, Rel, SectionHeader, Sym, Writer};
use object::Endianness;

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
    /// The encoded metadata note: YAML for v2, MessagePack for v3+.
    pub metadata: Option<Vec<u8>>,
    /// The code (v2: with each kernel's `amd_kernel_code_t` in place).
    pub text: Vec<u8>,
    /// The global data (v3+: with room for the descriptors); empty for none.
    pub rodata: Vec<u8>,
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

fn note(out: &mut Vec<u8>, owner: &[u8], n_type: u32, desc: &[u8]) {
    let e = Endianness::Little;
    let header = elf::NoteHeader32 {
        n_namesz: object::U32::new(e, owner.len() as u32 + 1),
        n_descsz: object::U32::new(e, desc.len() as u32),
        n_type: object::U32::new(e, n_type),
    };
    out.extend_from_slice(object::pod::bytes_of(&header));
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
        v.extend_from_slice(&2u32.to_le_bytes());
        v.extend_from_slice(&1u32.to_le_bytes());
        note(&mut out, b"AMD", 1, &v);
        let (major, minor, stepping) = input.isa_version;
        let mut isa = Vec::new();
        isa.extend_from_slice(&4u16.to_le_bytes());
        isa.extend_from_slice(&7u16.to_le_bytes());
        for x in [major, minor, stepping] {
            isa.extend_from_slice(&x.to_le_bytes());
        }
        isa.extend_from_slice(b"AMD\0AMDGPU\0");
        note(&mut out, b"AMD", 3, &isa);
        if let Some(name) = &input.isa_name {
            note(&mut out, b"AMD", 11, name.as_bytes());
        }
        if let Some(m) = &input.metadata {
            note(&mut out, b"AMD", 10, m);
        }
    } else if let Some(m) = &input.metadata {
        note(&mut out, b"AMDGPU", 32, m);
    }
    Ok(out)
}

/// Writes `input` as a code object. Errors: a version other than 2..=5, a
/// kernel outside `.text`, a descriptor outside `.rodata`, two kernels of
/// one name, a symbol or relocation outside its section, a GOT entry for a
/// name that is no dynamic symbol.
pub fn write(input: &RocmInput) -> Result<Vec<u8>, RocmError> {
    write_with_layout(input).map(|(bytes, _)| bytes)
}

/// Where [`write()`] puts the sections of `input` (what section differences
/// and relocations resolve against); the same checks as [`write()`].
pub fn layout(input: &RocmInput) -> Result<RocmLayout, RocmError> {
    write_with_layout(input).map(|(_, layout)| layout)
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
    Ok(())
}

/// The code object and its layout.
fn write_with_layout(input: &RocmInput) -> Result<(Vec<u8>, RocmLayout), RocmError> {
    check(input)?;
    let v = input.code_object_version;
    let notes = notes(input)?;

    let mut buffer = Vec::new();
    let mut w = Writer::new(Endianness::Little, true, &mut buffer);
    // The string tables exist even without a kernel (DT_STRTAB needs one).
    w.require_dynstr();
    w.require_strtab();
    // Symbols: v2 one per kernel; v3+ the entry (FUNC) and NAME.kd
    // (OBJECT); then the other global symbols.
    let mut all_names: Vec<Vec<u8>> = Vec::new();
    for k in &input.kernels {
        all_names.push(k.name.clone().into_bytes());
        if v >= 3 && !k.function {
            all_names.push(format!("{}.kd", k.name).into_bytes());
        }
    }
    for s in &input.symbols {
        all_names.push(s.name.clone().into_bytes());
    }
    let dyn_names: Vec<_> = all_names.iter().map(|n| w.add_dynamic_string(n)).collect();
    let names: Vec<_> = all_names.iter().map(|n| w.add_string(n)).collect();
    let has_rodata = !input.rodata.is_empty();
    let has_data = !input.data.is_empty();
    let has_bss = input.bss != 0;
    let has_got = !input.got.is_empty();
    let reloc_count = input.got.len() + input.relocations.len();
    let has_relocs = reloc_count > 0;
    w.reserve_file_header();
    let phnum = 6 + u32::from(has_data || has_bss);
    w.reserve_program_headers(phnum);
    w.reserve_null_section_index();
    let note_name = w.add_section_name(b".note");
    w.reserve_section_index();
    let dynsym_index = w.reserve_dynsym_section_index();
    w.reserve_hash_section_index();
    w.reserve_dynstr_section_index();
    let rela_name = w.add_section_name(b".rela.dyn");
    if has_relocs {
        w.reserve_section_index();
    }
    let rodata_name = w.add_section_name(b".rodata");
    let rodata_index = has_rodata.then(|| w.reserve_section_index());
    let text_name = w.add_section_name(b".text");
    let text_index = w.reserve_section_index();
    w.reserve_dynamic_section_index();
    let got_name = w.add_section_name(b".got");
    let got_index = has_got.then(|| w.reserve_section_index());
    let data_name = w.add_section_name(b".data");
    let data_index = has_data.then(|| w.reserve_section_index());
    let bss_name = w.add_section_name(b".bss");
    let bss_index = has_bss.then(|| w.reserve_section_index());
    w.reserve_symtab_section_index();
    w.reserve_strtab_section_index();
    w.reserve_shstrtab_section_index();
    let section_index = |s: RocmSection| match s {
        RocmSection::Text => Some(text_index),
        RocmSection::Rodata => rodata_index,
        RocmSection::Data => data_index,
        RocmSection::Got => got_index,
        RocmSection::Bss => bss_index,
    };

    w.reserve_null_dynamic_symbol_index();
    w.reserve_null_symbol_index();
    for k in &input.kernels {
        w.reserve_dynamic_symbol_index();
        w.reserve_symbol_index(Some(text_index));
        if v >= 3 && !k.function {
            w.reserve_dynamic_symbol_index();
            w.reserve_symbol_index(rodata_index);
        }
    }
    for s in &input.symbols {
        w.reserve_dynamic_symbol_index();
        w.reserve_symbol_index(s.section.and_then(section_index));
    }
    let note_offset = w.reserve(notes.len(), 4) as u64;
    let dynsym_offset = w.reserve_dynsym() as u64;
    let chain_count = w.dynamic_symbol_count();
    let bucket_count = chain_count.max(1);
    let hash_offset = w.reserve_hash(bucket_count, chain_count) as u64;
    let dynstr_offset = w.reserve_dynstr() as u64;
    let rela_offset = if has_relocs {
        w.reserve_relocations(reloc_count, true) as u64
    } else {
        0
    };
    let rodata_offset = if has_rodata {
        w.reserve(input.rodata.len(), 64) as u64
    } else {
        0
    };
    let ro_end = w.reserved_len() as u64;
    let text_offset = ro_end.next_multiple_of(PAGE);
    w.reserve_until(text_offset as usize);
    w.reserve(input.text.len(), 256);
    let text_end = w.reserved_len() as u64;
    let dynamic_offset = text_end.next_multiple_of(PAGE);
    w.reserve_until(dynamic_offset as usize);
    let dynamic_count = 6 + if has_relocs { 3 } else { 0 };
    w.reserve_dynamic(dynamic_count);
    let dynamic_size = w.reserved_len() as u64 - dynamic_offset;
    let got_offset = if has_got {
        w.reserve(8 * input.got.len(), 8) as u64
    } else {
        0
    };
    let rw_size = w.reserved_len() as u64 - dynamic_offset;
    // .data, then .bss (no file bytes) in one writable segment.
    let data_segment = (w.reserved_len() as u64).next_multiple_of(PAGE);
    let data_offset = if has_data {
        w.reserve_until(data_segment as usize);
        w.reserve(input.data.len(), 8) as u64
    } else {
        0
    };
    let bss_offset = if has_bss {
        if has_data {
            (data_offset + input.data.len() as u64).next_multiple_of(8)
        } else {
            w.reserve_until(data_segment as usize);
            data_segment
        }
    } else {
        0
    };
    let data_file_size = if has_data { input.data.len() as u64 } else { 0 };
    let data_mem_size = if has_bss {
        bss_offset
            .checked_add(input.bss)
            .ok_or_else(|| RocmError::new("section .bss", "its size overflows"))?
            - data_segment
    } else {
        data_file_size
    };
    w.reserve_symtab();
    w.reserve_strtab();
    w.reserve_shstrtab();
    w.reserve_section_headers();
    let layout = RocmLayout {
        text: text_offset,
        rodata: rodata_offset,
        data: data_offset,
        got: got_offset,
        bss: bss_offset,
    };

    // The descriptors, with their entry offsets from the layout.
    let mut rodata = input.rodata.clone();
    for k in &input.kernels {
        if let Some((off, d)) = &k.descriptor {
            let mut d = *d;
            let entry = text_offset + k.text_offset;
            let kd = rodata_offset + off;
            d.kernel_code_entry_byte_offset = entry as i64 - kd as i64;
            let at = *off as usize;
            rodata[at..at + KERNEL_DESCRIPTOR_SIZE].copy_from_slice(&d.to_bytes());
        }
    }

    let abi_version = match v {
        2 => 0,
        n => n - 2,
    };
    let map_err = |e: object::write::Error| RocmError::new("the ELF writer", e.to_string());
    w.write_file_header(&FileHeader {
        os_abi: ELFOSABI_AMDGPU_HSA,
        abi_version,
        e_type: elf::ET_DYN,
        e_machine: EM_AMDGPU,
        e_entry: 0,
        e_flags: input.e_flags,
    })
    .map_err(map_err)?;
    w.write_align_program_headers();
    let phdr_size = u64::from(phnum) * 56;
    let seg = |p_type, p_flags, off: u64, size: u64, align| ProgramHeader {
        p_type,
        p_flags,
        p_offset: off,
        p_vaddr: off,
        p_paddr: off,
        p_filesz: size,
        p_memsz: size,
        p_align: align,
    };
    w.write_program_header(&seg(elf::PT_PHDR, elf::PF_R, 64, phdr_size, 8));
    w.write_program_header(&seg(elf::PT_LOAD, elf::PF_R, 0, ro_end, PAGE));
    w.write_program_header(&seg(
        elf::PT_LOAD,
        elf::PF_R | elf::PF_X,
        text_offset,
        input.text.len() as u64,
        PAGE,
    ));
    w.write_program_header(&seg(
        elf::PT_LOAD,
        elf::PF_R | elf::PF_W,
        dynamic_offset,
        rw_size,
        PAGE,
    ));
    if has_data || has_bss {
        w.write_program_header(&ProgramHeader {
            p_memsz: data_mem_size,
            ..seg(
                elf::PT_LOAD,
                elf::PF_R | elf::PF_W,
                data_segment,
                data_file_size,
                PAGE,
            )
        });
    }
    w.write_program_header(&seg(
        elf::PT_DYNAMIC,
        elf::PF_R | elf::PF_W,
        dynamic_offset,
        dynamic_size,
        8,
    ));
    w.write_program_header(&seg(
        elf::PT_NOTE,
        elf::PF_R,
        note_offset,
        notes.len() as u64,
        4,
    ));

    w.write_align(4);
    w.write(&notes);
    w.write_null_dynamic_symbol();
    let kernel_type = if v == 2 {
        STT_AMDGPU_HSA_KERNEL
    } else {
        elf::STT_FUNC
    };
    let mut symbols: Vec<Sym> = Vec::new();
    for k in &input.kernels {
        let (st_type, st_other) = if k.function {
            (elf::STT_FUNC, elf::STV_DEFAULT)
        } else {
            (kernel_type, elf::STV_PROTECTED)
        };
        symbols.push(Sym {
            name: None,
            section: Some(text_index),
            st_info: (elf::STB_GLOBAL << 4) | st_type,
            st_other,
            st_shndx: 0,
            st_value: text_offset + k.text_offset,
            st_size: 0,
        });
        if let Some((off, _)) = k.descriptor.as_ref().filter(|_| !k.function) {
            symbols.push(Sym {
                name: None,
                section: rodata_index,
                st_info: (elf::STB_GLOBAL << 4) | elf::STT_OBJECT,
                st_other: elf::STV_PROTECTED,
                st_shndx: 0,
                st_value: rodata_offset + off,
                st_size: KERNEL_DESCRIPTOR_SIZE as u64,
            });
        }
    }
    for s in &input.symbols {
        symbols.push(Sym {
            name: None,
            section: s.section.and_then(section_index),
            st_info: (elf::STB_GLOBAL << 4) | (s.st_type & 0xf),
            st_other: elf::STV_DEFAULT,
            st_shndx: if s.section.is_none() { elf::SHN_ABS } else { 0 },
            st_value: s.section.map_or(0, |sec| layout.address(sec)) + s.offset,
            st_size: s.size,
        });
    }
    for (sym, name) in symbols.iter().zip(&dyn_names) {
        w.write_dynamic_symbol(&Sym {
            name: Some(*name),
            ..*sym
        });
    }
    w.write_hash(bucket_count, chain_count, |i| {
        // Index 0 is the null symbol.
        let name = all_names.get((i as usize).checked_sub(1)?)?;
        Some(elf::hash(name))
    });
    w.write_dynstr();
    if has_relocs {
        w.write_align_relocation();
        for (i, name) in input.got.iter().enumerate() {
            // Dynamic symbol index: 1 + its place in `all_names` (the
            // checks above made sure it is there).
            let sym = all_names
                .iter()
                .position(|n| n == name.as_bytes())
                .map_or(0, |p| p as u32 + 1);
            w.write_relocation(
                true,
                &Rel {
                    r_offset: got_offset + 8 * i as u64,
                    r_sym: sym,
                    r_type: RelocKind::Abs64.elf_type(),
                    r_addend: 0,
                },
            );
        }
        for r in &input.relocations {
            w.write_relocation(
                true,
                &Rel {
                    r_offset: layout.address(r.at.0) + r.at.1,
                    r_sym: 0,
                    r_type: RelocKind::Relative64.elf_type(),
                    r_addend: (layout.address(r.target) as i64).wrapping_add(r.addend),
                },
            );
        }
    }
    if has_rodata {
        w.pad_until(rodata_offset as usize);
        w.write(&rodata);
    }
    w.pad_until(text_offset as usize);
    w.write(&input.text);
    w.pad_until(dynamic_offset as usize);
    w.write_align_dynamic();
    w.write_dynamic(elf::DT_HASH, hash_offset);
    w.write_dynamic(elf::DT_SYMTAB, dynsym_offset);
    w.write_dynamic(elf::DT_STRTAB, dynstr_offset);
    w.write_dynamic(elf::DT_SYMENT, 24);
    let dynstr_len = w.dynstr_len() as u64;
    w.write_dynamic(elf::DT_STRSZ, dynstr_len);
    if has_relocs {
        w.write_dynamic(elf::DT_RELA, rela_offset);
        w.write_dynamic(elf::DT_RELASZ, 24 * reloc_count as u64);
        w.write_dynamic(elf::DT_RELAENT, 24);
    }
    w.write_dynamic(elf::DT_NULL, 0);
    if has_got {
        w.pad_until(got_offset as usize);
        w.write(&vec![0u8; 8 * input.got.len()]);
    }
    if has_data {
        w.pad_until(data_offset as usize);
        w.write(&input.data);
    } else if has_bss {
        w.pad_until(data_segment as usize);
    }

    w.write_null_symbol();
    for (sym, name) in symbols.iter().zip(&names) {
        w.write_symbol(&Sym {
            name: Some(*name),
            ..*sym
        });
    }
    w.write_strtab();
    w.write_shstrtab();

    let progbits = |name, flags: u32, off: u64, size: u64, align| SectionHeader {
        name: Some(name),
        sh_type: elf::SHT_PROGBITS,
        sh_flags: u64::from(flags),
        sh_addr: off,
        sh_offset: off,
        sh_size: size,
        sh_link: 0,
        sh_info: 0,
        sh_addralign: align,
        sh_entsize: 0,
    };
    w.write_null_section_header();
    w.write_section_header(&SectionHeader {
        name: Some(note_name),
        sh_type: elf::SHT_NOTE,
        sh_flags: u64::from(elf::SHF_ALLOC),
        sh_addr: note_offset,
        sh_offset: note_offset,
        sh_size: notes.len() as u64,
        sh_link: 0,
        sh_info: 0,
        sh_addralign: 4,
        sh_entsize: 0,
    });
    w.write_dynsym_section_header(dynsym_offset, 1);
    w.write_hash_section_header(hash_offset);
    w.write_dynstr_section_header(dynstr_offset);
    if has_relocs {
        w.write_section_header(&SectionHeader {
            name: Some(rela_name),
            sh_type: elf::SHT_RELA,
            sh_flags: u64::from(elf::SHF_ALLOC),
            sh_addr: rela_offset,
            sh_offset: rela_offset,
            sh_size: 24 * reloc_count as u64,
            sh_link: dynsym_index.0,
            sh_info: 0,
            sh_addralign: 8,
            sh_entsize: 24,
        });
    }
    if has_rodata {
        w.write_section_header(&progbits(
            rodata_name,
            elf::SHF_ALLOC,
            rodata_offset,
            input.rodata.len() as u64,
            64,
        ));
    }
    w.write_section_header(&progbits(
        text_name,
        elf::SHF_ALLOC | elf::SHF_EXECINSTR,
        text_offset,
        input.text.len() as u64,
        256,
    ));
    w.write_dynamic_section_header(dynamic_offset);
    if has_got {
        w.write_section_header(&progbits(
            got_name,
            elf::SHF_ALLOC | elf::SHF_WRITE,
            got_offset,
            8 * input.got.len() as u64,
            8,
        ));
    }
    if has_data {
        w.write_section_header(&progbits(
            data_name,
            elf::SHF_ALLOC | elf::SHF_WRITE,
            data_offset,
            input.data.len() as u64,
            8,
        ));
    }
    if has_bss {
        w.write_section_header(&SectionHeader {
            sh_type: elf::SHT_NOBITS,
            ..progbits(
                bss_name,
                elf::SHF_ALLOC | elf::SHF_WRITE,
                bss_offset,
                input.bss,
                8,
            )
        });
    }
    w.write_symtab_section_header(1);
    w.write_strtab_section_header();
    w.write_shstrtab_section_header();
    debug_assert_eq!(w.reserved_len(), w.len());
    Ok((buffer, layout))
}
