//! The per-instruction profile of a dispatch: how often each instruction
//! ran and with how many active lanes, hottest first, and the same summed
//! per instruction family (the encoding the words use: SOP2, VOP2, VOP3,
//! DS, MUBUF, …, from the ISA row, never from the mnemonic).
//!
//! Ask for it with [`Launcher::profile`](crate::Launcher::profile) (or
//! `gcnrun --profile`); it arrives in [`LaunchOutcome::profile`](crate::LaunchOutcome::profile).
//! Counting happens only in a profiled dispatch, in a copy of the
//! interpreter loop with a counting hook (two additions per instruction
//! into a per-thread table); an unprofiled dispatch runs the loop it
//! always ran. A profiled dispatch runs every instruction on its own
//! (the interpreter's fused superinstructions are off, as under the
//! checks), so that each is counted at its own PC.
//!
//! ```
//! use gcn_runtime::{gcn_kernel, Dispatch, Memory, Program};
//! use gcn_runtime::gcn_asm::isa::Encoding;
//!
//! gcn_kernel! {
//!     mod count;
//!     .gallium
//!     .gpu tonga
//!     .kernel count                        // four trips round a scalar loop
//!         .args
//!             .arg out, global, 8
//!         .config
//!             .dims x
//!     .text
//!     count:
//!         s_mov_b32      s2, 4
//!     again:
//!         v_add_u32      v0, vcc, 1, v0
//!         s_sub_u32      s2, s2, 1
//!         s_cmp_lg_u32   s2, 0
//!         s_cbranch_scc1 again
//!         s_endpgm
//! }
//!
//! let memory = Memory::default();
//! let program = Program::from_kernel(&memory, &count::COUNT)?;
//! let out = memory.buffer_zeroed::<u32>(1)?;
//! let run = program
//!     .launcher(&count::CountArgs { out: out.ptr() }, &Dispatch::new_1d(32, 32))
//!     .profile(true)
//!     .run()?;
//! let profile = run.profile.expect("asked for");
//! // Hottest first: the loop body ran 4 times, with 32 of 64 lanes active.
//! let add = &profile.instructions[0];
//! assert_eq!((add.count, add.average_lanes()), (4, 32.0));
//! assert_eq!(add.instruction, "v_add_u32 v0, vcc, 1, v0");
//! assert_eq!(add.family, Encoding::Vop2);
//! assert_eq!(profile.total, 1 + 4 * 4 + 1);
//! // The branch (4 times) and s_endpgm (once) are the SOPP family.
//! let sopp = profile.families.iter().find(|f| f.family == Encoding::Sopp).unwrap();
//! assert_eq!((sopp.count, sopp.instructions), (5, 2));
//! println!("{profile}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use gcn_asm::decode::Form;
use gcn_asm::isa::Encoding;

use crate::exec::{Decoded, Env, Hook, Op, Wave};
use crate::lines::LineTable;

/// One instruction of a [`Profile`].
#[derive(Debug, Clone, PartialEq)]
pub struct InstructionProfile {
    /// Byte offset in `.text`.
    pub pc: u32,
    /// The instruction, disassembled.
    pub instruction: String,
    /// `FILE:LINE:COL` of the instruction, when the program has a line
    /// table.
    pub location: Option<String>,
    /// The encoding its words use ([`family_name`] prints it).
    pub family: Encoding,
    /// How many times a wave executed it (summed over the waves).
    pub count: u64,
    /// The EXEC lanes at those executions, summed.
    pub lanes: u64,
}

impl InstructionProfile {
    /// The average number of active (EXEC) lanes per execution, 0–64.
    pub fn average_lanes(&self) -> f64 {
        average(self.lanes, self.count)
    }
}

/// One instruction family of a [`Profile`]: its instructions summed.
#[derive(Debug, Clone, PartialEq)]
pub struct FamilyProfile {
    /// The encoding.
    pub family: Encoding,
    /// Executions of its instructions.
    pub count: u64,
    /// The EXEC lanes at those executions, summed.
    pub lanes: u64,
    /// How many distinct instructions (PCs) of the family ran.
    pub instructions: usize,
}

impl FamilyProfile {
    /// The average number of active (EXEC) lanes per execution, 0–64.
    pub fn average_lanes(&self) -> f64 {
        average(self.lanes, self.count)
    }
}

fn average(lanes: u64, count: u64) -> f64 {
    if count == 0 {
        0.0
    } else {
        lanes as f64 / count as f64
    }
}

/// What a profiled dispatch executed, per instruction and per family, each
/// list hottest first (ties by PC, by family order). Its
/// [`fmt::Display`] is the table `gcnrun --profile` prints.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Profile {
    /// Every instruction that ran, hottest first.
    pub instructions: Vec<InstructionProfile>,
    /// Every family that ran, hottest first.
    pub families: Vec<FamilyProfile>,
    /// Instructions executed in all (the sum of the counts).
    pub total: u64,
}

/// The family's name as the ISA documents it: `SOP2`, `VOP3`, `MUBUF`, ….
pub fn family_name(family: Encoding) -> &'static str {
    match family {
        Encoding::Sop2 => "SOP2",
        Encoding::Sop1 => "SOP1",
        Encoding::Sopk => "SOPK",
        Encoding::Sopc => "SOPC",
        Encoding::Sopp => "SOPP",
        Encoding::Smrd => "SMRD",
        Encoding::Smem => "SMEM",
        Encoding::Vop2 => "VOP2",
        Encoding::Vop1 => "VOP1",
        Encoding::Vopc => "VOPC",
        Encoding::Vop3 => "VOP3",
        Encoding::Vop3p => "VOP3P",
        Encoding::Vintrp => "VINTRP",
        Encoding::Ds => "DS",
        Encoding::Mubuf => "MUBUF",
        Encoding::Mtbuf => "MTBUF",
        Encoding::Mimg => "MIMG",
        Encoding::Exp => "EXP",
        Encoding::Flat => "FLAT",
        Encoding::Global => "GLOBAL",
        Encoding::Scratch => "SCRATCH",
    }
}

/// The encoding an instruction's words use: its row's, or VOP3 for the
/// 64-bit form of a VOP1/VOP2/VOPC/VINTRP row (SDWA and DPP forms count
/// with their row's family).
fn family_of(op: &Op) -> Encoding {
    match op.instr.form {
        Form::Vop3 => Encoding::Vop3,
        Form::Native | Form::Sdwa | Form::Dpp => op.instr.row.encoding,
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let share = |count: u64| 100.0 * average(count, self.total);
        writeln!(f, "profile: {} instructions executed", self.total)?;
        writeln!(
            f,
            "{:>12} {:>6} {:>6}  {:<7} {:>6}  instruction",
            "count", "%", "lanes", "family", "pc"
        )?;
        for i in &self.instructions {
            write!(
                f,
                "{:>12} {:>6.2} {:>6.1}  {:<7} {:#06x}  {}",
                i.count,
                share(i.count),
                i.average_lanes(),
                family_name(i.family),
                i.pc,
                i.instruction
            )?;
            if let Some(loc) = &i.location {
                write!(f, "  ({loc})")?;
            }
            writeln!(f)?;
        }
        writeln!(
            f,
            "{:>12} {:>6} {:>6}  {:<7} {:>6}",
            "count", "%", "lanes", "family", "instrs"
        )?;
        for fam in &self.families {
            writeln!(
                f,
                "{:>12} {:>6.2} {:>6.1}  {:<7} {:>6}",
                fam.count,
                share(fam.count),
                fam.average_lanes(),
                family_name(fam.family),
                fam.instructions
            )?;
        }
        Ok(())
    }
}

/// The counts of one code word: executions and summed EXEC lanes.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Cell {
    count: u64,
    lanes: u64,
}

/// The [`Hook`] of a profiled wave: counts the instruction at the wave's
/// PC, then calls `inner` (the checks, or nothing).
pub(crate) struct Counting<'c, H> {
    /// One cell per code word.
    pub(crate) cells: &'c mut [Cell],
    /// The hook that runs as without profiling.
    pub(crate) inner: H,
}

impl<H: Hook> Hook for Counting<'_, H> {
    #[inline(always)]
    fn before(&mut self, wave: &Wave, op: &Op, slot: usize, env: &Env<'_>) {
        // The loop only runs an op found at `pc / 4`: the cell is there.
        if let Some(cell) = self.cells.get_mut((wave.pc / 4) as usize) {
            cell.count += 1;
            cell.lanes += u64::from(wave.exec().count_ones());
        }
        self.inner.before(wave, op, slot, env);
    }

    #[inline(always)]
    fn after(&mut self, wave: &Wave, op: &Op, slot: usize, env: &Env<'_>) {
        self.inner.after(wave, op, slot, env);
    }
}

/// A table of cells per host thread of a dispatch (each thread locks its
/// own, once per work-group).
pub(crate) fn tables(threads: usize, words: usize) -> Vec<std::sync::Mutex<Vec<Cell>>> {
    (0..threads)
        .map(|_| std::sync::Mutex::new(vec![Cell::default(); words]))
        .collect()
}

/// The profile of the threads' tables.
pub(crate) fn collect(
    tables: Vec<std::sync::Mutex<Vec<Cell>>>,
    ops: &Decoded,
    lines: Option<&LineTable>,
) -> Profile {
    let mut sum = vec![Cell::default(); ops.words()];
    for table in tables {
        let table = table.into_inner().unwrap_or_else(|e| e.into_inner());
        for (s, c) in sum.iter_mut().zip(&table) {
            s.count += c.count;
            s.lanes += c.lanes;
        }
    }
    let mut instructions = Vec::new();
    for (word, cell) in sum.iter().enumerate().filter(|(_, c)| c.count > 0) {
        let pc = (word * 4) as u32;
        let Some(op) = ops.at(pc) else { continue };
        instructions.push(InstructionProfile {
            pc,
            instruction: op.instr.to_string(),
            location: lines.and_then(|l| l.at(pc)).map(|l| l.to_string()),
            family: family_of(op),
            count: cell.count,
            lanes: cell.lanes,
        });
    }
    instructions.sort_by(|a, b| b.count.cmp(&a.count).then(a.pc.cmp(&b.pc)));
    let mut families: Vec<FamilyProfile> = Vec::new();
    for i in &instructions {
        match families.iter_mut().find(|f| f.family == i.family) {
            Some(f) => {
                f.count += i.count;
                f.lanes += i.lanes;
                f.instructions += 1;
            }
            None => families.push(FamilyProfile {
                family: i.family,
                count: i.count,
                lanes: i.lanes,
                instructions: 1,
            }),
        }
    }
    // Stable: equal counts keep the order of their hottest instruction.
    families.sort_by_key(|f| std::cmp::Reverse(f.count));
    Profile {
        total: instructions.iter().map(|i| i.count).sum(),
        instructions,
        families,
    }
}
