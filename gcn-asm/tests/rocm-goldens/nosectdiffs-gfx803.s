# .nosectdiffs: .globaldata and GOT symbols are absolute values (offsets from their section starts) in .int/.quad data, on gfx803 (operands: symoperand-gfx900).
.rocm
.gpu gfx803
.nosectdiffs
.kernel k
    .config
        .dims x
.globaldata
.global gd
        .int 0
gd:
        .int 7, 8
        .int gd
.gotsym gd, gdgot
.text
.global k
k:
        .skip 256
        s_endpgm
        .int gd, gdgot + 8
        .quad gd + 4
