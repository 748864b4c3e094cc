gcn_runtime::gcn_kernel! {
    .gpu tonga
    .byte 300
    s_endpgm
}
gcn_runtime::gcn_kernel!(mod b; ".gpu tonga\ns_mov_b32 s1, v2\n");

fn main() {}
