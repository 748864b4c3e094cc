// Local memory with barriers: tree reduction (local pointer argument),
// inclusive prefix scan and matrix transpose (static local arrays).
#pragma OPENCL FP_CONTRACT OFF

kernel void reduce_sum(global const int *in, global int *out, local int *tmp)
{
    size_t lid = get_local_id(0);
    size_t n = get_local_size(0);
    tmp[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = n / 2; s > 0; s >>= 1) {
        if (lid < s)
            tmp[lid] += tmp[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = tmp[0];
}

kernel void prefix_scan(global const int *in, global int *out)
{
    local int buf[2][128];
    size_t lid = get_local_id(0);
    int cur = 0;
    buf[0][lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < 128; d <<= 1) {
        int v = buf[cur][lid];
        if (lid >= d)
            v += buf[cur][lid - d];
        buf[cur ^ 1][lid] = v;
        cur ^= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = buf[cur][lid];
}

#define TILE 16
kernel void transpose(global const float *in, global float *out, int width, int height)
{
    local float tile[TILE][TILE + 1];
    int x = get_group_id(0) * TILE + get_local_id(0);
    int y = get_group_id(1) * TILE + get_local_id(1);
    tile[get_local_id(1)][get_local_id(0)] = in[y * width + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    int tx = get_group_id(1) * TILE + get_local_id(0);
    int ty = get_group_id(0) * TILE + get_local_id(1);
    out[ty * height + tx] = tile[get_local_id(0)][get_local_id(1)];
}
