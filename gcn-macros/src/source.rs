//! Recovering assembly source text from Rust tokens (input form 1).
//!
//! The Rust lexer has already split the kernel into tokens and dropped the
//! `//` and `/* */` comments; every token still knows its line and column.
//! Laying the tokens out again at those positions gives back the lines of
//! the original text (statement boundaries are line boundaries in CLRX
//! syntax), and a table from positions to spans lets every assembler
//! diagnostic point at the token it is about.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};

/// One token of the recovered text.
struct Placed {
    /// 1-based line in the recovered text.
    line: u32,
    /// 1-based first and one-past-last columns in the recovered text.
    columns: (u32, u32),
    span: Span,
    /// The token as written.
    text: String,
    /// Where the span says the token starts (line, column).
    start: (usize, usize),
}

/// Assembly text rebuilt from tokens, with the way back to spans.
pub struct TokenSource {
    /// The text, one assembly line per source line.
    pub text: String,
    placed: Vec<Placed>,
    /// Span of the whole macro input, for positions past the last token.
    whole: Span,
}

impl TokenSource {
    /// Lays out `tokens` at their source positions.
    pub fn new(tokens: TokenStream, whole: Span) -> Self {
        let mut out = TokenSource {
            text: String::new(),
            placed: Vec::new(),
            whole,
        };
        let mut layout = Layout {
            first_line: None,
            line: 1,
            column: 0,
        };
        out.walk(tokens, &mut layout);
        out
    }

    /// True when the spans carry no positions: rust-analyzer's proc-macro
    /// server gives every span line 1, column 1, so the lines cannot be
    /// recovered (the text above is then one line of everything). Detected
    /// as two or more tokens that all start at the same place, which
    /// tokens of real source never do.
    pub fn positionless(&self) -> bool {
        self.placed.len() >= 2 && self.placed.iter().all(|p| p.start == self.placed[0].start)
    }

    /// For [`positionless`](Self::positionless) input: a source holding only
    /// what the items `gcn_kernel!` emits depend on — the format and target
    /// (`.gallium`, `.rawcode`, `.32bit`, `.64bit`, `.gpu`, `.arch`; for
    /// ROCm `.rocm`, `.llvm10binfmt`, `.metadatav3`, `.newbinfmt`,
    /// `.md_version`, `.eflags`, `.arch_minor`, `.arch_stepping`), each
    /// `.kernel` with its `.args` (every `.arg`) and an empty `.config`, and a
    /// one-instruction body per kernel — so that names and argument types
    /// are right for the editor while the code is not assembled.
    /// Statements are found without lines: a pseudo-op starts at `.`
    /// followed by a name, and runs to the next such pair.
    pub fn declarations(&self) -> String {
        let tokens: Vec<&str> = self.placed.iter().map(|p| p.text.as_str()).collect();
        let is_name = |t: &str| t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
        let starts = |i: usize| tokens[i] == "." && tokens.get(i + 1).is_some_and(|t| is_name(t));
        let mut out = String::new();
        let mut kernels = Vec::new();
        // ROCm: code object v2 wants each kernel's 256-byte
        // amd_kernel_code_t at its label, v3+ (`.llvm10binfmt`) a 64-byte
        // descriptor per kernel in `.globaldata`.
        let (mut rocm, mut llvm10) = (false, false);
        let mut i = 0;
        while i < tokens.len() {
            if !starts(i) {
                i += 1;
                continue;
            }
            let op = tokens[i + 1].to_ascii_lowercase();
            let mut end = i + 2;
            while end < tokens.len() && !starts(end) {
                end += 1;
            }
            let operands = &tokens[i + 2..end];
            match op.as_str() {
                "gallium" | "rawcode" | "32bit" | "64bit" | "args" | "rocm" | "llvm10binfmt"
                | "metadatav3" | "newbinfmt" => {
                    rocm |= op == "rocm";
                    llvm10 |= op == "llvm10binfmt";
                    out.push_str(&format!(".{op}\n"));
                }
                // Numbers: `1, 0`; `.eflags` names the code object's
                // processor, which reading it back needs.
                "md_version" | "eflags" | "arch_minor" | "arch_stepping" => {
                    out.push_str(&format!(".{op} {}\n", operands.join(" ")))
                }
                // One word each (`gcn1.2` arrives as `gcn1` `.2`).
                "gpu" | "arch" => out.push_str(&format!(".{op} {}\n", operands.concat())),
                "kernel" => {
                    let name = operands.concat();
                    out.push_str(&format!(".kernel {name}\n.config\n"));
                    kernels.push(name);
                }
                "arg" => out.push_str(&format!(".arg {}\n", operands.join(" "))),
                _ => {}
            }
            i = end;
        }
        if rocm && llvm10 && !kernels.is_empty() {
            out.push_str(&format!(".globaldata\n.skip {}\n", 64 * kernels.len()));
        }
        out.push_str(".text\n");
        for name in kernels {
            if rocm && !llvm10 {
                out.push_str(&format!("{name}:\n.skip 256\ns_endpgm\n"));
            } else {
                out.push_str(&format!("{name}: s_endpgm\n"));
            }
        }
        out
    }

    fn walk(&mut self, tokens: TokenStream, layout: &mut Layout) {
        let mut iter = tokens.into_iter().peekable();
        while let Some(tree) = iter.next() {
            match tree {
                TokenTree::Group(group) => {
                    let (open, close) = match group.delimiter() {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Brace => ("{", "}"),
                        Delimiter::Bracket => ("[", "]"),
                        Delimiter::None => ("", ""),
                    };
                    if !open.is_empty() {
                        self.place(open, group.span_open(), layout);
                    }
                    self.walk(group.stream(), layout);
                    if !close.is_empty() {
                        self.place(close, group.span_close(), layout);
                    }
                }
                TokenTree::Punct(p) if p.as_char() == '#' => {
                    // `///` doc comments arrive as `#[doc = "…"]`: they are
                    // comments, not assembly.
                    if let Some(TokenTree::Group(g)) = iter.peek() {
                        let is_doc = g.delimiter() == Delimiter::Bracket
                            && g.stream().into_iter().next().is_some_and(
                                |t| matches!(t, TokenTree::Ident(ref i) if i == "doc"),
                            );
                        if is_doc {
                            iter.next();
                            continue;
                        }
                    }
                    self.place("#", p.span(), layout);
                }
                other => {
                    let text = other.to_string();
                    self.place(&text, other.span(), layout);
                }
            }
        }
    }

    /// Appends `text` at the position of `span`.
    fn place(&mut self, text: &str, span: Span, layout: &mut Layout) {
        let start = span.start();
        let first_line = *layout.first_line.get_or_insert(start.line);
        let line = (start.line.saturating_sub(first_line) + 1) as u32;
        if line > layout.line {
            for _ in layout.line..line {
                self.text.push('\n');
            }
            layout.line = line;
            layout.column = 0;
        } else if layout.column > start.column && layout.column > 0 {
            // Tokens from a macro_rules! expansion may share positions:
            // keep them apart.
            self.text.push(' ');
            layout.column += 1;
        }
        while layout.column < start.column {
            self.text.push(' ');
            layout.column += 1;
        }
        let begin = layout.column as u32 + 1;
        self.text.push_str(text);
        match text.rfind('\n') {
            Some(nl) => {
                layout.line += text.matches('\n').count() as u32;
                layout.column = text[nl + 1..].chars().count();
            }
            None => layout.column += text.chars().count(),
        }
        self.placed.push(Placed {
            line,
            columns: (begin, layout.column as u32 + 1),
            span,
            text: text.to_string(),
            start: (start.line, start.column),
        });
    }

    /// The span of the token at 1-based `line`:`column` of the text (the
    /// token that contains it, else the next one on that line, else the last
    /// one before it).
    pub fn span_at(&self, line: u32, column: u32) -> Span {
        let on_line = self.placed.iter().filter(|p| p.line == line);
        if let Some(p) = on_line
            .clone()
            .find(|p| p.columns.0 <= column && column < p.columns.1)
            .or_else(|| on_line.clone().find(|p| p.columns.0 >= column))
            .or_else(|| on_line.clone().next_back())
        {
            return p.span;
        }
        self.placed
            .iter()
            .rev()
            .find(|p| p.line < line)
            .map_or(self.whole, |p| p.span)
    }
}

impl TokenSource {
    /// The first and last token of the operand at `line`:`column`: from
    /// the token there, the tokens that follow without a space (and all
    /// of a bracket or parenthesis opened among them), up to a `,` —
    /// `s[13:14]`, `-v1`, `abs(v2)`, `k::out/4`.
    pub fn operand_at(&self, line: u32, column: u32) -> (Span, Span) {
        let first = self.span_at(line, column);
        let Some(start) = self
            .placed
            .iter()
            .position(|p| p.line == line && p.columns.0 <= column && column < p.columns.1)
        else {
            return (first, first);
        };
        let mut depth = 0usize;
        let mut last = start;
        for (i, p) in self.placed.iter().enumerate().skip(start) {
            if i > start {
                let adjacent = p.line == line && p.columns.0 == self.placed[i - 1].columns.1;
                if depth == 0 && (p.text == "," || !adjacent) || p.line != line {
                    break;
                }
            }
            match p.text.as_str() {
                "(" | "[" => depth += 1,
                ")" | "]" if depth == 0 => break,
                ")" | "]" => depth -= 1,
                _ => {}
            }
            last = i;
        }
        (first, self.placed[last].span)
    }

    /// True when line `line` holds a `#` or a quote token (`'x`): text the
    /// token form may have read differently from the assembler (a `#`
    /// comment's words are Rust tokens).
    pub fn line_has_comment_or_quote(&self, line: u32) -> bool {
        self.placed
            .iter()
            .filter(|p| p.line == line)
            .any(|p| p.text == "#" || p.text.starts_with('\''))
    }
}

struct Layout {
    first_line: Option<usize>,
    line: u32,
    column: usize,
}
