#!/bin/bash
# Run an example on the interpreter (engine=interp) and on the fast engine
# (engine=fast, docs/performance.md): both must pass and print the same
# output, statistics included; only host time is left out.
set -euo pipefail
exe=$1
strip() { sed -E 's/, [0-9.]+ ms \([0-9]+ M thread-instr\/s\)//'; }
i=$(WARPSCOPE_CONFIG=engine=interp "$exe" | strip)
f=$(WARPSCOPE_CONFIG=engine=fast "$exe" | strip)
if [ "$i" != "$f" ]; then
    echo "engine=interp and engine=fast differ for $exe:"
    diff <(echo "$i") <(echo "$f") || true
    exit 1
fi
echo "$f"
echo "same output and statistics with engine=interp and engine=fast"
