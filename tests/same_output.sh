#!/bin/bash
# Run an example under each configuration (WARPSCOPE_CONFIG): every run must
# pass and print what the first prints. Host time and the speed derived from
# it are left out; with --results-only the statistics lines are too (they
# differ by design, e.g. between functional and timing mode).
# usage: same_output.sh [--results-only] EXE CONFIG CONFIG...
set -euo pipefail
results_only=0
if [ "$1" = --results-only ]; then results_only=1; shift; fi
exe=$1
shift
strip() {
    if [ $results_only = 1 ]; then grep -v 'thread-instr/s' || true
    else sed -E 's/, [0-9.]+ ms \([0-9.]+ M thread-instr\/s\)//; s/[0-9.]+ M thread-instr\/s//'; fi
}
first=$1
ref=$(WARPSCOPE_CONFIG=$first "$exe" | strip)
shift
for cfg in "$@"; do
    out=$(WARPSCOPE_CONFIG=$cfg "$exe" | strip)
    if [ "$ref" != "$out" ]; then
        echo "$exe prints something else with $cfg than with $first:"
        diff <(echo "$ref") <(echo "$out") || true
        exit 1
    fi
done
echo "$ref"
echo "same output with $first and $*"
