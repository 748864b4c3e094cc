gcn_runtime::gcn_kernel! {
    .gpu tonga
    v_add_f32 v1, v2, v3 mul:3
}

fn main() {}
