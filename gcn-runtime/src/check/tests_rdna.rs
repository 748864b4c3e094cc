//! The checks on GCN 1.5 (gfx1010) and RDNA 2 (gfx1030), in wave32 and
//! wave64: the split wait counters (`vmcnt` for loads, `vscnt` for stores,
//! the SOPK waits), the barrier rule with stores in flight, the gfx1010
//! hazards of [`super::wait_states::RULES`] (a kernel with the bug: a
//! report; with the fix LLVM 15 inserts: none), and `uninit`, `oob` and
//! `lds-race` in both wave sizes.

use gcn_asm::{assemble, AssembleOptions, GcnVersion};

use super::{Check, CheckOptions, CheckReport, Level};
use crate::kernel::{ArgValue, Dispatch};
use crate::{Memory, Program};

/// The GCN 1.5+ versions the tests run on.
const RDNA: [GcnVersion; 2] = [GcnVersion::Gcn1_5, GcnVersion::Rdna2];

/// The kernel prologue: `s[6:7]` = the `out` pointer (waited for), `v1` =
/// 4 × local id, `s[8:11]` a raw buffer descriptor over `out`.
const PROLOGUE: &str = "
    s_load_dwordx2 s[6:7], s[0:1], 0x0
    s_waitcnt lgkmcnt(0)
    s_mov_b32 s8, s6
    s_mov_b32 s9, s7
    s_mov_b32 s10, -1
    s_mov_b32 s11, 0x31014000
    v_lshlrev_b32 v1, 2, v0
";

/// The reports of a run and the PCs of the lines marked `@`.
pub(crate) struct Run {
    pub(crate) reports: Vec<CheckReport>,
    pub(crate) marks: Vec<u32>,
    /// What the run was, for messages.
    what: String,
}

/// Assembles `body` (after [`PROLOGUE`]) as a `.rocm` kernel for `v` in
/// `wave32` or wave64 and runs it over `items` work-items in one
/// work-group with every check at `Warn`; `out` is a 4000-byte buffer.
pub(crate) fn run_rdna(v: GcnVersion, wave32: bool, body: &str, items: u32) -> Run {
    let mut lines = Vec::new();
    let mut marks = Vec::new();
    // Instructions before the line (labels are no instruction).
    let mut instrs = 0;
    for line in PROLOGUE.lines().chain(body.lines()) {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let line = match line.strip_prefix('@') {
            Some(rest) => {
                marks.push(instrs);
                rest
            }
            None => line,
        };
        if !line.ends_with(':') {
            instrs += 1;
        }
        lines.push(line.to_string());
    }
    let text: String = lines.iter().map(|l| format!("    {l}\n")).collect();
    let gpu = if v == GcnVersion::Rdna2 {
        "gfx1030"
    } else {
        "gfx1010"
    };
    let w32 = if wave32 { "        .use_wave32\n" } else { "" };
    let source = format!(
        ".rocm
.gpu {gpu}
.md_version 1, 0
.kernel k
    .config
        .dims x
{w32}        .use_kernarg_segment_ptr
        .localsize 1024
        .sgprsnum 96
        .vgprsnum 128
        .arg out, \"uint*\", 8, , globalbuf, u32, global, default
.text
k:
    .skip 256
{text}    s_endpgm
"
    );
    let assembly = assemble(&source, &AssembleOptions::default())
        .unwrap_or_else(|e| panic!("{v}: {e:?}\n{source}"));
    let code = assembly.text();
    // One instruction per line after the 256-byte descriptor.
    let words = gcn_asm::decode::words_from_bytes(&code[256..]);
    let mut pcs = Vec::new();
    let mut i = 0;
    while i < words.len() {
        pcs.push(256 + 4 * i as u32);
        let instr = gcn_asm::decode::decode(&words[i..], 4 * i as u64, v).expect("decodes");
        i += usize::from(instr.len).max(1);
    }
    let marks: Vec<u32> = marks.iter().map(|&line| pcs[line]).collect();
    let binary = assembly.rocm_bytes().expect("code object");
    let memory = Memory::default();
    let program = Program::load_code_object(&memory, &binary)
        .unwrap_or_else(|e| panic!("{v}: {e}\n{source}"));
    // 4000 bytes: an access up to 96 bytes past them is in the mapped page.
    let out = memory.buffer_zeroed::<u32>(1000).expect("buffer");
    let values = [ArgValue::Pointer(out.ptr())];
    let dispatch = Dispatch::new_1d(items, items);
    let what = format!("{v} wave{}", if wave32 { 32 } else { 64 });
    let reports = super::tests::interpreted_and_compiled(&what, &source, &out, |options| {
        // An instruction without semantics yet (another family's handler)
        // stops the run there, after the checks looked at it: the reports
        // before the fault come back with it.
        match program
            .launcher(crate::LaunchArgs::new("k", &values), &dispatch)
            .options(options)
            .reports()
        {
            Ok(outcome) => outcome.reports,
            Err(crate::LaunchError::Exec(e)) if e.to_string().contains("is not emulated") => {
                e.checks.clone()
            }
            Err(e) => panic!("{v}: {e}\n{source}"),
        }
    });
    Run {
        reports,
        marks,
        what,
    }
}

impl Run {
    /// The only report, which must be of `check` at mark `mark`, related
    /// to mark `related` when given; returns its message.
    pub(crate) fn one(&self, check: Check, mark: usize, related: Option<usize>) -> String {
        let w = &self.what;
        assert_eq!(
            self.reports.len(),
            1,
            "{w}: expected one {check} report, got {:#?}",
            self.reports
        );
        let r = &self.reports[0];
        assert_eq!(r.check, check, "{w}: {r}");
        assert_eq!(r.pc, self.marks[mark], "{w}: {r}");
        if let Some(m) = related {
            assert_eq!(
                r.related.as_ref().map(|x| x.0),
                Some(self.marks[m]),
                "{w}: {r}"
            );
        }
        r.message.clone()
    }

    pub(crate) fn none(&self) {
        assert!(
            self.reports.is_empty(),
            "{}: expected no report, got:\n{}",
            self.what,
            self.reports
                .iter()
                .map(|r| r.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

/// Both wave sizes on both versions.
fn each(mut f: impl FnMut(GcnVersion, bool)) {
    for v in RDNA {
        for wave32 in [true, false] {
            f(v, wave32);
        }
    }
}

/// `MASK` → `s[20:21]` in wave64, `s20` in wave32 (a lane mask); `VCC`,
/// `EXEC` → `vcc`/`vcc_lo`, `exec`/`exec_lo`; `_BW` → `_b64`/`_b32`.
fn mask(wave32: bool, s: &str) -> String {
    if wave32 {
        s.replace("_BW", "_b32")
            .replace("MASK", "s20")
            .replace("VCC", "vcc_lo")
            .replace("EXEC", "exec_lo")
    } else {
        s.replace("_BW", "_b64")
            .replace("MASK", "s[20:21]")
            .replace("VCC", "vcc")
            .replace("EXEC", "exec")
    }
}

// ---------------------------------------------------------------------------
// Wait counters.

#[test]
fn loads_count_in_vmcnt_stores_in_vscnt() {
    each(|v, w32| {
        // A load is not waited for by s_waitcnt_vscnt …
        let r = run_rdna(
            v,
            w32,
            "@global_load_dword v2, v1, s[6:7]
             s_waitcnt_vscnt null, 0
             @v_mov_b32 v3, v2",
            64,
        );
        let m = r.one(Check::Waitcnt, 1, Some(0));
        assert!(m.contains("reads v2 before the s_waitcnt"), "{m}");
        // … but by vmcnt, and stores in between do not count there: with
        // a store between two loads, vmcnt(1) leaves only the second.
        run_rdna(
            v,
            w32,
            "global_load_dword v2, v1, s[6:7]
             global_store_dword v1, v0, s[6:7] offset:256
             global_load_dword v3, v1, s[6:7] offset:512
             s_waitcnt vmcnt(1)
             v_mov_b32 v4, v2",
            64,
        )
        .none();
        let r = run_rdna(
            v,
            w32,
            "global_load_dword v2, v1, s[6:7]
             global_store_dword v1, v0, s[6:7] offset:256
             @global_load_dword v3, v1, s[6:7] offset:512
             s_waitcnt vmcnt(1)
             @v_mov_b32 v4, v3",
            64,
        );
        r.one(Check::Waitcnt, 1, Some(0));
        // A returning atomic counts in vmcnt, one without return in vscnt
        // (where it writes no register anyway).
        let r = run_rdna(
            v,
            w32,
            "@global_atomic_add v3, v1, v0, s[6:7] glc
             s_waitcnt_vscnt null, 0
             @v_mov_b32 v4, v3",
            64,
        );
        r.one(Check::Waitcnt, 1, Some(0));
        run_rdna(
            v,
            w32,
            "global_atomic_add v3, v1, v0, s[6:7] glc
             s_waitcnt vmcnt(0)
             v_mov_b32 v4, v3",
            64,
        )
        .none();
    });
}

#[test]
fn sopk_waits_add_their_sgpr() {
    each(|v, w32| {
        // s_waitcnt_vmcnt s20, 0 with s20 = 1: at most one load left.
        let body = |read: &str| {
            format!(
                "s_mov_b32 s20, 1
                 global_load_dword v2, v1, s[6:7]
                 @global_load_dword v3, v1, s[6:7] offset:4
                 s_waitcnt_vmcnt s20, 0
                 @v_mov_b32 v4, {read}"
            )
        };
        run_rdna(v, w32, &body("v2"), 64).none();
        run_rdna(v, w32, &body("v3"), 64).one(Check::Waitcnt, 1, Some(0));
        // s_waitcnt_lgkmcnt null, 0 waits for a scalar load.
        let body = |wait: &str| {
            format!(
                "@s_load_dword s12, s[6:7], 0x0
                 {wait}
                 @s_mov_b32 s13, s12"
            )
        };
        run_rdna(v, w32, &body("s_waitcnt_lgkmcnt null, 0"), 64).none();
        run_rdna(v, w32, &body("s_waitcnt_lgkmcnt null, 1"), 64).one(Check::Waitcnt, 1, Some(0));
        run_rdna(v, w32, &body("s_waitcnt_vmcnt null, 0"), 64).one(Check::Waitcnt, 1, Some(0));
    });
}

#[test]
fn gfx10_waitcnt_fields() {
    // vmcnt bits 3:0 and 15:14, expcnt 6:4, lgkmcnt 13:8 (LLVM
    // getVmcntBitShiftHi/getLgkmcntBitWidth for gfx10).
    for v in RDNA {
        let imm = |vm: u16, exp: u16, lgkm: u16| (vm & 15) | (vm >> 4) << 14 | exp << 4 | lgkm << 8;
        for (vm, exp, lgkm) in [(0, 0, 0), (63, 7, 63), (17, 3, 33), (5, 0, 62)] {
            assert_eq!(
                super::waitcnt::decode_waitcnt(imm(vm, exp, lgkm), v),
                (u32::from(vm), u32::from(exp), u32::from(lgkm)),
                "{v}"
            );
        }
    }
}

#[test]
fn flat_counts_in_lgkmcnt_too() {
    each(|v, w32| {
        let body = |wait: &str| {
            format!(
                "v_mov_b32 v4, s6
                 v_mov_b32 v5, s7
                 @flat_load_dword v2, v[4:5]
                 {wait}
                 @v_mov_b32 v3, v2"
            )
        };
        run_rdna(v, w32, &body("s_waitcnt vmcnt(0)"), 64).one(Check::Waitcnt, 1, Some(0));
        run_rdna(v, w32, &body("s_waitcnt lgkmcnt(0)"), 64).one(Check::Waitcnt, 1, Some(0));
        run_rdna(v, w32, &body("s_waitcnt vmcnt(0) lgkmcnt(0)"), 64).none();
    });
}

#[test]
fn stores_in_flight_at_a_barrier_need_vscnt() {
    each(|v, w32| {
        // Two waves: each stores its slots, meets the other at s_barrier,
        // then reads the other wave's slots.
        let lanes = if w32 { 32 } else { 64 };
        let other = 4 * lanes;
        let body = |wait: &str| {
            format!(
                "v_xor_b32 v2, {other}, v1
                 @global_store_dword v1, v0, s[6:7]
                 {wait}
                 s_barrier
                 @global_load_dword v3, v2, s[6:7]
                 s_waitcnt vmcnt(0)"
            )
        };
        // vmcnt(0) waits for loads only on GCN 1.5.
        let r = run_rdna(v, w32, &body("s_waitcnt vmcnt(0) lgkmcnt(0)"), 2 * lanes);
        let found: Vec<_> = r
            .reports
            .iter()
            .filter(|x| x.check == Check::Waitcnt)
            .collect();
        assert_eq!(found.len(), 1, "{v} {w32}: {:#?}", r.reports);
        let x = found[0];
        assert_eq!((x.pc, x.wave), (r.marks[1], 0), "{x}");
        assert_eq!(x.related.as_ref().map(|r| r.0), Some(r.marks[0]), "{x}");
        assert!(x.message.contains("wave 1's store"), "{x}");
        let all = if w32 { u64::from(u32::MAX) } else { u64::MAX };
        assert_eq!(x.lanes, Some(all), "{x}");
        // LLVM's release fence before the barrier.
        run_rdna(
            v,
            w32,
            &body("s_waitcnt vmcnt(0) lgkmcnt(0)\ns_waitcnt_vscnt null, 0"),
            2 * lanes,
        )
        .none();
        // LDS stores are on lgkmcnt as before.
        let body = |wait: &str| {
            format!(
                "v_xor_b32 v2, {other}, v1
                 ds_write_b32 v1, v0
                 {wait}
                 s_barrier
                 ds_read_b32 v3, v2
                 s_waitcnt lgkmcnt(0)"
            )
        };
        let r = run_rdna(v, w32, &body("s_waitcnt_vscnt null, 0"), 2 * lanes);
        assert!(
            r.reports.iter().any(|x| x.check == Check::Waitcnt),
            "{:#?}",
            r.reports
        );
        run_rdna(v, w32, &body("s_waitcnt lgkmcnt(0)"), 2 * lanes).none();
    });
}

// ---------------------------------------------------------------------------
// The gfx1010 hazards: the bug is reported on GCN 1.5 (naming the
// producer), the fix LLVM 15 inserts silences it, and RDNA 2 (which has
// none of these bugs) reports neither.

/// Runs `bug` (one wait-state report at mark 1 caused by mark 0 on GCN
/// 1.5, none on RDNA 2) and each of `fixes` (none), in both wave sizes.
fn hazard_pair(bug: &str, fixes: &[&str], what: &str) {
    each(|v, w32| {
        let r = run_rdna(v, w32, &mask(w32, bug), 64);
        if v == GcnVersion::Gcn1_5 {
            let m = r.one(Check::WaitStates, 1, Some(0));
            assert!(m.contains("gfx1010") && m.contains(what), "{m}");
        } else {
            r.none();
        }
        for fix in fixes {
            run_rdna(v, w32, &mask(w32, fix), 64).none();
        }
    });
}

#[test]
fn vmem_sgpr_read_then_scalar_write() {
    hazard_pair(
        "@global_load_dword v2, v1, s[6:7]
         @s_mov_b32 s6, 0",
        &[
            "global_load_dword v2, v1, s[6:7]
             s_waitcnt_depctr 0xffe3
             s_mov_b32 s6, 0",
            "global_load_dword v2, v1, s[6:7]
             v_nop
             s_mov_b32 s6, 0",
            "global_load_dword v2, v1, s[6:7]
             s_waitcnt 0
             s_mov_b32 s6, 0",
        ],
        "VMEM/DS/FLAT read of an SGPR",
    );
    // An SMEM write, and EXEC (the lane mask the load reads).
    hazard_pair(
        "@global_load_dword v2, v1, s[6:7]
         @s_load_dword s7, s[0:1], 0x0
         s_waitcnt lgkmcnt(0)",
        &["global_load_dword v2, v1, s[6:7]
           s_waitcnt_depctr 0xffe3
           s_load_dword s7, s[0:1], 0x0
           s_waitcnt lgkmcnt(0)"],
        "SALU/SMEM write",
    );
    hazard_pair(
        "@ds_write_b32 v1, v0
         @s_mov_BW EXEC, -1",
        &["ds_write_b32 v1, v0
           s_waitcnt_depctr 0xffe3
           s_mov_BW EXEC, -1"],
        "VMEM/DS/FLAT read of an SGPR",
    );
}

#[test]
fn an_implicit_exec_write_is_no_vmem_scalar_write_consumer() {
    // LLVM looks at the explicit destinations of the SALU (`MI->defs()`):
    // the EXEC of `s_and_saveexec_*` after a load needs no fix (clang-15's
    // gfx1010 code has none there).
    for v in RDNA {
        run_rdna(
            v,
            false,
            "v_cmp_gt_u32 vcc, 16, v0
             global_load_dword v2, v1, s[6:7]
             s_and_saveexec_b64 s[20:21], vcc
             s_waitcnt vmcnt(0)",
            64,
        )
        .none();
    }
}

#[test]
fn smem_sgpr_read_then_valu_write() {
    hazard_pair(
        "@s_load_dword s12, s[6:7], 0x0
         @v_readfirstlane_b32 s6, v1
         s_waitcnt lgkmcnt(0)",
        &[
            "s_load_dword s12, s[6:7], 0x0
             s_mov_b32 null, 0
             v_readfirstlane_b32 s6, v1
             s_waitcnt lgkmcnt(0)",
            "s_load_dword s12, s[6:7], 0x0
             s_waitcnt lgkmcnt(0)
             v_readfirstlane_b32 s6, v1",
        ],
        "SMEM read of an SGPR and a VALU write",
    );
    // A compare writing its lane mask into the SMEM's base.
    hazard_pair(
        "s_mov_b64 s[20:21], s[6:7]
         @s_load_dword s12, s[20:21], 0x0
         @v_cmp_gt_u32 MASK, 16, v0
         s_waitcnt lgkmcnt(0)",
        &["s_mov_b64 s[20:21], s[6:7]
           s_load_dword s12, s[20:21], 0x0
           s_waitcnt_lgkmcnt null, 0
           v_cmp_gt_u32 MASK, 16, v0"],
        "SMEM read of an SGPR and a VALU write",
    );
}

#[test]
fn exec_read_then_vcmpx() {
    hazard_pair(
        "@s_mov_BW MASK, EXEC
         @v_cmpx_eq_u32 0, v0",
        &[
            "s_mov_BW MASK, EXEC
             s_waitcnt_depctr 0xfffe
             v_cmpx_eq_u32 0, v0",
            "s_mov_BW MASK, EXEC
             v_cmp_eq_u32 VCC, 0, v0
             v_cmpx_eq_u32 0, v0",
        ],
        "non-VALU read of EXEC",
    );
    // VMEM reads EXEC as its lane mask.
    hazard_pair(
        "@global_store_dword v1, v0, s[6:7]
         @v_cmpx_eq_u32 0, v0",
        &["global_store_dword v1, v0, s[6:7]
           s_waitcnt_depctr 0xfffe
           v_cmpx_eq_u32 0, v0"],
        "non-VALU read of EXEC",
    );
}

#[test]
fn lds_and_vmem_across_a_branch() {
    hazard_pair(
        "@ds_write_b32 v1, v0
         s_branch .L1
         .L1:
         @global_store_dword v1, v0, s[6:7]",
        &[
            "ds_write_b32 v1, v0
             s_waitcnt_vscnt null, 0
             s_branch .L1
             .L1:
             global_store_dword v1, v0, s[6:7]",
            "ds_write_b32 v1, v0
             s_branch .L1
             .L1:
             s_waitcnt_vscnt null, 0
             global_store_dword v1, v0, s[6:7]",
            // No branch, or the same kind after it: no hazard.
            "ds_write_b32 v1, v0
             global_store_dword v1, v0, s[6:7]",
            "ds_write_b32 v1, v0
             s_branch .L1
             .L1:
             ds_write_b32 v1, v0 offset:256
             global_store_dword v1, v0, s[6:7]",
            // A return (or call) between: LLVM pairs accesses within one
            // function only.
            "ds_write_b32 v1, v0
             s_branch .L1
             .L1:
             s_getpc_b64 s[10:11]
             s_add_u32 s10, s10, 12
             s_addc_u32 s11, s11, 0
             s_setpc_b64 s[10:11]
             global_store_dword v1, v0, s[6:7]",
        ],
        "LDS and a VMEM access",
    );
    // VMEM then LDS, across a conditional branch not taken.
    hazard_pair(
        "@global_load_dword v2, v1, s[6:7]
         s_cmp_eq_u32 s6, s6
         s_cbranch_scc0 .L1
         @ds_write_b32 v1, v0
         .L1:
         s_waitcnt vmcnt(0)",
        &["global_load_dword v2, v1, s[6:7]
           s_cmp_eq_u32 s6, s6
           s_waitcnt_vscnt null, 0
           s_cbranch_scc0 .L1
           ds_write_b32 v1, v0
           .L1:
           s_waitcnt vmcnt(0)"],
        "LDS and a VMEM access",
    );
}

#[test]
fn vopc_then_permlane() {
    // (Without a v_permlane16_b32 handler yet the run stops at it, after
    // the check.)
    hazard_pair(
        "@v_cmp_eq_u32 VCC, 0, v0
         @v_permlane16_b32 v2, v1, s6, s7",
        &[
            "v_cmp_eq_u32 VCC, 0, v0
             v_mov_b32 v1, v1
             v_permlane16_b32 v2, v1, s6, s7",
            "v_cmp_eq_u32 VCC, 0, v0
             s_nop 0
             v_mov_b32 v1, v1
             v_permlane16_b32 v2, v1, s6, s7",
        ],
        "VOPC instruction and v_permlane",
    );
    // v_nop does not end it.
    each(|v, w32| {
        let r = run_rdna(
            v,
            w32,
            &mask(
                w32,
                "@v_cmp_eq_u32 VCC, 0, v0
                 v_nop
                 @v_permlane16_b32 v2, v1, s6, s7",
            ),
            64,
        );
        if v == GcnVersion::Gcn1_5 {
            r.one(Check::WaitStates, 1, Some(0));
        } else {
            r.none();
        }
    });
}

/// The roles of the first instruction of `source` on `v`.
fn roles(v: GcnVersion, source: &str) -> super::wait_states::Gfx10Roles {
    let ops = crate::exec::testing::ops_of(v, source);
    let op = &ops.ops()[0];
    super::Facts::of(op, v).g10.map(|r| *r).unwrap_or_default()
}

#[test]
fn the_roles_of_rows_that_do_not_run_yet() {
    // (v_permlane*, and MIMG NSA, whose descriptors the tests do not build:
    // their pairs run once the handlers land.)
    let v = GcnVersion::Gcn1_5;
    assert!(roles(v, "v_permlane16_b32 v2, v1, s6, s7").is_permlane());
    assert!(roles(v, "v_cmp_eq_u32 vcc, 0, v0").is_vopc());
    assert!(!roles(v, "v_nop").is_vopc_end());
    assert!(roles(v, "v_mov_b32 v1, v1").is_vopc_end());
    let nsa = "image_sample_d v[0:3], [v4, v5, v6, v7, v8, v9], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D";
    assert!(roles(v, nsa).is_nsa());
    assert!(!roles(
        v,
        "image_load v[2:5], [v1, v3], s[16:23] dmask:0xf dim:SQ_RSRC_IMG_2D"
    )
    .is_nsa());
    assert!(roles(v, "buffer_load_dword v1, v2, s[8:11], 0 offen offset:2").is_offset_consumer());
    assert!(!roles(v, "buffer_load_dword v1, v2, s[8:11], 0 offen offset:8").is_offset_consumer());
    // RDNA 2 has none of these bugs.
    assert!(!roles(GcnVersion::Rdna2, nsa).any);
}

// ---------------------------------------------------------------------------
// uninit, oob and lds-race in wave32 and wave64: the lanes past a wave32's
// 32 never take part, and a wave32 lane mask is one SGPR.

/// The reports of `check`.
fn of(r: &Run, check: Check) -> Vec<&CheckReport> {
    r.reports.iter().filter(|x| x.check == check).collect()
}

/// The lanes of a whole wave.
fn all_lanes(wave32: bool) -> u64 {
    if wave32 {
        u64::from(u32::MAX)
    } else {
        u64::MAX
    }
}

#[test]
fn a_wave32_compare_defines_one_sgpr() {
    each(|v, w32| {
        // The compare's mask, then the SGPR after it: defined in wave64
        // (a pair), undefined in wave32 (one SGPR).
        let body = mask(
            w32,
            "v_cmp_gt_u32 MASK, 16, v0
             s_cmp_eq_u32 s21, 0
             s_cbranch_scc1 .L1
             .L1:
             s_cmp_eq_u32 s20, 0
             s_cbranch_scc1 .L2
             .L2:",
        );
        let r = run_rdna(v, w32, &body, 64);
        let u = of(&r, Check::Uninit);
        if w32 {
            assert_eq!(u.len(), 1, "{v}: {:#?}", r.reports);
            assert!(u[0].message.contains("s21"), "{}", u[0]);
        } else {
            assert!(u.is_empty(), "{v}: {:#?}", r.reports);
        }
        assert_eq!(r.reports.len(), u.len(), "{v}: {:#?}", r.reports);
        // VCC: vcc_lo in wave32 decides VCCZ; vcc_hi is never written.
        run_rdna(
            v,
            w32,
            &mask(
                w32,
                "v_cmp_gt_u32 VCC, 16, v0
                 s_cbranch_vccz .L1
                 v_cndmask_b32 v2, 0, 1, VCC
                 global_store_dword v1, v2, s[6:7]
                 .L1:",
            ),
            64,
        )
        .none();
    });
}

#[test]
fn the_lanes_past_a_wave32_are_not_used() {
    each(|v, w32| {
        // v5 is written in the wave's lanes only: as an address it is
        // defined.
        run_rdna(
            v,
            w32,
            "v_mov_b32 v5, 0
             global_load_dword v6, v5, s[6:7]
             s_waitcnt vmcnt(0)
             global_store_dword v1, v6, s[6:7]",
            64,
        )
        .none();
        // A value computed from an undefined VGPR stored: the wave's
        // lanes are reported.
        let r = run_rdna(
            v,
            w32,
            "v_or_b32 v5, 1, v40
             @global_store_dword v1, v5, s[6:7]",
            64,
        );
        let u = of(&r, Check::Uninit);
        assert_eq!(u.len(), 1, "{v}: {:#?}", r.reports);
        assert_eq!((u[0].pc, u[0].lanes), (r.marks[0], Some(all_lanes(w32))));
        assert_eq!(u[0].count, if w32 { 2 } else { 1 }, "{}", u[0]);
    });
}

#[test]
fn oob_lanes_in_both_wave_sizes() {
    each(|v, w32| {
        // out + 3968 + 4 × (id & 15): lanes with (id & 15) ≥ 8 write past
        // the 4000 bytes, inside the mapped page.
        let r = run_rdna(
            v,
            w32,
            "s_add_u32 s12, s6, 3968
             s_addc_u32 s13, s7, 0
             v_and_b32 v2, 60, v1
             @global_store_dword v2, v0, s[12:13]",
            64,
        );
        let o = of(&r, Check::Oob);
        assert_eq!(o.len(), 1, "{v}: {:#?}", r.reports);
        let want = 0xff00_ff00_ff00_ff00 & all_lanes(w32);
        assert_eq!((o[0].pc, o[0].lanes), (r.marks[0], Some(want)), "{}", o[0]);
        assert_eq!(r.reports.len(), 1, "{v}: {:#?}", r.reports);
    });
}

#[test]
fn lds_races_between_waves_of_both_sizes() {
    each(|v, w32| {
        let lanes = if w32 { 32 } else { 64 };
        let other = 4 * lanes;
        let body = |sync: &str| {
            format!(
                "v_xor_b32 v2, {other}, v1
                 @ds_write_b32 v1, v0
                 {sync}
                 @ds_read_b32 v3, v2
                 s_waitcnt lgkmcnt(0)
                 global_store_dword v1, v3, s[6:7]"
            )
        };
        // (The first wave runs to its end, the second then writes what the
        // first read: the race is reported at whichever access comes
        // second, naming the other.)
        let r = run_rdna(v, w32, &body(""), 2 * lanes);
        let races = of(&r, Check::LdsRace);
        assert!(!races.is_empty(), "{v}: {:#?}", r.reports);
        assert_eq!(races.len(), r.reports.len(), "{v}: {:#?}", r.reports);
        for x in races {
            let pair = (x.pc, x.related.as_ref().map(|r| r.0));
            assert!(
                pair == (r.marks[0], Some(r.marks[1])) || pair == (r.marks[1], Some(r.marks[0])),
                "{x}"
            );
            assert_eq!(x.wave, 1, "{x}");
        }
        run_rdna(v, w32, &body("s_waitcnt lgkmcnt(0)\ns_barrier"), 2 * lanes).none();
    });
}

#[test]
fn wave32_lane_masks_are_one_sgpr() {
    use gcn_asm::decode::Location;
    // The SGPRs (code, count, writes) an instruction accesses as a wave
    // of 32 lanes and of 64.
    let sgprs = |wave32: bool, src: &str| -> Vec<(u16, u16, bool)> {
        let ops = crate::exec::testing::ops_of_waves(GcnVersion::Rdna2, wave32, src);
        ops.ops()[0]
            .instr
            .accesses()
            .iter()
            .filter_map(|a| match a.location {
                Location::Sgprs { code, count } => Some((code, count, a.role.writes())),
                _ => None,
            })
            .collect()
    };
    // What the emulator does: a wave32 compare writes s20 and keeps s21.
    let w = crate::exec::testing::run_wave32(GcnVersion::Rdna2, "v_cmp_gt_u32 s20, 16, v0", |w| {
        w.sgpr[21] = 0x1234;
        for (lane, v) in w.vgpr[0].iter_mut().enumerate() {
            *v = lane as u32;
        }
    });
    assert_eq!((w.sgpr[20], w.sgpr[21]), (0xffff, 0x1234));
    let (vcc, exec) = (crate::exec::sreg::VCC, crate::exec::sreg::EXEC);
    assert_eq!(sgprs(true, "v_cmp_gt_u32 s20, 16, v0"), [(20, 1, true)]);
    assert_eq!(
        sgprs(false, "v_cmp_gt_u32 s[20:21], 16, v0"),
        [(20, 2, true)]
    );
    assert_eq!(sgprs(true, "v_cmp_gt_u32 vcc_lo, 16, v0"), [(vcc, 1, true)]);
    assert_eq!(sgprs(true, "s_cbranch_vccz .+4"), [(vcc, 1, false)]);
    assert_eq!(sgprs(false, "s_cbranch_vccz .+4"), [(vcc, 2, false)]);
    assert_eq!(
        sgprs(true, "v_cndmask_b32_e64 v2, 0, 1, s20"),
        [(20, 1, false)]
    );
    assert_eq!(sgprs(true, "v_cmpx_eq_u32 0, v0"), [(exec, 1, true)]);
    assert_eq!(sgprs(false, "v_cmpx_eq_u32 0, v0"), [(exec, 2, true)]);
    // NULL is no register: as a 64-bit carry-out its pair would name
    // EXEC_LO (clang-15's wave64 code writes `v_mad_u64_u32 …, null, …`).
    assert_eq!(
        sgprs(false, "v_mad_u64_u32 v[0:1], null, s8, s0, v[0:1]"),
        [(8, 1, false), (0, 1, false)]
    );
    // (Nor as a 32-bit destination: the write goes nowhere.)
    assert!(sgprs(true, "s_mov_b32 null, 0").is_empty());
    assert_eq!(
        sgprs(true, "s_and_saveexec_b32 s4, vcc_lo"),
        [(4, 1, true), (vcc, 1, false), (exec, 1, true)]
    );
}

/// Runs the gfx1010 hazard rules along the fall-through paths of the
/// kernels (and functions) of the clang-15 code objects of `set`
/// (`tests/rocm/gen-rdna/`): from each instruction to the next, a path
/// ending at an instruction control never falls through (`s_endpgm`,
/// `s_branch`, `s_setpc_b64`). Every such path is one the program may take
/// and LLVM's hazard recognizer made safe on all: any finding is the
/// checker's false positive. Returns (instructions, findings).
/// `skip`: (file, PC) of an instruction taken out of the paths (a planted
/// bug: the hazard fix LLVM put there deleted).
fn hazards_on_fall_through_paths(set: &str, skip: Option<(&str, u32)>) -> (usize, Vec<String>) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/rocm/gen-rdna")
        .join(set);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "co"))
        .collect();
    paths.sort();
    let mut count = 0;
    let mut findings = Vec::new();
    for path in paths {
        let bytes = std::fs::read(&path).unwrap();
        let co = gcn_asm::rocm::read(&bytes).unwrap();
        let v = co.processor.version;
        let text = co.text.as_ref().expect("text");
        let words = gcn_asm::decode::words_from_bytes(&text.data);
        let wave32 = co.kernels.first().is_some_and(|k| k.descriptor.wave32());
        let ops = crate::exec::predecode_waves(&words, v, wave32);
        let facts = super::program_facts(&ops, v);
        let mut state = super::wait_states::Gfx10State::default();
        let mut clock = 0u64;
        let mut i = 0;
        while i < words.len() {
            let pc = 4 * i as u32;
            let Some(slot) = ops.slot(pc) else {
                // Words that do not decode end a path.
                state = Default::default();
                i += 1;
                continue;
            };
            let op = &ops.ops()[slot];
            let f = &facts[slot];
            // A kernel's entry starts a path.
            if co
                .kernels
                .iter()
                .any(|k| k.entry == text.vaddr + u64::from(pc))
            {
                state = Default::default();
            }
            let file = path.file_name().unwrap().to_string_lossy();
            if skip == Some((&*file, pc)) {
                i += usize::from(op.instr.len).max(1);
                continue;
            }
            count += 1;
            let roles = f.g10.as_deref().copied().unwrap_or_default();
            if let Some((h, related)) = state.step(&roles, pc, clock) {
                findings.push(format!(
                    "{file} pc {pc:#x} `{}`: {h:?} with pc {related:#x} `{}`",
                    crate::exec::instruction_at(&ops, pc).unwrap_or_default(),
                    crate::exec::instruction_at(&ops, related).unwrap_or_default(),
                ));
            }
            clock += u64::from(f.states);
            if op.instr.row.has(gcn_asm::isa::flags::ENDS) {
                state = Default::default();
            }
            i += usize::from(op.instr.len).max(1);
        }
    }
    (count, findings)
}

#[test]
fn clang15_gfx1010_code_breaks_no_hazard_rule() {
    let (count, findings) = hazards_on_fall_through_paths("gfx1010", None);
    assert!(count > 10_000, "{count} instructions");
    assert!(
        findings.is_empty(),
        "{}:\n{}",
        findings.len(),
        findings.join("\n")
    );
}

/// A hazard fix found in a code object: file, PC, disassembly, and
/// whether other paths than the fall-through one reach it (a branch
/// targets it, or control never falls through the instruction before).
type Fix = (String, u32, String, bool);

/// The hazard fixes of gfx1010 code: each `s_waitcnt_depctr` and each SALU
/// that writes only `null` (`s_mov_b32 null, 0`: the fixes of LLVM's
/// fixHazards), by row data.
fn hazard_fixes(set: &str) -> Vec<Fix> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/rocm/gen-rdna")
        .join(set);
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "co"))
        .collect();
    paths.sort();
    for path in paths {
        let co = gcn_asm::rocm::read(&std::fs::read(&path).unwrap()).unwrap();
        let v = co.processor.version;
        let text = co.text.as_ref().unwrap();
        let words = gcn_asm::decode::words_from_bytes(&text.data);
        let wave32 = co.kernels.first().is_some_and(|k| k.descriptor.wave32());
        let ops = crate::exec::predecode_waves(&words, v, wave32);
        // Branch targets (operands are offsets from the start of the
        // decoded words) and the instructions after one that ends.
        let mut joins = std::collections::BTreeSet::new();
        let mut i = 0;
        while i < words.len() {
            let Some(op) = ops.slot(4 * i as u32).map(|s| &ops.ops()[s]) else {
                i += 1;
                continue;
            };
            for o in op.instr.operands() {
                if let gcn_asm::decode::Operand::Target(t) = *o {
                    joins.insert(t as u32);
                }
            }
            i += usize::from(op.instr.len).max(1);
            if op.instr.row.has(gcn_asm::isa::flags::ENDS) {
                joins.insert(4 * i as u32);
            }
        }
        let mut i = 0;
        while i < words.len() {
            let pc = 4 * i as u32;
            let Some(op) = ops.slot(pc).map(|s| &ops.ops()[s]) else {
                i += 1;
                continue;
            };
            let row = op.instr.row;
            let null_only = row.unit() == gcn_asm::isa::Unit::Salu
                && row
                    .operands
                    .iter()
                    .zip(op.instr.operands())
                    .any(|(spec, o)| {
                        spec.role.writes()
                            && matches!(
                                o,
                                gcn_asm::decode::Operand::Reg {
                                    code: crate::exec::sreg::NULL,
                                    ..
                                }
                            )
                    });
            if row.has(gcn_asm::isa::flags::DEPCTR) || null_only {
                out.push((
                    path.file_name().unwrap().to_string_lossy().into_owned(),
                    pc,
                    crate::exec::instruction_at(&ops, pc).unwrap_or_default(),
                    joins.contains(&pc),
                ));
            }
            i += usize::from(op.instr.len).max(1);
        }
    }
    out
}

#[test]
fn deleted_gfx1010_hazard_fixes_are_found() {
    // Each fix LLVM 15 inserted, deleted: the rules must find the hazard
    // on a fall-through path through it, unless other paths reach the fix
    // (LLVM looks at every predecessor: the hazard may come only from a
    // branch, which this static walk does not follow; the dynamic check
    // does, on the path the run takes).
    let fixes = hazard_fixes("gfx1010");
    assert!(fixes.len() >= 10, "{fixes:#?}");
    let mut found = 0;
    let mut missed = Vec::new();
    for (file, pc, text, join) in &fixes {
        let (_, findings) = hazards_on_fall_through_paths("gfx1010", Some((file, *pc)));
        if !findings.is_empty() {
            found += 1;
        } else if !join {
            missed.push(format!("{file} pc {pc:#x} `{text}`"));
        }
    }
    assert!(
        missed.is_empty(),
        "{} of {} not found:\n{}",
        missed.len(),
        fixes.len(),
        missed.join("\n")
    );
    assert!(2 * found > fixes.len(), "{found} of {} found", fixes.len());
}

/// The code objects of `set` (`tests/rocm/gen-rdna/SET/*.co`), sorted.
fn fixture_paths(set: &str) -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/rocm/gen-rdna")
        .join(set);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "co"))
        .collect();
    paths.sort();
    paths
}

/// The `waitcnt` check's register rules along the fall-through paths of
/// the code objects of `set` (as [`hazards_on_fall_through_paths`]: a
/// path ends where control never falls through; calls end it too, their
/// callees wait for everything), with the instruction at `skip` deleted. An SGPR a SOPK wait adds reads as 0 (a stronger wait:
/// it can hide a finding, not make one). Returns (instructions, findings,
/// the waits met: file, PC, disassembly).
fn waitcnt_on_fall_through_paths(
    set: &str,
    skip: Option<(&str, u32)>,
) -> (usize, Vec<String>, Vec<(String, u32, String)>) {
    let mut count = 0;
    let mut findings = Vec::new();
    let mut waits = Vec::new();
    for path in fixture_paths(set) {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        // With a deletion, only its code object.
        if skip.is_some_and(|(f, _)| f != file) {
            continue;
        }
        let co = gcn_asm::rocm::read(&std::fs::read(&path).unwrap()).unwrap();
        let v = co.processor.version;
        let text = co.text.as_ref().expect("text");
        let words = gcn_asm::decode::words_from_bytes(&text.data);
        let wave32 = co.kernels.first().is_some_and(|k| k.descriptor.wave32());
        let ops = crate::exec::predecode_waves(&words, v, wave32);
        let facts = super::program_facts(&ops, v);
        let mut options = CheckOptions::off();
        options.waitcnt = Level::Warn;
        let mut g = super::GroupCheck::new(super::GroupSetup {
            options,
            version: v,
            facts: &facts,
            ops: &ops,
            kernel: &file,
            lines: None,
            group: [0; 3],
            waves: 1,
            vgprs: 256,
            abi_sgprs: 0,
            abi_vgprs: 0,
            lds_bytes: 0,
            lds_declared: 0,
            mem: None,
            scratch: (0, 0),
            values: &[],
            trace: None,
        });
        let mut wave = crate::exec::Wave::new(256, 106);
        wave.set_wave32(wave32);
        let mut i = 0;
        while i < words.len() {
            let pc = 4 * i as u32;
            let Some(slot) = ops.slot(pc) else {
                // Words that do not decode end a path.
                g.waves[0].counters = Default::default();
                i += 1;
                continue;
            };
            let op = &ops.ops()[slot];
            let f = &facts[slot];
            i += usize::from(op.instr.len).max(1);
            if op
                .instr
                .row
                .operands
                .iter()
                .any(|o| o.field == gcn_asm::isa::Field::Waitcnt)
                || f.wait_one.is_some()
            {
                waits.push((
                    file.clone(),
                    pc,
                    crate::exec::instruction_at(&ops, pc).unwrap_or_default(),
                ));
            }
            if skip == Some((&*file, pc)) {
                continue;
            }
            count += 1;
            wave.pc = pc;
            if super::waitcnt::needed(&g, 0, f) {
                super::waitcnt::before(&mut g, &wave, f);
            }
            // A call's callee waits for everything on entry (LLVM's
            // calling convention): after it, nothing this walk saw is
            // pending.
            let row = op.instr.row;
            if row.has(gcn_asm::isa::flags::ENDS) || row.flow == gcn_asm::isa::Flow::Jump {
                g.waves[0].counters = Default::default();
            }
        }
        for r in std::mem::take(&mut g.reports).into_vec() {
            findings.push(format!("{file}: {r}"));
        }
    }
    (count, findings, waits)
}

#[test]
fn clang15_rdna_code_waits_for_what_it_reads() {
    for set in ["gfx1010", "gfx1030", "gfx1030-w64"] {
        let (count, findings, waits) = waitcnt_on_fall_through_paths(set, None);
        assert!(
            count > 10_000 && waits.len() > 100,
            "{set}: {count}, {}",
            waits.len()
        );
        assert!(
            findings.is_empty(),
            "{set}: {}:\n{}",
            findings.len(),
            findings.join("\n")
        );
    }
}

#[test]
fn deleted_waits_in_clang15_rdna_code() {
    // Each wait of the code deleted: found by the register rules on a
    // fall-through path, or not (a wait for memory ordering — a fence, the
    // release before s_barrier — or for a register read on another path:
    // the run finds those on the path it takes, the barrier rule when
    // another wave touches the bytes).
    for set in ["gfx1010", "gfx1030", "gfx1030-w64"] {
        let (_, _, waits) = waitcnt_on_fall_through_paths(set, None);
        let found = waits
            .iter()
            .filter(|(file, pc, _)| {
                !waitcnt_on_fall_through_paths(set, Some((file, *pc)))
                    .1
                    .is_empty()
            })
            .count();
        eprintln!("{set}: {} waits, {found} found deleted", waits.len());
        // (About 80 %: 762 of 944 on gfx1010.)
        assert!(
            4 * found >= 3 * waits.len(),
            "{set}: {found} of {}",
            waits.len()
        );
    }
}
