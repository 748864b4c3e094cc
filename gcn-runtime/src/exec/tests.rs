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
    for version in GcnVersion::ALL {
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
