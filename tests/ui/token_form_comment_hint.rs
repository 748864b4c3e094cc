gcn_runtime::gcn_kernel! {
    .gpu tonga
    s_mov_b32 s1, v2   # copy the "count"
}

fn main() {}
