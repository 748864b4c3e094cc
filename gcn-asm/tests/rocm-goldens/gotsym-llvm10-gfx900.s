# .gotsym of a global and a kernel under .llvm10binfmt (clrxasm's relocations name the wrong symbols there, and its entry offsets count from .rela.dyn).
.rocm
.gpu gfx900
.eflags 0x2c
.llvm10binfmt
.metadatav3
.kernel k
    .config
        .dims x
        .use_kernarg_segment_ptr
        .md_symname "k.kd"
.globaldata
        .skip 64
.global gd
gd:
        .int 17
.gotsym gd, gdgot
.global k
.gotsym k
.text
k:
        s_getpc_b64 s[0:1]
.L1:
        s_add_u32 s0, s0, (gdgot - .L1) & 0xffffffff
        s_addc_u32 s1, s1, (gdgot - .L1) >> 32
        s_endpgm
        .p2align 8
