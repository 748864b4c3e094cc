# MODE bits in PGM_RSRC1 on GCN 1.2: .floatmode, .ieeemode, .dx10clamp, .priority, .debugmode, .privmode, one per kernel and all together.
.rocm
.gpu gfx803
.kernel fm
    .config
        .dims x
        .floatmode 0x3a
.kernel ieee
    .config
        .dims x
        .ieeemode
.kernel clamp
    .config
        .dims x
        .dx10clamp
.kernel prio
    .config
        .dims x
        .priority 3
.kernel dbg
    .config
        .dims x
        .debugmode
.kernel priv
    .config
        .dims x
        .privmode
.kernel all
    .config
        .dims xy
        .floatmode 0
        .ieeemode
        .dx10clamp
        .priority 2
        .debugmode
        .privmode
.text
fm:
        .skip 256
        s_endpgm
        .p2align 8
ieee:
        .skip 256
        s_endpgm
        .p2align 8
clamp:
        .skip 256
        s_endpgm
        .p2align 8
prio:
        .skip 256
        s_endpgm
        .p2align 8
dbg:
        .skip 256
        s_endpgm
        .p2align 8
priv:
        .skip 256
        s_endpgm
        .p2align 8
all:
        .skip 256
        v_mov_b32 v7, 0
        s_endpgm
