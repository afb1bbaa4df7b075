#!/bin/bash
# `warpscope debug --record` of a program whose kernel prints: the line
# comes once, from the recorded run. Every stop, forwards or backwards,
# replays the frame, and until 2026-11-29 each replay printed it again.
#   debug_record_printf.sh WARPSCOPE RD_PRINTF KERNEL.elf
set -u
ws=$1 prog=$2 kelf=$3
. "$(dirname "$0")/lib.sh"
line=$(grep -n 'MARK:greet_store' "$(dirname "$0")/rd_printf_kernel.c" | cut -d: -f1)
timeout 170 "$ws" debug --record --port-file "$work/port" -- "$prog" "$kelf" > "$work/debug.out" 2>&1 &
rpid=$!
for _ in $(seq 600); do [ -s "$work/port" ] && break; kill -0 "$rpid" 2>/dev/null || break; sleep 0.1; done
[ -s "$work/port" ] || { echo "FAIL: debug --record never listened"; cat "$work/debug.out"; exit 1; }
timeout 150 gdb-multiarch -batch -nx -ex "set pagination off" -ex "set breakpoint pending on" \
  -ex "target remote 127.0.0.1:$(cat "$work/port")" \
  -ex "break rd_printf_kernel.c:$line if \$block_x == 1 && \$thread_x == 2" \
  -ex continue -ex 'printf "I=%d\n", i' -ex next -ex reverse-next -ex 'printf "I=%d\n", i' \
  -ex 'info line *$pc' -ex kill > "$work/gdb.out" 2>&1
wait "$rpid"; rc=$?; rpid=
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
[ "$(grep -c '^I=34$' "$work/gdb.out")" = 2 ] || bad "the breakpoint's thread: want i = 34 twice"
grep -q "^Line $line of \".*rd_printf_kernel.c\"" "$work/gdb.out" || bad "reverse-next did not come back to line $line"
n=$(grep -c 'greetings from the device' "$work/debug.out")
[ "$n" = 1 ] || bad "the kernel's line printed $n times, want once (by the recorded run)"
grep -q '^rd_printf ok' "$work/debug.out" || bad "the recorded run's own output is missing"
[ "$rc" = 0 ] || bad "debug --record exited $rc"
[ "$fails" = 0 ] || cat "$work/gdb.out" "$work/debug.out"
echo "$fails failed"
[ "$fails" = 0 ]
