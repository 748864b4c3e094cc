# A random combination of configuration pseudo-ops and register writes (old format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu baffin
.kernel k0
    .config
        .exceptions 4
        .userdatanum 6
        .kernel_code_prefetch_offset 64
        .kernel_code_prefetch_size 2
        .group_segment_align 256
        .kernel_code_prefetch_offset 128
.text
k0:
        .skip 256
        v_add_f32 v175, v208, v176
        s_mov_b32 s14, s85
        buffer_atomic_add v36, v84, s[0:3], 0 offen
        s_mov_b32 m0, -1
        ds_read_b32 v97, v146
        s_endpgm
        .p2align 8
