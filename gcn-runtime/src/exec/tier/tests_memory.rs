//! The compiled tier's inline memory accesses against the interpreter:
//! dense loads and stores of 1, 2 and 4 dwords (FLAT, GLOBAL with and
//! without SADDR), and every access the inline path must leave to the
//! handler — scattered, misaligned, past an allocation's end (a fault),
//! an allocation that tracks written bytes — unchecked and checked.

use std::sync::atomic::Ordering::Relaxed;

use gcn_asm::{assemble, AssembleOptions, GcnVersion};

use crate::check::{CheckOptions, Level};
use crate::exec::tier::lower::fused::FUSED_RAN;
use crate::exec::tier::TierMode;
use crate::kernel::{ArgValue, Dispatch};
use crate::memory::DENSE_FOUND;
use crate::{LaunchOptions, Memory, Program};

/// How a test kernel addresses memory.
#[derive(Debug, Clone, Copy)]
enum Form {
    /// FLAT (GCN 1.2), a 64-bit VADDR.
    Flat,
    /// GLOBAL (GCN 1.4), a 64-bit VADDR, `off`, with an instruction offset.
    Global,
    /// GLOBAL (GCN 1.4), a 32-bit VADDR from SADDR, with an instruction
    /// offset.
    GlobalSaddr,
}

/// One case: work-item `i` loads `dwords` dwords at byte
/// `i * stride + shift` of `in` and stores them at `i * 4 * dwords` of
/// `out`.
#[derive(Debug, Clone, Copy)]
struct Case {
    form: Form,
    dwords: u32,
    stride: u32,
    shift: u32,
    items: u32,
    /// Dwords of `in` (fewer than the loads reach: a fault).
    input: usize,
    /// `in` made with `buffer_uninit` (it tracks written bytes).
    uninit: bool,
    /// A work-item whose load address has its high word one up (4 GiB
    /// away: a fault), the low words still dense.
    high_apart: Option<u32>,
}

impl Case {
    fn dense(form: Form, dwords: u32) -> Case {
        Case {
            form,
            dwords,
            stride: 4 * dwords,
            shift: 0,
            items: 1024,
            input: 1024 * dwords as usize,
            uninit: false,
            high_apart: None,
        }
    }

    fn version(self) -> GcnVersion {
        match self.form {
            Form::Flat => GcnVersion::Gcn1_2,
            _ => GcnVersion::Gcn1_4,
        }
    }

    fn source(self) -> String {
        let gcn14 = self.version().is_gcn14_or_later();
        let (add, addc) = if gcn14 {
            ("v_add_co_u32", "v_addc_co_u32")
        } else {
            ("v_add_u32", "v_addc_u32")
        };
        let n = self.dwords;
        let suffix = if n == 1 {
            String::new()
        } else {
            format!("x{n}")
        };
        let data = if n == 1 {
            "v10".to_string()
        } else {
            format!("v[10:{}]", 9 + n)
        };
        // The GLOBAL forms take the bases 16 bytes lower and add them back
        // as the instruction offset.
        let (load, store, bias) = match self.form {
            Form::Flat => (
                format!("flat_load_dword{suffix} {data}, v[2:3]"),
                format!("flat_store_dword{suffix} v[2:3], {data}"),
                0,
            ),
            Form::Global => (
                format!("global_load_dword{suffix} {data}, v[2:3], off offset:16"),
                format!("global_store_dword{suffix} v[2:3], {data}, off offset:16"),
                16,
            ),
            Form::GlobalSaddr => (
                format!("global_load_dword{suffix} {data}, v4, s[8:9] offset:16"),
                format!("global_store_dword{suffix} v5, {data}, s[10:11] offset:16"),
                16,
            ),
        };
        format!(
            ".gallium
.gpu {gpu}
.kernel k
    .args
        .arg in, global, 8
        .arg out, global, 8
        .arg griddim
        .arg gridoffset
    .config
        .dims x
        .tgsize
        .sgprsnum 32
        .vgprsnum 24
.text
k:
    s_load_dwordx4 s[8:11], s[0:1], 0x24
    s_waitcnt lgkmcnt(0)
    s_sub_u32 s8, s8, {bias}
    s_subb_u32 s9, s9, 0
    s_sub_u32 s10, s10, {bias}
    s_subb_u32 s11, s11, 0
    s_lshl_b32 s2, s4, 8
    {add} v0, vcc, s2, v0
    v_mul_lo_u32 v1, v0, {stride}
    {add} v4, vcc, {shift}, v1
    v_mov_b32 v3, s9
    {add} v2, vcc, s8, v4
    {addc} v3, vcc, v3, 0, vcc
{apart}    {load}
    s_waitcnt vmcnt(0)
    v_lshlrev_b32 v1, {out_shift}, v0
    v_mov_b32 v5, v1
    v_mov_b32 v3, s11
    {add} v2, vcc, s10, v5
    {addc} v3, vcc, v3, 0, vcc
    {store}
    s_endpgm
",
            gpu = if gcn14 { "gfx900" } else { "tonga" },
            stride = self.stride,
            shift = self.shift,
            out_shift = 2 + n.trailing_zeros(),
            apart = match self.high_apart {
                Some(item) =>
                    format!("    v_cmp_eq_u32 vcc, {item}, v0\n    {addc} v3, vcc, v3, 0, vcc\n"),
                None => String::new(),
            },
        )
    }

    /// Runs the case interpreted and with every block compiled, unchecked
    /// and with every check at `Warn`; panics unless each pair agrees on
    /// the output, the fault and the reports. Returns the interpreter's
    /// fault, if any.
    fn same(self) -> Option<String> {
        self.run().0
    }

    /// [`Case::same`], returning the fault and the checked run's reports.
    fn run(self) -> (Option<String>, Vec<crate::check::CheckReport>) {
        let values: Vec<u32> = (0..self.input as u32)
            .map(|i| i.wrapping_mul(0x9e37_79b9) ^ 0x5555)
            .collect();
        let out_len = (self.items * self.dwords) as usize;
        let what = format!("{self:?}");
        let source = self.source();
        interpreted_and_compiled(
            &what,
            &source,
            self.version(),
            &values,
            self.uninit,
            out_len,
            self.items,
        )
    }
}

/// Assembles `source` (kernel `k` with arguments `in`, `out`) for
/// `version` and runs it over `items` work-items in groups of 256, `in`
/// holding `values` (made with `buffer_uninit` when `uninit`) and `out`
/// `out_len` zeroed dwords: interpreted and with every block compiled,
/// unchecked and with every check at `Warn`. Panics unless each pair
/// agrees on the output, the fault and the reports; returns the fault and
/// the checked run's reports.
pub(super) fn interpreted_and_compiled(
    what: &str,
    source: &str,
    version: GcnVersion,
    values: &[u32],
    uninit: bool,
    out_len: usize,
    items: u32,
) -> (Option<String>, Vec<crate::check::CheckReport>) {
    let binary = assemble(source, &AssembleOptions::default())
        .unwrap_or_else(|e| panic!("{what}: {e:?}\n{source}"))
        .gallium_bytes()
        .expect("gallium binary");
    let memory = Memory::default();
    let program = Program::load(&memory, &binary, version).expect("loads");
    let input = if uninit {
        let b = memory.buffer_uninit::<u32>(values.len()).expect("buffer");
        b.write_from(values).expect("writes");
        b
    } else {
        memory.buffer_from_slice(values).expect("buffer")
    };
    let out = memory.buffer_zeroed::<u32>(out_len).expect("buffer");
    let args = [ArgValue::Pointer(input.ptr()), ArgValue::Pointer(out.ptr())];
    let dispatch = Dispatch::new_1d(items, 256);
    let mut fault = None;
    let mut reports = Vec::new();
    for checks in [CheckOptions::off(), CheckOptions::all(Level::Warn)] {
        let runs = [TierMode::Off, TierMode::Eager].map(|tier| {
            out.write_from(&vec![0; out_len]).expect("clears");
            let options = LaunchOptions {
                threads: Some(1),
                checks,
                tier,
                ..LaunchOptions::default()
            };
            let outcome = program
                .launcher(crate::LaunchArgs::new("k", &args), &dispatch)
                .options(&options)
                .reports()
                .map(|o| o.reports)
                .map_err(|e| e.to_string());
            (outcome, out.to_vec())
        });
        assert_eq!(
            runs[0], runs[1],
            "{what}: the compiled tier differs from the interpreter\n{source}"
        );
        fault = runs[0].0.clone().err();
        reports = runs[0].0.clone().unwrap_or_default();
    }
    (fault, reports)
}

/// Every dense form and size moves the interpreter's words, and takes the
/// inline path (the span lookups count) in a fused pass (the fused passes
/// count).
#[test]
fn dense_loads_and_stores_run_inline_as_interpreted() {
    for form in [Form::Flat, Form::Global, Form::GlobalSaddr] {
        for dwords in [1, 2, 4] {
            let before = DENSE_FOUND.load(Relaxed);
            let fused = FUSED_RAN.load(Relaxed);
            let case = Case::dense(form, dwords);
            assert_eq!(case.same(), None, "{case:?}");
            assert!(
                DENSE_FOUND.load(Relaxed) > before,
                "{case:?}: no access took the inline path"
            );
            assert!(
                FUSED_RAN.load(Relaxed) > fused,
                "{case:?}: no fused pass ran"
            );
        }
    }
}

/// Accesses the inline path must leave to the handler give the
/// interpreter's results: lanes apart (not dense), a misaligned address,
/// an allocation that tracks written bytes, and the 3-dword form.
#[test]
fn accesses_the_inline_path_leaves_run_as_interpreted() {
    for form in [Form::Flat, Form::Global, Form::GlobalSaddr] {
        for dwords in [1, 2, 4] {
            let scattered = Case {
                stride: 8 * dwords,
                input: 2048 * dwords as usize,
                ..Case::dense(form, dwords)
            };
            let misaligned = Case {
                shift: 2,
                input: 1024 * dwords as usize + 1,
                ..Case::dense(form, dwords)
            };
            let uninit = Case {
                uninit: true,
                ..Case::dense(form, dwords)
            };
            for case in [scattered, misaligned, uninit] {
                assert_eq!(case.same(), None, "{case:?}");
            }
        }
        let three = Case::dense(form, 3);
        assert_eq!(three.same(), None, "{three:?}");
    }
}

/// A wave whose low address words are dense but one lane's high word is
/// not faults at that lane, as the interpreter's per-lane path does (the
/// inline path tests the high words too). FLAT and GLOBAL without SADDR
/// (with SADDR, VADDR is one word).
#[test]
fn a_lane_whose_high_address_word_differs_faults_as_interpreted() {
    for form in [Form::Flat, Form::Global] {
        for dwords in [1, 2, 4] {
            let case = Case {
                high_apart: Some(300),
                ..Case::dense(form, dwords)
            };
            let fault = case.same();
            assert!(
                fault
                    .as_deref()
                    .is_some_and(|f| f.contains("lane 44") && f.contains("outside every")),
                "{case:?}: {fault:?}"
            );
        }
    }
}

/// A wave whose dense load runs past the end of its buffer faults where
/// and as the interpreter faults (the same error), the waves before it
/// having run inline.
#[test]
fn a_dense_access_past_the_end_faults_as_interpreted() {
    for form in [Form::Flat, Form::Global, Form::GlobalSaddr] {
        for dwords in [1, 2, 4] {
            // The last wave's lanes 32.. reach past the mapped page.
            let case = Case {
                items: 2048,
                input: 2048 * dwords as usize - 32 * dwords as usize,
                ..Case::dense(form, dwords)
            };
            // (`input` dwords: a whole number of pages only by chance; the
            // fault needs the access past the mapped bytes.)
            let case = Case {
                input: case.input - case.input % 1024,
                ..case
            };
            let fault = case.same();
            assert!(
                fault
                    .as_deref()
                    .is_some_and(|f| f.contains("outside every allocation")),
                "{case:?}: {fault:?}"
            );
        }
    }
}

/// A dense access that reaches past its buffer's end into the page slack
/// faults nowhere; checked, `oob` reports the last wave's lanes, which the
/// replayed waves before it moved inline (the hook let them) and it may
/// not (`Hook::skips_access`).
#[test]
fn a_dense_access_into_the_page_slack_is_reported_as_interpreted() {
    for form in [Form::Flat, Form::Global, Form::GlobalSaddr] {
        for dwords in [1, 2, 4] {
            let case = Case {
                items: 2048,
                input: 2048 * dwords as usize - 16 * dwords as usize,
                ..Case::dense(form, dwords)
            };
            let before = DENSE_FOUND.load(Relaxed);
            let (fault, reports) = case.run();
            assert_eq!(fault, None, "{case:?}");
            assert!(
                reports.iter().any(|r| r.check == crate::check::Check::Oob),
                "{case:?}: {reports:?}"
            );
            assert!(DENSE_FOUND.load(Relaxed) > before, "{case:?}");
        }
    }
}

/// Scalar loads of 1–16 dwords, at an immediate and at an SGPR offset,
/// from `in` (whose `dwords` dwords hold their index) at 4 KiB per group,
/// and every lane `l` stores the loaded dword `l % 16`.
/// Returns the interpreter's fault, after checking the tier agrees.
fn scalar_loads(v: GcnVersion, dwords: usize, uninit: bool) -> Option<String> {
    let (add, addc) = if v.is_gcn14_or_later() {
        ("v_add_co_u32", "v_addc_co_u32")
    } else {
        ("v_add_u32", "v_addc_u32")
    };
    let mut picks = String::new();
    for k in 0..16 {
        // v3 = lane % 16; lane k of each 16 takes s[20 + k].
        picks.push_str(&format!(
            "    v_cmp_eq_u32 vcc, {k}, v3\n    v_mov_b32 v7, s{}\n    v_cndmask_b32 v4, v4, v7, vcc\n",
            20 + k
        ));
    }
    let source = format!(
        ".gallium
.gpu {gpu}
.kernel k
    .args
        .arg in, global, 8
        .arg out, global, 8
        .arg griddim
        .arg gridoffset
    .config
        .dims x
        .tgsize
        .sgprsnum 48
        .vgprsnum 16
.text
k:
    s_load_dwordx4 s[8:11], s[0:1], 0x24
    s_waitcnt lgkmcnt(0)
    s_lshl_b32 s2, s4, 2
    s_lshl_b32 s12, s4, 12
    s_add_u32 s8, s8, s12
    s_addc_u32 s9, s9, 0
    s_movk_i32 s13, 0x24
    s_load_dwordx16 s[20:35], s[8:9], 0x4
    s_load_dwordx8 s[36:43], s[8:9], s13
    s_load_dword s44, s[8:9], 0x8
    s_waitcnt lgkmcnt(0)
    s_add_u32 s20, s20, s36
    s_add_u32 s21, s21, s43
    s_add_u32 s22, s22, s44
    v_and_b32 v3, 15, v0
    v_mov_b32 v4, 0
{picks}    s_lshl_b32 s2, s4, 8
    {add} v0, vcc, s2, v0
    v_lshlrev_b32 v1, 2, v0
    v_mov_b32 v6, s11
    {add} v5, vcc, s10, v1
    {addc} v6, vcc, v6, 0, vcc
    flat_store_dword v[5:6], v4
    s_endpgm
",
        gpu = if v.is_gcn14_or_later() {
            "gfx900"
        } else {
            "tonga"
        },
    );
    let values: Vec<u32> = (0..dwords as u32).collect();
    let what = format!("{v}");
    interpreted_and_compiled(&what, &source, v, &values, uninit, 1024, 1024).0
}

/// The scalar loads the block makes itself load what the handler loads;
/// from an allocation that tracks written bytes and past every allocation
/// (a fault) they run through the handler, with its results.
#[test]
fn scalar_loads_run_inline_as_interpreted() {
    for v in [GcnVersion::Gcn1_2, GcnVersion::Gcn1_4] {
        let before = DENSE_FOUND.load(Relaxed);
        assert_eq!(scalar_loads(v, 4160, false), None, "{v}");
        assert!(
            DENSE_FOUND.load(Relaxed) > before,
            "{v}: no inline scalar load"
        );
        assert_eq!(scalar_loads(v, 4160, true), None, "{v}");
        // Group 1's loads are past the one page of `in`.
        let fault = scalar_loads(v, 1024 - 8, false);
        assert!(
            fault.as_deref().is_some_and(|f| f.contains("s_load")),
            "{v}: {fault:?}"
        );
    }
}
