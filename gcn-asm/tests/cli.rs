//! The command-line tools' options beyond the basics (see also the CLI
//! tests in `gallium.rs` and `gallium_disasm.rs`): several input files,
//! `--llvmVersion`/`--driverVersion`, `-D` checks, unknown `-g`/`-A` names,
//! and `gcndisasm`'s hint at `-r`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh directory for one test's files.
fn workdir(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("gcn-asm-cli")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn gcnasm(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gcnasm"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn several_files_are_one_source() {
    let dir = workdir("several_files");
    // A macro and a repetition opened in one file and closed in the next,
    // a symbol defined in the first and used in the last: the files are
    // one text, as `cat` would make it.
    let a = ".set N, 3\n.macro twice reg\n  s_mov_b32 \\reg, N\n";
    let b = "  s_add_u32 \\reg, \\reg, N\n.endm\n.rept 2\n";
    let c = "  twice s5\n.endr\ns_endpgm\n";
    std::fs::write(dir.join("a.s"), a).unwrap();
    std::fs::write(dir.join("b.s"), b).unwrap();
    std::fs::write(dir.join("c.s"), c).unwrap();
    std::fs::write(dir.join("all.s"), format!("{a}{b}{c}")).unwrap();
    let out = gcnasm(
        &dir,
        &["-b", "rawcode", "-o", "split.bin", "a.s", "b.s", "c.s"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = gcnasm(&dir, &["-b", "rawcode", "-o", "whole.bin", "all.s"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let split = std::fs::read(dir.join("split.bin")).unwrap();
    assert_eq!(split.len(), 4 * 5, "two instructions, twice, and s_endpgm");
    assert_eq!(split, std::fs::read(dir.join("whole.bin")).unwrap());

    // Positions stay those of each file.
    std::fs::write(dir.join("ok.s"), "s_nop 0\n").unwrap();
    std::fs::write(dir.join("bad.s"), "s_nop 0\n  s_bogus s0\n").unwrap();
    let out = gcnasm(&dir, &["-o", "x.bin", "ok.s", "bad.s"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with("bad.s:2:3: error: "),
        "{}",
        stderr(&out)
    );
}

#[test]
fn llvm_and_driver_versions_from_the_command_line() {
    let dir = workdir("versions");
    let kernel = ".kernel k\n.config\n.dims x\n.text\nk: s_endpgm\n";
    std::fs::write(dir.join("k.s"), format!(".gallium\n{kernel}")).unwrap();
    std::fs::write(
        dir.join("k39.s"),
        format!(".gallium\n.llvm_version 30900\n{kernel}"),
    )
    .unwrap();
    let out = gcnasm(&dir, &["--llvmVersion=30900", "-o", "flag.bin", "k.s"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = gcnasm(&dir, &["-o", "pseudo_op.bin", "k39.s"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = gcnasm(&dir, &["-o", "none.bin", "k.s"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let flag = std::fs::read(dir.join("flag.bin")).unwrap();
    assert_eq!(flag, std::fs::read(dir.join("pseudo_op.bin")).unwrap());
    // LLVM 3.9 binaries carry 5 proginfo entries per kernel, older ones 3.
    let read = |name: &str| gcn_asm::gallium::read(&std::fs::read(dir.join(name)).unwrap());
    assert_eq!(read("flag.bin").unwrap().kernels[0].prog_info.len(), 5);
    assert_eq!(read("none.bin").unwrap().kernels[0].prog_info.len(), 3);
    // The source's own pseudo-op wins over the flag.
    std::fs::write(
        dir.join("k38.s"),
        format!(".gallium\n.llvm_version 30800\n{kernel}"),
    )
    .unwrap();
    let out = gcnasm(&dir, &["--llvmVersion=30900", "-o", "own.bin", "k38.s"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(read("own.bin").unwrap().kernels[0].prog_info.len(), 3);

    // --driverVersion is what .get_driver_version reads.
    std::fs::write(
        dir.join("d.s"),
        ".gallium\n.get_driver_version V\n.text\n.int V\n",
    )
    .unwrap();
    let out = gcnasm(
        &dir,
        &[
            "--driverVersion=170000",
            "-b",
            "rawcode",
            "-o",
            "d.bin",
            "d.s",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(dir.join("d.bin")).unwrap(),
        170000u32.to_le_bytes()
    );

    // LLVM 4.0 means the AMDHSA format: a usage error, like the pseudo-op's.
    let out = gcnasm(&dir, &["--llvmVersion=40000", "-o", "x.bin", "k.s"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--llvmVersion=40000"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("not supported"), "{}", stderr(&out));
}

#[test]
fn defsym_needs_a_symbol_name() {
    let dir = workdir("defsym");
    std::fs::write(dir.join("k.s"), ".int X\n").unwrap();
    for bad in ["=3", "", "1x=2", "a b=1"] {
        let out = gcnasm(&dir, &["-D", bad, "-o", "x.bin", "k.s"]);
        assert_eq!(out.status.code(), Some(2), "-D {bad:?}: {}", stderr(&out));
        assert!(
            stderr(&out).starts_with("gcnasm: bad -D "),
            "{}",
            stderr(&out)
        );
        assert!(!dir.join("x.bin").exists());
    }
    let out = gcnasm(
        &dir,
        &["-D", "X=0x10", "-b", "rawcode", "-o", "x.bin", "k.s"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(dir.join("x.bin")).unwrap(),
        16u32.to_le_bytes()
    );
}

/// Issue 11 item 12: an unknown `-g` device (or `-A` architecture) is an
/// error that lists the known names, not a fallback to the default device.
#[test]
fn unknown_device_names_the_known_ones() {
    let dir = workdir("unknown_device");
    std::fs::write(dir.join("k.s"), "s_endpgm\n").unwrap();
    let out = gcnasm(&dir, &["-g", "gfx9000", "-o", "x.bin", "k.s"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("gcnasm: unknown GPU device 'gfx9000'"),
        "{err}"
    );
    // Device names from the CLRX documentation (GCN 1.0 to 1.4).
    for known in ["pitcairn", "tahiti", "bonaire", "tonga", "gfx900"] {
        assert!(err.contains(known), "`{known}` missing: {err}");
    }
    assert!(!dir.join("x.bin").exists());
    let out = gcnasm(&dir, &["-A", "GCN9", "-o", "x.bin", "k.s"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("unknown architecture 'GCN9'") && err.contains("GCN1.2"),
        "{err}"
    );
    assert!(!dir.join("x.bin").exists());
    // A known device still assembles (`s_endpgm` is 0xbf810000).
    let out = gcnasm(&dir, &["-g", "gfx900", "-o", "x.bin", "k.s"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(dir.join("x.bin")).unwrap(),
        0xbf81_0000u32.to_le_bytes()
    );
}

#[test]
fn gcndisasm_hints_at_raw_mode() {
    let dir = workdir("disasm_hint");
    // s_endpgm: raw code, not a Gallium binary.
    std::fs::write(dir.join("code.bin"), [0, 0, 0x81, 0xbf]).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gcndisasm"))
        .arg("code.bin")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.starts_with("code.bin: error: "), "{err}");
    assert!(
        err.contains("code.bin: note: ") && err.contains("gcndisasm -r"),
        "{err}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_gcndisasm"))
        .args(["-r", "code.bin"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("s_endpgm"));
}

#[test]
fn line_table_names_each_instruction() {
    let dir = workdir("line_table");
    // SOP1: 4 bytes; VOP2 with a literal (1.5 is no inline constant): 8;
    // an instruction from a macro cites the line of the macro body.
    let source =
        "s_mov_b32 s0, 1\n  v_add_f32 v1, 1.5, v0\n.macro m\n    s_nop 0\n.endm\nm\ns_endpgm\n";
    std::fs::write(dir.join("k.s"), source).unwrap();
    let out = gcnasm(
        &dir,
        &[
            "-b",
            "rawcode",
            "-o",
            "k.bin",
            "--line-table",
            "k.lines",
            "k.s",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let table = std::fs::read_to_string(dir.join("k.lines")).unwrap();
    assert_eq!(
        table,
        "0x0 k.s:1:1\n0x4 k.s:2:3\n0xc k.s:4:5\n0x10 k.s:7:1\n"
    );
    assert_eq!(std::fs::read(dir.join("k.bin")).unwrap().len(), 0x14);
}
