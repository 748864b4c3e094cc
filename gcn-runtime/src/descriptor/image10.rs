//! The GCN 1.5 / RDNA 2 (gfx10) image resource (T#): 256 bits (128 with
//! `r128`) laid out differently from the GCN 1.0–1.4 T# of [`super::image`].
//!
//! # Source of the layout
//!
//! AMD's gfx10 register definitions of `SQ_IMG_RSRC_WORD0..7`, as AMD
//! publishes them in ROCm's image runtime (`ROCR-Runtime`,
//! `runtime/hsa-runtime/image/resource_nv.h`, the `sq_img_rsrc_word*_t`
//! bit-fields, and `image_manager_nv.cpp`, which fills them) and as Mesa
//! names them (`src/amd/common/sid.h`, `S_00A004_*`…`S_00A01C_*`,
//! `gfx10_make_texture_descriptor`). Bit numbers below count from bit 0 of
//! word 0:
//!
//! | bits | field | here |
//! |---|---|---|
//! | 0–39 | BASE_ADDRESS (address / 256) | `base_address` (bytes, 256-aligned) |
//! | 40–51 | MIN_LOD (4.8 fixed point) | `min_lod` |
//! | 52–60 | FORMAT (9 bits, gfx10's unified image format) | `format` |
//! | 62–75 | WIDTH-1 (word 1 bits 30–31 low, word 2 bits 0–11 high) | `width` |
//! | 78–91 | HEIGHT-1 | `height` |
//! | 95 | RESOURCE_LEVEL (1 on gfx10) | `resource_level` |
//! | 96–107 | DST_SEL_X/Y/Z/W | `dst_sel` |
//! | 108–111, 112–115 | BASE_LEVEL, LAST_LEVEL | `base_level`, `last_level` |
//! | 116–120 | SW_MODE (0: linear) | `sw_mode` |
//! | 121–123 | BC_SWIZZLE (gfx10.3) | `bc_swizzle` |
//! | 124–127 | TYPE (the GCN codes, [`ImageType`]) | `image_type` |
//! | 128–140 | DEPTH: 3-D depth-1, arrays the last slice of the view | `depth`, `last_array` |
//! | 128–141 | PITCH-1 of 1-D and 2-D images (gfx10.3: DEPTH and bit 13) | `pitch` |
//! | 144–156 | BASE_ARRAY | `base_array` |
//! | 160–163 | ARRAY_PITCH | `array_pitch` |
//! | 164–167 | MAX_MIP (levels of the resource - 1) | `max_mip` |
//! | 168–179 | MIN_LOD_WARN (4.8) | `min_lod_warn` |
//! | 180–182 | PERF_MOD | `perf_mod` |
//! | 213 | COMPRESSION_ENABLE (DCC) | `compression_enable` |
//!
//! Every other bit (word 5's CORNER_SAMPLES, LOD_HDW_CNT_EN, PRT_DEFAULT,
//! BIG_PAGE; word 6's counter bank and metadata controls; the metadata
//! address in words 6–7) is kept as it is ([`Gfx10ImageResource::other_bits`]),
//! so words read back unchanged.
//!
//! FORMAT is the enumeration gfx10 buffers use (codes 1–77,
//! [`crate::descriptor::gfx10_format`]); the image-only codes above 127
//! (sRGB, packed and block-compressed formats) are not in the emulator's
//! table: such a T# is an error naming the code.
//!
//! The memory layout a T# describes (addrlib's for SW_MODE 0) is
//! [`crate::image::Surface::gfx10`]'s.
//!
//! ```
//! use gcn_runtime::descriptor::{Gfx10ImageResource, ImageType};
//! use gcn_runtime::format::{DataFormat, NumFormat};
//! let t = Gfx10ImageResource::new(ImageType::Image2d, DataFormat::D8_8_8_8, NumFormat::Unorm)
//!     .unwrap()
//!     .base_address(0x10_0000)
//!     .size(64, 32, 1);
//! let words = t.to_words().unwrap();
//! // FORMAT 56 (8_8_8_8_UNORM) at bit 52; WIDTH-1 = 63 from bit 62.
//! assert_eq!(words[1], 56 << 20 | 3 << 30);
//! assert_eq!(words[2], 63 >> 2 | 31 << 14 | 1 << 31);
//! assert_eq!(Gfx10ImageResource::from_words(&words).unwrap(), t);
//! ```

use std::fmt;

use super::buffer10::{gfx10_format, gfx10_format_code};
use super::fields::{bits, from_ufixed, lod_fields, set_bits, to_ufixed, DescriptorError};
use super::image::ImageType;
use super::sampler::setters;
use crate::format::image::{image_error_message, ImageCodec};
use crate::format::{DataFormat, DstSel, NumFormat};

/// SW_MODE of a linear surface (`ADDR_SW_LINEAR`), the only layout the
/// emulator knows.
pub const SW_LINEAR: u8 = 0;

const WHAT: &str = "gfx10 image resource";

fn err(field: &'static str, message: String) -> DescriptorError {
    DescriptorError {
        descriptor: WHAT,
        field,
        message,
    }
}

/// A GCN 1.5 / RDNA 2 image resource (T#), every field typed.
///
/// Start from [`Gfx10ImageResource::new`] (type and formats; 1x1x1,
/// identity DST_SEL, linear, one level, RESOURCE_LEVEL 1), set fields with
/// the chainable setters, get the words with
/// [`Gfx10ImageResource::to_words`] (which validates) and read words back
/// with [`Gfx10ImageResource::from_words`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gfx10ImageResource {
    /// Byte address of the surface (a multiple of 256).
    pub base_address: u64,
    /// MIN_LOD (0 ..= 15.996).
    pub min_lod: f32,
    /// FORMAT: the 9-bit gfx10 image format code.
    pub format: u16,
    /// Width in texels of level 0 (1 ..= 16384).
    pub width: u32,
    /// Height in texels of level 0 (1 ..= 16384).
    pub height: u32,
    /// RESOURCE_LEVEL (Mesa and ROCm set it on gfx10).
    pub resource_level: bool,
    /// DST_SEL_X, _Y, _Z, _W.
    pub dst_sel: [DstSel; 4],
    /// BASE_LEVEL (0-15): the first level of the view.
    pub base_level: u8,
    /// LAST_LEVEL (0-15): the last level of the view.
    pub last_level: u8,
    /// SW_MODE (5 bits; only [`SW_LINEAR`] runs).
    pub sw_mode: u8,
    /// BC_SWIZZLE (3 bits, gfx10.3): how the border colour is swizzled.
    pub bc_swizzle: u8,
    /// TYPE.
    pub image_type: ImageType,
    /// Depth of a 3-D image (1 ..= 8192; 1 for the other types).
    pub depth: u32,
    /// The last slice of the view of an array or cube (a cube counts
    /// faces); 0 for the other types.
    pub last_array: u16,
    /// PITCH of a 1-D or 2-D image (gfx10.3 reads it): texels per row of
    /// a single-level surface. A value below the natural (256-byte
    /// aligned) pitch, such as the default 1, selects the natural pitch.
    pub pitch: u32,
    /// BASE_ARRAY: the first slice of the view.
    pub base_array: u16,
    /// ARRAY_PITCH (4 bits; only 0 runs).
    pub array_pitch: u8,
    /// MAX_MIP: the number of levels of the resource minus one (the
    /// layout has MAX_MIP + 1 levels; the view is BASE_LEVEL..=LAST_LEVEL).
    pub max_mip: u8,
    /// MIN_LOD_WARN (0 ..= 15.996).
    pub min_lod_warn: f32,
    /// PERF_MOD (3 bits).
    pub perf_mod: u8,
    /// COMPRESSION_ENABLE (DCC; not supported by the emulator).
    pub compression_enable: bool,
    /// The bits no field above names, in place (one entry per word).
    pub other_bits: [u32; 8],
}

/// The bits of each word the named fields cover (word 4's bit 13 belongs
/// to PITCH for 1-D and 2-D images only: see [`named_mask`]).
const NAMED: [u32; 8] = [
    u32::MAX,
    0xdfff_ffff, // word 1: all but bit 29
    0x8fff_cfff, // word 2: WIDTH_HI, HEIGHT, RESOURCE_LEVEL
    u32::MAX,    // word 3
    0x1fff_1fff, // word 4: DEPTH, BASE_ARRAY
    0x007f_ffff, // word 5: ARRAY_PITCH .. PERF_MOD
    1 << 21,     // word 6: COMPRESSION_ENABLE
    0,
];

fn named_mask(ty: ImageType) -> [u32; 8] {
    let mut m = NAMED;
    if has_pitch(ty) {
        m[4] |= 1 << 13;
    }
    m
}

/// True for the types whose word-4 DEPTH field is a pitch on gfx10.3.
fn has_pitch(ty: ImageType) -> bool {
    matches!(
        ty,
        ImageType::Image1d | ImageType::Image2d | ImageType::Image2dMsaa
    )
}

impl Gfx10ImageResource {
    /// A 1x1x1 linear image of `image_type` and the formats (which must be
    /// in the gfx10 table: the error names them otherwise), identity
    /// DST_SEL, one level, at address 0.
    pub fn new(
        image_type: ImageType,
        data_format: DataFormat,
        num_format: NumFormat,
    ) -> Result<Self, DescriptorError> {
        let format = gfx10_format_code(data_format, num_format).ok_or_else(|| {
            err(
                "FORMAT",
                format!("{data_format}/{num_format} has no gfx10 format code"),
            )
        })?;
        Ok(Gfx10ImageResource {
            base_address: 0,
            min_lod: 0.0,
            format: format.into(),
            width: 1,
            height: 1,
            resource_level: true,
            dst_sel: DstSel::IDENTITY,
            base_level: 0,
            last_level: 0,
            sw_mode: SW_LINEAR,
            bc_swizzle: 0,
            image_type,
            depth: 1,
            last_array: 0,
            pitch: 1,
            base_array: 0,
            array_pitch: 0,
            max_mip: 0,
            min_lod_warn: 0.0,
            perf_mod: 0,
            compression_enable: false,
            other_bits: [0; 8],
        })
    }

    setters! {
        /// Sets the base address (bytes, 256-aligned).
        base_address: u64;
        /// Sets MIN_LOD.
        min_lod: f32;
        /// Sets FORMAT as a raw 9-bit code.
        format: u16;
        /// Sets the width (texels); see also [`Gfx10ImageResource::size`].
        width: u32;
        /// Sets the height (texels).
        height: u32;
        /// Sets RESOURCE_LEVEL.
        resource_level: bool;
        /// Sets DST_SEL_X/Y/Z/W.
        dst_sel: [DstSel; 4];
        /// Sets BASE_LEVEL.
        base_level: u8;
        /// Sets LAST_LEVEL.
        last_level: u8;
        /// Sets SW_MODE.
        sw_mode: u8;
        /// Sets BC_SWIZZLE.
        bc_swizzle: u8;
        /// Sets TYPE.
        image_type: ImageType;
        /// Sets the depth of a 3-D image.
        depth: u32;
        /// Sets the last slice of an array's view.
        last_array: u16;
        /// Sets the pitch (texels per row) of a single-level 1-D or 2-D image.
        pitch: u32;
        /// Sets BASE_ARRAY.
        base_array: u16;
        /// Sets ARRAY_PITCH.
        array_pitch: u8;
        /// Sets MAX_MIP.
        max_mip: u8;
        /// Sets MIN_LOD_WARN.
        min_lod_warn: f32;
        /// Sets PERF_MOD.
        perf_mod: u8;
        /// Sets COMPRESSION_ENABLE.
        compression_enable: bool;
        /// Sets the bits no field names (masked to them by `to_words`).
        other_bits: [u32; 8];
    }

    /// Sets FORMAT from a data and number format the gfx10 table has.
    pub fn formats(self, data: DataFormat, num: NumFormat) -> Result<Self, DescriptorError> {
        let code = gfx10_format_code(data, num)
            .ok_or_else(|| err("FORMAT", format!("{data}/{num} has no gfx10 format code")))?;
        Ok(self.format(code.into()))
    }

    /// The data and number format of FORMAT (`None`: a code outside the
    /// gfx10 table the emulator has, codes 1–77).
    pub fn data_num_format(&self) -> Option<(DataFormat, NumFormat)> {
        u8::try_from(self.format).ok().and_then(gfx10_format)
    }

    /// Sets width, height and depth: for 3-D images the depth, for arrays
    /// and cubes the number of slices (LAST_ARRAY = `depth - 1`).
    pub fn size(mut self, width: u32, height: u32, depth: u32) -> Self {
        self.width = width;
        self.height = height;
        if self.image_type == ImageType::Image3d {
            self.depth = depth;
        } else if self.image_type.is_array() {
            self.last_array = depth.saturating_sub(1).min(0x1fff) as u16;
        }
        self
    }

    /// Sets BASE_LEVEL and LAST_LEVEL, and MAX_MIP to at least LAST_LEVEL.
    pub fn levels(mut self, base: u8, last: u8) -> Self {
        self.base_level = base;
        self.last_level = last;
        self.max_mip = self.max_mip.max(last);
        self
    }

    /// Slices the layout holds: the depth of a 3-D image, LAST_ARRAY + 1
    /// of an array or cube, 1 otherwise.
    pub fn slices(&self) -> u32 {
        if self.image_type == ImageType::Image3d {
            self.depth
        } else if self.image_type.is_array() {
            u32::from(self.last_array) + 1
        } else {
            1
        }
    }

    /// Checks every field against its range and the layout's rules.
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
                "BASE_ADDRESS",
                format!("{:#x} is not a multiple of 256", self.base_address),
            ));
        }
        range("BASE_ADDRESS", self.base_address >> 8, 0, (1 << 40) - 1)?;
        let Some((data, num)) = self.data_num_format() else {
            return Err(err(
                "FORMAT",
                format!(
                    "code {} is not in the gfx10 format table (codes 1-77)",
                    self.format
                ),
            ));
        };
        if let Err(e) = ImageCodec::new(data, num) {
            return Err(err(
                "FORMAT",
                format!("cannot be read: {}", image_error_message(&e)),
            ));
        }
        if self.image_type == ImageType::Buffer {
            return Err(err("TYPE", "BUFFER is not an image type".into()));
        }
        range("WIDTH", self.width.into(), 1, 1 << 14)?;
        range("HEIGHT", self.height.into(), 1, 1 << 14)?;
        range("DEPTH", self.depth.into(), 1, 1 << 13)?;
        range("PITCH", self.pitch.into(), 1, 1 << 14)?;
        if self.image_type.dims() == 1 && self.height != 1 {
            return Err(err(
                "HEIGHT",
                format!(
                    "a {} image has height 1, not {}",
                    self.image_type, self.height
                ),
            ));
        }
        if self.image_type != ImageType::Image3d && self.depth != 1 {
            return Err(err(
                "DEPTH",
                format!(
                    "a {} image has depth 1, not {}",
                    self.image_type, self.depth
                ),
            ));
        }
        if !self.image_type.is_array() && (self.last_array != 0 || self.base_array != 0) {
            return Err(err(
                "BASE_ARRAY",
                format!("a {} image has no slices", self.image_type),
            ));
        }
        if !has_pitch(self.image_type) && self.pitch != 1 {
            return Err(err(
                "PITCH",
                format!("a {} image has no pitch field", self.image_type),
            ));
        }
        range("MAX_MIP", self.max_mip.into(), 0, 15)?;
        range("LAST_LEVEL", self.last_level.into(), 0, self.max_mip.into())?;
        range(
            "BASE_LEVEL",
            self.base_level.into(),
            0,
            self.last_level.into(),
        )?;
        range("SW_MODE", self.sw_mode.into(), 0, 31)?;
        range("BC_SWIZZLE", self.bc_swizzle.into(), 0, 7)?;
        range("PERF_MOD", self.perf_mod.into(), 0, 7)?;
        range("ARRAY_PITCH", self.array_pitch.into(), 0, 15)?;
        range("LAST_ARRAY", self.last_array.into(), 0, 0x1fff)?;
        range(
            "BASE_ARRAY",
            self.base_array.into(),
            0,
            self.last_array.into(),
        )?;
        lod_fields(WHAT, self.min_lod, self.min_lod_warn)?;
        Ok(())
    }

    /// The eight words (validated).
    pub fn to_words(&self) -> Result<[u32; 8], DescriptorError> {
        self.validate()?;
        let mask = named_mask(self.image_type);
        let mut w: [u32; 8] = std::array::from_fn(|i| self.other_bits[i] & !mask[i]);
        let fixed = |x| to_ufixed(x, 12, 8).unwrap_or(0);
        set_bits(&mut w, 0, 40, self.base_address >> 8);
        set_bits(&mut w, 40, 12, fixed(self.min_lod));
        set_bits(&mut w, 52, 9, self.format.into());
        set_bits(&mut w, 62, 14, u64::from(self.width - 1));
        set_bits(&mut w, 78, 14, u64::from(self.height - 1));
        set_bits(&mut w, 95, 1, self.resource_level.into());
        for (i, s) in self.dst_sel.iter().enumerate() {
            set_bits(&mut w, 96 + 3 * i as u32, 3, s.code().into());
        }
        set_bits(&mut w, 108, 4, self.base_level.into());
        set_bits(&mut w, 112, 4, self.last_level.into());
        set_bits(&mut w, 116, 5, self.sw_mode.into());
        set_bits(&mut w, 121, 3, self.bc_swizzle.into());
        set_bits(&mut w, 124, 4, self.image_type.code().into());
        if self.image_type == ImageType::Image3d {
            set_bits(&mut w, 128, 13, u64::from(self.depth - 1));
        } else if self.image_type.is_array() {
            set_bits(&mut w, 128, 13, self.last_array.into());
        } else if has_pitch(self.image_type) {
            set_bits(&mut w, 128, 14, u64::from(self.pitch - 1));
        }
        set_bits(&mut w, 144, 13, self.base_array.into());
        set_bits(&mut w, 160, 4, self.array_pitch.into());
        set_bits(&mut w, 164, 4, self.max_mip.into());
        set_bits(&mut w, 168, 12, fixed(self.min_lod_warn));
        set_bits(&mut w, 180, 3, self.perf_mod.into());
        set_bits(&mut w, 213, 1, self.compression_enable.into());
        Ok(w)
    }

    /// Reads a T# from 4 (`r128`: words 4–7 read as 0) or 8 words. A TYPE
    /// code that names no type is an error; nothing else is validated (the
    /// emulator faults on what it cannot run; [`Gfx10ImageResource::validate`]
    /// checks the rest).
    pub fn from_words(w: &[u32]) -> Result<Self, DescriptorError> {
        if w.len() != 4 && w.len() != 8 {
            return Err(err(
                "BASE_ADDRESS",
                format!("a T# has 4 or 8 words, not {}", w.len()),
            ));
        }
        let mut words = [0u32; 8];
        words[..w.len()].copy_from_slice(w);
        let w = &words;
        let c = bits(w, 124, 4) as u8;
        let image_type = ImageType::from_code(c)
            .ok_or_else(|| err("TYPE", format!("code {c} is not defined")))?;
        let mut dst_sel = [DstSel::X; 4];
        for (i, s) in dst_sel.iter_mut().enumerate() {
            *s = DstSel::from_code(bits(w, 96 + 3 * i as u32, 3) as u8);
        }
        let mask = named_mask(image_type);
        let field = bits(w, 128, 13) as u32;
        Ok(Gfx10ImageResource {
            base_address: bits(w, 0, 40) << 8,
            min_lod: from_ufixed(bits(w, 40, 12), 8),
            format: bits(w, 52, 9) as u16,
            width: bits(w, 62, 14) as u32 + 1,
            height: bits(w, 78, 14) as u32 + 1,
            resource_level: bits(w, 95, 1) != 0,
            dst_sel,
            base_level: bits(w, 108, 4) as u8,
            last_level: bits(w, 112, 4) as u8,
            sw_mode: bits(w, 116, 5) as u8,
            bc_swizzle: bits(w, 121, 3) as u8,
            image_type,
            depth: if image_type == ImageType::Image3d {
                field + 1
            } else {
                1
            },
            last_array: if image_type.is_array() {
                field as u16
            } else {
                0
            },
            pitch: if has_pitch(image_type) {
                bits(w, 128, 14) as u32 + 1
            } else {
                1
            },
            base_array: bits(w, 144, 13) as u16,
            array_pitch: bits(w, 160, 4) as u8,
            max_mip: bits(w, 164, 4) as u8,
            min_lod_warn: from_ufixed(bits(w, 168, 12), 8),
            perf_mod: bits(w, 180, 3) as u8,
            compression_enable: bits(w, 213, 1) != 0,
            other_bits: std::array::from_fn(|i| w[i] & !mask[i]),
        })
    }
}

impl fmt::Display for Gfx10ImageResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.dst_sel;
        write!(f, "T#{{{} {}x{}", self.image_type, self.width, self.height)?;
        if self.image_type == ImageType::Image3d {
            write!(f, "x{}", self.depth)?;
        }
        match self.data_num_format() {
            Some((d, n)) => write!(f, " {d}/{n}")?,
            None => write!(f, " format {}", self.format)?,
        }
        write!(
            f,
            " at {:#x}, levels {}..={} of {}, slices {}..={}, pitch {}, dst_sel {}{}{}{}, \
             sw_mode {}, min_lod {}, min_lod_warn {}, perf_mod {}, bc_swizzle {}, array_pitch {}, \
             resource_level {}, compression {}}}",
            self.base_address,
            self.base_level,
            self.last_level,
            u32::from(self.max_mip) + 1,
            self.base_array,
            self.last_array,
            self.pitch,
            s[0],
            s[1],
            s[2],
            s[3],
            self.sw_mode,
            self.min_lod,
            self.min_lod_warn,
            self.perf_mod,
            self.bc_swizzle,
            self.array_pitch,
            self.resource_level,
            self.compression_enable
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t2d() -> Gfx10ImageResource {
        Gfx10ImageResource::new(ImageType::Image2d, DataFormat::D8_8_8_8, NumFormat::Unorm)
            .unwrap()
            .size(4, 4, 1)
    }

    #[test]
    fn fields_land_on_the_register_bits() {
        // The bit positions of ROCR's resource_nv.h / Mesa's sid.h.
        let w = t2d()
            .base_address(0x1f12_3456_7800)
            .size(0x3fff, 0x2000, 1)
            .min_lod(1.0)
            .levels(2, 5)
            .to_words()
            .unwrap();
        assert_eq!(w[0], 0x1234_5678);
        // BASE_ADDRESS_HI 0x1f, MIN_LOD 0x100 at bit 8, FORMAT 56 at bit
        // 20, WIDTH[1:0] = 0x3ffe & 3 = 2 at bit 30.
        assert_eq!(w[1], 0x1f | 0x100 << 8 | 56 << 20 | 2 << 30);
        // WIDTH[13:2], HEIGHT-1 at bit 14, RESOURCE_LEVEL at bit 31.
        assert_eq!(w[2], 0x3ffe >> 2 | 0x1fff << 14 | 1 << 31);
        // DST_SEL 4,5,6,7; BASE_LEVEL 2 at 12, LAST_LEVEL 5 at 16; SW_MODE
        // 0; TYPE 9 at 28.
        assert_eq!(
            w[3],
            4 | 5 << 3 | 6 << 6 | 7 << 9 | 2 << 12 | 5 << 16 | 9 << 28
        );
        // MAX_MIP 5 at word 5 bit 4.
        assert_eq!(w[5], 5 << 4);
        let a = Gfx10ImageResource::new(ImageType::Image2dArray, DataFormat::D32, NumFormat::Float)
            .unwrap()
            .size(2, 2, 10)
            .base_array(3)
            .min_lod_warn(0.5)
            .perf_mod(4)
            .to_words()
            .unwrap();
        assert_eq!(a[1] >> 20 & 0x1ff, 22); // 32_FLOAT
        assert_eq!(a[4], 9 | 3 << 16); // DEPTH = last slice, BASE_ARRAY
        assert_eq!(a[5], 0x80 << 8 | 4 << 20); // MIN_LOD_WARN, PERF_MOD
        assert_eq!(a[3] >> 28, 13);
        let v = Gfx10ImageResource::new(ImageType::Image3d, DataFormat::D8, NumFormat::Uint)
            .unwrap()
            .size(4, 4, 7)
            .to_words()
            .unwrap();
        assert_eq!(v[4], 6);
        // gfx10.3 PITCH-1 in DEPTH and bit 13.
        let p = t2d().pitch(0x2040).to_words().unwrap();
        assert_eq!(p[4], 0x203f);
    }

    #[test]
    fn words_round_trip_with_unnamed_bits() {
        let t = t2d()
            .base_address(0x4000)
            .dst_sel([DstSel::Z, DstSel::Y, DstSel::X, DstSel::One])
            .bc_swizzle(3)
            .sw_mode(9)
            .min_lod(2.25)
            .compression_enable(true)
            .other_bits([
                0,
                1 << 29,
                3 << 28,
                0,
                1 << 31,
                1 << 26,
                0xff00_0001,
                0x1234,
            ]);
        let w = t.to_words().unwrap();
        assert_eq!(Gfx10ImageResource::from_words(&w).unwrap(), t);
        assert_eq!(
            Gfx10ImageResource::from_words(&w)
                .unwrap()
                .to_words()
                .unwrap(),
            w
        );
        // The 128-bit form reads words 4-7 as 0.
        let r = Gfx10ImageResource::from_words(&w[..4]).unwrap();
        assert_eq!((r.pitch, r.max_mip, r.compression_enable), (1, 0, false));
        let c = Gfx10ImageResource::new(ImageType::Cube, DataFormat::D32, NumFormat::Float)
            .unwrap()
            .size(8, 8, 12)
            .levels(0, 3);
        assert_eq!(
            Gfx10ImageResource::from_words(&c.to_words().unwrap()).unwrap(),
            c
        );
        assert_eq!(c.slices(), 12);
    }

    #[test]
    fn validation_names_the_field() {
        let field = |t: Gfx10ImageResource| t.to_words().unwrap_err().field;
        assert_eq!(field(t2d().base_address(0x1080)), "BASE_ADDRESS");
        assert_eq!(field(t2d().width(0)), "WIDTH");
        assert_eq!(field(t2d().depth(2)), "DEPTH");
        assert_eq!(field(t2d().levels(3, 2)), "BASE_LEVEL");
        assert_eq!(field(t2d().last_level(1)), "LAST_LEVEL");
        assert_eq!(field(t2d().format(0)), "FORMAT");
        assert_eq!(field(t2d().format(130)), "FORMAT");
        assert_eq!(field(t2d().image_type(ImageType::Buffer)), "TYPE");
        assert_eq!(field(t2d().image_type(ImageType::Image1d)), "HEIGHT");
        assert_eq!(field(t2d().min_lod(16.0)), "MIN_LOD");
        assert_eq!(field(t2d().last_array(1)), "BASE_ARRAY");
        let e = Gfx10ImageResource::new(ImageType::Image2d, DataFormat::D8, NumFormat::Float)
            .unwrap_err();
        assert_eq!(e.field, "FORMAT");
        let e = Gfx10ImageResource::from_words(&[0, 0, 0, 1 << 28]).unwrap_err();
        assert_eq!(e.field, "TYPE");
        assert!(
            t2d().to_string().contains("IMAGE_2D 4x4 8_8_8_8/UNORM"),
            "{}",
            t2d()
        );
    }
}
