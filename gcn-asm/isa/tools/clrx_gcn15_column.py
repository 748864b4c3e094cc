#!/usr/bin/env python3
"""Fill (or check) the GCN 1.5 opcode column of the ISA table from CLRX.

The source of truth is CLRX's own instruction table,
`amdasm/GCNInstructions.cpp` (rows `{ "name", GCNENC_xxx, MODE, opcode,
ARCH_MASK }`, the masks in `CLRX/utils/GPUId.h`): an entry whose mask has
bit 0x20 (ARCH_NAVI) exists on GCN 1.5 and GCN 1.5.1; one with 0x40
(ARCH_NAVI_DL) but without 0x20 only on GCN 1.5.1 (our `gcn151` flag).

What it does, per CLRX entry for GCN 1.5:

- maps CLRX's encoding to our family: SMRD is our `[smem]` (GCN 1.5 has
  the GCN 1.4 SMEM layout), FLAT goes to `[flat]`, `[global]` or
  `[scratch]` by the segment in its mode, a VOP3A/VOP3B entry of a
  mnemonic that also has a VOP2/VOP1/VOPC/VINTRP entry on GCN 1.5 is the
  VOP3 (`_e64`) form of that row, every other VOP3A/VOP3B entry is a
  `[vop3]` row;
- checks the VOP3 forms against the README's derivation for GCN 1.5
  (VOPC = opcode, VOP2 = 0x100 + opcode, VOP1 = 0x180 + opcode; VINTRP has
  no VOP3 form on GCN 1.5) and reports every entry that differs;
- puts the opcode on one row of that mnemonic and family: a row that has
  only the 1.5 column (written for GCN 1.5, whose operands differ from the
  older rows), else the row with a GCN 1.4 opcode, else the newest older
  one (among older rows with the same operands, first one whose
  `no_sdwa`/`no_dpp` agree with CLRX's GCN 1.5 mode); `gcn141` rows cannot
  carry it (they exist only on GCN 1.4.1). Every other row gets `-`.

It reports the CLRX entries it could not place (no row of that mnemonic
and family: such instructions need a hand-written row, see README.md), rows
whose `gcn151` flag disagrees with CLRX, 1.5-only rows CLRX does not know,
mnemonics with a GCN 1.5 opcode on more than one row (the assembler takes
the first), and the opcodes with several names on GCN 1.5 with the name
the disassembler prints (to compare with clrxdisasm).

Usage (from anywhere):

    clrx_gcn15_column.py [--clrx DIR] [--write] [--quiet]

Without `--write` it only checks: the exit status is 1 when the table's
1.5 column differs from what CLRX gives (or something could not be
placed), 0 otherwise. With `--write` it rewrites the 1.5 column of
`gcn-asm/isa/*.isa` in place (and re-aligns the opcode columns; nothing
else on the lines changes).
"""

import argparse
import os
import re
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ISA_DIR = os.path.dirname(HERE)
DEFAULT_CLRX = os.environ.get("CLRX_SRC", "/work/clrx-src")

NAVI = 0x20
NAVI_DL = 0x40

SIMPLE_FAMILIES = {
    "GCNENC_SOP2": "sop2",
    "GCNENC_SOP1": "sop1",
    "GCNENC_SOPK": "sopk",
    "GCNENC_SOPC": "sopc",
    "GCNENC_SOPP": "sopp",
    "GCNENC_SMRD": "smem",  # GCN 1.5 SMEM (CLRX names it SMRD/SMEM alike)
    "GCNENC_SMEM": "smem",
    "GCNENC_VOP2": "vop2",
    "GCNENC_VOP1": "vop1",
    "GCNENC_VOPC": "vopc",
    "GCNENC_VOP3P": "vop3p",
    "GCNENC_VINTRP": "vintrp",
    "GCNENC_DS": "ds",
    "GCNENC_MUBUF": "mubuf",
    "GCNENC_MTBUF": "mtbuf",
    "GCNENC_MIMG": "mimg",
    "GCNENC_EXP": "exp",
}
VOP3_ENCODINGS = ("GCNENC_VOP3A", "GCNENC_VOP3B")
SHORT_VOP = ("vop2", "vop1", "vopc", "vintrp")


def vop3_of(family, opcode):
    """The VOP3 opcode of a VOP2/VOP1/VOPC/VINTRP opcode on GCN 1.5
    (README.md); None where there is no VOP3 form (VINTRP)."""
    if family == "vopc":
        return opcode
    if family == "vop2":
        return 0x100 + opcode
    if family == "vop1":
        return 0x180 + opcode
    return None


# --------------------------------------------------------------------------
# CLRX


def read_masks(clrx):
    masks = {}
    path = os.path.join(clrx, "CLRX", "utils", "GPUId.h")
    with open(path) as f:
        for m in re.finditer(r"\b(ARCH_\w+)\s*=\s*(0x[0-9a-fA-F]+|\d+)", f.read()):
            masks[m.group(1)] = int(m.group(2), 0)
    return masks


def read_clrx(clrx):
    """Every entry of gcnInstrsTable: (name, encoding, mode, opcode, mask)."""
    masks = read_masks(clrx)
    path = os.path.join(clrx, "amdasm", "GCNInstructions.cpp")
    with open(path) as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    entries = []
    row = re.compile(
        r'\{\s*"(\w+)"\s*,\s*(GCNENC_\w+)\s*,\s*([^,{}]+?)\s*,\s*(\w+)\s*,\s*(ARCH_\w+)\s*\}'
    )
    for m in row.finditer(text):
        name, enc, mode, opcode, mask = m.groups()
        if mask not in masks:
            sys.exit(f"unknown arch mask {mask} in {path}")
        modes = [t for t in re.split(r"\s*\|\s*", mode.strip()) if t]
        entries.append((name, enc, modes, int(opcode, 0), masks[mask]))
    if len(entries) < 1000:
        sys.exit(f"{path}: only {len(entries)} instruction entries found")
    return entries


def flat_segment(modes):
    """The FLAT segment of a GCNENC_FLAT entry (amdasm/GCNInternals.h:
    GCN_FLAT_FLAT = 0, GCN_FLAT_SCRATCH = 1, GCN_FLAT_GLOBAL = 2)."""
    if "GCN_FLAT_SCRATCH" in modes:
        return "scratch"
    if "GCN_FLAT_GLOBAL" in modes:
        return "global"
    return "flat"


def gcn15_entries(entries):
    """CLRX's GCN 1.5 view: {(mnemonic, family): (opcode, only_151,
    encoding, modes)} of the instructions, the VOP3 forms of VOP2/VOP1/VOPC
    entries [(mnemonic, short family, short opcode, VOP3 opcode,
    encoding)], the (mnemonic, family) keys CLRX lists with two opcodes, and
    the entries of no known encoding."""
    on15 = [e for e in entries if e[4] & (NAVI | NAVI_DL)]
    short = {}
    for name, enc, modes, op, mask in on15:
        fam = SIMPLE_FAMILIES.get(enc)
        if fam in SHORT_VOP:
            short[(name, fam)] = (op, not mask & NAVI)
    base = defaultdict(set)
    vop3_forms = []
    unknown = []
    for name, enc, modes, op, mask in on15:
        only151 = not mask & NAVI
        if enc in VOP3_ENCODINGS:
            forms = [(n, f) for (n, f) in short if n == name]
            if forms:
                for n, f in forms:
                    vop3_forms.append((name, f, short[(n, f)][0], op, enc))
                continue
            base[(name, "vop3")].add((op, only151, enc, ""))
            continue
        if enc == "GCNENC_FLAT":
            base[(name, flat_segment(modes))].add((op, only151, enc, ""))
            continue
        fam = SIMPLE_FAMILIES.get(enc)
        if fam is None:
            unknown.append((name, enc))
            continue
        base[(name, fam)].add((op, only151, enc, "|".join(modes)))
    conflicts = {k: v for k, v in base.items() if len({(o, s) for o, s, _, _ in v}) > 1}
    result = {}
    for key, values in base.items():
        op, only151, enc, modes = sorted(values)[0]
        result[key] = (op, only151, enc, modes.split("|") if modes else [])
    return result, vop3_forms, conflicts, unknown


# --------------------------------------------------------------------------
# Our table

# GCN 1.5 rows whose 1.5 opcode is LLVM's, not CLRX's (CLRX lacks them):
# the float atomics of MUBUF and MIMG, and LLVM's name of s_waitcnt_decptr.
BEYOND_CLRX = {
    "buffer_atomic_fcmpswap", "buffer_atomic_fmin", "buffer_atomic_fmax",
    "buffer_atomic_fcmpswap_x2", "buffer_atomic_fmin_x2", "buffer_atomic_fmax_x2",
    "image_atomic_fcmpswap", "image_atomic_fmin", "image_atomic_fmax",
    "s_waitcnt_depctr",
}

class Row:
    def __init__(self, path, index, line, family, section_flags):
        self.path = path
        self.index = index
        self.line = line
        self.family = family
        code = line.split("#", 1)[0]
        main, _, flags = code.partition("|")
        tokens = main.split()
        self.mnemonic = tokens[0]
        self.columns = tokens[1:7]
        self.operands = tokens[7:]
        self.flags = section_flags.split() + flags.split()

    def has(self, flag):
        return flag in self.flags

    def older(self):
        """The opcodes of GCN 1.0 .. 1.4 (None where `-`)."""
        return [None if c == "-" else int(c, 0) for c in self.columns[:4]]

    def gcn15(self):
        c = self.columns[4]
        return None if c == "-" else int(c, 0)

    def only15(self):
        return all(c is None for c in self.older()) and self.gcn15() is not None

    def beyond_clrx(self):
        """A GCN 1.5 opcode CLRX does not have, from LLVM (see BEYOND_CLRX)."""
        return self.mnemonic in BEYOND_CLRX

    def where(self):
        return f"{os.path.basename(self.path)}:{self.index + 1}"


def read_table():
    files = sorted(
        os.path.join(ISA_DIR, f) for f in os.listdir(ISA_DIR) if f.endswith(".isa")
    )
    texts = {}
    rows = []
    for path in files:
        with open(path) as f:
            lines = f.read().split("\n")
        texts[path] = lines
        family = None
        section_flags = ""
        for index, line in enumerate(lines):
            code = line.split("#", 1)[0].strip()
            if not code:
                continue
            if code.startswith("["):
                family = code[1 : code.index("]")]
                rest = code[code.index("]") + 1 :].strip()
                section_flags = rest[1:].strip() if rest.startswith("|") else ""
                continue
            rows.append(Row(path, index, line, family, section_flags))
    return texts, rows


def sdwa_dpp_flags(modes):
    """The `no_sdwa`/`no_dpp` flags a CLRX VOP entry's mode implies on GCN
    1.5 (GCN_VOP_NOSDWAVEGA is for GCN 1.4 only)."""
    flags = set()
    if "GCN_VOP_NOSDWA" in modes or "GCN_VOP_NODPPSDWA" in modes:
        flags.add("no_sdwa")
    if "GCN_VOP_NODPP" in modes or "GCN_VOP_NODPPSDWA" in modes:
        flags.add("no_dpp")
    return flags


def pick_target(rows, clrx_flags=None):
    """The row of one mnemonic and family that carries its GCN 1.5 opcode:
    a row written for GCN 1.5 only, else the newest of the older rows (the
    GCN 1.4 row, else 1.2, 1.1, 1.0). Among older rows with the same
    operands, one whose `no_sdwa`/`no_dpp` flags agree with CLRX's GCN 1.5
    entry comes first (`v_mac_f32`: GCN 1.5 has SDWA again)."""
    usable = [r for r in rows if not r.has("gcn141")]
    only15 = [r for r in usable if r.only15()]
    if only15:
        return only15, "1.5-only row"
    if clrx_flags is not None and len({tuple(r.operands) for r in usable}) == 1:
        agree = [
            r for r in usable
            if {f for f in r.flags if f in ("no_sdwa", "no_dpp")} == clrx_flags
        ]
        if agree and len(agree) < len(usable):
            usable = agree
    for column, why in ((3, "1.4 row"), (2, "1.2 row"), (1, "1.1 row"), (0, "1.0 row")):
        found = [r for r in usable if r.older()[column] is not None]
        if found:
            # Prefer a row that is not an alias of another name.
            plain = [r for r in found if not r.has("alias")]
            return (plain or found), why
    return [], "no usable row"


def fmt(op):
    return f"{op:#x}"


# The opcode columns' layout: left-aligned 7-character columns after a
# 29-character mnemonic (scalar.isa, smem.isa, vector.isa), or right-aligned
# 6-character columns after a 30-character mnemonic (memory.isa).
RIGHT_ALIGNED = {"memory.isa"}
FULL_ROW = re.compile(r"^\s*(\S+)" + r"\s+(\S+)" * 6 + r"(.*)$")


def set_column(line, value, right_aligned):
    """The row `line` with `value` in its 1.5 column, the five opcode
    columns re-aligned (the rest of the line is kept)."""
    m = FULL_ROW.match(line)
    if not m:
        raise ValueError(f"cannot find the opcode columns in: {line}")
    mnemonic = m.group(1)
    # the RDNA 2 column (rdna2_column.py's) is kept as it is
    columns = [m.group(i) for i in range(2, 6)] + [value, m.group(7)]
    rest = m.group(8).strip()
    width = 30 if right_aligned else 29
    head = mnemonic.ljust(width) if len(mnemonic) < width else mnemonic + " "
    if right_aligned:
        head += "".join(c.rjust(6) for c in columns)
        gap = "  "
    else:
        head += "".join(c.ljust(7) for c in columns)
        gap = ""
    if not rest:
        return head.rstrip()
    if rest.startswith("|") or rest.startswith("#"):
        return head.rstrip() + " " + rest
    return head + gap + rest


# --------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clrx", default=DEFAULT_CLRX, help="CLRX source tree")
    ap.add_argument("--write", action="store_true", help="rewrite the 1.5 column")
    ap.add_argument("--quiet", action="store_true", help="only the summary")
    args = ap.parse_args()

    entries = read_clrx(args.clrx)
    clrx15, vop3_forms, conflicts, unknown = gcn15_entries(entries)
    texts, rows = read_table()

    by_key = defaultdict(list)
    for r in rows:
        by_key[(r.mnemonic, r.family)].append(r)

    problems = []

    def problem(msg):
        problems.append(msg)

    # 1. VOP3 forms against the derivation.
    mismatches = []
    for name, fam, op, op3, enc in sorted(vop3_forms):
        want = vop3_of(fam, op)
        if want != op3:
            mismatches.append(
                f"{name}: CLRX {fam.upper()} {op:#x} has {enc[7:]} {op3:#x}, "
                f"derivation gives {'none' if want is None else fmt(want)}"
            )
    # VOP2/VOP1/VOPC entries without a VOP3 entry (no VOP3 form in CLRX).
    with_vop3 = {(n, f) for n, f, _, _, _ in vop3_forms}
    no_vop3 = sorted(
        k for k in clrx15 if k[1] in ("vop2", "vop1", "vopc") and k not in with_vop3
    )

    # 2. The target row of each CLRX entry.
    want = {}  # id(row) -> opcode
    unplaced = []
    for (name, fam), (op, only151, enc, modes) in sorted(clrx15.items()):
        candidates = by_key.get((name, fam), [])
        vop = fam in ("vop2", "vop1", "vopc")
        targets, why = pick_target(candidates, sdwa_dpp_flags(modes) if vop else None)
        if not targets:
            other = sorted({r.family for r in rows if r.mnemonic == name})
            unplaced.append((name, fam, op, only151, other))
            continue
        if len(targets) > 1:
            problem(
                f"{name} [{fam}]: {len(targets)} candidate rows ({why}): "
                + ", ".join(t.where() for t in targets)
            )
        target = targets[0]
        want[id(target)] = op
        if only151 and not target.has("gcn151"):
            problem(f"{target.where()}: {name} exists only on GCN 1.5.1 (CLRX): needs `gcn151`")
        if not only151 and target.has("gcn151"):
            problem(f"{target.where()}: {name} is on GCN 1.5 too (CLRX), but has `gcn151`")

    for (name, fam), values in sorted(conflicts.items()):
        problem(f"{name} [{fam}]: CLRX has several GCN 1.5 opcodes: {sorted(values)}")

    # 3. Rows that claim GCN 1.5 and CLRX does not know there.
    for r in rows:
        if r.only15() and id(r) not in want and not r.has("gcn141") and not r.beyond_clrx():
            problem(f"{r.where()}: {r.mnemonic} [{r.family}] is a 1.5-only row, CLRX has no such GCN 1.5 entry")
        if r.has("gcn151") and not r.only15():
            problem(f"{r.where()}: {r.mnemonic}: a `gcn151` row must have only the 1.5 column")

    # The assembler takes the first row of a mnemonic that has an opcode for
    # the version: one row per mnemonic may have a GCN 1.5 (or 1.5.1) opcode.
    per_name = defaultdict(list)
    for r in rows:
        if id(r) in want:
            per_name[(r.mnemonic, r.has("gcn151"))].append(r)
    for (name, _), found in sorted(per_name.items()):
        if len(found) > 1:
            problem(f"{name}: several rows get a GCN 1.5 opcode: " + ", ".join(r.where() for r in found))

    # 4. Several names of one opcode on GCN 1.5 (per family): the name the
    # disassembler prints is the row without `alias` (the alphabetically
    # first when several have none), as README.md says.
    shared = defaultdict(list)
    for r in rows:
        op = want.get(id(r))
        if op is not None:
            shared[(r.family, op, r.has("gcn151"))].append(r)
    alias_groups = []
    for (fam, op, _), group in sorted(shared.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        if len(group) < 2:
            continue
        names = sorted(r.mnemonic for r in group)
        plain = sorted(r.mnemonic for r in group if not r.has("alias"))
        printed = (plain or names)[0]
        alias_groups.append(f"[{fam}] {fmt(op)}: {' '.join(names)} -> prints {printed}")

    # 5. Compare / write.
    changes = []
    for r in rows:
        new = want.get(id(r))
        old = r.gcn15()
        if r.beyond_clrx() and new is None:
            want[id(r)] = new = old
        if new != old:
            changes.append((r, old, new))
    if args.write:
        # Every row is rewritten, so that the columns stay aligned.
        for r in rows:
            new = want.get(id(r))
            lines = texts[r.path]
            lines[r.index] = set_column(
                lines[r.index],
                "-" if new is None else fmt(new),
                os.path.basename(r.path) in RIGHT_ALIGNED,
            )
        for path, lines in texts.items():
            with open(path, "w") as f:
                f.write("\n".join(lines))

    # 6. Report.
    out = sys.stdout
    filled = sum(1 for r in rows if id(r) in want)
    only15_rows = [r for r in rows if r.only15() and id(r) in want]
    print(f"CLRX GCN 1.5/1.5.1 entries: {len([e for e in entries if e[4] & (NAVI | NAVI_DL)])} "
          f"({len(clrx15)} instructions by family, {len(vop3_forms)} VOP3 forms of VOP2/VOP1/VOPC)", file=out)
    print(f"rows with a GCN 1.5 opcode: {filled} (of {len(rows)}); "
          f"rows written for GCN 1.5 only: {len(only15_rows)} "
          f"({sum(1 for r in only15_rows if r.has('gcn151'))} of them gcn151); "
          f"rows of older versions without a GCN 1.5 opcode: "
          f"{sum(1 for r in rows if not r.only15() and id(r) not in want)}", file=out)
    if not args.quiet:
        if mismatches:
            print(f"\nVOP3 forms that differ from the derivation ({len(mismatches)}):", file=out)
            for m in mismatches:
                print(f"  {m}", file=out)
        else:
            print("\nVOP3 forms: all agree with the derivation (VOPC = op, VOP2 = 0x100 + op, VOP1 = 0x180 + op)", file=out)
        if no_vop3:
            print(f"\nVOP2/VOP1/VOPC instructions without a VOP3 form in CLRX ({len(no_vop3)}): "
                  + " ".join(n for n, _ in no_vop3), file=out)
        if unknown:
            print(f"\nCLRX entries of no family ({len(unknown)}): "
                  + " ".join(f"{n}({e})" for n, e in unknown), file=out)
        if alias_groups:
            print(f"\nopcodes with several names on GCN 1.5 ({len(alias_groups)}):", file=out)
            for g in alias_groups:
                print(f"  {g}", file=out)
    if unplaced:
        print(f"\nCLRX GCN 1.5 instructions without a row ({len(unplaced)}):", file=out)
        for name, fam, op, only151, other in unplaced:
            extra = f" (rows in: {', '.join(other)})" if other else ""
            print(f"  [{fam}] {name} {fmt(op)}{' gcn151' if only151 else ''}{extra}", file=out)
    if problems:
        print(f"\nproblems ({len(problems)}):", file=out)
        for p in problems:
            print(f"  {p}", file=out)
    if changes:
        verb = "changed" if args.write else "differ"
        print(f"\n1.5 column: {len(changes)} rows {verb}", file=out)
        if not args.quiet and not args.write:
            for r, old, new in changes[:40]:
                print(f"  {r.where()} {r.mnemonic}: {old if old is None else fmt(old)} -> "
                      f"{new if new is None else fmt(new)}", file=out)
    else:
        print("\n1.5 column: up to date", file=out)
    bad = bool(unplaced or problems or (changes and not args.write))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
