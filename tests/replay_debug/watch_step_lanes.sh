#!/bin/bash
# A thread steps onto a store every lane of its warp makes to a watched
# word (the frame debugger's snapshot is before that whole
# warp-instruction), then, by MODE:
#   stepi     its next stepi stops for the first lane whose store touches
#             the word (thread 0: old 0, new 100), the next one for thread
#             1 (100, 101), then thread 2: in lane order, each with its
#             own values, as live (gdb.e2e.watch_step_lanes). Before
#             2026-11-27 the stepped thread came first (thread 5: old 0,
#             new 105, lanes 0-4's stores made silently) and lanes 6-31
#             never stopped.
#   continue  the same with continue (gdb.e2e.watch_continue_lanes): before
#             2026-11-27 it counted from the thread's own lane on, so it
#             stopped for thread 5 and threads 0-4 never stopped.
#   reverse   reverse-continue: no write to the word has happened yet (the
#             frame start). Before 2026-11-27 it stopped at thread 4's
#             store of that very instruction, not yet made there.
#   watch_step_lanes.sh WARPSCOPE PROGRAM KERNEL.elf [MODE]
set -u
ws=$1 prog=$2 kelf=$3 mode=${4:-stepi}
. "$(dirname "$0")/lib.sh"
"$ws" capture -o "$work/c.wscap" --frames all -- "$prog" "$kelf" > "$work/capture.out" 2>&1 || { cat "$work/capture.out"; exit 1; }
start_debug_replay "$work/c.wscap"
case "$mode" in
  stepi) go=stepi ;;
  continue) go=continue ;;
  reverse) go=reverse-continue ;;
  *) echo "FAIL: unknown mode $mode"; exit 1 ;;
esac
more=()
[ "$mode" = reverse ] && more=(-ex 'monitor position')
[ "$mode" = reverse ] || more=(-ex 'printf "FIRST %d %d\n", $thread_x, out[0]' \
  -ex "$go" -ex 'printf "SECOND %d %d\n", $thread_x, out[0]' \
  -ex "$go" -ex 'printf "THIRD %d %d\n", $thread_x, out[0]' -ex 'delete' -ex continue)
timeout 150 gdb-multiarch -batch -nx -ex "set pagination off" -ex "set confirm off" -ex "set breakpoint pending on" \
  -ex "target remote 127.0.0.1:$(cat "$work/port")" -ex 'break rd_collide_kernel.c:9 if $thread_x == 5' -ex continue \
  -ex 'watch -l out[0]' -ex 'delete 1' \
  -ex 'python exec("for _ in range(8):\n    ins = gdb.selected_frame().architecture().disassemble(gdb.selected_frame().pc())[0]\n    if ins[\"asm\"].split()[0] in (\"sw\", \"c.sw\"):\n        break\n    gdb.execute(\"stepi\")")' \
  -ex 'printf "ONTO %d %d\n", $thread_x, out[0]' -ex "$go" "${more[@]}" \
  > "$work/gdb.out" 2>&1
kill "$rpid" 2>/dev/null; wait "$rpid"; rpid=
cat "$work/gdb.out"
fails=0
want() { grep -Eq -- "$1" "$work/gdb.out" || { echo "FAIL: $2"; fails=$((fails+1)); }; }
want '^ONTO 5 0$' "thread 5 did not step onto the store"
if [ "$mode" = reverse ]; then
  grep -q 'hit Hardware watchpoint' "$work/gdb.out" && { echo "FAIL: a store reported that has not happened"; fails=$((fails+1)); }
  want 'No more reverse-execution history' "reverse-continue did not reach the frame start"
  want 'at the frame start' "monitor position is not at the frame start"
else
  want 'thread \(0,0,0\) [^"]*" hit Hardware watchpoint 2: -location out\[0\]' "no stop for thread 0's store first"
  want '^FIRST 0 100$' "the first stop is not thread 0's, with its store made"
  want 'thread \(1,0,0\) [^"]*" hit Hardware watchpoint 2: -location out\[0\]' "no stop for thread 1's store"
  want '^SECOND 1 101$' "the second stop is not thread 1's"
  want '^THIRD 2 102$' "the third stop is not thread 2's"
  grep -E -A1 '^Old value = 0$' "$work/gdb.out" | grep -Eq '^New value = 100$' || { echo "FAIL: first values"; fails=$((fails+1)); }
  grep -E -A1 '^Old value = 101$' "$work/gdb.out" | grep -Eq '^New value = 102$' || { echo "FAIL: third values"; fails=$((fails+1)); }
  want 'No more reverse-execution history' "the frame did not run to its end"
fi
echo "$fails failed"
[ "$fails" = 0 ]
