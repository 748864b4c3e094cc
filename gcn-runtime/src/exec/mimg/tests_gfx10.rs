//! MIMG on GCN 1.5 and RDNA 2, in wave32 and wave64: the gfx10 T#, the
//! addrlib linear layout (offsets below are computed by hand from its
//! rules, not by [`Surface`]), `dim`, NSA, packed d16, and the faults.

use gcn_asm::GcnVersion;

use super::super::testing::{run_env_waves, Snippet};
use super::super::{Wave, WAVE_SIZE};
use crate::descriptor::{
    ClampMode, Gfx10ImageResource, ImageType, MipFilter, SamplerResource, XyFilter,
};
use crate::format::{DataFormat, NumFormat};
use crate::image::{Gfx10DeviceImage, Surface};
use crate::memory::Memory;

/// GCN 1.5 and RDNA 2, each in wave32 and wave64.
const RUNS: [(GcnVersion, bool); 4] = [
    (GcnVersion::Gcn1_5, true),
    (GcnVersion::Gcn1_5, false),
    (GcnVersion::Rdna2, true),
    (GcnVersion::Rdna2, false),
];

/// Runs `source` with the T# words in s[8:15] and the S# in s[16:19].
fn run_img(
    (version, wave32): (GcnVersion, bool),
    source: &str,
    memory: &Memory,
    t: [u32; 8],
    s: &SamplerResource,
    setup: impl FnOnce(&mut Wave),
) -> Snippet {
    let sw = s.to_words().unwrap();
    run_env_waves(version, wave32, source, memory, 1024, (0, 0), |w| {
        w.sgpr[8..16].copy_from_slice(&t);
        w.sgpr[16..20].copy_from_slice(&sw);
        setup(w);
    })
}

fn ok(s: Snippet, what: &str) -> Wave {
    if let Some(f) = s.fault {
        panic!("{what}: fault: {f:?}");
    }
    s.wave
}

fn set_u(w: &mut Wave, r: usize, v: u32) {
    w.vgpr[r] = [v; WAVE_SIZE];
}

fn set_f(w: &mut Wave, r: usize, v: f32) {
    w.vgpr[r] = [v.to_bits(); WAVE_SIZE];
}

fn image(m: &Memory, t: Gfx10ImageResource, v: GcnVersion) -> Gfx10DeviceImage {
    Gfx10DeviceImage::new(m, t, v.is_rdna2()).unwrap()
}

fn words(img: &Gfx10DeviceImage) -> [u32; 8] {
    img.resource().to_words().unwrap()
}

/// Writes `bytes` at byte `at` of the image's memory.
fn poke(img: &Gfx10DeviceImage, at: usize, bytes: &[u8]) {
    let mut all = img.read_all();
    all[at..at + bytes.len()].copy_from_slice(bytes);
    img.write_all(&all).unwrap();
}

fn t(ty: ImageType, d: DataFormat, n: NumFormat) -> Gfx10ImageResource {
    Gfx10ImageResource::new(ty, d, n).unwrap()
}

#[test]
fn layout_is_addrlibs_linear_one() {
    // 2-D, 5x3 of 4-byte texels, 3 levels (2x1, 1x1 below): rows pad to
    // 256 bytes; level 1 stores ceil(3/2) = 2 rows; the smallest level
    // comes first.
    let r = t(ImageType::Image2d, DataFormat::D32, NumFormat::Float)
        .size(5, 3, 1)
        .levels(0, 2);
    let s = Surface::gfx10(&r, false).unwrap();
    assert_eq!(
        [s.level_offset(2), s.level_offset(1), s.level_offset(0)],
        [0, 256, 768]
    );
    assert_eq!(s.slice_stride(0), 768 + 3 * 256);
    assert_eq!(s.element_address(768, 0, 3, 2, 0), (768 + 512 + 12, 0, 0));
    // 12-byte elements: rows of 3 * 32-bit words padded to 256 bytes.
    let r = t(ImageType::Image1d, DataFormat::D32_32_32, NumFormat::Float).size(30, 1, 1);
    assert_eq!(Surface::gfx10(&r, false).unwrap().row_bytes(0), 512);
    // Arrays: each slice holds the chain; BASE_ARRAY and the view's last
    // slice come from the T#.
    let a = t(ImageType::Image2dArray, DataFormat::D8, NumFormat::Uint)
        .size(4, 2, 3)
        .levels(0, 1);
    let s = Surface::gfx10(&a, false).unwrap();
    assert_eq!(s.slice_stride(1), 256 + 2 * 256);
    assert_eq!(s.total_bytes(15), 3 * 768);
    // RDNA 2 reads PITCH of a single-level 2-D image (when it is not below
    // the natural pitch); GCN 1.5 does not.
    let p = t(ImageType::Image2d, DataFormat::D32, NumFormat::Float)
        .size(8, 2, 1)
        .pitch(128);
    assert_eq!(Surface::gfx10(&p, true).unwrap().row_bytes(0), 512);
    assert_eq!(Surface::gfx10(&p, false).unwrap().row_bytes(0), 256);
    assert_eq!(Surface::gfx10(&p.pitch(1), true).unwrap().row_bytes(0), 256);
}

#[test]
fn load_and_store_by_dim() {
    for run in RUNS {
        let v = run.0;
        let m = Memory::default();
        // 2-D RGBA8 UNORM 3x2: texel (2, 1) at row 1 (256 bytes) + 8.
        let img = image(
            &m,
            t(ImageType::Image2d, DataFormat::D8_8_8_8, NumFormat::Unorm).size(3, 2, 1),
            v,
        );
        poke(&img, 256 + 8, &[255, 0, 51, 102]);
        let w = ok(
            run_img(
                run,
                "image_load v[0:3], v[4:5], s[8:15] dmask:0xf dim:2d unorm\n\
                 image_load v[6:7], v[8:9], s[8:15] dmask:0x3 dim:2d unorm",
                &m,
                words(&img),
                &SamplerResource::default(),
                |w| {
                    set_u(w, 4, 2);
                    set_u(w, 5, 1);
                    set_u(w, 8, 3); // x past the width reads 0
                    set_u(w, 9, 0);
                    set_u(w, 6, 7);
                },
            ),
            "2d load",
        );
        let lane = if run.1 { 31 } else { 63 };
        let rgba: Vec<f32> = (0..4).map(|r| f32::from_bits(w.vgpr[r][lane])).collect();
        assert_eq!(rgba, [1.0, 0.0, 0.2, 0.4], "{run:?}");
        assert_eq!([w.vgpr[6][0], w.vgpr[7][0]], [0, 0]);
        // 1-D store and load back.
        let img = image(
            &m,
            t(ImageType::Image1d, DataFormat::D32, NumFormat::Uint).size(8, 1, 1),
            v,
        );
        ok(
            run_img(
                run,
                "image_store v0, v1, s[8:15] dmask:0x1 dim:1d unorm\n\
                 image_load v2, v3, s[8:15] dmask:0x1 dim:1d unorm\n\
                 s_waitcnt vmcnt(0)",
                &m,
                words(&img),
                &SamplerResource::default(),
                |w| {
                    w.set_exec(1);
                    set_u(w, 0, 0xdead);
                    set_u(w, 1, 5);
                    set_u(w, 3, 5);
                },
            ),
            "1d",
        );
        assert_eq!(img.read_level::<u32>(0).unwrap()[5], 0xdead);
        // 2-D array: slice = BASE_ARRAY + coordinate; each slice holds the
        // whole chain (here one level of 256 bytes per row).
        let a = t(ImageType::Image2dArray, DataFormat::D32, NumFormat::Uint)
            .size(2, 2, 4)
            .base_array(1);
        let img = image(&m, a, v);
        // Slice 3, texel (1, 1): 3 * 512 + 256 + 4.
        poke(&img, 3 * 512 + 256 + 4, &0x1234_5678u32.to_le_bytes());
        let w = ok(
            run_img(
                run,
                "image_load v0, v[4:6], s[8:15] dmask:0x1 dim:2d_array unorm\n\
                 image_load v1, v[4:6], s[8:15] dmask:0x1 dim:cube unorm\n\
                 image_load v2, v[8:10], s[8:15] dmask:0x1 dim:2d_array unorm",
                &m,
                words(&img),
                &SamplerResource::default(),
                |w| {
                    set_u(w, 4, 1);
                    set_u(w, 5, 1);
                    set_u(w, 6, 2); // slice 1 + 2
                    set_u(w, 8, 1);
                    set_u(w, 9, 1);
                    set_u(w, 10, 3); // slice 4: past the view
                    set_u(w, 2, 9);
                },
            ),
            "array",
        );
        assert_eq!(
            [w.vgpr[0][0], w.vgpr[1][0], w.vgpr[2][0]],
            [0x1234_5678, 0x1234_5678, 0]
        );
        // 3-D: depth slices at the chain stride.
        let d = t(ImageType::Image3d, DataFormat::D16, NumFormat::Uint).size(4, 2, 3);
        let img = image(&m, d, v);
        poke(&img, 2 * 512 + 256 + 6, &0xbeefu16.to_le_bytes());
        let w = ok(
            run_img(
                run,
                "image_load v0, v[4:6], s[8:15] dmask:0x1 dim:3d unorm",
                &m,
                words(&img),
                &SamplerResource::default(),
                |w| {
                    set_u(w, 4, 3);
                    set_u(w, 5, 1);
                    set_u(w, 6, 2);
                },
            ),
            "3d",
        );
        assert_eq!(w.vgpr[0][0], 0xbeef, "{run:?}");
    }
}

#[test]
fn nsa_addresses_and_packed_d16() {
    for run in RUNS {
        let v = run.0;
        let m = Memory::default();
        let d = t(
            ImageType::Image3d,
            DataFormat::D16_16_16_16,
            NumFormat::Float,
        )
        .size(2, 2, 2);
        let img = image(&m, d, v);
        // Texel (1, 0, 1): slice 1 (2 rows of 256 bytes) + 8.
        let halves = [1.0f32, 2.0, -0.5, 0.25].map(|x| half::f16::from_f32(x).to_bits());
        let bytes: Vec<u8> = halves.iter().flat_map(|h| h.to_le_bytes()).collect();
        poke(&img, 512 + 8, &bytes);
        let w = ok(
            run_img(
                run,
                "image_load v[0:3], [v20, v7, v11], s[8:15] dmask:0xf dim:3d unorm\n\
                 image_load v[4:5], [v20, v7, v11], s[8:15] dmask:0xf dim:3d unorm d16\n\
                 image_load v6, [v20, v7, v11], s[8:15] dmask:0x5 dim:3d unorm d16",
                &m,
                words(&img),
                &SamplerResource::default(),
                |w| {
                    set_u(w, 20, 1);
                    set_u(w, 7, 0);
                    set_u(w, 11, 1);
                },
            ),
            "nsa",
        );
        let f: Vec<f32> = (0..4).map(|r| f32::from_bits(w.vgpr[r][0])).collect();
        assert_eq!(f, [1.0, 2.0, -0.5, 0.25], "{run:?}");
        // d16 packs two halves per VGPR (low first), as on GCN 1.4.
        assert_eq!(
            w.vgpr[4][0],
            u32::from(halves[0]) | u32::from(halves[1]) << 16
        );
        assert_eq!(
            w.vgpr[5][0],
            u32::from(halves[2]) | u32::from(halves[3]) << 16
        );
        assert_eq!(
            w.vgpr[6][0],
            u32::from(halves[0]) | u32::from(halves[2]) << 16
        );
        // A packed d16 store (NSA too) writes the halves back.
        ok(
            run_img(
                run,
                "image_store v[0:1], [v20, v7, v11], s[8:15] dmask:0xf dim:3d unorm d16",
                &m,
                words(&img),
                &SamplerResource::default(),
                |w| {
                    w.set_exec(1);
                    set_u(w, 0, 0x4000_3c00); // 1.0, 2.0
                    set_u(w, 1, 0x3400_b800); // -0.5, 0.25
                    set_u(w, 20, 0);
                    set_u(w, 7, 1);
                    set_u(w, 11, 0);
                },
            ),
            "d16 store",
        );
        assert_eq!(&img.read_all()[256..264], &bytes[..]);
    }
}

#[test]
fn mips_and_resinfo() {
    for run in RUNS {
        let v = run.0;
        let m = Memory::default();
        // 4x4 8_8 UINT, levels 0..=2: level 2 at 0, level 1 at 256 (two
        // rows), level 0 at 768.
        let r = t(ImageType::Image2d, DataFormat::D8_8, NumFormat::Uint)
            .size(4, 4, 1)
            .levels(0, 2);
        let img = image(&m, r, v);
        assert_eq!(img.read_all().len(), 768 + 4 * 256);
        poke(&img, 256 + 256 + 2, &[0xff, 0x7f]); // level 1, (1, 1)
        poke(&img, 0, &[5, 6]); // level 2
        let w = ok(
            run_img(
                run,
                "image_load_mip v[0:1], v[4:6], s[8:15] dmask:0x3 dim:2d unorm\n\
                 image_load_mip_pck_sgn v[2:3], v[4:6], s[8:15] dmask:0x3 dim:2d unorm\n\
                 image_load_mip v[7:8], v[10:12], s[8:15] dmask:0x3 dim:2d unorm\n\
                 image_get_resinfo v[13:16], v[6:7], s[8:15] dmask:0xf dim:2d unorm",
                &m,
                words(&img),
                &SamplerResource::default(),
                |w| {
                    set_u(w, 4, 1);
                    set_u(w, 5, 1);
                    set_u(w, 6, 1); // mip 1
                    set_u(w, 10, 0);
                    set_u(w, 11, 0);
                    set_u(w, 12, 2); // mip 2
                },
            ),
            "mips",
        );
        assert_eq!([w.vgpr[0][0], w.vgpr[1][0]], [0xff, 0x7f], "{run:?}");
        assert_eq!([w.vgpr[2][0], w.vgpr[3][0]], [u32::MAX, 0x7f]);
        assert_eq!([w.vgpr[7][0], w.vgpr[8][0]], [5, 6]);
        assert_eq!(
            [w.vgpr[13][0], w.vgpr[14][0], w.vgpr[15][0], w.vgpr[16][0]],
            [2, 2, 0, 3]
        );
        // A view of levels 1..=2: mip 0 of the instruction is level 1.
        let view = img.resource().base_level(1).to_words().unwrap();
        let w = ok(
            run_img(
                run,
                "image_load_mip v[0:1], v[4:6], s[8:15] dmask:0x3 dim:2d unorm\n\
                 image_get_resinfo v[2:5], v[6:7], s[8:15] dmask:0xf dim:2d unorm",
                &m,
                view,
                &SamplerResource::default(),
                |w| {
                    set_u(w, 4, 1);
                    set_u(w, 5, 1);
                    set_u(w, 6, 0);
                },
            ),
            "view",
        );
        assert_eq!([w.vgpr[0][0], w.vgpr[1][0]], [0xff, 0x7f]);
        assert_eq!([w.vgpr[2][0], w.vgpr[3][0], w.vgpr[5][0]], [2, 2, 2]);
        // Arrays: Z is the slices of the view's end (DEPTH + 1).
        let a = t(ImageType::Image2dArray, DataFormat::D32, NumFormat::Float).size(8, 4, 3);
        let img = image(&m, a, v);
        let w = ok(
            run_img(
                run,
                "image_get_resinfo v[0:3], v[4:6], s[8:15] dmask:0xf dim:2d_array unorm",
                &m,
                words(&img),
                &SamplerResource::default(),
                |w| set_u(w, 4, 0),
            ),
            "array resinfo",
        );
        assert_eq!(
            [w.vgpr[0][0], w.vgpr[1][0], w.vgpr[2][0], w.vgpr[3][0]],
            [8, 4, 3, 1]
        );
    }
}

#[test]
fn sample_nearest_and_linear() {
    for run in RUNS {
        let v = run.0;
        let m = Memory::default();
        // 2x2 R32 FLOAT: 0, 1 / 2, 3.
        let r = t(ImageType::Image2d, DataFormat::D32, NumFormat::Float).size(2, 2, 1);
        let img = image(&m, r, v);
        for (at, x) in [(0, 0.0f32), (4, 1.0), (256, 2.0), (260, 3.0)] {
            poke(&img, at, &x.to_le_bytes());
        }
        let nearest = SamplerResource::default().clamp(ClampMode::ClampLastTexel);
        let linear = nearest
            .xy_filter(XyFilter::Bilinear)
            .mip_filter(MipFilter::None);
        let src = "image_sample_lz v0, v[4:5], s[8:15], s[16:19] dmask:0x1 dim:2d\n\
                   image_sample_lz v1, v[6:7], s[8:15], s[16:19] dmask:0x1 dim:2d";
        let setup = |w: &mut Wave| {
            // The centre of texel (1, 1), and the image's centre.
            set_f(w, 4, 0.75);
            set_f(w, 5, 0.75);
            set_f(w, 6, 0.5);
            set_f(w, 7, 0.5);
        };
        let w = ok(
            run_img(run, src, &m, words(&img), &nearest, setup),
            "nearest",
        );
        assert_eq!(
            [f32::from_bits(w.vgpr[0][0]), f32::from_bits(w.vgpr[1][0])],
            [3.0, 3.0]
        );
        let w = ok(run_img(run, src, &m, words(&img), &linear, setup), "linear");
        // Bilinear at the centre: the mean of the four texels.
        assert_eq!(
            [f32::from_bits(w.vgpr[0][0]), f32::from_bits(w.vgpr[1][0])],
            [3.0, 1.5],
            "{run:?}"
        );
        // Sampling a 2-D array with dim:cube is not the same image.
        let a = t(ImageType::Image2dArray, DataFormat::D32, NumFormat::Float).size(2, 2, 6);
        let arr = image(&m, a, v);
        let s = run_img(
            run,
            "image_sample_lz v0, v[4:6], s[8:15], s[16:19] dmask:0x1 dim:cube",
            &m,
            words(&arr),
            &linear,
            |_| {},
        );
        let msg = s.fault.unwrap().kind.to_string();
        assert!(
            msg.contains("dim:cube does not address a T# of type IMAGE_2D_ARRAY"),
            "{msg}"
        );
    }
}

#[test]
fn atomics() {
    for run in RUNS {
        let v = run.0;
        let m = Memory::default();
        let r = t(ImageType::Image2d, DataFormat::D32, NumFormat::Uint).size(4, 2, 1);
        let img = image(&m, r, v);
        poke(&img, 256 + 12, &100u32.to_le_bytes());
        let lanes = if run.1 { 32 } else { 64 };
        let w = ok(
            run_img(
                run,
                "image_atomic_add v0, v[4:5], s[8:15] dmask:0x1 dim:2d unorm glc\n\
                 s_waitcnt vmcnt(0)\n\
                 image_atomic_cmpswap v[1:2], v[4:5], s[8:15] dmask:0x3 dim:2d unorm glc",
                &m,
                words(&img),
                &SamplerResource::default(),
                |w| {
                    set_u(w, 0, 1);
                    set_u(w, 4, 3);
                    set_u(w, 5, 1);
                    w.vgpr[1] = std::array::from_fn(|l| 1000 + l as u32);
                    set_u(w, 2, 100 + lanes); // the value after every add
                },
            ),
            "atomics",
        );
        // Every lane added 1: the old values are 100.. in some order.
        let mut olds: Vec<u32> = w.vgpr[0][..lanes as usize].to_vec();
        olds.sort_unstable();
        assert_eq!(olds, (100..100 + lanes).collect::<Vec<_>>(), "{run:?}");
        // One lane's compare matched and stored its value.
        let now = img.read_level::<u32>(0).unwrap()[64 + 3];
        assert!((1000..1000 + lanes).contains(&now), "{now}");
    }
}

#[test]
fn what_cannot_run_faults_with_the_reason() {
    let run = (GcnVersion::Rdna2, true);
    let m = Memory::default();
    let r = t(ImageType::Image2d, DataFormat::D32, NumFormat::Float).size(2, 2, 1);
    let img = image(&m, r, run.0);
    let load = "image_load v0, v[4:5], s[8:15] dmask:0x1 dim:2d unorm";
    let fault = |words: [u32; 8], src: &str| -> String {
        let s = run_img(run, src, &m, words, &SamplerResource::default(), |w| {
            set_u(w, 4, 0);
            set_u(w, 5, 0);
        });
        s.fault.expect("a fault").kind.to_string()
    };
    let tiled = img.resource().sw_mode(9).to_words().unwrap();
    assert_eq!(
        fault(tiled, load),
        "image_load: swizzle mode SW_MODE 9 is not supported (only the linear mode 0)"
    );
    let srgb = img.resource().format(130).to_words();
    assert!(
        srgb.is_err(),
        "the builder refuses a code outside the table"
    );
    let mut w = words(&img);
    w[1] = w[1] & !(0x1ff << 20) | 130 << 20;
    assert!(fault(w, load).contains("image FORMAT code 130 is not supported"));
    let dcc = img.resource().compression_enable(true).to_words().unwrap();
    assert!(fault(dcc, load).contains("COMPRESSION_ENABLE"));
    assert!(fault(
        words(&img),
        "image_load v0, v[4:6], s[8:15] dmask:0x1 dim:2d_array unorm"
    )
    .contains("dim:2d_array does not address a T# of type IMAGE_2D"));
    assert!(fault(
        words(&img),
        "image_load v0, v[4:6], s[8:15] dmask:0x1 dim:2d_msaa unorm"
    )
    .contains("dim:2d_msaa (multisampled images) is not supported"));
    // The gfx10 S# bits the emulator does not model.
    let samp = words(&img);
    let s = run_env_waves(
        run.0,
        run.1,
        "image_sample_lz v0, v[4:5], s[8:15], s[16:19] dmask:0x1 dim:2d",
        &m,
        1024,
        (0, 0),
        |w| {
            w.sgpr[8..16].copy_from_slice(&samp);
            w.sgpr[16..20].copy_from_slice(&[1 << 31, 0, 0, 0]);
        },
    );
    assert!(s.fault.unwrap().kind.to_string().contains("SKIP_DEGAMMA"));
}
