#!/bin/bash
# Measures what one gcn_kernel! call on a 10,000-instruction kernel adds to
# `cargo build` (dev profile): the crate is rebuilt (after `touch`) with
# and without the call, RUNS times each, alternating; prints the medians.
# Dependencies are built first and not counted.
set -eu
cd "$(dirname "$0")"
[ -f kernel.s ] || ./gen_kernel.sh
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target}
RUNS=${RUNS:-7}
cargo build -q
cargo build -q --features kernel

build_ms() {
    touch src/lib.rs
    local start end
    start=$(date +%s%N)
    cargo build -q "$@"
    end=$(date +%s%N)
    echo $(((end - start) / 1000000))
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

without=()
with=()
for _ in $(seq "$RUNS"); do
    without+=("$(build_ms)")
    with+=("$(build_ms --features kernel)")
done
m0=$(printf '%s\n' "${without[@]}" | median)
m1=$(printf '%s\n' "${with[@]}" | median)
echo "kernel.s: $(grep -c '^    [a-z]' kernel.s) instructions"
echo "without the macro call: ${without[*]} ms (median $m0 ms)"
echo "with the macro call:    ${with[*]} ms (median $m1 ms)"
echo "added by gcn_kernel!:   $((m1 - m0)) ms"
