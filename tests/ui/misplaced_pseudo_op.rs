gcn_runtime::gcn_kernel! {
    .gallium
    .gpu tonga
    .kernel k
        .args
            .arg n, scalar, 4
            .dims x
    .text
    k: s_endpgm
}

fn main() {}
