#!/bin/bash
# warpscope watch end to end: the event trace of an example decodes in
# every format, a debug machine stops a launch with its reason, bad
# programs and damaged traces get clear errors.
# Usage: check_watch.sh WARPSCOPE EXAMPLES_DIR WORKDIR [TEST_EVENTS [TWO_DEVICE_APP KERNEL.elf]]
set -u
ws=$1 ex=$2 work=$3 test_events=${4:-} two_app=${5:-} two_elf=${6:-}
mkdir -p "$work"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

out=$("$ws" watch --stats -o "$work/r.wsev" -- "$ex/reduction/reduction" 2>&1)
[[ $? = 0 && "$out" == *"wd.dispatch                     128"* && "$out" == *"bits per event"* ]] && ok || bad "stats: $out"
# no events traced: the count says so, and no ratio to the peer is made of
# nothing (it printed "zstd -3 ...: 9 bytes, 0.00 bits per event (0.00x ours)")
out=$("$ws" watch --stats --events dbg -- "$ex/vecadd/vecadd" 2>&1)
[[ $? = 0 && "$out" == *"0 events in 0 bytes"* && "$out" != *"zstd -3"* ]] && ok || bad "stats of no events: $out"
"$ws" watch --read "$work/r.wsev" --format jsonl > "$work/r.jsonl" &&
    python3 -c "import json,sys; n=sum(1 for l in open(sys.argv[1]) if json.loads(l)['event']=='wd.retire'); sys.exit(n!=128)" "$work/r.jsonl" &&
    ok || bad "jsonl: 128 wd.retire expected"
"$ws" watch --read "$work/r.wsev" --format perfetto > "$work/r.json" &&
    python3 -c "import json,sys; e=json.load(open(sys.argv[1]))['traceEvents']; sys.exit(len(e) < 100)" "$work/r.json" &&
    ok || bad "perfetto"
# docs/events.md's `watch --format perfetto -- PROGRAM > g.json`: the
# program's own output goes to stderr, so stdout is one JSON document
"$ws" watch --format perfetto -- "$ex/gather/gather" > "$work/g.json" 2> "$work/g.err" &&
    python3 -c "import json,sys; e=json.load(open(sys.argv[1]))['traceEvents']; sys.exit(len(e) < 100)" "$work/g.json" &&
    grep -q "gather .*PASS" "$work/g.err" && ok || bad "perfetto of a running program: $(head -c 300 "$work/g.json")"
"$ws" watch --format jsonl -- "$ex/gather/gather" 2> /dev/null > "$work/g.jsonl" &&
    python3 -c "import json,sys; sys.exit(sum(1 for l in open(sys.argv[1]) if json.loads(l)['event']) < 100)" "$work/g.jsonl" &&
    ok || bad "jsonl of a running program: $(head -c 300 "$work/g.jsonl")"
# determinism: the same program, the same trace bytes
"$ws" watch -o "$work/r2.wsev" -- "$ex/reduction/reduction" > /dev/null 2>&1
cmp -s "$work/r.wsev" "$work/r2.wsev" && ok || bad "two traces of reduction differ"

# a machine: stop at the dispatch of block 3; the launch fails with the reason
# (128 blocks on 4 cores: each core takes chunks of 2 blocks, so block 3 is
# core 1's second; docs/device.md, Launch ABI)
# The events up to the stop are printed too: the example closes its device
# on the error, and the watcher writes its trace at the close.
out=$("$ws" watch --events wd --on 'wd.dispatch data=3' --do 'print; stop' -- "$ex/reduction/reduction" 2>&1); rc=$?
[[ $rc = 1 && "$out" == *"[watch] machine 0: wd.dispatch core 1 data 0x00000003"* && "$out" == *"stopped by a debug machine: debug machine 0 fired on wd.dispatch"* &&
   "$out" == *"wd.dispatch            core 1   data 0x00000003"* && "$out" != *"no trace"* ]] &&
    ok || bad "stop machine (rc $rc): $out"
# a two-step machine with a count: the 5th barrier release after block 7's dispatch
out=$("$ws" watch --events wd --on 'wd.dispatch data=7' --then 'sched.barrier_release count=5' --do 'print' -- "$ex/reduction/reduction" 2>&1)
[[ $? = 0 && $(grep -c "machine 0: sched.barrier_release" <<< "$out") = 1 ]] && ok || bad "sequence machine: $out"
# `count` shows its counter when the device closes: one barrier release per block
out=$("$ws" watch --stats --on 'sched.barrier_release' --do 'count; rearm' -- "$ex/reduction/reduction" 2>&1)
[[ $? = 0 && "$out" == *"[watch] machine 0: count 128"* ]] && ok || bad "count machine: $out"
# a cp.halt under the watcher: the program's ws_events_resume is refused
# there, so the message says what can let it go on (until 2026-11-28 it
# said "ws_events_resume lets it go on")
out=$("$ws" watch --events cp --on 'cp.done' --do 'cp.halt' -- "$ex/reduction/reduction" 2>&1); rc=$?
[[ $rc = 1 && "$out" == *"halted by debug machine 0 ('cp.done do cp.halt') with 2 commands queued; only a machine's cp.resume or cp.step lets it go on (the bus is held by the event watcher"* &&
   "$out" != *"ws_events_resume lets"* ]] && ok || bad "cp.halt under the watcher (rc $rc): $out"
# halted after the launch, nothing queued: the halt holds the copy of the
# result, and the example says so (until 2026-11-28 it exited 1 without
# a word when its ws_memcpy_dtoh failed)
out=$("$ws" watch --events cp --on 'cp.done data=3' --do 'cp.halt' -- "$ex/reduction/reduction" 2>&1); rc=$?
[[ $rc = 1 && "$out" == *"reduction: error while copying the result back: ws_memcpy_dtoh: the command processor was halted by debug machine 0 ('cp.done data=3 do cp.halt') with 0 commands queued"* ]] &&
   ok || bad "cp.halt after the launch (rc $rc): $out"

# lossless on every example: each trace decodes and encodes back to the same bits
if [ -n "$test_events" ]; then
    files=()
    for e in vecadd reduction histogram scan bitonic gather mandelbrot matmul; do
        "$ws" watch -o "$work/$e.wsev" -- "$ex/$e/$e" > /dev/null 2>&1 && files+=("$work/$e.wsev")
    done
    [ ${#files[@]} = 8 ] && "$test_events" --roundtrip "${files[@]}" > "$work/roundtrip.out" 2>&1 && ok ||
        { bad "event traces of the examples: ${#files[@]} of 8 written, or a re-encoding differs"; cat "$work/roundtrip.out"; }
fi

# events whose time goes back (another core's earlier ones, a launch's
# after the last one's end) are kept and printed, with no word of a full
# buffer (they were dropped, with every event after them, as "did not fit")
if [ -n "$test_events" ]; then
    "$test_events" --write-time-back "$work/back.wsev"
    out=$("$ws" watch --read "$work/back.wsev" 2>&1); rc=$?
    [[ $rc = 0 && $(grep -c ' core ' <<<"$out") = 10 && "$out" != *"dropped"* && "$out" != *"filled"* &&
       "$out" == *"150  wd.retire"*"0  cp.start"* ]] && ok || bad "a trace whose time goes back (rc $rc): $out"
fi

# the walkthrough's planted bugs (docs/events.md)
planted=$(dirname "$ex")/examples/planted/planted
out=$("$ws" watch --events sched.barrier_wait+sched.barrier_release+wd -- "$planted" deadlock 2>&1)
waits0=$(grep -cE "sched.barrier_wait .*data 0x000[0-3]0000" <<< "$out")  # slot 0 at barrier 0, blocks 0-3
waits1=$(grep -cE "sched.barrier_wait .*data 0x000[0-3]0101" <<< "$out")  # slot 1 at barrier 1
[[ "$out" == *"deadlock: no lane can make progress"* && $waits0 = 4 && $waits1 = 4 && "$out" != *barrier_release* &&
   "$out" != *wd.retire* ]] && ok || bad "planted deadlock: $out"
# a barrier wait that lasts: caught in the deadlock (the wait outlives the
# launch), never in a healthy kernel
out=$("$ws" watch --events wd --on 'sched.barrier_wait for>1000' --do print -- "$planted" deadlock 2>&1)
[[ $(grep -c "machine 0: sched.barrier_wait" <<< "$out") = 1 ]] && ok || bad "lasting wait in the deadlock: $out"
out=$("$ws" watch --events wd --on 'sched.barrier_wait for>100000' --do print -- "$ex/reduction/reduction" 2>&1)
[[ $? = 0 && "$out" != *"machine 0: sched"* && "$out" == *"[watch] machine 0: never fired ('sched.barrier_wait for>100000 do print')"* ]] &&
    ok || bad "lasting wait fired in reduction: $out"
out=$("$ws" watch --events wd --on 'sched.starve count=10' --do 'print; rearm' -- "$planted" spinlock 2>&1)
[[ "$out" == *"lock taken 128"* && $(grep -c "machine 0: sched.starve" <<< "$out") -ge 5 ]] && ok || bad "planted spin lock: $out"
# the spin lock's trace is mostly repeated atomics, under 6 bits an event:
# it decodes (the decoder once called such a dense trace truncated)
out=$("$ws" watch --stats -- "$planted" spinlock 2>&1); rc=$?
[[ $rc = 0 && "$out" == *"sched.starve"* && "$out" == *"bits per event"* ]] && ok || bad "stats of the spin lock's trace (rc $rc): $out"

# bad programs and traces
out=$("$ws" watch --on 'wd.dispatch colour=3' --do stop -- /bin/true 2>&1); rc=$?
[[ $rc = 2 && "$out" == *"not a condition"* ]] && ok || bad "bad condition accepted: $out"
out=$("$ws" watch --on 'wd.nosuch' --do stop -- /bin/true 2>&1); rc=$?
[[ $rc = 2 && "$out" == *"is not an event"* ]] && ok || bad "bad event accepted: $out"
out=$("$ws" watch --on 'wd.dispatch' --do 'explode' -- /bin/true 2>&1); rc=$?
[[ $rc = 2 && "$out" == *"is not an action"* ]] && ok || bad "bad action accepted: $out"
# the machines together: enable=N names one of them, and at most eight
# (until 2026-11-28 an enable of a machine never given was taken and
# enabled nothing, and a ninth machine ran the program, whose device then
# failed to open with a bare WS_ERR_INVALID_ARG)
out=$("$ws" watch --on 'wd.dispatch' --do 'enable=3' -- /bin/true 2>&1); rc=$?
[[ $rc = 2 && "$out" == *"machine 0: enable=3: there is no machine 3 (1 machine given"* ]] &&
    ok || bad "enable of a machine not given (rc $rc): $out"
nine=(); for m in 0 1 2 3 4 5 6 7 8; do nine+=(--on wd.dispatch --do count); done
out=$("$ws" watch "${nine[@]}" -- /bin/true 2>&1); rc=$?
[[ $rc = 2 && "$out" == *"more than 8 machines"* ]] && ok || bad "nine machines (rc $rc): $out"
out=$(WARPSCOPE_WATCH_MACHINES='wd.dispatch do enable=1' "$ex/reduction/reduction" 2>&1); rc=$?
[[ $rc != 0 && "$out" == *"WARPSCOPE_WATCH_MACHINES: machine 0: enable=1: there is no machine 1"* ]] &&
    ok || bad "WARPSCOPE_WATCH_MACHINES enable of a machine not given (rc $rc): $out"
# machines that could never fire, or ask for what they cannot have, are
# refused before the program runs (exit 2), naming what is wrong
refused() { # refused WANT ARGS...: exit 2, WANT in the message, the program not run
    local want=$1; shift
    local out; out=$("$ws" watch "$@" 2>&1); local rc=$?
    [[ $rc = 2 && "$out" == *"$want"* && "$out" != *RAN* ]] && ok || bad "watch $* (rc $rc): $out"
}
refused "'count=0': expected a number from 1 to 4294967295" --on 'wd.dispatch count=0' --do print -- /bin/echo RAN
refused "'enable=9': machines are numbered 0 to 7" --on 'wd.dispatch' --do 'enable=9' -- /bin/echo RAN
refused "'halt=0': expected a core mask" --on 'wd.dispatch' --do 'halt=0' -- /bin/echo RAN
refused "'for>5': wd.dispatch has no duration" --on 'wd.dispatch for>5' --do print -- /bin/echo RAN
refused "'for>99999999999999999999': expected a number from 1 to 2^64-1" \
    --on 'sched.barrier_wait for>99999999999999999999' --do print -- /bin/echo RAN
refused "'within=18446744073709551616': expected" --on 'wd.dispatch' --then 'wd.retire within=18446744073709551616' \
    --do print -- /bin/echo RAN
refused "'within=0': expected a number from 1 to 2^64-1" --on 'wd.dispatch' --then 'wd.retire within=0' \
    --do print -- /bin/echo RAN
refused "'data=2': data is given twice in one step" --on 'wd.dispatch data=1 data=2' --do print -- /bin/echo RAN
refused "'core!=1': only data takes !=" --on 'wd.dispatch core!=1' --do print -- /bin/echo RAN
# steps no event can meet, or with conditions that do not apply: refused
# (they were taken, and the machine never fired), and 'unknown' is no event
refused "'unknown' is not an event" --on 'unknown' --do print -- /bin/echo RAN
refused "data=0x12 has bits outside mask=0xf0: no event can match" --on 'wd.dispatch mask=0xf0 data=0x12' --do print -- /bin/echo RAN
refused "data under mask=0xff is at most 0xff" --on 'wd.dispatch data=0x100..0x200 mask=0xff' --do print -- /bin/echo RAN
refused "mask=0x3 applies to data" --on 'wd.dispatch' --then 'wd.retire mask=3' --do print -- /bin/echo RAN
refused "'mask=0': expected a number from 1" --on 'wd.dispatch data=0 mask=0' --do print -- /bin/echo RAN
refused "within=5: within times a step from the one before it" --on 'wd.dispatch within=5' --do print -- /bin/echo RAN
refused "'then' needs an event" --on 'wd.dispatch then' --do print -- /bin/echo RAN
refused "--on needs an event" --on '' --do print -- /bin/echo RAN
refused "--do needs an action" --on 'wd.dispatch' --do ' ' -- /bin/echo RAN
refused "'+' names no event or source" --events + -- /bin/echo RAN
refused "--capacity 1k: expected a number of bytes from 64 to 1073741824 (2^30), without a suffix" \
    --capacity 1k -- /bin/echo RAN
refused "--read prints a trace already written: --on/--then/--do does not apply" \
    --read "$work/r.wsev" --on 'wd.dispatch' --do print
refused "--read prints a trace already written: a program does not apply" --read "$work/r.wsev" -- /bin/echo RAN
# a core the device does not have: the device open fails, naming it
out=$("$ws" watch --events wd --on 'wd.dispatch core=999' --do print -- "$ex/reduction/reduction" 2>&1); rc=$?
[[ $rc != 0 && "$out" == *"core=999: the device has 4 cores (0 to 3)"* ]] && ok || bad "core=999 (rc $rc): $out"
# and a halt of cores it does not have (it would halt nothing)
out=$("$ws" watch --events wd --on 'wd.dispatch' --do 'halt=0x30' -- "$ex/reduction/reduction" 2>&1); rc=$?
[[ $rc != 0 && "$out" == *"halt=0x30: the device has 4 cores (mask 0xf)"* ]] && ok || bad "halt=0x30 (rc $rc): $out"
out=$("$ws" watch --help)
[[ "$out" == *"for>T"* && "$out" == *trace.snapshot* && "$out" == *wd.halt* && "$out" == *cp.resume* &&
   "$out" == *"halt=CORE_MASK"* ]] && ok || bad "watch --help lacks actions: $out"
# trace.snapshot from the command line: the copy is kept with --snapshot
# (it was taken and never written anywhere), and it ends at the event that fired
rm -f "$work/snap.wsev"
out=$("$ws" watch --events wd --on 'wd.dispatch data=3' --do trace.snapshot --snapshot "$work/snap.wsev" -- "$ex/reduction/reduction" 2>&1)
[[ $? = 0 && "$out" == *"trace.snapshot: the trace as it was when the machine fired is in $work/snap.wsev"* ]] && ok ||
    bad "--snapshot: $out"
"$ws" watch --read "$work/snap.wsev" 2>&1 | tail -1 | grep -q "wd.dispatch .*data 0x00000003" && ok ||
    bad "the snapshot does not end at dispatch 3: $("$ws" watch --read "$work/snap.wsev" 2>&1 | tail -3)"
: > "$work/not-a-dir" # unwritable below it for root too (root may create /nonexistent)
refused "--snapshot $work/not-a-dir/s.wsev: cannot write there" --snapshot "$work/not-a-dir/s.wsev" -- /bin/echo RAN

# -o: refused before the program runs when it cannot be written; a device
# such as /dev/null is written, never replaced by a file (watch unlinked
# it, then wrote a regular file in its place)
refused "-o $work/not-a-dir/x.wsev: cannot write there" -o "$work/not-a-dir/x.wsev" -- /bin/echo RAN
rm -f "$work/null"
if mknod "$work/null" c 1 3 2> /dev/null; then
    out=$("$ws" watch --stats -o "$work/null" -- "$ex/reduction/reduction" 2>&1)
    [[ -c "$work/null" && "$out" == *"wd.dispatch                     128"* ]] && ok || bad "-o to a device: $(ls -l "$work/null") $out"
    rm -f "$work/null"
fi
# the environment without the command: WARPSCOPE_WATCH_MACHINES alone arms
# its machines (it was ignored without a word), a watcher without out=
# writes nothing and says nothing ("cannot write (no out=)"), an empty
# out= is refused
out=$(WARPSCOPE_WATCH_MACHINES='wd.dispatch data=3 do print; stop' "$ex/reduction/reduction" 2>&1); rc=$?
[[ $rc = 1 && "$out" == *"[watch] machine 0: wd.dispatch core 1 data 0x00000003"* && "$out" == *"stopped by a debug machine"* ]] &&
    ok || bad "WARPSCOPE_WATCH_MACHINES alone (rc $rc): $out"
out=$(WARPSCOPE_WATCH=events=wd WARPSCOPE_WATCH_MACHINES='wd.dispatch data=3 do print' "$ex/reduction/reduction" 2>&1); rc=$?
[[ $rc = 0 && "$out" == *"[watch] machine 0: wd.dispatch core 1 data 0x00000003"* && "$out" != *"cannot write"* ]] &&
    ok || bad "WARPSCOPE_WATCH without out= (rc $rc): $out"
out=$(WARPSCOPE_WATCH=out= "$ex/reduction/reduction" 2>&1); rc=$?
[[ $rc != 0 && "$out" == *"WARPSCOPE_WATCH: out=: expected a file name"* ]] && ok || bad "WARPSCOPE_WATCH=out= (rc $rc): $out"
# a buffer that fills: the run warns with the count (once), and the file
# says so when it is read later (it read as a whole trace, without a word)
out=$("$ws" watch --capacity 64 -o "$work/full.wsev" -- "$ex/reduction/reduction" 2>&1)
[[ $? = 0 && $(grep -c "events did not fit the 64-byte trace buffer" <<< "$out") = 1 && "$out" != *"buffer filled"* ]] &&
    ok || bad "a full buffer's run: $out"
out=$("$ws" watch --read "$work/full.wsev" 2>&1 > /dev/null); rc=$?
[[ $rc = 0 && "$out" =~ "full.wsev: the trace buffer filled after "[0-9]+" events: the events after them were dropped" ]] &&
    ok || bad "reading a full buffer's trace (rc $rc): $out"
out=$("$ws" watch --read "$work/r.wsev" 2>&1 > /dev/null)
[[ -z "$out" ]] && ok || bad "reading a whole trace warns: $out"
# a program with two devices: both traces are kept (the second device's
# replaced the first's), each named when printed
if [ -n "$two_app" ]; then
    out=$("$ws" watch --stats --events wd -o "$work/two.wsev" -- "$two_app" "$two_elf" 2 2>&1)
    [[ $? = 0 && "$out" == *"wd.dispatch                       5"* ]] && ok || bad "two devices' stats (2 + 3 blocks): $out"
    out=$("$ws" watch --read "$work/two.wsev" 2>&1)
    [[ "$out" == *"device 1: 4 events"* && "$out" == *"device 2: 6 events"* ]] && ok || bad "two devices' traces: $out"
    "$ws" watch --read "$work/two.wsev" --format jsonl |
        python3 -c "import json,sys; d=[json.loads(l)['device'] for l in sys.stdin]; sys.exit(d != [1]*4 + [2]*6)" &&
        ok || bad "two devices in jsonl"
    "$ws" watch --read "$work/two.wsev" --format perfetto |
        python3 -c "import json,sys; e=json.load(sys.stdin)['traceEvents']; sys.exit(len(e) != 10)" && ok || bad "two devices in perfetto"
    head -c $(( $(stat -c %s "$work/two.wsev") - 1 )) "$work/two.wsev" > "$work/two_cut.wsev"
    out=$("$ws" watch --read "$work/two_cut.wsev" 2>&1); rc=$?
    [[ $rc = 1 && "$out" == *"device 2's trace"*"truncated or corrupt"* ]] && ok || bad "cut second trace (rc $rc): $out"
fi
# a file that is no trace is one, not 24-byte pieces taken for devices'
# traces ("device 1's trace (byte 0)"); a directory is a read error
head -c 100 /dev/zero | tr '\0' 'x' > "$work/junk.wsev"
out=$("$ws" watch --read "$work/junk.wsev" 2>&1); rc=$?
[[ $rc = 1 && "$out" == "warpscope watch: $work/junk.wsev: not a warpscope event trace (no WSEV header)" ]] && ok ||
    bad "a file that is no trace (rc $rc): $out"
cat "$work/r.wsev" "$work/junk.wsev" > "$work/tail.wsev"
out=$("$ws" watch --read "$work/tail.wsev" 2>&1); rc=$?
[[ $rc = 1 && "$out" == *"device 2's trace"*"no WSEV header"* && "$out" != *"device 3"* ]] && ok ||
    bad "junk after a trace (rc $rc): $out"
mkdir -p "$work/adir.wsev"
out=$("$ws" watch --read "$work/adir.wsev" 2>&1); rc=$?
[[ $rc = 1 && "$out" == *"cannot read: Is a directory"* ]] && ok || bad "a directory (rc $rc): $out"
# cut inside a header: truncated, not "no WSEV header" (a file that is no
# trace); an empty file says so
for cut in 1 10 23; do
    head -c $cut "$work/r.wsev" > "$work/h.wsev"
    out=$("$ws" watch --read "$work/h.wsev" 2>&1); rc=$?
    [[ $rc = 1 && "$out" == "warpscope watch: $work/h.wsev: truncated: the file ends at offset $cut, inside a 24-byte header" ]] &&
        ok || bad "cut at $cut, inside the header (rc $rc): $out"
done
: > "$work/h.wsev"
out=$("$ws" watch --read "$work/h.wsev" 2>&1); rc=$?
[[ $rc = 1 && "$out" == *"h.wsev: empty file (0 bytes)"* ]] && ok || bad "an empty file (rc $rc): $out"
{ cat "$work/r.wsev"; head -c 10 "$work/r.wsev"; } > "$work/h.wsev"
out=$("$ws" watch --read "$work/h.wsev" 2>&1); rc=$?
[[ $rc = 1 && "$out" == *"device 2's trace"*"truncated: the file ends at offset"*"inside a 24-byte header" ]] && ok ||
    bad "a second trace cut inside its header (rc $rc): $out"
head -c 40 "$work/r.wsev" > "$work/t.wsev"
out=$("$ws" watch --read "$work/t.wsev" 2>&1); rc=$?
[[ $rc = 1 && "$out" == *"truncated or corrupt"* ]] && ok || bad "truncated trace: $out"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
