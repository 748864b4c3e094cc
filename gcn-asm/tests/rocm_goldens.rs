//! `.rocm` sources of `tests/rocm-goldens/` against the code objects
//! `clrxasm -b rocm` wrote for them (`NAME.clrx.co`, with clrxdisasm's `-a`
//! and `-aC` text beside them; `make_goldens.sh` makes all three). Our code
//! object must list (gcndisasm's listing, through `gcn_asm::rocm::read`)
//! exactly as clrxasm's does, with the same `.text`, `.rodata` and `.got`
//! bytes, and the same ELF layout: section names in order, program header
//! types in order, e_flags and the OS ABI version (clrxdisasm tells the old
//! binary format from `.newbinfmt` by the `.AMDGPU.config` section, which
//! our own reader ignores). A source named in `known-differences.txt` is
//! one we do not match yet: the test asserts it still differs, so that
//! fixing it flags the entry.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gcn_asm::decode::rocm::listing;
use gcn_asm::rocm::{self, CodeObject};
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

fn bytes(co: &CodeObject) -> [Option<&[u8]>; 3] {
    [&co.text, &co.rodata, &co.got].map(|s| s.as_ref().map(|s| s.data.as_slice()))
}

/// Ok when our code object for `name` matches clrxasm's, else what differs.
fn compare(name: &str) -> Result<(), String> {
    let source = dir().join(format!("{name}.s"));
    let text = std::fs::read_to_string(&source).unwrap();
    let reference = std::fs::read(dir().join(format!("{name}.clrx.co"))).unwrap();
    let options = AssembleOptions {
        file_name: source.display().to_string(),
        ..AssembleOptions::default()
    };
    let ours = assemble(&text, &options)
        .map_err(|d| format!("gcnasm refuses it:\n{d}"))?
        .rocm_bytes()
        .map_err(|e| format!("no code object: {e}"))?;
    let (our_layout, their_layout) = (elf_layout(&ours)?, elf_layout(&reference)?);
    if our_layout != their_layout {
        return Err(format!(
            "ELF layouts differ: ours {our_layout:?}, clrxasm's {their_layout:?}"
        ));
    }
    let ours = rocm::read(&ours).map_err(|e| format!("our object unreadable: {e}"))?;
    let theirs = rocm::read(&reference).map_err(|e| format!("clrxasm's object unreadable: {e}"))?;
    let (lo, lt) = (listing(&ours), listing(&theirs));
    let lt = lt.map_err(|e| format!("listing clrxasm's object: {e}"))?;
    let lo = lo.map_err(|e| format!("listing our object: {e}"))?;
    if lo != lt {
        return Err(format!("listings differ, {}", first_difference(&lo, &lt)));
    }
    for (what, (a, b)) in ["text", "rodata", "got"]
        .iter()
        .zip(bytes(&ours).into_iter().zip(bytes(&theirs)))
    {
        if a != b {
            return Err(format!("{what} bytes differ"));
        }
    }
    Ok(())
}

#[test]
fn rocm_goldens_match_clrxasm() {
    let known = known_differences();
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "s"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
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
/// `known-differences.txt`) does not matter here.
///
/// Two values of clrxasm's MessagePack are not followed, on purpose: for a
/// kernel without `.md_symname` it writes `.symbol: ""`, and without
/// `.max_flat_work_group_size` its "not given" marker 2^64-2 as
/// `.max_flat_workgroup_size` (`generateROCmMetadataMsgPack` writes them
/// unfilled), where a runtime needs the descriptor's symbol and a size it
/// can launch; we write `NAME.kd` and 256 (clrxasm's own YAML default).
/// Where clrxasm's note has those, ours is compared with them put back in.
#[test]
fn rocm_goldens_metadata_notes_match_clrxasm() {
    use gcn_asm::rocm::{MetaValue, Metadata};
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "s"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut failures = Vec::new();
    let mut compared = 0;
    for name in &names {
        let reference = std::fs::read(dir().join(format!("{name}.clrx.co"))).unwrap();
        let Some((kind, theirs)) = metadata_note(&reference) else {
            continue;
        };
        let source = dir().join(format!("{name}.s"));
        let options = AssembleOptions {
            file_name: source.display().to_string(),
            ..AssembleOptions::default()
        };
        let ours = match assemble(&std::fs::read_to_string(&source).unwrap(), &options)
            .map_err(|d| d.to_string())
            .and_then(|a| a.rocm_bytes().map_err(|e| e.to_string()))
        {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{name}: gcnasm refuses it: {e}"));
                continue;
            }
        };
        compared += 1;
        let Some((our_kind, mut ours)) = metadata_note(&ours) else {
            failures.push(format!("{name}: our code object has no metadata note"));
            continue;
        };
        if our_kind != kind {
            failures.push(format!("{name}: note type {our_kind}, clrxasm's {kind}"));
            continue;
        }
        if kind == 32 && ours != theirs {
            let clrx = Metadata::from_msgpack(&theirs).unwrap().root;
            let mut tree = Metadata::from_msgpack(&ours).unwrap().root;
            let mut put_back = 0;
            let (MetaValue::Map(root), Some(clrx_kernels)) = (
                &mut tree,
                clrx.get("amdhsa.kernels").and_then(MetaValue::as_array),
            ) else {
                panic!("{name}: no amdhsa.kernels");
            };
            for (key, value) in root.iter_mut() {
                let MetaValue::Array(kernels) = value else {
                    continue;
                };
                if key != "amdhsa.kernels" {
                    continue;
                }
                for (k, c) in kernels.iter_mut().zip(clrx_kernels) {
                    let name = k
                        .get(".name")
                        .and_then(MetaValue::as_str)
                        .map(str::to_string);
                    let MetaValue::Map(k) = k else { continue };
                    for (key, value) in k.iter_mut() {
                        let unfilled = match key.as_str() {
                            ".symbol" => (c.get(key) == Some(&MetaValue::Str(String::new()))
                                && Some(value.as_str().unwrap_or_default())
                                    == name.as_ref().map(|n| format!("{n}.kd")).as_deref())
                            .then(|| MetaValue::Str(String::new())),
                            ".max_flat_workgroup_size" => (c.get(key)
                                == Some(&MetaValue::UInt(u64::MAX - 1))
                                && *value == MetaValue::UInt(256))
                            .then_some(MetaValue::UInt(u64::MAX - 1)),
                            _ => None,
                        };
                        if let Some(v) = unfilled {
                            *value = v;
                            put_back += 1;
                        }
                    }
                }
            }
            println!("{name}: {put_back} of clrxasm's unfilled values put back");
            ours = tree.to_msgpack().unwrap();
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
