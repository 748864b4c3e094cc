//! OpenCL/HIP `printf` on the device: the records a kernel leaves in the
//! printf buffer, formatted on the host after the launch.
//!
//! LLVM lowers each `printf` call of an OpenCL kernel (AMDGPU's printf
//! runtime binding) to a call of the device libraries' `__printf_alloc`,
//! which reserves a record in the buffer whose address the kernel finds in
//! its `hidden_printf_buffer` argument, and stores into it the call's id
//! and its arguments. The format strings stay on the host side, in the
//! code object's metadata (`amdhsa.printf`: `ID:N:SIZE…:FORMAT`).
//!
//! The buffer: a `u32` write offset (the bytes used after the 8-byte
//! header; `__printf_alloc` advances it atomically), a `u32` size (the
//! whole buffer; a record that would not fit is refused and that `printf`
//! returns -1), then the records, each a `u32` format id and the
//! arguments, `SIZE` bytes each as the format lists them. A string
//! argument is stored inline (its bytes and a NUL, padded).
//!
//! Formatting follows C99's `printf` (flags `-+ #0`, width and precision,
//! also as `*` arguments, the
//! length modifiers `hh h l ll`; conversions `d i u o x X c s f F e E g G a
//! A p %`) plus OpenCL's vector specifier `vN` (`%v4hld`: the elements of
//! an `int4` joined by commas), so the text is what the host C library
//! would print. A size an argument cannot have for its conversion, or a
//! record cut short, is an error naming the record and the conversion.
//!
//! HIP's `printf` reaches the host another way, as hostcall messages
//! ([`crate::hostcall`]), and is formatted by the same code
//! (`format_with`).

use std::fmt;

/// Bytes before the first record: the write offset and the size.
pub const HEADER_BYTES: usize = 8;

/// A format string of the code object's metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Format {
    /// The id a record starts with.
    pub id: u32,
    /// The bytes each argument takes in a record, in order.
    pub arg_sizes: Vec<u32>,
    /// The format string, unescaped (the text `printf` was given).
    pub format: String,
}

/// Why a record could not be formatted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrintfError {
    /// Byte offset of the record in the buffer.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PrintfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "printf record at byte {} of the printf buffer: {}",
            self.offset, self.message
        )
    }
}

impl std::error::Error for PrintfError {}

/// The text of every record of a printf buffer (`bytes`, header included),
/// in the order the records were written. Records past the buffer's end
/// (the write offset counts refused records too) are ignored, as the
/// device refused them.
pub fn format_buffer(formats: &[Format], bytes: &[u8]) -> Result<String, PrintfError> {
    let word = |at: usize| -> Option<u32> {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let used = word(0).unwrap_or(0) as usize;
    let end = HEADER_BYTES.saturating_add(used).min(bytes.len());
    let mut out = String::new();
    let mut at = HEADER_BYTES;
    while at + 4 <= end {
        let id = word(at).unwrap_or(0);
        // A record whose allocation was refused was never written; the
        // write offset never moves past the size, so a zero id means the
        // rest is unwritten.
        let Some(format) = formats.iter().find(|f| f.id == id) else {
            return Err(PrintfError {
                offset: at,
                message: format!(
                    "format id {id} is not in the code object's printf formats (ids: {})",
                    formats
                        .iter()
                        .map(|f| f.id.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            });
        };
        let size: usize = format.arg_sizes.iter().map(|&s| s as usize).sum();
        let args = bytes
            .get(at + 4..(at + 4).saturating_add(size))
            .filter(|_| at + 4 + size <= end)
            .ok_or_else(|| PrintfError {
                offset: at,
                message: format!(
                    "the record of format {id} needs {size} bytes of arguments, past the {end} bytes written"
                ),
            })?;
        let mut values = Vec::with_capacity(format.arg_sizes.len());
        let mut pos = 0;
        for &s in &format.arg_sizes {
            values.push(&args[pos..pos + s as usize]);
            pos += s as usize;
        }
        out.push_str(
            &format_record(&format.format, &values).map_err(|message| PrintfError {
                offset: at,
                message: format!("format {id} ({:?}): {message}", format.format),
            })?,
        );
        at += 4 + size;
    }
    Ok(out)
}

/// One conversion specification, parsed.
#[derive(Debug, Clone, Copy, Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: Option<usize>,
    precision: Option<usize>,
    /// OpenCL's vector length (`v2` … `v16`).
    vector: Option<usize>,
    /// Bytes of an element named by the length modifier (`hh` 1, `h` 2,
    /// `hl` 4, `l` 8), `None` without one.
    length: Option<usize>,
    conversion: char,
}

impl Spec {
    /// The sign a converted number starts with: `-` when negative, else
    /// `+` or a space as the flags ask.
    fn sign(&self, negative: bool) -> &'static str {
        if negative {
            "-"
        } else if self.plus {
            "+"
        } else if self.space {
            " "
        } else {
            ""
        }
    }
}

/// Formats one record: `format` with the arguments' bytes `args`.
pub fn format_record(format: &str, args: &[&[u8]]) -> Result<String, String> {
    let mut args = args.iter();
    format_with(format, |conversion| {
        args.next()
            .copied()
            .ok_or_else(|| format!("no argument for %{conversion}"))
    })
}

/// Formats `format`, taking each argument's bytes from `next_arg`, which
/// is called once per argument in order with the conversion character
/// that consumes it (`*` for a width or precision given as an argument,
/// an `int`): how the bytes are laid out is the caller's (OpenCL's printf
/// buffer records, HIP's hostcall messages, [`crate::hostcall`]); the
/// formatting is this one.
pub(crate) fn format_with<'a>(
    format: &str,
    mut next_arg: impl FnMut(char) -> Result<&'a [u8], String>,
) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = format.chars().peekable();
    // A width or precision `*`: an `int` argument.
    fn star<'a>(
        next_arg: &mut impl FnMut(char) -> Result<&'a [u8], String>,
    ) -> Result<i32, String> {
        next_arg('*').map(|b| unsigned(&b[..b.len().min(4)]) as u32 as i32)
    }
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut spec = Spec::default();
        while let Some(&f) = chars.peek() {
            match f {
                '-' => spec.left = true,
                '+' => spec.plus = true,
                ' ' => spec.space = true,
                '#' => spec.alt = true,
                '0' => spec.zero = true,
                _ => break,
            }
            chars.next();
        }
        let number = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>| {
            let mut n: Option<usize> = None;
            while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                n = Some(n.unwrap_or(0).saturating_mul(10).saturating_add(d as usize));
                chars.next();
            }
            n
        };
        spec.width = number(&mut chars);
        if chars.peek() == Some(&'*') {
            chars.next();
            // A negative width is the `-` flag and its magnitude.
            let w = star(&mut next_arg)?;
            spec.left |= w < 0;
            spec.width = Some(w.unsigned_abs() as usize);
        }
        if chars.peek() == Some(&'.') {
            chars.next();
            spec.precision = Some(number(&mut chars).unwrap_or(0));
            if chars.peek() == Some(&'*') {
                chars.next();
                // A negative precision is as if none were given.
                let p = star(&mut next_arg)?;
                spec.precision = usize::try_from(p).ok();
            }
        }
        if chars.peek() == Some(&'v') {
            chars.next();
            let n = number(&mut chars);
            if !matches!(n, Some(2 | 3 | 4 | 8 | 16)) {
                return Err("a vector specifier must be v2, v3, v4, v8 or v16".into());
            }
            spec.vector = n;
        }
        spec.length = match chars.peek() {
            Some('h') => {
                chars.next();
                match chars.peek() {
                    Some('h') => {
                        chars.next();
                        Some(1)
                    }
                    Some('l') => {
                        chars.next();
                        Some(4)
                    }
                    _ => Some(2),
                }
            }
            Some('l') => {
                chars.next();
                if chars.peek() == Some(&'l') {
                    chars.next();
                }
                Some(8)
            }
            Some('z' | 't' | 'j') => {
                chars.next();
                Some(8)
            }
            _ => None,
        };
        spec.conversion = chars.next().ok_or("the format ends inside a conversion")?;
        if spec.conversion == '%' {
            out.push('%');
            continue;
        }
        let bytes = next_arg(spec.conversion)?;
        match spec.vector {
            None => out.push_str(&convert(&spec, bytes)?),
            Some(n) => {
                let size = spec
                    .length
                    .ok_or("a vector conversion needs a length modifier (hh, h, hl or l)")?;
                // A 3-element vector is stored as 4.
                if bytes.len() < n * size {
                    return Err(format!(
                        "a v{n} argument of {size}-byte elements has only {} bytes",
                        bytes.len()
                    ));
                }
                let elements: Vec<String> = (0..n)
                    .map(|i| convert(&spec, &bytes[i * size..(i + 1) * size]))
                    .collect::<Result<_, _>>()?;
                out.push_str(&elements.join(","));
            }
        }
    }
    Ok(out)
}

/// Little-endian bytes as an unsigned integer (at most 8 are read).
fn unsigned(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = bytes.len().min(8);
    b[..n].copy_from_slice(&bytes[..n]);
    u64::from_le_bytes(b)
}

/// Formats one value.
fn convert(spec: &Spec, bytes: &[u8]) -> Result<String, String> {
    let c = spec.conversion;
    let (sign, body, numeric) = match c {
        'd' | 'i' | 'u' | 'o' | 'x' | 'X' | 'c' => {
            // The value as the length modifier narrows it (C converts
            // the promoted argument back to the named type).
            let width = spec.length.unwrap_or(4).min(bytes.len()).max(1);
            let raw = unsigned(&bytes[..width.min(bytes.len())]);
            let bits = 8 * width as u32;
            let mask = if bits >= 64 {
                u64::MAX
            } else {
                (1 << bits) - 1
            };
            let raw = raw & mask;
            if c == 'c' {
                let ch = char::from(raw as u8);
                return Ok(pad(spec, "", &ch.to_string(), false));
            }
            if matches!(c, 'd' | 'i') {
                let shift = 64 - bits;
                let v = ((raw << shift) as i64) >> shift;
                let sign = spec.sign(v < 0);
                (
                    sign.to_string(),
                    int_digits(spec, v.unsigned_abs().to_string()),
                    true,
                )
            } else {
                let (digits, prefix) = match c {
                    'o' => {
                        let d = format!("{raw:o}");
                        let p = if spec.alt && !d.starts_with('0') {
                            "0"
                        } else {
                            ""
                        };
                        (d, p)
                    }
                    'x' => (
                        format!("{raw:x}"),
                        if spec.alt && raw != 0 { "0x" } else { "" },
                    ),
                    'X' => (
                        format!("{raw:X}"),
                        if spec.alt && raw != 0 { "0X" } else { "" },
                    ),
                    _ => (raw.to_string(), ""),
                };
                let digits = int_digits(spec, digits);
                (prefix.to_string(), digits, true)
            }
        }
        'p' => {
            let raw = unsigned(bytes);
            ("0x".to_string(), format!("{raw:x}"), true)
        }
        's' => {
            // Stored inline, NUL-terminated.
            let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
            let mut text = String::from_utf8_lossy(&bytes[..end]).into_owned();
            if let Some(p) = spec.precision {
                text = text.chars().take(p).collect();
            }
            return Ok(pad(spec, "", &text, false));
        }
        'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' => {
            let v = match (bytes.len(), spec.length) {
                (2, _) => half::f16::from_bits(unsigned(bytes) as u16).to_f64(),
                (4, _) => f64::from(f32::from_bits(unsigned(bytes) as u32)),
                (8, _) => f64::from_bits(unsigned(bytes)),
                (n, _) => return Err(format!("a {n}-byte argument for %{c}")),
            };
            let sign = spec.sign(v.is_sign_negative() && !v.is_nan());
            let body = float_body(spec, v.abs());
            let finite = v.is_finite();
            (sign.to_string(), body, finite)
        }
        other => return Err(format!("unknown conversion %{other}")),
    };
    Ok(pad(spec, &sign, &body, numeric))
}

/// Integer digits with a precision (minimum digits; precision 0 and value
/// 0 print nothing).
fn int_digits(spec: &Spec, digits: String) -> String {
    match spec.precision {
        Some(0) if digits == "0" => String::new(),
        Some(p) if digits.len() < p => format!("{}{digits}", "0".repeat(p - digits.len())),
        _ => digits,
    }
}

/// Pads `sign` + `body` to the width: spaces on the left (or the right
/// with `-`), or zeros after the sign with `0` for numbers (not with a
/// precision on integers).
fn pad(spec: &Spec, sign: &str, body: &str, numeric: bool) -> String {
    let len = sign.chars().count() + body.chars().count();
    let width = spec.width.unwrap_or(0);
    if len >= width {
        return format!("{sign}{body}");
    }
    let fill = width - len;
    let int = matches!(spec.conversion, 'd' | 'i' | 'u' | 'o' | 'x' | 'X');
    if spec.left {
        format!("{sign}{body}{}", " ".repeat(fill))
    } else if spec.zero && numeric && !(int && spec.precision.is_some()) {
        format!("{sign}{}{body}", "0".repeat(fill))
    } else {
        format!("{}{sign}{body}", " ".repeat(fill))
    }
}

/// The digits of a non-negative float for `%f %e %g %a` (and upper case).
fn float_body(spec: &Spec, v: f64) -> String {
    let upper = spec.conversion.is_ascii_uppercase();
    let text = if v.is_nan() {
        "nan".to_string()
    } else if v.is_infinite() {
        "inf".to_string()
    } else {
        match spec.conversion.to_ascii_lowercase() {
            'f' => fixed(v, spec.precision.unwrap_or(6), spec.alt),
            'e' => exponent(v, spec.precision.unwrap_or(6), spec.alt),
            'g' => general(v, spec.precision.unwrap_or(6), spec.alt),
            _ => hex_float(v, spec.precision),
        }
    };
    if upper {
        text.to_uppercase()
    } else {
        text
    }
}

fn fixed(v: f64, precision: usize, alt: bool) -> String {
    let mut s = format!("{v:.precision$}");
    if alt && precision == 0 {
        s.push('.');
    }
    s
}

/// `d.ddde±XX`: Rust's `{:e}` digits (correctly rounded, as glibc's)
/// with C's exponent (a sign and at least two digits).
fn exponent(v: f64, precision: usize, alt: bool) -> String {
    let s = format!("{v:.precision$e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut mantissa = mantissa.to_string();
    if alt && precision == 0 {
        mantissa.push('.');
    }
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.unsigned_abs())
}

/// `%g`: `%e` or `%f` by the exponent, trailing zeros removed (kept
/// with `#`).
fn general(v: f64, precision: usize, alt: bool) -> String {
    let p = precision.max(1);
    // The exponent %e would print with p - 1 digits after the point.
    let e_form = format!("{v:.prec$e}", prec = p - 1);
    let x: i64 = e_form
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let mut s = if x < p as i64 && x >= -4 {
        fixed(v, (p as i64 - 1 - x) as usize, alt)
    } else {
        exponent(v, p - 1, alt)
    };
    if !alt {
        let (mantissa, tail) = match s.find('e') {
            Some(i) => (s[..i].to_string(), s[i..].to_string()),
            None => (s.clone(), String::new()),
        };
        let mantissa = if mantissa.contains('.') {
            mantissa
                .trim_end_matches('0')
                .trim_end_matches('.')
                .to_string()
        } else {
            mantissa
        };
        s = mantissa + &tail;
    }
    s
}

/// `%a`: `0x1.hhhhp±d` (normal numbers; subnormals as `0x0.hhhh`).
fn hex_float(v: f64, precision: Option<usize>) -> String {
    if v == 0.0 {
        return match precision {
            Some(p) if p > 0 => format!("0x0.{}p+0", "0".repeat(p)),
            _ => "0x0p+0".to_string(),
        };
    }
    let bits = v.to_bits();
    let raw_exp = ((bits >> 52) & 0x7ff) as i64;
    let (lead, exp) = if raw_exp == 0 {
        (0u64, -1022)
    } else {
        (1u64, raw_exp - 1023)
    };
    let mut frac = bits & ((1 << 52) - 1);
    let mut lead = lead;
    let digits = match precision {
        None => {
            let mut d = format!("{frac:013x}");
            while d.ends_with('0') {
                d.pop();
            }
            d
        }
        Some(p) if p < 13 => {
            // Round to nearest even at 4p bits.
            let drop = 4 * (13 - p) as u32;
            let half = 1u64 << (drop - 1);
            let rest = frac & ((1u64 << drop) - 1);
            frac >>= drop;
            if rest > half || (rest == half && frac & 1 == 1) {
                frac += 1;
                if p == 0 || frac >> (4 * p) != 0 {
                    frac &= (1u64 << (4 * p)) - 1;
                    lead += 1;
                }
            }
            if p == 0 {
                String::new()
            } else {
                format!("{frac:0width$x}", width = p)
            }
        }
        Some(p) => format!("{frac:013x}{}", "0".repeat(p - 13)),
    };
    let point = if digits.is_empty() { "" } else { "." };
    let sign = if exp < 0 { '-' } else { '+' };
    format!("0x{lead}{point}{digits}p{sign}{}", exp.unsigned_abs())
}

/// Undoes the escapes LLVM writes into a metadata format string (`\n`,
/// `\t`, `\\`, `\"`, octal `\72` for `:`, …), giving the text `printf`
/// was given. A string without backslashes is returned as it is.
pub fn unescape(text: &str) -> String {
    if !text.contains('\\') {
        return text.to_string();
    }
    let mut out = Vec::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 == b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let c = b[i];
        i += 1;
        out.push(match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'0'..=b'7' => {
                let mut v = u32::from(c - b'0');
                for _ in 0..2 {
                    match b.get(i) {
                        Some(&d @ b'0'..=b'7') => {
                            v = v * 8 + u32::from(d - b'0');
                            i += 1;
                        }
                        _ => break,
                    }
                }
                v as u8
            }
            b'x' => {
                let mut v = 0u32;
                while let Some(d) = b.get(i).and_then(|&d| char::from(d).to_digit(16)) {
                    v = (v * 16 + d) & 0xff;
                    i += 1;
                }
                v as u8
            }
            other => other,
        });
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i32b(v: i32) -> Vec<u8> {
        v.to_le_bytes().to_vec()
    }

    #[test]
    fn integers_as_c_prints_them() {
        let v = i32b(-1406);
        let a: Vec<&[u8]> = vec![&v; 7];
        assert_eq!(
            format_record("%d %5d %-7d| %x %#X %o %u", &a).unwrap(),
            "-1406 -1406 -1406  | fffffa82 0XFFFFFA82 37777775202 4294965890"
        );
        let s = 912i32.to_le_bytes();
        let c = (-112i32).to_le_bytes();
        assert_eq!(
            format_record("%hd %hhd %+d %05d %.3d", &[&s, &c, &s, &s, &i32b(7)]).unwrap(),
            "912 -112 +912 00912 007"
        );
        let l = 91200006384i64.to_le_bytes();
        assert_eq!(
            format_record("%ld %lx", &[&l, &l]).unwrap(),
            "91200006384 153bf1a8f0"
        );
    }

    #[test]
    fn floats_as_c_prints_them() {
        let f = |v: f64| v.to_le_bytes();
        let g = |v: f32| v.to_le_bytes();
        let (a, b, c) = (g(406.857_15), f(2.848e13), f(0.000_284_8));
        assert_eq!(
            format_record("%f %e %G %.3e %8.3f|", &[&a, &b, &c, &b, &a]).unwrap(),
            "406.857147 2.848000e+13 0.0002848 2.848e+13  406.857|"
        );
        let h = f(258.909_090_9);
        assert_eq!(
            format_record("%g %g %g %#g", &[&h, &f(1e20), &f(100.0), &f(1.0)]).unwrap(),
            "258.909 1e+20 100 1.00000"
        );
        assert_eq!(
            format_record("%a %.1a %A", &[&f(1.0), &f(1.96875), &f(-0.5)]).unwrap(),
            "0x1p+0 0x2.0p+0 -0X1P-1"
        );
        assert_eq!(
            format_record("%f %e", &[&f(f64::INFINITY), &f(-f64::NAN)]).unwrap(),
            "inf nan"
        );
    }

    #[test]
    fn vectors_strings_and_chars() {
        let v: Vec<u8> = [-2057i32, 2057, -4114, 7]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let f: Vec<u8> = [0.5f32, -1.25]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let u = [1u8, 0x7f, 0xab, 255];
        assert_eq!(
            format_record("vec %v4hld %v2hlf %v4hhx", &[&v, &f, &u]).unwrap(),
            "vec -2057,2057,-4114,7 0.500000,-1.250000 1,7f,ab,ff"
        );
        assert_eq!(
            format_record("%c %s %% %5s|", &[&i32b(97), b"str\0", b"ab\0\0"]).unwrap(),
            "a str %    ab|"
        );
        assert!(format_record("%v4d", &[&v])
            .unwrap_err()
            .contains("length modifier"));
        assert!(format_record("%d %d", &[&v[..4]])
            .unwrap_err()
            .contains("no argument"));
    }

    #[test]
    fn widths_and_precisions_from_arguments() {
        let f = 2.5f64.to_le_bytes();
        assert_eq!(
            format_record(
                "%*d|%*d|%.*f|%.*f|%*.*s|",
                &[
                    &i32b(4),
                    &i32b(7),
                    &i32b(-3),
                    &i32b(7),
                    &i32b(2),
                    &f,
                    &i32b(-1),
                    &f,
                    &i32b(5),
                    &i32b(2),
                    b"abc\0"
                ]
            )
            .unwrap(),
            "   7|7  |2.50|2.500000|   ab|"
        );
        assert!(format_record("%*d", &[&i32b(4)])
            .unwrap_err()
            .contains("no argument for %d"));
        assert!(format_record("%*d", &[])
            .unwrap_err()
            .contains("no argument for %*"));
    }

    #[test]
    fn buffers_of_records() {
        let formats = vec![
            Format {
                id: 1,
                arg_sizes: vec![],
                format: "hello\n".into(),
            },
            Format {
                id: 2,
                arg_sizes: vec![4, 8],
                format: "%u %ld\n".into(),
            },
        ];
        let mut b = vec![0u8; 64];
        let records: Vec<u8> = [
            1u32.to_le_bytes().to_vec(),
            2u32.to_le_bytes().to_vec(),
            7u32.to_le_bytes().to_vec(),
            (-3i64).to_le_bytes().to_vec(),
        ]
        .concat();
        b[0..4].copy_from_slice(&(records.len() as u32).to_le_bytes());
        b[4..8].copy_from_slice(&64u32.to_le_bytes());
        b[8..8 + records.len()].copy_from_slice(&records);
        assert_eq!(format_buffer(&formats, &b).unwrap(), "hello\n7 -3\n");
        // A record cut short and an unknown id are errors naming the offset.
        b[0..4].copy_from_slice(&((records.len() - 2) as u32).to_le_bytes());
        assert!(format_buffer(&formats, &b)
            .unwrap_err()
            .to_string()
            .contains("byte 12"));
        b[8] = 9;
        assert!(format_buffer(&formats, &b)
            .unwrap_err()
            .to_string()
            .contains("format id 9"));
    }

    #[test]
    fn metadata_escapes() {
        assert_eq!(unescape(r"item %u\72 %d\n"), "item %u: %d\n");
        assert_eq!(unescape(r"a\\b\tc\x41"), "a\\b\tcA");
        assert_eq!(unescape("plain"), "plain");
    }
}
