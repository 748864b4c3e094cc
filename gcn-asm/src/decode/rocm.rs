//! A code object back to CLRX ROCm source, in the spirit of `clrxdisasm
//! -C`: a listing that `gcnasm -b rocm` (and [`crate::assemble`]) turns into
//! an equivalent code object (the same version, processor, `e_flags`,
//! kernels with every descriptor or `amd_kernel_code_t` field, metadata,
//! global data and code, as [`crate::rocm::read`] sees them).
//!
//! The listing has `.rocm`, `.gpu`, `.arch_minor`/`.arch_stepping`,
//! `.eflags`, `.llvm10binfmt`/`.metadatav3` for code objects v3+, the ISA
//! name (`.target`) of a v2 object, the metadata note as raw `.metadata`
//! bytes (exact whatever the compiler put there), `.globaldata`, each
//! kernel's `.config` (after `.fkernel` for a function kernel, whose v3+
//! `.config` is that of the descriptor slot it has no symbol for; the
//! register counts, `.pgmrsrc1/2/3` as read, the
//! `.use_*` flags and, for v2, every `amd_kernel_code_t` field and the
//! `.control_directive`), then `.text` with a label at each kernel symbol,
//! `.skip 256` where a v2 kernel's `amd_kernel_code_t` lies, and the
//! disassembled code.
//!
//! Global data and relocations as clrxdisasm writes them, with what a
//! loader-ready code object from LLVM needs besides: `.gdata:` at the start
//! of `.globaldata` and `.wdata:` at the start of `.section .data, "aw"`
//! (writable data); each `R_AMDGPU_RELATIVE64` relocation as `.quad
//! .gdata+OFF` (or `.wdata+OFF`) at the place it patches; the GOT as
//! `.gotsym SYM, .gotN` (its symbol `.global` and defined at its place);
//! and each PC-relative reference of the code to global data
//! ([`pc_references`]) as section differences
//! (`(.gdata+0x40-.Lpc_104)&0xffffffff`, `…>>32`), which the assembler
//! resolves against its own layout, so the reassembled code reaches the
//! same data.
//!
//! What CLRX source cannot say is an error naming it: other relocations,
//! data sections other than `.rodata`, `.data` and `.got` (`.bss`), v3+
//! descriptors that are not 64-byte slots at the start of `.rodata`,
//! reserved property bits.

use std::fmt::Write;

use super::{disassemble, words_from_bytes};
use crate::rocm::{
    AmdKernelCode, CodeObject, KernelDescriptor, MetadataFormat, ProcessorInfo, RocmError,
    RocmKernel, RocmSection,
};
use crate::{Device, GcnVersion};

/// The device a listing names for `processor` (`.gpu`), with its GCN
/// version; the exact ISA version follows in `.arch_minor`/`.arch_stepping`.
pub fn device_for(info: &ProcessorInfo) -> Device {
    if let Some(d) = Device::from_name(info.name) {
        return d;
    }
    match info.isa {
        (6, 0, 0) => Device::Tahiti,
        (6, 0, 1) => Device::Pitcairn,
        (6, 0, _) => Device::Oland,
        (7, 0, 0) => Device::Spectre,
        (7, 0, 1) | (7, 0, 2) => Device::Hawaii,
        (7, 0, 3) => Device::Kalindi,
        (7, 0, 5) => Device::Mullins,
        (7, 0, _) => Device::Bonaire,
        (8, 0, 1) => Device::Carrizo,
        (8, 0, 2) | (8, 0, 5) => Device::Tonga,
        (8, 1, _) => Device::Stoney,
        (8, _, _) => Device::Fiji,
        (10, 1, 1) | (10, 1, 2) => Device::Gfx1011,
        (10, 1, _) => Device::Gfx1010,
        (10, 3, 1) => Device::Gfx1031,
        (10, 3, 2) => Device::Gfx1032,
        (10, 3, 3) => Device::Gfx1033,
        (10, 3, 4) => Device::Gfx1034,
        (10, 3, 5) => Device::Gfx1035,
        (10, 3, 6) => Device::Gfx1036,
        (10, 3, _) => Device::Gfx1030,
        _ => match info.version {
            GcnVersion::Gcn1_4_1 => Device::Gfx906,
            _ => Device::Gfx900,
        },
    }
}

/// The code decoded with each kernel's wave size (GCN 1.5+): the code from
/// a kernel's entry to the next kernel's is in that kernel's mode (its
/// descriptor's wave32 bit), as the assembler reads it back (a kernel's
/// label switches the mode). Code before the first kernel is wave64.
/// Instruction lengths do not depend on the mode, so both decodings split
/// the words alike and each item is taken from the one its kernel asks for.
fn decode_by_wave_size(
    words: &[u32],
    version: GcnVersion,
    mut starts: Vec<(u64, bool)>,
) -> super::Listing<'_> {
    let wave64 = disassemble(words, version);
    if !version.is_gcn15() || starts.iter().all(|&(_, w)| !w) {
        return wave64;
    }
    starts.sort();
    let wave32 = super::disassemble_with(words, version, super::DecodeOptions { wave32: true });
    let wave32_at = |offset: u64| {
        starts
            .iter()
            .rev()
            .find(|&&(start, _)| start <= offset)
            .is_some_and(|&(_, w)| w)
    };
    let items = wave64
        .items
        .iter()
        .zip(&wave32.items)
        .map(|(a, b)| if wave32_at(a.offset) { *b } else { *a })
        .collect();
    super::Listing {
        words,
        version,
        items,
    }
}

fn err(at: impl Into<String>, message: impl Into<String>) -> RocmError {
    RocmError::new(at, message)
}

/// Writes `bytes` as `.byte` lines of 16 values.
fn write_bytes(out: &mut String, bytes: &[u8]) {
    for chunk in bytes.chunks(16) {
        out.push_str("    .byte ");
        for (i, b) in chunk.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "{b:#04x}");
        }
        out.push('\n');
    }
}

/// Writes YAML text as `.ascii` lines, one per line of text.
fn write_ascii(out: &mut String, bytes: &[u8]) {
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        out.push_str("    .ascii \"");
        for &b in line {
            match b {
                b'"' => out.push_str("\\\""),
                b'\\' => out.push_str("\\\\"),
                b'\n' => out.push_str("\\n"),
                0x20..=0x7e => out.push(b as char),
                _ => {
                    let _ = write!(out, "\\{b:03o}");
                }
            }
        }
        out.push_str("\"\n");
    }
}

/// True when `name` can be written as a label.
fn is_symbol(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$')
}

/// The expression a listing writes for `offset` in a data section: from
/// the label at its start, `.gdata` (CLRX's, at `.globaldata`), `.wdata`
/// (at `.section .data`), `.bdata` (at `.section .bss`), or the `.gotsym`
/// entry `.gotN`.
fn place_expr(section: RocmSection, offset: u64) -> String {
    match section {
        RocmSection::Text => format!("{offset:#x}"),
        RocmSection::Rodata => format!(".gdata+{offset:#x}"),
        RocmSection::Data => format!(".wdata+{offset:#x}"),
        RocmSection::Bss => format!(".bdata+{offset:#x}"),
        RocmSection::Got => format!(".got{}+{:#x}", offset / 8, offset % 8),
    }
}

/// The section and offset of virtual address `vaddr` among `.rodata`,
/// `.data`, `.bss` and `.got` (an address just past a section's end counts
/// as in it when it is in no section).
pub fn data_place(co: &CodeObject, vaddr: u64) -> Option<(RocmSection, u64)> {
    let all = [
        RocmSection::Rodata,
        RocmSection::Data,
        RocmSection::Bss,
        RocmSection::Got,
    ];
    let find = |end_too: bool| {
        all.iter().find_map(|&s| {
            let (start, len) = co.section_range(s)?;
            let off = vaddr.checked_sub(start)?;
            (off < len || (end_too && off == len)).then_some((s, off))
        })
    };
    find(false).or_else(|| find(true))
}

/// A PC-relative reference of the code to global data: LLVM's
/// `s_getpc_b64 s[N:N+1]` followed by `s_add_u32 sN, sN, LO` and
/// `s_addc_u32 sN+1, sN+1, HI` with 32-bit literals, whose sum (the address
/// after `s_getpc_b64` plus HI:LO) lies in `.rodata`, `.data`, `.bss` or
/// `.got`.
/// The literals depend on the layout; a listing writes them as section
/// differences (`(.gdata+0x40-.Lpc_104)&0xffffffff`, `…>>32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PcReference {
    /// The offset in `.text` of the `s_getpc_b64`; the literals are at
    /// +8 and +16.
    pub getpc: u64,
    /// Where it points.
    pub target: (RocmSection, u64),
}

/// The [`PcReference`]s of a code object's `.text` (v2 `amd_kernel_code_t`
/// areas excluded).
pub fn pc_references(co: &CodeObject) -> Vec<PcReference> {
    let Some(text) = &co.text else {
        return Vec::new();
    };
    let mut code = text.data.clone();
    if co.code_object_version == 2 {
        for k in &co.kernels {
            if let Some(at) = k.descriptor_vaddr.and_then(|d| d.checked_sub(text.vaddr)) {
                let at = at as usize;
                if let Some(h) = code.get_mut(at..at + crate::rocm::AMD_KERNEL_CODE_SIZE) {
                    h.fill(0);
                }
            }
        }
    }
    let whole = code.len() / 4 * 4;
    let words = words_from_bytes(&code[..whole]);
    let listing = disassemble(&words, co.processor.version);
    let mut out = Vec::new();
    let reg = |o: &super::Operand| match *o {
        super::Operand::Reg { code, count: 1 } => Some(code),
        _ => None,
    };
    for w in listing.items.windows(3) {
        let [super::Item::Instruction(a), super::Item::Instruction(b), super::Item::Instruction(c)] =
            [w[0].item, w[1].item, w[2].item]
        else {
            continue;
        };
        let (Some(&super::Operand::Reg { code: r, count: 2 }), "s_getpc_b64") =
            (a.operands().first(), a.row.mnemonic)
        else {
            continue;
        };
        if b.row.mnemonic != "s_add_u32" || c.row.mnemonic != "s_addc_u32" {
            continue;
        }
        let (bo, co_) = (b.operands(), c.operands());
        let (Some(&super::Operand::Literal(lo)), Some(&super::Operand::Literal(hi))) =
            (bo.get(2), co_.get(2))
        else {
            continue;
        };
        let same = |ops: &[super::Operand], r: u16| {
            ops.len() == 3 && reg(&ops[0]) == Some(r) && reg(&ops[1]) == Some(r)
        };
        if !same(bo, r)
            || !same(co_, r + 1)
            || w[1].offset != w[0].offset + 4
            || w[2].offset != w[0].offset + 12
        {
            continue;
        }
        let delta = (u64::from(hi) << 32 | u64::from(lo)) as i64;
        let target = (text.vaddr + w[0].offset + 4).wrapping_add_signed(delta);
        if let Some(place) = data_place(co, target) {
            out.push(PcReference {
                getpc: w[0].offset,
                target: place,
            });
        }
    }
    out
}

/// What the listing writes for the dynamic relocations: the `.quad`
/// expression at each relocated 8 bytes of `.rodata`/`.data` (by section
/// and offset), and the symbol of each GOT entry. Errors name relocations
/// that CLRX source cannot write.
struct Relocations {
    quads: Vec<((RocmSection, u64), String)>,
    got: Vec<String>,
}

fn relocations(co: &CodeObject) -> Result<Relocations, RocmError> {
    use crate::rocm::RelocKind;
    let got_len = co.got.as_ref().map_or(0, |g| g.data.len() as u64);
    if !got_len.is_multiple_of(8) {
        return Err(err(
            "section .got",
            "its size is not a multiple of 8 (GOT entries)",
        ));
    }
    let mut got: Vec<Option<String>> = vec![None; (got_len / 8) as usize];
    let mut quads = Vec::new();
    for r in &co.dynamic_relocations {
        let at = format!("the dynamic relocation at {:#x}", r.offset);
        let place = data_place(co, r.offset)
            .filter(|(s, o)| {
                co.section(*s)
                    .is_some_and(|d| o + 8 <= d.data.len() as u64)
            })
            .ok_or_else(|| {
                err(
                    &at,
                    "it does not patch 8 bytes of .rodata, .data or .got (CLRX source writes relocations only there)",
                )
            })?;
        match (r.kind, place, &r.symbol) {
            (RelocKind::Relative64, (s, o), None) if s != RocmSection::Got => {
                let target = u64::try_from(r.addend)
                    .ok()
                    .and_then(|a| data_place(co, a))
                    .ok_or_else(|| {
                        err(
                            &at,
                            format!(
                                "its target {:#x} is not in .rodata, .data, .bss or .got",
                                r.addend
                            ),
                        )
                    })?;
                quads.push(((s, o), place_expr(target.0, target.1)));
            }
            (RelocKind::Abs64, (RocmSection::Got, o), Some(sym)) if r.addend == 0 && o % 8 == 0 => {
                if !is_symbol(sym) {
                    return Err(err(&at, format!("its symbol {sym:?} cannot be written")));
                }
                got[(o / 8) as usize] = Some(sym.clone());
            }
            (kind, (s, o), _) => {
                return Err(err(
                    &at,
                    format!(
                        "a {kind:?} relocation at {}+{o:#x} cannot be written in CLRX source (only RELATIVE64 in .rodata/.data and ABS64 GOT entries, .gotsym)",
                        s.name()
                    ),
                ))
            }
        }
    }
    let got = got
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            s.ok_or_else(|| {
                err(
                    "section .got",
                    format!(
                        "GOT entry {i} has no ABS64 relocation (CLRX's .gotsym entries all do)"
                    ),
                )
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(Relocations { quads, got })
}

/// Writes `bytes` (section offsets from `start`) as `.byte` lines, with a
/// `.quad EXPR` for each relocated 8 bytes.
fn write_data(out: &mut String, bytes: &[u8], start: u64, quads: &[(u64, &str)]) {
    let mut at = 0usize;
    let mut slots: Vec<&(u64, &str)> = quads
        .iter()
        .filter(|(o, _)| *o >= start && *o + 8 <= start + bytes.len() as u64)
        .collect();
    slots.sort();
    for (o, expr) in slots {
        let o = (o - start) as usize;
        if o < at {
            continue;
        }
        write_bytes(out, &bytes[at..o]);
        let _ = writeln!(out, "    .quad {expr}");
        at = o + 8;
    }
    write_bytes(out, &bytes[at..]);
}

/// The listing of a code object. Errors name what CLRX source cannot
/// express.
///
/// The metadata is written with the metadata pseudo-ops (`.md_version`,
/// `.printf`, and in each `.config` `.md_*`, `.arg` …, as `clrxdisasm -C`
/// does) when they give back the very same metadata tree (checked by
/// assembling the listing), else as the raw note (`.metadata`): compilers
/// write keys that CLRX has no pseudo-op for.
pub fn listing(co: &CodeObject) -> Result<String, RocmError> {
    if co.metadata.is_some() {
        if let Ok(text) = listing_with(co, true) {
            let options = crate::AssembleOptions {
                format: crate::syntax::assembler::BinaryFormat::Rocm,
                ..crate::AssembleOptions::default()
            };
            let same = crate::assemble(&text, &options)
                .ok()
                .and_then(|a| a.rocm_bytes().ok())
                .and_then(|b| crate::rocm::read(&b).ok())
                .is_some_and(|back| {
                    back.metadata.as_ref().map(|m| &m.root) == co.metadata.as_ref().map(|m| &m.root)
                });
            if same {
                return Ok(text);
            }
        }
    }
    listing_with(co, false)
}

/// The listing, with the metadata as pseudo-ops (`md_ops`) or raw.
fn listing_with(co: &CodeObject, md_ops: bool) -> Result<String, RocmError> {
    let info = ProcessorInfo::from_name(&co.processor.name).ok_or_else(|| {
        err(
            "the code object",
            format!("processor {} has no CLRX device", co.processor.name),
        )
    })?;
    let device = device_for(info);
    let v2 = co.code_object_version == 2;
    let (_, minor, mut stepping) = info.isa;
    // Code object v2 names XNACK by the odd stepping (gfx901 = gfx900 + XNACK).
    if v2 && co.processor.xnack == Some(true) && stepping % 2 == 0 {
        stepping += 1;
    }
    let relocs = relocations(co)?;
    if let Some(s) = co
        .other_sections
        .iter()
        .find(|s| !matches!(s.as_str(), ".data" | ".bss" | ".got"))
    {
        return Err(err(
            format!("section {s}"),
            "CLRX ROCm source has only .text, .rodata (.globaldata), .data, .bss and .got (.gotsym) for contents",
        ));
    }
    let pc_refs = pc_references(co);
    let text = co.text.clone().unwrap_or(crate::rocm::SectionData {
        vaddr: 0,
        data: Vec::new(),
    });
    let mut names = std::collections::HashSet::new();
    for k in &co.kernels {
        if !is_symbol(&k.name) || k.name.starts_with(".L") {
            return Err(err(
                format!("kernel {:?}", k.name),
                "its name cannot be written as a label",
            ));
        }
        names.insert(k.name.as_str());
    }
    // Kernels in the order their descriptors lie (v3+: slot i of .rodata).
    let rodata = co.rodata.clone();
    let kernels = kernel_order(co)?;
    let kernels: Vec<&RocmKernel> = kernels.iter().collect();
    let symbol_offset = |k: &RocmKernel| -> Result<u64, RocmError> {
        let at = match (v2, k.descriptor_vaddr) {
            (true, Some(d)) => d,
            _ => k.entry,
        };
        at.checked_sub(text.vaddr)
            .filter(|&o| o + if v2 { 256 } else { 0 } <= text.data.len() as u64)
            .ok_or_else(|| {
                err(
                    format!("kernel `{}`", k.name),
                    "its symbol is not inside .text",
                )
            })
    };

    let mut out = String::new();
    let _ = writeln!(out, ".rocm\n.gpu {}", device.name());
    let _ = writeln!(
        out,
        ".arch_minor {minor}\n.arch_stepping {stepping}\n.eflags {:#x}",
        co.e_flags
    );
    let yaml = co
        .metadata
        .as_ref()
        .is_some_and(|m| m.format == crate::rocm::MetadataFormat::Yaml);
    if !v2 {
        // clrxasm's `.llvm10binfmt` alone keeps YAML metadata.
        out.push_str(if yaml {
            ".llvm10binfmt\n"
        } else {
            ".llvm10binfmt\n.metadatav3\n"
        });
    } else {
        if co.new_format {
            out.push_str(".newbinfmt\n");
        }
        if let Some(t) = &co.target {
            out.push_str(".target \"");
            write_escaped(&mut out, t);
            out.push_str("\"\n");
        }
    }
    if let (true, Some(md)) = (md_ops, &co.metadata) {
        let (a, b) = md
            .version()
            .ok_or_else(|| err("the metadata", "it has no version"))?;
        let _ = writeln!(out, ".md_version {a}, {b}");
        for p in &co.printf_formats {
            let _ = write!(out, ".printf {}", p.id);
            for z in &p.arg_sizes {
                let _ = write!(out, ", {z}");
            }
            out.push_str(", \"");
            write_escaped(&mut out, &p.format);
            out.push_str("\"\n");
        }
    } else if let Some(md) = &co.metadata {
        out.push_str(".metadata\n");
        match md.format {
            MetadataFormat::Yaml => write_ascii(&mut out, &md.raw),
            MetadataFormat::MsgPack => {
                // The bytes are what is assembled; the tree, as YAML in
                // comments, is for the reader.
                if let Ok(yaml) = md.root.to_yaml() {
                    for l in yaml.lines() {
                        let _ = writeln!(out, "    # {l}");
                    }
                }
                write_bytes(&mut out, &md.raw)
            }
        }
    }
    // GOT entries, as clrxdisasm writes them: a global symbol at its
    // place, then `.gotsym` (with the entry's address as `.gotN`).
    let mut text_symbols: Vec<(u64, String)> = Vec::new();
    for (i, name) in relocs.got.iter().enumerate() {
        // A GOT symbol is global, a kernel's too (clrxasm wants it so).
        let _ = writeln!(out, ".global {name}");
        if !names.contains(name.as_str()) {
            let (value, absolute) = co
                .dynamic_relocations
                .iter()
                .find(|r| r.symbol.as_ref() == Some(name))
                .map_or((0, false), |r| (r.symbol_value, r.symbol_absolute));
            if absolute {
                let _ = writeln!(out, "{name} = {value:#x}");
                let _ = writeln!(out, ".gotsym {name}, .got{i}");
                continue;
            }
            match data_place(co, value) {
                Some((s, o)) => {
                    let _ = writeln!(out, "{name} = {}", place_expr(s, o));
                }
                None => {
                    let o = value
                        .checked_sub(text.vaddr)
                        .filter(|&o| o <= text.data.len() as u64)
                        .ok_or_else(|| {
                            err(
                                format!("GOT symbol `{name}`"),
                                format!("its address {value:#x} is in no section CLRX source has"),
                            )
                        })?;
                    if !text_symbols.iter().any(|(_, n)| n == name) {
                        text_symbols.push((o, name.clone()));
                    }
                }
            }
        }
        let _ = writeln!(out, ".gotsym {name}, .got{i}");
    }
    let quads = |section: RocmSection| -> Vec<(u64, &str)> {
        relocs
            .quads
            .iter()
            .filter(|((s, _), _)| *s == section)
            .map(|((_, o), e)| (*o, e.as_str()))
            .collect()
    };
    if let Some(r) = rodata.as_ref().filter(|r| !r.data.is_empty()) {
        out.push_str(".globaldata\n.gdata:\n");
        // v3+: the descriptor slots, which the assembler fills from `.config`.
        let slots = if v2 {
            0
        } else {
            (64 * kernels.len()).min(r.data.len())
        };
        if let Some((o, _)) = quads(RocmSection::Rodata)
            .iter()
            .find(|(o, _)| *o < slots as u64)
        {
            return Err(err(
                format!("the dynamic relocation at .rodata+{o:#x}"),
                "it patches a kernel descriptor",
            ));
        }
        if slots > 0 {
            let _ = writeln!(out, "    .skip {slots}");
        }
        write_data(
            &mut out,
            &r.data[slots..],
            slots as u64,
            &quads(RocmSection::Rodata),
        );
    }
    if let Some(d) = &co.data {
        out.push_str(".section .data, \"aw\"\n.wdata:\n");
        write_data(&mut out, &d.data, 0, &quads(RocmSection::Data));
    }
    if let Some((_, size)) = co.bss {
        let _ = writeln!(out, ".section .bss, \"aw\"\n.bdata:\n    .skip {size}");
    }
    for k in &kernels {
        write_config(&mut out, k, device.version())?;
        if md_ops {
            write_md(&mut out, k, co)?;
        }
    }
    out.push_str(".text\n");
    let mut labels: Vec<(u64, &str)> = Vec::new();
    let mut headers = Vec::new();
    for k in &kernels {
        let o = symbol_offset(k)?;
        labels.push((o, k.name.as_str()));
        if v2 {
            headers.push(o);
        }
    }
    for (o, name) in &text_symbols {
        labels.push((*o, name.as_str()));
    }
    // The PC-relative references: a label after each s_getpc_b64, the
    // literals as section differences (their words 0 in the comments:
    // the layout decides them).
    let pc_labels: Vec<String> = pc_refs
        .iter()
        .map(|r| format!(".Lpc_{:x}", r.getpc + 4))
        .collect();
    let mut literals: Vec<(u64, String)> = Vec::new();
    for (r, label) in pc_refs.iter().zip(&pc_labels) {
        labels.push((r.getpc + 4, label.as_str()));
        let target = place_expr(r.target.0, r.target.1);
        literals.push((r.getpc + 8, format!("({target}-{label})&0xffffffff")));
        literals.push((r.getpc + 16, format!("({target}-{label})>>32")));
    }
    labels.sort();
    let literals: Vec<(u64, &str)> = literals.iter().map(|(o, e)| (*o, e.as_str())).collect();
    let mut code = text.data.clone();
    for &h in &headers {
        code[h as usize..h as usize + 256].fill(0);
    }
    for (o, _) in &literals {
        code[*o as usize..*o as usize + 4].fill(0);
    }
    let whole = code.len() / 4 * 4;
    let words = words_from_bytes(&code[..whole]);
    let mut starts: Vec<(u64, bool)> = Vec::new();
    for k in &kernels {
        starts.push((symbol_offset(k)?, k.descriptor.wave32()));
    }
    let decoded = decode_by_wave_size(&words, device.version(), starts);
    let mut body = String::new();
    decoded
        .write_with_symbols(&mut body, &labels, &literals)
        .map_err(|_| err("the listing", "cannot format it"))?;
    // The amd_kernel_code_t areas: `.skip 256` (the writer fills them).
    // Label lines wait for the next instruction line to know where they are.
    let mut skipping: Option<u64> = None;
    let mut pending: Vec<&str> = Vec::new();
    for line in body.lines() {
        let Some(o) = line
            .strip_prefix("/*")
            .and_then(|l| l.get(..8))
            .and_then(|h| u64::from_str_radix(h, 16).ok())
        else {
            pending.push(line);
            continue;
        };
        match headers.iter().copied().find(|&h| o >= h && o < h + 256) {
            Some(h) if skipping == Some(h) => {
                if let Some(label) = pending.first() {
                    return Err(err(
                        "the listing",
                        format!("label {label} lies inside the amd_kernel_code_t at {h:#x}"),
                    ));
                }
            }
            Some(h) => {
                if o != h {
                    return Err(err(
                        "the listing",
                        format!("an instruction runs into the amd_kernel_code_t at {h:#x}"),
                    ));
                }
                for l in pending.drain(..) {
                    out.push_str(l);
                    out.push('\n');
                }
                skipping = Some(h);
                out.push_str(".skip 256\n");
            }
            None => {
                skipping = None;
                for l in pending.drain(..).chain([line]) {
                    out.push_str(l);
                    out.push('\n');
                }
            }
        }
    }
    for l in pending {
        out.push_str(l);
        out.push('\n');
    }
    write_bytes(&mut out, &code[whole..]);
    Ok(out)
}

/// The kernels in the order of their descriptors, which is the order of
/// their `.kernel`s in the source: v2 by the address of the
/// `amd_kernel_code_t`; v3+ by slot, each descriptor in one of the 64-byte
/// slots at the start of `.rodata` (slot i for the i-th kernel), where CLRX
/// source puts them. A v3+ function kernel (`.fkernel`) has no descriptor
/// symbol, but the assembler still fills a slot from its `.config`: the
/// function kernels take the slots no descriptor symbol names, in the
/// order of their entries, and come back with the descriptor of that
/// slot, whose `.config` gives the same bytes again.
fn kernel_order(co: &CodeObject) -> Result<Vec<RocmKernel>, RocmError> {
    let mut kernels: Vec<RocmKernel> = co.kernels.clone();
    if co.code_object_version == 2 {
        kernels.sort_by_key(|k| k.descriptor_vaddr);
        return Ok(kernels);
    }
    let n = kernels.len();
    let mut slots: Vec<Option<RocmKernel>> = vec![None; n];
    let mut functions = Vec::new();
    for k in kernels {
        let Some(vaddr) = k.descriptor_vaddr else {
            functions.push(k);
            continue;
        };
        let slot = co
            .rodata
            .as_ref()
            .and_then(|r| vaddr.checked_sub(r.vaddr))
            .filter(|o| o % 64 == 0)
            .and_then(|o| usize::try_from(o / 64).ok())
            .filter(|&i| i < n && slots[i].is_none());
        match slot {
            Some(i) => slots[i] = Some(k),
            None => {
                return Err(err(
                    format!("kernel `{}`", k.name),
                    "its descriptor is not in slot i of the 64-byte slots at the start of .rodata, where CLRX source puts them",
                ))
            }
        }
    }
    functions.sort_by(|a, b| (a.entry, &a.name).cmp(&(b.entry, &b.name)));
    let mut functions = functions.into_iter();
    for (i, slot) in slots.iter_mut().enumerate() {
        if slot.is_some() {
            continue;
        }
        // As many free slots as function kernels: one each.
        let Some(mut k) = functions.next() else {
            break;
        };
        let bytes = co
            .rodata
            .as_ref()
            .and_then(|r| r.data.get(64 * i..64 * (i + 1)));
        k.descriptor = bytes.and_then(KernelDescriptor::from_bytes).ok_or_else(|| {
            err(
                format!("kernel `{}`", k.name),
                format!("a function kernel with no descriptor, listed with the descriptor slot {i} of .rodata, which .rodata does not have (CLRX source fills one slot per kernel)"),
            )
        })?;
        *slot = Some(k);
    }
    Ok(slots.into_iter().flatten().collect())
}

fn write_escaped(out: &mut String, s: &str) {
    for b in s.bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
}

/// Writes `.kernel NAME` and its `.config`.
/// The letters of a dimension mask: bit 0 `x`, 1 `y`, 2 `z`.
fn dim_letters(mask: u32) -> String {
    [(1, 'x'), (2, 'y'), (4, 'z')]
        .iter()
        .filter(|(b, _)| mask & b != 0)
        .map(|(_, c)| *c)
        .collect()
}

fn write_config(out: &mut String, k: &RocmKernel, version: GcnVersion) -> Result<(), RocmError> {
    let at = format!("kernel `{}`", k.name);
    let d: &KernelDescriptor = &k.descriptor;
    let _ = writeln!(out, ".kernel {}", k.name);
    if k.function {
        out.push_str("    .fkernel\n");
    }
    out.push_str("    .config\n");
    let mut line = |s: String| {
        out.push_str("        ");
        out.push_str(&s);
        out.push('\n');
    };
    // The dimensions, from PGM_RSRC2 (as clrxdisasm prints them): the
    // assembler sets those bits from `.dims` alone.
    let rsrc2 = d.compute_pgm_rsrc2;
    let group = rsrc2 >> 7 & 7;
    let local = match rsrc2 >> 11 & 3 {
        0 => 1,
        1 => 3,
        _ => 7,
    };
    if group == local {
        line(format!(".dims {}", dim_letters(group)));
    } else {
        line(format!(
            ".dims {}, {}",
            dim_letters(group),
            dim_letters(local)
        ));
    }
    // Counts whose granules are those of PGM_RSRC1 (the smallest such).
    // The assembler ORs the granules of the counts into the given
    // `.pgmrsrc1`: a granule past the largest count (13..15 with the extra
    // SGPRs of a kernel that uses them all) is written as the largest
    // count, whose granule (12) has no bit the given one lacks.
    let sgprs = (d.granulated_sgprs() * 8 + 1).min(crate::gallium::config::max_sgprs(version));
    line(format!(".sgprsnum {sgprs}"));
    // GCN 1.5+: the assembler (as clrxasm) counts VGPRs in blocks of 8
    // whatever the wave size; LLVM's wave64 granule is 4, so a large
    // wave64 granule is left to `.pgmrsrc1` (a count of 1 adds no bit).
    let vgprs = if version.is_gcn15() {
        Some(d.granulated_vgprs() * 8 + 1)
            .filter(|&n| n <= 256)
            .unwrap_or(1)
    } else {
        d.granulated_vgprs() * 4 + 1
    };
    line(format!(".vgprsnum {vgprs}"));
    line(format!(".floatmode {:#04x}", d.float_mode()));
    if d.priority() != 0 {
        line(format!(".priority {}", d.priority()));
    }
    for (on, op) in [
        (d.dx10_clamp(), ".dx10clamp"),
        (d.ieee_mode(), ".ieeemode"),
        (d.priv_mode(), ".privmode"),
        (d.debug_mode(), ".debugmode"),
    ] {
        if on {
            line(op.to_string());
        }
    }
    line(format!(".userdatanum {}", d.user_sgpr_count()));
    line(format!(".pgmrsrc1 {:#010x}", d.compute_pgm_rsrc1));
    line(format!(".pgmrsrc2 {:#010x}", d.compute_pgm_rsrc2));
    if d.compute_pgm_rsrc3 != 0 {
        line(format!(".pgmrsrc3 {:#010x}", d.compute_pgm_rsrc3));
    }
    let props = match &k.amd_kernel_code {
        Some(c) => c.kernel_code_properties,
        None => {
            let p = u32::from(d.kernel_code_properties);
            if p & !0xfff != 0 {
                return Err(err(
                    &at,
                    format!("kernel_code_properties {p:#x} has bits CLRX source cannot set"),
                ));
            }
            // Bits 7-9 are `.use_grid_workgroup_count` (clrxasm writes
            // them); USES_DYNAMIC_STACK (bit 11) is listed below.
            p & 0x7ff
        }
    };
    if props & 0xff80_f800 != 0 {
        return Err(err(
            &at,
            format!("kernel_code_properties {props:#x} has reserved bits set"),
        ));
    }
    for (name, bit) in [
        (".use_private_segment_buffer", 0),
        (".use_dispatch_ptr", 1),
        (".use_queue_ptr", 2),
        (".use_kernarg_segment_ptr", 3),
        (".use_dispatch_id", 4),
        (".use_flat_scratch_init", 5),
        (".use_private_segment_size", 6),
        (".use_wave32", 10),
        (".use_ordered_append_gds", 16),
        (".use_ptr64", 19),
        (".use_dynamic_call_stack", 20),
        (".use_debug_enabled", 21),
        (".use_xnack_enabled", 22),
    ] {
        if props >> bit & 1 != 0 {
            line(name.to_string());
        }
    }
    let grid = dim_letters(props >> 7 & 7);
    if !grid.is_empty() {
        line(format!(".use_grid_workgroup_count {grid}"));
    }
    if d.private_segment_fixed_size != 0 {
        line(format!(
            ".private_segment_fixed_size {}",
            d.private_segment_fixed_size
        ));
    }
    if d.group_segment_fixed_size != 0 {
        line(format!(
            ".group_segment_fixed_size {}",
            d.group_segment_fixed_size
        ));
    }
    match &k.amd_kernel_code {
        None => {
            // The descriptor fields no CLRX pseudo-op sets, in gcnasm's
            // pseudo-ops of LLVM's names (and the metadata's default).
            if d.kernarg_size != 0 {
                line(format!(".kernarg_segment_size {}", d.kernarg_size));
                line(format!(".amdhsa_kernarg_size {}", d.kernarg_size));
            }
            if d.kernel_code_properties >> 11 & 1 != 0 {
                line(".amdhsa_uses_dynamic_stack 1".to_string());
            }
        }
        Some(c) => write_v2_fields(out, c, &at)?,
    }
    Ok(())
}

/// The `amd_kernel_code_t` fields beyond the descriptor's.
fn write_v2_fields(out: &mut String, c: &AmdKernelCode, at: &str) -> Result<(), RocmError> {
    let mut line = |s: String| {
        out.push_str("        ");
        out.push_str(&s);
        out.push('\n');
    };
    line(format!(
        ".codeversion {}, {}",
        c.version_major, c.version_minor
    ));
    line(format!(
        ".machine {}, {}, {}, {}",
        c.machine_kind,
        c.machine_version_major,
        c.machine_version_minor,
        c.machine_version_stepping
    ));
    line(format!(
        ".kernel_code_entry_offset {:#x}",
        c.kernel_code_entry_byte_offset
    ));
    if c.kernel_code_prefetch_byte_offset != 0 {
        line(format!(
            ".kernel_code_prefetch_offset {:#x}",
            c.kernel_code_prefetch_byte_offset
        ));
    }
    if c.kernel_code_prefetch_byte_size != 0 {
        line(format!(
            ".kernel_code_prefetch_size {:#x}",
            c.kernel_code_prefetch_byte_size
        ));
    }
    if c.max_scratch_backing_memory_byte_size != 0 {
        line(format!(
            ".max_scratch_backing_memory {:#x}",
            c.max_scratch_backing_memory_byte_size
        ));
    }
    line(format!(".private_elem_size {}", c.private_element_size()));
    if c.gds_segment_byte_size != 0 {
        line(format!(".gds_segment_size {}", c.gds_segment_byte_size));
    }
    line(format!(
        ".kernarg_segment_size {}",
        c.kernarg_segment_byte_size
    ));
    if c.workgroup_fbarrier_count != 0 {
        line(format!(
            ".workgroup_fbarrier_count {}",
            c.workgroup_fbarrier_count
        ));
    }
    line(format!(".wavefront_sgpr_count {}", c.wavefront_sgpr_count));
    line(format!(".workitem_vgpr_count {}", c.workitem_vgpr_count));
    for (first, count, op) in [
        (
            c.reserved_vgpr_first,
            c.reserved_vgpr_count,
            ".reserved_vgprs",
        ),
        (
            c.reserved_sgpr_first,
            c.reserved_sgpr_count,
            ".reserved_sgprs",
        ),
    ] {
        match (first, count) {
            (0, 0) => {}
            (_, 0) => {
                return Err(err(
                    at,
                    format!("{op}: a first register {first} with no count cannot be written"),
                ))
            }
            (f, n) => match f.checked_add(n - 1) {
                Some(last) => line(format!("{op} {f}, {last}")),
                None => return Err(err(at, format!("{op}: {f} + {n} registers overflow"))),
            },
        }
    }
    if c.debug_wavefront_private_segment_offset_sgpr != 0 {
        line(format!(
            ".debug_wavefront_private_segment_offset_sgpr {}",
            c.debug_wavefront_private_segment_offset_sgpr
        ));
    }
    if c.debug_private_segment_buffer_sgpr != 0 {
        line(format!(
            ".debug_private_segment_buffer_sgpr {}",
            c.debug_private_segment_buffer_sgpr
        ));
    }
    for (log, op) in [
        (c.kernarg_segment_alignment, ".kernarg_segment_align"),
        (c.group_segment_alignment, ".group_segment_align"),
        (c.private_segment_alignment, ".private_segment_align"),
        (c.wavefront_size, ".wavefront_size"),
    ] {
        if log > 30 {
            return Err(err(at, format!("{op}: 2^{log} cannot be written")));
        }
        line(format!("{op} {}", 1u64 << log));
    }
    line(format!(".call_convention {:#x}", c.call_convention));
    if c.runtime_loader_kernel_symbol != 0 {
        line(format!(
            ".runtime_loader_kernel_symbol {:#x}",
            c.runtime_loader_kernel_symbol
        ));
    }
    if c.control_directives.iter().any(|&b| b != 0) {
        out.push_str("    .control_directive\n");
        write_bytes(out, &c.control_directives);
    }
    Ok(())
}

/// CLRX's `.arg` word for a value kind, if it has one.
fn arg_kind_word(kind: &crate::rocm::ValueKind) -> Option<&'static str> {
    use crate::rocm::ValueKind::*;
    Some(match kind {
        ByValue => "value",
        GlobalBuffer => "globalbuf",
        DynamicSharedPointer => "dynshptr",
        Sampler => "sampler",
        Image => "image",
        Pipe => "pipe",
        Queue => "queue",
        HiddenGlobalOffsetX => "gox",
        HiddenGlobalOffsetY => "goy",
        HiddenGlobalOffsetZ => "goz",
        HiddenNone => "none",
        HiddenPrintfBuffer => "printfbuf",
        HiddenDefaultQueue => "defqueue",
        HiddenCompletionAction => "complact",
        HiddenMultigridSyncArg => "multigridsyncarg",
        _ => return None,
    })
}

/// A kernel's metadata as the `.config` pseudo-ops of CLRX; an error for
/// what they cannot say (the caller then lists the raw note).
fn write_md(out: &mut String, k: &RocmKernel, co: &CodeObject) -> Result<(), RocmError> {
    use crate::rocm::MetaValue;
    let at = format!("the metadata of kernel `{}`", k.name);
    let md = co
        .metadata
        .as_ref()
        .ok_or_else(|| err(&at, "there is none"))?;
    let v2 = md.format == MetadataFormat::Yaml;
    let list = md
        .root
        .get(if v2 { "Kernels" } else { "amdhsa.kernels" })
        .and_then(MetaValue::as_array);
    let name_key = if v2 { "Name" } else { ".name" };
    let map = list
        .and_then(|l| {
            l.iter()
                .find(|m| m.get(name_key).and_then(MetaValue::as_str) == Some(k.name.as_str()))
        })
        .ok_or_else(|| err(&at, "it is not in the note"))?;
    let empty = MetaValue::Map(Vec::new());
    let (props, attrs) = if v2 {
        (
            map.get("CodeProps").unwrap_or(&empty),
            map.get("Attrs").unwrap_or(&empty),
        )
    } else {
        (map, map)
    };
    let key = |v2k: &'static str, v3k: &'static str| if v2 { v2k } else { v3k };
    let mut line = |s: String| {
        out.push_str("        ");
        out.push_str(&s);
        out.push('\n');
    };
    let quoted = |s: &str| {
        let mut q = String::from("\"");
        write_escaped(&mut q, s);
        q.push('"');
        q
    };
    if let Some(s) = map
        .get(key("SymbolName", ".symbol"))
        .and_then(MetaValue::as_str)
    {
        line(format!(".md_symname {}", quoted(s)));
    }
    let version = map
        .get(key("LanguageVersion", ".language_version"))
        .and_then(MetaValue::as_array);
    match (
        map.get(key("Language", ".language"))
            .and_then(MetaValue::as_str),
        version,
    ) {
        (Some(l), Some([a, b])) => line(format!(
            ".md_language {}, {}, {}",
            quoted(l),
            a.as_u64()
                .ok_or_else(|| err(&at, "a language version is not a number"))?,
            b.as_u64()
                .ok_or_else(|| err(&at, "a language version is not a number"))?
        )),
        // A version without a language: `.md_language ""` with a version
        // (clrxasm leaves the empty name out, not the version).
        (None, Some([a, b])) => line(format!(
            ".md_language \"\", {}, {}",
            a.as_u64()
                .ok_or_else(|| err(&at, "a language version is not a number"))?,
            b.as_u64()
                .ok_or_else(|| err(&at, "a language version is not a number"))?
        )),
        (Some(l), None) => line(format!(".md_language {}", quoted(l))),
        (None, None) => {}
        _ => return Err(err(&at, "its language version cannot be written")),
    }
    for (k2, k3, op) in [
        (
            "KernargSegmentSize",
            ".kernarg_segment_size",
            ".md_kernarg_segment_size",
        ),
        (
            "KernargSegmentAlign",
            ".kernarg_segment_align",
            ".md_kernarg_segment_align",
        ),
        (
            "GroupSegmentFixedSize",
            ".group_segment_fixed_size",
            ".md_group_segment_fixed_size",
        ),
        (
            "PrivateSegmentFixedSize",
            ".private_segment_fixed_size",
            ".md_private_segment_fixed_size",
        ),
        ("WavefrontSize", ".wavefront_size", ".md_wavefront_size"),
        ("NumSGPRs", ".sgpr_count", ".md_sgprsnum"),
        ("NumVGPRs", ".vgpr_count", ".md_vgprsnum"),
        ("NumSpilledSGPRs", ".sgpr_spill_count", ".spilledsgprs"),
        ("NumSpilledVGPRs", ".vgpr_spill_count", ".spilledvgprs"),
        (
            "MaxFlatWorkGroupSize",
            ".max_flat_workgroup_size",
            ".max_flat_work_group_size",
        ),
    ] {
        if let Some(v) = props.get(key(k2, k3)) {
            let v = v
                .as_u64()
                .ok_or_else(|| err(&at, format!("{op}: not a number")))?;
            line(format!("{op} {v}"));
        }
    }
    for (k2, k3, op, from) in [
        (
            "ReqdWorkGroupSize",
            ".reqd_workgroup_size",
            ".reqd_work_group_size",
            attrs,
        ),
        (
            "WorkGroupSizeHint",
            ".workgroup_size_hint",
            ".work_group_size_hint",
            attrs,
        ),
        (
            "FixedWorkGroupSize",
            ".fixed_workgroup_size",
            ".fixed_work_group_size",
            props,
        ),
    ] {
        if let Some(v) = from.get(key(k2, k3)).and_then(MetaValue::as_array) {
            let d: Option<Vec<u64>> = v.iter().map(MetaValue::as_u64).collect();
            match d.as_deref() {
                Some([x, y, z]) => line(format!("{op} {x}, {y}, {z}")),
                _ => return Err(err(&at, format!("{op}: not three numbers"))),
            }
        }
    }
    for (k2, k3, op) in [
        ("VecTypeHint", ".vec_type_hint", ".vectypehint"),
        ("RuntimeHandle", ".runtime_handle", ".runtime_handle"),
    ] {
        if let Some(s) = attrs.get(key(k2, k3)).and_then(MetaValue::as_str) {
            // clrxasm takes (and clrxdisasm prints) the type hint as a name.
            let name = op == ".vectypehint"
                && !s.is_empty()
                && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if name {
                line(format!("{op} {s}"));
            } else {
                line(format!("{op} {}", quoted(s)));
            }
        }
    }
    for a in &k.args {
        let kind = arg_kind_word(&a.value_kind).ok_or_else(|| {
            err(
                &at,
                format!("value kind {:?} has no .arg word", a.value_kind),
            )
        })?;
        let vtype = a
            .value_type
            .as_deref()
            .ok_or_else(|| err(&at, "an argument has no value type"))?
            .to_ascii_lowercase();
        let mut s = format!(
            ".arg {}, {}, {}, {}, {kind}, {vtype}",
            a.name.as_deref().unwrap_or(""),
            quoted(a.type_name.as_deref().unwrap_or("")),
            a.size,
            if v2 { a.align } else { a.offset },
        );
        if let Some(p) = a.pointee_align {
            let _ = write!(s, ", {p}");
        }
        if let Some(sp) = a.address_space {
            let _ = write!(s, ", {}", sp.name());
        }
        let name = |x: Option<crate::rocm::Access>| x.map_or("default", crate::rocm::Access::name);
        match a.value_kind {
            crate::rocm::ValueKind::Image | crate::rocm::ValueKind::Pipe => {
                let _ = write!(s, ", {}, {}", name(a.access), name(a.actual_access));
            }
            crate::rocm::ValueKind::GlobalBuffer => {
                let _ = write!(s, ", {}", name(a.actual_access));
            }
            _ => {}
        }
        for (on, flag) in [
            (a.is_const, "const"),
            (a.is_restrict, "restrict"),
            (a.is_volatile, "volatile"),
            (a.is_pipe, "pipe"),
        ] {
            if on {
                let _ = write!(s, " {flag}");
            }
        }
        line(s);
    }
    Ok(())
}
