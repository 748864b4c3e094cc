#!/bin/sh
# Writes kernel.s: a Gallium kernel of 10,000 instructions (N=…) cycling
# through scalar, vector, VOP3, SMRD, DS and MUBUF instructions.
N=${N:-10000}
{
  echo '.gallium'
  echo '.gpu pitcairn'
  echo '.kernel big'
  echo '    .args'
  echo '        .arg n, scalar, 4'
  echo '        .arg data, global, 8'
  echo '        .arg griddim'
  echo '        .arg gridoffset'
  echo '    .config'
  echo '        .dims x'
  echo '        .tgsize'
  echo '.text'
  echo 'big:'
  awk -v n="$((N - 1))" 'BEGIN {
    for (i = 0; i < n; i++) {
      r = i % 40; s = (i * 7) % 90; t = i % 8;
      k = i % 12;
      if (k == 0) printf "    s_add_u32 s%d, s%d, %d\n", s, (s + 3) % 90, i % 64;
      else if (k == 1) printf "    v_add_f32 v%d, v%d, v%d\n", r, (r + 1) % 40, (r + 2) % 40;
      else if (k == 2) printf "    v_mad_f32 v%d, v%d, s%d, 0.5\n", r, (r + 5) % 40, s;
      else if (k == 3) printf "    s_load_dwordx2 s[%d:%d], s[0:1], 0x%x\n", 2 * t + 4, 2 * t + 5, i % 200;
      else if (k == 4) printf "    v_mul_lo_u32 v%d, v%d, s%d\n", r, (r + 3) % 40, s;
      else if (k == 5) printf "    ds_write_b32 v%d, v%d offset:%d\n", r, (r + 1) % 40, (i * 4) % 65536;
      else if (k == 6) printf "    buffer_load_dword v%d, v%d, s[8:11], 0 offen offset:%d\n", r, (r + 2) % 40, i % 4096;
      else if (k == 7) printf "    v_cmp_gt_u32 vcc, s%d, v%d\n", s, r;
      else if (k == 8) printf "    v_cndmask_b32 v%d, v%d, 1.0, vcc\n", r, (r + 4) % 40;
      else if (k == 9) printf "    s_waitcnt vmcnt(0) & lgkmcnt(0)\n";
      else if (k == 10) printf "    v_cvt_f32_u32 v%d, v%d\n", r, (r + 7) % 40;
      else printf "    s_mov_b32 s%d, 0x%x\n", s, i * 2654435761 % 4294967296;
    }
  }'
  echo '    s_endpgm'
} > kernel.s
