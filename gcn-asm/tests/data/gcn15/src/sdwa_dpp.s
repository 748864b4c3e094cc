# SDWA (as GCN 1.4), DPP16 with the GCN 1.5 controls (row_share,
# row_xmask, fi) and DPP8.
    v_add_f32 v1, v2, v3 dst_sel:byte0
    v_add_f32 v1, v2, v3 dst_sel:word1 dst_unused:sext
    v_add_f32 v1, v2, v3 dst_unused:preserve
    v_add_f32 v1, v2, v3 src0_sel:byte3 src1_sel:word0
    v_add_f32 v1, sext(v2), v3 src0_sel:byte1
    v_add_f32 v1, -v2, abs(v3) dst_sel:word0
    v_add_f32 v1, v2, v3 clamp dst_sel:byte2
    v_add_f32 v1, v2, v3 mul:2 dst_sel:byte2
    v_add_f32 v1, v2, v3 div:2 src1_sel:byte0
    v_add_f32 v1, s2, v3 src0_sel:word1
    v_add_f32 v1, v2, s3 src0_sel:word1
    v_add_f32 v1, null, v3 src0_sel:word1
    v_add_f32 v1, 1.0, v3 src0_sel:word1
    v_add_f32 v1, v2, v3 sdwa
    v_mul_f16 v1, v2, v3 sdwa
    v_mov_b32 v1, v2 dst_sel:byte0 src0_sel:word1
    v_mov_b32 v1, -v2 sdwa
    v_mov_b32 v1, s2 sdwa
    v_cvt_f32_f16 v1, sext(v2) src0_sel:word1
    v_cndmask_b32 v1, v2, v3, vcc dst_sel:byte0
    v_add_co_ci_u32 v1, vcc, v2, v3, vcc dst_sel:byte0
    v_cmp_eq_f32 vcc, v1, v2 src0_sel:byte0
    v_cmp_eq_f32 vcc, v1, v2 sdwa
    v_cmp_eq_f32 s[4:5], v1, v2 src1_sel:word1
    v_cmp_eq_u32 vcc, s1, v2 src0_sel:byte2
    v_cmp_eq_u32 vcc, -v1, v2 sdwa
    v_cmpx_eq_f32 v1, v2 src0_sel:byte1
    v_cmpx_eq_f32 v1, v2 sdwa
    v_add_f32 v1, v2, v3 quad_perm:[0,1,2,3]
    v_add_f32 v1, v2, v3 quad_perm:[3,2,1,0] bank_mask:5 row_mask:10
    v_add_f32 v1, v2, v3 row_shl:1
    v_add_f32 v1, v2, v3 row_shl:15
    v_add_f32 v1, v2, v3 row_shr:7
    v_add_f32 v1, v2, v3 row_ror:12
    v_add_f32 v1, v2, v3 row_mirror
    v_add_f32 v1, v2, v3 row_half_mirror
    v_add_f32 v1, v2, v3 row_share:0
    v_add_f32 v1, v2, v3 row_share:15
    v_add_f32 v1, v2, v3 row_xmask:3
    v_add_f32 v1, v2, v3 row_xmask:15 bound_ctrl
    v_add_f32 v1, v2, v3 row_share:6 fi
    v_add_f32 v1, v2, v3 quad_perm:[1,1,1,1] bank_mask:0 row_mask:0 bound_ctrl fi
    v_add_f32 v1, -v2, abs(v3) row_shl:2
    v_add_f32 v1, abs(v2), -v3 row_shr:3
    v_mov_b32 v1, v2 row_shl:1
    v_mov_b32 v1, -abs(v2) row_ror:1
    v_cndmask_b32 v1, v2, v3, vcc row_share:1
    v_add_co_ci_u32 v1, vcc, v2, v3, vcc row_xmask:1
    v_cmp_eq_f32 vcc, v1, v2 quad_perm:[2,3,0,1]
    v_cmpx_eq_f32 v1, v2 row_shl:4
    v_add_f32 v1, v2, v3 dpp8:[1,7,2,5,6,3,6,4]
    v_add_f32 v1, v2, v3 dpp8:[0,1,2,3,4,5,6,7]
    v_add_f32 v1, v2, v3 dpp8:[7,7,7,7,7,7,7,7] fi
    v_mov_b32 v1, v2 dpp8:[1,0,0,0,0,0,0,0]
    v_sin_f32 v1, v2 dpp8:[1,7,2,5,6,3,6,4] fi
    v_cndmask_b32 v1, v2, v3, vcc dpp8:[0,0,0,0,0,0,0,0]
    v_cmp_class_f32 vcc, v1, v2 dpp8:[1,7,2,5,6,3,6,4]
    v_cmpx_eq_f32 v1, v2 dpp8:[1,2,3,4,5,6,7,0]
