//! Source positions of a program's instructions, so that faults, check
//! reports and trace records cite `FILE:LINE:COL` instead of a PC.
//!
//! The table comes from the assembler ([`gcn_asm::AssembleOptions::line_table`]):
//! `gcn_kernel!` puts it in each kernel handle ([`crate::kernel::Kernel::lines`],
//! positions in the `.rs` file for the token and string forms),
//! `gcnrun` builds it when it assembles a source, and
//! [`crate::Program::set_line_table`] takes one from elsewhere. Without a
//! table, reports name the PC and the disassembled instruction only.

use std::fmt;

/// One row of a line table as a `gcn_kernel!` handle holds it (static).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SourceLine {
    /// Byte offset of the instruction in `.text`.
    pub offset: u32,
    /// The source file (for the token and string forms of `gcn_kernel!`,
    /// the `.rs` file as `file!()` names it).
    pub file: &'static str,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// A position in a line table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location<'a> {
    /// The file.
    pub file: &'a str,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

impl fmt::Display for Location<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// Code offset → source position, sorted by offset.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineTable {
    /// (offset, file index, line, column), sorted by offset.
    rows: Vec<(u32, u32, u32, u32)>,
    /// File names, each once.
    files: Vec<String>,
}

impl LineTable {
    /// An empty table.
    pub fn new() -> Self {
        LineTable::default()
    }

    /// Adds the instruction at `offset` (rows may come in any order).
    pub fn push(&mut self, offset: u32, file: &str, line: u32, column: u32) {
        let index = match self.files.iter().position(|f| f == file) {
            Some(i) => i,
            None => {
                self.files.push(file.to_string());
                self.files.len() - 1
            }
        } as u32;
        let row = (offset, index, line, column);
        match self.rows.binary_search_by_key(&offset, |r| r.0) {
            Ok(i) => self.rows[i] = row,
            Err(i) => self.rows.insert(i, row),
        }
    }

    /// The table of a `gcn_kernel!` handle.
    pub fn from_static(rows: &[SourceLine]) -> Self {
        let mut t = LineTable::new();
        for r in rows {
            t.push(r.offset, r.file, r.line, r.column);
        }
        t
    }

    /// The table the assembler recorded.
    pub fn from_assembly(rows: &[gcn_asm::LineEntry]) -> Self {
        let mut t = LineTable::new();
        for r in rows {
            t.push(r.offset, &r.pos.file, r.pos.line, r.pos.column);
        }
        t
    }

    /// Where the instruction at byte offset `pc` came from.
    pub fn at(&self, pc: u32) -> Option<Location<'_>> {
        let i = self.rows.binary_search_by_key(&pc, |r| r.0).ok()?;
        let (_, file, line, column) = self.rows[i];
        Some(Location {
            file: &self.files[file as usize],
            line,
            column,
        })
    }

    /// Rows in the table.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// True when the table has no row.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_found_by_exact_offset() {
        let mut t = LineTable::new();
        t.push(8, "b.s", 3, 1);
        t.push(0, "a.s", 1, 5);
        t.push(4, "a.s", 2, 5);
        assert_eq!(t.at(4).unwrap().to_string(), "a.s:2:5");
        assert_eq!(t.at(8).unwrap().to_string(), "b.s:3:1");
        assert_eq!(t.at(0).unwrap().to_string(), "a.s:1:5");
        // The second word of an instruction is no instruction.
        assert!(t.at(6).is_none());
        assert!(t.at(12).is_none());
        assert_eq!(t.len(), 3);
    }
}
