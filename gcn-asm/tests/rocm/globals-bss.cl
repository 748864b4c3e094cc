// Program-scope globals in every section a code object has for them: a
// zero-initialised counter and histogram (.bss), an initialised table and
// pointers into .data and .bss (.data, R_AMDGPU_RELATIVE64 relocations),
// constants (.rodata); the kernel reaches each PC-relatively.
__global int counter;
__global int hist[8];
__global int table[4] = {10, 20, 30, 40};
__global int *__global ptrs[2] = {&table[1], &hist[3]};
__constant int scale[4] = {1, 2, 3, 4};

__kernel void tally(__global int *out) {
  int i = get_global_id(0);
  atomic_add(ptrs[1], 1);
  atomic_inc(&counter);
  out[i] = *ptrs[0] * scale[i & 3] + hist[i & 7] * 0;
}

__kernel void read_counts(__global int *out) {
  out[0] = counter;
  out[1] = hist[3];
}
