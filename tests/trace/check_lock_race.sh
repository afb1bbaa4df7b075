#!/bin/bash
# racecheck within a block honours locks and flags (lock_race_kernel.c):
# data guarded by a spin lock (global or shared memory, atomicCAS_i and
# atomicExch_i or C11 acquire and release) and data published through a
# fence and a flag report nothing, between warps (64-thread blocks) and
# between the lanes of one warp (32-thread blocks); a counter updated
# outside the lock, a lock given back before the update, data published
# without a fence, two locks for one counter and a counter some threads
# update inside the lock and others after giving it back are still hazards. Until
# 2026-11-29 only barriers ordered the accesses of one block, so every
# lock-guarded update was a hazard "between warps".
#   check_lock_race.sh WARPSCOPE lock_race_kernel.elf lock_race_kernel.c WORKDIR
set -u
ws=$1 elf=$2 src=$3 work=$4
mkdir -p "$work"
passes=0 fails=0
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
f=$(basename "$src")
line() { grep -n "RACE:$1" "$src" | cut -d: -f1; }
run() { # kernel block
    WARPSCOPE_THREADS=2 "$ws" trace --tool racecheck --report "$work/$1_$2.txt" -- \
        "$ws" run --grid 2 --block "$2" "$elf" "$1" zeros:256 > "$work/$1_$2.out" 2>&1 || bad "$1 --block $2: exit status $?"
}
expect() { # kernel block pattern
    grep -Eq -- "$3" "$work/$1_$2.txt" && ok || { bad "$1 --block $2: no '$3' in"; grep -A6 'racecheck:' "$work/$1_$2.txt"; }
}
for b in 64 32; do
    for k in global_lock shared_lock c11_lock publish; do
        run $k $b
        expect $k $b "racecheck: 0 hazards"
        expect $k $b "instructions executed .*\(match\)"
    done
done
for b in 64 32; do
    [ $b = 64 ] && where="between warps" || where="within a warp"
    run unlocked_count $b
    expect unlocked_count $b "racecheck: 2 hazards "
    expect unlocked_count $b "read-write +$f:$(line unlocked) \\(load\\) and $f:$(line unlocked) \\(store\\): shared memory, 2 words, $where"
    expect unlocked_count $b "write-write +$f:$(line unlocked) \\(store\\) and $f:$(line unlocked) \\(store\\): shared memory, 2 words, $where"
    run released_early $b
    expect released_early $b "racecheck: 4 hazards "
    expect released_early $b "read-write +$f:$(line early) \\(load\\) and $f:$(line early) \\(store\\): global memory, 2 words, $where"
    expect released_early $b "write-write +$f:$(line early) \\(store\\) and $f:$(line early) \\(store\\): global memory, 2 words, $where"
    run publish_no_fence $b
    expect publish_no_fence $b "read-write +$f:$(line nofence_store) \\(store\\) and $f:$(line nofence_load) \\(load\\): shared memory, 2 words, $where"
    expect publish_no_fence $b "read-write +$f:$(line nofence_flag) \\(store\\) and $f:[0-9]+ \\(load\\): shared memory, 2 words, $where"
    run two_locks $b
    expect two_locks $b "read-write +$f:$(line two_locks) \\(load\\) and $f:$(line two_locks) \\(store\\): global memory, 2 words, $where"
    expect two_locks $b "write-write +$f:$(line two_locks) \\(store\\) and $f:$(line two_locks) \\(store\\): global memory, 2 words, $where"
    run half_locked $b
    expect half_locked $b "racecheck: 2 hazards "
    expect half_locked $b "read-write +$f:$(line half) \\(load\\) and $f:$(line half) \\(store\\): shared memory, 2 words, $where"
done
# between blocks, the same rule: a lock held by a block orders its
# threads' updates; two locks for one counter, tickets from a counter and
# a plain read of an atomic counter order nothing (any atomic or fence of
# a block counted as a handshake with any other block's, whatever word);
# nor, within a block, do atomic additions before and after an update (a
# ticket, not a lock)
for b in 64 32; do
    [ $b = 64 ] && where="between warps" || where="within a warp"
    run block_lock $b
    expect block_lock $b "racecheck: 0 hazards"
    expect two_locks $b "racecheck: 4 hazards .*: accesses by different threads of a block to the same byte with no barrier, lock or flag between, one a write; accesses by different blocks to the same global byte, one a write, not ordered by a lock or a flag$"
    expect two_locks $b "read-write +$f:$(line two_locks) \\(load\\) and $f:$(line two_locks) \\(store\\): global memory, [0-9]+ words?, between blocks"
    expect two_locks $b "write-write +$f:$(line two_locks) \\(store\\) and $f:$(line two_locks) \\(store\\): global memory, [0-9]+ words?, between blocks"
    run halo_ticket $b
    expect halo_ticket $b "racecheck: [0-9]+ hazards? .*accesses by different blocks"
    expect halo_ticket $b "read-write +$f:$(line ticket_store) \\(store\\) and $f:$(line ticket_load) \\(load\\): global memory, $((b / 2 * 2)) words, between blocks"
    run shared_ticket $b
    expect shared_ticket $b "racecheck: 2 hazards "
    expect shared_ticket $b "write-write +$f:$(line shared_ticket) \\(store\\) and $f:$(line shared_ticket) \\(store\\): shared memory, 2 words, $where"
    run peek_counter $b
    expect peek_counter $b "racecheck: 1 hazard "
    expect peek_counter $b "read-write +$f:[0-9]+ \\(atomic\\) and $f:$(line peek) \\(load\\): global memory, [0-9]+ words?, between blocks"
done
# a relaxed atomic load (a plain lw) that a compare-and-swap of its word
# follows is an atomic load: the first read of a compare-and-swap loop and
# a test-and-test-and-set's spin report nothing (they were hazards with
# the swaps), a plain store of the word still is one (with the load and with the swap)
for b in 64 32; do
    [ $b = 64 ] && where="between warps" || where="within a warp"
    run cas_max $b
    expect cas_max $b "racecheck: 2 hazards "
    expect cas_max $b "read-write +$f:$(line relaxed) \\(load\\) and $f:$(line cas_store) \\(store\\): shared memory, 1 word, $where"
    expect cas_max $b "write-write +$f:[0-9]+ \\(atomic\\) and $f:$(line cas_store) \\(store\\): shared memory, 1 word, $where"
    run ttas_lock $b
    expect ttas_lock $b "racecheck: 0 hazards"
done
# the same report on one host thread
WARPSCOPE_THREADS=1 "$ws" trace --tool racecheck --report "$work/two_locks_1.txt" -- \
    "$ws" run --grid 2 --block 64 "$elf" two_locks zeros:256 > /dev/null 2>&1
diff <(grep -A9 'racecheck:' "$work/two_locks_64.txt") <(grep -A9 'racecheck:' "$work/two_locks_1.txt") > /dev/null && ok ||
    bad "two_locks: the reports differ on one and two host threads"
echo "$passes passed, $fails failed"
[ $fails = 0 ]
