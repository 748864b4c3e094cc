# Each user-SGPR .use_* flag alone in its own kernel (GCN 1.4): the user SGPR count and the SGPR defaults it drives.
.rocm
.gpu gfx900
.kernel private_segment_buffer
    .config
        .dims x
        .use_private_segment_buffer
.kernel dispatch_ptr
    .config
        .dims x
        .use_dispatch_ptr
.kernel queue_ptr
    .config
        .dims x
        .use_queue_ptr
.kernel kernarg_segment_ptr
    .config
        .dims x
        .use_kernarg_segment_ptr
.kernel dispatch_id
    .config
        .dims x
        .use_dispatch_id
.kernel flat_scratch_init
    .config
        .dims x
        .use_flat_scratch_init
.kernel private_segment_size
    .config
        .dims x
        .use_private_segment_size
.kernel grid_x
    .config
        .dims x
        .use_grid_workgroup_count x
.kernel grid_yz
    .config
        .dims xyz
        .use_grid_workgroup_count yz
.kernel grid_xyz
    .config
        .dims xy
        .use_grid_workgroup_count xyz
.text
private_segment_buffer:
        .skip 256
        s_endpgm
        .p2align 8
dispatch_ptr:
        .skip 256
        s_endpgm
        .p2align 8
queue_ptr:
        .skip 256
        s_endpgm
        .p2align 8
kernarg_segment_ptr:
        .skip 256
        s_endpgm
        .p2align 8
dispatch_id:
        .skip 256
        s_endpgm
        .p2align 8
flat_scratch_init:
        .skip 256
        s_endpgm
        .p2align 8
private_segment_size:
        .skip 256
        s_endpgm
        .p2align 8
grid_x:
        .skip 256
        s_endpgm
        .p2align 8
grid_yz:
        .skip 256
        s_endpgm
        .p2align 8
grid_xyz:
        .skip 256
        s_endpgm
        .p2align 8
