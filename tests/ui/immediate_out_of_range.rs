gcn_runtime::gcn_kernel! {
    .gpu pitcairn
    s_getreg_b32 s1, hwreg(mode, 0, 40)
}

fn main() {}
