# vector add: c[i] = a[i] + b[i] for i < n (named arguments)
.gallium
.gpu Pitcairn
.kernel vadd
    .args
        .arg n, scalar, 4               # uint n
        .arg a, global, 8               # const float* a
        .arg b, global, 8               # const float* b
        .arg c, global, 8               # float* c
        .arg griddim
        .arg gridoffset
    .config
        .dims x
        .tgsize
.text
vadd:
        .include "vadd_body.inc"
