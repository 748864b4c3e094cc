//! Decoding throughput: `disassemble` over a ~1,000,000-word buffer built by
//! repeating the expected words of the good conformance cases of one GCN
//! version (only cases whose words all decode, so the buffer is real
//! instructions), or a built-in sample when `../shared` is absent.
//!
//! `cargo bench -p gcn-asm --bench decode` reports the time per pass and
//! the throughput in words/s (criterion's "elem/s"). A second benchmark
//! times printing the listing as text.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gcn_asm::decode::{disassemble, Item};
use gcn_asm::GcnVersion;

#[path = "../tests/common/mod.rs"]
mod common;

/// Words of a few GCN 1.0 instructions (SOP2, literal, VOP2, VOP3, SMRD,
/// VOPC, s_waitcnt).
const FALLBACK: &[u32] = &[
    0x80153d04, 0x8994ff7e, 0x00012345, 0x00020702, 0xd2820e01, 0x33d60702, 0xc0840310, 0x7c020501,
    0xbf8c0f13,
];

const WORDS: usize = 1_000_000;

/// The benchmark buffer for `arch` (`gcn1.0` …).
fn buffer(arch: &str, version: GcnVersion) -> Vec<u32> {
    let mut pool: Vec<u32> = Vec::new();
    if let Some(text) = common::encoding_cases("the conformance cases in the benchmark source") {
        for line in text.lines() {
            let Ok(case) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            if case["arch"] != arch || case["good"] != true {
                continue;
            }
            let words: Vec<u32> = common::case_words(&case);
            let listing = disassemble(&words, version);
            if listing
                .items
                .iter()
                .all(|d| matches!(d.item, Item::Instruction(_)))
            {
                pool.extend_from_slice(&words);
            }
        }
    }
    if pool.is_empty() {
        pool = FALLBACK.to_vec();
    }
    // Whole copies of the pool, so no instruction is cut at the end.
    let copies = WORDS.div_ceil(pool.len());
    let mut out = Vec::with_capacity(copies * pool.len());
    for _ in 0..copies {
        out.extend_from_slice(&pool);
    }
    out
}

fn decode_speed(c: &mut Criterion) {
    let mut group = c.benchmark_group("decode");
    group.sample_size(20);
    for (arch, version) in [
        ("gcn1.0", GcnVersion::Gcn1_0),
        ("gcn1.4", GcnVersion::Gcn1_4),
    ] {
        let words = buffer(arch, version);
        group.throughput(Throughput::Elements(words.len() as u64));
        group.bench_function(arch, |b| {
            b.iter(|| {
                disassemble(std::hint::black_box(&words), version)
                    .items
                    .len()
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("listing_text");
    group.sample_size(10);
    let words = buffer("gcn1.0", GcnVersion::Gcn1_0);
    let listing = disassemble(&words, GcnVersion::Gcn1_0);
    group.throughput(Throughput::Elements(words.len() as u64));
    group.bench_function("gcn1.0", |b| b.iter(|| listing.to_string().len()));
    group.finish();
}

criterion_group!(benches, decode_speed);
criterion_main!(benches);
