#!/bin/bash
# Pixel history of a frame that ends with ws_gfx_target_write after its
# draws (rd_gfx_program "write"): the frame end is the pixel as the frame
# leaves it, and the history says a call that is not a clear or draw
# changed it. (The frame end was the last draw's result: green, while the
# target ended blue.)
#   target_write.sh WARPSCOPE PROGRAM SHADERS.elf
set -u
ws=$1 prog=$2 elf=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$ws" capture -o "$work/f.wscap" --frames 0 -- "$prog" "$elf" 1 write > "$work/capture.out" 2>&1 || { cat "$work/capture.out"; exit 1; }
"$ws" replay --pixel 8,16 "$work/f.wscap" > "$work/pixel.out" 2>&1; rc=$?
cat "$work/pixel.out"
fails=0
[ "$rc" = 0 ] || { echo "FAIL: replay --pixel exit $rc"; fails=$((fails+1)); }
# the call is named (until 2026-11-29: "by a call that is not one")
grep -Eq "^\(changed after its last clear or draw by call [0-9]+ ws_gfx_target_write\(target [0-9]+, colour, <4096 bytes>\): colour \(  0   0 255 255\)\)$" "$work/pixel.out" ||
  { echo "FAIL: the write after the last draw is not said, or not named"; fails=$((fails+1)); }
grep -q "^frame end: colour (  0   0 255 255)$" "$work/pixel.out" || { echo "FAIL: the frame end is not the target's"; fails=$((fails+1)); }
# Two frames: a line where frame 0 ends (until 2026-11-29 a history of
# several frames ran on without one)
"$ws" capture -o "$work/f2.wscap" --frames 0-1 -- "$prog" "$elf" 2 write > "$work/capture.out" 2>&1 || { cat "$work/capture.out"; exit 1; }
"$ws" replay --pixel 8,16 "$work/f2.wscap" > "$work/pixel2.out" 2>&1 || { echo "FAIL: replay --pixel of two frames"; fails=$((fails+1)); }
cat "$work/pixel2.out"
end0=$("$ws" replay --list "$work/f2.wscap" | awk '/ws_gfx_present/ {print $1; exit}')
grep -q "^---- frame 0 ended at call $end0 ws_gfx_present; frame 1 follows ----$" "$work/pixel2.out" ||
  { echo "FAIL: no line where frame 0 ends (call $end0)"; fails=$((fails+1)); }
[ "$(grep -c '^---- frame' "$work/pixel2.out")" = 1 ] || { echo "FAIL: expected one frame line"; fails=$((fails+1)); }
echo "$fails failed"
[ "$fails" = 0 ]
