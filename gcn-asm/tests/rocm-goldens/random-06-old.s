# A random combination of configuration pseudo-ops and register writes (old format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu stoney
.arch_stepping 9
.kernel k0
    .config
        .machine 7, 0, 3, 31
.kernel k1
    .config
        .use_grid_workgroup_count 
        .pgmrsrc2 0x2638
        .userdatanum 14
        .group_segment_align 32
        .gds_segment_size 7
.text
k0:
        .skip 256
        v_mov_b32 v170, v10
        v_cndmask_b32 v21, v68, v93, vcc
        s_and_saveexec_b64 s[28:29], vcc
        v_cmp_eq_u32 vcc, v176, v132
        buffer_atomic_add v100, v253, s[0:3], 0 offen
        s_endpgm
        .p2align 8
k1:
        .skip 256
        s_load_dwordx2 s[76:77], s[4:5], 0x0
        s_endpgm
        .p2align 8
