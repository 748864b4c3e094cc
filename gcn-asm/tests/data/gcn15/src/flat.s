# FLAT, GLOBAL and SCRATCH (GCN 1.5: dlc bit 12, 11-bit offset, SADDR
# 0x7d for off).
    flat_load_dword v1, v[2:3]
    flat_load_dword v1, v[2:3] inst_offset:2047
    flat_load_dword v1, v[2:3] inst_offset:5 glc slc dlc
    flat_load_ubyte v1, v[2:3]
    flat_load_dwordx2 v[1:2], v[2:3]
    flat_load_dwordx3 v[1:3], v[2:3]
    flat_load_dwordx4 v[1:4], v[2:3]
    flat_load_short_d16_hi v1, v[2:3]
    flat_store_dword v[2:3], v1
    flat_store_dwordx4 v[2:3], v[4:7] inst_offset:100
    flat_store_byte_d16_hi v[2:3], v1 glc
    flat_atomic_add v1, v[2:3], v4 glc
    flat_atomic_add v[2:3], v4
    flat_atomic_cmpswap v1, v[2:3], v[4:5] glc
    flat_atomic_cmpswap_x2 v[1:2], v[2:3], v[4:7] glc
    flat_atomic_fmax_x2 v[1:2], v[2:3], v[4:5] glc slc
    flat_atomic_fcmpswap v1, v[2:3], v[4:5] glc
    global_load_dword v1, v[2:3], off
    global_load_dword v1, v2, s[4:5]
    global_load_dword v1, v2, s[104:105] inst_offset:2047
    global_load_dword v1, v2, vcc glc dlc
    global_load_dword v1, v2, ttmp[2:3] slc
    global_load_dwordx4 v[1:4], v[2:3], off inst_offset:16
    global_load_ubyte_d16 v1, v2, s[4:5]
    global_store_dword v[2:3], v1, off
    global_store_dword v2, v1, s[4:5] inst_offset:8
    global_store_dwordx2 v2, v[4:5], s[4:5]
    global_atomic_add v1, v[2:3], v4, off glc
    global_atomic_add v[2:3], v4, off
    global_atomic_add v2, v4, s[4:5]
    global_atomic_cmpswap_x2 v[1:2], v2, v[4:7], s[4:5] glc
    global_atomic_fmin v1, v2, v4, s[4:5] glc
    scratch_load_dword v1, v2, off
    scratch_load_dword v1, off, s4
    scratch_load_dword v1, off, vcc_lo inst_offset:4
    scratch_load_dwordx2 v[1:2], v2, off inst_offset:2047
    scratch_load_ubyte_d16_hi v1, off, s105 glc
    scratch_store_dword v2, v1, off
    scratch_store_dword off, v1, s4 inst_offset:64
    scratch_store_dwordx3 off, v[4:6], ttmp5 dlc
