// HIP kernels for the ROCm fixtures (compiled by hipcc; see ../compile.sh).
// References are computed on the host by ../cases.py.
#include <hip/hip_runtime.h>

// y = a * x + y over n elements; the grid may be larger than n.
extern "C" __global__ void axpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

// Per-block sums in dynamic shared memory (`extern __shared__`: its size
// is given at launch, not by an argument).
extern "C" __global__ void block_sum(const unsigned *in, unsigned *out)
{
    extern __shared__ unsigned tmp[];
    unsigned t = threadIdx.x;
    tmp[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s)
            tmp[t] += tmp[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = tmp[0];
}

// A 3-D grid: every thread writes its coordinates.
extern "C" __global__ void grid3(unsigned *out)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned z = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned w = gridDim.x * blockDim.x, h = gridDim.y * blockDim.y;
    unsigned *o = out + 2 * ((z * h + y) * w + x);
    o[0] = x | y << 10 | z << 20;
    o[1] = threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16 | blockDim.z << 24;
}

// 64-bit atomics and a private array indexed at run time (scratch).
extern "C" __global__ void atomics_scratch(const unsigned long long *in,
                                           unsigned long long *acc, unsigned *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long v = in[i];
    atomicAdd(&acc[0], v);
    atomicMax(&acc[1], v);
    atomicMin(&acc[2], v);
    atomicOr(&acc[3], v);
    unsigned a[40];
    for (unsigned k = 0; k < 40; k++)
        a[k] = (unsigned)(v >> (k % 33)) + k;
    out[i] = a[(unsigned)v % 40] ^ a[(i * 7) % 40];
}
