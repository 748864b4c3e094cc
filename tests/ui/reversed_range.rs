gcn_runtime::gcn_kernel! {
    .gpu tonga
    v_mov_b32 v[5:4], v0
}

fn main() {}
