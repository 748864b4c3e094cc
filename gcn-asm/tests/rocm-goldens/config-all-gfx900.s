# Every .config pseudo-op that sets an amd_kernel_code_t field.
.rocm
.gpu gfx900
.arch_minor 0
.arch_stepping 0
.kernel k
    .config
        .dims xyz, xy
        .sgprsnum 20
        .vgprsnum 12
        .dx10clamp
        .ieeemode
        .floatmode 0xf0
        .priority 1
        .exceptions 0x11
        .debugmode
        .privmode
        .tgsize
        .scratchbuffer 0
        .localsize 256
        .userdatanum 10
        .codeversion 1, 1
        .machine 1, 9, 0, 0
        .kernel_code_entry_offset 0x100
        .kernel_code_prefetch_offset 0x10
        .kernel_code_prefetch_size 0x20
        .max_scratch_backing_memory 0
        .use_private_segment_buffer
        .use_dispatch_ptr
        .use_queue_ptr
        .use_kernarg_segment_ptr
        .use_dispatch_id
        .use_private_segment_size
        .use_grid_workgroup_count xyz
        .use_ordered_append_gds
        .private_elem_size 8
        .use_ptr64
        .use_dynamic_call_stack
        .use_debug_enabled
        .use_xnack_enabled
        .workitem_private_segment_size 32
        .workgroup_group_segment_size 512
        .gds_segment_size 64
        .kernarg_segment_size 40
        .workgroup_fbarrier_count 1
        .wavefront_sgpr_count 18
        .workitem_vgpr_count 11
        .reserved_vgprs 9, 10
        .reserved_sgprs 16, 17
        .debug_wavefront_private_segment_offset_sgpr 14
        .debug_private_segment_buffer_sgpr 12
        .kernarg_segment_align 32
        .group_segment_align 64
        .private_segment_align 16
        .wavefront_size 64
        .call_convention 3
        .runtime_loader_kernel_symbol 0x1234
    .control_directive
        .fill 128, 1, 0x5a
.text
k:
        .skip 256
        s_endpgm
