//! The generic pseudo-operations of `ClrxAsmPseudoOps.md`: data, layout,
//! sections, symbols, target selection, files and messages.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::arch::{Device, GcnVersion};
use crate::encode::code_padding_word;

use super::assembler::{
    skip_spaces, Assembler, BinaryFormat, Frame, FrameKind, MAX_BULK_BYTES, MAX_EXPANSION_BYTES,
    MAX_FRAMES, MAX_INCLUDE_DEPTH,
};
use super::expr::{parse_string_literal, scan_symbol};
use super::float::parse_float_literal;
use super::sections::{fill_code, fill_pattern, CurrentSection, Section};
use super::symbols::{SymKind, SymState};
use crate::encode::context::Value;

/// The CLRX version this assembler follows (0.1.9), as `.get_version`
/// reports it.
pub const CLRX_VERSION: i64 = 109;
/// Pseudo-ops of other binary formats or features not implemented yet: they are
/// rejected with a clear message instead of being ignored.
const NOT_IMPLEMENTED: &[&str] = &[
    ".userdata",
    ".main",
    ".regvar",
    ".default_hsa",
    ".rocm",
    ".amd",
    ".amdcl2",
    ".amd3",
    ".cf_start",
    ".cf_end",
    ".header",
    ".metadata",
    ".inputs",
    ".outputs",
    ".uav",
    ".calnote",
    ".constantbuffers",
    ".setup",
    ".setupargs",
    ".usesetup",
    ".usesizes",
    ".useprintf",
    ".hsaconfig",
    ".hsalayout",
    ".call_convention",
    ".codeversion",
    ".machine",
    ".reserved_sgprs",
    ".reserved_vgprs",
    ".runtime_loader_kernel_symbol",
    ".control_directive",
    ".fkernel",
    ".gotsym",
    ".md_version",
    ".newbinfmt",
    ".target",
    ".tripple",
    ".triple",
    ".useenqueue",
    ".usegeneric",
    ".cws",
    ".sampler",
    ".samplerinit",
    ".samplerreloc",
    ".uavid",
    ".uavopmask",
    ".uavprivate",
    ".hwlocal",
    ".hwregion",
    ".iterations",
    ".earlyexit",
    ".condout",
    ".printfid",
    ".privateid",
    ".cbid",
    ".cbmask",
    ".boolconsts",
    ".intconsts",
    ".floatconsts",
    ".subconstantbuffers",
    ".vectypehint",
    ".workgroup_group_segment_size",
    ".workitem_private_segment_size",
];

/// A warning text when `value` does not fit in `size` bytes (signed or
/// unsigned).
pub fn range_warning(value: i64, size: usize) -> Option<String> {
    if size >= 8 {
        return None;
    }
    let bits = size * 8;
    let min = -(1i64 << (bits - 1));
    let max = (1i64 << bits) - 1;
    (value < min || value > max).then(|| format!("value {value:#x} truncated to {size} byte(s)"))
}

impl Assembler<'_> {
    /// Runs pseudo-op `text[start..end]`; false when it is unknown.
    pub fn pseudo_op(&mut self, text: &str, start: usize, end: usize) -> bool {
        let name = &text[start..end];
        let mut buf = [0u8; 32];
        let owned;
        let lower: &str = if name.len() <= buf.len() {
            let b = &mut buf[..name.len()];
            b.copy_from_slice(name.as_bytes());
            b.make_ascii_lowercase();
            std::str::from_utf8(b).unwrap_or("")
        } else {
            owned = name.to_ascii_lowercase();
            &owned
        };
        let p = end;
        match lower {
            ".byte" => self.data_ints(text, p, 1),
            ".short" | ".hword" => self.data_ints(text, p, 2),
            ".int" | ".long" | ".word" => self.data_ints(text, p, 4),
            ".quad" => self.data_ints(text, p, 8),
            ".octa" => self.data_ints(text, p, 16),
            ".half" => self.data_floats(text, p, 2),
            ".float" | ".single" => self.data_floats(text, p, 4),
            ".double" => self.data_floats(text, p, 8),
            ".ascii" => self.data_strings(text, p, 1, false),
            ".asciz" | ".string" => self.data_strings(text, p, 1, true),
            ".string16" => self.data_strings(text, p, 2, true),
            ".string32" => self.data_strings(text, p, 4, true),
            ".string64" => self.data_strings(text, p, 8, true),
            ".fill" => self.pseudo_fill(text, p, 4),
            ".fillq" => self.pseudo_fill(text, p, 8),
            ".skip" | ".space" => self.pseudo_skip(text, p),
            ".align" | ".balign" => self.pseudo_align(text, p, false, 1),
            ".balignw" => self.pseudo_align(text, p, false, 2),
            ".balignl" => self.pseudo_align(text, p, false, 4),
            ".p2align" => self.pseudo_align(text, p, true, 1),
            ".p2alignw" => self.pseudo_align(text, p, true, 2),
            ".p2alignl" => self.pseudo_align(text, p, true, 4),
            ".org" => {
                let mut q = p;
                self.set_location(text, &mut q, Some(()));
            }
            ".incbin" => self.pseudo_incbin(text, p),
            ".include" => self.pseudo_include(text, p),
            ".text" => self.switch_section(".text", true, text, p),
            ".data" => self.switch_section(".data", false, text, p),
            ".rodata" => self.switch_section(".rodata", false, text, p),
            ".bss" => self.switch_section(".bss", false, text, p),
            ".section" => self.pseudo_section(text, p),
            ".offset" | ".struct" => {
                let mut q = p;
                if let Some(v) = self.abs_expr(text, &mut q) {
                    self.cur = CurrentSection::Absolute;
                    self.abs_counter = v;
                    self.expect_end(text, q);
                }
            }
            ".set" | ".equ" => self.pseudo_set(text, p, SymKind::Plain),
            ".equiv" => self.pseudo_set(text, p, SymKind::Once),
            ".eqv" => self.pseudo_set(text, p, SymKind::Eqv),
            ".undef" => self.pseudo_undef(text, p),
            ".global" | ".globl" | ".local" | ".weak" | ".extern" => {
                let names = self.symbol_list(text, p);
                if matches!(lower, ".global" | ".globl") {
                    self.rocm.globals.extend(names);
                }
            }
            ".size" => {
                let bytes = text.as_bytes();
                let q = skip_spaces(bytes, p);
                match scan_symbol(bytes, q) {
                    Some(e) => {
                        let r = skip_spaces(bytes, e);
                        if bytes.get(r) != Some(&b',') {
                            self.error(r, "expected ','");
                        } else {
                            let mut pos = r + 1;
                            if let Err(e) = self.parse_expression(text, &mut pos, true) {
                                self.error(e.at, e.message);
                            } else {
                                self.expect_end(text, pos);
                            }
                        }
                    }
                    None => self.error(q, "expected a symbol name"),
                }
            }
            ".enum" => self.pseudo_enum(text, p),
            ".scope" => {
                let bytes = text.as_bytes();
                let q = skip_spaces(bytes, p);
                let e = scan_symbol(bytes, q).unwrap_or(q);
                if text[q..e].contains("::") {
                    self.error(q, "a scope name cannot have a scope path");
                } else {
                    self.syms.open_scope(&text[q..e]);
                    self.expect_end(text, e);
                }
            }
            ".ends" | ".endscope" => {
                if !self.syms.close_scope() {
                    self.error(start, "no scope to close");
                }
                self.expect_end(text, p);
            }
            ".using" | ".unusing" => self.pseudo_using(text, p, lower == ".using"),
            ".gpu" => self.pseudo_target(text, p, true),
            ".arch" => self.pseudo_target(text, p, false),
            ".32bit" | ".64bit" => {
                self.is_64bit = lower == ".64bit";
                self.expect_end(text, p);
            }
            ".rawcode" | ".gallium" => {
                self.format = if lower == ".gallium" {
                    BinaryFormat::Gallium
                } else {
                    BinaryFormat::RawCode
                };
                self.expect_end(text, p);
            }
            ".format" => {
                let name = text[p..].trim().to_ascii_lowercase();
                match name.as_str() {
                    "gallium" => self.format = BinaryFormat::Gallium,
                    "raw" | "rawcode" => self.format = BinaryFormat::RawCode,
                    "rocm" => self.format = BinaryFormat::Rocm,
                    "amd" | "catalyst" | "amdcl2" | "amd3" => {
                        self.error(p, format!("binary format '{name}' is not implemented yet"))
                    }
                    _ => self.error(p, format!("unknown binary format '{name}'")),
                }
            }
            ".get_arch" | ".get_gpu" | ".get_64bit" | ".get_format" | ".get_version"
            | ".get_policy" => {
                let value = match lower {
                    ".get_arch" => match self.version {
                        GcnVersion::Gcn1_0 => 0,
                        GcnVersion::Gcn1_1 => 1,
                        GcnVersion::Gcn1_2 => 2,
                        GcnVersion::Gcn1_4 => 3,
                        GcnVersion::Gcn1_4_1 => 4,
                        GcnVersion::Gcn1_5 => 5,
                        GcnVersion::Gcn1_5_1 => 6,
                        // CLRX has no RDNA 2: the next number.
                        GcnVersion::Rdna2 => 7,
                    },
                    ".get_gpu" => i64::from(self.device.clrx_id()),
                    ".get_64bit" => i64::from(self.is_64bit),
                    ".get_format" => self.format.clrx_id(),
                    ".get_version" => CLRX_VERSION,
                    _ => self.policy,
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
                                SymState::Known(Value::absolute(value)),
                                SymKind::Plain,
                            );
                        }
                    }
                    _ => self.error(q, "expected a symbol name"),
                }
            }
            ".policy" => {
                let mut q = p;
                if let Some(v) = self.abs_expr(text, &mut q) {
                    self.policy = v;
                    self.expect_end(text, q);
                }
            }
            ".macro" => self.pseudo_macro(text, start, p),
            ".endm" | ".endmacro" => self.error(start, format!("{lower} without .macro")),
            ".exitm" => self.pseudo_exitm(start),
            ".purgem" => self.pseudo_purgem(text, p),
            ".macrocase" | ".nomacrocase" => {
                self.macro_case = lower == ".macrocase";
                self.expect_end(text, p);
            }
            ".altmacro" | ".noaltmacro" => {
                self.alt_macro = lower == ".altmacro";
                self.expect_end(text, p);
            }
            ".rept" => self.pseudo_rept(text, start, p),
            ".irp" => self.pseudo_irp(text, start, p, false),
            ".irpc" => self.pseudo_irp(text, start, p, true),
            ".for" => self.pseudo_for(text, start, p),
            ".while" => self.pseudo_while(text, start, p),
            ".endr" | ".endrept" => self.error(start, format!("{lower} without a repetition")),
            ".error" | ".warning" | ".print" => {
                let bytes = text.as_bytes();
                let q = skip_spaces(bytes, p);
                let message = if q >= text.len() {
                    None
                } else {
                    let mut s = Vec::new();
                    let mut pos = q;
                    if let Err(e) = parse_string_literal(text, &mut pos, &mut s) {
                        self.error(e.at, e.message);
                        return true;
                    }
                    if !self.expect_end(text, pos) {
                        return true;
                    }
                    Some(String::from_utf8_lossy(&s).into_owned())
                };
                // An empty string gives the default text too: a diagnostic
                // always says something.
                let given = message.clone().filter(|m| !m.trim().is_empty());
                match lower {
                    ".error" => {
                        self.error(start, given.unwrap_or_else(|| ".error encountered".into()))
                    }
                    ".warning" => self.warning(
                        start,
                        given.unwrap_or_else(|| ".warning encountered".into()),
                    ),
                    _ => self.printed.push(message.unwrap_or_default()),
                }
            }
            ".err" => self.error(start, ".err encountered"),
            ".fail" => {
                let mut q = p;
                if let Some(v) = self.abs_expr(text, &mut q) {
                    if v >= 500 {
                        self.warning(start, format!(".fail {v} encountered"));
                    } else {
                        self.error(start, format!(".fail {v} encountered"));
                    }
                }
            }
            ".abort" => {
                self.error(start, "assembly aborted by .abort");
                self.stop = true;
            }
            ".end" => {
                // Nothing after `.end` is read, not even the rest of the line.
                self.frames.clear();
                self.stop = true;
            }
            ".file" | ".ln" | ".line" | ".lflags" | ".sbttl" | ".title" | ".tittle"
            | ".version" | ".ident" | ".type" | ".buggyfplit" | ".nobuggyfplit" => {}
            ".wave32" | ".nowave32" => {
                self.wave32 = lower == ".wave32";
                self.rocm_wave32_changed();
            }
            ".oldmodparam" => self.old_mod_param = true,
            ".nooldmodparam" => self.old_mod_param = false,
            _ => {
                if self.conditional(text, lower, start, end) {
                    return true;
                }
                if self.rocm_pseudo_op(text, lower, start, p) {
                    return true;
                }
                if self.gallium_pseudo_op(text, lower, start, p) {
                    return true;
                }
                if NOT_IMPLEMENTED.contains(&lower)
                    || lower.starts_with(".hsa_")
                    || lower.starts_with(".amdhsa_")
                {
                    self.error(start, format!("pseudo-op {lower} is not implemented yet"));
                    return true;
                }
                return false;
            }
        }
        true
    }

    /// Reserves `size` bytes for a value and stores it (or a fix-up).
    fn emit_value(&mut self, section: usize, v: Option<Value>, size: usize, at: usize) {
        let data_len = self.sections[section].data.len();
        match v {
            Some(v) if super::expr::is_scratch(v) => self.error(at, super::expr::SCRATCH_USE),
            // An address in a ROCm code object: a relocation or a number
            // once the sections are laid out.
            Some(v) if v.section.is_some() && self.format == BinaryFormat::Rocm => {
                self.sections[section].data.resize(data_len + size, 0);
                self.data_fixup(section, data_len, size, at);
            }
            Some(v) => {
                if let Some(msg) = range_warning(v.value, size) {
                    self.warning(at, msg);
                }
                let ext = if v.value < 0 { 0xff } else { 0 };
                let bytes = v
                    .value
                    .to_le_bytes()
                    .into_iter()
                    .chain(std::iter::repeat(ext));
                self.sections[section].data.extend(bytes.take(size));
            }
            None => {
                self.sections[section].data.resize(data_len + size, 0);
                self.data_fixup(section, data_len, size, at);
            }
        }
    }

    /// After an item of a comma-separated list: the position after the
    /// comma, or `None` at the end of the statement (or after reporting
    /// something else where a comma belongs).
    fn list_separator(&mut self, text: &str, p: usize) -> Option<usize> {
        let bytes = text.as_bytes();
        let p = skip_spaces(bytes, p);
        if p >= text.len() {
            return None;
        }
        if bytes[p] != b',' {
            self.error(p, "expected ',' or the end of the statement");
            return None;
        }
        Some(p + 1)
    }

    /// `.byte`, `.short`, `.int`, `.quad`, `.octa`.
    fn data_ints(&mut self, text: &str, p: usize, size: usize) {
        let bytes = text.as_bytes();
        let mut p = skip_spaces(bytes, p);
        if p >= text.len() {
            return;
        }
        let Some(section) = self.writable_section(p) else {
            return;
        };
        loop {
            p = skip_spaces(bytes, p);
            if p >= text.len() || bytes[p] == b',' {
                self.warning(p, "empty expression, 0 assumed");
                self.emit_value(section, Some(Value::absolute(0)), size, p);
            } else if size == 16 && self.octa_literal(text, &mut p, section) {
                // stored
            } else {
                let at = p;
                match self.parse_expression(text, &mut p, true) {
                    Ok(v) => self.emit_value(section, v, size, at),
                    Err(e) if self.waits_for_layout(&e) => self.emit_value(section, None, size, at),
                    Err(e) => {
                        self.error(e.at, e.message);
                        return;
                    }
                }
            }
            match self.list_separator(text, p) {
                Some(next) => p = next,
                None => return,
            }
        }
    }

    /// A 128-bit integer literal for `.octa`; false when the item is not a
    /// plain literal (it is then read as an expression).
    fn octa_literal(&mut self, text: &str, p: &mut usize, section: usize) -> bool {
        let bytes = text.as_bytes();
        let mut e = *p;
        while e < bytes.len() && bytes[e].is_ascii_alphanumeric() {
            e += 1;
        }
        if skip_spaces(bytes, e) < bytes.len() && bytes[skip_spaces(bytes, e)] != b',' {
            return false;
        }
        let lit = &text[*p..e];
        let parsed = if let Some(h) = lit.strip_prefix("0x").or_else(|| lit.strip_prefix("0X")) {
            u128::from_str_radix(h, 16).ok()
        } else if lit.bytes().all(|b| b.is_ascii_digit())
            && !lit.is_empty()
            && !lit.starts_with('0')
        {
            lit.parse::<u128>().ok()
        } else {
            None
        };
        match parsed {
            Some(v) if v > u64::MAX as u128 => {
                self.sections[section]
                    .data
                    .extend_from_slice(&v.to_le_bytes());
                *p = e;
                true
            }
            _ => false,
        }
    }

    /// `.half`, `.float`, `.double`.
    fn data_floats(&mut self, text: &str, p: usize, size: usize) {
        let bytes = text.as_bytes();
        let mut p = skip_spaces(bytes, p);
        if p >= text.len() {
            return;
        }
        let Some(section) = self.writable_section(p) else {
            return;
        };
        loop {
            p = skip_spaces(bytes, p);
            let value_at = p;
            let lit = if p >= text.len() || bytes[p] == b',' {
                self.warning(p, "empty value, 0 assumed");
                super::float::FloatLiteral::from_f64(0.0)
            } else if let Some((lit, len)) = parse_float_literal(&text[p..]) {
                p += len;
                lit
            } else {
                match self.abs_expr(text, &mut p) {
                    Some(v) => super::float::FloatLiteral::from_f64(v as f64),
                    None => return,
                }
            };
            let bytes_of = match size {
                2 => lit.half_bits_checked().map(|b| b.to_le_bytes().to_vec()),
                4 => lit.single_bits_checked().map(|b| b.to_le_bytes().to_vec()),
                _ => lit.double_bits_checked().map(|b| b.to_le_bytes().to_vec()),
            };
            match bytes_of {
                Ok(b) => self.sections[section].data.extend_from_slice(&b),
                Err(message) => {
                    self.error(value_at, message);
                    return;
                }
            }
            match self.list_separator(text, p) {
                Some(next) => p = next,
                None => return,
            }
        }
    }

    /// `.ascii`, `.asciz`, `.string*`.
    fn data_strings(&mut self, text: &str, p: usize, char_size: usize, terminate: bool) {
        let bytes = text.as_bytes();
        let mut p = skip_spaces(bytes, p);
        if p >= text.len() {
            return;
        }
        let Some(section) = self.writable_section(p) else {
            return;
        };
        let mut s = Vec::new();
        loop {
            p = skip_spaces(bytes, p);
            s.clear();
            if let Err(e) = parse_string_literal(text, &mut p, &mut s) {
                self.error(e.at, e.message);
                return;
            }
            if terminate {
                s.push(0);
            }
            let data = &mut self.sections[section].data;
            for &b in &s {
                data.push(b);
                for _ in 1..char_size {
                    data.push(0);
                }
            }
            match self.list_separator(text, p) {
                Some(next) => p = next,
                None => return,
            }
        }
    }

    /// Reads `, [EXPR]` optional arguments: returns (present, value) pairs.
    fn optional_args(&mut self, text: &str, mut p: usize, n: usize) -> Option<Vec<Option<i64>>> {
        let bytes = text.as_bytes();
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            p = skip_spaces(bytes, p);
            if p >= text.len() {
                out.push(None);
                continue;
            }
            if bytes[p] != b',' {
                self.error(p, "expected ',' or the end of the statement");
                return None;
            }
            p = skip_spaces(bytes, p + 1);
            if p >= text.len() || bytes[p] == b',' {
                out.push(None);
                continue;
            }
            out.push(Some(self.abs_expr(text, &mut p)?));
        }
        if !self.expect_end(text, p) {
            return None;
        }
        Some(out)
    }

    /// `.fill REPEAT[, SIZE[, VALUE]]` (`max_value_bytes` is 4 for `.fill`,
    /// 8 for `.fillq`).
    fn pseudo_fill(&mut self, text: &str, p: usize, max_value_bytes: usize) {
        let mut q = p;
        let at = skip_spaces(text.as_bytes(), p);
        let Some(repeat) = self.abs_expr(text, &mut q) else {
            return;
        };
        let Some(args) = self.optional_args(text, q, 2) else {
            return;
        };
        let size = args[0].unwrap_or(1);
        let value = args[1].unwrap_or(0);
        if repeat < 0 {
            self.error(at, "repeat count must not be negative");
            return;
        }
        if !(0..=1024).contains(&size) {
            self.error(at, "fill size must be between 0 and 1024");
            return;
        }
        let Some(section) = self.writable_section(at) else {
            return;
        };
        if !self.bulk_room(at, (repeat as u64).saturating_mul(size as u64), ".fill") {
            return;
        }
        let mut item = [0u8; 1024];
        let value_bytes = value.to_le_bytes();
        let n = max_value_bytes.min(size as usize);
        item[..n].copy_from_slice(&value_bytes[..n]);
        let data = &mut self.sections[section].data;
        for _ in 0..repeat {
            data.extend_from_slice(&item[..size as usize]);
        }
    }

    /// `.skip SIZE[, VALUE]`
    fn pseudo_skip(&mut self, text: &str, p: usize) {
        let mut q = p;
        let at = skip_spaces(text.as_bytes(), p);
        let Some(size) = self.abs_expr(text, &mut q) else {
            return;
        };
        let Some(args) = self.optional_args(text, q, 1) else {
            return;
        };
        if size < 0 {
            self.error(at, "skip size must not be negative");
            return;
        }
        match self.cur {
            CurrentSection::Absolute => self.abs_counter = self.abs_counter.wrapping_add(size),
            CurrentSection::Section(i) => {
                if !self.bulk_room(at, size as u64, ".skip") {
                    return;
                }
                let v = args[0].unwrap_or(0);
                if let Some(msg) = range_warning(v, 1) {
                    self.warning(at, msg);
                }
                let data = &mut self.sections[i].data;
                data.resize(data.len() + size as usize, v as u8);
            }
        }
    }

    /// `.align`, `.balign[wl]`, `.p2align[wl]`.
    fn pseudo_align(&mut self, text: &str, p: usize, power: bool, width: usize) {
        let mut q = p;
        let at = skip_spaces(text.as_bytes(), p);
        let Some(a) = self.abs_expr(text, &mut q) else {
            return;
        };
        let Some(args) = self.optional_args(text, q, 2) else {
            return;
        };
        let align: u64 = if power {
            if !(0..=30).contains(&a) {
                self.error(at, "alignment power out of range");
                return;
            }
            1 << a
        } else {
            if a <= 0 || (a as u64) & (a as u64 - 1) != 0 {
                self.error(at, "alignment must be a power of two");
                return;
            }
            a as u64
        };
        if align > MAX_BULK_BYTES {
            self.error(at, "alignment is too large");
            return;
        }
        let offset = self.dot().value as u64;
        let pad = (align - offset % align) % align;
        if let Some(limit) = args[1] {
            if pad > limit as u64 {
                return;
            }
        }
        match self.cur {
            CurrentSection::Absolute => {
                self.abs_counter = self.abs_counter.wrapping_add(pad as i64)
            }
            CurrentSection::Section(i) => {
                if !self.bulk_room(at, pad, "the alignment") {
                    return;
                }
                let word = code_padding_word(self.version);
                let section = &mut self.sections[i];
                match args[0] {
                    Some(v) => fill_pattern(&mut section.data, pad as usize, v as u64, width),
                    None if section.code => fill_code(&mut section.data, pad as usize, word),
                    None => section.data.resize(section.data.len() + pad as usize, 0),
                }
            }
        }
    }

    /// `.org EXPR[, FILL]` and `. = EXPR`.
    pub fn set_location(&mut self, text: &str, q: &mut usize, with_fill: Option<()>) {
        let at = skip_spaces(text.as_bytes(), *q);
        let value = match self.parse_expression(text, q, true) {
            Ok(Some(v)) => v,
            Ok(None) => {
                self.error(at, "location must be defined at this point");
                return;
            }
            Err(e) => {
                self.error(e.at, e.message);
                return;
            }
        };
        let fill = if with_fill.is_some() {
            match self.optional_args(text, *q, 1) {
                Some(a) => a[0].unwrap_or(0),
                None => return,
            }
        } else {
            0
        };
        *q = text.len();
        match self.cur {
            CurrentSection::Absolute => {
                if value.section.is_some() {
                    self.error(
                        at,
                        "cannot move the location counter of the absolute section into a section",
                    );
                } else {
                    self.abs_counter = value.value;
                }
            }
            CurrentSection::Section(i) => {
                if value.section.is_some_and(|s| s.0 as usize != i) {
                    self.error(at, "cannot move the location counter to another section");
                    return;
                }
                let current = self.sections[i].data.len() as i64;
                if value.value < current {
                    self.error(at, "cannot move the location counter backwards");
                    return;
                }
                if !self.bulk_room(
                    at,
                    (value.value - current) as u64,
                    "moving the location counter",
                ) {
                    return;
                }
                self.sections[i]
                    .data
                    .resize(value.value as usize, fill as u8);
            }
        }
    }

    /// `.set`/`.equ`/`.equiv`/`.eqv SYMBOL, VALUE`.
    fn pseudo_set(&mut self, text: &str, p: usize, kind: SymKind) {
        let bytes = text.as_bytes();
        let q = skip_spaces(bytes, p);
        let Some(e) = scan_symbol(bytes, q) else {
            self.error(q, "expected a symbol name");
            return;
        };
        let r = skip_spaces(bytes, e);
        if bytes.get(r) != Some(&b',') {
            self.error(r, "expected ','");
            return;
        }
        let name = &text[q..e];
        if name == "." {
            let mut pos = r + 1;
            self.set_location(text, &mut pos, None);
            return;
        }
        self.assign(text, name, q, r + 1, kind);
    }

    fn pseudo_undef(&mut self, text: &str, p: usize) {
        let bytes = text.as_bytes();
        let q = skip_spaces(bytes, p);
        let Some(e) = scan_symbol(bytes, q) else {
            self.error(q, "expected a symbol name");
            return;
        };
        self.expect_end(text, e);
        let name = &text[q..e];
        match self.syms.lookup(name) {
            Some(id) if self.syms.get(id).is_defined() => {
                let id = if self.syms.get(id).captured {
                    self.syms.fresh_definition_target(name)
                } else {
                    id
                };
                let s = self.syms.get_mut(id);
                s.state = SymState::Undefined;
                s.kind = SymKind::Plain;
            }
            _ => self.warning(q, format!("symbol '{name}' is not defined")),
        }
    }

    /// `.global` and friends: a list of symbol names (returned; ROCm's
    /// `.gotsym` needs its symbols global), otherwise ignored.
    fn symbol_list(&mut self, text: &str, p: usize) -> Vec<String> {
        let bytes = text.as_bytes();
        let mut q = skip_spaces(bytes, p);
        let mut names = Vec::new();
        loop {
            let Some(e) = scan_symbol(bytes, q) else {
                self.error(q, "expected a symbol name");
                return names;
            };
            names.push(text[q..e].to_string());
            q = skip_spaces(bytes, e);
            if q >= text.len() {
                return names;
            }
            if bytes[q] != b',' {
                self.error(q, "expected ','");
                return names;
            }
            q = skip_spaces(bytes, q + 1);
        }
    }

    /// `.enum [>[START],] SYM, …`
    fn pseudo_enum(&mut self, text: &str, p: usize) {
        let bytes = text.as_bytes();
        let mut q = skip_spaces(bytes, p);
        let scope = self.syms.current.0 as usize;
        if bytes.get(q) == Some(&b'>') {
            q = skip_spaces(bytes, q + 1);
            let start = if q < text.len() && bytes[q] != b',' {
                match self.abs_expr(text, &mut q) {
                    Some(v) => v,
                    None => return,
                }
            } else {
                0
            };
            self.syms.scopes[scope].enum_counter = start;
            q = skip_spaces(bytes, q);
            if q >= text.len() {
                return;
            }
            if bytes[q] != b',' {
                self.error(q, "expected ','");
                return;
            }
            q = skip_spaces(bytes, q + 1);
        }
        loop {
            let Some(e) = scan_symbol(bytes, q) else {
                self.error(q, "expected a symbol name");
                return;
            };
            let value = self.syms.scopes[scope].enum_counter;
            let name = text[q..e].to_string();
            self.define_symbol(
                &name,
                q,
                SymState::Known(Value::absolute(value)),
                SymKind::Once,
            );
            self.syms.scopes[scope].enum_counter = value.wrapping_add(1);
            q = skip_spaces(bytes, e);
            if q >= text.len() {
                return;
            }
            if bytes[q] != b',' {
                self.error(q, "expected ','");
                return;
            }
            q = skip_spaces(bytes, q + 1);
        }
    }

    fn pseudo_using(&mut self, text: &str, p: usize, using: bool) {
        let bytes = text.as_bytes();
        let q = skip_spaces(bytes, p);
        let end = if bytes.get(q) == Some(&b':')
            && bytes.get(q + 1) == Some(&b':')
            && scan_symbol(bytes, q).is_none()
        {
            q + 2
        } else {
            scan_symbol(bytes, q).unwrap_or(q)
        };
        if !self.expect_end(text, end) {
            return;
        }
        let path = &text[q..end];
        let current = self.syms.current.0 as usize;
        if path.is_empty() {
            if using {
                self.error(q, "expected a scope path");
            } else {
                self.syms.scopes[current].usings.clear();
            }
            return;
        }
        let (absolute, rest) = match path.strip_prefix("::") {
            Some(r) => (true, r),
            None => (false, path),
        };
        let Some(scope) = self.syms.find_scope(absolute, rest) else {
            self.error(q, format!("scope '{path}' does not exist"));
            return;
        };
        let usings = &mut self.syms.scopes[current].usings;
        usings.retain(|&s| s != scope);
        if using {
            usings.push(scope);
        }
    }

    /// `.gpu NAME` / `.arch NAME`.
    fn pseudo_target(&mut self, text: &str, p: usize, gpu: bool) {
        let at = skip_spaces(text.as_bytes(), p);
        let name = text[p..].trim();
        if gpu {
            match Device::from_name(name) {
                Some(d) => {
                    self.device = d;
                    self.version = d.version();
                }
                None => self.error(at, crate::arch::unknown_device_message(name)),
            }
        } else {
            match GcnVersion::from_arch_name(name) {
                Some(v) => {
                    self.version = v;
                    self.device = v.default_device();
                }
                None => self.error(at, crate::arch::unknown_arch_message(name)),
            }
        }
    }

    /// Switches to (creating if needed) the section `name`.
    fn switch_section(&mut self, name: &str, code: bool, text: &str, p: usize) {
        self.expect_end(text, p);
        self.enter_section(name, code);
    }

    pub(super) fn enter_section(&mut self, name: &str, code: bool) -> usize {
        self.gallium.leave_kernel();
        self.rocm.leave_kernel();
        let i = match self.section_index.get(name) {
            Some(&i) => i,
            None => {
                self.sections.push(Section::new(name, code));
                let i = self.sections.len() - 1;
                self.section_index.insert(name.to_string(), i);
                self.rocm_absolute_sections();
                i
            }
        };
        self.cur = CurrentSection::Section(i);
        i
    }

    /// `.section NAME[, "FLAGS"[, @TYPE]] [align=N]`
    fn pseudo_section(&mut self, text: &str, p: usize) {
        let bytes = text.as_bytes();
        let q = skip_spaces(bytes, p);
        let mut e = q;
        let name = if bytes.get(q) == Some(&b'"') {
            let mut s = Vec::new();
            if let Err(err) = parse_string_literal(text, &mut e, &mut s) {
                self.error(err.at, err.message);
                return;
            }
            String::from_utf8_lossy(&s).into_owned()
        } else {
            while e < bytes.len()
                && (bytes[e].is_ascii_alphanumeric() || b"_.$-".contains(&bytes[e]))
            {
                e += 1;
            }
            text[q..e].to_string()
        };
        if name.is_empty() {
            self.error(q, "expected a section name");
            return;
        }
        let mut flags = String::new();
        let mut kind = String::new();
        let mut r = skip_spaces(bytes, e);
        if bytes.get(r) == Some(&b',') {
            r = skip_spaces(bytes, r + 1);
            let mut s = Vec::new();
            if let Err(err) = parse_string_literal(text, &mut r, &mut s) {
                self.error(err.at, err.message);
                return;
            }
            flags = String::from_utf8_lossy(&s).into_owned();
            if let Some(bad) = flags.bytes().position(|b| !b"awx".contains(&b)) {
                self.error(
                    r,
                    format!("unknown section flag '{}'", flags.as_bytes()[bad] as char),
                );
                return;
            }
            r = skip_spaces(bytes, r);
            if bytes.get(r) == Some(&b',') {
                r = skip_spaces(bytes, r + 1);
                if bytes.get(r) != Some(&b'@') {
                    self.error(r, "expected '@TYPE'");
                    return;
                }
                let ts = r + 1;
                let mut te = ts;
                while te < bytes.len() && bytes[te].is_ascii_alphanumeric() {
                    te += 1;
                }
                kind = text[ts..te].to_ascii_lowercase();
                match kind.as_str() {
                    "progbits" | "note" | "nobits" => {}
                    other => {
                        self.error(ts, format!("unknown section type '{other}'"));
                        return;
                    }
                }
                r = skip_spaces(bytes, te);
            }
        }
        let mut align = 0;
        if text[r..].to_ascii_lowercase().starts_with("align") {
            let mut s = skip_spaces(bytes, r + 5);
            if bytes.get(s) != Some(&b'=') {
                self.error(s, "expected '='");
                return;
            }
            s += 1;
            match self.abs_expr(text, &mut s) {
                Some(v) if v > 0 && v & (v - 1) == 0 => align = v as u64,
                Some(_) => {
                    self.error(r, "alignment must be a power of two");
                    return;
                }
                None => return,
            }
            r = s;
        }
        if !self.expect_end(text, r) {
            return;
        }
        let code = flags.contains('x') || name == ".text";
        let i = self.enter_section(&name, code);
        let section = &mut self.sections[i];
        section.user = true;
        if align != 0 {
            section.align = align;
        }
        if !flags.is_empty() {
            section.flags = flags;
        }
        if !kind.is_empty() {
            section.kind = kind;
        }
    }

    /// Finds a file named by `.include`/`.incbin`: the including file's
    /// directory, the working directory, then the `-I` directories.
    fn find_file(&self, name: &str) -> Option<PathBuf> {
        let path = Path::new(name);
        if path.is_absolute() {
            return path.is_file().then(|| path.to_path_buf());
        }
        let dir = self.frames.iter().rev().find_map(|f| f.dir.clone());
        let mut candidates: Vec<PathBuf> = Vec::new();
        if let Some(d) = dir {
            candidates.push(d.join(path));
        }
        candidates.push(path.to_path_buf());
        for d in &self.opts.include_dirs {
            candidates.push(d.join(path));
        }
        candidates.into_iter().find(|c| c.is_file())
    }

    fn file_name_arg(&mut self, text: &str, p: usize) -> Option<(String, usize)> {
        let bytes = text.as_bytes();
        let q = skip_spaces(bytes, p);
        let mut e = q;
        let mut s = Vec::new();
        if let Err(err) = parse_string_literal(text, &mut e, &mut s) {
            self.error(err.at, err.message);
            return None;
        }
        Some((String::from_utf8_lossy(&s).into_owned(), e))
    }

    /// `.include "FILE"`
    fn pseudo_include(&mut self, text: &str, p: usize) {
        let at = skip_spaces(text.as_bytes(), p);
        let Some((name, e)) = self.file_name_arg(text, p) else {
            return;
        };
        if !self.expect_end(text, e) {
            return;
        }
        let depth = self
            .frames
            .iter()
            .filter(|f| matches!(f.kind, FrameKind::File))
            .count();
        if depth > MAX_INCLUDE_DEPTH || self.frames.len() >= MAX_FRAMES {
            self.error(at, "includes nested too deeply");
            return;
        }
        let Some(path) = self.find_file(&name) else {
            self.error(at, format!("cannot find include file '{name}'"));
            return;
        };
        let content = match read_bounded(&path, MAX_EXPANSION_BYTES as u64) {
            Ok(Some(c)) => c,
            Ok(None) => {
                self.error(
                    at,
                    format!(
                        "include file '{name}' is larger than {} MiB",
                        MAX_EXPANSION_BYTES >> 20
                    ),
                );
                return;
            }
            Err(err) => {
                self.error(at, format!("cannot read include file '{name}': {err}"));
                return;
            }
        };
        let Ok(content) = String::from_utf8(content) else {
            self.error(at, format!("include file '{name}' is not UTF-8 text"));
            return;
        };
        self.files_read.push(path.clone());
        let invoked_at = self.pos_at(at);
        self.frames.push(Frame {
            text: Rc::from(content),
            pos: 0,
            line: 0,
            file: path.display().to_string().into(),
            line_map: None,
            col_offset: 0,
            dir: path.parent().map(Path::to_path_buf),
            invoked_at: Some(invoked_at),
            cond_depth: self.conds.len(),
            kind: FrameKind::File,
            expanded: self.expanded_below(self.frames.len()),
        });
    }

    /// `.incbin "FILE"[, OFFSET[, COUNT]]`
    fn pseudo_incbin(&mut self, text: &str, p: usize) {
        let at = skip_spaces(text.as_bytes(), p);
        let Some((name, e)) = self.file_name_arg(text, p) else {
            return;
        };
        let Some(args) = self.optional_args(text, e, 2) else {
            return;
        };
        let Some(section) = self.writable_section(at) else {
            return;
        };
        let Some(path) = self.find_file(&name) else {
            self.error(at, format!("cannot find file '{name}'"));
            return;
        };
        let offset = args[0].unwrap_or(0);
        if offset < 0 {
            self.error(at, "offset out of the file");
            return;
        }
        let count = match args[1] {
            Some(c) if c < 0 => {
                self.error(at, "count must not be negative");
                return;
            }
            Some(c) => Some(c as u64),
            None => None,
        };
        // Read no more than the output may still take (a device file such
        // as /dev/zero never ends).
        let room = MAX_BULK_BYTES - self.bulk_bytes;
        let limit = (offset as u64).saturating_add(count.unwrap_or(room).min(room));
        let content = match read_bounded(&path, limit) {
            Ok(Some(c)) => c,
            Ok(None) if count.is_some_and(|c| c <= room) => {
                // Only the requested part was read; the file goes on.
                match read_prefix(&path, limit) {
                    Ok(c) => c,
                    Err(err) => {
                        self.error(at, format!("cannot read file '{name}': {err}"));
                        return;
                    }
                }
            }
            Ok(None) => {
                self.bulk_room(at, room.saturating_add(1), ".incbin");
                return;
            }
            Err(err) => {
                self.error(at, format!("cannot read file '{name}': {err}"));
                return;
            }
        };
        self.files_read.push(path.clone());
        if offset as usize > content.len() {
            self.error(at, "offset out of the file");
            return;
        }
        let rest = &content[offset as usize..];
        let count = count.map_or(rest.len(), |c| (c as usize).min(rest.len()));
        if !self.bulk_room(at, count as u64, ".incbin") {
            return;
        }
        self.sections[section]
            .data
            .extend_from_slice(&rest[..count]);
    }
}

/// The contents of `path` when it has at most `limit` bytes, `None` when it
/// has more (read no further than `limit + 1` bytes, so a device file or a
/// huge file costs bounded memory and time).
fn read_bounded(path: &std::path::Path, limit: u64) -> std::io::Result<Option<Vec<u8>>> {
    let mut content = read_prefix(path, limit.saturating_add(1))?;
    if content.len() as u64 > limit {
        content.clear();
        return Ok(None);
    }
    Ok(Some(content))
}

/// At most the first `limit` bytes of `path`.
fn read_prefix(path: &std::path::Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut content = Vec::new();
    std::fs::File::open(path)?
        .take(limit)
        .read_to_end(&mut content)?;
    Ok(content)
}
