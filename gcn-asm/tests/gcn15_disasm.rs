//! GCN 1.5 (RDNA 1) disassembly against clrxdisasm: the goldens of
//! `tests/data/gcn15` (`make_goldens.py` makes them: raw code that clrxasm
//! assembled from our sources, or opcode-by-opcode and seeded random words
//! of every encoding family, with `clrxdisasm -r` text for each, `--wave32`
//! for the `_w32` ones) are listed by the library in clrxdisasm's layout
//! (`gcn_asm::decode::write_clrx_listing`, what `gcndisasm -r` prints for
//! GCN 1.5) and compared line by line.
//!
//! - A line of clrxdisasm's that clrxasm assembles back to its words (a
//!   *faithful* line) must be ours exactly, unless `known-differences.txt`
//!   names it (`NAME OFFSET: reason`); a named line that now matches fails
//!   the test too, so that fixing it flags the entry.
//! - A line clrxasm does not assemble back (`NAME.lossy`: a reserved bit
//!   set, a form clrxasm rejects, a field clrxdisasm leaves out) need not
//!   match: there our listing must still assemble back to the same words
//!   (as every listing of ours must, checked for the whole file), by
//!   printing another form or `.int`.
//! - Labels, `.fill` runs, `.org` and clrxdisasm's warnings must match.
//!
//! Only the first line (clrxdisasm's `/* Disassembling 'FILE' */` comment)
//! is left out of the comparison. The test prints the match rate.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use gcn_asm::decode::{words_from_bytes, write_clrx_listing, DecodeOptions};
use gcn_asm::syntax::assembler::BinaryFormat;

mod common;
use gcn_asm::{assemble, AssembleOptions, Device, GcnVersion};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gcn15")
}

struct Golden {
    name: String,
    bytes: Vec<u8>,
    clrx: String,
    lossy: BTreeSet<u64>,
    wave32: bool,
}

fn goldens() -> Vec<Golden> {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .expect("tests/data/gcn15")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".clrx").map(str::to_string)
        })
        .collect();
    names.sort();
    assert!(names.len() > 40, "the goldens are missing");
    names
        .into_iter()
        .map(|name| {
            let read = |ext: &str| std::fs::read(dir().join(format!("{name}.{ext}"))).unwrap();
            let lossy = String::from_utf8(read("lossy"))
                .unwrap()
                .split_whitespace()
                .map(|o| u64::from_str_radix(o, 16).expect("hex offset"))
                .collect();
            Golden {
                wave32: name.ends_with("_w32") || name == "wave32",
                bytes: read("bin"),
                clrx: String::from_utf8(read("clrx")).unwrap(),
                lossy,
                name,
            }
        })
        .collect()
}

/// `NAME OFFSET` (hex) → reason.
fn known_differences() -> BTreeMap<(String, u64), String> {
    let text = std::fs::read_to_string(dir().join("known-differences.txt")).unwrap();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (key, reason) = l.split_once(':').expect("NAME OFFSET: reason");
            let mut parts = key.split_whitespace();
            let name = parts.next().expect("NAME").to_string();
            let offset = u64::from_str_radix(parts.next().expect("OFFSET"), 16).expect("hex");
            ((name, offset), reason.trim().to_string())
        })
        .collect()
}

/// Our listing of a golden, as `gcndisasm -g gfx1010 -r` prints it, but
/// for the first (comment) line.
fn our_listing(g: &Golden) -> String {
    let mut out = String::from(".rawcode\n.gpu GFX1010\n");
    if g.wave32 {
        out.push_str(".wave32\n");
    }
    out.push_str(".text\n");
    if !g.bytes.len().is_multiple_of(4) {
        out.push_str("        /* WARNING: Code size is not aligned to 4-byte word! */\n");
    }
    let words = words_from_bytes(&g.bytes[..g.bytes.len() & !3]);
    let options = DecodeOptions { wave32: g.wave32 };
    write_clrx_listing(&mut out, &words, GcnVersion::Gcn1_5, options).unwrap();
    out
}

/// The offset of an instruction line (`/*OFFSET*/ …`).
fn line_offset(line: &str) -> Option<u64> {
    let hex = line.strip_prefix("/*")?.get(..12)?;
    line.get(12 + 2..)?.starts_with("*/").then_some(())?;
    u64::from_str_radix(hex, 16).ok()
}

/// Instruction lines by offset, and the other lines in order.
fn split(text: &str) -> (BTreeMap<u64, &str>, Vec<&str>) {
    let mut lines = BTreeMap::new();
    let mut other = Vec::new();
    for line in text.lines() {
        match line_offset(line) {
            Some(o) => {
                lines.insert(o, line);
            }
            None => other.push(line),
        }
    }
    (lines, other)
}

#[test]
fn listings_match_clrxdisasm() {
    let known = known_differences();
    let mut unexpected = Vec::new();
    let mut stale = Vec::new();
    let (mut faithful, mut faithful_equal) = (0usize, 0usize);
    let (mut lossy, mut lossy_equal) = (0usize, 0usize);
    let mut seen_known = BTreeSet::new();
    for g in goldens() {
        let ours = our_listing(&g);
        // Leave out clrxdisasm's first line, `/* Disassembling 'FILE' */`.
        let clrx = g.clrx.split_once('\n').map_or("", |(_, rest)| rest);
        let (clrx_lines, clrx_other) = split(clrx);
        let (our_lines, our_other) = split(&ours);
        if clrx_other != our_other {
            unexpected.push(format!(
                "{}: labels, .fill or header lines differ:\n  clrxdisasm: {:?}\n  ours:       {:?}",
                g.name, clrx_other, our_other
            ));
        }
        for (&offset, &line) in &clrx_lines {
            let our = our_lines.get(&offset).copied();
            let equal = our == Some(line);
            if g.lossy.contains(&offset) {
                lossy += 1;
                lossy_equal += usize::from(equal);
                continue;
            }
            faithful += 1;
            faithful_equal += usize::from(equal);
            let key = (g.name.clone(), offset);
            match (equal, known.contains_key(&key)) {
                (false, false) => unexpected.push(format!(
                    "{} {offset:x}:\n  clrxdisasm: {line}\n  ours:       {}",
                    g.name,
                    our.unwrap_or("<no line at this offset>")
                )),
                (true, true) => stale.push(format!("{} {offset:x}", g.name)),
                (false, true) => {
                    seen_known.insert(key);
                }
                (true, false) => {}
            }
        }
    }
    let total = faithful + lossy;
    eprintln!(
        "GCN 1.5 listings: {} of {total} instruction lines are clrxdisasm's ({faithful_equal} of \
         {faithful} lines clrxasm assembles back, {lossy_equal} of {lossy} it does not)",
        faithful_equal + lossy_equal
    );
    let missing: Vec<_> = known
        .keys()
        .filter(|k| !seen_known.contains(*k) && !stale.contains(&format!("{} {:x}", k.0, k.1)))
        .map(|(n, o)| format!("{n} {o:x}"))
        .collect();
    assert!(
        unexpected.is_empty(),
        "{} lines differ from clrxdisasm's (not in known-differences.txt):\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
    assert!(
        stale.is_empty(),
        "known-differences.txt names lines that now match clrxdisasm: {stale:?}"
    );
    assert!(
        missing.is_empty(),
        "known-differences.txt names lines that are not (faithful) lines of the goldens: {missing:?}"
    );
}

/// Every listing assembles back to the words it lists (`.org` lines for
/// labels past the end of the code add zero bytes after them).
#[test]
fn listings_assemble_back() {
    let mut failures = Vec::new();
    for g in goldens() {
        let listing = our_listing(&g);
        let options = AssembleOptions {
            version: Some(GcnVersion::Gcn1_5),
            device: Some(Device::Gfx1010),
            format: BinaryFormat::RawCode,
            wave32: g.wave32,
            ..AssembleOptions::default()
        };
        let out = match assemble(&listing, &options) {
            Ok(out) => out,
            Err(d) => {
                failures.push(format!("{}: {}", g.name, d));
                continue;
            }
        };
        let code = out.text();
        let n = g.bytes.len() & !3;
        let same =
            code.len() >= n && code[..n] == g.bytes[..n] && code[n..].iter().all(|&b| b == 0);
        if !same {
            let at = (0..n)
                .step_by(4)
                .find(|&i| code.get(i..i + 4) != Some(&g.bytes[i..i + 4]))
                .unwrap_or(n);
            let line = listing
                .lines()
                .rfind(|l| line_offset(l).is_some_and(|o| o as usize <= at))
                .unwrap_or("");
            failures.push(format!(
                "{}: the listing assembles to other words from offset {at:#x} ({line})",
                g.name
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `gcndisasm -r` prints the listing with clrxdisasm's header, for gfx1010
/// (and `--wave32`), gfx1011 and gfx1012.
#[test]
fn gcndisasm_prints_clrxdisasm_listing() {
    let all = goldens();
    for name in ["vector", "wave32"] {
        let g = all.iter().find(|g| g.name == name).unwrap();
        let path = dir().join(format!("{name}.bin"));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_gcndisasm"));
        cmd.args(["-g", "gfx1010"]);
        if g.wave32 {
            cmd.arg("--wave32");
        }
        let out = cmd.arg("-r").arg(&path).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let expected = format!(
            "/* Disassembling '{}' */\n{}",
            path.display(),
            our_listing(g)
        );
        assert_eq!(text, expected);
    }
    for (device, gpu) in [("gfx1011", "GFX1011"), ("gfx1012", "GFX1011")] {
        let out = Command::new(env!("CARGO_BIN_EXE_gcndisasm"))
            .args(["-g", device, "-r"])
            .arg(dir().join("scalar.bin"))
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.lines().nth(2) == Some(&format!(".gpu {gpu}")[..]),
            "{device}: {}",
            text.lines().take(4).collect::<Vec<_>>().join(" | ")
        );
        assert!(text.contains("s_add_u32       s0, s1, s2"));
    }
    // --wave32 is for GCN 1.5 raw code.
    let out = Command::new(env!("CARGO_BIN_EXE_gcndisasm"))
        .args(["-g", "gfx900", "--wave32", "-r"])
        .arg(dir().join("scalar.bin"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// The good cases of the GCN 1.5 conformance corpus
/// (`shared/conformance/clrx-encoding-cases-gcn15.jsonl`, clrxasm's words
/// for CLRX's own GCN 1.5 assembler tests): their listing assembles back to
/// the same words, and nearly every one decodes to instructions (the rest
/// print as `.int`). Without `shared/` the test says so and passes.
#[test]
fn conformance_words_round_trip() {
    let Some(dir) = common::shared_dir_for("the GCN 1.5 conformance words") else {
        return;
    };
    let path = dir.join("conformance/clrx-encoding-cases-gcn15.jsonl");
    let Ok(text) = std::fs::read_to_string(&path) else {
        common::skipped("the GCN 1.5 conformance words", &path);
        return;
    };
    let (mut cases, mut decoded) = (0usize, 0usize);
    let mut failures = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: serde_json::Value = serde_json::from_str(line).expect("valid JSON line");
        if case["good"] != true {
            continue;
        }
        let words = common::case_words(&case);
        if words.is_empty() {
            continue;
        }
        let wave32 = case["wave32"] == true;
        cases += 1;
        let options = DecodeOptions { wave32 };
        let listing = gcn_asm::decode::disassemble_with(&words, GcnVersion::Gcn1_5, options);
        if listing
            .items
            .iter()
            .all(|d| matches!(d.item, gcn_asm::decode::Item::Instruction(_)))
        {
            decoded += 1;
        }
        let mut clrx = String::new();
        write_clrx_listing(&mut clrx, &words, GcnVersion::Gcn1_5, options).unwrap();
        let assemble_options = AssembleOptions {
            version: Some(GcnVersion::Gcn1_5),
            format: BinaryFormat::RawCode,
            wave32,
            ..AssembleOptions::default()
        };
        for listing in [listing.to_string(), clrx] {
            match assemble(&listing, &assemble_options) {
                Ok(out) if words_from_bytes(out.text()).starts_with(&words) => {}
                Ok(_) => failures.push(format!("other words: {listing}")),
                Err(d) => failures.push(format!("{d}: {listing}")),
            }
        }
    }
    eprintln!("GCN 1.5 conformance words: {decoded} of {cases} cases decode to instructions");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        decoded * 10 >= cases * 9,
        "only {decoded} of {cases} cases decode"
    );
}
