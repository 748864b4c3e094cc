# A random combination of configuration pseudo-ops and register writes (new format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu ellesmere
.newbinfmt
.kernel k0
    .config
        .gds_segment_size 64
        .group_segment_fixed_size 31611
.kernel k1
    .fkernel
    .config
        .workgroup_fbarrier_count 32
.kernel k2
    .config
        .workitem_vgpr_count 100
.text
k0:
        .skip 256
        v_mac_f32 v174, v136, v60
        s_endpgm
        .p2align 8
k1:
        .skip 256
        buffer_atomic_add v125, v126, s[0:3], 0 offen
        v_addc_u32 v227, vcc, v38, v87, vcc
        buffer_atomic_add v105, v229, s[0:3], 0 offen
        v_add_f32 v62, v134, v12
        s_endpgm
        .p2align 8
k2:
        .skip 256
        s_mov_b64 flat_scratch, s[88:89]
        s_endpgm
        .p2align 8
