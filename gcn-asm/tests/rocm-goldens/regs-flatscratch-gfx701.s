# FLAT_SCRATCH on GCN 1.1 (gfx701): named in code, enabled by .use_flat_scratch_init, both; each adds 2 SGPRs beyond VCC (4 on GCN 1.2).
.rocm
.gpu gfx701
.kernel code
    .config
        .dims x
.kernel flag
    .config
        .dims x
        .use_flat_scratch_init
.kernel both
    .config
        .dims x
        .use_private_segment_buffer
        .use_flat_scratch_init
.kernel high
    .config
        .dims x
.text
code:
        .skip 256
        s_mov_b32 flat_scratch_lo, s0
        s_endpgm
        .p2align 8
flag:
        .skip 256
        s_endpgm
        .p2align 8
both:
        .skip 256
        s_mov_b64 flat_scratch, s[4:5]
        s_endpgm
        .p2align 8
high:
        .skip 256
        s_mov_b32 s101, 0
        s_mov_b32 flat_scratch_hi, 0
        s_endpgm
