// printf in HIP: clang-15 lowers each call to the device libraries'
// hostcall messages (the hidden_hostcall_buffer argument): a BEGIN, the
// format string, then each argument as a 64-bit word (a string argument
// as its bytes), which the emulator's hostcall server assembles per lane
// and formats as the HIP runtime does (tests/rocm/README.md).
#include <hip/hip_runtime.h>

// Two waves per block; lanes that print differ from call to call.
extern "C" __global__ void hip_printf(int *out, const char *name)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    printf("thread %d of block %u: %x %c\n", (int)threadIdx.x, (unsigned)blockIdx.x, i * 0x1011u,
           (char)('a' + i % 26));
    if (i % 3 == 0) {
        printf("%u: %ld %lld %s and %s\n", i, (long)i * -100000000000L, (long long)i << 40,
               "literal", name);
    }
    if (i % 7 == 2) {
        printf("%u: %f %e %g %.3f %p\n", i, i * 0.25f, (double)i * 1e10, i * 0.125, -1.5 * i,
               (void *)(0x1000ul * i + 0xbeef));
    }
    out[i] = (int)i;
}

// A 3-D grid: every work-item prints its coordinates.
extern "C" __global__ void hip_printf_3d(unsigned *out)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned z = blockIdx.z * blockDim.z + threadIdx.z;
    const unsigned w = gridDim.x * blockDim.x, h = gridDim.y * blockDim.y;
    printf("(%u,%u,%u) in block (%u,%u,%u)\n", x, y, z, (unsigned)blockIdx.x, (unsigned)blockIdx.y,
           (unsigned)blockIdx.z);
    out[(z * h + y) * w + x] = x | y << 8 | z << 16;
}
