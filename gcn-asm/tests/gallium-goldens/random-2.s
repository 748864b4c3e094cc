# A random Gallium source from the differential fuzzer (configurations and register-writing instructions): clrxasm's register counts.
.gallium
.gpu gfx906
.llvm_version 30800
.driver_version 180000
.kernel k0
  .args
    .arg global, 8
  .config
    .dims x
    .scratchbuffer 16
.text
k0:
  buffer_atomic_add v130, v103, s[4:7], 0 offen glc
  buffer_atomic_add v72, v83, s[4:7], 0 offen
  v_readfirstlane_b32 s34, v110
  v_add_f32 v200, v209, v225
  v_cmp_eq_u32 vcc, v213, v91
  v_add_f32 v123, v253, v139
  s_endpgm
