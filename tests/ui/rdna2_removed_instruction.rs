// RDNA 2 has no scalar stores: the error names the versions that have one,
// at the instruction.
gcn_runtime::gcn_kernel! {
    .rocm
    .gpu gfx1030
    .kernel k
        .config
            .dims x
            .use_wave32
    .text
    k:
        .skip 256
        s_store_dword s1, s[2:3], 0
        s_endpgm
}

fn main() {}
