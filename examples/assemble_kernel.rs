//! Assembles a kernel written in CLRX syntax and shows its machine code,
//! disassembled.
//!
//! Run with `cargo run --release --example assemble_kernel [FILE.s]`; without
//! an argument it assembles `examples/kernels/scale_offsets.s`.

use gcn_asm::{assemble, AssembleOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/kernels/scale_offsets.s").to_string()
    });
    let source = std::fs::read_to_string(&path)?;
    let options = AssembleOptions {
        file_name: path.clone(),
        ..AssembleOptions::default()
    };
    let assembly = match assemble(&source, &options) {
        Ok(a) => a,
        Err(diagnostics) => {
            eprintln!("{diagnostics}");
            std::process::exit(1);
        }
    };
    for warning in &assembly.warnings {
        eprintln!("{warning}");
    }
    let text = assembly.text();
    println!(
        "{path}: {} bytes of code for {} ({})",
        text.len(),
        assembly.device,
        assembly.version
    );
    // Show the machine code as the disassembler reads it back: one
    // instruction per line with its offset and words.
    let words: Vec<u32> = text
        .chunks(4)
        .map(|w| {
            let mut bytes = [0u8; 4];
            bytes[..w.len()].copy_from_slice(w);
            u32::from_le_bytes(bytes)
        })
        .collect();
    print!("{}", gcn_asm::decode::disassemble(&words, assembly.version));
    if let Some(binary) = &assembly.gallium {
        for kernel in &binary.kernels {
            println!(
                "kernel `{}` at offset {}, {} arguments, {} bytes of Gallium binary in all",
                kernel.name,
                kernel.offset,
                kernel.args.len(),
                assembly.gallium_bytes()?.len()
            );
        }
    }
    Ok(())
}
