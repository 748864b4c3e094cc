# A random combination of configuration pseudo-ops and register writes (old format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu gfx906
.arch_stepping 0
.kernel k0
    .config
        .kernarg_segment_size 7
        .machine 2, 0, 2, 255
.text
k0:
        .skip 256
        v_add_f32 v7, v102, v68
        v_add_f32 v8, v209, v107
        buffer_load_dword v219, v58, s[0:3], 0 offen
        s_endpgm
        .p2align 8
