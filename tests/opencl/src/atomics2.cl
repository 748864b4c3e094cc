// 32- and 64-bit atomics on global and local memory, with the returned
// value unused and used. Results do not depend on the order the work-items
// run in: contended atomics with an unused result end in an order-free
// value; returned values are used where they are order-free too (each
// work-item owns its location, a counter's old values are a permutation,
// or a bit only this work-item changes).
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

// Contended, results unused. acc: add, sub, min, max, and, or, xor, inc,
// dec, umin, umax, xchg (everybody writes the same value).
kernel void atomics_global_unused(global const int *in, global int *acc)
{
    int v = in[get_global_id(0)];
    atomic_add(&acc[0], v);
    atomic_sub(&acc[1], v);
    atomic_min(&acc[2], v);
    atomic_max(&acc[3], v);
    atomic_and(&acc[4], ~(1 << (v & 31)));
    atomic_or(&acc[5], 1 << ((v >> 5) & 31));
    atomic_xor(&acc[6], v);
    atomic_inc(&acc[7]);
    atomic_dec(&acc[8]);
    atomic_min((global uint *)&acc[9], (uint)v);
    atomic_max((global uint *)&acc[10], (uint)v);
    atomic_xchg(&acc[11], 12345);
    atomic_cmpxchg(&acc[12], 0, 77);
}

// Returned values used. own: one location per work-item (every operation
// in turn on it); cnt[0..2]: counters whose old values are permutations;
// bits: 32 work-items share a word, each changing its own bit.
kernel void atomics_global_used(global const int *in, global int *own, global int *cnt,
                                global uint *bits, global int *out)
{
    size_t i = get_global_id(0);
    int v = in[i];
    global int *p = &own[i];
    uint r = atomic_add(p, v);
    r ^= atomic_sub(p, 3);
    r += atomic_xchg(p, v ^ 0x1234);
    r ^= atomic_min(p, v >> 1);
    r += atomic_max(p, (int)i - 100);
    r ^= atomic_and(p, 0x7f7f7f7f);
    r += atomic_or(p, 0x01000100);
    r ^= atomic_xor(p, v);
    r += atomic_cmpxchg(p, v, 5);            // fails or succeeds per data
    r ^= atomic_cmpxchg(p, atomic_inc(p) + 1, 9);
    r += atomic_dec(p);
    r ^= (int)atomic_min((global uint *)p, (uint)v);
    r += (int)atomic_max((global uint *)p, (uint)i);
    out[2 * i] = (int)r;
    int t = atomic_inc(&cnt[0]);             // 0 .. n-1 in some order
    int u = atomic_add(&cnt[1], 2);          // 0, 2, .. 2n-2
    int w = atomic_dec(&cnt[2]);             // n .. 1 (cnt[2] starts at n)
    atomic_add(&out[2 * t + 1], 1);
    atomic_add(&out[u + 1], 16);
    atomic_add(&out[2 * w - 1], 256);
    uint bit = 1u << (i & 31);
    uint o1 = atomic_or(&bits[i / 32], bit);
    uint o2 = atomic_xor(&bits[i / 32 + 8], bit);
    uint o3 = atomic_and(&bits[i / 32 + 16], ~bit);
    int win = atomic_cmpxchg(&cnt[3], 0, 1) == 0;
    atomic_add(&cnt[4], win);                // exactly one winner
    atomic_or(&bits[24], ((o1 & bit) != 0) | ((o2 & bit) != 0) << 1 | ((o3 & bit) == 0) << 2);
}

kernel void atomics_local(global const int *in, global int *out)
{
    local int acc[16];
    local int own[64];
    local uint bits[2];
    size_t lid = get_local_id(0), gid = get_global_id(0);
    int v = in[gid];
    if (lid < 16)
        acc[lid] = lid == 2 ? 0x7fffffff : lid == 3 ? (int)0x80000000 : lid == 4 ? -1 : 0;
    if (lid < 2)
        bits[lid] = 0;
    own[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    // unused results
    atomic_add(&acc[0], v);
    atomic_sub(&acc[1], v);
    atomic_min(&acc[2], v);
    atomic_max(&acc[3], v);
    atomic_and(&acc[4], ~(1 << (v & 31)));
    atomic_or(&acc[5], 1 << ((v >> 5) & 31));
    atomic_xor(&acc[6], v);
    atomic_inc(&acc[7]);
    atomic_dec(&acc[8]);
    atomic_min((local uint *)&acc[9], (uint)v);
    atomic_max((local uint *)&acc[10], (uint)v);
    atomic_xchg(&acc[11], 4321);
    atomic_cmpxchg(&acc[12], 0, 99);
    // used results
    local int *p = &own[lid];
    uint r = atomic_add(p, 7);
    r ^= atomic_sub(p, v & 0xff);
    r += atomic_xchg(p, v * 3);
    r ^= atomic_min(p, v >> 2);
    r += atomic_max(p, (int)lid);
    r ^= atomic_and(p, 0x0ff00ff0);
    r += atomic_or(p, 0x10000001);
    r ^= atomic_xor(p, v);
    r += atomic_cmpxchg(p, 0x10000001, 3);
    r ^= atomic_inc(p);
    r += atomic_dec(p);
    r ^= (int)atomic_min((local uint *)p, (uint)v);
    r += (int)atomic_max((local uint *)p, (uint)lid * 1000u);
    int t = atomic_inc(&acc[13]);
    uint o = atomic_or(&bits[lid / 32], 1u << (lid & 31));
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&own[t], 1 + ((o >> (lid & 31)) & 1));
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t g = get_group_id(0);
    out[gid] = (int)(r + own[lid]);
    if (lid < 16)
        out[get_global_size(0) + g * 16 + lid] = acc[lid];
}

kernel void atomics64_global(global const long *in, global long *acc, global long *own,
                             global ulong *bits, global long *out)
{
    size_t i = get_global_id(0);
    long v = in[i];
    // contended, unused
    atom_add(&acc[0], v);
    atom_sub(&acc[1], v);
    atom_min(&acc[2], v);
    atom_max(&acc[3], v);
    atom_and(&acc[4], ~(1L << (v & 63)));
    atom_or(&acc[5], 1L << ((v >> 6) & 63));
    atom_xor(&acc[6], v);
    atom_inc(&acc[7]);
    atom_dec(&acc[8]);
    atom_min((global ulong *)&acc[9], (ulong)v);
    atom_max((global ulong *)&acc[10], (ulong)v);
    atom_xchg(&acc[11], 0x123456789aL);
    atom_cmpxchg(&acc[12], 0, -5L);
    // used, own location
    global long *p = &own[i];
    ulong r = atom_add(p, v);
    r ^= atom_sub(p, 0x100000001L);
    r += atom_xchg(p, v ^ 0x5555aaaa5555L);
    r ^= atom_min(p, v >> 1);
    r += atom_max(p, (long)i << 35);
    r ^= atom_and(p, 0x7f7f7f7f7f7f7f7fL);
    r += atom_or(p, 0x0100010001000100L);
    r ^= atom_xor(p, v);
    r += atom_cmpxchg(p, v, 5L);
    r ^= atom_inc(p);
    r += atom_dec(p);
    r ^= (long)atom_min((global ulong *)p, (ulong)v);
    r += (long)atom_max((global ulong *)p, (ulong)i << 40);
    out[2 * i] = (long)r;
    long t = atom_inc(&acc[13]);              // 0 .. n-1
    atom_add(&out[2 * t + 1], 1L << 33);
    ulong bit = 1UL << (i & 63);
    ulong o = atom_or(&bits[i / 64], bit);
    atom_or(&bits[8], (o & bit) ? 1UL << (i & 63) : 0);
}

kernel void atomics64_local(global const long *in, global long *out)
{
    local long acc[14];
    local long own[64];
    size_t lid = get_local_id(0), gid = get_global_id(0);
    long v = in[gid];
    if (lid < 14)
        acc[lid] = lid == 2 ? 0x7fffffffffffffffL : lid == 3 ? (long)0x8000000000000000UL
                 : lid == 4 ? -1L : 0;
    own[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    atom_add(&acc[0], v);
    atom_sub(&acc[1], v);
    atom_min(&acc[2], v);
    atom_max(&acc[3], v);
    atom_and(&acc[4], ~(1L << (v & 63)));
    atom_or(&acc[5], 1L << ((v >> 6) & 63));
    atom_xor(&acc[6], v);
    atom_inc(&acc[7]);
    atom_dec(&acc[8]);
    atom_min((local ulong *)&acc[9], (ulong)v);
    atom_max((local ulong *)&acc[10], (ulong)v);
    atom_xchg(&acc[11], -77L);
    atom_cmpxchg(&acc[12], 0, 0x1000000000L);
    local long *p = &own[lid];
    ulong r = atom_add(p, 0x300000000L);
    r ^= atom_sub(p, v & 0xffff);
    r += atom_xchg(p, v * 3);
    r ^= atom_min(p, v >> 2);
    r += atom_max(p, (long)lid << 36);
    r ^= atom_and(p, 0x0ff00ff00ff00ff0L);
    r += atom_or(p, 0x1000000100000001L);
    r ^= atom_xor(p, v);
    r += atom_cmpxchg(p, v, 3L);
    r ^= atom_inc(p);
    r += atom_dec(p);
    r ^= (long)atom_min((local ulong *)p, (ulong)v);
    r += (long)atom_max((local ulong *)p, (ulong)lid << 50);
    long t = atom_inc(&acc[13]);
    barrier(CLK_LOCAL_MEM_FENCE);
    atom_add(&own[t], 1L << 40);
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t g = get_group_id(0);
    out[gid] = (long)(r + own[lid]);
    if (lid < 14)
        out[get_global_size(0) + g * 14 + lid] = acc[lid];
}
