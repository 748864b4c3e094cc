// What the emulator does not serve, and how it says so
// (tests/rocm_errors.rs):
// - the multi-grid synchronisation argument of cooperative launches
//   (hipLaunchCooperativeKernelMultiDevice) is passed as null: reading the
//   grid rank dereferences it, a fault whose note names the argument;
// - device-side malloc asks the host for memory through the hostcall
//   buffer (service 3, SERVICE_DEVMEM), a service the emulator does not
//   provide: a fault naming the service.
#include <hip/hip_runtime.h>

extern "C" __global__ void multigrid_rank(unsigned *out)
{
    out[threadIdx.x] = __ockl_multi_grid_grid_rank();
}

extern "C" __global__ void device_malloc(unsigned *out)
{
    unsigned *p = (unsigned *)malloc(16384);
    p[threadIdx.x] = threadIdx.x;
    out[threadIdx.x] = p[threadIdx.x ^ 1];
    free(p);
}
