gcn_runtime::gcn_kernel! {
    .gpu tonga
    s_endpgm
    .endif
}

fn main() {}
