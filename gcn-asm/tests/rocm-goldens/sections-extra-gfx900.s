# A user .comment section and extra sections (.section with flags, @progbits and @nobits) beside .text and .globaldata, old format.
.rocm
.gpu gfx900
.kernel k
    .config
        .dims x
.section .comment
        .ascii "my own comment"
.section .mydata, "aw", @progbits
        .int 1, 2, 3
.section .mybss, "aw", @nobits
        .skip 16
.globaldata
        .int 0x55
.text
k:
        .skip 256
        s_endpgm
