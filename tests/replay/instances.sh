#!/bin/bash
# Pixel history of an instanced draw names each fragment's instance: the
# instanced example (400 instances of one quad in one draw) captured, the
# centre pixel of instance 43 (column 3, row 2) asked for, in text and in
# the report. (Every instance's fragments said "primitive 0" or
# "primitive 1" and nothing else, so overlapping instances of one draw
# could not be told apart.) A draw of one instance says nothing more.
#   instances.sh WARPSCOPE INSTANCED_DIR
set -u
ws=$1 dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$dir" && "$ws" capture -o "$work/f.wscap" --frames 0 -- ./instanced "$work/i.png") > "$work/capture.out" 2>&1 ||
  { cat "$work/capture.out"; exit 1; }
"$ws" replay --pixel 56,30 "$work/f.wscap" > "$work/pixel.out" 2>&1; rc=$?
cat "$work/pixel.out"
fails=0
[ "$rc" = 0 ] || { echo "FAIL: replay --pixel exit $rc"; fails=$((fails+1)); }
grep -Eq "^    primitive [01] instance 43 \(front\)  shader out" "$work/pixel.out" ||
  { echo "FAIL: the fragment's instance is not named"; fails=$((fails+1)); }
[ "$(grep -c "instance" "$work/pixel.out")" = 2 ] || { echo "FAIL: expected the call line and one fragment to name instances"; fails=$((fails+1)); }
"$ws" replay --html "$work/report" --pixel 56,30 "$work/f.wscap" > "$work/html.out" 2>&1 || { cat "$work/html.out"; fails=$((fails+1)); }
grep -Eq '<td>[01] <span class="muted">instance</span> 43 <span class="muted">\(front\)</span></td>' "$work/report/index.html" ||
  { echo "FAIL: the report does not name the instance"; fails=$((fails+1)); }
# one instance: no instance column
(cd "$dir" && "$ws" capture -o "$work/b.wscap" --frames 0 -- ../blend/blend "$work/b.png") > "$work/capture_b.out" 2>&1 ||
  { cat "$work/capture_b.out"; exit 1; }
"$ws" replay --pixel 100,100 "$work/b.wscap" > "$work/pixel_b.out" 2>&1 || { cat "$work/pixel_b.out"; fails=$((fails+1)); }
grep -q "^    primitive [0-9]* (" "$work/pixel_b.out" && ! grep -q " instance [0-9]* (" "$work/pixel_b.out" ||
  { cat "$work/pixel_b.out"; echo "FAIL: a draw of one instance names it"; fails=$((fails+1)); }
echo "$fails failed"
[ "$fails" = 0 ]
