# .control_directive: patterned content, opened twice for one kernel, before .config, and as the only configuration of a kernel.
.rocm
.gpu gfx900
.kernel pattern
    .config
        .dims x
    .control_directive
        .byte 1, 2, 3, 4
        .int 0x11223344
        .fill 120, 1, 0xa5
.kernel split
    .control_directive
        .fill 64, 1, 0x0c
    .config
        .dims xy
        .use_kernarg_segment_ptr
    .control_directive
        .quad 0x0123456789abcdef
        .fill 56, 1, 0xff
.kernel onlycd
    .control_directive
        .fill 128, 1, 0x77
.text
pattern:
        .skip 256
        s_endpgm
        .p2align 8
split:
        .skip 256
        s_endpgm
        .p2align 8
onlycd:
        .skip 256
        v_mov_b32 v2, 0
        s_endpgm
