// Work-item functions over 1-, 2- and 3-dimensional grids, a global
// offset, work-groups that do not fill whole waves, many work-groups.

kernel void grid2d(global int *out)
{
    size_t x = get_global_id(0), y = get_global_id(1);
    global int *o = out + 8 * (y * get_global_size(0) + x);
    o[0] = x;
    o[1] = y;
    o[2] = get_local_id(0);
    o[3] = get_local_id(1);
    o[4] = get_group_id(0);
    o[5] = get_group_id(1);
    o[6] = get_num_groups(0) * 100 + get_num_groups(1);
    o[7] = get_work_dim();
}

kernel void grid3d(global int *out)
{
    size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    size_t w = get_global_size(0), h = get_global_size(1);
    global int *o = out + 4 * ((z * h + y) * w + x);
    o[0] = x + 1000 * y + 1000000 * z;
    o[1] = get_local_id(0) + 100 * get_local_id(1) + 10000 * get_local_id(2);
    o[2] = get_group_id(0) + 100 * get_group_id(1) + 10000 * get_group_id(2);
    o[3] = get_num_groups(2) * 10000 + get_local_size(2) * 100 + get_global_size(2);
}

kernel void global_offset(global int *out)
{
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    global int *o = out + 4 * (y * get_global_size(0) + x);
    o[0] = get_global_id(0);
    o[1] = get_global_id(1);
    o[2] = get_global_offset(0);
    o[3] = get_global_offset(1);
}

kernel void partial_wave(global const float *in, global float *out, uint n)
{
    size_t i = get_global_id(0);
    if (i < n)
        out[i] = in[i] * 2.0f + (float)get_local_id(0);
}

kernel void many_groups(global const uint *a, global const uint *b, global uint *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i] * get_group_id(0);
}
