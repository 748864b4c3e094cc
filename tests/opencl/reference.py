#!/usr/bin/python3
"""Runs every case of cases.py under pocl (the CPU OpenCL implementation,
through pyopencl: the system python3 with python3-pyopencl) and writes
the inputs and reference outputs to data/ and the case list to
cases.json (the layout is described in README.md).

The GPUs each case lists are those compile.py generated the kernel for
(gen/GPU/SOURCE.s holds `.kernel KERNEL`).
"""

import json
import os
import re
import shutil
import sys

import numpy as np
import pyopencl as cl

import cases as C

HERE = os.path.dirname(os.path.abspath(__file__))
GPUS = ["tahiti", "bonaire", "tonga", "gfx900"]


def hexbits(dtype, v):
    if dtype == C.F32:
        return "0x%08x" % np.array([v], dtype=np.float32).view(np.uint32)[0]
    if dtype == C.F64:
        return "0x%016x" % np.array([v], dtype=np.float64).view(np.uint64)[0]
    return int(v)


def gpus_for(source, kernel):
    stem = os.path.basename(source)[:-3]
    found = []
    for gpu in GPUS:
        path = os.path.join(HERE, "gen", gpu, stem + ".s")
        if os.path.exists(path):
            with open(path) as f:
                if re.search(rf"^\.kernel {kernel}$", f.read(), re.M):
                    found.append(gpu)
    return found


def main():
    ctx = cl.Context(devices=[cl.get_platforms()[0].get_devices()[0]])
    queue = cl.CommandQueue(ctx)
    print("reference device:", ctx.devices[0].name, "/", ctx.devices[0].platform.version)
    data_dir = os.path.join(HERE, "data")
    shutil.rmtree(data_dir, ignore_errors=True)
    os.makedirs(data_dir)
    programs = {}
    out_cases = []
    for c in C.build():
        if c["source"] not in programs:
            with open(os.path.join(HERE, c["source"])) as f:
                programs[c["source"]] = cl.Program(ctx, f.read()).build("-cl-std=CL1.2")
        kernel = getattr(programs[c["source"]], c["kernel"])
        bufs, json_args = {}, []
        for i, a in enumerate(c["args"]):
            if a["kind"] == "buffer":
                data = a["data"]
                path = f"data/{c['name']}.arg{i}.bin"
                with open(os.path.join(HERE, path), "wb") as f:
                    f.write(data.tobytes())
                bufs[i] = (cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                                     hostbuf=data), data.dtype, data.size)
                kernel.set_arg(i, bufs[i][0])
                json_args.append({"kind": "buffer", "file": path})
            elif a["kind"] == "zero":
                data = np.zeros(a["count"], dtype=a["dtype"])
                bufs[i] = (cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                                     hostbuf=data), data.dtype, data.size)
                kernel.set_arg(i, bufs[i][0])
                json_args.append({"kind": "zero", "size": data.nbytes})
            elif a["kind"] == "local":
                kernel.set_arg(i, cl.LocalMemory(a["size"]))
                json_args.append({"kind": "local", "size": a["size"]})
            else:
                values = np.array(a["values"], dtype=a["dtype"])
                kernel.set_arg(i, values.tobytes() if values.size > 1 else values[0])
                json_args.append({"kind": "scalar", "type": C.TYPE_NAMES[a["dtype"]],
                                  "values": [hexbits(a["dtype"], v) for v in a["values"]]})
        dims = c["dims"]
        cl.enqueue_nd_range_kernel(queue, kernel, tuple(c["global"][:dims]),
                                   tuple(c["local"][:dims]),
                                   global_work_offset=tuple(c["offset"][:dims]))
        queue.finish()
        outputs = []
        for o in c["outputs"]:
            buffer, dtype, count = bufs[o["arg"]]
            assert dtype == np.dtype(o["dtype"]), (c["name"], o)
            result = np.empty(count, dtype=dtype)
            cl.enqueue_copy(queue, result, buffer)
            path = f"data/{c['name']}.arg{o['arg']}.out.bin"
            with open(os.path.join(HERE, path), "wb") as f:
                f.write(result.tobytes())
            outputs.append({"arg": o["arg"], "file": path, "type": C.TYPE_NAMES[o["dtype"]],
                            "tolerance_ulp": o["ulp"],
                            "any_zero_sign": o["any_zero_sign"]})
        gpus = gpus_for(c["source"], c["kernel"])
        if not gpus:
            sys.exit(f"case {c['name']}: no GPU has kernel {c['kernel']}")
        out_cases.append({"name": c["name"], "source": c["source"], "kernel": c["kernel"],
                          "gpus": gpus, "global": c["global"], "local": c["local"],
                          "offset": c["offset"], "dims": dims, "args": json_args,
                          "outputs": outputs})
        print(f"{c['name']:20} {c['kernel']:18} gpus={','.join(gpus)}")
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(c) for c in out_cases) + "\n]\n")
    total = sum(os.path.getsize(os.path.join(data_dir, p)) for p in os.listdir(data_dir))
    print(f"{len(out_cases)} cases, {total} bytes of data")


if __name__ == "__main__":
    main()
