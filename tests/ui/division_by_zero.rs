gcn_runtime::gcn_kernel! {
    .gpu tonga
    s_mov_b32 s1, 4/0
}

fn main() {}
