# Random .gotsym of kernels, .globaldata and .text globals in scrambled order, with .kcode (the fuzzer's symbol mode): clrxasm writes the symbols in its hash map's order.
.rocm
.gpu tonga
.newbinfmt
.kernel k0
    .config
        .dims x
        .use_kernarg_segment_ptr
        .arg a, "float*", 8, , globalbuf, f32, global, default
.kernel k1
    .config
        .dims x
        .use_kernarg_segment_ptr
.kernel k2
    .config
        .dims x
        .use_kernarg_segment_ptr
        .arg a, "float*", 8, , globalbuf, f32, global, default
.globaldata
.global g0
g0:
        .int 32
.global g1
g1:
        .int 93
.text
.gotsym t0, t0got
.global k2
.gotsym k2
.global k0
.gotsym k0, k0got
.gotsym g1, g1got
.gotsym g0, g0got
.global t0
k0:
        .skip 256
        s_mov_b32 s1, 44
        s_endpgm
        .p2align 8
k1:
        .skip 256
        s_mov_b32 s4, 3
        s_endpgm
        .p2align 8
k2:
        .skip 256
        s_mov_b32 s0, 43
        s_endpgm
        .p2align 8
t0:
        s_setpc_b64 s[30:31]
.kcode k1
        v_mov_b32 v16, 0
.kcodeend
