gcn_runtime::gcn_kernel! {
    .gpu hawaii
    v_mov_b32 v1, v2 dst_sel:byte0
}

fn main() {}
