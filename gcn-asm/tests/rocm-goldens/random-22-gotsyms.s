# Random .gotsym of kernels, .globaldata and .text globals in scrambled order, with .kcode (the fuzzer's symbol mode): clrxasm writes the symbols in its hash map's order.
.rocm
.gpu gfx803
.kernel k0
    .config
        .dims x
        .use_kernarg_segment_ptr
.kernel k1
    .config
        .dims x
        .use_kernarg_segment_ptr
        .arg a, "float*", 8, , globalbuf, f32, global, default
.kernel k2
    .config
        .dims x
        .use_kernarg_segment_ptr
.globaldata
.global g0
g0:
        .int 15
.global g1
g1:
        .int 17
.text
.global k2
.gotsym k2, k2got
.gotsym g1
.global k0
.gotsym k0
.gotsym t0, t0got
.global k1
.gotsym k1, k1got
.gotsym g0, g0got
.global t0
k0:
        .skip 256
        s_mov_b32 s9, 79
        s_endpgm
        .p2align 8
k1:
        .skip 256
        s_mov_b32 s6, 26
        s_endpgm
        .p2align 8
k2:
        .skip 256
        s_mov_b32 s2, 55
        s_endpgm
        .p2align 8
t0:
        s_setpc_b64 s[30:31]
