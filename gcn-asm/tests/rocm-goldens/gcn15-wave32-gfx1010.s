# GCN 1.5 (gfx1010), old format: a wave32 kernel (VCC is one SGPR), its
# code in wave32 from its label on; a wave64 kernel after it.
.rocm
.gpu gfx1010
.kernel k32
    .config
        .dims xy
        .use_wave32
        .use_kernarg_segment_ptr
.kernel k64
    .config
        .dims x
        .use_kernarg_segment_ptr
.text
k32:
    .skip 256
    s_load_dwordx2 s[4:5], s[0:1], 0x0 glc dlc
    v_cmp_gt_u32 vcc_lo, 16, v0
    v_add_co_ci_u32 v3, vcc_lo, v1, v2, vcc_lo
    v_cndmask_b32 v4, v1, v2, vcc_lo
    s_and_saveexec_b32 s10, vcc_lo
    v_mov_b32_dpp v5, v4 row_share:3 fi:1
    v_add_f32 v6, v4, v5 dpp8:[1,0,3,2,5,4,7,6]
    global_load_dword v7, v[0:1], off dlc
    s_waitcnt vmcnt(0) lgkmcnt(0)
    s_endpgm
.p2align 8
k64:
    .skip 256
    v_cmp_gt_u32 vcc, 16, v0
    v_cndmask_b32 v4, v1, v2, vcc
    v_fma_f32 v8, v1, 2.0, 0x1234
    s_mov_b32 s104, null
    s_endpgm
