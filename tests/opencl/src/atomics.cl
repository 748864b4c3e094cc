// Global and local atomics with results that do not depend on the order
// the work-items run in.

kernel void atomic_hist(global const uint *in, global int *hist)
{
    atomic_inc(&hist[in[get_global_id(0)] & 15]);
}

kernel void atomic_minmax(global const int *in, global int *res)
{
    int v = in[get_global_id(0)];
    atomic_min(&res[0], v);
    atomic_max(&res[1], v);
    atomic_add(&res[2], v);
    atomic_sub(&res[3], v);
    atomic_or(&res[4], 1 << (v & 31));
    atomic_and(&res[5], ~(1 << ((v >> 5) & 31)));
    atomic_xor(&res[6], v);
    atomic_min((global uint *)&res[7], (uint)v);
}

kernel void atomic_cas_add(global const int *in, global int *sum)
{
    int v = in[get_global_id(0)];
    int old = *sum;
    for (;;) {
        int seen = atomic_cmpxchg(sum, old, old + v);
        if (seen == old)
            break;
        old = seen;
    }
}

kernel void local_hist(global const uint *in, global uint *out)
{
    local uint h[16];
    size_t lid = get_local_id(0);
    if (lid < 16)
        h[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint v = in[get_global_id(0)];
    atomic_add(&h[v & 15], v >> 4);
    atomic_inc(&h[(v >> 8) & 15]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 16)
        out[get_group_id(0) * 16 + lid] = h[lid];
}
