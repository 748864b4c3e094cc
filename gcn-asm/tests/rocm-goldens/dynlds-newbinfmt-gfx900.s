# Dynamic LDS in .newbinfmt: a fixed group segment plus a dynamic shared pointer argument, DS instructions, dims xy (gfx900).
.rocm
.gpu gfx900
.newbinfmt
.md_version 1, 0
.kernel k
    .config
        .dims xy
        .use_private_segment_buffer
        .use_kernarg_segment_ptr
        .group_segment_fixed_size 1024
        .kernarg_segment_align 16
    .config
        .arg out, "int*", 8, , globalbuf, i32, global, default
        .arg dyn, "int*", 4, , dynshptr, i32, 4, local
.text
k:
        .skip 256
        s_load_dword s0, s[6:7], 0x8
        s_waitcnt lgkmcnt(0)
        v_add_u32 v2, s0, v0
        ds_write_b32 v2, v1 offset:16
        ds_read_b32 v3, v0
        s_endpgm
