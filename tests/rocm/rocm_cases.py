"""The ROCm-only test cases (what tests/opencl/cases.py lacks): printf,
partial work-groups, and HIP kernels (HIP printf among them). Every case of tests/opencl/cases.json
runs on the code objects too; these are added to it.

Read by reference.py. A case's reference is pocl's (OpenCL C) or, where
pocl cannot run the kernel (HIP, partial work-groups), a host computation
given as `host`: a function from the input arrays to the outputs (and
`printf_text`: the text the kernel must print, for HIP's printf).
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "opencl"))
from cases import (F32, I32, U32, U64, buf, case, floats, out, rng,  # noqa: E402
                   zero)


def partial_ids(glob, loc):
    """What partial_ids writes for each work-item (partial last groups)."""
    g = list(glob) + [1] * (3 - len(glob))
    l_ = list(loc) + [1] * (3 - len(loc))
    out_ = np.zeros(4 * g[0] * g[1] * g[2], dtype=U32)
    ngroups = [-(-g[d] // l_[d]) for d in range(3)]
    for z in range(g[2]):
        for y in range(g[1]):
            for x in range(g[0]):
                p = (x, y, z)
                lid = [p[d] % l_[d] for d in range(3)]
                grp = [p[d] // l_[d] for d in range(3)]
                size = [min(l_[d], g[d] - grp[d] * l_[d]) for d in range(3)]
                i = 4 * ((z * g[1] + y) * g[0] + x)
                out_[i] = lid[0] | lid[1] << 8 | lid[2] << 16
                out_[i + 1] = size[0] | size[1] << 8 | size[2] << 16
                out_[i + 2] = l_[0] | l_[1] << 8 | l_[2] << 16
                out_[i + 3] = grp[0] | grp[1] << 8 | grp[2] << 16 | ngroups[0] << 24
    return out_


def build():
    cs = []
    r = rng(101)
    c = case("printf_formats", "printf.cl", "printf_formats", [64], [64],
             [buf(r.integers(-5000, 5000, 64, dtype=I32)), zero(I32, 64)], [out(1, I32)])
    c["printf"] = True
    cs.append(c)

    for name, glob, loc in [("partial_ids_1d", [100], [64]),
                            ("partial_ids_3d", [10, 7, 3], [4, 4, 2])]:
        n = 4 * int(np.prod(glob))
        c = case(name, "partial.cl", "partial_ids", glob, loc, [zero(U32, n)], [out(0, U32)])
        c["host"] = lambda ins, glob=glob, loc=loc: {0: partial_ids(glob, loc)}
        cs.append(c)
    r = rng(102)
    data = r.integers(0, 1 << 20, 300, dtype=U32)
    c = case("partial_sum", "partial.cl", "partial_sum", [300], [128],
             [buf(data), zero(U32, 3), {"kind": "local", "size": 128 * 4}], [out(1, U32)])
    c["host"] = lambda ins: {1: np.array([ins[0][k:k + 128].sum(dtype=U32)
                                          for k in range(0, 300, 128)], dtype=U32)}
    cs.append(c)

    def generic_spaces(n, local):
        o = np.zeros(2 * n, dtype=I32)
        for g in range(n):
            l_ = g % local
            priv = [g + i + 3 * i for i in range(8)]
            tmp = 10 * g + (5 if l_ % 2 == 1 else 0)   # bump(tmp + l - 1, 2, 5): [1] += 5
            o[2 * g] = priv[g % 8] + priv[(g + 3) % 8]
            o[2 * g + 1] = tmp + 7
        return o
    c = case("generic_spaces", "generic.cl", "generic_spaces", [256], [64],
             [zero(I32, 512), {"kind": "local", "size": 64 * 4}], [out(0, I32)])
    c["host"] = lambda ins: {0: generic_spaces(256, 64)}
    cs.append(c)

    # HIP: global sizes in work-items (grid × block), as for OpenCL.
    r = rng(103)
    x, y = floats(r, 1000, -10, 10), floats(r, 1000, -10, 10)
    c = case("hip_axpy", "hip_kernels.hip", "axpy", [1024], [256],
             [{"kind": "scalar", "dtype": F32, "values": [1.75]}, buf(x), buf(y),
              {"kind": "scalar", "dtype": I32, "values": [1000]}], [out(2, F32, 1)])
    # hipcc contracts a * x + y into one fma: the exact product plus y,
    # rounded once (the product of two floats is exact in a double).
    c["host"] = lambda ins: {2: (np.float64(np.float32(1.75)) * ins[1].astype(np.float64)
                                 + ins[2]).astype(F32)}
    cs.append(c)
    r = rng(104)
    data = r.integers(0, 1 << 20, 1024, dtype=U32)
    c = case("hip_block_sum", "hip_kernels.hip", "block_sum", [1024], [256],
             [buf(data), zero(U32, 4)], [out(1, U32)])
    c["dynamic_lds"] = 256 * 4
    c["host"] = lambda ins: {1: ins[0].reshape(4, 256).sum(axis=1, dtype=U32)}
    cs.append(c)

    def grid3(glob, loc):
        w, h, d = glob
        o = np.zeros(2 * w * h * d, dtype=U32)
        for z in range(d):
            for y in range(h):
                for x in range(w):
                    i = 2 * ((z * h + y) * w + x)
                    o[i] = x | y << 10 | z << 20
                    o[i + 1] = x % loc[0] | (y % loc[1]) << 8 | (z % loc[2]) << 16 | loc[2] << 24
        return o
    c = case("hip_grid3", "hip_kernels.hip", "grid3", [16, 6, 4], [8, 3, 2],
             [zero(U32, 2 * 16 * 6 * 4)], [out(0, U32)])
    c["host"] = lambda ins: {0: grid3([16, 6, 4], [8, 3, 2])}
    cs.append(c)

    r = rng(105)
    vals = r.integers(0, 1 << 62, 512, dtype=U64)

    def atomics_scratch(ins):
        v = ins[0]
        acc = np.array([v.sum(dtype=U64), v.max(), v.min(), np.bitwise_or.reduce(v)], dtype=U64)
        o = np.zeros(512, dtype=U32)
        for i in range(512):
            a = [(int(v[i]) >> (k % 33)) + k & 0xffffffff for k in range(40)]
            o[i] = a[int(v[i]) % (1 << 32) % 40] ^ a[(i * 7) % 40]
        return {1: acc, 2: o}
    c = case("hip_atomics_scratch", "hip_kernels.hip", "atomics_scratch", [512], [128],
             [buf(vals), buf(np.array([0, 0, (1 << 64) - 1, 0], dtype=U64)), zero(U32, 512)],
             [out(1, U64), out(2, U32)])
    c["host"] = atomics_scratch
    cs.append(c)

    # HIP printf (hostcall messages, served while the kernel runs): the
    # lines it must print, in any order, as C's printf formats them.
    name = "in device memory"
    c = case("hip_printf", "hip_printf.hip", "hip_printf", [192], [96],
             [zero(I32, 192), buf(np.frombuffer(name.encode() + b"\0", dtype=np.uint8))],
             [out(0, I32)])
    c["host"] = lambda ins: {0: np.arange(192, dtype=I32)}
    c["printf_text"] = hip_printf_text(192, 96, name)
    cs.append(c)
    c = case("hip_printf_3d", "hip_printf.hip", "hip_printf_3d", [16, 6, 4], [8, 3, 2],
             [zero(U32, 16 * 6 * 4)], [out(0, U32)])
    c["host"] = lambda ins: {0: np.array([x | y << 8 | z << 16 for z in range(4) for y in range(6)
                                          for x in range(16)], dtype=U32)}
    c["printf_text"] = "".join("(%u,%u,%u) in block (%u,%u,%u)\n" % (x, y, z, x // 8, y // 3, z // 2)
                               for z in range(4) for y in range(6) for x in range(16))
    cs.append(c)
    return cs


def hip_printf_text(n, local, name):
    """What the hip_printf kernel prints over n work-items in blocks of
    `local` (the lines in the order of the work-items; the device prints
    them in any order)."""
    lines = []
    for i in range(n):
        lines.append("thread %d of block %u: %x %c\n"
                     % (i % local, i // local, i * 0x1011 & 0xffffffff, chr(ord("a") + i % 26)))
        if i % 3 == 0:
            lines.append("%u: %d %d %s and %s\n" % (i, i * -100000000000, i << 40, "literal", name))
        if i % 7 == 2:
            lines.append("%u: %f %e %g %.3f 0x%x\n"
                         % (i, i * 0.25, i * 1e10, i * 0.125, -1.5 * i, 0x1000 * i + 0xbeef))
    return "".join(lines)
