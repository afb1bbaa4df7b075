#!/bin/bash
# Tracer overhead (issue 9): for each example and the naive matrix multiply
# (bench/trace/naive_kernel.c, 256x256, the issue's reference), the host time of the
# counting pass (bbcount) and of the recording pass (memtrace) against the
# uninstrumented launch, measured in the same process by the tracer itself
# (--host-time, on stderr),
# and the trace file's bytes per record. Usage: bench/trace/run.sh [BUILD_DIR]
set -eu
build=${1:-build}
ws=$(cd "$build" && pwd)/bin/warpscope
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf "%-13s %9s %10s %11s %10s %12s %10s\n" example launch_s bbcount_x memtrace_x records records/s bytes/rec
for e in vecadd reduction histogram scan gather mandelbrot matmul naive_matmul; do
    prog=("$build/examples/$e/$e")
    [ "$e" = naive_matmul ] && prog=("$build/bench/trace/ws_trace_naive_app" "$build/bench/trace/naive_kernel.elf" 256)
    "$ws" trace --tool memtrace --host-time -o "$work/$e.wst" --report "$work/$e.txt" -- "${prog[@]}" > /dev/null 2> "$work/$e.time"
    awk -v e="$e" -v size="$(stat -c %s "$work/$e.wst")" '
        /host time:/ { for (i = 1; i <= NF; i++) { if ($i == "launch" && $(i+2) == "s,") l += $(i+1); if ($i == "counting") c += $(i+2); if ($i == "recording") r += $(i+2) } }
        /^  records:/ { n += $2 + $5 }
        END { if (l > 0) printf "%-13s %9.3f %10.2f %11.2f %10d %12.3g %10.2f\n", e, l, c / l, r / l, n, (r > 0 ? n / r : 0), (n ? size / n : 0); else printf "%-13s %9s (launch too short to time)\n", e, "<1ms" }' "$work/$e.time" "$work/$e.txt"
done
