//! Machine words back to instructions: the disassembler.
//!
//! [`decode`] turns the words at the start of a buffer into one
//! [`Instruction`]: its ISA table row, its operands (aligned with the row's
//! operand list) and its modifiers. An instruction's `Display` is CLRX
//! syntax that [`crate::assemble`] turns back into the same words; where the
//! assembler would otherwise pick a shorter encoding the text says so
//! (`vop3`, `lit(…)`). [`disassemble`] decodes a whole `.text` buffer into
//! a [`Listing`] whose `Display` adds branch labels and the offset and words
//! of every instruction as comments.
//!
//! Decoding is driven by the ISA table ([`crate::isa::INSTRUCTIONS`]): an
//! index from (encoding family, GCN version, opcode) to row is built once.
//! Each family's bit layout lives in its own module, mirroring
//! `crate::encode`: [`scalar`] (SOP2, SOP1, SOPK, SOPC, SOPP), [`smem`]
//! (SMRD, SMEM), [`vector`] (VOP2, VOP1, VOPC, VOP3, VOP3P, SDWA, DPP),
//! [`vintrp`], and the memory families `ds`, `buffer`, `mimg`, `exp` and
//! `flat` over their shared part, [`memory`].
//!
//! A word that is not an instruction the assembler could have produced (an
//! unknown opcode, a reserved bit set, a register that has no name on the
//! target, a literal missing at the end of the buffer) is not an
//! instruction: [`decode`] returns a [`DecodeError`] and the listing prints
//! it as `.int 0x…`. Decoding never panics.
//!
//! GCN 1.5 (RDNA 1) code is printed as clrxdisasm prints it (its operand
//! names, modifier spellings and order), wherever that text assembles back
//! to the same words; [`DecodeOptions::wave32`] prints lane masks as one
//! SGPR, as `clrxdisasm --wave32` does, and [`write_clrx_listing`] writes
//! clrxdisasm's own listing layout (`/*offset*/`, padded mnemonics,
//! `.fill` for zero words, `.LN_0` labels).

pub mod access;
mod buffer;
mod ds;
mod exp;
mod flat;
pub mod gallium;
pub mod memory;
mod mimg;
pub(crate) mod operand;
pub mod rocm;
pub mod scalar;
pub mod smem;
pub mod vector;
pub mod vintrp;

use std::fmt;
use std::sync::LazyLock;

use crate::arch::GcnVersion;
use crate::isa::{self, flags, Encoding, Field, InstrRow, INSTRUCTIONS};

pub use access::{Access, Accesses, Location};

/// Most operands a row has (VOP3B: vdst, sdst, src0, src1, src2).
pub const MAX_OPERANDS: usize = 6;

/// One decoded operand. [`Instruction::operands`] lists them in the order
/// of the row's operand specifications ([`InstrRow::operands`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operand {
    /// No operand (unused slot).
    None,
    /// `count` registers starting at operand code `code`: 0-127 scalar
    /// registers (SGPRs, VCC, TTMP, M0, EXEC …), 235-254 the source-only
    /// specials (apertures, VCCZ, EXECZ, SCC, LDS_DIRECT), 256-511 VGPRs.
    Reg {
        /// Operand code of the first register.
        code: u16,
        /// Number of registers.
        count: u8,
    },
    /// An inline constant (operand codes 128-208 integers, 240-248
    /// floats); its value depends on the operand's type.
    Const(u16),
    /// A 32-bit literal that followed the instruction (for 64-bit float
    /// operands, the high half of the double).
    Literal(u32),
    /// An immediate field (SIMM16, SMEM offset, probe mode …), as stored.
    Imm(u32),
    /// A branch target: byte offset from the start of the decoded buffer
    /// (32 bits keep operands small; code is far below 2 GiB).
    Target(i32),
    /// The `hwreg(…)` immediate of s_getreg/s_setreg.
    Hwreg(u16),
    /// The s_waitcnt immediate.
    Waitcnt(u16),
    /// The s_sendmsg immediate.
    Sendmsg(u16),
    /// An interpolation attribute `attrN.c`.
    Attr {
        /// Attribute number (0-63).
        index: u8,
        /// Channel: 0 x, 1 y, 2 z, 3 w.
        chan: u8,
    },
    /// An interpolation parameter: 0 `p10`, 1 `p20`, 2 `p0`.
    InterpParam(u8),
    /// `off`: a memory address or export source that is not used (GLOBAL
    /// and SCRATCH `saddr`, SCRATCH `vaddr`, EXP sources).
    Off,
}

/// Which of a row's encodings the words used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// The row's own encoding (the 32-bit form of VOP2/VOP1/VOPC).
    Native,
    /// The VOP3 (64-bit) form of a VOP2/VOP1/VOPC/VINTRP row.
    Vop3,
    /// The SDWA form of a VOP2/VOP1/VOPC row (GCN 1.2+).
    Sdwa,
    /// The DPP form of a VOP2/VOP1/VOPC row (GCN 1.2+).
    Dpp,
}

/// SDWA fields (GCN 1.2+).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sdwa {
    /// Destination selection (0-3 bytes, 4-5 words, 6 dword).
    pub dst_sel: u8,
    /// What happens to the unselected destination bits (0 pad, 1 sext,
    /// 2 preserve).
    pub dst_unused: u8,
    /// First source selection.
    pub src0_sel: u8,
    /// Second source selection.
    pub src1_sel: u8,
}

/// DPP fields (GCN 1.2+).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dpp {
    /// DPP_CTRL (quad_perm, row shifts, broadcasts …; GCN 1.5 also
    /// row_share, row_xmask). 0 for DPP8.
    pub ctrl: u16,
    /// BOUND_CTRL.
    pub bound_ctrl: bool,
    /// BANK_MASK.
    pub bank_mask: u8,
    /// ROW_MASK.
    pub row_mask: u8,
    /// FI (GCN 1.5): fetch inactive lanes.
    pub fi: bool,
    /// GCN 1.5 DPP8 (SRC0 code 0xe9, 0xea with `fi`): the eight 3-bit lane
    /// selects, lane 0 in the low bits; `None` for DPP16.
    pub dpp8: Option<u32>,
}

/// Instruction modifiers. Per-source bit masks are indexed by source slot
/// (bit 0 SRC0, bit 1 SRC1, bit 2 SRC2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Modifiers {
    /// Negation per source slot (VOP3P: NEG_LO).
    pub neg: u8,
    /// Absolute value per source slot.
    pub abs: u8,
    /// Sign extension per source slot (SDWA).
    pub sext: u8,
    /// Clamp the result.
    pub clamp: bool,
    /// Output modifier: 0 none, 1 ×2, 2 ×4, 3 ÷2.
    pub omod: u8,
    /// OP_SEL field bits (VOP3 on GCN 1.4: bits 0-2 sources, bit 3
    /// destination; VOP3P: bits 0-2).
    pub op_sel: u8,
    /// VOP3P OP_SEL_HI bits.
    pub op_sel_hi: u8,
    /// VOP3P NEG_HI bits (the absolute value of mixed-precision
    /// instructions).
    pub neg_hi: u8,
    /// Interpolation `high` (VOP3-encoded interpolation).
    pub high: bool,
    /// `glc` (SMEM and the memory families).
    pub glc: bool,
    /// `nv` (SMEM and FLAT on GCN 1.4).
    pub nv: bool,
    /// SDWA fields (when the form is [`Form::Sdwa`]).
    pub sdwa: Sdwa,
    /// DPP fields (when the form is [`Form::Dpp`]).
    pub dpp: Dpp,
    /// Memory-instruction modifiers (DS, MUBUF, MTBUF, MIMG, EXP, FLAT,
    /// and the SMEM `offset:` beside an SGPR offset); `glc` and `nv` are
    /// the fields above.
    pub mem: MemModifiers,
}

/// Modifiers of the memory families, as stored in the words (kept small:
/// the emulator holds one decoded item per instruction).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemModifiers {
    /// Immediate offset: DS `offset:` (or `offset0:`), MUBUF/MTBUF
    /// `offset:`, FLAT/GLOBAL/SCRATCH `offset:` (signed on GLOBAL and
    /// SCRATCH), SMEM `offset:` when [`MemFlags::SMEM_OFFSET`] is set.
    pub offset: i32,
    /// DS `offset1:` (instructions with two offsets).
    pub offset1: u8,
    /// MIMG `dmask`.
    pub dmask: u8,
    /// MTBUF data format (DFMT); on GCN 1.5 the unified 7-bit FORMAT
    /// (with `nfmt` 0).
    pub dfmt: u8,
    /// MTBUF number format (NFMT).
    pub nfmt: u8,
    /// GCN 1.5 MIMG `dim` (0 `1d` … 7 `2d_msaa_array`).
    pub dim: u8,
    /// GCN 1.5 MIMG NSA: the address VGPRs after the first (VADDR), when
    /// [`MemFlags::NSA`] is set; the VADDR operand's count is the number
    /// of addresses.
    pub nsa: [u8; 12],
    /// The single-bit modifiers.
    pub flags: MemFlags,
}

/// A set of single-bit memory modifiers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemFlags(u32);

impl MemFlags {
    /// DS `gds`.
    pub const GDS: MemFlags = MemFlags(1 << 0);
    /// MUBUF/MTBUF `offen`: VADDR holds an offset.
    pub const OFFEN: MemFlags = MemFlags(1 << 1);
    /// MUBUF/MTBUF `idxen`: VADDR holds an index.
    pub const IDXEN: MemFlags = MemFlags(1 << 2);
    /// MUBUF/MTBUF `addr64` (GCN 1.0/1.1).
    pub const ADDR64: MemFlags = MemFlags(1 << 3);
    /// `slc` (system level coherent).
    pub const SLC: MemFlags = MemFlags(1 << 4);
    /// `tfe` (texture fail enable).
    pub const TFE: MemFlags = MemFlags(1 << 5);
    /// MUBUF / FLAT (GCN 1.4) `lds`.
    pub const LDS: MemFlags = MemFlags(1 << 6);
    /// MIMG `unorm`.
    pub const UNORM: MemFlags = MemFlags(1 << 7);
    /// MIMG `da` (array).
    pub const DA: MemFlags = MemFlags(1 << 8);
    /// MIMG `r128` (GCN 1.0-1.2: a 4-register resource).
    pub const R128: MemFlags = MemFlags(1 << 9);
    /// MIMG `a16` (GCN 1.4: 16-bit addresses; the bit of `r128`).
    pub const A16: MemFlags = MemFlags(1 << 10);
    /// MIMG `lwe`.
    pub const LWE: MemFlags = MemFlags(1 << 11);
    /// MIMG `d16` (GCN 1.2+).
    pub const D16: MemFlags = MemFlags(1 << 12);
    /// EXP `done`.
    pub const DONE: MemFlags = MemFlags(1 << 13);
    /// EXP `compr` (two registers of packed halves).
    pub const COMPR: MemFlags = MemFlags(1 << 14);
    /// EXP `vm`.
    pub const VM: MemFlags = MemFlags(1 << 15);
    /// SMEM (GCN 1.4): an `offset:` immediate besides the SGPR offset
    /// (SOE); its value is [`MemModifiers::offset`]. (Kept here rather
    /// than in its own field so that a decoded item stays small.)
    pub const SMEM_OFFSET: MemFlags = MemFlags(1 << 16);
    /// `dlc` (GCN 1.5: SMEM, MUBUF, MTBUF, MIMG, FLAT).
    pub const DLC: MemFlags = MemFlags(1 << 17);
    /// GCN 1.5 MIMG: the addresses are a list of VGPRs (NSA), see
    /// [`MemModifiers::nsa`].
    pub const NSA: MemFlags = MemFlags(1 << 18);

    /// True when every flag of `other` is set.
    pub fn contains(self, other: MemFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Sets or clears the flags of `other`.
    pub fn set(&mut self, other: MemFlags, on: bool) {
        if on {
            self.0 |= other.0;
        } else {
            self.0 &= !other.0;
        }
    }
}

/// A decoded instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Instruction {
    /// The ISA table row.
    pub row: &'static InstrRow,
    /// The version it was decoded for.
    pub version: GcnVersion,
    /// Which encoding of the row.
    pub form: Form,
    /// Length in 32-bit words (literal included).
    pub len: u8,
    /// Operands, in the order of `row.operands` (only the first
    /// `row.operands.len()` are meaningful; see [`Instruction::operands`]).
    pub operand_array: [Operand; MAX_OPERANDS],
    /// Modifiers.
    pub mods: Modifiers,
    /// Decoded for a wave of 32 lanes ([`DecodeOptions::wave32`]): the
    /// lane masks it names or implies (VCC, EXEC) are one SGPR.
    pub wave32: bool,
}

impl Instruction {
    /// The operands, one per entry of `row.operands` (none for rows that
    /// take no operands).
    pub fn operands(&self) -> &[Operand] {
        let n = if self.row.has(flags::NO_OPERANDS) {
            0
        } else {
            self.row.operands.len().min(MAX_OPERANDS)
        };
        &self.operand_array[..n]
    }

    /// The encoding the words used: the row's family, or `Vop3` for the
    /// VOP3 form of a VOP2/VOP1/VOPC/VINTRP row.
    pub fn encoding(&self) -> Encoding {
        match self.form {
            Form::Vop3 => Encoding::Vop3,
            _ => self.row.encoding,
        }
    }

    fn new(row: &'static InstrRow, version: GcnVersion, form: Form) -> Self {
        Instruction {
            row,
            version,
            form,
            len: 1,
            operand_array: [Operand::None; MAX_OPERANDS],
            wave32: false,
            mods: Modifiers::default(),
        }
    }
}

/// Why words do not decode to an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeError {
    /// No words left.
    Empty,
    /// No instruction has this encoding and opcode on the target version,
    /// or a field holds a value the assembler cannot produce.
    Invalid,
    /// The instruction needs more words than the buffer has (a missing
    /// literal or second word).
    Truncated,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DecodeError::Empty => "no words to decode",
            DecodeError::Invalid => "not a valid instruction",
            DecodeError::Truncated => "instruction truncated at the end of the code",
        })
    }
}

impl std::error::Error for DecodeError {}

/// What the decoder needs to know beside the GCN version.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Wave32 (GCN 1.5 only; `--wave32`): VCC, the carries and the compare
    /// results of vector instructions are one SGPR (`vcc_lo`, `s4`), as
    /// clrxdisasm prints them with `--wave32`.
    pub wave32: bool,
}

impl DecodeOptions {
    /// Wave32 only where the version has it.
    fn for_version(self, version: GcnVersion) -> Self {
        DecodeOptions {
            wave32: self.wave32 && version.is_gcn15(),
        }
    }
}

/// The encoding family of a first word, from its fixed high bits.
pub fn family(word: u32, version: GcnVersion) -> Option<Encoding> {
    if word >> 31 == 0 {
        return Some(match (word >> 25) & 0x3f {
            0x3e => Encoding::Vopc,
            0x3f => Encoding::Vop1,
            _ => Encoding::Vop2,
        });
    }
    if word >> 30 == 0b10 {
        return Some(match word >> 23 {
            0x17d => Encoding::Sop1,
            0x17e => Encoding::Sopc,
            0x17f => Encoding::Sopp,
            _ if word >> 28 == 0b1011 => Encoding::Sopk,
            _ => Encoding::Sop2,
        });
    }
    let top6 = word >> 26;
    if version.is_gcn15() {
        // The GFX10 prefixes (CLRX's gcnEncoding15Table); VOP3P is 0xcc
        // with bits 25:24 clear.
        return Some(match top6 {
            0b110010 => Encoding::Vintrp,
            0b110011 if word >> 24 == 0xcc => Encoding::Vop3p,
            0b110101 => Encoding::Vop3,
            0b110110 => Encoding::Ds,
            0b110111 => Encoding::Flat,
            0b111000 => Encoding::Mubuf,
            0b111010 => Encoding::Mtbuf,
            0b111100 => Encoding::Mimg,
            0b111101 => Encoding::Smem,
            0b111110 => Encoding::Exp,
            _ => return None,
        });
    }
    if version.is_gcn14() && word >> 23 == 0x1a7 {
        return Some(Encoding::Vop3p);
    }
    if version.is_gcn12_or_later() {
        Some(match top6 {
            0b110000 => Encoding::Smem,
            0b110001 => Encoding::Exp,
            0b110100 => Encoding::Vop3,
            0b110101 => Encoding::Vintrp,
            0b110110 => Encoding::Ds,
            0b110111 => Encoding::Flat,
            0b111000 => Encoding::Mubuf,
            0b111010 => Encoding::Mtbuf,
            0b111100 => Encoding::Mimg,
            _ => return None,
        })
    } else {
        Some(match top6 {
            0b110000 | 0b110001 => Encoding::Smrd,
            0b110010 => Encoding::Vintrp,
            0b110100 => Encoding::Vop3,
            0b110110 => Encoding::Ds,
            0b110111 if version == GcnVersion::Gcn1_1 => Encoding::Flat,
            0b111000 => Encoding::Mubuf,
            0b111010 => Encoding::Mtbuf,
            0b111100 => Encoding::Mimg,
            0b111110 => Encoding::Exp,
            _ => return None,
        })
    }
}

/// Decodes the instruction at the start of `words`. `offset` is the byte
/// offset of `words[0]` in the code (branch targets are relative to it).
pub fn decode(words: &[u32], offset: u64, version: GcnVersion) -> Result<Instruction, DecodeError> {
    decode_with(words, offset, version, DecodeOptions::default())
}

/// [`decode`] with options (wave32).
pub fn decode_with(
    words: &[u32],
    offset: u64,
    version: GcnVersion,
    options: DecodeOptions,
) -> Result<Instruction, DecodeError> {
    let &word = words.first().ok_or(DecodeError::Empty)?;
    let family = family(word, version).ok_or(DecodeError::Invalid)?;
    let ctx = Ctx {
        words,
        offset,
        version,
        wave32: options.for_version(version).wave32,
    };
    let wave32 = ctx.wave32;
    let instr = match family {
        Encoding::Sop2 | Encoding::Sop1 | Encoding::Sopk | Encoding::Sopc | Encoding::Sopp => {
            scalar::decode(&ctx, family)
        }
        Encoding::Smrd => smem::decode_smrd(&ctx),
        Encoding::Smem => smem::decode_smem(&ctx),
        Encoding::Vop2 | Encoding::Vop1 | Encoding::Vopc => vector::decode_short(&ctx, family),
        Encoding::Vop3 => vector::decode_vop3(&ctx),
        Encoding::Vop3p => vector::decode_vop3p(&ctx),
        Encoding::Vintrp => vintrp::decode(&ctx),
        Encoding::Ds
        | Encoding::Mubuf
        | Encoding::Mtbuf
        | Encoding::Mimg
        | Encoding::Exp
        | Encoding::Flat
        | Encoding::Global
        | Encoding::Scratch => memory::decode(&ctx, family),
    };
    instr.map(|mut i| {
        i.wave32 = wave32;
        i
    })
}

/// What every family decoder reads.
pub(crate) struct Ctx<'a> {
    /// The words from the instruction's first word to the end of the code.
    pub words: &'a [u32],
    /// Byte offset of `words[0]`.
    pub offset: u64,
    /// Target version.
    pub version: GcnVersion,
    /// Wave32 (GCN 1.5): lane masks are one SGPR.
    pub wave32: bool,
}

impl Ctx<'_> {
    /// Word `i` of the instruction, or `Truncated`.
    pub fn word(&self, i: usize) -> Result<u32, DecodeError> {
        self.words.get(i).copied().ok_or(DecodeError::Truncated)
    }

    /// The row for `opcode` of `encoding` on the target version.
    pub fn row(&self, encoding: Encoding, opcode: u32) -> Result<&'static InstrRow, DecodeError> {
        lookup(encoding, opcode, self.version).ok_or(DecodeError::Invalid)
    }

    /// SGPRs of a lane mask (VCC, a carry, a compare result): 1 in wave32.
    pub fn mask_regs(&self) -> u16 {
        if self.wave32 {
            1
        } else {
            2
        }
    }
}

/// Number of encoding families (`Encoding` variants).
const ENCODINGS: usize = 21;

/// Opcode -> row index tables, one per (version, encoding space). The VOP3
/// space also holds the VOP3 forms of VOP2/VOP1/VOPC rows and (GCN 1.2+)
/// VINTRP rows, at their derived VOP3 opcodes.
struct Index {
    tables: Vec<Vec<u16>>,
}

const NO_ROW: u16 = u16::MAX;

/// The VOP3 opcode of a VINTRP row on GCN 1.2/1.4 (see `isa/README.md`).
const VINTRP_VOP3_BASE: u32 = 0x270;

fn version_index(version: GcnVersion) -> usize {
    match version {
        GcnVersion::Gcn1_0 => 0,
        GcnVersion::Gcn1_1 => 1,
        GcnVersion::Gcn1_2 => 2,
        GcnVersion::Gcn1_4 => 3,
        GcnVersion::Gcn1_4_1 => 4,
        GcnVersion::Gcn1_5 => 5,
        GcnVersion::Gcn1_5_1 => 6,
        GcnVersion::Rdna2 => 7,
    }
}

static INDEX: LazyLock<Index> = LazyLock::new(|| {
    let mut tables = vec![Vec::new(); GcnVersion::ALL.len() * ENCODINGS];
    let mut insert = |version: GcnVersion, encoding: Encoding, opcode: u32, row: usize| {
        let table = &mut tables[version_index(version) * ENCODINGS + encoding as usize];
        let op = opcode as usize;
        if table.len() <= op {
            table.resize(op + 1, NO_ROW);
        }
        // First row wins: the table is sorted by mnemonic, so aliases
        // resolve to the alphabetically first name, except that a row
        // flagged `alias` gives way to the documented name.
        let replace = table[op] == NO_ROW
            || (INSTRUCTIONS[usize::from(table[op])].has(flags::ALIAS)
                && !INSTRUCTIONS[row].has(flags::ALIAS))
            || (version.is_gcn15()
                && clrx_prefers(
                    INSTRUCTIONS[row].mnemonic,
                    INSTRUCTIONS[usize::from(table[op])].mnemonic,
                ));
        if replace {
            table[op] = row as u16;
        }
    };
    for version in GcnVersion::ALL {
        for (i, row) in INSTRUCTIONS.iter().enumerate() {
            let Some(op) = row.opcode(version) else {
                continue;
            };
            // Only a row the assembler picks for its mnemonic on this
            // version can be printed by that mnemonic and assembled back.
            if !isa::lookup(row.mnemonic, version).is_some_and(|r| std::ptr::eq(r, row)) {
                continue;
            }
            insert(version, row.encoding, u32::from(op), i);
            match row.encoding {
                Encoding::Vop2 | Encoding::Vop1 | Encoding::Vopc if !row.has(flags::NO_VOP3) => {
                    let op3 = crate::isa::vocab::vop3_opcode(row.encoding, op, version);
                    insert(version, Encoding::Vop3, op3, i);
                }
                Encoding::Vintrp if version.is_gcn12_or_later() && !version.is_gcn15() => {
                    insert(version, Encoding::Vop3, VINTRP_VOP3_BASE + u32::from(op), i);
                }
                _ => {}
            }
        }
    }
    Index { tables }
});

/// On GCN 1.5, where two names share an opcode, the one clrxdisasm
/// prints: `v_cmp*_tru_*` rather than `v_cmp*_t_*`.
fn clrx_prefers(new: &str, old: &str) -> bool {
    new.starts_with("v_cmp") && new.contains("_tru_") && old.contains("_t_")
}

/// The row decoding `opcode` in the `encoding` opcode space on `version`.
/// For [`Encoding::Vop3`] the space includes the VOP3 forms of VOP2, VOP1,
/// VOPC and (GCN 1.2+) VINTRP rows.
pub fn lookup(encoding: Encoding, opcode: u32, version: GcnVersion) -> Option<&'static InstrRow> {
    let table = &INDEX.tables[version_index(version) * ENCODINGS + encoding as usize];
    match table.get(opcode as usize) {
        Some(&i) if i != NO_ROW => INSTRUCTIONS.get(usize::from(i)),
        _ => None,
    }
}

/// The source slot (0-2) of each operand of `row`, or `u8::MAX`.
pub(crate) fn source_slots(row: &InstrRow) -> [u8; MAX_OPERANDS] {
    let mut slots = [u8::MAX; MAX_OPERANDS];
    let interp = row
        .operands
        .iter()
        .any(|o| matches!(o.field, Field::Attr | Field::InterpParam));
    let mut seen_attr = false;
    for (slot, spec) in slots.iter_mut().zip(row.operands) {
        *slot = if interp {
            // Interpolation: the attribute is SRC0, the VGPR/parameter
            // before it SRC1, a source after it SRC2.
            match spec.field {
                Field::Vdst => u8::MAX,
                Field::Attr => {
                    seen_attr = true;
                    0
                }
                Field::InterpParam => 1,
                _ if seen_attr => 2,
                _ => 1,
            }
        } else {
            match spec.field {
                Field::Src0 | Field::Vsrc0 | Field::Ssrc0 => 0,
                Field::Src1 | Field::Vsrc1 | Field::Ssrc1 => 1,
                Field::Src2 | Field::Ssrc2 => 2,
                _ => u8::MAX,
            }
        };
    }
    slots
}

/// One decoded item of a listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// An instruction.
    Instruction(Instruction),
    /// A word that does not start an instruction (printed as `.int`).
    Word(u32),
}

/// An item with its place in the code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decoded {
    /// Byte offset of the first word.
    pub offset: u64,
    /// The instruction or word.
    pub item: Item,
}

impl Decoded {
    /// Number of words the item covers.
    pub fn len(&self) -> usize {
        match self.item {
            Item::Instruction(i) => usize::from(i.len),
            Item::Word(_) => 1,
        }
    }

    /// Always false: an item covers at least one word.
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// A decoded `.text`: every instruction (or stray word) in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing<'a> {
    /// The code that was decoded.
    pub words: &'a [u32],
    /// Target version.
    pub version: GcnVersion,
    /// The items, in order, covering every word.
    pub items: Vec<Decoded>,
}

/// The number of words an instruction starting at `words[0]` takes by its
/// encoding alone: 2 for the 64-bit families, plus a literal when a source
/// field says 255 (or the row has a constant, as v_madmk), plus the SDWA/DPP
/// word (GCN 1.5: also the DPP8 word, a VOP3/VOP3P literal and the MIMG
/// NSA address words). Used to resume after words that do not decode, as
/// clrxdisasm does, so that the words of one undecodable instruction (a
/// literal, the second word) are not read as instructions of their own.
pub fn encoded_len(words: &[u32], version: GcnVersion) -> usize {
    let Some(&word) = words.first() else {
        return 0;
    };
    let Some(family) = family(word, version) else {
        return 1;
    };
    let gcn15 = version.is_gcn15();
    let has_lit32 = |encoding: Encoding, opcode: u32| {
        lookup(encoding, opcode, version).is_some_and(|r| r.operand(Field::Lit32).is_some())
    };
    let byte = |shift: u32| word >> shift & 0xff;
    let len = match family {
        Encoding::Sop2 | Encoding::Sopc => 1 + usize::from(byte(0) == 255 || byte(8) == 255),
        Encoding::Sop1 => 1 + usize::from(byte(0) == 255),
        // s_setreg_imm32_b32 (GCN 1.5: opcode 21, as clrxdisasm reads it).
        Encoding::Sopk => {
            let op = word >> 23 & 0x1f;
            1 + usize::from(if gcn15 {
                op == 21
            } else {
                has_lit32(Encoding::Sopk, op)
            })
        }
        Encoding::Sopp | Encoding::Vintrp => 1,
        // GCN 1.1 SMRD: OFFSET 255 without IMM announces a literal offset.
        Encoding::Smrd => {
            1 + usize::from(version == GcnVersion::Gcn1_1 && word >> 8 & 1 == 0 && byte(0) == 255)
        }
        Encoding::Vop2 | Encoding::Vop1 | Encoding::Vopc => {
            let src0 = word & 0x1ff;
            let gcn12 = version.is_gcn12_or_later();
            let op = word >> 25 & 0x3f;
            // The constant of v_madmk/v_madak/v_fmamk/v_fmaak (GCN 1.5: by
            // opcode, as clrxdisasm reads it).
            let constant = family == Encoding::Vop2
                && if gcn15 {
                    matches!(op, 32 | 33 | 44 | 45 | 55 | 56)
                } else {
                    has_lit32(Encoding::Vop2, op)
                };
            let extra = src0 == 255
                || (gcn12 && (src0 == 0xf9 || src0 == 0xfa))
                || (gcn15 && (src0 == 0xe9 || src0 == 0xea))
                || constant;
            1 + usize::from(extra)
        }
        // GCN 1.5: a literal when any source field says 255.
        Encoding::Vop3 | Encoding::Vop3p if gcn15 => {
            let w1 = words.get(1).copied().unwrap_or(0);
            let literal = (0..3).any(|i| w1 >> (9 * i) & 0x1ff == 255);
            2 + usize::from(literal)
        }
        // GCN 1.5: the NSA address dwords.
        Encoding::Mimg if gcn15 => 2 + (word >> 1 & 3) as usize,
        _ => 2,
    };
    len.min(words.len())
}

/// Decodes a whole buffer of code words. Words that do not decode become
/// [`Item::Word`]s, as many as [`encoded_len`] says their instruction takes.
pub fn disassemble(words: &[u32], version: GcnVersion) -> Listing<'_> {
    disassemble_with(words, version, DecodeOptions::default())
}

/// [`disassemble`] with options (wave32).
pub fn disassemble_with(words: &[u32], version: GcnVersion, options: DecodeOptions) -> Listing<'_> {
    Listing {
        words,
        version,
        items: decode_items_with(words, version, options).collect(),
    }
}

/// The items [`disassemble`] collects, one at a time, without keeping them:
/// for listings too large to hold (see [`write_disassembly`]).
pub fn decode_items(words: &[u32], version: GcnVersion) -> DecodeItems<'_> {
    decode_items_with(words, version, DecodeOptions::default())
}

/// [`decode_items`] with options (wave32).
pub fn decode_items_with(
    words: &[u32],
    version: GcnVersion,
    options: DecodeOptions,
) -> DecodeItems<'_> {
    DecodeItems {
        words,
        version,
        options,
        next: 0,
        stray_end: 0,
    }
}

/// The iterator of [`decode_items`].
#[derive(Debug, Clone)]
pub struct DecodeItems<'a> {
    words: &'a [u32],
    version: GcnVersion,
    options: DecodeOptions,
    /// Index of the next word.
    next: usize,
    /// Words before this index are stray words (`.int`) of an encoding
    /// that did not decode.
    stray_end: usize,
}

impl Iterator for DecodeItems<'_> {
    type Item = Decoded;

    fn next(&mut self) -> Option<Decoded> {
        let i = self.next;
        let words = self.words;
        if i >= words.len() {
            return None;
        }
        let offset = 4 * i as u64;
        if i < self.stray_end {
            self.next += 1;
            return Some(Decoded {
                offset,
                item: Item::Word(words[i]),
            });
        }
        match decode_with(&words[i..], offset, self.version, self.options) {
            Ok(instr) => {
                let d = Decoded {
                    offset,
                    item: Item::Instruction(instr),
                };
                self.next += d.len();
                Some(d)
            }
            Err(_) => {
                self.stray_end =
                    (i + encoded_len(&words[i..], self.version).max(1)).min(words.len());
                self.next += 1;
                Some(Decoded {
                    offset,
                    item: Item::Word(words[i]),
                })
            }
        }
    }
}

/// Writes the listing of `words` as `disassemble(words, version)` would
/// print it, decoding twice (once for the branch targets, once to write)
/// rather than holding every item: memory stays that of the branch target
/// list, whatever the size of the code.
pub fn write_disassembly(
    f: &mut dyn fmt::Write,
    words: &[u32],
    version: GcnVersion,
) -> fmt::Result {
    write_disassembly_with(f, words, version, DecodeOptions::default())
}

/// [`write_disassembly`] with options (wave32).
pub fn write_disassembly_with(
    f: &mut dyn fmt::Write,
    words: &[u32],
    version: GcnVersion,
    options: DecodeOptions,
) -> fmt::Result {
    let targets = targets_of(decode_items_with(words, version, options));
    write_items(
        f,
        words,
        decode_items_with(words, version, options),
        &targets,
        &[],
        &[],
    )
}

/// Writes the listing of `words` in clrxdisasm's raw-code layout (what
/// follows its `.text` line): `/*OFFSET*/ MNEMONIC  OPERANDS` lines with a
/// 12-digit offset and the mnemonic padded to 16 columns, `.fill N, 4, 0`
/// for a run of zero words at an instruction boundary, `.LOFFSET_0:`
/// labels at branch targets (`.LOFFSET_0=.-N` for one inside an
/// instruction or a zero run, `.org` before those past the end), and
/// clrxdisasm's warning when the last instruction runs past the code.
/// Words that do not decode are `.int 0x…` lines, one per word of their
/// encoding ([`encoded_len`]).
pub fn write_clrx_listing(
    f: &mut dyn fmt::Write,
    words: &[u32],
    version: GcnVersion,
    options: DecodeOptions,
) -> fmt::Result {
    // Branch targets as clrxdisasm numbers them (byte offsets; a negative
    // one wraps around as its size_t does).
    // On GCN 1.5 also the ones of its first pass over the words, which
    // takes some words that do not branch for branches.
    let mut targets: Vec<u64> = if version.is_gcn15() {
        clrx_labels_gcn15(words)
    } else {
        Vec::new()
    };
    walk_clrx(words, version, options, |item| {
        if let ClrxItem::Instruction(_, instr) = item {
            for op in instr.operands() {
                if let Operand::Target(t) = op {
                    targets.push(i64::from(*t) as u64);
                }
            }
        }
        Ok(())
    })?;
    targets.sort_unstable();
    targets.dedup();
    // clrxdisasm's warning: its length rules run past the end of the code.
    let mut end = 0usize;
    while end < words.len() {
        end += encoded_len_unclipped(&words[end..], version).max(1);
    }
    if end != words.len() {
        writeln!(f, "        /* WARNING: Unfinished instruction at end! */")?;
    }
    let mut next_label = 0usize;
    let mut labels_to = |f: &mut dyn fmt::Write, pos: u64| -> fmt::Result {
        while let Some(&t) = targets.get(next_label) {
            if t > pos {
                break;
            }
            if t == pos {
                writeln!(f, ".L{t}_0:")?;
            } else {
                writeln!(f, ".L{t}_0=.-{}", pos - t)?;
            }
            next_label += 1;
        }
        Ok(())
    };
    walk_clrx(words, version, options, |item| match item {
        ClrxItem::Fill(offset, n) => {
            labels_to(f, offset)?;
            writeln!(f, ".fill {n}, 4, 0")
        }
        ClrxItem::Word(offset, w) => {
            labels_to(f, offset)?;
            writeln!(f, "/*{offset:012x}*/ .int {w:#x}")
        }
        ClrxItem::Instruction(offset, instr) => {
            labels_to(f, offset)?;
            write!(f, "/*{offset:012x}*/ ")?;
            write_clrx_text(f, &instr)?;
            writeln!(f)
        }
    })?;
    let mut pos = 4 * words.len() as u64;
    labels_to(f, pos)?;
    for &t in &targets[next_label..] {
        // A target before the code (a negative offset, which clrxdisasm
        // wraps around): its value, where clrxdisasm's `.org` would move
        // backwards.
        if (t as i64) < 0 {
            writeln!(f, ".L{t}_0 = {}", t as i64)?;
            continue;
        }
        if t != pos {
            writeln!(f, ".org {t:#x}")?;
        }
        writeln!(f, ".L{t}_0:")?;
        pos = t;
    }
    Ok(())
}

/// The labels clrxdisasm places in GCN 1.5 code: its first pass over the
/// words (GCNDisasm.cpp, `analyzeBeforeDisassemble`) steps over the
/// instructions by its length rules and takes the target of every SOPP
/// branch (opcodes 2, 4-9, 23-26) and of the SOPK opcodes it takes for
/// branches (16, 22, 27, 28), whether or not the word decodes.
fn clrx_labels_gcn15(words: &[u32]) -> Vec<u64> {
    let mut labels = Vec::new();
    let mut pos = 0usize;
    let target =
        |pos: usize, w: u32| (pos as u64).wrapping_add_signed(i64::from(w as u16 as i16) + 1) << 2;
    while pos < words.len() {
        let w = words[pos];
        if w >> 30 == 0b10 {
            if w & 0x3000_0000 == 0x3000_0000 {
                match w & 0x0f80_0000 {
                    0x0e80_0000 => pos += usize::from(w & 0xff == 0xff),
                    0x0f00_0000 => pos += usize::from(w & 0xff == 0xff || w & 0xff00 == 0xff00),
                    0x0f80_0000 => {
                        if matches!(w >> 16 & 0x7f, 2 | 4..=9 | 23..=26) {
                            labels.push(target(pos, w));
                        }
                    }
                    _ => {
                        let op = w >> 23 & 0x1f;
                        if matches!(op, 16 | 22 | 27 | 28) {
                            labels.push(target(pos, w));
                        } else if op == 21 {
                            pos += 1;
                        }
                    }
                }
            } else {
                pos += usize::from(w & 0xff == 0xff || w & 0xff00 == 0xff00);
            }
        } else if w >> 31 == 1 {
            let part = w >> 26 & 0xf;
            match part {
                12 => pos += (w >> 1 & 3) as usize + 1,
                3 | 5 | 6 | 7 | 8 | 10 | 13 | 14 => pos += 1,
                _ => {}
            }
            if part == 3 || part == 5 {
                let w1 = words.get(pos).copied().unwrap_or(0);
                if (0..3).any(|i| w1 >> (9 * i) & 0x1ff == 0xff) {
                    pos += 1;
                }
            }
        } else {
            let src0 = w & 0x1ff;
            let extra = matches!(src0, 0xff | 0xf9 | 0xfa | 0xe9 | 0xea);
            let op = w >> 25 & 0x3f;
            let vop2 = op < 0x3e;
            pos += usize::from(extra || (vop2 && matches!(op, 32 | 33 | 44 | 45 | 55 | 56)));
        }
        pos += 1;
    }
    labels.sort_unstable();
    labels.dedup();
    labels
}

/// [`encoded_len`] without the clip to the code: how far clrxdisasm's
/// length rules take an instruction.
fn encoded_len_unclipped(words: &[u32], version: GcnVersion) -> usize {
    let mut padded = [0u32; 8];
    let n = words.len().min(padded.len());
    padded[..n].copy_from_slice(&words[..n]);
    encoded_len(&padded, version)
}

/// One item of a listing in clrxdisasm's layout.
enum ClrxItem {
    /// A run of zero words at an instruction boundary: offset, count.
    Fill(u64, usize),
    /// A word that does not decode: offset, word.
    Word(u64, u32),
    /// An instruction at an offset.
    Instruction(u64, Instruction),
}

/// Walks `words` as clrxdisasm does: zero words at an instruction
/// boundary are a `.fill` run, every other word starts an instruction.
fn walk_clrx(
    words: &[u32],
    version: GcnVersion,
    options: DecodeOptions,
    mut each: impl FnMut(ClrxItem) -> fmt::Result,
) -> fmt::Result {
    let mut i = 0;
    while i < words.len() {
        let offset = 4 * i as u64;
        if words[i] == 0 {
            let n = words[i..].iter().take_while(|&&w| w == 0).count();
            each(ClrxItem::Fill(offset, n))?;
            i += n;
            continue;
        }
        match decode_with(&words[i..], offset, version, options) {
            Ok(instr) => {
                i += usize::from(instr.len);
                each(ClrxItem::Instruction(offset, instr))?;
            }
            Err(_) => {
                let n = encoded_len(&words[i..], version).max(1);
                for (k, &w) in words[i..i + n].iter().enumerate() {
                    each(ClrxItem::Word(offset + 4 * k as u64, w))?;
                }
                i += n;
            }
        }
    }
    Ok(())
}

/// Writes an instruction as clrxdisasm lays it out: the mnemonic padded to
/// 16 columns (at least one space) before what follows it.
pub fn write_clrx_text(f: &mut dyn fmt::Write, instr: &Instruction) -> fmt::Result {
    let mut text = instr.to_string();
    // clrxdisasm's label names: `.LOFFSET_0` (a negative offset wraps).
    for op in instr.operands() {
        if let Operand::Target(t) = op {
            let t = i64::from(*t);
            text = text.replacen(&Label(t).to_string(), &format!(".L{}_0", t as u64), 1);
        }
    }
    // (The printed mnemonic may carry a suffix: `_e64`.)
    let (mnemonic, rest) = text.split_once(' ').unwrap_or((text.as_str(), ""));
    let rest = rest.trim_start_matches(' ');
    let pad = 16usize.saturating_sub(mnemonic.len()).max(1);
    f.write_str(mnemonic)?;
    if rest.is_empty() {
        // MUBUF without operands: clrxdisasm leaves the spaces before its
        // (absent) modifiers.
        if matches!(instr.row.encoding, Encoding::Mubuf | Encoding::Mtbuf) {
            for _ in 1..pad {
                f.write_char(' ')?;
            }
        }
        return Ok(());
    }
    // An operand-less VOP1 (v_nop) with SDWA/DPP modifiers: clrxdisasm adds
    // no spaces before them.
    let pad = if operand::no_operands(instr.row)
        && instr.form != Form::Native
        && instr.form != Form::Vop3
    {
        1
    } else {
        pad
    };
    for _ in 0..pad {
        f.write_char(' ')?;
    }
    f.write_str(rest)
}

/// Branch targets of `items`, sorted and without duplicates.
fn targets_of(items: impl Iterator<Item = Decoded>) -> Vec<i64> {
    let mut targets: Vec<i64> = items
        .filter_map(|d| match d.item {
            Item::Instruction(i) => i.operands().iter().find_map(|o| match o {
                Operand::Target(t) => Some(i64::from(*t)),
                _ => None,
            }),
            Item::Word(_) => None,
        })
        .collect();
    targets.sort_unstable();
    targets.dedup();
    targets
}

/// Converts little-endian bytes to words; a trailing partial word is padded
/// with zero bytes.
pub fn words_from_bytes(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| {
            let mut b = [0u8; 4];
            b[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(b)
        })
        .collect()
}

/// The label name of a branch target.
pub struct Label(pub i64);

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 < 0 {
            write!(f, ".Lm{}", self.0.unsigned_abs())
        } else {
            write!(f, ".L{}", self.0)
        }
    }
}

impl Listing<'_> {
    /// Branch targets, sorted and without duplicates.
    pub fn targets(&self) -> Vec<i64> {
        targets_of(self.items.iter().copied())
    }
}

impl Listing<'_> {
    /// Writes the listing with named labels (kernel entry points) at byte
    /// offsets: `NAME:` before the item at that offset. An instruction
    /// that a label falls inside is written as `.int` words so that the
    /// label lands exactly; labels at the end of the code come last.
    /// Offsets that are not multiples of 4 or lie past the end are left
    /// out (the caller defines them).
    pub fn write_with_labels(&self, f: &mut dyn fmt::Write, labels: &[(u64, &str)]) -> fmt::Result {
        self.write_with_symbols(f, labels, &[])
    }

    /// The literal word of the instruction at `d`, if it has one: its
    /// byte offset in the code.
    pub fn literal_offset(d: &Decoded) -> Option<u64> {
        match d.item {
            Item::Instruction(i)
                if i.operands()
                    .iter()
                    .any(|o| matches!(o, Operand::Literal(_))) =>
            {
                Some(d.offset + 4 * (u64::from(i.len) - 1))
            }
            _ => None,
        }
    }

    /// Like [`Self::write_with_labels`], and writes the literal of each
    /// instruction whose literal word is at an offset of `literals` as the
    /// text given with it (an expression such as `SYM>>32`). An
    /// instruction split by a label keeps its words.
    pub fn write_with_symbols(
        &self,
        f: &mut dyn fmt::Write,
        labels: &[(u64, &str)],
        literals: &[(u64, &str)],
    ) -> fmt::Result {
        let targets = self.targets();
        write_items(
            f,
            self.words,
            self.items.iter().copied(),
            &targets,
            labels,
            literals,
        )
    }
}

/// [`Listing::write_with_symbols`] for the `items` decoded from `words`,
/// whose branch targets are `targets`.
fn write_items(
    f: &mut dyn fmt::Write,
    words_all: &[u32],
    items: impl Iterator<Item = Decoded>,
    targets: &[i64],
    labels: &[(u64, &str)],
    literals: &[(u64, &str)],
) -> fmt::Result {
    let mut placed = vec![false; targets.len()];
    let mut labels_at = |f: &mut dyn fmt::Write, offset: u64| -> fmt::Result {
        for (_, name) in labels.iter().filter(|(o, _)| *o == offset) {
            writeln!(f, "{name}:")?;
        }
        if let Ok(t) = targets.binary_search(&(offset as i64)) {
            placed[t] = true;
            writeln!(f, "{}:", Label(offset as i64))?;
        }
        Ok(())
    };
    for d in items {
        let start = (d.offset / 4) as usize;
        let words = words_all.get(start..start + d.len()).unwrap_or(&[]);
        let end = d.offset + 4 * words.len() as u64;
        let split = labels
            .iter()
            .any(|&(o, _)| o > d.offset && o < end && o % 4 == 0);
        if split {
            // A label inside the instruction: its words one by one.
            for (i, w) in words.iter().enumerate() {
                let offset = d.offset + 4 * i as u64;
                labels_at(f, offset)?;
                write_line(
                    f,
                    offset,
                    &format!(".int {w:#010x}"),
                    std::slice::from_ref(w),
                )?;
            }
            continue;
        }
        labels_at(f, d.offset)?;
        let literal = Listing::literal_offset(&d)
            .and_then(|o| literals.iter().find(|(l, _)| *l == o))
            .map(|(_, text)| *text);
        let text = match (d.item, literal) {
            (Item::Instruction(mut i), Some(expr)) => {
                // A word no literal prints as anything but its hex form.
                const MARK: u32 = 0x7fff_fffd;
                for o in i.operand_array.iter_mut() {
                    if let Operand::Literal(w) = o {
                        *w = MARK;
                    }
                }
                i.to_string().replacen(&format!("{MARK:#x}"), expr, 1)
            }
            (Item::Instruction(i), None) => i.to_string(),
            (Item::Word(w), _) => format!(".int {w:#010x}"),
        };
        write_line(f, d.offset, &text, words)?;
    }
    let end = 4 * words_all.len() as u64;
    for (_, name) in labels.iter().filter(|(o, _)| *o == end) {
        writeln!(f, "{name}:")?;
    }
    // Targets that are not at an instruction boundary (inside an
    // instruction, before or after the code): absolute offsets.
    for (t, done) in targets.iter().zip(placed) {
        if !done {
            writeln!(f, "{} = {t}", Label(*t))?;
        }
    }
    Ok(())
}

/// One listing line: offset comment, text, words comment.
fn write_line(f: &mut dyn fmt::Write, offset: u64, text: &str, words: &[u32]) -> fmt::Result {
    write!(f, "/*{offset:08x}*/ {text:<48} /*")?;
    for w in words {
        write!(f, " {w:08x}")?;
    }
    writeln!(f, " */")
}

impl fmt::Display for Listing<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_with_labels(f, &[])
    }
}

impl fmt::Display for Instruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.row.encoding {
            Encoding::Sop2
            | Encoding::Sop1
            | Encoding::Sopk
            | Encoding::Sopc
            | Encoding::Sopp
            | Encoding::Smrd
            | Encoding::Smem => {
                operand::write_operands(f, self)?;
                if self.row.encoding == Encoding::Smem {
                    smem::write_modifiers(f, self)?;
                }
                Ok(())
            }
            Encoding::Vintrp => vintrp::write(f, self),
            Encoding::Vop3
                if self
                    .row
                    .operands
                    .iter()
                    .any(|o| matches!(o.field, Field::Attr | Field::InterpParam)) =>
            {
                vintrp::write(f, self)
            }
            Encoding::Vop2 | Encoding::Vop1 | Encoding::Vopc | Encoding::Vop3 | Encoding::Vop3p => {
                vector::write(f, self)
            }
            _ => memory::write(f, self),
        }
    }
}

#[cfg(test)]
mod tests;
