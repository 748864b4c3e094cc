# Scratch (flat scratch init, private segment) with dynamic LDS on gfx803.
.rocm
.gpu gfx803
.md_version 1, 0
.kernel k
    .config
        .dims x
        .use_private_segment_buffer
        .use_kernarg_segment_ptr
        .use_flat_scratch_init
        .private_segment_fixed_size 64
        .localsize 128
    .config
        .arg lds, "float*", 4, , dynshptr, f32, 4, local
.text
k:
        .skip 256
        s_add_u32 s8, s8, s11
        s_lshr_b32 flat_scratch_hi, s8, 8
        s_mov_b32 flat_scratch_lo, s9
        buffer_store_dword v0, off, s[0:3], s11 offset:4
        ds_write_b32 v0, v0
        s_endpgm
