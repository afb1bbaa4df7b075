#!/bin/bash
# warpscope trace, profile, watch and capture killed by SIGTERM while their
# program runs: the signal is passed on to the program, which ends with
# them, and their temporary files (in TMPDIR) are removed. Before
# 2026-11-27 the command died alone: the program ran on, orphaned, and
# /tmp/warpscope-trace-XXXXXX (and the like) stayed; trace, profile and
# watch ignored TMPDIR.
#   usage: check_tool_sigterm.sh WARPSCOPE WORKDIR SLEEPER (a program that sleeps 60 s)
set -u
ws=$1 work=$2 sleeper=$3
rm -rf "$work" && mkdir -p "$work/tmp" || exit 1
export TMPDIR="$work/tmp"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
for i in 1 2 3 4; do
    case $i in
    1) tool=(trace --tool bbcount --) ;;
    2) tool=(profile -q --) ;;
    3) tool=(watch --) ;;
    4) tool=(capture -o "$work/c.wscap" --) ;;
    esac
    "$ws" "${tool[@]}" "$sleeper" > "$work/out.txt" 2>&1 &
    pid=$!
    prog=
    for _ in $(seq 300); do prog=$(pgrep -P $pid -x "$(basename "$sleeper")") && break; sleep 0.05; done
    [ -n "$prog" ] || { bad "${tool[0]}: the program never started: $(cat "$work/out.txt")"; kill -KILL $pid 2> /dev/null; wait $pid; continue; }
    kill -TERM $pid
    for _ in $(seq 200); do kill -0 $pid 2> /dev/null || break; sleep 0.05; done
    if kill -0 $pid 2> /dev/null; then bad "${tool[0]}: still running 10 s after SIGTERM"; kill -KILL $pid; fi
    wait $pid; rc=$?
    [ $rc = 143 ] && ok || bad "${tool[0]}: exit status $rc, not 143 (128 + SIGTERM): $(cat "$work/out.txt")"
    if kill -0 "$prog" 2> /dev/null; then bad "${tool[0]}: its program still runs after SIGTERM"; kill -KILL "$prog"; else ok; fi
    left=$(ls -A "$TMPDIR")
    [ -z "$left" ] && ok || bad "${tool[0]}: left in TMPDIR: $left"
    rm -rf "${TMPDIR:?}"/*
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
