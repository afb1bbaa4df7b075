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
grep -q "^(changed after its last clear or draw by a call that is not one: colour (  0   0 255 255))$" "$work/pixel.out" ||
  { echo "FAIL: the write after the last draw is not said"; fails=$((fails+1)); }
grep -q "^frame end: colour (  0   0 255 255)$" "$work/pixel.out" || { echo "FAIL: the frame end is not the target's"; fails=$((fails+1)); }
echo "$fails failed"
[ "$fails" = 0 ]
