# An empty .globaldata (clrxasm still writes an empty .rodata) with .gotsym of two kernels and a .text global, on gfx900.
.rocm
.gpu gfx900
.kernel a
    .config
        .dims x
.kernel b
    .config
        .dims xy
.globaldata
.text
.global b, a, helper
.gotsym b
.gotsym a, agot
.gotsym helper
a:
        .skip 256
        s_endpgm
        .p2align 8
b:
        .skip 256
        v_mov_b32 v3, 0
        s_endpgm
helper:
        s_setpc_b64 s[30:31]
