# .pgmrsrc1 is ORed into the computed PGM_RSRC1 (VGPR/SGPR blocks, float mode, priority, bits above): values overlapping the computed fields.
.rocm
.gpu gfx900
.kernel low
    .config
        .dims x
        .pgmrsrc1 0x0000003f
.kernel mid
    .config
        .dims x
        .floatmode 0x0f
        .pgmrsrc1 0x000ff3c0
.kernel high
    .config
        .dims x
        .pgmrsrc1 0xff000000
        .vgprsnum 9
.text
low:
        .skip 256
        s_endpgm
        .p2align 8
mid:
        .skip 256
        s_endpgm
        .p2align 8
high:
        .skip 256
        s_endpgm
