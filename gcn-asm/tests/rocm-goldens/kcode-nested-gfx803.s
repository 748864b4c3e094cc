# .kcode + (all kernels), nested .kcode -KERNEL removing one, .kcode +NAME, and code before the first kernel label (GCN 1.2).
.rocm
.gpu gfx803
.kernel a
    .config
        .dims x
.kernel b
    .config
        .dims x
.kernel c
    .config
        .dims x
.text
.kcode +
common:
        s_mov_b32 s7, 0
        v_mov_b32 v6, 0
    .kcode -b
        s_mov_b32 s15, 0
        .kcode -c
            v_mov_b32 v20, 0
        .kcodeend
    .kcodeend
        s_endpgm
.kcodeend
        .p2align 8
a:
        .skip 256
        s_branch common
        .p2align 8
b:
        .skip 256
        s_branch common
.kcode +c
        s_mov_b32 s30, 0
.kcodeend
        .p2align 8
c:
        .skip 256
        s_branch common
