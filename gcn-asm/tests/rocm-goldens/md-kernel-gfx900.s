# Metadata (YAML, old format, gfx900): every kernel-level pseudo-op (.md_language with and without a version, .md_symname, .cws/.reqd_work_group_size, .work_group_size_hint, .fixed_work_group_size, .vectypehint, .runtime_handle, .md_* sizes, .spilled*, .max_flat_work_group_size), empty strings and zero sizes that clrxasm leaves out, .printf with and without ids.
.rocm
.gpu gfx900
.md_version 1, 0
.printf 5, 4, 8, "first: %d %ld\n"
.printf 2, "no args"
.printf , 4, "auto id %d"
.printf 1, 4, 4, 4, "%d:%d:%d"
.printf , "auto again"
.printf 3, 16, "vec %v4d"
.printf , ""
.kernel full
    .config
        .dims xy
        .use_private_segment_buffer
        .use_dispatch_ptr
        .use_kernarg_segment_ptr
        .private_segment_fixed_size 16
        .group_segment_fixed_size 512
    .config
        .md_language "OpenCL C", 2, 0
        .md_symname "full@kd"
        .reqd_work_group_size 16, 8, 1
        .work_group_size_hint 32
        .fixed_work_group_size 16, 8
        .vectypehint uint8
        .runtime_handle "full.runtime_handle"
        .md_kernarg_segment_size 96
        .md_kernarg_segment_align 16
        .md_group_segment_fixed_size 1024
        .md_private_segment_fixed_size 48
        .md_wavefront_size 64
        .md_sgprsnum 24
        .md_vgprsnum 12
        .spilledsgprs 3
        .spilledvgprs 5
        .max_flat_work_group_size 128
        .arg out, "int*", 8, , globalbuf, i32, global, default
.kernel nover
    .config
        .dims x
        .use_kernarg_segment_ptr
        .wavefront_sgpr_count 40
        .workitem_vgpr_count 7
        .kernarg_segment_align 32
    .config
        .md_language "HIP"
        .cws 64, 2, 3
        .spilledsgprs 0
        .max_flat_work_group_size 1024
        .arg n, "int", 4, , value, i32
.kernel empty
    .config
        .dims x
        .use_kernarg_segment_ptr
        .kernarg_segment_size 40
    .config
        .md_language ""
        .md_symname ""
        .runtime_handle ""
        .reqd_work_group_size 0, 0, 0
        .work_group_size_hint 0, 0, 0
        .fixed_work_group_size 0, 0, 0
        .spilledvgprs 0
.kernel hintonly
    .config
        .dims x
        .sgprsnum 30
        .vgprsnum 9
    .config
        .md_language "OpenCL C", 0, 0
        .work_group_size_hint 1, 2, 3
.kernel fixedonly
    .config
        .dims x
    .config
        .fixed_work_group_size
        .md_wavefront_size 32
        .md_kernarg_segment_size 0
.text
full:
        .skip 256
        s_endpgm
nover:
        .skip 256
        s_mov_b32 s17, 0
        v_mov_b32 v5, 0
        s_endpgm
empty:
        .skip 256
        s_endpgm
hintonly:
        .skip 256
        s_endpgm
fixedonly:
        .skip 256
        s_endpgm
