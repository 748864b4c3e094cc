//! `gcndisasm`: the command-line disassembler, in the spirit of
//! `clrxdisasm`.
//!
//! ```text
//! gcndisasm [-g DEVICE | -A ARCH] [-r] FILE
//! ```
//!
//! `-r` reads `FILE` (`-` for standard input) as raw code: the bytes of
//! `.text`. Without `-r` the input is a GalliumCompute binary (not
//! supported yet). The listing goes to standard output: a `.gpu`/`.arch`
//! line, then one instruction per line with its byte offset and words as
//! comments, branch targets as `.L<offset>` labels. It assembles back with
//! `gcnasm -b rawcode` to the same bytes. Exit status: 0 on success, 1 when
//! the input cannot be disassembled, 2 for a usage or I/O problem.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use gcn_asm::decode::{disassemble, words_from_bytes};
use gcn_asm::{Device, GcnVersion};

#[derive(Debug, Parser)]
#[command(
    name = "gcndisasm",
    version,
    about = "Disassembler for AMD GCN 1.0-1.4 code, printing CLRX syntax"
)]
struct Args {
    /// Target GPU device (capeverde, pitcairn, tahiti, oland, bonaire, hawaii,
    /// tonga, fiji, gfx900, gfx906, ...). Default: capeverde (GCN 1.0).
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
    /// The input is raw code (the bytes of `.text`), not a Gallium binary.
    #[arg(short = 'r', long = "raw")]
    raw: bool,
    /// The input file (`-` for standard input).
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

fn usage_error(message: String) -> ExitCode {
    eprintln!("gcndisasm: {message}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args = Args::parse();
    // The header line lets the listing assemble for the same target.
    let (version, header) = if let Some(name) = &args.device {
        match Device::from_name(name) {
            Some(d) => (d.version(), format!(".gpu {}", d.name())),
            None => return usage_error(format!("unknown GPU device `{name}`")),
        }
    } else if let Some(name) = &args.arch {
        match GcnVersion::from_arch_name(name) {
            Some(v) => (v, format!(".arch {}", v.name())),
            None => return usage_error(format!("unknown architecture `{name}`")),
        }
    } else {
        (
            GcnVersion::Gcn1_0,
            format!(".gpu {}", Device::CapeVerde.name()),
        )
    };
    let mut bytes = Vec::new();
    let read = if args.file.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(&args.file).map(|b| bytes = b)
    };
    if let Err(e) = read {
        return usage_error(format!("cannot read {}: {e}", args.file.display()));
    }
    if !args.raw {
        eprintln!(
            "gcndisasm: {}: error: Gallium input is not supported yet; use -r",
            args.file.display()
        );
        return ExitCode::from(1);
    }
    if bytes.len() % 4 != 0 {
        eprintln!(
            "gcndisasm: {}: warning: {} trailing byte(s) padded with zeros to a word",
            args.file.display(),
            bytes.len() % 4
        );
    }
    let words = words_from_bytes(&bytes);
    let listing = disassemble(&words, version);
    let mut out = std::io::stdout().lock();
    let written = writeln!(out, "{header}\n.rawcode\n.text\n{listing}");
    match written.and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`| head`) is not an error worth a message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => usage_error(format!("cannot write the listing: {e}")),
    }
}
