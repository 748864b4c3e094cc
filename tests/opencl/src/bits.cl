// Bit tricks: byte swaps written with shifts and masks (and through
// rotate), rotate, clz and popcount of several widths, bit-field extract
// and insert patterns.

uint bswap32(uint x)
{
    return (x >> 24) | ((x >> 8) & 0xff00) | ((x << 8) & 0xff0000) | (x << 24);
}

ulong bswap64(ulong x)
{
    x = ((x & 0x00ff00ff00ff00ffUL) << 8) | ((x >> 8) & 0x00ff00ff00ff00ffUL);
    x = ((x & 0x0000ffff0000ffffUL) << 16) | ((x >> 16) & 0x0000ffff0000ffffUL);
    return (x << 32) | (x >> 32);
}

kernel void bit_swap(global const uint *in, global const ulong *lin, global uint *out,
                     global ulong *lout)
{
    size_t i = get_global_id(0);
    uint x = in[i];
    ulong y = lin[i];
    out[4 * i + 0] = bswap32(x);
    out[4 * i + 1] = rotate(x & 0xff00ff00u, 8u) | rotate(x & 0x00ff00ffu, 24u);
    out[4 * i + 2] = rotate(x, (uint)i & 31) ^ rotate(x, (32u - (x & 31)) & 31);
    out[4 * i + 3] = (uint)as_ushort2(x).y | (uint)bswap32(x) << 16 >> 16;
    lout[2 * i + 0] = bswap64(y);
    lout[2 * i + 1] = rotate(y, (ulong)(i * 7) & 63) ^ (y >> (x & 63)) ^ (y << (i & 63));
}

kernel void bit_count(global const uint *in, global const ulong *lin, global int *out)
{
    size_t i = get_global_id(0);
    uint x = in[i] >> (i & 31);     // some zeros, and shorter values
    ulong y = lin[i] >> (i & 63);
    ushort h = (ushort)(x >> (i & 15));
    uchar b = (uchar)(x >> (i & 7));
    out[8 * i + 0] = clz(x);
    out[8 * i + 1] = popcount(x);
    out[8 * i + 2] = (int)clz(y);
    out[8 * i + 3] = (int)popcount(y);
    out[8 * i + 4] = clz(h) | popcount(h) << 8;
    out[8 * i + 5] = clz(b) | popcount(b) << 8;
    out[8 * i + 6] = clz((int)(x - 5u)) + popcount((short)h) * 3 - clz((char)b);
    out[8 * i + 7] = 31 - clz(x & -x);  // count trailing zeros (-1 for 0)
}

kernel void bit_fields(global const uint *in, global uint *out)
{
    size_t i = get_global_id(0);
    uint x = in[i], y = in[(i + 5) % get_global_size(0)];
    uint k = x & 31, w = (y & 15) + 1;
    out[6 * i + 0] = (x >> 7) & 0x3ff;                             // extract
    out[6 * i + 1] = (uint)((int)(x << 9) >> 20);                  // signed
    out[6 * i + 2] = (x >> k) & ((1u << w) - 1);                   // variable
    out[6 * i + 3] = (x & ~0xff0u) | ((y << 4) & 0xff0u);          // insert
    out[6 * i + 4] = bitselect(x, y, 0x0f0f0f0fu ^ (uint)i);
    out[6 * i + 5] = (x & 0xffff) * (y >> 16) + mul24(x & 0x7fffff, y & 0x7fff);
}
