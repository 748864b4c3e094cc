gcn_runtime::gcn_kernel! {
    .gpu pitcairn
    v_mad_f32 v1, v2, v3, 1234.5
}

fn main() {}
