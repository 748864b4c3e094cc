gcn_runtime::gcn_kernel! {
    .gpu tonga
    s_mov_b32 s102, 0
}

fn main() {}
