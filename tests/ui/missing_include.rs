gcn_runtime::gcn_kernel!(".include \"no-such-file.s\"\ns_endpgm\n", gpu = "tonga");

fn main() {}
