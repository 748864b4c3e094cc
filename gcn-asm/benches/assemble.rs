//! Assembler throughput: a 100,000-line mixed GCN 1.0 source built from the
//! conformance cases (single-line good GCN 1.0 cases of the ALU and scalar
//! memory families, repeated), or from a built-in sample when `../shared` is
//! absent.
//!
//! `cargo bench -p gcn-asm --bench assemble` reports the time per assembly;
//! lines/s = 100,000 / that time. The generated source is also written to
//! `target/bench-gcn10.s` so the whole `gcnasm` process can be timed on it.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gcn_asm::{assemble, AssembleOptions, Device};

#[path = "../tests/common/mod.rs"]
mod common;

const FALLBACK: &[&str] = &[
    "    s_add_u32  s21, s4, s61",
    "    s_xor_b64  s[20:21], s[4:5], s[62:63]",
    "    v_add_f32  v154, v21, v107",
    "    v_mad_f32 v55, v79, v166, v229",
    "    v_cndmask_b32   v154, v21, v107, vcc",
    "    s_load_dwordx4  s[52:55], s[58:59], s83",
    "    v_cmp_lt_f32  vcc, v79, v201",
    "    s_waitcnt  vmcnt(0) & expcnt(0) & lgkmcnt(0)",
];

/// The benchmark source: `lines` lines of GCN 1.0 code.
pub fn bench_source(lines: usize) -> String {
    let mut pool: Vec<String> = Vec::new();
    if let Some(text) = common::encoding_cases("the conformance cases in the benchmark source") {
        for line in text.lines() {
            let Ok(case) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let source = case["source"].as_str().unwrap_or_default();
            let mnemonic = source.trim_start();
            if case["arch"] == "gcn1.0"
                && case["good"] == true
                && !source.contains(['\n', ';', '=', ':'])
                && (mnemonic.starts_with("s_") || mnemonic.starts_with("v_"))
            {
                pool.push(source.to_string());
            }
        }
    }
    // Lines that warn (deliberately out-of-range values) would flood the
    // output of a timed `gcnasm` run; keep the clean ones.
    let options = AssembleOptions {
        device: Some(Device::Pitcairn),
        ..AssembleOptions::default()
    };
    pool.retain(|line| assemble(line, &options).is_ok_and(|a| a.warnings.is_empty()));
    if pool.is_empty() {
        pool = FALLBACK.iter().map(|s| s.to_string()).collect();
    }
    let mut out = String::with_capacity(lines * 40);
    for i in 0..lines {
        out.push_str(&pool[i % pool.len()]);
        out.push('\n');
    }
    out
}

fn throughput(c: &mut Criterion) {
    let source = bench_source(100_000);
    let target = concat!(env!("CARGO_MANIFEST_DIR"), "/../target/bench-gcn10.s");
    let _ = std::fs::write(target, &source);
    let options = AssembleOptions {
        device: Some(Device::Pitcairn),
        ..AssembleOptions::default()
    };
    assemble(&source, &options).expect("the benchmark source assembles");
    let mut group = c.benchmark_group("assemble");
    group.throughput(Throughput::Elements(100_000));
    group.sample_size(20);
    group.bench_function("gcn1.0_100k_lines", |b| {
        b.iter(|| assemble(&source, &options).expect("assembles"))
    });
    group.finish();
}

criterion_group!(benches, throughput);
criterion_main!(benches);
