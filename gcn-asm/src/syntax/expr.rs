//! Expressions: literals, the CLRX operators, parsing to reverse Polish
//! notation and evaluation with section-relative values.
//!
//! An expression is parsed into a reusable `Vec<Op>` (no allocation on the
//! hot path). Symbols already known are folded into constants while parsing,
//! so evaluation only looks symbols up when something was undefined; only
//! then is the operation list copied out to be kept as a deferred
//! expression.

use crate::encode::context::{SectionId, Value};

use super::cursor::{is_symbol_char, is_symbol_start};
use super::symbols::{SymId, SymState, SymbolTable};

/// Nesting limit of parentheses, unary operators and `?:` in one
/// expression, so hostile input cannot overflow the stack.
const MAX_EXPR_DEPTH: u32 = 200;
/// Nesting limit when resolving symbols defined by other pending symbols.
const MAX_RESOLVE_DEPTH: u32 = 200;

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `*`
    Mul,
    /// `/` (signed)
    Div,
    /// `//` (unsigned)
    UDiv,
    /// `%` (signed)
    Rem,
    /// `%%` (unsigned)
    URem,
    /// `<<`
    Shl,
    /// `>>` (logical)
    Shr,
    /// `>>>` (arithmetic)
    Sar,
    /// `&`
    And,
    /// `|`
    Or,
    /// `^`
    Xor,
    /// `!` as binary: `a | ~b`
    OrNot,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `==`
    Eq,
    /// `!=`, `<>`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `<@`
    ULt,
    /// `<=@`
    ULe,
    /// `>@`
    UGt,
    /// `>=@`
    UGe,
    /// `&&`
    LAnd,
    /// `||`
    LOr,
}

impl BinOp {
    /// Binding strength: higher binds tighter (CLRX order 2 is 4 here,
    /// order 5 is 1).
    pub fn precedence(self) -> u8 {
        use BinOp::*;
        match self {
            Mul | Div | UDiv | Rem | URem | Shl | Shr | Sar => 4,
            And | Or | Xor | OrNot | Add | Sub => 3,
            Eq | Ne | Lt | Le | Gt | Ge | ULt | ULe | UGt | UGe => 2,
            LAnd | LOr => 1,
        }
    }
}

/// A unary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    /// `-`
    Neg,
    /// `~`
    Not,
    /// `!`
    LNot,
}

/// One step of an expression in reverse Polish notation. `u32` fields are
/// byte offsets of the operator, for error messages.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Op {
    /// A known value.
    Const(Value),
    /// A symbol that was not known while parsing.
    Sym(SymId),
    /// A unary operator.
    Un(UnOp, u32),
    /// A binary operator.
    Bin(BinOp, u32),
    /// `c ? a : b` with `c`, `a`, `b` on the stack.
    Select(u32),
}

/// An error in an expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExprError {
    /// Byte offset of the offending token.
    pub at: usize,
    /// What is wrong.
    pub message: String,
}

impl ExprError {
    /// An error at byte `at`.
    pub fn new(at: usize, message: impl Into<String>) -> Self {
        ExprError {
            at,
            message: message.into(),
        }
    }
}

/// An intermediate evaluation result: a value, or an error that is only
/// reported if the value is used (so `x ? 1/x : 0` works).
pub type Slot = Result<Value, (u32, &'static str)>;

/// Scans a symbol name with an optional scope path (`a::b::c`, `::c`)
/// starting at `pos`; returns its end.
pub fn scan_symbol(bytes: &[u8], pos: usize) -> Option<usize> {
    let mut i = pos;
    if bytes.get(i) == Some(&b':') && bytes.get(i + 1) == Some(&b':') {
        i += 2;
    }
    loop {
        if !bytes.get(i).is_some_and(|&b| is_symbol_start(b)) {
            return None;
        }
        // The rest of the name: one table test per byte.
        i += 1 + bytes
            .get(i + 1..)
            .unwrap_or(&[])
            .iter()
            .position(|&b| !is_symbol_char(b))
            .unwrap_or(bytes.len().saturating_sub(i + 1));
        if bytes.get(i) == Some(&b':')
            && bytes.get(i + 1) == Some(&b':')
            && bytes.get(i + 2).is_some_and(|&b| is_symbol_start(b))
        {
            i += 2;
        } else {
            return Some(i);
        }
    }
}

/// Reads one escape sequence; `pos` is just after the backslash.
pub fn parse_escape(bytes: &[u8], pos: &mut usize) -> Result<u8, ExprError> {
    let start = *pos - 1;
    let Some(&c) = bytes.get(*pos) else {
        return Err(ExprError::new(start, "unterminated escape sequence"));
    };
    *pos += 1;
    Ok(match c {
        b'a' => 7,
        b'b' => 8,
        b't' => 9,
        b'n' => 10,
        b'v' => 11,
        b'f' => 12,
        b'r' => 13,
        b'\\' => b'\\',
        b'"' => b'"',
        b'\'' => b'\'',
        b'x' | b'X' => {
            let mut value: u32 = 0;
            let digits_start = *pos;
            while let Some(d) = bytes.get(*pos).and_then(|&b| (b as char).to_digit(16)) {
                value = (value << 4) | d;
                if value > 0xff {
                    return Err(ExprError::new(start, "hexadecimal escape out of range"));
                }
                *pos += 1;
            }
            if *pos == digits_start {
                return Err(ExprError::new(
                    start,
                    "missing digits in hexadecimal escape",
                ));
            }
            value as u8
        }
        b'0'..=b'7' => {
            let mut value = u32::from(c - b'0');
            let mut n = 1;
            while n < 3 {
                match bytes.get(*pos) {
                    Some(&d @ b'0'..=b'7') => {
                        value = value * 8 + u32::from(d - b'0');
                        *pos += 1;
                        n += 1;
                    }
                    _ => break,
                }
            }
            if value > 0xff {
                return Err(ExprError::new(start, "octal escape out of range"));
            }
            value as u8
        }
        _ => return Err(ExprError::new(start, "unknown escape sequence")),
    })
}

/// Reads a double-quoted string literal at `pos` (which must be at `"`),
/// appending its bytes to `out`.
pub fn parse_string_literal(
    text: &str,
    pos: &mut usize,
    out: &mut Vec<u8>,
) -> Result<(), ExprError> {
    let bytes = text.as_bytes();
    let start = *pos;
    if bytes.get(start) != Some(&b'"') {
        return Err(ExprError::new(start, "expected a string"));
    }
    let mut i = start + 1;
    loop {
        match bytes.get(i) {
            None | Some(b'\n') => return Err(ExprError::new(start, "unterminated string")),
            Some(b'"') => {
                *pos = i + 1;
                return Ok(());
            }
            Some(b'\\') => {
                i += 1;
                out.push(parse_escape(bytes, &mut i)?);
            }
            Some(&b) => {
                out.push(b);
                i += 1;
            }
        }
    }
}

/// Reads a character literal (`'a'`, `'\n'`) at `pos` (at the quote).
pub fn parse_char_literal(bytes: &[u8], pos: &mut usize) -> Result<i64, ExprError> {
    let start = *pos;
    let mut i = start + 1;
    let value = match bytes.get(i) {
        None | Some(b'\'') => return Err(ExprError::new(start, "empty character literal")),
        Some(b'\\') => {
            i += 1;
            parse_escape(bytes, &mut i)?
        }
        Some(&b) => {
            i += 1;
            b
        }
    };
    if bytes.get(i) != Some(&b'\'') {
        return Err(ExprError::new(start, "unterminated character literal"));
    }
    *pos = i + 1;
    Ok(i64::from(value))
}

/// What an integer-looking token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntToken {
    /// A number.
    Value(u64),
    /// `Nb`: the previous local label `N`.
    LocalBackward(u64),
    /// `Nf`: the next local label `N`.
    LocalForward(u64),
}

fn digits(bytes: &[u8], pos: &mut usize, radix: u32, start: usize) -> Result<u64, ExprError> {
    let mut value: u64 = 0;
    let first = *pos;
    while let Some(d) = bytes.get(*pos).and_then(|&b| (b as char).to_digit(radix)) {
        value = value
            .checked_mul(u64::from(radix))
            .and_then(|v| v.checked_add(u64::from(d)))
            .ok_or_else(|| ExprError::new(start, "number out of range"))?;
        *pos += 1;
    }
    if *pos == first {
        return Err(ExprError::new(start, "missing digits in number"));
    }
    Ok(value)
}

/// Reads an integer literal or local label reference at `pos` (at a digit).
pub fn parse_int_token(bytes: &[u8], pos: &mut usize) -> Result<IntToken, ExprError> {
    let start = *pos;
    let next = |i: usize| bytes.get(i).copied();
    let not_word = |i: usize| !bytes.get(i).is_some_and(|&b| is_symbol_char(b));
    if next(start) == Some(b'0') {
        match next(start + 1).map(|b| b | 0x20) {
            Some(b'x') => {
                *pos = start + 2;
                return Ok(IntToken::Value(digits(bytes, pos, 16, start)?));
            }
            Some(b'b') if matches!(next(start + 2), Some(b'0' | b'1')) => {
                *pos = start + 2;
                return Ok(IntToken::Value(digits(bytes, pos, 2, start)?));
            }
            _ => {}
        }
    }
    let mut i = start;
    while bytes.get(i).is_some_and(|b| b.is_ascii_digit()) {
        i += 1;
    }
    match next(i) {
        Some(b'b' | b'B' | b'f' | b'F') if not_word(i + 1) => {
            let mut p = start;
            let n = digits(bytes, &mut p, 10, start)?;
            *pos = i + 1;
            return Ok(if next(i).map(|b| b | 0x20) == Some(b'b') {
                IntToken::LocalBackward(n)
            } else {
                IntToken::LocalForward(n)
            });
        }
        _ => {}
    }
    if next(start) == Some(b'0') && i > start + 1 {
        *pos = start + 1;
        let v = digits(bytes, pos, 8, start)?;
        if *pos != i {
            return Err(ExprError::new(start, "invalid digit in octal number"));
        }
        return Ok(IntToken::Value(v));
    }
    *pos = start;
    Ok(IntToken::Value(digits(bytes, pos, 10, start)?))
}

/// Parses one expression into reverse Polish notation.
pub struct ExprParser<'a> {
    bytes: &'a [u8],
    /// Current byte offset.
    pub pos: usize,
    syms: &'a mut SymbolTable,
    out: &'a mut Vec<Op>,
    dot: Value,
    fold: bool,
    depth: u32,
}

fn err<T>(at: usize, message: &str) -> Result<T, ExprError> {
    Err(ExprError::new(at, message))
}

impl<'a> ExprParser<'a> {
    /// A parser of `text` from `pos`, appending to `out`. `dot` is the value
    /// of `.`; `fold` replaces known symbols by their values (off for
    /// `.eqv`, whose symbols are read at every use).
    pub fn new(
        text: &'a str,
        pos: usize,
        syms: &'a mut SymbolTable,
        out: &'a mut Vec<Op>,
        dot: Value,
        fold: bool,
    ) -> Self {
        ExprParser {
            bytes: text.as_bytes(),
            pos,
            syms,
            out,
            dot,
            fold,
            depth: 0,
        }
    }

    /// Parses a whole expression (stops at the first token that cannot
    /// continue it).
    pub fn parse(&mut self) -> Result<(), ExprError> {
        self.ternary()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r')) {
            self.pos += 1;
        }
    }

    fn enter(&mut self) -> Result<(), ExprError> {
        self.depth += 1;
        if self.depth > MAX_EXPR_DEPTH {
            return err(self.pos, "expression nested too deeply");
        }
        Ok(())
    }

    fn ternary(&mut self) -> Result<(), ExprError> {
        self.enter()?;
        self.binary(1)?;
        let save = self.pos;
        self.skip();
        if self.peek() != Some(b'?') {
            self.pos = save;
        } else {
            let at = self.pos;
            self.pos += 1;
            self.ternary()?;
            self.skip();
            if self.peek() != Some(b':') {
                return err(self.pos, "expected ':' of '?:'");
            }
            self.pos += 1;
            self.ternary()?;
            self.out.push(Op::Select(at as u32));
        }
        self.depth -= 1;
        Ok(())
    }

    fn binary(&mut self, min_prec: u8) -> Result<(), ExprError> {
        self.unary()?;
        loop {
            let save = self.pos;
            self.skip();
            let Some((op, len)) = self
                .peek_binop()
                .filter(|(op, _)| op.precedence() >= min_prec)
            else {
                // Leave the cursor just after the operand, as the encoder
                // expects.
                self.pos = save;
                break;
            };
            let prec = op.precedence();
            let at = self.pos;
            self.pos += len;
            self.binary(prec + 1)?;
            self.out.push(Op::Bin(op, at as u32));
        }
        Ok(())
    }

    fn peek_binop(&self) -> Option<(BinOp, usize)> {
        use BinOp::*;
        let b = self.bytes;
        let p = self.pos;
        let c1 = b.get(p + 1).copied();
        let c2 = b.get(p + 2).copied();
        Some(match *b.get(p)? {
            b'*' => (Mul, 1),
            b'/' if c1 == Some(b'/') => (UDiv, 2),
            b'/' => (Div, 1),
            b'%' if c1 == Some(b'%') => (URem, 2),
            b'%' => (Rem, 1),
            b'<' => match c1 {
                Some(b'<') => (Shl, 2),
                Some(b'=') if c2 == Some(b'@') => (ULe, 3),
                Some(b'=') => (Le, 2),
                Some(b'>') => (Ne, 2),
                Some(b'@') => (ULt, 2),
                _ => (Lt, 1),
            },
            b'>' => match c1 {
                Some(b'>') if c2 == Some(b'>') => (Sar, 3),
                Some(b'>') => (Shr, 2),
                Some(b'=') if c2 == Some(b'@') => (UGe, 3),
                Some(b'=') => (Ge, 2),
                Some(b'@') => (UGt, 2),
                _ => (Gt, 1),
            },
            b'&' if c1 == Some(b'&') => (LAnd, 2),
            b'&' => (And, 1),
            b'|' if c1 == Some(b'|') => (LOr, 2),
            b'|' => (Or, 1),
            b'^' => (Xor, 1),
            b'!' if c1 == Some(b'=') => (Ne, 2),
            b'!' => (OrNot, 1),
            b'+' => (Add, 1),
            b'-' => (Sub, 1),
            b'=' if c1 == Some(b'=') => (Eq, 2),
            _ => return None,
        })
    }

    fn unary(&mut self) -> Result<(), ExprError> {
        self.skip();
        let at = self.pos;
        let op = match self.peek() {
            Some(b'-') => Some(UnOp::Neg),
            Some(b'~') => Some(UnOp::Not),
            Some(b'!') => Some(UnOp::LNot),
            Some(b'+') => None,
            Some(b'(') => {
                self.pos += 1;
                self.ternary()?;
                self.skip();
                if self.peek() != Some(b')') {
                    return err(self.pos, "expected ')'");
                }
                self.pos += 1;
                return Ok(());
            }
            _ => return self.primary(),
        };
        self.pos += 1;
        self.enter()?;
        self.unary()?;
        self.depth -= 1;
        if let Some(op) = op {
            self.out.push(Op::Un(op, at as u32));
        }
        Ok(())
    }

    fn push_symbol(&mut self, id: SymId, at: usize) -> Result<(), ExprError> {
        match &self.syms.get(id).state {
            SymState::Known(v) if self.fold => self.out.push(Op::Const(*v)),
            SymState::Eqv(ops) => {
                if self.out.len() + ops.len() > 1 << 20 {
                    return err(at, "expression too large");
                }
                let ops = ops.clone();
                self.out.extend_from_slice(&ops);
            }
            SymState::Register(_) => {
                return err(at, "register symbol used in an expression");
            }
            _ => self.out.push(Op::Sym(id)),
        }
        Ok(())
    }

    fn primary(&mut self) -> Result<(), ExprError> {
        let at = self.pos;
        match self.peek() {
            Some(b'0'..=b'9') => match parse_int_token(self.bytes, &mut self.pos)? {
                IntToken::Value(v) => self.out.push(Op::Const(Value::absolute(v as i64))),
                IntToken::LocalBackward(n) => match self.syms.local_backward(n) {
                    Some(id) => self.push_symbol(id, at)?,
                    None => return err(at, "local label is not defined before this point"),
                },
                IntToken::LocalForward(n) => {
                    let id = self.syms.local_forward(n);
                    self.out.push(Op::Sym(id));
                }
            },
            Some(b'\'') => {
                let v = parse_char_literal(self.bytes, &mut self.pos)?;
                self.out.push(Op::Const(Value::absolute(v)));
            }
            Some(b'"') => return err(at, "a string is not allowed in an expression"),
            Some(_) => {
                let Some(end) = scan_symbol(self.bytes, self.pos) else {
                    return err(at, "expected an expression");
                };
                self.pos = end;
                // The slice is on ASCII boundaries (symbol characters).
                let name = std::str::from_utf8(&self.bytes[at..end]).unwrap_or("");
                if name == "." {
                    self.out.push(Op::Const(self.dot));
                } else {
                    let id = self.syms.lookup_or_create(name);
                    self.push_symbol(id, at)?;
                }
            }
            None => return err(at, "expected an expression"),
        }
        Ok(())
    }
}

fn bool_value(b: bool) -> i64 {
    if b {
        -1
    } else {
        0
    }
}

/// Subtracting addresses of two sections.
const CROSS_SECTION_SUB: &str = "cannot subtract values from different sections";
/// Comparing addresses of two sections.
const CROSS_SECTION_CMP: &str = "cannot compare values from different sections";
/// An address in a multiplication, shift, mask ...
const RELATIVE_OPERAND: &str = "relative value in a non-additive operation";

/// Whether `message` (an evaluation error) is one that the addresses of the
/// sections resolve: a ROCm code object's sections share one address space
/// ([`SymbolTable::section_bases`]), so such expressions wait for the layout.
pub fn needs_layout(message: &str) -> bool {
    [CROSS_SECTION_SUB, CROSS_SECTION_CMP, RELATIVE_OPERAND].contains(&message)
}

/// Applies a binary operator to two values, honouring the rules for
/// section-relative values.
pub fn apply_binop(op: BinOp, a: Value, b: Value) -> Result<Value, &'static str> {
    use BinOp::*;
    if is_scratch(a) || is_scratch(b) {
        return scratch_binop(op, a, b);
    }
    let (x, y) = (a.value, b.value);
    match op {
        Add => {
            let section = match (a.section, b.section) {
                (s, None) | (None, s) => s,
                _ => return Err("cannot add two relative values"),
            };
            return Ok(Value {
                value: x.wrapping_add(y),
                section,
            });
        }
        Sub => {
            let section = match (a.section, b.section) {
                (s, None) => s,
                (Some(p), Some(q)) if p == q => None,
                (Some(_), Some(_)) => return Err(CROSS_SECTION_SUB),
                (None, Some(_)) => {
                    return Err("cannot subtract a relative value from an absolute value")
                }
            };
            return Ok(Value {
                value: x.wrapping_sub(y),
                section,
            });
        }
        Eq | Ne | Lt | Le | Gt | Ge | ULt | ULe | UGt | UGe => {
            if a.section != b.section {
                return Err(CROSS_SECTION_CMP);
            }
            let (ux, uy) = (x as u64, y as u64);
            let r = match op {
                Eq => x == y,
                Ne => x != y,
                Lt => x < y,
                Le => x <= y,
                Gt => x > y,
                Ge => x >= y,
                ULt => ux < uy,
                ULe => ux <= uy,
                UGt => ux > uy,
                _ => ux >= uy,
            };
            return Ok(Value::absolute(bool_value(r)));
        }
        _ => {}
    }
    if a.section.is_some() || b.section.is_some() {
        return Err(RELATIVE_OPERAND);
    }
    let (ux, uy) = (x as u64, y as u64);
    let v = match op {
        Mul => x.wrapping_mul(y),
        Div => {
            if y == 0 {
                return Err("division by zero");
            }
            x.wrapping_div(y)
        }
        UDiv => {
            if y == 0 {
                return Err("division by zero");
            }
            (ux / uy) as i64
        }
        Rem => {
            if y == 0 {
                return Err("division by zero");
            }
            x.wrapping_rem(y)
        }
        URem => {
            if y == 0 {
                return Err("division by zero");
            }
            (ux % uy) as i64
        }
        Shl => ux.checked_shl(uy.min(64) as u32).unwrap_or(0) as i64,
        Shr => ux.checked_shr(uy.min(64) as u32).unwrap_or(0) as i64,
        Sar => x >> uy.min(63),
        And => x & y,
        Or => x | y,
        Xor => x ^ y,
        OrNot => x | !y,
        LAnd => i64::from(x != 0 && y != 0),
        LOr => i64::from(x != 0 || y != 0),
        _ => 0,
    };
    Ok(Value::absolute(v))
}

/// What may be done with the Gallium scratch symbol.
pub const SCRATCH_USE: &str = "the scratch symbol (.scratchsym) takes no offset and no other operation: only SYM, SYM&0xffffffff, SYM%0x100000000 (low 32 bits), SYM>>32 or SYM/0x100000000 (high 32 bits), in a 32-bit literal";

/// True for a value of the scratch symbol (or one of its halves).
pub fn is_scratch(v: Value) -> bool {
    v.section.is_some_and(SectionId::is_scratch)
}

/// The two selections CLRX allows on the scratch symbol: its low half
/// (`&0xffffffff`, `%`/`%%0x100000000`) and its high half (`>>32`,
/// `/`/`//0x100000000`); anything else is an error.
fn scratch_binop(op: BinOp, a: Value, b: Value) -> Result<Value, &'static str> {
    if a.section != Some(SectionId::SCRATCH) || a.value != 0 || b.section.is_some() {
        return Err(SCRATCH_USE);
    }
    let half = match (op, b.value) {
        (BinOp::And, 0xffff_ffff) | (BinOp::Rem | BinOp::URem, 0x1_0000_0000) => {
            SectionId::SCRATCH_LOW
        }
        (BinOp::Shr, 32) | (BinOp::Div | BinOp::UDiv, 0x1_0000_0000) => SectionId::SCRATCH_HIGH,
        _ => return Err(SCRATCH_USE),
    };
    Ok(Value {
        value: 0,
        section: Some(half),
    })
}

fn apply_unop(op: UnOp, a: Value) -> Result<Value, &'static str> {
    if is_scratch(a) {
        return Err(SCRATCH_USE);
    }
    if a.section.is_some() {
        return Err(RELATIVE_OPERAND);
    }
    Ok(Value::absolute(match op {
        UnOp::Neg => a.value.wrapping_neg(),
        UnOp::Not => !a.value,
        UnOp::LNot => i64::from(a.value == 0),
    }))
}

/// The value of symbol `id`, resolving pending definitions. `Ok(None)`
/// when it (or something it depends on) is still undefined.
pub fn resolve_symbol(
    syms: &mut SymbolTable,
    id: SymId,
    depth: u32,
) -> Result<Option<Value>, String> {
    match &syms.get(id).state {
        SymState::Known(v) => Ok(Some(*v)),
        SymState::Undefined => Ok(None),
        SymState::Resolving => Err(format!(
            "symbol '{}' is defined in terms of itself",
            syms.get(id).name
        )),
        SymState::Register(_) => Err(format!(
            "register symbol '{}' used in an expression",
            syms.get(id).name
        )),
        SymState::Pending(ops) | SymState::Eqv(ops) => {
            if depth > MAX_RESOLVE_DEPTH {
                return Err("symbol definitions nested too deeply".into());
            }
            let ops = ops.clone();
            let is_eqv = matches!(syms.get(id).state, SymState::Eqv(_));
            let saved = std::mem::replace(&mut syms.get_mut(id).state, SymState::Resolving);
            let mut stack = Vec::new();
            let result = evaluate_depth(&ops, syms, &mut stack, depth + 1);
            let sym = syms.get_mut(id);
            match result {
                Ok(Some(v)) if !is_eqv => sym.state = SymState::Known(v),
                _ => sym.state = saved,
            }
            result.map_err(|e| e.message)
        }
    }
}

/// Evaluates `ops`. `Ok(None)` when a symbol is still undefined.
pub fn evaluate(
    ops: &[Op],
    syms: &mut SymbolTable,
    stack: &mut Vec<Slot>,
) -> Result<Option<Value>, ExprError> {
    evaluate_depth(ops, syms, stack, 0)
}

fn evaluate_depth(
    ops: &[Op],
    syms: &mut SymbolTable,
    stack: &mut Vec<Slot>,
    depth: u32,
) -> Result<Option<Value>, ExprError> {
    stack.clear();
    for op in ops {
        match *op {
            Op::Const(v) => stack.push(Ok(syms.rebase(v))),
            Op::Sym(id) => match resolve_symbol(syms, id, depth) {
                Ok(Some(v)) => stack.push(Ok(syms.rebase(v))),
                Ok(None) => return Ok(None),
                Err(message) => return Err(ExprError { at: 0, message }),
            },
            Op::Un(u, at) => {
                let a = stack.pop().unwrap_or(Ok(Value::absolute(0)));
                stack.push(a.and_then(|a| apply_unop(u, a).map_err(|e| (at, e))));
            }
            Op::Bin(b, at) => {
                let y = stack.pop().unwrap_or(Ok(Value::absolute(0)));
                let x = stack.pop().unwrap_or(Ok(Value::absolute(0)));
                stack.push(match (x, y) {
                    (Ok(x), Ok(y)) => apply_binop(b, x, y).map_err(|e| (at, e)),
                    (Err(e), _) | (_, Err(e)) => Err(e),
                });
            }
            Op::Select(at) => {
                let f = stack.pop().unwrap_or(Ok(Value::absolute(0)));
                let t = stack.pop().unwrap_or(Ok(Value::absolute(0)));
                let c = stack.pop().unwrap_or(Ok(Value::absolute(0)));
                stack.push(match c {
                    Ok(c) if c.section.is_some() => Err((at, "relative value as a condition")),
                    Ok(c) => {
                        if c.value != 0 {
                            t
                        } else {
                            f
                        }
                    }
                    Err(e) => Err(e),
                });
            }
        }
    }
    match stack.pop() {
        Some(Ok(v)) => Ok(Some(v)),
        Some(Err((at, message))) => Err(ExprError::new(at as usize, message)),
        None => Err(ExprError::new(0, "empty expression")),
    }
}

/// Marks every symbol an operation list refers to as captured (see the
/// module documentation of [`super::symbols`]).
pub fn capture_symbols(ops: &[Op], syms: &mut SymbolTable) {
    for op in ops {
        if let Op::Sym(id) = op {
            syms.get_mut(*id).captured = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::context::SectionId;

    fn eval_str(text: &str) -> Result<Option<i64>, ExprError> {
        let mut syms = SymbolTable::new();
        let mut out = Vec::new();
        let mut p = ExprParser::new(text, 0, &mut syms, &mut out, Value::absolute(0), true);
        p.parse()?;
        let end = p.pos;
        assert_eq!(end, text.trim_end().len(), "unparsed rest in {text:?}");
        let mut stack = Vec::new();
        Ok(evaluate(&out, &mut syms, &mut stack)?.map(|v| v.value))
    }

    fn v(text: &str) -> i64 {
        eval_str(text).unwrap().unwrap()
    }

    #[test]
    fn operators_and_precedence() {
        assert_eq!(v("1+2*3"), 7);
        assert_eq!(v("(1+2)*3"), 9);
        assert_eq!(v("1 << 4 + 1"), 17); // << binds tighter than +
        assert_eq!(v("-7/2"), -3);
        assert_eq!(v("-7//2"), ((-7i64 as u64) / 2) as i64);
        assert_eq!(v("-7%3"), -1);
        assert_eq!(v("-7%%3"), ((-7i64 as u64) % 3) as i64);
        assert_eq!(v("-16>>1"), ((-16i64 as u64) >> 1) as i64);
        assert_eq!(v("-16>>>1"), -8);
        assert_eq!(v("5 ! 0"), -1);
        assert_eq!(v("1<>2"), -1);
        assert_eq!(v("1==1"), -1);
        assert_eq!(v("1!=1"), 0);
        assert_eq!(v("-1 <@ 1"), 0);
        assert_eq!(v("-1 < 1"), -1);
        assert_eq!(v("-1 >=@ 1"), -1);
        assert_eq!(v("2 <=@ 2"), -1);
        assert_eq!(v("3 >@ 2"), -1);
        assert_eq!(v("1 && 2"), 1);
        assert_eq!(v("0 || 0"), 0);
        assert_eq!(v("!0"), 1);
        assert_eq!(v("~0"), -1);
        assert_eq!(v("+5"), 5);
        assert_eq!(v("1 ? 2 : 3"), 2);
        assert_eq!(v("0 ? 2 : 0 ? 3 : 4"), 4);
        assert_eq!(v("0 ? 1/0 : 7"), 7);
        assert_eq!(v("1 | 6 ^ 3 & 1"), ((1 | 6) ^ 3) & 1);
        assert_eq!(v("1 << 64"), 0);
    }

    #[test]
    fn literals() {
        assert_eq!(v("0x1F"), 31);
        assert_eq!(v("017"), 15);
        assert_eq!(v("0b101"), 5);
        assert_eq!(v("'a'"), 97);
        assert_eq!(v("'\\n'"), 10);
        assert_eq!(v("'\\x41'"), 65);
        assert_eq!(v("'\\101'"), 65);
        assert_eq!(v("0xffffffffffffffff"), -1);
        assert!(eval_str("99999999999999999999").is_err());
        assert!(eval_str("08").is_err());
        assert!(eval_str("'ab'").is_err());
        assert!(eval_str("'\\q'").is_err());
    }

    #[test]
    fn errors_are_values() {
        assert_eq!(eval_str("1/0").unwrap_err().message, "division by zero");
        assert!(eval_str("1%%0").is_err());
        assert!(eval_str("(1").is_err());
        assert!(eval_str("1 ? 2").is_err());
        assert!(eval_str("").is_err());
        let deep = "-".repeat(10_000) + "1";
        assert!(eval_str(&deep).is_err());
        let parens = "(".repeat(10_000);
        assert!(eval_str(&parens).is_err());
    }

    #[test]
    fn stops_at_foreign_tokens() {
        let mut syms = SymbolTable::new();
        for (text, end) in [
            ("4:7]", 1),
            ("12 glc", 2),
            ("a, b", 1),
            ("x)", 1),
            ("1 = 2", 1),
            ("1 ? 2 : 3 ]", 9),
        ] {
            let mut out = Vec::new();
            let mut p = ExprParser::new(text, 0, &mut syms, &mut out, Value::absolute(0), true);
            p.parse().unwrap();
            assert_eq!(p.pos, end, "{text}");
        }
    }

    #[test]
    fn undefined_symbols_defer() {
        assert_eq!(eval_str("later + 1").unwrap(), None);
    }

    #[test]
    fn relative_values() {
        let s = Some(SectionId(0));
        let a = Value {
            value: 8,
            section: s,
        };
        let b = Value {
            value: 4,
            section: s,
        };
        assert_eq!(apply_binop(BinOp::Sub, a, b), Ok(Value::absolute(4)));
        assert_eq!(
            apply_binop(BinOp::Add, a, Value::absolute(1))
                .unwrap()
                .section,
            s
        );
        assert!(apply_binop(BinOp::Add, a, b).is_err());
        assert!(apply_binop(BinOp::Mul, a, b).is_err());
        assert!(apply_binop(BinOp::Sub, Value::absolute(1), a).is_err());
        assert_eq!(apply_binop(BinOp::Lt, b, a), Ok(Value::absolute(-1)));
    }

    #[test]
    fn string_literals() {
        let mut out = Vec::new();
        let mut pos = 0;
        parse_string_literal("\"a\\tb\\\"\"", &mut pos, &mut out).unwrap();
        assert_eq!(out, b"a\tb\"");
        assert!(parse_string_literal("\"abc", &mut 0, &mut out).is_err());
        assert!(parse_string_literal("\"\\z\"", &mut 0, &mut out).is_err());
    }
}
