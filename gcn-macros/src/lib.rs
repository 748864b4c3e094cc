//! `gcn_kernel!`: AMD GCN kernels written inline in Rust, assembled at
//! compile time by `gcn-asm`.
//!
//! Three input forms take the whole CLRX assembler (macros, conditionals,
//! every instruction, pseudo-ops):
//!
//! 1. Rust tokens: `gcn_kernel! { .gpu tonga  s_add_u32 s1, s2, s3 }`. Line
//!    structure is recovered from the token positions; use `//` and
//!    `/* */` comments (`#` comments and `\arg` need forms 2 or 3).
//! 2. A string literal with verbatim CLRX source: `gcn_kernel!(r#"…"#)`.
//! 3. A file relative to the crate's `CARGO_MANIFEST_DIR`:
//!    `gcn_kernel!(file = "kernels/vadd.s")`; `.include` resolves next to it
//!    and editing the file rebuilds the crate.
//!
//! Options (`gpu = "tonga"`, `arch = "gcn1.4"`) follow a literal or a file
//! as `, key = "value"`, and precede tokens as `#![gpu = "tonga"]`; `.gpu`
//! and `.arch` in the source win.
//!
//! Every assembler diagnostic becomes a compile error: at the offending
//! token in form 1, at the literal or path (with the `LINE:COL` of the
//! assembly text) in forms 2 and 3; all errors are reported in one build.
//!
//! The expansion is provisional until the Gallium container lands: it
//! defines `CODE`, the bytes of `.text`.

use std::path::PathBuf;

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use syn::LitStr;

mod source;

use gcn_asm::{assemble, AssembleOptions, Device, Diagnostic, GcnVersion};
use source::TokenSource;

/// Assembles a GCN kernel at compile time; see the crate documentation.
#[proc_macro]
pub fn gcn_kernel(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    match expand(input.into()) {
        Ok(tokens) | Err(tokens) => tokens.into(),
    }
}

/// Where the assembly text came from, to map diagnostics back.
enum Origin {
    Tokens(TokenSource),
    Literal(Span),
    File { path_span: Span, path: PathBuf },
}

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

fn expand(input: TokenStream) -> Result<TokenStream, TokenStream> {
    let mut opts = AssembleOptions {
        file_name: "<gcn_kernel!>".into(),
        ..AssembleOptions::default()
    };
    let whole = Span::call_site();
    let mut tokens = input.clone().into_iter().peekable();
    let (text, origin) = match tokens.peek() {
        Some(TokenTree::Literal(_)) => {
            let lit = match tokens.next() {
                Some(t) => syn::parse2::<LitStr>(t.into()).map_err(|e| e.to_compile_error())?,
                None => unreachable_input(whole)?,
            };
            options(&mut tokens, &mut opts)?;
            (lit.value(), Origin::Literal(lit.span()))
        }
        Some(TokenTree::Ident(i)) if i == "file" && is_file_form(&input) => {
            tokens.next();
            tokens.next();
            let lit = match tokens.next() {
                Some(t) => syn::parse2::<LitStr>(t.into()).map_err(|e| e.to_compile_error())?,
                None => return Err(error(whole, "expected a path after `file =`")),
            };
            options(&mut tokens, &mut opts)?;
            let dir = std::env::var_os("CARGO_MANIFEST_DIR")
                .map(PathBuf::from)
                .unwrap_or_default();
            let path = dir.join(lit.value());
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

    match assemble(&text, &opts) {
        Ok(assembly) => {
            let code = assembly.text();
            let rebuild = match &origin {
                Origin::File { path, .. } => {
                    let path = path.display().to_string();
                    quote!(
                        const _: &[u8] = ::core::include_bytes!(#path);
                    )
                }
                _ => quote!(),
            };
            Ok(quote! {
                #rebuild
                /// The machine code of the kernel source (`.text`).
                pub const CODE: &[u8] = &[#(#code),*];
            })
        }
        Err(diagnostics) => {
            let mut out = TokenStream::new();
            for d in diagnostics.0.iter().filter(|d| d.is_error()) {
                out.extend(report(d, &origin));
            }
            Err(out)
        }
    }
}

fn unreachable_input(span: Span) -> Result<LitStr, TokenStream> {
    Err(error(span, "expected a string literal"))
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

/// A compile error for one assembler diagnostic.
fn report(d: &Diagnostic, origin: &Origin) -> TokenStream {
    match origin {
        Origin::Tokens(source) if d.pos.file.as_ref() == "<gcn_kernel!>" => {
            error(source.span_at(d.pos.line, d.pos.column), &d.message)
        }
        Origin::Tokens(_) => error(Span::call_site(), &d.to_string()),
        Origin::Literal(span) => error(
            *span,
            &format!("{}:{}: {}", d.pos.line, d.pos.column, d.message),
        ),
        Origin::File { path_span, .. } => error(*path_span, &d.to_string()),
    }
}
