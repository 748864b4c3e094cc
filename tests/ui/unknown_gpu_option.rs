gcn_runtime::gcn_kernel!("s_endpgm", gpu = "voodoo2");

fn main() {}
