//! [`GalliumBinary`] to bytes, laid out exactly as CLRX's
//! `GalliumBinGenerator` does (so a binary compares byte for byte with the
//! one `clrxasm` writes, apart from the `.comment` text).

use super::{GalliumBinary, GalliumError, Kernel, ScratchHalf, ScratchRelocation};

/// Knobs of the writer that do not change what a reader sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteOptions {
    /// Contents of the inner ELF's `.comment` section (no terminating NUL,
    /// as CLRX writes it).
    pub comment: String,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            comment: format!("gcn-asm GalliumBinGenerator {}", env!("CARGO_PKG_VERSION")),
        }
    }
}

/// Writes `binary` with the default [`WriteOptions`].
pub fn write(binary: &GalliumBinary) -> Result<Vec<u8>, GalliumError> {
    write_with(binary, &WriteOptions::default())
}

/// Writes `binary`: the Clover container with the inner ELF. Kernels are
/// written sorted by name whatever their order in `binary`.
///
/// Errors: duplicate or empty kernel names, kernels with different numbers
/// of `.AMDGPU.config` pairs (every kernel has 3, or every kernel 5),
/// kernel offsets outside the code, scratch relocations whose word is not
/// inside the code or that name one word twice, sizes that do not fit the
/// format.
pub fn write_with(binary: &GalliumBinary, options: &WriteOptions) -> Result<Vec<u8>, GalliumError> {
    let mut kernels: Vec<&Kernel> = binary.kernels.iter().collect();
    kernels.sort_by(|a, b| a.name.cmp(&b.name));
    for pair in kernels.windows(2) {
        if pair[0].name == pair[1].name {
            return Err(GalliumError::new(format!(
                "kernel '{}' is defined twice",
                pair[0].name
            )));
        }
    }
    if let Some(first) = kernels.first() {
        let n = first.prog_info.len();
        if n != 3 && n != 5 {
            return Err(GalliumError::new(format!(
                "kernel '{}' has {n} proginfo entries (a kernel has 3, or 5 from LLVM 3.9 on)",
                first.name
            )));
        }
        if let Some(k) = kernels.iter().find(|k| k.prog_info.len() != n) {
            return Err(GalliumError::new(format!(
                "kernel '{}' has {} proginfo entries but kernel '{}' has {n}: all kernels need the same number",
                k.name,
                k.prog_info.len(),
                first.name
            )));
        }
    }
    for k in &kernels {
        if k.name.is_empty() || k.name.as_bytes().contains(&0) {
            return Err(GalliumError::new(
                "a kernel name must be non-empty and have no NUL byte",
            ));
        }
        if k.offset as usize > binary.code.len() {
            return Err(GalliumError::new(format!(
                "kernel '{}' starts at {:#x}, past the end of the code ({:#x} bytes)",
                k.name,
                k.offset,
                binary.code.len()
            )));
        }
    }
    let mut relocations = binary.scratch_relocations.clone();
    relocations.sort();
    for (i, r) in relocations.iter().enumerate() {
        if u64::from(r.offset) + 4 > binary.code.len() as u64 {
            return Err(GalliumError::new(format!(
                "scratch relocation at {:#x} is not inside the code ({:#x} bytes)",
                r.offset,
                binary.code.len()
            )));
        }
        if i > 0 && relocations[i - 1].offset == r.offset {
            return Err(GalliumError::new(format!(
                "two scratch relocations at {:#x}",
                r.offset
            )));
        }
    }
    let elf = inner_elf(binary, &kernels, &relocations, options)?;
    let elf_size = u32_of(elf.len(), "the inner ELF")?;
    let mut out = Vec::with_capacity(elf.len() + 64 + kernels.len() * 256);
    put32(&mut out, u32_of(kernels.len(), "the kernel count")?);
    for k in &kernels {
        put32(&mut out, u32_of(k.name.len(), "a kernel name")?);
        out.extend_from_slice(k.name.as_bytes());
        put32(&mut out, 0); // section id of the code
        put32(&mut out, k.offset);
        put32(&mut out, u32_of(k.args.len(), "an argument count")?);
        for a in &k.args {
            put32(&mut out, a.ty.code());
            put32(&mut out, a.size);
            put32(&mut out, a.target_size);
            put32(&mut out, a.target_align);
            put32(&mut out, u32::from(a.sign_extended));
            put32(&mut out, a.semantic.code());
        }
    }
    // One section: id 0, type 0 (text; Mesa 17.0's "executable text" is
    // type 2); Clover stores its data as a length-prefixed vector whose
    // first word repeats the ELF size.
    put32(&mut out, 1);
    put32(&mut out, 0);
    put32(&mut out, if binary.mesa170 { 2 } else { 0 });
    put32(&mut out, elf_size);
    put32(&mut out, elf_size.checked_add(4).ok_or_else(too_big)?);
    put32(&mut out, elf_size);
    out.extend_from_slice(&elf);
    Ok(out)
}

fn too_big() -> GalliumError {
    GalliumError::new("the binary is too large for the format")
}

fn u32_of(n: usize, what: &str) -> Result<u32, GalliumError> {
    u32::try_from(n).map_err(|_| GalliumError::new(format!("{what} is too large for the format")))
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// Writes a 32- or 64-bit word (an ELF address/offset/size field).
fn put_word(out: &mut Vec<u8>, is_64: bool, v: u64) {
    if is_64 {
        out.extend_from_slice(&v.to_le_bytes());
    } else {
        // Callers check that every value fits (see `check32`).
        put32(out, v as u32);
    }
}

fn align_to(out: &mut Vec<u8>, align: usize) {
    while !out.len().is_multiple_of(align) {
        out.push(0);
    }
}

const SHT_PROGBITS: u32 = 1;
const SHT_SYMTAB: u32 = 2;
const SHT_STRTAB: u32 = 3;
const SHT_NOBITS: u32 = 8;
const SHT_REL: u32 = 9;
const SHF_WRITE: u64 = 1;
const SHF_ALLOC: u64 = 2;
const SHF_EXECINSTR: u64 = 4;
const SHF_MERGE: u64 = 0x10;
const SHF_STRINGS: u64 = 0x20;

/// One section header to write.
struct Shdr {
    name: u32,
    ty: u32,
    flags: u64,
    offset: u64,
    size: u64,
    link: u32,
    info: u32,
    align: u64,
    entsize: u64,
}

/// The inner ELF. Sections in CLRX's order: `.text`, `.data`, `.bss`,
/// `.AMDGPU.config`, [`.rodata`], `.comment`, `.note.GNU-stack`,
/// `.shstrtab`, `.symtab`, `.strtab`, and with scratch relocations
/// `.rel.text` (its data after `.strtab`'s) with global symbols
/// `SCRATCH_RSRC_DWORD0` and `SCRATCH_RSRC_DWORD1` after the kernels'.
fn inner_elf(
    binary: &GalliumBinary,
    kernels: &[&Kernel],
    relocations: &[ScratchRelocation],
    options: &WriteOptions,
) -> Result<Vec<u8>, GalliumError> {
    let is_64 = binary.is_64bit;
    let word_align = if is_64 { 8 } else { 4 };
    let mut names: Vec<&str> = vec![".text", ".data", ".bss", ".AMDGPU.config"];
    if binary.global_data.is_some() {
        names.push(".rodata");
    }
    names.extend([
        ".comment",
        ".note.GNU-stack",
        ".shstrtab",
        ".symtab",
        ".strtab",
    ]);
    if !relocations.is_empty() {
        names.push(".rel.text");
    }
    let mut shstrtab = vec![0u8];
    let mut name_offsets = Vec::with_capacity(names.len());
    for n in &names {
        name_offsets.push(shstrtab.len() as u32);
        shstrtab.extend_from_slice(n.as_bytes());
        shstrtab.push(0);
    }
    let name_of = |n: &str| -> u32 {
        names
            .iter()
            .position(|x| *x == n)
            .map_or(0, |i| name_offsets[i])
    };

    // The ELF header is written last, into the first 256 bytes.
    let mut out = vec![0u8; 256];
    let mut shdrs = Vec::new();
    let text_off = out.len() as u64;
    out.extend_from_slice(&binary.code);
    shdrs.push(Shdr {
        name: name_of(".text"),
        ty: SHT_PROGBITS,
        flags: SHF_ALLOC | SHF_EXECINSTR,
        offset: text_off,
        size: binary.code.len() as u64,
        link: 0,
        info: 0,
        align: 256,
        entsize: 0,
    });
    align_to(&mut out, 4);
    for (n, ty) in [(".data", SHT_PROGBITS), (".bss", SHT_NOBITS)] {
        shdrs.push(Shdr {
            name: name_of(n),
            ty,
            flags: SHF_WRITE | SHF_ALLOC,
            offset: out.len() as u64,
            size: 0,
            link: 0,
            info: 0,
            align: 4,
            entsize: 0,
        });
    }
    let config_off = out.len() as u64;
    for k in kernels {
        for e in &k.prog_info {
            put32(&mut out, e.address);
            put32(&mut out, e.value);
        }
    }
    shdrs.push(Shdr {
        name: name_of(".AMDGPU.config"),
        ty: SHT_PROGBITS,
        flags: 0,
        offset: config_off,
        size: out.len() as u64 - config_off,
        link: 0,
        info: 0,
        align: 1,
        entsize: 0,
    });
    if let Some(data) = &binary.global_data {
        align_to(&mut out, 4);
        shdrs.push(Shdr {
            name: name_of(".rodata"),
            ty: SHT_PROGBITS,
            flags: SHF_ALLOC,
            offset: out.len() as u64,
            size: data.len() as u64,
            link: 0,
            info: 0,
            align: 4,
            entsize: 0,
        });
        out.extend_from_slice(data);
    }
    shdrs.push(Shdr {
        name: name_of(".comment"),
        ty: SHT_PROGBITS,
        flags: SHF_MERGE | SHF_STRINGS,
        offset: out.len() as u64,
        size: options.comment.len() as u64,
        link: 0,
        info: 0,
        align: 1,
        entsize: 1,
    });
    out.extend_from_slice(options.comment.as_bytes());
    shdrs.push(Shdr {
        name: name_of(".note.GNU-stack"),
        ty: SHT_PROGBITS,
        flags: 0,
        offset: out.len() as u64,
        size: 0,
        link: 0,
        info: 0,
        align: 1,
        entsize: 0,
    });
    let shstrndx = shdrs.len() as u16 + 1;
    shdrs.push(Shdr {
        name: name_of(".shstrtab"),
        ty: SHT_STRTAB,
        flags: 0,
        offset: out.len() as u64,
        size: shstrtab.len() as u64,
        link: 0,
        info: 0,
        align: 1,
        entsize: 0,
    });
    out.extend_from_slice(&shstrtab);

    // Symbols: the null symbol, `EndOfTextLabel`, one per section before
    // `.shstrtab`, then the kernels (global).
    let section_symbols = shdrs.len() - 1;
    let mut strtab = vec![0u8];
    strtab.extend_from_slice(b"EndOfTextLabel\0");
    let mut symbols: Vec<(u32, u64, u8, u16)> = vec![(0, 0, 0, 0)];
    symbols.push((1, binary.code.len() as u64, 0, 1));
    for i in 0..section_symbols {
        symbols.push((0, 0, 3, (i + 1) as u16));
    }
    for k in kernels {
        let name = u32_of(strtab.len(), "the string table")?;
        strtab.extend_from_slice(k.name.as_bytes());
        strtab.push(0);
        symbols.push((name, u64::from(k.offset), 0x10, 1));
    }
    // Global, no type, undefined: what the loader resolves.
    let scratch_symbol = |half: ScratchHalf| symbols.len() + half as usize;
    let scratch_symbols = [
        scratch_symbol(ScratchHalf::Low),
        scratch_symbol(ScratchHalf::High),
    ];
    if !relocations.is_empty() {
        for half in [ScratchHalf::Low, ScratchHalf::High] {
            let name = u32_of(strtab.len(), "the string table")?;
            strtab.extend_from_slice(half.symbol().as_bytes());
            strtab.push(0);
            symbols.push((name, 0, 0x10, 0));
        }
    }

    align_to(&mut out, word_align);
    let shoff = out.len() as u64;
    let rel_count = usize::from(!relocations.is_empty());
    let shnum = shdrs.len() + 3 + rel_count; // + null, .symtab, .strtab[, .rel.text]
    let shentsize = if is_64 { 64 } else { 40 };
    let symentsize = if is_64 { 24 } else { 16 };
    let symtab_off = shoff + (shnum * shentsize) as u64;
    let symtab_size = (symbols.len() * symentsize) as u64;
    let strtab_off = symtab_off + symtab_size;
    let strtab_end = strtab_off + strtab.len() as u64;
    let rel_off = strtab_end.next_multiple_of(word_align as u64);
    let relentsize = if is_64 { 16 } else { 8 };
    let rel_size = (relocations.len() * relentsize) as u64;
    let total = rel_off + rel_size;
    if !is_64 && total > u64::from(u32::MAX) {
        return Err(too_big());
    }
    let symtab_index = (shnum - 2 - rel_count) as u32;
    let strtab_index = symtab_index + 1;
    shdrs.push(Shdr {
        name: name_of(".symtab"),
        ty: SHT_SYMTAB,
        flags: 0,
        offset: symtab_off,
        size: symtab_size,
        link: strtab_index,
        info: 0,
        align: word_align as u64,
        entsize: symentsize as u64,
    });
    shdrs.push(Shdr {
        name: name_of(".strtab"),
        ty: SHT_STRTAB,
        flags: 0,
        offset: strtab_off,
        size: strtab.len() as u64,
        link: 0,
        info: 0,
        align: 1,
        entsize: 0,
    });
    if !relocations.is_empty() {
        shdrs.push(Shdr {
            name: name_of(".rel.text"),
            ty: SHT_REL,
            flags: 0,
            offset: rel_off,
            size: rel_size,
            link: symtab_index,
            info: 1, // .text
            align: word_align as u64,
            entsize: relentsize as u64,
        });
    }
    if shnum > usize::from(u16::MAX) {
        return Err(too_big());
    }

    // Section headers (index 0 is the null header).
    out.resize(out.len() + shentsize, 0);
    for s in &shdrs {
        put32(&mut out, s.name);
        put32(&mut out, s.ty);
        put_word(&mut out, is_64, s.flags);
        put_word(&mut out, is_64, 0); // address
        put_word(&mut out, is_64, s.offset);
        put_word(&mut out, is_64, s.size);
        put32(&mut out, s.link);
        put32(&mut out, s.info);
        put_word(&mut out, is_64, s.align);
        put_word(&mut out, is_64, s.entsize);
    }
    for &(name, value, info, shndx) in &symbols {
        put32(&mut out, name);
        if is_64 {
            out.push(info);
            out.push(0);
            put16(&mut out, shndx);
            put_word(&mut out, true, value);
            put_word(&mut out, true, 0);
        } else {
            put32(&mut out, value as u32);
            put32(&mut out, 0);
            out.push(info);
            out.push(0);
            put16(&mut out, shndx);
        }
    }
    out.extend_from_slice(&strtab);
    if !relocations.is_empty() {
        align_to(&mut out, word_align);
        for r in relocations {
            let symbol = scratch_symbols[r.half as usize] as u64;
            let ty = u64::from(r.half.relocation_type());
            if is_64 {
                put_word(&mut out, true, u64::from(r.offset));
                put_word(&mut out, true, symbol << 32 | ty);
            } else {
                put32(&mut out, r.offset);
                put32(&mut out, (symbol << 8 | ty) as u32);
            }
        }
    }

    let mut header = Vec::with_capacity(64);
    header.extend_from_slice(b"\x7fELF");
    header.push(if is_64 { 2 } else { 1 }); // class
    header.push(1); // little endian
    header.push(1); // ELF version
                    // Mesa 17.0's binaries say AMDGPU (OS ABI 0x40, machine 0xe0).
    header.push(if binary.mesa170 { 0x40 } else { 0 });
    header.resize(16, 0);
    put16(&mut header, 1); // ET_REL
    put16(&mut header, if binary.mesa170 { 0xe0 } else { 0 });
    put32(&mut header, 1);
    put_word(&mut header, is_64, 0); // entry
    put_word(&mut header, is_64, 0); // program headers
    put_word(&mut header, is_64, shoff);
    put32(&mut header, 0); // flags
    put16(&mut header, if is_64 { 64 } else { 52 });
    put16(&mut header, 0);
    put16(&mut header, 0);
    put16(&mut header, shentsize as u16);
    put16(&mut header, shnum as u16);
    put16(&mut header, shstrndx);
    out[..header.len()].copy_from_slice(&header);
    Ok(out)
}
