//! The assembler driver: reads a source, runs pseudo-ops and hands
//! instructions to [`crate::encode`].
//!
//! One pass over the source; whatever cannot be evaluated when it is read
//! (forward references) is recorded as a fix-up and patched after the pass.
//! Sources are a stack of `Frame`s (the main file, includes, macro
//! expansions, repetitions), read one logical line at a time into a reused
//! buffer so plain instruction lines do not allocate.

use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use crate::arch::{Device, GcnVersion};
use crate::diag::{Diagnostic, Diagnostics, SourcePos};
use crate::encode::context::FixupKind;
use crate::encode::context::{
    ExprValue, Fixup, OperandContext, OperandError, RegisterSymbol, SectionId, Value,
};
use crate::gallium::{GalliumBinary, GalliumError, KernelDecl, ScratchHalf, ScratchRelocation};

use super::conditionals::Cond;
use super::cursor::Cursor;
use super::expr::{
    capture_symbols, evaluate, is_scratch, resolve_symbol, scan_symbol, ExprError, ExprParser, Op,
    Slot,
};
use super::macros::{Collect, Macro, RepeatState};
use super::sections::{CurrentSection, Section};
use super::source::{next_statement, LineReader};
use super::symbols::{FxMap, SymId, SymKind, SymState, SymbolTable};

/// Most errors reported before giving up (a file of garbage would
/// otherwise produce one error per line).
const MAX_ERRORS: usize = 1000;
/// Most macro expansions open at once.
pub(crate) const MAX_MACRO_DEPTH: usize = 100;
/// Most nested `.include`s.
pub(crate) const MAX_INCLUDE_DEPTH: usize = 64;
/// Most sources (files, expansions) open at once.
pub(crate) const MAX_FRAMES: usize = 1000;
/// Most bytes of macro and repetition text open at once (64 MiB): the
/// expanded text of every open macro expansion and `.irp`/`.irpc`
/// iteration, nested ones included. Argument substitution can double a
/// text at each level of a recursive macro, so without it 100 levels would
/// ask for 2^100 bytes; an expansion that would go past it is an error
/// naming the macro (or repetition) and the limit.
pub(crate) const MAX_EXPANSION_BYTES: usize = 64 << 20;
/// Most lines produced by macros and repetitions in one assembly.
const MAX_EXPANDED_LINES: u64 = 20_000_000;
/// Most bytes the bulk pseudo-ops (`.skip`, `.fill`, alignment, `.org`,
/// `.incbin`) may add to the sections of one assembly, all together
/// (128 MiB). Everything else a source emits is bounded by its text (and
/// that by [`MAX_EXPANSION_BYTES`] and [`MAX_EXPANDED_LINES`]), so this
/// keeps an assembly's memory bounded: `.rept 40` of `.skip 0xfffffff`
/// would otherwise ask for 10 GiB.
pub(crate) const MAX_BULK_BYTES: u64 = 128 << 20;

/// The binary format the source asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryFormat {
    /// GalliumCompute (Mesa Clover) program binary.
    Gallium,
    /// Raw code: only the `.text` bytes.
    RawCode,
    /// An AMDHSA (ROCm) code object (`.rocm`, `-b rocm`).
    Rocm,
}

impl BinaryFormat {
    /// The identifier `.get_format` stores (CLRX numbering).
    pub fn clrx_id(self) -> i64 {
        match self {
            BinaryFormat::Gallium => 1,
            BinaryFormat::RawCode => 2,
            BinaryFormat::Rocm => 4,
        }
    }
}

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
    /// Binary format until the source selects one (`-b`).
    pub format: BinaryFormat,
    /// 64-bit binary until the source says otherwise (`.32bit`/`.64bit`).
    pub is_64bit: bool,
    /// LLVM version (`MAJOR*10000+MINOR*100+MICRO`, e.g. 30900) until the source sets
    /// one with `.llvm_version`; 0 when not given. clrxasm's
    /// `--llvmVersion`. 40000 and later is an error (the AMDHSA Gallium
    /// format is not supported).
    pub llvm_version: u32,
    /// Mesa version (`MAJOR*10000+MINOR*100+MICRO`, e.g. 170000) until the source sets one with
    /// `.driver_version`; 0 when not given. clrxasm's `--driverVersion`.
    pub driver_version: u32,
    /// Record, per instruction emitted in `.text`, the source position it
    /// came from ([`Assembly::line_table`]; `gcnasm --line-table`). Off by
    /// default: it costs a position per instruction.
    pub line_table: bool,
    /// Start in wave32 mode (`--wave32`; GCN 1.5 only): VCC and vector
    /// lane masks are one SGPR. `.wave32` and `.nowave32` switch it.
    pub wave32: bool,
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
            format: BinaryFormat::Gallium,
            is_64bit: false,
            llvm_version: 0,
            driver_version: 0,
            line_table: false,
            wave32: false,
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
    /// The binary format selected (options, then `.gallium`/`.rawcode`).
    pub format: BinaryFormat,
    /// True for a 64-bit binary (`.64bit`).
    pub is_64bit: bool,
    /// Texts of `.print`, in order.
    pub printed: Vec<String>,
    /// The GalliumCompute binary (kernels with their arguments and computed
    /// proginfo, code, global data) when the format is Gallium.
    pub gallium: Option<GalliumBinary>,
    /// The Gallium kernels as declared, in source order, with argument
    /// names and positions (which the binary does not keep).
    pub gallium_decls: Vec<KernelDecl>,
    /// What the code object is made of, when the format is ROCm
    /// ([`Assembly::rocm_bytes`] writes it).
    pub rocm: Option<crate::rocm::RocmInput>,
    /// The ROCm kernels as declared, in source order, with the position
    /// and text of each metadata `.arg` (parallel to the metadata's
    /// arguments, hidden ones included; empty for a raw `.metadata` note).
    pub rocm_decls: Vec<KernelDecl>,
    /// Files read by `.include` and `.incbin`, in order (for build systems
    /// that rebuild when one changes).
    pub files_read: Vec<PathBuf>,
    /// With [`AssembleOptions::line_table`]: the source position of each
    /// instruction of `.text`, in code order (empty otherwise).
    pub line_table: Vec<LineEntry>,
    /// The named labels of `.text` (`name:`, not the numbered local
    /// labels), by offset: one name per offset, the first defined there.
    /// Tools that show code print these instead of `.L<offset>`.
    pub text_labels: Vec<(u32, String)>,
}

/// One row of a line table: the instruction at byte `offset` of `.text`
/// was assembled from the statement at `pos` (for a macro expansion, the
/// line of the macro body).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineEntry {
    /// Byte offset of the instruction in `.text`.
    pub offset: u32,
    /// Where its statement starts.
    pub pos: SourcePos,
}

/// The text form of a line table (`gcnasm --line-table FILE`): one line per
/// instruction, `OFFSET FILE:LINE:COL` with the offset in hex (`0x1c`).
pub fn line_table_text(entries: &[LineEntry]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for e in entries {
        let _ = writeln!(out, "{:#x} {}", e.offset, e.pos);
    }
    out
}

impl Assembly {
    /// The GalliumCompute binary file (`gcnasm -b gallium`).
    pub fn gallium_bytes(&self) -> Result<Vec<u8>, GalliumError> {
        match &self.gallium {
            Some(binary) => crate::gallium::write(binary),
            None => Err(GalliumError::new(
                "the source was not assembled for the Gallium format",
            )),
        }
    }

    /// The ROCm code object file (`gcnasm -b rocm`).
    pub fn rocm_bytes(&self) -> Result<Vec<u8>, crate::rocm::RocmError> {
        match &self.rocm {
            Some(input) => crate::rocm::write(input),
            None => Err(crate::rocm::RocmError::new(
                "",
                "the source was not assembled for the ROCm format",
            )),
        }
    }

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
    assemble_sources(&[(options.file_name.as_str(), source)], options)
}

/// Assembles several sources as one, read one after the other, as clrxasm
/// does with several input files: `(file name, text)` pairs, the names
/// used in diagnostics and for `.include`s relative to each file
/// (`options.file_name` is not used). A block (`.if`, `.macro`, `.rept`)
/// may start in one source and end in a later one, as with concatenated
/// text; positions stay those of each file.
///
/// ```
/// use gcn_asm::syntax::assembler::{assemble_sources, AssembleOptions};
///
/// let sources = [("defs.s", ".set N, 3\n"), ("main.s", "s_mov_b32 s0, N\n")];
/// let out = assemble_sources(&sources, &AssembleOptions::default()).unwrap();
/// assert_eq!(out.text(), &[0x83, 0x03, 0x80, 0xbe]);
/// ```
pub fn assemble_sources(
    sources: &[(&str, &str)],
    options: &AssembleOptions,
) -> Result<Assembly, Diagnostics> {
    let mut asm = Assembler::new(options);
    let total: usize = sources.iter().map(|(_, text)| text.len()).sum();
    // Code is roughly a quarter of the source size at most (a 30-40 byte
    // line makes 4-8 bytes): reserving it avoids regrowing `.text`.
    asm.sections[0].data.reserve(total / 4);
    if options.llvm_version >= crate::gallium::config::LLVM_4_0 {
        let file = sources.first().map_or(options.file_name.as_str(), |s| s.0);
        asm.diag_at(
            SourcePos::new(file, 1, 1),
            format!(
                "LLVM version {} given in the options: LLVM 4.0 and later use the AMDHSA \
                 Gallium format, which is not supported (use a version below 40000)",
                options.llvm_version
            ),
            true,
        );
        return asm.finish();
    }
    // Later sources wait, last first, until the main one ends.
    asm.pending_sources = sources
        .iter()
        .skip(1)
        .rev()
        .map(|&(name, text)| (Arc::from(name), Rc::from(text)))
        .collect();
    let (name, text) = sources
        .first()
        .copied()
        .unwrap_or((options.file_name.as_str(), ""));
    asm.run_source(name, Rc::from(text));
    asm.finish()
}

/// The directory `.include` searches first for a source named `file`
/// (none for `<stdin>` and other pseudo-names).
fn source_dir(file: &str) -> Option<PathBuf> {
    if file.starts_with('<') {
        None
    } else {
        std::path::Path::new(file).parent().map(|p| p.to_path_buf())
    }
}

/// What kind of source a frame reads.
#[derive(Debug)]
pub(crate) enum FrameKind {
    /// A file (the main source or an include).
    File,
    /// A macro expansion.
    Macro,
    /// One iteration after another of `.rept`/`.irp`/`.for`/….
    Repeat(Box<RepeatState>),
    /// The rest of a line whose earlier statement opened a new source.
    Remainder,
}

/// One open source.
#[derive(Debug)]
pub(crate) struct Frame {
    pub text: Rc<str>,
    pub pos: usize,
    /// 0-based physical line index in `text`.
    pub line: u32,
    pub file: Arc<str>,
    /// For expansions: source line number of each line of `text`.
    pub line_map: Option<Rc<[u32]>>,
    /// Column offset of the first line (for remainders).
    pub col_offset: u32,
    /// Directory of the file (for `.include`).
    pub dir: Option<PathBuf>,
    /// Where the macro/include/repetition was invoked.
    pub invoked_at: Option<SourcePos>,
    /// Depth of the conditional stack when the frame was opened.
    pub cond_depth: usize,
    pub kind: FrameKind,
    /// Bytes of expanded text (macro expansions, `.irp`/`.irpc`
    /// iterations) of this frame and every frame below it: what
    /// [`MAX_EXPANSION_BYTES`] bounds.
    pub expanded: usize,
}

/// An instruction field to patch after the pass.
#[derive(Debug)]
pub(crate) struct InstrFixup {
    pub section: usize,
    pub offset: usize,
    pub words: usize,
    pub fixup: Fixup,
    pub pos: SourcePos,
}

/// A data value to patch after the pass.
#[derive(Debug)]
pub(crate) struct DataFixup {
    pub section: usize,
    pub offset: usize,
    pub size: usize,
    pub expr: Rc<[Op]>,
    pub pos: SourcePos,
}

/// Writes `value` into the words of the instruction of `f` in `data`; a
/// warning or an error message (see [`crate::encode::apply_fixup`]).
pub(crate) fn patch_instruction(
    data: &mut [u8],
    f: &InstrFixup,
    value: Value,
) -> Result<Option<String>, String> {
    let end = (f.offset + f.words * 4).min(data.len());
    let mut words: Vec<u32> = data[f.offset.min(end)..end]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let addr = (SectionId(f.section as u32), f.offset as u64);
    let warning = crate::encode::apply_fixup(f.fixup.kind, value, addr, &mut words)?;
    for (i, w) in words.iter().enumerate() {
        let o = f.offset + i * 4;
        data[o..o + 4].copy_from_slice(&w.to_le_bytes());
    }
    Ok(warning)
}

/// Writes `value` into the bytes of `f` in `data`; a range warning.
pub(crate) fn patch_data(data: &mut [u8], f: &DataFixup, value: Value) -> Option<String> {
    let warning = super::pseudo_ops::range_warning(value.value, f.size);
    let ext = if value.value < 0 { 0xff } else { 0 };
    let bytes = value
        .value
        .to_le_bytes()
        .into_iter()
        .chain(std::iter::repeat(ext));
    let end = (f.offset + f.size).min(data.len());
    if let Some(dest) = data.get_mut(f.offset..end) {
        for (d, b) in dest.iter_mut().zip(bytes) {
            *d = b;
        }
    }
    warning
}

/// The state of one assembly.
pub(crate) struct Assembler<'o> {
    pub opts: &'o AssembleOptions,
    pub device: Device,
    pub version: GcnVersion,
    pub format: BinaryFormat,
    pub is_64bit: bool,
    pub policy: i64,
    pub syms: SymbolTable,
    pub sections: Vec<Section>,
    /// Index in `sections` of each section name.
    pub section_index: FxMap<String, usize>,
    pub cur: CurrentSection,
    pub abs_counter: i64,
    pub frames: Vec<Frame>,
    pub reader: LineReader,
    line_file: Arc<str>,
    line_map: Option<Rc<[u32]>>,
    line_col_offset: u32,
    line_frame: usize,
    pub diags: Vec<Diagnostic>,
    pub errors: usize,
    pub rpn: Vec<Op>,
    pub stack: Vec<Slot>,
    pub deferred: Vec<Rc<[Op]>>,
    /// Deferred expressions (indices in `deferred`) that are references to
    /// the scratch symbol.
    scratch_deferred: Vec<u32>,
    /// The argument-offset symbols `KERNEL::NAME` of the Gallium `.arg`s
    /// (so that a scalar load taking one in the wrong unit is warned of).
    pub(crate) arg_symbols: rustc_hash::FxHashSet<SymId>,
    instr_fixups: Vec<InstrFixup>,
    data_fixups: Vec<DataFixup>,
    pub conds: Vec<Cond>,
    pub collect: Option<Collect>,
    pub macros: FxMap<Box<str>, Rc<Macro>>,
    pub macro_case: bool,
    pub alt_macro: bool,
    /// `.oldmodparam`: modifier parameters take bit 0 of their value.
    pub old_mod_param: bool,
    /// Wave32 mode (`.wave32`, `--wave32`), meaningful on GCN 1.5.
    pub wave32: bool,
    pub macro_counter: u64,
    pub stop: bool,
    pub expanded_lines: u64,
    /// Bytes the bulk pseudo-ops added so far ([`MAX_BULK_BYTES`]).
    pub bulk_bytes: u64,
    pub printed: Vec<String>,
    /// Files read by `.include`/`.incbin`.
    pub files_read: Vec<PathBuf>,
    /// Rows of [`Assembly::line_table`] (only with the option).
    line_table: Vec<LineEntry>,
    /// Main sources still to read after the current one (the last first).
    pending_sources: Vec<(Arc<str>, Rc<str>)>,
    /// Kernels, their descriptions and register usage (Gallium format).
    pub(crate) gallium: super::gallium::GalliumState,
    /// Kernels, their configuration and register usage (ROCm format).
    pub(crate) rocm: super::rocm::RocmState,
}

/// Skips spaces and tabs from `p`.
pub(crate) fn skip_spaces(bytes: &[u8], mut p: usize) -> usize {
    while p < bytes.len() && matches!(bytes[p], b' ' | b'\t' | b'\r') {
        p += 1;
    }
    p
}

impl<'o> Assembler<'o> {
    /// Accounts for `count` bytes a bulk pseudo-op (`what`) is about to add
    /// at `at`; false (with an error) when the assembly's bulk output would
    /// pass [`MAX_BULK_BYTES`].
    pub(crate) fn bulk_room(&mut self, at: usize, count: u64, what: &str) -> bool {
        let total = self.bulk_bytes.saturating_add(count);
        if total > MAX_BULK_BYTES {
            self.error(
                at,
                format!(
                    "{what} would make the output larger than {} MiB \
                     (the bytes of .skip, .fill, alignment, .org and .incbin together)",
                    MAX_BULK_BYTES >> 20
                ),
            );
            return false;
        }
        self.bulk_bytes = total;
        true
    }

    pub fn new(opts: &'o AssembleOptions) -> Self {
        let device = opts
            .device
            .or(opts.version.map(GcnVersion::default_device))
            .unwrap_or(Device::CapeVerde);
        let mut asm = Assembler {
            opts,
            device,
            version: device.version(),
            format: opts.format,
            is_64bit: opts.is_64bit,
            policy: super::pseudo_ops::CLRX_VERSION,
            syms: SymbolTable::new(),
            sections: vec![Section::new(".text", true)],
            section_index: std::iter::once((".text".to_string(), 0)).collect(),
            cur: CurrentSection::Section(0),
            abs_counter: 0,
            frames: Vec::new(),
            reader: LineReader::default(),
            line_file: opts.file_name.as_str().into(),
            line_map: None,
            line_col_offset: 0,
            line_frame: 0,
            diags: Vec::new(),
            errors: 0,
            rpn: Vec::new(),
            stack: Vec::new(),
            deferred: Vec::new(),
            scratch_deferred: Vec::new(),
            arg_symbols: Default::default(),
            instr_fixups: Vec::new(),
            data_fixups: Vec::new(),
            conds: Vec::new(),
            collect: None,
            macros: FxMap::default(),
            macro_case: true,
            alt_macro: false,
            old_mod_param: false,
            wave32: opts.wave32,
            macro_counter: 0,
            stop: false,
            expanded_lines: 0,
            bulk_bytes: 0,
            printed: Vec::new(),
            files_read: Vec::new(),
            line_table: Vec::new(),
            pending_sources: Vec::new(),
            gallium: Default::default(),
            rocm: Default::default(),
        };
        asm.gallium
            .set_versions(opts.llvm_version, opts.driver_version);
        for (name, value) in &opts.defines {
            let id = asm.syms.definition_target(name);
            asm.syms.get_mut(id).state = SymState::Known(Value::absolute(*value));
        }
        asm
    }

    #[cfg(test)]
    pub(crate) fn run_main(&mut self, source: &str) {
        self.run_source(&self.opts.file_name.clone(), Rc::from(source));
    }

    /// Reads the main source `source`, named `file` (then any pending
    /// ones).
    fn run_source(&mut self, file: &str, source: Rc<str>) {
        let file: Arc<str> = file.into();
        let dir = source_dir(&file);
        self.line_file = file.clone();
        self.frames.push(Frame {
            text: source,
            pos: 0,
            line: 0,
            file,
            line_map: None,
            col_offset: 0,
            dir,
            invoked_at: None,
            cond_depth: 0,
            kind: FrameKind::File,
            expanded: 0,
        });
        self.run();
    }

    /// Reads and processes lines until every source is exhausted.
    fn run(&mut self) {
        while !self.stop {
            let Some(top) = self.frames.last_mut() else {
                break;
            };
            if !self.reader.read(&top.text, &mut top.pos, &mut top.line) {
                self.end_frame();
                continue;
            }
            if !matches!(top.kind, FrameKind::File) {
                self.expanded_lines += 1;
                if self.expanded_lines > MAX_EXPANDED_LINES {
                    self.error(0, "too many lines generated by macros and repetitions");
                    self.stop = true;
                    break;
                }
            }
            if !Arc::ptr_eq(&self.line_file, &top.file) {
                self.line_file = top.file.clone();
            }
            match (&self.line_map, &top.line_map) {
                (Some(a), Some(b)) if Rc::ptr_eq(a, b) => {}
                (None, None) => {}
                _ => self.line_map = top.line_map.clone(),
            }
            self.line_col_offset = top.col_offset;
            self.line_frame = self.frames.len() - 1;
            let buf = std::mem::take(&mut self.reader.buf);
            self.process_line(&buf);
            self.reader.buf = buf;
        }
    }

    /// Handles the end of the top frame: next iteration of a repetition, or
    /// closing the source (with checks for unterminated blocks).
    fn end_frame(&mut self) {
        let level = self.frames.len();
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        if level == 1 && matches!(frame.kind, FrameKind::File) {
            // The next main source continues the text: open blocks carry
            // over, as in clrxasm's concatenation of its input files.
            if let Some((file, text)) = self.pending_sources.pop() {
                frame.dir = source_dir(&file);
                frame.file = file;
                frame.text = text;
                frame.pos = 0;
                frame.line = 0;
                return;
            }
        }
        if matches!(frame.kind, FrameKind::Remainder) {
            self.frames.pop();
            if let Some(c) = &mut self.collect {
                if c.frame_level >= level {
                    c.frame_level = level - 1;
                }
            }
            return;
        }
        let cond_depth = frame.cond_depth;
        self.close_unterminated(cond_depth, level);
        if let Some(frame) = self.frames.last_mut() {
            if let FrameKind::Repeat(state) = &mut frame.kind {
                let mut state = std::mem::replace(state, Box::new(RepeatState::Done));
                let below = self.expanded_below(self.frames.len() - 1);
                let again = self.next_iteration(&mut state, below);
                if let Some(frame) = self.frames.last_mut() {
                    if again {
                        frame.pos = 0;
                        frame.line = 0;
                        if let RepeatState::Irp { current, .. } = &*state {
                            frame.text = current.clone();
                            frame.expanded = below + current.len();
                        }
                        frame.kind = FrameKind::Repeat(state);
                        return;
                    }
                }
            }
        }
        self.frames.pop();
    }

    /// Reports `.if`s and `.macro`/`.rept` bodies left open by a source
    /// that ends.
    fn close_unterminated(&mut self, cond_depth: usize, level: usize) {
        while self.conds.len() > cond_depth {
            if let Some(c) = self.conds.pop() {
                self.diag_at(c.at, "missing .endif".into(), true);
            }
        }
        if self
            .collect
            .as_ref()
            .is_some_and(|c| c.frame_level >= level)
        {
            if let Some(c) = self.collect.take() {
                let what = if c.is_macro() { ".endm" } else { ".endr" };
                self.diag_at(c.start, format!("missing {what}"), true);
            }
        }
    }

    fn process_line(&mut self, line: &str) {
        // A line without `;`, quotes or backslashes is one statement: no
        // second scan for separators.
        if !self.reader.separators {
            if !self.stop {
                self.statement(line, 0, line.len());
            }
            return;
        }
        let mut pos = 0;
        while let Some((s, e)) = next_statement(line, &mut pos) {
            if self.stop {
                return;
            }
            let frames_before = self.frames.len();
            self.statement(line, s, e);
            if self.frames.len() > frames_before && pos < line.len() {
                self.defer_remainder(line, pos, frames_before);
                return;
            }
        }
    }

    /// Queues the rest of the current line to run after the source a
    /// statement just opened.
    fn defer_remainder(&mut self, line: &str, pos: usize, index: usize) {
        let (li, col) = self.reader.position(pos);
        let line_no = self.source_line(li);
        let frame = Frame {
            text: Rc::from(&line[pos..]),
            pos: 0,
            line: 0,
            file: self.line_file.clone(),
            line_map: Some(Rc::from(vec![line_no])),
            col_offset: col.saturating_sub(1),
            dir: None,
            invoked_at: None,
            cond_depth: self.conds.len(),
            kind: FrameKind::Remainder,
            expanded: self.expanded_below(index),
        };
        self.frames.insert(index.min(self.frames.len()), frame);
    }

    /// Bytes of expanded text open in the frames below `index` (see
    /// [`Frame::expanded`]).
    pub(crate) fn expanded_below(&self, index: usize) -> usize {
        index
            .checked_sub(1)
            .and_then(|i| self.frames.get(i))
            .map_or(0, |f| f.expanded)
    }

    fn source_line(&self, index: u32) -> u32 {
        match &self.line_map {
            Some(map) => map.get(index as usize).or(map.last()).copied().unwrap_or(1),
            None => index + 1,
        }
    }

    /// The source position of byte `offset` of the current logical line.
    pub fn pos_at(&self, offset: usize) -> SourcePos {
        let (li, col) = self.reader.position(offset);
        let col = if li == self.reader.segments.first().map_or(0, |s| s.line) {
            col + self.line_col_offset
        } else {
            col
        };
        SourcePos {
            file: self.line_file.clone(),
            line: self.source_line(li),
            column: col,
        }
    }

    fn context(&self) -> Vec<SourcePos> {
        let top = self.line_frame.min(self.frames.len().saturating_sub(1));
        self.frames
            .get(..=top)
            .unwrap_or(&[])
            .iter()
            .rev()
            .filter_map(|f| f.invoked_at.clone())
            .collect()
    }

    /// Records a diagnostic at an explicit position.
    pub fn diag_at(&mut self, pos: SourcePos, message: String, is_error: bool) {
        if is_error {
            self.errors += 1;
            if self.errors > MAX_ERRORS {
                self.stop = true;
                return;
            }
        } else if !self.opts.warnings {
            return;
        }
        let mut d = if is_error {
            Diagnostic::error(pos, message)
        } else {
            Diagnostic::warning(pos, message)
        };
        d.context = self.context();
        self.diags.push(d);
    }

    /// An error at byte `at` of the current line.
    pub fn error(&mut self, at: usize, message: impl Into<String>) {
        let pos = self.pos_at(at);
        self.diag_at(pos, message.into(), true);
    }

    /// A warning at byte `at` of the current line.
    pub fn warning(&mut self, at: usize, message: impl Into<String>) {
        if self.opts.warnings {
            let pos = self.pos_at(at);
            self.diag_at(pos, message.into(), false);
        }
    }

    /// The value of `.`.
    pub fn dot(&self) -> Value {
        match self.cur {
            CurrentSection::Section(i) => Value {
                value: self.sections[i].data.len() as i64,
                section: Some(SectionId(i as u32)),
            },
            CurrentSection::Absolute => Value::absolute(self.abs_counter),
        }
    }

    /// Parses an expression at `*pos` of `text` and evaluates it.
    /// `Ok(None)`: it depends on undefined symbols (the operations are left
    /// in `self.rpn` for [`Self::store_deferred`]).
    pub fn parse_expression(
        &mut self,
        text: &str,
        pos: &mut usize,
        fold: bool,
    ) -> Result<Option<Value>, ExprError> {
        self.rpn.clear();
        let start = skip_spaces(text.as_bytes(), *pos);
        let dot = self.dot();
        let mut parser = ExprParser::new(text, start, &mut self.syms, &mut self.rpn, dot, fold);
        parser.parse()?;
        *pos = parser.pos;
        if !fold {
            return Ok(None);
        }
        if let [Op::Const(v)] = self.rpn[..] {
            return Ok(Some(v));
        }
        evaluate(&self.rpn, &mut self.syms, &mut self.stack).map_err(|mut e| {
            if e.at == 0 {
                e.at = start;
            }
            e
        })
    }

    /// Whether an evaluation error is a section difference (or another use
    /// of addresses) that a ROCm code object resolves after its layout.
    pub fn waits_for_layout(&self, e: &ExprError) -> bool {
        self.format == BinaryFormat::Rocm && super::expr::needs_layout(&e.message)
    }

    /// Keeps the last parsed expression for later evaluation.
    pub fn store_deferred(&mut self) -> u32 {
        capture_symbols(&self.rpn, &mut self.syms);
        self.deferred.push(Rc::from(&self.rpn[..]));
        (self.deferred.len() - 1) as u32
    }

    /// Name of a symbol that keeps `ops` from being evaluated.
    pub fn undefined_in(&mut self, ops: &[Op], depth: u32) -> Option<String> {
        for op in ops {
            if let Op::Sym(id) = *op {
                if let Ok(None) = resolve_symbol(&mut self.syms, id, 0) {
                    if let SymState::Pending(inner) = &self.syms.get(id).state {
                        let inner = inner.clone();
                        if depth < 50 {
                            if let Some(n) = self.undefined_in(&inner, depth + 1) {
                                return Some(n);
                            }
                        }
                    }
                    return Some(self.syms.get(id).name.to_string());
                }
            }
        }
        None
    }

    /// Parses an expression that must be absolute and known now; reports
    /// errors and returns `None` on failure.
    pub fn abs_expr(&mut self, text: &str, pos: &mut usize) -> Option<i64> {
        let start = skip_spaces(text.as_bytes(), *pos);
        match self.parse_expression(text, pos, true) {
            Ok(Some(v)) if v.section.is_none() => Some(v.value),
            Ok(Some(v)) if is_scratch(v) => {
                self.error(start, super::expr::SCRATCH_USE);
                None
            }
            Ok(Some(_)) => {
                self.error(start, "expression must be absolute");
                None
            }
            Ok(None) => {
                let ops = std::mem::take(&mut self.rpn);
                let name = self.undefined_in(&ops, 0).unwrap_or_default();
                self.rpn = ops;
                self.error(
                    start,
                    format!("expression must be defined here (symbol '{name}' is undefined)"),
                );
                None
            }
            Err(e) => {
                self.error(e.at, e.message);
                None
            }
        }
    }

    /// Current section index for writing; reports an error in the absolute
    /// section.
    pub fn writable_section(&mut self, at: usize) -> Option<usize> {
        match self.cur {
            CurrentSection::Section(i) => Some(i),
            CurrentSection::Absolute => {
                self.error(at, "data cannot be stored in the absolute section");
                None
            }
        }
    }

    /// Records a data fix-up for `size` bytes at the current position (the
    /// bytes must already be reserved).
    pub fn data_fixup(&mut self, section: usize, offset: usize, size: usize, at: usize) {
        capture_symbols(&self.rpn, &mut self.syms);
        let pos = self.pos_at(at);
        self.data_fixups.push(DataFixup {
            section,
            offset,
            size,
            expr: Rc::from(&self.rpn[..]),
            pos,
        });
    }

    /// One statement: labels, then an assignment, pseudo-op, macro call or
    /// instruction.
    fn statement(&mut self, line: &str, s: usize, e: usize) {
        let text = &line[..e];
        let bytes = text.as_bytes();
        if self.collect.is_some() {
            self.collect_statement(line, s, e);
            return;
        }
        let active = self.conds_active();
        let mut p = skip_spaces(bytes, s);
        // The name scanned while looking for a label, when it is not one.
        let mut scanned = None;
        // Labels, several per statement.
        loop {
            if p >= e {
                return;
            }
            if bytes[p].is_ascii_digit() {
                let mut q = p;
                while q < e && bytes[q].is_ascii_digit() {
                    q += 1;
                }
                let r = skip_spaces(bytes, q);
                if bytes.get(r) == Some(&b':') && bytes.get(r + 1) != Some(&b':') {
                    if active {
                        self.define_local_label(&text[p..q], p);
                    }
                    p = skip_spaces(bytes, r + 1);
                    continue;
                }
                break;
            }
            if let Some(end) = scan_symbol(bytes, p) {
                let r = skip_spaces(bytes, end);
                if bytes.get(r) == Some(&b':')
                    && bytes.get(r + 1) != Some(&b':')
                    && &text[p..end] != "."
                {
                    if active {
                        self.define_label(&text[p..end], p);
                    }
                    p = skip_spaces(bytes, r + 1);
                    continue;
                }
                scanned = Some(end);
            }
            break;
        }
        let name_start = p;
        let Some(name_end) = scanned.or_else(|| scan_symbol(bytes, p)) else {
            if active {
                self.error(p, "expected a statement");
            }
            return;
        };
        let name = &text[name_start..name_end];
        if !active {
            if name.starts_with('.') {
                self.inactive_pseudo_op(text, name_start, name_end);
            }
            return;
        }
        let r = skip_spaces(bytes, name_end);
        if bytes.get(r) == Some(&b'=') && bytes.get(r + 1) != Some(&b'=') {
            if name == "." {
                let mut q = r + 1;
                self.set_location(text, &mut q, None);
                self.expect_end(text, q);
            } else {
                self.assign(text, name, name_start, r + 1, SymKind::Plain);
            }
            return;
        }
        if name.starts_with('.') && name.len() > 1 {
            if !self.pseudo_op(text, name_start, name_end)
                && !self.try_macro(text, name_start, name_end)
            {
                self.error(name_start, format!("unknown pseudo-op {name}"));
            }
            return;
        }
        if !self.macros.is_empty() && self.try_macro(text, name_start, name_end) {
            return;
        }
        self.instruction(text, name_start, name_end);
    }

    fn define_label(&mut self, name: &str, at: usize) {
        let value = self.dot();
        let id = self.syms.definition_target(name);
        if self.syms.get(id).is_defined() {
            self.error(at, format!("symbol '{name}' is already defined"));
            return;
        }
        let pos = self.pos_at(at);
        let sym = self.syms.get_mut(id);
        sym.state = SymState::Known(value);
        sym.kind = SymKind::Label;
        sym.defined_at = Some(pos);
        if self.format == BinaryFormat::Gallium && self.in_code_section() {
            self.gallium.label(name);
        }
        if self.format == BinaryFormat::Rocm && self.in_code_section() {
            self.rocm.label(name);
            self.rocm_kernel_label(name);
        }
    }

    fn define_local_label(&mut self, digits: &str, at: usize) {
        let Ok(n) = digits.parse::<u64>() else {
            self.error(at, "local label number out of range");
            return;
        };
        let value = self.dot();
        let id = self.syms.define_local(n);
        let sym = self.syms.get_mut(id);
        sym.state = SymState::Known(value);
        sym.kind = SymKind::Label;
    }

    /// `name = expr` and `.set`/`.equ`/`.equiv`/`.eqv`: `p` is at the value.
    pub fn assign(&mut self, text: &str, name: &str, name_at: usize, p: usize, kind: SymKind) {
        let bytes = text.as_bytes();
        let mut q = skip_spaces(bytes, p);
        let state = if bytes.get(q) == Some(&b'%') {
            q += 1;
            match self.register_value(text, &mut q) {
                Some(r) => SymState::Register(r),
                None => return,
            }
        } else if kind == SymKind::Eqv {
            match self.parse_expression(text, &mut q, false) {
                Ok(_) => SymState::Eqv(Rc::from(&self.rpn[..])),
                Err(e) => return self.error(e.at, e.message),
            }
        } else {
            match self.parse_expression(text, &mut q, true) {
                Ok(Some(v)) => SymState::Known(v),
                Ok(None) => {
                    capture_symbols(&self.rpn, &mut self.syms);
                    SymState::Pending(Rc::from(&self.rpn[..]))
                }
                Err(e) => return self.error(e.at, e.message),
            }
        };
        if !self.expect_end(text, q) {
            return;
        }
        self.define_symbol(name, name_at, state, kind);
    }

    /// Gives `name` a value, honouring the redefinition rules.
    pub fn define_symbol(&mut self, name: &str, at: usize, state: SymState, kind: SymKind) {
        let mut id = self.syms.definition_target(name);
        let sym = self.syms.get(id);
        if sym.is_defined() {
            if sym.kind != SymKind::Plain || kind != SymKind::Plain {
                self.error(at, format!("symbol '{name}' is already defined"));
                return;
            }
            if sym.captured {
                id = self.syms.fresh_definition_target(name);
            }
        }
        let pos = self.pos_at(at);
        let sym = self.syms.get_mut(id);
        sym.state = state;
        sym.kind = kind;
        sym.defined_at = Some(pos);
    }

    /// Parses a register or constant after `%` through the encoder.
    fn register_value(&mut self, text: &str, q: &mut usize) -> Option<RegisterSymbol> {
        let mut ctx = InstrCtx::new(self, 0);
        let mut cur = Cursor::at(text, *q);
        let result = crate::encode::parse_register_symbol(&mut ctx, &mut cur);
        match result {
            Ok(r) => {
                *q = cur.pos();
                Some(r)
            }
            Err(e) => {
                self.error(e.at, e.message);
                None
            }
        }
    }

    /// Reports anything but spaces from `p` to the end of the statement.
    pub fn expect_end(&mut self, text: &str, p: usize) -> bool {
        let p = skip_spaces(text.as_bytes(), p);
        if p < text.len() {
            self.error(p, "unexpected text at the end of the statement");
            false
        } else {
            true
        }
    }

    /// Hands an instruction statement to the encoder.
    fn instruction(&mut self, text: &str, start: usize, mnemonic_end: usize) {
        let Some(section) = self.writable_section(start) else {
            return;
        };
        let end = text.trim_end().len().max(mnemonic_end);
        let statement = &text[start..end];
        let offset = self.sections[section].data.len();
        let fixups_before = self.instr_fixups.len();
        let count_registers =
            section == 0 && matches!(self.format, BinaryFormat::Gallium | BinaryFormat::Rocm);
        let mut ctx = InstrCtx::new(self, start);
        ctx.section = section;
        ctx.offset = offset;
        let result = crate::encode::assemble_instruction(&mut ctx, statement, mnemonic_end - start);
        match result {
            Ok(()) => {
                let len = self.sections[section].data.len();
                if len & 3 != 0 {
                    // The encoder only emits words; keep the section sane.
                    self.sections[section].data.truncate(offset);
                }
                let words = (self.sections[section].data.len() - offset) / 4;
                for f in &mut self.instr_fixups[fixups_before..] {
                    f.words = words;
                }
                if count_registers && words > 0 {
                    self.count_registers(offset);
                }
                if section == 0 && words > 0 && self.opts.line_table {
                    let pos = self.pos_at(start);
                    self.line_table.push(LineEntry {
                        offset: offset as u32,
                        pos,
                    });
                }
            }
            Err(e) => {
                self.sections[section].data.truncate(offset);
                self.instr_fixups.truncate(fixups_before);
                self.error(start + e.at.min(statement.len()), e.message);
            }
        }
    }

    /// Charges the registers of the instruction just encoded at `offset` in
    /// `.text` to its kernel, as clrxasm counts them: decoded, so that the
    /// instruction table's operand roles say what it writes
    /// ([`crate::gallium::config::RegisterUsage::record_access`]).
    fn count_registers(&mut self, offset: usize) {
        // An instruction is at most two words (a literal) before GCN 1.5.
        let mut words = [0u32; 3];
        let bytes = &self.sections[0].data[offset..];
        let n = (bytes.len() / 4).min(3);
        for (w, b) in words.iter_mut().zip(bytes.chunks_exact(4)) {
            *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        let Ok(instruction) = crate::decode::decode(&words[..n], offset as u64, self.version)
        else {
            return;
        };
        let mut usage = crate::gallium::config::RegisterUsage::default();
        usage.record_instruction(&instruction);
        if self.format == BinaryFormat::Rocm {
            self.rocm.charge(&usage);
        } else {
            self.gallium.charge(&usage);
        }
    }

    /// Resolves the fix-ups and builds the result.
    fn finish(mut self) -> Result<Assembly, Diagnostics> {
        if !self.stop || self.collect.is_some() || !self.conds.is_empty() {
            if let Some(c) = self.collect.take() {
                let what = if c.is_macro() { ".endm" } else { ".endr" };
                self.diag_at(c.start, format!("missing {what}"), true);
            }
            while let Some(c) = self.conds.pop() {
                self.diag_at(c.at, "missing .endif".into(), true);
            }
        }
        self.frames.clear();
        self.line_frame = 0;
        let fixups = std::mem::take(&mut self.instr_fixups);
        // ROCm: what waits for the layout (section differences, addresses).
        let mut late_instr = Vec::new();
        let mut late_data = Vec::new();
        for f in fixups {
            let ops = self
                .deferred
                .get(f.fixup.expr.0 as usize)
                .cloned()
                .unwrap_or_else(|| Rc::from(vec![]));
            if self.layout_pending(&ops) {
                late_instr.push((f, ops));
                continue;
            }
            let Some(value) = self.final_value(&ops, &f.pos) else {
                continue;
            };
            if is_scratch(value) {
                self.scratch_relocation(&f, value);
                continue;
            }
            match patch_instruction(&mut self.sections[f.section].data, &f, value) {
                Ok(Some(message)) => self.diag_at(f.pos, message, false),
                Ok(None) => {}
                Err(message) => self.diag_at(f.pos, message, true),
            }
        }
        let fixups = std::mem::take(&mut self.data_fixups);
        for f in fixups {
            if self.layout_pending(&f.expr) {
                late_data.push(f);
                continue;
            }
            let Some(value) = self.final_value(&f.expr, &f.pos) else {
                continue;
            };
            if is_scratch(value) {
                self.diag_at(f.pos, super::expr::SCRATCH_USE.to_string(), true);
                continue;
            }
            if value.section.is_some() && self.format == BinaryFormat::Rocm {
                late_data.push(f);
                continue;
            }
            if let Some(msg) = patch_data(&mut self.sections[f.section].data, &f, value) {
                self.diag_at(f.pos.clone(), msg, false);
            }
        }
        let gallium = self.gallium_finish();
        let gallium_decls = self.gallium_decls();
        let text_labels = self.text_labels();
        let rocm = self.rocm_finish();
        let rocm_decls = self.rocm_decls();
        let rocm = rocm.and_then(|input| self.rocm_resolve(input, late_instr, late_data));
        let has_errors = self.diags.iter().any(|d| d.is_error()) || self.errors > 0;
        if has_errors {
            return Err(Diagnostics(self.diags));
        }
        Ok(Assembly {
            device: self.device,
            version: self.version,
            sections: self
                .sections
                .into_iter()
                .map(|s| OutputSection {
                    name: s.name,
                    data: s.data,
                })
                .collect(),
            warnings: self.diags,
            format: self.format,
            is_64bit: self.is_64bit,
            printed: self.printed,
            gallium,
            gallium_decls,
            rocm,
            rocm_decls,
            files_read: self.files_read,
            line_table: self.line_table,
            text_labels,
        })
    }

    /// [`Assembly::text_labels`]: the labels whose value is an offset in
    /// `.text`, in definition order first, then sorted by offset.
    fn text_labels(&self) -> Vec<(u32, String)> {
        let Some(&text) = self.section_index.get(".text") else {
            return Vec::new();
        };
        let mut labels: Vec<(u32, String)> = Vec::new();
        for sym in &self.syms.syms {
            if sym.kind != SymKind::Label || sym.name.starts_with(|c: char| c.is_ascii_digit()) {
                continue;
            }
            let SymState::Known(value) = &sym.state else {
                continue;
            };
            if value.section.map(|s| s.0 as usize) != Some(text) {
                continue;
            }
            let Ok(offset) = u32::try_from(value.value) else {
                continue;
            };
            labels.push((offset, sym.name.to_string()));
        }
        // Stable: the first label defined at an offset stays first.
        labels.sort_by_key(|&(offset, _)| offset);
        labels.dedup_by_key(|&mut (offset, _)| offset);
        labels
    }

    /// A fix-up whose value is the scratch symbol: a 32-bit literal of an
    /// instruction in `.text` becomes a scratch relocation (the word stays
    /// 0); anything else is an error.
    fn scratch_relocation(&mut self, f: &InstrFixup, value: Value) {
        let half = if value.section == Some(SectionId::SCRATCH_HIGH) {
            ScratchHalf::High
        } else {
            ScratchHalf::Low
        };
        let FixupKind::Literal32 { word } = f.fixup.kind else {
            self.diag_at(f.pos.clone(), super::expr::SCRATCH_USE.to_string(), true);
            return;
        };
        let offset = f.offset + 4 * usize::from(word);
        let data = &mut self.sections[f.section].data;
        match (
            f.section,
            u32::try_from(offset),
            data.get_mut(offset..offset + 4),
        ) {
            (0, Ok(at), Some(bytes)) => {
                bytes.fill(0);
                self.gallium
                    .scratch_relocations
                    .push(ScratchRelocation { offset: at, half });
            }
            _ => self.diag_at(
                f.pos.clone(),
                "a scratch relocation must be in .text".to_string(),
                true,
            ),
        }
    }

    /// Whether `ops` is a ROCm expression that waits for the layout: its
    /// evaluation fails on a section difference or another use of addresses.
    fn layout_pending(&mut self, ops: &[Op]) -> bool {
        if self.format != BinaryFormat::Rocm {
            return false;
        }
        let mut stack = Vec::new();
        matches!(evaluate(ops, &mut self.syms, &mut stack), Err(e) if super::expr::needs_layout(&e.message))
    }

    /// "; did you mean `X`?" for an undefined symbol `name` one or two
    /// typos away from a defined one (compared by the last part of a
    /// scoped name, which keeps its scope path: `vadd::d` → `vadd::b`).
    #[cold]
    fn symbol_suggestion(&self, name: &str) -> String {
        let (prefix, last) = match name.rfind("::") {
            Some(i) => name.split_at(i + 2),
            None => ("", name),
        };
        let defined = self
            .syms
            .syms
            .iter()
            .filter(|s| s.is_defined())
            .map(|s| &*s.name);
        match crate::suggest::closest(last, defined) {
            Some(c) => format!("; did you mean `{prefix}{c}`?"),
            None => String::new(),
        }
    }

    /// Evaluates a deferred expression after the pass.
    pub(crate) fn final_value(&mut self, ops: &[Op], pos: &SourcePos) -> Option<Value> {
        let mut stack = Vec::new();
        match evaluate(ops, &mut self.syms, &mut stack) {
            Ok(Some(v)) => Some(v),
            Ok(None) => {
                let name = self.undefined_in(ops, 0).unwrap_or_default();
                let guess = self.symbol_suggestion(&name);
                self.diag_at(
                    pos.clone(),
                    format!("undefined symbol '{name}'{guess}"),
                    true,
                );
                None
            }
            Err(e) => {
                self.diag_at(pos.clone(), e.message, true);
                None
            }
        }
    }
}

/// The [`OperandContext`] the encoder sees for one instruction.
pub(crate) struct InstrCtx<'a, 'o> {
    asm: &'a mut Assembler<'o>,
    /// Offset of the statement in the current line.
    base: usize,
    section: usize,
    offset: usize,
}

impl<'a, 'o> InstrCtx<'a, 'o> {
    fn new(asm: &'a mut Assembler<'o>, base: usize) -> Self {
        let (section, offset) = match asm.cur {
            CurrentSection::Section(i) => (i, asm.sections[i].data.len()),
            CurrentSection::Absolute => (0, 0),
        };
        InstrCtx {
            asm,
            base,
            section,
            offset,
        }
    }
}

/// A lone decimal number at `pos` (after spaces): `0` or 1 to 18 digits
/// not starting with `0` (a leading `0` means octal), directly followed by
/// the end of the text, `,`, `]`, `:` or `)`, none of which can continue an
/// expression. Returns its value and the offset after it. Most operand
/// expressions are such numbers (register indices, offsets, counts), and the
/// full parser gives the same value and end for them; anything else (a
/// suffix such as `1b`, a float, an operator) is `None`.
fn plain_decimal(bytes: &[u8], pos: usize) -> Option<(i64, usize)> {
    let start = skip_spaces(bytes, pos);
    let digits = bytes
        .get(start..)?
        .iter()
        .take(19)
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 || digits > 18 || (digits > 1 && bytes[start] == b'0') {
        return None;
    }
    let end = start + digits;
    if !matches!(bytes.get(end), None | Some(b',' | b']' | b':' | b')')) {
        return None;
    }
    let value = bytes[start..end]
        .iter()
        .fold(0i64, |n, &d| n * 10 + i64::from(d - b'0'));
    Some((value, end))
}

impl OperandContext for InstrCtx<'_, '_> {
    fn version(&self) -> GcnVersion {
        self.asm.version
    }

    fn expression(&mut self, cur: &mut Cursor<'_>) -> Result<ExprValue, OperandError> {
        let text = cur.text();
        let mut pos = cur.pos();
        if let Some((value, end)) = plain_decimal(text.as_bytes(), pos) {
            // What the expression parser would leave for a lone number.
            self.asm.rpn.clear();
            self.asm.rpn.push(Op::Const(Value::absolute(value)));
            cur.set_pos(end);
            return Ok(ExprValue::Known(Value::absolute(value)));
        }
        match self.asm.parse_expression(text, &mut pos, true) {
            // The scratch symbol is known only to the loader: it always
            // takes a fix-up, which becomes a relocation.
            Ok(Some(v)) if is_scratch(v) => {
                cur.set_pos(pos);
                let id = self.asm.store_deferred();
                self.asm.scratch_deferred.push(id);
                Ok(ExprValue::Deferred(crate::encode::context::DeferredExpr(
                    id,
                )))
            }
            Ok(Some(v)) => {
                cur.set_pos(pos);
                Ok(ExprValue::Known(v))
            }
            Ok(None) => {
                cur.set_pos(pos);
                let id = self.asm.store_deferred();
                Ok(ExprValue::Deferred(crate::encode::context::DeferredExpr(
                    id,
                )))
            }
            // A section difference of a ROCm code object: known once the
            // sections are laid out.
            Err(e) if self.asm.waits_for_layout(&e) => {
                cur.set_pos(pos);
                let id = self.asm.store_deferred();
                Ok(ExprValue::Deferred(crate::encode::context::DeferredExpr(
                    id,
                )))
            }
            Err(e) => Err(OperandError::new(e.at, e.message)),
        }
    }

    fn old_modifier_parameters(&self) -> bool {
        self.asm.old_mod_param
    }

    fn wave32(&self) -> bool {
        self.asm.wave32 && self.asm.version.is_gcn15()
    }

    fn is_scratch_reference(&self, expr: crate::encode::context::DeferredExpr) -> bool {
        self.asm.scratch_deferred.contains(&expr.0)
    }

    fn is_arg_offset_symbol(&self, name: &str) -> bool {
        self.asm
            .syms
            .lookup(name)
            .is_some_and(|id| self.asm.arg_symbols.contains(&id))
    }

    fn register_symbol(&self, name: &str) -> Option<RegisterSymbol> {
        let id = self.asm.syms.lookup(name)?;
        match self.asm.syms.get(id).state {
            SymState::Register(r) => Some(r),
            _ => None,
        }
    }

    fn instruction_address(&self) -> (SectionId, u64) {
        (SectionId(self.section as u32), self.offset as u64)
    }

    fn emit(&mut self, word: u32) {
        if let Some(s) = self.asm.sections.get_mut(self.section) {
            s.data.extend_from_slice(&word.to_le_bytes());
        }
    }

    fn fixup(&mut self, fixup: Fixup) {
        let pos = self.asm.pos_at(self.base + fixup.at);
        self.asm.instr_fixups.push(InstrFixup {
            section: self.section,
            offset: self.offset,
            words: 0,
            fixup,
            pos,
        });
    }

    fn warning(&mut self, at: usize, message: String) {
        self.asm.warning(self.base + at, message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::context::{FixupKind, OperandContext};

    /// Drives the operand context the way the encoder does (a test double
    /// of one instruction with a forward reference).
    #[test]
    fn operand_context_contract() {
        let opts = AssembleOptions::default();
        let mut asm = Assembler::new(&opts);
        asm.run_main("x = 5\n.int 1\n");
        let mut ctx = InstrCtx::new(&mut asm, 0);
        assert_eq!(ctx.version(), GcnVersion::Gcn1_0);
        assert_eq!(ctx.instruction_address(), (SectionId(0), 4));
        let text = "s_foo x*2, later+4 offset:12";
        let mut cur = Cursor::at(text, 6);
        assert_eq!(
            ctx.expression(&mut cur),
            Ok(ExprValue::Known(Value::absolute(10)))
        );
        assert_eq!(cur.pos(), 9);
        assert!(cur.eat(b','));
        let deferred = match ctx.expression(&mut cur) {
            Ok(ExprValue::Deferred(d)) => d,
            other => panic!("{other:?}"),
        };
        assert_eq!(cur.rest(), " offset:12");
        let mut bad = Cursor::at("1/0", 0);
        assert_eq!(
            ctx.expression(&mut bad).unwrap_err().message,
            "division by zero"
        );
        assert_eq!(ctx.register_symbol("x"), None);
        ctx.emit(0x1234_5678);
        ctx.fixup(Fixup {
            word: 0,
            kind: FixupKind::Literal32 { word: 0 },
            expr: deferred,
            at: 11,
        });
        ctx.warning(0, "just a warning".into());
        asm.instr_fixups.iter_mut().for_each(|f| f.words = 1);
        assert_eq!(asm.sections[0].data.len(), 8);
        // `later` stays undefined: the fix-up reports it where it was used.
        let d = asm.finish().unwrap_err();
        let e = d.errors().next().unwrap();
        assert_eq!(e.message, "undefined symbol 'later'");
        assert_eq!(e.pos.column, 12);
        assert_eq!(d.0.iter().filter(|d| !d.is_error()).count(), 1);
    }

    /// The lone-number shortcut of `InstrCtx::expression` gives what the
    /// expression parser gives (value and end), and leaves everything else
    /// to it.
    #[test]
    fn plain_numbers_read_as_the_expression_parser_reads_them() {
        let opts = AssembleOptions::default();
        let mut asm = Assembler::new(&opts);
        for text in [
            "0",
            "7",
            "12,",
            " 42]",
            "3:5]",
            "9)",
            "999999999999999999",
            "5 ",
            "5 ,",
            "010",
            "08",
            "0x10",
            "0b1",
            "1b",
            "2f",
            "1.5",
            "1e3",
            "1+2",
            "4*2,",
            "12a",
            "x",
            "",
        ] {
            let fast = plain_decimal(text.as_bytes(), 0);
            let mut pos = 0;
            let full = asm.parse_expression(text, &mut pos, true);
            if let Some((value, end)) = fast {
                assert_eq!(full, Ok(Some(Value::absolute(value))), "{text:?}");
                assert_eq!(pos, end, "{text:?}");
            }
            let expect_fast = matches!(
                text,
                "0" | "7" | "12," | " 42]" | "3:5]" | "9)" | "999999999999999999"
            );
            assert_eq!(fast.is_some(), expect_fast, "{text:?}");
        }
    }

    /// The plain `sN`/`vN` shortcut of the operand reader gives the register
    /// the general reader gives, on every version, and leaves everything
    /// else (out-of-range indices, subscripts, longer names) to it.
    #[test]
    fn plain_registers_read_as_the_register_parser_reads_them() {
        use crate::encode::operand::{plain_register, try_register, RegParse};
        for version in GcnVersion::ALL {
            let opts = AssembleOptions {
                version: Some(version),
                ..AssembleOptions::default()
            };
            let mut asm = Assembler::new(&opts);
            let mut ctx = InstrCtx::new(&mut asm, 0);
            for text in [
                "s0", "s7,", "S12 ", "v0", "V255", "v128, v1", "s101", "s103", "s104", "v256",
                "s1[2]", "s1:", "s1x", "v0001", "s", "sext(v1)", "vcc", "ttmp1", "s01",
            ] {
                let fast = plain_register(text.as_bytes(), version);
                let mut cur = Cursor::at(text, 0);
                let full = match try_register(&mut ctx, &mut cur, None) {
                    Ok(RegParse::Reg(reg)) => Some((reg, cur.pos())),
                    _ => None,
                };
                if fast.is_some() {
                    assert_eq!(fast, full, "{text:?} on {version}");
                }
                let expect_fast = match text {
                    "s0" | "s7," | "S12 " | "v0" | "V255" | "v128, v1" | "s01" => true,
                    "s101" => true,
                    "s103" => !version.is_gcn12_or_later() || version.is_gcn15(),
                    // GCN 1.5 names 106 SGPRs.
                    "s104" => version.is_gcn15(),
                    _ => false,
                };
                assert_eq!(fast.is_some(), expect_fast, "{text:?} on {version}");
            }
        }
    }

    #[test]
    fn deferred_fixup_reaches_apply_fixup() {
        let opts = AssembleOptions::default();
        let mut asm = Assembler::new(&opts);
        let mut ctx = InstrCtx::new(&mut asm, 0);
        let mut cur = Cursor::at("later", 0);
        let Ok(ExprValue::Deferred(expr)) = ctx.expression(&mut cur) else {
            panic!("expected a deferred value");
        };
        ctx.emit(0);
        ctx.fixup(Fixup {
            word: 0,
            kind: FixupKind::Imm16,
            expr,
            at: 0,
        });
        asm.instr_fixups.iter_mut().for_each(|f| f.words = 1);
        asm.run_main("later = 0x1234");
        // The encoder's apply_fixup patches the 16-bit field with the value.
        let out = asm.finish().expect("the fix-up applies");
        assert_eq!(out.text(), &[0x34, 0x12, 0, 0]);
    }
}
