//! [`RocmInput`] to code-object bytes, through the `object` crate's ELF
//! writer. The layout is the one clrxasm and lld use: the ELF and program
//! headers, `.note`, `.dynsym`, `.hash`, `.dynstr` and `.rodata` in a
//! read-only segment, `.text` in an executable one at the next page,
//! `.dynamic` in a writable one at the page after; addresses equal file
//! offsets.

use object::elf;
use object::write::elf::{FileHeader, ProgramHeader, SectionHeader, Sym, Writer};
use object::Endianness;

use super::descriptor::{KernelDescriptor, KERNEL_DESCRIPTOR_SIZE};
use super::{RocmError, ELFOSABI_AMDGPU_HSA, EM_AMDGPU, STT_AMDGPU_HSA_KERNEL};

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
/// one name.
pub fn write(input: &RocmInput) -> Result<Vec<u8>, RocmError> {
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
    let notes = notes(input)?;

    let mut buffer = Vec::new();
    let mut w = Writer::new(Endianness::Little, true, &mut buffer);
    // The string tables exist even without a kernel (DT_STRTAB needs one).
    w.require_dynstr();
    w.require_strtab();
    // Symbols: v2 one per kernel; v3+ the entry (FUNC) and NAME.kd (OBJECT).
    let kd_names: Vec<Vec<u8>> = input
        .kernels
        .iter()
        .map(|k| format!("{}.kd", k.name).into_bytes())
        .collect();
    let mut dyn_names = Vec::new();
    let mut names = Vec::new();
    for (k, kd) in input.kernels.iter().zip(&kd_names) {
        dyn_names.push(w.add_dynamic_string(k.name.as_bytes()));
        names.push(w.add_string(k.name.as_bytes()));
        if v >= 3 {
            dyn_names.push(w.add_dynamic_string(kd));
            names.push(w.add_string(kd));
        }
    }
    let has_rodata = !input.rodata.is_empty();
    w.reserve_file_header();
    let phnum = 6;
    w.reserve_program_headers(phnum);
    w.reserve_null_section_index();
    let note_name = w.add_section_name(b".note");
    w.reserve_section_index();
    w.reserve_dynsym_section_index();
    w.reserve_hash_section_index();
    w.reserve_dynstr_section_index();
    let rodata_name = w.add_section_name(b".rodata");
    let rodata_index = has_rodata.then(|| w.reserve_section_index());
    let text_name = w.add_section_name(b".text");
    let text_index = w.reserve_section_index();
    w.reserve_dynamic_section_index();
    w.reserve_symtab_section_index();
    w.reserve_strtab_section_index();
    w.reserve_shstrtab_section_index();

    w.reserve_null_dynamic_symbol_index();
    w.reserve_null_symbol_index();
    for _ in &input.kernels {
        w.reserve_dynamic_symbol_index();
        w.reserve_symbol_index(Some(text_index));
        if v >= 3 {
            w.reserve_dynamic_symbol_index();
            w.reserve_symbol_index(rodata_index);
        }
    }
    let note_offset = w.reserve(notes.len(), 4) as u64;
    let dynsym_offset = w.reserve_dynsym() as u64;
    let chain_count = w.dynamic_symbol_count();
    let bucket_count = chain_count.max(1);
    let hash_offset = w.reserve_hash(bucket_count, chain_count) as u64;
    let dynstr_offset = w.reserve_dynstr() as u64;
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
    let dynamic_count = 6;
    w.reserve_dynamic(dynamic_count);
    let dynamic_size = w.reserved_len() as u64 - dynamic_offset;
    w.reserve_symtab();
    w.reserve_strtab();
    w.reserve_shstrtab();
    w.reserve_section_headers();

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
        dynamic_size,
        PAGE,
    ));
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
    let symbols: Vec<Sym> = input
        .kernels
        .iter()
        .flat_map(|k| {
            let mut out = vec![Sym {
                name: None,
                section: Some(text_index),
                st_info: (elf::STB_GLOBAL << 4) | kernel_type,
                st_other: elf::STV_PROTECTED,
                st_shndx: 0,
                st_value: text_offset + k.text_offset,
                st_size: 0,
            }];
            if let Some((off, _)) = &k.descriptor {
                out.push(Sym {
                    name: None,
                    section: rodata_index,
                    st_info: (elf::STB_GLOBAL << 4) | elf::STT_OBJECT,
                    st_other: elf::STV_PROTECTED,
                    st_shndx: 0,
                    st_value: rodata_offset + off,
                    st_size: KERNEL_DESCRIPTOR_SIZE as u64,
                });
            }
            out
        })
        .collect();
    for (sym, name) in symbols.iter().zip(&dyn_names) {
        w.write_dynamic_symbol(&Sym {
            name: Some(*name),
            ..*sym
        });
    }
    let all_names: Vec<&[u8]> = input
        .kernels
        .iter()
        .zip(&kd_names)
        .flat_map(|(k, kd)| {
            let mut n = vec![k.name.as_bytes()];
            if v >= 3 {
                n.push(kd.as_slice());
            }
            n
        })
        .collect();
    w.write_hash(bucket_count, chain_count, |i| {
        // Index 0 is the null symbol.
        let name = all_names.get((i as usize).checked_sub(1)?)?;
        Some(elf::hash(name))
    });
    w.write_dynstr();
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
    w.write_dynamic(elf::DT_NULL, 0);

    w.write_null_symbol();
    for (sym, name) in symbols.iter().zip(&names) {
        w.write_symbol(&Sym {
            name: Some(*name),
            ..*sym
        });
    }
    w.write_strtab();
    w.write_shstrtab();

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
    if has_rodata {
        w.write_section_header(&SectionHeader {
            name: Some(rodata_name),
            sh_type: elf::SHT_PROGBITS,
            sh_flags: u64::from(elf::SHF_ALLOC),
            sh_addr: rodata_offset,
            sh_offset: rodata_offset,
            sh_size: input.rodata.len() as u64,
            sh_link: 0,
            sh_info: 0,
            sh_addralign: 64,
            sh_entsize: 0,
        });
    }
    w.write_section_header(&SectionHeader {
        name: Some(text_name),
        sh_type: elf::SHT_PROGBITS,
        sh_flags: u64::from(elf::SHF_ALLOC | elf::SHF_EXECINSTR),
        sh_addr: text_offset,
        sh_offset: text_offset,
        sh_size: input.text.len() as u64,
        sh_link: 0,
        sh_info: 0,
        sh_addralign: 256,
        sh_entsize: 0,
    });
    w.write_dynamic_section_header(dynamic_offset);
    w.write_symtab_section_header(1);
    w.write_strtab_section_header();
    w.write_shstrtab_section_header();
    debug_assert_eq!(w.reserved_len(), w.len());
    Ok(buffer)
}
