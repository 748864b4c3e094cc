//! Named `.arg`s as symbols holding their byte offset in the kernel input
//! buffer (`KERNEL::NAME`). Expected offsets follow the Gallium ABI as
//! `GalliumAbi.md` and the seeds state it: arguments from byte 36, each
//! aligned to its target alignment relative to byte 36.

use gcn_asm::{assemble, AssembleOptions, Device};

fn text(source: &str, device: Device) -> Vec<u8> {
    let options = AssembleOptions {
        device: Some(device),
        ..AssembleOptions::default()
    };
    match assemble(source, &options) {
        Ok(a) => a.text().to_vec(),
        Err(e) => panic!("{e}\n{source}"),
    }
}

fn errors(source: &str) -> String {
    match assemble(source, &AssembleOptions::default()) {
        Ok(_) => panic!("assembled:\n{source}"),
        Err(e) => e.to_string(),
    }
}

const KERNEL: &str = ".gallium
.kernel k
    .args
        .arg n, scalar, 4             # 36
        .arg out, global, 8           # 36+8 = 44: 8-aligned relative to 36
        .arg griddim                  # 52
        .arg c, scalar, 1, 4, 4       # 56
        .arg gridoffset               # 60, 64, 68
        .arg v, scalar, 16, 16, 16    # 36+48 = 84: 16-aligned relative to 36
        .arg last, scalar, 4          # 100
    .config
        .dims x
.text
";

#[test]
fn named_args_are_offset_symbols() {
    // GCN 1.2: SMEM offsets in bytes.
    let with_symbols = format!(
        "{KERNEL}k:\n s_load_dword s2, s[0:1], k::n\n s_load_dwordx2 s[4:5], s[0:1], k::out\n\
         s_load_dword s3, s[0:1], k::c\n s_load_dwordx4 s[8:11], s[0:1], k::v\n\
         s_load_dword s6, s[0:1], k::last\n s_endpgm\n"
    );
    let with_numbers = format!(
        "{KERNEL}k:\n s_load_dword s2, s[0:1], 36\n s_load_dwordx2 s[4:5], s[0:1], 44\n\
         s_load_dword s3, s[0:1], 56\n s_load_dwordx4 s[8:11], s[0:1], 84\n\
         s_load_dword s6, s[0:1], 100\n s_endpgm\n"
    );
    assert_eq!(
        text(&with_symbols, Device::Tonga),
        text(&with_numbers, Device::Tonga)
    );
    // GCN 1.0/1.1: SMRD offsets in dwords, so `k::NAME/4` (or `>>2`).
    let with_symbols =
        format!("{KERNEL}k:\n s_load_dwordx2 s[4:5], s[0:1], k::out/4\n s_load_dword s2, s[0:1], k::n>>2\n s_endpgm\n");
    let with_numbers = format!(
        "{KERNEL}k:\n s_load_dwordx2 s[4:5], s[0:1], 11\n s_load_dword s2, s[0:1], 9\n s_endpgm\n"
    );
    assert_eq!(
        text(&with_symbols, Device::Pitcairn),
        text(&with_numbers, Device::Pitcairn)
    );
}

#[test]
fn offset_symbols_do_not_clash() {
    // Labels and symbols of the same simple name elsewhere are other
    // symbols; the code may use an offset before its `.arg` (resolved
    // like a forward label).
    let source = ".gallium
.gpu tonga
.text
k:  s_load_dword s2, s[0:1], k::x
n:  s_nop 0
out = 5
    s_mov_b32 s3, out
.kernel k
    .args
        .arg n, scalar, 4
        .arg x, scalar, 4
.kernel k2
    .args
        .arg x, scalar, 8
.text
k2: s_load_dwordx2 s[2:3], s[0:1], k2::x
    s_endpgm
";
    let words: Vec<u8> = text(source, Device::Tonga);
    let expected = text(
        ".gpu tonga\ns_load_dword s2, s[0:1], 40\ns_nop 0\ns_mov_b32 s3, 5\n\
         s_load_dwordx2 s[2:3], s[0:1], 36\ns_endpgm\n",
        Device::Tonga,
    );
    assert_eq!(words, expected);
}

#[test]
fn offset_symbols_cannot_be_redefined() {
    let e =
        errors(".gallium\n.kernel k\n .args\n  .arg n, scalar, 4\n.text\nk::n = 3\nk: s_endpgm\n");
    assert!(
        e.contains("<stdin>:6:1: error: symbol 'k::n' is already defined"),
        "{e}"
    );
    let e = errors(
        ".gallium\n.scope k\nn: s_nop 0\n.ends\n.kernel k\n .args\n  .arg n, scalar, 4\n.text\nk: s_endpgm\n",
    );
    assert!(
        e.contains("<stdin>:7:8: error: symbol '::k::n' is already defined"),
        "{e}"
    );
}

/// The warnings of `source` assembled for `device`, as `LINE:COL: message`.
fn warnings(source: &str, device: Device) -> Vec<String> {
    let options = AssembleOptions {
        device: Some(device),
        ..AssembleOptions::default()
    };
    match assemble(source, &options) {
        Ok(a) => a
            .warnings
            .iter()
            .map(|w| format!("{}:{}: {}", w.pos.line, w.pos.column, w.message))
            .collect(),
        Err(e) => panic!("{e}\n{source}"),
    }
}

#[test]
fn an_offset_symbol_in_the_wrong_unit_is_warned_of() {
    // Line 15 is the first instruction, its offset at column 33.
    let bytes = format!("{KERNEL}k:\n s_load_dwordx2 s[4:5], s[0:1], k::out\n s_endpgm\n");
    let dwords = format!("{KERNEL}k:\n s_load_dwordx2 s[4:5], s[0:1], k::out / 4\n s_endpgm\n");
    // GCN 1.0/1.1 (SMRD): dwords.
    for device in [Device::Pitcairn, Device::Bonaire] {
        assert_eq!(
            warnings(&bytes, device),
            [
                "15:33: `k::out` is a byte offset (44) but the SMRD offset of GCN 1.0/1.1 counts \
              dwords: write `k::out/4`"
            ],
            "{device:?}"
        );
        assert!(warnings(&dwords, device).is_empty(), "{device:?}");
    }
    // GCN 1.2+ (SMEM): bytes.
    for device in [Device::Tonga, Device::Gfx900] {
        assert_eq!(
            warnings(&dwords, device),
            [
                "15:33: `k::out/4` is a dword offset (11) but the SMEM offset of GCN 1.2+ counts \
              bytes: write `k::out`"
            ],
            "{device:?}"
        );
        assert!(warnings(&bytes, device).is_empty(), "{device:?}");
    }
    // Other expressions, and symbols that are not argument offsets, are
    // taken as written.
    let other = format!(
        "{KERNEL}k:\n s_load_dword s2, s[0:1], k::n>>2\n s_load_dword s2, s[0:1], k::n+4\n\
         s_load_dword s2, s[0:1], k::n/4*4\n s_endpgm\n.scope q\nx = 8\n.ends\n\
         s_load_dword s2, s[0:1], q::x\n"
    );
    assert!(warnings(&other, Device::Pitcairn).is_empty());
    assert!(warnings(&other, Device::Tonga).is_empty());
}
