//! `gcnasm`: the command-line assembler, with clrxasm-compatible flags.
//!
//! ```text
//! gcnasm [-g DEVICE | -A ARCH] [-b rawcode|gallium] [-o OUT] [-I DIR]... [-D SYM[=VAL]]... [-w] FILE
//! ```
//!
//! `FILE` may be `-` for standard input. Diagnostics go to standard error as
//! `FILE:LINE:COL: error: MESSAGE`; the exit status is 1 when there is any
//! error, 2 for a usage or I/O problem.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use gcn_asm::{assemble, AssembleOptions, Device, GcnVersion};

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum BinaryFormat {
    /// The bytes of `.text` only.
    Rawcode,
    /// A GalliumCompute (Mesa Clover) binary.
    Gallium,
}

#[derive(Debug, Parser)]
#[command(
    name = "gcnasm",
    version,
    about = "Assembler for AMD GCN 1.0-1.4 in the CLRX syntax"
)]
struct Args {
    /// Target GPU device (capeverde, pitcairn, tahiti, oland, bonaire, hawaii,
    /// tonga, fiji, gfx900, gfx906, ...).
    #[arg(short = 'g', long = "gpuType", value_name = "DEVICE")]
    device: Option<String>,
    /// Target architecture (GCN1.0, GCN1.1, GCN1.2, GCN1.4, GCN1.4.1 or
    /// GFX6/GFX7/GFX8/GFX9, SI/CI/VI/VEGA).
    #[arg(
        short = 'A',
        long = "arch",
        value_name = "ARCH",
        conflicts_with = "device"
    )]
    arch: Option<String>,
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
    /// Do not print warnings.
    #[arg(short = 'w', long = "noWarnings")]
    no_warnings: bool,
    /// The source file (`-` for standard input).
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

fn parse_integer(text: &str) -> Option<i64> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let value = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        i64::from_str_radix(hex, 16).ok()?
    } else if let Some(bin) = digits
        .strip_prefix("0b")
        .or_else(|| digits.strip_prefix("0B"))
    {
        i64::from_str_radix(bin, 2).ok()?
    } else if digits.len() > 1 && digits.starts_with('0') {
        i64::from_str_radix(&digits[1..], 8).ok()?
    } else {
        digits.parse().ok()?
    };
    Some(if negative {
        value.wrapping_neg()
    } else {
        value
    })
}

fn usage_error(message: String) -> ExitCode {
    eprintln!("gcnasm: {message}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut options = AssembleOptions {
        warnings: !args.no_warnings,
        // Without -b the source picks the format (`.gallium`); raw code
        // otherwise.
        format: match args.format {
            Some(BinaryFormat::Gallium) => gcn_asm::syntax::assembler::BinaryFormat::Gallium,
            _ => gcn_asm::syntax::assembler::BinaryFormat::RawCode,
        },
        include_dirs: args.include.clone(),
        ..AssembleOptions::default()
    };
    if let Some(name) = &args.device {
        match Device::from_name(name) {
            Some(d) => options.device = Some(d),
            None => return usage_error(format!("unknown GPU device `{name}`")),
        }
    }
    if let Some(name) = &args.arch {
        match GcnVersion::from_arch_name(name) {
            Some(v) => options.version = Some(v),
            None => return usage_error(format!("unknown architecture `{name}`")),
        }
    }
    for define in &args.defines {
        let (name, value) = match define.split_once('=') {
            Some((n, v)) => match parse_integer(v.trim()) {
                Some(v) => (n, v),
                None => return usage_error(format!("bad value in -D {define}")),
            },
            None => (define.as_str(), 0),
        };
        options.defines.push((name.to_string(), value));
    }
    let source = if args.file.as_os_str() == "-" {
        options.file_name = "<stdin>".into();
        let mut text = String::new();
        if let Err(e) = std::io::stdin().read_to_string(&mut text) {
            return usage_error(format!("cannot read standard input: {e}"));
        }
        text
    } else {
        options.file_name = args.file.display().to_string();
        match std::fs::read(&args.file) {
            // Assembly is ASCII; stray invalid bytes (in comments, say)
            // are replaced rather than refused.
            Ok(bytes) => String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
            Err(e) => return usage_error(format!("cannot read {}: {e}", args.file.display())),
        }
    };
    if let Some(dir) = args.file.parent().filter(|d| !d.as_os_str().is_empty()) {
        if args.file.as_os_str() != "-" {
            options.include_dirs.insert(0, dir.to_path_buf());
        }
    }

    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    let assembly = match assemble(&source, &options) {
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
    let gallium = match args.format {
        Some(f) => f == BinaryFormat::Gallium,
        None => assembly.format == gcn_asm::syntax::assembler::BinaryFormat::Gallium,
    };
    let bytes = if gallium {
        match assembly.gallium_bytes() {
            Ok(bytes) => bytes,
            Err(e) => {
                let _ = writeln!(err, "{}: error: {e}", options.file_name);
                return ExitCode::from(1);
            }
        }
    } else {
        assembly.text().to_vec()
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
    ExitCode::SUCCESS
}
