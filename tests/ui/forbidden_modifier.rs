gcn_runtime::gcn_kernel! {
    .gpu pitcairn
    s_add_u32 s1, s2, s3 clamp
}

fn main() {}
