// libclc math functions; each result goes to its own buffer so that each
// gets the tolerance the OpenCL 1.2 specification allows (section 7.4).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void math_sqrt(global const float *a, global float *osqrt, global float *orsqrt)
{
    size_t i = get_global_id(0);
    osqrt[i] = sqrt(a[i]);
    orsqrt[i] = rsqrt(a[i]);
}

kernel void math_exp_log(global const float *a, global float *oexp,
                         global float *olog, global float *oexp2, global float *olog2)
{
    size_t i = get_global_id(0);
    float x = a[i];
    oexp[i] = exp(x);
    olog[i] = log(fabs(x) + 0.5f);
    oexp2[i] = exp2(x);
    olog2[i] = log2(fabs(x) + 0.5f);
}

kernel void math_trig(global const float *a, global float *osin, global float *ocos,
                      global float *otan)
{
    size_t i = get_global_id(0);
    float x = a[i];
    osin[i] = sin(x);
    ocos[i] = cos(x);
    otan[i] = tan(x);
}

kernel void math_pow(global const float *a, global const float *b, global float *out)
{
    size_t i = get_global_id(0);
    out[i] = pow(a[i], b[i]);
}

kernel void math_hyp_atan2(global const float *a, global const float *b,
                           global float *otanh, global float *oatan2)
{
    size_t i = get_global_id(0);
    otanh[i] = tanh(a[i]);
    oatan2[i] = atan2(a[i], b[i]);
}

kernel void math_double(global const double *a, global double *oexp, global double *osin)
{
    size_t i = get_global_id(0);
    oexp[i] = exp(a[i]);
    osin[i] = sin(a[i]);
}
