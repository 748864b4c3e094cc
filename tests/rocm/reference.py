#!/usr/bin/python3
"""Writes cases.json and data/ for the ROCm-only cases of rocm_cases.py (the
layout of tests/opencl/README.md, plus `"printf": FILE` — the lines pocl
printed, or for HIP the case's `printf_text` — `"dynamic_lds": BYTES` and
`"hip": true`). OpenCL C cases with no
`host` reference run under pocl (the system python3 with
python3-pyopencl); the others take their outputs from `host`.
"""

import json
import os
import shutil
import tempfile

import numpy as np

import rocm_cases as C

HERE = os.path.dirname(os.path.abspath(__file__))
TYPE_NAMES = {np.dtype(k): v for k, v in {
    np.uint8: "u8", np.int8: "i8", np.uint16: "u16", np.int16: "i16", np.uint32: "u32",
    np.int32: "i32", np.uint64: "u64", np.int64: "i64", np.float32: "f32",
    np.float64: "f64"}.items()}


def hexbits(dtype, v):
    if np.dtype(dtype) == np.float32:
        return "0x%08x" % np.array([v], dtype=np.float32).view(np.uint32)[0]
    if np.dtype(dtype) == np.float64:
        return "0x%016x" % np.array([v], dtype=np.float64).view(np.uint64)[0]
    return int(v)


def run_pocl(c, inputs):
    """Runs case `c` under pocl; returns its buffers and what it printed."""
    import pyopencl as cl
    ctx = cl.Context(devices=[cl.get_platforms()[0].get_devices()[0]])
    queue = cl.CommandQueue(ctx)
    with open(os.path.join(HERE, c["source"])) as f:
        program = cl.Program(ctx, f.read()).build("-cl-std=CL1.2")
    kernel = getattr(program, c["kernel"])
    bufs = {}
    for i, a in enumerate(c["args"]):
        if i in inputs:
            bufs[i] = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                                hostbuf=inputs[i])
            kernel.set_arg(i, bufs[i])
        elif a["kind"] == "local":
            kernel.set_arg(i, cl.LocalMemory(a["size"]))
        else:
            values = np.array(a["values"], dtype=a["dtype"])
            kernel.set_arg(i, values.tobytes() if values.size > 1 else values[0])
    dims = c["dims"]
    # pocl prints to file descriptor 1: catch it in a file.
    with tempfile.TemporaryFile() as printed:
        saved = os.dup(1)
        os.dup2(printed.fileno(), 1)
        try:
            cl.enqueue_nd_range_kernel(queue, kernel, tuple(c["global"][:dims]),
                                       tuple(c["local"][:dims]))
            queue.finish()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        printed.seek(0)
        text = printed.read().decode()
    results = {}
    for i, data in inputs.items():
        result = np.empty_like(data)
        cl.enqueue_copy(queue, result, bufs[i])
        results[i] = result
    return results, text


def main():
    data_dir = os.path.join(HERE, "data")
    shutil.rmtree(data_dir, ignore_errors=True)
    os.makedirs(data_dir)
    out_cases = []
    for c in C.build():
        hip = c["source"].endswith(".hip")
        inputs, json_args = {}, []
        for i, a in enumerate(c["args"]):
            if a["kind"] == "buffer":
                inputs[i] = a["data"].copy()
                path = f"data/{c['name']}.arg{i}.bin"
                with open(os.path.join(HERE, path), "wb") as f:
                    f.write(a["data"].tobytes())
                json_args.append({"kind": "buffer", "file": path})
            elif a["kind"] == "zero":
                inputs[i] = np.zeros(a["count"], dtype=a["dtype"])
                json_args.append({"kind": "zero", "size": inputs[i].nbytes})
            elif a["kind"] == "local":
                json_args.append({"kind": "local", "size": a["size"]})
            else:
                json_args.append({"kind": "scalar", "type": TYPE_NAMES[np.dtype(a["dtype"])],
                                  "values": [hexbits(a["dtype"], v) for v in a["values"]]})
        entry = {"name": c["name"], "source": c["source"], "kernel": c["kernel"],
                 "global": c["global"], "local": c["local"], "offset": c["offset"],
                 "dims": c["dims"], "args": json_args}
        if "host" in c:
            results = c["host"](inputs)
            if "printf_text" in c:
                path = f"data/{c['name']}.stdout.txt"
                with open(os.path.join(HERE, path), "w") as f:
                    f.write(c["printf_text"])
                entry["printf"] = path
        else:
            results, text = run_pocl(c, inputs)
            if c.get("printf"):
                path = f"data/{c['name']}.stdout.txt"
                with open(os.path.join(HERE, path), "w") as f:
                    f.write(text)
                entry["printf"] = path
        outputs = []
        for o in c["outputs"]:
            result = results[o["arg"]]
            assert result.dtype == np.dtype(o["dtype"]), (c["name"], o)
            path = f"data/{c['name']}.arg{o['arg']}.out.bin"
            with open(os.path.join(HERE, path), "wb") as f:
                f.write(result.tobytes())
            outputs.append({"arg": o["arg"], "file": path,
                            "type": TYPE_NAMES[np.dtype(o["dtype"])],
                            "tolerance_ulp": o["ulp"], "any_zero_sign": o["any_zero_sign"]})
        entry["outputs"] = outputs
        if "dynamic_lds" in c:
            entry["dynamic_lds"] = c["dynamic_lds"]
        if hip:
            entry["hip"] = True
        out_cases.append(entry)
        print(f"{c['name']:22} {c['kernel']:18} {'host' if 'host' in c else 'pocl'}")
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(c) for c in out_cases) + "\n]\n")
    total = sum(os.path.getsize(os.path.join(data_dir, p)) for p in os.listdir(data_dir))
    print(f"{len(out_cases)} cases, {total} bytes of data")


if __name__ == "__main__":
    main()
