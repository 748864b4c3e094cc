//! Image sampling speed: bilinear `image_sample` (four RGBA8 texels
//! fetched, decoded and blended per sample) over a 256x256 image, one sample
//! per work item; throughput in samples per second (criterion's
//! "elements").
//!
//! `cargo bench -p gcn-runtime --bench image`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gcn_runtime::descriptor::{ClampMode, ImageResource, ImageType, SamplerResource, XyFilter};
use gcn_runtime::format::{DataFormat, NumFormat};
use gcn_runtime::gcn_asm::{assemble, AssembleOptions};
use gcn_runtime::image::DeviceImage;
use gcn_runtime::kernel::{ArgField, Dispatch, Image, Sampler};
use gcn_runtime::{LaunchOptions, Memory, Program};

const SIDE: u32 = 256;

const SOURCE: &str = r#"
.gallium
.gpu tonga
.kernel sample
    .args
        .arg img, image2d_rdonly, 32, 32, 32
        .arg smp, sampler, 16, 16, 16
        .arg out, global, 8
        .arg griddim
        .arg gridoffset
    .config
        .dims x
        .tgsize
.text
sample:
    s_load_dword     s2, s[0:1], 0x18
    s_load_dwordx8   s[8:15], s[0:1], 0x24
    s_load_dwordx4   s[16:19], s[0:1], 0x44
    s_load_dwordx2   s[20:21], s[0:1], 0x54
    s_waitcnt        lgkmcnt(0)
    s_mul_i32        s2, s2, s4
    v_add_u32        v0, vcc, s2, v0
    v_and_b32        v1, 0xff, v0
    v_lshrrev_b32    v2, 8, v0
    v_cvt_f32_u32    v1, v1
    v_cvt_f32_u32    v2, v2
    v_add_f32        v1, 0x3f400000, v1         # x + 0.75 texels
    v_add_f32        v2, 0x3e800000, v2         # y + 0.25 texels
    image_sample     v[4:7], v[1:2], s[8:15], s[16:19] dmask:0xf unorm
    v_lshlrev_b32    v3, 2, v0
    v_mov_b32        v8, s21
    v_add_u32        v9, vcc, s20, v3
    v_addc_u32       v10, vcc, v8, 0, vcc
    s_waitcnt        vmcnt(0)
    v_add_f32        v4, v4, v5
    v_add_f32        v4, v4, v6
    v_add_f32        v4, v4, v7
    flat_store_dword v[9:10], v4
    s_endpgm
"#;

fn bench(c: &mut Criterion) {
    let memory = Memory::default();
    let binary = assemble(SOURCE, &AssembleOptions::default())
        .expect("assembles")
        .gallium_bytes()
        .expect("gallium");
    let program =
        Program::load(&memory, &binary, gcn_runtime::gcn_asm::GcnVersion::Gcn1_2).expect("loads");
    let t = ImageResource::new(ImageType::Image2d, DataFormat::D8_8_8_8, NumFormat::Unorm)
        .size(SIDE, SIDE, 1);
    let img = DeviceImage::new(&memory, t).expect("image");
    let texels: Vec<u32> = (0..SIDE * SIDE)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    img.write_level(0, &texels).expect("upload");
    let s = SamplerResource::default()
        .xy_filter(XyFilter::Bilinear)
        .clamp(ClampMode::Wrap);
    let out = memory
        .buffer_zeroed::<f32>((SIDE * SIDE) as usize)
        .expect("out");
    let values = [
        Image::from_device(&img).arg_value(),
        Sampler::new(&s).expect("sampler").arg_value(),
        out.ptr().arg_value(),
    ];
    let dispatch = Dispatch::new_1d(SIDE * SIDE, 256);
    let options = LaunchOptions::default();
    let mut g = c.benchmark_group("image_sample");
    g.throughput(Throughput::Elements(u64::from(SIDE * SIDE)));
    g.sample_size(10);
    g.bench_function("bilinear_rgba8_256x256", |b| {
        b.iter(|| {
            program
                .launch("sample", &values, &dispatch, &options)
                .expect("runs")
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
