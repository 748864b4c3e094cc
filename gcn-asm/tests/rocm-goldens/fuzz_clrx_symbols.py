#!/usr/bin/env python3
"""Differential fuzzer, symbol mode: random `.rocm` sources with kernels,
`.fkernel`s, `.globaldata` and `.text` globals, `.gotsym` of them in random
order, and `.kcode`, in the old, .newbinfmt and .llvm10binfmt formats,
assembled by clrxasm and by gcnasm; the objects must read the same under
clrxdisasm -a/-aC and have the same symbols and relocations (readelf).

Usage: fuzz_clrx_symbols.py SEED COUNT (files in $FUZZ_DIR, default
/tmp/fz4; CLRXASM, CLRXDISASM, GCNASM name the programs). .gotsym under
.llvm10binfmt differs on purpose (see known-differences.txt).
"""
import os, random, sys

from fuzz_clrx import compare_many
def source():
    gpu=random.choice(['gfx803','gfx900','hawaii','fiji','gfx906','tonga'])
    fmt=random.choice(['old','new','llvm10v3'])
    nk=random.randrange(1,4)
    L=['.rocm',f'.gpu {gpu}']
    if fmt=='new': L.append('.newbinfmt')
    if fmt=='llvm10v3': L+=['.llvm10binfmt','.metadatav3','.eflags 0x2c']
    names=[f'k{i}' for i in range(nk)]
    globs=[f'g{i}' for i in range(random.randrange(0,5))]
    tglobs=[f't{i}' for i in range(random.randrange(0,3))]
    for n in names:
        L.append(f'.kernel {n}')
        fk = random.random()<0.2 and fmt!='llvm10v3'
        if fk: L.append('    .fkernel')
        L.append('    .config'); L.append('        .dims x')
        L.append('        .use_kernarg_segment_ptr')
        if fmt=='llvm10v3': L.append(f'        .md_symname "{n}.kd"')
        if random.random()<0.5:
            L.append('        .arg a, "float*", 8, '+('0' if fmt=='llvm10v3' else '')+', globalbuf, f32, global, default')
    L.append('.globaldata')
    if fmt=='llvm10v3': L.append(f'        .skip {64*nk}')
    for g in globs:
        if random.random()<0.7: L.append(f'.global {g}')
        L.append(f'{g}:'); L.append(f'        .int {random.randrange(100)}')
    L.append('.text')
    gs=names+globs+tglobs
    for s in random.sample(gs, random.randrange(0,len(gs)+1)):
        if s in globs and random.random()<0.3: continue
        if s in names: L.append(f'.global {s}')
        L.append(f'.gotsym {s}' + (f', {s}got' if random.random()<0.5 else ''))
    for t in tglobs: L.append(f'.global {t}')
    for n in names:
        L.append(f'{n}:')
        if fmt!='llvm10v3': L.append('        .skip 256')
        L.append(f'        s_mov_b32 s{random.randrange(20)}, {random.randrange(100)}')
        L.append('        s_endpgm'); L.append('        .p2align 8')
    for t in tglobs:
        L.append(f'{t}:'); L.append('        s_setpc_b64 s[30:31]')
    if random.random()<0.5:
        L.append('.kcode '+','.join(random.sample(names,random.randrange(1,nk+1))))
        L.append(f'        v_mov_b32 v{random.randrange(50)}, 0')
        L.append('.kcodeend')
    return '\n'.join(L)+'\n'
if __name__ == '__main__':
    random.seed(int(sys.argv[1]))
    compare_many(source, int(sys.argv[2]), os.environ.get('FUZZ_DIR', '/tmp/fz4'), symbols=True)
