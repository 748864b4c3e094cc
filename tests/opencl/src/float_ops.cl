// Single-precision arithmetic. FP_CONTRACT is off so that a*b+c is a
// multiply and an add everywhere (no fused multiply-add on one side only).
#pragma OPENCL FP_CONTRACT OFF

kernel void float_arith(global const float *a, global const float *b,
                        global const float *c, global float *out)
{
    size_t i = get_global_id(0);
    float x = a[i], y = b[i], z = c[i];
    global float *o = out + 6 * i;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = fma(x, y, z);
    o[4] = x * y + z;
    o[5] = -x * 0.5f;
}

kernel void float_div(global const float *a, global const float *b, global float *out)
{
    size_t i = get_global_id(0);
    out[i] = a[i] / b[i];
}

kernel void float_round(global const float *a, global const float *b, global float *out)
{
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    global float *o = out + 8 * i;
    o[0] = fabs(x);
    o[1] = floor(x);
    o[2] = ceil(x);
    o[3] = round(x);
    o[4] = trunc(x);
    o[5] = fmin(x, y);
    o[6] = fmax(x, y);
    o[7] = rint(x);
}
