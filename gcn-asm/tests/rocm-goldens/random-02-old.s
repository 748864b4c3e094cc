# A random combination of configuration pseudo-ops and register writes (old format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu tahiti
.arch_stepping 5
.kernel k0
    .config
.globaldata
        .skip 16
.text
k0:
        .skip 256
        v_mad_u32_u24 v32, v237, v40, v32
        ds_read_b32 v133, v52
        s_add_u32 s60, s96, 1
        v_writelane_b32 v196, s2, 3
        s_endpgm
        .p2align 8
