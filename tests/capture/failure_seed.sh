#!/bin/bash
# The capture fuzz corpora hold a failure section (WSCAP_FAILURE, type 12),
# so the fuzzers start from a frame whose work failed and whose replay goes
# on past it (fuzz/replay_capture/make_seeds.sh writes the seeds; until
# 2026-11-27 no seed had one: a real capture was over 100 KB), and a launch
# with structs by value, their bytes after the arguments (since
# 2026-11-29), which replays bit-identical.
#   failure_seed.sh WARPSCOPE CAPTURE_DECODE SOURCE_DIR
set -uo pipefail
ws=$1 decode=$2 src=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
for dir in fuzz/replay_capture/corpus fuzz/capture_file/corpus; do
    found=
    for seed in "$src/$dir"/*; do
        [ "$(head -c 1 "$seed" | od -A n -t u1 | tr -d ' ')" = 1 ] || continue # whole files only
        tail -c +2 "$seed" > "$tmp/s.wscap"
        if "$decode" "$tmp/s.wscap" 2>/dev/null | grep -q "^failure of call"; then found=$seed; break; fi
    done
    [ -n "$found" ] && ok || { bad "$dir: no seed holds a failure section"; continue; }
    size=$(stat -c %s "$found")
    [ "$size" -le 8192 ] && ok || bad "$found: $size bytes (at most 8 KB)"
    out=$("$ws" replay "$tmp/s.wscap" 2>&1)
    [[ $out == *"and the replay went on"*"every pass bit-identical"* ]] && ok ||
        bad "$found: the replay does not go past the failure: $out"
done
for dir in fuzz/replay_capture/corpus fuzz/capture_file/corpus; do
    found=
    for seed in "$src/$dir"/*; do
        [ "$(head -c 1 "$seed" | od -A n -t u1 | tr -d ' ')" = 1 ] || continue
        tail -c +2 "$seed" > "$tmp/s.wscap"
        if "$ws" replay --list "$tmp/s.wscap" 2>/dev/null | grep -q "ws_launch(.*{8 bytes: .*}, {24 bytes: "; then
            found=$seed
            break
        fi
    done
    [ -n "$found" ] && ok || { bad "$dir: no seed holds a launch with structs by value"; continue; }
    size=$(stat -c %s "$found")
    [ "$size" -le 8192 ] && ok || bad "$found: $size bytes (at most 8 KB)"
    out=$("$ws" replay --loop 2 "$tmp/s.wscap" 2>&1)
    [[ $out == *"every pass bit-identical"* ]] && ok || bad "$found: the struct seed does not replay: $out"
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
