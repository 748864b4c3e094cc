# .newbinfmt with both .target and .tripple: the explicit .target wins (gfx804); .arch_stepping 9 goes to the arch note and the default .machine, not into the target text.
.rocm
.gpu gfx804
.arch_stepping 9
.newbinfmt
.tripple "amdgcn-amd-amdhsa-amdgizcl"
.target "amdgcn--amdhsa-gfx804"
.kernel k
    .config
        .dims x
.text
k:
        .skip 256
        s_endpgm
