# Computes per-lane byte offsets and a scaled value for a work-item:
#   id     = group_id.x * local_size.x + local_id.x
#   offset = id * 4
#   value  = float(id) * scale + bias
# Arguments (input buffer from byte 36): scale, bias as float bits.
.gallium
.gpu tonga
.kernel scale_offsets
    .args
        .arg scale, scalar, 4           # float scale (pass f32::to_bits)
        .arg bias, scalar, 4            # float bias
        .arg out, global, 8             # float* out (stores follow with the emulator)
        .arg griddim
        .arg gridoffset
    .config
        .dims x
        .tgsize
.text
scale_offsets:
    s_load_dword     s6, s[0:1], 0x18              # local size x
    s_load_dwordx2   s[8:9], s[0:1], 0x24          # scale, bias (after the 36-byte header)
    s_waitcnt        lgkmcnt(0)
    s_mul_i32        s6, s4, s6                    # group id * local size
    v_add_u32        v1, vcc, s6, v0               # global id
    v_lshlrev_b32    v2, 2, v1                     # byte offset
    v_cvt_f32_u32    v3, v1
    v_mov_b32        v4, s9
    v_mac_f32        v4, s8, v3                    # value = id * scale + bias
    v_cmp_gt_f32     vcc, 1.0, v4
    v_cndmask_b32    v4, v4, 1.0, vcc              # clamp below at 1.0
    v_max_f32        v4, v4, v4 clamp
    v_mov_b32_dpp    v5, v4 row_shr:1 bound_ctrl:0 # neighbour's value
    v_add_f32_sdwa   v6, v4, v5 dst_sel:word0 src0_sel:word1 src1_sel:word0
    s_endpgm
