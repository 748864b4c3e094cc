// Private arrays indexed with data-dependent indices, so LLVM keeps them in
// scratch memory (MUBUF with `off` + constant offset for fixed indices,
// `offen` with a VGPR offset for dynamic ones) for several element types.
#pragma OPENCL FP_CONTRACT OFF

kernel void scratch_bytes(global const uchar *in, global uchar *out)
{
    uchar a[48];
    short b[40];
    size_t i = get_global_id(0);
    uchar s = in[i];
    for (int k = 0; k < 48; k++)
        a[k] = (uchar)(s + 3 * k);
    for (int k = 0; k < 40; k++)
        b[k] = (short)(s * k - 500);
    int k = s % 48;
    for (int j = 0; j < 16; j++) {
        a[(k + 7 * j) % 48] ^= (uchar)b[(k + j) % 40];
        b[(s + j) % 40] += a[k];
        k = (k + a[k]) % 48;
    }
    out[2 * i] = a[k];
    out[2 * i + 1] = (uchar)(b[s % 40] >> 3);
}

kernel void scratch_long(global const long *in, global long *out)
{
    long a[20];
    double d[12];
    size_t i = get_global_id(0);
    long s = in[i];
    for (int k = 0; k < 20; k++)
        a[k] = s * (k + 1) ^ ((long)k << 40);
    for (int k = 0; k < 12; k++)
        d[k] = (double)(s >> k) * 0.5;
    int k = (int)(s & 15);
    long acc = 0;
    for (int j = 0; j < 10; j++) {
        acc += a[(k + j) % 20];
        a[(k * 3 + j) % 20] = acc;
        d[(k + j) % 12] += (double)j;
    }
    out[2 * i] = acc ^ a[(int)(s & 7)];
    out[2 * i + 1] = (long)d[(int)(((ulong)s >> 4) % 12)];
}

typedef struct {
    int key;
    float weight;
    short tag;
} item;

// A private array of structs (with padding) and of float4.
kernel void scratch_struct(global const int *in, global float *out)
{
    item it[16];
    float4 v[8];
    size_t i = get_global_id(0);
    int s = in[i];
    for (int k = 0; k < 16; k++) {
        it[k].key = s ^ k;
        it[k].weight = (float)k * 0.25f;
        it[k].tag = (short)(k - s);
    }
    for (int k = 0; k < 8; k++)
        v[k] = (float4)(k, s & 255, -k, 1.5f);
    int k = s & 15;
    float acc = 0.0f;
    for (int j = 0; j < 8; j++) {
        item t = it[(k + j) & 15];
        acc += t.weight + (float)(t.key & 7) - (float)t.tag;
        v[(t.key + j) & 7] += (float4)(acc, 1.0f, t.weight, 0.0f);
        k = (k + t.key) & 15;
    }
    float4 r = v[s & 7] + v[(s >> 3) & 7];
    out[i] = acc + r.x - r.y + r.z * r.w;
}
