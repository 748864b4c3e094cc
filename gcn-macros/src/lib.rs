//! The `gcn_kernel!` proc macro: AMD GCN kernels written inline in Rust,
//! assembled at compile time by `gcn-asm`. Use it as
//! `gcn_runtime::gcn_kernel!` (the expansion names `::gcn_runtime` paths);
//! [`gcn_kernel!`](macro@gcn_kernel) has the full documentation, which
//! `gcn_runtime` shows inline with examples.

use std::path::PathBuf;

use proc_macro2::{Delimiter, Ident, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use syn::LitStr;

mod emit;
#[cfg(test)]
mod fuzz_tests;
mod rocm;
mod source;

use gcn_asm::{assemble, AssembleOptions, Device, Diagnostic, GcnVersion};
use source::TokenSource;

/// `gcn_kernel!`: AMD GCN kernels written inline in Rust, assembled at
/// compile time by `gcn-asm` into a GalliumCompute binary with typed
/// argument structs.
///
/// Three input forms take the whole CLRX assembler (macros, conditionals,
/// every instruction, the Gallium pseudo-ops):
///
/// 1. Rust tokens: `gcn_kernel! { .gpu tonga  s_add_u32 s1, s2, s3 }`. Line
///    structure is recovered from the token positions; use `//` and
///    `/* */` comments (`#` comments with apostrophes, `\arg` and hex
///    floats need forms 2 or 3).
/// 2. A string literal with verbatim CLRX source: `gcn_kernel!(r#"…"#)`.
/// 3. A file relative to the crate's `CARGO_MANIFEST_DIR`:
///    `gcn_kernel!(file = "kernels/vadd.s")`; `.include` resolves next to it.
///
/// Editing the file or anything it `.include`s or `.incbin`s rebuilds the
/// crate (the expansion `include_bytes!`s them). In forms 1 and 2,
/// `.include` also searches `CARGO_MANIFEST_DIR`.
///
/// Options (`gpu = "tonga"`, `arch = "gcn1.4"`) follow a literal or a file
/// as `, key = "value"`, and precede tokens as `#![gpu = "tonga"]`; `.gpu`
/// and `.arch` in the source win. Any form may start with a module header,
/// `mod NAME;` or `pub mod NAME;` (any visibility): the items are then
/// emitted inside that module instead of the calling one. (Write such a
/// call with braces, `gcn_kernel! { mod k; … }`: rustfmt rewrites
/// `mod k; "…"` inside parentheses.)
///
/// # Expansion
///
/// - `BINARY: &[u8]` — the complete GalliumCompute file, as `gcnasm -b
///   gallium` writes it (absent when the source says `.rawcode`).
/// - `CODE: &[u8]` — the machine code (`.text`).
/// - `KERNELS: &[Kernel]` — every kernel, sorted by name.
/// - `LINES: &[gcn_runtime::lines::SourceLine]` — the source position of
///   each instruction of `CODE` (the `.rs` file's line and column for the
///   token and string forms), which every `Kernel` handle carries: faults
///   and check reports cite them.
/// - Per kernel `vadd`: `VADD: gcn_runtime::kernel::Kernel` (name, code
///   offset, proginfo, argument table) and `VaddArgs`, a struct with one
///   field per user argument (`.arg NAME, TYPE, …` names it; unnamed ones
///   are `argN`, N the `.arg` index) implementing
///   `gcn_runtime::kernel::KernelArgs`. Each field's documentation gives
///   its byte offset in the kernel input buffer and, for a named
///   argument, the assembler symbol holding it (`vadd::out`; divide by 4
///   for GCN 1.0/1.1's dword SMRD offsets).
///
/// A source that says `.rocm` gives an AMDHSA code object instead:
/// `BINARY` is what `gcnasm -b rocm` writes, `KERNELS` and the per-kernel
/// items come from its metadata (read back from `BINARY`), with one field
/// per explicit argument (hidden arguments are the runtime's) typed by the
/// metadata where it says the type: by-value `float`/`double`/… as
/// `f32`/`f64`/…, global buffers of `T*` as
/// `gcn_runtime::kernel::TypedPtr<T>`, other global buffers as `DevicePtr`,
/// dynamic shared pointers as `LocalMemory`; the field's documentation
/// gives its byte offset in the kernarg segment. Value kinds the
/// emulator's HSA launch cannot pass (images, samplers, pipes, queues) are
/// compile errors at their `.arg`.
///
/// All items are `const`s and types, so they work in `const` contexts. The
/// expansion names only `::gcn_runtime` and `::core` paths. Item names are
/// fixed, so one call fills one module: put each call in its own module
/// (or use the `mod NAME;` header); a second call in the same module stops
/// with "the name `gcn_kernel_may_be_called_once_per_module` is defined
/// multiple times".
///
/// # Diagnostics
///
/// Every assembler error becomes a compile error: under the offending
/// operand in form 1; in form 2 at the literal's start, the message naming
/// the `.rs` file's `FILE:LINE:COL` of the place inside the literal; in form
/// 3 at the path, the message naming the assembly file's `FILE:LINE:COL`.
/// Macro expansions and includes add `note: in expansion from PLACE`
/// lines. All errors are reported in one build. Form 1 cannot carry what
/// Rust does not tokenize (`\arg`, apostrophes in `#` comments, hex
/// floats): use form 2 for those. Warnings
/// become `deprecated` warnings at the same place (stable Rust has no
/// other way for a proc macro to warn), e.g.
/// ``use of deprecated constant `_::gcn_kernel_warning`: 3:5: …``.
///
/// In an editor, rust-analyzer's proc-macro server gives every token the
/// same position, so form 1's lines cannot be recovered. The macro detects
/// that and emits the same items from the declarations alone (`.kernel`,
/// `.arg`, `.gpu`, …) with `CODE` and `BINARY` empty and no diagnostics, so
/// completion and type checking keep working; rustc assembles for real.
#[proc_macro]
pub fn gcn_kernel(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    match expand(input.into()) {
        Ok(tokens) | Err(tokens) => tokens.into(),
    }
}

/// Where the assembly text came from, to map diagnostics back.
enum Origin {
    Tokens(TokenSource),
    /// A string literal: its span and its source form (quotes, escapes).
    Literal {
        span: Span,
        repr: String,
    },
    File {
        path_span: Span,
        path: PathBuf,
    },
}

/// The main source's name in diagnostics of forms 1 and 2.
const MAIN_NAME: &str = "<gcn_kernel!>";

fn error(span: Span, message: &str) -> TokenStream {
    quote_spanned!(span=> ::core::compile_error!(#message);)
}

/// Reads `key = "value"` options separated by commas.
fn options(
    tokens: &mut std::iter::Peekable<proc_macro2::token_stream::IntoIter>,
    opts: &mut AssembleOptions,
) -> Result<(), TokenStream> {
    while let Some(tree) = tokens.next() {
        let key = match tree {
            TokenTree::Punct(p) if p.as_char() == ',' => continue,
            TokenTree::Ident(i) => i,
            other => {
                return Err(error(
                    other.span(),
                    "expected `gpu = \"…\"` or `arch = \"…\"`",
                ))
            }
        };
        match tokens.next() {
            Some(TokenTree::Punct(p)) if p.as_char() == '=' => {}
            _ => return Err(error(key.span(), "expected `=` after the option name")),
        }
        let value = match tokens.next() {
            Some(TokenTree::Literal(l)) => syn::parse2::<LitStr>(TokenTree::Literal(l).into())
                .map_err(|e| e.to_compile_error())?,
            other => {
                let span = other.map_or(key.span(), |t| t.span());
                return Err(error(span, "expected a string"));
            }
        };
        apply_option(&key.to_string(), &value, opts)?;
    }
    Ok(())
}

fn apply_option(key: &str, value: &LitStr, opts: &mut AssembleOptions) -> Result<(), TokenStream> {
    let text = value.value();
    match key {
        "gpu" | "device" => {
            opts.device = Some(
                Device::from_name(&text)
                    .ok_or_else(|| error(value.span(), &format!("unknown GPU device `{text}`")))?,
            );
        }
        "arch" => {
            opts.version =
                Some(GcnVersion::from_arch_name(&text).ok_or_else(|| {
                    error(value.span(), &format!("unknown architecture `{text}`"))
                })?);
        }
        other => {
            return Err(error(
                value.span(),
                &format!("unknown option `{other}` (expected `gpu` or `arch`)"),
            ))
        }
    }
    Ok(())
}

/// The optional `[VIS] mod NAME;` header: the visibility tokens and the
/// module name.
struct ModHeader {
    vis: TokenStream,
    name: Ident,
}

/// Splits a leading `[pub[(…)]] mod NAME;` off `input`.
fn mod_header(input: TokenStream) -> Result<(Option<ModHeader>, TokenStream), TokenStream> {
    let trees: Vec<TokenTree> = input.clone().into_iter().collect();
    let mut i = 0;
    let mut vis = TokenStream::new();
    if matches!(trees.first(), Some(TokenTree::Ident(id)) if id == "pub") {
        vis.extend([trees[0].clone()]);
        i = 1;
        if let Some(TokenTree::Group(g)) = trees.get(1) {
            if g.delimiter() == Delimiter::Parenthesis {
                vis.extend([trees[1].clone()]);
                i = 2;
            }
        }
    }
    match trees.get(i) {
        Some(TokenTree::Ident(m)) if m == "mod" => {}
        _ if i > 0 => {
            return Err(error(
                trees[0].span(),
                "expected `mod NAME;` after the visibility",
            ))
        }
        _ => return Ok((None, input)),
    }
    let name = match trees.get(i + 1) {
        Some(TokenTree::Ident(name)) => name.clone(),
        other => {
            let span = other.map_or(trees[i].span(), |t| t.span());
            return Err(error(span, "expected a module name after `mod`"));
        }
    };
    match trees.get(i + 2) {
        Some(TokenTree::Punct(p)) if p.as_char() == ';' => {}
        other => {
            let span = other.map_or(name.span(), |t| t.span());
            return Err(error(span, "expected `;` after `mod NAME`"));
        }
    }
    let rest = trees[i + 3..].iter().cloned().collect();
    Ok((Some(ModHeader { vis, name }), rest))
}

fn expand(input: TokenStream) -> Result<TokenStream, TokenStream> {
    let (header, input) = mod_header(input)?;
    let items = expand_items(input)?;
    Ok(match header {
        Some(ModHeader { vis, name }) => {
            let doc = format!("Kernels assembled by `gcn_kernel!` (module `{name}`).");
            quote! {
                #[doc = #doc]
                #vis mod #name {
                    #items
                }
            }
        }
        None => items,
    })
}

fn expand_items(input: TokenStream) -> Result<TokenStream, TokenStream> {
    let mut opts = AssembleOptions {
        file_name: MAIN_NAME.into(),
        // Every kernel handle carries its source lines (`LINES`).
        line_table: true,
        ..AssembleOptions::default()
    };
    let whole = Span::call_site();
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
    let mut tokens = input.clone().into_iter().peekable();
    let (text, origin) = match tokens.peek() {
        Some(TokenTree::Literal(_)) => {
            let lit = match tokens.next() {
                Some(t) => syn::parse2::<LitStr>(t.into()).map_err(|e| e.to_compile_error())?,
                None => return Err(error(whole, "expected a string literal")),
            };
            options(&mut tokens, &mut opts)?;
            let origin = Origin::Literal {
                span: lit.span(),
                repr: lit.token().to_string(),
            };
            (lit.value(), origin)
        }
        Some(TokenTree::Ident(i)) if i == "file" && is_file_form(&input) => {
            tokens.next();
            tokens.next();
            let lit = match tokens.next() {
                Some(t) => syn::parse2::<LitStr>(t.into()).map_err(|e| e.to_compile_error())?,
                None => return Err(error(whole, "expected a path after `file =`")),
            };
            options(&mut tokens, &mut opts)?;
            let path = manifest_dir.clone().unwrap_or_default().join(lit.value());
            let text = std::fs::read_to_string(&path).map_err(|e| {
                let message = format!(
                    "cannot read `{}` (relative to the crate's CARGO_MANIFEST_DIR): {e}",
                    lit.value()
                );
                error(lit.span(), &message)
            })?;
            if let Some(parent) = path.parent() {
                opts.include_dirs.push(parent.to_path_buf());
            }
            opts.file_name = lit.value();
            (
                text,
                Origin::File {
                    path_span: lit.span(),
                    path,
                },
            )
        }
        _ => {
            let mut body = TokenStream::new();
            let mut rest = input.into_iter().peekable();
            // Leading `#![key = "value"]` options.
            loop {
                let mut probe = rest.clone();
                match (probe.next(), probe.next(), probe.next()) {
                    (
                        Some(TokenTree::Punct(hash)),
                        Some(TokenTree::Punct(bang)),
                        Some(TokenTree::Group(g)),
                    ) if hash.as_char() == '#'
                        && bang.as_char() == '!'
                        && g.delimiter() == Delimiter::Bracket =>
                    {
                        let mut inner = g.stream().into_iter().peekable();
                        options(&mut inner, &mut opts)?;
                        rest = probe;
                    }
                    _ => break,
                }
            }
            body.extend(rest);
            let source = TokenSource::new(body, whole);
            (source.text.clone(), Origin::Tokens(source))
        }
    };
    if !matches!(origin, Origin::File { .. }) {
        // Forms 1 and 2 have no file of their own: `.include` looks in the
        // crate's directory.
        opts.include_dirs.extend(manifest_dir);
    }

    if let Origin::Tokens(source) = &origin {
        if source.positionless() {
            return Ok(positionless_items(source, &opts, &origin));
        }
    }

    match assemble(&text, &opts) {
        Ok(assembly) => emit::items(&assembly, &origin, false),
        Err(diagnostics) => {
            let mut out = TokenStream::new();
            for d in diagnostics.errors() {
                out.extend(report(d, &origin));
            }
            Err(out)
        }
    }
}

/// The items for token input whose spans have no positions (in an editor:
/// rust-analyzer's proc-macro server): the lines of the kernel cannot be
/// recovered, so the code is not assembled and nothing is reported.
/// Kernels and their argument structs come from the declarations alone,
/// so that completion and type checking keep working; `CODE` and `BINARY`
/// are empty (a program loaded from them fails with an error). rustc, whose
/// spans have positions, assembles for real.
fn positionless_items(
    source: &TokenSource,
    opts: &AssembleOptions,
    origin: &Origin,
) -> TokenStream {
    let declarations = source.declarations();
    assemble(&declarations, opts)
        .ok()
        .and_then(|assembly| emit::items(&assembly, origin, true).ok())
        .unwrap_or_else(emit::empty_items)
}

/// `file = "…"` (as opposed to assembly starting with a symbol `file`).
fn is_file_form(input: &TokenStream) -> bool {
    let mut it = input.clone().into_iter();
    it.next();
    matches!(
        (it.next(), it.next()),
        (Some(TokenTree::Punct(p)), Some(TokenTree::Literal(_))) if p.as_char() == '='
    )
}

/// Where a diagnostic at `d` points (the first and last token of the
/// span, the same for a single place), and its message as shown there.
///
/// - Form 1: the tokens of the operand at the diagnostic's position.
/// - Form 2: the start of the literal (rustc cannot point inside a literal
///   on stable), the message naming the place in the `.rs` file.
/// - Form 3: the path, the message naming the place in the assembly file.
///
/// Notes give where the macro or `.include` that produced the line was
/// used, as `gcnasm` prints them.
fn locate(d: &Diagnostic, origin: &Origin) -> ((Span, Span), String) {
    let mut message = match origin {
        Origin::Tokens(source) if d.pos.file.as_ref() == MAIN_NAME => {
            let mut m = d.message.clone();
            if source.line_has_comment_or_quote(d.pos.line) {
                m.push_str(
                    " (this line holds a `#` comment or a quote, which the token form reads \
                     as Rust tokens: write the kernel as a string literal, \
                     `gcn_kernel!(r#\"…\"#)`, if that is the cause)",
                );
            }
            m
        }
        Origin::Literal { span, repr } if d.pos.file.as_ref() == MAIN_NAME => format!(
            "{}: {}",
            literal_location(*span, repr, d.pos.line, d.pos.column),
            d.message
        ),
        _ => format!("{}: {}", d.pos, d.message),
    };
    for pos in &d.context {
        let place = match origin {
            Origin::Tokens(source) if pos.file.as_ref() == MAIN_NAME => {
                rs_location(source.span_at(pos.line, pos.column))
            }
            Origin::Literal { span, repr } if pos.file.as_ref() == MAIN_NAME => {
                literal_location(*span, repr, pos.line, pos.column)
            }
            _ => pos.to_string(),
        };
        message.push_str(&format!("\nnote: in expansion from {place}"));
    }
    let spans = match origin {
        Origin::Tokens(source) => {
            // Text from an include points at the `.include` line.
            let main = std::iter::once(&d.pos)
                .chain(&d.context)
                .find(|p| p.file.as_ref() == MAIN_NAME);
            match main {
                Some(p) if p == &d.pos => source.operand_at(p.line, p.column),
                Some(p) => {
                    let span = source.span_at(p.line, p.column);
                    (span, span)
                }
                None => (Span::call_site(), Span::call_site()),
            }
        }
        Origin::Literal { span, .. } => {
            let start = start_of(*span);
            (start, start)
        }
        Origin::File { path_span, .. } => (*path_span, *path_span),
    };
    (spans, message)
}

/// An empty span at the start of `span`, so that rustc shows one line, not
/// a whole multi-line literal (outside a compiler: `span` itself).
fn start_of(span: Span) -> Span {
    if proc_macro::is_available() {
        span.unwrap().start().into()
    } else {
        span
    }
}

/// `FILE.rs:LINE:COL` of the start of `span`.
fn rs_location(span: Span) -> String {
    let start = span.start();
    format!("{}:{}:{}", span.file(), start.line, start.column + 1)
}

/// `FILE.rs:LINE:COL` of byte `column` of line `line` (both 1-based) of
/// the value of the string literal at `span`, written as `repr`: the
/// literal's source is walked (raw or with escapes) to find where that
/// byte of the value is written.
fn literal_location(span: Span, repr: &str, line: u32, column: u32) -> String {
    let (file, rs_line, rs_col) = literal_place(span, repr, line, column);
    format!("{file}:{rs_line}:{rs_col}")
}

/// [`literal_location`] as (file, line, column).
fn literal_place(span: Span, repr: &str, line: u32, column: u32) -> (String, usize, usize) {
    let start = span.start();
    let (l, c) = literal_position(repr, line, column);
    let (rs_line, rs_col) = if l == 0 {
        (start.line, start.column + 1 + c)
    } else {
        (start.line + l, c + 1)
    };
    (span.file(), rs_line, rs_col)
}

/// Where the assembler position `pos` is in the Rust source, as a line
/// table row wants it (file, line, column): in the `.rs` file for the
/// token and string forms, else the assembly file itself.
fn source_place(pos: &gcn_asm::SourcePos, origin: &Origin) -> (String, usize, usize) {
    match origin {
        Origin::Tokens(source) if pos.file.as_ref() == MAIN_NAME => {
            let span = source.span_at(pos.line, pos.column);
            let start = span.start();
            (span.file(), start.line, start.column + 1)
        }
        Origin::Literal { span, repr } if pos.file.as_ref() == MAIN_NAME => {
            literal_place(*span, repr, pos.line, pos.column)
        }
        _ => (pos.file.to_string(), pos.line as usize, pos.column as usize),
    }
}

/// Where byte `column` of value line `line` (1-based) of string literal
/// `repr` is written, relative to the literal's first character: (lines
/// after the first, column in characters — on the first line counted from
/// the literal's start, on later lines from the line start, 0-based).
fn literal_position(repr: &str, line: u32, column: u32) -> (usize, usize) {
    let chars: Vec<char> = repr.chars().collect();
    // The opening: `"`, or `r`, hashes, `"`.
    let raw = chars.first() == Some(&'r');
    let mut i = if raw {
        1 + chars[1..].iter().take_while(|&&c| c == '#').count() + 1
    } else {
        1
    };
    let (mut src_line, mut src_col) = (0usize, i);
    let (mut val_line, mut val_col) = (1u32, 1u32);
    // Advances the source position over `n` characters from `i`.
    let advance = |i: &mut usize, n: usize, src_line: &mut usize, src_col: &mut usize| {
        for _ in 0..n {
            if chars.get(*i) == Some(&'\n') {
                *src_line += 1;
                *src_col = 0;
            } else {
                *src_col += 1;
            }
            *i += 1;
        }
    };
    while i < chars.len() {
        // A line continuation: the newline and the next line's leading
        // whitespace produce nothing.
        if !raw && chars[i] == '\\' && chars.get(i + 1) == Some(&'\n') {
            let mut n = 2;
            while chars.get(i + n).is_some_and(|c| c.is_whitespace()) {
                n += 1;
            }
            advance(&mut i, n, &mut src_line, &mut src_col);
            continue;
        }
        if val_line == line && val_col >= column {
            break;
        }
        let c = chars[i];
        let (value, len) = if !raw && c == '\\' {
            match chars.get(i + 1) {
                Some('x') => (Some('x'), 4),
                Some('u') => {
                    let n = chars[i..]
                        .iter()
                        .position(|&c| c == '}')
                        .map_or(2, |p| p + 1);
                    let text: String = chars[i + 3..i + n - 1].iter().collect();
                    let ch = u32::from_str_radix(&text, 16).ok().and_then(char::from_u32);
                    (Some(ch.unwrap_or('?')), n)
                }
                Some('n') => (Some('\n'), 2),
                Some(_) => (Some('e'), 2),
                None => (None, 1),
            }
        } else {
            (Some(c), 1)
        };
        match value {
            Some('\n') => {
                val_line += 1;
                val_col = 1;
            }
            Some(v) => val_col += v.len_utf8() as u32,
            None => {}
        }
        advance(&mut i, len, &mut src_line, &mut src_col);
    }
    (src_line, src_col)
}

/// A compile error for one assembler diagnostic, spanning its operand.
fn report(d: &Diagnostic, origin: &Origin) -> TokenStream {
    let ((first, last), message) = locate(d, origin);
    error_between(first, last, &message)
}

/// `compile_error!` spanning `first` to `last`: rustc reports a macro call
/// at the span from its path to its closing delimiter, so the path takes
/// `first` and the braces `last` (what `syn::Error` does for a span of
/// several tokens on stable Rust).
fn error_between(first: Span, last: Span, message: &str) -> TokenStream {
    let path = quote_spanned!(first=> ::core::compile_error!);
    let mut body = proc_macro2::Group::new(Delimiter::Brace, quote_spanned!(last=> #message));
    body.set_span(last);
    quote!(#path #body)
}

#[cfg(test)]
mod tests {
    //! The expansion outside a compiler (proc-macro2's fallback), for what
    //! trybuild cannot reach: trybuild builds in its own directory, so
    //! paths relative to `CARGO_MANIFEST_DIR` are tested here.

    use super::*;

    fn expand_str(input: TokenStream) -> String {
        match expand(input) {
            Ok(t) | Err(t) => t.to_string(),
        }
    }

    #[test]
    fn file_form_errors_name_file_line_and_column() {
        let out = expand_str(quote!(file = "testdata/bad.s"));
        // rustc prints `error:` before the message: the message does not
        // say it again.
        assert!(
            out.contains(r#""testdata/bad.s:4:15: first source takes"#),
            "{out}"
        );
        assert!(!out.contains("error:"), "{out}");
        // An error in an included file names that file and where it was
        // included from.
        assert!(
            out.contains("bad.inc:2:15: first source must be a scalar register, not v2"),
            "{out}"
        );
        assert!(
            out.contains("\\nnote: in expansion from testdata/bad.s:5:10"),
            "{out}"
        );
        assert_eq!(out.matches("compile_error").count(), 2, "{out}");
    }

    #[test]
    fn files_read_are_rebuild_triggers() {
        let out = expand_str(quote!(file = "testdata/good.s"));
        assert!(!out.contains("compile_error"), "{out}");
        assert_eq!(out.matches("include_bytes").count(), 2, "{out}");
        assert!(out.contains("good.inc"), "{out}");
        // Forms 1 and 2 find includes in the crate directory.
        let out = expand_str(quote!(".gpu tonga\n.include \"testdata/good.inc\"\n"));
        assert!(!out.contains("compile_error"), "{out}");
        assert!(out.contains("good.inc"), "{out}");
    }

    #[test]
    fn field_docs_give_the_byte_offset() {
        let out = expand_str(quote!(
            ".gallium\n.gpu tonga\n.kernel k\n.args\n.arg n, scalar, 4\n.arg out, global, 8\n\
             .arg global, 8\n.config\n.dims x\n.text\nk: s_load_dwordx2 s[2:3], s[0:1], k::out\n\
             s_endpgm\n"
        ));
        assert!(!out.contains("compile_error"), "{out}");
        // 36, then 8-aligned relative to byte 36: 44, 52 (the ABI's layout).
        assert!(
            out.contains(
                "Byte offset 44 in the kernel input buffer: `k::out` in the code \
                 (SMRD dword offset on GCN 1.0/1.1: `k::out/4` = 11)."
            ),
            "{out}"
        );
        assert!(
            out.contains("Byte offset 36 in the kernel input buffer: `k::n`"),
            "{out}"
        );
        // An unnamed argument has no symbol, only the offset.
        assert!(
            out.contains("Byte offset 52 in the kernel input buffer."),
            "{out}"
        );
    }

    /// A token-form kernel with a Gallium kernel, an error in the code and
    /// a warning-free rest.
    const TOKEN_KERNEL: &str = "
        .arch gcn1.2
        .kernel vadd
            .args
                .arg n, scalar, 4
                .arg out, global, 8
                .arg griddim
            .config
                .dims x
        .text
        vadd:
            s_load_dword s2, s[0:1], vadd::n
            v_bogus v0
            s_endpgm
    ";

    #[test]
    fn an_argument_offset_in_the_wrong_unit_is_a_warning() {
        use std::str::FromStr;
        // GCN 1.0 counts SMRD offsets in dwords: `vadd::out` (44 bytes) is
        // a warning at the offset, in the token form and the string form.
        let tokens = TOKEN_KERNEL
            .replace(".arch gcn1.2", ".arch gcn1.0")
            .replace(
                "s_load_dword s2, s[0:1], vadd::n",
                "s_load_dwordx2 s[2:3], s[0:1], vadd::out",
            )
            .replace("v_bogus v0\n", "");
        let message = "`vadd::out` is a byte offset (44) but the SMRD offset of GCN 1.0/1.1 \
                       counts dwords: write `vadd::out/4`";
        let out = expand_str(TokenStream::from_str(&tokens).unwrap());
        assert!(!out.contains("compile_error"), "{out}");
        assert!(out.contains("deprecated"), "{out}");
        assert!(out.contains(message), "{out}");
        let text = format!("{tokens:?}");
        let out = expand_str(TokenStream::from_str(&text).unwrap());
        assert!(out.contains(message), "{out}");
    }

    #[test]
    fn positionless_spans_give_the_items_and_no_diagnostics() {
        use std::str::FromStr;
        // Parsed from text, the tokens have positions: the kernel is
        // assembled and the bad instruction reported.
        let positioned = TokenStream::from_str(TOKEN_KERNEL).unwrap();
        let out = expand_str(positioned);
        assert!(out.contains("compile_error"), "{out}");
        assert!(out.contains("v_bogus"), "{out}");

        // The same tokens with every span at one place, as rust-analyzer's
        // proc-macro server gives them: no diagnostics, the same items.
        let positionless: TokenStream = TokenStream::from_str(TOKEN_KERNEL)
            .unwrap()
            .into_iter()
            .map(|t| respan(t, Span::call_site()))
            .collect();
        let source = TokenSource::new(positionless.clone(), Span::call_site());
        assert!(source.positionless());
        let out = expand_str(positionless);
        assert!(!out.contains("compile_error"), "{out}");
        assert!(!out.contains("deprecated"), "{out}");
        assert!(out.contains("pub const VADD :"), "{out}");
        assert!(out.contains("pub struct VaddArgs"), "{out}");
        assert!(out.contains("pub n : u32"), "{out}");
        assert!(
            out.contains("pub out : :: gcn_runtime :: kernel :: DevicePtr"),
            "{out}"
        );
        assert!(out.contains("device : \"tonga\""), "{out}");
        assert!(out.contains("pub const CODE : & [u8] = { b\"\" }"), "{out}");
        assert!(
            out.contains("pub const BINARY : & [u8] = { b\"\" }"),
            "{out}"
        );
        assert!(
            out.contains("Byte offset 44 in the kernel input buffer"),
            "{out}"
        );

        // Declarations that do not assemble: still no diagnostics, the
        // fixed items only.
        let broken: TokenStream = TokenStream::from_str(".kernel k .args .arg n, bogus, 4")
            .unwrap()
            .into_iter()
            .map(|t| respan(t, Span::call_site()))
            .collect();
        let out = expand_str(broken);
        assert!(!out.contains("compile_error"), "{out}");
        assert!(out.contains("pub const KERNELS"), "{out}");
    }

    #[test]
    fn positionless_rocm_sources_give_the_items() {
        use std::str::FromStr;
        // Code object v2 (alignments, the amd_kernel_code_t at the label)
        // and v3 (offsets, a descriptor in `.globaldata`).
        for (format, at, body) in [
            ("", ["", "", ""], "k:\n.skip 256\ns_endpgm"),
            (
                ".llvm10binfmt\n.metadatav3\n.globaldata\n.skip 64",
                ["0", "8", "16"],
                "k: s_endpgm",
            ),
        ] {
            let [a, b, c] = at;
            let source = format!(
                ".rocm\n.gpu gfx900\n.eflags 0x2c\n{format}\n.md_version 1, 0\n.kernel k\n.config\n\
                 .use_kernarg_segment_ptr\n\
                 .arg out, \"float*\", 8, {a}, globalbuf, f32, global, default\n\
                 .arg k, \"double\", 8, {b}, value, f64\n\
                 .arg , \"\", 8, {c}, gox, i64\n.text\n{body}\nv_bogus v0\n"
            );
            let positionless: TokenStream = TokenStream::from_str(&source)
                .unwrap()
                .into_iter()
                .map(|t| respan(t, Span::call_site()))
                .collect();
            let out = expand_str(positionless);
            assert!(!out.contains("compile_error"), "{out}");
            assert!(out.contains("pub struct KArgs"), "{out}");
            assert!(
                out.contains("pub out : :: gcn_runtime :: kernel :: TypedPtr < f32 >"),
                "{out}"
            );
            assert!(out.contains("pub k : f64"), "{out}");
            assert!(
                out.contains("pub const BINARY : & [u8] = { b\"\" }"),
                "{out}"
            );
        }
    }

    /// A code object v2 source with `args` as the kernel's `.arg` lines.
    fn rocm_source(args: &str) -> String {
        format!(
            ".rocm\n.gpu gfx900\n.md_version 1, 0\n.kernel k\n.config\n\
             .use_kernarg_segment_ptr\n{args}\n.text\nk:\n.skip 256\ns_endpgm\n"
        )
    }

    #[test]
    fn rocm_fields_follow_the_metadata() {
        let source = rocm_source(
            ".arg x, \"float*\", 8, , globalbuf, f32, global, default const\n\
             .arg k, \"float\", 4, , value, f32\n\
             .arg v, \"float4\", 16, , value, f32\n\
             .arg , \"\", 8, , printfbuf, i8\n\
             .arg m, \"\", 4, , value, i32",
        );
        let out = expand_str(quote!(#source));
        assert!(!out.contains("compile_error"), "{out}");
        assert!(
            out.contains("pub x : :: gcn_runtime :: kernel :: TypedPtr < f32 >"),
            "{out}"
        );
        assert!(out.contains("pub k : f32"), "{out}");
        // A vector: untyped words; no type name: the value type.
        assert!(out.contains("pub v : [u32 ; 4usize]"), "{out}");
        assert!(out.contains("pub m : i32"), "{out}");
        // The v2 layout: 8, 4, then 16 aligned to 16; the printf buffer
        // hidden at 32; `m` after it.
        assert!(
            out.contains("Byte offset 16 in the kernarg segment"),
            "{out}"
        );
        assert!(
            out.contains("Filled by the runtime: hidden_printf_buffer (kernarg byte 32)"),
            "{out}"
        );
        assert!(
            out.contains("Byte offset 40 in the kernarg segment"),
            "{out}"
        );
        assert!(!out.contains("pub arg3"), "{out}");
        // Floats: neither `Eq` nor `Hash`.
        assert!(!out.contains(":: core :: cmp :: Eq"), "{out}");
    }

    #[test]
    fn rocm_duplicate_fields_are_errors_at_the_arg() {
        let source =
            rocm_source(".arg n, \"int\", 4, , value, i32\n.arg n, \"int\", 4, , value, i32");
        let out = expand_str(quote!(#source));
        assert!(
            out.contains("argument 1 of kernel 'k' would be field `n`, like argument 0"),
            "{out}"
        );
        // The message names the second `.arg`'s line in the literal.
        assert_eq!(out.matches("compile_error").count(), 1, "{out}");
    }

    /// `tree` with every span (inside groups too) set to `span`.
    fn respan(tree: TokenTree, span: Span) -> TokenTree {
        match tree {
            TokenTree::Group(g) => {
                let inner = g.stream().into_iter().map(|t| respan(t, span)).collect();
                let mut group = proc_macro2::Group::new(g.delimiter(), inner);
                group.set_span(span);
                TokenTree::Group(group)
            }
            mut other => {
                other.set_span(span);
                other
            }
        }
    }

    #[test]
    fn literal_positions_follow_the_source_form() {
        // Raw: the value is the source; line 1 counts from the literal's
        // first character (`r#"` is 3 characters).
        let raw = "r#\"\n  .gpu tonga\n  s_bogus\n\"#";
        assert_eq!(literal_position(raw, 1, 1), (0, 3));
        assert_eq!(literal_position(raw, 3, 3), (2, 2));
        // Escapes take several characters of source for one of value; an
        // escaped newline does not start a source line.
        let escaped = r#"".gpu tonga\ns_mov_b32 s1, v2\n""#;
        assert_eq!(literal_position(escaped, 2, 15), (0, 27));
        let quoted = r#"".include \"x.s\"\n\x41\u{e9}x""#;
        assert_eq!(literal_position(quoted, 1, 10), (0, 10));
        assert_eq!(literal_position(quoted, 1, 11), (0, 12));
        // `é` is 2 bytes of value: column 4 of line 2 is the `x`.
        assert_eq!(literal_position(quoted, 2, 4), (0, 29));
        // A line continuation swallows the newline and the indentation.
        let continued = "\"s_nop 0\\\n    s_bogus\"";
        assert_eq!(literal_position(continued, 1, 8), (1, 4));
    }

    #[test]
    fn token_errors_span_the_whole_operand() {
        use std::str::FromStr;
        let input = TokenStream::from_str(".gpu tonga\ns_mov_b64 s[3:4], abs(s[6:7])\n").unwrap();
        let source = TokenSource::new(input, Span::call_site());
        let (first, last) = source.operand_at(2, 11);
        assert_eq!((first.start().column, last.end().column), (10, 16));
        let (first, last) = source.operand_at(2, 19);
        assert_eq!((first.start().column, last.end().column), (18, 29));
        let (first, last) = source.operand_at(2, 1);
        assert_eq!((first.start().column, last.end().column), (0, 9));
    }

    #[test]
    fn byte_items_hide_their_value_from_rustdoc() {
        // rustdoc shows the value of a const initialised by a plain
        // literal (pages of bytes for a binary), not of one initialised by
        // a block.
        let out = expand_str(quote!(
            ".gallium\n.gpu tonga\n.kernel k\n.config\n.text\nk: s_endpgm\n"
        ));
        assert!(out.contains("pub const CODE : & [u8] = { b\""), "{out}");
        assert!(out.contains("pub const BINARY : & [u8] = { b\""), "{out}");
    }

    #[test]
    fn module_header_wraps_the_items() {
        // Braces: rustfmt rewrites `mod k; "…"` inside parentheses.
        let out = expand_str(quote! { pub(crate) mod k; ".gpu tonga\ns_endpgm\n" });
        assert!(out.starts_with("# [doc"), "{out}");
        assert!(out.contains("pub (crate) mod k {"), "{out}");
    }
}
