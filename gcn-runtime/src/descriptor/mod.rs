//! Resource descriptors as the kernels read them from SGPRs: the buffer
//! resource (V#, [`buffer`]; the GCN 1.5 / RDNA 2 one: [`buffer10`]), the image resource (T#, [`image`];
//! the GCN 1.5 / RDNA 2 one: [`image10`]) and the sampler resource (S#,
//! [`sampler`], whose layout gfx10 keeps in every field the emulator reads),
//! each with a typed builder, its words and validation; [`spec`] reads T#s
//! and S#s from `KEY=VALUE` text.
//! Formats live in [`crate::format`], shared by buffers and images.

pub mod buffer;
pub mod buffer10;
pub mod fields;
pub mod image;
pub mod image10;
pub mod sampler;
pub mod spec;

pub use buffer::{BufferResource, BufferResourceBuilder, ElementSize, IndexStride, ResourceError};
pub use buffer10::{
    gfx10_format, gfx10_format_code, Gfx10BufferResource, Gfx10BufferResourceBuilder, OobSelect,
};
pub use fields::DescriptorError;
pub use image::{ImageResource, ImageType};
pub use image10::Gfx10ImageResource;
pub use sampler::{
    BorderColor, ClampMode, DepthCompare, FilterMode, MipFilter, SamplerResource, XyFilter,
};
