# A random combination of configuration pseudo-ops and register writes (llvm10v3 format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu baffin
.llvm10binfmt
.metadatav3
.eflags 0x2c
.arch_stepping 6
.kernel k0
    .config
        .use_xnack_enabled
        .localsize 31591
        .private_segment_fixed_size 63
        .private_segment_align 256
        .md_symname "k0.kd"
.kernel k1
    .config
        .md_symname "k1.kd"
.globaldata
        .skip 128
.text
k0:
        image_load v[192:195], v[0:3], s[8:15] dmask:0xf unorm
        s_mov_b32 m0, -1
        s_and_saveexec_b64 s[42:43], vcc
        s_and_saveexec_b64 s[54:55], vcc
        s_endpgm
        .p2align 8
k1:
        s_mov_b64 s[50:51], xnack_mask
        v_cmp_eq_u32 vcc, v203, v12
        s_mov_b32 m0, -1
        s_endpgm
        .p2align 8
