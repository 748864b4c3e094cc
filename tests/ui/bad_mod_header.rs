gcn_runtime::gcn_kernel! {
    pub mod;
    s_endpgm
}

fn main() {}
