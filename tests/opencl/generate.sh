#!/bin/sh
# Regenerates the OpenCL fixtures from src/*.cl (see README.md):
#   gen/GPU/NAME.s, gen/skipped.json  (compile.py: clang-14, libclc-14, llvm-14)
#   cases.json, data/                  (reference.py: pocl through pyopencl)
# and, when target/release/gcnasm exists (or $GCNASM names one), compares
# the code gcnasm makes from gen/ with the code llc-14 makes itself
# (check_encodings.py).
set -e
cd "$(dirname "$0")"
python3 compile.py
/usr/bin/python3 reference.py
if [ -n "$GCNASM" ] || [ -x ../../target/release/gcnasm ]; then
    python3 check_encodings.py
fi
