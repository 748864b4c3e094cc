# Kernels without .dims (clrxasm's dimMask starts at 0, not at "from PGM_RSRC2"), with and without a .pgmrsrc2 carrying dimension, trap, LDS and exception bits.
.rocm
.gpu gfx803
.kernel nodims
    .config
        .use_kernarg_segment_ptr
.kernel nodims_rsrc2
    .config
        .pgmrsrc2 0x7f7ffbff
.kernel dims_rsrc2
    .config
        .dims xy
        .pgmrsrc2 0x00001b80
        .exceptions 1
.kernel rsrc2_bits
    .config
        .dims x
        .pgmrsrc2 0x80000040
        .use_kernarg_segment_ptr
.text
nodims:
        .skip 256
        s_endpgm
        .p2align 8
nodims_rsrc2:
        .skip 256
        s_endpgm
        .p2align 8
dims_rsrc2:
        .skip 256
        s_endpgm
        .p2align 8
rsrc2_bits:
        .skip 256
        s_endpgm
