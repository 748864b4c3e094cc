gcn_runtime::gcn_kernel! {
    .gpu pitcairn
    s_mov_b32 s[2:3], s4
}

fn main() {}
