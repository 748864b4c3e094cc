#!/bin/sh
# Regenerates the clrxasm goldens of this directory: for each NAME.s,
#   NAME.clrx.co    what `clrxasm -b rocm` writes for it,
#   NAME.clrx.dis   `clrxdisasm -a` of that object,
#   NAME.clrx.disC  `clrxdisasm -aC` of that object (configurations decoded).
# A source clrxasm refuses leaves NAME.clrx.err instead.
# CLRXASM / CLRXDISASM name the programs (default: a CLRX build in /work/clrx-build,
# `cmake CLRX-mirror -DCMAKE_BUILD_TYPE=Release && make clrxasm clrxdisasm`).
# Usage: ./make_goldens.sh [NAME.s ...]   (default: every *.s here)
set -eu
CLRXASM=${CLRXASM:-/work/clrx-build/programs/clrxasm}
CLRXDISASM=${CLRXDISASM:-/work/clrx-build/programs/clrxdisasm}
cd "$(dirname "$0")"
[ $# -gt 0 ] || set -- *.s
for src in "$@"; do
    name=${src%.s}
    rm -f "$name.clrx.co" "$name.clrx.dis" "$name.clrx.disC" "$name.clrx.err"
    if ! "$CLRXASM" -b rocm -o "$name.clrx.co" "$src" 2> "$name.clrx.err"; then
        echo "$name: clrxasm refused it (see $name.clrx.err)" >&2
        rm -f "$name.clrx.co"
        continue
    fi
    rm -f "$name.clrx.err"
    # the disassembler prints the file name it reads on its first line
    # (clrxdisasm cannot list some objects it writes: GCN 1.5 in the LLVM 10
    # format; its error message is kept as the text then.)
    "$CLRXDISASM" -a "$name.clrx.co" > "$name.clrx.dis" 2>&1 || true
    "$CLRXDISASM" -aC "$name.clrx.co" > "$name.clrx.disC" 2>&1 || true
done
