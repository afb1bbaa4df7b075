#!/bin/bash
# The capture shim's cost (issue 12: <= 10 % of frame time when not
# capturing) and the capture's size, on the demo cube (examples/cube):
#   1. instructions per frame (valgrind --tool=none counts nothing, so
#      lackey is too slow; we use callgrind's total Ir with no cache model)
#      of `cube N` with and without the shim preloaded, not capturing:
#      per-frame = (Ir(N2) - Ir(N1)) / (N2 - N1), so set-up cost cancels;
#   2. the same as wall time (median of RUNS runs; noisy on shared hosts);
#   3. the capture file's size for one frame and for every frame, and the
#      wall time of a run that captures one frame.
# Usage: bench/capture/run.sh BUILD_DIR [RUNS]     (RUNS defaults to 5)
set -euo pipefail
build=$(cd "${1:?usage: run.sh BUILD_DIR [RUNS]}" && pwd)
runs=${2:-5}
cube=$build/examples/cube/cube
shim=$build/libwarpscope_capture.so
ws=$build/bin/warpscope
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
n1=2 n2=10

# Instructions of one run (callgrind's total Ir), $1 = frames, rest = env;
# the profile stays in cg.$frames.out.
ir() {
    local frames=$1; shift
    env "$@" valgrind --tool=callgrind --callgrind-out-file="$work/cg.$frames.out" "$cube" "$frames" > /dev/null 2> "$work/vg.txt"
    sed -n 's/^summary: //p' "$work/cg.$frames.out"
}
# Instructions spent in the shim's own functions (self cost).
shim_ir() {
    callgrind_annotate --threshold=100 "$work/cg.$1.out" 2>/dev/null |
        awk '/libwarpscope_capture/ { gsub(",", "", $1); s += $1 } END { print s + 0 }'
}
# Median wall seconds of RUNS runs.
wall() {
    local frames=$1; shift
    for _ in $(seq "$runs"); do
        local t0 t1
        t0=$(date +%s.%N); env "$@" "$cube" "$frames" > /dev/null; t1=$(date +%s.%N)
        echo "$t1 - $t0" | bc -l
    done | sort -n | awk '{ a[NR] = $1 } END { printf "%.4f", a[int((NR + 1) / 2)] }'
}

base1=$(ir $n1 X=1) base2=$(ir $n2 X=1)
shim1=$(ir $n1 LD_PRELOAD="$shim") shim2=$(ir $n2 LD_PRELOAD="$shim")
own1=$(shim_ir $n1) own2=$(shim_ir $n2)
awk -v b1="$base1" -v b2="$base2" -v s1="$shim1" -v s2="$shim2" -v n="$((n2 - n1))" 'BEGIN {
    b = (b2 - b1) / n; s = (s2 - s1) / n;
    printf "instructions per frame: without shim %.0f, with shim (not capturing) %.0f, difference %.3f %%" \
           " (the device runs threads: counts vary a little from run to run)\n", b, s, (s - b) / b * 100 }'
awk -v o1="$own1" -v o2="$own2" -v b1="$base1" -v b2="$base2" -v n="$((n2 - n1))" 'BEGIN {
    o = (o2 - o1) / n; b = (b2 - b1) / n;
    printf "the shim'"'"'s own code: %.0f instructions per frame (%.5f %% of the frame)\n", o, o / b * 100 }'

wb1=$(wall $n1 X=1) wb2=$(wall $n2 X=1) ws1=$(wall $n1 LD_PRELOAD="$shim") ws2=$(wall $n2 LD_PRELOAD="$shim")
awk -v b1="$wb1" -v b2="$wb2" -v s1="$ws1" -v s2="$ws2" -v n="$((n2 - n1))" 'BEGIN {
    b = (b2 - b1) / n; s = (s2 - s1) / n;
    printf "wall ms per frame (median of runs): without shim %.2f, with shim %.2f, overhead %.1f %%\n", b * 1e3, s * 1e3, (s - b) / b * 100 }'

"$ws" capture -o one.wscap --frames 3 -- "$cube" $n2 > /dev/null
"$ws" capture -o range.wscap --frames 3-$((n2 - 1)) -- "$cube" $n2 > /dev/null
one=$(stat -c %s one.wscap) range=$(stat -c %s range.wscap)
echo "capture file: frame 3 with its initial state $one bytes; frames 3-$((n2 - 1)) $range bytes," \
     "$(( (range - one) / (n2 - 4) )) bytes per further frame"
wc1=$(for _ in $(seq "$runs"); do t0=$(date +%s.%N); "$ws" capture -o c.wscap --frames 3 -- "$cube" $n2 > /dev/null; t1=$(date +%s.%N); echo "$t1 - $t0" | bc -l; done |
      sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
awk -v c="$wc1" -v s2="$ws2" 'BEGIN { printf "capturing one frame adds %.1f ms of wall time to the run (median; noisy)\n", (c - s2) * 1e3 }'
