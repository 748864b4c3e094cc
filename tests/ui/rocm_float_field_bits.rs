// A by-value `float` is an `f32` field: no `to_bits`.
mod scale {
    gcn_runtime::gcn_kernel! {
        .rocm
        .gpu gfx900
        .md_version 1, 0
        .kernel scale
            .config
                .dims x
                .use_kernarg_segment_ptr
                .arg out, "", 8, , globalbuf, f32, global, default
                .arg k, "float", 4, , value, f32
        .text
        scale:
            .skip 256
            s_endpgm
    }
}

fn main() {
    let _ = scale::ScaleArgs {
        // No type name: an untyped pointer.
        out: gcn_runtime::DevicePtr(0x1000),
        k: 2.5f32.to_bits(),
    };
}
