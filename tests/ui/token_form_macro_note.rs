gcn_runtime::gcn_kernel! {
    .gpu tonga
    .macro bad
        s_mov_b32 s1, v2
    .endm
    bad
}

fn main() {}
