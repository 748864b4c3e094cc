# DS (GCN 1.0-like layout: GDS bit 17), VINTRP (0xc8 prefix), EXP (0xf8).
    ds_add_u32 v1, v2
    ds_add_u32 v1, v2 offset:1234
    ds_add_u32 v1, v2 offset:65535 gds
    ds_write_b32 v255, v254 offset:8
    ds_write2_b32 v1, v2, v3 offset0:4 offset1:8
    ds_write2_b32 v1, v2, v3 offset1:255
    ds_write2st64_b32 v1, v2, v3 offset0:1
    ds_write2_b64 v1, v[2:3], v[4:5] offset0:4 offset1:8
    ds_mskor_b32 v1, v2, v3
    ds_cmpst_b64 v1, v[2:3], v[4:5]
    ds_write_b64 v1, v[2:3]
    ds_write_b96 v1, v[2:4]
    ds_write_b128 v1, v[4:7]
    ds_add_rtn_u32 v1, v2, v3
    ds_add_rtn_u64 v[2:3], v1, v[4:5] offset:16
    ds_mskor_rtn_b32 v1, v2, v3, v4
    ds_wrxchg2_rtn_b32 v[2:3], v1, v4, v5 offset0:1 offset1:2
    ds_wrxchg2_rtn_b64 v[4:7], v1, v[2:3], v[8:9]
    ds_read_b32 v1, v2
    ds_read_b32 v1, v2 offset:100
    ds_read2_b32 v[2:3], v1 offset0:1 offset1:2
    ds_read2_b64 v[4:7], v1 offset1:3
    ds_read_b64 v[2:3], v1
    ds_read_b96 v[2:4], v1
    ds_read_b128 v[4:7], v1
    ds_read_u8_d16_hi v1, v2
    ds_swizzle_b32 v1, v2 offset:0x1234
    ds_permute_b32 v1, v2, v3
    ds_bpermute_b32 v1, v2, v3 offset:4
    ds_append v1
    ds_consume v1 offset:4 gds
    ds_ordered_count v1, v2 offset:0x100 gds
    ds_gws_init v1 gds
    ds_gws_sema_v v1 offset:5 gds
    ds_gws_barrier v1 gds
    ds_nop v1
    ds_add_src2_u32 v1 offset:8
    ds_add_src2_u64 v1 offset:16
    ds_write_addtid_b32 v1
    ds_read_addtid_b32 v1
    ds_condxchg32_rtn_b64 v[2:3], v1, v[4:5]
    ds_add_f32 v1, v2
    ds_write_b8_d16_hi v1, v2
    v_interp_p1_f32 v1, v2, attr0.x
    v_interp_p1_f32 v255, v254, attr63.w
    v_interp_p2_f32 v1, v2, attr26.y
    v_interp_mov_f32 v1, p10, attr1.z
    v_interp_mov_f32 v1, p20, attr2.x
    v_interp_mov_f32 v1, p0, attr3.y
    exp mrt0, v1, v2, v3, v4
    exp mrt7, v1, off, v3, off done
    exp mrtz, v1, v2, off, off vm
    exp null, off, off, off, off
    exp pos0, v1, v2, v3, v4 done
    exp pos3, v1, v2, v3, v4
    exp param0, v1, v2, v3, v4
    exp param31, v1, off, off, off
    exp mrt1, v1, v1, v2, v2 compr
    exp mrt1, v1, off, v2, off compr done vm
