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

import bisect
import os
import re
import subprocess
import sys
import tempfile

import compile as C

HERE = os.path.dirname(os.path.abspath(__file__))
GCNASM = os.environ.get("GCNASM") or os.path.join(HERE, "..", "..", "target", "release",
                                                 "gcnasm")


def instructions(ll, gpu):
    """{byte offset in .text: instruction text} of llc's code for the IR
    `ll` (from `-show-mc-encoding`: llvm-objdump-14 cannot disassemble GCN
    1.0/1.1)."""
    out = subprocess.run(["llc-14", "-mtriple=amdgcn--", f"-mcpu={gpu}", "-show-mc-encoding",
                          ll, "-o", "-"], capture_output=True, text=True, check=True).stdout
    found, offset, in_text, last = {}, 0, False, ""
    for line in out.splitlines():
        word = line.split()[0] if line.split() else ""
        if word == ".text":
            in_text = True
        elif word == ".section":
            in_text = False
        elif in_text and word == ".p2align":
            a = 1 << int(line.split()[1].rstrip(","))
            offset = (offset + a - 1) // a * a
        # the encoding follows the instruction, or is on the next line when
        # the instruction has a comment of its own
        m = re.match(r"\s*(.*?)\s*; encoding: \[(.*)\]", line)
        if in_text and m:
            found[offset] = m.group(1) or last
            offset += len(m.group(2).split(","))
        last = line.split(";")[0].strip()
    return found


def harmless(ins, llvm, ours):
    """Whether two dwords differ only in a way the instruction ignores:
    - a 16-bit literal of an instruction on 16-bit operands (`v_max_i16
      v17, 0xff80, v17`, `v_add_u16_e32 v4, 0x8700, v4`): LLVM sign-extends
      it to 32 bits, gcnasm zero-extends it; the instruction reads the low
      half only;
    - a VOP3P instruction with two sources and a two-element `op_sel_hi`
      (`v_pk_add_u16 v4, v4, s2 op_sel_hi:[1,0]`): LLVM sets OP_SEL_HI of
      the absent third source (bit 14), gcnasm leaves it clear.
    """
    op = ins.split()[0]
    if re.search(r"_[iuf]16|_b16", op) and llvm[:2] == ours[:2] and ours[2:] == b"\0\0" \
            and llvm[2:] == b"\xff\xff" and llvm[1] & 0x80:
        return True
    if op.startswith("v_pk_") and re.search(r"op_sel_hi:\[\d,\d\]", ins) \
            and int.from_bytes(llvm, "little") ^ int.from_bytes(ours, "little") == 1 << 14:
        return True
    return False



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
                listing = instructions(f"{tmp}/{gpu}.ll", gpu)
                starts = sorted(listing)
                at = lambda i: listing[starts[bisect.bisect_right(starts, i) - 1]]
                diffs = [i for i in range(0, min(len(a), len(b)), 4)
                         if a[i:i + 4] != b[i:i + 4]
                         and not harmless(at(i), a[i:i + 4], b[i:i + 4])]
                ok = len(a) == len(b) and len(diffs) == relocated
                failed |= not ok
                print(f"{gpu:8} {stem:12} {len(a):6} bytes, {len(diffs)} differing dwords "
                      f"({relocated} relocated literals) {'ok' if ok else 'MISMATCH'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
