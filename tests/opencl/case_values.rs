//! Reading the values of `tests/opencl/cases.json` (and of
//! `tests/rocm/cases.json`, which has the same layout): the work sizes,
//! the arguments, and the ULP distance the outputs are compared by.
//! Shared by `tests/opencl_run.rs`, `tests/rocm_run.rs` and
//! `examples/mutation_study.rs` (each includes it with `#[path]`).

use std::path::Path;

use gcn_runtime::kernel::{ArgValue, LocalMemory};
use gcn_runtime::{Buffer, Memory};
use serde_json::Value;

/// The host contents of a case argument: a `buffer`'s bytes (its file,
/// relative to `dir`) or a `zero` buffer's zeros; `None` for the other
/// kinds.
pub fn arg_bytes(arg: &Value, dir: &Path) -> Result<Option<Vec<u8>>, String> {
    Ok(match arg["kind"].as_str() {
        Some("buffer") => {
            let path = dir.join(arg["file"].as_str().ok_or("no file")?);
            Some(std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        Some("zero") => Some(vec![0; arg["size"].as_u64().ok_or("no size")? as usize]),
        _ => None,
    })
}

/// The launch values of a case's `args`, each buffer in `memory` with the
/// contents `inputs` gives it ([`arg_bytes`]), and the buffers by argument
/// index (for the outputs). A scalar gets the bytes the case writes,
/// padded or cut to `scalar_size(i)` bytes when that is known (a 3-element
/// vector is written with 4 values; the kernel's metadata decides).
#[allow(clippy::type_complexity)]
pub fn launch_values(
    memory: &Memory,
    args: &Value,
    inputs: &[Option<Vec<u8>>],
    scalar_size: impl Fn(usize) -> Option<usize>,
) -> Result<(Vec<ArgValue>, Vec<Option<Buffer<u8>>>), String> {
    let mut values = Vec::new();
    let mut buffers = Vec::new();
    let args = args.as_array().ok_or("no args")?;
    for (i, arg) in args.iter().enumerate() {
        let input = inputs.get(i).and_then(Option::as_ref);
        match (arg["kind"].as_str().unwrap_or(""), input) {
            (_, Some(bytes)) => {
                let b = memory.buffer_from_slice(bytes).map_err(|e| e.to_string())?;
                values.push(ArgValue::Pointer(b.ptr()));
                buffers.push(Some(b));
            }
            ("local", None) => {
                let size = arg["size"].as_u64().ok_or("no size")? as u32;
                values.push(ArgValue::Local(LocalMemory(size)));
                buffers.push(None);
            }
            ("scalar", None) => {
                let ty = arg["type"].as_str().ok_or("no type")?;
                let mut bytes: Vec<u8> = arg["values"]
                    .as_array()
                    .ok_or("no values")?
                    .iter()
                    .flat_map(|v| scalar_bytes(ty, v))
                    .collect();
                if let Some(size) = scalar_size(i) {
                    bytes.resize(size, 0);
                }
                values.push(ArgValue::Scalar(bytes));
                buffers.push(None);
            }
            (k, _) => return Err(format!("unknown argument kind {k}")),
        }
    }
    Ok((values, buffers))
}

/// The three sizes of a `global`/`local`/`offset` entry.
pub fn dims(v: &Value) -> [u32; 3] {
    let a = v.as_array().expect("three sizes");
    [0, 1, 2].map(|i| a[i].as_u64().expect("size") as u32)
}

/// Parses a scalar value as the case writes it (numbers, or hex strings
/// for exact bit patterns) into little-endian bytes of `ty`.
pub fn scalar_bytes(ty: &str, v: &Value) -> Vec<u8> {
    let bits: u64 = match v {
        Value::String(s) => {
            u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex bit pattern")
        }
        Value::Number(n) => match ty {
            "f32" => u64::from((n.as_f64().expect("number") as f32).to_bits()),
            "f64" => n.as_f64().expect("number").to_bits(),
            _ => n
                .as_i64()
                .map(|i| i as u64)
                .or_else(|| n.as_u64())
                .expect("integer"),
        },
        _ => panic!("bad scalar value {v}"),
    };
    let size = match ty {
        "u8" | "i8" => 1,
        "u16" | "i16" | "f16" => 2,
        "u32" | "i32" | "f32" => 4,
        _ => 8,
    };
    bits.to_le_bytes()[..size].to_vec()
}

/// Distance in units in the last place between two floats of `bytes`
/// width (0 when both are NaN).
pub fn ulp_distance(a: &[u8], b: &[u8]) -> u64 {
    fn ordered(bits: i64, sign_bit: i64) -> i64 {
        if bits & sign_bit != 0 {
            sign_bit.wrapping_sub(bits) - sign_bit
        } else {
            bits
        }
    }
    if a.len() == 4 {
        let (x, y) = (
            f32::from_le_bytes(a.try_into().unwrap()),
            f32::from_le_bytes(b.try_into().unwrap()),
        );
        if x.is_nan() && y.is_nan() {
            return 0;
        }
        if x.is_nan() != y.is_nan() {
            return u64::MAX;
        }
        let s = 1i64 << 31;
        let (x, y) = (
            ordered(i64::from(x.to_bits()), s),
            ordered(i64::from(y.to_bits()), s),
        );
        x.abs_diff(y)
    } else {
        let (x, y) = (
            f64::from_le_bytes(a.try_into().unwrap()),
            f64::from_le_bytes(b.try_into().unwrap()),
        );
        if x.is_nan() && y.is_nan() {
            return 0;
        }
        if x.is_nan() != y.is_nan() {
            return u64::MAX;
        }
        let m = |v: f64| {
            let b = v.to_bits() as i64;
            if b < 0 {
                i64::MIN.wrapping_sub(b)
            } else {
                b
            }
        };
        m(x).abs_diff(m(y))
    }
}

/// How an output buffer of a case is compared with its reference (its
/// `outputs` entry in cases.json): element type, tolerance in ULP for
/// floats, and whether +0.0 and -0.0 compare equal (where the GPU code's
/// sign of zero knowingly differs from pocl's, see cases.py).
pub struct OutputRule {
    /// Element type (`u8` … `f64`).
    pub ty: String,
    /// Largest ULP distance allowed for float elements.
    pub tolerance: u64,
    /// +0.0 and -0.0 compare equal.
    pub any_zero_sign: bool,
}

impl OutputRule {
    /// The rule of an `outputs` entry.
    pub fn of(out: &Value) -> Result<OutputRule, String> {
        Ok(OutputRule {
            ty: out["type"].as_str().ok_or("no type")?.to_string(),
            tolerance: out["tolerance_ulp"].as_u64().unwrap_or(0),
            any_zero_sign: out["any_zero_sign"].as_bool().unwrap_or(false),
        })
    }

    /// `Ok` when output `i` (`got`) matches the reference `want` under the
    /// rule; else the size difference or the first element that does not.
    pub fn check(&self, i: usize, got: &[u8], want: &[u8]) -> Result<(), String> {
        if got.len() != want.len() {
            return Err(format!(
                "output {i}: {} bytes, expected {}",
                got.len(),
                want.len()
            ));
        }
        let is_zero = |b: &[u8]| {
            b.iter().rev().skip(1).all(|&x| x == 0) && b.last().is_some_and(|&x| x & 0x7f == 0)
        };
        let ty = self.ty.as_str();
        let size = match ty {
            "u8" | "i8" => 1,
            "u16" | "i16" => 2,
            "u32" | "i32" | "f32" => 4,
            _ => 8,
        };
        for (e, (g, w)) in got.chunks(size).zip(want.chunks(size)).enumerate() {
            let ok = match ty {
                "f32" | "f64" => {
                    ulp_distance(g, w) <= self.tolerance
                        || (self.any_zero_sign && is_zero(g) && is_zero(w))
                }
                _ => g == w,
            };
            if !ok {
                return Err(format!(
                    "output {i} ({ty}) element {e}: got {g:02x?}, expected {w:02x?} (tolerance {} ulp)",
                    self.tolerance
                ));
            }
        }
        Ok(())
    }
}
