# Global data referenced PC-relatively from code.
.rocm
.gpu gfx900
.kernel k
    .config
        .dims x
        .use_private_segment_buffer
        .use_kernarg_segment_ptr
.globaldata
gdata:
        .int 1, 2, 3, 4
        .byte 7
.text
k:
        .skip 256
        s_getpc_b64 s[0:1]
.L1:
        s_add_u32 s0, s0, (gdata - .L1) & 0xffffffff
        s_addc_u32 s1, s1, (gdata - .L1) >> 32
        s_load_dword s2, s[0:1], 0x4
        s_endpgm
