// std: CL2.0 (see ../compile.sh: OpenCL C 2.0, whose kernels may run
// partial work-groups: a global size that is not a multiple of the local
// size; the last group in a dimension is smaller).

kernel void partial_ids(global uint *out)
{
    size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    size_t w = get_global_size(0), h = get_global_size(1);
    global uint *o = out + 4 * ((z * h + y) * w + x);
    o[0] = get_local_id(0) | get_local_id(1) << 8 | get_local_id(2) << 16;
    o[1] = get_local_size(0) | get_local_size(1) << 8 | get_local_size(2) << 16;
    o[2] = get_enqueued_local_size(0) | get_enqueued_local_size(1) << 8
        | get_enqueued_local_size(2) << 16;
    o[3] = get_group_id(0) | get_group_id(1) << 8 | get_group_id(2) << 16
        | get_num_groups(0) << 24;
}

// A reduction over a partial last group: the work-items of a group sum
// their inputs in a __local buffer (a __local pointer argument: dynamic
// LDS) and item 0 writes the sum.
kernel void partial_sum(global const uint *in, global uint *out, local uint *tmp)
{
    size_t l = get_local_id(0), n = get_local_size(0);
    tmp[l] = in[get_global_id(0)];
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        uint s = 0;
        for (size_t k = 0; k < n; k++)
            s += tmp[k];
        out[get_group_id(0)] = s;
    }
}
