gcn_runtime::gcn_kernel! {
    .gallium
    .gpu tonga
    .kernel k
        .args
            .arg scalar, 4
            .arg arg0, global, 8
    .text
    k: s_endpgm
}

fn main() {}
