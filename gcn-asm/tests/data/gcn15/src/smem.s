# Scalar memory (SMEM, 0xf4 prefix): both offsets, glc/dlc/nv.
    s_load_dword s3, s[0:1], s4
    s_load_dword s3, s[0:1], 0x6ba23
    s_load_dword s3, s[18:19], 0x0
    s_load_dword s3, s[0:1], s4 glc dlc
    s_load_dword s3, s[0:1], s4 dlc
    s_load_dword s3, s[0:1], s4 nv
    s_load_dword s3, s[0:1], null
    s_load_dword s3, s[0:1], m0
    s_load_dword s3, s[0:1], vcc_hi
    s_load_dword s3, s[0:1], ttmp3
    s_load_dword s3, s[0:1], 0xfffff
    s_load_dword s3, s[0:1], 0x1fffff
    s_load_dword null, s[0:1], s4
    s_load_dword vcc_lo, ttmp[2:3], s4
    s_load_dword s105, s[104:105], s4
    s_load_dwordx2 s[4:5], s[0:1], s4
    s_load_dwordx4 s[4:7], s[0:1], 0x10
    s_load_dwordx8 s[8:15], s[0:1], 0x20 glc
    s_load_dwordx16 s[16:31], s[0:1], s9
    s_load_dwordx2 ttmp[4:5], s[0:1], s4
    s_load_dwordx2 vcc, s[0:1], s4
    s_load_dwordx2 exec, s[0:1], s4
    s_scratch_load_dword s3, s[18:19], s4
    s_scratch_load_dwordx2 s[6:7], s[18:19], 0x100
    s_scratch_load_dwordx4 s[12:15], s[18:19], s4
    s_buffer_load_dword s3, s[4:7], s4
    s_buffer_load_dwordx2 s[2:3], s[8:11], 0x40
    s_buffer_load_dwordx4 s[4:7], s[8:11], 0x40 glc dlc
    s_buffer_load_dwordx8 s[8:15], s[8:11], s4
    s_buffer_load_dwordx16 s[16:31], s[8:11], s4
    s_store_dword s3, s[0:1], s4
    s_store_dwordx2 s[4:5], s[0:1], 0x40 glc
    s_store_dwordx4 s[4:7], s[0:1], m0
    s_scratch_store_dword s3, s[18:19], s4
    s_scratch_store_dwordx4 s[12:15], s[18:19], 0x8
    s_buffer_store_dword s3, s[4:7], s4
    s_buffer_store_dwordx2 s[2:3], s[4:7], 0x40
    s_buffer_store_dwordx4 s[4:7], s[8:11], s4 dlc
    s_gl1_inv
    s_dcache_inv
    s_dcache_wb
    s_memtime s[0:1]
    s_memrealtime s[4:5]
    s_get_waveid_in_workgroup s3
    s_atc_probe 0x5, s[0:1], s4
    s_atc_probe 0x7f, s[0:1], 0x100
    s_atc_probe_buffer 0x3, s[4:7], s4
    s_dcache_discard s[0:1], s4
    s_dcache_discard_x2 s[0:1], 0x10
    s_buffer_atomic_swap s3, s[4:7], s4
    s_buffer_atomic_cmpswap s[2:3], s[4:7], s4 glc
    s_buffer_atomic_add s3, s[4:7], 0x20
    s_buffer_atomic_dec s3, s[4:7], s4
    s_buffer_atomic_swap_x2 s[2:3], s[4:7], s4
    s_buffer_atomic_cmpswap_x2 s[4:7], s[8:11], s4
    s_buffer_atomic_xor_x2 s[2:3], s[4:7], s4 glc dlc
    s_atomic_swap s3, s[0:1], s4
    s_atomic_cmpswap s[2:3], s[0:1], s4
    s_atomic_umax s3, s[0:1], 0x100 glc
    s_atomic_inc_x2 s[2:3], s[0:1], s4
    s_atomic_cmpswap_x2 s[4:7], s[0:1], s4
