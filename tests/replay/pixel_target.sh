#!/bin/bash
# Pixel history of a chosen render target (--target ID, as --list names
# it), on two captured frames that draw into a target each
# (rd_gfx_program): the history names its target, the report labels a
# call that wrote the other target as such (it said "pixel not touched"),
# and the refusals. Before 2026-11-29 only the last target drawn could be
# asked about from the command line.
#   pixel_target.sh WARPSCOPE PROGRAM SHADERS.elf
set -u
ws=$1 prog=$2 elf=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
"$ws" capture -o "$work/f.wscap" --frames 0-1 -- "$prog" "$elf" 2 > "$work/capture.out" 2>&1 || { cat "$work/capture.out"; exit 1; }
"$ws" replay --list "$work/f.wscap" > "$work/list.out" 2>&1 || { cat "$work/list.out"; exit 1; }
cat "$work/list.out"
first=$(sed -n 's/.*ws_gfx_present(target \([0-9]*\)[,)].*/\1/p' "$work/list.out" | head -1)
last=$(sed -n 's/.*ws_gfx_present(target \([0-9]*\)[,)].*/\1/p' "$work/list.out" | tail -1)
made=$(grep -E "ws_gfx_target_create" "$work/list.out" | tail -1 | awk '{print $1}')
[ -n "$first" ] && [ -n "$last" ] && [ "$first" != "$last" ] && [ -n "$made" ] || { echo "FAIL: expected two targets"; exit 1; }

# the default: the last target drawn, named
"$ws" replay --pixel 8,16 "$work/f.wscap" > "$work/last.out" 2>&1 || fail "default target: $(cat "$work/last.out")"
grep -Eq "^pixel \(8,16\) of render target $last \(32x32\): 3 events in 3 calls$" "$work/last.out" ||
  fail "the history does not name target $last: $(head -1 "$work/last.out")"
# --target: frame 0's target, its own clear and draws only
"$ws" replay --pixel 8,16 --target "$first" "$work/f.wscap" > "$work/first.out" 2>&1 || fail "--target $first: $(cat "$work/first.out")"
cat "$work/first.out"
grep -Eq "^pixel \(8,16\) of render target $first \(32x32\): 3 events in 3 calls$" "$work/first.out" ||
  fail "--target $first: $(head -1 "$work/first.out")"
while read -r _ n _; do
  [ "$n" -lt "$made" ] || fail "call $n wrote the second target, not target $first"
done < <(grep -E "^call [0-9]+ " "$work/first.out")
grep -Eq "frame end: colour \(  0 255   0 255\)" "$work/first.out" || fail "frame 0's target does not end green at (8,16)"
"$ws" replay --pixel 8,16 --target "$first" --json - "$work/f.wscap" | grep -q "\"id\": *$first" ||
  fail "the JSON does not name target $first"

# the report: calls into the other target are labelled so, not "not touched"
"$ws" replay --html "$work/r" --pixel 8,16 "$work/f.wscap" > /dev/null 2>&1 || fail "report"
n_other=$(grep -o "another target: target $first (the pixel is of target $last)" "$work/r/index.html" | wc -l)
n_work=$(awk -v m="$made" '$1 < m && / ws_gfx_(clear|draw)/' "$work/list.out" | wc -l)
[ "$n_other" -gt 0 ] && [ "$n_other" = "$n_work" ] || fail "$n_other cards say another target, $n_work calls wrote target $first"
grep -q "Pixel (8, 16) of target $last: history" "$work/r/index.html" || fail "the report's history does not name target $last"
"$ws" replay --html "$work/r1" --target "$first" --pixel 8,16 "$work/f.wscap" > /dev/null 2>&1 || fail "report --target"
grep -q "Pixel (8, 16) of target $first: history" "$work/r1/index.html" &&
  grep -q "Pixel (8, 16) of target $first (32x32, not the image shown)" "$work/r1/index.html" &&
  grep -q "another target: target $last (the pixel is of target $first)" "$work/r1/index.html" ||
  fail "the report of target $first's pixel"

# refusals: no such target (the capture's matter), no --pixel, not a number
out=$("$ws" replay --pixel 8,16 --target 999 "$work/f.wscap" 2>&1); rc=$?
[ $rc = 1 ] && grep -q "no call of the frame binds render target 999 (its clears and draws write targets $first, $last, as --list names them)" <<< "$out" ||
  fail "--target 999: rc $rc: $out"
out=$("$ws" replay --target "$first" "$work/f.wscap" 2>&1); rc=$?
[ $rc = 2 ] && grep -q "\-\-target names the render target of --pixel" <<< "$out" || fail "--target alone: rc $rc: $out"
out=$("$ws" replay --pixel 8,16 --target x "$work/f.wscap" 2>&1); rc=$?
[ $rc = 2 ] && grep -q "\-\-target 'x': expected a whole number" <<< "$out" || fail "--target x: rc $rc: $out"
echo "$fails failed"
[ "$fails" = 0 ]
