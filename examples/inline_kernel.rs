//! A kernel written inline as Rust tokens, assembled at compile time.
//!
//! `cargo run --example inline_kernel`

mod kernel {
    gcn_runtime::gcn_kernel! {
        .gpu tonga
        s_load_dwordx2 s[4:5], s[0:1], 0x24   // argument pointer
        s_waitcnt lgkmcnt(0)
        v_add_u32 v1, vcc, s4, v0             // lane index + argument
        v_mov_b32_dpp v2, v1 row_shr:1 bound_ctrl:0
        s_endpgm
    }
}

fn main() {
    println!("{} bytes of code:", kernel::CODE.len());
    for word in kernel::CODE.chunks(4) {
        println!(
            "  {:08x}",
            u32::from_le_bytes([word[0], word[1], word[2], word[3]])
        );
    }
}
