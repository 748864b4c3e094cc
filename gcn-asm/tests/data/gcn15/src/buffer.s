# MUBUF and MTBUF (GCN 1.5: dlc bit 15, slc in word 1, no addr64; MTBUF
# opcode bit 3 in word 1 bit 21 and one 7-bit format field).
    buffer_load_dword v1, v2, s[4:7], s8
    buffer_load_dword v1, v2, s[4:7], s8 offen
    buffer_load_dword v1, v2, s[4:7], s8 idxen offset:4095
    buffer_load_dword v1, v[2:3], s[4:7], s8 offen idxen
    buffer_load_dword v1, v2, s[4:7], s8 offset:12 glc slc dlc
    buffer_load_dword v[1:2], v2, s[4:7], s8 tfe
    buffer_load_dword v1, v2, s[4:7], 0
    buffer_load_dword v1, v2, s[4:7], -1
    buffer_load_dword v1, v2, s[4:7], 1.0
    buffer_load_dword v1, v2, s[4:7], null
    buffer_load_dword v1, v2, s[4:7], m0
    buffer_load_dword v1, v2, ttmp[4:7], s105
    buffer_load_dword v1, v2, s[100:103], vcc_lo
    buffer_load_dword v1, v2, s[4:7], s8 lds
    buffer_load_ubyte v1, v2, s[4:7], s8
    buffer_load_sbyte_d16_hi v1, v2, s[4:7], s8
    buffer_load_short_d16 v1, v2, s[4:7], s8 offen
    buffer_load_dwordx2 v[1:2], v2, s[4:7], s8
    buffer_load_dwordx3 v[1:3], v2, s[4:7], s8
    buffer_load_dwordx4 v[1:5], v2, s[4:7], s8 tfe
    buffer_load_format_x v1, v2, s[4:7], s8
    buffer_load_format_xyzw v[1:4], v2, s[4:7], s8 idxen
    buffer_store_dword v1, v2, s[4:7], s8 offen
    buffer_store_byte v1, v2, s[4:7], s8
    buffer_store_dwordx4 v[1:4], v2, s[4:7], s8 glc
    buffer_store_short_d16_hi v1, v2, s[4:7], s8
    buffer_atomic_add v1, v2, s[4:7], s8 glc
    buffer_atomic_cmpswap v[1:2], v2, s[4:7], s8
    buffer_atomic_cmpswap_x2 v[1:4], v2, s[4:7], s8 offen glc
    tbuffer_load_format_x v1, v2, s[4:7], s8
    tbuffer_load_format_x v1, v2, s[4:7], s8 format:1
    tbuffer_load_format_x v1, v2, s[4:7], s8 format:111
    tbuffer_load_format_x v1, v2, s[4:7], s8 offen offset:12 glc slc dlc
    tbuffer_load_format_xy v[1:2], v2, s[4:7], s8 idxen
    tbuffer_load_format_xyz v[1:4], v2, s[4:7], s8 tfe format:59
    tbuffer_load_format_xyzw v[1:4], v[2:3], s[4:7], s8 offen idxen
    tbuffer_store_format_x v1, v2, s[4:7], s8
    tbuffer_store_format_xyzw v[1:4], v2, s[4:7], s8
    tbuffer_load_format_d16_x v1, v2, s[4:7], s8
    tbuffer_load_format_d16_xyz v[1:2], v2, s[4:7], s8
    tbuffer_load_format_d16_xyzw v[1:2], v2, s[4:7], s8
    tbuffer_store_format_d16_x v1, v2, s[4:7], s8
    tbuffer_store_format_d16_xyzw v[1:2], v2, s[4:7], s8
    buffer_gl0_inv
    buffer_gl1_inv
    buffer_gl0_inv glc
    buffer_load_dword v1, v2, s[4:7], s8 offset:4095 glc slc dlc lds
    tbuffer_load_format_x v1, v2, s[4:7], s8 format:127
    tbuffer_store_format_xy v[1:2], v2, s[4:7], s8 offen format:64
