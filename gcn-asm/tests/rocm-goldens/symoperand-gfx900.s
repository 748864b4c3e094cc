# A global-data symbol as an SGPR operand value under .nosectdiffs (absolute addresses).
.rocm
.gpu gfx900
.nosectdiffs
.kernel k
    .config
        .dims x
.globaldata
sym:
        .int 9, 10
.text
k:
        .skip 256
        s_mov_b32 s3, sym+4
        s_endpgm
