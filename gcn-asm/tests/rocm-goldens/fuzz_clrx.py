#!/usr/bin/env python3
"""Differential fuzzer: random `.rocm` sources (devices, the old, .newbinfmt
and .llvm10binfmt formats, configuration pseudo-ops with random values,
instructions that write registers) assembled by clrxasm and by gcnasm; the
objects must read the same under clrxdisasm -a and -aC.

Usage: fuzz_clrx.py [SEED [COUNT]]   (sources and objects in $FUZZ_DIR,
default /tmp/fz). CLRXASM, CLRXDISASM and GCNASM name the programs.
Sources it finds differing are worth keeping as goldens (random-*.s here
came from it).
"""
import difflib, random, subprocess, sys, os
CLRX=os.environ.get('CLRXASM','/work/clrx-build/programs/clrxasm')
DIS=os.environ.get('CLRXDISASM','/work/clrx-build/programs/clrxdisasm')
OURS=os.environ.get('GCNASM','target/release/gcnasm')

gpus=['tahiti','pitcairn','bonaire','hawaii','kalindi','tonga','iceland','fiji','carrizo','stoney','ellesmere','baffin','gfx804','gfx900','gfx902','gfx904','gfx906','gfx901','gfx905']
# FUZZ_GPUS=gfx1010 (comma-separated) picks the devices instead.
if os.environ.get('FUZZ_GPUS'): gpus=os.environ['FUZZ_GPUS'].split(',')
GCN15=('gfx1010','gfx1000','navi10')
flags=['.use_private_segment_buffer','.use_dispatch_ptr','.use_queue_ptr','.use_kernarg_segment_ptr','.use_dispatch_id','.use_flat_scratch_init','.use_private_segment_size','.use_ordered_append_gds','.use_ptr64','.use_dynamic_call_stack','.use_debug_enabled','.use_xnack_enabled','.tgsize','.ieeemode','.dx10clamp','.debugmode','.privmode','.default_hsa_features']
def val(bits): return random.choice([0,1,2,3,4,7,8,15,16,31,32,63,64,100,128,255,256,1024,4096,65535,(1<<bits)-1,random.randrange(1<<bits)])
def cfgline():
    r=random.random()
    c=random.choice(['dims','sgprsnum','vgprsnum','floatmode','priority','exceptions','localsize','scratchbuffer','userdatanum','pgmrsrc1','pgmrsrc2','codeversion','machine','kernel_code_entry_offset','kernel_code_prefetch_offset','kernel_code_prefetch_size','max_scratch_backing_memory','private_elem_size','gds_segment_size','kernarg_segment_size','workgroup_fbarrier_count','wavefront_sgpr_count','workitem_vgpr_count','reserved_vgprs','reserved_sgprs','kernarg_segment_align','group_segment_align','private_segment_align','wavefront_size','call_convention','runtime_loader_kernel_symbol','use_grid_workgroup_count','flag','flag','flag','group_segment_fixed_size','private_segment_fixed_size'])
    if c=='flag': return random.choice(flags + (['.use_wave32', '.use_wave32', f'.shared_vgprs {random.choice([0, 0, random.randrange(0, 121)])}', f'.pgmrsrc3 {hex(random.randrange(1<<32) & random.choice([0, 0xff, 0xffffffff]))}'] if GPU15 else []))
    if c in ('dims','use_grid_workgroup_count'):
        d=''.join(x for x in 'xyz' if random.random()<0.5)
        if c=='dims' and random.random()<0.3: d+=', '+''.join(x for x in 'xyz' if random.random()<0.5)
        return f'.{c} {d}'
    if c=='sgprsnum': return f'.sgprsnum {random.randrange(0,103)}'
    if c=='vgprsnum': return f'.vgprsnum {random.randrange(0,257)}'
    if c=='userdatanum': return f'.userdatanum {random.randrange(0,17)}'
    if c in ('codeversion',): return f'.codeversion {val(16)}, {val(16)}'
    if c=='machine': return f'.machine {val(8)}, {val(8)}, {val(8)}, {val(8)}'
    if c in ('reserved_vgprs','reserved_sgprs'):
        a=random.randrange(0,50); return f'.{c} {a}, {a+random.randrange(0,40)}'
    if c in ('kernarg_segment_align','group_segment_align','private_segment_align'): return f'.{c} {random.choice([16,32,64,128,256])}'
    if c=='wavefront_size': return f'.wavefront_size {random.choice([1,2,4,16,32,64,128,256])}'
    if c=='private_elem_size': return f'.private_elem_size {random.choice([2,4,8,16])}'
    if c=='localsize' or c=='group_segment_fixed_size': return f'.{c} {random.randrange(0,32769)}'
    if c in ('floatmode',): return f'.floatmode {val(8)}'
    if c=='priority': return f'.priority {random.randrange(4)}'
    if c=='exceptions': return f'.exceptions {val(7)}'
    if c in ('pgmrsrc1','pgmrsrc2'): return f'.{c} {hex(random.randrange(1<<32) & random.choice([0,0xff,0xffff,0xffffffff,0x1b80,0x7f000000]))}'
    return f'.{c} {val(32)}'
instrs=['s_mov_b32 s{a}, s{b}','v_mov_b32 v{a}, v{b}','s_load_dwordx2 s[{a2}:{a2p}], s[4:5], 0x0','v_add_f32 v{a}, v{b}, v{c}','s_add_u32 s{a}, s{b}, 1','v_cmp_eq_u32 vcc, v{a}, v{b}','s_mov_b64 vcc, s[{a2}:{a2p}]','ds_read_b32 v{a}, v{b}','buffer_load_dword v{a}, v{b}, s[0:3], 0 offen','s_mov_b32 m0, -1','v_readfirstlane_b32 s{a}, v{b}','s_waitcnt lgkmcnt(0)','v_cndmask_b32 v{a}, v{b}, v{c}, vcc','v_readlane_b32 s{a}, v{b}, 3','v_writelane_b32 v{a}, s{b}, 3','s_getpc_b64 s[{a2}:{a2p}]','buffer_atomic_add v{a}, v{b}, s[0:3], 0 offen glc','buffer_atomic_add v{a}, v{b}, s[0:3], 0 offen','s_mov_b64 exec, s[{a2}:{a2p}]','s_and_saveexec_b64 s[{a2}:{a2p}], vcc','v_mad_u32_u24 v{a}, v{b}, v{c}, v{a}','ds_write_b32 v{a}, v{b}','v_mac_f32 v{a}, v{b}, v{c}','s_buffer_load_dwordx4 s[{a4}:{a4p}], s[8:11], 0x10','image_load v[{a4v}:{a4vp}], v[0:3], s[8:15] dmask:0xf unorm','v_add_co_u32 v{a}, vcc, v{b}, v{c}' if False else 'v_addc_u32 v{a}, vcc, v{b}, v{c}, vcc','s_mov_b64 flat_scratch, s[{a2}:{a2p}]','s_mov_b64 s[{a2}:{a2p}], xnack_mask' ]
GONE15=('flat_scratch','xnack_mask','image_load','v_addc_u32')
INSTRS15=['.wave32','.nowave32','v_cmp_eq_u32 vcc_lo, v{a}, v{b}','v_add_co_ci_u32 v{a}, vcc_lo, v{b}, v{c}, vcc_lo','s_mov_b32 s{a}, null','v_fmac_f32 v{a}, v{b}, v{c}','s_mov_b32 s104, 1','v_cndmask_b32 v{a}, v{b}, v{c}, s{a}']
def instr(ver9):
    t=random.choice([i for i in instrs if not (GPU15 and any(g in i for g in GONE15))] + (INSTRS15 if GPU15 else []))
    a=random.randrange(0,100); a2=random.randrange(0,48)*2
    a4=random.randrange(0,24)*4
    a4v=random.randrange(0,60)*4
    s=t.format(a4=a4,a4p=a4+3,a4v=a4v,a4vp=a4v+3,a=random.randrange(0,100) if t.startswith('s') else random.randrange(0,256), b=random.randrange(0,100) if t.startswith('s') else random.randrange(0,256), c=random.randrange(0,256), a2=a2, a2p=a2+1)
    return s
GPU15=False
def source():
    global GPU15
    gpu=random.choice(gpus)
    GPU15=gpu in GCN15
    fmt=random.choice(['old','old','new','llvm10v3','llvm10'])
    nk=random.randrange(1,4)
    L=['.rocm',f'.gpu {gpu}']
    if fmt=='new': L.append('.newbinfmt')
    if fmt.startswith('llvm10'):
        L.append('.llvm10binfmt');
        if fmt=='llvm10v3': L.append('.metadatav3')
        L.append('.eflags 0x2c')
    if random.random()<0.3: L.append(f'.arch_minor {random.randrange(3)}')
    if random.random()<0.3: L.append(f'.arch_stepping {random.randrange(10)}')
    if random.random()<0.2: L.append('.tripple "amdgcn-amd-amdhsa-"')
    names=[f'k{i}' for i in range(nk)]
    for n in names:
        L.append(f'.kernel {n}')
        if random.random()<0.15 and fmt in('old','new'): L.append('    .fkernel')
        L.append('    .config')
        for _ in range(random.randrange(0,8)):
            c=cfgline()
            L.append('        '+c)
        if fmt.startswith('llvm10'): L.append(f'        .md_symname "{n}.kd"')
    if fmt.startswith('llvm10') or random.random()<0.3:
        L.append('.globaldata'); L.append(f'        .skip {64*nk if fmt.startswith("llvm10") else 16}')
    L.append('.text')
    for n in names:
        L.append(f'{n}:')
        if not fmt.startswith('llvm10'): L.append('        .skip 256')
        for _ in range(random.randrange(1,6)): L.append('        '+instr(True))
        L.append('        s_endpgm'); L.append('        .p2align 8')
    return '\n'.join(L)+'\n'
def dis(path, opt):
    r = subprocess.run([DIS, opt, path], capture_output=True, text=True)
    return r.stdout.split('\n', 1)[-1]

def readelf(path, opt):
    return subprocess.run(['readelf', opt, path], capture_output=True, text=True).stdout

def diff(a, b, n):
    return '\n'.join(list(difflib.unified_diff(a.split('\n'), b.split('\n'), lineterm='', n=0))[:n])

def compare_many(source, count, directory, symbols=False):
    """Assembles `count` sources from `source()` with both assemblers in
    `directory` and prints what differs: one refusing what the other takes,
    clrxdisasm's -a/-aC text, and with `symbols` readelf's symbols and
    relocations."""
    os.makedirs(directory, exist_ok=True)
    ours, theirs = directory + '/o.co', directory + '/t.co'
    bad = tested = 0
    for i in range(count):
        p = f'{directory}/c{i}.s'
        open(p, 'w').write(source())
        r1 = subprocess.run([CLRX, '-b', 'rocm', '-o', theirs, p], capture_output=True, text=True)
        r2 = subprocess.run([OURS, '-b', 'rocm', '-o', ours, p], capture_output=True, text=True)
        if r1.returncode or r2.returncode:
            if (r1.returncode == 0) != (r2.returncode == 0):
                bad += 1
                print(f'== c{i}: clrx rc={r1.returncode} ours rc={r2.returncode}\n clrx: {r1.stderr[:300]}\n ours: {r2.stderr[:300]}')
            continue
        tested += 1
        for o in ['-a', '-aC']:
            a, b = dis(ours, o), dis(theirs, o)
            if a != b:
                bad += 1
                print(f'== c{i} {o}:')
                print(diff(a, b, 12))
                break
        else:
            if symbols:
                for o in ['-sW', '-rW']:
                    a, b = readelf(ours, o), readelf(theirs, o)
                    if a != b:
                        bad += 1
                        print(f'== c{i} readelf {o} differs')
                        print(diff(a, b, 12))
                        break
    print('tested', tested, 'bad', bad)

if __name__ == '__main__':
    random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    compare_many(source, int(sys.argv[2]) if len(sys.argv) > 2 else 200,
                 os.environ.get('FUZZ_DIR', '/tmp/fz'))
