# .exceptions (7 bits), .tgsize (an extra SGPR) and an explicit .userdatanum on GCN 1.1 (Hawaii).
.rocm
.gpu Hawaii
.kernel exc
    .config
        .dims x
        .exceptions 0x7f
.kernel tg
    .config
        .dims xyz
        .tgsize
        .use_kernarg_segment_ptr
.kernel ud
    .config
        .dims x
        .userdatanum 12
        .use_private_segment_buffer
        .use_kernarg_segment_ptr
.kernel ud0
    .config
        .dims xy
        .userdatanum 0
        .use_private_segment_buffer
        .tgsize
        .exceptions 3
.text
exc:
        .skip 256
        s_endpgm
        .p2align 8
tg:
        .skip 256
        s_mov_b32 s4, s1
        s_endpgm
        .p2align 8
ud:
        .skip 256
        s_endpgm
        .p2align 8
ud0:
        .skip 256
        s_endpgm
