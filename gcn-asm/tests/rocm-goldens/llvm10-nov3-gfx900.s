# .llvm10binfmt without .metadatav3 (YAML metadata in the AMD note) and a .kernel_code_entry_offset given, on gfx900.
.rocm
.gpu gfx900
.llvm10binfmt
.eflags 0x2c
.md_version 1, 0
.globaldata
        .fill 64, 1, 0
.kernel k
    .config
        .dims x
        .use_kernarg_segment_ptr
        .kernel_code_entry_offset 0x40
.text
k:
        s_endpgm
        .p2align 8
