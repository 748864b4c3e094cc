#!/usr/bin/env python3
"""Compiles every tests/opencl/src/*.cl for every GPU with clang-14 + libclc
and llc-14 (target amdgcn--, the old Gallium ABI) and converts the result
to CLRX syntax in tests/opencl/gen/GPU/NAME.s (through llvm2clrx.py).

Pipeline (as Clover does it): clang -emit-llvm, llvm-link with libclc,
internalize everything but the kernels, opt -O2, llc.

Kernels that llc-14 miscompiles for a GPU (an instruction the GPU does not
have, see SKIPS) are left out of that GPU's file; the list of what was left
out is written to gen/skipped.json.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

import llvm2clrx

HERE = os.path.dirname(os.path.abspath(__file__))
GPUS = {"tahiti": "Tahiti", "bonaire": "Bonaire", "tonga": "Tonga", "gfx900": "GFX900"}
# instructions llc-14 emits although the GPU lacks them (an LLVM bug)
MISSING = {
    "tahiti": ["v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64"],
    "bonaire": ["v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64"],
    "tonga": [],
    "gfx900": [],
}


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{r.stderr}")
    return r.stdout


def kernels_of(src):
    """The kernels of a source, in order (from clang's IR, so that kernels
    a macro defines count too)."""
    ll = run(["clang-14", "-x", "cl", "-cl-std=CL1.2", "-target", "amdgcn--", "-mcpu=tahiti",
              "-Xclang", "-finclude-default-header", "-O0", "-emit-llvm", "-S", src, "-o", "-"])
    return re.findall(r"^define .*?amdgpu_kernel void @([\w.]+)\(", ll, re.M)


def compile_one(src, gpu, kernels, tmp):
    base = os.path.join(tmp, f"{gpu}")
    run(["clang-14", "-x", "cl", "-cl-std=CL1.2", "-cl-kernel-arg-info", "-target", "amdgcn--",
         f"-mcpu={gpu}", "-Xclang", "-finclude-default-header", "-O2", "-emit-llvm", "-c",
         src, "-o", base + ".bc"])
    run(["llvm-link-14", base + ".bc", f"/usr/lib/clc/{gpu}-amdgcn--.bc", "-o",
         base + ".linked.bc"])
    run(["opt-14", "-passes=internalize,default<O2>",
         "-internalize-public-api-list=" + ",".join(kernels), base + ".linked.bc", "-S",
         "-o", base + ".ll"])
    run(["llc-14", "-mtriple=amdgcn--", f"-mcpu={gpu}", base + ".ll", "-o", base + ".s"])
    with open(base + ".ll") as f:
        ll = f.read()
    with open(base + ".s") as f:
        s = f.read()
    return ll, s


def kernel_bodies(s):
    """{kernel: its lines of llc output}"""
    bodies, cur = {}, None
    for line in s.splitlines():
        m = re.match(r"^([\w.]+):\s*;\s*@", line)
        if m:
            cur = m.group(1)
            bodies[cur] = []
        elif cur is not None:
            bodies[cur].append(line)
            if line.startswith(".Lfunc_end"):
                cur = None
    return bodies


def main():
    srcs = sorted(f for f in os.listdir(os.path.join(HERE, "src")) if f.endswith(".cl"))
    only = sys.argv[1:]
    skipped = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in srcs:
            stem = name[:-3]
            if only and stem not in only:
                continue
            src = os.path.join(HERE, "src", name)
            all_kernels = kernels_of(src)
            for gpu, gpu_name in GPUS.items():
                kernels = list(all_kernels)
                while True:
                    ll, s = compile_one(src, gpu, kernels, tmp)
                    bodies = kernel_bodies(s)
                    bad = {}
                    for k, body in bodies.items():
                        for line in body:
                            op = line.split()[0] if line.split() else ""
                            if op.split("_e")[0] in MISSING[gpu]:
                                bad[k] = op
                                break
                    if not bad:
                        break
                    for k, op in bad.items():
                        skipped.append({"source": f"src/{name}", "kernel": k, "gpu": gpu,
                                        "reason": f"llc-14 emits {op}, which GCN "
                                        f"{llvm2clrx.GCN_VERSION[gpu]} does not have"})
                        kernels.remove(k)
                if not kernels:
                    continue
                try:
                    text, done = llvm2clrx.convert(gpu_name, ll, s)
                except llvm2clrx.ConvertError as e:
                    sys.exit(f"{name} for {gpu}: {e}")
                assert sorted(done) == sorted(kernels), (done, kernels)
                out_dir = os.path.join(HERE, "gen", gpu)
                os.makedirs(out_dir, exist_ok=True)
                with open(os.path.join(out_dir, stem + ".s"), "w") as f:
                    f.write(text)
                print(f"{gpu:8} {name}: {', '.join(kernels)}")
    if not only:
        with open(os.path.join(HERE, "gen", "skipped.json"), "w") as f:
            json.dump(skipped, f, indent=1)
            f.write("\n")
    for s in skipped:
        print(f"skipped {s['kernel']} on {s['gpu']}: {s['reason']}")


if __name__ == "__main__":
    main()
