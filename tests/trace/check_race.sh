#!/bin/bash
# `warpscope trace --tool racecheck` on race_kernel.c: the hazards it must
# report, by kind and by source line, and the kernels it must pass; the
# report is the same in two runs and on one or two host threads.
#   check_race.sh WARPSCOPE RACE_KERNEL.elf RACE_KERNEL.c WORKDIR
set -u
ws=$1 elf=$2 src=$3 work=$4
mkdir -p "$work"
pass=0 fail=0
line() { grep -n "RACE:$1" "$src" | cut -d: -f1; }
check() { # name: grep -E pattern must match the report
    if grep -Eq -- "$2" "$work/$1.txt"; then pass=$((pass + 1)); else echo "FAIL: $1: no '$2'"; sed -n 1,40p "$work/$1.txt"; fail=$((fail + 1)); fi
}
run() { # kernel [threads]
    WARPSCOPE_THREADS=${2:-1} "$ws" trace --tool racecheck --report "$work/$1${2:-}.txt" -- \
        "$ws" run --grid 3 --block 64 "$elf" "$1" zeros:192 > "$work/$1${2:-}.out" 2>&1 ||
        { echo "FAIL: $1: exit status $?"; cat "$work/$1${2:-}.out"; fail=$((fail + 1)); }
}
kernels="racy synced same_word atomics_bytes many_barriers global_sum halo blocks_sum last_block locked unrolled"
for k in $kernels; do run $k; done
f=$(basename "$src")
check racy "racecheck: 1 hazard "
check racy "read-write +$f:$(line racy_store) \(store\) and $f:$(line racy_load) \(load\): shared memory, 192 words, between warps; e\.g\. block \(0,0,0\) threads"
check same_word "racecheck: 1 hazard "
check same_word "write-write +$f:$(line same_store) \(store\) and $f:$(line same_store) \(store\): shared memory, 3 words, between warps"
check synced "racecheck: 0 hazards \([0-9]+ shared and 192 global accesses checked\)"
check atomics_bytes "racecheck: 0 hazards"
check many_barriers "racecheck: 0 hazards \\(15360 shared and 192 global accesses checked\\)"
check global_sum "racecheck: 2 hazards \\(0 shared and 576 global accesses checked\\)"
check global_sum "write-write +$f:$(line global_sum) \\(store\\) and $f:$(line global_sum) \\(store\\): global memory, 3 words, between warps"
check global_sum "read-write +$f:$(line global_sum) \\(load\\) and $f:$(line global_sum) \\(store\\): global memory, 3 words"
# between blocks: unordered accesses are hazards, the fence-and-atomic
# handshake of a last-block reduction and a lock taken with atomics are not
check halo "racecheck: 2 hazards \\(0 shared and 768 global accesses checked\\): accesses by different blocks"
check halo "read-write +$f:$(line halo_store) \\(store\\) and $f:$(line halo_load) \\(load\\): global memory, 192 words, between blocks; e\\.g\\. block \\([0-9],0,0\\) thread \\(([0-9]+),0,0\\) and block \\([0-9],0,0\\) thread \\(\\1,0,0\\)"
check blocks_sum "racecheck: 2 hazards "
check blocks_sum "write-write +$f:$(line blocks_sum) \\(store\\) and $f:$(line blocks_sum) \\(store\\): global memory, 1 word, between blocks; e\\.g\\. block \\(0,0,0\\) thread \\(0,0,0\\) and block \\(1,0,0\\)"
check blocks_sum "read-write +$f:$(line blocks_sum) \\(load\\) and $f:$(line blocks_sum) \\(store\\): global memory, 1 word, between blocks"
check last_block "racecheck: 0 hazards \\([0-9]+ shared and 12 global accesses checked\\)"
check locked "racecheck: 0 hazards \\(0 shared and [0-9]+ global accesses checked\\)"
# an unrolled loop: one line, many instructions, one hazard
check unrolled "racecheck: 1 hazard "
check unrolled "read-write +$f:$(line unrolled) \\(load\\) and $f:$(line unrolled) \\(store\\): shared memory, 45 words, within a warp"
# a hazard reported "between warps" gives an example pair from two warps
# (32 lanes; it gave the first two threads, lanes 0 and 1 of one warp)
for k in same_word global_sum racy; do
    grep -o "between warps; e\.g\. block ([0-9,]*) threads ([0-9]*,0,0) and ([0-9]*,0,0)" "$work/$k.txt" |
        sed 's/.*threads (\([0-9]*\),0,0) and (\([0-9]*\),0,0)/\1 \2/' > "$work/$k.pairs"
    if [ -s "$work/$k.pairs" ] && awk 'int($1 / 32) == int($2 / 32) { bad = 1 } END { exit bad }' "$work/$k.pairs"
    then pass=$((pass + 1)); else echo "FAIL: $k: a 'between warps' example within one warp:"; cat "$work/$k.pairs"; fail=$((fail + 1)); fi
done
# every launch traced is checked against the device as the other tools are
for k in $kernels; do
    check $k "instructions executed .*\(match\)"
done
# deterministic: again, and on two host threads
run racy 2
if diff <(grep racecheck -A3 "$work/racy.txt") <(grep racecheck -A3 "$work/racy2.txt") > /dev/null; then pass=$((pass + 1));
else echo "FAIL: the racecheck report differs between runs"; fail=$((fail + 1)); fi
# --fail-on-race: a hazard is exit status 5 (racecheck never changed the
# status), no hazard 0; without racecheck the option is refused
fail_on_race() { # kernel tool: prints the exit status, stderr in $work/for_$1.err
    "$ws" trace --tool "$2" --fail-on-race --report "$work/for_$1.txt" -- "$ws" run --grid 3 --block 64 "$elf" "$1" zeros:192 \
        > /dev/null 2> "$work/for_$1.err"
    echo $?
}
rc=$(fail_on_race racy racecheck)
[ "$rc" = 5 ] && grep -q '^warpscope trace: racecheck reports 1 hazard$' "$work/for_racy.err" && pass=$((pass + 1)) ||
    { echo "FAIL: --fail-on-race racy: exit $rc: $(cat "$work/for_racy.err")"; fail=$((fail + 1)); }
rc=$(fail_on_race global_sum racecheck)
[ "$rc" = 5 ] && grep -q 'racecheck reports 2 hazards$' "$work/for_global_sum.err" && pass=$((pass + 1)) ||
    { echo "FAIL: --fail-on-race global_sum: exit $rc: $(cat "$work/for_global_sum.err")"; fail=$((fail + 1)); }
rc=$(fail_on_race synced racecheck)
[ "$rc" = 0 ] && ! grep -q hazard "$work/for_synced.err" && pass=$((pass + 1)) ||
    { echo "FAIL: --fail-on-race synced: exit $rc: $(cat "$work/for_synced.err")"; fail=$((fail + 1)); }
# --report to a device (/dev/null): the report is still printed and
# checked (it was read back from the device: nothing printed, status 0)
"$ws" trace --tool racecheck --fail-on-race --report /dev/null -- "$ws" run --grid 3 --block 64 "$elf" racy zeros:192 \
    > "$work/devnull.out" 2> "$work/devnull.err"; rc=$?
[ $rc = 5 ] && grep -q '^  racecheck: 1 hazard ' "$work/devnull.out" && [ -c /dev/null ] && pass=$((pass + 1)) ||
    { echo "FAIL: --report /dev/null: exit $rc: $(cat "$work/devnull.err")"; fail=$((fail + 1)); }
rc=$(fail_on_race racy bbcount)
[ "$rc" = 2 ] && grep -q -- '--fail-on-race goes with --tool racecheck' "$work/for_racy.err" && pass=$((pass + 1)) ||
    { echo "FAIL: --fail-on-race with bbcount: exit $rc: $(cat "$work/for_racy.err")"; fail=$((fail + 1)); }
echo "$pass passed, $fail failed"
[ $fail = 0 ]
