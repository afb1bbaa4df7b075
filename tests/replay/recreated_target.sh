#!/bin/bash
# Pixel history of a target made inside a captured range of frames after
# another target was destroyed: only the calls that drew into it are
# listed. (Events were kept by target handle, and the host allocator gave
# the new target the destroyed one's handle address back, so frame 0's
# clear and draws into the old target were listed as the new one's.)
#   recreated_target.sh WARPSCOPE PROGRAM SHADERS.elf
set -u
ws=$1 prog=$2 elf=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$ws" capture -o "$work/f.wscap" --frames 0-1 -- "$prog" "$elf" 2 > "$work/capture.out" 2>&1 || { cat "$work/capture.out"; exit 1; }
"$ws" replay --list "$work/f.wscap" > "$work/list.out" 2>&1 || { cat "$work/list.out"; exit 1; }
"$ws" replay --pixel 8,16 "$work/f.wscap" > "$work/pixel.out" 2>&1 || { cat "$work/pixel.out"; exit 1; }
cat "$work/list.out" "$work/pixel.out"
fails=0
made=$(grep -E "ws_gfx_target_create" "$work/list.out" | tail -1 | awk '{print $1}')
[ -n "$made" ] || { echo "FAIL: no target made inside the frames"; exit 1; }
grep -Eq "^pixel \(8,16\) of render target [0-9]+ \(32x32\): 3 events in 3 calls$" "$work/pixel.out" ||
  { echo "FAIL: expected the clear and the two draws into the second target only"; fails=$((fails+1)); }
while read -r _ n _; do
  [ "$n" -gt "$made" ] || { echo "FAIL: call $n ran before the target was made (call $made)"; fails=$((fails+1)); }
done < <(grep -E "^call [0-9]+ " "$work/pixel.out")
grep -Eq "frame end: colour \(  0 255   0 255\)" "$work/pixel.out" || { echo "FAIL: the pixel does not end green"; fails=$((fails+1)); }
# The same program from device open (--frames all): the frame ends with
# the second target destroyed. History and report still describe it, as
# its last draw left it. (Its freed handle was read: "outside the 32x0
# render target", and the report could not read "the final render target".)
"$ws" capture -o "$work/all.wscap" --frames all -- "$prog" "$elf" 2 > "$work/capture.out" 2>&1 || { cat "$work/capture.out"; exit 1; }
# (the set-up is a sync frame numbered apart: this said "frames 0-1 (3 frames)")
grep -q "^captured the set-up (1 frame before the first ws_gfx_begin_frame) and frames 0-1 (3 frames): " "$work/capture.out" ||
  { cat "$work/capture.out"; echo "FAIL: the capture's report"; fails=$((fails+1)); }
"$ws" replay --pixel 8,16 "$work/all.wscap" > "$work/pixel_all.out" 2>&1; rc=$?
cat "$work/pixel_all.out"
[ "$rc" = 0 ] && grep -Eq "^pixel \(8,16\) of render target [0-9]+ \(32x32\): 3 events in 3 calls$" "$work/pixel_all.out" &&
  grep -Eq "frame end: colour \(  0 255   0 255\)" "$work/pixel_all.out" ||
  { echo "FAIL: history of a target the frame destroyed"; fails=$((fails+1)); }
"$ws" replay --html "$work/report" --pixel 8,16 "$work/all.wscap" > "$work/html.out" 2>&1 && [ -s "$work/report/index.html" ] ||
  { cat "$work/html.out"; echo "FAIL: report of a frame that destroys its target"; fails=$((fails+1)); }
echo "$fails failed"
[ "$fails" = 0 ]
