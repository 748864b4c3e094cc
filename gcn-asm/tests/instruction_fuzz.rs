//! Instruction token soups: a real mnemonic (any row of the ISA table, with
//! or without an encoding suffix) followed by random operand and modifier
//! tokens, for every GCN version. The assembler may accept or reject each
//! soup but must never panic or hang.

use gcn_asm::isa::INSTRUCTIONS;
use gcn_asm::{assemble, AssembleOptions, GcnVersion};
use proptest::prelude::*;

const TOKENS: &[&str] = &[
    "v1",
    "v255",
    "v[2:3]",
    "v[4:7]",
    "v[255:256]",
    "s0",
    "s101",
    "s103",
    "s104",
    "s[2:3]",
    "s[4:7]",
    "s[3:4]",
    "s[0:15]",
    "vcc",
    "vcc_lo",
    "exec",
    "m0",
    "scc",
    "vccz",
    "lds_direct",
    "ttmp[0:3]",
    "ttmp11",
    "flat_scratch",
    "xnack_mask",
    "tba",
    "src_shared_base",
    "0",
    "-1",
    "64",
    "65",
    "-16",
    "-17",
    "0.5",
    "-4.0",
    "1.5",
    "0.15915494",
    "2.0h",
    "1.0l",
    "0x12345678",
    "lit(3)",
    "lit(1.5)",
    "@x",
    "x",
    "x+1",
    "abs(",
    "sext(",
    "|",
    "-",
    "neg(",
    ")",
    "(",
    "[",
    "]",
    ",",
    ",",
    ",",
    ":",
    "&",
    "clamp",
    "mul:2",
    "mul:3",
    "div:2",
    "omod:1",
    "vop3",
    "dst_sel:byte0",
    "src0_sel:word1",
    "src1_sel:b2",
    "dst_unused:preserve",
    "sext:1",
    "row_shl:3",
    "row_ror:35",
    "quad_perm:[0,1,2,3]",
    "quad_perm:[4]",
    "bank_mask:5",
    "row_mask:0",
    "bound_ctrl:0",
    "wave_shr",
    "row_bcast:15",
    "op_sel:[1,0]",
    "op_sel:15",
    "op_sel_hi:[0,1,1]",
    "neg_lo:[1,1]",
    "neg_hi:3",
    "offset:12",
    "offset:0x1fffff",
    "glc",
    "nv",
    "high",
    "attr5.x",
    "attr64.w",
    "p10",
    "hwreg(mode, 0, 1)",
    "hwreg(",
    "vmcnt(1)",
    "expcnt(",
    "lgkmcnt(2) & vmcnt(0)",
    "sendmsg(gs, emit, 1)",
    "sendmsg(",
    "1f",
    "2b",
    "off",
    "s[4:7]",
    "s[8:15]",
    "v[1:4]",
    "offen",
    "idxen",
    "addr64",
    "slc",
    "tfe",
    "tfe:1",
    "glc:0",
    "lds",
    "gds",
    "offset0:3",
    "offset1:300",
    "offset:-5000",
    "inst_offset:-4096",
    "format:[32,float]",
    "format:[8_8,uscaled]",
    "format:[@15,@7]",
    "format:[",
    "dmask:0",
    "dmask:0xf",
    "unorm",
    "r128",
    "lwe",
    "da",
    "d16",
    "a16",
    "done",
    "compr",
    "vm",
    "mrt0",
    "param31",
    "pos4",
];

fn soup() -> impl Strategy<Value = (usize, usize, Vec<usize>)> {
    (
        0..INSTRUCTIONS.len(),
        0..6usize,
        prop::collection::vec(0..TOKENS.len(), 0..10),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

    #[test]
    fn instruction_soups_never_panic((row, suffix, tokens) in soup(), version in 0..5usize) {
        let suffix = ["", "", "_e32", "_e64", "_sdwa", "_dpp"][suffix];
        let mut line = format!("x = 5\n1: {}{} ", INSTRUCTIONS[row].mnemonic, suffix);
        for t in tokens {
            line.push_str(TOKENS[t]);
            line.push(' ');
        }
        let options = AssembleOptions {
            version: Some(GcnVersion::ALL[version]),
            ..AssembleOptions::default()
        };
        let _ = assemble(&line, &options);
    }
}
