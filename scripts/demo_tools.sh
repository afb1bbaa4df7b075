#!/usr/bin/env bash
# The tools on the bundled examples, after the examples themselves ran:
#   1. warpscope profile: which line of the gather kernel stalls, and why;
#   2. warpscope debug + gdb-multiarch: stop at one GPU thread of vecadd,
#      look at its variables, and let the program finish; then
#      warpscope debug --record: matmul recorded, and gdb going backwards
#      through a loop with reverse-continue;
#   3. warpscope trace --tool memtrace: per-line coalescing of matmul;
#   4. warpscope watch: scheduling events and a debug machine on reduction;
#   5. the cube the graphics example drew, shown in the terminal, and its
#      shaders in the profiler, one line per draw;
#   6. warpscope capture + replay: a cube frame captured from the running
#      program, replayed three times bit-identically, one pixel's history,
#      the draw's first vertices (the mesh view),
#      and gdb stepping forwards and one step back in its fragment shader.
# Usage: scripts/demo_tools.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
ws="$build/bin/warpscope"

# Show gdb's commands, run them in one batch session (after `set
# pagination off` and `set confirm off`) with its output in file $1, then
# print what gdb said without its connection chatter.
gdb_session() {
  local out=$1
  shift
  local args=(-batch -nx -ex "set pagination off" -ex "set confirm off")
  for c in "$@"; do
    args+=(-ex "$c")
    echo "(gdb) $c"
  done
  echo "-- gdb says:"
  timeout 120 gdb-multiarch "${args[@]}" > "$out" 2>&1 || true
  grep -vE '^\[New Thread|^warning:|^$|set sysroot|^Reading |^Remote debugging|executable automatically|No symbol table is loaded|^0x00000000 in|^\[Switching' "$out"
}

echo
echo "== Profiler: warpscope profile -- $build/examples/gather/gather"
echo "   (the report's first kernel section: hottest line, its stall reason and the load it waits on)"
report=$(mktemp) gdbout=$(mktemp) appout=$(mktemp)
trap 'rm -f "$report" "$gdbout" "$appout"' EXIT
"$ws" profile -- "$build/examples/gather/gather" > "$report"
# (sed -n '1,25p' reads to the end: head would leave the first sed to die
# of SIGPIPE once the section is longer, and pipefail would end the demo)
sed -n '/^Kernels (hottest first)/,/^  Hot instructions/p' "$report" | sed -n '1,25p'

echo
echo "== Debugger: warpscope debug -- $build/examples/vecadd/vecadd, driven by gdb-multiarch"
portfile=$(mktemp -u)
"$ws" debug --port-file "$portfile" -- "$build/examples/vecadd/vecadd" > "$appout" 2>&1 &
app=$!
for _ in $(seq 100); do [ -s "$portfile" ] && break; sleep 0.1; done
cmds=(
  "target remote 127.0.0.1:$(cat "$portfile")"
  "set breakpoint pending on"
  'break vecadd_kernel.c:7 if $block_x == 1 && $thread_x == 5'
  "continue"
  "print i"
  "print a[i] + b[i]"
  'print $block_x'
  'print $thread_x'
  "delete"
  "continue"
)
gdb_session "$gdbout" "${cmds[@]}"
wait "$app"
echo "-- the program says:"
cat "$appout"
rm -f "$portfile"
grep -q 'hit Breakpoint 1' "$gdbout" && grep -q 'exited normally' "$gdbout" && grep -q PASS "$appout" ||
  { echo "demo: the debugger session did not go as expected" >&2; exit 1; }

echo
echo "== Stepping backwards: warpscope debug --record -- $build/examples/matmul/matmul"
echo "   (the program runs to its end recorded; gdb then debugs the replay: three hits of a breakpoint in the"
echo "   tile loop, then reverse-continue back through them)"
"$ws" debug --record --port-file "$portfile" -- "$build/examples/matmul/matmul" > "$appout" 2>&1 &
app=$!
for _ in $(seq 300); do [ -s "$portfile" ] && break; sleep 0.1; done
cmds=(
  "target remote 127.0.0.1:$(cat "$portfile")"
  "set breakpoint pending on"
  'break matmul_kernel.c:21 if $block_x == 1 && $thread_x == 3 && $thread_y == 0'
  "continue"
  "print t"
  "continue"
  "continue"
  "print t"
  "reverse-continue"
  "print t"
  "reverse-continue"
  "print t"
  "kill"
)
gdb_session "$gdbout" "${cmds[@]}"
wait "$app" || true
rm -f "$portfile"
[ "$(grep -E '^\$[0-9]+ = ' "$gdbout" | sed 's/^\$[0-9]* = //' | tr '\n' ' ')" = "0 32 16 0 " ] ||
  { cat "$appout"; echo "demo: the recorded session did not go backwards as expected" >&2; exit 1; }

echo
echo "== Tracer: warpscope trace --tool memtrace -- $build/examples/matmul/matmul"
echo "   (every access of every thread, counted against the device's own counters; per line: coalescing and bank conflicts)"
trace=$(mktemp)
"$ws" trace --tool memtrace -- "$build/examples/matmul/matmul" > "$trace" 2>&1 ||
  { cat "$trace"; echo "demo: the tracer run failed" >&2; exit 1; }
sed -n '/^warpscope trace/,$p' "$trace"
grep -q "accesses: .*(match)" "$trace" || { rm -f "$trace"; echo "demo: tracer counts did not match the device" >&2; exit 1; }
rm -f "$trace"

echo
echo "== Event watcher: warpscope watch --stats --on 'wd.dispatch data=7' --then 'sched.barrier_release count=5' --do print -- $build/examples/reduction/reduction"
echo "   (scheduling events counted and compressed; a debug machine prints the 5th barrier release after block 7 is dispatched)"
watch=$(mktemp)
"$ws" watch --stats --on 'wd.dispatch data=7' --then 'sched.barrier_release count=5' --do print \
    -- "$build/examples/reduction/reduction" > "$watch" 2>&1 || { cat "$watch"; echo "demo: the watch run failed" >&2; exit 1; }
grep -v "^reduction\|^  *1 launch" "$watch"
grep -q "machine 0: sched.barrier_release" "$watch" || { rm -f "$watch"; echo "demo: the debug machine did not fire" >&2; exit 1; }
rm -f "$watch"

echo
echo "== Graphics: examples/cube drew a lit, textured, depth-tested cube for 8 frames (cube.png: every frame, side by side)."
echo "   Frame 0 (cube_frame0.png), shown with: warpscope show cube_frame0.png --width 64"
(cd "$build/examples/cube" && ./cube 8 > /dev/null) || { echo "demo: the cube example failed" >&2; exit 1; }
frame="$build/examples/cube/cube_frame0.png"
[ -s "$frame" ] || { echo "demo: the cube example wrote no $frame" >&2; exit 1; }
"$ws" show "$frame" --width 64
echo "   Its shaders in the profiler, per draw (warpscope profile -- cube 2):"
prof=$(mktemp)
(cd "$build/examples/cube" && "$OLDPWD/$ws" profile -- ./cube 2 > "$prof" 2>&1) || { cat "$prof"; rm -f "$prof"; echo "demo: profiling the cube failed" >&2; exit 1; }
grep -E "^  launch [0-9]+ cube_(vs|fs)" "$prof"
rm -f "$prof"

echo
echo "== Capture and replay: warpscope capture -o cube.wscap --frames 2 -- cube 3; warpscope replay --loop 3 cube.wscap"
echo "   (frame 2 of the unmodified cube program recorded through the LD_PRELOAD shim, replayed three times from its"
echo "   restored start, each pass checked against the original frame's results)"
capdir=$(mktemp -d)
"$ws" capture -o "$capdir/cube.wscap" --frames 2 -- "$build/examples/cube/cube" 3 2>&1 | grep '^captured' ||
  { rm -rf "$capdir"; echo "demo: capturing the cube failed" >&2; exit 1; }
"$ws" replay --loop 3 "$capdir/cube.wscap" | tee "$capdir/replay.txt"
grep -q "every pass bit-identical" "$capdir/replay.txt" || { rm -rf "$capdir"; echo "demo: the replay differed" >&2; exit 1; }
echo "   Pixel (320,240)'s history (warpscope replay --pixel 320,240 cube.wscap):"
"$ws" replay --pixel 320,240 "$capdir/cube.wscap" | sed 's/^/   /'
draw_call=$("$ws" replay --list "$capdir/cube.wscap" | awk '/ws_gfx_draw/ && !n { print $1; n = 1 }')
echo "   The draw's first 4 vertices (warpscope replay --mesh $draw_call:4 cube.wscap): what the vertex fetch gave each"
echo "   invocation, what its shader wrote, and where the viewport put it:"
"$ws" replay --mesh "$draw_call:4" "$capdir/cube.wscap" | sed 's/^/   /'
echo "   gdb on the replayed frame: break at that pixel's fragment shader, step forwards, then one step back"
echo "   (each step replays the frame; the GPU always finishes it):"
"$ws" replay --debug=port-file="$capdir/port" "$capdir/cube.wscap" > "$capdir/server.txt" 2>&1 &
srv=$!
for _ in $(seq 100); do [ -s "$capdir/port" ] && break; sleep 0.1; done
rcmds=(
  "set breakpoint pending on"
  "target remote 127.0.0.1:$(cat "$capdir/port")"
  "monitor debug-pixel 320 240"
  "continue"
  "next"
  "next"
  "print t"
  "reverse-next"
  "monitor position"
  "detach"
)
gdb_session "$capdir/gdb.txt" "${rcmds[@]}"
wait "$srv" || true
grep -q 'ran the frame to its end with results identical' "$capdir/gdb.txt" && grep -q '^23' "$capdir/gdb.txt" ||
  { rm -rf "$capdir"; echo "demo: the frame debugger session did not go as expected" >&2; exit 1; }
rm -rf "$capdir"
