#!/bin/bash
# A watchpoint conditional on the thread, on a word every lane of a warp
# stores to in one instruction, in the frame debugger: it stops for that
# thread with its own store's values (old: lane 19's 119, new: lane 20's
# 120), for a plain store and for an atomic addition, as in live
# debugging. Each lane's access is an event of its own, and gdb's step of
# the lane over it shows memory as that lane left it (the later lanes'
# stores not yet made). Before 2026-11-27 the step showed the whole
# instruction's result (lane 31's), so gdb saw no change for any lane
# after the first and the condition never stopped: the frame ran to its end.
# The addition's stop is in the kernel's own frame (out[1]): kernel.h's
# atomicAdd_i is nodebug since 2026-11-28 (before, gdb showed its frame, *p).
# Backwards (reverse-continue from the frame end) the same stop, the
# values the other way round: each lane's step back shows its own store
# undone (it went back to before the whole instruction, to the frame start).
#   watch_lanes.sh WARPSCOPE PROGRAM KERNEL.elf
set -u
ws=$1 prog=$2 kelf=$3
. "$(dirname "$0")/lib.sh"
"$ws" capture -o "$work/c.wscap" --frames all -- "$prog" "$kelf" > "$work/capture.out" 2>&1 || { cat "$work/capture.out"; exit 1; }
start_debug_replay "$work/c.wscap"
timeout 150 gdb-multiarch -batch -nx -ex "set pagination off" -ex "set confirm off" -ex "set breakpoint pending on" \
  -ex "target remote 127.0.0.1:$(cat "$work/port")" -ex 'break collide if $thread_x == 0' -ex continue \
  -ex 'watch -l out[0] if $thread_x == 20' -ex 'watch -l out[1] if $thread_x == 7' -ex 'delete 1' \
  -ex continue -ex 'printf "AT %d %d\n", $thread_x, out[0]' \
  -ex continue -ex 'printf "ADD %d %d\n", $thread_x, out[1]' -ex 'delete 3' -ex continue \
  -ex reverse-continue -ex 'printf "BACK %d %d\n", $thread_x, out[0]' -ex reverse-continue \
  > "$work/gdb.out" 2>&1
kill "$rpid" 2>/dev/null; wait "$rpid"; rpid=
cat "$work/gdb.out"
fails=0
grep -Eq 'thread \(20,0,0\) [^"]*" hit Hardware watchpoint 2: -location out\[0\]' "$work/gdb.out" ||
  { echo "FAIL: no stop for thread 20's store"; fails=$((fails+1)); }
grep -Eq '^Old value = 119$' "$work/gdb.out" || { echo "FAIL: old value not lane 19's"; fails=$((fails+1)); }
grep -Eq '^New value = 120$' "$work/gdb.out" || { echo "FAIL: new value not lane 20's"; fails=$((fails+1)); }
grep -Eq '^AT 20 120$' "$work/gdb.out" || { echo "FAIL: out[0] at the stop is not lane 20's"; fails=$((fails+1)); }
grep -Eq 'thread \(7,0,0\) [^"]*" hit Hardware watchpoint 3: -location out\[1\]' "$work/gdb.out" ||
  { echo "FAIL: no stop for thread 7's addition"; fails=$((fails+1)); }
grep -Eq '^Old value = 7$' "$work/gdb.out" && grep -Eq '^New value = 8$' "$work/gdb.out" ||
  { echo "FAIL: the addition's values are not lane 7's"; fails=$((fails+1)); }
grep -Eq '^ADD 7 8$' "$work/gdb.out" || { echo "FAIL: the word at the stop (out[1]) is not lane 7's"; fails=$((fails+1)); }
# backwards from the frame end: the same lane, its store undone (old: its
# own 120, new: lane 19's 119), at the store instruction; then on to the
# frame start (no other lane's condition holds)
grep -Eq '^Old value = 120$' "$work/gdb.out" && grep -Eq '^New value = 119$' "$work/gdb.out" ||
  { echo "FAIL: reverse-continue did not stop for thread 20's store"; fails=$((fails+1)); }
grep -Eq '^BACK 20 119$' "$work/gdb.out" || { echo "FAIL: out[0] back at thread 20's store is not lane 19's"; fails=$((fails+1)); }
[ "$(grep -c 'No more reverse-execution history' "$work/gdb.out")" = 2 ] ||
  { echo "FAIL: expected the frame end, then the frame start"; fails=$((fails+1)); }
# A float atomicAdd (amofadd.s) on one word by every lane: the stop for
# lane 7 shows its own add (3.5 -> 4), the float sum the debugger
# predicts for each lane, as for the integer addition above.
start_debug_replay "$work/c.wscap"
timeout 150 gdb-multiarch -batch -nx -ex "set pagination off" -ex "set confirm off" -ex "set breakpoint pending on" \
  -ex "target remote 127.0.0.1:$(cat "$work/port")" -ex 'break collide if $thread_x == 0' -ex continue \
  -ex 'watch -l *(float *)&out[34] if $thread_x == 7' -ex 'delete 1' \
  -ex continue -ex 'printf "FADD %d %g\n", $thread_x, *(float *)&out[34]' \
  > "$work/gdb2.out" 2>&1
kill "$rpid" 2>/dev/null; wait "$rpid"; rpid=
cat "$work/gdb2.out"
grep -Eq 'thread \(7,0,0\) [^"]*" hit Hardware watchpoint 2: -location \*\(float \*\)&out\[34\]' "$work/gdb2.out" ||
  { echo "FAIL: no stop for thread 7's float addition"; fails=$((fails+1)); }
grep -Eq '^Old value = 3.5$' "$work/gdb2.out" && grep -Eq '^New value = 4$' "$work/gdb2.out" ||
  { echo "FAIL: the float addition's values are not lane 7's"; fails=$((fails+1)); }
grep -Eq '^FADD 7 4$' "$work/gdb2.out" || { echo "FAIL: the float at the stop is not lane 7's"; fails=$((fails+1)); }
echo "$fails failed"
[ "$fails" = 0 ]
