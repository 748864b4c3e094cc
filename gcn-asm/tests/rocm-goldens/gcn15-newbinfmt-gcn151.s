# GCN 1.5.1 (`.arch GCN1.5.1`, clrxasm's GFX1011), .newbinfmt with
# metadata: a wave64 kernel using the dot instructions, a wave32 one set by
# `.wave32` in its code (which sets its .use_wave32).
.rocm
.arch GCN1.5.1
.newbinfmt
.kernel dot
    .config
        .dims x
        .use_kernarg_segment_ptr
        .arg a, "uint*", 8, 8, globalbuf, u32, global
.kernel w32
    .config
        .dims x
.text
dot:
    .skip 256
    v_dot2_i32_i16 v1, v2, v3, v4
    v_dot4_u32_u8 v5, v6, v7, v8
    v_cmp_eq_u32 vcc, v1, v5
    s_endpgm
.p2align 8
w32:
    .skip 256
    .wave32
    v_cmp_eq_u32 vcc_lo, v1, v5
    v_cndmask_b32 v2, 0, 1, vcc_lo
    s_endpgm
