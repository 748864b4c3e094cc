# A random combination of configuration pseudo-ops and register writes (llvm10 format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu bonaire
.llvm10binfmt
.eflags 0x2c
.kernel k0
    .config
        .workgroup_fbarrier_count 31
        .use_dispatch_ptr
        .md_symname "k0.kd"
.kernel k1
    .config
        .gds_segment_size 65535
        .private_segment_fixed_size 1024
        .reserved_sgprs 39, 60
        .sgprsnum 101
        .group_segment_align 128
        .md_symname "k1.kd"
.kernel k2
    .config
        .private_segment_fixed_size 7
        .private_elem_size 8
        .sgprsnum 6
        .pgmrsrc2 0x5
        .pgmrsrc2 0x1300
        .runtime_loader_kernel_symbol 4294967295
        .md_symname "k2.kd"
.globaldata
        .skip 192
.text
k0:
        s_buffer_load_dwordx4 s[56:59], s[8:11], 0x10
        s_endpgm
        .p2align 8
k1:
        s_mov_b32 m0, -1
        s_mov_b64 flat_scratch, s[74:75]
        s_endpgm
        .p2align 8
k2:
        v_cmp_eq_u32 vcc, v151, v194
        v_readlane_b32 s77, v167, 3
        ds_write_b32 v191, v242
        s_mov_b32 m0, -1
        s_endpgm
        .p2align 8
