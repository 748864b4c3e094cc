# Explicit .sgprsnum/.vgprsnum (smaller and larger than used, up to the GCN 1.4 maxima 104 and 256), .wavefront_sgpr_count/.workitem_vgpr_count apart from them, on gfx906.
.rocm
.gpu gfx906
.kernel small
    .config
        .dims x
        .sgprsnum 3
        .vgprsnum 1
.kernel big
    .config
        .dims x
        .sgprsnum 104
        .vgprsnum 256
.kernel counts
    .config
        .dims x
        .wavefront_sgpr_count 50
        .workitem_vgpr_count 70
.kernel both
    .config
        .dims x
        .sgprsnum 40
        .vgprsnum 41
        .wavefront_sgpr_count 7
        .workitem_vgpr_count 3
.kernel zero
    .config
        .dims x
        .sgprsnum 0
        .vgprsnum 0
.text
small:
        .skip 256
        s_mov_b32 s30, 0
        v_mov_b32 v30, 0
        s_endpgm
        .p2align 8
big:
        .skip 256
        s_endpgm
        .p2align 8
counts:
        .skip 256
        s_mov_b32 s20, 0
        v_mov_b32 v20, 0
        s_endpgm
        .p2align 8
both:
        .skip 256
        s_endpgm
        .p2align 8
zero:
        .skip 256
        s_endpgm
