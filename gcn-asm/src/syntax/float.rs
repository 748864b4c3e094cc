//! Floating-point literals: `1.5`, `.45`, `-2.`, `100e-6`, `0x1a2.4b5p5`,
//! with the optional `h` (half), `s` (single) and `l` (double) suffixes.

use half::f16;

/// The precision a literal's suffix asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FloatSuffix {
    /// No suffix: the operand's type decides.
    None,
    /// `h`: half precision.
    Half,
    /// `s`: single precision.
    Single,
    /// `l`: double precision.
    Double,
}

/// A parsed floating-point literal, correctly rounded to each precision.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FloatLiteral {
    /// The value rounded to double precision.
    pub double: f64,
    /// The value rounded to single precision (directly from the text, so
    /// there is no double rounding).
    pub single: f32,
    /// The suffix.
    pub suffix: FloatSuffix,
}

impl FloatLiteral {
    /// A literal holding `value` with no suffix.
    pub fn from_f64(value: f64) -> Self {
        FloatLiteral {
            double: value,
            single: value as f32,
            suffix: FloatSuffix::None,
        }
    }

    /// IEEE half-precision bits.
    pub fn half_bits(&self) -> u16 {
        f16::from_f64(self.double).to_bits()
    }

    /// IEEE single-precision bits.
    pub fn single_bits(&self) -> u32 {
        self.single.to_bits()
    }

    /// IEEE double-precision bits.
    pub fn double_bits(&self) -> u64 {
        self.double.to_bits()
    }

    /// The half-precision bits, or an error when the value is too big for
    /// it (it rounds to infinity; clrxasm: "Absolute value of number is too
    /// big"). Text never spells an infinity, so any infinity is an overflow.
    pub fn half_bits_checked(&self) -> Result<u16, String> {
        let bits = self.half_bits();
        if bits & 0x7fff == 0x7c00 {
            return Err(too_big("a half", "65504"));
        }
        Ok(bits)
    }

    /// The single-precision bits, or an error when the value is too big
    /// for them (see [`FloatLiteral::half_bits_checked`]).
    pub fn single_bits_checked(&self) -> Result<u32, String> {
        if self.single.is_infinite() {
            return Err(too_big("a single", "3.4028235e38"));
        }
        Ok(self.single_bits())
    }

    /// The double-precision bits, or an error when the value is too big
    /// for them (see [`FloatLiteral::half_bits_checked`]).
    pub fn double_bits_checked(&self) -> Result<u64, String> {
        if self.double.is_infinite() {
            return Err(too_big("a double", "1.7976931348623157e308"));
        }
        Ok(self.double_bits())
    }

    /// The negated literal.
    pub fn negated(self) -> Self {
        FloatLiteral {
            double: -self.double,
            single: -self.single,
            suffix: self.suffix,
        }
    }
}

fn too_big(what: &str, max: &str) -> String {
    format!("absolute value of number is too big for {what} (largest {max})")
}

/// Parses a floating-point literal (optionally signed) at the start of
/// `text`. Returns the literal and the number of bytes it takes, or `None`
/// when `text` does not start with one. A plain integer (`12`, `0x10`) is
/// not a floating-point literal.
pub fn parse_float_literal(text: &str) -> Option<(FloatLiteral, usize)> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let negative = match bytes.first() {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    // Most operands are registers or names: reject them before the digit
    // scanners (this runs for every source operand).
    if !bytes
        .get(i)
        .is_some_and(|&b| b.is_ascii_digit() || b == b'.')
    {
        return None;
    }
    let body_start = i;
    let (mut lit, len) = if bytes.len() > i + 1 && bytes[i] == b'0' && (bytes[i + 1] | 0x20) == b'x'
    {
        parse_hex_float(&text[i..])?
    } else {
        parse_decimal_float(&text[i..])?
    };
    i = body_start + len;
    lit.suffix = match bytes.get(i).map(|b| b | 0x20) {
        Some(b'h') => FloatSuffix::Half,
        Some(b's') => FloatSuffix::Single,
        Some(b'l') => FloatSuffix::Double,
        _ => FloatSuffix::None,
    };
    if lit.suffix != FloatSuffix::None {
        i += 1;
    }
    if bytes
        .get(i)
        .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
    {
        return None;
    }
    Some((if negative { lit.negated() } else { lit }, i))
}

fn parse_decimal_float(text: &str) -> Option<(FloatLiteral, usize)> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i;
    let mut is_float = false;
    let mut frac_digits = 0;
    if i < bytes.len() && bytes[i] == b'.' {
        is_float = true;
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
            frac_digits += 1;
        }
    }
    if int_digits == 0 && frac_digits == 0 {
        return None;
    }
    let mantissa_end = i;
    let mut exp_end = i;
    if i < bytes.len() && (bytes[i] | 0x20) == b'e' {
        let mut j = i + 1;
        if j < bytes.len() && (bytes[j] == b'+' || bytes[j] == b'-') {
            j += 1;
        }
        let digits_start = j;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        if j > digits_start {
            is_float = true;
            exp_end = j;
        } else if is_float {
            // `1.5e`: an empty exponent counts as zero.
            exp_end = j;
        }
    }
    if !is_float {
        return None;
    }
    let mut number = String::with_capacity(exp_end + 2);
    number.push_str(&text[..mantissa_end]);
    if number.ends_with('.') {
        number.push('0');
    }
    if number.starts_with('.') {
        number.insert(0, '0');
    }
    let exponent = &text[mantissa_end..exp_end];
    if exponent.len() > 1 && exponent.as_bytes()[exponent.len() - 1].is_ascii_digit() {
        number.push_str(exponent);
    }
    let double: f64 = number.parse().ok()?;
    let single: f32 = number.parse().ok()?;
    Some((
        FloatLiteral {
            double,
            single,
            suffix: FloatSuffix::None,
        },
        exp_end,
    ))
}

/// `0x` HEXDIGITS [`.` HEXDIGITS] [`p` [+-] DIGITS]; at least a `.` or a `p`
/// makes it a float.
fn parse_hex_float(text: &str) -> Option<(FloatLiteral, usize)> {
    let bytes = text.as_bytes();
    let mut i = 2;
    let mut mantissa: u64 = 0;
    let mut exponent: i64 = 0;
    let mut digits = 0;
    let mut is_float = false;
    let mut push_digit = |d: u64, after_point: bool, exponent: &mut i64| {
        if mantissa >> 60 == 0 {
            mantissa = (mantissa << 4) | d;
            if after_point {
                *exponent -= 4;
            }
        } else if !after_point {
            // Precision beyond 64 bits: the digit only scales the value.
            *exponent += 4;
        }
    };
    while i < bytes.len() && bytes[i].is_ascii_hexdigit() {
        push_digit(hex_value(bytes[i]), false, &mut exponent);
        i += 1;
        digits += 1;
    }
    if i < bytes.len() && bytes[i] == b'.' {
        is_float = true;
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_hexdigit() {
            push_digit(hex_value(bytes[i]), true, &mut exponent);
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    if i < bytes.len() && (bytes[i] | 0x20) == b'p' {
        let mut j = i + 1;
        let mut negative = false;
        if j < bytes.len() && (bytes[j] == b'+' || bytes[j] == b'-') {
            negative = bytes[j] == b'-';
            j += 1;
        }
        let start = j;
        let mut e: i64 = 0;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            e = (e * 10 + i64::from(bytes[j] - b'0')).min(100_000);
            j += 1;
        }
        if j == start {
            return None;
        }
        exponent += if negative { -e } else { e };
        is_float = true;
        i = j;
    }
    if !is_float {
        return None;
    }
    let double = scale(mantissa as f64, exponent);
    Some((
        FloatLiteral {
            double,
            single: double as f32,
            suffix: FloatSuffix::None,
        },
        i,
    ))
}

fn hex_value(b: u8) -> u64 {
    (b as char).to_digit(16).unwrap_or(0) as u64
}

/// `value * 2^exponent` without overflowing the intermediate power.
fn scale(mut value: f64, mut exponent: i64) -> f64 {
    while exponent > 1000 {
        value *= 2f64.powi(1000);
        exponent -= 1000;
    }
    while exponent < -1000 {
        value *= 2f64.powi(-1000);
        exponent += 1000;
    }
    value * 2f64.powi(exponent as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Option<(f64, FloatSuffix, usize)> {
        parse_float_literal(text).map(|(l, n)| (l.double, l.suffix, n))
    }

    #[test]
    fn decimal_forms() {
        assert_eq!(parse("1.5"), Some((1.5, FloatSuffix::None, 3)));
        assert_eq!(parse("-2."), Some((-2.0, FloatSuffix::None, 3)));
        assert_eq!(parse(".45,"), Some((0.45, FloatSuffix::None, 3)));
        assert_eq!(parse("100e-6"), Some((100e-6, FloatSuffix::None, 6)));
        assert_eq!(parse("+1.5e"), Some((1.5, FloatSuffix::None, 5)));
        assert_eq!(parse("0.5l"), Some((0.5, FloatSuffix::Double, 4)));
        assert_eq!(parse("1.0h "), Some((1.0, FloatSuffix::Half, 4)));
    }

    #[test]
    fn integers_and_junk_are_not_floats() {
        assert_eq!(parse("12"), None);
        assert_eq!(parse("0x10"), None);
        assert_eq!(parse("1f"), None);
        assert_eq!(parse("1.5x"), None);
        assert_eq!(parse("v1"), None);
        assert_eq!(parse("."), None);
    }

    #[test]
    fn hex_floats() {
        assert_eq!(parse("0x1.8p1"), Some((3.0, FloatSuffix::None, 7)));
        assert_eq!(parse("0x1p-2"), Some((0.25, FloatSuffix::None, 6)));
        let (v, _, _) = parse("0x1a2.4b5p5").unwrap();
        assert!((v - (0x1a24b5 as f64) / 4096.0 * 32.0).abs() < 1e-9);
    }

    #[test]
    fn conversions() {
        let (l, _) = parse_float_literal("0.15915494").unwrap();
        assert_eq!(l.single_bits(), 0x3e22f983);
        assert_eq!(l.half_bits(), 0x3118);
        assert_eq!(
            FloatLiteral::from_f64(1.0).double_bits(),
            0x3ff0_0000_0000_0000
        );
    }
}
