# A random combination of configuration pseudo-ops and register writes (llvm10v3 format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu iceland
.llvm10binfmt
.metadatav3
.eflags 0x2c
.arch_stepping 0
.kernel k0
    .config
        .runtime_loader_kernel_symbol 256
        .kernel_code_prefetch_size 3
        .kernarg_segment_align 16
        .codeversion 256, 4096
        .private_elem_size 16
        .workgroup_fbarrier_count 4
        .md_symname "k0.kd"
.kernel k1
    .config
        .workitem_vgpr_count 65535
        .priority 2
        .private_segment_fixed_size 2
        .call_convention 64
        .workitem_vgpr_count 32
        .dims yz
        .floatmode 1
        .md_symname "k1.kd"
.kernel k2
    .config
        .priority 2
        .kernel_code_prefetch_offset 64
        .exceptions 256
        .scratchbuffer 8
        .md_symname "k2.kd"
.globaldata
        .skip 192
.text
k0:
        v_readlane_b32 s53, v197, 3
        s_add_u32 s35, s19, 1
        v_readfirstlane_b32 s74, v88
        s_getpc_b64 s[0:1]
        s_endpgm
        .p2align 8
k1:
        ds_read_b32 v243, v60
        ds_write_b32 v34, v18
        s_endpgm
        .p2align 8
k2:
        s_add_u32 s20, s14, 1
        s_load_dwordx2 s[34:35], s[4:5], 0x0
        s_endpgm
        .p2align 8
