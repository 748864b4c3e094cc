gcn_runtime::gcn_kernel! {
    .gallium
    .gpu tonga
    .kernel vecAdd
    .kernel vec_add
    .text
    vecAdd: s_endpgm
    vec_add: s_endpgm
}

fn main() {}
