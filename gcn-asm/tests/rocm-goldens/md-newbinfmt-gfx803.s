# Metadata (YAML, .newbinfmt, gfx803): metadata pseudo-ops with the new binary format, .md_version 1, 0 given, printf ids given and not, .cws with two values, several kernels.
.rocm
.gpu gfx803
.newbinfmt
.md_version 1, 0
.printf , 4, "a=%d\n"
.printf 1, 8, 4, "b=%f c=%d"
.printf , "\"quoted\" 'single'"
.kernel add
    .config
        .dims x
        .use_private_segment_buffer
        .use_dispatch_ptr
        .use_kernarg_segment_ptr
        .private_elem_size 4
        .use_ptr64
        .localsize 256
    .config
        .md_language "OpenCL C", 1, 2
        .cws 64, 4
        .vectypehint int
        .arg a, "float*", 8, , globalbuf, f32, global, read_only const restrict
        .arg b, "float*", 8, , globalbuf, f32, global, write_only
        .arg n, "uint", 4, , value, u32
        .arg lds, "float*", 4, , dynshptr, f32, 4, local
        .arg , "", 8, , gox, i64
        .arg , "", 8, , goy, i64
        .arg , "", 8, , goz, i64
        .arg , "", 8, , printfbuf, i8
        .arg , "", 8, , defqueue, struct
        .arg , "", 8, , complact, struct
.kernel img
    .config
        .dims xy
        .use_kernarg_segment_ptr
        .scratchbuffer 32
    .config
        .md_language "OpenCL C", 2, 0
        .md_symname "img@kd"
        .work_group_size_hint 8, 8, 1
        .arg in, "image2d_t", 8, , image, struct, read_only
        .arg out, "image2d_t", 8, , image, struct, write_only
        .arg s, "sampler_t", 8, , sampler, struct
        .arg p, "pipe", 16, 16, pipe, struct, read_write, read_only pipe
.kernel plain
    .config
        .dims x
.text
add:
        .skip 256
        s_endpgm
img:
        .skip 256
        s_endpgm
plain:
        .skip 256
        s_endpgm
