# A random combination of configuration pseudo-ops and register writes (llvm10 format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu gfx905
.llvm10binfmt
.eflags 0x2c
.tripple "amdgcn-amd-amdhsa-"
.kernel k0
    .config
        .workgroup_fbarrier_count 15
        .userdatanum 14
        .sgprsnum 79
        .private_segment_fixed_size 256
        .private_elem_size 2
        .md_symname "k0.kd"
.kernel k1
    .config
        .reserved_sgprs 18, 40
        .workgroup_fbarrier_count 1024
        .group_segment_fixed_size 16778
        .pgmrsrc2 0xb00
        .codeversion 4, 2
        .workgroup_fbarrier_count 0
        .md_symname "k1.kd"
.globaldata
        .skip 128
.text
k0:
        v_writelane_b32 v56, s57, 3
        image_load v[80:83], v[0:3], s[8:15] dmask:0xf unorm
        ds_write_b32 v48, v203
        s_mov_b32 s41, s68
        buffer_atomic_add v129, v90, s[0:3], 0 offen
        s_endpgm
        .p2align 8
k1:
        s_mov_b64 s[16:17], xnack_mask
        v_add_f32 v11, v127, v69
        s_endpgm
        .p2align 8
