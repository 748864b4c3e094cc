//! The checks and the emulator derive every instruction fact from the ISA
//! rows and the decoder's resolved operand set: no file of `src/check` or
//! `src/exec` (tests aside) may test a mnemonic string — semantics are
//! bound by the generated `Mnemonic` enum, and atomic operations, compare
//! predicates, sample variants, formats and widths are row data. This scans
//! the sources for string literals that are a mnemonic or the prefix of one
//! (`"s_cbranch_vccz"`, `"v_cmpx"`, `"ds_read"`) and for mnemonic
//! comparisons.

use std::path::Path;

use gcn_asm::isa::INSTRUCTIONS;

/// The string literals of `source` (simple scanner: `"…"` with `\"`
/// escapes; comments are skipped).
fn string_literals(source: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in source.lines().enumerate() {
        let code = match line.find("//") {
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        };
        let mut chars = code.char_indices().peekable();
        while let Some((_, c)) = chars.next() {
            if c != '"' {
                continue;
            }
            let mut lit = String::new();
            let mut escaped = false;
            for (_, c) in chars.by_ref() {
                match (escaped, c) {
                    (false, '\\') => escaped = true,
                    (false, '"') => break,
                    _ => {
                        escaped = false;
                        lit.push(c);
                    }
                }
            }
            out.push((n + 1, lit));
        }
    }
    out
}

/// True when `lit` names an instruction or a family of them.
fn is_mnemonic_like(lit: &str) -> bool {
    lit.len() >= 3
        && lit.contains('_')
        && lit
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        && INSTRUCTIONS.iter().any(|r| r.mnemonic.starts_with(lit))
}

fn offences(source: &str) -> Vec<String> {
    // Test modules sit at the end of a file: stop at the first one.
    let source = source.split("#[cfg(test)]").next().unwrap_or("");
    let mut found: Vec<String> = string_literals(source)
        .into_iter()
        .filter(|(_, lit)| is_mnemonic_like(lit))
        .map(|(line, lit)| format!("line {line}: \"{lit}\""))
        .collect();
    for (n, line) in source.lines().enumerate() {
        if line.contains(".mnemonic") && (line.contains("==") || line.contains("starts_with")) {
            found.push(format!("line {}: {}", n + 1, line.trim()));
        }
    }
    found
}

/// Offences in the top-level `.rs` files of `src/DIR` (test-only files
/// aside).
fn scan(dir: &str, test_only: &[&str]) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut problems = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("source folder") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !name.ends_with(".rs") || test_only.contains(&name) {
            continue;
        }
        let source = std::fs::read_to_string(&path).expect("readable");
        for o in offences(&source) {
            problems.push(format!("{}: {o}", path.display()));
        }
    }
    problems
}

#[test]
fn the_checks_test_no_mnemonic_strings() {
    let problems = scan("check", &["tests.rs", "tests_rdna.rs"]);
    assert!(
        problems.is_empty(),
        "instruction facts belong in the ISA rows (gcn-asm/isa), not in mnemonic tests:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_emulator_tests_no_mnemonic_strings() {
    let problems = scan("exec", &["tests.rs", "testing.rs", "invariant.rs"]);
    assert!(
        problems.is_empty(),
        "semantics are bound by gcn_asm::isa::Mnemonic and read row data, not mnemonic strings:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_scan_finds_what_it_looks_for() {
    // The scanner must catch the forms the checks once used.
    let bad = r#"
        let div = name.starts_with("v_div_fmas");
        match name { "s_cbranch_vccz" | "s_cbranch_execz" => {} _ => {} }
        if row.mnemonic == "s_nop" {}
        let ok = "reads before the s_waitcnt"; // prose is fine
    "#;
    let found = offences(bad);
    assert_eq!(found.len(), 5, "{found:?}");
    assert!(offences("let m = \"a message with s_waitcnt in it\";").is_empty());
    // Test modules at the end of a file are not scanned.
    assert!(
        offences("fn f() {}\n#[cfg(test)]\nmod tests { const X: &str = \"s_nop\"; }").is_empty()
    );
}
