#!/bin/bash
# dispatch_kernel.c under every tool that reports on a launch: calls through
# a function-pointer table and a jump table leave the results as the plain
# launch has them, the counts match the device's, the report is the same
# bytes twice and on one or two host threads, and code without a source
# line is named by its function, and branch lists the indirect jumps
# (until 2026-11-28 it was one row
# "dispatch_kernel.c:0" summing the jump table of pick and the spills of
# dispatch).
#   check_dispatch.sh WARPSCOPE dispatch_kernel.elf dispatch_kernel.c
set -u
ws=$1 elf=$2 src=$3
passes=0 fails=0
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
f=$(basename "$src")
table=$(grep -n 'TABLE' "$src" | cut -d: -f1)
args=(run --grid 2 --block 64 "$elf" dispatch zeros:128)
"$ws" "${args[@]}" > plain.out 2>&1 || bad "plain run: exit status $?"
for t in bbcount memtrace branch dump; do
    for r in 1 2; do
        WARPSCOPE_THREADS=$r "$ws" trace --tool $t --report disp_$t$r.txt -- "$ws" "${args[@]}" > disp_$t$r.out 2>&1 ||
            bad "$t on $r threads: exit status $?"
    done
    cmp -s disp_${t}1.txt disp_${t}2.txt && ok || bad "$t: the reports differ on 1 and 2 threads"
    [ "$(grep '^arg 1' disp_${t}1.out)" = "$(grep '^arg 1' plain.out)" ] && ok || bad "$t: the program's results"
    grep -q 'identical to the launch' disp_${t}1.txt && grep -Eq 'device counters?: .*\(match\)' disp_${t}1.txt &&
        ! grep -Eq 'MISMATCH|DIFFER|INCOMPLETE|untraced|a race' disp_${t}1.txt && ok || bad "$t: $(head -12 disp_${t}1.txt)"
done
# 128 threads calling 1, 2 or 3 times through the table: 43 + 86 + 126
# loads of it; 114 threads take the jump table (i % 9 != 8)
grep -Eq "^  $f:$table +load +global +255 " disp_memtrace1.txt && ok || bad "table loads: $(grep global disp_memtrace1.txt)"
grep -Eq "^  $f:0 \(pick\) +load +global +114 " disp_memtrace1.txt && ok || bad "jump table loads: $(grep global disp_memtrace1.txt)"
# no row of the module's code without a line that names no function
grep -Eq "^    $f:0 \(dispatch\) +[0-9]+" disp_bbcount1.txt && grep -Eq "^    $f:0 \(pick\) +[0-9]+" disp_bbcount1.txt &&
    ! grep -Eq "$f:0 +([0-9]|load|store)" disp_bbcount1.txt disp_memtrace1.txt && ok || bad "line 0 rows: $(grep ':0' disp_bbcount1.txt)"
# branch lists the indirect jumps: the call through the table (12 warp
# executions, 255 lane calls, 4 targets, every execution split), the jump
# table (4, 114 lanes, its 8 cases), and returns only in a summary line,
# none divergent; the direct call of pick (auipc + jalr) is not one
# (until 2026-11-28 the tool listed conditional branches only)
grep -Eq "^  $f:$table +0x[0-9a-f]+ call +12 +21\.2 +4 +100\.0%$" disp_branch1.txt && ok ||
    bad "indirect call row: $(grep -A6 'indirect jump' disp_branch1.txt)"
grep -Eq "^  $f:0 \(pick\) +0x[0-9a-f]+ jump +4 +28\.5 +8 +100\.0%$" disp_branch1.txt && ok ||
    bad "jump table row: $(grep -A6 'indirect jump' disp_branch1.txt)"
grep -Eq "^  \(and [0-9]+ returns, none divergent\)$" disp_branch1.txt && [ "$(grep -Ec ' (call|jump|return) +[0-9]+ ' disp_branch1.txt)" = 2 ] && ok ||
    bad "indirect rows: $(grep -A6 'indirect jump' disp_branch1.txt)"
echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
