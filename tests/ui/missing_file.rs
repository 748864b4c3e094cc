gcn_runtime::gcn_kernel!(file = "tests/ui/no-such-kernel.s");

fn main() {}
