//! The vocabulary the encoder and the decoder share: hardware register and
//! message names, buffer format names, register-file limits, the VOP3
//! opcode of the short forms and the `op_sel` bit layout. Both read it from
//! here; neither imports the other.

use crate::arch::GcnVersion;
use crate::isa::Encoding;

/// Operand code of VCC_LO (VCC_HI is the next).
pub(crate) const VCC: u16 = 106;
/// Operand code of M0.
pub(crate) const M0: u16 = 124;
/// Operand code of NULL (GCN 1.5: reads as 0, writes are dropped).
pub(crate) const NULL: u16 = 125;
/// Operand code of EXEC_LO (EXEC_HI is the next).
pub(crate) const EXEC: u16 = 126;
/// VCCZ as a source.
pub(crate) const VCCZ: u16 = 251;
/// EXECZ as a source.
pub(crate) const EXECZ: u16 = 252;
/// SCC as a source.
pub(crate) const SCC: u16 = 253;
/// LDS_DIRECT as a source.
pub(crate) const LDS_DIRECT: u16 = 254;

/// Data formats by code (index); `None` for the invalid/reserved codes.
/// The decoder prints formats from this table too.
pub(crate) const DATA_FORMATS: [Option<&str>; 16] = [
    None,
    Some("8"),
    Some("16"),
    Some("8_8"),
    Some("32"),
    Some("16_16"),
    Some("10_11_11"),
    Some("11_11_10"),
    Some("10_10_10_2"),
    Some("2_10_10_10"),
    Some("8_8_8_8"),
    Some("32_32"),
    Some("16_16_16_16"),
    Some("32_32_32"),
    Some("32_32_32_32"),
    None,
];

/// Number formats by code. The decoder prints formats from this table.
pub(crate) const NUMBER_FORMATS: [&str; 8] = [
    "unorm",
    "snorm",
    "uscaled",
    "sscaled",
    "uint",
    "sint",
    "snorm_ogl",
    "float",
];

/// Maps `op_sel` elements to the OP_SEL field: element `i` of a source is
/// bit `i`; the element right after the last source is the destination's
/// bit 3 (so `op_sel:[1,0,1]` on a two-source instruction sets SRC0 and DST).
pub(crate) fn op_sel_bits(mask: u32, nsrcs: usize) -> u32 {
    (0..4)
        .filter(|i| mask >> i & 1 != 0)
        .fold(0, |acc, i| acc | 1 << if i == nsrcs { 3 } else { i })
}

/// The VOP3 opcode of a VOP2/VOP1/VOPC instruction (or a VOP3-only row's
/// own opcode).
pub(crate) fn vop3_opcode(encoding: Encoding, opcode: u16, version: GcnVersion) -> u32 {
    let op = u32::from(opcode);
    match encoding {
        Encoding::Vop2 => 0x100 + op,
        Encoding::Vop1 if version.is_gcn12_or_later() && !version.is_gcn15() => 0x140 + op,
        Encoding::Vop1 => 0x180 + op,
        _ => op,
    }
}

/// Number of SGPRs addressable by name on `version`.
pub(crate) fn max_sgprs(version: GcnVersion) -> u16 {
    if version.is_gcn15() {
        106
    } else if version.is_gcn12_or_later() {
        102
    } else {
        104
    }
}

/// The first TTMP register's operand code and how many TTMPs `version` has.
pub(crate) fn ttmp_base(version: GcnVersion) -> (u16, u16) {
    if version.is_gcn14_or_later() {
        (108, 16)
    } else {
        (112, 12)
    }
}

/// Hardware register names (`hwreg(NAME, …)`), their ids and the first
/// version that has them. The first name of an id is the one the
/// disassembler prints; later ones are aliases (`sq_shader_tba_lo`). One
/// table for the assembler and the disassembler, so the two cannot
/// disagree.
pub(crate) const HWREGS: &[(&str, u32, GcnVersion)] = &[
    ("mode", 1, GcnVersion::Gcn1_0),
    ("status", 2, GcnVersion::Gcn1_0),
    ("trapsts", 3, GcnVersion::Gcn1_0),
    ("hw_id", 4, GcnVersion::Gcn1_0),
    ("gpr_alloc", 5, GcnVersion::Gcn1_0),
    ("lds_alloc", 6, GcnVersion::Gcn1_0),
    ("ib_sts", 7, GcnVersion::Gcn1_0),
    ("pc_lo", 8, GcnVersion::Gcn1_0),
    ("pc_hi", 9, GcnVersion::Gcn1_0),
    ("inst_dw0", 10, GcnVersion::Gcn1_0),
    ("inst_dw1", 11, GcnVersion::Gcn1_0),
    ("ib_dbg0", 12, GcnVersion::Gcn1_0),
    ("ib_dbg1", 13, GcnVersion::Gcn1_2),
    ("flush_ib", 14, GcnVersion::Gcn1_4),
    ("sh_mem_bases", 15, GcnVersion::Gcn1_4),
    ("tba_lo", 16, GcnVersion::Gcn1_4),
    ("sq_shader_tba_lo", 16, GcnVersion::Gcn1_4),
    ("tba_hi", 17, GcnVersion::Gcn1_4),
    ("sq_shader_tba_hi", 17, GcnVersion::Gcn1_4),
    ("tma_lo", 18, GcnVersion::Gcn1_4),
    ("sq_shader_tma_lo", 18, GcnVersion::Gcn1_4),
    ("tma_hi", 19, GcnVersion::Gcn1_4),
    ("sq_shader_tma_hi", 19, GcnVersion::Gcn1_4),
    ("flat_scr_lo", 20, GcnVersion::Gcn1_5),
    ("flat_scr_hi", 21, GcnVersion::Gcn1_5),
    ("xnack_mask", 22, GcnVersion::Gcn1_5),
    ("pops_packer", 23, GcnVersion::Gcn1_5),
];

/// `s_sendmsg` message names (`sendmsg(NAME, …)`), their ids and the first
/// version that has them. The first name of an id is the one the
/// disassembler prints (`sysmsg` and `system` are the same message). Shared
/// with the disassembler.
pub(crate) const MESSAGES: &[(&str, u32, GcnVersion)] = &[
    ("interrupt", 1, GcnVersion::Gcn1_0),
    ("gs", 2, GcnVersion::Gcn1_0),
    ("gs_done", 3, GcnVersion::Gcn1_0),
    ("savewave", 4, GcnVersion::Gcn1_2),
    ("stall_wave_gen", 5, GcnVersion::Gcn1_4),
    ("halt_waves", 6, GcnVersion::Gcn1_4),
    ("ordered_ps_done", 7, GcnVersion::Gcn1_4),
    ("early_prim_dealloc", 8, GcnVersion::Gcn1_4),
    ("gs_alloc_req", 9, GcnVersion::Gcn1_4),
    ("get_doorbell", 10, GcnVersion::Gcn1_4),
    ("sysmsg", 15, GcnVersion::Gcn1_0),
    ("system", 15, GcnVersion::Gcn1_0),
];

/// GS operation names of `sendmsg(GS, OP, …)` by code; shared with the
/// disassembler.
pub(crate) const GS_OPS: &[(&str, u32)] = &[("nop", 0), ("cut", 1), ("emit", 2), ("emit_cut", 3)];
