#!/bin/bash
# A launch stepped in gdb issues what it issues without a debugger.
#   stats_same.sh WARPSCOPE STATS_KERNELS.elf SRCDIR MODE MARK [next|step]
# Runs `warpscope run` of next_stats (2 blocks of 64 threads, device mode
# MODE: functional or timing) without a debugger, then under `warpscope
# debug` with gdb stopping at the line "MARK:<MARK>" of stats_kernels.c
# for thread 40 of block 1 (the block's second warp), then `next` (or
# `step`, into the call) and `continue`. The results, thread- and
# warp-instructions and SIMT efficiency must be those of the undebugged
# run; in timing mode the cycles within a cycle or two per stop (gdb's
# few stops here: docs/debugging.md). Until 2026-11-29 a `next` over a
# call in timing mode made the other warp's lanes reach gdb's
# step-resume breakpoint one by one, each stepped over it alone (706
# warp-instructions instead of 674 over the call that branches, 737 over
# the one with atomics), and the clock ran on while gdb held every warp
# (746 cycles more).
set -u
cli=$1 kelf=$2 srcdir=$3 mode=$4 mark=$5 cmd=${6:-next}
work=$(mktemp -d)
apid=
cleanup() { [ -n "$apid" ] && kill "$apid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
line=$(grep -n "MARK:$mark\b" "$srcdir/stats_kernels.c" | cut -d: -f1)
[ -n "$line" ] || { echo "FAIL: no MARK:$mark in stats_kernels.c"; exit 1; }
run=(run --config "mode=$mode" --grid 2 --block 64 "$kelf" next_stats iota:128 zeros:128 3)
# what a run says, less its host time and (timing mode) its cycles
same_part() { sed -E -e 's/, [0-9.]+ ms$//' -e 's/, [0-9]+ cycles//' "$1"; }

timeout 60 "$cli" "${run[@]}" > "$work/plain.out" 2>&1 || fail "the undebugged run failed"
timeout 90 "$cli" debug --port-file "$work/port" -- "$cli" "${run[@]}" > "$work/app.out" 2>&1 &
apid=$!
for _ in $(seq 300); do [ -s "$work/port" ] && break; kill -0 "$apid" 2>/dev/null || break; sleep 0.1; done
[ -s "$work/port" ] || { echo "FAIL: the program never listened"; cat "$work/app.out"; exit 1; }
timeout 60 gdb-multiarch -batch -nx -ex "set pagination off" -ex "set confirm off" \
  -ex "target remote 127.0.0.1:$(head -1 "$work/port")" -ex "set breakpoint pending on" \
  -ex "break stats_kernels.c:$line if \$thread_x == 40 && \$block_x == 1" -ex continue -ex delete -ex "$cmd" \
  -ex continue > "$work/gdb.out" 2>&1
wait "$apid"; rc=$?; apid=
echo "---- without a debugger ----"; cat "$work/plain.out"
echo "---- gdb ----"; grep -v '^\[New Thread' "$work/gdb.out"
echo "---- under gdb (exit $rc) ----"; cat "$work/app.out"
[ "$rc" = 0 ] || fail "the debugged run exited $rc"
grep -q "hit Breakpoint 1, next_stats .* at .*stats_kernels.c:$line" "$work/gdb.out" || fail "gdb did not stop at line $line"
if [ "$cmd" = next ]; then
  grep -qE "^$((line + 1))[[:space:]]" "$work/gdb.out" || fail "the next did not end on line $((line + 1))"
else
  grep -qE "^(shape|gather) \(" "$work/gdb.out" || fail "the step did not stop in the called function"
fi
grep -q "exited normally" "$work/gdb.out" || fail "the program did not run to its end under gdb"
grep -v '^listening on' "$work/app.out" > "$work/debugged.out"
if ! diff <(same_part "$work/plain.out") <(same_part "$work/debugged.out"); then
  fail "results or statistics differ from the undebugged run's (above: < without, > under gdb)"
fi
cycles() { sed -nE 's/.* ([0-9]+) cycles.*/\1/p' "$1"; }
if [ "$mode" = timing ]; then
  c0=$(cycles "$work/plain.out") c1=$(cycles "$work/debugged.out")
  { [ -n "$c0" ] && [ -n "$c1" ] && [ "$c1" -ge "$c0" ] && [ "$c1" -le $((c0 + 16)) ]; } ||
    fail "$c1 cycles under gdb, $c0 without: more than a few cycles apart"
fi
echo "$fails failed"
[ "$fails" = 0 ]
