# A random combination of configuration pseudo-ops and register writes (llvm10v3 format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu iceland
.llvm10binfmt
.metadatav3
.eflags 0x2c
.kernel k0
    .config
        .wavefront_size 256
        .kernel_code_prefetch_offset 2
        .priority 2
        .kernarg_segment_align 32
        .md_symname "k0.kd"
.kernel k1
    .config
        .max_scratch_backing_memory 16
        .priority 3
        .scratchbuffer 128
        .md_symname "k1.kd"
.globaldata
        .skip 128
.text
k0:
        s_mov_b64 exec, s[0:1]
        s_mov_b64 flat_scratch, s[90:91]
        v_mac_f32 v94, v158, v167
        s_and_saveexec_b64 s[90:91], vcc
        s_endpgm
        .p2align 8
k1:
        v_addc_u32 v70, vcc, v4, v27, vcc
        s_endpgm
        .p2align 8
