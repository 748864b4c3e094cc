# 64-bit amd_kernel_code_t fields with bit 63 set or given negative: .runtime_loader_kernel_symbol, .kernel_code_prefetch_offset, .max_scratch_backing_memory, .kernarg_segment_size, .kernel_code_entry_offset (gfx904).
.rocm
.gpu gfx904
.kernel k
    .config
        .dims x
        .runtime_loader_kernel_symbol 0xfedcba9876543210
        .kernel_code_prefetch_offset -16
        .max_scratch_backing_memory 0x8000000000000000
        .kernarg_segment_size -1
        .call_convention -2
.text
k:
        .skip 256
        s_endpgm
