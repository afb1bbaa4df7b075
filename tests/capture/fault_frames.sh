#!/bin/bash
# Three frames whose middle one faults (tests/capture/fault_frames.c):
# the capture records the failure where the program met it, and the
# replay reports it there and goes on to the frames after it, in every
# mode. Before 2026-11-27 every replay stopped at the fault.
#   fault_frames.sh WARPSCOPE PROGRAM KERNELS.elf
set -u
ws=$1 prog=$2 elf=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
run() { # run NAME CMD...: output in $work/NAME.out, status in $rc
    local name=$1; shift
    "$@" > "$work/$name.out" 2>&1; rc=$?
    echo "== $name (status $rc)"; cat "$work/$name.out"
}
fault="store access fault: write of 4 bytes at 0x00000010: null pointer .*; fragment shader 'ff_fs' of draw 2, launch [0-9]*, .*draw 2 primitive 1 pixel (5,7), pc 0x[0-9a-f]* .*fault_frames_kernel.c:20 in ff_fs"

# graphics: frame 1's fragment shader faults; its second draw is discarded
run capture "$ws" capture -o "$work/g.wscap" --frames 0-2 -- "$prog" "$elf" gfx
[ "$rc" = 0 ] || fail "capture"
want=$(sed -n 's/^frame 2: pixel (5,7) //p' "$work/capture.out")
run list "$ws" replay --list "$work/g.wscap"
grep -A1 "^    10  ws_gfx_present" "$work/list.out" | grep -q "(failed when captured: WS_ERR_KERNEL_FAULT)" ||
  fail "--list does not mark the present that failed"
run loop "$ws" replay --loop 3 "$work/g.wscap"
[ "$rc" = 0 ] && grep -q "^call 10 ws_gfx_present: the frame's work failed, as when it was captured, and the replay went on: $fault" "$work/loop.out" &&
  [ "$(grep -c "3 frame ends checked: identical to the captured frame" "$work/loop.out")" = 3 ] ||
  fail "the replay does not go past the fault with every frame identical"
run pixel "$ws" replay --pixel 5,7 "$work/g.wscap"
[ "$rc" = 0 ] && grep -q "^call 14 ws_gfx_draw" "$work/pixel.out" && grep -q "^frame end: colour $want" "$work/pixel.out" &&
  grep -q "replay went on: call 10 ws_gfx_present: $fault" "$work/pixel.out" ||
  fail "--pixel does not show frame 2's draw and its colour $want"
# the failure in call order among the calls (until 2026-11-27 after them all)
line() { grep -n -m1 -- "$1" "$2" | cut -d: -f1; }
[ "$(line "^call 7 " "$work/pixel.out")" -lt "$(line "replay went on: call 10 " "$work/pixel.out")" ] &&
  [ "$(line "replay went on: call 10 " "$work/pixel.out")" -lt "$(line "^call 13 " "$work/pixel.out")" ] ||
  fail "--pixel does not list the failure of call 10 between calls 7 and 13"
# the history waits after each draw, so it meets the fault at draw 2; the
# draw queued after it (call 9) was discarded by the program's device and
# must not run in the replay, and later draws keep their ids
run pixel2 "$ws" replay --pixel 28,28 "$work/g.wscap"
[ "$rc" = 0 ] && grep -q "^call 3 " "$work/pixel2.out" && grep -q "^call 15 " "$work/pixel2.out" &&
  ! grep -q "^call 9 " "$work/pixel2.out" || fail "--pixel runs the discarded draw, or misses one"
# dumps are named by the target's capture id, the one --list shows
tid=$("$ws" replay --list "$work/g.wscap" | sed -n 's/.*ws_gfx_present(target \([0-9]*\).*/\1/p' | head -1)
run dump "$ws" replay --dump-after 16 --out "$work/dump" "$work/g.wscap"
[ "$rc" = 0 ] && [ -n "$tid" ] && [ -s "$work/dump/call16-target$tid.png" ] || fail "--dump-after 16 (frame 2's present)"
run dump9 "$ws" replay --dump-after 9 --out "$work/dump9" "$work/g.wscap"
[ "$rc" = 0 ] && [ -s "$work/dump9/call9-target$tid.png" ] && grep -q "call 10 ws_gfx_present: .*$fault" "$work/dump9.out" ||
  fail "--dump-after 9 (inside the faulting frame)"
# the mesh view: the faulting draw still shows its vertices (its fragments
# faulted), the draw the program's device discarded has none, frame 3's draw
# is reached past the fault
run mesh8 "$ws" replay --mesh 8 "$work/g.wscap"
[ "$rc" = 0 ] && grep -q "6 vertex invocations" "$work/mesh8.out" && grep -q "the frame failed at this draw, after its vertices: .*$fault" "$work/mesh8.out" ||
  fail "--mesh 8 (the draw whose fragments fault)"
run mesh9 "$ws" replay --mesh 9 "$work/g.wscap"
[ "$rc" = 1 ] && grep -q "mesh view: the frame stopped before the draw's vertices were shaded" "$work/mesh9.out" ||
  fail "--mesh 9 (discarded by the program's device)"
# the capture's name once (until 2026-11-28 the command repeated it)
[ "$(grep -o -F "$work/g.wscap" "$work/mesh9.out" | wc -l)" = 1 ] || fail "--mesh 9 names the capture more than once"
run mesh14 "$ws" replay --mesh 14 "$work/g.wscap"
[ "$rc" = 0 ] && grep -q "6 vertex invocations" "$work/mesh14.out" && ! grep -q "frame failed" "$work/mesh14.out" ||
  fail "--mesh 14 (frame 3, past the fault)"
run html "$ws" replay --html "$work/report" "$work/g.wscap"
[ "$rc" = 0 ] && grep -q "and the replay went on" "$work/report/index.html" || fail "--html"
# and its pixel history has the failure as a row between calls 7 and 13
order=$(sed -n '/<section id="pixel">/,/<\/section>/p' "$work/report/index.html" | grep -o 'href="#call-[0-9]*"\|class="failed"' | tr '\n' ' ')
[[ "$order" == *'href="#call-7" class="failed" href="#call-13"'* ]] || fail "--html: the pixel history's rows: $order"

# compute: a ws_free met the fault; it freed all the same, so the capture
# holds it, failing (until 2026-11-29 it freed nothing and the capture
# left it out: "ws_free, a call the capture does not hold, met a failure
# here")
run capture_free "$ws" capture -o "$work/f.wscap" --frames all -- "$prog" "$elf" free
[ "$rc" = 0 ] || fail "capture (free)"
run list_free "$ws" replay --list "$work/f.wscap"
grep -A1 "^ *12  ws_free(0x" "$work/list_free.out" | grep -q "(failed when captured: WS_ERR_KERNEL_FAULT)" ||
  fail "--list does not show the ws_free that met the failure"
run replay_free "$ws" replay --loop 2 "$work/f.wscap"
[ "$rc" = 0 ] && grep -q "the frame's work failed, as when it was captured, and the replay went on: .*kernel 'ff_fill' launch 2, block (0,0,0) thread (3,0,0)" "$work/replay_free.out" ||
  fail "the compute replay does not go past the fault"
buf=$(grep -m1 -o "ws_malloc(256) = 0x[0-9a-f]*" "$work/list_free.out" | sed 's/.*= //')
run element "$ws" replay --element $(printf '0x%08x' $((buf + 20))):4 "$work/f.wscap"
[ "$rc" = 0 ] && grep -q "new cd 00 00 00  = int32 (205)" "$work/element.out" || fail "--element does not reach frame 2"
[ "$(line "^call 11 " "$work/element.out")" -lt "$(line "replay went on: call 12 ws_free" "$work/element.out")" ] &&
  [ "$(line "replay went on: call 12 ws_free" "$work/element.out")" -lt "$(line "^call 16 " "$work/element.out")" ] ||
  fail "--element does not list the failure met at call 12 between calls 11 and 16"

# the device closed with a faulting launch queued: the close met it
run capture_close "$ws" capture -o "$work/c.wscap" --frames all -- "$prog" "$elf" close
[ "$rc" = 0 ] && grep -q "^close: WS_ERR_KERNEL_FAULT" "$work/capture_close.out" ||
  fail "capture (close): the program's ws_device_close must still report the fault"
run replay_close "$ws" replay "$work/c.wscap"
[ "$rc" = 0 ] && grep -q "after the last call (ws_device_close): the frame's work failed, as when it was captured" "$work/replay_close.out" ||
  fail "the replay of a capture whose device close met the fault"
# a range of launches ending at the faulting launch: the shim runs the
# queue to read the results; the fault it meets is the program's, which
# must still hear of it at its next wait (the capture was abandoned and
# the program's ws_free succeeded: the shim had taken its fault)
"$prog" "$elf" free > "$work/plain_free.out" 2>&1
run capture_range "$ws" capture -o "$work/r.wscap" --frames launches=1-1 -- "$prog" "$elf" free
[ "$rc" = 0 ] && grep -q "^frame 1: ws_free: WS_ERR_KERNEL_FAULT: store access fault" "$work/capture_range.out" &&
  diff <(grep "^frame\|^close" "$work/plain_free.out") <(grep "^frame\|^close" "$work/capture_range.out") ||
  fail "capture of launches=1-1: the program must see what it sees without the capture"
run replay_range "$ws" replay "$work/r.wscap"
[ "$rc" = 0 ] && grep -q "after the last call (the program's next wait, after the capture): the frame's work failed, as when it was captured: .*kernel 'ff_fill'" "$work/replay_range.out" ||
  fail "the replay of the range does not meet the fault after its last call"
# a kernel queued between frames 0 and 1 faults; reading the initial state
# of frame 1 runs it: the failure is recorded as pending when the capture
# began and handed back, so frame 1's present still reports it (the shim
# took it: the capture was abandoned and the present said WS_OK)
"$prog" "$elf" between > "$work/plain_between.out" 2>&1
run capture_between "$ws" capture -o "$work/b.wscap" --frames 1 -- "$prog" "$elf" between
[ "$rc" = 0 ] && grep -q "^frame 1: WS_ERR_KERNEL_FAULT: .*kernel 'ff_fill'" "$work/capture_between.out" &&
  diff <(grep "^frame\|^close" "$work/plain_between.out") <(grep "^frame\|^close" "$work/capture_between.out") ||
  fail "capture of frame 1 after a faulting kernel between frames: the program must see what it sees without the capture"
run replay_between "$ws" replay --loop 2 "$work/b.wscap"
[ "$rc" = 0 ] && grep -q "^call 4 ws_gfx_present: the frame's work failed, as when it was captured, and the replay went on: .*kernel 'ff_fill'" "$work/replay_between.out" &&
  [ "$(grep -c "1 frame end checked: identical to the captured frame" "$work/replay_between.out")" = 2 ] ||
  fail "the replay of a frame whose work was discarded for an earlier failure"
run list_between "$ws" replay --list "$work/b.wscap"
grep -q "(work queued before the capture had failed when it began: WS_ERR_KERNEL_FAULT)" "$work/list_between.out" ||
  fail "--list does not say a failure was pending when the capture began"
echo "$fails failed"
[ "$fails" = 0 ]
