#!/bin/bash
# Both tools number a program's devices in the order it opens them, also
# when it closes them the other way: device 1 runs work_a's `work`, device
# 2 work_b's, and device 2 closes first. Until 2026-11-28 `warpscope
# profile` numbered them as they closed (work_b's section said device 1),
# while `warpscope trace` numbered them as they opened.
#   check_open_order.sh WARPSCOPE two_devices_app work_a.elf work_b.elf
set -u
ws=$1 app=$2 ka=$3 kb=$4
passes=0 fails=0
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
# the device of each section's kernel, "N MODULE" lines in the order written
"$ws" trace --tool bbcount -- "$app" "$ka" reverse "$kb" > order_trace.out 2>&1 || bad "trace: exit status $?"
got=$(sed -n 's/^launch 1: work (\(work_[ab]_kernel.elf\)) on device \([0-9]\) .*/\2 \1/p' order_trace.out)
[ "$got" = "$(printf '2 work_b_kernel.elf\n1 work_a_kernel.elf')" ] && ok || bad "trace: $got"
"$ws" profile --json order.json --trace order_trace.json -- "$app" "$ka" reverse "$kb" > order_profile.out 2>&1 ||
    bad "profile: exit status $?"
got=$(grep -E '^(== warpscope profile, device|Kernel work )' order_profile.out | sed -E 's/^== warpscope profile, device ([0-9]).*/\1/; s/^Kernel work [(]([^)]*\/)?([^/)]*)[)].*/\2/' | paste -sd' ')
[ "$got" = "2 work_b_kernel.elf 1 work_a_kernel.elf" ] && ok || bad "profile report: $got"
# the JSON names each device by its number, its array in that order
# (until 2026-11-28 in closing order: device 2, then device 1)
json_devices() {
    python3 -c '
import json, sys
devs = json.load(open(sys.argv[1]))["devices"]
print(" ".join("%s:%s" % (d.get("device"), d["kernels"][0]["module"].rsplit("/", 1)[-1]) for d in devs))' "$1"
}
got=$(json_devices order.json)
[ "$got" = "1:work_a_kernel.elf 2:work_b_kernel.elf" ] && ok || bad "profile JSON: $got"
# the trace's processes: "device D launches" at pid 1024(D-1) + 1023, its
# launch slice as long as device D's kernel ran (work_a and work_b differ)
python3 -c '
import json, sys
runs = {d["launches"][0]["module"].rsplit("/", 1)[-1]: d["launches"][0]["cycles"] for d in json.load(open("order.json"))["devices"]}
cycles = {1: runs["work_a_kernel.elf"], 2: runs["work_b_kernel.elf"]}
e = json.load(open("order_trace.json"))["traceEvents"]
names = {v["pid"]: v["args"]["name"] for v in e if v.get("name") == "process_name"}
durs = {v["pid"]: v["dur"] for v in e if v["ph"] == "X" and v["pid"] % 1024 == 1023}
ok = cycles[1] != cycles[2]
for d in (1, 2):
    ok = ok and names.get(1024 * d - 1) == "device %d launches" % d and durs.get(1024 * d - 1) == cycles[d]
sys.exit(not ok)' && ok || bad "profile trace: $(grep -o '"device [0-9] launches"' order_trace.json)"
# the baseline comparison pairs device N with device N: against a
# baseline of the program closing its devices as they opened, each kernel
# keeps its cycles (they were crossed: work_a's 473 -> work_b's 915)
"$ws" profile -q --json forward.json -- "$app" "$ka" forward "$kb" > /dev/null 2>&1 || bad "forward: exit status $?"
got=$(json_devices forward.json)
[ "$got" = "1:work_a_kernel.elf 2:work_b_kernel.elf" ] && ok || bad "profile JSON, closed as opened: $got"
"$ws" profile -q --baseline forward.json -- "$app" "$ka" reverse "$kb" > order_cmp.out 2>&1 || bad "baseline: exit status $?"
grep -A1 '^  device [12]:' order_cmp.out
[ "$(grep -c 'kernel work: cycles' order_cmp.out)" = 2 ] &&
    ! grep -Eq 'kernel .*(new|gone)|cycles ([0-9]+) -> ([0-9]+)' <(grep -Ev 'cycles ([0-9]+) -> \1 ' order_cmp.out) && ok ||
    bad "baseline: $(cat order_cmp.out)"
echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
