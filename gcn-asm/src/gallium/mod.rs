//! The GalliumCompute (Mesa Clover) program binary, old (pre-LLVM-4.0)
//! format, as `clrxasm -b gallium` writes it and Clover and `clrxdisasm`
//! read it.
//!
//! A binary is a Clover "module" container — the kernels (name, offset in
//! the code, argument records) and one text section — whose text section
//! holds an inner ELF (ELF32, or ELF64 with `.64bit`): `.text` at file
//! offset 256 with the code of every kernel, `.AMDGPU.config` with 3 (5 from
//! LLVM 3.9 on) register address/value pairs per kernel, `.rodata` with the
//! constant global data when there is some, and a symbol table naming the
//! kernels. Scratch relocations (`.scratchsym`) add a `.rel.text` section
//! against the symbols `SCRATCH_RSRC_DWORD0`/`SCRATCH_RSRC_DWORD1`, which
//! Mesa's radeonsi patches with the scratch buffer's descriptor words.
//!
//! - [`GalliumBinary`] and friends: what a binary holds.
//! - [`write`](fn@write): a binary to bytes; [`read`](fn@read): bytes back to a binary (every
//!   malformation is a [`GalliumError`], never a panic).
//! - [`config`]: the `PGM_RSRC1`/`PGM_RSRC2`/scratch values from a kernel
//!   configuration (`.config`), as CLRX computes them.

pub mod config;
mod reader;
mod writer;

pub use reader::read;
pub use writer::{write, write_with, WriteOptions};

use std::fmt;

use crate::diag::SourcePos;

/// Register address of `PGM_RSRC1` in `.AMDGPU.config` (COMPUTE_PGM_RSRC1).
pub const PGM_RSRC1: u32 = 0xb848;
/// Register address of `PGM_RSRC2` (COMPUTE_PGM_RSRC2).
pub const PGM_RSRC2: u32 = 0xb84c;
/// Register address of the scratch setup (COMPUTE_TMPRING_SIZE).
pub const TMPRING_SIZE: u32 = 0xb860;
/// Pseudo-address of the spilled-SGPR count (LLVM 3.9 and later).
pub const SPILLED_SGPRS: u32 = 0x4;
/// Pseudo-address of the spilled-VGPR count (LLVM 3.9 and later).
pub const SPILLED_VGPRS: u32 = 0x8;

/// The kind of a kernel argument (Clover's numbering).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArgType {
    /// A value (including vectors such as `uint4`).
    Scalar,
    /// A pointer to constant memory.
    Constant,
    /// A pointer to global memory.
    Global,
    /// A pointer to local memory (its size is passed).
    Local,
    /// A read-only 2D image.
    Image2dRdonly,
    /// A write-only 2D image.
    Image2dWronly,
    /// A read-only 3D image.
    Image3dRdonly,
    /// A write-only 3D image.
    Image3dWronly,
    /// A sampler.
    Sampler,
}

impl ArgType {
    /// Every type, in Clover's numbering order.
    pub const ALL: [ArgType; 9] = [
        ArgType::Scalar,
        ArgType::Constant,
        ArgType::Global,
        ArgType::Local,
        ArgType::Image2dRdonly,
        ArgType::Image2dWronly,
        ArgType::Image3dRdonly,
        ArgType::Image3dWronly,
        ArgType::Sampler,
    ];

    /// The number stored in the binary.
    pub fn code(self) -> u32 {
        self as u32
    }

    /// The type stored as `code`, if any.
    pub fn from_code(code: u32) -> Option<ArgType> {
        Self::ALL.get(code as usize).copied()
    }

    /// The name `.arg` uses, as clrxasm spells it and clrxdisasm prints
    /// it (`image2d_rd` …; the CLRX doc's `image2d_rdonly` … are accepted
    /// by [`ArgType::from_name`] too).
    pub fn name(self) -> &'static str {
        match self {
            ArgType::Scalar => "scalar",
            ArgType::Constant => "constant",
            ArgType::Global => "global",
            ArgType::Local => "local",
            ArgType::Image2dRdonly => "image2d_rd",
            ArgType::Image2dWronly => "image2d_wr",
            ArgType::Image3dRdonly => "image3d_rd",
            ArgType::Image3dWronly => "image3d_wr",
            ArgType::Sampler => "sampler",
        }
    }

    /// The spelling of the image types in the CLRX documentation
    /// (`ClrxAsmGallium.md`), which clrxasm itself does not use.
    fn doc_name(self) -> Option<&'static str> {
        match self {
            ArgType::Image2dRdonly => Some("image2d_rdonly"),
            ArgType::Image2dWronly => Some("image2d_wronly"),
            ArgType::Image3dRdonly => Some("image3d_rdonly"),
            ArgType::Image3dWronly => Some("image3d_wronly"),
            _ => None,
        }
    }

    /// The type named `name` (lower case), if any: clrxasm's name or the
    /// CLRX doc's (`image2d_rd` or `image2d_rdonly` …).
    pub fn from_name(name: &str) -> Option<ArgType> {
        Self::ALL
            .into_iter()
            .find(|t| t.name() == name || t.doc_name() == Some(name))
    }
}

/// What the runtime puts in an argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArgSemantic {
    /// The value the host passes.
    General,
    /// The number of grid dimensions.
    GridDimension,
    /// The global offsets.
    GridOffset,
    /// An image's size.
    ImageSize,
    /// An image's format.
    ImageFormat,
}

impl ArgSemantic {
    /// Every semantic, in Clover's numbering order.
    pub const ALL: [ArgSemantic; 5] = [
        ArgSemantic::General,
        ArgSemantic::GridDimension,
        ArgSemantic::GridOffset,
        ArgSemantic::ImageSize,
        ArgSemantic::ImageFormat,
    ];

    /// The number stored in the binary.
    pub fn code(self) -> u32 {
        self as u32
    }

    /// The semantic stored as `code`, if any.
    pub fn from_code(code: u32) -> Option<ArgSemantic> {
        Self::ALL.get(code as usize).copied()
    }

    /// The name `.arg` uses.
    pub fn name(self) -> &'static str {
        match self {
            ArgSemantic::General => "general",
            ArgSemantic::GridDimension => "griddim",
            ArgSemantic::GridOffset => "gridoffset",
            ArgSemantic::ImageSize => "imgsize",
            ArgSemantic::ImageFormat => "imgformat",
        }
    }

    /// The semantic named `name` (lower case), if any.
    pub fn from_name(name: &str) -> Option<ArgSemantic> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// One kernel argument record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KernelArg {
    /// Kind of argument.
    pub ty: ArgType,
    /// Size of the host value in bytes.
    pub size: u32,
    /// Size in the kernel's input buffer (a multiple of 4).
    pub target_size: u32,
    /// Alignment in the kernel's input buffer.
    pub target_align: u32,
    /// Sign-extend (`sext`) rather than zero-extend (`zext`) to the target
    /// size.
    pub sign_extended: bool,
    /// What the runtime passes.
    pub semantic: ArgSemantic,
}

/// Where the arguments start in the kernel input buffer: after the 9 dwords
/// of the dispatch header (work-group counts, global sizes, local sizes).
pub const ARGS_START: u64 = 36;

/// The most bytes the arguments of one kernel may take in the kernel input
/// buffer (from [`ARGS_START`], alignment padding included), and so the
/// largest argument size, target size and alignment the assembler accepts:
/// 1 MiB, the reach of a scalar memory load's immediate offset from the
/// buffer's address on GCN 1.2 and later (20 bits) and far more than any
/// Clover driver passes as kernel input.
pub const MAX_ARGS_SIZE: u64 = 1 << 20;

impl KernelArg {
    /// How many values the dispatcher writes for the argument, each
    /// extended to the target size and aligned (Clover): 3 for `gridoffset`
    /// and `imgsize`, 2 for `imgformat`, none for a sampler (Clover passes
    /// samplers out of band) unless its target size is 16 (this project's
    /// ABI: the 128-bit S# itself, as `gcn_runtime`'s emulator takes it),
    /// 1 otherwise.
    pub fn value_count(&self) -> u32 {
        match self.semantic {
            ArgSemantic::General if self.ty == ArgType::Sampler => {
                u32::from(self.target_size == 16)
            }
            ArgSemantic::General | ArgSemantic::GridDimension => 1,
            ArgSemantic::GridOffset | ArgSemantic::ImageSize => 3,
            ArgSemantic::ImageFormat => 2,
        }
    }

    /// Where the next value of the argument goes, counted from
    /// [`ARGS_START`], when `end` bytes of arguments precede it: `end`
    /// rounded up to the target alignment. The alignment is relative to
    /// byte 36, not to the buffer: Clover lays the arguments out alone and
    /// the driver prepends the header.
    pub fn value_offset(&self, end: u64) -> u64 {
        end.next_multiple_of(u64::from(self.target_align.max(1)))
    }
}

/// The byte offset in the kernel input buffer (header included, so what an
/// `s_load_*` from `s[0:1]` takes on GCN 1.2 and later; divide by 4 for
/// the dword offsets of GCN 1.0/1.1's SMRD) of each argument's first value,
/// `None` for an argument with no value (a sampler). This is the layout
/// the runtime writes.
///
/// ```
/// use gcn_asm::gallium::{arg_offsets, ArgSemantic, ArgType, KernelArg};
///
/// let arg = |size, semantic| KernelArg {
///     ty: ArgType::Scalar,
///     size,
///     target_size: size,
///     target_align: size,
///     sign_extended: false,
///     semantic,
/// };
/// // A 4-byte scalar, then an 8-byte one: aligned to 8 relative to byte 36.
/// let args = [arg(4, ArgSemantic::General), arg(8, ArgSemantic::General)];
/// assert_eq!(arg_offsets(&args), [Some(36), Some(44)]);
/// ```
pub fn arg_offsets(args: &[KernelArg]) -> Vec<Option<u64>> {
    let mut end = 0;
    args.iter()
        .map(|arg| {
            let mut first = None;
            for _ in 0..arg.value_count() {
                let at = arg.value_offset(end);
                first.get_or_insert(ARGS_START + at);
                end = at + u64::from(arg.target_size);
            }
            first
        })
        .collect()
}

/// One `.AMDGPU.config` pair: a register address and its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ProgInfoEntry {
    /// Register address (`0xb848` = PGM_RSRC1, …).
    pub address: u32,
    /// Value.
    pub value: u32,
}

/// What clrxasm writes for the proginfo entries a kernel's `.proginfo`
/// leaves out: entry `i` missing is `PROG_INFO_DEFAULTS[i]`.
///
/// clrxasm starts every kernel with these five slots (the first three are
/// `GalliumInput::addEmptyKernel`'s defaults: PGM_RSRC1 with float mode
/// 0xc0, PGM_RSRC2 with 4 user SGPRs and the three group ids, no scratch;
/// the last two are zero-initialised, *not* the spilled-register
/// pseudo-addresses [`SPILLED_SGPRS`]/[`SPILLED_VGPRS`]) and each `.entry`
/// overwrites the next slot; the binary keeps the first 3, or 5 from LLVM
/// 3.9 on. A kernel with neither `.config` nor `.proginfo` gets them all.
pub const PROG_INFO_DEFAULTS: [ProgInfoEntry; 5] = [
    ProgInfoEntry {
        address: PGM_RSRC1,
        value: 0x000c_0000,
    },
    ProgInfoEntry {
        address: PGM_RSRC2,
        value: 0x0000_1788,
    },
    ProgInfoEntry {
        address: TMPRING_SIZE,
        value: 0,
    },
    ProgInfoEntry {
        address: 0,
        value: 0,
    },
    ProgInfoEntry {
        address: 0,
        value: 0,
    },
];

/// One kernel of a binary.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Kernel {
    /// Name (the symbol Clover looks up).
    pub name: String,
    /// Offset of the kernel's first instruction in the code.
    pub offset: u32,
    /// Arguments, in order.
    pub args: Vec<KernelArg>,
    /// The `.AMDGPU.config` pairs of the kernel (3, or 5 from LLVM 3.9 on).
    pub prog_info: Vec<ProgInfoEntry>,
}

/// How the source declared a kernel's argument: what the binary format does
/// not keep (see [`KernelDecl`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ArgDecl {
    /// The name given as `.arg NAME, TYPE, …` (an extension of CLRX's
    /// syntax), if any.
    pub name: Option<String>,
    /// Where the name is (where the `.arg` is, for an unnamed argument).
    pub pos: SourcePos,
    /// The `.arg` statement as written (comments removed).
    pub declaration: String,
}

/// A kernel as the source declared it, for tools that present kernels to
/// people (`gcn_kernel!` builds typed argument structs from it).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct KernelDecl {
    /// Name.
    pub name: String,
    /// Where `.kernel` names it.
    pub pos: SourcePos,
    /// One per `.arg`, parallel to [`Kernel::args`] of the kernel.
    pub args: Vec<ArgDecl>,
}

/// A whole GalliumCompute binary: what Clover and `clrxdisasm` read from it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct GalliumBinary {
    /// The inner ELF is ELF64 (`.64bit`) rather than ELF32.
    pub is_64bit: bool,
    /// Mesa 17.0's layout (`.driver_version` 170000 and later): the text
    /// section has Clover's type 2 ("executable") and the inner ELF says
    /// AMDGPU (OS ABI 0x40, machine 0xe0).
    pub mesa170: bool,
    /// Kernels, sorted by name (the writer sorts them).
    pub kernels: Vec<Kernel>,
    /// The code of every kernel (`.text`).
    pub code: Vec<u8>,
    /// Constant global data (`.rodata`), placed after the code at run time.
    pub global_data: Option<Vec<u8>>,
    /// Literal words of the code that the loader fills with the scratch
    /// buffer's descriptor (`.rel.text`), sorted by offset; empty for most
    /// binaries (which then have no `.rel.text`).
    pub scratch_relocations: Vec<ScratchRelocation>,
}

/// Symbol of the scratch relocations that take the low 32 bits (descriptor
/// word 0, the base address's low bits).
pub const SCRATCH_RSRC_DWORD0: &str = "SCRATCH_RSRC_DWORD0";
/// Symbol of the scratch relocations that take the high 32 bits
/// (descriptor word 1).
pub const SCRATCH_RSRC_DWORD1: &str = "SCRATCH_RSRC_DWORD1";
/// ELF relocation type written for the low half (`R_AMDGPU_ABS32_LO`).
pub const R_AMDGPU_ABS32_LO: u32 = 1;
/// ELF relocation type written for the high half (`R_AMDGPU_ABS32_HI`).
pub const R_AMDGPU_ABS32_HI: u32 = 2;

/// Which half of the 64-bit scratch value a relocated word receives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScratchHalf {
    /// Bits 0-31: `SYM`, `SYM&0xffffffff`, `SYM%0x100000000`; symbol
    /// `SCRATCH_RSRC_DWORD0`.
    Low,
    /// Bits 32-63: `SYM>>32`, `SYM/0x100000000`; symbol
    /// `SCRATCH_RSRC_DWORD1`.
    High,
}

impl ScratchHalf {
    /// The ELF symbol the relocation names.
    pub fn symbol(self) -> &'static str {
        match self {
            ScratchHalf::Low => SCRATCH_RSRC_DWORD0,
            ScratchHalf::High => SCRATCH_RSRC_DWORD1,
        }
    }

    /// The half a relocation against symbol `name` fills, if any.
    pub fn from_symbol(name: &[u8]) -> Option<ScratchHalf> {
        match name {
            b"SCRATCH_RSRC_DWORD0" => Some(ScratchHalf::Low),
            b"SCRATCH_RSRC_DWORD1" => Some(ScratchHalf::High),
            _ => None,
        }
    }

    /// The ELF relocation type the writer uses.
    pub fn relocation_type(self) -> u32 {
        match self {
            ScratchHalf::Low => R_AMDGPU_ABS32_LO,
            ScratchHalf::High => R_AMDGPU_ABS32_HI,
        }
    }
}

/// A 32-bit literal word of `.text` that receives half of the scratch
/// buffer's address at load time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ScratchRelocation {
    /// Byte offset of the word in the code (`.text`).
    pub offset: u32,
    /// Which half it receives.
    pub half: ScratchHalf,
}

/// Why a binary cannot be written or read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GalliumError {
    /// What is wrong, without a trailing period.
    pub message: String,
}

impl GalliumError {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        GalliumError {
            message: message.into(),
        }
    }
}

impl fmt::Display for GalliumError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for GalliumError {}
