# Vector ALU: VOP2, VOP1, VOPC in their 32-bit and VOP3 forms, VOP3-only,
# VOP3P; sources, literals (VOP3 too), modifiers.
    v_add_f32 v1, v2, v3
    v_add_f32 v255, s105, v255
    v_add_f32 v1, null, v3
    v_add_f32 v1, ttmp0, v3
    v_add_f32 v1, exec_hi, v3
    v_add_f32 v1, 0.5, v3
    v_add_f32 v1, -4.0, v3
    v_add_f32 v1, 0.15915494, v3
    v_add_f32 v1, 0x3e22f983, v3
    v_add_f32 v1, 1.5, v3
    v_add_f32 v1, lit(1), v3
    v_add_f32 v1, lit(-16), v3
    v_add_f32 v1, 0xfffffff0, v3
    v_add_f32 v1, lds_direct, v3
    v_add_f32 v1, scc, v3
    v_add_f32 v1, vccz, v3
    v_add_f32 v1, execz, v3
    v_mul_f32 v1, m0, v3
    v_cndmask_b32 v1, v2, v3, vcc
    v_cndmask_b32 v1, s2, v3, vcc
    v_cndmask_b32 v1, v2, v3, s[4:5]
    v_cndmask_b32 v1, v2, s3, vcc
    v_cndmask_b32 v1, v2, v3, vcc vop3
    v_add_co_ci_u32 v1, vcc, v2, v3, vcc
    v_add_co_ci_u32 v1, s[2:3], v2, v3, s[4:5]
    v_add_co_ci_u32 v1, vcc, v2, v3, vcc vop3
    v_sub_co_ci_u32 v1, vcc, 0x12345, v3, vcc
    v_subrev_co_ci_u32 v1, s[6:7], s1, v3, vcc
    v_add_nc_u32 v1, v2, v3
    v_sub_nc_u32 v1, v2, v3
    v_subrev_nc_u32 v1, v2, v3
    v_fmac_f32 v1, v2, v3
    v_fmac_f32 v1, v2, v3 clamp
    v_fmamk_f32 v1, v2, 0x3f800000, v3
    v_fmaak_f32 v1, v2, v3, 0x3f800000
    v_fmamk_f16 v1, v2, 0x3c00, v3
    v_fmaak_f16 v1, v2, v3, 0x1234
    v_madmk_f32 v1, 0x40000000, 0x40000000, v3
    v_madak_f32 v1, s2, v3, 0x5
    v_mac_f32 v1, v2, v3
    v_mac_legacy_f32 v1, v2, v3
    v_pk_fmac_f16 v1, v2, v3
    v_add_f16 v1, v2, v3
    v_ldexp_f16 v1, v2, v3
    v_cvt_pkrtz_f16_f32 v1, v2, v3
    v_xnor_b32 v1, v2, v3
    v_max_i32 v1, -1, v3
    v_lshlrev_b32 v1, 5, v3
    v_mov_b32 v1, v2
    v_mov_b32 v1, s2
    v_mov_b32 v1, 0x12345678
    v_mov_b32 v1, -16
    v_mov_b32 v1, lit(64)
    v_nop
    v_readfirstlane_b32 s5, v2
    v_readfirstlane_b32 null, v2
    v_cvt_f64_i32 v[2:3], v4
    v_cvt_i32_f64 v2, v[4:5]
    v_cvt_f64_f32 v[2:3], 1.0
    v_rcp_f64 v[2:3], s[4:5]
    v_fract_f64 v[2:3], 0.15915494
    v_sqrt_f64 v[2:3], 0x40000000
    v_movrels_b32 v1, v2
    v_movrelsd_2_b32 v1, v2
    v_swap_b32 v1, v2
    v_swaprel_b32 v1, v2
    v_pipeflush
    v_sat_pk_u8_i16 v1, v2
    v_cvt_norm_i16_f16 v1, v2
    v_mov_b32 v1, v2 vop3
    v_mov_b32 v1, -v2
    v_mov_b32 v1, abs(v2)
    v_cvt_f32_f16 v1, v2 clamp
    v_exp_f32 v1, v2 mul:2
    v_log_f32 v1, v2 mul:4
    v_rcp_f32 v1, v2 div:2
    v_sin_f32 v1, -abs(v2) clamp div:2
    v_add_f32 v1, v2, s3
    v_add_f32 v1, s2, s3
    v_add_f32 v1, v2, v3 vop3
    v_add_f32 v1, -v2, abs(v3)
    v_add_f32 v1, s2, v3 clamp
    v_add_f16 v1, v2, v3 op_sel:[1,0,0]
    v_add_f16 v1, v2, v3 op_sel:[0,1,1]
    v_add_f16 v1, v2, v3 op_sel:[0,0,1]
    v_cvt_f32_f16 v1, v2 op_sel:[1,0]
    v_fma_f32 v1, v2, v3, v4
    v_fma_f32 v1, s2, v3, 0x3f800000
    v_fma_f32 v1, 0x3f800000, 0x3f800000, 0x3f800000
    v_fma_f32 v1, -v2, -abs(v3), -abs(v4) clamp mul:2
    v_fma_f64 v[2:3], v[4:5], s[6:7], v[8:9]
    v_fma_f64 v[2:3], v[4:5], 0x40000000, v[8:9]
    v_mad_u32_u24 v1, v2, v3, v4
    v_bfe_u32 v1, v2, 8, 16
    v_bfi_b32 v1, s2, s3, v4
    v_alignbit_b32 v1, v2, v3, 4
    v_fma_f16 v1, v2, v3, v4 op_sel:[1,1,1,1]
    v_mad_u64_u32 v[2:3], s[4:5], v1, v2, v[4:5]
    v_mad_i64_i32 v[2:3], vcc, v1, v2, 0x12345
    v_div_scale_f32 v1, vcc, v2, v3, v4
    v_div_scale_f64 v[2:3], s[6:7], v[4:5], v[4:5], v[6:7]
    v_add_co_u32 v1, vcc, v2, v3
    v_add_co_u32 v1, s[2:3], v2, 0x1234
    v_sub_co_u32 v1, s[2:3], v2, v3 clamp
    v_subrev_co_u32 v1, vcc, v2, v3
    v_div_fmas_f32 v1, v2, v3, v4
    v_div_fixup_f16 v1, v2, v3, v4
    v_lshlrev_b64 v[2:3], 5, v[4:5]
    v_lshl_add_u32 v1, v2, 3, v4
    v_add3_u32 v1, v2, v3, v4
    v_xor3_b32 v1, v2, v3, 0x5678
    v_permlane16_b32 v1, v2, s3, s4
    v_permlanex16_b32 v1, v2, s3, s4
    v_readlane_b32 s1, v2, s3
    v_readlane_b32 s1, v2, 5
    v_writelane_b32 v1, s2, s3
    v_writelane_b32 v1, 0x1234, 5
    v_add_nc_u16 v1, v2, v3
    v_add_nc_i32 v1, v2, v3 clamp
    v_mul_lo_u32 v1, v2, v3
    v_mul_hi_i32 v1, 0x1234, v3
    v_trig_preop_f64 v[2:3], v[4:5], v6
    v_ldexp_f64 v[2:3], v[4:5], v6
    v_cvt_pknorm_i16_f32 v1, v2, v3
    v_mbcnt_lo_u32_b32 v1, -1, 0
    v_bcnt_u32_b32 v1, v2, 0
    v_interp_p1ll_f16 v1, v2, attr3.y
    v_interp_p1ll_f16 v1, v2, attr3.y high
    v_interp_p1lv_f16 v1, v2, attr5.w, v3
    v_interp_p2_f16 v1, v2, attr4.z, v3 high clamp
    v_interp_p2_f16 v1, -v2, attr4.z, v3 op_sel:[0,0,1,1]
    v_cmp_eq_f32 vcc, v1, v2
    v_cmp_eq_f32 vcc, s1, v2
    v_cmp_eq_f32 vcc, 0x12345, v2
    v_cmp_eq_f32 vcc, 1.0, v2
    v_cmp_lt_f64 vcc, v[2:3], v[4:5]
    v_cmp_class_f32 vcc, v1, v2
    v_cmp_eq_f32 s[2:3], v1, v2
    v_cmp_eq_f32 vcc, v1, v2 vop3
    v_cmp_eq_f32 s[2:3], v1, s2
    v_cmp_eq_f32 s[2:3], -v1, abs(v2)
    v_cmp_eq_f32 s[2:3], v1, v2 clamp
    v_cmp_eq_f32 null, v1, v2
    v_cmp_ge_i64 s[4:5], v[2:3], s[4:5]
    v_cmp_eq_f16 vcc, v1, v2
    v_cmp_t_u32 exec, v1, v2
    v_cmpx_eq_f32 v1, v2
    v_cmpx_eq_f32 s1, v2
    v_cmpx_eq_f32 0x1234, v2
    v_cmpx_eq_f32 v1, s2
    v_cmpx_lt_u64 v[2:3], v[4:5]
    v_cmpx_class_f64 v[2:3], v[4:5]
    v_cmpx_eq_f32 -v1, v2
    v_pk_mad_i16 v1, v2, v3, v4
    v_pk_mad_i16 v1, v2, v3, v4 op_sel:[1,0,1]
    v_pk_mad_i16 v1, v2, v3, v4 op_sel_hi:[0,0,0]
    v_pk_mad_i16 v1, v2, v3, v4 op_sel_hi:[0,1,1]
    v_pk_mad_i16 v1, v2, v3, v4 neg_lo:[0,1,1] neg_hi:[1,0,1]
    v_pk_mad_i16 v1, v2, v3, v4 clamp
    v_pk_add_f16 v1, v2, v3
    v_pk_add_f16 v1, v2, v3 op_sel:[1,1]
    v_pk_add_f16 v1, v2, v3 op_sel_hi:[1,0]
    v_pk_add_f16 v1, v2, v3 neg_lo:[1,0] neg_hi:[0,1]
    v_pk_add_f16 v1, s2, 0x3c00
    v_pk_add_f16 v1, 1.0, v3
    v_pk_mul_lo_u16 v1, v2, v3
    v_pk_lshlrev_b16 v1, v2, v3
    v_pk_max_i16 v1, v2, v3 clamp
    v_pk_fma_f16 v1, v2, v3, v4
    v_fma_mix_f32 v1, v2, v3, v4
    v_fma_mixlo_f16 v1, v2, v3, v4 op_sel:[1,0,0]
    v_fma_mixhi_f16 v1, v2, v3, v4 op_sel_hi:[1,1,1]
    v_fma_mix_f32 v1, v2, v3, v4 neg_lo:[1,0,0] neg_hi:[0,1,0] clamp
    v_add_f32 v1, abs(v2), -v3
    v_cmp_eq_u32 ttmp[2:3], v1, v2
# VOP3 forms with a literal (clrxasm does not write them for VOP2/VOP1/VOPC
# rows): v_add_f32 v1, v2, 0x12345678; v_add_f32 v1, 0x12345678, v3;
# v_add_f32 v1, 0x3f000000, 0x3f000000; v_mov_b32 v1, 0x12345678;
# v_cmp_eq_u32 s[2:3], v1, 0x1234; v_cmpx_eq_f32 0x1234, v2;
# v_add_f32 v1, -|0x12345678|, v3; v_cndmask_b32 v1, 0x1234, v2, s[4:5]
    .int 0xd5030001, 0x0001ff02, 0x12345678
    .int 0xd5030001, 0x000206ff, 0x12345678
    .int 0xd5030001, 0x0001feff, 0x3f000000
    .int 0xd5810001, 0x000000ff, 0x12345678
    .int 0xd4c20002, 0x0001fe01, 0x00001234
    .int 0xd4120000, 0x000204ff, 0x00001234
    .int 0xd5030101, 0x200206ff, 0x12345678
    .int 0xd5010001, 0x001204ff, 0x00001234
