#!/bin/bash
# A frame whose draw faults: the program's ws_gfx_present reports the
# fault, the frame has ended all the same, and the program goes on. The
# capture holds that present and the failure it reported, so the replay
# meets the fault there and goes on to the next frame, as the program did
# (the present was left out as a failed call once: the shim then thought
# the frame still open, and the replay stopped at the next frame's
# begin_frame with "frame 0 is still open"; until 2026-11-27 the replay
# stopped at the fault).
#   fault_frame.sh WARPSCOPE PROGRAM SHADERS.elf
set -u
ws=$1 prog=$2 elf=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$ws" capture -o "$work/f.wscap" --frames 0-1 -- "$prog" "$elf" 2 fault > "$work/capture.out" 2>&1 || { cat "$work/capture.out"; exit 1; }
cat "$work/capture.out"
"$ws" replay --list "$work/f.wscap" > "$work/list.out" 2>&1 || { cat "$work/list.out"; exit 1; }
fails=0
[ "$(grep -c "ws_gfx_present(target" "$work/list.out")" = 2 ] || { cat "$work/list.out"; echo "FAIL: two presents expected"; fails=$((fails+1)); }
call=$(grep -m1 "ws_gfx_present(target" "$work/list.out" | awk '{print $1}')
"$ws" replay "$work/f.wscap" > "$work/replay.out" 2>&1; rc=$?
cat "$work/replay.out"
[ "$rc" = 0 ] && grep -q "^call $call ws_gfx_present: the frame's work failed, as when it was captured, and the replay went on: .*vertex fetch: vertex 100 " "$work/replay.out" &&
  grep -q "2 frame ends checked: identical to the captured frame" "$work/replay.out" ||
  { echo "FAIL: the replay does not report the fault at the present and go on"; fails=$((fails+1)); }

# A frame the program begins but never presents before closing the
# device: the shim abandons the capture and says why; the command repeats
# the reason (it said the program "did not reach the chosen frames").
"$ws" capture -o "$work/open.wscap" --frames 1 -- "$prog" "$elf" 1 open > "$work/open.out" 2>&1; rc=$?
cat "$work/open.out"
[ "$rc" = 1 ] && grep -q "nothing captured: the capture was abandoned (frame 1 had not ended when the device was closed)" "$work/open.out" &&
  ! grep -q "did not reach the chosen frames" "$work/open.out" ||
  { echo "FAIL: an abandoned capture is not reported as such"; fails=$((fails+1)); }
echo "$fails failed"
[ "$fails" = 0 ]
