# XNACK_MASK on GCN 1.2 (gfx803): named in code, enabled by .use_xnack_enabled, and with FLAT_SCRATCH as well; clamp at 102 SGPRs.
.rocm
.gpu gfx803
.kernel code
    .config
        .dims x
.kernel flag
    .config
        .dims x
        .use_xnack_enabled
.kernel both
    .config
        .dims x
        .use_flat_scratch_init
.kernel clamp
    .config
        .dims x
        .use_xnack_enabled
.text
code:
        .skip 256
        s_mov_b64 xnack_mask, 0
        s_endpgm
        .p2align 8
flag:
        .skip 256
        s_endpgm
        .p2align 8
both:
        .skip 256
        s_mov_b32 xnack_mask_lo, 0
        s_endpgm
        .p2align 8
clamp:
        .skip 256
        s_mov_b32 s101, 0
        s_mov_b32 flat_scratch_lo, 0
        s_endpgm
