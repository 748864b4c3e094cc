//! Shared by the ROCm tests: what "an equivalent code object" means, and
//! the check that LLVM's tools accept one.

use std::path::Path;

use gcn_asm::decode::rocm::{data_place, pc_references};
use gcn_asm::rocm::{CodeObject, RelocKind, RocmSection};

/// A dynamic relocation, independent of the layout: the section and
/// offset it patches, its kind, what it points to (a section and offset,
/// or an absolute number), and its symbol.
type Reloc = (
    (RocmSection, u64),
    RelocKind,
    Result<(RocmSection, u64), u64>,
    Option<String>,
);

/// The dynamic relocations of `co`, sorted, layout-independent.
pub fn relocations(co: &CodeObject, name: &str) -> Vec<((RocmSection, u64), Reloc)> {
    let text = co.text.as_ref().unwrap();
    let place = |vaddr: u64| {
        data_place(co, vaddr)
            .or_else(|| {
                let off = vaddr.checked_sub(text.vaddr)?;
                (off <= text.data.len() as u64).then_some((RocmSection::Text, off))
            })
            .unwrap_or_else(|| panic!("{name}: {vaddr:#x} is in no section"))
    };
    let mut out: Vec<_> = co
        .dynamic_relocations
        .iter()
        .map(|r| {
            let at = place(r.offset);
            let target = match r.kind {
                RelocKind::Relative64 => Ok(place(r.addend as u64)),
                _ if r.symbol_absolute => Err(r.symbol_value.wrapping_add(r.addend as u64)),
                _ => Ok(place(r.symbol_value.wrapping_add(r.addend as u64))),
            };
            (at, (at, r.kind, target, r.symbol.clone()))
        })
        .collect();
    out.sort_by_key(|(at, _)| (at.0.name(), at.1));
    out
}

/// Everything but the layout (addresses): what must match.
pub fn assert_equivalent(ours: &CodeObject, theirs: &CodeObject, name: &str) {
    assert_eq!(
        ours.code_object_version, theirs.code_object_version,
        "{name}: version"
    );
    assert_eq!(ours.processor, theirs.processor, "{name}: processor");
    assert_eq!(ours.e_flags, theirs.e_flags, "{name}: e_flags");
    assert_eq!(ours.target, theirs.target, "{name}: target");
    assert_eq!(
        ours.metadata.as_ref().map(|m| (&m.root, m.format)),
        theirs.metadata.as_ref().map(|m| (&m.root, m.format)),
        "{name}: metadata"
    );
    assert_eq!(ours.printf_formats, theirs.printf_formats, "{name}: printf");
    let (ot, tt) = (ours.text.as_ref().unwrap(), theirs.text.as_ref().unwrap());
    // The code, but for the literals of its PC-relative references to
    // global data, which depend on the layout: those must reach the same
    // place of the same section.
    let (o_refs, t_refs) = (pc_references(ours), pc_references(theirs));
    assert_eq!(o_refs, t_refs, "{name}: PC-relative references");
    let mask = |text: &[u8]| {
        let mut t = text.to_vec();
        for r in &t_refs {
            for at in [r.getpc + 8, r.getpc + 16] {
                t[at as usize..at as usize + 4].fill(0);
            }
        }
        t
    };
    assert_eq!(mask(&ot.data), mask(&tt.data), "{name}: .text");
    // The relocations: where they patch and what they point to, by section
    // and offset; the bytes they patch are the loader's.
    let (o_rel, t_rel) = (relocations(ours, name), relocations(theirs, name));
    assert_eq!(o_rel, t_rel, "{name}: dynamic relocations");
    assert_eq!(
        ours.other_sections, theirs.other_sections,
        "{name}: sections"
    );
    let masked = |co: &CodeObject, section: RocmSection| {
        co.section(section).map(|d| {
            let mut bytes = d.data.clone();
            for (at, _) in relocations(co, name) {
                if at.0 == section {
                    bytes[at.1 as usize..at.1 as usize + 8].fill(0);
                }
            }
            bytes
        })
    };
    for section in [RocmSection::Data, RocmSection::Got] {
        assert_eq!(
            masked(ours, section),
            masked(theirs, section),
            "{name}: {}",
            section.name()
        );
    }
    assert_eq!(
        ours.kernels.len(),
        theirs.kernels.len(),
        "{name}: kernel count"
    );
    let mut o_ro = masked(ours, RocmSection::Rodata).unwrap_or_default();
    let mut t_ro = masked(theirs, RocmSection::Rodata).unwrap_or_default();
    for (o, t) in ours.kernels.iter().zip(&theirs.kernels) {
        let k = format!("{name}: kernel {}", t.name);
        assert_eq!(o.name, t.name, "{k}");
        assert_eq!(o.function, t.function, "{k}: .fkernel");
        assert_eq!(
            o.entry - ot.vaddr,
            t.entry - tt.vaddr,
            "{k}: entry in .text"
        );
        assert_eq!(
            o.amd_kernel_code, t.amd_kernel_code,
            "{k}: amd_kernel_code_t"
        );
        let mut od = o.descriptor;
        let mut td = t.descriptor;
        if ours.code_object_version >= 3 {
            // The entry offset spans .rodata to .text: layout, checked above
            // through the entry address. The descriptor bytes in .rodata
            // likewise.
            od.kernel_code_entry_byte_offset = 0;
            td.kernel_code_entry_byte_offset = 0;
            for (ro, co, kd) in [
                (&mut o_ro, ours, o.descriptor_vaddr),
                (&mut t_ro, theirs, t.descriptor_vaddr),
            ] {
                // A function kernel has none (its slot: below).
                if let Some(kd) = kd {
                    let at = (kd - co.rodata.as_ref().unwrap().vaddr) as usize;
                    ro[at + 16..at + 24].fill(0);
                }
            }
        }
        assert_eq!(
            o.descriptor_vaddr.is_some(),
            t.descriptor_vaddr.is_some(),
            "{k}: has a descriptor"
        );
        assert_eq!(od, td, "{k}: descriptor");
        assert_eq!(o.args, t.args, "{k}: args");
        assert_eq!(
            (
                o.kernarg_segment_size,
                o.kernarg_segment_align,
                o.group_segment_fixed_size,
                o.private_segment_fixed_size
            ),
            (
                t.kernarg_segment_size,
                t.kernarg_segment_align,
                t.group_segment_fixed_size,
                t.private_segment_fixed_size
            ),
            "{k}: segments"
        );
        assert_eq!(
            (
                o.wavefront_size,
                o.sgpr_count,
                o.vgpr_count,
                o.max_flat_workgroup_size,
                o.reqd_workgroup_size,
                o.uniform_work_group_size
            ),
            (
                t.wavefront_size,
                t.sgpr_count,
                t.vgpr_count,
                t.max_flat_workgroup_size,
                t.reqd_workgroup_size,
                t.uniform_work_group_size
            ),
            "{k}: resources"
        );
    }
    // v3+ function kernels have no descriptor symbol, but CLRX source
    // fills a descriptor slot for each (the slots no descriptor symbol
    // names): their bytes are compared with the rest of .rodata, but for
    // the entry offset, which the layout decides.
    if ours.code_object_version >= 3 {
        for (ro, co) in [(&mut o_ro, ours), (&mut t_ro, theirs)] {
            for at in function_slots(co) {
                if let Some(entry) = ro.get_mut(at + 16..at + 24) {
                    entry.fill(0);
                }
            }
        }
    }
    assert_eq!(o_ro, t_ro, "{name}: .rodata");
}

/// The offsets in `.rodata` of the descriptor slots of the function
/// kernels of a v3+ code object: the first of the 64-byte slots (one per
/// kernel) that no descriptor symbol names, one per function kernel.
pub fn function_slots(co: &CodeObject) -> Vec<usize> {
    let Some(rodata) = &co.rodata else {
        return Vec::new();
    };
    let named: Vec<u64> = co
        .kernels
        .iter()
        .filter_map(|k| k.descriptor_vaddr)
        .map(|d| d.wrapping_sub(rodata.vaddr))
        .collect();
    let functions = co.kernels.iter().filter(|k| k.function).count();
    (0..co.kernels.len())
        .map(|i| 64 * i)
        .filter(|&at| !named.contains(&(at as u64)))
        .take(functions)
        .collect()
}

/// `llvm-readelf-15 --notes --dyn-syms -l -r -S` and `llvm-objdump-15 -d` accept `path`
/// (skipped with a notice when they are not installed). `mcpu` `None`: no
/// disassembly (LLVM 15 has no disassembler for GCN 1.0/1.1).
pub fn llvm_accepts(path: &Path, mcpu: Option<&str>) {
    let readelf = std::process::Command::new("llvm-readelf-15")
        .args(["--notes", "--dyn-syms", "-l", "-r", "-S"])
        .arg(path)
        .output();
    let Ok(readelf) = readelf else {
        println!("notice: llvm-readelf-15 not installed; LLVM acceptance skipped");
        return;
    };
    let err = String::from_utf8_lossy(&readelf.stderr);
    assert!(
        readelf.status.success() && err.is_empty(),
        "{}: llvm-readelf-15: {err}",
        path.display()
    );
    let Some(mcpu) = mcpu else { return };
    let objdump = std::process::Command::new("llvm-objdump-15")
        .args([
            "-d",
            "--triple=amdgcn-amd-amdhsa",
            &format!("--mcpu={mcpu}"),
        ])
        .arg(path)
        .output();
    let Ok(objdump) = objdump else {
        println!("notice: llvm-objdump-15 not installed; LLVM acceptance skipped");
        return;
    };
    let err = String::from_utf8_lossy(&objdump.stderr);
    let out = String::from_utf8_lossy(&objdump.stdout);
    assert!(
        objdump.status.success() && err.is_empty(),
        "{}: llvm-objdump-15: {err}",
        path.display()
    );
    assert!(
        out.contains("s_endpgm"),
        "{}: no code disassembled:\n{out}",
        path.display()
    );
}
