//! Interpreter tests on small kernels.

use super::*;

#[test]
fn inline_constants_per_type() {
    assert_eq!(inline_constant(128, DataType::U32), 0);
    assert_eq!(inline_constant(192, DataType::U32), 64);
    assert_eq!(inline_constant(193, DataType::I32), 0xffff_ffff);
    assert_eq!(inline_constant(193, DataType::I64), u64::MAX);
    assert_eq!(inline_constant(242, DataType::F32), 0x3f80_0000);
    assert_eq!(inline_constant(242, DataType::F64), 0x3ff0_0000_0000_0000);
    assert_eq!(inline_constant(242, DataType::F16), 0x3c00);
    assert_eq!(inline_constant(248, DataType::F32), 0x3e22_f983);
}

/// `gcn-runtime/FIDELITY.md` is the generated table (rewritten with
/// `UPDATE_FIDELITY=1`).
#[test]
fn fidelity_table_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/FIDELITY.md");
    let table = fidelity_table();
    if std::env::var_os("UPDATE_FIDELITY").is_some() {
        std::fs::write(path, &table).unwrap();
    }
    let file = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        file == table,
        "{path} is stale: run UPDATE_FIDELITY=1 cargo test -p gcn-runtime --lib fidelity"
    );
    // Independent spot checks: a plain ALU row is exact everywhere, a
    // transcendental is approximate, VINTRP (graphics only) is not run.
    let row = |m| gcn_asm::isa::lookup(m, GcnVersion::Gcn1_2).unwrap();
    assert_eq!(
        fidelity(row("v_add_f32"), GcnVersion::Gcn1_2),
        Fidelity::Exact
    );
    assert!(matches!(
        fidelity(row("v_exp_f32"), GcnVersion::Gcn1_2),
        Fidelity::Approximate(_)
    ));
    assert_eq!(
        fidelity(row("v_interp_p1_f32"), GcnVersion::Gcn1_2),
        Fidelity::NotSupported
    );
}

#[test]
fn coverage_lists_every_row_once() {
    for version in crate::exec::EMULATED_VERSIONS {
        let c = coverage(version);
        assert!(!c.emulated.is_empty());
        assert!(c.emulated.contains(&"s_endpgm"));
    }
}

#[test]
fn snippet_runs_scalar_and_vector_code() {
    for v in testing::versions_with("v_add_f32") {
        let w = testing::run(
            v,
            "s_mov_b32 s0, 40\ns_add_u32 s1, s0, 2\nv_mov_b32 v0, s1\nv_add_f32 v1, 1.0, v2",
            |w| w.vgpr[2] = [2.5f32.to_bits(); WAVE_SIZE],
        );
        assert_eq!(w.sgpr[1], 42);
        assert_eq!(w.vgpr[0][63], 42);
        assert_eq!(f32::from_bits(w.vgpr[1][0]), 3.5);
    }
}

#[test]
fn unknown_instruction_is_not_emulated() {
    let memory = crate::memory::Memory::default();
    let s = testing::run_with(
        GcnVersion::Gcn1_2,
        "v_interp_p1_f32 v0, v1, attr0.x",
        &memory,
        |_| {},
    );
    assert!(matches!(
        s.fault.map(|f| f.kind),
        Some(FaultKind::Gap { instruction: "v_interp_p1_f32", reason }) if reason.starts_with("graphics-only")
    ));
    // The fault says why, in the words of the gap table.
    let s = testing::run_with(GcnVersion::Gcn1_0, "s_rfe_b64 s[0:1]", &memory, |_| {});
    let fault = s.fault.expect("s_rfe_b64 stops the dispatch");
    let text = fault.kind.to_string();
    assert!(
        text.starts_with("instruction s_rfe_b64 is not emulated: a return from a trap handler"),
        "{text}"
    );
}

/// `.text` of `source` assembled for GCN 1.2, as words.
fn text_words(source: &str) -> Vec<u32> {
    let options = gcn_asm::AssembleOptions {
        version: Some(GcnVersion::Gcn1_2),
        ..gcn_asm::AssembleOptions::default()
    };
    let assembly = gcn_asm::assemble(source, &options).unwrap();
    decode::words_from_bytes(assembly.text())
}

#[test]
fn predecoding_shares_repeated_instructions_and_skips_unreached_data() {
    let v = GcnVersion::Gcn1_2;
    // 1000 identical instructions cost one op; the data after s_endpgm
    // (any words, here ones that decode) is not decoded from the entry.
    let mut source = "s_nop 0\n".repeat(1000);
    source.push_str("s_endpgm\n");
    source.push_str(&"v_add_f32 v1, v2, v3\nv_mov_b32 v4, 7\n".repeat(50));
    let words = text_words(&source);
    let reached = predecode_from(&words, v, 0);
    assert_eq!(reached.words(), words.len());
    // (and, with the compiled tier, the copy of the first s_nop that heads
    // the block of the 1000: a block head is positional).
    let heads = reached.tier_blocks();
    assert_eq!(reached.ops().len(), 2 + heads, "s_nop 0 and s_endpgm");
    assert!(heads <= 1);
    assert!(reached.at(4 * 999).is_some());
    assert!(reached.at(4 * 1001).is_none());
    assert!(reached.unreached(4 * 1001));
    assert_eq!(
        bad_pc(4 * 1001, &reached).kind,
        FaultKind::Unreached,
        "a PC the pre-decoder did not reach faults as such"
    );
    // The linear sweep decodes the data too, sharing as much.
    let all = predecode(&words, v);
    assert_eq!(all.ops().len(), 4 + all.tier_blocks());
    assert!(all.at(4 * 1001).is_some());
}

#[test]
fn predecoding_follows_branches_and_falls_back_at_computed_jumps() {
    let v = GcnVersion::Gcn1_2;
    // A branch over data to the code after it.
    let words = text_words(
        "s_cbranch_scc0 skip\ns_branch skip\n.int 0xbf810000, 0x7e020280\nskip:\ns_endpgm\n",
    );
    let d = predecode_from(&words, v, 0);
    assert!(d.at(0).is_some() && d.at(4).is_some() && d.at(16).is_some());
    assert!(d.at(8).is_none() && d.at(12).is_none());
    // A computed jump may go anywhere: everything is decoded.
    let words = text_words("s_getpc_b64 s[0:1]\ns_setpc_b64 s[0:1]\ns_endpgm\nv_mov_b32 v1, 0\n");
    let d = predecode_from(&words, v, 0);
    assert!(d.at(12).is_some());
    // Entries other than 0 decode from there.
    let d = predecode_from(&words, v, 8);
    assert!(d.at(8).is_some() && d.at(0).is_none());
}

/// `log_runs` against the lane-by-lane definition: each active lane's
/// access, consecutive active lanes at consecutive addresses joined.
mod log_runs_property {
    use super::*;
    use proptest::prelude::*;

    fn lane_by_lane(addresses: &[u64; WAVE_SIZE], mask: u64, len: u32) -> Vec<MemAccess> {
        let mut out: Vec<MemAccess> = Vec::new();
        for (lane, &address) in addresses.iter().enumerate() {
            if mask >> lane & 1 == 0 {
                continue;
            }
            match out.last_mut() {
                Some(r)
                    if usize::from(r.lane) + usize::from(r.count) == lane
                        && r.address.wrapping_add(r.span()) == address =>
                {
                    r.count += 1
                }
                _ => out.push(MemAccess::one(lane, false, address, len, 0)),
            }
        }
        out
    }

    proptest! {
        #[test]
        fn joins_exactly_the_consecutive_lanes(
            base in any::<u64>(),
            len in prop::sample::select(vec![1u32, 2, 4, 8, 16]),
            breaks in any::<u64>(),
            jumps in prop::collection::vec(any::<u64>(), WAVE_SIZE),
            mask in prop_oneof![
                Just(u64::MAX),
                Just(0u64),
                Just(1u64 << 63),
                Just(0xffff_0000_ffff_0000u64),
                any::<u64>(),
            ],
        ) {
            // Mostly dense addresses (wrapping past the top included),
            // with a jump at each lane of `breaks`.
            let mut addresses = [0u64; WAVE_SIZE];
            let mut a = base;
            for (l, slot) in addresses.iter_mut().enumerate() {
                if breaks >> l & 1 != 0 {
                    a = jumps[l];
                }
                *slot = a;
                a = a.wrapping_add(u64::from(len));
            }
            let mut log = Vec::new();
            log_runs(&mut log, &addresses, mask, len, 0, false);
            prop_assert_eq!(log, lane_by_lane(&addresses, mask, len));
        }
    }
}
