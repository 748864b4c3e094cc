# GCN 1.5 (gfx1010), .llvm10binfmt with metadata v3: a wave32 kernel with
# shared VGPRs (PGM_RSRC3), and the SGPR blocks clrxasm puts in PGM_RSRC1
# in this format on GCN 1.5.
.rocm
.gpu gfx1010
.llvm10binfmt
.metadatav3
.eflags 0x33
.kernel vadd
    .config
        .dims x
        .use_wave32
        .use_kernarg_segment_ptr
        .use_private_segment_buffer
        .shared_vgprs 0
        .pgmrsrc3 0x10
        .md_symname "vadd.kd"
        .arg a, "float*", 8, 8, globalbuf, f32, global
        .arg b, "float*", 8, 8, globalbuf, f32, global
.globaldata
    .skip 64
.text
vadd:
    s_load_dwordx4 s[0:3], s[4:5], 0x0
    v_lshlrev_b32 v1, 2, v0
    s_waitcnt lgkmcnt(0)
    global_load_dword v2, v1, s[0:1]
    s_waitcnt vmcnt(0)
    v_add_f32 v2, 1.0, v2
    global_store_dword v1, v2, s[2:3]
    s_endpgm
