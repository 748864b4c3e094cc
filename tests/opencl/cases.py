"""The test cases: which kernel, how it is dispatched, its deterministic
inputs and which buffers are outputs (with their tolerance in ULP).

Read by reference.py, which runs every case under pocl and writes
cases.json and data/. Tolerances for libclc math are twice the OpenCL 1.2
bound (section 7.4): the reference (pocl) and the GPU code (libclc) may
each be that far from the exact value.
"""

import numpy as np

U8, I8, U16, I16 = np.uint8, np.int8, np.uint16, np.int16
U32, I32, U64, I64 = np.uint32, np.int32, np.uint64, np.int64
F32, F64 = np.float32, np.float64
TYPE_NAMES = {U8: "u8", I8: "i8", U16: "u16", I16: "i16", U32: "u32", I32: "i32",
              U64: "u64", I64: "i64", F32: "f32", F64: "f64"}


def buf(array):
    return {"kind": "buffer", "data": np.ascontiguousarray(array)}


def zero(dtype, count):
    return {"kind": "zero", "dtype": dtype, "count": count}


def local(size):
    return {"kind": "local", "size": size}


def scalar(dtype, *values):
    return {"kind": "scalar", "dtype": dtype, "values": list(values)}


def out(arg, dtype, ulp=0, any_zero_sign=False):
    return {"arg": arg, "dtype": dtype, "ulp": ulp, "any_zero_sign": any_zero_sign}


def case(name, source, kernel, glob, loc, args, outputs, offset=(0, 0, 0)):
    dims = len(glob)
    pad = lambda v, fill: list(v) + [fill] * (3 - len(v))
    return {"name": name, "source": f"src/{source}", "kernel": kernel,
            "global": pad(glob, 1), "local": pad(loc, 1), "offset": list(offset),
            "dims": dims, "args": args, "outputs": outputs}


def rng(seed):
    return np.random.default_rng(seed)


def nonzero(a, fill=1):
    a = a.copy()
    a[a == 0] = fill
    return a


def floats(r, n, lo, hi, dtype=F32):
    return r.uniform(lo, hi, n).astype(dtype)


def build():
    cs = []
    n = 256
    r = rng(1)
    cs.append(case("int_arith", "int_ops.cl", "int_arith", [n], [64],
                   [buf(r.integers(-30000, 30000, n, dtype=I32)),
                    buf(nonzero(r.integers(-300, 300, n, dtype=I32), 7)), zero(I32, 10 * n)],
                   [out(2, I32)]))
    r = rng(2)
    cs.append(case("uint_arith", "int_ops.cl", "uint_arith", [n], [64],
                   [buf(r.integers(0, 2**32, n, dtype=U32)),
                    buf(nonzero(np.where(np.arange(n) % 2 == 0, r.integers(0, 2**32, n),
                                         r.integers(0, 1000, n)).astype(U32), 3)),
                    zero(U32, 10 * n)],
                   [out(2, U32)]))
    r = rng(3)
    cs.append(case("long_arith", "int_ops.cl", "long_arith", [n], [64],
                   [buf(r.integers(-2**40, 2**40, n, dtype=I64)),
                    buf(nonzero(r.integers(-2**20, 2**20, n, dtype=I64), 5)), zero(I64, 9 * n)],
                   [out(2, I64)]))
    r = rng(4)
    cs.append(case("ulong_arith", "int_ops.cl", "ulong_arith", [n], [64],
                   [buf(r.integers(0, 2**64, n, dtype=U64, endpoint=False)),
                    buf(nonzero(np.where(np.arange(n) % 2 == 0, r.integers(0, 2**63, n),
                                         r.integers(0, 100000, n)).astype(U64), 9)),
                    zero(U64, 8 * n)],
                   [out(2, U64)]))
    r = rng(5)
    a8 = r.integers(-127, 128, n, dtype=I8)
    b8 = nonzero(r.integers(-128, 128, n).astype(I8), 3)
    cs.append(case("small_int_arith", "int_ops.cl", "small_int_arith", [n], [64],
                   [buf(a8), buf(b8), buf(r.integers(-32768, 32768, n, dtype=I16)),
                    buf(nonzero(r.integers(-32768, 32768, n).astype(I16), 11)),
                    buf(r.integers(0, 256, n, dtype=U8)),
                    zero(I8, 4 * n), zero(I16, 4 * n), zero(U8, 2 * n)],
                   [out(5, I8), out(6, I16), out(7, U8)]))

    r = rng(6)
    cs.append(case("float_arith", "float_ops.cl", "float_arith", [n], [64],
                   [buf(floats(r, n, -100, 100)), buf(floats(r, n, -100, 100)),
                    buf(floats(r, n, -100, 100)), zero(F32, 6 * n)],
                   [out(3, F32)]))
    r = rng(7)
    b = floats(r, n, 0.01, 1000) * np.where(r.integers(0, 2, n) == 0, -1, 1).astype(F32)
    cs.append(case("float_div", "float_ops.cl", "float_div", [n], [64],
                   [buf(floats(r, n, -1e4, 1e4)), buf(b), zero(F32, n)],
                   [out(2, F32, ulp=6)]))
    r = rng(8)
    a = floats(r, n, -50, 50)
    a[:32] = np.arange(-8, 8, 0.5, dtype=F32)  # halfway cases for round/rint
    cs.append(case("float_round", "float_ops.cl", "float_round", [n], [64],
                   [buf(a), buf(floats(r, n, -50, 50)), zero(F32, 8 * n)],
                   # libclc's round() on amdgcn is trunc(x) + (0 or copysign(1, x)),
                   # so round(-0.3) is -0.0 + 0.0 = +0.0 on the GPU; pocl gives -0.0.
                   [out(2, F32, any_zero_sign=True)]))
    r = rng(9)
    cs.append(case("double_arith", "double_ops.cl", "double_arith", [n], [64],
                   [buf(floats(r, n, -1e3, 1e3, F64)),
                    buf(floats(r, n, 0.5, 1e3, F64) * np.where(r.integers(0, 2, n), 1, -1)),
                    zero(F64, 8 * n)],
                   [out(2, F64)]))
    r = rng(10)
    cs.append(case("double_sqrt", "double_ops.cl", "double_sqrt", [n], [64],
                   [buf(floats(r, n, 0, 1e6, F64)), zero(F64, n)],
                   [out(1, F64, ulp=2)]))

    r = rng(11)
    cs.append(case("convert_int_float", "convert.cl", "convert_int_float", [n], [64],
                   [buf(r.integers(-2**31, 2**31, n, dtype=I32)),
                    buf(floats(r, n, -2e9, 2e9)),
                    zero(F32, 2 * n), zero(I32, 3 * n), zero(U32, n)],
                   [out(2, F32), out(3, I32), out(4, U32)]))
    r = rng(12)
    cs.append(case("convert_fp64", "convert.cl", "convert_fp64", [n], [64],
                   [buf((r.standard_normal(n) * 10.0 ** r.integers(-20, 20, n)).astype(F32)),
                    buf(floats(r, n, -1e6, 1e6, F64)),
                    zero(F64, 2 * n), zero(F32, n), zero(I64, n)],
                   [out(2, F64), out(3, F32), out(4, I64)]))
    r = rng(13)
    cs.append(case("convert_sat", "convert.cl", "convert_sat", [n], [64],
                   [buf(r.integers(-100000, 100000, n, dtype=I32)), buf(floats(r, n, -50, 300)),
                    zero(U8, 2 * n), zero(I8, n), zero(U16, n), zero(I16, n)],
                   [out(2, U8), out(3, I8), out(4, U16), out(5, I16)]))

    r = rng(14)
    cs.append(case("math_sqrt", "math.cl", "math_sqrt", [n], [64],
                   [buf(floats(r, n, 0.001, 1000)), zero(F32, n), zero(F32, n)],
                   [out(1, F32, ulp=6), out(2, F32, ulp=4)]))
    r = rng(15)
    cs.append(case("math_exp_log", "math.cl", "math_exp_log", [n], [64],
                   [buf(floats(r, n, -10, 10)), zero(F32, n), zero(F32, n), zero(F32, n),
                    zero(F32, n)],
                   [out(1, F32, ulp=6), out(2, F32, ulp=6), out(3, F32, ulp=6),
                    out(4, F32, ulp=6)]))
    r = rng(16)
    cs.append(case("math_trig", "math.cl", "math_trig", [n], [64],
                   [buf(floats(r, n, -10, 10)), zero(F32, n), zero(F32, n), zero(F32, n)],
                   [out(1, F32, ulp=8), out(2, F32, ulp=8), out(3, F32, ulp=10)]))
    r = rng(17)
    cs.append(case("math_pow", "math.cl", "math_pow", [n], [64],
                   [buf(floats(r, n, 0.01, 10)), buf(floats(r, n, -5, 5)), zero(F32, n)],
                   [out(2, F32, ulp=32)]))
    r = rng(18)
    cs.append(case("math_hyp_atan2", "math.cl", "math_hyp_atan2", [n], [64],
                   [buf(floats(r, n, -5, 5)), buf(floats(r, n, -5, 5)), zero(F32, n),
                    zero(F32, n)],
                   [out(2, F32, ulp=10), out(3, F32, ulp=12)]))
    r = rng(19)
    cs.append(case("math_double", "math.cl", "math_double", [n], [64],
                   [buf(floats(r, n, -20, 20, F64)), zero(F64, n), zero(F64, n)],
                   [out(1, F64, ulp=6), out(2, F64, ulp=8)]))

    r = rng(20)
    cs.append(case("vec_float4", "vectors.cl", "vec_float4", [n], [64],
                   [buf(floats(r, 4 * n, -100, 100)), buf(floats(r, 4 * n, -100, 100)),
                    zero(F32, 8 * n)],
                   [out(2, F32)]))
    r = rng(21)
    cs.append(case("vec_int2", "vectors.cl", "vec_int2", [n], [64],
                   [buf(r.integers(-20000, 20000, 2 * n, dtype=I32)), scalar(I32, 3, -7),
                    zero(I32, 4 * n)],
                   [out(2, I32)]))
    r = rng(22)
    cs.append(case("vec_float3", "vectors.cl", "vec_float3", [n], [64],
                   [buf(floats(r, 3 * n, -100, 100)), scalar(F32, 1.5, -0.25, 3.0, 0.0),
                    zero(F32, 3 * n)],
                   [out(2, F32)]))

    r = rng(23)
    cs.append(case("reduce_sum", "local_mem.cl", "reduce_sum", [1024], [64],
                   [buf(r.integers(-100000, 100000, 1024, dtype=I32)), zero(I32, 16),
                    local(64 * 4)],
                   [out(1, I32)]))
    r = rng(24)
    cs.append(case("prefix_scan", "local_mem.cl", "prefix_scan", [512], [128],
                   [buf(r.integers(-1000, 1000, 512, dtype=I32)), zero(I32, 512)],
                   [out(1, I32)]))
    r = rng(25)
    cs.append(case("transpose", "local_mem.cl", "transpose", [64, 48], [16, 16],
                   [buf(floats(r, 64 * 48, -1, 1)), zero(F32, 64 * 48), scalar(I32, 64),
                    scalar(I32, 48)],
                   [out(1, F32)]))

    r = rng(26)
    cs.append(case("atomic_hist", "atomics.cl", "atomic_hist", [4096], [64],
                   [buf(r.integers(0, 2**32, 4096, dtype=U32)), zero(I32, 16)],
                   [out(1, I32)]))
    r = rng(27)
    cs.append(case("atomic_minmax", "atomics.cl", "atomic_minmax", [1000], [100],
                   [buf(r.integers(-2**31, 2**31, 1000, dtype=I32)),
                    buf(np.array([2**31 - 1, -2**31, 0, 0, 0, -1, 0x12345678, -1], dtype=I32))],
                   [out(1, I32)]))
    r = rng(28)
    cs.append(case("atomic_cas_add", "atomics.cl", "atomic_cas_add", [256], [64],
                   [buf(r.integers(-1000, 1000, 256, dtype=I32)), zero(I32, 1)],
                   [out(1, I32)]))
    r = rng(29)
    cs.append(case("local_hist", "atomics.cl", "local_hist", [512], [128],
                   [buf(r.integers(0, 2**20, 512, dtype=U32)), zero(U32, 4 * 16)],
                   [out(1, U32)]))

    r = rng(30)
    cs.append(case("collatz", "control.cl", "collatz", [256], [64],
                   [buf(r.integers(1, 100000, 256, dtype=U32)), zero(U32, 256)],
                   [out(1, U32)]))
    cs.append(case("mandelbrot", "control.cl", "mandelbrot", [64, 32], [8, 8],
                   [zero(I32, 64 * 32), scalar(F32, -2.0), scalar(F32, -1.0),
                    scalar(F32, 0.0625), scalar(I32, 64)],
                   [out(0, I32)]))
    r = rng(31)
    cs.append(case("branches", "control.cl", "branches", [256], [64],
                   [buf(r.integers(-1000, 1000, 256, dtype=I32)), zero(I32, 256)],
                   [out(1, I32)]))
    r = rng(32)
    cs.append(case("ptr_arith", "control.cl", "ptr_arith", [256], [64],
                   [buf(r.integers(0, 1024, 256, dtype=I64)),
                    buf(r.integers(-10**6, 10**6, 1024, dtype=I32)), zero(I64, 512)],
                   [out(2, I64)]))
    r = rng(33)
    cs.append(case("ptr_chase", "control.cl", "ptr_chase", [256], [64],
                   [buf(r.permutation(256).astype(I32)), zero(I32, 256), scalar(I32, 7)],
                   [out(1, I32)]))
    r = rng(34)
    cs.append(case("private_array", "private.cl", "private_array", [256], [64],
                   [buf(r.integers(-10000, 10000, 256, dtype=I32)), zero(I32, 256)],
                   [out(1, I32)]))

    cs.append(case("grid2d", "grids.cl", "grid2d", [32, 12], [8, 4],
                   [zero(I32, 8 * 32 * 12)], [out(0, I32)]))
    cs.append(case("grid3d", "grids.cl", "grid3d", [8, 6, 4], [4, 3, 2],
                   [zero(I32, 4 * 8 * 6 * 4)], [out(0, I32)]))
    cs.append(case("global_offset", "grids.cl", "global_offset", [16, 8], [8, 4],
                   [zero(I32, 4 * 16 * 8)], [out(0, I32)], offset=(5, 3, 0)))
    r = rng(35)
    cs.append(case("partial_wave_100", "grids.cl", "partial_wave", [700], [100],
                   [buf(floats(r, 700, -10, 10)), zero(F32, 700), scalar(U32, 650)],
                   [out(1, F32)]))
    cs.append(case("partial_wave_48", "grids.cl", "partial_wave", [480], [48],
                   [buf(floats(r, 480, -10, 10)), zero(F32, 480), scalar(U32, 470)],
                   [out(1, F32)]))
    r = rng(36)
    cs.append(case("many_groups", "grids.cl", "many_groups", [16384], [64],
                   [buf(r.integers(0, 2**32, 16384, dtype=U32)),
                    buf(r.integers(0, 2**32, 16384, dtype=U32)), zero(U32, 16384)],
                   [out(2, U32)]))

    r = rng(37)
    cs.append(case("crc32_nibble", "constants.cl", "crc32_nibble", [256], [64],
                   [buf(r.integers(0, 2**32, 256, dtype=U32)), zero(U32, 256)],
                   [out(1, U32)]))
    r = rng(38)
    cs.append(case("blur5", "constants.cl", "blur5", [256], [64],
                   [buf(floats(r, 256, -1, 1)), zero(F32, 256), scalar(I32, 256)],
                   [out(1, F32)]))
    r = rng(39)
    cs.append(case("poly_const", "constants.cl", "poly_const", [256], [64],
                   [buf(np.array([1.0, -0.5, 0.25, 0.125, -0.0625, 0.03125], dtype=F32)),
                    scalar(I32, 5), buf(floats(r, 256, -2, 2)), zero(F32, 256)],
                   [out(3, F32)]))

    cs.append(case("scalar_args", "scalar_args.cl", "scalar_args", [4], [4],
                   [zero(I64, 4 * 20), scalar(I8, -5), scalar(I32, -123456),
                    scalar(I16, -1234), scalar(U32, 0xdeadbeef), scalar(I64, -0x123456789ab),
                    scalar(F32, 3.25), scalar(F64, -2.5e10), scalar(I32, 1, -2, 3, -4),
                    scalar(U8, 200), scalar(U64, 0xfedcba9876543210),
                    scalar(F32, 0.5, -1.75, 8.0, 0.0), scalar(U16, 65000),
                    scalar(F32, 1.0e-3)],
                   [out(0, I64)]))

    # vload_store.cl: vloadN/vstoreN per element type (33 elements per
    # work-item, then the unaligned vload4/vstore4 region)
    n = 128
    for k, (name, dtype, gen) in enumerate([
            ("char", I8, lambda r, m: r.integers(-40, 41, m, dtype=I8)),
            ("uchar", U8, lambda r, m: r.integers(0, 256, m, dtype=U8)),
            ("short", I16, lambda r, m: r.integers(-10000, 10001, m, dtype=I16)),
            ("int", I32, lambda r, m: r.integers(-2**28, 2**28, m, dtype=I32)),
            ("float", F32, lambda r, m: floats(r, m, -1000, 1000)),
            ("long", I64, lambda r, m: r.integers(-2**60, 2**60, m, dtype=I64)),
            ("double", F64, lambda r, m: floats(r, m, -1e6, 1e6, F64))]):
        r = rng(100 + k)
        cs.append(case(f"vls_{name}", "vload_store.cl", f"vls_{name}", [n], [64],
                       [buf(gen(r, 36 * n + 5)), zero(dtype, 38 * n + 6)], [out(1, dtype)]))
    r = rng(107)
    cs.append(case("vload_constant", "vload_store.cl", "vload_constant", [64], [32],
                   [buf(floats(r, 32, -10, 10)), buf(r.integers(-1000, 1000, 16, dtype=I16)),
                    zero(F32, 64)],
                   [out(2, F32)]))
    r = rng(108)
    cs.append(case("vls_local", "vload_store.cl", "vls_local", [256], [64],
                   [buf(r.integers(-2**29, 2**29, 4 * 256, dtype=I32)), zero(I32, 4 * 256),
                    buf(r.integers(-32768, 32768, 3 * 256, dtype=I16)), zero(I16, 3 * 256)],
                   [out(1, I32), out(3, I16)]))
    r = rng(109)
    cs.append(case("vls_local_arg", "vload_store.cl", "vls_local_arg", [128], [32],
                   [buf(floats(r, 2 * 128, -1e3, 1e3, F64)), zero(F64, 2 * 128),
                    local(32 * 16)],
                   [out(1, F64)]))
    r = rng(110)
    cs.append(case("vls_private", "vload_store.cl", "vls_private", [128], [64],
                   [buf(r.integers(-2**24, 2**24, 4 * 128, dtype=I32)), zero(I32, 4 * 128)],
                   [out(1, I32)]))
    r = rng(111)
    # half inputs and float inputs of magnitude 2^-10 .. 6e4: no half
    # denormals (also after the halving), some float inputs overflow half
    mag = lambda m: np.exp2(r.uniform(-10, 16, m)) * np.where(r.integers(0, 2, m), 1, -1)
    halves = mag(1040).astype(np.float16)
    cs.append(case("half_conv", "vload_store.cl", "half_conv", [256], [64],
                   [buf(halves), buf(mag(4 * 256).astype(F32)), zero(U16, 2560),
                    zero(F32, 4 * 256)],
                   [out(2, U16), out(3, F32)]))

    # scratch.cl: private arrays in scratch
    r = rng(112)
    cs.append(case("scratch_bytes", "scratch.cl", "scratch_bytes", [256], [64],
                   [buf(r.integers(0, 256, 256, dtype=U8)), zero(U8, 2 * 256)], [out(1, U8)]))
    r = rng(113)
    cs.append(case("scratch_long", "scratch.cl", "scratch_long", [128], [64],
                   [buf(r.integers(-2**40, 2**40, 128, dtype=I64)), zero(I64, 2 * 128)],
                   [out(1, I64)]))
    r = rng(114)
    cs.append(case("scratch_struct", "scratch.cl", "scratch_struct", [256], [64],
                   [buf(r.integers(-2**20, 2**20, 256, dtype=I32)), zero(F32, 256)],
                   [out(1, F32)]))

    # calls.cl: noinline functions
    r = rng(115)
    cs.append(case("call_scalar", "calls.cl", "call_scalar", [256], [64],
                   [buf(r.integers(-2**16, 2**16, 256, dtype=I32)), zero(I32, 2 * 256)],
                   [out(1, I32)]))
    r = rng(116)
    cs.append(case("call_float", "calls.cl", "call_float", [128], [64],
                   [buf(floats(r, 128, -100, 100)), zero(F32, 128)], [out(1, F32)]))
    r = rng(117)
    cs.append(case("call_struct", "calls.cl", "call_struct", [128], [64],
                   [buf(r.integers(-2**16, 2**16, 128, dtype=I32)), zero(I64, 128),
                    zero(F32, 4 * 128)],
                   [out(1, I64), out(2, F32)]))
    r = rng(118)
    cs.append(case("call_pointers", "calls.cl", "call_pointers", [256], [64],
                   [buf(r.integers(-2**16, 2**16, 256, dtype=I32)), zero(I32, 256)],
                   [out(1, I32)]))
    r = rng(119)
    cs.append(case("call_big", "calls.cl", "call_big", [256], [64],   # global size 256: in[.. & 255]
                   [buf(r.integers(-2**20, 2**20, 256, dtype=I32)), zero(I32, 2 * 256)],
                   [out(1, I32)]))
    r = rng(120)
    cs.append(case("call_heavy", "calls.cl", "call_heavy", [128], [64],
                   [buf(floats(r, 16 * 8, -10, 10)), zero(F32, 128)], [out(1, F32)]))

    # atomics2.cl: 32- and 64-bit atomics, results unused and used
    r = rng(121)
    n = 320
    cs.append(case("atomics_global_unused", "atomics2.cl", "atomics_global_unused", [n], [64],
                   [buf(r.integers(-2**31, 2**31, n, dtype=I32)),
                    buf(np.array([0, 0, 2**31 - 1, -2**31, -1, 0, 0x2468ace, 0, 1000, -1, 0,
                                  0, 0], dtype=I32))],
                   [out(1, I32)]))
    r = rng(122)
    n = 256
    cs.append(case("atomics_global_used", "atomics2.cl", "atomics_global_used", [n], [64],
                   [buf(r.integers(-2**28, 2**28, n, dtype=I32)),
                    buf(r.integers(-2**31, 2**31, n, dtype=I32)),
                    buf(np.array([0, 0, n, 0, 0], dtype=I32)),
                    buf(np.concatenate([r.integers(0, 2**32, 24), [0]]).astype(U32)),
                    zero(I32, 2 * n)],
                   [out(1, I32), out(2, I32), out(3, U32), out(4, I32)]))
    r = rng(123)
    cs.append(case("atomics_local", "atomics2.cl", "atomics_local", [256], [64],
                   [buf(r.integers(-2**28, 2**28, 256, dtype=I32)), zero(I32, 256 + 4 * 16)],
                   [out(1, I32)]))
    r = rng(124)
    cs.append(case("atomics64_global", "atomics2.cl", "atomics64_global", [n], [64],
                   [buf(r.integers(-2**58, 2**58, n, dtype=I64)),
                    buf(np.array([0, 0, 2**63 - 1, -2**63, -1, 0, 0x123456789abcdef, 0, 1000,
                                  -1, 0, 0, 0, 0], dtype=I64)),
                    buf(r.integers(-2**63, 2**63, n, dtype=I64)),
                    buf(np.concatenate([r.integers(0, 2**64, 4, dtype=U64), np.zeros(5, U64)])),
                    zero(I64, 2 * n)],
                   [out(1, I64), out(2, I64), out(3, U64), out(4, I64)]))
    r = rng(125)
    cs.append(case("atomics64_local", "atomics2.cl", "atomics64_local", [128], [64],
                   [buf(r.integers(-2**58, 2**58, 128, dtype=I64)), zero(I64, 128 + 2 * 14)],
                   [out(1, I64)]))

    # bits.cl: byte swaps, rotates, clz/popcount, bit fields
    r = rng(126)
    u32 = r.integers(0, 2**32, n, dtype=U32)
    u64 = r.integers(0, 2**64, n, dtype=U64, endpoint=False)
    u32[:4] = [0, 0xffffffff, 0x80000000, 1]
    u64[:4] = [0, 2**64 - 1, 2**63, 1]
    cs.append(case("bit_swap", "bits.cl", "bit_swap", [n], [64],
                   [buf(u32), buf(u64), zero(U32, 4 * n), zero(U64, 2 * n)],
                   [out(2, U32), out(3, U64)]))
    cs.append(case("bit_count", "bits.cl", "bit_count", [n], [64],
                   [buf(u32), buf(u64), zero(I32, 8 * n)], [out(2, I32)]))
    cs.append(case("bit_fields", "bits.cl", "bit_fields", [n], [64],
                   [buf(u32), zero(U32, 6 * n)], [out(1, U32)]))

    # vec3.cl: float3/int3 (pointers: 16-byte elements, padding random)
    r = rng(127)
    n = 128
    cs.append(case("vec3_ptr", "vec3.cl", "vec3_ptr", [n], [64],
                   [buf(floats(r, 4 * n, -100, 100)),
                    buf(r.integers(-2**14, 2**14, 4 * n, dtype=I32)),
                    zero(F32, 4 * n), zero(I32, 8 * n)],
                   [out(2, F32), out(3, I32)]))
    r = rng(128)
    cs.append(case("vec3_vload", "vec3.cl", "vec3_vload", [n], [32],
                   [buf(floats(r, 3 * n + 3, -100, 100)),
                    buf(r.integers(-2**30, 2**30, 3 * n, dtype=I32)),
                    zero(F32, 3 * n), zero(I32, 4 * n), scalar(F32, 1.5, -0.25, 3.0, 0.0)],
                   [out(2, F32), out(3, I32)]))
    r = rng(129)
    # struct particle: float3 pos, int3 cell, float w (48 bytes with padding)
    p = np.zeros((n, 12), dtype=U32)
    p[:, 0:4] = floats(r, 4 * n, -100, 100).view(U32).reshape(n, 4)
    p[:, 4:8] = r.integers(-2**20, 2**20, 4 * n, dtype=I32).view(U32).reshape(n, 4)
    p[:, 8] = floats(r, n, -2, 2).view(U32)
    p[:, 9:12] = r.integers(0, 2**32, 3 * n, dtype=U32).reshape(n, 3)
    cs.append(case("vec3_local", "vec3.cl", "vec3_local", [n], [32],
                   [buf(p.reshape(-1)), zero(U32, 12 * n)], [out(1, U32)]))
    # hw_semantics.cl: what compiled code does that the hardware runs.
    cs.append(case("any_dim_ids", "hw_semantics.cl", "any_dim_ids", [128], [64],
                   [zero(U32, 128), scalar(U32, 3)], [out(0, U32)]))
    cs.append(case("scalars_tail", "hw_semantics.cl", "scalars_tail", [64], [64],
                   [zero(I32, 64), scalar(I32, 7), scalar(I32, -5), scalar(I32, 1000)],
                   [out(0, I32)]))
    n = 64
    r = rng(70)
    halves = r.uniform(-100, 100, 4 * n - 1).astype(np.float16).view(U16)
    cs.append(case("half3_tail", "hw_semantics.cl", "half3_tail", [n], [64],
                   [buf(halves), zero(F32, 3 * n)], [out(1, F32)]))
    r = rng(71)
    cs.append(case("lds_vec8_unaligned", "hw_semantics.cl", "lds_vec8_unaligned", [128], [64],
                   [buf(r.integers(-30000, 30000, 8 * 128, dtype=I16)), zero(I16, 8 * 128),
                    local(2 * (8 * 64 + 8))], [out(1, I16)]))
    r = rng(72)
    cs.append(case("lds_vec16_unaligned", "hw_semantics.cl", "lds_vec16_unaligned", [128], [64],
                   [buf(r.integers(-128, 128, 16 * 128, dtype=I8)), zero(I8, 16 * 128),
                    local(16 * 64 + 16)], [out(1, I8)]))
    r = rng(73)
    cs.append(case("lds_half3_tail", "hw_semantics.cl", "lds_half3_tail", [4], [1],
                   [buf(floats(r, 12, -50, 50)), zero(I16, 28)], [out(1, I16)]))
    return cs
