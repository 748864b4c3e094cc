//! The registers a kernel may read before it writes them: the only ones a
//! new wave must start with at zero.
//!
//! A wave's registers start at zero (the emulator's choice: the hardware
//! leaves whatever the last wave on the SIMD had, and results must not
//! depend on that). Zeroing the whole VGPR allocation for every wave costs
//! more than some kernels' work (a vector add's wave is about 2 300 host
//! instructions, the zeroing about 200 of them), and a register the kernel
//! writes in full before any read of it on every path cannot show what it
//! held. [`first_reads`] finds the others, once per pre-decoded kernel, by a
//! forward data-flow over the code reachable from the entry:
//!
//! - The state at an instruction: the VGPRs and scalar registers written in
//!   full on every path to it, and whether EXEC is still the launch's on
//!   every path (it is all lanes for the waves this serves).
//! - Every register an instruction reads ([`Instruction::accesses`]: the
//!   explicit and implicit operands, a partial write's kept part
//!   included) that is not written on every path is a *first read*.
//! - A write defines its registers unless it keeps part of the old value
//!   (`partial`), and a vector one only while EXEC is the launch's (a lane
//!   EXEC leaves off keeps its old value). A scalar write by the scalar
//!   units defines whatever EXEC is.
//! - Writing EXEC ends "EXEC is the launch's"; paths meet by intersection.
//!
//! The analysis gives up (`None`: the wave is zeroed whole) where it
//! cannot see every read: a computed jump (`s_setpc_b64` and the like), an
//! instruction with indexed register operands (`s_movrel*`, `v_movrel*`,
//! the fork/join control stack), and a write of MODE (which may turn on
//! GPR indexing, making the vector operands M0-relative), and for wave32
//! launches.
//!
//! [`Instruction::accesses`]: gcn_asm::decode::Instruction::accesses

use gcn_asm::decode::{Location, Operand};
use gcn_asm::isa::{flags, ImplicitReg, Role, Unit};
use gcn_asm::GcnVersion;

use super::{flow, Decoded, Flow};

/// The registers a new wave must have zeroed ([`first_reads`]), as lists
/// (a wave's reset walks them).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct FirstReads {
    /// VGPR rows.
    pub vgprs: Box<[u16]>,
    /// Scalar operand codes (0–127).
    pub sgprs: Box<[u8]>,
}

/// Registers as bit sets: VGPR rows 0–255 and scalar operand codes 0–127.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct RegSet {
    /// VGPR `r` is bit `r % 64` of word `r / 64`.
    vgprs: [u64; 4],
    /// Scalar operand code `c` is bit `c`.
    sgprs: u128,
}

impl RegSet {
    fn has_vgpr(&self, r: u16) -> bool {
        self.vgprs[usize::from(r / 64) & 3] >> (r % 64) & 1 != 0
    }

    fn set_vgpr(&mut self, r: u16) {
        self.vgprs[usize::from(r / 64) & 3] |= 1 << (r % 64);
    }

    fn has_sgpr(&self, c: u16) -> bool {
        self.sgprs >> (c & 127) & 1 != 0
    }

    fn set_sgpr(&mut self, c: u16) {
        self.sgprs |= 1 << (c & 127);
    }

    fn and(&self, other: &RegSet) -> RegSet {
        RegSet {
            vgprs: std::array::from_fn(|i| self.vgprs[i] & other.vgprs[i]),
            sgprs: self.sgprs & other.sgprs,
        }
    }

    /// The set as lists, in order.
    fn lists(&self) -> FirstReads {
        FirstReads {
            vgprs: (0..256u16).filter(|&r| self.has_vgpr(r)).collect(),
            sgprs: (0..128u8)
                .filter(|&c| self.has_sgpr(u16::from(c)))
                .collect(),
        }
    }
}

/// What is known on entry to an instruction on every path reaching it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct State {
    /// Registers written in full.
    defined: RegSet,
    /// EXEC is the launch's.
    exec_kept: bool,
}

/// The registers the kernel `ops` (pre-decoded for `version`, entered at
/// byte offset `entry`) may read before writing them in full, for a wave
/// of 64 lanes that starts with all of them in EXEC; `None` when the
/// analysis cannot tell (see the module's documentation) or `wave32`, and
/// the whole register file must be zeroed.
pub(crate) fn first_reads(
    ops: &Decoded,
    version: GcnVersion,
    entry: u32,
    wave32: bool,
) -> Option<FirstReads> {
    let words = ops.words();
    if wave32 {
        return None;
    }
    let exec = ImplicitReg::Exec.sgprs(version)?;
    let writes_exec = |code: u16, count: u16| code < exec.0 + exec.1 && exec.0 < code + count;
    let mut states: Vec<Option<State>> = vec![None; words];
    let mut reads = RegSet::default();
    let mut work = Vec::new();
    let start = (entry / 4) as usize;
    if !entry.is_multiple_of(4) || start >= words {
        return Some(reads.lists());
    }
    states[start] = Some(State {
        defined: RegSet::default(),
        exec_kept: true,
    });
    work.push(start);
    while let Some(w) = work.pop() {
        let (Some(op), Some(state)) = (ops.get(w), states[w]) else {
            continue;
        };
        let row = op.instr.row;
        let flow = flow(row);
        if flow == Flow::Indirect || row.has(flags::INDEXED) {
            return None;
        }
        let mut out = state;
        let accesses = op.instr.accesses();
        // Reads first: an instruction reads its sources before it writes.
        for a in accesses.iter() {
            let kept = a.role == Role::Write && a.partial;
            if a.role == Role::Write && !kept {
                continue;
            }
            match a.location {
                Location::Vgprs { index, count } => {
                    for r in index..index.saturating_add(count).min(256) {
                        if !state.defined.has_vgpr(r) {
                            reads.set_vgpr(r);
                        }
                    }
                }
                Location::Sgprs { code, count } => {
                    for c in code..code.saturating_add(count).min(128) {
                        if !state.defined.has_sgpr(c) {
                            reads.set_sgpr(c);
                        }
                    }
                }
                Location::State(_) => {}
            }
        }
        let scalar_unit = matches!(row.unit(), Unit::Salu | Unit::Smem);
        for a in accesses.iter().filter(|a| a.role != Role::Read) {
            match a.location {
                Location::Vgprs { index, count } => {
                    if !a.partial && state.exec_kept {
                        for r in index..index.saturating_add(count).min(256) {
                            out.defined.set_vgpr(r);
                        }
                    }
                }
                Location::Sgprs { code, count } => {
                    if writes_exec(code, count) {
                        out.exec_kept = false;
                    }
                    if !a.partial && (scalar_unit || state.exec_kept) {
                        for c in code..code.saturating_add(count).min(128) {
                            out.defined.set_sgpr(c);
                        }
                    }
                }
                Location::State(ImplicitReg::Mode) => return None,
                Location::State(_) => {}
            }
        }
        let mut next = Vec::with_capacity(2);
        if flow == Flow::Next {
            next.push(w + usize::from(op.len / 4).max(1));
        }
        for operand in op.instr.operands() {
            if let Operand::Target(t) = *operand {
                if t >= 0 && t % 4 == 0 {
                    next.push((t / 4) as usize);
                }
            }
        }
        for n in next {
            let Some(slot) = states.get_mut(n) else {
                continue;
            };
            let merged = match slot {
                None => out,
                Some(old) => State {
                    defined: old.defined.and(&out.defined),
                    exec_kept: old.exec_kept && out.exec_kept,
                },
            };
            if *slot != Some(merged) {
                *slot = Some(merged);
                work.push(n);
            }
        }
    }
    Some(reads.lists())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{ArgValue, Dispatch};
    use crate::{CheckOptions, LaunchOptions, Memory, Program, TierMode};
    use gcn_asm::{assemble, AssembleOptions};

    /// The first reads of `body` (GCN 1.2, or wave32 GCN 1.5), entered at
    /// its start.
    fn reads_of(body: &str, wave32: bool) -> Option<FirstReads> {
        let version = if wave32 {
            GcnVersion::Gcn1_5
        } else {
            GcnVersion::Gcn1_2
        };
        let options = AssembleOptions {
            version: Some(version),
            wave32,
            ..AssembleOptions::default()
        };
        let assembly = assemble(body, &options).expect("assembles");
        let words = gcn_asm::decode::words_from_bytes(assembly.text());
        crate::exec::predecode_from_waves(&words, version, 0, wave32).first_reads
    }

    fn reads(body: &str) -> Option<FirstReads> {
        reads_of(body, false)
    }

    fn lists(vgprs: &[u16], sgprs: &[u8]) -> Option<FirstReads> {
        Some(FirstReads {
            vgprs: vgprs.into(),
            sgprs: sgprs.into(),
        })
    }

    #[test]
    fn straight_line_code_reads_only_what_it_has_not_written() {
        // The benchmark's vector add: the ABI registers, nothing else (VCC
        // and v5 are written before they are read).
        assert_eq!(
            reads(
                "s_load_dwordx2 s[8:9], s[0:1], 0x24
                 v_add_u32 v0, vcc, s4, v0
                 v_lshlrev_b32 v0, 2, v0
                 s_waitcnt lgkmcnt(0)
                 v_mov_b32 v5, s9
                 v_add_u32 v4, vcc, s8, v0
                 v_addc_u32 v5, vcc, v5, 0, vcc
                 flat_load_dword v1, v[4:5]
                 s_waitcnt vmcnt(0)
                 v_add_f32 v1, v1, v1
                 flat_store_dword v[4:5], v1
                 s_endpgm"
            ),
            lists(&[0], &[0, 1, 4])
        );
        // An accumulator reads its destination; a read of both halves of a
        // pair after writing one reads the other.
        assert_eq!(
            reads(
                "v_mov_b32 v2, 0
                 v_mac_f32 v3, v2, v2
                 v_mov_b32 v6, 1
                 v_add_f64 v[8:9], v[6:7], v[6:7]
                 s_endpgm"
            ),
            lists(&[3, 7], &[])
        );
    }

    #[test]
    fn a_write_that_keeps_part_of_the_old_value_is_a_read() {
        for (write, row) in [
            (
                "v_mov_b32_sdwa v3, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE",
                3,
            ),
            ("v_mov_b32_dpp v3, v1 quad_perm:[1,0,3,2] row_mask:0x5", 3),
            ("v_writelane_b32 v3, s0, 5", 3),
        ] {
            let got = reads(&format!(
                "v_mov_b32 v1, 0
                 s_mov_b32 s0, 0
                 {write}
                 v_add_u32 v2, vcc, v{row}, v1
                 s_endpgm"
            ))
            .expect("analysed");
            assert!(got.vgprs.contains(&row), "{write}: {got:?}");
        }
    }

    #[test]
    fn paths_meet_by_intersection() {
        // v3 is written on one path only; v4 on both; s9 in a loop after
        // its first read.
        assert_eq!(
            reads(
                "s_cmp_eq_u32 s0, 0
                 s_cbranch_scc1 other
                 v_mov_b32 v3, 1
                 v_mov_b32 v4, 1
                 s_branch join
             other:
                 v_mov_b32 v4, 2
             join:
                 v_add_u32 v5, vcc, v3, v4
                 s_mov_b32 s8, 4
             again:
                 s_add_u32 s8, s8, s9
                 s_mov_b32 s9, 1
                 s_cmp_lt_u32 s8, 100
                 s_cbranch_scc1 again
                 s_endpgm"
            ),
            lists(&[3], &[0, 9])
        );
    }

    #[test]
    fn a_vector_write_after_exec_changes_defines_nothing() {
        // Lanes EXEC leaves off keep their old value: v3 is read first,
        // v2 (written before) is not. A scalar write still defines.
        assert_eq!(
            reads(
                "v_mov_b32 v2, 0
                 v_cmpx_lt_u32 vcc, v0, 32
                 v_mov_b32 v3, 7
                 s_mov_b32 s10, 1
                 s_mov_b64 exec, -1
                 v_add_u32 v4, vcc, v3, v2
                 v_add_u32 v4, vcc, s10, v4
                 s_endpgm"
            ),
            lists(&[0, 3, 4], &[])
        );
    }

    #[test]
    fn what_it_cannot_follow_zeroes_everything() {
        for body in [
            "s_getpc_b64 s[0:1]\n s_setpc_b64 s[0:1]",
            "s_mov_b32 m0, 1\n v_movrels_b32 v1, v2\n s_endpgm",
            "s_setreg_imm32_b32 hwreg(mode, 0, 4), 3\n s_endpgm",
        ] {
            assert_eq!(reads(body), None, "{body}");
        }
        assert_eq!(reads_of("v_mov_b32 v1, 0\n s_endpgm", true), None);
    }

    /// End to end: even work-groups write every lane of v3, odd ones half
    /// of them after a `v_cmpx`, then store all 64 lanes: the other half
    /// must read as zero, not as the values an even group left in the wave
    /// storage its host thread reuses.
    #[test]
    fn a_reused_wave_shows_no_earlier_values() {
        let source = ".gallium
.gpu tonga
.kernel k
    .args
        .arg out, global, 8
    .config
        .dims x
.text
k:
    s_load_dwordx2 s[8:9], s[0:1], 0x24
    s_and_b32 s6, s4, 1
    s_cmp_eq_u32 s6, 0
    s_cbranch_scc1 all_lanes
    v_cmpx_lt_u32 vcc, v0, 32
all_lanes:
    v_mov_b32 v3, 7
    s_mov_b64 exec, -1
    s_lshl_b32 s5, s4, 8
    v_lshlrev_b32 v1, 2, v0
    v_add_u32 v1, vcc, s5, v1
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v5, s9
    v_add_u32 v4, vcc, s8, v1
    v_addc_u32 v5, vcc, v5, 0, vcc
    flat_store_dword v[4:5], v3
    s_endpgm
";
        groups_store_as(source, |i| {
            if (i / 64) % 2 == 0 || i % 64 < 32 {
                7
            } else {
                0
            }
        });
    }

    /// End to end: a one-row launch of a kernel with y and z ids reads them
    /// as zero (the wave's set-up writes only x), though even work-groups
    /// leave another value in v1 of the wave storage odd ones reuse.
    #[test]
    fn the_ids_a_one_row_launch_leaves_unwritten_read_as_zero() {
        let source = ".gallium
.gpu tonga
.kernel k
    .args
        .arg out, global, 8
    .config
        .dims xyz
.text
k:
    s_load_dwordx2 s[8:9], s[0:1], 0x24
    s_and_b32 s6, s4, 1
    s_cmp_eq_u32 s6, 0
    s_cbranch_scc0 store
    v_mov_b32 v1, 5
store:
    s_lshl_b32 s5, s4, 8
    v_lshlrev_b32 v3, 2, v0
    v_add_u32 v3, vcc, s5, v3
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v5, s9
    v_add_u32 v4, vcc, s8, v3
    v_addc_u32 v5, vcc, v5, 0, vcc
    flat_store_dword v[4:5], v1
    s_endpgm
";
        groups_store_as(source, |i| if (i / 64) % 2 == 0 { 5 } else { 0 });
    }

    /// Launches the Gallium kernel `source` (one buffer argument) over 64
    /// work-groups of 64 on one host thread, interpreted and with every
    /// block compiled, and asserts that dword `i` of the buffer is
    /// `expected(i)` in both.
    fn groups_store_as(source: &str, expected: impl Fn(usize) -> u32) {
        let binary = assemble(source, &AssembleOptions::default())
            .expect("assembles")
            .gallium_bytes()
            .expect("gallium");
        let memory = Memory::default();
        let program = Program::load(&memory, &binary, GcnVersion::Gcn1_2).expect("loads");
        const GROUPS: usize = 64;
        let out = memory.buffer_zeroed::<u32>(64 * GROUPS).expect("buffer");
        let expected: Vec<u32> = (0..64 * GROUPS).map(expected).collect();
        for tier in [TierMode::Off, TierMode::Eager] {
            out.write_from(&[0xdead; 64 * GROUPS]).expect("clears");
            let options = LaunchOptions {
                threads: Some(1),
                checks: CheckOptions::off(),
                tier,
                ..LaunchOptions::default()
            };
            program
                .launch(
                    "k",
                    &[ArgValue::Pointer(out.ptr())],
                    &Dispatch::new_1d(64 * GROUPS as u32, 64),
                    &options,
                )
                .expect("runs");
            assert_eq!(out.to_vec(), expected, "{tier:?}");
        }
    }
}
