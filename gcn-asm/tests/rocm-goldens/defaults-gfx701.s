# GCN 1.1 by its LLVM name, flat_scratch named by the code.
.rocm
.gpu gfx701
.kernel k
    .config
        .dims xy
        .use_private_segment_buffer
        .use_flat_scratch_init
        .use_kernarg_segment_ptr
.text
k:
        .skip 256
        s_mov_b32 flat_scratch_lo, s8
        s_mov_b32 flat_scratch_hi, s9
        s_endpgm
