# .default_hsa_features: before other flags, after them (it replaces the flags and the private element size), and alone.
.rocm
.gpu gfx803
.kernel alone
    .config
        .dims x
        .default_hsa_features
.kernel first
    .config
        .dims x
        .default_hsa_features
        .use_queue_ptr
        .use_xnack_enabled
        .private_elem_size 8
.kernel last
    .config
        .dims x
        .use_queue_ptr
        .use_dispatch_id
        .use_dynamic_call_stack
        .private_elem_size 16
        .use_grid_workgroup_count x
        .default_hsa_features
.text
alone:
        .skip 256
        s_endpgm
        .p2align 8
first:
        .skip 256
        s_endpgm
        .p2align 8
last:
        .skip 256
        s_endpgm
