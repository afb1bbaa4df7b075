#!/bin/bash
# Event watcher overhead (issue 10): each example run plainly (B) and (A)
# with one debug machine armed on an event that never comes and the trace
# off, then with every event traced; whole processes paired by farm-bench
# (quote the median A/B wall); plus bits per event, and events per second
# through the formatter and the decoder.
# On a noisy machine, BENCH_INSTR=1 adds host instructions counted by
# valgrind (lackey; deterministic, minutes per example) for both ratios.
# Usage: bench/events/run.sh [BUILD_DIR] [RUNS]
set -eu
build=$(cd "${1:-build}" && pwd)
runs=${2:-5}
ws=$build/bin/warpscope
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf "%-11s %16s %16s %14s\n" example "armed A/B wall" "traced A/B wall" "bits/event"
for e in vecadd reduction histogram scan matmul mandelbrot bitonic; do
    prog=$build/examples/$e/$e
    armed=$(farm-bench -n "$runs" --vs "$prog" -- env "WARPSCOPE_WATCH=events=wd.dispatch,capacity=64,out=$tmp/a" \
            "WARPSCOPE_WATCH_MACHINES=wd.dispatch data=1000000 do stop" "$prog" 2>&1 | awk '/^A\/B wall/ { print $3 }')
    traced=$(farm-bench -n "$runs" --vs "$prog" -- env "WARPSCOPE_WATCH=events=all,capacity=8388608,out=$tmp/t" \
             "$prog" 2>&1 | awk '/^A\/B wall/ { print $3 }')
    bits=$("$ws" watch --stats -- "$prog" 2>/dev/null | awk '/ bits per event$/ { print $(NF-3) }')
    printf "%-11s %16s %16s %14s\n" "$e" "$armed" "$traced" "$bits"
done

if [ -n "${BENCH_INSTR:-}" ]; then
    instrs() { env "$@" valgrind --tool=lackey --basic-counts=yes "$prog" 2>&1 | awk '/guest instrs:/ { gsub(",", "", $NF); print $NF }'; }
    printf "%-11s %16s %16s   (host instructions, valgrind)\n" example "armed A/B" "traced A/B"
    for e in vecadd reduction histogram scan matmul mandelbrot bitonic; do
        prog=$build/examples/$e/$e
        b=$(instrs X=1)
        a=$(instrs "WARPSCOPE_WATCH=events=wd.dispatch,capacity=64,out=$tmp/a" "WARPSCOPE_WATCH_MACHINES=wd.dispatch data=1000000 do stop")
        t=$(instrs "WARPSCOPE_WATCH=events=all,capacity=8388608,out=$tmp/t")
        awk -v e="$e" -v a="$a" -v b="$b" -v t="$t" 'BEGIN { printf "%-11s %16.4f %16.4f\n", e, a / b, t / b }'
    done
fi

# events per second through the formatter and the decoder (bitonic: ~930,000 events)
"$ws" watch -o "$tmp/bitonic.wsev" -- "$build/examples/bitonic/bitonic" > /dev/null 2>&1
"$build/bench/events/ws_events_formatter_speed" "$tmp/bitonic.wsev" 5
