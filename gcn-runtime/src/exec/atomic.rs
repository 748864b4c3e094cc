//! The atomic operations of every memory family (SMEM, DS, MUBUF, MIMG,
//! FLAT/GLOBAL): one definition of each read-modify-write (32- and 64-bit,
//! integer and float), selected by the row's [`gcn_asm::isa::AtomicOp`],
//! and `dispatch_atomic!`, which monomorphises a family's atomic handler
//! per operation so the hot loop never dispatches on it.

/// Atomic operation codes, the const parameter of the atomic handlers:
/// the discriminants of the rows' [`gcn_asm::isa::AtomicOp`].
pub(crate) mod atomic_op {
    use gcn_asm::isa::AtomicOp;

    /// `new = a`.
    pub const SWAP: u8 = AtomicOp::Swap as u8;
    /// `new = old == b ? a : old` (a: the new value, b: the compare value).
    pub const CMPSWAP: u8 = AtomicOp::Cmpswap as u8;
    /// `old + a`.
    pub const ADD: u8 = AtomicOp::Add as u8;
    /// `old - a`.
    pub const SUB: u8 = AtomicOp::Sub as u8;
    /// `a - old`.
    pub const RSUB: u8 = AtomicOp::Rsub as u8;
    /// Signed minimum.
    pub const SMIN: u8 = AtomicOp::Smin as u8;
    /// Unsigned minimum.
    pub const UMIN: u8 = AtomicOp::Umin as u8;
    /// Signed maximum.
    pub const SMAX: u8 = AtomicOp::Smax as u8;
    /// Unsigned maximum.
    pub const UMAX: u8 = AtomicOp::Umax as u8;
    /// `old & a`.
    pub const AND: u8 = AtomicOp::And as u8;
    /// `old | a`.
    pub const OR: u8 = AtomicOp::Or as u8;
    /// `old ^ a`.
    pub const XOR: u8 = AtomicOp::Xor as u8;
    /// `old < a ? old + 1 : 0`.
    pub const INC: u8 = AtomicOp::Inc as u8;
    /// `old != 0 && old <= a ? old - 1 : a`.
    pub const DEC: u8 = AtomicOp::Dec as u8;
    /// [`CMPSWAP`] comparing as floats.
    pub const FCMPSWAP: u8 = AtomicOp::Fcmpswap as u8;
    /// Float minimum.
    pub const FMIN: u8 = AtomicOp::Fmin as u8;
    /// Float maximum.
    pub const FMAX: u8 = AtomicOp::Fmax as u8;
    /// `(old & !a) | b`.
    pub const MSKOR: u8 = AtomicOp::Mskor as u8;
    /// `old >= a ? old - a : old + b`.
    pub const WRAP: u8 = AtomicOp::Wrap as u8;
    /// Float addition.
    pub const FADD: u8 = AtomicOp::Fadd as u8;
}

use atomic_op::*;

/// True for the operations that use the second data operand.
pub(crate) const fn uses_b(op: u8) -> bool {
    matches!(op, CMPSWAP | FCMPSWAP | MSKOR | WRAP)
}

fn min_f32(x: f32, y: f32) -> f32 {
    if x.is_nan() {
        y
    } else if y.is_nan() || x < y || (x == y && x.is_sign_negative()) {
        x
    } else {
        y
    }
}

fn max_f32(x: f32, y: f32) -> f32 {
    if x.is_nan() {
        y
    } else if y.is_nan() || x > y || (x == y && x.is_sign_positive()) {
        x
    } else {
        y
    }
}

fn min_f64(x: f64, y: f64) -> f64 {
    if x.is_nan() {
        y
    } else if y.is_nan() || x < y || (x == y && x.is_sign_negative()) {
        x
    } else {
        y
    }
}

fn max_f64(x: f64, y: f64) -> f64 {
    if x.is_nan() {
        y
    } else if y.is_nan() || x > y || (x == y && x.is_sign_positive()) {
        x
    } else {
        y
    }
}

/// The new value of a 32-bit atomic `op` on `old` with data `a` (and `b`,
/// see [`atomic_op`]).
#[inline]
pub(crate) fn atomic32(op: u8, old: u32, a: u32, b: u32) -> u32 {
    let f = f32::from_bits;
    match op {
        SWAP => a,
        CMPSWAP => {
            if old == b {
                a
            } else {
                old
            }
        }
        ADD => old.wrapping_add(a),
        SUB => old.wrapping_sub(a),
        RSUB => a.wrapping_sub(old),
        SMIN => (old as i32).min(a as i32) as u32,
        UMIN => old.min(a),
        SMAX => (old as i32).max(a as i32) as u32,
        UMAX => old.max(a),
        AND => old & a,
        OR => old | a,
        XOR => old ^ a,
        INC => {
            if old < a {
                old + 1
            } else {
                0
            }
        }
        DEC => {
            if old != 0 && old <= a {
                old - 1
            } else {
                a
            }
        }
        FCMPSWAP => {
            if f(old) == f(b) {
                a
            } else {
                old
            }
        }
        FMIN => min_f32(f(old), f(a)).to_bits(),
        FMAX => max_f32(f(old), f(a)).to_bits(),
        MSKOR => (old & !a) | b,
        WRAP => {
            if old >= a {
                old - a
            } else {
                old.wrapping_add(b)
            }
        }
        FADD => (f(old) + f(a)).to_bits(),
        _ => old,
    }
}

/// The new value of a 64-bit atomic `op` (see [`atomic32`]).
#[inline]
pub(crate) fn atomic64(op: u8, old: u64, a: u64, b: u64) -> u64 {
    let f = f64::from_bits;
    match op {
        SWAP => a,
        CMPSWAP => {
            if old == b {
                a
            } else {
                old
            }
        }
        ADD => old.wrapping_add(a),
        SUB => old.wrapping_sub(a),
        RSUB => a.wrapping_sub(old),
        SMIN => (old as i64).min(a as i64) as u64,
        UMIN => old.min(a),
        SMAX => (old as i64).max(a as i64) as u64,
        UMAX => old.max(a),
        AND => old & a,
        OR => old | a,
        XOR => old ^ a,
        INC => {
            if old < a {
                old + 1
            } else {
                0
            }
        }
        DEC => {
            if old != 0 && old <= a {
                old - 1
            } else {
                a
            }
        }
        FCMPSWAP => {
            if f(old) == f(b) {
                a
            } else {
                old
            }
        }
        FMIN => min_f64(f(old), f(a)).to_bits(),
        FMAX => max_f64(f(old), f(a)).to_bits(),
        MSKOR => (old & !a) | b,
        WRAP => {
            if old >= a {
                old - a
            } else {
                old.wrapping_add(b)
            }
        }
        FADD => (f(old) + f(a)).to_bits(),
        _ => old,
    }
}

/// Expands to the handler `$f::<CODE, rest…>` for the runtime atomic code
/// `$code` (`None` for an unknown code): the handlers take the operation as
/// a const parameter, so the hot loop never dispatches on it.
macro_rules! dispatch_atomic {
    ($code:expr, $f:ident $(, $rest:tt)*) => {{
        use $crate::exec::atomic::atomic_op::*;
        let handler: Option<$crate::exec::Handler> = match $code {
            SWAP => Some($f::<SWAP $(, $rest)*>),
            CMPSWAP => Some($f::<CMPSWAP $(, $rest)*>),
            ADD => Some($f::<ADD $(, $rest)*>),
            SUB => Some($f::<SUB $(, $rest)*>),
            RSUB => Some($f::<RSUB $(, $rest)*>),
            SMIN => Some($f::<SMIN $(, $rest)*>),
            UMIN => Some($f::<UMIN $(, $rest)*>),
            SMAX => Some($f::<SMAX $(, $rest)*>),
            UMAX => Some($f::<UMAX $(, $rest)*>),
            AND => Some($f::<AND $(, $rest)*>),
            OR => Some($f::<OR $(, $rest)*>),
            XOR => Some($f::<XOR $(, $rest)*>),
            INC => Some($f::<INC $(, $rest)*>),
            DEC => Some($f::<DEC $(, $rest)*>),
            FCMPSWAP => Some($f::<FCMPSWAP $(, $rest)*>),
            FMIN => Some($f::<FMIN $(, $rest)*>),
            FMAX => Some($f::<FMAX $(, $rest)*>),
            MSKOR => Some($f::<MSKOR $(, $rest)*>),
            WRAP => Some($f::<WRAP $(, $rest)*>),
            FADD => Some($f::<FADD $(, $rest)*>),
            _ => None,
        };
        handler
    }};
}
pub(crate) use dispatch_atomic;
