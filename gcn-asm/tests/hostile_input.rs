//! Hostile input found by fuzzing (issue 23): each case ends quickly with a
//! located error (or succeeds where that is right), never a panic, an
//! abort or unbounded memory. Nothing here is timed: the speed of the
//! large generated inputs is measured by hand with the release tools.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use gcn_asm::{assemble, AssembleOptions, Device};

/// The first error's message and `LINE:COL`, or a panic when the source
/// assembles.
fn first_error(src: &str) -> (String, String) {
    first_error_with(src, &AssembleOptions::default())
}

fn first_error_with(src: &str, options: &AssembleOptions) -> (String, String) {
    match assemble(src, options) {
        Ok(_) => panic!("expected an error for {src:?}"),
        Err(d) => {
            let e = d.errors().next().expect("an error");
            (
                e.message.clone(),
                format!("{}:{}", e.pos.line, e.pos.column),
            )
        }
    }
}

/// A fresh directory for one test's files.
fn workdir(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("gcn-asm-hostile")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `gcnasm` on `src` (written to `dir/in.s`): the exit code and
/// stderr.
fn gcnasm(dir: &Path, src: &str) -> (Option<i32>, String) {
    std::fs::write(dir.join("in.s"), src).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gcnasm"))
        .args(["-o", "out.bin", "in.s"])
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const KERNEL: &str = ".gallium\n.kernel k\n.args\n";

// ---- 1. absurd argument sizes ----

#[test]
fn gallium_arg_sizes_beyond_the_input_limit_are_errors() {
    for size in ["0xfffffffd", "0xfffffffe", "0xffffffff", "0x100001"] {
        let src = format!("{KERNEL}.arg x, scalar, {size}\n");
        let (msg, at) = first_error(&src);
        assert!(msg.contains("argument size"), "{size}: {msg}");
        assert!(msg.contains("kernel input limit"), "{size}: {msg}");
        assert_eq!(at, "4:17", "{size}: {msg}");
    }
    // Target size and alignment likewise.
    let (msg, _) = first_error(&format!("{KERNEL}.arg scalar, 4, 0xfffffffc\n"));
    assert!(msg.contains("target size"), "{msg}");
    let (msg, _) = first_error(&format!("{KERNEL}.arg scalar, 4, 4, 0x80000000\n"));
    assert!(msg.contains("alignment"), "{msg}");
    // Arguments that each fit but together do not.
    let many = ".arg scalar, 0x80000\n".repeat(3);
    let (msg, at) = first_error(&format!("{KERNEL}{many}"));
    assert!(
        msg.contains("arguments of kernel 'k'") && msg.contains("kernel input limit"),
        "{msg}"
    );
    assert_eq!(at, "6:1", "{msg}");
    // Up to the limit is fine.
    let src = format!("{KERNEL}.arg scalar, 0x100000\n.text\nk: s_endpgm\n");
    assemble(&src, &AssembleOptions::default()).unwrap();
    // The CLI reports it located.
    let dir = workdir("arg_size");
    let (code, err) = gcnasm(&dir, &format!("{KERNEL}.arg x, scalar, 0xfffffffd\n"));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.starts_with("in.s:4:17: error: "), "{err}");
}

// ---- 2. unterminated quote in .arg ----

#[test]
fn gallium_arg_with_an_unterminated_quote_is_an_error() {
    for arg in [
        ".arg \"",
        ".arg x, \"scalar",
        ".arg scalar, 4, '\\",
        ".arg \"\\",
    ] {
        let (msg, _) = first_error(&format!("{KERNEL}{arg}\n"));
        assert!(msg.contains("unterminated"), "{arg}: {msg}");
    }
    let (msg, at) = first_error(".gallium\n.kernel k\n.config\n.dims \"x\n");
    assert!(msg.contains("unterminated"), "{msg}");
    assert_eq!(at, "4:7");
    let dir = workdir("arg_quote");
    let (code, err) = gcnasm(&dir, &format!("{KERNEL}.arg \"\n"));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.starts_with("in.s:4:6: error: "), "{err}");
}

// ---- 3. non-ASCII text at byte positions that are not char boundaries ----

#[test]
fn non_ascii_after_a_modifier_is_an_error() {
    let (msg, _) = first_error("v_mov_b32 v0, -éé\n");
    assert!(!msg.is_empty());
    let (msg, _) = first_error("s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT-éé, 0)\n");
    assert!(!msg.is_empty());
    let dir = workdir("non_ascii");
    let (code, err) = gcnasm(&dir, "s_nop 0\nv_mov_b32 v0, -éé\n");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.starts_with("in.s:2:"), "{err}");
}

/// Sources whose last line is mutated: (lines before, the line).
const MUTATED: &[(&str, &str)] = &[
    ("", "v_mov_b32 v0, -|v1|"),
    ("", "v_mov_b32 v0, -abs(v1)"),
    ("", "v_add_f32 v0, -abs(v1), |v2| clamp mul:2"),
    ("", "v_cndmask_b32 v0, sext(v1), v2, vcc"),
    ("", "v_mad_f32 v0, v1, -v2, 1.5 div:2"),
    ("", "v_add_f32 v0, v1, v2 dst_sel:BYTE_0 src0_sel:WORD_1 src1_sel:DWORD"),
    ("", "v_mov_b32 v0, v1 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf"),
    ("", "s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT-cut, 0)"),
    ("", "s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)"),
    ("", "s_setreg_b32 hwreg(HW_REG_MODE, 0, 8), s0"),
    ("", "s_getreg_b32 s0, hwreg(hw_reg_trapsts, 4, 3)"),
    ("", "s_waitcnt vmcnt(0) & lgkmcnt(0) & expcnt(1)"),
    ("", "s_load_dwordx4 s[0:3], s[4:5], 0x10"),
    ("", "s_mov_b64 s[0:1], exec"),
    ("", "s_cbranch_scc0 lab\nlab: s_endpgm"),
    ("", "buffer_load_dword v1, v2, s[4:7], s1 offen offset:4 glc slc"),
    ("", "tbuffer_load_format_x v1, v2, s[4:7], 0 idxen format:[BUF_DATA_FORMAT_32, BUF_NUM_FORMAT_FLOAT]"),
    ("", "ds_write_b32 v1, v2 offset:4 gds"),
    ("", "image_load v[0:3], v4, s[8:15] dmask:0xf unorm glc"),
    ("", "v_interp_p1_f32 v0, v1, attr0.x"),
    ("", "exp mrt0 v0, v0, v0, v0 done vm"),
    ("", "flat_load_dword v0, v[1:2] glc"),
    ("", "global_load_dword v0, v[1:2], off offset:-8"),
    ("", ".int 0x10, 1.5e3, 'a', 077, 0b101"),
    ("", ".float 1.5, -0x1.8p3, 1e-2"),
    ("", ".ascii \"x\\n\\001\""),
    ("", ".set x, (1 + 2) << 3 ? 4 : 5"),
    ("", "lab: .byte lab - ., 1f\n1:"),
    (".macro m a, b:vararg, c=3\n s_mov_b32 \\a, \\b\n.endm", " m s0, 1"),
    ("", ".macro m a:req, b=1\n s_nop \\a + \\b + \\@\n.endm\nm 1, b=2"),
    ("", ".rept 2\n s_nop 0\n.endr"),
    ("", ".irp x, 1, 2, 3\n s_nop \\x\n.endr"),
    ("", ".irpc x, 123\n s_nop \\x\n.endr"),
    ("", ".for x = 0, x < 2, x + 1\n s_nop x\n.endr"),
    ("", ".altmacro\n.macro m a\n local l\nl: s_nop a\n.endm\nm 1"),
    ("", ".ifc abc, abd\n s_nop 0\n.endif"),
    ("", ".section .foo, \"aw\"\n.text"),
    ("", ".scope s\n.set x, 1\n.ends\n.int s::x"),
    (".gallium\n.kernel k\n.args", ".arg name, scalar, 4, 4, 4, zext, general"),
    (".gallium\n.kernel k\n.config", ".dims xy, x"),
    (".gallium\n.kernel k\n.config", ".pgmrsrc2 0x10"),
    (".gallium\n.kernel k", ".kcode +k\ns_endpgm\n.kcodeend"),
];

/// Feeds every line of [`MUTATED`] with `é`, `€` and `𝕏` inserted at each
/// byte position (and replacing each byte) through `assemble`, for three
/// generations: none may panic.
#[test]
fn non_ascii_inserted_anywhere_never_panics() {
    let options: Vec<AssembleOptions> = [Device::Pitcairn, Device::Tonga, Device::Gfx900]
        .into_iter()
        .map(|d| AssembleOptions {
            device: Some(d),
            warnings: false,
            ..AssembleOptions::default()
        })
        .collect();
    let mut count = 0;
    for &(before, line) in MUTATED {
        assert!(line.is_ascii());
        for (k, ch) in ["é", "€", "𝕏"].into_iter().enumerate() {
            for i in 0..=line.len() {
                let inserted = format!("{}{ch}{}", &line[..i], &line[i..]);
                let replaced =
                    (i < line.len()).then(|| format!("{}{ch}{}", &line[..i], &line[i + 1..]));
                for mutated in std::iter::once(inserted).chain(replaced) {
                    let src = format!("{before}\n{mutated}\n");
                    // Either outcome is fine; a panic fails the test. The
                    // generations take turns (each sees every position).
                    let _ = assemble(&src, &options[(i + k) % options.len()]);
                    count += 1;
                }
            }
        }
    }
    assert!(count > 5_000, "{count}");
}

// ---- 4. macro memory bombs ----

#[test]
fn doubling_macro_arguments_hit_the_expansion_limit() {
    for (src, what) in [
        (".macro m a\n m \\a\\a\n.endm\n m x\n", "m"),
        (".macro mv a:vararg\n mv \\a, \\a\n.endm\n mv x\n", "mv"),
        (
            ".altmacro\n.macro alt a\n alt \\a\\a\n.endm\n alt x\n",
            "alt",
        ),
    ] {
        let (msg, at) = first_error(src);
        assert!(
            msg.contains(&format!("macro '{what}'")) && msg.contains("expansion limit"),
            "{src}: {msg}"
        );
        // At the recursive call in the macro's body.
        let line = src
            .lines()
            .position(|l| l.starts_with(&format!(" {what} \\a")))
            .unwrap()
            + 1;
        assert_eq!(at, format!("{line}:2"), "{src}: {msg}");
    }
    let dir = workdir("macro_bomb");
    let (code, err) = gcnasm(&dir, ".macro m a\n m \\a\\a\n.endm\n m x\n");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.starts_with("in.s:2:2: error: "), "{err}");
    assert!(err.contains("expansion limit"), "{err}");
}

#[test]
fn repetitions_with_huge_bodies_hit_the_expansion_limit() {
    // An .irp value referenced many times in the body.
    let body = " .int \\x\n".repeat(2000);
    let value = "1+".repeat(20_000) + "1";
    let src = format!(".irp x, {value}\n{body}.endr\n");
    let (msg, at) = first_error(&src);
    assert!(
        msg.contains(".irp") && msg.contains("expansion limit"),
        "{msg}"
    );
    assert_eq!(at, "1:1", "{msg}");
    // A recursive macro that grows its body through .irp.
    let src = ".macro m a\n.irp y, \\a\\a\n m \\y\n.endr\n.endm\n m x\n";
    let (msg, _) = first_error(src);
    assert!(msg.contains("expansion limit"), "{msg}");
}

#[test]
fn deep_recursion_and_repeat_limits_are_errors() {
    let (msg, _) = first_error(".macro m\n m\n.endm\n m\n");
    assert!(msg.contains("nested too deeply"), "{msg}");
    let (msg, _) = first_error(".rept 0x7fffffffffff\n.endr\n");
    assert!(msg.contains("too large"), "{msg}");
}

// ---- 5. many kernels, sections, macro parameters ----

#[test]
fn twenty_thousand_kernels() {
    let n = 20_000;
    let mut src = String::from(".gallium\n");
    for i in 0..n {
        writeln!(
            src,
            ".kernel k{i}\n.args\n.arg a, scalar, 4\n.config\n.dims x"
        )
        .unwrap();
    }
    src.push_str(".text\n");
    for i in 0..n {
        writeln!(src, "k{i}: s_endpgm").unwrap();
    }
    let out = assemble(&src, &AssembleOptions::default()).unwrap();
    assert_eq!(out.text().len(), 4 * n);
}

#[test]
fn twenty_thousand_sections() {
    let mut src = String::new();
    for i in 0..20_000 {
        writeln!(src, ".section .s{i}\n.int {i}").unwrap();
    }
    src.push_str(".section .s7\n.int 1\n");
    assemble(&src, &AssembleOptions::default()).unwrap();
}

#[test]
fn a_macro_with_twenty_thousand_parameters() {
    let n = 20_000;
    let params: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
    let mut src = format!(".macro m {}\n", params.join(", "));
    src.push_str(" .int ");
    src.push_str(
        &params
            .iter()
            .map(|p| format!("\\{p}"))
            .collect::<Vec<_>>()
            .join(", "),
    );
    src.push_str("\n.endm\n m ");
    src.push_str(
        &(0..n)
            .map(|i| {
                if i % 2 == 0 {
                    format!("{i}")
                } else {
                    format!("p{i}={i}")
                }
            })
            .collect::<Vec<_>>()
            .join(", "),
    );
    src.push('\n');
    let out = assemble(&src, &AssembleOptions::default()).unwrap();
    assert_eq!(out.text().len(), 4 * n);
}

#[test]
fn twenty_thousand_named_arguments() {
    let mut src = String::from(KERNEL);
    for i in 0..20_000 {
        writeln!(src, ".arg a{i}, scalar, 4").unwrap();
    }
    src.push_str(".text\nk: s_endpgm\n");
    assemble(&src, &AssembleOptions::default()).unwrap();
}

// ---- 6. gcndisasm -r streams its listing ----

/// The streamed listing of `gcndisasm -r` is the one the library builds in
/// memory, for code full of stray words, branches and literals.
#[test]
fn gcndisasm_raw_streams_the_same_listing() {
    use gcn_asm::decode::gallium::Target;
    use gcn_asm::decode::{disassemble, words_from_bytes, write_disassembly};
    // A fixed pseudo-random sequence (xorshift), with a few branches.
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    let mut bytes = Vec::new();
    for i in 0..50_000u32 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let w = if i % 97 == 0 {
            0xbf82_0000 | (x as u32 & 0xffff) // s_branch
        } else {
            x as u32
        };
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    bytes.extend_from_slice(&[1, 2]); // a partial word
    let dir = workdir("disasm_raw");
    std::fs::write(dir.join("code.bin"), &bytes).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gcndisasm"))
        .args(["-r", "code.bin"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    let target = Target::Device(Device::CapeVerde);
    let words = words_from_bytes(&bytes);
    let listing = disassemble(&words, target.version());
    let expected = format!("{}\n.rawcode\n.text\n{listing}", target.directive());
    let mut streamed = String::new();
    write_disassembly(&mut streamed, &words, target.version()).unwrap();
    assert_eq!(streamed, listing.to_string());
    assert!(String::from_utf8(out.stdout).unwrap() == expected);
}

// ---- 7. output size ----

/// Bulk pseudo-ops together are bounded (128 MiB), each with a located
/// error naming the pseudo-op; a single large one within the bound works.
#[test]
fn bulk_output_is_bounded() {
    let (msg, at) = first_error(".rept 40\n.skip 0xfffffff\n.endr\n");
    assert!(msg.contains(".skip") && msg.contains("128 MiB"), "{msg}");
    assert_eq!(at, "2:7", "{msg}");
    for (src, what, at) in [
        (".rept 40\n.fill 0x1000000, 8, 1\n.endr\n", ".fill", "2:7"),
        (
            ".rept 40\n.byte 1\n.p2align 27\n.endr\n",
            "alignment",
            "3:10",
        ),
        (
            ".rept 40\n.org . + 0x7ffffff\n.endr\n",
            "location counter",
            "2:6",
        ),
        (
            ".macro m\n.section s\\@\n.skip 0x100000\n.endm\n.rept 2000\n m\n.endr\n",
            ".skip",
            "3:7",
        ),
    ] {
        let (msg, got) = first_error(src);
        assert!(
            msg.contains(what) && msg.contains("128 MiB"),
            "{src}: {msg}"
        );
        assert_eq!(got, at, "{src}: {msg}");
    }
    let bin = assemble(".skip 0x1000000, 7\n", &AssembleOptions::default()).unwrap();
    assert_eq!(bin.section(".text").map(|s| s.data.len()), Some(0x1000000));
}

/// `.include` and `.incbin` of a huge file (sparse, 1 TiB) read no more
/// than the limits allow and end in an error; a bounded part of it
/// (`.incbin` with a count) works.
#[test]
fn huge_files_are_read_within_the_limits() {
    let dir = workdir("huge_files");
    let huge = dir.join("huge.bin");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(1 << 40)
        .unwrap();
    let options = AssembleOptions {
        include_dirs: vec![dir.clone()],
        ..AssembleOptions::default()
    };
    let (msg, at) = first_error_with(".incbin \"huge.bin\"\n", &options);
    assert!(msg.contains(".incbin") && msg.contains("128 MiB"), "{msg}");
    assert_eq!(at, "1:9", "{msg}");
    let (msg, _) = first_error_with(".include \"huge.bin\"\n", &options);
    assert!(msg.contains("larger than 64 MiB"), "{msg}");
    let bin = assemble(".incbin \"huge.bin\", 3, 10\n", &options).unwrap();
    assert_eq!(
        bin.section(".text").map(|s| s.data.clone()),
        Some(vec![0; 10])
    );
    let _ = std::fs::remove_file(&huge);
}

/// A `.for` step with text after its expression is an error at once (it
/// used to assign the expression's start, never advance, and run the
/// million iterations the limit allows: 5.7 s in a debug build).
#[test]
fn a_for_step_with_trailing_text_is_an_error() {
    let (msg, at) = first_error(".for x = 0, x < 2, x 𝕏 1\n s_nop x\n.endr\n");
    assert!(msg.contains("after the step"), "{msg}");
    assert_eq!(at, "1:1", "{msg}");
}
