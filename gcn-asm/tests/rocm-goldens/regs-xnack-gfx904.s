# XNACK_MASK and FLAT_SCRATCH on GCN 1.4 (gfx904), and SGPRs up to s101, the last addressable one (104 with VCC).
.rocm
.gpu gfx904
.kernel xnack
    .config
        .dims x
.kernel flat
    .config
        .dims x
.kernel top
    .config
        .dims x
        .use_xnack_enabled
.kernel topflat
    .config
        .dims x
.text
xnack:
        .skip 256
        s_mov_b64 xnack_mask, s[2:3]
        s_endpgm
        .p2align 8
flat:
        .skip 256
        s_mov_b64 flat_scratch, s[2:3]
        s_endpgm
        .p2align 8
top:
        .skip 256
        s_mov_b32 s101, 0
        s_endpgm
        .p2align 8
topflat:
        .skip 256
        s_mov_b32 s99, 0
        s_mov_b32 flat_scratch_hi, 0
        s_endpgm
