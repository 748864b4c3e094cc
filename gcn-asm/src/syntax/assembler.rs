//! The assembler driver: reads a source, runs pseudo-ops and hands
//! instructions to [`crate::encode`].

use std::path::PathBuf;

use crate::arch::{Device, GcnVersion};
use crate::diag::{Diagnostic, Diagnostics, SourcePos};

/// How to assemble.
#[derive(Debug, Clone)]
pub struct AssembleOptions {
    /// Name used for the main source in diagnostics (`<stdin>`, a path …).
    pub file_name: String,
    /// Target device (`-g`); wins over `version`.
    pub device: Option<Device>,
    /// Target architecture (`-A`) when no device is given.
    pub version: Option<GcnVersion>,
    /// Directories searched by `.include` and `.incbin` (`-I`).
    pub include_dirs: Vec<PathBuf>,
    /// Symbols defined before the source is read (`-D SYM=VALUE`).
    pub defines: Vec<(String, i64)>,
    /// Report warnings (`-w` turns them off).
    pub warnings: bool,
}

impl Default for AssembleOptions {
    fn default() -> Self {
        AssembleOptions {
            file_name: "<stdin>".into(),
            device: None,
            version: None,
            include_dirs: Vec::new(),
            defines: Vec::new(),
            warnings: true,
        }
    }
}

/// One output section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputSection {
    /// Section name (`.text`, `.rodata`, …).
    pub name: String,
    /// Contents.
    pub data: Vec<u8>,
}

/// The result of a successful assembly.
#[derive(Debug, Clone)]
pub struct Assembly {
    /// The device assembled for.
    pub device: Device,
    /// Its GCN version.
    pub version: GcnVersion,
    /// Sections in creation order.
    pub sections: Vec<OutputSection>,
    /// Warnings (a successful assembly has no errors).
    pub warnings: Vec<Diagnostic>,
}

impl Assembly {
    /// The section named `name`.
    pub fn section(&self, name: &str) -> Option<&OutputSection> {
        self.sections.iter().find(|s| s.name == name)
    }

    /// The bytes of `.text` (empty when there is none).
    pub fn text(&self) -> &[u8] {
        self.section(".text").map_or(&[], |s| &s.data)
    }
}

/// Assembles `source`. On failure, every diagnostic found is returned (at
/// least one error).
pub fn assemble(source: &str, options: &AssembleOptions) -> Result<Assembly, Diagnostics> {
    let _ = source;
    Err(Diagnostics(vec![Diagnostic::error(
        SourcePos::new(options.file_name.as_str(), 1, 1),
        "the assembler driver is not implemented yet",
    )]))
}
