# .codeversion and .machine given, against the defaults (machine from .gpu, changed by .arch_minor/.arch_stepping) on gfx902.
.rocm
.gpu gfx902
.arch_minor 1
.arch_stepping 7
.kernel given
    .config
        .dims x
        .codeversion 2, 3
        .machine 2, 10, 1, 5
.kernel deflt
    .config
        .dims x
.kernel big
    .config
        .dims x
        .codeversion 0x10001, 0xffff
        .machine 0, 0, 0, 0
.text
given:
        .skip 256
        s_endpgm
        .p2align 8
deflt:
        .skip 256
        s_endpgm
        .p2align 8
big:
        .skip 256
        s_endpgm
