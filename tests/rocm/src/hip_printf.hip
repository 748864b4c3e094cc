// printf in HIP: clang-15 lowers it to the device libraries' hostcall
// (the hidden_hostcall_buffer argument), a service of the HIP runtime's
// host thread that the emulator does not provide: the argument is null,
// and the kernel's first access through it is a fault whose note names
// it (tests/rocm_errors.rs).
#include <hip/hip_runtime.h>

extern "C" __global__ void hip_printf(int *out)
{
    printf("thread %d\n", (int)threadIdx.x);
    out[threadIdx.x] = threadIdx.x;
}
