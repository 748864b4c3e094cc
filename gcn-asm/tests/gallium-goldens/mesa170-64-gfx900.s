# Mesa 17.0's Gallium layout with a 64-bit inner ELF on gfx900 (.driver_version 180000).
.gallium
.gpu gfx900
.64bit
.llvm_version 30900
.driver_version 180000
.kernel a
  .args
    .arg global, 8
  .config
    .dims xy
.kernel b
  .args
    .arg constant, 8
  .config
    .dims x
.text
a:
  v_mov_b32 v3, 0
  s_endpgm
b:
  s_mov_b32 s7, 1
  s_endpgm
