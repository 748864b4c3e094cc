# A random combination of configuration pseudo-ops and register writes (new format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu stoney
.newbinfmt
.arch_stepping 9
.kernel k0
    .config
        .priority 0
        .runtime_loader_kernel_symbol 16
        .pgmrsrc2 0x1100
        .kernarg_segment_size 1024
        .pgmrsrc1 0x1200
        .use_private_segment_size
        .workitem_vgpr_count 128
.kernel k1
    .config
        .use_grid_workgroup_count z
        .gds_segment_size 256
        .kernarg_segment_align 16
        .wavefront_sgpr_count 1024
.kernel k2
    .config
        .workitem_vgpr_count 63
        .localsize 8037
        .pgmrsrc1 0x3040ed1d
.text
k0:
        .skip 256
        buffer_load_dword v113, v11, s[0:3], 0 offen
        s_endpgm
        .p2align 8
k1:
        .skip 256
        buffer_load_dword v20, v189, s[0:3], 0 offen
        s_mov_b32 m0, -1
        s_buffer_load_dwordx4 s[76:79], s[8:11], 0x10
        s_endpgm
        .p2align 8
k2:
        .skip 256
        s_waitcnt lgkmcnt(0)
        s_mov_b64 s[30:31], xnack_mask
        v_cndmask_b32 v162, v20, v21, vcc
        s_and_saveexec_b64 s[84:85], vcc
        s_endpgm
        .p2align 8
