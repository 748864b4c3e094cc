gcn_runtime::gcn_kernel! {
    .gpu tonga
    .if 1
    s_endpgm
}

fn main() {}
