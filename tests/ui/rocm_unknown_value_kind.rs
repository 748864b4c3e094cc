gcn_runtime::gcn_kernel! {
    .rocm
    .gpu gfx900
    .md_version 1, 0
    .kernel k
        .config
            .dims x
            .use_kernarg_segment_ptr
            .arg n, "int", 4, , valu, i32
    .text
    k:
        .skip 256
        s_endpgm
}

fn main() {}
