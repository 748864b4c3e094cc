//! Descriptors in a readable text form, for command lines (`gcnrun`):
//! comma-separated `KEY=VALUE` pairs.
//!
//! - Sampler: every field by its name in [`SamplerResource`] (`clamp_x`,
//!   `depth_compare`, `min_lod`, `xy_mag_filter`, `border_color`, …) plus
//!   `clamp` (all three) and `xy_filter` (both). Coded values by the seed's
//!   name, case-insensitive, whole or without its prefix (`TEX_MIRROR`,
//!   `mirror`; `bilinear`; `opaque_white`; `less`), flags as `0`/`1`/`true`/
//!   `false`, numbers in decimal.
//!   Example: `clamp=mirror,xy_filter=bilinear,mip_filter=linear,max_lod=4`.
//! - Image: `type` (`1d`, `2d`, `3d`, `cube`, `1d_array`, `2d_array`;
//!   default `2d`), `format` (a data format name: `8_8_8_8`, `32`, `bc1`, …),
//!   `num` (a number format: `unorm`, `float`, `srgb`, …), `size` (`W`,
//!   `WxH` or `WxHxD`, D = depth or slices), `levels` (mip levels, default
//!   1), and any other T# field by its name in [`ImageResource`]
//!   (`dst_sel=wzyx`-style selections are `dst_sel` of four of `0 1 x y z
//!   w`). Example: `type=2d,format=8_8_8_8,num=unorm,size=64x32`.

use super::image::{DataFormat, DstSel, NumFormat};
use super::sampler::{BorderColor, ClampMode, DepthCompare, FilterMode, MipFilter, XyFilter};
use super::{ImageResource, ImageType, SamplerResource};

fn pairs(spec: &str) -> Result<Vec<(String, String)>, String> {
    spec.split(',')
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            let (k, v) = p
                .split_once('=')
                .ok_or_else(|| format!("`{p}`: expected KEY=VALUE"))?;
            Ok((k.trim().to_ascii_lowercase(), v.trim().to_string()))
        })
        .collect()
}

/// Finds a coded value by name: the whole seed name or its last
/// underscore-separated parts (`TEX_CLAMP_BORDER`: `clamp_border`; unique
/// among the enum's values).
fn coded<T: Copy>(
    key: &str,
    value: &str,
    all: &[T],
    name: fn(T) -> &'static str,
) -> Result<T, String> {
    let v = value.to_ascii_lowercase();
    if let Some(&x) = all.iter().find(|&&x| name(x).eq_ignore_ascii_case(&v)) {
        return Ok(x);
    }
    let hits: Vec<T> = all
        .iter()
        .copied()
        .filter(|&x| {
            let n = name(x).to_ascii_lowercase();
            n.strip_suffix(&v).is_some_and(|p| p.ends_with('_'))
                && !all.iter().any(|&y| {
                    // `border` must not pick TEX_CLAMP_BORDER when
                    // TEX_MIRROR_ONCE_BORDER also ends with it: only whole
                    // trailing parts after the common prefix count.
                    let m = name(y).to_ascii_lowercase();
                    m != n && m.ends_with(&format!("_{v}"))
                })
        })
        .collect();
    match hits.as_slice() {
        [x] => Ok(*x),
        _ => Err(format!(
            "{key}: `{value}` is not one of {}",
            all.iter().map(|&x| name(x)).collect::<Vec<_>>().join(", ")
        )),
    }
}

fn flag(key: &str, v: &str) -> Result<bool, String> {
    match v.to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" => Ok(true),
        "0" | "false" | "no" => Ok(false),
        _ => Err(format!("{key}: `{v}` is not 0/1/true/false")),
    }
}

fn num<T: std::str::FromStr>(key: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{key}: `{v}` is not a number of the field's type"))
}

/// Parses a sampler spec (see the module).
pub fn parse_sampler(spec: &str) -> Result<SamplerResource, String> {
    let mut s = SamplerResource::default();
    for (k, v) in pairs(spec)? {
        let clamp = |v: &str| coded(&k, v, ClampMode::ALL, ClampMode::name);
        let xy = |v: &str| coded(&k, v, XyFilter::ALL, XyFilter::name);
        let mip = |v: &str| coded(&k, v, MipFilter::ALL, MipFilter::name);
        s = match k.as_str() {
            "clamp" => s.clamp(clamp(&v)?),
            "clamp_x" => s.clamp_x(clamp(&v)?),
            "clamp_y" => s.clamp_y(clamp(&v)?),
            "clamp_z" => s.clamp_z(clamp(&v)?),
            "depth_compare" => {
                s.depth_compare(coded(&k, &v, DepthCompare::ALL, DepthCompare::name)?)
            }
            "force_unnormalized" => s.force_unnormalized(flag(&k, &v)?),
            "mc_coord_trunc" => s.mc_coord_trunc(flag(&k, &v)?),
            "force_degamma" => s.force_degamma(flag(&k, &v)?),
            "trunc_coord" => s.trunc_coord(flag(&k, &v)?),
            "disable_cube_wrap" => s.disable_cube_wrap(flag(&k, &v)?),
            "filter_mode" => s.filter_mode(coded(&k, &v, FilterMode::ALL, FilterMode::name)?),
            "min_lod" => s.min_lod(num(&k, &v)?),
            "max_lod" => s.max_lod(num(&k, &v)?),
            "perf_mip" => s.perf_mip(num(&k, &v)?),
            "perf_z" => s.perf_z(num(&k, &v)?),
            "lod_bias" => s.lod_bias(num(&k, &v)?),
            "lod_bias_sec" => s.lod_bias_sec(num(&k, &v)?),
            "xy_filter" => s.xy_filter(xy(&v)?),
            "xy_mag_filter" => s.xy_mag_filter(xy(&v)?),
            "xy_min_filter" => s.xy_min_filter(xy(&v)?),
            "z_filter" => s.z_filter(mip(&v)?),
            "mip_filter" => s.mip_filter(mip(&v)?),
            "mip_point_preclamp" => s.mip_point_preclamp(flag(&k, &v)?),
            "disable_lsb_ceil" => s.disable_lsb_ceil(flag(&k, &v)?),
            "filter_prec_fix" => s.filter_prec_fix(flag(&k, &v)?),
            "border_color_ptr" => s.border_color_ptr(num(&k, &v)?),
            "border_color" => s.border_color(coded(&k, &v, BorderColor::ALL, BorderColor::name)?),
            _ => return Err(format!("`{k}` is not a sampler field")),
        };
    }
    s.to_words().map_err(|e| e.to_string())?;
    Ok(s)
}

/// Parses an image spec (see the module); the result is validated.
pub fn parse_image(spec: &str) -> Result<ImageResource, String> {
    let mut t = ImageResource::new(ImageType::Image2d, DataFormat::D8_8_8_8, NumFormat::Unorm);
    let mut size = None;
    for (k, v) in pairs(spec)? {
        t = match k.as_str() {
            "type" => {
                let ty = match v.to_ascii_lowercase().as_str() {
                    "1d" => ImageType::Image1d,
                    "2d" => ImageType::Image2d,
                    "3d" => ImageType::Image3d,
                    "cube" => ImageType::Cube,
                    "1d_array" => ImageType::Image1dArray,
                    "2d_array" => ImageType::Image2dArray,
                    _ => coded(&k, &v, ImageType::ALL, ImageType::name)?,
                };
                t.image_type(ty)
            }
            "format" => {
                let f = (0..64u8)
                    .filter_map(DataFormat::from_code)
                    .find(|f| f.name().eq_ignore_ascii_case(&v))
                    .ok_or_else(|| format!("format: `{v}` is not a data format name"))?;
                t.data_format(f)
            }
            "num" => {
                let n = NumFormat::ALL
                    .iter()
                    .copied()
                    .find(|n| n.name().eq_ignore_ascii_case(&v))
                    .ok_or_else(|| format!("num: `{v}` is not a number format name"))?;
                t.num_format(n)
            }
            "size" => {
                let dims = v
                    .split('x')
                    .map(|d| num::<u32>(&k, d))
                    .collect::<Result<Vec<_>, _>>()?;
                if dims.is_empty() || dims.len() > 3 {
                    return Err(format!("size: `{v}` is not W, WxH or WxHxD"));
                }
                size = Some([
                    dims[0],
                    *dims.get(1).unwrap_or(&1),
                    *dims.get(2).unwrap_or(&1),
                ]);
                t
            }
            "levels" => {
                let n: u8 = num(&k, &v)?;
                if n == 0 {
                    return Err("levels: at least 1".into());
                }
                t.levels(0, n - 1)
            }
            "min_lod" => t.min_lod(num(&k, &v)?),
            "perf_mod" => t.perf_mod(num(&k, &v)?),
            "interlaced" => t.interlaced(flag(&k, &v)?),
            "base_level" => t.base_level(num(&k, &v)?),
            "last_level" => t.last_level(num(&k, &v)?),
            "tiling_index" => t.tiling_index(num(&k, &v)?),
            "pow2pad" => t.pow2pad(flag(&k, &v)?),
            "pitch" => t.pitch(num(&k, &v)?),
            "base_array" => t.base_array(num(&k, &v)?),
            "last_array" => t.last_array(num(&k, &v)?),
            "min_lod_warn" => t.min_lod_warn(num(&k, &v)?),
            "dst_sel" => {
                let sel: Vec<DstSel> = v
                    .chars()
                    .map(|c| match c.to_ascii_lowercase() {
                        '0' => Ok(DstSel::Zero),
                        '1' => Ok(DstSel::One),
                        'x' | 'r' => Ok(DstSel::X),
                        'y' | 'g' => Ok(DstSel::Y),
                        'z' | 'b' => Ok(DstSel::Z),
                        'w' | 'a' => Ok(DstSel::W),
                        _ => Err(format!("dst_sel: `{c}` is not one of 0 1 x y z w")),
                    })
                    .collect::<Result<_, _>>()?;
                let sel: [DstSel; 4] = sel
                    .try_into()
                    .map_err(|_| format!("dst_sel: `{v}` is not four selections"))?;
                t.dst_sel(sel)
            }
            _ => return Err(format!("`{k}` is not an image field")),
        };
    }
    let [w, h, d] = size.ok_or("size=W[xH[xD]] is missing")?;
    let (pitch, ba, la) = (t.pitch, t.base_array, t.last_array);
    let mut t2 = t.size(w, h, d);
    // Explicit pitch/array fields win over what `size` sets.
    if pitch > 1 {
        t2 = t2.pitch(pitch);
    }
    if ba != 0 || la != 0 {
        t2 = t2.base_array(ba).last_array(la);
    }
    t2.validate().map_err(|e| e.to_string())?;
    Ok(t2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampler_fields_by_name() {
        let s = parse_sampler(
            "clamp=mirror,clamp_z=TEX_CLAMP_BORDER,xy_filter=bilinear,mip_filter=linear,\
             max_lod=4.5,depth_compare=less,border_color=opaque_white,force_unnormalized=1",
        )
        .unwrap();
        assert_eq!(s.clamp_x, ClampMode::Mirror);
        assert_eq!(s.clamp_z, ClampMode::ClampBorder);
        assert_eq!(s.xy_min_filter, XyFilter::Bilinear);
        assert_eq!(s.mip_filter, MipFilter::Linear);
        assert_eq!(s.max_lod, 4.5);
        assert_eq!(s.depth_compare, DepthCompare::Less);
        assert_eq!(s.border_color, BorderColor::OpaqueWhite);
        assert!(s.force_unnormalized);
        assert_eq!(
            parse_sampler("clamp=mirror_once_border").unwrap().clamp_y,
            ClampMode::MirrorOnceBorder
        );
        assert!(parse_sampler("clamp=border").is_err());
        assert!(parse_sampler("bogus=1").unwrap_err().contains("bogus"));
        assert!(parse_sampler("max_lod=99").is_err());
    }

    #[test]
    fn image_fields_by_name() {
        let t = parse_image("type=2d_array,format=32,num=float,size=8x4x3,levels=2").unwrap();
        assert_eq!(t.image_type, ImageType::Image2dArray);
        assert_eq!((t.width, t.height, t.depth, t.last_array), (8, 4, 3, 2));
        assert_eq!((t.base_level, t.last_level), (0, 1));
        let t = parse_image("format=8_8_8_8,num=srgb,size=4x4,dst_sel=zyxw").unwrap();
        assert_eq!(t.dst_sel, [DstSel::Z, DstSel::Y, DstSel::X, DstSel::W]);
        assert!(parse_image("format=8_8_8_8").unwrap_err().contains("size"));
        assert!(parse_image("format=nope,size=1")
            .unwrap_err()
            .contains("nope"));
        assert!(parse_image("type=1d,size=4x2").is_err());
    }
}
