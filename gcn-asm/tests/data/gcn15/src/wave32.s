# Wave32 (--wave32): VCC, carries and compare results are one SGPR.
    v_cmp_eq_f32 vcc_lo, v1, v2
    v_cmp_eq_f32 vcc_lo, s1, v2
    v_cmp_eq_f32 s4, v1, v2
    v_cmp_eq_f32 vcc_lo, v1, v2 vop3
    v_cmp_eq_f32 null, v1, v2
    v_cmp_eq_f32 ttmp3, v1, v2
    v_cmp_lt_u64 s5, v[2:3], v[4:5]
    v_cmp_class_f32 exec_lo, v1, v2
    v_cmpx_eq_f32 v1, v2
    v_cmpx_eq_f32 s1, v2 vop3
    v_cndmask_b32 v1, v2, v3, vcc_lo
    v_cndmask_b32 v1, v2, v3, s4
    v_cndmask_b32 v1, s2, 1.0, s5
    v_add_co_ci_u32 v1, vcc_lo, v2, v3, vcc_lo
    v_add_co_ci_u32 v1, s2, v2, v3, s3
    v_sub_co_ci_u32 v1, vcc_lo, v2, v3, vcc_lo vop3
    v_add_co_u32 v1, vcc_lo, v2, v3
    v_add_co_u32 v1, s6, v2, v3
    v_sub_co_u32 v1, null, v2, 5
    v_div_scale_f32 v1, vcc_lo, v2, v3, v4
    v_div_scale_f64 v[2:3], s7, v[4:5], v[4:5], v[6:7]
    v_mad_u64_u32 v[2:3], s4, v1, v2, v[4:5]
    v_readlane_b32 s1, v2, s3
    v_writelane_b32 v1, s2, s3
    v_readfirstlane_b32 s1, v2
    v_add_f32 v1, v2, v3
    v_cmp_eq_f32 vcc_lo, v1, v2 src0_sel:byte0
    v_cmp_eq_f32 s4, v1, v2 src0_sel:byte1
    v_cndmask_b32 v1, v2, v3, vcc_lo dst_sel:byte0
    v_add_co_ci_u32 v1, vcc_lo, v2, v3, vcc_lo row_shl:1
    v_cndmask_b32 v1, v2, v3, vcc_lo dpp8:[1,2,3,4,5,6,7,0]
    v_cmp_eq_f32 vcc_lo, v1, v2 quad_perm:[1,0,3,2]
    s_and_saveexec_b32 s0, s1
    s_mov_b32 vcc_lo, exec_lo
