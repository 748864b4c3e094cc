// Kernels for the code-object reader's fixtures (see make-fixtures.sh).
__kernel void scale(__global const float *in, __global float *out, float k) {
  size_t i = get_global_id(0);
  out[i] = in[i] * k;
}

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void reverse(__global int *a, __global const int *b, __local int *tmp) {
  size_t i = get_global_id(0);
  tmp[get_local_id(0)] = b[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  a[i] = tmp[63 - get_local_id(0)];
}
