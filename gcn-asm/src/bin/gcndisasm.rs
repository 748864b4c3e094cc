//! `gcndisasm`: the command-line disassembler, in the spirit of
//! `clrxdisasm`.
//!
//! ```text
//! gcndisasm [-g DEVICE | -A ARCH] [-r [--wave32]] FILE
//! gcndisasm --kernels FILE
//! ```
//!
//! `--kernels` lists what the file is (and the GPU it is for), its kernels
//! and their arguments ([`gcn_asm::kernels::summarize`]).
//!
//! Without `-r`, `FILE` (`-` for standard input) is an AMDHSA (ROCm) code
//! object (an ELF64 with `e_machine` EM_AMDGPU, as clang, hipcc and
//! `clrxasm -b rocm` write it: code object v2 to v5) or a GalliumCompute
//! binary, or a clang offload bundle holding code objects (what `hipcc
//! --genco` and `hipcc --cuda-device-only -c` write, compressed or not,
//! `gcn_asm::bundle`): the entry for `-g`'s processor is listed, else the
//! only GPU entry, after a `# offload bundle entry ID` line. A code
//! object's listing is CLRX ROCm source (`.rocm`, the
//! target from the code object itself, each kernel's `.config`, the
//! metadata note, `.globaldata`, `.text`) that `gcnasm -b rocm` assembles
//! into an equivalent code object; `-g`/`-A` do not apply to it (but `-g`
//! picks a bundle's entry). A Gallium
//! binary's listing has `.gallium`, the target, `.32bit`/`.64bit`, each
//! kernel's `.args` and `.proginfo`, `.globaldata` and `.text` with the
//! kernel labels, and `gcnasm` assembles it into an equivalent binary (the
//! same kernels, arguments, proginfo, code and global data). With `-r` the
//! input is raw code (the bytes of `.text`) and the listing assembles back
//! with `gcnasm -b rawcode` to the same bytes. Code is one instruction per
//! line with its byte offset and words as comments, branch targets as
//! `.L<offset>` labels. GCN 1.5 raw code (`-g gfx1010`, `gfx1011`,
//! `gfx1012`, `-A gcn1.5`) is listed exactly as `clrxdisasm -r` lists it
//! (its header, `/*offset*/` lines with padded mnemonics, `.fill` for zero
//! words, `.LOFFSET_0` labels); `--wave32` prints VCC and the lane masks of
//! vector instructions as one SGPR, as `clrxdisasm --wave32` does. Errors are printed as `FILE: error: MESSAGE`. Exit
//! status: 0 on success, 1 when the input cannot be disassembled (a
//! malformed binary), 2 for a usage or I/O problem.

use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use gcn_asm::decode::gallium::{listing, Target};
use gcn_asm::decode::{words_from_bytes, write_clrx_listing, write_disassembly, DecodeOptions};
use gcn_asm::Device;

#[path = "common/target.rs"]
mod target;
use target::{Selected, TargetArgs};

#[derive(Debug, Parser)]
#[command(
    name = "gcndisasm",
    version,
    about = "Disassembler for AMD GCN 1.0-1.5 code, printing CLRX syntax"
)]
struct Args {
    #[command(flatten)]
    target: TargetArgs,
    /// The input is raw code (the bytes of `.text`), not a GalliumCompute
    /// binary.
    #[arg(short = 'r', long = "raw")]
    raw: bool,
    /// Raw GCN 1.5 code runs in wave32 mode: VCC and the lane masks of
    /// vector instructions are one SGPR (`vcc_lo`, `s4`).
    #[arg(short = '3', long = "wave32")]
    wave32: bool,
    /// List the kernels, their arguments and the GPU instead of
    /// disassembling.
    #[arg(long)]
    kernels: bool,
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
    // The target line lets the listing assemble for the same target.
    let target = match args.target.selected() {
        Ok(Selected::Device(d)) => Target::Device(d),
        Ok(Selected::Arch(v)) => Target::Arch(v),
        Ok(Selected::Default) => Target::Device(Device::CapeVerde),
        Err(message) => return usage_error(message),
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
    if args.wave32 && !(args.raw && target.version().is_gcn15()) {
        return usage_error(
            "--wave32 applies to raw GCN 1.5 code (-r with a GCN 1.5 device)".into(),
        );
    }
    if args.raw && target.version().is_gcn15() {
        return finish(write_clrx_raw(&args, target, &bytes));
    }
    if args.raw {
        if bytes.len() % 4 != 0 {
            eprintln!(
                "{}: warning: {} trailing byte(s) padded with zeros to a word",
                args.file.display(),
                bytes.len() % 4
            );
        }
        let words = words_from_bytes(&bytes);
        drop(bytes);
        // Streamed: the listing of raw code is many times the size of the
        // code, so it is written as it is decoded, never held.
        let mut out = IoWriter {
            inner: std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock()),
            error: None,
        };
        let written = writeln!(out, "{}\n.rawcode\n.text", target.directive())
            .and_then(|()| write_disassembly(&mut out, &words, target.version()));
        let flushed = match (written, out.error.take()) {
            (Ok(()), None) => out.inner.flush(),
            (_, Some(e)) => Err(e),
            (Err(_), None) => Err(std::io::Error::other("formatting failed")),
        };
        return finish(flushed);
    }
    // A clang offload bundle (hipcc --genco, --cuda-device-only -c): the
    // listing of the code object of the entry for -g's processor, else of
    // the only GPU entry, after a comment line naming the entry.
    let mut header = String::new();
    if gcn_asm::bundle::is_bundle(&bytes) {
        let chosen = gcn_asm::bundle::read(&bytes).and_then(|bundle| {
            let entry = bundle.select(args.target.device.as_deref())?;
            Ok((entry.id.clone(), entry.data.clone()))
        });
        match chosen {
            Ok((id, data)) if gcn_asm::rocm::is_code_object(&data) => {
                header = format!("# offload bundle entry {id}\n");
                bytes = data;
            }
            Ok((id, _)) => {
                eprintln!(
                    "{}: error: offload bundle entry {id} is not an AMDHSA code object",
                    args.file.display()
                );
                return ExitCode::from(1);
            }
            Err(e) => {
                eprintln!("{}: error: {e}", args.file.display());
                return ExitCode::from(1);
            }
        }
    }
    if args.kernels {
        return match gcn_asm::kernels::summarize(&bytes) {
            Ok(summary) => {
                print!("{}: {summary}", args.file.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{}: error: {e}", args.file.display());
                ExitCode::from(1)
            }
        };
    }
    let text = if gcn_asm::rocm::is_code_object(&bytes) {
        let listed = gcn_asm::rocm::read(&bytes).and_then(|co| gcn_asm::decode::rocm::listing(&co));
        match listed {
            Ok(text) => header + &text,
            Err(e) => {
                eprintln!("{}: error: {e}", args.file.display());
                return ExitCode::from(1);
            }
        }
    } else {
        let binary = match gcn_asm::gallium::read(&bytes) {
            Ok(binary) => binary,
            Err(e) => {
                let file = args.file.display();
                eprintln!("{file}: error: {e}");
                // The usual cause: raw code given without -r.
                eprintln!(
                    "{file}: note: without -r the input must be a GalliumCompute binary; \
                     if it is raw code (the bytes of .text), use `gcndisasm -r`"
                );
                return ExitCode::from(1);
            }
        };
        match listing(&binary, target) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("{}: error: {e}", args.file.display());
                return ExitCode::from(1);
            }
        }
    };
    let mut out = std::io::stdout().lock();
    let written = out.write_all(text.as_bytes());
    finish(written.and_then(|()| out.flush()))
}

/// Writes the listing of raw GCN 1.5 code as `clrxdisasm -r` does: its
/// header (the input named in a comment, `.rawcode`, `.gpu`, `.wave32`,
/// `.text`), its warning for a size that is not whole words (the trailing
/// bytes are left out, as clrxdisasm leaves them), then the code in its
/// layout.
fn write_clrx_raw(args: &Args, target: Target, bytes: &[u8]) -> std::io::Result<()> {
    let device = match target {
        Target::Device(d) => d,
        Target::Arch(v) => v.default_device(),
    };
    let version = target.version();
    let words = words_from_bytes(&bytes[..bytes.len() & !3]);
    let mut out = IoWriter {
        inner: std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock()),
        error: None,
    };
    let options = DecodeOptions {
        wave32: args.wave32,
    };
    let written = (|| -> std::fmt::Result {
        writeln!(out, "/* Disassembling '{}' */", args.file.display())?;
        writeln!(out, ".rawcode")?;
        writeln!(out, ".gpu {}", device.name().to_ascii_uppercase())?;
        if args.wave32 {
            writeln!(out, ".wave32")?;
        }
        writeln!(out, ".text")?;
        if !bytes.len().is_multiple_of(4) {
            writeln!(
                out,
                "        /* WARNING: Code size is not aligned to 4-byte word! */"
            )?;
        }
        write_clrx_listing(&mut out, &words, version, options)
    })();
    match (written, out.error.take()) {
        (Ok(()), None) => out.inner.flush(),
        (_, Some(e)) => Err(e),
        (Err(_), None) => Err(std::io::Error::other("formatting failed")),
    }
}

/// The exit status after writing the listing.
fn finish(written: std::io::Result<()>) -> ExitCode {
    match written {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`| head`) is not an error worth a message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => usage_error(format!("cannot write the listing: {e}")),
    }
}

/// A [`std::fmt::Write`] onto an [`std::io::Write`], keeping the first I/O
/// error (formatting stops at it).
struct IoWriter<W: Write> {
    inner: W,
    error: Option<std::io::Error>,
}

impl<W: Write> std::fmt::Write for IoWriter<W> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.inner.write_all(s.as_bytes()).map_err(|e| {
            self.error.get_or_insert(e);
            std::fmt::Error
        })
    }
}
