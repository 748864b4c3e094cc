//! A GalliumCompute binary back to source, in the spirit of `clrxdisasm`:
//! a listing that [`crate::assemble`] turns into an equivalent binary (the
//! same kernels, arguments, proginfo, code and global data as
//! [`crate::gallium::read`] sees them).
//!
//! The listing has `.gallium`, the target (`.gpu`/`.arch`), `.32bit` or
//! `.64bit`, `.llvm_version 30900` when the kernels have 5 proginfo
//! entries, each kernel's `.args` and `.proginfo` (raw `.entry` pairs
//! reproduce the values exactly, where `.config` would recompute them),
//! `.globaldata` with the constant data, then `.text` with a label at each
//! kernel's offset and the disassembled code. Scratch relocations are
//! written as a `.scratchsym` symbol whose low (`SYM&0xffffffff`) or high
//! (`SYM>>32`) half is the relocated literal.

use std::fmt::Write;

use super::{disassemble, words_from_bytes, Listing};
use crate::gallium::{GalliumBinary, GalliumError, ScratchHalf};
use crate::{Device, GcnVersion};

/// What the code is disassembled for, and how the listing names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A device: `.gpu NAME`.
    Device(Device),
    /// An architecture: `.arch NAME`.
    Arch(GcnVersion),
}

impl Target {
    /// The GCN version of the target.
    pub fn version(self) -> GcnVersion {
        match self {
            Target::Device(d) => d.version(),
            Target::Arch(v) => v,
        }
    }

    /// The pseudo-op that selects the target in a listing.
    pub fn directive(self) -> String {
        match self {
            Target::Device(d) => format!(".gpu {}", d.name()),
            Target::Arch(v) => format!(".arch {}", v.name()),
        }
    }
}

/// True when `name` can be written as a symbol (and so as a kernel name
/// and its label).
fn is_symbol(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '.' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$')
}

/// Writes `bytes` as `.byte` lines of 16 values.
fn write_bytes(out: &mut String, bytes: &[u8]) -> std::fmt::Result {
    for chunk in bytes.chunks(16) {
        out.push_str("    .byte ");
        for (i, b) in chunk.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write!(out, "{b:#04x}")?;
        }
        out.push('\n');
    }
    Ok(())
}

/// The listing of `binary` for `target`. A binary that no source can
/// reproduce (a kernel name that is not a symbol or is a branch label name
/// such as `.L8`, two kernels of one name, a proginfo entry count other
/// than 3 or 5, a scratch relocation that is not on the zero literal word of
/// an instruction) is an error.
pub fn listing(binary: &GalliumBinary, target: Target) -> Result<String, GalliumError> {
    let entries = binary.kernels.first().map_or(3, |k| k.prog_info.len());
    let mut names = rustc_hash::FxHashSet::default();
    for k in &binary.kernels {
        if !is_symbol(&k.name) {
            return Err(GalliumError::new(format!(
                "kernel name {:?} cannot be written as a symbol",
                k.name
            )));
        }
        // `.L8`, `.Lm4`: the names of the listing's branch labels.
        let digits = k
            .name
            .strip_prefix(".L")
            .map(|r| r.strip_prefix('m').unwrap_or(r));
        if digits.is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())) {
            return Err(GalliumError::new(format!(
                "kernel name '{}' is taken by the listing's branch labels",
                k.name
            )));
        }
        if !names.insert(k.name.as_str()) {
            return Err(GalliumError::new(format!(
                "two kernels are named '{}'",
                k.name
            )));
        }
        if k.prog_info.len() != entries || !(entries == 3 || entries == 5) {
            return Err(GalliumError::new(format!(
                "kernel '{}' has {} proginfo entries (every kernel must have 3, or 5 from LLVM 3.9 on)",
                k.name,
                k.prog_info.len()
            )));
        }
    }
    let code = &binary.code;
    let whole = code.len() / 4 * 4;
    let words = words_from_bytes(&code[..whole]);
    let decoded = disassemble(&words, target.version());
    let scratch = scratch_literals(binary, &decoded)?;
    write_listing(binary, target, entries, &decoded, &scratch)
        .map_err(|_| GalliumError::new("cannot format the listing"))
}

/// The scratch symbol's name and the relocated literals' texts by offset.
type ScratchLiterals = (String, Vec<(u64, String)>);

/// The scratch symbol's name in the listing (not a kernel's name) and the
/// literal text of each relocated word, by offset; an error for a
/// relocation the listing cannot write (not an instruction's literal,
/// a literal that is not 0, or an instruction a kernel label splits).
fn scratch_literals(
    binary: &GalliumBinary,
    decoded: &Listing<'_>,
) -> Result<Option<ScratchLiterals>, GalliumError> {
    if binary.scratch_relocations.is_empty() {
        return Ok(None);
    }
    let mut name = String::from("SCRATCH_RSRC");
    while binary.kernels.iter().any(|k| k.name == name) {
        name.push('_');
    }
    let mut literals = Vec::new();
    for r in &binary.scratch_relocations {
        let offset = u64::from(r.offset);
        let item = decoded
            .items
            .iter()
            .find(|d| Listing::literal_offset(d) == Some(offset));
        let split = item.is_some_and(|d| {
            binary
                .kernels
                .iter()
                .any(|k| u64::from(k.offset) > d.offset && u64::from(k.offset) <= offset)
        });
        let word = decoded.words.get((offset / 4) as usize);
        if item.is_none() || split || word != Some(&0) {
            return Err(GalliumError::new(format!(
                "the scratch relocation at {offset:#x} is not on the zero literal of an instruction: the listing cannot write it"
            )));
        }
        let text = match r.half {
            ScratchHalf::Low => format!("{name}&0xffffffff"),
            ScratchHalf::High => format!("{name}>>32"),
        };
        literals.push((offset, text));
    }
    Ok(Some((name, literals)))
}

fn write_listing(
    binary: &GalliumBinary,
    target: Target,
    entries: usize,
    listing: &Listing<'_>,
    scratch: &Option<ScratchLiterals>,
) -> Result<String, std::fmt::Error> {
    let mut out = String::new();
    writeln!(out, ".gallium\n{}", target.directive())?;
    out.push_str(if binary.is_64bit {
        ".64bit\n"
    } else {
        ".32bit\n"
    });
    if entries == 5 {
        // The LLVM 3.9 layout: spilled SGPR/VGPR counts after the three
        // register pairs.
        writeln!(out, ".llvm_version {}", crate::gallium::config::LLVM_3_9)?;
    }
    if binary.mesa170 {
        // Mesa 17.0's layout, as clrxdisasm says it.
        out.push_str(".driver_version 170000\n");
    }
    if let Some((name, _)) = scratch {
        writeln!(out, ".scratchsym {name}")?;
    }
    for k in &binary.kernels {
        writeln!(out, ".kernel {}", k.name)?;
        if !k.args.is_empty() {
            out.push_str("    .args\n");
            for a in &k.args {
                writeln!(
                    out,
                    "        .arg {}, {}, {}, {}, {}, {}",
                    a.ty.name(),
                    a.size,
                    a.target_size,
                    a.target_align,
                    if a.sign_extended { "sext" } else { "zext" },
                    a.semantic.name()
                )?;
            }
        }
        out.push_str("    .proginfo\n");
        for e in &k.prog_info {
            writeln!(out, "        .entry {:#010x}, {:#010x}", e.address, e.value)?;
        }
    }
    if let Some(data) = binary.global_data.as_deref().filter(|d| !d.is_empty()) {
        out.push_str(".globaldata\n");
        write_bytes(&mut out, data)?;
    }
    out.push_str(".text\n");
    // Whole words are disassembled; a trailing partial word stays bytes.
    let code = &binary.code;
    let whole = code.len() / 4 * 4;
    let labels: Vec<(u64, &str)> = binary
        .kernels
        .iter()
        .map(|k| (u64::from(k.offset), k.name.as_str()))
        .filter(|&(o, _)| o % 4 == 0 && o <= whole as u64)
        .collect();
    let literals: Vec<(u64, &str)> = scratch
        .iter()
        .flat_map(|(_, l)| l.iter().map(|(o, t)| (*o, t.as_str())))
        .collect();
    listing.write_with_symbols(&mut out, &labels, &literals)?;
    write_bytes(&mut out, &code[whole..])?;
    // Kernels that start inside a word: relative to the end of the code,
    // so that they stay labels in `.text`.
    for k in &binary.kernels {
        let offset = u64::from(k.offset);
        if offset % 4 != 0 || offset > whole as u64 {
            match code.len() as u64 - offset.min(code.len() as u64) {
                0 => writeln!(out, "{}:", k.name)?,
                back => writeln!(out, "{} = . - {back}", k.name)?,
            }
        }
    }
    Ok(out)
}
