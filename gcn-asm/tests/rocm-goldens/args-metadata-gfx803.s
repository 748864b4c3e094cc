# Argument metadata (YAML note): optional fields left empty, names unquoted.
.rocm
.gpu Fiji
.arch_minor 0
.arch_stepping 3
.md_version 1, 0
.kernel k
    .config
        .dims x
        .use_private_segment_buffer
        .use_dispatch_ptr
        .use_kernarg_segment_ptr
    .config
        .md_language "OpenCL C", 1, 2
        .md_symname "k"
        .md_kernarg_segment_size 64
        .md_kernarg_segment_align 8
        .md_group_segment_fixed_size 0
        .md_private_segment_fixed_size 0
        .md_wavefront_size 64
        .md_sgprsnum 14
        .md_vgprsnum 4
        .spilledsgprs 0
        .spilledvgprs 0
        .max_flat_work_group_size 256
        .reqd_work_group_size 64, 1, 1
        .work_group_size_hint 64
        .vectypehint float4
        .fixed_work_group_size 64, 1, 1
        .arg n, "uint", 4, , value, u32
        .arg a, "float*", 8, , globalbuf, f32, global, default const volatile
        .arg b, 8, , globalbuf, f32, global
        .arg lbuf, "float*", 4, , dynshptr, f32, 4, local
        .arg img, "image2d_t", 8, , image, struct, read_only
        .arg smp, "sampler_t", 4, , sampler, struct
        .arg , "", 8, , gox, i64
        .arg , "", 8, , goy, i64
        .arg , "", 8, , goz, i64
        .arg , "", 8, , printfbuf, i8
.text
k:
        .skip 256
        s_endpgm
