# .newbinfmt with .metadatav3 but not .llvm10binfmt: amd_kernel_code_t in .text, MessagePack metadata, .globaldata required (64 bytes per kernel read as descriptors).
.rocm
.gpu gfx900
.newbinfmt
.metadatav3
.md_version 1, 0
.globaldata
        .fill 64, 1, 0
.kernel k
    .config
        .dims x
        .use_kernarg_segment_ptr
.text
k:
        .skip 256
        s_endpgm
