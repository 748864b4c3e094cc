gcn_runtime::gcn_kernel! {
    .gpu tonga
    .error "kernel not ported to this GPU"
}

fn main() {}
