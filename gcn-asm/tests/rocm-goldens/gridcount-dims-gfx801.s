# .dims in both forms (GID dims, LID dims) against .use_grid_workgroup_count on Carrizo by its LLVM name gfx801.
.rocm
.gpu gfx801
.kernel d_z
    .config
        .dims z
.kernel d_yz
    .config
        .dims yz
        .use_grid_workgroup_count y
.kernel d_xyz_x
    .config
        .dims xyz, x
        .use_grid_workgroup_count xyz
.kernel d_x_xyz
    .config
        .dims x, xyz
.kernel d_y_xy
    .config
        .dims y, xy
        .use_grid_workgroup_count z
.text
d_z:
        .skip 256
        s_endpgm
        .p2align 8
d_yz:
        .skip 256
        s_endpgm
        .p2align 8
d_xyz_x:
        .skip 256
        s_endpgm
        .p2align 8
d_x_xyz:
        .skip 256
        s_endpgm
        .p2align 8
d_y_xy:
        .skip 256
        s_endpgm
