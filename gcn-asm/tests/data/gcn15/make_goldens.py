#!/usr/bin/env python3
"""Make the GCN 1.5 disassembler goldens (tests/gcn15_disasm.rs reads them).

Each golden NAME has three files here:

- NAME.bin    raw code (little-endian words), for gfx1010;
- NAME.clrx   what `clrxdisasm -g gfx1010 -r NAME.bin` prints for it (with
              `--wave32` when NAME ends in `_w32`);
- NAME.lossy  the byte offsets (hex, one per line) of the instruction lines
              of NAME.clrx that clrxasm does not assemble back to the same
              words (it rejects the text, or writes other words): there
              clrxdisasm's text is not a faithful listing, and the test only
              asks that our line assembles back (see known-differences.txt).

The goldens come in three kinds:

- src/*.s: sources written for these tests (every encoding family and
  modifier form, wave64 and wave32), assembled by clrxasm;
- opcodes_*: one instruction per opcode of every family, from a template
  word with plain operand fields (variants with unused fields cleared until
  clrxdisasm prints no `field=value` extras); opcodes clrxdisasm calls
  illegal (`*_ill_*`) are left out;
- fuzz_*: seeded random words of every family: half random fields after
  the family's fixed bits, half instructions of the opcode goldens with
  one to three bits flipped.

clrxdisasm reads one word too many after a GCN 1.5 MIMG instruction that is
not the last of its input (GCNDisasm.cpp: after the MIMG dwords it reads the
two-dword encoding's second word again), so that every MIMG instruction in
a longer listing takes the next instruction's first word as its second.
The MIMG goldens (mimg*, opcodes_mimg, fuzz_mimg) hold only MIMG
instructions, and are disassembled one instruction at a time (each at the
end of its own input, where clrxdisasm decodes it right); their NAME.clrx
is those listings joined, with the offsets of the whole file.

Usage: make_goldens.py [--clrx-build DIR] [--only NAME,...]
Needs clrxasm/clrxdisasm (default /work/clrx-build/programs).
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "src")
GPU = "gfx1010"


def tools(build):
    return (os.path.join(build, "programs", "clrxasm"),
            os.path.join(build, "programs", "clrxdisasm"))


CLRXASM = CLRXDISASM = None


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def assemble(source, wave32, tmp):
    """clrxasm's raw code for `source`, or None (and its errors)."""
    src = os.path.join(tmp, "in.s")
    out = os.path.join(tmp, "out.bin")
    with open(src, "w") as f:
        f.write(source)
    if os.path.exists(out):
        os.remove(out)
    args = [CLRXASM, "-g", GPU, "-b", "rawcode", "-o", out, src]
    if wave32:
        args.insert(1, "--wave32")
    r = run(args)
    if r.returncode != 0 or not os.path.exists(out):
        return None, r.stderr
    with open(out, "rb") as f:
        return f.read(), r.stderr


def disassemble(data, wave32, tmp, may_crash=False):
    path = os.path.join(tmp, "code.bin")
    with open(path, "wb") as f:
        f.write(data)
    args = [CLRXDISASM, "-g", GPU, "-r", path]
    if wave32:
        args.insert(1, "--wave32")
    r = run(args)
    if r.returncode != 0 and may_crash:
        return None
    if r.returncode != 0:
        sys.exit(f"clrxdisasm failed ({r.returncode}) on {data[:16].hex()}: {r.stderr} {r.stdout[-300:]}")
    return r.stdout


def words_of(data):
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]


def bytes_of(words):
    return b"".join(w.to_bytes(4, "little") for w in words)


LINE = re.compile(r"^/\*([0-9a-f]{12})\*/ (.*)$")


def items(text, nbytes):
    """The listing's items: (kind, offset, end, text) for instruction
    lines ('instr') and `.fill` runs ('fill'); labels are skipped."""
    out = []
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            out.append(["instr", int(m.group(1), 16), None, m.group(2)])
        elif line.startswith(".fill "):
            n = int(line.split()[1].rstrip(","))
            out.append(["fill", None, n, line])
    # Resolve ends and the starts of `.fill` runs (they have no offset).
    nxt = nbytes
    for it in reversed(out):
        if it[0] == "fill":
            it[1] = nxt - 4 * it[2]
        it[2] = nxt
        nxt = it[1]
    return out


LABEL_REF = re.compile(r"\.L(\d+)_0\b")


def line_is_faithful(data, off, end, text, wave32, tmp):
    """True when clrxasm assembles `text`, placed at `off`, back to
    data[off:end]."""
    parts = [(off, text)]
    for m in set(LABEL_REF.findall(text)):
        target = int(m)
        if off < target < end:
            return True  # a label inside the instruction: cannot check
        parts.append((target, f".L{target}_0:"))
    parts.sort(key=lambda p: (p[0], p[1] != text))
    source = "".join(f".org {o:#x}\n{t}\n" for o, t in parts)
    out, _ = assemble(source, wave32, tmp)
    if out is None:
        return False
    labels_after = any(o > off for o, t in parts if t != text)
    if labels_after:
        return out[off:end] == data[off:end]
    return out[off:] == data[off:end]


def lossy_offsets(data, text, wave32):
    its = [it for it in items(text, len(data)) if it[0] == "instr"
           and not it[3].startswith(".int ")]

    def check(it):
        with tempfile.TemporaryDirectory() as tmp:
            ok = line_is_faithful(data, it[1], it[2], it[3], wave32, tmp)
        return None if ok else it[1]

    with ThreadPoolExecutor(max_workers=2) as pool:
        return sorted(o for o in pool.map(check, its) if o is not None)


def mimg_len(w):
    return 2 + ((w >> 1) & 3)


def disassemble_mimg(data, wave32, tmp):
    """clrxdisasm's listing of MIMG-only code, one instruction at a time
    (see the module documentation)."""
    words = words_of(data)
    header = None
    body = []
    i = 0
    while i < len(words):
        n = min(mimg_len(words[i]), len(words) - i)
        text = disassemble(bytes_of(words[i:i + n]), wave32, tmp)
        lines = text.splitlines()
        first = next(k for k, l in enumerate(lines) if l.startswith("/*0000")
                     or l.startswith(".fill"))
        if header is None:
            header = [l for l in lines[:first] if "WARNING" not in l]
        for l in lines[first:]:
            m = LINE.match(l)
            if m:
                off = int(m.group(1), 16) + 4 * i
                l = f"/*{off:012x}*/ {m.group(2)}"
            body.append(l)
        i += n
    return "\n".join(header + body) + "\n"


# --------------------------------------------------------------------------
# Structured words: one instruction per opcode.

def variants_opcodes():
    """{name: (wave32, [list of candidate word lists per opcode])}."""
    fams = {}

    def vop_src(v):
        return 256 + v

    # SOP2: opcode 23-29, sdst 22-16, ssrc1 15-8, ssrc0 7-0.
    fams["sop2"] = [[[0x80000000 | op << 23 | 6 << 16 | 4 << 8 | 2]]
                    for op in range(0x80)]
    fams["sop1"] = [[[0xbe800000 | 6 << 16 | op << 8 | 4]] for op in range(0x100)]
    sopk = []
    for op in range(0x20):
        w = 0xb0000000 | op << 23 | 6 << 16 | 0x0002
        sopk.append([[w, 0x11223344] if op == 21 else [w]])
    fams["sopk"] = sopk
    fams["sopc"] = [[[0xbf000000 | op << 16 | 4 << 8 | 2]] for op in range(0x80)]
    fams["sopp"] = [[[0xbf800000 | op << 16], [0xbf800000 | op << 16 | 1]]
                    for op in range(0x80)]
    fams["smem"] = [[[0xf4000000 | op << 18 | 16 << 6 | 2, 8 << 25],
                     [0xf4000000 | op << 18 | 16 << 6 | 2, 0x7d << 25 | 0x40],
                     [0xf4000000 | op << 18 | 16 << 6, 0],
                     [0xf4000000 | op << 18, 0]]
                    for op in range(0x100)]
    vop2 = []
    for op in range(0x40):
        w = op << 25 | 1 << 17 | 3 << 9 | vop_src(2)
        vop2.append([[w], [w, 0x3f800000]])
    fams["vop2"] = vop2
    fams["vop1"] = [[[0x7e000000 | 1 << 17 | op << 9 | vop_src(2)],
                     [0x7e000000 | op << 9]] for op in range(0x100)]
    fams["vopc"] = [[[0x7c000000 | op << 17 | 3 << 9 | vop_src(2)]]
                    for op in range(0x100)]
    vop3 = []
    for op in range(0x400):
        cands = []
        for dst in (1, 4):
            for srcs in ((258, 259, 260), (258, 259, 0), (258, 0, 0), (0, 0, 0)):
                w1 = srcs[0] | srcs[1] << 9 | srcs[2] << 18
                cands.append([0xd4000000 | op << 16 | dst, w1])
                cands.append([0xd4000000 | op << 16 | 8 << 8 | dst, w1])
        vop3.append(cands)
    fams["vop3"] = vop3
    fams["vop3p"] = [[[0xcc000000 | op << 16 | 0x4000 | 1,
                       258 | 259 << 9 | 260 << 18 | 3 << 27],
                      [0xcc000000 | op << 16 | 0x4000 | 1, 258 | 259 << 9 | 3 << 27]]
                     for op in range(0x80)]
    fams["vintrp"] = [[[0xc8000000 | 1 << 18 | op << 16 | 3 << 10 | 1 << 8 | v]
                       for v in (2, 1)] for op in range(4)]
    ds = []
    for op in range(0x100):
        cands = []
        for fields in ((1, 2, 3, 4), (1, 2, 0, 4), (1, 2, 3, 0), (1, 0, 0, 4),
                       (1, 2, 0, 0), (1, 0, 0, 0), (0, 0, 0, 4), (0, 2, 0, 0),
                       (0, 0, 0, 0)):
            w1 = fields[0] | fields[1] << 8 | fields[2] << 16 | fields[3] << 24
            cands.append([0xd8000000 | op << 18 | 0x10, w1])
            if 0x18 <= op <= 0x1d:  # ds_gws_*: GDS only
                cands.insert(-1, [0xd8000000 | op << 18 | 1 << 17 | 0x10, w1])
        ds.append(cands)
    fams["ds"] = ds
    fams["mubuf"] = [[[0xe0000000 | op << 18 | 1 << 12 | 4,
                       1 | 2 << 8 | 1 << 16 | 8 << 24],
                      [0xe0000000 | op << 18 | 4, 0]] for op in range(0x80)]
    fams["mtbuf"] = [[[0xe8000000 | (op & 7) << 16 | 0x20 << 19 | 1 << 13,
                       1 | 2 << 8 | 1 << 16 | (op >> 3) << 21 | 8 << 24]]
                     for op in range(0x10)]
    mimg = []
    for op in range(0x80):
        cands = []
        for ssamp in (2, 0):
            for unorm in (1, 0):
                cands.append([0xf0000000 | op << 18 | unorm << 12 | 0xf << 8 | 1 << 3,
                              2 | 4 << 8 | 1 << 16 | ssamp << 21])
        mimg.append(cands)
    fams["mimg"] = mimg
    fams["exp"] = [[[0xf8000000 | t << 4 | 0x80f, 1 | 2 << 8 | 3 << 16 | 4 << 24]]
                   for t in (0, 8, 9, 12, 32)]
    flat = []
    for seg in range(3):
        for op in range(0x80):
            cands = []
            for saddr in (0x7d, 4):
                for fields in ((2, 4, 6), (2, 4, 0), (2, 0, 6), (0, 4, 6), (0, 4, 0)):
                    w1 = fields[0] | fields[1] << 8 | saddr << 16 | fields[2] << 24
                    cands.append([0xdc000000 | op << 18 | seg << 14 | 8, w1])
            flat.append(cands)
    fams["flat"] = flat
    return fams


BAD_TEXT = re.compile(r"_ill_|=0x|=[0-9]|\bill_|invalid|dppctrl|&ill!|_u!")


def first_clean(cands, wave32, tmp, mimg):
    for words in cands:
        data = bytes_of(words)
        if mimg:
            text = disassemble_mimg(data, wave32, tmp)
        else:
            # clrxdisasm crashes on some illegal VOP3P opcodes.
            text = disassemble(data, wave32, tmp, may_crash=True)
            if text is None:
                continue
        lines = [l for l in text.splitlines() if LINE.match(l)]
        if len(lines) != 1:
            continue
        if BAD_TEXT.search(lines[0]):
            continue
        return words
    return None


def opcode_goldens(fams, selected):
    out = {}
    specs = [(f"opcodes_{f}", f, False) for f in fams]
    specs += [(f"opcodes_{f}_w32", f, True) for f in ("vopc", "vop2", "vop3")]
    for name, fam, wave32 in specs:
        if selected and name not in selected:
            continue
        mimg = fam == "mimg"

        def pick(cands):
            with tempfile.TemporaryDirectory() as tmp:
                return first_clean(cands, wave32, tmp, mimg)

        with ThreadPoolExecutor(max_workers=2) as pool:
            chosen = [w for w in pool.map(pick, fams[fam]) if w is not None]
        words = [w for ws in chosen for w in ws]
        out[name] = (bytes_of(words), wave32, mimg)
    return out


# --------------------------------------------------------------------------
# Fuzz: seeded random words of each family.

# (family, mask of the fixed bits, their value)
FUZZ = [
    ("sop2", 0xc0000000, 0x80000000),
    ("sopk", 0xf0000000, 0xb0000000),
    ("sop1", 0xff800000, 0xbe800000),
    ("sopc", 0xff800000, 0xbf000000),
    ("sopp", 0xff800000, 0xbf800000),
    ("smem", 0xfc000000, 0xf4000000),
    ("vop2", 0x80000000, 0x00000000),
    ("vop1", 0xfe000000, 0x7e000000),
    ("vopc", 0xfe000000, 0x7c000000),
    ("vop3", 0xfc000000, 0xd4000000),
    ("vop3p", 0xff000000, 0xcc000000),
    ("vintrp", 0xfc000000, 0xc8000000),
    ("ds", 0xfc000000, 0xd8000000),
    ("mubuf", 0xfc000000, 0xe0000000),
    ("mtbuf", 0xfc000000, 0xe8000000),
    ("mimg", 0xfc000000, 0xf0000000),
    ("exp", 0xfc000000, 0xf8000000),
    ("flat", 0xfc000000, 0xdc000000),
]

# SOPP opcodes that branch (their random targets would be labels out of the
# code, which clrxdisasm writes with `.org`): left out of the fuzz.
SOPP_BRANCHES = {2, 4, 5, 6, 7, 8, 9, 23, 24, 25, 26}
SOPK_BRANCHES = {22, 27, 28}


def fuzz_words(fam, mask, value, rng, templates):
    """One random instruction of `fam`: its words. Half are random fields
    after the family's fixed bits; half are an instruction of the opcode
    golden with one to three bits flipped (near-valid words)."""
    if templates and rng.random() < 0.5:
        words = list(rng.choice(templates))
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(words))
            bit = rng.randrange(32)
            if i == 0 and mask >> bit & 1:
                continue
            words[i] ^= 1 << bit
    else:
        words = [value | (rng.getrandbits(32) & ~mask & 0xffffffff)]
    w0 = words[0]
    if fam == "sopp" and (w0 >> 16 & 0x7f) in SOPP_BRANCHES:
        w0 = (w0 & ~(0x7f << 16)) | 0x1 << 16
    if fam == "sopk" and (w0 >> 23 & 0x1f) in SOPK_BRANCHES:
        w0 = (w0 & ~(0x1f << 23)) | 0x3 << 23
    if fam == "sop2" and (w0 >> 23 & 0x7f) >= 0x60:
        # 0xb0..0xbf are SOPK/SOP1/SOPC/SOPP: keep it SOP2.
        w0 &= ~(0x40 << 23)
    if fam == "vop2" and (w0 >> 25) & 0x3e == 0x3e:
        w0 &= ~(1 << 26)  # not VOPC/VOP1
    if fam == "flat" and (w0 >> 14 & 3) == 3:
        w0 &= ~(1 << 15)  # segment 3: clrxdisasm reads out of its table
    words[0] = w0
    # As many words as clrxdisasm reads for the instruction: random
    # literals, SDWA/DPP words, MIMG addresses.
    need = instr_len(fam, words + [0, 0], 0)
    if fam in ("vop3", "vop3p") and len(words) >= 2:
        need = instr_len(fam, words, 0)
    del words[need:]
    while len(words) < need:
        words.append(rng.choice([rng.getrandbits(32), 0x3f800000, 5, 0xfffffff0])
                     if len(words) == 1 else rng.getrandbits(32))
        if fam in ("vop3", "vop3p") and len(words) == 2:
            need = instr_len(fam, words, 0)
    return words


def safe_fuzz_words(fam, mask, value, rng, templates, wave32):
    """`fuzz_words`, drawn again while clrxdisasm crashes on them (it does
    on some illegal opcodes)."""
    while True:
        words = fuzz_words(fam, mask, value, rng, templates)
        with tempfile.TemporaryDirectory() as tmp:
            if disassemble(bytes_of(words), wave32, tmp, may_crash=True) is not None:
                return words


def fuzz_goldens(selected, templates_of, count=40, seed=0x15):
    out = {}
    for fam, mask, value in FUZZ:
        name = f"fuzz_{fam}"
        if selected and name not in selected:
            continue
        rng = random.Random(f"{seed}:{fam}")
        templates = templates_of.get(fam)
        words = []
        for _ in range(count):
            words += safe_fuzz_words(fam, mask, value, rng, templates, False)
        out[name] = (bytes_of(words), False, fam == "mimg")
    for fam in ("vopc", "vop2", "vop3"):
        name = f"fuzz_{fam}_w32"
        if selected and name not in selected:
            continue
        rng = random.Random(f"{seed}:{fam}:w32")
        mask, value = next((m, v) for f, m, v in FUZZ if f == fam)
        templates = templates_of.get(fam)
        words = []
        for _ in range(count // 2):
            words += safe_fuzz_words(fam, mask, value, rng, templates, True)
        out[name] = (bytes_of(words), True, False)
    return out


# --------------------------------------------------------------------------

def main():
    global CLRXASM, CLRXDISASM
    ap = argparse.ArgumentParser()
    ap.add_argument("--clrx-build", default=os.environ.get("CLRX_BUILD", "/work/clrx-build"))
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    CLRXASM, CLRXDISASM = tools(args.clrx_build)
    selected = set(filter(None, args.only.split(",")))

    goldens = {}
    with tempfile.TemporaryDirectory() as tmp:
        for fname in sorted(os.listdir(SRC)):
            if not fname.endswith(".s"):
                continue
            name = fname[:-2]
            if selected and name not in selected:
                continue
            wave32 = name.endswith("_w32") or name == "wave32"
            with open(os.path.join(SRC, fname)) as f:
                source = f.read()
            data, err = assemble(source, wave32, tmp)
            if data is None:
                sys.exit(f"{fname}: clrxasm failed:\n{err}")
            goldens[name] = (data, wave32, name.startswith("mimg"))

    fams = variants_opcodes()
    opcode = opcode_goldens(fams, selected)
    goldens.update(opcode)
    # Opcodes for the biased fuzz: the ones the opcode goldens found (read
    # back from the files when they were not remade now).
    firsts = {}
    for fam in fams:
        name = f"opcodes_{fam}"
        data = opcode[name][0] if name in opcode else None
        if data is None and os.path.exists(os.path.join(HERE, name + ".bin")):
            with open(os.path.join(HERE, name + ".bin"), "rb") as f:
                data = f.read()
        firsts[fam] = opcode_instructions(fam, data)
    goldens.update(fuzz_goldens(selected, firsts))

    for name, (data, wave32, mimg) in sorted(goldens.items()):
        with tempfile.TemporaryDirectory() as tmp:
            text = (disassemble_mimg if mimg else disassemble)(data, wave32, tmp)
        text = text.replace(f"'{tmp}/code.bin'", f"'{name}.bin'")
        text = re.sub(r"'[^']*/code\.bin'", f"'{name}.bin'", text)
        lossy = lossy_offsets(data, text, wave32)
        with open(os.path.join(HERE, name + ".bin"), "wb") as f:
            f.write(data)
        with open(os.path.join(HERE, name + ".clrx"), "w") as f:
            f.write(text)
        with open(os.path.join(HERE, name + ".lossy"), "w") as f:
            f.write("".join(f"{o:x}\n" for o in lossy))
        n = sum(1 for l in text.splitlines() if LINE.match(l))
        print(f"{name}: {len(data) // 4} words, {n} lines, {len(lossy)} not faithful")


def opcode_instructions(fam, data):
    """The instructions (word lists) of an opcode golden, split by
    clrxdisasm's lengths."""
    if data is None:
        return None
    words = words_of(data)
    out = []
    i = 0
    while i < len(words):
        n = instr_len(fam, words, i)
        out.append(words[i:i + n])
        i += n
    return out


def instr_len(fam, words, i):
    w = words[i]
    if fam in ("sop2", "sopc"):
        return 1 + ((w & 0xff) == 0xff or (w >> 8 & 0xff) == 0xff)
    if fam == "sop1":
        return 1 + ((w & 0xff) == 0xff)
    if fam == "sopk":
        return 1 + ((w >> 23 & 0x1f) == 21)
    if fam in ("sopp", "vintrp"):
        return 1
    if fam == "vop2":
        op = w >> 25 & 0x3f
        src0 = w & 0x1ff
        return 1 + (op in (32, 33, 44, 45, 55, 56) or src0 in (0xff, 0xf9, 0xfa, 0xe9, 0xea))
    if fam in ("vop1", "vopc"):
        return 1 + ((w & 0x1ff) in (0xff, 0xf9, 0xfa, 0xe9, 0xea))
    if fam in ("vop3", "vop3p"):
        w1 = words[i + 1] if i + 1 < len(words) else 0
        lit = (w1 & 0x1ff) == 0xff or (w1 >> 9 & 0x1ff) == 0xff or (w1 >> 18 & 0x1ff) == 0xff
        return 2 + lit
    if fam == "mimg":
        return mimg_len(w)
    return 2


if __name__ == "__main__":
    main()
