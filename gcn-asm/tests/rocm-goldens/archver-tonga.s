# Tonga (gfx802): the default .machine comes from one table (8.0.0) and the ELF note from another (8.0.2); .tripple builds the target from the note's.
.rocm
.gpu Tonga
.newbinfmt
.tripple "amdgcn-amd-amdhsa-opencl"
.kernel k
    .config
        .dims x
        .use_kernarg_segment_ptr
.text
k:
        .skip 256
        s_endpgm
