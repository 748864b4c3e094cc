//! The code-object reader on clang-15 output (fixtures in `tests/rocm/`,
//! made by `tests/rocm/make-fixtures.sh` from `kernels.cl`) and on the
//! clrxasm goldens of `shared/conformance/rocm/`, plus malformed input.

mod common;
#[path = "rocm_support/mod.rs"]
mod rocm_support;

use rocm_support::{assert_equivalent, llvm_accepts};

use gcn_asm::rocm::{
    self, AddressSpace, CodeObject, RelocKind, RocmError, ValueKind, AMD_KERNEL_CODE_SIZE,
};
use gcn_asm::GcnVersion;

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/rocm/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn read_fixture(name: &str) -> CodeObject {
    rocm::read(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// What every clang-15 build of kernels.cl has, whatever the version.
fn check_kernels_cl(co: &CodeObject, name: &str) {
    let names: Vec<_> = co.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["reverse", "scale"], "{name}");
    let reverse = &co.kernels[0];
    let scale = &co.kernels[1];
    assert_eq!(reverse.reqd_workgroup_size, Some([64, 1, 1]), "{name}");
    assert_eq!(reverse.max_flat_workgroup_size, Some(64), "{name}");
    assert_eq!(scale.reqd_workgroup_size, None, "{name}");
    assert_eq!(scale.max_flat_workgroup_size, Some(256), "{name}");
    for k in &co.kernels {
        assert_eq!(k.wavefront_size, 64, "{name}");
        assert_eq!(k.kernarg_segment_align, 8, "{name}");
        assert!(k.descriptor.user_sgpr_setup().kernarg_segment_ptr, "{name}");
        assert_eq!(
            k.descriptor.workgroup_id_enabled(),
            [true, false, false],
            "{name}"
        );
        // The entry is inside .text and 256-byte aligned.
        let text = co.text.as_ref().expect(".text");
        assert!(k.entry >= text.vaddr && k.entry < text.vaddr + text.data.len() as u64);
        assert_eq!(k.entry % 256, 0, "{name}");
        // The first instruction is an SMEM load of the kernel arguments
        // (opcode bits of s_load_dword* on GCN 1.2+: 0b110000).
        let at = (k.entry - text.vaddr) as usize;
        let word = u32::from_le_bytes(text.data[at..at + 4].try_into().unwrap());
        assert_eq!(word >> 26, 0b110000, "{name}: {word:#x}");
        assert!(k.sgpr_count > 0 && k.vgpr_count > 0, "{name}");
    }
    let a = &scale.args;
    assert_eq!(a[0].name.as_deref(), Some("in"));
    assert_eq!(a[0].type_name.as_deref(), Some("float*"));
    assert_eq!((a[0].offset, a[0].size), (0, 8));
    assert_eq!(a[0].value_kind, ValueKind::GlobalBuffer);
    assert_eq!(a[0].address_space, Some(AddressSpace::Global));
    assert!(a[0].is_const && !a[1].is_const);
    assert_eq!(a[2].name.as_deref(), Some("k"));
    assert_eq!((a[2].offset, a[2].size), (16, 4));
    assert_eq!(a[2].value_kind, ValueKind::ByValue);
    assert!(!a[2].value_kind.is_hidden());
    let tmp = &reverse.args[2];
    assert_eq!(tmp.value_kind, ValueKind::DynamicSharedPointer);
    assert_eq!(tmp.address_space, Some(AddressSpace::Local));
    assert!(a[3..].iter().all(|a| a.value_kind.is_hidden()), "{name}");
    let last = a.last().unwrap();
    assert!(scale.kernarg_segment_size >= last.offset + last.size);
    for seg in &co.segments {
        assert!(seg.mem_size >= seg.data.len() as u64);
    }
    assert!(co.segments.iter().any(|s| s.executable && !s.writable));
}

#[test]
fn reads_clang15_code_objects() {
    for (name, version, processor, gcn, xnack) in [
        (
            "kernels-gfx803-v2.co",
            2,
            "gfx803",
            GcnVersion::Gcn1_2,
            None,
        ),
        (
            "kernels-gfx900-v2.co",
            2,
            "gfx900",
            GcnVersion::Gcn1_4,
            Some(true),
        ),
        (
            "kernels-gfx900-v3.co",
            3,
            "gfx900",
            GcnVersion::Gcn1_4,
            Some(true),
        ),
        (
            "kernels-gfx900-v4.co",
            4,
            "gfx900",
            GcnVersion::Gcn1_4,
            None,
        ),
        (
            "kernels-gfx900-v5.co",
            5,
            "gfx900",
            GcnVersion::Gcn1_4,
            None,
        ),
        (
            "kernels-gfx906-v4.co",
            4,
            "gfx906",
            GcnVersion::Gcn1_4_1,
            None,
        ),
        (
            "kernels-gfx803-v5.co",
            5,
            "gfx803",
            GcnVersion::Gcn1_2,
            None,
        ),
    ] {
        let co = read_fixture(name);
        assert_eq!(co.code_object_version, version, "{name}");
        assert_eq!(co.processor.name, processor, "{name}");
        assert_eq!(co.processor.version, gcn, "{name}");
        assert_eq!(co.processor.xnack, xnack, "{name}");
        assert!(co.metadata.is_some(), "{name}");
        check_kernels_cl(&co, name);
        for k in &co.kernels {
            if version == 2 {
                // v2: the symbol is the amd_kernel_code_t, the code follows it.
                let code = k.amd_kernel_code.expect("v2 has amd_kernel_code_t");
                assert_eq!(
                    code.kernel_code_entry_byte_offset,
                    AMD_KERNEL_CODE_SIZE as i64
                );
                assert_eq!(Some(k.entry), k.descriptor_vaddr.map(|d| d + 256));
                assert_eq!(code.private_element_size(), 4);
                assert!(code.is_ptr64());
            } else {
                assert!(k.amd_kernel_code.is_none());
                assert_eq!(
                    k.entry as i64 - k.descriptor_vaddr.unwrap() as i64,
                    k.descriptor.kernel_code_entry_byte_offset
                );
            }
        }
        let args = &co.kernels[1].args;
        if version == 5 {
            // v5: the implicit arguments are the block counts, group sizes ...
            assert_eq!(args[3].value_kind, ValueKind::HiddenBlockCountX);
            assert_eq!((args[3].offset, args[3].size), (24, 4));
            assert!(args
                .iter()
                .any(|a| a.value_kind == ValueKind::HiddenGridDims));
            assert_eq!(co.kernels[1].kernarg_segment_size, 280);
        } else {
            assert_eq!(args[3].value_kind, ValueKind::HiddenGlobalOffsetX);
            assert_eq!((args[3].offset, args[3].size), (24, 8));
            assert_eq!(co.kernels[1].kernarg_segment_size, 80);
        }
    }
}

/// hipcc's kind of code object (HIP, no headers): v4 with XNACK and SRAMECC
/// "any", v5.
#[test]
fn reads_hip_code_objects() {
    for (name, version) in [("hip-axpy-gfx906-v4.co", 4), ("hip-axpy-gfx900-v5.co", 5)] {
        let co = read_fixture(name);
        assert_eq!(co.code_object_version, version, "{name}");
        assert_eq!(
            (co.processor.xnack, co.processor.sramecc),
            (None, None),
            "{name}"
        );
        let k = &co.kernels[0];
        assert_eq!(k.name, "axpy");
        let kinds: Vec<_> = k
            .args
            .iter()
            .take(4)
            .map(|a| (a.offset, a.size, a.value_kind.clone()))
            .collect();
        assert_eq!(
            kinds,
            [
                (0, 4, ValueKind::ByValue),
                (8, 8, ValueKind::GlobalBuffer),
                (16, 8, ValueKind::GlobalBuffer),
                (24, 4, ValueKind::ByValue)
            ],
            "{name}"
        );
        assert_eq!(k.entry % 256, 0);
        let md = co.metadata.as_ref().unwrap();
        assert!(
            md.target()
                .is_some_and(|t| t.starts_with("amdgcn-amd-amdhsa--gfx90")),
            "{name}"
        );
    }
}

#[test]
fn reads_clrxasm_goldens() {
    let Some(shared) = common::shared_dir() else {
        println!("notice: ../shared not found; ROCm golden reading skipped");
        return;
    };
    let dir = shared.join("conformance/rocm");
    let read = |name: &str| {
        let path = dir.join(name);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        rocm::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let scale = read("scale-gfx900.clrxasm.bin");
    assert_eq!(scale.code_object_version, 2);
    assert_eq!(scale.processor.name, "gfx900");
    assert!(scale.metadata.is_none());
    let k = &scale.kernels[0];
    assert_eq!(k.name, "scale");
    assert_eq!(Some(k.entry), k.descriptor_vaddr.map(|d| d + 0x100));
    let code = k.amd_kernel_code.unwrap();
    assert_eq!(code.compute_pgm_rsrc1, 0x00ac0081);
    assert_eq!(code.compute_pgm_rsrc2, 0x90);
    assert_eq!(
        (code.wavefront_sgpr_count, code.workitem_vgpr_count),
        (24, 8)
    );
    assert_eq!(code.kernarg_segment_byte_size, 24);
    assert_eq!(k.kernarg_segment_align, 16);

    let fiji = read("vectoradd-metadata-fiji.clrxasm.bin");
    assert_eq!(fiji.code_object_version, 2);
    assert_eq!(fiji.processor.version, GcnVersion::Gcn1_2);
    let k = &fiji.kernels[0];
    assert_eq!(k.name, "vectorAdd");
    assert_eq!(k.args.len(), 8);
    assert_eq!(k.args[0].name.as_deref(), Some("n"));
    assert_eq!(k.args[1].offset, 8);
    assert_eq!(k.args[7].value_kind, ValueKind::HiddenPrintfBuffer);
    assert_eq!(k.kernarg_segment_size, 64);
    assert_eq!(k.max_flat_workgroup_size, Some(256));
    assert!(k.amd_kernel_code.unwrap().is_ptr64());
    assert_eq!(k.amd_kernel_code.unwrap().private_element_size(), 4);

    let negate = read("negate-llvm10-gfx906.clrxasm.bin");
    assert_eq!(negate.code_object_version, 3);
    assert_eq!(negate.processor.name, "gfx906");
    assert_eq!(negate.processor.version, GcnVersion::Gcn1_4_1);
    let k = &negate.kernels[0];
    assert_eq!(k.name, "negate");
    assert_eq!(k.descriptor.kernel_code_entry_byte_offset, 0xb40);
    assert_eq!(k.entry, 0x1000);
    assert_eq!((k.sgpr_count, k.vgpr_count), (9, 3));
    assert_eq!(k.descriptor.compute_pgm_rsrc1, 0x00ac0040);
    assert_eq!(negate.rodata.as_ref().unwrap().data.len(), 64);
}

#[test]
fn printf_strings_parse() {
    let f = gcn_asm::rocm::parse_printf(
        "1:2:4:8:a=%d b=%ld: done\n",
        gcn_asm::rocm::MetadataFormat::MsgPack,
    )
    .unwrap();
    assert_eq!(
        (f.id, f.arg_sizes.clone(), f.format.as_str()),
        (1, vec![4, 8], "a=%d b=%ld: done\n")
    );
    assert!(
        gcn_asm::rocm::parse_printf("1:3:4:fmt", gcn_asm::rocm::MetadataFormat::MsgPack).is_none()
    );
    assert!(gcn_asm::rocm::parse_printf("x:0:fmt", gcn_asm::rocm::MetadataFormat::Yaml).is_none());
}

fn err(bytes: &[u8]) -> RocmError {
    match rocm::read(bytes) {
        Ok(_) => panic!("read accepted malformed input"),
        Err(e) => e,
    }
}

#[test]
fn malformed_code_objects_are_errors() {
    let good = fixture("kernels-gfx900-v4.co");
    assert!(rocm::is_code_object(&good));
    assert!(!rocm::is_code_object(b"\x7fELF"));
    assert!(err(b"").to_string().contains("not an ELF64"));
    // Every truncation is an error or a smaller object, never a panic.
    for len in (0..good.len()).step_by(7) {
        let _ = rocm::read(&good[..len]);
    }
    assert!(rocm::read(&good[..good.len() / 2]).is_err());
    // Every single-byte corruption likewise.
    for at in 0..good.len() {
        let mut bad = good.clone();
        bad[at] ^= 0xff;
        let _ = rocm::read(&bad);
    }
    // A processor of another generation is named; an unknown value is
    // shown.
    let mut bad = good.clone();
    bad[48] = 0x41; // e_flags: gfx1100
    assert!(
        err(&bad)
            .to_string()
            .contains("the code object is for gfx1100 (RDNA 3), which is not supported yet"),
        "{}",
        err(&bad)
    );
    bad[48] = 0xf7;
    assert!(
        err(&bad).to_string().contains("EF_AMDGPU_MACH 0xf7"),
        "{}",
        err(&bad)
    );
    // Not AMDGPU.
    let mut bad = good.clone();
    bad[18] = 62;
    assert!(err(&bad).to_string().contains("e_machine"));
}

#[test]
fn reloc_kinds_map_elf_types() {
    assert_eq!(RelocKind::from_elf(13), Some(RelocKind::Relative64));
    assert_eq!(RelocKind::from_elf(3), Some(RelocKind::Abs64));
    assert_eq!(RelocKind::from_elf(7), None);
}

#[test]
fn reads_dynamic_relocations_and_data_segments() {
    let co = read_fixture("globals-gfx900-v4.co");
    assert_eq!(co.kernels.len(), 1);
    assert_eq!(co.kernels[0].name, "pick");
    assert_eq!(
        co.dynamic_relocations,
        [rocm::DynamicReloc {
            offset: 0x3848,
            kind: RelocKind::Relative64,
            symbol_value: 0,
            symbol: None,
            symbol_absolute: false,
            addend: 0x3840,
        }]
    );
    // The relocated pointer lives in a writable segment next to `table`.
    let data = co
        .segments
        .iter()
        .find(|s| s.writable && s.vaddr <= 0x3838 && 0x3850 <= s.vaddr + s.mem_size)
        .expect("the .data segment");
    let at = (0x3838 - data.vaddr) as usize;
    let table: Vec<u32> = data.data[at..at + 16]
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(table, [1, 2, 3, 4]);
}

/// The code objects a directory tree holds (`*.co`), sorted.
fn code_objects_under(dir: &std::path::Path, out: &mut Vec<(String, Vec<u8>)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            code_objects_under(&p, out);
        } else if p.extension().is_some_and(|x| x == "co") {
            out.push((p.display().to_string(), std::fs::read(&p).unwrap()));
        }
    }
}

/// gcndisasm's listing of every code object of the project (the clang-15
/// and hipcc fixtures of `tests/rocm/`, the 179 compiled fixtures
/// of the workspace's `tests/rocm/gen/`: v2..v5, gfx803/gfx900/gfx906, HIP;
/// the RDNA ones of `tests/rocm/gen-rdna/`: gfx1010, gfx1030, gfx1030 wave64)
/// and of the clrxasm goldens reassembles (gcnasm -b rocm) into an
/// equivalent code object: the same kernels, descriptors, metadata, code,
/// global and writable data, GOT and relocations (resolving to the same
/// places), and PC-relative references reaching the same data (see
/// `rocm_support::assert_equivalent`); LLVM's tools accept it; and its
/// listing is the same text. None is skipped.
#[test]
fn listings_reassemble_to_equivalent_code_objects() {
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rocm");
    code_objects_under(&dir, &mut inputs);
    let fixtures = inputs.len();
    let gen = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/rocm/gen");
    code_objects_under(&gen, &mut inputs);
    let compiled = inputs.len() - fixtures;
    assert!(
        compiled >= 178,
        "only {compiled} code objects in {}",
        gen.display()
    );
    // The RDNA sets: gfx1010 and gfx1030 in wave32, gfx1030 in wave64.
    let rdna = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/rocm/gen-rdna");
    code_objects_under(&rdna, &mut inputs);
    let compiled_rdna = inputs.len() - fixtures - compiled;
    assert!(
        compiled_rdna >= 60,
        "only {compiled_rdna} code objects in {}",
        rdna.display()
    );
    match common::shared_dir() {
        Some(shared) => {
            let dir = shared.join("conformance/rocm");
            for e in std::fs::read_dir(&dir).unwrap() {
                let p = e.unwrap().path();
                if p.to_string_lossy().ends_with(".clrxasm.bin") {
                    inputs.push((p.display().to_string(), std::fs::read(&p).unwrap()));
                }
            }
        }
        None => println!("notice: ../shared not found; the goldens' round trip skipped"),
    }
    inputs.sort();
    let mut listed = 0;
    for (name, bytes) in &inputs {
        let co = rocm::read(bytes).unwrap();
        let text = gcn_asm::decode::rocm::listing(&co).unwrap_or_else(|e| panic!("{name}: {e}"));
        let options = gcn_asm::AssembleOptions {
            format: gcn_asm::syntax::assembler::BinaryFormat::Rocm,
            ..Default::default()
        };
        let assembly = gcn_asm::assemble(&text, &options)
            .unwrap_or_else(|d| panic!("{name}: the listing does not assemble:\n{d}\n{text}"));
        let again = assembly.rocm_bytes().unwrap();
        let back = rocm::read(&again).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_equivalent(&back, &co, name);
        let path = std::env::temp_dir().join(format!(
            "gcn-asm-rocm-roundtrip-{}-{listed}.co",
            std::process::id()
        ));
        std::fs::write(&path, &again).unwrap();
        // LLVM has no gfx804 (CLRX's Fiji stepping 4): gfx803 decodes it.
        let mcpu = if co.processor.name == "gfx804" {
            "gfx803"
        } else {
            &co.processor.name
        };
        let gcn12 = co.processor.version >= GcnVersion::Gcn1_2;
        llvm_accepts(&path, gcn12.then_some(mcpu));
        let _ = std::fs::remove_file(&path);
        // And the listing of the reassembled object is the same text.
        assert_eq!(
            gcn_asm::decode::rocm::listing(&back).unwrap(),
            text,
            "{name}"
        );
        listed += 1;
    }
    assert_eq!(listed, inputs.len());
    println!(
        "{listed} code objects round-trip ({compiled} compiled GCN fixtures, {compiled_rdna} RDNA, \
         {fixtures} in gcn-asm/tests/rocm)"
    );
}

fn rocm_source(src: &str) -> Result<CodeObject, String> {
    let asm =
        gcn_asm::assemble(src, &gcn_asm::AssembleOptions::default()).map_err(|d| d.to_string())?;
    let bytes = asm.rocm_bytes().map_err(|e| e.to_string())?;
    rocm::read(&bytes).map_err(|e| format!("our output does not read back: {e}"))
}

/// The metadata pseudo-ops, written as YAML (v2) and MessagePack (v3..v5),
/// read back as the runtime sees them.
#[test]
fn metadata_pseudo_ops_read_back() {
    let body = |v3: bool| {
        format!(
            ".kernel k\n  .config\n    .dims xy\n    .use_private_segment_buffer\n    .use_kernarg_segment_ptr\n    .private_segment_fixed_size 32\n    .md_language \"OpenCL C\", 2, 0\n    .reqd_work_group_size 8, 4\n    .max_flat_work_group_size 32\n    .arg buf, \"float*\", 8, {a}, globalbuf, f32, global, default const restrict\n    .arg tmp, \"int*\", 4, , dynshptr, i32, 16, local\n    .arg img, \"image2d_t\", 8, , image, struct, read_only\n    .arg n, \"uint\", 4, , value, u32\n    .arg , \"\", 8, , printfbuf, i8\n.text\nk:\n{skip}  s_load_dwordx2 s[0:1], s[4:5], 0x0\n  v_mov_b32 v5, s9\n  s_endpgm\n",
            a = if v3 { "0" } else { "" },
            skip = if v3 { "" } else { "  .skip 256\n" },
        )
    };
    for (header, version) in [
        (".rocm\n.gpu gfx900\n.md_version 1, 0\n.printf 7, 4, 8, \"a=%d: b=%ld\"\n.printf 4, \"hi\"\n", 2),
        (".rocm\n.gpu gfx906\n.eflags 0x2f\n.llvm10binfmt\n.metadatav3\n.md_version 1, 0\n.printf 7, 4, 8, \"a=%d: b=%ld\"\n.printf 4, \"hi\"\n.globaldata\n.skip 64\n", 3),
        (".rocm\n.gpu gfx906\n.llvm10binfmt\n.metadatav3\n.md_version 1, 1\n.printf 7, 4, 8, \"a=%d: b=%ld\"\n.printf 4, \"hi\"\n.globaldata\n.skip 64\n", 4),
        (".rocm\n.gpu fiji\n.llvm10binfmt\n.metadatav3\n.md_version 1, 2\n.printf 7, 4, 8, \"a=%d: b=%ld\"\n.printf 4, \"hi\"\n.globaldata\n.skip 64\n", 5),
    ] {
        let src = format!("{header}{}", body(version > 2));
        let co = rocm_source(&src).unwrap_or_else(|e| panic!("v{version}: {e}\n{src}"));
        assert_eq!(co.code_object_version, version);
        let k = &co.kernels[0];
        assert_eq!(k.name, "k");
        assert_eq!(k.reqd_workgroup_size, Some([8, 4, 1]));
        assert_eq!(k.max_flat_workgroup_size, Some(32));
        assert_eq!(k.private_segment_fixed_size, 32);
        assert!(k.descriptor.private_segment_wave_offset_enabled(), "SCRATCH_EN from the private size");
        assert_eq!(k.descriptor.workgroup_id_enabled(), [true, true, false]);
        assert_eq!(k.descriptor.workitem_id_vgprs(), 1);
        assert_eq!(k.descriptor.user_sgpr_count(), 6);
        // As clrxasm counts: the 9 SGPRs the setup loads (6 user + 2
        // group ids + the scratch wave offset; s9 is only read), plus VCC;
        // v0..v5 (v5 written).
        assert_eq!(k.vgpr_count, 6);
        assert_eq!(k.sgpr_count, 11, "v{version}");
        let a = &k.args;
        assert_eq!(a.len(), 5);
        assert_eq!(a[0].name.as_deref(), Some("buf"));
        assert!(a[0].is_const && a[0].is_restrict && !a[0].is_volatile);
        assert_eq!(a[0].address_space, Some(AddressSpace::Global));
        assert_eq!(a[1].value_kind, ValueKind::DynamicSharedPointer);
        assert_eq!(a[1].pointee_align, Some(16));
        assert_eq!(a[1].address_space, Some(AddressSpace::Local));
        assert_eq!(a[2].value_kind, ValueKind::Image);
        assert_eq!(a[2].access, Some(rocm::Access::ReadOnly));
        assert_eq!(a[3].offset, 24, "after an 8-byte image at 16");
        assert_eq!(a[4].value_kind, ValueKind::HiddenPrintfBuffer);
        assert_eq!(a[4].offset, 32);
        assert_eq!(co.printf_formats.len(), 2);
        assert_eq!(co.printf_formats[0].id, 7);
        assert_eq!(co.printf_formats[0].arg_sizes, [4, 8]);
        assert_eq!(co.printf_formats[0].format, "a=%d: b=%ld");
        assert_eq!((co.printf_formats[1].id, co.printf_formats[1].arg_sizes.len()), (4, 0));
        if version == 5 {
            assert_eq!(co.processor.version, GcnVersion::Gcn1_2);
        }
    }
}

/// Mistakes in a ROCm source are located errors, never a panic.
#[test]
fn rocm_source_errors_are_located() {
    for (src, want) in [
        (".rocm\n.config\n", "must follow .kernel"),
        (".rocm\n.kernel k\n.use_dispatch_ptr\n", "inside a kernel's .config"),
        (".rocm\n.kernel k\n.config\n.arg x, \"int\", 4, , values, i32\n", "unknown value kind"),
        (".rocm\n.kernel k\n.config\n.arg x, \"int\", 4, , value, int33\n", "unknown value type"),
        (".rocm\n.kernel k\n.config\n.arg x, \"int\", 4, 3, value, i32\n", "not a power of two"),
        (".rocm\n.kernel k\n.config\n.private_elem_size 3\n", "power of two"),
        (".rocm\n.kernel k\n.config\n.userdatanum 17\n", "user data number out of range (0-16)"),
        (".rocm\n.gpu gfx900\n.kernel k\n.config\n.sgprsnum 105\n", "used SGPRs number out of range (0-104)"),
        (".rocm\n.kernel k\n.config\n.kernarg_segment_align 8\n", "alignment must not be smaller than 16"),
        (".rocm\n.kernel k\n.config\n.wavefront_size 512\n", "not be greater than 256"),
        (".rocm\n.gpu gfx900\n.kernel k\n.config\n.debug_private_segment_buffer_sgpr 104\n", "SGPR register out of range"),
        (".rocm\n.kernel k\n.config\n.reserved_vgprs 4, 2\n", "wrong register range"),
        (".rocm\n.kernel k\n.config\n.reserved_sgprs 4, 200\n", "last reserved SGPR register out of range"),
        (".rocm\n.gotsym x\n", "GOT symbol 'x' is unresolved"),
        (".rocm\n.kernel k\n.gotsym k\n.text\nk: .skip 256\n", "GOT symbol 'k' is not global symbol"),
        (".rocm\nx = 1\n.gotsym x\n", "GOT symbol 'x' is not global symbol"),
        (".rocm\n.global x\n.section .aux\nx:\n.gotsym x\n", "GOT symbol 'x' is neither a number nor an address in .text, .rodata, .data, .bss or .got"),
        (".rocm\n.gotsym\n", "expected a symbol name"),
        (".rocm\n.gotsym x, \n", "expected a symbol name"),
        (".rocm\n.gotsym x, y z\n", "unexpected text at the end of the statement"),
        (".rocm\n.text\ny:\n.gotsym x, y\n", "symbol 'y' is already defined"),
        (".rocm\n.fkernel\n", ".fkernel can be only inside kernel"),
        (".rocm\n.kernel k\n.global k\n.gotsym k\n.section .got\n.int 1\n.text\nk: .skip 256\n", "section .got holds the 1 entries of .gotsym only"),
        (".rocm\n.section .bss, \"aw\"\n.int 1\n", "section .bss holds only zeros"),
        (".rocm\n.section .bss, \"aw\"\nb: .skip 8\n.section .data, \"aw\"\n.quad b\n.section .bss\n.quad b\n", "cannot be stored in section .bss"),
        (".rocm\n.kernel k\n.fkernel x\n", "unexpected text at the end of the statement"),
        (".rocm\n.kernel k\n.config\n.vgprsnum 250\n.shared_vgprs 8\n.text\nk: .skip 256\n", "the shared VGPR count must be 0 on GPUs before GCN 1.5"),
        (".rocm\n.kernel k\n.config\n.shared_vgprs\n", "expected"),
        (".rocm\n.kernel k\n.use_ordered_append_gds\n", "inside a kernel's .config"),
        (".rocm\n.section .aux\nx:\n.text\ns_add_u32 s0, s0, x&0xffffffff\n", "relative value"),
        (".rocm\n.kernel k\n.control_directive\n.quad .gdata\n.skip 120\n.globaldata\n.gdata:\n.text\nk: .skip 256\n", "cannot be stored in section .control_directive.k"),
        (".rocm\n.kernel k\n.config\n.text\nk: s_endpgm\n", "too small for its configuration"),
        (".rocm\n.kernel k\n.config\n", "define the label 'k:'"),
        (".rocm\n.llvm10binfmt\n.metadatav3\n.kernel k\n.config\n.text\nk: s_endpgm\n", "too small for its descriptor"),
        (".rocm\n.metadatav3\n.kernel k\n.text\nk: .skip 256\n", "needs .llvm10binfmt"),
        (".rocm\n.llvm10binfmt\n.metadatav3\n.md_version 2, 0\n", "1.0, 1.1 or 1.2"),
        (".rocm\n.metadata\n.ascii \"x\"\n.kernel k\n.config\n.md_symname \"k@kd\"\n.text\nk: .skip 256\n", "cannot be used with a .metadata"),
        (".rocm\n.kernel k\n.control_directive\n.byte 1\n.text\nk: .skip 256\n", "not 128"),
    ] {
        let err = match rocm_source(src) {
            Ok(_) => panic!("accepted: {src}"),
            Err(e) => e,
        };
        assert!(err.contains(want), "{src}: {err}");
        assert!(err.starts_with("<stdin>:"), "not located: {err}");
    }
}

/// gcnasm and gcndisasm on code objects: the round trip through files, and
/// errors as `FILE: error: MESSAGE` with status 1.
#[test]
fn cli_round_trip_and_errors() {
    let dir = std::env::temp_dir().join(format!("gcn-asm-rocm-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = format!(
        "{}/tests/rocm/kernels-gfx906-v4.co",
        env!("CARGO_MANIFEST_DIR")
    );
    let listing = std::process::Command::new(env!("CARGO_BIN_EXE_gcndisasm"))
        .arg(&input)
        .output()
        .unwrap();
    assert!(
        listing.status.success(),
        "{}",
        String::from_utf8_lossy(&listing.stderr)
    );
    let s = dir.join("k.s");
    std::fs::write(&s, &listing.stdout).unwrap();
    let out = dir.join("k.co");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_gcnasm"))
        .args(["-b", "rocm", "-o"])
        .arg(&out)
        .arg(&s)
        .status()
        .unwrap();
    assert!(status.success());
    let back = rocm::read(&std::fs::read(&out).unwrap()).unwrap();
    assert_equivalent(&back, &read_fixture("kernels-gfx906-v4.co"), "cli");
    // Without -b the source's .rocm selects the format.
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_gcnasm"))
        .arg("-o")
        .arg(&out)
        .arg(&s)
        .status()
        .unwrap();
    assert!(status.success());
    assert!(rocm::is_code_object(&std::fs::read(&out).unwrap()));
    // A truncated code object.
    let bad = dir.join("bad.co");
    std::fs::write(&bad, &std::fs::read(&input).unwrap()[..300]).unwrap();
    let r = std::process::Command::new(env!("CARGO_BIN_EXE_gcndisasm"))
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.starts_with(&format!("{}: error: ", bad.display())),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A code object at an address that is not 8-byte aligned (a byte string
/// in a `const`, `include_bytes!`) reads like an aligned one.
#[test]
fn unaligned_bytes_read() {
    let bytes = fixture("kernels-gfx900-v4.co");
    let aligned = rocm::read(&bytes).unwrap();
    let mut shifted = vec![0u8; bytes.len() + 1];
    shifted[1..].copy_from_slice(&bytes);
    assert_ne!(shifted[1..].as_ptr().align_offset(8), 0);
    assert_eq!(rocm::read(&shifted[1..]).unwrap(), aligned);
    // Likewise the one with .data, a GOT-less relocation and global data,
    // and gcndisasm's listing of it.
    let bytes = fixture("globals-gfx900-v4.co");
    let aligned = rocm::read(&bytes).unwrap();
    for shift in 1..8 {
        let mut shifted = vec![0u8; bytes.len() + shift];
        shifted[shift..].copy_from_slice(&bytes);
        let co = rocm::read(&shifted[shift..]).unwrap();
        assert_eq!(co, aligned);
        assert_eq!(
            gcn_asm::decode::rocm::listing(&co).unwrap(),
            gcn_asm::decode::rocm::listing(&aligned).unwrap()
        );
    }
}

/// Metadata that would cost unbounded time or memory is refused: YAML
/// aliases (a "billion laughs" note), nesting past the limit, huge
/// MessagePack lengths that the bytes do not back.
#[test]
fn hostile_metadata_is_refused() {
    use gcn_asm::rocm::Metadata;
    let laughs = "a: &a [1, 1]\nb: &b [*a, *a]\nc: [*b, *b]\n";
    let e = Metadata::from_yaml(laughs.as_bytes()).unwrap_err();
    assert!(e.to_string().contains("alias"), "{e}");
    let deep = "[".repeat(100_000);
    assert!(Metadata::from_yaml(deep.as_bytes()).is_err());
    let deep = "[".repeat(100) + &"]".repeat(100);
    assert!(Metadata::from_yaml(deep.as_bytes())
        .unwrap_err()
        .to_string()
        .contains("deeper"));
    // An array of 2^32-1 elements in five bytes.
    assert!(Metadata::from_msgpack(&[0xdd, 0xff, 0xff, 0xff, 0xff]).is_err());
    let deep = vec![0x91u8; 100_000];
    assert!(Metadata::from_msgpack(&deep).is_err());
    // A map key that is not a string.
    assert!(Metadata::from_msgpack(&[0x81, 0x01, 0x02]).is_err());
    // Good metadata: both encodings give back the tree.
    let good = Metadata::from_yaml(b"Version: [ 1, 0 ]\nKernels:\n  - Name: k\n    Args: []\n\0\0")
        .unwrap();
    assert_eq!(good.version(), Some((1, 0)));
    let again = Metadata::from_msgpack(&good.root.to_msgpack().unwrap()).unwrap();
    assert_eq!(again.root, good.root);
    let again = Metadata::from_yaml(good.root.to_yaml().unwrap().as_bytes()).unwrap();
    assert_eq!(again.root, good.root);
}

/// clrxasm's YAML layout ([`MetaValue::to_clrx_yaml`]) and its dialect:
/// single-quoted strings with C escapes, unquoted strings a YAML parser
/// would misread; our reader reads them as CLRX's reader does, and still
/// reads standard YAML (a compiler's) as YAML.
#[test]
fn clrx_yaml_is_written_and_read_as_clrx_does() {
    use gcn_asm::rocm::{clrx_yaml_string, MetaValue, Metadata};
    assert_eq!(clrx_yaml_string("float*"), "'float*'");
    assert_eq!(clrx_yaml_string("3d"), "'3d'");
    assert_eq!(clrx_yaml_string(" x"), "' x'");
    assert_eq!(clrx_yaml_string("x\t"), "'x\\t'");
    assert_eq!(clrx_yaml_string("it's"), "'it\\'s'");
    assert_eq!(clrx_yaml_string("caf\u{e9}"), "'caf\\303\\251'");
    // What clrxasm does not quote: ':', '#', '[', a backslash, DEL.
    for s in ["a: b # c", "[x]", "back\\slash", "del\x7f", "-x", "%d", "~"] {
        assert_eq!(clrx_yaml_string(s), s);
    }
    let tree = |strings: &[&str]| {
        MetaValue::Map(vec![
            (
                "Version".into(),
                MetaValue::Array(vec![MetaValue::UInt(1), MetaValue::UInt(0)]),
            ),
            (
                "Kernels".into(),
                MetaValue::Array(vec![MetaValue::Map(vec![
                    ("Name".into(), MetaValue::Str("k".into())),
                    (
                        "Args".into(),
                        MetaValue::Array(
                            strings
                                .iter()
                                .map(|s| {
                                    MetaValue::Map(vec![
                                        ("TypeName".into(), MetaValue::Str(s.to_string())),
                                        ("Size".into(), MetaValue::UInt(4)),
                                    ])
                                })
                                .collect(),
                        ),
                    ),
                    (
                        "CodeProps".into(),
                        MetaValue::Map(vec![
                            ("KernargSegmentSize".into(), MetaValue::UInt(8)),
                            (
                                "FixedWorkGroupSize".into(),
                                MetaValue::Array(vec![MetaValue::UInt(64); 3]),
                            ),
                        ]),
                    ),
                ])]),
            ),
        ])
    };
    let yaml = tree(&["int*", "a: b"]).to_clrx_yaml().unwrap();
    assert_eq!(
        yaml,
        "---\nVersion:         [ 1, 0 ]\nKernels:         \n  - Name:            k\n    \
         Args:            \n      - TypeName:        'int*'\n        Size:            4\n      \
         - TypeName:        a: b\n        Size:            4\n    CodeProps:       \n      \
         KernargSegmentSize: 8\n      FixedWorkGroupSize:   [ 64, 64, 64 ]\n...\n"
    );
    let strings = [
        "it's",
        "say \"hi\"",
        "x\\'y\\\"",
        "'",
        "tab\there",
        "new\nline",
        "caf\u{e9}",
        "del\x7f",
        "a: b # c",
        "[x]",
        "{y}",
        "-",
        "- x",
        "%d",
        "@a",
        "~",
        "null",
        "|",
        ">",
        " lead",
        "trail ",
        "back\\slash",
        "7up",
        "*p",
        "&r",
        "!t",
        "x:",
    ];
    let back = Metadata::from_yaml(tree(&strings).to_clrx_yaml().unwrap().as_bytes()).unwrap();
    assert_eq!(back.root, tree(&strings));
    // Standard YAML keeps its meaning: '' is a quote, a backslash in
    // single quotes is itself, a printf entry keeps its escapes.
    let std = Metadata::from_yaml(
        b"Printf:\n  - '1:0:a\\n'\nKernels:\n  - Name: k\n    Args:\n      - TypeName: 'it''s'\n        Size: 4\n        ValueKind: ByValue\n      - TypeName: \"q\\\"\"\n        Size: 4\n        ValueKind: ByValue\n",
    )
    .unwrap();
    let args = std.kernels().unwrap().remove(0).args;
    assert_eq!(args[0].type_name.as_deref(), Some("it's"));
    assert_eq!(args[1].type_name.as_deref(), Some("q\""));
    assert_eq!(std.printf_formats().unwrap()[0].format, "a\n");
    // clrxasm's printf entry with a quote in its format.
    let clrx = Metadata::from_yaml(
        b"---\nVersion:         [ 1, 0 ]\nPrintf:          \n  - '1:0:it\\'s\\72'\n...\n",
    )
    .unwrap();
    assert_eq!(clrx.printf_formats().unwrap()[0].format, "it's:");
    // clrxasm refuses a printf id given twice.
    let err = rocm_source(".rocm\n.gpu gfx900\n.printf 1, \"a\"\n.printf 1, \"b\"\n").unwrap_err();
    assert!(
        err.contains("<stdin>:4:9: error: duplicate printf id 1"),
        "{err}"
    );
}

/// Register counting: code belongs to the kernel whose label precedes it,
/// and `.kcode` code to the kernels it names.
#[test]
fn register_counts_follow_labels_and_kcode() {
    let src = ".rocm\n.gpu gfx900\n.kernel a\n  .config\n    .use_kernarg_segment_ptr\n.kernel b\n  .config\n    .use_kernarg_segment_ptr\n.text\na: .skip 256\n  v_mov_b32 v7, s11\n  s_endpgm\nb: .skip 256\n  s_endpgm\n.kcode b\n  v_mov_b32 v20, s30\n.kcodeend\n";
    let co = rocm_source(src).unwrap();
    let counts: Vec<_> = co
        .kernels
        .iter()
        .map(|k| (k.name.as_str(), k.sgpr_count, k.vgpr_count))
        .collect();
    // As clrxasm counts (its object for this source says the same): the
    // registers written — a: v7; b: v20, in the .kcode block that is b's
    // only — and the SGPRs the setup loads (2 user + 1 group id) + VCC;
    // s11 and s30 are only read.
    assert_eq!(counts, [("a", 4, 8), ("b", 4, 21)]);
    let kb = &co.kernels[1];
    assert_eq!(kb.descriptor.sgpr_limit(), 8);
    assert_eq!(kb.descriptor.vgpr_limit(), 24);
}

/// Assembles `src` (a `.rocm` source) into code-object bytes.
fn rocm_bytes(src: &str) -> Vec<u8> {
    let asm = gcn_asm::assemble(src, &gcn_asm::AssembleOptions::default())
        .unwrap_or_else(|d| panic!("{d}\n{src}"));
    asm.rocm_bytes().unwrap()
}

/// The symbol table entry `name` of an ELF file: (type, visibility).
fn elf_symbol(bytes: &[u8], name: &str) -> Option<(u8, u8)> {
    use object::read::elf::{ElfFile64, FileHeader, Sym};
    let file = ElfFile64::<object::Endianness>::parse(bytes).unwrap();
    let e = file.endian();
    let table = file.elf_symbol_table();
    let _ = file.elf_header().e_machine(e);
    table
        .iter()
        .find(|s| table.symbol_name(e, s).ok() == Some(name.as_bytes()))
        .map(|s| (s.st_type(), s.st_other()))
}

/// `.gotsym`, `.data` and section differences: the GOT entries are
/// `R_AMDGPU_ABS64` relocations against the named dynamic symbols (a
/// global symbol of `.globaldata`, a kernel, an absolute global symbol:
/// `SHN_ABS`), as clrxasm writes them (`.got`
/// after `.dynamic`, 8 bytes an entry, addend 0); the OUTSYMBOL of
/// `.gotsym` is the entry's address, which the code reaches PC-relatively
/// through a section difference; a 64-bit address in `.data` is an
/// `R_AMDGPU_RELATIVE64` relocation; LLVM's tools accept the object, and
/// its listing reassembles to an equivalent one.
#[test]
fn got_entries_relocations_and_section_differences() {
    let src = "\
.rocm
.gpu gfx900
.llvm10binfmt
.metadatav3
.md_version 1, 1
.global gsym
gsym = .gdata + 0x40
.gotsym gsym, gent
.global pick
.gotsym pick
.global absv
absv = 334
.gotsym absv
.globaldata
.gdata:
    .skip 64
    .int 5, 6
.kernel pick
    .config
        .use_kernarg_segment_ptr
.text
pick:
    s_getpc_b64 s[0:1]
.Lpc:
    s_add_u32 s0, s0, (gent-.Lpc)&0xffffffff
    s_addc_u32 s1, s1, (gent-.Lpc)>>32
    s_getpc_b64 s[2:3]
.Lpc2:
    s_add_u32 s2, s2, (.wdata+4-.Lpc2)&0xffffffff
    s_addc_u32 s3, s3, (.wdata+4-.Lpc2)>>32
    s_endpgm
.section .data, \"aw\"
.wdata:
    .int 1, 2, 3, 4
    .quad .wdata+8, .gdata+0x44
";
    let bytes = rocm_bytes(src);
    let co = rocm::read(&bytes).unwrap();
    let got = co.got.as_ref().expect(".got");
    let data = co.data.as_ref().expect(".data");
    let rodata = co.rodata.as_ref().unwrap();
    let text = co.text.as_ref().unwrap();
    assert_eq!(got.data, [0; 24]);
    assert!(got.vaddr > text.vaddr && data.vaddr > got.vaddr);
    let mut relocs = co.dynamic_relocations.clone();
    relocs.sort_by_key(|r| r.offset);
    assert_eq!(
        relocs,
        [
            rocm::DynamicReloc {
                offset: got.vaddr,
                kind: RelocKind::Abs64,
                symbol_value: rodata.vaddr + 0x40,
                symbol: Some("gsym".into()),
                symbol_absolute: false,
                addend: 0,
            },
            rocm::DynamicReloc {
                offset: got.vaddr + 8,
                kind: RelocKind::Abs64,
                symbol_value: co.kernels[0].entry,
                symbol: Some("pick".into()),
                symbol_absolute: false,
                addend: 0,
            },
            rocm::DynamicReloc {
                offset: got.vaddr + 16,
                kind: RelocKind::Abs64,
                symbol_value: 334,
                symbol: Some("absv".into()),
                symbol_absolute: true,
                addend: 0,
            },
            rocm::DynamicReloc {
                offset: data.vaddr + 16,
                kind: RelocKind::Relative64,
                symbol_value: 0,
                symbol: None,
                symbol_absolute: false,
                addend: (data.vaddr + 8) as i64,
            },
            rocm::DynamicReloc {
                offset: data.vaddr + 24,
                kind: RelocKind::Relative64,
                symbol_value: 0,
                symbol: None,
                symbol_absolute: false,
                addend: (rodata.vaddr + 0x44) as i64,
            },
        ]
    );
    // The slots the loader fills are 0 in the file.
    assert_eq!(data.data[16..], [0; 16]);
    assert_eq!(
        co.other_symbols,
        [
            ("absv".to_string(), 334),
            ("gsym".to_string(), rodata.vaddr + 0x40)
        ]
    );
    // The literals reach the GOT entry and .data+4 from the s_getpc_b64.
    let word = |at: u64| {
        let at = (at - text.vaddr) as usize;
        u32::from_le_bytes(text.data[at..at + 4].try_into().unwrap())
    };
    for (getpc, target) in [(text.vaddr, got.vaddr), (text.vaddr + 20, data.vaddr + 4)] {
        let delta = (u64::from(word(getpc + 16)) << 32) | u64::from(word(getpc + 8));
        assert_eq!((getpc + 4).wrapping_add(delta), target);
    }
    let refs = gcn_asm::decode::rocm::pc_references(&co);
    use gcn_asm::rocm::RocmSection;
    assert_eq!(
        refs.iter().map(|r| r.target).collect::<Vec<_>>(),
        [(RocmSection::Got, 0), (RocmSection::Data, 4)]
    );
    let path = std::env::temp_dir().join(format!("gcn-asm-rocm-got-{}.co", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    llvm_accepts(&path, Some("gfx900"));
    let readelf = std::process::Command::new("llvm-readelf-15")
        .args(["-r"])
        .arg(&path)
        .output();
    if let Ok(out) = readelf {
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("R_AMDGPU_ABS64") && text.contains("gsym"),
            "{text}"
        );
        assert!(text.contains("R_AMDGPU_RELATIVE64"), "{text}");
    }
    let _ = std::fs::remove_file(&path);
    // The listing: `.gotsym` with the symbols, `.quad` relocations, the
    // references as section differences; it reassembles to an equivalent
    // object with the same listing.
    let listing = gcn_asm::decode::rocm::listing(&co).unwrap();
    for want in [
        ".global gsym\ngsym = .gdata+0x40\n.gotsym gsym, .got0\n.global pick\n.gotsym pick, .got1\n.global absv\nabsv = 0x14e\n.gotsym absv, .got2\n",
        ".wdata:\n",
        "    .quad .wdata+0x8\n    .quad .gdata+0x44\n",
        "(.got0+0x0-.Lpc_4)&0xffffffff",
        "(.wdata+0x4-.Lpc_18)>>32",
    ] {
        assert!(listing.contains(want), "{want:?} not in:\n{listing}");
    }
    let back = rocm::read(&rocm_bytes(&listing)).unwrap();
    assert_equivalent(&back, &co, "got");
    assert_eq!(gcn_asm::decode::rocm::listing(&back).unwrap(), listing);
}

/// `.fkernel`: the kernel's symbol is a function (`STT_FUNC`, default
/// visibility) and, in the LLVM 10 format, has no `NAME.kd` symbol, as
/// clrxasm writes it; a code object v2 reads back with the kernel marked
/// as a function, with or without metadata, and lists with `.fkernel`.
#[test]
fn fkernel_symbols_are_functions() {
    let v2 = ".rocm\n.gpu gfx900\n.kernel f\n.fkernel\n.config\n.use_kernarg_segment_ptr\n.kernel k\n.config\n.text\nf:\n.skip 256\ns_endpgm\n.p2align 8\nk:\n.skip 256\ns_endpgm\n";
    let bytes = rocm_bytes(v2);
    assert_eq!(
        elf_symbol(&bytes, "f"),
        Some((object::elf::STT_FUNC, object::elf::STV_DEFAULT))
    );
    assert_eq!(
        elf_symbol(&bytes, "k"),
        Some((rocm::STT_AMDGPU_HSA_KERNEL, object::elf::STV_DEFAULT))
    );
    // The reader sees a kernel that is a function, with its
    // amd_kernel_code_t; the listing says `.fkernel` and reassembles.
    let co = rocm::read(&bytes).unwrap();
    let flags: Vec<_> = co
        .kernels
        .iter()
        .map(|k| (k.name.as_str(), k.function))
        .collect();
    assert_eq!(flags, [("f", true), ("k", false)]);
    let code = co.kernels[0].amd_kernel_code.as_ref().unwrap();
    assert_eq!(code.kernel_code_entry_byte_offset, 256);
    assert_ne!(code.kernel_code_properties & 8, 0);
    let listing = gcn_asm::decode::rocm::listing(&co).unwrap();
    assert!(
        listing.contains(".kernel f\n    .fkernel\n    .config\n"),
        "{listing}"
    );
    let again = rocm_bytes(&listing);
    assert_eq!(
        elf_symbol(&again, "f").map(|s| s.0),
        Some(object::elf::STT_FUNC)
    );
    assert_equivalent(&rocm::read(&again).unwrap(), &co, "fkernel");
    // With metadata (clrxasm names a function kernel there too).
    let md = v2.replace(
        ".kernel f\n.fkernel\n.config\n",
        ".md_version 1, 0\n.kernel f\n.fkernel\n.config\n.md_language \"OpenCL C\", 1, 2\n",
    );
    let co = rocm::read(&rocm_bytes(&md)).unwrap();
    assert!(co.kernels[0].function);
    assert_eq!(co.metadata.as_ref().unwrap().kernels().unwrap().len(), 2);
    let v3 = ".rocm\n.gpu gfx900\n.eflags 0x2c\n.llvm10binfmt\n.metadatav3\n.kernel f\n.fkernel\n.config\n.globaldata\n.skip 64\n.text\nf:\ns_endpgm\n";
    let bytes = rocm_bytes(v3);
    assert_eq!(
        elf_symbol(&bytes, "f").map(|s| s.0),
        Some(object::elf::STT_FUNC)
    );
    assert_eq!(elf_symbol(&bytes, "f.kd"), None);
    let co = rocm::read(&bytes).unwrap();
    assert_eq!(co.code_object_version, 3);
    assert!(co.kernels[0].function);
    assert_eq!(co.kernels[0].descriptor_vaddr, None);
}

/// `.fkernel` in code object v3 (`.llvm10binfmt`, MessagePack metadata):
/// the metadata names the kernel (and `NAME.kd`, as clrxasm writes it)
/// but there is no descriptor symbol, only the global function; the
/// reader takes it as CLRX's does, a kernel with no descriptor
/// (`function`, `descriptor_vaddr` `None`), gcndisasm lists it with
/// `.fkernel` and the `.config` that fills its descriptor slot, and the
/// listing assembles to an equivalent object, the kernels in the same
/// slots.
#[test]
fn fkernel_v3_round_trips() {
    // The function kernel between two kernels: slots 0 (a), 1 (f), 2 (k).
    let src = ".rocm\n.gpu gfx900\n.eflags 0x2c\n.llvm10binfmt\n.metadatav3\n.md_version 1, 0\n\
        .kernel a\n.config\n.use_kernarg_segment_ptr\n\
        .kernel f\n.fkernel\n.config\n.use_dispatch_ptr\n.use_kernarg_segment_ptr\n.ieeemode\n.private_segment_fixed_size 16\n\
        .arg x, \"uint\", 4, , value, u32\n\
        .kernel k\n.config\n.globaldata\n.skip 192\n.byte 1, 2, 3, 4\n\
        .text\na:\ns_endpgm\n.p2align 8\nf:\nv_mov_b32 v1, 7\ns_endpgm\n.p2align 8\nk:\ns_endpgm\n";
    let bytes = rocm_bytes(src);
    assert_eq!(
        elf_symbol(&bytes, "f"),
        Some((object::elf::STT_FUNC, object::elf::STV_DEFAULT))
    );
    assert_eq!(elf_symbol(&bytes, "f.kd"), None);
    assert!(elf_symbol(&bytes, "k.kd").is_some());
    let co = rocm::read(&bytes).unwrap();
    let md = co.metadata.as_ref().unwrap().kernels().unwrap();
    assert_eq!(
        md.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(),
        ["a", "f", "k"]
    );
    let flags: Vec<_> = co
        .kernels
        .iter()
        .map(|k| (k.name.as_str(), k.function, k.descriptor_vaddr.is_some()))
        .collect();
    assert_eq!(
        flags,
        [("a", false, true), ("f", true, false), ("k", false, true)]
    );
    let text = co.text.as_ref().unwrap();
    let rodata = co.rodata.as_ref().unwrap();
    let f = &co.kernels[1];
    assert_eq!(f.entry, text.vaddr + 256);
    assert_eq!(f.descriptor, rocm::KernelDescriptor::default());
    assert!(f.amd_kernel_code.is_none());
    // From the metadata: the argument and the private size.
    assert_eq!(f.args.len(), 1);
    assert_eq!(f.private_segment_fixed_size, 16);
    assert_eq!(co.kernels[2].descriptor_vaddr, Some(rodata.vaddr + 128));
    // Slot 1 still holds the descriptor of f's `.config`.
    let slot = rocm::KernelDescriptor::from_bytes(&rodata.data[64..128]).unwrap();
    assert_eq!(slot.private_segment_fixed_size, 16);
    assert_eq!(
        slot.kernel_code_properties & 0xa,
        0xa,
        "dispatch + kernarg ptr"
    );
    assert!(!co.other_symbols.iter().any(|(n, _)| n == "f"));

    let listing = gcn_asm::decode::rocm::listing(&co).unwrap();
    let (fa, ff, fk) = (
        listing.find(".kernel a\n").unwrap(),
        listing
            .find(".kernel f\n    .fkernel\n    .config\n")
            .unwrap_or_else(|| panic!("{listing}")),
        listing.find(".kernel k\n").unwrap(),
    );
    assert!(fa < ff && ff < fk, "the kernels in slot order:\n{listing}");
    let f_config = &listing[ff..fk];
    for want in [
        ".use_dispatch_ptr",
        ".ieeemode",
        ".private_segment_fixed_size 16",
    ] {
        assert!(f_config.contains(want), "{want} not in:\n{f_config}");
    }
    let again = rocm_bytes(&listing);
    assert_eq!(elf_symbol(&again, "f.kd"), None);
    let back = rocm::read(&again).unwrap();
    assert_equivalent(&back, &co, "fkernel v3");
    assert_eq!(gcn_asm::decode::rocm::listing(&back).unwrap(), listing);

    // A v3 object without metadata (the writer's own input): the global
    // function with no `NAME.kd` is a function kernel too, as CLRX's
    // reader counts it; `.kd` kernels stay kernels.
    let mut input = rocm::RocmInput {
        code_object_version: 3,
        e_flags: 0x2c,
        isa_version: (9, 0, 0),
        text: [0u32, 0xbf81_0000]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect(),
        rodata: vec![0; 128],
        ..rocm::RocmInput::default()
    };
    for (i, (name, function)) in [("g", true), ("h", false)].into_iter().enumerate() {
        input.kernels.push(rocm::RocmInputKernel {
            name: name.into(),
            text_offset: 4 * i as u64,
            descriptor: Some((64 * i as u64, rocm::KernelDescriptor::default())),
            function,
        });
    }
    let co = rocm::read(&rocm::write(&input).unwrap()).unwrap();
    assert!(co.metadata.is_none());
    let flags: Vec<_> = co
        .kernels
        .iter()
        .map(|k| (k.name.as_str(), k.function, k.descriptor_vaddr.is_some()))
        .collect();
    assert_eq!(flags, [("g", true, false), ("h", false, true)]);
    let listing = gcn_asm::decode::rocm::listing(&co).unwrap();
    assert!(listing.contains(".kernel g\n    .fkernel\n"), "{listing}");

    // The metadata naming a descriptor symbol that is not there, for a
    // kernel that has its own `NAME.kd`: an error naming both, not a
    // function kernel.
    let bad = rocm_bytes(&src.replace(
        ".kernel k\n.config\n",
        ".kernel k\n.config\n.md_symname \"gone.kd\"\n",
    ));
    let e = rocm::read(&bad).unwrap_err().to_string();
    assert!(
        e.contains("kernel `k`") && e.contains("`gone.kd`") && e.contains("no `k.kd`"),
        "{e}"
    );
}

/// `.use_ordered_append_gds` sets `enable_ordered_append_gds` (bit 16 of
/// `kernel_code_properties`), which the listing gives back; `.shared_vgprs`
/// (GCN 1.5's PGM_RSRC3 field) takes only 0 on GCN 1.4 and older, as in
/// clrxasm, and changes nothing.
#[test]
fn ordered_append_gds_and_shared_vgprs() {
    let src = |extra: &str| {
        format!(".rocm\n.gpu gfx900\n.kernel k\n.config\n.use_kernarg_segment_ptr\n{extra}.text\nk:\n.skip 256\nv_mov_b32 v3, 0\ns_endpgm\n")
    };
    let co = rocm::read(&rocm_bytes(&src(".use_ordered_append_gds\n"))).unwrap();
    let code = co.kernels[0].amd_kernel_code.as_ref().unwrap();
    assert_eq!(code.kernel_code_properties & (1 << 16), 1 << 16);
    let listing = gcn_asm::decode::rocm::listing(&co).unwrap();
    assert!(
        listing.contains("        .use_ordered_append_gds\n"),
        "{listing}"
    );
    let back = rocm::read(&rocm_bytes(&listing)).unwrap();
    assert_equivalent(&back, &co, "ordered append gds");
    assert_eq!(rocm_bytes(&src(".shared_vgprs 0\n")), rocm_bytes(&src("")));
    let err = rocm_source(&src(".shared_vgprs 8\n")).unwrap_err();
    assert!(err.contains("must be 0 on GPUs before GCN 1.5"), "{err}");
    assert!(err.starts_with("<stdin>:6:15: error:"), "{err}");
}

/// Printf formats in the metadata as clrxasm writes them: C-escaped in the
/// YAML of code object v2 (`escapeStringCStyle`), every `:` as `\72` in
/// both encodings (`escapePrintfFormat`); the reader gives back the format.
#[test]
fn printf_formats_are_escaped_as_clrxasm_escapes_them() {
    use gcn_asm::rocm::{clrx_printf_format, escape_c_style, MetaValue, MetadataFormat};
    assert_eq!(escape_c_style(b"a\"b'c\\d\n\t"), "a\\\"b\\'c\\\\d\\n\\t");
    // The shortest octal escape; a digit after a short one is escaped too.
    assert_eq!(escape_c_style(b"\x015\x7f\xc3x"), "\\1\\65\\177\\303x");
    assert_eq!(escape_c_style(b"\x1b[0m"), "\\33[0m");
    assert_eq!(
        clrx_printf_format("x: %d\n", MetadataFormat::Yaml),
        "x\\72 %d\\n"
    );
    assert_eq!(
        clrx_printf_format("x: %d\n", MetadataFormat::MsgPack),
        "x\\72 %d\n"
    );
    for (header, key, want) in [
        (
            ".rocm\n.gpu gfx900\n.md_version 1, 0\n",
            "Printf",
            "3:2:4:8:a=%d\\72 b=%ld\\n\\\"q\\\"",
        ),
        (
            ".rocm\n.gpu gfx900\n.eflags 0x2c\n.llvm10binfmt\n.metadatav3\n.md_version 1, 1\n",
            "amdhsa.printf",
            "3:2:4:8:a=%d\\72 b=%ld\n\"q\"",
        ),
    ] {
        let src = format!("{header}.printf 3, 4, 8, \"a=%d: b=%ld\\n\\\"q\\\"\"\n");
        let co = rocm::read(&rocm_bytes(&src)).unwrap();
        let md = co.metadata.as_ref().unwrap();
        let entries = md.root.get(key).and_then(MetaValue::as_array).unwrap();
        assert_eq!(entries[0].as_str(), Some(want), "{key}");
        assert_eq!(co.printf_formats[0].format, "a=%d: b=%ld\n\"q\"", "{key}");
        // The listing writes the format back with `.printf`.
        let listing = gcn_asm::decode::rocm::listing(&co).unwrap();
        assert!(
            listing.contains(".printf 3, 4, 8, \"a=%d: b=%ld\\012\\\"q\\\"\""),
            "{listing}"
        );
        let back = rocm::read(&rocm_bytes(&listing)).unwrap();
        assert_eq!(back.metadata.unwrap().root, md.root);
    }
}

/// `gcndisasm --kernels` lists what a file is, its GPU, its kernels and
/// their arguments; a relocatable object (`clang -c`) is named with what
/// to do.
#[test]
fn gcndisasm_lists_kernels_and_names_relocatable_objects() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let co = root.join("tests/rocm/gen/v4/gfx906/hw_semantics.co");
    let r = std::process::Command::new(env!("CARGO_BIN_EXE_gcndisasm"))
        .arg("--kernels")
        .arg(&co)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(
        text.contains("an AMDHSA code object v4 for gfx906 (GCN1.4.1); 6 kernels\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "kernel 'scalars_tail'\n  ARG 0: arg0     int* (global_buffer, 8 bytes)\n  \
             ARG 1: arg1     int (by_value, 4 bytes)\n"
        ),
        "{text}"
    );
    let rel = root.join("tests/rocm/other/relocatable-tahiti.o");
    for args in [&["--kernels"][..], &[][..]] {
        let r = std::process::Command::new(env!("CARGO_BIN_EXE_gcndisasm"))
            .args(args)
            .arg(&rel)
            .output()
            .unwrap();
        assert_eq!(r.status.code(), Some(1));
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(
            err.contains("this is a relocatable AMDGPU object (ET_REL"),
            "{err}"
        );
    }
}

/// Configuration values that do not fit their field: as clrxasm, a warning
/// (`value 0x7 truncated to 0x3`, at the value) and the low bits; 64-bit
/// fields take any pattern, negative values too, but all ones, which is
/// clrxasm's mark of a field not given.
#[test]
fn config_values_truncate_with_a_warning() {
    let src = ".rocm\n.gpu gfx900\n.kernel k\n.config\n.priority 7\n.floatmode 0x1f3\n.pgmrsrc1 -1\n.codeversion 0x10001, 2\n.machine 1, 0x10009, 0, 0\n.runtime_loader_kernel_symbol 0xfedcba9876543210\n.kernarg_segment_size -1\n.text\nk: .skip 256\ns_endpgm\n";
    let asm = gcn_asm::assemble(src, &gcn_asm::AssembleOptions::default()).unwrap();
    let warnings: Vec<String> = asm.warnings.iter().map(|w| w.to_string()).collect();
    for want in [
        "<stdin>:5:11: warning: value 0x7 truncated to 0x3",
        "<stdin>:6:12: warning: value 0x1f3 truncated to 0xf3",
        "<stdin>:7:11: warning: value 0xffffffffffffffff truncated to 0xffffffff",
        "<stdin>:9:13: warning: value 0x10009 truncated to 0x9",
    ] {
        assert!(warnings.iter().any(|w| w == want), "{want} in {warnings:?}");
    }
    let co = rocm::read(&asm.rocm_bytes().unwrap()).unwrap();
    let code = co.kernels[0].amd_kernel_code.as_ref().unwrap();
    // `.pgmrsrc1` is ORed over the computed fields (priority, float mode).
    assert_eq!(code.compute_pgm_rsrc1, 0xffff_ffff);
    assert_eq!((code.version_major, code.version_minor), (1, 2));
    assert_eq!(code.machine_version_major, 9);
    assert_eq!(code.runtime_loader_kernel_symbol, 0xfedc_ba98_7654_3210);
    // All ones is clrxasm's "not given": the default (0 without metadata).
    assert_eq!(code.kernarg_segment_byte_size, 0);
}

/// clrxasm's `.llvm10binfmt` without `.metadatav3`: kernel descriptors in
/// `.globaldata` (code object v3, ELF ABI version 1) with YAML metadata of
/// v2's keys in an `AMD` note (type 10); it reads back (the descriptor
/// `NAME.kd` though the metadata names `NAME@kd`), lists with
/// `.llvm10binfmt` alone and reassembles to the same bytes.
#[test]
fn llvm10_with_yaml_metadata() {
    let src = ".rocm\n.gpu gfx900\n.eflags 0x2c\n.llvm10binfmt\n.globaldata\n.skip 64\n.kernel k\n.config\n.dims x\n.use_kernarg_segment_ptr\n.arg n, \"uint\", 4, , value, u32\n.text\nk:\ns_endpgm\n.p2align 8\n";
    let bytes = rocm_bytes(src);
    let co = rocm::read(&bytes).unwrap();
    assert_eq!(co.code_object_version, 3);
    let md = co.metadata.as_ref().unwrap();
    assert_eq!(md.format, rocm::MetadataFormat::Yaml);
    let k = &co.kernels[0];
    assert_eq!(k.name, "k");
    assert_eq!(k.descriptor_vaddr, Some(co.rodata.as_ref().unwrap().vaddr));
    assert_eq!(k.args.len(), 1);
    let listing = gcn_asm::decode::rocm::listing(&co).unwrap();
    assert!(listing.contains(".llvm10binfmt\n") && !listing.contains(".metadatav3"));
    assert_eq!(rocm_bytes(&listing), bytes, "{listing}");
}

/// A `.llvm10binfmt` kernel's descriptor as clrxasm writes it: no
/// KERNARG_SIZE nor USES_DYNAMIC_STACK from CLRX's pseudo-ops
/// (`.kernarg_segment_size` is the metadata's default, and
/// `.use_dynamic_call_stack` an `amd_kernel_code_t` bit), but gcnasm's
/// `.amdhsa_kernarg_size` and `.amdhsa_uses_dynamic_stack` set them, and
/// gcndisasm lists them so.
#[test]
fn descriptor_fields_beyond_clrx() {
    let src = |extra: &str| {
        format!(".rocm\n.gpu gfx900\n.eflags 0x2c\n.llvm10binfmt\n.metadatav3\n.globaldata\n.skip 64\n.kernel k\n.config\n.dims x\n.md_symname \"k.kd\"\n.kernarg_segment_size 24\n.use_dynamic_call_stack\n{extra}.text\nk:\ns_endpgm\n.p2align 8\n")
    };
    let co = rocm::read(&rocm_bytes(&src(""))).unwrap();
    let d = co.kernels[0].descriptor;
    assert_eq!((d.kernarg_size, d.kernel_code_properties >> 11 & 1), (0, 0));
    let co = rocm::read(&rocm_bytes(&src(
        ".amdhsa_kernarg_size 24\n.amdhsa_uses_dynamic_stack 1\n",
    )))
    .unwrap();
    let d = co.kernels[0].descriptor;
    assert_eq!(
        (d.kernarg_size, d.kernel_code_properties >> 11 & 1),
        (24, 1)
    );
    let listing = gcn_asm::decode::rocm::listing(&co).unwrap();
    assert!(
        listing.contains("        .amdhsa_kernarg_size 24\n")
            && listing.contains("        .amdhsa_uses_dynamic_stack 1\n"),
        "{listing}"
    );
    let err = rocm_source(&src(".amdhsa_uses_dynamic_stack 2\n")).unwrap_err();
    assert!(err.contains("expected 0 or 1"), "{err}");
}
