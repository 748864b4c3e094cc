// What compiled code does that the hardware runs and the emulator must too
// (issue: compiled code runs as on hardware). Each kernel is one pattern:
// - any_dim_ids: get_global_id(k) with a run-time k enables the ids of
//   all three dimensions; it is launched with a 1-D dispatch (OpenCL's
//   work_dim may be smaller than what a kernel can address).
// - scalars_tail: three int arguments after a pointer, which LLVM loads
//   with one s_load_dwordx4 reading past a 20-byte kernarg segment.
// - half3_tail: vloada_half3 on the last 6 bytes of a buffer reads 8.
// - lds_vec8_unaligned / lds_vec16_unaligned: vload8/vstore8 of short and
//   vload16/vstore16 of char through local memory at odd element offsets
//   (gfx9: ds_read_b128/ds_write_b128 at unaligned addresses).
// - lds_half3_tail: vstorea_half3 at the end of a 7-short __local array
//   stores 4 halves, 2 bytes past the array, inside the LDS granule.
#pragma OPENCL FP_CONTRACT OFF

kernel void any_dim_ids(global uint *out, uint dims)
{
    size_t i = get_global_id(0);
    uint acc = get_work_dim();
    for (uint k = 0; k < dims; k++) {
        acc = acc * 7 + (uint)get_global_id(k) * 3 + (uint)get_local_id(k) * 5
            + (uint)get_group_id(k) * 11 + (uint)get_local_size(k) * 13
            + (uint)get_num_groups(k) * 17 + (uint)get_global_size(k) * 19
            + (uint)get_global_offset(k) * 23;
    }
    out[i] = acc;
}

kernel void scalars_tail(global int *out, int a, int b, int c)
{
    // No get_global_id (which reads the global offset, a hidden argument):
    // the segment then holds the explicit arguments only.
    int i = get_group_id(0) * get_local_size(0) + get_local_id(0);
    out[i] = a * i + b - c;
}

kernel void half3_tail(global const half *in, global float *out)
{
    size_t i = get_global_id(0);
    vstore3(vloada_half3(i, in) * 2.0f, i, out);
}

kernel void lds_vec8_unaligned(global const short *in, global short *out, local short *tmp)
{
    size_t l = get_local_id(0), g = get_global_id(0), n = get_local_size(0);
    vstore8(vload8(g, in), 0, tmp + 8 * l + 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    // Read back element by element: each short where vstore8 put it.
    for (int k = 0; k < 8; k++)
        out[8 * g + k] = tmp[8 * (n - 1 - l) + 1 + k] + 1;
}

kernel void lds_vec16_unaligned(global const char *in, global char *out, local char *tmp)
{
    size_t l = get_local_id(0), g = get_global_id(0), n = get_local_size(0);
    vstore16(vload16(g, in), 0, tmp + 16 * l + 3);
    barrier(CLK_LOCAL_MEM_FENCE);
    // Read back as vectors at another misalignment, then byte by byte.
    char8 v = vload8(0, tmp + 16 * (n - 1 - l) + 5);
    vstore8(v ^ (char8)(0x5a), 2 * g, out);
    for (int k = 8; k < 16; k++)
        out[16 * g + k] = tmp[16 * (n - 1 - l) + 3 + k] ^ 0x11;
}

kernel void lds_half3_tail(global const float *in, global short *out)
{
    volatile local short loc[7];
    size_t grp = get_group_id(0);
    for (int k = 0; k < 7; k++)
        loc[k] = 0;
    vstorea_half3(vload3(grp, in), 0, (local half *)loc + 4);
    for (int k = 0; k < 7; k++)
        out[7 * grp + k] = loc[k];
}
