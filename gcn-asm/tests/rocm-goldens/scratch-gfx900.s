# Scratch on GCN 1.4: .scratchbuffer, .private_segment_fixed_size and .workitem_private_segment_size (SCRATCH_EN and its extra SGPR), with .use_private_segment_size and flat scratch.
.rocm
.gpu gfx900
.kernel sb
    .config
        .dims x
        .scratchbuffer 1024
        .use_private_segment_buffer
.kernel psfs
    .config
        .dims xy
        .private_segment_fixed_size 12
        .use_private_segment_buffer
        .use_kernarg_segment_ptr
        .use_private_segment_size
.kernel wpss
    .config
        .dims x
        .workitem_private_segment_size 256
        .use_private_segment_buffer
        .use_flat_scratch_init
.kernel zero
    .config
        .dims x
        .scratchbuffer 0
        .use_private_segment_buffer
.text
sb:
        .skip 256
        buffer_store_dword v0, off, s[0:3], s5 offset:16
        s_endpgm
        .p2align 8
psfs:
        .skip 256
        buffer_load_dword v1, off, s[0:3], s9
        s_endpgm
        .p2align 8
wpss:
        .skip 256
        s_add_u32 flat_scratch_lo, s6, s9
        s_addc_u32 flat_scratch_hi, s7, 0
        scratch_store_dword off, v0, s9 offset:4
        s_endpgm
        .p2align 8
zero:
        .skip 256
        s_endpgm
