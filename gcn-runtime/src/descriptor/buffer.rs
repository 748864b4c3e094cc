//! The buffer resource (V#): four dwords in SGPRs that the MUBUF and MTBUF
//! instructions address memory through.
//!
//! Fields, as the seed's table gives them (bit numbers over the 128 bits):
//!
//! | Bits | Field | Here |
//! |---|---|---|
//! | 0–47 | BASE | [`BufferResourceBuilder::base`] (48-bit) |
//! | 48–61 | STRIDE | [`BufferResourceBuilder::stride`] (14-bit, bytes) |
//! | 62 | cache swizzle | [`BufferResourceBuilder::cache_swizzle`] |
//! | 63 | swizzle enable | [`BufferResourceBuilder::swizzle_enable`] |
//! | 64–95 | NUM_RECORDS | [`BufferResourceBuilder::num_records`] |
//! | 96–107 | DST_SEL_X/Y/Z/W | [`BufferResourceBuilder::dst_sel`] ([`DstSel`]) |
//! | 108–110 | NUMFORMAT | [`BufferResourceBuilder::format`] ([`NumFormat`] 0–7) |
//! | 111–114 | DATAFORMAT | [`BufferResourceBuilder::format`] ([`DataFormat`] 0–15) |
//! | 115–116 | ELEMSIZE | [`BufferResourceBuilder::element_size`] ([`ElementSize`], `2 << field`) |
//! | 117–118 | INDEXSTRIDE | [`BufferResourceBuilder::index_stride`] ([`IndexStride`], `8 << field`) |
//! | 119 | TID_ENABLE | [`BufferResourceBuilder::tid_enable`] |
//! | 121 | hash enable | [`BufferResourceBuilder::hash_enable`] |
//! | 122 | HEAP | [`BufferResourceBuilder::heap`] |
//! | 126–127 | TYPE | [`BufferResourceBuilder::resource_type`] (0: buffer) |
//!
//! The bits the seed does not name (120, 123–125; ATC and MTYPE on GCN 1.2)
//! are kept as they are ([`BufferResource::unnamed_bits`]), so `from_words`
//! followed by `to_words` gives back the same dwords.
//!
//! Per GCN version: on GCN 1.4 (gfx9) bits 115 and 116 are USER_VM_ENABLE and
//! USER_VM_MODE and the swizzle element size is fixed at 4 bytes (AMD's Vega
//! register specification as Mesa's `sid.h` carries it; LLVM's
//! `SIInstrInfo::getScratchRsrcWords23`: "GFX9 doesn't have ELEMENT_SIZE"):
//! [`BufferResource::element_size_bytes`] takes the version, and the
//! [`BufferResource::display`] form names those bits per version. Every
//! other field means the same on GCN 1.0–1.4.
//!
//! ```
//! use gcn_runtime::descriptor::BufferResource;
//! use gcn_runtime::format::{DataFormat, NumFormat};
//!
//! // A typed V#: 8-byte records of four halves.
//! let v = BufferResource::builder()
//!     .base(0x1_0000_0100)
//!     .stride(8)
//!     .num_records(100)
//!     .format(DataFormat::D16_16_16_16, NumFormat::Float)
//!     .build()
//!     .unwrap();
//! let words = v.to_words();
//! assert_eq!(words, [0x0000_0100, 0x0008_0001, 100, 0x0006_7fac]);
//! assert_eq!(BufferResource::from_words(words), v);
//! ```

use std::fmt;

use gcn_asm::GcnVersion;

use crate::format::{DataFormat, DstSel, NumFormat};
use crate::kernel::{ArgField, ArgValue};
use crate::memory::Buffer;

/// The swizzle element size (ELEMSIZE: `2 << field` bytes; GCN 1.0–1.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum ElementSize {
    /// 2 bytes (field 0).
    #[default]
    B2 = 0,
    /// 4 bytes (field 1).
    B4 = 1,
    /// 8 bytes (field 2).
    B8 = 2,
    /// 16 bytes (field 3).
    B16 = 3,
}

impl ElementSize {
    /// The size of a field value (its low 2 bits).
    pub const fn from_code(code: u8) -> ElementSize {
        match code & 3 {
            0 => ElementSize::B2,
            1 => ElementSize::B4,
            2 => ElementSize::B8,
            _ => ElementSize::B16,
        }
    }

    /// Bytes: `2 << field`.
    pub const fn bytes(self) -> u32 {
        2 << self as u32
    }
}

/// The swizzle index stride (INDEXSTRIDE: `8 << field` records).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum IndexStride {
    /// 8 (field 0).
    #[default]
    S8 = 0,
    /// 16 (field 1).
    S16 = 1,
    /// 32 (field 2).
    S32 = 2,
    /// 64 (field 3).
    S64 = 3,
}

impl IndexStride {
    /// The stride of a field value (its low 2 bits).
    pub const fn from_code(code: u8) -> IndexStride {
        match code & 3 {
            0 => IndexStride::S8,
            1 => IndexStride::S16,
            2 => IndexStride::S32,
            _ => IndexStride::S64,
        }
    }

    /// Records: `8 << field`.
    pub const fn records(self) -> u32 {
        8 << self as u32
    }
}

/// A field value that does not fit, or a format a buffer cannot hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceError {
    /// A value wider than its field.
    OutOfRange {
        /// The field.
        field: &'static str,
        /// The value given.
        value: u64,
        /// The largest value the field holds.
        max: u64,
    },
    /// An image-only data format (codes 16–63) in a 4-bit buffer field.
    ImageDataFormat(DataFormat),
    /// An image-only number format (codes 8–13) in a 3-bit buffer field.
    ImageNumFormat(NumFormat),
    /// A data and number format pair the gfx10 unified FORMAT table
    /// ([`super::buffer10::gfx10_format`]) does not have.
    NoGfx10Format(DataFormat, NumFormat),
}

impl fmt::Display for ResourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResourceError::OutOfRange { field, value, max } => write!(
                f,
                "buffer resource field {field}: {value:#x} does not fit (at most {max:#x})"
            ),
            ResourceError::ImageDataFormat(d) => write!(
                f,
                "data format {d} (code {}) exists only in image resources: a buffer resource holds codes 0-15",
                d.code()
            ),
            ResourceError::ImageNumFormat(n) => write!(
                f,
                "number format {n} (code {}) exists only in image resources: a buffer resource holds codes 0-7",
                n.code()
            ),
            ResourceError::NoGfx10Format(d, n) => write!(
                f,
                "the GCN 1.5 buffer FORMAT table has no {d} {n} (it has codes 1-77: 8 to \
                 32_32_32_32 with the number formats each supports)"
            ),
        }
    }
}

impl std::error::Error for ResourceError {}

/// Mask of the word-3 bits the seed does not name (120, 123–125).
const UNNAMED_W3: u32 = 1 << 24 | 7 << 27;

/// A buffer resource (V#). Build one with [`BufferResource::builder`],
/// [`BufferResource::raw`] or [`BufferResource::typed`]; read a kernel's own
/// with [`BufferResource::from_words`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BufferResource {
    base: u64,
    stride: u32,
    cache_swizzle: bool,
    swizzle_enable: bool,
    num_records: u32,
    dst_sel: [DstSel; 4],
    num_format: NumFormat,
    data_format: DataFormat,
    element_size: ElementSize,
    index_stride: IndexStride,
    tid_enable: bool,
    hash_enable: bool,
    heap: bool,
    resource_type: u8,
    unnamed: u32,
}

impl Default for BufferResource {
    /// Everything zero except DST_SEL (identity, X Y Z W), data format 32
    /// and number format UINT — what Mesa and LLVM put in raw descriptors.
    fn default() -> Self {
        BufferResource {
            base: 0,
            stride: 0,
            cache_swizzle: false,
            swizzle_enable: false,
            num_records: 0,
            dst_sel: DstSel::IDENTITY,
            num_format: NumFormat::Uint,
            data_format: DataFormat::D32,
            element_size: ElementSize::B2,
            index_stride: IndexStride::S8,
            tid_enable: false,
            hash_enable: false,
            heap: false,
            resource_type: 0,
            unnamed: 0,
        }
    }
}

impl BufferResource {
    /// A builder starting from [`BufferResource::default`].
    pub fn builder() -> BufferResourceBuilder {
        BufferResourceBuilder {
            v: BufferResource::default(),
            error: None,
        }
    }

    /// A raw V# for `bytes` bytes at `base`: stride 0, NUM_RECORDS = the
    /// byte size (the range check of STRIDE = 0 compares bytes).
    pub fn raw(base: u64, bytes: u64) -> Result<BufferResource, ResourceError> {
        BufferResource::builder()
            .base(base)
            .num_records(bytes)
            .build()
    }

    /// A raw V# covering the whole of `buffer` (one call for the common
    /// case: `buffer_load_dword … offen` over a `Buffer<T>`).
    ///
    /// GCN 1.0 has no FLAT instructions: its kernels reach memory through
    /// a V# such as this one, here passed by value (a 16-byte argument is a
    /// `[u32; 4]` field of the `gcn_kernel!` struct):
    ///
    /// ```
    /// use gcn_runtime::descriptor::BufferResource;
    /// use gcn_runtime::{gcn_kernel, Dispatch, Memory, Program};
    ///
    /// gcn_kernel! {
    ///     mod inc;
    ///     .gallium
    ///     .gpu pitcairn                                    // GCN 1.0
    ///     .kernel inc                                      // data[i] += 1
    ///         .args
    ///             .arg data, scalar, 16                    // the V#
    ///         .config
    ///             .dims x
    ///     .text
    ///     inc:
    ///         s_load_dwordx4     s[8:11], s[0:1], inc::data/4  // SMRD offsets count dwords
    ///         v_lshlrev_b32      v1, 2, v0                     // byte offset (one group)
    ///         s_waitcnt          lgkmcnt(0)
    ///         buffer_load_dword  v2, v1, s[8:11], 0 offen
    ///         s_waitcnt          vmcnt(0)
    ///         v_add_i32          v2, vcc, 1, v2
    ///         buffer_store_dword v2, v1, s[8:11], 0 offen
    ///         s_endpgm
    /// }
    /// let memory = Memory::default();
    /// let program = Program::from_kernel(&memory, &inc::INC)?;
    /// let data = memory.buffer_from_slice(&[10u32; 64])?;
    /// let all = BufferResource::for_buffer(&data)?; // stride 0, NUM_RECORDS = 256 bytes
    /// let dispatch = Dispatch::new_1d(64, 64);
    /// program.launcher(&inc::IncArgs { data: all.into() }, &dispatch).run()?;
    /// assert_eq!(data.to_vec(), [11; 64]);
    /// // A V# over the first 32 bytes: past NUM_RECORDS loads read 0 and
    /// // stores are dropped, so only lanes 0–7 change.
    /// let part = BufferResource::raw(data.ptr().0, 32)?;
    /// program.launcher(&inc::IncArgs { data: part.into() }, &dispatch).run()?;
    /// assert_eq!(data.to_vec()[..9], [12, 12, 12, 12, 12, 12, 12, 12, 11]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn for_buffer<T: bytemuck::Pod>(
        buffer: &Buffer<T>,
    ) -> Result<BufferResource, ResourceError> {
        BufferResource::raw(buffer.ptr().0, buffer.byte_len())
    }

    /// A typed V# over `buffer` for `buffer_load_format_*`/`_store_format_*`:
    /// one record per element of `T` (stride = `size_of::<T>()`,
    /// NUM_RECORDS = the element count), the given formats, identity
    /// DST_SEL. Index it with `idxen`.
    pub fn typed<T: bytemuck::Pod>(
        buffer: &Buffer<T>,
        data: DataFormat,
        num: NumFormat,
    ) -> Result<BufferResource, ResourceError> {
        BufferResource::builder()
            .base(buffer.ptr().0)
            .stride(std::mem::size_of::<T>() as u64)
            .num_records(buffer.len() as u64)
            .format(data, num)
            .build()
    }

    /// Decodes four dwords (e.g. a kernel's own descriptor). Every bit
    /// pattern is a resource; the bits no field names are kept.
    pub fn from_words(w: [u32; 4]) -> BufferResource {
        let sel = |k: u32| DstSel::from_code((w[3] >> (3 * k)) as u8 & 7);
        BufferResource {
            base: u64::from(w[0]) | u64::from(w[1] & 0xffff) << 32,
            stride: (w[1] >> 16) & 0x3fff,
            cache_swizzle: w[1] >> 30 & 1 != 0,
            swizzle_enable: w[1] >> 31 != 0,
            num_records: w[2],
            dst_sel: [sel(0), sel(1), sel(2), sel(3)],
            num_format: NumFormat::ALL[(w[3] >> 12 & 7) as usize],
            // Every 4-bit code is a data format value (0 and 15 included).
            data_format: DataFormat::from_code((w[3] >> 15 & 15) as u8)
                .unwrap_or(DataFormat::Invalid),
            element_size: ElementSize::from_code((w[3] >> 19) as u8),
            index_stride: IndexStride::from_code((w[3] >> 21) as u8),
            tid_enable: w[3] >> 23 & 1 != 0,
            hash_enable: w[3] >> 25 & 1 != 0,
            heap: w[3] >> 26 & 1 != 0,
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
        w3 |= u32::from(self.num_format.code()) << 12
            | u32::from(self.data_format.code()) << 15
            | (self.element_size as u32) << 19
            | (self.index_stride as u32) << 21
            | u32::from(self.tid_enable) << 23
            | u32::from(self.hash_enable) << 25
            | u32::from(self.heap) << 26
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
    /// Swizzle enable (swizzled addressing).
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
    /// NUMFORMAT.
    pub fn num_format(&self) -> NumFormat {
        self.num_format
    }
    /// DATAFORMAT.
    pub fn data_format(&self) -> DataFormat {
        self.data_format
    }
    /// The ELEMSIZE field (GCN 1.0–1.2; see
    /// [`BufferResource::element_size_bytes`]).
    pub fn element_size(&self) -> ElementSize {
        self.element_size
    }
    /// The swizzle element size in bytes on `version`: `2 << ELEMSIZE` on
    /// GCN 1.0–1.2, 4 on GCN 1.4 (whose bits 115–116 mean something else).
    pub fn element_size_bytes(&self, version: GcnVersion) -> u32 {
        if is_gfx9(version) {
            4
        } else {
            self.element_size.bytes()
        }
    }
    /// GCN 1.4: USER_VM_ENABLE (bit 115, ELEMSIZE's low bit before).
    pub fn user_vm_enable(&self) -> bool {
        self.element_size as u8 & 1 != 0
    }
    /// GCN 1.4: USER_VM_MODE (bit 116, ELEMSIZE's high bit before).
    pub fn user_vm_mode(&self) -> bool {
        self.element_size as u8 & 2 != 0
    }
    /// INDEXSTRIDE.
    pub fn index_stride(&self) -> IndexStride {
        self.index_stride
    }
    /// TID_ENABLE (the lane id is added to the index).
    pub fn tid_enable(&self) -> bool {
        self.tid_enable
    }
    /// Hash enable.
    pub fn hash_enable(&self) -> bool {
        self.hash_enable
    }
    /// HEAP.
    pub fn heap(&self) -> bool {
        self.heap
    }
    /// TYPE (0: buffer).
    pub fn resource_type(&self) -> u8 {
        self.resource_type
    }
    /// The word-3 bits no field names (bits 24 and 27–29 of word 3: ATC
    /// and MTYPE on GCN 1.2), in place.
    pub fn unnamed_bits(&self) -> u32 {
        self.unnamed
    }

    /// A builder starting from this resource.
    pub fn to_builder(&self) -> BufferResourceBuilder {
        BufferResourceBuilder {
            v: *self,
            error: None,
        }
    }

    /// A `Display` form naming the fields as `version` defines them (GCN
    /// 1.4: USER_VM_ENABLE/USER_VM_MODE instead of ELEMSIZE).
    pub fn display(&self, version: GcnVersion) -> impl fmt::Display + '_ {
        Shown {
            v: self,
            version: Some(version),
        }
    }
}

fn is_gfx9(version: GcnVersion) -> bool {
    matches!(version, GcnVersion::Gcn1_4 | GcnVersion::Gcn1_4_1)
}

struct Shown<'a> {
    v: &'a BufferResource,
    version: Option<GcnVersion>,
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.v;
        let [x, y, z, w] = v.dst_sel;
        write!(
            f,
            "V#{{base={:#x} stride={} cache_swizzle={} swizzle_enable={} num_records={} \
             dst_sel=[{x},{y},{z},{w}] format=[{},{}] ",
            v.base,
            v.stride,
            u8::from(v.cache_swizzle),
            u8::from(v.swizzle_enable),
            v.num_records,
            v.data_format,
            v.num_format,
        )?;
        match self.version {
            Some(ver) if is_gfx9(ver) => write!(
                f,
                "user_vm_enable={} user_vm_mode={} ",
                u8::from(v.user_vm_enable()),
                u8::from(v.user_vm_mode())
            )?,
            Some(_) => write!(f, "element_size={} ", v.element_size.bytes())?,
            None => write!(
                f,
                "element_size={} (GCN 1.4: user_vm_enable={} user_vm_mode={}) ",
                v.element_size.bytes(),
                u8::from(v.user_vm_enable()),
                u8::from(v.user_vm_mode())
            )?,
        }
        write!(
            f,
            "index_stride={} tid_enable={} hash_enable={} heap={} type={}",
            v.index_stride.records(),
            u8::from(v.tid_enable),
            u8::from(v.hash_enable),
            u8::from(v.heap),
            v.resource_type
        )?;
        if v.unnamed != 0 {
            write!(f, " unnamed_bits={:#x}", v.unnamed)?;
        }
        f.write_str("}")
    }
}

impl fmt::Display for BufferResource {
    /// Every field by name (ELEMSIZE with its GCN 1.4 meaning alongside;
    /// [`BufferResource::display`] picks one version).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Shown {
            v: self,
            version: None,
        }
        .fmt(f)
    }
}

impl From<BufferResource> for [u32; 4] {
    fn from(v: BufferResource) -> [u32; 4] {
        v.to_words()
    }
}

impl ArgField for BufferResource {
    /// A 16-byte by-value argument (`.arg NAME, 16` or a `uint4`).
    fn arg_value(&self) -> ArgValue {
        ArgValue::Scalar(self.to_bytes().to_vec())
    }
}

/// Sets the fields of a [`BufferResource`] one by one; the first value
/// that does not fit is the error [`BufferResourceBuilder::build`] returns.
#[derive(Debug, Clone)]
#[must_use]
pub struct BufferResourceBuilder {
    v: BufferResource,
    error: Option<ResourceError>,
}

impl BufferResourceBuilder {
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
    /// STRIDE: bytes per record, 14 bits (0: a raw buffer).
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
    /// Swizzle enable (bit 63): swizzled addressing with ELEMSIZE and
    /// INDEXSTRIDE.
    pub fn swizzle_enable(mut self, on: bool) -> Self {
        self.v.swizzle_enable = on;
        self
    }
    /// NUM_RECORDS: bytes when STRIDE is 0, records otherwise (32 bits).
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
    /// DATAFORMAT and NUMFORMAT (buffer codes: 0–15 and 0–7).
    pub fn format(mut self, data: DataFormat, num: NumFormat) -> Self {
        if !data.is_buffer_code() {
            self.error
                .get_or_insert(ResourceError::ImageDataFormat(data));
        } else if num.code() > 7 {
            self.error.get_or_insert(ResourceError::ImageNumFormat(num));
        } else {
            self.v.data_format = data;
            self.v.num_format = num;
        }
        self
    }
    /// ELEMSIZE (swizzle mode, GCN 1.0–1.2).
    pub fn element_size(mut self, size: ElementSize) -> Self {
        self.v.element_size = size;
        self
    }
    /// GCN 1.4: USER_VM_ENABLE and USER_VM_MODE (the bits of ELEMSIZE).
    pub fn user_vm(mut self, enable: bool, mode: bool) -> Self {
        self.v.element_size = ElementSize::from_code(u8::from(enable) | u8::from(mode) << 1);
        self
    }
    /// INDEXSTRIDE (swizzle mode).
    pub fn index_stride(mut self, stride: IndexStride) -> Self {
        self.v.index_stride = stride;
        self
    }
    /// TID_ENABLE: add the lane id (0–63) to the index.
    pub fn tid_enable(mut self, on: bool) -> Self {
        self.v.tid_enable = on;
        self
    }
    /// Hash enable (bit 121).
    pub fn hash_enable(mut self, on: bool) -> Self {
        self.v.hash_enable = on;
        self
    }
    /// HEAP (bit 122).
    pub fn heap(mut self, on: bool) -> Self {
        self.v.heap = on;
        self
    }
    /// TYPE (2 bits; 0 is a buffer).
    pub fn resource_type(mut self, ty: u8) -> Self {
        if self.check("TYPE", u64::from(ty), 3) {
            self.v.resource_type = ty;
        }
        self
    }
    /// The word-3 bits no field names (a mask within bits 24 and 27–29 of
    /// word 3).
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
    pub fn build(self) -> Result<BufferResource, ResourceError> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.v),
        }
    }
}

#[cfg(test)]
mod tests;
