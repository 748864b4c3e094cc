//! Data and number formats: the one conversion module shared by buffer
//! (`buffer_*_format_*`, `tbuffer_*`) and image instructions.
//!
//! A texel (a buffer "element") is described by a [`DataFormat`] (how many
//! components, how many bits each, packed from the lowest bit) and a
//! [`NumFormat`] (how a component's bits map to a register value). A
//! [`Codec`] is a validated pair: it decodes an element's bytes into the four
//! register dwords (`[u32; 4]`: f32 bits for the float register types, u32/i32
//! for UINT/SINT) and encodes register dwords back into bytes. The
//! per-component functions ([`decode_component`], [`encode_component`]) are
//! public so the image formats with their own layouts can reuse them.
//! [`DstSel`] and [`apply_dst_sel`] implement the resource's DST_SEL_X/Y/Z/W.
//!
//! Codes and layouts follow the seeds (`GcnMemHandling.md`, buffer and image
//! resource tables). Where the two copies of the seed name codes 8 and 9
//! differently, the descriptions ("one 2-bit and three 10-bit components
//! from the lowest bit" for code 8) agree: the names used here are the
//! assembler's, clrxasm's and llvm-mc's (`10_10_10_2` = 8, `2_10_10_10` = 9:
//! the name lists components from the highest bit).
//!
//! # Conversion matrix
//!
//! `w` is the component width in bits, `MAX = 2^w - 1` (unsigned) or
//! `2^(w-1) - 1` (signed), `MIN = -2^(w-1)`. "seed" = stated by the seed,
//! "tools" = accepted by clrxasm and llvm-mc (the seed's BufR/BufW columns
//! are narrower), "chosen" = the seed is silent; the choice follows AMD's
//! ISA manuals, LLVM and Mesa where they say something, and is marked here
//! so a user can see it. Every read fills the components the data format
//! lacks with 0 (Y, Z) and 1 (W), in the register type (chosen: the
//! D3D/OpenGL convention the hardware follows).
//!
//! | Number format | Widths | Read (memory → register) | Write (register → memory) |
//! |---|---|---|---|
//! | UNORM (0) | 2–32 | f32 `raw / MAX`, computed exactly, rounded once to nearest even (seed; 32-bit precision chosen) | clamp to [0, 1], NaN → 0, `round_ne(v * MAX)` (saturation chosen: AMD manuals) |
//! | SNORM (1) | 2–32 | f32 `max(raw / MAX, -1)`: the MIN code reads as -1.0 (seed "MIN+1:MAX"; MIN chosen: D3D/AMD) | clamp to [-1, 1], NaN → 0, `round_ne(v * MAX)`: never writes MIN (seed) |
//! | USCALED (2) | 2–32 | f32 of the unsigned integer, nearest even (seed) | tools (seed: read only): clamp to [0, MAX], NaN → 0, round to nearest even (chosen) |
//! | SSCALED (3) | 2–32 | f32 of the signed integer, nearest even (seed) | tools (seed: read only): clamp to [MIN, MAX], NaN → 0, nearest even (chosen) |
//! | UINT (4) | 2–32 | zero-extended u32 (seed) | saturates to [0, MAX] (chosen: AMD manuals); 32-bit: the dword |
//! | SINT (5) | 2–32 | sign-extended i32 (seed) | saturates to [MIN, MAX] (chosen); 32-bit: the dword |
//! | SNORM_OGL (6) | 2–32 | f32 `(2 * raw + 1) / (2^w - 1)`: MIN → -1.0, MAX → 1.0 (seed "MIN:MAX", OpenGL's formula) | tools (seed: read only): clamp to [-1, 1], `round_ne((v * (2^w - 1) - 1) / 2)` clamped to [MIN, MAX] (chosen: the inverse) |
//! | FLOAT (7) | 32 | the f32 bits unchanged (seed) | the dword unchanged (seed) |
//! | FLOAT (7) | 16 | IEEE half → f32, exact, denormals kept (tools/hardware) | f32 → half, nearest even, overflow → ±inf, NaN stays NaN (tools/hardware) |
//! | FLOAT (7) | 11, 10 | unsigned float (5-bit exponent, 6/5-bit mantissa, bias 15) → f32, exact (tools/hardware) | f32 → unsigned float, nearest even, negative and -0 → 0, overflow → +inf, NaN → NaN (chosen) |
//! | FLOAT (7) | 8, 2 | fault: the hardware defines no 8- or 2-bit float (chosen) | fault (chosen) |
//! | reserved 8, image-only 9–13 | — | fault "not supported for buffers" (image module) | fault |
//!
//! Data formats: 1–14 as the seed's table (all eight number formats apply
//! to each, FLOAT as above); 0 (invalid) and 15 (reserved) make a format
//! access fault with a message naming the code (the seed gives them no
//! meaning; chosen: a clear error rather than silently zero data). The image
//! codes 16–63 are enum values here; the simple packed ones (5_6_5, 1_5_5_5,
//! 5_5_5_1, 4_4_4_4, 8_24, 24_8, 4_4, 6_5_5) have a [`Layout`]; the others
//! (X24_8_32, GB_GR, BG_RG, 5_9_9_9, BCn, FMASK, 1, 32_AS_*) belong to the
//! image module.
//!
//! DST_SEL: 0 → 0, 1 → one in the register type (1.0f for the float
//! types, integer 1 for UINT/SINT: chosen, as the hardware's SQ_SEL_1 and
//! Mesa's use of it for integer formats), 4–7 → the decoded X/Y/Z/W
//! (seed); the undefined codes 2 and 3 fault (chosen).
//!
//! d16 forms (GCN 1.2/1.4): a read converts the register value to 16 bits
//! — f32 → half (nearest even) for the float register types, the low 16
//! bits for UINT/SINT — and a write widens 16 bits back (half → f32, zero-
//! or sign-extension) before encoding (chosen: LLVM's d16 lowering).

use std::fmt;

/// A data format: number of components and their widths (the resource's
/// DATAFORMAT field, the MTBUF DFMT field, an image's 6-bit DATAFORMAT).
///
/// Buffer codes are 0–15; codes 16–63 exist only in image resources. Codes
/// the seeds do not list (23–31, 42–46) have no value ([`DataFormat::from_code`]
/// returns `None`).
#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum DataFormat {
    /// 0: invalid.
    Invalid = 0,
    /// 1: one 8-bit component.
    D8 = 1,
    /// 2: one 16-bit component.
    D16 = 2,
    /// 3: two 8-bit components.
    D8_8 = 3,
    /// 4: one 32-bit component.
    D32 = 4,
    /// 5: two 16-bit components.
    D16_16 = 5,
    /// 6: X 11 bits, Y 11 bits, Z 10 bits from the lowest bit.
    D10_11_11 = 6,
    /// 7: X 10 bits, Y 11 bits, Z 11 bits from the lowest bit.
    D11_11_10 = 7,
    /// 8: X 2 bits, then Y, Z, W 10 bits each from the lowest bit.
    D10_10_10_2 = 8,
    /// 9: X, Y, Z 10 bits each, then W 2 bits from the lowest bit.
    D2_10_10_10 = 9,
    /// 10: four 8-bit components.
    D8_8_8_8 = 10,
    /// 11: two 32-bit components.
    D32_32 = 11,
    /// 12: four 16-bit components.
    D16_16_16_16 = 12,
    /// 13: three 32-bit components.
    D32_32_32 = 13,
    /// 14: four 32-bit components.
    D32_32_32_32 = 14,
    /// 15: reserved.
    Reserved = 15,
    /// 16 (images): X 5 bits, Y 6 bits, Z 5 bits.
    D5_6_5 = 16,
    /// 17 (images): three 5-bit components, then one 1-bit.
    D1_5_5_5 = 17,
    /// 18 (images): one 1-bit component, then three 5-bit.
    D5_5_5_1 = 18,
    /// 19 (images): four 4-bit components.
    D4_4_4_4 = 19,
    /// 20 (images, read only): X 24 bits, Y 8 bits.
    D8_24 = 20,
    /// 21 (images, read only): X 8 bits, Y 24 bits.
    D24_8 = 21,
    /// 22 (images, read only): 32-bit depth and 8-bit stencil in 64 bits.
    X24_8_32 = 22,
    /// 32 (images, read only): four 8-bit components in order (0, 1, 2, 0).
    GbGr = 32,
    /// 33 (images, read only): four 8-bit components in order (1, 0, 3, 1).
    BgRg = 33,
    /// 34 (images, read only): three 9-bit mantissas and a 5-bit exponent.
    D5_9_9_9 = 34,
    /// 35 (images, read only): BC1 block compression.
    Bc1 = 35,
    /// 36 (images, read only): BC2.
    Bc2 = 36,
    /// 37 (images, read only): BC3.
    Bc3 = 37,
    /// 38 (images, read only): BC4.
    Bc4 = 38,
    /// 39 (images, read only): BC5.
    Bc5 = 39,
    /// 40 (images, read only): BC6.
    Bc6 = 40,
    /// 41 (images, read only): BC7.
    Bc7 = 41,
    /// 47 (images): 8-bit FMASK, 1 fragment per sample.
    Fmask8_1 = 47,
    /// 48 (images): 8-bit FMASK, 2 fragments per sample.
    Fmask8_2 = 48,
    /// 49 (images): 8-bit FMASK, 4 fragments per sample.
    Fmask8_4 = 49,
    /// 50 (images): 16-bit FMASK, 1 fragment per sample.
    Fmask16_1 = 50,
    /// 51 (images): 16-bit FMASK, 2 fragments per sample.
    Fmask16_2 = 51,
    /// 52 (images): 32-bit FMASK, 2 fragments per sample.
    Fmask32_2 = 52,
    /// 53 (images): 32-bit FMASK, 4 fragments per sample.
    Fmask32_4 = 53,
    /// 54 (images): 32-bit FMASK, 8 fragments per sample.
    Fmask32_8 = 54,
    /// 55 (images): 64-bit FMASK, 4 fragments per sample.
    Fmask64_4 = 55,
    /// 56 (images): 64-bit FMASK, 8 fragments per sample.
    Fmask64_8 = 56,
    /// 57 (images, read only): two 4-bit components.
    D4_4 = 57,
    /// 58 (images, read only): X 5 bits, Y 5 bits, Z 6 bits.
    D6_5_5 = 58,
    /// 59 (images, read only): one 1-bit component.
    D1 = 59,
    /// 60 (images, read only): one reversed 1-bit component.
    D1Reversed = 60,
    /// 61 (images, read only): 32_AS_8.
    D32As8 = 61,
    /// 62 (images, read only): 32_AS_8_8.
    D32As8_8 = 62,
    /// 63 (images, read only): 32_AS_32_32_32_32.
    D32As32_32_32_32 = 63,
}

/// Every data format with its name as the assembler writes it (`format:[…]`
/// for buffers).
const DATA_FORMATS: &[(DataFormat, &str)] = {
    use DataFormat::*;
    &[
        (Invalid, "invalid"),
        (D8, "8"),
        (D16, "16"),
        (D8_8, "8_8"),
        (D32, "32"),
        (D16_16, "16_16"),
        (D10_11_11, "10_11_11"),
        (D11_11_10, "11_11_10"),
        (D10_10_10_2, "10_10_10_2"),
        (D2_10_10_10, "2_10_10_10"),
        (D8_8_8_8, "8_8_8_8"),
        (D32_32, "32_32"),
        (D16_16_16_16, "16_16_16_16"),
        (D32_32_32, "32_32_32"),
        (D32_32_32_32, "32_32_32_32"),
        (Reserved, "reserved"),
        (D5_6_5, "5_6_5"),
        (D1_5_5_5, "1_5_5_5"),
        (D5_5_5_1, "5_5_5_1"),
        (D4_4_4_4, "4_4_4_4"),
        (D8_24, "8_24"),
        (D24_8, "24_8"),
        (X24_8_32, "x24_8_32"),
        (GbGr, "gb_gr"),
        (BgRg, "bg_rg"),
        (D5_9_9_9, "5_9_9_9"),
        (Bc1, "bc1"),
        (Bc2, "bc2"),
        (Bc3, "bc3"),
        (Bc4, "bc4"),
        (Bc5, "bc5"),
        (Bc6, "bc6"),
        (Bc7, "bc7"),
        (Fmask8_1, "fmask8_s2_f1"),
        (Fmask8_2, "fmask8_s4_f1"),
        (Fmask8_4, "fmask8_s8_f1"),
        (Fmask16_1, "fmask16_s16_f1"),
        (Fmask16_2, "fmask16_s8_f2"),
        (Fmask32_2, "fmask32_s16_f2"),
        (Fmask32_4, "fmask32_s8_f4"),
        (Fmask32_8, "fmask32_s8_f8"),
        (Fmask64_4, "fmask64_s16_f4"),
        (Fmask64_8, "fmask64_s16_f8"),
        (D4_4, "4_4"),
        (D6_5_5, "6_5_5"),
        (D1, "1"),
        (D1Reversed, "1_reversed"),
        (D32As8, "32_as_8"),
        (D32As8_8, "32_as_8_8"),
        (D32As32_32_32_32, "32_as_32_32_32_32"),
    ]
};

impl DataFormat {
    /// The field value.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The format of a field value; `None` for the codes the seeds do not
    /// list (23–31, 42–46, above 63).
    pub fn from_code(code: u8) -> Option<DataFormat> {
        // A table by code: the emulator decodes a V# per buffer
        // instruction.
        const BY_CODE: [Option<DataFormat>; 64] = {
            let mut t = [None; 64];
            let mut i = 0;
            while i < DATA_FORMATS.len() {
                t[DATA_FORMATS[i].0 as usize] = Some(DATA_FORMATS[i].0);
                i += 1;
            }
            t
        };
        BY_CODE.get(usize::from(code)).copied().flatten()
    }

    /// The name as written in `format:[…]` (lower case, without the
    /// `BUF_DATA_FORMAT_` prefix).
    pub fn name(self) -> &'static str {
        DATA_FORMATS
            .iter()
            .find(|(f, _)| *f == self)
            .map_or("invalid", |&(_, n)| n)
    }

    /// Whether the code fits a buffer resource's 4-bit field (0–15).
    pub const fn is_buffer_code(self) -> bool {
        (self as u8) < 16
    }

    /// The component layout, for the formats made of plain bit fields
    /// (`None` for invalid/reserved and for the image formats with their
    /// own decoding: X24_8_32, GB_GR, BG_RG, 5_9_9_9, BCn, FMASK, 1,
    /// 1_REVERSED, 32_AS_*).
    pub const fn layout(self) -> Option<Layout> {
        use DataFormat::*;
        let (count, bits): (u8, [u8; 4]) = match self {
            D8 => (1, [8, 0, 0, 0]),
            D16 => (1, [16, 0, 0, 0]),
            D8_8 => (2, [8, 8, 0, 0]),
            D32 => (1, [32, 0, 0, 0]),
            D16_16 => (2, [16, 16, 0, 0]),
            D10_11_11 => (3, [11, 11, 10, 0]),
            D11_11_10 => (3, [10, 11, 11, 0]),
            D10_10_10_2 => (4, [2, 10, 10, 10]),
            D2_10_10_10 => (4, [10, 10, 10, 2]),
            D8_8_8_8 => (4, [8, 8, 8, 8]),
            D32_32 => (2, [32, 32, 0, 0]),
            D16_16_16_16 => (4, [16, 16, 16, 16]),
            D32_32_32 => (3, [32, 32, 32, 0]),
            D32_32_32_32 => (4, [32, 32, 32, 32]),
            D5_6_5 => (3, [5, 6, 5, 0]),
            D1_5_5_5 => (4, [5, 5, 5, 1]),
            D5_5_5_1 => (4, [1, 5, 5, 5]),
            D4_4_4_4 => (4, [4, 4, 4, 4]),
            D8_24 => (2, [24, 8, 0, 0]),
            D24_8 => (2, [8, 24, 0, 0]),
            D4_4 => (2, [4, 4, 0, 0]),
            D6_5_5 => (3, [5, 5, 6, 0]),
            _ => return None,
        };
        Some(Layout { count, bits })
    }
}

impl fmt::Display for DataFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name().to_ascii_uppercase())
    }
}

/// The bit fields of a data format: `count` components, component `i`
/// `bits[i]` wide, packed from the lowest bit of the little-endian element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Number of components (1–4).
    pub count: u8,
    /// Width of each component in bits (0 past `count`).
    pub bits: [u8; 4],
}

impl Layout {
    /// Size of one element in bytes.
    pub const fn bytes(&self) -> u32 {
        (self.bits[0] as u32 + self.bits[1] as u32 + self.bits[2] as u32 + self.bits[3] as u32)
            .div_ceil(8)
    }

    /// Bit position of component `i`.
    pub const fn shift(&self, i: usize) -> u32 {
        let mut s = 0;
        let mut k = 0;
        while k < i {
            s += self.bits[k] as u32;
            k += 1;
        }
        s
    }
}

/// A number format: how a component's bits become a register value (the
/// resource's NUMFORMAT, MTBUF NFMT, an image's 4-bit NUMBERFORMAT).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum NumFormat {
    /// 0: unsigned normalised, 0..MAX → 0.0..1.0.
    Unorm = 0,
    /// 1: signed normalised, MIN+1..MAX → -1.0..1.0.
    Snorm = 1,
    /// 2: unsigned integer converted to float.
    Uscaled = 2,
    /// 3: signed integer converted to float.
    Sscaled = 3,
    /// 4: unsigned integer.
    Uint = 4,
    /// 5: signed integer.
    Sint = 5,
    /// 6: signed normalised, MIN..MAX → -1.0..1.0 (OpenGL).
    SnormOgl = 6,
    /// 7: floating point (32-bit, half, or the 11/10-bit unsigned floats).
    Float = 7,
    /// 8 (images): reserved.
    Reserved8 = 8,
    /// 9 (images, read only): sRGB.
    Srgb = 9,
    /// 10 (images, read only): UBNORM.
    Ubnorm = 10,
    /// 11 (images, read only): UBNORM_OGL.
    UbnormOgl = 11,
    /// 12 (images, read only): UBINT.
    Ubint = 12,
    /// 13 (images, read only): UBSCALED.
    Ubscaled = 13,
}

impl NumFormat {
    /// Every number format, by code.
    pub const ALL: [NumFormat; 14] = {
        use NumFormat::*;
        [
            Unorm, Snorm, Uscaled, Sscaled, Uint, Sint, SnormOgl, Float, Reserved8, Srgb, Ubnorm,
            UbnormOgl, Ubint, Ubscaled,
        ]
    };

    /// The field value.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The format of a field value (`None` for 14 and 15).
    pub fn from_code(code: u8) -> Option<NumFormat> {
        NumFormat::ALL.get(usize::from(code)).copied()
    }

    /// The name as written in `format:[…]` (lower case, without the
    /// `BUF_NUM_FORMAT_` prefix).
    pub const fn name(self) -> &'static str {
        use NumFormat::*;
        match self {
            Unorm => "unorm",
            Snorm => "snorm",
            Uscaled => "uscaled",
            Sscaled => "sscaled",
            Uint => "uint",
            Sint => "sint",
            SnormOgl => "snorm_ogl",
            Float => "float",
            Reserved8 => "reserved",
            Srgb => "srgb",
            Ubnorm => "ubnorm",
            UbnormOgl => "ubnorm_ogl",
            Ubint => "ubint",
            Ubscaled => "ubscaled",
        }
    }

    /// Whether the register value is an f32 (every format but UINT/SINT:
    /// the seed's "Reg type" column).
    pub const fn is_float_register(self) -> bool {
        !matches!(self, NumFormat::Uint | NumFormat::Sint)
    }

    /// The register value "one" of this format: 1.0f or integer 1.
    pub const fn one(self) -> u32 {
        if self.is_float_register() {
            0x3f80_0000
        } else {
            1
        }
    }
}

impl fmt::Display for NumFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name().to_ascii_uppercase())
    }
}

/// A destination select (DST_SEL_X/Y/Z/W of a resource).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum DstSel {
    /// 0: the value zero.
    Zero = 0,
    /// 1: the value one (1.0f, or 1 for UINT/SINT).
    One = 1,
    /// 2: not defined by the seed (faults when used).
    Reserved2 = 2,
    /// 3: not defined by the seed (faults when used).
    Reserved3 = 3,
    /// 4: the first component (R).
    X = 4,
    /// 5: the second component (G).
    Y = 5,
    /// 6: the third component (B).
    Z = 6,
    /// 7: the fourth component (A).
    W = 7,
}

impl DstSel {
    /// The identity selects (X, Y, Z, W).
    pub const IDENTITY: [DstSel; 4] = [DstSel::X, DstSel::Y, DstSel::Z, DstSel::W];

    /// The select of a 3-bit field value.
    pub const fn from_code(code: u8) -> DstSel {
        use DstSel::*;
        match code & 7 {
            0 => Zero,
            1 => One,
            2 => Reserved2,
            3 => Reserved3,
            4 => X,
            5 => Y,
            6 => Z,
            _ => W,
        }
    }

    /// The field value.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The seed's name: `0`, `1`, `R`, `G`, `B`, `A` (`reserved2/3`).
    pub const fn name(self) -> &'static str {
        use DstSel::*;
        match self {
            Zero => "0",
            One => "1",
            Reserved2 => "reserved2",
            Reserved3 => "reserved3",
            X => "R",
            Y => "G",
            Z => "B",
            W => "A",
        }
    }
}

impl fmt::Display for DstSel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a format cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatError {
    /// Data format 0 (invalid) or 15 (reserved).
    InvalidDataFormat(DataFormat),
    /// A data format with its own decoding that this codec does not handle
    /// (image-only formats).
    UnsupportedDataFormat(DataFormat),
    /// A number format that does not apply (image-only, reserved).
    UnsupportedNumFormat(NumFormat),
    /// FLOAT with a component width the hardware defines no float for.
    NoFloatOfWidth {
        /// The data format.
        data: DataFormat,
        /// The offending width.
        bits: u8,
    },
    /// A DST_SEL code the seed does not define (2, 3).
    ReservedDstSel(DstSel),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::InvalidDataFormat(d) => write!(
                f,
                "data format {} ({}) has no layout: the format access has no defined result",
                d.code(),
                d
            ),
            FormatError::UnsupportedDataFormat(d) => write!(
                f,
                "data format {} ({d}) is not supported by the buffer conversion",
                d.code()
            ),
            FormatError::UnsupportedNumFormat(n) => write!(
                f,
                "number format {} ({n}) is not supported by the buffer conversion",
                n.code()
            ),
            FormatError::NoFloatOfWidth { data, bits } => write!(
                f,
                "number format FLOAT with data format {data}: the hardware defines no {bits}-bit float"
            ),
            FormatError::ReservedDstSel(s) => {
                write!(f, "DST_SEL code {} is not defined", s.code())
            }
        }
    }
}

impl std::error::Error for FormatError {}

/// A validated (data format, number format) pair: decodes and encodes whole
/// elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Codec {
    /// The data format.
    pub data: DataFormat,
    /// The number format.
    pub num: NumFormat,
    layout: Layout,
}

impl Codec {
    /// Checks the pair: a plain bit-field data format, a buffer number
    /// format (0–7), and FLOAT only on 32-, 16-, 11- and 10-bit components.
    pub fn new(data: DataFormat, num: NumFormat) -> Result<Codec, FormatError> {
        if matches!(data, DataFormat::Invalid | DataFormat::Reserved) {
            return Err(FormatError::InvalidDataFormat(data));
        }
        let layout = data
            .layout()
            .ok_or(FormatError::UnsupportedDataFormat(data))?;
        if num.code() > 7 {
            return Err(FormatError::UnsupportedNumFormat(num));
        }
        if num == NumFormat::Float {
            for &b in &layout.bits[..usize::from(layout.count)] {
                if !matches!(b, 32 | 16 | 11 | 10) {
                    return Err(FormatError::NoFloatOfWidth { data, bits: b });
                }
            }
        }
        Ok(Codec { data, num, layout })
    }

    /// The layout of the data format.
    pub const fn layout(&self) -> Layout {
        self.layout
    }

    /// Size of one element in bytes.
    pub const fn bytes(&self) -> u32 {
        self.layout.bytes()
    }

    /// Number of components the data format stores.
    pub const fn components(&self) -> usize {
        self.layout.count as usize
    }

    /// Decodes an element (`bytes` holds at least [`Codec::bytes`] bytes,
    /// little-endian) into four register dwords; components the format
    /// lacks read as 0 (Y, Z) and one (W).
    pub fn decode(&self, bytes: &[u8]) -> [u32; 4] {
        let mut b = [0u8; 16];
        let n = self.bytes() as usize;
        b[..n].copy_from_slice(&bytes[..n]);
        self.decode_bits(u128::from_le_bytes(b))
    }

    /// [`Codec::decode`] of an element already read as a little-endian
    /// integer.
    #[inline]
    pub fn decode_bits(&self, element: u128) -> [u32; 4] {
        let mut out = [0, 0, 0, self.num.one()];
        let mut shift = 0;
        for (i, o) in out.iter_mut().enumerate().take(self.components()) {
            let bits = self.layout.bits[i];
            let raw = (element >> shift) as u32 & mask(bits);
            *o = decode_component(self.num, bits, raw);
            shift += u32::from(bits);
        }
        out
    }

    /// Encodes four register dwords into an element (writes
    /// [`Codec::bytes`] bytes of `out`); values past the format's
    /// components are ignored.
    pub fn encode(&self, values: &[u32; 4], out: &mut [u8]) {
        let n = self.bytes() as usize;
        out[..n].copy_from_slice(&self.encode_bits(values).to_le_bytes()[..n]);
    }

    /// [`Codec::encode`] to a little-endian integer.
    #[inline]
    pub fn encode_bits(&self, values: &[u32; 4]) -> u128 {
        let mut e = 0u128;
        let mut shift = 0;
        for (i, &v) in values.iter().enumerate().take(self.components()) {
            let bits = self.layout.bits[i];
            e |= u128::from(encode_component(self.num, bits, v)) << shift;
            shift += u32::from(bits);
        }
        e
    }
}

impl fmt::Display for Codec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{},{}]", self.data, self.num)
    }
}

#[inline]
const fn mask(bits: u8) -> u32 {
    if bits >= 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    }
}

/// Rounds to nearest, ties to even.
#[inline]
fn round_ne(x: f64) -> f64 {
    x.round_ties_even()
}

/// Converts one component of `bits` bits (the raw field value in the low
/// bits of `raw`) to its register value under `num` (see the module's
/// table). FLOAT on widths other than 32, 16, 11, 10 and the image-only
/// number formats give 0 here: [`Codec::new`] rejects them first.
#[inline]
pub fn decode_component(num: NumFormat, bits: u8, raw: u32) -> u32 {
    let raw = raw & mask(bits);
    let sign_extended = || -> i32 {
        let s = 32 - u32::from(bits);
        ((raw << s) as i32) >> s
    };
    let umax = f64::from(mask(bits));
    match num {
        NumFormat::Unorm => ((f64::from(raw) / umax) as f32).to_bits(),
        NumFormat::Snorm => {
            let smax = f64::from(mask(bits - 1));
            ((f64::from(sign_extended()) / smax).max(-1.0) as f32).to_bits()
        }
        NumFormat::SnormOgl => (((2.0 * f64::from(sign_extended()) + 1.0) / umax) as f32).to_bits(),
        NumFormat::Uscaled => (raw as f32).to_bits(),
        NumFormat::Sscaled => (sign_extended() as f32).to_bits(),
        NumFormat::Uint => raw,
        NumFormat::Sint => sign_extended() as u32,
        NumFormat::Float => match bits {
            32 => raw,
            16 => half_to_f32_bits(raw),
            11 => small_float_to_f32(raw, 6).to_bits(),
            10 => small_float_to_f32(raw, 5).to_bits(),
            _ => 0,
        },
        _ => 0,
    }
}

/// [`decode_component`] for 64 lanes at once: the number format is
/// matched once and each arm is a plain loop the compiler vectorises (the
/// emulator's lane-major format loads).
#[inline]
pub fn decode_lanes(num: NumFormat, bits: u8, raw: &[u32; 64], out: &mut [u32; 64]) {
    let m = mask(bits);
    let umax = f64::from(m);
    let s = 32 - u32::from(bits);
    let sext = |r: u32| ((r << s) as i32) >> s;
    match num {
        NumFormat::Unorm => {
            for (o, &r) in out.iter_mut().zip(raw) {
                *o = ((f64::from(r & m) / umax) as f32).to_bits();
            }
        }
        NumFormat::Snorm => {
            let smax = f64::from(mask(bits - 1));
            for (o, &r) in out.iter_mut().zip(raw) {
                *o = ((f64::from(sext(r)) / smax).max(-1.0) as f32).to_bits();
            }
        }
        NumFormat::SnormOgl => {
            for (o, &r) in out.iter_mut().zip(raw) {
                *o = (((2.0 * f64::from(sext(r)) + 1.0) / umax) as f32).to_bits();
            }
        }
        NumFormat::Uscaled => {
            for (o, &r) in out.iter_mut().zip(raw) {
                *o = ((r & m) as f32).to_bits();
            }
        }
        NumFormat::Sscaled => {
            for (o, &r) in out.iter_mut().zip(raw) {
                *o = (sext(r) as f32).to_bits();
            }
        }
        NumFormat::Uint => {
            for (o, &r) in out.iter_mut().zip(raw) {
                *o = r & m;
            }
        }
        NumFormat::Float if bits == 16 => {
            for (o, &r) in out.iter_mut().zip(raw) {
                *o = half_to_f32_bits(r & m);
            }
        }
        NumFormat::Float if bits == 32 => *out = *raw,
        NumFormat::Sint => {
            for (o, &r) in out.iter_mut().zip(raw) {
                *o = sext(r) as u32;
            }
        }
        _ => {
            for (o, &r) in out.iter_mut().zip(raw) {
                *o = decode_component(num, bits, r);
            }
        }
    }
}

/// Converts one register value to a component of `bits` bits under `num`
/// (see the module's table); the result is in the low `bits` bits.
#[inline]
pub fn encode_component(num: NumFormat, bits: u8, value: u32) -> u32 {
    let f = || -> f64 {
        let v = f64::from(f32::from_bits(value));
        if v.is_nan() {
            0.0
        } else {
            v
        }
    };
    let umax = f64::from(mask(bits));
    let smax = f64::from(mask(bits - 1));
    let smin = -smax - 1.0;
    let m = mask(bits);
    let to_signed = |x: f64| (x as i64 as u32) & m;
    match num {
        NumFormat::Unorm => round_ne(f().clamp(0.0, 1.0) * umax) as u32,
        NumFormat::Snorm => to_signed(round_ne(f().clamp(-1.0, 1.0) * smax)),
        NumFormat::SnormOgl => {
            let x = round_ne((f().clamp(-1.0, 1.0) * umax - 1.0) / 2.0);
            to_signed(x.clamp(smin, smax))
        }
        NumFormat::Uscaled => round_ne(f()).clamp(0.0, umax) as u32,
        NumFormat::Sscaled => to_signed(round_ne(f()).clamp(smin, smax)),
        NumFormat::Uint => value.min(m),
        NumFormat::Sint => {
            let v = i64::from(value as i32);
            (v.clamp(smin as i64, smax as i64) as u32) & m
        }
        NumFormat::Float => match bits {
            32 => value,
            16 => u32::from(half::f16::from_f32(f32::from_bits(value)).to_bits()),
            11 => f32_to_small_float(f32::from_bits(value), 6),
            10 => f32_to_small_float(f32::from_bits(value), 5),
            _ => 0,
        },
        _ => 0,
    }
}

/// An IEEE half (the low 16 bits of `h`) as f32 bits: exact, denormals
/// kept, a NaN made quiet with its payload (as `v_cvt_f32_f16` and the
/// `half` crate do). Plain integer operations, so a lane loop of it
/// vectorises.
#[inline]
pub fn half_to_f32_bits(h: u32) -> u32 {
    let sign = (h & 0x8000) << 16;
    let exp = (h >> 10) & 0x1f;
    let man = h & 0x3ff;
    match exp {
        0x1f if man == 0 => sign | 0x7f80_0000,
        0x1f => sign | 0x7fc0_0000 | man << 13,
        // Denormal or zero: man * 2^-24, exact in f32.
        0 => sign | (man as f32 * f32::from_bits(0x3380_0000)).to_bits(),
        _ => sign | (exp + 112) << 23 | man << 13,
    }
}

/// [`encode_component`] for 64 lanes at once (the number format matched
/// once per call; each arm is `encode_component` specialised by the
/// compiler).
#[inline]
pub fn encode_lanes(num: NumFormat, bits: u8, values: &[u32; 64], out: &mut [u32; 64]) {
    macro_rules! arm {
        ($n:expr) => {
            for (o, &v) in out.iter_mut().zip(values) {
                *o = encode_component($n, bits, v);
            }
        };
    }
    match num {
        NumFormat::Unorm => arm!(NumFormat::Unorm),
        NumFormat::Snorm => arm!(NumFormat::Snorm),
        NumFormat::Uscaled => arm!(NumFormat::Uscaled),
        NumFormat::Sscaled => arm!(NumFormat::Sscaled),
        NumFormat::Uint => arm!(NumFormat::Uint),
        NumFormat::Sint => arm!(NumFormat::Sint),
        NumFormat::SnormOgl => arm!(NumFormat::SnormOgl),
        NumFormat::Float => arm!(NumFormat::Float),
        other => arm!(other),
    }
}

/// An unsigned float with a 5-bit exponent (bias 15) and `mbits` mantissa
/// bits (the 11- and 10-bit components of 10_11_11/11_11_10) as f32.
pub fn small_float_to_f32(raw: u32, mbits: u32) -> f32 {
    let e = (raw >> mbits) & 31;
    let m = raw & ((1 << mbits) - 1);
    let scale = f64::from(1u32 << mbits);
    let v = match e {
        0 => f64::from(m) / scale * 2f64.powi(-14),
        31 if m == 0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + f64::from(m) / scale) * 2f64.powi(e as i32 - 15),
    };
    v as f32
}

/// An f32 as an unsigned float with a 5-bit exponent and `mbits` mantissa
/// bits: nearest even, negative values and -0 → 0, overflow → +inf, NaN →
/// a quiet NaN.
pub fn f32_to_small_float(x: f32, mbits: u32) -> u32 {
    let inf = 31 << mbits;
    if x.is_nan() {
        return inf | 1 << (mbits - 1);
    }
    if x <= 0.0 {
        return 0;
    }
    if x.is_infinite() {
        return inf;
    }
    let bits = x.to_bits();
    let e = (bits >> 23) as i32 - 127;
    let code = if e < -14 {
        // Below the smallest normal (2^-14): a denormal, exactly
        // `x * 2^(14 + mbits)` steps (exact in f64), rounded; rounding up
        // to `1 << mbits` is the smallest normal's code.
        round_ne(f64::from(x) * 2f64.powi(14 + mbits as i32)) as u32
    } else if e > 15 {
        inf
    } else {
        let drop = 23 - mbits;
        let m = bits & 0x7f_ffff;
        let code = (((e + 15) as u32) << mbits) | (m >> drop);
        let rest = m & ((1 << drop) - 1);
        let half = 1 << (drop - 1);
        // A carry out of the mantissa moves to the next exponent (and from
        // the largest to infinity), as the encoding counts steps.
        if rest > half || (rest == half && code & 1 == 1) {
            code + 1
        } else {
            code
        }
    };
    code.min(inf)
}

/// Applies DST_SEL_X/Y/Z/W to a decoded texel.
pub fn apply_dst_sel(
    texel: [u32; 4],
    sel: [DstSel; 4],
    num: NumFormat,
) -> Result<[u32; 4], FormatError> {
    let mut out = [0; 4];
    for (o, s) in out.iter_mut().zip(sel) {
        *o = match s {
            DstSel::Zero => 0,
            DstSel::One => num.one(),
            DstSel::X => texel[0],
            DstSel::Y => texel[1],
            DstSel::Z => texel[2],
            DstSel::W => texel[3],
            DstSel::Reserved2 | DstSel::Reserved3 => return Err(FormatError::ReservedDstSel(s)),
        };
    }
    Ok(out)
}

/// A register value narrowed for a d16 load: f32 → half (nearest even)
/// for the float register types, the low 16 bits for UINT/SINT.
#[inline]
pub fn to_d16(num: NumFormat, value: u32) -> u16 {
    if num.is_float_register() {
        half::f16::from_f32(f32::from_bits(value)).to_bits()
    } else {
        value as u16
    }
}

/// A d16 store's 16-bit value widened to a register value: half → f32,
/// zero-extended (UINT) or sign-extended (SINT).
#[inline]
pub fn from_d16(num: NumFormat, value: u16) -> u32 {
    match num {
        NumFormat::Uint => u32::from(value),
        NumFormat::Sint => value as i16 as i32 as u32,
        _ => half::f16::from_bits(value).to_f32().to_bits(),
    }
}

pub mod image;

#[cfg(test)]
mod tests;
