# Metadata (YAML, old format, gfx803): a kernel without .config (its amd_kernel_code_t written in the code), whose metadata clrxasm takes from that header, beside one with .config and metadata pseudo-ops.
.rocm
.gpu gfx803
.kernel k
    .config
        .dims x
        .use_kernarg_segment_ptr
    .config
        .md_language "OpenCL C", 1, 2
        .arg n, "int", 4, , value, i32
.kernel raw
.text
k:
        .skip 256
        s_endpgm
raw:
        .int 1, 0                       # amd_code_version
        .short 1, 8, 0, 3               # amd_machine
        .quad 256, 0, 0, 0              # entry, prefetch offset and size, scratch backing
        .int 0x002c0041, 0x00000090     # pgm_rsrc1, pgm_rsrc2
        .int 0x0000000a                 # kernel_code_properties
        .int 24, 200, 0                 # private, group, gds segment sizes
        .quad 48                        # kernarg_segment_byte_size
        .int 0                          # workgroup_fbarrier_count
        .short 17, 9                    # wavefront_sgpr_count, workitem_vgpr_count
        .short 0, 0, 0, 0, 0, 0         # reserved and debug registers
        .byte 3, 4, 4, 6                # kernarg, group, private alignments, wavefront size (log2)
        .int 0                          # call_convention
        .skip 12                        # reserved
        .quad 0                         # runtime_loader_kernel_symbol
        .skip 128                       # control_directives
        s_endpgm
