#!/bin/bash
# A program whose four host threads use one device at once, captured from
# device open to close: the capture holds every call (4 threads x 25
# rounds x 2 launches), in the order the threads made them, and replays
# three times bit-identically; again in timing mode.
#   usage: host_threads.sh WARPSCOPE WORKDIR TEST_THREADS KERNELS.elf
#   (TEST_THREADS: tests/hardening/test_threads.c, linked with libwarpscope.so)
set -uo pipefail
ws=$1 work=$2 prog=$3 elf=$4
mkdir -p "$work"
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
"$ws" capture -o "$work/t.wscap" --frames all -- "$prog" "$elf" > "$work/capture.out" 2>&1 ||
    bad "capture: $(cat "$work/capture.out")"
grep -q "^[1-9][0-9]* passed, 0 failed$" "$work/capture.out" || bad "the program under the shim: $(cat "$work/capture.out")"
"$ws" replay --list "$work/t.wscap" > "$work/list.txt" || bad "--list"
launches=$(grep -c " ws_launch(" "$work/list.txt")
[ "$launches" = 200 ] || bad "$launches launches recorded, the threads made 200"
[ "$(grep -c " ws_memcpy_dtoh(" "$work/list.txt")" = 100 ] || bad "not every read-back recorded"
"$ws" replay --loop 3 "$work/t.wscap" > "$work/replay.txt" 2>&1
grep -q "every pass bit-identical" "$work/replay.txt" || bad "replay: $(tail -3 "$work/replay.txt")"
"$ws" replay --loop 2 --config mode=timing "$work/t.wscap" > "$work/timing.txt" 2>&1
grep -q "every pass bit-identical" "$work/timing.txt" || bad "replay in timing mode: $(tail -3 "$work/timing.txt")"
echo "$fails failed"
[ "$fails" = 0 ]
