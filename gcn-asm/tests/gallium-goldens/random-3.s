# A random Gallium source from the differential fuzzer (configurations and register-writing instructions): clrxasm's register counts.
.gallium
.gpu tonga
.llvm_version 30900
.driver_version 180000
.kernel k0
  .args
    .arg global, 8
  .config
    .dims xy
    .scratchbuffer 64
.kernel k1
  .args
    .arg global, 8
  .config
    .dims xyz
    .scratchbuffer 16
.text
k0:
  buffer_atomic_add v0, v75, s[4:7], 0 offen
  s_mov_b64 flat_scratch, s[62:63]
  buffer_load_dword v177, v234, s[4:7], 0 offen
  s_load_dwordx2 s[50:51], s[0:1], 0x0
  ds_write_b32 v42, v54
  s_endpgm
k1:
  buffer_atomic_add v209, v198, s[4:7], 0 offen
  s_and_saveexec_b64 s[26:27], vcc
  v_cndmask_b32 v108, v175, v87, vcc
  v_add_f32 v215, v200, v233
  s_load_dwordx2 s[44:45], s[0:1], 0x0
  s_buffer_load_dwordx4 s[80:83], s[8:11], 0x10
  v_mov_b32 v184, v155
  s_endpgm
