gcn_runtime::gcn_kernel! {
    .gpu pitcairn
    v_pk_add_f16 v1, v2, v3
}

fn main() {}
