# .gotsym in .newbinfmt: GOT entries for a kernel, an .fkernel and a .globaldata symbol, with metadata generated (gfx906).
.rocm
.gpu gfx906
.newbinfmt
.md_version 1, 0
.kernel k
    .config
        .dims x
        .use_kernarg_segment_ptr
.kernel f
    .fkernel
    .config
        .dims x
.globaldata
.global table
table:
        .int 10, 20, 30, 40
.gotsym table, tablegot
.gotsym f, fgot
.gotsym k
.text
.global k, f
k:
        .skip 256
        s_getpc_b64 s[0:1]
.L1:
        s_add_u32 s0, s0, fgot - .L1
        s_addc_u32 s1, s1, 0
        s_load_dwordx2 s[2:3], s[0:1], 0
        s_endpgm
        .p2align 8
f:
        .skip 256
        s_setpc_b64 s[30:31]
