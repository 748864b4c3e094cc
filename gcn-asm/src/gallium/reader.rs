//! Bytes to [`GalliumBinary`]. Every read is bounds-checked: a truncated,
//! inconsistent or otherwise malformed binary is a [`GalliumError`].

use super::{
    ArgSemantic, ArgType, GalliumBinary, GalliumError, Kernel, KernelArg, ProgInfoEntry,
    ScratchHalf, ScratchRelocation,
};

/// A little-endian reader over a byte slice that fails instead of running
/// past the end.
struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], GalliumError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.data.len());
        match end {
            Some(end) => {
                let s = &self.data[self.pos..end];
                self.pos = end;
                Ok(s)
            }
            None => Err(GalliumError::new(format!(
                "the binary is truncated (in {what} at byte {:#x})",
                self.pos
            ))),
        }
    }

    fn u32(&mut self, what: &str) -> Result<u32, GalliumError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// Reads a GalliumCompute binary (old format, ELF32 or ELF64 inside).
pub fn read(bytes: &[u8]) -> Result<GalliumBinary, GalliumError> {
    let mut b = Bytes {
        data: bytes,
        pos: 0,
    };
    let kernel_count = b.u32("the kernel count")?;
    let mut kernels = Vec::new();
    for _ in 0..kernel_count {
        let len = b.u32("a kernel name length")? as usize;
        let name = b.take(len, "a kernel name")?;
        let name = std::str::from_utf8(name)
            .map_err(|_| GalliumError::new("a kernel name is not valid UTF-8"))?
            .to_string();
        let _section = b.u32("a kernel's section id")?;
        let offset = b.u32("a kernel offset")?;
        let arg_count = b.u32("an argument count")?;
        let mut args = Vec::new();
        for _ in 0..arg_count {
            let ty = b.u32("an argument")?;
            let size = b.u32("an argument")?;
            let target_size = b.u32("an argument")?;
            let target_align = b.u32("an argument")?;
            let ext = b.u32("an argument")?;
            let semantic = b.u32("an argument")?;
            let ty = ArgType::from_code(ty).ok_or_else(|| {
                GalliumError::new(format!("kernel '{name}': unknown argument type {ty}"))
            })?;
            let semantic = ArgSemantic::from_code(semantic).ok_or_else(|| {
                GalliumError::new(format!(
                    "kernel '{name}': unknown argument semantic {semantic}"
                ))
            })?;
            if ext > 1 {
                return Err(GalliumError::new(format!(
                    "kernel '{name}': argument extension {ext} is neither zext (0) nor sext (1)"
                )));
            }
            args.push(KernelArg {
                ty,
                size,
                target_size,
                target_align,
                sign_extended: ext == 1,
                semantic,
            });
        }
        kernels.push(Kernel {
            name,
            offset,
            args,
            prog_info: Vec::new(),
        });
    }
    let section_count = b.u32("the section count")?;
    let mut elf = None;
    let mut mesa170 = false;
    for _ in 0..section_count {
        let _id = b.u32("a section header")?;
        let ty = b.u32("a section header")?;
        let size = b.u32("a section header")?;
        let data_len = b.u32("a section header")? as usize;
        let data = b.take(data_len, "section data")?;
        // Text: type 0, or 2 in Mesa 17.0's numbering (as CLRX reads it);
        // other Clover section kinds carry nothing CLRX uses.
        if ty != 0 && ty != 2 {
            continue;
        }
        mesa170 = ty == 2;
        if elf.is_some() {
            return Err(GalliumError::new("the binary has two text sections"));
        }
        if data.len() < 4 {
            return Err(GalliumError::new(
                "the text section is shorter than its header",
            ));
        }
        let inner = u32::from_le_bytes([data[0], data[1], data[2], data[3]]) as usize;
        if inner != data.len() - 4 || size as usize != inner {
            return Err(GalliumError::new(format!(
                "inconsistent text section sizes ({size:#x}, {data_len:#x}, {inner:#x})"
            )));
        }
        elf = Some(&data[4..]);
    }
    if b.pos != bytes.len() {
        return Err(GalliumError::new(format!(
            "{} bytes of garbage after the last section",
            bytes.len() - b.pos
        )));
    }
    let elf = elf.ok_or_else(|| GalliumError::new("the binary has no text section"))?;
    let inner = Elf::parse(elf)?;
    let code = inner
        .section(".text")?
        .ok_or_else(|| GalliumError::new("the inner ELF has no .text section"))?
        .to_vec();
    let config = inner
        .section(".AMDGPU.config")?
        .ok_or_else(|| GalliumError::new("the inner ELF has no .AMDGPU.config section"))?;
    let global_data = inner.section(".rodata")?.map(<[u8]>::to_vec);
    let scratch_relocations = inner.scratch_relocations(code.len())?;
    let entries = if kernels.is_empty() {
        if !config.is_empty() {
            return Err(GalliumError::new(
                ".AMDGPU.config has entries but the binary has no kernel",
            ));
        }
        0
    } else if config.len() == kernels.len() * 24 {
        3
    } else if config.len() == kernels.len() * 40 {
        5
    } else {
        return Err(GalliumError::new(format!(
            ".AMDGPU.config has {} bytes, which is neither 3 nor 5 entries for each of the {} kernels",
            config.len(),
            kernels.len()
        )));
    };
    // `entries` is 0 only when there is no kernel: nothing to split.
    for (k, chunk) in kernels
        .iter_mut()
        .zip(config.chunks_exact((entries * 8).max(1)))
    {
        k.prog_info = chunk
            .chunks_exact(8)
            .map(|e| ProgInfoEntry {
                address: u32::from_le_bytes([e[0], e[1], e[2], e[3]]),
                value: u32::from_le_bytes([e[4], e[5], e[6], e[7]]),
            })
            .collect();
        if k.offset as usize > code.len() {
            return Err(GalliumError::new(format!(
                "kernel '{}' starts at {:#x}, past the end of the code ({:#x} bytes)",
                k.name,
                k.offset,
                code.len()
            )));
        }
    }
    Ok(GalliumBinary {
        is_64bit: inner.is_64,
        mesa170,
        kernels,
        code,
        global_data,
        scratch_relocations,
    })
}

/// The parts of the inner ELF the reader needs.
struct Elf<'a> {
    data: &'a [u8],
    is_64: bool,
    /// (name offset, type, file offset, size, link) of every section.
    sections: Vec<(u32, u32, u64, u64, u32)>,
    /// Offset and size of the section-name string table.
    shstrtab: (u64, u64),
}

fn field(data: &[u8], at: usize, width: usize) -> Result<u64, GalliumError> {
    let bytes = at
        .checked_add(width)
        .and_then(|end| data.get(at..end))
        .ok_or_else(|| GalliumError::new("the inner ELF is truncated"))?;
    let mut v = [0u8; 8];
    v[..width].copy_from_slice(bytes);
    Ok(u64::from_le_bytes(v))
}

impl<'a> Elf<'a> {
    fn parse(data: &'a [u8]) -> Result<Self, GalliumError> {
        if data.len() < 16 || &data[..4] != b"\x7fELF" {
            return Err(GalliumError::new(
                "the text section does not hold an ELF file",
            ));
        }
        let is_64 = match data[4] {
            1 => false,
            2 => true,
            c => return Err(GalliumError::new(format!("unknown ELF class {c}"))),
        };
        if data[5] != 1 {
            return Err(GalliumError::new("the inner ELF is not little-endian"));
        }
        let w = if is_64 { 8 } else { 4 };
        let (shoff_at, rest) = if is_64 { (0x28, 0x3a) } else { (0x20, 0x2e) };
        let shoff = field(data, shoff_at, w)?;
        let shentsize = field(data, rest, 2)? as usize;
        let shnum = field(data, rest + 2, 2)? as usize;
        let shstrndx = field(data, rest + 4, 2)? as usize;
        let min_entsize = if is_64 { 64 } else { 40 };
        if shnum > 0 && shentsize < min_entsize {
            return Err(GalliumError::new(format!(
                "ELF section header size {shentsize} is too small"
            )));
        }
        let mut sections = Vec::with_capacity(shnum.min(data.len() / min_entsize + 1));
        for i in 0..shnum {
            let at = usize::try_from(shoff)
                .ok()
                .and_then(|o| o.checked_add(i * shentsize))
                .ok_or_else(|| GalliumError::new("ELF section headers out of range"))?;
            let name = field(data, at, 4)? as u32;
            let ty = field(data, at + 4, 4)? as u32;
            let offset = field(data, at + 8 + 2 * w, w)?;
            let size = field(data, at + 8 + 3 * w, w)?;
            let link = field(data, at + 8 + 4 * w, 4)? as u32;
            sections.push((name, ty, offset, size, link));
        }
        let &(_, _, so, ss, _) = sections
            .get(shstrndx)
            .ok_or_else(|| GalliumError::new("ELF section-name table index out of range"))?;
        let elf = Elf {
            data,
            is_64,
            sections,
            shstrtab: (so, ss),
        };
        elf.bytes(so, ss)?;
        Ok(elf)
    }

    fn bytes(&self, offset: u64, size: u64) -> Result<&'a [u8], GalliumError> {
        let start = usize::try_from(offset).ok();
        let end = offset
            .checked_add(size)
            .and_then(|e| usize::try_from(e).ok());
        match (start, end) {
            (Some(s), Some(e)) if e <= self.data.len() => Ok(&self.data[s..e]),
            _ => Err(GalliumError::new(format!(
                "an ELF section ({offset:#x}+{size:#x}) lies outside the file"
            ))),
        }
    }

    fn name(&self, offset: u32) -> Result<&'a [u8], GalliumError> {
        let table = self.bytes(self.shstrtab.0, self.shstrtab.1)?;
        let rest = table
            .get(offset as usize..)
            .ok_or_else(|| GalliumError::new("ELF section name out of range"))?;
        let end = rest
            .iter()
            .position(|&c| c == 0)
            .ok_or_else(|| GalliumError::new("unterminated ELF section name"))?;
        Ok(&rest[..end])
    }

    /// The contents of the section called `name`, if there is one.
    fn section(&self, name: &str) -> Result<Option<&'a [u8]>, GalliumError> {
        const SHT_NOBITS: u32 = 8;
        for &(n, ty, offset, size, _) in &self.sections {
            if self.name(n)? == name.as_bytes() {
                if ty == SHT_NOBITS {
                    return Ok(Some(&[]));
                }
                return self.bytes(offset, size).map(Some);
            }
        }
        Ok(None)
    }

    /// The scratch relocations of `.rel.text` (none without one): entries
    /// against `SCRATCH_RSRC_DWORD0` (low half) or `SCRATCH_RSRC_DWORD1`
    /// (high half), as CLRX and LLVM write them and Mesa reads them (by
    /// symbol name; the relocation type is not checked), each on a word
    /// inside the code of `code_len` bytes.
    fn scratch_relocations(&self, code_len: usize) -> Result<Vec<ScratchRelocation>, GalliumError> {
        const SHT_SYMTAB: u32 = 2;
        const SHT_REL: u32 = 9;
        let mut found = None;
        for &(n, ty, offset, size, link) in &self.sections {
            if self.name(n)? == b".rel.text" {
                if ty != SHT_REL {
                    return Err(GalliumError::new(
                        ".rel.text is not a relocation (SHT_REL) section",
                    ));
                }
                found = Some((offset, size, link));
                break;
            }
        }
        let Some((offset, size, link)) = found else {
            return Ok(Vec::new());
        };
        let entries = self.bytes(offset, size)?;
        let w = if self.is_64 { 8 } else { 4 };
        if entries.len() % (2 * w) != 0 {
            return Err(GalliumError::new(format!(
                ".rel.text has {} bytes, not a whole number of relocations",
                entries.len()
            )));
        }
        let &(_, symtab_ty, sym_off, sym_size, str_link) =
            self.sections.get(link as usize).ok_or_else(|| {
                GalliumError::new(".rel.text links to a symbol table that does not exist")
            })?;
        if symtab_ty != SHT_SYMTAB {
            return Err(GalliumError::new(
                ".rel.text links to a section that is not a symbol table",
            ));
        }
        let symtab = self.bytes(sym_off, sym_size)?;
        let &(_, _, str_off, str_size, _) =
            self.sections.get(str_link as usize).ok_or_else(|| {
                GalliumError::new("the symbol table links to a string table that does not exist")
            })?;
        let strtab = self.bytes(str_off, str_size)?;
        let sym_size = if self.is_64 { 24 } else { 16 };
        let mut out = Vec::with_capacity(entries.len() / (2 * w));
        for entry in entries.chunks_exact(2 * w) {
            let r_offset = field(entry, 0, w)?;
            let info = field(entry, w, w)?;
            let symbol = if self.is_64 { info >> 32 } else { info >> 8 };
            let name_at = usize::try_from(symbol)
                .ok()
                .and_then(|s| s.checked_mul(sym_size))
                .filter(|&at| at + sym_size <= symtab.len())
                .ok_or_else(|| {
                    GalliumError::new(format!(
                        "a relocation names symbol {symbol}, past the symbol table"
                    ))
                })?;
            let name_offset = field(symtab, name_at, 4)? as usize;
            let name = strtab
                .get(name_offset..)
                .and_then(|rest| rest.iter().position(|&c| c == 0).map(|e| &rest[..e]))
                .ok_or_else(|| GalliumError::new("a relocation's symbol name is out of range"))?;
            let half = ScratchHalf::from_symbol(name).ok_or_else(|| {
                GalliumError::new(format!(
                    "relocation against symbol '{}': only SCRATCH_RSRC_DWORD0 and SCRATCH_RSRC_DWORD1 are supported",
                    String::from_utf8_lossy(name)
                ))
            })?;
            let offset = u32::try_from(r_offset)
                .ok()
                .filter(|&o| u64::from(o) + 4 <= code_len as u64)
                .ok_or_else(|| {
                    GalliumError::new(format!(
                        "scratch relocation at {r_offset:#x} is not inside the code ({code_len:#x} bytes)"
                    ))
                })?;
            out.push(ScratchRelocation { offset, half });
        }
        out.sort();
        if let Some(pair) = out.windows(2).find(|p| p[0].offset == p[1].offset) {
            return Err(GalliumError::new(format!(
                "two scratch relocations at {:#x}",
                pair[0].offset
            )));
        }
        Ok(out)
    }
}
