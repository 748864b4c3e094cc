//! The sampler resource (S#): 128 bits that tell `image_sample*` and
//! `image_gather4*` how to address, filter and compare.
//!
//! Fields and codes are the seed's table, bit for bit:
//!
//! | bits | field | type here |
//! |---|---|---|
//! | 0-2, 3-5, 6-8 | CLAMP_X/Y/Z | [`ClampMode`] |
//! | 12-14 | DEPTH_COMPARE_FUNC | [`DepthCompare`] |
//! | 15 | FORCE_UNNORMALIZED | `bool` |
//! | 19 | MC_COORD_TRUNC | `bool` |
//! | 20 | FORCE_DEGAMMA | `bool` |
//! | 27 | TRUNC_COORD | `bool` |
//! | 28 | DISABLE_CUBE_WRAP | `bool` |
//! | 29-30 | FILTER_MODE | [`FilterMode`] |
//! | 32-43, 44-55 | MIN_LOD, MAX_LOD | `f32`, unsigned 4.8 fixed point |
//! | 56-59, 60-63 | PERF_MIP, PERF_Z | `u8` (4 bits) |
//! | 64-77 | LOD_BIAS | `f32`, signed 5.8 fixed point (14 bits) |
//! | 78-83 | LOD_BIAS_SEC | `f32`, signed 1.4 fixed point (6 bits) |
//! | 84-85, 86-87 | XY_MAG_FILTER, XY_MIN_FILTER | [`XyFilter`] |
//! | 88-89, 90-91 | Z_FILTER, MIP_FILTER | [`MipFilter`] |
//! | 92 | MIP_POINT_PRECLAMP | `bool` |
//! | 93 | DISABLE_LSB_CEIL | `bool` |
//! | 94 | FILTER_PREC_FIX | `bool` |
//! | 96-107 | BORDER_COLOR_PTR | `u16` (12 bits) |
//! | 126-127 | BORDER_COLOR_TYPE | [`BorderColor`] |
//!
//! GCN 1.5 and RDNA 2 (gfx10) keep this layout in every field above: AMD's
//! gfx10 `SQ_IMG_SAMP_WORD0..3` (ROCm's `ROCR-Runtime`
//! `runtime/hsa-runtime/image/resource_nv.h`, Mesa's `sid.h` `S_008F30_*`…
//! `S_008F3C_*`) put CLAMP_*, DEPTH_COMPARE_FUNC, FORCE_UNNORMALIZED,
//! MC_COORD_TRUNC, FORCE_DEGAMMA, TRUNC_COORD, DISABLE_CUBE_WRAP,
//! FILTER_MODE, the LODs, PERF_*, the filters, MIP_POINT_PRECLAMP,
//! BORDER_COLOR_PTR and BORDER_COLOR_TYPE on the same bits, so this type
//! reads a gfx10 S# too. What gfx10 changes: bit 31 is SKIP_DEGAMMA, bits
//! 93-95 are ANISO_OVERRIDE, BLEND_ZERO_PRT and DERIV_ADJUST_EN (here
//! `disable_lsb_ceil` and `filter_prec_fix` hold bits 93 and 94, which the
//! emulator ignores either way); the MIMG instructions fault on a gfx10 S#
//! with SKIP_DEGAMMA or DERIV_ADJUST_EN set ([`crate::exec`]'s image rules).
//!
//! ```
//! use gcn_runtime::descriptor::{SamplerResource, ClampMode, XyFilter};
//! let s = SamplerResource::default()
//!     .clamp_x(ClampMode::Mirror)
//!     .xy_mag_filter(XyFilter::Bilinear)
//!     .max_lod(4.5);
//! let words = s.to_words().unwrap();
//! assert_eq!(SamplerResource::from_words(&words).unwrap(), s);
//! ```

use std::fmt;

use super::fields::{
    bits, from_sfixed, from_ufixed, set_bits, to_sfixed, to_ufixed, DescriptorError,
};

macro_rules! coded_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident = $c:expr, $text:expr;)* }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub enum $name {
            $($(#[$vm])* $v = $c,)*
        }

        impl $name {
            /// Every value, in code order.
            pub const ALL: &'static [$name] = &[$($name::$v),*];

            /// The field's code.
            pub fn code(self) -> u8 {
                self as u8
            }

            /// The value of a code, if it names one.
            pub fn from_code(code: u8) -> Option<Self> {
                match code {
                    $($c => Some($name::$v),)*
                    _ => None,
                }
            }

            /// The seed's name.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$v => $text,)*
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}
pub(crate) use coded_enum;

coded_enum!(
    /// How a coordinate outside the image is brought back in (CLAMP_X/Y/Z).
    ClampMode {
        /// Repeat the image (`TEX_WRAP`).
        #[default]
        Wrap = 0, "TEX_WRAP";
        /// Repeat, mirrored every other time (`TEX_MIRROR`).
        Mirror = 1, "TEX_MIRROR";
        /// Clamp to the edge texel (`TEX_CLAMP_LAST_TEXEL`).
        ClampLastTexel = 2, "TEX_CLAMP_LAST_TEXEL";
        /// Mirror once around 0, then clamp to the edge texel.
        MirrorOnceLastTexel = 3, "TEX_MIRROR_ONCE_LAST_TEXEL";
        /// Clamp half a texel past the edge: bilinear filtering blends the
        /// edge texel with the border colour 50/50 at most.
        ClampHalfBorder = 4, "TEX_CLAMP_HALF_BORDER";
        /// Mirror once, then clamp as [`ClampMode::ClampHalfBorder`].
        MirrorOnceHalfBorder = 5, "TEX_MIRROR_ONCE_HALF_BORDER";
        /// Texels outside the image are the border colour.
        ClampBorder = 6, "TEX_CLAMP_BORDER";
        /// Mirror once, then as [`ClampMode::ClampBorder`].
        MirrorOnceBorder = 7, "TEX_MIRROR_ONCE_BORDER";
    }
);

coded_enum!(
    /// The depth compare function of the `_c` sample and gather forms:
    /// the result is 1 when `reference OP texel` holds, else 0.
    DepthCompare {
        /// Always 0.
        #[default]
        Never = 0, "TEX_DEPTH_COMPARE_NEVER";
        /// `reference < texel`.
        Less = 1, "TEX_DEPTH_COMPARE_LESS";
        /// `reference == texel`.
        Equal = 2, "TEX_DEPTH_COMPARE_EQUAL";
        /// `reference <= texel`.
        LessEqual = 3, "TEX_DEPTH_COMPARE_LESSEQUAL";
        /// `reference > texel`.
        Greater = 4, "TEX_DEPTH_COMPARE_GREATER";
        /// `reference != texel`.
        NotEqual = 5, "TEX_DEPTH_COMPARE_NOTEQUAL";
        /// `reference >= texel`.
        GreaterEqual = 6, "TEX_DEPTH_COMPARE_GREATEREQUAL";
        /// Always 1.
        Always = 7, "TEX_DEPTH_COMPARE_ALWAYS";
    }
);

coded_enum!(
    /// FILTER_MODE: how the texels of a filter footprint combine. The seed
    /// leaves the codes unexplained; these are AMD's (blend = weighted
    /// average, min/max = the smallest/largest texel with a non-zero
    /// weight, per component).
    FilterMode {
        /// Weighted average.
        #[default]
        Blend = 0, "TEX_FILTER_MODE_BLEND";
        /// Per-component minimum.
        Min = 1, "TEX_FILTER_MODE_MIN";
        /// Per-component maximum.
        Max = 2, "TEX_FILTER_MODE_MAX";
    }
);

coded_enum!(
    /// XY_MAG_FILTER / XY_MIN_FILTER.
    XyFilter {
        /// The nearest texel.
        #[default]
        Point = 0, "TEX_XY_FILTER_POINT";
        /// The four nearest texels, weighted.
        Bilinear = 1, "TEX_XY_FILTER_BILINEAR";
    }
);

coded_enum!(
    /// Z_FILTER (between the slices of a 3-D image) and MIP_FILTER
    /// (between mip levels).
    MipFilter {
        /// No filtering: Z uses the XY filter's choice of slice (point);
        /// mip: always the base level.
        #[default]
        None = 0, "TEX_Z_FILTER_NONE";
        /// The nearest slice / level.
        Point = 1, "TEX_Z_FILTER_POINT";
        /// The two nearest slices / levels, weighted.
        Linear = 2, "TEX_Z_FILTER_LINEAR";
    }
);

coded_enum!(
    /// BORDER_COLOR_TYPE: the colour of texels outside the image under the
    /// border clamp modes.
    BorderColor {
        /// (0, 0, 0, 0).
        #[default]
        TransparentBlack = 0, "TEX_BORDER_COLOR_TRANS_BLACK";
        /// (0, 0, 0, 1).
        OpaqueBlack = 1, "TEX_BORDER_COLOR_OPAQUE_BLACK";
        /// (1, 1, 1, 1).
        OpaqueWhite = 2, "TEX_BORDER_COLOR_OPAQUE_WHITE";
        /// From the border colour table at BORDER_COLOR_PTR (the emulator
        /// has no such table: sampling with it is a "not supported" fault).
        Register = 3, "TEX_BORDER_COLOR_REGISTER";
    }
);

/// A sampler resource (S#): every field of the seed's table, typed.
///
/// Build it with [`Default`] and the chainable setters (one per field),
/// get its words with [`SamplerResource::to_words`] (which checks the LOD
/// ranges) and read words back with [`SamplerResource::from_words`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SamplerResource {
    /// CLAMP_X.
    pub clamp_x: ClampMode,
    /// CLAMP_Y.
    pub clamp_y: ClampMode,
    /// CLAMP_Z.
    pub clamp_z: ClampMode,
    /// DEPTH_COMPARE_FUNC.
    pub depth_compare: DepthCompare,
    /// FORCE_UNNORMALIZED: coordinates are in texels, as with `unorm`.
    pub force_unnormalized: bool,
    /// MC_COORD_TRUNC.
    pub mc_coord_trunc: bool,
    /// FORCE_DEGAMMA.
    pub force_degamma: bool,
    /// TRUNC_COORD.
    pub trunc_coord: bool,
    /// DISABLE_CUBE_WRAP.
    pub disable_cube_wrap: bool,
    /// FILTER_MODE.
    pub filter_mode: FilterMode,
    /// MIN_LOD (0 ..= 15.996, steps of 1/256).
    pub min_lod: f32,
    /// MAX_LOD (0 ..= 15.996, steps of 1/256).
    pub max_lod: f32,
    /// PERF_MIP (4 bits).
    pub perf_mip: u8,
    /// PERF_Z (4 bits).
    pub perf_z: u8,
    /// LOD_BIAS (-32 ..= 31.996, steps of 1/256).
    pub lod_bias: f32,
    /// LOD_BIAS_SEC (-2 ..= 1.9375, steps of 1/16).
    pub lod_bias_sec: f32,
    /// XY_MAG_FILTER.
    pub xy_mag_filter: XyFilter,
    /// XY_MIN_FILTER.
    pub xy_min_filter: XyFilter,
    /// Z_FILTER.
    pub z_filter: MipFilter,
    /// MIP_FILTER.
    pub mip_filter: MipFilter,
    /// MIP_POINT_PRECLAMP.
    pub mip_point_preclamp: bool,
    /// DISABLE_LSB_CEIL.
    pub disable_lsb_ceil: bool,
    /// FILTER_PREC_FIX.
    pub filter_prec_fix: bool,
    /// BORDER_COLOR_PTR (12 bits).
    pub border_color_ptr: u16,
    /// BORDER_COLOR_TYPE.
    pub border_color: BorderColor,
}

macro_rules! setters {
    ($($(#[$m:meta])* $f:ident: $t:ty;)*) => {
        $(
            $(#[$m])*
            pub fn $f(mut self, v: $t) -> Self {
                self.$f = v;
                self
            }
        )*
    };
}
pub(crate) use setters;

const WHAT: &str = "sampler resource";

fn err(field: &'static str, message: String) -> DescriptorError {
    DescriptorError {
        descriptor: WHAT,
        field,
        message,
    }
}

impl SamplerResource {
    setters! {
        /// Sets CLAMP_X.
        clamp_x: ClampMode;
        /// Sets CLAMP_Y.
        clamp_y: ClampMode;
        /// Sets CLAMP_Z.
        clamp_z: ClampMode;
        /// Sets DEPTH_COMPARE_FUNC.
        depth_compare: DepthCompare;
        /// Sets FORCE_UNNORMALIZED.
        force_unnormalized: bool;
        /// Sets MC_COORD_TRUNC.
        mc_coord_trunc: bool;
        /// Sets FORCE_DEGAMMA.
        force_degamma: bool;
        /// Sets TRUNC_COORD.
        trunc_coord: bool;
        /// Sets DISABLE_CUBE_WRAP.
        disable_cube_wrap: bool;
        /// Sets FILTER_MODE.
        filter_mode: FilterMode;
        /// Sets MIN_LOD.
        min_lod: f32;
        /// Sets MAX_LOD.
        max_lod: f32;
        /// Sets PERF_MIP.
        perf_mip: u8;
        /// Sets PERF_Z.
        perf_z: u8;
        /// Sets LOD_BIAS.
        lod_bias: f32;
        /// Sets LOD_BIAS_SEC.
        lod_bias_sec: f32;
        /// Sets XY_MAG_FILTER.
        xy_mag_filter: XyFilter;
        /// Sets XY_MIN_FILTER.
        xy_min_filter: XyFilter;
        /// Sets Z_FILTER.
        z_filter: MipFilter;
        /// Sets MIP_FILTER.
        mip_filter: MipFilter;
        /// Sets MIP_POINT_PRECLAMP.
        mip_point_preclamp: bool;
        /// Sets DISABLE_LSB_CEIL.
        disable_lsb_ceil: bool;
        /// Sets FILTER_PREC_FIX.
        filter_prec_fix: bool;
        /// Sets BORDER_COLOR_PTR.
        border_color_ptr: u16;
        /// Sets BORDER_COLOR_TYPE.
        border_color: BorderColor;
    }

    /// Sets both XY filters (magnification and minification).
    pub fn xy_filter(self, f: XyFilter) -> Self {
        self.xy_mag_filter(f).xy_min_filter(f)
    }

    /// Sets the clamp mode of all three coordinates.
    pub fn clamp(self, c: ClampMode) -> Self {
        self.clamp_x(c).clamp_y(c).clamp_z(c)
    }

    /// The four words, or an error naming a field whose value does not fit
    /// (a LOD outside its fixed-point range, a 4-bit or 12-bit field too
    /// large).
    pub fn to_words(&self) -> Result<[u32; 4], DescriptorError> {
        let mut w = [0u32; 4];
        let lod = |name: &'static str, x: f32, width, frac, signed: bool| {
            let v = if signed {
                to_sfixed(x, width, frac)
            } else {
                to_ufixed(x, width, frac)
            };
            v.ok_or_else(|| {
                err(
                    name,
                    format!(
                        "{x} does not fit a {}{}.{frac} fixed-point field",
                        if signed { "signed " } else { "" },
                        width - frac
                    ),
                )
            })
        };
        let small = |name: &'static str, v: u64, width: u32| {
            if v >> width == 0 {
                Ok(v)
            } else {
                Err(err(name, format!("{v} does not fit {width} bits")))
            }
        };
        set_bits(&mut w, 0, 3, self.clamp_x.code().into());
        set_bits(&mut w, 3, 3, self.clamp_y.code().into());
        set_bits(&mut w, 6, 3, self.clamp_z.code().into());
        set_bits(&mut w, 12, 3, self.depth_compare.code().into());
        set_bits(&mut w, 15, 1, self.force_unnormalized.into());
        set_bits(&mut w, 19, 1, self.mc_coord_trunc.into());
        set_bits(&mut w, 20, 1, self.force_degamma.into());
        set_bits(&mut w, 27, 1, self.trunc_coord.into());
        set_bits(&mut w, 28, 1, self.disable_cube_wrap.into());
        set_bits(&mut w, 29, 2, self.filter_mode.code().into());
        set_bits(&mut w, 32, 12, lod("MIN_LOD", self.min_lod, 12, 8, false)?);
        set_bits(&mut w, 44, 12, lod("MAX_LOD", self.max_lod, 12, 8, false)?);
        set_bits(&mut w, 56, 4, small("PERF_MIP", self.perf_mip.into(), 4)?);
        set_bits(&mut w, 60, 4, small("PERF_Z", self.perf_z.into(), 4)?);
        set_bits(&mut w, 64, 14, lod("LOD_BIAS", self.lod_bias, 14, 8, true)?);
        set_bits(
            &mut w,
            78,
            6,
            lod("LOD_BIAS_SEC", self.lod_bias_sec, 6, 4, true)?,
        );
        set_bits(&mut w, 84, 2, self.xy_mag_filter.code().into());
        set_bits(&mut w, 86, 2, self.xy_min_filter.code().into());
        set_bits(&mut w, 88, 2, self.z_filter.code().into());
        set_bits(&mut w, 90, 2, self.mip_filter.code().into());
        set_bits(&mut w, 92, 1, self.mip_point_preclamp.into());
        set_bits(&mut w, 93, 1, self.disable_lsb_ceil.into());
        set_bits(&mut w, 94, 1, self.filter_prec_fix.into());
        set_bits(
            &mut w,
            96,
            12,
            small("BORDER_COLOR_PTR", self.border_color_ptr.into(), 12)?,
        );
        set_bits(&mut w, 126, 2, self.border_color.code().into());
        Ok(w)
    }

    /// Reads the four words of an S#; a code the seed does not define (an
    /// XY filter of 2 or 3, a Z/mip filter or filter mode of 3) is an
    /// error naming the field. Bits the seed does not name are ignored.
    pub fn from_words(w: &[u32; 4]) -> Result<Self, DescriptorError> {
        fn code<T>(
            w: &[u32],
            lo: u32,
            len: u32,
            name: &'static str,
            f: fn(u8) -> Option<T>,
        ) -> Result<T, DescriptorError> {
            let c = bits(w, lo, len) as u8;
            f(c).ok_or_else(|| err(name, format!("code {c} is not defined")))
        }
        let flag = |lo| bits(w, lo, 1) != 0;
        Ok(SamplerResource {
            clamp_x: code(w, 0, 3, "CLAMP_X", ClampMode::from_code)?,
            clamp_y: code(w, 3, 3, "CLAMP_Y", ClampMode::from_code)?,
            clamp_z: code(w, 6, 3, "CLAMP_Z", ClampMode::from_code)?,
            depth_compare: code(w, 12, 3, "DEPTH_COMPARE_FUNC", DepthCompare::from_code)?,
            force_unnormalized: flag(15),
            mc_coord_trunc: flag(19),
            force_degamma: flag(20),
            trunc_coord: flag(27),
            disable_cube_wrap: flag(28),
            filter_mode: code(w, 29, 2, "FILTER_MODE", FilterMode::from_code)?,
            min_lod: from_ufixed(bits(w, 32, 12), 8),
            max_lod: from_ufixed(bits(w, 44, 12), 8),
            perf_mip: bits(w, 56, 4) as u8,
            perf_z: bits(w, 60, 4) as u8,
            lod_bias: from_sfixed(bits(w, 64, 14), 14, 8),
            lod_bias_sec: from_sfixed(bits(w, 78, 6), 6, 4),
            xy_mag_filter: code(w, 84, 2, "XY_MAG_FILTER", XyFilter::from_code)?,
            xy_min_filter: code(w, 86, 2, "XY_MIN_FILTER", XyFilter::from_code)?,
            z_filter: code(w, 88, 2, "Z_FILTER", MipFilter::from_code)?,
            mip_filter: code(w, 90, 2, "MIP_FILTER", MipFilter::from_code)?,
            mip_point_preclamp: flag(92),
            disable_lsb_ceil: flag(93),
            filter_prec_fix: flag(94),
            border_color_ptr: bits(w, 96, 12) as u16,
            border_color: code(w, 126, 2, "BORDER_COLOR_TYPE", BorderColor::from_code)?,
        })
    }
}

impl fmt::Display for SamplerResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "S#{{clamp {}/{}/{}, depth_compare {}, force_unnormalized {}, mc_coord_trunc {}, \
             force_degamma {}, trunc_coord {}, disable_cube_wrap {}, filter_mode {}, \
             lod {}..{}, perf_mip {}, perf_z {}, lod_bias {}, lod_bias_sec {}, \
             mag {}, min {}, z {}, mip {}, mip_point_preclamp {}, disable_lsb_ceil {}, \
             filter_prec_fix {}, border {} (ptr {})}}",
            self.clamp_x,
            self.clamp_y,
            self.clamp_z,
            self.depth_compare,
            self.force_unnormalized,
            self.mc_coord_trunc,
            self.force_degamma,
            self.trunc_coord,
            self.disable_cube_wrap,
            self.filter_mode,
            self.min_lod,
            self.max_lod,
            self.perf_mip,
            self.perf_z,
            self.lod_bias,
            self.lod_bias_sec,
            self.xy_mag_filter,
            self.xy_min_filter,
            self.z_filter,
            self.mip_filter,
            self.mip_point_preclamp,
            self.disable_lsb_ceil,
            self.filter_prec_fix,
            self.border_color,
            self.border_color_ptr
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_lands_on_the_seed_bits() {
        // One field at a time, checked against the bit position the seed's
        // table gives.
        let d = SamplerResource::default();
        let w = |s: SamplerResource| s.to_words().unwrap();
        assert_eq!(w(d), [0; 4]);
        assert_eq!(w(d.clamp_x(ClampMode::MirrorOnceBorder)), [7, 0, 0, 0]);
        assert_eq!(w(d.clamp_y(ClampMode::Mirror)), [1 << 3, 0, 0, 0]);
        assert_eq!(w(d.clamp_z(ClampMode::ClampLastTexel)), [2 << 6, 0, 0, 0]);
        assert_eq!(w(d.depth_compare(DepthCompare::Always)), [7 << 12, 0, 0, 0]);
        assert_eq!(w(d.force_unnormalized(true)), [1 << 15, 0, 0, 0]);
        assert_eq!(w(d.mc_coord_trunc(true)), [1 << 19, 0, 0, 0]);
        assert_eq!(w(d.force_degamma(true)), [1 << 20, 0, 0, 0]);
        assert_eq!(w(d.trunc_coord(true)), [1 << 27, 0, 0, 0]);
        assert_eq!(w(d.disable_cube_wrap(true)), [1 << 28, 0, 0, 0]);
        assert_eq!(w(d.filter_mode(FilterMode::Max)), [2 << 29, 0, 0, 0]);
        // 1.5 in 4.8 = 0x180.
        assert_eq!(w(d.min_lod(1.5)), [0, 0x180, 0, 0]);
        assert_eq!(w(d.max_lod(15.0)), [0, 0xf00 << 12, 0, 0]);
        assert_eq!(w(d.perf_mip(9)), [0, 9 << 24, 0, 0]);
        assert_eq!(w(d.perf_z(0xf)), [0, 0xf << 28, 0, 0]);
        // -1.0 in signed 5.8 (14 bits) = 0x3f00.
        assert_eq!(w(d.lod_bias(-1.0)), [0, 0, 0x3f00, 0]);
        // 0.5 in signed 1.4 (6 bits) = 8, at bit 78 = word 2 bit 14.
        assert_eq!(w(d.lod_bias_sec(0.5)), [0, 0, 8 << 14, 0]);
        assert_eq!(w(d.xy_mag_filter(XyFilter::Bilinear)), [0, 0, 1 << 20, 0]);
        assert_eq!(w(d.xy_min_filter(XyFilter::Bilinear)), [0, 0, 1 << 22, 0]);
        assert_eq!(w(d.z_filter(MipFilter::Linear)), [0, 0, 2 << 24, 0]);
        assert_eq!(w(d.mip_filter(MipFilter::Point)), [0, 0, 1 << 26, 0]);
        assert_eq!(w(d.mip_point_preclamp(true)), [0, 0, 1 << 28, 0]);
        assert_eq!(w(d.disable_lsb_ceil(true)), [0, 0, 1 << 29, 0]);
        assert_eq!(w(d.filter_prec_fix(true)), [0, 0, 1 << 30, 0]);
        assert_eq!(w(d.border_color_ptr(0xabc)), [0, 0, 0, 0xabc]);
        assert_eq!(
            w(d.border_color(BorderColor::OpaqueWhite)),
            [0, 0, 0, 2 << 30]
        );
    }

    #[test]
    fn words_round_trip_and_bad_values_are_errors() {
        let s = SamplerResource::default()
            .clamp(ClampMode::ClampHalfBorder)
            .depth_compare(DepthCompare::GreaterEqual)
            .xy_filter(XyFilter::Bilinear)
            .mip_filter(MipFilter::Linear)
            .min_lod(0.25)
            .max_lod(7.75)
            .lod_bias(-3.5)
            .lod_bias_sec(-2.0)
            .border_color(BorderColor::OpaqueBlack)
            .perf_z(3);
        let words = s.to_words().unwrap();
        assert_eq!(SamplerResource::from_words(&words).unwrap(), s);
        let e = SamplerResource::default()
            .max_lod(16.0)
            .to_words()
            .unwrap_err();
        assert_eq!(e.field, "MAX_LOD");
        assert!(SamplerResource::default().min_lod(-0.5).to_words().is_err());
        assert!(SamplerResource::default()
            .lod_bias(32.0)
            .to_words()
            .is_err());
        assert!(SamplerResource::default().perf_mip(16).to_words().is_err());
        // XY filter code 2 is not in the seed's table.
        let e = SamplerResource::from_words(&[0, 0, 2 << 20, 0]).unwrap_err();
        assert_eq!(e.field, "XY_MAG_FILTER");
        assert!(e.to_string().contains("code 2"));
        assert!(s.to_string().contains("TEX_CLAMP_HALF_BORDER"));
    }
}
