#!/bin/bash
# The steps of docs/profiling.md's walkthrough, on examples/gather.
# usage: check_walkthrough.sh WARPSCOPE GATHER_BINARY GATHER_KERNEL_SOURCE WORKDIR
set -u
ws=$1 app=$2 src=$3 dir=$4/walkthrough
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
idx=$(grep -n 'int j = idx\[(i + r \* 97) % n\];' "$src" | cut -d: -f1)
use=$(grep -n 'acc += table\[j\];' "$src" | cut -d: -f1)

"$ws" profile -- "$app" > r1.txt 2> e1.txt || bad "profile exited with $?"
grep -q "^gather      PASS" r1.txt && ok "program output first, unchanged" || bad "no PASS line"
# Step 1: the hottest kernel.
sed -n '/^Kernels/{n;n;p;q}' r1.txt | grep -q " gather (gather_kernel.elf)" && ok "step 1: gather is hottest" ||
    bad "step 1: $(sed -n '/^Kernels/,/^$/p' r1.txt)"
# Step 2: the line, with its text.
sed -n '/^Kernel gather /,/Hot instructions/p' r1.txt > k.txt
sed -n '/Hot source lines/{n;n;p;q}' k.txt | grep -q "gather_kernel.c:$use (gather)" && ok "step 2: line $use is hottest" ||
    bad "step 2: $(sed -n '/Hot source lines/,+3p' k.txt)"
grep -q "|  acc += table\[j\];" k.txt && ok "step 2: source text shown" || bad "step 2: no source text"
# Step 3: the cause, with both producers.
cause=$(grep "line $use: " k.txt)
echo "$cause" | grep -qE "line $use: [0-9.]+% long_scoreboard, waiting on the load at line" &&
    echo "$cause" | grep -qF "the load at line $use (flw" && echo "$cause" | grep -qF "the load at line $idx (lw" &&
    ok "step 3: long_scoreboard waiting on the loads at lines $use and $idx" || bad "step 3: $cause"
grep -E "waits on line $idx \(lw " r1.txt >/dev/null && grep -E "waits on line $use \(flw " r1.txt >/dev/null &&
    ok "step 3: instruction view" || bad "step 3: instruction view"
# Step 4: counters; the unrolled kernel is faster.
c1=$(sed -n 's/^ *[0-9]* *[0-9.]*% *\([0-9]*\) *1  gather (.*/\1/p' r1.txt)
c2=$(sed -n 's/^ *[0-9]* *[0-9.]*% *\([0-9]*\) *1  gather_unrolled (.*/\1/p' r1.txt)
[ -n "$c1" ] && [ -n "$c2" ] && [ "$c2" -lt "$c1" ] && ok "step 4: gather_unrolled $c2 cycles < gather $c1" ||
    bad "step 4: cycles '$c1' '$c2'"
grep -qE "exact warp states \(all [0-9]+ warp-cycles\): long_scoreboard" r1.txt && ok "step 4: exact states" ||
    bad "step 4: exact warp states"
# Step 5 and 6: four passes, JSON and trace.
"$ws" profile --passes 4 --json gather.json --trace gather-trace.json -- "$app" > r4.txt 2> e4.txt ||
    bad "passes 4 exited with $?"
python3 - gather.json gather-trace.json "$use" "$idx" <<'PY' && ok "steps 5-6: 4x samples, JSON and trace" || bad "steps 5-6"
import json, sys
d = json.load(open(sys.argv[1]))['devices'][0]
use, idx = int(sys.argv[3]), int(sys.argv[4])
k = d['kernels'][0]
assert k['kernel'] == 'gather'
l = k['lines'][0]
assert l['line'] == use and l['stall'] == 'long_scoreboard', l
assert d['launches'][0]['passes'] == 4 and d['launches'][0]['error'] is None
t = json.load(open(sys.argv[2]))
assert any(e['ph'] == 'X' and e['name'] == 'long_scoreboard' for e in t['traceEvents'])
print('samples', k['samples'])
PY
s1=$(sed -n '/^Kernels/{n;n;p;q}' r1.txt | awk '{print $1}')
s4=$(sed -n '/^Kernels/{n;n;p;q}' r4.txt | awk '{print $1}')
[ "$s4" -ge $((s1 * 36 / 10)) ] && [ "$s4" -le $((s1 * 44 / 10)) ] && ok "step 5: $s1 -> $s4 samples" ||
    bad "step 5: samples $s1 -> $s4"
[ $fail = 0 ] && echo "PASS walkthrough" || echo "FAILED walkthrough"
exit $fail
