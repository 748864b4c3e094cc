//! Blurs a picture on the emulated GPU: draws a 96x64 test picture, runs a
//! GCN kernel that takes four bilinear `image_sample`s per pixel (at the
//! pixel's corners: together a 3x3 tent filter) and `image_store`s the
//! average into a second image, several passes back and forth, and writes
//! `blur_input.png` and `blur_output.png` (to the directory given as the
//! first argument, default the current one).
//!
//! `cargo run --release --example blur [-- DIR]`

use gcn_runtime::descriptor::{ClampMode, ImageResource, ImageType, SamplerResource, XyFilter};
use gcn_runtime::format::{DataFormat, NumFormat};
use gcn_runtime::image::DeviceImage;
use gcn_runtime::kernel::{Dispatch, Image, Sampler};
use gcn_runtime::{LaunchOptions, Memory, Program};

gcn_runtime::gcn_kernel! {
    mod blur;
    .gallium
    .gpu tonga
    .kernel blur
        .args
            .arg src, image2d_rdonly, 32, 32, 32   // T# of the source
            .arg smp, sampler, 16, 16, 16          // S#: bilinear
            .arg dst, image2d_wronly, 32, 32, 32   // T# of the destination
            .arg griddim
            .arg gridoffset
        .config
            .dims xy
            .tgsize
    .text
    blur:
        s_load_dwordx2   s[2:3], s[0:1], 0x18      // local size x, y
        s_load_dwordx8   s[8:15], s[0:1], 0x24     // src T# (byte 36)
        s_load_dwordx4   s[16:19], s[0:1], 0x44    // S# (byte 68)
        s_load_dwordx8   s[20:27], s[0:1], 0x64    // dst T# (byte 100: 32-aligned from 36)
        s_waitcnt        lgkmcnt(0)
        s_mul_i32        s2, s2, s4
        s_mul_i32        s3, s3, s5
        v_add_u32        v0, vcc, s2, v0           // x
        v_add_u32        v1, vcc, s3, v1           // y
        v_cvt_f32_u32    v2, v0                    // the pixel's top-left corner, in texels
        v_cvt_f32_u32    v3, v1
        v_add_f32        v4, 1.0, v2
        v_mov_b32        v5, v3
        v_mov_b32        v6, v2
        v_add_f32        v7, 1.0, v3
        v_mov_b32        v8, v4
        v_mov_b32        v9, v7
        image_sample     v[10:13], v[2:3], s[8:15], s[16:19] dmask:0xf unorm
        image_sample     v[14:17], v[4:5], s[8:15], s[16:19] dmask:0xf unorm
        image_sample     v[18:21], v[6:7], s[8:15], s[16:19] dmask:0xf unorm
        image_sample     v[22:25], v[8:9], s[8:15], s[16:19] dmask:0xf unorm
        s_waitcnt        vmcnt(0)
        v_add_f32        v10, v10, v14
        v_add_f32        v11, v11, v15
        v_add_f32        v12, v12, v16
        v_add_f32        v13, v13, v17
        v_add_f32        v10, v10, v18
        v_add_f32        v11, v11, v19
        v_add_f32        v12, v12, v20
        v_add_f32        v13, v13, v21
        v_add_f32        v10, v10, v22
        v_add_f32        v11, v11, v23
        v_add_f32        v12, v12, v24
        v_add_f32        v13, v13, v25
        v_mul_f32        v10, 0x3e800000, v10      // / 4
        v_mul_f32        v11, 0x3e800000, v11
        v_mul_f32        v12, 0x3e800000, v12
        v_mul_f32        v13, 0x3e800000, v13
        image_store      v[10:13], v[0:1], s[20:27] dmask:0xf unorm
        s_endpgm
}

const W: u32 = 96;
const H: u32 = 64;
const PASSES: usize = 3;

/// The test picture: a gradient sky, a sun and a checkered floor.
fn draw() -> Vec<u8> {
    let mut px = Vec::with_capacity((W * H * 4) as usize);
    for y in 0..H {
        for x in 0..W {
            let (dx, dy) = (x as f32 - 66.0, y as f32 - 18.0);
            let rgb: [u8; 3] = if dx * dx + dy * dy < 100.0 {
                [255, 210, 40]
            } else if y < 40 {
                [40, (90 + y * 3) as u8, 230]
            } else if (x / 8 + y / 8) % 2 == 0 {
                [250, 250, 250]
            } else {
                [30, 30, 30]
            };
            px.extend_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
        }
    }
    px
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| ".".into()));
    let input = draw();
    let memory = Memory::default();
    let t = ImageResource::new(ImageType::Image2d, DataFormat::D8_8_8_8, NumFormat::Unorm)
        .size(W, H, 1);
    let a = DeviceImage::new(&memory, t)?;
    let b = DeviceImage::new(&memory, t)?;
    a.write_level::<u8>(0, &input)?;
    let sampler = Sampler::new(
        &SamplerResource::default()
            .xy_filter(XyFilter::Bilinear)
            .clamp(ClampMode::ClampLastTexel),
    )?;
    let program = Program::from_kernel(&memory, &blur::BLUR)?;
    let dispatch = Dispatch::new(2, [W, H, 1], [16, 16, 1]);
    let mut texels = 0u64;
    let start = std::time::Instant::now();
    for pass in 0..PASSES {
        let (src, dst) = if pass % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let args = blur::BlurArgs {
            src: Image::from_device(src),
            smp: sampler,
            dst: Image::from_device(dst),
        };
        program.launch_args(&args, &dispatch, &LaunchOptions::default())?;
        texels += u64::from(W * H) * 4 * 4;
    }
    let elapsed = start.elapsed();
    let out = if PASSES % 2 == 1 { &b } else { &a };
    let output = out.read_level::<u8>(0)?;
    std::fs::create_dir_all(&dir)
        .map_err(|e| format!("cannot create the output folder {}: {e}", dir.display()))?;
    let save = |name: &str, px: &[u8]| -> Result<(), Box<dyn std::error::Error>> {
        let path = dir.join(name);
        image::save_buffer(&path, px, W, H, image::ColorType::Rgba8)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("wrote {}", path.display());
        Ok(())
    };
    save("blur_input.png", &input)?;
    save("blur_output.png", &output)?;
    println!(
        "{PASSES} passes of {W}x{H}, 4 bilinear samples per pixel: {:.1} M texels fetched/s",
        texels as f64 / elapsed.as_secs_f64() / 1e6
    );
    Ok(())
}
