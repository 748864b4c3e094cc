#!/usr/bin/env python3
"""Differential checks of the GCN 1.5 and RDNA 2 rows of the ISA table, line
by line: random operand lines for every row, assembled by gcnasm and by
clrxasm (GCN 1.5; default) or llvm-mc-15 (`--llvm`, the device from $DEV,
default gfx1030); `--mem` for the memory families, `--wave32` for wave32.
Prints the lines that differ and "N/M agree".

With KEEP=FILE, the lines on which gcnasm and llvm-mc agree are appended to
FILE as `LINE<TAB>HEX`: that is how llvm-mc-wave64.tsv (seeds 31 and 32,
and 33 with --mem) and llvm-mc-wave32.tsv (seed 34 with --wave32) were made:
  KEEP=x.tsv DEV=gfx1030 make_cases.py 31 1 --llvm
CLRXASM and GCNASM name the programs; ISA_DIR the table (gcn-asm/isa)."""
import os, random, re, subprocess, sys, glob, tempfile
HERE = os.path.dirname(os.path.abspath(__file__))
CLRX = os.environ.get('CLRXASM', '/work/clrx-build/programs/clrxasm')
OURS = os.environ.get('GCNASM', os.path.join(HERE, '../../../../target/release/gcnasm'))
ISA_DIR = os.environ.get('ISA_DIR', os.path.join(HERE, '../../../isa'))
rows = []
for f in glob.glob(os.path.join(ISA_DIR, '*.isa')):
    enc = None
    for line in open(f):
        body = line.split('#')[0].rstrip()
        if not body.strip(): continue
        m = re.match(r'\s*\[(\w+)\]', body)
        if m: enc = m.group(1); continue
        main, _, fl = body.partition('|')
        t = main.split()
        col = 6 if '--llvm' in sys.argv else 5
        if t[col] == '-': continue
        rows.append((t[0], enc, t[7:], fl.split()))
rnd = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
wave32 = '--wave32' in sys.argv
ALU = {'sop2','sop1','sopk','sopc','sopp','vop2','vop1','vopc','vop3','vop3p','smem'}
MEM = {'ds','mubuf','mtbuf','mimg','flat','global','scratch'}
if '--mem' in sys.argv: ALU = MEM
DIMS = {'1d':(1,2),'2d':(2,4),'3d':(3,6),'cube':(3,4),'1d_array':(2,2),'2d_array':(3,4),'2d_msaa':(3,4),'2d_msaa_array':(4,4)}
def mem_line(name, enc, ops, fl):
    out = []; mods = []
    if enc == 'mimg':
        dim = rnd.choice(list(DIMS)); n, d = DIMS[dim]
        sample = [f for f in fl if f.startswith('sample:')]
        parts = sample[0][7:].split('+') if sample else []
        extra = sum(p in ('c','cl','l','b','o') for p in parts) + ('mip' in fl)
        na = n + extra + (d if 'deriv' in fl else 0)
        dmask = rnd.choice([1, 3, 5, 15])
        comps = 4 if 'gather4' in fl else bin(dmask).count('1')
        d16 = rnd.random() < 0.2
        if d16: comps = (comps + 1) // 2
        tfe = rnd.random() < 0.2
        out.append(regs('v', comps + tfe))
        if rnd.random() < 0.4 and na > 1:
            out.append('[' + ', '.join(f'v{rnd.randrange(0,250)}' for _ in range(na)) + ']')
        else:
            out.append(regs('v', na))
        out.append(regs('s', 8) if rnd.random() < 0.8 else regs('s', 4) + ' ')
        r128 = out[-1].endswith(' ')
        if any(o.startswith('ssamp') for o in ops): out.append(regs('s', 4))
        mods = [(f'dim:SQ_RSRC_IMG_{dim.upper()}' if LLVM else f'dim:{dim}'), f'dmask:{dmask}']
        if 'store' in fl or 'atomic' in fl or any(f.startswith('atomic') for f in fl): mods.append('unorm')
        if r128: mods.append('r128')
        if d16: mods.append('d16')
        if tfe: mods.append('tfe')
        mods += rnd.sample(['glc', 'slc', 'dlc', 'lwe', 'da', 'unorm'], rnd.randrange(0, 3))
        return name + ' ' + ', '.join(o.strip() for o in out) + ' ' + ' '.join(dict.fromkeys(mods))
    for spec in ops:
        field = spec.split(':')[0]; n, ty = count(spec)
        if field in ('vdst', 'vdata', 'vdata1'): out.append(regs('v', n))
        elif field == 'vaddr':
            if enc in ('mubuf', 'mtbuf'):
                c = rnd.choice(['', 'offen', 'idxen', 'both'])
                out.append(regs('v', 2 if c == 'both' else 1) if c else rnd.choice(['off', regs('v', 1)]))
                mods += {'': [], 'offen': ['offen'], 'idxen': ['idxen'], 'both': ['offen', 'idxen']}[c]
            elif enc == 'global':
                out.append('@VADDR@')
            elif enc == 'scratch':
                out.append(rnd.choice(['off', regs('v', 1)]))
            else: out.append(regs('v', n))
        elif field == 'srsrc': out.append(regs('s', 4))
        elif field == 'soffset': out.append(rnd.choice([regs('s', 1), '0', '1', 'm0', 'null', '-3']))
        elif field == 'saddr':
            if enc == 'global':
                if rnd.random() < 0.5: out.append('off'); sa = False
                else: out.append(regs('s', 2)); sa = True
                i = out.index('@VADDR@'); out[i] = regs('v', 1 if sa else 2)
            else:
                out.append('off' if out[-1] != 'off' and rnd.random() < 0.5 else regs('s', 1))
        else: return None
    if enc in ('mubuf', 'mtbuf'):
        mods += rnd.sample(['glc', 'slc', 'dlc', 'offset:' + str(rnd.randrange(0, 4096))], rnd.randrange(0, 3))
        if enc == 'mtbuf': mods.append('format:' + str(rnd.randrange(0, 128)))
        if enc == 'mubuf' and 'load' in fl and rnd.random() < 0.1: mods.append('lds')
    elif enc in ('flat', 'global', 'scratch'):
        mods += rnd.sample(['glc', 'slc', 'dlc', 'offset:' + str(rnd.randrange(0, 2048))], rnd.randrange(0, 3))
    elif enc == 'ds':
        if 'offset2' in fl: mods += ['offset0:' + str(rnd.randrange(0, 256)), 'offset1:' + str(rnd.randrange(0, 256))]
        elif rnd.random() < 0.7: mods.append('offset:' + str(rnd.randrange(0, 65536)))
        if 'gds_only' in fl or rnd.random() < 0.2: mods.append('gds')
    return name + ' ' + ', '.join(out) + ' ' + ' '.join(mods)
def regs(kind, n):
    if kind == 'v':
        b = rnd.randrange(0, 250)
        return f'v{b}' if n == 1 else f'v[{b}:{b+n-1}]'
    al = 1 if n == 1 else (2 if n == 2 else 4)
    b = rnd.randrange(0, 100 - n) // al * al
    return f's{b}' if n == 1 else f's[{b}:{b+n-1}]'
def count(spec):
    name, _, ty = spec.partition(':')
    ty = ty.split('@')[0]
    if '*' in ty:
        ty, c = ty.split('*'); return int(c), ty
    return (2 if ty in ('b64','i64','u64','f64') else 4 if ty=='b128' else 3 if ty=='b96' else 8 if ty=='b256' else 16 if ty=='b512' else 1), ty
def src(n, ty, vector_ok=True, literal_ok=True):
    c = rnd.random()
    if vector_ok and c < 0.35: return regs('v', n)
    if c < 0.55: return regs('s', n)
    if c < 0.7: return rnd.choice(['0', '1', '-3', '64', '-16', '0.5', '-4.0', '1.0'])
    if c < 0.8 and literal_ok: return rnd.choice(['1234', '0x3f1', '-777', '1.5e3'])
    if n == 1: return rnd.choice(['vcc_lo', 'exec_lo', 'm0', 'null', 'vcc_hi'])
    return rnd.choice(['vcc', 'exec', 'null'])
def line_for(name, enc, ops, fl):
    out = []
    for spec in ops:
        field = spec.split(':')[0]
        n, ty = count(spec)
        if field == 'vdst': out.append(regs('v', n))
        elif field in ('sdst',):
            if enc.startswith('vop') and n == 2:
                out.append('vcc_lo' if wave32 else rnd.choice(['vcc', regs('s', 2)]))
            else: out.append(regs('s', n))
        elif field in ('src0','src1','src2'):
            out.append(src(n, ty, True, enc in ('vop3','vop3p') or field == 'src0'))
        elif field == 'ssrc2':
            out.append(('vcc_lo' if wave32 else 'vcc') if rnd.random() < 0.5 else regs('s', 1 if wave32 else 2))
        elif field in ('vsrc0','vsrc1'): out.append(regs('v', n))
        elif field in ('ssrc0','ssrc1'): out.append(src(n, ty, False))
        elif field in ('simm16','imm16'): out.append(str(rnd.randrange(0, 0x7fff)))
        elif field == 'lit32': out.append(rnd.choice(['1.5', '0x12345']))
        elif field == 'hwreg': out.append('hwreg(' + rnd.choice(['mode','status','trapsts','flat_scr_lo','xnack_mask','pops_packer','hw_id']) + ', 2, 7)')
        elif field == 'waitcnt': out.append(rnd.choice(['vmcnt(3) & lgkmcnt(17)', 'expcnt(2)', 'lgkmcnt(63)', '0x1234']))
        elif field == 'sendmsg': out.append(rnd.choice(['sendmsg(interrupt)', 'sendmsg(gs, emit, 1)', 'sendmsg(savewave)', '12']))
        elif field == 'reladdr': out.append('.+' + str(4*rnd.randrange(1, 50)))
        elif field in ('sdata',): out.append(regs('s', n))
        elif field == 'sbase': out.append(regs('s', n))
        elif field == 'soffset': out.append(rnd.choice([str(rnd.randrange(0, 0xfffff)), regs('s',1), 'm0']))
        else: return None
    text = name + ' ' + ', '.join(out)
    if enc in ('vop2','vop1','vopc') and rnd.random() < 0.5:
        text += ' ' + rnd.choice(['vop3', 'clamp', 'mul:2', 'dst_sel:word1 src0_sel:byte2', 'quad_perm:[1,0,3,2] bank_mask:3', 'row_share:5', 'dpp8:[7,6,5,4,3,2,1,0]', 'row_xmask:3 fi', 'sext(0)'])
    if enc == 'vop3' and rnd.random() < 0.3:
        text += ' ' + rnd.choice(['clamp', 'mul:4', 'div:2', 'op_sel:[1,0,1]'])
    if enc == 'smem' and rnd.random() < 0.3:
        text += ' ' + rnd.choice(['glc', 'dlc', 'glc dlc'])
    return text
LLVM = '--llvm' in sys.argv
def run(tool, path, dev):
    if tool == CLRX and LLVM:
        attr = '-mattr=+wavefrontsize32' if wave32 else '-mattr=+wavefrontsize64,-wavefrontsize32'
        r = subprocess.run(['llvm-mc-15', '-arch=amdgcn', f'-mcpu={dev}', attr, '-show-encoding', path], capture_output=True, text=True)
        if r.returncode != 0 or 'error' in r.stderr:
            return None, r.stderr
        enc = re.findall(r'encoding: \[([^\]]*)\]', r.stdout)
        return bytes(int(x, 16) for e in enc for x in e.split(',')), r.stderr
    with tempfile.NamedTemporaryFile(suffix='.bin', delete=False) as o: out = o.name
    target = ['-A', 'gcn1.5.1'] if (dev == 'gfx1011' and tool == CLRX) else ['-g', dev]
    args = [tool] + target + ['-b', 'rawcode', '-o', out, path]
    if wave32: args.insert(1, '--wave32')
    r = subprocess.run(args, capture_output=True, text=True)
    data = open(out,'rb').read() if r.returncode == 0 and os.path.exists(out) else None
    if os.path.exists(out): os.unlink(out)
    return data, r.stderr
count_n = int(sys.argv[2]) if len(sys.argv) > 2 else 3
bad = 0; total = 0
for name, enc, ops, fl in rows:
    if enc not in ALU: continue
    dev = 'gfx1011' if 'gcn151' in fl else 'gfx1010'
    if LLVM: dev = os.environ.get('DEV', 'gfx1030')
    carch = ['-A', 'gcn1.5.1'] if 'gcn151' in fl else ['-g', 'gfx1010']
    for _ in range(count_n):
        text = mem_line(name, enc, ops, fl) if enc in MEM else line_for(name, enc, ops, fl)
        if text is None: continue
        with tempfile.NamedTemporaryFile('w', suffix='.s', delete=False) as f:
            f.write(text + '\n'); path = f.name
        a, ae = run(CLRX, path, dev); b, be = run(OURS, path, dev)
        os.unlink(path); total += 1
        if a == b and a is not None and LLVM and os.environ.get('KEEP'):
            with open(os.environ['KEEP'], 'a') as k:
                k.write(f'{text}\t{a.hex()}\n')
        if a != b:
            bad += 1
            def show(d, e): return d.hex() if d is not None else 'ERR ' + e.strip().splitlines()[-1][:150] if e.strip() else 'ERR'
            print(f'{text}\n    clrx: {show(a, ae)}\n    ours: {show(b, be)}')
print(f'{total-bad}/{total} agree', file=sys.stderr)
