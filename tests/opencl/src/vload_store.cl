// vloadN / vstoreN (N = 2, 3, 4, 8, 16) of several element types from and
// to global, constant, local and private memory, including addresses only
// aligned to the element (vload4 at an odd element offset).
#pragma OPENCL FP_CONTRACT OFF

// One kernel per element type: each work-item loads one vector of every
// width from its own region of `in` and stores a modified copy at the same
// place of `out`; then an unaligned vload4/vstore4 (element offset 3i + 1).
#define VLS(T, NAME)                                                          \
kernel void NAME(global const T *in, global T *out)                          \
{                                                                             \
    size_t i = get_global_id(0), n = get_global_size(0);                     \
    global const T *p = in;                                                   \
    global T *q = out;                                                        \
    vstore2(vload2(i, p) + (T)1, i, q);                                       \
    p += 2 * n; q += 2 * n;                                                   \
    vstore3(vload3(i, p).zxy, i, q);                                          \
    p += 3 * n; q += 3 * n;                                                   \
    vstore4(vload4(i, p) * (T)3, i, q);                                       \
    p += 4 * n; q += 4 * n;                                                   \
    vstore8(vload8(i, p).s70615243, i, q);                                    \
    p += 8 * n; q += 8 * n;                                                   \
    T##16 v = vload16(i, p);                                                  \
    vstore16(v - v.sfedcba9876543210, i, q);                                  \
    p += 16 * n; q += 16 * n;                                                 \
    vstore4(vload4(0, p + 3 * i + 1).wzyx, 0, q + 5 * i + 2);                 \
}

VLS(char, vls_char)
VLS(uchar, vls_uchar)
VLS(short, vls_short)
VLS(int, vls_int)
VLS(float, vls_float)
VLS(long, vls_long)
VLS(double, vls_double)

// From constant memory: a __constant argument and a program-scope table.
constant int ctab[24] = {3, -1, 4, -1, 5, -9, 2, 6, -5, 3, 5, -8,
                         9, 7, -9, 3, 2, -3, 8, 4, -6, 2, 6, 4};

kernel void vload_constant(constant float *cin, constant short *sin, global float *out)
{
    size_t i = get_global_id(0);
    float4 a = vload4(i & 7, cin);
    float3 b = vload3(i & 3, cin + 1);
    short8 s = vload8(i & 1, sin);
    int2 t = vload2(i % 12, ctab);
    int8 u = vload8(i % 3, ctab);
    float r = a.x + a.y * b.z - a.w + b.x;
    r += (float)(s.s0 + s.s3 - s.s7) + (float)(t.x * t.y);
    r += (float)(u.s0 + u.s2 + u.s5 - u.s7);
    out[i] = r;
}

// Through local memory: vstore into a static __local array, barrier, vload
// another work-item's vector back; and through a __local pointer argument.
kernel void vls_local(global const int *in, global int *out, global const short *sin,
                      global short *sout)
{
    local int lbuf[64 * 4];
    local short sbuf[64 * 3];
    size_t lid = get_local_id(0), gid = get_global_id(0);
    vstore4(vload4(gid, in), lid, lbuf);
    vstore3(vload3(gid, sin), lid, sbuf);
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t o = 63 - lid;
    int4 a = vload4(o, lbuf);
    int2 b = vload2(2 * lid + 1, lbuf);
    short3 c = vload3(o, sbuf);
    vstore4(a + (int4)(b, b.yx), gid, out);
    vstore3(c ^ (short)0x5a5a, gid, sout);
}

kernel void vls_local_arg(global const double *in, global double *out, local double *tmp)
{
    size_t lid = get_local_id(0), gid = get_global_id(0);
    vstore2(vload2(gid, in), lid, tmp);
    barrier(CLK_LOCAL_MEM_FENCE);
    double2 a = vload2(get_local_size(0) - 1 - lid, tmp);
    vstore2(a * 2.0, gid, out);
}

// Through private memory: vectors stored into a private array at offsets
// that depend on the data, then loaded back (the array goes to scratch).
kernel void vls_private(global const int *in, global int *out)
{
    int priv[32];
    uchar pc[40];
    size_t i = get_global_id(0);
    int4 x = vload4(i, in);
    for (int k = 0; k < 32; k++)
        priv[k] = k;
    for (int k = 0; k < 40; k++)
        pc[k] = (uchar)(k * 7);
    int s = x.x & 7;
    vstore4(x, s, priv);
    vstore2(x.zw * 5, (x.y & 15), priv);
    vstore3(convert_uchar3(x.xyz), x.z & 7, pc);
    int4 y = vload4((x.w & 7), priv);
    int8 z = vload8(x.x & 3, priv);
    uchar4 c = vload4(x.y & 7, pc);
    vstore4(y + z.lo - z.hi + convert_int4(c), i, out);
}

// Half precision: vload_half / vstore_half (round to nearest even and
// toward zero), the 4-wide forms and the aligned vloada/vstorea forms
// (vloada_half2, vstorea_half4_rtz).
kernel void half_conv(global const half *hin, global const float *fin, global half *hout,
                      global float *fout)
{
    size_t i = get_global_id(0);
    float a = vload_half(i, hin);
    float4 b = vload_half4(i, hin + 8);
    float4 c = vloada_half4(i, hin + 16);
    float2 d = vloada_half2(i, hin + 4);
    fout[4 * i + 0] = a + d.x * d.y;
    fout[4 * i + 1] = b.x - b.w;
    fout[4 * i + 2] = c.y + c.z;
    fout[4 * i + 3] = b.y * c.w;
    float4 f = vload4(i, fin);
    vstore_half(f.x, i, hout);
    vstore_half_rtz(f.y, i, hout + 256);
    vstore_half4(f * 0.5f, i, hout + 512);
    vstorea_half4_rtz(f.wzyx, i, hout + 1536);
}
