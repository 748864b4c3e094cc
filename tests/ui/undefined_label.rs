gcn_runtime::gcn_kernel! {
    .gpu tonga
    s_branch nowhere
    s_endpgm
}

fn main() {}
