# Random .gotsym of kernels, .globaldata and .text globals in scrambled order, with .kcode (the fuzzer's symbol mode): clrxasm writes the symbols in its hash map's order.
.rocm
.gpu gfx803
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
        .arg a, "float*", 8, , globalbuf, f32, global, default
.kernel k2
    .config
        .dims x
        .use_kernarg_segment_ptr
        .arg a, "float*", 8, , globalbuf, f32, global, default
.globaldata
g0:
        .int 69
.global g1
g1:
        .int 82
.global g2
g2:
        .int 35
.global g3
g3:
        .int 64
.text
.gotsym t1, t1got
.global k0
.gotsym k0, k0got
.gotsym t0, t0got
.gotsym g2, g2got
.global t0
.global t1
k0:
        .skip 256
        s_mov_b32 s9, 44
        s_endpgm
        .p2align 8
k1:
        .skip 256
        s_mov_b32 s12, 51
        s_endpgm
        .p2align 8
k2:
        .skip 256
        s_mov_b32 s18, 90
        s_endpgm
        .p2align 8
t0:
        s_setpc_b64 s[30:31]
t1:
        s_setpc_b64 s[30:31]
