//! Issue 23, "fuzz every input surface", for the assembler crate: source
//! text (mutated kernels and conformance sources), Gallium binary bytes
//! (the reader and the Gallium disassembler), ROCm code-object bytes (the
//! reader and its listing) and instruction words (the decoder and its
//! listing). Each campaign is time-boxed by
//! `GCN_FUZZ_SECONDS` (see `common/fuzz.rs`); no panic, no hang, bounded
//! memory, and every error non-empty and, for text, located.

mod common;
#[path = "common/fuzz.rs"]
mod fuzz;

use std::time::Duration;

use fuzz::{campaign, mutate_bytes, mutated_text, Rng, Verdict, Violation};
use gcn_asm::decode::gallium::{listing, Target};
use gcn_asm::decode::{decode, disassemble, Item};
use gcn_asm::{assemble, gallium, rocm, AssembleOptions, Device, Diagnostics, GcnVersion};

#[global_allocator]
static ALLOC: fuzz::Counting = fuzz::Counting;

/// Kernels of the project (always present).
const KERNELS: &[&str] = &[
    include_str!("../../tests/kernels/vadd.s"),
    include_str!("../../tests/kernels/vadd_body.inc"),
    include_str!("../../tests/kernels/sample.s"),
    include_str!("../../tests/kernels/image_rw.s"),
    include_str!("../../tests/kernels/seed-dct.s"),
    include_str!("../../examples/kernels/scale_offsets.s"),
    ".gallium\n.gpu tonga\n.kernel k\n  .args\n    .arg out, global, 8\n    .arg n, scalar, 4\n    .arg griddim\n  .config\n    .dims xy\n    .sgprsnum 16\n    .vgprsnum 8\n    .localsize 1024\n    .pgmrsrc2 0x10\n.text\nk:\n  s_load_dwordx2 s[2:3], s[0:1], 0x24\n  s_waitcnt lgkmcnt(0)\n  v_mov_b32 v1, s3\n  flat_store_dword v[0:1], v1\n  s_endpgm\n",
    ".macro m a, b=2\n  s_add_u32 s\\a, s\\b, \\a + \\b\n.endm\n.rept 3\n  m 1\n.endr\n.irp x, 1, 2\n  v_add_f32 v\\x, -|v1|, 1.5 clamp\n.endr\n.if 1 << 3 > 7\n  .int 0x10, 077, 'a'\n.else\n  .error \"no\"\n.endif\n.set y, . - 4\n1: s_cbranch_scc0 1b\n.float 1.5e3\n.rodata\n.byte 1, 2\n",
    ".rocm\n.gpu gfx900\n.kernel k\n  .config\n    .dims x\n    .use_kernarg_segment_ptr\n.text\nk:\n  .skip 256\n  s_endpgm\n",
    ".rocm\n.gpu gfx906\n.llvm10binfmt\n.metadatav3\n.md_version 1, 1\n.printf 1, 4, \"x=%d\"\n.globaldata\n.skip 128\n.kernel a\n  .config\n    .dims xy\n    .use_private_segment_buffer\n    .use_kernarg_segment_ptr\n    .private_segment_fixed_size 16\n    .arg p, \"int*\", 8, 0, globalbuf, i32, global, default restrict\n    .arg l, \"int*\", 4, , dynshptr, i32, 4, local\n    .arg , \"\", 8, , printfbuf, i8\n.kernel b\n  .config\n    .reqd_work_group_size 64, 1, 1\n.text\na: s_endpgm\n.p2align 8\nb: v_mov_b32 v3, s9\n  s_endpgm\n",
    ".rocm\n.gpu gfx900\n.eflags 0x2c\n.llvm10binfmt\n.metadatav3\n.global g\ng = .gdata + 128\n.gotsym g, ge\n.global k\n.gotsym k\n.globaldata\n.gdata:\n.skip 128\n.int 1, 2\n.kernel k\n  .config\n    .use_ordered_append_gds\n    .shared_vgprs 0\n.kernel k2\n.text\nk:\n  s_getpc_b64 s[0:1]\n.Lp:\n  s_add_u32 s0, s0, (ge-.Lp)&0xffffffff\n  s_addc_u32 s1, s1, (.wdata+8-.Lp)>>32\n  s_endpgm\nk2: s_endpgm\n.section .data, \"aw\"\n.wdata:\n.quad .wdata+8, .gdata, k\n.int .gdata-.wdata\n",
    ".rawcode\n.gpu gfx906\nv_fma_mix_f32 v0, v1, v2, v3 op_sel:[1,0,0]\nglobal_load_dword v0, v[1:2], off offset:-8\nds_read_b32 v1, v2 offset:4\n",
];

/// Tokens worth inserting: pseudo-ops, operands, modifiers.
const TOKENS: &[&str] = &[
    ".macro m",
    ".endm",
    ".rept 1000000",
    ".endr",
    ".irp x,",
    ".if",
    ".else",
    ".endif",
    ".kernel",
    ".args",
    ".arg",
    ".config",
    ".text",
    ".rodata",
    ".gallium",
    ".rocm",
    ".rawcode",
    ".64bit",
    ".gpu",
    ".arch",
    ".align 4096",
    ".skip",
    ".fill 1000, 8,",
    ".org",
    ".set",
    ".int",
    ".quad",
    ".octa",
    ".scope",
    ".ends",
    ".include \"x\"",
    ".dims",
    ".localsize",
    ".scratchbuffer",
    ".sgprsnum",
    ".vgprsnum",
    ".pgmrsrc1",
    ".pgmrsrc2",
    "s[0:1]",
    "v[0:255]",
    "s[102:103]",
    "ttmp[0:3]",
    "vcc",
    "exec",
    "m0",
    "lit(",
    "abs(",
    "-|",
    "|",
    "sext(",
    "offset:",
    "glc",
    "slc",
    "format:[",
    "dmask:",
    "row_shl:",
    "quad_perm:[",
    "op_sel:[",
    "hwreg(",
    "sendmsg(",
    "vmcnt(",
    "1b",
    "2f",
];

/// Every seed source: the project's kernels and, when `../shared` is
/// present, the conformance sources (the encoding cases and the Gallium
/// goldens).
fn seeds() -> Vec<(String, Option<Device>)> {
    let mut seeds: Vec<(String, Option<Device>)> =
        KERNELS.iter().map(|k| (k.to_string(), None)).collect();
    if let Some(dir) = common::shared_dir_for("the conformance sources as fuzz seeds") {
        for sub in ["conformance/gallium", "conformance/rocm"] {
            if let Ok(entries) = std::fs::read_dir(dir.join(sub)) {
                for e in entries.flatten() {
                    if e.path().extension().is_some_and(|x| x == "s") {
                        if let Ok(text) = std::fs::read_to_string(e.path()) {
                            seeds.push((text, None));
                        }
                    }
                }
            }
        }
    }
    if let Some(cases) = common::encoding_cases("the encoding cases as fuzz seeds") {
        for line in cases.lines().step_by(3) {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let device = v["device"].as_str().and_then(Device::from_name);
            if let Some(src) = v["source"].as_str() {
                seeds.push((src.replace(';', "\n"), device));
            }
        }
    }
    seeds
}

/// An input of the text surface.
#[derive(Debug)]
struct TextInput {
    device: Option<Device>,
    text: String,
}

/// The contract of a rejected source: errors with a message and a
/// position inside the source (`FILE:LINE:COL`).
fn located(d: &Diagnostics, text: &str, file: &str) -> Result<Verdict, Violation> {
    let lines = text.split('\n').count() as u32;
    let mut any = false;
    for e in d.errors() {
        any = true;
        if e.message.trim().is_empty() {
            return Err(format!("an error with an empty message: {e}"));
        }
        if e.pos.line == 0 || e.pos.column == 0 {
            return Err(format!("an error without a position: {e}"));
        }
        if e.pos.file.as_ref() == file && e.pos.line > lines + 1 {
            return Err(format!("an error past the last line ({lines}): {e}"));
        }
        let shown = e.to_string();
        let place = format!("{}:{}:{}: error: ", e.pos.file, e.pos.line, e.pos.column);
        if !shown.starts_with(&place) {
            return Err(format!("an error not shown as FILE:LINE:COL: {shown}"));
        }
    }
    if any {
        Ok(Verdict::Rejected)
    } else {
        Err(format!("rejected without an error: {d}"))
    }
}

#[test]
fn fuzz_assembler_text() {
    let seeds: &'static [(String, Option<Device>)] = Box::leak(seeds().into_boxed_slice());
    let corpus: &'static [&str] = Box::leak(seeds.iter().map(|(s, _)| s.as_str()).collect());
    let devices = [
        Device::Pitcairn,
        Device::Bonaire,
        Device::Tonga,
        Device::Gfx900,
        Device::Gfx906,
    ];
    let gen = move |rng: &mut Rng| {
        // The project's kernels (the first seeds) half of the time.
        let pick = match rng.one_in(2) {
            true => rng.below(KERNELS.len()),
            false => rng.below(seeds.len()),
        };
        let (seed, device) = &seeds[pick];
        let text = mutated_text(rng, seed, corpus, TOKENS, 4);
        let device = if rng.one_in(4) {
            Some(*rng.pick(&devices))
        } else {
            *device
        };
        TextInput { device, text }
    };
    let report = campaign(
        "assembler text",
        Duration::from_secs(20),
        gen,
        |input: &TextInput| {
            let options = AssembleOptions {
                device: input.device,
                ..AssembleOptions::default()
            };
            match assemble(&input.text, &options) {
                Ok(out) => {
                    // The writers of whatever assembles.
                    let _ = out.gallium_bytes();
                    let _ = out.rocm_bytes();
                    Ok(Verdict::Ok)
                }
                Err(d) => located(&d, &input.text, "<stdin>"),
            }
        },
    );
    assert!(report.inputs > 0);
}

/// A valid Gallium binary of each shape (32/64-bit, 3 or 5 proginfo
/// entries, kernels with many argument kinds, `.rodata`) and the offsets of
/// its records and headers.
fn gallium_seeds() -> Vec<(Vec<u8>, Vec<usize>)> {
    let mut sources: Vec<String> = KERNELS
        .iter()
        .filter(|k| k.contains(".gallium") || k.contains(".kernel") && !k.contains(".rocm"))
        .map(|k| k.to_string())
        .collect();
    sources.push(format!(".64bit\n{}", KERNELS[6]));
    sources.push(
        ".gallium\n.gpu pitcairn\n.llvm_version 40000\n.kernel a\n.args\n.arg scalar, 4\n.arg local, 4\n.arg image, 8\n.arg sampler, 4\n.arg constant, 8\n.arg gridoffset\n.config\n.dims xyz\n.scratchbuffer 64\n.kernel b\n.config\n.dims x\n.text\na: s_endpgm\nb: s_nop 0\ns_endpgm\n.rodata\n.int 1, 2, 3\n".into(),
    );
    let mut out = Vec::new();
    for src in sources {
        let Ok(asm) = assemble(&src, &AssembleOptions::default()) else {
            continue;
        };
        let Ok(bytes) = asm.gallium_bytes() else {
            continue;
        };
        // Hot spots: the kernel records at the start, the ELF header, every
        // section header (ELF32/64) and the symbols.
        let mut hot: Vec<usize> = (0..bytes.len().min(200)).step_by(4).collect();
        if let Some(elf) = bytes.windows(4).position(|w| w == b"\x7fELF") {
            hot.extend([
                elf - 8,
                elf - 4,
                elf,
                elf + 16,
                elf + 24,
                elf + 32,
                elf + 40,
                elf + 48,
            ]);
            let is64 = bytes.get(elf + 4) == Some(&2);
            let shoff = if is64 {
                u64::from_le_bytes(bytes[elf + 40..elf + 48].try_into().unwrap()) as usize
            } else {
                u32::from_le_bytes(bytes[elf + 32..elf + 36].try_into().unwrap()) as usize
            };
            let size = if is64 { 64 } else { 40 };
            for s in 0..12 {
                hot.extend((0..size).step_by(4).map(|k| elf + shoff + s * size + k));
            }
        }
        hot.retain(|&h| h < bytes.len());
        out.push((bytes, hot));
    }
    assert!(out.len() >= 5, "the Gallium seeds assemble");
    out
}

#[derive(Debug)]
struct BinaryInput {
    bytes: Vec<u8>,
}

#[test]
fn fuzz_gallium_reader() {
    let seeds = gallium_seeds();
    let gen = move |rng: &mut Rng| {
        let (seed, hot) = &seeds[rng.below(seeds.len())];
        let mut bytes = seed.clone();
        for _ in 0..1 + rng.below(4) {
            mutate_bytes(rng, &mut bytes, hot);
        }
        BinaryInput { bytes }
    };
    campaign(
        "gallium reader",
        Duration::from_secs(20),
        gen,
        |input: &BinaryInput| {
            match gallium::read(&input.bytes) {
                Ok(binary) => {
                    // The Gallium disassembler and the writer take whatever
                    // the reader accepts.
                    for target in [
                        Target::Device(Device::Pitcairn),
                        Target::Arch(GcnVersion::Gcn1_4),
                    ] {
                        if let Err(e) = listing(&binary, target) {
                            if e.message.trim().is_empty() {
                                return Err("the listing failed with an empty message".into());
                            }
                        }
                    }
                    let _ = gallium::write(&binary);
                    Ok(Verdict::Ok)
                }
                Err(e) if e.message.trim().is_empty() => {
                    Err("an error with an empty message".into())
                }
                Err(_) => Ok(Verdict::Rejected),
            }
        },
    );
}

/// Code objects of each kind: the clang-15 fixtures (v2-v5, gfx803-906,
/// a relocated global), the clrxasm goldens and our own writer's output,
/// with the offsets of their ELF, program and section headers and notes.
fn code_object_seeds() -> Vec<(Vec<u8>, Vec<usize>)> {
    let mut objects = Vec::new();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rocm");
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "co") {
            objects.push(std::fs::read(e.path()).unwrap());
        }
    }
    if let Some(shared) = common::shared_dir() {
        if let Ok(entries) = std::fs::read_dir(shared.join("conformance/rocm")) {
            for e in entries.flatten() {
                if e.path().to_string_lossy().ends_with(".clrxasm.bin") {
                    objects.push(std::fs::read(e.path()).unwrap());
                }
            }
        }
    }
    for src in KERNELS.iter().filter(|k| k.contains(".rocm")) {
        let asm = assemble(src, &AssembleOptions::default()).expect("the ROCm seeds assemble");
        objects.push(asm.rocm_bytes().expect("the ROCm seeds write"));
    }
    let le64 = |b: &[u8], at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap()) as usize;
    let le16 = |b: &[u8], at: usize| u16::from_le_bytes(b[at..at + 2].try_into().unwrap()) as usize;
    objects
        .into_iter()
        .map(|bytes| {
            let mut hot: Vec<usize> = (0..64).collect();
            let (phoff, phnum) = (le64(&bytes, 32), le16(&bytes, 56));
            let (shoff, shnum) = (le64(&bytes, 40), le16(&bytes, 60));
            hot.extend((0..phnum * 56).step_by(4).map(|k| phoff + k));
            hot.extend((0..shnum * 64).step_by(4).map(|k| shoff + k));
            // The notes (metadata) of a clang or CLRX object start at 0x200.
            hot.extend((0x200..0x300).step_by(2));
            hot.retain(|&h| h < bytes.len());
            (bytes, hot)
        })
        .collect()
}

#[test]
fn fuzz_code_object_reader() {
    let seeds = code_object_seeds();
    assert!(seeds.len() >= 9, "the code-object seeds");
    let gen = move |rng: &mut Rng| {
        let (seed, hot) = &seeds[rng.below(seeds.len())];
        let mut bytes = seed.clone();
        for _ in 0..1 + rng.below(4) {
            mutate_bytes(rng, &mut bytes, hot);
        }
        BinaryInput { bytes }
    };
    campaign(
        "code object reader",
        Duration::from_secs(20),
        gen,
        |input: &BinaryInput| match rocm::read(&input.bytes) {
            Ok(co) => {
                // The listing takes whatever the reader accepts, and what
                // it lists assembles.
                match gcn_asm::decode::rocm::listing(&co) {
                    Ok(text) => {
                        let options = AssembleOptions {
                            format: gcn_asm::syntax::assembler::BinaryFormat::Rocm,
                            ..AssembleOptions::default()
                        };
                        if let Ok(asm) = assemble(&text, &options) {
                            let _ = asm.rocm_bytes();
                        }
                        Ok(Verdict::Ok)
                    }
                    Err(e) if e.message.trim().is_empty() => {
                        Err("the listing failed with an empty message".into())
                    }
                    Err(_) => Ok(Verdict::Ok),
                }
            }
            Err(e) if e.message.trim().is_empty() => Err("an error with an empty message".into()),
            Err(_) => Ok(Verdict::Rejected),
        },
    );
}

#[derive(Debug)]
struct WordsInput {
    version: GcnVersion,
    words: Vec<u32>,
}

/// Fixed high bits of the encoding families (see disasm_fuzz.rs).
const PREFIXES: &[(u32, u32)] = &[
    (0x8000_0000, 0x0000_0000),
    (0xfe00_0000, 0x7c00_0000),
    (0xfe00_0000, 0x7e00_0000),
    (0xc000_0000, 0x8000_0000),
    (0xf000_0000, 0xb000_0000),
    (0xff80_0000, 0xbe80_0000),
    (0xff80_0000, 0xbf00_0000),
    (0xff80_0000, 0xbf80_0000),
    (0xfc00_0000, 0xc000_0000),
    (0xfc00_0000, 0xc800_0000),
    (0xfc00_0000, 0xd400_0000),
    (0xfc00_0000, 0xd000_0000),
    (0xff80_0000, 0xd380_0000),
    (0xfc00_0000, 0xd800_0000),
    (0xfc00_0000, 0xdc00_0000),
    (0xfc00_0000, 0xe000_0000),
    (0xfc00_0000, 0xe800_0000),
    (0xfc00_0000, 0xf000_0000),
    (0xfc00_0000, 0xf800_0000),
    (0xfc00_0000, 0xc400_0000),
];

/// Random words, biased to the families' fixed bits and to the special
/// operand codes (literal 255, SDWA 249, DPP 250).
pub fn random_words(rng: &mut Rng, max: usize) -> Vec<u32> {
    (0..1 + rng.below(max))
        .map(|_| match rng.below(4) {
            0 => rng.u32(),
            1 => rng.nasty_u32(),
            _ => {
                let (mask, value) = *rng.pick(PREFIXES);
                let w = (rng.u32() & !mask) | value;
                match rng.below(4) {
                    0 => (w & !0x1ff) | *rng.pick(&[249, 250, 255, 253, 124, 126, 106]),
                    _ => w,
                }
            }
        })
        .collect()
}

#[test]
fn fuzz_decoder_words() {
    let gen = |rng: &mut Rng| WordsInput {
        version: *rng.pick(&GcnVersion::ALL),
        words: random_words(rng, 24),
    };
    campaign(
        "decoder words",
        Duration::from_secs(20),
        gen,
        |input: &WordsInput| {
            let listing = disassemble(&input.words, input.version);
            let covered: usize = listing.items.iter().map(|d| d.len()).sum();
            if covered != input.words.len() {
                return Err(format!(
                    "the listing covers {covered} of {} words",
                    input.words.len()
                ));
            }
            for d in &listing.items {
                if let Item::Instruction(i) = d.item {
                    let _ = i.to_string();
                }
            }
            let text = listing.to_string();
            for offset in 0..input.words.len() {
                if let Err(e) = decode(&input.words[offset..], 0, input.version) {
                    if e.to_string().trim().is_empty() {
                        return Err("a decode error with an empty message".into());
                    }
                }
            }
            // The listing reassembles (disasm_fuzz checks it is the same words).
            let options = AssembleOptions {
                version: Some(input.version),
                format: gcn_asm::syntax::assembler::BinaryFormat::RawCode,
                ..AssembleOptions::default()
            };
            match assemble(&text, &options) {
                Ok(_) => Ok(Verdict::Ok),
                Err(d) => Err(format!("the listing does not reassemble: {d}\n{text}")),
            }
        },
    );
}

/// Inputs the campaigns found (each once panicked): located errors now.
#[test]
fn fuzz_findings_are_located_errors() {
    for src in [
        "1: s_cbranch_scc0 9223372036854775808\n",
        ".error \"\"\n",
        ".error \"  \"\n",
    ] {
        let d = assemble(src, &AssembleOptions::default()).expect_err(src);
        assert!(
            matches!(located(&d, src, "<stdin>"), Ok(Verdict::Rejected)),
            "{d}"
        );
    }
}
