#!/bin/bash
# Run an example in functional and in timing mode: both must pass and print
# the same results (the statistics line, with host time, is left out).
set -euo pipefail
exe=$1
strip() { grep -v 'thread-instr/s' || true; }
f=$(WARPSCOPE_CONFIG=mode=functional "$exe" | strip)
t=$(WARPSCOPE_CONFIG=mode=timing "$exe" | strip)
if [ "$f" != "$t" ]; then
    echo "functional and timing mode differ for $exe:"
    diff <(echo "$f") <(echo "$t") || true
    exit 1
fi
echo "$t"
echo "same output in functional and timing mode"
