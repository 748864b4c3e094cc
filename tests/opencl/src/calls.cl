// Non-inlined function calls (`noinline`): scalar and vector arguments,
// structs passed and returned by value (small ones in registers, a big one
// on the stack), pointers to global, local and private memory, calls from
// calls, a callee with a stack frame of its own (private array) and one
// with enough live values to use callee-saved VGPRs (v40 and up, saved and
// restored on the stack by the callee). Internal functions are compiled
// with interprocedural register allocation, so callers keep values in the
// registers their callees leave alone.
#pragma OPENCL FP_CONTRACT OFF

typedef struct {
    int a;
    float b;
    short c;
    long d;
} rec;

typedef struct {
    float4 v;
    int n;
} pair;

__attribute__((noinline)) int mix(int x, int y)
{
    return (x * 31 + y) ^ (x >> 3);
}

__attribute__((noinline)) float fmix(float x, float y, int k)
{
    return x * (float)k + y / 4.0f;
}

__attribute__((noinline)) rec make_rec(int x, long y)
{
    rec r;
    r.a = x * 3;
    r.b = (float)x * 0.5f;
    r.c = (short)(x - 7);
    r.d = y * x + 11;
    return r;
}

__attribute__((noinline)) long use_rec(rec r, int k)
{
    return r.d + (long)(r.a * k) + (long)r.c - (long)r.b;
}

__attribute__((noinline)) pair scale_pair(pair p, float s)
{
    pair q;
    q.v = p.v * s + (float4)(p.n);
    q.n = p.n + 1;
    return q;
}

// Calls other functions and keeps values live across the calls.
__attribute__((noinline)) int chain(int x, int y, int z)
{
    int u = mix(x, y);
    int v = mix(y, z);
    int w = mix(u, v);
    return u + v * 3 - w + x * z;
}

__attribute__((noinline)) int sum_ptr(global const int *p, int n)
{
    int s = 0;
    for (int k = 0; k < n; k++)
        s += p[k] * (k + 1);
    return s;
}

__attribute__((noinline)) void fill_private(int *a, int n, int seed)
{
    for (int k = 0; k < n; k++)
        a[k] = seed * k - (k ^ seed);
}

__attribute__((noinline)) int local_sum(local int *l, int n)
{
    int s = 0;
    for (int k = 0; k < n; k++)
        s ^= l[k] + k;
    return s;
}

typedef struct {
    int v[20];
    long tag;
} big;

// `big` is passed by value on the stack (byval) and returned through a
// hidden pointer (sret).
__attribute__((noinline)) big big_step(big b, int k)
{
    big r;
    for (int j = 0; j < 20; j++)
        r.v[j] = b.v[(j + k) % 20] * 3 - j;
    r.tag = b.tag + k;
    return r;
}

// High register pressure: 4 float16 accumulators live through the loop.
__attribute__((noinline)) float16 heavy(global const float16 *p, int n, float s)
{
    float16 a = (float16)(0.0f), b = (float16)(-1000.0f), c = (float16)(1.0f),
            d = (float16)(s);
    for (int k = 0; k < n; k++) {
        float16 x = p[k];
        a += x * (float)(k + 1);
        b = fmax(b, x - a);
        c = c * 0.5f + x.s3210765489abcdef;
        d = d - x * c;
    }
    return a + b - c * d;
}

// A frame of its own (dynamically indexed private array) and a call.
__attribute__((noinline)) int framed(int x, int y)
{
    int t[16];
    for (int k = 0; k < 16; k++)
        t[k] = mix(x + k, y);
    return t[x & 15] + t[y & 15] * 2;
}

kernel void call_scalar(global const int *in, global int *out)
{
    size_t i = get_global_id(0);
    int x = in[i];
    int y = in[(i + 1) % get_global_size(0)];
    out[2 * i] = mix(x, y);
    out[2 * i + 1] = chain(x, y, (int)i);
}

kernel void call_float(global const float *in, global float *out)
{
    size_t i = get_global_id(0);
    float x = in[i];
    out[i] = fmix(x, x + 1.0f, (int)i) - fmix(2.0f, x, 3);
}

kernel void call_struct(global const int *in, global long *out, global float *fout)
{
    size_t i = get_global_id(0);
    int x = in[i];
    rec r = make_rec(x, (long)i << 33);
    out[i] = use_rec(r, x & 15);
    pair p;
    p.v = (float4)((float)x, 1.0f, -2.0f, 0.5f);
    p.n = (int)i;
    pair q = scale_pair(p, 0.25f);
    vstore4(q.v + (float)q.n, i, fout);
}

// local_sum is called with two arrays: with a single one, LLVM would
// propagate the array into the function, which then reaches LDS itself
// (and the kernel needs 4 user SGPRs, a layout the Gallium ABI lacks).
kernel void call_pointers(global const int *in, global int *out)
{
    local int l[64], l2[64];
    int priv[24];
    size_t i = get_global_id(0), lid = get_local_id(0);
    l[lid] = in[i] ^ 0x55;
    l2[lid] = in[i] * 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    int x = in[i];
    fill_private(priv, 24, x);
    int s = sum_ptr(in + (i & ~(size_t)15), 16);
    int t = local_sum(l, (int)(lid & 31) + 1) - local_sum(l2, (int)(lid & 15) + 1);
    out[i] = s + t + priv[x & 15] + priv[(x >> 4) & 7];
}

kernel void call_big(global const int *in, global int *out)
{
    size_t i = get_global_id(0);
    big b;
    for (int j = 0; j < 20; j++)
        b.v[j] = in[(i + j) & 255];
    b.tag = (long)i << 32;
    big r = big_step(b, (int)(i % 7));
    big q = big_step(r, 3);
    uint s = (uint)(q.tag >> 32) + (uint)q.tag;
    for (int j = 0; j < 20; j++)
        s = s * 7 + (uint)q.v[j];
    out[2 * i] = (int)s;
    out[2 * i + 1] = framed(in[i], (int)i) + framed((int)i, 5);
}

kernel void call_heavy(global const float16 *in, global float *out)
{
    size_t i = get_global_id(0), g = get_group_id(0);
    float16 r = heavy(in + 4 * g, 4, (float)get_local_id(0));
    float16 q = heavy(in + 4 * g + 1, 2, r.s0);
    out[i] = r.s0 + r.s5 - r.sa + r.sf + q.s1 - q.s7;
}
