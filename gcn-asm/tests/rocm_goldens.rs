//! `.rocm` sources of `tests/rocm-goldens/` against the code objects
//! `clrxasm -b rocm` wrote for them (`NAME.clrx.co`, with clrxdisasm's `-a`
//! and `-aC` text beside them; `make_goldens.sh` makes all three). Our code
//! object must be clrxasm's byte for byte, but for the `.comment` text
//! (ours names gcn-asm; the comparison writes clrxasm's). When it is not,
//! the test says what differs first: the ELF layout, gcndisasm's listing,
//! or the first differing byte and its section. A source named in
//! `known-differences.txt` is one we do not match yet: the test asserts it
//! still differs, so that fixing it flags the entry.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gcn_asm::decode::rocm::listing;
use gcn_asm::rocm;
use gcn_asm::{assemble, AssembleOptions};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rocm-goldens")
}

/// `NAME: reason` lines (`#` comments and blank lines skipped).
fn known_differences() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(dir().join("known-differences.txt")).unwrap();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (name, reason) = l.split_once(':').expect("NAME: reason");
            (name.trim().to_string(), reason.trim().to_string())
        })
        .collect()
}

fn first_difference(a: &str, b: &str) -> String {
    let (la, lb): (Vec<_>, Vec<_>) = (a.lines().collect(), b.lines().collect());
    for i in 0..la.len().max(lb.len()) {
        let (x, y) = (la.get(i), lb.get(i));
        if x != y {
            return format!(
                "line {}: ours {:?}, clrxasm's {:?}",
                i + 1,
                x.unwrap_or(&"<end>"),
                y.unwrap_or(&"<end>")
            );
        }
    }
    "none".to_string()
}

/// Section names in order, program header types in order, e_flags and
/// the OS ABI version of an ELF64 code object.
fn elf_layout(bytes: &[u8]) -> Result<(Vec<String>, Vec<u32>, u32, u8), String> {
    use object::read::elf::{ElfFile64, FileHeader, ProgramHeader};
    use object::{Object, ObjectSection};
    let file = ElfFile64::<object::Endianness>::parse(bytes).map_err(|e| e.to_string())?;
    let endian = file.endian();
    let sections = file
        .sections()
        .map(|s| s.name().unwrap_or("?").to_string())
        .collect();
    let segments = file
        .elf_program_headers()
        .iter()
        .map(|p| p.p_type(endian))
        .collect();
    let header = file.elf_header();
    Ok((
        sections,
        segments,
        header.e_flags(endian),
        header.e_ident().abi_version,
    ))
}

/// clrxasm's `.comment` text, which ours names gcn-asm instead: the byte
/// comparison writes our object with clrxasm's.
const CLRX_COMMENT: &str = "CLRX ROCmBinGenerator 0.1.9";

/// The section holding file offset `at` in an ELF64 code object.
fn section_at(bytes: &[u8], at: usize) -> String {
    use object::{Object, ObjectSection};
    let Ok(file) = object::File::parse(bytes) else {
        return "?".into();
    };
    file.sections()
        .find(|s| {
            s.file_range()
                .is_some_and(|(o, n)| (o..o + n).contains(&(at as u64)))
        })
        .map_or_else(
            || "headers or padding".into(),
            |s| s.name().unwrap_or("?").to_string(),
        )
}

/// The sources' names (`NAME` of `NAME.s`), sorted.
fn golden_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "s"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Assembles source `NAME.s` (diagnostics name the file).
fn assemble_golden(name: &str) -> Result<gcn_asm::Assembly, String> {
    let source = dir().join(format!("{name}.s"));
    let text = std::fs::read_to_string(&source).unwrap();
    let options = AssembleOptions {
        file_name: source.display().to_string(),
        ..AssembleOptions::default()
    };
    assemble(&text, &options).map_err(|d| d.to_string())
}

/// Ok when our code object for `name` is clrxasm's byte for byte (with
/// clrxasm's `.comment` text), else what differs.
fn compare(name: &str) -> Result<(), String> {
    let reference = std::fs::read(dir().join(format!("{name}.clrx.co"))).unwrap();
    let assembly = assemble_golden(name).map_err(|d| format!("gcnasm refuses it:\n{d}"))?;
    let mut input = assembly
        .rocm
        .clone()
        .ok_or("no code object: not assembled for ROCm")?;
    if input.comment == rocm::DEFAULT_COMMENT.as_bytes() {
        input.comment = CLRX_COMMENT.as_bytes().to_vec();
    }
    let ours = rocm::write(&input).map_err(|e| format!("no code object: {e}"))?;
    if ours == reference {
        return Ok(());
    }
    // What differs, from the most to the least telling.
    let (our_layout, their_layout) = (elf_layout(&ours)?, elf_layout(&reference)?);
    if our_layout != their_layout {
        return Err(format!(
            "ELF layouts differ: ours {our_layout:?}, clrxasm's {their_layout:?}"
        ));
    }
    if let (Ok(o), Ok(t)) = (rocm::read(&ours), rocm::read(&reference)) {
        if let (Ok(lo), Ok(lt)) = (listing(&o), listing(&t)) {
            if lo != lt {
                return Err(format!("listings differ, {}", first_difference(&lo, &lt)));
            }
        }
    }
    let at = ours
        .iter()
        .zip(&reference)
        .position(|(a, b)| a != b)
        .unwrap_or(ours.len().min(reference.len()));
    Err(format!(
        "bytes differ from offset {at:#x} (in {}): ours {} bytes, clrxasm's {}",
        section_at(&reference, at),
        ours.len(),
        reference.len()
    ))
}

#[test]
fn rocm_goldens_match_clrxasm() {
    let known = known_differences();
    let names = golden_names();
    assert!(names.len() >= 10, "the goldens of {}", dir().display());
    for name in known.keys() {
        assert!(
            names.contains(name),
            "known-differences.txt names {name}, no source"
        );
    }
    let mut failures = Vec::new();
    let mut matched = 0;
    for name in &names {
        assert!(
            dir().join(format!("{name}.clrx.co")).exists(),
            "{name}: no golden; run make_goldens.sh"
        );
        match (compare(name), known.get(name)) {
            (Ok(()), None) => matched += 1,
            (Err(e), Some(_)) => println!("{name}: still differs (known): {e}"),
            (Ok(()), Some(_)) => failures.push(format!(
                "{name} now matches clrxasm: take it out of known-differences.txt"
            )),
            (Err(e), None) => failures.push(format!("{name}: {e}")),
        }
    }
    println!("{matched} of {} goldens match clrxasm", names.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The metadata note of an ELF64 code object: `NT_AMD_HSA_METADATA` (10,
/// "AMD", YAML) or `NT_AMDGPU_METADATA` (32, "AMDGPU", MessagePack).
fn metadata_note(bytes: &[u8]) -> Option<(u32, Vec<u8>)> {
    use object::read::elf::{ElfFile64, FileHeader, SectionHeader};
    let file = ElfFile64::<object::Endianness>::parse(bytes).expect("an ELF64 file");
    let endian = file.endian();
    let sections = file.elf_header().sections(endian, bytes).unwrap();
    for section in sections.iter() {
        let Some(mut notes) = section.notes(endian, bytes).unwrap() else {
            continue;
        };
        while let Some(note) = notes.next().unwrap() {
            let kind = note.n_type(endian);
            if matches!((note.name(), kind), (b"AMD", 10) | (b"AMDGPU", 32)) {
                return Some((kind, note.desc().to_vec()));
            }
        }
    }
    None
}

/// Our metadata note (from the metadata pseudo-ops) is clrxasm's, byte for
/// byte, for every golden whose `NAME.clrx.co` has one: the YAML of code
/// object v2 (old format and `.newbinfmt`) and the MessagePack of
/// `.llvm10binfmt` + `.metadatav3`. Whatever else differs (the ELF layout,
/// `known-differences.txt`) does not matter here; a source gcnasm refuses
/// on purpose (listed there) is skipped.
#[test]
fn rocm_goldens_metadata_notes_match_clrxasm() {
    let names = golden_names();
    let known = known_differences();
    let mut failures = Vec::new();
    let mut compared = 0;
    for name in &names {
        let reference = std::fs::read(dir().join(format!("{name}.clrx.co"))).unwrap();
        let Some((kind, theirs)) = metadata_note(&reference) else {
            continue;
        };
        let ours =
            match assemble_golden(name).and_then(|a| a.rocm_bytes().map_err(|e| e.to_string())) {
                Ok(b) => b,
                // A source gcnasm refuses on purpose is a known difference.
                Err(_) if known.contains_key(name) => continue,
                Err(e) => {
                    failures.push(format!("{name}: gcnasm refuses it: {e}"));
                    continue;
                }
            };
        compared += 1;
        let Some((our_kind, ours)) = metadata_note(&ours) else {
            failures.push(format!("{name}: our code object has no metadata note"));
            continue;
        };
        if our_kind != kind {
            failures.push(format!("{name}: note type {our_kind}, clrxasm's {kind}"));
            continue;
        }
        if ours != theirs {
            let (o, t) = (
                String::from_utf8_lossy(&ours),
                String::from_utf8_lossy(&theirs),
            );
            failures.push(format!(
                "{name}: the metadata notes differ, {}",
                first_difference(&o, &t)
            ));
        }
    }
    println!("{compared} metadata notes compared");
    assert!(
        compared >= 10,
        "the goldens with metadata in {}",
        dir().display()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
