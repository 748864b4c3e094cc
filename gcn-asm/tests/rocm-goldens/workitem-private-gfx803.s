# .workitem_private_segment_size, .group_segment_fixed_size and the pgmrsrc overrides.
.rocm
.gpu Fiji
.kernel k
    .config
        .dims x
        .pgmrsrc1 0x00000040
        .pgmrsrc2 0x00000000
        .use_private_segment_buffer
        .use_kernarg_segment_ptr
        .workitem_private_segment_size 100
        .group_segment_fixed_size 1024
.text
k:
        .skip 256
        s_endpgm
