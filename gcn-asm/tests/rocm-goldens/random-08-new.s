# A random combination of configuration pseudo-ops and register writes (new format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu carrizo
.newbinfmt
.kernel k0
    .config
        .call_convention 63
        .kernarg_segment_align 32
        .wavefront_size 128
.text
k0:
        .skip 256
        v_mov_b32 v111, v66
        v_mac_f32 v118, v23, v107
        s_endpgm
        .p2align 8
