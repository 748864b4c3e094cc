#!/usr/bin/env python3
"""Scan every opcode of every gfx10 family with llvm-mc-15's disassembler
for two CPUs and print the mnemonic per (family, opcode) for each."""
import subprocess, sys, json
FAM = {
 'sop2': (128, lambda o: [0x80000000 | o << 23 | 4 << 16 | 8 << 8 | 12]),
 'sopk': (32, lambda o: [0xb0000000 | o << 23 | 4 << 16 | 0x10]),
 'sop1': (256, lambda o: [0xbe800000 | 4 << 16 | o << 8 | 8]),
 'sopc': (128, lambda o: [0xbf000000 | o << 16 | 4 << 8 | 8]),
 'sopp': (128, lambda o: [0xbf800000 | o << 16 | 1]),
 'smem': (256, lambda o: [0xf4000000 | o << 18 | 4 << 6 | 4, 0xfa000010]),
 'vop2': (64, lambda o: [o << 25 | 1 << 17 | 2 << 9 | 0x103]),
 'vop1': (256, lambda o: [0x7e000000 | 1 << 17 | o << 9 | 0x103]),
 'vopc': (256, lambda o: [0x7c000000 | o << 17 | 2 << 9 | 0x103]),
 'vop3': (1024, lambda o: [0xd4000000 | o << 16 | 4 | 8 << 8 * 0, 0x04 << 24 | 0x110 << 9 | 0x10c]),
 'vop3p': (128, lambda o: [0xcc000000 | o << 16 | 1, 0x1c060503]),
 'ds': (256, lambda o: [0xd8000000 | o << 18, 0x08080808]),
 'mubuf': (128, lambda o: [0xe0000000 | o << 18, 0x80010804]),
 'mtbuf': (16, lambda o: [0xe8000000 | (o & 7) << 16 | 1 << 19, 0x80010804 | (o >> 3 & 1) << 21]),
 'mimg': (256, lambda o: [0xf0000000 | o << 18 | 0x100 | 1 << 3, 0x00020804]),
 'flat': (128, lambda o: [0xdc000000 | o << 18, 0x087d0804]),
 'global': (128, lambda o: [0xdc000000 | 2 << 14 | o << 18, 0x087d0804]),
 'scratch': (128, lambda o: [0xdc000000 | 1 << 14 | o << 18, 0x087d0804]),
}
def scan(cpu, wave):
    res = {}
    lines = []; keys = []
    for fam, (n, mk) in FAM.items():
        for o in range(n):
            ws = mk(o)
            lines.append(' '.join(f'0x{b:02x}' for w in ws for b in w.to_bytes(4, 'little')))
            keys.append((fam, o))
    attr = '-mattr=+wavefrontsize64,-wavefrontsize32' if wave == 64 else '-mattr=+wavefrontsize32'
    out = []
    for fam_line, key in zip(lines, keys):
        r = subprocess.run(['llvm-mc-15', '-arch=amdgcn', f'-mcpu={cpu}', attr, '--disassemble', '-show-encoding'], input=fam_line, capture_output=True, text=True)
        txt = [l.strip() for l in r.stdout.splitlines() if l.strip() and not l.strip().startswith('.text')]
        m = None
        if txt and 'encoding: [' in txt[0]:
            enc = txt[0].split('encoding: [')[1].split(']')[0].split(',')
            first = fam_line.split()[:len(enc)]
            if len(enc) == len(fam_line.split()):
                m = txt[0].split()[0]
        res[f'{key[0]}:{key[1]}'] = (m, txt[0] if txt else None)
    return res
cpu = sys.argv[1]; wave = int(sys.argv[2]) if len(sys.argv) > 2 else 64
json.dump(scan(cpu, wave), open(f'/work/rdna2/scan-{cpu}-{wave}.json', 'w'), indent=0)
