//! The emulator's coverage table, generated from the ISA rows: per GCN
//! version, how many mnemonics execute and which stop as not emulated
//! (with `--list`: each one and why).
//!
//! `cargo run --example coverage` (add `-- --list` for the missing names).

use gcn_runtime::exec::gaps::gap_reason;
use gcn_runtime::exec::{coverage, family_claimed};
use gcn_runtime::gcn_asm::GcnVersion;

fn main() {
    let list = std::env::args().any(|a| a == "--list");
    println!(
        "| version | executes | not emulated (claimed families) | not emulated (EXP, VINTRP) |"
    );
    println!("|---|---|---|---|");
    for version in GcnVersion::ALL {
        let c = coverage(version);
        let (claimed, other): (Vec<_>, Vec<_>) = c
            .missing
            .iter()
            .partition(|(_, family)| family_claimed(*family));
        println!(
            "| {} | {} | {} | {} |",
            version,
            c.emulated.len(),
            claimed.len(),
            other.len()
        );
        if list {
            for (name, family) in claimed {
                let row =
                    gcn_runtime::gcn_asm::isa::lookup(name, version).expect("a row of the table");
                println!(
                    "    {version}: {name} ({family:?}): {}",
                    gap_reason(row, version)
                );
            }
        }
    }
}
