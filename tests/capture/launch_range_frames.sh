#!/bin/bash
# `--frames launches=A-B` on a drawing program, where ranges start and end
# inside graphics frames (tests/replay_debug/rd_gfx_program.c, two frames;
# launches 0 and 2 come before a begin_frame, 1 and 3 inside a frame).
# Every range must replay bit-identically in every pass. (A range that
# started inside a frame held that frame's present but not its
# begin_frame: pass 1 failed with "ws_gfx_present: no frame is open".)
#   launch_range_frames.sh WARPSCOPE PROGRAM SHADERS.elf
set -u
ws=$1 prog=$2 elf=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
for range in 1-2 0-1 1-3 0-0 1-1; do
  f="$work/l$range.wscap"
  "$ws" capture -o "$f" --frames launches=$range -- "$prog" "$elf" 2 > "$work/capture.out" 2>&1 ||
    { cat "$work/capture.out"; echo "FAIL: capture of launches $range"; fails=$((fails+1)); continue; }
  # the report names the whole range (it said "the launches from launch A")
  a=${range%-*} b=${range#*-}
  if [ "$a" = "$b" ]; then want="captured launch $a: "; else want="captured launches $a-$b ($((b - a + 1)) launches): "; fi
  grep -qF "$want" "$work/capture.out" ||
    { cat "$work/capture.out"; echo "FAIL: the report of launches $range does not say '$want'"; fails=$((fails+1)); }
  if "$ws" replay --loop 3 "$f" > "$work/replay.out" 2>&1 && grep -q "3 passes of .* every pass bit-identical" "$work/replay.out"; then
    echo "launches $range: $(tail -1 "$work/replay.out")"
  else
    cat "$work/replay.out"; echo "FAIL: launches $range does not replay"; fails=$((fails+1))
  fi
done
echo "$fails failed"
[ "$fails" = 0 ]
