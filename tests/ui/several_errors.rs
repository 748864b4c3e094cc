gcn_runtime::gcn_kernel! {
    .gpu tonga
    s_mov_b32 s1, v2
    v_add_f32 v1, v2
    s_nop 0 garbage
}

fn main() {}
