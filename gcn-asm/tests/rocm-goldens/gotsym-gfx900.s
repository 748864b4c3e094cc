# .gotsym of a kernel and of global data.
.rocm
.gpu gfx900
.kernel k
    .config
        .dims x
.globaldata
.global gd
gd:
        .int 5
.gotsym gd, gdgot
.global k
.gotsym k
.text
k:
        .skip 256
        s_getpc_b64 s[0:1]
.L1:
        s_add_u32 s0, s0, (gdgot - .L1) & 0xffffffff
        s_addc_u32 s1, s1, (gdgot - .L1) >> 32
        s_endpgm
