//! The image side of the format conversion: the data formats with their own
//! layouts (GB_GR, BG_RG, 5_9_9_9, X24_8_32, 1, 1_REVERSED, BC1-BC7) and the
//! image-only number formats (SRGB, UBNORM, UBNORM_OGL, UBINT, UBSCALED), on
//! top of the shared per-component conversion ([`decode_component`],
//! [`Codec`]) that buffers use.
//!
//! An image is stored as *elements*: an element covers `block_w x block_h`
//! texels in `bits` bits ([`ImageCodec::element`]). Plain formats have 1x1
//! elements of their layout's size; GB_GR/BG_RG 2x1 in 32 bits; 1 and
//! 1_REVERSED 8x1 in one byte; BCn 4x4 in 64 or 128 bits.
//!
//! # Image read matrix (beyond the buffer table in [`crate::format`])
//!
//! | Format | Read | Source |
//! |---|---|---|
//! | plain layouts (1–14, 16–21, 57, 58) with NUM 0–7 | the buffer conversion | seed |
//! | SRGB (9) | UNORM, then R, G, B (not A) through the sRGB curve `c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055)^2.4`, in f64, rounded once | seed "like UNORM"; curve: IEC 61966-2-1 (chosen, the hardware uses a table) |
//! | UBNORM (10) | `max((raw - 2^(w-1)) / (2^(w-1) - 1), -1)` | seed "(-1:1) data 1:UMAX" |
//! | UBNORM_OGL (11) | `2 * raw / (2^w - 1) - 1` | seed "(-1:1) data 0:UMAX" |
//! | UBINT (12), UBSCALED (13) | f32 of `raw - 2^(w-1)` | seed ("like UBNORM", "data 0:UMAX"); the seed gives no difference between them |
//! | GB_GR (32) | a 32-bit pair of texels: byte 0 R, byte 1 G of the even texel, byte 2 B, byte 3 G of the odd texel; each 8-bit component through the number format | chosen: Mesa's R8G8_B8G8 mapping |
//! | BG_RG (33) | byte 0 G (even), byte 1 R, byte 2 G (odd), byte 3 B | chosen: Mesa's G8R8_G8B8 mapping |
//! | 5_9_9_9 (34) | FLOAT only: bits 0-8, 9-17, 18-26 mantissas, 27-31 shared exponent, `m * 2^(e - 24)`, W = 1.0 | chosen: the RGB9E5 definition |
//! | X24_8_32 (22) | X: the first dword as a 32-bit component; Y: the low 8 bits of the second dword (with FLOAT: the integer as f32) | chosen |
//! | 1 (59), 1_REVERSED (60) | one bit per texel, 8 texels per byte from the lowest bit (1) or the highest (1_REVERSED); the bit through the number format as a 1-bit component (FLOAT: 0.0/1.0) | chosen |
//! | BC1, BC2, BC3, BC7 (35-37, 41) | decoded by `bcdec_rs` to RGBA8, then UNORM or SRGB | decoder crate |
//! | BC4, BC5 (38, 39) | UNORM (unsigned) or SNORM (signed) through `bcdec_rs`; BC4 gives X, BC5 X and Y | decoder crate |
//! | BC6 (40) | FLOAT: signed half-float (BC6H_SF16); UNORM: unsigned (BC6H_UF16) | chosen |
//! | FMASK (47-56), 32_AS_* (61-63) | "not supported" | issue |
//!
//! Writes (`image_store*`, atomics) take the seed's ImgW columns: the plain
//! data formats 1–14 and 16–19 with UNORM, SNORM, UINT, SINT or FLOAT,
//! through the shared [`Codec`]; FMASK formats are "not supported".

use super::{decode_component, Codec, DataFormat, FormatError, Layout, NumFormat};

/// Whether an image may be read with this pair (the seed's ImgR columns).
pub fn image_readable(data: DataFormat, num: NumFormat) -> bool {
    !matches!(data, DataFormat::Invalid | DataFormat::Reserved) && num != NumFormat::Reserved8
}

/// Whether an image may be written with this pair (the seed's ImgW
/// columns).
pub fn image_writable(data: DataFormat, num: NumFormat) -> bool {
    let c = data.code();
    let data_ok = (1..=19).contains(&c) && c != 15 || (47..=56).contains(&c);
    data_ok
        && matches!(
            num,
            NumFormat::Unorm
                | NumFormat::Snorm
                | NumFormat::Uint
                | NumFormat::Sint
                | NumFormat::Float
        )
}

/// The message of a format error in image terms (the shared
/// [`FormatError`] speaks of the buffer conversion).
pub fn image_error_message(e: &FormatError) -> String {
    match e {
        FormatError::UnsupportedDataFormat(d) => format!(
            "data format {} ({d}) is not supported for images by the emulator",
            d.code()
        ),
        FormatError::UnsupportedNumFormat(n) => format!(
            "number format {} ({n}) is not supported with this image data format",
            n.code()
        ),
        e => e.to_string(),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Plain(Layout),
    Subsampled { gb_gr: bool },
    SharedExponent,
    DepthStencil,
    Bit { reversed: bool },
    Bc(u8),
}

/// A validated image (data format, number format) pair: the element
/// geometry and the decoding of a texel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageCodec {
    /// The data format.
    pub data: DataFormat,
    /// The number format.
    pub num: NumFormat,
    kind: Kind,
    /// The buffer codec for writes, when the pair is writable.
    write: Option<Codec>,
}

/// The size of an element: `block_w x block_h` texels in `bits` bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Element {
    /// Texels per element along X.
    pub block_w: u32,
    /// Texels per element along Y.
    pub block_h: u32,
    /// Bits per element (a multiple of 8).
    pub bits: u32,
}

impl Element {
    /// Bytes per element.
    pub fn bytes(&self) -> u32 {
        self.bits / 8
    }
}

fn float_width_ok(bits: u8) -> bool {
    matches!(bits, 32 | 16 | 11 | 10)
}

impl ImageCodec {
    /// Checks a pair for reading (the seed's ImgR columns plus the
    /// combinations this module defines; see the module's matrix).
    pub fn new(data: DataFormat, num: NumFormat) -> Result<ImageCodec, FormatError> {
        use DataFormat::*;
        if matches!(data, Invalid | Reserved) {
            return Err(FormatError::InvalidDataFormat(data));
        }
        if num == NumFormat::Reserved8 {
            return Err(FormatError::UnsupportedNumFormat(num));
        }
        let bad_num = Err(FormatError::UnsupportedNumFormat(num));
        let kind = match data {
            GbGr | BgRg => Kind::Subsampled {
                gb_gr: data == GbGr,
            },
            D5_9_9_9 if num == NumFormat::Float => Kind::SharedExponent,
            D5_9_9_9 => return bad_num,
            X24_8_32 => Kind::DepthStencil,
            D1 | D1Reversed if num == NumFormat::Float => Kind::Bit {
                reversed: data == D1Reversed,
            },
            D1 | D1Reversed => Kind::Bit {
                reversed: data == D1Reversed,
            },
            Bc1 | Bc2 | Bc3 | Bc7 if matches!(num, NumFormat::Unorm | NumFormat::Srgb) => {
                Kind::Bc(data.code() - 34)
            }
            Bc4 | Bc5 if matches!(num, NumFormat::Unorm | NumFormat::Snorm) => {
                Kind::Bc(data.code() - 34)
            }
            Bc6 if matches!(num, NumFormat::Unorm | NumFormat::Float) => Kind::Bc(6),
            Bc1 | Bc2 | Bc3 | Bc4 | Bc5 | Bc6 | Bc7 => return bad_num,
            _ => {
                let layout = data
                    .layout()
                    .ok_or(FormatError::UnsupportedDataFormat(data))?;
                if num == NumFormat::Float {
                    for &b in &layout.bits[..usize::from(layout.count)] {
                        if !float_width_ok(b) {
                            return Err(FormatError::NoFloatOfWidth { data, bits: b });
                        }
                    }
                }
                Kind::Plain(layout)
            }
        };
        let write = if image_writable(data, num) {
            Codec::new(data, num).ok()
        } else {
            None
        };
        Ok(ImageCodec {
            data,
            num,
            kind,
            write,
        })
    }

    /// The element geometry.
    pub fn element(&self) -> Element {
        let (block_w, block_h, bits) = match self.kind {
            Kind::Plain(l) => (1, 1, l.bytes() * 8),
            Kind::Subsampled { .. } => (2, 1, 32),
            Kind::SharedExponent => (1, 1, 32),
            Kind::DepthStencil => (1, 1, 64),
            Kind::Bit { .. } => (8, 1, 8),
            Kind::Bc(1) | Kind::Bc(4) => (4, 4, 64),
            Kind::Bc(_) => (4, 4, 128),
        };
        Element {
            block_w,
            block_h,
            bits,
        }
    }

    /// The codec for writes, or the reason the pair cannot be written.
    pub fn writer(&self) -> Result<Codec, FormatError> {
        match self.write {
            Some(c) => Ok(c),
            None if !image_writable(self.data, self.num) => {
                if image_writable(self.data, NumFormat::Unorm) {
                    Err(FormatError::UnsupportedNumFormat(self.num))
                } else {
                    Err(FormatError::UnsupportedDataFormat(self.data))
                }
            }
            None => Err(FormatError::UnsupportedDataFormat(self.data)),
        }
    }

    /// The number format's value "one" (for missing components, DST_SEL 1).
    pub fn one(&self) -> u32 {
        self.num.one()
    }

    /// Decodes texel `(sx, sy)` of an element (`bytes` holds
    /// [`Element::bytes`] bytes) into four register dwords (missing
    /// components: 0, 0, 0 and one).
    pub fn decode(&self, bytes: &[u8], sx: u32, sy: u32) -> [u32; 4] {
        let one = self.num.one();
        let f = |x: f32| x.to_bits();
        match self.kind {
            Kind::Plain(layout) => {
                let mut b = [0u8; 16];
                let n = layout.bytes() as usize;
                b[..n].copy_from_slice(&bytes[..n]);
                let e = u128::from_le_bytes(b);
                let mut out = [0, 0, 0, one];
                let mut shift = 0;
                for (i, o) in out.iter_mut().enumerate().take(usize::from(layout.count)) {
                    let bits = layout.bits[i];
                    let m = if bits >= 32 {
                        u32::MAX
                    } else {
                        (1 << bits) - 1
                    };
                    *o = component(self.num, bits, (e >> shift) as u32 & m, i);
                    shift += u32::from(bits);
                }
                out
            }
            Kind::Subsampled { gb_gr } => {
                let (r, g0, b, g1) = if gb_gr {
                    (bytes[0], bytes[1], bytes[2], bytes[3])
                } else {
                    (bytes[1], bytes[0], bytes[3], bytes[2])
                };
                let g = if sx & 1 == 0 { g0 } else { g1 };
                [
                    component(self.num, 8, r.into(), 0),
                    component(self.num, 8, g.into(), 1),
                    component(self.num, 8, b.into(), 2),
                    one,
                ]
            }
            Kind::SharedExponent => {
                let v = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
                let e = (v >> 27) as i32;
                let scale = 2f64.powi(e - 24);
                let c = |s: u32| f((f64::from(v >> s & 0x1ff) * scale) as f32);
                [c(0), c(9), c(18), one]
            }
            Kind::DepthStencil => {
                let d = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
                let s = u32::from(bytes[4]);
                let y = if self.num == NumFormat::Float {
                    f(s as f32)
                } else {
                    component(self.num, 8, s, 1)
                };
                [component(self.num, 32, d, 0), y, 0, one]
            }
            Kind::Bit { reversed } => {
                let bit = if reversed { 7 - (sx & 7) } else { sx & 7 };
                let raw = u32::from(bytes[0] >> bit & 1);
                let x = if self.num == NumFormat::Float {
                    f(raw as f32)
                } else {
                    component(self.num, 1, raw, 0)
                };
                [x, 0, 0, one]
            }
            Kind::Bc(n) => self.decode_bc(n, bytes, (sy * 4 + sx) as usize),
        }
    }

    fn decode_bc(&self, n: u8, bytes: &[u8], texel: usize) -> [u32; 4] {
        let one = self.num.one();
        let f = |x: f32| x.to_bits();
        match n {
            1 | 2 | 3 | 7 => {
                let mut out = [0u8; 64];
                match n {
                    1 => bcdec_rs::bc1(bytes, &mut out, 16),
                    2 => bcdec_rs::bc2(bytes, &mut out, 16),
                    3 => bcdec_rs::bc3(bytes, &mut out, 16),
                    _ => bcdec_rs::bc7(bytes, &mut out, 16),
                }
                let p = &out[texel * 4..texel * 4 + 4];
                std::array::from_fn(|i| component(self.num, 8, p[i].into(), i))
            }
            4 | 5 => {
                let signed = self.num == NumFormat::Snorm;
                let mut out = [0f32; 32];
                if n == 4 {
                    bcdec_rs::bc4_float(bytes, &mut out, 4, signed);
                    [f(out[texel]), 0, 0, one]
                } else {
                    bcdec_rs::bc5_float(bytes, &mut out, 8, signed);
                    [f(out[texel * 2]), f(out[texel * 2 + 1]), 0, one]
                }
            }
            _ => {
                let signed = self.num == NumFormat::Float;
                let mut out = [0f32; 48];
                bcdec_rs::bc6h_float(bytes, &mut out, 12, signed);
                let p = &out[texel * 3..texel * 3 + 3];
                [f(p[0]), f(p[1]), f(p[2]), 0x3f80_0000]
            }
        }
    }
}

/// Converts one component (index `i`: sRGB leaves alpha linear) of `bits`
/// bits under an image number format.
pub fn component(num: NumFormat, bits: u8, raw: u32, i: usize) -> u32 {
    let half = f64::from(bits.checked_sub(1).map_or(0, |b| 1u32 << b));
    let umax = if bits >= 32 {
        f64::from(u32::MAX)
    } else {
        f64::from((1u32 << bits) - 1)
    };
    let r = f64::from(raw);
    let f = |x: f64| (x as f32).to_bits();
    match num {
        NumFormat::Srgb => {
            let c = r / umax;
            if i == 3 {
                f(c)
            } else {
                f(srgb_to_linear(c))
            }
        }
        NumFormat::Ubnorm => f(((r - half) / (half - 1.0)).max(-1.0)),
        NumFormat::UbnormOgl => f(2.0 * r / umax - 1.0),
        NumFormat::Ubint | NumFormat::Ubscaled => f(r - half),
        _ => decode_component(num, bits, raw),
    }
}

/// The sRGB transfer function's inverse (IEC 61966-2-1).
pub fn srgb_to_linear(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(data: DataFormat, num: NumFormat, bytes: &[u8], sx: u32) -> [f32; 4] {
        ImageCodec::new(data, num)
            .unwrap()
            .decode(bytes, sx, 0)
            .map(f32::from_bits)
    }

    #[test]
    fn packed_image_formats_read_by_hand() {
        // 5_6_5 UNORM: R = bits 0-4, G = 5-10, B = 11-15.
        // 0xffe0 = R 0, G 63, B 31.
        assert_eq!(
            read(DataFormat::D5_6_5, NumFormat::Unorm, &[0xe0, 0xff], 0),
            [0.0, 1.0, 1.0, 1.0]
        );
        // 1_5_5_5 (A in bit 15): 0x8000 = A 1, rest 0.
        assert_eq!(
            read(DataFormat::D1_5_5_5, NumFormat::Unorm, &[0x00, 0x80], 0),
            [0.0, 0.0, 0.0, 1.0]
        );
        // 4_4_4_4 UNORM 0x0f1f -> 15/15, 1/15, 15/15, 0.
        let v = read(DataFormat::D4_4_4_4, NumFormat::Unorm, &[0x1f, 0x0f], 0);
        assert_eq!(v, [1.0, 1.0 / 15.0, 1.0, 0.0]);
        // 4_4 UINT: 0xa3 -> 3, 10.
        let c = ImageCodec::new(DataFormat::D4_4, NumFormat::Uint).unwrap();
        assert_eq!(c.decode(&[0xa3], 0, 0), [3, 10, 0, 1]);
        // 6_5_5 UINT: 5 bits, 5 bits, 6 bits from the lowest: 0xfc00 + 0x21
        // -> 1, 1, 63.
        let c = ImageCodec::new(DataFormat::D6_5_5, NumFormat::Uint).unwrap();
        assert_eq!(c.decode(&[0x21, 0xfc], 0, 0), [1, 1, 63, 1]);
        // 8_24 UINT: 24 bits then 8 bits.
        let c = ImageCodec::new(DataFormat::D8_24, NumFormat::Uint).unwrap();
        assert_eq!(c.decode(&[1, 2, 3, 4], 0, 0), [0x030201, 4, 0, 1]);
        let c = ImageCodec::new(DataFormat::D24_8, NumFormat::Uint).unwrap();
        assert_eq!(c.decode(&[1, 2, 3, 4], 0, 0), [1, 0x040302, 0, 1]);
    }

    #[test]
    fn image_number_formats_read_by_hand() {
        // SRGB 8-bit 255 -> 1.0; 0 -> 0; alpha linear: 128/255.
        let v = read(DataFormat::D8_8_8_8, NumFormat::Srgb, &[255, 0, 10, 128], 0);
        assert_eq!(v[0], 1.0);
        assert_eq!(v[1], 0.0);
        // 10/255 = 0.0392 <= 0.04045: / 12.92.
        assert_eq!(v[2], (10.0f64 / 255.0 / 12.92) as f32);
        assert_eq!(v[3], (128.0f64 / 255.0) as f32);
        // UBNORM 8-bit: 128 -> 0, 255 -> 1, 1 -> -1, 0 -> -1 (clamped).
        let v = read(
            DataFormat::D8_8_8_8,
            NumFormat::Ubnorm,
            &[128, 255, 1, 0],
            0,
        );
        assert_eq!(v, [0.0, 1.0, -1.0, -1.0]);
        // UBNORM_OGL: 0 -> -1, 255 -> 1.
        let v = read(DataFormat::D8_8, NumFormat::UbnormOgl, &[0, 255], 0);
        assert_eq!(&v[..2], &[-1.0, 1.0]);
        // UBSCALED/UBINT: raw - 128.
        let v = read(DataFormat::D8_8, NumFormat::Ubscaled, &[0, 200], 0);
        assert_eq!(&v[..2], &[-128.0, 72.0]);
        let v = read(DataFormat::D8_8, NumFormat::Ubint, &[128, 129], 0);
        assert_eq!(&v[..2], &[0.0, 1.0]);
    }

    #[test]
    fn special_layouts_read_by_hand() {
        // GB_GR: R=10, G0=20, B=30, G1=40.
        let c = ImageCodec::new(DataFormat::GbGr, NumFormat::Uint).unwrap();
        assert_eq!(c.decode(&[10, 20, 30, 40], 0, 0), [10, 20, 30, 1]);
        assert_eq!(c.decode(&[10, 20, 30, 40], 1, 0), [10, 40, 30, 1]);
        let c = ImageCodec::new(DataFormat::BgRg, NumFormat::Uint).unwrap();
        assert_eq!(c.decode(&[20, 10, 40, 30], 1, 0), [10, 40, 30, 1]);
        // 5_9_9_9: R mantissa 256, exponent 16 -> 256 * 2^(16-24) = 1.0;
        // G mantissa 1 -> 2^-8.
        let v: u32 = 256 | 1 << 9 | 16 << 27;
        let r = read(DataFormat::D5_9_9_9, NumFormat::Float, &v.to_le_bytes(), 0);
        assert_eq!(r, [1.0, 1.0 / 256.0, 0.0, 1.0]);
        assert!(ImageCodec::new(DataFormat::D5_9_9_9, NumFormat::Unorm).is_err());
        // 1 and 1_REVERSED: 0b0000_0010 -> texel 1 set; reversed: texel 6.
        let c = ImageCodec::new(DataFormat::D1, NumFormat::Uint).unwrap();
        assert_eq!(c.decode(&[2], 1, 0)[0], 1);
        assert_eq!(c.decode(&[2], 0, 0)[0], 0);
        let c = ImageCodec::new(DataFormat::D1Reversed, NumFormat::Uint).unwrap();
        assert_eq!(c.decode(&[2], 6, 0)[0], 1);
        assert_eq!(c.element().block_w, 8);
        // X24_8_32: depth 0.5, stencil 7.
        let mut b = 0.5f32.to_bits().to_le_bytes().to_vec();
        b.extend([7, 0, 0, 0]);
        let r = read(DataFormat::X24_8_32, NumFormat::Float, &b, 0);
        assert_eq!(&r[..2], &[0.5, 7.0]);
    }

    #[test]
    fn bc_blocks_decode_through_the_crate() {
        // BC1 block with both endpoints pure red (RGB565 0xf800) and all
        // indices 0: every texel is (1, 0, 0, 1) (BC1's definition).
        let block = [0x00, 0xf8, 0x00, 0xf8, 0, 0, 0, 0];
        assert_eq!(
            read(DataFormat::Bc1, NumFormat::Unorm, &block, 3),
            [1.0, 0.0, 0.0, 1.0]
        );
        // BC4 unsigned: endpoints 255 and 0, index 0 everywhere -> 1.0.
        let block = [255, 0, 0, 0, 0, 0, 0, 0];
        assert_eq!(read(DataFormat::Bc4, NumFormat::Unorm, &block, 0)[0], 1.0);
        assert!(ImageCodec::new(DataFormat::Bc1, NumFormat::Uint).is_err());
        assert_eq!(
            ImageCodec::new(DataFormat::Bc7, NumFormat::Unorm)
                .unwrap()
                .element()
                .bits,
            128
        );
    }

    #[test]
    fn write_columns_follow_the_seed() {
        let w = |d, n| ImageCodec::new(d, n).unwrap().writer().is_ok();
        assert!(w(DataFormat::D5_6_5, NumFormat::Unorm));
        assert!(w(DataFormat::D4_4_4_4, NumFormat::Uint));
        assert!(!w(DataFormat::D8_24, NumFormat::Uint));
        assert!(!w(DataFormat::D8_8_8_8, NumFormat::Srgb));
        assert!(!w(DataFormat::D8_8_8_8, NumFormat::Uscaled));
        assert!(!w(DataFormat::D5_9_9_9, NumFormat::Float));
    }
}
