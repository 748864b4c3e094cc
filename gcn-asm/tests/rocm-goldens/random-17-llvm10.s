# A random combination of configuration pseudo-ops and register writes (llvm10 format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu kalindi
.llvm10binfmt
.eflags 0x2c
.kernel k0
    .config
        .kernel_code_prefetch_size 4294967295
        .md_symname "k0.kd"
.globaldata
        .skip 64
.text
k0:
        v_cmp_eq_u32 vcc, v138, v240
        s_getpc_b64 s[88:89]
        s_mov_b64 vcc, s[64:65]
        s_endpgm
        .p2align 8
