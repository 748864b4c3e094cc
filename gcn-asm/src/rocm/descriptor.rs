//! The two kernel header layouts: the 64-byte kernel descriptor of code
//! objects v3+ and the 256-byte `amd_kernel_code_t` of code object v2 (and
//! of CLRX's ROCm binaries), with the bit fields of `COMPUTE_PGM_RSRC1/2`
//! and `kernel_code_properties` named once here.

/// Size of an `amd_kernel_code_t`.
pub const AMD_KERNEL_CODE_SIZE: usize = 256;
/// Size of a code object v3+ kernel descriptor.
pub const KERNEL_DESCRIPTOR_SIZE: usize = 64;

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// The fields of LLVM's AMDGPUUsage "Kernel Descriptor" (code object v3+).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KernelDescriptor {
    /// Fixed LDS bytes per work-group.
    pub group_segment_fixed_size: u32,
    /// Fixed scratch bytes per work-item.
    pub private_segment_fixed_size: u32,
    /// Size of the kernarg segment.
    pub kernarg_size: u32,
    /// From the descriptor's address to the kernel's first instruction.
    pub kernel_code_entry_byte_offset: i64,
    /// `COMPUTE_PGM_RSRC1`.
    pub compute_pgm_rsrc1: u32,
    /// `COMPUTE_PGM_RSRC2`.
    pub compute_pgm_rsrc2: u32,
    /// `COMPUTE_PGM_RSRC3` (0 before gfx90a).
    pub compute_pgm_rsrc3: u32,
    /// The enable bits of the user SGPRs and more.
    pub kernel_code_properties: u16,
}

/// Which user SGPRs the kernel asks for, in the order they are loaded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UserSgprs {
    /// Private segment buffer (4 SGPRs).
    pub private_segment_buffer: bool,
    /// Dispatch packet pointer (2).
    pub dispatch_ptr: bool,
    /// Queue pointer (2).
    pub queue_ptr: bool,
    /// Kernarg segment pointer (2).
    pub kernarg_segment_ptr: bool,
    /// Dispatch id (2).
    pub dispatch_id: bool,
    /// Flat scratch init (2).
    pub flat_scratch_init: bool,
    /// Private segment size (1).
    pub private_segment_size: bool,
}

impl UserSgprs {
    /// From the low 7 bits of `kernel_code_properties` (the same in v2 and v3+).
    pub fn from_properties(props: u32) -> UserSgprs {
        UserSgprs {
            private_segment_buffer: props & 1 != 0,
            dispatch_ptr: props & 2 != 0,
            queue_ptr: props & 4 != 0,
            kernarg_segment_ptr: props & 8 != 0,
            dispatch_id: props & 0x10 != 0,
            flat_scratch_init: props & 0x20 != 0,
            private_segment_size: props & 0x40 != 0,
        }
    }

    /// The SGPRs these take.
    pub fn count(&self) -> u32 {
        [
            (self.private_segment_buffer, 4),
            (self.dispatch_ptr, 2),
            (self.queue_ptr, 2),
            (self.kernarg_segment_ptr, 2),
            (self.dispatch_id, 2),
            (self.flat_scratch_init, 2),
            (self.private_segment_size, 1),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, n)| n)
        .sum()
    }
}

fn bits(word: u32, low: u32, width: u32) -> u32 {
    (word >> low) & ((1u32 << width) - 1)
}

impl KernelDescriptor {
    /// Reads the 64-byte layout; `None` when `bytes` is shorter.
    pub fn from_bytes(bytes: &[u8]) -> Option<KernelDescriptor> {
        if bytes.len() < KERNEL_DESCRIPTOR_SIZE {
            return None;
        }
        Some(KernelDescriptor {
            group_segment_fixed_size: u32_at(bytes, 0),
            private_segment_fixed_size: u32_at(bytes, 4),
            kernarg_size: u32_at(bytes, 8),
            kernel_code_entry_byte_offset: u64_at(bytes, 16) as i64,
            compute_pgm_rsrc3: u32_at(bytes, 44),
            compute_pgm_rsrc1: u32_at(bytes, 48),
            compute_pgm_rsrc2: u32_at(bytes, 52),
            kernel_code_properties: u16_at(bytes, 56),
        })
    }

    /// The 64-byte layout (reserved bytes zero).
    pub fn to_bytes(&self) -> [u8; KERNEL_DESCRIPTOR_SIZE] {
        let mut b = [0u8; KERNEL_DESCRIPTOR_SIZE];
        b[0..4].copy_from_slice(&self.group_segment_fixed_size.to_le_bytes());
        b[4..8].copy_from_slice(&self.private_segment_fixed_size.to_le_bytes());
        b[8..12].copy_from_slice(&self.kernarg_size.to_le_bytes());
        b[16..24].copy_from_slice(&self.kernel_code_entry_byte_offset.to_le_bytes());
        b[44..48].copy_from_slice(&self.compute_pgm_rsrc3.to_le_bytes());
        b[48..52].copy_from_slice(&self.compute_pgm_rsrc1.to_le_bytes());
        b[52..56].copy_from_slice(&self.compute_pgm_rsrc2.to_le_bytes());
        b[56..58].copy_from_slice(&self.kernel_code_properties.to_le_bytes());
        b
    }

    /// The user SGPRs the properties enable.
    pub fn user_sgpr_setup(&self) -> UserSgprs {
        UserSgprs::from_properties(u32::from(self.kernel_code_properties))
    }
    /// `COMPUTE_PGM_RSRC2.USER_SGPR`: how many user SGPRs are loaded.
    pub fn user_sgpr_count(&self) -> u32 {
        bits(self.compute_pgm_rsrc2, 1, 5)
    }
    /// `ENABLE_SGPR_WORKGROUP_ID_X/Y/Z`.
    pub fn workgroup_id_enabled(&self) -> [bool; 3] {
        [7, 8, 9].map(|b| self.compute_pgm_rsrc2 >> b & 1 != 0)
    }
    /// `ENABLE_SGPR_WORKGROUP_INFO`.
    pub fn workgroup_info_enabled(&self) -> bool {
        self.compute_pgm_rsrc2 >> 10 & 1 != 0
    }
    /// `ENABLE_PRIVATE_SEGMENT` (SCRATCH_EN): the wave's scratch offset SGPR.
    pub fn private_segment_wave_offset_enabled(&self) -> bool {
        self.compute_pgm_rsrc2 & 1 != 0
    }
    /// `ENABLE_VGPR_WORKITEM_ID`: 0 (x), 1 (x, y) or 2 (x, y, z).
    pub fn workitem_id_vgprs(&self) -> u32 {
        bits(self.compute_pgm_rsrc2, 11, 2)
    }
    /// `ENABLE_TRAP_HANDLER`.
    pub fn trap_handler_enabled(&self) -> bool {
        self.compute_pgm_rsrc2 >> 6 & 1 != 0
    }
    /// `EXCP_EN` and the two address-watch/memory-violation bits (rsrc2 bits 13..=14, 24..=30), as CLRX's 7-bit `.exceptions` mask.
    pub fn exceptions(&self) -> u32 {
        bits(self.compute_pgm_rsrc2, 24, 7)
    }
    /// `GRANULATED_LDS_SIZE` (rsrc2 bits 15..=23).
    pub fn granulated_lds_size(&self) -> u32 {
        bits(self.compute_pgm_rsrc2, 15, 9)
    }
    /// `GRANULATED_WORKITEM_VGPR_COUNT` (rsrc1 bits 0..=5).
    pub fn granulated_vgprs(&self) -> u32 {
        bits(self.compute_pgm_rsrc1, 0, 6)
    }
    /// `GRANULATED_WAVEFRONT_SGPR_COUNT` (rsrc1 bits 6..=9).
    pub fn granulated_sgprs(&self) -> u32 {
        bits(self.compute_pgm_rsrc1, 6, 4)
    }
    /// VGPRs the granulated count allows (blocks of 4 on wave64 GCN).
    pub fn vgpr_limit(&self) -> u32 {
        (self.granulated_vgprs() + 1) * 4
    }
    /// SGPRs the granulated count allows (blocks of 8 on GCN 1.2+).
    pub fn sgpr_limit(&self) -> u32 {
        (self.granulated_sgprs() + 1) * 8
    }
    /// `PRIORITY` (rsrc1 bits 10..=11).
    pub fn priority(&self) -> u32 {
        bits(self.compute_pgm_rsrc1, 10, 2)
    }
    /// `FLOAT_ROUND_MODE_32/16_64` and `FLOAT_DENORM_MODE_32/16_64` as one
    /// byte (rsrc1 bits 12..=19): CLRX's `.floatmode`.
    pub fn float_mode(&self) -> u32 {
        bits(self.compute_pgm_rsrc1, 12, 8)
    }
    /// `PRIV`.
    pub fn priv_mode(&self) -> bool {
        self.compute_pgm_rsrc1 >> 20 & 1 != 0
    }
    /// `ENABLE_DX10_CLAMP`.
    pub fn dx10_clamp(&self) -> bool {
        self.compute_pgm_rsrc1 >> 21 & 1 != 0
    }
    /// `DEBUG_MODE`.
    pub fn debug_mode(&self) -> bool {
        self.compute_pgm_rsrc1 >> 22 & 1 != 0
    }
    /// `ENABLE_IEEE_MODE`.
    pub fn ieee_mode(&self) -> bool {
        self.compute_pgm_rsrc1 >> 23 & 1 != 0
    }
    /// `ENABLE_WAVEFRONT_SIZE32` (properties bit 10).
    pub fn wave32(&self) -> bool {
        self.kernel_code_properties >> 10 & 1 != 0
    }
    /// `USES_DYNAMIC_STACK` (properties bit 11).
    pub fn uses_dynamic_stack(&self) -> bool {
        self.kernel_code_properties >> 11 & 1 != 0
    }
}

/// The whole `amd_kernel_code_t` (code object v2, CLRX's `.config`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)] // the fields are amd_kernel_code_t's, named as in LLVM's header
pub struct AmdKernelCode {
    pub version_major: u32,
    pub version_minor: u32,
    pub machine_kind: u16,
    pub machine_version_major: u16,
    pub machine_version_minor: u16,
    pub machine_version_stepping: u16,
    pub kernel_code_entry_byte_offset: i64,
    pub kernel_code_prefetch_byte_offset: i64,
    pub kernel_code_prefetch_byte_size: u64,
    pub max_scratch_backing_memory_byte_size: u64,
    pub compute_pgm_rsrc1: u32,
    pub compute_pgm_rsrc2: u32,
    /// Bits 0..=6 user SGPRs, 7..=9 grid work-group counts, 10 wave32,
    /// 17..=18 private element size (log2 - 1), 19 is_ptr64, 20 dynamic
    /// call stack, 21 debug enabled, 22 xnack enabled (LLVM's
    /// `AMDKernelCodeT.h`, which clang and clrxasm both follow).
    pub kernel_code_properties: u32,
    pub workitem_private_segment_byte_size: u32,
    pub workgroup_group_segment_byte_size: u32,
    pub gds_segment_byte_size: u32,
    pub kernarg_segment_byte_size: u64,
    pub workgroup_fbarrier_count: u32,
    pub wavefront_sgpr_count: u16,
    pub workitem_vgpr_count: u16,
    pub reserved_vgpr_first: u16,
    pub reserved_vgpr_count: u16,
    pub reserved_sgpr_first: u16,
    pub reserved_sgpr_count: u16,
    pub debug_wavefront_private_segment_offset_sgpr: u16,
    pub debug_private_segment_buffer_sgpr: u16,
    /// log2 of the alignment.
    pub kernarg_segment_alignment: u8,
    /// log2 of the alignment.
    pub group_segment_alignment: u8,
    /// log2 of the alignment.
    pub private_segment_alignment: u8,
    /// log2 of the wavefront size.
    pub wavefront_size: u8,
    pub call_convention: i32,
    pub runtime_loader_kernel_symbol: u64,
    pub control_directives: [u8; 128],
}

impl Default for AmdKernelCode {
    fn default() -> AmdKernelCode {
        AmdKernelCode {
            version_major: 0,
            version_minor: 0,
            machine_kind: 0,
            machine_version_major: 0,
            machine_version_minor: 0,
            machine_version_stepping: 0,
            kernel_code_entry_byte_offset: 0,
            kernel_code_prefetch_byte_offset: 0,
            kernel_code_prefetch_byte_size: 0,
            max_scratch_backing_memory_byte_size: 0,
            compute_pgm_rsrc1: 0,
            compute_pgm_rsrc2: 0,
            kernel_code_properties: 0,
            workitem_private_segment_byte_size: 0,
            workgroup_group_segment_byte_size: 0,
            gds_segment_byte_size: 0,
            kernarg_segment_byte_size: 0,
            workgroup_fbarrier_count: 0,
            wavefront_sgpr_count: 0,
            workitem_vgpr_count: 0,
            reserved_vgpr_first: 0,
            reserved_vgpr_count: 0,
            reserved_sgpr_first: 0,
            reserved_sgpr_count: 0,
            debug_wavefront_private_segment_offset_sgpr: 0,
            debug_private_segment_buffer_sgpr: 0,
            kernarg_segment_alignment: 0,
            group_segment_alignment: 0,
            private_segment_alignment: 0,
            wavefront_size: 0,
            call_convention: 0,
            runtime_loader_kernel_symbol: 0,
            control_directives: [0; 128],
        }
    }
}

impl AmdKernelCode {
    /// Reads the 256-byte layout; `None` when `b` is shorter.
    pub fn from_bytes(b: &[u8]) -> Option<AmdKernelCode> {
        if b.len() < AMD_KERNEL_CODE_SIZE {
            return None;
        }
        let mut control_directives = [0u8; 128];
        control_directives.copy_from_slice(&b[128..256]);
        Some(AmdKernelCode {
            version_major: u32_at(b, 0),
            version_minor: u32_at(b, 4),
            machine_kind: u16_at(b, 8),
            machine_version_major: u16_at(b, 10),
            machine_version_minor: u16_at(b, 12),
            machine_version_stepping: u16_at(b, 14),
            kernel_code_entry_byte_offset: u64_at(b, 16) as i64,
            kernel_code_prefetch_byte_offset: u64_at(b, 24) as i64,
            kernel_code_prefetch_byte_size: u64_at(b, 32),
            max_scratch_backing_memory_byte_size: u64_at(b, 40),
            compute_pgm_rsrc1: u32_at(b, 48),
            compute_pgm_rsrc2: u32_at(b, 52),
            kernel_code_properties: u32_at(b, 56),
            workitem_private_segment_byte_size: u32_at(b, 60),
            workgroup_group_segment_byte_size: u32_at(b, 64),
            gds_segment_byte_size: u32_at(b, 68),
            kernarg_segment_byte_size: u64_at(b, 72),
            workgroup_fbarrier_count: u32_at(b, 80),
            wavefront_sgpr_count: u16_at(b, 84),
            workitem_vgpr_count: u16_at(b, 86),
            reserved_vgpr_first: u16_at(b, 88),
            reserved_vgpr_count: u16_at(b, 90),
            reserved_sgpr_first: u16_at(b, 92),
            reserved_sgpr_count: u16_at(b, 94),
            debug_wavefront_private_segment_offset_sgpr: u16_at(b, 96),
            debug_private_segment_buffer_sgpr: u16_at(b, 98),
            kernarg_segment_alignment: b[100],
            group_segment_alignment: b[101],
            private_segment_alignment: b[102],
            wavefront_size: b[103],
            call_convention: u32_at(b, 104) as i32,
            runtime_loader_kernel_symbol: u64_at(b, 120),
            control_directives,
        })
    }

    /// The 256-byte layout (reserved bytes zero).
    pub fn to_bytes(&self) -> [u8; AMD_KERNEL_CODE_SIZE] {
        let mut b = [0u8; AMD_KERNEL_CODE_SIZE];
        let mut put = |at: usize, bytes: &[u8]| b[at..at + bytes.len()].copy_from_slice(bytes);
        put(0, &self.version_major.to_le_bytes());
        put(4, &self.version_minor.to_le_bytes());
        put(8, &self.machine_kind.to_le_bytes());
        put(10, &self.machine_version_major.to_le_bytes());
        put(12, &self.machine_version_minor.to_le_bytes());
        put(14, &self.machine_version_stepping.to_le_bytes());
        put(16, &self.kernel_code_entry_byte_offset.to_le_bytes());
        put(24, &self.kernel_code_prefetch_byte_offset.to_le_bytes());
        put(32, &self.kernel_code_prefetch_byte_size.to_le_bytes());
        put(40, &self.max_scratch_backing_memory_byte_size.to_le_bytes());
        put(48, &self.compute_pgm_rsrc1.to_le_bytes());
        put(52, &self.compute_pgm_rsrc2.to_le_bytes());
        put(56, &self.kernel_code_properties.to_le_bytes());
        put(60, &self.workitem_private_segment_byte_size.to_le_bytes());
        put(64, &self.workgroup_group_segment_byte_size.to_le_bytes());
        put(68, &self.gds_segment_byte_size.to_le_bytes());
        put(72, &self.kernarg_segment_byte_size.to_le_bytes());
        put(80, &self.workgroup_fbarrier_count.to_le_bytes());
        put(84, &self.wavefront_sgpr_count.to_le_bytes());
        put(86, &self.workitem_vgpr_count.to_le_bytes());
        put(88, &self.reserved_vgpr_first.to_le_bytes());
        put(90, &self.reserved_vgpr_count.to_le_bytes());
        put(92, &self.reserved_sgpr_first.to_le_bytes());
        put(94, &self.reserved_sgpr_count.to_le_bytes());
        put(
            96,
            &self
                .debug_wavefront_private_segment_offset_sgpr
                .to_le_bytes(),
        );
        put(98, &self.debug_private_segment_buffer_sgpr.to_le_bytes());
        put(
            100,
            &[
                self.kernarg_segment_alignment,
                self.group_segment_alignment,
                self.private_segment_alignment,
                self.wavefront_size,
            ],
        );
        put(104, &self.call_convention.to_le_bytes());
        put(120, &self.runtime_loader_kernel_symbol.to_le_bytes());
        put(128, &self.control_directives);
        b
    }

    /// The v3+ descriptor this header amounts to. The properties keep the
    /// user-SGPR bits (0..=6) and wave32 (10); the v2-only ones (grid work-group counts,
    /// element size, ptr64 ...) stay in `self`.
    pub fn to_descriptor(&self) -> KernelDescriptor {
        KernelDescriptor {
            group_segment_fixed_size: self.workgroup_group_segment_byte_size,
            private_segment_fixed_size: self.workitem_private_segment_byte_size,
            kernarg_size: u32::try_from(self.kernarg_segment_byte_size).unwrap_or(u32::MAX),
            kernel_code_entry_byte_offset: self.kernel_code_entry_byte_offset,
            compute_pgm_rsrc1: self.compute_pgm_rsrc1,
            compute_pgm_rsrc2: self.compute_pgm_rsrc2,
            compute_pgm_rsrc3: 0,
            kernel_code_properties: (self.kernel_code_properties & 0x47f) as u16,
        }
    }

    /// `enable_sgpr_grid_workgroup_count_x/y/z`.
    pub fn grid_workgroup_count(&self) -> [bool; 3] {
        [7, 8, 9].map(|b| self.kernel_code_properties >> b & 1 != 0)
    }
    /// `private_element_size` in bytes (2, 4, 8 or 16).
    pub fn private_element_size(&self) -> u32 {
        2 << bits(self.kernel_code_properties, 17, 2)
    }
    /// `is_ptr64`.
    pub fn is_ptr64(&self) -> bool {
        self.kernel_code_properties >> 19 & 1 != 0
    }
    /// `is_dynamic_callstack`.
    pub fn is_dynamic_callstack(&self) -> bool {
        self.kernel_code_properties >> 20 & 1 != 0
    }
    /// `is_debug_enabled`.
    pub fn is_debug_enabled(&self) -> bool {
        self.kernel_code_properties >> 21 & 1 != 0
    }
    /// `is_xnack_enabled`.
    pub fn is_xnack_enabled(&self) -> bool {
        self.kernel_code_properties >> 22 & 1 != 0
    }
}
