# The feature .use_* flags (ordered_append_gds, ptr64, dynamic_call_stack, debug_enabled, xnack_enabled) and .private_elem_size 2..16, one kernel each, on gfx902.
.rocm
.gpu gfx902
.kernel ordered_append_gds
    .config
        .dims x
        .use_ordered_append_gds
.kernel ptr64
    .config
        .dims x
        .use_ptr64
.kernel dynamic_call_stack
    .config
        .dims x
        .use_dynamic_call_stack
.kernel debug_enabled
    .config
        .dims x
        .use_debug_enabled
.kernel xnack_enabled
    .config
        .dims x
        .use_xnack_enabled
.kernel pes2
    .config
        .dims x
        .private_elem_size 2
.kernel pes4
    .config
        .dims x
        .private_elem_size 4
.kernel pes8
    .config
        .dims x
        .private_elem_size 8
.kernel pes16
    .config
        .dims x
        .private_elem_size 16
.kernel feat_all
    .config
        .dims x
        .use_ordered_append_gds
        .use_ptr64
        .use_dynamic_call_stack
        .use_debug_enabled
        .use_xnack_enabled
        .private_elem_size 16
        .private_elem_size 4
.text
ordered_append_gds:
        .skip 256
        s_endpgm
        .p2align 8
ptr64:
        .skip 256
        s_endpgm
        .p2align 8
dynamic_call_stack:
        .skip 256
        s_endpgm
        .p2align 8
debug_enabled:
        .skip 256
        s_endpgm
        .p2align 8
xnack_enabled:
        .skip 256
        s_endpgm
        .p2align 8
pes2:
        .skip 256
        s_endpgm
        .p2align 8
pes4:
        .skip 256
        s_endpgm
        .p2align 8
pes8:
        .skip 256
        s_endpgm
        .p2align 8
pes16:
        .skip 256
        s_endpgm
        .p2align 8
feat_all:
        .skip 256
        s_endpgm
        .p2align 8
