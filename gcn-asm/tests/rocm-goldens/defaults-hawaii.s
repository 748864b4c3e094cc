# A GCN 1.1 kernel (Hawaii) with only .dims x in .config.
.rocm
.gpu Hawaii
.kernel k
    .config
        .dims x
        .use_private_segment_buffer
        .use_kernarg_segment_ptr
.text
k:
        .skip 256
        s_load_dwordx2 s[0:1], s[4:5], 0x0
        v_lshlrev_b32 v1, 2, v0
        s_waitcnt lgkmcnt(0)
        v_add_i32 v2, vcc, s0, v1
        v_mov_b32 v3, s1
        v_addc_u32 v3, vcc, v3, 0, vcc
        flat_store_dword v[2:3], v0
        s_endpgm
