//! Bytes to [`CodeObject`], through the `object` crate's ELF reader (every
//! header, table and note access bounds-checked there) and the metadata
//! parsers of [`super::metadata`].

use object::elf;
use object::read::elf::{ElfFile64, FileHeader, ProgramHeader, Rela, SectionHeader, Sym};
use object::{Endianness, FileKind};

use super::descriptor::{
    AmdKernelCode, KernelDescriptor, AMD_KERNEL_CODE_SIZE, KERNEL_DESCRIPTOR_SIZE,
};
use super::metadata::{KernelMeta, Metadata};
use super::{
    CodeObject, DynamicReloc, LoadSegment, Processor, ProcessorInfo, RelocKind, RocmError,
    RocmKernel, SectionData, EM_AMDGPU, STT_AMDGPU_HSA_KERNEL,
};

/// Whether `bytes` starts like a code object: an ELF64 little-endian file
/// whose `e_machine` is `EM_AMDGPU` (224). Gallium binaries and CLRX's
/// other formats are not.
pub fn is_code_object(bytes: &[u8]) -> bool {
    bytes.len() >= 64
        && bytes[..4] == *b"\x7fELF"
        && bytes[4] == elf::ELFCLASS64
        && bytes[5] == elf::ELFDATA2LSB
        && u16::from_le_bytes([bytes[18], bytes[19]]) == EM_AMDGPU
}

/// One note: owner, type, descriptor bytes.
struct Note<'a> {
    owner: &'a [u8],
    n_type: u32,
    desc: &'a [u8],
}

/// One symbol of `.dynsym` or `.symtab`.
struct Symbol {
    name: String,
    value: u64,
    st_type: u8,
    /// A global `STT_FUNC` of `.dynsym`: in code object v2 a kernel that
    /// is a function (clrxasm's `.fkernel`); in v3+ one when no `NAME.kd`
    /// symbol goes with it.
    function_kernel: bool,
    /// Defined in `.text`.
    in_text: bool,
}

fn elf_err(at: &str) -> impl Fn(object::Error) -> RocmError + '_ {
    move |e| RocmError::new(at, e.to_string())
}

/// Reads a code object (v2..=v5). Everything malformed, inconsistent or not
/// supported is a [`RocmError`] naming the place.
pub fn read(bytes: &[u8]) -> Result<CodeObject, RocmError> {
    // The ELF parser reads the headers in place, which needs 8-byte
    // alignment; a `&'static [u8]` (`gcn_kernel!`'s `BINARY`,
    // `include_bytes!`) has none: read a copy.
    if bytes.as_ptr().align_offset(8) != 0 {
        let mut words = vec![0u64; bytes.len().div_ceil(8)];
        let copy = object::pod::bytes_of_slice_mut(&mut words);
        copy[..bytes.len()].copy_from_slice(bytes);
        return read(&copy[..bytes.len()]);
    }
    if !is_code_object(bytes) {
        let what = match FileKind::parse(bytes) {
            Ok(FileKind::Elf64) => "an ELF64 file whose e_machine is not EM_AMDGPU (224)",
            Ok(FileKind::Elf32) => "an ELF32 file (code objects are ELF64)",
            _ => "not an ELF64 file",
        };
        return Err(RocmError::new("the ELF header", format!("this is {what}")));
    }
    let file = ElfFile64::<Endianness>::parse(bytes).map_err(elf_err("the ELF file"))?;
    let endian = file.endian();
    let header = file.elf_header();
    if header.e_type(endian) == elf::ET_REL {
        return Err(RocmError::new(
            "the ELF header",
            "this is a relocatable AMDGPU object (ET_REL, as `clang -c` writes it before \
             linking), not a code object: compile and link with `clang -target \
             amdgcn-amd-amdhsa -mcpu=GPU` without `-c` (or link with `ld.lld -shared`)"
                .to_string(),
        ));
    }
    let e_flags = header.e_flags(endian);
    let abi_version = header.e_ident().abi_version;

    let mut segments = Vec::new();
    let mut phdr_notes = Vec::new();
    for (i, ph) in file.elf_program_headers().iter().enumerate() {
        let at = format!("program header #{i}");
        match ph.p_type(endian) {
            elf::PT_LOAD => {
                let data = ph
                    .data(endian, bytes)
                    .map_err(|_| RocmError::new(&at, "its file range lies outside the file"))?;
                let mem_size = ph.p_memsz(endian);
                if mem_size < data.len() as u64 {
                    return Err(RocmError::new(&at, "p_memsz is smaller than p_filesz"));
                }
                let flags = ph.p_flags(endian);
                segments.push(LoadSegment {
                    vaddr: ph.p_vaddr(endian),
                    data: data.to_vec(),
                    mem_size,
                    writable: flags & elf::PF_W != 0,
                    executable: flags & elf::PF_X != 0,
                });
            }
            elf::PT_NOTE => phdr_notes.push(i),
            _ => {}
        }
    }

    let sections = file.elf_section_table();
    let mut notes: Vec<Note> = Vec::new();
    for (index, sh) in sections.enumerate() {
        if sh.sh_type(endian) != elf::SHT_NOTE {
            continue;
        }
        let at = format!("note section #{}", index.0);
        if let Some(mut it) = sh.notes(endian, bytes).map_err(elf_err(&at))? {
            while let Some(n) = it.next().map_err(elf_err(&at))? {
                notes.push(Note {
                    owner: n.name(),
                    n_type: n.n_type(endian),
                    desc: n.desc(),
                });
            }
        }
    }
    if notes.is_empty() {
        // A file without section headers still has its PT_NOTE segments.
        for i in phdr_notes {
            let at = format!("note segment (program header #{i})");
            let ph = &file.elf_program_headers()[i];
            if let Some(mut it) = ph.notes(endian, bytes).map_err(elf_err(&at))? {
                while let Some(n) = it.next().map_err(elf_err(&at))? {
                    notes.push(Note {
                        owner: n.name(),
                        n_type: n.n_type(endian),
                        desc: n.desc(),
                    });
                }
            }
        }
    }

    let mut v2_version = None;
    let mut isa_version = None;
    let mut isa_name = None;
    let mut metadata = None;
    for n in &notes {
        match (n.owner, n.n_type) {
            (b"AMD", 1) => {
                let d = fixed(n.desc, 8, "the NT_AMD_HSA_CODE_OBJECT_VERSION note")?;
                v2_version = Some((le32(d, 0), le32(d, 4)));
            }
            (b"AMD", 3) => {
                let d = fixed(n.desc, 16, "the NT_AMD_HSA_ISA_VERSION note")?;
                isa_version = Some((le32(d, 4), le32(d, 8), le32(d, 12)));
            }
            (b"AMD", 10) => {
                if metadata.is_some() {
                    return Err(RocmError::new("the notes", "there are two metadata notes"));
                }
                metadata = Some(Metadata::from_yaml(n.desc)?);
            }
            (b"AMD", 11) => {
                let end = n.desc.iter().position(|&b| b == 0).unwrap_or(n.desc.len());
                isa_name = Some(
                    std::str::from_utf8(&n.desc[..end])
                        .map_err(|_| {
                            RocmError::new("the NT_AMD_HSA_ISA_NAME note", "it is not UTF-8")
                        })?
                        .to_string(),
                );
            }
            (b"AMDGPU", 32) => {
                if metadata.is_some() {
                    return Err(RocmError::new("the notes", "there are two metadata notes"));
                }
                metadata = Some(Metadata::from_msgpack(n.desc)?);
            }
            _ => {}
        }
    }

    let msgpack = metadata
        .as_ref()
        .is_some_and(|m| m.format == super::MetadataFormat::MsgPack);
    let code_object_version = match abi_version {
        1 => 3,
        2 => 4,
        3 => 5,
        0 if msgpack => match metadata.as_ref().and_then(Metadata::version) {
            Some((1, 0)) => 3,
            Some((1, 1)) => 4,
            Some((1, 2)) => 5,
            other => {
                return Err(RocmError::new(
                    "the metadata",
                    format!("amdhsa.version {other:?} is not 1.0, 1.1 or 1.2 (code object v3..v5)"),
                ))
            }
        },
        0 => 2,
        n => {
            return Err(RocmError::new(
                "the ELF header",
                format!(
                    "ABI version {n} is no code object version this reader knows (0..=3: v2..v5)"
                ),
            ))
        }
    };
    if code_object_version == 2 {
        if let Some((major, _)) = v2_version {
            if major != 2 {
                return Err(RocmError::new(
                    "the NT_AMD_HSA_CODE_OBJECT_VERSION note",
                    format!("code object version {major} with ELF ABI version 0 is not supported (v2 only)"),
                ));
            }
        }
    }

    let processor = processor(code_object_version, e_flags, isa_version)?;
    let target = metadata
        .as_ref()
        .and_then(|m| m.target().map(str::to_string))
        .or(isa_name);

    // Symbols: .dynsym first, then .symtab (the same names are one symbol).
    let text_index = sections
        .iter()
        .position(|sh| sections.section_name(endian, sh).ok() == Some(b".text".as_slice()))
        .filter(|&i| i != 0);
    let mut symbols: Vec<Symbol> = Vec::new();
    for (table, what) in [
        (file.elf_dynamic_symbol_table(), ".dynsym"),
        (file.elf_symbol_table(), ".symtab"),
    ] {
        let dynamic = what == ".dynsym";
        for sym in table.iter() {
            let name = table.symbol_name(endian, sym).map_err(elf_err(what))?;
            if name.is_empty() {
                continue;
            }
            let name = String::from_utf8_lossy(name).into_owned();
            if symbols.iter().any(|s| s.name == name) {
                continue;
            }
            symbols.push(Symbol {
                name,
                value: sym.st_value(endian),
                st_type: sym.st_type(),
                function_kernel: dynamic
                    && sym.st_type() == elf::STT_FUNC
                    && sym.st_bind() == elf::STB_GLOBAL,
                in_text: text_index.is_some_and(|i| usize::from(sym.st_shndx(endian)) == i),
            });
        }
    }

    let read_at = |vaddr: u64, len: usize, what: &str| -> Result<&[u8], RocmError> {
        for seg in &segments {
            let Some(off) = vaddr.checked_sub(seg.vaddr) else {
                continue;
            };
            let Ok(off) = usize::try_from(off) else {
                continue;
            };
            if let Some(s) = off.checked_add(len).and_then(|end| seg.data.get(off..end)) {
                return Ok(s);
            }
        }
        Err(RocmError::new(
            what,
            format!("its {len} bytes at address {vaddr:#x} are not in the file part of a PT_LOAD segment"),
        ))
    };

    let metas = match &metadata {
        Some(m) => m.kernels()?,
        None => Vec::new(),
    };
    let mut kernels = Vec::new();
    if code_object_version >= 3 {
        let mut metas = metas;
        if metadata.is_none() {
            // Without metadata the `.kd` objects still name the kernels.
            for s in &symbols {
                if let Some(name) = s.name.strip_suffix(".kd") {
                    metas.push(KernelMeta {
                        name: name.to_string(),
                        ..KernelMeta::default()
                    });
                }
            }
            // And clrxasm's `.fkernel`s: global functions of .text without
            // a descriptor symbol, each a kernel region of CLRX's reader.
            for s in &symbols {
                let kd = format!("{}.kd", s.name);
                if s.function_kernel && s.in_text && !symbols.iter().any(|d| d.name == kd) {
                    metas.push(KernelMeta {
                        name: s.name.clone(),
                        ..KernelMeta::default()
                    });
                }
            }
        }
        for m in metas {
            let at = format!("kernel `{}`", m.name);
            let symname = m.symbol.clone().unwrap_or_else(|| format!("{}.kd", m.name));
            // clrxasm's LLVM 10 layout with YAML metadata names v2's
            // `NAME@kd` there: the descriptor is `NAME.kd` all the same.
            let kd = format!("{}.kd", m.name);
            let found = symbols.iter().find(|s| s.name == symname).or_else(|| {
                (!msgpack)
                    .then(|| symbols.iter().find(|s| s.name == kd))
                    .flatten()
            });
            let Some(sym) = found else {
                // clrxasm's `.fkernel` (whose metadata still names `NAME.kd`):
                // the kernel symbol is a global function and there is no
                // descriptor, as CLRX's ROCm reader takes it.
                let kd = format!("{}.kd", m.name);
                let f = symbols
                    .iter()
                    .find(|s| s.name == m.name && s.function_kernel)
                    .filter(|_| !symbols.iter().any(|s| s.name == kd))
                    .ok_or_else(|| {
                        RocmError::new(
                            &at,
                            format!("its descriptor symbol `{symname}` is not in the symbol tables, nor is `{}` a function kernel (a global STT_FUNC of .dynsym with no `{kd}`)", m.name),
                        )
                    })?;
                let entry = f.value;
                kernels.push(make_kernel(
                    m,
                    None,
                    entry,
                    KernelDescriptor::default(),
                    None,
                    true,
                )?);
                continue;
            };
            let d = read_at(
                sym.value,
                KERNEL_DESCRIPTOR_SIZE,
                &format!("the descriptor of {at}"),
            )?;
            let descriptor = KernelDescriptor::from_bytes(d)
                .ok_or_else(|| RocmError::new(&at, "its descriptor is truncated"))?;
            let entry = sym
                .value
                .checked_add_signed(descriptor.kernel_code_entry_byte_offset)
                .ok_or_else(|| RocmError::new(&at, "its entry address overflows"))?;
            kernels.push(make_kernel(
                m,
                Some(sym.value),
                entry,
                descriptor,
                None,
                false,
            )?);
        }
    } else {
        for s in symbols
            .iter()
            .filter(|s| s.st_type == STT_AMDGPU_HSA_KERNEL || s.function_kernel)
        {
            let at = format!("kernel `{}`", s.name);
            let d = read_at(
                s.value,
                AMD_KERNEL_CODE_SIZE,
                &format!("the amd_kernel_code_t of {at}"),
            )?;
            let code = AmdKernelCode::from_bytes(d)
                .ok_or_else(|| RocmError::new(&at, "its amd_kernel_code_t is truncated"))?;
            let entry = s
                .value
                .checked_add_signed(code.kernel_code_entry_byte_offset)
                .ok_or_else(|| RocmError::new(&at, "its entry address overflows"))?;
            let meta = metas
                .iter()
                .find(|m| m.name == s.name)
                .cloned()
                .unwrap_or_else(|| KernelMeta {
                    name: s.name.clone(),
                    ..KernelMeta::default()
                });
            kernels.push(make_kernel(
                meta,
                Some(s.value),
                entry,
                code.to_descriptor(),
                Some(code),
                s.function_kernel,
            )?);
        }
        if let Some(m) = metas
            .iter()
            .find(|m| !kernels.iter().any(|k| k.name == m.name))
        {
            return Err(RocmError::new(
                format!("kernel `{}`", m.name),
                "the metadata names it but no STT_AMDGPU_HSA_KERNEL symbol (nor a global STT_FUNC of .dynsym) does",
            ));
        }
    }
    kernels.sort_by(|a, b| a.name.cmp(&b.name));
    if let Some(w) = kernels.windows(2).find(|w| w[0].name == w[1].name) {
        return Err(RocmError::new(
            format!("kernel `{}`", w[0].name),
            "it is described twice",
        ));
    }

    let mut dynamic_relocations = Vec::new();
    let dynsym = file.elf_dynamic_symbol_table();
    for (index, sh) in sections.enumerate() {
        if sh.sh_type(endian) != elf::SHT_RELA {
            continue;
        }
        let name = sections.section_name(endian, sh).unwrap_or(b"");
        if name != b".rela.dyn" && sh.sh_flags(endian) & u64::from(elf::SHF_ALLOC) == 0 {
            continue;
        }
        let at = format!("relocation section #{}", index.0);
        let Some((relas, _)) = sh.rela(endian, bytes).map_err(elf_err(&at))? else {
            continue;
        };
        for (i, r) in relas.iter().enumerate() {
            let at = format!("{at}, relocation #{i}");
            let r_type = r.r_type(endian, false);
            let kind = RelocKind::from_elf(r_type).ok_or_else(|| {
                RocmError::new(&at, format!("relocation type {r_type} is not supported (only ABS32_LO/HI, ABS32, ABS64, RELATIVE64)"))
            })?;
            let sym_index = r.r_sym(endian, false);
            let (symbol_value, symbol, symbol_absolute) = if sym_index == 0 {
                (0, None, false)
            } else {
                let sym = dynsym
                    .symbol(object::SymbolIndex(sym_index as usize))
                    .map_err(elf_err(&at))?;
                let name = dynsym.symbol_name(endian, sym).map_err(elf_err(&at))?;
                (
                    sym.st_value(endian),
                    Some(String::from_utf8_lossy(name).into_owned()),
                    sym.st_shndx(endian) == elf::SHN_ABS,
                )
            };
            dynamic_relocations.push(DynamicReloc {
                offset: r.r_offset(endian),
                kind,
                symbol_value,
                symbol,
                symbol_absolute,
                addend: r.r_addend(endian),
            });
        }
    }

    let section = |want: &[u8]| -> Result<Option<SectionData>, RocmError> {
        for sh in sections.iter() {
            if sections.section_name(endian, sh).ok() == Some(want)
                && sh.sh_type(endian) != elf::SHT_NOBITS
            {
                let data = sh.data(endian, bytes).map_err(|_| {
                    RocmError::new(
                        format!("section {}", String::from_utf8_lossy(want)),
                        "its file range lies outside the file",
                    )
                })?;
                return Ok(Some(SectionData {
                    vaddr: sh.sh_addr(endian),
                    data: data.to_vec(),
                }));
            }
        }
        Ok(None)
    };
    let mut other_sections = Vec::new();
    // CLRX's old v2 layout has an (empty) `.AMDGPU.config`; clrxdisasm
    // reads every other v2 object as the new format.
    let new_format = code_object_version >= 3
        || !sections
            .iter()
            .any(|sh| sections.section_name(endian, sh) == Ok(&b".AMDGPU.config"[..]));
    for sh in sections.iter() {
        if sh.sh_flags(endian) & u64::from(elf::SHF_ALLOC) == 0 {
            continue;
        }
        let name = sections.section_name(endian, sh).unwrap_or(b"");
        let known: &[&[u8]] = &[
            b".note",
            b".dynsym",
            b".hash",
            b".gnu.hash",
            b".dynstr",
            b".rodata",
            b".text",
            b".dynamic",
            b".rela.dyn",
        ];
        if !known.contains(&name) {
            other_sections.push(String::from_utf8_lossy(name).into_owned());
        }
    }
    let text = section(b".text")?;
    let rodata = section(b".rodata")?;
    let data = section(b".data")?;
    let got = section(b".got")?;
    let bss = sections
        .iter()
        .find(|sh| {
            sections.section_name(endian, sh).ok() == Some(b".bss".as_slice())
                && sh.sh_type(endian) == elf::SHT_NOBITS
        })
        .map(|sh| (sh.sh_addr(endian), sh.sh_size(endian)));

    let mut other_symbols: Vec<(String, u64)> = symbols
        .iter()
        .filter(|s| {
            !s.name.ends_with(".kd")
                && s.name != "_DYNAMIC"
                && !kernels.iter().any(|k| k.name == s.name)
                && s.st_type != elf::STT_SECTION
                && s.st_type != elf::STT_FILE
        })
        .map(|s| (s.name.clone(), s.value))
        .collect();
    other_symbols.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));

    let printf_formats = match &metadata {
        Some(m) => m.printf_formats()?,
        None => Vec::new(),
    };
    Ok(CodeObject {
        code_object_version,
        processor,
        e_flags,
        target,
        segments,
        dynamic_relocations,
        kernels,
        printf_formats,
        metadata,
        text,
        rodata,
        data,
        got,
        bss,
        other_sections,
        new_format,
        other_symbols,
    })
}

fn fixed<'a>(desc: &'a [u8], len: usize, what: &str) -> Result<&'a [u8], RocmError> {
    desc.get(..len)
        .ok_or_else(|| RocmError::new(what, format!("it is {} bytes, less than {len}", desc.len())))
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// The processor: v3+ from `e_flags` (`EF_AMDGPU_MACH` and the XNACK/SRAMECC
/// bits, whose encoding changed in v4); v2 from the ISA version note, else
/// from `e_flags`.
fn processor(
    version: u8,
    e_flags: u32,
    isa: Option<(u32, u32, u32)>,
) -> Result<Processor, RocmError> {
    let mach = e_flags & 0xff;
    if version >= 3 {
        let info = ProcessorInfo::from_mach(mach).ok_or_else(|| {
            RocmError::new(
                "the ELF header",
                format!(
                    "e_flags {e_flags:#x}: {}",
                    super::unsupported_mach_message(mach)
                ),
            )
        })?;
        let (xnack, sramecc) = if version == 3 {
            (
                (e_flags & 0x100 != 0).then_some(true),
                (e_flags & 0x200 != 0).then_some(true),
            )
        } else {
            let sel = |v: u32| match v {
                2 => Some(false),
                3 => Some(true),
                _ => None,
            };
            (sel(e_flags >> 8 & 3), sel(e_flags >> 10 & 3))
        };
        return Ok(Processor {
            name: info.name.to_string(),
            version: info.version,
            xnack,
            sramecc,
        });
    }
    if let Some((major, minor, stepping)) = isa {
        // clrxasm writes ISA 0.x.y for every GCN 1.0 device; LLVM's gfx60x
        // are 6.0.x.
        let major = if major == 0 { 6 } else { major };
        let info = ProcessorInfo::from_isa(major, minor, stepping).ok_or_else(|| {
            RocmError::new(
                "the NT_AMD_HSA_ISA_VERSION note",
                format!("ISA {major}.{minor}.{stepping} is not a GCN 1.0..1.4.1 processor"),
            )
        })?;
        // An odd stepping with no processor of its own is the even one with XNACK.
        let xnack = (info.isa.2 != stepping).then_some(true);
        return Ok(Processor {
            name: info.name.to_string(),
            version: info.version,
            xnack,
            sramecc: None,
        });
    }
    let info = ProcessorInfo::from_mach(mach).ok_or_else(|| {
        RocmError::new(
            "the code object",
            format!("it has no NT_AMD_HSA_ISA_VERSION note and e_flags {e_flags:#x} names no GCN processor"),
        )
    })?;
    Ok(Processor {
        name: info.name.to_string(),
        version: info.version,
        xnack: (e_flags & 0x100 != 0).then_some(true),
        sramecc: None,
    })
}

/// A [`RocmKernel`] from its metadata (what is not there taken from the
/// descriptor or `amd_kernel_code_t`), its descriptor's address (`None`:
/// a v3+ function kernel, which has none), entry and descriptor.
fn make_kernel(
    m: KernelMeta,
    descriptor_vaddr: Option<u64>,
    entry: u64,
    descriptor: KernelDescriptor,
    code: Option<AmdKernelCode>,
    function: bool,
) -> Result<RocmKernel, RocmError> {
    let wave_from_desc = match &code {
        Some(c) => 1u32.checked_shl(u32::from(c.wavefront_size)).unwrap_or(0),
        None if descriptor.wave32() => 32,
        None => 64,
    };
    let wavefront_size = m.wavefront_size.unwrap_or(wave_from_desc);
    if wavefront_size != 32 && wavefront_size != 64 {
        return Err(RocmError::new(
            format!("kernel `{}`", m.name),
            format!("its wavefront size {wavefront_size} is neither 32 nor 64"),
        ));
    }
    let align_from_desc = code.as_ref().map_or(16, |c| {
        1u32.checked_shl(u32::from(c.kernarg_segment_alignment))
            .unwrap_or(0)
    });
    Ok(RocmKernel {
        function,
        entry,
        descriptor_vaddr,
        args: m.args,
        kernarg_segment_size: m.kernarg_segment_size.unwrap_or(descriptor.kernarg_size),
        kernarg_segment_align: m.kernarg_segment_align.unwrap_or(align_from_desc),
        group_segment_fixed_size: m
            .group_segment_fixed_size
            .unwrap_or(descriptor.group_segment_fixed_size),
        private_segment_fixed_size: m
            .private_segment_fixed_size
            .unwrap_or(descriptor.private_segment_fixed_size),
        wavefront_size,
        sgpr_count: m.sgpr_count.unwrap_or_else(|| match &code {
            Some(c) => u32::from(c.wavefront_sgpr_count),
            None => descriptor.sgpr_limit(),
        }),
        vgpr_count: m.vgpr_count.unwrap_or_else(|| match &code {
            Some(c) => u32::from(c.workitem_vgpr_count),
            None => descriptor.vgpr_limit(),
        }),
        max_flat_workgroup_size: m.max_flat_workgroup_size,
        reqd_workgroup_size: m.reqd_workgroup_size,
        uniform_work_group_size: m.uniform_work_group_size,
        descriptor,
        amd_kernel_code: code,
        name: m.name,
    })
}
