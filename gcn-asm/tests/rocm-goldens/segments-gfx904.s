# The amd_kernel_code_t fields with no PGM_RSRC effect: segment sizes, alignments, wavefront size, call convention, loader symbol, prefetch, scratch backing, reserved and debug registers (gfx904).
.rocm
.gpu gfx904
.kernel k
    .config
        .dims x
        .gds_segment_size 4096
        .kernarg_segment_size 0x123456789
        .workgroup_fbarrier_count 3
        .kernarg_segment_align 256
        .group_segment_align 32
        .private_segment_align 1024
        .wavefront_size 32
        .call_convention 0xffffffff
        .runtime_loader_kernel_symbol 0x0123456789abcdef
        .kernel_code_prefetch_offset 0x10
        .kernel_code_prefetch_size 4096
        .max_scratch_backing_memory 0x100000000
        .reserved_vgprs 250, 255
        .reserved_sgprs 0, 101
        .debug_wavefront_private_segment_offset_sgpr 103
        .debug_private_segment_buffer_sgpr 96
.kernel k2
    .config
        .dims x
        .wavefront_size 256
        .kernarg_segment_align 16
        .group_segment_align 16
        .private_segment_align 16
        .reserved_vgprs 3, 3
        .call_convention 1
.text
k:
        .skip 256
        s_endpgm
        .p2align 8
k2:
        .skip 256
        s_endpgm
