# Section differences in .int/.quad data and literals and symbol assignments: text-to-text, data-to-data, text-to-data and data-to-text distances.
.rocm
.gpu gfx900
.kernel k
    .config
        .dims x
.globaldata
gd0:
        .int 0xaaaa
gd1:
        .quad 0x1111
        .int gd1 - gd0
        .int k - gd0
        .int kend - gd1
gdend:
len = gdend - gd0
.text
k:
        .skip 256
        s_getpc_b64 s[0:1]
.L1:
        s_add_u32 s0, s0, gd1 - .L1
        s_addc_u32 s1, s1, 0
        s_mov_b32 s2, len
        s_mov_b32 s3, kend - k
        s_endpgm
kend:
        .int gdend - kend
        .int kend - k
