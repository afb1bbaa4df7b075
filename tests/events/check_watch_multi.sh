#!/bin/bash
# warpscope watch over two devices and several launches (multi_app.c),
# in both modes: each machine's counts, prints and silence are right for
# its device, and the same run gives the same output.
# Usage: check_watch_multi.sh WARPSCOPE MULTI_APP EVENT_KERNELS.elf WORKDIR
set -u
ws=$1 app=$2 elf=$3 work=$4
mkdir -p "$work"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
has() { grep -qxF -- "$2" "$1" && ok || bad "$1: no line '$2'"; }

# machine 0 counts every dispatch (A: 3 launches x 4 blocks, B: 2 x 2);
# machine 1 waits for block 1's third dispatch (A's third launch; B has
# two); machine 2 never fires (no fault); machine 3 counts block 3's first
# barrier release, which B (2 blocks) never has.
watch() {
    "$ws" watch --events wd --on 'wd.dispatch do count; rearm' --on 'wd.dispatch data=1 count=3 do print' \
        --on 'mem.fault do stop' --on 'sched.barrier_release data=0x300 do count' -- "$app" "$elf" "mode=$1"
}
for mode in functional timing; do
    out=$work/$mode.out
    watch $mode > "$out" 2>&1 && ok || bad "$mode: exit $?"
    has "$out" "A launch 3: WS_OK, counter 24"
    has "$out" "B launch 2: WS_OK, counter 8"
    # device 1 is A (it closes first), as the trace's headings number them
    has "$out" "device 1: 48 events"
    has "$out" "device 2: 16 events"
    has "$out" "[watch] machine 0: count 12"
    has "$out" "[watch] machine 3: count 1"
    has "$out" "[watch] device 2: machine 0: count 4"
    has "$out" "[watch] device 2: machine 3: count 0"
    # a machine that never fired says so, on each device where it did not
    has "$out" "[watch] machine 2: never fired ('mem.fault do stop')"
    has "$out" "[watch] device 2: machine 1: never fired ('wd.dispatch data=1 count=3 do print')"
    has "$out" "[watch] device 2: machine 2: never fired ('mem.fault do stop')"
    ! grep -q "^\[watch\] machine 1: never fired" "$out" && ok || bad "$mode: machine 1 fired on device 1"
    [[ $(grep -c '^\[watch\] machine 1: wd.dispatch core 1 data 0x00000001 at ' "$out") = 1 ]] && ok ||
        bad "$mode: machine 1 should print once: $(grep '^\[watch\]' "$out")"
    watch $mode > "$work/$mode.again" 2>&1
    cmp -s "$out" "$work/$mode.again" && ok || bad "$mode: two runs differ: $(diff "$out" "$work/$mode.again" | head)"
done
# --stats counts both devices' events together, and says so
"$ws" watch --stats --events wd -- "$app" "$elf" > "$work/stats.out" 2>&1
has "$work/stats.out" "  2 devices' traces together:"
grep -Eq '^  wd.dispatch +16$' "$work/stats.out" && ok || bad "stats: 12 + 4 dispatches: $(cat "$work/stats.out")"
# the modes are each what they say (timing's clock is cycles)
cmp -s "$work/functional.out" "$work/timing.out" && bad "functional and timing runs are the same" || ok
echo "$pass passed, $fail failed"
[[ $fail = 0 ]]
