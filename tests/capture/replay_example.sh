#!/bin/bash
# Capture a program's frames with `warpscope capture` and replay them with
# `warpscope replay --loop N`: every pass must end each captured frame with
# the digest the original frame had (bit-identical results), and the
# replayed call list must not be empty.
#   usage: replay_example.sh WARPSCOPE WORKDIR FRAMES PASSES PROGRAM [ARGS...]
set -euo pipefail
ws=$1 work=$2 frames=$3 passes=$4
shift 4
mkdir -p "$work"
cap=$work/frames.wscap
rm -f "$cap"
"$ws" capture -o "$cap" --frames "$frames" -- "$@" > "$work/program.out"
test -s "$cap" || { echo "FAIL: no capture file written"; exit 1; }
"$ws" replay --list "$cap" > "$work/list.txt"
calls=$(tail -1 "$work/list.txt" | awk '{print $1}')
test "$calls" -gt 0 || { echo "FAIL: the capture holds no calls"; exit 1; }
"$ws" replay --loop "$passes" "$cap" | tee "$work/replay.txt"
grep -q "every pass bit-identical" "$work/replay.txt"
checked=$(grep -c "identical to the captured frame" "$work/replay.txt")
test "$checked" -eq "$passes" || { echo "FAIL: $checked of $passes passes compared with the captured frame"; exit 1; }
echo "PASS: $calls calls, $passes passes identical to the captured frame"
