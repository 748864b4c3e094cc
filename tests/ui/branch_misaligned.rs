gcn_runtime::gcn_kernel! {
    .gpu tonga
start:
    s_branch start+2
}

fn main() {}
