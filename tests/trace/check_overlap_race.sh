#!/bin/bash
# racecheck on overlap_race_kernel.c: hazards between accesses of different
# sizes that share bytes, and near misses it must not report (adjacent
# words, a barrier inside a called function, each block's own shared
# memory); every report the same bytes twice and on one or two host threads.
#   check_overlap_race.sh WARPSCOPE overlap_race_kernel.elf overlap_race_kernel.c
set -u
ws=$1 elf=$2 src=$3
passes=0 fails=0
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
f=$(basename "$src")
line() { grep -n "RACE:$1" "$src" | cut -d: -f1; }
for k in overlap adjacent byte_into_word helper_sync atomic_plain per_block member; do
    for r in 1 2; do
        WARPSCOPE_THREADS=$r "$ws" trace --tool racecheck --report ov_$k$r.txt -- \
            "$ws" run --grid 2 --block 64 "$elf" $k zeros:128 > ov_$k$r.out 2>&1 || bad "$k on $r threads: exit status $?"
    done
    cmp -s ov_${k}1.txt ov_${k}2.txt && ok || bad "$k: the reports differ on 1 and 2 threads"
done
expect() { # kernel pattern
    grep -Eq -- "$2" ov_$1.txt && ok || bad "$1: no '$2' in $(grep -A3 'racecheck:' ov_$1.txt)"
}
expect overlap1 "racecheck: 1 hazard \\(384 shared "
expect overlap1 "read-write +$f:$(line overlap_store) \\(store\\) and $f:$(line overlap_load) \\(load\\): shared memory, 128 words, between warps; e\\.g\\. block \\(0,0,0\\) threads \\(0,0,0\\) and \\(32,0,0\\) at 0xd0000004 \\(wide\\[0\\]\\+4\\)"
expect adjacent1 "racecheck: 0 hazards \\(256 shared "
expect byte_into_word1 "racecheck: 1 hazard "
expect byte_into_word1 "read-write +$f:$(line byte_store) \\(store\\) and $f:$(line word_load) \\(load\\): shared memory, 128 words, between warps"
expect helper_sync1 "racecheck: 0 hazards \\(256 shared "
expect atomic_plain1 "racecheck: 1 hazard "
expect atomic_plain1 "read-write +$f:0 \\(atomic_plain\\) \\(load\\) and $f:$(line atomic) \\(atomic\\): shared memory, 2 words, between warps; e\\.g\\. block \\(0,0,0\\) threads \\(63,0,0\\) and \\(0,0,0\\)"
expect per_block1 "racecheck: 0 hazards \\(130 shared "
# the place named as C names it (a static local's struct member)
expect member1 "read-write +$f:$(line member_store) \\(store\\) and $f:$(line member_load) \\(load\\): shared memory, 128 words, between warps; e\\.g\\. block \\(0,0,0\\) threads \\([0-9]+,0,0\\) and \\([0-9]+,0,0\\) at 0xd[0-9a-f]+ \\(cells\\[[0-9]+\\]\\.sum\\)"
echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
