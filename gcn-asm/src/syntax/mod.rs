//! Source text to statements: lexing, expressions, symbols, sections,
//! pseudo-ops, macros and conditionals (the syntax of `ClrxAsmSyntax.md` and
//! `ClrxAsmPseudoOps.md`).

pub mod assembler;
pub mod cursor;
pub mod float;
