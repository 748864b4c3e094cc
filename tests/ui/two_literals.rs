gcn_runtime::gcn_kernel! {
    .gpu pitcairn
    s_add_u32 s1, 0x12345, 0x6789a
}

fn main() {}
