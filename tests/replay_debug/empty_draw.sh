#!/bin/bash
# Draw ordinals of a replayed frame are the device's, so the ordinal
# `replay --list` prints for a draw is the one `monitor debug-pixel X Y
# DRAW` takes and $draw shows. Two draws before the green quad test it:
# one whose scissor lies outside the target (it gets a draw id but
# launches no shader) and one of 0 instances (accepted, no draw id).
# (The replayer counted the empty draw, and the debugger numbered draws
# from the first that launched a shader: --list called the green quad
# "draw 3", the debugger "draw 1"; asked for the listed ordinal,
# `continue` ran to the frame end without a stop.)
#   empty_draw.sh WARPSCOPE PROGRAM SHADERS.elf
set -u
ws=$1 prog=$2 elf=$3
. "$(dirname "$0")/lib.sh"
"$ws" capture -o "$work/f.wscap" --frames 0 -- "$prog" "$elf" > "$work/capture.out" 2>&1 || { cat "$work/capture.out"; exit 1; }
"$ws" replay --list "$work/f.wscap" > "$work/list.out" 2>&1 || { cat "$work/list.out"; exit 1; }
cat "$work/list.out"
fails=0
grep -Eq "ws_gfx_draw\(6 vertices, 0 instances.*\(draws nothing\)" "$work/list.out" ||
  { echo "FAIL: the empty draw is not listed as drawing nothing"; fails=$((fails+1)); }
green=$(sed -n 's/.*ws_gfx_draw(6 vertices, 1 instances, first 6, .*) draw \([0-9]*\).*/\1/p' "$work/list.out")
[ "$green" = 2 ] || { echo "FAIL: the green quad is listed as draw '$green', the device numbers it 2"; fails=$((fails+1)); }
start_debug_replay "$work/f.wscap"
timeout 150 gdb-multiarch -batch -nx -ex "set pagination off" -ex "set confirm off" \
  -ex "target remote 127.0.0.1:$(cat "$work/port")" -ex "monitor debug-pixel 8 16 ${green:-1}" -ex continue \
  -ex 'printf "DRAW %d PIXEL %d %d\n", $draw, $pixel_x, $pixel_y' -ex 'printf "GREEN %g\n", in->color[1]' \
  > "$work/gdb.out" 2>&1
wait "$rpid"; rc=$?; rpid=
cat "$work/gdb.out"
grep -Eq "^DRAW ${green:-1} PIXEL 8 16$" "$work/gdb.out" || { echo "FAIL: no stop at the pixel in draw ${green:-1}"; fails=$((fails+1)); }
grep -Eq "^GREEN 1$" "$work/gdb.out" || { echo "FAIL: the stop is not in the green quad's fragment shader"; fails=$((fails+1)); }
[ "$rc" = 0 ] || { echo "FAIL: replay exit $rc"; cat "$work/replay.out"; fails=$((fails+1)); }

# A condition on $draw holds for the draw --list names: the condition
# unit reads the device's draw id, which every replay of the debugger now
# numbers from 0 (it kept counting across replays, so "if $draw == 2"
# never held and continue ran to the frame end).
rm -f "$work/port"
start_debug_replay "$work/f.wscap"
timeout 150 gdb-multiarch -batch -nx -ex "set pagination off" -ex "set confirm off" -ex "set breakpoint pending on" \
  -ex "target remote 127.0.0.1:$(cat "$work/port")" -ex "break rdg_fs if \$draw == ${green:-2}" -ex continue \
  -ex 'printf "COND DRAW %d GREEN %g\n", $draw, in->color[1]' -ex continue \
  -ex 'printf "COND DRAW %d GREEN %g\n", $draw, in->color[1]' > "$work/gdb_cond.out" 2>&1
wait "$rpid"; rc=$?; rpid=
cat "$work/gdb_cond.out"
[ "$(grep -c "^COND DRAW ${green:-2} GREEN 1$" "$work/gdb_cond.out")" = 2 ] ||
  { echo "FAIL: a breakpoint on \$draw == ${green:-2} did not stop twice in the green quad"; fails=$((fails+1)); }
[ "$rc" = 0 ] || { echo "FAIL: replay exit $rc"; cat "$work/replay.out"; fails=$((fails+1)); }

# Two frames from device open (--frames all): each frame's target is made
# inside the capture, so before the frame runs it has no handle. The
# second frame's green quad is draw 5; debug-pixel must accept the pixel
# (it was refused: "outside every draw's render target (the largest is
# 0x0)", or "outside draw 5's 0x0 render target") and stop there.
"$ws" capture -o "$work/all.wscap" --frames all -- "$prog" "$elf" 2 > "$work/capture.out" 2>&1 || { cat "$work/capture.out"; exit 1; }
start_debug_replay "$work/all.wscap"
timeout 150 gdb-multiarch -batch -nx -ex "set pagination off" -ex "set confirm off" \
  -ex "target remote 127.0.0.1:$(cat "$work/port")" -ex "monitor debug-pixel 8 16 5" -ex continue \
  -ex 'printf "DRAW %d PIXEL %d %d\n", $draw, $pixel_x, $pixel_y' > "$work/gdb_all.out" 2>&1
wait "$rpid"; rc=$?; rpid=
cat "$work/gdb_all.out"
grep -q "is outside" "$work/gdb_all.out" && { echo "FAIL: the pixel was refused"; fails=$((fails+1)); }
grep -Eq "^DRAW 5 PIXEL 8 16$" "$work/gdb_all.out" || { echo "FAIL: no stop at the pixel in draw 5"; fails=$((fails+1)); }
[ "$rc" = 0 ] || { echo "FAIL: replay exit $rc"; cat "$work/replay.out"; fails=$((fails+1)); }
# Draw 0's scissor lies outside the target: no fragment of it can reach
# pixel (8,16), so debug-pixel refuses the pixel for that draw with the
# reason (it was accepted, and continue ran to the frame end without a
# word, which the check exists to prevent).
start_debug_replay "$work/f.wscap"
timeout 150 gdb-multiarch -batch -nx -ex "set pagination off" -ex "set confirm off" \
  -ex "target remote 127.0.0.1:$(cat "$work/port")" -ex "monitor debug-pixel 8 16 0" > "$work/gdb_sc.out" 2>&1
wait "$rpid"; rc=$?; rpid=
cat "$work/gdb_sc.out"
grep -q "pixel (8,16) is outside the pixels draw 0's viewport and scissor leave" "$work/gdb_sc.out" ||
  { echo "FAIL: a pixel outside draw 0's scissor is not refused"; fails=$((fails+1)); }

# A frame that is not the device's first: frame 1 of two, whose draws have
# ids 3 (scissored away), 4 (red) and 5 (green). $draw is the device's id
# (docs/capture-replay-debug.md), as a condition on it reads it: the
# debugger showed the ordinal (2), while a condition ran in the shadow
# unit on the id, and gdb checks a condition again on the stop with the
# register it reads, so "if $draw == 5" and "if $draw == 2" both ran to
# the frame end without a stop.
"$ws" capture -o "$work/f1.wscap" --frames 1 -- "$prog" "$elf" 2 > "$work/capture.out" 2>&1 || { cat "$work/capture.out"; exit 1; }
"$ws" replay --list "$work/f1.wscap" > "$work/list1.out" 2>&1 || { cat "$work/list1.out"; exit 1; }
grep -Eq "ws_gfx_draw\(6 vertices, 1 instances, first 6, .*\) draw 2 \(id 5\)" "$work/list1.out" ||
  { echo "FAIL: frame 1's green quad is not listed as draw 2 (id 5)"; cat "$work/list1.out"; fails=$((fails+1)); }
start_debug_replay "$work/f1.wscap"
timeout 150 gdb-multiarch -batch -nx -ex "set pagination off" -ex "set confirm off" \
  -ex "target remote 127.0.0.1:$(cat "$work/port")" -ex "monitor debug-pixel 8 16 2" -ex continue \
  -ex 'printf "DRAW %d PIXEL %d %d GREEN %g\n", $draw, $pixel_x, $pixel_y, in->color[1]' > "$work/gdb_f1.out" 2>&1
wait "$rpid"; rc=$?; rpid=
cat "$work/gdb_f1.out"
grep -Eq "^DRAW 5 PIXEL 8 16 GREEN 1$" "$work/gdb_f1.out" || { echo "FAIL: \$draw is not the green quad's id 5"; fails=$((fails+1)); }
[ "$rc" = 0 ] || { echo "FAIL: replay exit $rc"; cat "$work/replay.out"; fails=$((fails+1)); }
start_debug_replay "$work/f1.wscap"
timeout 150 gdb-multiarch -batch -nx -ex "set pagination off" -ex "set confirm off" -ex "set breakpoint pending on" \
  -ex "target remote 127.0.0.1:$(cat "$work/port")" -ex 'break rdg_fs if $draw == 5' -ex continue \
  -ex 'printf "COND DRAW %d GREEN %g\n", $draw, in->color[1]' > "$work/gdb_f1c.out" 2>&1
wait "$rpid"; rc=$?; rpid=
cat "$work/gdb_f1c.out"
grep -Eq "^COND DRAW 5 GREEN 1$" "$work/gdb_f1c.out" || { echo "FAIL: a breakpoint on \$draw == 5 did not stop in the green quad"; fails=$((fails+1)); }
# The stopped thread's name gives the ordinal and the id, as --list does
# (it said "draw 2" only, beside $draw 5).
grep -Eq "Thread [0-9]+ \"draw 2 \(id 5\) pixel \([0-9]+,[0-9]+\) " "$work/gdb_f1c.out" ||
  { echo "FAIL: the thread name does not say draw 2 (id 5)"; fails=$((fails+1)); }
[ "$rc" = 0 ] || { echo "FAIL: replay exit $rc"; cat "$work/replay.out"; fails=$((fails+1)); }
echo "$fails failed"
[ "$fails" = 0 ]
