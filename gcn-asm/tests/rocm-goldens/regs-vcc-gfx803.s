# Register counting on GCN 1.2: VCC written and read, a 64-bit SGPR pair at s[100:101], v255 (256 VGPRs), a VGPR range v[250:253].
.rocm
.gpu gfx803
.kernel vcc
    .config
        .dims x
.kernel highs
    .config
        .dims x
.kernel highv
    .config
        .dims x
.kernel range
    .config
        .dims x
.text
vcc:
        .skip 256
        v_add_u32 v1, vcc, v2, v3
        v_cndmask_b32 v4, v1, v2, vcc
        s_endpgm
        .p2align 8
highs:
        .skip 256
        s_mov_b64 s[100:101], 0
        s_endpgm
        .p2align 8
highv:
        .skip 256
        v_mov_b32 v255, 0
        s_endpgm
        .p2align 8
range:
        .skip 256
        flat_load_dwordx4 v[250:253], v[0:1]
        s_endpgm
