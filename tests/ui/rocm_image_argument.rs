// The emulator's HSA launch cannot pass images: no field, an error at the
// `.arg` (string form: the message names the place in the literal).
gcn_runtime::gcn_kernel!(
    r#"
.rocm
.gpu gfx900
.md_version 1, 0
.kernel k
    .config
        .dims x
        .use_kernarg_segment_ptr
        .arg img, "image2d_t", 8, , image, struct, read_only
.text
k:
    .skip 256
    s_endpgm
"#
);

fn main() {}
