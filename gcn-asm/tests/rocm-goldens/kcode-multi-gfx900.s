# Three kernels; .kcode gives shared code to two of them (register counting).
.rocm
.gpu gfx900
.kernel a
    .config
        .dims x
        .use_kernarg_segment_ptr
.kernel b
    .config
        .dims xy
        .use_private_segment_buffer
        .use_kernarg_segment_ptr
.kernel c
    .config
        .dims x
.text
a:
        .skip 256
        s_mov_b32 s10, 0
        v_mov_b32 v5, 0
        s_branch shared
        .p2align 8
b:
        .skip 256
        s_mov_b32 s3, 1
        s_branch shared
        .p2align 8
c:
        .skip 256
        s_endpgm
.kcode a, b
shared:
        s_mov_b32 s20, 2
        v_mov_b32 v9, 1
        s_endpgm
.kcodeend
