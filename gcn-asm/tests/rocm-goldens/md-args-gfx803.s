# Metadata (YAML, old format, gfx803): every .arg value kind, value type, address space, access qualifier and flag; aliases of each; explicit and default alignments.
.rocm
.gpu gfx803
.kernel kinds
    .config
        .dims xyz
        .use_private_segment_buffer
        .use_dispatch_ptr
        .use_kernarg_segment_ptr
    .config
        .arg v0, "char", 1, , value, i8
        .arg v1, "char", 1, 1, value, char
        .arg v2, "uchar", 1, , value, u8
        .arg v3, "uchar", 1, , value, uchar
        .arg v4, "short", 2, , value, i16
        .arg v5, "short", 2, , value, short
        .arg v6, "ushort", 2, , value, u16
        .arg v7, "half", 2, , value, f16
        .arg v8, "half", 2, , value, half
        .arg v9, "int", 4, , value, i32
        .arg v10, "int", 4, , value, int
        .arg v11, "uint", 4, , value, u32
        .arg v12, "uint", 4, , value, uint
        .arg v13, "float", 4, , value, f32
        .arg v14, "float", 4, , value, float
        .arg v15, "long", 8, , value, i64
        .arg v16, "long", 8, , value, long
        .arg v17, "ulong", 8, , value, u64
        .arg v18, "ulong", 8, , value, ulong
        .arg v19, "double", 8, , value, f64
        .arg v20, "double", 8, 16, value, double
        .arg s0, "struct S", 24, , value, struct
        .arg s1, "float3", 12, , value, f32
        .arg s2, 3, , value, struct
        .arg b0, "float*", 8, , globalbuf, f32, global
        .arg b1, "float*", 8, , globalbuf, f32, constant, default
        .arg b2, "int*", 8, , globalbuf, i32, generic, read_only const
        .arg b3, "int*", 8, , globalbuf, i32, region, rdonly restrict
        .arg b4, "int*", 8, , globalbuf, i32, private, write_only volatile
        .arg b5, "int*", 8, , globalbuf, i32, local, wronly const restrict volatile
        .arg b6, "int*", 8, , globalbuf, i32, global, read_write pipe
        .arg b7, "int*", 8, , globalbuf, i32, global, rdwr const restrict volatile pipe
        .arg d0, "float*", 4, , dynshptr, f32, 4, local
        .arg d1, "char*", 4, , dynshptr, i8, 1, private
        .arg d2, "double*", 8, , dynshptr, f64, 256, global const
        .arg d3, "short*", 4, , dynshptr, i16, 2, generic volatile
        .arg d4, "long*", 4, , dynshptr, i64, 8, constant
        .arg d5, "int*", 4, , dynshptr, i32, 16, region restrict
        .arg i0, "image1d_t", 8, , image, struct
        .arg i1, "image2d_t", 8, , image, struct, default
        .arg i2, "image3d_t", 8, , image, struct, read_only
        .arg i3, "image2d_array_t", 8, , image, struct, rdonly, read_only
        .arg i4, "image1d_buffer_t", 8, , image, struct, write_only, wronly
        .arg i5, "image2d_t", 8, , image, struct, wronly, default
        .arg i6, "image2d_t", 8, , image, struct, read_write, rdwr const
        .arg i7, "image2d_t", 8, , image, struct, rdwr, read_write
        .arg p0, "pipe", 8, , pipe, struct
        .arg p1, "pipe int", 8, , pipe, i32, read_only pipe
        .arg p2, "pipe int", 8, , pipe, i32, write_only, write_only pipe
        .arg p3, "pipe float", 8, , pipe, f32, rdwr, rdonly pipe const
        .arg smp, "sampler_t", 8, , sampler, struct
        .arg q, "queue_t", 8, , queue, struct
        .arg , "", 8, , gox, i64
        .arg , "", 8, , goy, i64
        .arg , "", 8, , goz, i64
        .arg , "", 8, , globaloffsetx, i64
        .arg , "", 8, , none, i8
        .arg , "", 8, , printfbuf, i8
        .arg , "", 8, , defqueue, struct
        .arg , "", 8, , complact, struct
        .arg , "", 8, , multigridsyncarg, struct
        .arg last, "char", 1, , value, i8 const volatile
.kernel noname
    .config
        .dims x
        .use_kernarg_segment_ptr
    .config
        .arg , "int", 4, , value, i32
        .arg x, 1, 8, value, i8
        .arg y, "int2", 8, 4, value, i32
        .arg , 16, , value, struct restrict
.text
kinds:
        .skip 256
        s_endpgm
noname:
        .skip 256
        s_endpgm
