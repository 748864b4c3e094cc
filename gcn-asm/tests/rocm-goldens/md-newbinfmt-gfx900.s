# Metadata (YAML, .newbinfmt, gfx900): the metadata .newbinfmt writes without any metadata pseudo-op (no .md_version), kernels with and without arguments, a kernel whose config sets the kernarg segment.
.rocm
.gpu gfx900
.newbinfmt
.kernel first
    .config
        .dims xyz
        .use_private_segment_buffer
        .use_kernarg_segment_ptr
        .kernarg_segment_size 64
        .kernarg_segment_align 64
        .wavefront_size 64
        .group_segment_fixed_size 100
        .private_segment_fixed_size 20
.kernel second
    .config
        .dims x
        .use_dispatch_ptr
        .sgprsnum 40
        .vgprsnum 33
.text
first:
        .skip 256
        s_endpgm
second:
        .skip 256
        v_mov_b32 v10, 1
        s_endpgm
