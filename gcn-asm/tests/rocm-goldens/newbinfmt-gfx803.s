# .newbinfmt with a triple and eflags.
.rocm
.gpu Fiji
.arch_minor 0
.arch_stepping 4
.eflags 2
.newbinfmt
.tripple "amdgcn-amd-amdhsa-amdgizcl"
.md_version 1, 0
.kernel k
    .config
        .dims x
        .codeversion 1, 1
        .use_private_segment_buffer
        .use_dispatch_ptr
        .use_kernarg_segment_ptr
        .private_elem_size 4
        .use_ptr64
    .config
        .md_language "OpenCL", 1, 2
        .arg n, "uint", 4, , value, u32
.text
k:
        .skip 256
        s_endpgm
