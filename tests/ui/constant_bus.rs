gcn_runtime::gcn_kernel! {
    .gpu pitcairn
    v_mad_f32 v1, s2, s3, v4
}

fn main() {}
