#!/bin/bash
# Launches with structs by value are captured with their bytes and replay
# bit-identical; `replay --list` shows the bytes. The tracer's passes and
# the profiler's run them too (their twins and passes reuse the launch's
# placed arguments, copies included). (Structs by value came
# 2026-11-29; a capture file keeps them after the launch's arguments.)
#   usage: struct_args.sh WARPSCOPE STRUCT_ARGS KERNELS.elf WORKDIR
set -uo pipefail
ws=$1 prog=$2 elf=$3 work=$4
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0 pass=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
"$ws" capture -o "$work/s.wscap" --frames all -- "$prog" "$elf" > "$work/run.txt" 2>&1 || bad "capture: $(cat "$work/run.txt")"
grep -q "^k_fi: x 2.5 n -17$" "$work/run.txt" && grep -q "^k_big: lane 3 v0 6 v4 5$" "$work/run.txt" &&
    ok "the program's launches read their structs" || bad "program output: $(cat "$work/run.txt")"
"$ws" replay --loop 3 "$work/s.wscap" > "$work/loop.txt" 2>&1
grep -q "every pass bit-identical" "$work/loop.txt" && ok "3 replays bit-identical to the capture" ||
    bad "replay: $(cat "$work/loop.txt")"
"$ws" replay --list "$work/s.wscap" > "$work/calls.txt" 2>&1
grep -q "ws_launch(k_fi, grid (1,1,1), block (4,1,1), shared 0, 0x[0-9a-f]*, {8 bytes: 00 00 20 40 ef ff ff ff})$" "$work/calls.txt" &&
    ok "--list shows k_fi's struct bytes (2.5f, -17)" || bad "--list: $(grep ws_launch "$work/calls.txt")"
grep -q "ws_launch(k_big, .*{32 bytes: 03 00 00 00 01 00 00 00 04 00 00 00 01 00 00 00 ...}" "$work/calls.txt" &&
    ok "--list shows k_big's first 16 bytes" || bad "--list k_big: $(grep ws_launch "$work/calls.txt")"
"$ws" trace --tool memtrace -- "$prog" "$elf" > "$work/trace.txt" 2>&1
[ "$(grep -c 'results: the instrumented run left global memory identical' "$work/trace.txt")" = 2 ] &&
    [ "$(grep -c 'device counter: [0-9]* (match)' "$work/trace.txt")" = 2 ] && grep -q "^k_big: lane 3 v0 6 v4 5$" "$work/trace.txt" &&
    ok "traced: both launches, identical results, counters match" || bad "trace: $(cat "$work/trace.txt")"
"$ws" profile -- "$prog" "$elf" > "$work/profile.txt" 2>&1
grep -q "^k_big: lane 3 v0 6 v4 5$" "$work/profile.txt" && grep -q "^Kernel k_big " "$work/profile.txt" &&
    ok "profiled" || bad "profile: $(cat "$work/profile.txt")"
# its loads from the lanes' copies: the local-memory advice names the parameter
grep -q "local memory latency: .*: the kernel's parameter 'p' (s_big, 32 bytes) is passed by value as the address of each lane's own copy on its stack" "$work/profile.txt" &&
    ok "the local-memory advice names the struct parameter" || bad "advice: $(grep 'local memory' "$work/profile.txt")"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
