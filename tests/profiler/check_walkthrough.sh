#!/bin/bash
# The steps of docs/profiling.md's walkthrough, on examples/gather.
# Also the quoted numbers of docs/profiling.md (gather) and docs/timing.md
# (printf's cost, on PAR_KERNELS.elf).
# usage: check_walkthrough.sh WARPSCOPE GATHER_BINARY GATHER_KERNEL_SOURCE WORKDIR PAR_KERNELS.elf
set -u
ws=$1 app=$2 src=$3 dir=$4/walkthrough par=$5
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
# The index line waits on its remainder (`% n`): the dependency rule, with
# how to avoid the remainder (docs/profiling.md quotes it).
grep -qE "^  - gather_kernel.c:$idx: dependent arithmetic: [0-9.]+% of its warp-cycles wait for an arithmetic result \(wait, on rem a[0-9], a[0-9], a[0-9]\): .*; the result waited for is a divide's or remainder's, the slowest: by a power of two, a shift or a mask" r1.txt &&
    ok "rules: line $idx waits on its remainder" || bad "rules: no dependency rule on line $idx: $(grep -A4 Rules r1.txt)"
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
# docs/profiling.md quotes the source view and the exact metrics of gather:
# every quoted line must be what the tool prints now (numbers go stale), in
# the tool's order, lines quoted one after the other following each other
# in the output too; a line "…" marks lines left out (until 2026-11-29 only
# each line's presence was checked, so the source view could start at line
# 12 with the rows before it left out and no "…" to say so).
doc=$(dirname "$src")/../../docs/profiling.md
"$ws" profile --source gather -- "$app" > rs.txt 2> es.txt || bad "--source gather exited with $?"
python3 - "$doc" rs.txt <<'PY' && ok "docs/profiling.md's gather excerpts match the tool" || bad "docs/profiling.md's gather excerpts are stale"
import re, sys
# (the module path depends on where the program ran)
norm = lambda l: re.sub(r'\([^()]*gather_kernel\.elf\)', '(gather_kernel.elf)', l.strip())
doc, out = open(sys.argv[1]).read(), open(sys.argv[2]).read()
lines = [norm(l) for l in out.split('\n')]
have = set(lines)
blocks = [b.strip('\n') for b in doc.split('```')[1::2]]
quoted = [b for b in blocks if b.startswith('Source of kernel gather') or
          re.match(r'\s*\d+\s+[\d.]+%\s+gather_kernel\.c:\d+ \(gather\)', b)]
assert len(quoted) == 2, len(quoted)
stale = [norm(l) for b in quoted for l in b.split('\n') if l.strip() and norm(l) != '…' and norm(l) not in have]
for l in stale: print('not in the output:', l)
assert not stale
for b in quoted:
    at, skip = -1, True  # where the last quoted line was; may lines be left out before the next
    for l in (norm(l) for l in b.split('\n') if l.strip()):
        if l == '…':
            skip = True
            continue
        nxt = lines.index(l, at + 1) if l in lines[at + 1:] else -1
        if nxt < 0 or (not skip and nxt != at + 1):
            print('out of order, or lines left out without "…" before it:', l)
            sys.exit(1)
        at, skip = nxt, False
PY
# docs/timing.md: chatty (four printfs) and short_blocks, cycles of one block
for k in chatty short_blocks; do
    "$ws" profile --period 4 -- "$ws" run --grid 1 --block 64 "$par" $k zeros:64 2>&1 |
        sed -n 's/^    cycles \([0-9]*\), warp instructions.*/\1/p' > $k.cycles
done
python3 - "$(dirname "$src")/../../docs/timing.md" "$(cat chatty.cycles)" "$(cat short_blocks.cycles)" <<'PY' &&
import re, sys
doc = ' '.join(open(sys.argv[1]).read().split())
m = re.search(r'`chatty`, one block .*? takes ([\d ]+) cycles against ([\d ]+) for .*? about ([\d ]+) cycles per printf', doc)
chatty, plain, per = (int(x.replace(' ', '')) for x in m.groups())
print('docs: chatty', chatty, 'short_blocks', plain, 'per printf', per, '; now', sys.argv[2], sys.argv[3])
assert (chatty, plain) == (int(sys.argv[2]), int(sys.argv[3])) and per == round(chatty / 4, -2)
PY
    ok "docs/timing.md's printf cost matches the tool" || bad "docs/timing.md's printf cost is stale"
[ $fail = 0 ] && echo "PASS walkthrough" || echo "FAILED walkthrough"
exit $fail
