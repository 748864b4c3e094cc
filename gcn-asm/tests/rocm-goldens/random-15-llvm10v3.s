# A random combination of configuration pseudo-ops and register writes (llvm10v3 format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu tahiti
.llvm10binfmt
.metadatav3
.eflags 0x2c
.kernel k0
    .config
        .reserved_vgprs 13, 19
        .scratchbuffer 255
        .private_elem_size 8
        .md_symname "k0.kd"
.kernel k1
    .config
        .reserved_vgprs 18, 20
        .sgprsnum 45
        .machine 0, 65535, 64, 32
        .runtime_loader_kernel_symbol 100
        .exceptions 255
        .privmode
        .md_symname "k1.kd"
.kernel k2
    .config
        .private_segment_align 16
        .userdatanum 12
        .runtime_loader_kernel_symbol 128
        .codeversion 1024, 4096
        .md_symname "k2.kd"
.globaldata
        .skip 192
.text
k0:
        v_mad_u32_u24 v56, v215, v194, v56
        s_mov_b64 vcc, s[48:49]
        ds_read_b32 v142, v44
        s_buffer_load_dwordx4 s[56:59], s[8:11], 0x10
        s_endpgm
        .p2align 8
k1:
        s_mov_b32 m0, -1
        v_writelane_b32 v93, s34, 3
        v_add_f32 v206, v249, v31
        s_mov_b32 s65, s69
        s_mov_b64 exec, s[64:65]
        s_endpgm
        .p2align 8
k2:
        v_add_f32 v24, v73, v142
        s_endpgm
        .p2align 8
