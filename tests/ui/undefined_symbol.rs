gcn_runtime::gcn_kernel! {
    .gpu tonga
    s_mov_b32 s1, missing_value
}

fn main() {}
