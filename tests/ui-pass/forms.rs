mod tokens {
    gcn_runtime::gcn_kernel! {
        .gpu tonga
        s_add_u32 s1, s2, s3 // comment
        s_endpgm
    }
}
mod literal {
    gcn_runtime::gcn_kernel!("s_add_u32 s1, s2, s3 # comment\ns_endpgm\n", gpu = "tonga");
}

fn main() {
    assert_eq!(tokens::CODE, literal::CODE);
    assert_eq!(tokens::CODE.len(), 8);
}
