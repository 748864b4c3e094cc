# Metadata (MessagePack, .llvm10binfmt + .metadatav3, gfx900): every .arg value kind, value type, address space, access qualifier and flag, offsets given and computed, every kernel-level pseudo-op; .md_symname and .max_flat_work_group_size given (clrxasm's defaults for them are an empty symbol and 2^64-2).
.rocm
.gpu gfx900
.eflags 0x2c
.llvm10binfmt
.metadatav3
.md_version 1, 0
.globaldata
        .skip 128
.kernel all
    .config
        .dims xyz
        .use_private_segment_buffer
        .use_dispatch_ptr
        .use_kernarg_segment_ptr
        .private_segment_fixed_size 16
        .group_segment_fixed_size 64
    .config
        .md_symname "all.kd"
        .md_language "OpenCL C", 2, 0
        .reqd_work_group_size 16, 8, 1
        .work_group_size_hint 32
        .fixed_work_group_size 16, 8, 1
        .vectypehint float4
        .runtime_handle "all.handle"
        .md_kernarg_segment_size 512
        .md_kernarg_segment_align 16
        .md_group_segment_fixed_size 128
        .md_private_segment_fixed_size 32
        .md_wavefront_size 64
        .md_sgprsnum 20
        .md_vgprsnum 10
        .spilledsgprs 2
        .spilledvgprs 1
        .max_flat_work_group_size 128
        .arg v0, "char", 1, , value, i8
        .arg v1, "uchar", 1, , value, u8
        .arg v2, "short", 2, , value, i16
        .arg v3, "ushort", 2, , value, u16
        .arg v4, "half", 2, , value, f16
        .arg v5, "int", 4, , value, i32
        .arg v6, "uint", 4, , value, u32
        .arg v7, "float", 4, , value, f32
        .arg v8, "long", 8, , value, i64
        .arg v9, "ulong", 8, , value, u64
        .arg v10, "double", 8, , value, f64
        .arg v11, "struct S", 12, 100, value, struct
        .arg v12, 3, , value, char
        .arg b0, "float*", 8, , globalbuf, f32, global
        .arg b1, "float*", 8, , globalbuf, float, constant, default
        .arg b2, "int*", 8, , globalbuf, int, generic, read_only const
        .arg b3, "int*", 8, , globalbuf, i32, region, write_only restrict
        .arg b4, "int*", 8, , globalbuf, i32, private, read_write volatile
        .arg b5, "int*", 8, , globalbuf, i32, local, rdwr const restrict volatile pipe
        .arg d0, "float*", 4, , dynshptr, f32, 4, local
        .arg d1, "char*", 4, , dynshptr, i8, 1, private const
        .arg d2, "double*", 4, , dynshptr, f64, 256, global volatile
        .arg d3, "short*", 4, , dynshptr, short, 2, generic
        .arg d4, "long*", 4, , dynshptr, long, 8, constant
        .arg d5, "int*", 4, , dynshptr, uint, 16, region restrict
        .arg i0, "image1d_t", 8, , image, struct
        .arg i1, "image2d_t", 8, , image, struct, default
        .arg i2, "image3d_t", 8, , image, struct, read_only
        .arg i3, "image2d_t", 8, , image, struct, rdonly, read_only
        .arg i4, "image2d_t", 8, , image, struct, write_only, wronly
        .arg i5, "image2d_t", 8, , image, struct, rdwr, read_write const
        .arg p0, "pipe", 8, , pipe, struct
        .arg p1, "pipe int", 8, , pipe, i32, read_only pipe
        .arg p2, "pipe int", 8, , pipe, i32, write_only, write_only pipe
        .arg p3, "pipe float", 8, , pipe, f32, read_write, default pipe const
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
        .arg last, "ulong", 8, 400, value, ulong
.kernel min
    .config
        .dims x
        .use_kernarg_segment_ptr
    .config
        .md_symname "min.kd"
        .max_flat_work_group_size 256
        .md_language "HIP"
        .arg , "int", 4, , value, i32
.text
all:
        s_endpgm
        .p2align 8
min:
        s_endpgm
        .p2align 8
