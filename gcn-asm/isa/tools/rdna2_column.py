#!/usr/bin/env python3
"""Fills the RDNA 2 (gfx1030) opcode column of the ISA table from the GCN 1.5
column: RDNA 2 keeps GCN 1.5.1's opcodes, drops the instructions below, and
adds the rows at the end of each family (written by hand in the .isa files
with only the RDNA 2 column).

The deltas come from LLVM 15 (`llvm-mc-15 -mcpu=gfx1030`, checked against
`-mcpu=gfx1010` opcode by opcode by `opscan.py`-style disassembly and by
assembling each instruction): the scalar stores, scalar atomics and scalar
scratch instructions, `s_dcache_wb`, `s_dcache_discard*`,
`s_get_waveid_in_workgroup` and the MAD/MAC family are gone.

Usage: rdna2_column.py [--write]   (without --write: check, exit 1 on a
difference)."""
import glob, os, re, sys
HERE = os.path.dirname(os.path.abspath(__file__))
REMOVED_PREFIXES = ('s_store_', 's_buffer_store_', 's_scratch_', 's_atomic_', 's_buffer_atomic_')
REMOVED = {'s_dcache_wb', 's_dcache_discard', 's_dcache_discard_x2', 's_get_waveid_in_workgroup',
           'v_mac_f32', 'v_mad_f32', 'v_madmk_f32', 'v_madak_f32', 'v_mac_legacy_f32',
           'v_mad_legacy_f32'}
def removed(name):
    return name in REMOVED or name.startswith(REMOVED_PREFIXES)
bad = False
for path in sorted(glob.glob(os.path.join(HERE, '..', '*.isa'))):
    lines = open(path).read().split('\n')
    has_column = any(l.startswith('# mnemonic') and 'rdna2' in l for l in lines)
    out = []
    for line in lines:
        body = line.split('#')[0]
        if line.startswith('# mnemonic') and not has_column:
            line = re.sub(r'(1\.5)(\s+)', r'\1  rdna2\2', line, count=1)
        if not body.strip() or body.strip().startswith('['):
            out.append(line); continue
        toks = list(re.finditer(r'\S+', line))
        name = toks[0].group()
        col15 = toks[5].group()
        want = '-' if removed(name) else col15
        if has_column:
            # check: a row with a GCN 1.5 opcode has the derived RDNA 2 one
            have = toks[6].group()
            if col15 != '-' and have != want:
                print(f'{os.path.basename(path)}: {name}: rdna2 {have}, expected {want}')
                bad = True
            out.append(line)
            continue
        end = toks[5].end()
        out.append(line[:end] + f'  {want:>5}' + line[end:])
    if '--write' in sys.argv and not has_column:
        open(path, 'w').write('\n'.join(out))
sys.exit(1 if bad else 0)
