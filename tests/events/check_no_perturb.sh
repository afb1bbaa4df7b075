#!/bin/bash
# The event watcher must not perturb the program: a program that allocates
# at the top of its global memory (the whole 3040 MiB range, or the default
# 256 MiB), writes there and faults just past it prints the same bytes
# (results, fault messages, launch statistics with timing-mode cycles) alone,
# under WARPSCOPE_WATCH=events=all and under `warpscope watch --format jsonl
# -o`, in both modes. (Until 2026-11-27 the trace buffer sat at the top of the arena: with
# the whole range, the program's ws_malloc_at there failed under watch.)
# Fault messages past the limit are also checked under the profiler.
# Usage: check_no_perturb.sh WARPSCOPE_CLI TOP_APP TOP_KERNELS.elf WORKDIR
set -u
cli=$1 app=$2 elf=$3 work=$4
mkdir -p "$work"
fail=0
unset WARPSCOPE_WATCH WARPSCOPE_WATCH_MACHINES WARPSCOPE_TRACE WARPSCOPE_PROFILE
for cfg in "global_mem_limit=3040M,cores=1" "global_mem_limit=3040M,cores=1,mode=timing" \
           "global_mem_limit=3040M,cores=2,engine=interp" "cores=2"; do
    "$app" "$elf" "$cfg" > "$work/alone.out" 2>&1; rc0=$?
    WARPSCOPE_WATCH=events=all "$app" "$elf" "$cfg" > "$work/env.out" 2>&1; rc1=$?
    # (with jsonl the program's own output goes to stderr, the events to stdout)
    "$cli" watch --events all --format jsonl -o "$work/top.wsev" -- "$app" "$elf" "$cfg" > "$work/cli.jsonl" 2> "$work/cli.out"; rc2=$?
    if [ $rc0 -ne 0 ] || ! grep -q "malloc_at 0x.* 4096: WS_OK" "$work/alone.out" || ! grep -q "synchronize: WS_ERR_KERNEL_FAULT" "$work/alone.out"; then
        echo "FAIL [$cfg]: the program alone did not run as expected (exit $rc0)"; cat "$work/alone.out"; fail=1; continue
    fi
    if [ $rc1 -ne $rc0 ] || ! cmp -s "$work/alone.out" "$work/env.out"; then
        echo "FAIL [$cfg]: WARPSCOPE_WATCH=events=all changed the program (exit $rc0 -> $rc1):"
        diff "$work/alone.out" "$work/env.out"; fail=1
    fi
    if [ $rc2 -ne $rc0 ] || ! cmp -s "$work/alone.out" "$work/cli.out"; then
        echo "FAIL [$cfg]: warpscope watch changed the program (exit $rc0 -> $rc2):"
        diff "$work/alone.out" "$work/cli.out"; fail=1
    fi
    # the watcher did watch: the trace holds the launches' dispatches and the faults
    "$cli" watch --read "$work/top.wsev" --stats > "$work/stats.out" 2>&1
    if ! grep -Eq 'wd.dispatch +[1-9]' "$work/stats.out" || ! grep -Eq 'mem.fault +[1-9]' "$work/stats.out"; then
        echo "FAIL [$cfg]: the trace lacks the launches or the faults:"; cat "$work/stats.out"; fail=1
    fi
done
# A tool whose buffers do live in device memory, in room grown above the
# program's limit (the profiler): a stray store just past the limit is
# still "not mapped on the device", as without the tool (it was "not
# inside any allocation": the grown room was described as the program's).
"$app" "$elf" cores=2 > "$work/alone.out" 2>&1
"$cli" profile -q -- "$app" "$elf" cores=2 > "$work/prof.out" 2> "$work/prof.err"
# (the profiler runs the device in timing mode: the launches' statistics
# have cycles, and are left out)
grep -v "warp instructions," "$work/alone.out" > "$work/alone.nostats"
grep -v "warp instructions," "$work/prof.out" > "$work/prof.nostats"
if ! grep -q "0x11000040: address is not mapped on the device" "$work/alone.out" ||
   ! cmp -s "$work/alone.nostats" "$work/prof.nostats"; then
    echo "FAIL [cores=2]: warpscope profile changed the program:"; diff "$work/alone.nostats" "$work/prof.nostats"; fail=1
fi
[ $fail -eq 0 ] && echo "watch_no_perturb: OK"
exit $fail
