# A raw .metadata section (the note's text as written) in .newbinfmt, on gfx803 (clrxasm refuses the .group_segment_fixed_size its documentation lists).
.rocm
.gpu gfx803
.newbinfmt
.metadata
        .ascii "---\n"
        .ascii "Version: [ 1, 0 ]\n"
        .ascii "Kernels:\n"
        .ascii "  - Name: k\n"
        .ascii "    SymbolName: 'k@kd'\n"
        .ascii "    CodeProps:\n"
        .ascii "      KernargSegmentSize: 8\n"
        .ascii "      GroupSegmentFixedSize: 512\n"
        .ascii "      PrivateSegmentFixedSize: 0\n"
        .ascii "      KernargSegmentAlign: 8\n"
        .ascii "      WavefrontSize: 64\n"
        .ascii "      NumSGPRs: 10\n"
        .ascii "      NumVGPRs: 3\n"
        .ascii "      MaxFlatWorkGroupSize: 256\n"
        .ascii "...\n"
.kernel k
    .config
        .dims x
        .use_kernarg_segment_ptr
        .group_segment_fixed_size 512
        .kernarg_segment_size 8
.text
k:
        .skip 256
        s_load_dwordx2 s[0:1], s[4:5], 0x0
        v_mov_b32 v2, 1
        s_endpgm
