# Several .gotsym: kernels, .globaldata symbols, a non-kernel .text symbol, a symbol defined after its .gotsym, with and without an output symbol; other globals then appear in the symbol table too.
.rocm
.gpu gfx900
.kernel k1
    .config
        .dims x
.kernel k2
    .config
        .dims x
.globaldata
.global gd1, gd2, gdnogot
gd1:
        .int 1, 2, 3
gd2:
        .quad 0x1122334455667788
gdnogot:
        .byte 9
.gotsym gd1, gd1got
.gotsym gd2
.gotsym k2, k2got
.gotsym later, latergot
.gotsym k1
.text
.global k1, k2, later, helper, tfunc
k1:
        .skip 256
        s_getpc_b64 s[0:1]
.L1:
        s_add_u32 s0, s0, gd1got - .L1
        s_addc_u32 s1, s1, 0
        s_load_dwordx2 s[2:3], s[0:1], 0x0
        s_endpgm
helper:
        s_nop 0
        .p2align 8
k2:
        .skip 256
        s_getpc_b64 s[0:1]
.L2:
        s_add_u32 s0, s0, latergot - .L2
        s_endpgm
tfunc:
        s_nop 1
later:
        s_setpc_b64 s[30:31]
