//! Output sections and the location counter.

/// One section being assembled.
#[derive(Debug, Clone)]
pub struct Section {
    /// Name (`.text`, `.rodata`, …).
    pub name: String,
    /// Contents so far.
    pub data: Vec<u8>,
    /// Holds code: alignment without a fill value pads with `s_nop`.
    pub code: bool,
    /// Alignment requested with `.section … align=N` (0 when none).
    pub align: u64,
    /// The flags `.section NAME, "FLAGS"` gave (`a`, `w`, `x`).
    pub flags: String,
    /// The type `.section NAME, "FLAGS", @TYPE` gave, lowercase
    /// (`progbits`, `note`, `nobits`); empty when none.
    pub kind: String,
    /// Made by `.section` (not by a pseudo-op of the format).
    pub user: bool,
}

impl Section {
    /// An empty section.
    pub fn new(name: &str, code: bool) -> Self {
        Section {
            name: name.to_string(),
            data: Vec::new(),
            code,
            align: 0,
            flags: String::new(),
            kind: String::new(),
            user: false,
        }
    }
}

/// Where `.` points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CurrentSection {
    /// A real section (index into the section list).
    Section(usize),
    /// The absolute section (`.struct`, `.offset`): only addresses, no data.
    Absolute,
}

/// Appends `count` bytes of the repeating little-endian `pattern` (`width`
/// bytes wide).
pub fn fill_pattern(data: &mut Vec<u8>, count: usize, pattern: u64, width: usize) {
    let bytes = pattern.to_le_bytes();
    let width = width.clamp(1, 8);
    data.reserve(count);
    for i in 0..count {
        data.push(bytes[i % width]);
    }
}

/// Appends `count` bytes of code padding: zeros up to a word boundary, then
/// `word`s (the `s_nop 0` encoding), then zeros for a trailing partial word.
pub fn fill_code(data: &mut Vec<u8>, count: usize, word: u32) {
    let end = data.len() + count;
    while data.len() < end && data.len() & 3 != 0 {
        data.push(0);
    }
    let bytes = word.to_le_bytes();
    while data.len() + 4 <= end {
        data.extend_from_slice(&bytes);
    }
    data.resize(end, 0);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_and_code_padding() {
        let mut d = vec![1u8];
        fill_pattern(&mut d, 5, 0x0201, 2);
        assert_eq!(d, vec![1, 1, 2, 1, 2, 1]);
        let mut c = vec![0xaa; 2];
        fill_code(&mut c, 10, 0xbf80_0000);
        assert_eq!(
            c,
            vec![0xaa, 0xaa, 0, 0, 0, 0, 0x80, 0xbf, 0, 0, 0x80, 0xbf]
        );
    }
}
