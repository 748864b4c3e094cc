//! The image resource (T#): 128 or 256 bits describing an image in memory.
//!
//! Fields are the seed's table, bit for bit:
//!
//! | bits | field | type here |
//! |---|---|---|
//! | 0-39 | BASE (address / 256) | `base_address: u64` (the byte address, 256-aligned) |
//! | 40-51 | MIN_LOD | `f32`, unsigned 4.8 fixed point |
//! | 52-57 | DATA_FORMAT | [`DataFormat`] |
//! | 58-61 | NUM_FORMAT | [`NumFormat`] |
//! | 64-77, 78-91 | WIDTH-1, HEIGHT-1 | `width`, `height` (texels) |
//! | 92-94 | PERF_MOD | `u8` (3 bits) |
//! | 95 | INTERLACED | `bool` |
//! | 96-107 | DST_SEL_X/Y/Z/W | `[DstSel; 4]` |
//! | 108-111, 112-115 | BASE_LEVEL, LAST_LEVEL | `u8` (4 bits) |
//! | 116-120 | TILING_INDEX | `u8` (5 bits; only [`LINEAR_TILING`] runs) |
//! | 121 | POW2PAD | `bool` |
//! | 124-127 | TYPE | [`ImageType`] |
//! | 128-140 | DEPTH-1 | `depth` (slices of 3-D images and arrays) |
//! | 141-154 | PITCH-1 | `pitch` (texels per row) |
//! | 160-172, 173-185 | BASE_ARRAY, LAST_ARRAY | `u16` (13 bits) |
//! | 192-203 | MIN_LOD_WARN | `f32`, unsigned 4.8 fixed point |
//!
//! 1-D, 2-D and 2-D MSAA images fit the 128-bit form (the first four words;
//! [`ImageResource::to_words128`]); the others need all eight.
//!
//! ```
//! use gcn_runtime::descriptor::{ImageResource, ImageType};
//! use gcn_runtime::descriptor::image::{DataFormat, NumFormat};
//! let t = ImageResource::new(ImageType::Image2d, DataFormat::D8_8_8_8, NumFormat::Unorm)
//!     .base_address(0x10_0000)
//!     .size(64, 32, 1);
//! let words = t.to_words().unwrap();
//! assert_eq!(ImageResource::from_words(&words).unwrap(), t);
//! ```

use std::fmt;

use super::fields::{bits, from_ufixed, lod_fields, set_bits, to_ufixed, DescriptorError};
use super::sampler::{coded_enum, setters};
use crate::format::image::{image_error_message, ImageCodec};
pub use crate::format::{DataFormat, DstSel, NumFormat};

/// The tiling index of linear (untiled) images, the only layout the
/// emulator knows (the seed: "Index 8 (by default) choose the linear
/// access").
pub const LINEAR_TILING: u8 = 8;

coded_enum!(
    /// TYPE: what kind of image the resource describes.
    ImageType {
        /// A buffer (not an image: an error for image instructions).
        Buffer = 0, "BUFFER";
        /// A 1-D image.
        Image1d = 8, "IMAGE_1D";
        /// A 2-D image.
        #[default]
        Image2d = 9, "IMAGE_2D";
        /// A 3-D image.
        Image3d = 10, "IMAGE_3D";
        /// A cube map: six 2-D faces (slices 0-5 of each cube).
        Cube = 11, "IMAGE_CUBE";
        /// An array of 1-D images.
        Image1dArray = 12, "IMAGE_1D_ARRAY";
        /// An array of 2-D images.
        Image2dArray = 13, "IMAGE_2D_ARRAY";
        /// A multisampled 2-D image (not supported by the emulator).
        Image2dMsaa = 14, "IMAGE_2D_MSAA";
        /// An array of multisampled 2-D images (not supported by the emulator).
        Image2dMsaaArray = 15, "IMAGE_2D_MSAA_ARRAY";
    }
);

impl ImageType {
    /// Number of coordinates that address a texel of one slice (1-3).
    pub fn dims(self) -> usize {
        match self {
            ImageType::Buffer | ImageType::Image1d | ImageType::Image1dArray => 1,
            ImageType::Image3d => 3,
            _ => 2,
        }
    }

    /// True for the types with slices (arrays and cubes).
    pub fn is_array(self) -> bool {
        matches!(
            self,
            ImageType::Image1dArray
                | ImageType::Image2dArray
                | ImageType::Image2dMsaaArray
                | ImageType::Cube
        )
    }

    /// True for the types the 128-bit form can describe.
    pub fn fits_128(self) -> bool {
        matches!(
            self,
            ImageType::Image1d | ImageType::Image2d | ImageType::Image2dMsaa
        )
    }
}

/// An image resource (T#): every field of the seed's table, typed.
///
/// Start from [`ImageResource::new`] (type, formats; 1x1x1, pitch = width,
/// identity DST_SEL, linear tiling), set fields with the chainable setters,
/// get the words with [`ImageResource::to_words`] (which validates) and
/// read words back with [`ImageResource::from_words`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ImageResource {
    /// Byte address of mip level 0 (a multiple of 256).
    pub base_address: u64,
    /// MIN_LOD (0 ..= 15.996).
    pub min_lod: f32,
    /// DATA_FORMAT.
    pub data_format: DataFormat,
    /// NUM_FORMAT.
    pub num_format: NumFormat,
    /// Width in texels (1 ..= 16384).
    pub width: u32,
    /// Height in texels (1 ..= 16384).
    pub height: u32,
    /// PERF_MOD (3 bits).
    pub perf_mod: u8,
    /// INTERLACED.
    pub interlaced: bool,
    /// DST_SEL_X, _Y, _Z, _W.
    pub dst_sel: [DstSel; 4],
    /// BASE_LEVEL (0-15).
    pub base_level: u8,
    /// LAST_LEVEL (0-15).
    pub last_level: u8,
    /// TILING_INDEX (0-31).
    pub tiling_index: u8,
    /// POW2PAD.
    pub pow2pad: bool,
    /// TYPE.
    pub image_type: ImageType,
    /// Depth of a 3-D image, or number of slices of an array (1 ..= 8192).
    pub depth: u32,
    /// Texels per row of level 0 (width ..= 16384).
    pub pitch: u32,
    /// BASE_ARRAY (first slice).
    pub base_array: u16,
    /// LAST_ARRAY (last slice).
    pub last_array: u16,
    /// MIN_LOD_WARN (0 ..= 15.996).
    pub min_lod_warn: f32,
}

const WHAT: &str = "image resource";

fn err(field: &'static str, message: String) -> DescriptorError {
    DescriptorError {
        descriptor: WHAT,
        field,
        message,
    }
}

impl ImageResource {
    /// A 1x1x1 image of `image_type` and the formats, pitch 1, identity
    /// DST_SEL, linear tiling, one mip level, one slice, at address 0.
    pub fn new(image_type: ImageType, data_format: DataFormat, num_format: NumFormat) -> Self {
        ImageResource {
            base_address: 0,
            min_lod: 0.0,
            data_format,
            num_format,
            width: 1,
            height: 1,
            perf_mod: 0,
            interlaced: false,
            dst_sel: DstSel::IDENTITY,
            base_level: 0,
            last_level: 0,
            tiling_index: LINEAR_TILING,
            pow2pad: false,
            image_type,
            depth: 1,
            pitch: 1,
            base_array: 0,
            last_array: 0,
            min_lod_warn: 0.0,
        }
    }

    setters! {
        /// Sets the base address (bytes, 256-aligned).
        base_address: u64;
        /// Sets MIN_LOD.
        min_lod: f32;
        /// Sets DATA_FORMAT.
        data_format: DataFormat;
        /// Sets NUM_FORMAT.
        num_format: NumFormat;
        /// Sets the width (texels); see also [`ImageResource::size`].
        width: u32;
        /// Sets the height (texels).
        height: u32;
        /// Sets PERF_MOD.
        perf_mod: u8;
        /// Sets INTERLACED.
        interlaced: bool;
        /// Sets DST_SEL_X/Y/Z/W.
        dst_sel: [DstSel; 4];
        /// Sets BASE_LEVEL.
        base_level: u8;
        /// Sets LAST_LEVEL.
        last_level: u8;
        /// Sets TILING_INDEX.
        tiling_index: u8;
        /// Sets POW2PAD.
        pow2pad: bool;
        /// Sets TYPE.
        image_type: ImageType;
        /// Sets the depth (3-D) or slice count (arrays).
        depth: u32;
        /// Sets the pitch (texels per row).
        pitch: u32;
        /// Sets BASE_ARRAY.
        base_array: u16;
        /// Sets LAST_ARRAY.
        last_array: u16;
        /// Sets MIN_LOD_WARN.
        min_lod_warn: f32;
    }

    /// Sets width, height and depth (slices for arrays), the pitch to the
    /// width and, for arrays, LAST_ARRAY to the last slice.
    pub fn size(mut self, width: u32, height: u32, depth: u32) -> Self {
        self.width = width;
        self.height = height;
        self.depth = depth;
        self.pitch = width;
        if self.image_type.is_array() {
            self.last_array = depth.saturating_sub(1).min(0x1fff) as u16;
        }
        self
    }

    /// Sets BASE_LEVEL and LAST_LEVEL.
    pub fn levels(self, base: u8, last: u8) -> Self {
        self.base_level(base).last_level(last)
    }

    /// Checks every field against its range and the seed's rules.
    pub fn validate(&self) -> Result<(), DescriptorError> {
        let range = |name: &'static str, v: u64, lo: u64, hi: u64| {
            if v < lo || v > hi {
                Err(err(name, format!("{v} is outside {lo}..={hi}")))
            } else {
                Ok(())
            }
        };
        if !self.base_address.is_multiple_of(256) {
            return Err(err(
                "BASE",
                format!("{:#x} is not a multiple of 256", self.base_address),
            ));
        }
        range("BASE", self.base_address >> 8, 0, (1 << 40) - 1)?;
        if matches!(self.data_format, DataFormat::Invalid | DataFormat::Reserved) {
            return Err(err(
                "DATA_FORMAT",
                format!("{} is not an image format", self.data_format),
            ));
        }
        if self.num_format == NumFormat::Reserved8 {
            return Err(err(
                "NUM_FORMAT",
                format!("{} is not a number format", self.num_format),
            ));
        }
        if let Err(e) = ImageCodec::new(self.data_format, self.num_format) {
            return Err(err(
                "DATA_FORMAT",
                format!("cannot be read: {}", image_error_message(&e)),
            ));
        }
        if self.image_type == ImageType::Buffer {
            return Err(err("TYPE", "BUFFER is not an image type".into()));
        }
        range("WIDTH", self.width.into(), 1, 1 << 14)?;
        range("HEIGHT", self.height.into(), 1, 1 << 14)?;
        range("DEPTH", self.depth.into(), 1, 1 << 13)?;
        range("PITCH", self.pitch.into(), self.width.into(), 1 << 14)?;
        if self.image_type.dims() == 1 && self.height != 1 {
            return Err(err(
                "HEIGHT",
                format!(
                    "a {} image has height 1, not {}",
                    self.image_type, self.height
                ),
            ));
        }
        if !self.image_type.is_array() && self.image_type != ImageType::Image3d && self.depth != 1 {
            return Err(err(
                "DEPTH",
                format!(
                    "a {} image has depth 1, not {}",
                    self.image_type, self.depth
                ),
            ));
        }
        range("PERF_MOD", self.perf_mod.into(), 0, 7)?;
        range("LAST_LEVEL", self.last_level.into(), 0, 15)?;
        range(
            "BASE_LEVEL",
            self.base_level.into(),
            0,
            self.last_level.into(),
        )?;
        range("TILING_INDEX", self.tiling_index.into(), 0, 31)?;
        range("LAST_ARRAY", self.last_array.into(), 0, 0x1fff)?;
        range(
            "BASE_ARRAY",
            self.base_array.into(),
            0,
            self.last_array.into(),
        )?;
        if self.image_type.is_array() {
            range(
                "LAST_ARRAY",
                self.last_array.into(),
                0,
                u64::from(self.depth) - 1,
            )?;
        }
        lod_fields(WHAT, self.min_lod, self.min_lod_warn)?;
        Ok(())
    }

    /// The eight words of the 256-bit form (validated).
    pub fn to_words(&self) -> Result<[u32; 8], DescriptorError> {
        self.validate()?;
        let mut w = [0u32; 8];
        let fixed = |x| to_ufixed(x, 12, 8).unwrap_or(0);
        set_bits(&mut w, 0, 40, self.base_address >> 8);
        set_bits(&mut w, 40, 12, fixed(self.min_lod));
        set_bits(&mut w, 52, 6, self.data_format.code().into());
        set_bits(&mut w, 58, 4, self.num_format.code().into());
        set_bits(&mut w, 64, 14, u64::from(self.width - 1));
        set_bits(&mut w, 78, 14, u64::from(self.height - 1));
        set_bits(&mut w, 92, 3, self.perf_mod.into());
        set_bits(&mut w, 95, 1, self.interlaced.into());
        for (i, s) in self.dst_sel.iter().enumerate() {
            set_bits(&mut w, 96 + 3 * i as u32, 3, s.code().into());
        }
        set_bits(&mut w, 108, 4, self.base_level.into());
        set_bits(&mut w, 112, 4, self.last_level.into());
        set_bits(&mut w, 116, 5, self.tiling_index.into());
        set_bits(&mut w, 121, 1, self.pow2pad.into());
        set_bits(&mut w, 124, 4, self.image_type.code().into());
        set_bits(&mut w, 128, 13, u64::from(self.depth - 1));
        set_bits(&mut w, 141, 14, u64::from(self.pitch - 1));
        set_bits(&mut w, 160, 13, self.base_array.into());
        set_bits(&mut w, 173, 13, self.last_array.into());
        set_bits(&mut w, 192, 12, fixed(self.min_lod_warn));
        Ok(w)
    }

    /// The four words of the 128-bit form: only for 1-D, 2-D and 2-D MSAA
    /// images whose depth, pitch, slices and MIN_LOD_WARN are the
    /// defaults the 128-bit form implies (depth 1, pitch = width, one
    /// slice, 0).
    pub fn to_words128(&self) -> Result<[u32; 4], DescriptorError> {
        if !self.image_type.fits_128() {
            return Err(err(
                "TYPE",
                format!("a {} image needs the 256-bit form", self.image_type),
            ));
        }
        if self.pitch != self.width
            || self.base_array != 0
            || self.last_array != 0
            || self.min_lod_warn != 0.0
        {
            return Err(err(
                "PITCH",
                "pitch, array range or MIN_LOD_WARN other than the defaults need the 256-bit form"
                    .into(),
            ));
        }
        let w = self.to_words()?;
        Ok([w[0], w[1], w[2], w[3]])
    }

    /// Reads a T# from 4 (128-bit form) or 8 words. Codes the seed does not
    /// define are errors naming the field; with 4 words depth is 1, the
    /// pitch the width and the array range 0..=0. The result is not
    /// validated beyond the codes (the emulator faults on what it cannot
    /// run; [`ImageResource::validate`] checks the rest).
    pub fn from_words(w: &[u32]) -> Result<Self, DescriptorError> {
        if w.len() != 4 && w.len() != 8 {
            return Err(err(
                "BASE",
                format!("a T# has 4 or 8 words, not {}", w.len()),
            ));
        }
        fn code<T>(
            w: &[u32],
            lo: u32,
            len: u32,
            name: &'static str,
            f: fn(u8) -> Option<T>,
        ) -> Result<T, DescriptorError> {
            let c = bits(w, lo, len) as u8;
            f(c).ok_or_else(|| err(name, format!("code {c} is not defined")))
        }
        let mut dst_sel = [DstSel::X; 4];
        for (i, s) in dst_sel.iter_mut().enumerate() {
            *s = DstSel::from_code(bits(w, 96 + 3 * i as u32, 3) as u8);
        }
        let width = bits(w, 64, 14) as u32 + 1;
        let long = w.len() == 8;
        Ok(ImageResource {
            base_address: bits(w, 0, 40) << 8,
            min_lod: from_ufixed(bits(w, 40, 12), 8),
            data_format: code(w, 52, 6, "DATA_FORMAT", DataFormat::from_code)?,
            num_format: code(w, 58, 4, "NUM_FORMAT", NumFormat::from_code)?,
            width,
            height: bits(w, 78, 14) as u32 + 1,
            perf_mod: bits(w, 92, 3) as u8,
            interlaced: bits(w, 95, 1) != 0,
            dst_sel,
            base_level: bits(w, 108, 4) as u8,
            last_level: bits(w, 112, 4) as u8,
            tiling_index: bits(w, 116, 5) as u8,
            pow2pad: bits(w, 121, 1) != 0,
            image_type: code(w, 124, 4, "TYPE", ImageType::from_code)?,
            depth: if long { bits(w, 128, 13) as u32 + 1 } else { 1 },
            pitch: if long {
                bits(w, 141, 14) as u32 + 1
            } else {
                width
            },
            base_array: bits(w, 160, 13) as u16,
            last_array: bits(w, 173, 13) as u16,
            min_lod_warn: from_ufixed(bits(w, 192, 12), 8),
        })
    }
}

impl fmt::Display for ImageResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.dst_sel;
        write!(
            f,
            "T#{{{} {}x{}x{} pitch {} {}/{} at {:#x}, levels {}..={}, slices {}..={}, \
             dst_sel {}{}{}{}, tiling {}, min_lod {}, min_lod_warn {}, perf_mod {}, \
             interlaced {}, pow2pad {}}}",
            self.image_type,
            self.width,
            self.height,
            self.depth,
            self.pitch,
            self.data_format,
            self.num_format,
            self.base_address,
            self.base_level,
            self.last_level,
            self.base_array,
            self.last_array,
            s[0],
            s[1],
            s[2],
            s[3],
            self.tiling_index,
            self.min_lod,
            self.min_lod_warn,
            self.perf_mod,
            self.interlaced,
            self.pow2pad
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t2d() -> ImageResource {
        ImageResource::new(ImageType::Image2d, DataFormat::D8_8_8_8, NumFormat::Unorm).size(4, 4, 1)
    }

    #[test]
    fn fields_land_on_the_seed_bits() {
        let w = t2d()
            .base_address(0x12_3456_7800)
            .size(0x3fff, 0x2000, 1)
            .pitch(0x4000)
            .min_lod(1.0)
            .levels(2, 5)
            .to_words()
            .unwrap();
        // BASE = address >> 8 in bits 0-39.
        assert_eq!(w[0], 0x1234_5678);
        // MIN_LOD 1.0 = 0x100 at bit 40 (word 1 bit 8); DATA_FORMAT 10 at
        // bit 52 (word 1 bit 20); NUM_FORMAT 0.
        assert_eq!(w[1], 0x100 << 8 | 10 << 20);
        // WIDTH-1 = 0x3ffe, HEIGHT-1 = 0x1fff at bit 78 (word 2 bit 14).
        assert_eq!(w[2], 0x3ffe | 0x1fff << 14);
        // DST_SEL 4,5,6,7 at 96..107; BASE_LEVEL 2 at 108, LAST_LEVEL 5 at
        // 112, TILING_INDEX 8 at 116, TYPE 9 at 124.
        assert_eq!(
            w[3],
            4 | 5 << 3 | 6 << 6 | 7 << 9 | 2 << 12 | 5 << 16 | 8 << 20 | 9 << 28
        );
        // PITCH-1 = 0x3fff at bit 141 (word 4 bit 13).
        assert_eq!(w[4], 0x3fff << 13);
        let a = ImageResource::new(ImageType::Image2dArray, DataFormat::D32, NumFormat::Float)
            .size(2, 2, 10)
            .base_array(3)
            .min_lod_warn(0.5)
            .to_words()
            .unwrap();
        assert_eq!(a[4], 9 | 1 << 13); // DEPTH-1, PITCH-1
        assert_eq!(a[5], 3 | 9 << 13); // BASE_ARRAY, LAST_ARRAY
        assert_eq!(a[6], 0x80); // MIN_LOD_WARN 0.5
        assert_eq!(a[3] >> 28, 13);
    }

    #[test]
    fn words_round_trip_in_both_forms() {
        let t = t2d()
            .base_address(0x4000)
            .dst_sel([DstSel::Z, DstSel::Y, DstSel::X, DstSel::One])
            .perf_mod(5)
            .interlaced(true)
            .pow2pad(true)
            .min_lod(2.25);
        let w = t.to_words().unwrap();
        assert_eq!(ImageResource::from_words(&w).unwrap(), t);
        let w4 = t.to_words128().unwrap();
        assert_eq!(w4, [w[0], w[1], w[2], w[3]]);
        assert_eq!(ImageResource::from_words(&w4).unwrap(), t);
        let c = ImageResource::new(ImageType::Cube, DataFormat::D32, NumFormat::Float)
            .size(8, 8, 12)
            .levels(0, 3);
        assert_eq!(
            ImageResource::from_words(&c.to_words().unwrap()).unwrap(),
            c
        );
        assert!(c.to_words128().is_err());
    }

    #[test]
    fn validation_names_the_field() {
        let field = |t: ImageResource| t.to_words().unwrap_err().field;
        assert_eq!(field(t2d().base_address(0x1080)), "BASE");
        assert_eq!(field(t2d().width(0)), "WIDTH");
        assert_eq!(field(t2d().pitch(2)), "PITCH");
        assert_eq!(field(t2d().depth(2)), "DEPTH");
        assert_eq!(field(t2d().levels(3, 2)), "BASE_LEVEL");
        assert_eq!(field(t2d().data_format(DataFormat::Invalid)), "DATA_FORMAT");
        assert_eq!(field(t2d().num_format(NumFormat::Reserved8)), "NUM_FORMAT");
        assert_eq!(field(t2d().image_type(ImageType::Buffer)), "TYPE");
        assert_eq!(field(t2d().image_type(ImageType::Image1d)), "HEIGHT");
        assert_eq!(field(t2d().min_lod(16.0)), "MIN_LOD");
        let arr = ImageResource::new(ImageType::Image1dArray, DataFormat::D8, NumFormat::Uint)
            .size(4, 1, 2)
            .last_array(2);
        assert_eq!(field(arr), "LAST_ARRAY");
        // Type 1 is not in the seed's list.
        let e = ImageResource::from_words(&[0, 0, 0, 1 << 28]).unwrap_err();
        assert_eq!(e.field, "TYPE");
        assert!(t2d().to_string().contains("IMAGE_2D 4x4x1"));
    }
}
