# A random Gallium source from the differential fuzzer (configurations and register-writing instructions): clrxasm's register counts.
.gallium
.gpu carrizo
.llvm_version 30600
.driver_version 180000
.kernel k0
  .args
    .arg global, 8
  .config
    .dims x
    .userdatanum 5
.text
k0:
  buffer_atomic_add v211, v51, s[4:7], 0 offen glc
  v_readlane_b32 s86, v210, s2
  s_mov_b64 flat_scratch, s[58:59]
  buffer_load_dword v59, v191, s[4:7], 0 offen
  v_readlane_b32 s44, v62, s50
  s_endpgm
