gcn_runtime::gcn_kernel! {
    .gpu tonga
    v_mov_b32 v1, v2 dst_sel:byte0 row_shl:1
}

fn main() {}
