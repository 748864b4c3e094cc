// Double precision: basic operations (correctly rounded in OpenCL 1.2) and
// sqrt.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

kernel void double_arith(global const double *a, global const double *b,
                         global double *out)
{
    size_t i = get_global_id(0);
    double x = a[i], y = b[i];
    global double *o = out + 8 * i;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = x / y;
    o[4] = fma(x, y, 1.0);
    o[5] = floor(x);
    o[6] = fmax(x, y);
    o[7] = fabs(x) * 0.25;
}

kernel void double_sqrt(global const double *a, global double *out)
{
    size_t i = get_global_id(0);
    out[i] = sqrt(a[i]);
}
