gcn_runtime::gcn_kernel! {
    .rawcode
    .gpu tonga
    .kernel k
    s_endpgm
}

fn main() {}
