# Empty dimension lists clrxasm accepts: .dims with no GID dims (", z"), with no LID dims ("xyz,"), and .use_grid_workgroup_count with nothing (Carrizo as gfx801).
.rocm
.gpu gfx801
.kernel nogid
    .config
        .dims , z
.kernel nolid
    .config
        .dims xyz,
.kernel nogrid
    .config
        .dims x
        .use_grid_workgroup_count xyz
        .use_grid_workgroup_count
.text
nogid:
        .skip 256
        s_endpgm
        .p2align 8
nolid:
        .skip 256
        s_endpgm
        .p2align 8
nogrid:
        .skip 256
        s_endpgm
