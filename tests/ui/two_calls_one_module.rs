gcn_runtime::gcn_kernel! {
    .gpu tonga
    s_endpgm
}
gcn_runtime::gcn_kernel! {
    .gpu tonga
    s_nop 0
}

fn main() {}
