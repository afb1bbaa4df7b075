#!/bin/bash
# The replayer's restore is what makes a frame that reads its own earlier
# output repeatable: frame 2 of the accumulate program replays identically
# ten times with it, and differs from the captured frame by the second
# pass without it (--no-restore).
#   usage: restore_does_work.sh WARPSCOPE WORKDIR ACCUMULATE KERNEL.elf
set -euo pipefail
ws=$1 work=$2
mkdir -p "$work"
cap=$work/acc.wscap
"$ws" capture -o "$cap" --frames 2 -- "$3" "$4" > /dev/null
"$ws" replay --loop 10 "$cap" > "$work/with.txt"
grep -q "10 passes of 4 calls: every pass bit-identical" "$work/with.txt" || { cat "$work/with.txt"; echo "FAIL: with the restore"; exit 1; }
if "$ws" replay --loop 3 --no-restore "$cap" > "$work/without.txt"; then
    cat "$work/without.txt"; echo "FAIL: without the restore the passes should differ"; exit 1
fi
grep -q "pass 1: .*identical to the captured frame" "$work/without.txt"
grep -q "pass 2: .*DIFFERS from the captured frame" "$work/without.txt"
# the same capture in timing mode: the results must not change
"$ws" replay --loop 2 --config mode=timing "$cap" | grep -q "every pass bit-identical"
echo "PASS: with the restore 10 identical passes; without it pass 2 differs; timing mode identical"
