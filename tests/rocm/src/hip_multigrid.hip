// A hidden argument the emulator does not serve: the multi-grid
// synchronisation argument of cooperative launches
// (hipLaunchCooperativeKernelMultiDevice), which the emulator passes as
// null. Reading the grid rank dereferences it: tests/rocm_errors.rs checks
// that the fault's note names the argument.
#include <hip/hip_runtime.h>

extern "C" __global__ void multigrid_rank(unsigned *out)
{
    out[threadIdx.x] = __ockl_multi_grid_grid_rank();
}
