#!/bin/sh
# Regenerates the clrxasm goldens of this directory: for each NAME.s,
# NAME.clrx.bin is what `clrxasm -b gallium` writes for it. CLRXASM names
# the program (default: a CLRX build in /work/clrx-build). The sources give
# .llvm_version and .driver_version: clrxasm otherwise detects the LLVM and
# Mesa installed on the machine that runs it.
# Usage: ./make_goldens.sh [NAME.s ...]   (default: every *.s here)
set -eu
CLRXASM=${CLRXASM:-/work/clrx-build/programs/clrxasm}
cd "$(dirname "$0")"
[ $# -gt 0 ] || set -- *.s
for src in "$@"; do
    "$CLRXASM" -b gallium -o "${src%.s}.clrx.bin" "$src"
done
