//! Source text to statements: lexing, expressions, symbols, sections,
//! pseudo-ops, macros and conditionals (the syntax of `ClrxAsmSyntax.md` and
//! `ClrxAsmPseudoOps.md`).
//!
//! - [`source`]: logical lines (comments, continuations) and statements.
//! - [`expr`]: literals and expressions.
//! - [`symbols`]: symbols, scopes, local labels.
//! - [`sections`]: output sections.
//! - [`assembler`]: the driver and the public API.
//! - `pseudo_ops`, `conditionals`, `macros`: the pseudo-operations.

pub mod assembler;
mod conditionals;
pub mod cursor;
pub mod expr;
pub mod float;
mod gallium;
mod macros;
mod pseudo_ops;
mod rocm;
pub mod sections;
pub mod source;
pub mod symbols;

#[cfg(test)]
mod tests;
