#!/usr/bin/env python3
"""Regenerates gen/GPU.s from typed.cl for tahiti, bonaire, tonga and gfx900
with the OpenCL fixtures' pipeline (../opencl/compile.py: clang-14 + libclc,
llvm-link, opt, llc-14 for amdgcn--, then llvm2clrx.py)."""

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "opencl"))
import compile as pipeline  # noqa: E402
import llvm2clrx  # noqa: E402

KERNELS = ["convert", "tconvert", "count"]

with tempfile.TemporaryDirectory() as tmp:
    for gpu, name in pipeline.GPUS.items():
        ll, s = pipeline.compile_one(os.path.join(HERE, "typed.cl"), gpu, KERNELS, tmp)
        text, done = llvm2clrx.convert(name, ll, s)
        assert sorted(done) == sorted(KERNELS), done
        with open(os.path.join(HERE, "gen", gpu + ".s"), "w") as f:
            f.write(text)
        print(gpu, ", ".join(done))
