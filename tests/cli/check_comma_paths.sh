#!/bin/bash
# The tool commands with files in a directory whose name has a comma (and a
# double quote and a backslash), and with TMPDIR there: capture, trace,
# watch, profile and debug pass their files to the program's tools in
# comma-separated settings (WARPSCOPE_CAPTURE, _TRACE, _WATCH, _PROFILE,
# _DEBUG),
# where such a value goes in double quotes (src/runtime/settings_text.h).
# Until 2026-11-27 they refused it ("-o needs a value without commas",
# "a capture path cannot contain a comma", a relative -o too when the
# working directory had a comma), so a clone at a path with a comma failed
# 57 tests; with TMPDIR there, profile and watch lost their own files.
#   usage: check_comma_paths.sh WARPSCOPE VECADD WORKDIR
set -uo pipefail
ws=$1 vecadd=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
# debug_until WANT ARGS...: `warpscope debug ARGS -- VECADD` until its output
# (in $out) holds WANT, at most 10 s; then ended as timeout(1) ends it at
# expiry: SIGTERM to its process group (the program waiting for gdb too),
# SIGKILL 5 s later. (-k 5: under the sanitizers, LeakSanitizer's check at
# the exit of the SIGTERMed command once hung with a second SIGTERM arriving
# during it. Until 2026-11-29 each run waited out a 5 s timeout: 20 of the
# test's 26 s.)
debug_until() {
    local want=$1 pid
    shift
    timeout -k 5 10 "$ws" debug "$@" -- "$vecadd" > "$work/debug.out" 2>&1 &
    pid=$!
    for _ in $(seq 200); do
        grep -qF -- "$want" "$work/debug.out" && break
        sleep 0.05
    done
    kill -TERM "$pid" 2>/dev/null
    wait "$pid"
    out=$(cat "$work/debug.out")
}
d="$work/a,b \"q\\z\""
mkdir -p "$d" "$work/t,mp" || exit 1
cd "$d" || exit 1
for tmp in "" "$work/t,mp"; do
    export TMPDIR=${tmp:-/tmp}
    rm -f "$d"/*
    out=$("$ws" capture -o "$d/v.wscap" -- "$vecadd" 2>&1) && [ -s "$d/v.wscap" ] && ok ||
        bad "capture -o '$d/v.wscap' (TMPDIR $TMPDIR): $out"
    out=$("$ws" replay "$d/v.wscap" 2>&1) && [[ $out == *"bit-identical"* ]] && ok || bad "replay of it: $out"
    out=$("$ws" capture -o rel.wscap -- "$vecadd" 2>&1) && [ -s "$d/rel.wscap" ] && ok ||
        bad "capture -o rel.wscap in '$d': $out"
    out=$("$ws" trace --tool memtrace -o "$d/t.wst" -- "$vecadd" 2>&1) && [ -s "$d/t.wst" ] && ok ||
        bad "trace -o '$d/t.wst' (TMPDIR $TMPDIR): $out"
    "$ws" trace --read "$d/t.wst" > "$work/read.out" 2>&1 && grep -q "^launch 1 vecadd" "$work/read.out" && ok ||
        bad "trace --read '$d/t.wst': $(head -3 "$work/read.out")"
    out=$("$ws" watch --stats -o "$d/e.wsev" -- "$vecadd" 2>&1) && [ -s "$d/e.wsev" ] && ok ||
        bad "watch -o '$d/e.wsev' (TMPDIR $TMPDIR): $out"
    "$ws" watch --read "$d/e.wsev" > "$work/read.out" 2>&1 && grep -q "cp.fetch" "$work/read.out" && ok ||
        bad "watch --read '$d/e.wsev': $(head -3 "$work/read.out")"
    out=$("$ws" profile --json "$d/p.json" --report "$d/r.txt" -- "$vecadd" 2>&1) && [ -s "$d/p.json" ] &&
        [ -s "$d/r.txt" ] && ok || bad "profile --json/--report in '$d' (TMPDIR $TMPDIR): $out"
    # the gdb server's settings (WARPSCOPE_DEBUG) too: --port-file and --socket there.
    # (The command prints its line once the program's server wrote the port file.)
    debug_until "listening on 127.0.0.1:" --port-file "$d/port"
    [[ $out == *"listening on 127.0.0.1:"* ]] && grep -qx "[0-9]*" "$d/port" && ok ||
        bad "debug --port-file '$d/port' (TMPDIR $TMPDIR): $out"
    debug_until "listening on $d/s.sock" --socket "$d/s.sock"
    [[ $out == *"listening on $d/s.sock"* ]] && ok || bad "debug --socket '$d/s.sock' (TMPDIR $TMPDIR): $out"
done
[ -z "$(ls -A "$work/t,mp")" ] && ok || bad "files left in TMPDIR: $(ls -A "$work/t,mp")"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
