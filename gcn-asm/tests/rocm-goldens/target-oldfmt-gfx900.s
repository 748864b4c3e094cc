# Old format with a .target and .eflags: the target note and e_flags outside .newbinfmt.
.rocm
.gpu gfx900
.eflags 0x7
.target "amdgcn-amd-amdhsa-gfx900"
.kernel k
    .config
        .dims x
        .use_kernarg_segment_ptr
.text
k:
        .skip 256
        s_endpgm
