// A HIP kernel without the HIP headers (clang -nogpuinc): what hipcc makes of a __global__.
#define __global__ __attribute__((global))
extern "C" __global__ void axpy(float a, const float *x, float *y, int n) {
  int i = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
  if (i < n) y[i] = a * x[i] + y[i];
}
