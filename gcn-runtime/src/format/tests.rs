//! Conversion tests: every expected value is computed by hand from the
//! seed's tables and the module's conversion table, not by the code under
//! test.

use super::*;

#[test]
fn codes_round_trip() {
    for code in 0..64u8 {
        if let Some(d) = DataFormat::from_code(code) {
            assert_eq!(d.code(), code);
        }
    }
    assert_eq!(DataFormat::from_code(23), None);
    assert_eq!(DataFormat::from_code(8), Some(DataFormat::D10_10_10_2));
    assert_eq!(DataFormat::D2_10_10_10.name(), "2_10_10_10");
    for n in NumFormat::ALL {
        assert_eq!(NumFormat::from_code(n.code()), Some(n));
    }
    assert_eq!(NumFormat::from_code(14), None);
}

use DataFormat as D;
use NumFormat as N;

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// Reads `element` (little-endian, the format's bytes) and compares the
/// four register dwords.
fn read(d: DataFormat, n: NumFormat, element: u128, want: [u32; 4]) {
    let c = Codec::new(d, n).unwrap();
    let bytes = element.to_le_bytes();
    let got = c.decode(&bytes[..c.bytes() as usize]);
    assert_eq!(
        got, want,
        "read [{d},{n}] of {element:#x}: got {got:08x?}, want {want:08x?}"
    );
}

/// Writes `values` and compares the element's bytes.
fn write(d: DataFormat, n: NumFormat, values: [u32; 4], element: u128) {
    let c = Codec::new(d, n).unwrap();
    let mut out = [0xaau8; 16];
    c.encode(&values, &mut out);
    let want = element.to_le_bytes();
    let len = c.bytes() as usize;
    assert_eq!(
        out[..len],
        want[..len],
        "write [{d},{n}] of {values:08x?}: got {:02x?}",
        &out[..len]
    );
    // Bytes past the element are not touched.
    assert!(out[len..].iter().all(|&b| b == 0xaa));
}

const ONE: u32 = 0x3f80_0000;

#[test]
fn element_sizes_follow_the_seed_table() {
    let sizes = [
        (D::D8, 1, 1),
        (D::D16, 2, 1),
        (D::D8_8, 2, 2),
        (D::D32, 4, 1),
        (D::D16_16, 4, 2),
        (D::D10_11_11, 4, 3),
        (D::D11_11_10, 4, 3),
        (D::D10_10_10_2, 4, 4),
        (D::D2_10_10_10, 4, 4),
        (D::D8_8_8_8, 4, 4),
        (D::D32_32, 8, 2),
        (D::D16_16_16_16, 8, 4),
        (D::D32_32_32, 12, 3),
        (D::D32_32_32_32, 16, 4),
    ];
    for (d, bytes, count) in sizes {
        let c = Codec::new(d, N::Uint).unwrap();
        assert_eq!((c.bytes(), c.components()), (bytes, count), "{d}");
    }
}

#[test]
fn reads_8_bit() {
    read(D::D8, N::Unorm, 0xff, [ONE, 0, 0, ONE]);
    read(D::D8, N::Unorm, 0x00, [0, 0, 0, ONE]);
    read(D::D8, N::Unorm, 0x80, [f(128.0 / 255.0), 0, 0, ONE]);
    // SNORM: MIN and MIN+1 both read -1.0.
    read(D::D8, N::Snorm, 0x80, [f(-1.0), 0, 0, ONE]);
    read(D::D8, N::Snorm, 0x81, [f(-1.0), 0, 0, ONE]);
    read(D::D8, N::Snorm, 0x7f, [ONE, 0, 0, ONE]);
    read(D::D8, N::Snorm, 0x01, [f(1.0 / 127.0), 0, 0, ONE]);
    // SNORM_OGL: (2c + 1) / 255.
    read(D::D8, N::SnormOgl, 0x80, [f(-1.0), 0, 0, ONE]);
    read(D::D8, N::SnormOgl, 0x7f, [ONE, 0, 0, ONE]);
    read(D::D8, N::SnormOgl, 0x00, [f(1.0 / 255.0), 0, 0, ONE]);
    read(D::D8, N::Uscaled, 0xff, [f(255.0), 0, 0, ONE]);
    read(D::D8, N::Sscaled, 0xff, [f(-1.0), 0, 0, ONE]);
    // Integer formats fill W with integer 1.
    read(D::D8, N::Uint, 0xff, [255, 0, 0, 1]);
    read(D::D8, N::Sint, 0xff, [u32::MAX, 0, 0, 1]);
    read(D::D8_8, N::Uint, 0x3412, [0x12, 0x34, 0, 1]);
    read(
        D::D8_8_8_8,
        N::Unorm,
        0x3380_ff00,
        [0, ONE, f(128.0 / 255.0), f(51.0 / 255.0)],
    );
    read(
        D::D8_8_8_8,
        N::Sint,
        0x8001_7fff,
        [u32::MAX, 0x7f, 1, 0xffff_ff80],
    );
}

#[test]
fn reads_16_bit() {
    read(D::D16, N::Unorm, 0xffff, [ONE, 0, 0, ONE]);
    read(D::D16, N::Snorm, 0x8000, [f(-1.0), 0, 0, ONE]);
    read(D::D16, N::Snorm, 0x4000, [f(16384.0 / 32767.0), 0, 0, ONE]);
    read(D::D16, N::Float, 0x3c00, [ONE, 0, 0, ONE]);
    read(D::D16, N::Float, 0xfc00, [f(f32::NEG_INFINITY), 0, 0, ONE]);
    read(D::D16, N::Float, 0x8000, [0x8000_0000, 0, 0, ONE]);
    // The smallest half denormal, 2^-24, is kept.
    read(D::D16, N::Float, 0x0001, [0x3380_0000, 0, 0, ONE]);
    read(D::D16, N::Float, 0x7e00, [0x7fc0_0000, 0, 0, ONE]);
    read(D::D16_16, N::Sint, 0x7fff_8000, [0xffff_8000, 0x7fff, 0, 1]);
    read(
        D::D16_16,
        N::Uscaled,
        0xffff_0001,
        [ONE, f(65535.0), 0, ONE],
    );
    read(
        D::D16_16_16_16,
        N::Float,
        0x7bff_3800_c000_3c00,
        [ONE, f(-2.0), f(0.5), f(65504.0)],
    );
    read(
        D::D16_16_16_16,
        N::SnormOgl,
        0x0000_ffff_8000_7fff,
        [ONE, f(-1.0), f(-1.0 / 65535.0), f(1.0 / 65535.0)],
    );
}

#[test]
fn reads_32_bit() {
    read(D::D32, N::Float, 0x7f80_0001, [0x7f80_0001, 0, 0, ONE]);
    read(D::D32, N::Unorm, 0xffff_ffff, [ONE, 0, 0, ONE]);
    read(D::D32, N::Unorm, 0x8000_0000, [f(0.5), 0, 0, ONE]);
    read(D::D32, N::Snorm, 0x8000_0000, [f(-1.0), 0, 0, ONE]);
    read(D::D32, N::Snorm, 0x7fff_ffff, [ONE, 0, 0, ONE]);
    // 2^32 - 1 rounds to 2^32; 2^24 + 1 ties to the even 2^24.
    read(D::D32, N::Uscaled, 0xffff_ffff, [0x4f80_0000, 0, 0, ONE]);
    read(D::D32, N::Uscaled, 0x0100_0001, [0x4b80_0000, 0, 0, ONE]);
    read(D::D32, N::Sscaled, 0x8000_0000, [0xcf00_0000, 0, 0, ONE]);
    read(
        D::D32_32,
        N::Uint,
        0x1234_5678_9abc_def0,
        [0x9abc_def0, 0x1234_5678, 0, 1],
    );
    read(D::D32_32_32, N::Sint, 3 << 64 | 2 << 32 | 1, [1, 2, 3, 1]);
    read(D::D32_32_32, N::Float, 0, [0, 0, 0, ONE]);
    read(
        D::D32_32_32_32,
        N::Float,
        0x4040_0000_4000_0000_3f80_0000_bf80_0000,
        [f(-1.0), ONE, f(2.0), f(3.0)],
    );
}

#[test]
fn reads_packed() {
    // 10_11_11: X 11 bits (1.0 = 15 << 6), Y 11 bits (2.0 = 16 << 6),
    // Z 10 bits (0.5 = 14 << 5).
    let e = 0x3c0 | 0x400 << 11 | 0x1c0 << 22;
    assert_eq!(e, 0x7020_03c0);
    read(D::D10_11_11, N::Float, e, [ONE, f(2.0), f(0.5), ONE]);
    // Z = +inf (31 << 5), X = NaN, Y = the largest finite 11-bit value
    // ((1 + 63/64) * 2^15 = 65024).
    read(
        D::D10_11_11,
        N::Float,
        0x3e0 << 22 | 0x7bf << 11 | 0x7c1,
        [0x7fc0_0000, f(65024.0), f(f32::INFINITY), ONE],
    );
    // Denormals: X m=1 is 2^-20; Z m=1 is 2^-19.
    read(
        D::D10_11_11,
        N::Float,
        1 << 22 | 1,
        [f(2f32.powi(-20)), 0, f(2f32.powi(-19)), ONE],
    );
    // 11_11_10: X 10 bits (1.0 = 15 << 5), Y 11 bits (1.5 = 15 << 6 | 32),
    // Z 11 bits (0.25 = 13 << 6).
    let e = 0x1e0 | 0x3e0 << 10 | 0x340 << 21;
    assert_eq!(e, 0x680f_81e0);
    read(D::D11_11_10, N::Float, e, [ONE, f(1.5), f(0.25), ONE]);
    read(D::D11_11_10, N::Uint, e, [0x1e0, 0x3e0, 0x340, 1]);
    // 10_10_10_2 (code 8): X is the 2-bit component at bit 0.
    read(
        D::D10_10_10_2,
        N::Uint,
        2 | 5 << 2 | 6 << 12 | 7 << 22,
        [2, 5, 6, 7],
    );
    read(
        D::D10_10_10_2,
        N::Snorm,
        0b10 | 0x1ff << 2 | 0x200 << 12 | 0x3ff << 22,
        [f(-1.0), ONE, f(-1.0), f(-1.0 / 511.0)],
    );
    // 2_10_10_10 (code 9): W is the 2-bit component at bit 30.
    read(D::D2_10_10_10, N::Unorm, 0xc000_03ff, [ONE, 0, 0, ONE]);
    read(
        D::D2_10_10_10,
        N::Unorm,
        0x4000_0000,
        [0, 0, 0, f(1.0 / 3.0)],
    );
    read(D::D2_10_10_10, N::Snorm, 0x4000_0000, [0, 0, 0, ONE]);
    read(D::D2_10_10_10, N::Snorm, 0x8000_0000, [0, 0, 0, f(-1.0)]);
    read(
        D::D2_10_10_10,
        N::Sscaled,
        0x8000_0000 | 0x3ff,
        [f(-1.0), 0, 0, f(-2.0)],
    );
    read(
        D::D2_10_10_10,
        N::SnormOgl,
        0x8000_0000,
        [f(1.0 / 1023.0), f(1.0 / 1023.0), f(1.0 / 1023.0), f(-1.0)],
    );
}

#[test]
fn writes_8_bit() {
    write(D::D8, N::Unorm, [ONE, 0, 0, 0], 0xff);
    write(D::D8, N::Unorm, [f(2.0), 0, 0, 0], 0xff);
    write(D::D8, N::Unorm, [f(-1.0), 0, 0, 0], 0);
    write(D::D8, N::Unorm, [f32::NAN.to_bits(), 0, 0, 0], 0);
    // 0.5 * 255 = 127.5 ties to the even 128.
    write(D::D8, N::Unorm, [f(0.5), 0, 0, 0], 0x80);
    // SNORM never writes MIN.
    write(D::D8, N::Snorm, [f(-1.0), 0, 0, 0], 0x81);
    write(D::D8, N::Snorm, [f(-2.0), 0, 0, 0], 0x81);
    write(D::D8, N::Snorm, [ONE, 0, 0, 0], 0x7f);
    write(D::D8, N::Snorm, [f32::NAN.to_bits(), 0, 0, 0], 0);
    // SNORM_OGL reaches MIN.
    write(D::D8, N::SnormOgl, [f(-1.0), 0, 0, 0], 0x80);
    write(D::D8, N::SnormOgl, [ONE, 0, 0, 0], 0x7f);
    write(D::D8, N::SnormOgl, [0, 0, 0, 0], 0);
    write(D::D8, N::Uscaled, [f(300.0), 0, 0, 0], 0xff);
    write(D::D8, N::Uscaled, [f(-5.0), 0, 0, 0], 0);
    write(D::D8, N::Uscaled, [f(2.5), 0, 0, 0], 2);
    write(D::D8, N::Uscaled, [f(3.5), 0, 0, 0], 4);
    write(D::D8, N::Sscaled, [f(-200.0), 0, 0, 0], 0x80);
    write(D::D8, N::Sscaled, [f(127.6), 0, 0, 0], 0x7f);
    write(D::D8, N::Sscaled, [f(-2.5), 0, 0, 0], 0xfe);
    write(D::D8, N::Uint, [300, 0, 0, 0], 0xff);
    write(D::D8, N::Sint, [-200i32 as u32, 0, 0, 0], 0x80);
    write(D::D8, N::Sint, [u32::MAX, 0, 0, 0], 0xff);
    write(D::D8, N::Sint, [200, 0, 0, 0], 0x7f);
    write(D::D8_8, N::Uint, [0x12, 0x34, 9, 9], 0x3412);
    write(D::D8_8_8_8, N::Uint, [1, 2, 3, 0x1ff], 0xff03_0201);
    write(
        D::D8_8_8_8,
        N::Unorm,
        [0, ONE, f(0.5), f(0.2)],
        // 0.2 * 255 = 51.000000759 → 51.
        0x3380_ff00,
    );
}

#[test]
fn writes_16_bit() {
    write(D::D16, N::Float, [ONE, 0, 0, 0], 0x3c00);
    // 65520 is the halfway point past the largest half: overflow to inf.
    write(D::D16, N::Float, [f(65520.0), 0, 0, 0], 0x7c00);
    write(D::D16, N::Float, [f(65519.0), 0, 0, 0], 0x7bff);
    write(D::D16, N::Float, [0x8000_0000, 0, 0, 0], 0x8000);
    write(D::D16, N::Float, [0x7fc0_0000, 0, 0, 0], 0x7e00);
    // 1 + 2^-11 ties to even (1.0); 1 + 3 * 2^-11 to 1 + 2^-9.
    write(D::D16, N::Float, [f(1.0 + 2f32.powi(-11)), 0, 0, 0], 0x3c00);
    write(
        D::D16,
        N::Float,
        [f(1.0 + 3.0 * 2f32.powi(-11)), 0, 0, 0],
        0x3c02,
    );
    // 0.5 * 65535 = 32767.5 → 32768.
    write(D::D16, N::Unorm, [f(0.5), 0, 0, 0], 0x8000);
    write(D::D16_16, N::Snorm, [f(0.5), f(-0.5), 0, 0], 0xc000_4000);
    write(
        D::D16_16,
        N::Sint,
        [0x0001_0000, -70000i32 as u32, 0, 0],
        0x8000_7fff,
    );
    write(
        D::D16_16_16_16,
        N::Float,
        [ONE, f(-2.0), f(0.5), f(65504.0)],
        0x7bff_3800_c000_3c00,
    );
    write(
        D::D16_16_16_16,
        N::Uscaled,
        [f(65535.4), f(70000.0), f(-1.0), f(1.5)],
        0x0002_0000_ffff_ffff,
    );
}

#[test]
fn writes_32_bit() {
    write(D::D32, N::Unorm, [ONE, 0, 0, 0], 0xffff_ffff);
    // 0.5 * (2^32 - 1) = 2^31 - 0.5 ties to the even 2^31.
    write(D::D32, N::Unorm, [f(0.5), 0, 0, 0], 0x8000_0000);
    write(D::D32, N::Snorm, [f(-1.0), 0, 0, 0], 0x8000_0001);
    write(D::D32, N::Snorm, [ONE, 0, 0, 0], 0x7fff_ffff);
    write(D::D32, N::Uint, [0xffff_ffff, 0, 0, 0], 0xffff_ffff);
    write(D::D32, N::Float, [0x7f80_0001, 0, 0, 0], 0x7f80_0001);
    write(D::D32, N::Uscaled, [f(4294967296.0), 0, 0, 0], 0xffff_ffff);
    write(
        D::D32_32_32,
        N::Sscaled,
        [f(-3e9), f(3e9), f(-2.5), 0],
        0xffff_fffe << 64 | 0x7fff_ffff << 32 | 0x8000_0000,
    );
    write(
        D::D32_32,
        N::Sint,
        [u32::MAX, 5, 0, 0],
        5 << 32 | 0xffff_ffff,
    );
    write(
        D::D32_32_32_32,
        N::Float,
        [1, 2, 3, 4],
        4 << 96 | 3 << 64 | 2 << 32 | 1,
    );
}

#[test]
fn writes_packed() {
    write(
        D::D10_11_11,
        N::Float,
        [ONE, f(2.0), f(0.5), 0],
        0x7020_03c0,
    );
    // Negative values and -0 write 0; NaN stays NaN (31 << 5 | 16).
    write(
        D::D10_11_11,
        N::Float,
        [f(-1.0), 0x8000_0000, f32::NAN.to_bits(), 0],
        0x3f0 << 22,
    );
    // 65024 is the largest 11-bit value; 65280 (halfway to 2^16) and
    // 2^16 overflow to +inf; 2^-20 is the smallest denormal; 2^-15 is
    // denormal code 32.
    write(
        D::D10_11_11,
        N::Float,
        [f(65024.0), f(65280.0), f(65536.0), 0],
        0x3e0 << 22 | 0x7c0 << 11 | 0x7bf,
    );
    write(
        D::D10_11_11,
        N::Float,
        [f(2f32.powi(-20)), f(2f32.powi(-15)), 0, 0],
        32 << 11 | 1,
    );
    // 1 + 1/128 is halfway between 1 and 1 + 1/64: ties to even (1.0).
    write(
        D::D10_11_11,
        N::Float,
        [f(1.0 + 1.0 / 128.0), f(1.0 + 3.0 / 128.0), 0, 0],
        0x3c2 << 11 | 0x3c0,
    );
    write(
        D::D11_11_10,
        N::Float,
        [ONE, f(1.5), f(0.25), 0],
        0x680f_81e0,
    );
    write(
        D::D11_11_10,
        N::Unorm,
        [ONE, ONE, 0, 0],
        0x7ff << 10 | 0x3ff,
    );
    // 2_10_10_10: 0.5 * 1023 = 511.5 → 512; W (2 bits) 1.0 → 3.
    write(D::D2_10_10_10, N::Unorm, [ONE, 0, f(0.5), ONE], 0xe000_03ff);
    write(
        D::D10_10_10_2,
        N::Sint,
        [u32::MAX, 600, -600i32 as u32, 5],
        0x0160_07ff,
    );
    write(
        D::D10_10_10_2,
        N::Uint,
        [7, 1023, 2000, 0],
        0x3ff << 12 | 0x3ff << 2 | 3,
    );
    write(
        D::D2_10_10_10,
        N::SnormOgl,
        [f(-1.0), ONE, 0, ONE],
        1 << 30 | 0x1ff << 10 | 0x200,
    );
}

#[test]
fn invalid_pairs_are_errors() {
    assert_eq!(
        Codec::new(D::D8, N::Float),
        Err(FormatError::NoFloatOfWidth {
            data: D::D8,
            bits: 8
        })
    );
    assert_eq!(
        Codec::new(D::D2_10_10_10, N::Float),
        Err(FormatError::NoFloatOfWidth {
            data: D::D2_10_10_10,
            bits: 2
        })
    );
    assert_eq!(
        Codec::new(D::Invalid, N::Uint),
        Err(FormatError::InvalidDataFormat(D::Invalid))
    );
    assert_eq!(
        Codec::new(D::Reserved, N::Uint),
        Err(FormatError::InvalidDataFormat(D::Reserved))
    );
    assert_eq!(
        Codec::new(D::Bc1, N::Unorm),
        Err(FormatError::UnsupportedDataFormat(D::Bc1))
    );
    assert_eq!(
        Codec::new(D::D8, N::Srgb),
        Err(FormatError::UnsupportedNumFormat(N::Srgb))
    );
    for bits in [16u8, 32] {
        let d = if bits == 16 { D::D16 } else { D::D32 };
        assert!(Codec::new(d, N::Float).is_ok());
    }
    assert!(FormatError::NoFloatOfWidth {
        data: D::D8,
        bits: 8
    }
    .to_string()
    .contains("no 8-bit float"));
}

#[test]
fn dst_sel_and_d16() {
    let t = [10, 20, 30, 40];
    let sel = [DstSel::W, DstSel::Zero, DstSel::One, DstSel::X];
    assert_eq!(apply_dst_sel(t, sel, N::Uint), Ok([40, 0, 1, 10]));
    assert_eq!(apply_dst_sel(t, sel, N::Unorm), Ok([40, 0, ONE, 10]));
    assert_eq!(apply_dst_sel(t, DstSel::IDENTITY, N::Sint), Ok(t));
    assert_eq!(
        apply_dst_sel(t, [DstSel::Reserved2; 4], N::Uint),
        Err(FormatError::ReservedDstSel(DstSel::Reserved2))
    );
    assert_eq!(DstSel::from_code(5), DstSel::Y);
    assert_eq!(to_d16(N::Float, ONE), 0x3c00);
    assert_eq!(to_d16(N::Unorm, f(0.5)), 0x3800);
    assert_eq!(to_d16(N::Uint, 0x12345), 0x2345);
    assert_eq!(from_d16(N::Sint, 0x8000), 0xffff_8000);
    assert_eq!(from_d16(N::Uint, 0x8000), 0x8000);
    assert_eq!(from_d16(N::Snorm, 0x3800), f(0.5));
}

/// Every code of every width up to 16 bits (and the 11/10-bit floats)
/// read and written back gives the same code, except the SNORM minimum
/// (it reads -1.0, which writes MIN + 1) and NaN payloads of the small
/// floats (a NaN writes the quiet NaN). Properties of the seed's rules
/// that hold whatever the arithmetic inside.
#[test]
fn every_code_round_trips() {
    for bits in [1u8, 2, 4, 5, 6, 8, 10, 11, 16] {
        for n in [
            N::Unorm,
            N::Snorm,
            N::Uscaled,
            N::Sscaled,
            N::Uint,
            N::Sint,
            N::SnormOgl,
        ] {
            if bits == 1 && matches!(n, N::Snorm | N::SnormOgl) {
                continue; // a 1-bit signed normalised value has no MAX
            }
            for raw in 0..1u32 << bits {
                let back = encode_component(n, bits, decode_component(n, bits, raw));
                let min = 1u32 << (bits - 1);
                let want = if n == N::Snorm && raw == min {
                    min + 1
                } else {
                    raw
                };
                assert_eq!(back, want, "[{bits} bits, {n}] code {raw:#x}");
            }
        }
    }
    for (bits, mbits) in [(11u8, 6u32), (10, 5)] {
        for raw in 0..1u32 << bits {
            let v = decode_component(N::Float, bits, raw);
            let back = encode_component(N::Float, bits, v);
            let nan = raw >> mbits == 31 && raw & ((1 << mbits) - 1) != 0;
            if nan {
                assert!(f32::from_bits(v).is_nan());
                assert_eq!(back, 31 << mbits | 1 << (mbits - 1));
            } else {
                assert_eq!(back, raw, "float{bits} code {raw:#x}");
            }
        }
    }
    for raw in 0..=u16::MAX {
        let v = decode_component(N::Float, 16, u32::from(raw));
        let back = encode_component(N::Float, 16, v) as u16;
        if half::f16::from_bits(raw).is_nan() {
            assert!(half::f16::from_bits(back).is_nan());
        } else {
            assert_eq!(back, raw);
        }
    }
}

/// Reading is monotonic in the code for the unsigned formats (a check on
/// the small floats' exponent/mantissa order in particular).
#[test]
fn unsigned_reads_are_monotonic() {
    for (n, bits) in [
        (N::Unorm, 10u8),
        (N::Uscaled, 16),
        (N::Float, 11),
        (N::Float, 10),
    ] {
        let mut last = -1.0f32;
        for raw in 0..1u32 << bits {
            let v = f32::from_bits(decode_component(n, bits, raw));
            if v.is_nan() {
                continue;
            }
            assert!(v > last, "[{bits}, {n}] code {raw:#x}: {v} after {last}");
            last = v;
        }
    }
}

/// The 64-lane decoder agrees with the per-component one (whose values the
/// tests above check by hand), including garbage above the width.
#[test]
fn decode_lanes_matches_decode_component() {
    for n in NumFormat::ALL[..8].iter().copied() {
        for bits in [2u8, 5, 8, 10, 11, 16, 32] {
            if n == N::Float && !matches!(bits, 10 | 11 | 16 | 32) {
                continue;
            }
            let raw: [u32; 64] =
                std::array::from_fn(|l| (l as u32).wrapping_mul(0x9e37_79b9) ^ (l as u32) << 7);
            let mut out = [0u32; 64];
            decode_lanes(n, bits, &raw, &mut out);
            for l in 0..64 {
                assert_eq!(
                    out[l],
                    decode_component(n, bits, raw[l]),
                    "[{bits}, {n}] lane {l}"
                );
            }
        }
    }
}

/// The half conversion agrees with the `half` crate (an independent
/// implementation) on every code.
#[test]
fn half_conversion_matches_the_half_crate() {
    for h in 0..=u16::MAX {
        assert_eq!(
            half_to_f32_bits(u32::from(h)),
            half::f16::from_bits(h).to_f32().to_bits(),
            "{h:#06x}"
        );
    }
}

/// The 64-lane encoder agrees with the per-component one.
#[test]
fn encode_lanes_matches_encode_component() {
    let values: [u32; 64] = std::array::from_fn(|l| match l % 4 {
        0 => (l as f32 * 0.037 - 1.1).to_bits(),
        1 => (l as u32).wrapping_mul(0x9e37_79b9),
        2 => [f32::NAN, f32::INFINITY, -0.0, 65519.0][l / 16].to_bits(),
        _ => (l as f32 * 1000.5 - 30000.0).to_bits(),
    });
    for n in NumFormat::ALL[..8].iter().copied() {
        for bits in [2u8, 5, 8, 10, 11, 16, 32] {
            let mut out = [0u32; 64];
            encode_lanes(n, bits, &values, &mut out);
            for l in 0..64 {
                assert_eq!(
                    out[l],
                    encode_component(n, bits, values[l]),
                    "[{bits}, {n}] lane {l}"
                );
            }
        }
    }
}
