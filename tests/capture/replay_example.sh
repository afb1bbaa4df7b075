#!/bin/bash
# Capture a program's frames with `warpscope capture`, decode every section
# (capture_decode: frames pair up, the module load comes first, a present
# or a launch is recorded), and replay them with `warpscope replay --loop
# N`: every pass must end each captured frame with the digest the original
# frame had (bit-identical results).
#   usage: replay_example.sh WARPSCOPE CAPTURE_DECODE WORKDIR FRAMES PASSES PROGRAM [ARGS...]
set -euo pipefail
ws=$1 decode=$2 work=$3 frames=$4 passes=$5
shift 5
mkdir -p "$work"
cap=$work/frames.wscap
rm -f "$cap"
"$ws" capture -o "$cap" --frames "$frames" -- "$@" > "$work/program.out"
test -s "$cap" || { echo "FAIL: no capture file written"; exit 1; }
"$decode" "$cap" > "$work/decoded.txt" || { cat "$work/decoded.txt"; echo "FAIL: the capture does not decode"; exit 1; }
count() { grep -c "$1" "$work/decoded.txt" || true; }
[ "$(count '^frame_begin ')" = "$(count '^frame_end ')" ] || { echo "FAIL: frames do not pair up"; exit 1; }
if [ "$frames" = all ]; then
    grep -q '^call 0 ws_module_load ' "$work/decoded.txt" || { echo "FAIL: the module load is not the first call"; exit 1; }
fi
grep -qE ' ws_gfx_present | ws_launch ' "$work/decoded.txt" || { echo "FAIL: no launch or present recorded"; exit 1; }
"$ws" replay --list "$cap" > "$work/list.txt"
calls=$(tail -1 "$work/list.txt" | awk '{print $1}')
test "$calls" -gt 0 || { echo "FAIL: the capture holds no calls"; exit 1; }
"$ws" replay --loop "$passes" "$cap" | tee "$work/replay.txt"
grep -q "every pass bit-identical" "$work/replay.txt"
checked=$(grep -c "identical to the captured frame" "$work/replay.txt")
test "$checked" -eq "$passes" || { echo "FAIL: $checked of $passes passes compared with the captured frame"; exit 1; }
echo "PASS: $calls calls, $passes passes identical to the captured frame"
