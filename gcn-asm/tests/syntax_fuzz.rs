//! The assembler must never panic or hang, whatever it is fed.

use gcn_asm::{assemble, AssembleOptions};
use proptest::prelude::*;

const TOKENS: &[&str] = &[
    ".byte",
    ".int",
    ".quad",
    ".octa",
    ".float",
    ".half",
    ".ascii",
    ".string16",
    ".fill",
    ".skip",
    ".align",
    ".p2align",
    ".org",
    ".set",
    ".equ",
    ".equiv",
    ".eqv",
    ".if",
    ".ifdef",
    ".ifc",
    ".ifeqs",
    ".elseif",
    ".else",
    ".endif",
    ".macro",
    ".endm",
    ".exitm",
    ".purgem",
    ".rept",
    ".irp",
    ".irpc",
    ".for",
    ".while",
    ".endr",
    ".scope",
    ".ends",
    ".using",
    ".unusing",
    ".section",
    ".text",
    ".data",
    ".struct",
    ".enum",
    ".undef",
    ".error",
    ".warning",
    ".fail",
    ".include",
    ".incbin",
    ".gpu",
    ".arch",
    ".altmacro",
    ".get_arch",
    ".abort",
    ".end",
    "s_nop",
    "v_add_f32",
    "m",
    "x",
    "y",
    "::x",
    "a::b",
    "1b",
    "1f",
    "1:",
    "x:",
    ".",
    "=",
    "==",
    ",",
    ";",
    "\n",
    "\\\n",
    "\\",
    "\\x",
    "\\@",
    "\\()",
    "(",
    ")",
    "[",
    "]",
    "?",
    ":",
    "+",
    "-",
    "*",
    "/",
    "//",
    "%",
    "%%",
    "<<",
    ">>",
    ">>>",
    "!",
    "~",
    "&&",
    "||",
    "<>",
    "<@",
    ">=@",
    "\"",
    "\"s\"",
    "'",
    "'a'",
    "/*",
    "*/",
    "#",
    "0",
    "1",
    "2",
    "7",
    "0x10",
    "0b1",
    "017",
    "1.5",
    "-1",
    "99999999999999999999",
    "@",
    "%s[0:1]",
    "<",
    ">",
    " ",
    "\t",
];

fn options() -> AssembleOptions {
    AssembleOptions {
        include_dirs: vec![],
        ..AssembleOptions::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(text in "\\PC{0,200}") {
        let _ = assemble(&text, &options());
    }

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(0..TOKENS.len(), 0..60)) {
        let mut text = String::new();
        for t in tokens {
            text.push_str(TOKENS[t]);
            text.push(' ');
        }
        let _ = assemble(&text, &options());
    }

    #[test]
    fn statement_soup_never_panics(lines in prop::collection::vec(
        (0..TOKENS.len(), 0..TOKENS.len(), 0..TOKENS.len(), 0..TOKENS.len()), 0..25)) {
        let mut text = String::new();
        for (a, b, c, d) in lines {
            for t in [a, b, c, d] {
                text.push_str(TOKENS[t]);
                text.push(' ');
            }
            text.push('\n');
        }
        let _ = assemble(&text, &options());
    }
}
