//! Macros (`.macro`/`.endm`) and repetitions (`.rept`, `.irp`, `.irpc`,
//! `.for`, `.while` with `.endr`).
//!
//! Bodies are recorded statement by statement (comments already removed)
//! with the source line of each, then replayed as a new source frame after
//! argument substitution.

use std::rc::Rc;
use std::sync::Arc;

use crate::diag::SourcePos;

use super::assembler::{
    skip_spaces, Assembler, Frame, FrameKind, MAX_EXPANSION_BYTES, MAX_FRAMES, MAX_MACRO_DEPTH,
};
use super::cursor::is_symbol_char;
use super::expr::scan_symbol;
use super::symbols::FxMap;
use super::symbols::{SymKind, SymState};

/// Most iterations of one `.for`/`.while`.
const MAX_ITERATIONS: u64 = 1_000_000;
/// Largest `.rept` count.
const MAX_REPEAT: i64 = 10_000_000;

/// One parameter of a macro.
#[derive(Debug, Clone)]
pub struct MacroParam {
    /// Name (without `\`).
    pub name: String,
    /// Value when the call gives none.
    pub default: Option<String>,
    /// `:req`
    pub required: bool,
    /// `:vararg`
    pub vararg: bool,
}

/// A macro definition.
#[derive(Debug)]
pub struct Macro {
    /// Parameters in order.
    pub params: Vec<MacroParam>,
    /// Index in `params` of each parameter name.
    pub param_index: FxMap<String, usize>,
    /// Body, one statement a line.
    pub body: Rc<str>,
    /// Source line of each body line.
    pub lines: Rc<[u32]>,
    /// File of the definition.
    pub file: Arc<str>,
}

/// What is being recorded.
#[derive(Debug)]
pub enum CollectKind {
    /// A `.macro` body.
    Macro {
        /// Macro name.
        name: String,
        /// Parameters.
        params: Vec<MacroParam>,
    },
    /// `.rept N`.
    Rept(u64),
    /// `.irp`/`.irpc`: parameter and its values.
    Irp(String, Vec<String>),
    /// `.for SYM=…, COND, NEXT`.
    For {
        /// Loop symbol.
        sym: String,
        /// Condition text.
        cond: String,
        /// Next-value text.
        next: String,
    },
    /// `.while COND`.
    While(String),
}

/// A body being recorded.
#[derive(Debug)]
pub struct Collect {
    /// What for.
    pub kind: CollectKind,
    /// Nesting of inner blocks of the same family.
    pub depth: u32,
    /// The statements so far.
    pub body: String,
    /// Source line of each statement.
    pub lines: Vec<u32>,
    /// Where the block starts.
    pub start: SourcePos,
    /// Number of frames open when recording started.
    pub frame_level: usize,
    /// File of the body.
    pub file: Arc<str>,
}

impl Collect {
    /// True for a `.macro` body.
    pub fn is_macro(&self) -> bool {
        matches!(self.kind, CollectKind::Macro { .. })
    }
}

/// Progress of a repetition frame.
#[derive(Debug)]
pub enum RepeatState {
    /// Iterations left after the current one.
    Rept(u64),
    /// `.irp`/`.irpc`.
    Irp {
        /// Body template.
        body: Rc<str>,
        /// Parameter name.
        param: String,
        /// Values.
        values: Vec<String>,
        /// Next value index.
        next: usize,
        /// Body of the current iteration.
        current: Rc<str>,
        /// Where the `.irp`/`.irpc` is.
        at: SourcePos,
    },
    /// `.for`.
    For {
        /// Loop symbol.
        sym: String,
        /// Condition text.
        cond: String,
        /// Next-value text.
        next: String,
        /// Where the `.for` is.
        at: SourcePos,
        /// Iterations run.
        count: u64,
    },
    /// `.while`.
    While {
        /// Condition text.
        cond: String,
        /// Where the `.while` is.
        at: SourcePos,
        /// Iterations run.
        count: u64,
    },
    /// Finished (placeholder while the state is taken out).
    Done,
}

fn is_word(bytes: &[u8], p: usize) -> bool {
    bytes
        .get(p)
        .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$')
}

/// Substitutes `\param`, `\@` and `\()` in `body` (and bare parameter names
/// in alternate macro mode), appending to `out`; false (with `out` cut
/// short) as soon as `out` would grow past `limit` bytes.
pub fn substitute(
    body: &str,
    params: &[(&str, &str)],
    counter: u64,
    alt: bool,
    out: &mut String,
    limit: usize,
) -> bool {
    // Many parameters are looked up by hashing, a few by a scan.
    let map: Option<FxMap<&str, &str>> =
        (params.len() > 8).then(|| params.iter().rev().copied().collect());
    let lookup = |name: &str| -> Option<&str> {
        match &map {
            Some(map) => map.get(name).copied(),
            None => params.iter().find(|(n, _)| *n == name).map(|(_, v)| *v),
        }
    };
    let push = |out: &mut String, s: &str| -> bool {
        if out.len() + s.len() > limit {
            return false;
        }
        out.push_str(s);
        true
    };
    let bytes = body.as_bytes();
    let mut i = 0;
    let mut run = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\\' {
            match bytes.get(i + 1) {
                Some(b'@') => {
                    if !push(out, &body[run..i]) || !push(out, &counter.to_string()) {
                        return false;
                    }
                    i += 2;
                    run = i;
                    continue;
                }
                Some(b'(') if bytes.get(i + 2) == Some(&b')') => {
                    if !push(out, &body[run..i]) {
                        return false;
                    }
                    i += 3;
                    run = i;
                    continue;
                }
                _ => {}
            }
            let mut j = i + 1;
            while is_word(bytes, j) {
                j += 1;
            }
            if j > i + 1 {
                let name = &body[i + 1..j];
                if let Some(v) = lookup(name) {
                    if !push(out, &body[run..i]) || !push(out, v) {
                        return false;
                    }
                    i = j;
                    run = i;
                    continue;
                }
            }
            i = (i + 2).min(bytes.len());
            while !body.is_char_boundary(i) {
                i += 1;
            }
            continue;
        }
        if alt
            && (b.is_ascii_alphabetic() || b == b'_')
            && (i == 0 || !is_symbol_char(bytes[i - 1]))
        {
            let mut j = i + 1;
            while is_word(bytes, j) {
                j += 1;
            }
            let name = &body[i..j];
            if !is_symbol_char(*bytes.get(j).unwrap_or(&b' ')) || j == bytes.len() {
                if let Some(v) = lookup(name) {
                    if !push(out, &body[run..i]) || !push(out, v) {
                        return false;
                    }
                    run = j;
                }
            }
            i = j;
            continue;
        }
        i += 1;
    }
    push(out, &body[run..])
}

impl Assembler<'_> {
    fn source_line_of(&self, at: usize) -> u32 {
        self.pos_at(at).line
    }

    /// Records one statement of a body, or ends the body.
    pub fn collect_statement(&mut self, line: &str, s: usize, e: usize) {
        let text = &line[..e];
        let bytes = text.as_bytes();
        let mut p = skip_spaces(bytes, s);
        // Skip labels to find the first word.
        let mut word = None;
        while let Some(end) = scan_symbol(bytes, p).or_else(|| {
            let mut q = p;
            while q < e && bytes[q].is_ascii_digit() {
                q += 1;
            }
            (q > p).then_some(q)
        }) {
            let r = skip_spaces(bytes, end);
            if bytes.get(r) == Some(&b':') && bytes.get(r + 1) != Some(&b':') {
                p = skip_spaces(bytes, r + 1);
                continue;
            }
            word = Some((p, end));
            break;
        }
        let is_macro = self.collect.as_ref().is_some_and(|c| c.is_macro());
        if let Some((ws, we)) = word {
            let lower = text[ws..we].to_ascii_lowercase();
            let (opens, closes) = if is_macro {
                (lower == ".macro", lower == ".endm" || lower == ".endmacro")
            } else {
                (
                    matches!(
                        lower.as_str(),
                        ".rept" | ".irp" | ".irpc" | ".for" | ".while"
                    ),
                    lower == ".endr" || lower == ".endrept",
                )
            };
            if opens {
                if let Some(c) = &mut self.collect {
                    c.depth += 1;
                }
            } else if closes {
                let done = match &mut self.collect {
                    Some(c) if c.depth == 0 => true,
                    Some(c) => {
                        c.depth -= 1;
                        false
                    }
                    None => false,
                };
                if done {
                    self.expect_end(text, we);
                    if let Some(c) = self.collect.take() {
                        self.finish_collect(c);
                    }
                    return;
                }
            }
        }
        let line_no = self.source_line_of(s);
        if let Some(c) = &mut self.collect {
            if c.body.len() + e - s > 1 << 26 {
                self.error(s, "body too large");
                self.collect = None;
                return;
            }
            c.body.push_str(&text[s..e]);
            c.body.push('\n');
            c.lines.push(line_no);
        }
    }

    fn start_collect(&mut self, kind: CollectKind, at: usize) {
        let start = self.pos_at(at);
        self.collect = Some(Collect {
            kind,
            depth: 0,
            body: String::new(),
            lines: Vec::new(),
            file: start.file.clone(),
            start,
            frame_level: self.frames.len(),
        });
    }

    fn finish_collect(&mut self, c: Collect) {
        let body: Rc<str> = Rc::from(c.body);
        let lines: Rc<[u32]> = Rc::from(c.lines);
        match c.kind {
            CollectKind::Macro { name, params } => {
                let key = self.macro_key(&name);
                if self.macros.contains_key(key.as_str()) {
                    self.diag_at(c.start, format!("macro '{name}' is already defined"), true);
                    return;
                }
                let mut param_index = FxMap::default();
                for (i, p) in params.iter().enumerate() {
                    param_index.entry(p.name.clone()).or_insert(i);
                }
                self.macros.insert(
                    key.into(),
                    Rc::new(Macro {
                        params,
                        param_index,
                        body,
                        lines,
                        file: c.file,
                    }),
                );
            }
            CollectKind::Rept(n) => {
                if n > 0 {
                    self.push_repeat(body, lines, c.file, c.start, RepeatState::Rept(n - 1));
                }
            }
            CollectKind::Irp(param, values) => {
                let mut state = RepeatState::Irp {
                    body: body.clone(),
                    param,
                    values,
                    next: 0,
                    current: body.clone(),
                    at: c.start.clone(),
                };
                let below = self.expanded_below(self.frames.len());
                if self.next_iteration(&mut state, below) {
                    let current = match &state {
                        RepeatState::Irp { current, .. } => current.clone(),
                        _ => body,
                    };
                    self.push_repeat(current, lines, c.file, c.start, state);
                }
            }
            CollectKind::For { sym, cond, next } => {
                let at = c.start.clone();
                if self.loop_condition(&cond, &at) {
                    let state = RepeatState::For {
                        sym,
                        cond,
                        next,
                        at,
                        count: 0,
                    };
                    self.push_repeat(body, lines, c.file, c.start, state);
                }
            }
            CollectKind::While(cond) => {
                let at = c.start.clone();
                if self.loop_condition(&cond, &at) {
                    let state = RepeatState::While { cond, at, count: 0 };
                    self.push_repeat(body, lines, c.file, c.start, state);
                }
            }
        }
    }

    fn push_repeat(
        &mut self,
        text: Rc<str>,
        lines: Rc<[u32]>,
        file: Arc<str>,
        at: SourcePos,
        state: RepeatState,
    ) {
        if self.frames.len() >= MAX_FRAMES {
            self.diag_at(at, "repetitions nested too deeply".into(), true);
            return;
        }
        // A repetition's text (a recorded body, an .irp iteration) counts
        // as expanded text: nested bodies are copies of their outer ones.
        let expanded = self.expanded_below(self.frames.len()) + text.len();
        if expanded > MAX_EXPANSION_BYTES {
            let msg = format!(
                "the repetition would exceed the expansion limit of {} MiB of open macro and repetition text",
                MAX_EXPANSION_BYTES >> 20
            );
            self.diag_at(at, msg, true);
            return;
        }
        self.frames.push(Frame {
            text,
            pos: 0,
            line: 0,
            file,
            line_map: Some(lines),
            col_offset: 0,
            dir: None,
            invoked_at: Some(at),
            cond_depth: self.conds.len(),
            expanded,
            kind: FrameKind::Repeat(Box::new(state)),
        });
    }

    /// Evaluates a `.for`/`.while` condition given as text.
    fn loop_condition(&mut self, cond: &str, at: &SourcePos) -> bool {
        let mut pos = 0;
        match self.parse_expression(cond, &mut pos, true) {
            Ok(Some(v)) if v.section.is_none() => {
                if skip_spaces(cond.as_bytes(), pos) < cond.len() {
                    self.diag_at(
                        at.clone(),
                        "unexpected text after the condition".into(),
                        true,
                    );
                    return false;
                }
                v.value != 0
            }
            Ok(Some(_)) => {
                self.diag_at(at.clone(), "condition must be absolute".into(), true);
                false
            }
            Ok(None) => {
                self.diag_at(at.clone(), "condition uses undefined symbols".into(), true);
                false
            }
            Err(e) => {
                self.diag_at(at.clone(), e.message, true);
                false
            }
        }
    }

    /// Sets a symbol to the value of `expr` text (`.for` steps).
    fn loop_assign(&mut self, sym: &str, expr: &str, at: &SourcePos) -> bool {
        let mut pos = 0;
        match self.parse_expression(expr, &mut pos, true) {
            Ok(Some(_)) if skip_spaces(expr.as_bytes(), pos) < expr.len() => {
                // Without this, `x 𝕏 1` would assign `x` and loop until the
                // iteration limit.
                self.diag_at(at.clone(), "unexpected text after the step".into(), true);
                false
            }
            Ok(Some(v)) => {
                let id = self.syms.definition_target(sym);
                let id = if self.syms.get(id).captured {
                    self.syms.fresh_definition_target(sym)
                } else {
                    id
                };
                let s = self.syms.get_mut(id);
                s.state = SymState::Known(v);
                s.kind = SymKind::Plain;
                true
            }
            Ok(None) => {
                self.diag_at(at.clone(), "expression uses undefined symbols".into(), true);
                false
            }
            Err(e) => {
                self.diag_at(at.clone(), e.message, true);
                false
            }
        }
    }

    /// Prepares the next iteration of a repetition; false when it is over
    /// (or its text would pass [`MAX_EXPANSION_BYTES`] with the `below`
    /// bytes of expanded text open under it).
    pub fn next_iteration(&mut self, state: &mut RepeatState, below: usize) -> bool {
        match state {
            RepeatState::Rept(n) => {
                if *n == 0 {
                    return false;
                }
                *n -= 1;
                true
            }
            RepeatState::Irp {
                body,
                param,
                values,
                next,
                current,
                at,
            } => {
                if *next >= values.len() {
                    return false;
                }
                let mut out = String::with_capacity(body.len() + 16);
                if !substitute(
                    body,
                    &[(param.as_str(), values[*next].as_str())],
                    self.macro_counter,
                    self.alt_macro,
                    &mut out,
                    MAX_EXPANSION_BYTES.saturating_sub(below),
                ) {
                    let msg = format!(
                        "an iteration of .irp/.irpc would exceed the expansion limit of {} MiB of open macro and repetition text",
                        MAX_EXPANSION_BYTES >> 20
                    );
                    self.diag_at(at.clone(), msg, true);
                    return false;
                }
                *current = Rc::from(out);
                *next += 1;
                true
            }
            RepeatState::For {
                sym,
                cond,
                next,
                at,
                count,
            } => {
                *count += 1;
                if *count >= MAX_ITERATIONS {
                    self.diag_at(at.clone(), "too many iterations of .for".into(), true);
                    return false;
                }
                let (sym, cond, next, at) = (sym.clone(), cond.clone(), next.clone(), at.clone());
                self.loop_assign(&sym, &next, &at) && self.loop_condition(&cond, &at)
            }
            RepeatState::While { cond, at, count } => {
                *count += 1;
                if *count >= MAX_ITERATIONS {
                    self.diag_at(at.clone(), "too many iterations of .while".into(), true);
                    return false;
                }
                let (cond, at) = (cond.clone(), at.clone());
                self.loop_condition(&cond, &at)
            }
            RepeatState::Done => false,
        }
    }

    fn macro_key(&self, name: &str) -> String {
        if self.macro_case {
            name.to_ascii_lowercase()
        } else {
            name.to_string()
        }
    }

    /// `.macro NAME[,] PARAMS…`
    pub fn pseudo_macro(&mut self, text: &str, start: usize, p: usize) {
        let bytes = text.as_bytes();
        let q = skip_spaces(bytes, p);
        let Some(name_end) = scan_symbol(bytes, q) else {
            self.error(q, "expected a macro name");
            return;
        };
        let name = text[q..name_end].to_string();
        let mut params: Vec<MacroParam> = Vec::new();
        let mut names: rustc_hash::FxHashSet<&str> = rustc_hash::FxHashSet::default();
        let mut p = skip_spaces(bytes, name_end);
        if bytes.get(p) == Some(&b',') {
            p += 1;
        }
        loop {
            p = skip_spaces(bytes, p);
            if p >= text.len() {
                break;
            }
            let ps = p;
            while is_word(bytes, p) {
                p += 1;
            }
            if p == ps {
                self.error(p, "expected a parameter name");
                return;
            }
            let p_name_end = p;
            let mut param = MacroParam {
                name: text[ps..p].to_string(),
                default: None,
                required: false,
                vararg: false,
            };
            loop {
                let r = skip_spaces(bytes, p);
                if bytes.get(r) == Some(&b':') {
                    let ks = skip_spaces(bytes, r + 1);
                    let mut ke = ks;
                    while is_word(bytes, ke) {
                        ke += 1;
                    }
                    match text[ks..ke].to_ascii_lowercase().as_str() {
                        "req" => param.required = true,
                        "vararg" => param.vararg = true,
                        _ => {
                            self.error(ks, "expected 'req' or 'vararg'");
                            return;
                        }
                    }
                    p = ke;
                } else if bytes.get(r) == Some(&b'=') {
                    let vs = skip_spaces(bytes, r + 1);
                    let ve = arg_end(bytes, vs);
                    param.default = Some(text[vs..ve].to_string());
                    p = ve;
                } else {
                    break;
                }
            }
            if !names.insert(&text[ps..p_name_end]) {
                self.error(ps, format!("duplicate macro parameter '{}'", param.name));
                return;
            }
            if params.last().is_some_and(|x| x.vararg) {
                self.error(ps, "the vararg parameter must be the last one");
                return;
            }
            params.push(param);
            p = skip_spaces(bytes, p);
            if bytes.get(p) == Some(&b',') {
                p += 1;
            }
        }
        self.start_collect(CollectKind::Macro { name, params }, start);
    }

    /// `.purgem NAME`
    pub fn pseudo_purgem(&mut self, text: &str, p: usize) {
        let bytes = text.as_bytes();
        let q = skip_spaces(bytes, p);
        let Some(end) = scan_symbol(bytes, q) else {
            self.error(q, "expected a macro name");
            return;
        };
        let key = self.macro_key(&text[q..end]);
        if self.macros.remove(key.as_str()).is_none() {
            self.error(q, format!("macro '{}' is not defined", &text[q..end]));
        }
        self.expect_end(text, end);
    }

    /// `.exitm`
    pub fn pseudo_exitm(&mut self, at: usize) {
        let Some(index) = self
            .frames
            .iter()
            .rposition(|f| matches!(f.kind, FrameKind::Macro))
        else {
            self.error(at, ".exitm outside of a macro");
            return;
        };
        let depth = self.frames[index].cond_depth;
        self.frames.truncate(index);
        self.conds.truncate(depth);
    }

    /// Expands macro `name` if one is defined; false otherwise.
    pub fn try_macro(&mut self, text: &str, start: usize, end: usize) -> bool {
        let name = &text[start..end];
        let found = if self.macro_case {
            let mut buf = [0u8; 64];
            if name.len() <= buf.len() {
                let lower = &mut buf[..name.len()];
                lower.copy_from_slice(name.as_bytes());
                lower.make_ascii_lowercase();
                std::str::from_utf8(lower)
                    .ok()
                    .and_then(|l| self.macros.get(l).cloned())
            } else {
                self.macros.get(name.to_ascii_lowercase().as_str()).cloned()
            }
        } else {
            self.macros.get(name).cloned()
        };
        let Some(m) = found else {
            return false;
        };
        self.expand_macro(&m, text, start, end);
        true
    }

    fn expand_macro(&mut self, m: &Macro, text: &str, start: usize, end: usize) {
        let depth = self
            .frames
            .iter()
            .filter(|f| matches!(f.kind, FrameKind::Macro))
            .count();
        if depth >= MAX_MACRO_DEPTH || self.frames.len() >= MAX_FRAMES {
            self.error(start, "macro expansion nested too deeply (recursion?)");
            return;
        }
        let bytes = text.as_bytes();
        let mut values: Vec<Option<String>> = vec![None; m.params.len()];
        let mut p = skip_spaces(bytes, end);
        let mut index = 0;
        if p < text.len() {
            loop {
                p = skip_spaces(bytes, p);
                // keyword argument `name=value`
                let mut target = index;
                let mut ws = p;
                while is_word(bytes, ws) {
                    ws += 1;
                }
                if ws > p && bytes.get(ws) == Some(&b'=') && bytes.get(ws + 1) != Some(&b'=') {
                    if let Some(&k) = m.param_index.get(&text[p..ws]) {
                        target = k;
                        p = ws + 1;
                    }
                } else {
                    index += 1;
                }
                let Some(param) = m.params.get(target) else {
                    self.error(p, "too many arguments for the macro");
                    return;
                };
                let (value, q) = if param.vararg {
                    (text[p..].trim_end().to_string(), text.len())
                } else {
                    let q = arg_end(bytes, p);
                    (text[p..q].to_string(), q)
                };
                let value = match self.macro_arg_value(&value, p) {
                    Some(v) => v,
                    None => return,
                };
                values[target] = Some(value);
                p = skip_spaces(bytes, q);
                if p >= text.len() {
                    break;
                }
                if bytes[p] == b',' {
                    p = skip_spaces(bytes, p + 1);
                    if p >= text.len() {
                        break;
                    }
                }
            }
        }
        let mut bound: Vec<(&str, &str)> = Vec::with_capacity(m.params.len());
        for (param, value) in m.params.iter().zip(values.iter()) {
            let v = match value {
                Some(v) if !v.is_empty() => v.as_str(),
                _ => match &param.default {
                    Some(d) => d.as_str(),
                    None if param.required => {
                        self.error(
                            start,
                            format!(
                                "missing value for required macro parameter '{}'",
                                param.name
                            ),
                        );
                        return;
                    }
                    None => "",
                },
            };
            bound.push((param.name.as_str(), v));
        }
        let below = self.expanded_below(self.frames.len());
        let limit = MAX_EXPANSION_BYTES.saturating_sub(below);
        let too_large = |asm: &mut Self| {
            let msg = format!(
                "expansion of macro '{}' would exceed the expansion limit of {} MiB of open macro and repetition text",
                &text[start..end],
                MAX_EXPANSION_BYTES >> 20
            );
            asm.error(start, msg);
        };
        let mut out = String::with_capacity(m.body.len().min(limit) + 64);
        if !substitute(
            &m.body,
            &bound,
            self.macro_counter,
            self.alt_macro,
            &mut out,
            limit,
        ) {
            return too_large(self);
        }
        if self.alt_macro {
            match self.alt_locals(out, limit) {
                Some(o) => out = o,
                None => return too_large(self),
            }
        }
        let expanded = below + out.len();
        self.macro_counter += 1;
        let invoked_at = self.pos_at(start);
        self.frames.push(Frame {
            text: Rc::from(out),
            pos: 0,
            line: 0,
            file: m.file.clone(),
            line_map: Some(m.lines.clone()),
            col_offset: 0,
            dir: None,
            invoked_at: Some(invoked_at),
            cond_depth: self.conds.len(),
            kind: FrameKind::Macro,
            expanded,
        });
    }

    /// Alternate mode `local NAME, …`: the statement is dropped and every
    /// later use of the names gets a name unique to this expansion; `None`
    /// when the result would be longer than `limit` bytes.
    fn alt_locals(&mut self, body: String, limit: usize) -> Option<String> {
        let mut names: Vec<String> = Vec::new();
        let mut kept = String::with_capacity(body.len());
        for line in body.split_inclusive('\n') {
            let t = line.trim_start();
            if t.len() > 6 && t.is_char_boundary(6) && t[..6].eq_ignore_ascii_case("local ") {
                names.extend(
                    t[6..]
                        .split(',')
                        .map(|n| n.trim().to_string())
                        .filter(|n| !n.is_empty()),
                );
                kept.push('\n');
            } else {
                kept.push_str(line);
            }
        }
        if names.is_empty() {
            return Some(kept);
        }
        let unique: Vec<String> = (0..names.len())
            .map(|i| format!(".LL{}_{}", self.macro_counter, i))
            .collect();
        let pairs: Vec<(&str, &str)> = names
            .iter()
            .map(String::as_str)
            .zip(unique.iter().map(String::as_str))
            .collect();
        let mut out = String::with_capacity(kept.len() + 16);
        substitute(&kept, &pairs, self.macro_counter, true, &mut out, limit).then_some(out)
    }

    /// Processes `\%expr`, `%expr` (alternate mode) and `<…>` quoting in
    /// an argument.
    fn macro_arg_value(&mut self, value: &str, at: usize) -> Option<String> {
        let expr = value.strip_prefix("\\%").or_else(|| {
            if self.alt_macro {
                value.strip_prefix('%')
            } else {
                None
            }
        });
        if let Some(expr) = expr {
            let mut pos = 0;
            return match self.parse_expression(expr, &mut pos, true) {
                Ok(Some(v)) if v.section.is_none() => Some(v.value.to_string()),
                Ok(_) => {
                    self.error(at, "macro argument expression must be absolute and defined");
                    None
                }
                Err(e) => {
                    self.error(at, e.message);
                    None
                }
            };
        }
        if self.alt_macro {
            if value.len() >= 2 && value.starts_with('<') && value.ends_with('>') {
                let inner = &value[1..value.len() - 1];
                let mut s = String::with_capacity(inner.len());
                let mut chars = inner.chars();
                while let Some(c) = chars.next() {
                    if c == '!' {
                        if let Some(n) = chars.next() {
                            s.push(n);
                        }
                    } else {
                        s.push(c);
                    }
                }
                return Some(s);
            }
            for q in ['"', '\''] {
                if value.len() >= 2 && value.starts_with(q) && value.ends_with(q) {
                    return Some(value[1..value.len() - 1].replace("!", ""));
                }
            }
        }
        Some(value.to_string())
    }

    /// `.rept COUNT`
    pub fn pseudo_rept(&mut self, text: &str, start: usize, p: usize) {
        let mut q = p;
        let count = self.abs_expr(text, &mut q).unwrap_or(0);
        self.expect_end(text, q);
        if count > MAX_REPEAT {
            self.error(p, format!("repeat count {count} is too large"));
        }
        let n = if (0..=MAX_REPEAT).contains(&count) {
            count as u64
        } else {
            0
        };
        self.start_collect(CollectKind::Rept(n), start);
    }

    /// `.irp NAME, VALUES…` and `.irpc NAME, CHARS`
    pub fn pseudo_irp(&mut self, text: &str, start: usize, p: usize, chars: bool) {
        let bytes = text.as_bytes();
        let q = skip_spaces(bytes, p);
        let mut e = q;
        while is_word(bytes, e) {
            e += 1;
        }
        if e == q {
            self.error(q, "expected a parameter name");
            self.start_collect(CollectKind::Rept(0), start);
            return;
        }
        let param = text[q..e].to_string();
        let mut p = skip_spaces(bytes, e);
        if bytes.get(p) == Some(&b',') {
            p = skip_spaces(bytes, p + 1);
        }
        let mut values = Vec::new();
        if chars {
            let rest = text[p..].trim_end();
            for c in rest.chars() {
                values.push(c.to_string());
            }
        } else {
            while p < text.len() {
                let q = arg_end(bytes, p);
                values.push(text[p..q].to_string());
                p = skip_spaces(bytes, q);
                if bytes.get(p) == Some(&b',') {
                    p = skip_spaces(bytes, p + 1);
                    if p >= text.len() {
                        values.push(String::new());
                    }
                }
            }
            if values.is_empty() {
                values.push(String::new());
            }
        }
        self.start_collect(CollectKind::Irp(param, values), start);
    }

    /// `.for SYM = INIT, COND, NEXT`
    pub fn pseudo_for(&mut self, text: &str, start: usize, p: usize) {
        let bytes = text.as_bytes();
        let q = skip_spaces(bytes, p);
        let fail = |asm: &mut Self| asm.start_collect(CollectKind::Rept(0), start);
        let Some(sym_end) = scan_symbol(bytes, q) else {
            self.error(q, "expected a symbol name");
            return fail(self);
        };
        let sym = text[q..sym_end].to_string();
        let r = skip_spaces(bytes, sym_end);
        if bytes.get(r) != Some(&b'=') {
            self.error(r, "expected '='");
            return fail(self);
        }
        let mut pos = r + 1;
        let init = match self.parse_expression(text, &mut pos, true) {
            Ok(Some(v)) => v,
            Ok(None) => {
                self.error(r + 1, "initial value uses undefined symbols");
                return fail(self);
            }
            Err(e) => {
                self.error(e.at, e.message);
                return fail(self);
            }
        };
        let parts: Vec<&str> = split_top_level(&text[pos..]);
        if parts.len() != 3 || !parts[0].trim().is_empty() {
            self.error(pos, "expected ', CONDITION, NEXT'");
            return fail(self);
        }
        self.define_symbol(&sym, q, SymState::Known(init), SymKind::Plain);
        let (cond, next) = (parts[1].trim().to_string(), parts[2].trim().to_string());
        self.start_collect(CollectKind::For { sym, cond, next }, start);
    }

    /// `.while COND`
    pub fn pseudo_while(&mut self, text: &str, start: usize, p: usize) {
        let cond = text[p..].trim().to_string();
        self.start_collect(CollectKind::While(cond), start);
    }
}

/// End of one macro argument starting at `p`: at a top-level `,` or space.
pub fn arg_end(bytes: &[u8], mut p: usize) -> usize {
    let mut depth = 0i32;
    while p < bytes.len() {
        match bytes[p] {
            b'"' => {
                p += 1;
                while p < bytes.len() && bytes[p] != b'"' {
                    if bytes[p] == b'\\' {
                        p += 1;
                    }
                    p += 1;
                }
            }
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'<' if depth == 0 && p + 1 < bytes.len() => {
                // `<…>` quoting (alternate mode); harmless otherwise as
                // long as it closes.
                if let Some(close) = bytes[p..].iter().position(|&b| b == b'>') {
                    if !bytes[p + 1..p + close].contains(&b',') {
                        p += close;
                    }
                }
            }
            b',' | b' ' | b'\t' if depth <= 0 => return p,
            _ => {}
        }
        p += 1;
    }
    p.min(bytes.len())
}

/// Splits at commas outside parentheses and quotes.
fn split_top_level(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut i = 0;
    let mut in_str = false;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => in_str = !in_str,
            b'\\' if in_str => i += 1,
            b'(' if !in_str => depth += 1,
            b')' if !in_str => depth -= 1,
            b',' if !in_str && depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(&text[start.min(text.len())..]);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substitution_forms() {
        let mut out = String::new();
        substitute(
            ".set \\x\\()Sym, \\@ \\y \\zz",
            &[("x", "L"), ("y", "2")],
            7,
            false,
            &mut out,
            usize::MAX,
        );
        assert_eq!(out, ".set LSym, 7 2 \\zz");
        out.clear();
        substitute(
            ".int a, b, ab",
            &[("a", "1"), ("b", "2")],
            0,
            true,
            &mut out,
            usize::MAX,
        );
        assert_eq!(out, ".int 1, 2, ab");
    }

    #[test]
    fn argument_ends() {
        assert_eq!(arg_end(b"1,2", 0), 1);
        assert_eq!(arg_end(b"f(1, 2) x", 0), 7);
        assert_eq!(arg_end(b"\"a b\",c", 0), 5);
        assert_eq!(split_top_level(",x<3,x+1").len(), 3);
    }
}
