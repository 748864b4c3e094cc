// In wave32 (`.use_wave32`) a compare writes one SGPR: `vcc` (a pair) is
// refused at the operand.
gcn_runtime::gcn_kernel! {
    .rocm
    .gpu gfx1010
    .kernel k
        .config
            .dims x
            .use_wave32
    .text
    k:
        .skip 256
        v_cmp_eq_u32 vcc, 0, v0
        s_endpgm
}

fn main() {}
