//! Scalar ALU and program-control semantics, table-driven over every GCN
//! version that has each row. Expected values are worked out by hand from
//! the `Operation:` text of the CLRX pages.

use gcn_asm::isa::Encoding;
use gcn_asm::GcnVersion;

use crate::exec::testing::{run, run_wave32, run_with, versions_with};
use crate::exec::{coverage, FaultKind, Wave, WAVE_SIZE};
use crate::memory::Memory;

/// One case: source, initial SGPRs (by operand code), initial SCC,
/// expected SGPRs, expected SCC (`None`: not checked).
type Case = (
    &'static str,
    &'static [(usize, u32)],
    bool,
    &'static [(usize, u32)],
    Option<bool>,
);

const M1: u32 = 0xffff_ffff;
const M0: usize = 124;
const EXEC_LO: usize = 126;
const EXEC_HI: usize = 127;

/// The first mnemonic of a snippet (labels skipped).
fn first_mnemonic(src: &str) -> &str {
    src.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.ends_with(':'))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or("")
}

fn setup(init: &'static [(usize, u32)], scc: bool) -> impl FnOnce(&mut Wave) {
    move |w: &mut Wave| {
        for &(r, v) in init {
            w.sgpr[r] = v;
        }
        w.scc = scc;
    }
}

fn check(cases: &[Case]) {
    for &(src, init, scc, out, scc_out) in cases {
        let versions = versions_with(first_mnemonic(src));
        assert!(!versions.is_empty(), "no version has `{src}`");
        for v in versions {
            let w = run(v, src, setup(init, scc));
            for &(r, want) in out {
                assert_eq!(
                    w.sgpr[r], want,
                    "{v}: `{src}`: s{r} = {:#x}, want {want:#x}",
                    w.sgpr[r]
                );
            }
            if let Some(s) = scc_out {
                assert_eq!(w.scc, s, "{v}: `{src}`: SCC");
            }
        }
    }
}

/// Runs `src` and returns the fault kind on every version that has it.
fn fault_of(src: &str, init: &'static [(usize, u32)]) -> Vec<(GcnVersion, Option<FaultKind>)> {
    versions_with(first_mnemonic(src))
        .into_iter()
        .map(|v| {
            let memory = Memory::default();
            let s = run_with(v, src, &memory, setup(init, false));
            (v, s.fault.map(|f| f.kind))
        })
        .collect()
}

#[test]
fn sop2_arithmetic() {
    check(&[
        (
            "s_add_u32 s10, s0, s1",
            &[(0, M1), (1, 2)],
            false,
            &[(10, 1)],
            Some(true),
        ),
        (
            "s_add_u32 s10, s0, s1",
            &[(0, 1), (1, 2)],
            true,
            &[(10, 3)],
            Some(false),
        ),
        (
            "s_sub_u32 s10, s0, s1",
            &[(0, 1), (1, 2)],
            false,
            &[(10, M1)],
            Some(true),
        ),
        (
            "s_sub_u32 s10, s0, s1",
            &[(0, 5), (1, 3)],
            true,
            &[(10, 2)],
            Some(false),
        ),
        (
            "s_add_i32 s10, s0, s1",
            &[(0, 0x7fff_ffff), (1, 1)],
            false,
            &[(10, 0x8000_0000)],
            Some(true),
        ),
        // An unsigned carry is not a signed overflow.
        (
            "s_add_i32 s10, s0, s1",
            &[(0, M1), (1, 1)],
            true,
            &[(10, 0)],
            Some(false),
        ),
        (
            "s_sub_i32 s10, s0, s1",
            &[(0, 0x8000_0000), (1, 1)],
            false,
            &[(10, 0x7fff_ffff)],
            Some(true),
        ),
        (
            "s_sub_i32 s10, s0, s1",
            &[(0, 0), (1, 1)],
            true,
            &[(10, M1)],
            Some(false),
        ),
        (
            "s_addc_u32 s10, s0, s1",
            &[(0, M1), (1, 0)],
            true,
            &[(10, 0)],
            Some(true),
        ),
        (
            "s_addc_u32 s10, s0, s1",
            &[(0, 1), (1, 2)],
            true,
            &[(10, 4)],
            Some(false),
        ),
        (
            "s_addc_u32 s10, s0, s1",
            &[(0, M1), (1, M1)],
            false,
            &[(10, 0xffff_fffe)],
            Some(true),
        ),
        (
            "s_subb_u32 s10, s0, s1",
            &[(0, 0), (1, 0)],
            true,
            &[(10, M1)],
            Some(true),
        ),
        (
            "s_subb_u32 s10, s0, s1",
            &[(0, 5), (1, 2)],
            true,
            &[(10, 2)],
            Some(false),
        ),
        (
            "s_subb_u32 s10, s0, s1",
            &[(0, 5), (1, 5)],
            false,
            &[(10, 0)],
            Some(false),
        ),
        (
            "s_min_i32 s10, s0, s1",
            &[(0, M1), (1, 1)],
            false,
            &[(10, M1)],
            Some(true),
        ),
        (
            "s_min_u32 s10, s0, s1",
            &[(0, M1), (1, 1)],
            true,
            &[(10, 1)],
            Some(false),
        ),
        (
            "s_max_i32 s10, s0, s1",
            &[(0, M1), (1, 1)],
            true,
            &[(10, 1)],
            Some(false),
        ),
        (
            "s_max_u32 s10, s0, s1",
            &[(0, M1), (1, 1)],
            false,
            &[(10, M1)],
            Some(true),
        ),
        (
            "s_mul_i32 s10, s0, s1",
            &[(0, 0x10000), (1, 0x10000)],
            true,
            &[(10, 0)],
            Some(true),
        ),
        (
            "s_mul_i32 s10, s0, s1",
            &[(0, (-3i32) as u32), (1, 5)],
            false,
            &[(10, (-15i32) as u32)],
            Some(false),
        ),
        (
            "s_absdiff_i32 s10, s0, s1",
            &[(0, 3), (1, 10)],
            false,
            &[(10, 7)],
            Some(true),
        ),
        (
            "s_absdiff_i32 s10, s0, s1",
            &[(0, 5), (1, 5)],
            true,
            &[(10, 0)],
            Some(false),
        ),
        (
            "s_absdiff_i32 s10, s0, s1",
            &[(0, 0x7fff_ffff), (1, M1)],
            false,
            &[(10, 0x8000_0000)],
            Some(true),
        ),
        (
            "s_mul_hi_u32 s10, s0, s1",
            &[(0, M1), (1, M1)],
            true,
            &[(10, 0xffff_fffe)],
            Some(true),
        ),
        (
            "s_mul_hi_i32 s10, s0, s1",
            &[(0, M1), (1, M1)],
            false,
            &[(10, 0)],
            Some(false),
        ),
        (
            "s_mul_hi_i32 s10, s0, s1",
            &[(0, (-2i32) as u32), (1, 3)],
            false,
            &[(10, M1)],
            None,
        ),
        (
            "s_mul_hi_i32 s10, s0, s1",
            &[(0, 0x8000_0000), (1, 0x8000_0000)],
            false,
            &[(10, 0x4000_0000)],
            None,
        ),
        (
            "s_lshl1_add_u32 s10, s0, s1",
            &[(0, 0x8000_0000), (1, 1)],
            false,
            &[(10, 1)],
            Some(true),
        ),
        (
            "s_lshl2_add_u32 s10, s0, s1",
            &[(0, 3), (1, 4)],
            true,
            &[(10, 16)],
            Some(false),
        ),
        (
            "s_lshl3_add_u32 s10, s0, s1",
            &[(0, 0x2000_0000), (1, 0)],
            false,
            &[(10, 0)],
            Some(true),
        ),
        (
            "s_lshl4_add_u32 s10, s0, s1",
            &[(0, 1), (1, 0xffff_fff0)],
            false,
            &[(10, 0)],
            Some(true),
        ),
        (
            "s_pack_ll_b32_b16 s10, s0, s1",
            &[(0, 0x1234_5678), (1, 0x9abc_def0)],
            false,
            &[(10, 0xdef0_5678)],
            None,
        ),
        (
            "s_pack_lh_b32_b16 s10, s0, s1",
            &[(0, 0x1234_5678), (1, 0x9abc_def0)],
            false,
            &[(10, 0x9abc_5678)],
            None,
        ),
        (
            "s_pack_hh_b32_b16 s10, s0, s1",
            &[(0, 0x1234_5678), (1, 0x9abc_def0)],
            false,
            &[(10, 0x9abc_1234)],
            None,
        ),
        // Inline constants and literals as sources.
        (
            "s_add_u32 s10, -1, 0x12345678",
            &[],
            false,
            &[(10, 0x1234_5677)],
            Some(true),
        ),
        (
            "s_cselect_b32 s10, s0, s1",
            &[(0, 7), (1, 9)],
            true,
            &[(10, 7)],
            Some(true),
        ),
        (
            "s_cselect_b32 s10, s0, s1",
            &[(0, 7), (1, 9)],
            false,
            &[(10, 9)],
            Some(false),
        ),
        (
            "s_cselect_b64 s[10:11], s[0:1], s[2:3]",
            &[(0, 1), (1, 2), (2, 3), (3, 4)],
            false,
            &[(10, 3), (11, 4)],
            Some(false),
        ),
        (
            "s_cselect_b64 s[10:11], s[0:1], s[2:3]",
            &[(0, 1), (1, 2), (2, 3), (3, 4)],
            true,
            &[(10, 1), (11, 2)],
            Some(true),
        ),
    ]);
}

#[test]
fn sop2_bitwise_and_shifts() {
    const A: u32 = 0xff00_ff00;
    const B: u32 = 0x0ff0_0ff0;
    check(&[
        (
            "s_and_b32 s10, s0, s1",
            &[(0, A), (1, B)],
            false,
            &[(10, 0x0f00_0f00)],
            Some(true),
        ),
        (
            "s_and_b32 s10, s0, s1",
            &[(0, 0xf0), (1, 0x0f)],
            true,
            &[(10, 0)],
            Some(false),
        ),
        (
            "s_or_b32 s10, s0, s1",
            &[(0, A), (1, B)],
            false,
            &[(10, 0xfff0_fff0)],
            Some(true),
        ),
        (
            "s_xor_b32 s10, s0, s1",
            &[(0, A), (1, B)],
            false,
            &[(10, 0xf0f0_f0f0)],
            Some(true),
        ),
        (
            "s_andn2_b32 s10, s0, s1",
            &[(0, A), (1, B)],
            false,
            &[(10, 0xf000_f000)],
            Some(true),
        ),
        (
            "s_orn2_b32 s10, s0, s1",
            &[(0, A), (1, B)],
            false,
            &[(10, 0xff0f_ff0f)],
            Some(true),
        ),
        (
            "s_nand_b32 s10, s0, s1",
            &[(0, A), (1, B)],
            false,
            &[(10, 0xf0ff_f0ff)],
            Some(true),
        ),
        (
            "s_nand_b32 s10, s0, s1",
            &[(0, M1), (1, M1)],
            true,
            &[(10, 0)],
            Some(false),
        ),
        (
            "s_nor_b32 s10, s0, s1",
            &[(0, A), (1, B)],
            false,
            &[(10, 0x000f_000f)],
            Some(true),
        ),
        (
            "s_xnor_b32 s10, s0, s1",
            &[(0, A), (1, B)],
            false,
            &[(10, 0x0f0f_0f0f)],
            Some(true),
        ),
        (
            "s_and_b64 s[10:11], s[0:1], s[2:3]",
            &[(1, A), (3, B)],
            false,
            &[(10, 0), (11, 0x0f00_0f00)],
            Some(true),
        ),
        (
            "s_and_b64 s[10:11], s[0:1], s[2:3]",
            &[(0, 1), (3, B)],
            true,
            &[(10, 0), (11, 0)],
            Some(false),
        ),
        (
            "s_or_b64 s[10:11], s[0:1], s[2:3]",
            &[(1, A), (3, B)],
            false,
            &[(10, 0), (11, 0xfff0_fff0)],
            Some(true),
        ),
        (
            "s_xor_b64 s[10:11], s[0:1], s[2:3]",
            &[(1, A), (3, B)],
            false,
            &[(10, 0), (11, 0xf0f0_f0f0)],
            Some(true),
        ),
        (
            "s_andn2_b64 s[10:11], s[0:1], s[2:3]",
            &[(1, A), (3, B)],
            false,
            &[(10, 0), (11, 0xf000_f000)],
            Some(true),
        ),
        (
            "s_orn2_b64 s[10:11], s[0:1], s[2:3]",
            &[(1, A), (3, B)],
            false,
            &[(10, M1), (11, 0xff0f_ff0f)],
            Some(true),
        ),
        (
            "s_nand_b64 s[10:11], s[0:1], s[2:3]",
            &[(1, A), (3, B)],
            false,
            &[(10, M1), (11, 0xf0ff_f0ff)],
            Some(true),
        ),
        (
            "s_nor_b64 s[10:11], s[0:1], s[2:3]",
            &[(1, A), (3, B)],
            false,
            &[(10, M1), (11, 0x000f_000f)],
            Some(true),
        ),
        (
            "s_xnor_b64 s[10:11], s[0:1], s[2:3]",
            &[(1, A), (3, B)],
            false,
            &[(10, M1), (11, 0x0f0f_0f0f)],
            Some(true),
        ),
        (
            "s_xnor_b64 s[10:11], s[0:1], s[2:3]",
            &[(0, 5), (1, A), (2, !5), (3, !A)],
            true,
            &[(10, 0), (11, 0)],
            Some(false),
        ),
        // Shift amounts use the low 5 (6) bits.
        (
            "s_lshl_b32 s10, s0, s1",
            &[(0, 0x8000_0001), (1, 33)],
            false,
            &[(10, 2)],
            Some(true),
        ),
        (
            "s_lshl_b32 s10, s0, s1",
            &[(0, 0x8000_0000), (1, 1)],
            true,
            &[(10, 0)],
            Some(false),
        ),
        (
            "s_lshr_b32 s10, s0, s1",
            &[(0, 0x8000_0000), (1, 31)],
            false,
            &[(10, 1)],
            Some(true),
        ),
        (
            "s_ashr_i32 s10, s0, s1",
            &[(0, 0x8000_0000), (1, 36)],
            false,
            &[(10, 0xf800_0000)],
            Some(true),
        ),
        (
            "s_ashr_i32 s10, s0, s1",
            &[(0, 0x4000_0000), (1, 31)],
            true,
            &[(10, 0)],
            Some(false),
        ),
        (
            "s_lshl_b64 s[10:11], s[0:1], s2",
            &[(0, 0x8000_0001), (2, 32)],
            false,
            &[(10, 0), (11, 0x8000_0001)],
            Some(true),
        ),
        (
            "s_lshl_b64 s[10:11], s[0:1], s2",
            &[(0, 0x8000_0001), (2, 65)],
            false,
            &[(10, 2), (11, 1)],
            Some(true),
        ),
        (
            "s_lshr_b64 s[10:11], s[0:1], s2",
            &[(1, 0x8000_0000), (2, 63)],
            false,
            &[(10, 1), (11, 0)],
            Some(true),
        ),
        (
            "s_lshr_b64 s[10:11], s[0:1], s2",
            &[(0, 1), (2, 1)],
            true,
            &[(10, 0), (11, 0)],
            Some(false),
        ),
        (
            "s_ashr_i64 s[10:11], s[0:1], s2",
            &[(1, 0x8000_0000), (2, 32)],
            false,
            &[(10, 0x8000_0000), (11, M1)],
            Some(true),
        ),
    ]);
}

#[test]
fn sop2_bitfields() {
    check(&[
        (
            "s_bfm_b32 s10, s0, s1",
            &[(0, 4), (1, 8)],
            true,
            &[(10, 0xf00)],
            Some(true),
        ),
        (
            "s_bfm_b32 s10, s0, s1",
            &[(0, 32), (1, 8)],
            false,
            &[(10, 0)],
            Some(false),
        ),
        (
            "s_bfm_b32 s10, s0, s1",
            &[(0, 31), (1, 1)],
            false,
            &[(10, 0xffff_fffe)],
            None,
        ),
        (
            "s_bfm_b64 s[10:11], s0, s1",
            &[(0, 36), (1, 30)],
            false,
            &[(10, 0xc000_0000), (11, M1)],
            None,
        ),
        (
            "s_bfe_u32 s10, s0, s1",
            &[(0, 0x1234_5678), (1, 8 << 16 | 4)],
            false,
            &[(10, 0x67)],
            Some(true),
        ),
        (
            "s_bfe_u32 s10, s0, s1",
            &[(0, 0x1234_5678), (1, 4)],
            true,
            &[(10, 0)],
            Some(false),
        ),
        (
            "s_bfe_u32 s10, s0, s1",
            &[(0, 0x1234_5678), (1, 20 << 16 | 16)],
            false,
            &[(10, 0x1234)],
            Some(true),
        ),
        // Offset uses bits 0-4 only; bits 5-15 are ignored.
        (
            "s_bfe_u32 s10, s0, s1",
            &[(0, 0x1234_5678), (1, 8 << 16 | 0x24)],
            false,
            &[(10, 0x67)],
            None,
        ),
        (
            "s_bfe_i32 s10, s0, s1",
            &[(0, 0xf0), (1, 4 << 16 | 4)],
            false,
            &[(10, M1)],
            Some(true),
        ),
        (
            "s_bfe_i32 s10, s0, s1",
            &[(0, 0x70), (1, 4 << 16 | 4)],
            false,
            &[(10, 7)],
            Some(true),
        ),
        (
            "s_bfe_i32 s10, s0, s1",
            &[(0, 0x8000_0000), (1, 8 << 16 | 28)],
            false,
            &[(10, 0xffff_fff8)],
            None,
        ),
        (
            "s_bfe_u64 s[10:11], s[0:1], s2",
            &[(1, 0xff), (2, 8 << 16 | 32)],
            false,
            &[(10, 0xff), (11, 0)],
            Some(true),
        ),
        (
            "s_bfe_u64 s[10:11], s[0:1], s2",
            &[(1, 0xff), (2, 16 << 16 | 28)],
            false,
            &[(10, 0xff0), (11, 0)],
            None,
        ),
        (
            "s_bfe_i64 s[10:11], s[0:1], s2",
            &[(1, 0x8000_0000), (2, 8 << 16 | 56)],
            false,
            &[(10, 0xffff_ff80), (11, M1)],
            None,
        ),
        (
            "s_bfe_i64 s[10:11], s[0:1], s2",
            &[(0, 0x8000_0000), (2, 32 << 16)],
            false,
            &[(10, 0x8000_0000), (11, M1)],
            None,
        ),
    ]);
}

#[test]
fn sop1_moves_and_bits() {
    check(&[
        (
            "s_mov_b32 s10, s0",
            &[(0, 0x1234)],
            true,
            &[(10, 0x1234)],
            Some(true),
        ),
        (
            "s_mov_b32 s10, -16",
            &[],
            false,
            &[(10, (-16i32) as u32)],
            Some(false),
        ),
        (
            "s_mov_b64 s[10:11], s[0:1]",
            &[(0, 1), (1, 2)],
            false,
            &[(10, 1), (11, 2)],
            None,
        ),
        (
            "s_mov_b64 s[10:11], -1",
            &[],
            false,
            &[(10, M1), (11, M1)],
            None,
        ),
        (
            "s_mov_regrd_b32 s10, s0",
            &[(0, 5)],
            false,
            &[(10, 5)],
            None,
        ),
        ("s_mov_fed_b32 s10, s0", &[(0, 5)], false, &[(10, 5)], None),
        (
            "s_cmov_b32 s10, s0",
            &[(0, 5), (10, 7)],
            false,
            &[(10, 7)],
            Some(false),
        ),
        (
            "s_cmov_b32 s10, s0",
            &[(0, 5), (10, 7)],
            true,
            &[(10, 5)],
            Some(true),
        ),
        (
            "s_cmov_b64 s[10:11], s[0:1]",
            &[(0, 5), (1, 6)],
            true,
            &[(10, 5), (11, 6)],
            None,
        ),
        (
            "s_not_b32 s10, s0",
            &[(0, 0)],
            false,
            &[(10, M1)],
            Some(true),
        ),
        (
            "s_not_b32 s10, s0",
            &[(0, M1)],
            true,
            &[(10, 0)],
            Some(false),
        ),
        (
            "s_not_b64 s[10:11], s[0:1]",
            &[(0, M1), (1, 0)],
            false,
            &[(10, 0), (11, M1)],
            Some(true),
        ),
        (
            "s_wqm_b32 s10, s0",
            &[(0, 0x0010_0201)],
            false,
            &[(10, 0x00f0_0f0f)],
            Some(true),
        ),
        (
            "s_wqm_b32 s10, s0",
            &[(0, 0)],
            true,
            &[(10, 0)],
            Some(false),
        ),
        (
            "s_wqm_b64 s[10:11], s[0:1]",
            &[(1, 0x8000_0000)],
            false,
            &[(10, 0), (11, 0xf000_0000)],
            Some(true),
        ),
        (
            "s_brev_b32 s10, s0",
            &[(0, 1)],
            false,
            &[(10, 0x8000_0000)],
            Some(false),
        ),
        (
            "s_brev_b32 s10, s0",
            &[(0, 0x1234_5678)],
            false,
            &[(10, 0x1e6a_2c48)],
            None,
        ),
        (
            "s_brev_b64 s[10:11], s[0:1]",
            &[(0, 1)],
            false,
            &[(10, 0), (11, 0x8000_0000)],
            None,
        ),
        (
            "s_bcnt0_i32_b32 s10, s0",
            &[(0, M1)],
            true,
            &[(10, 0)],
            Some(false),
        ),
        (
            "s_bcnt0_i32_b32 s10, s0",
            &[(0, 0xf0)],
            false,
            &[(10, 28)],
            Some(true),
        ),
        (
            "s_bcnt1_i32_b32 s10, s0",
            &[(0, 0xf0)],
            false,
            &[(10, 4)],
            Some(true),
        ),
        (
            "s_bcnt0_i32_b64 s10, s[0:1]",
            &[(0, M1)],
            false,
            &[(10, 32)],
            Some(true),
        ),
        (
            "s_bcnt1_i32_b64 s10, s[0:1]",
            &[(0, M1), (1, 1)],
            false,
            &[(10, 33)],
            Some(true),
        ),
        (
            "s_bcnt1_i32_b64 s10, s[0:1]",
            &[],
            true,
            &[(10, 0)],
            Some(false),
        ),
        // Find-first / find-last: -1 when there is no such bit; no SCC.
        (
            "s_ff0_i32_b32 s10, s0",
            &[(0, M1)],
            true,
            &[(10, M1)],
            Some(true),
        ),
        (
            "s_ff0_i32_b32 s10, s0",
            &[(0, 0xffff)],
            false,
            &[(10, 16)],
            Some(false),
        ),
        (
            "s_ff0_i32_b64 s10, s[0:1]",
            &[(0, M1), (1, 0xffff_fffe)],
            false,
            &[(10, 32)],
            None,
        ),
        (
            "s_ff0_i32_b64 s10, s[0:1]",
            &[(0, M1), (1, M1)],
            false,
            &[(10, M1)],
            None,
        ),
        ("s_ff1_i32_b32 s10, s0", &[(0, 0)], false, &[(10, M1)], None),
        (
            "s_ff1_i32_b32 s10, s0",
            &[(0, 0x100)],
            false,
            &[(10, 8)],
            None,
        ),
        (
            "s_ff1_i32_b64 s10, s[0:1]",
            &[(1, 0x10)],
            false,
            &[(10, 36)],
            None,
        ),
        ("s_ff1_i32_b64 s10, s[0:1]", &[], false, &[(10, M1)], None),
        (
            "s_flbit_i32_b32 s10, s0",
            &[(0, 0)],
            false,
            &[(10, M1)],
            None,
        ),
        (
            "s_flbit_i32_b32 s10, s0",
            &[(0, 1)],
            false,
            &[(10, 31)],
            None,
        ),
        (
            "s_flbit_i32_b32 s10, s0",
            &[(0, 0x8000_0000)],
            false,
            &[(10, 0)],
            None,
        ),
        (
            "s_flbit_i32_b64 s10, s[0:1]",
            &[(0, 1)],
            false,
            &[(10, 63)],
            None,
        ),
        (
            "s_flbit_i32_b64 s10, s[0:1]",
            &[(1, 1)],
            false,
            &[(10, 31)],
            None,
        ),
        ("s_flbit_i32_b64 s10, s[0:1]", &[], false, &[(10, M1)], None),
        ("s_flbit_i32 s10, s0", &[(0, 0)], false, &[(10, M1)], None),
        ("s_flbit_i32 s10, s0", &[(0, M1)], false, &[(10, M1)], None),
        ("s_flbit_i32 s10, s0", &[(0, 1)], false, &[(10, 31)], None),
        (
            "s_flbit_i32 s10, s0",
            &[(0, 0xffff_fffe)],
            false,
            &[(10, 31)],
            None,
        ),
        (
            "s_flbit_i32 s10, s0",
            &[(0, 0x4000_0000)],
            false,
            &[(10, 1)],
            None,
        ),
        (
            "s_flbit_i32 s10, s0",
            &[(0, 0x8000_0000)],
            false,
            &[(10, 1)],
            None,
        ),
        (
            "s_flbit_i32_i64 s10, s[0:1]",
            &[(0, M1), (1, M1)],
            false,
            &[(10, M1)],
            None,
        ),
        ("s_flbit_i32_i64 s10, s[0:1]", &[], false, &[(10, M1)], None),
        (
            "s_flbit_i32_i64 s10, s[0:1]",
            &[(0, 1)],
            false,
            &[(10, 63)],
            None,
        ),
        (
            "s_flbit_i32_i64 s10, s[0:1]",
            &[(0, 0x7fff_ffff), (1, M1)],
            false,
            &[(10, 32)],
            None,
        ),
        (
            "s_sext_i32_i8 s10, s0",
            &[(0, 0x80)],
            true,
            &[(10, 0xffff_ff80)],
            Some(true),
        ),
        (
            "s_sext_i32_i8 s10, s0",
            &[(0, 0x17f)],
            false,
            &[(10, 0x7f)],
            Some(false),
        ),
        (
            "s_sext_i32_i16 s10, s0",
            &[(0, 0x1_8000)],
            false,
            &[(10, 0xffff_8000)],
            None,
        ),
        (
            "s_bitset0_b32 s10, s0",
            &[(0, 33), (10, M1)],
            false,
            &[(10, 0xffff_fffd)],
            Some(false),
        ),
        (
            "s_bitset1_b32 s10, s0",
            &[(0, 31)],
            true,
            &[(10, 0x8000_0000)],
            Some(true),
        ),
        (
            "s_bitset0_b64 s[10:11], s0",
            &[(0, 40), (10, M1), (11, M1)],
            false,
            &[(10, M1), (11, 0xffff_feff)],
            None,
        ),
        (
            "s_bitset1_b64 s[10:11], s0",
            &[(0, 127)],
            false,
            &[(10, 0), (11, 0x8000_0000)],
            None,
        ),
        (
            "s_quadmask_b32 s10, s0",
            &[(0, 0xf010)],
            false,
            &[(10, 0xa)],
            Some(true),
        ),
        ("s_quadmask_b32 s10, s0", &[], true, &[(10, 0)], Some(false)),
        (
            "s_quadmask_b64 s[10:11], s[0:1]",
            &[(1, 0x1000_0000), (0, 1)],
            false,
            &[(10, 0x8001), (11, 0)],
            Some(true),
        ),
        (
            "s_abs_i32 s10, s0",
            &[(0, (-5i32) as u32)],
            false,
            &[(10, 5)],
            Some(true),
        ),
        (
            "s_abs_i32 s10, s0",
            &[(0, 0)],
            true,
            &[(10, 0)],
            Some(false),
        ),
        (
            "s_abs_i32 s10, s0",
            &[(0, 0x8000_0000)],
            false,
            &[(10, 0x8000_0000)],
            Some(true),
        ),
        (
            "s_bitreplicate_b64_b32 s[10:11], s0",
            &[(0, 0x8000_0001)],
            false,
            &[(10, 3), (11, 0xc000_0000)],
            None,
        ),
        (
            "s_bitreplicate_b64_b32 s[10:11], s0",
            &[(0, 5)],
            false,
            &[(10, 0x33), (11, 0)],
            None,
        ),
    ]);
}

#[test]
fn sop1_exec_masks() {
    // EXEC = 0xffff, SSRC0 = 0x000000ff_00000f0f.
    const INIT: &[(usize, u32)] = &[(EXEC_LO, 0xffff), (EXEC_HI, 0), (0, 0x0f0f), (1, 0xff)];
    let cases: &[(&str, u64)] = &[
        ("s_and_saveexec_b64", 0x0f0f),
        ("s_or_saveexec_b64", 0x0000_00ff_0000_ffff),
        ("s_xor_saveexec_b64", 0x0000_00ff_0000_f0f0),
        ("s_andn2_saveexec_b64", 0x0000_00ff_0000_0000),
        ("s_orn2_saveexec_b64", 0xffff_ffff_ffff_0f0f),
        ("s_nand_saveexec_b64", 0xffff_ffff_ffff_f0f0),
        ("s_nor_saveexec_b64", 0xffff_ff00_ffff_0000),
        ("s_xnor_saveexec_b64", 0xffff_ff00_ffff_0f0f),
        ("s_andn1_saveexec_b64", 0xf0f0),
        ("s_orn1_saveexec_b64", 0xffff_ff00_ffff_ffff),
    ];
    for &(mn, exec) in cases {
        for v in versions_with(mn) {
            let w = run(v, &format!("{mn} s[10:11], s[0:1]"), setup(INIT, false));
            assert_eq!(w.exec(), exec, "{v} {mn}: EXEC");
            assert_eq!(w.s64(10), 0xffff, "{v} {mn}: saved EXEC");
            assert!(w.scc, "{v} {mn}: SCC");
        }
    }
    for &(mn, exec) in &[
        ("s_andn1_wrexec_b64", 0xf0f0u64),
        ("s_andn2_wrexec_b64", 0x0000_00ff_0000_0000),
    ] {
        for v in versions_with(mn) {
            let w = run(v, &format!("{mn} s[10:11], s[0:1]"), setup(INIT, false));
            assert_eq!(w.exec(), exec, "{v} {mn}: EXEC");
            assert_eq!(w.s64(10), exec, "{v} {mn}: SDST is the new EXEC");
            assert!(w.scc);
        }
    }
    // An empty result clears SCC; the source may be the destination.
    check(&[(
        "s_and_saveexec_b64 s[0:1], s[0:1]",
        &[(EXEC_LO, 0xf0), (EXEC_HI, 0), (0, 0x0f), (1, 0)],
        true,
        &[(0, 0xf0), (1, 0), (EXEC_LO, 0), (EXEC_HI, 0)],
        Some(false),
    )]);
}

#[test]
fn pc_instructions() {
    // The code starts at device address 0x1000 (testing::run_with).
    check(&[
        ("s_nop 0\ns_getpc_b64 s[10:11]", &[], false, &[(10, 0x1008), (11, 0)], None),
        // 0: getpc, 4: add, 8: setpc, 12: skipped, 16: target.
        ("s_getpc_b64 s[0:1]\ns_add_u32 s0, s0, 12\ns_setpc_b64 s[0:1]\ns_mov_b32 s5, 1\ns_mov_b32 s6, 2", &[], false, &[(0, 0x1010), (5, 0), (6, 2)], None),
        ("s_getpc_b64 s[0:1]\ns_add_u32 s0, s0, 12\ns_swappc_b64 s[2:3], s[0:1]\ns_mov_b32 s5, 1\ns_mov_b32 s6, 2", &[], false, &[(2, 0x100c), (3, 0), (5, 0), (6, 2)], None),
        ("s_call_b64 s[10:11], BB\ns_mov_b32 s5, 1\nBB:\ns_mov_b32 s6, 2", &[], false, &[(10, 0x1004), (11, 0), (5, 0), (6, 2)], None),
    ]);
    // Targets outside the code, unaligned, or below it.
    for init in [
        &[(0, 0), (1, 0)][..],
        &[(0, 0x1002), (1, 0)],
        &[(0, 0x1000), (1, 1)],
        &[(0, 0x0ffc), (1, 0)],
        &[(0, M1), (1, M1)],
    ] {
        let init: &'static [(usize, u32)] = Box::leak(init.to_vec().into_boxed_slice());
        for (v, f) in fault_of("s_setpc_b64 s[0:1]", init) {
            assert!(
                matches!(f, Some(FaultKind::BadPc | FaultKind::OutsideCode { .. })),
                "{v}: {init:x?}: {f:?}"
            );
            // Only the unaligned target inside the code is "not at the start
            // of an instruction"; the others left the code.
            assert_eq!(
                f == Some(FaultKind::BadPc),
                init[0].1 == 0x1002,
                "{v}: {init:x?}: {f:?}"
            );
        }
    }
}

#[test]
fn movrel() {
    check(&[
        (
            "s_movrels_b32 s10, s2",
            &[(M0, 3), (5, 0x55)],
            false,
            &[(10, 0x55)],
            None,
        ),
        (
            "s_movrels_b64 s[10:11], s[2:3]",
            &[(M0, 2), (4, 0x44), (5, 0x55)],
            false,
            &[(10, 0x44), (11, 0x55)],
            None,
        ),
        (
            "s_movreld_b32 s2, s0",
            &[(M0, 5), (0, 0x77)],
            false,
            &[(7, 0x77), (2, 0)],
            None,
        ),
        (
            "s_movreld_b64 s[2:3], s[0:1]",
            &[(M0, 4), (0, 1), (1, 2)],
            false,
            &[(6, 1), (7, 2)],
            None,
        ),
        ("s_movrels_b32 s10, s2", &[(M0, 0)], false, &[(10, 0)], None),
    ]);
    for (src, m0) in [
        ("s_movrels_b32 s10, s4", 100u32),
        ("s_movrels_b64 s[10:11], s[2:3]", 101),
        ("s_movreld_b32 s4, s0", M1),
    ] {
        let init: &'static [(usize, u32)] = Box::leak(vec![(M0, m0)].into_boxed_slice());
        for (v, f) in fault_of(src, init) {
            assert!(
                matches!(f, Some(FaultKind::Register(_))),
                "{v}: {src}: {f:?}"
            );
        }
    }
}

#[test]
fn fork_and_join() {
    // EXEC = 0xff, mask 0x0f: passes and failures have 4 lanes each, so the
    // passes run first and the failures are pushed with the fall-through
    // address (0x1004).
    let prog = |fork: &str| {
        format!(
            "{fork}\ns_mov_b32 s31, exec_lo\ns_branch BB_join\nBB_pass:\ns_mov_b32 s30, exec_lo\nBB_join:\ns_cbranch_join s40\ns_mov_b32 s32, exec_lo"
        )
    };
    for fork in [
        "s_cbranch_i_fork s[20:21], BB_pass",
        "s_cbranch_g_fork s[20:21], s[22:23]",
    ] {
        let src = prog(fork);
        for v in versions_with(first_mnemonic(fork)) {
            let w = run(v, &src, |w| {
                w.set_exec(0xff);
                w.set_s64(20, 0x0f);
                w.set_s64(22, 0x1000 + 12);
            });
            assert_eq!(w.sgpr[30], 0x0f, "{v} {fork}: passes");
            assert_eq!(w.sgpr[31], 0xf0, "{v} {fork}: failures");
            assert_eq!(w.sgpr[32], 0xf0, "{v} {fork}: after the join");
            assert_eq!(w.s64(0), 0xf0, "{v} {fork}: stack mask");
            assert_eq!(w.s64(2), 0x1004, "{v} {fork}: stack address");
            assert_eq!(w.mode >> 29, 0, "{v} {fork}: CSP back to 0");
            // All lanes pass: a plain jump, nothing pushed.
            let w = run(v, &src, |w| {
                w.set_exec(0xff);
                w.set_s64(20, 0xfff);
                w.set_s64(22, 0x1000 + 12);
            });
            assert_eq!(
                (w.sgpr[30], w.sgpr[31], w.sgpr[32]),
                (0xff, 0, 0xff),
                "{v} {fork}"
            );
            assert_eq!(w.s64(0), 0);
            // More lanes pass than fail: the failures run first.
            let w = run(v, &src, |w| {
                w.set_exec(0xff);
                w.set_s64(20, 0x7f);
                w.set_s64(22, 0x1000 + 12);
            });
            assert_eq!(
                (w.sgpr[31], w.sgpr[30], w.sgpr[32]),
                (0x80, 0x7f, 0x7f),
                "{v} {fork}"
            );
            assert_eq!(w.s64(2), 0x100c, "{v} {fork}: the pass target is pushed");
        }
    }
}

#[test]
fn sopk() {
    check(&[
        (
            "s_movk_i32 s10, -2",
            &[],
            true,
            &[(10, 0xffff_fffe)],
            Some(true),
        ),
        (
            "s_movk_i32 s10, 0x7fff",
            &[],
            false,
            &[(10, 0x7fff)],
            Some(false),
        ),
        (
            "s_cmovk_i32 s10, -1",
            &[(10, 5)],
            true,
            &[(10, M1)],
            Some(true),
        ),
        (
            "s_cmovk_i32 s10, -1",
            &[(10, 5)],
            false,
            &[(10, 5)],
            Some(false),
        ),
        (
            "s_cmpk_lt_i32 s10, 1",
            &[(10, 0xffff_fffe)],
            false,
            &[(10, 0xffff_fffe)],
            Some(true),
        ),
        (
            "s_cmpk_lt_u32 s10, 1",
            &[(10, 0xffff_fffe)],
            true,
            &[],
            Some(false),
        ),
        (
            "s_cmpk_eq_u32 s10, 0xffff",
            &[(10, 0xffff)],
            false,
            &[],
            Some(true),
        ),
        (
            "s_cmpk_eq_i32 s10, -1",
            &[(10, 0xffff)],
            true,
            &[],
            Some(false),
        ),
        ("s_cmpk_eq_i32 s10, -1", &[(10, M1)], false, &[], Some(true)),
        ("s_cmpk_lg_i32 s10, -1", &[(10, M1)], true, &[], Some(false)),
        (
            "s_cmpk_lg_u32 s10, 0xffff",
            &[(10, M1)],
            false,
            &[],
            Some(true),
        ),
        (
            "s_cmpk_gt_i32 s10, -3",
            &[(10, (-2i32) as u32)],
            false,
            &[],
            Some(true),
        ),
        (
            "s_cmpk_gt_u32 s10, 0xfffd",
            &[(10, 0xfffe)],
            false,
            &[],
            Some(true),
        ),
        (
            "s_cmpk_ge_i32 s10, -2",
            &[(10, (-2i32) as u32)],
            false,
            &[],
            Some(true),
        ),
        ("s_cmpk_ge_u32 s10, 3", &[(10, 2)], true, &[], Some(false)),
        (
            "s_cmpk_le_i32 s10, -3",
            &[(10, (-2i32) as u32)],
            true,
            &[],
            Some(false),
        ),
        ("s_cmpk_le_u32 s10, 2", &[(10, 2)], false, &[], Some(true)),
        (
            "s_cmpk_lt_i32 s10, 0",
            &[(10, 0x8000_0000)],
            false,
            &[],
            Some(true),
        ),
        (
            "s_addk_i32 s10, 1",
            &[(10, 0x7fff_ffff)],
            false,
            &[(10, 0x8000_0000)],
            Some(true),
        ),
        (
            "s_addk_i32 s10, -3",
            &[(10, 5)],
            true,
            &[(10, 2)],
            Some(false),
        ),
        (
            "s_addk_i32 s10, -1",
            &[(10, 0)],
            false,
            &[(10, M1)],
            Some(false),
        ),
        (
            "s_mulk_i32 s10, -3",
            &[(10, 7)],
            true,
            &[(10, (-21i32) as u32)],
            Some(true),
        ),
    ]);
}

#[test]
fn hardware_registers() {
    for v in versions_with("s_getreg_b32") {
        let hw_id = "hw_id";
        let src = format!(
            "s_getreg_b32 s10, hwreg(mode, 0, 8)\n\
             s_getreg_b32 s11, hwreg(mode, 4, 2)\n\
             s_getreg_b32 s12, hwreg(status, 0, 32)\n\
             s_getreg_b32 s13, hwreg(trapsts, 0, 32)\n\
             s_getreg_b32 s14, hwreg({hw_id}, 0, 32)\n\
             s_getreg_b32 s15, hwreg(gpr_alloc, 0, 32)\n\
             s_getreg_b32 s16, hwreg(lds_alloc, 0, 32)\n\
             s_getreg_b32 s17, hwreg(ib_sts, 0, 32)\n\
             s_getreg_regrd_b32 s18, hwreg(status, 9, 2)"
        );
        let src = src.as_str();
        let w = run(v, src, |w| {
            w.scc = true;
            w.trapsts = 0x1234;
            w.id = 5;
            w.set_vcc(0);
        });
        assert_eq!(w.sgpr[10], 0xf0, "{v}");
        assert_eq!(w.sgpr[11], 3, "{v}");
        // SCC | VCCZ | VALID.
        assert_eq!(w.sgpr[12], 1 | 1 << 10 | 1 << 16, "{v}");
        assert_eq!(w.sgpr[13], 0x1234, "{v}");
        assert_eq!(w.sgpr[14], 5, "{v}");
        // 256 VGPRs = 64 granules of 4; 104 SGPRs = 13 granules of 8 (7 of 16).
        let sgran = if v.is_gcn12_or_later() { 6 } else { 12 };
        assert_eq!(w.sgpr[15], 63 << 8 | sgran << 24, "{v}");
        // 64 KiB of LDS in granules of 256 bytes (512 from GCN 1.1).
        let lds = if v == GcnVersion::Gcn1_0 { 256 } else { 128 };
        assert_eq!(w.sgpr[16], lds << 12, "{v}");
        assert_eq!(w.sgpr[17], 0, "{v}");
        // EXECZ = 0, VCCZ = 1.
        assert_eq!(w.sgpr[18], 2, "{v}");

        // STATUS with EXEC zero, SCC clear, IN_TG and WAVE_PRIO.
        let w = run(
            v,
            "s_setprio 2\ns_getreg_b32 s10, hwreg(status, 0, 32)",
            |w| {
                w.set_exec(0);
                w.set_vcc(1);
                w.status = 1 << 11;
            },
        );
        assert_eq!(w.sgpr[10], 2 << 3 | 1 << 9 | 1 << 11 | 1 << 16, "{v}");

        let src = format!(
            "s_setreg_b32 hwreg(mode, 0, 4), s0\n\
             s_setreg_imm32_b32 hwreg(trapsts, 8, 8), 0x1ff\n\
             s_setreg_b32 hwreg(status, 0, 32), s1\n\
             s_setreg_b32 hwreg({hw_id}, 0, 32), s1\n\
             s_getreg_b32 s10, hwreg({hw_id}, 0, 4)"
        );
        let src = src.as_str();
        let w = run(v, src, |w| {
            w.sgpr[0] = 0x13;
            w.sgpr[1] = 0;
            w.id = 3;
        });
        assert_eq!(w.mode, 0xf3, "{v}");
        assert_eq!(w.trapsts, 0xff00, "{v}");
        assert_eq!(w.sgpr[10], 3, "{v}: HW_ID is read-only");
        assert_eq!(w.status, 0, "{v}: STATUS is read-only");
    }
    // Turning on exceptions is not emulated; GPR indexing (bit 27) is.
    for (v, f) in fault_of("s_setreg_imm32_b32 hwreg(mode, 12, 1), 1", &[]) {
        assert!(matches!(f, Some(FaultKind::NotEmulated(_))), "{v}: {f:?}");
    }
    for (v, f) in fault_of("s_setreg_imm32_b32 hwreg(mode, 27, 1), 1", &[]) {
        assert_eq!(f, None, "{v}");
    }
    for (v, f) in fault_of("s_getreg_b32 s0, hwreg(inst_dw0, 0, 32)", &[]) {
        assert!(
            matches!(f, Some(FaultKind::NotEmulated(m)) if m.contains("10")),
            "{v}"
        );
    }
}

#[test]
fn gpr_index_instructions() {
    check(&[
        (
            "s_set_gpr_idx_idx s0",
            &[(M0, 0x1234_5678), (0, 0x1ff)],
            false,
            &[(M0, 0x1234_56ff)],
            None,
        ),
        (
            "s_set_gpr_idx_mode 5",
            &[(M0, M1)],
            false,
            &[(M0, 0xffff_5fff)],
            None,
        ),
    ]);
    for v in versions_with("s_set_gpr_idx_off") {
        let w = run(v, "s_set_gpr_idx_off", |w| w.mode |= 1 << 27);
        assert_eq!(w.mode, 0xf0, "{v}");
    }
    // M0 = (M0 & 0xffff0f00) | (IMM8 & 15) << 12 | (SSRC0 & 0xff), and
    // MODE.GPR_IDX_EN.
    for v in versions_with("s_set_gpr_idx_on") {
        let w = run(v, "s_set_gpr_idx_on s0, 0x1b", |w| {
            w.sgpr[0] = 0x345;
            w.sgpr[M0] = 0x1234_f0ff;
        });
        assert_eq!(w.sgpr[M0], 0x1234_b045, "{v}");
        assert_eq!(w.mode & 1 << 27, 1 << 27, "{v}");
    }
}

/// GPR indexing mode (`GcnState.md`): M0[7:0] is added to the VGPR
/// operands M0[15:12] selects; past the last VGPR, or on a non-VGPR
/// operand, the operand becomes V0; `s_set_gpr_idx_off` ends it.
#[test]
fn gpr_indexing_applies_to_vector_operands() {
    let src = "s_set_gpr_idx_on s0, 1\n\
               v_mov_b32 v1, v2\n\
               s_set_gpr_idx_mode 8\n\
               v_mov_b32 v3, v2\n\
               s_set_gpr_idx_mode 3\n\
               v_or_b32 v10, v5, v6\n\
               s_set_gpr_idx_idx s1\n\
               v_mov_b32 v11, v2\n\
               s_set_gpr_idx_mode 1\n\
               v_mov_b32 v12, s2\n\
               s_set_gpr_idx_off\n\
               v_mov_b32 v13, v2";
    for v in versions_with("s_set_gpr_idx_on") {
        let w = run(v, src, |w| {
            w.sgpr[0] = 2;
            w.sgpr[1] = 254;
            w.sgpr[2] = 99;
            for r in 0..10 {
                w.vgpr[r] = [100 + r as u32; WAVE_SIZE];
            }
        });
        let lane = |r: usize| w.vgpr[r][0];
        assert_eq!(lane(1), 104, "{v}: src0 v2 + 2 = v4");
        assert_eq!(lane(5), 102, "{v}: dst v3 + 2 = v5, src0 not indexed");
        assert_eq!(lane(10), 107 | 108, "{v}: v5 + 2, v6 + 2");
        assert_eq!(
            lane(11),
            100,
            "{v}: v2 + 254 is past the last VGPR (v255): v0"
        );
        assert_eq!(
            lane(12),
            100,
            "{v}: an SGPR operand selected for indexing: v0"
        );
        assert_eq!(lane(13), 102, "{v}: indexing off");
        assert_eq!(w.mode & 1 << 27, 0, "{v}");
    }
}

#[test]
fn sopc() {
    const N2: u32 = (-2i32) as u32;
    check(&[
        (
            "s_cmp_eq_i32 s0, s1",
            &[(0, 5), (1, 5)],
            false,
            &[],
            Some(true),
        ),
        (
            "s_cmp_eq_u32 s0, s1",
            &[(0, 5), (1, 6)],
            true,
            &[],
            Some(false),
        ),
        (
            "s_cmp_lg_i32 s0, s1",
            &[(0, 5), (1, 6)],
            false,
            &[],
            Some(true),
        ),
        (
            "s_cmp_lg_u32 s0, s1",
            &[(0, 5), (1, 5)],
            true,
            &[],
            Some(false),
        ),
        (
            "s_cmp_gt_i32 s0, s1",
            &[(0, 1), (1, N2)],
            false,
            &[],
            Some(true),
        ),
        (
            "s_cmp_gt_u32 s0, s1",
            &[(0, 1), (1, N2)],
            true,
            &[],
            Some(false),
        ),
        (
            "s_cmp_ge_i32 s0, s1",
            &[(0, N2), (1, N2)],
            false,
            &[],
            Some(true),
        ),
        (
            "s_cmp_ge_u32 s0, s1",
            &[(0, 1), (1, N2)],
            true,
            &[],
            Some(false),
        ),
        (
            "s_cmp_lt_i32 s0, s1",
            &[(0, N2), (1, 1)],
            false,
            &[],
            Some(true),
        ),
        (
            "s_cmp_lt_u32 s0, s1",
            &[(0, N2), (1, 1)],
            true,
            &[],
            Some(false),
        ),
        (
            "s_cmp_le_i32 s0, s1",
            &[(0, 1), (1, N2)],
            true,
            &[],
            Some(false),
        ),
        (
            "s_cmp_le_u32 s0, s1",
            &[(0, 1), (1, N2)],
            false,
            &[],
            Some(true),
        ),
        (
            "s_cmp_lt_i32 s0, -1",
            &[(0, 0x8000_0000)],
            false,
            &[],
            Some(true),
        ),
        (
            "s_bitcmp0_b32 s0, s1",
            &[(0, 0x10), (1, 36)],
            true,
            &[],
            Some(false),
        ),
        (
            "s_bitcmp1_b32 s0, s1",
            &[(0, 0x10), (1, 4)],
            false,
            &[],
            Some(true),
        ),
        (
            "s_bitcmp0_b64 s[0:1], s2",
            &[(1, 0x10), (2, 36)],
            true,
            &[],
            Some(false),
        ),
        (
            "s_bitcmp1_b64 s[0:1], s2",
            &[(1, 0x10), (2, 100)],
            false,
            &[],
            Some(true),
        ),
        (
            "s_bitcmp1_b64 s[0:1], s2",
            &[(0, 0x10), (2, 36)],
            true,
            &[],
            Some(false),
        ),
        (
            "s_cmp_eq_u64 s[0:1], s[2:3]",
            &[(0, 1), (1, 2), (2, 1), (3, 2)],
            false,
            &[],
            Some(true),
        ),
        (
            "s_cmp_eq_u64 s[0:1], s[2:3]",
            &[(0, 1), (1, 2), (2, 1), (3, 3)],
            true,
            &[],
            Some(false),
        ),
        (
            "s_cmp_lg_u64 s[0:1], s[2:3]",
            &[(0, 1), (1, 2), (2, 1), (3, 3)],
            false,
            &[],
            Some(true),
        ),
        (
            "s_cmp_ne_u64 s[0:1], s[2:3]",
            &[(0, 1), (1, 2), (2, 1), (3, 2)],
            true,
            &[],
            Some(false),
        ),
        (
            "s_setvskip s0, s1",
            &[(0, 1), (1, 1)],
            false,
            &[],
            Some(false),
        ),
    ]);
    for (v, f) in fault_of("s_setvskip s0, s1", &[(0, 2), (1, 1)]) {
        assert!(matches!(f, Some(FaultKind::NotEmulated(_))), "{v}: {f:?}");
    }
}

#[test]
fn branches() {
    // (branch, setup SCC, VCC, EXEC, taken)
    let cases: &[(&str, bool, u64, u64, bool)] = &[
        ("s_branch", false, 0, 1, true),
        ("s_cbranch_scc0", false, 0, 1, true),
        ("s_cbranch_scc0", true, 0, 1, false),
        ("s_cbranch_scc1", true, 0, 1, true),
        ("s_cbranch_scc1", false, 0, 1, false),
        ("s_cbranch_vccz", false, 0, 1, true),
        ("s_cbranch_vccz", false, 1 << 40, 1, false),
        ("s_cbranch_vccnz", false, 1 << 40, 1, true),
        ("s_cbranch_vccnz", false, 0, 1, false),
        ("s_cbranch_execz", false, 0, 0, true),
        ("s_cbranch_execz", false, 0, 1 << 63, false),
        ("s_cbranch_execnz", false, 0, 1 << 63, true),
        ("s_cbranch_execnz", false, 0, 0, false),
        // No debugger: never taken.
        ("s_cbranch_cdbgsys", true, 1, 1, false),
        ("s_cbranch_cdbguser", true, 1, 1, false),
        ("s_cbranch_cdbgsys_or_user", true, 1, 1, false),
        ("s_cbranch_cdbgsys_and_user", true, 1, 1, false),
    ];
    for &(br, scc, vcc, exec, taken) in cases {
        let src = format!("{br} BB\ns_mov_b32 s5, 1\nBB:\ns_mov_b32 s6, 2");
        for v in versions_with(br) {
            let w = run(v, &src, |w| {
                w.scc = scc;
                w.set_vcc(vcc);
                w.set_exec(exec);
            });
            assert_eq!(w.sgpr[5], u32::from(!taken), "{v} {br}");
            assert_eq!(w.sgpr[6], 2, "{v} {br}");
        }
    }
    // A backward branch: a counted loop.
    check(&[(
        "s_mov_b32 s0, 5\nL:\ns_add_u32 s1, s1, 3\ns_sub_u32 s0, s0, 1\ns_cmp_lg_u32 s0, 0\ns_cbranch_scc1 L",
        &[],
        false,
        &[(0, 0), (1, 15)],
        Some(false),
    )]);
}

#[test]
fn program_control() {
    // No-ops leave the state alone.
    for src in [
        "s_nop 3",
        "s_waitcnt vmcnt(0) & lgkmcnt(0)",
        "s_sleep 2",
        "s_icache_inv",
        "s_incperflevel 1",
        "s_decperflevel 1",
        "s_ttracedata",
        "s_wakeup",
        "s_barrier",
        "s_sethalt 0",
        "s_setkill 0",
        "s_sendmsg sendmsg(interrupt)",
    ] {
        check(&[(src, &[(0, 9)], true, &[(0, 9)], Some(true))]);
    }
    for end in ["s_endpgm", "s_endpgm_saved", "s_endpgm_ordered_ps_done"] {
        check(&[(
            Box::leak(format!("{end}\ns_mov_b32 s5, 1").into_boxed_str()),
            &[],
            false,
            &[(5, 0)],
            None,
        )]);
    }
    for (v, f) in fault_of("s_trap 3", &[]) {
        assert_eq!(f, Some(FaultKind::Trap(3)), "{v}");
    }
    for (src, what) in [
        ("s_sendmsg 3", "gs_done"),
        ("s_sendmsghalt sendmsg(interrupt)", "interrupt"),
        ("s_sethalt 1", "halting"),
        ("s_setkill 1", "killing"),
    ] {
        for (v, f) in fault_of(src, &[]) {
            assert!(
                matches!(&f, Some(FaultKind::Unsupported(m)) if m.contains(what)),
                "{v} {src}: {f:?}"
            );
        }
    }
}

/// Rows of the scalar families with no handler on purpose.
/// The GCN 1.5 / RDNA 2 versions that have `mnemonic` (`versions_with`
/// lists GCN 1.0-1.4 only).
fn gfx10_with(mnemonic: &str) -> Vec<GcnVersion> {
    crate::exec::EMULATED_VERSIONS
        .into_iter()
        .filter(|&v| v.is_gcn15() && gcn_asm::isa::lookup(mnemonic, v).is_some())
        .collect()
}

#[test]
fn gfx10_saveexec_b32_touch_exec_lo_only() {
    // EXEC_LO = 0xffff, EXEC_HI = 0xabcd (wave64: it takes no part),
    // SSRC0 = 0x0f0f; s11 must keep its value (one SDST register).
    let cases: &[(&str, u32)] = &[
        ("s_and_saveexec_b32", 0x0f0f),
        ("s_or_saveexec_b32", 0xffff),
        ("s_xor_saveexec_b32", 0xf0f0),
        ("s_andn2_saveexec_b32", 0x0000),
        ("s_orn2_saveexec_b32", 0xffff_0f0f),
        ("s_nand_saveexec_b32", 0xffff_f0f0),
        ("s_nor_saveexec_b32", 0xffff_0000),
        ("s_xnor_saveexec_b32", 0xffff_0f0f),
        ("s_andn1_saveexec_b32", 0xf0f0),
        ("s_orn1_saveexec_b32", 0xffff_ffff),
    ];
    for &(mn, exec) in cases {
        let versions = gfx10_with(mn);
        assert_eq!(versions.len(), 3, "{mn}");
        for v in versions {
            let init = |w: &mut Wave| {
                w.sgpr[EXEC_LO] = 0xffff;
                w.sgpr[EXEC_HI] = 0xabcd;
                w.sgpr[0] = 0x0f0f;
                w.sgpr[11] = 0x5555;
            };
            for wave32 in [false, true] {
                let src = format!("{mn} s10, s0");
                let w = if wave32 {
                    run_wave32(v, &src, init)
                } else {
                    run(v, &src, init)
                };
                assert_eq!(w.sgpr[EXEC_LO], exec, "{v} {mn} wave32={wave32}: EXEC_LO");
                assert_eq!(w.sgpr[EXEC_HI], 0xabcd, "{v} {mn}: EXEC_HI kept");
                assert_eq!(w.sgpr[10], 0xffff, "{v} {mn}: saved EXEC_LO");
                assert_eq!(w.sgpr[11], 0x5555, "{v} {mn}: the next SGPR kept");
                assert_eq!(w.scc, exec != 0, "{v} {mn}: SCC");
            }
        }
    }
    for &(mn, exec) in &[("s_andn1_wrexec_b32", 0xf0f0u32), ("s_andn2_wrexec_b32", 0)] {
        for v in gfx10_with(mn) {
            let w = run_wave32(v, &format!("{mn} s10, s0"), |w| {
                w.sgpr[EXEC_LO] = 0xffff;
                w.sgpr[EXEC_HI] = 0xabcd;
                w.sgpr[0] = 0x0f0f;
                w.sgpr[11] = 0x5555;
            });
            assert_eq!(w.sgpr[EXEC_LO], exec, "{v} {mn}");
            assert_eq!(w.sgpr[10], exec, "{v} {mn}: SDST is the new EXEC_LO");
            assert_eq!((w.sgpr[11], w.sgpr[EXEC_HI]), (0x5555, 0xabcd), "{v} {mn}");
            assert_eq!(w.scc, exec != 0, "{v} {mn}");
        }
    }
    // In wave32 the new EXEC is what the lanes see.
    let w = run_wave32(
        GcnVersion::Rdna2,
        "v_mov_b32 v1, 0
s_and_saveexec_b32 s10, s0
v_mov_b32 v1, 7",
        |w| {
            w.sgpr[0] = 0b1010;
        },
    );
    let lanes: Vec<u32> = w.vgpr[1][..4].to_vec();
    assert_eq!(lanes, [0, 7, 0, 7]);
    assert_eq!(w.sgpr[10], M1);
}

#[test]
fn gfx10_hints_and_counters_do_nothing() {
    for src in [
        "s_clause 3",
        "s_inst_prefetch 1",
        "s_wait_idle",
        "s_waitcnt_depctr 0xffe3",
        "s_ttracedata_imm 5",
        "s_version 0x2003",
        "s_waitcnt_vscnt s1, 0",
        "s_waitcnt_vmcnt null, 3",
        "s_waitcnt_expcnt s1, 1",
        "s_waitcnt_lgkmcnt s1, 0",
    ] {
        for v in gfx10_with(first_mnemonic(src)) {
            let before = {
                let mut w = Wave::new(256, 106);
                w.sgpr[1] = 9;
                w.sgpr[EXEC_LO] = M1;
                w.sgpr[EXEC_HI] = M1;
                w.mode = 0xf0;
                w
            };
            let w = run(v, src, |w| w.sgpr[1] = 9);
            assert_eq!(w.sgpr, before.sgpr, "{v} `{src}`");
            assert_eq!((w.mode, w.scc), (0xf0, false), "{v} `{src}`");
        }
    }
}

#[test]
fn gfx10_code_end_is_an_illegal_instruction() {
    for v in gfx10_with("s_code_end") {
        let s = run_with(v, "s_mov_b32 s0, 1\ns_code_end", &Memory::default(), |_| {});
        assert!(
            matches!(s.fault.map(|f| f.kind), Some(FaultKind::Unsupported(m)) if m.contains("illegal")),
            "{v}"
        );
        assert_eq!(s.wave.sgpr[0], 1, "{v}");
    }
}

#[test]
fn gfx10_round_and_denorm_mode() {
    for v in gfx10_with("s_round_mode") {
        let w = run(
            v,
            "s_round_mode 0x3
s_denorm_mode 0xa",
            |w| w.mode = 0x1234_5678,
        );
        assert_eq!(w.mode, 0x1234_56a3, "{v}");
        // Only the low 4 bits of the immediate count.
        let w = run(
            v,
            "s_round_mode 0xfff5
s_denorm_mode 0x10",
            |w| w.mode = 0xff,
        );
        assert_eq!(w.mode, 0x05, "{v}");
    }
}

#[test]
fn gfx10_movrelsd_2() {
    for v in gfx10_with("s_movrelsd_2_b32") {
        // SGPR[2 + M0[25:16]] = SGPR[10 + M0[9:0]].
        let w = run(v, "s_movrelsd_2_b32 s2, s10", |w| {
            w.sgpr[M0] = 3 << 16 | 0xfc00 | 5;
            w.sgpr[15] = 0x1234;
        });
        assert_eq!(w.sgpr[5], 0x1234, "{v}");
        assert_eq!(w.sgpr[2], 0, "{v}");
        let s = run_with(v, "s_movrelsd_2_b32 s2, s10", &Memory::default(), |w| {
            w.sgpr[M0] = 200;
        });
        assert!(
            matches!(s.fault.map(|f| f.kind), Some(FaultKind::Register(_))),
            "{v}"
        );
    }
}

#[test]
fn gfx10_hardware_registers() {
    for v in gfx10_with("s_getreg_b32")
        .into_iter()
        .filter(|v| v.is_gcn15())
    {
        let src = "s_getreg_b32 s10, 0xf817\n\
                   s_getreg_b32 s11, 0xf818\n\
                   s_getreg_b32 s12, 0xf81c\n\
                   s_getreg_b32 s13, 0xf819\n\
                   s_getreg_b32 s14, 0xf81d\n\
                   s_getreg_b32 s15, hwreg(lds_alloc, 0, 32)\n\
                   s_getreg_b32 s16, hwreg(gpr_alloc, 8, 6)";
        let init = |w: &mut Wave| {
            w.id = 17;
            w.sgpr[14] = M1;
        };
        let w = run(v, src, init);
        assert_eq!(w.sgpr[10], 17, "{v}: HW_ID1.WAVE_ID");
        assert_eq!(w.sgpr[11], 0, "{v}: HW_ID2");
        assert_eq!(w.sgpr[12], 1 << 11, "{v}: IB_STS2.WAVE64");
        assert_eq!(w.sgpr[13], 0, "{v}: POPS_PACKER");
        // The fifth instruction: five steps counted so far.
        assert_eq!(w.sgpr[14], 5, "{v}: SHADER_CYCLES");
        // 64 KiB of LDS in granules of 64 dwords; 256 VGPRs in granules
        // of 4 (amdkfd's gfx10 CWSR handler reads both so).
        assert_eq!(w.sgpr[15], 256 << 12, "{v}: LDS_ALLOC");
        assert_eq!(w.sgpr[16], 63, "{v}: GPR_ALLOC.VGPR_SIZE");
        let w = run_wave32(v, src, init);
        assert_eq!(w.sgpr[12], 0, "{v}: wave32");
        // HW_ID (4) is gone.
        let s = run_with(v, "s_getreg_b32 s0, 0xf804", &Memory::default(), |_| {});
        assert!(
            matches!(s.fault.map(|f| f.kind), Some(FaultKind::NotEmulated(m)) if m.contains("HW_ID1")),
            "{v}"
        );
    }
}

#[test]
fn gfx10_smem() {
    use crate::memory::Memory;
    for v in [GcnVersion::Gcn1_5, GcnVersion::Gcn1_5_1, GcnVersion::Rdna2] {
        let memory = Memory::default();
        let buf = memory.buffer_from_slice(&[10u32, 20, 30, 40]).unwrap();
        let addr = buf.ptr().0;
        let set = move |w: &mut Wave| {
            w.sgpr[2] = addr as u32;
            w.sgpr[3] = (addr >> 32) as u32;
            w.sgpr[4] = 8;
            w.id = 3;
        };
        // Immediate (SOFFSET NULL) and SGPR offsets (the forms CLRX
        // syntax has; gcn_asm does not decode an SGPR with an immediate or
        // a negative immediate on GCN 1.5), the cache controls.
        let src = "s_load_dword s10, s[2:3], 0x4\n\
                   s_load_dword s11, s[2:3], s4\n\
                   s_load_dword s12, s[2:3], 0x0\n\
                   s_load_dword s13, s[2:3], 0xc\n\
                   s_add_u32 s6, s2, -4\n\
                   s_addc_u32 s7, s3, -1\n\
                   s_load_dword s14, s[6:7], 0x8\n\
                   s_gl1_inv\n\
                   s_dcache_inv\n\
                   s_load_dword s15, s[2:3], 0x0 glc dlc";
        let s = run_with(v, src, &memory, set);
        assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
        let w = s.wave;
        assert_eq!(&w.sgpr[10..16], &[20, 30, 10, 40, 20, 10], "{v}");
        if v != GcnVersion::Rdna2 {
            let s = run_with(
                v,
                "s_get_waveid_in_workgroup s20\n\
                 s_mov_b32 s8, 5\n\
                 s_atomic_add s8, s[2:3], 0x8 glc\n\
                 s_mov_b64 s[16:17], 7\n\
                 s_atomic_swap_x2 s[16:17], s[2:3], 0x0",
                &memory,
                set,
            );
            assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
            assert_eq!(s.wave.sgpr[20], 3, "{v}: wave id");
            assert_eq!(s.wave.sgpr[8], 30, "{v}: old value with glc");
            assert_eq!(buf.to_vec(), [7, 0, 35, 40], "{v}");
            buf.write_from(&[10, 20, 30, 40]).unwrap();
            // Through a gfx10 V# (words 0-2 as before): 12 bytes of records.
            let words = crate::descriptor::Gfx10BufferResource::raw(addr, 12)
                .unwrap()
                .to_words();
            let s = run_with(
                v,
                "s_mov_b32 s8, 2\n\
                 s_buffer_atomic_add s8, s[12:15], 0x4 glc\n\
                 s_buffer_atomic_add s9, s[12:15], 0xc glc\n\
                 s_buffer_load_dwordx4 s[16:19], s[12:15], 0x0",
                &memory,
                move |w| {
                    w.sgpr[12..16].copy_from_slice(&words);
                    w.sgpr[9] = 5;
                },
            );
            assert!(s.fault.is_none(), "{v}: {:?}", s.fault);
            assert_eq!(s.wave.sgpr[8], 20, "{v}: old value");
            assert_eq!(s.wave.sgpr[9], 0, "{v}: past the records: no atomic, 0");
            assert_eq!(&s.wave.sgpr[16..20], &[10, 22, 30, 0], "{v}");
            assert_eq!(buf.to_vec(), [10, 22, 30, 40], "{v}");
        }
    }
}

const OUT_OF_SCOPE: &[(&str, &str)] = &[
    (
        "s_rfe_b64",
        "returns from a trap handler; the emulator runs none",
    ),
    (
        "s_rfe_restore_b64",
        "returns from a trap handler; the emulator runs none",
    ),
    (
        "s_subvector_loop_begin",
        "no reference document at hand gives its Operation (exec::gaps)",
    ),
    (
        "s_subvector_loop_end",
        "no reference document at hand gives its Operation (exec::gaps)",
    ),
];

#[test]
fn every_scalar_row_has_semantics() {
    let mut missing = Vec::new();
    for v in crate::exec::EMULATED_VERSIONS {
        for (mn, enc) in coverage(v).missing {
            let scalar = matches!(
                enc,
                Encoding::Sop2
                    | Encoding::Sop1
                    | Encoding::Sopk
                    | Encoding::Sopc
                    | Encoding::Sopp
                    | Encoding::Smrd
                    | Encoding::Smem
            );
            // CLRX encodes s_buffer_atomic_* on GCN 1.2, which has no
            // scalar atomics.
            let gcn12_atomic = v == GcnVersion::Gcn1_2 && mn.starts_with("s_buffer_atomic_");
            if scalar && !gcn12_atomic && !OUT_OF_SCOPE.iter().any(|(m, _)| *m == mn) {
                missing.push(format!("{v}: {mn}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "scalar rows without semantics:\n{}",
        missing.join("\n")
    );
}
