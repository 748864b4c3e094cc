//! Throughput probe of the statement layer (run with
//! `cargo test --release --test syntax_speed -- --ignored --nocapture`).
//! Prints the time; never asserts on it.

use gcn_asm::{assemble, AssembleOptions};

#[test]
#[ignore]
fn hundred_thousand_lines() {
    let mut src = String::from("x = 0\n");
    for i in 0..25_000 {
        src.push_str(&format!(
            "label{i}: .int {i}, label{i} + 4, fwd{i} - label{i}\n"
        ));
        src.push_str("x = x + 1 # count\n");
        src.push_str("    .byte 1, 2, 3 /* bytes */ ; .short x & 0xff\n");
        src.push_str(&format!("fwd{i}:\n"));
    }
    let opts = AssembleOptions::default();
    let start = std::time::Instant::now();
    let out = assemble(&src, &opts).unwrap();
    let elapsed = start.elapsed();
    println!("100k lines: {elapsed:?}, {} bytes", out.text().len());
}

#[test]
#[ignore]
fn hundred_thousand_plain_lines() {
    let mut src = String::new();
    for i in 0..100_000 {
        src.push_str(&format!("    .int {}, 0x{:x} # data\n", i & 0xff, i));
    }
    let opts = AssembleOptions::default();
    let start = std::time::Instant::now();
    let out = assemble(&src, &opts).unwrap();
    println!(
        "100k plain lines: {:?}, {} bytes",
        start.elapsed(),
        out.text().len()
    );
}
