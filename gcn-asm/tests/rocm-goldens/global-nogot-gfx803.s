# .global symbols in .text (kernel and helper) and in .globaldata, without any .gotsym: clrxasm adds no extra symbols then.
.rocm
.gpu gfx803
.kernel k
    .config
        .dims x
.globaldata
.global gdata
gdata:
        .int 0x12345678
        .fill 12, 1, 0xee
.text
.global k, helper
k:
        .skip 256
        s_endpgm
helper:
        s_setpc_b64 s[30:31]
