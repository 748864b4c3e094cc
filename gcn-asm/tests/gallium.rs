//! The Gallium pseudo-ops, their errors, the computed proginfo, register
//! counting, and the `gcnasm -b gallium` CLI.

use gcn_asm::gallium::{
    read, ArgSemantic, ArgType, GalliumBinary, Kernel, KernelArg, ProgInfoEntry, ScratchHalf,
    ScratchRelocation,
};
use gcn_asm::{assemble, AssembleOptions};

mod common;

fn assembled(src: &str) -> gcn_asm::Assembly {
    match assemble(src, &AssembleOptions::default()) {
        Ok(a) => a,
        Err(d) => panic!("assembly failed:\n{d}\nsource:\n{src}"),
    }
}

/// Assembles `src` (Gallium), checks the written binary reads back to the
/// same thing, and returns it.
fn gal(src: &str) -> GalliumBinary {
    let a = assembled(src);
    let binary = a.gallium.clone().expect("a Gallium binary");
    let bytes = a.gallium_bytes().expect("writable");
    assert_eq!(read(&bytes).expect("readable"), binary);
    binary
}

/// The error messages of a failing assembly, one a line.
fn err(src: &str) -> String {
    match assemble(src, &AssembleOptions::default()) {
        Ok(_) => panic!("expected an error for:\n{src}"),
        Err(d) => d
            .errors()
            .map(|e| format!("{}:{}: {}", e.pos.line, e.pos.column, e.message))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

fn assert_err(src: &str, expected: &str) {
    let e = err(src);
    assert!(
        e.contains(expected),
        "expected `{expected}` in:\n{e}\nsource:\n{src}"
    );
}

fn kernel<'a>(b: &'a GalliumBinary, name: &str) -> &'a Kernel {
    b.kernels
        .iter()
        .find(|k| k.name == name)
        .unwrap_or_else(|| panic!("no kernel {name}"))
}

/// A one-kernel source `k` with `config` lines inside `.config` and `code`.
fn with_config(gpu: &str, config: &str, code: &str) -> String {
    format!(".gallium\n.gpu {gpu}\n.kernel k\n .config\n{config}\n.text\nk:\n{code}\n s_endpgm\n")
}

/// PGM_RSRC1, PGM_RSRC2 and the scratch value of kernel `k`.
fn rsrc(gpu: &str, config: &str, code: &str) -> (u32, u32, u32) {
    let b = gal(&with_config(gpu, config, code));
    let p = &kernel(&b, "k").prog_info;
    assert_eq!(p[0].address, 0xb848);
    assert_eq!(p[1].address, 0xb84c);
    assert_eq!(p[2].address, 0xb860);
    (p[0].value, p[1].value, p[2].value)
}

fn arg(
    ty: ArgType,
    size: u32,
    target_size: u32,
    target_align: u32,
    sign_extended: bool,
    semantic: ArgSemantic,
) -> KernelArg {
    KernelArg {
        ty,
        size,
        target_size,
        target_align,
        sign_extended,
        semantic,
    }
}

#[test]
fn every_argument_type_and_default() {
    let b = gal(".gallium\n.kernel k\n .args\n\
        .arg scalar, 4\n\
        .arg constant, 4\n\
        .arg global, 8\n\
        .arg local, 4\n\
        .arg image2d_rdonly, 8\n\
        .arg image2d_wronly, 8\n\
        .arg image3d_rdonly, 8\n\
        .arg IMAGE3D_WRONLY, 8\n\
        .arg image2d_rd, 8\n\
        .arg image2d_wr, 8\n\
        .arg image3d_rd, 8\n\
        .arg Image3d_Wr, 8\n\
        .arg sampler, 4\n\
        .arg scalar, 2, 4, 4, sext\n\
        .arg scalar, 1\n\
        .arg scalar, 12\n\
        .arg scalar, 16, 16, 16, zext, general\n\
        .arg scalar, 8, , 4, sext\n\
        .arg scalar, 4, 4, 4, zext, imgsize\n\
        .arg scalar, 4, 4, 4, zext, imgformat\n\
        .arg scalar, 4, 4, 4, zext, griddim\n\
        .arg griddim\n\
        .arg gridoffset, 4\n\
        .arg griddim, 4, 4, 4, sext, general\n\
        .proginfo\n.text\nk: s_endpgm\n");
    use ArgSemantic::*;
    use ArgType::*;
    let expected = vec![
        arg(Scalar, 4, 4, 4, false, General),
        arg(Constant, 4, 4, 4, false, General),
        arg(Global, 8, 8, 8, false, General),
        arg(Local, 4, 4, 4, false, General),
        arg(Image2dRdonly, 8, 8, 8, false, General),
        arg(Image2dWronly, 8, 8, 8, false, General),
        arg(Image3dRdonly, 8, 8, 8, false, General),
        arg(Image3dWronly, 8, 8, 8, false, General),
        // clrxasm's own spellings (issue 11 item 4).
        arg(Image2dRdonly, 8, 8, 8, false, General),
        arg(Image2dWronly, 8, 8, 8, false, General),
        arg(Image3dRdonly, 8, 8, 8, false, General),
        arg(Image3dWronly, 8, 8, 8, false, General),
        arg(Sampler, 4, 4, 4, false, General),
        arg(Scalar, 2, 4, 4, true, General),
        arg(Scalar, 1, 4, 4, false, General),
        arg(Scalar, 12, 12, 16, false, General),
        arg(Scalar, 16, 16, 16, false, General),
        arg(Scalar, 8, 8, 4, true, General),
        arg(Scalar, 4, 4, 4, false, ImageSize),
        arg(Scalar, 4, 4, 4, false, ImageFormat),
        arg(Scalar, 4, 4, 4, false, GridDimension),
        arg(Scalar, 4, 4, 4, false, GridDimension),
        arg(Scalar, 4, 4, 4, false, GridOffset),
        arg(Scalar, 4, 4, 4, true, General),
    ];
    assert_eq!(kernel(&b, "k").args, expected);
}

#[test]
fn argument_errors() {
    let k = ".gallium\n.kernel k\n .args\n";
    assert_err(
        &format!("{k}.arg vector, 4"),
        "unknown argument type 'vector'",
    );
    assert_err(&format!("{k}.arg"), "expected an argument type");
    assert_err(&format!("{k}.arg global"), "global argument needs a size");
    assert_err(
        &format!("{k}.arg scalar, 0"),
        "argument size must not be zero",
    );
    assert_err(
        &format!("{k}.arg scalar, 4, 2"),
        "target size must be a multiple of 4",
    );
    assert_err(
        &format!("{k}.arg scalar, 4, 6"),
        "target size must be a multiple of 4",
    );
    assert_err(
        &format!("{k}.arg scalar, 4, 4, 3"),
        "alignment must be a power of two",
    );
    assert_err(
        &format!("{k}.arg scalar, 4, 4, 4, signed"),
        "expected sext or zext",
    );
    assert_err(
        &format!("{k}.arg scalar, 4, 4, 4, zext, size"),
        "unknown argument semantic 'size'",
    );
    assert_err(
        &format!("{k}.arg scalar, 4, 4, 4, zext, general, 1"),
        "too many operands",
    );
    assert_err(&format!("{k}.arg scalar, -4"), "value out of range");
    assert_err(
        &format!("{k}.arg scalar, undefined_sym"),
        "must be defined here",
    );
    assert_err(
        ".gallium\n.kernel k\n.arg scalar, 4",
        ".arg must be inside a kernel's .args",
    );
    assert_err(
        ".gallium\n.kernel k\n.config\n.arg scalar, 4",
        ".arg must be inside a kernel's .args",
    );
    assert_err(".gallium\n.args", ".args must follow .kernel");
    assert_err(
        ".gallium\n.kernel k\n.text\n.args",
        ".args must follow .kernel",
    );
}

#[test]
fn proginfo_entries() {
    let b = gal(
        ".gallium\n.kernel k\n .proginfo\n .entry 0xb848, 0x000c0183\n\
        .entry 0xb84c, 0x1788\n .entry 0xb860, -1\n.text\nk: s_endpgm\n",
    );
    assert_eq!(
        kernel(&b, "k").prog_info,
        vec![
            ProgInfoEntry {
                address: 0xb848,
                value: 0xc0183
            },
            ProgInfoEntry {
                address: 0xb84c,
                value: 0x1788
            },
            ProgInfoEntry {
                address: 0xb860,
                value: 0xffff_ffff
            },
        ]
    );
    // LLVM 3.9 binaries have 5 entries a kernel.
    let b = gal(
        ".gallium\n.llvm_version 30900\n.kernel k\n .proginfo\n .entry 1, 2\n\
        .entry 3, 4\n.entry 5, 6\n.entry 7, 8\n.entry 9, 10\n.text\nk: s_endpgm\n",
    );
    assert_eq!(kernel(&b, "k").prog_info.len(), 5);
}

/// The entries a `.proginfo` leaves out, as clrxasm fills them: its
/// kernels start with PGM_RSRC1 = 0x000c0000, PGM_RSRC2 = 0x00001788,
/// TMPRING_SIZE = 0, then two zero pairs (not the 0x4/0x8 spilled-register
/// pseudo-addresses), and each `.entry` overwrites the next slot.
#[test]
fn proginfo_missing_entries_are_clrxasms() {
    let e = |address, value| ProgInfoEntry { address, value };
    let clrx = [
        e(0xb848, 0x000c_0000),
        e(0xb84c, 0x0000_1788),
        e(0xb860, 0),
        e(0, 0),
        e(0, 0),
    ];
    // Distinct given entries, so that a filled slot cannot pass for one.
    let given = [
        e(0xb848, 0x000c_0183),
        e(0xb84c, 0x0000_0088),
        e(0xb860, 0x0000_2000),
        e(0x4, 3),
        e(0x8, 5),
    ];
    for (llvm, total) in [("", 3), (".llvm_version 30900\n", 5)] {
        for n in 0..=total {
            let mut src = format!(".gallium\n{llvm}.kernel k\n .proginfo\n");
            for g in &given[..n] {
                src += &format!(" .entry {:#x}, {:#x}\n", g.address, g.value);
            }
            src += ".text\nk: s_endpgm\n";
            let b = gal(&src);
            let mut want = given[..n].to_vec();
            want.extend_from_slice(&clrx[n..total]);
            assert_eq!(kernel(&b, "k").prog_info, want, "{n} of {total} given");
        }
    }
    // The case: two entries given, the third is TMPRING_SIZE = 0
    // (gcnasm wrote `0x00000000, 0x00000000`).
    let b = gal(
        ".gallium\n.kernel k\n .proginfo\n .entry 0xb848, 0x000c0183\n\
         .entry 0xb84c, 0x1788\n.text\nk: s_endpgm\n",
    );
    assert_eq!(
        kernel(&b, "k").prog_info[2],
        ProgInfoEntry {
            address: 0x0000_b860,
            value: 0
        }
    );
}

#[test]
fn proginfo_errors() {
    let k = ".gallium\n.kernel k\n .proginfo\n";
    assert_err(
        &format!("{k}.entry 1,2\n.entry 1,2\n.entry 1,2\n.entry 1,2\n"),
        "too many .entry lines: a kernel has 3 proginfo entries",
    );
    assert_err(
        &format!(".llvm_version 30900\n{k}.entry 1,2\n.entry 1,2\n.entry 1,2\n.entry 1,2\n.entry 1,2\n.entry 1,2\n"),
        "a kernel has 5 proginfo entries",
    );
    assert_err(&format!("{k}.entry 1"), "expected 2 operand(s)");
    assert_err(&format!("{k}.entry 1, 2, 3"), "too many operands");
    assert_err(
        &format!("{k}.entry 1, 0x100000000"),
        "expected a 32-bit value",
    );
    assert_err(
        ".gallium\n.kernel k\n.entry 1, 2",
        ".entry must be inside a kernel's .proginfo",
    );
    assert_err(
        ".gallium\n.kernel k\n.config\n.entry 1, 2",
        ".entry must be inside a kernel's .proginfo",
    );
    assert_err(
        ".gallium\n.entry 1, 2",
        ".entry must be inside a kernel's .proginfo",
    );
    assert_err(
        ".gallium\n.kernel k\n.proginfo\n.config",
        "kernel 'k' already has a .proginfo: a kernel has either .config or .proginfo",
    );
    assert_err(
        ".gallium\n.kernel k\n.config\n.kernel j\n.kernel k\n.proginfo",
        "kernel 'k' already has a .config",
    );
    // 5 entries then a lower LLVM version: too many for the binary.
    assert_err(
        &format!(".llvm_version 30900\n{k}.entry 1,2\n.entry 1,2\n.entry 1,2\n.entry 1,2\n.llvm_version 30800\n.text\nk: s_endpgm"),
        "kernel 'k' has 4 proginfo entries but binaries for this LLVM version have 3",
    );
}

#[test]
fn config_flags_and_values() {
    let (r1, r2, s) = rsrc("pitcairn", "", "");
    // 4 user SGPRs, nothing else; float mode 0xc0.
    assert_eq!((r1, r2, s), (0x000c_0000, 0x0000_0008, 0));
    assert_eq!(rsrc("pitcairn", ".dims x", "").1, 0x88);
    assert_eq!(rsrc("pitcairn", ".dims xy", "").1, 0x988);
    assert_eq!(rsrc("pitcairn", ".dims xyz", "").1, 0x1388);
    assert_eq!(rsrc("pitcairn", ".dims z", "").1, 0x1208);
    // Two-form .dims: group ids x, y; local ids x, y, z.
    assert_eq!(rsrc("pitcairn", ".dims xy, xyz", "").1, 0x1188);
    assert_eq!(rsrc("pitcairn", ".dims Z, x", "").1, 0x208);
    assert_eq!(rsrc("pitcairn", ".tgsize", "").1, 0x408);
    assert_eq!(rsrc("pitcairn", ".privmode", "").0, 0x001c_0000);
    assert_eq!(rsrc("pitcairn", ".dx10clamp", "").0, 0x002c_0000);
    assert_eq!(rsrc("pitcairn", ".debugmode", "").0, 0x004c_0000);
    assert_eq!(rsrc("pitcairn", ".ieeemode", "").0, 0x008c_0000);
    assert_eq!(rsrc("pitcairn", ".floatmode 0x3a", "").0, 0x0003_a000);
    assert_eq!(rsrc("pitcairn", ".priority 3", "").0, 0x000c_0c00);
    assert_eq!(rsrc("pitcairn", ".exceptions 0x7f", "").1, 0x7f00_0008);
    assert_eq!(rsrc("pitcairn", ".userdatanum 16", "").1, 0x20);
    assert_eq!(rsrc("pitcairn", ".userdatanum 0", "").1, 0);
    // LDS: 256-byte blocks on GCN 1.0, 512-byte blocks later.
    assert_eq!(rsrc("pitcairn", ".localsize 32768", "").1, (128 << 15) | 8);
    assert_eq!(rsrc("bonaire", ".localsize 32768", "").1, (64 << 15) | 8);
    assert_eq!(rsrc("tonga", ".localsize 1", "").1, (1 << 15) | 8);
    assert_eq!(rsrc("gfx900", ".localsize 513", "").1, (2 << 15) | 8);
    // Scratch: SCRATCH_EN, one more SGPR, WAVESIZE in 1 KiB per wave.
    let (r1, r2, s) = rsrc("pitcairn", ".scratchbuffer 64\n.userdatanum 8", "");
    assert_eq!(r2, 0x11);
    assert_eq!(s, 4 << 12);
    assert_eq!(r1 & 0x3c0, 1 << 6); // 9 SGPRs
                                    // Register counts given explicitly.
    let (r1, ..) = rsrc(
        "pitcairn",
        ".sgprsnum 104\n.vgprsnum 256",
        "v_mov_b32 v1, s2",
    );
    assert_eq!(r1 & 0x3ff, (12 << 6) | 63);
    let (r1, ..) = rsrc(
        "pitcairn",
        ".sgprsnum 1\n.vgprsnum 1",
        "v_mov_b32 v100, s90",
    );
    assert_eq!(r1 & 0x3ff, 0);
    // .pgmrsrc1 is OR-ed in; .pgmrsrc2 gives the dimensions when .dims
    // does not, and never SCRATCH_EN or the user SGPR count.
    assert_eq!(rsrc("pitcairn", ".pgmrsrc1 0x80000000", "").0, 0x800c_0000);
    assert_eq!(rsrc("pitcairn", ".pgmrsrc2 0x1b81", "").1, 0x1b88);
    assert_eq!(
        rsrc("pitcairn", ".pgmrsrc2 0x3e\n.userdatanum 2", "").1,
        0x04
    );
    assert_eq!(rsrc("pitcairn", ".pgmrsrc2 0x1b80\n.dims x", "").1, 0x88);
    assert_eq!(rsrc("pitcairn", ".pgmrsrc2 0x40002000", "").1, 0x4000_2008);
    // Spilled registers are entries 4 and 5 from LLVM 3.9 on.
    let b = gal(
        ".gallium\n.llvm_version 30900\n.kernel k\n.config\n.spilledsgprs 3\n\
        .spilledvgprs 7\n.text\nk: s_endpgm\n",
    );
    let p = &kernel(&b, "k").prog_info;
    assert_eq!(
        p[3],
        ProgInfoEntry {
            address: 4,
            value: 3
        }
    );
    assert_eq!(
        p[4],
        ProgInfoEntry {
            address: 8,
            value: 7
        }
    );
    // ... and ignored (3 entries) before.
    let b = gal(&with_config("tahiti", ".spilledsgprs 3", ""));
    assert_eq!(kernel(&b, "k").prog_info.len(), 3);
}

#[test]
fn config_errors() {
    let bad =
        |config: &str, message: &str| assert_err(&with_config("pitcairn", config, ""), message);
    bad(".floatmode 256", "float mode is a byte");
    bad(".priority 4", "priority is 0-3");
    bad(".exceptions 0x80", "exception mask has 7 bits");
    bad(".localsize 32769", "local size is at most 32768 bytes");
    bad(".userdatanum 17", "user SGPR count is 0-16");
    bad(".sgprsnum 105", "SGPR count exceeds");
    bad(".vgprsnum 257", "VGPR count is at most 256");
    bad(".scratchbuffer -1", "out of range");
    bad(".pgmrsrc1 0x100000000", "out of range");
    bad(".dims w", "unknown dimension");
    bad(".dims x, y, z", "too many operands");
    bad(".tgsize 1", "unexpected text");
    assert_err(
        &with_config("tonga", ".sgprsnum 103", ""),
        "SGPR count exceeds",
    );
    for op in [
        ".dims x",
        ".tgsize",
        ".debugmode",
        ".dx10clamp",
        ".ieeemode",
        ".privmode",
        ".floatmode 0",
        ".priority 0",
        ".exceptions 0",
        ".localsize 0",
        ".scratchbuffer 0",
        ".userdatanum 4",
        ".sgprsnum 8",
        ".vgprsnum 8",
        ".pgmrsrc1 0",
        ".pgmrsrc2 0",
        ".spilledsgprs 0",
        ".spilledvgprs 0",
    ] {
        let name = op.split(' ').next().unwrap();
        assert_err(
            &format!(".gallium\n.kernel k\n.args\n{op}"),
            &format!("{name} must be inside a kernel's .config"),
        );
        assert_err(
            &format!(".gallium\n{op}"),
            "must be inside a kernel's .config",
        );
    }
    // The format's limits apply to computed values too.
    assert_err(
        &with_config(
            "pitcairn",
            ".sgprsnum 104\n.userdatanum 16\n.vgprsnum 256",
            "",
        )
        .replace(".gpu pitcairn", ".gpu tonga"),
        "SGPR count exceeds",
    );
}

#[test]
fn register_counts_from_code() {
    // s0-s15 and VCC on GCN 1.0: 18 SGPRs (field 2); v0-v4: field 1.
    let (r1, ..) = rsrc(
        "pitcairn",
        ".dims x",
        "s_mov_b32 s15, 0\nv_add_i32 v4, vcc, s0, v0",
    );
    assert_eq!(r1 & 0x3ff, (2 << 6) | 1);
    // clrxasm counts VCC for every Gallium kernel (issue 11 item 5):
    // s0-s15 without VCC under the default (pre-3.9) LLVM config gives
    // PGM_RSRC1 0x000c0080 (18 SGPRs), as under LLVM 3.9.
    let (r1, ..) = rsrc("pitcairn", "", "s_mov_b32 s15, 0");
    assert_eq!(r1, 0x000c_0080);
    for llvm in ["30500", "30800", "30900"] {
        let b = gal(&format!(
            ".gallium\n.llvm_version {llvm}\n.gpu pitcairn\n.kernel k\n.config\n.text\nk: s_mov_b32 s15, 0\n"
        ));
        assert_eq!(
            kernel(&b, "k").prog_info[0].value,
            0x000c_0080,
            "LLVM {llvm}"
        );
    }
    // The minimum: user SGPRs, group ids, TG_SIZE, local-id VGPRs.
    let (r1, ..) = rsrc("pitcairn", ".dims xyz\n.tgsize\n.userdatanum 12", "");
    // 16 SGPRs + VCC, 3 VGPRs (field 0).
    assert_eq!(r1 & 0x3ff, 2 << 6);
    // FLAT_SCRATCH: 4 extra on GCN 1.1; FLAT_SCRATCH + XNACK_MASK: 6 on 1.2.
    let (r1, ..) = rsrc("bonaire", "", "s_mov_b32 s7, 0\ns_mov_b64 flat_scratch, 0");
    assert_eq!(r1 & 0x3c0, 1 << 6);
    let (r1, ..) = rsrc("bonaire", "", "s_mov_b32 s12, 0\ns_mov_b64 flat_scratch, 0");
    assert_eq!(r1 & 0x3c0, 2 << 6);
    let (r1, ..) = rsrc(
        "tonga",
        "",
        "s_mov_b32 s10, 0\ns_mov_b64 xnack_mask, 0\ns_mov_b64 flat_scratch, 0",
    );
    assert_eq!(r1 & 0x3c0, 2 << 6); // 11 + 6 = 17
    let (r1, ..) = rsrc("tonga", "", "s_mov_b32 s9, 0\ns_mov_b64 xnack_mask, 0");
    assert_eq!(r1 & 0x3c0, 1 << 6); // 10 + 4 = 14
                                    // The automatic count is capped at the GPU's SGPRs.
    let (r1, ..) = rsrc("tonga", "", "s_mov_b32 s101, 0\ns_mov_b64 vcc, 0");
    assert_eq!(r1 & 0x3c0, 12 << 6); // 102
                                     // `.arch` selects the version (and so the extra registers) too.
    let b = gal(
        ".gallium\n.arch GCN1.2\n.32bit\n.kernel k\n.config\n.text\n\
        k: s_mov_b64 xnack_mask, 0\ns_mov_b32 s9, 0\n",
    );
    assert!(!b.is_64bit);
    assert_eq!(kernel(&b, "k").prog_info[0].value & 0x3c0, 1 << 6); // 10 + 4
                                                                    // From LLVM 3.9 on, VCC is always counted.
    let b = gal(".gallium\n.llvm_version 30900\n.gpu pitcairn\n.kernel k\n.config\n.text\nk: s_mov_b32 s7, 0\n");
    assert_eq!(kernel(&b, "k").prog_info[0].value & 0x3c0, 1 << 6);
}

#[test]
fn register_counts_per_kernel() {
    // Code from a kernel label to the next kernel label belongs to it;
    // other labels do not end a kernel; code before any kernel label
    // belongs to none; a kernel may be declared after its code.
    let src = ".gallium\n.gpu tahiti\n.kernel a\n.config\n.text\n\
        v_mov_b32 v60, 0\n\
        a: v_mov_b32 v7, 0\nloop: v_mov_b32 v11, 0\n s_endpgm\n\
        b: v_mov_b32 v3, 0\n s_endpgm\n\
        .kernel b\n.config\n";
    let bin = gal(src);
    assert_eq!(kernel(&bin, "a").prog_info[0].value & 0x3f, 2); // 12 VGPRs
    assert_eq!(kernel(&bin, "b").prog_info[0].value & 0x3f, 0); // 4 VGPRs
                                                                // .kcode: shared code counts for the kernels it names.
    let src = ".gallium\n.gpu tahiti\n.kernel a\n.config\n.kernel b\n.config\n.kernel c\n.config\n.text\n\
        a: s_endpgm\nb: s_endpgm\nc: s_endpgm\n\
        .kcode +\n v_mov_b32 v4, 0\n.kcodeend\n\
        .kcode a, b\n v_mov_b32 v8, 0\n .kcode -a\n  v_mov_b32 v12, 0\n .kcodeend\n\
        v_mov_b32 v9, 0\n.kcodeend\n\
        v_mov_b32 v30, 0\n";
    let bin = gal(src);
    let vgpr_field = |k: &str| kernel(&bin, k).prog_info[0].value & 0x3f;
    // a: v9 (10 VGPRs); b: v12 (13); c: v4 then v30 after the last label.
    assert_eq!(vgpr_field("a"), 2);
    assert_eq!(vgpr_field("b"), 3);
    assert_eq!(vgpr_field("c"), 7);
    // A kernel label inside .kcode does not change the membership.
    let src = ".gallium\n.kernel a\n.config\n.kernel b\n.config\n.text\n\
        a: s_endpgm\n.kcode a\nb: v_mov_b32 v20, 0\n.kcodeend\n s_endpgm";
    let bin = gal(src);
    assert_eq!(kernel(&bin, "a").prog_info[0].value & 0x3f, 5);
    assert_eq!(kernel(&bin, "b").prog_info[0].value & 0x3f, 0);
}

#[test]
fn kcode_errors() {
    let k = ".gallium\n.kernel a\n.config\n.text\na: s_endpgm\n";
    assert_err(&format!("{k}.kcode b\n.kcodeend"), "unknown kernel 'b'");
    assert_err(&format!("{k}.kcodeend"), ".kcodeend without .kcode");
    assert_err(&format!("{k}.kcode a\n"), "missing .kcodeend");
    assert_err(&format!("{k}.kcode\n"), "expected kernel names or '+'");
    assert_err(&format!("{k}.kcode a b\n"), "expected ','");
    assert_err(&format!("{k}.kcode a,\n"), "expected a kernel name");
    // A kernel declared after the .kcode is unknown to it.
    assert_err(
        ".gallium\n.text\n.kcode late\n.kcodeend\n.kernel late",
        "unknown kernel 'late'",
    );
}

#[test]
fn kernels_layout_and_sections() {
    let src = ".gallium\n.gpu bonaire\n\
        .kernel zeta\n .args\n .arg global, 8\n .config\n\
        .kernel alpha\n .config\n .dims x\n\
        .globaldata\n .int 7, 8\n\
        .text\nzeta: s_endpgm\n.p2align 8\nalpha: s_endpgm\n";
    let b = gal(src);
    let names: Vec<_> = b.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["alpha", "zeta"]);
    assert_eq!(kernel(&b, "alpha").offset, 256);
    assert_eq!(kernel(&b, "zeta").offset, 0);
    assert_eq!(b.code.len(), 260);
    assert_eq!(
        b.global_data.as_deref(),
        Some(&[7, 0, 0, 0, 8, 0, 0, 0][..])
    );
    assert!(!b.is_64bit);
    // .64bit: an ELF64 inner binary.
    let b = gal(&format!(".64bit\n{src}"));
    assert!(b.is_64bit);
    let bytes = assembled(&format!(".64bit\n{src}"))
        .gallium_bytes()
        .unwrap();
    let elf = bytes.windows(4).position(|w| w == b"\x7fELF").unwrap();
    assert_eq!(bytes[elf + 4], 2);
    assert_eq!(&bytes[elf + 256..elf + 260], &[0x00, 0x00, 0x81, 0xbf]);
    // No global data: no .rodata.
    let b = gal(".gallium\n.kernel k\n.config\n.text\nk: s_endpgm");
    assert_eq!(b.global_data, None);
    // .kernel makes .text current again.
    let b = gal(".gallium\n.globaldata\n.byte 1\n.kernel k\n.config\nk: s_endpgm");
    assert_eq!(b.code, [0, 0, 0x81, 0xbf]);
    assert_eq!(b.global_data, Some(vec![1]));
    // A kernel can be re-entered to add arguments.
    let b = gal(
        ".gallium\n.kernel k\n.args\n.arg scalar, 4\n.kernel j\n.config\n\
        .kernel k\n.args\n.arg global, 8\n.config\n.text\nk: s_endpgm\nj: s_endpgm",
    );
    assert_eq!(kernel(&b, "k").args.len(), 2);
}

#[test]
fn kernel_symbol_errors_and_warnings() {
    assert_err(
        ".gallium\n.kernel k\n.config",
        "kernel 'k' has no code: define the label 'k:' in .text",
    );
    assert_err(
        ".gallium\n.kernel k\n.config\n.globaldata\nk: .byte 1",
        "the symbol of kernel 'k' must be a label in .text",
    );
    assert_err(".gallium\n.kernel\n", "expected a kernel name");
    assert_err(".gallium\n.kernel a b\n", "unexpected text");
    // Neither .config nor .proginfo: clrxasm's default entries and a
    // warning.
    let a = assembled(".gallium\n.kernel k\n.text\nk: s_endpgm");
    assert!(a
        .warnings
        .iter()
        .any(|w| w.message.contains("neither .config nor .proginfo")));
    assert_eq!(
        a.gallium.unwrap().kernels[0].prog_info,
        vec![
            ProgInfoEntry {
                address: 0xb848,
                value: 0x000c_0000
            },
            ProgInfoEntry {
                address: 0xb84c,
                value: 0x0000_1788
            },
            ProgInfoEntry {
                address: 0xb860,
                value: 0
            },
        ]
    );
    // Gallium pseudo-ops need the Gallium format.
    assert_err(
        ".rawcode\n.globaldata",
        ".globaldata belongs to the Gallium format",
    );
    assert!(assembled(".rawcode\ns_endpgm").gallium.is_none());
    assert!(assembled(".rawcode\ns_endpgm").gallium_bytes().is_err());
}

#[test]
fn versions() {
    let a = assembled(
        ".gallium\n.llvm_version 30900\n.driver_version 110200\n\
        .get_llvm_version l\n.get_driver_version d\n.int l, d\n",
    );
    assert_eq!(a.text(), &[0xb4, 0x78, 0, 0, 0x78, 0xae, 0x01, 0]);
    let a = assembled(".gallium\n.get_llvm_version l\n.int l\n");
    assert_eq!(a.text(), &[0, 0, 0, 0]);
    assert_err(
        ".gallium\n.llvm_version 40000",
        "AMDHSA Gallium format, which is not supported",
    );
    assert_err(".gallium\n.llvm_version -1", "version out of range");
    assert_err(".gallium\n.get_llvm_version", "expected a symbol name");
}

/// The conformance kernel `config-vadd.s` with its buffer instructions
/// written as words (the memory instructions are not encoded yet): the
/// binary is byte-identical to the clrxasm reference apart from `.comment`.
#[test]
fn config_vadd_with_buffer_words() {
    let src = ".gallium\n.gpu Pitcairn\n.kernel vadd\n .args\n\
        .arg scalar, 4\n.arg global, 8\n.arg global, 8\n.arg global, 8\n\
        .arg griddim, 4\n.arg gridoffset, 4\n\
        .config\n.dims x\n.tgsize\n.text\nvadd:\n\
        s_load_dword s2, s[0:1], 6\n s_load_dword s3, s[0:1], 9\n s_load_dword s1, s[0:1], 18\n\
        s_load_dwordx2 s[8:9], s[0:1], 11\n s_load_dwordx2 s[12:13], s[0:1], 13\n\
        s_load_dwordx2 s[6:7], s[0:1], 15\n s_waitcnt lgkmcnt(0)\n s_mul_i32 s0, s2, s4\n\
        s_add_u32 s0, s0, s1\n v_add_i32 v0, vcc, s0, v0\n v_cmp_gt_u32 vcc, s3, v0\n\
        s_and_saveexec_b64 s[0:1], vcc\n s_cbranch_execz end\n s_mov_b32 s4, s6\n\
        s_mov_b32 s5, s7\n s_mov_b32 s6, -1\n s_mov_b32 s7, 0xf000\n s_mov_b32 s10, s6\n\
        s_mov_b32 s11, s7\n s_mov_b32 s14, s6\n s_mov_b32 s15, s7\n v_lshrrev_b32 v1, 30, v0\n\
        v_lshlrev_b32 v0, 2, v0\n .int 0xe0308000, 0x80020200\n .int 0xe0308000, 0x80030300\n\
        s_waitcnt vmcnt(0)\n v_add_f32 v2, v2, v3\n .int 0xe0708000, 0x80010200\nend:\n s_endpgm\n";
    let a = assembled(src);
    let ours = gcn_asm::gallium::write_with(
        a.gallium.as_ref().unwrap(),
        &gcn_asm::gallium::WriteOptions {
            comment: "CLRX GalliumBinGenerator 0.1.9".into(),
        },
    )
    .unwrap();
    const WHAT: &str = "the byte comparison with clrxasm's config-vadd binary";
    let Some(shared) = common::shared_dir_for(WHAT) else {
        return;
    };
    let path = shared.join("conformance/gallium/config-vadd.clrxasm.bin");
    let Ok(reference) = std::fs::read(&path) else {
        common::skipped(WHAT, &path);
        return;
    };
    assert_eq!(read(&ours).unwrap(), read(&reference).unwrap());
    assert!(ours == reference, "bytes differ from the reference");
}

#[test]
fn cli_writes_gallium() {
    let dir = std::env::temp_dir().join(format!("gcnasm-gallium-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("k.s");
    std::fs::write(
        &src,
        ".gallium\n.kernel k\n.config\n.dims x\n.text\nk: s_endpgm\n",
    )
    .unwrap();
    let exe = env!("CARGO_BIN_EXE_gcnasm");
    // `.gallium` selects the format when -b is absent.
    let out = dir.join("auto.bin");
    let status = std::process::Command::new(exe)
        .arg("-o")
        .arg(&out)
        .arg(&src)
        .status()
        .unwrap();
    assert!(status.success());
    let b = read(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(b.kernels[0].name, "k");
    // -b gallium for a source without .gallium.
    std::fs::write(&src, ".kernel k\n.config\n.text\nk: s_endpgm\n").unwrap();
    let out2 = dir.join("explicit.bin");
    let status = std::process::Command::new(exe)
        .args(["-g", "tonga", "-b", "gallium", "-o"])
        .arg(&out2)
        .arg(&src)
        .status()
        .unwrap();
    assert!(status.success());
    let b = read(&std::fs::read(&out2).unwrap()).unwrap();
    assert_eq!(b.code, [0, 0, 0x81, 0xbf]);
    // -b rawcode wins over .gallium in the source.
    std::fs::write(&src, ".gallium\ns_endpgm\n").unwrap();
    let out3 = dir.join("raw.bin");
    let status = std::process::Command::new(exe)
        .args(["-b", "rawcode", "-o"])
        .arg(&out3)
        .arg(&src)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(std::fs::read(&out3).unwrap(), [0, 0, 0x81, 0xbf]);
    // Errors found at the end point at the kernel.
    std::fs::write(&src, ".gallium\n.kernel nolabel\n.config\n").unwrap();
    let output = std::process::Command::new(exe)
        .args(["-o"])
        .arg(dir.join("x.bin"))
        .arg(&src)
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("k.s:2:9: error: kernel 'nolabel' has no code"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn named_arguments() {
    let src = ".gallium\n.kernel k\n .args\n\
        .arg n, scalar, 4\n\
        .arg global, 8\n\
        .arg out, global, 8, 8, 8, zext, general  # comment\n\
        .arg delta, scalar, 2, 4, 4, sext\n\
        .arg dims, griddim\n\
        .arg gridoffset\n\
        .proginfo\n.text\nk: s_endpgm\n";
    let a = assembled(src);
    let b = a.gallium.clone().unwrap();
    use ArgSemantic::*;
    use ArgType::*;
    assert_eq!(
        kernel(&b, "k").args,
        vec![
            arg(Scalar, 4, 4, 4, false, General),
            arg(Global, 8, 8, 8, false, General),
            arg(Global, 8, 8, 8, false, General),
            arg(Scalar, 2, 4, 4, true, General),
            arg(Scalar, 4, 4, 4, false, GridDimension),
            arg(Scalar, 4, 4, 4, false, GridOffset),
        ]
    );
    assert_eq!(a.gallium_decls.len(), 1);
    let d = &a.gallium_decls[0];
    assert_eq!(d.name, "k");
    assert_eq!((d.pos.line, d.pos.column), (2, 9));
    let names: Vec<_> = d.args.iter().map(|a| a.name.as_deref()).collect();
    assert_eq!(
        names,
        [
            Some("n"),
            None,
            Some("out"),
            Some("delta"),
            Some("dims"),
            None
        ]
    );
    assert_eq!(
        d.args[2].declaration,
        ".arg out, global, 8, 8, 8, zext, general"
    );
    assert_eq!((d.args[3].pos.line, d.args[3].pos.column), (7, 6));
    assert_eq!((d.args[1].pos.line, d.args[1].pos.column), (5, 1));
    // Names change nothing in the binary.
    let unnamed = src
        .replace("n, scalar", "scalar")
        .replace("out, ", "")
        .replace("delta, ", "")
        .replace("dims, ", "");
    assert_eq!(
        assembled(&unnamed).gallium_bytes().unwrap(),
        a.gallium_bytes().unwrap()
    );
}

#[test]
fn named_argument_errors() {
    let k = ".gallium\n.kernel k\n .args\n";
    assert_err(
        &format!("{k}.arg n, scalar, 4\n.arg n, global, 8"),
        "5:6: argument name 'n' is already used by argument 0 of kernel 'k'",
    );
    assert_err(
        &format!("{k}.arg n, scaler, 4"),
        "4:9: unknown argument type 'scaler' after the argument name 'n'",
    );
    // Not a name: a misspelt type stays a misspelt type.
    assert_err(
        &format!("{k}.arg scaler, 4"),
        "4:6: unknown argument type 'scaler'",
    );
    assert_err(
        &format!("{k}.arg n, global"),
        "global argument needs a size",
    );
    // A type keyword is never a name.
    assert_err(
        &format!("{k}.arg global, scalar, 4"),
        "must be defined here",
    );
}

fn reloc(offset: u32, half: ScratchHalf) -> ScratchRelocation {
    ScratchRelocation { offset, half }
}

/// `.scratchsym`: every allowed form of the low and high halves, in any
/// instruction's 32-bit literal, before or after `.scratchsym`, through
/// other symbols; the literal words stay 0 and the relocations read back
/// (ELF32 and ELF64).
#[test]
fn scratch_symbol_relocations() {
    use ScratchHalf::{High, Low};
    for bits in [".32bit", ".64bit"] {
        let b = gal(&format!(
            ".gallium\n.gpu bonaire\n{bits}\n.kernel k\n .config\n  .dims x\n.text\nk:\n\
             s_mov_b32 s13, scratch>>32\n\
             s_mov_b32 s12, scratch&0xffffffff\n\
             .scratchsym scratch\n\
             s_mov_b32 s12, scratch\n\
             s_mov_b32 s12, scratch%0x100000000\n\
             s_mov_b32 s12, scratch%%0x100000000\n\
             s_mov_b32 s13, scratch/0x100000000\n\
             s_mov_b32 s13, scratch//0x100000000\n\
             v_add_f32 v1, scratch&0xffffffff, v2\n\
             s_mov_b32 s0, lit(scratch>>32)\n\
             s_and_b32 s0, s1, hi\n\
             s_endpgm\n\
             hi = scratch >> 32\n"
        ));
        assert_eq!(
            b.scratch_relocations,
            vec![
                reloc(4, High),
                reloc(12, Low),
                reloc(20, Low),
                reloc(28, Low),
                reloc(36, Low),
                reloc(44, High),
                reloc(52, High),
                reloc(60, Low),
                reloc(68, High),
                reloc(76, High),
            ],
            "{bits}"
        );
        for r in &b.scratch_relocations {
            let o = r.offset as usize;
            assert_eq!(&b.code[o..o + 4], &[0; 4]);
            // The word before is the instruction with the literal code.
            assert!(
                b.code[o - 4] == 0xff || b.code[o - 3] == 0xff,
                "{:#x}",
                r.offset
            );
        }
    }
    // Without `.scratchsym` nothing changes: no relocations, no .rel.text.
    let plain = assembled(".gallium\n.kernel k\n.text\nk: s_mov_b32 s0, 5\n s_endpgm\n");
    let bytes = plain.gallium_bytes().expect("writable");
    assert!(!bytes.windows(9).any(|w| w == b".rel.text"));
    assert!(read(&bytes)
        .expect("readable")
        .scratch_relocations
        .is_empty());
}

/// The inner ELF holds a `.rel.text` against `SCRATCH_RSRC_DWORD0`/`1`,
/// which the reader resolves by symbol name (as Mesa does): another
/// relocation type still reads; a bad symbol index, an unknown symbol,
/// an offset outside the code are errors, never panics.
#[test]
fn scratch_relocations_in_the_inner_elf() {
    let a = assembled(
        ".gallium\n.scratchsym s\n.kernel k\n.text\nk: s_mov_b32 s0, s>>32\n s_mov_b32 s1, s\n s_endpgm\n",
    );
    let bytes = a.gallium_bytes().expect("writable");
    let find = |needle: &[u8]| bytes.windows(needle.len()).position(|w| w == needle);
    assert!(find(b".rel.text\0").is_some());
    assert!(find(b"SCRATCH_RSRC_DWORD0\0SCRATCH_RSRC_DWORD1\0").is_some());
    // The relocations are the last 16 bytes (ELF32: offset, info).
    let n = bytes.len();
    let rel = &bytes[n - 16..];
    let info = |i: usize| u32::from_le_bytes(rel[i..i + 4].try_into().unwrap());
    assert_eq!((info(0), info(4) & 0xff), (4, 2)); // high: R_AMDGPU_ABS32_HI
    assert_eq!((info(8), info(12) & 0xff), (12, 1)); // low: R_AMDGPU_ABS32_LO
    let (hi_sym, lo_sym) = (info(4) >> 8, info(12) >> 8);
    assert_eq!(hi_sym, lo_sym + 1);
    let expected = vec![reloc(4, ScratchHalf::High), reloc(12, ScratchHalf::Low)];
    assert_eq!(read(&bytes).unwrap().scratch_relocations, expected);

    let patched = |at: usize, value: u32| {
        let mut b = bytes.clone();
        b[at..at + 4].copy_from_slice(&value.to_le_bytes());
        read(&b)
    };
    // Type 0 instead of 2: still the high half (by symbol name).
    assert_eq!(
        patched(n - 12, hi_sym << 8).unwrap().scratch_relocations,
        expected
    );
    // The symbols swapped: the halves follow the names.
    assert_eq!(
        patched(n - 12, lo_sym << 8 | 2)
            .unwrap()
            .scratch_relocations[0]
            .half,
        ScratchHalf::Low
    );
    let message = |r: Result<GalliumBinary, gcn_asm::gallium::GalliumError>| {
        r.expect_err("malformed").message
    };
    assert!(message(patched(n - 12, 9999 << 8 | 2)).contains("past the symbol table"));
    // Symbol 1 is `EndOfTextLabel`.
    assert!(message(patched(n - 12, 1 << 8 | 2)).contains("'EndOfTextLabel'"));
    assert!(message(patched(n - 16, 0x1000)).contains("not inside the code"));
    assert!(message(patched(n - 16, 12)).contains("two scratch relocations"));
    // Truncated relocation data: the section lies outside the file.
    assert!(read(&bytes[..n - 1]).is_err());

    // The writer refuses what the reader refuses.
    let mut b = read(&bytes).unwrap();
    b.scratch_relocations
        .push(reloc(b.code.len() as u32 - 2, ScratchHalf::Low));
    assert!(gcn_asm::gallium::write(&b).is_err());
    b.scratch_relocations.pop();
    b.scratch_relocations.push(reloc(4, ScratchHalf::Low));
    assert!(gcn_asm::gallium::write(&b).is_err());
}

#[test]
fn scratch_symbol_errors() {
    let src =
        |code: &str| format!(".gallium\n.scratchsym sc\n.kernel k\n.text\nk:\n{code}\n s_endpgm\n");
    // An offset, another operation, another shift or mask.
    assert_err(
        &src("s_mov_b32 s0, sc+4"),
        "6:17: the scratch symbol (.scratchsym) takes no offset",
    );
    assert_err(&src("s_mov_b32 s0, 4+sc"), "6:16: the scratch symbol");
    assert_err(&src("s_mov_b32 s0, sc>>31"), "6:17: the scratch symbol");
    assert_err(&src("s_mov_b32 s0, sc&0xffff"), "6:17: the scratch symbol");
    assert_err(
        &src("s_mov_b32 s0, (sc>>32)&0xffffffff"),
        "6:23: the scratch symbol",
    );
    assert_err(&src("s_mov_b32 s0, -sc"), "the scratch symbol");
    assert_err(&src("s_mov_b32 s0, sc-sc"), "6:17: the scratch symbol");
    // Places that are not a 32-bit literal.
    assert_err(&src("s_movk_i32 s0, sc"), "6:16: the scratch symbol");
    assert_err(&src("s_branch sc"), "6:10: the scratch symbol");
    assert_err(
        &src("s_load_dword s0, s[0:1], sc"),
        "6:26: the scratch symbol",
    );
    assert_err(
        &src("buffer_load_dword v1, s[4:7], 0 offset:sc"),
        "the scratch symbol",
    );
    assert_err(&src("buffer_load_dword v1, s[4:7], sc"), "not a literal");
    assert_err(&src("s_waitcnt sc"), "scratch");
    assert_err(&src(".int sc"), "6:6: the scratch symbol");
    assert_err(&src(".int fwd\nfwd = sc>>32"), "6:6: the scratch symbol");
    assert_err(&src(".if sc\n.endif"), "6:5: the scratch symbol");
    assert_err(
        &src("tbuffer_load_format_x v1, s[4:7], 0 format:[@sc,float]"),
        "cannot be the scratch symbol",
    );
    // One scratch symbol, a new one, a Gallium source.
    assert_err(
        ".gallium\n.scratchsym a\n.scratchsym b\n",
        "3:13: the scratch symbol is already set (.scratchsym a)",
    );
    assert_err(
        ".gallium\nx = 1\n.scratchsym x\n",
        "3:13: symbol 'x' is already defined",
    );
    assert_err(
        ".gallium\n.scratchsym a\na:\n",
        "symbol 'a' is already defined",
    );
    assert_err(".gallium\n.scratchsym\n", "2:12: expected a symbol name");
    assert_err(".rawcode\n.scratchsym a\n", "belongs to the Gallium format");
}
