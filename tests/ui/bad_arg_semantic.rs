gcn_runtime::gcn_kernel!(r#"
.gallium
.gpu tonga
.kernel k
    .args
        .arg scalar, 4, 4, 4, zext, size   # not a semantic
.text
k:  s_endpgm
"#);

fn main() {}
