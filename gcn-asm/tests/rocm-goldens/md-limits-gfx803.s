# Metadata (YAML, old format, gfx803): values clrxasm keeps in 32 bits (truncated with a warning: printf ids and sizes, .md_language versions, work-group sizes, spilled counts) and its "not given" marks (0xffffffff as a printf id or .md_version major, 0xfffffffe as a spilled count).
.rocm
.gpu gfx803
.md_version 0xffffffff, 3
.printf 0x100000005, 0x100000004, "x"
.printf 0xffffffff, "auto"
.printf , 0x1ffffffff, "z"
.kernel k
    .config
        .dims x
        .use_kernarg_segment_ptr
    .config
        .md_language "L", 0x100000001, 0x200000002
        .spilledsgprs 0x100000003
        .spilledvgprs 0xfffffffe
        .reqd_work_group_size 0x100000002, 1, 1
        .work_group_size_hint 0x100000010, 0x100000020, 0x100000030
        .fixed_work_group_size 0x1ffffffff
.kernel k2
    .config
        .dims x
    .config
        .spilledsgprs 0xffffffff
        .spilledvgprs 0x1fffffffe
        .md_kernarg_segment_size 0x12345678
        .md_group_segment_fixed_size 0xffffffff
.text
k:
        .skip 256
        s_endpgm
k2:
        .skip 256
        s_endpgm
