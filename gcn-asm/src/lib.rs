//! `gcn-asm`: an assembler for AMD GCN 1.0–1.4 in the CLRadeonExtender (CLRX)
//! syntax, usable as a library, from the `gcnasm` CLI and (through
//! `gcn-macros`) at compile time.
//!
//! ```
//! use gcn_asm::{assemble, AssembleOptions, Device};
//!
//! let options = AssembleOptions { device: Some(Device::Pitcairn), ..AssembleOptions::default() };
//! let out = assemble("s_add_u32 s21, s4, s61\ns_endpgm", &options).unwrap();
//! assert_eq!(out.text(), &[0x04, 0x3d, 0x15, 0x80, 0x00, 0x00, 0x81, 0xbf]);
//! ```
//!
//! Layout: [`syntax`] reads source text (statements, expressions, pseudo-ops,
//! macros); [`isa`] is the instruction table; [`encode`] turns one
//! instruction statement into words; [`arch`] and [`diag`] are shared
//! vocabulary.

#![warn(missing_docs)]

pub mod arch;
pub mod bundle;
pub mod decode;
pub mod diag;
pub mod encode;
pub mod gallium;
pub mod isa;
pub mod kernels;
pub mod rocm;
pub mod suggest;
pub mod syntax;

pub use arch::{Device, GcnVersion};
pub use diag::{Diagnostic, Diagnostics, Severity, SourcePos};
pub use syntax::assembler::{
    assemble, line_table_text, AssembleOptions, Assembly, LineEntry, OutputSection,
};
