//! Resource descriptors as the kernels read them from SGPRs: the buffer
//! resource (V#, [`buffer`]). Formats live in [`crate::format`], shared with
//! images.

pub mod buffer;

pub use buffer::{BufferResource, BufferResourceBuilder, ElementSize, IndexStride, ResourceError};
