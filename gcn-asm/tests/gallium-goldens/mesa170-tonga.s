# Mesa 17.0's Gallium layout (.driver_version 170000: text section type 2, inner ELF with OS ABI 0x40 and machine 0xe0), 32-bit.
.gallium
.gpu tonga
.llvm_version 30900
.driver_version 170000
.kernel k0
  .args
    .arg global, 8
    .arg scalar, 4
  .config
    .dims x
.text
k0:
  s_load_dwordx2 s[2:3], s[0:1], 0x24
  v_mov_b32 v1, 7
  s_endpgm
