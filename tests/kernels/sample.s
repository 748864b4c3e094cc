# Samples an image through a bilinear sampler: the T# and the S# are
# kernel arguments (this project's image ABI). The device comes from the
# `gcn_kernel!` option `gpu = …`.
.gallium
.kernel sample
    .args
        .arg img, image2d_rdonly, 32, 32, 32
        .arg smp, sampler, 16, 16, 16
        .arg out, global, 8
        .arg griddim
        .arg gridoffset
    .config
        .dims x
        .tgsize
.text
sample:
        .include "sample_body.inc"
