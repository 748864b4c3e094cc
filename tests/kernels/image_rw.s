# image_load, image_atomic_add and image_store through T# arguments:
# b[15 - gid] = 2 * a[gid]; a[0] += 1 per work item (16 of them).
# The device comes from the `gcn_kernel!` option `gpu = …`.
.gallium
.kernel image_rw
    .args
        .arg a, image2d_rdonly, 32, 32, 32
        .arg b, image2d_wronly, 32, 32, 32
        .arg griddim
        .arg gridoffset
    .config
        .dims x
        .tgsize
.text
image_rw:
.set SMEM_SCALE, 4
.ifarch gcn1.2
        .set SMEM_SCALE, 1
.endif
.ifarch gcn1.4
        .set SMEM_SCALE, 1
.endif
        s_load_dwordx8   s[8:15], s[0:1], 36 / SMEM_SCALE   # a's T#
        s_load_dwordx8   s[16:23], s[0:1], 68 / SMEM_SCALE  # b's T#
        s_waitcnt        lgkmcnt(0)
        v_mov_b32        v1, 0                              # y
        image_load       v2, v[0:1], s[8:15] dmask:0x1 unorm
        v_mov_b32        v7, 1                              # the addend
        v_mov_b32        v5, 0
        v_mov_b32        v6, 0
        image_atomic_add v7, v[5:6], s[8:15] dmask:0x1 unorm
        v_mov_b32        v4, 0                              # y of the store
        s_waitcnt        vmcnt(0)
        v_lshlrev_b32    v2, 1, v2
.ifarch gcn1.4
        v_sub_u32        v3, 15, v0
.else
        v_sub_i32        v3, vcc, 15, v0
.endif
        image_store      v2, v[3:4], s[16:23] dmask:0x1 unorm
        s_endpgm
