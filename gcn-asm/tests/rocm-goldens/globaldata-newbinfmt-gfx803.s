# .globaldata in .newbinfmt with .md_version (metadata generated), two kernels, PC-relative distance to a data symbol.
.rocm
.gpu gfx803
.newbinfmt
.md_version 1, 0
.kernel k1
    .config
        .dims x
        .use_kernarg_segment_ptr
.kernel k2
    .config
        .dims x
.globaldata
        .fill 16, 1, 0x33
tbl:
        .int 1, 2, 3, 4
.text
k1:
        .skip 256
        s_getpc_b64 s[0:1]
.L1:
        s_add_u32 s0, s0, tbl - .L1
        s_addc_u32 s1, s1, 0
        s_endpgm
        .p2align 8
k2:
        .skip 256
        s_endpgm
