#!/bin/bash
# Two kernels unlike the others of this folder, as a new user would write
# them. memtrace of 64-bit and float atomics (atomics_kernel.c): each
# access counted once with its width, the library's 64-bit atomics (no line
# information) named by their function, --values keeping an atomic's
# operand. racecheck (race_shapes_kernel.c): a warp-synchronous reduction
# tail, 8-byte stores against 4-byte loads, a 64-bit shared atomic read
# unguarded, and three near misses that must stay quiet. Every report is
# the same bytes in a second run.
#   check_atomics_race.sh WARPSCOPE ATOMICS.elf ATOMICS.c RACE.elf RACE.c WORKDIR
set -u
ws=$1 aelf=$2 asrc=$3 relf=$4 rsrc=$5 work=$6
mkdir -p "$work"
pass=0 fail=0
line() { grep -n "$1" "$2" | cut -d: -f1; }
check() { # report: grep -E pattern must match it
    if grep -Eq -- "$2" "$work/$1.txt"; then pass=$((pass + 1)); else echo "FAIL: $1: no '$2'"; sed -n 1,60p "$work/$1.txt"; fail=$((fail + 1)); fi
}
trace() { # name tool kernel args...: traced twice, the reports compared
    local name=$1 tool=$2 n
    shift 2
    for n in 1 2; do
        "$ws" trace --tool "$tool" --report "$work/$name$n.txt" -- "$ws" run --grid 2 --block 64 "$@" \
            > "$work/$name.out" 2>&1 || { echo "FAIL: $name: exit status $?"; cat "$work/$name.out"; fail=$((fail + 1)); }
    done
    if cmp -s "$work/${name}1.txt" "$work/${name}2.txt"; then pass=$((pass + 1)); else echo "FAIL: $name: two runs differ"; fail=$((fail + 1)); fi
    cp "$work/${name}1.txt" "$work/$name.txt"
}

# memtrace: 128 threads; the results, counts and bytes are exact
a=$(basename "$asrc")
trace mem memtrace "$aelf" mixed zeros:1 zeros:1 zeros:8 zeros:1
check mem "accesses: [0-9]+ loads, [0-9]+ stores, 528 atomics; device counters: [0-9]+, [0-9]+, 528 \(match\)"
check mem "left global memory identical"
check mem "^  $a:$(line AT:shared_fadd "$asrc") +atomic +shared +128 +4 +- +512 +0$"
check mem "^  $a:$(line AT:dadd "$asrc") +atomic +global +128 +4 +1\.00 +1024 +-$"
check mem "^  $a:$(line AT:global_fadd "$asrc") +atomic +global +16 +2 +1\.00 +64 +-$"
check mem "^  0x[0-9a-f]{8} \(__atomic_fetch_add_8\) +atomic +global +128 +4 +1\.00 +1024 +-$"
check mem "^  0x[0-9a-f]{8} \(__atomic_fetch_max_8\) +atomic +global +128 +4 +1\.00 +1024 +-$"
# --values: an atomic's record keeps its operand (0.25 for every shared
# float add), not the sum it leaves; an 8-byte one its low half
"$ws" trace --tool memtrace --values -o "$work/values.wst" -- "$ws" run --grid 2 --block 64 "$aelf" mixed zeros:1 \
    zeros:1 zeros:8 zeros:1 > "$work/values.out" 2>&1 || { echo "FAIL: values: exit status $?"; fail=$((fail + 1)); }
"$ws" trace --read "$work/values.wst" > "$work/values.txt" 2>&1
[ "$(grep -c '^    atomic 4 @0xd00000[01][0-9a-f]  .* = 0x3e800000$' "$work/values.txt")" = 128 ] &&
    ! grep -q '^    atomic 4 @0xd00000[01][0-9a-f]  .* = 0x\(3f\|40\)' "$work/values.txt" && pass=$((pass + 1)) ||
    { echo "FAIL: values: shared float adds"; grep -m5 '@0xd0' "$work/values.txt"; fail=$((fail + 1)); }
check values "^    atomic 8 @0x[0-9a-f]{8}  \(pc 0x[0-9a-f]{8}\) = 0x00000001 \(its low 32 bits\)$"

# racecheck
r=$(basename "$rsrc")
trace tail racecheck "$relf" reduce_tail zeros:2
check tail "racecheck: 1 hazard \(508 shared and 2 global accesses checked\)"
check tail "read-write +$r:$(line RACE:tail "$rsrc") \(load\) and $r:$(line RACE:tail "$rsrc") \(store\): shared memory, 62 words, within a warp"
trace halves racecheck "$relf" halves zeros:128
check halves "racecheck: 0 hazards \(384 shared and 256 global accesses checked\)"
trace wide_narrow racecheck "$relf" wide_narrow zeros:128
check wide_narrow "racecheck: 2 hazards "
check wide_narrow "write-write +$r:$(line RACE:wide_store "$rsrc") \(store\) and $r:$(line RACE:wide_store "$rsrc") \(store\): shared memory, 128 words, within a warp"
check wide_narrow "read-write +$r:$(line RACE:wide_store "$rsrc") \(store\) and $r:$(line RACE:narrow_load "$rsrc") \(load\): shared memory, 128 words, between warps"
trace pingpong racecheck "$relf" pingpong zeros:128
check pingpong "racecheck: 0 hazards \(1792 shared and 128 global accesses checked\)"
trace peek racecheck "$relf" wide_peek zeros:128
check peek "racecheck: 1 hazard "
check peek "read-write +0x[0-9a-f]{8} \(__atomic_fetch_add_8\) \(atomic\) and $r:$(line RACE:peek "$rsrc") \(load\): shared memory, 2 words, between warps"
trace wide_atomics racecheck "$relf" wide_atomics zeros:128
# the report's tables keep their columns with such names: the lines by
# instructions executed (with code of the library and a `FILE:0 (FUNCTION)`
# row) end their counts in one column
cols=$(sed -n '/^  lines by instructions executed:/,/^  [a-z]/p' "$work/peek.txt" | grep '^    ' |
    awk '{ print index($0, "%") }' | sort -u | wc -l)
[ "$cols" = 1 ] && grep -q '(__atomic_fetch_add_8)  ' "$work/peek.txt" && pass=$((pass + 1)) ||
    { echo "FAIL: peek: lines by instructions executed not in columns"; sed -n '/lines by/,/racecheck/p' "$work/peek.txt"; fail=$((fail + 1)); }
check wide_atomics "racecheck: 0 hazards "
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
