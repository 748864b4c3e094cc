# A random Gallium source from the differential fuzzer (configurations and register-writing instructions): clrxasm's register counts.
.gallium
.gpu hawaii
.llvm_version 30900
.driver_version 180000
.kernel k0
  .args
    .arg global, 8
  .config
    .dims x
.kernel k1
  .args
    .arg global, 8
  .config
    .dims xy
.text
k0:
  buffer_atomic_add v38, v85, s[4:7], 0 offen glc
  v_mac_f32 v19, v241, v39
  s_mov_b64 flat_scratch, s[44:45]
  s_mov_b32 s91, s20
  s_endpgm
k1:
  v_readfirstlane_b32 s69, v148
  buffer_store_dword v39, v198, s[4:7], 0 offen
  s_load_dwordx2 s[78:79], s[0:1], 0x0
  s_endpgm
