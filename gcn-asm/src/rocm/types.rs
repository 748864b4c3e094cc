//! What an argument's metadata says about its type, for tools that give
//! arguments types of their own (`gcn_kernel!`'s typed fields, the
//! Gallium-style argument record of the emulator).

use super::{AddressSpace, ArgMeta, ValueKind};
use crate::gallium::{ArgSemantic, ArgType, KernelArg};

/// A scalar type named by an argument's metadata: its value type (`f32`,
/// `I32`) or the element of its type name (`float`, `uint*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarType {
    /// Signed 8-bit integer (`char`, `i8`).
    I8,
    /// Unsigned 8-bit integer (`uchar`, `u8`).
    U8,
    /// Signed 16-bit integer (`short`, `i16`).
    I16,
    /// Unsigned 16-bit integer (`ushort`, `u16`).
    U16,
    /// IEEE half (`half`, `f16`).
    F16,
    /// Signed 32-bit integer (`int`, `i32`).
    I32,
    /// Unsigned 32-bit integer (`uint`, `u32`).
    U32,
    /// IEEE single (`float`, `f32`).
    F32,
    /// Signed 64-bit integer (`long`, `i64`).
    I64,
    /// Unsigned 64-bit integer (`ulong`, `u64`).
    U64,
    /// IEEE double (`double`, `f64`).
    F64,
}

/// Type names (OpenCL C, HIP and C's `<stdint.h>`) of each scalar type,
/// after qualifiers are dropped and words joined by one space.
const TYPE_NAMES: &[(&[&str], ScalarType)] = &[
    (&["char", "signed char", "int8_t"], ScalarType::I8),
    (&["uchar", "unsigned char", "uint8_t"], ScalarType::U8),
    (&["short", "signed short", "int16_t"], ScalarType::I16),
    (&["ushort", "unsigned short", "uint16_t"], ScalarType::U16),
    (&["half", "_Float16", "__fp16"], ScalarType::F16),
    (&["int", "signed int", "signed", "int32_t"], ScalarType::I32),
    (
        &["uint", "unsigned int", "unsigned", "uint32_t"],
        ScalarType::U32,
    ),
    (&["float"], ScalarType::F32),
    (
        &["long", "signed long", "int64_t", "long long"],
        ScalarType::I64,
    ),
    (
        &["ulong", "unsigned long", "uint64_t", "unsigned long long"],
        ScalarType::U64,
    ),
    (&["double"], ScalarType::F64),
];

/// Words of a type name that qualify it without changing the element type.
const QUALIFIERS: &[&str] = &[
    "const",
    "volatile",
    "restrict",
    "__restrict",
    "__restrict__",
    "__global",
    "global",
    "__constant",
    "constant",
];

impl ScalarType {
    /// Its size in bytes.
    pub fn size(self) -> u32 {
        match self {
            ScalarType::I8 | ScalarType::U8 => 1,
            ScalarType::I16 | ScalarType::U16 | ScalarType::F16 => 2,
            ScalarType::I32 | ScalarType::U32 | ScalarType::F32 => 4,
            ScalarType::I64 | ScalarType::U64 | ScalarType::F64 => 8,
        }
    }

    /// The metadata value type (`f32` in v3+, `F32` in v2); `None` for
    /// `struct` and unknown spellings.
    pub fn from_value_type(name: &str) -> Option<ScalarType> {
        Some(match name.to_ascii_lowercase().as_str() {
            "i8" => ScalarType::I8,
            "u8" => ScalarType::U8,
            "i16" => ScalarType::I16,
            "u16" => ScalarType::U16,
            "f16" => ScalarType::F16,
            "i32" => ScalarType::I32,
            "u32" => ScalarType::U32,
            "f32" => ScalarType::F32,
            "i64" => ScalarType::I64,
            "u64" => ScalarType::U64,
            "f64" => ScalarType::F64,
            _ => return None,
        })
    }

    /// A scalar type name (`float`, `unsigned int`, `const uint32_t`);
    /// `None` for vectors, structs, pointers and anything unknown.
    pub fn from_type_name(name: &str) -> Option<ScalarType> {
        let words: Vec<&str> = name
            .split_whitespace()
            .filter(|w| !QUALIFIERS.contains(w))
            .collect();
        let name = words.join(" ");
        TYPE_NAMES
            .iter()
            .find(|(names, _)| names.contains(&name.as_str()))
            .map(|&(_, t)| t)
    }
}

impl ArgMeta {
    /// The type of a by-value argument: its type name's, else its value
    /// type's, when that type has the argument's size (a `float4` has
    /// value type `f32` but 16 bytes: `None`).
    pub fn value_scalar(&self) -> Option<ScalarType> {
        if self.value_kind != ValueKind::ByValue {
            return None;
        }
        let from_name = self.type_name.as_deref().map(ScalarType::from_type_name);
        let ty = match from_name {
            Some(t) => t,
            // No type name: the value type decides.
            None => self
                .value_type
                .as_deref()
                .and_then(ScalarType::from_value_type),
        };
        ty.filter(|t| t.size() == self.size)
    }

    /// The element type of a global buffer whose type name is a scalar
    /// type followed by one `*` (`float*`, `const uint *`); `None` for any
    /// other type name (`float4*`, `struct S*`) or none. The value type is
    /// not used: LLVM gives a `float4*` the value type `f32`.
    pub fn pointee_scalar(&self) -> Option<ScalarType> {
        if self.value_kind != ValueKind::GlobalBuffer {
            return None;
        }
        let name = self.type_name.as_deref()?.trim();
        let element = name.strip_suffix('*')?;
        if element.contains('*') {
            return None;
        }
        // `float*restrict`: a qualifier after the star is not a suffix.
        ScalarType::from_type_name(element)
    }

    /// The Gallium-style argument record of an explicit argument: what
    /// tools that handle both formats read (the emulator's argument
    /// checks, gcnrun's signature, `gcn_kernel!`'s kernel handles). The
    /// kind follows the value kind (a global buffer in the constant
    /// address space is `constant`), sizes and alignment the metadata;
    /// nothing is extended.
    pub fn record(&self) -> KernelArg {
        let ty = match self.value_kind {
            ValueKind::GlobalBuffer => match self.address_space {
                Some(AddressSpace::Constant) => ArgType::Constant,
                _ => ArgType::Global,
            },
            ValueKind::DynamicSharedPointer => ArgType::Local,
            ValueKind::Image => ArgType::Image2dRdonly,
            ValueKind::Sampler => ArgType::Sampler,
            _ => ArgType::Scalar,
        };
        KernelArg {
            ty,
            size: self.size,
            target_size: self.size,
            target_align: self.align.max(1),
            sign_extended: false,
            semantic: ArgSemantic::General,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(
        kind: ValueKind,
        type_name: Option<&str>,
        value_type: Option<&str>,
        size: u32,
    ) -> ArgMeta {
        ArgMeta {
            name: None,
            type_name: type_name.map(str::to_string),
            offset: 0,
            size,
            align: size,
            value_kind: kind,
            value_type: value_type.map(str::to_string),
            address_space: None,
            access: None,
            actual_access: None,
            pointee_align: None,
            is_const: false,
            is_restrict: false,
            is_volatile: false,
            is_pipe: false,
        }
    }

    #[test]
    fn type_names() {
        assert_eq!(ScalarType::from_type_name("float"), Some(ScalarType::F32));
        assert_eq!(
            ScalarType::from_type_name(" const unsigned  int "),
            Some(ScalarType::U32)
        );
        assert_eq!(
            ScalarType::from_type_name("uint32_t"),
            Some(ScalarType::U32)
        );
        assert_eq!(ScalarType::from_type_name("float4"), None);
        assert_eq!(ScalarType::from_type_name("struct S"), None);
        assert_eq!(ScalarType::from_value_type("F64"), Some(ScalarType::F64));
        assert_eq!(ScalarType::from_value_type("struct"), None);
    }

    #[test]
    fn argument_types() {
        let g = ValueKind::GlobalBuffer;
        assert_eq!(
            arg(g.clone(), Some("float*"), Some("f32"), 8).pointee_scalar(),
            Some(ScalarType::F32)
        );
        assert_eq!(
            arg(g.clone(), Some("const uint *"), None, 8).pointee_scalar(),
            Some(ScalarType::U32)
        );
        // A vector element, a pointer to pointer, no type name: unknown
        // (the value type is not trusted for pointers).
        assert_eq!(
            arg(g.clone(), Some("float4*"), Some("f32"), 8).pointee_scalar(),
            None
        );
        assert_eq!(
            arg(g.clone(), Some("int**"), Some("i32"), 8).pointee_scalar(),
            None
        );
        assert_eq!(arg(g, None, Some("f32"), 8).pointee_scalar(), None);
        let v = ValueKind::ByValue;
        assert_eq!(
            arg(v.clone(), Some("float"), Some("f32"), 4).value_scalar(),
            Some(ScalarType::F32)
        );
        // No type name: the value type, if the size agrees.
        assert_eq!(
            arg(v.clone(), None, Some("F64"), 8).value_scalar(),
            Some(ScalarType::F64)
        );
        assert_eq!(
            arg(v.clone(), Some("float4"), Some("f32"), 16).value_scalar(),
            None
        );
        assert_eq!(
            arg(v.clone(), Some("float"), Some("f32"), 8).value_scalar(),
            None
        );
        // A type name that is not a scalar wins over the value type.
        assert_eq!(
            arg(v, Some("struct S"), Some("i32"), 4).value_scalar(),
            None
        );
    }
}
