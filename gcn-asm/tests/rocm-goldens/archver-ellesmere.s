# Ellesmere (Polaris10) in .newbinfmt with a .tripple and .arch_minor: note 8.0.3 against .machine default 8.0.4.
.rocm
.gpu Polaris10
.arch_minor 2
.newbinfmt
.tripple "amdgcn-amd-amdhsa"
.kernel k
    .config
        .dims x
.text
k:
        .skip 256
        s_endpgm
