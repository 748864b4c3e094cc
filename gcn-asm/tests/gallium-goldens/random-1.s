# A random Gallium source from the differential fuzzer (configurations and register-writing instructions): clrxasm's register counts.
.gallium
.gpu pitcairn
.llvm_version 30600
.driver_version 180000
.kernel k0
  .args
    .arg global, 8
  .config
    .dims x
.text
k0:
  buffer_load_dword v207, v233, s[4:7], 0 offen
  buffer_atomic_add v59, v132, s[4:7], 0 offen glc
  v_mad_u32_u24 v85, v66, v87, v85
  v_cndmask_b32 v237, v3, v56, vcc
  v_add_f32 v0, v98, v194
  s_endpgm
