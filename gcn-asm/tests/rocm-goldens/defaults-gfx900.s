# Only .dims x in .config: every other field is clrxasm's default (GCN 1.4).
.rocm
.gpu gfx900
.kernel k
    .config
        .dims x
        .use_private_segment_buffer
        .use_kernarg_segment_ptr
.text
k:
        .skip 256
        s_load_dwordx2 s[0:1], s[4:5], 0x0
        v_lshlrev_b32 v1, 2, v0
        s_waitcnt lgkmcnt(0)
        global_store_dword v1, v0, s[0:1]
        s_endpgm
