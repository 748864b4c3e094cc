//! AMDHSA code objects (ROCm: clang's `amdgcn-amd-amdhsa` target, hipcc)
//! under the HSA ABI of LLVM's AMDGPU user guide.
//!
//! Loading ([`Program::load_code_object`](crate::Program::load_code_object)):
//! every `PT_LOAD` segment is placed in one device allocation at its virtual address from a common base, the dynamic
//! relocations are applied (`R_AMDGPU_RELATIVE64`: base + addend; the
//! absolute kinds: the symbol's loaded address + addend), and the code is
//! the executable segment (so the PC of an instruction is its offset in
//! that segment, and `s_getpc_b64` returns its loaded address).
//!
//! A launch ([`Program::launch`](crate::Program::launch)) builds what the
//! packet processor and the HSA runtime would:
//! - the **kernarg segment**: the explicit arguments at their metadata
//!   offsets, and the hidden ones: global offsets, printf buffer, the v5
//!   block counts, group sizes, remainders and grid dimensions, the dynamic
//!   LDS size, the private and shared apertures, the queue pointer and the
//!   hostcall buffer (HIP's `printf`, served while the kernel runs:
//!   [`crate::hostcall`]). A hidden argument the emulator does not serve
//!   (default queue, completion action, multigrid sync, heap) is null; a
//!   fault near address 0 names them;
//! - the 64-byte **AQL dispatch packet** (`hsa_kernel_dispatch_packet_t`:
//!   setup dimensions, work-group and grid sizes, private and group segment
//!   sizes, kernel object, kernarg address) and a 256-byte **queue**
//!   (`amd_queue_t` as far as LLVM reads it: the group and private
//!   aperture bases at bytes 0x40 and 0x44, which gfx8 code reads for
//!   address-space casts);
//! - the **user SGPRs** in enable-bit order: private segment buffer (a
//!   swizzled V# over the dispatch's scratch: element size 4, index stride
//!   64, ADD_TID, as the HSA runtime builds it), dispatch ptr, queue ptr,
//!   kernarg segment ptr, dispatch id, flat scratch init (gfx9: the scratch
//!   base, to which the kernel adds its wave offset; gfx8: offset 0 and the
//!   private bytes per lane), private segment size. The work-group ids, the
//!   work-group info and the private segment wave offset follow as for
//!   every GCN kernel ([`crate::launch`]). The emulator reaches private
//!   memory through the wave's own scratch slot, so `FLAT_SCRATCH` only
//!   has to hold what the kernel computes;
//! - LDS: the kernel's group segment, then the `__local` pointer arguments
//!   (each aligned to its pointee alignment), then the dispatch's dynamic
//!   LDS (HIP's `extern __shared__`, [`Dispatch::dynamic_lds`]);
//! - partial work-groups (a global size not a multiple of the local size)
//!   for kernels that allow them; for the others (metadata
//!   `uniform_work_group_size`, and OpenCL C before 2.0, whose v4 metadata
//!   cannot say so) such a dispatch is a clear error;
//! - `printf`: for OpenCL C, a printf buffer ([`crate::printf`]) whose
//!   records are formatted after the launch with the metadata's format
//!   strings; for HIP, the hostcall buffer, whose printf messages are
//!   formatted as each call ends ([`crate::hostcall`]).

use gcn_asm::rocm::{ArgMeta, CodeObject, RelocKind, RocmKernel, ValueKind};
use gcn_asm::GcnVersion;

use crate::descriptor::{BufferResource, ElementSize, IndexStride};
use crate::exec::flat::{PRIVATE_APERTURE, SHARED_APERTURE};
use crate::format::{DataFormat, NumFormat};
use crate::kernel::{ArgValue, Dispatch};
use crate::launch::{scratch_descriptor, KernelConfig, LaunchError, MAX_LDS};
use crate::memory::{Buffer, Memory};
use crate::program::LoadError;

/// Bytes of the printf buffer a launch gives a kernel that has printf
/// formats (the HSA runtime's default is larger; records that do not fit
/// are refused by the device library, and `printf` returns -1).
pub const PRINTF_BUFFER_BYTES: u32 = 1 << 20;

/// Most bytes a kernarg segment may have (the metadata's size is checked
/// against it before anything is allocated).
pub const MAX_KERNARG_BYTES: u32 = 1 << 20;

/// Most bytes the loaded segments of a code object may span (from virtual
/// address 0): far more than compiled kernels need, little enough that a
/// damaged program header cannot make the host reserve gigabytes.
pub const MAX_IMAGE_BYTES: u64 = 256 << 20;

/// Private bytes per work-item a kernel with a dynamic stack
/// (`USES_DYNAMIC_STACK`: recursion, calls through pointers) gets on top of
/// its fixed private segment, as the HSA runtime adds a default stack.
pub const DYNAMIC_STACK_BYTES: u32 = 1024;

/// Bytes of the dispatch packet.
pub const PACKET_BYTES: usize = 64;

/// Bytes of the queue structure.
pub const QUEUE_BYTES: usize = 256;

/// A code object placed in device memory.
pub(crate) struct Loaded {
    /// The whole image (every segment at base + vaddr).
    pub image: Buffer<u8>,
    /// Virtual address of the executable segment: kernel offsets are
    /// relative to it.
    pub code_vaddr: u64,
    /// The executable segment's bytes as words.
    pub code_words: Vec<u32>,
}

impl Loaded {
    /// Device address of virtual address 0.
    pub fn base(&self) -> u64 {
        self.image.ptr().0
    }
}

/// Loads the segments of `co` into `memory` and applies its dynamic
/// relocations.
pub(crate) fn load(memory: &Memory, co: &CodeObject) -> Result<Loaded, LoadError> {
    let bad = |m: String| LoadError::CodeObject(m);
    let mut extent = 0u64;
    for s in &co.segments {
        let end = s
            .vaddr
            .checked_add(s.mem_size.max(s.data.len() as u64))
            .ok_or_else(|| {
                bad(format!(
                    "PT_LOAD segment at {:#x}: its size overflows",
                    s.vaddr
                ))
            })?;
        extent = extent.max(end);
    }
    // Checked before allocating: a damaged header must not make the host
    // reserve gigabytes.
    if extent > MAX_IMAGE_BYTES.min(memory.limit()) {
        return Err(bad(format!(
            "the PT_LOAD segments reach virtual address {extent:#x}, more than the {} bytes a loaded code object may span",
            MAX_IMAGE_BYTES.min(memory.limit())
        )));
    }
    let mut bytes = vec![0u8; extent as usize];
    for s in &co.segments {
        let at = s.vaddr as usize;
        bytes[at..at + s.data.len()].copy_from_slice(&s.data);
    }
    let image = memory
        .buffer_zeroed::<u8>(extent.max(1) as usize)
        .map_err(LoadError::Alloc)?;
    let base = image.ptr().0;
    for r in &co.dynamic_relocations {
        let (value, size): (u64, usize) = match r.kind {
            RelocKind::Relative64 => (base.wrapping_add(r.addend as u64), 8),
            kind => {
                // A symbol defined in the code object has its virtual
                // address as value; 0 is an undefined one (the ELF header
                // sits at address 0, so no symbol is defined there). An
                // absolute symbol (SHN_ABS) is a number, not an address.
                if r.symbol_value == 0 && !r.symbol_absolute {
                    return Err(bad(format!(
                        "dynamic relocation at {:#x} refers to an undefined symbol (nothing to link it with)",
                        r.offset
                    )));
                }
                let symbol = if r.symbol_absolute {
                    r.symbol_value
                } else {
                    base.wrapping_add(r.symbol_value)
                };
                let s = symbol.wrapping_add(r.addend as u64);
                match kind {
                    RelocKind::Abs64 => (s, 8),
                    RelocKind::Abs32Hi => (s >> 32, 4),
                    _ => (s & 0xffff_ffff, 4),
                }
            }
        };
        let at = usize::try_from(r.offset).unwrap_or(usize::MAX);
        let Some(slot) = at.checked_add(size).and_then(|end| bytes.get_mut(at..end)) else {
            return Err(bad(format!(
                "dynamic relocation at {:#x} is outside the loaded segments (which end at {extent:#x})",
                r.offset
            )));
        };
        slot.copy_from_slice(&value.to_le_bytes()[..size]);
    }
    image.write_from(&bytes).map_err(LoadError::Alloc)?;
    // The code: the executable segment holding the kernels.
    let code = match co.kernels.first() {
        Some(k) => co
            .segments
            .iter()
            .find(|s| s.executable && k.entry >= s.vaddr && k.entry < s.vaddr + s.mem_size),
        None => co.segments.iter().find(|s| s.executable),
    };
    let (code_vaddr, code_words) = match code {
        Some(s) => {
            let end = (s.vaddr + s.mem_size) as usize;
            (
                s.vaddr,
                gcn_asm::decode::words_from_bytes(&bytes[s.vaddr as usize..end]),
            )
        }
        None if co.kernels.is_empty() => (0, Vec::new()),
        None => {
            return Err(bad(format!(
                "kernel '{}': its entry {:#x} is in no executable PT_LOAD segment",
                co.kernels[0].name, co.kernels[0].entry
            )))
        }
    };
    let code_end = code_vaddr + 4 * code_words.len() as u64;
    for k in &co.kernels {
        if k.entry < code_vaddr || k.entry >= code_end || !k.entry.is_multiple_of(4) {
            return Err(bad(format!(
                "kernel '{}': its entry {:#x} is not in the executable segment [{code_vaddr:#x}, {code_end:#x}) of the first kernel",
                k.name, k.entry
            )));
        }
    }
    Ok(Loaded {
        image,
        code_vaddr,
        code_words,
    })
}

/// The OpenCL C version a kernel's metadata gives (`.language_version`
/// with `.language: OpenCL C`; v2: `Language` / `LanguageVersion`), if
/// any.
pub(crate) fn opencl_version(co: &CodeObject, kernel: &str) -> Option<(u64, u64)> {
    let root = &co.metadata.as_ref()?.root;
    let (list, name, language, version) = if let Some(list) = root.get("amdhsa.kernels") {
        (list, ".name", ".language", ".language_version")
    } else {
        (root.get("Kernels")?, "Name", "Language", "LanguageVersion")
    };
    let k = list
        .as_array()?
        .iter()
        .find(|k| k.get(name).and_then(|n| n.as_str()) == Some(kernel))?;
    if k.get(language)?.as_str()? != "OpenCL C" {
        return None;
    }
    let v = k.get(version)?.as_array()?;
    Some((v.first()?.as_u64()?, v.get(1)?.as_u64()?))
}

/// The gallium-style argument record gcnrun and the generic argument
/// tooling read for an explicit argument of the metadata.
pub(crate) fn arg_record(a: &ArgMeta) -> crate::kernel::KernelArg {
    // One rule, shared with `gcn_kernel!`'s kernel handles.
    a.record()
}

/// The name of a hidden argument as the metadata spells it.
fn kind_name(k: &ValueKind) -> String {
    match k {
        ValueKind::Other(s) => s.clone(),
        k => k.v3_name().map_or_else(|| format!("{k:?}"), str::to_string),
    }
}

/// Private (scratch) bytes a work-item of `k` gets: its fixed private
/// segment, plus [`DYNAMIC_STACK_BYTES`] with a dynamic stack.
pub(crate) fn private_bytes(k: &RocmKernel) -> u32 {
    let stack = if k.descriptor.uses_dynamic_stack() {
        DYNAMIC_STACK_BYTES
    } else {
        0
    };
    k.private_segment_fixed_size.saturating_add(stack)
}

/// The execution setup of a code object kernel, from its descriptor.
pub(crate) fn config(k: &RocmKernel, version: GcnVersion) -> KernelConfig {
    let d = &k.descriptor;
    let max_sgprs = crate::exec::general_sgprs(version);
    let wave32 = version.is_gcn15() && d.wave32();
    // A lane's private bytes, 64 lanes, in the 1 KiB units the hardware
    // allocates scratch in.
    let per_wave = u64::from(private_bytes(k)) * 64;
    KernelConfig {
        // VGPRs in blocks of 8 in wave32 (GCN 1.5+), of 4 otherwise.
        vgprs: (if wave32 {
            (d.granulated_vgprs() + 1) * 8
        } else {
            d.vgpr_limit()
        })
        .min(256) as u16,
        // GCN 1.5+ gives every wave all 106 SGPRs (the granulated count is
        // reserved there).
        sgprs: if version.is_gcn15() {
            max_sgprs
        } else {
            d.sgpr_limit().min(u32::from(max_sgprs)) as u16
        },
        // MODE[7:0] = FLOAT_MODE, MODE[8] = DX10_CLAMP, MODE[9] = IEEE.
        mode: d.float_mode() | u32::from(d.dx10_clamp()) << 8 | u32::from(d.ieee_mode()) << 9,
        user_sgprs: d.user_sgpr_count(),
        tgid_enabled: d.workgroup_id_enabled(),
        tg_size_enabled: d.workgroup_info_enabled(),
        tidig_comp_cnt: d.workitem_id_vgprs().min(2),
        lds_bytes: k.group_segment_fixed_size,
        scratch_enabled: d.private_segment_wave_offset_enabled(),
        scratch_per_wave: per_wave
            .div_ceil(1024)
            .saturating_mul(1024)
            .min(u64::from(u32::MAX)) as u32,
        wave32,
    }
}

/// What a launch of a code object kernel sets up before the waves run.
pub(crate) struct Prepared {
    /// The kernarg segment.
    pub kernarg: Buffer<u8>,
    /// The AQL dispatch packet.
    pub packet: Buffer<u8>,
    /// The queue.
    pub queue: Buffer<u8>,
    /// The printf buffer, when the kernel has a printf buffer argument.
    pub printf: Option<Buffer<u8>>,
    /// The hostcall buffer, when the kernel has a hostcall buffer argument
    /// (HIP's `printf`).
    pub hostcall: Option<crate::hostcall::HostcallBuffer>,
    /// Work-groups per dimension (partial ones counted).
    pub groups: [u32; 3],
    /// Whether the last group of a dimension may be partial.
    pub partial: bool,
    /// LDS bytes of a group: the kernel's, the `__local` arguments', the
    /// dynamic LDS.
    pub lds_bytes: u32,
    /// The note a fault near address 0 gets: the hidden arguments left
    /// null; `None` when there are none.
    pub null_note: Option<String>,
}

/// The bytes of `k`'s kernarg segment: the metadata's size, or past the
/// last argument when that goes further (a damaged object).
fn kernarg_bytes(k: &RocmKernel) -> u32 {
    k.args
        .iter()
        .map(|a| a.offset.saturating_add(a.size))
        .max()
        .unwrap_or(0)
        .max(k.kernarg_segment_size)
}

/// The virtual address of the descriptor a dispatch of `k` names (the AQL
/// packet's `kernel_object`). A function kernel (clrxasm's `.fkernel`, a
/// global `STT_FUNC` symbol, in code object v2 and v3+ alike) is refused:
/// HSA dispatches kernel symbols by their descriptors, and a function has
/// none (v3+) or is not a kernel symbol (v2), whatever
/// `amd_kernel_code_t` lies at it.
pub(crate) fn kernel_object(k: &RocmKernel) -> Result<u64, LaunchError> {
    match k.descriptor_vaddr {
        Some(d) if !k.function => Ok(d),
        _ => Err(LaunchError::Config(format!(
            "kernel '{}' is a function kernel (.fkernel: a global STT_FUNC symbol with no kernel descriptor), which a dispatch cannot launch; launch a kernel that calls it",
            k.name
        ))),
    }
}

/// Builds the kernarg segment, dispatch packet and queue of a launch of
/// `k` (an OpenCL C kernel of version `opencl`, or `None`; its code object
/// loaded at `image_base`) with the explicit argument values `values` over
/// `dispatch`; a hostcall buffer gets `hostcall_packets` packets (at
/// least the waves that can run at once).
pub(crate) fn prepare(
    memory: &Memory,
    k: &RocmKernel,
    opencl: Option<(u64, u64)>,
    values: &[ArgValue],
    dispatch: &Dispatch,
    image_base: u64,
    hostcall_packets: u32,
) -> Result<Prepared, LaunchError> {
    let kernel_object = kernel_object(k)?;
    let dims = dispatch.dims;
    if !(1..=3).contains(&dims) {
        return Err(LaunchError::Dispatch(format!(
            "{dims} dimensions (1-3 are possible)"
        )));
    }
    let local = dispatch.local_size;
    let global = dispatch.global_size;
    if let Some(req) = k.reqd_workgroup_size {
        if req != local {
            return Err(LaunchError::Dispatch(format!(
                "kernel '{}' requires work-groups of {}×{}×{} (reqd_work_group_size) but the dispatch has {}×{}×{}",
                k.name, req[0], req[1], req[2], local[0], local[1], local[2]
            )));
        }
    }
    let group_items: u64 = local.iter().map(|&l| u64::from(l)).product();
    if let Some(max) = k.max_flat_workgroup_size {
        if group_items > u64::from(max) {
            return Err(LaunchError::Dispatch(format!(
                "a work-group of {group_items} work-items is larger than the {max} kernel '{}' was compiled for (max_flat_workgroup_size)",
                k.name
            )));
        }
    }
    // OpenCL C 1.2 (and older) requires uniform work-groups; v5 metadata
    // says so for any language, v4 only through the language version.
    let uniform = k.uniform_work_group_size || opencl.is_some_and(|v| v < (2, 0));
    let mut groups = [0u32; 3];
    let mut partial = false;
    for d in 0..3 {
        if local[d] == 0 || global[d] == 0 {
            return Err(LaunchError::Dispatch(format!(
                "a size of 0 in dimension {d} (global {}, local {})",
                global[d], local[d]
            )));
        }
        if !global[d].is_multiple_of(local[d]) {
            if uniform {
                return Err(LaunchError::Dispatch(format!(
                    "global size {} is not a multiple of local size {} in dimension {d}, and kernel '{}' needs uniform work-groups ({})",
                    global[d],
                    local[d],
                    k.name,
                    if k.uniform_work_group_size {
                        "uniform_work_group_size in its metadata".to_string()
                    } else {
                        let (a, b) = opencl.unwrap_or_default();
                        format!("OpenCL C {a}.{b}; partial work-groups need OpenCL C 2.0")
                    }
                )));
            }
            partial = true;
        }
        groups[d] = global[d].div_ceil(local[d]);
    }
    // The kernarg segment.
    let size = kernarg_bytes(k);
    if size > MAX_KERNARG_BYTES {
        return Err(LaunchError::Config(format!(
            "kernel '{}': a kernarg segment of {size} bytes (more than {MAX_KERNARG_BYTES})",
            k.name
        )));
    }
    let mut kernarg = vec![0u8; size.max(16) as usize];
    let mut lds = k.group_segment_fixed_size;
    let mut nulls = Vec::new();
    let mut printf = None;
    let mut hostcall = None;
    let mut explicit = 0usize;
    let mut values_iter = values.iter();
    // Allocated up front: the packet and the queue are pointed to by
    // hidden arguments and user SGPRs.
    let packet = memory.buffer_zeroed::<u8>(PACKET_BYTES)?;
    let queue = memory.buffer_zeroed::<u8>(QUEUE_BYTES)?;
    let put = |kernarg: &mut Vec<u8>, a: &ArgMeta, value: u64| {
        let n = (a.size as usize).min(8);
        let at = a.offset as usize;
        kernarg[at..at + n].copy_from_slice(&value.to_le_bytes()[..n]);
    };
    let ext = |v: u32| u64::from(v);
    for a in &k.args {
        let mismatch = |message: String| {
            LaunchError::Args(crate::kernel::ArgError::Mismatch {
                index: explicit,
                name: crate::program::arg_name(explicit),
                message,
            })
        };
        if !a.value_kind.is_hidden() {
            let value = values_iter.next().ok_or_else(|| {
                LaunchError::Args(crate::kernel::ArgError::MissingValue {
                    index: explicit,
                    name: crate::program::arg_name(explicit),
                })
            })?;
            put_explicit(&mut kernarg, a, value, &mut lds).map_err(mismatch)?;
            explicit += 1;
            continue;
        }
        let v: Option<u64> = match &a.value_kind {
            ValueKind::HiddenGlobalOffsetX => Some(ext(dispatch.global_offset[0])),
            ValueKind::HiddenGlobalOffsetY => Some(ext(dispatch.global_offset[1])),
            ValueKind::HiddenGlobalOffsetZ => Some(ext(dispatch.global_offset[2])),
            // The full work-groups (the device libraries add one when the
            // remainder is not 0, as the HSA runtime's v5 layout has it).
            ValueKind::HiddenBlockCountX => Some(ext(global[0] / local[0])),
            ValueKind::HiddenBlockCountY => Some(ext(global[1] / local[1])),
            ValueKind::HiddenBlockCountZ => Some(ext(global[2] / local[2])),
            ValueKind::HiddenGroupSizeX => Some(ext(local[0])),
            ValueKind::HiddenGroupSizeY => Some(ext(local[1])),
            ValueKind::HiddenGroupSizeZ => Some(ext(local[2])),
            ValueKind::HiddenRemainderX => Some(ext(global[0] % local[0])),
            ValueKind::HiddenRemainderY => Some(ext(global[1] % local[1])),
            ValueKind::HiddenRemainderZ => Some(ext(global[2] % local[2])),
            ValueKind::HiddenGridDims => Some(ext(dims)),
            ValueKind::HiddenDynamicLdsSize => Some(ext(dispatch.dynamic_lds)),
            ValueKind::HiddenPrivateBase => Some(PRIVATE_APERTURE >> 32),
            ValueKind::HiddenSharedBase => Some(SHARED_APERTURE >> 32),
            ValueKind::HiddenQueuePtr => Some(queue.ptr().0),
            ValueKind::HiddenPrintfBuffer => {
                // Header: write offset 0, the buffer's size.
                let mut bytes = vec![0u8; PRINTF_BUFFER_BYTES as usize];
                bytes[4..8].copy_from_slice(&PRINTF_BUFFER_BYTES.to_le_bytes());
                let b = memory.buffer_from_slice(&bytes)?;
                let p = b.ptr().0;
                printf = Some(b);
                Some(p)
            }
            ValueKind::HiddenHostcallBuffer => {
                let b = crate::hostcall::HostcallBuffer::new(memory, hostcall_packets)?;
                let p = b.address();
                hostcall = Some(b);
                Some(p)
            }
            // Padding the metadata reserves: nothing to pass.
            ValueKind::HiddenNone => None,
            other => {
                nulls.push(format!("{} (kernarg byte {})", kind_name(other), a.offset));
                None
            }
        };
        if let Some(v) = v {
            put(&mut kernarg, a, v);
        }
    }
    let extra = values_iter.count();
    if extra > 0 {
        return Err(LaunchError::Args(crate::kernel::ArgError::TooManyValues {
            expected: explicit,
            given: explicit + extra,
        }));
    }
    // HIP's dynamic shared memory follows everything else, aligned as
    // LLVM aligns the dynamic LDS symbol.
    if dispatch.dynamic_lds > 0 {
        lds = lds
            .next_multiple_of(16)
            .checked_add(dispatch.dynamic_lds)
            .filter(|&e| e <= MAX_LDS)
            .ok_or_else(|| {
                LaunchError::Config(format!(
                    "{} bytes of dynamic LDS after {lds} bytes exceed the {MAX_LDS} bytes of LDS",
                    dispatch.dynamic_lds
                ))
            })?;
    }
    if lds > MAX_LDS {
        return Err(LaunchError::Config(format!(
            "kernel '{}': {lds} bytes of LDS (its group segment, local arguments and dynamic LDS) exceed {MAX_LDS}",
            k.name
        )));
    }
    // The scratch descriptor's stride (a lane's bytes) has 14 bits.
    let private = private_bytes(k);
    if private.div_ceil(16) * 16 > 0x3fff {
        return Err(LaunchError::Config(format!(
            "kernel '{}': {private} private bytes per work-item, more than the 16383 a scratch descriptor's stride can give",
            k.name
        )));
    }
    let kernarg_buffer = memory.buffer_from_slice(&kernarg)?;
    // The dispatch packet (hsa_kernel_dispatch_packet_t).
    let mut p = [0u8; PACKET_BYTES];
    // header: type KERNEL_DISPATCH (2), system-scope acquire and release
    // fences (2 << 9, 2 << 11); setup: the dimensions.
    p[0..2].copy_from_slice(&(2u16 | 2 << 9 | 2 << 11).to_le_bytes());
    p[2..4].copy_from_slice(&(dims as u16).to_le_bytes());
    for d in 0..3 {
        p[4 + 2 * d..6 + 2 * d].copy_from_slice(&(local[d].min(0xffff) as u16).to_le_bytes());
        p[12 + 4 * d..16 + 4 * d].copy_from_slice(&global[d].to_le_bytes());
    }
    p[24..28].copy_from_slice(&private_bytes(k).to_le_bytes());
    p[28..32].copy_from_slice(&lds.to_le_bytes());
    p[32..40].copy_from_slice(&image_base.wrapping_add(kernel_object).to_le_bytes());
    p[40..48].copy_from_slice(&kernarg_buffer.ptr().0.to_le_bytes());
    packet.write_from(&p)?;
    // The queue (hsa_queue_t, then amd_queue_t's aperture words).
    let mut q = [0u8; QUEUE_BYTES];
    q[4..8].copy_from_slice(&1u32.to_le_bytes()); // features: kernel dispatch
    q[8..16].copy_from_slice(&packet.ptr().0.to_le_bytes()); // base_address
    q[24..28].copy_from_slice(&1u32.to_le_bytes()); // size: one packet
    q[0x40..0x44].copy_from_slice(&((SHARED_APERTURE >> 32) as u32).to_le_bytes());
    q[0x44..0x48].copy_from_slice(&((PRIVATE_APERTURE >> 32) as u32).to_le_bytes());
    queue.write_from(&q)?;
    let null_note = (!nulls.is_empty()).then(|| {
        format!(
            "an address near 0: kernel '{}' has hidden arguments the emulator does not serve, passed as null: {}",
            k.name,
            nulls.join(", ")
        )
    });
    Ok(Prepared {
        kernarg: kernarg_buffer,
        packet,
        queue,
        printf,
        hostcall,
        groups,
        partial,
        lds_bytes: lds,
        null_note,
    })
}

/// Writes the value of explicit argument `a` into `kernarg` at its
/// metadata offset: by-value bytes as given (exactly its size), a global
/// buffer's address, or for a dynamic shared pointer the LDS offset of a
/// buffer of the given size placed at `lds` (aligned to the pointee
/// alignment; `lds` moves past it). `Err`: why the value does not fit.
/// The one layout of explicit arguments: launches and
/// [`Kernel::write_input`](crate::kernel::Kernel::write_input) use it.
fn put_explicit(
    kernarg: &mut [u8],
    a: &ArgMeta,
    value: &ArgValue,
    lds: &mut u32,
) -> Result<(), String> {
    let put = |kernarg: &mut [u8], value: u64| {
        let n = (a.size as usize).min(8);
        let at = a.offset as usize;
        kernarg[at..at + n].copy_from_slice(&value.to_le_bytes()[..n]);
    };
    match (&a.value_kind, value) {
        (ValueKind::ByValue, ArgValue::Scalar(b)) => {
            if b.len() != a.size as usize {
                return Err(format!(
                    "{} bytes given for a {}-byte value",
                    b.len(),
                    a.size
                ));
            }
            let at = a.offset as usize;
            kernarg[at..at + b.len()].copy_from_slice(b);
        }
        (ValueKind::GlobalBuffer, ArgValue::Pointer(p)) => put(kernarg, p.0),
        (ValueKind::DynamicSharedPointer, ArgValue::Local(l)) => {
            let align = a.pointee_align.unwrap_or(4).clamp(1, 1 << 16);
            let at = lds.next_multiple_of(align);
            put(kernarg, u64::from(at));
            *lds = at
                .checked_add(l.0)
                .filter(|&e| e <= MAX_LDS)
                .ok_or_else(|| {
                    format!(
                    "{} bytes of local memory at LDS offset {at} exceed the {MAX_LDS} bytes of LDS",
                    l.0
                )
                })?;
        }
        (
            kind @ (ValueKind::Image | ValueKind::Sampler | ValueKind::Pipe | ValueKind::Queue),
            _,
        )
        | (kind @ ValueKind::Other(_), _) => {
            return Err(format!(
                "arguments of value kind {} are not supported by the emulator's HSA ABI",
                kind_name(kind)
            ))
        }
        (kind, v) => {
            return Err(format!(
                "a {} argument cannot take {}",
                kind_name(kind),
                crate::kernel::value_kind(v)
            ))
        }
    }
    Ok(())
}

/// The explicit part of the kernarg segment of `kernel` (of a code
/// object) for `values` (one per explicit argument): the bytes of the
/// whole segment, the hidden arguments left 0 (a launch fills them), and
/// the LDS the dynamic shared pointers take after the kernel's group
/// segment.
pub(crate) fn explicit_kernarg(
    kernel: &crate::kernel::Kernel,
    values: &[ArgValue],
) -> Result<crate::kernel::KernelInput, crate::kernel::ArgError> {
    use crate::kernel::ArgError;
    let (binary, name) = (kernel.binary, kernel.name);
    let arg_name = |i: usize| {
        kernel
            .args
            .get(i)
            .map_or_else(|| crate::program::arg_name(i), |a| a.name)
    };
    let bad = |message: String| ArgError::Mismatch {
        index: 0,
        name,
        message,
    };
    let co = gcn_asm::rocm::read(binary).map_err(|e| bad(format!("the code object: {e}")))?;
    let k = co
        .kernels
        .iter()
        .find(|k| k.name == name)
        .ok_or_else(|| bad(format!("no kernel '{name}' in the code object")))?;
    let size = kernarg_bytes(k);
    if size > MAX_KERNARG_BYTES {
        return Err(bad(format!(
            "a kernarg segment of {size} bytes (more than {MAX_KERNARG_BYTES})"
        )));
    }
    let mut bytes = vec![0u8; size as usize];
    let mut lds = k.group_segment_fixed_size;
    let mut values = values.iter();
    let mut explicit = 0;
    for a in k.args.iter().filter(|a| !a.value_kind.is_hidden()) {
        let value = values.next().ok_or(ArgError::MissingValue {
            index: explicit,
            name: arg_name(explicit),
        })?;
        put_explicit(&mut bytes, a, value, &mut lds).map_err(|message| ArgError::Mismatch {
            index: explicit,
            name: arg_name(explicit),
            message,
        })?;
        explicit += 1;
    }
    let extra = values.count();
    if extra > 0 {
        return Err(ArgError::TooManyValues {
            expected: explicit,
            given: explicit + extra,
        });
    }
    Ok(crate::kernel::KernelInput {
        bytes,
        local_memory: lds - k.group_segment_fixed_size,
    })
}

/// The values of the user SGPRs of `k`, in enable-bit order, for a
/// dispatch whose scratch starts at `scratch_base` with `per_wave` bytes a
/// wave.
pub(crate) fn user_sgprs(
    k: &RocmKernel,
    p: &Prepared,
    version: GcnVersion,
    scratch_base: u64,
    per_wave: u32,
    dispatch_id: u64,
) -> Result<Vec<u32>, LaunchError> {
    let u = k.descriptor.user_sgpr_setup();
    let mut s = Vec::with_capacity(16);
    let split = |s: &mut Vec<u32>, v: u64| {
        s.push(v as u32);
        s.push((v >> 32) as u32);
    };
    if u.private_segment_buffer && version.is_gcn15() {
        let [w0, w1] = scratch_descriptor(scratch_base, per_wave);
        // GCN 1.5+ words 2 and 3 (LLVM's getScratchRsrcWords23 for GFX10):
        // all records; FORMAT 32_FLOAT (the unified format 22, bits 12-18),
        // INDEX_STRIDE 64 or 32 lanes (3 or 2, bits 21-22) by the wave
        // size, ADD_TID_ENABLE (23), RESOURCE_LEVEL 1 (24), OOB_SELECT 3
        // (raw, bits 28-29).
        let stride = if k.descriptor.wave32() { 2 } else { 3 };
        let word3 = 22 << 12 | stride << 21 | 1 << 23 | 1 << 24 | 3 << 28;
        s.extend_from_slice(&[w0, w1, u32::MAX, word3]);
    } else if u.private_segment_buffer {
        let [w0, w1] = scratch_descriptor(scratch_base, per_wave);
        // Words 2 and 3 as the HSA runtime writes them (LLVM's
        // getScratchRsrcWords23): all records, 32-bit data format,
        // ADD_TID, index stride 64, element size 4 (GCN 1.4 has no
        // element size field).
        let mut b = BufferResource::builder()
            .num_records(u64::from(u32::MAX))
            .format(DataFormat::D32, NumFormat::Unorm)
            .index_stride(IndexStride::S64)
            .tid_enable(true);
        if !version.is_gcn14() {
            b = b.element_size(ElementSize::B4);
        }
        let words = b
            .build()
            .map_err(|e| LaunchError::Config(format!("the private segment buffer: {e}")))?
            .to_words();
        s.extend_from_slice(&[w0, w1, words[2], words[3]]);
    }
    if u.dispatch_ptr {
        split(&mut s, p.packet.ptr().0);
    }
    if u.queue_ptr {
        split(&mut s, p.queue.ptr().0);
    }
    if u.kernarg_segment_ptr {
        split(&mut s, p.kernarg.ptr().0);
    }
    if u.dispatch_id {
        split(&mut s, dispatch_id);
    }
    if u.flat_scratch_init {
        if version.is_gcn14_or_later() {
            split(&mut s, scratch_base);
        } else {
            // gfx8: the scratch offset from the private base (the wave
            // adds its own), and the private bytes of a lane.
            s.push(0);
            s.push(private_bytes(k));
        }
    }
    if u.private_segment_size {
        s.push(private_bytes(k));
    }
    let count = k.descriptor.user_sgpr_count() as usize;
    if s.len() > count {
        return Err(LaunchError::Config(format!(
            "kernel '{}' enables {} user SGPRs of setup (kernel_code_properties) but loads only {count} (COMPUTE_PGM_RSRC2.USER_SGPR)",
            k.name,
            s.len()
        )));
    }
    // User SGPRs past the setup ones (none in LLVM's code) start as 0.
    s.resize(count, 0);
    Ok(s)
}

/// The text of the records of a launch's printf buffer.
pub(crate) fn printf_text(
    formats: &[crate::printf::Format],
    buffer: &Buffer<u8>,
) -> Result<String, crate::printf::PrintfError> {
    crate::printf::format_buffer(formats, &buffer.to_bytes())
}
