# Metadata (MessagePack, .llvm10binfmt + .metadatav3, gfx900, .md_version 1, 1): .printf with and without ids (':' as \72, nothing else escaped), strings of every length class and with quotes, control characters and UTF-8, empty strings and zero sizes that clrxasm leaves out, .md_language without a version, .spilled* not given.
.rocm
.gpu gfx900
.eflags 0x2c
.llvm10binfmt
.metadatav3
.md_version 1, 1
.printf 4, 4, 8, "x: %d y: %ld\n"
.printf , "auto 'q' \"dq\" \\ \t"
.printf 1, 4, "%d:%d"
.printf , 2, "\303\251 %hd"
.printf , ""
.globaldata
        .skip 192
.kernel strings
    .config
        .dims x
        .use_kernarg_segment_ptr
    .config
        .md_symname "strings.kd"
        .max_flat_work_group_size 64
        .md_language "1 lang: it's \"C\""
        .vectypehint double2
        .arg a, "a type name that is exactly 31c", 4, , value, i32
        .arg b, "a type name that is exactly 32ch", 4, , value, i32
        .arg c, "a type name well over 32 characters, with a comma: 'quoted' and \"dquoted\", tab\t, new\nline and UTF-8 caf\303\251 ......................................................................................................................................................................................................................................", 4, , value, i32
        .arg d, "", 4, , value, i32
        .arg e, "@*&!", 8, , globalbuf, i32, global, default
.kernel empty
    .config
        .dims x
    .config
        .md_symname "empty.kd"
        .max_flat_work_group_size 1024
        .md_language ""
        .runtime_handle ""
        .reqd_work_group_size 0, 0, 0
        .work_group_size_hint 0, 0, 0
        .fixed_work_group_size 0, 0, 0
        .spilledsgprs 7
.kernel sizes
    .config
        .dims x
        .wavefront_sgpr_count 50
        .workitem_vgpr_count 20
        .kernarg_segment_align 64
    .config
        .md_symname "sizes.kd"
        .max_flat_work_group_size 65536
        .md_kernarg_segment_size 70000
        .md_group_segment_fixed_size 65535
        .md_private_segment_fixed_size 4294967295
        .spilledvgprs 300
.text
strings:
        s_endpgm
        .p2align 8
empty:
        s_endpgm
        .p2align 8
sizes:
        s_mov_b32 s30, 0
        v_mov_b32 v3, 0
        s_endpgm
        .p2align 8
