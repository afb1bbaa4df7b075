#!/bin/bash
# The profiler's sample buffer and the watcher's event trace sit at the top
# of device memory, out of the program's way: under either tool a program
# gets the buffer addresses it gets without it (same output), and a
# capture replays under them (the replay puts the frame's modules and
# buffers back at their captured addresses). Before, both tools took the
# bottom of memory first: every address moved, and `warpscope profile --
# warpscope replay` failed ("the bytes at 0x01000000 are not free").
#   usage: tools_in_place.sh WARPSCOPE WORKDIR REPLAY_IDS KERNEL.elf
set -euo pipefail
ws=$1 work=$2 prog=$3 elf=$4
mkdir -p "$work"
cd "$work"
"$prog" "$elf" 3 > plain.txt
"$ws" profile -q -- "$prog" "$elf" 3 > profiled.txt 2> /dev/null
"$ws" watch -- "$prog" "$elf" 3 > watched.txt 2> /dev/null
grep -q "buffers at 0x" plain.txt
for f in profiled watched; do
    # the program's own lines, which the tool's output follows
    head -n 4 "$f.txt" | cmp - plain.txt || { echo "FAIL: the program's output differs under $f"; cat plain.txt "$f.txt"; exit 1; }
done
"$ws" capture -o ids.wscap --frames 2 -- "$prog" "$elf" 3 > /dev/null
"$ws" profile -- "$ws" replay --loop 2 ids.wscap > prof_replay.txt 2>&1 || { cat prof_replay.txt; echo "FAIL: profile of a replay"; exit 1; }
grep -q "2 passes of 6 calls: every pass bit-identical" prof_replay.txt
grep -q "10 launches, 3 kernels" prof_replay.txt || { cat prof_replay.txt; echo "FAIL: nothing profiled"; exit 1; }
"$ws" watch --stats -- "$ws" replay ids.wscap > watch_replay.txt 2>&1 || { cat watch_replay.txt; echo "FAIL: watch of a replay"; exit 1; }
grep -q "every pass bit-identical" watch_replay.txt
echo "PASS: the program's addresses unchanged under profile and watch; a capture replays under both"
