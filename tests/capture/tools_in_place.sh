#!/bin/bash
# The profiler's sample buffer and the tracer's instrumented modules and
# record buffers sit at the top of device memory, and the watcher's event
# trace outside it (since 2026-11-27), out of the program's way: under each tool a program gets the buffer
# addresses it gets without it (same output), and a capture replays under
# them (the replay puts the frame's modules and buffers back at their
# captured addresses). Before, they took the program's memory: every
# address moved under the profiler and the watcher (and `warpscope profile
# -- warpscope replay` failed: "the bytes at 0x01000000 are not free"),
# and every allocation after the first traced launch under the tracer,
# whose program also saw 3 GiB of memory instead of its global_mem_limit.
#   usage: tools_in_place.sh WARPSCOPE WORKDIR REPLAY_IDS KERNEL.elf
set -euo pipefail
ws=$1 work=$2 prog=$3 elf=$4
mkdir -p "$work"
cd "$work"
"$prog" "$elf" 3 > plain.txt
"$ws" profile -q -- "$prog" "$elf" 3 > profiled.txt 2> /dev/null
"$ws" watch -- "$prog" "$elf" 3 > watched.txt 2> /dev/null
grep -q "buffers at 0x" plain.txt
"$ws" trace --tool bbcount -- "$prog" "$elf" 3 > traced.txt 2> /dev/null
"$ws" trace --tool memtrace -o mem.wst -- "$prog" "$elf" 3 > memtraced.txt 2> /dev/null
grep -q "later buffer at 0x" plain.txt
for f in profiled watched traced memtraced; do
    # the program's own lines, which the tool's output follows
    head -n 5 "$f.txt" | cmp - plain.txt || { echo "FAIL: the program's output differs under $f"; cat plain.txt "$f.txt"; exit 1; }
done
# Two tools at once: the second one's buffer was taken from the program's
# memory (the arena could grow only while no tool buffer existed), so a
# program that fitted in its global_mem_limit ran out under both.
n=$((62 * 1024 * 1024 / 4)) # 62 of the 64 MiB
for i in 1 2 3 4; do
    case $i in # (arrays: the path of warpscope may hold a space)
    1) tools=(profile -q --) ;;
    2) tools=(watch --) ;;
    3) tools=(profile -q -- "$ws" watch --) ;;
    4) tools=(trace --tool bbcount -- "$ws" watch --) ;;
    esac
    "$ws" "${tools[@]}" "$ws" run --config global_mem_limit=64M "$elf" ids_tag zeros:$n > big.txt 2>&1 ||
        { cat big.txt; echo "FAIL: 62 of 64 MiB under '${tools[*]}'"; exit 1; }
done
"$ws" capture -o ids.wscap --frames 2 -- "$prog" "$elf" 3 > /dev/null
"$ws" profile -- "$ws" replay --loop 2 ids.wscap > prof_replay.txt 2>&1 || { cat prof_replay.txt; echo "FAIL: profile of a replay"; exit 1; }
grep -q "2 passes of 6 calls: every pass bit-identical" prof_replay.txt
grep -q "10 launches, 3 kernels" prof_replay.txt || { cat prof_replay.txt; echo "FAIL: nothing profiled"; exit 1; }
"$ws" watch --stats -- "$ws" replay ids.wscap > watch_replay.txt 2>&1 || { cat watch_replay.txt; echo "FAIL: watch of a replay"; exit 1; }
grep -q "every pass bit-identical" watch_replay.txt
"$ws" trace --tool bbcount -- "$ws" replay --loop 2 ids.wscap > trace_replay.txt 2>&1 || { cat trace_replay.txt; echo "FAIL: trace of a replay"; exit 1; }
grep -q "2 passes of 6 calls: every pass bit-identical" trace_replay.txt
echo "PASS: the program's addresses and memory unchanged under profile, watch and trace, and two of them; a capture replays under each"
