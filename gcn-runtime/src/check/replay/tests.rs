//! Replayed checks against the interpreter's: the same reports, with the
//! same counts, where the replayed state matters after the block, where a
//! replay ends early and where a block is never replayed.

use gcn_asm::{assemble, AssembleOptions, GcnVersion};

use super::REPLAYED;
use crate::check::tests::{gpu, interpreted_and_compiled};
use crate::check::{Check, CheckReport};
use crate::kernel::{ArgValue, Dispatch};
use crate::{Memory, Program};

/// The versions: the mnemonics of the carry adds differ.
const VERSIONS: [GcnVersion; 2] = [GcnVersion::Gcn1_2, GcnVersion::Gcn1_4];

/// `body` with `ADD`/`ADDC` for `v`'s carry adds.
fn spelled(v: GcnVersion, body: &str) -> String {
    let (add, addc) = if v.is_gcn14_or_later() {
        ("v_add_co_u32", "v_addc_co_u32")
    } else {
        ("v_add_u32", "v_addc_u32")
    };
    body.replace("ADDC", addc).replace("ADD", add)
}

/// The first block of every test: `v[2:3]` = the address of the work-item's
/// dword of `out` (256 work-items a group), `v1` = 4 × local id.
const START: &str = "
    s_load_dwordx2 s[6:7], s[0:1], 0x24
    s_waitcnt lgkmcnt(0)
    s_lshl_b32 s3, s4, 8
    ADD v0, vcc, s3, v0
    v_lshlrev_b32 v1, 2, v0
    v_mov_b32 v3, s7
    ADD v2, vcc, s6, v1
    ADDC v3, vcc, v3, 0, vcc
";

/// Runs `body` (after [`START`]) for `v` over `items` work-items in groups
/// of 256, `out` a buffer of `elements` dwords, interpreted and with every
/// block compiled (the reports must be the same); the reports and the
/// PCs of the lines marked `@`.
fn run(v: GcnVersion, body: &str, items: u32, elements: usize) -> (Vec<CheckReport>, Vec<u32>) {
    let mut lines = Vec::new();
    let mut marks = Vec::new();
    for line in spelled(v, &format!("{START}{body}")).lines() {
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
    let text: String = lines.iter().map(|l| format!("    {l}\n")).collect();
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
        .sgprsnum 32
        .vgprsnum 16
.text
k:
{text}    s_endpgm
",
        gpu(v)
    );
    let assembly = assemble(&source, &AssembleOptions::default())
        .unwrap_or_else(|e| panic!("{v}: {e:?}\n{source}"));
    let words = gcn_asm::decode::words_from_bytes(assembly.text());
    let mut pcs = Vec::new();
    let mut i = 0;
    while i < words.len() {
        pcs.push(4 * i as u32);
        let instr = gcn_asm::decode::decode(&words[i..], 4 * i as u64, v).expect("decodes");
        i += usize::from(instr.len).max(1);
    }
    let binary = assembly.gallium_bytes().expect("gallium binary");
    let memory = Memory::default();
    let program = Program::load(&memory, &binary, v).expect("loads");
    let out = memory.buffer_zeroed::<u32>(elements).expect("buffer");
    let values = [ArgValue::Pointer(out.ptr())];
    let dispatch = Dispatch::new_1d(items, 256);
    let reports = interpreted_and_compiled(&format!("{v}"), &source, &out, |options| {
        program
            .launcher(crate::LaunchArgs::new("k", &values), &dispatch)
            .options(options)
            .reports()
            .unwrap_or_else(|e| panic!("{v}: {e}\n{source}"))
            .reports
    });
    (reports, marks.iter().map(|&line| pcs[line]).collect())
}

/// The report of `check` at `pc`, if any.
fn at(reports: &[CheckReport], check: Check, pc: u32) -> Option<&CheckReport> {
    reports.iter().find(|r| r.check == check && r.pc == pc)
}

/// The block ends (`s_and_saveexec` writes EXEC) with a load in flight, a
/// VALU's SGPR written and `v7` never written: what comes after it must
/// find that in every wave, so every wave's report counts — and the
/// replayed waves' only if the replay installed the block's state.
#[test]
fn the_state_a_replayed_block_leaves_is_the_one_its_checks_would() {
    for v in VERSIONS {
        let replayed = REPLAYED.load(std::sync::atomic::Ordering::Relaxed);
        let (reports, marks) = run(
            v,
            "
    s_mov_b32 s12, s6
    s_mov_b32 s13, s7
    s_mov_b32 s14, -1
    s_mov_b32 s15, 0x27000
    flat_load_dword v4, v[2:3]
    v_mov_b32 v9, 0
    v_readfirstlane_b32 s8, v9
    s_and_saveexec_b64 s[10:11], exec
@   ADD v5, vcc, v4, v4
@   buffer_load_dword v6, v1, s[12:15], s8 offen
    s_waitcnt vmcnt(0)
    ADD v8, vcc, v7, v1
@   flat_store_dword v[2:3], v8
",
            2048,
            2048,
        );
        let waves = 2048 / 64;
        for (check, mark) in [
            (Check::Waitcnt, 0),
            (Check::WaitStates, 1),
            (Check::Uninit, 2),
        ] {
            let r = at(&reports, check, marks[mark])
                .unwrap_or_else(|| panic!("{v}: no {check} report at mark {mark}: {reports:#?}"));
            assert_eq!(r.count, waves, "{v}: {r}");
        }
        assert_eq!(reports.len(), 3, "{v}: {reports:#?}");
        assert!(
            REPLAYED.load(std::sync::atomic::Ordering::Relaxed) >= replayed + waves - 2,
            "{v}: the compiled run replayed no block"
        );
    }
}

/// The last wave's load and store stray past the end of `out` (inside its
/// page): its replay ends at the load, and the checks it skipped run
/// then, so that what follows the block finds the load in flight and `v7`
/// undefined in that wave too — the same reports as the interpreter's.
#[test]
fn a_replay_that_meets_a_stray_access_runs_the_checks_it_skipped() {
    for v in VERSIONS {
        let (reports, marks) = run(
            v,
            "
@   flat_load_dword v4, v[2:3]
    s_and_saveexec_b64 s[10:11], exec
@   ADD v5, vcc, v4, v4
    s_waitcnt vmcnt(0)
    ADD v8, vcc, v7, v1
@   flat_store_dword v[2:3], v8
",
            512,
            500,
        );
        for mark in [0, 2] {
            let r = at(&reports, Check::Oob, marks[mark])
                .unwrap_or_else(|| panic!("{v}: no oob report at mark {mark}: {reports:#?}"));
            assert_eq!((r.count, r.wave, r.group), (1, 3, [1, 0, 0]), "{v}: {r}");
            assert_eq!(r.lanes, Some(!0u64 << 52), "{v}: {r}");
        }
        for (check, mark) in [(Check::Waitcnt, 1), (Check::Uninit, 2)] {
            let r = at(&reports, check, marks[mark])
                .unwrap_or_else(|| panic!("{v}: no {check} report at mark {mark}: {reports:#?}"));
            assert_eq!(r.count, 512 / 64, "{v}: {r}");
        }
        assert_eq!(reports.len(), 4, "{v}: {reports:#?}");
    }
}

/// The last wave's first load (two dwords on) strays one dword past the
/// end of `out` in its last lane: its
/// replay ends there, in the middle of the block, and the block's second
/// load (inside `out` in every wave, an access a replayed block makes
/// without a call) is checked as usual from then on — its load in flight
/// is what the next block's read without a wait finds, in every wave.
#[test]
fn a_replay_that_ends_inside_a_block_checks_the_rest_of_it() {
    for v in VERSIONS {
        let replayed = REPLAYED.load(std::sync::atomic::Ordering::Relaxed);
        let (reports, marks) = run(
            v,
            "
    ADD v12, vcc, 8, v2
    ADDC v13, vcc, v3, 0, vcc
@   flat_load_dword v4, v[12:13]
    flat_load_dword v6, v[2:3]
    s_and_saveexec_b64 s[10:11], exec
@   ADD v5, vcc, v6, v6
    s_waitcnt vmcnt(0)
    flat_store_dword v[2:3], v5
",
            1024,
            1025,
        );
        let r = at(&reports, Check::Oob, marks[0])
            .unwrap_or_else(|| panic!("{v}: no oob report: {reports:#?}"));
        assert_eq!((r.count, r.wave, r.group), (1, 3, [3, 0, 0]), "{v}: {r}");
        assert_eq!(r.lanes, Some(1 << 63), "{v}: {r}");
        let r = at(&reports, Check::Waitcnt, marks[1])
            .unwrap_or_else(|| panic!("{v}: no waitcnt report: {reports:#?}"));
        assert_eq!(r.count, 1024 / 64, "{v}: {r}");
        assert_eq!(reports.len(), 2, "{v}: {reports:#?}");
        // (Each piece of the launch rayon splits off records the block
        // again: at least half the waves replay it.)
        assert!(
            REPLAYED.load(std::sync::atomic::Ordering::Relaxed) >= replayed + 1024 / 64 / 2,
            "{v}: the compiled run replayed no block"
        );
    }
}

/// A block whose recording reports (a read before its `s_waitcnt`) is
/// never replayed: every wave reports.
#[test]
fn a_block_that_reports_is_checked_in_every_wave() {
    for v in VERSIONS {
        let (reports, marks) = run(
            v,
            "
    flat_load_dword v4, v[2:3]
@   v_add_f32 v5, v4, v4
    s_waitcnt vmcnt(0)
    flat_store_dword v[2:3], v5
",
            1024,
            1024,
        );
        let r = at(&reports, Check::Waitcnt, marks[0])
            .unwrap_or_else(|| panic!("{v}: no waitcnt report: {reports:#?}"));
        assert_eq!(r.count, 1024 / 64, "{v}: {r}");
        assert_eq!(reports.len(), 1, "{v}: {reports:#?}");
    }
}

/// After the replayed block, instructions whose checks only count wait
/// states (`s_sleep`) leave its state pending; the wait states they count
/// still separate the block's SGPR write from its reader once the state
/// goes in: five of them satisfy the rule (no report), three do not (a
/// report in every wave).
#[test]
fn wait_states_counted_while_a_replayed_state_is_pending_still_count() {
    for v in VERSIONS {
        for (sleeps, reported) in [(4, false), (2, true)] {
            let replayed = REPLAYED.load(std::sync::atomic::Ordering::Relaxed);
            let body = format!(
                "
    s_mov_b32 s12, s6
    s_mov_b32 s13, s7
    s_mov_b32 s14, -1
    s_mov_b32 s15, 0x27000
    v_mov_b32 v9, 0
    v_readfirstlane_b32 s8, v9
{}    s_and_saveexec_b64 s[10:11], exec
@   buffer_load_dword v6, v1, s[12:15], s8 offen
    s_waitcnt vmcnt(0)
    flat_store_dword v[2:3], v6
",
                "    s_sleep 0\n".repeat(sleeps)
            );
            let (reports, marks) = run(v, &body, 1024, 1024);
            if reported {
                let r = at(&reports, Check::WaitStates, marks[0])
                    .unwrap_or_else(|| panic!("{v}: no wait-states report: {reports:#?}"));
                assert_eq!(r.count, 1024 / 64, "{v}: {r}");
                assert_eq!(reports.len(), 1, "{v}: {reports:#?}");
            } else {
                assert!(reports.is_empty(), "{v}: {reports:#?}");
            }
            assert!(
                REPLAYED.load(std::sync::atomic::Ordering::Relaxed) >= replayed + 1024 / 64 - 2,
                "{v}: the compiled run installed no replayed state"
            );
        }
    }
}

/// [`the_state_a_replayed_block_leaves_is_the_one_its_checks_would`] on
/// GCN 1.5 and RDNA 2, in wave32 and wave64 (a `.rocm` kernel: the group
/// id in `s2`; `vmcnt` counts the load, and the uninit report the store of
/// a sum with a never-written VGPR).
#[test]
fn replayed_state_on_rdna_in_both_wave_sizes() {
    for v in [GcnVersion::Gcn1_5, GcnVersion::Rdna2] {
        for wave32 in [true, false] {
            let replayed = REPLAYED.load(std::sync::atomic::Ordering::Relaxed);
            let (save, exec) = if wave32 {
                ("s_and_saveexec_b32 s10", "exec_lo")
            } else {
                ("s_and_saveexec_b64 s[10:11]", "exec")
            };
            let body = format!(
                "
    s_load_dwordx2 s[6:7], s[0:1], 0x0
    s_waitcnt lgkmcnt(0)
    s_lshl_b32 s3, s2, 8
    v_add_nc_u32 v0, s3, v0
    v_lshlrev_b32 v1, 2, v0
    global_load_dword v4, v1, s[6:7]
    {save}, {exec}
@   v_add_nc_u32 v5, v4, v4
    s_waitcnt vmcnt(0)
    v_add_nc_u32 v8, v7, v1
@   global_store_dword v1, v8, s[6:7]
"
            );
            let mut lines = Vec::new();
            let mut marks = Vec::new();
            for line in body.lines() {
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
        .sgprsnum 32
        .vgprsnum 32
        .arg out, \"uint*\", 8, , globalbuf, u32, global, default
.text
k:
    .skip 256
{text}    s_endpgm
"
            );
            let assembly = assemble(&source, &AssembleOptions::default())
                .unwrap_or_else(|e| panic!("{v}: {e:?}\n{source}"));
            let words = gcn_asm::decode::words_from_bytes(&assembly.text()[256..]);
            let mut pcs = Vec::new();
            let mut i = 0;
            while i < words.len() {
                pcs.push(256 + 4 * i as u32);
                let instr = gcn_asm::decode::decode(&words[i..], 4 * i as u64, v).expect("decodes");
                i += usize::from(instr.len).max(1);
            }
            let binary = assembly.rocm_bytes().expect("code object");
            let memory = Memory::default();
            let program = Program::load_code_object(&memory, &binary)
                .unwrap_or_else(|e| panic!("{v}: {e}\n{source}"));
            let out = memory.buffer_zeroed::<u32>(2048).expect("buffer");
            let values = [ArgValue::Pointer(out.ptr())];
            let dispatch = Dispatch::new_1d(2048, 256);
            let what = format!("{v} wave{}", if wave32 { 32 } else { 64 });
            let reports = interpreted_and_compiled(&what, &source, &out, |options| {
                program
                    .launcher(crate::LaunchArgs::new("k", &values), &dispatch)
                    .options(options)
                    .reports()
                    .unwrap_or_else(|e| panic!("{what}: {e}\n{source}"))
                    .reports
            });
            let waves = if wave32 { 2048 / 32 } else { 2048 / 64 };
            for (check, mark) in [(Check::Waitcnt, 0), (Check::Uninit, 1)] {
                let r = at(&reports, check, pcs[marks[mark]]).unwrap_or_else(|| {
                    panic!("{what}: no {check} report at mark {mark}: {reports:#?}")
                });
                assert_eq!(r.count, waves, "{what}: {r}");
            }
            assert_eq!(reports.len(), 2, "{what}: {reports:#?}");
            assert!(
                REPLAYED.load(std::sync::atomic::Ordering::Relaxed) >= replayed + waves - 2,
                "{what}: the compiled run replayed no block"
            );
        }
    }
}
