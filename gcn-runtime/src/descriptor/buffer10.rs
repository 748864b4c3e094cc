//! The GCN 1.5 / RDNA 2 (gfx10) buffer resource: the V# of
//! [`super::buffer`] with a new word 3.
//!
//! Words 0–2 are as before (BASE 0–47, STRIDE 48–61, cache swizzle 62,
//! swizzle enable 63, NUM_RECORDS 64–95). Word 3 (bit numbers within it),
//! as AMD's gfx10 register headers give it (Mesa's `sid.h`
//! `SQ_BUF_RSRC_WORD3`, LLVM's `getScratchRsrcWords23`):
//!
//! | Bits | Field | Here |
//! |---|---|---|
//! | 0–11 | DST_SEL_X/Y/Z/W | [`Gfx10BufferResourceBuilder::dst_sel`] |
//! | 12–18 | FORMAT (unified data + number format) | [`Gfx10BufferResourceBuilder::format`], [`gfx10_format`] |
//! | 21–22 | INDEX_STRIDE (`8 << field`) | [`Gfx10BufferResourceBuilder::index_stride`] |
//! | 23 | ADD_TID_ENABLE | [`Gfx10BufferResourceBuilder::add_tid`] |
//! | 24 | RESOURCE_LEVEL (1 on gfx10) | [`Gfx10BufferResourceBuilder::resource_level`] |
//! | 28–29 | OOB_SELECT | [`Gfx10BufferResourceBuilder::oob_select`] ([`OobSelect`]) |
//! | 30–31 | TYPE (0: buffer) | [`Gfx10BufferResourceBuilder::resource_type`] |
//!
//! Bits 19–20 and 25–27 are kept as they are ([`Gfx10BufferResource::unnamed_bits`]).
//! There is no ELEMENT_SIZE: swizzled elements are 4 bytes (as on GCN 1.4).
//!
//! OOB_SELECT replaces the range-check rules of GCN 1.0–1.4 (Mesa's
//! `ac_build_buffer_descriptor` documents the gfx10 checks; AOFFSET and
//! AINDEX as in [`crate::exec`]'s buffer addressing):
//! 0: out of range when `AINDEX >= NUM_RECORDS` or `AOFFSET >= STRIDE`;
//! 1: when `AINDEX >= NUM_RECORDS`; 2: only when `NUM_RECORDS == 0`;
//! 3 (raw): when the buffer offset (swizzled, if swizzling is on) plus
//! SOFFSET is at least `NUM_RECORDS` bytes (SOFFSET counted as in the GCN raw
//! rule: chosen, the sources say "offset").
//!
//! The HSA private segment buffer (scratch) of a gfx10 kernel, as LLVM
//! builds its words 2–3: [`Gfx10BufferResource::scratch`].
//!
//! ```
//! use gcn_runtime::descriptor::{Gfx10BufferResource, OobSelect};
//! use gcn_runtime::format::{DataFormat, NumFormat};
//!
//! let v = Gfx10BufferResource::builder()
//!     .base(0x1_0000_0100)
//!     .stride(8)
//!     .num_records(100)
//!     .format(DataFormat::D16_16_16_16, NumFormat::Float)
//!     .oob_select(OobSelect::StructuredWithOffset)
//!     .build()
//!     .unwrap();
//! let words = v.to_words();
//! // FORMAT 71 (16_16_16_16_FLOAT), RESOURCE_LEVEL 1, OOB_SELECT 0.
//! assert_eq!(words, [0x0000_0100, 0x0008_0001, 100, 71 << 12 | 1 << 24 | 0xfac]);
//! assert_eq!(Gfx10BufferResource::from_words(words), v);
//! ```

use std::fmt;

use super::buffer::{IndexStride, ResourceError};
use crate::format::{DataFormat, DstSel, NumFormat};
use crate::kernel::{ArgField, ArgValue};
use crate::memory::Buffer;

/// The out-of-range check of a gfx10 buffer resource (OOB_SELECT).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum OobSelect {
    /// 0: index against NUM_RECORDS and offset against STRIDE.
    StructuredWithOffset = 0,
    /// 1: index against NUM_RECORDS.
    Structured = 1,
    /// 2: no check (only NUM_RECORDS == 0 is out of range).
    Disabled = 2,
    /// 3: the byte offset against NUM_RECORDS (raw buffers).
    Raw = 3,
}

impl OobSelect {
    /// The check of a field value (its low 2 bits).
    pub const fn from_code(code: u8) -> OobSelect {
        match code & 3 {
            0 => OobSelect::StructuredWithOffset,
            1 => OobSelect::Structured,
            2 => OobSelect::Disabled,
            _ => OobSelect::Raw,
        }
    }
}

/// The number formats of the data formats in gfx10's unified FORMAT
/// table, in code order: codes 1–77 (0 is INVALID, 78–127 are reserved).
const GFX10_FORMATS: &[(DataFormat, &[NumFormat])] = {
    use DataFormat::*;
    use NumFormat::*;
    const INT6: &[NumFormat] = &[Unorm, Snorm, Uscaled, Sscaled, Uint, Sint];
    const INT6_FLOAT: &[NumFormat] = &[Unorm, Snorm, Uscaled, Sscaled, Uint, Sint, Float];
    const WIDE: &[NumFormat] = &[Uint, Sint, Float];
    &[
        (D8, INT6),
        (D16, INT6_FLOAT),
        (D8_8, INT6),
        (D32, WIDE),
        (D16_16, INT6_FLOAT),
        (D10_11_11, INT6_FLOAT),
        (D11_11_10, INT6_FLOAT),
        (D10_10_10_2, INT6),
        (D2_10_10_10, INT6),
        (D8_8_8_8, INT6),
        (D32_32, WIDE),
        (D16_16_16_16, INT6_FLOAT),
        (D32_32_32, WIDE),
        (D32_32_32_32, WIDE),
    ]
};

/// The data and number format of gfx10 buffer FORMAT code `code` (LLVM's
/// `UfmtGFX10`, checked against `llvm-mc-15 -mcpu=gfx1030` for every
/// code); `None` for INVALID (0) and the reserved codes (78–127).
pub fn gfx10_format(code: u8) -> Option<(DataFormat, NumFormat)> {
    let mut next = 1u8;
    for &(data, nums) in GFX10_FORMATS {
        for &num in nums {
            if next == code {
                return Some((data, num));
            }
            next += 1;
        }
    }
    None
}

/// The gfx10 buffer FORMAT code of a data and number format, if the table
/// has the pair.
pub fn gfx10_format_code(data: DataFormat, num: NumFormat) -> Option<u8> {
    (1..=77).find(|&c| gfx10_format(c) == Some((data, num)))
}

/// FORMAT 32_FLOAT (22), what LLVM and Mesa put in raw descriptors.
pub const GFX10_FORMAT_32_FLOAT: u8 = 22;

/// Mask of the word-3 bits no field names (19–20, 25–27).
const UNNAMED_W3: u32 = 3 << 19 | 7 << 25;

/// A GCN 1.5 / RDNA 2 buffer resource (V#). Build one with
/// [`Gfx10BufferResource::builder`], [`Gfx10BufferResource::raw`],
/// [`Gfx10BufferResource::typed`] or [`Gfx10BufferResource::scratch`];
/// read a kernel's own with [`Gfx10BufferResource::from_words`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Gfx10BufferResource {
    base: u64,
    stride: u32,
    cache_swizzle: bool,
    swizzle_enable: bool,
    num_records: u32,
    dst_sel: [DstSel; 4],
    format: u8,
    index_stride: IndexStride,
    add_tid: bool,
    resource_level: bool,
    oob_select: OobSelect,
    resource_type: u8,
    unnamed: u32,
}

impl Default for Gfx10BufferResource {
    /// Everything zero except DST_SEL (identity), FORMAT 32_FLOAT,
    /// RESOURCE_LEVEL 1 and OOB_SELECT raw: Mesa's and LLVM's raw buffer.
    fn default() -> Self {
        Gfx10BufferResource {
            base: 0,
            stride: 0,
            cache_swizzle: false,
            swizzle_enable: false,
            num_records: 0,
            dst_sel: DstSel::IDENTITY,
            format: GFX10_FORMAT_32_FLOAT,
            index_stride: IndexStride::S8,
            add_tid: false,
            resource_level: true,
            oob_select: OobSelect::Raw,
            resource_type: 0,
            unnamed: 0,
        }
    }
}

impl Gfx10BufferResource {
    /// A builder starting from [`Gfx10BufferResource::default`].
    pub fn builder() -> Gfx10BufferResourceBuilder {
        Gfx10BufferResourceBuilder {
            v: Gfx10BufferResource::default(),
            error: None,
        }
    }

    /// A raw V# for `bytes` bytes at `base` (stride 0, OOB_SELECT raw).
    pub fn raw(base: u64, bytes: u64) -> Result<Gfx10BufferResource, ResourceError> {
        Gfx10BufferResource::builder()
            .base(base)
            .num_records(bytes)
            .build()
    }

    /// A raw V# covering the whole of `buffer`.
    pub fn for_buffer<T: bytemuck::Pod>(
        buffer: &Buffer<T>,
    ) -> Result<Gfx10BufferResource, ResourceError> {
        Gfx10BufferResource::raw(buffer.ptr().0, buffer.byte_len())
    }

    /// A typed V# over `buffer`: one record per element of `T`, the given
    /// formats, identity DST_SEL, OOB_SELECT 0 (index and offset checked).
    pub fn typed<T: bytemuck::Pod>(
        buffer: &Buffer<T>,
        data: DataFormat,
        num: NumFormat,
    ) -> Result<Gfx10BufferResource, ResourceError> {
        Gfx10BufferResource::builder()
            .base(buffer.ptr().0)
            .stride(std::mem::size_of::<T>() as u64)
            .num_records(buffer.len() as u64)
            .format(data, num)
            .oob_select(OobSelect::StructuredWithOffset)
            .build()
    }

    /// The private segment (scratch) buffer of a gfx10 HSA kernel as LLVM
    /// describes it (`SIInstrInfo::getScratchRsrcWords23` for GFX10):
    /// swizzled, ADD_TID_ENABLE, INDEX_STRIDE 64 (`wave32`: 32), FORMAT
    /// 32_FLOAT, RESOURCE_LEVEL 1, OOB_SELECT raw, NUM_RECORDS `bytes`.
    /// Its words 2–3 for a wave64 kernel are `[bytes, 0x31e1_6fac]`, for a
    /// wave32 kernel `[bytes, 0x31c1_6fac]` (DST_SEL identity `0xfac`,
    /// FORMAT 22 << 12, INDEX_STRIDE 3 or 2 << 21, ADD_TID 1 << 23,
    /// RESOURCE_LEVEL 1 << 24, OOB_SELECT 3 << 28); word 1 has swizzle
    /// enable (bit 31) and stride 0.
    pub fn scratch(
        base: u64,
        bytes: u64,
        wave32: bool,
    ) -> Result<Gfx10BufferResource, ResourceError> {
        Gfx10BufferResource::builder()
            .base(base)
            .num_records(bytes)
            .swizzle_enable(true)
            .add_tid(true)
            .index_stride(if wave32 {
                IndexStride::S32
            } else {
                IndexStride::S64
            })
            .build()
    }

    /// Decodes four dwords. Every bit pattern is a resource; the bits no
    /// field names are kept.
    pub fn from_words(w: [u32; 4]) -> Gfx10BufferResource {
        let sel = |k: u32| DstSel::from_code((w[3] >> (3 * k)) as u8 & 7);
        Gfx10BufferResource {
            base: u64::from(w[0]) | u64::from(w[1] & 0xffff) << 32,
            stride: (w[1] >> 16) & 0x3fff,
            cache_swizzle: w[1] >> 30 & 1 != 0,
            swizzle_enable: w[1] >> 31 != 0,
            num_records: w[2],
            dst_sel: [sel(0), sel(1), sel(2), sel(3)],
            format: (w[3] >> 12 & 0x7f) as u8,
            index_stride: IndexStride::from_code((w[3] >> 21) as u8),
            add_tid: w[3] >> 23 & 1 != 0,
            resource_level: w[3] >> 24 & 1 != 0,
            oob_select: OobSelect::from_code((w[3] >> 28) as u8),
            resource_type: (w[3] >> 30) as u8,
            unnamed: w[3] & UNNAMED_W3,
        }
    }

    /// The four dwords, as a kernel loads them into SGPRs.
    pub fn to_words(&self) -> [u32; 4] {
        let mut w3 = 0u32;
        for (k, s) in self.dst_sel.iter().enumerate() {
            w3 |= u32::from(s.code()) << (3 * k);
        }
        w3 |= u32::from(self.format) << 12
            | (self.index_stride as u32) << 21
            | u32::from(self.add_tid) << 23
            | u32::from(self.resource_level) << 24
            | (self.oob_select as u32) << 28
            | u32::from(self.resource_type) << 30
            | self.unnamed;
        [
            self.base as u32,
            (self.base >> 32) as u32
                | self.stride << 16
                | u32::from(self.cache_swizzle) << 30
                | u32::from(self.swizzle_enable) << 31,
            self.num_records,
            w3,
        ]
    }

    /// The 16 bytes (little-endian dwords), as a by-value kernel argument.
    pub fn to_bytes(&self) -> [u8; 16] {
        let mut b = [0; 16];
        for (c, w) in b.chunks_exact_mut(4).zip(self.to_words()) {
            c.copy_from_slice(&w.to_le_bytes());
        }
        b
    }

    /// BASE (48 bits).
    pub fn base(&self) -> u64 {
        self.base
    }
    /// STRIDE in bytes (14 bits).
    pub fn stride(&self) -> u32 {
        self.stride
    }
    /// Cache swizzle.
    pub fn cache_swizzle(&self) -> bool {
        self.cache_swizzle
    }
    /// Swizzle enable (swizzled addressing, 4-byte elements).
    pub fn swizzle_enable(&self) -> bool {
        self.swizzle_enable
    }
    /// NUM_RECORDS.
    pub fn num_records(&self) -> u32 {
        self.num_records
    }
    /// DST_SEL_X, _Y, _Z, _W.
    pub fn dst_sel(&self) -> [DstSel; 4] {
        self.dst_sel
    }
    /// The FORMAT code (7 bits).
    pub fn format_code(&self) -> u8 {
        self.format
    }
    /// The data and number format FORMAT names (`None`: INVALID or
    /// reserved).
    pub fn format(&self) -> Option<(DataFormat, NumFormat)> {
        gfx10_format(self.format)
    }
    /// INDEX_STRIDE.
    pub fn index_stride(&self) -> IndexStride {
        self.index_stride
    }
    /// ADD_TID_ENABLE (the lane id is added to the index).
    pub fn add_tid(&self) -> bool {
        self.add_tid
    }
    /// RESOURCE_LEVEL.
    pub fn resource_level(&self) -> bool {
        self.resource_level
    }
    /// OOB_SELECT.
    pub fn oob_select(&self) -> OobSelect {
        self.oob_select
    }
    /// TYPE (0: buffer).
    pub fn resource_type(&self) -> u8 {
        self.resource_type
    }
    /// The word-3 bits no field names (bits 19–20 and 25–27), in place.
    pub fn unnamed_bits(&self) -> u32 {
        self.unnamed
    }
    /// A builder starting from this resource.
    pub fn to_builder(&self) -> Gfx10BufferResourceBuilder {
        Gfx10BufferResourceBuilder {
            v: *self,
            error: None,
        }
    }
}

impl fmt::Display for Gfx10BufferResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z, w] = self.dst_sel;
        write!(
            f,
            "V#{{base={:#x} stride={} cache_swizzle={} swizzle_enable={} num_records={} \
             dst_sel=[{x},{y},{z},{w}] format=",
            self.base,
            self.stride,
            u8::from(self.cache_swizzle),
            u8::from(self.swizzle_enable),
            self.num_records,
        )?;
        match self.format() {
            Some((d, n)) => write!(f, "[{d},{n}]")?,
            None => write!(f, "{}(invalid)", self.format)?,
        }
        write!(
            f,
            " index_stride={} add_tid={} resource_level={} oob_select={} type={}",
            self.index_stride.records(),
            u8::from(self.add_tid),
            u8::from(self.resource_level),
            self.oob_select as u8,
            self.resource_type
        )?;
        if self.unnamed != 0 {
            write!(f, " unnamed_bits={:#x}", self.unnamed)?;
        }
        f.write_str("}")
    }
}

impl From<Gfx10BufferResource> for [u32; 4] {
    fn from(v: Gfx10BufferResource) -> [u32; 4] {
        v.to_words()
    }
}

impl ArgField for Gfx10BufferResource {
    /// A 16-byte by-value argument.
    fn arg_value(&self) -> ArgValue {
        ArgValue::Scalar(self.to_bytes().to_vec())
    }
}

/// Sets the fields of a [`Gfx10BufferResource`] one by one; the first
/// value that does not fit is the error `build` returns.
#[derive(Debug, Clone)]
#[must_use]
pub struct Gfx10BufferResourceBuilder {
    v: Gfx10BufferResource,
    error: Option<ResourceError>,
}

impl Gfx10BufferResourceBuilder {
    fn check(&mut self, field: &'static str, value: u64, max: u64) -> bool {
        if value > max {
            self.error
                .get_or_insert(ResourceError::OutOfRange { field, value, max });
            false
        } else {
            true
        }
    }

    /// BASE: a 48-bit byte address.
    pub fn base(mut self, base: u64) -> Self {
        if self.check("BASE", base, (1 << 48) - 1) {
            self.v.base = base;
        }
        self
    }
    /// STRIDE: bytes per record, 14 bits.
    pub fn stride(mut self, stride: u64) -> Self {
        if self.check("STRIDE", stride, 0x3fff) {
            self.v.stride = stride as u32;
        }
        self
    }
    /// Cache swizzle (bit 62).
    pub fn cache_swizzle(mut self, on: bool) -> Self {
        self.v.cache_swizzle = on;
        self
    }
    /// Swizzle enable (bit 63).
    pub fn swizzle_enable(mut self, on: bool) -> Self {
        self.v.swizzle_enable = on;
        self
    }
    /// NUM_RECORDS (32 bits): bytes for the raw check, records otherwise.
    pub fn num_records(mut self, n: u64) -> Self {
        if self.check("NUM_RECORDS", n, u64::from(u32::MAX)) {
            self.v.num_records = n as u32;
        }
        self
    }
    /// DST_SEL_X, _Y, _Z, _W.
    pub fn dst_sel(mut self, sel: [DstSel; 4]) -> Self {
        self.v.dst_sel = sel;
        self
    }
    /// FORMAT from a data and number format the gfx10 table has.
    pub fn format(mut self, data: DataFormat, num: NumFormat) -> Self {
        match gfx10_format_code(data, num) {
            Some(c) => self.v.format = c,
            None => {
                self.error
                    .get_or_insert(ResourceError::NoGfx10Format(data, num));
            }
        }
        self
    }
    /// FORMAT as a raw 7-bit code (invalid and reserved codes included).
    pub fn format_code(mut self, code: u8) -> Self {
        if self.check("FORMAT", u64::from(code), 0x7f) {
            self.v.format = code;
        }
        self
    }
    /// INDEX_STRIDE (swizzle mode).
    pub fn index_stride(mut self, stride: IndexStride) -> Self {
        self.v.index_stride = stride;
        self
    }
    /// ADD_TID_ENABLE: add the lane id to the index.
    pub fn add_tid(mut self, on: bool) -> Self {
        self.v.add_tid = on;
        self
    }
    /// RESOURCE_LEVEL (bit 24; 1 for gfx10 resources).
    pub fn resource_level(mut self, on: bool) -> Self {
        self.v.resource_level = on;
        self
    }
    /// OOB_SELECT.
    pub fn oob_select(mut self, oob: OobSelect) -> Self {
        self.v.oob_select = oob;
        self
    }
    /// TYPE (2 bits; 0 is a buffer).
    pub fn resource_type(mut self, ty: u8) -> Self {
        if self.check("TYPE", u64::from(ty), 3) {
            self.v.resource_type = ty;
        }
        self
    }
    /// The word-3 bits no field names (a mask within bits 19–20 and 25–27).
    pub fn unnamed_bits(mut self, bits: u32) -> Self {
        if bits & !UNNAMED_W3 != 0 {
            self.error.get_or_insert(ResourceError::OutOfRange {
                field: "unnamed bits of word 3",
                value: u64::from(bits),
                max: u64::from(UNNAMED_W3),
            });
        } else {
            self.v.unnamed = bits;
        }
        self
    }

    /// The resource, or the first field that did not fit.
    pub fn build(self) -> Result<Gfx10BufferResource, ResourceError> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_table_ends() {
        use DataFormat::*;
        use NumFormat::*;
        assert_eq!(gfx10_format(0), None);
        assert_eq!(gfx10_format(1), Some((D8, Unorm)));
        assert_eq!(gfx10_format(13), Some((D16, Float)));
        assert_eq!(gfx10_format(20), Some((D32, Uint)));
        assert_eq!(gfx10_format(22), Some((D32, Float)));
        assert_eq!(gfx10_format(36), Some((D10_11_11, Float)));
        assert_eq!(gfx10_format(56), Some((D8_8_8_8, Unorm)));
        assert_eq!(gfx10_format(71), Some((D16_16_16_16, Float)));
        assert_eq!(gfx10_format(77), Some((D32_32_32_32, Float)));
        assert_eq!(gfx10_format(78), None);
        for c in 1..=77 {
            let (d, n) = gfx10_format(c).unwrap();
            assert_eq!(gfx10_format_code(d, n), Some(c));
        }
        assert_eq!(gfx10_format_code(D32, Unorm), None);
    }

    #[test]
    fn scratch_words_and_round_trip() {
        let v = Gfx10BufferResource::scratch(0x1234_5678_9000, 0x1_0000, false).unwrap();
        let w = v.to_words();
        assert_eq!(w, [0x5678_9000, 0x8000_1234, 0x1_0000, 0x31e1_6fac]);
        let w32 = Gfx10BufferResource::scratch(0, 64, true)
            .unwrap()
            .to_words();
        assert_eq!(w32[3], 0x31c1_6fac);
        for words in [w, [1, 2, 3, 0xffff_ffff], [0, 0, 0, 0x0e18_0000]] {
            assert_eq!(
                Gfx10BufferResource::from_words(words).to_words(),
                words,
                "{words:x?}"
            );
        }
        assert!(matches!(
            Gfx10BufferResource::builder()
                .format(DataFormat::D8, NumFormat::Float)
                .build(),
            Err(ResourceError::NoGfx10Format(..))
        ));
        assert!(v.to_string().contains("oob_select=3"), "{v}");
    }
}
