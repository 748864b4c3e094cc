# The GCN 1.5-only settings on a GCN 1.4 device (gfx905): .shared_vgprs 0 accepted, .pgmrsrc3 stored nowhere in the old format, .use_wave32.
.rocm
.gpu gfx905
.kernel k
    .config
        .dims x
        .shared_vgprs 0
        .pgmrsrc3 0xffffffff
.kernel w
    .config
        .dims x
        .use_wave32
.text
k:
        .skip 256
        s_endpgm
        .p2align 8
w:
        .skip 256
        s_endpgm
