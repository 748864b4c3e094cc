#!/usr/bin/env python3
"""Checks the converter and the assembler against LLVM: for every
gen/GPU/NAME.s, the code gcnasm makes must be the code llc-14 puts in its
own object file (-filetype=obj), dword for dword, except the literals that
LLVM leaves to relocations (PC-relative references to constant data and the
scratch resource; see README.md).

Until gcnasm takes `.scratchsym` and `off` as a MUBUF address, those are
masked: the scratch symbol becomes a 64-bit constant with both halves
non-inline (so the encoding keeps its literal) and `off` becomes v0 (the
encoding of `off`).

Needs target/release/gcnasm (cargo build --release -p gcn-asm) and llvm-14.
"""

import os
import re
import subprocess
import sys
import tempfile

import compile as C

HERE = os.path.dirname(os.path.abspath(__file__))
GCNASM = os.path.join(HERE, "..", "..", "target", "release", "gcnasm")
# harmless differences: (gpu, source stem, byte offset, llvm dword, ours)
KNOWN = {
    # v_max_i16 v17, 0xff80, v17: LLVM sign-extends a 16-bit literal to 32
    # bits, gcnasm zero-extends it; the instruction reads the low half only
    ("tonga", "int_ops", 0xf30): ("80ffffff", "80ff0000"),
}


def main():
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(os.listdir(os.path.join(HERE, "src"))):
            stem = name[:-3]
            for gpu in C.GPUS:
                gen = os.path.join(HERE, "gen", gpu, stem + ".s")
                if not os.path.exists(gen):
                    continue
                with open(gen) as f:
                    src = f.read()
                kernels = re.findall(r"^\.kernel (\w+)", src, re.M)
                C.compile_one(os.path.join(HERE, "src", name), gpu, kernels, tmp)
                C.run(["llc-14", "-mtriple=amdgcn--", f"-mcpu={gpu}", "-filetype=obj",
                       f"{tmp}/{gpu}.ll", "-o", f"{tmp}/o.o"])
                C.run(["llvm-objcopy-14", "-O", "binary", "--only-section=.text",
                       f"{tmp}/o.o", f"{tmp}/llvm.bin"])
                masked = re.sub(r"^\.scratchsym.*", "", src, flags=re.M)
                masked = masked.replace("scratch_rsrc", "0x1234567887654321")
                masked = re.sub(r"(buffer_\w+ [^,]*), off,", r"\1, v0,", masked)
                with open(f"{tmp}/m.s", "w") as f:
                    f.write(masked)
                r = subprocess.run([GCNASM, "-b", "rawcode", f"{tmp}/m.s", "-o", f"{tmp}/ours.bin"],
                                   capture_output=True, text=True)
                if r.returncode:
                    print(f"{gpu:8} {stem:12} gcnasm failed:\n{r.stderr}")
                    failed = True
                    continue
                with open(f"{tmp}/llvm.bin", "rb") as f:
                    a = f.read()
                with open(f"{tmp}/ours.bin", "rb") as f:
                    b = f.read()
                relocated = src.count(".Lpcrel") // 2 + src.count("scratch_rsrc&") \
                    + src.count("scratch_rsrc>>")
                diffs = [i for i in range(0, min(len(a), len(b)), 4)
                         if a[i:i + 4] != b[i:i + 4]
                         and KNOWN.get((gpu, stem, i)) != (a[i:i + 4].hex(), b[i:i + 4].hex())]
                ok = len(a) == len(b) and len(diffs) == relocated
                failed |= not ok
                print(f"{gpu:8} {stem:12} {len(a):6} bytes, {len(diffs)} differing dwords "
                      f"({relocated} relocated literals) {'ok' if ok else 'MISMATCH'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
