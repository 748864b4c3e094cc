// Loops and divergent branches, 64-bit pointer arithmetic.
#pragma OPENCL FP_CONTRACT OFF

kernel void collatz(global const uint *in, global uint *steps)
{
    uint n = in[get_global_id(0)];
    uint s = 0;
    while (n != 1) {
        n = (n & 1) ? 3 * n + 1 : n / 2;
        s++;
    }
    steps[get_global_id(0)] = s;
}

kernel void mandelbrot(global int *out, float x0, float y0, float step, int max_iter)
{
    int px = get_global_id(0), py = get_global_id(1);
    float cr = x0 + px * step, ci = y0 + py * step;
    float zr = 0.0f, zi = 0.0f;
    int n = 0;
    while (n < max_iter && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        n++;
    }
    out[py * get_global_size(0) + px] = n;
}

kernel void branches(global const int *in, global int *out)
{
    int v = in[get_global_id(0)];
    int r;
    switch (v & 7) {
    case 0: r = v * 3; break;
    case 1: r = v - 100; break;
    case 2: r = v << 2; break;
    case 3: r = -v; break;
    case 5: r = v / 7; break;
    default: r = v ^ 0x1234; break;
    }
    if (v > 500)
        r += 1;
    else if (v < -500)
        r -= 1;
    out[get_global_id(0)] = r;
}

kernel void ptr_arith(global const long *offs, global const int *base, global long *out)
{
    size_t i = get_global_id(0);
    global const int *p = base + offs[i];
    global const int *q = &base[offs[i] >> 1];
    out[2 * i + 0] = *p + *q;
    out[2 * i + 1] = (p - q) + (long)((global const char *)p - (global const char *)base);
}

kernel void ptr_chase(global const int *next, global int *out, int hops)
{
    global const int *p = next + get_global_id(0);
    for (int h = 0; h < hops; h++)
        p = next + *p;
    out[get_global_id(0)] = (int)(p - next);
}
