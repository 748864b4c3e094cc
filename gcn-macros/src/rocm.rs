//! The items of a `.rocm` source: the code object as `BINARY`, and per
//! kernel a handle and an argument struct made from the code object's own
//! metadata (read back from `BINARY`, so offsets, sizes and value kinds
//! are the ones the loader sees). The layout is left to the runtime's HSA
//! launch, as the Gallium layout is to `gcn_runtime::kernel`.

use std::collections::HashMap;

use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote};

use gcn_asm::gallium::{ArgDecl, KernelDecl};
use gcn_asm::rocm::{ArgMeta, CodeObject, RocmKernel, ScalarType, ValueKind};
use gcn_asm::{Assembly, Diagnostic};

use crate::emit::{field_ident, kernel_list};
use crate::{report, Origin};

/// `BINARY`, the kernel handles and argument structs, and `KERNELS`.
pub fn items(
    assembly: &Assembly,
    origin: &Origin,
    placeholder: bool,
) -> Result<TokenStream, TokenStream> {
    let fail = |what: &str, e: gcn_asm::rocm::RocmError| {
        crate::error(
            Span::call_site(),
            &format!("cannot {what} the code object: {e}"),
        )
    };
    let bytes = assembly.rocm_bytes().map_err(|e| fail("write", e))?;
    // The metadata as a loader reads it: one source for the fields and the
    // launch.
    let co = gcn_asm::rocm::read(&bytes).map_err(|e| fail("read back", e))?;
    let literal = Literal::byte_string(if placeholder { &[] } else { &bytes });
    let mut out = quote! {
        /// The AMDHSA code object (what `gcnasm -b rocm` writes for the
        /// same source).
        #[allow(dead_code)]
        pub const BINARY: &[u8] = { #literal };
    };

    out.extend(kernel_list(
        &assembly.rocm_decls,
        |name| co.kernels.iter().find(|k| k.name == name),
        |kernel, decl, constant, strukt| {
            let names = Names { constant, strukt };
            kernel_items(&co, kernel, decl, names, assembly.device.name(), origin)
        },
        origin,
    )?);
    Ok(out)
}

/// The item names of one kernel.
#[derive(Clone, Copy)]
struct Names<'a> {
    constant: &'a str,
    strukt: &'a str,
}

/// The kernel handle and the argument struct of `kernel`.
fn kernel_items(
    co: &CodeObject,
    kernel: &RocmKernel,
    decl: &KernelDecl,
    names: Names<'_>,
    device: &str,
    origin: &Origin,
) -> Result<TokenStream, TokenStream> {
    let k = quote!(::gcn_runtime::kernel);
    let const_ident = format_ident!("{}", names.constant);
    let struct_ident = format_ident!("{}", names.strukt);
    let name = &kernel.name;
    // The code starts at `.text`'s address: the entry's offset there is
    // the line table's (and the program's) code offset.
    let text_vaddr = co.text.as_ref().map_or(0, |t| t.vaddr);
    let offset = u32::try_from(kernel.entry.saturating_sub(text_vaddr)).unwrap_or(u32::MAX);
    // The `.arg`s, when the metadata was made from them (a raw
    // `.metadata` note has no positions: the kernel's is used).
    let decls: Option<&[ArgDecl]> =
        (decl.args.len() == kernel.args.len()).then_some(decl.args.as_slice());

    let mut errors = TokenStream::new();
    let mut field_names: HashMap<String, usize> = HashMap::new();
    let mut arg_table = Vec::new();
    let mut fields = Vec::new();
    let mut visits = Vec::new();
    let mut hidden = Vec::new();
    let mut default_ok = true;
    let mut has_float = false;
    for (index, arg) in kernel.args.iter().enumerate() {
        let ad = decls.map(|d| &d[index]);
        let pos = ad.map_or_else(|| decl.pos.clone(), |a| a.pos.clone());
        let declaration = ad.map_or("", |a| a.declaration.as_str());
        if arg.value_kind.is_hidden() {
            hidden.push(format!(
                "{} (kernarg byte {})",
                kind_name(&arg.value_kind),
                arg.offset
            ));
            continue;
        }
        let field = arg
            .name
            .clone()
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| format!("arg{index}"));
        let record = crate::emit::record_tokens(&arg.record());
        arg_table.push(quote! {
            #k::Arg { name: #field, record: #record, declaration: #declaration }
        });
        let mut fail = |message: String| {
            errors.extend(report(&Diagnostic::error(pos.clone(), message), origin));
        };
        if let Some(&other) = field_names.get(&field) {
            fail(format!(
                "argument {index} of kernel '{name}' would be field `{field}`, like argument {other} (name it: `.arg NAME, …`)"
            ));
            continue;
        }
        field_names.insert(field.clone(), index);
        let ident = match field_ident(&field) {
            Ok(i) => i,
            Err(message) => {
                fail(message);
                continue;
            }
        };
        let Some(ty) = rust_type(arg) else {
            fail(format!(
                "argument {index} of kernel '{name}' has value kind {}, which the emulator's HSA launch cannot pass (gcn_kernel! makes fields for by-value arguments, global buffers and dynamic shared pointers)",
                kind_name(&arg.value_kind)
            ));
            continue;
        };
        default_ok &= ty.elements <= 32;
        has_float |= ty.float;
        let tokens = &ty.tokens;
        let shown = if declaration.is_empty() {
            String::new()
        } else {
            format!("`{declaration}`: ")
        };
        let doc = format!(
            " {shown}argument {index}, {}.\n\n Byte offset {} in the kernarg segment.",
            ty.what, arg.offset
        );
        fields.push(quote! {
            #[doc = #doc]
            pub #ident: #tokens
        });
        visits.push(quote!(visit(#k::ArgField::arg_value(&self.#ident));));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let explicit = arg_table.len();
    let kernel_doc = format!(
        " Kernel `{name}` of a code object: code at offset {offset:#x} of `.text`, {explicit} explicit argument(s)."
    );
    let mut struct_doc = format!(
        " The arguments of kernel `{name}` the caller supplies; a launch puts them \
         at their metadata offsets in the kernarg segment (HSA ABI)."
    );
    if !hidden.is_empty() {
        struct_doc.push_str(&format!(
            "\n\n Filled by the runtime: {}.",
            hidden.join(", ")
        ));
    }
    // Floats have neither `Eq` nor `Hash`.
    let exact = if has_float {
        quote!()
    } else {
        quote!(::core::cmp::Eq, ::core::hash::Hash,)
    };
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
            prog_info: &[],
            args: &[#(#arg_table),*],
            lines: LINES,
        };

        #[doc = #struct_doc]
        #[derive(
            ::core::fmt::Debug,
            ::core::clone::Clone,
            ::core::marker::Copy,
            ::core::cmp::PartialEq,
            #exact
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

/// The Rust type of a field.
struct FieldType {
    tokens: TokenStream,
    /// A phrase for the doc comment.
    what: String,
    /// Array elements (0 for non-arrays; `Default` stops at 32).
    elements: usize,
    /// An `f32` or `f64` (no `Eq`, no `Hash`).
    float: bool,
}

/// The field type of an explicit argument, from its value kind and what
/// the metadata says of its type; `None` for the value kinds the HSA
/// launch cannot pass (images, samplers, pipes, queues).
fn rust_type(arg: &ArgMeta) -> Option<FieldType> {
    let k = quote!(::gcn_runtime::kernel);
    let plain = |tokens: TokenStream, what: String| FieldType {
        tokens,
        what,
        elements: 0,
        float: false,
    };
    let described = match arg.type_name.as_deref() {
        Some(t) => format!("`{t}`, "),
        None => String::new(),
    };
    Some(match arg.value_kind {
        ValueKind::ByValue => {
            let size = arg.size as usize;
            let what = format!("{described}{size}-byte value");
            match arg.value_scalar() {
                // Rust has no stable `f16`: its bits.
                Some(ScalarType::F16) => plain(quote!(u16), format!("{what} (a half: its bits)")),
                Some(t) => FieldType {
                    tokens: scalar_tokens(t),
                    what,
                    elements: 0,
                    float: matches!(t, ScalarType::F32 | ScalarType::F64),
                },
                // The type is unknown: the untyped forms of Gallium
                // scalars.
                None => match size {
                    1 => plain(quote!(u8), what),
                    2 => plain(quote!(u16), what),
                    4 => plain(quote!(u32), what),
                    8 => plain(quote!(u64), what),
                    _ if size.is_multiple_of(4) => {
                        let n = size / 4;
                        FieldType {
                            tokens: quote!([u32; #n]),
                            what,
                            elements: n,
                            float: false,
                        }
                    }
                    _ => FieldType {
                        tokens: quote!([u8; #size]),
                        what,
                        elements: size,
                        float: false,
                    },
                },
            }
        }
        ValueKind::GlobalBuffer => {
            let space = arg.address_space.map_or("global", |s| s.name());
            let what = format!("{described}{space} buffer pointer ({} bytes)", arg.size);
            match arg.pointee_scalar() {
                Some(t) => {
                    let element = match t {
                        ScalarType::F16 => quote!(u16),
                        t => scalar_tokens(t),
                    };
                    plain(quote!(#k::TypedPtr<#element>), what)
                }
                None => plain(quote!(#k::DevicePtr), what),
            }
        }
        ValueKind::DynamicSharedPointer => plain(
            quote!(#k::LocalMemory),
            "dynamic shared pointer: the size of its local buffer; the kernel receives the buffer's LDS offset".into(),
        ),
        _ => return None,
    })
}

/// The Rust type of a scalar type (not `F16`, which Rust has no stable
/// type for).
fn scalar_tokens(t: ScalarType) -> TokenStream {
    match t {
        ScalarType::I8 => quote!(i8),
        ScalarType::U8 => quote!(u8),
        ScalarType::I16 => quote!(i16),
        ScalarType::U16 | ScalarType::F16 => quote!(u16),
        ScalarType::I32 => quote!(i32),
        ScalarType::U32 => quote!(u32),
        ScalarType::F32 => quote!(f32),
        ScalarType::I64 => quote!(i64),
        ScalarType::U64 => quote!(u64),
        ScalarType::F64 => quote!(f64),
    }
}

/// A value kind as the v3+ metadata spells it.
fn kind_name(k: &ValueKind) -> String {
    match k {
        ValueKind::Other(s) => s.clone(),
        k => k.v3_name().map_or_else(|| format!("{k:?}"), str::to_string),
    }
}
