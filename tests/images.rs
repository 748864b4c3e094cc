//! Images end to end: a `gcn_kernel!` kernel that takes a T# and an S# as
//! arguments (this project's image ABI, see `gcn_runtime::kernel`) and
//! samples a device image bilinearly, on every GCN version. The expected
//! values are computed by hand from the bilinear rule.

use gcn_runtime::descriptor::{ClampMode, ImageResource, ImageType, SamplerResource, XyFilter};
use gcn_runtime::format::{DataFormat, NumFormat};
use gcn_runtime::image::DeviceImage;
use gcn_runtime::kernel::{Dispatch, Kernel};
use gcn_runtime::kernel::{Image, Sampler};
use gcn_runtime::{LaunchOptions, Memory, Program};

macro_rules! sample_kernel {
    ($m:ident, $gpu:tt) => {
        mod $m {
            gcn_runtime::gcn_kernel!(file = "tests/kernels/sample.s", gpu = $gpu);
        }
    };
}
macro_rules! rw_kernel {
    ($m:ident, $gpu:tt) => {
        mod $m {
            gcn_runtime::gcn_kernel!(file = "tests/kernels/image_rw.s", gpu = $gpu);
        }
    };
}
rw_kernel!(rw10, "pitcairn");
rw_kernel!(rw11, "bonaire");
rw_kernel!(rw12, "tonga");
rw_kernel!(rw14, "gfx900");

sample_kernel!(gcn10, "pitcairn");
sample_kernel!(gcn11, "bonaire");
sample_kernel!(gcn12, "tonga");
sample_kernel!(gcn14, "gfx900");

fn run(
    kernel: &Kernel,
    args: impl Fn(Image, Sampler, gcn_runtime::kernel::DevicePtr) -> Vec<gcn_runtime::ArgValue>,
) -> Vec<f32> {
    let memory = Memory::default();
    let t = ImageResource::new(ImageType::Image2d, DataFormat::D32, NumFormat::Float).size(4, 1, 1);
    let img = DeviceImage::new(&memory, t).unwrap();
    img.write_level::<f32>(0, &[10.0, 20.0, 30.0, 40.0])
        .unwrap();
    let s = SamplerResource::default()
        .xy_filter(XyFilter::Bilinear)
        .clamp(ClampMode::ClampLastTexel);
    let out = memory.buffer_zeroed::<f32>(16).unwrap();
    let program = Program::from_kernel(&memory, kernel).unwrap();
    let values = args(
        Image::from_device(&img),
        Sampler::new(&s).unwrap(),
        out.ptr(),
    );
    program
        .launch(
            kernel.name,
            &values,
            &Dispatch::new_1d(16, 16),
            &LaunchOptions::default(),
        )
        .unwrap();
    out.to_vec()
}

#[test]
fn a_kernel_samples_an_image_argument_on_every_version() {
    // t = gid / 4 + 0.5 texels -> u = gid / 4: texel floor(u) and the next,
    // weight frac(u); past texel 3 both clamp to texel 3.
    let expected: Vec<f32> = (0..16)
        .map(|g| if g <= 12 { 10.0 + 2.5 * g as f32 } else { 40.0 })
        .collect();
    use gcn_runtime::kernel::ArgField;
    let typed = |k: &Kernel| {
        run(k, |i, s, p| {
            vec![i.arg_value(), s.arg_value(), p.arg_value()]
        })
    };
    assert_eq!(typed(&gcn10::SAMPLE), expected, "GCN 1.0");
    assert_eq!(typed(&gcn11::SAMPLE), expected, "GCN 1.1");
    assert_eq!(typed(&gcn12::SAMPLE), expected, "GCN 1.2");
    assert_eq!(typed(&gcn14::SAMPLE), expected, "GCN 1.4");
    // The typed argument struct has Image and Sampler fields.
    let _: fn(Image, Sampler, gcn_runtime::kernel::DevicePtr) -> gcn12::SampleArgs =
        |img, smp, out| gcn12::SampleArgs { img, smp, out };
}

#[test]
fn a_kernel_loads_stores_and_updates_image_arguments_on_every_version() {
    for (kernel, name) in [
        (&rw10::IMAGE_RW, "GCN 1.0"),
        (&rw11::IMAGE_RW, "GCN 1.1"),
        (&rw12::IMAGE_RW, "GCN 1.2"),
        (&rw14::IMAGE_RW, "GCN 1.4"),
    ] {
        let memory = Memory::default();
        let t =
            ImageResource::new(ImageType::Image2d, DataFormat::D32, NumFormat::Uint).size(16, 1, 1);
        let a = DeviceImage::new(&memory, t).unwrap();
        let b = DeviceImage::new(&memory, t).unwrap();
        let init: Vec<u32> = (100..116).collect();
        a.write_level::<u32>(0, &init).unwrap();
        let program = Program::from_kernel(&memory, kernel).unwrap();
        use gcn_runtime::kernel::ArgField;
        let values = [
            Image::from_device(&a).arg_value(),
            Image::from_device(&b).arg_value(),
        ];
        program
            .launch(
                kernel.name,
                &values,
                &Dispatch::new_1d(16, 16),
                &LaunchOptions::default(),
            )
            .unwrap();
        // b[15 - i] = 2 * a[i] (a[0] read before any add lands: the load
        // precedes the atomic in every lane).
        let want: Vec<u32> = (0..16).map(|i| 2 * (100 + 15 - i)).collect();
        assert_eq!(b.read_level::<u32>(0).unwrap(), want, "{name}");
        // 16 atomic adds of 1 on a[0].
        assert_eq!(a.read_level::<u32>(0).unwrap()[0], 116, "{name}");
    }
}
