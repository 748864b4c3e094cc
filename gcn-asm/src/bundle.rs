//! Clang offload bundles: the container `hipcc --genco` (the module
//! `hipModuleLoad` takes) and `hipcc --cuda-device-only -c` write, holding
//! one code object per GPU target and usually an empty host entry.
//!
//! [`read`] takes both forms `clang-offload-bundler` writes (LLVM's
//! `clang/lib/Driver/OffloadBundler.cpp`, `BinaryFileHandler` and
//! `CompressedOffloadBundle`; since LLVM 20 also
//! `llvm/lib/Object/OffloadBundle.cpp`):
//!
//! Uncompressed (all integers little-endian):
//!
//! ```text
//! offset  size  field
//! 0       24    magic "__CLANG_OFFLOAD_BUNDLE__"
//! 24      8     u64 number of entries
//! 32      ...   per entry: u64 offset (from the start of the file),
//!                          u64 size, u64 ID length, the ID's bytes
//! ...           the entries' contents at their offsets (hipcc aligns
//!               them to 4096; a host entry of a device-only bundle is
//!               empty)
//! ```
//!
//! An entry ID is `KIND-TRIPLE[-TARGET_ID]`: `host-x86_64-unknown-linux-gnu`,
//! `hipv4-amdgcn-amd-amdhsa--gfx906` (a four-part triple with an empty
//! environment, then the processor), `hip-amdgcn-amd-amdhsa-gfx906:xnack-`
//! (the target ID: processor, then `:feature+`/`:feature-` settings).
//!
//! Compressed (`clang-offload-bundler -compress`, the default of newer
//! ROCm releases), which holds a whole uncompressed bundle:
//!
//! ```text
//! offset  size        field
//! 0       4           magic "CCOB"
//! 4       2           u16 version (1, 2 or 3)
//! 6       2           u16 compression method (llvm::compression::Format:
//!                     0 zlib, 1 zstd)
//! 8       4 (v2)      total file size, header included (absent in v1)
//!         8 (v3)
//! then    4 (v1, v2)  uncompressed size
//!         8 (v3)
//! then    8           the low 64 bits of the uncompressed bundle's MD5
//! then    ...         the compressed bundle (a zlib stream or zstd frame),
//!                     up to the total file size where the header has one
//! ```
//!
//! The header is 20 bytes in v1, 24 in v2 and 32 in v3. The hash is read
//! but not checked (clang-offload-bundler checks it only in verbose mode);
//! the uncompressed size is (the data must decompress to exactly that many
//! bytes). zstd is decoded by `ruzstd`, zlib by `miniz_oxide` (pure Rust
//! both).
//!
//! [`Bundle::select`] picks the entry to run or list: the one whose
//! processor is the one asked for (`-g gfx906`, feature suffixes such as
//! `:xnack-` ignored), else the only `amdgcn` entry; a host entry is never
//! chosen. Every malformed input is a [`BundleError`] naming what is wrong
//! and where, never a panic.

use std::fmt;
use std::io::Read;

use crate::Device;

/// The magic of an uncompressed bundle.
pub const MAGIC: &[u8; 24] = b"__CLANG_OFFLOAD_BUNDLE__";

/// The magic of a compressed bundle.
pub const COMPRESSED_MAGIC: &[u8; 4] = b"CCOB";

/// The most bytes a compressed bundle may decompress to (its header says
/// how many): 1 GiB, far above any code object, so that a damaged header
/// cannot make the reader allocate without bound.
pub const MAX_UNCOMPRESSED_SIZE: u64 = 1 << 30;

/// Whether `bytes` start like a clang offload bundle, uncompressed or
/// compressed. A compressed one also needs the high byte of its version
/// to be 0 (versions are small), so that text starting with `CCOB` (a
/// source file) is not taken for one.
pub fn is_bundle(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
        || (bytes.starts_with(COMPRESSED_MAGIC) && !matches!(bytes.get(5), Some(b) if *b != 0))
}

/// The compression method of a compressed bundle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// zlib (RFC 1950), method 0.
    Zlib = 0,
    /// zstd (RFC 8878), method 1.
    Zstd = 1,
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Compression::Zlib => "zlib",
            Compression::Zstd => "zstd",
        })
    }
}

/// The header of a compressed (`CCOB`) bundle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompressedHeader {
    /// The format version: 1, 2 or 3.
    pub version: u16,
    /// How the bundle is compressed.
    pub method: Compression,
    /// The total file size, header included (versions 2 and 3).
    pub file_size: Option<u64>,
    /// The size of the uncompressed bundle.
    pub uncompressed_size: u64,
    /// The low 64 bits of the uncompressed bundle's MD5 (not checked).
    pub hash: u64,
    /// The header's length in bytes: where the compressed data starts.
    pub header_len: usize,
}

/// One entry of a bundle.
#[derive(Clone, PartialEq, Eq)]
pub struct BundleEntry {
    /// Its ID (`hipv4-amdgcn-amd-amdhsa--gfx906`).
    pub id: String,
    /// Where its contents start in the (uncompressed) bundle.
    pub offset: u64,
    /// Its contents: for an `amdgcn` entry, a code object.
    pub data: Vec<u8>,
}

impl fmt::Debug for BundleEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BundleEntry")
            .field("id", &self.id)
            .field("offset", &self.offset)
            .field("size", &self.data.len())
            .finish()
    }
}

impl BundleEntry {
    /// The offload kind: `host`, `hip`, `hipv4`, `openmp`, …
    pub fn kind(&self) -> &str {
        self.id.split('-').next().unwrap_or("")
    }

    /// Whether this is the host's entry (never chosen to run).
    pub fn is_host(&self) -> bool {
        self.kind() == "host"
    }

    /// Whether the entry's triple is an AMD GPU one (`amdgcn-…`).
    pub fn is_amdgcn(&self) -> bool {
        !self.is_host()
            && self
                .id
                .split_once('-')
                .is_some_and(|(_, rest)| rest.starts_with("amdgcn-"))
    }

    /// The target ID: the processor and its feature settings
    /// (`gfx906:xnack-`), the part after the triple; `None` when the ID
    /// names no processor (a host entry).
    pub fn target_id(&self) -> Option<&str> {
        if !self.is_amdgcn() {
            return None;
        }
        // The processor is the last `-` part before the first `:` (the
        // feature settings may hold no `-` before it; `xnack-` is after).
        let before_features = self.id.split(':').next().unwrap_or("");
        let start = before_features.rfind('-')? + 1;
        // LLVM's AMD GPU processors are all `gfx…`; anything else is part
        // of the triple (an ID without a target ID).
        Some(&self.id[start..]).filter(|t| t.starts_with("gfx"))
    }

    /// The processor of the target ID without its features (`gfx906`).
    pub fn processor(&self) -> Option<&str> {
        self.target_id().map(|t| t.split(':').next().unwrap_or(t))
    }
}

/// A read bundle: its entries in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bundle {
    /// The entries, in the order of the header.
    pub entries: Vec<BundleEntry>,
    /// The compressed header when the file was a `CCOB` bundle.
    pub compressed: Option<CompressedHeader>,
}

/// What is wrong with a bundle, or why no entry could be chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BundleError {
    /// Neither magic at the start.
    NotABundle,
    /// The file ends inside a field: `field` needs `needed` bytes at byte
    /// `offset`, the file has `len`.
    Truncated {
        /// The field being read (`entry 1's ID length`).
        field: String,
        /// Where it starts.
        offset: u64,
        /// How many bytes it needs.
        needed: u64,
        /// The file's length.
        len: u64,
    },
    /// An entry's ID is not UTF-8 text.
    IdNotText {
        /// The entry's index.
        index: usize,
        /// Where the ID starts.
        offset: u64,
    },
    /// An entry's contents lie (partly) outside the file.
    EntryOutOfRange {
        /// The entry's index.
        index: usize,
        /// Its ID.
        id: String,
        /// Its offset.
        offset: u64,
        /// Its size.
        size: u64,
        /// The file's length.
        len: u64,
    },
    /// A compressed bundle of a version this reader does not know.
    UnsupportedVersion(u16),
    /// A compression method other than zlib (0) and zstd (1).
    UnknownCompression(u16),
    /// The compressed header's total file size is smaller than its header
    /// or larger than the file.
    BadFileSize {
        /// The size in the header.
        header: u64,
        /// The file's length.
        len: u64,
    },
    /// The header's uncompressed size is above [`MAX_UNCOMPRESSED_SIZE`].
    TooLarge(u64),
    /// The compressed data does not decompress.
    Decompress {
        /// The method.
        method: Compression,
        /// The decoder's message.
        message: String,
    },
    /// The data decompressed to another size than the header says.
    SizeMismatch {
        /// The header's uncompressed size.
        expected: u64,
        /// What it decompressed to (at most one byte past `expected`).
        actual: u64,
    },
    /// An error in the bundle a compressed bundle holds.
    InCompressed(Box<BundleError>),
    /// The bundle has no `amdgcn` entry.
    NoGpuEntry {
        /// Every entry's ID.
        entries: Vec<String>,
    },
    /// No entry for the processor asked for.
    NoSuchTarget {
        /// The processor asked for.
        requested: String,
        /// Every entry's ID.
        entries: Vec<String>,
    },
    /// Several `amdgcn` entries and no processor asked for.
    Ambiguous {
        /// Every entry's ID.
        entries: Vec<String>,
    },
}

impl fmt::Display for BundleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |entries: &[String]| {
            if entries.is_empty() {
                "none".to_string()
            } else {
                entries.join(", ")
            }
        };
        match self {
            BundleError::NotABundle => write!(
                f,
                "not a clang offload bundle (no __CLANG_OFFLOAD_BUNDLE__ or CCOB magic)"
            ),
            BundleError::Truncated {
                field,
                offset,
                needed,
                len,
            } => write!(
                f,
                "offload bundle truncated at byte {len}: {field} needs {needed} byte(s) at byte {offset}"
            ),
            BundleError::IdNotText { index, offset } => write!(
                f,
                "offload bundle entry {index}: its ID at byte {offset} is not UTF-8 text"
            ),
            BundleError::EntryOutOfRange {
                index,
                id,
                offset,
                size,
                len,
            } => write!(
                f,
                "offload bundle entry {index} ({id}): its bytes {offset}..{} lie outside the {len}-byte file",
                u128::from(*offset) + u128::from(*size)
            ),
            BundleError::UnsupportedVersion(v) => write!(
                f,
                "compressed offload bundle (CCOB) version {v} is not supported (known: 1, 2, 3)"
            ),
            BundleError::UnknownCompression(m) => write!(
                f,
                "compressed offload bundle: unknown compression method {m} (known: 0 zlib, 1 zstd)"
            ),
            BundleError::BadFileSize { header, len } => write!(
                f,
                "compressed offload bundle: the header's total file size {header} does not fit the {len}-byte file"
            ),
            BundleError::TooLarge(size) => write!(
                f,
                "compressed offload bundle: uncompressed size {size} is above the limit of {MAX_UNCOMPRESSED_SIZE} bytes"
            ),
            BundleError::Decompress { method, message } => write!(
                f,
                "compressed offload bundle: the {method} data does not decompress: {message}"
            ),
            BundleError::SizeMismatch { expected, actual } => write!(
                f,
                "compressed offload bundle: the data decompressed to {}{actual} bytes, the header says {expected}",
                if actual > expected { "more than " } else { "" }
            ),
            BundleError::InCompressed(inner) => {
                write!(f, "in the decompressed bundle: {inner}")
            }
            BundleError::NoGpuEntry { entries } => write!(
                f,
                "the offload bundle has no amdgcn entry (entries: {})",
                list(entries)
            ),
            BundleError::NoSuchTarget { requested, entries } => write!(
                f,
                "the offload bundle has no entry for {requested} (entries: {}); pick one with -g PROCESSOR",
                list(entries)
            ),
            BundleError::Ambiguous { entries } => write!(
                f,
                "the offload bundle has several GPU entries ({}); pick one with -g PROCESSOR (e.g. -g {})",
                list(entries),
                example_processor(entries)
            ),
        }
    }
}

impl std::error::Error for BundleError {}

/// A processor name of the entries, for the `-g` example of a message.
fn example_processor(entries: &[String]) -> String {
    entries
        .iter()
        .map(|id| BundleEntry {
            id: id.clone(),
            offset: 0,
            data: Vec::new(),
        })
        .find_map(|e| e.processor().map(str::to_string))
        .unwrap_or_else(|| "gfx906".to_string())
}

/// Reads a little-endian integer of `N` bytes at `offset`, or says which
/// field the file ends in.
fn read_le<const N: usize>(
    bytes: &[u8],
    offset: u64,
    field: &dyn Fn() -> String,
) -> Result<u64, BundleError> {
    let truncated = || BundleError::Truncated {
        field: field(),
        offset,
        needed: N as u64,
        len: bytes.len() as u64,
    };
    let start = usize::try_from(offset).map_err(|_| truncated())?;
    let chunk = start
        .checked_add(N)
        .and_then(|end| bytes.get(start..end))
        .ok_or_else(truncated)?;
    let mut buf = [0u8; 8];
    buf[..N].copy_from_slice(chunk);
    Ok(u64::from_le_bytes(buf))
}

/// Reads a bundle, decompressing it first if it is a `CCOB` one.
pub fn read(bytes: &[u8]) -> Result<Bundle, BundleError> {
    if bytes.starts_with(COMPRESSED_MAGIC) {
        let header = read_compressed_header(bytes)?;
        let inner = decompress(bytes)?;
        let mut bundle =
            read_uncompressed(&inner).map_err(|e| BundleError::InCompressed(Box::new(e)))?;
        bundle.compressed = Some(header);
        return Ok(bundle);
    }
    read_uncompressed(bytes)
}

/// Reads an uncompressed bundle (the `__CLANG_OFFLOAD_BUNDLE__` form).
pub fn read_uncompressed(bytes: &[u8]) -> Result<Bundle, BundleError> {
    if !bytes.starts_with(MAGIC) {
        return Err(BundleError::NotABundle);
    }
    let len = bytes.len() as u64;
    let mut at = MAGIC.len() as u64;
    let count = read_le::<8>(bytes, at, &|| "the entry count".to_string())?;
    at += 8;
    // Each entry takes at least its three u64 fields: a count past what
    // the file holds ends in a `Truncated` error at the first missing one.
    let mut headers = Vec::with_capacity(count.min((len - at) / 24) as usize);
    for index in 0..usize::try_from(count).unwrap_or(usize::MAX) {
        let offset = read_le::<8>(bytes, at, &|| format!("entry {index}'s offset"))?;
        let size = read_le::<8>(bytes, at + 8, &|| format!("entry {index}'s size"))?;
        let id_len = read_le::<8>(bytes, at + 16, &|| format!("entry {index}'s ID length"))?;
        at += 24;
        let id_bytes = at
            .checked_add(id_len)
            .filter(|&end| end <= len)
            .map(|end| &bytes[at as usize..end as usize])
            .ok_or_else(|| BundleError::Truncated {
                field: format!("entry {index}'s ID"),
                offset: at,
                needed: id_len,
                len,
            })?;
        let id = std::str::from_utf8(id_bytes)
            .map_err(|_| BundleError::IdNotText { index, offset: at })?
            .to_string();
        at += id_len;
        headers.push((id, offset, size));
    }
    // The contents once the whole header is read, so that a file cut in
    // its header says so rather than that an entry lies outside it.
    let mut entries = Vec::with_capacity(headers.len());
    for (index, (id, offset, size)) in headers.into_iter().enumerate() {
        let data = offset
            .checked_add(size)
            .filter(|&end| end <= len)
            .map(|end| bytes[offset as usize..end as usize].to_vec())
            .ok_or_else(|| BundleError::EntryOutOfRange {
                index,
                id: id.clone(),
                offset,
                size,
                len,
            })?;
        entries.push(BundleEntry { id, offset, data });
    }
    Ok(Bundle {
        entries,
        compressed: None,
    })
}

/// Reads the header of a compressed (`CCOB`) bundle.
pub fn read_compressed_header(bytes: &[u8]) -> Result<CompressedHeader, BundleError> {
    if !bytes.starts_with(COMPRESSED_MAGIC) {
        return Err(BundleError::NotABundle);
    }
    let version = read_le::<2>(bytes, 4, &|| "the CCOB version".to_string())? as u16;
    let method = read_le::<2>(bytes, 6, &|| "the CCOB compression method".to_string())? as u16;
    if !(1..=3).contains(&version) {
        return Err(BundleError::UnsupportedVersion(version));
    }
    let method = match method {
        0 => Compression::Zlib,
        1 => Compression::Zstd,
        m => return Err(BundleError::UnknownCompression(m)),
    };
    let mut at = 8u64;
    let file_size = match version {
        1 => None,
        2 => {
            at += 4;
            Some(read_le::<4>(bytes, 8, &|| {
                "the CCOB total file size".to_string()
            })?)
        }
        _ => {
            at += 8;
            Some(read_le::<8>(bytes, 8, &|| {
                "the CCOB total file size".to_string()
            })?)
        }
    };
    let uncompressed_size = if version == 3 {
        at += 8;
        read_le::<8>(bytes, at - 8, &|| "the CCOB uncompressed size".to_string())?
    } else {
        at += 4;
        read_le::<4>(bytes, at - 4, &|| "the CCOB uncompressed size".to_string())?
    };
    let hash = read_le::<8>(bytes, at, &|| "the CCOB hash".to_string())?;
    at += 8;
    Ok(CompressedHeader {
        version,
        method,
        file_size,
        uncompressed_size,
        hash,
        header_len: at as usize,
    })
}

/// Decompresses a compressed (`CCOB`) bundle into the uncompressed bundle
/// it holds.
pub fn decompress(bytes: &[u8]) -> Result<Vec<u8>, BundleError> {
    let header = read_compressed_header(bytes)?;
    let len = bytes.len() as u64;
    let end = match header.file_size {
        Some(size) if size < header.header_len as u64 || size > len => {
            return Err(BundleError::BadFileSize { header: size, len })
        }
        Some(size) => size as usize,
        None => bytes.len(),
    };
    let data = &bytes[header.header_len..end];
    let expected = header.uncompressed_size;
    if expected > MAX_UNCOMPRESSED_SIZE {
        return Err(BundleError::TooLarge(expected));
    }
    let decompress_error = |message: String| BundleError::Decompress {
        method: header.method,
        message,
    };
    let out = match header.method {
        Compression::Zstd => {
            let mut source = data;
            let decoder = ruzstd::decoding::StreamingDecoder::new(&mut source)
                .map_err(|e| decompress_error(e.to_string()))?;
            let mut out = Vec::new();
            // One byte more than expected tells "too long" from "exact".
            decoder
                .take(expected + 1)
                .read_to_end(&mut out)
                .map_err(|e| decompress_error(e.to_string()))?;
            out
        }
        Compression::Zlib => {
            miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(data, expected as usize + 1)
                .map_err(|e| decompress_error(format!("{:?}", e.status)))?
        }
    };
    if out.len() as u64 != expected {
        return Err(BundleError::SizeMismatch {
            expected,
            actual: out.len() as u64,
        });
    }
    Ok(out)
}

impl Bundle {
    /// Every entry's ID, in order.
    pub fn ids(&self) -> Vec<String> {
        self.entries.iter().map(|e| e.id.clone()).collect()
    }

    /// The entry to load: with `processor` (an LLVM processor name such as
    /// `gfx906`, or any name [`Device::from_name`] knows), the first
    /// `amdgcn` entry for that processor (its feature settings ignored;
    /// an exact name before one of the same emulated device); without,
    /// the only `amdgcn` entry. A host entry is never chosen.
    pub fn select(&self, processor: Option<&str>) -> Result<&BundleEntry, BundleError> {
        let gpu: Vec<&BundleEntry> = self.entries.iter().filter(|e| e.is_amdgcn()).collect();
        if gpu.is_empty() {
            return Err(BundleError::NoGpuEntry {
                entries: self.ids(),
            });
        }
        match processor {
            Some(name) => {
                let exact = gpu
                    .iter()
                    .find(|e| e.processor().is_some_and(|p| p.eq_ignore_ascii_case(name)));
                let device = Device::from_name(name);
                let same_device = || {
                    gpu.iter().find(|e| {
                        device.is_some() && e.processor().and_then(Device::from_name) == device
                    })
                };
                exact
                    .or_else(same_device)
                    .copied()
                    .ok_or_else(|| BundleError::NoSuchTarget {
                        requested: name.to_string(),
                        entries: self.ids(),
                    })
            }
            None if gpu.len() == 1 => Ok(gpu[0]),
            None => Err(BundleError::Ambiguous {
                entries: self.ids(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An uncompressed bundle of these entries, contents after the header.
    fn build(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let header_len: usize = 32 + entries.iter().map(|(id, _)| 24 + id.len()).sum::<usize>();
        let mut out = MAGIC.to_vec();
        out.extend((entries.len() as u64).to_le_bytes());
        let mut at = header_len as u64;
        for (id, data) in entries {
            out.extend(at.to_le_bytes());
            out.extend((data.len() as u64).to_le_bytes());
            out.extend((id.len() as u64).to_le_bytes());
            out.extend(id.as_bytes());
            at += data.len() as u64;
        }
        for (_, data) in entries {
            out.extend(*data);
        }
        out
    }

    #[test]
    fn text_starting_with_ccob_is_no_bundle() {
        assert!(is_bundle(b"CCOB\x02\x00\x01\x00"));
        assert!(is_bundle(b"__CLANG_OFFLOAD_BUNDLE__"));
        assert!(!is_bundle(b"CCOB: s_endpgm\n"));
        assert!(!is_bundle(b"__CLANG_OFFLOAD_BUNDLE"));
    }

    #[test]
    fn entry_ids_parse() {
        let e = |id: &str| BundleEntry {
            id: id.to_string(),
            offset: 0,
            data: Vec::new(),
        };
        let host = e("host-x86_64-unknown-linux-gnu");
        assert!(host.is_host() && !host.is_amdgcn());
        assert_eq!(host.processor(), None);
        let v4 = e("hipv4-amdgcn-amd-amdhsa--gfx906");
        assert_eq!(
            (v4.kind(), v4.target_id(), v4.processor()),
            ("hipv4", Some("gfx906"), Some("gfx906"))
        );
        let xnack = e("hip-amdgcn-amd-amdhsa-gfx906:xnack-");
        assert_eq!(xnack.target_id(), Some("gfx906:xnack-"));
        assert_eq!(xnack.processor(), Some("gfx906"));
        let two = e("hipv4-amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-");
        assert_eq!(two.processor(), Some("gfx90a"));
        assert_eq!(e("hipv4-amdgcn-amd-amdhsa--").processor(), None);
        assert_eq!(e("hip-amdgcn-amd-amdhsa").processor(), None);
    }

    #[test]
    fn selection() {
        let bytes = build(&[
            ("host-x86_64-unknown-linux-gnu", b""),
            ("hipv4-amdgcn-amd-amdhsa--gfx900", b"nine hundred"),
            ("hipv4-amdgcn-amd-amdhsa--gfx906:xnack-", b"906"),
        ]);
        let bundle = read(&bytes).unwrap();
        assert_eq!(bundle.entries[1].data, b"nine hundred");
        assert_eq!(bundle.select(Some("gfx906")).unwrap().data, b"906");
        assert_eq!(bundle.select(Some("vega20")).unwrap().data, b"906");
        assert_eq!(bundle.select(Some("GFX900")).unwrap().data, b"nine hundred");
        let err = bundle.select(None).unwrap_err();
        assert!(matches!(err, BundleError::Ambiguous { .. }));
        let text = err.to_string();
        assert!(
            text.contains("hipv4-amdgcn-amd-amdhsa--gfx900") && text.contains("-g gfx900"),
            "{text}"
        );
        let err = bundle.select(Some("gfx803")).unwrap_err().to_string();
        assert!(
            err.contains("no entry for gfx803") && err.contains("--gfx906:xnack-"),
            "{err}"
        );
        let host_only = read(&build(&[("host-x86_64-unknown-linux-gnu", b"")])).unwrap();
        assert!(matches!(
            host_only.select(None),
            Err(BundleError::NoGpuEntry { .. })
        ));
        assert!(matches!(
            host_only.select(Some("x86_64")),
            Err(BundleError::NoGpuEntry { .. })
        ));
    }

    #[test]
    fn damaged_headers_are_errors() {
        let good = build(&[("hipv4-amdgcn-amd-amdhsa--gfx906", b"code")]);
        assert_eq!(read(b"ELF"), Err(BundleError::NotABundle));
        for cut in 0..good.len() {
            assert!(read(&good[..cut]).is_err(), "prefix {cut}");
        }
        let mut many = good.clone();
        many[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
        let err = read(&many).unwrap_err().to_string();
        assert!(err.contains("entry 1's offset needs 8 byte(s)"), "{err}");
        let mut out = good.clone();
        out[32..40].copy_from_slice(&(u64::MAX - 1).to_le_bytes());
        let err = read(&out).unwrap_err();
        assert!(
            matches!(err, BundleError::EntryOutOfRange { index: 0, .. }),
            "{err}"
        );
        let mut id_len = good.clone();
        id_len[48..56].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(read(&id_len), Err(BundleError::Truncated { .. })));
        let text = read(&good[..45]).unwrap_err().to_string();
        assert_eq!(
            text,
            "offload bundle truncated at byte 45: entry 0's size needs 8 byte(s) at byte 40"
        );
    }

    /// A `CCOB` file of `version` around `data` (already compressed).
    fn ccob(version: u16, method: u16, uncompressed: u64, data: &[u8]) -> Vec<u8> {
        let mut out = COMPRESSED_MAGIC.to_vec();
        out.extend(version.to_le_bytes());
        out.extend(method.to_le_bytes());
        let header_len = [20, 24, 32][usize::from(version.clamp(1, 3)) - 1];
        let total = (header_len + data.len()) as u64;
        match version {
            1 => {}
            2 => out.extend((total as u32).to_le_bytes()),
            _ => out.extend(total.to_le_bytes()),
        }
        if version == 3 {
            out.extend(uncompressed.to_le_bytes());
        } else {
            out.extend((uncompressed as u32).to_le_bytes());
        }
        out.extend(0x1234_5678_9abc_def0u64.to_le_bytes());
        out.extend(data);
        out
    }

    #[test]
    fn compressed_bundles_round_trip() {
        let plain = build(&[
            ("host-x86_64-unknown-linux-gnu", b""),
            ("hipv4-amdgcn-amd-amdhsa--gfx906", &[7u8; 3000]),
        ]);
        let zstd = ruzstd::encoding::compress_to_vec(
            &plain[..],
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        let zlib = miniz_oxide::deflate::compress_to_vec_zlib(&plain, 6);
        for version in 1..=3 {
            for (method, data) in [(1, &zstd), (0, &zlib)] {
                let file = ccob(version, method, plain.len() as u64, data);
                let header = read_compressed_header(&file).unwrap();
                assert_eq!(header.header_len, [20, 24, 32][usize::from(version) - 1]);
                assert_eq!(header.hash, 0x1234_5678_9abc_def0);
                let bundle = read(&file).unwrap();
                assert_eq!(bundle.select(None).unwrap().data, [7u8; 3000]);
                // Every prefix is an error, never a panic.
                for cut in 0..file.len() {
                    assert!(
                        read(&file[..cut]).is_err(),
                        "v{version} m{method} prefix {cut}"
                    );
                }
            }
        }
    }

    #[test]
    fn compressed_header_errors() {
        let plain = build(&[("hipv4-amdgcn-amd-amdhsa--gfx906", b"code")]);
        let zlib = miniz_oxide::deflate::compress_to_vec_zlib(&plain, 6);
        let err = read(&ccob(2, 7, plain.len() as u64, &zlib)).unwrap_err();
        assert_eq!(err, BundleError::UnknownCompression(7));
        assert!(err.to_string().contains("unknown compression method 7"));
        assert_eq!(
            read(&ccob(4, 0, 1, &zlib)),
            Err(BundleError::UnsupportedVersion(4))
        );
        assert!(matches!(
            read(&ccob(3, 0, plain.len() as u64 + 1, &zlib)),
            Err(BundleError::SizeMismatch { .. })
        ));
        assert!(matches!(
            read(&ccob(3, 0, plain.len() as u64 - 1, &zlib)),
            Err(BundleError::SizeMismatch { .. })
        ));
        assert_eq!(
            read(&ccob(3, 1, 1 << 40, &zlib)),
            Err(BundleError::TooLarge(1 << 40))
        );
        assert!(matches!(
            read(&ccob(1, 1, plain.len() as u64, &zlib)),
            Err(BundleError::Decompress {
                method: Compression::Zstd,
                ..
            })
        ));
        let mut big = ccob(2, 0, plain.len() as u64, &zlib);
        big[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(read(&big), Err(BundleError::BadFileSize { .. })));
        // A CCOB holding something that is not a bundle.
        let junk = miniz_oxide::deflate::compress_to_vec_zlib(b"junk", 6);
        assert_eq!(
            read(&ccob(2, 0, 4, &junk)),
            Err(BundleError::InCompressed(Box::new(BundleError::NotABundle)))
        );
    }
}
