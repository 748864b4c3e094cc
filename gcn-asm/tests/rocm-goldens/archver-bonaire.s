# GCN 1.1 Bonaire in .newbinfmt with .tripple and .arch_stepping: target "-gfx702"-style name built from the note's numbers, .machine default 7.0.x.
.rocm
.gpu Bonaire
.arch_stepping 2
.newbinfmt
.tripple "amdgcn-amd-amdhsa-amdgizcl"
.kernel k
    .config
        .dims xy
        .use_private_segment_buffer
        .use_kernarg_segment_ptr
.text
k:
        .skip 256
        s_load_dwordx2 s[0:1], s[4:5], 0
        s_endpgm
