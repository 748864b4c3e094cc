// Program-scope globals: a pointer initialised with another global's address
// makes the linker emit a dynamic relocation (R_AMDGPU_RELATIVE64 or ABS64).
__global int table[4] = {1, 2, 3, 4};
__global int *__global ptr = &table[2];

__kernel void pick(__global int *out) {
  out[get_global_id(0)] = *ptr;
}
