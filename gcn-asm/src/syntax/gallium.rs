//! The Gallium pseudo-ops (`ClrxAsmGallium.md`): kernels, their arguments,
//! configuration or raw proginfo, `.globaldata`, `.kcode`, LLVM and driver
//! versions, `.scratchsym`; the per-kernel register counting; and the final
//! assembly of a [`GalliumBinary`].
//!
//! The scratch symbol (`.scratchsym SYM`) has the value of the pseudo-section
//! [`SectionId::SCRATCH`]; the expression evaluator allows only its low
//! and high halves, every use of it becomes a fix-up, and a fix-up of a
//! 32-bit literal in `.text` becomes a [`ScratchRelocation`] (anything
//! else is an error).
//!
//! Register counting: every register operand the encoder reports
//! ([`crate::encode::context::OperandContext::register_used`]), and VCC for
//! the rows that read it implicitly (`reads_vcc`), is charged
//! to the kernels its code belongs to. Outside `.kcode`, code belongs to the
//! kernel whose label precedes it (up to the next kernel label); since a
//! kernel may be declared after its label, usage is collected per label
//! region and attributed when the assembly ends. Inside `.kcode`, code
//! belongs to the listed kernels (which must be declared already).

use crate::diag::SourcePos;
use crate::encode::context::{SectionId, Value};
use crate::gallium::config::{
    max_sgprs, prog_info, Dims, KernelConfig, RegisterUsage, LLVM_3_9, LLVM_4_0, MAX_LOCAL_SIZE,
    MAX_USER_DATA, MAX_VGPRS,
};
use crate::gallium::{
    ArgDecl, ArgSemantic, ArgType, GalliumBinary, Kernel, KernelArg, KernelDecl, ProgInfoEntry,
    ScratchRelocation, ARGS_START, MAX_ARGS_SIZE, PROG_INFO_DEFAULTS,
};
use rustc_hash::FxHashMap;

use super::assembler::{skip_spaces, Assembler, BinaryFormat};
use super::expr::{resolve_symbol, scan_symbol};
use super::sections::CurrentSection;
use super::symbols::{SymKind, SymState};

/// Which block of a kernel's description is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Inside {
    /// None: code, data or kernel declarations.
    #[default]
    Main,
    /// `.args`.
    Args,
    /// `.config`.
    Config,
    /// `.proginfo`.
    ProgInfo,
}

/// A kernel being described.
#[derive(Debug)]
struct KernelState {
    name: String,
    /// Where `.kernel` declared it (for errors found at the end).
    pos: SourcePos,
    args: Vec<KernelArg>,
    /// Names, positions and texts of the `.arg`s (parallel to `args`).
    arg_decls: Vec<ArgDecl>,
    /// Where the arguments end in the kernel input buffer, counted from
    /// [`crate::gallium::ARGS_START`] (what [`crate::gallium::arg_offsets`] would reach).
    args_end: u64,
    /// The argument names, with their indices in `args`.
    arg_names: FxHashMap<String, usize>,
    config: Option<KernelConfig>,
    prog_info: Option<Vec<ProgInfoEntry>>,
    /// Registers of the `.kcode` blocks that include the kernel.
    usage: RegisterUsage,
}

/// The Gallium part of an assembly's state.
#[derive(Debug, Default)]
pub(crate) struct GalliumState {
    kernels: Vec<KernelState>,
    /// Index in `kernels` of each kernel name.
    kernel_index: FxHashMap<String, usize>,
    /// The kernel `.args`/`.config`/`.proginfo` refer to.
    current: Option<usize>,
    pub inside: Inside,
    llvm_version: u32,
    driver_version: u32,
    /// Selections saved by open `.kcode`s, with where each was opened.
    kcode_stack: Vec<(Vec<usize>, SourcePos)>,
    /// Kernels the code inside the innermost `.kcode` belongs to.
    kcode_selection: Vec<usize>,
    /// Register usage per label region of `.text` outside `.kcode`: the
    /// label that starts the region and what its code uses.
    regions: Vec<(String, RegisterUsage)>,
    /// The `.scratchsym` symbol, once set.
    scratch_symbol: Option<String>,
    /// Literal words that take the scratch address (filled when the
    /// fix-ups are resolved).
    pub scratch_relocations: Vec<ScratchRelocation>,
}

impl GalliumState {
    /// A section switch closes any open `.args`/`.config`/`.proginfo` and
    /// leaves the kernel.
    pub fn leave_kernel(&mut self) {
        self.inside = Inside::Main;
        self.current = None;
    }

    /// Charges the register usage of one instruction in `.text` to the
    /// label region it is in, or inside `.kcode` to the listed kernels.
    pub fn charge(&mut self, usage: &RegisterUsage) {
        if self.kcode_stack.is_empty() {
            if let Some((_, u)) = self.regions.last_mut() {
                u.merge(usage);
            }
        } else {
            for &k in &self.kcode_selection {
                self.kernels[k].usage.merge(usage);
            }
        }
    }

    /// A label defined in `.text`: it may start a kernel's code.
    pub fn label(&mut self, name: &str) {
        if self.kcode_stack.is_empty() {
            self.regions
                .push((name.to_string(), RegisterUsage::default()));
        }
    }

    /// The LLVM and Mesa versions given in the options, until the source
    /// sets its own.
    pub fn set_versions(&mut self, llvm_version: u32, driver_version: u32) {
        self.llvm_version = llvm_version;
        self.driver_version = driver_version;
    }

    fn find(&self, name: &str) -> Option<usize> {
        self.kernel_index.get(name).copied()
    }
}

/// Gallium pseudo-ops handled here.
const GALLIUM_OPS: &[&str] = &[
    ".kernel",
    ".args",
    ".arg",
    ".config",
    ".proginfo",
    ".entry",
    ".globaldata",
    ".kcode",
    ".kcodeend",
    ".llvm_version",
    ".driver_version",
    ".get_llvm_version",
    ".get_driver_version",
    ".dims",
    ".tgsize",
    ".debugmode",
    ".dx10clamp",
    ".ieeemode",
    ".privmode",
    ".floatmode",
    ".priority",
    ".exceptions",
    ".localsize",
    ".scratchbuffer",
    ".userdatanum",
    ".sgprsnum",
    ".vgprsnum",
    ".pgmrsrc1",
    ".pgmrsrc2",
    ".spilledsgprs",
    ".spilledvgprs",
    ".scratchsym",
];

impl Assembler<'_> {
    /// Runs Gallium pseudo-op `lower` (already lower-cased) whose operands
    /// start at `p`; false when it is not one.
    pub(crate) fn gallium_pseudo_op(
        &mut self,
        text: &str,
        lower: &str,
        start: usize,
        p: usize,
    ) -> bool {
        if !GALLIUM_OPS.contains(&lower) {
            return false;
        }
        if self.format != BinaryFormat::Gallium {
            self.error(
                start,
                format!(
                    "{lower} belongs to the Gallium format, not the selected one (use .gallium or -b gallium)"
                ),
            );
            return true;
        }
        match lower {
            ".kernel" => self.gallium_kernel(text, p),
            ".args" => self.gallium_open(text, start, p, Inside::Args),
            ".config" => self.gallium_open(text, start, p, Inside::Config),
            ".proginfo" => self.gallium_open(text, start, p, Inside::ProgInfo),
            ".arg" => self.gallium_arg(text, start, p),
            ".entry" => self.gallium_entry(text, start, p),
            ".globaldata" => {
                if self.expect_end(text, p) {
                    self.enter_section(".rodata", false);
                }
            }
            ".kcode" => self.gallium_kcode(text, start, p),
            ".scratchsym" => self.gallium_scratch_symbol(text, p),
            ".kcodeend" => {
                if self.expect_end(text, p) {
                    match self.gallium.kcode_stack.pop() {
                        Some((saved, _)) => self.gallium.kcode_selection = saved,
                        None => self.error(start, ".kcodeend without .kcode"),
                    }
                }
            }
            ".llvm_version" | ".driver_version" => {
                let mut q = p;
                let at = skip_spaces(text.as_bytes(), p);
                let Some(v) = self.abs_expr(text, &mut q) else {
                    return true;
                };
                if !self.expect_end(text, q) {
                    return true;
                }
                let Ok(v) = u32::try_from(v) else {
                    self.error(at, "version out of range");
                    return true;
                };
                if lower == ".llvm_version" {
                    if v >= LLVM_4_0 {
                        self.error(
                            at,
                            "LLVM 4.0 and later use the AMDHSA Gallium format, which is not supported (use a version below 40000)",
                        );
                        return true;
                    }
                    self.gallium.llvm_version = v;
                } else {
                    self.gallium.driver_version = v;
                }
            }
            ".get_llvm_version" | ".get_driver_version" => {
                let value = if lower == ".get_llvm_version" {
                    self.gallium.llvm_version
                } else {
                    self.gallium.driver_version
                };
                let bytes = text.as_bytes();
                let q = skip_spaces(bytes, p);
                match scan_symbol(bytes, q) {
                    Some(e) if &text[q..e] != "." => {
                        if self.expect_end(text, e) {
                            let name = text[q..e].to_string();
                            self.define_symbol(
                                &name,
                                q,
                                SymState::Known(Value::absolute(i64::from(value))),
                                SymKind::Plain,
                            );
                        }
                    }
                    _ => self.error(q, "expected a symbol name"),
                }
            }
            _ => self.gallium_config_op(text, lower, start, p),
        }
        true
    }

    /// `.scratchsym SYMBOL`: defines SYMBOL as the scratch symbol (once per
    /// source; the symbol must be new).
    fn gallium_scratch_symbol(&mut self, text: &str, p: usize) {
        let bytes = text.as_bytes();
        let q = skip_spaces(bytes, p);
        let Some(e) = scan_symbol(bytes, q).filter(|&e| &text[q..e] != ".") else {
            self.error(q, "expected a symbol name");
            return;
        };
        if !self.expect_end(text, e) {
            return;
        }
        if let Some(old) = &self.gallium.scratch_symbol {
            let msg = format!("the scratch symbol is already set (.scratchsym {old})");
            self.error(q, msg);
            return;
        }
        let name = text[q..e].to_string();
        let errors = self.diags.iter().filter(|d| d.is_error()).count();
        self.define_symbol(
            &name,
            q,
            SymState::Known(Value {
                value: 0,
                section: Some(SectionId::SCRATCH),
            }),
            SymKind::Once,
        );
        if self.diags.iter().filter(|d| d.is_error()).count() == errors {
            self.gallium.scratch_symbol = Some(name);
        }
    }

    /// `.kernel NAME`: declares a kernel (or returns to one) and makes it
    /// current; the code section becomes current too.
    fn gallium_kernel(&mut self, text: &str, p: usize) {
        let bytes = text.as_bytes();
        let q = skip_spaces(bytes, p);
        let Some(e) = scan_symbol(bytes, q).filter(|&e| &text[q..e] != ".") else {
            self.error(q, "expected a kernel name");
            return;
        };
        if !self.expect_end(text, e) {
            return;
        }
        let name = &text[q..e];
        self.enter_section(".text", true);
        let index = match self.gallium.find(name) {
            Some(i) => i,
            None => {
                let pos = self.pos_at(q);
                self.gallium.kernels.push(KernelState {
                    name: name.to_string(),
                    pos,
                    args: Vec::new(),
                    arg_decls: Vec::new(),
                    args_end: 0,
                    arg_names: FxHashMap::default(),
                    config: None,
                    prog_info: None,
                    usage: RegisterUsage::default(),
                });
                let i = self.gallium.kernels.len() - 1;
                self.gallium.kernel_index.insert(name.to_string(), i);
                i
            }
        };
        self.gallium.current = Some(index);
    }

    /// `.args`, `.config`, `.proginfo`: open a block of the current kernel.
    fn gallium_open(&mut self, text: &str, start: usize, p: usize, what: Inside) {
        if !self.expect_end(text, p) {
            return;
        }
        let name = match what {
            Inside::Args => ".args",
            Inside::Config => ".config",
            _ => ".proginfo",
        };
        let Some(k) = self.gallium.current else {
            self.error(
                start,
                format!("{name} must follow .kernel (there is no current kernel here)"),
            );
            return;
        };
        let kernel = &mut self.gallium.kernels[k];
        match what {
            Inside::Config if kernel.prog_info.is_some() => {
                let msg = format!(
                    "kernel '{}' already has a .proginfo: a kernel has either .config or .proginfo",
                    kernel.name
                );
                return self.error(start, msg);
            }
            Inside::ProgInfo if kernel.config.is_some() => {
                let msg = format!(
                    "kernel '{}' already has a .config: a kernel has either .config or .proginfo",
                    kernel.name
                );
                return self.error(start, msg);
            }
            Inside::Config => {
                kernel.config.get_or_insert_with(KernelConfig::default);
            }
            Inside::ProgInfo => {
                kernel.prog_info.get_or_insert_with(Vec::new);
            }
            _ => {}
        }
        self.gallium.inside = what;
    }

    /// Number of proginfo entries per kernel for the LLVM version set now.
    fn gallium_entries(&self) -> usize {
        if self.gallium.llvm_version >= LLVM_3_9 {
            5
        } else {
            3
        }
    }

    /// `.entry ADDRESS, VALUE` inside `.proginfo`.
    fn gallium_entry(&mut self, text: &str, start: usize, p: usize) {
        let Some(k) = self
            .gallium
            .current
            .filter(|_| self.gallium.inside == Inside::ProgInfo)
        else {
            self.error(start, ".entry must be inside a kernel's .proginfo");
            return;
        };
        let Some(values) = self.gallium_values(text, p, 2, 2) else {
            return;
        };
        let mut entry = [0u32; 2];
        for (slot, &(v, at)) in entry.iter_mut().zip(&values) {
            match v.and_then(|v| {
                u32::try_from(v)
                    .ok()
                    .or_else(|| i32::try_from(v).ok().map(|v| v as u32))
            }) {
                Some(v) => *slot = v,
                None => return self.error(at, "expected a 32-bit value"),
            }
        }
        let max = self.gallium_entries();
        let entries = self.gallium.kernels[k]
            .prog_info
            .get_or_insert_with(Vec::new);
        if entries.len() >= max {
            self.error(
                start,
                format!(
                    "too many .entry lines: a kernel has {max} proginfo entries{}",
                    if max == 3 {
                        " (5 from .llvm_version 30900 on)"
                    } else {
                        ""
                    }
                ),
            );
            return;
        }
        entries.push(ProgInfoEntry {
            address: entry[0],
            value: entry[1],
        });
    }

    /// Parses `min..=max` comma-separated absolute expressions; a missing
    /// one (`a, , c`) is `None`. Returns each with its position.
    fn gallium_values(
        &mut self,
        text: &str,
        p: usize,
        min: usize,
        max: usize,
    ) -> Option<Vec<(Option<i64>, usize)>> {
        let bytes = text.as_bytes();
        let mut out = Vec::new();
        let mut q = skip_spaces(bytes, p);
        loop {
            let at = q;
            if q < text.len() && bytes[q] != b',' {
                let v = self.abs_expr(text, &mut q)?;
                out.push((Some(v), at));
            } else {
                out.push((None, at));
            }
            q = skip_spaces(bytes, q);
            if q >= text.len() {
                break;
            }
            if bytes[q] != b',' {
                self.error(q, "expected ',' or the end of the statement");
                return None;
            }
            if out.len() == max {
                self.error(q, format!("too many operands (at most {max})"));
                return None;
            }
            q = skip_spaces(bytes, q + 1);
        }
        if out.len() < min || out.iter().take(min).any(|(v, _)| v.is_none()) {
            let at = out.iter().find(|(v, _)| v.is_none()).map_or(q, |&(_, a)| a);
            self.error(at, format!("expected {min} operand(s)"));
            return None;
        }
        Some(out)
    }

    /// `.arg [NAME,] TYPE[, SIZE[, TARGETSIZE[, ALIGNMENT[, sext|zext[, SEMANTIC]]]]]`
    ///
    /// The optional leading NAME is an extension of CLRX's syntax (the
    /// binary keeps no names; `gcn_kernel!` names its struct fields after
    /// them). It is recognised when the first field is a plain name that is
    /// not an argument type and the second field is a plain name too (the
    /// type), so every CLRX `.arg` keeps its meaning.
    fn gallium_arg(&mut self, text: &str, start: usize, p: usize) {
        let Some(k) = self
            .gallium
            .current
            .filter(|_| self.gallium.inside == Inside::Args)
        else {
            self.error(start, ".arg must be inside a kernel's .args");
            return;
        };
        let mut fields: Vec<(usize, &str)> = match split_fields(text, p) {
            Ok(fields) => fields,
            Err(at) => return self.error(at, "unterminated quoted text"),
        };
        let mut name = None;
        if fields.len() >= 2
            && is_plain_name(fields[0].1)
            && !is_arg_type_keyword(fields[0].1)
            && is_plain_name(fields[1].1)
        {
            let (at, given) = fields.remove(0);
            let kernel = &self.gallium.kernels[k];
            if let Some(&i) = kernel.arg_names.get(given) {
                let msg = format!(
                    "argument name '{given}' is already used by argument {i} of kernel '{}'",
                    kernel.name
                );
                return self.error(at, msg);
            }
            name = Some((given.to_string(), at));
        }
        let (type_at, type_name) = fields[0];
        let lower = type_name.to_ascii_lowercase();
        let (ty, mut semantic, shortcut) = match lower.as_str() {
            "griddim" => (ArgType::Scalar, ArgSemantic::GridDimension, true),
            "gridoffset" => (ArgType::Scalar, ArgSemantic::GridOffset, true),
            _ => match ArgType::from_name(&lower) {
                Some(t) => (t, ArgSemantic::General, false),
                None if type_name.is_empty() => {
                    return self.error(type_at, "expected an argument type");
                }
                None => {
                    let after = match &name {
                        Some((n, _)) => format!(" after the argument name '{n}'"),
                        None => String::new(),
                    };
                    return self.error(
                        type_at,
                        format!("unknown argument type '{type_name}'{after}"),
                    );
                }
            },
        };
        if fields.len() > 6 {
            return self.error(fields[6].0, "too many operands (at most 6)");
        }
        let mut numbers = [None::<u32>; 3];
        for (i, slot) in numbers.iter_mut().enumerate() {
            let Some(&(at, field)) = fields.get(i + 1) else {
                break;
            };
            if field.is_empty() {
                continue;
            }
            let mut q = at;
            let Some(v) = self.abs_expr(text, &mut q) else {
                return;
            };
            if !self.expect_end(&text[..at + field.len()], q) {
                return;
            }
            match u32::try_from(v) {
                Ok(v) if u64::from(v) > MAX_ARGS_SIZE => {
                    let what = ["argument size", "target size", "alignment"][i];
                    return self.error(
                        at,
                        format!("{what} {v} is larger than the kernel input limit of {MAX_ARGS_SIZE} bytes"),
                    );
                }
                Ok(v) => *slot = Some(v),
                Err(_) => return self.error(at, "value out of range"),
            }
        }
        let size = match numbers[0] {
            Some(0) => return self.error(fields[1].0, "argument size must not be zero"),
            Some(s) => s,
            None if shortcut => 4,
            None => {
                let at = fields.get(1).map_or(text.len(), |f| f.0);
                return self.error(at, format!("{lower} argument needs a size"));
            }
        };
        let target_size = numbers[1].unwrap_or_else(|| size.next_multiple_of(4));
        if target_size < size || !target_size.is_multiple_of(4) {
            let at = fields.get(2).map_or(start, |f| f.0);
            return self.error(
                at,
                "target size must be a multiple of 4 and at least the size",
            );
        }
        let target_align = match numbers[2] {
            Some(a) if !a.is_power_of_two() => {
                let at = fields.get(3).map_or(start, |f| f.0);
                return self.error(at, "alignment must be a power of two");
            }
            Some(a) => a,
            None => target_size.checked_next_power_of_two().unwrap_or(1 << 31),
        };
        let mut sign_extended = false;
        if let Some(&(at, field)) = fields.get(4).filter(|f| !f.1.is_empty()) {
            match field.to_ascii_lowercase().as_str() {
                "sext" => sign_extended = true,
                "zext" => {}
                _ => return self.error(at, "expected sext or zext"),
            }
        }
        if let Some(&(at, field)) = fields.get(5).filter(|f| !f.1.is_empty()) {
            match ArgSemantic::from_name(&field.to_ascii_lowercase()) {
                Some(s) => semantic = s,
                None => {
                    return self.error(
                        at,
                        format!("unknown argument semantic '{field}' (general, griddim, gridoffset, imgsize, imgformat)"),
                    )
                }
            }
        }
        // A named argument is located at its name (what tools complain
        // about), an unnamed one at `.arg`.
        let pos = self.pos_at(name.as_ref().map_or(start, |n| n.1));
        let arg = KernelArg {
            ty,
            size,
            target_size,
            target_align,
            sign_extended,
            semantic,
        };
        // Where its values go, as `arg_offsets` lays them out (each value
        // at most MAX_ARGS_SIZE bytes after an end of at most that, so no
        // overflow).
        let mut end = self.gallium.kernels[k].args_end;
        let mut offset = None;
        for _ in 0..arg.value_count() {
            let at = arg.value_offset(end);
            offset.get_or_insert(ARGS_START + at);
            end = at + u64::from(arg.target_size);
        }
        if end > MAX_ARGS_SIZE {
            let kernel = &self.gallium.kernels[k].name;
            let msg = format!(
                "the arguments of kernel '{kernel}' take {end} bytes, more than the kernel input limit of {MAX_ARGS_SIZE} bytes"
            );
            return self.error(start, msg);
        }
        let kernel = &mut self.gallium.kernels[k];
        kernel.args_end = end;
        if let Some((given, _)) = &name {
            kernel.arg_names.insert(given.clone(), kernel.args.len());
        }
        kernel.args.push(arg);
        // A named argument's byte offset in the kernel input buffer is the
        // symbol `KERNEL::NAME`: in a scope of its own, so it cannot clash
        // with a label or another kernel's argument.
        let symbol = match (&name, offset) {
            (Some((arg, at)), Some(offset)) => {
                Some((format!("::{}::{arg}", kernel.name), *at, offset))
            }
            _ => None,
        };
        kernel.arg_decls.push(ArgDecl {
            name: name.map(|n| n.0),
            pos,
            declaration: text[start..].trim().to_string(),
        });
        if let Some((symbol, at, offset)) = symbol {
            let value = Value::absolute(offset as i64);
            self.define_symbol(&symbol, at, SymState::Known(value), SymKind::Once);
            if let Some(id) = self.syms.lookup(&symbol) {
                self.arg_symbols.insert(id);
            }
        }
    }

    /// `.kcode [+|[-|+]KERNEL, …]`: code that belongs to the given kernels.
    fn gallium_kcode(&mut self, text: &str, start: usize, p: usize) {
        // Nested `.kcode`s edit the enclosing selection; a top-level one
        // starts from no kernel.
        let initial = if self.gallium.kcode_stack.is_empty() {
            Vec::new()
        } else {
            self.gallium.kcode_selection.clone()
        };
        let g = &self.gallium;
        let selection = match kcode_selection(text, p, initial, g.kernels.len(), |n| g.find(n)) {
            Ok(selection) => selection,
            Err((at, message)) => return self.error(at, message),
        };
        let pos = self.pos_at(start);
        let saved = std::mem::replace(&mut self.gallium.kcode_selection, selection);
        self.gallium.kcode_stack.push((saved, pos));
    }

    /// The pseudo-ops of `.config`.
    fn gallium_config_op(&mut self, text: &str, lower: &str, start: usize, p: usize) {
        let Some(k) = self
            .gallium
            .current
            .filter(|_| self.gallium.inside == Inside::Config)
        else {
            self.error(start, format!("{lower} must be inside a kernel's .config"));
            return;
        };
        if config_flag(&mut KernelConfig::default(), lower).is_some() {
            if self.expect_end(text, p) {
                if let Some(f) = self.gallium.kernels[k]
                    .config
                    .as_mut()
                    .and_then(|c| config_flag(c, lower))
                {
                    *f = true;
                }
            }
            return;
        }
        if lower == ".dims" {
            let Some(dims) = self.gallium_dims(text, p) else {
                return;
            };
            if let Some(c) = self.gallium.kernels[k].config.as_mut() {
                c.dims = Some(dims);
            }
            return;
        }
        let mut q = p;
        let at = skip_spaces(text.as_bytes(), p);
        let Some(v) = self.abs_expr(text, &mut q) else {
            return;
        };
        if !self.expect_end(text, q) {
            return;
        }
        let max_sgprs = i64::from(max_sgprs(self.version));
        let (limit, what): (i64, &str) = match lower {
            ".floatmode" => (0xff, "float mode is a byte (0-255)"),
            ".priority" => (3, "priority is 0-3"),
            ".exceptions" => (0x7f, "exception mask has 7 bits (0-0x7f)"),
            ".localsize" => (
                i64::from(MAX_LOCAL_SIZE),
                "local size is at most 32768 bytes",
            ),
            ".userdatanum" => (i64::from(MAX_USER_DATA), "user SGPR count is 0-16"),
            ".sgprsnum" => (max_sgprs, "SGPR count exceeds the GPU's SGPRs"),
            ".vgprsnum" => (i64::from(MAX_VGPRS), "VGPR count is at most 256"),
            _ => (i64::from(u32::MAX), "value must fit in 32 bits"),
        };
        // `.pgmrsrc1/2` take any 32-bit pattern, negative ones included.
        let v = if matches!(lower, ".pgmrsrc1" | ".pgmrsrc2") && (-(1i64 << 31)..0).contains(&v) {
            v & 0xffff_ffff
        } else {
            v
        };
        if !(0..=limit).contains(&v) {
            self.error(at, format!("{v} is out of range: {what}"));
            return;
        }
        let v32 = v as u32;
        let Some(c) = self.gallium.kernels[k].config.as_mut() else {
            return;
        };
        match lower {
            ".floatmode" => c.float_mode = v32 as u8,
            ".priority" => c.priority = v32 as u8,
            ".exceptions" => c.exceptions = v32 as u8,
            ".localsize" => c.local_size = v32,
            ".scratchbuffer" => c.scratch_buffer = v32,
            ".userdatanum" => c.user_data = v32,
            ".sgprsnum" => c.sgprs = Some(v32),
            ".vgprsnum" => c.vgprs = Some(v32),
            ".pgmrsrc1" => c.pgm_rsrc1 = v32,
            ".pgmrsrc2" => c.pgm_rsrc2 = v32,
            ".spilledsgprs" => c.spilled_sgprs = v32,
            ".spilledvgprs" => c.spilled_vgprs = v32,
            _ => {}
        }
    }

    /// `.dims DIMS` or `.dims GROUP_DIMS, LOCAL_DIMS` (letters x, y, z).
    pub(super) fn gallium_dims(&mut self, text: &str, p: usize) -> Option<Dims> {
        let fields = match split_fields(text, p) {
            Ok(fields) => fields,
            Err(at) => {
                self.error(at, "unterminated quoted text");
                return None;
            }
        };
        if fields.len() > 2 {
            self.error(fields[2].0, "too many operands (.dims takes 1 or 2)");
            return None;
        }
        let mut masks = [0u8; 2];
        // An empty list is no dimension (clrxasm's parseDimensions).
        for (i, &(at, field)) in fields.iter().enumerate() {
            for (j, c) in field.bytes().enumerate() {
                match c.to_ascii_lowercase() {
                    b'x' => masks[i] |= 1,
                    b'y' => masks[i] |= 2,
                    b'z' => masks[i] |= 4,
                    _ => {
                        self.error(at + j, "unknown dimension (letters x, y, z)");
                        return None;
                    }
                }
            }
        }
        let local = if fields.len() == 2 {
            masks[1]
        } else {
            masks[0]
        };
        Some(Dims {
            group: masks[0],
            local,
        })
    }

    /// Builds the Gallium binary at the end of the assembly (errors are
    /// reported at the kernel's `.kernel`); `None` after an error.
    pub(crate) fn gallium_finish(&mut self) -> Option<GalliumBinary> {
        if self.format != BinaryFormat::Gallium {
            return None;
        }
        // Without kernels (code assembled with the default format) there is
        // no kernel layout to get wrong: the binary is the code.
        if self.version.is_gcn15() && !self.gallium.kernels.is_empty() {
            // clrxasm writes GCN 1.5 Gallium binaries in the AMDHSA layout
            // (an amd_kernel_code_t before each kernel's code), the layout
            // of LLVM 4.0+ Gallium binaries, which is not supported.
            let message = format!(
                "a GalliumCompute binary for {} takes the AMDHSA kernel layout (as LLVM 4.0+ \
                 Gallium binaries), which gcnasm does not write: use the ROCm format (`.rocm`)",
                self.version
            );
            let pos = self.gallium.kernels[0].pos.clone();
            self.diag_at(pos, message, true);
            return None;
        }
        if let Some((_, pos)) = self.gallium.kcode_stack.first() {
            let pos = pos.clone();
            self.diag_at(pos, "missing .kcodeend".into(), true);
        }
        // Attribute the label regions: code from a kernel label to the next
        // kernel label belongs to that kernel.
        let mut owner = None;
        let regions = std::mem::take(&mut self.gallium.regions);
        for (label, usage) in &regions {
            if let Some(k) = self.gallium.find(label) {
                owner = Some(k);
            }
            if let Some(k) = owner {
                self.gallium.kernels[k].usage.merge(usage);
            }
        }
        let entries = self.gallium_entries();
        let llvm = self.gallium.llvm_version;
        let version = self.version;
        let mut kernels = Vec::with_capacity(self.gallium.kernels.len());
        let mut ok = true;
        let states = std::mem::take(&mut self.gallium.kernels);
        for state in &states {
            let offset = self.gallium_kernel_offset(state);
            let prog = if let Some(config) = &state.config {
                match prog_info(config, &state.usage, version, llvm) {
                    Ok(p) => p.entries,
                    Err(message) => {
                        let msg = format!("kernel '{}': {message}", state.name);
                        self.diag_at(state.pos.clone(), msg, true);
                        ok = false;
                        continue;
                    }
                }
            } else {
                let mut given = state.prog_info.clone().unwrap_or_default();
                if state.prog_info.is_none() {
                    let msg = format!(
                        "kernel '{}' has neither .config nor .proginfo: its proginfo entries are clrxasm's defaults (PGM_RSRC1 0x000c0000, PGM_RSRC2 0x00001788, no scratch)",
                        state.name
                    );
                    self.diag_at(state.pos.clone(), msg, false);
                }
                if given.len() > entries {
                    let msg = format!(
                        "kernel '{}' has {} proginfo entries but binaries for this LLVM version have {entries}",
                        state.name,
                        given.len()
                    );
                    self.diag_at(state.pos.clone(), msg, true);
                    ok = false;
                    continue;
                }
                // The entries left out are clrxasm's: each slot keeps its
                // default (not zeros: a missing third entry is still
                // COMPUTE_TMPRING_SIZE).
                let given_len = given.len();
                given.extend_from_slice(&PROG_INFO_DEFAULTS[given_len..entries]);
                given
            };
            let Some(offset) = offset else {
                ok = false;
                continue;
            };
            kernels.push(Kernel {
                name: state.name.clone(),
                offset,
                args: state.args.clone(),
                prog_info: prog,
            });
        }
        self.gallium.kernels = states;
        if !ok {
            return None;
        }
        kernels.sort_by(|a, b| a.name.cmp(&b.name));
        let global_data = self
            .sections
            .iter()
            .find(|s| s.name == ".rodata")
            .map(|s| s.data.clone())
            .filter(|d| !d.is_empty());
        Some(GalliumBinary {
            is_64bit: self.is_64bit,
            // clrxasm detects the installed Mesa when no version is given;
            // gcnasm takes the older layout then.
            mesa170: self.gallium.driver_version >= 170_000,
            kernels,
            code: self.sections[0].data.clone(),
            global_data,
            scratch_relocations: {
                let mut r = self.gallium.scratch_relocations.clone();
                r.sort();
                r
            },
        })
    }

    /// The offset of a kernel's label in `.text`, or an error.
    fn gallium_kernel_offset(&mut self, state: &KernelState) -> Option<u32> {
        let offset = self.kernel_label_offset(&state.name, &state.pos)?;
        match u32::try_from(offset) {
            Ok(v) => Some(v),
            Err(_) => {
                let msg = format!("kernel '{}' starts outside .text", state.name);
                self.diag_at(state.pos.clone(), msg, true);
                None
            }
        }
    }

    /// The offset in `.text` of the label of kernel `name` (declared at
    /// `pos`), or an error there: the label every binary format's kernel
    /// starts at.
    pub(crate) fn kernel_label_offset(&mut self, name: &str, pos: &SourcePos) -> Option<u64> {
        let id = self.syms.lookup(&format!("::{name}"));
        let value = match id.map(|id| resolve_symbol(&mut self.syms, id, 0)) {
            Some(Ok(Some(v))) => v,
            _ => {
                let msg =
                    format!("kernel '{name}' has no code: define the label '{name}:' in .text");
                self.diag_at(pos.clone(), msg, true);
                return None;
            }
        };
        if value.section != Some(SectionId(0)) {
            let msg = format!("the symbol of kernel '{name}' must be a label in .text");
            self.diag_at(pos.clone(), msg, true);
            return None;
        }
        match u64::try_from(value.value) {
            Ok(v) => Some(v),
            Err(_) => {
                let msg = format!("kernel '{name}' starts outside .text");
                self.diag_at(pos.clone(), msg, true);
                None
            }
        }
    }

    /// The kernels as the source declared them (order of `.kernel`), with
    /// their argument names: what the binary does not keep.
    pub(crate) fn gallium_decls(&self) -> Vec<KernelDecl> {
        self.gallium
            .kernels
            .iter()
            .map(|k| KernelDecl {
                name: k.name.clone(),
                pos: k.pos.clone(),
                args: k.arg_decls.clone(),
            })
            .collect()
    }

    /// True when `.` is in `.text` (where kernel labels start kernels).
    pub(crate) fn in_code_section(&self) -> bool {
        self.cur == CurrentSection::Section(0)
    }
}

/// The kernel selection of a `.kcode` operand list (Gallium and ROCm
/// alike): `initial` edited by each `KERNEL` (added), `-KERNEL` (removed),
/// `+KERNEL` (added) or a lone `+` (every one of the `count` kernels);
/// `find` gives a declared kernel's index. An error is its byte offset and
/// message.
pub(crate) fn kcode_selection(
    text: &str,
    p: usize,
    mut selection: Vec<usize>,
    count: usize,
    find: impl Fn(&str) -> Option<usize>,
) -> Result<Vec<usize>, (usize, String)> {
    let bytes = text.as_bytes();
    let mut q = skip_spaces(bytes, p);
    if q >= text.len() {
        return Err((q, "expected kernel names or '+'".into()));
    }
    loop {
        let mut remove = false;
        let mut plus = false;
        match bytes.get(q) {
            Some(b'-') => {
                remove = true;
                q = skip_spaces(bytes, q + 1);
            }
            Some(b'+') => {
                plus = true;
                q = skip_spaces(bytes, q + 1);
            }
            _ => {}
        }
        if plus && (q >= text.len() || bytes[q] == b',') {
            selection = (0..count).collect();
        } else {
            let Some(e) = scan_symbol(bytes, q) else {
                return Err((q, "expected a kernel name".into()));
            };
            let name = &text[q..e];
            let Some(k) = find(name) else {
                return Err((
                    q,
                    format!("unknown kernel '{name}' (.kcode names kernels declared earlier with .kernel)"),
                ));
            };
            if remove {
                selection.retain(|&x| x != k);
            } else if !selection.contains(&k) {
                selection.push(k);
            }
            q = e;
        }
        q = skip_spaces(bytes, q);
        if q >= text.len() {
            return Ok(selection);
        }
        if bytes[q] != b',' {
            return Err((q, "expected ',' or the end of the statement".into()));
        }
        q = skip_spaces(bytes, q + 1);
    }
}

/// The switch of `c` that the flag pseudo-op `lower` turns on.
fn config_flag<'c>(c: &'c mut KernelConfig, lower: &str) -> Option<&'c mut bool> {
    Some(match lower {
        ".tgsize" => &mut c.tg_size,
        ".debugmode" => &mut c.debug_mode,
        ".dx10clamp" => &mut c.dx10_clamp,
        ".ieeemode" => &mut c.ieee_mode,
        ".privmode" => &mut c.priv_mode,
        _ => return None,
    })
}

/// True for a name usable as an argument name: letters, digits, `_`, `.`
/// and `$`, not starting with a digit or `.` (so never an expression or a
/// number).
fn is_plain_name(field: &str) -> bool {
    let mut chars = field.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'))
}

/// True for the words `.arg` takes as its type.
fn is_arg_type_keyword(field: &str) -> bool {
    let lower = field.to_ascii_lowercase();
    matches!(lower.as_str(), "griddim" | "gridoffset") || ArgType::from_name(&lower).is_some()
}

/// Splits the operands from `p` at top-level commas into trimmed fields
/// with their start offsets (at least one field, possibly empty); `Err`
/// with the offset of the opening quote of a quoted text that does not end.
pub(super) fn split_fields(text: &str, p: usize) -> Result<Vec<(usize, &str)>, usize> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = p;
    let mut depth = 0i32;
    let mut i = p;
    while i <= bytes.len() {
        let c = bytes.get(i).copied();
        match c {
            Some(b'(') => depth += 1,
            Some(b')') => depth -= 1,
            Some(b'"') | Some(b'\'') => {
                // Skip quoted text so its commas do not split.
                let quote = c;
                let open = i;
                i += 1;
                while i < bytes.len() && Some(bytes[i]) != quote {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                if i >= bytes.len() {
                    return Err(open);
                }
            }
            Some(b',') if depth == 0 => {
                out.push(trim_field(text, start, i));
                start = i + 1;
            }
            None => out.push(trim_field(text, start, bytes.len())),
            _ => {}
        }
        i += 1;
    }
    Ok(out)
}

fn trim_field(text: &str, start: usize, end: usize) -> (usize, &str) {
    let s = skip_spaces(text.as_bytes(), start).min(end);
    (s, text[s..end].trim_end())
}

#[cfg(test)]
mod tests {
    use super::super::assembler::{AssembleOptions, Assembler};

    /// Instructions that read VCC without naming it (issue 11 item 5)
    /// count it in the register usage of their kernel, as a written VCC
    /// does.
    #[test]
    fn implicit_vcc_reads_are_used_registers() {
        for (code, vcc) in [
            ("s_cbranch_vccz k", true),
            ("s_cbranch_vccnz k", true),
            ("v_div_fmas_f32 v0, v1, v2, v3", true),
            ("v_div_fmas_f64 v[0:1], v[2:3], v[4:5], v[6:7]", true),
            ("v_add_i32 v0, vcc, v1, v2", true),
            ("s_cbranch_execz k", false),
            ("v_mad_f32 v0, v1, v2, v3", false),
        ] {
            let opts = AssembleOptions::default();
            let mut asm = Assembler::new(&opts);
            asm.run_main(&format!(
                ".gallium\n.gpu pitcairn\n.kernel k\n.config\n.text\nk: {code}\n"
            ));
            let usage = asm
                .gallium
                .regions
                .iter()
                .find(|(label, _)| label == "k")
                .map(|(_, u)| *u)
                .expect("the kernel's region");
            assert_eq!(usage.vcc, vcc, "{code}");
        }
    }
}
