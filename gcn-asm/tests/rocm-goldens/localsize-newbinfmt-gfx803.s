# .localsize in .newbinfmt: clrxasm leaves LDS_SIZE of PGM_RSRC2 at 0 in the new format (GCN 1.2, 512-byte granularity otherwise).
.rocm
.gpu gfx803
.newbinfmt
.kernel ls
    .config
        .dims x
        .localsize 1000
        .use_kernarg_segment_ptr
.kernel gsfs
    .config
        .dims x
        .group_segment_fixed_size 4096
        .pgmrsrc2 0x00ff8000
.text
ls:
        .skip 256
        s_endpgm
        .p2align 8
gsfs:
        .skip 256
        s_endpgm
