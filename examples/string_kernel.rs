//! A kernel given as a string literal of verbatim CLRX source (`#`
//! comments, macros with `\arg` parameters), assembled at compile time.
//!
//! `cargo run --example string_kernel`

use gcn_runtime::kernel::{Dispatch, KernelArgs, LocalMemory};

mod reduce {
    gcn_runtime::gcn_kernel!(
        r#"
.gallium
.gpu Pitcairn
# load one argument dword into an SGPR
.macro arg dst, dword
    s_load_dword \dst, s[0:1], \dword
.endm
.kernel partial_sums
    .args
        .arg scratch, local, 4          # __local uint* scratch
        .arg n, scalar, 4               # uint n
        .arg shift, scalar, 2, 4, 4, sext   # short shift
        .arg griddim
        .arg gridoffset
    .config
        .dims x
        .tgsize
.text
partial_sums:
        arg s2, 9                       # scratch (offset in LDS)
        arg s3, 10                      # n
        s_waitcnt lgkmcnt(0)
        v_lshlrev_b32 v1, 2, v0         # lane * 4
        v_add_i32 v1, vcc, s2, v1
        v_mov_b32 v2, s3
        s_mov_b32 m0, -1
        ds_write_b32 v1, v2
        s_waitcnt lgkmcnt(0)
        s_barrier
        s_endpgm
"#
    );
}

fn main() {
    let k = reduce::PARTIAL_SUMS;
    println!("{}: {} arguments", k.name, k.args.len());
    for arg in k.args {
        println!("  {:<8} {}", arg.name, arg.declaration);
    }
    let args = reduce::PartialSumsArgs {
        scratch: LocalMemory(64 * 4),
        n: 64,
        shift: -1,
    };
    match args.write_input(&Dispatch::new_1d(64, 64)) {
        Ok(input) => println!(
            "input: {} bytes, {} bytes of local memory for `scratch`",
            input.bytes.len(),
            input.local_memory
        ),
        Err(e) => eprintln!("cannot build the input buffer: {e}"),
    }
}
