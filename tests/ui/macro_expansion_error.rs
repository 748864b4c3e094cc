gcn_runtime::gcn_kernel!(r#"
.gpu tonga
.macro load dst, base
    s_load_dword \dst, \base, 0
.endm
    load s1, s[3:4]
"#);

fn main() {}
