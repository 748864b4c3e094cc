//! A read position inside the text of one statement.

/// Byte-oriented cursor over a statement's text.
///
/// Assembly syntax is ASCII; non-ASCII bytes only ever appear inside string
/// literals and comments, so byte positions are always on char boundaries
/// wherever the parser slices.
#[derive(Debug, Clone, Copy)]
pub struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

/// Class bits of each byte for symbol scanning: one table load per byte
/// instead of a chain of range tests (symbol names are the most scanned
/// thing in a source).
static SYMBOL_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let start = c.is_ascii_alphabetic() || c == b'_' || c == b'.' || c == b'$';
        if start {
            t[b] = SYMBOL_START | SYMBOL_CHAR;
        } else if c.is_ascii_digit() {
            t[b] = SYMBOL_CHAR;
        }
        b += 1;
    }
    t
};
const SYMBOL_START: u8 = 1;
const SYMBOL_CHAR: u8 = 2;

/// True for bytes that may start a symbol name (`[A-Za-z_.$]`).
#[inline]
pub fn is_symbol_start(b: u8) -> bool {
    SYMBOL_CLASS[b as usize] & SYMBOL_START != 0
}

/// True for bytes that may continue a symbol name (`[A-Za-z0-9_.$]`).
#[inline]
pub fn is_symbol_char(b: u8) -> bool {
    SYMBOL_CLASS[b as usize] & SYMBOL_CHAR != 0
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text`.
    pub fn new(text: &'a str) -> Self {
        Cursor { text, pos: 0 }
    }

    /// A cursor at byte `pos` of `text`.
    pub fn at(text: &'a str, pos: usize) -> Self {
        Cursor { text, pos }
    }

    /// The whole text.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// Current byte offset.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Moves to byte offset `pos`.
    pub fn set_pos(&mut self, pos: usize) {
        self.pos = pos.min(self.text.len());
    }

    /// The text not read yet.
    pub fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    /// True when everything has been read.
    pub fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    /// The next byte, if any.
    pub fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    /// The byte `n` positions ahead, if any.
    pub fn peek_at(&self, n: usize) -> Option<u8> {
        self.text.as_bytes().get(self.pos + n).copied()
    }

    /// Advances by `n` bytes.
    pub fn bump(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.text.len());
    }

    /// Skips spaces and tabs.
    pub fn skip_spaces(&mut self) {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() && (bytes[self.pos] == b' ' || bytes[self.pos] == b'\t') {
            self.pos += 1;
        }
    }

    /// Skips spaces, then consumes `b` if it is next.
    pub fn eat(&mut self, b: u8) -> bool {
        self.skip_spaces();
        if self.peek() == Some(b) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Skips spaces, then consumes `word` (ASCII case-insensitive) if it is next
    /// and is not followed by a symbol character.
    pub fn eat_keyword(&mut self, word: &str) -> bool {
        self.skip_spaces();
        let rest = self.rest().as_bytes();
        let n = word.len();
        if rest.len() >= n
            && rest[..n].eq_ignore_ascii_case(word.as_bytes())
            && !rest.get(n).is_some_and(|&b| is_symbol_char(b))
        {
            self.pos += n;
            true
        } else {
            false
        }
    }

    /// Skips spaces, then reads a symbol name (`[A-Za-z_.$][A-Za-z0-9_.$]*`),
    /// returning it with its start offset. Does not move when there is none.
    pub fn symbol(&mut self) -> Option<(&'a str, usize)> {
        self.skip_spaces();
        let bytes = self.text.as_bytes();
        let start = self.pos;
        if start < bytes.len() && is_symbol_start(bytes[start]) {
            let rest = &bytes[start + 1..];
            let end = start
                + 1
                + rest
                    .iter()
                    .position(|&b| !is_symbol_char(b))
                    .unwrap_or(rest.len());
            self.pos = end;
            Some((&self.text[start..end], start))
        } else {
            None
        }
    }

    /// Skips spaces and reports whether only spaces remain.
    pub fn is_blank(&mut self) -> bool {
        self.skip_spaces();
        self.at_end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_reads_symbols_and_keywords() {
        let mut c = Cursor::new("  vcc_lo, Offset:12");
        assert_eq!(c.symbol(), Some(("vcc_lo", 2)));
        assert!(c.eat(b','));
        assert!(!c.eat_keyword("offs"));
        assert!(c.eat_keyword("offset"));
        assert!(c.eat(b':'));
        assert_eq!(c.rest(), "12");
        assert!(!c.is_blank());
    }
}
