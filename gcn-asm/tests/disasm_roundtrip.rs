//! Disassembler round trip over the conformance cases: for every good case
//! of `../shared/conformance/clrx-encoding-cases.jsonl`, disassemble its
//! expected words and assemble the listing for the same device; the words
//! must come back identical.
//!
//! Every family — scalar and vector ALU, scalar memory and the memory
//! families (DS, MUBUF, MTBUF, MIMG, EXP, FLAT/GLOBAL/SCRATCH) — is held to
//! 100%: a case counts as passing only when every word decodes to an
//! instruction and the listing assembles to the same words. There are no
//! exceptions. Without `../shared` the test prints a notice and passes.

use std::collections::BTreeMap;

use gcn_asm::decode::{disassemble, family, Form, Item};
use gcn_asm::isa::Encoding;
use gcn_asm::{assemble, AssembleOptions, Device};

mod common;

fn is_memory(e: Encoding) -> bool {
    matches!(
        e,
        Encoding::Ds
            | Encoding::Mubuf
            | Encoding::Mtbuf
            | Encoding::Mimg
            | Encoding::Exp
            | Encoding::Flat
            | Encoding::Global
            | Encoding::Scratch
    )
}

#[derive(Default)]
struct Tally {
    total: usize,
    passed: usize,
    failures: Vec<String>,
}

#[test]
fn conformance_words_round_trip() {
    let Some(text) = common::encoding_cases("the disassembly round trip of the conformance cases")
    else {
        return;
    };
    let mut tallies: BTreeMap<(String, String), Tally> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: serde_json::Value = serde_json::from_str(line).expect("valid JSON line");
        if case["good"] != true {
            continue;
        }
        let arch = case["arch"].as_str().unwrap_or_default().to_string();
        let device =
            Device::from_name(case["device"].as_str().unwrap_or_default()).expect("known device");
        let version = device.version();
        let words: Vec<u32> = common::case_words(&case);
        let Some(&first) = words.first() else {
            continue;
        };
        let listing = disassemble(&words, version);
        let fam = match listing.items[0].item {
            Item::Instruction(i) => {
                let base = format!("{:?}", i.row.encoding).to_lowercase();
                match i.form {
                    Form::Native => base,
                    Form::Vop3 => format!("{base}_vop3"),
                    Form::Sdwa => format!("{base}_sdwa"),
                    Form::Dpp => format!("{base}_dpp"),
                }
            }
            Item::Word(_) => match family(first, version) {
                Some(e) => format!("{e:?}").to_lowercase(),
                None => "unknown".into(),
            },
        };
        let memory = family(first, version).is_some_and(is_memory);
        let fam = if memory { format!("memory:{fam}") } else { fam };
        let source = listing.to_string();
        let options = AssembleOptions {
            device: Some(device),
            ..AssembleOptions::default()
        };
        let undecoded = listing
            .items
            .iter()
            .any(|d| matches!(d.item, Item::Word(_)));
        let verdict = match assemble(&source, &options) {
            _ if undecoded => Some("not decoded".to_string()),
            Ok(out) => {
                let got = gcn_asm::decode::words_from_bytes(out.text());
                (got != words).then(|| format!("reassembled to {got:08x?}"))
            }
            Err(d) => Some(format!("rejected: {d}")),
        };
        let tally = tallies.entry((arch.clone(), fam)).or_default();
        tally.total += 1;
        match verdict {
            None => tally.passed += 1,
            Some(why) => tally.failures.push(format!(
                "{:?} {words:08x?}\n      -> {}      {why}",
                case["source"].as_str().unwrap_or_default(),
                source.trim_end().replace('\n', "\n         ")
            )),
        }
    }
    let mut below = Vec::new();
    for ((arch, fam), tally) in &tallies {
        println!(
            "{arch:9} {fam:16} {:5}/{:<5} round trip",
            tally.passed, tally.total
        );
        for failure in &tally.failures {
            println!("    {failure}");
        }
        if tally.passed < tally.total {
            below.push(format!("{arch} {fam}: {}/{}", tally.passed, tally.total));
        }
    }
    let passed: usize = tallies.values().map(|t| t.passed).sum();
    let total: usize = tallies.values().map(|t| t.total).sum();
    println!("all families: {passed}/{total} good cases round trip");
    assert!(
        below.is_empty(),
        "families below 100%: {}",
        below.join(", ")
    );
}
