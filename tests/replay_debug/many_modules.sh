#!/bin/bash
# gdb on a replayed frame that loads 300 modules (`--frames all` starts at
# device open, so every load is inside the frame): the library list gdb
# reads names all 300, and a breakpoint in the last one stops. (The list
# stopped at 256: the debugger read the modules into a fixed array.)
#   many_modules.sh WARPSCOPE MANY_MODULES RD_KERNELS.elf
set -u
ws=$1 prog=$2 elf=$3
. "$(dirname "$0")/lib.sh"
"$ws" capture -o "$work/m.wscap" --frames all -- "$prog" "$elf" 300 > "$work/capture.out" 2>&1 ||
  { cat "$work/capture.out"; exit 1; }
start_debug_replay "$work/m.wscap"
timeout 150 gdb-multiarch -batch -nx -ex "set pagination off" -ex "set confirm off" \
  -ex "target remote 127.0.0.1:$(cat "$work/port")" -ex "info sharedlibrary" -ex "kill" > "$work/gdb.out" 2>&1
wait "$rpid"; rpid=
fails=0
libs=$(grep -Ec "^0x[0-9a-f]+ +0x[0-9a-f]+ +(Yes|No).*rd_kernels" "$work/gdb.out")
[ "$libs" = 300 ] || { echo "FAIL: gdb lists $libs modules, not 300"; fails=$((fails+1)); }
echo "gdb lists $libs modules"
echo "$fails failed"
[ "$fails" = 0 ]
