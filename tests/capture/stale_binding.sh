#!/bin/bash
# A frame captured while the graphics context still names a buffer the
# program freed (bound to vertex slot 3 and as the index buffer, then
# ws_free; the runtime keeps such bindings and checks them at the draw):
# the replay restores the context as it was and replays bit-identically.
# (The restore called ws_gfx_set_vertex_buffer, which refuses a range in
# no live allocation, so the capture could not be replayed at all.)
#   stale_binding.sh WARPSCOPE PROGRAM SHADERS.elf
set -u
ws=$1 prog=$2 elf=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$ws" capture -o "$work/f.wscap" --frames 1 -- "$prog" "$elf" 2 stale > "$work/capture.out" 2>&1 || { cat "$work/capture.out"; exit 1; }
"$ws" replay --loop 2 "$work/f.wscap" > "$work/replay.out" 2>&1; rc=$?
cat "$work/replay.out"
[ "$rc" = 0 ] && grep -q "2 passes of .* every pass bit-identical" "$work/replay.out" || { echo "FAIL: no bit-identical replay"; exit 1; }
# The bindings as --list prints them: addresses in hex, as --element takes
# them (they were decimal: "ws_gfx_set_index_buffer(16805376, 64, 4)").
"$ws" capture -o "$work/all.wscap" --frames all -- "$prog" "$elf" 1 stale > "$work/capture.out" 2>&1 || { cat "$work/capture.out"; exit 1; }
"$ws" replay --list "$work/all.wscap" > "$work/list.out" 2>&1 || { cat "$work/list.out"; exit 1; }
grep -E "set_(vertex|index)_buffer" "$work/list.out"
grep -Eq "ws_gfx_set_vertex_buffer\(slot 3, 0x[0-9a-f]{8}, 4096 bytes\)" "$work/list.out" &&
  grep -Eq "ws_gfx_set_index_buffer\(0x[0-9a-f]{8}, 64 bytes, u32\)" "$work/list.out" ||
  { echo "FAIL: the bindings' text in --list"; exit 1; }
echo PASS
