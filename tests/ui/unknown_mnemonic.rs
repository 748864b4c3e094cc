gcn_runtime::gcn_kernel! {
    .gpu tonga
    s_add_u32 s1, s2, s3
    s_frobnicate s1
}

fn main() {}
