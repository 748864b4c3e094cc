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
import random, subprocess, sys, os, difflib
random.seed(int(sys.argv[1])); N=int(sys.argv[2])
CLRX=os.environ.get('CLRXASM','/work/clrx-build/programs/clrxasm')
DIS=os.environ.get('CLRXDISASM','/work/clrx-build/programs/clrxdisasm')
OURS=os.environ.get('GCNASM','target/release/gcnasm')
D=os.environ.get('FUZZ_DIR','/tmp/fz4'); os.makedirs(D,exist_ok=True)
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
def dis(p,o): return subprocess.run([DIS,o,p],capture_output=True,text=True).stdout.split('\n',1)[-1]
bad=tested=0
for i in range(N):
    src=source(); p=f'{D}/c{i}.s'; open(p,'w').write(src)
    r1=subprocess.run([CLRX,'-b','rocm','-o',D+'/t.co',p],capture_output=True,text=True)
    r2=subprocess.run([OURS,'-b','rocm','-o',D+'/o.co',p],capture_output=True,text=True)
    if r1.returncode or r2.returncode:
        if (r1.returncode==0)!=(r2.returncode==0):
            bad+=1; print(f'== c{i}: clrx rc={r1.returncode} ours rc={r2.returncode}\n clrx: {r1.stderr[:300]}\n ours: {r2.stderr[:300]}')
        continue
    tested+=1
    for o in ['-a','-aC']:
        a=dis(D+'/o.co',o); b=dis(D+'/t.co',o)
        if a!=b:
            bad+=1; print(f'== c{i} {o}:'); print('\n'.join(list(difflib.unified_diff(a.split('\n'),b.split('\n'),lineterm='',n=0))[:10])); break
    else:
        # compare bytes except comment: compare via readelf symbols
        s1=subprocess.run(['readelf','-sW',D+'/o.co'],capture_output=True,text=True).stdout
        s2=subprocess.run(['readelf','-sW',D+'/t.co'],capture_output=True,text=True).stdout
        r1=subprocess.run(['readelf','-rW',D+'/o.co'],capture_output=True,text=True).stdout
        r2=subprocess.run(['readelf','-rW',D+'/t.co'],capture_output=True,text=True).stdout
        if s1!=s2 or r1!=r2:
            bad+=1; print(f'== c{i} symbols/relocs differ'); print('\n'.join(list(difflib.unified_diff(s1.split('\n'),s2.split('\n'),lineterm='',n=0))[:12]))
print('tested',tested,'bad',bad)
