# Metadata (YAML, old format, gfx803): strings clrxasm quotes and C-escapes (a digit or a space first, a space last, '*', '&', '!', '@', quotes, control characters, bytes above 0x7f) or leaves as they are (',', ':', '#', '[', 0x7f), in type names, .md_language, .md_symname, .runtime_handle, .vectypehint and .printf formats.
.rocm
.gpu gfx803
.md_version 1, 0
.printf 1, 4, "colon: %d, quote ' and \" and \\ done\n"
.printf 2, "tab\there\r\a\b\f\v end"
.printf 3, "octal \001\0025 \177 \303\251 \x1b[0m"
.printf 4, 8, ":%s:"
.printf , 1, 2, "@*&!#[]{}|>%%"
.kernel k
    .config
        .dims x
        .use_kernarg_segment_ptr
    .config
        .md_language "1st lang, v:2"
        .md_symname "k@kd"
        .runtime_handle " handle with spaces "
        .vectypehint float4
        .arg a0, "3d_t", 4, , value, i32
        .arg a1, " lead", 4, , value, i32
        .arg a2, "trail ", 4, , value, i32
        .arg a3, "int*", 8, , globalbuf, i32, global
        .arg a4, "a&b", 4, , value, i32
        .arg a5, "!bang", 4, , value, i32
        .arg a6, "at@sign", 4, , value, i32
        .arg a7, "it's", 4, , value, i32
        .arg a8, "say \"hi\"", 4, , value, i32
        .arg a9, "back\\slash", 4, , value, i32
        .arg a10, "tab\there", 4, , value, i32
        .arg a11, "new\nline", 4, , value, i32
        .arg a12, "caf\303\251", 4, , value, i32
        .arg a13, "del\177", 4, , value, i32
        .arg a14, "comma, colon: hash # [x] {y}", 4, , value, i32
        .arg a15, "-dash", 4, , value, i32
        .arg a16, "~", 4, , value, i32
        .arg a17, "true", 4, , value, i32
        .arg a18, "\0012", 4, , value, i32
        .arg a19, "'", 4, , value, i32
        .arg _a20, "x\\'y\\\"", 4, , value, i32
        .arg .a21, "%d", 4, , value, i32
        .arg a22, "null", 4, , value, i32
.kernel k2
    .config
        .dims x
    .config
        .md_language "@lang"
        .md_symname "7k2@kd"
        .runtime_handle "it's"
.kernel k3
    .config
        .dims x
    .config
        .md_language " "
        .runtime_handle "\t"
.text
k:
        .skip 256
        s_endpgm
k2:
        .skip 256
        s_endpgm
k3:
        .skip 256
        s_endpgm
