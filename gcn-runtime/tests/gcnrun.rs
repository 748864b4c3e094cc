//! The `gcnrun` command line: kernels from source and from Gallium
//! binaries, every argument form, `--out`, `--offset`, the default
//! `--local`, 2-D grids, and the exit statuses and messages of errors.

use std::path::{Path, PathBuf};

#[path = "common/cli.rs"]
mod cli;
use cli::{expect, gcnrun};

/// A fresh directory for one test's files.
fn workdir(test: &str) -> PathBuf {
    cli::workdir_in("gcnrun", test)
}

/// Assembles `source` into a Gallium binary, as `gcnasm -b gallium`.
fn gallium(source: &str) -> Vec<u8> {
    gcn_asm::assemble(source, &gcn_asm::AssembleOptions::default())
        .unwrap()
        .gallium_bytes()
        .unwrap()
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Copies its whole input buffer (34 dwords: one lane each) to `out`; one
/// scalar argument per ARG type.
const DUMP: &str = r#"
.gallium
.gpu tonga
.kernel dump
    .args
        .arg out, global, 8
        .arg a, scalar, 1               # u8
        .arg b, scalar, 1, 4, 4, sext   # i8
        .arg c, scalar, 2               # u16
        .arg d, scalar, 2, 4, 4, sext   # i16
        .arg e, scalar, 4               # u32
        .arg f, scalar, 4               # i32
        .arg g, scalar, 8               # u64
        .arg h, scalar, 8               # i64
        .arg i, scalar, 2               # f16
        .arg j, scalar, 4               # f32
        .arg k, scalar, 8               # f64
        .arg l, scalar, 16              # float3
        .arg m, scalar, 4               # raw bytes
        .arg griddim
        .arg gridoffset
    .config
        .dims x
.text
dump:
    s_load_dwordx2   s[2:3], s[0:1], 0x24    # out
    s_waitcnt        lgkmcnt(0)
    v_lshlrev_b32    v1, 2, v0               # one work-group: local id = dword index
    v_mov_b32        v3, s1
    v_add_u32        v2, vcc, s0, v1
    v_addc_u32       v3, vcc, 0, v3, vcc
    flat_load_dword  v4, v[2:3]
    v_mov_b32        v3, s3
    v_add_u32        v2, vcc, s2, v1
    v_addc_u32       v3, vcc, 0, v3, vcc
    s_waitcnt        vmcnt(0) & lgkmcnt(0)
    flat_store_dword v[2:3], v4
    s_endpgm
"#;

const DUMP_ARGS: [&str; 14] = [
    "zero:136",
    "u8:200",
    "i8:-2",
    "u16:0xbeef",
    "i16:-3",
    "u32:4000000000",
    "i32:-5",
    "u64:0x1122334455667788",
    "i64:-6",
    "f16:1.5",
    "f32:-2.5",
    "f64:0.1",
    "f32:1,2,3",
    "hex:01020304",
];

/// The input buffer DUMP_ARGS make with `--global 34 --offset 5`, by hand
/// from the Gallium ABI (header, then each argument at its target
/// alignment from byte 36); bytes 36..44 (the pointer) are not compared.
fn dump_expected() -> Vec<u8> {
    let mut e = Vec::new();
    for v in [1u32, 1, 1, 34, 1, 1, 34, 1, 1] {
        e.extend(v.to_le_bytes());
    }
    e.extend([0; 8]); // out
    e.extend([0xc8, 0, 0, 0]); // u8:200, zext
    e.extend([0xfe, 0xff, 0xff, 0xff]); // i8:-2, sext
    e.extend([0xef, 0xbe, 0, 0]); // u16:0xbeef
    e.extend([0xfd, 0xff, 0xff, 0xff]); // i16:-3, sext
    e.extend([0x00, 0x28, 0x6b, 0xee]); // 4000000000 = 0xee6b2800
    e.extend([0xfb, 0xff, 0xff, 0xff]); // -5
    e.extend([0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11]);
    e.extend([0xfa, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]); // -6
    e.extend([0x00, 0x3e, 0, 0]); // f16 1.5 = 0x3e00
    e.extend([0x00, 0x00, 0x20, 0xc0]); // f32 -2.5 = 0xc0200000
    e.extend([0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0xb9, 0x3f]); // f64 0.1 = 0x3fb999999999999a
    e.extend([
        0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40, 0, 0, 0, 0,
    ]); // 1, 2, 3, (0)
    e.extend([1, 2, 3, 4]); // hex:01020304
    e.extend([1, 0, 0, 0]); // griddim
    e.extend([5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]); // gridoffset 5, 0, 0
    assert_eq!(e.len(), 136);
    e
}

fn check_dump(bytes: &[u8]) {
    let expected = dump_expected();
    assert_eq!(bytes.len(), expected.len());
    assert_eq!(bytes[..36], expected[..36], "header");
    assert_ne!(bytes[36..44], [0; 8], "the buffer's address");
    assert_eq!(bytes[44..], expected[44..], "arguments");
}

fn dump_args<'a>(file: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![file, "dump"];
    v.extend(DUMP_ARGS);
    v.extend(["--global", "34", "--offset", "5", "--out", "0=dump.bin"]);
    v.extend(extra);
    v
}

#[test]
fn every_by_value_type_from_source() {
    let dir = workdir("source");
    std::fs::write(dir.join("dump.s"), DUMP).unwrap();
    let out = gcnrun(&dir, &dump_args("dump.s", &[]));
    // Default --local: 34 (the largest divisor of 34 up to 64): one group.
    expect(&out, 0, &["dump on GCN1.2: 1 work-group, 1 wave"]);
    check_dump(&std::fs::read(dir.join("dump.bin")).unwrap());
}

#[test]
fn every_by_value_type_from_a_gallium_binary() {
    let dir = workdir("binary");
    std::fs::write(dir.join("dump.bin.gallium"), gallium(DUMP)).unwrap();
    // A binary does not say its device: -g (or -A) does.
    let out = gcnrun(&dir, &dump_args("dump.bin.gallium", &["-g", "tonga"]));
    expect(&out, 0, &["dump on GCN1.2"]);
    check_dump(&std::fs::read(dir.join("dump.bin")).unwrap());
    let out = gcnrun(&dir, &dump_args("dump.bin.gallium", &["-A", "GCN1.2"]));
    expect(&out, 0, &["dump on GCN1.2"]);
    // The usage message names a binary's arguments by position.
    let out = gcnrun(
        &dir,
        &["-g", "tonga", "dump.bin.gallium", "dump", "--global", "34"],
    );
    expect(
        &out,
        2,
        &["ARG 0: arg0", "ARG 13: arg13", "(set by gcnrun)"],
    );
}

#[test]
fn values_at_the_edges_of_each_type() {
    let dir = workdir("edges");
    std::fs::write(dir.join("dump.s"), DUMP).unwrap();
    let mut args = dump_args("dump.s", &[]);
    args[3] = "u8:255";
    args[4] = "i8:-128";
    args[5] = "u16:65535";
    args[6] = "i16:0x8000"; // bit pattern: -32768
    args[11] = "f16:-inf";
    args[12] = "f32:NaN";
    args[13] = "f64:0x8000000000000000"; // -0.0, exactly
    args[14] = "f32:1e0,2.0,3,0.0"; // all four lanes of a float3 slot
    expect(&gcnrun(&dir, &args), 0, &[]);
    let b = std::fs::read(dir.join("dump.bin")).unwrap();
    let w = words(&b);
    assert_eq!(w[11], 0xff); // u8 255, zext
    assert_eq!(w[12], 0xffff_ff80); // i8 -128, sext
    assert_eq!(w[13], 0xffff);
    assert_eq!(w[14], 0xffff_8000);
    assert_eq!(w[21], 0xfc00); // f16 -inf
    assert_eq!(w[22], 0x7fc0_0000); // f32 NaN (Rust's quiet NaN)
    assert_eq!((w[23], w[24]), (0, 0x8000_0000));
    assert_eq!(w[25..29], [0x3f80_0000, 0x4000_0000, 0x4040_0000, 0]);
}

/// c[i] = a[i] + b[i] on GCN 1.0 (buffer instructions, addr64).
const VADD: &str = r#"
.gallium
.gpu pitcairn
.kernel vadd
    .args
        .arg a, global, 8
        .arg b, global, 8
        .arg c, global, 8
        .arg griddim
        .arg gridoffset
    .config
        .dims x
.text
vadd:
    s_load_dword     s2, s[0:1], 6
    s_load_dwordx2   s[8:9], s[0:1], 9
    s_load_dwordx2   s[12:13], s[0:1], 11
    s_load_dwordx2   s[16:17], s[0:1], 13
    s_waitcnt        lgkmcnt(0)
    s_mul_i32        s2, s2, s4
    v_add_i32        v0, vcc, s2, v0
    v_lshlrev_b32    v0, 2, v0
    v_mov_b32        v1, 0
    s_mov_b32        s10, -1
    s_mov_b32        s11, 0x27fac
    s_mov_b32        s14, s10
    s_mov_b32        s15, s11
    s_mov_b32        s18, s10
    s_mov_b32        s19, s11
    buffer_load_dword v2, v[0:1], s[8:11], 0 addr64
    buffer_load_dword v3, v[0:1], s[12:15], 0 addr64
    s_waitcnt        vmcnt(0)
    v_add_f32        v2, v2, v3
    buffer_store_dword v2, v[0:1], s[16:19], 0 addr64
    s_endpgm
"#;

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn file_buffers_and_out() {
    let dir = workdir("files");
    let a: Vec<f32> = (0..300).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..300).map(|i| 0.25 * i as f32).collect();
    std::fs::write(dir.join("a.bin"), f32_bytes(&a)).unwrap();
    std::fs::write(dir.join("b.bin"), f32_bytes(&b)).unwrap();
    std::fs::write(dir.join("vadd.gallium"), gallium(VADD)).unwrap();
    // No -g: gcnasm's default device, capeverde (GCN 1.0), as the kernel
    // was written for. Default --local for 300: 60 (5 work-groups).
    let out = gcnrun(
        &dir,
        &[
            "vadd.gallium",
            "vadd",
            "@a.bin",
            "@b.bin",
            "zero:1200",
            "--global",
            "300",
            "--out",
            "2=c.bin",
            "--out",
            "0=a-after.bin",
        ],
    );
    expect(
        &out,
        0,
        &["vadd on GCN1.0: 5 work-groups, 5 waves", "lane-ops/s"],
    );
    let c = std::fs::read(dir.join("c.bin")).unwrap();
    let expected: Vec<f32> = (0..300).map(|i| 1.25 * i as f32).collect();
    assert_eq!(c, f32_bytes(&expected));
    // An @FILE buffer can be written out too (here: unchanged).
    assert_eq!(
        std::fs::read(dir.join("a-after.bin")).unwrap(),
        f32_bytes(&a)
    );
    // The same from source, on the source's .gpu; threads do not matter.
    std::fs::write(dir.join("vadd.s"), VADD).unwrap();
    let out = gcnrun(
        &dir,
        &[
            "vadd.s",
            "vadd",
            "@a.bin",
            "@b.bin",
            "zero:1200",
            "--global",
            "300",
            "--local",
            "20",
            "--threads",
            "1",
            "--out",
            "2=c1.bin",
        ],
    );
    expect(&out, 0, &["vadd on GCN1.0: 15 work-groups, 15 waves"]);
    assert_eq!(std::fs::read(dir.join("c1.bin")).unwrap(), c);
}

/// Reverses 64 values through a local-memory argument: LDS[tmp + 4i] =
/// 3i + tmp, barrier, out[i] = LDS[tmp + 4(63 - i)]; `pad` comes first,
/// so `tmp`'s offset is pad's size.
const REVERSE: &str = r#"
.gallium
.gpu tonga
.kernel reverse
    .args
        .arg out, global, 8
        .arg pad, local, 4
        .arg tmp, local, 4
    .config
        .dims x
.text
reverse:
    s_load_dwordx2   s[2:3], s[0:1], 0x24    # out
    s_load_dword     s5, s[0:1], 0x30        # tmp: an LDS offset
    s_waitcnt        lgkmcnt(0)
    s_mov_b32        m0, -1
    v_mul_lo_u32     v1, v0, 3
    v_add_u32        v1, vcc, s5, v1         # 3i + tmp
    v_lshlrev_b32    v2, 2, v0
    v_add_u32        v3, vcc, s5, v2         # tmp + 4i
    ds_write_b32     v3, v1
    s_waitcnt        lgkmcnt(0)
    s_barrier
    s_add_u32        s6, s5, 252             # tmp + 4*63
    v_mul_lo_u32     v4, v0, -4
    v_add_u32        v4, vcc, s6, v4         # tmp + 4(63 - i)
    ds_read_b32      v5, v4
    v_mov_b32        v7, s3
    v_add_u32        v6, vcc, s2, v2
    v_addc_u32       v7, vcc, 0, v7, vcc
    s_waitcnt        lgkmcnt(0)
    flat_store_dword v[6:7], v5
    s_endpgm
"#;

#[test]
fn local_memory_arguments() {
    let dir = workdir("local");
    std::fs::write(dir.join("reverse.s"), REVERSE).unwrap();
    let out = gcnrun(
        &dir,
        &[
            "reverse.s",
            "reverse",
            "zero:256",
            "local:16",
            "local:256",
            "--global",
            "64",
            "--out",
            "0=r.bin",
        ],
    );
    expect(&out, 0, &["1 work-group, 1 wave"]);
    let r = words(&std::fs::read(dir.join("r.bin")).unwrap());
    let expected: Vec<u32> = (0..64).map(|i| 3 * (63 - i) + 16).collect();
    assert_eq!(r, expected);
    // Too little local memory: the LDS access past it completes in the
    // allocation's last granule, as on hardware, and is an `oob` error.
    let out = gcnrun(
        &dir,
        &[
            "reverse.s",
            "reverse",
            "zero:256",
            "local:16",
            "local:128",
            "--global",
            "64",
        ],
    );
    expect(
        &out,
        1,
        &[
            "reverse.s:21:5: error[oob]: `ds_write_b32 v3, v1` writes 4 bytes at LDS byte 0x90, \
             past the 144 bytes of LDS the work-group declared (inside its 512-byte allocation, \
             which is whole granules) [kernel 'reverse' pc 0x2c, wave 0 of group (0, 0, 0), \
             lanes 32–63]",
            "gcnrun: error: 2 check errors",
        ],
    );
}

/// out[y * width + x] = x + 1000 y over a 2-D grid.
const GRID2D: &str = r#"
.gallium
.gpu tonga
.kernel grid
    .args
        .arg out, global, 8
    .config
        .dims xy
.text
grid:
    s_load_dwordx4   s[8:11], s[0:1], 0x0c   # global x, y, z; local x
    s_load_dword     s12, s[0:1], 0x1c       # local y
    s_load_dwordx2   s[2:3], s[0:1], 0x24    # out
    s_waitcnt        lgkmcnt(0)
    s_mul_i32        s13, s4, s11            # group x * local x
    v_add_u32        v0, vcc, s13, v0        # x
    s_mul_i32        s14, s5, s12            # group y * local y
    v_add_u32        v1, vcc, s14, v1        # y
    v_mul_lo_u32     v2, v1, s8              # y * width
    v_add_u32        v2, vcc, v2, v0
    s_movk_i32       s15, 1000
    v_mul_lo_u32     v3, v1, s15
    v_add_u32        v3, vcc, v3, v0         # x + 1000 y
    v_lshlrev_b32    v2, 2, v2
    v_mov_b32        v5, s3
    v_add_u32        v4, vcc, s2, v2
    v_addc_u32       v5, vcc, 0, v5, vcc
    flat_store_dword v[4:5], v3
    s_endpgm
"#;

#[test]
fn two_dimensional_grid() {
    let dir = workdir("grid2d");
    std::fs::write(dir.join("grid.s"), GRID2D).unwrap();
    let expected: Vec<u32> = (0..6)
        .flat_map(|y| (0..8).map(move |x| x + 1000 * y))
        .collect();
    for (local, summary) in [
        (Some("4,3"), "4 work-groups, 4 waves"),
        (Some("8"), "6 work-groups, 6 waves"), // y defaults to 1
        (None, "6 work-groups, 6 waves"),      // 8 × 1
    ] {
        let mut args = vec![
            "grid.s", "grid", "zero:192", "--global", "8,6", "--out", "0=g.bin",
        ];
        if let Some(l) = local {
            args.extend(["--local", l]);
        }
        expect(&gcnrun(&dir, &args), 0, &[summary]);
        assert_eq!(words(&std::fs::read(dir.join("g.bin")).unwrap()), expected);
    }
}

#[test]
fn usage_errors_exit_2_and_show_the_arguments() {
    let dir = workdir("usage");
    std::fs::write(dir.join("dump.s"), DUMP).unwrap();
    std::fs::write(dir.join("reverse.s"), REVERSE).unwrap();
    let listing = "ARG 0: out      .arg out, global, 8";
    // The argument parser's own errors carry the contract's prefix too.
    let out = gcnrun(&dir, &["dump.s", "dump"]);
    expect(
        &out,
        2,
        &["gcnrun: error: ", "takes 14 arguments but 0 were given"],
    );
    assert!(!out.stderr.starts_with("error:"), "{}", out.stderr);
    let out = gcnrun(
        &dir,
        &["dump.s", "dump", "--global", "64", "--threads", "0"],
    );
    expect(&out, 2, &["gcnrun: error: ", "--threads"]);
    assert!(
        out.stderr.lines().all(|l| !l.starts_with("error:")),
        "{}",
        out.stderr
    );
    let out = gcnrun(
        &dir,
        &["dump.s", "dump", "--global", "64", "--timeout", "0"],
    );
    expect(
        &out,
        2,
        &["gcnrun: error: ", "the time limit must be positive"],
    );
    // Wrong count.
    let out = gcnrun(&dir, &["dump.s", "dump", "zero:136", "--global", "34"]);
    expect(
        &out,
        2,
        &[
            "gcnrun: error: kernel 'dump' takes 14 arguments but 1 was given",
            listing,
            "ARG 13: m",
            ".arg scalar, 4, 4, 4, zext, griddim",
            "(set by gcnrun)",
        ],
    );
    // Each bad ARG, at its position.
    for (index, bad, message) in [
        (
            0,
            "u32:1",
            "a global argument takes a buffer (@FILE, zero:N or TYPE[]:V[,V...])",
        ),
        (1, "@x.bin", "a scalar argument takes a by-value argument"),
        (1, "local:4", "a scalar argument takes a by-value argument"),
        (1, "u8:256", "`256` is not a valid u8 value"),
        (2, "i8:-129", "`-129` is not a valid i8 value"),
        (3, "u16:-1", "`-1` is not a valid u16 value"),
        (3, "u16:0x10000", "`0x10000` is not a valid u16 value"),
        (5, "u32:1,2", "8 bytes given for a 4-byte argument"),
        (5, "hex:0102030405", "5 bytes given for a 4-byte argument"),
        (5, "hex:123", "not an even, non-zero number of hex digits"),
        (5, "u128:1", "unknown form `u128:`"),
        (5, "5", "`5` has no type: write it as `i32:5`"),
        (
            5,
            "five",
            "expected TYPE:V[,V...], hex:BYTES, @FILE, zero:N, TYPE[]:V[,V...], local:N, image:KEY=V,..., sampler:KEY=V,... or vsharp:BUF[,...]",
        ),
        (11, "f32:one", "`one` is not a valid f32 value"),
        (0, "zero:x", "`x` is not a byte count"),
    ] {
        let mut args = dump_args("dump.s", &[]);
        args[2 + index] = bad;
        let out = gcnrun(&dir, &args);
        expect(
            &out,
            2,
            &[&format!("ARG {index} (`{bad}`)"), message, listing],
        );
    }
    let out = gcnrun(
        &dir,
        &[
            "reverse.s",
            "reverse",
            "zero:256",
            "local:16",
            "zero:4",
            "--global",
            "64",
        ],
    );
    expect(&out, 2, &["a local argument takes local memory (local:N)"]);
    // Unknown kernel: the kernels there are, with their arguments.
    let out = gcnrun(&dir, &["dump.s", "dumb", "--global", "1"]);
    expect(
        &out,
        2,
        &[
            "no kernel named 'dumb'; did you mean `dump`? (the binary has: dump)",
            listing,
        ],
    );
    // --out of a by-value argument, of no argument, malformed.
    for (spec, message) in [
        ("1=x.bin", "--out 1=x.bin: ARG 1 (`u8:200`) is not a buffer"),
        ("14=x.bin", "there is no ARG 14 (the kernel takes 14)"),
        ("0", "--out 0: expected N=FILE"),
        ("a=x", "`a` is not an argument number"),
    ] {
        let out = gcnrun(&dir, &dump_args("dump.s", &["--out", spec]));
        expect(&out, 2, &[message]);
    }
    // Sizes.
    for (option, value, message) in [
        ("--global", "0", "--global 0: `0` is not a size (1 or more)"),
        ("--global", "1,2,3,4", "expected X[,Y[,Z]]"),
        (
            "--local",
            "2,1",
            "--local 2,1: 2 dimensions for a 1-dimensional --global",
        ),
        (
            "--offset",
            "1,1",
            "2 dimensions for a 1-dimensional --global",
        ),
        ("--offset", "1,x", "`x` is not a number"),
    ] {
        let mut args = vec!["dump.s", "dump"];
        args.extend(DUMP_ARGS);
        if option != "--global" {
            args.extend(["--global", "34"]);
        }
        args.extend([option, value]);
        expect(&gcnrun(&dir, &args), 2, &[message]);
    }
    // Devices, options.
    expect(
        &gcnrun(&dir, &dump_args("dump.s", &["-g", "voodoo"])),
        2,
        &["unknown GPU device 'voodoo' (known devices: ", "tonga"],
    );
    expect(
        &gcnrun(&dir, &dump_args("dump.s", &["-A", "GCN9"])),
        2,
        &["unknown architecture 'GCN9' (known: "],
    );
    expect(
        &gcnrun(&dir, &["dump.s", "dump", "zero:4"]),
        2,
        &["takes 14 arguments but 1 was given"],
    );
    expect(
        &gcnrun(&dir, &dump_args("dump.s", &["--threads", "0"])),
        2,
        &["--threads"],
    );
}

/// Faults: an out-of-bounds store (lane and address), `s_trap`, a runaway
/// loop under --max-steps.
const FAULTS: &str = r#"
.gallium
.gpu tonga
.kernel oob
    .args
        .arg out, global, 8
    .config
        .dims x
.kernel trap
    .config
        .dims x
.kernel spin
    .config
        .dims x
.kernel past
    .args
        .arg out, global, 8
    .config
        .dims x
.text
oob:
    s_load_dwordx2   s[2:3], s[0:1], 0x24
    s_waitcnt        lgkmcnt(0)
    v_lshlrev_b32    v1, 7, v0
    v_mov_b32        v3, s3
    v_add_u32        v2, vcc, s2, v1
    v_addc_u32       v3, vcc, 0, v3, vcc
    flat_store_dword v[2:3], v0
    s_endpgm
trap:
    s_nop 0
    s_trap 3
    s_endpgm
spin:
    s_branch spin
past:
    s_load_dwordx2   s[2:3], s[0:1], 0x24
    s_waitcnt        lgkmcnt(0)
    v_lshlrev_b32    v1, 2, v0
    v_mov_b32        v3, s3
    v_add_u32        v2, vcc, s2, v1
    v_addc_u32       v3, vcc, 0, v3, vcc
    flat_store_dword v[2:3], v0
    s_endpgm
"#;

#[test]
fn run_errors_exit_1_and_say_where() {
    let dir = workdir("run");
    std::fs::write(dir.join("faults.s"), FAULTS).unwrap();
    std::fs::write(dir.join("dump.s"), DUMP).unwrap();
    // 64 items 128 bytes apart over a 160-byte buffer, mapped in one 4 KiB
    // page: lane 32 stores past the page, in the first work-group with 64
    // items per group …
    let out = gcnrun(&dir, &["faults.s", "oob", "zero:160", "--global", "64"]);
    expect(
        &out,
        1,
        &[
            // The store is line 28 of FAULTS (which starts with an
            // empty line).
            "gcnrun: error: faults.s:28:5: kernel 'oob', work-group (0, 0, 0), wave 0, pc 0x",
            "`flat_store_dword v[2:3], v0`",
            "lane 32: memory fault: 4-byte access at 0x",
            "is outside every allocation",
            "(3936 bytes past the end of the 160-byte allocation at 0x",
        ],
    );
    // … and in the second wave of a 2-wave group (3 pages: item 96).
    let out = gcnrun(
        &dir,
        &[
            "faults.s",
            "oob",
            "zero:12000",
            "--global",
            "128",
            "--local",
            "128",
        ],
    );
    expect(&out, 1, &["work-group (0, 0, 0), wave 1,", "lane 32:"]);
    let out = gcnrun(&dir, &["faults.s", "trap", "--global", "1"]);
    expect(
        &out,
        1,
        &["kernel 'trap'", "pc 0x2c `s_trap 0x3`", ": s_trap 3"],
    );
    let out = gcnrun(&dir, &["faults.s", "past", "zero:160", "--global", "64"]);
    expect(&out, 1, &["error[oob]"]);
    assert!(!out.stderr.contains("memory fault"), "{}", out.stderr);
    let out = gcnrun(
        &dir,
        &["faults.s", "spin", "--global", "1", "--max-steps", "1000"],
    );
    expect(
        &out,
        1,
        &[
            "kernel 'spin'",
            "the wave ran 1000 instructions, its step budget",
        ],
    );
    // Dispatch shapes the API refuses.
    let out = gcnrun(&dir, &dump_args("dump.s", &["--local", "4"]));
    expect(
        &out,
        1,
        &["gcnrun: error: bad dispatch: global size 34 is not a multiple of local size 4"],
    );
    let out = gcnrun(
        &dir,
        &["faults.s", "trap", "--global", "2048", "--local", "2048"],
    );
    expect(&out, 1, &["2048 work-items is larger than 1024 (16 waves)"]);
    // Files.
    let out = gcnrun(&dir, &["missing.s", "k", "--global", "1"]);
    expect(&out, 1, &["gcnrun: error: missing.s: "]);
    let out = gcnrun(&dir, &["faults.s", "oob", "@missing.bin", "--global", "1"]);
    expect(&out, 1, &["gcnrun: error: missing.bin: "]);
    std::fs::write(dir.join("junk.bin"), [1u8, 0, 0, 0, 0xff, 0xff, 0, 0]).unwrap();
    let out = gcnrun(&dir, &["junk.bin", "k", "--global", "1"]);
    expect(
        &out,
        1,
        &["gcnrun: error: junk.bin: not a GalliumCompute binary"],
    );
    // Source that does not assemble: the assembler's messages.
    std::fs::write(
        dir.join("bad.s"),
        ".gallium\n.kernel k\n.text\nk:\n    s_mov_b32 s0\n    s_endpgm\n",
    )
    .unwrap();
    let out = gcnrun(&dir, &["bad.s", "k", "--global", "1"]);
    expect(
        &out,
        1,
        &[
            "bad.s:5:",
            ": error: ",
            "gcnrun: error: bad.s: the source does not assemble",
        ],
    );
}

#[test]
fn a_device_option_wins_over_the_source() {
    let dir = workdir("device");
    std::fs::write(dir.join("faults.s"), FAULTS).unwrap();
    // Assembled for tonga (its .gpu), run as GCN 1.2 by default …
    expect(
        &gcnrun(&dir, &["faults.s", "trap", "--global", "1"]),
        1,
        &["s_trap 3"],
    );
    // … or on the version -A names, with a warning.
    let out = gcnrun(&dir, &["-A", "GCN1.4", "faults.s", "trap", "--global", "1"]);
    expect(
        &out,
        1,
        &["gcnrun: warning: faults.s is assembled for GCN1.2 (its .gpu/.arch) but runs on GCN1.4"],
    );
}

/// A kernel that reads its scalar load's result before `s_waitcnt`.
const NO_WAIT: &str = r#"
.gallium
.gpu tonga
.kernel nowait
    .args
        .arg out, global, 8
        .arg griddim
        .arg gridoffset
    .config
        .dims x
        .tgsize
.text
nowait:
    s_load_dwordx2   s[6:7], s[0:1], 0x24
    v_mov_b32        v3, s7
    s_waitcnt        lgkmcnt(0)
    v_lshlrev_b32    v1, 2, v0
    v_mov_b32        v3, s7
    v_add_u32        v2, vcc, s6, v1
    v_addc_u32       v3, vcc, v3, 0, vcc
    flat_store_dword v[2:3], v0
    s_endpgm
"#;

#[test]
fn check_findings_print_like_diagnostics_and_levels_apply() {
    let dir = workdir("check");
    std::fs::write(dir.join("nowait.s"), NO_WAIT).unwrap();
    let base = ["nowait.s", "nowait", "zero:256", "--global", "64"];
    // Error by default: printed, exit 1, outputs still written.
    let mut args = base.to_vec();
    args.extend(["--out", "0=o.bin"]);
    expect(
        &gcnrun(&dir, &args),
        1,
        &[
            // The source's lines (NO_WAIT starts with an empty line):
            // line 15 reads what line 14 loads.
            "nowait.s:15:5: error[waitcnt]: `v_mov_b32 v3, s7` reads s7 before the s_waitcnt for the load that writes it (`s_load_dwordx2 s[6:7], s[0:1], 0x24` at nowait.s:14:5) [kernel 'nowait' pc 0x8, wave 0 of group (0, 0, 0)",
            "gcnrun: error: 1 check error",
        ],
    );
    assert_eq!(
        words(&std::fs::read(dir.join("o.bin")).unwrap()),
        (0..64).collect::<Vec<u32>>()
    );
    // Warn: printed, exit 0.
    let mut args = base.to_vec();
    args.extend(["--check", "waitcnt=warn"]);
    expect(&gcnrun(&dir, &args), 0, &["warning[waitcnt]"]);
    // Off: nothing.
    let mut args = base.to_vec();
    args.extend(["--check", "all=off"]);
    let out = gcnrun(&dir, &args);
    expect(&out, 0, &[]);
    assert!(!out.stderr.contains("waitcnt"), "{}", out.stderr);
    // A bad spec is a usage error.
    let mut args = base.to_vec();
    args.extend(["--check", "waitcnt=loud"]);
    expect(&gcnrun(&dir, &args), 2, &["unknown check level `loud`"]);
}

#[test]
fn trace_prints_the_selected_waves_with_changed_registers() {
    let dir = workdir("trace");
    std::fs::write(dir.join("grid.s"), GRID2D).unwrap();
    let out = gcnrun(
        &dir,
        &[
            "grid.s",
            "grid",
            "zero:192",
            "--global",
            "8,6",
            "--local",
            "4,3",
            "--trace",
            "--trace-group",
            "1,1",
        ],
    );
    expect(&out, 0, &[]);
    let stdout = out.stdout;
    let lines: Vec<&str> = stdout.lines().collect();
    // Only group (1, 1, 0), one wave: every instruction once, in order,
    // from step 0 to s_endpgm.
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("group (1, 1, 0) wave 0 #")),
        "{stdout}"
    );
    // Each record cites the source line of its instruction (GRID2D
    // starts with an empty line: the first instruction is line 11).
    assert!(
        lines[0].starts_with("group (1, 1, 0) wave 0 #0 pc 0x0000: grid.s:11:5: s_load_dwordx4"),
        "{stdout}"
    );
    assert!(lines.last().unwrap().ends_with("s_endpgm"), "{stdout}");
    // The flat store's data: x + 1000 y of the group's 12 work-items
    // (x 4..8, y 3..6) — lanes 0-11 differ, so they are listed.
    let v3 = lines
        .iter()
        .rev()
        .find(|l| l.contains("v_add_i32 v3") || l.contains("v_add_u32 v3"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        v3.contains("v3={0:0xbbc, 1:0xbbd, 2:0xbbe, 3:0xbbf … 12 lanes}"),
        "{v3}"
    );
}

/// `vsharp:` arguments: a V# over a new buffer, with the typed fields; the
/// kernel converts [8_8_8_8, UNORM] records to [32_32_32_32, FLOAT] ones
/// (expected: `c / 255`, the seed's UNORM rule) through the V#s it is
/// given.
#[test]
fn vsharp_arguments() {
    let dir = workdir("vsharp_arguments");
    let source = r#"
.gallium
.gpu tonga
.kernel convert
    .args
        .arg src, scalar, 16
        .arg dst, scalar, 16
        .arg griddim
        .arg gridoffset
    .config
        .dims x
.text
convert:
    s_load_dwordx4   s[8:11], s[0:1], 0x24
    s_load_dwordx4   s[12:15], s[0:1], 0x34
    s_waitcnt        lgkmcnt(0)
    buffer_load_format_xyzw v[4:7], v0, s[8:11], 0 idxen
    s_waitcnt        vmcnt(0)
    buffer_store_format_xyzw v[4:7], v0, s[12:15], 0 idxen
    s_endpgm
"#;
    std::fs::write(dir.join("k.s"), source).unwrap();
    std::fs::write(dir.join("in.bin"), [0u8, 255, 51, 1, 2, 3, 4, 5]).unwrap();
    let out = gcnrun(
        &dir,
        &[
            "k.s",
            "convert",
            "vsharp:@in.bin,stride=4,format=8_8_8_8:unorm,dst_sel=abgr",
            "vsharp:zero:48,stride=16,format=BUF_DATA_FORMAT_32_32_32_32:float",
            "--global",
            "3",
            "--out",
            "1=out.bin",
        ],
    );
    expect(&out, 0, &[]);
    let got: Vec<f32> = words(&std::fs::read(dir.join("out.bin")).unwrap())
        .into_iter()
        .map(f32::from_bits)
        .collect();
    // Two records (8 bytes / stride 4), reversed by DST_SEL; the third
    // lane is out of range and reads zeros.
    let u = |c: u8| f32::from(c) / 255.0;
    let mut want = vec![u(1), u(51), u(255), u(0), u(5), u(4), u(3), u(2)];
    want.extend([0.0; 4]);
    assert_eq!(got, want);

    for (arg, message) in [
        ("vsharp:zero:16,stride=16384", "STRIDE"),
        ("vsharp:zero:16,format=8_8_8:unorm", "unknown data format"),
        ("vsharp:zero:16,dst_sel=rgb", "four of"),
        ("vsharp:zero:16,swizzle=3:8", "element size"),
        ("vsharp:x.bin", "needs the buffer first"),
        ("vsharp:zero:16,bogus=1", "unknown `vsharp:` key"),
    ] {
        let out = gcnrun(
            &dir,
            &["k.s", "convert", arg, "vsharp:zero:16", "--global", "1"],
        );
        expect(&out, 2, &[message]);
    }
}

/// Image and sampler arguments in their readable form, and `--out` of an
/// image: a kernel copies texel `gid` of a 4x1 image (image_load) to
/// image_store's texel `3 - gid` of a second one, and samples the first
/// bilinearly into a buffer.
#[test]
fn image_and_sampler_arguments() {
    let dir = workdir("image_and_sampler_arguments");
    let source = r#"
.gallium
.gpu tonga
.kernel flip
    .args
        .arg src, image2d_rdonly, 32, 32, 32
        .arg smp, sampler, 16, 16, 16
        .arg dst, image2d_wronly, 32, 32, 32
        .arg out, global, 8
        .arg griddim
        .arg gridoffset
    .config
        .dims x
.text
flip:
    s_load_dwordx8   s[8:15], s[0:1], 0x24
    s_load_dwordx4   s[16:19], s[0:1], 0x44
    s_load_dwordx8   s[20:27], s[0:1], 0x64
    s_load_dwordx2   s[28:29], s[0:1], 0x84
    s_waitcnt        lgkmcnt(0)
    v_mov_b32        v1, 0
    image_load       v2, v[0:1], s[8:15] dmask:0x1 unorm
    v_sub_u32        v3, vcc, 3, v0
    v_mov_b32        v4, 0
    v_cvt_f32_u32    v5, v0
    v_add_f32        v5, 1.0, v5              # t = gid + 1: between texels gid and gid + 1
    v_mov_b32        v6, 0.5
    image_sample     v7, v[5:6], s[8:15], s[16:19] dmask:0x1 unorm
    s_waitcnt        vmcnt(0)
    image_store      v2, v[3:4], s[20:27] dmask:0x1 unorm
    v_lshlrev_b32    v8, 2, v0
    v_mov_b32        v9, s29
    v_add_u32        v8, vcc, s28, v8
    v_addc_u32       v9, vcc, 0, v9, vcc
    flat_store_dword v[8:9], v7
    s_endpgm
"#;
    std::fs::write(dir.join("flip.s"), source).unwrap();
    let texels: Vec<u8> = [10.0f32, 20.0, 30.0, 40.0]
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    std::fs::write(dir.join("in.raw"), texels).unwrap();
    let out = gcnrun(
        &dir,
        &[
            "flip.s",
            "flip",
            "image:type=2d,format=32,num=float,size=4x1,data=in.raw",
            "sampler:xy_filter=bilinear,clamp=clamp_last_texel",
            "image:format=32,num=float,size=4",
            "zero:16",
            "--global",
            "4",
            "--out",
            "2=dst.raw",
            "--out",
            "3=out.raw",
        ],
    );
    expect(&out, 0, &["flip on GCN1.2"]);
    let f = |name: &str| -> Vec<f32> {
        std::fs::read(dir.join(name))
            .unwrap()
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    assert_eq!(f("dst.raw"), [40.0, 30.0, 20.0, 10.0]);
    // t = gid + 1 -> u = gid + 0.5: the mean of texels gid and gid + 1
    // (the last clamps to texel 3).
    assert_eq!(f("out.raw"), [15.0, 25.0, 35.0, 40.0]);
    // A bad field is a usage error naming it.
    let out = gcnrun(
        &dir,
        &[
            "flip.s",
            "flip",
            "image:size=4x1",
            "sampler:clamp=sideways",
            "image:size=4",
            "zero:16",
            "--global",
            "4",
        ],
    );
    expect(&out, 2, &["clamp: `sideways` is not one of"]);
}

#[test]
fn oob_accesses_are_check_errors_and_outputs_are_written() {
    let dir = workdir("oob");
    std::fs::write(dir.join("faults.s"), FAULTS).unwrap();
    // 64 items over a 160-byte buffer: lanes 40-63 store past its end,
    // inside its page. The run completes, the 160 bytes are written, and
    // the store is an oob error.
    let args = [
        "faults.s",
        "past",
        "zero:160",
        "--global",
        "64",
        "--out",
        "0=out.bin",
    ];
    let out = gcnrun(&dir, &args);
    expect(
        &out,
        1,
        &[
            "faults.s:43:5: error[oob]: `flat_store_dword v[2:3], v0` writes 4 bytes at 0x",
            ", 0 bytes past the end of the 160-byte allocation at 0x",
            " (argument 0) [kernel 'past' pc 0x",
            "lanes 40–63]",
            "gcnrun: error: 1 check error (--check NAME=warn or NAME=off to go on)",
        ],
    );
    let want: Vec<u8> = (0..40u32).flat_map(|i| i.to_le_bytes()).collect();
    assert_eq!(std::fs::read(dir.join("out.bin")).unwrap(), want);
    // As a warning: exit 0, the report still printed.
    std::fs::remove_file(dir.join("out.bin")).unwrap();
    let mut warn = args.to_vec();
    warn.extend(["--check", "oob=warn"]);
    let out = gcnrun(&dir, &warn);
    expect(&out, 0, &["warning[oob]: `flat_store_dword v[2:3], v0`"]);
    assert_eq!(std::fs::read(dir.join("out.bin")).unwrap(), want);
    // Off: nothing reported.
    let mut off = args.to_vec();
    off.extend(["--check", "oob=off"]);
    let out = gcnrun(&dir, &off);
    expect(&out, 0, &[]);
    assert!(!out.stderr.contains("[oob]"), "{}", out.stderr);
    // The name is listed among the checks.
    let mut bad = args.to_vec();
    bad.extend(["--check", "nope=warn"]);
    let out = gcnrun(&dir, &bad);
    expect(&out, 2, &["uninit or oob"]);
}

/// `--profile`: each instruction with its count, share, average lanes,
/// family, PC, disassembly and source line, hottest first, then the
/// families, on standard output after the run.
#[test]
fn profile_prints_instructions_and_families() {
    let dir = workdir("profile");
    std::fs::write(dir.join("vadd.s"), VADD).unwrap();
    // 100 work-items in groups of 50: two waves of 50 lanes.
    let run = |extra: &[&str]| {
        let args = ["vadd.s", "vadd", "zero:400", "zero:400", "zero:400"];
        let grid = ["--global", "100", "--local", "50"];
        let out = gcnrun(&dir, &[&args[..], &grid, extra].concat());
        expect(&out, 0, &[]);
        out
    };
    let stdout = run(&["--profile"]).stdout;
    let lines: Vec<&str> = stdout.lines().collect();
    // 21 instructions, each once per wave.
    assert_eq!(lines[0], "profile: 42 instructions executed", "{stdout}");
    let rows: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.contains("  0x"))
        .collect();
    assert_eq!(rows.len(), 21, "{stdout}");
    // Equal counts: in PC order, the first the s_load at vadd.s line 15.
    assert!(
        rows[0].split_whitespace().collect::<Vec<_>>()[..6]
            == ["2", "4.76", "50.0", "SMRD", "0x0000", "s_load_dword"],
        "{stdout}"
    );
    assert!(rows[0].ends_with("(vadd.s:15:5)"), "{stdout}");
    let store = rows
        .iter()
        .find(|r| r.contains("buffer_store_dword"))
        .unwrap();
    assert!(store.contains(" MUBUF "), "{store}");
    // The families: MUBUF's three instructions, twice each.
    let mubuf = lines
        .iter()
        .find(|l| l.split_whitespace().nth(3) == Some("MUBUF") && !l.contains("0x"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert_eq!(
        mubuf.split_whitespace().collect::<Vec<_>>(),
        ["6", "14.29", "50.0", "MUBUF", "3"],
        "{stdout}"
    );
    // Without --profile nothing is printed.
    let out = run(&[]);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
}

/// A code object of `tests/rocm/gen/` (the ROCm fixtures).
fn code_object(set: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/rocm/gen")
        .join(set)
        .join(format!("{name}.co"))
}

#[test]
fn code_objects_run_with_printf_on_stdout() {
    let dir = workdir("code_object_printf");
    let input: Vec<u8> = (0..64i32).flat_map(|v| (v * 10).to_le_bytes()).collect();
    std::fs::write(dir.join("in.bin"), &input).unwrap();
    let co = code_object("v4/gfx900", "printf");
    let out = gcnrun(
        &dir,
        &[
            co.to_str().unwrap(),
            "printf_formats",
            "@in.bin",
            "zero:256",
            "--global",
            "64",
            "--local",
            "64",
            "--out",
            "1=out.bin",
        ],
    );
    expect(&out, 0, &[]);
    let stdout = out.stdout;
    assert!(stdout.contains("hello from the device\n"), "{stdout}");
    assert!(
        stdout.contains("item 3: 30    30 30   | 1e 0X1E 36 a str %\n"),
        "{stdout}"
    );
    let got = std::fs::read(dir.join("out.bin")).unwrap();
    let want: Vec<u8> = (0..64i32)
        .flat_map(|v| (v * 10 + 1).to_le_bytes())
        .collect();
    assert_eq!(got, want);
}

/// LLVM's processor names are device names (`-g gfx803`, as clang's
/// `-mcpu` and the code object say it); the kernel's three int arguments
/// are loaded past the 20-byte kernarg segment by one `s_load_dwordx4`, a
/// partial load that is no `oob` report.
#[test]
fn llvm_processor_names_and_a_kernarg_tail() {
    let dir = workdir("llvm_processor_names");
    for (set, device) in [
        ("v4/gfx803", "gfx803"),
        ("v5/gfx900", "GFX900"),
        ("v4/gfx906", "gfx906"),
    ] {
        let co = code_object(set, "hw_semantics");
        let out = gcnrun(
            &dir,
            &[
                "-g",
                device,
                co.to_str().unwrap(),
                "scalars_tail",
                "zero:256",
                "i32:7",
                "i32:-5",
                "i32:1000",
                "--global",
                "64",
                "--print",
                "0:i32",
            ],
        );
        expect(&out, 0, &[]);
        let want: Vec<String> = (0..64).map(|i| (7 * i - 5 - 1000).to_string()).collect();
        assert!(
            out.stdout.contains(&want[..8].join(" ")),
            "{set}: {}",
            out.stdout
        );
    }
}

/// A 1-D dispatch of a kernel set up for three dimensions (clang enables
/// them all for `get_global_id(k)` with a run-time `k`) runs: the others
/// have size 1 and id 0, `get_work_dim()` is 1.
#[test]
fn fewer_dimensions_than_the_kernel_enables() {
    let dir = workdir("fewer_dimensions");
    let source =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/opencl/gen/tahiti/hw_semantics.s");
    let out = gcnrun(
        &dir,
        &[
            "-g",
            "tahiti",
            source.to_str().unwrap(),
            "any_dim_ids",
            "zero:512",
            "u32:3",
            "--global",
            "128",
            "--local",
            "64",
            "--out",
            "0=ids.bin",
        ],
    );
    expect(&out, 0, &["2 work-groups"]);
    let got = words(&std::fs::read(dir.join("ids.bin")).unwrap());
    let want: Vec<u32> = (0..128u32)
        .map(|i| {
            let mut acc = 1u32;
            let dims = [
                (i, i % 64, i / 64, 64, 2, 128),
                (0, 0, 0, 1, 1, 1),
                (0, 0, 0, 1, 1, 1),
            ];
            for (gid, lid, grp, lsize, groups, gsize) in dims {
                acc =
                    acc * 7 + gid * 3 + lid * 5 + grp * 11 + lsize * 13 + groups * 17 + gsize * 19;
            }
            acc
        })
        .collect();
    assert_eq!(got, want);
}

/// Each file a user may hand gcnrun is named, and each near miss gets the
/// name or form that was probably meant.
#[test]
fn files_and_names_a_user_has() {
    let dir = workdir("files_and_names");
    let co = code_object("v4/gfx906", "hw_semantics");
    let co = co.to_str().unwrap();
    // No kernel: the listing (file kind, GPU, kernels and arguments).
    let out = gcnrun(&dir, &[co]);
    expect(&out, 0, &[]);
    assert!(
        out.stdout.contains(
            "hw_semantics.co: an AMDHSA code object v4 for gfx906, run on GCN1.4.1; 6 kernels"
        ),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("kernel 'scalars_tail' arguments:\n  ARG 0: arg0     int*"),
        "{}",
        out.stdout
    );
    // A Gallium binary's listing says it records no GPU.
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/opencl/gen/tonga/hw_semantics.s"),
    )
    .unwrap();
    std::fs::write(dir.join("tonga.bin"), gallium(&source)).unwrap();
    let out = gcnrun(&dir, &["tonga.bin"]);
    expect(&out, 0, &[]);
    assert!(
        out.stdout.contains("tonga.bin: a GalliumCompute binary (it does not record its GPU: -g DEVICE picks it; GCN1.0 by default); 6 kernels"),
        "{}",
        out.stdout
    );
    // Run without -g, GCN 1.2 code decoded as GCN 1.0 faults: the error
    // says the GPU was gcnrun's guess.
    let out = gcnrun(
        &dir,
        &[
            "tonga.bin",
            "scalars_tail",
            "zero:256",
            "i32:1",
            "i32:2",
            "i32:3",
            "--global",
            "64",
        ],
    );
    expect(
        &out,
        1,
        &["note: tonga.bin is a GalliumCompute binary, which does not record its GPU: it ran as capeverde (GCN1.0), gcnrun's default; give the GPU it was built for with -g DEVICE"],
    );
    // Near misses: the kernel name, the device, a bare number.
    let out = gcnrun(&dir, &[co, "scalar_tail", "zero:4", "--global", "1"]);
    expect(
        &out,
        2,
        &["no kernel named 'scalar_tail'; did you mean `scalars_tail`?"],
    );
    let out = gcnrun(&dir, &["-g", "gfx9066", co]);
    expect(
        &out,
        2,
        &["unknown GPU device 'gfx9066'; did you mean `gfx906`?"],
    );
    let out = gcnrun(
        &dir,
        &[
            co,
            "scalars_tail",
            "zero:256",
            "0.5",
            "7",
            "i32:1",
            "--global",
            "1",
        ],
    );
    expect(
        &out,
        2,
        &["ARG 1 (`0.5`) for argument 'arg1': `0.5` has no type: write it as `f32:0.5`"],
    );
    // A kernel without --global.
    let out = gcnrun(
        &dir,
        &[co, "scalars_tail", "zero:256", "i32:1", "i32:2", "i32:3"],
    );
    expect(&out, 2, &["--global <X[,Y[,Z]]>"]);
    // A code object for a GPU of another generation is named.
    let mut bytes = std::fs::read(co).unwrap();
    for (mach, named) in [
        (
            0x41u8,
            "the code object is for gfx1100 (RDNA 3), which is not supported yet",
        ),
        (
            0x3f,
            "the code object is for gfx90a (CDNA 2), which is not supported yet",
        ),
    ] {
        bytes[48] = mach;
        std::fs::write(dir.join("other.co"), &bytes).unwrap();
        let out = gcnrun(&dir, &["other.co"]);
        expect(&out, 1, &[named]);
    }
    // A relocatable object (`clang -target amdgcn-- -c`) says what to do.
    let rel =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/rocm/other/relocatable-tahiti.o");
    let out = gcnrun(&dir, &[rel.to_str().unwrap()]);
    expect(
        &out,
        1,
        &["this is a relocatable AMDGPU object (ET_REL, as `clang -c` writes it before linking), not a code object"],
    );
}

#[test]
fn hip_printf_prints_on_stdout() {
    // HIP's printf goes through the hostcall buffer, served while the
    // kernel runs; the text comes out where OpenCL's does.
    let dir = workdir("code_object_hip_printf");
    std::fs::write(dir.join("name.bin"), b"on the device\0").unwrap();
    let co = code_object("hip/gfx906", "hip_printf");
    let out = gcnrun(
        &dir,
        &[
            co.to_str().unwrap(),
            "hip_printf",
            "zero:256",
            "@name.bin",
            "--global",
            "64",
            "--local",
            "64",
        ],
    );
    expect(&out, 0, &[]);
    let stdout = out.stdout;
    assert!(
        stdout.contains("thread 27 of block 0: 1b1cb b\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("3: -300000000000 3298534883328 literal and on the device\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("9: 2.250000 9.000000e+10 1.125 -13.500 0x14eef\n"),
        "{stdout}"
    );
    assert_eq!(stdout.lines().count(), 64 + 22 + 9, "{stdout}");
}

#[test]
fn hip_code_objects_with_dynamic_lds() {
    let dir = workdir("code_object_hip");
    let input: Vec<u8> = (0..512u32).flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(dir.join("in.bin"), &input).unwrap();
    let co = code_object("hip/gfx906", "hip_kernels");
    let args = [co.to_str().unwrap(), "block_sum", "@in.bin", "zero:8"];
    // Without --lds the kernel's shared array is outside the LDS.
    let out = gcnrun(
        &dir,
        &[&args[..], &["--global", "512", "--local", "256"]].concat(),
    );
    expect(&out, 1, &["gcnrun: error:", "block_sum"]);
    let out = gcnrun(
        &dir,
        &[
            &args[..],
            &[
                "--global",
                "512",
                "--local",
                "256",
                "--lds",
                "1024",
                "--out",
                "1=sums.bin",
            ],
        ]
        .concat(),
    );
    expect(&out, 0, &[]);
    let sums: Vec<u32> = words(&std::fs::read(dir.join("sums.bin")).unwrap());
    assert_eq!(sums, [(0..256).sum::<u32>(), (256..512).sum::<u32>()]);
}

#[test]
fn code_object_errors() {
    let dir = workdir("code_object_errors");
    let co = code_object("v5/gfx803", "grids");
    let bytes = std::fs::read(&co).unwrap();
    std::fs::write(dir.join("cut.co"), &bytes[..bytes.len() / 2]).unwrap();
    let out = gcnrun(&dir, &["cut.co", "grid2d", "zero:64", "--global", "4,4"]);
    expect(&out, 1, &["gcnrun: error: cut.co: bad code object"]);
    // The kernels there, with their metadata's argument types.
    let out = gcnrun(&dir, &[co.to_str().unwrap(), "grid5d", "--global", "4"]);
    expect(
        &out,
        2,
        &[
            "no kernel named 'grid5d'",
            "kernel 'grid2d' arguments:",
            "int* (global_buffer, 8 bytes)",
        ],
    );
    let out = gcnrun(
        &dir,
        &[co.to_str().unwrap(), "grid2d", "u32:1", "--global", "4"],
    );
    expect(&out, 2, &["ARG 0 (`u32:1`)"]);
    // OpenCL C 1.2: uniform work-groups only.
    let out = gcnrun(
        &dir,
        &[
            co.to_str().unwrap(),
            "grid2d",
            "zero:4096",
            "--global",
            "10,4",
            "--local",
            "4,4",
        ],
    );
    expect(
        &out,
        1,
        &[
            "not a multiple of local size 4",
            "needs uniform work-groups",
        ],
    );
}
