//! The checks on GCN 1.5 (gfx1010) and RDNA 2 (gfx1030), in wave32 and
//! wave64: the split wait counters (`vmcnt` for loads, `vscnt` for stores,
//! the SOPK waits), the barrier rule with stores in flight, the gfx1010
//! hazards of [`super::wait_states::RULES`] (a kernel with the bug: a
//! report; with the fix LLVM 15 inserts: none), and `uninit`, `oob` and
//! `lds-race` in both wave sizes.

use gcn_asm::{assemble, AssembleOptions, GcnVersion};

use super::{Check, CheckOptions, CheckReport, Level};
use crate::kernel::{ArgValue, Dispatch};
use crate::{LaunchOptions, Memory, Program};

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
/// work-group with every check at `Warn`; `out` is a 4 KiB buffer.
pub(crate) fn run_rdna(v: GcnVersion, wave32: bool, body: &str, items: u32) -> Run {
    let mut lines = Vec::new();
    let mut marks = Vec::new();
    for line in PROLOGUE.lines().chain(body.lines()) {
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
    let out = memory.buffer_zeroed::<u32>(1024).expect("buffer");
    let options = LaunchOptions {
        threads: Some(1),
        checks: CheckOptions::all(Level::Warn),
        ..LaunchOptions::default()
    };
    let values = [ArgValue::Pointer(out.ptr())];
    let dispatch = Dispatch::new_1d(items, items);
    let reports = program
        .launcher(crate::LaunchArgs::new("k", &values), &dispatch)
        .options(&options)
        .reports()
        .unwrap_or_else(|e| panic!("{v}: {e}\n{source}"))
        .reports;
    Run {
        reports,
        marks,
        what: format!("{v} wave{}", if wave32 { 32 } else { 64 }),
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

#[test]
fn probe() {
    each(|v, w32| {
        let r = run_rdna(
            v,
            w32,
            "global_load_dword v2, v1, s[6:7]
             s_waitcnt vmcnt(0)
             v_or_b32 v2, 1, v2
             global_store_dword v1, v2, s[6:7]
             s_waitcnt_vscnt null, 0
             ds_write_b32 v1, v2
             s_waitcnt lgkmcnt(0)
             buffer_store_dword v2, v1, s[8:11], 0 offen offset:4
             buffer_load_dword v3, v1, s[8:11], 0 offen
             s_waitcnt_depctr 0xffe3
             s_waitcnt vmcnt(0)",
            64,
        );
        r.none();
    });
}
