//! The metadata note: YAML (code object v2, `NT_AMD_HSA_METADATA`) or
//! MessagePack (v3+, `NT_AMDGPU_METADATA`), parsed by `yaml-rust2` and
//! `rmpv` into one tree ([`MetaValue`]), and the kernel facts read out of it.

use super::{Access, AddressSpace, ArgMeta, PrintfFormat, RocmError, ValueKind};

/// How the metadata note is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetadataFormat {
    /// Code object v2: YAML with `Version`, `Kernels`, `Printf`.
    Yaml,
    /// Code objects v3+: MessagePack with `amdhsa.version`, `amdhsa.kernels`.
    MsgPack,
}

/// One value of the metadata tree (YAML and MessagePack alike).
#[derive(Clone, Debug, PartialEq)]
pub enum MetaValue {
    /// YAML `~`/`null`, MessagePack nil.
    Nil,
    /// A boolean.
    Bool(bool),
    /// A negative integer.
    Int(i64),
    /// A non-negative integer.
    UInt(u64),
    /// A floating-point number.
    Float(f64),
    /// A string.
    Str(String),
    /// MessagePack binary data.
    Bin(Vec<u8>),
    /// A sequence.
    Array(Vec<MetaValue>),
    /// A map with string keys, in file order.
    Map(Vec<(String, MetaValue)>),
}

impl MetaValue {
    /// The value of `key` in a map.
    pub fn get(&self, key: &str) -> Option<&MetaValue> {
        match self {
            MetaValue::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    /// A non-negative integer (or a YAML string of digits that the plain
    /// scalar rules did not type).
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            MetaValue::UInt(v) => Some(*v),
            MetaValue::Int(v) => u64::try_from(*v).ok(),
            _ => None,
        }
    }
    /// A string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            MetaValue::Str(s) => Some(s),
            _ => None,
        }
    }
    /// A boolean (MessagePack metadata may also write 0/1).
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            MetaValue::Bool(b) => Some(*b),
            MetaValue::UInt(v) => Some(*v != 0),
            _ => None,
        }
    }
    /// A sequence.
    pub fn as_array(&self) -> Option<&[MetaValue]> {
        match self {
            MetaValue::Array(a) => Some(a),
            _ => None,
        }
    }
}

/// The parsed metadata note.
#[derive(Clone, Debug, PartialEq)]
pub struct Metadata {
    /// YAML (v2) or MessagePack (v3+).
    pub format: MetadataFormat,
    /// The note's bytes as they are in the file.
    pub raw: Vec<u8>,
    /// The parsed tree.
    pub root: MetaValue,
}

/// Deeper metadata than this is not what any compiler writes; refusing it
/// keeps the conversion's recursion bounded.
const MAX_DEPTH: usize = 64;
/// At most this many values in a YAML document (a note is a few KiB).
const MAX_NODES: usize = 1 << 20;

impl Metadata {
    /// Parses a MessagePack note.
    pub fn from_msgpack(raw: &[u8]) -> Result<Metadata, RocmError> {
        let at = "the NT_AMDGPU_METADATA note";
        let mut rest = raw;
        let value = rmpv::decode::read_value_with_max_depth(&mut rest, MAX_DEPTH)
            .map_err(|e| RocmError::new(at, format!("the MessagePack is malformed: {e}")))?;
        let root = from_rmpv(value, at)?;
        Ok(Metadata {
            format: MetadataFormat::MsgPack,
            raw: raw.to_vec(),
            root,
        })
    }

    /// Parses a YAML note (trailing NULs, which writers pad with, allowed).
    pub fn from_yaml(raw: &[u8]) -> Result<Metadata, RocmError> {
        let at = "the NT_AMD_HSA_METADATA note";
        let end = raw.iter().rposition(|&b| b != 0).map_or(0, |p| p + 1);
        let text = std::str::from_utf8(&raw[..end])
            .map_err(|e| RocmError::new(at, format!("the YAML is not UTF-8 ({e})")))?;
        let text = clrx_dialect_as_yaml(text);
        let mut builder = YamlBuilder::default();
        let mut parser = yaml_rust2::parser::Parser::new_from_str(&text);
        parser
            .load(&mut builder, false)
            .map_err(|e| RocmError::new(at, format!("the YAML is malformed: {e}")))?;
        if let Some(e) = builder.error {
            return Err(RocmError::new(at, e));
        }
        let root = builder.done.unwrap_or(MetaValue::Nil);
        Ok(Metadata {
            format: MetadataFormat::Yaml,
            raw: raw.to_vec(),
            root,
        })
    }

    /// The metadata version (`Version` / `amdhsa.version`), if present.
    pub fn version(&self) -> Option<(u64, u64)> {
        let key = match self.format {
            MetadataFormat::Yaml => "Version",
            MetadataFormat::MsgPack => "amdhsa.version",
        };
        let v = self.root.get(key)?.as_array()?;
        Some((v.first()?.as_u64()?, v.get(1)?.as_u64()?))
    }

    /// The target (`amdhsa.target`, v4+), if present.
    pub fn target(&self) -> Option<&str> {
        self.root.get("amdhsa.target")?.as_str()
    }

    /// The kernels the metadata describes.
    pub fn kernels(&self) -> Result<Vec<KernelMeta>, RocmError> {
        let (key, v2) = match self.format {
            MetadataFormat::Yaml => ("Kernels", true),
            MetadataFormat::MsgPack => ("amdhsa.kernels", false),
        };
        let Some(list) = self.root.get(key) else {
            return Ok(Vec::new());
        };
        let list = list
            .as_array()
            .ok_or_else(|| RocmError::new("the metadata", format!("`{key}` is not a sequence")))?;
        list.iter()
            .enumerate()
            .map(|(i, k)| if v2 { kernel_v2(k, i) } else { kernel_v3(k, i) })
            .collect()
    }

    /// The printf formats (`Printf` / `amdhsa.printf`).
    pub fn printf_formats(&self) -> Result<Vec<PrintfFormat>, RocmError> {
        let key = match self.format {
            MetadataFormat::Yaml => "Printf",
            MetadataFormat::MsgPack => "amdhsa.printf",
        };
        let Some(list) = self.root.get(key) else {
            return Ok(Vec::new());
        };
        let at = format!("the metadata's `{key}`");
        let list = list
            .as_array()
            .ok_or_else(|| RocmError::new(&at, "it is not a sequence"))?;
        list.iter()
            .map(|s| {
                let s = s
                    .as_str()
                    .ok_or_else(|| RocmError::new(&at, "an entry is not a string"))?;
                parse_printf(s, self.format).ok_or_else(|| {
                    RocmError::new(&at, format!("`{s}` is not `ID:COUNT:SIZE...:FORMAT`"))
                })
            })
            .collect()
    }
}

/// clrxasm's YAML (and so this assembler's, [`MetaValue::to_clrx_yaml`])
/// is not quite YAML, and a YAML parser misreads it where CLRX's own reader
/// does not; each whole value (after `KEY:` or `- `) of that kind is
/// rewritten here as a double-quoted YAML scalar of what CLRX reads:
/// - a single-quoted scalar holds the C escapes of CLRX's
///   `escapeStringCStyle` (`'a\'b'`, `'\303\251'`), which a YAML parser
///   takes as they are, ending the scalar at `\'`: the decoded text;
///   except an entry of the top-level `Printf` list, whose escapes are the
///   printf format's (decoded by [`parse_printf`], as a compiler's literal
///   backslashes are), rewritten only when it holds a `\'`, as written;
/// - a string CLRX leaves unquoted (`escapeYAMLString`) that a YAML parser
///   refuses or types otherwise (`a: b`, `x # y`, `%d`, `[x]`, `~`, `null`,
///   a control character): the text, to the end of the line.
///
/// Other lines, and so any YAML a compiler writes, come back unchanged.
fn clrx_dialect_as_yaml(text: &str) -> std::borrow::Cow<'_, str> {
    let mut out = String::new();
    let mut changed = false;
    let mut top_key = "";
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        if !body.starts_with([' ', '-', '#']) {
            if let Some((key, _)) = body.split_once(':') {
                top_key = key.trim();
            }
        }
        let rewritten = clrx_line_value(body).and_then(|(at, keyed, value)| {
            let text = match value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')) {
                Some(inner) if !inner.contains('\\') => return None,
                Some(inner) if top_key == "Printf" => {
                    inner.contains("\\'").then(|| inner.to_string())?
                }
                Some(inner) => unescape_c_style(inner),
                None if keyed && yaml_misreads_plain(value) => value.to_string(),
                None => return None,
            };
            Some((at, text))
        });
        let Some((at, value)) = rewritten else {
            out.push_str(line);
            continue;
        };
        changed = true;
        out.push_str(&body[..at]);
        out.push('"');
        for c in value.chars() {
            match c {
                '"' | '\\' => {
                    out.push('\\');
                    out.push(c);
                }
                c if u32::from(c) < 0x20 || c == '\x7f' => {
                    out.push_str(&format!("\\x{:02x}", u32::from(c)));
                }
                c => out.push(c),
            }
        }
        out.push('"');
        out.push_str(&line[body.len()..]);
    }
    if changed {
        std::borrow::Cow::Owned(out)
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// In one line of YAML, the value after `KEY:` or `- ` (`  KEY:   v`,
/// `  - v`, `  - KEY: v`), trailing spaces trimmed: where it starts,
/// whether a key precedes it, and its text; `None` for no value.
fn clrx_line_value(line: &str) -> Option<(usize, bool, &str)> {
    let mut rest = line.trim_start_matches(' ');
    let mut keyed = false;
    if let Some(r) = rest.strip_prefix("- ") {
        rest = r.trim_start_matches(' ');
    }
    if !rest.starts_with('\'') {
        let (key, value) = rest.split_once(':')?;
        if key.is_empty()
            || !key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
        {
            return None;
        }
        rest = value.trim_start_matches(' ');
        keyed = true;
    }
    let value = rest.trim_end_matches(' ');
    (!value.is_empty()).then(|| (line.len() - rest.len(), keyed, value))
}

/// Whether a YAML parser refuses, or reads as other than a string, this
/// plain scalar that CLRX reads as the string it is: one with `: ` or ` #`
/// in it, a control character, a leading indicator, or a null; an integer
/// sequence in flow style (`[ 1, 0 ]`) is not one.
fn yaml_misreads_plain(v: &str) -> bool {
    let b = v.as_bytes();
    let inner = v.strip_prefix('[').and_then(|v| v.strip_suffix(']'));
    if inner.is_some_and(|v| {
        v.bytes()
            .all(|c| c.is_ascii_digit() || c == b',' || c == b' ')
    }) {
        return false;
    }
    // (`'`, `"`, `&`, `*`, `!` CLRX quotes; in YAML they start a quoted
    // scalar, an anchor, an alias, a tag.)
    let indicator = b"%@`|>#,[]{}".contains(&b[0])
        || (b"-?:".contains(&b[0]) && b.get(1).is_none_or(|&c| c == b' '));
    indicator
        || v.contains(": ")
        || v.contains(" #")
        || v.ends_with(':')
        || b.iter().any(|&c| c < 0x20 || c == 0x7f)
        || matches!(v, "~" | "null" | "Null" | "NULL")
}

/// Parses one `ID:N:S0:...:SN-1:FORMAT` printf string of metadata in
/// `format`; the format string comes back unescaped as clrxasm escapes it
/// ([`clrx_printf_format`]).
pub fn parse_printf(s: &str, format: MetadataFormat) -> Option<PrintfFormat> {
    let mut parts = s.splitn(3, ':');
    let id = parts.next()?.trim().parse().ok()?;
    let count: usize = parts.next()?.trim().parse().ok()?;
    let mut rest = parts.next()?;
    // Each size is a field of its own; the format is the rest, colons and all.
    let mut arg_sizes = Vec::new();
    for _ in 0..count {
        let (size, tail) = rest.split_once(':')?;
        arg_sizes.push(size.trim().parse().ok()?);
        rest = tail;
    }
    Some(PrintfFormat {
        id,
        arg_sizes,
        format: unescape_printf_format(rest, format),
    })
}

/// CLRX's `escapeStringCStyle`: `\a`..`\r` for those control characters,
/// `\"`, `\'`, `\\`, other bytes below 0x20 or above 0x7e as the
/// shortest octal escape (a digit after a short one escaped too, so that it
/// does not extend it).
pub fn escape_c_style(s: &[u8]) -> String {
    let mut out = String::with_capacity(s.len());
    let mut short_octal = false;
    for &c in s {
        let named = match c {
            7 => Some('a'),
            8 => Some('b'),
            9 => Some('t'),
            10 => Some('n'),
            11 => Some('v'),
            12 => Some('f'),
            13 => Some('r'),
            _ => None,
        };
        if !(0x20..=0x7e).contains(&c) || (short_octal && (b'0'..=b'7').contains(&c)) {
            out.push('\\');
            if let Some(n) = named {
                out.push(n);
                short_octal = false;
            } else {
                if c >> 6 != 0 {
                    out.push(char::from(b'0' + (c >> 6)));
                }
                if c >> 3 != 0 {
                    out.push(char::from(b'0' + (c >> 3 & 7)));
                }
                out.push(char::from(b'0' + (c & 7)));
                short_octal = c >> 6 == 0;
            }
            continue;
        }
        short_octal = false;
        match c {
            b'"' | b'\'' | b'\\' => {
                out.push('\\');
                out.push(char::from(c));
            }
            _ => out.push(char::from(c)),
        }
    }
    out
}

/// The format of a printf entry as clrxasm writes it in the metadata: for
/// YAML (code object v2) C-escaped ([`escape_c_style`]), then, for both
/// encodings, each `:` as `\72` (CLRX's `escapePrintfFormat`).
pub fn clrx_printf_format(fmt: &str, format: MetadataFormat) -> String {
    let escaped = match format {
        MetadataFormat::Yaml => escape_c_style(fmt.as_bytes()),
        MetadataFormat::MsgPack => fmt.to_string(),
    };
    escaped.replace(':', "\\72")
}

/// The inverse of [`clrx_printf_format`], as CLRX's metadata reader reads
/// it: in YAML every C escape; in MessagePack `\72` (what clrxasm writes
/// for `:`). A backslash that starts no escape stays.
fn unescape_printf_format(s: &str, format: MetadataFormat) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    match format {
        MetadataFormat::MsgPack => s.replace("\\72", ":"),
        MetadataFormat::Yaml => unescape_c_style(s),
    }
}

/// The inverse of [`escape_c_style`], as CLRX's YAML reader decodes a
/// quoted string: every C escape (the assembler's own string escapes); a
/// backslash that starts no escape stays.
fn unescape_c_style(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' {
            let mut at = i + 1;
            if let Ok(b) = crate::syntax::expr::parse_escape(bytes, &mut at) {
                out.push(b);
                i = at;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// What the metadata says about one kernel.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KernelMeta {
    /// Its name.
    pub name: String,
    /// Its symbol (`NAME.kd` in v3+, `NAME@kd` in v2).
    pub symbol: Option<String>,
    /// Its arguments.
    pub args: Vec<ArgMeta>,
    /// Kernarg segment size.
    pub kernarg_segment_size: Option<u32>,
    /// Kernarg segment alignment.
    pub kernarg_segment_align: Option<u32>,
    /// Group segment fixed size.
    pub group_segment_fixed_size: Option<u32>,
    /// Private segment fixed size.
    pub private_segment_fixed_size: Option<u32>,
    /// Wavefront size.
    pub wavefront_size: Option<u32>,
    /// SGPR count.
    pub sgpr_count: Option<u32>,
    /// VGPR count.
    pub vgpr_count: Option<u32>,
    /// Maximum flat work-group size.
    pub max_flat_workgroup_size: Option<u32>,
    /// Required work-group size.
    pub reqd_workgroup_size: Option<[u32; 3]>,
    /// Uniform work-group size.
    pub uniform_work_group_size: bool,
}

fn u32_field(map: &MetaValue, key: &str, at: &str) -> Result<Option<u32>, RocmError> {
    match map.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_u64()
            .and_then(|v| u32::try_from(v).ok())
            .map(Some)
            .ok_or_else(|| {
                RocmError::new(at, format!("`{key}` is not an unsigned 32-bit integer"))
            }),
    }
}

fn str_field(map: &MetaValue, key: &str, at: &str) -> Result<Option<String>, RocmError> {
    match map.get(key) {
        None => Ok(None),
        Some(MetaValue::Str(s)) => Ok(Some(s.clone())),
        // A YAML plain scalar such as `TypeName: int` or a digit-only name
        // is still the text that was written.
        Some(MetaValue::UInt(v)) => Ok(Some(v.to_string())),
        Some(MetaValue::Bool(b)) => Ok(Some(b.to_string())),
        Some(_) => Err(RocmError::new(at, format!("`{key}` is not a string"))),
    }
}

fn bool_field(map: &MetaValue, key: &str, at: &str) -> Result<bool, RocmError> {
    match map.get(key) {
        None => Ok(false),
        Some(v) => v
            .as_bool()
            .ok_or_else(|| RocmError::new(at, format!("`{key}` is not a boolean"))),
    }
}

fn dims_field(map: &MetaValue, key: &str, at: &str) -> Result<Option<[u32; 3]>, RocmError> {
    let Some(v) = map.get(key) else {
        return Ok(None);
    };
    let bad = || RocmError::new(at, format!("`{key}` is not three unsigned integers"));
    let a = v.as_array().ok_or_else(bad)?;
    if a.len() != 3 {
        return Err(bad());
    }
    let mut out = [0u32; 3];
    for (o, v) in out.iter_mut().zip(a) {
        *o = v
            .as_u64()
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(bad)?;
    }
    Ok(Some(out))
}

fn need_map<'a>(v: &'a MetaValue, at: &str) -> Result<&'a MetaValue, RocmError> {
    match v {
        MetaValue::Map(_) => Ok(v),
        _ => Err(RocmError::new(at, "it is not a map")),
    }
}

fn kernel_v3(k: &MetaValue, index: usize) -> Result<KernelMeta, RocmError> {
    let at = format!("the metadata's kernel #{index}");
    let k = need_map(k, &at)?;
    let name =
        str_field(k, ".name", &at)?.ok_or_else(|| RocmError::new(&at, "it has no `.name`"))?;
    let at = format!("the metadata of kernel `{name}`");
    let mut args = Vec::new();
    if let Some(list) = k.get(".args") {
        let list = list
            .as_array()
            .ok_or_else(|| RocmError::new(&at, "`.args` is not a sequence"))?;
        for (i, a) in list.iter().enumerate() {
            let at = format!("{at}, argument #{i}");
            let a = need_map(a, &at)?;
            let kind = str_field(a, ".value_kind", &at)?
                .ok_or_else(|| RocmError::new(&at, "it has no `.value_kind`"))?;
            let size = u32_field(a, ".size", &at)?
                .ok_or_else(|| RocmError::new(&at, "it has no `.size`"))?;
            let offset = u32_field(a, ".offset", &at)?
                .ok_or_else(|| RocmError::new(&at, "it has no `.offset`"))?;
            args.push(ArgMeta {
                name: str_field(a, ".name", &at)?,
                type_name: str_field(a, ".type_name", &at)?,
                offset,
                size,
                // v3+ has no per-argument alignment: the natural one of the size.
                align: natural_align(size),
                value_kind: ValueKind::from_name(&kind),
                value_type: str_field(a, ".value_type", &at)?,
                address_space: enum_field(a, ".address_space", &at, AddressSpace::from_name)?,
                access: enum_field(a, ".access", &at, Access::from_name)?,
                actual_access: enum_field(a, ".actual_access", &at, Access::from_name)?,
                pointee_align: u32_field(a, ".pointee_align", &at)?,
                is_const: bool_field(a, ".is_const", &at)?,
                is_restrict: bool_field(a, ".is_restrict", &at)?,
                is_volatile: bool_field(a, ".is_volatile", &at)?,
                is_pipe: bool_field(a, ".is_pipe", &at)?,
            });
        }
    }
    Ok(KernelMeta {
        // clrxasm writes an empty symbol when the source names none.
        symbol: str_field(k, ".symbol", &at)?.filter(|s| !s.is_empty()),
        args,
        kernarg_segment_size: u32_field(k, ".kernarg_segment_size", &at)?,
        kernarg_segment_align: u32_field(k, ".kernarg_segment_align", &at)?,
        group_segment_fixed_size: u32_field(k, ".group_segment_fixed_size", &at)?,
        private_segment_fixed_size: u32_field(k, ".private_segment_fixed_size", &at)?,
        wavefront_size: u32_field(k, ".wavefront_size", &at)?,
        sgpr_count: u32_field(k, ".sgpr_count", &at)?,
        vgpr_count: u32_field(k, ".vgpr_count", &at)?,
        // clrxasm writes 2^64-2, its "not supplied" marker, when the source
        // does not give it.
        max_flat_workgroup_size: match k.get(".max_flat_workgroup_size") {
            Some(v) if v.as_u64() == Some(u64::MAX - 1) => None,
            _ => u32_field(k, ".max_flat_workgroup_size", &at)?,
        },
        reqd_workgroup_size: dims_field(k, ".reqd_workgroup_size", &at)?,
        uniform_work_group_size: bool_field(k, ".uniform_work_group_size", &at)?,
        name,
    })
}

fn kernel_v2(k: &MetaValue, index: usize) -> Result<KernelMeta, RocmError> {
    let at = format!("the metadata's kernel #{index}");
    let k = need_map(k, &at)?;
    let name = str_field(k, "Name", &at)?.ok_or_else(|| RocmError::new(&at, "it has no `Name`"))?;
    let at = format!("the metadata of kernel `{name}`");
    let mut args = Vec::new();
    // v2 gives no offsets: each argument goes at the next multiple of its
    // alignment, as the v2 runtime lays the kernarg segment out.
    let mut next: u64 = 0;
    if let Some(list) = k.get("Args") {
        let list = list
            .as_array()
            .ok_or_else(|| RocmError::new(&at, "`Args` is not a sequence"))?;
        for (i, a) in list.iter().enumerate() {
            let at = format!("{at}, argument #{i}");
            let a = need_map(a, &at)?;
            let kind = str_field(a, "ValueKind", &at)?
                .ok_or_else(|| RocmError::new(&at, "it has no `ValueKind`"))?;
            let size = u32_field(a, "Size", &at)?
                .ok_or_else(|| RocmError::new(&at, "it has no `Size`"))?;
            let align = u32_field(a, "Align", &at)?.unwrap_or_else(|| natural_align(size));
            if !align.is_power_of_two() {
                return Err(RocmError::new(
                    &at,
                    format!("`Align` {align} is not a power of two"),
                ));
            }
            let offset = match u32_field(a, "Offset", &at)? {
                Some(o) => u64::from(o),
                None => next.div_ceil(u64::from(align)) * u64::from(align),
            };
            next = offset + u64::from(size);
            let offset = u32::try_from(offset)
                .map_err(|_| RocmError::new(&at, "the arguments run past 4 GiB"))?;
            args.push(ArgMeta {
                name: str_field(a, "Name", &at)?,
                type_name: str_field(a, "TypeName", &at)?,
                offset,
                size,
                align,
                value_kind: ValueKind::from_name(&kind),
                value_type: str_field(a, "ValueType", &at)?,
                address_space: enum_field(a, "AddrSpaceQual", &at, AddressSpace::from_name)?,
                access: enum_field(a, "AccQual", &at, Access::from_name)?,
                actual_access: enum_field(a, "ActualAccQual", &at, Access::from_name)?,
                pointee_align: u32_field(a, "PointeeAlign", &at)?,
                is_const: bool_field(a, "IsConst", &at)?,
                is_restrict: bool_field(a, "IsRestrict", &at)?,
                is_volatile: bool_field(a, "IsVolatile", &at)?,
                is_pipe: bool_field(a, "IsPipe", &at)?,
            });
        }
    }
    let empty = MetaValue::Map(Vec::new());
    let props = k.get("CodeProps").unwrap_or(&empty);
    let attrs = k.get("Attrs").unwrap_or(&empty);
    Ok(KernelMeta {
        symbol: str_field(k, "SymbolName", &at)?,
        args,
        kernarg_segment_size: u32_field(props, "KernargSegmentSize", &at)?,
        kernarg_segment_align: u32_field(props, "KernargSegmentAlign", &at)?,
        group_segment_fixed_size: u32_field(props, "GroupSegmentFixedSize", &at)?,
        private_segment_fixed_size: u32_field(props, "PrivateSegmentFixedSize", &at)?,
        wavefront_size: u32_field(props, "WavefrontSize", &at)?,
        sgpr_count: u32_field(props, "NumSGPRs", &at)?,
        vgpr_count: u32_field(props, "NumVGPRs", &at)?,
        max_flat_workgroup_size: u32_field(props, "MaxFlatWorkGroupSize", &at)?,
        reqd_workgroup_size: dims_field(attrs, "ReqdWorkGroupSize", &at)?,
        uniform_work_group_size: false,
        name,
    })
}

fn enum_field<T>(
    map: &MetaValue,
    key: &str,
    at: &str,
    parse: fn(&str) -> Option<T>,
) -> Result<Option<T>, RocmError> {
    match str_field(map, key, at)? {
        None => Ok(None),
        Some(s) => parse(&s)
            .map(Some)
            .ok_or_else(|| RocmError::new(at, format!("`{key}` has an unknown value `{s}`"))),
    }
}

/// The smallest power of two at least `size` (capped at 8, the largest
/// natural alignment of a kernel argument); 1 for 0.
fn natural_align(size: u32) -> u32 {
    size.clamp(1, 8).next_power_of_two()
}

fn from_rmpv(v: rmpv::Value, at: &str) -> Result<MetaValue, RocmError> {
    use rmpv::Value;
    Ok(match v {
        Value::Nil => MetaValue::Nil,
        Value::Boolean(b) => MetaValue::Bool(b),
        Value::Integer(i) => match i.as_u64() {
            Some(u) => MetaValue::UInt(u),
            None => MetaValue::Int(i.as_i64().unwrap_or(i64::MIN)),
        },
        Value::F32(f) => MetaValue::Float(f64::from(f)),
        Value::F64(f) => MetaValue::Float(f),
        Value::String(s) => match s.into_str() {
            Some(s) => MetaValue::Str(s),
            None => return Err(RocmError::new(at, "a string is not UTF-8")),
        },
        Value::Binary(b) => MetaValue::Bin(b),
        Value::Array(a) => MetaValue::Array(
            a.into_iter()
                .map(|v| from_rmpv(v, at))
                .collect::<Result<_, _>>()?,
        ),
        Value::Map(m) => {
            let mut out = Vec::with_capacity(m.len());
            for (k, v) in m {
                let Value::String(k) = k else {
                    return Err(RocmError::new(at, "a map key is not a string"));
                };
                let k = k
                    .into_str()
                    .ok_or_else(|| RocmError::new(at, "a map key is not UTF-8"))?;
                out.push((k, from_rmpv(v, at)?));
            }
            MetaValue::Map(out)
        }
        Value::Ext(..) => return Err(RocmError::new(at, "it holds a MessagePack extension type")),
    })
}

/// Builds a [`MetaValue`] from YAML parser events. Aliases are refused
/// (metadata has none, and expanding them is how a small document asks for
/// unbounded memory), and so are documents deeper than [`MAX_DEPTH`] or with
/// more than [`MAX_NODES`] values.
#[derive(Default)]
struct YamlBuilder {
    /// Open sequences and maps (a map holds its pending key).
    stack: Vec<(MetaValue, Option<String>)>,
    done: Option<MetaValue>,
    nodes: usize,
    error: Option<String>,
}

impl YamlBuilder {
    fn push_value(&mut self, v: MetaValue) {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            self.error = Some(format!("it has more than {MAX_NODES} values"));
            return;
        }
        match self.stack.last_mut() {
            None => {
                if self.done.is_some() {
                    self.error = Some("it holds more than one document".into());
                } else {
                    self.done = Some(v);
                }
            }
            Some((MetaValue::Array(a), _)) => a.push(v),
            Some((MetaValue::Map(m), key)) => match key.take() {
                Some(k) => m.push((k, v)),
                None => match v {
                    MetaValue::Str(s) => *key = Some(s),
                    MetaValue::UInt(u) => *key = Some(u.to_string()),
                    MetaValue::Bool(b) => *key = Some(b.to_string()),
                    _ => self.error = Some("a map key is not a scalar".into()),
                },
            },
            Some(_) => self.error = Some("internal: a scalar is open".into()),
        }
    }

    fn open(&mut self, v: MetaValue) {
        if self.stack.len() >= MAX_DEPTH {
            self.error = Some(format!("it nests deeper than {MAX_DEPTH}"));
            return;
        }
        self.stack.push((v, None));
    }

    fn close(&mut self) {
        if let Some((v, _)) = self.stack.pop() {
            self.push_value(v);
        }
    }
}

impl yaml_rust2::parser::MarkedEventReceiver for YamlBuilder {
    fn on_event(&mut self, ev: yaml_rust2::Event, _mark: yaml_rust2::scanner::Marker) {
        use yaml_rust2::scanner::TScalarStyle;
        use yaml_rust2::Event;
        if self.error.is_some() {
            return;
        }
        match ev {
            Event::Alias(_) => self.error = Some("it uses a YAML alias".into()),
            Event::Scalar(text, style, _, _) => {
                let v = if style == TScalarStyle::Plain {
                    plain_scalar(text)
                } else {
                    MetaValue::Str(text)
                };
                self.push_value(v);
            }
            Event::SequenceStart(..) => self.open(MetaValue::Array(Vec::new())),
            Event::MappingStart(..) => self.open(MetaValue::Map(Vec::new())),
            Event::SequenceEnd | Event::MappingEnd => self.close(),
            _ => {}
        }
    }
}

/// The YAML 1.2 core-schema reading of an unquoted scalar, as far as
/// metadata uses it: null, booleans, integers, else a string.
fn plain_scalar(text: String) -> MetaValue {
    match text.as_str() {
        "~" | "null" | "Null" | "NULL" | "" => return MetaValue::Nil,
        "true" | "True" | "TRUE" => return MetaValue::Bool(true),
        "false" | "False" | "FALSE" => return MetaValue::Bool(false),
        _ => {}
    }
    if let Ok(u) = text.parse::<u64>() {
        return MetaValue::UInt(u);
    }
    if let Ok(i) = text.parse::<i64>() {
        return MetaValue::Int(i);
    }
    if let Some(hex) = text.strip_prefix("0x") {
        if let Ok(u) = u64::from_str_radix(hex, 16) {
            return MetaValue::UInt(u);
        }
    }
    MetaValue::Str(text)
}

impl MetaValue {
    /// This tree as MessagePack (the v3+ note), through `rmpv`.
    pub fn to_msgpack(&self) -> Result<Vec<u8>, RocmError> {
        let mut out = Vec::new();
        rmpv::encode::write_value(&mut out, &self.to_rmpv())
            .map_err(|e| RocmError::new("the metadata", format!("cannot encode it: {e}")))?;
        Ok(out)
    }

    fn to_rmpv(&self) -> rmpv::Value {
        use rmpv::Value;
        match self {
            MetaValue::Nil => Value::Nil,
            MetaValue::Bool(b) => Value::Boolean(*b),
            MetaValue::Int(i) => Value::from(*i),
            MetaValue::UInt(u) => Value::from(*u),
            MetaValue::Float(f) => Value::F64(*f),
            MetaValue::Str(s) => Value::from(s.as_str()),
            MetaValue::Bin(b) => Value::Binary(b.clone()),
            MetaValue::Array(a) => Value::Array(a.iter().map(MetaValue::to_rmpv).collect()),
            MetaValue::Map(m) => Value::Map(
                m.iter()
                    .map(|(k, v)| (Value::from(k.as_str()), v.to_rmpv()))
                    .collect(),
            ),
        }
    }

    /// This tree as a standard YAML document, through `yaml-rust2`'s
    /// emitter (what the listing shows of a MessagePack note); binary data
    /// has no YAML form and is an error. The assembler's v2 notes are in
    /// clrxasm's layout instead ([`MetaValue::to_clrx_yaml`]).
    pub fn to_yaml(&self) -> Result<String, RocmError> {
        let yaml = self.to_yaml_value()?;
        let mut out = String::new();
        let mut emitter = yaml_rust2::YamlEmitter::new(&mut out);
        emitter
            .dump(&yaml)
            .map_err(|e| RocmError::new("the metadata", format!("cannot encode it: {e}")))?;
        out.push_str("\n...\n");
        Ok(out)
    }

    fn to_yaml_value(&self) -> Result<yaml_rust2::Yaml, RocmError> {
        use yaml_rust2::Yaml;
        Ok(match self {
            MetaValue::Nil => Yaml::Null,
            MetaValue::Bool(b) => Yaml::Boolean(*b),
            MetaValue::Int(i) => Yaml::Integer(*i),
            MetaValue::UInt(u) => match i64::try_from(*u) {
                Ok(i) => Yaml::Integer(i),
                Err(_) => Yaml::Real(u.to_string()),
            },
            MetaValue::Float(f) => Yaml::Real(format!("{f:?}")),
            MetaValue::Str(s) => Yaml::String(s.clone()),
            MetaValue::Bin(_) => {
                return Err(RocmError::new(
                    "the metadata",
                    "binary data cannot be written as YAML",
                ))
            }
            MetaValue::Array(a) => Yaml::Array(
                a.iter()
                    .map(MetaValue::to_yaml_value)
                    .collect::<Result<_, _>>()?,
            ),
            MetaValue::Map(m) => {
                let mut h = yaml_rust2::yaml::Hash::new();
                for (k, v) in m {
                    h.insert(Yaml::String(k.clone()), v.to_yaml_value()?);
                }
                Yaml::Hash(h)
            }
        })
    }
}

/// The layout of clrxasm's YAML metadata (CLRX's `generateROCmMetadata`,
/// `amdbin/ROCmMetadata.cpp`), which imitates LLVM's YAML I/O: each key
/// padded after its colon to column 16 of the key (one space at least),
/// integer sequences in flow style (`[ 1, 0 ]`), a map in a sequence with
/// its first key after the `- `.
impl MetaValue {
    /// This tree as the YAML note clrxasm writes for it, byte for byte
    /// (code object v2): `---`, the root map in its order, `...`. The tree
    /// is what this assembler builds from the metadata pseudo-ops, in
    /// CLRX's key order and with CLRX's choice of keys
    /// (`syntax::rocm`'s `rocm_kernel_md`); this writes it in CLRX's
    /// layout and scalar styles, which are not what a YAML emitter
    /// ([`MetaValue::to_yaml`]) gives: strings as they are unless
    /// [`clrx_yaml_string`] quotes them, except the kernel's `Name` (never
    /// quoted) and the `Printf` entries (always single-quoted, their format
    /// already escaped as [`clrx_printf_format`] escapes it); and the odd
    /// padding of `FixedWorkGroupSize` (three spaces). Binary data and
    /// floating-point numbers, which clrxasm never writes, are an error.
    pub fn to_clrx_yaml(&self) -> Result<String, RocmError> {
        let MetaValue::Map(root) = self else {
            return Err(RocmError::new("the metadata", "its root is not a map"));
        };
        let mut out = String::from("---\n");
        clrx_yaml_map(root, 0, false, "", &mut out)?;
        out.push_str("...\n");
        Ok(out)
    }
}

/// The entries of a map at `indent` (the first one right after a
/// sequence's `- ` when `inline_first`); `parent` is the key the map is
/// the value of, or an item of.
fn clrx_yaml_map(
    entries: &[(String, MetaValue)],
    indent: usize,
    inline_first: bool,
    parent: &str,
    out: &mut String,
) -> Result<(), RocmError> {
    for (i, (key, value)) in entries.iter().enumerate() {
        if i > 0 || !inline_first {
            out.extend(std::iter::repeat_n(' ', indent));
        }
        out.push_str(key);
        out.push(':');
        // LLVM's paddedKey; `FixedWorkGroupSize` is clrxasm's own.
        let pad = if key == "FixedWorkGroupSize" {
            3
        } else {
            16usize.saturating_sub(key.len()).max(1)
        };
        out.extend(std::iter::repeat_n(' ', pad));
        match value {
            MetaValue::Map(m) => {
                out.push('\n');
                clrx_yaml_map(m, indent + 2, false, key, out)?;
            }
            MetaValue::Array(a) if a.iter().all(|v| matches!(v, MetaValue::UInt(_))) => {
                out.push_str("[ ");
                for (j, v) in a.iter().enumerate() {
                    if j > 0 {
                        out.push_str(", ");
                    }
                    clrx_yaml_scalar(v, out)?;
                }
                out.push_str(" ]\n");
            }
            MetaValue::Array(a) => {
                out.push('\n');
                for item in a {
                    out.extend(std::iter::repeat_n(' ', indent + 2));
                    out.push_str("- ");
                    match item {
                        MetaValue::Map(m) => clrx_yaml_map(m, indent + 4, true, key, out)?,
                        MetaValue::Str(s) if key == "Printf" => {
                            out.push('\'');
                            out.push_str(s);
                            out.push_str("'\n");
                        }
                        MetaValue::Array(_) => {
                            return Err(RocmError::new(
                                "the metadata",
                                format!("`{key}` holds a sequence of sequences"),
                            ))
                        }
                        v => {
                            clrx_yaml_scalar(v, out)?;
                            out.push('\n');
                        }
                    }
                }
            }
            MetaValue::Str(s) if key == "Name" && parent == "Kernels" => {
                out.push_str(s);
                out.push('\n');
            }
            v => {
                clrx_yaml_scalar(v, out)?;
                out.push('\n');
            }
        }
    }
    Ok(())
}

fn clrx_yaml_scalar(v: &MetaValue, out: &mut String) -> Result<(), RocmError> {
    match v {
        MetaValue::Nil => out.push('~'),
        MetaValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        MetaValue::Int(i) => out.push_str(&i.to_string()),
        MetaValue::UInt(u) => out.push_str(&u.to_string()),
        MetaValue::Str(s) => out.push_str(&clrx_yaml_string(s)),
        MetaValue::Float(_) | MetaValue::Bin(_) => {
            return Err(RocmError::new(
                "the metadata",
                "clrxasm's YAML has no floating-point numbers or binary data",
            ))
        }
        MetaValue::Array(_) | MetaValue::Map(_) => {
            return Err(RocmError::new(
                "the metadata",
                "internal: a sequence or map as a scalar",
            ))
        }
    }
    Ok(())
}

/// CLRX's `escapeYAMLString`: the string as it is, or single-quoted and
/// C-escaped ([`escape_c_style`]) when it has a control character, a byte
/// above 0x7f or one of `*&!@'"`, starts with a digit or a space, or ends
/// with a space (CLRX's spaces: ' ' and `\t`..`\r`).
pub fn clrx_yaml_string(s: &str) -> String {
    let space = |c: u8| c == b' ' || (9..=13).contains(&c);
    let bytes = s.as_bytes();
    let quote = bytes
        .iter()
        .any(|&c| !(0x20..0x80).contains(&c) || b"*&!@'\"".contains(&c))
        || bytes
            .first()
            .is_some_and(|&c| space(c) || c.is_ascii_digit())
        || bytes.last().is_some_and(|&c| space(c));
    if quote {
        format!("'{}'", escape_c_style(bytes))
    } else {
        s.to_string()
    }
}
