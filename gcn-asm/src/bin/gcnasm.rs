//! `gcnasm`: the command-line assembler, with clrxasm-compatible flags.
//!
//! ```text
//! gcnasm [-g DEVICE | -A ARCH] [-b rawcode|gallium|rocm] [-o OUT] [-I DIR]... [-D SYM[=VAL]]...
//!        [--llvmVersion=N] [--driverVersion=N] [--wave32] [-w] [--line-table FILE] FILE...
//! ```
//!
//! `--line-table FILE` also writes where each instruction of `.text` came
//! from, one line per instruction: `OFFSET FILE:LINE:COL` (offset in hex,
//! e.g. `0x1c src/k.s:12:5`), for tools that cite source lines.
//!
//! Several files are read one after the other as one source (clrxasm
//! concatenates them too); a `FILE` may be `-` for standard input. Diagnostics go to standard error as
//! `FILE:LINE:COL: error: MESSAGE`; the exit status is 1 when there is any
//! error, 2 for a usage or I/O problem.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use gcn_asm::syntax::assembler::assemble_sources;
use gcn_asm::syntax::expr::{parse_int_token, scan_symbol, IntToken};
use gcn_asm::AssembleOptions;

#[path = "common/target.rs"]
mod target;
use target::{Selected, TargetArgs};

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum BinaryFormat {
    /// The bytes of `.text` only.
    Rawcode,
    /// A GalliumCompute (Mesa Clover) binary.
    Gallium,
    /// An AMDHSA (ROCm) code object.
    Rocm,
}

#[derive(Debug, Parser)]
#[command(
    name = "gcnasm",
    version,
    about = "Assembler for AMD GCN 1.0-1.5.1 (RDNA 1) in the CLRX syntax"
)]
struct Args {
    #[command(flatten)]
    target: TargetArgs,
    /// Output format.
    #[arg(short = 'b', long = "binaryFormat", value_enum, value_name = "FORMAT")]
    format: Option<BinaryFormat>,
    /// Output file (default: a.out; `-` for standard output).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: Option<PathBuf>,
    /// Add a directory to the `.include`/`.incbin` search path.
    #[arg(short = 'I', long = "includePath", value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Define a symbol before assembling (`SYM` alone is 0).
    #[arg(short = 'D', long = "defsym", value_name = "SYM[=VAL]")]
    defines: Vec<String>,
    /// LLVM version (MAJOR*10000+MINOR*100+MICRO, below 40000) of a
    /// Gallium binary until the source says `.llvm_version`.
    #[arg(long = "llvmVersion", value_name = "N")]
    llvm_version: Option<u32>,
    /// Mesa version (MAJOR*10000+MINOR*100+MICRO) of a Gallium binary
    /// until the source says `.driver_version`.
    #[arg(long = "driverVersion", value_name = "N")]
    driver_version: Option<u32>,
    /// Also write the line table (`OFFSET FILE:LINE:COL` per instruction of
    /// `.text`) to this file.
    #[arg(long = "line-table", value_name = "FILE")]
    line_table: Option<PathBuf>,
    /// Start in wave32 mode (GCN 1.5): VCC and the lane masks of vector
    /// instructions are one SGPR (`.wave32`/`.nowave32` switch it).
    #[arg(long = "wave32")]
    wave32: bool,
    /// Do not print warnings.
    #[arg(short = 'w', long = "noWarnings")]
    no_warnings: bool,
    /// The source files, read one after the other as one source (`-` for
    /// standard input).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
}

/// A `-D` value: an integer literal as the assembler reads it (decimal,
/// `0x` hex, `0b` binary, `0` octal), optionally negative.
fn parse_integer(text: &str) -> Option<i64> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let mut end = 0;
    match parse_int_token(digits.as_bytes(), &mut end) {
        Ok(IntToken::Value(v)) if end == digits.len() => {
            let v = v as i64;
            Some(if negative { v.wrapping_neg() } else { v })
        }
        _ => None,
    }
}

fn usage_error(message: String) -> ExitCode {
    eprintln!("gcnasm: {message}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut options = AssembleOptions {
        warnings: !args.no_warnings,
        // Without -b the source picks the format (`.gallium`, `.rocm`); raw
        // code otherwise.
        format: match args.format {
            Some(BinaryFormat::Gallium) => gcn_asm::syntax::assembler::BinaryFormat::Gallium,
            Some(BinaryFormat::Rocm) => gcn_asm::syntax::assembler::BinaryFormat::Rocm,
            _ => gcn_asm::syntax::assembler::BinaryFormat::RawCode,
        },
        include_dirs: args.include.clone(),
        llvm_version: args.llvm_version.unwrap_or(0),
        driver_version: args.driver_version.unwrap_or(0),
        line_table: args.line_table.is_some(),
        wave32: args.wave32,
        ..AssembleOptions::default()
    };
    if options.llvm_version >= gcn_asm::gallium::config::LLVM_4_0 {
        return usage_error(format!(
            "--llvmVersion={}: LLVM 4.0 and later use the AMDHSA Gallium format, which is \
             not supported (use a version below 40000)",
            options.llvm_version
        ));
    }
    match args.target.selected() {
        Ok(Selected::Device(d)) => options.device = Some(d),
        Ok(Selected::Arch(v)) => options.version = Some(v),
        Ok(Selected::Default) => {}
        Err(message) => return usage_error(message),
    }
    for define in &args.defines {
        let (name, value) = match define.split_once('=') {
            Some((n, v)) => match parse_integer(v.trim()) {
                Some(v) => (n, v),
                None => return usage_error(format!("bad value in -D {define}")),
            },
            None => (define.as_str(), 0),
        };
        let name = name.trim();
        if scan_symbol(name.as_bytes(), 0) != Some(name.len()) {
            let why = if name.is_empty() {
                "no symbol name".to_string()
            } else {
                format!("`{name}` is not a symbol name")
            };
            return usage_error(format!("bad -D {define}: {why} (use -D SYM[=VAL])"));
        }
        options.defines.push((name.to_string(), value));
    }
    let mut sources = Vec::with_capacity(args.files.len());
    let mut read_stdin = false;
    let mut source_dirs = 0;
    for file in &args.files {
        if file.as_os_str() == "-" {
            if read_stdin {
                return usage_error("standard input (`-`) given twice".into());
            }
            read_stdin = true;
            let mut text = String::new();
            if let Err(e) = std::io::stdin().read_to_string(&mut text) {
                return usage_error(format!("cannot read standard input: {e}"));
            }
            sources.push(("<stdin>".to_string(), text));
        } else {
            let text = match std::fs::read(file) {
                // Assembly is ASCII; stray invalid bytes (in comments, say)
                // are replaced rather than refused.
                Ok(bytes) => String::from_utf8(bytes)
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
                Err(e) => return usage_error(format!("cannot read {}: {e}", file.display())),
            };
            sources.push((file.display().to_string(), text));
            // `.include`/`.incbin` look next to the sources too.
            if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
                if !options.include_dirs[..source_dirs].iter().any(|d| d == dir) {
                    options.include_dirs.insert(source_dirs, dir.to_path_buf());
                    source_dirs += 1;
                }
            }
        }
    }
    // Messages that concern the whole assembly name the first file.
    options.file_name = sources[0].0.clone();
    let sources: Vec<(&str, &str)> = sources
        .iter()
        .map(|(name, text)| (name.as_str(), text.as_str()))
        .collect();

    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    let assembly = match assemble_sources(&sources, &options) {
        Ok(a) => a,
        Err(diagnostics) => {
            for d in &diagnostics.0 {
                if d.is_error() || options.warnings {
                    let _ = writeln!(err, "{d}");
                }
            }
            return ExitCode::from(1);
        }
    };
    if options.warnings {
        for w in &assembly.warnings {
            let _ = writeln!(err, "{w}");
        }
    }
    let format = match args.format {
        Some(f) => f,
        None => match assembly.format {
            gcn_asm::syntax::assembler::BinaryFormat::Gallium => BinaryFormat::Gallium,
            gcn_asm::syntax::assembler::BinaryFormat::Rocm => BinaryFormat::Rocm,
            gcn_asm::syntax::assembler::BinaryFormat::RawCode => BinaryFormat::Rawcode,
        },
    };
    let written = match format {
        BinaryFormat::Gallium => assembly.gallium_bytes().map_err(|e| e.to_string()),
        BinaryFormat::Rocm => assembly.rocm_bytes().map_err(|e| e.to_string()),
        BinaryFormat::Rawcode => Ok(assembly.text().to_vec()),
    };
    let bytes = match written {
        Ok(bytes) => bytes,
        Err(e) => {
            let _ = writeln!(err, "{}: error: {e}", options.file_name);
            return ExitCode::from(1);
        }
    };
    let output = args.output.unwrap_or_else(|| PathBuf::from("a.out"));
    let written = if output.as_os_str() == "-" {
        std::io::stdout().lock().write_all(&bytes)
    } else {
        std::fs::write(&output, &bytes)
    };
    if let Err(e) = written {
        return usage_error(format!("cannot write {}: {e}", output.display()));
    }
    if let Some(path) = &args.line_table {
        let text = gcn_asm::line_table_text(&assembly.line_table);
        if let Err(e) = std::fs::write(path, text) {
            return usage_error(format!("cannot write {}: {e}", path.display()));
        }
    }
    ExitCode::SUCCESS
}
