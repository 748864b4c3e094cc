# .llvm10binfmt + .metadatav3 with three kernels on gfx906: descriptors at 64*index in .globaldata followed by user data, .pgmrsrc3, scratch, LDS, default e_flags (51).
.rocm
.gpu gfx906
.llvm10binfmt
.metadatav3
.md_version 1, 0
.globaldata
        .fill 192, 1, 0
gtail:
        .int 0xdeadbeef, 0xcafebabe
.kernel a
    .config
        .dims x
        .use_private_segment_buffer
        .use_kernarg_segment_ptr
        .pgmrsrc3 0x12
        .workitem_private_segment_size 48
.kernel b
    .config
        .dims xyz
        .use_dispatch_ptr
        .use_kernarg_segment_ptr
        .use_flat_scratch_init
        .workgroup_group_segment_size 2048
        .ieeemode
        .dx10clamp
.kernel c
    .config
        .dims x
        .sgprsnum 30
        .vgprsnum 33
.text
a:
        s_load_dwordx2 s[0:1], s[4:5], 0x0
        v_mov_b32 v7, 0
        s_endpgm
        .p2align 8
b:
        s_mov_b32 s17, 0
        ds_write_b32 v0, v1
        s_endpgm
        .p2align 8
c:
        s_endpgm
        .p2align 8
