#!/bin/bash
# gdb on a replayed compute frame whose module is loaded inside the frame
# (`warpscope capture --frames all` starts at device open): gdb must hear
# of that module before anything runs, so a breakpoint on the kernel set
# before the first `continue` resolves and stops in it. (It stayed pending
# and the frame ran to its end: the library list named only the modules
# of the initial state.)
#   frames_all.sh WARPSCOPE VECADD_EXAMPLE
set -u
ws=$1 prog=$2
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$prog")" || exit 1
"$ws" capture -o "$work/f.wscap" --frames all -- "$prog" > "$work/capture.out" 2>&1 || { cat "$work/capture.out"; exit 1; }
start_debug_replay "$work/f.wscap"
timeout 150 gdb-multiarch -batch -nx -ex "set pagination off" -ex "set confirm off" -ex "set breakpoint pending on" \
  -ex "target remote 127.0.0.1:$(cat "$work/port")" -ex "break vecadd" -ex continue -ex bt -ex "info sharedlibrary" \
  > "$work/gdb.out" 2>&1
wait "$rpid"; rc=$?; rpid=
cat "$work/gdb.out"
fails=0
grep -Eq "hit Breakpoint 1, vecadd \(" "$work/gdb.out" || { echo "FAIL: the breakpoint on vecadd did not stop"; fails=$((fails+1)); }
grep -Eq "#0 +vecadd \(.*vecadd_kernel.c:[0-9]+" "$work/gdb.out" || { echo "FAIL: no source frame"; fails=$((fails+1)); }
grep -Eq "0x01000000 .* Yes +target:.*vecadd" "$work/gdb.out" || { echo "FAIL: the module's symbols were not read"; fails=$((fails+1)); }
[ "$rc" = 0 ] || { echo "FAIL: replay exit $rc"; cat "$work/replay.out"; fails=$((fails+1)); }
echo "$fails failed"
[ "$fails" = 0 ]
