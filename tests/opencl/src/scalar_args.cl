// Scalar arguments of many sizes, passed by value. Every argument narrower
// than 4 bytes is followed by one aligned to 4 bytes at least (see the
// README: LLVM packs narrow arguments, Clover widens them to 4 bytes).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void scalar_args(global long *out, char c, int i, short s, uint u,
                        long l, float f, double d, int4 v, uchar uc, ulong ul,
                        float3 f3, ushort us, float tail)
{
    size_t g = get_global_id(0);
    global long *o = out + 20 * g;
    o[0] = c;
    o[1] = i;
    o[2] = s;
    o[3] = u;
    o[4] = l;
    o[5] = as_uint(f);
    o[6] = as_long(d);
    o[7] = v.x;
    o[8] = v.y;
    o[9] = v.z;
    o[10] = v.w;
    o[11] = uc;
    o[12] = ul;
    o[13] = as_uint(f3.x);
    o[14] = as_uint(f3.y);
    o[15] = as_uint(f3.z);
    o[16] = us;
    o[17] = as_uint(tail);
    o[18] = g * (long)c + l;
    o[19] = (long)(f * (float)g) + (long)(d * 2.0);
}
