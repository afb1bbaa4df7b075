#!/bin/bash
# stepi onto a store every lane of a warp makes to a watched word, in the
# frame debugger, against the live debugger's order (docs/debugging.md
# section 5, gdb.e2e.watch_step_lanes): thread 5 steps onto the store, and
# its next stepi stops for the first lane whose store touches the word
# (thread 0: old 0, new 100), the next one for thread 1 (100, 101), then
# thread 2, in lane order, each with its own store's values. Before
# 2026-11-27 the stepped thread came first (thread 5: old 0, new 105, the
# stores of lanes 0-4 made silently) and lanes 6-31 never stopped.
#   watch_step_lanes.sh WARPSCOPE PROGRAM KERNEL.elf
set -u
ws=$1 prog=$2 kelf=$3
. "$(dirname "$0")/lib.sh"
"$ws" capture -o "$work/c.wscap" --frames all -- "$prog" "$kelf" > "$work/capture.out" 2>&1 || { cat "$work/capture.out"; exit 1; }
start_debug_replay "$work/c.wscap"
timeout 150 gdb-multiarch -batch -nx -ex "set pagination off" -ex "set confirm off" -ex "set breakpoint pending on" \
  -ex "target remote 127.0.0.1:$(cat "$work/port")" -ex 'break rd_collide_kernel.c:9 if $thread_x == 5' -ex continue \
  -ex 'watch -l out[0]' -ex 'delete 1' \
  -ex 'python exec("for _ in range(8):\n    ins = gdb.selected_frame().architecture().disassemble(gdb.selected_frame().pc())[0]\n    if ins[\"asm\"].split()[0] in (\"sw\", \"c.sw\"):\n        break\n    gdb.execute(\"stepi\")")' \
  -ex 'printf "ONTO %d\n", $thread_x' \
  -ex stepi -ex 'printf "FIRST %d %d\n", $thread_x, out[0]' \
  -ex stepi -ex 'printf "SECOND %d %d\n", $thread_x, out[0]' \
  -ex stepi -ex 'printf "THIRD %d %d\n", $thread_x, out[0]' \
  -ex 'delete' -ex continue \
  > "$work/gdb.out" 2>&1
kill "$rpid" 2>/dev/null; wait "$rpid"; rpid=
cat "$work/gdb.out"
fails=0
want() { grep -Eq -- "$1" "$work/gdb.out" || { echo "FAIL: $2"; fails=$((fails+1)); }; }
want '^ONTO 5$' "thread 5 did not step onto the store"
want 'thread \(0,0,0\) [^"]*" hit Hardware watchpoint 2: -location out\[0\]' "no stop for thread 0's store first"
want '^FIRST 0 100$' "the first stop is not thread 0's, with its store made"
want 'thread \(1,0,0\) [^"]*" hit Hardware watchpoint 2: -location out\[0\]' "no stop for thread 1's store"
want '^SECOND 1 101$' "the second stop is not thread 1's"
want '^THIRD 2 102$' "the third stop is not thread 2's"
grep -E -A1 '^Old value = 0$' "$work/gdb.out" | grep -Eq '^New value = 100$' || { echo "FAIL: first values"; fails=$((fails+1)); }
grep -E -A1 '^Old value = 101$' "$work/gdb.out" | grep -Eq '^New value = 102$' || { echo "FAIL: third values"; fails=$((fails+1)); }
want 'No more reverse-execution history' "the frame did not run to its end"
echo "$fails failed"
[ "$fails" = 0 ]
