gcn_runtime::gcn_kernel! {
    .gallium
    .gpu tonga
    .kernel missing
    .text
    s_endpgm
}

fn main() {}
