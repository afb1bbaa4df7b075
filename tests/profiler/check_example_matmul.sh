#!/bin/bash
# examples/matmul, the tiled kernel every newcomer profiles, must not spill
# to the lanes' stacks: at -O2, fully unrolled, it once reloaded 32 shared
# addresses from local memory at every step, and its profile blamed local
# memory for 93 % of the stalls. Its profile must tell the story the docs
# tell: the tile loads wait on global memory, nothing on local memory.
# usage: check_example_matmul.sh WARPSCOPE MATMUL KERNEL_SRC WORKDIR
set -u
ws=$1 app=$2 src=$3 dir=$4/example_matmul
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
# the lines of the tile loop, found by their text
loop_lines=$(grep -nE 'for \(int t = 0|tile_a\[ty\]\[tx\] =|tile_b\[ty\]\[tx\] =|acc \+=' "$src" | cut -d: -f1 | tr '\n' ' ')
[ "$(echo $loop_lines | wc -w)" = 4 ] || bad "the tile loop's 4 lines not found in $src: '$loop_lines'"
(cd "$(dirname "$app")" && "$ws" profile --json "$dir/m.json" -- "$app") > r.txt 2>&1 || bad "profile exited with $?"
grep -q "PASS" r.txt && ok "the example checks its result" || bad "the example did not pass: $(head -3 r.txt)"
grep -q "local memory latency" r.txt && bad "a rule blames local memory: $(grep 'local memory' r.txt)" ||
    ok "no local-memory rule"
python3 - m.json $loop_lines <<'PY' && ok "no local accesses in the tile loop, their lines under 2% of the samples" || bad "JSON"
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
loop = {int(n) for n in sys.argv[2:]}
assert k['kernel'] == 'matmul_tiled', k['kernel']
lines = [l for l in k['lines'] if (l.get('file') or '').endswith('matmul_kernel.c')]
in_loop = [l for l in lines if l['line'] in loop]
assert len(in_loop) == 4, [l['line'] for l in lines]
for l in in_loop:
    assert l['exact']['local_requests'] == 0, (l['line'], l['exact'])
# registers saved in the prologue may use the stack; their lines stay cold
local = sum(l['samples'] for l in lines if l['exact']['local_requests'] > 0)
assert local <= 0.02 * k['samples'], (local, k['samples'])
# the heaviest rule is the tile loads' wait on global memory
r = k['rules'][0]
assert r['rule'] == 'latency' and {x['line'] for x in r['lines']} <= loop, r
PY
# The cost the docs measured is of this kernel: the cycles they quote are
# its cycles (profiling.md "Cost": 1.38 M; performance.md: 1 380 992).
docs=$(dirname "$src")/../../docs
python3 - m.json "$docs/profiling.md" "$docs/performance.md" <<'PY' && ok "the docs' Cost figures are of this kernel's cycles" || bad "docs quote other cycles"
import json, re, sys
cycles = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]['cycles']
def section(path, title):
    text = open(path).read()
    return text[text.index(title):].split('\n## ', 1)[0]
cost = section(sys.argv[2], '## Cost')
perf = section(sys.argv[3], '## The profiler (issue 4)')
short, grouped = '%.2f M cycles' % (cycles / 1e6), '{:,} cycles'.format(cycles).replace(',', ' ')
assert short in cost, (short, re.findall(r'[0-9.]+ M cycles', cost))
assert grouped in perf.replace('\n', ' '), (grouped, re.findall(r'[0-9 ]+ cycles', perf))
print(short, grouped)
PY
exit $fail
