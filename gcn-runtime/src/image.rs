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
//!
//! # The GCN 1.5 / RDNA 2 linear layout
//!
//! A gfx10 T# ([`Gfx10ImageResource`]) has no tiling index but a swizzle
//! mode, and its linear mode (SW_MODE 0) is the layout AMD's address
//! library computes for it (`Gfx10Lib::HwlComputeSurfaceInfoLinear` in
//! addrlib, as ROCm's image runtime ships it; the hardware reads what the
//! drivers lay out with it), which [`Surface::gfx10`] and
//! [`Gfx10DeviceImage`] implement:
//!
//! - Elements as above. Level `L` stores `ceil(E >> L)` elements per row
//!   and `ceil(R >> L)` rows (`E`, `R`: level 0's elements per row and
//!   rows; addrlib's `GetMipSize` rounds up), while its texels are
//!   `max(1, W >> L)` by `max(1, H >> L)` as on GCN.
//! - A row of every level is padded to a multiple of 256 bytes (addrlib's
//!   pitch alignment of `256 / bytes-per-element` elements).
//! - A *slice* holds the whole mip chain of MAX_MIP + 1 levels, the
//!   smallest level first (at offset 0) and level 0 last; slices (array
//!   slices, or the depth slices of a 3-D image, of every level) follow
//!   each other at that stride.
//! - RDNA 2 (gfx10.3) reads a PITCH for single-level 1-D and 2-D images
//!   (ROCm writes it always, Mesa for a pitch the user chose); a PITCH
//!   below the natural one (Mesa writes 0 there otherwise) selects the
//!   natural pitch (chosen: the rule under which both drivers' T#s
//!   describe the memory they lay out). GCN 1.5 has no PITCH.

use std::fmt;

use bytemuck::Pod;

use crate::descriptor::image::LINEAR_TILING;
use crate::descriptor::image10::SW_LINEAR;
use crate::descriptor::{DescriptorError, Gfx10ImageResource, ImageResource, ImageType};
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
    /// BC_SWIZZLE of a gfx10 T# (the order of the border colour's
    /// components; 0 is XYZW, and GCN 1.0-1.4 have 0).
    pub bc_swizzle: u8,
    /// Per level 0-15: byte offset from BASE, bytes per row of elements,
    /// rows of elements per slice, bytes from one slice to the next
    /// (computed once: the accesses index them).
    levels_at: [(u64, u64, u64, u64); 16],
    /// The gfx10 layout's size in bytes (every slice's mip chain); `None`
    /// for the GCN layout, whose size depends on the levels counted.
    gfx10_bytes: Option<u64>,
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
            bc_swizzle: 0,
            levels_at: [(0, 0, 0, 0); 16],
            gfx10_bytes: None,
        };
        let mut offset = 0;
        for l in 0..16 {
            let (row, rows) = s.compute_rows(l);
            s.levels_at[l as usize] = (offset, row, rows, row * rows);
            offset += row * rows * u64::from(s.level_size(l)[2]);
        }
        Ok(s)
    }

    /// The surface of a GCN 1.5 / RDNA 2 T# (`rdna2`: the gfx10.3 rules,
    /// which read PITCH), in the module's gfx10 linear layout; any other
    /// swizzle mode, DCC compression, a non-zero ARRAY_PITCH, an MSAA type,
    /// a LAST_LEVEL past MAX_MIP or a FORMAT code outside the gfx10 table
    /// is an error saying so.
    pub fn gfx10(t: &Gfx10ImageResource, rdna2: bool) -> Result<Surface, ImageError> {
        let no = |m: String| Err(ImageError::Unsupported(m));
        if t.sw_mode != SW_LINEAR {
            return no(format!(
                "swizzle mode SW_MODE {} is not supported (only the linear mode {SW_LINEAR})",
                t.sw_mode
            ));
        }
        match t.image_type {
            ImageType::Image2dMsaa | ImageType::Image2dMsaaArray => {
                return no(format!("image type {} is not supported", t.image_type))
            }
            ImageType::Buffer => return no("a T# of type BUFFER is not an image".into()),
            _ => {}
        }
        if t.compression_enable {
            return no("DCC-compressed images (COMPRESSION_ENABLE = 1) are not supported".into());
        }
        if t.array_pitch != 0 {
            return no(format!(
                "ARRAY_PITCH {} is not supported (only 0)",
                t.array_pitch
            ));
        }
        if t.last_level > t.max_mip {
            return no(format!(
                "LAST_LEVEL {} is past MAX_MIP {}: the layout has no such level",
                t.last_level, t.max_mip
            ));
        }
        let Some((data, num)) = t.data_num_format() else {
            return no(format!(
                "image FORMAT code {} is not supported (the emulator has the gfx10 codes \
                 1-77, the formats images share with buffers)",
                t.format
            ));
        };
        let codec = ImageCodec::new(data, num).map_err(ImageError::Format)?;
        let element = codec.element();
        let slices = t.slices();
        let mut s = Surface {
            base: t.base_address,
            codec,
            element,
            ty: t.image_type,
            size: [t.width, t.height, slices],
            pitch: t.width,
            levels: (t.base_level.into(), t.last_level.into()),
            slices: if t.image_type.is_array() {
                (t.base_array.into(), t.last_array.into())
            } else {
                (0, 0)
            },
            dst_sel: t.dst_sel,
            min_lod: t.min_lod,
            bc_swizzle: t.bc_swizzle,
            levels_at: [(0, 0, 0, 0); 16],
            gfx10_bytes: None,
        };
        let shift_ceil = |a: u32, l: u32| (a >> l) + u32::from(a & ((1 << l) - 1) != 0);
        let bpe = u64::from(element.bytes());
        let (e0, r0) = (
            t.width.div_ceil(element.block_w).max(1),
            t.height.div_ceil(element.block_h).max(1),
        );
        let single = t.max_mip == 0;
        // The smallest level first: its offset is 0.
        let mut offset = 0u64;
        let mut rows_of = [(0u64, 0u64); 16];
        for l in (0..=u32::from(t.max_mip)).rev() {
            let mut row = (u64::from(shift_ceil(e0, l)) * bpe).next_multiple_of(256);
            if single && rdna2 && matches!(t.image_type, ImageType::Image1d | ImageType::Image2d) {
                let custom = u64::from(t.pitch.div_ceil(element.block_w)) * bpe;
                row = row.max(custom);
            }
            let rows = u64::from(shift_ceil(r0, l));
            rows_of[l as usize] = (row, rows);
            s.levels_at[l as usize].0 = offset;
            offset += row * rows;
        }
        let slice = offset;
        for (l, at) in s.levels_at.iter_mut().enumerate() {
            let (row, rows) = rows_of[l];
            *at = (at.0, row, rows, slice);
        }
        s.pitch = (s.levels_at[0].1 / bpe) as u32 * element.block_w;
        s.gfx10_bytes = Some(slice * u64::from(slices));
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
        let (_, row, rows, _) = self.levels_at[level.min(15) as usize];
        (row, rows)
    }

    /// Bytes per row of elements of a level (the row pitch in bytes).
    pub fn row_bytes(&self, level: u32) -> u64 {
        self.level_rows(level).0
    }

    /// Bytes from one slice of a level to the next (array slices and 3-D
    /// depth slices alike): a level's size per slice in the GCN layout,
    /// the whole mip chain in the gfx10 one.
    pub fn slice_stride(&self, level: u32) -> u64 {
        self.levels_at[level.min(15) as usize].3
    }

    fn compute_rows(&self, level: u32) -> (u64, u64) {
        let [w, h, _] = self.level_size(level);
        let e = &self.element;
        let pitch = (self.pitch >> level.min(31)).max(w);
        let row = u64::from(pitch.div_ceil(e.block_w)) * u64::from(e.bytes());
        (row, u64::from(h.div_ceil(e.block_h)))
    }

    /// Size of a level in bytes: its rows of elements in every slice (in
    /// the gfx10 layout these are not contiguous: see
    /// [`Surface::slice_stride`]).
    pub fn level_bytes(&self, level: u32) -> u64 {
        let (row, rows) = self.level_rows(level);
        row * rows * u64::from(self.level_size(level)[2])
    }

    /// Byte offset of a level (0-15) from BASE.
    #[inline]
    pub fn level_offset(&self, level: u32) -> u64 {
        self.levels_at[level.min(15) as usize].0
    }

    /// Bytes of levels 0 ..= `last` (at most 15); for the gfx10 layout the
    /// whole surface's bytes (every slice holds every level).
    pub fn total_bytes(&self, last: u32) -> u64 {
        if let Some(b) = self.gfx10_bytes {
            return b;
        }
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
        let (_, row, _, stride) = self.levels_at[level.min(15) as usize];
        let e = &self.element;
        let off = level_offset
            + u64::from(z) * stride
            + u64::from(y / e.block_h) * row
            + u64::from(x / e.block_w) * u64::from(e.bytes());
        (self.base + off, x % e.block_w, y % e.block_h)
    }
}

/// The memory of a device image and its layout, shared by [`DeviceImage`]
/// and [`Gfx10DeviceImage`].
struct Storage {
    buffer: Buffer<u8>,
    memory: Memory,
    surface: Surface,
    last_level: u32,
}

impl Storage {
    /// Zeroed memory for `bytes` bytes; `make` gives the surface at the
    /// allocation's address.
    fn alloc(
        memory: &Memory,
        bytes: u64,
        last_level: u32,
        make: impl FnOnce(u64) -> Result<Surface, ImageError>,
    ) -> Result<Storage, ImageError> {
        let buffer = memory
            .buffer_zeroed::<u8>(bytes as usize)
            .map_err(ImageError::Alloc)?;
        let surface = make(buffer.ptr().0)?;
        Ok(Storage {
            buffer,
            memory: memory.clone(),
            surface,
            last_level,
        })
    }

    /// The byte ranges (from the allocation's start) of a level's slices,
    /// in slice order.
    fn level_chunks(&self, level: u32) -> Result<impl Iterator<Item = (usize, usize)>, ImageError> {
        if level > self.last_level {
            return Err(ImageError::Data(format!(
                "mip level {level} is past LAST_LEVEL {}",
                self.last_level
            )));
        }
        let s = &self.surface;
        let off = s.level_offset(level);
        let (row, rows) = s.level_rows(level);
        let stride = s.slice_stride(level);
        let len = (row * rows) as usize;
        Ok((0..u64::from(s.level_size(level)[2])).map(move |z| ((off + z * stride) as usize, len)))
    }

    fn write_level<T: Pod>(&self, level: u32, data: &[T]) -> Result<(), ImageError> {
        let want = self.surface.level_bytes(level) as usize;
        let bytes: &[u8] = bytemuck::cast_slice(data);
        let chunks = self.level_chunks(level)?;
        if bytes.len() != want {
            return Err(ImageError::Data(format!(
                "level {level} holds {want} bytes, {} given",
                bytes.len()
            )));
        }
        let mut at = 0;
        for (off, len) in chunks {
            self.memory
                .write(self.buffer.ptr().0 + off as u64, &bytes[at..at + len])
                .map_err(|e| ImageError::Data(e.to_string()))?;
            at += len;
        }
        Ok(())
    }

    fn write_all(&self, bytes: &[u8]) -> Result<(), ImageError> {
        if bytes.len() != self.buffer.len() {
            return Err(ImageError::Data(format!(
                "the image holds {} bytes, {} given",
                self.buffer.len(),
                bytes.len()
            )));
        }
        self.buffer.write_from(bytes).map_err(ImageError::Alloc)
    }

    fn read_level<T: Pod>(&self, level: u32) -> Result<Vec<T>, ImageError> {
        let mut all = Vec::new();
        for (off, len) in self.level_chunks(level)? {
            let mut chunk = vec![0u8; len];
            self.memory
                .read(self.buffer.ptr().0 + off as u64, &mut chunk)
                .map_err(|e| ImageError::Data(e.to_string()))?;
            all.extend_from_slice(&chunk);
        }
        let n = std::mem::size_of::<T>();
        if !all.len().is_multiple_of(n) {
            return Err(ImageError::Data(format!(
                "level {level} holds {} bytes, not a multiple of {n}",
                all.len()
            )));
        }
        Ok(all
            .chunks_exact(n)
            .map(bytemuck::pod_read_unaligned)
            .collect())
    }
}

/// The methods both device image types have, on their `storage`.
macro_rules! storage_methods {
    () => {
        /// The layout.
        pub fn surface(&self) -> &Surface {
            &self.storage.surface
        }

        /// Device address of the image's memory (its T#'s base).
        pub fn ptr(&self) -> DevicePtr {
            self.storage.buffer.ptr()
        }

        /// Overwrites a level's elements with `data`: every slice of the
        /// level in order, each its rows of elements of
        /// [`Surface::row_bytes`] bytes (as the module's layout says);
        /// `data` must have the level's size ([`Surface::level_bytes`]).
        pub fn write_level<T: Pod>(&self, level: u32, data: &[T]) -> Result<(), ImageError> {
            self.storage.write_level(level, data)
        }

        /// Overwrites the image's memory (in the layout's order) with
        /// `bytes`, whose size must be the image's.
        pub fn write_all(&self, bytes: &[u8]) -> Result<(), ImageError> {
            self.storage.write_all(bytes)
        }

        /// The image's memory, in the layout's order.
        pub fn read_all(&self) -> Vec<u8> {
            self.storage.buffer.to_vec()
        }

        /// A level's elements (as [`Self::write_level`] orders them), copied
        /// out as `T`s (the level's size must be a multiple of `T`'s).
        pub fn read_level<T: Pod>(&self, level: u32) -> Result<Vec<T>, ImageError> {
            self.storage.read_level(level)
        }
    };
}

/// An image in device memory with its T# (GCN 1.0-1.4; for GCN 1.5 and
/// RDNA 2 kernels: [`Gfx10DeviceImage`]).
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
    storage: Storage,
    resource: ImageResource,
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
        let mut placed = resource;
        let storage = Storage::alloc(memory, bytes, resource.last_level.into(), |base| {
            placed = resource.base_address(base);
            Surface::new(&placed)
        })?;
        Ok(DeviceImage {
            storage,
            resource: placed,
        })
    }

    /// The T# (its `to_words` are what a kernel takes).
    pub fn resource(&self) -> ImageResource {
        self.resource
    }

    storage_methods!();
}

/// An image in device memory with its GCN 1.5 / RDNA 2 T#, in the gfx10
/// linear layout (the module's documentation).
///
/// ```
/// use gcn_runtime::{Memory, image::Gfx10DeviceImage};
/// use gcn_runtime::descriptor::{Gfx10ImageResource, ImageType};
/// use gcn_runtime::format::{DataFormat, NumFormat};
/// let memory = Memory::default();
/// let t = Gfx10ImageResource::new(ImageType::Image2d, DataFormat::D32, NumFormat::Float)
///     .unwrap()
///     .size(4, 2, 1);
/// let image = Gfx10DeviceImage::new(&memory, t, false).unwrap();
/// // Rows are padded to 256 bytes: 64 texels of 4 bytes.
/// assert_eq!(image.surface().row_bytes(0), 256);
/// image.write_level::<f32>(0, &[1.5; 128]).unwrap();
/// let words = image.resource().to_words().unwrap();
/// assert_eq!(u64::from(words[0]) << 8, image.ptr().0);
/// ```
pub struct Gfx10DeviceImage {
    storage: Storage,
    resource: Gfx10ImageResource,
    rdna2: bool,
}

impl fmt::Debug for Gfx10DeviceImage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Gfx10DeviceImage({})", self.resource)
    }
}

impl Gfx10DeviceImage {
    /// Allocates an image as `resource` describes it, for GCN 1.5
    /// (`rdna2` false) or RDNA 2 (true: PITCH is read). Its base address
    /// is set to the allocation (256-byte aligned); every level up to
    /// MAX_MIP of slices 0 ..= LAST_ARRAY (3-D: every depth slice) is
    /// allocated. The memory is zeroed.
    pub fn new(
        memory: &Memory,
        resource: Gfx10ImageResource,
        rdna2: bool,
    ) -> Result<Gfx10DeviceImage, ImageError> {
        resource.validate().map_err(ImageError::Descriptor)?;
        let surface = Surface::gfx10(&resource, rdna2)?;
        let bytes = surface.total_bytes(15);
        let mut placed = resource;
        let storage = Storage::alloc(memory, bytes, resource.last_level.into(), |base| {
            placed = resource.base_address(base);
            Surface::gfx10(&placed, rdna2)
        })?;
        Ok(Gfx10DeviceImage {
            storage,
            resource: placed,
            rdna2,
        })
    }

    /// The T# (its `to_words` are what a kernel takes).
    pub fn resource(&self) -> Gfx10ImageResource {
        self.resource
    }

    /// True when the layout follows RDNA 2's rules (PITCH read).
    pub fn is_rdna2(&self) -> bool {
        self.rdna2
    }

    storage_methods!();
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
