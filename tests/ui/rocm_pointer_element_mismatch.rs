// A `float*` argument is a `TypedPtr<f32>` field: a `Buffer<u32>`'s
// pointer does not fit it.
mod scale {
    gcn_runtime::gcn_kernel! {
        .rocm
        .gpu gfx900
        .md_version 1, 0
        .kernel scale
            .config
                .dims x
                .use_kernarg_segment_ptr
                .arg out, "float*", 8, , globalbuf, f32, global, default
                .arg k, "float", 4, , value, f32
        .text
        scale:
            .skip 256
            s_endpgm
    }
}

fn main() {
    let memory = gcn_runtime::Memory::default();
    let words = memory.buffer_zeroed::<u32>(64).unwrap();
    let _ = scale::ScaleArgs {
        out: words.typed_ptr(),
        k: 2.0,
    };
    let _ = scale::ScaleArgs {
        out: (&words).into(),
        k: 2.0,
    };
}
