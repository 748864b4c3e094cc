# GCN 1.0 (Tahiti) in ROCm: arch version 0.0.0, LDS_SIZE granularity 256 bytes for .localsize/.workgroup_group_segment_size/.group_segment_fixed_size.
.rocm
.gpu Tahiti
.kernel ls
    .config
        .dims x
        .localsize 1000
.kernel wgss
    .config
        .dims xy
        .workgroup_group_segment_size 32768
        .use_kernarg_segment_ptr
.kernel gsfs
    .config
        .dims x
        .group_segment_fixed_size 257
        .use_private_segment_buffer
        .use_kernarg_segment_ptr
.text
ls:
        .skip 256
        s_mov_b32 s5, 0
        v_mov_b32 v3, 0
        s_endpgm
        .p2align 8
wgss:
        .skip 256
        ds_write_b32 v0, v1
        s_endpgm
        .p2align 8
gsfs:
        .skip 256
        s_endpgm
