// Integer arithmetic on int, uint, long, ulong, char, uchar, short.
// Inputs keep every signed operation free of overflow (see cases.py).

kernel void int_arith(global const int *a, global const int *b, global int *out)
{
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    global int *o = out + 10 * i;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = x / y;
    o[4] = x % y;
    o[5] = (int)((uint)x << (y & 15));
    o[6] = x >> (y & 31);
    o[7] = x & y;
    o[8] = x | y;
    o[9] = x ^ ~y;
}

kernel void uint_arith(global const uint *a, global const uint *b, global uint *out)
{
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i];
    global uint *o = out + 10 * i;
    o[0] = x + y;
    o[1] = x * y;
    o[2] = x / y;
    o[3] = x % y;
    o[4] = x >> (y & 31);
    o[5] = mul_hi(x, y);
    o[6] = clz(x);
    o[7] = popcount(x);
    o[8] = rotate(x, y);
    o[9] = max(x, y) - min(x, y);
}

kernel void long_arith(global const long *a, global const long *b, global long *out)
{
    size_t i = get_global_id(0);
    long x = a[i], y = b[i];
    global long *o = out + 9 * i;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = x / y;
    o[4] = x % y;
    o[5] = (long)((ulong)x << (y & 31));
    o[6] = x >> (y & 63);
    o[7] = (x & y) | (x ^ 0x5555aaaa5555aaaaL);
    o[8] = abs_diff(x, y);
}

kernel void ulong_arith(global const ulong *a, global const ulong *b, global ulong *out)
{
    size_t i = get_global_id(0);
    ulong x = a[i], y = b[i];
    global ulong *o = out + 8 * i;
    o[0] = x + y;
    o[1] = x * y;
    o[2] = x / y;
    o[3] = x % y;
    o[4] = x >> (y & 63);
    o[5] = mul_hi(x, y);
    o[6] = clz(x);
    o[7] = popcount(x);
}

kernel void small_int_arith(global const char *a, global const char *b,
                            global const short *c, global const short *d,
                            global const uchar *e, global char *oc,
                            global short *os, global uchar *ou)
{
    size_t i = get_global_id(0);
    char x = a[i], y = b[i];
    short s = c[i], t = d[i];
    uchar u = e[i];
    oc[4 * i + 0] = x + y;
    oc[4 * i + 1] = x * y;
    oc[4 * i + 2] = x / y;
    oc[4 * i + 3] = add_sat(x, y);
    os[4 * i + 0] = s + t;
    os[4 * i + 1] = s * t;
    os[4 * i + 2] = s / t;
    os[4 * i + 3] = s % t;
    ou[2 * i + 0] = add_sat(u, (uchar)x);
    ou[2 * i + 1] = hadd(u, (uchar)y);
}
