//! MIMG semantics on snippets: expected texels are computed by hand from
//! the seeds' rules (formats, clamp modes, filters) and the module's
//! documented choices, on every GCN version the row exists on.

use gcn_asm::GcnVersion;

use super::super::testing::{run_with, versions_with, Snippet};
use super::super::{FaultKind, Wave, WAVE_SIZE};
use crate::descriptor::{
    BorderColor, ClampMode, DepthCompare, FilterMode, ImageResource, ImageType, MipFilter,
    SamplerResource, XyFilter,
};
use crate::format::{DataFormat, DstSel, NumFormat};
use crate::image::DeviceImage;
use crate::memory::Memory;

/// Runs `source` with the T# in s[8:15] and the S# in s[16:19].
fn run_img(
    version: GcnVersion,
    source: &str,
    memory: &Memory,
    t: &ImageResource,
    s: &SamplerResource,
    setup: impl FnOnce(&mut Wave),
) -> Snippet {
    let tw = t.to_words().unwrap();
    let sw = s.to_words().unwrap();
    run_with(version, source, memory, |w| {
        w.sgpr[8..16].copy_from_slice(&tw);
        w.sgpr[16..20].copy_from_slice(&sw);
        setup(w);
    })
}

fn ok(s: Snippet) -> Wave {
    if let Some(f) = s.fault {
        panic!("fault: {f:?}");
    }
    s.wave
}

fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

fn set_f(w: &mut Wave, r: usize, v: f32) {
    w.vgpr[r] = [v.to_bits(); WAVE_SIZE];
}

fn set_u(w: &mut Wave, r: usize, v: u32) {
    w.vgpr[r] = [v; WAVE_SIZE];
}

fn image(memory: &Memory, t: ImageResource, level0: &[u8]) -> DeviceImage {
    let img = DeviceImage::new(memory, t).unwrap();
    img.write_level::<u8>(0, level0).unwrap();
    img
}

#[test]
fn load_converts_selects_and_swizzles() {
    for v in versions_with("image_load") {
        let m = Memory::default();
        // 2x3 RGBA8 UNORM; texel (1, 2) = 255, 0, 51, 102.
        let mut data = vec![0u8; 2 * 3 * 4];
        data[(2 * 2 + 1) * 4..(2 * 2 + 2) * 4].copy_from_slice(&[255, 0, 51, 102]);
        let t = ImageResource::new(ImageType::Image2d, DataFormat::D8_8_8_8, NumFormat::Unorm)
            .size(2, 3, 1);
        let img = image(&m, t, &data);
        let t = img.resource();
        let w = ok(run_img(
            v,
            "image_load v[0:3], v[4:5], s[8:15] dmask:0xf unorm\n\
             image_load v[6:7], v[4:5], s[8:15] dmask:0x5 unorm\n\
             image_load v[8:9], v[10:11], s[8:15] dmask:0x3 unorm",
            &m,
            &t,
            &SamplerResource::default(),
            |w| {
                set_u(w, 4, 1);
                set_u(w, 5, 2);
                set_u(w, 10, 2); // x out of range
                set_u(w, 11, 0);
                set_u(w, 8, 7);
            },
        ));
        assert_eq!(
            [
                f(w.vgpr[0][3]),
                f(w.vgpr[1][3]),
                f(w.vgpr[2][3]),
                f(w.vgpr[3][3])
            ],
            [1.0, 0.0, 0.2, 0.4],
            "{v}"
        );
        assert_eq!([f(w.vgpr[6][0]), f(w.vgpr[7][0])], [1.0, 0.2]);
        assert_eq!([w.vgpr[8][0], w.vgpr[9][0]], [0, 0], "out of range reads 0");
        // DST_SEL: W, 1, 0, X.
        let t = t.dst_sel([DstSel::W, DstSel::One, DstSel::Zero, DstSel::X]);
        let w = ok(run_img(
            v,
            "image_load v[0:3], v[4:5], s[8:15] dmask:0xf unorm",
            &m,
            &t,
            &SamplerResource::default(),
            |w| {
                set_u(w, 4, 1);
                set_u(w, 5, 2);
            },
        ));
        assert_eq!(
            [
                f(w.vgpr[0][0]),
                f(w.vgpr[1][0]),
                f(w.vgpr[2][0]),
                f(w.vgpr[3][0])
            ],
            [0.4, 1.0, 0.0, 1.0]
        );
    }
}

#[test]
fn load_mip_pck_and_resinfo() {
    for v in versions_with("image_load_mip") {
        let m = Memory::default();
        // 4x4 8_8 UINT, levels 0..=2; level 1 is 2x2 after 32 bytes.
        let t = ImageResource::new(ImageType::Image2d, DataFormat::D8_8, NumFormat::Uint)
            .size(4, 4, 1)
            .levels(0, 2);
        let img = DeviceImage::new(&m, t).unwrap();
        img.write_level::<u8>(1, &[1, 2, 3, 4, 5, 6, 0xff, 0x7f])
            .unwrap();
        let t = img.resource();
        let w = ok(run_img(
            v,
            "image_load_mip v[0:1], v[4:7], s[8:15] dmask:0x3 unorm\n\
             image_load_mip_pck v[2:3], v[4:7], s[8:15] dmask:0x3 unorm\n\
             image_load_mip_pck_sgn v[8:9], v[4:7], s[8:15] dmask:0x3 unorm\n\
             image_get_resinfo v[10:13], v6, s[8:15] dmask:0xf unorm",
            &m,
            &t,
            &SamplerResource::default(),
            |w| {
                set_u(w, 4, 1);
                set_u(w, 5, 1);
                set_u(w, 6, 1); // mip 1
            },
        ));
        assert_eq!([w.vgpr[0][0], w.vgpr[1][0]], [0xff, 0x7f], "{v}");
        assert_eq!([w.vgpr[2][0], w.vgpr[3][0]], [0xff, 0x7f]);
        assert_eq!([w.vgpr[8][0], w.vgpr[9][0]], [u32::MAX, 0x7f]);
        // resinfo of mip 1: 2x2, depth 0 for 2-D, 3 levels.
        assert_eq!(
            [w.vgpr[10][0], w.vgpr[11][0], w.vgpr[12][0], w.vgpr[13][0]],
            [2, 2, 0, 3]
        );
    }
    // Arrays: resinfo gives the slices.
    let m = Memory::default();
    let t = ImageResource::new(ImageType::Image2dArray, DataFormat::D32, NumFormat::Float)
        .size(8, 4, 3)
        .levels(0, 1);
    let img = DeviceImage::new(&m, t).unwrap();
    let w = ok(run_img(
        GcnVersion::Gcn1_0,
        "image_get_resinfo v[0:3], v4, s[8:15] dmask:0xf unorm",
        &m,
        &img.resource(),
        &SamplerResource::default(),
        |w| set_u(w, 4, 1),
    ));
    assert_eq!(
        [w.vgpr[0][0], w.vgpr[1][0], w.vgpr[2][0], w.vgpr[3][0]],
        [4, 2, 3, 2]
    );
}

#[test]
fn store_converts_and_keeps_disabled_components() {
    for v in versions_with("image_store") {
        let m = Memory::default();
        let t = ImageResource::new(ImageType::Image2d, DataFormat::D8_8, NumFormat::Unorm)
            .size(2, 2, 1);
        let img = image(&m, t, &[9; 8]);
        let w_ok = run_img(
            v,
            "image_store v[0:1], v[4:5], s[8:15] dmask:0x3 unorm\n\
             image_store v2, v[6:7], s[8:15] dmask:0x2 unorm\n\
             image_store_pck v3, v[8:9], s[8:15] dmask:0x1 unorm",
            &m,
            &img.resource(),
            &SamplerResource::default(),
            |w| {
                w.set_exec(1);
                set_f(w, 0, 0.5); // round_ne(127.5) = 128
                set_f(w, 1, 2.0); // saturates to 255
                set_f(w, 2, 0.2); // 51
                set_u(w, 3, 0x1ab); // raw: low 8 bits
                set_u(w, 4, 1);
                set_u(w, 5, 0);
                set_u(w, 6, 0);
                set_u(w, 7, 1);
                set_u(w, 8, 1);
                set_u(w, 9, 1);
            },
        );
        ok(w_ok);
        assert_eq!(
            img.read_level::<u8>(0).unwrap(),
            vec![9, 9, 128, 255, 9, 51, 0xab, 9],
            "{v}"
        );
    }
}

#[test]
fn store_to_unwritable_format_and_other_tiling_fault() {
    let m = Memory::default();
    let t = ImageResource::new(ImageType::Image2d, DataFormat::D5_9_9_9, NumFormat::Float);
    let img = DeviceImage::new(&m, t).unwrap();
    let s = run_img(
        GcnVersion::Gcn1_2,
        "image_store v0, v[4:5], s[8:15] dmask:0x1 unorm",
        &m,
        &img.resource(),
        &SamplerResource::default(),
        |_| {},
    );
    let msg = s.fault.unwrap().kind.to_string();
    assert!(msg.contains("5_9_9_9"), "{msg}");
    let t = img.resource().tiling_index(13);
    let s = run_img(
        GcnVersion::Gcn1_2,
        "image_load v0, v[4:5], s[8:15] dmask:0x1 unorm",
        &m,
        &t,
        &SamplerResource::default(),
        |_| {},
    );
    assert_eq!(
        s.fault.unwrap().kind,
        FaultKind::Unsupported(
            "image_load: tiling mode 13 is not supported (only the linear tiling index 8)".into()
        )
    );
}

#[test]
fn d16_and_tfe() {
    let m = Memory::default();
    let t =
        ImageResource::new(ImageType::Image1d, DataFormat::D32_32, NumFormat::Float).size(1, 1, 1);
    let mut b = 1.5f32.to_le_bytes().to_vec();
    b.extend(2.0f32.to_le_bytes());
    let img = image(&m, t, &b);
    // GCN 1.2: one component per VGPR (half in the low bits).
    let w = ok(run_img(
        GcnVersion::Gcn1_2,
        "image_load v[0:1], v4, s[8:15] dmask:0x3 unorm d16",
        &m,
        &img.resource(),
        &SamplerResource::default(),
        |w| set_u(w, 4, 0),
    ));
    assert_eq!([w.vgpr[0][0], w.vgpr[1][0]], [0x3e00, 0x4000]);
    // GCN 1.4: packed, and tfe's status VGPR is 0.
    let w = ok(run_img(
        GcnVersion::Gcn1_4,
        "image_load v[0:1], v4, s[8:15] dmask:0x3 unorm d16 tfe",
        &m,
        &img.resource(),
        &SamplerResource::default(),
        |w| {
            set_u(w, 4, 0);
            set_u(w, 1, 77);
        },
    ));
    assert_eq!([w.vgpr[0][0], w.vgpr[1][0]], [0x4000_3e00, 0]);
}

#[test]
fn atomics_on_32_bit_images() {
    // (mnemonic, old, data, compare, expected new)
    let cases: &[(&str, u32, u32, u32, u32)] = &[
        ("swap", 5, 9, 0, 9),
        ("cmpswap", 5, 9, 5, 9),
        ("add", 5, 9, 0, 14),
        ("sub", 5, 9, 0, 5u32.wrapping_sub(9)),
        ("rsub", 5, 9, 0, 4),
        ("smin", (-3i32) as u32, 9, 0, (-3i32) as u32),
        ("umin", 5, 9, 0, 5),
        ("smax", (-3i32) as u32, 9, 0, 9),
        ("umax", 5, 9, 0, 9),
        ("and", 6, 3, 0, 2),
        ("or", 6, 3, 0, 7),
        ("xor", 6, 3, 0, 5),
        ("inc", 5, 9, 0, 6),
        ("dec", 5, 9, 0, 4),
        (
            "fcmpswap",
            1.5f32.to_bits(),
            2.5f32.to_bits(),
            1.5f32.to_bits(),
            2.5f32.to_bits(),
        ),
        (
            "fmin",
            1.5f32.to_bits(),
            0.5f32.to_bits(),
            0,
            0.5f32.to_bits(),
        ),
        (
            "fmax",
            1.5f32.to_bits(),
            0.5f32.to_bits(),
            0,
            1.5f32.to_bits(),
        ),
    ];
    for &(name, old, data, cmp, new) in cases {
        let mnemonic = format!("image_atomic_{name}");
        let versions = versions_with(&mnemonic);
        assert!(!versions.is_empty(), "{mnemonic}");
        for v in versions {
            let m = Memory::default();
            let t = ImageResource::new(ImageType::Image2d, DataFormat::D32, NumFormat::Uint)
                .size(2, 2, 1);
            let img = DeviceImage::new(&m, t).unwrap();
            img.write_level::<u32>(0, &[0, 0, 0, old]).unwrap();
            let dmask = if name.contains("cmpswap") {
                "0x3"
            } else {
                "0x1"
            };
            let data_regs = if name.contains("cmpswap") {
                "v[0:1]"
            } else {
                "v0"
            };
            let w = ok(run_img(
                v,
                &format!("{mnemonic} {data_regs}, v[4:5], s[8:15] dmask:{dmask} unorm glc"),
                &m,
                &img.resource(),
                &SamplerResource::default(),
                |w| {
                    w.set_exec(1);
                    set_u(w, 0, data);
                    set_u(w, 1, cmp);
                    set_u(w, 4, 1);
                    set_u(w, 5, 1);
                },
            ));
            assert_eq!(
                img.read_level::<u32>(0).unwrap()[3],
                new,
                "{mnemonic} on {v}"
            );
            assert_eq!(w.vgpr[0][0], old, "{mnemonic} returns the old value");
        }
    }
}

/// A 4x1 R32 FLOAT image holding 10, 20, 30, 40.
fn row4(m: &Memory) -> DeviceImage {
    let t = ImageResource::new(ImageType::Image2d, DataFormat::D32, NumFormat::Float).size(4, 1, 1);
    let img = DeviceImage::new(m, t).unwrap();
    img.write_level::<f32>(0, &[10.0, 20.0, 30.0, 40.0])
        .unwrap();
    img
}

fn sample1(v: GcnVersion, m: &Memory, t: &ImageResource, s: &SamplerResource, x: f32) -> f32 {
    let w = ok(run_img(
        v,
        "image_sample v0, v[4:5], s[8:15], s[16:19] dmask:0x1",
        m,
        t,
        s,
        |w| {
            set_f(w, 4, x);
            set_f(w, 5, 0.5);
        },
    ));
    f(w.vgpr[0][0])
}

#[test]
fn point_and_bilinear_at_centres_and_between() {
    for v in versions_with("image_sample") {
        let m = Memory::default();
        let img = row4(&m);
        let t = img.resource();
        let point = SamplerResource::default().clamp(ClampMode::ClampLastTexel);
        let lin = point.xy_filter(XyFilter::Bilinear);
        // Texel centres: x = (i + 0.5) / 4.
        assert_eq!(sample1(v, &m, &t, &point, 1.5 / 4.0), 20.0, "{v}");
        assert_eq!(sample1(v, &m, &t, &lin, 1.5 / 4.0), 20.0);
        // Between texels 1 and 2: t = 2.0, u = 1.5, weight 0.5.
        assert_eq!(sample1(v, &m, &t, &point, 0.5), 30.0);
        assert_eq!(sample1(v, &m, &t, &lin, 0.5), 25.0);
        // A quarter of the way: t = 1.75 -> u = 1.25 -> 0.75 * 20 + 0.25 * 30.
        assert_eq!(sample1(v, &m, &t, &lin, 1.75 / 4.0), 22.5);
        // Weights step by 1/256: t = 1.5 + 1/1024 -> frac truncates to 0.
        assert_eq!(sample1(v, &m, &t, &lin, (1.5 + 1.0 / 1024.0) / 4.0), 20.0);
        // Unnormalised coordinates (the sampler's FORCE_UNNORMALIZED).
        assert_eq!(sample1(v, &m, &t, &lin.force_unnormalized(true), 2.0), 25.0);
        // FILTER_MODE max/min over the two texels.
        assert_eq!(
            sample1(v, &m, &t, &lin.filter_mode(FilterMode::Max), 0.5),
            30.0
        );
        assert_eq!(
            sample1(v, &m, &t, &lin.filter_mode(FilterMode::Min), 0.5),
            20.0
        );
    }
}

#[test]
fn every_clamp_mode_at_and_beyond_the_edges() {
    let m = Memory::default();
    let img = row4(&m);
    let t = img.resource();
    let base = SamplerResource::default().border_color(BorderColor::OpaqueWhite);
    // Point sampling at t = -1 (texel index -1), t = 4.5 (index 4) and
    // t = 9 (index 9); by hand from each mode's definition.
    let cases: &[(ClampMode, [f32; 3])] = &[
        (ClampMode::Wrap, [40.0, 10.0, 20.0]),
        // Mirror: -1 -> 0, 4 -> 3, 9 -> 9 mod 8 = 1 -> texel 1.
        (ClampMode::Mirror, [10.0, 40.0, 20.0]),
        (ClampMode::ClampLastTexel, [10.0, 40.0, 40.0]),
        (ClampMode::MirrorOnceLastTexel, [10.0, 40.0, 40.0]),
        // Half border clamps t to [0, 4]: point then reads texel 0 / 3.
        (ClampMode::ClampHalfBorder, [10.0, 40.0, 40.0]),
        (ClampMode::MirrorOnceHalfBorder, [10.0, 40.0, 40.0]),
        (ClampMode::ClampBorder, [1.0, 1.0, 1.0]),
        // Mirror once: -1 -> 0; 4 and 9 are past the edge -> border.
        (ClampMode::MirrorOnceBorder, [10.0, 1.0, 1.0]),
    ];
    for v in versions_with("image_sample") {
        for &(mode, expect) in cases {
            let s = base.clamp(mode);
            let got = [-1.0, 4.5, 9.0].map(|t_| sample1(v, &m, &t, &s, t_ / 4.0));
            assert_eq!(got, expect, "{mode} on {v}");
        }
        // Bilinear at t = -1: half border clamps to t = 0 -> u = -0.5:
        // half border colour, half texel 0; full border: u = -1.5 -> both
        // texels outside -> the border colour.
        let lin = base.xy_filter(XyFilter::Bilinear);
        let hb = lin.clamp(ClampMode::ClampHalfBorder);
        assert_eq!(sample1(v, &m, &t, &hb, -0.25), 0.5 * 1.0 + 0.5 * 10.0);
        let b = lin.clamp(ClampMode::ClampBorder);
        assert_eq!(sample1(v, &m, &t, &b, -0.25), 1.0);
        // Transparent black / opaque black borders (X).
        let b0 = b.border_color(BorderColor::OpaqueBlack);
        assert_eq!(sample1(v, &m, &t, &b0, -0.25), 0.0);
        // Wrap blends the last and first texels at t = 0.
        let wr = lin.clamp(ClampMode::Wrap);
        assert_eq!(sample1(v, &m, &t, &wr, 0.0), 25.0);
    }
}

/// A 4x4 R32 FLOAT image with 3 levels: 1.0 everywhere on level 0, 5.0 on
/// level 1, 9.0 on level 2.
fn mips(m: &Memory) -> DeviceImage {
    let t = ImageResource::new(ImageType::Image2d, DataFormat::D32, NumFormat::Float)
        .size(4, 4, 1)
        .levels(0, 2);
    let img = DeviceImage::new(m, t).unwrap();
    img.write_level::<f32>(0, &[1.0; 16]).unwrap();
    img.write_level::<f32>(1, &[5.0; 4]).unwrap();
    img.write_level::<f32>(2, &[9.0; 1]).unwrap();
    img
}

#[test]
fn lod_paths_select_and_blend_levels() {
    for v in versions_with("image_sample_l") {
        let m = Memory::default();
        let img = mips(&m);
        let t = img.resource();
        let point = SamplerResource::default()
            .max_lod(15.0)
            .mip_filter(MipFilter::Point);
        let linear = point.mip_filter(MipFilter::Linear);
        let run = |src: &str, s: &SamplerResource, setup: &dyn Fn(&mut Wave)| {
            let w = ok(run_img(v, src, &m, &t, s, setup));
            f(w.vgpr[0][0])
        };
        let l = |lod: f32| {
            move |w: &mut Wave| {
                set_f(w, 4, 0.5);
                set_f(w, 5, 0.5);
                set_f(w, 6, lod);
            }
        };
        let sl = "image_sample_l v0, v[4:6], s[8:15], s[16:19] dmask:0x1";
        assert_eq!(run(sl, &point, &l(1.0)), 5.0, "{v}");
        assert_eq!(run(sl, &point, &l(1.4)), 5.0);
        assert_eq!(run(sl, &point, &l(1.6)), 9.0);
        assert_eq!(run(sl, &linear, &l(0.5)), 3.0);
        assert_eq!(run(sl, &linear, &l(1.25)), 6.0);
        // Past LAST_LEVEL: clamped to level 2.
        assert_eq!(run(sl, &linear, &l(7.0)), 9.0);
        // MIP_FILTER none: always BASE_LEVEL.
        assert_eq!(
            run(sl, &SamplerResource::default().max_lod(15.0), &l(2.0)),
            1.0
        );
        // The sampler's MAX_LOD and MIN_LOD clamp.
        assert_eq!(run(sl, &point.max_lod(1.0), &l(2.0)), 5.0);
        assert_eq!(run(sl, &point.min_lod(2.0), &l(0.0)), 9.0);
        // The T#'s MIN_LOD too.
        let w = ok(run_img(v, sl, &m, &t.min_lod(1.0), &point, l(0.0)));
        assert_eq!(f(w.vgpr[0][0]), 5.0);
        // BASE_LEVEL 1: LOD 0 is level 1.
        let w = ok(run_img(v, sl, &m, &t.base_level(1), &point, l(0.0)));
        assert_eq!(f(w.vgpr[0][0]), 5.0);
        // _lz: level 0 whatever the derivatives.
        let lz = "image_sample_lz v0, v[4:5], s[8:15], s[16:19] dmask:0x1";
        assert_eq!(run(lz, &point, &l(0.0)), 1.0);
    }
}

/// Lanes of each quad: x = base + (lane & 1) * dx, y = base + (lane >> 1 & 1) * dy.
fn quad(w: &mut Wave, dx: f32, dy: f32) {
    for lane in 0..WAVE_SIZE {
        w.vgpr[4][lane] = (0.125 + (lane & 1) as f32 * dx).to_bits();
        w.vgpr[5][lane] = (0.125 + (lane >> 1 & 1) as f32 * dy).to_bits();
    }
}

#[test]
fn implicit_lod_comes_from_the_lane_quads() {
    for v in versions_with("image_sample") {
        let m = Memory::default();
        let img = mips(&m);
        let t = img.resource();
        let s = SamplerResource::default()
            .max_lod(15.0)
            .mip_filter(MipFilter::Point);
        // d/dx = 0.5 normalised = 2 texels of level 0 -> LOD 1.
        let w = ok(run_img(
            v,
            "image_sample v0, v[4:5], s[8:15], s[16:19] dmask:0x1\n\
             image_get_lod v[1:2], v[4:5], s[8:15], s[16:19] dmask:0x3",
            &m,
            &t,
            &s,
            |w| quad(w, 0.5, 0.0),
        ));
        assert_eq!(f(w.vgpr[0][0]), 5.0, "{v}");
        assert_eq!(f(w.vgpr[0][7]), 5.0);
        assert_eq!([f(w.vgpr[1][0]), f(w.vgpr[2][0])], [1.0, 1.0]);
        // d/dy = 1.0 normalised = 4 texels -> LOD 2; the sampler's LOD bias
        // -1 -> 1; _b adds +1 -> 2; _cl clamps to 0.5 -> level 1 (point: round).
        let w = ok(run_img(
            v,
            "image_sample v0, v[4:5], s[8:15], s[16:19] dmask:0x1\n\
             image_sample_b v1, v[3:5], s[8:15], s[16:19] dmask:0x1\n\
             image_sample_cl v2, v[4:6], s[8:15], s[16:19] dmask:0x1",
            &m,
            &t,
            &s.lod_bias(-1.0),
            |w| {
                quad(w, 0.0, 1.0);
                set_f(w, 3, 1.0);
                set_f(w, 6, 0.5);
            },
        ));
        assert_eq!(
            [f(w.vgpr[0][0]), f(w.vgpr[1][0]), f(w.vgpr[2][0])],
            [5.0, 9.0, 5.0]
        );
    }
}

#[test]
fn user_derivatives() {
    for v in versions_with("image_sample_d") {
        let m = Memory::default();
        let img = mips(&m);
        let s = SamplerResource::default()
            .max_lod(15.0)
            .mip_filter(MipFilter::Point);
        // {dx/dh, dy/dh, dx/dv, dy/dv} {x, y}: |d/dh| = 1.0 -> 4 texels -> LOD 2.
        let w = ok(run_img(
            v,
            "image_sample_d v0, v[2:7], s[8:15], s[16:19] dmask:0x1\n\
             image_sample_cd v1, v[2:7], s[8:15], s[16:19] dmask:0x1",
            &m,
            &img.resource(),
            &s,
            |w| {
                set_f(w, 2, 1.0);
                set_f(w, 3, 0.0);
                set_f(w, 4, 0.0);
                set_f(w, 5, 0.25);
                set_f(w, 6, 0.5);
                set_f(w, 7, 0.5);
            },
        ));
        assert_eq!([f(w.vgpr[0][0]), f(w.vgpr[1][0])], [9.0, 9.0], "{v}");
    }
}

#[test]
fn depth_compare_functions() {
    let m = Memory::default();
    let img = row4(&m);
    let t = img.resource();
    // Reference 20 against texel 1 (20) and, bilinear at t = 2, texels 1
    // and 2 (20, 30).
    let cases = [
        (DepthCompare::Never, 0.0, 0.0),
        (DepthCompare::Less, 0.0, 0.5),
        (DepthCompare::Equal, 1.0, 0.5),
        (DepthCompare::LessEqual, 1.0, 1.0),
        (DepthCompare::Greater, 0.0, 0.0),
        (DepthCompare::NotEqual, 0.0, 0.5),
        (DepthCompare::GreaterEqual, 1.0, 0.5),
        (DepthCompare::Always, 1.0, 1.0),
    ];
    for v in versions_with("image_sample_c_lz") {
        for (func, at_centre, _) in cases {
            let s = SamplerResource::default().depth_compare(func);
            let w = ok(run_img(
                v,
                "image_sample_c_lz v0, v[3:5], s[8:15], s[16:19] dmask:0x1\n\
                 image_sample_c_lz v1, v[6:8], s[8:15], s[16:19] dmask:0x1",
                &m,
                &t,
                &s,
                |w| {
                    set_f(w, 3, 20.0);
                    set_f(w, 4, 1.5 / 4.0);
                    set_f(w, 5, 0.5);
                    set_f(w, 6, 20.0);
                    set_f(w, 7, 0.5);
                    set_f(w, 8, 0.5);
                },
            ));
            assert_eq!(f(w.vgpr[0][0]), at_centre, "{func} on {v}");
        }
        for (func, _, between) in cases {
            let s = SamplerResource::default()
                .depth_compare(func)
                .xy_filter(XyFilter::Bilinear);
            let w = ok(run_img(
                v,
                "image_sample_c_lz v1, v[6:8], s[8:15], s[16:19] dmask:0x1",
                &m,
                &t,
                &s,
                |w| {
                    set_f(w, 6, 20.0);
                    set_f(w, 7, 0.5);
                    set_f(w, 8, 0.5);
                },
            ));
            assert_eq!(f(w.vgpr[1][0]), between, "{func} bilinear on {v}");
        }
    }
}

#[test]
fn gather4_returns_the_footprint_in_the_documented_order() {
    let m = Memory::default();
    // 2x2 RG32 FLOAT: (x, y) -> R = 1 + x + 2y, G = 10 * R.
    let t =
        ImageResource::new(ImageType::Image2d, DataFormat::D32_32, NumFormat::Float).size(2, 2, 1);
    let img = DeviceImage::new(&m, t).unwrap();
    img.write_level::<f32>(0, &[1.0, 10.0, 2.0, 20.0, 3.0, 30.0, 4.0, 40.0])
        .unwrap();
    for v in versions_with("image_gather4_lz") {
        let w = ok(run_img(
            v,
            "image_gather4_lz v[0:3], v[4:5], s[8:15], s[16:19] dmask:0x1\n\
             image_gather4_lz v[6:9], v[4:5], s[8:15], s[16:19] dmask:0x2\n\
             image_gather4_lz_o v[10:13], v[20:22], s[8:15], s[16:19] dmask:0x1",
            &m,
            &img.resource(),
            &SamplerResource::default().clamp(ClampMode::ClampLastTexel),
            |w| {
                set_f(w, 4, 0.5);
                set_f(w, 5, 0.5);
                // Offset x = -1 (6-bit two's complement 0x3f), y = 0.
                set_u(w, 20, 0x3f);
                set_f(w, 21, 0.5);
                set_f(w, 22, 0.5);
            },
        ));
        let g = |r: usize| [0, 1, 2, 3].map(|k| f(w.vgpr[r + k][0]));
        // [(X, Y+1), (X+1, Y+1), (X+1, Y), (X, Y)] with X = Y = 0.
        assert_eq!(g(0), [3.0, 4.0, 2.0, 1.0], "{v}");
        assert_eq!(g(6), [30.0, 40.0, 20.0, 10.0]);
        // X = -1 clamps to 0: columns (0, 0).
        assert_eq!(g(10), [3.0, 3.0, 1.0, 1.0]);
    }
}

#[test]
fn arrays_3d_and_cube_faces() {
    let m = Memory::default();
    // 2-D array of three 1x1 slices: 10, 20, 30.
    let t = ImageResource::new(ImageType::Image2dArray, DataFormat::D32, NumFormat::Float)
        .size(1, 1, 3);
    let arr = DeviceImage::new(&m, t).unwrap();
    arr.write_level::<f32>(0, &[10.0, 20.0, 30.0]).unwrap();
    // 3-D 1x1x2: 0, 8.
    let t = ImageResource::new(ImageType::Image3d, DataFormat::D32, NumFormat::Float).size(1, 1, 2);
    let vol = DeviceImage::new(&m, t).unwrap();
    vol.write_level::<f32>(0, &[0.0, 8.0]).unwrap();
    // Cube: six 1x1 faces 100 + face.
    let t = ImageResource::new(ImageType::Cube, DataFormat::D32, NumFormat::Float).size(1, 1, 6);
    let cube = DeviceImage::new(&m, t).unwrap();
    cube.write_level::<f32>(0, &[100.0, 101.0, 102.0, 103.0, 104.0, 105.0])
        .unwrap();
    for v in versions_with("image_sample_lz") {
        let s3 = |img: &DeviceImage, s: &SamplerResource, z: f32| {
            let w = ok(run_img(
                v,
                "image_sample_lz v0, v[4:6], s[8:15], s[16:19] dmask:0x1 da",
                &m,
                &img.resource(),
                s,
                |w| {
                    set_f(w, 4, 0.5);
                    set_f(w, 5, 0.5);
                    set_f(w, 6, z);
                },
            ));
            f(w.vgpr[0][0])
        };
        let d = SamplerResource::default().clamp(ClampMode::ClampLastTexel);
        // Slices round to nearest even and clamp.
        assert_eq!(s3(&arr, &d, 1.4), 20.0, "{v}");
        assert_eq!(s3(&arr, &d, 2.5), 30.0);
        assert_eq!(s3(&arr, &d, 9.0), 30.0);
        assert_eq!(s3(&arr, &d, -3.0), 10.0);
        // 3-D: Z filter linear at z = 0.5 (t = 1.0 -> u = 0.5): 4.0.
        assert_eq!(s3(&vol, &d.z_filter(MipFilter::Linear), 0.5), 4.0);
        assert_eq!(s3(&vol, &d, 0.75), 8.0);
        // Cube faces.
        for face in 0..6 {
            assert_eq!(s3(&cube, &d, face as f32), 100.0 + face as f32);
        }
        // A 2-D array with BASE_ARRAY 1: slice 0 is the image's slice 1.
        assert_eq!(s3(&arr, &d, 0.0), 10.0);
        let w = ok(run_img(
            v,
            "image_sample_lz v0, v[4:6], s[8:15], s[16:19] dmask:0x1 da",
            &m,
            &arr.resource().base_array(1),
            &d,
            |w| {
                set_f(w, 4, 0.5);
                set_f(w, 5, 0.5);
                set_f(w, 6, 0.0);
            },
        ));
        assert_eq!(f(w.vgpr[0][0]), 20.0);
    }
}

#[test]
fn sample_formats_and_integer_images() {
    let m = Memory::default();
    // 2x1 RGBA8 SRGB: 255 -> 1.0 through the curve; bilinear blends after
    // decoding.
    let t =
        ImageResource::new(ImageType::Image2d, DataFormat::D8_8_8_8, NumFormat::Srgb).size(2, 1, 1);
    let img = image(&m, t, &[255, 0, 0, 255, 0, 0, 0, 0]);
    // 2x1 R32 UINT 7, 9: bilinear never blends integers.
    let t = ImageResource::new(ImageType::Image2d, DataFormat::D32, NumFormat::Uint).size(2, 1, 1);
    let ints = image(&m, t, &[7, 0, 0, 0, 9, 0, 0, 0]);
    let lin = SamplerResource::default()
        .xy_filter(XyFilter::Bilinear)
        .clamp(ClampMode::ClampLastTexel);
    for v in versions_with("image_sample") {
        let w = ok(run_img(
            v,
            "image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf",
            &m,
            &img.resource(),
            &lin,
            |w| {
                set_f(w, 4, 0.5);
                set_f(w, 5, 0.5);
            },
        ));
        assert_eq!(
            [0, 1, 2, 3].map(|k| f(w.vgpr[k][0])),
            [0.5, 0.0, 0.0, 0.5],
            "{v}"
        );
        let w = ok(run_img(
            v,
            "image_sample v0, v[4:5], s[8:15], s[16:19] dmask:0x1",
            &m,
            &ints.resource(),
            &lin,
            |w| {
                set_f(w, 4, 0.6);
                set_f(w, 5, 0.5);
            },
        ));
        // t = 1.2 -> u = 0.7: texel 1 has the larger weight.
        assert_eq!(w.vgpr[0][0], 9);
    }
}

#[test]
fn r128_reads_a_four_word_resource() {
    let m = Memory::default();
    let img = row4(&m);
    let w4 = img.resource().to_words128().unwrap();
    for v in [GcnVersion::Gcn1_0, GcnVersion::Gcn1_1, GcnVersion::Gcn1_2] {
        let w = ok(run_with(
            v,
            "image_load v0, v[4:5], s[8:11] dmask:0x1 unorm r128",
            &m,
            |w| {
                w.sgpr[8..12].copy_from_slice(&w4);
                // Garbage in the words a 128-bit resource does not have.
                w.sgpr[12..16].copy_from_slice(&[u32::MAX; 4]);
                set_u(w, 4, 2);
                set_u(w, 5, 0);
            },
        ));
        assert_eq!(f(w.vgpr[0][0]), 30.0, "{v}");
    }
}

#[test]
fn bad_descriptors_and_msaa_fault_clearly() {
    let m = Memory::default();
    let img = row4(&m);
    let s = run_img(
        GcnVersion::Gcn1_1,
        "image_sample v0, v[4:5], s[8:15], s[16:19] dmask:0x1",
        &m,
        &img.resource(),
        &SamplerResource::default().border_color(BorderColor::Register),
        |_| {},
    );
    assert!(s
        .fault
        .unwrap()
        .kind
        .to_string()
        .contains("TEX_BORDER_COLOR_REGISTER"));
    let s = run_img(
        GcnVersion::Gcn1_1,
        "image_load v0, v[4:6], s[8:15] dmask:0x1 unorm",
        &m,
        &img.resource().image_type(ImageType::Image2dMsaa),
        &SamplerResource::default(),
        |_| {},
    );
    assert!(s
        .fault
        .unwrap()
        .kind
        .to_string()
        .contains("IMAGE_2D_MSAA is not supported"));
}

#[test]
fn sampler_fields_without_rules_fault_and_degamma_applies() {
    let m = Memory::default();
    // 2x1 RGBA8 UNORM: (10, 128, 255, 128) at texel 0.
    let t = ImageResource::new(ImageType::Image2d, DataFormat::D8_8_8_8, NumFormat::Unorm)
        .size(2, 1, 1);
    let img = image(&m, t, &[10, 128, 255, 128, 0, 0, 0, 0]);
    let run = |s: &SamplerResource, t: &ImageResource| {
        run_img(
            GcnVersion::Gcn1_2,
            "image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf",
            &m,
            t,
            s,
            |w| {
                set_f(w, 4, 0.25);
                set_f(w, 5, 0.5);
            },
        )
    };
    let w = ok(run(
        &SamplerResource::default().force_degamma(true),
        &img.resource(),
    ));
    // R, G, B (the UNORM value, as f32) through the sRGB curve, A linear.
    let srgb = |c: f64| {
        let c = f64::from(c as f32);
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    assert_eq!(f(w.vgpr[0][0]), srgb(10.0 / 255.0) as f32);
    assert_eq!(f(w.vgpr[1][0]), srgb(128.0 / 255.0) as f32);
    assert_eq!(f(w.vgpr[2][0]), 1.0);
    assert_eq!(f(w.vgpr[3][0]), (128.0f64 / 255.0) as f32);
    let msg = |s: Snippet| s.fault.unwrap().kind.to_string();
    assert!(msg(run(
        &SamplerResource::default().mc_coord_trunc(true),
        &img.resource()
    ))
    .contains("MC_COORD_TRUNC"));
    assert!(msg(run(
        &SamplerResource::default().lod_bias_sec(0.5),
        &img.resource()
    ))
    .contains("LOD_BIAS_SEC"));
    assert!(msg(run(
        &SamplerResource::default(),
        &img.resource().interlaced(true)
    ))
    .contains("INTERLACED"));
    // A cube face sampled bilinearly at its edge with seamless filtering
    // asked for.
    let t = ImageResource::new(ImageType::Cube, DataFormat::D32, NumFormat::Float).size(2, 2, 6);
    let cube = DeviceImage::new(&m, t).unwrap();
    let s = run_img(
        GcnVersion::Gcn1_2,
        "image_sample v0, v[4:6], s[8:15], s[16:19] dmask:0x1 da",
        &m,
        &cube.resource(),
        &SamplerResource::default().xy_filter(XyFilter::Bilinear),
        |w| {
            set_f(w, 4, 0.1);
            set_f(w, 5, 0.5);
            set_f(w, 6, 2.0);
        },
    );
    assert!(msg(s).contains("DISABLE_CUBE_WRAP"));
    // With DISABLE_CUBE_WRAP the face clamps: fine.
    let s = run_img(
        GcnVersion::Gcn1_2,
        "image_sample v0, v[4:6], s[8:15], s[16:19] dmask:0x1 da",
        &m,
        &cube.resource(),
        &SamplerResource::default()
            .xy_filter(XyFilter::Bilinear)
            .disable_cube_wrap(true)
            .clamp(ClampMode::ClampLastTexel),
        |w| {
            set_f(w, 4, 0.1);
            set_f(w, 5, 0.5);
            set_f(w, 6, 2.0);
        },
    );
    assert!(s.fault.is_none());
}

/// Every image data format through `image_load` (X..W, UINT unless noted),
/// with the element bytes and the expected registers worked out by hand
/// from the component layouts (lowest bits first).
#[test]
fn every_readable_format_through_image_load() {
    let bc7_white = {
        // Mode 6 (bit 6), R0 = G0 = B0 = A0 = 0x7f (bits 7-13, 21-27,
        // 35-41, 49-55), P0 = 1 (bit 63): endpoint 0 = 0xff in every
        // channel; every index 0.
        let v: u128 = 1 << 6 | 0x7f << 7 | 0x7f << 21 | 0x7f << 35 | 0x7f << 49 | 1 << 63;
        v.to_le_bytes().to_vec()
    };
    let one = 1.0f32.to_bits();
    let cases: Vec<(DataFormat, NumFormat, Vec<u8>, [u32; 4])> = vec![
        (DataFormat::D8, NumFormat::Uint, vec![0xab], [0xab, 0, 0, 1]),
        (
            DataFormat::D16,
            NumFormat::Uint,
            vec![0x34, 0x12],
            [0x1234, 0, 0, 1],
        ),
        (
            DataFormat::D8_8,
            NumFormat::Sint,
            vec![0xff, 0x80],
            [u32::MAX, (-128i32) as u32, 0, 1],
        ),
        (
            DataFormat::D32,
            NumFormat::Uint,
            vec![1, 2, 3, 4],
            [0x0403_0201, 0, 0, 1],
        ),
        (
            DataFormat::D16_16,
            NumFormat::Uint,
            vec![1, 0, 2, 0],
            [1, 2, 0, 1],
        ),
        // 10_11_11: X 11 bits, Y 11 bits, Z 10 bits from the lowest.
        (
            DataFormat::D10_11_11,
            NumFormat::Uint,
            (3u32 | 5 << 11 | 7 << 22).to_le_bytes().to_vec(),
            [3, 5, 7, 1],
        ),
        // 11_11_10: X 10 bits, Y 11, Z 11.
        (
            DataFormat::D11_11_10,
            NumFormat::Uint,
            (3u32 | 5 << 10 | 7 << 21).to_le_bytes().to_vec(),
            [3, 5, 7, 1],
        ),
        // 10_10_10_2 (code 8): X 2 bits, then three of 10.
        (
            DataFormat::D10_10_10_2,
            NumFormat::Uint,
            (3u32 | 5 << 2 | 7 << 12 | 9 << 22).to_le_bytes().to_vec(),
            [3, 5, 7, 9],
        ),
        // 2_10_10_10 (code 9): three of 10, then W 2 bits.
        (
            DataFormat::D2_10_10_10,
            NumFormat::Uint,
            (5u32 | 7 << 10 | 9 << 20 | 3 << 30).to_le_bytes().to_vec(),
            [5, 7, 9, 3],
        ),
        (
            DataFormat::D8_8_8_8,
            NumFormat::Uint,
            vec![1, 2, 3, 4],
            [1, 2, 3, 4],
        ),
        (
            DataFormat::D32_32,
            NumFormat::Uint,
            [5u32, 6].iter().flat_map(|x| x.to_le_bytes()).collect(),
            [5, 6, 0, 1],
        ),
        (
            DataFormat::D16_16_16_16,
            NumFormat::Uint,
            vec![1, 0, 2, 0, 3, 0, 4, 0],
            [1, 2, 3, 4],
        ),
        (
            DataFormat::D32_32_32,
            NumFormat::Uint,
            [5u32, 6, 7].iter().flat_map(|x| x.to_le_bytes()).collect(),
            [5, 6, 7, 1],
        ),
        (
            DataFormat::D32_32_32_32,
            NumFormat::Uint,
            [5u32, 6, 7, 8]
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .collect(),
            [5, 6, 7, 8],
        ),
        (
            DataFormat::D5_6_5,
            NumFormat::Uint,
            (3u16 | 5 << 5 | 7 << 11).to_le_bytes().to_vec(),
            [3, 5, 7, 1],
        ),
        (
            DataFormat::D1_5_5_5,
            NumFormat::Uint,
            (3u16 | 5 << 5 | 7 << 10 | 1 << 15).to_le_bytes().to_vec(),
            [3, 5, 7, 1],
        ),
        (
            DataFormat::D5_5_5_1,
            NumFormat::Uint,
            (1u16 | 3 << 1 | 5 << 6 | 7 << 11).to_le_bytes().to_vec(),
            [1, 3, 5, 7],
        ),
        (
            DataFormat::D4_4_4_4,
            NumFormat::Uint,
            vec![0x21, 0x43],
            [1, 2, 3, 4],
        ),
        (
            DataFormat::D8_24,
            NumFormat::Uint,
            vec![1, 2, 3, 4],
            [0x03_0201, 4, 0, 1],
        ),
        (
            DataFormat::D24_8,
            NumFormat::Uint,
            vec![1, 2, 3, 4],
            [1, 0x04_0302, 0, 1],
        ),
        (
            DataFormat::X24_8_32,
            NumFormat::Uint,
            vec![1, 0, 0, 0, 9, 0, 0, 0],
            [1, 9, 0, 1],
        ),
        (
            DataFormat::GbGr,
            NumFormat::Uint,
            vec![10, 20, 30, 40],
            [10, 20, 30, 1],
        ),
        (
            DataFormat::BgRg,
            NumFormat::Uint,
            vec![20, 10, 40, 30],
            [10, 20, 30, 1],
        ),
        // 5_9_9_9 FLOAT: mantissas 256, 128, 0, exponent 16 -> 1.0, 0.5, 0.
        (
            DataFormat::D5_9_9_9,
            NumFormat::Float,
            (256u32 | 128 << 9 | 16 << 27).to_le_bytes().to_vec(),
            [one, 0.5f32.to_bits(), 0, one],
        ),
        // BC1: both endpoints pure green (RGB565 0x07e0), indices 0.
        (
            DataFormat::Bc1,
            NumFormat::Unorm,
            vec![0xe0, 0x07, 0xe0, 0x07, 0, 0, 0, 0],
            [0, one, 0, one],
        ),
        // BC2: alpha nibbles 0xf for texel 0 -> 1.0; colour as BC1 red.
        (
            DataFormat::Bc2,
            NumFormat::Unorm,
            vec![
                0x0f, 0, 0, 0, 0, 0, 0, 0, 0x00, 0xf8, 0x00, 0xf8, 0, 0, 0, 0,
            ],
            [one, 0, 0, one],
        ),
        // BC3: alpha endpoint 0 = 0 (index 0 -> 0.0); colour blue (0x001f).
        (
            DataFormat::Bc3,
            NumFormat::Unorm,
            vec![0, 255, 0, 0, 0, 0, 0, 0, 0x1f, 0x00, 0x1f, 0x00, 0, 0, 0, 0],
            [0, 0, one, 0],
        ),
        (
            DataFormat::Bc4,
            NumFormat::Unorm,
            vec![255, 0, 0, 0, 0, 0, 0, 0],
            [one, 0, 0, one],
        ),
        (
            DataFormat::Bc5,
            NumFormat::Unorm,
            vec![255, 0, 0, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 0],
            [one, 0, 0, one],
        ),
        // BC6H: an all-zero block is mode 0 with zero endpoints: 0.0.
        (
            DataFormat::Bc6,
            NumFormat::Float,
            vec![0; 16],
            [0, 0, 0, one],
        ),
        (
            DataFormat::Bc7,
            NumFormat::Unorm,
            bc7_white,
            [one, one, one, one],
        ),
        (DataFormat::D4_4, NumFormat::Uint, vec![0x21], [1, 2, 0, 1]),
        (
            DataFormat::D6_5_5,
            NumFormat::Uint,
            (3u16 | 5 << 5 | 7 << 10).to_le_bytes().to_vec(),
            [3, 5, 7, 1],
        ),
        // 1: texel 0 is bit 0; 1_REVERSED: bit 7.
        (DataFormat::D1, NumFormat::Uint, vec![0x01], [1, 0, 0, 1]),
        (
            DataFormat::D1Reversed,
            NumFormat::Uint,
            vec![0x80],
            [1, 0, 0, 1],
        ),
    ];
    for v in versions_with("image_load") {
        for (data, num, bytes, expect) in &cases {
            let m = Memory::default();
            let t = ImageResource::new(ImageType::Image2d, *data, *num).size(1, 1, 1);
            let img = DeviceImage::new(&m, t).unwrap();
            let mut all = img.read_all();
            all[..bytes.len()].copy_from_slice(bytes);
            img.write_all(&all).unwrap();
            let w = ok(run_img(
                v,
                "image_load v[0:3], v[4:5], s[8:15] dmask:0xf unorm",
                &m,
                &img.resource(),
                &SamplerResource::default(),
                |w| {
                    set_u(w, 4, 0);
                    set_u(w, 5, 0);
                },
            ));
            let got = [w.vgpr[0][0], w.vgpr[1][0], w.vgpr[2][0], w.vgpr[3][0]];
            assert_eq!(got, *expect, "{data}/{num} on {v}");
        }
    }
    // FMASK and 32_AS_* stop with a fault naming the format.
    for data in [DataFormat::Fmask8_1, DataFormat::D32As8] {
        let m = Memory::default();
        let t = ImageResource::new(ImageType::Image2d, DataFormat::D8, NumFormat::Uint);
        let img = DeviceImage::new(&m, t).unwrap();
        // The builder refuses the format, so patch the words (DATA_FORMAT
        // is bits 52-57: word 1 bits 20-25).
        let mut tw = img.resource().to_words().unwrap();
        tw[1] = tw[1] & !(0x3f << 20) | u32::from(data.code()) << 20;
        let s = run_with(
            GcnVersion::Gcn1_1,
            "image_load v0, v[4:5], s[8:15] dmask:0x1 unorm",
            &m,
            |w| w.sgpr[8..16].copy_from_slice(&tw),
        );
        let msg = s.fault.unwrap().kind.to_string();
        assert!(msg.contains("is not supported for images"), "{msg}");
        assert!(msg.contains(&data.to_string()), "{msg}");
    }
}

/// Every number format through `image_load` of an 8_8_8_8 texel
/// (0, 1, 128, 255), by the seed's definitions.
#[test]
fn every_number_format_through_image_load() {
    let fl = |x: f32| x.to_bits();
    let cases: &[(NumFormat, [u32; 4])] = &[
        (
            NumFormat::Unorm,
            [
                0,
                fl((1.0f64 / 255.0) as f32),
                fl((128.0f64 / 255.0) as f32),
                fl(1.0),
            ],
        ),
        // SNORM: 1/127, -128 -> -1 (clamped), -1/127.
        (
            NumFormat::Snorm,
            [
                0,
                fl((1.0f64 / 127.0) as f32),
                fl(-1.0),
                fl((-1.0f64 / 127.0) as f32),
            ],
        ),
        (NumFormat::Uscaled, [0, fl(1.0), fl(128.0), fl(255.0)]),
        (NumFormat::Sscaled, [0, fl(1.0), fl(-128.0), fl(-1.0)]),
        (NumFormat::Uint, [0, 1, 128, 255]),
        (NumFormat::Sint, [0, 1, (-128i32) as u32, u32::MAX]),
        // SNORM_OGL: (2x + 1) / 255.
        (
            NumFormat::SnormOgl,
            [
                fl((1.0f64 / 255.0) as f32),
                fl((3.0f64 / 255.0) as f32),
                fl(-1.0),
                fl((-1.0f64 / 255.0) as f32),
            ],
        ),
        // SRGB: R, G, B through the curve, A linear.
        (
            NumFormat::Srgb,
            [
                0,
                fl((1.0f64 / 255.0 / 12.92) as f32),
                fl(((128.0f64 / 255.0 + 0.055) / 1.055).powf(2.4) as f32),
                fl(1.0),
            ],
        ),
        // UBNORM: (x - 128) / 127, clamped at -1.
        (NumFormat::Ubnorm, [fl(-1.0), fl(-1.0), 0, fl(1.0)]),
        // UBNORM_OGL: 2x / 255 - 1.
        (
            NumFormat::UbnormOgl,
            [
                fl(-1.0),
                fl((2.0f64 / 255.0 - 1.0) as f32),
                fl((256.0f64 / 255.0 - 1.0) as f32),
                fl(1.0),
            ],
        ),
        (NumFormat::Ubint, [fl(-128.0), fl(-127.0), 0, fl(127.0)]),
        (NumFormat::Ubscaled, [fl(-128.0), fl(-127.0), 0, fl(127.0)]),
    ];
    for v in versions_with("image_load") {
        for &(num, expect) in cases {
            let m = Memory::default();
            let t = ImageResource::new(ImageType::Image2d, DataFormat::D8_8_8_8, num);
            let img = image(&m, t, &[0, 1, 128, 255]);
            let w = ok(run_img(
                v,
                "image_load v[0:3], v[4:5], s[8:15] dmask:0xf unorm",
                &m,
                &img.resource(),
                &SamplerResource::default(),
                |w| {
                    set_u(w, 4, 0);
                    set_u(w, 5, 0);
                },
            ));
            let got = [w.vgpr[0][0], w.vgpr[1][0], w.vgpr[2][0], w.vgpr[3][0]];
            assert_eq!(got, expect, "{num} on {v}");
        }
    }
}

/// Every writable data format through `image_store` (UINT values 1, 2, 3,
/// 1 — or FLOAT where noted), the element bytes worked out by hand.
#[test]
fn every_writable_format_through_image_store() {
    let f = |x: f32| x.to_bits();
    let cases: Vec<(DataFormat, NumFormat, [u32; 4], Vec<u8>)> = vec![
        (DataFormat::D8, NumFormat::Uint, [1, 2, 3, 1], vec![1]),
        (
            DataFormat::D16,
            NumFormat::Uint,
            [0x1234, 2, 3, 1],
            vec![0x34, 0x12],
        ),
        (DataFormat::D8_8, NumFormat::Uint, [1, 2, 3, 1], vec![1, 2]),
        (
            DataFormat::D32,
            NumFormat::Float,
            [f(1.5), 0, 0, 0],
            1.5f32.to_le_bytes().to_vec(),
        ),
        (
            DataFormat::D16_16,
            NumFormat::Float,
            [f(1.0), f(-2.0), 0, 0],
            vec![0x00, 0x3c, 0x00, 0xc0],
        ),
        (
            DataFormat::D10_11_11,
            NumFormat::Uint,
            [1, 2, 3, 1],
            (1u32 | 2 << 11 | 3 << 22).to_le_bytes().to_vec(),
        ),
        (
            DataFormat::D11_11_10,
            NumFormat::Uint,
            [1, 2, 3, 1],
            (1u32 | 2 << 10 | 3 << 21).to_le_bytes().to_vec(),
        ),
        (
            DataFormat::D10_10_10_2,
            NumFormat::Uint,
            [1, 2, 3, 1],
            (1u32 | 2 << 2 | 3 << 12 | 1 << 22).to_le_bytes().to_vec(),
        ),
        (
            DataFormat::D2_10_10_10,
            NumFormat::Uint,
            [1, 2, 3, 1],
            (1u32 | 2 << 10 | 3 << 20 | 1 << 30).to_le_bytes().to_vec(),
        ),
        // UNORM 0.5 -> round_ne(127.5) = 128; 1.0 -> 255; SNORM -1 -> -127.
        (
            DataFormat::D8_8_8_8,
            NumFormat::Unorm,
            [f(0.5), f(1.0), f(0.0), f(2.0)],
            vec![128, 255, 0, 255],
        ),
        (
            DataFormat::D8_8_8_8,
            NumFormat::Snorm,
            [f(-1.0), f(0.5), f(1.0), f(0.0)],
            vec![0x81, 64, 127, 0],
        ),
        (
            DataFormat::D32_32,
            NumFormat::Uint,
            [5, 6, 0, 0],
            [5u32, 6].iter().flat_map(|x| x.to_le_bytes()).collect(),
        ),
        (
            DataFormat::D16_16_16_16,
            NumFormat::Sint,
            [u32::MAX, 2, 0x8_0000, 1],
            vec![0xff, 0xff, 2, 0, 0xff, 0x7f, 1, 0],
        ),
        (
            DataFormat::D32_32_32,
            NumFormat::Uint,
            [5, 6, 7, 0],
            [5u32, 6, 7].iter().flat_map(|x| x.to_le_bytes()).collect(),
        ),
        (
            DataFormat::D32_32_32_32,
            NumFormat::Uint,
            [5, 6, 7, 8],
            [5u32, 6, 7, 8]
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .collect(),
        ),
        (
            DataFormat::D5_6_5,
            NumFormat::Unorm,
            [f(1.0), f(0.0), f(1.0), 0],
            (31u16 | 31 << 11).to_le_bytes().to_vec(),
        ),
        (
            DataFormat::D1_5_5_5,
            NumFormat::Uint,
            [1, 2, 3, 1],
            (1u16 | 2 << 5 | 3 << 10 | 1 << 15).to_le_bytes().to_vec(),
        ),
        (
            DataFormat::D5_5_5_1,
            NumFormat::Uint,
            [1, 2, 3, 4],
            (1u16 | 2 << 1 | 3 << 6 | 4 << 11).to_le_bytes().to_vec(),
        ),
        (
            DataFormat::D4_4_4_4,
            NumFormat::Uint,
            [1, 2, 3, 20],
            vec![0x21, 0xf3],
        ),
    ];
    for v in versions_with("image_store") {
        for (data, num, values, bytes) in &cases {
            let m = Memory::default();
            let t = ImageResource::new(ImageType::Image2d, *data, *num).size(1, 1, 1);
            let img = DeviceImage::new(&m, t).unwrap();
            ok(run_img(
                v,
                "image_store v[0:3], v[4:5], s[8:15] dmask:0xf unorm",
                &m,
                &img.resource(),
                &SamplerResource::default(),
                |w| {
                    for (k, x) in values.iter().enumerate() {
                        set_u(w, k, *x);
                    }
                    set_u(w, 4, 0);
                    set_u(w, 5, 0);
                },
            ));
            assert_eq!(
                &img.read_all()[..bytes.len()],
                bytes.as_slice(),
                "{data}/{num} on {v}"
            );
        }
    }
}

/// Every sample and gather4 row runs on every version it exists on: a
/// constant image (every texel 7.0) gives 7.0 whatever the LOD, offset or
/// derivatives, and the `_c` forms (compare ALWAYS) 1.0.
#[test]
fn every_sample_and_gather_row_executes() {
    let m = Memory::default();
    let t = ImageResource::new(ImageType::Image2d, DataFormat::D32, NumFormat::Float)
        .size(4, 4, 1)
        .levels(0, 2);
    let img = DeviceImage::new(&m, t).unwrap();
    img.write_level::<f32>(0, &[7.0; 16]).unwrap();
    img.write_level::<f32>(1, &[7.0; 4]).unwrap();
    img.write_level::<f32>(2, &[7.0; 1]).unwrap();
    let s = SamplerResource::default()
        .depth_compare(DepthCompare::Always)
        .xy_filter(XyFilter::Bilinear)
        .mip_filter(MipFilter::Linear)
        .max_lod(15.0);
    let mut seen = 0;
    for row in gcn_asm::isa::INSTRUCTIONS.iter() {
        let name = row.mnemonic;
        if !(name.starts_with("image_sample") || name.starts_with("image_gather4"))
            || name.starts_with("image_gather4h")
        {
            continue;
        }
        let rest = name
            .trim_start_matches("image_sample")
            .trim_start_matches("image_gather4");
        let parts: Vec<&str> = rest.split('_').filter(|p| !p.is_empty()).collect();
        let deriv = parts.iter().any(|p| *p == "d" || *p == "cd");
        let n = parts.len() - usize::from(deriv) + if deriv { 4 } else { 0 } + 2;
        let compare = parts.contains(&"c");
        let gather = name.starts_with("image_gather4");
        for v in versions_with(name) {
            let vdata = if gather { "v[0:3]" } else { "v0" };
            let src = format!(
                "{name} {vdata}, v[10:{}], s[8:15], s[16:19] dmask:0x1",
                9 + n
            );
            let w = ok(run_img(v, &src, &m, &img.resource(), &s, |w| {
                for r in 10..10 + n {
                    // Offsets 0; everything else 0.5 (coordinates, LOD,
                    // bias, clamp, derivatives, reference).
                    set_f(w, r, 0.5);
                }
                if parts.contains(&"o") {
                    set_u(w, 10, 0);
                }
            }));
            let expect = if compare { 1.0 } else { 7.0 };
            assert_eq!(f32::from_bits(w.vgpr[0][0]), expect, "{name} on {v}");
            if gather {
                assert_eq!(f32::from_bits(w.vgpr[3][0]), expect, "{name} on {v}");
            }
            seen += 1;
        }
    }
    assert!(seen > 200, "{seen}");
}

#[test]
fn atomics_on_64_bit_texels_d16_stores_and_1d_images() {
    // 64-bit add and cmpswap on a 32_32 UINT texel.
    for v in versions_with("image_atomic_add") {
        let m = Memory::default();
        let t = ImageResource::new(ImageType::Image1d, DataFormat::D32_32, NumFormat::Uint)
            .size(2, 1, 1);
        let img = DeviceImage::new(&m, t).unwrap();
        img.write_level::<u64>(0, &[0, 0xffff_ffff]).unwrap();
        let w = ok(run_img(
            v,
            "image_atomic_add v[0:1], v4, s[8:15] dmask:0x3 unorm glc\n\
             image_atomic_cmpswap v[6:9], v4, s[8:15] dmask:0xf unorm glc",
            &m,
            &img.resource(),
            &SamplerResource::default(),
            |w| {
                w.set_exec(1);
                set_u(w, 0, 1);
                set_u(w, 1, 0);
                set_u(w, 4, 1);
                // cmpswap: new value 7 (v[6:7]), compare 0x1_0000_0000.
                set_u(w, 6, 7);
                set_u(w, 7, 0);
                set_u(w, 8, 0);
                set_u(w, 9, 1);
            },
        ));
        // add: 0xffff_ffff + 1 carries into the high dword.
        assert_eq!([w.vgpr[0][0], w.vgpr[1][0]], [0xffff_ffff, 0], "{v}");
        assert_eq!([w.vgpr[6][0], w.vgpr[7][0]], [0, 1]);
        assert_eq!(img.read_level::<u64>(0).unwrap(), vec![0, 7]);
    }
    // d16 stores: GCN 1.2 one half per VGPR, GCN 1.4 packed.
    for (v, data, regs) in [
        (GcnVersion::Gcn1_2, "v[0:1]", [0x3e00u32, 0xc000]),
        (GcnVersion::Gcn1_4, "v0", [0xc000_3e00, 0]),
    ] {
        let m = Memory::default();
        let t = ImageResource::new(ImageType::Image1d, DataFormat::D32_32, NumFormat::Float)
            .size(1, 1, 1);
        let img = DeviceImage::new(&m, t).unwrap();
        ok(run_img(
            v,
            &format!("image_store {data}, v4, s[8:15] dmask:0x3 unorm d16"),
            &m,
            &img.resource(),
            &SamplerResource::default(),
            |w| {
                set_u(w, 0, regs[0]);
                set_u(w, 1, regs[1]);
                set_u(w, 4, 0);
            },
        ));
        assert_eq!(img.read_level::<f32>(0).unwrap(), vec![1.5, -2.0], "{v}");
    }
    // A 1-D array: X and the slice.
    for v in versions_with("image_load") {
        let m = Memory::default();
        let t = ImageResource::new(ImageType::Image1dArray, DataFormat::D8, NumFormat::Uint)
            .size(3, 1, 2);
        let img = image(&m, t, &[1, 2, 3, 4, 5, 6]);
        let w = ok(run_img(
            v,
            "image_load v0, v[4:5], s[8:15] dmask:0x1 unorm da\n\
             image_get_resinfo v[1:4], v6, s[8:15] dmask:0xf unorm da",
            &m,
            &img.resource(),
            &SamplerResource::default(),
            |w| {
                set_u(w, 4, 2);
                set_u(w, 5, 1);
                set_u(w, 6, 0);
            },
        ));
        assert_eq!(w.vgpr[0][0], 6, "{v}");
        assert_eq!(
            [w.vgpr[1][0], w.vgpr[2][0], w.vgpr[3][0], w.vgpr[4][0]],
            [3, 2, 0, 1]
        );
    }
}

mod no_panic {
    use super::*;
    use proptest::prelude::*;

    const SOURCES: &[&str] = &[
        "image_load v[0:3], v[4:7], s[8:15] dmask:0xf unorm da",
        "image_load_mip_pck_sgn v[0:3], v[4:7], s[8:15] dmask:0xf unorm",
        "image_store_mip v[0:3], v[4:7], s[8:15] dmask:0xf unorm",
        "image_get_resinfo v[0:3], v4, s[8:15] dmask:0xf",
        "image_atomic_cmpswap v[0:1], v[4:7], s[8:15] dmask:0x3 unorm glc",
        "image_sample_c_d_cl_o v[0:3], v[4:13], s[8:15], s[16:19] dmask:0xf",
        "image_sample_b v[0:4], v[4:7], s[8:15], s[16:19] dmask:0xf tfe",
        "image_gather4_c_b_cl_o v[0:3], v[4:9], s[8:15], s[16:19] dmask:0x8 lwe",
        "image_get_lod v[0:1], v[4:6], s[8:15], s[16:19] dmask:0x3",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        /// A real image's T# with random fields, a random S# and random
        /// addresses (NaN, infinities, huge values included): every outcome
        /// is a result or a fault, never a panic.
        #[test]
        fn random_descriptors_and_addresses(
            t_noise in proptest::array::uniform8(any::<u32>()),
            t_mask in proptest::array::uniform8(any::<u32>()),
            s_words in proptest::array::uniform4(any::<u32>()),
            addr in proptest::collection::vec(any::<u32>(), 10),
            which in 0..SOURCES.len(),
            version in 0..4usize,
        ) {
            let m = Memory::default();
            let t = ImageResource::new(ImageType::Image2dArray, DataFormat::D32, NumFormat::Float)
                .size(4, 4, 3)
                .levels(0, 2);
            let img = DeviceImage::new(&m, t).unwrap();
            let mut tw = img.resource().to_words().unwrap();
            for i in 0..8 {
                // Keep BASE (words 0 and the low byte of 1) most of the time
                // so that accesses reach the image.
                let keep = if i == 0 { u32::MAX } else if i == 1 { 0xff } else { 0 };
                tw[i] ^= t_noise[i] & t_mask[i] & !keep;
            }
            let v = [GcnVersion::Gcn1_0, GcnVersion::Gcn1_1, GcnVersion::Gcn1_2, GcnVersion::Gcn1_4][version];
            let src = SOURCES[which];
            let _ = run_with(v, src, &m, |w| {
                w.sgpr[8..16].copy_from_slice(&tw);
                w.sgpr[16..20].copy_from_slice(&s_words);
                for (k, a) in addr.iter().enumerate() {
                    for lane in 0..WAVE_SIZE {
                        w.vgpr[4 + k][lane] = a.rotate_left(lane as u32);
                    }
                }
            });
        }
    }
}

#[test]
fn every_clamp_mode_bilinear_at_the_edges() {
    let m = Memory::default();
    let img = row4(&m);
    let t = img.resource();
    let base = SamplerResource::default()
        .border_color(BorderColor::OpaqueWhite)
        .xy_filter(XyFilter::Bilinear);
    // Texels 10, 20, 30, 40; border 1.0. At t = 0.25 (u = -0.25: 1/4 of
    // texel -1, 3/4 of texel 0) and t = 4.25 (u = 3.75: 1/4 of texel 3,
    // 3/4 of texel 4); half border first clamps t to [0, 4].
    let cases: &[(ClampMode, [f32; 2])] = &[
        (
            ClampMode::Wrap,
            [0.25 * 40.0 + 0.75 * 10.0, 0.25 * 40.0 + 0.75 * 10.0],
        ),
        (ClampMode::Mirror, [10.0, 40.0]),
        (ClampMode::ClampLastTexel, [10.0, 40.0]),
        (ClampMode::MirrorOnceLastTexel, [10.0, 40.0]),
        (
            ClampMode::ClampHalfBorder,
            [0.25 * 1.0 + 0.75 * 10.0, 0.5 * 40.0 + 0.5 * 1.0],
        ),
        (
            ClampMode::MirrorOnceHalfBorder,
            [10.0, 0.5 * 40.0 + 0.5 * 1.0],
        ),
        (
            ClampMode::ClampBorder,
            [0.25 * 1.0 + 0.75 * 10.0, 0.25 * 40.0 + 0.75 * 1.0],
        ),
        (
            ClampMode::MirrorOnceBorder,
            [10.0, 0.25 * 40.0 + 0.75 * 1.0],
        ),
    ];
    for v in versions_with("image_sample") {
        for &(mode, expect) in cases {
            let s = base.clamp(mode);
            let got = [0.25f32, 4.25].map(|t_| sample1(v, &m, &t, &s, t_ / 4.0));
            assert_eq!(got, expect, "{mode} on {v}");
        }
    }
}

#[test]
fn mips_of_3d_images_and_gather4_components() {
    let m = Memory::default();
    // 2x2x2 R32 FLOAT, 2 levels: level 0 all 1.0, level 1 (1x1x1) 5.0.
    let t = ImageResource::new(ImageType::Image3d, DataFormat::D32, NumFormat::Float)
        .size(2, 2, 2)
        .levels(0, 1);
    let vol = DeviceImage::new(&m, t).unwrap();
    vol.write_level::<f32>(0, &[1.0; 8]).unwrap();
    vol.write_level::<f32>(1, &[5.0]).unwrap();
    // 1x1 RGBA8 UINT (1, 2, 3, 4) for gather4 components.
    let t = ImageResource::new(ImageType::Image2d, DataFormat::D8_8_8_8, NumFormat::Uint);
    let px = image(&m, t, &[1, 2, 3, 4]);
    for v in versions_with("image_sample_l") {
        let s = SamplerResource::default()
            .max_lod(15.0)
            .mip_filter(MipFilter::Linear);
        let w = ok(run_img(
            v,
            "image_sample_l v0, v[4:7], s[8:15], s[16:19] dmask:0x1",
            &m,
            &vol.resource(),
            &s,
            |w| {
                for r in 4..7 {
                    set_f(w, r, 0.5);
                }
                set_f(w, 7, 0.75);
            },
        ));
        // LOD 0.75: 1/4 of level 0 and 3/4 of level 1.
        assert_eq!(f(w.vgpr[0][0]), 0.25 * 1.0 + 0.75 * 5.0, "{v}");
        for (dmask, want) in [(1u32, 1u32), (2, 2), (4, 3), (8, 4), (6, 2)] {
            let w = ok(run_img(
                v,
                &format!("image_gather4_lz v[0:3], v[4:5], s[8:15], s[16:19] dmask:{dmask:#x}"),
                &m,
                &px.resource(),
                &SamplerResource::default().clamp(ClampMode::ClampLastTexel),
                |w| {
                    set_f(w, 4, 0.5);
                    set_f(w, 5, 0.5);
                },
            ));
            // The lowest DMASK bit picks the component; every texel of the
            // footprint is the one texel.
            assert_eq!(
                [0, 1, 2, 3].map(|k| w.vgpr[k][0]),
                [want; 4],
                "dmask {dmask} on {v}"
            );
        }
    }
}

#[test]
fn implicit_lod_is_relative_to_the_base_level() {
    // With BASE_LEVEL 1 the base is 2x2: d/dx = 0.5 normalised = 1 texel
    // of it -> LOD 0 -> level 1 (5.0); from level 0 it would be LOD 1.
    let m = Memory::default();
    let img = mips(&m);
    let s = SamplerResource::default()
        .max_lod(15.0)
        .mip_filter(MipFilter::Point);
    for v in versions_with("image_sample") {
        let w = ok(run_img(
            v,
            "image_sample v0, v[4:5], s[8:15], s[16:19] dmask:0x1",
            &m,
            &img.resource().base_level(1),
            &s,
            |w| quad(w, 0.5, 0.0),
        ));
        assert_eq!(f(w.vgpr[0][0]), 5.0, "{v}");
    }
}

/// GCN 1.5 and RDNA 2 run MIMG (`tests_gfx10`) but for RDNA 2's BVH
/// intersection and MSAA sample loads, which stay gaps.
#[test]
fn gfx10_bvh_and_msaa_load_stay_gaps() {
    use gcn_asm::isa::lookup;
    for v in [GcnVersion::Gcn1_5, GcnVersion::Gcn1_5_1, GcnVersion::Rdna2] {
        for m in [
            "image_load",
            "image_store",
            "image_sample",
            "image_atomic_add",
        ] {
            assert!(
                super::handler(lookup(m, v).unwrap(), v).is_some(),
                "{m} {v}"
            );
        }
    }
    for m in [
        "image_msaa_load",
        "image_bvh_intersect_ray",
        "image_bvh64_intersect_ray",
    ] {
        let row = lookup(m, GcnVersion::Rdna2).unwrap();
        assert!(super::handler(row, GcnVersion::Rdna2).is_none(), "{m}");
    }
}
