#!/bin/bash
# `warpscope debug --record`: the matmul example runs to its end recorded,
# then gdb debugs its replay forwards and backwards in one command: three
# hits of a conditional breakpoint in the tile loop (t = 0, 16, 32), then
# reverse-continue twice back through them (16, 0), and next/reverse-next
# between two lines. The recording is removed afterwards, the program's
# exit status comes back, and options the replay cannot serve are refused.
#   debug_record.sh WARPSCOPE MATMUL_EXAMPLE
set -u
ws=$1 prog=$2
. "$(dirname "$0")/lib.sh"
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
mkdir "$work/tmp"
cd "$(dirname "$prog")" || exit 1
TMPDIR="$work/tmp" timeout 170 "$ws" debug --record --port-file "$work/port" -- "$prog" > "$work/debug.out" 2>&1 &
rpid=$!
for _ in $(seq 600); do [ -s "$work/port" ] && break; kill -0 "$rpid" 2>/dev/null || break; sleep 0.1; done
[ -s "$work/port" ] || { echo "FAIL: debug --record never listened"; cat "$work/debug.out"; exit 1; }
timeout 150 gdb-multiarch -batch -nx -ex "set pagination off" -ex "set confirm off" -ex "set breakpoint pending on" \
  -ex "target remote 127.0.0.1:$(cat "$work/port")" \
  -ex 'break matmul_kernel.c:21 if $block_x == 1 && $thread_x == 3 && $thread_y == 0' \
  -ex continue -ex 'printf "T=%d\n", t' -ex continue -ex 'printf "T=%d\n", t' -ex continue -ex 'printf "T=%d\n", t' \
  -ex reverse-continue -ex 'printf "T=%d\n", t' -ex reverse-continue -ex 'printf "T=%d\n", t' \
  -ex delete -ex next -ex 'printf "L=%d\n", $_line' -ex reverse-next -ex 'info line *$pc' -ex kill \
  > "$work/gdb.out" 2>&1
wait "$rpid"; rc=$?; rpid=
seq=$(sed -n 's/^T=//p' "$work/gdb.out" | tr '\n' ' ')
[ "$seq" = "0 16 32 16 0 " ] || bad "t at the hits, forwards then backwards: '$seq' (want 0 16 32 16 0)"
grep -q 'hit Breakpoint 1, matmul_tiled (' "$work/gdb.out" || bad "no breakpoint hit in matmul_tiled"
grep -q '^22[[:space:]]' "$work/gdb.out" || bad "next did not reach line 22"
grep -q '^Line 21 of ".*matmul_kernel.c"' "$work/gdb.out" || bad "reverse-next did not come back to line 21"
grep -q 'ran to its end (status 0) and was recorded' "$work/debug.out" || bad "no word that the program was recorded"
grep -q '^matmul  *PASS' "$work/debug.out" || bad "the recorded run's own output is missing"
[ "$rc" = 0 ] || bad "debug --record exited $rc"
[ -z "$(ls -A "$work/tmp")" ] || bad "the recording was left behind: $(ls -A "$work/tmp")"
# stopped while it serves gdb (Ctrl-C, SIGTERM): the recording goes too
mkdir "$work/tmp2"
TMPDIR="$work/tmp2" "$ws" debug --record --port-file "$work/port2" -- "$prog" > "$work/term.out" 2>&1 &
tpid=$!
for _ in $(seq 600); do [ -s "$work/port2" ] && break; kill -0 "$tpid" 2>/dev/null || break; sleep 0.1; done
[ -s "$work/port2" ] && [ -n "$(ls -A "$work/tmp2")" ] || bad "no recording while serving: $(cat "$work/term.out")"
kill -TERM "$tpid"; wait "$tpid"; r=$?
[ "$r" = 143 ] && [ -z "$(ls -A "$work/tmp2")" ] || bad "SIGTERM while serving: status $r, left $(ls -A "$work/tmp2")"
# what the replay's server cannot do is refused before anything runs
for opt in --jtag "--socket $work/s" --stop-at-launch "--threads warp"; do
  # shellcheck disable=SC2086
  "$ws" debug --record $opt -- "$prog" > "$work/r.out" 2>&1; r=$?
  [ "$r" = 2 ] && grep -q "^warpscope debug: --record serves gdb on a TCP port with lane threads: not with ${opt%% *}" "$work/r.out" ||
    bad "--record with $opt: status $r: $(cat "$work/r.out")"
done
"$ws" debug --record= -- "$prog" > "$work/r.out" 2>&1; r=$?
[ "$r" = 2 ] && grep -q "needs frames" "$work/r.out" || bad "--record= accepted (status $r)"
# a program that opens no device leaves nothing to debug, and says so
TMPDIR="$work/tmp" "$ws" debug --record -- /bin/true > "$work/t.out" 2>&1; r=$?
[ "$r" != 0 ] && grep -q "nothing to debug: /bin/true left no recording" "$work/t.out" || bad "/bin/true: status $r: $(cat "$work/t.out")"
[ -z "$(ls -A "$work/tmp")" ] || bad "a failed recording left $(ls -A "$work/tmp")"
[ "$fails" = 0 ] || { cat "$work/gdb.out" "$work/debug.out"; }
echo "$fails failed"
[ "$fails" = 0 ]
