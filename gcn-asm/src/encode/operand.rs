//! Operands shared by every encoding family: registers and register ranges,
//! register symbols, inline constants, literals and immediate expressions.

use super::context::{ExprValue, OperandContext, OperandError, RegisterSymbol};
use crate::arch::GcnVersion;
pub(crate) use crate::isa::vocab::{max_sgprs, ttmp_base};
use crate::isa::FloatKind;
use crate::syntax::cursor::{is_symbol_char, Cursor};
use crate::syntax::float::{parse_float_literal, FloatLiteral, FloatSuffix};

/// Operand code of the first VGPR in the 9-bit source space.
pub(crate) const VGPR_BASE: u16 = 256;
/// Operand code meaning "a 32-bit literal follows".
pub(crate) const LITERAL_CODE: u16 = 255;
pub(crate) use crate::isa::vocab::{LDS_DIRECT, M0, SCC, VCC};

/// A register range in the 9-bit operand-code space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reg {
    /// Code of the first register (VGPRs: 256 + n).
    pub code: u16,
    /// Number of registers; 0 for the source-only specials written by name
    /// (SCC, VCCZ, EXECZ, LDS_DIRECT, the apertures), which fit an operand of
    /// any width.
    pub count: u16,
}

/// The SGPR alignment rule an operand position follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Align {
    /// Scalar instructions: pairs at even SGPRs, larger ranges at multiples of 4.
    Strict,
    /// Vector instructions: a range must not cross a 4-SGPR line.
    Line,
    /// No rule.
    None,
}

impl Reg {
    /// True for VGPRs.
    pub fn is_vgpr(&self) -> bool {
        self.code >= VGPR_BASE
    }
}

/// What kinds of operand one syntactic position accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Accept {
    /// SGPRs, VCC, M0, EXEC, TTMP, TBA/TMA, FLAT_SCRATCH, XNACK_MASK.
    pub scalar: bool,
    /// VGPRs.
    pub vector: bool,
    /// SCC, VCCZ, EXECZ, the GCN 1.4 apertures and LDS_DIRECT (sources).
    pub special_sources: bool,
    /// Inline constants and literals.
    pub constants: bool,
}

impl Accept {
    /// A scalar destination.
    pub const SDST: Accept = Accept {
        scalar: true,
        vector: false,
        special_sources: false,
        constants: false,
    };
    /// A scalar source.
    pub const SSRC: Accept = Accept {
        scalar: true,
        vector: false,
        special_sources: true,
        constants: true,
    };
    /// A vector destination or VGPR-only source.
    pub const VGPR: Accept = Accept {
        scalar: false,
        vector: true,
        special_sources: false,
        constants: false,
    };
    /// Any vector-instruction source.
    pub const SRC: Accept = Accept {
        scalar: true,
        vector: true,
        special_sources: true,
        constants: true,
    };
}

/// A literal's value: known now or filled in by a fix-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Literal {
    /// The 32-bit value.
    Known(u32),
    /// Resolved after the pass.
    Deferred(super::context::DeferredExpr),
}

/// A parsed source operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Src {
    /// Registers (scalar, vector or special).
    Reg(Reg),
    /// An inline constant (codes 128-208, 240-248).
    Inline(u16),
    /// A literal dword (code 255).
    Literal(Literal),
}

impl Src {
    /// The operand code for the instruction's source field.
    pub fn code(&self) -> u16 {
        match *self {
            Src::Reg(r) => r.code,
            Src::Inline(c) => c,
            Src::Literal(_) => LITERAL_CODE,
        }
    }

    /// True for VGPRs.
    pub fn is_vgpr(&self) -> bool {
        matches!(self, Src::Reg(r) if r.is_vgpr())
    }
}

/// A source with its position in the statement, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Located<T> {
    /// The value.
    pub value: T,
    /// Byte offset of its first character.
    pub at: usize,
}

/// Inline float constants: codes 240..=247 are ±0.5, ±1, ±2, ±4; 248 is
/// 1/(2π) (GCN 1.2+).
const INLINE_FLOATS: [f64; 8] = [0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0];

fn inline_float_bits(kind: FloatKind, index: usize) -> u64 {
    let v = INLINE_FLOATS[index];
    match kind {
        FloatKind::Half => u64::from(half::f16::from_f64(v).to_bits()),
        FloatKind::Single => u64::from((v as f32).to_bits()),
        FloatKind::Double => v.to_bits(),
    }
}

fn inv_2pi_bits(kind: FloatKind) -> u64 {
    match kind {
        FloatKind::Half => 0x3118,
        FloatKind::Single => 0x3e22_f983,
        FloatKind::Double => 0x3fc4_5f30_6dc9_c882,
    }
}

/// Encodes a floating-point literal for an operand of `kind`: an inline
/// constant when the value is one exactly, otherwise a literal (for doubles,
/// the high 32 bits).
/// A value too big for the precision (it would round to infinity) is an
/// error, as in clrxasm.
pub(crate) fn float_source(
    lit: &FloatLiteral,
    kind: FloatKind,
    version: GcnVersion,
    at: usize,
) -> Result<Src, OperandError> {
    // An explicit suffix wins over the operand's type.
    let kind = match lit.suffix {
        FloatSuffix::Half => FloatKind::Half,
        FloatSuffix::Single => FloatKind::Single,
        FloatSuffix::Double => FloatKind::Double,
        FloatSuffix::None => kind,
    };
    let bits: u64 = match kind {
        FloatKind::Half => lit.half_bits_checked().map(u64::from),
        FloatKind::Single => lit.single_bits_checked().map(u64::from),
        FloatKind::Double => lit.double_bits_checked(),
    }
    .map_err(|message| OperandError::new(at, message))?;
    if bits == 0 {
        return Ok(Src::Inline(128));
    }
    if let Some(i) = (0..8).find(|&i| inline_float_bits(kind, i) == bits) {
        return Ok(Src::Inline(240 + i as u16));
    }
    if version.is_gcn12_or_later() && bits == inv_2pi_bits(kind) {
        return Ok(Src::Inline(248));
    }
    let word = float_literal_word(lit, kind);
    if kind == FloatKind::Double && version.is_gcn15() && word == (inv_2pi_bits(kind) >> 32) as u32
    {
        // clrxasm (and its disassembler's `0.15915494`) takes a double
        // whose literal word is 1/(2*pi)'s high half as the inline constant
        // on GCN 1.5.
        return Ok(Src::Inline(248));
    }
    Ok(Src::Literal(Literal::Known(word)))
}

/// An integer as a source: inline constant in -16..=64, else a literal.
pub(crate) fn integer_source(
    ctx: &mut dyn OperandContext,
    value: i64,
    at: usize,
) -> Result<Src, OperandError> {
    if (-16..=64).contains(&value) {
        Ok(Src::Inline(if value >= 0 {
            128 + value as u16
        } else {
            (192 - value) as u16
        }))
    } else {
        Ok(Src::Literal(Literal::Known(literal_word(ctx, value, at))))
    }
}

/// The 32-bit literal word of `value`: a value that fits neither signed nor
/// unsigned 32 bits is truncated with a warning, as clrxasm does (and as a
/// literal fix-up resolved later is).
pub(crate) fn literal_word(ctx: &mut dyn OperandContext, value: i64, at: usize) -> u32 {
    if !(-(1i64 << 31)..(1i64 << 32)).contains(&value) {
        ctx.warning(
            at,
            format!(
                "literal {value:#x} does not fit in 32 bits and was truncated to {:#x}",
                value as u32
            ),
        );
    }
    value as u32
}

/// The scalar special registers by name: (name, code, count, minimum
/// version, maximum version).
fn special_register(name: &str, version: GcnVersion) -> Option<Reg> {
    use GcnVersion::*;
    let gcn14 = version.is_gcn14_or_later();
    let gcn15 = version.is_gcn15();
    let (code, count) = match name {
        // Count 0: NULL stands for a register of any width.
        "null" if gcn15 => (crate::isa::vocab::NULL, 0),
        "vcc" => (VCC, 2),
        "vcc_lo" => (VCC, 1),
        "vcc_hi" => (VCC + 1, 1),
        "exec" => (126, 2),
        "exec_lo" => (126, 1),
        "exec_hi" => (127, 1),
        "m0" => (M0, 1),
        "tba" if !gcn14 => (108, 2),
        "tba_lo" if !gcn14 => (108, 1),
        "tba_hi" if !gcn14 => (109, 1),
        "tma" if !gcn14 => (110, 2),
        "tma_lo" if !gcn14 => (110, 1),
        "tma_hi" if !gcn14 => (111, 1),
        "flat_scratch" | "flat_scratch_lo" | "flat_scratch_hi" => {
            let base = match version {
                Gcn1_0 | Gcn1_5 | Gcn1_5_1 => return None,
                Gcn1_1 => 104,
                _ => 102,
            };
            match name {
                "flat_scratch" => (base, 2),
                "flat_scratch_lo" => (base, 1),
                _ => (base + 1, 1),
            }
        }
        "xnack_mask" if version.is_gcn12_or_later() && !gcn15 => (104, 2),
        "xnack_mask_lo" if version.is_gcn12_or_later() && !gcn15 => (104, 1),
        "xnack_mask_hi" if version.is_gcn12_or_later() && !gcn15 => (105, 1),
        // Count 0: these read as a value of any width.
        "scc" | "src_scc" => (SCC, 0),
        "vccz" | "src_vccz" => (251, 0),
        "execz" | "src_execz" => (252, 0),
        "lds" | "lds_direct" | "src_lds_direct" => (LDS_DIRECT, 0),
        "src_shared_base" | "shared_base" if gcn14 => (235, 0),
        "src_shared_limit" | "shared_limit" if gcn14 => (236, 0),
        "src_private_base" | "private_base" if gcn14 => (237, 0),
        "src_private_limit" | "private_limit" if gcn14 => (238, 0),
        "src_pops_exiting_wave_id" | "pops_exiting_wave_id" if gcn14 => (239, 0),
        _ => return None,
    };
    Some(Reg { code, count })
}

/// Register families that take an index or range (`s`, `v`, `ttmp`, and
/// the multi-register specials `vcc`, `exec`, …).
enum RegBase {
    Sgpr,
    Vgpr,
    Ttmp,
    Special(Reg),
}

fn register_base(lower: &str, version: GcnVersion) -> Option<RegBase> {
    match lower {
        "s" => Some(RegBase::Sgpr),
        "v" => Some(RegBase::Vgpr),
        "ttmp" => Some(RegBase::Ttmp),
        _ => special_register(lower, version)
            .filter(|r| r.count > 1)
            .map(RegBase::Special),
    }
}

/// Splits `s12`/`v7`/`ttmp3` into a family and a number.
fn numbered_register(lower: &str) -> Option<(RegBase, u32)> {
    let (base, digits) = if let Some(d) = lower.strip_prefix("ttmp") {
        (RegBase::Ttmp, d)
    } else if let Some(d) = lower.strip_prefix('s') {
        (RegBase::Sgpr, d)
    } else if let Some(d) = lower.strip_prefix('v') {
        (RegBase::Vgpr, d)
    } else {
        return None;
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 6 {
        return None;
    }
    Some((base, digits.parse().ok()?))
}

/// Reads a plain `sN`/`vN` (1 to 3 digits, in range on `version`, not
/// followed by a name character, `[` or `:`) at the start of `bytes`, with
/// its length. Nearly every register operand has this form: reading it here
/// skips the general parser (name scan, float attempt, subscript and
/// register-symbol probes), which gives the same register for it. Anything
/// else, out-of-range indices included, is `None` and takes the general
/// path (which reports the errors).
pub(crate) fn plain_register(bytes: &[u8], version: GcnVersion) -> Option<(Reg, usize)> {
    let (&first, rest) = bytes.split_first()?;
    let (code0, limit) = match first | 0x20 {
        b's' => (0, max_sgprs(version)),
        b'v' => (VGPR_BASE, 256),
        _ => return None,
    };
    let digits = rest
        .iter()
        .take(4)
        .take_while(|b| b.is_ascii_digit())
        .count();
    if !(1..=3).contains(&digits) {
        return None;
    }
    if rest
        .get(digits)
        .is_some_and(|&b| is_symbol_char(b) || b == b'[' || b == b':')
    {
        return None;
    }
    let n = rest[..digits]
        .iter()
        .fold(0u16, |n, &d| n * 10 + u16::from(d - b'0'));
    (n < limit).then_some((
        Reg {
            code: code0 + n,
            count: 1,
        },
        1 + digits,
    ))
}

/// Makes a register range from a family and first/last indices, checking
/// bounds.
fn make_range(
    base: RegBase,
    first: i64,
    last: i64,
    version: GcnVersion,
    at: usize,
) -> Result<Reg, OperandError> {
    if last < first {
        return Err(OperandError::new(
            at,
            format!("register range [{first}:{last}] ends before it starts"),
        ));
    }
    let (code0, limit, what) = match base {
        RegBase::Sgpr => (0u16, max_sgprs(version), "SGPR"),
        RegBase::Vgpr => (VGPR_BASE, 256, "VGPR"),
        RegBase::Ttmp => {
            let (b, n) = ttmp_base(version);
            (b, n, "TTMP register")
        }
        RegBase::Special(r) => (r.code, r.count, "register part"),
    };
    if first < 0 || last >= i64::from(limit) {
        return Err(OperandError::new(
            at,
            format!(
                "{what} index out of range: {} (the maximum on {version} is {})",
                if first < 0 { first } else { last },
                limit - 1
            ),
        ));
    }
    Ok(Reg {
        code: code0 + first as u16,
        count: (last - first + 1) as u16,
    })
}

/// Reads `[N]` or `[N:M]` after a register name; `cur` is at `[`.
fn subscript(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
) -> Result<(i64, i64), OperandError> {
    cur.bump(1);
    let first = absolute_expression(ctx, cur, "register index")?;
    let last = if cur.eat(b':') {
        absolute_expression(ctx, cur, "register index")?
    } else {
        first
    };
    expect_char(cur, b']', "expected `]` to close the register range")?;
    Ok((first, last))
}

/// Parses an expression that must be known now and absolute.
pub(crate) fn absolute_expression(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
    what: &str,
) -> Result<i64, OperandError> {
    cur.skip_spaces();
    let at = cur.pos();
    match ctx.expression(cur)? {
        ExprValue::Known(v) if v.section.is_none() => Ok(v.value),
        ExprValue::Known(_) => Err(OperandError::new(
            at,
            format!("{what} must be an absolute value, not an address"),
        )),
        ExprValue::Deferred(d) if ctx.is_scratch_reference(d) => Err(OperandError::new(
            at,
            format!("{what} cannot be the scratch symbol (only a 32-bit literal can)"),
        )),
        ExprValue::Deferred(_) => Err(OperandError::new(
            at,
            format!("{what} must be known here (it uses a symbol defined later)"),
        )),
    }
}

/// The outcome of trying to read a register at the cursor.
pub(crate) enum RegParse {
    /// A register range.
    Reg(Reg),
    /// A register symbol bound to a constant.
    Constant(RegisterSymbol),
    /// No register here; the cursor has not moved.
    NotRegister,
}

/// Tries to read a register, register range or register symbol (with an
/// optional subscript) at the cursor.
///
/// A built-in register name wins over a register symbol of the same name
/// unless the operand position (`accept`) does not take that register, in
/// which case the symbol is used — so `v = %s[20:23]` followed by `v[1]` in
/// a scalar operand means `s21`, as in clrxasm.
pub(crate) fn try_register(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
    accept: Option<Accept>,
) -> Result<RegParse, OperandError> {
    cur.skip_spaces();
    let start = cur.pos();
    let Some((name, at)) = cur.symbol() else {
        return Ok(RegParse::NotRegister);
    };
    // `name::` would be a scope path: not a register.
    if cur.rest().starts_with("::") {
        cur.set_pos(start);
        return Ok(RegParse::NotRegister);
    }
    let after_name = *cur;
    let builtin = builtin_register(ctx, cur, name, at)?;
    let builtin_fits = matches!(builtin, Some(Ok(reg)) if accept.is_none_or(|a| accepts(a, reg)));
    // Only a name that is not a fitting built-in register can be a
    // register symbol here (this also keeps the symbol lookup off the
    // common path).
    if !builtin_fits {
        if let Some(sym) = ctx.register_symbol(name) {
            *cur = after_name;
            return symbol_register(ctx, cur, name, at, sym);
        }
    }
    match builtin {
        Some(result) => result.map(RegParse::Reg),
        None => {
            cur.set_pos(start);
            Ok(RegParse::NotRegister)
        }
    }
}

/// Reads a built-in register whose name has just been read; `None` when the
/// name is not a register name.
fn builtin_register(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
    name: &str,
    at: usize,
) -> Result<Option<Result<Reg, OperandError>>, OperandError> {
    let version = ctx.version();
    let bytes = name.as_bytes();
    // Fast path for the most common operands, `sN` and `vN`.
    if (2..=4).contains(&bytes.len())
        && matches!(bytes[0], b's' | b'v' | b'S' | b'V')
        && bytes[1..].iter().all(u8::is_ascii_digit)
        && cur.peek() != Some(b'[')
    {
        let n = bytes[1..]
            .iter()
            .fold(0i64, |n, &d| n * 10 + i64::from(d - b'0'));
        let base = if bytes[0] | 0x20 == b's' {
            RegBase::Sgpr
        } else {
            RegBase::Vgpr
        };
        return Ok(Some(make_range(base, n, n, version, at)));
    }
    // Register names are short: lower-case them on the stack (this runs for
    // every operand).
    let mut buffer = [0u8; 32];
    if name.len() > buffer.len() {
        return Ok(None);
    }
    // Copy (and re-validate) only names that are not lower case already.
    let lower = if bytes.iter().any(u8::is_ascii_uppercase) {
        let lower = &mut buffer[..name.len()];
        lower.copy_from_slice(bytes);
        lower.make_ascii_lowercase();
        std::str::from_utf8(lower).unwrap_or("")
    } else {
        name
    };
    let mut probe = *cur;
    probe.skip_spaces();
    if probe.peek() == Some(b'[') {
        if let Some(base) = register_base(lower, version) {
            *cur = probe;
            let (first, last) = subscript(ctx, cur)?;
            return Ok(Some(make_range(base, first, last, version, at)));
        }
    }
    if let Some((base, n)) = numbered_register(lower) {
        let n = i64::from(n);
        return Ok(Some(make_range(base, n, n, version, at)));
    }
    Ok(special_register(lower, version).map(Ok))
}

/// Reads a register symbol (and its optional subscript).
fn symbol_register(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
    name: &str,
    at: usize,
    sym: RegisterSymbol,
) -> Result<RegParse, OperandError> {
    let mut probe = *cur;
    probe.skip_spaces();
    let subscripted = probe.peek() == Some(b'[');
    let range = if subscripted {
        *cur = probe;
        Some(subscript(ctx, cur)?)
    } else {
        None
    };
    match sym {
        RegisterSymbol::Registers { code, count } => match range {
            Some((first, last)) => {
                if first < 0 || last < first || last >= i64::from(count) {
                    return Err(OperandError::new(
                        at,
                        format!(
                            "subscript [{first}:{last}] is outside register symbol `{name}` ({count} registers)"
                        ),
                    ));
                }
                Ok(RegParse::Reg(Reg {
                    code: code + first as u16,
                    count: (last - first + 1) as u16,
                }))
            }
            None => Ok(RegParse::Reg(Reg { code, count })),
        },
        constant => {
            // A constant behaves as a value of one or two dwords.
            if let Some((first, last)) = range {
                if first != 0 || !(0..=1).contains(&last) {
                    return Err(OperandError::new(
                        at,
                        format!("subscript [{first}:{last}] is not valid for the constant symbol `{name}`"),
                    ));
                }
            }
            Ok(RegParse::Constant(constant))
        }
    }
}

/// Describes a register range for messages (`s[4:5]`, `v7`, `vcc`).
pub(crate) fn describe(reg: Reg) -> String {
    let (prefix, base) = if reg.code >= VGPR_BASE {
        ("v", reg.code - VGPR_BASE)
    } else if reg.code < 102 {
        ("s", reg.code)
    } else {
        return match (reg.code, reg.count) {
            (VCC, 2) => "vcc".into(),
            (VCC, 1) => "vcc_lo".into(),
            (107, 1) => "vcc_hi".into(),
            (M0, 1) => "m0".into(),
            (126, 2) => "exec".into(),
            (126, 1) => "exec_lo".into(),
            (127, 1) => "exec_hi".into(),
            (code, 0 | 1) => format!("special register {code}"),
            (code, n) => format!("special registers {code}..{}", code + n - 1),
        };
    };
    if reg.count == 1 {
        format!("{prefix}{base}")
    } else {
        format!("{prefix}[{base}:{}]", base + reg.count - 1)
    }
}

/// Checks a register's class, count and alignment against an operand
/// position.
#[inline]
pub(crate) fn check_register(
    reg: Reg,
    accept: Accept,
    count: u16,
    align: Align,
    at: usize,
    what: &str,
) -> Result<(), OperandError> {
    // The common case, checked inline: one register of a class the position
    // takes (nothing to align, and LDS_DIRECT has count 0).
    if count == 1 && reg.count == 1 && accepts(accept, reg) {
        return Ok(());
    }
    check_register_rules(reg, accept, count, align, at, what)
}

/// The rules of [`check_register`].
fn check_register_rules(
    reg: Reg,
    accept: Accept,
    count: u16,
    align: Align,
    at: usize,
    what: &str,
) -> Result<(), OperandError> {
    // LDS_DIRECT feeds the vector ALU only: clrxasm and llvm-mc reject it
    // as a scalar-instruction (or lane-select) operand.
    if reg.code == LDS_DIRECT && accept.special_sources && !accept.vector {
        return Err(OperandError::new(
            at,
            format!("{what} cannot be LDS_DIRECT (only a vector instruction's first source can)"),
        ));
    }
    if !accepts(accept, reg) {
        let expected = match (accept.scalar, accept.vector) {
            (true, true) => "a scalar or vector register",
            (true, false) => "a scalar register",
            (false, true) => "a vector register",
            (false, false) => "an immediate",
        };
        return Err(OperandError::new(
            at,
            format!("{what} must be {expected}, not {}", describe(reg)),
        ));
    }
    if reg.count != count && reg.count != 0 {
        return Err(OperandError::new(
            at,
            format!(
                "{what} takes {count} register{}, but {} has {}",
                if count == 1 { "" } else { "s" },
                describe(reg),
                reg.count
            ),
        ));
    }
    // TTMP ranges (codes 108-123) need no alignment (clrxasm).
    if reg.code < 108 && reg.count >= 2 {
        let last = reg.code + reg.count - 1;
        match align {
            Align::Strict => {
                let unit = if reg.count == 2 { 2 } else { 4 };
                if !reg.code.is_multiple_of(unit) {
                    return Err(OperandError::new(
                        at,
                        format!(
                            "{what}: {} is misaligned (a scalar register {} must start at a multiple of {unit})",
                            describe(reg),
                            if reg.count == 2 { "pair" } else { "range" }
                        ),
                    ));
                }
            }
            Align::Line if reg.code / 4 != last / 4 && reg.count <= 4 => {
                return Err(OperandError::new(
                    at,
                    format!(
                        "{what}: {} crosses a 4-SGPR boundary, which vector instructions cannot read",
                        describe(reg)
                    ),
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// True when `reg`'s class is allowed by `accept`.
fn accepts(accept: Accept, reg: Reg) -> bool {
    if reg.is_vgpr() {
        accept.vector
    } else if reg.code < 128 {
        accept.scalar
    } else {
        accept.special_sources
    }
}

/// Reads a register operand that must be a register (a destination, a
/// VGPR-only source, a base address).
pub(crate) fn parse_register(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
    accept: Accept,
    count: u16,
    align: Align,
    what: &str,
) -> Result<Located<Reg>, OperandError> {
    cur.skip_spaces();
    let at = cur.pos();
    if let Some((reg, len)) = plain_register(cur.rest().as_bytes(), ctx.version()) {
        // A built-in register the position takes wins over a register
        // symbol of the same name (as in `try_register`).
        if accepts(accept, reg) {
            cur.bump(len);
            check_register(reg, accept, count, align, at, what)?;
            ctx.register_used(reg.code, reg.count);
            return Ok(Located { value: reg, at });
        }
    }
    match try_register(ctx, cur, Some(accept))? {
        RegParse::Reg(reg) => {
            check_register(reg, accept, count, align, at, what)?;
            ctx.register_used(reg.code, reg.count);
            Ok(Located { value: reg, at })
        }
        RegParse::Constant(_) => Err(OperandError::new(
            at,
            format!("{what} must be a register, not a constant"),
        )),
        RegParse::NotRegister => Err(OperandError::new(
            at,
            if cur.at_end() || cur.peek() == Some(b',') {
                format!("missing {what}")
            } else {
                format!("{what} must be a register")
            },
        )),
    }
}

/// Reads a source operand: register, inline constant, literal (`lit()`
/// forces one), float or integer expression.
pub(crate) fn parse_source(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
    accept: Accept,
    count: u16,
    kind: FloatKind,
    align: Align,
    what: &str,
) -> Result<Located<Src>, OperandError> {
    let version = ctx.version();
    cur.skip_spaces();
    let at = cur.pos();
    if cur.at_end() || cur.peek() == Some(b',') {
        return Err(OperandError::new(at, format!("missing {what}")));
    }
    // The common case first: a plain `sN`/`vN` the position takes (neither
    // a float, `lit(…)`, `@…` nor a register symbol can start that way, and
    // a fitting built-in register wins over a symbol of the same name).
    if let Some((reg, len)) = plain_register(cur.rest().as_bytes(), version) {
        if accepts(accept, reg) {
            cur.bump(len);
            check_register(reg, accept, count, align, at, what)?;
            ctx.register_used(reg.code, reg.count);
            return Ok(Located {
                value: Src::Reg(reg),
                at,
            });
        }
    }
    let constant = |src: Src| -> Result<Located<Src>, OperandError> {
        if accept.constants {
            Ok(Located { value: src, at })
        } else {
            Err(OperandError::new(
                at,
                format!("{what} must be a register, not a constant"),
            ))
        }
    };
    if cur.peek() == Some(b'@') {
        cur.bump(1);
        let src = expression_source(ctx, cur, at)?;
        return constant(src);
    }
    if matches!(cur.peek(), Some(b'l' | b'L')) && cur.eat_keyword("lit") {
        let mut probe = *cur;
        if probe.eat(b'(') {
            *cur = probe;
            cur.skip_spaces();
            let src = if let Some((lit, len)) = parse_float_literal(cur.rest()) {
                cur.bump(len);
                match float_source(&lit, kind, version, at)? {
                    Src::Inline(_) | Src::Literal(_) => {
                        Src::Literal(Literal::Known(float_literal_word(&lit, kind)))
                    }
                    other => other,
                }
            } else {
                let inner_at = cur.pos();
                match ctx.expression(cur)? {
                    ExprValue::Known(v) => {
                        Src::Literal(Literal::Known(literal_word(ctx, v.value, inner_at)))
                    }
                    ExprValue::Deferred(d) => Src::Literal(Literal::Deferred(d)),
                }
            };
            if !cur.eat(b')') {
                return Err(OperandError::new(cur.pos(), "expected `)` after lit(…"));
            }
            return constant(src);
        }
        cur.set_pos(at);
    }
    if let Some((lit, len)) = parse_float_literal(cur.rest()) {
        cur.bump(len);
        return constant(float_source(&lit, kind, version, at)?);
    }
    match try_register(ctx, cur, Some(accept))? {
        RegParse::Reg(reg) => {
            check_register(reg, accept, count, align, at, what)?;
            // Specials written by name fit any width: they use what the
            // operand reads.
            ctx.register_used(reg.code, if reg.count == 0 { count } else { reg.count });
            Ok(Located {
                value: Src::Reg(reg),
                at,
            })
        }
        RegParse::Constant(RegisterSymbol::Integer(v)) => constant(integer_source(ctx, v, at)?),
        RegParse::Constant(RegisterSymbol::Float(lit)) => {
            constant(float_source(&lit, kind, version, at)?)
        }
        RegParse::Constant(RegisterSymbol::Registers { .. }) => unreachable_registers(at),
        RegParse::NotRegister => {
            let src = expression_source(ctx, cur, at)?;
            constant(src)
        }
    }
}

fn unreachable_registers(at: usize) -> Result<Located<Src>, OperandError> {
    Err(OperandError::new(
        at,
        "internal error: register symbol misread",
    ))
}

/// The literal word of a float: its bits, or for a double the high 32 bits
/// rounded to nearest (as clrxasm does).
pub(crate) fn float_literal_word(lit: &FloatLiteral, kind: FloatKind) -> u32 {
    match kind {
        FloatKind::Half => u32::from(lit.half_bits()),
        FloatKind::Single => lit.single_bits(),
        FloatKind::Double => {
            let bits = lit.double_bits();
            ((bits >> 32) + ((bits >> 31) & 1)) as u32
        }
    }
}

fn expression_source(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
    at: usize,
) -> Result<Src, OperandError> {
    match ctx.expression(cur)? {
        ExprValue::Known(v) if v.section.is_none() => integer_source(ctx, v.value, at),
        ExprValue::Known(_) => Err(OperandError::new(
            at,
            "an address cannot be used as an operand value",
        )),
        ExprValue::Deferred(d) => Ok(Src::Literal(Literal::Deferred(d))),
    }
}

/// Reads the comma between operands.
pub(crate) fn expect_comma(cur: &mut Cursor<'_>, next: &str) -> Result<(), OperandError> {
    if cur.eat(b',') {
        Ok(())
    } else {
        cur.skip_spaces();
        Err(OperandError::new(
            cur.pos(),
            if cur.at_end() {
                format!("missing {next}")
            } else {
                format!("expected `,` before {next}")
            },
        ))
    }
}

/// Parses the optional parameter of a flag modifier: bare `glc` is on,
/// `glc:EXPR` is EXPR != 0 (bit 0 of EXPR under `.oldmodparam`).
pub(crate) fn flag_parameter(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
) -> Result<bool, OperandError> {
    let mut probe = *cur;
    if !probe.eat(b':') {
        return Ok(true);
    }
    *cur = probe;
    let value = absolute_expression(ctx, cur, "modifier parameter")?;
    // Under `.oldmodparam` only bit 0 counts, as in old clrxasm.
    Ok(if ctx.old_modifier_parameters() {
        value & 1 != 0
    } else {
        value != 0
    })
}

/// Parses a bit array `[b0,b1,…]` or a plain number after `name:`; returns
/// the bit mask. At most `max_bits` elements.
pub(crate) fn bit_array_value(
    ctx: &mut dyn OperandContext,
    cur: &mut Cursor<'_>,
    name: &str,
    max_bits: u32,
) -> Result<u32, OperandError> {
    expect_char(
        cur,
        b':',
        format!("expected `:` and a value after `{name}`"),
    )?;
    if cur.eat(b'[') {
        let mut mask = 0u32;
        let mut i = 0;
        loop {
            cur.skip_spaces();
            let at = cur.pos();
            let bit = absolute_expression(ctx, cur, name)?;
            if !(0..=1).contains(&bit) {
                return Err(OperandError::new(
                    at,
                    format!("elements of `{name}` must be 0 or 1"),
                ));
            }
            if i >= max_bits {
                return Err(OperandError::new(
                    at,
                    format!("`{name}` takes at most {max_bits} elements"),
                ));
            }
            mask |= (bit as u32) << i;
            i += 1;
            if cur.eat(b']') {
                return Ok(mask);
            }
            expect_char(cur, b',', format!("expected `,` or `]` in `{name}`"))?;
        }
    }
    cur.skip_spaces();
    let at = cur.pos();
    let value = absolute_expression(ctx, cur, name)?;
    if value < 0 || value >= (1i64 << max_bits) {
        return Err(OperandError::new(
            at,
            format!("`{name}` value {value} does not fit in {max_bits} bits"),
        ));
    }
    Ok(value as u32)
}

/// Skips spaces and consumes `c`, or fails with `message` at the next token.
pub(crate) fn expect_char(
    cur: &mut Cursor<'_>,
    c: u8,
    message: impl Into<String>,
) -> Result<(), OperandError> {
    if cur.eat(c) {
        Ok(())
    } else {
        cur.skip_spaces();
        Err(OperandError::new(cur.pos(), message))
    }
}
