# A random combination of configuration pseudo-ops and register writes (old format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu gfx900
.arch_stepping 9
.kernel k0
    .config
        .use_private_segment_size
.kernel k1
    .config
        .use_grid_workgroup_count 
        .use_ordered_append_gds
.globaldata
        .skip 16
.text
k0:
        .skip 256
        s_and_saveexec_b64 s[86:87], vcc
        s_endpgm
        .p2align 8
k1:
        .skip 256
        s_mov_b64 vcc, s[44:45]
        s_and_saveexec_b64 s[46:47], vcc
        s_and_saveexec_b64 s[2:3], vcc
        s_load_dwordx2 s[76:77], s[4:5], 0x0
        s_mov_b32 m0, -1
        s_endpgm
        .p2align 8
