# Two .fkernel functions called from a kernel, their code shared through .kcode, one of them with its own .config values.
.rocm
.gpu gfx900
.kernel main
    .config
        .dims x
        .use_private_segment_buffer
        .use_kernarg_segment_ptr
.kernel f1
    .fkernel
    .config
        .dims x
        .sgprsnum 40
        .vgprsnum 20
.kernel f2
    .config
        .dims x
    .fkernel
.text
main:
        .skip 256
        s_getpc_b64 s[10:11]
        s_endpgm
        .p2align 8
f1:
        .skip 256
        v_mov_b32 v3, 1
        s_setpc_b64 s[30:31]
        .p2align 8
f2:
        .skip 256
.kcode main, f2
        s_mov_b32 s33, 0
        v_mov_b32 v11, 1
.kcodeend
        s_setpc_b64 s[30:31]
