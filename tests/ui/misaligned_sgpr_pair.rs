gcn_runtime::gcn_kernel! {
    .gpu pitcairn
    s_mov_b64 s[3:4], s[6:7]
}

fn main() {}
