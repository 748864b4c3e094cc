# Stoney in the old format: .machine default 8.0.1 against the note's 8.1.0, with .arch_stepping changing both.
.rocm
.gpu Stoney
.arch_stepping 2
.kernel k
    .config
        .dims x
.text
k:
        .skip 256
        s_endpgm
