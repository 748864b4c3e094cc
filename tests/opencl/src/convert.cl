// Conversions: int <-> float, float <-> double, saturating conversions.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void convert_int_float(global const int *a, global const float *f,
                              global float *of, global int *oi, global uint *ou)
{
    size_t i = get_global_id(0);
    of[2 * i + 0] = (float)a[i];
    of[2 * i + 1] = convert_float((uint)a[i]);
    oi[3 * i + 0] = (int)f[i];
    oi[3 * i + 1] = convert_int_rte(f[i]);
    oi[3 * i + 2] = convert_int_sat(f[i] * 1000.0f);
    ou[i] = convert_uint_sat(f[i]);
}

kernel void convert_fp64(global const float *f, global const double *d,
                           global double *od, global float *of, global long *ol)
{
    size_t i = get_global_id(0);
    od[2 * i + 0] = (double)f[i];
    od[2 * i + 1] = (double)(long)(d[i] * 1024.0);
    of[i] = (float)d[i];
    ol[i] = (long)d[i];
}

kernel void convert_sat(global const int *a, global const float *f,
                        global uchar *o8, global char *oi8,
                        global ushort *o16, global short *oi16)
{
    size_t i = get_global_id(0);
    int x = a[i];
    o8[2 * i + 0] = convert_uchar_sat(x);
    o8[2 * i + 1] = convert_uchar_sat_rte(f[i]);
    oi8[i] = convert_char_sat(x);
    o16[i] = convert_ushort_sat(x);
    oi16[i] = convert_short_sat(x);
}
