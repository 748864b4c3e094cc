//! Device images: allocation, the linear layout, and texel upload/download.
//!
//! # The linear layout
//!
//! The seed leaves tiling to registers it cannot describe; the emulator
//! implements the linear tiling (TILING_INDEX 8, [`LINEAR_TILING`]) with
//! this layout, which [`DeviceImage`] and the MIMG instructions share
//! ([`Surface`]):
//!
//! - Texels are grouped in *elements* ([`Element`]): one texel for plain
//!   formats, 2x1 for GB_GR/BG_RG, 8x1 (one byte) for 1/1_REVERSED, 4x4
//!   blocks for BC1-BC7.
//! - Mip level `L` (0 = the largest, at BASE) is `max(1, W >> L)` by
//!   `max(1, H >> L)` texels; a 3-D image has `max(1, D >> L)` slices, an
//!   array or cube DEPTH slices at every level (a cube's DEPTH counts faces,
//!   six per cube: face `f` of cube `c` is slice `6c + f`).
//! - A row of level `L` holds `max(PITCH >> L, width_L)` texels, rounded up
//!   to whole elements; rows of elements follow each other, then slices,
//!   then the next level, without padding.
//!
//! BASE_LEVEL/LAST_LEVEL select which levels an instruction may use (a mip
//! index is relative to BASE_LEVEL); BASE_ARRAY/LAST_ARRAY which slices.

use std::fmt;

use bytemuck::Pod;

use crate::descriptor::image::LINEAR_TILING;
use crate::descriptor::{DescriptorError, ImageResource, ImageType};
use crate::format::image::{image_error_message, Element, ImageCodec};
use crate::format::{DstSel, FormatError};
use crate::kernel::DevicePtr;
use crate::memory::{AllocError, Buffer, Memory};

/// Why an image could not be created or accessed.
#[derive(Debug, Clone, PartialEq)]
pub enum ImageError {
    /// The resource is invalid.
    Descriptor(DescriptorError),
    /// The format pair cannot be used.
    Format(FormatError),
    /// The image type, tiling or feature is not supported by the emulator.
    Unsupported(String),
    /// Device memory could not be allocated.
    Alloc(AllocError),
    /// Texel data of the wrong size, or a level out of range.
    Data(String),
}

impl fmt::Display for ImageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImageError::Descriptor(e) => write!(f, "{e}"),
            ImageError::Format(e) => f.write_str(&image_error_message(e)),
            ImageError::Unsupported(m) | ImageError::Data(m) => f.write_str(m),
            ImageError::Alloc(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ImageError {}

/// The geometry of an image as a T# describes it: everything an access
/// needs, computed once per instruction.
#[derive(Debug, Clone, Copy)]
pub struct Surface {
    /// Byte address of level 0.
    pub base: u64,
    /// The format pair.
    pub codec: ImageCodec,
    /// The element geometry.
    pub element: Element,
    /// The image type.
    pub ty: ImageType,
    /// Level-0 width, height, depth/slices.
    pub size: [u32; 3],
    /// Level-0 pitch in texels.
    pub pitch: u32,
    /// BASE_LEVEL, LAST_LEVEL.
    pub levels: (u32, u32),
    /// BASE_ARRAY, LAST_ARRAY.
    pub slices: (u32, u32),
    /// DST_SEL.
    pub dst_sel: [DstSel; 4],
    /// MIN_LOD of the resource.
    pub min_lod: f32,
    /// Per level 0-15: byte offset from BASE, bytes per row of elements,
    /// rows of elements per slice (computed once: the accesses index them).
    levels_at: [(u64, u64, u64); 16],
}

impl Surface {
    /// The surface of a T#; an unsupported tiling, MSAA type or format is
    /// an error saying so.
    pub fn new(t: &ImageResource) -> Result<Surface, ImageError> {
        if t.tiling_index != LINEAR_TILING {
            return Err(ImageError::Unsupported(format!(
                "tiling mode {} is not supported (only the linear tiling index {LINEAR_TILING})",
                t.tiling_index
            )));
        }
        match t.image_type {
            ImageType::Image2dMsaa | ImageType::Image2dMsaaArray => {
                return Err(ImageError::Unsupported(format!(
                    "image type {} is not supported",
                    t.image_type
                )))
            }
            ImageType::Buffer => {
                return Err(ImageError::Unsupported(
                    "a T# of type BUFFER is not an image".into(),
                ))
            }
            _ => {}
        }
        if t.interlaced {
            return Err(ImageError::Unsupported(
                "interlaced images (INTERLACED = 1) are not supported".into(),
            ));
        }
        if t.pow2pad {
            return Err(ImageError::Unsupported(
                "power-of-two padded layouts (POW2PAD = 1) are not supported".into(),
            ));
        }
        let codec = ImageCodec::new(t.data_format, t.num_format).map_err(ImageError::Format)?;
        let mut s = Surface {
            base: t.base_address,
            codec,
            element: codec.element(),
            ty: t.image_type,
            size: [t.width, t.height, t.depth],
            pitch: t.pitch.max(t.width),
            levels: (t.base_level.into(), t.last_level.into()),
            slices: (t.base_array.into(), t.last_array.into()),
            dst_sel: t.dst_sel,
            min_lod: t.min_lod,
            levels_at: [(0, 0, 0); 16],
        };
        let mut offset = 0;
        for l in 0..16 {
            let (row, rows) = s.compute_rows(l);
            s.levels_at[l as usize] = (offset, row, rows);
            offset += row * rows * u64::from(s.level_size(l)[2]);
        }
        Ok(s)
    }

    /// Width, height and depth (3-D) or slice count of level `level`.
    #[inline]
    pub fn level_size(&self, level: u32) -> [u32; 3] {
        let [w, h, d] = self.size;
        let l = level.min(31);
        [
            (w >> l).max(1),
            (h >> l).max(1),
            if self.ty == ImageType::Image3d {
                (d >> l).max(1)
            } else {
                d
            },
        ]
    }

    /// Bytes per row of elements and rows of elements per slice of a level.
    #[inline]
    fn level_rows(&self, level: u32) -> (u64, u64) {
        let (_, row, rows) = self.levels_at[level.min(15) as usize];
        (row, rows)
    }

    fn compute_rows(&self, level: u32) -> (u64, u64) {
        let [w, h, _] = self.level_size(level);
        let e = &self.element;
        let pitch = (self.pitch >> level.min(31)).max(w);
        let row = u64::from(pitch.div_ceil(e.block_w)) * u64::from(e.bytes());
        (row, u64::from(h.div_ceil(e.block_h)))
    }

    /// Size of a level in bytes.
    pub fn level_bytes(&self, level: u32) -> u64 {
        let (row, rows) = self.level_rows(level);
        row * rows * u64::from(self.level_size(level)[2])
    }

    /// Byte offset of a level (0-15) from BASE.
    #[inline]
    pub fn level_offset(&self, level: u32) -> u64 {
        self.levels_at[level.min(15) as usize].0
    }

    /// Bytes of levels 0 ..= `last` (at most 15).
    pub fn total_bytes(&self, last: u32) -> u64 {
        let last = last.min(15);
        self.level_offset(last) + self.level_bytes(last)
    }

    /// The address of the element holding texel `(x, y, z)` of `level`
    /// (`z`: the 3-D slice or the array slice), and the texel's position in
    /// the element. The caller has checked the coordinates.
    #[inline]
    pub fn element_address(
        &self,
        level_offset: u64,
        level: u32,
        x: u32,
        y: u32,
        z: u32,
    ) -> (u64, u32, u32) {
        let (row, rows) = self.level_rows(level);
        let e = &self.element;
        let off = level_offset
            + u64::from(z) * row * rows
            + u64::from(y / e.block_h) * row
            + u64::from(x / e.block_w) * u64::from(e.bytes());
        (self.base + off, x % e.block_w, y % e.block_h)
    }
}

/// An image in device memory with its T#.
///
/// ```
/// use gcn_runtime::{Memory, image::DeviceImage};
/// use gcn_runtime::descriptor::{ImageResource, ImageType};
/// use gcn_runtime::format::{DataFormat, NumFormat};
/// let memory = Memory::default();
/// let t = ImageResource::new(ImageType::Image2d, DataFormat::D8_8_8_8, NumFormat::Unorm)
///     .size(4, 2, 1);
/// let image = DeviceImage::new(&memory, t).unwrap();
/// image.write_level::<u32>(0, &[0xff00_00ff; 8]).unwrap();
/// assert_eq!(image.read_level::<u32>(0).unwrap(), vec![0xff00_00ff; 8]);
/// assert_eq!(image.resource().base_address % 256, 0);
/// ```
pub struct DeviceImage {
    buffer: Buffer<u8>,
    memory: Memory,
    resource: ImageResource,
    surface: Surface,
}

impl fmt::Debug for DeviceImage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DeviceImage({})", self.resource)
    }
}

impl DeviceImage {
    /// Allocates an image as `resource` describes it (its base address is
    /// set to the allocation; levels 0 ..= LAST_LEVEL are allocated). The
    /// memory is zeroed.
    pub fn new(memory: &Memory, resource: ImageResource) -> Result<DeviceImage, ImageError> {
        resource.validate().map_err(ImageError::Descriptor)?;
        let surface = Surface::new(&resource)?;
        let bytes = surface.total_bytes(resource.last_level.into());
        let buffer = memory
            .buffer_zeroed::<u8>(bytes as usize)
            .map_err(ImageError::Alloc)?;
        let resource = resource.base_address(buffer.ptr().0);
        let surface = Surface::new(&resource)?;
        Ok(DeviceImage {
            buffer,
            memory: memory.clone(),
            resource,
            surface,
        })
    }

    /// The T# (its `to_words` are what a kernel takes).
    pub fn resource(&self) -> ImageResource {
        self.resource
    }

    /// The layout.
    pub fn surface(&self) -> &Surface {
        &self.surface
    }

    /// Device address of level 0.
    pub fn ptr(&self) -> DevicePtr {
        self.buffer.ptr()
    }

    fn level_range(&self, level: u32) -> Result<(usize, usize), ImageError> {
        if level > u32::from(self.resource.last_level) {
            return Err(ImageError::Data(format!(
                "mip level {level} is past LAST_LEVEL {}",
                self.resource.last_level
            )));
        }
        let off = self.surface.level_offset(level) as usize;
        Ok((off, off + self.surface.level_bytes(level) as usize))
    }

    /// Overwrites a level's elements (all slices, rows of `pitch` texels,
    /// as the module's layout says) with `data`, whose size must be the
    /// level's.
    pub fn write_level<T: Pod>(&self, level: u32, data: &[T]) -> Result<(), ImageError> {
        let (a, b) = self.level_range(level)?;
        let bytes: &[u8] = bytemuck::cast_slice(data);
        if bytes.len() != b - a {
            return Err(ImageError::Data(format!(
                "level {level} holds {} bytes, {} given",
                b - a,
                bytes.len()
            )));
        }
        self.memory
            .write(self.buffer.ptr().0 + a as u64, bytes)
            .map_err(|e| ImageError::Data(e.to_string()))
    }

    /// Overwrites every level (levels 0 ..= LAST_LEVEL in the layout's
    /// order) with `bytes`, whose size must be the image's.
    pub fn write_all(&self, bytes: &[u8]) -> Result<(), ImageError> {
        if bytes.len() != self.buffer.len() {
            return Err(ImageError::Data(format!(
                "the image holds {} bytes, {} given",
                self.buffer.len(),
                bytes.len()
            )));
        }
        self.buffer.write_from(bytes).map_err(ImageError::Alloc)
    }

    /// Every level's bytes, in the layout's order.
    pub fn read_all(&self) -> Vec<u8> {
        self.buffer.to_vec()
    }

    /// A level's elements, copied out as `T`s (the level's size must be a
    /// multiple of `T`'s).
    pub fn read_level<T: Pod>(&self, level: u32) -> Result<Vec<T>, ImageError> {
        let (a, b) = self.level_range(level)?;
        let mut all = vec![0u8; b - a];
        self.memory
            .read(self.buffer.ptr().0 + a as u64, &mut all)
            .map_err(|e| ImageError::Data(e.to_string()))?;
        let n = std::mem::size_of::<T>();
        if (b - a) % n != 0 {
            return Err(ImageError::Data(format!(
                "level {level} holds {} bytes, not a multiple of {n}",
                b - a
            )));
        }
        Ok(all
            .chunks_exact(n)
            .map(bytemuck::pod_read_unaligned)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{DataFormat, NumFormat};

    #[test]
    fn layout_follows_the_documented_rules() {
        let t = ImageResource::new(ImageType::Image2d, DataFormat::D32, NumFormat::Float)
            .size(5, 3, 1)
            .pitch(8)
            .levels(0, 2);
        let s = Surface::new(&t).unwrap();
        // Level 0: 8 texels per row * 4 bytes * 3 rows.
        assert_eq!(s.level_bytes(0), 96);
        // Level 1: 2x1, pitch max(4, 2) = 4 -> 16 bytes.
        assert_eq!(s.level_bytes(1), 16);
        assert_eq!(s.level_offset(2), 112);
        // Texel (3, 2) of level 0: 2 rows of 32 bytes + 12.
        assert_eq!(s.element_address(0, 0, 3, 2, 0), (76, 0, 0));
        // BC1: 4x4 blocks of 8 bytes; a 10x6 image has 3x2 blocks.
        let b = ImageResource::new(ImageType::Image2d, DataFormat::Bc1, NumFormat::Unorm)
            .size(10, 6, 1);
        let s = Surface::new(&b).unwrap();
        assert_eq!(s.level_bytes(0), 48);
        assert_eq!(s.element_address(0, 0, 9, 5, 0), (24 + 16, 1, 1));
        // Arrays keep their slices at every level; 3-D halves the depth.
        let a = ImageResource::new(ImageType::Image2dArray, DataFormat::D8, NumFormat::Uint)
            .size(4, 4, 3)
            .levels(0, 1);
        assert_eq!(Surface::new(&a).unwrap().level_bytes(1), 12);
        let v = ImageResource::new(ImageType::Image3d, DataFormat::D8, NumFormat::Uint)
            .size(4, 4, 4)
            .levels(0, 1);
        assert_eq!(Surface::new(&v).unwrap().level_bytes(1), 8);
    }

    #[test]
    fn unsupported_things_are_errors() {
        let t = ImageResource::new(ImageType::Image2d, DataFormat::D32, NumFormat::Float);
        let e = Surface::new(&t.tiling_index(14)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "tiling mode 14 is not supported (only the linear tiling index 8)"
        );
        let e = Surface::new(&t.image_type(ImageType::Image2dMsaa)).unwrap_err();
        assert!(e.to_string().contains("IMAGE_2D_MSAA is not supported"));
        let m = Memory::default();
        let img = DeviceImage::new(&m, t.size(2, 2, 1)).unwrap();
        assert!(img.write_level::<u32>(0, &[1, 2, 3]).is_err());
        assert!(img.read_level::<u32>(1).is_err());
    }
}
