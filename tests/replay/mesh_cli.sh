#!/bin/bash
# `warpscope replay --mesh` on a captured frame of examples/cube: a row per
# vertex invocation (36, or ROWS of them), the invocations of one vertex
# index identical in every column (one vertex, one result), the vertex
# indices those of the cube's index buffer (four per face, two triangles
# 0 1 2, 0 2 3), and errors for a call that is not a draw.
#   mesh_cli.sh WARPSCOPE CUBE WORKDIR
set -u
ws=$1 cube=$2 work=$3
mkdir -p "$work"
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else echo "FAIL: $1"; fail=$((fail + 1)); fi; }
(cd "$(dirname "$cube")" && "$ws" capture -o "$work/cube.wscap" -- "./$(basename "$cube")" 1) > "$work/capture.out" 2>&1 ||
    { cat "$work/capture.out"; echo "0 passed, 1 failed"; exit 1; }
call=$("$ws" replay --list "$work/cube.wscap" | awk '/ws_gfx_draw_indexed/ { print $1; exit }')
"$ws" replay --mesh "$call" "$work/cube.wscap" > "$work/mesh.txt" 2>&1
ok "exit status" "[ $? = 0 ]"
head -4 "$work/mesh.txt"
rows() { awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/' "$1"; }
n=$(rows "$work/mesh.txt" | wc -l)
ok "36 rows" '[ "$n" = 36 ]'
ok "header" "grep -q 'vertex shader cube_vs, triangle list, cull back' '$work/mesh.txt' &&
    grep -q '36 vertex invocations (36 indices x 1 instance); inputs: in0 float3, in1 float3, in2 float2; outputs: position and 3 varyings' '$work/mesh.txt'"
ok "primitives" "grep -Eq 'primitives: 12 in, [0-9]+ clipped, [0-9]+ culled, 0 invalid, [0-9]+ rasterized' '$work/mesh.txt'"
# every invocation of one vertex index: the same inputs, outputs and window position
distinct_rows=$(rows "$work/mesh.txt" | cut -c9- | sort -u | wc -l)
distinct_vertices=$(rows "$work/mesh.txt" | awk '{ print $2 }' | sort -u | wc -l)
ok "one vertex, one result" '[ "$distinct_rows" = "$distinct_vertices" ]'
ok "24 vertices" '[ "$distinct_vertices" = 24 ]'
order=$(rows "$work/mesh.txt" | awk 'NR <= 6 { printf "%s ", $2 }')
ok "index order" '[ "$order" = "0 1 2 0 2 3 " ]'
"$ws" replay --mesh "$call:5" "$work/cube.wscap" > "$work/mesh5.txt" 2>&1
n5=$(rows "$work/mesh5.txt" | wc -l)
ok "ROWS" '[ "$n5" = 5 ] && grep -q "(5 of 36 invocations shown)" "$work/mesh5.txt"'
ok "same rows" 'diff <(rows "$work/mesh5.txt") <(rows "$work/mesh.txt" | head -5) > /dev/null'
"$ws" replay --mesh 0 "$work/cube.wscap" > "$work/not_draw.txt" 2>&1
# the capture has no such draw: 1, as for a call it does not hold (it was
# 2, the status of a malformed command line, which "bad ROWS" keeps)
ok "not a draw" "[ $? = 1 ] && grep -q 'call 0 is .*, not a draw (see --list)' '$work/not_draw.txt'"
"$ws" replay --mesh 999 "$work/cube.wscap" > "$work/no_call.txt" 2>&1
ok "no such call" "[ $? = 1 ] && grep -q 'no call 999' '$work/no_call.txt'"
"$ws" replay --mesh "$call:x" "$work/cube.wscap" > "$work/bad.txt" 2>&1
ok "bad ROWS" "[ $? = 2 ] && grep -q 'ROWS must be a whole number' '$work/bad.txt'"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
