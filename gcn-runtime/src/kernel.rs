//! Kernels of a GalliumCompute binary and their input buffer.
//!
//! `gcn_kernel!` emits, per kernel, a [`Kernel`] handle (name, code offset,
//! proginfo, argument table) and an argument struct implementing
//! [`KernelArgs`]. The generated code only lists the struct's fields; how
//! they become the bytes the kernel reads is decided here, once:
//! [`Kernel::write_input`].
//!
//! # The kernel input buffer (old Gallium ABI)
//!
//! The kernel finds the address of its input buffer in `s[0:1]`. The buffer
//! starts with 9 dwords the dispatcher fills — work-group counts, global
//! sizes and local sizes for x, y and z — followed, from byte 36, by the
//! arguments in `.arg` order. Each argument is extended to its target size
//! (`sext`: sign-extended, `zext`: zero-extended) and aligned to its target
//! alignment *relative to byte 36* (Clover builds the argument part alone;
//! the driver prepends the 36 bytes).
//!
//! Arguments by semantic, as Clover binds them:
//!
//! | semantic | what is written |
//! |---|---|
//! | `general` | the user's value (see below) |
//! | `griddim` | the number of dimensions of the dispatch (`u32`) |
//! | `gridoffset` | the global offsets x, y, z: three values, each extended and aligned |
//! | `imgsize` | width, height, depth of the preceding image argument: three values |
//! | `imgformat` | channel data type and channel order of the preceding image: two values |
//!
//! User values by argument type:
//!
//! | type | Rust value | what is written |
//! |---|---|---|
//! | `scalar` | integers, arrays: exactly `size` bytes | the bytes, extended to the target size |
//! | `global`, `constant` | [`DevicePtr`] | the address, extended (or, for 4-byte pointers, truncated if it fits) |
//! | `local` | [`LocalMemory`] | the byte offset in local memory the dispatcher gives the buffer |
//! | `image*` | [`Image`] | by the argument's target size: 32 bytes: the image's 256-bit T#; 16 bytes: its 128-bit T# (1-D, 2-D images); 4 bytes: Clover's resource slot |
//! | `sampler` | [`Sampler`] | target size 16: the 128-bit S#; other sizes: nothing (Clover passes samplers out of band) |
//!
//! Clover never had images on GCN, so there was no ABI to copy: the image
//! and sampler forms above are this project's. A kernel declares e.g.
//! `.arg image2d_rdonly, 32, 32, 32` and finds the T# at its offset in the
//! input buffer (`s_load_dwordx8`), and `.arg sampler, 16, 16, 16` for the
//! S# (`s_load_dwordx4`); `imgsize` and `imgformat` arguments after an image
//! are filled from it ([`Image::from_device`] sets them from the image).
//!
//! Local buffers are placed one after the other in local memory, from
//! offset 0, in argument order, without padding (as Clover does); the total
//! is [`KernelInput::local_memory`].

use std::fmt;

pub use gcn_asm::gallium::{ArgSemantic, ArgType, KernelArg, ProgInfoEntry};

/// Size of the dispatch header that precedes the arguments: 9 dwords.
pub const HEADER_SIZE: usize = 36;

/// A kernel of a GalliumCompute binary, as `gcn_kernel!` describes it in a
/// `const`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kernel {
    /// The kernel's name (the symbol Clover looks up).
    pub name: &'static str,
    /// The device the source was assembled for (`.gpu`/`.arch` or the
    /// macro's option), lower case: the emulator runs the kernel on its GCN
    /// version.
    pub device: &'static str,
    /// The whole GalliumCompute binary (or AMDHSA code object) the kernel
    /// belongs to.
    pub binary: &'static [u8],
    /// Offset of the kernel's first instruction in the code (`.text`).
    pub offset: u32,
    /// The `.AMDGPU.config` register address/value pairs (PGM_RSRC1,
    /// PGM_RSRC2, scratch; plus spilled register counts from LLVM 3.9 on).
    /// Empty for a kernel of a code object (a `.rocm` source), whose
    /// setup is its kernel descriptor in `binary`.
    pub prog_info: &'static [ProgInfoEntry],
    /// The arguments, in `.arg` order.
    pub args: &'static [Arg],
    /// Where each instruction of the code came from (the whole `.text`
    /// of the binary, not only this kernel's): reports cite these lines.
    pub lines: &'static [crate::lines::SourceLine],
}

/// One argument of a [`Kernel`]: the binary's record plus the name and the
/// declaration from the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arg {
    /// The field name (`.arg NAME, …`, else `argN` with N the index).
    pub name: &'static str,
    /// Type, sizes, alignment, extension and semantic, as in the binary.
    pub record: KernelArg,
    /// The `.arg` statement as written in the source.
    pub declaration: &'static str,
}

impl Kernel {
    /// The value of proginfo register `address`, if the kernel has it.
    pub const fn prog_info_value(&self, address: u32) -> Option<u32> {
        let mut i = 0;
        while i < self.prog_info.len() {
            if self.prog_info[i].address == address {
                return Some(self.prog_info[i].value);
            }
            i += 1;
        }
        None
    }

    /// COMPUTE_PGM_RSRC1 (register counts, float mode, …); 0 when absent.
    pub const fn pgm_rsrc1(&self) -> u32 {
        match self.prog_info_value(gcn_asm::gallium::PGM_RSRC1) {
            Some(v) => v,
            None => 0,
        }
    }

    /// COMPUTE_PGM_RSRC2 (user SGPRs, TGID_*_EN, TG_SIZE_EN, LDS size, …);
    /// 0 when absent.
    pub const fn pgm_rsrc2(&self) -> u32 {
        match self.prog_info_value(gcn_asm::gallium::PGM_RSRC2) {
            Some(v) => v,
            None => 0,
        }
    }

    /// The number of user SGPRs the kernel expects (PGM_RSRC2 bits 1-5).
    pub const fn user_sgprs(&self) -> u32 {
        (self.pgm_rsrc2() >> 1) & 0x1f
    }

    /// The arguments the user supplies (semantic `general`), in order: the
    /// fields of the generated argument struct.
    pub fn user_args(&self) -> impl Iterator<Item = &'static Arg> {
        self.args
            .iter()
            .filter(|a| a.record.semantic == ArgSemantic::General)
    }

    /// Builds the kernel input buffer for `dispatch` from the user values
    /// (one per [`Kernel::user_args`], in order). For a kernel of an AMDHSA
    /// code object (a `.rocm` source), the kernarg segment instead: the
    /// explicit arguments at their metadata offsets, the hidden ones 0 (a
    /// launch fills them from the dispatch), no header.
    pub fn write_input(
        &self,
        values: &[ArgValue],
        dispatch: &Dispatch,
    ) -> Result<KernelInput, ArgError> {
        if gcn_asm::rocm::is_code_object(self.binary) {
            return crate::hsa::explicit_kernarg(self, values);
        }
        write_input(self.args, values, dispatch)
    }
}

/// The typed arguments of one kernel (generated by `gcn_kernel!`).
pub trait KernelArgs {
    /// The kernel the arguments are for.
    const KERNEL: Kernel;

    /// Calls `visit` with the value of every user argument, in `.arg`
    /// order.
    fn visit_values(&self, visit: &mut dyn FnMut(ArgValue));

    /// The values of the user arguments, in `.arg` order.
    fn values(&self) -> Vec<ArgValue> {
        let mut out = Vec::new();
        self.visit_values(&mut |v| out.push(v));
        out
    }

    /// The kernel input buffer for `dispatch`: header, these arguments and
    /// the ones the dispatcher fills (`griddim`, `gridoffset`, …); for a
    /// kernel of a code object (a `.rocm` source), its kernarg segment
    /// ([`Kernel::write_input`]).
    fn write_input(&self, dispatch: &Dispatch) -> Result<KernelInput, ArgError> {
        Self::KERNEL.write_input(&self.values(), dispatch)
    }
}

/// An address in device memory, as a `global` or `constant` argument
/// passes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct DevicePtr(pub u64);

/// A device address of elements of type `T`: the field type `gcn_kernel!`
/// gives a global-buffer argument whose metadata names its element type
/// (`.arg out, "float*", …`: `TypedPtr<f32>`), so that passing a buffer of
/// another element type does not compile. It passes the same address as a
/// [`DevicePtr`]; make one from a buffer (`buffer.typed_ptr()`,
/// `(&buffer).into()`) or, unchecked, from an address
/// ([`TypedPtr::from_raw`]).
pub struct TypedPtr<T> {
    ptr: DevicePtr,
    // `fn() -> T`: the pointer neither owns a `T` nor keeps it from being
    // `Send`/`Sync`.
    _element: std::marker::PhantomData<fn() -> T>,
}

impl<T> TypedPtr<T> {
    /// The pointer for address `ptr`, trusted to point at `T`s.
    pub const fn from_raw(ptr: DevicePtr) -> Self {
        TypedPtr {
            ptr,
            _element: std::marker::PhantomData,
        }
    }

    /// The untyped address.
    pub const fn ptr(self) -> DevicePtr {
        self.ptr
    }
}

impl<T: bytemuck::Pod> From<&crate::memory::Buffer<T>> for TypedPtr<T> {
    fn from(buffer: &crate::memory::Buffer<T>) -> Self {
        buffer.typed_ptr()
    }
}

// By hand: derives would ask `T` for the same traits, which the address
// does not need.
impl<T> Clone for TypedPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for TypedPtr<T> {}

impl<T> Default for TypedPtr<T> {
    fn default() -> Self {
        TypedPtr::from_raw(DevicePtr::default())
    }
}

impl<T> PartialEq for TypedPtr<T> {
    fn eq(&self, other: &Self) -> bool {
        self.ptr == other.ptr
    }
}

impl<T> Eq for TypedPtr<T> {}

impl<T> std::hash::Hash for TypedPtr<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.ptr.hash(state);
    }
}

impl<T> fmt::Debug for TypedPtr<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "TypedPtr<{}>({:#x})",
            std::any::type_name::<T>(),
            self.ptr.0
        )
    }
}

/// The size in bytes of a buffer in local memory (LDS), as a `local`
/// argument asks for it; the kernel receives the buffer's offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct LocalMemory(pub u32);

/// An image argument: its T# (written for 32- and 16-byte arguments), its
/// Clover resource slot (written for 4-byte ones), and what the `imgsize`
/// and `imgformat` arguments that follow it pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Image {
    /// Index of the image's resource (Clover: its sampler-view slot).
    pub slot: u32,
    /// The 256-bit T# (the first four words are the 128-bit form).
    pub words: [u32; 8],
    /// Width, height and depth in pixels.
    pub size: [u32; 3],
    /// OpenCL channel data type (`CL_UNORM_INT8`, …).
    pub channel_data_type: u32,
    /// OpenCL channel order (`CL_RGBA`, …).
    pub channel_order: u32,
}

/// A sampler argument: its S#, written for 16-byte arguments (for other
/// sizes nothing is written: Clover passes samplers out of band).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Sampler(pub [u32; 4]);

impl Sampler {
    /// The argument of a sampler resource, or the error naming the field
    /// that does not fit.
    pub fn new(
        s: &crate::descriptor::SamplerResource,
    ) -> Result<Sampler, crate::descriptor::DescriptorError> {
        Ok(Sampler(s.to_words()?))
    }
}

impl Image {
    /// The argument of a T#: its words, its size (width, height, depth or
    /// slices) and the OpenCL channel type and order of its format where
    /// OpenCL has them (0 otherwise).
    pub fn new(
        t: &crate::descriptor::ImageResource,
    ) -> Result<Image, crate::descriptor::DescriptorError> {
        let (channel_data_type, channel_order) = cl_format(t.data_format, t.num_format);
        Ok(Image {
            slot: 0,
            words: t.to_words()?,
            size: [t.width, t.height, t.depth],
            channel_data_type,
            channel_order,
        })
    }

    /// The argument of a device image.
    pub fn from_device(image: &crate::image::DeviceImage) -> Image {
        // A DeviceImage's resource was validated when it was made.
        Image::new(&image.resource()).unwrap_or_default()
    }
}

/// The OpenCL channel data type and channel order of an image format (0, 0
/// when OpenCL has none).
fn cl_format(d: crate::format::DataFormat, n: crate::format::NumFormat) -> (u32, u32) {
    use crate::format::{DataFormat as D, NumFormat as N};
    let order = match d {
        D::D8 | D::D16 | D::D32 => 0x10b0,                         // CL_R
        D::D8_8 | D::D16_16 | D::D32_32 => 0x10b2,                 // CL_RG
        D::D8_8_8_8 | D::D16_16_16_16 | D::D32_32_32_32 => 0x10b5, // CL_RGBA
        D::D5_6_5 => 0x10b4,                                       // CL_RGB
        _ => 0,
    };
    let bits = d.layout().map_or(0, |l| l.bits[0]);
    let ty = match (n, bits) {
        (N::Snorm, 8) => 0x10d0,                   // CL_SNORM_INT8
        (N::Snorm, 16) => 0x10d1,                  // CL_SNORM_INT16
        (N::Unorm, 8) => 0x10d2,                   // CL_UNORM_INT8
        (N::Unorm, 16) => 0x10d3,                  // CL_UNORM_INT16
        (N::Unorm, 5) if d == D::D5_6_5 => 0x10d4, // CL_UNORM_SHORT_565
        (N::Sint, 8) => 0x10d7,                    // CL_SIGNED_INT8
        (N::Sint, 16) => 0x10d8,                   // CL_SIGNED_INT16
        (N::Sint, 32) => 0x10d9,                   // CL_SIGNED_INT32
        (N::Uint, 8) => 0x10da,                    // CL_UNSIGNED_INT8
        (N::Uint, 16) => 0x10db,                   // CL_UNSIGNED_INT16
        (N::Uint, 32) => 0x10dc,                   // CL_UNSIGNED_INT32
        (N::Float, 16) => 0x10dd,                  // CL_HALF_FLOAT
        (N::Float, 32) => 0x10de,                  // CL_FLOAT
        _ => 0,
    };
    if order == 0 || ty == 0 {
        (0, 0)
    } else {
        (ty, order)
    }
}

/// The value of one user argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgValue {
    /// A `scalar`: its little-endian bytes (as many as the argument's size).
    Scalar(Vec<u8>),
    /// A `global` or `constant` pointer.
    Pointer(DevicePtr),
    /// A `local` buffer's size.
    Local(LocalMemory),
    /// An image.
    Image(Image),
    /// A sampler.
    Sampler(Sampler),
}

/// A Rust value that can be a kernel argument.
pub trait ArgField {
    /// The value as the input-buffer writer takes it.
    fn arg_value(&self) -> ArgValue;
}

macro_rules! scalar_fields {
    ($($t:ty),*) => {$(
        impl ArgField for $t {
            fn arg_value(&self) -> ArgValue {
                ArgValue::Scalar(self.to_le_bytes().to_vec())
            }
        }
    )*};
}
scalar_fields!(u8, i8, u16, i16, u32, i32, u64, i64, u128, i128, f32, f64);

impl<const N: usize> ArgField for [u8; N] {
    fn arg_value(&self) -> ArgValue {
        ArgValue::Scalar(self.to_vec())
    }
}

impl<const N: usize> ArgField for [u32; N] {
    fn arg_value(&self) -> ArgValue {
        ArgValue::Scalar(self.iter().flat_map(|w| w.to_le_bytes()).collect())
    }
}

impl ArgField for DevicePtr {
    fn arg_value(&self) -> ArgValue {
        ArgValue::Pointer(*self)
    }
}

impl<T> ArgField for TypedPtr<T> {
    fn arg_value(&self) -> ArgValue {
        ArgValue::Pointer(self.ptr)
    }
}

impl ArgField for LocalMemory {
    fn arg_value(&self) -> ArgValue {
        ArgValue::Local(*self)
    }
}

impl ArgField for Image {
    fn arg_value(&self) -> ArgValue {
        ArgValue::Image(*self)
    }
}

impl ArgField for Sampler {
    fn arg_value(&self) -> ArgValue {
        ArgValue::Sampler(*self)
    }
}

/// The shape of a dispatch: what the header and the `griddim` and
/// `gridoffset` arguments hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dispatch {
    /// Number of dimensions (1-3).
    pub dims: u32,
    /// Global size (work-items) per dimension; 1 for unused dimensions.
    pub global_size: [u32; 3],
    /// Local size (work-items per work-group) per dimension; 1 for unused
    /// dimensions.
    pub local_size: [u32; 3],
    /// Global offset per dimension; 0 for unused dimensions.
    pub global_offset: [u32; 3],
    /// Bytes of LDS a work-group gets on top of the kernel's own and its
    /// `__local` arguments' (HIP's dynamic shared memory, `extern
    /// __shared__`, which no argument asks for); 0 by default.
    pub dynamic_lds: u32,
}

impl Dispatch {
    /// A 1-dimensional dispatch of `global` work-items in work-groups of
    /// `local`.
    pub const fn new_1d(global: u32, local: u32) -> Self {
        Dispatch {
            dims: 1,
            global_size: [global, 1, 1],
            local_size: [local, 1, 1],
            global_offset: [0; 3],
            dynamic_lds: 0,
        }
    }

    /// A dispatch of `dims` dimensions (the unused ones are set to 1 and 0).
    pub fn new(dims: u32, global: [u32; 3], local: [u32; 3]) -> Self {
        let mut d = Dispatch {
            dims,
            global_size: global,
            local_size: local,
            global_offset: [0; 3],
            dynamic_lds: 0,
        };
        for i in (dims as usize).min(3)..3 {
            d.global_size[i] = 1;
            d.local_size[i] = 1;
        }
        d
    }

    /// The same dispatch with global offsets.
    pub const fn with_offset(mut self, offset: [u32; 3]) -> Self {
        self.global_offset = offset;
        self
    }

    /// The same dispatch with `bytes` of dynamic LDS per work-group.
    pub const fn with_dynamic_lds(mut self, bytes: u32) -> Self {
        self.dynamic_lds = bytes;
        self
    }

    /// Work-group counts per dimension.
    pub fn groups(&self) -> Result<[u32; 3], ArgError> {
        if !(1..=3).contains(&self.dims) {
            return Err(ArgError::BadDispatch(format!(
                "{} dimensions (1-3 are possible)",
                self.dims
            )));
        }
        let mut groups = [0; 3];
        for (i, g) in groups.iter_mut().enumerate() {
            let (global, local) = (self.global_size[i], self.local_size[i]);
            if local == 0 || global % local != 0 {
                return Err(ArgError::BadDispatch(format!(
                    "global size {global} is not a multiple of local size {local} in dimension {i}"
                )));
            }
            *g = global / local;
        }
        Ok(groups)
    }
}

/// A kernel input buffer, ready to be copied to device memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelInput {
    /// The header and the arguments.
    pub bytes: Vec<u8>,
    /// Bytes of local memory the `local` arguments take (besides the
    /// kernel's own `.localsize`).
    pub local_memory: u32,
}

/// Why an input buffer cannot be built.
#[derive(Clone, PartialEq, Eq)]
pub enum ArgError {
    /// Fewer values than user arguments.
    MissingValue {
        /// Index of the argument in the kernel's list.
        index: usize,
        /// Its name.
        name: &'static str,
    },
    /// More values than user arguments.
    TooManyValues {
        /// Number of user arguments.
        expected: usize,
        /// Number of values given.
        given: usize,
    },
    /// A value of the wrong kind or size.
    Mismatch {
        /// Index of the argument.
        index: usize,
        /// Its name.
        name: &'static str,
        /// What is wrong.
        message: String,
    },
    /// An `imgsize`/`imgformat` argument without an image before it.
    NoImage {
        /// Index of the argument.
        index: usize,
    },
    /// The dispatch cannot be expressed (zero local size, …).
    BadDispatch(String),
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::MissingValue { index, name } => {
                write!(f, "no value for argument {index} ({name})")
            }
            ArgError::TooManyValues { expected, given } => {
                write!(f, "{given} argument values for {expected} arguments")
            }
            ArgError::Mismatch {
                index,
                name,
                message,
            } => write!(f, "argument {index} ({name}): {message}"),
            ArgError::NoImage { index } => write!(
                f,
                "argument {index} passes an image's size or format but no image argument precedes it"
            ),
            ArgError::BadDispatch(message) => write!(f, "bad dispatch: {message}"),
        }
    }
}

impl std::error::Error for ArgError {}

/// Most bytes a kernel input buffer may have (header and arguments): far
/// above what any OpenCL device allows for arguments (4 KiB on AMD's),
/// far below what would exhaust the host.
pub const MAX_INPUT_BYTES: u64 = 1 << 20;

/// Builds the input buffer of a kernel with arguments `args` for `dispatch`
/// from the user values (one per `general` argument, in order). This is the
/// one implementation of the Gallium ABI's argument layout. Local buffers
/// are placed from LDS offset 0.
pub fn write_input(
    args: &[Arg],
    values: &[ArgValue],
    dispatch: &Dispatch,
) -> Result<KernelInput, ArgError> {
    write_input_with_local_base(args, values, dispatch, 0)
}

/// [`write_input`] with the local buffers placed from LDS byte
/// `local_base` on: the emulator puts them after the kernel's own LDS
/// (PGM_RSRC2.LDS_SIZE, where LLVM allocates `__local` variables from
/// offset 0), so the two never overlap.
pub fn write_input_with_local_base(
    args: &[Arg],
    values: &[ArgValue],
    dispatch: &Dispatch,
    local_base: u32,
) -> Result<KernelInput, ArgError> {
    let groups = dispatch.groups()?;
    let mut bytes = Vec::with_capacity(HEADER_SIZE + args.len() * 8);
    for v in groups
        .iter()
        .chain(&dispatch.global_size)
        .chain(&dispatch.local_size)
    {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    let mut w = Writer {
        bytes,
        local_memory: local_base,
    };
    let mut values = values.iter();
    let mut used = 0;
    let mut last_image: Option<Image> = None;
    for (index, arg) in args.iter().enumerate() {
        let r = &arg.record;
        let mismatch = |message: String| ArgError::Mismatch {
            index,
            name: arg.name,
            message,
        };
        // Checked before anything is built: a size or alignment from a
        // damaged binary must not make the host allocate gigabytes.
        let end = r
            .value_offset((w.bytes.len() - HEADER_SIZE) as u64)
            .saturating_add(u64::from(r.target_size))
            .saturating_add(HEADER_SIZE as u64);
        if end > MAX_INPUT_BYTES {
            return Err(mismatch(format!(
                "the argument ({} bytes, aligned to {}) would make the kernel input buffer {end} bytes, more than the {MAX_INPUT_BYTES} a kernel input may have",
                r.target_size, r.target_align
            )));
        }
        match r.semantic {
            ArgSemantic::General => {
                let value = values.next().ok_or(ArgError::MissingValue {
                    index,
                    name: arg.name,
                })?;
                used += 1;
                match (r.ty, value) {
                    (ArgType::Scalar, ArgValue::Scalar(b)) => {
                        if b.len() != r.size as usize {
                            return Err(mismatch(format!(
                                "{} bytes given for a {}-byte scalar",
                                b.len(),
                                r.size
                            )));
                        }
                        w.put(r, b);
                    }
                    (ArgType::Global | ArgType::Constant, ArgValue::Pointer(p)) => {
                        let size = (r.target_size as usize).min(8);
                        let b = p.0.to_le_bytes();
                        if b[size..].iter().any(|&x| x != 0) {
                            return Err(mismatch(format!(
                                "address {:#x} does not fit in {size} bytes",
                                p.0
                            )));
                        }
                        w.put(r, &b[..size]);
                    }
                    (ArgType::Local, ArgValue::Local(l)) => {
                        let offset = w.local_memory;
                        w.local_memory = offset.checked_add(l.0).ok_or_else(|| {
                            mismatch("local memory sizes overflow 32 bits".into())
                        })?;
                        w.put_zext(r, &offset.to_le_bytes());
                    }
                    (
                        ArgType::Image2dRdonly
                        | ArgType::Image2dWronly
                        | ArgType::Image3dRdonly
                        | ArgType::Image3dWronly,
                        ArgValue::Image(img),
                    ) => {
                        last_image = Some(*img);
                        let words: &[u32] = match r.target_size {
                            32 => &img.words,
                            16 => {
                                // The 128-bit form exists for 1-D and 2-D
                                // (MSAA) images only (the seed).
                                let ty = img.words[3] >> 28;
                                if !matches!(ty, 8 | 9 | 14) {
                                    return Err(mismatch(format!(
                                        "a 16-byte image argument takes a 128-bit T#, which image type {ty} has not"
                                    )));
                                }
                                &img.words[..4]
                            }
                            _ => std::slice::from_ref(&img.slot),
                        };
                        let b: Vec<u8> = words.iter().flat_map(|x| x.to_le_bytes()).collect();
                        w.put_zext(r, &b);
                    }
                    (ArgType::Sampler, ArgValue::Sampler(s)) => {
                        if r.target_size == 16 {
                            let b: Vec<u8> = s.0.iter().flat_map(|x| x.to_le_bytes()).collect();
                            w.put_zext(r, &b);
                        }
                    }
                    (ty, v) => {
                        return Err(mismatch(format!(
                            "a {} argument cannot take {}",
                            ty.name(),
                            value_kind(v)
                        )))
                    }
                }
            }
            ArgSemantic::GridDimension => w.put_zext(r, &dispatch.dims.to_le_bytes()),
            ArgSemantic::GridOffset => {
                for o in dispatch.global_offset {
                    w.put_zext(r, &o.to_le_bytes());
                }
            }
            ArgSemantic::ImageSize => {
                let img = last_image.ok_or(ArgError::NoImage { index })?;
                for s in img.size {
                    w.put_zext(r, &s.to_le_bytes());
                }
            }
            ArgSemantic::ImageFormat => {
                let img = last_image.ok_or(ArgError::NoImage { index })?;
                for s in [img.channel_data_type, img.channel_order] {
                    w.put_zext(r, &s.to_le_bytes());
                }
            }
        }
    }
    let extra = values.count();
    if extra > 0 {
        return Err(ArgError::TooManyValues {
            expected: used,
            given: used + extra,
        });
    }
    Ok(KernelInput {
        bytes: w.bytes,
        local_memory: w.local_memory - local_base,
    })
}

pub(crate) fn value_kind(v: &ArgValue) -> &'static str {
    match v {
        ArgValue::Scalar(_) => "a scalar",
        ArgValue::Pointer(_) => "a device pointer",
        ArgValue::Local(_) => "a local memory size",
        ArgValue::Image(_) => "an image",
        ArgValue::Sampler(_) => "a sampler",
    }
}

struct Writer {
    bytes: Vec<u8>,
    local_memory: u32,
}

impl Writer {
    /// Appends `value` extended to the target size of `r` (as `r` says:
    /// sign or zero), after padding to its target alignment counted from
    /// the end of the header.
    fn put(&mut self, r: &KernelArg, value: &[u8]) {
        self.put_ext(r, value, r.sign_extended);
    }

    /// Appends a value the dispatcher makes (an unsigned number).
    fn put_zext(&mut self, r: &KernelArg, value: &[u8]) {
        self.put_ext(r, value, false);
    }

    fn put_ext(&mut self, r: &KernelArg, value: &[u8], sign: bool) {
        // The one alignment rule, shared with the assembler's argument
        // offset symbols (`gcn_asm::gallium::arg_offsets`).
        let rel = (self.bytes.len() - HEADER_SIZE) as u64;
        self.bytes
            .resize(HEADER_SIZE + r.value_offset(rel) as usize, 0);
        let n = r.target_size as usize;
        let fill = if sign && value.last().is_some_and(|b| b & 0x80 != 0) {
            0xff
        } else {
            0
        };
        let start = self.bytes.len();
        self.bytes.extend(value.iter().take(n));
        self.bytes.resize(start + n, fill);
    }
}

#[cfg(test)]
mod tests;

/// The readable message (what [`fmt::Display`] writes), so that
/// `fn main() -> Result<(), Box<dyn Error>>` with `?` prints it rather
/// than a dump of the fields.
impl fmt::Debug for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
