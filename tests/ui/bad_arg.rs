gcn_runtime::gcn_kernel! {
    .gallium
    .gpu tonga
    .kernel k
        .args
            .arg n, scaler, 4
    .text
    k: s_endpgm
}

fn main() {}
