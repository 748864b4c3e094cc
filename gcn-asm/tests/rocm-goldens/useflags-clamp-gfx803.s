# Every user-SGPR flag at once: 4+2+2+2+2+2+1+2 = 17 user SGPRs (a second .use_grid_workgroup_count replaces the first), clamped to 16 by clrxasm (GCN 1.2, flat scratch counted).
.rocm
.gpu Fiji
.kernel k
    .config
        .dims xyz
        .use_private_segment_buffer
        .use_dispatch_ptr
        .use_queue_ptr
        .use_kernarg_segment_ptr
        .use_dispatch_id
        .use_flat_scratch_init
        .use_private_segment_size
        .use_grid_workgroup_count xyz
        .use_grid_workgroup_count xz
.text
k:
        .skip 256
        s_mov_b32 s0, s19
        s_endpgm
