#!/usr/bin/env python3
"""Converts llc-14's AMDGPU assembly (target amdgcn--, the old Gallium ABI)
into a CLRX-syntax GalliumCompute source that gcnasm (and clrxasm)
assemble.

    llvm2clrx.py GPU KERNEL.ll KERNEL.s OUT.s

KERNEL.ll is the optimised IR that llc compiled (the kernels' signatures and
OpenCL metadata give the argument layout), KERNEL.s what llc printed.

What it does (see README.md):
- `.gallium`, `.gpu`, `.llvm_version 30900` (the last LLVM version of the
  old Gallium format: 5 proginfo entries, as LLVM 14's `.AMDGPU.config`);
- one `.kernel` per kernel with named `.arg`s computed from the IR and a
  `.proginfo` with LLVM's own `.AMDGPU.config` values;
- `.text` with the code: comments and ELF directives removed, waitcnt
  counters joined with `&`, SCRATCH_RSRC_DWORD0/1 as a `.scratchsym`
  expression, `SYM@rel32@lo/hi` (PC-relative references to constant data,
  or to a called function) as differences of `.text` labels (the data is
  placed right after the code, see README.md);
- `.rodata` with program-scope constant data.
"""

import re
import sys

GCN_VERSION = {"tahiti": "1.0", "bonaire": "1.1", "tonga": "1.2", "gfx900": "1.4"}
SCRATCH_SYM = "scratch_rsrc"


class ConvertError(Exception):
    pass


# ---------------------------------------------------------------- IR side

def split_top(text, sep=","):
    """Splits on `sep` outside brackets."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def ir_type_layout(ty):
    """(size, align) of an IR type as LLVM lays out a kernel argument
    (DataLayout alloc size and ABI alignment for amdgcn)."""
    ty = ty.strip()
    m = re.fullmatch(r"(.+?)\s+addrspace\((\d+)\)\s*\*", ty)
    if m:
        space = int(m.group(2))
        size = {1: 8, 4: 8, 0: 8, 3: 4, 5: 4}[space]
        return size, size
    if ty.endswith("*"):
        return 8, 8
    m = re.fullmatch(r"i(\d+)", ty)
    if m:
        n = max(1, int(m.group(1)) // 8)
        return n, n
    base = {"half": 2, "float": 4, "double": 8}
    if ty in base:
        return base[ty], base[ty]
    m = re.fullmatch(r"<(\d+) x (.+)>", ty)
    if m:
        count = int(m.group(1))
        esize, _ = ir_type_layout(m.group(2))
        store = count * esize
        align = 1
        while align < store:
            align *= 2
        return align, align
    raise ConvertError(f"unsupported kernel argument type '{ty}'")


def parse_metadata(ll):
    md = {}
    for m in re.finditer(r"^(![0-9]+) = !\{(.*)\}$", ll, re.M):
        md[m.group(1)] = m.group(2)
    return md


def md_strings(body):
    return re.findall(r'!"([^"]*)"', body)


def md_ints(body):
    return [int(v) for v in re.findall(r"i32 (-?\d+)", body)]


def kernel_args(ll):
    """{kernel: [arg dict]} from the IR."""
    md = parse_metadata(ll)
    kernels = {}
    for m in re.finditer(r"^define .*?amdgpu_kernel void @([\w.]+)\((.*)\)[^(]*?(!kernel_arg.*)\{$", ll, re.M):
        name, params, attrs = m.group(1), m.group(2), m.group(3)
        refs = dict(re.findall(r"!(kernel_arg_\w+) (![0-9]+)", attrs))
        spaces = md_ints(md[refs["kernel_arg_addr_space"]])
        types = md_strings(md[refs["kernel_arg_type"]])
        names = md_strings(md[refs["kernel_arg_name"]])
        args = []
        for k, p in enumerate(split_top(params)):
            # the type is everything before the first attribute / value name
            words = p.split()
            ty_words = []
            for w in words:
                if w in ("noundef", "nocapture", "readonly", "writeonly", "signext", "zeroext",
                         "noalias", "align", "nonnull") \
                        or (w.startswith("%") and ty_words) \
                        or w.startswith("dereferenceable") or w.isdigit():
                    # (a first word "%struct.NAME" is a type)
                    break
                ty_words.append(w)
            ir_ty = " ".join(ty_words)
            size, align = ir_type_layout(ir_ty)
            args.append({"name": names[k], "cl_type": types[k], "space": spaces[k],
                         "ir_type": ir_ty, "size": size, "align": align})
        kernels[name] = args
    return kernels


def align_to(v, a):
    return (v + a - 1) // a * a


SIGNED = {"char", "short", "int", "long"}


def arg_lines(args):
    """The `.arg` lines; checks that Clover's layout (narrow integers widened
    to 4 bytes) is LLVM's."""
    lines = []
    llvm_off = clover_off = 0
    for a in args:
        space, size, align = a["space"], a["size"], a["align"]
        llvm_off = align_to(llvm_off, align)
        cl = a["cl_type"]
        comment = f"# {cl} {a['name']}, byte {36 + llvm_off} of the input buffer"
        if space == 1 or space == 2:
            kind = "global" if space == 1 else "constant"
            tsize = talign = 8
            line = f".arg {a['name']}, {kind}, 8, 8, 8, zext, general"
        elif space == 3:
            tsize = talign = 4
            line = f".arg {a['name']}, local, 4, 4, 4, zext, general"
        elif space == 0:
            tsize = max(size, 4)
            talign = max(align, 4)
            ext = "sext" if cl.rstrip("0123456789") in SIGNED else "zext"
            line = f".arg {a['name']}, scalar, {size}, {tsize}, {talign}, {ext}, general"
        else:
            raise ConvertError(f"argument {a['name']}: address space {space}")
        clover_off = align_to(clover_off, talign)
        if clover_off != llvm_off:
            raise ConvertError(
                f"argument {a['name']} ({cl}): LLVM reads it at byte {llvm_off} of the "
                f"arguments, Clover would write it at {clover_off}")
        lines.append(f"        {line:<52} {comment}")
        llvm_off += size
        clover_off += tsize
    implicit = align_to(llvm_off, 4)
    lines.append(f"        {'.arg griddim':<52} # byte {36 + implicit}: work_dim")
    lines.append(f"        {'.arg gridoffset':<52} # bytes {40 + implicit}..{51 + implicit}: "
                 "global offset x, y, z")
    return lines


# ---------------------------------------------------------------- asm side

DROP_DIRECTIVES = (".globl", ".type", ".size", ".ident", ".amd_amdgpu_isa", ".file",
                   ".addrsig", ".local", ".hidden", ".protected", ".weak",
                   # declares the LDS block LowerModuleLDS made of a kernel's
                   # static __local arrays; the code uses fixed LDS offsets
                   ".amdgpu_lds")
DATA_SIZES = {".byte": 1, ".short": 2, ".hword": 2, ".value": 2, ".long": 4, ".int": 4,
              ".word": 4, ".quad": 8}


def strip_comment(line):
    """Removes a `;` comment (`;` separates statements in CLRX), outside
    string literals."""
    quoted = False
    i = 0
    while i < len(line):
        ch = line[i]
        if quoted and ch == "\\":
            i += 2
            continue
        if ch == '"':
            quoted = not quoted
        elif ch == ";" and not quoted:
            return line[:i].rstrip()
        i += 1
    return line.rstrip()


ESCAPES = {"n": 10, "t": 9, "r": 13, "f": 12, "b": 8, "v": 11, "a": 7, "\\": 92, '"': 34,
           "'": 39}


def string_bytes(lit):
    """The bytes of a GNU as string literal (without the quotes)."""
    out = bytearray()
    i = 0
    while i < len(lit):
        ch = lit[i]
        if ch != "\\":
            out += ch.encode("latin-1")
            i += 1
            continue
        nxt = lit[i + 1]
        if nxt in "01234567":
            j = i + 1
            while j < len(lit) and j < i + 4 and lit[j] in "01234567":
                j += 1
            out.append(int(lit[i + 1:j], 8) & 0xff)
            i = j
        elif nxt == "x":
            j = i + 2
            while j < len(lit) and lit[j] in "0123456789abcdefABCDEF":
                j += 1
            out.append(int(lit[i + 2:j], 16) & 0xff)
            i = j
        else:
            out.append(ESCAPES[nxt])
            i += 2
    return bytes(out)


def convert(gpu, ll_text, s_text):
    args = kernel_args(ll_text)
    section = None
    configs = []  # list of lists of ints, in order
    text = []
    rodata = []
    rodata_off = 0
    rodata_syms = {}
    kernels_in_order = []
    functions = set()  # every function llc defines (.type NAME,@function)
    config_owners = []  # the function each .AMDGPU.config block is for
    pc_labels = 0
    uses_scratch = False
    lines = s_text.splitlines()
    for lineno, raw in enumerate(lines, 1):
        line = strip_comment(raw).strip()
        if not line:
            continue
        word = line.split()[0]
        if word in (".text",):
            section = "text"
            continue
        if word == ".section":
            name = line.split()[1].strip('",')
            if name == ".AMDGPU.config":
                section = "config"
                configs.append([])
            elif name == ".AMDGPU.csdata":
                section = "csdata"
            elif name.startswith(".rodata"):
                section = "rodata"
            elif name.startswith(".note"):
                section = "note"
            else:
                raise ConvertError(f"line {lineno}: unsupported section {name}")
            continue
        if word in (".data", ".bss"):
            raise ConvertError(f"line {lineno}: unsupported section {word}")
        if word == ".type":
            m = re.fullmatch(r"\.type\s+([\w.$]+),\s*@function", line)
            if m:
                functions.add(m.group(1))
        if word in DROP_DIRECTIVES:
            continue
        if section in ("csdata", "note"):
            continue
        if section == "config":
            if word != ".long":
                raise ConvertError(f"line {lineno}: unexpected in .AMDGPU.config: {line}")
            configs[-1].append(int(line.split()[1], 0))
            continue
        if section == "rodata":
            m = re.fullmatch(r"([\w.$]+):", line)
            if m:
                rodata_syms[m.group(1)] = rodata_off
                rodata.append(line)
                continue
            if word == ".p2align":
                a = 1 << int(line.split()[1].rstrip(","))
                rodata_off = align_to(rodata_off, a)
                rodata.append("        " + line)
                continue
            if word in DATA_SIZES:
                n = len(split_top(line[len(word):]))
                rodata_off += n * DATA_SIZES[word]
                rodata.append("        " + line)
                continue
            if word in (".ascii", ".asciz", ".string"):
                lit = line[len(word):].strip()
                if not (lit.startswith('"') and lit.endswith('"')):
                    raise ConvertError(f"line {lineno}: unsupported string: {line}")
                data = string_bytes(lit[1:-1]) + (b"" if word == ".ascii" else b"\0")
                rodata_off += len(data)
                for k in range(0, len(data), 16):
                    rodata.append("        .byte " + ", ".join(
                        f"0x{b:02x}" for b in data[k:k + 16]))
                continue
            if word == ".zero":
                n = int(line.split()[1].rstrip(","), 0)
                rodata_off += n
                rodata.append(f"        .skip {n}")
                continue
            raise ConvertError(f"line {lineno}: unsupported data directive: {line}")
        if section != "text":
            raise ConvertError(f"line {lineno}: outside any section: {line}")
        # .text
        m = re.fullmatch(r"([\w.$]+):", line)
        if m:
            label = m.group(1)
            if label in args:
                kernels_in_order.append(label)
            if label in functions:
                config_owners.append(label)
            text.append(f"{label}:")
            continue
        if word == ".p2align":
            text.append("        " + line)
            continue
        if word.startswith("."):
            raise ConvertError(f"line {lineno}: unsupported directive: {line}")
        text.append("        " + convert_instruction(gpu, line))
        ins = text[-1]
        if "SCRATCH_RSRC_DWORD" in line:
            uses_scratch = True
        m = re.search(r"([\w.$]+)@rel32@(lo|hi)([+-]\d+)?", line)
        if m:
            # value = SYM + A - P, P the address of the 32-bit literal (4
            # bytes into the instruction); SYM lies in .rodata, which
            # follows the code
            # (or, for a call, SYM is a function of .text)
            sym, part, addend = m.group(1), m.group(2), int(m.group(3) or 0)
            label = f".Lpcrel{pc_labels}"
            pc_labels += 1
            text[-1] = f"{label}:"
            if sym in functions:
                expr = f"({sym}+{addend - 4}-{label})"
            else:
                expr = f"(.Ltext_end+ROFF_{sym}+{addend - 4}-{label})"
            expr = expr.replace("+-", "-")
            expr += "&0xffffffff" if part == "lo" else ">>32"
            text.append(ins.replace(m.group(0), expr))
        elif "@" in line:
            raise ConvertError(f"line {lineno}: unsupported relocation: {line}")
    # llc writes an .AMDGPU.config block before every function, called
    # functions too; only the kernels' blocks become .proginfo
    if len(configs) != len(config_owners):
        raise ConvertError(f"{len(configs)} .AMDGPU.config blocks for functions {config_owners}")
    configs = [cfg for owner, cfg in zip(config_owners, configs) if owner in args]

    out = []
    out.append("# Generated by tests/opencl/llvm2clrx.py from llc-14 output: do not edit.")
    out.append(".gallium")
    out.append(f".gpu {gpu}")
    out.append(".llvm_version 30900")
    if uses_scratch:
        out.append(f".scratchsym {SCRATCH_SYM}")
    for name, cfg in zip(kernels_in_order, configs):
        out.append(f".kernel {name}")
        out.append("    .args")
        out.extend(arg_lines(args[name]))
        out.append("    .proginfo")
        for k in range(0, len(cfg), 2):
            out.append(f"        .entry 0x{cfg[k]:08x}, 0x{cfg[k + 1]:08x}")
    out.append(".text")
    body = "\n".join(text)
    for sym, off in rodata_syms.items():
        body = re.sub(rf"ROFF_{re.escape(sym)}\b", str(off), body)
    if "ROFF_" in body:
        raise ConvertError("reference to an unknown constant symbol: "
                           + re.search(r"ROFF_[\w.$]+", body).group(0))
    out.append(body)
    out.append("# constant data (.rodata) is placed right after the code")
    out.append(".Ltext_end:")
    if rodata:
        out.append(".rodata")
        out.extend(rodata)
    return "\n".join(out) + "\n", kernels_in_order


def convert_instruction(gpu, line):
    ins = re.sub(r"\s+", " ", line.strip())
    op = ins.split()[0]
    if op == "buffer_wbinvl1_vol" and gpu.lower() == "bonaire":
        # MUBUF opcode 0x70 of GCN 1.1: LLVM calls it buffer_wbinvl1_vol,
        # CLRX buffer_wbinvl1_sc (its GCN 1.0 name)
        ins = "buffer_wbinvl1_sc" + ins[len(op):]
    if op == "s_waitcnt":
        rest = ins[len(op):].strip()
        counters = rest.split()
        ins = f"{op} " + " & ".join(counters)
    ins = ins.replace("SCRATCH_RSRC_DWORD0", f"{SCRATCH_SYM}&0xffffffff")
    ins = ins.replace("SCRATCH_RSRC_DWORD1", f"{SCRATCH_SYM}>>32")
    return ins


def main():
    gpu, ll_path, s_path, out_path = sys.argv[1:5]
    with open(ll_path) as f:
        ll = f.read()
    with open(s_path) as f:
        s = f.read()
    try:
        text, _ = convert(gpu, ll, s)
    except ConvertError as e:
        sys.exit(f"llvm2clrx: {s_path}: {e}")
    with open(out_path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
