# Out-of-range .priority, .floatmode and .exceptions values: clrxasm warns and keeps the low bits (2, 8 and 7 bits).
.rocm
.gpu gfx900
.arch_minor 0
.arch_stepping 0
.kernel k
    .config
        .dims x
        .priority 6
        .floatmode 0x1f3
        .exceptions 0xc5
.text
k:
        .skip 256
        s_endpgm
