// Vector types: float4, int2 (also by value), float3 (by value and
// through vload3/vstore3).
#pragma OPENCL FP_CONTRACT OFF

kernel void vec_float4(global const float4 *a, global const float4 *b, global float4 *out)
{
    size_t i = get_global_id(0);
    float4 x = a[i], y = b[i];
    out[2 * i + 0] = (x + y) * 0.5f;
    out[2 * i + 1] = x.wzyx - fmax(x, y);
}

kernel void vec_int2(global const int2 *a, int2 k, global int2 *out)
{
    size_t i = get_global_id(0);
    int2 x = a[i];
    out[2 * i + 0] = x * k + x.yx;
    out[2 * i + 1] = max(as_int2(abs(x)), k) ^ (x >> 1);
}

kernel void vec_float3(global const float *in, float3 scale, global float *out)
{
    size_t i = get_global_id(0);
    float3 v = vload3(i, in);
    float3 r = v * scale;
    vstore3(r + v.zxy, i, out);
}
