//! Conditional assembly: `.if*`, `.elseif*`, `.else`, `.endif`.

use crate::arch::{Device, GcnVersion};
use crate::diag::SourcePos;

use super::assembler::{skip_spaces, Assembler, BinaryFormat};
use super::expr::{parse_string_literal, scan_symbol};

/// State of one open `.if`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CondState {
    /// The current branch is assembled.
    Active,
    /// No branch taken yet: a later `.elseif`/`.else` may be.
    Waiting,
    /// A branch was taken (or the whole `.if` is inside skipped code).
    Done,
}

/// One open `.if`.
#[derive(Debug, Clone)]
pub struct Cond {
    /// Which branch state.
    pub state: CondState,
    /// `.else` seen.
    pub seen_else: bool,
    /// Where the `.if` is.
    pub at: SourcePos,
}

/// Splits a lower-case pseudo-op name into its conditional form: `.if…`
/// (false) or `.elseif…` (true) and the condition kind after it.
fn split_conditional(lower: &str) -> Option<(bool, &str)> {
    if let Some(kind) = lower.strip_prefix(".elseif") {
        Some((true, kind))
    } else {
        lower.strip_prefix(".if").map(|kind| (false, kind))
    }
}

const KINDS: &[&str] = &[
    "", "ne", "eq", "gt", "ge", "lt", "le", "def", "ndef", "notdef", "b", "nb", "c", "nc", "eqs",
    "nes", "arch", "narch", "gpu", "ngpu", "fmt", "nfmt", "32", "64",
];

impl Assembler<'_> {
    /// True when statements are assembled (not inside a false branch).
    pub fn conds_active(&self) -> bool {
        self.conds
            .last()
            .is_none_or(|c| c.state == CondState::Active)
    }

    /// Handles a pseudo-op inside skipped code: only the conditional ones
    /// matter (for nesting).
    pub fn inactive_pseudo_op(&mut self, text: &str, start: usize, end: usize) {
        let lower = text[start..end].to_ascii_lowercase();
        self.conditional(text, &lower, start, end);
    }

    /// Runs a conditional pseudo-op; false when `lower` is not one.
    pub fn conditional(&mut self, text: &str, lower: &str, start: usize, end: usize) -> bool {
        match lower {
            ".else" => {
                match self.conds.last_mut() {
                    None => self.error(start, ".else without .if"),
                    Some(c) if c.seen_else => self.error(start, "duplicate .else"),
                    Some(c) => {
                        c.seen_else = true;
                        c.state = match c.state {
                            CondState::Waiting => CondState::Active,
                            _ => CondState::Done,
                        };
                    }
                }
                self.expect_end(text, end);
                return true;
            }
            ".endif" => {
                if self.conds.pop().is_none() {
                    self.error(start, ".endif without .if");
                }
                self.expect_end(text, end);
                return true;
            }
            _ => {}
        }
        let Some((is_else, kind)) = split_conditional(lower) else {
            return false;
        };
        if !KINDS.contains(&kind) {
            return false;
        }
        if is_else {
            let state = match self.conds.last() {
                None => {
                    self.error(start, format!("{lower} without .if"));
                    return true;
                }
                Some(c) if c.seen_else => {
                    self.error(start, format!("{lower} after .else"));
                    return true;
                }
                Some(c) => c.state,
            };
            let new_state = match state {
                CondState::Waiting => {
                    if self.condition(text, kind, end) {
                        CondState::Active
                    } else {
                        CondState::Waiting
                    }
                }
                _ => CondState::Done,
            };
            if let Some(c) = self.conds.last_mut() {
                c.state = new_state;
            }
        } else {
            let state = if self.conds_active() {
                if self.condition(text, kind, end) {
                    CondState::Active
                } else {
                    CondState::Waiting
                }
            } else {
                CondState::Done
            };
            let at = self.pos_at(start);
            self.conds.push(Cond {
                state,
                seen_else: false,
                at,
            });
        }
        true
    }

    /// Evaluates the condition of `.if<kind>` whose arguments start at `p`;
    /// errors count as false.
    fn condition(&mut self, text: &str, kind: &str, p: usize) -> bool {
        let bytes = text.as_bytes();
        let q = skip_spaces(bytes, p);
        match kind {
            "" | "ne" | "eq" | "gt" | "ge" | "lt" | "le" => {
                let mut pos = q;
                let Some(v) = self.abs_expr(text, &mut pos) else {
                    return false;
                };
                self.expect_end(text, pos);
                match kind {
                    "" | "ne" => v != 0,
                    "eq" => v == 0,
                    "gt" => v > 0,
                    "ge" => v >= 0,
                    "lt" => v < 0,
                    _ => v <= 0,
                }
            }
            "def" | "ndef" | "notdef" => {
                let Some(end) = scan_symbol(bytes, q) else {
                    self.error(q, "expected a symbol name");
                    return false;
                };
                self.expect_end(text, end);
                let defined = self
                    .syms
                    .lookup(&text[q..end])
                    .is_some_and(|id| self.syms.get(id).is_defined());
                defined == (kind == "def")
            }
            "b" | "nb" => {
                let blank = text[q..].trim().is_empty();
                blank == (kind == "b")
            }
            "c" | "nc" => {
                let rest = &text[q..];
                let (a, b) = match split_ifc(rest) {
                    Some(pair) => pair,
                    None => {
                        self.error(q, "expected two strings separated by ','");
                        return false;
                    }
                };
                (a == b) == (kind == "c")
            }
            "eqs" | "nes" => {
                let mut pos = q;
                let mut a = Vec::new();
                let mut b = Vec::new();
                if let Err(e) = parse_string_literal(text, &mut pos, &mut a) {
                    self.error(e.at, e.message);
                    return false;
                }
                pos = skip_spaces(bytes, pos);
                if bytes.get(pos) != Some(&b',') {
                    self.error(pos, "expected ','");
                    return false;
                }
                pos = skip_spaces(bytes, pos + 1);
                if let Err(e) = parse_string_literal(text, &mut pos, &mut b) {
                    self.error(e.at, e.message);
                    return false;
                }
                self.expect_end(text, pos);
                (a == b) == (kind == "eqs")
            }
            "arch" | "narch" => {
                let name = text[q..].trim();
                let Some(v) = GcnVersion::from_arch_name(name) else {
                    self.error(q, crate::arch::unknown_arch_message(name));
                    return false;
                };
                let same = v == self.version
                    || (v == GcnVersion::Gcn1_4 && self.version == GcnVersion::Gcn1_4_1);
                same == (kind == "arch")
            }
            "gpu" | "ngpu" => {
                let name = text[q..].trim();
                let Some(d) = Device::from_name(name) else {
                    self.error(q, crate::arch::unknown_device_message(name));
                    return false;
                };
                (d == self.device) == (kind == "gpu")
            }
            "fmt" | "nfmt" => {
                let name = text[q..].trim().to_ascii_lowercase();
                let fmt = match name.as_str() {
                    "gallium" => Some(BinaryFormat::Gallium),
                    "raw" | "rawcode" => Some(BinaryFormat::RawCode),
                    "amd" | "catalyst" | "amdcl2" | "rocm" | "amd3" => None,
                    _ => {
                        self.error(q, format!("unknown binary format '{name}'"));
                        return false;
                    }
                };
                (fmt == Some(self.format)) == (kind == "fmt")
            }
            "32" | "64" => {
                self.expect_end(text, q);
                self.is_64bit == (kind == "64")
            }
            _ => false,
        }
    }
}

/// Splits the operands of `.ifc` (unquoted or single-quoted strings).
fn split_ifc(rest: &str) -> Option<(&str, &str)> {
    fn unquote(s: &str) -> &str {
        let s = s.trim();
        if s.len() >= 2 && s.starts_with('\'') && s.ends_with('\'') {
            &s[1..s.len() - 1]
        } else {
            s
        }
    }
    let rest = rest.trim();
    if let Some(inner) = rest.strip_prefix('\'') {
        let close = inner.find('\'')?;
        let after = inner[close + 1..].trim_start();
        let second = after.strip_prefix(',')?;
        return Some((&inner[..close], unquote(second)));
    }
    let comma = rest.find(',')?;
    Some((rest[..comma].trim(), unquote(&rest[comma + 1..])))
}
