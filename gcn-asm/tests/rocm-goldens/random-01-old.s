# A random combination of configuration pseudo-ops and register writes (old format), from the differential fuzzer fuzz_clrx.py.
.rocm
.gpu ellesmere
.tripple "amdgcn-amd-amdhsa-"
.kernel k0
    .config
.kernel k1
    .config
        .runtime_loader_kernel_symbol 16
        .codeversion 4096, 255
        .runtime_loader_kernel_symbol 65535
        .vgprsnum 93
        .runtime_loader_kernel_symbol 63
.text
k0:
        .skip 256
        buffer_atomic_add v135, v2, s[0:3], 0 offen
        s_mov_b64 s[90:91], xnack_mask
        s_endpgm
        .p2align 8
k1:
        .skip 256
        s_mov_b32 m0, -1
        s_and_saveexec_b64 s[4:5], vcc
        ds_write_b32 v66, v118
        s_mov_b32 s91, s46
        s_endpgm
        .p2align 8
