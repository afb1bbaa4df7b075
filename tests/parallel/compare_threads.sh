#!/bin/bash
# Run an example on 1, 2 and 4 host threads (docs/parallel.md): every run
# must pass and print the same output, statistics included; only host
# time and the speed derived from it are left out.
set -euo pipefail
exe=$1
strip() { sed -E 's/, [0-9.]+ ms \([0-9.]+ M thread-instr\/s\)//; s/[0-9.]+ M thread-instr\/s//'; }
one=$(WARPSCOPE_CONFIG=threads=1 "$exe" | strip)
for n in 2 4; do
    many=$(WARPSCOPE_CONFIG=threads=$n "$exe" | strip)
    if [ "$one" != "$many" ]; then
        echo "$exe prints something else with threads=$n than with threads=1:"
        diff <(echo "$one") <(echo "$many") || true
        exit 1
    fi
done
echo "$one"
echo "same output and statistics with 1, 2 and 4 host threads"
