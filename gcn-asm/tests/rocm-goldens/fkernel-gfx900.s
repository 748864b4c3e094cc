# A .fkernel helper beside a normal kernel.
.rocm
.gpu gfx900
.kernel main
    .config
        .dims x
        .use_private_segment_buffer
        .use_kernarg_segment_ptr
.kernel helper
    .fkernel
    .config
        .dims x
.text
main:
        .skip 256
        s_getpc_b64 s[10:11]
        s_endpgm
        .p2align 8
helper:
        .skip 256
        v_mov_b32 v3, 1
        s_setpc_b64 s[30:31]
