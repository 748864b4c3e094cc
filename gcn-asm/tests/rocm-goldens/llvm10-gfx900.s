# .llvm10binfmt with the default entry offset and two kernels.
.rocm
.gpu gfx900
.eflags 0x2c                    # clrxasm's default for .llvm10binfmt is 0x33 (gfx1010) whatever .gpu says
.llvm10binfmt
.metadatav3
.md_version 1, 0
.globaldata
        .skip 128
.kernel one
    .config
        .dims x
        .use_private_segment_buffer
        .use_kernarg_segment_ptr
    .config
        .md_language "OpenCL C", 1, 2
        .arg out, "float*", 8, 0, globalbuf, f32, global, default
.kernel two
    .config
        .dims x
        .use_kernarg_segment_ptr
.text
one:
        s_load_dwordx2 s[0:1], s[4:5], 0x0
        s_endpgm
        .p2align 8
two:
        v_mov_b32 v1, 0
        s_endpgm
        .p2align 8
