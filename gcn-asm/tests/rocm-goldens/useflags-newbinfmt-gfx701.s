# The doc's .newbinfmt kernel setup (codeversion 1.1 by default there, .use_* flags, alignments, zeroed control directive) on gfx701, metadata generated without arguments.
.rocm
.gpu gfx701
.newbinfmt
.kernel k
    .config
        .dims x
        .use_private_segment_buffer
        .use_dispatch_ptr
        .use_queue_ptr
        .use_kernarg_segment_ptr
        .use_dispatch_id
        .private_elem_size 4
        .use_ptr64
        .kernarg_segment_align 16
        .group_segment_align 16
        .private_segment_align 16
    .control_directive
        .fill 128, 1, 0x00
.kernel k2
    .config
        .dims x
        .codeversion 1, 0
.text
k:
        .skip 256
        s_load_dwordx2 s[0:1], s[10:11], 0x0
        s_endpgm
        .p2align 8
k2:
        .skip 256
        s_endpgm
