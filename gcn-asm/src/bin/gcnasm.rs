//! `gcnasm`: the command-line assembler (clrxasm-compatible flags).

fn main() {
    eprintln!("gcnasm: not implemented yet");
    std::process::exit(1);
}
