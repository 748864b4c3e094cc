# A random combination of configuration pseudo-ops and register writes (old format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu ellesmere
.kernel k0
    .config
        .kernarg_segment_size 255
        .workitem_vgpr_count 256
        .use_flat_scratch_init
        .gds_segment_size 4096
        .gds_segment_size 0
.kernel k1
    .config
        .group_segment_align 128
        .use_grid_workgroup_count x
        .priority 0
        .runtime_loader_kernel_symbol 1024
        .private_segment_fixed_size 2
        .privmode
.globaldata
        .skip 16
.text
k0:
        .skip 256
        s_load_dwordx2 s[50:51], s[4:5], 0x0
        s_endpgm
        .p2align 8
k1:
        .skip 256
        buffer_load_dword v23, v173, s[0:3], 0 offen
        v_addc_u32 v105, vcc, v242, v75, vcc
        s_buffer_load_dwordx4 s[24:27], s[8:11], 0x10
        v_cmp_eq_u32 vcc, v202, v193
        s_mov_b32 m0, -1
        s_endpgm
        .p2align 8
