//! Diagnostics: errors and warnings with the source position they point at.

use std::fmt;

/// A position in an assembly source: file name, 1-based line and column.
///
/// Columns count bytes from the start of the line, as clrxasm does.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SourcePos {
    /// File name as given to the assembler (`<stdin>`, an include path, …).
    pub file: std::sync::Arc<str>,
    /// 1-based line number.
    pub line: u32,
    /// 1-based column number.
    pub column: u32,
}

impl SourcePos {
    /// A position in `file` at `line`:`column`.
    pub fn new(file: impl Into<std::sync::Arc<str>>, line: u32, column: u32) -> Self {
        SourcePos {
            file: file.into(),
            line,
            column,
        }
    }
}

impl fmt::Display for SourcePos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The assembly fails.
    Error,
    /// The assembly succeeds; the user should still look.
    Warning,
}

/// One message of the assembler, with where it points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Where the offending token starts.
    pub pos: SourcePos,
    /// What is wrong (and, where useful, why), without a trailing period.
    pub message: String,
    /// Where the macro or include that produced this text was used, innermost first.
    pub context: Vec<SourcePos>,
}

impl Diagnostic {
    /// An error at `pos`.
    pub fn error(pos: SourcePos, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            pos,
            message: message.into(),
            context: Vec::new(),
        }
    }

    /// A warning at `pos`.
    pub fn warning(pos: SourcePos, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            pos,
            message: message.into(),
            context: Vec::new(),
        }
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Formats as `FILE:LINE:COL: error: MESSAGE` (the `gcnasm` contract), followed by
/// one `FILE:LINE:COL: note: in expansion from here` line per context entry.
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{}: {}: {}", self.pos, kind, self.message)?;
        for pos in &self.context {
            write!(f, "\n{pos}: note: in expansion from here")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

/// All diagnostics of a failed assembly (at least one error), in source order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// The errors only.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter().filter(|d| d.is_error())
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}
