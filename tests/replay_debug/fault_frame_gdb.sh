#!/bin/bash
# gdb on a captured frame whose last draw faults (rd_gfx_program's
# "fault" mode): every replay meets that fault where the original did
# (its present) and goes on, as the program did (the capture records the
# failure; until 2026-11-27 every replay stopped there); what ran before
# it can be debugged.
# (replay --debug refused to start: its first replay, which lists the
# frame's modules, failed at the fault; and every resume failed.)
#   fault_frame_gdb.sh WARPSCOPE PROGRAM SHADERS.elf
set -u
ws=$1 prog=$2 elf=$3
. "$(dirname "$0")/lib.sh"
"$ws" capture -o "$work/f.wscap" --frames 0 -- "$prog" "$elf" 1 fault > "$work/capture.out" 2>&1 || { cat "$work/capture.out"; exit 1; }
start_debug_replay "$work/f.wscap"
timeout 150 gdb-multiarch -batch -nx -ex "set pagination off" -ex "set confirm off" \
  -ex "target remote 127.0.0.1:$(cat "$work/port")" -ex "monitor debug-pixel 8 16 2" -ex continue \
  -ex 'printf "DRAW %d GREEN %g\n", $draw, in->color[1]' -ex "stepi" -ex "reverse-stepi" \
  -ex 'printf "BACK %d\n", $pixel_x' -ex "monitor debug-pixel off" -ex "delete" -ex continue \
  -ex "monitor position" > "$work/gdb.out" 2>&1
wait "$rpid"; rc=$?; rpid=
cat "$work/gdb.out"
fails=0
grep -Eq "^DRAW 2 GREEN 1$" "$work/gdb.out" || { echo "FAIL: no stop in the green quad before the fault"; fails=$((fails+1)); }
grep -Eq "^BACK 8$" "$work/gdb.out" || { echo "FAIL: stepping back and forth"; fails=$((fails+1)); }
grep -Eq "at the frame end; on the way its work failed, as when it was captured, and the replay went on: call [0-9]+ ws_gfx_present: .*vertex fetch: vertex 100 " "$work/gdb.out" ||
  { echo "FAIL: monitor position does not say where and why the frame stops"; fails=$((fails+1)); }
[ "$rc" = 0 ] || { echo "FAIL: replay exit $rc"; cat "$work/replay.out"; fails=$((fails+1)); }
# The pixel history of the same frame ends at the fault too, with what
# happened to the pixel before it (it refused the frame: "pixel history:
# call 10 ws_gfx_draw: ... vertex fetch ...", and nothing else).
"$ws" replay --pixel 8,16 "$work/f.wscap" > "$work/pixel.out" 2>&1; prc=$?
cat "$work/pixel.out"
[ "$prc" = 0 ] || { echo "FAIL: replay --pixel exit $prc"; fails=$((fails+1)); }
grep -Eq "^pixel \(8,16\) of render target [0-9]+ \(32x32\): 3 events in 3 calls$" "$work/pixel.out" ||
  { echo "FAIL: the clear, the red quad and the green quad are not the pixel's history"; fails=$((fails+1)); }
grep -Eq "^the frame's work failed, as when it was captured, and the replay went on: call [0-9]+ ws_gfx_present: .*vertex fetch: vertex 100 " "$work/pixel.out" ||
  { echo "FAIL: the pixel history does not say where and why the frame stops"; fails=$((fails+1)); }
grep -Eq "^frame end: colour \(  0 255   0 255\)$" "$work/pixel.out" ||
  { echo "FAIL: the pixel does not end green"; fails=$((fails+1)); }
# So does the element history: the counter the frame's kernel increments
# (it refused the frame: "element history: call 9: draw 3 ...").
"$ws" replay --element 0x01004100 "$work/f.wscap" > "$work/element.out" 2>&1; erc=$?
cat "$work/element.out"
[ "$erc" = 0 ] || { echo "FAIL: replay --element exit $erc"; fails=$((fails+1)); }
grep -Eq "^element 0x01004100, 4 bytes: changed by 1 call$" "$work/element.out" &&
  grep -Eq "^    new 02 00 00 00  = int32 \(2\)$" "$work/element.out" ||
  { echo "FAIL: the launch's increment is not the element's history"; fails=$((fails+1)); }
grep -Eq "^the frame's work failed, as when it was captured, and the replay went on: call [0-9]+ ws_gfx_present: .*vertex fetch: vertex 100 " "$work/element.out" ||
  { echo "FAIL: the element history does not say where and why the frame stops"; fails=$((fails+1)); }
# So does the frame report: the cards of the clears and draws before the
# fault, the pixel's history, and where and why the frame ended (it
# refused the frame: "report: call 10 ws_gfx_draw: ...").
"$ws" replay --html "$work/report" --pixel 8,16 "$work/f.wscap" > "$work/html.out" 2>&1; hrc=$?
cat "$work/html.out"
[ "$hrc" = 0 ] || { echo "FAIL: replay --html exit $hrc"; fails=$((fails+1)); }
grep -q "The frame's work failed, as when it was captured, and the replay went on: <code>call [0-9]* ws_gfx_present: .*vertex fetch: vertex 100 " "$work/report/index.html" 2>/dev/null ||
  { echo "FAIL: the report does not say where and why the frame stops"; fails=$((fails+1)); }
[ "$(grep -o 'class="card"' "$work/report/index.html" 2>/dev/null | wc -l)" -ge 3 ] ||
  { echo "FAIL: the report lacks the cards of the calls before the fault"; fails=$((fails+1)); }
echo "$fails failed"
[ "$fails" = 0 ]
