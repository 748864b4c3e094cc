#!/bin/sh
# Compiles the ROCm (AMDHSA) fixtures: every OpenCL C source of
# tests/opencl/src/ and tests/rocm/src/ into code objects with clang-15 and
# the ROCm device libraries, and tests/rocm/src/*.hip with hipcc (device
# code only, taken out of the offload bundle). See README.md.
#
#   gen/vV/GPU/NAME.co   OpenCL C, code object version V, processor GPU
#   gen/hip/GPU/NAME.co  HIP (hipcc's default code object version)
#   gen/hip-bundle/      hipcc's offload bundles of src/hip_kernels.hip
#
# Needs (Debian 12): clang-15, rocm-device-libs (and hipcc for the HIP set).
# The code objects are checked in: the tests and CI need no compiler.
#
# ONLY="NAME ..." compiles only those OpenCL C sources (no HIP) and leaves
# the other code objects as they are (compiling is deterministic, so the
# result is what a full run writes).
set -e
cd "$(dirname "$0")"
LIBS=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode
LLVM=/usr/lib/llvm-15/bin
BUNDLER=$LLVM/clang-offload-bundler
# v4 (clang-15's default) and v5 on every processor; v2 and v3 on gfx900
# only (the ABI is the same per processor; this keeps the data small).
SETS="4:gfx803 4:gfx900 4:gfx906 5:gfx803 5:gfx900 5:gfx906 3:gfx900 2:gfx900"
[ -n "$ONLY" ] || [ "${GCN:-1}" = 0 ] || rm -rf gen
# compile_cl SRC OUT GPU V WAVE: one OpenCL C source into a code object
# (code object version V; WAVE 64 adds -mwavefrontsize64 on RDNA, where
# wave32 is the default).
compile_cl() {
    src=$1 out=$2 gpu=$3 v=$4 wave=$5
    # OpenCL C 1.2 unless the source asks for 2.0 in its first line
    # (`// std: CL2.0`: kernels that may run partial work-groups).
    std=CL1.2
    if head -n 1 "$src" | grep -q 'std: CL2.0'; then std=CL2.0; fi
    flags="-cl-std=$std -target amdgcn-amd-amdhsa -mcpu=$gpu -O2 -mcode-object-version=$v"
    # The device libraries' wave size (RDNA: wave32 unless asked for 64).
    wave64=on
    case $gpu in gfx10*) [ "$wave" = 64 ] && flags="$flags -mwavefrontsize64" || wave64=off ;; esac
    if ! grep -q 'printf(' "$src"; then
        clang-15 -x cl $flags -Xclang -finclude-default-header \
            --rocm-device-lib-path=$LIBS "$src" -o "$out"
        return
    fi
    # printf: the device libraries' opencl.bc defines a weak `printf`
    # stub (returns -1), which the driver links in before LLVM's printf
    # lowering (AMDGPUPrintfRuntimeBinding) runs, and that pass misses
    # format strings under opaque pointers. So: lower printf first, on
    # typed-pointer IR without the libraries, then link and compile.
    tmp=$(mktemp -d)
    clang-15 -x cl $flags -Xclang -finclude-default-header -nogpulib \
        -Xclang -no-opaque-pointers -Xclang -disable-llvm-passes -emit-llvm -c \
        "$src" -o "$tmp/a.bc"
    $LLVM/opt -enable-new-pm=0 -mtriple=amdgcn-amd-amdhsa -mcpu="$gpu" \
        -amdgpu-printf-runtime-binding "$tmp/a.bc" -o "$tmp/b.bc"
    abi=400
    if [ "$v" = 5 ]; then abi=500; fi
    # Back to opaque pointers (what the libraries are written in).
    $LLVM/opt -opaque-pointers "$tmp/b.bc" -o "$tmp/b2.bc"
    libs=""
    for lib in opencl ocml ockl oclc_daz_opt_off oclc_unsafe_math_off \
        oclc_finite_only_off oclc_correctly_rounded_sqrt_off "oclc_wavefrontsize64_$wave64" \
        "oclc_isa_version_${gpu#gfx}" "oclc_abi_version_$abi"; do
        libs="$libs $LIBS/$lib.bc"
    done
    # As the driver's -mlink-builtin-bitcode does: only what is used,
    # internalized.
    $LLVM/llvm-link "$tmp/b2.bc" --internalize --only-needed $libs -o "$tmp/c.bc"
    clang-15 -x ir $flags -nogpulib "$tmp/c.bc" -o "$out"
    rm -r "$tmp"
}
wanted() {
    [ -z "$ONLY" ] || echo " $ONLY " | grep -q " $1 "
}
for set in $SETS; do
    [ "${GCN:-1}" = 1 ] || break
    v=${set%%:*}
    gpu=${set#*:}
    mkdir -p "gen/v$v/$gpu"
    for src in ../opencl/src/*.cl src/*.cl; do
        [ -e "$src" ] || continue
        name=$(basename "$src" .cl)
        wanted "$name" || continue
        compile_cl "$src" "gen/v$v/$gpu/$name.co" "$gpu" "$v" 64
    done
done
for gpu in gfx906; do
    [ -z "$ONLY" ] && [ "${GCN:-1}" = 1 ] || break
    mkdir -p "gen/hip/$gpu"
    for src in src/*.hip; do
        [ -e "$src" ] || continue
        name=$(basename "$src" .hip)
        hipcc --offload-arch="$gpu" --cuda-device-only -O2 -c "$src" -o "gen/hip/$gpu/$name.bundle"
        $BUNDLER --unbundle --type=o --input="gen/hip/$gpu/$name.bundle" \
            --targets="hipv4-amdgcn-amd-amdhsa--$gpu" --output="gen/hip/$gpu/$name.co"
        rm "gen/hip/$gpu/$name.bundle"
    done
done
# HIP offload bundles as hipcc writes them, read by gcnrun and gcndisasm
# without clang-offload-bundler: --genco (the module hipModuleLoad takes),
# --cuda-device-only -c (clang-15's hipcc writes the same bytes), a
# two-target bundle and one whose target id has a feature (:xnack-).
if [ -z "$ONLY" ] && [ "${GCN:-1}" = 1 ]; then
    mkdir -p gen/hip-bundle
    src=src/hip_kernels.hip
    hipcc --genco --offload-arch=gfx906 -O2 "$src" -o gen/hip-bundle/hip_kernels.gfx906.hipfb
    hipcc --offload-arch=gfx906 --cuda-device-only -O2 -c "$src" -o gen/hip-bundle/hip_kernels.gfx906.o
    hipcc --genco --offload-arch=gfx900 --offload-arch=gfx906 -O2 "$src" \
        -o gen/hip-bundle/hip_kernels.gfx900-gfx906.hipfb
    hipcc --genco --offload-arch=gfx906:xnack- -O2 "$src" \
        -o gen/hip-bundle/hip_kernels.gfx906-xnack.hipfb
fi
# RDNA (GCN 1.5, RDNA 2) code objects, run by the emulator like the GCN
# sets: gen-rdna/GPU[-w64]/NAME.co, gfx1010 and gfx1030 in their default
# wave32 and gfx1030 in wave64 (-mwavefrontsize64), code object v4, and
# the HIP sources for gfx1030 (wave32) in gen-rdna/hip-gfx1030/. RDNA=0
# skips them; GCN=0 compiles only them.
if [ "${RDNA:-1}" = 1 ]; then
    [ -n "$ONLY" ] || rm -rf gen-rdna
    for set in gfx1010:32 gfx1030:32 gfx1030:64; do
        gpu=${set%%:*}
        wave=${set#*:}
        dir="gen-rdna/$gpu"
        if [ "$wave" = 64 ]; then dir="gen-rdna/$gpu-w64"; fi
        mkdir -p "$dir"
        for src in ../opencl/src/*.cl src/*.cl; do
            [ -e "$src" ] || continue
            name=$(basename "$src" .cl)
            wanted "$name" || continue
            compile_cl "$src" "$dir/$name.co" "$gpu" 4 "$wave"
        done
    done
    if [ -z "$ONLY" ]; then
        gpu=gfx1030
        mkdir -p "gen-rdna/hip-$gpu"
        for src in src/*.hip; do
            [ -e "$src" ] || continue
            name=$(basename "$src" .hip)
            hipcc --offload-arch="$gpu" --cuda-device-only -O2 -c "$src" -o "gen-rdna/hip-$gpu/$name.bundle"
            $BUNDLER --unbundle --type=o --input="gen-rdna/hip-$gpu/$name.bundle" \
                --targets="hipv4-amdgcn-amd-amdhsa--$gpu" --output="gen-rdna/hip-$gpu/$name.co"
            rm "gen-rdna/hip-$gpu/$name.bundle"
        done
    fi
fi
# Not a code object: what `clang -target amdgcn-- -c` writes (relocatable),
# which the tools must name (tests: gcnrun's file-kind messages).
[ -n "$ONLY" ] || [ "${GCN:-1}" = 0 ] || clang-14 -x cl -cl-std=CL1.2 -target amdgcn-- -mcpu=tahiti -O2 \
    -Xclang -finclude-default-header -fintegrated-as -c other/relocatable.cl \
    -o other/relocatable-tahiti.o
du -sh gen gen-rdna
