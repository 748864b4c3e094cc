// 3-component vectors: float3/int3 through pointers (16-byte elements),
// vload3/vstore3 (12-byte elements), in local memory and in a struct;
// arithmetic, swizzles, comparisons and selects. A float3/int3 store
// through a pointer writes 16 bytes whose 4th element is undefined (LLVM
// stores whatever the register holds), so the kernels then clear the
// padding bytes (through uchar stores, which alias everything) to keep the
// outputs deterministic.
#pragma OPENCL FP_CONTRACT OFF

void clear_bytes(global void *p, int from, int to)
{
    for (int k = from; k < to; k++)
        ((global uchar *)p)[k] = 0;
}

kernel void vec3_ptr(global const float3 *a, global const int3 *b, global float3 *fout,
                     global int3 *iout)
{
    size_t i = get_global_id(0);
    float3 x = a[i];
    int3 y = b[i];
    float3 z = x * x.yzx - x.zxy + convert_float3(y);
    fout[i] = z;
    int3 m = y > (int3)(0) ;            // -1 or 0 per component
    iout[2 * i] = select(y, -y, m) + (y >> 2);
    iout[2 * i + 1] = (y * y.zxy) ^ m;
    clear_bytes(&fout[i], 12, 16);
    clear_bytes(&iout[2 * i], 12, 16);
    clear_bytes(&iout[2 * i + 1], 12, 16);
}

kernel void vec3_vload(global const float *a, global const int *b, global float *fout,
                       global int *iout, float3 k)
{
    size_t i = get_global_id(0);
    float3 x = vload3(i, a), y = vload3(i + 1, a);
    int3 u = vload3(i, b);
    float3 r = fmax(x, y) * k + fmin(x, y);
    r = x > y ? r : -r;
    vstore3(r, i, fout);
    vstore3(u.zyx / (int3)(3, -5, 7) + u % (int3)(11), i, iout);
    int3 c = isless(x, k);
    iout[3 * get_global_size(0) + i] = c.x + 2 * c.y + 4 * c.z;
}

typedef struct {
    float3 pos;
    int3 cell;
    float w;
} particle;

kernel void vec3_local(global const particle *in, global particle *out)
{
    local float3 pos[32];
    local int3 cell[32];
    size_t lid = get_local_id(0), gid = get_global_id(0);
    particle p = in[gid];
    pos[lid] = p.pos;
    cell[lid] = p.cell;
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t o = (lid + 1) & 31;
    float3 d = pos[o] - p.pos;
    particle q;
    q.pos = d * p.w;
    q.cell = cell[o] - p.cell + (int3)((int)lid);
    q.w = d.x * d.x + d.y * d.y + d.z * d.z;
    out[gid] = q;
    clear_bytes(&out[gid], 12, 16);
    clear_bytes(&out[gid], 28, 32);
    clear_bytes(&out[gid], 36, 48);
}
