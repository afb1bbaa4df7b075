#!/bin/bash
# Two devices of one program each launch `work` of one module: every place
# the tracer names a launch says which device ran it once the trace holds
# several (the report, --read in text, JSON and Perfetto, --host-time), and
# --read --device picks one device's launches.
# Until 2026-11-27 both read "launch 1 work (work_a_kernel.elf)".
#   check_two_devices.sh WARPSCOPE two_devices_app work_a.elf
set -u
ws=$1 app=$2 k=$3
passes=0 fails=0
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
"$ws" trace --tool dump --host-time -o twodev.wst -- "$app" "$k" > twodev.out 2> twodev.err || bad "exit status $?"
grep -E '^(launch|warpscope trace)' twodev.out
[ "$(grep -c 'sum 4032' twodev.out)" = 2 ] && ok || bad "the program's results: $(grep sum twodev.out)"
# the report: device 1 closed first, but the program had opened a second
# (until 2026-11-28 its section named no device: it could not know)
grep -q '^warpscope trace (dump), device 1: 1 launch traced$' twodev.out &&
    grep -q '^warpscope trace (dump), device 2: 1 launch traced$' twodev.out &&
    grep -q '^launch 1: work (work_a_kernel.elf) on device 1 grid (2,1,1)' twodev.out &&
    grep -q '^launch 1: work (work_a_kernel.elf) on device 2 grid (2,1,1)' twodev.out && ok || bad "report"
# --host-time names launches by the program's launch number, one per
# launch over both devices (until 2026-11-28 both were "launch 1", device
# 1's naming no device)
[ "$(sed 's/ host time:.*//' twodev.err)" = "$(printf "warpscope trace: launch 1 work (work_a_kernel.elf) on device 1\nwarpscope trace: launch 2 work (work_a_kernel.elf) on device 2 (device 2's launch 1)")" ] &&
    ok || bad "host time: $(cat twodev.err)"
# the file holds both devices: every label names its device, and they differ
"$ws" trace --read twodev.wst > twodev.read || bad "--read"
# (and device 2's launch 1 is the program's launch 2, the number --launch takes)
[ "$(grep '^launch' twodev.read | sed 's/ grid.*//')" = "$(printf "launch 1 work (work_a_kernel.elf) on device 1\nlaunch 1 work (work_a_kernel.elf) on device 2 (the program's launch 2)")" ] &&
    ok || bad "--read: $(grep '^launch' twodev.read)"
"$ws" trace --read twodev.wst --format jsonl | python3 -c '
import json, sys
heads = [(r["launch"], r["kernel"], r.get("device"), r.get("launch_number")) for r in map(json.loads, sys.stdin) if "kernel" in r]
sys.exit(heads != [(1, "work", 1, 1), (1, "work", 2, 2)])' && ok || bad "jsonl: $("$ws" trace --read twodev.wst --format jsonl | grep kernel)"
"$ws" trace --read twodev.wst --format perfetto --warp 0 | python3 -c '
import json, sys
e = json.load(sys.stdin)["traceEvents"]
names = sorted(v["args"]["name"] for v in e if v["name"] == "process_name")
sys.exit(names != ["launch 1 work (work_a_kernel.elf) on device 1", "launch 2 work (work_a_kernel.elf) on device 2 (device 2\x27s launch 1)"])' &&
    ok || bad "perfetto names"
# every JSON record names its launch as its launch record does: with two
# devices, by launch id and device (until 2026-11-28 the thread, access and
# warp records said "launch":1 alone, for both devices' launches)
"$ws" trace --read twodev.wst --format jsonl | python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.stdin]
heads = {(r["launch"], r["device"]) for r in recs if "kernel" in r}
rest = [r for r in recs if "kernel" not in r]
keys = {(r["launch"], r.get("device")) for r in rest}
kinds = {k for r in rest for k in ("thread", "warp", "access") if k in r}
sys.exit(not (heads == keys == {(1, 1), (1, 2)} and kinds == {"thread", "warp", "access"}))' &&
    ok || bad "jsonl records' launch and device: $("$ws" trace --read twodev.wst --format jsonl | grep -v kernel | sort -u -t, -k1,2 | head -4)"
# Perfetto: a process per launch, its pid the program's launch number (the
# same when --read --device 2 exports device 2 alone: until 2026-11-28 it
# was pid 1 there, as device 1's launch in the whole file), each lane's
# track named with its device; every slice in a named process and track
perfetto_check='
import json, sys
e = json.load(sys.stdin)["traceEvents"]
want = {int(k): v for k, v in (a.split("=") for a in sys.argv[1:])}
procs = {v["pid"]: v["args"]["name"] for v in e if v["name"] == "process_name"}
lanes = {(v["pid"], v["tid"]): v["args"]["name"] for v in e if v["name"] == "thread_name"}
slices = [v for v in e if v["ph"] == "X"]
ok = len(procs) == len([v for v in e if v["name"] == "process_name"]) and sorted(procs) == sorted(want)
for pid, dev in want.items():
    ok = ok and ("launch %d work (work_a_kernel.elf) on device %s" % (pid, dev)) in procs[pid]
    tids = sorted({v["tid"] for v in slices if v["pid"] == pid})
    ok = ok and tids == list(range(32)) and all(lanes.get((pid, t)) == "lane %d on device %s" % (t, dev) for t in tids)
ok = ok and all(v["pid"] in procs for v in slices) and len(lanes) == 32 * len(want)
sys.exit(not ok)'
"$ws" trace --read twodev.wst --format perfetto | python3 -c "$perfetto_check" 1=1 2=2 && ok || bad "perfetto ids"
"$ws" trace --read twodev.wst --format perfetto --device 2 | python3 -c "$perfetto_check" 2=2 && ok || bad "perfetto ids of --device 2"
# --read --device N: one device's launches
[ "$("$ws" trace --read twodev.wst --launch 2 --device 2 | grep -c '^launch')" = 1 ] &&
    "$ws" trace --read twodev.wst --device 2 | grep -q '^launch 1 work (work_a_kernel.elf) on device 2 (the program.s launch 2) grid' &&
    ok || bad "--read --device 2"
# --read --launch N picks the launch run-time --launch N traced, the
# program's Nth (until 2026-11-28 it picked by each device's own id: --launch 1
# showed both devices' launches, --launch 2 none)
for n in 1 2; do
    out=$("$ws" trace --read twodev.wst --launch $n | grep '^launch')
    [ "$(grep -c . <<< "$out")" = 1 ] && [[ "$out" == *"on device $n"* ]] && ok || bad "--read --launch $n: $out"
done
# a version 2 file (the fuzz corpus's, after its mode byte) has no launch
# numbers: --launch picks by launch id there, and JSON has no launch_number
tail -c +2 "$(dirname "$0")/../../fuzz/trace_file/corpus/file_two_devices_v2" > v2.wst
[ "$("$ws" trace --read v2.wst --launch 1 | grep -c '^launch 1 seed_a (seed_g) on device [12] grid')" = 2 ] &&
    ! "$ws" trace --read v2.wst --format jsonl | grep -q launch_number && ok || bad "--read --launch 1 of a version 2 file"
# a version 3 file (no stage, no draw) reads too: its launches are kernels
tail -c +2 "$(dirname "$0")/../../fuzz/trace_file/corpus/file_two_devices_v3" > v3.wst
"$ws" trace --read v3.wst --format jsonl > v3.jsonl && grep -q launch_number v3.jsonl && ! grep -q '"stage"' v3.jsonl &&
    ! "$ws" trace --read v3.wst | grep -q 'shader of draw' && ok || bad "--read of a version 3 file: $(cat v3.jsonl)"
out=$("$ws" trace --read twodev.wst --launch 3 2>&1); rc=$?
[ $rc = 1 ] && [ "$out" = "warpscope trace: twodev.wst: no launch matched --launch 3" ] && ok || bad "--read --launch 3 (rc $rc): $out"
out=$("$ws" trace --read twodev.wst --device 3 2>&1); rc=$?
[ $rc = 1 ] && [ "$out" = "warpscope trace: twodev.wst: no launch matched --device 3 (its devices are 1 to 2)" ] &&
    ok || bad "--read --device 3 (rc $rc): $out"
# --launch N is the program's Nth launch, counted over both devices in the
# order they start: 1 is device 1's, 2 device 2's (until 2026-11-28 each
# device counted its own: --launch 1 traced both, --launch 2 none)
for n in 1 2; do
    "$ws" trace --tool bbcount --launch $n -- "$app" "$k" > launch$n.out 2> launch$n.err; rc=$?
    [ $rc = 0 ] && [ "$(grep -c '^launch 1: work' launch$n.out)" = 1 ] && ! grep -q 'no launch was traced' launch$n.err ||
        bad "--launch $n (rc $rc): $(grep -E '^(launch|warpscope)' launch$n.out) $(cat launch$n.err)"
done
grep -q '^warpscope trace (bbcount), device 1: 1 launch traced$' launch1.out &&
    grep -q '^warpscope trace (bbcount), device 2: 0 launches traced$' launch1.out && ok || bad "--launch 1: $(grep '^warpscope' launch1.out)"
"$ws" trace --tool bbcount --launch 2 -o launch2.wst -- "$app" "$k" > /dev/null 2>&1
[ "$("$ws" trace --read launch2.wst --launch 2 | grep -c '^launch 1 work (work_a_kernel.elf) on device 2 (the program.s launch 2)')" = 1 ] &&
    ok || bad "--read --launch 2 of run-time --launch 2's file: $("$ws" trace --read launch2.wst 2>&1 | grep launch)"
grep -q '^warpscope trace (bbcount), device 1: 0 launches traced$' launch2.out &&
    grep -q '^warpscope trace (bbcount), device 2: 1 launch traced$' launch2.out && ok || bad "--launch 2: $(grep '^warpscope' launch2.out)"
"$ws" trace --tool bbcount --launch 3 -- "$app" "$k" > launch3.out 2> launch3.err; rc=$?
[ $rc = 1 ] && grep -q '^warpscope trace: no launch was traced: none matched --launch 3$' launch3.err && ok ||
    bad "--launch 3 (rc $rc): $(cat launch3.err)"
# run-time --device D: the Dth device the program opens is traced, the
# other runs its launch untraced (same results, no host time, no records);
# --launch N still counts the program's launches (until 2026-11-28
# --device was refused without --read)
"$ws" trace --tool dump --device 2 --host-time -o dev2.wst -- "$app" "$k" > dev2.out 2> dev2.err; rc=$?
[ $rc = 0 ] && [ "$(grep -c 'sum 4032' dev2.out)" = 2 ] && grep -q '^warpscope trace (dump), device 1: 0 launches traced$' dev2.out &&
    grep -q '^warpscope trace (dump), device 2: 1 launch traced$' dev2.out && [ "$(grep -c 'host time' dev2.err)" = 1 ] &&
    grep -q '^warpscope trace: launch 2 work (work_a_kernel.elf) on device 2 (device 2.s launch 1) host time' dev2.err && ok || bad "--device 2 (rc $rc): $(grep -E '^(launch|warpscope)' dev2.out) $(cat dev2.err)"
[ "$("$ws" trace --read dev2.wst | grep '^launch' | sed 's/ grid.*//')" = "launch 1 work (work_a_kernel.elf) on device 2 (the program's launch 2)" ] &&
    ok || bad "--read of --device 2's file: $("$ws" trace --read dev2.wst 2>&1 | grep launch)"
"$ws" trace --tool bbcount --device 2 --launch 2 -- "$app" "$k" > dev2l2.out 2>&1 &&
    grep -q '^launch 1: work (work_a_kernel.elf) on device 2 grid' dev2l2.out && ok || bad "--device 2 --launch 2: $(cat dev2l2.out)"
out=$("$ws" trace --tool bbcount --device 2 --launch 1 -- "$app" "$k" 2>&1 >/dev/null); rc=$?
[ $rc = 1 ] && [ "$out" = "warpscope trace: no launch was traced: none matched --launch 1 --device 2" ] && ok ||
    bad "--device 2 --launch 1 (rc $rc): $out"
out=$("$ws" trace --tool bbcount --device 3 -- "$app" "$k" 2>&1 >/dev/null); rc=$?
[ $rc = 1 ] && [ "$out" = "warpscope trace: no launch was traced: none matched --device 3 ($app opened 2 devices)" ] && ok ||
    bad "--device 3 (rc $rc): $out"
out=$("$ws" trace --tool bbcount --device 0 -- "$app" "$k" 2>&1); rc=$?
[ $rc = 2 ] && [ "$out" = "warpscope trace: --device 0: expected a device number from 1" ] && ok || bad "--device 0 (rc $rc): $out"
# devices are numbered as they open, so run-time --device 2 and the file's
# device 2 are one device also when the program closes the second first
# (it was numbered 1 there, by closing order, until 2026-11-28)
"$ws" trace --tool bbcount --device 2 -o rev2.wst -- "$app" "$k" reverse > rev2.out 2>&1 &&
    [ "$("$ws" trace --read rev2.wst | grep '^launch' | sed 's/ grid.*//')" = "launch 1 work (work_a_kernel.elf) on device 2 (the program's launch 2)" ] &&
    grep -q '^warpscope trace (bbcount), device 2: 1 launch traced$' rev2.out &&
    grep -q '^warpscope trace (bbcount), device 1: 0 launches traced$' rev2.out && ok ||
    bad "--device 2, closed first: $(grep -E '^(launch|warpscope)' rev2.out) $("$ws" trace --read rev2.wst 2>&1 | grep launch)"
"$ws" trace --tool bbcount -o rev.wst -- "$app" "$k" reverse > /dev/null 2>&1 &&
    [ "$("$ws" trace --read rev.wst --device 2 | grep '^launch' | sed 's/ grid.*//')" = "launch 1 work (work_a_kernel.elf) on device 2 (the program's launch 2)" ] &&
    ok || bad "--read --device 2 of a program closing it first: $("$ws" trace --read rev.wst 2>&1 | grep launch)"
# one device: labels as before, no device named (also in Perfetto, whose
# output is as before: pid 1, no track names)
"$ws" trace --tool branch --host-time -o onedev.wst -- "$ws" run --grid 2 --block 32 "$k" work zeros:64 > onedev.out 2>&1
"$ws" trace --read onedev.wst | grep -q '^launch 1 work (work_a_kernel.elf) grid' && ! grep -Eq 'on device|, device [0-9]' onedev.out &&
    grep -q '^warpscope trace: launch 1 work (work_a_kernel.elf) host time' onedev.out &&
    ok || bad "one device: $(grep -E '^(launch|warpscope)' onedev.out)"
"$ws" trace --read onedev.wst --format perfetto > onedev.json
[ "$(sed -n 2p onedev.json)" = '{"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"launch 1 work (work_a_kernel.elf)"}},' ] &&
    ! grep -q thread_name onedev.json && ok || bad "one device, Perfetto: $(head -3 onedev.json)"
! "$ws" trace --read onedev.wst --format jsonl | grep -v '"kernel"' | grep -q '"device"' && ok || bad "one device, jsonl records name a device"
echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
