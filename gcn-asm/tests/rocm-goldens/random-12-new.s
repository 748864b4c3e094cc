# A random combination of configuration pseudo-ops and register writes (new format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu fiji
.newbinfmt
.tripple "amdgcn-amd-amdhsa-"
.kernel k0
    .fkernel
    .config
        .floatmode 256
        .private_elem_size 4
        .max_scratch_backing_memory 4294967295
        .private_elem_size 4
.globaldata
        .skip 16
.text
k0:
        .skip 256
        v_mad_u32_u24 v172, v198, v127, v172
        v_cmp_eq_u32 vcc, v153, v3
        s_mov_b64 exec, s[38:39]
        s_endpgm
        .p2align 8
