#!/bin/bash
# warpscope trace's files and selectors (tests/trace/CMakeLists.txt):
#   check_cli_files.sh WARPSCOPE UNLOAD_APP CALLS_KERNEL.elf FAULT_KERNEL.elf
ws=$1 app=$2 calls=$3 fault=$4
passes=0 fails=0
ok() { passes=$((passes + 1)); }
bad() { fails=$((fails + 1)); echo "FAIL: $*"; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# two devices, one after the other: both launches in the file, in order
"$ws" trace --tool memtrace --values -o "$dir/two.wst" -- "$app" "$calls" 2 > "$dir/two.txt" 2>&1 || bad "two devices: $(cat "$dir/two.txt")"
"$ws" trace --read "$dir/two.wst" > "$dir/read.txt" 2>&1
grep -c '^launch 1 use_calls' "$dir/read.txt" | grep -qx 2 && ok || bad "two devices' launches: $(grep '^launch' "$dir/read.txt")"
grep '^launch' "$dir/read.txt" | head -1 | grep -q 'grid (2,1,1)' && grep '^launch' "$dir/read.txt" | tail -1 | grep -q 'grid (3,1,1)' &&
    ok || bad "launch order: $(grep '^launch' "$dir/read.txt")"
# ... written again from scratch by the next command (not added to)
"$ws" trace --tool memtrace -o "$dir/two.wst" -- "$app" "$calls" 1 > /dev/null 2>&1
[ "$("$ws" trace --read "$dir/two.wst" | grep -c '^launch')" = 1 ] && ok || bad "a second command added to the old file"
# jsonl carries the stored values the text shows
"$ws" trace --tool memtrace --values -o "$dir/v.wst" -- "$app" "$calls" 1 > /dev/null 2>&1
"$ws" trace --read "$dir/v.wst" --format jsonl | grep '"access":"store"' | head -1 | grep -q '"value":"0x' && ok ||
    bad "jsonl without values"

# a refused option leaves an earlier -o and --report alone (they were
# removed before the options were checked)
echo keep > "$dir/keep.wst"
echo keep > "$dir/keep.txt"
out=$("$ws" trace --tool memtrace -o "$dir/keep.wst" --report "$dir/keep.txt" --launch 0 -- /bin/echo RAN 2>&1); rc=$?
[ $rc = 2 ] && [ "$(cat "$dir/keep.wst" "$dir/keep.txt" 2>&1)" = "keep
keep" ] && ok || bad "a refused option removed the earlier files (rc $rc): $out"

# files that cannot be written: refused before the program runs (below a
# regular file, so for root too: root may create /nonexistent)
: > "$dir/not-a-dir"
out=$("$ws" trace --tool memtrace -o "$dir/not-a-dir/x.wst" -- /bin/echo RAN 2>&1); rc=$?
[ $rc = 2 ] && [[ "$out" == *"-o $dir/not-a-dir/x.wst: cannot write there"* && "$out" != *RAN* ]] && ok || bad "-o unwritable (rc $rc): $out"
out=$("$ws" trace --tool memtrace --report "$dir/not-a-dir/r.txt" -- /bin/echo RAN 2>&1); rc=$?
[ $rc = 2 ] && [[ "$out" == *"--report $dir/not-a-dir/r.txt: cannot write there"* ]] && ok || bad "--report unwritable (rc $rc): $out"

# an output that is a device is written, never replaced or removed (the
# file was written beside it and renamed over it: -o /dev/null replaced
# /dev/null); a private null device when mknod is allowed (root)
if mknod "$dir/null" c 1 3 2> /dev/null; then
    out=$("$ws" trace --tool memtrace -o "$dir/null" --report "$dir/null" -- "$app" "$calls" 1 2>&1)
    [ -c "$dir/null" ] && [[ "$out" != *cannot* ]] && ok || bad "-o/--report to a device: $out"
fi

# dump after a fault: the records up to it, and the program's status
"$ws" trace --tool dump -- "$ws" run --grid 8 --block 32 "$fault" late_fault zeros:4096 5 > "$dir/dump.txt" 2>&1; rc=$?
[ $rc != 0 ] && grep -q '^thread ' "$dir/dump.txt" && ok || bad "dump after a fault (rc $rc): $(grep -c '^thread' "$dir/dump.txt") threads"

# selectors that match nothing say so; bad numbers are refused
# (status 1, as --read's "no launch matched"; it was 0)
out=$("$ws" trace --tool bbcount --kernel no_such_kernel -- "$app" "$calls" 2>&1); rc=$?
[ $rc = 1 ] && [[ "$out" == *"no launch was traced: none matched --kernel no_such_kernel"* ]] && ok ||
    bad "--kernel typo (rc $rc): $out"
out=$("$ws" trace --tool bbcount --launch -1 -- /bin/echo RAN 2>&1); rc=$?
[ $rc = 2 ] && [[ "$out" == *"warpscope trace: --launch -1: expected a number from 1"* ]] && ok || bad "--launch -1 (rc $rc): $out"
out=$("$ws" trace --read "$dir/v.wst" --format perfetto 2>&1); rc=$?
[ $rc = 1 ] && [[ "$out" == *"has no warp records"* ]] && ok || bad "perfetto without warp records (rc $rc): $out"
"$ws" trace --tool branch -o "$dir/b.wst" -- "$app" "$calls" 1 > /dev/null 2>&1
out=$("$ws" trace --read "$dir/b.wst" --format perfetto --warp 999 2>&1); rc=$?
[ $rc = 1 ] && [[ "$out" == *"warp 999 has no records (its warps are 0 to "* ]] && ok || bad "--warp 999 (rc $rc): $out"
# two devices' launches in Perfetto: each launch its own process (pid = the
# program's launch number, named by a metadata event); with pid = launch id
# both devices' launch 1 shared tracks, slices on top of one another
"$ws" trace --tool branch -o "$dir/b2.wst" -- "$app" "$calls" 2 > /dev/null 2>&1
"$ws" trace --read "$dir/b2.wst" --format perfetto --warp 0 | python3 -c '
import json, sys
e = json.load(sys.stdin)["traceEvents"]
x = [(v["pid"], v["tid"], v["ts"]) for v in e if v["ph"] == "X"]
names = sorted(v["args"]["name"] for v in e if v["name"] == "process_name")
sys.exit(not x or len(x) != len(set(x)) or len({p for p, _, _ in x}) != 2 or names != ["launch 1 use_calls (calls_kernel.elf) on device 1", "launch 2 use_calls (calls_kernel.elf) on device 2 (device 2\x27s launch 1)"])' &&
    ok || bad "two devices in perfetto: $("$ws" trace --read "$dir/b2.wst" --format perfetto --warp 0 2>&1 | head -c 300)"
# a warp number past 32 bits is refused, not taken modulo 2^32 (it printed warp 0)
out=$("$ws" trace --read "$dir/b.wst" --format perfetto --warp 4294967296 2>&1); rc=$?
[ $rc = 2 ] && [[ "$out" == *"--warp 4294967296: expected a warp number"* ]] && ok || bad "--warp 2^32 (rc $rc): $(head -c 200 <<< "$out")"
"$ws" trace --read "$dir/b.wst" --format perfetto --warp 1 | python3 -c 'import json,sys; assert json.load(sys.stdin)["traceEvents"]' &&
    ok || bad "perfetto of warp 1"

# dump reads its records back from -o: to a device it still prints them
# (it failed: "/dev/null: not a warpscope trace file")
out=$("$ws" trace --tool dump -o /dev/null -- "$app" "$calls" 1 2>&1); rc=$?
[ $rc = 0 ] && [[ "$out" == *"launch 1 use_calls"* ]] && [[ "$out" != *"not a warpscope trace"* ]] && ok ||
    bad "dump -o /dev/null (rc $rc): $(head -c 300 <<< "$out")"

# -o and --report naming one file (by one path, another path, or a hard
# link): refused before the program runs, since the report would be written
# into the trace (until 2026-11-28 that ran, exited 0 and left a trace that
# --read called corrupt)
touch "$dir/linked.wst" && ln -f "$dir/linked.wst" "$dir/link2.wst"
for pair in "$dir/one.wst $dir/one.wst" "$dir/one.wst $dir/../$(basename "$dir")/one.wst" "$dir/linked.wst $dir/link2.wst"; do
    set -- $pair
    out=$(cd "$dir" && "$ws" trace --tool memtrace -o "$1" --report "$2" -- "$app" "$calls" 1 2>&1); rc=$?
    [ $rc = 2 ] && [ "$out" = "warpscope trace: -o $1 and --report $2 are one file: the report would be written into the trace, which then cannot be read; give them two files" ] &&
        ok || bad "-o $1 --report $2 (rc $rc): $(head -c 300 <<< "$out")"
done
[ ! -e "$dir/one.wst" ] && ok || bad "a refused -o/--report pair was created"
out=$(cd "$dir" && "$ws" trace --tool memtrace -o one.wst --report /dev/null -- "$app" "$calls" 1 2>&1); rc=$?
[ $rc = 0 ] && "$ws" trace --read "$dir/one.wst" > /dev/null && ok || bad "-o one.wst --report /dev/null (rc $rc): $(head -c 300 <<< "$out")"

echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
