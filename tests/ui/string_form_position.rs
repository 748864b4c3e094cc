gcn_runtime::gcn_kernel!(r#"
    .gpu tonga
    s_endpgm
    v_mov_b32 v1, s[0:1]
"#);

fn main() {}
