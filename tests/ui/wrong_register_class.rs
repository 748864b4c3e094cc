gcn_runtime::gcn_kernel! {
    .gpu pitcairn
    s_mov_b32 s1, v2
}

fn main() {}
