# A random combination of configuration pseudo-ops and register writes (old format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu gfx902
.arch_minor 1
.arch_stepping 4
.kernel k0
    .config
        .dims 
        .runtime_loader_kernel_symbol 16
        .call_convention 255
        .private_segment_align 256
        .workitem_vgpr_count 7
        .dims xy
.text
k0:
        .skip 256
        buffer_atomic_add v221, v55, s[0:3], 0 offen glc
        v_readlane_b32 s43, v106, 3
        s_endpgm
        .p2align 8
