#!/bin/bash
# The frame debugger names the instance of each fragment of an instanced
# draw: rd_gfx_program's draw 3 draws the red quad as instances 5, 6 and
# 7, all over pixel (8,16) (primitive 1 there). `monitor debug-pixel 8 16
# 3` and three continues stop at the pixel's three fragments in API
# order; the thread names, $instance_id and $primitive say which instance
# and primitive each is, and the shader input agrees (blue = instance / 8).
# (The shadow copy kept four system values per lane, a fragment's pixel,
# flags and primitive: the threads of the three fragments had the same
# name, and $instance_id of a fragment showed its pixel's y, 16.)
# The pixel history of the same capture names them as well.
#   instances_gdb.sh WARPSCOPE PROGRAM SHADERS.elf
set -u
ws=$1 prog=$2 elf=$3
. "$(dirname "$0")/lib.sh"
"$ws" capture -o "$work/f.wscap" --frames 0 -- "$prog" "$elf" 1 instances > "$work/capture.out" 2>&1 ||
  { cat "$work/capture.out"; exit 1; }
fails=0
start_debug_replay "$work/f.wscap"
cont=()
for _ in 1 2 3; do
  cont+=(-ex continue -ex 'printf "FRAG draw %d pixel %d %d primitive %d instance %d blue %g\n", $draw, $pixel_x, $pixel_y, $primitive, $instance_id, in->color[2]*8' -ex 'info threads')
done
timeout 150 gdb-multiarch -batch -nx -ex "set pagination off" -ex "set confirm off" \
  -ex "target remote 127.0.0.1:$(cat "$work/port")" -ex "monitor debug-pixel 8 16 3" "${cont[@]}" > "$work/gdb.out" 2>&1
wait "$rpid"; rc=$?; rpid=
cat "$work/gdb.out"
for i in 5 6 7; do
  n=$(grep -c "^FRAG draw 3 pixel 8 16 primitive 1 instance $i blue $i$" "$work/gdb.out")
  [ "$n" = 1 ] || { echo "FAIL: instance $i's fragment seen $n times, want once"; fails=$((fails+1)); }
  grep -Eq "Thread [0-9]+ \"draw 3 pixel \(8,16\) primitive 1 instance $i core [0-9]+ warp [0-9]+ lane [0-9]+\"" "$work/gdb.out" ||
    { echo "FAIL: no thread named for instance $i's fragment"; fails=$((fails+1)); }
done
[ "$(grep '^FRAG' "$work/gdb.out" | sed -n 's/.* instance \([0-9]*\) .*/\1/p' | tr '\n' ' ')" = "5 6 7 " ] ||
  { echo "FAIL: the fragments did not come in instance (API) order"; fails=$((fails+1)); }
[ "$rc" = 0 ] || { echo "FAIL: replay exit $rc"; cat "$work/replay.out"; fails=$((fails+1)); }
"$ws" replay --pixel 8,16 "$work/f.wscap" > "$work/pixel.out" 2>&1 || { cat "$work/pixel.out"; fails=$((fails+1)); }
[ "$(grep -Ec '^    primitive 1 instance [567] \(' "$work/pixel.out")" = 3 ] ||
  { cat "$work/pixel.out"; echo "FAIL: the pixel history does not name the three instances"; fails=$((fails+1)); }
echo "$fails failed"
[ "$fails" = 0 ]
