#!/bin/sh
# Remakes the code-object fixtures of tests/rocm.rs with clang-15 and the ROCm
# device libraries (Debian/Ubuntu: clang-15, rocm-device-libs). The tests use
# the checked-in outputs and need no compiler.
set -eu
cd "$(dirname "$0")"
LIBS=${ROCM_DEVICE_LIBS:-/usr/lib/x86_64-linux-gnu/amdgcn/bitcode}
cl() { # OUT CPU VERSION SOURCE
  clang-15 -x cl -cl-std=CL2.0 -cl-kernel-arg-info -target amdgcn-amd-amdhsa -mcpu="$2" \
    -mcode-object-version="$3" --rocm-device-lib-path="$LIBS" -O2 "$4" -o "$1"
}
cl kernels-gfx803-v2.co gfx803 2 kernels.cl
cl kernels-gfx900-v2.co gfx900 2 kernels.cl
cl kernels-gfx900-v3.co gfx900 3 kernels.cl
cl kernels-gfx900-v4.co gfx900 4 kernels.cl
cl kernels-gfx900-v5.co gfx900 5 kernels.cl
cl kernels-gfx906-v4.co gfx906 4 kernels.cl
cl kernels-gfx803-v5.co gfx803 5 kernels.cl
cl globals-gfx900-v4.co gfx900 4 globals.cl
cl globals-bss-gfx900-v4.co gfx900 4 globals-bss.cl
cl globals-bss-gfx900-v2.co gfx900 2 globals-bss.cl
cl kernels-gfx701-v4.co gfx701 4 kernels.cl
hip() { # OUT CPU VERSION SOURCE: a HIP device-only code object, unbundled
  clang-15 -x hip --cuda-device-only --no-gpu-bundle-output --offload-arch="$2" \
    -mcode-object-version="$3" -nogpulib -nogpuinc -O2 "$4" -o "$1"
}
hip hip-axpy-gfx906-v4.co gfx906 4 axpy.hip
hip hip-axpy-gfx900-v5.co gfx900 5 axpy.hip
