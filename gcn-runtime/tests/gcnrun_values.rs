//! `gcnrun` for a new user: `--help` names every ARG form, buffers from
//! typed values (`TYPE[]:V,…`) with located errors, `--print N[:TYPE]`, and
//! a trace that shows every register written, float values and the
//! source's labels.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh directory for one test's files.
fn workdir(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("gcnrun_values")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A run's exit status, standard output and standard error.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    /// The first line of standard output containing `needle`.
    fn line(&self, needle: &str) -> &str {
        self.stdout
            .lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no `{needle}` in\n{}", self.stdout))
    }
}

fn gcnrun(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_gcnrun"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Copies 32 bytes (8 dwords, one a lane) from `src` to `dst`.
const COPY: &str = r#"
.gallium
.gpu tonga
.kernel copy
    .args
        .arg src, global, 8
        .arg dst, global, 8
        .arg n, scalar, 4
        .arg griddim
        .arg gridoffset
    .config
        .dims x
.text
copy:
    s_load_dwordx4   s[4:7], s[0:1], 0x24
    v_lshlrev_b32    v1, 2, v0
    s_waitcnt        lgkmcnt(0)
    v_mov_b32        v2, s5
    v_add_u32        v1, vcc, s4, v1
    v_addc_u32       v2, vcc, v2, 0, vcc
    flat_load_dword  v3, v[1:2]
    v_lshlrev_b32    v1, 2, v0
    v_mov_b32        v2, s7
    v_add_u32        v1, vcc, s6, v1
    v_addc_u32       v2, vcc, v2, 0, vcc
    s_waitcnt        vmcnt(0) & lgkmcnt(0)
    flat_store_dword v[1:2], v3
    s_endpgm
"#;

#[test]
fn help_describes_every_arg_form() {
    let dir = workdir("help");
    let long = gcnrun(&dir, &["--help"]);
    assert_eq!(long.code, 0, "{}", long.stderr);
    for form in [
        "TYPE:V[,V...]",
        "hex:BYTES",
        "vsharp:BUF[,KEY=V...]",
        "@FILE",
        "zero:N",
        "TYPE[]:V[,V...]",
        "local:N",
        "image:KEY=V,...[,data=FILE]",
        "sampler:KEY=V,...",
        "--print N[:TYPE]",
        "--out N=FILE",
        "u8 i8 u16 i16 u32 i32 u64 i64 f16 f32 f64",
    ] {
        assert!(
            long.stdout.contains(form),
            "--help lacks `{form}`:\n{}",
            long.stdout
        );
    }
    // The short help names every form too, and points to --help.
    let short = gcnrun(&dir, &["-h"]);
    assert_eq!(short.code, 0);
    for form in [
        "hex:BYTES",
        "@FILE",
        "zero:N",
        "TYPE[]:",
        "local:N",
        "image:",
        "sampler:",
        "vsharp:",
    ] {
        assert!(
            short.stdout.contains(form),
            "-h lacks `{form}`:\n{}",
            short.stdout
        );
    }
}

/// Each element type: the values, and the bytes they must give.
fn typed_cases() -> Vec<(&'static str, Vec<u8>)> {
    fn le<T: Copy, const N: usize>(v: &[T], f: fn(T) -> [u8; N]) -> Vec<u8> {
        v.iter().flat_map(|&x| f(x)).collect()
    }
    vec![
        ("u8[]:0,1,127,128,255,0x7f,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34",
         le(&[0u8, 1, 127, 128, 255, 0x7f, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34], u8::to_le_bytes)),
        ("i8[]:-128,-1,0,127,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,0xff",
         le(&[-128i8, -1, 0, 127, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, -1], i8::to_le_bytes)),
        ("u16[]:0,1,65535,0x1234,5,6,7,8,9,10,11,12,13,14,15,16",
         le(&[0u16, 1, 65535, 0x1234, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], u16::to_le_bytes)),
        ("i16[]:-32768,32767,-1,0,5,6,7,8,9,10,11,12,13,14,15,-16",
         le(&[-32768i16, 32767, -1, 0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, -16], i16::to_le_bytes)),
        ("u32[]:0,4294967295,0xdeadbeef,3,4,5,6,7",
         le(&[0u32, u32::MAX, 0xdead_beef, 3, 4, 5, 6, 7], u32::to_le_bytes)),
        ("i32[]:-2147483648,2147483647,-1,3,4,5,6,7",
         le(&[i32::MIN, i32::MAX, -1, 3, 4, 5, 6, 7], i32::to_le_bytes)),
        ("u64[]:18446744073709551615,0x123456789abcdef0,2,3",
         le(&[u64::MAX, 0x1234_5678_9abc_def0, 2, 3], u64::to_le_bytes)),
        ("i64[]:-9223372036854775808,9223372036854775807,-1,3",
         le(&[i64::MIN, i64::MAX, -1, 3], i64::to_le_bytes)),
        ("f16[]:1,-2.5,0.1,65504,0x7c00,6e-8,0,-0,1,2,3,4,5,6,7,8",
         [1.0f32, -2.5, 0.1, 65504.0, f32::INFINITY, 6e-8, 0.0, -0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]
             .iter()
             .flat_map(|&x| half::f16::from_f32(x).to_le_bytes())
             .collect()),
        ("f32[]:1,2.5,0.1,-0,1e-45,3.4028235e38,inf,nan",
         le(&[1.0f32, 2.5, 0.1, -0.0, 1e-45, f32::MAX, f32::INFINITY, f32::NAN], f32::to_le_bytes)),
        ("f64[]:0.1,-1e300,5e-324,0x3ff0000000000000",
         le(&[0.1f64, -1e300, 5e-324, 1.0], f64::to_le_bytes)),
    ]
}

#[test]
fn typed_buffers_hold_their_values() {
    let dir = workdir("typed");
    std::fs::write(dir.join("copy.s"), COPY).unwrap();
    for (arg, bytes) in typed_cases() {
        assert_eq!(bytes.len(), 32, "{arg}");
        let run = gcnrun(
            &dir,
            &[
                "copy.s",
                "copy",
                arg,
                "zero:32",
                "u32:0",
                "--global",
                "8",
                "--out",
                "1=out.bin",
            ],
        );
        assert_eq!(run.code, 0, "{arg}: {}", run.stderr);
        assert_eq!(std::fs::read(dir.join("out.bin")).unwrap(), bytes, "{arg}");
    }
}

/// `--print` shows each type so that the text reads back to the same bits:
/// printing the input buffer with its own type, then passing that text as
/// the values again, gives the same bytes.
#[test]
fn print_round_trips_every_type() {
    let dir = workdir("print");
    std::fs::write(dir.join("copy.s"), COPY).unwrap();
    for (arg, bytes) in typed_cases() {
        let ty = &arg[..arg.find("[]").unwrap()];
        let run = gcnrun(
            &dir,
            &[
                "copy.s", "copy", arg, "zero:32", "u32:0", "--global", "8", "--print", "0",
            ],
        );
        assert_eq!(run.code, 0, "{arg}: {}", run.stderr);
        let mut lines = run.stdout.lines();
        let header = lines.next().unwrap();
        assert!(
            header.starts_with(&format!("ARG 0 'src' as {ty}, ")),
            "{header}"
        );
        let values: Vec<&str> = lines
            .flat_map(|l| l.split_once(']').unwrap().1.split_whitespace())
            .collect();
        assert_eq!(
            values.len(),
            32 / (ty[1..].parse::<usize>().unwrap() / 8),
            "{}",
            run.stdout
        );
        let again = format!("{ty}[]:{}", values.join(","));
        let rerun = gcnrun(
            &dir,
            &[
                "copy.s",
                "copy",
                &again,
                "zero:32",
                "u32:0",
                "--global",
                "8",
                "--out",
                "1=again.bin",
            ],
        );
        assert_eq!(rerun.code, 0, "{again}: {}", rerun.stderr);
        let got = std::fs::read(dir.join("again.bin")).unwrap();
        if ty == "f32" {
            // NaN prints as `NaN`: the payload is the default one's.
            assert_eq!(got[..28], bytes[..28], "{again}");
            assert!(f32::from_le_bytes(got[28..].try_into().unwrap()).is_nan());
        } else {
            assert_eq!(got, bytes, "{again}");
        }
    }
    // Typed views of a result: the output buffer, explicitly as f32 and in
    // hex (the default for zero:N), several --print at once.
    let run = gcnrun(
        &dir,
        &[
            "copy.s",
            "copy",
            "f32[]:1,2.5,0.1,3,4,5,6,7",
            "zero:32",
            "u32:0",
            "--global",
            "8",
            "--print",
            "1:f32",
            "--print",
            "1",
            "--print",
            "1:u16",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "ARG 1 'dst' as f32, 8 values:\n  [0] 1.0 2.5 0.1 3.0 4.0 5.0 6.0 7.0\n\
             ARG 1 'dst' as x32, 8 values:\n  [0] 0x3f800000 0x40200000 0x3dcccccd 0x40400000 \
             0x40800000 0x40a00000 0x40c00000 0x40e00000\n\
             ARG 1 'dst' as u16, 16 values:\n  [ 0] 0 16256 0 16416 52429 15820 0 16448\n  [ 8] 0 16512"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn bad_typed_values_say_which_arg_which_element_and_why() {
    let dir = workdir("bad");
    std::fs::write(dir.join("copy.s"), COPY).unwrap();
    let cases: &[(&str, &str)] = &[
        ("f32[]:1,abc", "ARG 0 (`f32[]:1,abc`) for argument 'src': element 1: `abc` is not a number (for f32)"),
        ("u8[]:1,2,300", "element 2: `300` is out of range for u8 (0..=255)"),
        ("i8[]:-129", "element 0: `-129` is out of range for i8 (-128..=127)"),
        ("u16[]:-1", "element 0: `-1` is negative (for u16)"),
        ("f32[]:1e39", "element 0: `1e39` is out of range for f32"),
        ("f16[]:1,,2", "element 1: empty value"),
        ("u32[]:0x1ffffffff", "element 0: `0x1ffffffff` has more than 32 bits"),
        ("u32[]:", "`u32[]:` lists no values (zero:0 is an empty buffer)"),
        ("é8[]:1", "unknown element type `é8`"),
        ("[]:1", "unknown element type ``"),
        ("q7[]:1", "unknown element type `q7` in `q7[]:` (types: u8 i8 u16 i16 u32 i32 u64 i64 f16 f32 f64)"),
    ];
    for (arg, message) in cases {
        let run = gcnrun(
            &dir,
            &["copy.s", "copy", arg, "zero:32", "u32:0", "--global", "8"],
        );
        assert_eq!(run.code, 2, "{arg}: {}", run.stderr);
        assert!(run.stderr.starts_with("gcnrun: error: "), "{}", run.stderr);
        assert!(
            run.stderr.contains(message),
            "{arg}: lacks `{message}`:\n{}",
            run.stderr
        );
    }
    // A typed buffer is a buffer: not for a by-value argument.
    let run = gcnrun(
        &dir,
        &[
            "copy.s", "copy", "zero:32", "zero:32", "u32[]:1", "--global", "8",
        ],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("a scalar argument takes a by-value argument"),
        "{}",
        run.stderr
    );
    // --print errors are usage errors.
    for (spec, message) in [
        ("9", "--print 9: there is no ARG 9 (the kernel takes 3)"),
        ("0:q", "--print 0:q: unknown type `q`"),
        ("0:é", "--print 0:é: unknown type `é`"),
        ("0:", "--print 0:: unknown type ``"),
        (
            "2",
            "--print 2: ARG 2 (`u32:0`) is not a buffer or an image",
        ),
        ("x", "--print x: `x` is not an argument number"),
    ] {
        let run = gcnrun(
            &dir,
            &[
                "copy.s", "copy", "zero:32", "zero:32", "u32:0", "--global", "8", "--print", spec,
            ],
        );
        assert_eq!(run.code, 2, "{spec}: {}", run.stderr);
        assert!(
            run.stderr.contains(message),
            "{spec}: lacks `{message}`:\n{}",
            run.stderr
        );
    }
}

/// Writes with the value the register had, a float result, a 64-bit float
/// pair, a branch to a label.
const TRACED: &str = r#"
.gallium
.gpu tonga
.kernel traced
    .args
        .arg griddim
        .arg gridoffset
    .config
        .dims x
.text
traced:
    v_mov_b32        v1, 1.0
    v_add_f32        v2, v1, v1
    v_mov_b32        v2, v2
    s_mov_b32        s6, 0
    s_mov_b32        s6, 0
    v_cvt_f64_f32    v[4:5], v1
    v_cvt_pkrtz_f16_f32 v6, v1, v2
    s_cmp_eq_u32     s6, 0
    s_cbranch_scc1   skip
    s_nop            0
skip:
    s_endpgm
"#;

#[test]
fn trace_shows_every_write_float_values_and_labels() {
    let dir = workdir("trace");
    std::fs::write(dir.join("traced.s"), TRACED).unwrap();
    let run = gcnrun(&dir, &["traced.s", "traced", "--global", "64", "--trace"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let line = |needle: &str| run.line(needle);
    // v_mov_b32 is untyped (b32): bits only.
    assert!(
        line("v_mov_b32 v1, 1.0").ends_with("; v1[0–63]=0x3f800000"),
        "{}",
        run.stdout
    );
    // v_add_f32's destination is an f32: the number too.
    assert!(
        line("v_add_f32 v2").ends_with("; v2[0–63]=0x40000000 (2.0)"),
        "{}",
        run.stdout
    );
    // A write of the value the register had is still shown.
    assert!(
        line("v_mov_b32 v2, v2").ends_with("; v2[0–63]=0x40000000"),
        "{}",
        run.stdout
    );
    let s6: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains("s_mov_b32 s6, 0"))
        .collect();
    assert_eq!(s6.len(), 2, "{}", run.stdout);
    assert!(s6.iter().all(|l| l.ends_with("; s6=0x0")), "{s6:?}");
    // An f64 destination is a register pair, one value.
    assert!(
        line("v_cvt_f64_f32").ends_with("; v[4:5][0–63]=0x3ff0000000000000 (1.0)"),
        "{}",
        run.stdout
    );
    // v_cvt_pkrtz_f16_f32's destination is b32 in its row: bits only.
    assert!(
        line("v_cvt_pkrtz_f16_f32").ends_with("; v6[0–63]=0x40003c00"),
        "{}",
        run.stdout
    );
    // The branch, at its own PC, names the source's label; the next record
    // is the label's instruction.
    let lines: Vec<&str> = run.stdout.lines().collect();
    let b = lines
        .iter()
        .position(|l| l.contains("s_cbranch_scc1"))
        .unwrap();
    assert!(
        lines[b].contains("pc 0x0024: traced.s:20:5: s_cbranch_scc1 skip"),
        "{}",
        lines[b]
    );
    assert!(
        lines[b + 1].contains("pc 0x002c: traced.s:23:5: s_endpgm"),
        "{}",
        lines[b + 1]
    );
    assert!(!run.stdout.contains("s_nop"), "{}", run.stdout);

    // From a binary there are no labels: `.L<offset>`.
    let binary = gcn_asm::assemble(TRACED, &gcn_asm::AssembleOptions::default())
        .unwrap()
        .gallium_bytes()
        .unwrap();
    std::fs::write(dir.join("traced.bin"), binary).unwrap();
    let run = gcnrun(
        &dir,
        &[
            "-g",
            "tonga",
            "traced.bin",
            "traced",
            "--global",
            "64",
            "--trace",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("pc 0x0024: s_cbranch_scc1 .L44\n"),
        "{}",
        run.stdout
    );
}

/// The label rewrite touches whole `.L<digits>` tokens only.
#[test]
fn labels_replace_whole_tokens_only() {
    let dir = workdir("labels");
    // `.L4x` style text never comes from the disassembler; a label named
    // like a generated one stays as the source has it.
    let source = r#"
.gallium
.gpu tonga
.kernel k
    .args
        .arg griddim
        .arg gridoffset
    .config
        .dims x
.text
k:
    s_branch .L8
.L8:
    s_branch end
end:
    s_endpgm
"#;
    std::fs::write(dir.join("k.s"), source).unwrap();
    let run = gcnrun(&dir, &["k.s", "k", "--global", "1", "--trace"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("s_branch .L8\n"), "{}", run.stdout);
    assert!(run.stdout.contains("s_branch end\n"), "{}", run.stdout);
}

/// Packed halves (GCN 1.4's `v_pk_*_f16`, destination type pk_f16): both
/// numbers.
#[test]
fn trace_shows_packed_halves() {
    let dir = workdir("trace_packed");
    let source = r#"
.gallium
.gpu gfx900
.kernel pk
    .args
        .arg griddim
        .arg gridoffset
    .config
        .dims x
.text
pk:
    v_mov_b32           v1, 0x40003c00
    v_pk_add_f16        v2, v1, v1
    s_endpgm
"#;
    std::fs::write(dir.join("pk.s"), source).unwrap();
    let run = gcnrun(&dir, &["pk.s", "pk", "--global", "64", "--trace"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("; v2[0–63]=0x44004000 (2.0, 4.0)\n"),
        "{}",
        run.stdout
    );
}

/// `v_writelane` writes one lane, whatever EXEC says: with the value the
/// lane had it is still that lane's write, and no other lane's.
#[test]
fn trace_shows_the_lane_a_writelane_writes() {
    let dir = workdir("trace_writelane");
    let source = r#"
.gallium
.gpu tonga
.kernel wl
    .args
        .arg griddim
        .arg gridoffset
    .config
        .dims x
.text
wl:
    v_mov_b32           v1, 7
    s_mov_b32           s8, 5
    v_writelane_b32     v1, s8, 3
    v_writelane_b32     v1, 7, s8
    s_endpgm
"#;
    std::fs::write(dir.join("wl.s"), source).unwrap();
    let run = gcnrun(&dir, &["wl.s", "wl", "--global", "64", "--trace"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let line = |needle: &str| run.line(needle);
    // Lane 3 changes, lane 5 keeps its 7: both are writes, of one lane.
    assert!(
        line("v_writelane_b32 v1, s8, 3").ends_with("; v1[3]=0x5"),
        "{}",
        run.stdout
    );
    assert!(
        line("v_writelane_b32 v1, 7, s8").ends_with("; v1[5]=0x7"),
        "{}",
        run.stdout
    );
}
