//! Issue 23, "fuzz every input surface": the `gcn_kernel!` input, through
//! the macro's own entry point (`expand`, with proc-macro2's fallback
//! token streams). Mutated kernels in the three input forms (Rust tokens,
//! a string literal, a file path), with mutated options and module
//! headers, time-boxed by `GCN_FUZZ_SECONDS` (see
//! gcn-asm/tests/common/fuzz.rs): no panic, no hang, bounded memory, and
//! every error a `compile_error!` with a message at a located span.

#[path = "../../gcn-asm/tests/common/fuzz.rs"]
mod fuzz;

use std::str::FromStr;
use std::time::Duration;

use proc_macro2::{TokenStream, TokenTree};

use fuzz::{campaign, mutated_text, Rng, Verdict, Violation};

#[global_allocator]
static ALLOC: fuzz::Counting = fuzz::Counting;

/// Kernels as they are written inside `gcn_kernel! { … }`.
const TOKEN_KERNELS: &[&str] = &[
    "mod k;\n.gallium\n.gpu Pitcairn\n.kernel vadd\n    .args\n        .arg n, scalar, 4 // uint n\n        .arg a, global, 8\n        .arg griddim\n    .config\n        .dims x\n        .tgsize\n.text\nvadd:\n    s_load_dword s2, s[0:1], 9\n    s_waitcnt lgkmcnt(0)\n    v_cmp_gt_u32 vcc, s2, v0\n    s_and_saveexec_b64 s[4:5], vcc\n    v_add_f32 v1, -|v0|, 1.5 clamp\n    s_endpgm\n",
    "#![gpu = \"tonga\"]\n.kernel k\n.args\n.arg out, global, 8\n.text\nk:\n  s_load_dwordx2 s[2:3], s[0:1], 0x24\n  s_waitcnt lgkmcnt(0)\n  v_mov_b32 v1, s3\n  flat_store_dword v[0:1], v1 glc slc\n  s_endpgm\n",
    "pub(crate) mod m;\n#![arch = \"gcn1.4\"]\n.rawcode\n.macro m a, b = 2\n  s_add_u32 s\\a, s\\b, 1\n.endm\nm 1\n.rept 2\n  v_mad_f32 v0, v1, -v2, 1.5 div:2\n.endr\n",
    ".rocm\n.gpu gfx900\n.md_version 1, 0\n.kernel s\n  .config\n    .dims x\n    .use_kernarg_segment_ptr\n    .arg in, \"float*\", 8, , globalbuf, f32, global, default const\n    .arg k, \"float\", 4, , value, f32\n    .arg t, \"int*\", 4, , dynshptr, i32, 4, local\n    .arg , \"\", 8, , gox, i64\n.text\ns:\n  .skip 256\n  s_load_dwordx2 s[2:3], s[4:5], 0\n  s_endpgm\n",
    ".gpu gfx900\n.gallium\n.kernel a\n.kernel b\n.config\n.dims xyz\n.localsize 1024\n.text\na:\nb:\n  ds_write_b32 v1, v2 offset:4\n  global_load_dword v0, v[1:2], off offset:-8\n  s_endpgm\n",
];

/// Source for the string-literal form.
const TEXT_KERNELS: &[&str] = &[
    include_str!("../../tests/kernels/vadd.s"),
    include_str!("../../tests/kernels/sample.s"),
    include_str!("../testdata/good.s"),
    include_str!("../testdata/bad.s"),
    ".rocm\n.gpu gfx906\n.llvm10binfmt\n.metadatav3\n.md_version 1, 0\n.globaldata\n.skip 64\n.kernel h\n  .config\n    .dims x\n    .use_kernarg_segment_ptr\n    .printf 1, 4, \"%u\\n\"\n    .arg n, \"uint\", 4, 0, value, u32\n    .arg img, \"image2d_t\", 8, 8, image, struct, read_only\n    .arg , \"\", 8, 16, printfbuf, i8\n.text\nh:\n  s_endpgm\n",
];

const TOKENS: &[&str] = &[
    "mod",
    "pub",
    "mod x;",
    "#![gpu = \"tonga\"]",
    "#![arch = \"x\"]",
    "#![]",
    "#!",
    "#",
    "!",
    "file = \"testdata/good.s\"",
    "file =",
    "gpu = \"pitcairn\"",
    ",",
    ";",
    "=",
    "\"\"",
    "r#\"\"#",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ".kernel",
    ".args",
    ".arg",
    ".config",
    ".text",
    "s[0:1]",
    "v0",
    ".include \"testdata/good.inc\"",
    ".include \"nonexistent\"",
    "'a'",
    "b'x'",
    "1.5e3",
    "0x10",
    "é",
    "𝕏",
    "\\",
    "::",
    "..",
    "=>",
    "$",
    "@",
    "1b",
    "2f",
    "//",
    "/*",
    "*/",
];

/// A macro input: the token text (mutated), or a literal / file form.
#[derive(Debug)]
struct MacroInput {
    tokens: String,
}

fn literal(text: &str) -> String {
    format!("{text:?}")
}

/// The contract of an expansion that failed: only `compile_error!`s, each
/// with a non-empty message and a span that has a position.
fn check_errors(out: &TokenStream) -> Result<(), Violation> {
    let trees: Vec<TokenTree> = out.clone().into_iter().collect();
    let mut n = 0;
    for (i, t) in trees.iter().enumerate() {
        let TokenTree::Ident(id) = t else { continue };
        if id != "compile_error" {
            continue;
        }
        n += 1;
        let start = id.span().start();
        if start.line == 0 {
            return Err(format!("a compile_error! without a position: {out}"));
        }
        let message = trees.get(i + 2).map(|g| g.to_string()).unwrap_or_default();
        let message = message.trim_matches(|c| c == '(' || c == ')' || c == '"' || c == ' ');
        if message.is_empty() {
            return Err(format!("a compile_error! with an empty message: {out}"));
        }
    }
    if n == 0 {
        return Err(format!("an error expansion without compile_error!: {out}"));
    }
    Ok(())
}

#[test]
fn fuzz_gcn_kernel_input() {
    let all: Vec<&'static str> = TOKEN_KERNELS.iter().chain(TEXT_KERNELS).copied().collect();
    let gen = move |rng: &mut Rng| {
        let form = rng.below(4);
        let tokens = match form {
            0 | 1 => {
                let seed = *rng.pick(TOKEN_KERNELS);
                mutated_text(rng, seed, &all, TOKENS, 4)
            }
            2 => {
                let seed = *rng.pick(TEXT_KERNELS);
                let text = mutated_text(rng, seed, &all, TOKENS, 4);
                let mut t = literal(&text);
                if rng.one_in(2) {
                    t = format!(
                        "{t}, gpu = \"{}\"",
                        rng.pick(&["tonga", "pitcairn", "gfx906", "x"])
                    );
                }
                // Mutate the literal's surroundings too (quotes, options).
                if rng.one_in(4) {
                    t = mutated_text(rng, &t, &[], TOKENS, 2);
                }
                t
            }
            _ => {
                let path = rng.pick(&[
                    "testdata/good.s",
                    "testdata/bad.s",
                    "testdata/none.s",
                    "testdata",
                    "",
                ]);
                let t = format!("file = \"{path}\", arch = \"gcn1.2\"");
                mutated_text(rng, &t, &[], TOKENS, 2)
            }
        };
        MacroInput { tokens }
    };
    let report = campaign(
        "gcn_kernel! input",
        Duration::from_secs(20),
        gen,
        |input: &MacroInput| {
            // What Rust itself would not tokenize never reaches the macro.
            let Ok(tokens) = TokenStream::from_str(&input.tokens) else {
                return Ok(Verdict::Rejected);
            };
            match super::expand(tokens) {
                Ok(_) => Ok(Verdict::Ok),
                Err(out) => check_errors(&out).map(|()| Verdict::Rejected),
            }
        },
    );
    assert!(report.inputs > 0);
}
