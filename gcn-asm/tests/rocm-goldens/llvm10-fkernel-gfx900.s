# .llvm10binfmt + .metadatav3 with an .fkernel declared between two kernels: where clrxasm writes each descriptor and its entry offset.
.rocm
.gpu gfx900
.eflags 0x2c
.llvm10binfmt
.metadatav3
.md_version 1, 0
.globaldata
        .fill 192, 1, 0
.kernel k1
    .config
        .dims x
        .use_kernarg_segment_ptr
.kernel fn
    .fkernel
    .config
        .dims x
.kernel k2
    .config
        .dims x
        .use_kernarg_segment_ptr
.text
k1:
        s_endpgm
        .p2align 8
fn:
        s_setpc_b64 s[30:31]
        .p2align 8
k2:
        v_mov_b32 v4, 0
        s_endpgm
        .p2align 8
