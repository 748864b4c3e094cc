//! The items `gcn_kernel!` expands to, from a successful assembly.
//!
//! The generated code only lists things — bytes, the kernel table, struct
//! fields — and leaves every rule of the Gallium ABI to
//! `gcn_runtime::kernel`, so the layout lives in one place.

use std::collections::HashMap;

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use gcn_asm::gallium::{arg_offsets, ArgSemantic, ArgType, Kernel, KernelArg, KernelDecl};
use gcn_asm::syntax::assembler::BinaryFormat;
use gcn_asm::{Assembly, Diagnostic};

use crate::{locate, report, source_place, Origin};

/// Names of the items every expansion defines (kernel items must not take
/// them).
pub(crate) const FIXED_NAMES: [&str; 4] = ["BINARY", "CODE", "KERNELS", "LINES"];

/// The item names an expansion has defined so far, with who defined them:
/// a kernel's handle constant and argument struct must not clash with the
/// fixed items or another kernel's (Gallium and ROCm sources alike).
pub(crate) struct ItemNames(HashMap<String, String>);

impl ItemNames {
    /// The fixed items only.
    pub(crate) fn new() -> Self {
        ItemNames(
            FIXED_NAMES
                .iter()
                .map(|n| (n.to_string(), "the expansion".to_string()))
                .collect(),
        )
    }

    /// Kernel `decl`'s (constant, struct) names, now taken; `None` after
    /// an error at its `.kernel` for each name defined already.
    pub(crate) fn claim(
        &mut self,
        decl: &KernelDecl,
        errors: &mut TokenStream,
        origin: &Origin,
    ) -> Option<(String, String)> {
        let const_name = screaming_snake(&decl.name);
        let struct_name = format!("{}Args", upper_camel(&decl.name));
        let mut clash = false;
        for item in [&const_name, &struct_name] {
            if let Some(owner) = self.0.get(item.as_str()) {
                let message = format!(
                    "kernel '{}' would define `{item}`, which {owner} defines already (rename the kernel)",
                    decl.name
                );
                errors.extend(report(
                    &Diagnostic::error(decl.pos.clone(), message),
                    origin,
                ));
                clash = true;
            }
        }
        if clash {
            return None;
        }
        self.0
            .insert(const_name.clone(), format!("kernel '{}'", decl.name));
        self.0
            .insert(struct_name.clone(), format!("kernel '{}'", decl.name));
        Some((const_name, struct_name))
    }
}

/// The marker item that makes a second call in one module an error.
pub(crate) fn once_per_module() -> TokenStream {
    quote! {
        #[doc(hidden)]
        #[allow(dead_code, non_upper_case_globals)]
        const gcn_kernel_may_be_called_once_per_module: () = ();
    }
}

/// The fixed items with nothing in them (`CODE` and `BINARY` empty, no
/// kernel): what an editor gets when not even the declarations assemble.
pub fn empty_items() -> TokenStream {
    let mut out = once_per_module();
    out.extend(quote! {
        /// The machine code (`.text`) of the kernel source.
        #[allow(dead_code)]
        pub const CODE: &[u8] = &[];
        /// The complete GalliumCompute binary.
        #[allow(dead_code)]
        pub const BINARY: &[u8] = &[];
        /// Every kernel of [`BINARY`], sorted by name.
        #[allow(dead_code)]
        pub const KERNELS: &[::gcn_runtime::kernel::Kernel] = &[];
        /// The source line of each instruction of [`CODE`].
        #[allow(dead_code)]
        pub const LINES: &[::gcn_runtime::lines::SourceLine] = &[];
    });
    out
}

/// The items for `assembly`, or compile errors (at the declarations) when
/// kernels or arguments cannot be named in Rust. With `placeholder`, the
/// assembly holds only the declarations (see
/// `TokenSource::declarations`): `CODE` and `BINARY` are empty and no
/// warning is raised.
pub fn items(
    assembly: &Assembly,
    origin: &Origin,
    placeholder: bool,
) -> Result<TokenStream, TokenStream> {
    // First, so that a second call in the same module reports this name
    // before the others.
    let mut out = once_per_module();
    out.extend(rebuild_triggers(assembly, origin));
    if !placeholder {
        out.extend(warnings(assembly, origin));
    }

    // The literals sit in blocks: rustdoc prints a const's value when it
    // is a plain literal, which for a binary is pages of bytes.
    let code = Literal::byte_string(if placeholder { &[] } else { assembly.text() });
    out.extend(quote! {
        /// The machine code (`.text`) of the kernel source.
        #[allow(dead_code)]
        pub const CODE: &[u8] = { #code };
    });
    let rows = assembly
        .line_table
        .iter()
        .filter(|_| !placeholder)
        .map(|e| {
            let (file, line, column) = source_place(&e.pos, origin);
            let (offset, line, column) = (e.offset, line as u32, column as u32);
            quote!(::gcn_runtime::lines::SourceLine {
                offset: #offset, file: #file, line: #line, column: #column
            })
        });
    out.extend(quote! {
        /// The source line of each instruction of [`CODE`] (in the `.rs`
        /// file for kernels written in it): faults and check reports cite
        /// them.
        #[allow(dead_code)]
        pub const LINES: &[::gcn_runtime::lines::SourceLine] = &[#(#rows),*];
    });
    let binary = match (&assembly.gallium, assembly.format) {
        (Some(binary), BinaryFormat::Gallium) => binary,
        (_, BinaryFormat::Rocm) => {
            out.extend(crate::rocm::items(assembly, origin, placeholder)?);
            return Ok(out);
        }
        _ => return Ok(out),
    };
    let bytes = assembly.gallium_bytes().map_err(|e| {
        crate::error(
            Span::call_site(),
            &format!("cannot write the Gallium binary: {e}"),
        )
    })?;
    let bytes = Literal::byte_string(if placeholder { &[] } else { &bytes });
    out.extend(quote! {
        /// The complete GalliumCompute binary (what `gcnasm -b gallium`
        /// writes for the same source).
        #[allow(dead_code)]
        pub const BINARY: &[u8] = { #bytes };
    });

    out.extend(kernel_list(
        &assembly.gallium_decls,
        |name| binary.kernels.iter().find(|k| k.name == name),
        |kernel, decl, const_name, struct_name| {
            kernel_items(
                kernel,
                decl,
                const_name,
                struct_name,
                assembly.device.name(),
                origin,
            )
        },
        origin,
    )?);
    Ok(out)
}

/// The items of each declared kernel the binary has (`find`), made by
/// `kernel_items(kernel, declaration, handle constant name, argument
/// struct name)` with the names claimed once per expansion, then
/// `KERNELS` sorted by name; every kernel's errors together (Gallium and
/// ROCm sources alike).
pub(crate) fn kernel_list<K>(
    decls: &[KernelDecl],
    find: impl Fn(&str) -> Option<K>,
    mut kernel_items: impl FnMut(K, &KernelDecl, &str, &str) -> Result<TokenStream, TokenStream>,
    origin: &Origin,
) -> Result<TokenStream, TokenStream> {
    let mut out = TokenStream::new();
    let mut errors = TokenStream::new();
    let mut taken = ItemNames::new();
    let mut consts = Vec::new();
    for decl in decls {
        let Some(kernel) = find(&decl.name) else {
            continue;
        };
        let Some((const_name, struct_name)) = taken.claim(decl, &mut errors, origin) else {
            continue;
        };
        match kernel_items(kernel, decl, &const_name, &struct_name) {
            Ok(items) => out.extend(items),
            Err(e) => errors.extend(e),
        }
        consts.push((decl.name.clone(), format_ident!("{}", const_name)));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    consts.sort();
    let consts = consts.iter().map(|(_, c)| c);
    out.extend(quote! {
        /// Every kernel of [`BINARY`], sorted by name.
        #[allow(dead_code)]
        pub const KERNELS: &[::gcn_runtime::kernel::Kernel] = &[#(#consts),*];
    });
    Ok(out)
}

/// `include_bytes!` of the file and of everything it read, so that editing
/// any of them rebuilds the crate.
fn rebuild_triggers(assembly: &Assembly, origin: &Origin) -> TokenStream {
    let mut paths = Vec::new();
    if let Origin::File { path, .. } = origin {
        paths.push(path.clone());
    }
    for p in &assembly.files_read {
        // Relative paths (found in the working directory) would be
        // resolved against the calling file by `include_bytes!`.
        if let Ok(abs) = std::fs::canonicalize(p) {
            if !paths.contains(&abs) {
                paths.push(abs);
            }
        }
    }
    let paths = paths.iter().filter_map(|p| p.to_str());
    quote! {
        #(const _: &[u8] = ::core::include_bytes!(#paths);)*
    }
}

/// Each assembler warning as a `deprecated` warning at its place: the
/// only warning a proc macro can raise on stable Rust.
fn warnings(assembly: &Assembly, origin: &Origin) -> TokenStream {
    let mut out = TokenStream::new();
    for w in &assembly.warnings {
        let ((span, _), message) = locate(w, origin);
        let use_it = quote_spanned!(span=> gcn_kernel_warning);
        out.extend(quote! {
            const _: () = {
                #[deprecated(note = #message)]
                #[allow(non_upper_case_globals)]
                const gcn_kernel_warning: () = ();
                #use_it
            };
        });
    }
    out
}

/// `VADD` and `VaddArgs` with its `KernelArgs` impl.
fn kernel_items(
    kernel: &Kernel,
    decl: &KernelDecl,
    const_name: &str,
    struct_name: &str,
    device: &str,
    origin: &Origin,
) -> Result<TokenStream, TokenStream> {
    let k = quote!(::gcn_runtime::kernel);
    let const_ident = format_ident!("{}", const_name);
    let struct_ident = format_ident!("{}", struct_name);
    let name = &kernel.name;
    let offset = kernel.offset;
    let prog_info = kernel.prog_info.iter().map(|e| {
        let (address, value) = (e.address, e.value);
        quote!(#k::ProgInfoEntry { address: #address, value: #value })
    });

    let mut errors = TokenStream::new();
    let mut field_names: HashMap<String, usize> = HashMap::new();
    let mut arg_table = Vec::new();
    let mut fields = Vec::new();
    let mut visits = Vec::new();
    let mut dispatcher_filled = Vec::new();
    let offsets = arg_offsets(&kernel.args);
    let mut default_ok = true;
    for (index, (arg, ad)) in kernel.args.iter().zip(&decl.args).enumerate() {
        let field = ad.name.clone().unwrap_or_else(|| format!("arg{index}"));
        let record = record_tokens(arg);
        let declaration = &ad.declaration;
        arg_table.push(quote! {
            #k::Arg { name: #field, record: #record, declaration: #declaration }
        });
        if arg.semantic != ArgSemantic::General {
            dispatcher_filled.push(format!("`{declaration}` (argument {index})"));
            continue;
        }
        if let Some(&other) = field_names.get(&field) {
            let message = format!(
                "argument {index} of kernel '{}' would be field `{field}`, like argument {other} (name it: `.arg NAME, TYPE, …`)",
                kernel.name
            );
            errors.extend(report(&Diagnostic::error(ad.pos.clone(), message), origin));
            continue;
        }
        field_names.insert(field.clone(), index);
        let ident = match field_ident(&field) {
            Ok(i) => i,
            Err(message) => {
                errors.extend(report(&Diagnostic::error(ad.pos.clone(), message), origin));
                continue;
            }
        };
        let (ty, what, elements) = rust_type(arg);
        default_ok &= elements <= 32;
        let mut doc = format!(" `{declaration}`: argument {index}, {what}.");
        if let Some(at) = offsets[index] {
            doc.push_str(&format!("\n\n Byte offset {at} in the kernel input buffer"));
            if ad.name.is_some() {
                doc.push_str(&format!(": `{}::{field}` in the code", kernel.name));
                if at % 4 == 0 {
                    doc.push_str(&format!(
                        " (SMRD dword offset on GCN 1.0/1.1: `{}::{field}/4` = {})",
                        kernel.name,
                        at / 4
                    ));
                }
            }
            doc.push('.');
        }
        fields.push(quote! {
            #[doc = #doc]
            pub #ident: #ty
        });
        visits.push(quote!(visit(#k::ArgField::arg_value(&self.#ident));));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let kernel_doc = format!(
        " Kernel `{name}`: code at offset {offset:#x} of `.text`, {} argument(s).",
        kernel.args.len()
    );
    let mut struct_doc = format!(
        " The arguments of kernel `{name}` the caller supplies; \
         `KernelArgs::write_input` lays them out per the Gallium ABI."
    );
    if !dispatcher_filled.is_empty() {
        struct_doc.push_str(&format!(
            "\n\n Filled by the dispatcher: {}.",
            dispatcher_filled.join(", ")
        ));
    }
    let derive_default = if default_ok {
        quote!(::core::default::Default,)
    } else {
        quote!()
    };
    Ok(quote! {
        #[doc = #kernel_doc]
        #[allow(dead_code)]
        pub const #const_ident: #k::Kernel = #k::Kernel {
            name: #name,
            device: #device,
            binary: BINARY,
            offset: #offset,
            prog_info: &[#(#prog_info),*],
            args: &[#(#arg_table),*],
            lines: LINES,
        };

        #[doc = #struct_doc]
        #[derive(
            ::core::fmt::Debug,
            ::core::clone::Clone,
            ::core::marker::Copy,
            ::core::cmp::PartialEq,
            ::core::cmp::Eq,
            ::core::hash::Hash,
            #derive_default
        )]
        #[allow(dead_code, non_snake_case)]
        pub struct #struct_ident {
            #(#fields,)*
        }

        impl #k::KernelArgs for #struct_ident {
            const KERNEL: #k::Kernel = #const_ident;

            fn visit_values(&self, visit: &mut dyn ::core::ops::FnMut(#k::ArgValue)) {
                #(#visits)*
                let _ = visit;
            }
        }
    })
}

/// A `KernelArg` literal.
pub(crate) fn record_tokens(arg: &KernelArg) -> TokenStream {
    let k = quote!(::gcn_runtime::kernel);
    let ty = format_ident!("{}", format!("{:?}", arg.ty));
    let semantic = format_ident!("{}", format!("{:?}", arg.semantic));
    let (size, target_size, target_align, sign_extended) = (
        arg.size,
        arg.target_size,
        arg.target_align,
        arg.sign_extended,
    );
    quote! {
        #k::KernelArg {
            ty: #k::ArgType::#ty,
            size: #size,
            target_size: #target_size,
            target_align: #target_align,
            sign_extended: #sign_extended,
            semantic: #k::ArgSemantic::#semantic,
        }
    }
}

/// The Rust type of a user argument, a phrase for its doc comment, and the
/// number of array elements (0 for non-arrays; `Default` stops at 32).
fn rust_type(arg: &KernelArg) -> (TokenStream, String, usize) {
    let k = quote!(::gcn_runtime::kernel);
    let ext = if arg.sign_extended { "sign" } else { "zero" };
    let slot = format!(
        "{}-byte slot aligned to {} ({ext}-extended)",
        arg.target_size, arg.target_align
    );
    match arg.ty {
        ArgType::Scalar => {
            let size = arg.size as usize;
            let int = match (size, arg.sign_extended) {
                (1, false) => Some(quote!(u8)),
                (1, true) => Some(quote!(i8)),
                (2, false) => Some(quote!(u16)),
                (2, true) => Some(quote!(i16)),
                (4, false) => Some(quote!(u32)),
                (4, true) => Some(quote!(i32)),
                (8, false) => Some(quote!(u64)),
                (8, true) => Some(quote!(i64)),
                _ => None,
            };
            let what = format!("{size}-byte scalar in a {slot}");
            match int {
                Some(t) => (t, what, 0),
                None if size.is_multiple_of(4) => {
                    let n = size / 4;
                    (quote!([u32; #n]), what, n)
                }
                None => (quote!([u8; #size]), what, size),
            }
        }
        ArgType::Global | ArgType::Constant => (
            quote!(#k::DevicePtr),
            format!("{} pointer ({} bytes) in a {slot}", arg.ty.name(), arg.size),
            0,
        ),
        ArgType::Local => (
            quote!(#k::LocalMemory),
            "local buffer: its size; the kernel receives its offset in local memory".into(),
            0,
        ),
        ArgType::Sampler => (
            quote!(#k::Sampler),
            "sampler: its S# (16-byte argument) or nothing (Clover)".into(),
            0,
        ),
        _ => (
            quote!(#k::Image),
            format!(
                "{}: its T# (32/16-byte argument) or slot (4-byte)",
                arg.ty.name()
            ),
            0,
        ),
    }
}

/// A field identifier for argument name `name` (raw for keywords).
pub(crate) fn field_ident(name: &str) -> Result<Ident, String> {
    let valid = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "_";
    if !valid {
        return Err(format!(
            "argument name '{name}' is not a Rust identifier (gcn_kernel! makes it a struct field)"
        ));
    }
    if matches!(name, "self" | "Self" | "super" | "crate") {
        return Err(format!(
            "argument name '{name}' cannot be a Rust field name (a keyword that has no raw form)"
        ));
    }
    Ok(match syn::parse_str::<Ident>(name) {
        Ok(i) => i,
        // A keyword: `r#type`.
        Err(_) => Ident::new_raw(name, Span::call_site()),
    })
}

/// `vAdd.x` → `V_ADD_X`: a const name for a kernel.
pub(crate) fn screaming_snake(name: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_uppercase());
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        } else {
            if !out.ends_with('_') {
                out.push('_');
            }
            prev_lower = false;
        }
    }
    if out.chars().all(|c| c == '_') || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'K');
    }
    out
}

/// `v_add`, `VADD`, `vAdd` → `VAdd`/`Vadd`: a type name stem for a kernel.
pub(crate) fn upper_camel(name: &str) -> String {
    let mut out = String::new();
    for word in screaming_snake(name).split('_').filter(|w| !w.is_empty()) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.push(first);
            out.extend(chars.map(|c| c.to_ascii_lowercase()));
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'K');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_item_names() {
        assert_eq!(screaming_snake("vadd"), "VADD");
        assert_eq!(screaming_snake("DCT"), "DCT");
        assert_eq!(screaming_snake("vecAdd2"), "VEC_ADD2");
        assert_eq!(screaming_snake("a.b$c"), "A_B_C");
        assert_eq!(screaming_snake("$"), "K_");
        assert_eq!(upper_camel("$"), "K");
        assert_eq!(upper_camel("vadd"), "Vadd");
        assert_eq!(upper_camel("DCT"), "Dct");
        assert_eq!(upper_camel("vec_add"), "VecAdd");
        assert_eq!(upper_camel("vecAdd"), "VecAdd");
    }

    #[test]
    fn field_names() {
        assert!(field_ident("n").is_ok());
        assert_eq!(field_ident("type").unwrap().to_string(), "r#type");
        assert!(field_ident("a.b").is_err());
        assert!(field_ident("self").is_err());
        assert!(field_ident("_").is_err());
    }
}
