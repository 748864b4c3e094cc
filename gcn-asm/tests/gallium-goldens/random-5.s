# A random Gallium source from the differential fuzzer (configurations and register-writing instructions): clrxasm's register counts.
.gallium
.gpu carrizo
.llvm_version 30600
.driver_version 160000
.kernel k0
  .args
    .arg global, 8
  .config
    .dims xyz
.text
k0:
  buffer_atomic_add v223, v246, s[4:7], 0 offen glc
  v_mov_b32 v23, v173
  s_endpgm
