//! Typed buffer loads: `buffer_load_format_xyzw` on packed formats
//! (2_10_10_10 UNORM, 8_8_8_8 UNORM: one 4-byte element decoded into four
//! f32 per lane) and on 16_16_16_16 FLOAT, against `buffer_load_dword` over
//! the same records (no conversion), in elements per second on one host
//! thread.
//!
//! `cargo bench -p gcn-runtime --bench buffer_format`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gcn_runtime::descriptor::BufferResource;
use gcn_runtime::format::{DataFormat, NumFormat};
use gcn_runtime::gcn_asm::{assemble, AssembleOptions, GcnVersion};
use gcn_runtime::kernel::{ArgValue, Dispatch};
use gcn_runtime::{LaunchOptions, Memory, Program};

/// Work-items, and loads per work-item (8 per loop iteration).
const ITEMS: u32 = 16 * 1024;
const LOADS: u32 = 64;

fn source(load: &str) -> String {
    let body = (0..8).map(|_| format!("    {load}\n")).collect::<String>();
    format!(
        r#"
.gallium
.gpu tonga
.kernel bench
    .args
        .arg src, scalar, 16
        .arg dst, scalar, 16
        .arg griddim
        .arg gridoffset
    .config
        .dims x
        .tgsize
.text
bench:
    s_load_dword     s2, s[0:1], 0x18
    s_load_dwordx4   s[8:11], s[0:1], 0x24
    s_load_dwordx4   s[12:15], s[0:1], 0x34
    s_waitcnt        lgkmcnt(0)
    s_mul_i32        s2, s2, s4
    v_add_u32        v0, vcc, s2, v0
    s_movk_i32       s16, {iterations}
loop:
{body}    s_waitcnt        vmcnt(0)
    s_sub_u32        s16, s16, 1
    s_cmp_lg_u32     s16, 0
    s_cbranch_scc1   loop
    buffer_store_dwordx4 v[4:7], v0, s[12:15], 0 idxen
    s_endpgm
"#,
        iterations = LOADS / 8
    )
}

fn typed_loads(c: &mut Criterion) {
    let mut group = c.benchmark_group("buffer_load_format_xyzw");
    group.sample_size(10);
    group.throughput(Throughput::Elements(u64::from(ITEMS * LOADS)));
    let memory = Memory::default();
    let options = LaunchOptions {
        threads: Some(1),
        ..LaunchOptions::default()
    };
    let dst = memory.buffer_zeroed::<[u32; 4]>(ITEMS as usize).unwrap();
    let vdst = BufferResource::typed(&dst, DataFormat::D32_32_32_32, NumFormat::Uint).unwrap();
    let cases: [(&str, DataFormat, NumFormat, usize, &str); 4] = [
        (
            "2_10_10_10 unorm",
            DataFormat::D2_10_10_10,
            NumFormat::Unorm,
            4,
            "buffer_load_format_xyzw v[4:7], v0, s[8:11], 0 idxen",
        ),
        (
            "8_8_8_8 unorm",
            DataFormat::D8_8_8_8,
            NumFormat::Unorm,
            4,
            "buffer_load_format_xyzw v[4:7], v0, s[8:11], 0 idxen",
        ),
        (
            "16_16_16_16 float",
            DataFormat::D16_16_16_16,
            NumFormat::Float,
            8,
            "buffer_load_format_xyzw v[4:7], v0, s[8:11], 0 idxen",
        ),
        (
            "dword (no conversion)",
            DataFormat::D32,
            NumFormat::Uint,
            4,
            "buffer_load_dword v4, v0, s[8:11], 0 idxen",
        ),
    ];
    for (name, data, num, bytes, load) in cases {
        let binary = assemble(&source(load), &AssembleOptions::default())
            .unwrap()
            .gallium_bytes()
            .unwrap();
        let program = Program::load(&memory, &binary, GcnVersion::Gcn1_2).unwrap();
        let src = memory
            .buffer_from_slice(
                &(0..ITEMS as usize * bytes)
                    .map(|i| (i * 37) as u8)
                    .collect::<Vec<u8>>(),
            )
            .unwrap();
        let vsrc = BufferResource::builder()
            .base(src.ptr().0)
            .stride(bytes as u64)
            .num_records(u64::from(ITEMS))
            .format(data, num)
            .build()
            .unwrap();
        let args = [
            ArgValue::Scalar(vsrc.to_bytes().to_vec()),
            ArgValue::Scalar(vdst.to_bytes().to_vec()),
        ];
        let dispatch = Dispatch::new_1d(ITEMS, 256);
        group.bench_with_input(BenchmarkId::from_parameter(name), &(), |b, _| {
            b.iter(|| program.launch("bench", &args, &dispatch, &options).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, typed_loads);
criterion_main!(benches);
