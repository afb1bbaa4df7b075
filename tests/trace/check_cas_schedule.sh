#!/bin/bash
# The tracer's passes switch warps where the launch does: compare-and-swap
# loops contended by several warps (nand64: since 2026-11-28 the other
# 64-bit atomics are single AMOs) trace exactly (counts match the
# device's, results identical, no re-measured pass), and the report is
# the same with 1 and 2 host threads. Until 2026-11-27 the passes counted
# their inserted instructions in the warp quantum and said MISMATCH,
# `a race?` and DIFFERENT here.
# usage: check_cas_schedule.sh WARPSCOPE CAS_KERNEL.elf
ws=$1 elf=$2
fail=0
run() { # name, run arguments
    local name=$1; shift
    for tool in memtrace bbcount; do
        for th in 1 2; do
            WARPSCOPE_THREADS=$th "$ws" trace --tool $tool --report "cas_$name.$tool.$th.txt" -- "$ws" run "$@" \
                > "cas_$name.$tool.$th.out" 2>&1 || { echo "FAIL: $name $tool threads=$th: exit status"; fail=1; continue; }
            r="cas_$name.$tool.$th.txt"
            if grep -Eq 'MISMATCH|DIFFERENT|a race\?|incomplete' "$r" || ! grep -q 'identical to the launch' "$r" ||
               ! grep -q 'device counter: [0-9]* (match)' "$r"; then
                echo "FAIL: $name $tool threads=$th:"; grep -E 'note|results|MISMATCH|match' "$r"; fail=1
            fi
            if [ "$tool" = memtrace ] && ! grep -q 'device counters: .* (match)' "$r"; then
                echo "FAIL: $name memtrace threads=$th: access counts"; fail=1
            fi
        done
        cmp -s "cas_$name.$tool.1.txt" "cas_$name.$tool.2.txt" || { echo "FAIL: $name $tool: threads 1 and 2 differ"; fail=1; }
    done
}
run block64 --block 64 "$elf" add64 zeros:1 zeros:64
run grid2 --grid 2 --block 32 "$elf" add64 zeros:1 zeros:64
run double --block 128 --config warp_quantum=7 "$elf" addf64 zeros:1 zeros:128
run nand_block64 --block 64 "$elf" nand64 zeros:1 zeros:64
run nand_grid2 --grid 2 --block 32 --config warp_quantum=7 "$elf" nand64 zeros:1 zeros:64
run interp --block 64 --config engine=interp "$elf" add64 zeros:1 zeros:64
run ticket --grid 3 --block 96 "$elf" ticket zeros:1 zeros:288
# branch names the library's nand loop by its function, and its table
# widens the name column for it, so the numbers stay in their columns
# (every row ends where the heading does)
# (until 2026-11-28 a fixed 28-character column; the indirect jumps, all
# returns that did not diverge, are one line, not an empty table)
"$ws" trace --tool branch --report cas_branch.txt -- "$ws" run --grid 2 --block 64 "$elf" nand64 zeros:1 zeros:128 \
    > cas_branch.out 2>&1 || { echo "FAIL: branch: exit status"; fail=1; }
cols=$(sed -n '/^  branch /,/^  (lanes/p' cas_branch.txt | grep -v '^  (' | awk '{ print length($0) }' | sort -u | wc -l)
if [ "$cols" != 1 ] || ! grep -Eq '^  0x[0-9a-f]{8} \(__atomic_fetch_nand_8\) 0x[0-9a-f]{8} +160 ' cas_branch.txt ||
   ! grep -q '^  (indirect jumps: [0-9]* returns, none divergent)$' cas_branch.txt || grep -q 'indirect jump  ' cas_branch.txt; then
    echo "FAIL: branch table:"; sed -n '/^  branch /,$p' cas_branch.txt; fail=1
fi
[ $fail = 0 ] && echo "cas_schedule: ok"
exit $fail
