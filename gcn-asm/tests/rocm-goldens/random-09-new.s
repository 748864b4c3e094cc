# A random combination of configuration pseudo-ops and register writes (new format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu gfx804
.newbinfmt
.arch_minor 2
.tripple "amdgcn-amd-amdhsa-"
.kernel k0
    .config
        .vgprsnum 209
        .private_segment_fixed_size 0
        .kernel_code_prefetch_size 4
        .kernarg_segment_align 64
        .dims xyz
        .max_scratch_backing_memory 256
        .kernarg_segment_align 64
.globaldata
        .skip 16
.text
k0:
        .skip 256
        s_buffer_load_dwordx4 s[8:11], s[8:11], 0x10
        s_and_saveexec_b64 s[42:43], vcc
        v_cndmask_b32 v85, v65, v223, vcc
        s_waitcnt lgkmcnt(0)
        s_endpgm
        .p2align 8
