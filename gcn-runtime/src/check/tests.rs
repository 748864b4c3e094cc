//! One kernel per finding with the bug (reported at the right instruction,
//! naming the right registers/instructions) and the fixed kernel (no
//! report), on every GCN version the rule applies to. Expected wait-state
//! counts are the documented ones ([`super::wait_states::RULES`] sources),
//! not read back from the table.

use gcn_asm::{assemble, AssembleOptions, GcnVersion};

use super::{Check, CheckOptions, CheckReport, Level};
use crate::kernel::{ArgValue, Dispatch};
use crate::{LaunchError, LaunchOptions, Memory, Program};

/// The versions the check tests run on (shared with the other check
/// modules' tests).
pub(crate) const VERSIONS: [GcnVersion; 4] = [
    GcnVersion::Gcn1_0,
    GcnVersion::Gcn1_1,
    GcnVersion::Gcn1_2,
    GcnVersion::Gcn1_4,
];

/// The GPU name of `v` for `.gpu`.
pub(crate) fn gpu(v: GcnVersion) -> &'static str {
    match v {
        GcnVersion::Gcn1_0 => "tahiti",
        GcnVersion::Gcn1_1 => "bonaire",
        GcnVersion::Gcn1_2 => "tonga",
        _ => "gfx900",
    }
}

/// The kernel prologue: `s[6:7]` = the `out` pointer (waited for),
/// `s[8:11]` = a raw buffer descriptor over it, `v1` = 4 × local id,
/// `m0` = -1 (the LDS limit of GCN 1.0–1.2).
fn prologue(v: GcnVersion) -> String {
    let out = if v.is_gcn12_or_later() { "0x24" } else { "9" };
    format!(
        "    s_load_dwordx2 s[6:7], s[0:1], {out}
    s_mov_b32 m0, -1
    s_waitcnt lgkmcnt(0)
    s_mov_b32 s8, s6
    s_mov_b32 s9, s7
    s_mov_b32 s10, -1
    s_mov_b32 s11, 0x27000
    v_lshlrev_b32 v1, 2, v0
"
    )
}

/// The markers `@` put before a line of the body: the PC of the marked
/// instruction is returned with the reports.
struct Run {
    reports: Vec<CheckReport>,
    marks: Vec<u32>,
}

/// Runs the test kernel (`launch`: with the options given, returning its
/// reports) with every check at `Warn`, interpreted, then with every block
/// compiled (the checked blocks call the hooks), `out` cleared before
/// each: both must give the same reports and leave the same memory. The
/// reports; `what` and `source` name the kernel in a failure.
pub(crate) fn interpreted_and_compiled(
    what: &str,
    source: &str,
    out: &crate::Buffer<u32>,
    launch: impl Fn(&LaunchOptions) -> Vec<CheckReport>,
) -> Vec<CheckReport> {
    let zeros = vec![0; out.len()];
    let mut runs = [crate::TierMode::Off, crate::TierMode::Eager].map(|tier| {
        out.write_from(&zeros).expect("clears");
        let options = LaunchOptions {
            threads: Some(1),
            checks: CheckOptions::all(Level::Warn),
            tier,
            ..LaunchOptions::default()
        };
        (launch(&options), out.to_vec())
    });
    assert_eq!(
        runs[0], runs[1],
        "{what}: the compiled tier changes the checks' reports or the output\n{source}"
    );
    std::mem::take(&mut runs[0].0)
}

/// Assembles `body` (after [`prologue`]) for `v` and runs it over
/// `items` work-items in one work-group with every check at `Warn`.
fn run_items(v: GcnVersion, body: &str, items: u32) -> Run {
    let mut text = String::new();
    let mut marks = Vec::new();
    let mut lines = Vec::new();
    for line in prologue(v).lines().chain(body.lines()) {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix('@') {
            marks.push(lines.len());
            lines.push(rest.to_string());
        } else {
            lines.push(line.to_string());
        }
    }
    for l in &lines {
        text.push_str("    ");
        text.push_str(l);
        text.push('\n');
    }
    let source = format!(
        ".gallium
.gpu {}
.kernel k
    .args
        .arg out, global, 8
        .arg griddim
        .arg gridoffset
    .config
        .dims x
        .tgsize
        .localsize 1024
        .sgprsnum 96
        .vgprsnum 128
.text
k:
{text}    s_endpgm
",
        gpu(v)
    );
    let assembly = assemble(&source, &AssembleOptions::default())
        .unwrap_or_else(|e| panic!("{v}: {e:?}\n{source}"));
    // One instruction per line: the PC of line i is the length of the
    // instructions before it.
    let words = gcn_asm::decode::words_from_bytes(assembly.text());
    let mut pcs = Vec::new();
    let mut i = 0;
    while i < words.len() {
        pcs.push(4 * i as u32);
        let instr = gcn_asm::decode::decode(&words[i..], 4 * i as u64, v).expect("decodes");
        i += usize::from(instr.len).max(1);
    }
    let mark_pcs: Vec<u32> = marks.iter().map(|&line| pcs[line]).collect();
    let binary = assembly.gallium_bytes().expect("gallium binary");
    let memory = Memory::default();
    let program = Program::load(&memory, &binary, v).expect("loads");
    let out = memory.buffer_zeroed::<u32>(1024).expect("buffer");
    let values = [ArgValue::Pointer(out.ptr())];
    let dispatch = Dispatch::new_1d(items, items);
    let reports = interpreted_and_compiled(&format!("{v}"), &source, &out, |options| {
        program
            .launcher(crate::LaunchArgs::new("k", &values), &dispatch)
            .options(options)
            .reports()
            .unwrap_or_else(|e| panic!("{v}: {e}\n{source}"))
            .reports
    });
    Run {
        reports,
        marks: mark_pcs,
    }
}

fn run(v: GcnVersion, body: &str) -> Run {
    run_items(v, body, 64)
}

impl Run {
    /// The only report, which must be of `check` at mark `mark`, related to
    /// mark `related` when given; returns its message.
    fn one(&self, v: GcnVersion, check: Check, mark: usize, related: Option<usize>) -> String {
        assert_eq!(
            self.reports.len(),
            1,
            "{v}: expected one {check} report, got {:#?}",
            self.reports
        );
        let r = &self.reports[0];
        assert_eq!(r.check, check, "{v}: {r}");
        assert_eq!(r.pc, self.marks[mark], "{v}: {r}");
        if let Some(m) = related {
            assert_eq!(
                r.related.as_ref().map(|x| x.0),
                Some(self.marks[m]),
                "{v}: {r}"
            );
        }
        r.message.clone()
    }

    fn none(&self, v: GcnVersion) {
        assert!(
            self.reports.is_empty(),
            "{v}: expected no report, got:\n{}",
            self.reports
                .iter()
                .map(|r| r.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

// ---------------------------------------------------------------------------
// Wait counters.

#[test]
fn smem_result_read_before_waitcnt() {
    for v in VERSIONS {
        let off = if v.is_gcn12_or_later() { "0x18" } else { "6" };
        let bug = run(
            v,
            &format!(
                "@s_load_dword s12, s[0:1], {off}
                 @v_mov_b32 v3, s12
                 s_waitcnt lgkmcnt(0)"
            ),
        );
        let m = bug.one(v, Check::Waitcnt, 1, Some(0));
        assert!(m.contains("reads s12 before the s_waitcnt"), "{v}: {m}");
        run(
            v,
            &format!(
                "s_load_dword s12, s[0:1], {off}
                 s_waitcnt lgkmcnt(0)
                 v_mov_b32 v3, s12"
            ),
        )
        .none(v);
    }
}

#[test]
fn vmem_load_read_before_waitcnt_in_order() {
    for v in VERSIONS {
        let bug = run(
            v,
            "@buffer_load_dword v2, v1, s[8:11], 0 offen
             @buffer_load_dword v3, v1, s[8:11], 0 offen offset:4
             s_waitcnt vmcnt(1)
             v_mov_b32 v4, v2
             @v_mov_b32 v5, v3
             s_waitcnt vmcnt(0)",
        );
        let m = bug.one(v, Check::Waitcnt, 2, Some(1));
        assert!(m.contains("reads v3"), "{v}: {m}");
        run(
            v,
            "buffer_load_dword v2, v1, s[8:11], 0 offen
             buffer_load_dword v3, v1, s[8:11], 0 offen offset:4
             s_waitcnt vmcnt(1)
             v_mov_b32 v4, v2
             s_waitcnt vmcnt(0)
             v_mov_b32 v5, v3",
        )
        .none(v);
    }
}

#[test]
fn overwrite_of_a_pending_load_destination() {
    for v in VERSIONS {
        let bug = run(
            v,
            "@buffer_load_dwordx2 v[2:3], v1, s[8:11], 0 offen
             @v_mov_b32 v3, 0
             s_waitcnt vmcnt(0)",
        );
        let m = bug.one(v, Check::Waitcnt, 1, Some(0));
        assert!(m.contains("overwrites v3"), "{v}: {m}");
        // A later load of the same in-order counter may write it.
        run(
            v,
            "buffer_load_dword v2, v1, s[8:11], 0 offen
             buffer_load_dword v2, v1, s[8:11], 0 offen offset:4
             s_waitcnt vmcnt(0)
             v_mov_b32 v3, v2",
        )
        .none(v);
    }
}

#[test]
fn store_data_overwritten_before_expcnt_on_gcn10_only() {
    for v in VERSIONS {
        let body = "v_mov_b32 v2, 7
             @buffer_store_dword v2, v1, s[8:11], 0 offen
             @v_mov_b32 v2, 0";
        let r = run(v, body);
        if v == GcnVersion::Gcn1_0 {
            let m = r.one(v, Check::Waitcnt, 1, Some(0));
            assert!(
                m.contains("overwrites v2 before the store has read it"),
                "{v}: {m}"
            );
        } else {
            r.none(v);
        }
        run(
            v,
            "v_mov_b32 v2, 7
             buffer_store_dword v2, v1, s[8:11], 0 offen
             s_waitcnt expcnt(0)
             v_mov_b32 v2, 0",
        )
        .none(v);
    }
}

#[test]
fn lgkm_lds_in_order_smem_out_of_order() {
    for v in VERSIONS {
        // Two LDS reads: lgkmcnt(1) guarantees the first only.
        let bug = run(
            v,
            "ds_write_b32 v1, v0
             s_waitcnt lgkmcnt(0)
             @ds_read_b32 v2, v1
             @ds_read_b32 v3, v1
             s_waitcnt lgkmcnt(1)
             v_mov_b32 v4, v2
             @v_mov_b32 v5, v3
             s_waitcnt lgkmcnt(0)",
        );
        bug.one(v, Check::Waitcnt, 2, Some(1));
        // A scalar load between them: lgkmcnt(1) no longer guarantees the
        // first LDS read (the scalar load may finish first).
        let off = if v.is_gcn12_or_later() { "0x18" } else { "6" };
        let bug = run(
            v,
            &format!(
                "ds_write_b32 v1, v0
                 s_waitcnt lgkmcnt(0)
                 @ds_read_b32 v2, v1
                 s_load_dword s12, s[0:1], {off}
                 s_waitcnt lgkmcnt(1)
                 @v_mov_b32 v4, v2
                 s_waitcnt lgkmcnt(0)"
            ),
        );
        bug.one(v, Check::Waitcnt, 1, Some(0));
        // A two-dword scalar load counts twice, but lgkmcnt(1) still does
        // not guarantee it (its counts may return one at a time).
        let bug = run(
            v,
            &format!(
                "@s_load_dwordx2 s[12:13], s[0:1], {off}
                 s_waitcnt lgkmcnt(1)
                 @v_mov_b32 v4, s13
                 s_waitcnt lgkmcnt(0)"
            ),
        );
        let m = bug.one(v, Check::Waitcnt, 1, Some(0));
        assert!(m.contains("reads s13"), "{v}: {m}");
    }
}

#[test]
fn vmcnt_capacity_stalls_per_version() {
    // 16 loads: the 16th stalls on GCN 1.0–1.2 (capacity 15) until the
    // first returned; GCN 1.4 counts to 63.
    for v in VERSIONS {
        let mut body = String::from("@buffer_load_dword v2, v1, s[8:11], 0 offen\n");
        for i in 0..15 {
            body.push_str(&format!(
                "buffer_load_dword v{}, v1, s[8:11], 0 offen\n",
                3 + i
            ));
        }
        body.push_str("@v_mov_b32 v30, v2\ns_waitcnt vmcnt(0)\n");
        let r = run(v, &body);
        if v.is_gcn14() {
            r.one(v, Check::Waitcnt, 1, Some(0));
        } else {
            r.none(v);
        }
    }
}

// ---------------------------------------------------------------------------
// Wait states.

/// Runs `bug` (expecting one wait-state report at mark 1 caused by mark 0
/// with `missing` states missing) and `fixed` (expecting none).
fn wait_state_pair(v: GcnVersion, bug: &str, fixed: &str, missing: Option<u32>) {
    let r = run(v, bug);
    match missing {
        Some(n) => {
            let m = r.one(v, Check::WaitStates, 1, Some(0));
            assert!(m.contains(&format!("{n} missing")), "{v}: {m}");
        }
        None => r.none(v),
    }
    run(v, fixed).none(v);
}

#[test]
fn valu_sgpr_then_lane_select() {
    for v in VERSIONS {
        wait_state_pair(
            v,
            "@v_readfirstlane_b32 s12, v0
             @v_readlane_b32 s13, v1, s12",
            "v_readfirstlane_b32 s12, v0
             s_nop 3
             v_readlane_b32 s13, v1, s12",
            Some(4),
        );
    }
}

#[test]
fn valu_vcc_then_div_fmas() {
    for v in VERSIONS {
        wait_state_pair(
            v,
            "@v_cmp_eq_u32 vcc, v0, v0
             v_mov_b32 v2, 1.0
             @v_div_fmas_f32 v3, v2, v2, v2",
            "v_cmp_eq_u32 vcc, v0, v0
             v_mov_b32 v2, 1.0
             s_nop 2
             v_div_fmas_f32 v3, v2, v2, v2",
            Some(3),
        );
    }
}

#[test]
fn setreg_then_getreg_and_setreg() {
    for v in VERSIONS {
        wait_state_pair(
            v,
            "s_mov_b32 s12, 0
             @s_setreg_b32 hwreg(trapsts, 0, 1), s12
             @s_getreg_b32 s13, hwreg(trapsts, 0, 1)",
            "s_mov_b32 s12, 0
             s_setreg_b32 hwreg(trapsts, 0, 1), s12
             s_nop 1
             s_getreg_b32 s13, hwreg(trapsts, 0, 1)",
            Some(2),
        );
        // setreg → setreg: 1 wait state on GCN 1.0/1.1, 2 on 1.2/1.4.
        wait_state_pair(
            v,
            "s_mov_b32 s12, 0
             @s_setreg_b32 hwreg(trapsts, 0, 1), s12
             s_nop 0
             @s_setreg_b32 hwreg(trapsts, 0, 1), s12",
            "s_mov_b32 s12, 0
             s_setreg_b32 hwreg(trapsts, 0, 1), s12
             s_nop 1
             s_setreg_b32 hwreg(trapsts, 0, 1), s12",
            v.is_gcn12_or_later().then_some(1),
        );
    }
}

#[test]
fn valu_sgpr_then_smrd_on_gcn10_and_vmem_on_gcn12() {
    for v in VERSIONS {
        let off = if v.is_gcn12_or_later() { "0x18" } else { "6" };
        wait_state_pair(
            v,
            &format!(
                "v_mov_b32 v2, {off}
                 @v_readfirstlane_b32 s12, v2
                 @s_load_dword s13, s[0:1], s12
                 s_waitcnt lgkmcnt(0)"
            ),
            &format!(
                "v_mov_b32 v2, {off}
                 v_readfirstlane_b32 s12, v2
                 s_nop 3
                 s_load_dword s13, s[0:1], s12
                 s_waitcnt lgkmcnt(0)"
            ),
            (v == GcnVersion::Gcn1_0).then_some(4),
        );
        wait_state_pair(
            v,
            "v_mov_b32 v2, 0
             @v_readfirstlane_b32 s12, v2
             @buffer_load_dword v3, v1, s[8:11], s12 offen
             s_waitcnt vmcnt(0)",
            "v_mov_b32 v2, 0
             v_readfirstlane_b32 s12, v2
             s_nop 4
             buffer_load_dword v3, v1, s[8:11], s12 offen
             s_waitcnt vmcnt(0)",
            v.is_gcn12_or_later().then_some(5),
        );
    }
}

#[test]
fn valu_vgpr_then_dpp() {
    for v in [GcnVersion::Gcn1_2, GcnVersion::Gcn1_4] {
        wait_state_pair(
            v,
            "@v_mov_b32 v2, v0
             @v_mov_b32 v3, v2 quad_perm:[1,0,3,2] row_mask:15 bank_mask:15",
            "v_mov_b32 v2, v0
             s_nop 1
             v_mov_b32 v3, v2 quad_perm:[1,0,3,2] row_mask:15 bank_mask:15",
            Some(2),
        );
    }
}

#[test]
fn wide_store_data_then_valu_write() {
    for v in VERSIONS {
        let body = |gap: &str| {
            format!(
                "v_mov_b32 v2, 0
                 v_mov_b32 v3, 0
                 v_mov_b32 v4, 0
                 v_mov_b32 v5, 0
                 @buffer_store_dwordx4 v[2:5], v1, s[8:11], 0 offen
                 {gap}
                 @v_mov_b32 v4, 1"
            )
        };
        let r = run(v, &body(""));
        if v == GcnVersion::Gcn1_0 {
            // GCN 1.0 waits with expcnt instead.
            let m = r.one(v, Check::Waitcnt, 1, Some(0));
            assert!(m.contains("overwrites v4"), "{v}: {m}");
            run(v, &body("s_waitcnt expcnt(0)")).none(v);
        } else {
            let m = r.one(v, Check::WaitStates, 1, Some(0));
            assert!(m.contains("1 missing"), "{v}: {m}");
            run(v, &body("s_nop 0")).none(v);
        }
    }
}

// ---------------------------------------------------------------------------
// Uninitialised reads and LDS races.

/// The VOP2 integer add of `v` (`v_add_u32` carries out to VCC before
/// GCN 1.4).
fn add(v: GcnVersion, dst: &str, a: &str, b: &str) -> String {
    if v.is_gcn14() {
        format!("v_add_u32 {dst}, {a}, {b}")
    } else {
        format!("v_add_u32 {dst}, vcc, {a}, {b}")
    }
}

#[test]
fn undefined_values_are_reported_where_they_matter() {
    for v in VERSIONS {
        // Copies, saves and restores, overwrites: nothing to report.
        run(
            v,
            "v_mov_b32 v3, v7
             s_mov_b32 s20, s21
             v_writelane_b32 v9, s33, 0
             v_readlane_b32 s33, v9, 0
             v_mov_b32 v7, 1
             v_cndmask_b32 v4, v5, v6, vcc",
        )
        .none(v);
        // A branch on a compare of a register nothing wrote: reported at
        // the branch, the origin is s21 first read by the compare.
        let r = run(
            v,
            "@s_cmp_eq_u32 s21, 0
             @s_cbranch_scc1 .+4",
        );
        let m = r.one(v, Check::Uninit, 1, Some(0));
        assert!(
            m.contains("decides control flow on undefined bits of scc")
                && m.contains("they come from s21 byte 0, which nothing wrote"),
            "{v}: {m}"
        );
        run(
            v,
            "s_mov_b32 s21, 5
s_cmp_eq_u32 s21, 0
s_cbranch_scc1 .+4",
        )
        .none(v);
        // EXEC from a compare of undefined lanes.
        let r = run(
            v,
            "@v_cmp_gt_u32 vcc, v7, v0
             @s_and_saveexec_b64 s[20:21], vcc",
        );
        let m = r.one(v, Check::Uninit, 1, Some(0));
        assert!(
            m.contains("control flow on undefined bits of exec"),
            "{v}: {m}"
        );
        // An AND with defined zeros defines those bits: a mask of the
        // defined half passes.
        run(
            v,
            "v_cmp_gt_u32 vcc, 32, v0
             s_mov_b32 s22, 0
             s_and_b32 s23, s22, s21
             s_cmp_eq_u32 s23, 0
             s_cbranch_scc1 .+4",
        )
        .none(v);
        // An address from a register half the lanes wrote: the other half
        // is reported.
        let r = run(
            v,
            "v_cmp_gt_u32 vcc, 32, v0
             s_and_saveexec_b64 s[20:21], vcc
             v_mov_b32 v7, v1
             s_mov_b64 exec, s[20:21]
             @buffer_load_dword v3, v7, s[8:11], 0 offen
             s_waitcnt vmcnt(0)",
        );
        let m = r.one(v, Check::Uninit, 0, None);
        assert!(
            m.contains("memory address or descriptor from undefined bits of v7"),
            "{v}: {m}"
        );
        assert_eq!(r.reports[0].lanes, Some(u64::MAX << 32));
        // The forgotten accumulator: a sum over a register nothing wrote,
        // stored where the host reads it. The fixed kernel sets it to 0.
        let sum = format!(
            "{}
@buffer_store_dword v3, v1, s[8:11], 0 offen",
            add(v, "v3", "v7", "v0")
        );
        let r = run(v, &format!("@{sum}"));
        let m = r.one(v, Check::Uninit, 1, Some(0));
        assert!(
            m.contains("stores a value computed from undefined bits")
                && m.contains("v7 lane 0 byte 0, which nothing wrote"),
            "{v}: {m}"
        );
        run(
            v,
            &format!(
                "v_mov_b32 v7, 0
{}",
                sum.replace('@', "")
            ),
        )
        .none(v);
        // Padding stored with defined data (a 3-element vector stored as
        // four dwords) is a copy, not reported.
        run(
            v,
            "v_mov_b32 v4, 1
             v_mov_b32 v5, 2
             v_mov_b32 v6, 3
             buffer_store_dwordx4 v[4:7], v1, s[8:11], 0 offen",
        )
        .none(v);
        // Nor is that padding computed from undefined bits (clang stores a
        // float3 as four elements with an undef 4th, and LLVM may compute
        // into it); a computed undefined element among the first three is.
        let padded = |x: &str, w: &str| {
            format!(
                "v_mov_b32 v4, 1
                 {x}
                 v_mov_b32 v6, 3
                 {w}
                 @buffer_store_dwordx4 v[4:7], v1, s[8:11], 0 offen"
            )
        };
        run(v, &padded("v_mov_b32 v5, 2", &add(v, "v7", "v7", "v0"))).none(v);
        let r = run(v, &padded(&add(v, "v5", "v8", "v0"), "v_mov_b32 v7, 0"));
        let m = r.one(v, Check::Uninit, 0, None);
        assert!(
            m.contains("stores a value computed from undefined bits"),
            "{v}: {m}"
        );
        let r = run(
            v,
            &padded(&add(v, "v5", "v8", "v0"), &add(v, "v7", "v7", "v0")),
        );
        r.one(v, Check::Uninit, 0, None);
    }
}

/// The hook remembers instructions whose inputs were all defined
/// (`defined::Shadow::held`); a register becoming undefined afterwards
/// must make the next execution look again. Here the add reads v5, defined
/// on the first trip round the loop and a copy of a register nothing wrote
/// on the second, and its sum is stored.
#[test]
fn a_register_undefined_after_a_defined_trip_is_seen_on_the_next() {
    for v in VERSIONS {
        let body = |copy: &str| {
            format!(
                "v_mov_b32 v5, 1
                 v_mov_b32 v3, 0
                 s_mov_b32 s12, 2
                 {}
                 {copy}
                 s_sub_u32 s12, s12, 1
                 s_cmp_lg_u32 s12, 0
                 s_cbranch_scc1 .-16
                 @buffer_store_dword v3, v1, s[8:11], 0 offen",
                add(v, "v3", "v3", "v5")
            )
        };
        let r = run(v, &body("v_mov_b32 v5, v7"));
        let m = r.one(v, Check::Uninit, 0, None);
        assert!(
            m.contains("stores a value computed from undefined bits")
                && m.contains("v7 lane 0 byte 0, which nothing wrote"),
            "{v}: {m}"
        );
        run(v, &body("v_mov_b32 v5, v0")).none(v);
    }
}

#[test]
fn lane_masks_and_carries_are_exact_where_llvm_relies_on_it() {
    for v in VERSIONS {
        // LLVM's loop lane masks: an ANDN2 with EXEC and an XOR with -1 of
        // a register nothing wrote keep undefined only the bits of the
        // lanes EXEC excluded, which an AND with EXEC then drops.
        run(
            v,
            "v_cmp_gt_u32 vcc, 32, v0
             s_and_saveexec_b64 s[20:21], vcc
             s_andn2_b64 s[22:23], s[22:23], exec
             s_xor_b64 s[24:25], s[22:23], -1
             s_and_b64 exec, exec, s[24:25]
             s_cbranch_execz .+4",
        )
        .none(v);
        // Without the ANDN2 the undefined bits of the active lanes decide.
        let r = run(
            v,
            "v_cmp_gt_u32 vcc, 32, v0
             s_and_saveexec_b64 s[20:21], vcc
             @s_xor_b64 s[24:25], s[22:23], -1
             @s_and_b64 exec, exec, s[24:25]",
        );
        r.one(v, Check::Uninit, 1, Some(0));
        if !v.is_gcn12_or_later() {
            continue;
        }
        // A 64-bit multiply-add whose addend's high dword nothing wrote:
        // the low dword of the result is defined, the high one is not.
        let mad = "v_mov_b32 v4, 5
             v_mad_u64_u32 v[6:7], s[30:31], v0, 12, v[4:5]";
        run(
            v,
            &format!("{mad}\nbuffer_store_dword v6, v1, s[8:11], 0 offen"),
        )
        .none(v);
        let r = run(
            v,
            &format!("{mad}\n@buffer_store_dword v7, v1, s[8:11], 0 offen"),
        );
        let m = r.one(v, Check::Uninit, 0, None);
        assert!(
            m.contains("stores a value computed from undefined bits"),
            "{v}: {m}"
        );
    }
}

/// The 64-bit vector shift of `v` by an inline `amount`: `v_{op}rev_b64`
/// (amount first) on GCN 1.2+, `v_{op}_b64` (amount second) before.
fn shift64(v: GcnVersion, op: &str, dst: &str, src: &str, amount: &str) -> String {
    if v.is_gcn12_or_later() {
        format!("v_{op}rev_b64 {dst}, {amount}, {src}")
    } else {
        format!("v_{op}_b64 {dst}, {src}, {amount}")
    }
}

#[test]
fn shifts_move_definedness_with_the_bits() {
    for v in VERSIONS {
        // LLVM's 64-bit offset: a multiply-add whose high dword came from
        // a register nothing wrote, shifted left by 32 — the high dword
        // is dropped, the address is defined.
        run(
            v,
            &format!(
                "v_mov_b32 v4, v1
                 {}
                 buffer_load_dword v3, v5, s[8:11], 0 offen
                 buffer_load_dword v3, v4, s[8:11], 0 offen
                 s_waitcnt vmcnt(0)",
                shift64(v, "lshl", "v[4:5]", "v[4:5]", "32")
            ),
        )
        .none(v);
        // The low dword undefined: it becomes the high dword, reported
        // with the register nothing wrote as the origin.
        let r = run(
            v,
            &format!(
                "v_mov_b32 v5, v1
                 @{}
                 @buffer_load_dword v3, v5, s[8:11], 0 offen
                 s_waitcnt vmcnt(0)",
                shift64(v, "lshl", "v[4:5]", "v[4:5]", "32")
            ),
        );
        let m = r.one(v, Check::Uninit, 1, Some(0));
        assert!(
            m.contains("undefined bits of v5")
                && m.contains("v4 lane 0 byte 0, which nothing wrote"),
            "{v}: {m}"
        );
        // A right shift by 32 drops the undefined low dword.
        run(
            v,
            &format!(
                "v_mov_b32 v5, v1
                 {}
                 buffer_load_dword v3, v4, s[8:11], 0 offen
                 buffer_load_dword v3, v5, s[8:11], 0 offen
                 s_waitcnt vmcnt(0)",
                shift64(v, "lshr", "v[4:5]", "v[4:5]", "32")
            ),
        )
        .none(v);
        // By 31 it keeps one undefined bit.
        let r = run(
            v,
            &format!(
                "v_mov_b32 v5, v1
                 @{}
                 @buffer_load_dword v3, v4, s[8:11], 0 offen
                 s_waitcnt vmcnt(0)",
                shift64(v, "lshr", "v[4:5]", "v[4:5]", "31")
            ),
        );
        let m = r.one(v, Check::Uninit, 1, Some(0));
        assert!(
            m.contains("undefined bits of v4") && m.contains("v4 lane 0 byte 0"),
            "{v}: {m}"
        );
        // 32-bit right shifts of a value whose low byte is undefined
        // (an AND with defined zeros keeps only it): by 8 it is gone, by
        // 4 half of it is left.
        for (op, amount, bad) in [
            ("v_lshrrev_b32", 8, false),
            ("v_ashrrev_i32", 8, false),
            ("v_lshrrev_b32", 4, true),
            ("v_ashrrev_i32", 4, true),
        ] {
            let body = format!(
                "@v_and_b32 v7, 0xff, v6
                 {op} v7, {amount}, v7
                 @buffer_load_dword v3, v7, s[8:11], 0 offen
                 s_waitcnt vmcnt(0)"
            );
            let r = run(v, &body);
            if bad {
                let m = r.one(v, Check::Uninit, 1, Some(0));
                assert!(m.contains("v6 lane 0 byte 0"), "{v} {op}: {m}");
            } else {
                r.none(v);
            }
        }
        // An arithmetic right shift fills with the sign bit's shadow; a
        // logical one with defined zeros.
        for (op, bad) in [("v_ashrrev_i32", true), ("v_lshrrev_b32", false)] {
            let body = format!(
                "v_and_b32 v7, 0x80000000, v6
                 {op} v7, 24, v7
                 v_and_b32 v7, 0x100, v7
                 @buffer_load_dword v3, v7, s[8:11], 0 offen
                 s_waitcnt vmcnt(0)"
            );
            let r = run(v, &body);
            if bad {
                r.one(v, Check::Uninit, 0, None);
            } else {
                r.none(v);
            }
        }
        // An undefined amount: the whole result is undefined.
        let r = run(
            v,
            "@v_lshlrev_b32 v7, v6, v1
             @buffer_load_dword v3, v7, s[8:11], 0 offen
             s_waitcnt vmcnt(0)",
        );
        let m = r.one(v, Check::Uninit, 1, Some(0));
        assert!(m.contains("v6 lane 0 byte 0"), "{v}: {m}");
        // Only the amount bits the hardware uses count: 5 for a 32-bit
        // value, 6 for a 64-bit one.
        run(
            v,
            "v_and_b32 v8, 0xffffffe0, v6
             v_lshlrev_b32 v7, v8, v1
             buffer_load_dword v3, v7, s[8:11], 0 offen
             s_waitcnt vmcnt(0)",
        )
        .none(v);
        let r = run(
            v,
            &format!(
                "v_and_b32 v8, 0xffffffe0, v6
                 v_mov_b32 v4, v1
                 v_mov_b32 v5, 0
                 {}
                 @buffer_load_dword v3, v4, s[8:11], 0 offen
                 s_waitcnt vmcnt(0)",
                shift64(v, "lshl", "v[4:5]", "v[4:5]", "v8")
            ),
        );
        r.one(v, Check::Uninit, 0, None);
        // Scalar: a 64-bit left shift by 32 of a pair whose high dword
        // nothing wrote defines the result and SCC; of one whose low
        // dword nothing wrote, not.
        run(
            v,
            "s_mov_b32 s20, 4
             s_lshl_b64 s[20:21], s[20:21], 32
             s_cbranch_scc1 .+4
             buffer_load_dword v3, v1, s[8:11], s21 offen
             s_waitcnt vmcnt(0)",
        )
        .none(v);
        let r = run(
            v,
            "s_mov_b32 s21, 4
             @s_lshl_b64 s[20:21], s[20:21], 32
             @buffer_load_dword v3, v1, s[8:11], s21 offen
             s_waitcnt vmcnt(0)",
        );
        let m = r.one(v, Check::Uninit, 1, Some(0));
        assert!(m.contains("s20 byte 0, which nothing wrote"), "{v}: {m}");
        let r = run(
            v,
            "s_mov_b32 s21, 4
             @s_lshl_b64 s[20:21], s[20:21], 32
             @s_cbranch_scc1 .+4",
        );
        r.one(v, Check::Uninit, 1, Some(0));
        // s_lshr_b32 / s_ashr_i32 dropping an undefined low byte.
        run(
            v,
            "s_and_b32 s22, s23, 0xff
             s_lshr_b32 s24, s22, 8
             s_ashr_i32 s25, s22, 8
             buffer_load_dword v3, v1, s[8:11], s24 offen
             buffer_load_dword v3, v1, s[8:11], s25 offen
             s_waitcnt vmcnt(0)",
        )
        .none(v);
        if !v.is_gcn12_or_later() {
            continue;
        }
        // LLVM's sign-extended 32-bit index (hip_unserved's
        // device_malloc): a multiply-add whose addend's high dword
        // nothing wrote, shifted left by 32 and arithmetically right by
        // 30 — a defined byte offset.
        run(
            v,
            "v_mov_b32 v13, v0
             v_mad_u64_u32 v[10:11], s[30:31], v13, 1, v[13:14]
             v_lshlrev_b64 v[10:11], 32, v[10:11]
             v_ashrrev_i64 v[10:11], 30, v[10:11]
             buffer_load_dword v3, v10, s[8:11], 0 offen
             s_waitcnt vmcnt(0)",
        )
        .none(v);
        // 16-bit shifts use the low half and 4 amount bits.
        run(
            v,
            "v_and_b32 v7, 0xff, v6
             v_lshrrev_b16 v7, 8, v7
             buffer_load_dword v3, v7, s[8:11], 0 offen
             s_waitcnt vmcnt(0)",
        )
        .none(v);
        let r = run(
            v,
            "v_and_b32 v7, 0xff, v6
             v_lshlrev_b16 v7, 8, v7
             @buffer_load_dword v3, v7, s[8:11], 0 offen
             s_waitcnt vmcnt(0)",
        );
        r.one(v, Check::Uninit, 0, None);
        if !v.is_gcn14() {
            continue;
        }
        // Shifts that add or OR: the undefined high half of v5 shifted
        // out by 16 leaves a defined result; by 8 it does not (the upper
        // half, shifted down to stay in the buffer, is used).
        for (body, bad) in [
            ("v_lshl_add_u32 v7, v5, 16, v1", false),
            ("v_lshl_add_u32 v7, v5, 8, v1", true),
            ("v_lshl_or_b32 v7, v5, 16, v1", false),
            ("v_lshl_or_b32 v7, v5, 8, v1", true),
            ("v_add_lshl_u32 v7, v5, v1, 16", false),
            ("v_add_lshl_u32 v7, v5, v1, 8", true),
            ("v_add_lshl_u32 v7, v1, v5, 8", true),
        ] {
            let r = run(
                v,
                &format!(
                    "v_and_b32 v5, 0xffff0000, v6
                     {body}
                     v_lshrrev_b32 v7, 16, v7
                     @buffer_load_dword v3, v7, s[8:11], 0 offen
                     s_waitcnt vmcnt(0)"
                ),
            );
            if bad {
                r.one(v, Check::Uninit, 0, None);
            } else {
                r.none(v);
            }
        }
        // An undefined addend below the shifted bits makes the sum
        // undefined from its lowest undefined bit up.
        let r = run(
            v,
            "v_and_b32 v5, 1, v6
             v_lshl_add_u32 v7, v1, 16, v5
             v_and_b32 v7, 0x10000, v7
             @buffer_load_dword v3, v7, s[8:11], 0 offen
             s_waitcnt vmcnt(0)",
        );
        r.one(v, Check::Uninit, 0, None);
        // s_lshl2_add_u32 of a value whose top two bits nothing wrote:
        // the sum is defined, the carry (SCC) is not.
        run(
            v,
            "s_and_b32 s20, s23, 0xc0000000
             s_lshl2_add_u32 s21, s20, 4
             buffer_load_dword v3, v1, s[8:11], s21 offen
             s_waitcnt vmcnt(0)",
        )
        .none(v);
        let r = run(
            v,
            "s_and_b32 s20, s23, 0xc0000000
             s_lshl2_add_u32 s21, s20, 4
             @s_cbranch_scc1 .+4",
        );
        r.one(v, Check::Uninit, 0, None);
    }
}

#[test]
fn undefinedness_travels_through_lds_and_scratch_like_memory() {
    for v in VERSIONS {
        // A never-written register written to LDS and read back is still
        // undefined: its use as an address names v7 as the origin.
        let r = run(
            v,
            "@ds_write_b32 v1, v7
             s_waitcnt lgkmcnt(0)
             ds_read_b32 v8, v1
             s_waitcnt lgkmcnt(0)
             @buffer_load_dword v3, v8, s[8:11], 0 offen
             s_waitcnt vmcnt(0)",
        );
        let m = r.one(v, Check::Uninit, 1, Some(0));
        assert!(
            m.contains("v8") && m.contains("v7 lane 0 byte 0"),
            "{v}: {m}"
        );
        // LDS nothing wrote, read and used as an address.
        let r = run(
            v,
            "@ds_read_b32 v8, v1
             s_waitcnt lgkmcnt(0)
             @buffer_load_dword v3, v8, s[8:11], 0 offen
             s_waitcnt vmcnt(0)",
        );
        let m = r.one(v, Check::Uninit, 1, Some(0));
        assert!(m.contains("LDS byte 0x0, which nothing wrote"), "{v}: {m}");
        // Written with defined data first: nothing.
        run(
            v,
            "ds_write_b32 v1, v1
             s_waitcnt lgkmcnt(0)
             ds_read_b32 v8, v1
             s_waitcnt lgkmcnt(0)
             buffer_load_dword v3, v8, s[8:11], 0 offen
             s_waitcnt vmcnt(0)",
        )
        .none(v);
    }
}

#[test]
fn lds_race_and_uninitialised_lds() {
    // Two waves: each writes its 64 dwords, then reads the other wave's.
    for v in VERSIONS {
        let body = |sync: &str| {
            format!(
                "v_xor_b32 v2, 0x100, v1
                 @ds_write_b32 v1, v0
                 {sync}
                 @ds_read_b32 v3, v2
                 s_waitcnt lgkmcnt(0)"
            )
        };
        let r = run_items(v, &body(""), 128);
        // Wave 0 runs to its end first: it reads bytes wave 1 has not
        // written (copying undefined bytes is no report); wave 1 then
        // writes bytes wave 0 read (WAR, at wave 1's write) and reads bytes
        // wave 0 wrote (RAW).
        let found: Vec<(Check, u32, u32)> =
            r.reports.iter().map(|x| (x.check, x.pc, x.wave)).collect();
        let [write, read] = [r.marks[0], r.marks[1]];
        assert_eq!(
            found,
            vec![(Check::LdsRace, write, 1), (Check::LdsRace, read, 1)],
            "{v}: {:#?}",
            r.reports
        );
        assert_eq!(r.reports[0].related.as_ref().map(|x| x.0), Some(read));
        assert!(
            r.reports[0]
                .message
                .contains("LDS byte 0x100, which wave 0 read"),
            "{}",
            r.reports[0]
        );
        assert_eq!(r.reports[1].related.as_ref().map(|x| x.0), Some(write));
        assert!(
            r.reports[1]
                .message
                .contains("LDS byte 0x0, which wave 0 wrote"),
            "{}",
            r.reports[1]
        );
        run_items(v, &body("s_waitcnt lgkmcnt(0)\ns_barrier"), 128).none(v);
    }
}

#[test]
fn an_lds_access_past_the_allocation_is_dropped_and_reported_by_oob() {
    // `.localsize 1024`: lane 63's dword at byte 252 + 772 = 1024 is past
    // the work-group's allocation. The hardware drops it (the read returns
    // 0); the `oob` check reports both, naming the lane, and the run
    // completes. The fixed twin (offset 768) is silent.
    for v in VERSIONS {
        let body = |o: u32| {
            format!(
                "@ds_write_b32 v1, v0 offset:{o}
                 @ds_read_b32 v3, v1 offset:{o}
                 s_waitcnt lgkmcnt(0)
                 buffer_store_dword v3, v1, s[8:11], 0 offen
                 s_waitcnt vmcnt(0)"
            )
        };
        let r = run(v, &body(772));
        let found: Vec<(Check, u32, Option<u64>)> =
            r.reports.iter().map(|x| (x.check, x.pc, x.lanes)).collect();
        assert_eq!(
            found,
            vec![
                (Check::Oob, r.marks[0], Some(1 << 63)),
                (Check::Oob, r.marks[1], Some(1 << 63))
            ],
            "{v}: {:#?}",
            r.reports
        );
        assert_eq!(
            r.reports[0].message,
            "writes 4 bytes at LDS byte 0x400, past the end of the work-group's 1024-byte LDS \
             allocation (the hardware drops the access: a read returns 0, a write does nothing)",
            "{v}"
        );
        assert!(
            r.reports[1]
                .message
                .starts_with("reads 4 bytes at LDS byte 0x400"),
            "{v}"
        );
        run(v, &body(768)).none(v);
    }
}

#[test]
fn a_barrier_ends_an_lds_epoch_and_races_after_it_are_found() {
    // Before the barrier each wave writes its own 64 dwords (no race);
    // after it, each reads the other wave's dwords and then overwrites
    // its own with them (changed: a write of the values already there
    // races with nothing): wave 1 reads what wave 0 wrote after the
    // barrier (RAW) and writes what wave 0 read after it (WAR).
    for v in VERSIONS {
        let r = run_items(
            v,
            "v_xor_b32 v2, 0x100, v1
             ds_write_b32 v1, v0
             s_waitcnt lgkmcnt(0)
             s_barrier
             @ds_read_b32 v3, v2
             s_waitcnt lgkmcnt(0)
             v_lshlrev_b32 v3, 1, v3
             @ds_write_b32 v1, v3
             s_waitcnt lgkmcnt(0)",
            128,
        );
        let [read, write] = [r.marks[0], r.marks[1]];
        let found: Vec<(Check, u32, u32, Option<u32>)> = r
            .reports
            .iter()
            .map(|x| (x.check, x.pc, x.wave, x.related.as_ref().map(|y| y.0)))
            .collect();
        assert_eq!(
            found,
            vec![
                (Check::LdsRace, read, 1, Some(write)),
                (Check::LdsRace, write, 1, Some(read)),
            ],
            "{v}: {:#?}",
            r.reports
        );
    }
}

#[test]
fn a_write_of_the_values_already_there_races_with_nothing() {
    // Every lane of both waves stores the same constant to dword 0 (LLVM's
    // lowering of an atomic exchange whose result is unused): the first
    // store changes it, and that one races with nothing before it; the
    // others leave it as it is. A store of another value per wave races.
    for v in VERSIONS {
        let same = run_items(
            v,
            "v_mov_b32 v3, 0
             v_mov_b32 v4, 7
             ds_write_b32 v3, v4
             s_waitcnt lgkmcnt(0)",
            128,
        );
        assert!(same.reports.is_empty(), "{v}: {:#?}", same.reports);
        let differ = run_items(
            v,
            "v_mov_b32 v3, 0
             @ds_write_b32 v3, v0
             s_waitcnt lgkmcnt(0)",
            128,
        );
        assert!(
            differ
                .reports
                .iter()
                .any(|r| r.check == Check::LdsRace && r.wave == 1 && r.pc == differ.marks[0]),
            "{v}: {:#?}",
            differ.reports
        );
    }
}

#[test]
fn levels_error_warn_off() {
    let v = GcnVersion::Gcn1_2;
    let source = format!(
        ".gallium\n.gpu tonga\n.kernel k\n .args\n  .arg out, global, 8\n .config\n  .dims x\n  .sgprsnum 32\n.text\nk:\n{}    s_cmp_eq_u32 s21, 0\n    s_cbranch_scc1 .+4\n    s_endpgm\n",
        prologue(v)
    );
    let binary = assemble(&source, &AssembleOptions::default())
        .unwrap()
        .gallium_bytes()
        .unwrap();
    let memory = Memory::default();
    let program = Program::load(&memory, &binary, v).unwrap();
    let out = memory.buffer_zeroed::<u32>(64).unwrap();
    let args = [ArgValue::Pointer(out.ptr())];
    let d = Dispatch::new_1d(64, 64);
    match program.launch("k", &args, &d, &LaunchOptions::default()) {
        Err(LaunchError::Check(reports)) => {
            assert_eq!(reports.len(), 1);
            assert_eq!(reports[0].level, Level::Error);
            assert!(reports[0]
                .to_string()
                .contains("control flow on undefined bits of scc"));
        }
        other => panic!("expected a check error, got {other:?}"),
    }
    let mut warn = LaunchOptions::default();
    warn.checks.set(Check::Uninit, Level::Warn);
    let stats = program.launch("k", &args, &d, &warn).unwrap();
    assert_eq!(stats.check_warnings, 1);
    let mut off = LaunchOptions::default();
    off.checks.apply("uninit=off").unwrap();
    let stats = program.launch("k", &args, &d, &off).unwrap();
    assert_eq!(stats.check_warnings, 0);
    assert!(off.checks.apply("bogus=warn").is_err());
    assert!(off.checks.apply("uninit=maybe").is_err());
}

/// A host thread keeps its work-group check state for the next group it
/// runs ([`super::GroupCheck::restart`]): each wave must still start as a
/// new one.
/// Each wave here ends leaving what the next wave's first instructions
/// would trip on were anything kept: a pending load of s14 (read first:
/// `waitcnt`), a VALU write of s12 (used as a lane select two states
/// later: `wait-states`) that also defines it (a lane select from
/// undefined bits: `uninit`, which must fire in every wave).
#[test]
fn each_wave_starts_fresh_though_a_thread_reuses_the_group_state() {
    for v in VERSIONS {
        let source = format!(
            ".gallium\n.gpu {}\n.kernel k\n .args\n  .arg out, global, 8\n .config\n  .dims x\n  .sgprsnum 32\n.text\nk:
    s_mov_b32 s15, s14
    v_readlane_b32 s13, v1, s12
    s_load_dword s14, s[0:1], 0
    v_readfirstlane_b32 s12, v0
    s_endpgm
",
            gpu(v)
        );
        let binary = assemble(&source, &AssembleOptions::default())
            .unwrap()
            .gallium_bytes()
            .unwrap();
        let memory = Memory::default();
        let program = Program::load(&memory, &binary, v).unwrap();
        let out = memory.buffer_zeroed::<u32>(64).unwrap();
        let args = [ArgValue::Pointer(out.ptr())];
        // 8 groups of 4 waves, all on one host thread.
        let d = Dispatch::new_1d(8 * 256, 256);
        let options = LaunchOptions {
            threads: Some(1),
            checks: CheckOptions::all(Level::Warn),
            ..LaunchOptions::default()
        };
        let reports = program
            .launcher(crate::LaunchArgs::new("k", &args), &d)
            .options(&options)
            .reports()
            .unwrap()
            .reports;
        assert_eq!(reports.len(), 1, "{v}: {reports:#?}");
        let r = &reports[0];
        assert_eq!((r.check, r.pc, r.count), (Check::Uninit, 4, 32), "{v}: {r}");
    }
}

#[test]
fn a_fault_carries_the_reports_before_it_and_the_nearest_buffer() {
    // v2 (the address's low half) is never written: the store goes to
    // address 0, below every allocation.
    let v = GcnVersion::Gcn1_2;
    let source = format!(
        ".gallium\n.gpu tonga\n.kernel k\n .args\n  .arg out, global, 8\n .config\n  .dims x\n.text\nk:\n{}    v_mov_b32 v3, 0\n    flat_store_dword v[2:3], v0\n    s_endpgm\n",
        prologue(v)
    );
    let binary = assemble(&source, &AssembleOptions::default())
        .unwrap()
        .gallium_bytes()
        .unwrap();
    let memory = Memory::default();
    let program = Program::load(&memory, &binary, v).unwrap();
    let out = memory.buffer_zeroed::<u32>(64).unwrap();
    let e = match program.launch(
        "k",
        &[ArgValue::Pointer(out.ptr())],
        &Dispatch::new_1d(64, 64),
        &LaunchOptions::default(),
    ) {
        Err(LaunchError::Exec(e)) => e,
        other => panic!("expected a fault, got {other:?}"),
    };
    assert_eq!(e.checks.len(), 1, "{e}");
    assert_eq!(e.checks[0].check, Check::Uninit);
    assert!(
        e.checks[0]
            .message
            .contains("forms a memory address or descriptor from undefined bits of v2"),
        "{e}"
    );
    let note = e.note.clone().unwrap_or_default();
    assert!(note.contains("bytes before the "), "{note}");
    assert!(e.to_string().contains("after: kernel 'k'"), "{e}");
}

/// The note of the memory fault of a `flat_load_dword` from `s[2:3]`,
/// which `setup` sets (GCN 1.2).
fn fault_note(setup: &str) -> Option<String> {
    let source = format!(
        ".gallium\n.gpu tonga\n.kernel k\n .args\n  .arg out, global, 8\n .config\n  .dims x\n.text\nk:\n{setup}\n    v_mov_b32 v2, s2\n    v_mov_b32 v3, s3\n    flat_load_dword v1, v[2:3]\n    s_waitcnt vmcnt(0) & lgkmcnt(0)\n    s_endpgm\n"
    );
    let binary = assemble(&source, &AssembleOptions::default())
        .unwrap()
        .gallium_bytes()
        .unwrap();
    let memory = Memory::default();
    let program = Program::load(&memory, &binary, GcnVersion::Gcn1_2).unwrap();
    let out = memory.buffer_zeroed::<u32>(64).unwrap();
    match program.launch(
        "k",
        &[ArgValue::Pointer(out.ptr())],
        &Dispatch::new_1d(64, 64),
        &LaunchOptions::default(),
    ) {
        Err(LaunchError::Exec(e)) => {
            assert!(matches!(e.kind, crate::exec::FaultKind::Memory(_)), "{e}");
            e.note.clone()
        }
        other => panic!("expected a fault, got {other:?}"),
    }
}

#[test]
fn a_fault_note_names_the_input_buffer_and_is_dropped_far_from_everything() {
    // 64 KiB past the kernel input buffer (s[0:1]), beyond its page.
    let note = fault_note("    s_add_u32 s2, s0, 0x10000\n    s_addc_u32 s3, s1, 0").unwrap();
    assert!(
        note.contains("bytes past the end of the kernel input buffer ("),
        "{note}"
    );
    // A wild pointer 4 TiB up: no allocation is near, no note.
    let note = fault_note("    s_mov_b32 s2, 0x40\n    s_mov_b32 s3, 0x400");
    assert_eq!(note, None);
}

#[test]
fn many_scalar_loads_in_flight_stay_bounded() {
    // 200 scalar loads to s12 without a wait: the counter saturates (the
    // model keeps at most its capacity, no panic), and each load
    // overwrites a register an earlier one, returning in any order, may
    // still write — one report, counted 199 times.
    for v in VERSIONS {
        let off = if v.is_gcn12_or_later() { "0x18" } else { "6" };
        let r = run(
            v,
            &format!(
                "s_movk_i32 s20, 200
                 loop:
                 s_load_dword s12, s[0:1], {off}
                 s_sub_u32 s20, s20, 1
                 s_cmp_lg_u32 s20, 0
                 s_cbranch_scc1 loop
                 s_waitcnt lgkmcnt(0)
                 v_mov_b32 v3, s12"
            ),
        );
        assert_eq!(r.reports.len(), 1, "{v}: {:#?}", r.reports);
        assert!(
            r.reports[0].message.contains("overwrites s12"),
            "{}",
            r.reports[0]
        );
        assert_eq!(r.reports[0].count, 199, "{}", r.reports[0]);
    }
}

#[test]
fn m0_rules_descriptor_word2_and_vccz() {
    for v in VERSIONS {
        // SALU writes M0 → s_sendmsg: 1 on GCN 1.2/1.4.
        wait_state_pair(
            v,
            "@s_mov_b32 m0, 0
             @s_sendmsg 1",
            "s_mov_b32 m0, 0
             s_nop 0
             s_sendmsg 1",
            v.is_gcn12_or_later().then_some(1),
        );
        // SALU writes M0 → s_movrel: 1 on GCN 1.4 only.
        wait_state_pair(
            v,
            "s_mov_b32 s13, 5
             @s_mov_b32 m0, 0
             @s_movrels_b32 s12, s13",
            "s_mov_b32 s13, 5
             s_mov_b32 m0, 0
             s_nop 0
             s_movrels_b32 s12, s13",
            v.is_gcn14().then_some(1),
        );
        // Third dword of a buffer descriptor → s_buffer_load: 1 (CLRX).
        wait_state_pair(
            v,
            "@s_mov_b32 s10, 64
             @s_buffer_load_dword s12, s[8:11], 0
             s_waitcnt lgkmcnt(0)",
            "s_mov_b32 s10, 64
             s_nop 0
             s_buffer_load_dword s12, s[8:11], 0
             s_waitcnt lgkmcnt(0)",
            Some(1),
        );
        // VALU writes VCC → VALU reads VCCZ as data: 5 on GCN 1.2/1.4.
        wait_state_pair(
            v,
            "@v_cmp_eq_u32 vcc, v0, v0
             @v_mov_b32 v3, vccz",
            "v_cmp_eq_u32 vcc, v0, v0
             s_nop 4
             v_mov_b32 v3, vccz",
            v.is_gcn12_or_later().then_some(5),
        );
    }
}

#[test]
fn valu_exec_then_dpp() {
    for v in [GcnVersion::Gcn1_2, GcnVersion::Gcn1_4] {
        wait_state_pair(
            v,
            "@v_cmpx_eq_u32 vcc, v0, v0
             @v_mov_b32 v3, v0 quad_perm:[1,0,3,2] row_mask:15 bank_mask:15",
            "v_cmpx_eq_u32 vcc, v0, v0
             s_nop 4
             v_mov_b32 v3, v0 quad_perm:[1,0,3,2] row_mask:15 bank_mask:15",
            Some(5),
        );
    }
}

#[test]
fn setreg_trapsts_then_rfe_reported_before_the_fault() {
    // s_rfe is not emulated: the dispatch stops there, and the fault
    // carries the wait-state report made just before (GCN 1.2/1.4 only).
    for v in VERSIONS {
        let source = format!(
            ".gallium\n.gpu {}\n.kernel k\n .args\n  .arg out, global, 8\n .config\n  .dims x\n.text\nk:\n{}    s_mov_b64 s[12:13], 0\n    s_setreg_b32 hwreg(trapsts, 0, 1), s12\n    s_rfe_b64 s[12:13]\n    s_endpgm\n",
            gpu(v),
            prologue(v)
        );
        let binary = assemble(&source, &AssembleOptions::default())
            .unwrap()
            .gallium_bytes()
            .unwrap();
        let memory = Memory::default();
        let program = Program::load(&memory, &binary, v).unwrap();
        let out = memory.buffer_zeroed::<u32>(64).unwrap();
        let e = match program.launch(
            "k",
            &[ArgValue::Pointer(out.ptr())],
            &Dispatch::new_1d(64, 64),
            &LaunchOptions::default(),
        ) {
            Err(LaunchError::Exec(e)) => e,
            other => panic!("{v}: expected the not-emulated fault, got {other:?}"),
        };
        assert!(e.instruction.starts_with("s_rfe_b64"), "{v}: {e}");
        if v.is_gcn12_or_later() {
            assert_eq!(e.checks.len(), 1, "{v}: {e}");
            assert_eq!(e.checks[0].check, Check::WaitStates);
            assert!(e.checks[0].message.contains("1 missing"), "{v}: {e}");
            assert!(
                e.checks[0]
                    .related
                    .as_ref()
                    .unwrap()
                    .1
                    .starts_with("s_setreg_b32"),
                "{v}: {e}"
            );
        } else {
            assert!(e.checks.is_empty(), "{v}: {e}");
        }
    }
}

/// Reads of a buffer allocated uninitialised: reported at the load until
/// something wrote the bytes (the host through `write_from`, or the
/// kernel's own store first); ordinary buffers are never reported.
#[test]
fn reads_of_uninitialised_device_memory() {
    for v in VERSIONS {
        // buffer_load through the prologue's raw descriptor over `out`.
        let load = "@buffer_load_dword v2, v1, s[8:11], 0 offen\n    s_waitcnt vmcnt(0)\n";
        let store_then_load = "buffer_store_dword v1, v1, s[8:11], 0 offen\n    s_waitcnt vmcnt(0) & expcnt(0)\n@buffer_load_dword v2, v1, s[8:11], 0 offen\n    s_waitcnt vmcnt(0)\n";
        let source = |body: &str| {
            let mut text = prologue(v);
            for line in body.lines() {
                text.push_str("    ");
                text.push_str(line.trim_start_matches('@').trim());
                text.push('\n');
            }
            format!(
                ".gallium\n.gpu {}\n.kernel k\n .args\n  .arg out, global, 8\n .config\n  .dims x\n.text\nk:\n{text}    s_endpgm\n",
                gpu(v)
            )
        };
        let memory = Memory::default();
        let options = LaunchOptions {
            threads: Some(1),
            checks: CheckOptions::all(Level::Warn),
            ..LaunchOptions::default()
        };
        let d = Dispatch::new_1d(64, 64);
        let reports = |body: &str, out: &crate::Buffer<u32>| {
            let binary = assemble(&source(body), &AssembleOptions::default())
                .unwrap()
                .gallium_bytes()
                .unwrap();
            let program = Program::load(&memory, &binary, v).unwrap();
            let values = [ArgValue::Pointer(out.ptr())];
            let launcher = program.launcher(crate::LaunchArgs::new("k", &values), &d);
            let outcome = launcher.options(&options).reports().unwrap();
            outcome
                .reports
                .into_iter()
                .filter(|r| r.check == Check::Uninit)
                .collect::<Vec<_>>()
        };
        // Loading bytes nothing wrote copies them: no report.
        let uninit = memory.buffer_uninit::<u32>(64).unwrap();
        assert_eq!(reports(load, &uninit), [], "{v}");
        // Using them as an address is reported, naming the bytes.
        let used = format!("{load}    v_and_b32 v2, 0xfc, v2\n    buffer_load_dword v3, v2, s[8:11], 0 offen\n    s_waitcnt vmcnt(0)\n");
        let found = reports(&used, &uninit);
        assert_eq!(found.len(), 1, "{v}: {found:?}");
        assert!(
            found[0].instruction.starts_with("buffer_load_dword v3"),
            "{v}"
        );
        assert!(
            found[0].message.contains(&format!(
                "device memory byte {:#x}, which nothing wrote",
                uninit.ptr().0
            )),
            "{v}: {}",
            found[0].message
        );
        // The kernel writes before it reads: nothing to report.
        let fresh = memory.buffer_uninit::<u32>(64).unwrap();
        let store_then_use = format!("{store_then_load}    buffer_load_dword v3, v2, s[8:11], 0 offen\n    s_waitcnt vmcnt(0)\n");
        assert_eq!(reports(&store_then_use, &fresh), [], "{v}");
        // The host wrote it: nothing either; nor for an ordinary buffer.
        let written = memory.buffer_uninit::<u32>(64).unwrap();
        written.write_from(&[7; 64]).unwrap();
        assert_eq!(reports(&used, &written), [], "{v}");
        let zeroed = memory.buffer_zeroed::<u32>(64).unwrap();
        assert_eq!(reports(&used, &zeroed), [], "{v}");
        // Half written by the host: the lanes over the other half are found.
        let half = memory.buffer_uninit::<u32>(64).unwrap();
        memory.write(half.ptr().0, &[1; 128]).unwrap();
        let found = reports(&used, &half);
        assert_eq!(found.len(), 1, "{v}");
        assert_eq!(found[0].lanes, Some(u64::MAX << 32), "{v}");
        assert!(
            found[0]
                .message
                .contains(&format!("device memory byte {:#x}", half.ptr().0 + 128)),
            "{v}: {}",
            found[0].message
        );
    }
}

// ---------------------------------------------------------------------------
// What compiled code relies on: registers an encoding does not use are not
// read (LLVM reuses them at once), and the checks know it from the
// decoder's resolved operand set.

#[test]
fn buffer_vaddr_without_offen_idxen_addr64_is_not_read() {
    for v in VERSIONS {
        // LLVM 14, GCN 1.0: the second load's VADDR field names v0, which
        // the first load is still writing; without OFFEN/IDXEN/ADDR64 the
        // field is ignored, so no wait is needed.
        run(
            v,
            "v_mov_b32 v3, 1
             buffer_load_ubyte v0, v0, s[8:11], 0 offset:1
             buffer_load_ubyte v2, v0, s[8:11], 0
             buffer_store_byte v3, v0, s[8:11], 0 offset:4
             s_waitcnt vmcnt(0)",
        )
        .none(v);
        // With OFFEN the same VADDR is an address: the read is reported.
        let bug = run(
            v,
            "@buffer_load_dword v0, v1, s[8:11], 0 offen
             @buffer_load_dword v2, v0, s[8:11], 0 offen
             s_waitcnt vmcnt(0)",
        );
        let m = bug.one(v, Check::Waitcnt, 1, Some(0));
        assert!(m.contains("reads v0"), "{v}: {m}");
    }
}

#[test]
fn d16_merge_is_not_a_read_that_waits() {
    let v = GcnVersion::Gcn1_4;
    // buffer_load_short_d16_hi keeps the low half of v2 without reading
    // it as data (LLVM: doesNotReadTiedSource): two loads into the two
    // halves need no wait between them.
    run(
        v,
        "v_mov_b32 v2, 0
         buffer_load_short_d16 v2, v1, s[8:11], 0 offen
         buffer_load_short_d16_hi v2, v1, s[8:11], 0 offen offset:2
         s_waitcnt vmcnt(0)
         buffer_store_dword v2, v1, s[8:11], 0 offen",
    )
    .none(v);
}

#[test]
fn atomic_without_glc_writes_no_register() {
    for v in VERSIONS {
        // Without GLC nothing returns: reading the data register while the
        // atomic is in flight is fine.
        run(
            v,
            "v_mov_b32 v2, 1
             buffer_atomic_add v2, v1, s[8:11], 0 offen
             v_xor_b32 v3, v2, v2
             s_waitcnt vmcnt(0)",
        )
        .none(v);
        // With GLC the old value returns into v2.
        let bug = run(
            v,
            "v_mov_b32 v2, 1
             @buffer_atomic_add v2, v1, s[8:11], 0 offen glc
             @v_xor_b32 v3, v2, v2
             s_waitcnt vmcnt(0)",
        );
        let m = bug.one(v, Check::Waitcnt, 1, Some(0));
        assert!(m.contains("reads v2"), "{v}: {m}");
    }
}

#[test]
fn stores_in_flight_at_a_barrier() {
    for v in VERSIONS {
        // Each of two waves writes its slots, meets the other at s_barrier
        // without waiting for the write, then reads the other wave's slots.
        for (store, wait) in [
            ("ds_write_b32 v1, v0", "s_waitcnt lgkmcnt(0)"),
            (
                "buffer_store_dword v0, v1, s[8:11], 0 offen",
                "s_waitcnt vmcnt(0) & expcnt(0)",
            ),
        ] {
            let load = if store.starts_with("ds") {
                "ds_read_b32 v3, v2\n s_waitcnt lgkmcnt(0)"
            } else {
                "buffer_load_dword v3, v2, s[8:11], 0 offen\n s_waitcnt vmcnt(0)"
            };
            let body = |sync: &str| format!("v_xor_b32 v2, 0x100, v1\n@{store}\n{sync}\n@{load}");
            let r = run_items(v, &body("s_barrier"), 128);
            let found: Vec<_> = r
                .reports
                .iter()
                .filter(|x| x.check == Check::Waitcnt)
                .collect();
            assert_eq!(found.len(), 1, "{v} {store}: {:#?}", r.reports);
            let x = found[0];
            assert_eq!((x.pc, x.wave), (r.marks[1], 0), "{v} {store}: {x}");
            assert_eq!(x.related.as_ref().map(|r| r.0), Some(r.marks[0]), "{x}");
            assert!(
                x.message.contains("wave 1's store")
                    && x.message
                        .contains("may still be writing: it was in flight at the s_barrier")
                    && !x.message.contains("  "),
                "{x}"
            );
            assert_eq!(x.lanes, Some(u64::MAX), "{x}");
            run_items(v, &body(&format!("{wait}\ns_barrier")), 128).none(v);
        }
        // A load in flight at the barrier is no error (the loaded value is
        // waited for before its use).
        let r = run_items(
            v,
            "v_xor_b32 v2, 0x100, v1
             ds_read_b32 v3, v1
             s_barrier
             s_waitcnt lgkmcnt(0)
             ds_write_b32 v2, v0
             s_waitcnt lgkmcnt(0)",
            128,
        );
        let waits: Vec<_> = r
            .reports
            .iter()
            .filter(|x| x.check == Check::Waitcnt)
            .collect();
        assert!(waits.is_empty(), "{v}: {waits:#?}");
    }
}

#[test]
fn undefined_m0_and_lane_select() {
    for v in VERSIONS {
        // M0 is the LDS limit up to GCN 1.2: an undefined one matters.
        let body = "s_mov_b32 m0, s40\n@ds_read_b32 v3, v1\ns_waitcnt lgkmcnt(0)";
        let r = run(v, body);
        if v.is_gcn14() {
            r.none(v);
        } else {
            let m = r.one(v, Check::Uninit, 0, None);
            assert!(
                m.contains("uses as M0") && m.contains("s40 byte 0"),
                "{v}: {m}"
            );
        }
        run(
            v,
            "s_mov_b32 s40, -1\ns_mov_b32 m0, s40\nds_read_b32 v3, v1\ns_waitcnt lgkmcnt(0)",
        )
        .none(v);
        // A lane select nothing wrote.
        let r = run(v, "v_mov_b32 v5, 1\n@v_readlane_b32 s10, v5, s41");
        let m = r.one(v, Check::Uninit, 0, None);
        assert!(
            m.contains("selects a lane with undefined bits of s41"),
            "{v}: {m}"
        );
    }
}

#[test]
fn a_load_into_lds_defines_the_bytes_it_fills() {
    for v in VERSIONS {
        run(
            v,
            "s_mov_b32 m0, 0
             s_nop 1
             buffer_load_dword v0, v1, s[8:11], 0 offen lds
             s_waitcnt vmcnt(0)
             s_mov_b32 m0, -1
             s_nop 1
             ds_read_b32 v8, v1
             s_waitcnt lgkmcnt(0)
             buffer_load_dword v3, v8, s[8:11], 0 offen
             s_waitcnt vmcnt(0)",
        )
        .none(v);
    }
}

#[test]
fn lds_races_are_per_byte_within_a_dword() {
    for v in VERSIONS {
        // Wave w writes byte w of each lane's dword: different bytes of
        // the same dwords, no race.
        let body = |extra: &str| {
            format!(
                "v_and_b32 v2, 63, v0
                 v_lshlrev_b32 v2, 2, v2
                 v_lshrrev_b32 v3, 6, v0
                 {}
                 ds_write_b8 v4, v0
                 s_waitcnt lgkmcnt(0)
                 {extra}",
                add(v, "v4", "v2", "v3")
            )
        };
        run_items(v, &body(""), 128).none(v);
        // Then each wave reads the other wave's byte: a race.
        let r = run_items(
            v,
            &body(
                "v_xor_b32 v5, 1, v4
@ds_read_u8 v6, v5
s_waitcnt lgkmcnt(0)",
            ),
            128,
        );
        let races: Vec<_> = r
            .reports
            .iter()
            .filter(|x| x.check == Check::LdsRace)
            .collect();
        // Wave 0 runs first and reads byte 1 before wave 1 writes it: that
        // race is found at wave 1's write of the byte; wave 1 then reads
        // byte 0, which wave 0 wrote: a second race, at the read.
        assert_eq!(races.len(), 2, "{v}: {:#?}", r.reports);
        let write = races
            .iter()
            .find(|x| x.pc != r.marks[0])
            .expect("the write");
        assert_eq!(write.related.as_ref().map(|x| x.0), Some(r.marks[0]), "{v}");
        assert!(
            write
                .message
                .contains("writes LDS byte 0x1, which wave 0 read")
                && write.wave == 1,
            "{v}: {write}"
        );
        let read = races.iter().find(|x| x.pc == r.marks[0]).expect("the read");
        assert!(
            read.message
                .contains("reads LDS byte 0x0, which wave 0 wrote")
                && read.wave == 1,
            "{v}: {read}"
        );
        assert_eq!(read.related.as_ref().map(|x| x.0), Some(write.pc), "{v}");
    }
}

/// Two runs of a compiled block that start and end with equal
/// instructions (which share a slot) keep lists of their own: the second
/// run's read of a register nothing wrote is found, with that register as
/// the origin, compiled as interpreted (`run_items` runs both).
#[test]
fn runs_with_equal_ends_are_checked_each_as_itself() {
    for v in VERSIONS {
        let r = run(
            v,
            "buffer_load_dword v6, v1, s[8:11], 0 offen
             s_nop 0
             v_mov_b32 v4, v1
             s_nop 0
             buffer_load_dword v8, v4, s[8:11], 0 offen
             s_nop 0
             v_or_b32 v5, v7, v1
             s_nop 0
             @buffer_load_dword v9, v5, s[8:11], 0 offen
             s_waitcnt vmcnt(0)",
        );
        let m = r.one(v, Check::Uninit, 0, None);
        assert!(m.contains("v7"), "{v}: {m}");
    }
}
