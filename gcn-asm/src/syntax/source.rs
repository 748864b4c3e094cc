//! Source text to logical lines and statements: comments (`#`, `/* */`),
//! `\` line continuation, `;` statement separators, and the mapping from a
//! byte of a logical line back to its physical line and column.

/// Bytes that need attention while reading a line (everything else is
/// copied as is), as a table so the scan loop stays tight.
static LINE_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b'\n' as usize] = true;
    t[b'#' as usize] = true;
    t[b'/' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'"' as usize] = true;
    t[b'\'' as usize] = true;
    t[b';' as usize] = true;
    t
};

/// Bytes that need attention while splitting statements.
static STATEMENT_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b';' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'"' as usize] = true;
    t[b'\'' as usize] = true;
    t
};

/// Where a run of a logical line starts in the source: the logical line is
/// built from pieces of one or more physical lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    /// Offset in the logical line.
    pub offset: u32,
    /// Physical line (index into the source's lines, 0-based).
    pub line: u32,
    /// 1-based column of the byte at `offset`.
    pub column: u32,
}

/// Reads logical lines out of a source text.
///
/// `buf` and `segments` are reused between lines so that reading a plain
/// line does not allocate.
#[derive(Debug, Default)]
pub struct LineReader {
    /// The logical line: comments replaced by spaces (so columns stay
    /// right), continuations joined.
    pub buf: String,
    /// Start of each physical piece of `buf`.
    pub segments: Vec<Segment>,
    /// False when `buf` has no `;`, quote or backslash: it is one
    /// statement, and [`next_statement`] need not scan it.
    pub separators: bool,
}

impl LineReader {
    /// Reads the logical line of `text` starting at `*pos` (physical line
    /// index `*line`), advancing both past it. Returns false at the end of
    /// the text.
    pub fn read(&mut self, text: &str, pos: &mut usize, line: &mut u32) -> bool {
        self.buf.clear();
        self.segments.clear();
        self.separators = false;
        let bytes = text.as_bytes();
        let mut i = *pos;
        if i >= bytes.len() {
            return false;
        }
        self.segments.push(Segment {
            offset: 0,
            line: *line,
            column: 1,
        });
        let mut run = i;
        let mut in_block_comment = false;
        loop {
            let Some(&b) = bytes.get(i) else {
                if !in_block_comment {
                    self.buf.push_str(&text[run..i]);
                }
                break;
            };
            if in_block_comment {
                if b == b'*' && bytes.get(i + 1) == Some(&b'/') {
                    self.push_spaces(2);
                    i += 2;
                    run = i;
                    in_block_comment = false;
                } else if b == b'\n' {
                    i += 1;
                    *line += 1;
                    self.new_segment(*line);
                } else {
                    self.buf.push(' ');
                    i += 1;
                }
                continue;
            }
            if !LINE_SPECIAL[b as usize] {
                // Up to the next byte that needs attention, as a slice
                // search (no bounds check per byte).
                i += bytes[i..]
                    .iter()
                    .position(|&b| LINE_SPECIAL[b as usize])
                    .unwrap_or(bytes.len() - i);
                continue;
            }
            match b {
                b'\n' => {
                    self.buf.push_str(&text[run..i]);
                    if self.buf.ends_with('\r') {
                        self.buf.pop();
                    }
                    i += 1;
                    *line += 1;
                    break;
                }
                b'\\' => {
                    self.separators = true;
                    let next = bytes.get(i + 1).copied();
                    if next == Some(b'\n')
                        || (next == Some(b'\r') && bytes.get(i + 2) == Some(&b'\n'))
                    {
                        self.buf.push_str(&text[run..i]);
                        i += if next == Some(b'\r') { 3 } else { 2 };
                        *line += 1;
                        self.new_segment(*line);
                        run = i;
                    } else {
                        // An escape inside an operand (`\arg`, `\@`): keep
                        // both bytes so `\#` or `\;` are not separators.
                        i += if next.is_some_and(|n| n != b'\n') {
                            2
                        } else {
                            1
                        };
                        i = i.min(bytes.len());
                        while !text.is_char_boundary(i) {
                            i += 1;
                        }
                    }
                }
                b'#' => {
                    self.buf.push_str(&text[run..i]);
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                    run = i;
                }
                b'/' if bytes.get(i + 1) == Some(&b'*') => {
                    self.buf.push_str(&text[run..i]);
                    self.push_spaces(2);
                    i += 2;
                    run = i;
                    in_block_comment = true;
                }
                b'"' => {
                    self.separators = true;
                    i = skip_quoted(bytes, i, b'"');
                }
                b'\'' => {
                    self.separators = true;
                    i = skip_char_literal(bytes, i);
                }
                b';' => {
                    self.separators = true;
                    i += 1;
                }
                _ => i += 1,
            }
        }
        *pos = i;
        true
    }

    fn push_spaces(&mut self, n: usize) {
        for _ in 0..n {
            self.buf.push(' ');
        }
    }

    fn new_segment(&mut self, line: u32) {
        self.segments.push(Segment {
            offset: self.buf.len() as u32,
            line,
            column: 1,
        });
    }

    /// Physical line index and column of byte `offset` of the logical line.
    pub fn position(&self, offset: usize) -> (u32, u32) {
        let offset = offset as u32;
        let seg = self
            .segments
            .iter()
            .rev()
            .find(|s| s.offset <= offset)
            .or(self.segments.first())
            .copied()
            .unwrap_or(Segment {
                offset: 0,
                line: 0,
                column: 1,
            });
        (seg.line, seg.column + offset.saturating_sub(seg.offset))
    }
}

/// Skips a quoted string starting at `i` (at the quote); stops at the end
/// of the line when unterminated (the parser reports it).
fn skip_quoted(bytes: &[u8], mut i: usize, quote: u8) -> usize {
    i += 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if i + 1 < bytes.len() && bytes[i + 1] != b'\n' => i += 2,
            b'\n' => return i,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    i.min(bytes.len())
}

/// Skips a character literal (`'a'`, `'\n'`, `'\x41'`) at `i`, or just the
/// quote when it does not start one.
fn skip_char_literal(bytes: &[u8], i: usize) -> usize {
    match bytes.get(i + 1) {
        Some(b'\\') => {
            let mut j = i + 2;
            while j < bytes.len() && j < i + 8 && bytes[j] != b'\n' {
                if bytes[j] == b'\'' && j > i + 2 {
                    return j + 1;
                }
                j += 1;
            }
            i + 1
        }
        Some(&c) if c != b'\n' && bytes.get(i + 2) == Some(&b'\'') => i + 3,
        _ => i + 1,
    }
}

/// Finds the next statement of a logical line from `*pos`: returns its
/// byte range and moves `*pos` past the `;` that ends it.
pub fn next_statement(line: &str, pos: &mut usize) -> Option<(usize, usize)> {
    let bytes = line.as_bytes();
    let start = *pos;
    if start > bytes.len() || (start == bytes.len() && start != 0) {
        return None;
    }
    if start == bytes.len() {
        *pos = start + 1;
        return Some((start, start));
    }
    let mut i = start;
    while i < bytes.len() {
        if !STATEMENT_SPECIAL[bytes[i] as usize] {
            i += 1;
            continue;
        }
        match bytes[i] {
            b';' => {
                *pos = i + 1;
                return Some((start, i));
            }
            b'"' => i = skip_quoted(bytes, i, b'"'),
            b'\'' => i = skip_char_literal(bytes, i),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    *pos = bytes.len() + 1;
    Some((start, bytes.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        let mut r = LineReader::default();
        let mut pos = 0;
        let mut line = 0;
        let mut out = Vec::new();
        while r.read(text, &mut pos, &mut line) {
            out.push(r.buf.clone());
        }
        out
    }

    #[test]
    fn comments_and_continuations() {
        assert_eq!(lines("a # c\nb"), vec!["a ", "b"]);
        assert_eq!(lines("a /* x */ b"), vec!["a         b"]);
        let l = lines("a /* x\n y */ b\nc");
        assert_eq!(l[0].split_whitespace().collect::<Vec<_>>(), vec!["a", "b"]);
        assert_eq!(l[1], "c");
        assert_eq!(lines("a \\\nb"), vec!["a b"]);
        assert_eq!(lines(".ascii \"#;\" # x"), vec![".ascii \"#;\" "]);
        assert_eq!(lines(".byte '#'"), vec![".byte '#'"]);
        assert_eq!(lines("a\r\nb"), vec!["a", "b"]);
    }

    #[test]
    fn positions() {
        let mut r = LineReader::default();
        let (mut pos, mut line) = (0, 0);
        let text = "x\nab \\\n  cd";
        assert!(r.read(text, &mut pos, &mut line));
        assert!(r.read(text, &mut pos, &mut line));
        assert_eq!(r.buf, "ab   cd");
        assert_eq!(r.position(1), (1, 2));
        assert_eq!(r.position(5), (2, 3));
        assert!(!r.read(text, &mut pos, &mut line));
    }

    #[test]
    fn statements() {
        let line = ".int 1; .ascii \";\"; x";
        let mut pos = 0;
        let mut out = Vec::new();
        while let Some((s, e)) = next_statement(line, &mut pos) {
            out.push(&line[s..e]);
        }
        assert_eq!(out, vec![".int 1", " .ascii \";\"", " x"]);
    }
}
