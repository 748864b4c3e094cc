//! Assembles a kernel written in CLRX syntax and shows its machine code.
//!
//! Run with `cargo run --release --example assemble_kernel [FILE.s]`; without
//! an argument it assembles `examples/kernels/scale_offsets.s`.

use gcn_asm::{assemble, AssembleOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/examples/kernels/scale_offsets.s"
        )
        .to_string()
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
    for (row, chunk) in text.chunks(16).enumerate() {
        let words: Vec<String> = chunk
            .chunks(4)
            .map(|w| {
                let mut bytes = [0u8; 4];
                bytes[..w.len()].copy_from_slice(w);
                format!("{:08x}", u32::from_le_bytes(bytes))
            })
            .collect();
        println!("{:06x}: {}", row * 16, words.join(" "));
    }
    Ok(())
}
